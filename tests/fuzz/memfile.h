/* The fuzzer's bytes as a file in memory, for the readers that take a
 * path: a memfd, named /proc/self/fd/N. Header-only. */
#ifndef KEYLINT_FUZZ_MEMFILE_H
#define KEYLINT_FUZZ_MEMFILE_H

#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

/* The file's descriptor (path in `path`), or -1. Close it when done. */
static int memfile(const char *name, const uint8_t *data, size_t size, char path[64])
{
    int fd = memfd_create(name, 0);
    if (fd < 0)
        return -1;
    if (write(fd, data, size) != (ssize_t)size) {
        close(fd);
        return -1;
    }
    snprintf(path, 64, "/proc/self/fd/%d", fd);
    return fd;
}

#endif

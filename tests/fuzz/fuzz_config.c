/* libFuzzer target: any bytes as a .keylint.yml, through the loader (every
 * error is a Problem, never a crash) and, when it loads, --print-config's
 * writer. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "config.h"
#include "config_print.h"
#include "rule.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* the bytes as a file, in memory: /proc/self/fd/N */
    int fd = memfd_create("keylint.yml", 0);
    if (fd < 0 || write(fd, data, size) != (ssize_t)size) {
        if (fd >= 0)
            close(fd);
        return 0;
    }
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    Problems pr;
    problems_init(&pr);
    Config *c = config_load(path, rule_ids(), &pr);
    if (c) {
        FILE *null = fopen("/dev/null", "w");
        if (null) {
            config_print(null, c, "x.ts");
            fclose(null);
        }
        config_free(c);
    }
    problems_free(&pr);
    close(fd);
    return 0;
}

/* libFuzzer target: any bytes as a schema file (CloudFormation/SAM
 * template or serverless.yml, YAML or JSON): the reader and its
 * ${self:...} / ${file(...)} expansion, under their budgets. */
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "schema.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int fd = memfd_create("serverless.yml", 0);
    if (fd < 0 || write(fd, data, size) != (ssize_t)size) {
        if (fd >= 0)
            close(fd);
        return 0;
    }
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    Arena *a = arena_new();
    Problems pr;
    problems_init(&pr);
    TableSet set = {0};
    schema_load_file(a, path, "serverless.yml", &set, &pr);
    problems_free(&pr);
    arena_free(a);
    close(fd);
    return 0;
}

/* libFuzzer target: any bytes as a schema file (CloudFormation/SAM
 * template or serverless.yml, YAML or JSON): the reader and its
 * ${self:...} / ${file(...)} expansion, under their budgets. */
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include "memfile.h"
#include "schema.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64];
    int fd = memfile("serverless.yml", data, size, path);
    if (fd < 0)
        return 0;
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

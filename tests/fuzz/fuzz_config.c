/* libFuzzer target: any bytes as a .keylint.yml, through the loader (every
 * error is a Problem, never a crash) and, when it loads, --print-config's
 * writer. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "config.h"
#include "memfile.h"
#include "config_print.h"
#include "rule.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* the bytes as a file, in memory: /proc/self/fd/N */
    char path[64];
    int fd = memfile("keylint.yml", data, size, path);
    if (fd < 0)
        return 0;
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

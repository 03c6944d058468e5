/* libFuzzer target: any bytes as a TypeScript file, through the whole
 * pipeline (read checks, parse, extract, resolve, facts, rules). Built
 * with `meson setup build-fuzz -Dfuzz=true` and clang; see
 * tests/fuzz/README.md. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "project.h"
#include "walk.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* what read_source would refuse never reaches the parser */
    if (size > KEYLINT_MAX_FILE_BYTES || memchr(data, 0, size) ||
        !utf8_valid((const char *)data, size, NULL))
        return 0;
    Project *p = project_new(NULL);
    project_set_text(p, "/nonexistent/keylint-fuzz/input.ts", (const char *)data, size);
    project_analyze(p);
    project_free(p);
    return 0;
}

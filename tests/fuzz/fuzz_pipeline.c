/* libFuzzer target: any bytes as a TypeScript or TSX file (the first byte
 * chooses), through the whole pipeline (the text pre-check, parse, extract,
 * resolve, facts, rules), with a structure-aware mutator (mutate.h). Built with
 * `meson setup build-fuzz -Dfuzz=true` and clang; see tests/fuzz/README.md. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "defer.h"
#include "mutate.h"
#include "precheck.h"
#include "project.h"
#include "walk.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
    if (size < 1)
        return LLVMFuzzerMutate(data, size, max_size);
    /* the first byte is the file kind: keep it, mutate the text */
    return 1 + fuzz_mutate_source(data + 1, size - 1, max_size - 1, seed);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const char *path = data[0] & 1 ? "/nonexistent/keylint-fuzz/input.tsx"
                                   : "/nonexistent/keylint-fuzz/input.ts";
    data++, size--;
    /* what read_source would refuse never reaches the parser */
    if (size > KEYLINT_MAX_FILE_BYTES || memchr(data, 0, size) ||
        !utf8_valid((const char *)data, size, NULL))
        return 0;
    /* the text scanners of a command-line run, which reads files from
     * disk: the pre-check and the note of a file it sets aside */
    (void)extract_may_find((const char *)data, size, NULL);
    defer_note_free(defer_note((const char *)data, size));
    Project *p = project_new(NULL);
    project_set_text(p, path, (const char *)data, size);
    project_analyze(p);
    project_free(p);
    return 0;
}

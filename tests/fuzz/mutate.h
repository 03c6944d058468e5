/* A structure-aware mutation for the source-text targets: besides
 * libFuzzer's byte mutations, insert at a token boundary what real files
 * and half-typed buffers put between tokens: comments of every kind,
 * text that makes the parser produce ERROR and MISSING nodes, brackets,
 * quotes, template holes, JSX entities. Header-only: each target includes
 * it once. */
#ifndef KEYLINT_FUZZ_MUTATE_H
#define KEYLINT_FUZZ_MUTATE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);

static const char *const fuzz_snippets[] = {
    "/* c */", "// c\n", "<!-- c -->\n", "-->\n", "/** @type {x} */", "\n",
    "&", "&&", "&amp;", "&#128197;", "&lt ", "<", ">", "</", "<div>", "</div>", "{", "}",
    "(", ")", "[", "]", "'", "\"", "`", "${", "${x}", "`A#${", "#", "::", ";", ",",
    "const = ;", "if (", "x.", "=>", "as const", "satisfies T", "!", "?.", "in?: string;",
    "export { a, /* c */ b } from './x';", "import {", "new QueryCommand(", "Key: {",
    "pk: `USER#${id}`", "sk: 'X#' + y", "KeyConditionExpression: 'pk = :p AND begins_with(sk, :s)'",
    "ExpressionAttributeNames: { '#k': '[' }", "table.addGlobalSecondaryIndex();",
    "['[']: x", "\xef\xbb\xbf", "\xc2\x85", "\r\n", "\t",
};

/* A byte offset at a token boundary (after a space, a punctuation mark or
 * a line break), or `size` when there is none near the random start. */
static size_t fuzz_boundary(const uint8_t *data, size_t size, unsigned seed)
{
    if (!size)
        return 0;
    size_t at = seed % (size + 1);
    for (size_t i = at; i < size; i++)
        if (strchr(" \n\t;,(){}[]<>=:+", data[i]))
            return i + 1;
    return size;
}

static size_t fuzz_mutate_source(uint8_t *data, size_t size, size_t max_size, unsigned seed)
{
    if (seed % 3 == 0) /* a third of the time, libFuzzer's own */
        return LLVMFuzzerMutate(data, size, max_size);
    size_t n = sizeof fuzz_snippets / sizeof *fuzz_snippets;
    int rounds = 1 + (int)(seed / 3 % 4);
    for (int r = 0; r < rounds; r++) {
        const char *s = fuzz_snippets[(seed / 7 + (unsigned)r * 13) % n];
        size_t k = strlen(s);
        if (size + k > max_size)
            break;
        size_t at = fuzz_boundary(data, size, seed * 2654435761u + (unsigned)r);
        memmove(data + at + k, data + at, size - at);
        memcpy(data + at, s, k);
        size += k;
    }
    return size;
}

#endif

/* The parse-only baseline bench/scale.sh holds keylint against: read each
 * file named on standard input (one path per line), parse it with the same
 * tree-sitter runtime and grammar keylint links (TSX for .tsx/.jsx), and
 * delete the tree at once. One thread; nothing else kept. Prints the files
 * and bytes parsed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tree_sitter/api.h>

const TSLanguage *tree_sitter_typescript(void);
const TSLanguage *tree_sitter_tsx(void);

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    for (size_t got; buf && (got = fread(buf + n, 1, cap - n, f)) > 0;) {
        n += got;
        if (n == cap)
            buf = realloc(buf, cap *= 2);
    }
    fclose(f);
    *len = n;
    return buf;
}

static int ends_with(const char *s, const char *tail)
{
    size_t a = strlen(s), b = strlen(tail);
    return a >= b && !strcmp(s + a - b, tail);
}

int main(void)
{
    TSParser *ts = ts_parser_new(), *tsx = ts_parser_new();
    if (!ts || !tsx || !ts_parser_set_language(ts, tree_sitter_typescript()) ||
        !ts_parser_set_language(tsx, tree_sitter_tsx())) {
        fputs("parse_only: cannot set up the parser\n", stderr);
        return 2;
    }
    char line[8192];
    size_t files = 0, bytes = 0;
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\n")] = '\0';
        if (!line[0])
            continue;
        size_t len;
        char *text = slurp(line, &len);
        if (!text) {
            fprintf(stderr, "parse_only: cannot read %s\n", line);
            continue;
        }
        TSParser *p = ends_with(line, ".tsx") || ends_with(line, ".jsx") ? tsx : ts;
        TSTree *tree = ts_parser_parse_string(p, NULL, text, (uint32_t)len);
        ts_tree_delete(tree);
        free(text);
        files++;
        bytes += len;
    }
    ts_parser_delete(ts);
    ts_parser_delete(tsx);
    printf("parsed %zu files, %zu bytes\n", files, bytes);
    return 0;
}

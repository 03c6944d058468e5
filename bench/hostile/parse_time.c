/* How long keylint's parse of one TypeScript file takes: tree-sitter's
 * parse plus the syntax index (syntax.h), the floor of any lint of it.
 * bench/hostile/run.sh compares a whole run of keylint with this.
 *
 *   parse_time FILE    prints the best of 3 parses in milliseconds */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "syntax.h"
#include "walk.h"

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fputs("usage: parse_time FILE\n", stderr);
        return 2;
    }
    Problems problems;
    problems_init(&problems);
    size_t len = 0;
    char *text = read_source(argv[1], &len, &problems);
    if (!text) {
        fprintf(stderr, "parse_time: cannot read %s\n", argv[1]);
        return 2;
    }
    double best = -1;
    for (int i = 0; i < 3; i++) {
        Arena *strings = arena_new();
        double t0 = now_ms();
        SynTree *t = syn_parse(text, len, SYN_TYPESCRIPT, strings, NULL);
        double ms = now_ms() - t0;
        syn_free(t);
        arena_free(strings);
        if (best < 0 || ms < best)
            best = ms;
    }
    printf("%.1f\n", best);
    free(text);
    problems_free(&problems);
    return 0;
}

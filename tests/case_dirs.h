/* Table-driven tests whose cases are directories (fixtures/<name>/,
 * tests/extract/<name>/): the case names, found from the source root. */
#ifndef KEYLINT_TESTS_CASE_DIRS_H
#define KEYLINT_TESTS_CASE_DIRS_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int case_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Change to $KEYLINT_SOURCE_ROOT and list the subdirectories of `dir`,
 * sorted (malloc'd; free with case_dirs_free). NULL, after a message on
 * stderr, when there are none or `dir` cannot be read: a table-driven test
 * with no cases must fail, not pass. */
static char **case_dirs(const char *dir, size_t *n)
{
    const char *root = getenv("KEYLINT_SOURCE_ROOT");
    if (root && chdir(root) != 0) {
        perror(root);
        return NULL;
    }
    DIR *d = opendir(dir);
    if (!d) {
        perror(dir);
        return NULL;
    }
    char **names = NULL;
    size_t cap = 0;
    *n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        DIR *sub = opendir(path);
        if (!sub)
            continue;
        closedir(sub);
        if (*n == cap) {
            cap = cap ? cap * 2 : 32;
            char **grown = realloc(names, cap * sizeof *names);
            if (!grown)
                abort();
            names = grown;
        }
        names[(*n)++] = strdup(e->d_name);
    }
    closedir(d);
    if (*n == 0) {
        fprintf(stderr, "no case directories under %s/\n", dir);
        free(names);
        return NULL;
    }
    qsort(names, *n, sizeof *names, case_cmp);
    return names;
}

static void case_dirs_free(char **names, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

#endif

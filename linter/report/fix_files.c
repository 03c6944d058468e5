/* --fix and --fix-dry-run on disk (fix_files.h). */
#include "fix_files.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "files.h"
#include "walk.h"

char *fix_read(const char *path, size_t *len, size_t *bom, Problems *problems)
{
    return read_source_bom(path, len, bom, problems);
}

/* `abs` relative to the directory `base` (both absolute, canonical), with
 * "../" where it is not under it; in `a`. */
static const char *relative_to(Arena *a, const char *base, const char *abs)
{
    size_t common = 0; /* the length of the common directory prefix */
    for (size_t i = 0; base[i] && base[i] == abs[i]; i++)
        if (base[i] == '/')
            common = i;
    size_t bl = strlen(base);
    if (!strncmp(base, abs, bl) && (abs[bl] == '/' || bl == 1))
        return arena_strdup(a, abs + (bl == 1 ? 1 : bl + 1));
    StrBuf b;
    sb_init(&b, a);
    for (const char *c = base + common; *c; c++)
        if (*c == '/')
            sb_append(&b, "../");
    sb_append(&b, abs + common + 1);
    return sb_str(&b);
}

const char *fix_diff_name(Arena *a, const char *path)
{
    char *abs = realpath(path, NULL);
    if (!abs)
        return path;
    const char *slash = strrchr(abs, '/');
    const char *dir = slash == abs ? "/" : arena_strndup(a, abs, (size_t)(slash - abs));
    const char *root = git_work_tree(a, dir);
    char cwd[PATH_MAX];
    if (!root && getcwd(cwd, sizeof cwd))
        root = arena_strdup(a, cwd);
    const char *name = root ? relative_to(a, root, abs) : path;
    free(abs);
    return name;
}

bool fix_write(FILE *out, const char *path, const char *text, size_t len, size_t bom,
               const FixEdit *e, size_t n, bool dry, Problems *problems)
{
    Arena *a = arena_new();
    bool ok = true;
    const char *refused = replace_refused(path, a);
    if (refused) {
        problems_add(problems, path, 0, 0, "not rewritten: %s", refused);
        arena_free(a);
        return false;
    }
    /* the file as it is on disk: the mark, then the text; the edits
     * move behind the mark (an import at the top goes after it) */
    char *raw = malloc(bom + len + 1);
    FixEdit *moved = malloc((n ? n : 1) * sizeof *moved);
    if (!raw || !moved)
        abort();
    memcpy(raw, "\xEF\xBB\xBF", bom);
    memcpy(raw + bom, text, len);
    for (size_t i = 0; i < n; i++) {
        moved[i] = e[i];
        moved[i].start += bom;
        moved[i].end += bom;
    }
    if (dry) {
        fix_diff(out, fix_diff_name(a, path), raw, bom + len, moved, n);
    } else {
        size_t nlen;
        char *fixed = fix_apply(raw, bom + len, moved, n, &nlen);
        const char *why;
        ok = file_replace(path, fixed, nlen, a, &why);
        if (!ok && replace_refused(path, a))
            problems_add(problems, path, 0, 0, "not rewritten: %s", why);
        else if (!ok)
            problems_add(problems, path, 0, 0, "cannot write the fixed file: %s", why);
        free(fixed);
    }
    free(moved);
    free(raw);
    arena_free(a);
    return ok;
}

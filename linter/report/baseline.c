#include "baseline.h"

#include "files.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct Entry {
    uint64_t key;
    uint32_t count; /* left to absorb */
} Entry;

struct Baseline {
    Arena *arena;
    VEC(Entry) entries; /* sorted by key, keys unique */
    size_t total;
};

static int entry_cmp(const void *a, const void *b)
{
    const Entry *x = a, *y = b;
    return x->key < y->key ? -1 : x->key > y->key;
}

static bool parse_hex64(const char *s, uint64_t *out)
{
    uint64_t v = 0;
    size_t i = 0;
    for (; s[i]; i++) {
        char c = s[i];
        int d = c >= '0' && c <= '9'   ? c - '0'
                : c >= 'a' && c <= 'f' ? c - 'a' + 10
                : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                       : -1;
        if (d < 0 || i >= 16)
            return false;
        v = (v << 4) | (uint64_t)d;
    }
    if (i != 16)
        return false;
    *out = v;
    return true;
}

static Baseline *fail(Baseline *b, json_t *root)
{
    json_decref(root);
    baseline_free(b);
    return NULL;
}

Baseline *baseline_load(const char *path, Problems *problems)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        problems_add(problems, path, 0, 0, "cannot read the baseline: %s",
                     strerror(errno));
        return NULL;
    }
    json_error_t err;
    json_t *root = json_loadf(f, JSON_REJECT_DUPLICATES, &err);
    fclose(f);
    if (!root) {
        problems_add(problems, path, err.line > 0 ? (uint32_t)err.line : 0,
                     err.column > 0 ? (uint32_t)err.column : 0,
                     "malformed baseline (not JSON): %s", err.text);
        return NULL;
    }
    Baseline *b = calloc(1, sizeof *b);
    if (!b)
        abort();
    b->arena = arena_new();
    const char *hint = "; write one with --baseline-write";
    if (!json_is_object(root)) {
        problems_add(problems, path, 0, 0,
                     "not a keylint baseline: the top level must be an object "
                     "with \"version\" and \"entries\"%s",
                     hint);
        return fail(b, root);
    }
    json_t *version = json_object_get(root, "version");
    if (!json_is_integer(version)) {
        problems_add(problems, path, 0, 0,
                     "not a keylint baseline: no integer \"version\"%s", hint);
        return fail(b, root);
    }
    if (json_integer_value(version) != BASELINE_VERSION) {
        problems_add(problems, path, 0, 0,
                     "baseline version %lld is not supported (this keylint "
                     "reads version %d)%s",
                     (long long)json_integer_value(version), BASELINE_VERSION,
                     hint);
        return fail(b, root);
    }
    json_t *entries = json_object_get(root, "entries");
    if (!json_is_array(entries)) {
        problems_add(problems, path, 0, 0,
                     "not a keylint baseline: \"entries\" must be an array%s", hint);
        return fail(b, root);
    }
    size_t i;
    json_t *e;
    json_array_foreach (entries, i, e) {
        json_t *fp = json_is_object(e) ? json_object_get(e, "fingerprint") : NULL;
        json_t *count = json_is_object(e) ? json_object_get(e, "count") : NULL;
        Entry en = {0};
        if (!json_is_string(fp) || !parse_hex64(json_string_value(fp), &en.key)) {
            problems_add(problems, path, 0, 0,
                         "bad baseline entry %zu: \"fingerprint\" must be a "
                         "string of 16 hex digits",
                         i + 1);
            return fail(b, root);
        }
        if (!json_is_integer(count) || json_integer_value(count) < 1 ||
            json_integer_value(count) > UINT32_MAX) {
            problems_add(problems, path, 0, 0,
                         "bad baseline entry %zu: \"count\" must be a positive "
                         "integer",
                         i + 1);
            return fail(b, root);
        }
        en.count = (uint32_t)json_integer_value(count);
        b->total += en.count;
        VEC_PUSH(b->arena, &b->entries, en);
    }
    json_decref(root);
    /* sort; merge entries that repeat a key (a hand-merged file) */
    if (b->entries.n > 1)
        qsort(b->entries.v, b->entries.n, sizeof *b->entries.v, entry_cmp);
    size_t w = 0;
    for (size_t r = 0; r < b->entries.n; r++) {
        if (w > 0 && b->entries.v[w - 1].key == b->entries.v[r].key)
            b->entries.v[w - 1].count += b->entries.v[r].count;
        else
            b->entries.v[w++] = b->entries.v[r];
    }
    b->entries.n = w;
    return b;
}

void baseline_free(Baseline *b)
{
    if (!b)
        return;
    arena_free(b->arena);
    free(b);
}

size_t baseline_size(const Baseline *b)
{
    return b ? b->total : 0;
}

static Entry *find(Baseline *b, uint64_t key)
{
    size_t lo = 0, hi = b->entries.n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (b->entries.v[mid].key < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < b->entries.n && b->entries.v[lo].key == key ? &b->entries.v[lo] : NULL;
}

size_t baseline_filter(Baseline *b, const FindingList *f, bool *keep)
{
    size_t absorbed = 0;
    for (size_t i = 0; i < f->items.n; i++) {
        Entry *e = b ? find(b, f->items.v[i].key) : NULL;
        if (e && e->count > 0) {
            e->count--;
            keep[i] = false;
            absorbed++;
        } else {
            keep[i] = true;
        }
    }
    return absorbed;
}

size_t baseline_stale(const Baseline *b)
{
    size_t n = 0;
    for (size_t i = 0; b && i < b->entries.n; i++)
        n += b->entries.v[i].count;
    return n;
}

/* ---- writing ------------------------------------------------------------ */

typedef struct Group {
    const Finding *first;
    uint32_t count;
} Group;

static int finding_key_cmp(const void *a, const void *b)
{
    const Finding *x = *(const Finding *const *)a, *y = *(const Finding *const *)b;
    return x->key < y->key ? -1 : x->key > y->key;
}

static int group_cmp(const void *a, const void *b)
{
    const Finding *x = ((const Group *)a)->first, *y = ((const Group *)b)->first;
    int c = strcmp(x->uri_path, y->uri_path);
    if (!c)
        c = strcmp(x->diag->rule, y->diag->rule);
    if (!c)
        c = strcmp(x->code, y->code);
    if (!c)
        c = x->key < y->key ? -1 : x->key > y->key;
    return c;
}

bool baseline_write(const char *path, const FindingList *f, Problems *problems)
{
    Arena *a = arena_new();
    size_t n = f->items.n;
    const Finding **byk = arena_alloc(a, (n ? n : 1) * sizeof *byk);
    for (size_t i = 0; i < n; i++)
        byk[i] = &f->items.v[i];
    qsort(byk, n, sizeof *byk, finding_key_cmp);
    Group *groups = arena_alloc(a, (n ? n : 1) * sizeof *groups);
    size_t ng = 0;
    for (size_t i = 0; i < n; i++) {
        if (ng > 0 && groups[ng - 1].first->key == byk[i]->key)
            groups[ng - 1].count++;
        else
            groups[ng++] = (Group){byk[i], 1};
    }
    qsort(groups, ng, sizeof *groups, group_cmp);

    json_t *root = json_object();
    json_object_set_new(root, "version", json_integer(BASELINE_VERSION));
    json_object_set_new(root, "tool", json_string("keylint"));
    json_t *entries = json_array();
    for (size_t i = 0; i < ng; i++) {
        const Finding *x = groups[i].first;
        json_t *e = json_object();
        char hex[17];
        snprintf(hex, sizeof hex, "%016llx", (unsigned long long)x->key);
        json_object_set_new(e, "fingerprint", json_string(hex));
        json_object_set_new(e, "rule", json_string(utf8_sanitize(a, x->diag->rule)));
        json_object_set_new(e, "path", json_string(utf8_sanitize(a, x->uri_path)));
        json_object_set_new(e, "code", json_string(utf8_sanitize(a, x->code)));
        json_object_set_new(e, "count", json_integer(groups[i].count));
        json_array_append_new(entries, e);
    }
    json_object_set_new(root, "entries", entries);

    bool ok = false;
    ReplaceFile rf;
    if (!replace_open(&rf, path, a)) {
        if (rf.refused)
            problems_add(problems, path, 0, 0, "not rewritten: %s", rf.refused);
        else
            problems_add(problems, path, 0, 0, "cannot write the baseline: %s",
                         replace_error(&rf));
        goto out;
    }
    errno = 0;
    int rc = json_dumpf(root, rf.f, JSON_INDENT(2));
    if (rc == 0 && fputc('\n', rf.f) == EOF)
        rc = -1;
    int werr = errno;
    if (!replace_commit(&rf, rc == 0)) {
        problems_add(problems, path, 0, 0, "cannot write the baseline: %s",
                     strerror(rc != 0 && werr ? werr : rf.err ? rf.err : EIO));
        goto out;
    }
    ok = true;
out:
    json_decref(root);
    arena_free(a);
    return ok;
}

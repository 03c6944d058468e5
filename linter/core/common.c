#include "common.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

const char *severity_name(Severity s)
{
    switch (s) {
    case SEV_ERROR:
        return "error";
    case SEV_WARNING:
        return "warning";
    case SEV_OFF:
        break;
    }
    return "off";
}

bool severity_parse(const char *s, Severity *out)
{
    if (!strcmp(s, "error"))
        *out = SEV_ERROR;
    else if (!strcmp(s, "warning") || !strcmp(s, "warn"))
        *out = SEV_WARNING;
    else if (!strcmp(s, "off"))
        *out = SEV_OFF;
    else
        return false;
    return true;
}

size_t edit_distance(const char *a, size_t la, const char *b, size_t lb)
{
    enum { CAP = 64 };
    if (la > CAP || lb > CAP)
        return (size_t)-1;
    size_t row[CAP + 1];
    for (size_t j = 0; j <= lb; j++)
        row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j];
            size_t best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

void sb_init(StrBuf *b, Arena *a)
{
    *b = (StrBuf){.a = a};
}

void sb_appendn(StrBuf *b, const char *s, size_t n)
{
    arena_grow(b->a, (void **)&b->s, &b->cap, b->len + n + 1, 1);
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

void sb_append(StrBuf *b, const char *s)
{
    if (s)
        sb_appendn(b, s, strlen(s));
}

void sb_printf(StrBuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char small[256];
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(small, sizeof small, fmt, ap2);
    va_end(ap2);
    if (n > 0 && (size_t)n < sizeof small) {
        sb_appendn(b, small, (size_t)n);
    } else if (n > 0) {
        arena_grow(b->a, (void **)&b->s, &b->cap, b->len + (size_t)n + 1, 1);
        vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
        b->len += (size_t)n;
    }
    va_end(ap);
}

const char *sb_str(const StrBuf *b)
{
    return b->s ? b->s : "";
}

/* Eight bytes at a time, each word multiplied in, then splitmix64's
 * finalizer so that the low bits (the tables' slots) depend on every
 * byte. Not stable across versions: nothing outside the process sees it. */
uint64_t hash_bytes(const void *s, size_t n)
{
    const unsigned char *p = s;
    uint64_t h = 0x9E3779B97F4A7C15u ^ n;
    for (; n >= 8; p += 8, n -= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        h = (h ^ w) * 0xbf58476d1ce4e5b9u;
        h ^= h >> 29;
    }
    uint64_t w = 0;
    memcpy(&w, p, n);
    h = (h ^ w) * 0x94d049bb133111ebu;
    h ^= h >> 30;
    h *= 0xbf58476d1ce4e5b9u;
    h ^= h >> 27;
    h *= 0x94d049bb133111ebu;
    h ^= h >> 31;
    return h;
}

static NameSlot *namemap_slot(NameSlot *slots, size_t cap, const char *name)
{
    size_t i = (size_t)hash_bytes(name, strlen(name)) & (cap - 1);
    while (slots[i].name && strcmp(slots[i].name, name))
        i = (i + 1) & (cap - 1);
    return &slots[i];
}

void namemap_put(Arena *a, NameMap *m, const char *name, size_t value)
{
    if (!name)
        return;
    if ((m->n + 1) * 2 > m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 16;
        NameSlot *slots = arena_alloc(a, cap * sizeof *slots);
        for (size_t i = 0; i < m->cap; i++)
            if (m->slots[i].name)
                *namemap_slot(slots, cap, m->slots[i].name) = m->slots[i];
        m->slots = slots;
        m->cap = cap;
    }
    NameSlot *s = namemap_slot(m->slots, m->cap, name);
    if (s->name)
        return;
    *s = (NameSlot){name, value};
    m->n++;
}

bool namemap_get(const NameMap *m, const char *name, size_t *value)
{
    if (!m->cap || !name)
        return false;
    const NameSlot *s = namemap_slot(m->slots, m->cap, name);
    if (!s->name)
        return false;
    *value = s->value;
    return true;
}

static NumSlot *nummap_slot(NumSlot *slots, size_t cap, uint64_t key)
{
    uint64_t h = (key ^ (key >> 29)) * 0x9E3779B97F4A7C15u;
    size_t i = (size_t)(h >> 20) & (cap - 1);
    while (slots[i].used && slots[i].key != key)
        i = (i + 1) & (cap - 1);
    return &slots[i];
}

void nummap_put(Arena *a, NumMap *m, uint64_t key, size_t value)
{
    if ((m->n + 1) * 2 > m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 16;
        NumSlot *slots = arena_alloc(a, cap * sizeof *slots);
        for (size_t i = 0; i < m->cap; i++)
            if (m->slots[i].used)
                *nummap_slot(slots, cap, m->slots[i].key) = m->slots[i];
        m->slots = slots;
        m->cap = cap;
    }
    NumSlot *s = nummap_slot(m->slots, m->cap, key);
    if (s->used)
        return;
    *s = (NumSlot){key, true, value};
    m->n++;
}

bool nummap_get(const NumMap *m, uint64_t key, size_t *value)
{
    if (!m->cap)
        return false;
    const NumSlot *s = nummap_slot(m->slots, m->cap, key);
    if (!s->used)
        return false;
    if (value)
        *value = s->value;
    return true;
}

void nummap_set(Arena *a, NumMap *m, uint64_t key, size_t value)
{
    nummap_put(a, m, key, value);
    nummap_slot(m->slots, m->cap, key)->value = value;
}

void strlist_push(Arena *a, StrList *l, const char *s)
{
    arena_grow(a, (void **)&l->v, &l->cap, l->n + 1, sizeof *l->v);
    l->v[l->n++] = s;
}

void strlist_push_once(Arena *a, StrList *l, NameMap *seen, const char *s)
{
    size_t at;
    if (namemap_get(seen, s, &at))
        return;
    namemap_put(a, seen, s, l->n);
    strlist_push(a, l, s);
}

bool strlist_has(const StrList *l, const char *s)
{
    for (size_t i = 0; i < l->n; i++)
        if (!strcmp(l->v[i], s))
            return true;
    return false;
}

bool strlist_has_ci(const StrList *l, const char *s)
{
    for (size_t i = 0; i < l->n; i++)
        if (!strcasecmp(l->v[i], s))
            return true;
    return false;
}

void problems_init(Problems *p)
{
    memset(p, 0, sizeof *p);
    p->arena = arena_new();
}

void problems_free(Problems *p)
{
    arena_free(p->arena);
    memset(p, 0, sizeof *p);
}

static void problems_vadd(Problems *p, ProblemKind kind, const char *path, uint32_t line,
                          uint32_t col, const char *fmt, va_list ap)
{
    Problem pr = {
        .kind = kind,
        .path = arena_strdup(p->arena, path ? path : ""),
        .line = line,
        .col = col,
        .message = arena_vprintf(p->arena, fmt, ap),
    };
    const char *key = arena_printf(p->arena, "%d:%u:%u:%zu:%s%s", (int)kind, line, col,
                                   strlen(pr.path), pr.path, pr.message);
    size_t seen;
    if (namemap_get(&p->seen, key, &seen))
        return;
    namemap_put(p->arena, &p->seen, key, p->items.n);
    VEC_PUSH(p->arena, &p->items, pr);
}

void problems_add(Problems *p, const char *path, uint32_t line, uint32_t col,
                  const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    problems_vadd(p, PROBLEM_INPUT, path, line, col, fmt, ap);
    va_end(ap);
}

void problems_add_kind(Problems *p, ProblemKind kind, const char *path, uint32_t line,
                       uint32_t col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    problems_vadd(p, kind, path, line, col, fmt, ap);
    va_end(ap);
}

bool problems_have(const Problems *p, ProblemKind kind)
{
    for (size_t i = 0; i < p->items.n; i++)
        if (p->items.v[i].kind == kind)
            return true;
    return false;
}

const char *problem_level(const Problem *p)
{
    return p->kind == PROBLEM_NOTE ? "note" : "error";
}

static int problem_cmp(const void *a, const void *b)
{
    const Problem *x = a, *y = b;
    int c = strcmp(x->path, y->path);
    if (c)
        return c;
    if (x->line != y->line)
        return x->line < y->line ? -1 : 1;
    if (x->col != y->col)
        return x->col < y->col ? -1 : 1;
    return strcmp(x->message, y->message);
}

void problems_sort(Problems *p)
{
    if (p->items.n > 1)
        qsort(p->items.v, p->items.n, sizeof *p->items.v, problem_cmp);
}

size_t ctl_escape(const char *s, size_t n, char buf[8], size_t *used)
{
    unsigned char c = n ? (unsigned char)s[0] : 0;
    *used = 1;
    if (!n || c == '\t' || (c >= 0x20 && c < 0x7F))
        return 0;
    if (c == '\n' || c == '\r') {
        buf[0] = '\\';
        buf[1] = c == '\n' ? 'n' : 'r';
        buf[2] = '\0';
        return 2;
    }
    if (c < 0x20 || c == 0x7F)
        return (size_t)snprintf(buf, 8, "\\x%02x", c);
    /* U+0080..U+009F: C2 80..C2 9F; any other byte of UTF-8 is text */
    if (c == 0xC2 && n > 1 && (unsigned char)s[1] >= 0x80 && (unsigned char)s[1] <= 0x9F) {
        *used = 2;
        return (size_t)snprintf(buf, 8, "\\u%04x", (unsigned char)s[1]);
    }
    return 0;
}

void fput_escaped(FILE *out, const char *s, size_t n)
{
    size_t from = 0, i = 0;
    while (i < n) {
        char buf[8];
        size_t used;
        size_t k = ctl_escape(s + i, n - i, buf, &used);
        if (!k) {
            i += used;
            continue;
        }
        fwrite(s + from, 1, i - from, out);
        fwrite(buf, 1, k, out);
        i += used;
        from = i;
    }
    fwrite(s + from, 1, n - from, out);
}

void fputs_escaped(FILE *out, const char *s)
{
    if (s)
        fput_escaped(out, s, strlen(s));
}

size_t line_break_len(const char *s, size_t n, size_t i)
{
    if (i >= n)
        return 0;
    if (s[i] == '\n')
        return 1;
    if (s[i] != '\r')
        return 0;
    return i + 1 < n && s[i + 1] == '\n' ? 2 : 1;
}

size_t line_break_next(const char *s, size_t n, size_t from)
{
    if (from >= n)
        return n;
    const char *nl = memchr(s + from, '\n', n - from);
    size_t end = nl ? (size_t)(nl - s) : n;
    const char *cr = memchr(s + from, '\r', end - from);
    return cr ? (size_t)(cr - s) : end;
}

uint64_t clock_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

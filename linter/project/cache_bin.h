/* The binary encoding the cache's files are written in (cache.h's entries,
 * cache_ir.h's IR, cache_findings.h's record): numbers in the byte order
 * of the machine that writes them (each file's header has a number that
 * reads back only in that order), strings as their length (uint32) and
 * bytes, NULL as the length NO_STR.
 *
 * BinOut grows a malloc'd buffer. BinIn reads one back with every read
 * checked against its end: a read past it (or a string holding a NUL, a
 * count larger than what is left could hold) sets `bad`, and every later
 * read then gives zeros and NULLs, so a reader goes on to its end and
 * looks at `bad` once. */
#ifndef KEYLINT_CACHE_BIN_H
#define KEYLINT_CACHE_BIN_H

#include <stdlib.h>
#include <string.h>

#include "common.h"

#define BIN_NO_STR 0xffffffffu

typedef struct BinOut {
    char *v;
    size_t n, cap;
    /* When set, nothing is written: each string put is handed to `seen`
     * instead (cache_ir_each_str). */
    void (*seen)(void *ctx, const char *s);
    void *ctx;
} BinOut;

static inline void bin_put(BinOut *o, const void *s, size_t n)
{
    if (o->seen)
        return;
    if (o->cap - o->n < n) {
        size_t cap = o->cap ? o->cap * 2 : 4096;
        while (cap - o->n < n)
            cap *= 2;
        char *v = realloc(o->v, cap);
        if (!v)
            abort();
        o->v = v;
        o->cap = cap;
    }
    if (n)
        memcpy(o->v + o->n, s, n);
    o->n += n;
}

static inline void bin_put_u8(BinOut *o, unsigned x)
{
    unsigned char b = (unsigned char)x;
    bin_put(o, &b, 1);
}

static inline void bin_put_u32(BinOut *o, uint32_t x)
{
    bin_put(o, &x, 4);
}

static inline void bin_put_u64(BinOut *o, uint64_t x)
{
    bin_put(o, &x, 8);
}

static inline void bin_put_str(BinOut *o, const char *s)
{
    if (!s) {
        bin_put_u32(o, BIN_NO_STR);
        return;
    }
    if (o->seen)
        o->seen(o->ctx, s);
    size_t n = strlen(s);
    bin_put_u32(o, (uint32_t)n);
    bin_put(o, s, n);
}

static inline void bin_put_span(BinOut *o, Span s)
{
    uint32_t v[6] = {s.start_byte, s.end_byte, s.start_row, s.start_col, s.end_row, s.end_col};
    bin_put(o, v, sizeof v);
}

typedef struct BinIn {
    const char *v;
    size_t n, at;
    bool bad;
} BinIn;

static inline bool bin_get(BinIn *in, void *dst, size_t n)
{
    if (in->bad || in->n - in->at < n) {
        in->bad = true;
        memset(dst, 0, n);
        return false;
    }
    memcpy(dst, in->v + in->at, n);
    in->at += n;
    return true;
}

static inline unsigned bin_get_u8(BinIn *in)
{
    unsigned char b;
    bin_get(in, &b, 1);
    return b;
}

static inline uint32_t bin_get_u32(BinIn *in)
{
    uint32_t x;
    bin_get(in, &x, 4);
    return x;
}

static inline uint64_t bin_get_u64(BinIn *in)
{
    uint64_t x;
    bin_get(in, &x, 8);
    return x;
}

/* A string in place (not terminated), its length in *len; NULL for none
 * (and after anything wrong). */
static inline const char *bin_get_strn(BinIn *in, size_t *len)
{
    uint32_t n = bin_get_u32(in);
    *len = 0;
    if (in->bad || n == BIN_NO_STR)
        return NULL;
    if (in->n - in->at < n || memchr(in->v + in->at, '\0', n)) {
        in->bad = true;
        return NULL;
    }
    const char *s = in->v + in->at;
    in->at += n;
    *len = n;
    return s;
}

/* A string copied into `a`; NULL for none. */
static inline const char *bin_get_str(BinIn *in, Arena *a)
{
    size_t n;
    const char *s = bin_get_strn(in, &n);
    return s ? arena_strndup(a, s, n) : NULL;
}

/* A string that must be there. */
static inline const char *bin_get_str1(BinIn *in, Arena *a)
{
    const char *s = bin_get_str(in, a);
    if (!s)
        in->bad = true;
    return s;
}

static inline Span bin_get_span(BinIn *in)
{
    uint32_t v[6];
    bin_get(in, v, sizeof v);
    return (Span){v[0], v[1], v[2], v[3], v[4], v[5]};
}

/* A count of elements each at least `least` bytes long: one the bytes
 * left cannot hold is wrong (so that a damaged count allocates nothing). */
static inline size_t bin_get_count(BinIn *in, size_t least)
{
    uint32_t n = bin_get_u32(in);
    if (in->bad || (least && n > (in->n - in->at) / least)) {
        in->bad = true;
        return 0;
    }
    return n;
}

#endif

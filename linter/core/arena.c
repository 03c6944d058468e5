#include "arena.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Blocks are chained. Standard blocks start small and double up to
 * MAX_BLOCK, so that the many small arenas (one IR per file) hold about
 * what they use; a request larger than a quarter of the next block gets a
 * block of its own so that big arrays do not waste a standard one. */
enum { FIRST_BLOCK = 1024, MAX_BLOCK = 64 * 1024, ALIGN = 16 };

typedef struct Block {
    struct Block *next;
    size_t used, size;
    _Alignas(16) unsigned char data[];
} Block;

struct Arena {
    Block *head;
    size_t next;     /* the size of the next standard block */
    ArenaPool *pool; /* where its blocks come from and go back to, or NULL */
};

/* Spare blocks, unsorted; at most POOL_KEEP bytes of them (a file larger
 * than any before leaves its blocks to malloc). */
enum { POOL_KEEP = 64 << 20 };

struct ArenaPool {
    Block *spare;
    size_t bytes;
};

static void *xmalloc(size_t n)
{
    void *p = malloc(n);
    if (!p) {
        fputs("keylint: out of memory\n", stderr);
        abort();
    }
    return p;
}

Arena *arena_new(void)
{
    Arena *a = xmalloc(sizeof *a);
    a->head = NULL;
    a->next = FIRST_BLOCK;
    a->pool = NULL;
    return a;
}

Arena *arena_new_pooled(ArenaPool *pool)
{
    Arena *a = arena_new();
    a->pool = pool;
    return a;
}

ArenaPool *arena_pool_new(void)
{
    ArenaPool *p = xmalloc(sizeof *p);
    p->spare = NULL;
    p->bytes = 0;
    return p;
}

static void free_blocks(Block *b)
{
    while (b) {
        Block *next = b->next;
        free(b);
        b = next;
    }
}

void arena_pool_free(ArenaPool *pool)
{
    if (!pool)
        return;
    free_blocks(pool->spare);
    free(pool);
}

/* The smallest spare block of at least `size` bytes, taken out of the
 * pool; NULL when there is none. */
static Block *pool_take(ArenaPool *pool, size_t size)
{
    Block **best = NULL;
    for (Block **b = &pool->spare; *b; b = &(*b)->next)
        if ((*b)->size >= size && (!best || (*b)->size < (*best)->size))
            best = b;
    if (!best)
        return NULL;
    Block *taken = *best;
    *best = taken->next;
    pool->bytes -= taken->size;
    return taken;
}

void arena_free(Arena *a)
{
    if (!a)
        return;
    Block *b = a->head;
    while (b && a->pool) {
        Block *next = b->next;
        if (a->pool->bytes + b->size > POOL_KEEP)
            break;
        b->next = a->pool->spare;
        a->pool->spare = b;
        a->pool->bytes += b->size;
        b = next;
    }
    free_blocks(b);
    free(a);
}

Arena *arena_new_reserved(size_t first)
{
    Arena *a = arena_new();
    if (first) {
        Block *b = xmalloc(sizeof *b + first);
        b->next = NULL;
        b->used = 0;
        b->size = first;
        a->head = b;
    }
    return a;
}

size_t arena_used(const Arena *a)
{
    size_t n = 0;
    for (const Block *b = a->head; b; b = b->next)
        n += b->used + ALIGN; /* the padding a block boundary may have saved */
    return n;
}

static size_t pad(size_t used, size_t align)
{
    return (align - used % align) % align;
}

/* `size` bytes at a multiple of `align` (1 or ALIGN), not zeroed. */
static void *alloc(Arena *a, size_t size, size_t align)
{
    Block *b = a->head;
    if (!b || b->size - b->used < size + pad(b->used, align)) {
        bool own = size > a->next / 4;
        size_t cap = own ? size : a->next;
        if (!own && a->next < MAX_BLOCK)
            a->next *= 2;
        Block *nb = a->pool ? pool_take(a->pool, cap) : NULL;
        if (!nb) {
            nb = xmalloc(sizeof *nb + cap);
            nb->size = cap;
        }
        nb->used = 0;
        if (b && own) {
            /* Keep the current block as head so its free space is used. */
            nb->next = b->next;
            b->next = nb;
        } else {
            nb->next = b;
            a->head = nb;
        }
        b = nb;
    }
    b->used += pad(b->used, align);
    void *p = b->data + b->used;
    b->used += size;
    return p;
}

void *arena_alloc(Arena *a, size_t size)
{
    size = (size + ALIGN - 1) & ~(size_t)(ALIGN - 1);
    if (size == 0)
        size = ALIGN;
    void *p = alloc(a, size, ALIGN);
    memset(p, 0, size);
    return p;
}

/* Text needs no alignment: packed one after the other. */
char *arena_strndup(Arena *a, const char *s, size_t n)
{
    char *p = alloc(a, n + 1, 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *arena_strdup(Arena *a, const char *s)
{
    return s ? arena_strndup(a, s, strlen(s)) : NULL;
}

char *arena_dot(Arena *a, const char *left, const char *right)
{
    left = left ? left : "(null)";
    right = right ? right : "(null)";
    size_t l = strlen(left), r = strlen(right);
    char *p = alloc(a, l + r + 2, 1);
    memcpy(p, left, l);
    p[l] = '.';
    memcpy(p + l + 1, right, r + 1);
    return p;
}

char *arena_vprintf(Arena *a, const char *fmt, va_list ap)
{
    char small[256];
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(small, sizeof small, fmt, ap2);
    va_end(ap2);
    if (n < 0)
        return arena_strdup(a, "");
    if ((size_t)n < sizeof small)
        return arena_strndup(a, small, (size_t)n);
    char *p = alloc(a, (size_t)n + 1, 1);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    return p;
}

char *arena_printf(Arena *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *p = arena_vprintf(a, fmt, ap);
    va_end(ap);
    return p;
}

void arena_grow(Arena *a, void **items, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return;
    size_t ncap = *cap ? *cap * 2 : 8;
    while (ncap < need)
        ncap *= 2;
    if (ncap > SIZE_MAX / elem) {
        fputs("keylint: out of memory\n", stderr);
        abort();
    }
    /* not zeroed: a vector's elements past its count are never read */
    void *n = alloc(a, (ncap * elem + ALIGN - 1) & ~(size_t)(ALIGN - 1), ALIGN);
    if (*items && *cap)
        memcpy(n, *items, *cap * elem);
    *items = n;
    *cap = ncap;
}

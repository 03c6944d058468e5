/* Arena allocation: every allocation of a phase belongs to one arena and is
 * released with it. Nothing allocated here is freed individually. */
#ifndef KEYLINT_ARENA_H
#define KEYLINT_ARENA_H

#include <stdarg.h>
#include <stddef.h>

typedef struct Arena Arena;

Arena *arena_new(void);

/* The blocks freed arenas leave for the next ones: extraction's working
 * arenas, file after file on one thread, take their blocks here rather
 * than from malloc (short-lived blocks freed among the long-lived IR
 * fragment the heap, and the allocator pays for it at every malloc and
 * free). A pool is one thread's; every arena drawing on it is freed
 * before it. */
typedef struct ArenaPool ArenaPool;
ArenaPool *arena_pool_new(void);
void arena_pool_free(ArenaPool *pool); /* NULL is fine */
/* An arena whose blocks come from `pool` and go back to it when it is
 * freed; `pool` NULL: arena_new(). */
Arena *arena_new_pooled(ArenaPool *pool);
/* An arena whose first block holds `first` bytes: for a copy whose size is
 * known (arena_used of an arena that holds the same allocations). */
Arena *arena_new_reserved(size_t first);
void arena_free(Arena *a);
/* Bytes an arena with the same allocations, made in the same order, needs
 * in one block (arena_new_reserved). */
size_t arena_used(const Arena *a);

/* Zeroed memory, aligned for any type. Aborts on out-of-memory. Strings
 * (strdup, printf) are packed without alignment. */
void *arena_alloc(Arena *a, size_t size);
char *arena_strndup(Arena *a, const char *s, size_t n);
char *arena_strdup(Arena *a, const char *s);
char *arena_printf(Arena *a, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
char *arena_vprintf(Arena *a, const char *fmt, va_list ap);
/* `left`.`right` (a dotted name: "Keys.ORDER", "this.table"); NULL reads
 * as "(null)", as printf's %s has it. */
char *arena_dot(Arena *a, const char *left, const char *right);

/* Grow an arena-backed array to hold at least `need` elements of `elem`
 * bytes. The old block stays in the arena (at most doubling waste). The
 * room past the old capacity is not zeroed (unlike arena_alloc). */
void arena_grow(Arena *a, void **items, size_t *cap, size_t need, size_t elem);

/* An arena-backed growable array: `VEC(T) v = {0}; VEC_PUSH(a, &v, x);` */
#define VEC(T) struct { T *v; size_t n, cap; }
#define VEC_PUSH(arena, vec, ...)                                              \
    do {                                                                       \
        if ((vec)->n >= (vec)->cap)                                            \
            arena_grow((arena), (void **)&(vec)->v, &(vec)->cap, (vec)->n + 1, \
                       sizeof *(vec)->v);                                      \
        (vec)->v[(vec)->n++] = (__VA_ARGS__);                                  \
    } while (0)
/* Room for `need` elements in all, at once (arena_grow). */
#define VEC_RESERVE(arena, vec, need)                                          \
    arena_grow((arena), (void **)&(vec)->v, &(vec)->cap, (need), sizeof *(vec)->v)

#endif

/* Copying a finished structure into an arena of its own, keeping only what
 * it points to: extraction builds a file's IR with much scratch on the
 * side (texts read to be compared, segment lists tried and dropped, grown
 * arrays' old blocks); copying what the IR reaches into a new arena and
 * freeing the old one leaves the IR at the size of its content.
 *
 * Strings are interned: equal texts copied through one Copier share one
 * copy ("pk", a callee's name, a module specifier written a hundred
 * times). Arrays are copied at their length (no spare capacity). */
#ifndef KEYLINT_COPY_H
#define KEYLINT_COPY_H

#include "common.h"

typedef struct Copier {
    Arena *to;    /* where the copies go: the caller's */
    Arena *index; /* the interning table: freed by copier_end */
    NameMap seen; /* text -> its copy in `to` (as a uintptr_t) */
} Copier;

Copier copier_begin(Arena *to);
void copier_end(Copier *c);

/* The copy of `s` in `to` (NULL for NULL): one per distinct text. */
const char *copy_str(Copier *c, const char *s);
/* n elements of `elem` bytes, copied as they are (NULL when n is 0); the
 * caller then copies what they point to. */
void *copy_array(Copier *c, const void *v, size_t n, size_t elem);
StrList copy_strlist(Copier *c, const StrList *l);
/* Maps keep their layout; their names are copied through copy_str. */
NameMap copy_namemap(Copier *c, const NameMap *m);
NumMap copy_nummap(Copier *c, const NumMap *m);

/* A VEC(T) copied at its length: `COPY_VEC(c, &dst, &src)` copies the
 * elements (not what they point to) and sets dst's n and cap. */
#define COPY_VEC(c, dst, src)                                                  \
    do {                                                                       \
        (dst)->v = copy_array((c), (src)->v, (src)->n, sizeof *(src)->v);      \
        (dst)->n = (dst)->cap = (src)->n;                                      \
    } while (0)

#endif

/* What project/access.c keeps of each file (its access part) and the
 * steps of access_compute, for access_fold.c (the editor's fold of the
 * access facts and the tenancy of tables): internal to project/. */
#ifndef KEYLINT_ACCESS_PART_H
#define KEYLINT_ACCESS_PART_H

#include "access.h"

/* An entity prefix token at the start of keys: how many keys start with
 * it, and whether one of them has more after it. */
typedef struct Tok {
    const char *t;
    bool prefix;
    size_t keys;
} Tok;

typedef VEC(uint32_t) TenantOps;

/* What access_compute reads of one file: its part of every project-wide
 * list, in the file's order. Kept in the file's `resolved` arena until the
 * next resolution (FileIR.access_part). */
struct AccessPart {
    const Config *cfg; /* the configuration it was read with */
    bool versioned;
    StrList updated; /* attributes its updates set, each once */
    VEC(Tok) toks;
    size_t prefixed_pks;
    StrList prefixed_tables; /* each once */
    VEC(WrittenKey) written;
    /* The data operations whose keys show a tenant (shows_tenant), read
     * with `tenant_cfg` when `tenant_read` (access_mark_tenants). */
    bool tenant_read;
    const Config *tenant_cfg;
    TenantOps tenant_ops;
};

/* Empty facts over `files`, kept as a copy in `a`. */
void access_facts_over(AccessFacts *af, Arena *a, FileIR *const *files, size_t n);
/* The index of names over af->files (access_index_only); with `own`, the
 * names of constants and entities copied into `a`. */
void access_index_in(AccessFacts *af, Arena *a, bool own);
/* access_compute in two steps: the files' parts added up into `af` (the
 * written keys too, sorted, with `written`), each position's part
 * returned (NULL: none); then the lists made from the written keys, the
 * index of names (from `index` when it is over the same files) and the
 * orders of shapes and prefixes. */
const struct AccessPart **access_gather(AccessFacts *af, Arena *a, FileIR *const *files,
                                        size_t n, const Config *cfg, bool written);
void access_finish(AccessFacts *af, Arena *a, const AccessFacts *index);

#endif

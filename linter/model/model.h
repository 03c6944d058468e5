/* The key design as the code builds it: `keylint model`.
 *
 * A DesignModel is drawn from an analysed project (the facts the rules
 * read: resolved keys, table models, access targets, findings). It holds,
 * per DynamoDB table (and per index), the entities the code writes and
 * reads, each with its key shapes per attribute, where it is written and
 * read, and the access patterns: every query, the table or index it runs
 * on, its key condition and the entities it can return.
 *
 * An entity is named from its keys the way a reader names it: the entity
 * prefix of the sort key when the sort key names one item among many of
 * its partition (`ORDER#{tenantCode}` / `ORDER_ITEM#{orderId}` is an
 * ORDER_ITEM), else the prefix of the partition key (`USER#{id}` /
 * `PROFILE` is a USER), a tenant segment at the start skipped
 * (`TENANT#{tenantId}#ORG#{orgId}` is an ORG); a key without a prefix is
 * named from the helper that builds it. model.c says it in detail.
 *
 * The model owns everything it holds (its arena): it outlives the project
 * it was drawn from, so that two models (a base revision and the work
 * tree) can be compared. */
#ifndef KEYLINT_MODEL_H
#define KEYLINT_MODEL_H

#include <stdio.h>

#include "ir.h"

struct Project;

enum { MODEL_NO_TABLE = (size_t)-1 };

/* A place in the code: a key, a data operation. */
typedef struct MSite {
    const char *path; /* display path */
    uint32_t line;    /* 1-based */
} MSite;

typedef VEC(MSite) MSites;

/* One shape an entity's key attribute takes. */
typedef struct MShape {
    const char *attr;  /* "pk", "GSI1PK" */
    KeyRole role;
    const char *text;  /* with the values named: "ORDER#{tenantCode}" */
    const char *canon; /* values as "{}": "ORDER#{}" (what shapes are compared on) */
    bool written;      /* some write produces it (else it is only read) */
    size_t uses;       /* keys of this shape */
    StrList rules;     /* ids of findings on keys of this shape, sorted */
    MSite first;       /* its first key */
    /* Written on some items only, when this holds ("parentAlbumId": the
     * condition's last name when it is a name, else as written); NULL
     * when every key of this shape is written on every item of its site. */
    const char *when;
    bool fallback;     /* the text a value falls back to (AUDIT#SYSTEM) */
    /* A literal id of another written shape of its attribute (seed data's
     * `EVENT#event-demo-1` beside `EVENT#{eventId}`, a text with a lower
     * case letter or a digit where that shape has a value): counted, not
     * shown in the entity's cells. */
    bool example;
} MShape;

typedef struct MEntity {
    const char *name;  /* "ORDER", "USER in ORG" */
    size_t table;      /* in DesignModel.tables */
    VEC(MShape) shapes; /* by the table's attribute order, then shape */
    MSites writes;     /* operations and definitions that write it, sorted */
    MSites reads;      /* gets, and queries that can return it, sorted */
    StrList rules;     /* ids of findings on its keys, sorted */
} MEntity;

typedef struct MIndex {
    const char *name;
    bool local;
    const char *pk, *sk; /* attribute names; sk NULL when none */
    const char *projection; /* ALL, KEYS_ONLY, INCLUDE; NULL when not said */
} MIndex;

typedef struct MTable {
    const char *label;  /* "DataTable (example-data)", or "(table not known)" */
    const char *name;   /* the physical name when known, else NULL */
    const char *id;     /* its logical id, construct id or variable; NULL */
    const char *pk, *sk; /* its key attributes (NULL when not known) */
    VEC(MIndex) indexes;
    /* The key attributes of its entities' columns: the table's keys, its
     * indexes' keys, then other key attributes its entities write. */
    StrList attrs;
    KeyRole *attr_roles; /* per attrs entry */
    char *attr_types;    /* per attrs entry: 'S', 'N' or 'B' (S when not said) */
    MSite where;        /* its definition; path NULL when none */
    bool known;         /* a table definition was read; false: the entities
                         * whose table could not be told */
} MTable;

/* One attribute of a query's key condition. */
typedef struct MCond {
    const char *attr;
    CondOp op;         /* COND_NONE: a library names it, operator unknown */
    const char *text;  /* its value's shape ("ORDER#{tenantCode}"), NULL when not seen */
    const char *canon;
} MCond;

typedef struct MQuery {
    OpKind kind;       /* OP_QUERY or OP_SCAN */
    size_t table;      /* MODEL_NO_TABLE when not known */
    const char *index; /* the index queried, NULL for the table's keys */
    VEC(MCond) conds;  /* partition key first */
    StrList entities;  /* the entities it can return, sorted */
    MSite site;
    const char *function; /* the named function around it, or NULL */
    StrList rules;     /* ids of findings on it, sorted */
    bool unmatched;    /* an unmatched-query finding: no write produces its key */
} MQuery;

typedef struct DesignModel {
    Arena *arena;
    VEC(MTable) tables;   /* known tables in definition order; the unknown last */
    VEC(MEntity) entities; /* by table, then name */
    VEC(MQuery) queries;  /* by table, index, key condition, site */
    /* Writes whose keys are all values passed in (`PK: item.PK`): their
     * entity cannot be told; not drawn, listed. Sorted. */
    MSites opaque;
    size_t files;         /* files read */
} DesignModel;

/* Draw the model of project `p`, analysed (project_analyze). NULL only
 * when memory runs out (it aborts then). */
DesignModel *model_build(const struct Project *p);
void model_free(DesignModel *m);

/* The entity `name` on table `table`, NULL if none. */
const MEntity *model_entity(const DesignModel *m, size_t table, const char *name);

/* The entities with a write or read site in `path` (a display path), in
 * model order: what the language server shows on hover. Returns how many;
 * *out is an array in `a`. */
size_t model_entities_in(const DesignModel *m, Arena *a, const char *path, const MEntity ***out);

/* ---- writers (model_write.c, model_workbench.c, model_html.c) ------------ */

typedef enum ModelFormat {
    MODEL_TEXT,      /* aligned columns for a terminal */
    MODEL_MARKDOWN,  /* GitHub Markdown tables */
    MODEL_MERMAID,   /* a Mermaid flowchart (```mermaid block) */
    MODEL_WORKBENCH, /* a NoSQL Workbench data model (JSON) */
    MODEL_HTML,      /* one self-contained page */
} ModelFormat;

/* "text", "markdown", ... -> the format; false for anything else. */
bool model_format_parse(const char *s, ModelFormat *out);
/* The format a file name asks for by its extension (.md, .mmd, .json,
 * .html, .txt); false when it says none. */
bool model_format_for_path(const char *path, ModelFormat *out);

typedef struct ModelWriteOptions {
    const char *title;   /* the model's name (Workbench ModelName, the page's title) */
    /* Seconds since the epoch for the Workbench model's dates: the time of
     * the run, or SOURCE_DATE_EPOCH when set (reproducible output). */
    long long now;
    size_t max_sites;    /* sites listed per entity before "and N more" (0: 3) */
} ModelWriteOptions;

/* Write `m` as `fmt`; false when writing failed. */
bool model_write(FILE *out, const DesignModel *m, ModelFormat fmt, const ModelWriteOptions *o);

bool model_write_text(FILE *out, const DesignModel *m, const ModelWriteOptions *o);
bool model_write_markdown(FILE *out, const DesignModel *m, const ModelWriteOptions *o);
bool model_write_mermaid(FILE *out, const DesignModel *m, const ModelWriteOptions *o);
bool model_write_workbench(FILE *out, const DesignModel *m, const ModelWriteOptions *o);
bool model_write_html(FILE *out, const DesignModel *m, const ModelWriteOptions *o);

/* The entity chart of `ents` (n of them) as Markdown, in `a`: the language
 * server's hover. A code site under one of `roots` (nroots absolute
 * directories, the workspace folders) is shown relative to it. */
const char *model_entities_markdown(Arena *a, const DesignModel *m, const MEntity *const *ents,
                                    size_t n, const char *const *roots, size_t nroots);

/* An example value that follows a shape: "ORDER#{orderId}" ->
 * "ORDER#o-1" (each value its name's first letter and `n`). In `a`. */
const char *model_example_value(Arena *a, const char *text, unsigned n);

/* ---- design changes (model_diff.c) -------------------------------------- */

typedef enum MChangeKind {
    MCHANGE_ENTITY_ADDED,
    MCHANGE_ENTITY_REMOVED,
    MCHANGE_SHAPE_ADDED,    /* an attribute the entity now writes, or a new shape of it */
    MCHANGE_SHAPE_REMOVED,  /* an attribute (a GSI key) no longer written */
    MCHANGE_SHAPE_CHANGED,  /* one shape replaced by another (an SK that gained a component) */
    MCHANGE_INDEX_ADDED,
    MCHANGE_INDEX_REMOVED,
    MCHANGE_QUERY_ADDED,
    MCHANGE_QUERY_REMOVED,
} MChangeKind;

typedef struct MChange {
    MChangeKind kind;
    const char *table;  /* label */
    const char *entity; /* entity changes and shapes; NULL otherwise */
    const char *attr;   /* shapes */
    const char *before, *after; /* shape or query texts (NULL where none) */
    MSite site;         /* where to look: the work tree's site, else the base's */
    bool unmatched;     /* an added query that no write matches */
} MChange;

typedef struct ModelDiff {
    Arena *arena;
    VEC(MChange) changes; /* by table, entity, attribute, kind */
} ModelDiff;

/* What changed from `base` to `head`. */
ModelDiff *model_diff(const DesignModel *base, const DesignModel *head);
void model_diff_free(ModelDiff *d);
/* `base_name`: how the base is named ("main", "a1b2c3d"). Text or
 * Markdown (other formats: Markdown). False when writing failed. */
bool model_diff_write(FILE *out, const ModelDiff *d, const char *base_name, ModelFormat fmt);

#endif

/* Rules: one descriptor per rule (rules/<id>.c), one registry (rules.c).
 * A rule reads the IR of one file plus project-wide facts and emits
 * diagnostics through rule_report(); it never sees a syntax tree. */
#ifndef KEYLINT_RULE_H
#define KEYLINT_RULE_H

#include "config.h"
#include "diag.h"
#include "ir.h"
#include "keyfacts.h"

/* Facts computed once over the whole project (after resolution), read by
 * rules while they check one file. Owned by the project's arena. */
/* A string constant and its text. */
typedef struct ConstText {
    const char *text; /* "ORDER#" */
    const char *name; /* "ORDER_PREFIX", "Prefix.ORDER" */
    bool in_key;      /* some key of the project uses it */
    /* The file that declares and exports it (display path), NULL when it
     * is not exported or was only seen in keys. */
    const char *module;
    /* Declared (ConstDef: not only seen in keys), and every declaration
     * of it holds its initializer (ConstDef.fixed). Names some file
     * mutates are looked up apart (facts_const_fixed). */
    bool declared, fixed;
} ConstText;

enum { SEPARATOR_CHARS = 128 };

typedef struct SeparatorFirst {
    const char *path;
    Span span;
} SeparatorFirst;

typedef struct UpdatedAttr {
    const char *attr;
    const char *entity; /* "USER" for Key: { pk: `USER#${id}` }, or NULL */
    const char *sk_entity; /* "USER" for sk: `USER#${id}` in a partition
                            * ORG#{orgId} that holds several entities;
                            * NULL for a literal sort key ('PROFILE') */
    const char *path;   /* the update: its file (display path) */
    Span span;          /* and its UpdateExpression */
    const char *table;  /* its TableName as written, NULL when not known */
    const char *id_name; /* what its key names the item by (`listingId` of
                          * `LISTING#${listingId}`), NULL when not known */
    const char *table_env; /* the environment variable its TableName is read
                            * from, through constants (`const T =
                            * process.env.T || 'x'`), NULL when none */
} UpdatedAttr;

/* A call of a key helper that some key of the project inlines: the
 * helper (the file that defines it, display path, and its name) and the
 * call (file and place). */
typedef struct HelperCallSite {
    const char *helper_path, *helper;
    const char *path;
    Span span;
    /* the key inlining it is a table or index key attribute (its role
     * settled, by its name or by its table), not a value of unknown use */
    bool in_key;
} HelperCallSite;

typedef struct ProjectFacts {
    /* Some partition key in the project carries a tenant segment. */
    bool has_tenant_keys;
    /* Attributes that an UpdateExpression somewhere in the project sets. */
    StrList updated_attrs;
    /* The same, with the entity each update is on: the leading prefix of
     * its partition key (NULL when not known). */
    VEC(UpdatedAttr) updates;
    /* Name of a key-separator constant the project's keys use (e.g.
     * "KEY_SEPARATOR"), NULL if keys only use inline separators. */
    const char *separator_const;
    /* The boundary separator most of the project's keys use, 0 if none. */
    char dominant_separator;
    /* How many keys in the project use each boundary separator (ASCII):
     * SEPARATOR_CHARS entries (in a file's part of the facts, NULL when
     * none of its keys uses one: most files). */
    uint32_t *separator_uses;
    /* The first key of the project (files in the order the facts add
     * them up) that uses each boundary separator: where mixed-separator
     * shows the project's separator in use. path NULL when none.
     * SEPARATOR_CHARS entries, or NULL with separator_uses. */
    SeparatorFirst *separator_first;

    /* Added for the key rules (facts.c fills them): */
    /* The text of separator_const ("#"), NULL when separator_const is. */
    const char *separator_const_value;
    /* Every string constant of the project with its text (module constants,
     * `as const` members, and constants seen in keys), so that a rule can
     * say which constant already holds an inline text; look up with
     * facts_const_for_text() (facts.h). */
    VEC(ConstText) const_texts; /* in the order the files declare them */
    /* Shapes (kf_shape: "ORDER#{}") of key helpers' partition keys
     * (SITE_HELPER, ROLE_PK) that carry no tenant: missing-tenant reports
     * such a helper at its definition, not at every call site that only
     * inlines it. */
    StrList untenanted_helper_pks;
    /* "T#API_KEY": a leading prefix written right before a tenant value
     * and the entity named after it, in some key of the project
     * (`T#${tenant}#API_KEY#${id}`), each pair once. */
    StrList tenant_scoped;
    /* The project's tenant prefixes: those of tenant_scoped that precede
     * a tenant before two entities or more (a tenant scope, not one
     * entity's prefix: ORDER#{tenantCode}#{orderId}). */
    StrList tenant_prefixes;
    /* Names (last component, as written) of the values the project writes
     * as a tenant's own record (`TENANT#${expertId}`, kf_is_tenant_record):
     * the project's tenant goes by that name too, so `EXPERT#${expertId}`
     * carries a tenant. Only a name of a kind of id (`expertId`,
     * `owner_code`), not a bare `id`. */
    StrList tenant_aliases;
    /* Leading prefixes (lower-cased) of the partition keys the project
     * writes as a prefix and one id (`INBOX#${ownerId}`,
     * `TENANT#${tenantId}`): a partition per owner, each once. */
    StrList id_partitions;
    /* The width of the type codes glued to a value at the start of the
     * project's keys (kf_start_code: `'GA' + groupId`, `'UM' + userId`)
     * when there are two codes or more and all have that width; 0
     * otherwise. Codes of one width read back by position (`.slice(2)`):
     * no code is the start of another, so the key splits without a
     * separator (missing-delimiter). */
    size_t fixed_code_width;
    /* Every call of a key helper the project's keys inline, file by file
     * (facts_helper_calls). */
    VEC(HelperCallSite) helper_calls;
    /* Lookups into the above by text (facts.c; read through facts.h). */
    struct FactsIndex *index;
} ProjectFacts;

typedef struct RuleDesc RuleDesc;

typedef struct RuleContext {
    const RuleDesc *rule;
    Severity severity;          /* effective severity (never SEV_OFF) */
    const FileIR *file;
    const Config *config;       /* the file's configuration */
    const ProjectFacts *facts;
    DiagList *out;
    /* Tables (access-pattern rules): the table model of this file's
     * configuration (its schema files plus the tables defined in the code
     * it governs; schema.h) and project-wide access facts (access.h). NULL
     * when the caller has none; the rules that need them are then silent. */
    const struct TableModel *tables;
    const struct AccessFacts *access;
    /* file->keys.v[i] flattened (kf_flatten), once for all the rules; NULL
     * when the caller has not (rule_key_flat flattens then) */
    const KfKey *flat;
} RuleContext;

/* Key `k` read as parts (keyfacts.h): the file's own keys from ctx->flat,
 * any other flattened in `a`. */
static inline void rule_key_flat(const RuleContext *ctx, Arena *a, const KeyExpr *k, KfKey *out)
{
    const FileIR *f = ctx->file;
    if (ctx->flat && f && k >= f->keys.v && k < f->keys.v + f->keys.n)
        *out = ctx->flat[k - f->keys.v];
    else
        kf_flatten(a, &k->segs, out);
}

struct RuleDesc {
    const char *id;             /* kebab-case, stable */
    const char *summary;        /* one line */
    Severity default_severity;
    void (*check)(const RuleContext *ctx);
    /* Optional: findings about a configuration's inputs rather than one
     * source file (its schema files, its access patterns). Run once per
     * configuration and analysis with ctx->file NULL (ctx->config,
     * ctx->tables and ctx->access set); report with rule_report_at(). */
    void (*check_project)(const RuleContext *ctx);
};

/* Emit a diagnostic for the rule in `ctx` at `span` of the current file.
 * Returns it so that a fix suggestion can be attached. */
Diagnostic *rule_report(const RuleContext *ctx, Span span, const char *fmt,
                        ...) __attribute__((format(printf, 3, 4)));
/* Emit a diagnostic for the rule in `ctx` at `span` of file `path` (a
 * display path): for findings in schema and configuration files. */
Diagnostic *rule_report_at(const RuleContext *ctx, const char *path, Span span,
                           const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Where a finding about part of key `k` belongs: the part `s` itself when
 * it is written in the key or in the local the key flowed through
 * (`const pk = \`EVENT#${month}\`` ... `PK: pk`), where a reader fixes it;
 * with `s` NULL, that local's value; else the key. */
Span rule_key_part_span(const KeyExpr *k, const Seg *s);

/* An error is a claim with evidence: a finding `d` whose rule could not
 * point at the place that proves it (diag_relate) is a warning, unless the
 * file's configuration sets the rule's severity (then it stays as set).
 * Returns `d`. */
Diagnostic *rule_unproven(const RuleContext *ctx, Diagnostic *d);

/* A finding `d` on key `k` whose role rests on a guess at its table
 * (KeyExpr.role_guessed: an item written to a table keylint cannot name)
 * is a warning (rule_unproven). Returns `d`. */
Diagnostic *rule_unproven_guess(const RuleContext *ctx, Diagnostic *d, const KeyExpr *k);

/* The key helper whose definition (its function) holds key `k` of the
 * file, the innermost when helpers nest; NULL when `k` is built outside
 * any helper. */
const HelperDef *rule_key_helper(const RuleContext *ctx, const KeyExpr *k);

/* A finding `d` on a key built inside a helper is reported once, at the
 * helper: its related places name the calls of the helper (up to
 * DIAG_MAX_RELATED in all). Nothing when `k` is built outside a helper. */
void rule_relate_calls(const RuleContext *ctx, Diagnostic *d, const KeyExpr *k);

/* The registry: every rule, in id order, NULL-terminated. */
extern const RuleDesc *const keylint_rules[];
const RuleDesc *rule_find(const char *id);
/* NULL-terminated list of ids (static storage), for config validation. */
const char *const *rule_ids(void);
/* The rule's documentation page (Markdown), NULL if it has none. */
const char *rule_docs(const char *id);

#endif

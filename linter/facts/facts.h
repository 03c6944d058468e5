/* Project facts: what the rules need to know about the whole project
 * (after resolution) while they check one file. See ProjectFacts in
 * rule.h for the fields. */
#ifndef KEYLINT_FACTS_H
#define KEYLINT_FACTS_H

#include "rule.h"

/* Fill `f` (zeroed first) from every file's IR. Strings and arrays live in
 * `a`; `cfg` is the project configuration (separator, tenant names), may
 * be NULL for the built-in behaviour. Files that failed to parse are
 * skipped. Deterministic for a given file order; ties are broken by name,
 * never by position. */
void facts_compute(ProjectFacts *f, Arena *a, FileIR *const *files,
                   size_t nfiles, const Config *cfg);
/* The same, reading each file's part of the facts (what it adds) from its
 * resolution when an earlier call kept it there, and keeping the parts it
 * builds with each resolved file's resolution (FileIR.facts_part, like
 * access.c's parts): the language server, whose next analysis then builds
 * only the parts of the files it resolved again. facts_compute builds
 * every part in scratch memory and frees it (a one-shot run). */
/* With `fold` (not NULL), the constants by text, the mutated names and
 * the separators' counts and first keys are a fold kept in *fold between
 * calls (made at the first, freed with facts_fold_free by the caller):
 * each call takes away what the files whose part is new had added, adds
 * their new parts, and finds the "first in file order" entries again only
 * where those files touched them. The lookups below answer as over the
 * whole project; f->const_texts is left empty then (the fold holds them).
 * The facts read the fold until the next call. */
typedef struct FactsFold FactsFold;
void facts_compute_keeping(ProjectFacts *f, Arena *a, FileIR *const *files,
                           size_t nfiles, const Config *cfg, FactsFold **fold);
void facts_fold_free(FactsFold *fold);

/* The name of a project constant of the key design whose text is exactly
 * `text` (the alphabetically first when several are), NULL if none. A
 * constant belongs to the key design when some key uses it or its name has
 * a word saying so (prefix, pk, sk, key, entity, type, separator): an
 * audit event type or a payload field that spells the same text is never
 * suggested. */
const char *facts_const_for_text(const ProjectFacts *f, const char *text);

/* The same for a bare prefix token ("ORDER" of "ORDER#"). */
const char *facts_const_for_token(const ProjectFacts *f, const char *token);

/* The file that declares and exports the constant `name` holding `text`
 * (display path), NULL when there is none. */
const char *facts_const_module(const ProjectFacts *f, const char *text, const char *name);

/* Is the constant `name` holding `text` proven to hold it at run time: a
 * declaration of it (not only a key that uses it), every one a `const`
 * (or an enum member, or a member of an object literal held by a const,
 * with no spread and the key written once: ConstDef.fixed), and no file
 * of the project assigns to or mutates a name that is the head of `name`
 * (FileIR.mutated)? What a fix that writes the constant in for its text
 * must know. */
bool facts_const_fixed(const ProjectFacts *f, const char *text, const char *name);

/* The names of the project constants of the key design (used in some key,
 * or named like a key part) that hold exactly `text`, in the order the
 * files declare them: the first `max` in names[], how many in all
 * returned. */
/* Of those, the ones that may name a whole key written inline (`':pk':
 * 'INVOICES'`, magic-string): a constant used in some key, an UPPER_CASE
 * constant named like a key part (INVOICES_PK), or a member of an object so
 * named (`DataType.CONNECTION`); not a field of a record (`DefaultAgent.PK`,
 * `ATTRS.prefix`) nor a camelCase value (`packageType`) that no key uses. */
size_t facts_whole_key_consts(const ProjectFacts *f, const char *text, const char **names,
                              size_t max);
size_t facts_consts_for_text(const ProjectFacts *f, const char *text, const char **names,
                             size_t max);

/* How many differently named project constants of the key design (used
 * in some key, or named like a key part) hold exactly `text`: a fix that
 * writes one of them in is offered only when it is the only one. */
size_t facts_consts_holding(const ProjectFacts *f, const char *text);

/* Does a constant's name say it is part of the key design? A word of it
 * (split at non-letters and lower-to-upper turns) is prefix(es), pk, sk,
 * key(s), entity/entities, type(s) or separator: ORDER_PREFIX, userPk,
 * EntityType.ORDER, Keys.USER; not TASK or AUDIT_EVENT. */
bool facts_key_like_name(const char *name);

/* Whether `shape` is among f->untenanted_helper_pks. */
bool facts_untenanted_helper_pk(const ProjectFacts *f, const char *shape);

/* Is `prefix` one of f->tenant_prefixes (`T` of `T#${tenant}#API_KEY`
 * and `T#${tenant}#GROUP`)? */
bool facts_tenant_prefix(const ProjectFacts *f, const char *prefix);

/* Does the last component of `path` name the tenant by another name
 * (f->tenant_aliases: `expertId` where the project writes
 * `TENANT#${expertId}`)? Case ignored; scratch in `a`. */
bool facts_tenant_alias(Arena *a, const ProjectFacts *f, const char *path);

/* Does the project write partition keys of `prefix` and one id
 * (f->id_partitions: `INBOX#${ownerId}` for "INBOX")? Case ignored;
 * scratch in `a`. */
bool facts_id_partition(Arena *a, const ProjectFacts *f, const char *prefix);

/* The attributes updates set (f->updates) whose last component is
 * `field`, each once: all of them, those of updates whose entity is not
 * known, and those of updates on `entity` (case ignored; none when
 * `entity` is NULL): the updated item's entity, the sort key's prefix when
 * it names an item of a shared partition, else the partition key's.
 * Empty lists when there are none. */
typedef struct FieldUpdates {
    const StrList *all, *unscoped, *on_entity;
} FieldUpdates;
FieldUpdates facts_field_updates(const ProjectFacts *f, const char *field, const char *entity);

/* The calls of helper `helper` defined in `helper_path` (display path)
 * that the project's keys inline, in file order, one per place: up to
 * `max` of them into `out`. Returns how many. */
size_t facts_helper_calls(const ProjectFacts *f, const char *helper_path, const char *helper,
                          const HelperCallSite **out, size_t max);

#endif

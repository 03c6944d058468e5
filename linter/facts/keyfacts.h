/* Key facts: small, pure readings of a resolved key (SegList) shared by the
 * rules and by the project facts pass (facts.c). Nothing here walks syntax
 * or reports; every function answers one question about segments.
 *
 * A key is read as a flat sequence of *parts*: text runs (one or more
 * adjacent non-empty TEXT segments, whatever their flags) and holes (REF,
 * CALL, UNKNOWN: runtime values). Empty TEXT segments vanish, so
 * `[a, b].join('')` reads as two adjacent holes. */
#ifndef KEYLINT_KEYFACTS_H
#define KEYLINT_KEYFACTS_H

#include "config.h"
#include "ir.h"

typedef struct KfPart {
    bool hole;
    size_t first;     /* index of the part's first segment in the SegList */
    size_t nsegs;     /* segments in the part (1 for a hole) */
    const char *text; /* text run: its text, NUL-terminated; hole: NULL */
    size_t len;       /* text run: strlen(text) */
    size_t digits;    /* text run: how many digits end it */
} KfPart;

typedef struct KfKey {
    const SegList *segs;
    KfPart *parts;
    size_t n;
    /* per segment of a text run: the offset in the run's text where the
     * segment ends (kf_text_seg_at finds a segment by bisection) */
    size_t *ends;
} KfKey;

/* Flatten the top-level segments of `segs` (call arguments are not
 * opened). The parts live in `a`. */
void kf_flatten(Arena *a, const SegList *segs, KfKey *out);

/* The segment of part `p` (a text run) that holds byte `off` of its text;
 * the offset inside that segment in *seg_off if not NULL. */
const Seg *kf_text_seg_at(const KfKey *k, size_t p, size_t off,
                          size_t *seg_off);
/* The segment of a hole part. */
const Seg *kf_part_seg(const KfKey *k, size_t p);

size_t kf_hole_count(const KfKey *k);
/* Whether the key has at least one non-empty top-level TEXT segment. */
bool kf_has_text(const KfKey *k);
/* Whether every top-level segment is flagged SEGF_HELPER. */
bool kf_all_helper(const SegList *segs);
/* Whether the key, at a site other than the helper's own definition, is
 * the inlined output of one application helper call and nothing else:
 * built by a call (BUILD_CALL) with some top-level segment flagged
 * SEGF_HELPER. Resolution flags the helper's own text; the arguments it
 * substitutes for parameters keep their call-site flags. */
bool kf_is_helper_output(const KeyExpr *k);
/* The helper of `file` whose returned object of keys holds the entity key
 * `k` (`SYNC: (t) => ({ PK: 'sync', SK: t })`), or NULL. */
const HelperDef *kf_object_helper_of(const FileIR *file, const KeyExpr *k);
/* Whether `k` lies in the helper `h`'s text. */
bool kf_in_helper(const HelperDef *h, const KeyExpr *k);

/* The width of a type code written inline at the start of the key and
 * glued to the value after it: `'GA' + groupId`, `GP${groupId}#${albumId}`
 * give 2. The code is the whole text before the first value, two to four
 * upper-case letters, not a constant's text. 0 when the key does not start
 * so. */
size_t kf_start_code(const KfKey *key);
/* The key's shape: its text runs as written and every hole as "{}"
 * ("ORDER#{}"). Arena string. */
const char *kf_shape(Arena *a, const KfKey *k);
/* Text that reads as an id value, not as key design: a UUID, a ULID, 16
 * or more hex digits, a number of six digits or more. */
bool kf_looks_like_id(const char *s, size_t n);
/* Some literal component of the key (between '#', ':', '|') is such an
 * id: `ORG#d41869a7-3900-4daa-8a05-771f19e12e97` names one item. */
bool kf_text_has_id(const KfKey *k);

/* ---- Holes ---------------------------------------------------------- */

bool kf_seg_is_hole(const Seg *s); /* REF, CALL or UNKNOWN */

/* The last identifier of a path or callee: "order.status" -> "status",
 * "a?.b!.tenantCode" -> "tenantCode", "x['y']" -> "y". Arena copy; ""
 * when there is none. */
const char *kf_last_component(Arena *a, const char *path);

/* How a hole is shown in messages: REF its path ("order.status"), CALL
 * "callee()", UNKNOWN its source text or "?". */
const char *kf_hole_name(Arena *a, const Seg *s);

/* `name` is `word` or ends in it at a word boundary: camelCase
 * (`orderStatus` ends in "status"), snake_case (`order_status`). Case is
 * ignored, except that a camelCase suffix must start with an upper-case
 * letter after a lower-case letter or digit (`xstatus` does not match). */
bool kf_name_ends_with_word(const char *name, const char *word);

/* Name tests on the last component of a path (case-insensitive where
 * noted). */
bool kf_name_is_tenant(Arena *a, const char *path, const Config *cfg);
/* date, day, month, year, yyyy, mm, dd, hour, minute, second, time,
 * timestamp, ... and createdAt-style *At / *Date / *Time / *Month ... */
bool kf_name_is_date(Arena *a, const char *path);
/* Ends in prefix / Prefix / PREFIX (the value carries its own separator). */
bool kf_name_is_prefix_like(Arena *a, const char *path);
/* Ends in suffix / Suffix / SUFFIX. */
bool kf_name_is_suffix_like(Arena *a, const char *path);

/* A tenant hole: flagged SEGF_TENANT, or a REF/CALL whose path (or the
 * variable it flowed through) ends in a configured tenant name. */
bool kf_hole_is_tenant(Arena *a, const Seg *s, const Config *cfg);
/* A date/time hole: SEGF_DATE or a date-like name. */
bool kf_hole_is_date(Arena *a, const Seg *s);
/* An unresolved ALL_CAPS REF whose name contains SEP or DELIM
 * (KEY_SEPARATOR, ITEM_DELIM): it stands for a separator. */
bool kf_hole_is_separator(Arena *a, const Seg *s);
/* A CALL with a tenant among its arguments, at any depth (a tenant-taking
 * helper that was not inlined: `masterPk(tenantCode)`). */
bool kf_call_has_tenant_arg(Arena *a, const Seg *s, const Config *cfg);

/* ---- Tenants ------------------------------------------------------------ */

/* The top-level hole that makes the key tenant-scoped (a tenant hole or a
 * call taking one), NULL if none. */
const Seg *kf_tenant_hole(Arena *a, const KfKey *k, const Config *cfg);
/* The key names the common tenant: a TEXT flagged SEGF_TENANT or
 * SEGF_COMMON_TENANT, or a text component (text between separators)
 * equal, case-insensitively, to a configured common tenant. */
bool kf_has_common_tenant(const KfKey *k, const Config *cfg);
/* Either of the above. */
bool kf_has_tenant(Arena *a, const KfKey *k, const Config *cfg);

/* ---- Separators ------------------------------------------------------- */

/* The boundary separator candidates: # : | / - _ . ~ ; , + = and the
 * configured separator's first character. */
bool kf_is_boundary_char(char c, const Config *cfg);
/* Characters that end an entity prefix token: the configured separator's
 * first character, '#', ':' and '|'. */
bool kf_is_prefix_sep_char(char c, const Config *cfg);

/* A separator character at a boundary between text and a value. */
typedef struct KfBoundary {
    char c;
    size_t part;    /* the text part holding it */
    size_t off;     /* its offset in the part's text */
    const Seg *seg; /* the segment holding it */
} KfBoundary;

/* A phone number in E.164 form: `+` and then values only
 * (`` `+${countryCode}${mobileNumber}` ``). It is one value: its `+` is no
 * separator and its parts are not components (kf_boundaries gives none). */
bool kf_is_phone(const KfKey *k);

/* The boundary separators of a key: the text character adjacent to each
 * hole (the last character of the text before it, the first of the text
 * after it; text of length one between two holes counts once), kept when
 * it is a boundary candidate and not
 *   - '-' ':' '.' 'T' 'Z' between two date/time parts (holes or digits),
 *   - the version separator starting a version tail (kf_is_version_tail).
 * Returns the count; the array in *out lives in `a`. */
size_t kf_boundaries(Arena *a, const KfKey *k, const Config *cfg,
                     KfBoundary **out);
/* The distinct characters of `b`, in order of first appearance. */
const char *kf_boundary_chars(Arena *a, const KfBoundary *b, size_t n);
/* Whether every boundary of `b` sits in a SEGF_HELPER segment. */
bool kf_boundaries_all_helper(const KfBoundary *b, size_t n);

/* ---- Versions ------------------------------------------------------- */

/* Whether byte `off` of text part `p` starts a version tail: it is the
 * version separator (the configured one, or text of a SEGF_VERSION_SEP
 * segment) and what follows to the end of the key is digits, or a single
 * hole (`...@3`, `${sk}@${v}`, `${sk}${VER_SEPARATOR}${v}`). */
bool kf_is_version_tail(const KfKey *k, size_t p, size_t off,
                        const Config *cfg);

/* Whether the key carries a version suffix: a top-level segment flagged
 * SEGF_VERSIONED (and not SEGF_UNVERSIONED; arguments of calls are not
 * looked at, so removeSortKeyVersion(addSortKeyVersion(..)) is clean), a
 * SEGF_VERSION_SEP text followed by something, or a version tail in
 * inline text. The segment that shows it in *why (may be NULL). */
bool kf_is_versioned(const KfKey *k, const Config *cfg, const Seg **why);

/* ---- Prefixes and attributes ---------------------------------------- */

/* The leading entity prefix token: when the key starts with text, its
 * leading [A-Za-z][A-Za-z0-9_]* run ("ORDER" of "ORDER#x", "USER_TENANT"
 * of "USER_TENANT#common"); NULL otherwise. Arena copy. */
const char *kf_leading_prefix(Arena *a, const KfKey *k);

/* The key of the tenant's own record: its leading prefix names the tenant
 * (TENANT#{code}, TenantConfig#{id}). */
bool kf_is_tenant_record(Arena *a, const KfKey *k);

/* The keys of each data operation of a file, in key order: key indices
 * first[op], next[first[op]], ... up to KF_NO_KEY. Built in one pass, so
 * that a rule looking at every operation's keys stays linear. */
enum { KF_NO_KEY = (size_t)-1 };
typedef struct KfOpKeys {
    size_t *first; /* per op */
    size_t *next;  /* per key */
} KfOpKeys;
void kf_op_keys(Arena *a, const FileIR *file, KfOpKeys *out);

/* The entity of each data operation of `file`: the leading prefix of its
 * (first) partition key, NULL if unknown. An array of file->ops.n
 * entries in `a`, from one pass over the file's keys. */
const char **kf_op_entities(Arena *a, const FileIR *file);
/* The entity a key of `file` belongs to: its operation's (from
 * kf_op_entities), else its own leading prefix when it is a partition
 * key; NULL if unknown. */
const char *kf_key_entity(Arena *a, const FileIR *file, const KeyExpr *k,
                          const char *const *op_entities);
/* The leading prefix of each data operation's sort key ("USER" of
 * `USER#${id}`), NULL if unknown: which item of a partition shared by
 * several entities. `with_id`: only when the sort key carries a value after
 * it (a literal sort key such as 'PROFILE' is an item of the partition's
 * own entity). An array of file->ops.n entries in `a`. */
const char **kf_op_sk_entities(Arena *a, const FileIR *file, bool with_id);
/* The name of the value that identifies each data operation's item, NULL
 * if unknown: the last component of the value right after the entity's
 * prefix in the key that names the item (`listingId` of `LISTING#${listingId}`;
 * the sort key's when `op_sk_entities` names an entity there, else the
 * partition key's). An array of file->ops.n entries in `a`. */
const char **kf_op_id_names(Arena *a, const FileIR *file, const char *const *op_sk_entities);

/* An index key held in an attribute named for an id (`listingId`; not a
 * key attribute such as GSI1SK or PartitionKeyID, and not a table's own
 * key, even one named `id`): its value is an id,
 * whose text (`pool-${ulid()}`, as `cus_` of a payment id) is its own
 * notation, no entity prefix or component boundary of the project's keys. */
bool kf_id_attribute(const KeyExpr *k, const Config *cfg);
/* The name that calls key `k` (`key`: its flat form) one entity's id: the
 * variable it is held in (`const callId = \`${a}-${b}\``), or the table key
 * attribute it is written to when its value is one word, a separator and
 * one value (`ticketId: \`tkt-${uuid}\``, `Key: { sessionId: \`lex-${id}\` }`)
 * or a code with a number written out (`Id: \`PED-${year}-00001\``;
 * `lockId: \`create:${a}:${b}\`` is a key of parts); not a bare `id`
 * otherwise, `pk`, a configured key name or a name with "key". NULL when
 * none: a separator in such a value may be the id's own notation. */
const char *kf_id_holder(const KeyExpr *k, const KfKey *key, const Config *cfg);

/* Whether key i of `f` is the value of an earlier key of the same
 * operation held by the same variable (`pk: eventId, sk: eventId`): one
 * value, which a rule that reports at the variable judges once. */
bool kf_same_value_earlier(const FileIR *f, size_t i);
/* A key attribute name: pk, sk, gsiNpk, gsiNsk, lsiNsk, ... (any case),
 * or one configured under key names. */
bool kf_is_key_attr_name(const char *name, const Config *cfg);
/* A sort-key attribute name: sk, sortKey, rangeKey (any case) or a
 * configured sort key name. */
bool kf_attr_is_sk(const char *attr, const Config *cfg);

/* "partition key", "sort key", "index partition key", "index sort key",
 * "key". */
const char *kf_role_noun(KeyRole r);

#endif

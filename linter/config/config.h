/* `.keylint.yml`: the project's configuration, read with libyaml.
 *
 * A Config and everything it points to are owned by its arena; free it with
 * config_free(). Defaults apply to every key the file leaves out, so a
 * Config from config_default() is complete. */
#ifndef KEYLINT_CONFIG_H
#define KEYLINT_CONFIG_H

#include "common.h"
#include "ir.h"

typedef enum TenantMode {
    TENANT_AUTO = 0, /* multi-tenant if the project's keys carry a tenant */
    TENANT_REQUIRED,
    TENANT_NOT_REQUIRED,
} TenantMode;

typedef struct RuleSetting {
    const char *id;
    Severity severity;
    uint32_t line; /* where it was set, for messages */
} RuleSetting;

typedef struct AccessPattern {
    const char *name;
    const char *pk; /* e.g. "ORDER#{tenantCode}" */
    const char *sk; /* e.g. "begins_with ORDER_ITEM#{orderId}", may be NULL */
    const char *index; /* optional index name, may be NULL */
    uint32_t line;
} AccessPattern;

/* A project's own data-access call (`wrappers:`): where its arguments put
 * what the SDK calls TableName, IndexName, KeyConditionExpression, ...
 * Paths are an argument index with an optional property path ("0",
 * "1.keyCondition"); NULL when not given. */
typedef struct Wrapper {
    const char *call;          /* glob over the callee as written: "db.queryRows", "*.queryRows" */
    OpKind operation;
    const char *table, *index, *key_condition, *names, *values, *key, *item;
    uint32_t line;
} Wrapper;

/* `overrides:` entry: settings for the files its globs match. */
typedef struct ConfigOverride {
    StrList files;   /* globs, relative to the configuration's dir */
    uint32_t line;
} ConfigOverride;

enum { CONFIG_MAX_OVERRIDES = 64 };

typedef struct Config {
    Arena *arena;
    const char *path; /* the file read, NULL for built-in defaults */
    const char *dir;  /* absolute directory the file is in ("" for defaults) */
    /* The file's configuration when this one is it with some of its
     * overrides applied (config_derive); NULL for the file's own. */
    const struct Config *base;
    VEC(ConfigOverride) overrides;
    const char *text; /* the file's text, kept when it has overrides */
    size_t text_len;
    const char *const *known_rules;

    const char *separator;         /* default "#" */
    const char *version_separator; /* default "@" */

    TenantMode tenant_required;    /* tenant.required: auto | true | false */
    uint32_t tenant_required_line; /* where tenant.required is set, 0 if not */
    StrList tenant_names;          /* default tenantCode tenantId tenant tenant_code tenant_id */
    StrList tenant_common;         /* default common */
    StrList tenant_global;         /* entity prefixes that are global: none */

    StrList mutable_fields;        /* default status state priority updatedAt */

    /* Extra key attribute names, on top of pk/sk/gsi1pk/...: */
    StrList key_pk, key_sk, key_index_pk, key_index_sk;

    StrList schemas;               /* schema files, relative to dir */
    bool schemas_given;            /* `schemas:` written (even empty): no
                                    * template discovery (access.h) */
    StrList data_tables, history_tables, command_tables;
    StrList scan_allowed;          /* globs where Scan is expected */
    VEC(AccessPattern) access_patterns;
    VEC(Wrapper) wrappers;         /* project data-access wrappers */

    VEC(RuleSetting) rules;        /* severities set by the file */
    StrList ignore;                /* globs, relative to dir */
    uint32_t max_key_components;   /* complex-key; default 5 */
    /* Suppression directives must give a reason (`-- why`); default
     * false. --require-reason turns it on for every configuration. */
    bool require_suppression_reason;
} Config;

/* Built-in defaults. Never NULL. */
Config *config_default(void);

/* Read `path`. On any error (unreadable file, YAML syntax error, unknown
 * key, bad value, unknown rule id) adds a Problem naming the file, line and
 * key to `problems` and returns NULL. `known_rules` is a NULL-terminated
 * list of valid rule ids. */
Config *config_load(const char *path, const char *const *known_rules,
                    Problems *problems);

void config_free(Config *c);

/* The overrides of `c` whose `files` match `abs` (an absolute path), as
 * bits in order; 0 when none does. */
uint64_t config_override_mask(const Config *c, const char *abs);

/* `base` with the overrides of `mask` applied in order, each over the
 * last (a new Config, `->base` = base); NULL after a Problem. */
Config *config_derive(const Config *base, uint64_t mask, Problems *problems);

/* The configuration file's own configuration (c itself unless derived). */
const Config *config_root(const Config *c);

/* The nearest `.keylint.yml` (then `keylint.yml`) in `dir` or one of its
 * ancestors; a malloc'd absolute path, or NULL if there is none. */
char *config_find(const char *dir);

/* config_find for many directories (a walk): each directory asked, and
 * each ancestor looked in on the way, is answered once. `dir` must be
 * canonical (realpath's). The path returned is the finder's. */
typedef struct ConfigFinder ConfigFinder;
ConfigFinder *config_finder_new(void);
void config_finder_free(ConfigFinder *f);
const char *config_finder_find(ConfigFinder *f, const char *dir);

/* The severity of rule `id` under this config, or `fallback` when the
 * config does not set it. */
Severity config_rule_severity(const Config *c, const char *id,
                              Severity fallback);

/* True when `path` (absolute, or relative to the current directory) matches
 * one of the config's ignore globs, taken relative to the config's dir. */
bool config_ignores(const Config *c, const char *path);
/* The same for a path already absolute the way config_ignores makes it:
 * its directory resolved with realpath, its last component as written
 * (what a file is judged by: where it is, not a symlink's target). */
bool config_ignores_resolved(const Config *c, const char *abs);
/* True when `path` matches one of `globs` (a list of `c`), relative to the
 * configuration's directory; whatever the working directory. */
bool config_path_matches(const Config *c, const StrList *globs, const char *path);

/* Glob match with `*` (not across '/'), `**` (any number of directories,
 * including none), `?` and `[...]`. A pattern without '/' matches the last
 * path component, as .gitignore does. */
bool glob_match(const char *pattern, const char *path);

/* The role a property name has as a key attribute, or -1 if it is not one:
 * pk/PK, sk/SK, gsi1pk/GSI1SK/lsi1sk/pk2..., and the config's names. */
int key_role_for_name(const Config *cfg, const char *name);
/* A property that a project's query function takes as the prefix of the
 * sort key (`skBeginsWith`, `skPrefix`, `sortKeyPrefix`, `sk_prefix`). */
bool key_name_is_sk_prefix(const char *name);
/* The role a constant holding an attribute name says by its own name
 * (`SK_NAME`, `Keys.pkAttr`, `GSI1PK_ATTRIBUTE`), -1 when it says none. */
int key_role_for_const_name(const Config *cfg, const char *cname);

#endif

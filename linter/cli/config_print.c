/* --print-config: the effective configuration of one file, as JSON (which
 * is YAML too), built with jansson. */
#include "config_print.h"

#include <jansson.h>

#include "rule.h"

static json_t *strs(const StrList *l)
{
    json_t *a = json_array();
    for (size_t i = 0; i < l->n; i++)
        json_array_append_new(a, json_string(l->v[i]));
    return a;
}

static json_t *opt(const char *s)
{
    return s ? json_string(s) : json_null();
}

static const char *tenant_mode(TenantMode m)
{
    return m == TENANT_REQUIRED ? "true" : m == TENANT_NOT_REQUIRED ? "false" : "auto";
}

bool config_print(FILE *out, const Config *c, const char *for_path)
{
    json_t *o = json_object();
    json_object_set_new(o, "file", json_string(for_path));
    json_object_set_new(o, "configuration", opt(c->path)); /* null: the defaults */
    json_object_set_new(o, "separator", json_string(c->separator));
    json_object_set_new(o, "version-separator", json_string(c->version_separator));
    json_t *t = json_object();
    json_object_set_new(t, "required", json_string(tenant_mode(c->tenant_required)));
    json_object_set_new(t, "names", strs(&c->tenant_names));
    json_object_set_new(t, "common", strs(&c->tenant_common));
    json_object_set_new(t, "global", strs(&c->tenant_global));
    json_object_set_new(o, "tenant", t);
    json_object_set_new(o, "mutable-fields", strs(&c->mutable_fields));
    json_t *k = json_object();
    json_object_set_new(k, "pk", strs(&c->key_pk));
    json_object_set_new(k, "sk", strs(&c->key_sk));
    json_object_set_new(k, "index-pk", strs(&c->key_index_pk));
    json_object_set_new(k, "index-sk", strs(&c->key_index_sk));
    json_object_set_new(o, "key-attributes", k);
    json_object_set_new(o, "schemas", strs(&c->schemas));
    json_t *tb = json_object();
    json_object_set_new(tb, "data", strs(&c->data_tables));
    json_object_set_new(tb, "history", strs(&c->history_tables));
    json_object_set_new(tb, "command", strs(&c->command_tables));
    json_object_set_new(o, "tables", tb);
    json_object_set_new(o, "scan-allowed", strs(&c->scan_allowed));
    json_object_set_new(o, "ignore", strs(&c->ignore));
    json_object_set_new(o, "max-key-components", json_integer(c->max_key_components));
    json_object_set_new(o, "require-suppression-reason",
                        json_boolean(c->require_suppression_reason));
    json_t *ap = json_array();
    for (size_t i = 0; i < c->access_patterns.n; i++) {
        const AccessPattern *p = &c->access_patterns.v[i];
        json_array_append_new(ap, json_pack("{s:s?, s:s?, s:o, s:o}", "name", p->name, "pk",
                                            p->pk, "sk", opt(p->sk), "index", opt(p->index)));
    }
    json_object_set_new(o, "access-patterns", ap);
    json_t *wr = json_array();
    for (size_t i = 0; i < c->wrappers.n; i++) {
        const Wrapper *w = &c->wrappers.v[i];
        json_array_append_new(
            wr, json_pack("{s:s?, s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "call", w->call,
                          "operation", op_kind_name(w->operation), "table", opt(w->table),
                          "index", opt(w->index), "key-condition", opt(w->key_condition),
                          "names", opt(w->names), "values", opt(w->values), "key", opt(w->key),
                          "item", opt(w->item)));
    }
    json_object_set_new(o, "wrappers", wr);
    /* every rule with the severity it runs at for this file */
    json_t *rules = json_object();
    for (const char *const *id = rule_ids(); *id; id++) {
        const RuleDesc *d = rule_find(*id);
        Severity s = config_rule_severity(c, *id, d ? d->default_severity : SEV_WARNING);
        json_object_set_new(rules, *id, json_string(severity_name(s)));
    }
    json_object_set_new(o, "rules", rules);
    bool ok = json_dumpf(o, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER) == 0 && fputc('\n', out) != EOF;
    json_decref(o);
    return ok;
}

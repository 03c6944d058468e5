/* The design model as a NoSQL Workbench data model (JSON, jansson), the
 * format Workbench imports and exports (its "Version 3.0" models):
 *
 *   { "ModelName", "ModelMetadata": { Author, DateCreated, DateLastModified,
 *       Description, AWSService, Version },
 *     "DataModel": [ { "TableName",
 *       "KeyAttributes": { "PartitionKey": {AttributeName, AttributeType},
 *                          "SortKey": {...} },
 *       "NonKeyAttributes": [ {AttributeName, AttributeType} ],
 *       "TableFacets": [ { "FacetName", "KeyAttributeAlias":
 *           { PartitionKeyAlias, SortKeyAlias }, "TableData": [item],
 *           "NonKeyAttributes": [name], "DataAccess": { "MySql": {} } } ],
 *       "GlobalSecondaryIndexes": [ { IndexName, KeyAttributes,
 *           Projection: { ProjectionType } } ],
 *       "TableData": [item], "DataAccess": { "MySql": {} },
 *       "BillingMode": "PAY_PER_REQUEST" } ] }
 *
 * Items are DynamoDB JSON ({"pk": {"S": "ORDER#o-1"}}). One facet per
 * entity, named after it (unique across the model), its key aliases its
 * key shapes, one example item whose key values follow the shapes. Every
 * attribute an item or index names is declared in the table's
 * attributes, as Workbench requires. */
#include <ctype.h>
#include <jansson.h>
#include <string.h>
#include <time.h>

#include "model.h"
#include "model_int.h"

static json_t *attr_def(const char *name, char type)
{
    char t[2] = {type, 0};
    return json_pack("{s:s, s:s}", "AttributeName", name, "AttributeType", t);
}

static char attr_type(const MTable *t, const char *attr)
{
    for (size_t i = 0; i < t->attrs.n; i++)
        if (!strcmp(t->attrs.v[i], attr))
            return t->attr_types ? t->attr_types[i] : 'S';
    return 'S';
}

static json_t *key_attrs(const MTable *t, const char *pk, const char *sk)
{
    json_t *k = json_object();
    json_object_set_new(k, "PartitionKey", attr_def(pk, attr_type(t, pk)));
    if (sk)
        json_object_set_new(k, "SortKey", attr_def(sk, attr_type(t, sk)));
    return k;
}

/* A value of `attr` in DynamoDB JSON: an example following the entity's
 * first shape of it (a number or binary attribute gets one of its type). */
static json_t *item_value(Arena *a, const MTable *t, const MShape *s, const char *attr, unsigned n)
{
    char type = attr_type(t, attr);
    if (type == 'N')
        return json_pack("{s:s}", "N", arena_printf(a, "%u", n));
    if (type == 'B')
        return json_pack("{s:s}", "B", "AQ==");
    const char *v = s ? model_example_value(a, s->text, n) : arena_printf(a, "%s-%u", attr, n);
    return json_pack("{s:s}", "S", v[0] ? v : "x");
}

/* The text of a key value (its S, N or B), "" for none. */
static const char *key_text(json_t *v)
{
    const char *type;
    json_t *x;
    json_object_foreach(v, type, x) {
        (void)type;
        return json_string_value(x) ? json_string_value(x) : "";
    }
    return "";
}

static const MShape *first_shape(const MEntity *e, const char *attr)
{
    const MShape *s[1];
    return model_cell_shapes(e, attr, s, 1) ? s[0] : NULL;
}

/* A DynamoDB table name for table `t`: its name when it is one (3 to 255
 * of A-Z a-z 0-9 _ - .), else its id or label with the other characters
 * dropped, else "table". */
static const char *table_name(Arena *a, const MTable *t)
{
    const char *cands[] = {t->name, t->id, t->label};
    for (size_t c = 0; c < 3; c++) {
        const char *s = cands[c];
        if (!s)
            continue;
        StrBuf b;
        sb_init(&b, a);
        for (const char *p = s; *p && b.len < 255; p++)
            if (isalnum((unsigned char)*p) || *p == '_' || *p == '-' || *p == '.')
                sb_appendn(&b, p, 1);
            else if (c == 0)
                break; /* a name with a deploy-time part: not this one */
        if (b.len >= 3 && (c > 0 || !s[b.len]))
            return sb_str(&b);
    }
    return "table";
}

/* The DataModel entry of table `t` (pk and sk: its keys). */
static json_t *table_json(Arena *a, const DesignModel *m, size_t t, const char *name,
                          const char *pk, const char *sk, StrList *facet_names)
{
    const MTable *mt = &m->tables.v[t];
    json_t *tj = json_object();
    json_object_set_new(tj, "TableName", json_string(name));
    json_object_set_new(tj, "KeyAttributes", key_attrs(mt, pk, sk));
    json_t *nka = json_array();
    for (size_t i = 0; i < mt->attrs.n; i++) {
        const char *at = mt->attrs.v[i];
        if (strcmp(at, pk) && (!sk || strcmp(at, sk)))
            json_array_append_new(nka, attr_def(at, mt->attr_types ? mt->attr_types[i] : 'S'));
    }
    json_object_set_new(tj, "NonKeyAttributes", nka);
    json_t *facets = json_array(), *all = json_array();
    StrList keys = {0}; /* the example items' keys */
    for (size_t i = 0; i < m->entities.n; i++) {
        const MEntity *e = &m->entities.v[i];
        if (e->table != t)
            continue;
        /* a facet's name is unique in the model */
        const char *fname = e->name;
        for (unsigned k = 2; strlist_has(facet_names, fname); k++)
            fname = arena_printf(a, "%s (%u)", e->name, k);
        strlist_push(a, facet_names, fname);
        const MShape *ps = first_shape(e, pk), *ss = sk ? first_shape(e, sk) : NULL;
        json_t *alias = json_object();
        json_object_set_new(alias, "PartitionKeyAlias", json_string(ps ? ps->text : pk));
        if (sk)
            json_object_set_new(alias, "SortKeyAlias", json_string(ss ? ss->text : sk));
        /* values numbered 1, so that entities of one partition share it in
         * Workbench's views; the next number when the key is taken */
        unsigned k = 1;
        const char *key = NULL;
        json_t *pv = NULL, *sv = NULL;
        for (;; k++) {
            pv = item_value(a, mt, ps, pk, k);
            sv = sk ? item_value(a, mt, ss, sk, k) : NULL;
            key = arena_printf(a, "%s\n%s", key_text(pv), key_text(sv));
            if (!strlist_has(&keys, key) || k > 1000)
                break;
            json_decref(pv);
            json_decref(sv);
        }
        strlist_push(a, &keys, key);
        json_t *item = json_object(), *fnka = json_array();
        json_object_set_new(item, pk, pv);
        if (sv)
            json_object_set_new(item, sk, sv);
        for (size_t c = 0; c < mt->attrs.n; c++) {
            const char *at = mt->attrs.v[c];
            const MShape *s = first_shape(e, at);
            if (!s || !strcmp(at, pk) || (sk && !strcmp(at, sk)))
                continue;
            json_object_set_new(item, at, item_value(a, mt, s, at, k));
            json_array_append_new(fnka, json_string(at));
        }
        json_t *facet = json_object();
        json_object_set_new(facet, "FacetName", json_string(fname));
        json_object_set_new(facet, "KeyAttributeAlias", alias);
        json_t *data = json_array();
        json_array_append(data, item);
        json_object_set_new(facet, "TableData", data);
        json_object_set_new(facet, "NonKeyAttributes", fnka);
        json_object_set_new(facet, "DataAccess", json_pack("{s:{}}", "MySql"));
        json_array_append_new(facets, facet);
        json_array_append_new(all, item);
    }
    json_object_set_new(tj, "TableFacets", facets);
    json_t *gsis = json_array();
    for (size_t i = 0; i < mt->indexes.n; i++) {
        const MIndex *ix = &mt->indexes.v[i];
        if (ix->local || !ix->pk)
            continue;
        const char *proj = ix->projection && (!strcmp(ix->projection, "ALL") ||
                                              !strcmp(ix->projection, "KEYS_ONLY"))
                               ? ix->projection
                               : "ALL";
        json_array_append_new(gsis, json_pack("{s:s, s:o, s:{s:s}}", "IndexName", ix->name,
                                              "KeyAttributes", key_attrs(mt, ix->pk, ix->sk),
                                              "Projection", "ProjectionType", proj));
    }
    json_object_set_new(tj, "GlobalSecondaryIndexes", gsis);
    json_object_set_new(tj, "TableData", all);
    json_object_set_new(tj, "DataAccess", json_pack("{s:{}}", "MySql"));
    json_object_set_new(tj, "BillingMode", json_string("PAY_PER_REQUEST"));
    return tj;
}

/* The attribute most of a table's entities write in `role` (the first
 * in name order among equals), NULL when none does. */
static const char *common_attr(Arena *a, const DesignModel *m, size_t t, KeyRole role)
{
    StrList names = {0};
    NameMap at = {0};
    VEC(size_t) counts = {0};
    for (size_t i = 0; i < m->entities.n; i++) {
        const MEntity *e = &m->entities.v[i];
        for (size_t s = 0; e->table == t && s < e->shapes.n; s++) {
            if (e->shapes.v[s].role != role || !e->shapes.v[s].written)
                continue;
            size_t k;
            if (!namemap_get(&at, e->shapes.v[s].attr, &k)) {
                k = names.n;
                namemap_put(a, &at, e->shapes.v[s].attr, k);
                strlist_push(a, &names, e->shapes.v[s].attr);
                VEC_PUSH(a, &counts, 0);
            }
            counts.v[k]++;
        }
    }
    const char *best = NULL;
    size_t bn = 0;
    for (size_t k = 0; k < names.n; k++)
        if (counts.v[k] > bn || (counts.v[k] == bn && best && strcmp(names.v[k], best) < 0)) {
            best = names.v[k];
            bn = counts.v[k];
        }
    return best;
}

/* "Jan 1, 1970, 12:00 AM": the dates of Workbench's models (UTC). */
static const char *wb_date(Arena *a, long long now)
{
    static const char *const months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                         "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    time_t t = (time_t)now;
    struct tm tm;
    if (!gmtime_r(&t, &tm))
        return "Jan 1, 1970, 12:00 AM";
    int h = tm.tm_hour % 12 ? tm.tm_hour % 12 : 12;
    return arena_printf(a, "%s %d, %d, %02d:%02d %s", months[tm.tm_mon], tm.tm_mday,
                        tm.tm_year + 1900, h, tm.tm_min, tm.tm_hour < 12 ? "AM" : "PM");
}

bool model_write_workbench(FILE *out, const DesignModel *m, const ModelWriteOptions *o)
{
    Arena *a = arena_new();
    json_t *root = json_object();
    json_object_set_new(root, "ModelName", json_string(o && o->title ? o->title : "keylint model"));
    StrList left = {0}, facet_names = {0}, table_names = {0};
    json_t *tables = json_array();
    size_t known = 0;
    for (size_t t = 0; t < m->tables.n; t++)
        known += m->tables.v[t].known && m->tables.v[t].pk;
    for (size_t t = 0; t < m->tables.n; t++) {
        const MTable *mt = &m->tables.v[t];
        if (mt->known && mt->pk) {
            /* table names are unique in a model */
            const char *name = table_name(a, mt);
            for (unsigned k = 2; strlist_has(&table_names, name); k++)
                name = arena_printf(a, "%s-%u", table_name(a, mt), k);
            strlist_push(a, &table_names, name);
            json_array_append_new(tables, table_json(a, m, t, name, mt->pk, mt->sk, &facet_names));
            continue;
        }
        /* no table definition: one table of the keys the code writes, when
         * the model has no other; else its entities are left out */
        const char *pk = known ? NULL : common_attr(a, m, t, ROLE_PK);
        if (pk) {
            json_array_append_new(tables, table_json(a, m, t, "table", pk,
                                                     common_attr(a, m, t, ROLE_SK), &facet_names));
            continue;
        }
        for (size_t i = 0; i < m->entities.n; i++)
            if (m->entities.v[i].table == t)
                strlist_push(a, &left, m->entities.v[i].name);
    }
    StrBuf desc;
    sb_init(&desc, a);
    sb_printf(&desc, "The key design the code builds, drawn by keylint: %zu entit%s, one facet "
                     "each with an example item whose keys follow its shapes; %zu access "
                     "pattern%s in the code.",
              m->entities.n, m->entities.n == 1 ? "y" : "ies", m->queries.n,
              m->queries.n == 1 ? "" : "s");
    if (!known && left.n == m->entities.n && m->entities.n)
        sb_append(&desc, " No table definition was read.");
    if (left.n) {
        sb_append(&desc, " Left out (their table is not known):");
        for (size_t i = 0; i < left.n; i++)
            sb_printf(&desc, "%s %s", i ? "," : "", left.v[i]);
        sb_append(&desc, ".");
    }
    const char *date = wb_date(a, o ? o->now : 0);
    json_object_set_new(root, "ModelMetadata",
                        json_pack("{s:s, s:s, s:s, s:s, s:s, s:s}", "Author", "keylint",
                                  "DateCreated", date, "DateLastModified", date, "Description",
                                  sb_str(&desc), "AWSService", "Amazon DynamoDB", "Version",
                                  "3.0"));
    json_object_set_new(root, "DataModel", tables);
    int rc = json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    fputc('\n', out);
    json_decref(root);
    arena_free(a);
    return rc == 0 && !ferror(out);
}

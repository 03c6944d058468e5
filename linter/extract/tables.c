/* Tables in code and table-related facts of one file: see tables.h.
 *
 * One walk over the syntax index of the whole tree; object literals are
 * converted to DocNode trees with an explicit work list (never deeper than
 * MAX_DOC_DEPTH), so the CloudFormation reader of schema.c also reads
 * CfnTable and CreateTable parameters. Names follow local and module
 * bindings at most MAX_HOPS steps. */
#include "tables_int.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- bindings ------------------------------------------------------------ */

/* Follow identifiers to the value they hold (object literals, strings). */
static SynNode follow(T *t, SynNode n)
{
    n = unwrap(n);
    for (int hop = 0; hop < MAX_HOPS && (is(n, "identifier") || is(n, "shorthand_property_identifier")); hop++) {
        bool param, found;
        SynNode v = binding(t, n, ntext(t, n), &param, &found);
        if (!found || param || syn_null(v))
            break;
        n = unwrap(v);
    }
    return n;
}

/* The literal the identifier `target` is bound to, when it is one. */
static void note_mutated(T *t, SynNode target)
{
    if (!is(target, "identifier"))
        return;
    bool param, found;
    SynNode v = unwrap(binding(t, target, ntext(t, target), &param, &found));
    if (found && !param && (is(v, "array") || is(v, "object")))
        nummap_set(t->a, &t->mutated, (uint64_t)(uintptr_t)v.id, 1);
}

/* Does the file change the array or object literal `lit` after a
 * variable takes it (`KeySchema.push(...)`, `defs[i] = d`, `props.x = 1`,
 * `Object.assign(props, more)`)? A table read from it is then not whole:
 * what the literal shows is only where the code starts. */
static bool mutated_literal(T *t, SynNode lit)
{
    if (!t->mutated_found) {
        t->mutated_found = true;
        for (size_t i = 0; i < syn_node_count(t->syn); i++) {
            const char *ty = syn_type_at(t->syn, i);
            SynNode n = syn_node_at(t->syn, i);
            if (syn_type_is(ty, "call_expression")) {
                SynNode fn = unwrap(field(n, "function"));
                if (!is(fn, "member_expression"))
                    continue;
                const char *m = ntext(t, field(fn, "property"));
                SynNode obj = unwrap(field(fn, "object"));
                if (!strcmp(m, "push") || !strcmp(m, "unshift") || !strcmp(m, "splice"))
                    note_mutated(t, obj);
                else if (!strcmp(m, "assign") && is(obj, "identifier") &&
                         !strcmp(ntext(t, obj), "Object"))
                    note_mutated(t, unwrap(syn_child(t->syn, field(n, "arguments"), 0)));
            } else if (syn_type_is(ty, "assignment_expression") ||
                       syn_type_is(ty, "augmented_assignment_expression")) {
                SynNode left = unwrap(field(n, "left"));
                if (is(left, "member_expression") || is(left, "subscript_expression"))
                    note_mutated(t, unwrap(field(left, "object")));
            }
        }
    }
    size_t one;
    return nummap_get(&t->mutated, (uint64_t)(uintptr_t)lit.id, &one);
}


/* ---- data operation parameters ------------------------------------------------ */

static const char *const param_props[] = {"TableName", "IndexName", "ExpressionAttributeNames",
                                          "FilterExpression", "ScanIndexForward",
                                          "KeyConditionExpression", NULL};

/* Whether some property of `obj` is named like a parameter of a request
 * (this runs on every object argument). */
static bool params_like(T *t, SynNode obj)
{
    return !syn_null(find_prop_of(t, obj, param_props));
}

static void add_params(T *t, uint32_t at, OpParams e)
{
    e.read = true;
    VEC_PUSH(t->a, &t->params, e);
    nummap_put(t->a, &t->params_at, at, t->params.n - 1);
}


/* Whether `s` holds the word `w` (any case), not as part of a name. */
static bool has_word(const char *s, const char *w)
{
    size_t n = strlen(w);
    for (const char *p = s; *p; p++)
        if (!strncasecmp(p, w, n) && (p == s || !(isalnum((unsigned char)p[-1]) || p[-1] == '_')) &&
            !(isalnum((unsigned char)p[n]) || p[n] == '_'))
            return true;
    return false;
}

/* A ConditionExpression that holds only for an item that exists:
 * `attribute_exists(...)`, with no OR or NOT that could let a missing
 * item through. */
static bool requires_item(const char *cond)
{
    return strstr(cond, "attribute_exists(") && !has_word(cond, "OR") && !has_word(cond, "NOT");
}

static void record_params(T *t, uint32_t at, SynNode obj)
{
    if (nummap_get(&t->params_at, at, NULL))
        return;
    OpParams e = {0};
    SynNode tn = find_prop(t, obj, "TableName");
    if (!syn_null(tn)) {
        e.has_table = true;
        e.table = tables_name_ref(t, tn);
        e.table_span = syn_span(tn);
    }
    SynNode in = find_prop(t, obj, "IndexName");
    if (!syn_null(in)) {
        e.has_index = true;
        e.index = tables_name_ref(t, in);
        e.index_span = syn_span(in);
    }
    SynNode names = follow(t, find_prop(t, obj, "ExpressionAttributeNames"));
    if (is(names, "object")) {
        uint32_t cnt = syn_count(t->syn, names);
        for (uint32_t i = 0; i < cnt; i++) {
            SynNode p = syn_child(t->syn, names, i);
            const char *k = prop_name(t, p), *v = NULL;
            SynNode pv = syn_prop_value(t->syn, p);
            if (!k || syn_null(pv))
                continue;
            if (!string_value(t, pv, &v)) {
                NameRef r = tables_name_ref(t, pv);
                v = r.literal;
            }
            if (v) {
                strlist_push(t->a, &e.names, k);
                strlist_push(t->a, &e.names, v);
            }
        }
    }
    SynNode fe = find_prop(t, obj, "FilterExpression");
    const char *s;
    if (!syn_null(fe) && string_value(t, follow(t, fe), &s))
        e.filter = s;
    SynNode ce = find_prop(t, obj, "ConditionExpression");
    if (!syn_null(ce) && string_value(t, follow(t, ce), &s))
        e.must_exist = requires_item(s);
    e.scan_index_forward = !syn_null(find_prop(t, obj, "ScanIndexForward"));
    add_params(t, at, e);
}

/* entity.query({ index: 'gsi1', type: 'post' }) (Turbine) and
 * table.query({ indexName, keyCondition: { pk, sk } }) (ddb-lib): the
 * index and every attribute of the key condition. */
/* A query option of a client library or a project's repository wrapper
 * (`repo.query({ PK, SK: { beginsWith: 'X#' }, limit: 1 })`), not an
 * attribute of the key condition. */
static bool query_option(const char *name)
{
    static const char *const options[] = {
        "limit", "scanIndexForward", "consistentRead", "consistent", "select", "filter",
        "filters", "filterExpression", "projection", "projectionExpression", "attributes",
        "startKey", "exclusiveStartKey", "cursor", "nextToken", "pageSize", "reverse",
        "order", "sort", "ascending", "descending", "tableName", "returnConsumedCapacity",
        "expressionAttributeNames", "expressionAttributeValues", NULL};
    for (const char *const *o = options; *o; o++)
        if (!strcasecmp(name, *o))
            return true;
    return false;
}

/* A key attribute is a string, a number or binary: never true or false. */
static bool bool_value(T *t, SynNode v)
{
    v = unwrap(v);
    return is(v, "true") || is(v, "false");
}

static void record_lib_query(T *t, uint32_t at, SynNode obj)
{
    if (nummap_get(&t->params_at, at, NULL))
        return;
    OpParams e = {.library = true};
    SynNode kc = follow(t, find_prop(t, obj, "keyCondition"));
    SynNode in = find_prop(t, obj, is(kc, "object") ? "indexName" : "index");
    if (!syn_null(in)) {
        e.has_index = true;
        e.index = tables_name_ref(t, in);
        e.index_span = syn_span(in);
    }
    SynNode conds = is(kc, "object") ? kc : obj;
    uint32_t cnt = syn_count(t->syn, conds);
    for (uint32_t i = 0; i < cnt; i++) {
        SynNode p = syn_child(t->syn, conds, i);
        const char *pn = prop_name(t, p);
        if (!pn) {
            if (is(p, "spread_element") || is(p, "pair"))
                strlist_push(t->a, &e.lib_attrs, "?"); /* not readable */
            continue;
        }
        if (!is(kc, "object") && (!strcmp(pn, "index") || !strcmp(pn, "indexName")))
            continue;
        if (query_option(pn) || bool_value(t, syn_prop_value(t->syn, p)))
            continue; /* `limit: 1, scanIndexForward: false`: how, not which keys */
        strlist_push(t->a, &e.lib_attrs, pn);
    }
    add_params(t, at, e);
}

/* `new QueryCommand(params)`, `client.query(params)`: the params object. */
static void call_params(T *t, SynNode call)
{
    SynNode args = field(call, "arguments");
    if (syn_null(args) || !syn_count(t->syn, args))
        return;
    SynNode obj = follow(t, syn_child(t->syn, args, 0));
    if (!is(obj, "object"))
        return;
    if (params_like(t, obj)) {
        record_params(t, syn_start(call), obj);
        return;
    }
    SynNode fn = unwrap(field(call, "function"));
    if (is(call, "call_expression") && is(fn, "member_expression")) {
        SynNode m = field(fn, "property");
        if (syn_text_eq(t->syn, m, "query") || syn_text_eq(t->syn, m, "queryAll") ||
            syn_text_eq(t->syn, m, "queryOne"))
            record_lib_query(t, syn_start(call), obj);
    }
}

/* ---- DocNode trees from object literals ------------------------------------------ */

typedef struct Pend {
    SynNode node;
    DocNode *d;
    int depth;
} Pend;

typedef VEC(Pend) PendVec;

/* CDK enum members read as their member name: AttributeType.STRING. */
static bool enum_member(T *t, SynNode n, const char **out)
{
    if (!is(n, "member_expression"))
        return false;
    SynNode obj = unwrap(field(n, "object"));
    const char *on = is(obj, "member_expression") ? ntext(t, field(obj, "property"))
                   : is(obj, "identifier")        ? ntext(t, obj)
                                                  : "";
    static const char *const enums[] = {"AttributeType", "ProjectionType", "BillingMode",
                                        "StreamViewType", "TableClass", "TableEncryption",
                                        "KeyType", "ScalarAttributeType", NULL};
    for (const char *const *e = enums; *e; e++)
        if (!strcmp(on, *e)) {
            *out = ntext(t, field(n, "property"));
            return true;
        }
    return false;
}

static DocNode *doc_make(T *t, SynNode n, int depth, PendVec *todo)
{
    DocNode *d = arena_alloc(t->a, sizeof *d);
    SynNode v = unwrap(n);
    bool changed = false; /* a variable's literal that the file adds to */
    d->span = syn_span(syn_null(v) ? n : v);
    if (syn_null(v)) {
        d->kind = DOC_NULL;
        return d;
    }
    /* variables: what they hold, when that is readable */
    if (is(v, "identifier") || is(v, "shorthand_property_identifier")) {
        const char *k = const_text(t, ntext(t, v));
        if (k) {
            d->kind = DOC_SCALAR;
            d->text = k;
            return d;
        }
        SynNode f = follow(t, v);
        if (!syn_eq(f, v) && (is(f, "object") || is(f, "array") || is(f, "string") ||
                                  is(f, "template_string"))) {
            v = f;
            changed = (is(f, "object") || is(f, "array")) && mutated_literal(t, f);
        }
    }
    const char *s;
    if (string_value(t, v, &s)) {
        d->kind = DOC_SCALAR;
        d->text = s;
        return d;
    }
    const char *ty = syn_type(v);
    if (syn_type_is(ty, "template_string")) {
        /* with substitutions: a name pattern, like CloudFormation's !Sub */
        d->kind = DOC_SCALAR;
        d->tag = "Fn::Sub";
        d->text = tables_template_pattern(t, v);
        return d;
    }
    if (syn_type_is(ty, "number") || syn_type_is(ty, "true") || syn_type_is(ty, "false")) {
        d->kind = DOC_SCALAR;
        d->text = ntext(t, v);
        return d;
    }
    if (syn_type_is(ty, "null") || syn_type_is(ty, "undefined")) {
        d->kind = DOC_NULL;
        return d;
    }
    if (enum_member(t, v, &s)) {
        d->kind = DOC_SCALAR;
        d->text = s;
        return d;
    }
    if (is(v, "member_expression")) {
        const char *k = const_text(t, ntext(t, v));
        if (k) {
            d->kind = DOC_SCALAR;
            d->text = k;
            return d;
        }
    }
    if ((is(v, "object") || is(v, "array")) && depth < MAX_DOC_DEPTH && t->doc_budget) {
        t->doc_budget--;
        d->kind = is(v, "object") ? DOC_MAP : DOC_SEQ;
        d->partial = changed; /* the code adds to it: more than it shows */
        Pend p = {v, d, depth};
        VEC_PUSH(t->a, todo, p);
        return d;
    }
    d->kind = DOC_OPAQUE;
    d->text = short_text(t, v);
    return d;
}

static DocNode *to_doc(T *t, SynNode n)
{
    PendVec todo = {0};
    t->doc_budget = MAX_DOC_NODES;
    DocNode *root = doc_make(t, n, 0, &todo);
    while (todo.n) {
        Pend p = todo.v[--todo.n];
        uint32_t cnt = syn_count(t->syn, p.node);
        p.d->vals = arena_alloc(t->a, (cnt ? cnt : 1) * sizeof *p.d->vals);
        if (p.d->kind == DOC_MAP)
            p.d->keys = arena_alloc(t->a, (cnt ? cnt : 1) * sizeof *p.d->keys);
        for (uint32_t i = 0; i < cnt; i++) {
            SynNode c = syn_child(t->syn, p.node, i);
            if (is(c, "comment"))
                continue;
            if (is(c, "spread_element")) {
                p.d->partial = true;
                continue;
            }
            if (p.d->kind == DOC_SEQ) {
                p.d->vals[p.d->n++] = doc_make(t, c, p.depth + 1, &todo);
                continue;
            }
            const char *pn = prop_name(t, c);
            if (!pn) {
                if (is(c, "pair") || is(c, "method_definition"))
                    p.d->partial = true;
                continue;
            }
            DocNode *k = arena_alloc(t->a, sizeof *k);
            k->kind = DOC_SCALAR;
            k->text = pn;
            k->span = syn_span(is(c, "pair") ? field(c, "key") : c);
            p.d->keys[p.d->n] = k;
            p.d->vals[p.d->n++] = doc_make(t, syn_prop_value(t->syn, c), p.depth + 1, &todo);
        }
    }
    return root;
}

/* ---- reading code tables ---------------------------------------------------- */

static const char *path_of(T *t) { return t->ir->path; }

static AttrType attr_type_word(const char *s)
{
    if (!s)
        return ATTR_UNKNOWN;
    if (!strcasecmp(s, "STRING") || !strcmp(s, "S"))
        return ATTR_S;
    if (!strcasecmp(s, "NUMBER") || !strcmp(s, "N"))
        return ATTR_N;
    if (!strcasecmp(s, "BINARY") || !strcmp(s, "B"))
        return ATTR_B;
    return ATTR_UNKNOWN;
}

/* `{ name: 'pk', type: AttributeType.STRING }` or `'pk'`. */
static void key_attr(const DocNode *n, KeyAttr *k)
{
    memset(k, 0, sizeof *k);
    if (!n || n->kind == DOC_NULL)
        return;
    k->span = n->span;
    if (doc_scalar(n)) {
        k->name = doc_scalar(n);
        return;
    }
    if (n->kind != DOC_MAP) {
        k->unknown = true;
        return;
    }
    const DocNode *nm = doc_get(n, "name", false);
    k->name = doc_scalar(nm);
    if (!k->name)
        k->unknown = true;
    else
        k->span = nm->span;
    k->type = attr_type_word(doc_scalar(doc_get(n, "type", false)));
}

/* A table variable: `const t = new ...`, `this.t = new ...`, a field. */
static const char *holder_of(T *t, SynNode expr)
{
    SynNode p = syn_parent(t->syn, expr);
    for (int i = 0; i < 4 && !syn_null(p); i++) {
        const char *ty = syn_type(p);
        if (syn_type_is(ty, "parenthesized_expression") || syn_type_is(ty, "as_expression") ||
            syn_type_is(ty, "satisfies_expression") || syn_type_is(ty, "non_null_expression")) {
            p = syn_parent(t->syn, p);
            continue;
        }
        if (syn_type_is(ty, "variable_declarator"))
            return ntext(t, field(p, "name"));
        if (syn_type_is(ty, "assignment_expression"))
            return ntext(t, field(p, "left"));
        if (syn_type_is(ty, "public_field_definition"))
            return arena_dot(t->a, "this", ntext(t, field(p, "name")));
        break;
    }
    return NULL;
}

static const char *table_name_of(const DocNode *n)
{
    if (!n)
        return NULL;
    if (doc_scalar(n))
        return doc_scalar(n);
    if (n->tag && n->text) /* a template: its pattern */
        return n->text;
    return NULL;
}

static void cdk_index(T *t, const DocNode *e, IndexKind kind, TableDef *tb, const char *what)
{
    if (!e || e->kind != DOC_MAP) {
        tb->indexes_open = true;
        return;
    }
    if (e->partial)
        tb->indexes_open = true;
    TableIndex ix = {.kind = kind, .span = e->span};
    const DocNode *in = doc_get(e, "indexName", false);
    ix.name = doc_scalar(in);
    if (!ix.name) {
        if (in)
            tb->indexes_open = true;
        else
            schema_issue(t->a, &t->ft->set, path_of(t), e->span,
                         "a %s secondary index %s has no indexName",
                         kind == INDEX_GLOBAL ? "global" : "local", what);
        return;
    }
    ix.span = in->span;
    key_attr(doc_get(e, "partitionKey", false), &ix.pk);
    key_attr(doc_get(e, "sortKey", false), &ix.sk);
    /* a multi-attribute key: partitionKeys / sortKeys, up to 4 each */
    for (int sort = 0; sort < 2 && kind == INDEX_GLOBAL; sort++) {
        const DocNode *l = doc_get(e, sort ? "sortKeys" : "partitionKeys", false);
        if (!l)
            continue;
        KeyAttr *first = sort ? &ix.sk : &ix.pk, *more = sort ? ix.sk_more : ix.pk_more;
        if (l->kind != DOC_SEQ || l->partial) {
            memset(first, 0, sizeof *first);
            first->unknown = true;
            first->span = l->span;
            continue;
        }
        for (size_t i = 0; i < l->n; i++) {
            if (i >= MAX_KEY_ATTRS) {
                schema_issue(t->a, &t->ft->set, path_of(t), l->vals[i]->span,
                             "global secondary index %s %s has more than %d %s; a "
                             "multi-attribute key has at most %d",
                             ix.name, what, MAX_KEY_ATTRS, sort ? "sortKeys" : "partitionKeys",
                             MAX_KEY_ATTRS);
                break;
            }
            key_attr(l->vals[i], i ? &more[i - 1] : first);
        }
    }
    if (kind == INDEX_LOCAL) {
        ix.pk = tb->pk;
        if (!ix.sk.name && !ix.sk.unknown)
            schema_issue(t->a, &t->ft->set, path_of(t), in->span,
                         "local secondary index %s %s has no sortKey", ix.name, what);
    } else if (!ix.pk.name && !ix.pk.unknown && !e->partial) {
        schema_issue(t->a, &t->ft->set, path_of(t), in->span,
                     "global secondary index %s %s has no partitionKey", ix.name, what);
    }
    const char *pt = doc_scalar(doc_get(e, "projectionType", false));
    ix.projection = pt;
    VEC_PUSH(t->a, &tb->indexes, ix);
}

static void cdk_index_list(T *t, const DocNode *l, IndexKind kind, TableDef *tb)
{
    if (!l)
        return;
    if (l->kind != DOC_SEQ || l->partial)
        tb->indexes_open = true;
    if (l->kind != DOC_SEQ)
        return;
    for (size_t i = 0; i < l->n; i++)
        cdk_index(t, l->vals[i], kind, tb, arena_printf(t->a, "of table %s", tb->id));
}

/* Checked once its add*Index calls are attached (attach_index_calls). */
static void add_table(T *t, TableDef *tb)
{
    VEC_PUSH(t->a, &t->ft->set.tables, *tb);
}

/* new Table(scope, 'Id', { partitionKey, sortKey, tableName, ... }) */
static void cdk_table(T *t, SynNode expr, SynNode id, SynNode props, bool cfn)
{
    const char *sid = NULL;
    TableDef tb = {.source = cfn ? TSRC_CDK_CFN : TSRC_CDK, .path = path_of(t),
                   .span = syn_span(expr)};
    tb.var = holder_of(t, expr);
    tb.id = string_value(t, id, &sid) ? sid : tb.var ? tb.var : "table";
    DocNode *d = to_doc(t, props);
    if (cfn) {
        tb.name = table_name_of(doc_get(d, "tableName", false));
        schema_read_cfn_table(t->a, d, &tb, &t->ft->set);
        VEC_PUSH(t->a, &t->ft->set.tables, tb);
        return;
    }
    if (d->kind != DOC_MAP) {
        tb.pk.unknown = tb.sk.unknown = true;
        tb.indexes_open = true;
        add_table(t, &tb);
        return;
    }
    tb.name = table_name_of(doc_get(d, "tableName", false));
    const DocNode *pk = doc_get(d, "partitionKey", false);
    key_attr(pk, &tb.pk);
    key_attr(doc_get(d, "sortKey", false), &tb.sk);
    if (!pk && d->partial)
        tb.pk.unknown = tb.sk.unknown = true;
    else if (!pk)
        schema_issue(t->a, &t->ft->set, path_of(t), tb.span, "table %s has no partitionKey",
                     tb.id);
    if (d->partial)
        tb.indexes_open = true;
    cdk_index_list(t, doc_get(d, "globalSecondaryIndexes", false), INDEX_GLOBAL, &tb);
    cdk_index_list(t, doc_get(d, "localSecondaryIndexes", false), INDEX_LOCAL, &tb);
    add_table(t, &tb);
}

static bool has_spread(T *t, SynNode obj)
{
    uint32_t cnt = syn_count(t->syn, obj);
    for (uint32_t i = 0; i < cnt; i++)
        if (is(syn_child(t->syn, obj, i), "spread_element"))
            return true;
    return false;
}

/* A key of an SST index: v2 names it partitionKey/sortKey, v3 (and
 * sst.aws.Dynamo) hashKey/rangeKey. */
static const DocNode *sst_key(const DocNode *index, const char *v2, const char *v3)
{
    const DocNode *k = doc_get(index, v2, false);
    return k ? k : doc_get(index, v3, false);
}

/* SST's new Table(stack, 'Id', { fields, primaryIndex: { partitionKey,
 * sortKey }, globalIndexes: { name: {...} }, localIndexes: { name: {...} } })
 * (before SST 1.0 the global ones were secondaryIndexes) and SST v3's new sst.aws.Dynamo('Id', { fields, primaryIndex: { hashKey,
 * rangeKey }, globalIndexes, localIndexes }) */
static void sst_table(T *t, SynNode expr, SynNode id, SynNode props)
{
    const char *sid = NULL;
    TableDef tb = {.source = TSRC_SST, .path = path_of(t), .span = syn_span(expr)};
    tb.var = holder_of(t, expr);
    tb.id = string_value(t, id, &sid) ? sid : tb.var ? tb.var : "table";
    DocNode *d = to_doc(t, props);
    const DocNode *pi = doc_get(d, "primaryIndex", false);
    key_attr(sst_key(pi, "partitionKey", "hashKey"), &tb.pk);
    key_attr(sst_key(pi, "sortKey", "rangeKey"), &tb.sk);
    if (!pi || pi->kind != DOC_MAP || pi->partial)
        tb.pk.unknown = tb.sk.unknown = true;
    tb.indexes_open = d->partial;
    /* SST before 1.0 named the global indexes secondaryIndexes */
    static const char *const lists[] = {"globalIndexes", "secondaryIndexes", "localIndexes"};
    for (int l = 0; l < 3; l++) {
        bool local = l == 2;
        const DocNode *ix = doc_get(d, lists[l], false);
        if (!ix)
            continue;
        if (ix->kind != DOC_MAP || ix->partial)
            tb.indexes_open = true;
        for (size_t i = 0; ix->kind == DOC_MAP && i < ix->n; i++) {
            TableIndex x = {.name = ix->keys[i]->text, .span = ix->keys[i]->span,
                            .kind = local ? INDEX_LOCAL : INDEX_GLOBAL};
            key_attr(sst_key(ix->vals[i], "partitionKey", "hashKey"), &x.pk);
            key_attr(sst_key(ix->vals[i], "sortKey", "rangeKey"), &x.sk);
            if (local)
                x.pk = tb.pk;
            VEC_PUSH(t->a, &tb.indexes, x);
        }
    }
    add_table(t, &tb);
}

/* defineTable({ name, indexes: { table: { hashKey, rangeKey }, gsi1: {...} } }) */
static void turbine_table(T *t, SynNode call, SynNode def)
{
    TableDef tb = {.source = TSRC_TURBINE, .path = path_of(t), .span = syn_span(call)};
    tb.var = holder_of(t, call);
    tb.id = tb.var ? tb.var : "table";
    DocNode *d = to_doc(t, def);
    tb.name = table_name_of(doc_get(d, "name", false));
    const DocNode *ix = doc_get(d, "indexes", false);
    const DocNode *hk = doc_get(d, "hashKey", false);
    if (!hk)
        hk = doc_get(d, "partitionKey", false);
    if (!ix && hk) {
        /* keys given at the top level (older or look-alike APIs) */
        key_attr(hk, &tb.pk);
        const DocNode *rk = doc_get(d, "rangeKey", false);
        key_attr(rk ? rk : doc_get(d, "sortKey", false), &tb.sk);
        tb.indexes_open = true;
        add_table(t, &tb);
        return;
    }
    if (!ix || ix->kind != DOC_MAP) {
        tb.pk.unknown = tb.sk.unknown = true;
        tb.indexes_open = true;
        if (d->kind == DOC_MAP && !d->partial && !ix)
            schema_issue(t->a, &t->ft->set, path_of(t), tb.span,
                         "defineTable %s has no indexes: Turbine needs at least the index "
                         "named 'table' (the table's own keys)",
                         tb.id);
        add_table(t, &tb);
        return;
    }
    if (ix->partial)
        tb.indexes_open = true;
    bool have_table = false;
    for (size_t i = 0; i < ix->n; i++) {
        const DocNode *e = ix->vals[i];
        KeyAttr h, r;
        key_attr(doc_get(e, "hashKey", false), &h);
        key_attr(doc_get(e, "rangeKey", false), &r);
        if (!strcmp(ix->keys[i]->text, "table")) {
            have_table = true;
            tb.pk = h;
            tb.sk = r;
            if (!h.name && !h.unknown)
                schema_issue(t->a, &t->ft->set, path_of(t), ix->keys[i]->span,
                             "the 'table' index of defineTable %s has no hashKey", tb.id);
            continue;
        }
        TableIndex x = {.name = ix->keys[i]->text, .kind = INDEX_GLOBAL, .pk = h, .sk = r,
                        .span = ix->keys[i]->span};
        if (!h.name && !h.unknown)
            schema_issue(t->a, &t->ft->set, path_of(t), x.span,
                         "index %s of defineTable %s has no hashKey", x.name, tb.id);
        VEC_PUSH(t->a, &tb.indexes, x);
    }
    if (!have_table && !ix->partial) {
        schema_issue(t->a, &t->ft->set, path_of(t), ix->span,
                     "defineTable %s has no index named 'table': Turbine reads the table's "
                     "own hashKey and rangeKey from it",
                     tb.id);
        tb.pk.unknown = tb.sk.unknown = true;
    }
    add_table(t, &tb);
}

/* new Table({ name, partitionKey, sortKey, indexes }) (dynamodb-toolbox, v0
 * strings or v1 { name, type }) and new TableClient({ tableName,
 * partitionKey, sortKey }) (ddb-lib). */
static void library_table(T *t, SynNode expr, SynNode def, TableSource src)
{
    TableDef tb = {.source = src, .path = path_of(t), .span = syn_span(expr)};
    tb.var = holder_of(t, expr);
    tb.id = tb.var ? tb.var : "table";
    DocNode *d = to_doc(t, def);
    tb.name = table_name_of(doc_get(d, src == TSRC_DDB_LIB ? "tableName" : "name", false));
    key_attr(doc_get(d, "partitionKey", false), &tb.pk);
    key_attr(doc_get(d, "sortKey", false), &tb.sk);
    if (!tb.pk.name && d->partial)
        tb.pk.unknown = tb.sk.unknown = true;
    /* ddb-lib's TableClient does not declare its indexes */
    tb.indexes_open = src == TSRC_DDB_LIB || d->partial;
    const DocNode *ix = doc_get(d, "indexes", false);
    if (ix && ix->kind == DOC_MAP) {
        tb.indexes_open = tb.indexes_open || ix->partial;
        for (size_t i = 0; i < ix->n; i++) {
            const DocNode *e = ix->vals[i];
            TableIndex x = {.name = ix->keys[i]->text, .span = ix->keys[i]->span};
            const DocNode *pk = doc_get(e, "partitionKey", false);
            const char *ty = doc_scalar(doc_get(e, "type", false));
            x.kind = (ty && !strcmp(ty, "local")) || (!pk && !ty) ? INDEX_LOCAL : INDEX_GLOBAL;
            key_attr(pk, &x.pk);
            if (x.kind == INDEX_LOCAL)
                x.pk = tb.pk;
            key_attr(doc_get(e, "sortKey", false), &x.sk);
            VEC_PUSH(t->a, &tb.indexes, x);
        }
    } else if (ix) {
        tb.indexes_open = true;
    }
    add_table(t, &tb);
}

/* CreateTableCommand({...}) / dynamodb.createTable({...}) */
static void sdk_table(T *t, SynNode expr, SynNode params)
{
    nummap_put(t->a, &t->create_read, syn_start(params), 0);
    TableDef tb = {.source = TSRC_SDK, .path = path_of(t), .span = syn_span(expr)};
    DocNode *d = to_doc(t, params);
    tb.name = table_name_of(doc_get(d, "TableName", false));
    if (!tb.name) /* `process.env.ORDERS_TABLE || 'orders'`: its fallback */
        tb.name = tables_name_ref(t, find_prop(t, params, "TableName")).literal;
    tb.var = holder_of(t, expr);
    tb.id = tb.name && !strstr(tb.name, "${") ? tb.name : tb.var ? tb.var : "CreateTable";
    schema_read_cfn_table(t->a, d, &tb, &t->ft->set);
    VEC_PUSH(t->a, &t->ft->set.tables, tb);
}

/* UpdateTableCommand({ TableName, GlobalSecondaryIndexUpdates: [{ Create }] })
 * / dynamodb.updateTable({...}): a script that adds indexes to a table
 * defined elsewhere. Each index it creates joins the table of that name. */
static void update_table(T *t, SynNode expr, SynNode params)
{
    DocNode *d = to_doc(t, params);
    const char *name = table_name_of(doc_get(d, "TableName", false));
    if (!name)
        return; /* the table cannot be named: nothing to join */
    TableDef scratch = {.id = name, .path = path_of(t), .span = syn_span(expr)};
    schema_read_index_updates(t->a, d, &scratch, &t->ft->set);
    for (size_t i = 0; i < scratch.indexes.n; i++) {
        IndexCall ic = {.receiver = name, .table_name = name, .readable = true,
                        .index = scratch.indexes.v[i]};
        VEC_PUSH(t->a, &t->ft->index_calls, ic);
    }
    if (scratch.indexes_open) {
        IndexCall ic = {.receiver = name, .table_name = name, .index.span = syn_span(expr)};
        VEC_PUSH(t->a, &t->ft->index_calls, ic);
    }
}

/* table.addGlobalSecondaryIndex({...}) / addLocalSecondaryIndex */
static void index_call(T *t, SynNode call, const char *method, SynNode recv, SynNode arg)
{
    IndexKind kind = !strcmp(method, "addLocalSecondaryIndex") ? INDEX_LOCAL : INDEX_GLOBAL;
    IndexCall ic = {.receiver = ntext(t, recv)};
    DocNode *d = to_doc(t, arg);
    TableDef scratch = {.id = ic.receiver, .path = path_of(t)};
    cdk_index(t, d, kind, &scratch, arena_printf(t->a, "added to %s", ic.receiver));
    if (scratch.indexes.n == 1 && !scratch.indexes_open) {
        ic.readable = true;
        ic.index = scratch.indexes.v[0];
    }
    ic.index.span = scratch.indexes.n ? scratch.indexes.v[0].span : syn_span(call);
    VEC_PUSH(t->a, &t->pending, ic);
}

/* ---- the walk ----------------------------------------------------------- */

static const char *last_name(T *t, SynNode callee)
{
    callee = unwrap(callee);
    if (is(callee, "member_expression"))
        return ntext(t, field(callee, "property"));
    return ntext(t, callee);
}

static SynNode arg_at(T *t, SynNode args, uint32_t i)
{
    SynNode none = {0};
    if (syn_null(args) || syn_count(t->syn, args) <= i)
        return none;
    return syn_child(t->syn, args, i);
}

/* The module a constructor comes from (`CfnTable` or `glue.CfnTable`
 * imported from '@aws-cdk/aws-glue'), or NULL when it is not imported. */
static const char *ctor_module(T *t, SynNode ctor)
{
    ctor = unwrap(ctor);
    while (is(ctor, "member_expression"))
        ctor = unwrap(field(ctor, "object"));
    if (!is(ctor, "identifier"))
        return NULL;
    const Import *im = find_import(t, ntext(t, ctor));
    return im ? im->source : NULL;
}

/* Other AWS services have tables too: a Glue, Timestream, Keyspaces or
 * Athena table is no DynamoDB table. A CloudFormation CfnTable is
 * DynamoDB's only when imported from a DynamoDB module (or not imported:
 * `dynamodb.CfnTable` through a namespace, judged by its props). */
static bool other_service(const char *module, bool cfn)
{
    if (!module)
        return false;
    if (cfn)
        return !strstr(module, "dynamodb");
    static const char *const others[] = {"glue", "timestream", "keyspaces", "athena",
                                         "s3tables", "redshift", "lakeformation", NULL};
    for (const char *const *o = others; *o; o++)
        if (strstr(module, *o))
            return true;
    return false;
}

/* `new DynamoDBTable(scope, 'Measures', { partitionKey: { name:
 * 'compoundKey', type: dynamodb.AttributeType.STRING } })`: a construct of
 * the project's own whose name ends in Table, given a DynamoDB key
 * definition (a name and an AttributeType) as the CDK's Table is. */
static bool construct_table(T *t, const char *name, SynNode propsn)
{
    size_t l = strlen(name);
    if (l <= 5 || strcmp(name + l - 5, "Table") || !strcmp(name, "CfnTable") ||
        !strcmp(name, "CfnGlobalTable"))
        return false;
    SynNode props = follow(t, propsn);
    if (!is(props, "object"))
        return false;
    SynNode pk = follow(t, find_prop(t, props, "partitionKey"));
    if (!is(pk, "object") || syn_null(find_prop(t, pk, "name")))
        return false;
    SynNode type = unwrap(find_prop(t, pk, "type"));
    return !syn_null(type) && strstr(ntext(t, type), "AttributeType");
}

/* An AWS Solutions Construct that makes its table (`new LambdaToDynamoDB(
 * this, 'Records', { dynamoTableProps: { partitionKey: ... },
 * tableEnvironmentVariableName: 'CASE_TABLE' })`): the table, held as
 * `holder.dynamoTable`, and the environment variable bound to its name. */
static bool solutions_construct(T *t, SynNode n, const char *name, SynNode id, SynNode propsn)
{
    if (!strstr(name, "DynamoDB"))
        return false;
    SynNode props = follow(t, propsn);
    SynNode table = is(props, "object") ? follow(t, find_prop(t, props, "dynamoTableProps"))
                                        : (SynNode){0};
    if (!is(table, "object") || syn_null(find_prop(t, table, "partitionKey")))
        return false;
    size_t before = t->ft->set.tables.n;
    cdk_table(t, n, id, table, false);
    const char *holder = holder_of(t, n);
    if (t->ft->set.tables.n != before + 1 || !holder)
        return true;
    TableDef *tb = &t->ft->set.tables.v[before];
    tb->var = arena_printf(t->a, "%s.dynamoTable", holder);
    const char *var;
    SynNode env = find_prop(t, props, "tableEnvironmentVariableName");
    if (string_value(t, env, &var)) {
        EnvBinding b = {.var = var, .path = path_of(t), .span = syn_span(env),
                        .table_id = tb->var};
        VEC_PUSH(t->a, &t->ft->set.env, b);
    }
    return true;
}

static void visit_new(T *t, SynNode n)
{
    SynNode ctor = field(n, "constructor");
    SynNode args = field(n, "arguments");
    const char *name = last_name(t, ctor);
    bool cfn = !strcmp(name, "CfnTable") || !strcmp(name, "CfnGlobalTable");
    /* the SDK's table commands: not DynamoDB's when imported from another
     * service's client (Timestream and Keyspaces have CreateTableCommand) */
    bool sdk = !strcmp(name, "CreateTableCommand") || !strcmp(name, "CreateTableInput") ||
               !strcmp(name, "UpdateTableCommand");
    if ((cfn || sdk || !strcmp(name, "Table") || !strcmp(name, "TableV2")) &&
        other_service(ctor_module(t, ctor), cfn)) {
        call_params(t, n);
        return;
    }
    call_params(t, n);
    uint32_t nargs = syn_null(args) ? 0 : syn_count(t->syn, args);
    if (!strcmp(name, "Table") || !strcmp(name, "TableV2")) {
        if (nargs >= 3) {
            SynNode props = follow(t, arg_at(t, args, 2));
            if (is(props, "object") && !syn_null(find_prop(t, props, "primaryIndex")))
                sst_table(t, n, arg_at(t, args, 1), props);
            else if (is(props, "object") &&
                     (!syn_null(find_prop(t, props, "partitionKey")) ||
                      has_spread(t, props)))
                cdk_table(t, n, arg_at(t, args, 1), props, false);
        } else if (nargs == 1) {
            SynNode def = follow(t, arg_at(t, args, 0));
            if (is(def, "object") && !syn_null(find_prop(t, def, "partitionKey")))
                library_table(t, n, def, TSRC_TOOLBOX);
        }
    } else if (nargs >= 3 &&
               solutions_construct(t, n, name, arg_at(t, args, 1), arg_at(t, args, 2))) {
        /* read there */
    } else if (nargs >= 3 && construct_table(t, name, arg_at(t, args, 2))) {
        /* a construct of the project's own that wraps a table */
        cdk_table(t, n, arg_at(t, args, 1), follow(t, arg_at(t, args, 2)), false);
    } else if (!strcmp(name, "Dynamo") && nargs >= 2) {
        SynNode props = follow(t, arg_at(t, args, 1));
        if (is(props, "object") && !syn_null(find_prop(t, props, "primaryIndex")))
            sst_table(t, n, arg_at(t, args, 0), props);
    } else if ((!strcmp(name, "CfnTable") || !strcmp(name, "CfnGlobalTable")) && nargs >= 3) {
        SynNode props = follow(t, arg_at(t, args, 2));
        if (is(props, "object"))
            cdk_table(t, n, arg_at(t, args, 1), props, true);
    } else if (!strcmp(name, "TableClient") && nargs >= 1) {
        SynNode def = follow(t, arg_at(t, args, 0));
        if (is(def, "object"))
            library_table(t, n, def, TSRC_DDB_LIB);
    } else if ((!strcmp(name, "CreateTableCommand") || !strcmp(name, "CreateTableInput")) &&
               nargs >= 1) {
        SynNode params = follow(t, arg_at(t, args, 0));
        if (is(params, "object"))
            sdk_table(t, n, params);
        else
            t->create_unread = true;
    } else if (!strcmp(name, "UpdateTableCommand") && nargs >= 1) {
        SynNode params = follow(t, arg_at(t, args, 0));
        if (is(params, "object") &&
            !syn_null(find_prop(t, params, "GlobalSecondaryIndexUpdates")))
            update_table(t, n, params);
    }
}

static void env_pair(T *t, const char *var, SynNode value, Span at)
{
    value = unwrap(value);
    EnvBinding b = {.var = var, .path = path_of(t), .span = at};
    const char *s;
    if (is(value, "member_expression") &&
        syn_text_eq(t->syn, field(value, "property"), "tableName")) {
        b.table_id = ntext(t, unwrap(field(value, "object")));
    } else if (string_value(t, value, &s)) {
        b.name = s;
    } else {
        return;
    }
    VEC_PUSH(t->a, &t->ft->set.env, b);
}

static void visit_call(T *t, SynNode n)
{
    SynNode fn = unwrap(field(n, "function"));
    SynNode args = field(n, "arguments");
    const char *name = last_name(t, fn);
    call_params(t, n);
    if (!strcmp(name, "defineTable")) {
        SynNode def = follow(t, arg_at(t, args, 0));
        if (is(def, "object"))
            turbine_table(t, n, def);
    } else if (!strcmp(name, "defineEntity")) {
        SynNode def = follow(t, arg_at(t, args, 0));
        SynNode tv = unwrap(find_prop(t, def, "table"));
        const char *holder = holder_of(t, n);
        if (holder && !syn_null(tv)) {
            EntityTable e = {.entity = holder, .table = ntext(t, tv), .span = syn_span(n)};
            VEC_PUSH(t->a, &t->ft->entities, e);
        }
    } else if (!strcmp(name, "createTable") && is(fn, "member_expression")) {
        SynNode params = follow(t, arg_at(t, args, 0));
        if (is(params, "object") && !syn_null(find_prop(t, params, "KeySchema")))
            sdk_table(t, n, params);
        else if (!is(params, "object"))
            t->create_unread = true;
    } else if (!strcmp(name, "updateTable") && is(fn, "member_expression")) {
        SynNode params = follow(t, arg_at(t, args, 0));
        if (is(params, "object") &&
            !syn_null(find_prop(t, params, "GlobalSecondaryIndexUpdates")))
            update_table(t, n, params);
    } else if ((!strcmp(name, "addGlobalSecondaryIndex") ||
                !strcmp(name, "addLocalSecondaryIndex")) &&
               is(fn, "member_expression")) {
        index_call(t, n, name, unwrap(field(fn, "object")), arg_at(t, args, 0));
    } else if (!strcmp(name, "addEnvironment") && is(fn, "member_expression")) {
        const char *var;
        if (string_value(t, arg_at(t, args, 0), &var))
            env_pair(t, var, arg_at(t, args, 1), syn_span(n));
    }
}

/* A key attribute (or a value inside one) that is a choice of constants. */
static bool constant_branch(T *t, SynNode n, int depth)
{
    n = unwrap(n);
    const char *s;
    if (depth > MAX_HOPS || syn_null(n))
        return false;
    if (string_value(t, n, &s))
        return true;
    if (is(n, "ternary_expression"))
        return constant_branch(t, field(n, "consequence"), depth + 1) &&
               constant_branch(t, field(n, "alternative"), depth + 1);
    if (is(n, "identifier") || is(n, "member_expression"))
        return const_text(t, ntext(t, n)) != NULL;
    return false;
}

static void visit_ternary(T *t, SynNode n)
{
    SynNode parent = syn_parent(t->syn, n);
    while (is(parent, "parenthesized_expression"))
        parent = syn_parent(t->syn, parent);
    if (is(parent, "ternary_expression"))
        return; /* the outermost one is judged */
    if (!constant_branch(t, field(n, "consequence"), 0) ||
        !constant_branch(t, field(n, "alternative"), 0))
        return;
    ConstChoice c = {.span = syn_span(n), .role = -1, .text = short_text(t, n)};
    if (is(parent, "pair")) {
        c.attr = prop_name(t, parent);
        c.role = key_role_for_name(t->cfg, c.attr);
        if (c.role < 0)
            return; /* the value of an attribute that is no key */
    }
    VEC_PUSH(t->a, &t->ir->choices, c);
}

/* A CloudFormation resource written in code (serverless.ts `resources:
 * { Resources: { Orders: { Type: 'AWS::DynamoDB::Table', Properties } } }`,
 * templates built as objects): the template reader's table. */
/* Whether `obj` is what a test expects (`expect(x).toMatchObject({ Type:
 * 'AWS::DynamoDB::Table', ... })`, `expect.objectContaining(...)`): an
 * assertion about a template, not a template. */
static bool in_assertion(T *t, SynNode obj)
{
    static const char *const asserts[] = {"expect", "toMatchObject", "toEqual", "toStrictEqual",
                                          "toContainEqual", "objectContaining", "toHaveProperty",
                                          "hasResourceProperties", "hasResource", NULL};
    SynNode n = obj;
    for (int up = 0; up < 16 && !syn_null(n); up++, n = syn_parent(t->syn, n)) {
        if (syn_is_function(n) || is(n, "expression_statement") || is(n, "program"))
            return false;
        if (!is(n, "call_expression"))
            continue;
        SynNode fn = unwrap(field(n, "function"));
        const char *name = is(fn, "member_expression") ? ntext(t, field(fn, "property"))
                         : is(fn, "identifier")        ? ntext(t, fn)
                                                       : NULL;
        for (const char *const *a = asserts; name && *a; a++)
            if (!strcmp(name, *a))
                return true;
    }
    return false;
}

static void cfn_resource(T *t, SynNode obj)
{
    const char *type;
    if (!string_value(t, find_prop(t, obj, "Type"), &type) ||
        (strcmp(type, "AWS::DynamoDB::Table") && strcmp(type, "AWS::DynamoDB::GlobalTable")))
        return;
    SynNode props = follow(t, find_prop(t, obj, "Properties"));
    if (!is(props, "object") || in_assertion(t, obj))
        return;
    SynNode pair = syn_parent(t->syn, obj);
    TableDef tb = {.source = TSRC_CLOUDFORMATION, .path = path_of(t), .span = syn_span(obj)};
    DocNode *d = to_doc(t, props);
    tb.name = table_name_of(doc_get(d, "TableName", false));
    tb.id = is(pair, "pair") && prop_name(t, pair) ? prop_name(t, pair)
          : tb.name                                  ? tb.name
                                                     : "Table";
    schema_read_cfn_table(t->a, d, &tb, &t->ft->set);
    VEC_PUSH(t->a, &t->ft->set.tables, tb);
}

static void visit_pair(T *t, SynNode n)
{
    /* environment: { ORDERS_TABLE: orders.tableName }, { TABLE: { Ref: 'Orders' } } */
    const char *k = prop_name(t, n);
    if (k && all_caps_name(k)) {
        SynNode v = unwrap(field(n, "value"));
        const char *ref;
        if (is(v, "member_expression") && syn_text_eq(t->syn, field(v, "property"), "tableName"))
            env_pair(t, k, v, syn_span(n));
        else if (is(v, "object") && syn_count(t->syn, v) == 1 &&
                 string_value(t, find_prop(t, v, "Ref"), &ref))
            VEC_PUSH(t->a, &t->ft->set.env,
                     ((EnvBinding){.var = k, .table_id = ref, .path = path_of(t),
                                   .span = syn_span(n)}));
    }
}

static void visit_class(T *t, SynNode n)
{
    static const char *const cmds[] = {"ScanCommand", "QueryCommand", "GetCommand",
                                       "PutCommand", "UpdateCommand", "DeleteCommand",
                                       "DynamoDBDocumentClient", "DocumentClient", NULL};
    SynNode nm = field(n, "name");
    if (syn_null(nm))
        return;
    for (const char *const *c = cmds; *c; c++)
        if (syn_text_eq(t->syn, nm, *c))
            strlist_push(t->a, &t->ir->local_commands, *c);
}

/* `{ Put: { TableName, Item } }` in TransactItems: its operation is at the
 * element (sdk.c's transact_items), its parameters are the object inside. */
static SynNode transact_params(T *t, SynNode obj)
{
    static const char *const kinds[] = {"Put", "Update", "Delete", "ConditionCheck", "Get"};
    if (syn_count(t->syn, obj) != 1)
        return (SynNode){0};
    for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
        SynNode inner = follow(t, find_prop(t, obj, kinds[k]));
        if (is(inner, "object") && params_like(t, inner))
            return inner;
    }
    return (SynNode){0};
}

static void visit(T *t, SynNode n, const char *ty)
{
    SynNode inner;
    if (syn_type_is(ty, "new_expression"))
        visit_new(t, n);
    else if (syn_type_is(ty, "call_expression"))
        visit_call(t, n);
    else if (syn_type_is(ty, "object") && params_like(t, n))
        record_params(t, syn_start(n), n);
    else if (syn_type_is(ty, "object") && !syn_null(inner = transact_params(t, n)))
        record_params(t, syn_start(n), inner);
    else if (syn_type_is(ty, "object"))
        cfn_resource(t, n);
    else if (syn_type_is(ty, "ternary_expression"))
        visit_ternary(t, n);
    else if (syn_type_is(ty, "pair"))
        visit_pair(t, n);
    else if (syn_type_is(ty, "class_declaration") || syn_type_is(ty, "class"))
        visit_class(t, n);
}


/* In a file whose CreateTable call takes parameters it builds elsewhere
 * (`for (const def of tables) await client.send(new
 * CreateTableCommand(def))`), each object literal that has a TableName and
 * a KeySchema array is a table's parameters. */
static void create_params_objects(T *t)
{
    size_t k;
    for (size_t i = 0; i < syn_node_count(t->syn); i++) {
        SynNode o = syn_node_at(t->syn, i);
        if (!is(o, "object") || nummap_get(&t->create_read, syn_start(o), &k) ||
            syn_null(find_prop(t, o, "TableName")) ||
            !is(unwrap(find_prop(t, o, "KeySchema")), "array"))
            continue;
        sdk_table(t, o, o);
    }
}

/* add*Index calls on a table variable of this file join that table. */
static void attach_index_calls(T *t)
{
    for (size_t i = 0; i < t->pending.n; i++) {
        IndexCall *ic = &t->pending.v[i];
        TableDef *hit = NULL;
        for (size_t j = 0; j < t->ft->set.tables.n && !hit; j++) {
            TableDef *tb = &t->ft->set.tables.v[j];
            if (tb->var && !strcmp(tb->var, ic->receiver))
                hit = tb;
        }
        if (!hit) {
            VEC_PUSH(t->a, &t->ft->index_calls, *ic);
            continue;
        }
        if (!ic->readable) {
            hit->indexes_open = true;
            continue;
        }
        if (ic->index.kind == INDEX_LOCAL)
            ic->index.pk = hit->pk;
        VEC_PUSH(t->a, &hit->indexes, ic->index);
    }
    for (size_t j = 0; j < t->ft->set.tables.n; j++) {
        const TableDef *tb = &t->ft->set.tables.v[j];
        if (tb->source != TSRC_CDK_CFN && tb->source != TSRC_SDK) /* those are checked */
            schema_check_table(t->a, tb, &t->ft->set);
    }
}

void extract_tables(const SynTree *syn, Scopes *scopes, Arena *a, FileIR *ir,
                    const Config *cfg)
{
    FileTables *ft = arena_alloc(a, sizeof *ft);
    ir->tables = ft;
    size_t len;
    T t = {.syn = syn, .scopes = scopes, .src = syn_source(syn, &len), .a = a, .ir = ir,
           .cfg = cfg, .ft = ft};
    tables_module_consts(&t, syn_root(syn));
    for (size_t i = 0; i < syn_node_count(syn); i++)
        visit(&t, syn_node_at(syn, i), syn_type_at(syn, i));
    if (t.create_unread)
        create_params_objects(&t);
    attach_index_calls(&t);
    for (size_t i = 0; i < ir->ops.n; i++) {
        size_t k;
        if (nummap_get(&t.params_at, ir->ops.v[i].span.start_byte, &k))
            ir->ops.v[i].params = t.params.v[k];
    }
}

/* ---- the copy extraction keeps ------------------------------------------ */

FileTables *tables_copy(Copier *c, const FileTables *ft)
{
    if (!ft)
        return NULL;
    FileTables *o = arena_alloc(c->to, sizeof *o);
    o->set = tableset_copy(c, &ft->set);
    COPY_VEC(c, &o->consts, &ft->consts);
    for (size_t i = 0; i < o->consts.n; i++) {
        o->consts.v[i].name = copy_str(c, o->consts.v[i].name);
        o->consts.v[i].ref = nameref_copy(c, o->consts.v[i].ref);
    }
    COPY_VEC(c, &o->entities, &ft->entities);
    for (size_t i = 0; i < o->entities.n; i++) {
        o->entities.v[i].entity = copy_str(c, o->entities.v[i].entity);
        o->entities.v[i].table = copy_str(c, o->entities.v[i].table);
    }
    COPY_VEC(c, &o->index_calls, &ft->index_calls);
    for (size_t i = 0; i < o->index_calls.n; i++) {
        o->index_calls.v[i].receiver = copy_str(c, o->index_calls.v[i].receiver);
        o->index_calls.v[i].table_name = copy_str(c, o->index_calls.v[i].table_name);
        o->index_calls.v[i].index = tableindex_copy(c, &ft->index_calls.v[i].index);
    }
    return o;
}

/* Unit tests for linter/access.c and the access-pattern and key-design
 * rules (rules/<id>.c): resolved IR, table facts and table models built by
 * hand, each rule's check run through a RuleContext, diagnostics compared
 * (count, position, message).
 *
 * Spans: the r-th key of the checked file is on row r (from 0); its
 * segments on the same row at columns 10, 20, ... Operations are on rows
 * 200 + their index. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "access.h"
#include "config.h"
#include "facts.h"
#include "rule.h"
#include "schema.h"
#include "tables.h"

extern const RuleDesc rule_complex_key;
extern const RuleDesc rule_key_condition_attribute;
extern const RuleDesc rule_low_cardinality_pk;
extern const RuleDesc rule_missing_prefix;
extern const RuleDesc rule_partition_key_range;
extern const RuleDesc rule_prefix_case;
extern const RuleDesc rule_scan;
extern const RuleDesc rule_schema;
extern const RuleDesc rule_separator_in_value;
extern const RuleDesc rule_timestamp_pk;
extern const RuleDesc rule_unknown_index;
extern const RuleDesc rule_unmatched_query;
extern const RuleDesc rule_unserved_access_pattern;

static Arena *A;
static Config *C;
static FileIR *F, *OTHER;
static TableModel *M;
static AccessFacts AF;
static ProjectFacts PF;
static DiagList D;
static uint32_t next_row;

static FileIR *new_file(const char *path)
{
    FileIR *f = arena_alloc(A, sizeof *f);
    f->arena = A;
    f->path = path;
    f->tables = arena_alloc(A, sizeof *f->tables);
    return f;
}

static int setup(void **state)
{
    (void)state;
    A = arena_new();
    C = config_default();
    F = new_file("src/orders.ts");
    OTHER = new_file("src/other.ts");
    M = arena_alloc(A, sizeof *M);
    diag_init(&D);
    next_row = 0;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    diag_free(&D);
    config_free(C);
    arena_free(A);
    return 0;
}

/* ---- building IR ---------------------------------------------------------- */

static Span row_span(uint32_t row, uint32_t col)
{
    return (Span){.start_row = row, .start_col = col, .end_row = row, .end_col = col + 5,
                  .start_byte = row * 1000 + col, .end_byte = row * 1000 + col + 5};
}

static Seg text(const char *t) { return (Seg){.kind = SEG_TEXT, .text = t}; }
static Seg ref(const char *p) { return (Seg){.kind = SEG_REF, .text = p}; }
static Seg reff(const char *p, uint32_t flags) { return (Seg){.kind = SEG_REF, .text = p, .flags = flags}; }
static Seg call(const char *c) { return (Seg){.kind = SEG_CALL, .text = c}; }

static KeyExpr *vkey(FileIR *f, KeyRole role, const char *attr, KeySite site, int op, CondOp cond,
                     int n, va_list ap)
{
    uint32_t row = f == F ? next_row++ : 500 + (uint32_t)f->keys.n;
    KeyExpr k = {.role = role, .attr = attr, .site = site, .op = op, .cond = cond,
                 .build = BUILD_TEMPLATE, .span = row_span(row, 0)};
    for (int i = 0; i < n; i++) {
        Seg s = va_arg(ap, Seg);
        s.span = row_span(row, (uint32_t)(10 * (i + 1)));
        seglist_push(A, &k.segs, s);
    }
    VEC_PUSH(A, &f->keys, k);
    return &f->keys.v[f->keys.n - 1];
}

static KeyExpr *key_in(FileIR *f, KeyRole role, const char *attr, KeySite site, int op, CondOp cond,
                       int n, ...)
{
    va_list ap;
    va_start(ap, n);
    KeyExpr *k = vkey(f, role, attr, site, op, cond, n, ap);
    va_end(ap);
    return k;
}

#define KEY(role, attr, site, op, cond, ...)                                                     \
    key_in(F, role, attr, site, op, cond, (int)(sizeof((Seg[]){__VA_ARGS__}) / sizeof(Seg)),    \
           __VA_ARGS__)
#define OKEY(role, attr, site, op, cond, ...)                                                    \
    key_in(OTHER, role, attr, site, op, cond,                                                    \
           (int)(sizeof((Seg[]){__VA_ARGS__}) / sizeof(Seg)), __VA_ARGS__)

static int add_op(FileIR *f, OpKind kind, OpApi api, const char *callee, const char *kce)
{
    /* the key condition, when given, is a plain literal a line below the call */
    DataOp o = {.kind = kind, .api = api, .callee = callee, .key_condition = kce,
                .span = row_span(200 + (uint32_t)f->ops.n, 4),
                .key_condition_span = row_span(300 + (uint32_t)f->ops.n, 30),
                .key_condition_exact = kce != NULL};
    VEC_PUSH(A, &f->ops, o);
    return (int)f->ops.n - 1;
}

/* The params facts of an operation: table by environment variable or
 * literal, index by literal, names "#a", "attr", ... */
static OpParams *extra(FileIR *f, int op, const char *env, const char *table, const char *index)
{
    OpParams e = {.read = true};
    if (env || table) {
        e.has_table = true;
        e.table.env = env;
        e.table.literal = table;
    }
    if (index) {
        e.has_index = true;
        e.index.literal = index;
        e.index.text = index;
        e.index_span = row_span(200 + (uint32_t)op, 40);
    }
    f->ops.v[op].params = e;
    return &f->ops.v[op].params;
}

static KeyAttr attr(const char *name)
{
    return (KeyAttr){.name = name, .type = ATTR_S, .span = row_span(1, 2)};
}

static TableDef *add_table(const char *id, const char *name, const char *pk, const char *sk)
{
    TableDef t = {.id = id, .name = name, .pk = attr(pk), .path = "template.yaml",
                  .span = row_span(9, 2)};
    if (sk)
        t.sk = attr(sk);
    VEC_PUSH(A, &M->set.tables, t);
    return &M->set.tables.v[M->set.tables.n - 1];
}

static void add_index(TableDef *t, const char *name, IndexKind kind, const char *pk, const char *sk)
{
    TableIndex ix = {.name = name, .kind = kind, .pk = attr(pk), .span = row_span(20, 8)};
    if (sk)
        ix.sk = attr(sk);
    VEC_PUSH(A, &t->indexes, ix);
}

static void add_env(const char *var, const char *table_id, const char *name)
{
    EnvBinding b = {.var = var, .table_id = table_id, .name = name, .path = "template.yaml",
                    .span = row_span(6, 8)};
    VEC_PUSH(A, &M->set.env, b);
}

/* The usual schema: AppTable (app) pk/sk, GSI1 (GSI1PK, GSI1SK), LSI1
 * (pk, lsi1sk); TABLE_NAME names it. */
static TableDef *app_table(void)
{
    TableDef *t = add_table("AppTable", "app", "pk", "sk");
    add_index(t, "GSI1", INDEX_GLOBAL, "GSI1PK", "GSI1SK");
    add_index(t, "LSI1", INDEX_LOCAL, "pk", "lsi1sk");
    add_env("TABLE_NAME", "AppTable", NULL);
    return t;
}

/* ---- running ------------------------------------------------------------- */

static void compute(void)
{
    FileIR *files[] = {F, OTHER};
    facts_compute(&PF, A, files, 2, C);
    access_compute(&AF, A, files, 2, C);
}

static RuleContext ctx_for(const RuleDesc *r, bool with_tables)
{
    return (RuleContext){.rule = r, .severity = r->default_severity, .file = F, .config = C,
                         .facts = &PF, .out = &D, .tables = with_tables ? M : NULL,
                         .access = with_tables ? &AF : NULL};
}

static void dump(void)
{
    for (size_t i = 0; i < D.items.n; i++)
        print_message("  got %s:%u:%u %s [%s]\n", D.items.v[i].path, D.items.v[i].span.start_row,
                      D.items.v[i].span.start_col, D.items.v[i].message, D.items.v[i].rule);
}

static size_t run_with(const RuleDesc *r, bool with_tables)
{
    compute();
    diag_free(&D);
    diag_init(&D);
    RuleContext ctx = ctx_for(r, with_tables);
    r->check(&ctx);
    diag_sort(&D);
    return D.items.n;
}

#define RUN(rule, n)                                                                             \
    do {                                                                                         \
        size_t got_ = run_with(&(rule), true);                                                   \
        if (got_ != (size_t)(n))                                                                 \
            dump();                                                                              \
        assert_int_equal(got_, (n));                                                             \
    } while (0)

static void expect_at(size_t i, uint32_t row, const char *sub)
{
    assert_true(i < D.items.n);
    const Diagnostic *d = &D.items.v[i];
    if (!strstr(d->message, sub) || d->span.start_row != row) {
        dump();
        fail_msg("diagnostic %zu: wanted row %u '%s'", i, row, sub);
    }
}

/* ====================================================================== */
/* access facts                                                            */

static void test_shapes(void **state)
{
    (void)state;
    static const struct {
        const char *q, *w;
        bool prefix, want;
    } cases[] = {
        {"ORDER#{}", "ORDER#{}", false, true},
        {"ORDERITEM#{}", "ORDER_ITEM#{}#{}", true, false},
        {"ORDER_ITEM#{}", "ORDER_ITEM#{}#{}", true, true},
        {"ORDER_ITEM#", "ORDER#{}", true, false},
        {"ORDER#", "ORDER#{}", true, true},
        {"ORDER#", "ORDER", true, false},        /* nothing written that long */
        {"PROFILE", "PROFILE", false, true},
        {"PROFILE", "PROFILE#{}", false, false},
        {"PROF", "PROFILE", true, true},
        {"USER#1", "USER#{}", false, true},
        {"USER#{}#ORDER", "USER#{}#ITEM", false, false}, /* the literal ends differ */
        {"{}", "ANYTHING", false, true},
        {"X#{}", "{}", false, true},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        if (access_shapes_compatible(cases[i].q, cases[i].w, cases[i].prefix) != cases[i].want)
            fail_msg("case %zu: %s vs %s", i, cases[i].q, cases[i].w);
}

static void test_target(void **state)
{
    (void)state;
    TableDef *app = app_table();
    TableDef *audit = add_table("Audit", "${AWS::StackName}-audit", "id", NULL);
    TableDef *turbine = add_table("table", "posts", "pk", "sk");
    turbine->var = "table";
    turbine->source = TSRC_TURBINE;
    EntityTable et = {.entity = "posts", .table = "table"};
    VEC_PUSH(A, &OTHER->tables->entities, et);
    int q0 = add_op(F, OP_QUERY, API_SDK_V3, "QueryCommand", "GSI1PK = :p");
    extra(F, q0, "TABLE_NAME", "local", "GSI1");
    int q1 = add_op(F, OP_QUERY, API_SDK_V3, "QueryCommand", NULL);
    extra(F, q1, NULL, "prod-audit", NULL);
    int q2 = add_op(F, OP_QUERY, API_SDK_V3, "QueryCommand", NULL);
    extra(F, q2, NULL, "billing", "X");
    int q3 = add_op(F, OP_QUERY, API_TURBINE, "posts.query", NULL);
    int q4 = add_op(F, OP_GET, API_MBC_DATA, "dataService.getItem", NULL);
    F->ops.v[q4].table_kind = TABLE_DATA;
    int q5 = add_op(F, OP_QUERY, API_SDK_V3, "QueryCommand", NULL);
    extra(F, q5, "UNBOUND", NULL, "gsi1");
    compute();
    OpTarget t;
    access_target(A, &AF, M, C, F, (size_t)q0, &t);
    assert_ptr_equal(t.table, app);
    assert_non_null(strstr(t.how, "environment variable TABLE_NAME, template.yaml:7"));
    assert_string_equal(t.index, "GSI1");
    assert_ptr_equal(t.ix, &app->indexes.v[0]);
    assert_string_equal(t.pk->name, "GSI1PK");
    assert_int_equal(t.index_span.start_col, 40);
    access_target(A, &AF, M, C, F, (size_t)q1, &t);
    assert_ptr_equal(t.table, audit); /* a deploy-time name matches */
    assert_string_equal(t.pk->name, "id");
    assert_null(t.sk->name);
    access_target(A, &AF, M, C, F, (size_t)q2, &t);
    assert_null(t.table);
    assert_true(t.foreign);
    access_target(A, &AF, M, C, F, (size_t)q3, &t);
    assert_ptr_equal(t.table, turbine);
    /* data table: configured name */
    access_target(A, &AF, M, C, F, (size_t)q4, &t);
    assert_null(t.table); /* three tables, none configured */
    strlist_push(C->arena, &C->data_tables, "app");
    access_target(A, &AF, M, C, F, (size_t)q4, &t);
    assert_ptr_equal(t.table, app);
    assert_non_null(strstr(t.how, "tables.data"));
    /* an environment variable nothing binds, no default: not known */
    access_target(A, &AF, M, C, F, (size_t)q5, &t);
    assert_null(t.table);
    assert_false(t.foreign);
    /* the only table */
    M->set.tables.n = 1;
    access_target(A, &AF, M, C, F, (size_t)q5, &t);
    assert_ptr_equal(t.table, app);
    assert_string_equal(t.how, "the project's only table");
    assert_null(t.ix); /* gsi1 is not GSI1 */
    assert_null(t.pk);
}

static void test_target_constants(void **state)
{
    (void)state;
    app_table();
    /* IndexName: Indexes.byStatus, imported from ./indexes */
    ConstDef c = {.name = "Indexes.byStatus", .exported = true};
    seglist_push(A, &c.value, text("GSI1"));
    fileir_add_const(OTHER, c);
    OTHER->path = "src/indexes.ts";
    Import im = {.local = "Indexes", .imported = "Indexes", .source = "./indexes"};
    fileir_add_import(F, im);
    int q = add_op(F, OP_QUERY, API_SDK_V3, "QueryCommand", NULL);
    OpParams *e = extra(F, q, "TABLE_NAME", NULL, NULL);
    e->has_index = true;
    e->index.text = "Indexes.byStatus";
    /* TableName: TABLE imported, a NameConst of the other file */
    int q2 = add_op(F, OP_QUERY, API_TURBINE, "x.query", NULL);
    F->ops.v[q2].index = "Indexes.byStatus";
    compute();
    OpTarget t;
    access_target(A, &AF, M, C, F, (size_t)q, &t);
    assert_string_equal(t.index, "GSI1");
    assert_non_null(t.ix);
    access_target(A, &AF, M, C, F, (size_t)q2, &t);
    assert_string_equal(t.index, "GSI1");
}

static void test_conditions(void **state)
{
    (void)state;
    int q = add_op(F, OP_QUERY, API_SDK_V3, "QueryCommand", "#p = :p AND begins_with(#s, :s)");
    OpParams *e = extra(F, q, NULL, "app", NULL);
    strlist_push(A, &e->names, "#p");
    strlist_push(A, &e->names, "pk");
    strlist_push(A, &e->names, "#s");
    strlist_push(A, &e->names, "sk");
    KEY(ROLE_SK, "sk", SITE_CONDITION, q, COND_BEGINS_WITH, text("ORDER#"));
    compute();
    OpCond *c;
    bool complete;
    size_t n = access_conditions(A, F, NULL, (size_t)q, &c, &complete);
    assert_int_equal(n, 2);
    assert_string_equal(c[0].attr, "sk"); /* from the resolved key, with its value */
    assert_non_null(c[0].key);
    assert_int_equal(c[0].op, COND_BEGINS_WITH);
    assert_string_equal(c[1].attr, "pk"); /* from the expression, through the names */
    assert_int_equal(c[1].op, COND_EQ);
    assert_null(c[1].key);
    assert_true(complete);
    /* an unmapped placeholder: incomplete */
    int q2 = add_op(F, OP_QUERY, API_SDK_V3, "QueryCommand", "#x = :x");
    n = access_conditions(A, F, NULL, (size_t)q2, &c, &complete);
    assert_int_equal(n, 0);
    assert_false(complete);
    /* a library query: every attribute named */
    int q3 = add_op(F, OP_QUERY, API_TURBINE, "posts.query", NULL);
    OpParams *l = extra(F, q3, NULL, NULL, "byType");
    l->library = true;
    strlist_push(A, &l->lib_attrs, "type");
    strlist_push(A, &l->lib_attrs, "?");
    n = access_conditions(A, F, NULL, (size_t)q3, &c, &complete);
    assert_int_equal(n, 1);
    assert_string_equal(c[0].attr, "type");
    assert_int_equal(c[0].op, COND_NONE);
    assert_false(complete);
}

static void test_serve(void **state)
{
    (void)state;
    TableDef *t = app_table();
    add_index(t, "ByEmail", INDEX_GLOBAL, "email", NULL);
    int p = add_op(F, OP_PUT, API_SDK_V3, "PutCommand", NULL);
    KEY(ROLE_PK, "pk", SITE_WRITE, p, COND_NONE, text("ORDER#"), ref("tenantCode"));
    KEY(ROLE_SK, "sk", SITE_WRITE, p, COND_NONE, text("ORDER_ITEM#"), ref("o"), text("#"),
        ref("i"));
    KEY(ROLE_INDEX_PK, "GSI1PK", SITE_WRITE, p, COND_NONE, text("STATUS#"), ref("s"));
    KEY(ROLE_INDEX_SK, "GSI1SK", SITE_WRITE, p, COND_NONE, ref("o"));
    compute();
    PatternServe s;
    AccessPattern a1 = {.name = "items", .pk = "ORDER#{tenantCode}",
                        .sk = "begins_with ORDER_ITEM#{orderId}"};
    access_serve(A, &AF, M, &a1, &s);
    assert_int_equal(s.state, SERVE_YES);
    assert_null(s.index);
    assert_non_null(strstr(s.detail, "table AppTable (pk, sk)"));
    AccessPattern a2 = {.name = "by status", .pk = "STATUS#{status}", .index = "GSI1"};
    access_serve(A, &AF, M, &a2, &s);
    assert_int_equal(s.state, SERVE_YES);
    assert_string_equal(s.index->name, "GSI1");
    /* nothing is seen written to 'email': it may hold anything */
    AccessPattern a3 = {.name = "products", .pk = "PRODUCT#{id}"};
    access_serve(A, &AF, M, &a3, &s);
    assert_int_equal(s.state, SERVE_MAYBE);
    assert_string_equal(s.index->name, "ByEmail");
    /* ... but it has no sort key */
    AccessPattern a4 = {.name = "lines", .pk = "PRODUCT#{id}", .sk = "= LINE#{n}"};
    access_serve(A, &AF, M, &a4, &s);
    assert_int_equal(s.state, SERVE_NO);
    assert_non_null(strstr(s.detail, "no key or index holds partition keys like PRODUCT#{} "
                                     "with sort keys LINE#{}"));
    assert_non_null(strstr(s.detail, "pk holds ORDER#{}"));
    AccessPattern a5 = {.name = "x", .pk = "X#{x}", .index = "GSI9"};
    access_serve(A, &AF, M, &a5, &s);
    assert_int_equal(s.state, SERVE_NO);
    assert_string_equal(s.detail, "no table has an index named 'GSI9'");
    /* a sort-key range on the table */
    AccessPattern a6 = {.name = "r", .pk = "ORDER#{t}", .sk = "between ORDER_ITEM#{a} and ORDER_ITEM#{b}"};
    access_serve(A, &AF, M, &a6, &s);
    assert_int_equal(s.state, SERVE_YES);
    /* no tables: not judged */
    M->set.tables.n = 0;
    access_serve(A, &AF, M, &a1, &s);
    assert_int_equal(s.state, SERVE_MAYBE);
}

static void test_compute_facts(void **state)
{
    (void)state;
    int p = add_op(F, OP_UPDATE, API_SDK_V3, "UpdateCommand", NULL);
    KEY(ROLE_PK, "pk", SITE_READ, p, COND_NONE, text("USER#"), ref("id")); /* an upsert */
    int g = add_op(F, OP_GET, API_SDK_V3, "GetCommand", NULL);
    KEY(ROLE_PK, "pk", SITE_READ, g, COND_NONE, text("ORDER#"), ref("id")); /* a read */
    OKEY(ROLE_PK, "pk", SITE_ENTITY, -1, COND_NONE, text("user"), text("#"), ref("u.id"));
    OKEY(ROLE_SK, "sk", SITE_ENTITY, -1, COND_NONE, text("common"));
    compute();
    const char *const *ws;
    size_t n = access_written_shapes(&AF, "pk", 0, &ws);
    assert_int_equal(n, 2);
    assert_string_equal(ws[0], "USER#{}");
    assert_string_equal(ws[1], "user#{}");
    assert_int_equal(AF.prefixed_pks, 2);
    assert_false(AF.versioned);
    /* prefixes: USER, ORDER, user; not the common tenant */
    assert_int_equal(AF.prefixes.n, 3);
    assert_string_equal(AF.prefixes.v[0].token, "ORDER");
}

/* ====================================================================== */
/* rules                                                                   */

static void test_unknown_index(void **state)
{
    (void)state;
    TableDef *t = app_table();
    int q = add_op(F, OP_QUERY, API_SDK_V3, "QueryCommand", "GSI2PK = :p");
    extra(F, q, "TABLE_NAME", NULL, "GSI2");
    int q2 = add_op(F, OP_SCAN, API_SDK_V3, "ScanCommand", NULL);
    extra(F, q2, NULL, "app", "lsi1");
    int q3 = add_op(F, OP_QUERY, API_SDK_V3, "QueryCommand", NULL);
    extra(F, q3, NULL, "app", "GSI1");
    int q4 = add_op(F, OP_GET, API_SDK_V3, "GetCommand", NULL); /* no index on a get */
    extra(F, q4, NULL, "app", "Nope");
    RUN(rule_unknown_index, 2);
    expect_at(0, 200, "index 'GSI2' is not defined on table AppTable (app) (template.yaml:10): "
                      "its indexes are GSI1, LSI1; did you mean 'GSI1'? (table found through "
                      "environment variable TABLE_NAME, template.yaml:7)");
    assert_int_equal(D.items.v[0].span.start_col, 40);
    assert_int_equal(D.items.v[0].severity, SEV_ERROR);
    expect_at(1, 201, "did you mean 'LSI1'? (index names are case-sensitive)");
    /* indexes not all known: silent; no tables: silent */
    t->indexes_open = true;
    RUN(rule_unknown_index, 0);
    t->indexes_open = false;
    assert_int_equal(run_with(&rule_unknown_index, false), 0);
}

static void test_key_condition_attribute(void **state)
{
    (void)state;
    app_table();
    add_index(&M->set.tables.v[0], "GSI2", INDEX_GLOBAL, "GSI2PK", NULL);
    int q0 = add_op(F, OP_QUERY, API_SDK_V3, "QueryCommand", "pk = :p AND status = :s");
    extra(F, q0, NULL, "app", NULL);
    KEY(ROLE_PK, "pk", SITE_CONDITION, q0, COND_EQ, text("ORDER#"), ref("t"));
    KEY(ROLE_SK, "status", SITE_CONDITION, q0, COND_EQ, ref("s"));
    int q1 = add_op(F, OP_QUERY, API_SDK_V3, "QueryCommand", "pk = :p");
    extra(F, q1, NULL, "app", "GSI1");
    int q2 = add_op(F, OP_QUERY, API_SDK_V3, "QueryCommand", "GSI1PK = :p");
    extra(F, q2, NULL, "app", NULL);
    int q3 = add_op(F, OP_QUERY, API_SDK_V3, "QueryCommand", "GSI2PK = :p AND GSI1SK > :s");
    extra(F, q3, NULL, "app", "GSI2");
    int q4 = add_op(F, OP_QUERY, API_SDK_V3, "QueryCommand", "sk = :s");
    extra(F, q4, NULL, "app", NULL);
    /* fine: a local index takes the table's partition key */
    int q5 = add_op(F, OP_QUERY, API_SDK_V3, "QueryCommand", "pk = :p AND lsi1sk > :n");
    extra(F, q5, NULL, "app", "LSI1");
    int q6 = add_op(F, OP_QUERY, API_SDK_V3, "QueryCommand", "GSI1PK = :p AND GSI1SK = :s");
    extra(F, q6, NULL, "app", "GSI1");
    RUN(rule_key_condition_attribute, 5);
    /* an attribute that is no key: at its clause (rows 300 + op); a
     * missing partition-key condition: at the operation (200 + op) */
    expect_at(0, 204, "this query's key condition has no condition on the partition key 'pk' "
                      "of table AppTable (app)");
    expect_at(1, 300, "'status' is not a key of table AppTable (app) (pk, sk): a key condition "
                      "can only use the partition and sort key");
    expect_at(2, 301, "'pk' is the table's partition key, not a key of index GSI1 of table "
                      "AppTable (GSI1PK, GSI1SK)");
    expect_at(3, 302, "'GSI1PK' is the partition key of index GSI1, but this query names no "
                      "index and so reads table AppTable (app), whose keys are pk, sk: add "
                      "IndexName 'GSI1'");
    expect_at(4, 303, "'GSI1SK' is the sort key of index GSI1, not a key of index GSI2 of table "
                      "AppTable (GSI2PK): a key condition can only use the keys of what it "
                      "queries; query index GSI1 instead");
    assert_int_equal(run_with(&rule_key_condition_attribute, false), 0);
}

/* A global index with a multi-attribute key (DynamoDB Developer Guide,
 * "Multi-attribute keys pattern"): every partition key attribute with `=`,
 * the sort key attributes from the first on, a range only on the last. */
static void test_multi_attribute_queries(void **state)
{
    (void)state;
    TableDef *t = app_table();
    add_index(t, "ByTeams", INDEX_GLOBAL, "home", "round");
    TableIndex *ix = &t->indexes.v[t->indexes.n - 1];
    ix->pk_more[0] = attr("away");
    ix->sk_more[0] = attr("leg");
    const char *const kces[] = {
        "home = :h AND away = :a",                                   /* fine */
        "home = :h AND away = :a AND round = :r AND leg > :l",       /* fine */
        "home = :h AND away = :a AND begins_with(round, :r)",        /* fine: the last named */
        "home = :h",                                                 /* away missing */
        "home = :h AND away = :a AND leg = :l",                      /* a gap: round */
        "home = :h AND away = :a AND round > :r AND leg = :l",       /* a range before the last */
        "home = :h AND away = :a AND pk = :p",                       /* not a key of ByTeams */
        "home = :h AND begins_with(away, :a)",                       /* range on the partition */
    };
    for (size_t i = 0; i < sizeof kces / sizeof *kces; i++) {
        int q = add_op(F, OP_QUERY, API_SDK_V3, "QueryCommand", kces[i]);
        extra(F, q, NULL, "app", "ByTeams");
    }
    RUN(rule_key_condition_attribute, 4);
    expect_at(0, 203, "this query names no value for 'away', part of the partition key of index "
                      "ByTeams of table AppTable ((home, away), (round, leg))");
    expect_at(1, 204, "'leg' is a sort key attribute of index ByTeams of table AppTable after "
                      "'round', which this query names no condition on");
    expect_at(2, 305, "'round' takes a range here, but this query also names 'leg'");
    expect_at(3, 306, "'pk' is the table's partition key, not a key of index ByTeams of table "
                      "AppTable ((home, away), (round, leg))");
    RUN(rule_partition_key_range, 1);
    expect_at(0, 307, "begins_with on partition key 'away'");
}

static void test_partition_key_range(void **state)
{
    (void)state;
    int q0 = add_op(F, OP_QUERY, API_SDK_V3, "QueryCommand", NULL);
    KEY(ROLE_PK, "pk", SITE_CONDITION, q0, COND_BEGINS_WITH, text("STORE#"));
    int q1 = add_op(F, OP_QUERY, API_DDB_LIB, "table.query", NULL);
    KEY(ROLE_INDEX_PK, "GSI1PK", SITE_CONDITION, q1, COND_GT, ref("since"));
    KEY(ROLE_SK, "sk", SITE_CONDITION, q1, COND_BETWEEN, ref("a"));
    int s = add_op(F, OP_SCAN, API_SDK_V3, "ScanCommand", "begins_with(pk, :p)");
    (void)s;
    /* a custom partition key name, unknown without a schema */
    int q2 =
        add_op(F, OP_QUERY, API_SDK_V3, "QueryCommand", "pk = :a AND begins_with(userId, :u)");
    (void)q2;
    RUN(rule_partition_key_range, 2);
    expect_at(0, 0, "begins_with on partition key 'pk': a query names exactly one partition "
                    "(`pk = :value`)");
    expect_at(1, 1, "'>' on partition key 'GSI1PK'");
    /* with a schema, the table's partition key; another service's table by
     * its key names */
    add_table("Users", "users", "userId", NULL);
    extra(F, q2, NULL, "users", NULL);
    extra(F, q0, NULL, "billing", NULL);
    extra(F, q1, NULL, "billing", NULL);
    RUN(rule_partition_key_range, 3);
    /* placed on the clause inside the literal: 'pk = :a AND begins_with(userId, :u)' */
    expect_at(2, 303, "begins_with on partition key 'userId'");
    assert_int_equal(D.items.v[2].span.start_col, 30 + 1 + 12);
    assert_int_equal(D.items.v[2].span.end_col, 30 + 1 + 12 + 23);
    /* an expression built by code: on the expression */
    F->ops.v[q2].key_condition_exact = false;
    RUN(rule_partition_key_range, 3);
    expect_at(2, 303, "begins_with on partition key 'userId'");
    assert_int_equal(D.items.v[2].span.start_col, 30);
}

static void test_unmatched_query(void **state)
{
    (void)state;
    int p = add_op(OTHER, OP_PUT, API_SDK_V3, "PutCommand", NULL);
    OKEY(ROLE_PK, "pk", SITE_WRITE, p, COND_NONE, text("ORDER#"), ref("t"));
    OKEY(ROLE_SK, "sk", SITE_WRITE, p, COND_NONE, text("ORDER_ITEM#"), ref("o"), text("#"),
         ref("i"));
    OKEY(ROLE_KEY, "Keys.invoice", SITE_HELPER, -1, COND_NONE, text("INVOICE#"), ref("id"));
    int q = add_op(F, OP_QUERY, API_SDK_V3, "QueryCommand", NULL);
    KEY(ROLE_PK, "pk", SITE_CONDITION, q, COND_EQ, text("ORDER#"), ref("t"));
    KEY(ROLE_SK, "sk", SITE_CONDITION, q, COND_BEGINS_WITH, text("ORDERITEM#"), ref("o"));
    int q2 = add_op(F, OP_QUERY, API_SDK_V3, "QueryCommand", NULL);
    KEY(ROLE_PK, "pk", SITE_CONDITION, q2, COND_EQ, text("INVOICE#"), ref("id")); /* a helper's */
    KEY(ROLE_PK, "GSI9PK", SITE_CONDITION, q2, COND_EQ, text("X#"), ref("id")); /* never written */
    KEY(ROLE_PK, "pk", SITE_CONDITION, q2, COND_EQ, ref("pk"));                  /* whole */
    RUN(rule_unmatched_query, 1);
    expect_at(0, 1, "no write in the project produces a sort key beginning with "
                    "'ORDERITEM#{}': sk is written as ORDER_ITEM#{}#{}; did you mean "
                    "'ORDER_ITEM#'?");
    assert_int_equal(D.items.v[0].severity, SEV_WARNING);
    /* a query of another service's table */
    app_table();
    extra(F, q, NULL, "billing", NULL);
    RUN(rule_unmatched_query, 0);
}

static void test_scan(void **state)
{
    (void)state;
    add_op(F, OP_SCAN, API_SDK_V3, "ScanCommand", NULL);
    add_op(F, OP_SCAN, API_SDK_V2, "ddbMock.scan", NULL);
    add_op(F, OP_QUERY, API_SDK_V3, "QueryCommand", NULL);
    RUN(rule_scan, 1);
    expect_at(0, 200, "ScanCommand scans the whole table");
    /* a local class ScanCommand: a test double */
    strlist_push(A, &F->local_commands, "ScanCommand");
    RUN(rule_scan, 0);
    F->local_commands.n = 0;
    /* test paths and scan-allowed paths */
    F->path = "src/__tests__/helpers.ts";
    RUN(rule_scan, 0);
    F->path = "test/setup.ts";
    RUN(rule_scan, 0);
    F->path = "scripts/migrate.ts";
    RUN(rule_scan, 0);
    F->path = "src/admin/export.ts";
    RUN(rule_scan, 1);
    C->scan_allowed.n = 0;
    strlist_push(C->arena, &C->scan_allowed, "src/admin/**");
    RUN(rule_scan, 1); /* the defaults have no directory: anchored globs never match */
    char cwd[4096];
    assert_non_null(getcwd(cwd, sizeof cwd));
    C->dir = arena_strdup(C->arena, cwd); /* relative to the configuration's directory */
    RUN(rule_scan, 0);
}

static void test_unserved_access_pattern(void **state)
{
    (void)state;
    app_table();
    int p = add_op(F, OP_PUT, API_SDK_V3, "PutCommand", NULL);
    KEY(ROLE_PK, "pk", SITE_WRITE, p, COND_NONE, text("ORDER#"), ref("t"));
    KEY(ROLE_SK, "sk", SITE_WRITE, p, COND_NONE, text("ORDER#"), ref("o"));
    KEY(ROLE_INDEX_PK, "GSI1PK", SITE_WRITE, p, COND_NONE, text("STATUS#"), ref("s"));
    KEY(ROLE_INDEX_SK, "GSI1SK", SITE_WRITE, p, COND_NONE, ref("o"));
    KEY(ROLE_SK, "lsi1sk", SITE_WRITE, p, COND_NONE, ref("n"));
    C->path = "/nowhere/.keylint.yml";
    AccessPattern ok = {.name = "orders", .pk = "ORDER#{t}", .line = 3};
    AccessPattern bad = {.name = "products", .pk = "PRODUCT#{t}", .line = 4};
    VEC_PUSH(C->arena, &C->access_patterns, ok);
    VEC_PUSH(C->arena, &C->access_patterns, bad);
    compute();
    diag_free(&D);
    diag_init(&D);
    RuleContext ctx = ctx_for(&rule_unserved_access_pattern, true);
    ctx.file = NULL;
    rule_unserved_access_pattern.check_project(&ctx);
    if (D.items.n != 1)
        dump();
    assert_int_equal(D.items.n, 1);
    assert_string_equal(D.items.v[0].path, "/nowhere/.keylint.yml");
    assert_int_equal(D.items.v[0].span.start_row, 3);
    assert_non_null(strstr(D.items.v[0].message,
                           "access pattern 'products' (pk PRODUCT#{t}) is not served: no key or "
                           "index holds partition keys like PRODUCT#{}"));
    /* the per-file check does nothing; no tables: nothing */
    RUN(rule_unserved_access_pattern, 0);
    M->set.tables.n = 0;
    diag_free(&D);
    diag_init(&D);
    rule_unserved_access_pattern.check_project(&ctx);
    assert_int_equal(D.items.n, 0);
}

static void test_schema_rule(void **state)
{
    (void)state;
    SchemaIssue code = {.path = "src/orders.ts", .span = row_span(7, 3), .message = "in code"};
    VEC_PUSH(A, &F->tables->set.issues, code);
    SchemaIssue file = {.path = "template.yaml", .span = row_span(12, 5), .message = "in file"};
    VEC_PUSH(A, &M->set.issues, file);
    RUN(rule_schema, 1);
    expect_at(0, 7, "in code");
    assert_string_equal(D.items.v[0].path, "src/orders.ts");
    diag_free(&D);
    diag_init(&D);
    RuleContext ctx = ctx_for(&rule_schema, true);
    ctx.file = NULL;
    rule_schema.check_project(&ctx);
    assert_int_equal(D.items.n, 1);
    assert_string_equal(D.items.v[0].path, "template.yaml");
    assert_int_equal(D.items.v[0].span.start_row, 12);
    assert_int_equal(D.items.v[0].severity, SEV_ERROR);
}

static void test_low_cardinality_pk(void **state)
{
    (void)state;
    int p0 = add_op(F, OP_PUT, API_SDK_V3, "PutCommand", NULL);
    KEY(ROLE_PK, "pk", SITE_WRITE, p0, COND_NONE, text("STATUS#ACTIVE"));
    KEY(ROLE_SK, "sk", SITE_WRITE, p0, COND_NONE, text("USER#"), ref("id"));
    int p1 = add_op(F, OP_PUT, API_SDK_V3, "PutCommand", NULL);
    KEY(ROLE_PK, "pk", SITE_WRITE, p1, COND_NONE, text("SETTINGS"));   /* one item */
    KEY(ROLE_SK, "sk", SITE_WRITE, p1, COND_NONE, text("GLOBAL"));
    int p2 = add_op(F, OP_PUT, API_SDK_V3, "PutCommand", NULL);
    KEY(ROLE_PK, "pk", SITE_WRITE, p2, COND_NONE, text("ROLE#"), ref("user.isAdmin"));
    KEY(ROLE_PK, "pk", SITE_WRITE, p2, COND_NONE, text("TYPE#"), ref("kind"), text("#"),
        reff("tenantCode", SEGF_TENANT));                                   /* a tenant */
    KEY(ROLE_PK, "pk", SITE_HELPER, -1, COND_NONE, text("EVENTS"));       /* a key function */
    KEY(ROLE_PK, "pk", SITE_HELPER, -1, COND_NONE, text("CONFIG"));       /* settings: a handful */
    KEY(ROLE_PK, "pk", SITE_WRITE, p2, COND_NONE, text("USER#common"));  /* common tenant */
    KEY(ROLE_INDEX_PK, "gsi1pk", SITE_ENTITY, -1, COND_NONE, text("post#feed"));
    KEY(ROLE_PK, "pk", SITE_CONDITION, p2, COND_EQ, text("STATUS#ACTIVE")); /* a read */
    ConstChoice ch = {.span = row_span(50, 9), .attr = "pk", .role = ROLE_PK,
                      .text = "a ? 'A' : 'B'"};
    VEC_PUSH(A, &F->choices, ch);
    RUN(rule_low_cardinality_pk, 4);
    expect_at(0, 0, "partition key 'STATUS#ACTIVE' is a constant");
    expect_at(1, 4, "partition key ROLE#{user.isAdmin}: its only variable part, "
                    "'user.isAdmin', takes few values");
    expect_at(2, 6, "partition key 'EVENTS' is a constant");
    expect_at(3, 50, "partition key 'a ? 'A' : 'B'' chooses between constants");
}

static void test_timestamp_pk(void **state)
{
    (void)state;
    int p = add_op(F, OP_PUT, API_SDK_V3, "PutCommand", NULL);
    KEY(ROLE_PK, "pk", SITE_WRITE, p, COND_NONE, text("EVENTS#"), ref("createdAt"));
    KEY(ROLE_PK, "pk", SITE_WRITE, p, COND_NONE, call("new Date().toISOString"));
    KEY(ROLE_PK, "pk", SITE_WRITE, p, COND_NONE, text("LOG#"), reff("tenantCode", SEGF_TENANT),
        text("#"), ref("yearMonth"));
    KEY(ROLE_SK, "sk", SITE_WRITE, p, COND_NONE, ref("timestamp"));
    KEY(ROLE_PK, "pk", SITE_WRITE, p, COND_NONE, text("USER#"), ref("id"));
    RUN(rule_timestamp_pk, 2);
    expect_at(0, 0, "partition key EVENTS#{createdAt}: its only variable part, 'createdAt', is "
                    "a date or time");
    expect_at(1, 1, "is a date or time");
}

static void test_complex_key(void **state)
{
    (void)state;
    int p = add_op(F, OP_PUT, API_SDK_V3, "PutCommand", NULL);
    KEY(ROLE_SK, "sk", SITE_WRITE, p, COND_NONE, text("A#"), ref("b"), text("#"), ref("c"),
        text("#"), ref("d"), text("#"), ref("e"), text("#"), ref("f"));
    KEY(ROLE_SK, "sk", SITE_WRITE, p, COND_NONE, text("A#"), ref("b"), text("#"), ref("c"),
        text("#"), ref("d"), text("#"), ref("e"));
    KEY(ROLE_SK, "sk", SITE_CONDITION, p, COND_EQ, text("A#1#2#3#4#5#6"));
    RUN(rule_complex_key, 1);
    expect_at(0, 0, "sort key A#{b}#{c}#{d}#{e}#{f} has 6 components (max-key-components: 5)");
    C->max_key_components = 3;
    RUN(rule_complex_key, 2);
}

static void test_prefix_case(void **state)
{
    (void)state;
    OKEY(ROLE_PK, "pk", SITE_WRITE, -1, COND_NONE, text("USER#"), ref("id"));
    OKEY(ROLE_PK, "pk", SITE_WRITE, -1, COND_NONE, text("USER#"), ref("id"));
    OKEY(ROLE_PK, "pk", SITE_WRITE, -1, COND_NONE, text("ORDER#"), ref("id"));
    OKEY(ROLE_PK, "pk", SITE_WRITE, -1, COND_NONE, text("PRODUCT#"), ref("id"));
    OKEY(ROLE_PK, "pk", SITE_WRITE, -1, COND_NONE, text("TEAM#"), ref("id"));
    OKEY(ROLE_PK, "pk", SITE_WRITE, -1, COND_NONE, text("ORG#"), ref("id"));
    KEY(ROLE_PK, "pk", SITE_CONDITION, -1, COND_EQ, text("user#"), ref("id"));
    KEY(ROLE_SK, "sk", SITE_WRITE, -1, COND_NONE, text("Invoice#"), ref("id"));
    KEY(ROLE_SK, "sk", SITE_WRITE, -1, COND_NONE, text("Invoice#"), ref("n"));
    Seg fw = {.kind = SEG_TEXT, .text = "MASTER", .flags = SEGF_FRAMEWORK | SEGF_CONST};
    KEY(ROLE_PK, "pk", SITE_WRITE, -1, COND_NONE, fw);
    /* Invoice is written in one case everywhere: a choice, not reported */
    RUN(rule_prefix_case, 1);
    expect_at(0, 0, "entity prefix 'user' is also written 'USER' (2 keys)");
    OKEY(ROLE_PK, "pk", SITE_WRITE, -1, COND_NONE, text("post#"), ref("id"));
    OKEY(ROLE_PK, "pk", SITE_WRITE, -1, COND_NONE, text("feed#"), ref("id"));
    OKEY(ROLE_PK, "pk", SITE_WRITE, -1, COND_NONE, text("like#"), ref("id"));
    RUN(rule_prefix_case, 1);
    expect_at(0, 0, "'user' is also written 'USER'");
}

static void test_separator_in_value(void **state)
{
    (void)state;
    int p = add_op(F, OP_PUT, API_SDK_V3, "PutCommand", NULL);
    KEY(ROLE_SK, "sk", SITE_WRITE, p, COND_NONE, text("USER#"), ref("u.email"));
    KEY(ROLE_SK, "sk", SITE_WRITE, p, COND_NONE, text("POST#"), ref("post.title"));
    KEY(ROLE_PK, "pk", SITE_WRITE, p, COND_NONE, text("EMAIL#"), ref("email"));
    KEY(ROLE_SK, "sk", SITE_WRITE, p, COND_NONE, ref("createdAt"), text("#"), ref("id"));
    KEY(ROLE_SK, "sk", SITE_WRITE, p, COND_NONE, ref("u.email")); /* nothing to split */
    RUN(rule_separator_in_value, 1);
    expect_at(0, 1, "'post.title' in sort key POST#{post.title} is free text and can contain "
                    "'#', the key separator");
    /* a project that versions its sort keys */
    add_op(F, OP_PUT, API_MBC_COMMAND, "commandService.publishAsync", NULL);
    RUN(rule_separator_in_value, 2);
    expect_at(0, 0, "'u.email' in sort key USER#{u.email} is an email address and can contain "
                    "'@', the version separator");
    /* another separator: a value is judged against the one beside it;
     * free text only against the project's (here no longer '#') */
    C->separator = ":";
    KEY(ROLE_SK, "sk", SITE_WRITE, p, COND_NONE, text("POST:"), ref("post.title"));
    KEY(ROLE_SK, "sk", SITE_WRITE, p, COND_NONE, ref("createdAt"), text(":"), ref("id"));
    KEY(ROLE_SK, "sk", SITE_WRITE, p, COND_NONE, text("post-"), ref("createdAt"), text("-"),
        ref("id"));
    KEY(ROLE_SK, "sk", SITE_WRITE, p, COND_NONE, text("note-"), ref("note.title"));
    RUN(rule_separator_in_value, 6);
    expect_at(1, 1, "'post.title' in sort key POST#{post.title} is free text and can contain "
                    "'@', the version separator");
    expect_at(2, 5, "'post.title' in sort key POST:{post.title} is free text and can contain "
                    "':', the key separator");
    expect_at(3, 6, "'createdAt' in sort key {createdAt}:{id} is a date or time and can contain "
                    "':'");
    expect_at(4, 7, "'createdAt' in sort key post-{createdAt}-{id} is a date or time and can "
                    "contain '-'");
    /* (beside '-', free text is judged only by the version separator) */
    expect_at(5, 8, "'note.title' in sort key note-{note.title} is free text and can contain "
                    "'@', the version separator");
}

static void test_missing_prefix(void **state)
{
    (void)state;
    int p = add_op(F, OP_PUT, API_SDK_V3, "PutCommand", NULL);
    KEY(ROLE_PK, "pk", SITE_WRITE, p, COND_NONE, ref("user.id"));
    KEY(ROLE_PK, "pk", SITE_ENTITY, -1, COND_NONE, call("ulid"));
    KEY(ROLE_PK, "pk", SITE_WRITE, p, COND_NONE, ref("item.pk"));
    KEY(ROLE_PK, "pk", SITE_WRITE, p, COND_NONE, ref("orderKey"));
    KEY(ROLE_INDEX_PK, "gsi1pk", SITE_WRITE, p, COND_NONE, ref("u.id"));
    KEY(ROLE_PK, "pk", SITE_CONDITION, p, COND_EQ, ref("id"));
    /* no prefixed partition key in the project: one entity per table */
    RUN(rule_missing_prefix, 0);
    OKEY(ROLE_PK, "pk", SITE_WRITE, -1, COND_NONE, text("ORDER#"), ref("id"));
    RUN(rule_missing_prefix, 2);
    expect_at(0, 0, "partition key is the bare value 'user.id' with no entity prefix");
    expect_at(0, 0, "write USER#{user.id}");
    expect_at(1, 1, "the bare value 'ulid()'");
    expect_at(1, 1, "write ENTITY#{ulid()}");
    /* a table whose keys never carry a prefix (a multi-table design) */
    int st = add_op(F, OP_PUT, API_SDK_V3, "PutCommand", NULL);
    F->ops.v[st].table = "stores";
    KEY(ROLE_PK, "pk", SITE_WRITE, st, COND_NONE, ref("storeId"));
    RUN(rule_missing_prefix, 2);
}

static void test_quiet_without_context(void **state)
{
    (void)state;
    /* every rule copes with an empty file and no tables */
    const RuleDesc *rules[] = {&rule_complex_key, &rule_key_condition_attribute,
                               &rule_low_cardinality_pk, &rule_missing_prefix,
                               &rule_partition_key_range, &rule_prefix_case, &rule_scan,
                               &rule_schema, &rule_separator_in_value, &rule_timestamp_pk,
                               &rule_unknown_index, &rule_unmatched_query,
                               &rule_unserved_access_pattern};
    F->tables = NULL;
    for (size_t i = 0; i < sizeof rules / sizeof *rules; i++) {
        assert_int_equal(run_with(rules[i], false), 0);
        assert_int_equal(run_with(rules[i], true), 0);
    }
}

/* ---- the editor's fold of the access facts ---------------------------------- */

static uint32_t afold_rand(uint32_t *r)
{
    *r = *r * 1103515245u + 12345u;
    return (*r >> 8) & 0xffffff;
}

static const char *const afold_paths[] = {"src/keys.ts", "src/orders/index.ts", "src/users.ts",
                                          "lib/keys.ts", "src/a.b.ts", "index.ts",
                                          "src/items.ts", "src/c.ts"};
enum { AFOLD_NF = 8 };
static const char *const afold_names[] = {"TABLE_NAME", "ORDERS_TABLE", "usersTable", "Keys"};
static const char *const afold_attrs[] = {"pk", "sk", "GSI1PK", "PK"};
static const char *const afold_texts[] = {"ORDER#", "USER#", "ITEM", "order#", "A"};

/* A file of position `at` made from `seed`, with its own arenas (freed
 * when it is replaced: the fold must not read a file it no longer has). */
static FileIR *afold_file(size_t at, uint32_t seed)
{
    Arena *a = arena_new();
    uint32_t r = seed;
    FileIR *f = arena_alloc(a, sizeof *f);
    f->arena = a;
    f->resolved = arena_new();
    f->path = arena_strdup(a, afold_paths[at]);
    f->tables = arena_alloc(a, sizeof *f->tables);
    for (uint32_t i = 0, n = afold_rand(&r) % 3; i < n; i++) {
        NameConst c = {.name = arena_strdup(a, afold_names[afold_rand(&r) % 4]),
                       .exported = afold_rand(&r) % 3 != 0};
        VEC_PUSH(a, &f->tables->consts, c);
    }
    for (uint32_t i = 0, n = afold_rand(&r) % 2; i < n; i++) {
        EntityTable e = {.entity = arena_printf(a, "entities.%s",
                                                afold_rand(&r) % 2 ? "Posts" : "Users")};
        VEC_PUSH(a, &f->tables->entities, e);
    }
    for (uint32_t i = 0, n = afold_rand(&r) % 6; i < n; i++) {
        static const KeySite sites[] = {SITE_WRITE, SITE_HELPER, SITE_WRITE, SITE_ENTITY,
                                        SITE_READ};
        uint32_t ai = afold_rand(&r) % 4;
        KeyExpr k = {.role = ai % 2 ? ROLE_SK : ROLE_PK,
                     .attr = arena_strdup(a, afold_attrs[ai]),
                     .site = sites[afold_rand(&r) % 5], .op = -1, .build = BUILD_TEMPLATE,
                     .span = row_span((uint32_t)i, (uint32_t)(seed % 97))};
        seglist_push(a, &k.segs, text(arena_strdup(a, afold_texts[afold_rand(&r) % 5])));
        if (afold_rand(&r) % 3)
            seglist_push(a, &k.segs, ref(afold_rand(&r) % 2 ? "id" : "orderId"));
        VEC_PUSH(a, &f->keys, k);
    }
    return f;
}

static void afold_free(FileIR *f)
{
    arena_free(f->resolved);
    arena_free(f->arena);
}

static void afold_same_list(const AccessFacts *x, const NameMap *mx, const AccessFacts *y,
                            const NameMap *my, const char *key)
{
    size_t i, j;
    bool hx = namemap_get(mx, key, &i), hy = namemap_get(my, key, &j);
    assert_int_equal(hx, hy);
    if (!hx)
        return;
    assert_int_equal(x->lists.v[i].n, y->lists.v[j].n);
    for (size_t k = 0; k < x->lists.v[i].n; k++)
        assert_int_equal(x->lists.v[i].v[k], y->lists.v[j].v[k]);
}

/* The index of names is what access_compute makes. */
static void afold_same_names(const AccessFacts *inc, const AccessFacts *whole);

/* Every list of the facts the fold gives is what access_compute gives. */
static void afold_same(const AccessFacts *inc, const AccessFacts *whole)
{
    afold_same_names(inc, whole);
    assert_int_equal(inc->written.n, whole->written.n);
    for (size_t i = 0; i < inc->written.n; i++) {
        const WrittenKey *x = &inc->written.v[i], *y = &whole->written.v[i];
        assert_string_equal(x->attr, y->attr);
        assert_string_equal(x->shape, y->shape);
        assert_int_equal(x->helper, y->helper);
        assert_int_equal(x->role, y->role);
        assert_ptr_equal(x->file, y->file);
        assert_int_equal(x->span.start_byte, y->span.start_byte);
    }
    assert_int_equal(inc->shapes.n, whole->shapes.n);
    for (size_t i = 0; i < inc->shapes.n; i++) {
        assert_ptr_equal(inc->shapes.v[i].file, whole->shapes.v[i].file);
        assert_int_equal(inc->shapes.v[i].span.start_byte, whole->shapes.v[i].span.start_byte);
        assert_string_equal(inc->shape_texts[i], whole->shape_texts[i]);
    }
    assert_int_equal(inc->helpers.n, whole->helpers.n);
    for (size_t i = 0; i < inc->helpers.n; i++) {
        assert_ptr_equal(inc->helpers.v[i].file, whole->helpers.v[i].file);
        assert_string_equal(inc->helper_shapes[i], whole->helper_shapes[i]);
    }
    assert_int_equal(inc->prefixes.n, whole->prefixes.n);
}

static void afold_same_names(const AccessFacts *inc, const AccessFacts *whole)
{
    assert_int_equal(inc->index_files.n, whole->index_files.n);
    for (size_t i = 0; i < inc->index_files.n; i++)
        assert_int_equal(inc->index_files.v[i], whole->index_files.v[i]);
    static const char *const stems[] = {"keys", "index", "users", "a", "items", "c", "orders"};
    for (size_t i = 0; i < sizeof stems / sizeof *stems; i++)
        afold_same_list(inc, &inc->files_by_stem, whole, &whole->files_by_stem, stems[i]);
    for (size_t i = 0; i < sizeof afold_names / sizeof *afold_names; i++)
        afold_same_list(inc, &inc->table_consts, whole, &whole->table_consts, afold_names[i]);
    static const char *const ents[] = {"Posts", "Users"};
    for (size_t i = 0; i < 2; i++) {
        size_t x = 0, y = 0;
        bool hx = namemap_get(&inc->entity_files, ents[i], &x);
        assert_int_equal(hx, namemap_get(&whole->entity_files, ents[i], &y));
        assert_int_equal(x, y);
    }
}

/* The editor's fold (access_index_keeping, access_compute_keeping) after
 * files replaced, dropped and added answers as access_compute over the
 * same files from nothing. */
static void test_access_fold_incremental(void **state)
{
    (void)state;
    enum { ROUNDS = 80 };
    FileIR *files[AFOLD_NF];
    for (size_t i = 0; i < AFOLD_NF; i++)
        files[i] = afold_file(i, (uint32_t)(11 * i + 3));
    AccessFold *fold = NULL;
    uint32_t r = 7;
    size_t n = AFOLD_NF;
    for (int round = 0; round <= ROUNDS; round++) {
        if (round) {
            /* one file or two resolved again (their old IR freed), or
             * one resolved again with its part kept (no change), or the
             * last dropped (another number of files) */
            for (uint32_t k = 0, m = 1 + afold_rand(&r) % 2; k < m; k++) {
                size_t at = afold_rand(&r) % AFOLD_NF;
                afold_free(files[at]);
                files[at] = afold_file(at, afold_rand(&r) % 5 ? afold_rand(&r)
                                                               : (uint32_t)(11 * at + 3));
            }
            n = round % 13 == 0 ? AFOLD_NF - 1 : AFOLD_NF;
        }
        for (int again = 0; again < 2; again++) {
            Arena *ia = arena_new(), *wa = arena_new();
            AccessFacts names, inc, whole;
            access_index_keeping(&names, ia, files, n, &fold);
            access_compute_keeping(&inc, ia, files, n, C, &names, &fold);
            access_compute(&whole, wa, files, n, C);
            afold_same(&inc, &whole);
            afold_same_names(&names, &whole);
            arena_free(ia);
            arena_free(wa);
        }
    }
    access_fold_free(fold);
    for (size_t i = 0; i < AFOLD_NF; i++)
        afold_free(files[i]);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_shapes),
        T(test_target),
        T(test_target_constants),
        T(test_conditions),
        T(test_serve),
        T(test_compute_facts),
        T(test_access_fold_incremental),
        T(test_unknown_index),
        T(test_key_condition_attribute),
        T(test_partition_key_range), T(test_multi_attribute_queries),
        T(test_unmatched_query),
        T(test_scan),
        T(test_unserved_access_pattern),
        T(test_schema_rule),
        T(test_low_cardinality_pk),
        T(test_timestamp_pk),
        T(test_complex_key),
        T(test_prefix_case),
        T(test_separator_in_value),
        T(test_missing_prefix),
        T(test_quiet_without_context),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

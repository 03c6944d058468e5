/* Unit tests for the key rules (rules/<id>.c) and the registry: resolved IR is
 * built by hand, each rule's check runs through a RuleContext, and the
 * diagnostics are compared exactly (count, message, span).
 *
 * Spans: the r-th key of the checked file (from 0) has its KeyExpr span on
 * row r, column 0; its segment i is on row r, column 10 * (i + 1). Keys of
 * the other file of the project start at row 100. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "config.h"
#include "facts.h"
#include "ir.h"
#include "rule.h"

extern const RuleDesc rule_magic_string;
extern const RuleDesc rule_missing_delimiter;
extern const RuleDesc rule_missing_tenant;
extern const RuleDesc rule_mixed_separator;
extern const RuleDesc rule_mutable_key_field;
extern const RuleDesc rule_versioned_sk_read;

static Arena *A;
static Config *C;
static FileIR *F;     /* the file checked */
static FileIR *OTHER; /* another file of the project (facts only) */
static ProjectFacts PF;
static DiagList D;
static uint32_t next_row;       /* rows of F's keys: 0, 1, ... */
static uint32_t next_other_row; /* rows of OTHER's keys: 100, 101, ... */

static FileIR *new_file(const char *path)
{
    FileIR *f = arena_alloc(A, sizeof *f);
    f->arena = A;
    f->path = path;
    return f;
}

static int setup(void **state)
{
    (void)state;
    A = arena_new();
    C = config_default();
    F = new_file("src/orders.ts");
    OTHER = new_file("src/keys.ts");
    diag_init(&D);
    next_row = 0;
    next_other_row = 100;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    diag_free(&D);
    arena_free(A);
    config_free(C);
    return 0;
}

/* ---- segments --------------------------------------------------------- */

static Seg text(const char *t)
{
    return (Seg){ .kind = SEG_TEXT, .text = t };
}

static Seg textf(const char *t, uint32_t flags, const char *name)
{
    return (Seg){ .kind = SEG_TEXT, .text = t, .flags = flags, .name = name };
}

static Seg cnst(const char *t, const char *name)
{
    return textf(t, SEGF_CONST, name);
}

static Seg sep(void)
{
    return textf("#", SEGF_CONST | SEGF_SEPARATOR, "KEY_SEPARATOR");
}

static Seg ver_sep(void)
{
    return textf("@", SEGF_CONST | SEGF_VERSION_SEP | SEGF_FRAMEWORK,
                 "VER_SEPARATOR");
}

static Seg join(const char *t)
{
    return textf(t, SEGF_ARRAY_JOIN, NULL);
}

static Seg ref(const char *path)
{
    return (Seg){ .kind = SEG_REF, .text = path };
}

static Seg reff(const char *path, uint32_t flags)
{
    return (Seg){ .kind = SEG_REF, .text = path, .flags = flags };
}

static Seg call(const char *callee, uint32_t flags)
{
    return (Seg){ .kind = SEG_CALL, .text = callee, .flags = flags };
}

static Seg call1(const char *callee, uint32_t flags, Seg arg)
{
    Seg s = call(callee, flags);
    s.args = arena_alloc(A, sizeof *s.args);
    s.nargs = 1;
    seglist_push(A, &s.args[0], arg);
    return s;
}

static Seg unknown(const char *src)
{
    return (Seg){ .kind = SEG_UNKNOWN, .text = src };
}

static Seg helper(Seg s, const char *helper_name)
{
    s.flags |= SEGF_HELPER;
    if (s.kind == SEG_TEXT)
        s.name = helper_name;
    return s;
}

/* ---- keys and operations ------------------------------------------------ */

static KeyExpr *vkey_in(FileIR *f, KeyRole role, KeySite site, KeyBuild build,
                        int op, int n, va_list ap)
{
    uint32_t row = f == F ? next_row++ : next_other_row++;
    KeyExpr k = { .role = role, .site = site, .build = build, .op = op };
    k.attr = role == ROLE_PK ? "pk" : role == ROLE_SK ? "sk"
           : role == ROLE_INDEX_PK ? "gsi1pk" : role == ROLE_INDEX_SK ? "gsi1sk"
           : "key";
    /* the key's span holds its segments, as written inline */
    uint32_t end = n ? (uint32_t)(10 * n + 5) : 5;
    k.span = (Span){ .start_row = row, .start_col = 0, .end_row = row,
                     .end_col = end, .start_byte = row * 1000,
                     .end_byte = row * 1000 + end };
    for (int i = 0; i < n; i++) {
        Seg s = va_arg(ap, Seg);
        uint32_t col = (uint32_t)(10 * (i + 1));
        s.span = (Span){ .start_row = row, .start_col = col, .end_row = row,
                         .end_col = col + 5, .start_byte = row * 1000 + col,
                         .end_byte = row * 1000 + col + 5 };
        seglist_push(A, &k.segs, s);
    }
    VEC_PUSH(A, &f->keys, k);
    return &f->keys.v[f->keys.n - 1];
}

static KeyExpr *key(KeyRole role, KeySite site, KeyBuild build, int op, int n,
                    ...)
{
    va_list ap;
    va_start(ap, n);
    KeyExpr *k = vkey_in(F, role, site, build, op, n, ap);
    va_end(ap);
    return k;
}

static KeyExpr *other_key(KeyRole role, KeySite site, int n, ...)
{
    va_list ap;
    va_start(ap, n);
    KeyExpr *k = vkey_in(OTHER, role, site, BUILD_TEMPLATE, -1, n, ap);
    va_end(ap);
    return k;
}

static int op_in(FileIR *f, OpKind kind, OpApi api, TableKind tk,
                 const char *table, const char *callee)
{
    DataOp o = { .kind = kind, .api = api, .table_kind = tk, .table = table,
                 .callee = callee };
    VEC_PUSH(A, &f->ops, o);
    return (int)f->ops.n - 1;
}

static int op(OpKind kind, OpApi api, TableKind tk, const char *table,
              const char *callee)
{
    return op_in(F, kind, api, tk, table, callee);
}

static void other_const(const char *name, const char *value)
{
    ConstDef c = { .name = name, .exported = true };
    seglist_push(A, &c.value, text(value));
    fileir_add_const(OTHER, c);
}

/* ---- running ------------------------------------------------------------ */

static size_t run(const RuleDesc *r)
{
    FileIR *files[] = { F, OTHER };
    facts_compute(&PF, A, files, 2, C);
    diag_free(&D);
    diag_init(&D);
    RuleContext ctx = { .rule = r, .severity = r->default_severity,
                        .file = F, .config = C, .facts = &PF, .out = &D };
    r->check(&ctx);
    diag_sort(&D);
    return D.items.n;
}

#define RUN_EXPECT(rule, n)                                                    \
    do {                                                                       \
        size_t got_ = run(&(rule));                                            \
        if (got_ != (size_t)(n))                                               \
            dump();                                                            \
        assert_int_equal(got_, (n));                                           \
    } while (0)

static void dump(void)
{
    for (size_t i = 0; i < D.items.n; i++)
        print_message("  got %u:%u %s [%s]\n", D.items.v[i].span.start_row,
                      D.items.v[i].span.start_col, D.items.v[i].message,
                      D.items.v[i].rule);
}

/* Diagnostic i (sorted) is at row:col and its message contains `sub`. */
static const Diagnostic *expect_at(size_t i, uint32_t row, uint32_t col,
                                   const char *sub)
{
    assert_true(i < D.items.n);
    const Diagnostic *d = &D.items.v[i];
    if (!strstr(d->message, sub))
        print_message("message: %s\nwanted:  %s\n", d->message, sub);
    assert_non_null(strstr(d->message, sub));
    assert_int_equal(d->span.start_row, row);
    assert_int_equal(d->span.start_col, col);
    assert_string_equal(d->path, "src/orders.ts");
    return d;
}

/* ====================================================================== */
/* magic-string                                                            */

static void test_magic_inline_prefix(void **state)
{
    (void)state;
    int g = op(OP_PUT, API_SDK_V3, TABLE_DATA, "data", "PutCommand");
    key(ROLE_PK, SITE_WRITE, BUILD_TEMPLATE, g, 2, text("USER#"), ref("id"));
    RUN_EXPECT(rule_magic_string, 1);
    const Diagnostic *d = expect_at(0, 0, 10,
        "inline key prefix 'USER#' in partition key USER#{id}; define it "
        "once as a constant");
    assert_null(strstr(d->message, "holds the same text"));
    assert_null(d->fix);
    assert_int_equal(d->severity, SEV_WARNING);
    assert_string_equal(d->rule, "magic-string");
}

static void test_magic_names_matching_constant(void **state)
{
    (void)state;
    other_const("PRODUCT_PK_PREFIX", "PRODUCT");
    other_const("USER_PREFIX", "USER#");
    other_key(ROLE_PK, SITE_HELPER, 3, cnst("PRODUCT", "PRODUCT_PK_PREFIX"),
              sep(), ref("tenantCode"));
    int g = op(OP_GET, API_MBC_DATA, TABLE_DATA, NULL, "dataService.getItem");
    /* `PRODUCT${KEY_SEPARATOR}${tenantCode}`: inline PRODUCT */
    key(ROLE_PK, SITE_READ, BUILD_TEMPLATE, g, 3, text("PRODUCT"), sep(),
        ref("tenantCode"));
    /* 'USER#' + id */
    key(ROLE_SK, SITE_READ, BUILD_CONCAT, g, 2, text("USER#"), ref("id"));
    RUN_EXPECT(rule_magic_string, 2);
    const Diagnostic *d = expect_at(0, 0, 10,
        "inline key prefix 'PRODUCT' in partition key PRODUCT#{tenantCode}; "
        "define it once as a constant \xe2\x80\x94 the constant "
        "PRODUCT_PK_PREFIX holds the same text");
    assert_string_equal(d->fix, "replace 'PRODUCT' with ${PRODUCT_PK_PREFIX}");
    d = expect_at(1, 1, 10, "the constant USER_PREFIX holds the same text");
    /* as a concatenation writes it */
    assert_string_equal(d->fix, "replace 'USER#' with USER_PREFIX");
}

static void test_magic_constant_without_separator(void **state)
{
    (void)state;
    other_const("ORDER_PK_PREFIX", "ORDER");
    other_key(ROLE_PK, SITE_HELPER, 3, cnst("ORDER", "ORDER_PK_PREFIX"), sep(),
              ref("tenantCode"));
    int q = op(OP_QUERY, API_SDK_V3, TABLE_DATA, "data", "QueryCommand");
    KeyExpr *k = key(ROLE_PK, SITE_CONDITION, BUILD_TEMPLATE, q, 2,
                     text("ORDER#"), ref("tenantCode"));
    k->cond = COND_EQ;
    RUN_EXPECT(rule_magic_string, 1);
    const Diagnostic *d = expect_at(0, 0, 10,
        "inline key prefix 'ORDER#' in partition key ORDER#{tenantCode}");
    assert_non_null(strstr(d->message, "\xe2\x80\x94 the constant "
                                       "ORDER_PK_PREFIX holds 'ORDER'"));
    assert_string_equal(d->fix,
                        "replace 'ORDER#' with ${ORDER_PK_PREFIX}${KEY_SEPARATOR}");
}

static void test_magic_condition_literal_and_array(void **state)
{
    (void)state;
    int q = op(OP_QUERY, API_SDK_V3, TABLE_UNKNOWN, "t", "QueryCommand");
    KeyExpr *k = key(ROLE_SK, SITE_CONDITION, BUILD_LITERAL, q, 1,
                     text("ORDER#"));
    k->cond = COND_BEGINS_WITH;
    /* Turbine: pk: ["user", userId] at a query */
    key(ROLE_PK, SITE_CONDITION, BUILD_ARRAY, q, 3, text("user"), join("#"),
        ref("userId"));
    /* sk: { beginsWith: ["team", teamId, "member"] } */
    key(ROLE_SK, SITE_CONDITION, BUILD_ARRAY, q, 5, text("team"), join("#"),
        ref("teamId"), join("#"), text("member"));
    RUN_EXPECT(rule_magic_string, 3);
    expect_at(0, 0, 10, "inline key prefix 'ORDER#' in sort key ORDER#;");
    expect_at(1, 1, 10, "inline key prefix 'user' in partition key user#{userId}");
    /* one finding per key, naming the other prefixes */
    expect_at(2, 2, 10, "inline key prefix 'team' (and 'member') in sort key team#{teamId}#member");
}

static void test_magic_hard_coded_separator(void **state)
{
    (void)state;
    /* the project uses KEY_SEPARATOR somewhere */
    other_key(ROLE_PK, SITE_HELPER, 3, cnst("ORDER", "ORDER_PK_PREFIX"), sep(),
              ref("tenantCode"));
    int g = op(OP_GET, API_SDK_V3, TABLE_DATA, "data", "GetCommand");
    /* `${ORDER_PK_PREFIX}#${tenantCode}` */
    key(ROLE_PK, SITE_READ, BUILD_TEMPLATE, g, 3,
        cnst("ORDER", "ORDER_PK_PREFIX"), text("#"), ref("tenantCode"));
    /* [a, b].join('#') */
    key(ROLE_SK, SITE_OBJECT, BUILD_JOIN, -1, 3, ref("a"), join("#"), ref("b"));
    /* `${ORDER_SK_PREFIX}#x#${id}` starts with the separator after a const */
    key(ROLE_SK, SITE_WRITE, BUILD_TEMPLATE, -1, 3,
        cnst("ORDER", "ORDER_SK_PREFIX"), text("#1"), ref("id"));
    RUN_EXPECT(rule_magic_string, 3);
    const Diagnostic *d = expect_at(0, 0, 20,
        "hard-coded '#' in partition key ORDER#{tenantCode} where the project "
        "uses KEY_SEPARATOR");
    assert_string_equal(d->fix, "replace '#' with ${KEY_SEPARATOR}");
    expect_at(1, 1, 20, "hard-coded '#' in sort key {a}#{b}");
    expect_at(2, 2, 20, "hard-coded '#'");
}

static void test_magic_not_helper_entity_or_const(void **state)
{
    (void)state;
    other_key(ROLE_PK, SITE_HELPER, 3, cnst("ORDER", "ORDER_PK_PREFIX"), sep(),
              ref("tenantCode"));
    /* a helper's body is the definition */
    key(ROLE_PK, SITE_HELPER, BUILD_TEMPLATE, -1, 2, text("ORDER#"),
        reff("tenantCode", SEGF_PARAM));
    /* an entity's key definition (Turbine) */
    key(ROLE_PK, SITE_ENTITY, BUILD_ARRAY, -1, 3, text("user"), join("#"),
        ref("u.id"));
    /* constant text */
    int g = op(OP_GET, API_MBC_DATA, TABLE_DATA, NULL, "dataService.getItem");
    key(ROLE_PK, SITE_READ, BUILD_TEMPLATE, g, 2, cnst("ORDER#", "ORDER_PREFIX"),
        ref("tenantCode"));
    /* inlined helper output and framework text */
    key(ROLE_PK, SITE_READ, BUILD_CALL, g, 2,
        helper(text("ORDER#"), "generateOrderPk"), helper(ref("t"), NULL));
    key(ROLE_PK, SITE_READ, BUILD_CALL, g, 3,
        textf("MASTER", SEGF_CONST | SEGF_FRAMEWORK, "masterPk"),
        textf("#", SEGF_SEPARATOR | SEGF_FRAMEWORK, NULL), ref("tenantCode"));
    RUN_EXPECT(rule_magic_string, 0);
}

static void test_magic_not_without_letters(void **state)
{
    (void)state;
    int g = op(OP_GET, API_SDK_V3, TABLE_DATA, "data", "GetCommand");
    key(ROLE_SK, SITE_READ, BUILD_TEMPLATE, g, 3, ref("sk"), text("@"),
        ref("version"));
    key(ROLE_SK, SITE_READ, BUILD_TEMPLATE, g, 2, text("v2#"), ref("id"));
    key(ROLE_SK, SITE_WRITE, BUILD_TEMPLATE, -1, 2,
        text("2024-01-15T10:30:00Z#"), ref("eventId"));
    key(ROLE_SK, SITE_WRITE, BUILD_TEMPLATE, -1, 3, ref("a"), text("-"),
        ref("b"));
    /* an id glued to digits is no prefix */
    key(ROLE_SK, SITE_WRITE, BUILD_LITERAL, -1, 1,
        text("01HX7MBJK3V9WQBZ7XNDK5ZT2M#x"));
    RUN_EXPECT(rule_magic_string, 0);
}

static void test_magic_not_whole_word_or_trailing(void **state)
{
    (void)state;
    int p = op(OP_PUT, API_SDK_V3, TABLE_DATA, "data", "PutCommand");
    key(ROLE_SK, SITE_WRITE, BUILD_LITERAL, p, 1, text("PROFILE"));
    key(ROLE_SK, SITE_WRITE, BUILD_TEMPLATE, p, 2, ref("id"), text("#latest"));
    /* array elements at a write site only count before a separator */
    key(ROLE_SK, SITE_WRITE, BUILD_ARRAY, p, 3, ref("id"), join("#"),
        text("profile"));
    RUN_EXPECT(rule_magic_string, 0);
}

static void test_magic_not_separator_without_constant(void **state)
{
    (void)state;
    /* no separator constant in the project: '#' alone is not reported */
    int g = op(OP_GET, API_SDK_V3, TABLE_DATA, "data", "GetCommand");
    key(ROLE_PK, SITE_READ, BUILD_TEMPLATE, g, 3,
        cnst("ORDER", "ORDER_PK_PREFIX"), text("#"), ref("tenantCode"));
    key(ROLE_SK, SITE_OBJECT, BUILD_JOIN, -1, 3, ref("a"), join("#"), ref("b"));
    RUN_EXPECT(rule_magic_string, 0);
}

static void test_magic_not_array_join_or_separator_inside(void **state)
{
    (void)state;
    other_key(ROLE_PK, SITE_HELPER, 3, cnst("ORDER", "ORDER_PK_PREFIX"), sep(),
              ref("tenantCode"));
    int q = op(OP_QUERY, API_SDK_V3, TABLE_UNKNOWN, "t", "entity.query");
    /* the library's '#' between array elements is not hard-coded */
    key(ROLE_SK, SITE_CONDITION, BUILD_ARRAY, q, 3, ref("a"), join("#"),
        ref("b"));
    /* a '#' inside text, not next to a value or constant */
    key(ROLE_SK, SITE_CONDITION, BUILD_TEMPLATE, q, 3, ref("a"), text("-1#2-"),
        ref("b"));
    RUN_EXPECT(rule_magic_string, 0);
}

/* ====================================================================== */
/* mixed-separator                                                          */

static void test_mixed_within_key(void **state)
{
    (void)state;
    int p = op(OP_PUT, API_SDK_V3, TABLE_DATA, "data", "PutCommand");
    key(ROLE_SK, SITE_WRITE, BUILD_TEMPLATE, p, 4, text("ORDER-"), ref("id"),
        text("_item:"), ref("n"));
    RUN_EXPECT(rule_mixed_separator, 1);
    const Diagnostic *d = expect_at(0, 0, 0,
        "sort key ORDER-{id}_item:{n} separates its components with '-', '_' "
        "and ':'; use one separator ('#')");
    assert_int_equal(d->severity, SEV_ERROR);
}

static void test_mixed_join_and_two_chars(void **state)
{
    (void)state;
    key(ROLE_PK, SITE_OBJECT, BUILD_JOIN, -1, 5, ref("a"), join("#"), ref("b"),
        text(":"), ref("c"));
    key(ROLE_INDEX_SK, SITE_WRITE, BUILD_TEMPLATE, -1, 5, ref("a"), text("-"),
        ref("b"), sep(), ref("c"));
    RUN_EXPECT(rule_mixed_separator, 2);
    expect_at(0, 0, 0, "partition key {a}#{b}:{c} separates its components "
                       "with '#' and ':'");
    expect_at(1, 1, 0, "index sort key {a}-{b}#{c}");
}

static void test_mixed_project_wide(void **state)
{
    (void)state;
    other_key(ROLE_PK, SITE_WRITE, 2, text("ORDER#"), ref("tenantCode"));
    other_key(ROLE_PK, SITE_WRITE, 2, text("USER#"), ref("tenantCode"));
    other_key(ROLE_SK, SITE_WRITE, 2, text("ITEM#"), ref("id"));
    int g = op(OP_GET, API_SDK_V3, TABLE_DATA, "data", "GetCommand");
    key(ROLE_PK, SITE_READ, BUILD_TEMPLATE, g, 2, text("PRODUCT:"),
        ref("tenantCode"));
    RUN_EXPECT(rule_mixed_separator, 1);
    expect_at(0, 0, 0, "partition key PRODUCT:{tenantCode} uses ':' where the "
                       "project's keys use '#' (3 key shapes use '#', 1 uses ':')");
}

/* A key written in several places is one key of the project's design: the
 * same partition key three times is no convention for a key of another
 * shape to break. */
static void test_mixed_project_wide_counts_shapes(void **state)
{
    (void)state;
    for (int i = 0; i < 3; i++)
        other_key(ROLE_PK, SITE_WRITE, 3, ref("senderId"), text("_"), ref("reference"));
    int g = op(OP_PUT, API_SDK_V3, TABLE_DATA, "data", "PutCommand");
    key(ROLE_INDEX_PK, SITE_WRITE, BUILD_TEMPLATE, g, 3, ref("day"), text("#"),
        ref("shard"));
    RUN_EXPECT(rule_mixed_separator, 0);
}

static void test_mixed_helper_definition_reported(void **state)
{
    (void)state;
    key(ROLE_KEY, SITE_HELPER, BUILD_TEMPLATE, -1, 4, text("A-"),
        reff("x", SEGF_PARAM), text("_"), reff("y", SEGF_PARAM));
    RUN_EXPECT(rule_mixed_separator, 1);
    expect_at(0, 0, 0, "key A-{x}_{y} separates its components with '-' and '_'");
}

static void test_mixed_not_tokens_or_dates(void **state)
{
    (void)state;
    int p = op(OP_PUT, API_SDK_V3, TABLE_DATA, "data", "PutCommand");
    key(ROLE_SK, SITE_WRITE, BUILD_TEMPLATE, p, 5,
        cnst("ORDER_ITEM", "ORDER_ITEM_SK_PREFIX"), sep(), ref("orderId"),
        sep(), ref("itemId"));
    key(ROLE_SK, SITE_WRITE, BUILD_TEMPLATE, p, 2, text("SFN_TASK#"),
        ref("taskId"));
    key(ROLE_PK, SITE_WRITE, BUILD_TEMPLATE, p, 4, text("LOG#"),
        ref("tenantCode"), text("#"), ref("yearMonth"));
    key(ROLE_SK, SITE_WRITE, BUILD_TEMPLATE, p, 3,
        call("timestamp.toISOString", SEGF_DATE), text("#"), ref("eventId"));
    key(ROLE_SK, SITE_WRITE, BUILD_TEMPLATE, p, 7, ref("yyyy"), text("-"),
        ref("mm"), text("-"), ref("dd"), text("#"), ref("id"));
    key(ROLE_SK, SITE_WRITE, BUILD_TEMPLATE, p, 2, text("COPY#2024-01-"),
        ref("day"));
    RUN_EXPECT(rule_mixed_separator, 0);
}

static void test_mixed_not_version_separator(void **state)
{
    (void)state;
    C->version_separator = "~"; /* a version separator that is a candidate */
    int g = op(OP_GET, API_MBC_HISTORY, TABLE_HISTORY, NULL,
               "historyService.getItem");
    key(ROLE_SK, SITE_READ, BUILD_TEMPLATE, g, 4, text("ORDER#"), ref("id"),
        text("~"), ref("version"));
    key(ROLE_SK, SITE_READ, BUILD_TEMPLATE, g, 3, text("ORDER#"), ref("id"),
        text("~3"));
    key(ROLE_SK, SITE_READ, BUILD_TEMPLATE, g, 4, text("ORDER#"), ref("id"),
        ver_sep(), ref("v"));
    RUN_EXPECT(rule_mixed_separator, 0);
}

static void test_mixed_not_literal_or_single(void **state)
{
    (void)state;
    key(ROLE_SK, SITE_WRITE, BUILD_LITERAL, -1, 1, text("ORDER-01HX_item:001"));
    key(ROLE_SK, SITE_WRITE, BUILD_REF, -1, 1, ref("sk"));
    key(ROLE_SK, SITE_WRITE, BUILD_TEMPLATE, -1, 4, text("ORDER#"), ref("a"),
        text("#ITEM#"), ref("b"));
    RUN_EXPECT(rule_mixed_separator, 0);
}

static void test_mixed_not_project_wide_below_threshold(void **state)
{
    (void)state;
    /* '#' used by 2 keys only: no project-wide finding */
    other_key(ROLE_PK, SITE_WRITE, 2, text("ORDER#"), ref("tenantCode"));
    other_key(ROLE_SK, SITE_WRITE, 2, text("ITEM#"), ref("id"));
    key(ROLE_PK, SITE_WRITE, BUILD_TEMPLATE, -1, 2, text("PRODUCT:"),
        ref("tenantCode"));
    RUN_EXPECT(rule_mixed_separator, 0);
    /* 4 '#' keys against 2 ':' keys: still 2x, reported */
    other_key(ROLE_SK, SITE_WRITE, 2, text("A#"), ref("id"));
    other_key(ROLE_SK, SITE_WRITE, 2, text("B#"), ref("id"));
    key(ROLE_PK, SITE_WRITE, BUILD_TEMPLATE, -1, 2, text("USER:"), ref("id"));
    RUN_EXPECT(rule_mixed_separator, 2);
    /* a third ':' key: 4 < 2 * 3, nothing */
    key(ROLE_PK, SITE_WRITE, BUILD_TEMPLATE, -1, 2, text("X:"), ref("id"));
    RUN_EXPECT(rule_mixed_separator, 0);
}

static void test_mixed_not_inlined_helper(void **state)
{
    (void)state;
    int g = op(OP_GET, API_SDK_V3, TABLE_DATA, "data", "GetCommand");
    key(ROLE_SK, SITE_READ, BUILD_CALL, g, 4, helper(text("A-"), "mk"),
        helper(ref("x"), NULL), helper(text("_"), "mk"),
        helper(ref("y"), NULL));
    RUN_EXPECT(rule_mixed_separator, 0);
}

/* ====================================================================== */
/* missing-delimiter                                                        */

static void test_delim_adjacent_values(void **state)
{
    (void)state;
    int g = op(OP_GET, API_MBC_DATA, TABLE_DATA, NULL, "dataService.getItem");
    key(ROLE_SK, SITE_READ, BUILD_TEMPLATE, g, 2, ref("userId"), ref("orderId"));
    key(ROLE_SK, SITE_OBJECT, BUILD_JOIN, -1, 3, ref("a"), join(""), ref("b"));
    key(ROLE_PK, SITE_WRITE, BUILD_CONCAT, -1, 3, text("USER#"), ref("u.id"),
        call("ulid", 0));
    RUN_EXPECT(rule_missing_delimiter, 3);
    const Diagnostic *d = expect_at(0, 0, 20,
        "'userId' and 'orderId' are joined with nothing between them: the key "
        "cannot be split back (sort key {userId}{orderId}); put '#' between "
        "them");
    assert_int_equal(d->severity, SEV_ERROR);
    expect_at(1, 1, 30, "'a' and 'b' are joined with nothing between them");
    expect_at(2, 2, 30, "'u.id' and 'ulid()' are joined");
}

static void test_delim_constant_then_value(void **state)
{
    (void)state;
    int p = op(OP_PUT, API_SDK_V3, TABLE_DATA, "data", "PutCommand");
    key(ROLE_PK, SITE_WRITE, BUILD_TEMPLATE, p, 2,
        cnst("PRODUCT", "PRODUCT_PK_PREFIX"), ref("tenantCode"));
    key(ROLE_SK, SITE_WRITE, BUILD_TEMPLATE, p, 2, cnst("V1", "SCHEMA_V"),
        ref("id"));
    RUN_EXPECT(rule_missing_delimiter, 2);
    expect_at(0, 0, 20,
              "the constant PRODUCT_PK_PREFIX ('PRODUCT') is followed directly "
              "by 'tenantCode' with nothing between them: the key cannot be "
              "split back (partition key PRODUCT{tenantCode}); put '#' after "
              "PRODUCT_PK_PREFIX");
    expect_at(1, 1, 20, "the constant SCHEMA_V ('V1')");
}

static void test_delim_helper_definition(void **state)
{
    (void)state;
    /* reported at the helper, not where it is inlined */
    key(ROLE_KEY, SITE_HELPER, BUILD_TEMPLATE, -1, 2, reff("a", SEGF_PARAM),
        reff("b", SEGF_PARAM));
    int g = op(OP_GET, API_SDK_V3, TABLE_DATA, "data", "GetCommand");
    key(ROLE_SK, SITE_READ, BUILD_CALL, g, 2, helper(ref("x"), NULL),
        helper(ref("y"), NULL));
    /* ...also when only the helper's text is flagged */
    key(ROLE_SK, SITE_READ, BUILD_CALL, g, 3, helper(text("K#"), "k"),
        ref("x"), ref("y"));
    /* but a value after the helper's output is this site's own */
    key(ROLE_SK, SITE_READ, BUILD_TEMPLATE, g, 3, helper(text("K#"), "k"),
        helper(ref("x"), NULL), ref("z"));
    RUN_EXPECT(rule_missing_delimiter, 2);
    expect_at(0, 0, 20, "'a' and 'b' are joined");
    expect_at(1, 3, 30, "'x' and 'z' are joined");
}

static void test_delim_not_separated(void **state)
{
    (void)state;
    int g = op(OP_GET, API_SDK_V3, TABLE_DATA, "data", "GetCommand");
    key(ROLE_PK, SITE_READ, BUILD_TEMPLATE, g, 2, cnst("ORDER#", "ORDER_PREFIX"),
        ref("id"));
    key(ROLE_SK, SITE_READ, BUILD_TEMPLATE, g, 3, ref("sk"), ver_sep(),
        ref("v"));
    key(ROLE_SK, SITE_READ, BUILD_TEMPLATE, g, 3, ref("a"),
        ref("KEY_SEPARATOR"), ref("b"));
    key(ROLE_SK, SITE_READ, BUILD_TEMPLATE, g, 3, ref("a"),
        ref("Keys.ITEM_DELIM"), ref("b"));
    key(ROLE_SK, SITE_READ, BUILD_TEMPLATE, g, 3, cnst("ORDER", "ORDER_PK"),
        ref("KEY_SEP"), ref("id"));
    RUN_EXPECT(rule_missing_delimiter, 0);
}

static void test_delim_not_dates(void **state)
{
    (void)state;
    key(ROLE_SK, SITE_WRITE, BUILD_TEMPLATE, -1, 3, ref("yyyy"), ref("mm"),
        ref("dd"));
    key(ROLE_SK, SITE_WRITE, BUILD_TEMPLATE, -1, 2,
        call("d.getFullYear", 0), call("pad", SEGF_DATE));
    RUN_EXPECT(rule_missing_delimiter, 0);
}

static void test_delim_not_prefix_suffix_names(void **state)
{
    (void)state;
    key(ROLE_SK, SITE_WRITE, BUILD_TEMPLATE, -1, 2, ref("skPrefix"), ref("id"));
    key(ROLE_SK, SITE_WRITE, BUILD_TEMPLATE, -1, 2, ref("ORDER_PREFIX"),
        ref("id"));
    key(ROLE_SK, SITE_WRITE, BUILD_TEMPLATE, -1, 2, ref("id"),
        ref("versionSuffix"));
    RUN_EXPECT(rule_missing_delimiter, 0);
}

static void test_delim_not_single_or_unknown(void **state)
{
    (void)state;
    key(ROLE_SK, SITE_WRITE, BUILD_REF, -1, 1, ref("sk"));
    key(ROLE_SK, SITE_WRITE, BUILD_TEMPLATE, -1, 2, unknown("a ? b : c"),
        ref("id"));
    key(ROLE_SK, SITE_WRITE, BUILD_TEMPLATE, -1, 2, cnst("X", "X"),
        unknown("v ? '@' + v : ''"));
    RUN_EXPECT(rule_missing_delimiter, 0);
}

static void test_delim_not_inline_text(void **state)
{
    (void)state;
    /* only a constant's text is judged, not inline text, nor a constant
     * ending in a separator or followed by more text */
    key(ROLE_SK, SITE_WRITE, BUILD_TEMPLATE, -1, 2, text("page"), ref("n"));
    key(ROLE_SK, SITE_WRITE, BUILD_TEMPLATE, -1, 3, cnst("ORDER", "O"),
        text("#"), ref("n"));
    key(ROLE_SK, SITE_WRITE, BUILD_TEMPLATE, -1, 2, cnst("ORDER:", "O2"),
        ref("n"));
    RUN_EXPECT(rule_missing_delimiter, 0);
}

/* ====================================================================== */
/* mutable-key-field                                                        */

static void test_mutable_configured_field(void **state)
{
    (void)state;
    int p = op(OP_PUT, API_SDK_V3, TABLE_DATA, "data", "PutCommand");
    key(ROLE_SK, SITE_WRITE, BUILD_TEMPLATE, p, 4, text("ORDER#"),
        ref("order.status"), text("#"), ref("order.id"));
    key(ROLE_PK, SITE_WRITE, BUILD_TEMPLATE, p, 2, text("Q#"),
        ref("orderStatus"));
    key(ROLE_SK, SITE_WRITE, BUILD_TEMPLATE, p, 2, text("T#"),
        ref("item.lastUpdatedAt"));
    RUN_EXPECT(rule_mutable_key_field, 3);
    const Diagnostic *d = expect_at(0, 0, 20,
        "sort key uses 'order.status', a field that changes (status); when it "
        "changes the item has to move \xe2\x80\x94 keep it in an attribute or "
        "a GSI key");
    /* a name alone is no evidence: a warning, with no related place */
    assert_int_equal(d->severity, SEV_WARNING);
    assert_int_equal(d->nrelated, 0);
    expect_at(1, 1, 20, "partition key uses 'orderStatus', a field that "
                        "changes (status)");
    expect_at(2, 2, 20, "(updatedAt)");
}

static void test_mutable_updated_attr(void **state)
{
    (void)state;
    /* another file updates shippingAddress and status */
    DataOp u = { .kind = OP_UPDATE, .api = API_SDK_V3 };
    strlist_push(A, &u.sets, "shippingAddress");
    strlist_push(A, &u.sets, "status");
    VEC_PUSH(A, &OTHER->ops, u);
    key(ROLE_SK, SITE_WRITE, BUILD_TEMPLATE, -1, 2, text("ADDR#"),
        ref("dto.shippingAddress"));
    key(ROLE_SK, SITE_WRITE, BUILD_TEMPLATE, -1, 2, text("S#"), ref("status"));
    RUN_EXPECT(rule_mutable_key_field, 2);
    expect_at(0, 0, 20, "sort key uses 'dto.shippingAddress', a field that "
                        "changes (set by an UpdateExpression in this project)");
    expect_at(1, 1, 20, "(status; set by an UpdateExpression in this project)");
}

static void test_mutable_custom_config_and_via_name(void **state)
{
    (void)state;
    strlist_push(C->arena, &C->mutable_fields, "stage");
    Seg viaStatus = ref("x");
    viaStatus.name = "currentStage";
    key(ROLE_SK, SITE_READ, BUILD_TEMPLATE, -1, 2, text("D#"), viaStatus);
    key(ROLE_SK, SITE_HELPER, BUILD_TEMPLATE, -1, 2, text("E#"),
        reff("job.state", SEGF_PARAM));
    /* a bare `state` (an OAuth nonce, UI state) and a word ending in State
     * are not the item's state */
    key(ROLE_SK, SITE_WRITE, BUILD_TEMPLATE, -1, 2, text("OAUTH#"), ref("state"));
    key(ROLE_SK, SITE_WRITE, BUILD_TEMPLATE, -1, 2, text("ADDR#"), ref("addr.usState"));
    /* a member names its own field, whatever variable held it on the way
     * (never `uses 'currentBoost.createdAt', a field that changes (status)`) */
    Seg created = ref("currentBoost.createdAt");
    created.name = "boostStatus";
    key(ROLE_SK, SITE_WRITE, BUILD_TEMPLATE, -1, 2, text("BOOST#"), created);
    RUN_EXPECT(rule_mutable_key_field, 2);
    expect_at(0, 0, 20, "sort key uses 'x' (as 'currentStage'), a field that changes (stage)");
    expect_at(1, 1, 20, "(state)");
}

/* An update of the key's own entity that sets the field: an error that
 * points at the update; the same attribute set on another table's items,
 * or on an item whose entity is not known, is no such evidence. */
static void test_mutable_evidence(void **state)
{
    (void)state;
    int u = op_in(OTHER, OP_UPDATE, API_SDK_V3, TABLE_DATA, "process.env.TABLE", "UpdateCommand");
    strlist_push(A, &OTHER->ops.v[u].sets, "plan");
    OTHER->ops.v[u].update_span = (Span){.start_row = 41, .start_col = 7, .end_row = 41,
                                         .end_col = 30, .start_byte = 900, .end_byte = 923};
    KeyExpr *upk = other_key(ROLE_PK, SITE_READ, 2, text("ACCOUNT#"), ref("accountId"));
    upk->op = u;
    int o = op_in(OTHER, OP_UPDATE, API_SDK_V3, TABLE_DATA, "process.env.OTHER_TABLE",
                  "UpdateCommand");
    strlist_push(A, &OTHER->ops.v[o].sets, "region");
    KeyExpr *opk = other_key(ROLE_PK, SITE_READ, 2, text("SITE#"), ref("siteId"));
    opk->op = o;

    int p = op(OP_PUT, API_SDK_V3, TABLE_DATA, "process.env.TABLE", "PutCommand");
    key(ROLE_PK, SITE_WRITE, BUILD_TEMPLATE, p, 2, text("ACCOUNT#"), ref("accountId"));
    key(ROLE_SK, SITE_WRITE, BUILD_TEMPLATE, p, 2, text("PLAN#"), ref("plan"));
    int q = op(OP_PUT, API_SDK_V3, TABLE_DATA, "process.env.TABLE", "PutCommand");
    key(ROLE_PK, SITE_WRITE, BUILD_TEMPLATE, q, 2, text("SITE#"), ref("siteId"));
    key(ROLE_SK, SITE_WRITE, BUILD_TEMPLATE, q, 2, text("AT#"), ref("region"));
    RUN_EXPECT(rule_mutable_key_field, 1);
    const Diagnostic *d = expect_at(0, 1, 20, "sort key uses 'plan', a field that changes");
    assert_int_equal(d->severity, SEV_ERROR);
    assert_int_equal(d->nrelated, 1);
    assert_string_equal(d->related[0].path, "src/keys.ts");
    assert_int_equal(d->related[0].span.start_row, 41);
    assert_int_equal(d->related[0].span.start_col, 7);
    assert_non_null(strstr(d->related[0].message, "sets plan on this key's entity"));
}

static void test_mutable_not_index_or_unknown_role(void **state)
{
    (void)state;
    key(ROLE_INDEX_PK, SITE_WRITE, BUILD_TEMPLATE, -1, 2, text("STATUS#"),
        ref("status"));
    key(ROLE_INDEX_SK, SITE_WRITE, BUILD_TEMPLATE, -1, 2, text("P#"),
        ref("priority"));
    key(ROLE_KEY, SITE_HELPER, BUILD_TEMPLATE, -1, 2, text("S#"),
        reff("status", SEGF_PARAM));
    RUN_EXPECT(rule_mutable_key_field, 0);
}

static void test_mutable_not_similar_names(void **state)
{
    (void)state;
    key(ROLE_SK, SITE_WRITE, BUILD_TEMPLATE, -1, 2, text("A#"),
        ref("res.statusCode"));
    key(ROLE_SK, SITE_WRITE, BUILD_TEMPLATE, -1, 2, text("B#"), ref("estate"));
    key(ROLE_SK, SITE_WRITE, BUILD_TEMPLATE, -1, 2, text("C#"),
        ref("createdAt"));
    RUN_EXPECT(rule_mutable_key_field, 0);
}

static void test_mutable_not_key_attrs_or_calls(void **state)
{
    (void)state;
    DataOp u = { .kind = OP_UPDATE };
    strlist_push(A, &u.sets, "sk");
    strlist_push(A, &u.sets, "gsi1pk");
    strlist_push(A, &u.sets, "version");
    VEC_PUSH(A, &OTHER->ops, u);
    key(ROLE_SK, SITE_WRITE, BUILD_REF, -1, 1, ref("item.sk"));
    key(ROLE_SK, SITE_WRITE, BUILD_TEMPLATE, -1, 2, text("G#"), ref("gsi1pk"));
    /* the version after the version separator changes by design */
    key(ROLE_SK, SITE_WRITE, BUILD_TEMPLATE, -1, 3, ref("sk"), text("@"),
        ref("version"));
    key(ROLE_SK, SITE_WRITE, BUILD_TEMPLATE, -1, 3, ref("sk"), ver_sep(),
        ref("version"));
    /* a call is not a field */
    key(ROLE_SK, SITE_WRITE, BUILD_TEMPLATE, -1, 2, text("H#"),
        call("getStatus", 0));
    RUN_EXPECT(rule_mutable_key_field, 0);
}

static void test_mutable_not_tenant(void **state)
{
    (void)state;
    strlist_push(C->arena, &C->mutable_fields, "tenantCode");
    key(ROLE_PK, SITE_WRITE, BUILD_TEMPLATE, -1, 2, text("ORDER#"),
        ref("tenantCode"));
    RUN_EXPECT(rule_mutable_key_field, 0);
}

/* ====================================================================== */
/* versioned-sk-read                                                        */

static void test_versioned_add_sort_key_version(void **state)
{
    (void)state;
    int g = op(OP_GET, API_MBC_DATA, TABLE_DATA, NULL, "dataService.getItem");
    key(ROLE_SK, SITE_READ, BUILD_CALL, g, 1,
        call1("addSortKeyVersion", SEGF_VERSIONED | SEGF_FRAMEWORK, ref("sk")));
    RUN_EXPECT(rule_versioned_sk_read, 1);
    const Diagnostic *d = expect_at(0, 0, 0,
        "sort key {addSortKeyVersion({sk})} carries a version suffix "
        "(addSortKeyVersion(...)) but reads the data table with "
        "dataService.getItem, which stores items without it; pass "
        "removeSortKeyVersion(sk)");
    assert_string_equal(d->fix, "removeSortKeyVersion(sk)");
    assert_int_equal(d->severity, SEV_ERROR);
}

static void test_versioned_variable_and_text(void **state)
{
    (void)state;
    int g = op(OP_GET, API_SDK_V3, TABLE_UNKNOWN, "app-data", "GetCommand");
    KeyExpr *k = key(ROLE_SK, SITE_READ, BUILD_REF, g, 1,
                     reff("skWithVersion", SEGF_VERSIONED));
    k->via = "skWithVersion";
    key(ROLE_SK, SITE_READ, BUILD_LITERAL, g, 1,
        text("01HX7MBJK3V9WQBZ7XNDK5ZT2M@3"));
    int q = op(OP_QUERY, API_SDK_V2, TABLE_DATA, "data", "docClient.query");
    KeyExpr *c = key(ROLE_SK, SITE_CONDITION, BUILD_TEMPLATE, q, 3, ref("sk"),
                     ver_sep(), ref("v"));
    c->cond = COND_EQ;
    RUN_EXPECT(rule_versioned_sk_read, 3);
    const Diagnostic *d = expect_at(0, 0, 0,
        "('skWithVersion', assigned from addSortKeyVersion)");
    assert_string_equal(d->fix, "removeSortKeyVersion(skWithVersion)");
    expect_at(1, 1, 0, "sort key 01HX7MBJK3V9WQBZ7XNDK5ZT2M@3 carries a version "
                       "suffix ('@' followed by a version)");
    expect_at(2, 2, 0, "sort key {sk}@{v} carries a version suffix "
                       "(VER_SEPARATOR followed by a version)");
}

static void test_versioned_role_key_with_sk_attr(void **state)
{
    (void)state;
    int g = op(OP_BATCH_GET, API_SDK_V3, TABLE_DATA, "data", "BatchGetCommand");
    KeyExpr *k = key(ROLE_KEY, SITE_READ, BUILD_TEMPLATE, g, 3, ref("base"),
                     text("@"), ref("version"));
    k->attr = "sk";
    RUN_EXPECT(rule_versioned_sk_read, 1);
    expect_at(0, 0, 0, "carries a version suffix");
}

static void test_versioned_not_history_or_command(void **state)
{
    (void)state;
    Seg v = call1("addSortKeyVersion", SEGF_VERSIONED | SEGF_FRAMEWORK,
                  ref("sk"));
    int h = op(OP_GET, API_MBC_HISTORY, TABLE_UNKNOWN, NULL,
               "historyService.getItem");
    int c = op(OP_GET, API_SDK_V3, TABLE_COMMAND, "x", "GetCommand");
    int hh = op(OP_GET, API_SDK_V3, TABLE_HISTORY, "x", "GetCommand");
    int n1 = op(OP_GET, API_SDK_V3, TABLE_UNKNOWN, "OrdersHistoryTable",
                "GetCommand");
    int n2 = op(OP_QUERY, API_SDK_V3, TABLE_UNKNOWN, "app-COMMAND-table",
                "QueryCommand");
    int n3 = op(OP_GET, API_MBC_COMMAND, TABLE_UNKNOWN, NULL,
                "commandService.getItem");
    strlist_push(C->arena, &C->history_tables, "audit");
    int n4 = op(OP_GET, API_SDK_V3, TABLE_UNKNOWN, "audit", "GetCommand");
    int ops[] = { h, c, hh, n1, n2, n3, n4 };
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
        key(ROLE_SK, SITE_READ, BUILD_CALL, ops[i], 1, v);
    RUN_EXPECT(rule_versioned_sk_read, 0);
}

static void test_versioned_not_removed(void **state)
{
    (void)state;
    int g = op(OP_GET, API_MBC_DATA, TABLE_DATA, NULL, "dataService.getItem");
    key(ROLE_SK, SITE_READ, BUILD_CALL, g, 1,
        call1("removeSortKeyVersion", SEGF_UNVERSIONED | SEGF_FRAMEWORK,
              call("addSortKeyVersion", SEGF_VERSIONED)));
    key(ROLE_SK, SITE_READ, BUILD_CALL, g, 1,
        reff("x", SEGF_VERSIONED | SEGF_UNVERSIONED));
    RUN_EXPECT(rule_versioned_sk_read, 0);
}

static void test_versioned_not_writes(void **state)
{
    (void)state;
    Seg v = call1("addSortKeyVersion", SEGF_VERSIONED, ref("sk"));
    int p = op(OP_PUT, API_SDK_V3, TABLE_DATA, "data", "PutCommand");
    int d = op(OP_DELETE, API_SDK_V3, TABLE_DATA, "data", "DeleteCommand");
    int u = op(OP_UPDATE, API_SDK_V3, TABLE_DATA, "data", "UpdateCommand");
    key(ROLE_SK, SITE_WRITE, BUILD_CALL, p, 1, v);
    key(ROLE_SK, SITE_READ, BUILD_CALL, d, 1, v);
    key(ROLE_SK, SITE_READ, BUILD_CALL, u, 1, v);
    RUN_EXPECT(rule_versioned_sk_read, 0);
}

static void test_versioned_not_email_pk_or_no_op(void **state)
{
    (void)state;
    int g = op(OP_GET, API_SDK_V3, TABLE_DATA, "data", "GetCommand");
    key(ROLE_SK, SITE_READ, BUILD_LITERAL, g, 1, text("USER#alice@example.com"));
    key(ROLE_PK, SITE_READ, BUILD_LITERAL, g, 1, text("X@3"));
    key(ROLE_INDEX_SK, SITE_READ, BUILD_LITERAL, g, 1, text("X@3"));
    key(ROLE_SK, SITE_READ, BUILD_LITERAL, -1, 1, text("X@3"));
    key(ROLE_SK, SITE_READ, BUILD_LITERAL, 99, 1, text("X@3"));
    KeyExpr *k = key(ROLE_KEY, SITE_READ, BUILD_LITERAL, g, 1, text("X@3"));
    k->attr = "id";
    RUN_EXPECT(rule_versioned_sk_read, 0);
}

/* ====================================================================== */
/* missing-tenant                                                           */

/* Make the project multi-tenant (auto mode): another file's PK carries a
 * tenant. */
static void multi_tenant(void)
{
    other_key(ROLE_PK, SITE_WRITE, 3, cnst("ORDER", "ORDER_PK_PREFIX"), sep(),
              ref("tenantCode"));
}

static void test_tenant_missing_in_pk(void **state)
{
    (void)state;
    multi_tenant();
    int g = op(OP_GET, API_MBC_DATA, TABLE_DATA, NULL, "dataService.getItem");
    key(ROLE_PK, SITE_READ, BUILD_TEMPLATE, g, 2, text("ORDER#"),
        ref("orderId"));
    key(ROLE_PK, SITE_WRITE, BUILD_LITERAL, -1, 1, text("SETTINGS"));
    RUN_EXPECT(rule_missing_tenant, 2);
    const Diagnostic *d = expect_at(0, 0, 0,
        "partition key ORDER#{orderId} has no tenant segment: in this "
        "multi-tenant project every partition key carries its tenant (e.g. "
        "ORDER#{tenantCode})");
    /* multi-tenancy inferred (required: auto) is a guess: a warning */
    assert_int_equal(d->severity, SEV_WARNING);
    expect_at(1, 1, 0, "partition key SETTINGS has no tenant segment");
}

/* Configured severity wins over the inference's warning. */
static void test_tenant_auto_configured_severity(void **state)
{
    (void)state;
    multi_tenant();
    RuleSetting rs = { .id = "missing-tenant", .severity = SEV_ERROR };
    VEC_PUSH(A, &C->rules, rs);
    key(ROLE_PK, SITE_WRITE, BUILD_TEMPLATE, -1, 2, text("ORDER#"), ref("orderId"));
    RUN_EXPECT(rule_missing_tenant, 1);
    assert_int_equal(expect_at(0, 0, 0, "has no tenant segment")->severity, SEV_ERROR);
}

static void test_tenant_required_mode(void **state)
{
    (void)state;
    C->tenant_required = TENANT_REQUIRED;
    C->path = "/proj/.keylint.yml";
    C->tenant_required_line = 3;
    key(ROLE_PK, SITE_WRITE, BUILD_TEMPLATE, -1, 2, ref("id"), text("#P"));
    RUN_EXPECT(rule_missing_tenant, 1);
    /* declared multi-tenant: the rule's own severity, with the declaration
     * as its evidence */
    const Diagnostic *d = expect_at(0, 0, 0, "(e.g. ENTITY#{tenantCode})");
    assert_int_equal(d->severity, SEV_ERROR);
    assert_int_equal(d->nrelated, 1);
    assert_int_equal(d->related[0].span.start_row, 2);
    assert_non_null(strstr(d->related[0].path, ".keylint.yml"));
    assert_non_null(strstr(d->related[0].message, "tenant.required: true"));
}

static void test_tenant_in_sk_not_pk(void **state)
{
    (void)state;
    multi_tenant();
    int g = op(OP_GET, API_SDK_V3, TABLE_DATA, "data", "GetCommand");
    key(ROLE_PK, SITE_READ, BUILD_REF, g, 1,
        cnst("PRODUCT", "PRODUCT_PK_PREFIX"));
    key(ROLE_SK, SITE_READ, BUILD_TEMPLATE, g, 3, ref("tenantCode"), sep(),
        ref("productId"));
    RUN_EXPECT(rule_missing_tenant, 2);
    expect_at(0, 0, 0, "partition key PRODUCT has no tenant segment");
    expect_at(1, 1, 10, "tenant is in the sort key but not the partition key: "
                        "tenants share partition PRODUCT");
    expect_at(1, 1, 10, "put 'tenantCode' in the partition key (e.g. "
                        "PRODUCT#{tenantCode})");
}

static void test_tenant_helper_definition_once(void **state)
{
    (void)state;
    multi_tenant();
    KeyExpr *h = key(ROLE_PK, SITE_HELPER, BUILD_TEMPLATE, -1, 2,
                     text("ORDER#"), reff("orderId", SEGF_PARAM));
    h->attr = "generateOrderPk";
    int g = op(OP_GET, API_MBC_DATA, TABLE_DATA, NULL, "dataService.getItem");
    /* generateOrderPk(id) inlined: reported at the definition only,
     * whether or not the substituted argument is flagged */
    key(ROLE_PK, SITE_READ, BUILD_CALL, g, 2,
        helper(text("ORDER#"), "generateOrderPk"), helper(ref("id"), NULL));
    key(ROLE_PK, SITE_READ, BUILD_CALL, g, 2,
        helper(text("ORDER#"), "generateOrderPk"), ref("id"));
    /* a helper of unknown role is judged where its output is a PK */
    key(ROLE_KEY, SITE_HELPER, BUILD_TEMPLATE, -1, 2, text("SESSION#"),
        reff("userId", SEGF_PARAM));
    key(ROLE_PK, SITE_READ, BUILD_CALL, g, 2,
        helper(text("SESSION#"), "sessionKey"), ref("user.id"));
    /* the same helper output inside a template is this site's own key */
    key(ROLE_PK, SITE_READ, BUILD_TEMPLATE, g, 3,
        helper(text("ORDER#"), "generateOrderPk"), ref("id"), text("#x"));
    RUN_EXPECT(rule_missing_tenant, 3);
    expect_at(0, 0, 0, "partition key ORDER#{orderId} has no tenant segment");
    expect_at(1, 4, 0, "partition key SESSION#{user.id} has no tenant segment");
    expect_at(2, 5, 0, "partition key ORDER#{id}#x has no tenant segment");
}

static void test_tenant_not_when_single_tenant(void **state)
{
    (void)state;
    /* auto, and no key of the project carries a tenant */
    key(ROLE_PK, SITE_WRITE, BUILD_TEMPLATE, -1, 2, text("USER#"), ref("id"));
    RUN_EXPECT(rule_missing_tenant, 0);
    /* explicitly off */
    C->tenant_required = TENANT_NOT_REQUIRED;
    multi_tenant();
    RUN_EXPECT(rule_missing_tenant, 0);
}

static void test_tenant_not_common(void **state)
{
    (void)state;
    multi_tenant();
    int g = op(OP_GET, API_MBC_DATA, TABLE_DATA, NULL, "dataService.getItem");
    key(ROLE_PK, SITE_READ, BUILD_LITERAL, g, 1, text("USER#common"));
    int g2 = op(OP_GET, API_MBC_DATA, TABLE_DATA, NULL, "dataService.getItem");
    key(ROLE_PK, SITE_READ, BUILD_TEMPLATE, g2, 3, text("USER_TENANT"), sep(),
        textf("common", SEGF_CONST | SEGF_TENANT | SEGF_COMMON_TENANT,
              "TENANT_COMMON"));
    key(ROLE_SK, SITE_READ, BUILD_TEMPLATE, g2, 3, ref("tenantCode"), sep(),
        ref("userCode"));
    RUN_EXPECT(rule_missing_tenant, 0);
}

static void test_tenant_not_global_or_passthrough(void **state)
{
    (void)state;
    multi_tenant();
    strlist_push(C->arena, &C->tenant_global, "sequence");
    key(ROLE_PK, SITE_WRITE, BUILD_TEMPLATE, -1, 2, text("SEQUENCE#"),
        ref("name"));
    key(ROLE_PK, SITE_WRITE, BUILD_REF, -1, 1, ref("item.pk"));
    key(ROLE_PK, SITE_WRITE, BUILD_CALL, -1, 1, call("generatePk", 0));
    RUN_EXPECT(rule_missing_tenant, 0);
}

static void test_tenant_not_index_or_present(void **state)
{
    (void)state;
    multi_tenant();
    key(ROLE_INDEX_PK, SITE_WRITE, BUILD_TEMPLATE, -1, 2, text("STATUS#"),
        ref("status"));
    key(ROLE_PK, SITE_WRITE, BUILD_TEMPLATE, -1, 2, text("A#"),
        ref("dto.tenantId"));
    key(ROLE_PK, SITE_WRITE, BUILD_TEMPLATE, -1, 2, text("B#"),
        reff("code", SEGF_TENANT));
    key(ROLE_PK, SITE_WRITE, BUILD_TEMPLATE, -1, 2, text("C#"),
        call1("seqPk", SEGF_FRAMEWORK, ref("tenantCode")));
    Seg via = ref("dto.org");
    via.name = "tenantCode";
    key(ROLE_PK, SITE_WRITE, BUILD_TEMPLATE, -1, 2, text("D#"), via);
    RUN_EXPECT(rule_missing_tenant, 0);
}

static void test_tenant_not_sk_when_pk_fine(void **state)
{
    (void)state;
    multi_tenant();
    int g = op(OP_GET, API_SDK_V3, TABLE_DATA, "data", "GetCommand");
    key(ROLE_PK, SITE_READ, BUILD_TEMPLATE, g, 2, text("P#"), ref("tenantCode"));
    key(ROLE_SK, SITE_READ, BUILD_TEMPLATE, g, 3, ref("tenantCode"), sep(),
        ref("id"));
    /* a PK of another operation has no say */
    int g2 = op(OP_GET, API_SDK_V3, TABLE_DATA, "data", "GetCommand");
    key(ROLE_PK, SITE_READ, BUILD_REF, g2, 1, ref("pk"));
    key(ROLE_SK, SITE_READ, BUILD_TEMPLATE, g2, 3, ref("tenantCode"), sep(),
        ref("id"));
    RUN_EXPECT(rule_missing_tenant, 0);
}

/* ====================================================================== */
/* registry                                                                 */

static void test_registry(void **state)
{
    (void)state;
    size_t n = 0;
    for (; keylint_rules[n]; n++)
        if (n > 0)
            assert_true(strcmp(keylint_rules[n - 1]->id,
                               keylint_rules[n]->id) < 0);
    /* the six mission rules, suppression, schema and the twelve
     * access-pattern and key-design rules */
    assert_int_equal(n, 20);
    const char *const *ids = rule_ids();
    for (size_t i = 0; i < n; i++) {
        assert_string_equal(ids[i], keylint_rules[i]->id);
        assert_ptr_equal(rule_find(ids[i]), keylint_rules[i]);
        assert_non_null(keylint_rules[i]->summary);
        assert_non_null(keylint_rules[i]->check);
        assert_true(keylint_rules[i]->default_severity != SEV_OFF);
        const char *doc = rule_docs(ids[i]);
        assert_non_null(doc);
        char *title = arena_printf(A, "# %s\n", ids[i]);
        assert_true(strncmp(doc, title, strlen(title)) == 0);
        assert_non_null(strstr(doc, "## Why"));
        assert_non_null(strstr(doc, "## Bad"));
        assert_non_null(strstr(doc, "## Good"));
        assert_non_null(strstr(doc, "## Options"));
        assert_non_null(strstr(doc, "docs/references.md")); /* cites guides a user can find */
    }
    assert_null(ids[n]);
    assert_ptr_equal(rule_ids(), ids);
    assert_null(rule_find("no-such-rule"));
    assert_null(rule_find(NULL));
    assert_null(rule_docs("no-such-rule"));
    assert_null(rule_docs(NULL));
    /* the embedded text keeps non-ASCII and '?' intact */
    assert_non_null(strstr(rule_docs("magic-string"),
                           "\xe2\x80\x94 the constant ORDER_PK_PREFIX"));
    assert_ptr_equal(rule_find("magic-string"), &rule_magic_string);
    assert_int_equal(rule_magic_string.default_severity, SEV_WARNING);
}

static void test_rule_report(void **state)
{
    (void)state;
    RuleContext ctx = { .rule = &rule_mixed_separator, .severity = SEV_WARNING,
                        .file = F, .config = C, .facts = &PF, .out = &D };
    Span s = { .start_row = 3, .start_col = 4, .end_row = 3, .end_col = 9 };
    Diagnostic *d = rule_report(&ctx, s, "x %d %s", 42, "y");
    assert_string_equal(d->message, "x 42 y");
    assert_string_equal(d->rule, "mixed-separator");
    assert_int_equal(d->severity, SEV_WARNING);
    assert_string_equal(d->path, "src/orders.ts");
    assert_int_equal(d->span.end_col, 9);
    assert_null(d->fix);
    assert_int_equal(D.items.n, 1);
}

/* Every rule is quiet on an empty file and on a file that failed to parse. */
static void test_rules_quiet_on_empty(void **state)
{
    (void)state;
    for (size_t i = 0; keylint_rules[i]; i++)
        assert_int_equal(run(keylint_rules[i]), 0);
    C->tenant_required = TENANT_REQUIRED;
    key(ROLE_PK, SITE_WRITE, BUILD_TEMPLATE, -1, 2, ref("a"), ref("b"));
    F->parse_failed = true;
    for (size_t i = 0; keylint_rules[i]; i++)
        assert_int_equal(run(keylint_rules[i]), 0);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_magic_inline_prefix),
        T(test_magic_names_matching_constant),
        T(test_magic_constant_without_separator),
        T(test_magic_condition_literal_and_array),
        T(test_magic_hard_coded_separator),
        T(test_magic_not_helper_entity_or_const),
        T(test_magic_not_without_letters),
        T(test_magic_not_whole_word_or_trailing),
        T(test_magic_not_separator_without_constant),
        T(test_magic_not_array_join_or_separator_inside),
        T(test_mixed_within_key),
        T(test_mixed_join_and_two_chars),
        T(test_mixed_project_wide),
        T(test_mixed_project_wide_counts_shapes),
        T(test_mixed_helper_definition_reported),
        T(test_mixed_not_tokens_or_dates),
        T(test_mixed_not_version_separator),
        T(test_mixed_not_literal_or_single),
        T(test_mixed_not_project_wide_below_threshold),
        T(test_mixed_not_inlined_helper),
        T(test_delim_adjacent_values),
        T(test_delim_constant_then_value),
        T(test_delim_helper_definition),
        T(test_delim_not_separated),
        T(test_delim_not_dates),
        T(test_delim_not_prefix_suffix_names),
        T(test_delim_not_single_or_unknown),
        T(test_delim_not_inline_text),
        T(test_mutable_configured_field),
        T(test_mutable_updated_attr),
        T(test_mutable_custom_config_and_via_name),
        T(test_mutable_evidence),
        T(test_mutable_not_index_or_unknown_role),
        T(test_mutable_not_similar_names),
        T(test_mutable_not_key_attrs_or_calls),
        T(test_mutable_not_tenant),
        T(test_versioned_add_sort_key_version),
        T(test_versioned_variable_and_text),
        T(test_versioned_role_key_with_sk_attr),
        T(test_versioned_not_history_or_command),
        T(test_versioned_not_removed),
        T(test_versioned_not_writes),
        T(test_versioned_not_email_pk_or_no_op),
        T(test_tenant_missing_in_pk),
        T(test_tenant_auto_configured_severity),
        T(test_tenant_required_mode),
        T(test_tenant_in_sk_not_pk),
        T(test_tenant_helper_definition_once),
        T(test_tenant_not_when_single_tenant),
        T(test_tenant_not_common),
        T(test_tenant_not_global_or_passthrough),
        T(test_tenant_not_index_or_present),
        T(test_tenant_not_sk_when_pk_fine),
        T(test_registry),
        T(test_rule_report),
        T(test_rules_quiet_on_empty),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Unit tests for linter/keyfacts.c and linter/facts.c: the shared readings
 * of resolved keys, over hand-built segment lists. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "config.h"
#include "facts.h"
#include "ir.h"
#include "keyfacts.h"

static Arena *A;
static Config *C;

static int setup(void **state)
{
    (void)state;
    A = arena_new();
    C = config_default();
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    arena_free(A);
    config_free(C);
    return 0;
}

/* ---- builders ------------------------------------------------------------ */

static Seg text(const char *t)
{
    return (Seg){ .kind = SEG_TEXT, .text = t };
}

static Seg textf(const char *t, uint32_t flags, const char *name)
{
    return (Seg){ .kind = SEG_TEXT, .text = t, .flags = flags, .name = name };
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

static Seg unknown(const char *src)
{
    return (Seg){ .kind = SEG_UNKNOWN, .text = src };
}

/* A call with one argument, itself a list of segments. */
static Seg call1(const char *callee, uint32_t flags, int n, ...)
{
    Seg s = call(callee, flags);
    s.args = arena_alloc(A, sizeof *s.args);
    s.nargs = 1;
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n; i++)
        seglist_push(A, &s.args[0], va_arg(ap, Seg));
    va_end(ap);
    return s;
}

static SegList *segs(int n, ...)
{
    SegList *l = arena_alloc(A, sizeof *l);
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n; i++) {
        Seg s = va_arg(ap, Seg);
        s.span.start_col = (uint32_t)(10 * (i + 1));
        seglist_push(A, l, s);
    }
    va_end(ap);
    return l;
}

static KfKey flat(SegList *l)
{
    KfKey k;
    kf_flatten(A, l, &k);
    return k;
}

static const char *chars_of(SegList *l)
{
    KfKey k = flat(l);
    KfBoundary *b;
    size_t n = kf_boundaries(A, &k, C, &b);
    return kf_boundary_chars(A, b, n);
}

/* ---- flattening ------------------------------------------------------ */

static void test_flatten_merges_text_and_drops_empty(void **state)
{
    (void)state;
    SegList *l = segs(6, textf("PRODUCT", SEGF_CONST, "PRODUCT_PK_PREFIX"),
                      textf("#", SEGF_CONST | SEGF_SEPARATOR, "KEY_SEPARATOR"),
                      ref("tenantCode"), text(""), ref("id"), text("#x"));
    KfKey k = flat(l);
    assert_int_equal(k.n, 4);
    assert_false(k.parts[0].hole);
    assert_string_equal(k.parts[0].text, "PRODUCT#");
    assert_int_equal(k.parts[0].nsegs, 2);
    assert_true(k.parts[1].hole);
    assert_true(k.parts[2].hole); /* the empty text vanished */
    assert_string_equal(k.parts[3].text, "#x");
    assert_int_equal(kf_hole_count(&k), 2);
    assert_true(kf_has_text(&k));

    size_t off;
    const Seg *s = kf_text_seg_at(&k, 0, 7, &off);
    assert_string_equal(s->name, "KEY_SEPARATOR");
    assert_int_equal(off, 0);
    s = kf_text_seg_at(&k, 0, 3, &off);
    assert_string_equal(s->name, "PRODUCT_PK_PREFIX");
    assert_int_equal(off, 3);
    assert_string_equal(kf_part_seg(&k, 1)->text, "tenantCode");
}

static void test_flatten_hole_only(void **state)
{
    (void)state;
    KfKey k = flat(segs(1, ref("item.pk")));
    assert_int_equal(k.n, 1);
    assert_false(kf_has_text(&k));
    k = flat(segs(0));
    assert_int_equal(k.n, 0);
}

/* A value written over several lines is one line in a message; spaces of
 * the key's own text stay as written. */
static void test_label_one_line(void **state)
{
    (void)state;
    SegList *l = segs(3, text("EVENT#  "), ref("title\n    .toLowerCase()"), text("-x"));
    assert_string_equal(seglist_label(A, l), "EVENT#  {title .toLowerCase()}-x");
    l = segs(1, ref("a\r\n\t  b"));
    assert_string_equal(seglist_label(A, l), "{a b}");
}

static void test_start_code(void **state)
{
    (void)state;
    /* 'GA' + groupId, `GP${groupId}#${albumId}`: two-letter codes */
    KfKey k = flat(segs(2, text("GA"), ref("groupId")));
    assert_int_equal(kf_start_code(&k), 2);
    k = flat(segs(4, text("GP"), ref("groupId"), text("#"), ref("albumId")));
    assert_int_equal(kf_start_code(&k), 2);
    k = flat(segs(2, text("USER"), ref("id")));
    assert_int_equal(kf_start_code(&k), 4);
    /* not a code: a separator after it, lower case, one letter, too long,
     * a constant's text, nothing after it, a value first */
    k = flat(segs(2, text("GA#"), ref("groupId")));
    assert_int_equal(kf_start_code(&k), 0);
    k = flat(segs(2, text("Ga"), ref("groupId")));
    assert_int_equal(kf_start_code(&k), 0);
    k = flat(segs(2, text("U"), ref("sub")));
    assert_int_equal(kf_start_code(&k), 0);
    k = flat(segs(2, text("ORDER"), ref("id")));
    assert_int_equal(kf_start_code(&k), 0);
    k = flat(segs(2, textf("GA", SEGF_CONST, "GROUP_ALBUM"), ref("groupId")));
    assert_int_equal(kf_start_code(&k), 0);
    k = flat(segs(1, text("UBbase")));
    assert_int_equal(kf_start_code(&k), 0);
    k = flat(segs(2, ref("groupId"), text("GA")));
    assert_int_equal(kf_start_code(&k), 0);
}

static void test_all_helper(void **state)
{
    (void)state;
    assert_true(kf_all_helper(segs(2, textf("ORDER#", SEGF_HELPER, "k"),
                                   reff("id", SEGF_HELPER))));
    assert_false(kf_all_helper(segs(2, textf("ORDER#", SEGF_HELPER, "k"),
                                    ref("id"))));
    assert_false(kf_all_helper(segs(0)));
}

static void test_helper_output_and_shape(void **state)
{
    (void)state;
    KeyExpr k = { .site = SITE_READ, .build = BUILD_CALL,
                  .segs = *segs(3, textf("ORDER", SEGF_CONST | SEGF_HELPER,
                                         "ORDER_PK_PREFIX"),
                                textf("#", SEGF_CONST | SEGF_HELPER, "KEY_SEPARATOR"),
                                ref("tenantCode")) };
    assert_true(kf_is_helper_output(&k));
    KfKey f = flat(&k.segs);
    assert_string_equal(kf_shape(A, &f), "ORDER#{}");
    k.build = BUILD_TEMPLATE; /* the helper's output inside a template */
    assert_false(kf_is_helper_output(&k));
    k.build = BUILD_CALL;
    k.site = SITE_HELPER;
    assert_false(kf_is_helper_output(&k));
    KeyExpr fw = { .site = SITE_READ, .build = BUILD_CALL,
                   .segs = *segs(2, textf("MASTER#", SEGF_FRAMEWORK, NULL),
                                 ref("t")) };
    assert_false(kf_is_helper_output(&fw));
    f = flat(segs(4, ref("a"), text(""), ref("b"), text("#x")));
    assert_string_equal(kf_shape(A, &f), "{}{}#x");
    f = flat(segs(0));
    assert_string_equal(kf_shape(A, &f), "");
    /* literal ids are values in a shape: a sample org written out */
    f = flat(segs(1, text("ORG#d41869a7-3900-4daa-8a05-771f19e12e97#EMP#01HX7MBJK3V9WQBZ7XNDK5ZT2M")));
    assert_string_equal(kf_shape(A, &f), "ORG#{}#EMP#{}");
    assert_true(kf_text_has_id(&f));
    f = flat(segs(2, text("ACCOUNT#123456789012#"), ref("id")));
    assert_string_equal(kf_shape(A, &f), "ACCOUNT#{}#{}");
    f = flat(segs(1, text("STATUS#ACTIVE#v2")));
    assert_string_equal(kf_shape(A, &f), "STATUS#ACTIVE#v2");
    assert_false(kf_text_has_id(&f));
}

static void test_looks_like_id(void **state)
{
    (void)state;
    static const char *const ids[] = {"d41869a7-3900-4daa-8a05-771f19e12e97",
                                      "01HX7MBJK3V9WQBZ7XNDK5ZT2M", "507f1f77bcf86cd799439011",
                                      "123456", "1700000000000", NULL};
    static const char *const not_ids[] = {"ORDER", "ADMIN", "DEFAULT", "12345", "v2",
                                          "METADATA", "ABCDEFABCDEFABCDEF", /* no digit */
                                          "d41869a7_3900_4daa_8a05_771f19e12e97", NULL};
    for (const char *const *i = ids; *i; i++)
        assert_true(kf_looks_like_id(*i, strlen(*i)));
    for (const char *const *i = not_ids; *i; i++)
        assert_false(kf_looks_like_id(*i, strlen(*i)));
}

/* ---- names ------------------------------------------------------------ */

static void test_last_component_and_hole_name(void **state)
{
    (void)state;
    assert_string_equal(kf_last_component(A, "order.status"), "status");
    assert_string_equal(kf_last_component(A, "a?.b!.tenantCode"), "tenantCode");
    assert_string_equal(kf_last_component(A, "x['y']"), "y");
    assert_string_equal(kf_last_component(A, "id"), "id");
    assert_string_equal(kf_last_component(A, NULL), "");

    Seg r = ref("order.id"), c = call("generateId", 0), u = unknown("a ? b : c");
    assert_string_equal(kf_hole_name(A, &r), "order.id");
    assert_string_equal(kf_hole_name(A, &c), "generateId()");
    assert_string_equal(kf_hole_name(A, &u), "a ? b : c");
    Seg u2 = unknown(NULL);
    assert_string_equal(kf_hole_name(A, &u2), "?");
}

static void test_name_is_date(void **state)
{
    (void)state;
    const char *yes[] = { "date", "yyyy", "mm", "dd", "yearMonth", "createdAt",
                          "order.updatedAt", "startDate", "eventTime",
                          "timestamp", "created_at", "HOUR", NULL };
    const char *no[] = { "id", "status", "format", "candidate", "runtime",
                         "data", "At", "update", NULL };
    for (size_t i = 0; yes[i]; i++)
        assert_true(kf_name_is_date(A, yes[i]));
    for (size_t i = 0; no[i]; i++)
        assert_false(kf_name_is_date(A, no[i]));
}

static void test_name_is_tenant(void **state)
{
    (void)state;
    assert_true(kf_name_is_tenant(A, "tenantCode", C));
    assert_true(kf_name_is_tenant(A, "dto.TENANTCODE", C));
    assert_true(kf_name_is_tenant(A, "this.tenant", C));
    assert_false(kf_name_is_tenant(A, "tenantName", C));
    assert_true(kf_name_is_tenant(A, "tenantGroupCode", C));
    assert_true(kf_name_is_tenant(A, "ctx.currentTenant", C));
    assert_false(kf_name_is_tenant(A, "userId", C));
}

static void test_ends_with_word(void **state)
{
    (void)state;
    assert_true(kf_name_ends_with_word("status", "status"));
    assert_true(kf_name_ends_with_word("Status", "status"));
    assert_true(kf_name_ends_with_word("orderStatus", "status"));
    assert_true(kf_name_ends_with_word("order_status", "status"));
    assert_true(kf_name_ends_with_word("lastUpdatedAt", "updatedAt"));
    assert_false(kf_name_ends_with_word("estate", "state"));
    assert_false(kf_name_ends_with_word("statusCode", "status"));
    assert_false(kf_name_ends_with_word("xstatus", "status"));
}

static void test_prefix_suffix_separator_names(void **state)
{
    (void)state;
    assert_true(kf_name_is_prefix_like(A, "skPrefix"));
    assert_true(kf_name_is_prefix_like(A, "ORDER_PREFIX"));
    assert_true(kf_name_is_prefix_like(A, "prefix"));
    assert_false(kf_name_is_prefix_like(A, "prefixes"));
    assert_true(kf_name_is_suffix_like(A, "versionSuffix"));
    assert_false(kf_name_is_suffix_like(A, "id"));

    Seg s1 = ref("KEY_SEPARATOR"), s2 = ref("Keys.ITEM_DELIM"),
        s3 = ref("separator"), s4 = ref("ORDER_PREFIX"),
        s5 = call("KEY_SEPARATOR", 0);
    assert_true(kf_hole_is_separator(A, &s1));
    assert_true(kf_hole_is_separator(A, &s2));
    assert_false(kf_hole_is_separator(A, &s3));
    assert_false(kf_hole_is_separator(A, &s4));
    assert_false(kf_hole_is_separator(A, &s5));
}

static void test_hole_is_tenant_and_date(void **state)
{
    (void)state;
    Seg a = ref("dto.tenantCode"), b = reff("code", SEGF_TENANT),
        c = ref("userId"), d = ref("x");
    d.name = "tenantId";
    Seg t = textf("common", SEGF_TENANT, "TENANT_COMMON");
    assert_true(kf_hole_is_tenant(A, &a, C));
    assert_true(kf_hole_is_tenant(A, &b, C));
    assert_false(kf_hole_is_tenant(A, &c, C));
    assert_true(kf_hole_is_tenant(A, &d, C)); /* flowed through tenantId */
    assert_false(kf_hole_is_tenant(A, &t, C)); /* text is not a hole */

    Seg iso = call("date.toISOString", 0), now = call("Date.now", SEGF_DATE),
        ulid = call("ulid", 0), ym = ref("yearMonth");
    assert_true(kf_hole_is_date(A, &iso));
    assert_true(kf_hole_is_date(A, &now));
    assert_false(kf_hole_is_date(A, &ulid));
    assert_true(kf_hole_is_date(A, &ym));

    Seg mp = call1("masterPk", 0, 1, ref("tenantCode"));
    Seg other = call1("hash", 0, 1, ref("userId"));
    assert_true(kf_call_has_tenant_arg(A, &mp, C));
    assert_false(kf_call_has_tenant_arg(A, &other, C));
}

/* ---- tenants --------------------------------------------------------- */

static void test_tenant_presence(void **state)
{
    (void)state;
    KfKey k = flat(segs(2, text("ORDER#"), ref("tenantCode")));
    assert_non_null(kf_tenant_hole(A, &k, C));
    assert_true(kf_has_tenant(A, &k, C));

    k = flat(segs(2, text("ORDER#"), ref("orderId")));
    assert_null(kf_tenant_hole(A, &k, C));
    assert_false(kf_has_tenant(A, &k, C));

    k = flat(segs(1, text("USER#common")));
    assert_true(kf_has_common_tenant(&k, C));
    k = flat(segs(1, text("USER#Common#x")));
    assert_true(kf_has_common_tenant(&k, C));
    k = flat(segs(1, text("USER#commonplace")));
    assert_false(kf_has_common_tenant(&k, C));
    k = flat(segs(3, text("USER_TENANT"), textf("#", SEGF_CONST | SEGF_SEPARATOR, "KEY_SEPARATOR"),
                  textf("common", SEGF_CONST | SEGF_TENANT | SEGF_COMMON_TENANT,
                        "TENANT_COMMON")));
    assert_true(kf_has_common_tenant(&k, C));
    assert_null(kf_tenant_hole(A, &k, C));

    k = flat(segs(2, text("MASTER#"), call1("masterPk", 0, 1, ref("tenantCode"))));
    assert_non_null(kf_tenant_hole(A, &k, C));
}

/* ---- separators ------------------------------------------------------ */

static void test_boundaries_basic(void **state)
{
    (void)state;
    assert_string_equal(chars_of(segs(4, text("ORDER-"), ref("id"),
                                      text("_item:"), ref("n"))),
                        "-_:");
    /* one character between two holes counts once */
    KfKey k = flat(segs(3, ref("a"), text("#"), ref("b")));
    KfBoundary *b;
    assert_int_equal(kf_boundaries(A, &k, C, &b), 1);
    assert_int_equal(b[0].c, '#');
    assert_int_equal(b[0].part, 1);
    assert_int_equal(b[0].off, 0);
    /* characters inside tokens do not count */
    assert_string_equal(chars_of(segs(2, text("ORDER_ITEM#"), ref("id"))), "#");
    assert_string_equal(chars_of(segs(2, text("SFN_TASK#"), ref("id"))), "#");
    /* no holes, no boundaries */
    assert_string_equal(chars_of(segs(1, text("ORDER-01HX_item:001"))), "");
    /* a letter next to a hole is no separator */
    assert_string_equal(chars_of(segs(2, text("ORDER"), ref("id"))), "");
}

static void test_boundaries_dates_and_versions(void **state)
{
    (void)state;
    assert_string_equal(chars_of(segs(5, ref("yyyy"), text("-"), ref("mm"),
                                      text("#"), ref("id"))),
                        "#");
    assert_string_equal(chars_of(segs(2, text("2024-01-"), ref("dd"))), "");
    assert_string_equal(chars_of(segs(3, call("date.toISOString", SEGF_DATE),
                                      text("#"), ref("id"))),
                        "#");
    assert_string_equal(chars_of(segs(4, text("LOG#"), ref("tenantCode"),
                                      text("#"), ref("yearMonth"))),
                        "#");
    /* a date next to a non-date still counts */
    assert_string_equal(chars_of(segs(3, ref("createdAt"), text("-"),
                                      ref("id"))),
                        "-");
    /* the version separator before the version is no boundary, even when
     * it is a boundary candidate */
    C->version_separator = "~";
    assert_string_equal(chars_of(segs(5, text("ORDER#"), ref("id"),
                                      text("#"), ref("sk"), text("~3"))),
                        "#");
    assert_string_equal(chars_of(segs(4, text("ORDER#"), ref("sk"),
                                      text("~"), ref("v"))),
                        "#");
    assert_string_equal(chars_of(segs(4, text("ORDER#"), ref("sk"),
                                      text("~x"), ref("v"))),
                        "#~");
    C->version_separator = "@";
}

static void test_boundaries_helper_flag(void **state)
{
    (void)state;
    KfKey k = flat(segs(4, textf("A-", SEGF_HELPER, "h"), reff("x", SEGF_HELPER),
                        textf("_", SEGF_HELPER, "h"), reff("y", SEGF_HELPER)));
    KfBoundary *b;
    size_t n = kf_boundaries(A, &k, C, &b);
    assert_int_equal(n, 2);
    assert_true(kf_boundaries_all_helper(b, n));
    k = flat(segs(4, textf("A-", SEGF_HELPER, "h"), reff("x", SEGF_HELPER),
                  text("_"), ref("y")));
    n = kf_boundaries(A, &k, C, &b);
    assert_false(kf_boundaries_all_helper(b, n));
    assert_false(kf_boundaries_all_helper(b, 0));
}

static void test_char_classes(void **state)
{
    (void)state;
    const char *cands = "#:|/-_.~;,+=";
    for (const char *p = cands; *p; p++)
        assert_true(kf_is_boundary_char(*p, C));
    assert_false(kf_is_boundary_char('a', C));
    assert_false(kf_is_boundary_char('@', C));
    assert_false(kf_is_boundary_char(0, C));
    assert_true(kf_is_prefix_sep_char('#', C));
    assert_true(kf_is_prefix_sep_char(':', C));
    assert_true(kf_is_prefix_sep_char('|', C));
    assert_false(kf_is_prefix_sep_char('-', C));
    C->separator = "$";
    assert_true(kf_is_prefix_sep_char('$', C));
    assert_true(kf_is_boundary_char('$', C));
    C->separator = "#";
}

/* ---- versions ------------------------------------------------------- */

static void test_versioned(void **state)
{
    (void)state;
    const Seg *why;
    KfKey k = flat(segs(1, call("addSortKeyVersion",
                                SEGF_VERSIONED | SEGF_FRAMEWORK)));
    assert_true(kf_is_versioned(&k, C, &why));
    assert_string_equal(why->text, "addSortKeyVersion");

    k = flat(segs(1, reff("skWithVersion", SEGF_VERSIONED)));
    assert_true(kf_is_versioned(&k, C, &why));

    k = flat(segs(1, call1("removeSortKeyVersion", SEGF_UNVERSIONED, 1,
                           call("addSortKeyVersion", SEGF_VERSIONED))));
    assert_false(kf_is_versioned(&k, C, &why));
    assert_null(why);

    k = flat(segs(3, ref("sk"), textf("@", SEGF_CONST | SEGF_VERSION_SEP,
                                      "VER_SEPARATOR"), ref("v")));
    assert_true(kf_is_versioned(&k, C, &why));
    assert_string_equal(why->name, "VER_SEPARATOR");

    k = flat(segs(1, text("01HX7MBJK3V9WQBZ7XNDK5ZT2M@3")));
    assert_true(kf_is_versioned(&k, C, NULL));
    k = flat(segs(3, ref("sk"), text("@"), ref("version")));
    assert_true(kf_is_versioned(&k, C, NULL));

    k = flat(segs(1, text("alice@example.com")));
    assert_false(kf_is_versioned(&k, C, NULL));
    k = flat(segs(3, text("USER#"), ref("email"), text("#x")));
    assert_false(kf_is_versioned(&k, C, NULL));
    k = flat(segs(4, ref("sk"), text("@"), ref("v"), text("#x")));
    assert_false(kf_is_versioned(&k, C, NULL));
    /* a version separator constant that ends the key versions nothing */
    k = flat(segs(2, ref("sk"), textf("@", SEGF_CONST | SEGF_VERSION_SEP,
                                      "VER_SEPARATOR")));
    assert_false(kf_is_versioned(&k, C, NULL));
}

/* ---- prefixes and attributes ---------------------------------------- */

static void test_leading_prefix(void **state)
{
    (void)state;
    KfKey k = flat(segs(2, text("ORDER#"), ref("id")));
    assert_string_equal(kf_leading_prefix(A, &k), "ORDER");
    k = flat(segs(3, textf("USER_TENANT", SEGF_CONST, "P"), text("#"), ref("x")));
    assert_string_equal(kf_leading_prefix(A, &k), "USER_TENANT");
    k = flat(segs(2, ref("tenantCode"), text("#x")));
    assert_null(kf_leading_prefix(A, &k));
    k = flat(segs(1, text("#x")));
    assert_null(kf_leading_prefix(A, &k));
}

static void test_attr_names(void **state)
{
    (void)state;
    const char *keys[] = { "pk", "SK", "gsi1pk", "GSI2SK", "lsi1sk",
                           "gsi_1_pk", NULL };
    for (size_t i = 0; keys[i]; i++)
        assert_true(kf_is_key_attr_name(keys[i], C));
    assert_false(kf_is_key_attr_name("status", C));
    assert_false(kf_is_key_attr_name("gsi", C));
    assert_false(kf_is_key_attr_name("", C));
    strlist_push(C->arena, &C->key_pk, "tenantKey");
    assert_true(kf_is_key_attr_name("tenantKey", C));

    assert_true(kf_attr_is_sk("sk", C));
    assert_true(kf_attr_is_sk("SK", C));
    assert_true(kf_attr_is_sk("sortKey", NULL));
    assert_false(kf_attr_is_sk("gsi1sk", C));
    assert_false(kf_attr_is_sk(NULL, C));

    assert_string_equal(kf_role_noun(ROLE_PK), "partition key");
    assert_string_equal(kf_role_noun(ROLE_SK), "sort key");
    assert_string_equal(kf_role_noun(ROLE_INDEX_PK), "index partition key");
    assert_string_equal(kf_role_noun(ROLE_INDEX_SK), "index sort key");
    assert_string_equal(kf_role_noun(ROLE_KEY), "key");
}

/* ---- facts ------------------------------------------------------------ */

static FileIR *new_file(const char *path)
{
    FileIR *f = arena_alloc(A, sizeof *f);
    f->arena = A;
    f->path = path;
    return f;
}

static void add_key(FileIR *f, KeyRole role, KeySite site, SegList *l)
{
    KeyExpr k = { .role = role, .site = site, .op = -1, .segs = *l };
    VEC_PUSH(A, &f->keys, k);
}

static void test_facts_compute(void **state)
{
    (void)state;
    Seg sep = textf("#", SEGF_CONST | SEGF_SEPARATOR, "KEY_SEPARATOR");
    FileIR *f1 = new_file("a.ts"), *f2 = new_file("b.ts");
    add_key(f1, ROLE_PK, SITE_WRITE,
            segs(3, textf("ORDER", SEGF_CONST, "ORDER_PK_PREFIX"), sep,
                 ref("tenantCode")));
    add_key(f1, ROLE_SK, SITE_WRITE, segs(3, text("ORDER#"), ref("id"), text("")));
    add_key(f2, ROLE_SK, SITE_READ, segs(2, text("ITEM#"), ref("id")));
    add_key(f2, ROLE_SK, SITE_READ, segs(2, text("USER:"), ref("id")));
    ConstDef cd = { .name = "USER_PREFIX" };
    seglist_push(A, &cd.value, text("USER"));
    seglist_push(A, &cd.value, text("#"));
    fileir_add_const(f2, cd);
    ConstDef cd2 = { .name = "NOT_TEXT" };
    seglist_push(A, &cd2.value, ref("x"));
    fileir_add_const(f2, cd2);
    DataOp op = { .kind = OP_UPDATE };
    strlist_push(A, &op.sets, "status");
    strlist_push(A, &op.sets, "shippingAddress");
    VEC_PUSH(A, &f2->ops, op);
    VEC_PUSH(A, &f2->ops, op); /* the same attributes again */
    FileIR *failed = new_file("c.ts");
    failed->parse_failed = true;
    add_key(failed, ROLE_SK, SITE_READ, segs(2, text("X|"), ref("id")));

    FileIR *files[] = { f1, f2, failed };
    ProjectFacts pf;
    facts_compute(&pf, A, files, 3, C);
    assert_true(pf.has_tenant_keys);
    assert_int_equal(pf.updated_attrs.n, 2);
    assert_true(strlist_has(&pf.updated_attrs, "shippingAddress"));
    assert_string_equal(pf.separator_const, "KEY_SEPARATOR");
    assert_string_equal(pf.separator_const_value, "#");
    assert_int_equal(pf.separator_uses['#'], 3);
    assert_int_equal(pf.separator_uses[':'], 1);
    assert_int_equal(pf.separator_uses['|'], 0);
    assert_int_equal(pf.dominant_separator, '#');
    assert_string_equal(facts_const_for_text(&pf, "USER#"), "USER_PREFIX");
    assert_string_equal(facts_const_for_text(&pf, "ORDER"), "ORDER_PK_PREFIX");
    assert_string_equal(facts_const_for_text(&pf, "#"), "KEY_SEPARATOR");
    assert_null(facts_const_for_text(&pf, "ITEM#"));
    assert_null(facts_const_for_text(&pf, "x"));
    assert_null(facts_const_for_text(NULL, "x"));
}

static void test_facts_no_tenant_no_separator_const(void **state)
{
    (void)state;
    FileIR *f = new_file("a.ts");
    add_key(f, ROLE_PK, SITE_WRITE, segs(2, text("USER#"), ref("userId")));
    /* a tenant in an index key does not make the project multi-tenant */
    add_key(f, ROLE_INDEX_PK, SITE_WRITE, segs(2, text("T#"), ref("tenantCode")));
    FileIR *files[] = { f };
    ProjectFacts pf;
    facts_compute(&pf, A, files, 1, C);
    assert_false(pf.has_tenant_keys);
    assert_null(pf.separator_const);
    assert_null(pf.separator_const_value);
    assert_int_equal(pf.dominant_separator, '#');

    facts_compute(&pf, A, NULL, 0, NULL);
    assert_false(pf.has_tenant_keys);
    assert_int_equal(pf.dominant_separator, 0);
}

/* A tenant read from the environment (`${TENANT_ID}#CANDIDATES` with
 * TENANT_ID = process.env.TENANT_ID || 'TENANT#ACME') is one tenant per
 * deployment: no evidence that the table keys many tenants. */
static void test_facts_tenant_from_environment(void **state)
{
    (void)state;
    FileIR *f = new_file("a.ts");
    add_key(f, ROLE_PK, SITE_READ,
            segs(2, ref("process.env.TENANT_ID"), text("#CANDIDATES")));
    add_key(f, ROLE_PK, SITE_WRITE, segs(2, text("CANDIDATE#"), ref("candidateId")));
    FileIR *files[] = { f };
    ProjectFacts pf;
    facts_compute(&pf, A, files, 1, C);
    assert_false(pf.has_tenant_keys);

    FileIR *g = new_file("b.ts");
    add_key(g, ROLE_PK, SITE_WRITE, segs(2, text("ORDER#"), ref("tenantId")));
    FileIR *both[] = { f, g };
    facts_compute(&pf, A, both, 2, C);
    assert_true(pf.has_tenant_keys);
}

/* A value the project writes as a tenant's own record names the tenant
 * by another name; a bare id, a sort key or a longer key does not. A
 * table partition key of a prefix and one id is a partition per owner. */
static void test_facts_tenant_aliases(void **state)
{
    (void)state;
    FileIR *f = new_file("a.ts");
    add_key(f, ROLE_PK, SITE_WRITE, segs(2, text("TENANT#"), ref("coach.coachId")));
    add_key(f, ROLE_PK, SITE_WRITE, segs(2, text("TENANT#"), ref("id")));
    add_key(f, ROLE_SK, SITE_WRITE, segs(2, text("TENANT#"), ref("memberId")));
    add_key(f, ROLE_PK, SITE_WRITE, segs(3, text("TENANT#"), ref("ownerId"), text("#X")));
    add_key(f, ROLE_PK, SITE_WRITE, segs(2, text("ORDER#"), ref("orderId")));
    add_key(f, ROLE_PK, SITE_WRITE, segs(2, text("STATUS#"), ref("status")));
    add_key(f, ROLE_INDEX_PK, SITE_WRITE, segs(2, text("GSI#"), ref("gsiId")));
    FileIR *files[] = { f };
    ProjectFacts pf;
    facts_compute(&pf, A, files, 1, C);
    assert_int_equal(pf.tenant_aliases.n, 1);
    assert_true(facts_tenant_alias(A, &pf, "CoachID"));
    assert_true(facts_tenant_alias(A, &pf, "input.coachId"));
    assert_false(facts_tenant_alias(A, &pf, "id"));
    assert_false(facts_tenant_alias(A, &pf, "memberId"));
    assert_false(facts_tenant_alias(A, &pf, "ownerId"));
    assert_false(facts_tenant_alias(A, &pf, "orderId"));
    assert_false(facts_tenant_alias(A, NULL, "coachId"));
    /* partitions of a prefix and one id (low-cardinality-pk) */
    assert_true(facts_id_partition(A, &pf, "ORDER"));
    assert_true(facts_id_partition(A, &pf, "tenant"));
    assert_false(facts_id_partition(A, &pf, "STATUS"));
    assert_false(facts_id_partition(A, &pf, "GSI"));
    assert_false(facts_id_partition(A, &pf, "MEMBER"));
}

static void test_facts_ties_and_helpers(void **state)
{
    (void)state;
    ProjectFacts pf;
    /* a tie goes to the lowest character... */
    FileIR *t = new_file("t.ts");
    add_key(t, ROLE_SK, SITE_WRITE, segs(2, text("B|"), ref("x")));
    add_key(t, ROLE_SK, SITE_WRITE, segs(2, text("A:"), ref("x")));
    FileIR *tf[] = { t };
    facts_compute(&pf, A, tf, 1, C);
    assert_int_equal(pf.dominant_separator, ':');
    /* ...unless the configured separator is among the tied */
    add_key(t, ROLE_SK, SITE_WRITE, segs(2, text("C#"), ref("x")));
    facts_compute(&pf, A, tf, 1, C);
    assert_int_equal(pf.dominant_separator, '#');

    FileIR *f = new_file("a.ts");
    add_key(f, ROLE_SK, SITE_WRITE, segs(2, text("A:"), ref("x")));
    add_key(f, ROLE_SK, SITE_WRITE, segs(2, text("B|"), ref("x")));
    add_key(f, ROLE_SK, SITE_WRITE, segs(2, text("C#"), ref("x")));
    /* a helper's output at a call site is not counted again */
    add_key(f, ROLE_SK, SITE_READ, segs(2, textf("D:", SEGF_HELPER, "h"),
                                        reff("x", SEGF_HELPER)));
    /* helper definitions of partition keys without tenant */
    KeyExpr h = { .role = ROLE_PK, .site = SITE_HELPER, .op = -1,
                  .attr = "generateOrderPk",
                  .segs = *segs(2, text("ORDER#"), reff("orderId", SEGF_PARAM)) };
    VEC_PUSH(A, &f->keys, h);
    KeyExpr h2 = { .role = ROLE_PK, .site = SITE_HELPER, .op = -1,
                   .attr = "generateProductPk",
                   .segs = *segs(2, text("PRODUCT#"),
                                 reff("tenantCode", SEGF_PARAM)) };
    VEC_PUSH(A, &f->keys, h2);
    FileIR *files[] = { f };
    facts_compute(&pf, A, files, 1, C);
    assert_int_equal(pf.separator_uses[':'], 1);
    assert_int_equal(pf.separator_uses['#'], 3);
    assert_int_equal(pf.dominant_separator, '#');
    assert_int_equal(pf.untenanted_helper_pks.n, 1);
    assert_string_equal(pf.untenanted_helper_pks.v[0], "ORDER#{}");
    assert_true(pf.has_tenant_keys);
}

/* The facts of a project do not depend on how its keys are spread over
 * files: each file's part is built on its own and the parts are added up
 * (facts_merge), which must give what one pass over all keys gives. */
static void add_split_keys(FileIR *const *files, size_t nfiles, size_t cut)
{
    struct { const char *code, *sep, *sep_name; KeyRole role; } keys[] = {
        {"GA", "#", "KEY_SEPARATOR", ROLE_PK}, {"UM", "#", "KEY_SEPARATOR", ROLE_SK},
        {"GA", ":", "COLON", ROLE_SK},         {"PX", "#", "SEP", ROLE_PK},
        {"UM", "#", "KEY_SEPARATOR", ROLE_PK}, {"QQ", ":", "COLON", ROLE_SK},
    };
    size_t nkeys = sizeof keys / sizeof *keys;
    for (size_t i = 0; i < nkeys; i++) {
        FileIR *f = files[nfiles == 1 || i < cut ? 0 : 1];
        add_key(f, keys[i].role, SITE_WRITE,
                segs(4, text(keys[i].code), ref("groupId"),
                     textf(keys[i].sep, SEGF_CONST | SEGF_SEPARATOR, keys[i].sep_name),
                     ref(i % 2 ? "tenantId" : "id")));
    }
}

static void test_facts_split_over_files(void **state)
{
    (void)state;
    ProjectFacts whole;
    FileIR *one = new_file("one.ts");
    add_split_keys(&one, 1, 0);
    facts_compute(&whole, A, &one, 1, C);
    assert_int_equal(whole.fixed_code_width, 2);
    for (size_t cut = 0; cut <= 6; cut++) {
        FileIR *two[] = { new_file("a.ts"), new_file("b.ts") };
        add_split_keys(two, 2, cut);
        ProjectFacts pf;
        facts_compute(&pf, A, two, 2, C);
        assert_int_equal(pf.fixed_code_width, whole.fixed_code_width);
        assert_int_equal(pf.has_tenant_keys, whole.has_tenant_keys);
        assert_memory_equal(pf.separator_uses, whole.separator_uses,
                            SEPARATOR_CHARS * sizeof *pf.separator_uses);
        assert_string_equal(pf.separator_const, whole.separator_const);
        assert_int_equal(pf.const_texts.n, whole.const_texts.n);
        for (size_t i = 0; i < pf.const_texts.n; i++) {
            assert_string_equal(pf.const_texts.v[i].name, whole.const_texts.v[i].name);
            assert_int_equal(pf.const_texts.v[i].in_key, whole.const_texts.v[i].in_key);
        }
    }
    /* a code of another width in the second file: no fixed width */
    FileIR *mixed[] = { new_file("a.ts"), new_file("b.ts") };
    add_split_keys(mixed, 2, 3);
    add_key(mixed[1], ROLE_SK, SITE_WRITE,
            segs(2, text("ABC"), ref("id")));
    ProjectFacts pf;
    facts_compute(&pf, A, mixed, 2, C);
    assert_int_equal(pf.fixed_code_width, 0);
}

/* The editor's facts are a fold kept between analyses (FactsFold): an
 * analysis takes away what the re-resolved files had added and adds their
 * new parts. The old sum, less the old parts, plus the new ones must be
 * the fold over every file from nothing (facts_compute), for every lookup:
 * the constants of a text and their order, a pair's module and fixedness,
 * the separators' counts and first keys. Files made from a seed, so that
 * their pairs, separators and mutated names overlap. */
static const char *const fold_texts[] = {"ORDER", "ORDER#", "USER", "#", "T1", "INVOICE", "NONE"};
static const char *const fold_names[] = {"ORDER_PREFIX", "Keys.ORDER", "orderType", "USER_PK",
                                         "SEP", "KEY_SEPARATOR", "Legacy.ORDER", "TASK"};

static uint32_t fold_rand(uint32_t *r)
{
    *r = *r * 1103515245u + 12345u;
    return (*r >> 16) & 0x7fff;
}

static FileIR *fold_file(const char *path, uint32_t seed, Arena **resolved)
{
    FileIR *f = new_file(path);
    uint32_t r = seed;
    for (uint32_t i = 0, n = fold_rand(&r) % 5; i < n; i++) {
        ConstDef c = {.name = fold_names[fold_rand(&r) % 8], .exported = fold_rand(&r) % 2,
                      .fixed = fold_rand(&r) % 3 != 0};
        seglist_push(A, &c.value, text(fold_texts[fold_rand(&r) % 6]));
        fileir_add_const(f, c);
    }
    for (uint32_t i = 0, n = fold_rand(&r) % 4; i < n; i++) {
        uint32_t kind = fold_rand(&r) % 3;
        bool colon = fold_rand(&r) % 3 == 0;
        Seg sep = textf(colon ? ":" : "#", SEGF_CONST | SEGF_SEPARATOR,
                        colon ? "COLON" : fold_names[4 + fold_rand(&r) % 2]);
        if (kind == 0)
            add_key(f, ROLE_PK, SITE_WRITE,
                    segs(3, textf(fold_texts[fold_rand(&r) % 6], SEGF_CONST,
                                  fold_names[fold_rand(&r) % 8]),
                         sep, ref(fold_rand(&r) % 2 ? "tenantId" : "id")));
        else if (kind == 1)
            add_key(f, ROLE_SK, SITE_WRITE, segs(2, text(fold_rand(&r) % 2 ? "GA" : "UMX"),
                                                 ref("groupId")));
        else
            add_key(f, ROLE_SK, SITE_READ, segs(3, text("ITEM"), sep, ref("id")));
        f->keys.v[f->keys.n - 1].span.start_byte = 10 * (seed % 1000) + i;
    }
    if (fold_rand(&r) % 3 == 0)
        strlist_push(A, &f->mutated, fold_rand(&r) % 2 ? "Keys" : "Legacy");
    f->resolved = *resolved = arena_new();
    return f;
}

static void same_name(const char *x, const char *y)
{
    if (!x || !y)
        assert_ptr_equal(x, y);
    else
        assert_string_equal(x, y);
}

static void fold_same_facts(const ProjectFacts *inc, const ProjectFacts *whole)
{
    for (size_t t = 0; t < sizeof fold_texts / sizeof *fold_texts; t++) {
        const char *text = fold_texts[t];
        same_name(facts_const_for_text(inc, text), facts_const_for_text(whole, text));
        same_name(facts_const_for_token(inc, text), facts_const_for_token(whole, text));
        assert_int_equal(facts_consts_holding(inc, text), facts_consts_holding(whole, text));
        const char *a[16], *b[16];
        size_t na = facts_consts_for_text(inc, text, a, 16);
        assert_int_equal(na, facts_consts_for_text(whole, text, b, 16));
        for (size_t i = 0; i < na && i < 16; i++)
            assert_string_equal(a[i], b[i]);
        na = facts_whole_key_consts(inc, text, a, 16);
        assert_int_equal(na, facts_whole_key_consts(whole, text, b, 16));
        for (size_t i = 0; i < na && i < 16; i++)
            assert_string_equal(a[i], b[i]);
        for (size_t n = 0; n < sizeof fold_names / sizeof *fold_names; n++) {
            same_name(facts_const_module(inc, text, fold_names[n]),
                      facts_const_module(whole, text, fold_names[n]));
            assert_int_equal(facts_const_fixed(inc, text, fold_names[n]),
                             facts_const_fixed(whole, text, fold_names[n]));
        }
    }
    assert_memory_equal(inc->separator_uses, whole->separator_uses,
                        SEPARATOR_CHARS * sizeof *inc->separator_uses);
    for (int c = 0; c < 128; c++) {
        same_name(inc->separator_first[c].path, whole->separator_first[c].path);
        assert_int_equal(inc->separator_first[c].span.start_byte,
                         whole->separator_first[c].span.start_byte);
    }
    assert_int_equal(inc->dominant_separator, whole->dominant_separator);
    same_name(inc->separator_const, whole->separator_const);
    same_name(inc->separator_const_value, whole->separator_const_value);
    assert_int_equal(inc->has_tenant_keys, whole->has_tenant_keys);
    assert_int_equal(inc->fixed_code_width, whole->fixed_code_width);
    assert_int_equal(inc->updated_attrs.n, whole->updated_attrs.n);
    assert_int_equal(inc->tenant_scoped.n, whole->tenant_scoped.n);
}

static void test_facts_fold_incremental(void **state)
{
    (void)state;
    enum { NF = 9, ROUNDS = 60 };
    static const char *const paths[NF] = {"a.ts", "b.ts", "c.ts", "d.ts", "e.ts",
                                          "f.ts", "g.ts", "h.ts", "i.ts"};
    FileIR *files[NF];
    Arena *resolved[NF + 2 * ROUNDS] = {0};
    size_t nres = 0;
    for (size_t i = 0; i < NF; i++)
        files[i] = fold_file(paths[i], (uint32_t)(7 * i + 1), &resolved[nres++]);
    FactsFold *fold = NULL;
    uint32_t r = 42;
    size_t n = NF;
    for (int round = 0; round <= ROUNDS; round++) {
        if (round) {
            /* one file or two resolved again with new keys and constants
             * (their parts go), or the last file dropped and added back
             * (another number of files: the fold is made again) */
            for (uint32_t k = 0, m = 1 + fold_rand(&r) % 2; k < m; k++) {
                size_t at = fold_rand(&r) % NF;
                files[at] = fold_file(paths[at], fold_rand(&r), &resolved[nres++]);
            }
            n = round % 17 == 0 ? NF - 1 : NF;
        }
        Arena *fa = arena_new(), *wa = arena_new();
        ProjectFacts inc, whole;
        facts_compute_keeping(&inc, fa, files, n, C, &fold);
        facts_compute(&whole, wa, files, n, C);
        fold_same_facts(&inc, &whole);
        /* a second analysis with no part changed adds nothing */
        ProjectFacts again;
        Arena *ga = arena_new();
        facts_compute_keeping(&again, ga, files, n, C, &fold);
        fold_same_facts(&again, &whole);
        arena_free(fa);
        arena_free(wa);
        arena_free(ga);
    }
    facts_fold_free(fold);
    for (size_t i = 0; i < nres; i++)
        arena_free(resolved[i]);
}

static void test_facts_many_constants(void **state)
{
    (void)state;
    FileIR *f = new_file("a.ts");
    for (int round = 0; round < 2; round++) {
        for (int i = 0; i < 300; i++) {
            ConstDef c = { .name = arena_printf(A, "C%d_PREFIX", i) };
            seglist_push(A, &c.value, text(arena_printf(A, "T%d#", i % 150)));
            fileir_add_const(f, c);
        }
    }
    FileIR *files[] = { f };
    ProjectFacts pf;
    facts_compute(&pf, A, files, 1, C);
    assert_int_equal(pf.const_texts.n, 300);
    /* two constants hold T7#, C7 and C157, neither used in a key: which
     * one is meant is a guess, so none is named */
    assert_null(facts_const_for_text(&pf, "T7#"));
    assert_null(facts_const_for_text(&pf, "T149#"));
    assert_int_equal(facts_consts_holding(&pf, "T149#"), 2);
    assert_int_equal(facts_consts_holding(&pf, "T150#"), 0);
    assert_int_equal(facts_consts_holding(&pf, "T7#"), 2);
}

/* Only constants of the key design are offered for a text: used in a key,
 * or named with a word saying so; not an audit event type, nor a name that
 * merely contains "sk" (TASK) or "key" (MONKEY). */
static void test_facts_ambiguous_constants(void **state)
{
    (void)state;
    FileIR *f = new_file("a.ts");
    static const char *const names[] = {"ConfigKeys.NOTIFICATIONS", "DynamoEntity.NOTIFICATIONS",
                                        "OrderKeys.ORDER", "Legacy.ORDER_PREFIX"};
    static const char *const texts[] = {"notifications", "notifications", "ORDER", "ORDER"};
    for (size_t i = 0; i < 4; i++) {
        ConstDef c = { .name = names[i] };
        seglist_push(A, &c.value, text(texts[i]));
        VEC_PUSH(A, &f->consts, c);
    }
    /* Legacy.ORDER_PREFIX is used in a key: it is the one */
    Seg used = text("ORDER");
    used.flags |= SEGF_CONST;
    used.name = "Legacy.ORDER_PREFIX";
    KeyExpr k = { .role = ROLE_PK, .attr = "pk", .site = SITE_WRITE };
    seglist_push(A, &k.segs, used);
    VEC_PUSH(A, &f->keys, k);
    FileIR *files[] = { f };
    ProjectFacts pf;
    facts_compute(&pf, A, files, 1, C);
    assert_null(facts_const_for_text(&pf, "notifications"));
    assert_null(facts_const_for_token(&pf, "notifications"));
    assert_string_equal(facts_const_for_text(&pf, "ORDER"), "Legacy.ORDER_PREFIX");
}

static void test_facts_key_design_constants(void **state)
{
    (void)state;
    FileIR *f = new_file("a.ts");
    static const char *const names[] = {"AUDIT_EVENT.ORDER_CREATED", "TASK_ORDER", "MONKEY",
                                        "OrderKeys.ORDER", "ORDER_PK", "orderPk", "GSI1PK_ORDER",
                                        "Legacy.ORDER_USED"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        ConstDef c = { .name = names[i] };
        seglist_push(A, &c.value, text(arena_printf(A, "V%zu#", i)));
        VEC_PUSH(A, &f->consts, c);
    }
    /* the last one is used in a key */
    Seg used = text("V7#");
    used.flags |= SEGF_CONST;
    used.name = "Legacy.ORDER_USED";
    KeyExpr k = { .role = ROLE_PK, .site = SITE_WRITE, .op = -1,
                  .segs = *segs(2, used, ref("id")) };
    VEC_PUSH(A, &f->keys, k);
    FileIR *files[] = { f };
    ProjectFacts pf;
    facts_compute(&pf, A, files, 1, C);
    assert_null(facts_const_for_text(&pf, "V0#"));
    assert_null(facts_const_for_text(&pf, "V1#"));
    assert_null(facts_const_for_text(&pf, "V2#"));
    assert_string_equal(facts_const_for_text(&pf, "V3#"), "OrderKeys.ORDER");
    assert_string_equal(facts_const_for_text(&pf, "V4#"), "ORDER_PK");
    assert_string_equal(facts_const_for_text(&pf, "V5#"), "orderPk");
    assert_string_equal(facts_const_for_text(&pf, "V6#"), "GSI1PK_ORDER");
    assert_string_equal(facts_const_for_text(&pf, "V7#"), "Legacy.ORDER_USED");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_flatten_merges_text_and_drops_empty, setup, teardown),
        cmocka_unit_test_setup_teardown(test_flatten_hole_only, setup, teardown),
        cmocka_unit_test_setup_teardown(test_label_one_line, setup, teardown),
        cmocka_unit_test_setup_teardown(test_start_code, setup, teardown),
        cmocka_unit_test_setup_teardown(test_all_helper, setup, teardown),
        cmocka_unit_test_setup_teardown(test_helper_output_and_shape, setup, teardown),
        cmocka_unit_test_setup_teardown(test_last_component_and_hole_name, setup, teardown),
        cmocka_unit_test_setup_teardown(test_name_is_date, setup, teardown),
        cmocka_unit_test_setup_teardown(test_name_is_tenant, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ends_with_word, setup, teardown),
        cmocka_unit_test_setup_teardown(test_prefix_suffix_separator_names, setup, teardown),
        cmocka_unit_test_setup_teardown(test_hole_is_tenant_and_date, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tenant_presence, setup, teardown),
        cmocka_unit_test_setup_teardown(test_boundaries_basic, setup, teardown),
        cmocka_unit_test_setup_teardown(test_boundaries_dates_and_versions, setup, teardown),
        cmocka_unit_test_setup_teardown(test_boundaries_helper_flag, setup, teardown),
        cmocka_unit_test_setup_teardown(test_char_classes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_versioned, setup, teardown),
        cmocka_unit_test_setup_teardown(test_leading_prefix, setup, teardown),
        cmocka_unit_test_setup_teardown(test_attr_names, setup, teardown),
        cmocka_unit_test_setup_teardown(test_facts_compute, setup, teardown),
        cmocka_unit_test_setup_teardown(test_facts_split_over_files, setup, teardown),
        cmocka_unit_test_setup_teardown(test_facts_no_tenant_no_separator_const, setup, teardown),
        cmocka_unit_test_setup_teardown(test_facts_tenant_from_environment, setup, teardown),
        cmocka_unit_test_setup_teardown(test_facts_tenant_aliases, setup, teardown),
        cmocka_unit_test_setup_teardown(test_facts_ties_and_helpers, setup, teardown),
        cmocka_unit_test_setup_teardown(test_looks_like_id, setup, teardown),
        cmocka_unit_test_setup_teardown(test_facts_many_constants, setup, teardown),
        cmocka_unit_test_setup_teardown(test_facts_fold_incremental, setup, teardown),
        cmocka_unit_test_setup_teardown(test_facts_ambiguous_constants, setup, teardown),
        cmocka_unit_test_setup_teardown(test_facts_key_design_constants, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Unit tests for linter/core: arenas (alignment, packed strings, a
 * reserved first block that holds a known set of allocations, blocks
 * handed on through a pool) and the
 * copier (interned strings, maps that still find their names). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "arena.h"
#include "common.h"
#include "copy.h"

static void strings_are_packed(void **state)
{
    (void)state;
    Arena *a = arena_new();
    char *x = arena_strdup(a, "pk");
    char *y = arena_strdup(a, "GSI1SK");
    char *z = arena_printf(a, "%s#%d", "ORDER", 7);
    assert_ptr_equal(y, x + 3); /* "pk\0" and no padding */
    assert_ptr_equal(z, y + 7);
    assert_string_equal(z, "ORDER#7");
    /* what follows text is aligned again, and zeroed */
    uint64_t *n = arena_alloc(a, 3 * sizeof *n);
    assert_int_equal((uintptr_t)n % 16, 0);
    assert_true(n[0] == 0 && n[1] == 0 && n[2] == 0);
    assert_null(arena_strdup(a, NULL));
    /* a dotted name is packed too, and reads as printf's would */
    char *d = arena_dot(a, "Keys", "ORDER");
    assert_string_equal(d, "Keys.ORDER");
    assert_string_equal(arena_dot(a, "", ""), ".");
    assert_string_equal(arena_dot(a, NULL, "x"), arena_printf(a, "%s.%s", (char *)NULL, "x"));
    arena_free(a);
}

/* The same allocations, made in a reserved arena, land in its first block. */
static void *record(Arena *a, int i, size_t *size)
{
    if (i % 3 == 0) {
        char text[64];
        int n = snprintf(text, sizeof text, "text-%d-%.*s", i, i % 40, "abcdefghijklmnopqrstuvwxyzabcdefghijklmn");
        *size = (size_t)n + 1;
        return arena_strdup(a, text);
    }
    *size = (size_t)(i % 7) * 24 + 8;
    return arena_alloc(a, *size);
}

static void reserved_arena_holds_a_measured_copy(void **state)
{
    (void)state;
    enum { N = 5000 };
    Arena *first = arena_new();
    size_t size;
    for (int i = 0; i < N; i++)
        record(first, i, &size);
    size_t need = arena_used(first);
    arena_free(first);

    Arena *a = arena_new_reserved(need);
    const unsigned char *base = record(a, 0, &size);
    for (int i = 1; i < N; i++) {
        const unsigned char *p = record(a, i, &size);
        assert_true(p > base && p + size <= base + need);
    }
    arena_free(a);
    arena_free(arena_new_reserved(0)); /* no first block: an ordinary arena */
}

/* A pooled arena's blocks go back to its pool when it is freed, and the
 * next pooled arena takes them (the smallest that fits), zeroed as ever;
 * an arena without a pool never does. */
static void pool_hands_blocks_on(void **state)
{
    (void)state;
    ArenaPool *pool = arena_pool_new();
    Arena *a = arena_new_pooled(pool);
    unsigned char *small = arena_alloc(a, 100);
    unsigned char *big = arena_alloc(a, 300000); /* a block of its own */
    memset(small, 0xAB, 100);
    memset(big, 0xCD, 300000);
    arena_free(a);

    Arena *b = arena_new_pooled(pool);
    unsigned char *again = arena_alloc(b, 100);
    assert_ptr_equal(again, small); /* the small block, not the big one */
    for (size_t i = 0; i < 100; i++)
        assert_int_equal(again[i], 0);
    unsigned char *big2 = arena_alloc(b, 200000);
    assert_ptr_equal(big2, big);
    assert_int_equal(big2[199999], 0);
    arena_free(b);

    Arena *c = arena_new(); /* no pool: its own blocks */
    unsigned char *own = arena_alloc(c, 100);
    assert_true(own != small);
    arena_free(c);
    Arena *d = arena_new_pooled(NULL);
    assert_non_null(arena_alloc(d, 8));
    arena_free(d);
    arena_pool_free(pool);
    arena_pool_free(NULL);
}

static void copier_interns_and_keeps_maps(void **state)
{
    (void)state;
    Arena *from = arena_new(), *to = arena_new();
    const char *pk1 = arena_strdup(from, "pk"), *pk2 = arena_strdup(from, "pk");
    NameMap m = {0};
    NumMap nums = {0};
    for (int i = 0; i < 40; i++) {
        namemap_put(from, &m, arena_printf(from, "name%d", i), (size_t)i);
        nummap_put(from, &nums, (uint64_t)i * 1000, (size_t)i + 1);
    }
    StrList l = {0};
    strlist_push(from, &l, pk1);
    strlist_push(from, &l, "sk");

    Copier c = copier_begin(to);
    const char *a = copy_str(&c, pk1), *b = copy_str(&c, pk2);
    assert_ptr_equal(a, b); /* one copy per text */
    assert_ptr_not_equal(a, pk1);
    assert_string_equal(a, "pk");
    assert_null(copy_str(&c, NULL));
    assert_null(copy_array(&c, NULL, 0, 8));
    NameMap m2 = copy_namemap(&c, &m);
    NumMap nums2 = copy_nummap(&c, &nums);
    StrList l2 = copy_strlist(&c, &l);
    copier_end(&c);
    arena_free(from); /* nothing of the copies points into it any more */

    size_t v;
    for (int i = 0; i < 40; i++) {
        char name[16];
        snprintf(name, sizeof name, "name%d", i);
        assert_true(namemap_get(&m2, name, &v));
        assert_int_equal(v, (size_t)i);
        assert_true(nummap_get(&nums2, (uint64_t)i * 1000, &v));
        assert_int_equal(v, (size_t)i + 1);
    }
    assert_false(namemap_get(&m2, "name40", &v));
    assert_int_equal(l2.n, 2);
    assert_int_equal(l2.cap, 2); /* at its length */
    assert_ptr_equal(l2.v[0], a);
    assert_string_equal(l2.v[1], "sk");
    arena_free(to);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(strings_are_packed),
        cmocka_unit_test(reserved_arena_holds_a_measured_copy),
        cmocka_unit_test(pool_hands_blocks_on),
        cmocka_unit_test(copier_interns_and_keeps_maps),
    };
    return cmocka_run_group_tests_name("core", tests, NULL, NULL);
}

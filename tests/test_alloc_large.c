/* test_alloc_large.c: the library's blocks of many megabytes
 * (src/lib/alloc_large.c): rp_realloc_large keeps what the block held
 * when it grows from a small block (plain realloc) to a large one (a fresh
 * block with huge pages on Linux) and on, from NULL too; a shrink keeps
 * the part that is left; every block is written over its whole size, so
 * ASan and valgrind catch a block smaller than asked.
 *
 * Links the library's objects (raypick_internal_dep): alloc_large.c is
 * internal. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../src/lib/internal.h"

/* Fills bytes [from, to) of p with a pattern of their offsets. */
static void fill(unsigned char *p, size_t from, size_t to)
{
    for (size_t i = from; i < to; i++)
        p[i] = (unsigned char)(i * 131u >> 3);
}

/* Whether bytes [0, n) of p hold fill's pattern. */
static bool holds_pattern(const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != (unsigned char)(i * 131u >> 3))
            return false;
    return true;
}

static void growing_keeps_the_contents(void **state)
{
    (void)state;
    /* 1 KiB, 3 MiB (below the huge-page size of two pages), 5 MiB and
       12 MiB (above it), as a scene's arrays grow */
    const size_t sizes[] = {1024, (size_t)3 << 20, (size_t)5 << 20, (size_t)12 << 20};
    unsigned char *p = NULL;
    size_t had = 0;
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        unsigned char *q = rp_realloc_large(p, had, sizes[k]);
        assert_non_null(q);
        assert_true(holds_pattern(q, had));
        fill(q, had, sizes[k]);
        p = q;
        had = sizes[k];
    }
    assert_true(holds_pattern(p, had));
    /* a shrink keeps the part that is left */
    unsigned char *q = rp_realloc_large(p, had, 4096);
    assert_non_null(q);
    assert_true(holds_pattern(q, 4096));
    rp_free_large(q);
}

static void large_from_null_is_a_whole_block(void **state)
{
    (void)state;
    const size_t n = (size_t)9 << 20;
    unsigned char *p = rp_realloc_large(NULL, 0, n);
    assert_non_null(p);
    fill(p, 0, n);
    assert_true(holds_pattern(p, n));
    rp_free_large(p);
    unsigned char *a = rp_alloc_large(n);
    assert_non_null(a);
    fill(a, 0, n);
    assert_true(holds_pattern(a, n));
    rp_free_large(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(growing_keeps_the_contents),
        cmocka_unit_test(large_from_null_is_a_whole_block),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

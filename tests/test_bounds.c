/* test_bounds.c: point in sphere, sphere vs sphere (exact and seed 002's
 * shortcut), and the sqrt(2) radius scaling that makes the shortcut safe. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <cmocka.h>

#include <raypick/raypick.h>
#include "ref_quadric.h"

static rp_sphere sphere(float x, float y, float z, float r)
{
    return (rp_sphere){{x, y, z}, r};
}

/* ---- point in sphere --------------------------------------------------- */

static void point_inside_outside_and_on_the_boundary(void **state)
{
    (void)state;
    rp_sphere s = sphere(1, 2, 3, 2);
    assert_true(rp_sphere_contains_point(&s, (vec3){1, 2, 3}));
    assert_true(rp_sphere_contains_point(&s, (vec3){2, 3, 4}));        /* |d| = 1.73 */
    assert_false(rp_sphere_contains_point(&s, (vec3){3, 4, 3}));       /* |d| = 2.83 */
    /* on the surface: strictly-less says outside (seeds 002 and 003) */
    assert_false(rp_sphere_contains_point(&s, (vec3){3, 2, 3}));
    assert_false(rp_sphere_contains_point(&s, (vec3){1, 2, 1}));
    /* one float step inside the surface is inside */
    assert_true(rp_sphere_contains_point(&s, (vec3){nextafterf(3.0f, 0.0f), 2, 3}));
    assert_true(rp_sphere_contains_point(&s, (vec3){1, 2, nextafterf(1.0f, 2.0f)}));
    /* one float step outside is outside */
    assert_false(rp_sphere_contains_point(&s, (vec3){nextafterf(3.0f, 4.0f), 2, 3}));
}

static void point_in_sphere_rejects_invalid_input(void **state)
{
    (void)state;
    rp_sphere ok = sphere(0, 0, 0, 1);
    assert_true(rp_sphere_contains_point(&ok, (vec3){0, 0, 0}));
    rp_sphere bad[] = {sphere(0, 0, 0, 0), sphere(0, 0, 0, -1), sphere(0, 0, 0, NAN),
                       sphere(0, 0, 0, INFINITY), sphere(NAN, 0, 0, 1), sphere(0, -INFINITY, 0, 1)};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_false(rp_sphere_contains_point(&bad[i], (vec3){0, 0, 0}));
    assert_false(rp_sphere_contains_point(&ok, (vec3){NAN, 0, 0}));
    assert_false(rp_sphere_contains_point(&ok, (vec3){0, INFINITY, 0}));
    assert_false(rp_sphere_contains_point(NULL, (vec3){0, 0, 0}));
    assert_false(rp_sphere_contains_point(&ok, NULL));
}

static void point_in_sphere_matches_double_reference(void **state)
{
    (void)state;
    test_rng g = {0xb0b0001u};
    int inside = 0, n = 0;
    for (int k = 0; k < 100000; k++) {
        const double scale = rng_log(&g, -3, 4);
        rp_sphere s = sphere((float)rng_uniform(&g, -scale, scale), (float)rng_uniform(&g, -scale, scale),
                             (float)rng_uniform(&g, -scale, scale), (float)(scale * rng_log(&g, -2, 0)));
        vec3 p;
        /* points near the surface: |p - c| = r (1 +- 1e-7..1e-1) */
        const double dir[3] = {rng_uniform(&g, -1, 1), rng_uniform(&g, -1, 1), rng_uniform(&g, -1, 1)};
        const double dl = sqrt(ref_dot(dir, dir));
        const double rr = s.radius * (1.0 + (rng_u32(&g) & 1 ? 1 : -1) * rng_log(&g, -7, -1));
        if (dl < 1e-3)
            continue;
        for (int i = 0; i < 3; i++)
            p[i] = (float)(s.center[i] + rr * dir[i] / dl);
        double pc[3];
        ref_sub3f(p, s.center, pc);
        const bool expect = ref_dot(pc, pc) < (double)s.radius * s.radius;
        assert_true(rp_sphere_contains_point(&s, p) == expect);
        inside += expect;
        n++;
    }
    assert_true(inside > n / 4 && inside < n * 3 / 4);
}

/* ---- sphere vs sphere ---------------------------------------------------- */

static void touching_spheres(void **state)
{
    (void)state;
    rp_sphere a = sphere(0, 0, 0, 1), b = sphere(2, 0, 0, 1);
    assert_true(rp_test_sphere_sphere(&a, &b));            /* <=: touching counts */
    assert_true(rp_test_sphere_sphere(&b, &a));
    assert_false(rp_test_sphere_sphere_approx(&a, &b));    /* 4 < 2 is false */
    /* the touching point is on both surfaces: in neither (strict <) */
    assert_false(rp_sphere_contains_point(&a, (vec3){1, 0, 0}));
    assert_false(rp_sphere_contains_point(&b, (vec3){1, 0, 0}));
    /* a float step apart: no longer touching */
    rp_sphere c = sphere(nextafterf(2.0f, 3.0f), 0, 0, 1);
    assert_false(rp_test_sphere_sphere(&a, &c));
    /* different radii, touching along a diagonal: |d| = 5 = 2 + 3 */
    rp_sphere d = sphere(0, 0, 0, 2), e = sphere(3, 4, 0, 3);
    assert_true(rp_test_sphere_sphere(&d, &e));
    rp_sphere e_far = sphere(3, nextafterf(4.0f, 5.0f), 0, 3);
    assert_false(rp_test_sphere_sphere(&d, &e_far));
}

static void apart_and_nested_spheres(void **state)
{
    (void)state;
    rp_sphere a = sphere(0, 0, 0, 1), far = sphere(3, 0, 0, 1);
    assert_false(rp_test_sphere_sphere(&a, &far));
    assert_false(rp_test_sphere_sphere_approx(&a, &far));
    rp_sphere big = sphere(0, 0, 0, 5), inner = sphere(1, 0, 0, 1);
    assert_true(rp_test_sphere_sphere(&big, &inner));
    assert_true(rp_test_sphere_sphere(&inner, &big));
    assert_true(rp_test_sphere_sphere_approx(&big, &inner));
    rp_sphere same = sphere(1, 0, 0, 1);
    assert_true(rp_test_sphere_sphere(&inner, &same));
    assert_true(rp_test_sphere_sphere_approx(&inner, &same));
}

static void the_shortcut_is_stricter(void **state)
{
    (void)state;
    /* seed 002's shortcut: two unit spheres 1.5 apart overlap, but
       1.5^2 = 2.25 is not < 1 + 1 */
    rp_sphere a = sphere(0, 0, 0, 1), b = sphere(1.5f, 0, 0, 1);
    assert_true(rp_test_sphere_sphere(&a, &b));
    assert_false(rp_test_sphere_sphere_approx(&a, &b));
    /* radii scaled by sqrt(2): 2.25 < 2 + 2 */
    rp_sphere as = a, bs = b;
    as.radius = rp_sphere_radius_for_approx(a.radius);
    bs.radius = rp_sphere_radius_for_approx(b.radius);
    assert_true(rp_test_sphere_sphere_approx(&as, &bs));
    /* exactly touching equal spheres are the worst case: 2r^2 + 2r^2 equals
       (r + r)^2, so only a radius rounded above sqrt(2) r passes the strict
       test */
    rp_sphere t1 = sphere(0, 0, 0, 0.75f), t2 = sphere(1.5f, 0, 0, 0.75f);
    assert_true(rp_test_sphere_sphere(&t1, &t2));
    t1.radius = t2.radius = rp_sphere_radius_for_approx(0.75f);
    assert_true(rp_test_sphere_sphere_approx(&t1, &t2));
    assert_true((double)t1.radius > 0.75 * sqrt(2.0));
}

static void scaled_radius_edge_cases(void **state)
{
    (void)state;
    assert_true(rp_sphere_radius_for_approx(0.0f) == 0.0f);
    assert_true(rp_sphere_radius_for_approx(-1.0f) == 0.0f);
    assert_true(rp_sphere_radius_for_approx(NAN) == 0.0f);
    assert_true(rp_sphere_radius_for_approx(INFINITY) == 0.0f);
    assert_true(rp_sphere_radius_for_approx(FLT_MAX) == 0.0f);        /* would overflow */
    const float denorm = ldexpf(1.0f, -148);
    assert_true((double)rp_sphere_radius_for_approx(denorm) > denorm * sqrt(2.0));
    const float big = 2e38f;
    assert_true((double)rp_sphere_radius_for_approx(big) > big * sqrt(2.0));
    /* just above sqrt(2) r, never more than two float steps above */
    for (float r = 1e-3f; r < 1e3f; r *= 1.37f) {
        const float s = rp_sphere_radius_for_approx(r);
        assert_true((double)s > r * sqrt(2.0));
        assert_true((double)nextafterf(nextafterf((float)(r * sqrt(2.0)), 0.0f), 0.0f) < s);
        assert_true(s <= nextafterf(nextafterf((float)(r * sqrt(2.0)), INFINITY), INFINITY));
    }
}

static void sphere_sphere_rejects_invalid_input(void **state)
{
    (void)state;
    rp_sphere ok = sphere(0, 0, 0, 1);
    assert_true(rp_test_sphere_sphere(&ok, &ok));
    assert_true(rp_test_sphere_sphere_approx(&ok, &ok));
    rp_sphere bad[] = {sphere(0, 0, 0, 0), sphere(0, 0, 0, -1), sphere(0, 0, 0, NAN),
                       sphere(0, 0, 0, INFINITY), sphere(NAN, 0, 0, 1), sphere(0, 0, INFINITY, 1)};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_false(rp_test_sphere_sphere(&ok, &bad[i]));
        assert_false(rp_test_sphere_sphere(&bad[i], &ok));
        assert_false(rp_test_sphere_sphere_approx(&ok, &bad[i]));
        assert_false(rp_test_sphere_sphere_approx(&bad[i], &ok));
    }
    assert_false(rp_test_sphere_sphere(NULL, &ok));
    assert_false(rp_test_sphere_sphere(&ok, NULL));
    assert_false(rp_test_sphere_sphere_approx(NULL, &ok));
    assert_false(rp_test_sphere_sphere_approx(&ok, NULL));
    /* huge but valid: squares overflow float, not the test */
    rp_sphere h1 = sphere(-3e38f, 0, 0, 3e38f), h2 = sphere(3e38f, 0, 0, 3e38f);
    assert_true(rp_test_sphere_sphere(&h1, &h2));
    assert_false(rp_test_sphere_sphere_approx(&h1, &h2));
}

/* A pair of spheres, often right at the touching boundary. */
static void random_pair(test_rng *g, rp_sphere *a, rp_sphere *b)
{
    const double scale = rng_log(g, -3, 4);
    const unsigned kind = rng_u32(g) % 4;
    a->radius = (float)(scale * rng_log(g, -2, 0));
    b->radius = kind == 0 ? a->radius : (float)(scale * rng_log(g, -2, 0));
    double dir[3] = {rng_uniform(g, -1, 1), rng_uniform(g, -1, 1), rng_uniform(g, -1, 1)};
    if (kind == 1) {   /* along an axis: exact float distances */
        dir[0] = 1;
        dir[1] = dir[2] = 0;
        if (rng_u32(g) % 2)
            b->radius = a->radius;
    }
    const double dl = sqrt(ref_dot(dir, dir)) + 1e-300;
    const double sum = (double)a->radius + b->radius;
    /* distance: anywhere in 0..2 sums, or within 1e-8..1e-2 of touching */
    const double dist = rng_u32(g) % 2 ? sum * rng_uniform(g, 0, 2)
                                       : sum * (1.0 + (rng_u32(g) & 1 ? 1 : -1) * rng_log(g, -8, -2));
    for (int i = 0; i < 3; i++) {
        a->center[i] = (float)rng_uniform(g, -scale, scale);
        b->center[i] = (float)(a->center[i] + dist * dir[i] / dl);
    }
    if (kind == 1 && rng_u32(g) % 2)   /* exactly touching on the axis */
        b->center[0] = a->center[0] + (a->radius + b->radius);
}

static void approx_implies_exact_and_scaled_exact_implies_approx(void **state)
{
    (void)state;
    test_rng g = {0xb0b0002u};
    int exact_n = 0, approx_n = 0, missed_by_shortcut = 0, scaled_extra = 0, touching = 0;
    int naive_misses = 0;
    const int pairs = 200000;
    for (int k = 0; k < pairs; k++) {
        rp_sphere a, b;
        random_pair(&g, &a, &b);
        const bool exact = rp_test_sphere_sphere(&a, &b);
        const bool approx = rp_test_sphere_sphere_approx(&a, &b);
        /* the shortcut is stricter: approx => exact */
        if (approx)
            assert_true(exact);
        /* scaled by sqrt(2) (rounded up), it never misses: exact => approx */
        rp_sphere as = a, bs = b;
        as.radius = rp_sphere_radius_for_approx(a.radius);
        bs.radius = rp_sphere_radius_for_approx(b.radius);
        const bool scaled = rp_test_sphere_sphere_approx(&as, &bs);
        if (exact)
            assert_true(scaled);
        /* the exact test itself against double arithmetic on the floats */
        double d[3];
        ref_sub3f(a.center, b.center, d);
        const double sum = (double)a.radius + b.radius;
        assert_true(exact == (ref_dot(d, d) <= sum * sum));
        touching += ref_dot(d, d) == sum * sum;
        /* scaling by the nearest float to sqrt(2), in float, is not enough */
        rp_sphere an = a, bn = b;
        an.radius = a.radius * 1.41421356f;
        bn.radius = b.radius * 1.41421356f;
        naive_misses += exact && !rp_test_sphere_sphere_approx(&an, &bn);
        exact_n += exact;
        approx_n += approx;
        missed_by_shortcut += exact && !approx;
        scaled_extra += scaled && !exact;
    }
    printf("    %d pairs: %d overlap, shortcut %d (misses %d), scaled shortcut reports %d "
           "non-touching; %d touch exactly; a plain float sqrt(2) scaling misses %d\n",
           pairs, exact_n, approx_n, missed_by_shortcut, scaled_extra, touching, naive_misses);
    /* the sweep exercises both sides of both implications and the boundary */
    assert_true(exact_n > pairs / 4 && exact_n < pairs * 3 / 4);
    assert_true(missed_by_shortcut > pairs / 20);
    assert_true(scaled_extra > pairs / 50);
    assert_true(touching > pairs / 100);
    assert_true(naive_misses > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(point_inside_outside_and_on_the_boundary),
        cmocka_unit_test(point_in_sphere_rejects_invalid_input),
        cmocka_unit_test(point_in_sphere_matches_double_reference),
        cmocka_unit_test(touching_spheres),
        cmocka_unit_test(apart_and_nested_spheres),
        cmocka_unit_test(the_shortcut_is_stricter),
        cmocka_unit_test(scaled_radius_edge_cases),
        cmocka_unit_test(sphere_sphere_rejects_invalid_input),
        cmocka_unit_test(approx_implies_exact_and_scaled_exact_implies_approx),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

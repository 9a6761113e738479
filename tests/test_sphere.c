/* test_sphere.c: ray vs sphere (rp_intersect_ray_sphere, rp_test_ray_sphere)
 * and ray vs many spheres (rp_intersect_ray_spheres).
 *
 * Built twice: against the library (SSE2 filter where the compiler targets
 * it) and with the library's sources compiled in under RAYPICK_NO_SIMD (the
 * portable filter), so both many-sphere paths meet the same brute force. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <raypick/raypick.h>
#include "ref_quadric.h"

/* ---- helpers ------------------------------------------------------------ */

static rp_hit sentinel_hit(void)
{
    rp_hit h;
    memset(&h, 0xA5, sizeof h);
    return h;
}

/* false and *out byte-for-byte untouched, and the yes/no test agrees */
static void assert_rejected(const rp_ray *ray, const rp_sphere *s)
{
    rp_hit out = sentinel_hit(), ref = sentinel_hit();
    assert_false(rp_intersect_ray_sphere(ray, s, &out));
    assert_memory_equal(&out, &ref, sizeof out);
    assert_false(rp_intersect_ray_sphere(ray, s, NULL));
    assert_false(rp_test_ray_sphere(ray, s));
}

static double len3(const float v[3])
{
    return sqrt((double)v[0] * v[0] + (double)v[1] * v[1] + (double)v[2] * v[2]);
}

/* a unit vector perpendicular to v (non-zero) */
static void perpendicular(const double v[3], double w[3])
{
    w[0] = v[1] - v[2];
    w[1] = v[2] - v[0];
    w[2] = v[0] - v[1];
    if (ref_dot(w, w) < 1e-12 * ref_dot(v, v)) {   /* v along (1, 1, 1) */
        w[0] = v[1];
        w[1] = -v[0];
        w[2] = 0.0;
    }
    const double l = sqrt(ref_dot(w, w));
    for (int i = 0; i < 3; i++)
        w[i] /= l;
}

static double dist3(const float a[3], const float b[3])
{
    double d[3];
    ref_sub3f(a, b, d);
    return sqrt(ref_dot(d, d));
}

/* the same hit, field by field (a struct compare would see padding) */
static void assert_hits_equal(const rp_hit *a, const rp_hit *b)
{
    assert_memory_equal(&a->t, &b->t, sizeof a->t);
    assert_memory_equal(&a->t_enter, &b->t_enter, sizeof a->t_enter);
    assert_memory_equal(&a->t_exit, &b->t_exit, sizeof a->t_exit);
    assert_memory_equal(a->point, b->point, sizeof a->point);
    assert_memory_equal(a->normal, b->normal, sizeof a->normal);
    assert_true(a->inside == b->inside);
}

/* point = origin + t dir, on the surface, normal unit and outward */
static void assert_hit_consistent(const rp_ray *ray, const rp_sphere *s, const rp_hit *h)
{
    assert_true(h->t >= 0.0f);
    assert_true(h->t_enter <= h->t_exit);
    assert_true(h->t == (h->inside ? h->t_exit : h->t_enter));
    assert_true(h->inside == (h->t_enter < 0.0f));
    double scale = 0.0;
    for (int i = 0; i < 3; i++) {
        double expect = (double)ray->origin[i] + (double)h->t * ray->dir[i];
        double tol = 1e-6 * (fabs(ray->origin[i]) + fabs((double)h->t * ray->dir[i])) + 1e-30;
        assert_true(fabs(h->point[i] - expect) <= tol);
        scale = fmax(scale, fabs(h->point[i]));
    }
    assert_true(fabs(dist3(h->point, s->center) - s->radius) <= 1e-5 * s->radius + 4e-7 * scale);
    assert_true(fabs(len3(h->normal) - 1.0) <= 1e-6);
    double pc[3], n[3];
    ref_sub3f(h->point, s->center, pc);
    ref_f2d(h->normal, n);
    assert_true(ref_dot(n, pc) > 0.0);
}

/* ---- fixed cases ---------------------------------------------------------- */

static void hit_from_outside(void **state)
{
    (void)state;
    rp_ray ray = {{0, 0, 0}, {0, 0, -1}};
    rp_sphere s = {{0, 0, -10}, 2};
    rp_hit h;
    assert_true(rp_intersect_ray_sphere(&ray, &s, &h));
    assert_float_equal(h.t, 8.0f, 1e-6f);
    assert_float_equal(h.t_enter, 8.0f, 1e-6f);
    assert_float_equal(h.t_exit, 12.0f, 1e-6f);
    assert_false(h.inside);
    assert_float_equal(h.point[2], -8.0f, 1e-6f);
    assert_float_equal(h.normal[2], 1.0f, 1e-6f);
    assert_float_equal(h.normal[0], 0.0f, 1e-6f);
    assert_hit_consistent(&ray, &s, &h);
    assert_true(rp_test_ray_sphere(&ray, &s));
    assert_true(rp_intersect_ray_sphere(&ray, &s, NULL));

    /* off-centre: entry at z = -10 + sqrt(4 - 1) */
    rp_ray off = {{1, 0, 0}, {0, 0, -1}};
    assert_true(rp_intersect_ray_sphere(&off, &s, &h));
    assert_float_equal(h.t, 10.0f - sqrtf(3.0f), 1e-5f);
    assert_float_equal(h.normal[0], 0.5f, 1e-6f);
    assert_float_equal(h.normal[2], sqrtf(3.0f) / 2.0f, 1e-6f);
    assert_hit_consistent(&off, &s, &h);
}

static void miss_leaves_out_untouched(void **state)
{
    (void)state;
    rp_ray ray = {{0, 0, 0}, {0, 0, -1}};
    rp_sphere s = {{0, 2.5f, -10}, 2};
    assert_rejected(&ray, &s);
    rp_ray sideways = {{0, 0, 0}, {1, 0, 0}};
    rp_sphere ahead = {{0, 0, -10}, 2};
    assert_rejected(&sideways, &ahead);
}

static void tangent_is_a_hit_with_one_root(void **state)
{
    (void)state;
    rp_ray ray = {{1, 0, 0}, {0, 0, -1}};
    rp_sphere s = {{0, 0, -5}, 1};
    rp_hit h;
    assert_true(rp_intersect_ray_sphere(&ray, &s, &h));
    assert_true(h.t_enter == h.t_exit);
    assert_float_equal(h.t, 5.0f, 1e-6f);
    assert_float_equal(h.normal[0], 1.0f, 1e-6f);
    assert_false(h.inside);
    assert_true(rp_test_ray_sphere(&ray, &s));
    /* a hair further out misses */
    rp_ray outside = {{1.0001f, 0, 0}, {0, 0, -1}};
    assert_rejected(&outside, &s);
}

static void origin_inside_hits_the_exit(void **state)
{
    (void)state;
    rp_ray ray = {{0, 0, 0}, {0, 0, -1}};
    rp_sphere s = {{0, 0, 0}, 2};
    rp_hit h;
    assert_true(rp_intersect_ray_sphere(&ray, &s, &h));
    assert_true(h.inside);
    assert_float_equal(h.t, 2.0f, 1e-6f);
    assert_float_equal(h.t_exit, 2.0f, 1e-6f);
    assert_float_equal(h.t_enter, -2.0f, 1e-6f);
    assert_float_equal(h.normal[2], -1.0f, 1e-6f);   /* outward, along dir */
    assert_hit_consistent(&ray, &s, &h);

    /* origin inside, sphere centre behind it: still the exit ahead */
    rp_sphere behind_centre = {{0, 0, 1}, 2};
    assert_true(rp_intersect_ray_sphere(&ray, &behind_centre, &h));
    assert_true(h.inside);
    assert_float_equal(h.t, 1.0f, 1e-6f);
    assert_float_equal(h.t_enter, -3.0f, 1e-6f);
    assert_hit_consistent(&ray, &behind_centre, &h);
}

static void sphere_behind_origin_is_a_miss(void **state)
{
    (void)state;
    rp_ray ray = {{0, 0, 0}, {0, 0, -1}};
    rp_sphere s = {{0, 0, 10}, 2};
    assert_rejected(&ray, &s);
    /* the tutorial's min(s1, s2) would report t = -12 here */
    float t = 0.0f;   /* a value the check below refuses: the call must write it */
    assert_true(textbook_ray_sphere(ray.origin, ray.dir, s.center, s.radius, &t));
    assert_true(t < 0.0f);
}

static void origin_on_surface(void **state)
{
    (void)state;
    rp_sphere s = {{0, 0, -2}, 2};
    rp_hit h;
    /* going in: enters at t = 0 */
    rp_ray in = {{0, 0, 0}, {0, 0, -1}};
    assert_true(rp_intersect_ray_sphere(&in, &s, &h));
    assert_true(h.t == 0.0f && !signbit(h.t));
    assert_float_equal(h.t_exit, 4.0f, 1e-6f);
    /* going out: the exit at t = 0, a surface point at t >= 0 */
    rp_ray out = {{0, 0, 0}, {0, 0, 1}};
    assert_true(rp_intersect_ray_sphere(&out, &s, &h));
    assert_true(h.t == 0.0f && !signbit(h.t));
    assert_float_equal(h.t_enter, -4.0f, 1e-6f);
    assert_float_equal(h.normal[2], 1.0f, 1e-6f);
}

static void t_is_in_units_of_dir(void **state)
{
    (void)state;
    rp_sphere s = {{0, 0, -10}, 2};
    rp_hit unit, scaled, tiny;
    rp_ray r1 = {{0, 0, 0}, {0, 0, -1}};
    rp_ray r4 = {{0, 0, 0}, {0, 0, -4}};
    rp_ray rsmall = {{0, 0, 0}, {0, 0, -1e-3f}};
    assert_true(rp_intersect_ray_sphere(&r1, &s, &unit));
    assert_true(rp_intersect_ray_sphere(&r4, &s, &scaled));
    assert_true(rp_intersect_ray_sphere(&rsmall, &s, &tiny));
    assert_float_equal(scaled.t, unit.t / 4.0f, 1e-6f);
    assert_float_equal(scaled.t_exit, unit.t_exit / 4.0f, 1e-6f);
    assert_float_equal(tiny.t, unit.t * 1000.0f, 1e-2f);
    for (int i = 0; i < 3; i++) {   /* same point, same normal */
        assert_float_equal(scaled.point[i], unit.point[i], 1e-5f);
        assert_float_equal(tiny.normal[i], unit.normal[i], 1e-6f);
    }
}

static void invalid_input_is_rejected(void **state)
{
    (void)state;
    const rp_ray ok = {{0, 0, 0}, {0, 0, -1}};
    const rp_sphere s = {{0, 0, -10}, 2};
    rp_hit h;
    assert_true(rp_intersect_ray_sphere(&ok, &s, &h));   /* the baseline hits */

    rp_ray bad = ok;
    bad.origin[1] = NAN;
    assert_rejected(&bad, &s);
    bad = ok;
    bad.dir[0] = INFINITY;
    assert_rejected(&bad, &s);
    bad = ok;
    bad.origin[2] = -INFINITY;
    assert_rejected(&bad, &s);
    bad = ok;
    bad.dir[2] = 0.0f;
    assert_rejected(&bad, &s);             /* zero direction */
    assert_rejected(NULL, &s);
    assert_rejected(&ok, NULL);

    rp_sphere bs = s;
    bs.radius = 0.0f;
    assert_rejected(&ok, &bs);
    bs.radius = -2.0f;
    assert_rejected(&ok, &bs);
    bs.radius = NAN;
    assert_rejected(&ok, &bs);
    bs.radius = INFINITY;
    assert_rejected(&ok, &bs);
    bs = s;
    bs.center[0] = NAN;
    assert_rejected(&ok, &bs);
    bs = s;
    bs.center[2] = -INFINITY;
    assert_rejected(&ok, &bs);
}

static void huge_values_do_not_overflow(void **state)
{
    (void)state;
    rp_hit h;
    /* coordinates near 1e30: squares overflow float, not the solver */
    rp_ray ray = {{-3e30f, 0, 0}, {1, 0, 0}};
    rp_sphere s = {{1e30f, 0, 0}, 1e30f};
    assert_true(rp_intersect_ray_sphere(&ray, &s, &h));
    assert_float_equal(h.t / 3e30f, 1.0f, 1e-6f);
    assert_float_equal(h.normal[0], -1.0f, 1e-6f);
    assert_hit_consistent(&ray, &s, &h);

    /* t = 2e38 / 1e-30: a real hit that float cannot express: false, untouched */
    rp_ray slow = {{-1e38f, 0, 0}, {1e-30f, 0, 0}};
    rp_sphere far = {{1e38f, 0, 0}, 1e37f};
    assert_rejected(&slow, &far);

    /* largest floats: the line meets the sphere at t = 4/3, but that point
       has z = 4/3 FLT_MAX, beyond float: false, not inf */
    rp_ray big = {{-FLT_MAX, FLT_MAX, 0}, {FLT_MAX, -FLT_MAX, FLT_MAX}};
    rp_sphere bigs = {{FLT_MAX, -FLT_MAX, FLT_MAX}, FLT_MAX};
    assert_rejected(&big, &bigs);
    /* ... and where the point fits, the answer: t = 1/2, at x = -FLT_MAX/2 */
    rp_ray across = {{-FLT_MAX, 0, 0}, {FLT_MAX, 0, 0}};
    rp_sphere half = {{0, 0, 0}, FLT_MAX / 2};
    assert_true(rp_intersect_ray_sphere(&across, &half, &h));
    assert_float_equal(h.t, 0.5f, 1e-6f);
    assert_float_equal(h.t_exit, 1.5f, 1e-6f);
    assert_true(h.point[0] == -FLT_MAX / 2);
    assert_float_equal(h.normal[0], -1.0f, 1e-6f);
    assert_int_equal(rp_intersect_ray_spheres(&across, &half, 1, NULL), 0);
    /* the tiniest ones: denormal radius and direction */
    rp_ray tiny = {{0, 0, 0}, {0, 0, 1e-40f}};
    rp_sphere dot = {{0, 0, 1e-30f}, 1e-40f};
    assert_true(rp_intersect_ray_sphere(&tiny, &dot, &h));
    assert_float_equal(h.t / 1e10f, 1.0f, 1e-3f);
}

/* ---- randomized: 120k rays against the reference ---------------------- */

typedef struct sweep_stats {
    int cases, hits, misses, near_tangent, origin_on_surface, inside, grazing;
} sweep_stats;

static void random_ray_and_sphere(test_rng *g, rp_ray *ray, rp_sphere *s)
{
    const double scale = rng_log(g, -2, 3);
    for (int i = 0; i < 3; i++)
        s->center[i] = (float)rng_uniform(g, -scale, scale);
    s->radius = (float)(scale * rng_log(g, -3, 0));
    const int mode = (int)(rng_u32(g) % 5);
    if (mode == 4) {   /* grazing: the line passes at r (1 +- 1e-7..1e-2) */
        double d[3] = {rng_uniform(g, -1, 1), rng_uniform(g, -1, 1), rng_uniform(g, -1, 1)}, w[3];
        if (ref_dot(d, d) < 1e-6)
            d[0] = 1.0;
        perpendicular(d, w);
        const double side = s->radius * (1.0 + (rng_u32(g) & 1 ? 1 : -1) * rng_log(g, -7, -2));
        const double back = rng_uniform(g, 1, 10) * s->radius;
        const double mag = rng_log(g, -3, 3);
        for (int i = 0; i < 3; i++) {
            ray->origin[i] = (float)(s->center[i] + side * w[i] - back * d[i]);
            ray->dir[i] = (float)(d[i] * mag);
        }
        return;
    }
    for (int i = 0; i < 3; i++)
        ray->origin[i] = mode == 3 ? s->center[i] + (float)rng_uniform(g, -0.55, 0.55) * s->radius
                                   : (float)rng_uniform(g, -scale, scale);
    const double mag = rng_log(g, -3, 3);
    for (int i = 0; i < 3; i++) {
        double aim = mode == 0 ? rng_uniform(g, -1, 1) * scale
                               : s->center[i] + rng_uniform(g, -0.8, 0.8) * s->radius - ray->origin[i];
        ray->dir[i] = (float)(aim / scale * mag);
    }
    if (ray->dir[0] == 0.0f && ray->dir[1] == 0.0f && ray->dir[2] == 0.0f)
        ray->dir[0] = 1.0f;
}

static void check_one(const rp_ray *ray, const rp_sphere *s, sweep_stats *st)
{
    double oc[3], d[3];
    ref_sub3f(ray->origin, s->center, oc);
    ref_f2d(ray->dir, d);
    const ref_hit ref = ref_ray_sphere(oc, d, s->radius);
    rp_hit h;
    const bool got = rp_intersect_ray_sphere(ray, s, &h);
    assert_true(got == rp_test_ray_sphere(ray, s));
    st->cases++;
    st->grazing += fabs(ref.tangency) < 1e-4;
    /* The two explicitly unclassifiable bands: the line grazes the sphere
       (hit or miss hangs on the last bits of the distance), or the origin
       sits on the surface (enter vs exit, hit vs miss at t = 0). */
    if (fabs(ref.tangency) < 1e-9) {
        st->near_tangent++;
        if (got)
            assert_hit_consistent(ray, s, &h);
        return;
    }
    if (fabs(ref.surface) < 1e-9) {
        st->origin_on_surface++;
        if (got)
            assert_hit_consistent(ray, s, &h);
        return;
    }
    if (!ref.hit) {
        assert_false(got);
        st->misses++;
        return;
    }
    assert_true(got);
    st->hits++;
    assert_hit_consistent(ray, s, &h);
    const bool inside = ref.t0 < 0.0;
    st->inside += inside;
    assert_true(h.inside == inside);
    /* t: float rounding of a double-accurate root, plus the solver's double
       error relative to the scene's size */
    const double slack = 1e-10 * (sqrt(ref_dot(oc, oc)) + s->radius) / sqrt(ref_dot(d, d));
    assert_true(fabs(h.t_enter - ref.t0) <= 1.2e-7 * fabs(ref.t0) + slack);
    assert_true(fabs(h.t_exit - ref.t1) <= 1.2e-7 * fabs(ref.t1) + slack);
    /* the normal is the double one: good to float precision */
    const double t = inside ? ref.t1 : ref.t0;
    double n[3];
    for (int i = 0; i < 3; i++)
        n[i] = (oc[i] + t * d[i]) / s->radius;
    for (int i = 0; i < 3; i++)
        assert_true(fabs(h.normal[i] - n[i]) <= 1e-5);
}

static void random_rays_match_reference(void **state)
{
    (void)state;
    test_rng g = {0x5eed0001u};
    sweep_stats st = {0};
    for (int k = 0; k < 120000; k++) {
        rp_ray ray;
        rp_sphere s;
        random_ray_and_sphere(&g, &ray, &s);
        check_one(&ray, &s, &st);
    }
    printf("    %d rays: %d hits (%d from inside), %d misses, %d grazing within 1e-4, "
           "excluded: %d near-tangent, %d origin on surface\n", st.cases, st.hits, st.inside,
           st.misses, st.grazing, st.near_tangent, st.origin_on_surface);
    /* the sweep must exercise every kind of answer, and the excluded bands
       must stay tiny */
    assert_true(st.hits > st.cases / 5);
    assert_true(st.misses > st.cases / 5);
    assert_true(st.inside > st.cases / 50);
    assert_true(st.grazing > st.cases / 20);
    assert_true(st.near_tangent + st.origin_on_surface < st.cases / 1000);
}

/* ---- far and small: where the textbook formula breaks ------------------ */

static void far_small_spheres_are_neither_missed_nor_misplaced(void **state)
{
    (void)state;
    test_rng g = {0x5eed0002u};
    int ours_wrong = 0, book_wrong = 0, checked = 0, hits = 0;
    double ours_worst = 0.0, book_worst = 0.0;
    for (int k = 0; k < 4000; k++) {
        /* radius 0.01 at 1e4..1e5 along a random direction, passing at
           0..2 radii from the centre */
        double u[3] = {rng_uniform(&g, -1, 1), rng_uniform(&g, -1, 1), rng_uniform(&g, -1, 1)};
        double ul = sqrt(ref_dot(u, u));
        double w[3] = {u[1], -u[0], 0};   /* perpendicular to u */
        double wl = sqrt(ref_dot(w, w));
        if (ul < 0.1 || wl < 0.1)
            continue;
        const double dist = rng_log(&g, 4, 5), off = rng_uniform(&g, 0, 2) * 0.01;
        rp_ray ray;
        rp_sphere s;
        s.radius = 0.01f;
        for (int i = 0; i < 3; i++) {
            ray.origin[i] = (float)rng_uniform(&g, -1, 1);
            ray.dir[i] = (float)(u[i] / ul);
            s.center[i] = (float)(ray.origin[i] + dist * u[i] / ul + off * w[i] / wl);
        }
        double oc[3], d[3];
        ref_sub3f(ray.origin, s.center, oc);
        ref_f2d(ray.dir, d);
        const ref_hit ref = ref_ray_sphere(oc, d, s.radius);
        if (fabs(ref.tangency) < 1e-6)
            continue;   /* grazing: no right answer at float precision */
        checked++;
        hits += ref.hit;

        rp_hit h;
        const bool got = rp_intersect_ray_sphere(&ray, &s, &h);
        if (got != ref.hit) {
            ours_wrong++;
        } else if (got) {
            double err = fabs(h.t - ref.t0);
            ours_worst = fmax(ours_worst, err);
            if (err > 0.5 * s.radius)
                ours_wrong++;
        }
        float bt;
        const bool bgot = textbook_ray_sphere(ray.origin, ray.dir, s.center, s.radius, &bt);
        if (bgot != ref.hit) {
            book_wrong++;
        } else if (bgot) {
            double err = fabs(bt - ref.t0);
            book_worst = fmax(book_worst, err);
            if (err > 0.5 * s.radius)
                book_wrong++;
        }
    }
    printf("    far-small: %d cases (%d hits): ours wrong %d (worst t error %.3g), "
           "textbook wrong %d (worst t error %.3g)\n",
           checked, hits, ours_wrong, ours_worst, book_wrong, book_worst);
    assert_true(checked > 3000);
    assert_true(hits > checked / 4 && hits < checked * 3 / 4);
    assert_int_equal(ours_wrong, 0);
    /* t at 1e5 in float has a 0.008 ulp: ours stays within two of them */
    assert_true(ours_worst <= 0.016);
    /* the textbook discriminant is noise here: a large share is wrong */
    assert_true(book_wrong > checked / 10);
}

/* ---- many spheres ---------------------------------------------------------- */

/* the specification: a loop over rp_intersect_ray_sphere keeping the first
   of the smallest t */
static int brute_force(const rp_ray *ray, const rp_sphere *sp, size_t n, rp_hit *out)
{
    int best = -1;
    rp_hit best_hit;
    for (size_t i = 0; i < n; i++) {
        rp_hit h;
        if (rp_intersect_ray_sphere(ray, &sp[i], &h) && (best < 0 || h.t < best_hit.t)) {
            best = (int)i;
            best_hit = h;
        }
    }
    if (best >= 0)
        *out = best_hit;
    return best;
}

static void many_picks_the_nearest(void **state)
{
    (void)state;
    rp_ray ray = {{0, 0, 0}, {0, 0, -1}};
    rp_sphere sp[] = {
        {{0, 0, -30}, 1}, {{0, 0, -10}, 1}, {{0, 0, -20}, 1},
        {{5, 0, -10}, 1},  /* beside the ray */
        {{0, 0, 5}, 1},    /* behind the origin */
    };
    rp_hit h, single;
    assert_int_equal(rp_intersect_ray_spheres(&ray, sp, 5, &h), 1);
    assert_true(rp_intersect_ray_sphere(&ray, &sp[1], &single));
    assert_hits_equal(&h, &single);
    assert_float_equal(h.t, 9.0f, 1e-6f);
    assert_int_equal(rp_intersect_ray_spheres(&ray, sp, 5, NULL), 1);
    /* a sphere around the origin: its exit at t = 2 beats the entry at 9 */
    rp_sphere around[] = {{{0, 0, -10}, 1}, {{0, 0, 0}, 2}};
    assert_int_equal(rp_intersect_ray_spheres(&ray, around, 2, &h), 1);
    assert_true(h.inside);
    assert_float_equal(h.t, 2.0f, 1e-6f);
    /* only spheres behind or beside: nothing */
    rp_hit out = sentinel_hit(), ref = sentinel_hit();
    assert_int_equal(rp_intersect_ray_spheres(&ray, &sp[3], 2, &out), -1);
    assert_memory_equal(&out, &ref, sizeof out);
}

static void many_ties_go_to_the_lowest_index(void **state)
{
    (void)state;
    rp_ray ray = {{0, 0, 0}, {0, 0, -1}};
    rp_sphere same[] = {{{9, 9, -10}, 1}, {{0, 0, -10}, 1}, {{0, 0, -10}, 1}, {{0, 0, -10}, 1}};
    assert_int_equal(rp_intersect_ray_spheres(&ray, same, 4, NULL), 1);
    /* different spheres, same entry t = 9 */
    rp_sphere a = {{0, 0, -10}, 1}, b = {{0, 0, -11}, 2};
    rp_hit ha, hb;
    assert_true(rp_intersect_ray_sphere(&ray, &a, &ha));
    assert_true(rp_intersect_ray_sphere(&ray, &b, &hb));
    assert_true(ha.t == hb.t);
    rp_sphere ab[] = {a, b}, ba[] = {b, a};
    assert_int_equal(rp_intersect_ray_spheres(&ray, ab, 2, NULL), 0);
    assert_int_equal(rp_intersect_ray_spheres(&ray, ba, 2, NULL), 0);
}

static void many_skips_invalid_spheres(void **state)
{
    (void)state;
    rp_ray ray = {{0, 0, 0}, {0, 0, -1}};
    rp_sphere sp[] = {
        {{0, 0, -2}, NAN}, {{0, 0, -3}, -1}, {{0, NAN, -4}, 1}, {{0, 0, -INFINITY}, 1},
        {{0, 0, -5}, INFINITY}, {{0, 0, -6}, 0}, {{INFINITY, 0, -7}, 1}, {{0, 0, -10}, 1},
        {{0, 0, -5}, -2},
    };
    rp_hit h;
    assert_int_equal(rp_intersect_ray_spheres(&ray, sp, 9, &h), 7);
    assert_float_equal(h.t, 9.0f, 1e-6f);
    rp_hit out = sentinel_hit(), ref = sentinel_hit();
    assert_int_equal(rp_intersect_ray_spheres(&ray, sp, 7, &out), -1);   /* all invalid */
    assert_memory_equal(&out, &ref, sizeof out);
}

static void many_rejects_bad_calls(void **state)
{
    (void)state;
    rp_ray ray = {{0, 0, 0}, {0, 0, -1}};
    rp_sphere sp[] = {{{0, 0, -10}, 1}};
    rp_hit out = sentinel_hit(), ref = sentinel_hit();
    assert_int_equal(rp_intersect_ray_spheres(&ray, sp, 0, &out), -1);
    assert_int_equal(rp_intersect_ray_spheres(&ray, NULL, 1, &out), -1);
    assert_int_equal(rp_intersect_ray_spheres(NULL, sp, 1, &out), -1);
    rp_ray zero = {{0, 0, 0}, {0, 0, 0}}, nan = {{0, NAN, 0}, {0, 0, -1}};
    assert_int_equal(rp_intersect_ray_spheres(&zero, sp, 1, &out), -1);
    assert_int_equal(rp_intersect_ray_spheres(&nan, sp, 1, &out), -1);
    assert_memory_equal(&out, &ref, sizeof out);
    assert_int_equal(rp_intersect_ray_spheres(&ray, sp, 1, NULL), 0);
}

/* A sphere placed to stress the filter's bounds: grazing the ray, around
   its origin, just behind it, duplicated, invalid, huge or tiny. */
static void stress_sphere(test_rng *g, const rp_ray *ray, const rp_sphere *prev, size_t n_prev,
                          rp_sphere *s)
{
    const double dl = len3(ray->dir);
    const double u[3] = {ray->dir[0] / dl, ray->dir[1] / dl, ray->dir[2] / dl};
    double w[3];
    perpendicular(u, w);
    const unsigned kind = rng_u32(g) % 100;
    const double r = rng_log(g, -2, 1);
    double along = rng_uniform(g, -20, 100), side = rng_uniform(g, 0, 3) * r;
    s->radius = (float)r;
    if (kind < 15) {            /* grazing: distance r (1 +- 1e-7..1e-3) */
        side = r * (1.0 + (rng_u32(g) & 1 ? 1 : -1) * rng_log(g, -7, -3));
    } else if (kind < 22) {     /* around or at the surface of the origin */
        along = rng_uniform(g, -1, 1) * r;
        side = 0.0;
        s->radius = (float)(fabs(along) * (1.0 + rng_uniform(g, -1e-6, 1e-6)));
        if (!(s->radius > 0.0f))
            s->radius = (float)r;
    } else if (kind < 27) {     /* just behind: centre behind, surface near 0 */
        along = -r * (1.0 + rng_log(g, -7, -2));
        side = 0.0;
    } else if (kind < 32 && n_prev > 0) {
        *s = prev[rng_u32(g) % n_prev];
        return;
    } else if (kind < 36) {     /* invalid */
        const float bad[] = {NAN, INFINITY, -INFINITY, 0.0f, -1.0f};
        s->radius = bad[rng_u32(g) % 5];
    } else if (kind < 39) {     /* huge: coordinates up to ~1e37 */
        const double big = rng_log(g, 15, 37);
        along = big * rng_uniform(g, 0.5, 1);
        s->radius = (float)(big * rng_uniform(g, 0.01, 0.7));
        side = rng_uniform(g, 0, 1.5) * s->radius;
    } else if (kind < 41) {     /* tiny, down to denormals, on the ray */
        s->radius = (float)rng_log(g, -44, -20);
        along = rng_uniform(g, 0, 5);
        side = rng_uniform(g, 0, 1.5) * s->radius;
    }
    for (int i = 0; i < 3; i++)
        s->center[i] = (float)(ray->origin[i] + along * u[i] + side * w[i]);
    if (kind >= 36 && kind < 41)
        return;
    if (rng_u32(g) % 50 == 0)
        s->center[rng_u32(g) % 3] = NAN;
}

static void many_matches_brute_force(void **state)
{
    (void)state;
    test_rng g = {0x5eed0003u};
    static rp_sphere sp[2100];
    const size_t sizes[] = {1, 2, 3, 4, 5, 7, 8, 511, 512, 513, 1023, 1024, 1025, 2049};
    int picked = 0, arrays = 0;
    for (int k = 0; k < 400; k++) {
        const size_t n = k < 14 ? sizes[k] : 1 + rng_u32(&g) % 1200;
        rp_ray ray;
        for (int i = 0; i < 3; i++) {
            ray.origin[i] = (float)rng_uniform(&g, -10, 10);
            ray.dir[i] = (float)(rng_uniform(&g, -1, 1) * rng_log(&g, -3, 3));
        }
        if (len3(ray.dir) == 0.0)
            ray.dir[1] = 1.0f;
        for (size_t i = 0; i < n; i++)
            stress_sphere(&g, &ray, sp, i, &sp[i]);
        rp_hit fast = sentinel_hit(), slow = sentinel_hit();
        const int i_fast = rp_intersect_ray_spheres(&ray, sp, n, &fast);
        const int i_slow = brute_force(&ray, sp, n, &slow);
        assert_int_equal(i_fast, i_slow);
        if (i_fast >= 0) {
            assert_hits_equal(&fast, &slow);
        } else {
            rp_hit ref = sentinel_hit();
            assert_memory_equal(&fast, &ref, sizeof fast);
        }
        picked += i_fast >= 0;
        arrays++;
    }
    printf("    %d arrays, %d with a pick\n", arrays, picked);
    assert_true(picked > arrays / 2);
}

/* Every sphere exactly grazes (within a float or two) a ray that misses
   nothing else: the filter must pass every sphere the exact test hits. */
static void many_filter_keeps_grazing_spheres(void **state)
{
    (void)state;
    test_rng g = {0x5eed0004u};
    int hits = 0, checked = 0;
    for (int k = 0; k < 20000; k++) {
        rp_ray ray;
        for (int i = 0; i < 3; i++) {
            ray.origin[i] = (float)rng_uniform(&g, -100, 100);
            ray.dir[i] = (float)rng_uniform(&g, -1, 1);
        }
        if (len3(ray.dir) < 1e-3)
            continue;
        rp_sphere s;
        const double dl = len3(ray.dir);
        double d[3], w[3];
        ref_f2d(ray.dir, d);
        perpendicular(d, w);
        const double r = rng_log(&g, -3, 2), along = rng_log(&g, -1, 5);
        s.radius = (float)r;
        for (int i = 0; i < 3; i++)
            s.center[i] = (float)(ray.origin[i] + along * ray.dir[i] / dl + r * w[i]);
        const bool single = rp_intersect_ray_sphere(&ray, &s, NULL);
        const int many = rp_intersect_ray_spheres(&ray, &s, 1, NULL);
        assert_int_equal(many, single ? 0 : -1);
        /* and as the 4th of a group of four (the vector path) */
        rp_sphere four[4] = {{{1e6f, 1e6f, 1e6f}, 1}, {{1e6f, 1e6f, 1e6f}, 1},
                             {{1e6f, 1e6f, 1e6f}, 1}, s};
        assert_int_equal(rp_intersect_ray_spheres(&ray, four, 4, NULL), single ? 3 : -1);
        hits += single;
        checked++;
    }
    printf("    %d grazing spheres, %d hit\n", checked, hits);
    assert_true(hits > checked / 10 && hits < checked * 9 / 10);
}

/* The filter's two edge guards, each with a sphere that only they save.
   (The random stress above reaches neither edge reliably.) */
static void many_keeps_spheres_at_the_float_limits(void **state)
{
    (void)state;
    rp_hit single, many;
    /* |centre|^2 overflows float (3.45e38) while (f.u)^2 = 2.72e38 does
       not: the unguarded far-from-line test would see inf - finite > r^2 */
    rp_ray ray = {{0, 0, 0}, {1, 0, 0}};
    rp_sphere huge = {{1.65e19f, 0.855e19f, 0}, 0.95e19f};
    assert_true(rp_intersect_ray_sphere(&ray, &huge, &single));
    assert_int_equal(rp_intersect_ray_spheres(&ray, &huge, 1, &many), 0);
    assert_hits_equal(&single, &many);

    /* Denormal squares: fx^2 and fy^2 are 3.5 denormal steps each and round
       up to 4, so the float |f|^2 = 8 steps while r^2 = 7.4 rounds to 7;
       the origin is really inside (7.00001 < 7.4). Without the absolute
       FLT_MIN slack the filter would call the sphere far from the line. */
    const double step = ldexp(1.0, -149);
    float fx = (float)sqrt(3.5 * step);
    while ((double)fx * fx < 3.5 * step)
        fx = nextafterf(fx, INFINITY);
    const float fx2 = fx * fx, r = (float)sqrt(7.4 * step), r2 = r * r;
    assert_true((double)fx2 == 4.0 * step);     /* the scenario holds */
    assert_true((double)r2 == 7.0 * step);
    assert_true(2.0 * fx * fx < (double)r * r);
    rp_ray up = {{0, 0, 0}, {0, 0, 1}};
    rp_sphere dot = {{fx, fx, 0}, r};
    assert_true(rp_intersect_ray_sphere(&up, &dot, &single));
    assert_true(single.inside);
    assert_int_equal(rp_intersect_ray_spheres(&up, &dot, 1, &many), 0);
    assert_hits_equal(&single, &many);
    /* the same in every lane of the 4- and 8-wide paths and the tails */
    for (int n = 1; n <= 17; n++) {
        for (int k = 0; k < n; k++) {
            rp_sphere arr[17];
            for (int i = 0; i < n; i++)
                arr[i] = (rp_sphere){{9, 9, 9}, 1};   /* beside both rays */
            arr[k] = dot;
            assert_int_equal(rp_intersect_ray_spheres(&up, arr, (size_t)n, NULL), k);
            arr[k] = huge;
            assert_int_equal(rp_intersect_ray_spheres(&ray, arr, (size_t)n, NULL), k);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hit_from_outside),
        cmocka_unit_test(miss_leaves_out_untouched),
        cmocka_unit_test(tangent_is_a_hit_with_one_root),
        cmocka_unit_test(origin_inside_hits_the_exit),
        cmocka_unit_test(sphere_behind_origin_is_a_miss),
        cmocka_unit_test(origin_on_surface),
        cmocka_unit_test(t_is_in_units_of_dir),
        cmocka_unit_test(invalid_input_is_rejected),
        cmocka_unit_test(huge_values_do_not_overflow),
        cmocka_unit_test(random_rays_match_reference),
        cmocka_unit_test(far_small_spheres_are_neither_missed_nor_misplaced),
        cmocka_unit_test(many_picks_the_nearest),
        cmocka_unit_test(many_ties_go_to_the_lowest_index),
        cmocka_unit_test(many_skips_invalid_spheres),
        cmocka_unit_test(many_rejects_bad_calls),
        cmocka_unit_test(many_matches_brute_force),
        cmocka_unit_test(many_filter_keeps_grazing_spheres),
        cmocka_unit_test(many_keeps_spheres_at_the_float_limits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

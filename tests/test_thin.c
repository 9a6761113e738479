/* test_thin.c: closest approach of a ray to points, segments and polylines,
 * with tolerances in world units and in pixels at the hit's depth.
 *
 * The reference is long double and searches rather than solves: the
 * distance from the segment's point a + s (b - a) to the ray is convex in
 * s, so a ternary search over s finds the closest approach without the
 * library's 2x2 system. */
#define CGLM_CLIPSPACE_INCLUDE_ALL   /* the *_lh_* and *_zo builders */

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <float.h>
#include <math.h>
#include <string.h>
#include <cmocka.h>

#include <raypick/raypick.h>
#include "ld_math.h"
#include "ref_camera.h"

#define SENTINEL 0xA5

static void poison(void *p, size_t n)
{
    memset(p, SENTINEL, n);
}

static bool untouched(const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        if (b[i] != SENTINEL)
            return false;
    return true;
}

/* ---- the reference ---------------------------------------------------------- */

typedef struct ref_approach {
    long double t, s, dist;
} ref_approach;

/* The ray's nearest point (t >= 0) to q, and the distance. */
static long double ref_point_ray(const rp_ray *r, const long double q[3], long double *t)
{
    long double dd = 0, qd = 0;
    for (int k = 0; k < 3; k++) {
        dd += (long double)r->dir[k] * r->dir[k];
        qd += (q[k] - r->origin[k]) * r->dir[k];
    }
    *t = ld_max(0.0L, qd / dd);
    long double e = 0;
    for (int k = 0; k < 3; k++) {
        const long double v = q[k] - (r->origin[k] + *t * r->dir[k]);
        e += v * v;
    }
    return ld_sqrt(e);
}

static long double ref_at(const rp_ray *r, const float *a, const float *b, long double s,
                          long double *t)
{
    long double q[3];
    for (int k = 0; k < 3; k++)
        q[k] = a[k] + s * ((long double)b[k] - a[k]);
    return ref_point_ray(r, q, t);
}

static ref_approach ref_segment(const rp_ray *r, const float *a, const float *b)
{
    long double lo = 0, hi = 1, t;
    for (int i = 0; i < 200; i++) {
        const long double m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3;
        if (ref_at(r, a, b, m1, &t) <= ref_at(r, a, b, m2, &t))
            hi = m2;
        else
            lo = m1;
    }
    ref_approach ap;
    ap.s = (lo + hi) / 2;
    ap.dist = ref_at(r, a, b, ap.s, &ap.t);
    return ap;
}

static double scale_of(const rp_ray *r, const float *a, const float *b)
{
    double m = 0;
    for (int k = 0; k < 3; k++)
        m = fmax(m, fmax(fabs(r->origin[k]), fmax(fabs(a[k]), fabs(b[k]))));
    return m + 1.0;
}

static void random_vec(test_rng *g, double lo, double hi, float v[3])
{
    for (int k = 0; k < 3; k++)
        v[k] = (float)rng_uniform(g, lo, hi);
}

/* The reported fields agree with each other. */
static void check_consistent(const rp_ray *r, const float *a, const float *b,
                             const rp_thin_hit *h, double scale)
{
    assert_true(h->t >= 0.0f);
    assert_true(h->s >= 0.0f && h->s <= 1.0f);
    double gap = 0;
    for (int k = 0; k < 3; k++) {
        const double rp = r->origin[k] + (double)h->t * r->dir[k];
        const double sp = a[k] + (double)h->s * ((double)b[k] - a[k]);
        assert_true(fabs(h->ray_point[k] - rp) <= 1e-6 * scale);
        assert_true(fabs(h->point[k] - sp) <= 1e-6 * scale);
        gap += ((double)h->point[k] - h->ray_point[k]) * ((double)h->point[k] - h->ray_point[k]);
    }
    assert_true(fabs(sqrt(gap) - h->distance) <= 1e-6 * scale);
}

/* ---- closest approach against the reference ------------------------------------ */

static void point_distance_matches_reference(void **state)
{
    (void)state;
    test_rng g = {2024};
    int behind = 0;
    for (int n = 0; n < 20000; n++) {
        rp_ray r;
        float p[3];
        random_vec(&g, -100, 100, r.origin);
        random_vec(&g, -1, 1, r.dir);
        glm_vec3_scale(r.dir, (float)rng_log(&g, -3, 3), r.dir);
        random_vec(&g, -100, 100, p);
        rp_thin_hit h;
        assert_true(rp_intersect_ray_point(&r, p, NULL, &h));
        const long double q[3] = {p[0], p[1], p[2]};
        long double t;
        const long double dist = ref_point_ray(&r, q, &t);
        const double scale = scale_of(&r, p, p);
        assert_true(ld_abs(h.distance - dist) <= 1e-6L * scale);
        assert_true(ld_abs(h.t - t) <= 1e-6L * t + 1e-30L);
        assert_true(h.s == 0.0f && h.index == 0);
        assert_memory_equal(h.point, p, sizeof p);
        check_consistent(&r, p, p, &h, scale);
        behind += t == 0;
    }
    assert_true(behind > 5000);   /* points behind the origin: t clamped to 0 */
}

static void segment_distance_matches_reference(void **state)
{
    (void)state;
    test_rng g = {77};
    int interior = 0;
    for (int n = 0; n < 20000; n++) {
        rp_ray r;
        float a[3], b[3];
        random_vec(&g, -50, 50, r.origin);
        random_vec(&g, -1, 1, r.dir);
        glm_vec3_scale(r.dir, (float)rng_log(&g, -2, 2), r.dir);
        random_vec(&g, -50, 50, a);
        if (n % 10 == 0) {   /* nearly parallel to the ray */
            for (int k = 0; k < 3; k++)
                b[k] = a[k] + r.dir[k] * (float)rng_uniform(&g, -30, 30) + (float)rng_uniform(&g, -1e-3, 1e-3);
        } else {
            random_vec(&g, -50, 50, b);
        }
        rp_thin_hit h;
        assert_true(rp_intersect_ray_segment(&r, a, b, NULL, &h));
        const ref_approach ref = ref_segment(&r, a, b);
        const double scale = scale_of(&r, a, b);
        if (ld_abs(h.distance - ref.dist) > 1e-6L * scale)
            fail_msg("case %d: distance %.9g, reference %.9g", n, h.distance, (double)ref.dist);
        check_consistent(&r, a, b, &h, scale);
        /* away from parallel the nearest points are unique: they must match */
        vec3 ab;
        glm_vec3_sub(b, a, ab);
        const float sin_angle = glm_vec3_norm2(ab) > 0
            ? sqrtf(fmaxf(0.0f, 1.0f - powf(glm_vec3_dot(ab, r.dir), 2) /
                                           (glm_vec3_norm2(ab) * glm_vec3_norm2(r.dir))))
            : 0.0f;
        if (sin_angle > 0.05f) {
            assert_true(ld_abs(h.s - ref.s) <= 1e-4L);
            interior += ref.t > 0 && ref.s > 0 && ref.s < 1;
        }
    }
    assert_true(interior > 2000);
}

static void parallel_segment_reports_the_smallest_t(void **state)
{
    (void)state;
    const rp_ray r = {{0, 0, 0}, {2, 0, 0}};
    rp_thin_hit h;
    assert_true(rp_intersect_ray_segment(&r, (vec3){4, 1, 0}, (vec3){10, 1, 0}, NULL, &h));
    assert_float_equal(h.t, 2.0f, 1e-6f);      /* x = 4, in units of dir */
    assert_float_equal(h.s, 0.0f, 1e-6f);
    assert_float_equal(h.distance, 1.0f, 1e-6f);
    assert_true(rp_intersect_ray_segment(&r, (vec3){10, 1, 0}, (vec3){4, 1, 0}, NULL, &h));
    assert_float_equal(h.t, 2.0f, 1e-6f);
    assert_float_equal(h.s, 1.0f, 1e-6f);
    /* starting behind the origin: the origin itself is nearest */
    assert_true(rp_intersect_ray_segment(&r, (vec3){-3, 0, 1}, (vec3){4, 0, 1}, NULL, &h));
    assert_float_equal(h.t, 0.0f, 0.0f);
    assert_float_equal(h.s, 3.0f / 7.0f, 1e-6f);
    /* wholly behind: its near end */
    assert_true(rp_intersect_ray_segment(&r, (vec3){-5, 1, 0}, (vec3){-2, 1, 0}, NULL, &h));
    assert_float_equal(h.t, 0.0f, 0.0f);
    assert_float_equal(h.s, 1.0f, 0.0f);
    assert_float_equal(h.distance, sqrtf(5.0f), 1e-6f);
    /* a segment through the ray: distance 0 at the crossing */
    assert_true(rp_intersect_ray_segment(&r, (vec3){6, -1, -1}, (vec3){6, 1, 1}, NULL, &h));
    assert_float_equal(h.t, 3.0f, 1e-6f);
    assert_float_equal(h.s, 0.5f, 1e-6f);
    assert_float_equal(h.distance, 0.0f, 1e-6f);
    /* a zero-length segment is a point */
    assert_true(rp_intersect_ray_segment(&r, (vec3){6, 2, 0}, (vec3){6, 2, 0}, NULL, &h));
    assert_float_equal(h.t, 3.0f, 1e-6f);
    assert_float_equal(h.s, 0.0f, 0.0f);
    assert_float_equal(h.distance, 2.0f, 1e-6f);
}

/* ---- tolerances ---------------------------------------------------------------------- */

static void world_tolerance_decides_the_hit(void **state)
{
    (void)state;
    const rp_ray r = {{0, 0, 0}, {0, 0, -1}};
    const rp_thin_tolerance tight = {0.49f, 0.0f}, loose = {0.51f, 0.0f}, cone = {0.0f, 0.01f};
    rp_thin_hit h;
    poison(&h, sizeof h);
    assert_false(rp_intersect_ray_point(&r, (vec3){0.5f, 0, -10}, &tight, &h));
    assert_false(rp_intersect_ray_segment(&r, (vec3){0.5f, -1, -10}, (vec3){0.5f, 1, -10},
                                          &tight, &h));
    assert_true(untouched(&h, sizeof h));
    assert_true(rp_intersect_ray_point(&r, (vec3){0.5f, 0, -10}, &loose, &h));
    assert_float_equal(h.t, 10.0f, 1e-6f);
    assert_true(rp_intersect_ray_segment(&r, (vec3){0.5f, -1, -10}, (vec3){0.5f, 1, -10},
                                         &loose, &h));
    assert_float_equal(h.s, 0.5f, 1e-6f);
    /* a tolerance growing with t: 0.1 at t = 10, 0.3 at t = 30 */
    assert_false(rp_intersect_ray_point(&r, (vec3){0.2f, 0, -10}, &cone, &h));
    assert_true(rp_intersect_ray_point(&r, (vec3){0.2f, 0, -30}, &cone, &h));
    /* zero tolerance: only exact touching */
    const rp_thin_tolerance zero = {0, 0};
    assert_true(rp_intersect_ray_point(&r, (vec3){0, 0, -3}, &zero, &h));
    assert_false(rp_intersect_ray_point(&r, (vec3){1e-6f, 0, -3}, &zero, &h));
}

/* A point k pixels right of the cursor at a depth: within `pixels` of the
   pick ray exactly when k is (near the screen's centre, where the screen's
   plane and the plane across the ray agree). */
static void pixel_tolerance_is_pixels_at_every_depth(void **state)
{
    (void)state;
    test_rng g = {555};
    const float pixels = 3.0f;
    for (int n = 0; n < 700; n++) {
        ref_camera cam;
        ref_camera_random(&g, n % REF_CAMERA_KINDS, &cam);
        /* near the view axis's pixel (not the viewport's centre for the
           off-centre frustum): there the ray crosses depth planes square */
        const double ahead[3] = {cam.eye[0] + 10 * cam.forward[0], cam.eye[1] + 10 * cam.forward[1],
                                 cam.eye[2] + 10 * cam.forward[2]};
        double axis_px[3] = {0, 0, 0};
        assert_true(ref_project(&cam, ahead, axis_px));
        const bool ortho = cam.kind == 4 || cam.kind == 5;
        const float x = ortho ? cam.vp.x + cam.vp.width * (float)rng_uniform(&g, 0.1, 0.9)
                              : (float)(axis_px[0] + rng_uniform(&g, -5, 5));
        const float y = ortho ? cam.vp.y + cam.vp.height * (float)rng_uniform(&g, 0.1, 0.9)
                              : (float)(axis_px[1] + rng_uniform(&g, -5, 5));
        rp_ray ray;
        rp_thin_tolerance tol;
        assert_true(rp_pick_ray_unproject(x, y, &cam.vp, cam.proj, cam.view, cam.conv, &ray));
        assert_true(rp_thin_tolerance_pixels(pixels, x, y, &cam.vp, cam.proj, cam.view, cam.conv,
                                             &ray, &tol));
        if (ortho)
            assert_true(tol.per_t <= 1e-5f * tol.world);   /* orthographic: a cylinder */
        else
            assert_true(tol.per_t > 10.0f * tol.world);   /* perspective: nearly a cone */
        const double depth = rng_uniform(&g, 0.0, 1.0);
        const double k_in = pixels * 0.9, k_out = pixels * 1.1;
        vec3 p_in, p_out, q_in, q_out;
        /* the point beside the cursor; a vertical segment through it */
        assert_true(ref_point_at(&cam, x + k_in, y, depth, p_in));
        assert_true(ref_point_at(&cam, x + k_out, y, depth, p_out));
        assert_true(ref_point_at(&cam, x + k_in, y - 40, depth, q_in));
        assert_true(ref_point_at(&cam, x + k_out, y - 40, depth, q_out));
        vec3 q_in2, q_out2;
        assert_true(ref_point_at(&cam, x + k_in, y + 40, depth, q_in2));
        assert_true(ref_point_at(&cam, x + k_out, y + 40, depth, q_out2));
        rp_thin_hit h;
        if (!rp_intersect_ray_point(&ray, p_in, &tol, &h))
            fail_msg("%s: %g px off at depth %g missed", ref_camera_names[cam.kind], k_in, depth);
        if (rp_intersect_ray_point(&ray, p_out, &tol, &h))
            fail_msg("%s: %g px off at depth %g hit", ref_camera_names[cam.kind], k_out, depth);
        assert_true(rp_intersect_ray_segment(&ray, q_in, q_in2, &tol, &h));
        assert_false(rp_intersect_ray_segment(&ray, q_out, q_out2, &tol, &h));
    }
}

/* The same tolerance, whichever pick ray: at one world point both give one
   radius (the D3D9 ray starts at the eye, with a unit dir). */
static void pixel_tolerance_follows_the_rays_units(void **state)
{
    (void)state;
    mat4 proj, view;
    glm_perspective_lh_zo(glm_rad(50.0f), 1.5f, 0.5f, 300.0f, proj);
    glm_lookat_lh((vec3){2, 8, -20}, (vec3){0, 0, 0}, (vec3){0, 1, 0}, view);
    const rp_viewport vp = {0, 0, 1200, 800};
    const float x = 700.5f, y = 300.5f;
    rp_ray a, b;
    rp_thin_tolerance ta, tb;
    assert_true(rp_pick_ray_unproject(x, y, &vp, proj, view, RP_D3D, &a));
    assert_true(rp_pick_ray_perspective(x, y, &vp, proj, view, RP_D3D, &b));
    assert_true(rp_thin_tolerance_pixels(2.0f, x, y, &vp, proj, view, RP_D3D, &a, &ta));
    assert_true(rp_thin_tolerance_pixels(2.0f, x, y, &vp, proj, view, RP_D3D, &b, &tb));
    assert_true(tb.world <= 1e-5f);   /* nothing at the eye */
    vec3 p;
    rp_ray_at(&a, 0.3f, p);            /* a world point on both rays */
    const float tb_p = glm_vec3_distance(p, b.origin) / glm_vec3_norm(b.dir);
    const float ra = ta.world + ta.per_t * 0.3f, rb = tb.world + tb.per_t * tb_p;
    assert_float_equal(ra, rb, 1e-3f * ra);

    /* another pixel's ray, or the ray reversed, is not this cursor's */
    rp_ray other = a, reversed = a;
    assert_true(rp_pick_ray_unproject(x + 5, y, &vp, proj, view, RP_D3D, &other));
    glm_vec3_negate(reversed.dir);
    rp_thin_tolerance t;
    poison(&t, sizeof t);
    assert_false(rp_thin_tolerance_pixels(2.0f, x, y, &vp, proj, view, RP_D3D, &other, &t));
    assert_false(rp_thin_tolerance_pixels(2.0f, x, y, &vp, proj, view, RP_D3D, &reversed, &t));
    assert_false(rp_thin_tolerance_pixels(-1.0f, x, y, &vp, proj, view, RP_D3D, &a, &t));
    assert_false(rp_thin_tolerance_pixels(NAN, x, y, &vp, proj, view, RP_D3D, &a, &t));
    assert_false(rp_thin_tolerance_pixels(2.0f, NAN, y, &vp, proj, view, RP_D3D, &a, &t));
    assert_false(rp_thin_tolerance_pixels(2.0f, x, y, NULL, proj, view, RP_D3D, &a, &t));
    assert_false(rp_thin_tolerance_pixels(2.0f, x, y, &vp, proj, view, (rp_convention)3, &a, &t));
    assert_false(rp_thin_tolerance_pixels(2.0f, x, y, &vp, proj, view, RP_D3D, NULL, &t));
    assert_true(untouched(&t, sizeof t));
}

/* ---- polylines -------------------------------------------------------------------------- */

typedef struct vertex {
    float x, y, z;
    float u, v;   /* padding, as in a vertex buffer */
} vertex;

static void polyline_reports_the_nearest_segment(void **state)
{
    (void)state;
    const vertex path[] = {
        {0, 0, -10, 0, 0}, {4, 0, -10, 0, 0}, {4, 4, -10, 0, 0}, {0, 4, -10, 0, 0},
    };
    const rp_ray down_y3 = {{4.2f, 3, 0}, {0, 0, -1}};   /* 0.2 beside segment 1 */
    const rp_thin_tolerance tol = {0.5f, 0};
    rp_thin_hit h;
    assert_true(rp_intersect_ray_polyline(&down_y3, &path[0].x, 4, sizeof path[0], &tol, &h));
    assert_int_equal(h.index, 1);
    assert_float_equal(h.s, 0.75f, 1e-6f);
    assert_float_equal(h.distance, 0.2f, 1e-6f);
    assert_float_equal(h.t, 10.0f, 1e-6f);
    /* through the shared vertex of segments 1 and 2: the lower index */
    const rp_ray corner = {{4, 4, 0}, {0, 0, -1}};
    assert_true(rp_intersect_ray_polyline(&corner, &path[0].x, 4, sizeof path[0], &tol, &h));
    assert_int_equal(h.index, 1);
    assert_float_equal(h.s, 1.0f, 0.0f);
    /* out of tolerance: nothing, untouched */
    const rp_ray far_off = {{6, 2, 0}, {0, 0, -1}};
    poison(&h, sizeof h);
    assert_false(rp_intersect_ray_polyline(&far_off, &path[0].x, 4, sizeof path[0], &tol, &h));
    assert_true(untouched(&h, sizeof h));
    /* no tolerance: the nearest segment, whatever its distance */
    assert_true(rp_intersect_ray_polyline(&far_off, &path[0].x, 4, sizeof path[0], NULL, &h));
    assert_int_equal(h.index, 1);
    assert_float_equal(h.distance, 2.0f, 1e-6f);
    /* one point */
    assert_true(rp_intersect_ray_polyline(&far_off, &path[2].x, 1, 0, NULL, &h));
    assert_int_equal(h.index, 0);
    assert_float_equal(h.distance, sqrtf(8.0f), 1e-6f);
}

/* With a pixel tolerance the nearest segment is the nearest on screen: a
   far segment one pixel off beats a near one two pixels off, though the
   near one is nearer in world units. */
static void polyline_pixel_tolerance_prefers_the_nearest_on_screen(void **state)
{
    (void)state;
    mat4 proj, view;
    glm_perspective(glm_rad(60.0f), 1.0f, 0.1f, 1000.0f, proj);
    glm_lookat((vec3){0, 0, 0}, (vec3){0, 0, -1}, (vec3){0, 1, 0}, view);
    const rp_viewport vp = {0, 0, 800, 800};
    const float x = 400, y = 400;
    vec3 near_a, near_b, far_a, far_b;   /* vertical segments: near at 2 px, far at 1 px */
    assert_true(rp_unproject_point(x + 2, y - 30, 0.9f, &vp, proj, view, RP_GL, near_a));
    assert_true(rp_unproject_point(x + 2, y + 30, 0.9f, &vp, proj, view, RP_GL, near_b));
    assert_true(rp_unproject_point(x - 1, y - 30, 0.999f, &vp, proj, view, RP_GL, far_a));
    assert_true(rp_unproject_point(x - 1, y + 30, 0.999f, &vp, proj, view, RP_GL, far_b));
    vec3 detour;   /* so the segments joining them pass 20 px from the cursor */
    assert_true(rp_unproject_point(x + 200, y + 200, 0.99f, &vp, proj, view, RP_GL, detour));
    const float path[] = {near_a[0], near_a[1], near_a[2], near_b[0], near_b[1], near_b[2],
                          detour[0], detour[1], detour[2],
                          far_a[0], far_a[1], far_a[2], far_b[0], far_b[1], far_b[2]};
    rp_ray ray;
    rp_thin_tolerance tol;
    assert_true(rp_pick_ray_unproject(x, y, &vp, proj, view, RP_GL, &ray));
    assert_true(rp_thin_tolerance_pixels(3.0f, x, y, &vp, proj, view, RP_GL, &ray, &tol));
    rp_thin_hit h;
    assert_true(rp_intersect_ray_polyline(&ray, path, 5, 0, &tol, &h));
    assert_int_equal(h.index, 3);   /* the far one */
    assert_true(rp_intersect_ray_polyline(&ray, path, 5, 0, NULL, &h));
    assert_int_equal(h.index, 0);   /* in world units, the near one */
}

/* ---- bad input ------------------------------------------------------------------------------ */

static void bad_input_is_refused(void **state)
{
    (void)state;
    const rp_ray ray = {{0, 0, 0}, {0, 0, -1}};
    const rp_ray bad_rays[] = {{{0, 0, 0}, {0, 0, 0}}, {{NAN, 0, 0}, {0, 0, -1}},
                               {{0, 0, 0}, {0, INFINITY, -1}}};
    const rp_thin_tolerance bad_tols[] = {{NAN, 0}, {0, NAN}, {-1, 0}, {0, -0.1f},
                                          {INFINITY, 0}, {0, INFINITY}};
    const float a[3] = {1, 0, -5}, b[3] = {-1, 0, -5}, nan_p[3] = {0, NAN, -5};
    const float line[] = {1, 0, -5, -1, 0, -5, 0, 1, -5};
    rp_thin_hit h;
    poison(&h, sizeof h);
    for (size_t i = 0; i < 3; i++) {
        assert_false(rp_intersect_ray_point(&bad_rays[i], a, NULL, &h));
        assert_false(rp_intersect_ray_segment(&bad_rays[i], a, b, NULL, &h));
        assert_false(rp_intersect_ray_polyline(&bad_rays[i], line, 3, 0, NULL, &h));
    }
    for (size_t i = 0; i < sizeof bad_tols / sizeof bad_tols[0]; i++) {
        assert_false(rp_intersect_ray_point(&ray, a, &bad_tols[i], &h));
        assert_false(rp_intersect_ray_segment(&ray, a, b, &bad_tols[i], &h));
        assert_false(rp_intersect_ray_polyline(&ray, line, 3, 0, &bad_tols[i], &h));
    }
    assert_false(rp_intersect_ray_point(NULL, a, NULL, &h));
    assert_false(rp_intersect_ray_point(&ray, NULL, NULL, &h));
    assert_false(rp_intersect_ray_point(&ray, nan_p, NULL, &h));
    assert_false(rp_intersect_ray_segment(&ray, a, nan_p, NULL, &h));
    assert_false(rp_intersect_ray_segment(&ray, NULL, b, NULL, &h));
    const float nan_line[] = {1, 0, -5, -1, 0, -5, 0, NAN, -5};
    assert_false(rp_intersect_ray_polyline(&ray, nan_line, 3, 0, NULL, &h));
    assert_false(rp_intersect_ray_polyline(&ray, NULL, 3, 0, NULL, &h));
    assert_false(rp_intersect_ray_polyline(&ray, line, 0, 0, NULL, &h));
    assert_false(rp_intersect_ray_polyline(&ray, line, 2, 8, NULL, &h));
    assert_false(rp_intersect_ray_polyline(&ray, line, 1, 13, NULL, &h));
    /* results beyond float range */
    const rp_ray tiny = {{0, 0, 0}, {0, 0, -1e-30f}};
    assert_false(rp_intersect_ray_point(&tiny, (vec3){0, 0, -1e10f}, NULL, &h));
    assert_true(untouched(&h, sizeof h));
    /* the same calls, made right, work */
    assert_true(rp_intersect_ray_point(&ray, a, NULL, &h));
    assert_true(rp_intersect_ray_polyline(&ray, line, 3, 12, NULL, NULL));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(point_distance_matches_reference),
        cmocka_unit_test(segment_distance_matches_reference),
        cmocka_unit_test(parallel_segment_reports_the_smallest_t),
        cmocka_unit_test(world_tolerance_decides_the_hit),
        cmocka_unit_test(pixel_tolerance_is_pixels_at_every_depth),
        cmocka_unit_test(pixel_tolerance_follows_the_rays_units),
        cmocka_unit_test(polyline_reports_the_nearest_segment),
        cmocka_unit_test(polyline_pixel_tolerance_prefers_the_nearest_on_screen),
        cmocka_unit_test(bad_input_is_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_triangle.c: rp_intersect_ray_triangle: hits, faces and
   barycentrics against a double-precision reference; edges and vertices
   (touching counts); rays starting on the triangle; degenerate triangles;
   invalid input; the cheap float check that spares most hits the double
   slack of T (triangle_internal.h) never claims a T clear of it that is
   not. Watertightness on closed meshes is in test_mesh.c. */
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
#include "ref_mesh.h"
#include "triangle_internal.h"   /* rp_tri_t_clear against rp_tri_t_slack */

static const vec3 A = {0, 0, 0}, B = {1, 0, 0}, C = {0, 1, 0};   /* front: +z */

static rp_ray ray3(float ox, float oy, float oz, float dx, float dy, float dz)
{
    return (rp_ray){{ox, oy, oz}, {dx, dy, dz}};
}

static void front_and_back_face_hits(void **state)
{
    (void)state;
    rp_hit h;
    rp_triangle_hit th;
    rp_ray down = ray3(0.25f, 0.5f, 2, 0, 0, -1);
    assert_true(rp_intersect_ray_triangle(&down, A, B, C, &h, &th));
    assert_float_equal(h.t, 2.0f, 1e-6f);
    assert_true(h.t == h.t_enter && h.t == h.t_exit);
    assert_float_equal(h.point[0], 0.25f, 1e-6f);
    assert_float_equal(h.point[1], 0.5f, 1e-6f);
    assert_float_equal(h.point[2], 0.0f, 1e-6f);
    assert_float_equal(h.normal[2], 1.0f, 1e-6f);   /* faces the ray: +z */
    assert_false(h.inside);
    assert_int_equal(th.triangle, 0);
    assert_float_equal(th.u, 0.25f, 1e-6f);   /* point = v0 + u (v1 - v0) + v (v2 - v0) */
    assert_float_equal(th.v, 0.5f, 1e-6f);

    rp_ray up = ray3(0.25f, 0.5f, -4, 0, 0, 2);   /* dir not unit: t in its units */
    assert_true(rp_intersect_ray_triangle(&up, A, B, C, &h, &th));
    assert_float_equal(h.t, 2.0f, 1e-6f);
    assert_float_equal(h.normal[2], -1.0f, 1e-6f);  /* the back face, facing the ray */
    assert_true(h.inside);
    assert_float_equal(th.u, 0.25f, 1e-6f);
    assert_float_equal(th.v, 0.5f, 1e-6f);

    /* NULL outputs are fine and change nothing */
    assert_true(rp_intersect_ray_triangle(&up, A, B, C, NULL, NULL));
}

static void misses_outside_and_behind(void **state)
{
    (void)state;
    rp_hit h = {.t = 42.0f};
    rp_triangle_hit th = {.triangle = 7, .u = 3, .v = 4};
    rp_ray outside = ray3(0.6f, 0.6f, 1, 0, 0, -1);         /* beyond the hypotenuse */
    rp_ray behind = ray3(0.25f, 0.25f, 1, 0, 0, 1);         /* going away */
    rp_ray parallel = ray3(-1, 0.25f, 0, 1, 0, 0);          /* in the plane */
    rp_ray above = ray3(-1, 0.25f, 0.001f, 1, 0, 0);
    const rp_ray *rays[] = {&outside, &behind, &parallel, &above};
    for (size_t i = 0; i < 4; i++)
        assert_false(rp_intersect_ray_triangle(rays[i], A, B, C, &h, &th));
    assert_float_equal(h.t, 42.0f, 0.0f);
    assert_int_equal(th.triangle, 7);
    assert_float_equal(th.u, 3.0f, 0.0f);
}

/* Touching counts: every vertex and edge point of a lone triangle, from
   both sides and from slanted directions. */
static void edges_and_vertices_are_hit(void **state)
{
    (void)state;
    const vec3 pts[] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0.5f, 0, 0}, {0, 0.5f, 0},
                        {0.5f, 0.5f, 0}, {0.25f, 0, 0}, {0, 0.75f, 0}, {0.75f, 0.25f, 0}};
    const vec3 dirs[] = {{0, 0, -1}, {0, 0, 1}, {0.5f, 0.25f, -1}, {-0.5f, 0.5f, 1},
                         {1, 1, -0.5f}, {-2, 0.5f, 0.25f}, {0.125f, -4, 1}};
    for (size_t p = 0; p < sizeof pts / sizeof pts[0]; p++)
        for (size_t d = 0; d < sizeof dirs / sizeof dirs[0]; d++) {
            rp_ray r;
            for (int k = 0; k < 3; k++) {
                r.dir[k] = dirs[d][k];
                r.origin[k] = pts[p][k] - 2.0f * dirs[d][k];   /* exact in float */
            }
            rp_hit h;
            rp_triangle_hit th;
            if (!rp_intersect_ray_triangle(&r, A, B, C, &h, &th))
                fail_msg("point %lu, direction %lu missed", (unsigned long)p, (unsigned long)d);
            assert_float_equal(h.t, 2.0f, 1e-6f);
            assert_float_equal(th.u, pts[p][0], 1e-6f);
            assert_float_equal(th.v, pts[p][1], 1e-6f);
            assert_true(h.inside == (dirs[d][2] > 0));
            /* one float step past a vertex or edge is a miss */
        }
    /* just outside the edge y = 0 and the vertex (1, 0): misses */
    rp_ray r1 = ray3(0.5f, -1e-6f, 1, 0, 0, -1), r2 = ray3(nextafterf(1, 2), 0, 1, 0, 0, -1);
    assert_false(rp_intersect_ray_triangle(&r1, A, B, C, NULL, NULL));
    assert_false(rp_intersect_ray_triangle(&r2, A, B, C, NULL, NULL));
}

/* A ray that starts on the triangle hits it at t = 0, whatever its
   direction (also when the plane equation rounds T below zero). The
   triangle x + y + z = 1 and points with coordinates in 1/64ths: exactly on
   its plane in float, and not aligned with any axis. */
static void ray_starting_on_the_triangle_hits_at_zero(void **state)
{
    (void)state;
    test_rng g = {0x5eed0001u};
    const vec3 p0 = {1, 0, 0}, p1 = {0, 1, 0}, p2 = {0, 0, 1};
    for (int k = 0; k < 5000; k++) {
        int a = 1 + (int)(rng_u32(&g) % 62);
        int b = 1 + (int)(rng_u32(&g) % (uint32_t)(63 - a));
        int c = 64 - a - b;
        rp_ray r = {{a / 64.0f, b / 64.0f, c / 64.0f}, {0, 0, 0}};
        double d[3];
        rand_dir(&g, d);
        double len = rng_log(&g, -1, 1);
        for (int i = 0; i < 3; i++)
            r.dir[i] = (float)(d[i] * len);
        rp_hit h;
        rp_triangle_hit th;
        if (!rp_intersect_ray_triangle(&r, p0, p1, p2, &h, &th))
            fail_msg("ray %d starting on the triangle missed", k);
        assert_true(h.t == 0.0f);
        assert_false(signbit(h.t));   /* +0, not -0 */
        /* away from grazing (|cos| > 0.1), the face and the barycentrics */
        double side = d[0] + d[1] + d[2];   /* front normal (1, 1, 1) */
        if (fabs(side) > 0.2) {
            assert_true(h.inside == (side > 0));
            assert_float_equal(th.u, b / 64.0, 1e-5);
            assert_float_equal(th.v, c / 64.0, 1e-5);
        }
    }
    /* exactly on the plane, axis-aligned triangle: exactly t = 0 */
    rp_ray on = ray3(0.25f, 0.25f, 0, 0.3f, -0.2f, 1);
    rp_hit h;
    assert_true(rp_intersect_ray_triangle(&on, A, B, C, &h, NULL));
    assert_true(h.t == 0.0f);
    assert_true(h.point[2] == 0.0f);
}

static void degenerate_triangles_never_hit(void **state)
{
    (void)state;
    const vec3 p = {0, 0, 0}, q = {1, 1, 0}, mid = {0.5f, 0.5f, 0}, far = {2, 2, 0};
    rp_ray r = ray3(0.5f, 0.5f, 1, 0, 0, -1);    /* straight through all of them */
    rp_ray slant = ray3(0.5f, 0.5f, 1, 0.1f, -0.1f, -1);
    assert_false(rp_intersect_ray_triangle(&r, p, p, p, NULL, NULL));          /* a point */
    assert_false(rp_intersect_ray_triangle(&r, p, q, q, NULL, NULL));          /* two equal */
    assert_false(rp_intersect_ray_triangle(&r, p, mid, far, NULL, NULL));      /* collinear */
    assert_false(rp_intersect_ray_triangle(&slant, p, far, mid, NULL, NULL));
    assert_false(rp_intersect_ray_triangle(&r, q, p, p, NULL, NULL));
}

static void invalid_input_is_refused_untouched(void **state)
{
    (void)state;
    rp_ray ok = ray3(0.25f, 0.25f, 1, 0, 0, -1);
    rp_hit h = {.t = 42.0f};
    rp_triangle_hit th = {.triangle = 9};
    assert_true(rp_intersect_ray_triangle(&ok, A, B, C, NULL, NULL));
    rp_ray bad[] = {ray3(NAN, 0.25f, 1, 0, 0, -1), ray3(0.25f, INFINITY, 1, 0, 0, -1),
                    ray3(0.25f, 0.25f, 1, 0, 0, 0), ray3(0.25f, 0.25f, 1, 0, NAN, -1),
                    ray3(0.25f, 0.25f, 1, 0, 0, -INFINITY)};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_false(rp_intersect_ray_triangle(&bad[i], A, B, C, &h, &th));
    assert_false(rp_intersect_ray_triangle(NULL, A, B, C, &h, &th));
    const vec3 nan_v = {NAN, 0, 0}, inf_v = {0, 0, INFINITY};
    assert_false(rp_intersect_ray_triangle(&ok, nan_v, B, C, &h, &th));
    assert_false(rp_intersect_ray_triangle(&ok, A, inf_v, C, &h, &th));
    assert_false(rp_intersect_ray_triangle(&ok, A, B, nan_v, &h, &th));
    assert_false(rp_intersect_ray_triangle(&ok, NULL, B, C, &h, &th));
    assert_false(rp_intersect_ray_triangle(&ok, A, NULL, C, &h, &th));
    assert_false(rp_intersect_ray_triangle(&ok, A, B, NULL, &h, &th));
    assert_float_equal(h.t, 42.0f, 0.0f);
    assert_int_equal(th.triangle, 9);
}

/* The double-precision reference: Moller-Trumbore in double on the float
   inputs. */
static bool mt_ref_hit(const rp_ray *r, const float *p0, const float *p1, const float *p2,
                    double *t, double *u, double *v, bool *back)
{
    double e1[3], e2[3], s[3], pv[3], qv[3], d[3];
    for (int i = 0; i < 3; i++) {
        e1[i] = (double)p1[i] - p0[i];
        e2[i] = (double)p2[i] - p0[i];
        s[i] = (double)r->origin[i] - p0[i];
        d[i] = r->dir[i];
    }
    pv[0] = d[1] * e2[2] - d[2] * e2[1];
    pv[1] = d[2] * e2[0] - d[0] * e2[2];
    pv[2] = d[0] * e2[1] - d[1] * e2[0];
    double det = e1[0] * pv[0] + e1[1] * pv[1] + e1[2] * pv[2];
    if (det == 0.0)
        return false;
    *u = (s[0] * pv[0] + s[1] * pv[1] + s[2] * pv[2]) / det;
    qv[0] = s[1] * e1[2] - s[2] * e1[1];
    qv[1] = s[2] * e1[0] - s[0] * e1[2];
    qv[2] = s[0] * e1[1] - s[1] * e1[0];
    *v = (d[0] * qv[0] + d[1] * qv[1] + d[2] * qv[2]) / det;
    *t = (e2[0] * qv[0] + e2[1] * qv[1] + e2[2] * qv[2]) / det;
    *back = det < 0.0;   /* n . d > 0 <=> det < 0 in Moller-Trumbore's sign */
    return true;
}

static void matches_double_reference_on_random_inputs(void **state)
{
    (void)state;
    test_rng g = {0x7a1a9e1eu};
    int hits = 0, misses = 0;
    for (int k = 0; k < 200000; k++) {
        double scale = rng_log(&g, -2, 3);
        float p[3][3];
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++)
                p[i][j] = (float)(scale * rng_uniform(&g, -1, 1));
        rp_ray r;
        double d[3];
        rand_dir(&g, d);
        double len = rng_log(&g, -1, 1);
        /* aimed at a random point near the triangle, from outside it */
        double a = rng_uniform(&g, -0.3, 1.2), b = rng_uniform(&g, -0.3, 1.2);
        for (int i = 0; i < 3; i++) {
            double target = p[0][i] + a * (p[1][i] - p[0][i]) + b * (p[2][i] - p[0][i]);
            r.dir[i] = (float)(d[i] * len);
            r.origin[i] = (float)(target - d[i] * 3 * scale);
        }
        double t = 0, u = 0, v = 0;   /* initialised for mingw gcc's -Wmaybe-uninitialized */
        bool back = false;
        bool ref = mt_ref_hit(&r, p[0], p[1], p[2], &t, &u, &v, &back);
        double margin = 1e-4;
        bool clearly_in = ref && u > margin && v > margin && u + v < 1 - margin && t > margin;
        bool clearly_out = !ref || u < -margin || v < -margin || u + v > 1 + margin || t < -margin;
        rp_hit h;
        rp_triangle_hit th;
        bool got = rp_intersect_ray_triangle(&r, p[0], p[1], p[2], &h, &th);
        if (clearly_in) {
            hits++;
            if (!got)
                fail_msg("case %d: missed a clear hit (u %g v %g t %g)", k, u, v, t);
            /* the values are well conditioned unless the ray grazes the
               plane: compare them where |cos(normal, dir)| > 0.1 */
            double n[3], e1[3], e2[3];
            for (int i = 0; i < 3; i++) {
                e1[i] = (double)p[1][i] - p[0][i];
                e2[i] = (double)p[2][i] - p[0][i];
            }
            n[0] = e1[1] * e2[2] - e1[2] * e2[1];
            n[1] = e1[2] * e2[0] - e1[0] * e2[2];
            n[2] = e1[0] * e2[1] - e1[1] * e2[0];
            double cosine = (n[0] * d[0] + n[1] * d[1] + n[2] * d[2]) /
                            sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
            if (fabs(cosine) < 0.1)
                continue;
            assert_float_equal(h.t, t, 1e-4 * fabs(t) + 1e-6);
            assert_float_equal(th.u, u, 1e-3);
            assert_float_equal(th.v, v, 1e-3);
            assert_true(h.inside == back);
            /* unit normal, perpendicular to the edges, against the ray */
            double nd = 0, n1 = 0, n2 = 0;
            for (int i = 0; i < 3; i++) {
                nd += h.normal[i] * (double)r.dir[i];
                n1 += h.normal[i] * e1[i];
                n2 += h.normal[i] * e2[i];
            }
            assert_float_equal(glm_vec3_norm(h.normal), 1.0f, 1e-5f);
            assert_true(nd < 0.0);
            double l1 = sqrt(e1[0] * e1[0] + e1[1] * e1[1] + e1[2] * e1[2]);
            double l2 = sqrt(e2[0] * e2[0] + e2[1] * e2[1] + e2[2] * e2[2]);
            assert_true(fabs(n1) <= 1e-4 * l1 && fabs(n2) <= 1e-4 * l2);
            for (int i = 0; i < 3; i++)
                assert_float_equal(h.point[i], r.origin[i] + h.t * r.dir[i], 1e-5 * scale * 10);
        } else if (clearly_out) {
            misses++;
            if (got)
                fail_msg("case %d: hit a clear miss (u %g v %g t %g)", k, u, v, t);
        }
    }
    /* both kinds were exercised, many times */
    assert_true(hits > 20000 && misses > 20000);
}

/* rp_tri_intersect's first steps on one triangle: its sheared
   coordinates, edge functions and T. false when the edges reject it or
   it takes the slow path. */
static bool shear(const rp_tri_ray *r, const float *p0, const float *p1, const float *p2,
                  float s[3][3], float *U, float *V, float *W, float *T)
{
    const float *p[3] = {p0, p1, p2};
    for (int i = 0; i < 3; i++) {
        const float z = p[i][r->kz] - r->oz;
        s[i][0] = (p[i][r->kx] - r->ox) - r->sx * z;
        s[i][1] = (p[i][r->ky] - r->oy) - r->sy * z;
        s[i][2] = r->sz * z;
    }
    *U = s[2][0] * s[1][1] - s[2][1] * s[1][0];
    *V = s[0][0] * s[2][1] - s[0][1] * s[2][0];
    *W = s[1][0] * s[0][1] - s[1][1] * s[0][0];
    const bool neg = *U < 0.0f || *V < 0.0f || *W < 0.0f;
    const bool pos = *U > 0.0f || *V > 0.0f || *W > 0.0f;
    if ((neg && pos) || *U == 0.0f || *V == 0.0f || *W == 0.0f)
        return false;
    *T = *U * s[0][2] + *V * s[1][2] + *W * s[2][2];
    return fabsf(*T) <= FLT_MAX && fabsf(*U + *V + *W) <= FLT_MAX;
}

static void t_clear_only_when_above_the_slack(void **state)
{
    (void)state;
    test_rng g = {0x51ac0001u};
    int hits = 0, clear = 0, near = 0, ordinary = 0, ordinary_clear = 0;
    for (int i = 0; i < 200000; i++) {
        /* every scale from 1e-30 to 1e30; a third of the rays start
           within a hair of the triangle's plane (T near 0) */
        const double scale = pow(10.0, rng_uniform(&g, -30, 30));
        float p[3][3];
        for (int k = 0; k < 3; k++)
            for (int a = 0; a < 3; a++)
                p[k][a] = (float)(scale * rng_uniform(&g, -1, 1));
        double w[3] = {rng_uniform(&g, 0, 1), rng_uniform(&g, 0, 1), rng_uniform(&g, 0, 1)};
        const double sum = w[0] + w[1] + w[2];
        const double back = i % 3 == 0 ? rng_uniform(&g, -1e-6, 1e-6) : rng_uniform(&g, 0.1, 10);
        rp_ray ray;
        for (int a = 0; a < 3; a++) {
            const double aim = (w[0] * p[0][a] + w[1] * p[1][a] + w[2] * p[2][a]) / sum;
            ray.dir[a] = (float)(scale * rng_uniform(&g, -1, 1));
            ray.origin[a] = (float)(aim - back * ray.dir[a]);
        }
        if (!rp_ray_is_valid(&ray) || rp_tri_is_degenerate(p[0], p[1], p[2]))
            continue;
        rp_tri_ray r;
        rp_tri_ray_setup(&ray, &r);
        float s[3][3], U, V, W, T;
        if (!shear(&r, p[0], p[1], p[2], s, &U, &V, &W, &T))
            continue;
        hits++;
        const double sd[3][3] = {{s[0][0], s[0][1], s[0][2]}, {s[1][0], s[1][1], s[1][2]},
                                 {s[2][0], s[2][1], s[2][2]}};
        const double slack = rp_tri_t_slack(&r, p[0], p[1], p[2], sd, U, V, W);
        /* a model's scale, a ray from well off the triangle */
        const bool usual = scale > 1e-3 && scale < 1e4 && fabsf(T) > 4.0 * slack;
        ordinary += usual;
        if (rp_tri_t_clear(&r, p[0], p[1], p[2], (const float (*)[3])s, U, V, W, T)) {
            clear++;
            ordinary_clear += usual;
            if (!(fabsf(T) > slack))
                fail_msg("case %d: T %g called clear of a slack of %g", i, (double)T, slack);
        } else {
            near += fabsf(T) <= slack;
        }
    }
    print_message("%d hits: %d clear by the float check, %d within the slack; "
                  "%d of %d at ordinary scales clear\n", hits, clear, near, ordinary_clear, ordinary);
    assert_true(hits > 50000);
    assert_true(near > 1000);   /* the near-zero case is met */
    /* and the check spares the double slack where it can: every usual hit
       (the 2^-40 it adds to each factor, and a float's range, decide for
       tiny and huge scales) */
    assert_true(ordinary > 10000);
    assert_int_equal(ordinary_clear, ordinary);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(front_and_back_face_hits),
        cmocka_unit_test(misses_outside_and_behind),
        cmocka_unit_test(edges_and_vertices_are_hit),
        cmocka_unit_test(ray_starting_on_the_triangle_hits_at_zero),
        cmocka_unit_test(degenerate_triangles_never_hit),
        cmocka_unit_test(invalid_input_is_refused_untouched),
        cmocka_unit_test(matches_double_reference_on_random_inputs),
        cmocka_unit_test(t_clear_only_when_above_the_slack),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

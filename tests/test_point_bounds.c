/* test_point_bounds.c: bounding box and smallest bounding sphere of a
 * point array (D3DXComputeBoundingBox / D3DXComputeBoundingSphere), with
 * byte strides. The sphere is checked against a brute-force minimal sphere
 * (the best sphere among all 1-, 2-, 3- and 4-point supports) on small
 * sets, and against known answers on degenerate and large ones. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <raypick/raypick.h>
#include "ref_quadric.h"

/* D3DVERTEX: position, normal, texture coordinates; 32 bytes */
typedef struct d3d_vertex {
    float x, y, z, nx, ny, nz, tu, tv;
} d3d_vertex;

/* ---- checks ------------------------------------------------------------- */

/* the largest |p - c| over the points, in double */
static double farthest(const float *flat, size_t n, const double c[3])
{
    const float (*pts)[3] = (const float (*)[3])flat;
    double m = 0.0;
    for (size_t i = 0; i < n; i++) {
        const double x = (double)pts[i][0] - c[0], y = (double)pts[i][1] - c[1],
                     z = (double)pts[i][2] - c[2];
        m = fmax(m, sqrt(x * x + y * y + z * z));
    }
    return m;
}

/* Encloses every point, in double, both as |p - c| <= r and as
   |p - c|^2 <= r^2. */
static void assert_encloses(const rp_sphere *s, const float *flat, size_t n)
{
    const float (*pts)[3] = (const float (*)[3])flat;
    const double c[3] = {s->center[0], s->center[1], s->center[2]};
    const double r = s->radius;
    assert_true(isfinite(r) && r >= 0.0);
    for (size_t i = 0; i < n; i++) {
        const double x = (double)pts[i][0] - c[0], y = (double)pts[i][1] - c[1],
                     z = (double)pts[i][2] - c[2];
        const double d2 = x * x + y * y + z * z;
        assert_true(sqrt(d2) <= r);
        assert_true(d2 <= r * r);
    }
}

static void assert_sphere_rejected(const float *xyz, size_t count, size_t stride)
{
    rp_sphere out, ref;
    memset(&out, 0xA5, sizeof out);
    ref = out;
    assert_false(rp_sphere_from_points(xyz, count, stride, &out));
    assert_memory_equal(&out, &ref, sizeof out);
    assert_false(rp_sphere_from_points(xyz, count, stride, NULL));
}

static void assert_aabb_rejected(const float *xyz, size_t count, size_t stride)
{
    rp_aabb out, ref;
    memset(&out, 0xA5, sizeof out);
    ref = out;
    assert_false(rp_aabb_from_points(xyz, count, stride, &out));
    assert_memory_equal(&out, &ref, sizeof out);
    assert_false(rp_aabb_from_points(xyz, count, stride, NULL));
}

/* ---- the brute-force reference ------------------------------------------- */

typedef struct ref_ball {
    double c[3], r;
    bool ok;
} ref_ball;

static void sub3(const double a[3], const double b[3], double out[3])
{
    for (int i = 0; i < 3; i++)
        out[i] = a[i] - b[i];
}

static void cross3(const double a[3], const double b[3], double out[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

/* The smallest sphere with the given 1..4 points on its surface (centre in
   their affine hull), by the textbook formulas: midpoint; the
   circumcentre of a triangle from cross products; Cramer's rule for the
   circumsphere of a tetrahedron. ok = false for a degenerate support. */
static ref_ball ref_support_ball(const double p[][3], int k)
{
    ref_ball b = {{0, 0, 0}, 0.0, true};
    if (k == 1) {
        memcpy(b.c, p[0], sizeof b.c);
    } else if (k == 2) {
        for (int i = 0; i < 3; i++)
            b.c[i] = 0.5 * (p[0][i] + p[1][i]);
    } else if (k == 3) {
        double ab[3], ac[3], n[3], t1[3], t2[3];
        sub3(p[1], p[0], ab);
        sub3(p[2], p[0], ac);
        cross3(ab, ac, n);
        const double nn = ref_dot(n, n);
        if (nn <= 1e-18 * ref_dot(ab, ab) * ref_dot(ac, ac)) {
            b.ok = false;
            return b;
        }
        cross3(n, ab, t1);   /* (ab x ac) x ab */
        cross3(ac, n, t2);   /* ac x (ab x ac) */
        for (int i = 0; i < 3; i++)
            b.c[i] = p[0][i] + (ref_dot(ac, ac) * t1[i] + ref_dot(ab, ab) * t2[i]) / (2.0 * nn);
    } else {
        double a[3][3], rhs[3];
        for (int r = 0; r < 3; r++) {
            sub3(p[r + 1], p[0], a[r]);
            rhs[r] = 0.5 * ref_dot(a[r], a[r]);
        }
        double c0[3], c1[3], c2[3];
        cross3(a[1], a[2], c0);
        cross3(a[2], a[0], c1);
        cross3(a[0], a[1], c2);
        const double det = ref_dot(a[0], c0);
        const double scale = sqrt(ref_dot(a[0], a[0]) * ref_dot(a[1], a[1]) * ref_dot(a[2], a[2]));
        if (fabs(det) <= 1e-9 * scale) {
            b.ok = false;
            return b;
        }
        for (int i = 0; i < 3; i++)
            b.c[i] = p[0][i] + (rhs[0] * c0[i] + rhs[1] * c1[i] + rhs[2] * c2[i]) / det;
    }
    double d[3];
    sub3(p[0], b.c, d);
    b.r = sqrt(ref_dot(d, d));
    return b;
}

/* The smallest enclosing sphere is one of these support spheres: the best
   one that encloses every point (to a relative 1e-9). O(n^5): small n. */
static double ref_min_radius(const float *flat, int n)
{
    const float (*pts)[3] = (const float (*)[3])flat;
    double best = INFINITY;
    int idx[4];
    for (int k = 1; k <= 4 && k <= n; k++) {
        for (int i = 0; i < k; i++)
            idx[i] = i;
        while (true) {
            double sp[4][3];
            for (int i = 0; i < k; i++)
                for (int j = 0; j < 3; j++)
                    sp[i][j] = pts[idx[i]][j];
            const ref_ball b = ref_support_ball((const double(*)[3])sp, k);
            if (b.ok && b.r < best && farthest(flat, (size_t)n, b.c) <= b.r * (1.0 + 1e-9) + 1e-12)
                best = b.r;
            /* next combination */
            int i = k - 1;
            while (i >= 0 && idx[i] == n - k + i)
                i--;
            if (i < 0)
                break;
            idx[i]++;
            for (int j = i + 1; j < k; j++)
                idx[j] = idx[j - 1] + 1;
        }
    }
    return best;
}

/* ---- boxes ----------------------------------------------------------------- */

static void aabb_is_min_and_max(void **state)
{
    (void)state;
    test_rng g = {0xAABBu};
    for (int n = 0; n < 200; n++) {
        const size_t count = 1 + rng_u32(&g) % 300;
        float pts[300][3];
        d3d_vertex verts[300];
        float vmin[3] = {INFINITY, INFINITY, INFINITY}, vmax[3] = {-INFINITY, -INFINITY, -INFINITY};
        for (size_t i = 0; i < count; i++) {
            for (int k = 0; k < 3; k++) {
                pts[i][k] = (float)rng_uniform(&g, -50.0, 50.0);
                vmin[k] = fminf(vmin[k], pts[i][k]);
                vmax[k] = fmaxf(vmax[k], pts[i][k]);
            }
            verts[i] = (d3d_vertex){pts[i][0], pts[i][1], pts[i][2], 9e9f, NAN, 1, 2, 3};
        }
        rp_aabb packed, twelve, vertex;
        assert_true(rp_aabb_from_points(&pts[0][0], count, 0, &packed));
        assert_true(rp_aabb_from_points(&pts[0][0], count, 12, &twelve));
        assert_true(rp_aabb_from_points(&verts[0].x, count, sizeof verts[0], &vertex));
        for (int k = 0; k < 3; k++) {
            assert_float_equal(packed.min[k], vmin[k], 0.0f);
            assert_float_equal(packed.max[k], vmax[k], 0.0f);
        }
        assert_memory_equal(&packed, &twelve, sizeof packed);
        assert_memory_equal(&packed, &vertex, sizeof packed);
        assert_true(rp_aabb_from_points(&pts[0][0], count, 0, NULL));
    }
}

/* A stride of 16 (x y z w), reading only every other point of the packed
   array with 24 */
static void aabb_other_strides(void **state)
{
    (void)state;
    const float xyzw[4][4] = {{1, 2, 3, NAN}, {-1, 5, 0, NAN}, {4, -2, 7, NAN}, {0, 0, -8, NAN}};
    rp_aabb box;
    assert_true(rp_aabb_from_points(&xyzw[0][0], 4, 16, &box));
    const rp_aabb expect = {{-1, -2, -8}, {4, 5, 7}};
    assert_memory_equal(&box, &expect, sizeof box);
    const float packed[4][3] = {{1, 1, 1}, {NAN, NAN, NAN}, {-3, 2, 0.5f}, {NAN, NAN, NAN}};
    assert_true(rp_aabb_from_points(&packed[0][0], 2, 24, &box));
    const rp_aabb expect2 = {{-3, 1, 0.5f}, {1, 2, 1}};
    assert_memory_equal(&box, &expect2, sizeof box);
}

static void invalid_point_arrays_are_refused(void **state)
{
    (void)state;
    float pts[6][8];
    for (int i = 0; i < 6; i++)
        for (int k = 0; k < 8; k++)
            pts[i][k] = (float)(i * 8 + k);
    assert_true(rp_aabb_from_points(&pts[0][0], 6, 32, NULL));
    assert_true(rp_sphere_from_points(&pts[0][0], 6, 32, NULL));
    assert_aabb_rejected(NULL, 6, 0);
    assert_sphere_rejected(NULL, 6, 0);
    assert_aabb_rejected(&pts[0][0], 0, 0);
    assert_sphere_rejected(&pts[0][0], 0, 0);
    const size_t bad_strides[] = {1, 4, 8, 11, 13, 14, 15, 18, 30};
    for (size_t i = 0; i < sizeof bad_strides / sizeof bad_strides[0]; i++) {
        assert_aabb_rejected(&pts[0][0], 4, bad_strides[i]);
        assert_sphere_rejected(&pts[0][0], 4, bad_strides[i]);
    }
    const float bad[] = {NAN, INFINITY, -INFINITY};
    for (int b = 0; b < 3; b++)
        for (int i = 0; i < 6; i++)
            for (int k = 0; k < 3; k++) {
                float copy[6][8];
                memcpy(copy, pts, sizeof copy);
                copy[i][k] = bad[b];
                assert_aabb_rejected(&copy[0][0], 6, 32);
                assert_sphere_rejected(&copy[0][0], 6, 32);
                /* a bad value outside x y z is not a point: fine */
                memcpy(copy, pts, sizeof copy);
                copy[i][3 + k] = bad[b];
                assert_true(rp_aabb_from_points(&copy[0][0], 6, 32, NULL));
                assert_true(rp_sphere_from_points(&copy[0][0], 6, 32, NULL));
            }
}

/* ---- smallest sphere -------------------------------------------------------- */

static void one_point_and_equal_points_give_radius_zero(void **state)
{
    (void)state;
    const float p[3] = {1.5f, -2.25f, 1e-3f};
    rp_sphere s;
    assert_true(rp_sphere_from_points(p, 1, 0, &s));
    assert_memory_equal(s.center, p, sizeof p);
    assert_float_equal(s.radius, 0.0f, 0.0f);
    float same[50][3];
    for (int i = 0; i < 50; i++)
        memcpy(same[i], p, sizeof p);
    memset(&s, 0, sizeof s);
    assert_true(rp_sphere_from_points(&same[0][0], 50, 0, &s));
    assert_memory_equal(s.center, p, sizeof p);
    assert_float_equal(s.radius, 0.0f, 0.0f);
    /* two points: the midpoint, half the distance */
    const float two[2][3] = {{-1, 0, 0}, {3, 0, 0}};
    assert_true(rp_sphere_from_points(&two[0][0], 2, 0, &s));
    assert_float_equal(s.center[0], 1.0f, 1e-6f);
    assert_float_equal(s.radius, 2.0f, 1e-6f);
    assert_encloses(&s, &two[0][0], 2);
}

/* Small random sets (some clustered, some spread over magnitudes) against
   the brute-force minimum: encloses in double, and within 1e-4 relative. */
static void smallest_sphere_matches_brute_force(void **state)
{
    (void)state;
    test_rng g = {0x5F3E7Eu};
    for (int n = 0; n < 400; n++) {
        const int count = 1 + (int)(rng_u32(&g) % 12);
        float pts[12][3];
        const double scale = rng_log(&g, -2.0, 3.0);
        const double offset = rng_uniform(&g, -3.0, 3.0) * scale;
        for (int i = 0; i < count; i++)
            for (int k = 0; k < 3; k++)
                pts[i][k] = (float)(offset + rng_uniform(&g, -1.0, 1.0) * scale);
        if (n % 5 == 0 && count > 2)   /* a duplicate */
            memcpy(pts[count - 1], pts[0], sizeof pts[0]);
        rp_sphere s;
        assert_true(rp_sphere_from_points(&pts[0][0], (size_t)count, 0, &s));
        assert_encloses(&s, &pts[0][0], (size_t)count);
        const double ref = ref_min_radius(&pts[0][0], count);
        assert_true(isfinite(ref));
        assert_true(s.radius <= ref * (1.0 + 1e-4) + 1e-30);
        assert_true(s.radius >= ref * (1.0 - 1e-6));
    }
}

/* D3DX's centroid sphere is never smaller, and for a lopsided cloud (one
   far point, many near ones) it is almost twice as large. */
static void smaller_than_the_centroid_sphere(void **state)
{
    (void)state;
    test_rng g = {0xCE27u};
    for (int n = 0; n < 100; n++) {
        float pts[64][3];
        double centroid[3] = {0, 0, 0};
        for (int i = 0; i < 64; i++)
            for (int k = 0; k < 3; k++) {
                pts[i][k] = (float)rng_uniform(&g, -1.0, 1.0);
                if (i == 0 && k == 0)
                    pts[i][k] = 40.0f;    /* the far vertex */
                centroid[k] += pts[i][k] / 64.0;
            }
        const double centroid_r = farthest(&pts[0][0], 64, centroid);
        rp_sphere s;
        assert_true(rp_sphere_from_points(&pts[0][0], 64, 0, &s));
        assert_encloses(&s, &pts[0][0], 64);
        assert_true(s.radius < 0.55 * centroid_r);
    }
}

/* ---- degenerate sets ------------------------------------------------------ */

static void collinear_points(void **state)
{
    (void)state;
    test_rng g = {0xC011u};
    float pts[200][3];
    const double a[3] = {1.0, -2.0, 0.5}, d[3] = {0.3, 0.8, -0.52};
    double lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < 200; i++) {
        double t = i < 2 ? (i == 0 ? -7.0 : 9.0) : rng_uniform(&g, -7.0, 9.0);
        if (i % 10 == 9)
            t = 9.0;   /* duplicates of an end */
        for (int k = 0; k < 3; k++)
            pts[i][k] = (float)(a[k] + t * d[k]);
        lo = fmin(lo, t);
        hi = fmax(hi, t);
    }
    rp_sphere s;
    assert_true(rp_sphere_from_points(&pts[0][0], 200, 0, &s));
    assert_encloses(&s, &pts[0][0], 200);
    /* the two ends, as floats, are the diameter */
    double ends = 0.0;
    for (int k = 0; k < 3; k++) {
        const double e = (double)pts[1][k] - pts[0][k];
        ends += e * e;
    }
    assert_float_equal(s.radius, 0.5 * sqrt(ends), 1e-4 * 0.5 * sqrt(ends));
}

/* On a circle (regular polygon) and on a sphere (Fibonacci spiral):
   every point is on the boundary, the worst case for Welzl's support
   choice; with the centre and some inside points added. */
static void cocircular_and_cospherical_points(void **state)
{
    (void)state;
    enum { N = 720 };
    static float circle[N][3], sphere[N + 1][3];
    const double centre[3] = {3.0, -1.0, 2.0}, R = 5.0;
    for (int i = 0; i < N; i++) {
        const double a = 2.0 * GLM_PI * i / N;
        circle[i][0] = (float)(centre[0] + R * cos(a));
        circle[i][1] = (float)(centre[1] + R * sin(a) * 0.6);
        circle[i][2] = (float)(centre[2] + R * sin(a) * 0.8);
        const double y = 1.0 - 2.0 * (i + 0.5) / N, rxy = sqrt(1.0 - y * y);
        const double phi = i * 2.399963229728653;
        sphere[i][0] = (float)(centre[0] + R * rxy * cos(phi));
        sphere[i][1] = (float)(centre[1] + R * y);
        sphere[i][2] = (float)(centre[2] + R * rxy * sin(phi));
    }
    sphere[N][0] = (float)centre[0];
    sphere[N][1] = (float)centre[1];
    sphere[N][2] = (float)centre[2];
    rp_sphere s;
    assert_true(rp_sphere_from_points(&circle[0][0], N, 0, &s));
    assert_encloses(&s, &circle[0][0], N);
    assert_float_equal(s.radius, R, 1e-4 * R);
    for (int k = 0; k < 3; k++)
        assert_float_equal(s.center[k], centre[k], 1e-3);
    assert_true(rp_sphere_from_points(&sphere[0][0], N + 1, 0, &s));
    assert_encloses(&s, &sphere[0][0], N + 1);
    /* the spiral does not reach the poles exactly: at most R */
    assert_true(s.radius <= R * (1.0 + 1e-4));
    assert_true(s.radius >= R * 0.999);
    /* four coplanar points of a square (cocircular) and a square's
       vertices repeated */
    const float square[8][3] = {{0, 0, 0}, {2, 0, 0}, {2, 2, 0}, {0, 2, 0},
                                {0, 0, 0}, {2, 2, 0}, {2, 0, 0}, {1, 1, 0}};
    assert_true(rp_sphere_from_points(&square[0][0], 8, 0, &s));
    assert_encloses(&s, &square[0][0], 8);
    assert_float_equal(s.radius, sqrt(2.0), 1e-4 * sqrt(2.0));
    assert_float_equal(s.center[0], 1.0f, 1e-5f);
    assert_float_equal(s.center[1], 1.0f, 1e-5f);
    assert_float_equal(s.center[2], 0.0f, 1e-5f);
}

/* A few distinct points, each repeated many times. */
static void heavy_duplicates(void **state)
{
    (void)state;
    static float pts[3000][3];
    const float base[3][3] = {{0, 0, 0}, {6, 0, 0}, {3, 4, 0}};
    for (int i = 0; i < 3000; i++)
        memcpy(pts[i], base[(i * 7) % 3], sizeof pts[i]);
    rp_sphere s;
    assert_true(rp_sphere_from_points(&pts[0][0], 3000, 0, &s));
    assert_encloses(&s, &pts[0][0], 3000);
    /* acute triangle: the circumcircle; sides 6, 5, 5 -> R = 25/8 */
    assert_float_equal(s.radius, 25.0 / 8.0, 1e-4 * 25.0 / 8.0);
}

/* The same points through a D3DVERTEX array and packed: the same sphere. */
static void sphere_strides_agree(void **state)
{
    (void)state;
    test_rng g = {0x57D3u};
    float pts[500][3];
    d3d_vertex verts[500];
    float xyzw[500][4];
    for (int i = 0; i < 500; i++) {
        for (int k = 0; k < 3; k++)
            pts[i][k] = (float)rng_uniform(&g, -10.0, 10.0);
        verts[i] = (d3d_vertex){pts[i][0], pts[i][1], pts[i][2], 0, 1, 0, 0.5f, NAN};
        memcpy(xyzw[i], pts[i], sizeof pts[i]);
        xyzw[i][3] = INFINITY;
    }
    rp_sphere a, b, c, d;
    assert_true(rp_sphere_from_points(&pts[0][0], 500, 0, &a));
    assert_true(rp_sphere_from_points(&pts[0][0], 500, 12, &b));
    assert_true(rp_sphere_from_points(&verts[0].x, 500, sizeof verts[0], &c));
    assert_true(rp_sphere_from_points(&xyzw[0][0], 500, 16, &d));
    assert_memory_equal(&a, &b, sizeof a);
    assert_memory_equal(&a, &c, sizeof a);
    assert_memory_equal(&a, &d, sizeof a);
    assert_encloses(&a, &pts[0][0], 500);
}

/* A million points in sorted order (a 100^3 grid): the fixed shuffle
   keeps Welzl linear; the answer is half the grid's diagonal. */
static void a_million_sorted_points(void **state)
{
    (void)state;
    const size_t n = 100 * 100 * 100;
    float (*pts)[3] = malloc(n * sizeof *pts);
    assert_non_null(pts);
    size_t i = 0;
    for (int x = 0; x < 100; x++)
        for (int y = 0; y < 100; y++)
            for (int z = 0; z < 100; z++, i++) {
                pts[i][0] = (float)x * 0.5f;
                pts[i][1] = (float)y * 0.5f - 20.0f;
                pts[i][2] = (float)z * 0.5f + 7.0f;
            }
    rp_sphere s;
    assert_true(rp_sphere_from_points(&pts[0][0], n, 0, &s));
    assert_encloses(&s, &pts[0][0], n);
    const double expect = 0.5 * sqrt(3.0) * 49.5;
    assert_float_equal(s.radius, expect, 1e-4 * expect);
    assert_float_equal(s.center[0], 24.75f, 1e-3f);
    assert_float_equal(s.center[1], 4.75f, 1e-3f);
    assert_float_equal(s.center[2], 31.75f, 1e-3f);
    free(pts);
}

/* Far from the origin and over many magnitudes: still encloses, no NaN. */
static void extreme_magnitudes(void **state)
{
    (void)state;
    const float big[3][3] = {{3e38f, -3e38f, 3e38f}, {-3e38f, 3e38f, -3e38f}, {0, 0, 0}};
    rp_sphere s, untouched;
    memset(&s, 0xA5, sizeof s);
    untouched = s;
    /* the diameter is ~1e39: no float radius; refused, not infinite */
    assert_false(rp_sphere_from_points(&big[0][0], 3, 0, &s));
    assert_memory_equal(&s, &untouched, sizeof s);
    const float tiny[3][3] = {{1e-40f, 0, 0}, {0, 2e-40f, 0}, {0, 0, 0}};
    assert_true(rp_sphere_from_points(&tiny[0][0], 3, 0, &s));
    assert_encloses(&s, &tiny[0][0], 3);
    const float far_cluster[4][3] = {{1e6f, 1e6f, 1e6f}, {1e6f + 1, 1e6f, 1e6f},
                                     {1e6f, 1e6f + 1, 1e6f}, {1e6f, 1e6f, 1e6f + 1}};
    assert_true(rp_sphere_from_points(&far_cluster[0][0], 4, 0, &s));
    assert_encloses(&s, &far_cluster[0][0], 4);
    /* minimal: the circumcircle of the far face, sqrt(6) / 3; the float
       centre is on a 1/16 grid there, which may cost up to ~0.055 */
    assert_true(s.radius >= sqrt(6.0) / 3.0 * (1.0 - 1e-6));
    assert_true(s.radius <= sqrt(6.0) / 3.0 + 0.06);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(aabb_is_min_and_max),
        cmocka_unit_test(aabb_other_strides),
        cmocka_unit_test(invalid_point_arrays_are_refused),
        cmocka_unit_test(one_point_and_equal_points_give_radius_zero),
        cmocka_unit_test(smallest_sphere_matches_brute_force),
        cmocka_unit_test(smaller_than_the_centroid_sphere),
        cmocka_unit_test(collinear_points),
        cmocka_unit_test(cocircular_and_cospherical_points),
        cmocka_unit_test(heavy_duplicates),
        cmocka_unit_test(sphere_strides_agree),
        cmocka_unit_test(a_million_sorted_points),
        cmocka_unit_test(extreme_magnitudes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

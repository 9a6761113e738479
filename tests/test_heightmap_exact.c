/* test_heightmap_exact.c: the exact method against a brute-force test of
   every triangle (double precision) on thousands of random rays over random
   maps; the accelerated walk against the plain one; the pyramid's memory. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <math.h>
#include <stdlib.h>
#include <cmocka.h>

#include <raypick/raypick.h>
#include "heightmap_internal.h"   /* raypick_internal_dep */

/* ---- a deterministic random source (splitmix64) ------------------------ */

static uint64_t rng_state;

static uint64_t rng_next(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static double uniform(double lo, double hi)
{
    return lo + (hi - lo) * ((double)(rng_next() >> 11) * (1.0 / 9007199254740992.0));
}

static int uniform_int(int lo, int hi) { return lo + (int)(rng_next() % (uint64_t)(hi - lo + 1)); }

/* ---- brute force ------------------------------------------------------- */

typedef struct brute_hit {
    bool   hit;
    double t;
    double second_t;        /* the next-nearest triangle's t (ties)  */
    double normal[3];       /* unit, upward                          */
} brute_hit;

typedef struct map_desc {
    int cols, rows;
    float spacing;
    vec3 origin;
    float *h;
} map_desc;

static void vertex(const map_desc *m, int c, int r, double p[3])
{
    p[0] = (double)m->origin[0] + (double)c * m->spacing;
    p[1] = (double)m->origin[1] + m->h[r * m->cols + c];
    p[2] = (double)m->origin[2] + (double)r * m->spacing;
}

static void sub(const double a[3], const double b[3], double o[3])
{
    o[0] = a[0] - b[0]; o[1] = a[1] - b[1]; o[2] = a[2] - b[2];
}

static void cross(const double a[3], const double b[3], double o[3])
{
    o[0] = a[1] * b[2] - a[2] * b[1];
    o[1] = a[2] * b[0] - a[0] * b[2];
    o[2] = a[0] * b[1] - a[1] * b[0];
}

static double dot(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/* Moller-Trumbore with inclusive edges; false for rays in the plane. */
static bool ray_triangle(const double o[3], const double d[3], const double a[3],
                         const double b[3], const double c[3], double *t_out)
{
    double e1[3], e2[3], p[3], q[3], s[3];
    sub(b, a, e1);
    sub(c, a, e2);
    cross(d, e2, p);
    double det = dot(e1, p);
    if (fabs(det) < 1e-300)
        return false;
    double inv = 1.0 / det;
    sub(o, a, s);
    double u = dot(s, p) * inv;
    const double eps = 1e-9;
    if (u < -eps || u > 1.0 + eps)
        return false;
    cross(s, e1, q);
    double v = dot(d, q) * inv;
    if (v < -eps || u + v > 1.0 + eps)
        return false;
    double t = dot(e2, q) * inv;
    if (t < 0.0)
        return false;
    *t_out = t;
    return true;
}

static brute_hit brute_force(const map_desc *m, const rp_ray *ray)
{
    brute_hit best = {false, INFINITY, INFINITY, {0, 0, 0}};
    double o[3] = {ray->origin[0], ray->origin[1], ray->origin[2]};
    double d[3] = {ray->dir[0], ray->dir[1], ray->dir[2]};
    for (int r = 0; r + 1 < m->rows; r++)
        for (int c = 0; c + 1 < m->cols; c++) {
            double p00[3], p10[3], p01[3], p11[3];
            vertex(m, c, r, p00);
            vertex(m, c + 1, r, p10);
            vertex(m, c, r + 1, p01);
            vertex(m, c + 1, r + 1, p11);
            const double *tri[2][3] = {{p00, p10, p11}, {p00, p11, p01}};
            for (int k = 0; k < 2; k++) {
                double t;
                if (!ray_triangle(o, d, tri[k][0], tri[k][1], tri[k][2], &t))
                    continue;
                if (t < best.t) {
                    best.second_t = best.t;
                    best.t = t;
                    best.hit = true;
                    double e1[3], e2[3], n[3];
                    sub(tri[k][1], tri[k][0], e1);
                    sub(tri[k][2], tri[k][0], e2);
                    cross(e2, e1, n);       /* (x right, z down): e2 x e1 is up */
                    double len = sqrt(dot(n, n));
                    double up = n[1] < 0 ? -1.0 : 1.0;
                    for (int i = 0; i < 3; i++)
                        best.normal[i] = up * n[i] / len;
                } else if (t < best.second_t) {
                    best.second_t = t;
                }
            }
        }
    return best;
}

/* ---- random maps and rays ---------------------------------------------- */

static map_desc random_map(void)
{
    map_desc m;
    m.cols = uniform_int(9, 33);
    m.rows = uniform_int(9, 33);
    m.spacing = (float)uniform(0.3, 3.0);
    m.origin[0] = (float)uniform(-50, 50);
    m.origin[1] = (float)uniform(-20, 20);
    m.origin[2] = (float)uniform(-50, 50);
    m.h = malloc((size_t)m.cols * (size_t)m.rows * sizeof *m.h);
    int style = uniform_int(0, 2);
    for (int i = 0; i < m.cols * m.rows; i++) {
        double v = uniform(0, 10);
        if (style == 1)
            v = floor(v / 3) * 3;           /* terraces: flat cells, exact ties */
        else if (style == 2)
            v = uniform(0, 1) < 0.05 ? 10 + uniform(0, 20) : uniform(0, 1);   /* spikes */
        m.h[i] = (float)v;
    }
    return m;
}

static rp_ray random_ray(const map_desc *m, float lo, float hi)
{
    float w = (m->cols - 1) * m->spacing, d = (m->rows - 1) * m->spacing;
    float x0 = m->origin[0], z0 = m->origin[2], y0 = m->origin[1];
    rp_ray ray;
    int kind = uniform_int(0, 4);
    if (kind == 0) {            /* camera-like: from above towards the map */
        ray.origin[0] = x0 + (float)uniform(-0.5 * w, 1.5 * w);
        ray.origin[1] = y0 + hi + (float)uniform(0.5, 30);
        ray.origin[2] = z0 + (float)uniform(-0.5 * d, 1.5 * d);
        vec3 target = {x0 + (float)uniform(-0.1 * w, 1.1 * w), y0 + (float)uniform(lo, hi),
                       z0 + (float)uniform(-0.1 * d, 1.1 * d)};
        glm_vec3_sub(target, ray.origin, ray.dir);
    } else if (kind == 1) {     /* grazing: from outside, nearly level */
        ray.origin[0] = x0 - (float)uniform(0.1, 5);
        ray.origin[1] = y0 + (float)uniform(lo, hi + 1);
        ray.origin[2] = z0 + (float)uniform(0, d);
        ray.dir[0] = 1;
        ray.dir[1] = (float)uniform(-0.05, 0.02);
        ray.dir[2] = (float)uniform(-0.5, 0.5);
    } else {                    /* anywhere, any direction */
        ray.origin[0] = x0 + (float)uniform(-0.2 * w, 1.2 * w);
        ray.origin[1] = y0 + (float)uniform(lo - 2, hi + 2);
        ray.origin[2] = z0 + (float)uniform(-0.2 * d, 1.2 * d);
        for (int i = 0; i < 3; i++)
            ray.dir[i] = (float)uniform(-1, 1);
        if (kind == 3) {        /* level, axis-parallel, on grid lines */
            int which = uniform_int(0, 3);
            if (which < 3)
                ray.dir[which] = 0;
            if (uniform_int(0, 1)) {
                ray.origin[0] = x0 + uniform_int(0, m->cols - 1) * m->spacing;
                if (which != 0)
                    ray.dir[0] = 0;
            }
        }
        if (kind == 4)
            glm_vec3_scale(ray.dir, (float)uniform(0.01, 100), ray.dir);
    }
    if (ray.dir[0] == 0 && ray.dir[1] == 0 && ray.dir[2] == 0)
        ray.dir[1] = -1;
    return ray;
}

static void exact_matches_brute_force_on_random_rays(void **state)
{
    (void)state;
    rng_state = 0x5eed1234u;
    int rays = 0, hits = 0, normals_checked = 0;
    for (int map = 0; map < 40; map++) {
        map_desc m = random_map();
        rp_heightmap *hm = rp_heightmap_create(m.cols, m.rows, m.spacing, m.origin, m.h);
        assert_non_null(hm);
        float lo, hi;
        rp_heightmap_height_range(hm, &lo, &hi);
        double scale = (m.cols + m.rows) * m.spacing + (hi - lo) + 50;
        for (int i = 0; i < 250; i++, rays++) {
            rp_ray ray = random_ray(&m, lo, hi);
            brute_hit b = brute_force(&m, &ray);
            rp_hit e, w;
            bool he = rp_intersect_ray_heightmap(hm, &ray, &e);
            bool hw = rp_hm_intersect_walk(hm, &ray, &w);
            double dlen = glm_vec3_norm(ray.dir);
            if (he != b.hit || hw != b.hit)
                print_error("map %d ray %d: o (%.9g %.9g %.9g) d (%.9g %.9g %.9g) exact %d "
                            "walk %d brute %d (t %.9g)\n", map, i, ray.origin[0], ray.origin[1],
                            ray.origin[2], ray.dir[0], ray.dir[1], ray.dir[2], he, hw, b.hit, b.t);
            assert_int_equal(he, b.hit);
            assert_int_equal(hw, b.hit);
            if (!b.hit)
                continue;
            hits++;
            /* same t (as a distance along the ray), same point */
            double tol = 1e-5 * scale;
            assert_true(fabs((e.t - b.t) * dlen) <= tol);
            assert_true(fabs((w.t - b.t) * dlen) <= tol);
            vec3 p;
            rp_ray_at(&ray, e.t, p);
            assert_true(glm_vec3_distance(p, e.point) <= tol);
            /* unit normal facing the side the ray came from */
            assert_float_equal(glm_vec3_norm(e.normal), 1.0f, 1e-5f);
            if (!e.inside)
                assert_true(e.normal[1] > 0.0f);
            else
                assert_true(e.normal[1] < 0.0f);
            assert_true(glm_vec3_dot(e.normal, ray.dir) <= 1e-6f * glm_vec3_norm(ray.dir));
            /* the triangle hit, unless another one is hit as early */
            if ((b.second_t - b.t) * dlen > 10 * tol) {
                double s = e.inside ? -1.0 : 1.0;
                double cosang = s * (e.normal[0] * b.normal[0] + e.normal[1] * b.normal[1] +
                                     e.normal[2] * b.normal[2]);
                assert_true(cosang > 0.9999);
                normals_checked++;
            }
        }
        rp_heightmap_destroy(hm);
        free(m.h);
    }
    assert_int_equal(rays, 40 * 250);
    /* the mix of rays exercises both outcomes */
    assert_true(hits > rays / 4 && hits < rays * 9 / 10);
    assert_true(normals_checked > hits / 2);
}

/* Accelerated and plain walks agree on procedural maps whose sizes are not
   powers of two plus one (ragged pyramid edges). */
static void accelerated_walk_agrees_with_plain_walk(void **state)
{
    (void)state;
    rng_state = 77;
    const int sizes[][2] = {{2, 2}, {3, 7}, {6, 2}, {70, 45}, {129, 129}, {200, 31}};
    for (int s = 0; s < 6; s++) {
        rp_heightmap *hm = rp_heightmap_generate(sizes[s][0], sizes[s][1], 0.75f, 20.0f,
                                                 (uint32_t)s, (vec3){-3, 1, 2});
        assert_non_null(hm);
        map_desc m = {sizes[s][0], sizes[s][1], 0.75f, {-3, 1, 2}, NULL};
        int hits = 0;
        for (int i = 0; i < 400; i++) {
            rp_ray ray = random_ray(&m, 0, 20);
            rp_hit a, b;
            bool ha = rp_intersect_ray_heightmap(hm, &ray, &a);
            bool hb = rp_hm_intersect_walk(hm, &ray, &b);
            assert_int_equal(ha, hb);
            if (ha) {
                hits++;
                assert_true(fabsf(a.t - b.t) * glm_vec3_norm(ray.dir) <= 1e-4f);
                assert_true(a.inside == b.inside);
            }
        }
        assert_true(hits > 40);
        rp_heightmap_destroy(hm);
    }
}

/* A level ray along a grid line, drifting off it by a step far below double
   resolution (1e-20 beside 1): the fuzzer's case. Its position rounds back
   onto the line, so choosing a pyramid child by position put the ray in
   the cells beyond the line while the cell walk, going by the crossing
   time, left them at once: the hit was missed and a later one reported.
   Every grid line, both drifts, x and z: the pyramid agrees with the plain
   walk, and the hit lies on the surface. */
static void ray_drifting_off_a_grid_line_finds_the_first_hit(void **state)
{
    (void)state;
    rng_state = 38;
    enum { N = 10 };
    map_desc m = {N, N, 0.203125f, {0.203125f, 0.015625f, 0.0f}, NULL};
    m.h = malloc(N * N * sizeof *m.h);
    assert_non_null(m.h);
    for (int i = 0; i < N * N; i++)
        m.h[i] = (float)uniform_int(0, 160) / 16.0f;
    rp_heightmap *hm = rp_heightmap_create(m.cols, m.rows, m.spacing, m.origin, m.h);
    assert_non_null(hm);
    const float drifts[] = {-3e-21f, 3e-21f, -1e-30f, 1e-30f};
    int hits = 0;
    for (int axis = 0; axis < 2; axis++)
        for (int line = 0; line < N; line++)
            for (int d = 0; d < 4; d++)
                for (int sign = -1; sign <= 1; sign += 2) {
                    int along = axis == 0 ? 0 : 2, across = 2 - along;
                    rp_ray ray;
                    ray.origin[along] = m.origin[along] + (sign > 0 ? -0.5f : N) * m.spacing;
                    ray.origin[across] = m.origin[across] + (float)line * m.spacing;
                    ray.origin[1] = m.origin[1] + 3.0f;
                    ray.dir[along] = (float)sign * m.spacing;
                    ray.dir[across] = drifts[d];
                    ray.dir[1] = 0.0f;
                    rp_hit a, b;
                    bool ha = rp_intersect_ray_heightmap(hm, &ray, &a);
                    bool hb = rp_hm_intersect_walk(hm, &ray, &b);
                    if (ha != hb || (ha && a.t != b.t))
                        print_error("axis %d line %d drift %g sign %d: pyramid %d t %g, "
                                    "walk %d t %g\n", axis, line, (double)drifts[d], sign, ha,
                                    (double)a.t, hb, (double)b.t);
                    assert_int_equal(ha, hb);
                    if (!ha)
                        continue;
                    hits++;
                    assert_true(a.t == b.t);
                    float y;
                    assert_true(rp_heightmap_height_at(hm, a.point[0], a.point[2], &y));
                    assert_float_equal(a.point[1], y, 1e-3f);
                }
    assert_true(hits > 2 * N * 4);
    rp_heightmap_destroy(hm);
    free(m.h);
}

static void acceleration_memory_is_at_most_half_the_heights(void **state)
{
    (void)state;
    const int sizes[][2] = {{2, 2}, {2, 3}, {3, 2}, {2, 100}, {5, 5}, {6, 6}, {9, 9},
                            {17, 3}, {33, 33}, {100, 7}, {257, 257}, {1000, 3}};
    for (int s = 0; s < 12; s++) {
        rp_heightmap *hm = rp_heightmap_generate(sizes[s][0], sizes[s][1], 1.0f, 1.0f, 1u,
                                                 (vec3){0, 0, 0});
        assert_non_null(hm);
        size_t heights = (size_t)sizes[s][0] * (size_t)sizes[s][1] * sizeof(float);
        assert_true(rp_hm_accel_bytes(hm) > 0);
        assert_true(rp_hm_accel_bytes(hm) * 2 <= heights);
        rp_heightmap_destroy(hm);
    }
}

/* Every node of every level bounds exactly the samples under it (the
   one-pass build against a brute-force scan), and the height range is the
   top node's. Sizes cover SIMD widths, tails and clamped border leaves. */
static void pyramid_bounds_are_exact(void **state)
{
    (void)state;
    const int sizes[][2] = {{2, 2}, {3, 2}, {5, 5}, {6, 9}, {9, 9}, {13, 6},
                            {17, 3}, {33, 34}, {100, 7}, {2, 100}};
    uint32_t seed = 7u;
    for (int s = 0; s < 10; s++) {
        int cols = sizes[s][0], rows = sizes[s][1];
        float *h = malloc((size_t)cols * (size_t)rows * sizeof *h);
        float lo = INFINITY, hi = -INFINITY;
        for (int i = 0; i < cols * rows; i++) {
            seed = seed * 1664525u + 1013904223u;
            h[i] = (float)(seed >> 8) / 16777216.0f * 20.0f - 10.0f;
            lo = fminf(lo, h[i]);
            hi = fmaxf(hi, h[i]);
        }
        rp_heightmap *hm = rp_heightmap_create(cols, rows, 1.0f, (vec3){0, 0, 0}, h);
        assert_non_null(hm);
        float rlo, rhi;
        rp_heightmap_height_range(hm, &rlo, &rhi);
        assert_true(rlo == lo && rhi == hi);
        for (int l = 0; l < hm->levels; l++) {
            const rp_hm_level *lv = &hm->level[l];
            int span = 1 << (hm->leaf_log2 + l);
            for (int z = 0; z < lv->nz; z++)
                for (int x = 0; x < lv->nx; x++) {
                    float blo = INFINITY, bhi = -INFINITY;
                    for (int r = z * span; r <= z * span + span && r < rows; r++)
                        for (int c = x * span; c <= x * span + span && c < cols; c++) {
                            blo = fminf(blo, h[r * cols + c]);
                            bhi = fmaxf(bhi, h[r * cols + c]);
                        }
                    rp_hm_bounds b = lv->nodes[z * lv->nx + x];
                    assert_true(b.lo == blo && b.hi == bhi);
                }
        }
        rp_heightmap_destroy(hm);
        /* a NaN or infinity at any sample refuses the map */
        for (int i = 0; i < cols * rows; i += 1 + i / 8) {
            float keep = h[i];
            h[i] = NAN;
            assert_null(rp_heightmap_create(cols, rows, 1.0f, (vec3){0, 0, 0}, h));
            h[i] = i % 2 ? INFINITY : -INFINITY;
            assert_null(rp_heightmap_create(cols, rows, 1.0f, (vec3){0, 0, 0}, h));
            h[i] = keep;
        }
        free(h);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(exact_matches_brute_force_on_random_rays),
        cmocka_unit_test(accelerated_walk_agrees_with_plain_walk),
        cmocka_unit_test(ray_drifting_off_a_grid_line_finds_the_first_hit),
        cmocka_unit_test(acceleration_memory_is_at_most_half_the_heights),
        cmocka_unit_test(pyramid_bounds_are_exact),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

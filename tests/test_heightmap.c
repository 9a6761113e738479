/* test_heightmap.c: building maps, height_at, the tutorial's search made
   safe and the exact method on maps with analytic answers and awkward rays. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <raypick/raypick.h>

#define SENTINEL 12345.0f

static rp_heightmap *flat_map(int cols, int rows, float h, float spacing, const vec3 origin)
{
    float *hs = malloc((size_t)cols * (size_t)rows * sizeof *hs);
    for (int i = 0; i < cols * rows; i++)
        hs[i] = h;
    rp_heightmap *hm = rp_heightmap_create(cols, rows, spacing, origin, hs);
    free(hs);
    assert_non_null(hm);
    return hm;
}

static void assert_untouched_hit(const rp_hit *h)
{
    assert_true(h->t == SENTINEL && h->point[0] == SENTINEL && h->normal[1] == SENTINEL);
}

static rp_hit sentinel_hit(void)
{
    rp_hit h;
    h.t = h.t_enter = h.t_exit = SENTINEL;
    glm_vec3_fill(h.point, SENTINEL);
    glm_vec3_fill(h.normal, SENTINEL);
    h.inside = true;
    return h;
}

/* Both methods miss, and leave their outputs alone. */
static void assert_both_miss(const rp_heightmap *hm, const rp_ray *ray)
{
    rp_hit hit = sentinel_hit();
    vec3 p = {SENTINEL, SENTINEL, SENTINEL};
    assert_false(rp_intersect_ray_heightmap(hm, ray, &hit));
    assert_untouched_hit(&hit);
    assert_false(rp_heightmap_pick_search(hm, ray, 300, 0.01f, p));
    assert_true(p[0] == SENTINEL && p[1] == SENTINEL && p[2] == SENTINEL);
    assert_false(rp_heightmap_pick_search_hit(hm, ray, 300, 0.01f, NULL, &hit));
    assert_untouched_hit(&hit);
}

/* ---- create ------------------------------------------------------------ */

static void create_rejects_invalid_maps(void **state)
{
    (void)state;
    float h[9] = {0};
    vec3 o = {0, 0, 0};
    assert_null(rp_heightmap_create(3, 3, 1.0f, o, NULL));
    assert_null(rp_heightmap_create(3, 3, 1.0f, NULL, h));
    assert_null(rp_heightmap_create(1, 9, 1.0f, o, h));
    assert_null(rp_heightmap_create(9, 1, 1.0f, o, h));
    assert_null(rp_heightmap_create(0, 3, 1.0f, o, h));
    assert_null(rp_heightmap_create(-3, -3, 1.0f, o, h));
    assert_null(rp_heightmap_create(3, 3, 0.0f, o, h));
    assert_null(rp_heightmap_create(3, 3, -1.0f, o, h));
    assert_null(rp_heightmap_create(3, 3, NAN, o, h));
    assert_null(rp_heightmap_create(3, 3, INFINITY, o, h));
    assert_null(rp_heightmap_create(3, 3, 1.0f, (vec3){NAN, 0, 0}, h));
    assert_null(rp_heightmap_create(3, 3, 1.0f, (vec3){0, INFINITY, 0}, h));
    /* sizes whose product would overflow are refused before reading */
    assert_null(rp_heightmap_create(INT_MAX, INT_MAX, 1.0f, o, h));
    assert_null(rp_heightmap_create(INT_MAX, 3, 1.0f, o, h));
    /* an extent or height that overflows float */
    assert_null(rp_heightmap_create(3, 3, 3e38f, o, h));
    float big[4] = {0, 0, 0, 3e38f};
    assert_null(rp_heightmap_create(2, 2, 1.0f, (vec3){0, 3e38f, 0}, big));
    float bad[9] = {0, 0, 0, 0, NAN, 0, 0, 0, 0};
    assert_null(rp_heightmap_create(3, 3, 1.0f, o, bad));
    bad[4] = -INFINITY;
    assert_null(rp_heightmap_create(3, 3, 1.0f, o, bad));
    rp_heightmap_destroy(NULL);     /* ignored */
}

static void create_copies_heights_and_reports_them(void **state)
{
    (void)state;
    float h[6] = {1, 2, 3, -4, 5, 6};
    vec3 o = {10, 20, 30};
    rp_heightmap *hm = rp_heightmap_create(3, 2, 0.5f, o, h);
    assert_non_null(hm);
    h[0] = 100;                      /* the map keeps its own copy */
    assert_int_equal(rp_heightmap_cols(hm), 3);
    assert_int_equal(rp_heightmap_rows(hm), 2);
    assert_true(rp_heightmap_spacing(hm) == 0.5f);
    vec3 got;
    rp_heightmap_origin(hm, got);
    assert_true(got[0] == 10 && got[1] == 20 && got[2] == 30);
    assert_true(rp_heightmap_heights(hm)[0] == 1.0f);
    assert_true(rp_heightmap_heights(hm)[3] == -4.0f);
    float lo = 0, hi = 0;
    rp_heightmap_height_range(hm, &lo, &hi);
    assert_true(lo == -4.0f && hi == 6.0f);
    rp_heightmap_height_range(hm, NULL, NULL);
    rp_heightmap_destroy(hm);

    assert_int_equal(rp_heightmap_cols(NULL), 0);
    assert_null(rp_heightmap_heights(NULL));
}

/* ---- height_at --------------------------------------------------------- */

static void height_at_vertices_is_the_sample(void **state)
{
    (void)state;
    float h[20];
    for (int i = 0; i < 20; i++)
        h[i] = (float)((i * 7) % 5) - 1.5f;
    vec3 o = {-2, 3, 5};
    rp_heightmap *hm = rp_heightmap_create(5, 4, 0.25f, o, h);
    assert_non_null(hm);
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 5; c++) {
            float y = SENTINEL;
            assert_true(rp_heightmap_height_at(hm, -2 + c * 0.25f, 5 + r * 0.25f, &y));
            assert_float_equal(y, 3 + h[r * 5 + c], 1e-6f);
        }
    rp_heightmap_destroy(hm);
}

/* One cell, spacing 2 at (10, 5, 20): samples h00 = 0, h10 = 1, h01 = 2,
   h11 = 4. The two triangles 00-10-11 and 00-11-01 are different planes. */
static rp_heightmap *one_cell(void)
{
    float h[4] = {0, 1, 2, 4};
    rp_heightmap *hm = rp_heightmap_create(2, 2, 2.0f, (vec3){10, 5, 20}, h);
    assert_non_null(hm);
    return hm;
}

static float at(const rp_heightmap *hm, float u, float v)
{
    float y = SENTINEL;
    assert_true(rp_heightmap_height_at(hm, 10 + 2 * u, 20 + 2 * v, &y));
    return y - 5;
}

static void height_at_both_triangles_and_edges(void **state)
{
    (void)state;
    rp_heightmap *hm = one_cell();
    /* triangle 00-10-11 (u >= v): plane 0 + 1 u + 3 v */
    assert_float_equal(at(hm, 0.75f, 0.25f), 1.5f, 1e-6f);
    assert_float_equal(at(hm, 0.9f, 0.1f), 1.2f, 1e-5f);
    /* triangle 00-11-01 (u < v): plane 0 + 2 u + 2 v */
    assert_float_equal(at(hm, 0.25f, 0.75f), 2.0f, 1e-6f);
    assert_float_equal(at(hm, 0.1f, 0.9f), 2.0f, 1e-5f);
    /* the diagonal: halfway between h00 and h11, from either side */
    assert_float_equal(at(hm, 0.5f, 0.5f), 2.0f, 1e-6f);
    /* the four edges, linear between their two samples */
    assert_float_equal(at(hm, 0.5f, 0.0f), 0.5f, 1e-6f);
    assert_float_equal(at(hm, 1.0f, 0.5f), 2.5f, 1e-6f);
    assert_float_equal(at(hm, 0.5f, 1.0f), 3.0f, 1e-6f);
    assert_float_equal(at(hm, 0.0f, 0.5f), 1.0f, 1e-6f);
    rp_heightmap_destroy(hm);
}

static void height_at_off_the_map(void **state)
{
    (void)state;
    rp_heightmap *hm = one_cell();
    float y = SENTINEL;
    /* the closed rectangle [10, 12] x [20, 22] is inside */
    assert_true(rp_heightmap_height_at(hm, 12.0f, 22.0f, &y));
    assert_float_equal(y, 9.0f, 1e-6f);
    assert_true(rp_heightmap_height_at(hm, 10.0f, 20.0f, NULL));
    y = SENTINEL;
    assert_false(rp_heightmap_height_at(hm, nextafterf(10.0f, 0.0f), 21.0f, &y));
    assert_false(rp_heightmap_height_at(hm, 11.0f, nextafterf(22.0f, 30.0f), &y));
    assert_false(rp_heightmap_height_at(hm, 13.0f, 21.0f, &y));
    assert_false(rp_heightmap_height_at(hm, NAN, 21.0f, &y));
    assert_false(rp_heightmap_height_at(hm, 11.0f, INFINITY, &y));
    assert_false(rp_heightmap_height_at(NULL, 11.0f, 21.0f, &y));
    assert_true(y == SENTINEL);
    rp_heightmap_destroy(hm);
}

/* ---- flat maps, analytic answers ---------------------------------------- */

static void flat_map_analytic_hit(void **state)
{
    (void)state;
    rp_heightmap *hm = flat_map(17, 9, 3.0f, 0.5f, (vec3){-4, 1, -2});   /* y = 4 */
    /* from (0, 10, 0) along (1, -2, 0.5): y = 4 at t = 3, point (3, 4, 1.5) */
    rp_ray ray = {{0, 10, 0}, {1, -2, 0.5f}};
    rp_hit hit = sentinel_hit();
    assert_true(rp_intersect_ray_heightmap(hm, &ray, &hit));
    assert_float_equal(hit.t, 3.0f, 1e-5f);
    assert_true(hit.t_enter == hit.t && hit.t_exit == hit.t);
    assert_float_equal(hit.point[0], 3.0f, 1e-5f);
    assert_float_equal(hit.point[1], 4.0f, 1e-5f);
    assert_float_equal(hit.point[2], 1.5f, 1e-5f);
    assert_float_equal(hit.normal[0], 0.0f, 1e-6f);
    assert_float_equal(hit.normal[1], 1.0f, 1e-6f);
    assert_float_equal(hit.normal[2], 0.0f, 1e-6f);
    assert_false(hit.inside);
    assert_true(rp_intersect_ray_heightmap(hm, &ray, NULL));

    vec3 p = {SENTINEL, SENTINEL, SENTINEL};
    assert_true(rp_heightmap_pick_search(hm, &ray, 300, 0.001f, p));
    assert_float_equal(p[0], 3.0f, 1e-3f);
    assert_float_equal(p[1], 4.0f, 1e-3f);
    assert_float_equal(p[2], 1.5f, 1e-3f);
    assert_true(rp_heightmap_pick_search(hm, &ray, 300, 0.001f, NULL));

    /* the same ray with dir scaled by 10: t in units of dir */
    glm_vec3_scale(ray.dir, 10.0f, ray.dir);
    assert_true(rp_intersect_ray_heightmap(hm, &ray, &hit));
    assert_float_equal(hit.t, 0.3f, 1e-6f);
    rp_heightmap_destroy(hm);
}

static void sloped_plane_analytic_hit_and_normal(void **state)
{
    (void)state;
    /* y = 0.5 x over x, z in [0, 8]: a plane split into triangles is still
       the plane; normal (-0.5, 1, 0) / |.| */
    float h[81];
    for (int r = 0; r < 9; r++)
        for (int c = 0; c < 9; c++)
            h[r * 9 + c] = 0.5f * c;
    rp_heightmap *hm = rp_heightmap_create(9, 9, 1.0f, (vec3){0, 0, 0}, h);
    assert_non_null(hm);
    /* straight down at (3, 5): y = 1.5, from y = 10: t = 8.5 */
    rp_ray ray = {{3, 10, 5}, {0, -1, 0}};
    rp_hit hit;
    assert_true(rp_intersect_ray_heightmap(hm, &ray, &hit));
    assert_float_equal(hit.t, 8.5f, 1e-5f);
    float n = sqrtf(1.25f);
    assert_float_equal(hit.normal[0], -0.5f / n, 1e-6f);
    assert_float_equal(hit.normal[1], 1.0f / n, 1e-6f);
    assert_float_equal(hit.normal[2], 0.0f, 1e-6f);
    /* a level ray from the low side at y = 2 meets the slope at x = 4 */
    rp_ray level = {{-5, 2, 3.3f}, {2, 0, 0}};
    assert_true(rp_intersect_ray_heightmap(hm, &level, &hit));
    assert_float_equal(hit.point[0], 4.0f, 1e-5f);
    assert_float_equal(hit.t, 4.5f, 1e-5f);
    vec3 p;
    assert_true(rp_heightmap_pick_search(hm, &level, 300, 1e-4f, p));
    assert_float_equal(p[0], 4.0f, 1e-3f);
    assert_float_equal(p[1], 2.0f, 1e-6f);
    rp_heightmap_destroy(hm);
}

/* ---- the thin spire --------------------------------------------------- */

/* A 1025 x 3 flat map with one raised sample at (513, 1). The ray runs
   along the grid line z = 1 from (0, 10) down to (1024, 0): 300 linear
   steps are 3.4 apart and the spire is 1 wide at the ray's height, so the
   tutorial's search steps over it and stops at the far end of the map.
   The exact method hits the spire's side. */
static void thin_spire_search_steps_over_exact_hits(void **state)
{
    (void)state;
    enum { COLS = 1025, ROWS = 3 };
    static float h[COLS * ROWS];
    memset(h, 0, sizeof h);
    h[1 * COLS + 513] = 10.0f;
    rp_heightmap *hm = rp_heightmap_create(COLS, ROWS, 1.0f, (vec3){0, 0, 0}, h);
    assert_non_null(hm);
    rp_ray ray = {{0, 10, 1}, {1024, -10, 0}};

    /* along z = 1 the surface rises from (512, 0) to (513, 10):
       10 - 10 x / 1024 = 10 (x - 512)  ->  x = 5130 / (10 + 10 / 1024) */
    double x_hit = 5130.0 / (10.0 + 10.0 / 1024.0);
    rp_hit hit;
    assert_true(rp_intersect_ray_heightmap(hm, &ray, &hit));
    assert_float_equal(hit.point[0], (float)x_hit, 1e-3f);
    assert_float_equal(hit.point[2], 1.0f, 0.0f);
    assert_float_equal(hit.t, (float)(x_hit / 1024.0), 1e-6f);

    vec3 p;
    assert_true(rp_heightmap_pick_search(hm, &ray, 300, 0.01f, p));
    assert_true(p[0] > 1000.0f);                /* stepped over the spire */
    /* with steps finer than the spire, the search finds it too */
    assert_true(rp_heightmap_pick_search(hm, &ray, 3000, 0.01f, p));
    assert_float_equal(p[0], (float)x_hit, 0.01f);
    rp_heightmap_destroy(hm);
}

/* ---- awkward rays ------------------------------------------------------- */

/* A 33 x 33 map, spacing 1, heights 2 .. 6: a smooth bump. */
static rp_heightmap *bump_map(void)
{
    float h[33 * 33];
    for (int r = 0; r < 33; r++)
        for (int c = 0; c < 33; c++) {
            float dx = (c - 16) / 8.0f, dz = (r - 16) / 8.0f;
            h[r * 33 + c] = 2.0f + 4.0f * expf(-(dx * dx + dz * dz));
        }
    rp_heightmap *hm = rp_heightmap_create(33, 33, 1.0f, (vec3){0, 0, 0}, h);
    assert_non_null(hm);
    return hm;
}

/* The hit point lies on the surface, and the search agrees. */
static void assert_on_surface(const rp_heightmap *hm, const vec3 p, float tol)
{
    float y;
    assert_true(rp_heightmap_height_at(hm, p[0], p[2], &y));
    assert_float_equal(p[1], y, tol);
}

static void both_find(const rp_heightmap *hm, const rp_ray *ray, rp_hit *hit)
{
    assert_true(rp_intersect_ray_heightmap(hm, ray, hit));
    assert_on_surface(hm, hit->point, 1e-4f);
    vec3 p;
    assert_true(rp_heightmap_pick_search(hm, ray, 300, 1e-4f, p));
    assert_on_surface(hm, p, 2e-4f);
    assert_float_equal(p[0], hit->point[0], 0.01f);
    assert_float_equal(p[2], hit->point[2], 0.01f);
    /* the search's hit record: its point, t along the ray, the side it
       came from as the exact method sees it */
    rp_hit sh;
    assert_true(rp_heightmap_pick_search_hit(hm, ray, 300, 1e-4f, NULL, &sh));
    assert_memory_equal(sh.point, p, sizeof(vec3));
    assert_true(sh.t >= 0.0f && sh.t == sh.t_enter && sh.t == sh.t_exit);
    vec3 at;
    rp_ray_at(ray, sh.t, at);
    for (int i = 0; i < 3; i++)
        assert_float_equal(at[i], p[i], 1e-4f * (1.0f + fabsf(p[i])));
    assert_float_equal(sh.t, hit->t, 0.01f * (1.0f + hit->t));
    assert_true(sh.inside == hit->inside);
    assert_float_equal(glm_vec3_norm(sh.normal), 1.0f, 1e-5f);
    assert_true(glm_vec3_dot(sh.normal, hit->normal) > 0.0f);
}

static void level_rays(void **state)
{
    (void)state;
    rp_heightmap *hm = bump_map();
    rp_hit hit;
    /* inside the band: clipped by the rectangle only, hits the bump's side */
    rp_ray in_band = {{-10, 4, 16}, {1, 0, 0}};
    both_find(hm, &in_band, &hit);
    assert_true(hit.point[0] > 0.0f && hit.point[0] < 16.0f);
    assert_true(hit.normal[0] < 0.0f);      /* faces back towards the ray */
    /* above the band, and below it */
    rp_ray above = {{-10, 6.5f, 16}, {1, 0, 0}};
    assert_both_miss(hm, &above);
    rp_ray below = {{-10, 1.0f, 16}, {1, 0, 0}};
    assert_both_miss(hm, &below);
    /* on the lowest samples' height, outside the map, running beside it */
    rp_ray beside = {{-1, 2.0f, -0.5f}, {1, 0, 0}};
    assert_both_miss(hm, &beside);
    rp_heightmap_destroy(hm);
}

static void level_ray_touching_a_flat_map(void **state)
{
    (void)state;
    rp_heightmap *hm = flat_map(5, 5, 1.0f, 1.0f, (vec3){0, 0, 0});
    /* a level ray exactly on a flat map touches it where it enters */
    rp_ray ray = {{-3, 1, 2}, {1, 0, 0}};
    rp_hit hit;
    assert_true(rp_intersect_ray_heightmap(hm, &ray, &hit));
    assert_float_equal(hit.t, 3.0f, 1e-6f);
    vec3 p;
    assert_true(rp_heightmap_pick_search(hm, &ray, 10, 0.01f, p));
    assert_float_equal(p[0], 0.0f, 1e-6f);
    /* starting on it: t = 0 */
    rp_ray on = {{2, 1, 2}, {0, 0, 1}};
    assert_true(rp_intersect_ray_heightmap(hm, &on, &hit));
    assert_float_equal(hit.t, 0.0f, 0.0f);
    rp_heightmap_destroy(hm);
}

static void rays_going_up(void **state)
{
    (void)state;
    rp_heightmap *hm = bump_map();
    /* from above the surface, going up: nothing */
    rp_ray up = {{5, 3, 5}, {0.3f, 1, 0.2f}};
    assert_both_miss(hm, &up);
    /* from below the band, rising through the map: comes up through the
       surface from below */
    rp_ray rising = {{16, -3, 16}, {0.1f, 1, 0}};
    rp_hit hit;
    both_find(hm, &rising, &hit);
    assert_true(hit.inside);
    assert_true(hit.normal[1] < 0.0f);      /* faces down, where it came from */
    /* below the band going down, or level: nothing */
    rp_ray sinking = {{16, -3, 16}, {0.1f, -1, 0}};
    assert_both_miss(hm, &sinking);
    rp_heightmap_destroy(hm);
}

static void rays_starting_below_the_surface(void **state)
{
    (void)state;
    rp_heightmap *hm = bump_map();
    /* inside the bump, heading out sideways and slightly down: it comes
       out through the bump's flank */
    rp_ray out = {{16, 4, 16}, {1, -0.05f, 0}};
    rp_hit hit;
    both_find(hm, &out, &hit);
    assert_true(hit.inside);
    assert_true(hit.point[0] > 16.0f);
    /* straight down under the surface: never comes out */
    rp_ray down = {{16, 4, 16}, {0, -1, 0}};
    assert_both_miss(hm, &down);
    rp_heightmap_destroy(hm);
}

static void rays_that_miss_the_map(void **state)
{
    (void)state;
    rp_heightmap *hm = bump_map();
    rp_ray away = {{-5, 10, -5}, {-1, -1, 0}};
    assert_both_miss(hm, &away);
    rp_ray past = {{-5, 10, -5}, {1, -0.1f, -1}};
    assert_both_miss(hm, &past);
    /* the map is behind the origin */
    rp_ray behind = {{50, 10, 16}, {1, 0.5f, 0}};
    assert_both_miss(hm, &behind);
    /* a vertical ray beside the map */
    rp_ray vertical = {{40, 10, 16}, {0, -1, 0}};
    assert_both_miss(hm, &vertical);
    rp_heightmap_destroy(hm);
}

static void vertical_rays(void **state)
{
    (void)state;
    rp_heightmap *hm = bump_map();
    for (int i = 0; i < 20; i++) {
        float x = 0.7f + 1.55f * i, z = 32.0f - 1.6f * i;
        float y;
        assert_true(rp_heightmap_height_at(hm, x, z, &y));
        rp_ray down = {{x, 20, z}, {0, -2, 0}};
        rp_hit hit;
        both_find(hm, &down, &hit);
        assert_float_equal(hit.t, (20 - y) / 2, 1e-5f);
        assert_float_equal(hit.point[0], x, 0.0f);
    }
    /* on the map's corner and edges */
    rp_ray corner = {{32, 20, 32}, {0, -1, 0}};
    rp_hit hit;
    both_find(hm, &corner, &hit);
    rp_ray edge = {{0, 20, 7.5f}, {0, -1, 0}};
    both_find(hm, &edge, &hit);
    rp_heightmap_destroy(hm);
}

/* Rays along grid lines, diagonals and through vertices, over a map whose
   every sample is exact in float. They must not slip between cells. */
static void rays_along_grid_lines_and_through_vertices(void **state)
{
    (void)state;
    float h[17 * 17];
    for (int r = 0; r < 17; r++)
        for (int c = 0; c < 17; c++)
            h[r * 17 + c] = (float)((c * 3 + r * 5) % 7);
    rp_heightmap *hm = rp_heightmap_create(17, 17, 1.0f, (vec3){0, 0, 0}, h);
    assert_non_null(hm);
    const float dirs[][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {-1, -1}, {1, -1}, {-1, 1}};
    int hits = 0;
    for (int d = 0; d < 8; d++)
        for (int k = 0; k <= 16; k++)
            for (int s = 0; s < 3; s++) {
                /* start over a vertex (k, 8), at heights 7, 6.5, 3 */
                float y0 = s == 0 ? 7.0f : (s == 1 ? 6.5f : 3.0f);
                float slope = s == 2 ? 0.0f : -0.2f;
                rp_ray ray = {{(float)k, y0, 8}, {dirs[d][0], slope, dirs[d][1]}};
                rp_hit hit;
                if (rp_intersect_ray_heightmap(hm, &ray, &hit)) {
                    hits++;
                    assert_on_surface(hm, hit.point, 1e-4f);
                    /* no earlier crossing: sample the ray before the hit */
                    for (int i = 0; i < 64; i++) {
                        rp_ray_at(&ray, hit.t * i / 64.0f, hit.point);
                        float y;
                        if (rp_heightmap_height_at(hm, hit.point[0], hit.point[2], &y)) {
                            float above = hit.point[1] - y;
                            assert_true(hit.inside ? above <= 1e-4f : above >= -1e-4f);
                        }
                    }
                } else {
                    /* a miss: every point along the ray stays on one side */
                    int side = 0;
                    for (int i = 0; i <= 400; i++) {
                        vec3 p;
                        rp_ray_at(&ray, i * 0.1f, p);
                        float y;
                        if (!rp_heightmap_height_at(hm, p[0], p[2], &y))
                            continue;
                        int now = p[1] > y ? 1 : -1;
                        assert_true(fabsf(p[1] - y) > 1e-6f);
                        if (side == 0)
                            side = now;
                        assert_int_equal(now, side);
                    }
                }
            }
    assert_true(hits > 100);
    rp_heightmap_destroy(hm);
}

/* A level ray at exactly a peak's height touches the peak's vertex. */
static void ray_touching_a_peak_vertex(void **state)
{
    (void)state;
    float h[9 * 9] = {0};
    h[4 * 9 + 4] = 5.0f;
    rp_heightmap *hm = rp_heightmap_create(9, 9, 1.0f, (vec3){0, 0, 0}, h);
    assert_non_null(hm);
    const float dirs[][2] = {{1, 0}, {0, 1}, {1, 1}, {-1, 1}, {1, 2}};
    for (int d = 0; d < 5; d++) {
        /* aimed through (4, 5, 4) from 3 units before it */
        rp_ray ray = {{4 - 3 * dirs[d][0], 5, 4 - 3 * dirs[d][1]}, {dirs[d][0], 0, dirs[d][1]}};
        rp_hit hit;
        assert_true(rp_intersect_ray_heightmap(hm, &ray, &hit));
        assert_float_equal(hit.t, 3.0f, 1e-5f);
        assert_float_equal(hit.point[0], 4.0f, 1e-5f);
        assert_float_equal(hit.point[2], 4.0f, 1e-5f);
        /* a hair higher: passes over */
        ray.origin[1] = 5.001f;
        assert_false(rp_intersect_ray_heightmap(hm, &ray, &hit));
    }
    rp_heightmap_destroy(hm);
}

static void extreme_directions_end(void **state)
{
    (void)state;
    rp_heightmap *hm = bump_map();
    /* tiny components, a near-vertical ray, a denormal direction */
    rp_ray rays[] = {
        {{3, 20, 3}, {1e-30f, -1, 1e-30f}},
        {{3, 20, 3}, {1e-7f, -1, -1e-7f}},
        {{-1e6f, 3, 16}, {1e6f, 0, 1e-3f}},
        {{3, 20, 3}, {1e-40f, -1e-40f, 1e-40f}},
        {{1e30f, 1e30f, 1e30f}, {-1, -1, -1}},
    };
    for (size_t i = 0; i < sizeof rays / sizeof rays[0]; i++) {
        rp_hit hit;
        vec3 p;
        if (rp_intersect_ray_heightmap(hm, &rays[i], &hit)) {
            assert_true(isfinite(hit.t) && hit.t >= 0.0f);
            assert_on_surface(hm, hit.point, 1e-3f);
        }
        if (rp_heightmap_pick_search(hm, &rays[i], 300, 0.01f, p))
            assert_true(isfinite(p[0]) && isfinite(p[1]) && isfinite(p[2]));
    }
    /* the first two are nearly vertical over the map: they hit */
    rp_hit hit;
    assert_true(rp_intersect_ray_heightmap(hm, &rays[0], &hit));
    assert_true(rp_intersect_ray_heightmap(hm, &rays[1], &hit));
    rp_heightmap_destroy(hm);
}

static void invalid_rays_and_arguments(void **state)
{
    (void)state;
    rp_heightmap *hm = bump_map();
    rp_ray ok = {{16, 20, 16}, {0, -1, 0}};
    rp_ray bad[] = {
        {{NAN, 20, 16}, {0, -1, 0}},
        {{16, 20, 16}, {0, INFINITY, 0}},
        {{16, 20, 16}, {0, 0, 0}},
    };
    for (int i = 0; i < 3; i++)
        assert_both_miss(hm, &bad[i]);
    rp_hit hit = sentinel_hit();
    vec3 p = {SENTINEL, SENTINEL, SENTINEL};
    assert_false(rp_intersect_ray_heightmap(NULL, &ok, &hit));
    assert_false(rp_intersect_ray_heightmap(hm, NULL, &hit));
    assert_untouched_hit(&hit);
    assert_false(rp_heightmap_pick_search(NULL, &ok, 300, 0.01f, p));
    assert_false(rp_heightmap_pick_search(hm, NULL, 300, 0.01f, p));
    assert_false(rp_heightmap_pick_search(hm, &ok, 0, 0.01f, p));
    assert_false(rp_heightmap_pick_search(hm, &ok, -5, 0.01f, p));
    assert_false(rp_heightmap_pick_search(hm, &ok, RP_HEIGHTMAP_SEARCH_MAX_STEPS + 1, 0.01f, p));
    assert_false(rp_heightmap_pick_search(hm, &ok, INT_MAX, 0.01f, p));
    assert_false(rp_heightmap_pick_search(hm, &ok, 300, 0.0f, p));
    assert_false(rp_heightmap_pick_search(hm, &ok, 300, -1.0f, p));
    assert_false(rp_heightmap_pick_search(hm, &ok, 300, NAN, p));
    assert_false(rp_heightmap_pick_search(hm, &ok, 300, INFINITY, p));
    assert_true(p[0] == SENTINEL && p[1] == SENTINEL && p[2] == SENTINEL);
    /* the extremes of the valid range work */
    assert_true(rp_heightmap_pick_search(hm, &ok, 1, 0.01f, p));
    assert_true(rp_heightmap_pick_search(hm, &ok, RP_HEIGHTMAP_SEARCH_MAX_STEPS, 0.01f, p));
    rp_heightmap_destroy(hm);
}

static void accuracy_controls_the_search(void **state)
{
    (void)state;
    rp_heightmap *hm = bump_map();
    rp_ray ray = {{0, 9, 3}, {1, -0.5f, 0.6f}};
    rp_hit exact;
    assert_true(rp_intersect_ray_heightmap(hm, &ray, &exact));
    const float accs[] = {1.0f, 0.1f, 0.01f, 1e-4f, 1e-9f};
    for (int i = 0; i < 5; i++) {
        vec3 p;
        assert_true(rp_heightmap_pick_search(hm, &ray, 50, accs[i], p));
        float y;
        assert_true(rp_heightmap_height_at(hm, p[0], p[2], &y));
        /* below float resolution the best point is still on the surface */
        assert_true(fabsf(p[1] - y) < fmaxf(accs[i], 1e-5f) * 1.01f);
    }
    /* a huge accuracy accepts the clipped start at once */
    rp_search_trace tr = {0};
    vec3 p;
    assert_true(rp_heightmap_pick_search_traced(hm, &ray, 50, 100.0f, &tr, p));
    assert_int_equal(tr.linear_count, 1);
    assert_float_equal(p[1], 6.0f, 1e-4f);      /* the band's top */
    rp_heightmap_destroy(hm);
}

static void search_hit_gives_t_and_the_surface(void **state)
{
    (void)state;
    /* the sloped plane y = 0.5 x again: normal (-0.5, 1, 0) / |.| */
    float h[81];
    for (int r = 0; r < 9; r++)
        for (int c = 0; c < 9; c++)
            h[r * 9 + c] = 0.5f * c;
    rp_heightmap *hm = rp_heightmap_create(9, 9, 1.0f, (vec3){0, 0, 0}, h);
    assert_non_null(hm);
    float n = sqrtf(1.25f);
    /* straight down at (3, 5), dir of length 2: the surface is at y = 1.5,
       8.5 below, so t = 4.25 in units of dir */
    rp_ray down = {{3, 10, 5}, {0, -2, 0}};
    rp_hit hit = sentinel_hit();
    assert_true(rp_heightmap_pick_search_hit(hm, &down, 300, 1e-4f, NULL, &hit));
    assert_float_equal(hit.t, 4.25f, 1e-4f);
    assert_float_equal(hit.point[1], 1.5f, 1e-4f);
    assert_float_equal(hit.normal[0], -0.5f / n, 1e-6f);
    assert_float_equal(hit.normal[1], 1.0f / n, 1e-6f);
    assert_float_equal(hit.normal[2], 0.0f, 1e-6f);
    assert_false(hit.inside);
    /* from below, going up: the normal faces down, inside */
    rp_ray up = {{3, -4, 5}, {0, 1, 0}};
    assert_true(rp_heightmap_pick_search_hit(hm, &up, 300, 1e-4f, NULL, &hit));
    assert_float_equal(hit.t, 5.5f, 1e-4f);
    assert_float_equal(hit.normal[0], 0.5f / n, 1e-6f);
    assert_float_equal(hit.normal[1], -1.0f / n, 1e-6f);
    assert_true(hit.inside);
    /* NULL out is fine; the trace is the traced search's, point for point */
    assert_true(rp_heightmap_pick_search_hit(hm, &down, 300, 1e-4f, NULL, NULL));
    vec3 lin_a[400], lin_b[400], bin_a[80], bin_b[80], p;
    rp_search_trace ta = {.linear = lin_a, .linear_cap = 400, .binary = bin_a, .binary_cap = 80};
    rp_search_trace tb = {.linear = lin_b, .linear_cap = 400, .binary = bin_b, .binary_cap = 80};
    rp_ray slant = {{-2, 9, 1}, {1, -1, 0.5f}};
    assert_true(rp_heightmap_pick_search_hit(hm, &slant, 7, 1e-4f, &ta, &hit));
    assert_true(rp_heightmap_pick_search_traced(hm, &slant, 7, 1e-4f, &tb, p));
    assert_memory_equal(hit.point, p, sizeof p);
    assert_int_equal(ta.linear_count, tb.linear_count);
    assert_int_equal(ta.binary_count, tb.binary_count);
    assert_true(ta.binary_count > 0);
    assert_memory_equal(lin_a, lin_b, sizeof(vec3) * (size_t)ta.linear_count);
    assert_memory_equal(bin_a, bin_b, sizeof(vec3) * (size_t)ta.binary_count);
    /* invalid input: false, out untouched */
    rp_hit untouched = sentinel_hit();
    assert_false(rp_heightmap_pick_search_hit(NULL, &down, 300, 1e-4f, NULL, &untouched));
    assert_false(rp_heightmap_pick_search_hit(hm, NULL, 300, 1e-4f, NULL, &untouched));
    assert_false(rp_heightmap_pick_search_hit(hm, &down, 0, 1e-4f, NULL, &untouched));
    assert_false(rp_heightmap_pick_search_hit(hm, &down, 300, NAN, NULL, &untouched));
    assert_untouched_hit(&untouched);
    rp_heightmap_destroy(hm);
}

static void trace_records_the_search(void **state)
{
    (void)state;
    rp_heightmap *hm = bump_map();
    rp_ray ray = {{0, 9, 3}, {1, -0.5f, 0.6f}};
    vec3 lin[400], bin[80];
    rp_search_trace tr = {0};
    tr.linear = lin;
    tr.linear_cap = 400;
    tr.binary = bin;
    tr.binary_cap = 80;
    vec3 p;
    assert_true(rp_heightmap_pick_search_traced(hm, &ray, 300, 1e-4f, &tr, p));
    assert_true(tr.clipped);
    /* the clipped ray spans the band: y from 6 down to 2 (or the map's edge) */
    assert_float_equal(tr.clip_start[1], 6.0f, 1e-4f);
    assert_true(tr.clip_end[1] >= 2.0f - 1e-4f);
    assert_true(glm_vec3_distance(tr.clip_start, lin[0]) < 1e-5f);
    assert_true(tr.linear_count >= 2 && tr.linear_count <= 301);
    assert_true(tr.binary_count >= 1 && tr.binary_count <= 64);
    /* equal linear steps, each sample further along the ray */
    float step = glm_vec3_distance(lin[0], lin[1]);
    for (int i = 1; i < tr.linear_count; i++)
        assert_float_equal(glm_vec3_distance(lin[i - 1], lin[i]), step, 1e-4f);
    /* the binary samples stay between the last two linear samples */
    for (int i = 0; i < tr.binary_count; i++) {
        float d = glm_vec3_distance(lin[tr.linear_count - 2], bin[i]);
        assert_true(d <= step * 1.0001f);
    }
    /* the last binary sample is the answer */
    assert_true(glm_vec3_distance(bin[tr.binary_count - 1], p) < 1e-6f);

    /* caps: counted, not stored */
    vec3 two[2] = {{SENTINEL, 0, 0}, {SENTINEL, 0, 0}};
    rp_search_trace small = {0};
    small.linear = two;
    small.linear_cap = 1;
    assert_true(rp_heightmap_pick_search_traced(hm, &ray, 300, 1e-4f, &small, p));
    assert_int_equal(small.linear_count, tr.linear_count);
    assert_int_equal(small.binary_count, tr.binary_count);
    assert_true(two[1][0] == SENTINEL);

    /* a miss is traced too, and a ray that misses the band is not clipped */
    rp_ray up = {{0, 3, 0}, {1, 0.05f, 0}};      /* along the low edge */
    assert_false(rp_heightmap_pick_search_traced(hm, &up, 300, 1e-4f, &tr, p));
    assert_true(tr.clipped);
    assert_int_equal(tr.linear_count, 301);
    assert_int_equal(tr.binary_count, 0);
    rp_ray high = {{0, 30, 3}, {1, 0, 0}};
    assert_false(rp_heightmap_pick_search_traced(hm, &high, 300, 1e-4f, &tr, p));
    assert_false(tr.clipped);
    assert_int_equal(tr.linear_count, 0);
    rp_heightmap_destroy(hm);
}

/* ---- the generator ---------------------------------------------------- */

static void generator_is_deterministic_and_scaled(void **state)
{
    (void)state;
    vec3 o = {1, 2, 3};
    rp_heightmap *a = rp_heightmap_generate(65, 40, 0.5f, 30.0f, 42u, o);
    rp_heightmap *b = rp_heightmap_generate(65, 40, 0.5f, 30.0f, 42u, o);
    rp_heightmap *c = rp_heightmap_generate(65, 40, 0.5f, 30.0f, 43u, o);
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(c);
    assert_memory_equal(rp_heightmap_heights(a), rp_heightmap_heights(b), 65 * 40 * sizeof(float));
    assert_memory_not_equal(rp_heightmap_heights(a), rp_heightmap_heights(c), 65 * 40 * sizeof(float));
    float lo, hi;
    rp_heightmap_height_range(a, &lo, &hi);
    assert_true(lo == 0.0f && hi == 30.0f);
    /* smooth: neighbouring samples differ far less than the range */
    const float *h = rp_heightmap_heights(a);
    int distinct = 0;
    for (int r = 0; r < 40; r++)
        for (int col = 1; col < 65; col++) {
            float d = fabsf(h[r * 65 + col] - h[r * 65 + col - 1]);
            assert_true(d < 10.0f);
            distinct += d > 0.0f;
        }
    assert_true(distinct > 2000);
    rp_heightmap_destroy(a);
    rp_heightmap_destroy(b);
    rp_heightmap_destroy(c);

    rp_heightmap *flat = rp_heightmap_generate(3, 3, 1.0f, 0.0f, 7u, o);
    assert_non_null(flat);
    rp_heightmap_height_range(flat, &lo, &hi);
    assert_true(lo == 0.0f && hi == 0.0f);
    rp_heightmap_destroy(flat);

    assert_null(rp_heightmap_generate(1, 3, 1.0f, 1.0f, 0u, o));
    assert_null(rp_heightmap_generate(3, 3, 0.0f, 1.0f, 0u, o));
    assert_null(rp_heightmap_generate(3, 3, 1.0f, -1.0f, 0u, o));
    assert_null(rp_heightmap_generate(3, 3, 1.0f, NAN, 0u, o));
    assert_null(rp_heightmap_generate(3, 3, 1.0f, 1.0f, 0u, NULL));
    assert_null(rp_heightmap_generate(16385, 3, 1.0f, 1.0f, 0u, o));
    assert_null(rp_heightmap_generate(16384, 16384, 1.0f, 1.0f, 0u, o));   /* > 64M */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(create_rejects_invalid_maps),
        cmocka_unit_test(create_copies_heights_and_reports_them),
        cmocka_unit_test(height_at_vertices_is_the_sample),
        cmocka_unit_test(height_at_both_triangles_and_edges),
        cmocka_unit_test(height_at_off_the_map),
        cmocka_unit_test(flat_map_analytic_hit),
        cmocka_unit_test(sloped_plane_analytic_hit_and_normal),
        cmocka_unit_test(thin_spire_search_steps_over_exact_hits),
        cmocka_unit_test(level_rays),
        cmocka_unit_test(level_ray_touching_a_flat_map),
        cmocka_unit_test(rays_going_up),
        cmocka_unit_test(rays_starting_below_the_surface),
        cmocka_unit_test(rays_that_miss_the_map),
        cmocka_unit_test(vertical_rays),
        cmocka_unit_test(rays_along_grid_lines_and_through_vertices),
        cmocka_unit_test(ray_touching_a_peak_vertex),
        cmocka_unit_test(extreme_directions_end),
        cmocka_unit_test(invalid_rays_and_arguments),
        cmocka_unit_test(accuracy_controls_the_search),
        cmocka_unit_test(search_hit_gives_t_and_the_surface),
        cmocka_unit_test(trace_records_the_search),
        cmocka_unit_test(generator_is_deterministic_and_scaled),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

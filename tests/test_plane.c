/* test_plane.c: planes, ray vs plane, the point under the cursor on a plane
 * and the drag that keeps the grabbed point under the cursor, with random
 * cameras of every kind (ref_camera.h). */
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

static const rp_plane GROUND_2 = {{0.0f, 1.0f, 0.0f}, -2.0f};   /* y = 2 */

/* ---- constructors and distance ------------------------------------------ */

static void constructors_give_unit_normals(void **state)
{
    (void)state;
    rp_plane p;
    assert_true(rp_plane_from_point_normal((vec3){1, 2, 3}, (vec3){0, 0, 5}, &p));
    assert_float_equal(p.normal[2], 1.0f, 0.0f);
    assert_float_equal(p.d, -3.0f, 0.0f);

    /* counter-clockwise seen from +z: the front faces +z */
    assert_true(rp_plane_from_points((vec3){0, 0, 1}, (vec3){2, 0, 1}, (vec3){0, 2, 1}, &p));
    assert_float_equal(p.normal[0], 0.0f, 0.0f);
    assert_float_equal(p.normal[1], 0.0f, 0.0f);
    assert_float_equal(p.normal[2], 1.0f, 0.0f);
    assert_float_equal(p.d, -1.0f, 0.0f);
    /* the other winding faces the other way */
    assert_true(rp_plane_from_points((vec3){0, 0, 1}, (vec3){0, 2, 1}, (vec3){2, 0, 1}, &p));
    assert_float_equal(p.normal[2], -1.0f, 0.0f);

    float d;
    assert_true(rp_plane_signed_distance(&GROUND_2, (vec3){7, 5, -1}, &d));
    assert_float_equal(d, 3.0f, 0.0f);
    assert_true(rp_plane_signed_distance(&GROUND_2, (vec3){7, -1, -1}, &d));
    assert_float_equal(d, -3.0f, 0.0f);
    /* a normal of length 4: the distance is still in world units */
    const rp_plane scaled = {{0.0f, 4.0f, 0.0f}, -8.0f};
    assert_true(rp_plane_signed_distance(&scaled, (vec3){0, 5, 0}, &d));
    assert_float_equal(d, 3.0f, 0.0f);
}

/* ---- ray vs plane ---------------------------------------------------------- */

static void ray_meets_plane_from_either_side(void **state)
{
    (void)state;
    rp_hit h;
    const rp_ray down = {{1, 10, 3}, {0, -2, 0}};
    assert_true(rp_intersect_ray_plane(&down, &GROUND_2, &h));
    assert_float_equal(h.t, 4.0f, 0.0f);       /* in units of dir: 8 / 2 */
    assert_float_equal(h.t_enter, 4.0f, 0.0f);
    assert_float_equal(h.t_exit, 4.0f, 0.0f);
    assert_float_equal(h.point[1], 2.0f, 0.0f);
    assert_float_equal(h.normal[1], 1.0f, 0.0f);   /* faces where the ray came from */
    assert_false(h.inside);

    const rp_ray up = {{1, -6, 3}, {0, 1, 1}};
    assert_true(rp_intersect_ray_plane(&up, &GROUND_2, &h));
    assert_float_equal(h.t, 8.0f, 0.0f);
    assert_float_equal(h.point[2], 11.0f, 0.0f);
    assert_float_equal(h.normal[1], -1.0f, 0.0f);
    assert_true(h.inside);                     /* came from the back side */

    /* the same plane with a normal 5 times longer: the same hit */
    const rp_plane long_normal = {{0.0f, 5.0f, 0.0f}, -10.0f};
    rp_hit h2;
    assert_true(rp_intersect_ray_plane(&up, &long_normal, &h2));
    assert_true(h2.t == h.t && h2.inside == h.inside);
    assert_memory_equal(h2.point, h.point, sizeof h.point);
    assert_memory_equal(h2.normal, h.normal, sizeof h.normal);
}

static void parallel_behind_and_in_plane_rays_miss(void **state)
{
    (void)state;
    rp_hit h;
    poison(&h, sizeof h);
    const rp_ray level = {{0, 5, 0}, {1, 0, 0.5f}};
    const rp_ray in_plane = {{0, 2, 0}, {1, 0, 0}};
    const rp_ray away = {{0, 5, 0}, {0, 1, 0}};
    assert_false(rp_intersect_ray_plane(&level, &GROUND_2, &h));
    assert_false(rp_intersect_ray_plane(&in_plane, &GROUND_2, &h));
    assert_false(rp_intersect_ray_plane(&away, &GROUND_2, &h));
    assert_true(untouched(&h, sizeof h));

    /* nearly parallel: a hit so far away that t does not fit a float */
    const rp_ray grazing = {{0, 3, 0}, {1, -1e-40f, 0}};   /* t = 1e40 */
    assert_false(rp_intersect_ray_plane(&grazing, &GROUND_2, &h));
    assert_true(untouched(&h, sizeof h));
}

static void origin_on_the_plane_gives_t_zero(void **state)
{
    (void)state;
    rp_hit h;
    const rp_ray leaving = {{4, 2, 4}, {0, 1, 1}};
    const rp_ray entering = {{4, 2, 4}, {0, -1, 1}};
    assert_true(rp_intersect_ray_plane(&leaving, &GROUND_2, &h));
    assert_float_equal(h.t, 0.0f, 0.0f);
    assert_true(h.inside);
    assert_true(rp_intersect_ray_plane(&entering, &GROUND_2, &h));
    assert_float_equal(h.t, 0.0f, 0.0f);
    assert_false(h.inside);
}

/* Random planes and rays against a long double reference. */
static void ray_plane_matches_reference(void **state)
{
    (void)state;
    test_rng g = {0x9e3779b97f4a7c15ull};
    int hits = 0;
    for (int n = 0; n < 20000; n++) {
        rp_plane p;
        rp_ray r;
        for (int i = 0; i < 3; i++) {
            p.normal[i] = (float)rng_uniform(&g, -1, 1);
            r.origin[i] = (float)rng_uniform(&g, -100, 100);
            r.dir[i] = (float)(rng_uniform(&g, -1, 1) * rng_log(&g, -2, 2));
        }
        p.d = (float)rng_uniform(&g, -50, 50);
        long double nd = 0, no = 0;
        for (int i = 0; i < 3; i++) {
            nd += (long double)p.normal[i] * r.dir[i];
            no += (long double)p.normal[i] * r.origin[i];
        }
        const long double t = -(no + p.d) / nd;
        rp_hit h;
        const bool got = rp_intersect_ray_plane(&r, &p, &h);
        assert_int_equal(got, t >= 0);
        if (!got)
            continue;
        hits++;
        assert_true(ld_abs(h.t - t) <= 1e-6L * t + 1e-30L);
        float d;
        assert_true(rp_plane_signed_distance(&p, h.point, &d));
        assert_true(fabsf(d) <= 1e-5f * (1.0f + fabsf(r.origin[0]) + fabsf(r.origin[1]) +
                                         fabsf(r.origin[2]) + h.t * glm_vec3_norm(r.dir)));
        assert_true(h.inside == (nd > 0));
        assert_true(glm_vec3_dot(h.normal, r.dir) <= 0.0f);
    }
    assert_true(hits > 5000);
}

static void bad_input_is_refused(void **state)
{
    (void)state;
    const float nan = NAN, inf = INFINITY;
    const rp_ray ray = {{0, 5, 0}, {0, -1, 0}};
    rp_hit h;
    rp_plane p;
    float d;
    poison(&h, sizeof h);
    poison(&p, sizeof p);
    poison(&d, sizeof d);

    const rp_plane bad_planes[] = {
        {{0, 0, 0}, 1}, {{nan, 1, 0}, 0}, {{0, 1, 0}, nan}, {{0, inf, 0}, 0}, {{0, 1, 0}, inf},
    };
    for (size_t i = 0; i < sizeof bad_planes / sizeof bad_planes[0]; i++) {
        assert_false(rp_intersect_ray_plane(&ray, &bad_planes[i], &h));
        assert_false(rp_plane_signed_distance(&bad_planes[i], (vec3){0, 0, 0}, &d));
    }
    const rp_ray bad_rays[] = {
        {{0, 5, 0}, {0, 0, 0}}, {{nan, 5, 0}, {0, -1, 0}}, {{0, 5, 0}, {0, -inf, 0}},
    };
    for (size_t i = 0; i < sizeof bad_rays / sizeof bad_rays[0]; i++)
        assert_false(rp_intersect_ray_plane(&bad_rays[i], &GROUND_2, &h));
    assert_false(rp_intersect_ray_plane(NULL, &GROUND_2, &h));
    assert_false(rp_intersect_ray_plane(&ray, NULL, &h));
    assert_false(rp_plane_signed_distance(&GROUND_2, (vec3){nan, 0, 0}, &d));

    assert_false(rp_plane_from_point_normal((vec3){0, 0, 0}, (vec3){0, 0, 0}, &p));
    assert_false(rp_plane_from_point_normal((vec3){nan, 0, 0}, (vec3){0, 1, 0}, &p));
    assert_false(rp_plane_from_point_normal(NULL, (vec3){0, 1, 0}, &p));
    assert_false(rp_plane_from_points((vec3){0, 0, 0}, (vec3){1, 1, 1}, (vec3){2, 2, 2}, &p));
    assert_false(rp_plane_from_points((vec3){0, 0, 0}, (vec3){1, 0, 0}, (vec3){0, inf, 0}, &p));
    /* d beyond float range */
    assert_false(rp_plane_from_point_normal((vec3){3e38f, 3e38f, 0}, (vec3){1, 1, 0}, &p));
    assert_true(untouched(&h, sizeof h));
    assert_true(untouched(&p, sizeof p));
    assert_true(untouched(&d, sizeof d));
}

/* ---- the point under the cursor --------------------------------------------- */

/* A plane through a random visible point, facing the camera enough that the
   cursor's ray meets it at an angle above ~10 degrees. */
static void random_facing_plane(test_rng *g, const ref_camera *cam, rp_plane *out, vec3 through)
{
    for (;;) {
        const double x = rng_uniform(g, cam->vp.x, cam->vp.x + cam->vp.width);
        const double y = rng_uniform(g, cam->vp.y, cam->vp.y + cam->vp.height);
        assert_true(ref_point_at(cam, x, y, rng_uniform(g, 0.05, 0.95), through));
        vec3 n = {(float)rng_uniform(g, -1, 1), (float)rng_uniform(g, -1, 1),
                  (float)rng_uniform(g, -1, 1)};
        const double len = glm_vec3_norm(n);
        if (len < 0.1)
            continue;
        double cos_view = 0.0;
        for (int i = 0; i < 3; i++)
            cos_view += n[i] * cam->forward[i] / len;
        if (fabs(cos_view) < 0.5)
            continue;
        assert_true(rp_plane_from_point_normal(through, n, out));
        return;
    }
}

static void point_under_cursor_projects_to_the_cursor(void **state)
{
    (void)state;
    test_rng g = {12345};
    int found = 0;
    for (int n = 0; n < 3000; n++) {
        ref_camera cam;
        ref_camera_random(&g, n % REF_CAMERA_KINDS, &cam);
        rp_plane plane;
        vec3 through;
        random_facing_plane(&g, &cam, &plane, through);
        const float x = (float)rng_uniform(&g, cam.vp.x, cam.vp.x + cam.vp.width);
        const float y = (float)rng_uniform(&g, cam.vp.y, cam.vp.y + cam.vp.height);
        vec3 p;
        if (!rp_pick_point_on_plane(x, y, &cam.vp, cam.proj, cam.view, cam.conv, &plane, p))
            continue;   /* the plane's horizon, or behind the near plane here */
        found++;
        double px[3] = {0.0, 0.0, 0.0};
        assert_true(ref_projectf(&cam, p, px));
        if (fabs(px[0] - x) > 0.05 || fabs(px[1] - y) > 0.05)
            fail_msg("%s: cursor (%g, %g) projects back to (%g, %g)",
                     ref_camera_names[cam.kind], x, y, px[0], px[1]);
        float d;
        assert_true(rp_plane_signed_distance(&plane, p, &d));
        assert_true(fabsf(d) <= 1e-5f * (1.0f + glm_vec3_norm(p)));
    }
    assert_true(found > 2000);
}

static void cursor_above_the_horizon_misses_the_ground(void **state)
{
    (void)state;
    mat4 proj, view;
    glm_perspective(glm_rad(60.0f), 4.0f / 3.0f, 0.1f, 500.0f, proj);
    glm_lookat((vec3){0, 2, 10}, (vec3){0, 2, 0}, (vec3){0, 1, 0}, view);   /* level */
    const rp_viewport vp = {0, 0, 800, 600};
    const rp_plane ground = {{0, 1, 0}, 0};
    vec3 p = {SENTINEL, SENTINEL, SENTINEL};
    assert_false(rp_pick_point_on_plane(400.5f, 100.5f, &vp, proj, view, RP_GL, &ground, p));
    assert_true(p[0] == SENTINEL && p[1] == SENTINEL && p[2] == SENTINEL);
    assert_true(rp_pick_point_on_plane(400.5f, 500.5f, &vp, proj, view, RP_GL, &ground, p));
    assert_float_equal(p[1], 0.0f, 1e-5f);
    assert_true(p[2] < 10.0f);
}

/* ---- dragging ------------------------------------------------------------------ */

/* The scripted drag: a loop around the start, a straight run to the
   viewport's far corner and beyond it (capture keeps the events coming),
   sub-pixel steps. Cursor i of n, relative to the start and the viewport. */
static void scripted_cursor(const ref_camera *cam, float x0, float y0, int i, int n,
                            float *x, float *y)
{
    const float w = cam->vp.width, h = cam->vp.height;
    const double u = (double)i / n;
    if (u < 0.5) {
        const double a = u * 4.0 * GLM_PI;
        *x = x0 + (float)(0.2 * w * sin(a));
        *y = y0 + (float)(0.15 * h * (1.0 - cos(a)));
    } else if (u < 0.9) {
        const double v = (u - 0.5) / 0.4;
        *x = x0 + (float)(v * (cam->vp.x + w + 20.0f - x0));
        *y = y0 + (float)(v * (cam->vp.y + h * 0.9f - y0));
    } else {
        *x = x0 + (float)((u - 0.9) * 3.7);   /* tenths of a pixel */
        *y = y0 - (float)((u - 0.9) * 2.3);
    }
}

/* Grab a ball at its centre's pixel, drag it on the plane with `normal`
   (0: the ground's up, 1: the camera's forward) over the script; after
   every move the grabbed point must be within half a pixel of the cursor. */
static int drag_over_script(const ref_camera *cam, test_rng *g, int plane_kind)
{
    const float x0 = cam->vp.x + cam->vp.width * (float)rng_uniform(g, 0.3, 0.7);
    const float y0 = cam->vp.y + cam->vp.height * (float)rng_uniform(g, 0.3, 0.7);
    rp_ray ray;
    rp_hit hit;
    assert_true(rp_pick_ray_unproject(x0, y0, &cam->vp, (vec4 *)cam->proj, (vec4 *)cam->view,
                                      cam->conv, &ray));
    /* the unit a few percent of the way from the near to the far plane */
    vec3 centre;
    rp_ray_at(&ray, (float)rng_uniform(g, 0.02, 0.2), centre);
    const rp_sphere ball = {{centre[0], centre[1], centre[2]}, 0.5f};
    assert_true(rp_intersect_ray_sphere(&ray, &ball, &hit));

    vec3 normal = {0.0f, 1.0f, 0.0f};
    if (plane_kind == 1)
        for (int i = 0; i < 3; i++)
            normal[i] = (float)cam->forward[i];
    rp_drag drag;
    assert_true(rp_drag_begin(hit.point, normal, ball.center, &drag));

    int moves = 0;
    vec3 position;
    glm_vec3_copy((float *)ball.center, position);
    const int steps = 120;
    for (int i = 1; i <= steps; i++) {
        float x, y;
        scripted_cursor(cam, x0, y0, i, steps, &x, &y);
        vec3 next;
        if (!rp_drag_update(&drag, x, y, &cam->vp, (vec4 *)cam->proj, (vec4 *)cam->view,
                            cam->conv, next))
            continue;   /* above the plane's horizon: the unit stays */
        glm_vec3_copy(next, position);
        moves++;
        /* the grabbed point now: the new position minus the kept offset */
        const double grabbed[3] = {(double)position[0] - drag.offset[0],
                                   (double)position[1] - drag.offset[1],
                                   (double)position[2] - drag.offset[2]};
        double px[3] = {0.0, 0.0, 0.0};
        assert_true(ref_project(cam, grabbed, px));
        if (fabs(px[0] - x) > 0.5 || fabs(px[1] - y) > 0.5)
            fail_msg("%s, plane %d, step %d: cursor (%g, %g), grabbed point at (%g, %g)",
                     ref_camera_names[cam->kind], plane_kind, i, x, y, px[0], px[1]);
        if (plane_kind == 0)   /* on the ground plane the unit keeps its height */
            assert_float_equal(position[1], ball.center[1], 1e-4f * (1.0f + fabsf(centre[1])));
    }
    return moves;
}

static void drag_keeps_the_grabbed_point_under_the_cursor(void **state)
{
    (void)state;
    test_rng g = {777};
    int moves = 0;
    for (int n = 0; n < 140; n++) {
        ref_camera cam;
        ref_camera_random(&g, n % REF_CAMERA_KINDS, &cam);
        moves += drag_over_script(&cam, &g, n / REF_CAMERA_KINDS % 2);
    }
    assert_true(moves > 140 * 60);
}

static void drag_over_the_horizon_keeps_the_last_position(void **state)
{
    (void)state;
    mat4 proj, view;
    glm_perspective_lh_zo(glm_rad(60.0f), 4.0f / 3.0f, 0.1f, 500.0f, proj);
    glm_lookat_lh((vec3){0, 2, -10}, (vec3){0, 2, 0}, (vec3){0, 1, 0}, view);
    const rp_viewport vp = {0, 0, 800, 600};
    rp_drag drag;
    assert_true(rp_drag_begin((vec3){0, 0, 0}, (vec3){0, 1, 0}, (vec3){0, 0.5f, 0}, &drag));
    vec3 pos = {SENTINEL, SENTINEL, SENTINEL};
    assert_false(rp_drag_update(&drag, 400.5f, 10.5f, &vp, proj, view, RP_D3D, pos));
    assert_true(pos[0] == SENTINEL && pos[1] == SENTINEL && pos[2] == SENTINEL);
    assert_true(rp_drag_update(&drag, 400.5f, 590.5f, &vp, proj, view, RP_D3D, pos));
    assert_float_equal(pos[1], 0.5f, 1e-6f);
}

static void drag_bad_input_is_refused(void **state)
{
    (void)state;
    const float nan = NAN;
    rp_drag drag;
    poison(&drag, sizeof drag);
    assert_false(rp_drag_begin((vec3){0, 0, 0}, (vec3){0, 0, 0}, (vec3){0, 0, 0}, &drag));
    assert_false(rp_drag_begin((vec3){nan, 0, 0}, (vec3){0, 1, 0}, (vec3){0, 0, 0}, &drag));
    assert_false(rp_drag_begin((vec3){0, 0, 0}, (vec3){0, 1, 0}, (vec3){0, nan, 0}, &drag));
    assert_false(rp_drag_begin((vec3){0, 0, 0}, (vec3){0, 1, 0}, NULL, &drag));
    assert_false(rp_drag_begin((vec3){-3e38f, 0, 0}, (vec3){0, 1, 0}, (vec3){3e38f, 0, 0}, &drag));
    assert_true(untouched(&drag, sizeof drag));

    mat4 proj, view, zero = GLM_MAT4_ZERO_INIT;
    glm_perspective(glm_rad(60.0f), 1.0f, 0.1f, 100.0f, proj);
    glm_lookat((vec3){0, 5, 5}, (vec3){0, 0, 0}, (vec3){0, 1, 0}, view);
    const rp_viewport vp = {0, 0, 100, 100}, empty = {0, 0, 0, 100};
    assert_true(rp_drag_begin((vec3){0, 0, 0}, (vec3){0, 1, 0}, (vec3){0, 1, 0}, &drag));
    vec3 pos = {SENTINEL, SENTINEL, SENTINEL};
    assert_false(rp_drag_update(NULL, 50, 50, &vp, proj, view, RP_GL, pos));
    assert_false(rp_drag_update(&drag, nan, 50, &vp, proj, view, RP_GL, pos));
    assert_false(rp_drag_update(&drag, 50, 50, &empty, proj, view, RP_GL, pos));
    assert_false(rp_drag_update(&drag, 50, 50, &vp, zero, view, RP_GL, pos));
    assert_false(rp_drag_update(&drag, 50, 50, &vp, proj, view, (rp_convention)7, pos));
    rp_drag broken = drag;
    broken.offset[1] = nan;
    assert_false(rp_drag_update(&broken, 50, 50, &vp, proj, view, RP_GL, pos));
    broken = drag;
    broken.plane.d = nan;
    assert_false(rp_drag_update(&broken, 50, 50, &vp, proj, view, RP_GL, pos));
    assert_true(pos[0] == SENTINEL && pos[1] == SENTINEL && pos[2] == SENTINEL);
    assert_true(rp_drag_update(&drag, 50, 50, &vp, proj, view, RP_GL, pos));
    assert_float_equal(pos[1], 1.0f, 1e-6f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(constructors_give_unit_normals),
        cmocka_unit_test(ray_meets_plane_from_either_side),
        cmocka_unit_test(parallel_behind_and_in_plane_rays_miss),
        cmocka_unit_test(origin_on_the_plane_gives_t_zero),
        cmocka_unit_test(ray_plane_matches_reference),
        cmocka_unit_test(bad_input_is_refused),
        cmocka_unit_test(point_under_cursor_projects_to_the_cursor),
        cmocka_unit_test(cursor_above_the_horizon_misses_the_ground),
        cmocka_unit_test(drag_keeps_the_grabbed_point_under_the_cursor),
        cmocka_unit_test(drag_over_the_horizon_keeps_the_last_position),
        cmocka_unit_test(drag_bad_input_is_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

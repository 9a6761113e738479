/* test_window_pixels.c: SDL window coordinates to drawable pixels, and a
   click through a high-DPI, letterboxed window that picks what it should. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <float.h>
#include <math.h>
#include <string.h>
#include <cmocka.h>

#include <raypick/pick.h>
#include "../src/app/window_pixels.h"

static void check_maps(app_window_size size, float wx, float wy, float ex, float ey)
{
    float px = -1.0f, py = -1.0f;
    assert_true(app_window_to_pixels(&size, wx, wy, &px, &py));
    assert_float_equal(px, ex, 1e-4f);
    assert_float_equal(py, ey, 1e-4f);
}

static void scale_one_is_identity(void **state)
{
    (void)state;
    app_window_size s = {800, 600, 800, 600};
    check_maps(s, 0.0f, 0.0f, 0.0f, 0.0f);
    check_maps(s, 123.5f, 456.25f, 123.5f, 456.25f);
    check_maps(s, 800.0f, 600.0f, 800.0f, 600.0f);
}

static void scale_two_doubles(void **state)
{
    (void)state;
    app_window_size s = {640, 400, 1280, 800};     /* Retina */
    check_maps(s, 10.0f, 20.0f, 20.0f, 40.0f);
    check_maps(s, 639.5f, 399.5f, 1279.0f, 799.0f);
    check_maps(s, 320.25f, 0.0f, 640.5f, 0.0f);
}

static void scale_one_and_a_half(void **state)
{
    (void)state;
    app_window_size s = {1000, 700, 1500, 1050};   /* 150 % on Windows */
    check_maps(s, 100.0f, 33.0f, 150.0f, 49.5f);
    check_maps(s, 999.0f, 699.0f, 1498.5f, 1048.5f);
    /* y is not flipped: SDL and rp_viewport both grow downwards */
    check_maps(s, 0.0f, 1.0f, 0.0f, 1.5f);
}

static void axes_scale_separately(void **state)
{
    (void)state;
    app_window_size s = {800, 600, 1600, 900};
    check_maps(s, 400.0f, 400.0f, 800.0f, 600.0f);
    /* captured mouse outside the window maps linearly */
    check_maps(s, -10.0f, 700.0f, -20.0f, 1050.0f);
}

static float distance_to_line(const vec3 p, const rp_ray *ray)
{
    vec3 d, c;
    glm_vec3_sub((float *)p, (float *)ray->origin, d);
    glm_vec3_cross(d, (float *)ray->dir, c);
    return glm_vec3_norm(c) / glm_vec3_norm((float *)ray->dir);
}

/* A 1920x1200 drawable in a 960x600 window (scale 2), with a 16:9 scene
   letterboxed into rp_viewport {0, 60, 1920, 1080}: the point the user sees
   under the cursor is the point the pick ray goes through. */
static void letterboxed_click_picks_the_point_under_the_cursor(void **state)
{
    (void)state;
    const app_window_size size = {960, 600, 1920, 1200};
    const rp_viewport vp = {0.0f, 60.0f, 1920.0f, 1080.0f};
    const rp_viewport vp_no_offset = {0.0f, 0.0f, 1920.0f, 1080.0f};
    mat4 proj, view, pv;
    glm_perspective(glm_rad(50.0f), vp.width / vp.height, 0.1f, 500.0f, proj);
    glm_lookat((vec3){4, 3, 6}, (vec3){0, 0, 0}, (vec3){0, 1, 0}, view);
    glm_mat4_mul(proj, view, pv);

    const vec3 targets[] = {{0.7f, 1.1f, -0.4f}, {-2.0f, 0.0f, 1.0f}, {1.5f, -1.0f, 2.0f}};
    for (size_t i = 0; i < sizeof targets / sizeof targets[0]; ++i) {
        /* where the renderer draws the point: glm_project in GL's y-up
           drawable, flipped to y down */
        vec3 win;
        vec4 gl_vp = {vp.x, 1200.0f - (vp.y + vp.height), vp.width, vp.height};
        glm_project((float *)targets[i], pv, gl_vp, win);
        float pixel_x = win[0], pixel_y = 1200.0f - win[1];
        /* where SDL reports the mouse over it: half that, in window points */
        float mouse_x = pixel_x * 960.0f / 1920.0f, mouse_y = pixel_y * 600.0f / 1200.0f;

        float px, py;
        assert_true(app_window_to_pixels(&size, mouse_x, mouse_y, &px, &py));
        assert_float_equal(px, pixel_x, 1e-3f);
        assert_float_equal(py, pixel_y, 1e-3f);

        rp_ray ray;
        assert_true(rp_pick_ray_unproject(px, py, &vp, proj, view, RP_GL, &ray));
        assert_true(distance_to_line(targets[i], &ray) < 1e-3f);
        assert_true(rp_pick_ray_perspective(px, py, &vp, proj, view, RP_GL, &ray));
        assert_true(distance_to_line(targets[i], &ray) < 1e-3f);

        /* the two classic mistakes miss: window points taken as pixels,
           and the letterbox offset left out */
        assert_true(rp_pick_ray_unproject(mouse_x, mouse_y, &vp, proj, view, RP_GL, &ray));
        assert_true(distance_to_line(targets[i], &ray) > 0.1f);
        assert_true(rp_pick_ray_unproject(px, py, &vp_no_offset, proj, view, RP_GL, &ray));
        assert_true(distance_to_line(targets[i], &ray) > 0.05f);
    }
}

static void expect_rejected(const app_window_size *size, float wx, float wy)
{
    float px = 7.0f, py = 9.0f;
    assert_false(app_window_to_pixels(size, wx, wy, &px, &py));
    assert_float_equal(px, 7.0f, 0.0f);
    assert_float_equal(py, 9.0f, 0.0f);
    assert_false(app_window_to_pixels(size, wx, wy, NULL, NULL));
}

static void rejects_empty_sizes_and_non_finite_input(void **state)
{
    (void)state;
    const app_window_size bad[] = {
        {0, 600, 1600, 1200}, {800, 0, 1600, 1200}, {800, 600, 0, 1200},
        {800, 600, 1600, 0}, {-800, 600, 1600, 1200}, {800, 600, 1600, -1200},
        {0, 0, 0, 0},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i)
        expect_rejected(&bad[i], 10.0f, 10.0f);

    const app_window_size ok = {800, 600, 1600, 1200};
    expect_rejected(&ok, NAN, 10.0f);
    expect_rejected(&ok, 10.0f, NAN);
    expect_rejected(&ok, INFINITY, 10.0f);
    expect_rejected(&ok, 10.0f, -INFINITY);
    expect_rejected(&ok, FLT_MAX, 10.0f);       /* doubled, no float holds it */
    expect_rejected(NULL, 10.0f, 10.0f);

    /* either output may be NULL on valid input */
    float px = 0.0f, py = 0.0f;
    assert_true(app_window_to_pixels(&ok, 10.0f, 20.0f, &px, NULL));
    assert_float_equal(px, 20.0f, 0.0f);
    assert_true(app_window_to_pixels(&ok, 10.0f, 20.0f, NULL, &py));
    assert_float_equal(py, 40.0f, 0.0f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(scale_one_is_identity),
        cmocka_unit_test(scale_two_doubles),
        cmocka_unit_test(scale_one_and_a_half),
        cmocka_unit_test(axes_scale_separately),
        cmocka_unit_test(letterboxed_click_picks_the_point_under_the_cursor),
        cmocka_unit_test(rejects_empty_sizes_and_non_finite_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

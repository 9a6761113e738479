/* test_example_pick_nearest.c: the README's library example
   (docs/examples/pick_nearest.c) compiles, runs, and picks what it says. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <math.h>
#include <cmocka.h>

/* Take the example exactly as README quotes it; keep its main callable. */
#define main pick_nearest_example_main
#include "../docs/examples/pick_nearest.c"
#undef main

typedef struct scene {
    mat4 proj, view;
    rp_sphere spheres[3];
} scene;

/* The example's scene: 800 x 600, camera at z = 5 looking at the origin. */
static void make_scene(scene *s)
{
    glm_perspective(glm_rad(60.0f), 800.0f / 600.0f, 0.1f, 100.0f, s->proj);
    glm_lookat((vec3){0, 0, 5}, (vec3){0, 0, 0}, (vec3){0, 1, 0}, s->view);
    const rp_sphere spheres[3] = {
        {{0, 0, -3}, 1.0f}, {{0, 0, 0}, 1.0f}, {{3, 0, 0}, 1.0f}};
    for (int i = 0; i < 3; i++)
        s->spheres[i] = spheres[i];
}

/* Where a world point lands in top-left-origin pixels (glm_project's y grows
   upwards, so flip it). */
static void to_pixels(scene *s, vec3 world, float *px, float *py)
{
    mat4 vp_m;
    vec3 win;
    glm_mat4_mul(s->proj, s->view, vp_m);
    glm_project(world, vp_m, (vec4){0, 0, 800, 600}, win);
    *px = win[0];
    *py = 600.0f - win[1];
}

static void example_program_runs_and_succeeds(void **state)
{
    (void)state;
    assert_int_equal(pick_nearest_example_main(), 0);
}

static void centre_click_picks_the_front_sphere_not_the_first(void **state)
{
    (void)state;
    scene s;
    make_scene(&s);
    rp_hit hit;
    /* Spheres 0 and 1 are both on the line of sight; 1 is in front. */
    assert_int_equal(pick_nearest(400, 300, 800, 600, s.proj, s.view, s.spheres, 3, &hit), 1);
    assert_float_equal(hit.point[0], 0.0f, 1e-3f);
    assert_float_equal(hit.point[1], 0.0f, 1e-3f);
    assert_float_equal(hit.point[2], 1.0f, 1e-3f);   /* entry: front of sphere 1 */
    assert_float_equal(hit.normal[2], 1.0f, 1e-3f);
}

static void click_on_the_right_sphere_picks_it(void **state)
{
    (void)state;
    scene s;
    make_scene(&s);
    float px, py;
    to_pixels(&s, s.spheres[2].center, &px, &py);
    assert_true(px > 600.0f && px < 800.0f);           /* right of centre */
    assert_float_equal(py, 300.0f, 1e-2f);
    rp_hit hit;
    assert_int_equal(pick_nearest(px, py, 800, 600, s.proj, s.view, s.spheres, 3, &hit), 2);
    /* on the sphere's surface, on the side that faces the camera at z = 5 */
    vec3 eye = {0, 0, 5};
    assert_float_equal(glm_vec3_distance(hit.point, s.spheres[2].center), 1.0f, 1e-3f);
    assert_true(glm_vec3_distance(hit.point, eye) < glm_vec3_distance(s.spheres[2].center, eye));
}

static void y_grows_downwards(void **state)
{
    (void)state;
    scene s;
    make_scene(&s);
    /* Move sphere 2 up; its pixel row must be above the centre row. */
    s.spheres[2].center[0] = 0.0f;
    s.spheres[2].center[1] = 2.5f;
    s.spheres[2].radius = 0.5f;
    float px, py;
    to_pixels(&s, s.spheres[2].center, &px, &py);
    assert_true(py < 300.0f);
    assert_int_equal(pick_nearest(px, py, 800, 600, s.proj, s.view, s.spheres, 3, NULL), 2);
    /* The mirrored row (what forgetting the flip gives) is empty space. */
    assert_int_equal(pick_nearest(px, 600.0f - py, 800, 600, s.proj, s.view, s.spheres, 3, NULL), -1);
}

static void empty_space_and_bad_input_pick_nothing(void **state)
{
    (void)state;
    scene s;
    make_scene(&s);
    rp_hit hit = {.t = 42.0f};
    assert_int_equal(pick_nearest(5, 5, 800, 600, s.proj, s.view, s.spheres, 3, &hit), -1);
    assert_int_equal(pick_nearest(400, 300, 0, 0, s.proj, s.view, s.spheres, 3, &hit), -1);
    assert_int_equal(pick_nearest(NAN, 300, 800, 600, s.proj, s.view, s.spheres, 3, &hit), -1);
    mat4 singular = GLM_MAT4_ZERO_INIT;
    assert_int_equal(pick_nearest(400, 300, 800, 600, singular, s.view, s.spheres, 3, &hit), -1);
    assert_float_equal(hit.t, 42.0f, 0.0f);            /* untouched */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(example_program_runs_and_succeeds),
        cmocka_unit_test(centre_click_picks_the_front_sphere_not_the_first),
        cmocka_unit_test(click_on_the_right_sphere_picks_it),
        cmocka_unit_test(y_grows_downwards),
        cmocka_unit_test(empty_space_and_bad_input_pick_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

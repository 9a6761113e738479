/* test_lesson4.c: lesson 4 (terrain picking) without a window: a click on a
 * landmark's pixel puts the marker on the terrain there (search and exact
 * methods), the marker is drawn, a sky click is a miss, and a bad
 * --heightmap file is refused with a message naming it. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <cmocka.h>

#include "lesson_test_util.h"

#define L (&lesson4_terrain)

static int setup(void **state)
{
    *state = create_ok(L, 1);
    return *state ? 0 : -1;
}

static int teardown(void **state)
{
    L->destroy(*state);
    return 0;
}

/* A heightmap with the map object's placement, built from the draw list's
   terrain heights: what the renderer shows is what the library picks. */
static rp_heightmap *shown_terrain(const void *self)
{
    render_list list = {0};
    draw_once(L, self, &list);
    rp_heightmap *hm = NULL;
    for (int i = 0; i < list.count && !hm; ++i)
        if (list.cmds[i].kind == RENDER_CMD_TERRAIN) {
            const render_terrain_data *t = &list.cmds[i].u.terrain;
            hm = rp_heightmap_create(t->cols, t->rows, t->spacing, t->origin, t->heights);
        }
    render_list_free(&list);
    return hm;
}

static void objects_are_the_map_the_spire_and_landmarks(void **state)
{
    lesson_object o[32];
    int n = start_objects(L, *state, o, 32);
    assert_true(n >= 3);
    assert_int_equal(o[0].id, -1);
    assert_int_equal(o[0].kind, LESSON_OBJECT_MAP);
    assert_int_equal(o[0].shape.map.cols, 97);
    assert_int_equal(o[0].shape.map.rows, 97);
    assert_int_equal(o[1].kind, LESSON_OBJECT_SPIRE);
    assert_true(o[1].shape.spire.center[1] > o[1].shape.spire.base[1] + 5.0f);
    for (int i = 2; i < n; ++i)
        assert_int_equal(o[i].kind, LESSON_OBJECT_POINT);
    /* a one-slot buffer gets the map, the count stays the total */
    assert_int_equal(start_objects(L, *state, o, 1), n);
    assert_int_equal(o[0].id, -1);
}

/* Clicks every visible landmark; the marker lands on it. */
static void click_landmarks(void *self, const char *method, float tolerance)
{
    lesson_object o[32];
    int n = start_objects(L, self, o, 32);
    rp_heightmap *hm = shown_terrain(self);
    assert_non_null(hm);
    int clicked = 0;
    for (int i = 0; i < n; ++i) {
        if (o[i].kind != LESSON_OBJECT_POINT)
            continue;
        lesson_pick p;
        assert_true(click_world_point(L, self, o[i].shape.point.center, &p));
        assert_true(p.hit);
        assert_int_equal(p.id, 0);
        assert_string_equal(p.what, "terrain");
        assert_string_equal(p.method, method);
        assert_true(vec3_dist(p.point, o[i].shape.point.center) < 0.1f);
        float y;
        assert_true(rp_heightmap_height_at(hm, p.point[0], p.point[2], &y));
        assert_float_equal(p.point[1], y, tolerance);
        /* t is along the pick ray */
        vec3 on_ray;
        rp_ray_at(&p.ray, p.t, on_ray);
        assert_true(vec3_dist(on_ray, p.point) < 1e-3f);
        assert_true(lesson_pick_field(&p, "search_hit")->value.b);
        assert_true(lesson_pick_field(&p, "exact_hit")->value.b);
        assert_true(lesson_pick_field(&p, "linear_steps")->value.i > 0);

        /* the marker (a cone above a ring) stands at the point */
        render_list list = {0};
        draw_once(L, self, &list);
        bool ring = false;
        for (int k = 0; k < list.count; ++k)
            if (list.cmds[k].kind == RENDER_CMD_SHAPE && list.cmds[k].u.shape.shape == RENDER_TORUS) {
                vec3 at = {list.cmds[k].u.shape.model[3][0], list.cmds[k].u.shape.model[3][1],
                           list.cmds[k].u.shape.model[3][2]};
                ring |= vec3_dist(at, p.point) < 1e-5f;
            }
        assert_true(ring);
        assert_int_equal(count_cmds(&list, RENDER_CMD_SHAPE), 2);
        render_list_free(&list);
        ++clicked;
    }
    assert_true(clicked >= 2);
    rp_heightmap_destroy(hm);
}

static void search_puts_the_marker_on_landmarks(void **state)
{
    click_landmarks(*state, "search", 0.05f);
}

static void exact_puts_the_marker_on_landmarks(void **state)
{
    assert_true(L->key(*state, 'm'));
    click_landmarks(*state, "exact", 1e-3f);
}

static void ray_into_the_sky_is_a_miss_without_marker(void **state)
{
    void *self = *state;
    mat4 view, proj;
    vec3 eye;
    start_camera(L, view, proj, eye);
    lesson_pick p;
    click_ray(L, self, eye, (vec3){0.1f, 1.0f, -0.2f}, &p);     /* into the sky */
    assert_false(p.hit);
    assert_int_equal(p.id, -1);
    assert_false(lesson_pick_field(&p, "exact_hit")->value.b);
    render_list list = {0};
    draw_once(L, self, &list);
    assert_int_equal(count_cmds(&list, RENDER_CMD_SHAPE), 0);     /* no marker */
    assert_int_equal(count_cmds(&list, RENDER_CMD_TERRAIN), 1);
    render_list_free(&list);
}

static void bad_heightmap_file_is_refused_with_its_name(void **state)
{
    (void)state;
    char err[256] = "";
    lesson_env env = {.seed = 1, .heightmap_path = "/nonexistent/raypick-test-map.png", .err = err, .err_size = sizeof err};
    assert_null(L->create(&env));
    assert_non_null(strstr(err, "raypick-test-map.png"));
    L->destroy(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(objects_are_the_map_the_spire_and_landmarks, setup, teardown),
        cmocka_unit_test_setup_teardown(search_puts_the_marker_on_landmarks, setup, teardown),
        cmocka_unit_test_setup_teardown(exact_puts_the_marker_on_landmarks, setup, teardown),
        cmocka_unit_test_setup_teardown(ray_into_the_sky_is_a_miss_without_marker, setup, teardown),
        cmocka_unit_test(bad_heightmap_file_is_refused_with_its_name),
    };
    return cmocka_run_group_tests_name("lesson4", tests, NULL, NULL);
}

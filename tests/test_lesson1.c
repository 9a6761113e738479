/* test_lesson1.c: lesson 1 (picking bounding spheres) without a window:
 * clicks at objects' pixels and direct rays toggle the right objects, the
 * drawn ray ends at the hit, and a miss toggles nothing. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <cmocka.h>

#include "lesson_test_util.h"

#define L (&lesson1_spheres)
#define OBJECT_TOTAL 6

/* with X: the details (the counters and the tutorial's numbers) on the HUD */
static int setup(void **state)
{
    *state = create_ok(L, 1);
    return *state && L->key(*state, 'x') ? 0 : -1;
}

static int teardown(void **state)
{
    L->destroy(*state);
    return 0;
}

static int rotating_count(const void *self)
{
    char buf[512];
    L->status(self, buf, sizeof buf);
    const char *p = strstr(buf, "rotating: ");
    assert_non_null(p);
    return atoi(p + strlen("rotating: "));
}

static void objects_are_six_bounding_spheres(void **state)
{
    lesson_object o[16];
    int n = start_objects(L, *state, o, 16);
    assert_int_equal(n, 6);
    for (int i = 0; i < n; ++i) {
        assert_int_equal(o[i].id, i);
        assert_int_equal(o[i].kind, LESSON_OBJECT_SPHERE);
        assert_true(o[i].shape.sphere.radius > 0.0f);
    }
    assert_string_equal(o[0].name, "cube");
    /* a short buffer gets the first ones, the count stays the total */
    assert_int_equal(start_objects(L, *state, o, 2), 6);
}

static void click_on_cube_pixel_toggles_cube_and_ends_ray_at_hit(void **state)
{
    void *self = *state;
    lesson_object o[16];
    start_objects(L, self, o, 16);
    const rp_sphere *cube = &object_by_id(o, 6, 0)->shape.sphere;
    lesson_pick p;
    assert_true(click_world_point(L, self, cube->center, &p));
    assert_true(p.hit);
    assert_int_equal(p.id, 0);
    assert_string_equal(p.what, "cube");
    assert_string_equal(p.method, "d3d9");
    /* the hit lies on the bounding sphere, on the camera's side */
    assert_float_equal(vec3_dist(p.point, cube->center), cube->radius, 1e-3f);
    const lesson_field *toggled = lesson_pick_field(&p, "toggled");
    assert_non_null(toggled);
    assert_int_equal(toggled->count, 1);
    assert_int_equal(toggled->value.ints[0], 0);
    assert_true(lesson_pick_field(&p, "agree")->value.b);
    assert_int_equal(rotating_count(self), 1);

    /* the drawn ray runs from the ray origin to the hit point */
    render_list list = {0};
    draw_once(L, self, &list);
    bool found = false;
    for (int i = 0; i < list.count; ++i)
        if (list.cmds[i].kind == RENDER_CMD_LINE &&
            vec3_dist(list.cmds[i].u.line.a, p.ray.origin) < 1e-5f &&
            vec3_dist(list.cmds[i].u.line.b, p.point) < 1e-3f)
            found = true;
    assert_true(found);
    assert_int_equal(count_cmds(&list, RENDER_CMD_SHAPE), 6);
    render_list_free(&list);

    /* a second click on it stops it again */
    assert_true(click_world_point(L, self, cube->center, &p));
    assert_int_equal(rotating_count(self), 0);
}

static void rotating_object_turns_when_updated(void **state)
{
    void *self = *state;
    lesson_object o[16];
    start_objects(L, self, o, 16);
    lesson_pick p;
    assert_true(click_world_point(L, self, object_by_id(o, 6, 3)->shape.sphere.center, &p));
    assert_int_equal(p.id, 3);
    render_list before = {0}, after = {0};
    draw_once(L, self, &before);
    L->update(self, 0.5f);
    draw_once(L, self, &after);
    /* shapes are listed in object order: only the picked one turned */
    int shape = 0;
    for (int i = 0; i < before.count; ++i) {
        if (before.cmds[i].kind != RENDER_CMD_SHAPE)
            continue;
        bool same = memcmp(before.cmds[i].u.shape.model, after.cmds[i].u.shape.model, sizeof(mat4)) == 0;
        assert_true(shape == 3 ? !same : same);
        ++shape;
    }
    render_list_free(&before);
    render_list_free(&after);
}

static void nearest_only_or_all_on_the_ray(void **state)
{
    void *self = *state;
    /* a pixel whose ray passes the torus's sphere (id 1) and the ring's
       behind it (id 5) */
    lesson_click c;
    assert_true(make_click(L, self, 444.5f, 204.5f, &c));
    lesson_pick p;
    L->click(self, &c, &p);
    assert_int_equal(p.id, 1);
    const lesson_field *f = lesson_pick_field(&p, "toggled");
    assert_int_equal(f->count, 1);
    assert_int_equal(f->value.ints[0], 1);

    /* N: the tutorial's loop, as its code ran (m_bRotate) */
    assert_true(L->key(self, 'n'));
    L->click(self, &c, &p);
    assert_int_equal(p.id, 1);     /* the reported hit is still the nearest */
    f = lesson_pick_field(&p, "toggled");
    assert_int_equal(f->count, 2);
    assert_int_equal(f->value.ints[0], 1);
    assert_int_equal(f->value.ints[1], 5);
    assert_memory_equal(lesson_pick_field(&p, "m_bRotate")->value.ints, f->value.ints, 2 * sizeof(int));
    assert_false(lesson_pick_field(&p, "nearest_only")->value.b);
    /* torus: toggled twice (off), ring once (on) */
    assert_int_equal(rotating_count(self), 1);
}

static void sky_click_is_a_miss_and_toggles_nothing(void **state)
{
    void *self = *state;
    lesson_pick p;
    lesson_click c;
    assert_true(make_click(L, self, TEST_W * 0.5f, 2.0f, &c));
    L->click(self, &c, &p);
    assert_false(p.hit);
    assert_int_equal(p.id, -1);
    assert_string_equal(p.what, "miss");
    assert_int_equal(lesson_pick_field(&p, "toggled")->count, 0);
    assert_int_equal(rotating_count(self), 0);
}

static void method_key_switches_to_unproject_and_both_agree(void **state)
{
    void *self = *state;
    assert_int_equal(L->method(self), LESSON_PICK_D3D9);
    assert_true(L->key(self, 'm'));
    assert_int_equal(L->method(self), LESSON_PICK_UNPROJECT);
    assert_false(L->key(self, 'q'));
    lesson_object o[16];
    start_objects(L, self, o, 16);
    lesson_pick p;
    assert_true(click_world_point(L, self, object_by_id(o, 6, 2)->shape.sphere.center, &p));
    assert_int_equal(p.id, 2);
    assert_string_equal(p.method, "unproject");
    assert_true(lesson_pick_field(&p, "agree")->value.b);
}


static const rp_sphere *sphere_of(const lesson_object *o, int id)
{
    return &object_by_id(o, OBJECT_TOTAL, id)->shape.sphere;
}

/* The tutorial's px, py are the pick ray's direction in view space over its
   depth (CalculateRay's (px, py, 1)); t0 and t1 are where the ray meets the
   bounding sphere, t1 the near one, the hit's t. */
static void hud_and_report_show_px_py_and_both_roots(void **state)
{
    void *self = *state;
    lesson_object o[16];
    start_objects(L, self, o, 16);
    lesson_pick p;
    assert_true(click_world_point(L, self, sphere_of(o, 0)->center, &p));
    assert_true(p.hit);
    mat4 view, proj;
    vec3 eye;
    start_camera(L, view, proj, eye);
    vec3 d_view;
    glm_mat4_mulv3(view, p.ray.dir, 0.0f, d_view);
    float px = lesson_pick_field(&p, "CalculateRay_px")->value.f, py = lesson_pick_field(&p, "CalculateRay_py")->value.f;
    assert_float_equal(px, d_view[0] / -d_view[2], 1e-4f);
    assert_float_equal(py, d_view[1] / -d_view[2], 1e-4f);
    float t0 = lesson_pick_field(&p, "t0")->value.f, t1 = lesson_pick_field(&p, "t1")->value.f;
    assert_true(t0 > t1);
    assert_float_equal(t1, p.t, 1e-3f);
    for (int k = 0; k < 2; ++k) {
        vec3 at;
        rp_ray_at(&p.ray, k ? t1 : t0, at);
        assert_float_equal(vec3_dist(at, sphere_of(o, 0)->center), sphere_of(o, 0)->radius, 1e-3f);
    }
    char hud[1024], want[64];
    L->status(self, hud, sizeof hud);
    snprintf(want, sizeof want, "px %.4f  py %.4f", (double)px, (double)py);
    assert_non_null(strstr(hud, want));
    snprintf(want, sizeof want, "cube: t0 %.4g  t1 %.4g", (double)t0, (double)t1);
    assert_non_null(strstr(hud, want));
    assert_non_null(strstr(hud, "t: world units along the ray (D3D9 ray: unit dir"));
}

/* With the unproject ray t is a fraction of near -> far: t * |dir| is the
   distance, and the HUD says so. */
static void unproject_t_is_a_fraction_and_the_hud_says_so(void **state)
{
    void *self = *state;
    lesson_object o[16];
    start_objects(L, self, o, 16);
    lesson_pick d3d9, unproj;
    assert_true(click_world_point(L, self, sphere_of(o, 0)->center, &d3d9));
    assert_true(L->key(self, 'm'));
    assert_true(click_world_point(L, self, sphere_of(o, 0)->center, &unproj));
    assert_true(unproj.hit);
    float len = glm_vec3_norm(unproj.ray.dir);
    assert_true(len > 100.0f);                  /* far - near */
    assert_true(unproj.t < 0.2f);
    /* the same point: the unproject ray starts on the near plane, not at the eye */
    assert_true(vec3_dist(d3d9.point, unproj.point) < 1e-3f);
    assert_float_equal(lesson_pick_field(&unproj, "t1")->value.f, unproj.t, 1e-5f);
    char hud[1024];
    L->status(self, hud, sizeof hud);
    assert_non_null(strstr(hud, "t: a fraction of near -> far (unproject ray: dir = far - near"));
    /* CalculateRay's px, py belong to the pixel, whatever the method */
    assert_float_equal(lesson_pick_field(&unproj, "CalculateRay_px")->value.f,
                       lesson_pick_field(&d3d9, "CalculateRay_px")->value.f, 1e-6f);
}

/* T: the tutorial's rule sets rotation on for what is hit and off for
   every other object; the demo's toggles. */
static void tutorial_rule_sets_and_clears(void **state)
{
    void *self = *state;
    lesson_object o[16];
    start_objects(L, self, o, 16);
    char hud[1024];
    L->status(self, hud, sizeof hud);
    assert_non_null(strstr(hud, "click rule: toggle what is hit (demo) (T)"));
    assert_true(L->key(self, 't'));
    L->status(self, hud, sizeof hud);
    assert_non_null(strstr(hud, "click rule: the tutorial's: hit objects on, all others off (T)"));
    lesson_pick p;
    assert_true(click_world_point(L, self, sphere_of(o, 0)->center, &p));      /* cube */
    assert_true(lesson_pick_field(&p, "set_clear")->value.b);
    assert_int_equal(rotating_count(self), 1);
    assert_true(click_world_point(L, self, sphere_of(o, 2)->center, &p));      /* cone */
    assert_int_equal(p.id, 2);
    assert_int_equal(rotating_count(self), 1);  /* the cube went off */
    assert_true(click_world_point(L, self, sphere_of(o, 2)->center, &p));      /* cone again: stays on */
    assert_int_equal(rotating_count(self), 1);
    mat4 view, proj;
    vec3 eye;
    start_camera(L, view, proj, eye);
    click_ray(L, self, eye, (vec3){0.0f, 1.0f, 0.0f}, &p);                    /* the sky: all off */
    assert_int_equal(rotating_count(self), 0);
}

/* Step mode: the listing's steps, each object's test with the
   tutorial's numbers, drawn: the sphere under test as glass, its roots
   as points on the ray. */
static void step_mode_shows_each_objects_test(void **state)
{
    void *self = *state;
    lesson_object o[16];
    start_objects(L, self, o, 16);
    char hud[1024];
    assert_true(L->key(self, 'x'));     /* the beginner's HUD */
    assert_true(L->key(self, 'p'));
    L->status(self, hud, sizeof hud);
    assert_non_null(strstr(hud, "step mode (P): click an object"));
    lesson_pick p;
    assert_true(click_world_point(L, self, sphere_of(o, 0)->center, &p));
    L->status(self, hud, sizeof hud);
    assert_non_null(strstr(hud, "the tutorial's loop: the ray meets 1 of the 6 bounding spheres"));
    lesson_code_view cv;
    assert_true(L->code(self, &cv) && cv.step);
    assert_string_equal(cv.step->msg_id, "lesson.picking-spheres.step.px");
    /* on to the cube's roots: its sphere as glass, t1 and t0 as points */
    while (strcmp(cv.step->msg_id, "lesson.picking-spheres.step.roots") != 0) {
        assert_true(L->key(self, '.'));
        assert_true(L->code(self, &cv) && cv.step);
    }
    render_list list = {0};
    draw_once(L, self, &list);
    bool glass = false;
    for (int i = 0; i < list.count; ++i)
        glass |= list.cmds[i].kind == RENDER_CMD_GLASS &&
                 vec3_dist(list.cmds[i].u.glass.center, sphere_of(o, 0)->center) < 1e-5f;
    assert_true(glass);
    float t1 = listing_step_watch(cv.step, "t1")->v[0];
    int root_points = 0;
    rp_ray unit = p.ray;
    glm_vec3_normalize(unit.dir);
    vec3 at;
    rp_ray_at(&unit, t1, at);
    for (int i = 0; i < list.count; ++i)
        root_points += list.cmds[i].kind == RENDER_CMD_POINT && vec3_dist(list.cmds[i].u.point.p, at) < 1e-3f;
    assert_int_equal(root_points, 1);
    assert_float_equal(vec3_dist(at, sphere_of(o, 0)->center), sphere_of(o, 0)->radius, 1e-3f);
    /* the next sphere: the torus's test; the cone's after it is a miss */
    while (strcmp(cv.step->msg_id, "lesson.picking-spheres.step.sphere") != 0) {
        assert_true(L->key(self, '.'));
        assert_true(L->code(self, &cv) && cv.step);
    }
    assert_int_equal(listing_step_watch(cv.step, "i")->i, 1);
    render_list_free(&list);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(objects_are_six_bounding_spheres, setup, teardown),
        cmocka_unit_test_setup_teardown(click_on_cube_pixel_toggles_cube_and_ends_ray_at_hit, setup, teardown),
        cmocka_unit_test_setup_teardown(rotating_object_turns_when_updated, setup, teardown),
        cmocka_unit_test_setup_teardown(nearest_only_or_all_on_the_ray, setup, teardown),
        cmocka_unit_test_setup_teardown(sky_click_is_a_miss_and_toggles_nothing, setup, teardown),
        cmocka_unit_test_setup_teardown(method_key_switches_to_unproject_and_both_agree, setup, teardown),
        cmocka_unit_test_setup_teardown(hud_and_report_show_px_py_and_both_roots, setup, teardown),
        cmocka_unit_test_setup_teardown(unproject_t_is_a_fraction_and_the_hud_says_so, setup, teardown),
        cmocka_unit_test_setup_teardown(tutorial_rule_sets_and_clears, setup, teardown),
        cmocka_unit_test_setup_teardown(step_mode_shows_each_objects_test, setup, teardown),
    };
    return cmocka_run_group_tests_name("lesson1", tests, NULL, NULL);
}

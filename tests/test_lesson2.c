/* test_lesson2.c: lesson 2 (phaser vs. shields) without a window: the beam
 * leaves the firing turret, ends at the shield's entry point (the exit
 * point for the turret inside its shield), the shield gets an impact
 * there, and a miss flies the full range. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <cmocka.h>

#include "lesson_test_util.h"

#define L (&lesson2_shields)
#define RANGE 60.0f

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

/* |R^T (p - c)| / radii: 1 on the ellipsoid's surface */
static float ellipsoid_level(const rp_ellipsoid *e, const vec3 p)
{
    vec3 d;
    glm_vec3_sub((float *)p, (float *)e->center, d);
    versor q;
    glm_vec4_copy((float *)e->orientation, q);
    if (q[0] != 0.0f || q[1] != 0.0f || q[2] != 0.0f || q[3] != 0.0f) {
        versor inv;
        glm_quat_normalize(q);
        glm_quat_inv(q, inv);
        glm_quat_rotatev(inv, d, d);
    }
    float s = 0.0f;
    for (int i = 0; i < 3; ++i)
        s += (d[i] / e->radii[i]) * (d[i] / e->radii[i]);
    return sqrtf(s);
}

/* the beam the draw list shows from `from`; NULL when none */
static const render_cmd *beam_from(const render_list *list, const vec3 from)
{
    for (int i = 0; i < list->count; ++i)
        if (list->cmds[i].kind == RENDER_CMD_BEAM && vec3_dist(list->cmds[i].u.beam.a, from) < 1e-5f)
            return &list->cmds[i];
    return NULL;
}

static void objects_are_three_shields_and_two_turrets(void **state)
{
    lesson_object o[16];
    int n = start_objects(L, *state, o, 16);
    assert_int_equal(n, 5);
    for (int i = 0; i < 3; ++i) {
        assert_int_equal(o[i].id, i);
        assert_int_equal(o[i].kind, LESSON_OBJECT_ELLIPSOID);
    }
    assert_int_equal(o[3].id, 100);
    assert_int_equal(o[3].kind, LESSON_OBJECT_TURRET);
    assert_int_equal(o[4].id, 101);
    /* the second turret sits inside the station's shield */
    assert_true(ellipsoid_level(&o[2].shape.ellipsoid, o[4].shape.turret.center) < 1.0f);
}

static void beam_ends_at_the_cruisers_entry_point(void **state)
{
    void *self = *state;
    lesson_object o[16];
    start_objects(L, self, o, 16);
    const rp_ellipsoid *cruiser = &o[0].shape.ellipsoid;
    const float *turret = o[3].shape.turret.center;
    L->update(self, 0.25f);
    lesson_pick p;
    assert_true(click_world_point(L, self, cruiser->center, &p));
    assert_true(p.hit);
    assert_int_equal(p.id, 0);
    assert_int_equal(lesson_pick_field(&p, "turret")->value.i, 0);
    assert_true(vec3_dist(p.ray.origin, turret) < 1e-6f);
    assert_false(lesson_pick_field(&p, "inside")->value.b);
    assert_float_equal(p.t, lesson_pick_field(&p, "t_enter")->value.f, 1e-6f);
    assert_true(p.t > 0.0f);
    assert_float_equal(ellipsoid_level(cruiser, p.point), 1.0f, 1e-4f);

    render_list list = {0};
    draw_once(L, self, &list);
    const render_cmd *beam = beam_from(&list, turret);
    assert_non_null(beam);
    assert_true(vec3_dist(beam->u.beam.b, p.point) < 1e-4f);
    /* the cruiser's shield (the first listed) carries the impact, now */
    const render_cmd *shield = NULL;
    for (int i = 0; i < list.count && !shield; ++i)
        if (list.cmds[i].kind == RENDER_CMD_SHIELD)
            shield = &list.cmds[i];
    assert_non_null(shield);
    int impacts = 0;
    const vec4 *slots = render_list_impacts(&list, shield);
    for (int i = 0; i < shield->u.shield.impact_count; ++i)
        if (slots[i][3] >= 0.0f) {
            ++impacts;
            assert_true(vec3_dist(slots[i], p.point) < 1e-5f);
            assert_float_equal(slots[i][3], 0.25f, 1e-6f);
        }
    assert_int_equal(impacts, 1);
    assert_int_equal(count_cmds(&list, RENDER_CMD_SHIELD), 3);
    render_list_free(&list);
}

static void turret_inside_its_shield_hits_the_exit_point(void **state)
{
    void *self = *state;
    lesson_object o[16];
    start_objects(L, self, o, 16);
    const rp_ellipsoid *station = &o[2].shape.ellipsoid;
    assert_true(L->key(self, 't'));
    lesson_pick p;
    assert_true(click_world_point(L, self, station->center, &p));
    assert_true(p.hit);
    assert_int_equal(p.id, 2);
    assert_int_equal(lesson_pick_field(&p, "turret")->value.i, 1);
    assert_true(vec3_dist(p.ray.origin, o[4].shape.turret.center) < 1e-6f);
    assert_true(lesson_pick_field(&p, "inside")->value.b);
    assert_true(lesson_pick_field(&p, "t_enter")->value.f < 0.0f);
    assert_float_equal(p.t, lesson_pick_field(&p, "t_exit")->value.f, 1e-6f);
    assert_true(p.t > 0.0f);
    assert_float_equal(ellipsoid_level(station, p.point), 1.0f, 1e-4f);
    /* the aim point was on the station's near side: the beam ends there */
    assert_true(vec3_dist(p.point, lesson_pick_field(&p, "aim")->value.v) < 1e-3f);
}

static void miss_flies_the_full_range(void **state)
{
    void *self = *state;
    lesson_object o[16];
    start_objects(L, self, o, 16);
    mat4 view, proj;
    vec3 eye;
    start_camera(L, view, proj, eye);
    lesson_pick p;
    click_ray(L, self, eye, (vec3){0.0f, 1.0f, 0.0f}, &p);     /* straight up */
    assert_false(p.hit);
    assert_int_equal(p.id, -1);
    assert_non_null(lesson_pick_field(&p, "aim"));
    assert_null(lesson_pick_field(&p, "inside"));
    render_list list = {0};
    draw_once(L, self, &list);
    const render_cmd *beam = beam_from(&list, o[3].shape.turret.center);
    assert_non_null(beam);
    assert_float_equal(vec3_dist(beam->u.beam.a, beam->u.beam.b), RANGE, 1e-3f);
    /* no impact point is drawn for a miss */
    assert_int_equal(count_cmds(&list, RENDER_CMD_POINT), 0);
    render_list_free(&list);
}

static void beams_fade_out(void **state)
{
    void *self = *state;
    lesson_object o[16];
    start_objects(L, self, o, 16);
    lesson_pick p;
    assert_true(click_world_point(L, self, o[1].shape.ellipsoid.center, &p));
    render_list list = {0};
    draw_once(L, self, &list);
    assert_int_equal(count_cmds(&list, RENDER_CMD_BEAM), 1);
    L->update(self, 2.0f);
    draw_once(L, self, &list);
    assert_int_equal(count_cmds(&list, RENDER_CMD_BEAM), 0);
    render_list_free(&list);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(objects_are_three_shields_and_two_turrets, setup, teardown),
        cmocka_unit_test_setup_teardown(beam_ends_at_the_cruisers_entry_point, setup, teardown),
        cmocka_unit_test_setup_teardown(turret_inside_its_shield_hits_the_exit_point, setup, teardown),
        cmocka_unit_test_setup_teardown(miss_flies_the_full_range, setup, teardown),
        cmocka_unit_test_setup_teardown(beams_fade_out, setup, teardown),
    };
    return cmocka_run_group_tests_name("lesson2", tests, NULL, NULL);
}

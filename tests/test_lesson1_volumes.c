/* test_lesson1_volumes.c: lesson 1's bounding volumes (key V) without a
 * window: a click through the torus's hole is a false positive of every
 * volume, a click on the cube's face is none, and V picks with the
 * volume it names. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <cmocka.h>

#include "lesson_test_util.h"

#define L (&lesson1_spheres)

static const lesson_field *field(const lesson_pick *p, const char *name)
{
    const lesson_field *f = lesson_pick_field(p, name);
    assert_non_null(f);
    return f;
}

static void torus_hole_is_a_false_positive_of_every_volume(void **state)
{
    (void)state;
    void *self = create_ok(L, 1);
    assert_non_null(self);
    lesson_object o[8];
    int n = start_objects(L, self, o, 8);
    const lesson_object *torus = object_by_id(o, n, 1);
    assert_non_null(torus);
    lesson_pick p;
    /* a ray straight down the torus's axis (y, turned by its start angle
       0.4 about (0.25, 1, 0.1)): through the hole */
    versor q;
    glm_quatv(q, 0.4f, (vec3){0.25f, 1.0f, 0.1f});
    glm_quat_normalize(q);
    vec3 axis = {0, 1, 0}, origin;
    glm_quat_rotatev(q, axis, axis);
    glm_vec3_copy((float *)torus->shape.sphere.center, origin);
    glm_vec3_muladds(axis, 5.0f, origin);
    vec3 down;
    glm_vec3_negate_to(axis, down);
    click_ray(L, self, origin, down, &p);
    const lesson_field *fp = field(&p, "false_positives");
    assert_int_equal(fp->count, 4);
    for (int v = 0; v < 4; ++v)
        assert_int_equal(fp->value.ints[v], 1);
    L->destroy(self);
}

static void v_cycles_the_volume_and_picks_with_it(void **state)
{
    (void)state;
    void *self = create_ok(L, 1);
    lesson_object o[8];
    int n = start_objects(L, self, o, 8);
    const lesson_object *cube = object_by_id(o, n, 0);
    lesson_pick p[4];
    for (int v = 0; v < 4; ++v) {
        assert_true(click_world_point(L, self, cube->shape.sphere.center, &p[v]));
        assert_int_equal(field(&p[v], "volume")->value.i, v);
        assert_int_equal(p[v].id, 0);
        /* a click on the cube's middle: no volume is wrong about it */
        for (int k = 0; k < 4; ++k)
            assert_int_equal(field(&p[v], "false_positives")->value.ints[k], 0);
        assert_true(L->key(self, 'v'));
    }
    assert_int_equal(field(&p[0], "volume")->value.i, 0);
    /* the tutorial's sphere (radius sqrt 3) is met before the cube's box */
    assert_true(p[0].t < p[2].t);
    L->destroy(self);
}

static void shapes_are_listed_with_their_pick_ids(void **state)
{
    (void)state;
    void *self = create_ok(L, 1);
    render_list list = {0};
    draw_once(L, self, &list);
    int shapes = 0;
    for (int i = 0; i < list.count; ++i) {
        if (list.cmds[i].kind == RENDER_CMD_SHAPE) {
            assert_int_equal(list.cmds[i].pick_id, shapes);
            ++shapes;
        } else {
            assert_int_equal(list.cmds[i].pick_id, -1);
        }
    }
    assert_int_equal(shapes, 6);
    render_list_free(&list);
    L->destroy(self);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(torus_hole_is_a_false_positive_of_every_volume),
        cmocka_unit_test(v_cycles_the_volume_and_picks_with_it),
        cmocka_unit_test(shapes_are_listed_with_their_pick_ids),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

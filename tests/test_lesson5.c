/* test_lesson5.c: lesson 5 (the Pick sample) without a window: clicks on
 * the faces it names are reported as those faces with the sample's fields,
 * all hits come nearest first, and a click through the knot's hole hits
 * the bounding sphere but no triangle (the false positive). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "lesson_test_util.h"
#include "mesh_data.h"

#define L (&lesson5_triangles)
#define CAP 32

static void *create_default(void)
{
    void *self = create_ok(L, 1);
    assert_non_null(self);
    return self;
}

static void named_faces_are_picked_with_the_samples_fields(void **state)
{
    (void)state;
    void *self = create_default();
    lesson_object objs[CAP];
    int n = start_objects(L, self, objs, CAP);
    int faces = 0;
    for (int i = 0; i < n && i < CAP; ++i) {
        if (objs[i].id < 0)
            continue;
        lesson_pick p;
        assert_true(click_world_point(L, self, objs[i].shape.point.center, &p));
        assert_true(p.hit);
        assert_int_equal(p.id, objs[i].id);
        const lesson_field *face = lesson_pick_field(&p, "face");
        const lesson_field *u = lesson_pick_field(&p, "u"), *v = lesson_pick_field(&p, "v");
        assert_non_null(face);
        assert_int_equal(face->value.i, objs[i].id);
        /* the centroid: barycentrics (1/3, 1/3), within the pixel's rounding */
        assert_float_equal(u->value.f, 1.0f / 3.0f, 0.05f);
        assert_float_equal(v->value.f, 1.0f / 3.0f, 0.05f);
        assert_true(vec3_dist(p.point, objs[i].shape.point.center) < 0.01f);
        assert_non_null(lesson_pick_field(&p, "tu"));
        ++faces;
    }
    assert_true(faces >= 6);
    L->destroy(self);
}

static void hole_click_hits_the_sphere_and_no_triangle(void **state)
{
    (void)state;
    void *self = create_default();
    lesson_object objs[CAP];
    int n = start_objects(L, self, objs, CAP);
    const lesson_object *hole = object_by_id(objs, n, -2);
    assert_non_null(hole);
    lesson_pick p;
    assert_true(click_world_point(L, self, hole->shape.point.center, &p));
    assert_false(p.hit);
    assert_true(lesson_pick_field(&p, "sphere_hit")->value.b);
    assert_true(lesson_pick_field(&p, "false_positive")->value.b);
    /* bounding sphere only: the same click is a hit, flagged */
    assert_true(L->key(self, 'b'));
    assert_true(click_world_point(L, self, hole->shape.point.center, &p));
    assert_true(p.hit);
    assert_string_equal(p.method, "sphere");
    assert_true(lesson_pick_field(&p, "false_positive")->value.b);
    L->destroy(self);
}

static void all_hits_come_nearest_first(void **state)
{
    (void)state;
    void *self = create_default();
    lesson_object objs[CAP];
    int n = start_objects(L, self, objs, CAP);
    const lesson_object *face = NULL;
    for (int i = 0; i < n && !face; ++i)
        if (objs[i].id >= 0)
            face = &objs[i];
    assert_non_null(face);
    lesson_pick nearest, all;
    assert_true(click_world_point(L, self, face->shape.point.center, &nearest));
    assert_true(L->key(self, 'a'));
    assert_true(click_world_point(L, self, face->shape.point.center, &all));
    const lesson_field *hits = lesson_pick_field(&all, "hits");
    assert_non_null(hits);
    /* a closed tube: a ray that enters leaves again, so hits come in pairs */
    assert_true(hits->count >= 2);
    assert_int_equal(hits->count % 2, 0);
    assert_int_equal(hits->value.ints[0], nearest.id);
    assert_int_equal(all.id, nearest.id);
    assert_float_equal(all.t, nearest.t, 1e-4f);
    L->destroy(self);
}

static void a_users_mesh_is_fitted_and_picked(void **state)
{
    (void)state;
    /* a single square far from the origin: fitted to radius 1.5 around the
       lesson's centre, and picked face by face */
    mesh_vertex v[4] = {
        {{100, 100, 50}, {0, 0, 1}, 0, 0}, {{104, 100, 50}, {0, 0, 1}, 1, 0},
        {{104, 104, 50}, {0, 0, 1}, 1, 1}, {{100, 104, 50}, {0, 0, 1}, 0, 1},
    };
    uint32_t idx[6] = {0, 1, 2, 0, 2, 3};
    mesh_data m = {v, 4, idx, 2};
    char err[256] = "";
    lesson_env env = {.seed = 1, .err = err, .err_size = sizeof err, .mesh = &m};
    void *self = L->create(&env);
    assert_non_null(self);
    lesson_object objs[CAP];
    int n = start_objects(L, self, objs, CAP);
    assert_null(object_by_id(objs, n, -2));     /* no hole in a user's model */
    assert_int_equal(objs[0].id, -1);
    assert_float_equal(objs[0].shape.sphere.radius, 1.5f * sqrtf(2.0f), 1e-4f);
    int seen = 0;
    for (int i = 0; i < n && i < CAP; ++i) {
        if (objs[i].id < 0)
            continue;
        lesson_pick p;
        assert_true(click_world_point(L, self, objs[i].shape.point.center, &p));
        assert_int_equal(p.id, objs[i].id);
        ++seen;
    }
    assert_int_equal(seen, 2);
    assert_int_equal(v[0].p[0], 100);   /* the lesson copied, not moved, the caller's mesh */
    L->destroy(self);
}

static void draw_lists_the_mesh_with_pick_ids(void **state)
{
    (void)state;
    void *self = create_default();
    render_list list = {0};
    draw_once(L, self, &list);
    assert_int_equal(count_cmds(&list, RENDER_CMD_MESH), 1);
    for (int i = 0; i < list.count; ++i)
        if (list.cmds[i].kind == RENDER_CMD_MESH)
            assert_int_equal(list.cmds[i].pick_id, 0);
    assert_int_equal(count_cmds(&list, RENDER_CMD_MESH_HIGHLIGHT), 0);
    lesson_object objs[CAP];
    start_objects(L, self, objs, CAP);
    lesson_pick p;
    assert_true(click_world_point(L, self, objs[2].shape.point.center, &p));
    draw_once(L, self, &list);
    assert_int_equal(count_cmds(&list, RENDER_CMD_MESH_HIGHLIGHT), 1);
    render_list_free(&list);
    L->destroy(self);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(named_faces_are_picked_with_the_samples_fields),
        cmocka_unit_test(hole_click_hits_the_sphere_and_no_triangle),
        cmocka_unit_test(all_hits_come_nearest_first),
        cmocka_unit_test(a_users_mesh_is_fitted_and_picked),
        cmocka_unit_test(draw_lists_the_mesh_with_pick_ids),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_lesson6.c: lesson 6 (hover, drag, select) without a window. The
 * pointer callback is driven as the app drives it: a click at the press,
 * then DRAG moves and a RELEASE, each with the ray under the cursor from
 * the lesson's start camera. Hover picks the unit or path under the
 * cursor (paths within the pixel tolerance), a dragged unit keeps the
 * grabbed point under the cursor within half a pixel and stands on the
 * terrain, a rectangle selects exactly the units a brute-force loop finds,
 * and L's layers filter all of it. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "lesson_test_util.h"
#include "lessons.h"

#define CAP 32
#define UNITS 8
#define PATHS 3

static const lesson *L6(void)
{
    const lessons_entry *e = lessons_get(6);
    assert_non_null(e);
    assert_string_equal(e->name, "hover-drag-select");
    return e->lesson;
}

static void *create_default(void)
{
    void *self = create_ok(L6(), 1);
    assert_non_null(self);
    return self;
}

/* world point -> pixel of the TEST_W x TEST_H start view; false behind */
static bool to_pixel(const vec3 p, float *px, float *py)
{
    mat4 view, proj, vp;
    vec3 eye;
    start_camera(L6(), view, proj, eye);
    glm_mat4_mul(proj, view, vp);
    vec4 clip;
    glm_mat4_mulv(vp, (vec4){p[0], p[1], p[2], 1.0f}, clip);
    if (clip[3] <= 0.0f)
        return false;
    *px = (clip[0] / clip[3] * 0.5f + 0.5f) * TEST_W;
    *py = (0.5f - clip[1] / clip[3] * 0.5f) * TEST_H;
    return true;
}

static bool pointer_at(void *self, lesson_pointer_phase phase, float px, float py, lesson_pick *out)
{
    lesson_click c;
    assert_true(make_click(L6(), self, px, py, &c));
    memset(out, 0, sizeof *out);
    return L6()->pointer(self, phase, &c, out);
}

static void press_at(void *self, float px, float py, lesson_pick *out)
{
    lesson_click c;
    assert_true(make_click(L6(), self, px, py, &c));
    L6()->click(self, &c, out);
}

static int hover_at(void *self, const vec3 p)
{
    float px, py;
    assert_true(to_pixel(p, &px, &py));
    lesson_pick pick;
    assert_true(pointer_at(self, LESSON_POINTER_MOVE, px, py, &pick));
    assert_true(pick.hit == (pick.id >= 0));
    return pick.id;
}

static void hover_finds_units_and_paths(void **state)
{
    (void)state;
    void *self = create_default();
    lesson_object objs[CAP];
    int n = start_objects(L6(), self, objs, CAP);
    assert_int_equal(n, UNITS + PATHS);
    for (int i = 0; i < n; ++i) {
        /* a unit at its centre, a path at its middle point: a thin line
           met within the pixel tolerance */
        const float *p = objs[i].kind == LESSON_OBJECT_SPHERE ? objs[i].shape.sphere.center
                                                               : objs[i].shape.point.center;
        assert_int_equal(hover_at(self, p), objs[i].id);
    }
    /* three pixels beside a path still picks it; twenty do not */
    const lesson_object *path = object_by_id(objs, n, UNITS);
    float px, py;
    assert_true(to_pixel(path->shape.point.center, &px, &py));
    lesson_pick pick;
    assert_true(pointer_at(self, LESSON_POINTER_MOVE, px, py - 3.0f, &pick));
    assert_int_equal(pick.id, UNITS);
    assert_true(pointer_at(self, LESSON_POINTER_MOVE, px, py - 20.0f, &pick));
    assert_int_not_equal(pick.id, UNITS);
    /* the sky: nothing */
    assert_true(pointer_at(self, LESSON_POINTER_MOVE, 2.0f, 2.0f, &pick));
    assert_false(pick.hit);
    assert_int_equal(pick.id, -1);
    L6()->destroy(self);
}

static void layers_filter_the_pointer(void **state)
{
    (void)state;
    void *self = create_default();
    lesson_object objs[CAP];
    int n = start_objects(L6(), self, objs, CAP);
    /* L: all -> units -> paths -> blue units -> all */
    assert_true(L6()->key(self, 'l'));      /* units */
    assert_int_equal(hover_at(self, objs[0].shape.sphere.center), 0);
    assert_int_equal(hover_at(self, object_by_id(objs, n, UNITS)->shape.point.center) >= UNITS, false);
    assert_true(L6()->key(self, 'l'));      /* paths */
    int h = hover_at(self, objs[0].shape.sphere.center);
    assert_true(h == -1 || h >= UNITS);     /* through the unit: nothing, or a path behind it */
    assert_int_equal(hover_at(self, object_by_id(objs, n, UNITS + 1)->shape.point.center), UNITS + 1);
    assert_true(L6()->key(self, 'l'));      /* blue units: 0-3 */
    assert_int_equal(hover_at(self, objs[1].shape.sphere.center), 1);
    assert_int_not_equal(hover_at(self, objs[5].shape.sphere.center), 5);
    assert_true(L6()->key(self, 'l'));      /* all again */
    assert_int_equal(hover_at(self, objs[5].shape.sphere.center), 5);
    assert_false(L6()->key(self, 'x'));
    L6()->destroy(self);
}

/* the drag's grabbed point (centre + offset) against the cursor, in pixels */
static float grab_error_px(const lesson_pick *p, float px, float py)
{
    const lesson_field *c = lesson_pick_field(p, "center"), *o = lesson_pick_field(p, "grab_offset");
    assert_non_null(c);
    assert_non_null(o);
    vec3 g;
    glm_vec3_add((float *)c->value.v, (float *)o->value.v, g);
    float gx, gy;
    assert_true(to_pixel(g, &gx, &gy));
    return hypotf(gx - px, gy - py);
}

static void a_dragged_unit_keeps_the_grabbed_point_under_the_cursor(void **state)
{
    (void)state;
    void *self = create_default();
    lesson_object objs[CAP];
    start_objects(L6(), self, objs, CAP);
    float px, py;
    /* grab unit 2 a little above its centre: the offset is not zero */
    vec3 at = {objs[1].shape.sphere.center[0], objs[1].shape.sphere.center[1] + 0.5f, objs[1].shape.sphere.center[2]};
    assert_true(to_pixel(at, &px, &py));
    lesson_pick pick;
    press_at(self, px, py, &pick);
    assert_true(pick.hit);
    assert_int_equal(pick.id, 1);
    const lesson_field *sel = lesson_pick_field(&pick, "selected");
    assert_true(sel && sel->count == 1 && sel->value.ints[0] == 1);
    float sx = px, sy = py;
    int moved = 0;
    for (int k = 1; k <= 24; ++k) {
        float x = sx + 6.0f * (float)k, y = sy - 4.0f * (float)k;
        assert_true(pointer_at(self, LESSON_POINTER_DRAG, x, y, &pick));
        assert_int_equal(pick.id, 1);
        const lesson_field *m = lesson_pick_field(&pick, "moved");
        assert_non_null(m);
        if (!m->value.b)
            continue;
        ++moved;
        assert_true(grab_error_px(&pick, x, y) < 0.5f);
    }
    assert_true(moved >= 20);
    assert_true(pointer_at(self, LESSON_POINTER_RELEASE, sx + 144.0f, sy - 96.0f, &pick));
    /* the unit stands on the terrain where it was left, and moved there */
    lesson_object after[CAP];
    start_objects(L6(), self, after, CAP);
    assert_true(vec3_dist(after[1].shape.sphere.center, objs[1].shape.sphere.center) > 3.0f);
    /* a further move is a hover again, and finds the unit where it now is */
    assert_int_equal(hover_at(self, after[1].shape.sphere.center), 1);
    L6()->destroy(self);
}

/* a drag with the cursor off the window's edge (the app holds the mouse):
   the pick goes on */
static void a_drag_goes_on_outside_the_window(void **state)
{
    (void)state;
    void *self = create_default();
    lesson_object objs[CAP];
    start_objects(L6(), self, objs, CAP);
    float px, py;
    assert_true(to_pixel(objs[2].shape.sphere.center, &px, &py));   /* unit 3, near the left edge */
    lesson_pick pick;
    press_at(self, px, py, &pick);
    assert_int_equal(pick.id, 2);
    float x = -12.0f, y = py;
    assert_true(pointer_at(self, LESSON_POINTER_DRAG, x, y, &pick));
    const lesson_field *m = lesson_pick_field(&pick, "moved");
    assert_true(m && m->value.b);
    assert_true(grab_error_px(&pick, x, y) < 0.5f);
    L6()->destroy(self);
}

static uint32_t next_random(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

static float uniform(uint32_t *s, float lo, float hi)
{
    return lo + (hi - lo) * (float)(next_random(s) & 0xFFFF) / 65535.0f;
}

/* The units a rectangle selects, by the loop: every unit whose layer is
   pickable and whose sphere meets the rectangle's frustum. */
static int brute_force_selection(const lesson_object *objs, float x0, float y0, float x1, float y1, uint32_t layers,
                                 bool *out)
{
    mat4 view, proj;
    vec3 eye;
    start_camera(L6(), view, proj, eye);
    rp_viewport vp = {0.0f, 0.0f, TEST_W, TEST_H};
    rp_frustum f;
    memset(out, 0, sizeof(bool) * UNITS);
    if (!rp_frustum_from_rect(x0, y0, x1, y1, &vp, proj, view, RP_GL, &f))
        return 0;
    int n = 0;
    for (int i = 0; i < UNITS; ++i) {
        uint32_t layer = i < UNITS / 2 ? 1u : 2u;
        if ((layer & layers) && rp_test_frustum_sphere_exact(&f, &objs[i].shape.sphere)) {
            out[i] = true;
            ++n;
        }
    }
    return n;
}

/* press on the ground at (x0, y0) (somewhere no unit or path is), drag, release at (x1, y1) */
static const lesson_field *marquee(void *self, float x0, float y0, float x1, float y1, lesson_pick *pick)
{
    press_at(self, x0, y0, pick);
    if (pick->hit)
        return NULL;    /* not the ground: no rectangle */
    assert_true(pointer_at(self, LESSON_POINTER_DRAG, (x0 + x1) * 0.5f, (y0 + y1) * 0.5f, pick));
    assert_true(pointer_at(self, LESSON_POINTER_RELEASE, x1, y1, pick));
    return lesson_pick_field(pick, "selected");
}

static void a_rectangle_selects_what_the_loop_selects(void **state)
{
    (void)state;
    void *self = create_default();
    lesson_object objs[CAP];
    start_objects(L6(), self, objs, CAP);
    uint32_t seed = 6u;
    static const uint32_t layer_masks[] = {3u, 3u, 0u, 1u};     /* L's choices, unit bits only */
    int tried = 0, nonempty = 0, partial = 0;
    for (int choice = 0; choice < 4; ++choice) {
        for (int k = 0; k < 60; ++k) {
            /* any corner order, some past the window's edges */
            float x0 = uniform(&seed, 0.0f, TEST_W - 1.0f), y0 = uniform(&seed, 0.0f, TEST_H - 1.0f);
            float x1 = uniform(&seed, -100.0f, TEST_W + 100.0f), y1 = uniform(&seed, -100.0f, TEST_H + 100.0f);
            lesson_pick pick;
            const lesson_field *sel = marquee(self, x0, y0, x1, y1, &pick);
            if (!sel)
                continue;
            ++tried;
            bool want[UNITS];
            int count = brute_force_selection(objs, x0, y0, x1, y1, layer_masks[choice], want);
            assert_int_equal(sel->count, count);
            for (int j = 0; j < sel->count; ++j)
                assert_true(want[sel->value.ints[j]]);
            nonempty += count > 0;
            partial += count > 0 && count < UNITS;
        }
        assert_true(L6()->key(self, 'l'));
    }
    assert_true(tried >= 150);
    assert_true(nonempty >= 30 && partial >= 20);
    /* a plain click on the ground selects nothing, and clears the selection */
    lesson_pick pick;
    const lesson_field *sel = marquee(self, 40.0f, TEST_H - 40.0f, 1000.0f, -50.0f, &pick);
    assert_non_null(sel);
    assert_int_equal(sel->count, UNITS);
    press_at(self, 40.0f, TEST_H - 40.0f, &pick);
    assert_true(pointer_at(self, LESSON_POINTER_RELEASE, 40.0f, TEST_H - 40.0f, &pick));
    sel = lesson_pick_field(&pick, "selected");
    assert_non_null(sel);
    assert_int_equal(sel->count, 0);
    L6()->destroy(self);
}

static void a_release_without_a_gesture_reports_nothing(void **state)
{
    (void)state;
    void *self = create_default();
    lesson_pick pick;
    assert_false(pointer_at(self, LESSON_POINTER_RELEASE, 100.0f, 100.0f, &pick));
    assert_false(pointer_at(self, LESSON_POINTER_DRAG, 100.0f, 100.0f, &pick));
    /* a press on a path picks it and moves nothing */
    lesson_object objs[CAP];
    int n = start_objects(L6(), self, objs, CAP);
    float px, py;
    assert_true(to_pixel(object_by_id(objs, n, UNITS + 2)->shape.point.center, &px, &py));
    press_at(self, px, py, &pick);
    assert_int_equal(pick.id, UNITS + 2);
    assert_false(pointer_at(self, LESSON_POINTER_DRAG, px + 50.0f, py, &pick));
    lesson_object after[CAP];
    start_objects(L6(), self, after, CAP);
    for (int i = 0; i < n; ++i)
        assert_true(vec3_dist(after[i].shape.point.center, objs[i].shape.point.center) == 0.0f);
    L6()->destroy(self);
}

static void draws_the_hover_the_selection_and_the_rectangle(void **state)
{
    (void)state;
    void *self = create_default();
    render_list list;
    memset(&list, 0, sizeof list);
    draw_once(L6(), self, &list);
    assert_int_equal(count_cmds(&list, RENDER_CMD_SHAPE), UNITS);
    assert_int_equal(count_cmds(&list, RENDER_CMD_BEAM), 0);
    assert_int_equal(count_cmds(&list, RENDER_CMD_FIGURE), 0);
    lesson_object objs[CAP];
    int n = start_objects(L6(), self, objs, CAP);
    hover_at(self, object_by_id(objs, n, UNITS)->shape.point.center);
    draw_once(L6(), self, &list);
    assert_true(count_cmds(&list, RENDER_CMD_BEAM) > 0);     /* the hovered path glows */
    lesson_pick pick;
    press_at(self, 40.0f, TEST_H - 40.0f, &pick);
    assert_false(pick.hit);
    assert_true(pointer_at(self, LESSON_POINTER_DRAG, 600.0f, 300.0f, &pick));
    draw_once(L6(), self, &list);
    assert_int_equal(count_cmds(&list, RENDER_CMD_FIGURE), 5);      /* the rectangle: its fill and four sides */
    char buf[512];
    L6()->status(self, buf, sizeof buf);
    assert_non_null(strstr(buf, "selecting"));
    /* a move with no button held ends a gesture no release ended (a
       script's --click on the ground): no rectangle is left on screen */
    assert_true(pointer_at(self, LESSON_POINTER_MOVE, 600.0f, 300.0f, &pick));
    draw_once(L6(), self, &list);
    assert_int_equal(count_cmds(&list, RENDER_CMD_FIGURE), 0);
    L6()->status(self, buf, sizeof buf);
    assert_null(strstr(buf, "selecting"));
    render_list_free(&list);
    L6()->destroy(self);
}

/* ------------------------------------------------------------ the tour */

static void tour_moments_are_valid(void **state)
{
    (void)state;
    const lesson *l = L6();
    assert_int_equal(l->tour_count, 6);     /* 5 and 6: step mode (test_lesson6_listing.c) */
    char why[256];
    if (!tour_moments_valid(l, 1, why, sizeof why))
        fail_msg("%s", why);
    void *probe = create_default();
    for (int m = 0; m < l->tour_count; ++m) {
        const lesson_tour_moment *t = &l->tour[m];
        assert_true(msg_exists(t->sentence));
        assert_true(t->click_count == 1);
        float px, py;
        assert_true(tour_click_pixel(l, probe, &l->camera, &t->clicks[0], &px, &py));
        void *self = stage_tour_moment(l, m, NULL);
        assert_non_null(self);
        l->destroy(self);
    }
    l->destroy(probe);
}

/* Each moment shows what its sentence says: the path lit, unit 2 moved
   with the grabbed point under the cursor, the rectangle's selection, the
   unit the layers leave out. */
static void tour_moments_show_what_they_say(void **state)
{
    (void)state;
    const lesson *l = L6();
    lesson_pick p;
    void *self = stage_tour_moment(l, 0, &p);
    assert_non_null(self);
    assert_true(p.hit && p.id == UNITS);            /* path 1 */
    render_list list;
    memset(&list, 0, sizeof list);
    draw_once(l, self, &list);
    assert_true(count_cmds(&list, RENDER_CMD_BEAM) > 0);
    l->destroy(self);

    self = stage_tour_moment(l, 1, &p);
    assert_non_null(self);
    const lesson_field *moved = lesson_pick_field(&p, "moved");
    assert_true(p.id == 1 && moved && moved->value.b);
    assert_true(grab_error_px(&p, l->tour[1].clicks[0].to_fx * TEST_W, l->tour[1].clicks[0].to_fy * TEST_H) < 0.5f);
    l->destroy(self);

    self = stage_tour_moment(l, 2, &p);
    assert_non_null(self);
    const lesson_field *sel = lesson_pick_field(&p, "selected");
    assert_non_null(sel);
    lesson_object objs[CAP];
    start_objects(l, self, objs, CAP);
    const lesson_tour_click *c = &l->tour[2].clicks[0];
    bool want[UNITS];
    int count = brute_force_selection(objs, c->fx * TEST_W, c->fy * TEST_H, c->to_fx * TEST_W, c->to_fy * TEST_H,
                                      3u, want);
    assert_true(count >= 2);
    assert_int_equal(sel->count, count);
    for (int j = 0; j < sel->count; ++j)
        assert_true(want[sel->value.ints[j]]);
    l->destroy(self);

    self = stage_tour_moment(l, 3, &p);
    assert_non_null(self);
    assert_false(p.hit);        /* unit 2 under the cursor, its layer left out */
    char buf[512];
    l->status(self, buf, sizeof buf);
    assert_non_null(strstr(buf, "pickable layers: paths"));
    render_list_free(&list);
    l->destroy(self);
}

int main(void)
{
    msg_set_language("en");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hover_finds_units_and_paths),
        cmocka_unit_test(layers_filter_the_pointer),
        cmocka_unit_test(a_dragged_unit_keeps_the_grabbed_point_under_the_cursor),
        cmocka_unit_test(a_drag_goes_on_outside_the_window),
        cmocka_unit_test(a_rectangle_selects_what_the_loop_selects),
        cmocka_unit_test(a_release_without_a_gesture_reports_nothing),
        cmocka_unit_test(draws_the_hover_the_selection_and_the_rectangle),
        cmocka_unit_test(tour_moments_are_valid),
        cmocka_unit_test(tour_moments_show_what_they_say),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

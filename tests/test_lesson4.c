/* test_lesson4.c: lesson 4 (terrain picking) without a window: a click on a
 * landmark's pixel puts the marker on the terrain there (search and exact
 * methods), the marker is drawn, a click beyond the map is a miss (the
 * recipe's loop stopped), step mode walks the recipe's listing, M after a
 * click changes the pick, and a bad --heightmap file is refused with a
 * message naming it. The listing against the library, its steps against
 * its lines, and the tour: test_lesson4_listing.c. */
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

/* A click beyond the map (the top of the view): the ray never meets the
   ground. The recipe's LinearSearch would walk on for ever; the lesson
   stops it, and reports a miss with no marker. */
static void click_beyond_the_map(void *self, lesson_pick *p)
{
    lesson_click c;
    assert_true(make_click(L, self, TEST_W * 0.5f, 3.0f, &c));
    L->click(self, &c, p);
}

static void click_beyond_the_map_is_a_miss_without_marker(void **state)
{
    void *self = *state;
    lesson_pick p;
    click_beyond_the_map(self, &p);
    assert_false(p.hit);
    assert_int_equal(p.id, -1);
    assert_true(lesson_pick_field(&p, "search_stopped")->value.b);
    assert_false(lesson_pick_field(&p, "search_hit")->value.b);
    assert_false(lesson_pick_field(&p, "exact_hit")->value.b);
    render_list list = {0};
    draw_once(L, self, &list);
    assert_int_equal(count_cmds(&list, RENDER_CMD_SHAPE), 0);     /* no marker */
    assert_int_equal(count_cmds(&list, RENDER_CMD_TERRAIN), 1);
    render_list_free(&list);
    char hud[1024];
    L->status(self, hud, sizeof hud);
    assert_non_null(strstr(hud, "stopped by the lesson"));
}

/* The HUD text the lesson writes now. */
static void status_text(void *self, char *buf, size_t size)
{
    L->status(self, buf, size);
}

/* A click in the middle of the terrain at the start camera. */
static void click_middle(void *self, lesson_pick *p)
{
    lesson_click c;
    assert_true(make_click(L, self, TEST_W * 0.45f, TEST_H * 0.62f, &c));
    L->click(self, &c, p);
}

static void report_has_both_points_and_t(void **state)
{
    void *self = *state;
    lesson_pick p;
    click_middle(self, &p);
    assert_true(p.hit);
    assert_int_equal(lesson_pick_field(&p, "linear_steps")->value.i, 30);   /* the default */
    const lesson_field *sp = lesson_pick_field(&p, "search_point"), *st = lesson_pick_field(&p, "search_t");
    const lesson_field *ep = lesson_pick_field(&p, "exact_point"), *et = lesson_pick_field(&p, "exact_t");
    assert_non_null(sp);
    assert_non_null(st);
    assert_non_null(ep);
    assert_non_null(et);
    vec3 on_ray;
    rp_ray_at(&p.ray, st->value.f, on_ray);
    assert_true(vec3_dist(on_ray, sp->value.v) < 1e-3f);
    rp_ray_at(&p.ray, et->value.f, on_ray);
    assert_true(vec3_dist(on_ray, ep->value.v) < 1e-3f);
    /* the marker is the search's point, its t the search's */
    assert_true(vec3_dist(p.point, sp->value.v) < 1e-6f);
    assert_float_equal(p.t, st->value.f, 1e-7f);
    assert_float_equal(lesson_pick_field(&p, "methods_apart")->value.f, vec3_dist(sp->value.v, ep->value.v), 1e-4f);
    /* a miss reports neither point */
    click_beyond_the_map(self, &p);
    assert_null(lesson_pick_field(&p, "search_point"));
    assert_null(lesson_pick_field(&p, "exact_t"));
}

static void l_cycles_the_linear_step_count(void **state)
{
    void *self = *state;
    static const int expected[] = {300, 1, 8, 30};
    char hud[1024];
    for (int i = 0; i < 4; ++i) {
        assert_true(L->key(self, 'l'));
        lesson_pick p;
        click_middle(self, &p);
        assert_int_equal(lesson_pick_field(&p, "linear_steps")->value.i, expected[i]);
        /* samples: A plus at most one per step */
        int samples = lesson_pick_field(&p, "linear_samples")->value.i;
        assert_true(samples >= 2 && samples <= expected[i] + 1);
        status_text(self, hud, sizeof hud);
        char want[32];
        snprintf(want, sizeof want, "linear steps: %d (L)", expected[i]);
        assert_non_null(strstr(hud, want));
    }
}

/* The step the code panel shows now (NULL: none). */
static const listing_step *shown(const void *self, lesson_code_view *cv)
{
    assert_true(L->code(self, cv));
    assert_non_null(cv->code);
    return cv->step;
}

static bool is_step(const listing_step *s, const char *name)
{
    char id[96];
    snprintf(id, sizeof id, "lesson.terrain-picking.step.%s", name);
    return s && strcmp(s->msg_id, id) == 0;
}

static void watched_point(const listing_step *s, const char *name, vec3 out)
{
    const listing_watch *w = listing_step_watch(s, name);
    assert_non_null(w);
    assert_int_equal(w->kind, LISTING_WATCH_VEC3);
    glm_vec3_copy((float *)w->v, out);
}

/* Step mode walks the recipe's listing as it ran: GetPointerRay, ClipRay,
   then (L = 1) BinarySearch alone, whose first point lies halfway between
   A and B, to pointerPos; each step lights a line of the listing. */
static void step_mode_walks_the_listing(void **state)
{
    void *self = *state;
    char hud[1024];
    lesson_camera cam;
    lesson_code_view cv;
    L->status(self, hud, sizeof hud);
    assert_non_null(strstr(hud, "P: step through"));
    assert_false(L->frame(self, &cam));
    assert_null(shown(self, &cv));                  /* the code alone */
    assert_true(L->key(self, 'p'));
    L->status(self, hud, sizeof hud);
    assert_non_null(strstr(hud, "click the terrain"));
    assert_false(L->frame(self, &cam));            /* on, but nothing to show yet */
    /* the recipe's binary search alone: L twice (30 -> 300 -> 1) */
    L->key(self, 'l');
    L->key(self, 'l');
    lesson_pick p;
    click_middle(self, &p);
    assert_true(p.hit);
    int binary = lesson_pick_field(&p, "binary_steps")->value.i;
    assert_true(binary >= 2);
    /* GetPointerRay: near and far point, then the ray */
    const listing_step *s = shown(self, &cv);
    assert_true(is_step(s, "unproject"));
    assert_int_equal(cv.index, 0);
    assert_true(cv.count > binary + 4);
    assert_true(L->frame(self, &cam));             /* framed */
    assert_true(cam.distance > 0.0f && cam.distance < 300.0f);
    assert_true(L->key(self, '.'));
    assert_true(is_step(shown(self, &cv), "pointer-ray"));
    /* ClipRay: A at the highest height, B at the lowest */
    assert_true(L->key(self, '.'));
    s = shown(self, &cv);
    assert_true(is_step(s, "clip"));
    vec3 a, b, mid;
    watched_point(s, "pointA", a);
    watched_point(s, "pointB", b);
    assert_true(a[1] > b[1]);
    glm_vec3_center(a, b, mid);
    /* no LinearSearch: shorterRay is the clipped ray */
    assert_true(L->key(self, '.'));
    assert_true(is_step(shown(self, &cv), "shorter-ray"));
    assert_true(L->key(self, '.'));
    assert_true(is_step(shown(self, &cv), "binary-start"));
    /* the recipe's point 1, halfway between A and B */
    assert_true(L->key(self, '.'));
    s = shown(self, &cv);
    assert_true(is_step(s, "binary-above") || is_step(s, "binary-below"));
    vec3 first;
    watched_point(s, "nextPoint", first);
    assert_true(vec3_dist(first, mid) < 1e-4f * vec3_dist(a, b) + 1e-4f);
    /* to the last step: pointerPos; '.' stops there, ',' goes back */
    for (int i = 0; i < cv.count + 3; ++i)
        L->key(self, '.');
    s = shown(self, &cv);
    assert_true(is_step(s, "found"));
    assert_int_equal(cv.index, cv.count - 1);
    vec3 found;
    watched_point(s, "pointerPos", found);
    assert_true(vec3_dist(found, lesson_pick_field(&p, "search_point")->value.v) < 1e-5f);
    assert_true(L->key(self, ','));
    assert_non_null(shown(self, &cv));
    assert_int_equal(cv.index, cv.count - 2);
    /* Z frees the camera, P ends step mode */
    assert_true(L->key(self, 'z'));
    assert_false(L->frame(self, &cam));
    L->status(self, hud, sizeof hud);
    assert_non_null(strstr(hud, "camera: free (Z)"));
    assert_true(L->key(self, 'z'));
    assert_true(L->key(self, 'p'));
    assert_false(L->frame(self, &cam));
    assert_null(shown(self, &cv));
}

static int large_points(const render_list *list, vec3 at)
{
    int large = 0;
    for (int i = 0; i < list->count; ++i)
        if (list->cmds[i].kind == RENDER_CMD_POINT && list->cmds[i].u.point.size_px >= 18.0f) {
            ++large;
            glm_vec3_copy((float *)list->cmds[i].u.point.p, at);
        }
    return large;
}

static void step_mode_draws_the_current_step_large(void **state)
{
    void *self = *state;
    L->key(self, 'p');
    lesson_pick p;
    click_middle(self, &p);
    render_list list = {0};
    /* at ClipRay: A large, no marker */
    L->key(self, '.');
    L->key(self, '.');
    lesson_code_view cv;
    const listing_step *s = shown(self, &cv);
    assert_true(is_step(s, "clip"));
    vec3 a, at = {0};
    watched_point(s, "pointA", a);
    draw_once(L, self, &list);
    assert_int_equal(large_points(&list, at), 1);
    assert_true(vec3_dist(at, a) < 1e-4f);
    assert_int_equal(count_cmds(&list, RENDER_CMD_SHAPE), 0);
    int lines_at_clip = count_cmds(&list, RENDER_CMD_LINE);
    assert_true(lines_at_clip > 10);                /* ray, profile, drop, labels */
    /* the framed view cuts the terrain away between the camera and the ray:
       a new heights array (and version), the full map's lowest height on
       the camera's side, the map's own heights well behind the ray */
    const render_terrain_data *cut = NULL;
    for (int i = 0; i < list.count; ++i)
        if (list.cmds[i].kind == RENDER_CMD_TERRAIN)
            cut = &list.cmds[i].u.terrain;
    assert_non_null(cut);
    assert_true(cut->version > 0);
    lesson_camera cam;
    assert_true(L->frame(self, &cam));
    vec3 toward = {sinf(cam.yaw), 0.0f, cosf(cam.yaw)};      /* the eye's side */
    float lo = 1e30f;
    for (int i = 0; i < cut->cols * cut->rows; ++i)
        lo = fminf(lo, cut->heights[i]);
    int lowered = 0, kept = 0;
    assert_true(L->key(self, 'z'));                 /* free camera: the whole map again */
    rp_heightmap *whole = shown_terrain(self);
    const float *full = rp_heightmap_heights(whole);
    for (int r = 0; r < cut->rows; ++r)
        for (int c = 0; c < cut->cols; ++c) {
            vec3 q = {cut->origin[0] + (float)c * cut->spacing, 0.0f, cut->origin[2] + (float)r * cut->spacing};
            vec3 rel;
            glm_vec3_sub(q, p.ray.origin, rel);
            float d = rel[0] * toward[0] + rel[2] * toward[2];
            float hgt = cut->heights[r * cut->cols + c];
            if (d > 0.1f) {
                assert_float_equal(hgt, lo, 0.0f);
                ++lowered;
            } else if (d < -2.0f * cut->spacing) {
                assert_float_equal(hgt, full[r * cut->cols + c], 0.0f);
                ++kept;
            }
        }
    assert_true(lowered > 100 && kept > 100);
    assert_true(L->key(self, 'z'));
    rp_heightmap_destroy(whole);
    /* the last step: the point found large, the exact hit beside it, no
       marker hiding them; the camera still shows several units of ray */
    for (int i = 0; i < 400; ++i)
        L->key(self, '.');
    assert_true(is_step(shown(self, &cv), "found"));
    draw_once(L, self, &list);
    assert_int_equal(count_cmds(&list, RENDER_CMD_SHAPE), 0);
    assert_int_equal(large_points(&list, at), 1);
    assert_true(vec3_dist(at, p.point) < 1e-4f);
    const lesson_field *exact = lesson_pick_field(&p, "exact_point");
    bool exact_drawn = false;
    for (int i = 0; i < list.count; ++i)
        exact_drawn |= list.cmds[i].kind == RENDER_CMD_POINT && vec3_dist(list.cmds[i].u.point.p, exact->value.v) < 1e-5f;
    assert_true(exact_drawn);
    assert_true(L->frame(self, &cam));
    assert_true(cam.distance >= 1.5f * 3.0f - 1e-3f);   /* FRAME_MIN: the marker never fills the view */
    /* step mode off: the marker is back */
    L->key(self, 'p');
    draw_once(L, self, &list);
    assert_int_equal(count_cmds(&list, RENDER_CMD_SHAPE), 2);
    render_list_free(&list);
}

/* M after a click shows the other method's pick: the app's HUD asks
   lesson->pick after the key (its method line then says what the
   lesson's does). */
static void m_after_a_click_changes_the_pick(void **state)
{
    void *self = *state;
    lesson_pick p, now;
    click_middle(self, &p);
    assert_string_equal(p.method, "search");
    const lesson_field *ep = lesson_pick_field(&p, "exact_point"), *sp = lesson_pick_field(&p, "search_point");
    assert_non_null(ep);
    assert_true(L->key(self, 'm'));
    assert_true(L->pick(self, &now));
    assert_string_equal(now.method, "exact");
    assert_true(now.hit);
    assert_true(vec3_dist(now.point, ep->value.v) < 1e-6f);
    render_list list = {0};
    draw_once(L, self, &list);
    bool ring_at_exact = false;
    for (int k = 0; k < list.count; ++k)
        if (list.cmds[k].kind == RENDER_CMD_SHAPE && list.cmds[k].u.shape.shape == RENDER_TORUS) {
            vec3 m = {list.cmds[k].u.shape.model[3][0], list.cmds[k].u.shape.model[3][1],
                      list.cmds[k].u.shape.model[3][2]};
            ring_at_exact |= vec3_dist(m, ep->value.v) < 0.05f;
        }
    assert_true(ring_at_exact);
    render_list_free(&list);
    char hud[1024];
    L->status(self, hud, sizeof hud);
    assert_non_null(strstr(hud, "method: exact"));
    assert_true(L->key(self, 'm'));
    assert_true(L->pick(self, &now));
    assert_string_equal(now.method, "search");
    assert_true(vec3_dist(now.point, sp->value.v) < 1e-6f);
}

/* P after a click shows that click's steps, with its cutaway. */
static void step_mode_turned_on_after_the_click(void **state)
{
    void *self = *state;
    lesson_pick p;
    click_middle(self, &p);
    render_list list = {0};
    draw_once(L, self, &list);
    const float *before = NULL;
    for (int i = 0; i < list.count; ++i)
        if (list.cmds[i].kind == RENDER_CMD_TERRAIN)
            before = list.cmds[i].u.terrain.heights;
    assert_true(L->key(self, 'p'));
    lesson_code_view cv;
    assert_non_null(shown(self, &cv));
    assert_int_equal(cv.index, 0);
    draw_once(L, self, &list);
    const render_terrain_data *t = NULL;
    for (int i = 0; i < list.count; ++i)
        if (list.cmds[i].kind == RENDER_CMD_TERRAIN)
            t = &list.cmds[i].u.terrain;
    assert_non_null(t);
    assert_true(t->heights != before);
    assert_true(t->version > 0);
    render_list_free(&list);
}

static void spire_is_wide_enough_to_hit(void **state)
{
    void *self = *state;
    lesson_object o[32];
    int n = start_objects(L, self, o, 32);
    const lesson_object *spire = object_by_id(o, n, 0);
    assert_non_null(spire);
    /* a click at 70% of its height, 0.3 units off its axis, hits it with
       the default 30 steps */
    vec3 p;
    glm_vec3_lerp((float *)spire->shape.spire.base, (float *)spire->shape.spire.center, 0.7f, p);
    p[0] += 0.3f;
    lesson_pick pick;
    assert_true(click_world_point(L, self, p, &pick));
    assert_true(pick.hit);
    assert_true(hypotf(pick.point[0] - spire->shape.spire.center[0], pick.point[2] - spire->shape.spire.center[2]) < 1.1f);
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
        cmocka_unit_test_setup_teardown(click_beyond_the_map_is_a_miss_without_marker, setup, teardown),
        cmocka_unit_test_setup_teardown(report_has_both_points_and_t, setup, teardown),
        cmocka_unit_test_setup_teardown(l_cycles_the_linear_step_count, setup, teardown),
        cmocka_unit_test_setup_teardown(step_mode_walks_the_listing, setup, teardown),
        cmocka_unit_test_setup_teardown(step_mode_draws_the_current_step_large, setup, teardown),
        cmocka_unit_test_setup_teardown(step_mode_turned_on_after_the_click, setup, teardown),
        cmocka_unit_test_setup_teardown(m_after_a_click_changes_the_pick, setup, teardown),
        cmocka_unit_test_setup_teardown(spire_is_wide_enough_to_hit, setup, teardown),
        cmocka_unit_test(bad_heightmap_file_is_refused_with_its_name),
    };
    return cmocka_run_group_tests_name("lesson4", tests, NULL, NULL);
}

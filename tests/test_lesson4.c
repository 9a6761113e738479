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
    mat4 view, proj;
    vec3 eye;
    start_camera(L, view, proj, eye);
    click_ray(L, self, eye, (vec3){0.1f, 1.0f, -0.2f}, &p);
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

/* Reads "t <number>" after the text `after` in the HUD; false when absent. */
static bool hud_t(const char *hud, const char *after, double *t)
{
    const char *at = strstr(hud, after);
    return at && (at = strstr(at + strlen(after), "t ")) && sscanf(at + 2, "%lf", t) == 1;
}

static void step_mode_walks_clip_linear_binary_result(void **state)
{
    void *self = *state;
    char hud[1024];
    lesson_camera cam;
    status_text(self, hud, sizeof hud);
    assert_non_null(strstr(hud, "P: step through"));
    assert_false(L->frame(self, &cam));
    assert_true(L->key(self, 'p'));
    status_text(self, hud, sizeof hud);
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
    /* step 1: ClipRay, A and B with their t */
    status_text(self, hud, sizeof hud);
    assert_non_null(strstr(hud, "step 1 of "));
    assert_non_null(strstr(hud, "ClipRay: A at y"));
    double ta, tb, t1;
    assert_true(hud_t(hud, "A at y", &ta));
    assert_true(hud_t(hud, "to B at y", &tb));
    assert_true(ta < tb);
    assert_true(L->frame(self, &cam));             /* framed: the camera looks at A-B */
    assert_true(cam.distance > 0.0f && cam.distance < 200.0f);
    /* step 2: the one linear step lands on B, below the ground */
    assert_true(L->key(self, '.'));
    status_text(self, hud, sizeof hud);
    assert_non_null(strstr(hud, "linear point 1 of 1"));
    assert_non_null(strstr(hud, "between A and B"));
    /* step 3: the recipe's point 1, halfway between A and B */
    assert_true(L->key(self, '.'));
    status_text(self, hud, sizeof hud);
    assert_non_null(strstr(hud, "binary point 1:"));
    assert_true(hud_t(hud, "binary point 1:", &t1));
    assert_true(fabs(t1 - 0.5 * (ta + tb)) < 2e-5 + 1e-4 * (tb - ta));
    assert_true(strstr(hud, "between A and 1") || strstr(hud, "between 1 and B"));
    /* to the last step: the result beside the exact hit; '.' stops there */
    for (int i = 0; i < binary + 3; ++i)
        L->key(self, '.');
    status_text(self, hud, sizeof hud);
    assert_non_null(strstr(hud, "found: t"));
    assert_non_null(strstr(hud, "exact: t"));
    /* ',' goes back to the last binary point */
    assert_true(L->key(self, ','));
    status_text(self, hud, sizeof hud);
    char want[32];
    snprintf(want, sizeof want, "binary point %d:", binary);
    assert_non_null(strstr(hud, want));
    /* Z frees the camera, P ends step mode */
    assert_true(L->key(self, 'z'));
    assert_false(L->frame(self, &cam));
    status_text(self, hud, sizeof hud);
    assert_non_null(strstr(hud, "camera: free (Z)"));
    assert_true(L->key(self, 'z'));
    assert_true(L->key(self, 'p'));
    assert_false(L->frame(self, &cam));
}

static void step_mode_draws_the_current_step_large(void **state)
{
    void *self = *state;
    L->key(self, 'p');
    lesson_pick p;
    click_middle(self, &p);
    render_list list = {0};
    /* at ClipRay: A large, B small, no binary point yet, no marker */
    draw_once(L, self, &list);
    int large = 0;
    for (int i = 0; i < list.count; ++i)
        large += list.cmds[i].kind == RENDER_CMD_POINT && list.cmds[i].u.point.size_px >= 18.0f;
    assert_int_equal(large, 1);
    assert_int_equal(count_cmds(&list, RENDER_CMD_SHAPE), 0);
    int lines_at_clip = count_cmds(&list, RENDER_CMD_LINE);
    assert_true(lines_at_clip > 10);                /* ray, profile, drops, labels */
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
    /* the last step: the marker is back */
    for (int i = 0; i < 400; ++i)
        L->key(self, '.');
    draw_once(L, self, &list);
    assert_int_equal(count_cmds(&list, RENDER_CMD_SHAPE), 2);
    render_list_free(&list);
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
    char hud[1024];
    L->status(self, hud, sizeof hud);
    assert_non_null(strstr(hud, "step 1 of "));
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
        cmocka_unit_test_setup_teardown(ray_into_the_sky_is_a_miss_without_marker, setup, teardown),
        cmocka_unit_test_setup_teardown(report_has_both_points_and_t, setup, teardown),
        cmocka_unit_test_setup_teardown(l_cycles_the_linear_step_count, setup, teardown),
        cmocka_unit_test_setup_teardown(step_mode_walks_clip_linear_binary_result, setup, teardown),
        cmocka_unit_test_setup_teardown(step_mode_draws_the_current_step_large, setup, teardown),
        cmocka_unit_test_setup_teardown(step_mode_turned_on_after_the_click, setup, teardown),
        cmocka_unit_test_setup_teardown(spire_is_wide_enough_to_hit, setup, teardown),
        cmocka_unit_test(bad_heightmap_file_is_refused_with_its_name),
    };
    return cmocka_run_group_tests_name("lesson4", tests, NULL, NULL);
}

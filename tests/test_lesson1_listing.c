/* test_lesson1_listing.c: lesson 1's listing (the Chinese bounding-sphere
 * picking tutorial's click ported under its own names,
 * src/lessons/listings/lesson1_cgame_pick.c) against the library where the
 * two should agree, and where they must not (the tutorial's mistakes);
 * every step a click records names a line of the shown listing that holds
 * what the step watches; the step's camera shows the step; and the
 * lesson's tour: each moment valid and doing what its sentence says. No
 * GL, no SDL. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <cmocka.h>

#include "lesson_test_util.h"
#include "lesson1_cgame_pick.h"
#include "msg.h"

#define L (&lesson1_spheres)
#define STEP(name) "lesson.picking-spheres.step." name

static const rp_viewport VIEWPORT = {0.0f, 0.0f, TEST_W, TEST_H};

/* the tutorial's ray for pixel (x, y) through the lesson's start camera */
static Ray tutorial_ray(float x, float y, bool left_handed)
{
    mat4 view, proj;
    vec3 eye;
    start_camera(L, view, proj, eye);
    CGame g;
    memset(&g, 0, sizeof g);
    assert_true(CGame_SetDevice(&g, &VIEWPORT, view, proj, left_handed));
    HandleMessage(&g, WM_LBUTTONDOWN, x, y);
    return g.lastRay;
}

static void ray_to_rp(const Ray *r, rp_ray *out)
{
    *out = (rp_ray){{r->_origin.x, r->_origin.y, r->_origin.z}, {r->_dirction.x, r->_dirction.y, r->_dirction.z}};
}

/* ------------------------------------------------------------ the library */

/* With Direct3D's matrices for the camera (the tutorial's world)
   CalculateRay + TransformRay is the library's rp_pick_ray_perspective,
   for GL's matrices (RP_GL) and for Direct3D's own (left-handed view,
   a [0, 1] depth projection: RP_D3D), pixel by pixel. */
static void the_tutorials_ray_is_the_librarys_perspective_ray(void **state)
{
    (void)state;
    mat4 view, proj, mirror = GLM_MAT4_IDENTITY_INIT, view_lh, proj_lh;
    vec3 eye;
    start_camera(L, view, proj, eye);
    mirror[2][2] = -1.0f;
    glm_mat4_mul(mirror, view, view_lh);
    float zn = proj[3][2] / (proj[2][2] - 1.0f), zf = proj[3][2] / (proj[2][2] + 1.0f);
    /* D3DXMatrixPerspectiveFovLH: depth 0 at zn, 1 at zf, w = z */
    glm_mat4_zero(proj_lh);
    proj_lh[0][0] = proj[0][0];
    proj_lh[1][1] = proj[1][1];
    proj_lh[2][2] = zf / (zf - zn);
    proj_lh[2][3] = 1.0f;
    proj_lh[3][2] = -zn * zf / (zf - zn);
    int compared = 0;
    for (float py = 0.5f; py < TEST_H; py += 53.0f)
        for (float px = 0.5f; px < TEST_W; px += 61.0f) {
            Ray r = tutorial_ray(px, py, true);
            rp_ray mine, gl, d3d;
            ray_to_rp(&r, &mine);
            assert_true(rp_pick_ray_perspective(px, py, &VIEWPORT, proj, view, RP_GL, &gl));
            assert_true(rp_pick_ray_perspective(px, py, &VIEWPORT, proj_lh, view_lh, RP_D3D, &d3d));
            assert_true(vec3_dist(mine.origin, gl.origin) < 1e-4f);
            assert_true(vec3_dist(mine.dir, gl.dir) < 2e-5f);
            assert_true(vec3_dist(mine.dir, d3d.dir) < 2e-5f);
            assert_true(vec3_dist(mine.origin, d3d.origin) < 1e-4f);
            ++compared;
        }
    assert_true(compared > 100);
}

/* CheckIntersection says true exactly when the library's ray-sphere test
   does (a root >= 0), and its near root t1 (when >= 0) is the library's
   t; checked over rays and spheres away from the boundary cases. */
static void check_intersection_agrees_with_the_library(void **state)
{
    (void)state;
    uint32_t seed = 12345u;
    int hits = 0, misses = 0, inside = 0;
    for (int n = 0; n < 4000; ++n) {
        float v[10];
        for (int k = 0; k < 10; ++k) {
            seed = seed * 1664525u + 1013904223u;
            v[k] = (float)(seed >> 8) / 16777216.0f * 2.0f - 1.0f;
        }
        /* from a box around the sphere, towards it give or take twice its radius */
        rp_sphere s = {{3.0f * v[6], 3.0f * v[7], 3.0f * v[8]}, 1.0f + 2.0f * fabsf(v[9])};
        rp_ray ray = {{8.0f * v[0], 8.0f * v[1], 8.0f * v[2]}, {0}};
        vec3 aim = {v[3], v[4], v[5]};
        glm_vec3_scale(aim, 2.0f * s.radius, aim);
        glm_vec3_add(aim, s.center, aim);
        glm_vec3_sub(aim, ray.origin, ray.dir);
        if (n % 7 == 0)
            glm_vec3_negate(ray.dir);       /* some point away: spheres behind */
        if (glm_vec3_norm(ray.dir) < 0.1f)
            continue;
        glm_vec3_normalize(ray.dir);
        listing_step steps[8];
        listing_trace t;
        listing_trace_reset(&t, steps, 8);
        CGame g = {.trace = &t};
        Ray r = {{ray.origin[0], ray.origin[1], ray.origin[2]}, {ray.dir[0], ray.dir[1], ray.dir[2]}};
        BoundSphere b = {{s.center[0], s.center[1], s.center[2]}, s.radius};
        bool mine = CheckIntersection(&g, &r, &b);
        const listing_watch *nw = listing_step_watch(&steps[1], "n");
        assert_non_null(nw);
        rp_hit hit;
        bool lib = rp_intersect_ray_sphere(&ray, &s, &hit);
        if (fabsf(nw->v[0]) < 1e-3f)
            continue;   /* grazing: float and double may disagree */
        if (t.count >= 3) {
            float t0 = listing_step_watch(&steps[2], "t0")->v[0], t1 = listing_step_watch(&steps[2], "t1")->v[0];
            if (fabsf(t0) < 1e-3f || fabsf(t1) < 1e-3f)
                continue;   /* the origin on the sphere */
            if (lib && t1 >= 0.0f)
                assert_float_equal(t1, hit.t, 1e-3f);
            if (lib && t1 < 0.0f) {
                assert_true(hit.inside);
                assert_float_equal(t0, hit.t, 1e-3f);
                ++inside;
            }
        }
        assert_int_equal(mine, lib);
        hits += lib;
        misses += !lib;
    }
    if (!(hits > 200 && misses > 200 && inside > 20))
        fail_msg("hits %d, misses %d, inside %d", hits, misses, inside);
}

/* Where the tutorial must not agree: the viewport's offset, +z with
   OpenGL's right-handed matrices, an off-centre projection (only _11 and
   _22 read), a direction that is not a unit vector (A = 1 assumed), and a
   small sphere far away (float's b^2 - 4c). */
static void the_tutorials_mistakes_are_kept(void **state)
{
    (void)state;
    mat4 view, proj;
    vec3 eye;
    start_camera(L, view, proj, eye);
    /* the 3D view in the right half of a window (X = 480): its centre
       pixel is straight ahead; the tutorial maps it to NDC x = 2 */
    rp_viewport right_half = {480.0f, 0.0f, 480.0f, TEST_H};
    mat4 half_proj;
    glm_perspective(2.0f * atanf(1.0f / proj[1][1]), 480.0f / TEST_H, 0.1f, 250.0f, half_proj);
    CGame g;
    memset(&g, 0, sizeof g);
    assert_true(CGame_SetDevice(&g, &right_half, view, half_proj, true));
    listing_step steps[64];
    listing_trace t;
    listing_trace_reset(&t, steps, 64);
    g.trace = &t;
    HandleMessage(&g, WM_LBUTTONDOWN, 720.0f, 0.5f * TEST_H);
    assert_float_equal(listing_step_watch(&steps[0], "px")->v[0], 2.0f / half_proj[0][0], 1e-4f);
    rp_ray lib;
    assert_true(rp_pick_ray_perspective(720.0f, 0.5f * TEST_H, &right_half, half_proj, view, RP_GL, &lib));
    vec3 forward;
    glm_vec3_sub((vec3){0.0f, 1.0f, -2.0f}, eye, forward);   /* the start camera's target */
    glm_vec3_normalize(forward);
    assert_float_equal(glm_vec3_dot(lib.dir, forward), 1.0f, 1e-4f);
    rp_ray mine;
    Ray r = g.lastRay;
    ray_to_rp(&r, &mine);
    /* (px, 0, 1) with px = 2 / _11: atan(px) to the side (36 degrees) */
    float px = 2.0f / half_proj[0][0];
    assert_float_equal(glm_vec3_dot(mine.dir, forward), 1.0f / sqrtf(1.0f + px * px), 1e-4f);

    /* OpenGL's matrices as they are: +z is behind the eye */
    r = tutorial_ray(0.5f * TEST_W, 0.5f * TEST_H, false);
    ray_to_rp(&r, &mine);
    assert_float_equal(glm_vec3_dot(mine.dir, forward), -1.0f, 1e-3f);
    assert_true(rp_pick_ray_perspective(0.5f * TEST_W, 0.5f * TEST_H, &VIEWPORT, proj, view, RP_GL, &lib));
    assert_float_equal(glm_vec3_dot(lib.dir, forward), 1.0f, 1e-3f);

    /* an off-centre frustum (_31 != 0): the library's perspective ray
       refuses it, unproject handles it, the tutorial looks straight ahead */
    mat4 skew;
    glm_frustum(-0.05f, 0.15f, -0.05f, 0.05f, 0.1f, 250.0f, skew);
    memset(&g, 0, sizeof g);
    assert_true(CGame_SetDevice(&g, &VIEWPORT, view, skew, true));
    HandleMessage(&g, WM_LBUTTONDOWN, 0.5f * TEST_W, 0.5f * TEST_H);
    r = g.lastRay;
    ray_to_rp(&r, &mine);
    assert_false(rp_pick_ray_perspective(0.5f * TEST_W, 0.5f * TEST_H, &VIEWPORT, skew, view, RP_GL, &lib));
    assert_true(rp_pick_ray_unproject(0.5f * TEST_W, 0.5f * TEST_H, &VIEWPORT, skew, view, RP_GL, &lib));
    glm_vec3_normalize(lib.dir);
    assert_float_equal(glm_vec3_dot(mine.dir, forward), 1.0f, 1e-4f);
    assert_true(glm_vec3_dot(lib.dir, forward) < 0.99f);     /* 26.6 degrees to the side */

    /* a direction of length 2: the tutorial's roots are not the ray's */
    listing_trace_reset(&t, steps, 64);
    g.trace = &t;
    Ray twice = {{0.0f, 0.0f, 5.0f}, {0.0f, 0.0f, -2.0f}};
    BoundSphere unit = {{0.0f, 0.0f, 0.0f}, 1.0f};
    assert_true(CheckIntersection(&g, &twice, &unit));
    rp_ray twice_rp = {{0.0f, 0.0f, 5.0f}, {0.0f, 0.0f, -2.0f}};
    rp_sphere unit_rp = {{0.0f, 0.0f, 0.0f}, 1.0f};
    rp_hit hit;
    assert_true(rp_intersect_ray_sphere(&twice_rp, &unit_rp, &hit));
    assert_float_equal(hit.t, 2.0f, 1e-5f);                 /* z = 1 */
    assert_true(fabsf(listing_step_watch(&steps[2], "t1")->v[0] - 2.0f) > 0.5f);

    /* a sphere of radius 0.01 at 1e5, 0.02 beside the ray: b^2 and 4c
       lose every digit in float, n comes out 0, and the tutorial reports
       a sphere its ray passes by */
    listing_trace_reset(&t, steps, 64);
    Ray far = {{0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, -1.0f}};
    BoundSphere tiny = {{0.02f, 0.0f, -1e5f}, 0.01f};
    rp_ray far_rp = {{0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, -1.0f}};
    rp_sphere tiny_rp = {{0.02f, 0.0f, -1e5f}, 0.01f};
    assert_false(rp_test_ray_sphere(&far_rp, &tiny_rp));
    assert_true(CheckIntersection(&g, &far, &tiny));
}

/* ------------------------------------------------------------ steps -> lines */

static void every_step_names_its_line(void **state)
{
    (void)state;
    static const char keys[][4] = {"", "d", "v", "m", "dm"};
    static const float clicks[][2] = {{0.44f, 0.57f}, {0.5f, 0.02f}, {0.2f, 0.55f}, {0.462f, 0.378f}};
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; ++k)
        for (size_t c = 0; c < sizeof clicks / sizeof clicks[0]; ++c) {
            void *self = create_ok(L, 1);
            assert_non_null(self);
            assert_true(L->key(self, 'p'));
            for (const char *key = keys[k]; *key; ++key)
                assert_true(L->key(self, *key));
            lesson_click click;
            assert_true(make_click(L, self, clicks[c][0] * TEST_W, clicks[c][1] * TEST_H, &click));
            lesson_pick p;
            L->click(self, &click, &p);
            char why[1200];
            if (!steps_name_their_lines(L, self, why, sizeof why))
                fail_msg("keys %s, click %lu: %s", keys[k], (unsigned long)c, why);
            /* 4 steps for the ray, then 3 to 5 per sphere */
            lesson_code_view cv;
            assert_true(L->code(self, &cv));
            assert_true(cv.count >= 4 + 3 * 6 && cv.count <= 4 + 5 * 6);
            assert_string_equal(cv.steps[0].msg_id, STEP("px"));
            assert_string_equal(cv.steps[3].msg_id, STEP("transform"));
            L->destroy(self);
        }
}

/* ------------------------------------------------------------ framed steps */

/* Step mode's camera shows each sphere's test from the side: its centre
   and the ray's two roots in view and apart on screen (not end-on: the
   root points used to coincide). The ray's steps show the eye. */
static void each_step_is_framed_from_the_side(void **state)
{
    (void)state;
    void *self = create_ok(L, 1);
    assert_true(L->key(self, 'p'));
    lesson_object o[8];
    start_objects(L, self, o, 8);
    lesson_pick p;
    assert_true(click_world_point(L, self, object_by_id(o, 6, 2)->shape.sphere.center, &p));    /* the cone */
    lesson_code_view cv;
    int roots_seen = 0, sphere = -1;
    vec3 eye;
    glm_vec3_copy(p.ray.origin, eye);
    for (int i = 0; i < 40; ++i) {
        assert_true(L->code(self, &cv) && cv.step);
        lesson_camera cam;
        assert_true(L->frame(self, &cam));
        vec2 at;
        if (strcmp(cv.step->msg_id, STEP("sphere")) == 0)
            sphere = listing_step_watch(cv.step, "i")->i;
        if (strcmp(cv.step->msg_id, STEP("px")) == 0 || strcmp(cv.step->msg_id, STEP("transform")) == 0)
            assert_true(project_through(&cam, eye, at));
        if (strcmp(cv.step->msg_id, STEP("roots")) == 0 && sphere == 2) {
            float t0 = listing_step_watch(cv.step, "t0")->v[0], t1 = listing_step_watch(cv.step, "t1")->v[0];
            vec3 a, b;
            rp_ray unit = p.ray;
            glm_vec3_normalize(unit.dir);
            rp_ray_at(&unit, t0, a);
            rp_ray_at(&unit, t1, b);
            vec2 pa, pb, pc;
            assert_true(project_through(&cam, a, pa));
            assert_true(project_through(&cam, b, pb));
            assert_true(project_through(&cam, object_by_id(o, 6, 2)->shape.sphere.center, pc));
            assert_true(glm_vec2_distance(pa, pb) > 0.1f * TEST_H);
            ++roots_seen;
        }
        if (cv.index + 1 >= cv.count)
            break;
        assert_true(L->key(self, '.'));
    }
    assert_int_equal(roots_seen, 1);
    /* Z frees the camera */
    lesson_camera cam;
    assert_true(L->key(self, 'z'));
    assert_false(L->frame(self, &cam));
    L->destroy(self);
}

/* ------------------------------------------------------------ the tour */

static void tour_moments_are_valid(void **state)
{
    (void)state;
    char why[256];
    if (!tour_moments_valid(L, 0, why, sizeof why))
        fail_msg("%s", why);
}

static const lesson_field *field(const lesson_pick *p, const char *name)
{
    const lesson_field *f = lesson_pick_field(p, name);
    assert_non_null(f);
    return f;
}

/* the object the step shown tests: the last "sphere" step's i up to it */
static int tested_object(const lesson_code_view *cv)
{
    int i = -1;
    for (int k = 0; k <= cv->index; ++k)
        if (strcmp(cv->steps[k].msg_id, STEP("sphere")) == 0)
            i = listing_step_watch(&cv->steps[k], "i")->i;
    return i;
}

static void tour_moments_show_what_they_say(void **state)
{
    (void)state;
    lesson_pick p;
    lesson_code_view cv;

    /* 1: the cone, walked to its CheckIntersection's true */
    void *self = stage_tour_moment(L, 0, &p);
    assert_non_null(self);
    assert_true(p.hit);
    assert_int_equal(p.id, 2);
    assert_true(L->code(self, &cv) && cv.step);
    assert_string_equal(cv.step->msg_id, STEP("hit"));
    assert_int_equal(tested_object(&cv), 2);
    L->destroy(self);

    /* 2: the tutorial's loop and rule turn both spheres on the ray, the
       torus and the ring behind it */
    self = stage_tour_moment(L, 1, &p);
    assert_non_null(self);
    const lesson_field *toggled = field(&p, "toggled"), *rotate = field(&p, "m_bRotate");
    assert_int_equal(toggled->count, 2);
    assert_int_equal(toggled->value.ints[0], 1);
    assert_int_equal(toggled->value.ints[1], 5);
    assert_memory_equal(toggled->value.ints, rotate->value.ints, 2 * sizeof(int));
    assert_int_equal(p.id, 1);
    assert_true(L->code(self, &cv) && cv.step);
    assert_int_equal(cv.index, cv.count - 1);
    L->destroy(self);

    /* 3: OpenGL's matrices: the tutorial's ray runs away from the scene and
       meets nothing; the library's still picks the cone */
    self = stage_tour_moment(L, 2, &p);
    assert_non_null(self);
    assert_false(field(&p, "left_handed")->value.b);
    assert_int_equal(field(&p, "m_bRotate")->count, 0);
    vec3 tut_dir;
    glm_vec3_copy((float *)field(&p, "TransformRay_dir")->value.v, tut_dir);
    assert_true(glm_vec3_dot(tut_dir, p.ray.dir) < 0.0f);
    assert_true(p.hit && p.id == 2);
    assert_true(L->code(self, &cv) && cv.step);
    assert_string_equal(cv.step->msg_id, STEP("transform"));
    L->destroy(self);

    /* 4: the fix: only the nearest of the two turns */
    self = stage_tour_moment(L, 3, &p);
    assert_non_null(self);
    assert_int_equal(field(&p, "toggled")->count, 1);
    assert_int_equal(field(&p, "toggled")->value.ints[0], 1);
    assert_int_equal(field(&p, "m_bRotate")->count, 2);
    assert_true(L->code(self, &cv));
    assert_null(cv.step);       /* no step mode */
    L->destroy(self);
}

/* The insets stack their lines by lesson_fig_lines' estimate: a short
   line is one, a long one wraps, a line break counts, CJK characters count
   double. */
static void inset_text_lines_are_counted(void **state)
{
    (void)state;
    assert_int_equal(lesson_fig_lines(NULL, 100.0f, 1.0f), 0);
    assert_int_equal(lesson_fig_lines("", 100.0f, 1.0f), 1);
    assert_int_equal(lesson_fig_lines("0123456789", 100.0f, 1.0f), 1);      /* 60 pixels */
    assert_int_equal(lesson_fig_lines("01234567890123456789", 100.0f, 1.0f), 2);
    assert_int_equal(lesson_fig_lines("01234567890123456789", 100.0f, 0.5f), 1);
    assert_int_equal(lesson_fig_lines("ab\ncd", 100.0f, 1.0f), 2);
    assert_int_equal(lesson_fig_lines("\xe5\x8c\x85\xe5\x9b\xb4\xe7\x90\x83\xe5\x8c\x85\xe5\x9b\xb4\xe7\x90\x83"
                                      "\xe5\x8c\x85\xe5\x9b\xb4\xe7\x90\x83",
                                      100.0f, 1.0f), 2);                    /* 9 CJK: 108 pixels */
    assert_int_equal(lesson_fig_lines("\xc3\xa4\xc3\xb6\xc3\xbc", 100.0f, 1.0f), 1);  /* umlauts: one each */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_tutorials_ray_is_the_librarys_perspective_ray),
        cmocka_unit_test(check_intersection_agrees_with_the_library),
        cmocka_unit_test(the_tutorials_mistakes_are_kept),
        cmocka_unit_test(every_step_names_its_line),
        cmocka_unit_test(each_step_is_framed_from_the_side),
        cmocka_unit_test(tour_moments_are_valid),
        cmocka_unit_test(tour_moments_show_what_they_say),
        cmocka_unit_test(inset_text_lines_are_counted),
    };
    return cmocka_run_group_tests_name("lesson1_listing", tests, NULL, NULL);
}

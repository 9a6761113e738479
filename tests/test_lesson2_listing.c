/* test_lesson2_listing.c: lesson 2's listing (the German phaser/shield
 * tutorial ported under its own names, src/lessons/listings/
 * lesson2_phaser_tutorial.c) against the library where the two should
 * agree (rp_intersect_ray_sphere, rp_intersect_ray_ellipsoid), and where
 * they must not (the gun inside its shield, a shield behind the gun, a
 * turned ellipsoid); every step a click records names a line of the shown
 * listing that holds what the step watches; the step camera frames the
 * step; and the lesson's tour: each moment valid and each doing what its
 * sentence says. No GL, no SDL. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <cmocka.h>

#include "lesson_test_util.h"
#include "lesson2_phaser_tutorial.h"
#include "msg.h"

#define L (&lesson2_shields)
#define STEPS_CAP 64

static listing_step steps[STEPS_CAP];
static listing_trace trace;

static Phaser phaser_for(const PhaserShield *shields, int count)
{
    listing_trace_reset(&trace, steps, STEPS_CAP);
    return (Phaser){shields, count, &trace};
}

static D3DXVECTOR3 v3(const vec3 v)
{
    return (D3DXVECTOR3){v[0], v[1], v[2]};
}

/* a small deterministic generator: the same cases on every run */
static uint32_t rng = 12345u;
static float uniform(float lo, float hi)
{
    rng = rng * 1664525u + 1013904223u;
    return lo + (hi - lo) * (float)(rng >> 8) / (float)(1u << 24);
}

/* ------------------------------------------------------------ the library */

/* From outside, toward a sphere ahead: the tutorial's l is the library's t
   (its entry point), hit for hit; where the line misses, both miss. */
static void sphere_ray_intersections_agrees_with_the_library(void **state)
{
    (void)state;
    int hits = 0, misses = 0;
    for (int k = 0; k < 2000; ++k) {
        rp_sphere s = {{uniform(-5, 5), uniform(-5, 5), uniform(-20, -5)}, uniform(0.5f, 3.0f)};
        rp_ray ray = {{uniform(-2, 2), uniform(-2, 2), uniform(0, 4)}, {0, 0, 0}};
        vec3 aim = {s.center[0] + uniform(-1.4f, 1.4f) * s.radius, s.center[1] + uniform(-1.4f, 1.4f) * s.radius,
                    s.center[2]};
        glm_vec3_sub(aim, ray.origin, ray.dir);
        glm_vec3_normalize(ray.dir);
        rp_hit h;
        bool lib = rp_intersect_ray_sphere(&ray, &s, &h);
        Phaser ph = phaser_for(NULL, 0);
        float l = NAN, r2 = s.radius * s.radius;
        D3DXVECTOR3 dir = v3(ray.dir), start = v3(ray.origin), centre = v3(s.center);
        bool mine = Sphere_Ray_Intersections(&ph, &l, &dir, &start, &centre, &r2);
        /* a grazing line may round either way in float */
        vec3 oc;
        glm_vec3_sub(s.center, ray.origin, oc);
        float along = glm_vec3_dot(oc, ray.dir), miss_by = sqrtf(fmaxf(glm_vec3_norm2(oc) - along * along, 0.0f));
        if (fabsf(miss_by - s.radius) < 1e-3f * s.radius)
            continue;
        assert_int_equal(mine, lib);
        if (lib) {
            assert_float_equal(l, h.t, 1e-3f * fmaxf(1.0f, h.t));
            ++hits;
        } else {
            ++misses;
        }
    }
    assert_true(hits > 300 && misses > 300);
}

/* The ellipsoid version on axis-aligned ellipsoids (the tutorial's case):
   the library's entry point. */
static void ellipsoid_version_agrees_on_axis_aligned_ellipsoids(void **state)
{
    (void)state;
    int hits = 0;
    for (int k = 0; k < 2000; ++k) {
        rp_ellipsoid e = {{uniform(-5, 5), uniform(-3, 3), uniform(-20, -6)},
                          {uniform(0.5f, 4.0f), uniform(0.5f, 4.0f), uniform(0.5f, 4.0f)},
                          {0, 0, 0, 0}};
        rp_ray ray = {{uniform(-2, 2), uniform(-2, 2), uniform(0, 4)}, {0, 0, 0}};
        vec3 aim = {e.center[0] + uniform(-1.2f, 1.2f) * e.radii[0], e.center[1] + uniform(-1.2f, 1.2f) * e.radii[1],
                    e.center[2]};
        glm_vec3_sub(aim, ray.origin, ray.dir);
        glm_vec3_normalize(ray.dir);
        rp_hit h;
        bool lib = rp_intersect_ray_ellipsoid(&ray, &e, &h);
        Phaser ph = phaser_for(NULL, 0);
        float l = NAN;
        D3DXVECTOR3 dir = v3(ray.dir), start = v3(ray.origin), centre = v3(e.center);
        D3DXVECTOR3 sq = {e.radii[0] * e.radii[0], e.radii[1] * e.radii[1], e.radii[2] * e.radii[2]};
        bool mine = Ellipsoid_Ray_Intersections(&ph, &l, &dir, &start, &centre, &sq);
        if (lib != mine) {
            /* only a grazing line may round the other way: its chord is tiny */
            assert_true(lib ? h.t_exit - h.t_enter < 0.05f : true);
            continue;
        }
        if (lib) {
            assert_float_equal(l, h.t, 1e-3f * fmaxf(1.0f, h.t));
            ++hits;
        }
    }
    assert_true(hits > 300);
}

/* Where they must not agree: the tutorial returns s2 whatever its sign,
   and its ellipsoid has no orientation. */
static void the_tutorials_mistakes_are_kept(void **state)
{
    (void)state;
    Phaser ph = phaser_for(NULL, 0);
    float l = NAN, r2 = 4.0f;
    D3DXVECTOR3 gun = {0, 0, 0}, plus_x = {1, 0, 0};
    /* the gun at the centre of a radius-2 shield: roots -2 and +2 */
    D3DXVECTOR3 centre = {0, 0, 0};
    assert_true(Sphere_Ray_Intersections(&ph, &l, &plus_x, &gun, &centre, &r2));
    assert_float_equal(l, -2.0f, 1e-6f);
    assert_string_equal(steps[trace.count - 1].msg_id, "lesson.phaser-shields.step.min-inside");
    rp_hit h;
    rp_sphere s = {{0, 0, 0}, 2.0f};
    rp_ray ray = {{0, 0, 0}, {1, 0, 0}};
    assert_true(rp_intersect_ray_sphere(&ray, &s, &h));
    assert_true(h.inside);
    assert_float_equal(h.t, 2.0f, 1e-6f);
    /* the shield behind the gun, centred at (-5, 0, 0): roots -7 and -3,
       a "hit" at -7; the library: a miss */
    ph = phaser_for(NULL, 0);
    centre = (D3DXVECTOR3){-5, 0, 0};
    assert_true(Sphere_Ray_Intersections(&ph, &l, &plus_x, &gun, &centre, &r2));
    assert_float_equal(l, -7.0f, 1e-5f);
    assert_string_equal(steps[trace.count - 1].msg_id, "lesson.phaser-shields.step.min-behind");
    s.center[0] = -5.0f;
    assert_false(rp_intersect_ray_sphere(&ray, &s, &h));
    /* s1 < s2 never holds: the watched choice is s2, the smaller root */
    const listing_step *roots = &steps[trace.count - 2];
    assert_string_equal(roots->msg_id, "lesson.phaser-shields.step.roots");
    assert_true(listing_step_watch(roots, "s1")->v[0] >= listing_step_watch(roots, "s2")->v[0]);
    /* a turned ellipsoid: radii (4, 1, 1) turned 90 degrees about y (long
       along z now). A beam down -z from (0.5, 0, 10) meets it at z = 3.464
       (l = 6.536); the tutorial, without the turn, at z = 0.968
       (l = 9.032), on the shape long along x */
    rp_ellipsoid turned = {{0, 0, 0}, {4, 1, 1}, {0, 0.70710678f, 0, 0.70710678f}};
    rp_ray down = {{0.5f, 0, 10}, {0, 0, -1}};
    assert_true(rp_intersect_ray_ellipsoid(&down, &turned, &h));
    assert_float_equal(h.t, 10.0f - 4.0f * sqrtf(0.75f), 1e-4f);
    ph = phaser_for(NULL, 0);
    D3DXVECTOR3 start = {0.5f, 0, 10}, dir = {0, 0, -1}, origin = {0, 0, 0}, sq = {16, 1, 1};
    assert_true(Ellipsoid_Ray_Intersections(&ph, &l, &dir, &start, &origin, &sq));
    assert_float_equal(l, 10.0f - sqrtf(1.0f - 0.25f / 16.0f), 1e-4f);
    assert_true(fabsf(l - h.t) > 2.0f);
}

/* FirePhaser keeps the smallest l, even a negative one: a shield behind
   the gun wins over the one in front. */
static void fire_phaser_keeps_the_smallest_l(void **state)
{
    (void)state;
    PhaserShield shields[3] = {
        {{0, 0, -10}, {4, 4, 4}, true},     /* ahead, radius 2: l = 8 */
        {{0, 0, -20}, {9, 4, 1}, false},    /* farther ahead, an ellipsoid: l = 19 */
        {{0, 0, 5}, {1, 1, 1}, true},       /* behind, radius 1: roots -6 and -4 */
    };
    D3DXVECTOR3 gun = {0, 0, 0}, down_z = {0, 0, -1};
    Phaser ph = phaser_for(shields, 2);
    float l = NAN;
    assert_int_equal(FirePhaser(&ph, gun, down_z, &l), 0);
    assert_float_equal(l, 8.0f, 1e-5f);
    assert_string_equal(steps[trace.count - 1].msg_id, "lesson.phaser-shields.step.result");
    /* the second is hit, farther: not kept */
    bool farther = false;
    for (int i = 0; i < trace.count; ++i)
        farther |= strcmp(steps[i].msg_id, "lesson.phaser-shields.step.returned-farther") == 0;
    assert_true(farther);
    ph = phaser_for(shields, 3);
    assert_int_equal(FirePhaser(&ph, gun, down_z, &l), 2);
    assert_float_equal(l, -6.0f, 1e-5f);
    assert_string_equal(steps[trace.count - 1].msg_id, "lesson.phaser-shields.step.result-behind");
    /* nothing in the line: -1, and the result says so */
    D3DXVECTOR3 up = {0, 1, 0};
    ph = phaser_for(shields, 3);
    assert_int_equal(FirePhaser(&ph, gun, up, &l), -1);
    assert_string_equal(steps[trace.count - 1].msg_id, "lesson.phaser-shields.step.result-none");
    /* the watches show what the code holds: l stays 0.0f after a miss, and
       *pBeamLength is the caller's, untouched (not a nan the code never wrote) */
    assert_float_equal(l, -6.0f, 1e-5f);
    assert_float_equal(listing_step_watch(&steps[trace.count - 1], "*pBeamLength")->v[0], -6.0f, 1e-5f);
    int misses = 0;
    for (int i = 0; i < trace.count; ++i)
        if (strcmp(steps[i].msg_id, "lesson.phaser-shields.step.returned-miss") == 0) {
            assert_float_equal(listing_step_watch(&steps[i], "l")->v[0], 0.0f, 0.0f);
            ++misses;
        }
    assert_int_equal(misses, 3);
}

/* ------------------------------------------------------------ steps -> lines */

static void every_step_names_its_line(void **state)
{
    (void)state;
    char why[1200];
    for (int turret = 0; turret < 2; ++turret)
        for (float fy = 0.1f; fy < 1.0f; fy += 0.2f)
            for (float fx = 0.1f; fx < 1.0f; fx += 0.2f) {
                void *self = create_ok(L, 1);
                assert_non_null(self);
                assert_true(L->key(self, 'p'));
                if (turret)
                    assert_true(L->key(self, 't'));
                lesson_click click;
                assert_true(make_click(L, self, fx * TEST_W, fy * TEST_H, &click));
                lesson_pick p;
                L->click(self, &click, &p);
                if (!steps_name_their_lines(L, self, why, sizeof why))
                    fail_msg("%s", why);
                L->destroy(self);
            }
}

static listing_step fake_steps[1];

static bool fake_code(const void *self, lesson_code_view *out)
{
    (void)self;
    memset(out, 0, sizeof *out);
    out->code = &listing_lesson2_phaser_tutorial;
    out->steps = fake_steps;
    out->count = 1;
    return true;
}

/* The check fails for a step on the wrong line: det's step moved onto
   the line that forms a. */
static void a_step_on_the_wrong_line_is_caught(void **state)
{
    (void)state;
    const lesson fake = {.number = 99, .code = fake_code};
    const listing *l = &listing_lesson2_phaser_tutorial;
    int a_line = 0, det_line = 0;
    for (int src = 1; src <= l->source_line_count; ++src) {
        const char *text = listing_line_text(l, listing_display_line(l, src));
        if (!a_line && text && strstr(text, "float a = "))
            a_line = src;
        if (!det_line && text && strstr(text, "float det = "))
            det_line = src;
    }
    assert_true(a_line > 0 && det_line > 0);
    char why[1200];
    fake_steps[0] = (listing_step){det_line, "lesson.phaser-shields.step.det", 1, {WATCH_F("det", 1.0f)}};
    assert_true(steps_name_their_lines(&fake, NULL, why, sizeof why));
    fake_steps[0].source_line = a_line;
    assert_false(steps_name_their_lines(&fake, NULL, why, sizeof why));
}

/* ------------------------------------------------------------ framed steps */

/* The camera a step frames (the lesson's, before the app's panel shift),
   as the eye and the view-projection of a TEST_W x TEST_H view. */
static bool framed_view(void *self, vec3 eye, mat4 vp)
{
    lesson_camera cam;
    if (!L->frame(self, &cam))
        return false;
    app_camera ac;
    mat4 view, proj;
    app_camera_reset(&ac, &cam);
    app_camera_matrices(&ac, TEST_W / TEST_H, view, proj);
    app_camera_eye(&ac, eye);
    glm_mat4_mul(proj, view, vp);
    return true;
}

static bool on_screen(mat4 vp, const vec3 p)
{
    vec4 clip;
    glm_mat4_mulv(vp, (vec4){p[0], p[1], p[2], 1.0f}, clip);
    if (clip[3] <= 0.0f)
        return false;
    float x = clip[0] / clip[3], y = clip[1] / clip[3];
    return fabsf(x) < 0.95f && fabsf(y) < 0.95f;
}

/* the hull inside shield i, as the lesson draws it */
static rp_ellipsoid hull_of(const lesson_object *shield)
{
    rp_ellipsoid h = shield->shape.ellipsoid;
    glm_vec3_scale(h.radii, 0.45f, h.radii);
    if (h.radii[0] == h.radii[1] && h.radii[1] == h.radii[2])
        h.radii[1] *= 0.45f;
    return h;
}

/* Every step of a click: the gun and, once known, the roots in view; the
   point the tutorial chose is seen on the shield, not in front of its
   hull (the line from the eye to it meets no hull). */
static void every_step_is_framed(void **state)
{
    (void)state;
    static const struct { const char *keys; int object; } shots[] = {{"p", 0}, {"p", 1}, {"pt", 2}, {"p", 3}};
    for (size_t k = 0; k < sizeof shots / sizeof shots[0]; ++k) {
        void *self = create_ok(L, 1);
        for (const char *c = shots[k].keys; *c; ++c)
            assert_true(L->key(self, *c));
        lesson_object o[16];
        int n = start_objects(L, self, o, 16);
        lesson_pick p;
        assert_true(click_world_point(L, self, object_by_id(o, n, shots[k].object)->shape.ellipsoid.center, &p));
        lesson_code_view cv;
        int framed = 0;
        do {
            assert_true(L->code(self, &cv) && cv.step);
            vec3 eye;
            mat4 vp;
            assert_true(framed_view(self, eye, vp));
            ++framed;
            assert_true(on_screen(vp, p.ray.origin));
            const listing_watch *s1 = listing_step_watch(cv.step, "s1"), *s2 = listing_step_watch(cv.step, "s2");
            if (s1 && s2) {
                vec3 p1, p2;
                rp_ray_at(&p.ray, s1->v[0], p1);
                rp_ray_at(&p.ray, s2->v[0], p2);
                assert_true(on_screen(vp, p1));
                assert_true(on_screen(vp, p2));
            }
            const listing_watch *chosen = listing_step_watch(cv.step, "*pIntersectionParam");
            if (chosen) {
                vec3 q, d;
                rp_ray_at(&p.ray, chosen->v[0], q);
                rp_ray sight = {{eye[0], eye[1], eye[2]}, {0, 0, 0}};
                glm_vec3_sub(q, eye, d);
                glm_vec3_copy(d, sight.dir);
                for (int i = 0; i < 4; ++i) {
                    rp_ellipsoid hull = hull_of(&o[i]);
                    assert_false(rp_intersect_ray_ellipsoid(&sight, &hull, NULL));
                }
            }
        } while (L->key(self, '.') && L->code(self, &cv) && cv.index + 1 < cv.count && framed < 64);
        assert_true(framed > 10);
        /* Z frees the camera */
        assert_true(L->key(self, 'z'));
        lesson_camera cam;
        assert_false(L->frame(self, &cam));
        L->destroy(self);
    }
}

/* ------------------------------------------------------------ the tour */

static void tour_moments_are_valid(void **state)
{
    (void)state;
    char why[256];
    if (!tour_moments_valid(L, 1, why, sizeof why))
        fail_msg("%s", why);
}

static const char *last_step_id(void *self)
{
    lesson_code_view cv;
    assert_true(L->code(self, &cv) && cv.step);
    assert_int_equal(cv.index, cv.count - 1);
    return cv.step->msg_id;
}

static float field_f(const lesson_pick *p, const char *name)
{
    const lesson_field *f = lesson_pick_field(p, name);
    assert_non_null(f);
    return f->value.f;
}

static int field_i(const lesson_pick *p, const char *name)
{
    const lesson_field *f = lesson_pick_field(p, name);
    assert_non_null(f);
    return f->value.i;
}

/* Each moment shows what its sentence says. */
static void tour_moments_show_what_they_say(void **state)
{
    (void)state;
    lesson_pick p;

    /* 1: the ground turret at the cruiser: s2 >= 0, the entry point, the
       library's answer too */
    void *self = stage_tour_moment(L, 0, &p);
    assert_non_null(self);
    assert_int_equal(field_i(&p, "turret"), 0);
    assert_int_equal(field_i(&p, "tutorial_shield"), 0);
    assert_int_equal(field_i(&p, "exact_shield"), 0);
    assert_true(field_f(&p, "tutorial_l") > 0.0f);
    assert_float_equal(field_f(&p, "tutorial_l"), field_f(&p, "t_enter"), 1e-3f);
    assert_string_equal(last_step_id(self), "lesson.phaser-shields.step.result");
    L->destroy(self);

    /* 2: the ground behind the turret: the line runs back through the
       cruiser, both roots negative, the tutorial's hit; the library: none */
    self = stage_tour_moment(L, 1, &p);
    assert_non_null(self);
    assert_int_equal(field_i(&p, "tutorial_shield"), 0);
    assert_true(field_f(&p, "tutorial_l") < 0.0f);
    assert_null(lesson_pick_field(&p, "exact_shield"));
    assert_true(p.hit && p.t < 0.0f);
    assert_string_equal(last_step_id(self), "lesson.phaser-shields.step.result-behind");
    bool behind = false;
    lesson_code_view cv;
    assert_true(L->code(self, &cv));
    for (int i = 0; i < cv.count; ++i)
        behind |= strcmp(cv.steps[i].msg_id, "lesson.phaser-shields.step.min-behind") == 0;
    assert_true(behind);
    L->destroy(self);

    /* 3: the turret inside the station's shield: s2 < 0 <= s1 */
    self = stage_tour_moment(L, 2, &p);
    assert_non_null(self);
    assert_int_equal(field_i(&p, "turret"), 1);
    assert_int_equal(field_i(&p, "tutorial_shield"), 2);
    assert_true(field_f(&p, "tutorial_l") < 0.0f);
    assert_true(lesson_pick_field(&p, "inside")->value.b);
    assert_true(field_f(&p, "t_exit") > 0.0f);
    assert_string_equal(last_step_id(self), "lesson.phaser-shields.step.result-behind");
    L->destroy(self);

    /* 4: the turned carrier: the tutorial's l is on the unturned shape,
       more than half a unit from where the beam meets the shield */
    self = stage_tour_moment(L, 3, &p);
    assert_non_null(self);
    assert_int_equal(field_i(&p, "tutorial_shield"), 1);
    assert_int_equal(field_i(&p, "exact_shield"), 1);
    assert_true(fabsf(field_f(&p, "tutorial_l") - field_f(&p, "t_enter")) > 0.5f);
    L->destroy(self);

    /* 5: the fix: the smallest root >= 0 from inside the station's shield */
    self = stage_tour_moment(L, 4, &p);
    assert_non_null(self);
    assert_string_equal(p.method, "smallest-root");
    assert_true(p.hit);
    assert_int_equal(p.id, 2);
    assert_float_equal(p.t, field_f(&p, "t_exit"), 1e-6f);
    assert_true(p.t > 0.0f);
    L->destroy(self);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sphere_ray_intersections_agrees_with_the_library),
        cmocka_unit_test(ellipsoid_version_agrees_on_axis_aligned_ellipsoids),
        cmocka_unit_test(the_tutorials_mistakes_are_kept),
        cmocka_unit_test(fire_phaser_keeps_the_smallest_l),
        cmocka_unit_test(every_step_names_its_line),
        cmocka_unit_test(a_step_on_the_wrong_line_is_caught),
        cmocka_unit_test(every_step_is_framed),
        cmocka_unit_test(tour_moments_are_valid),
        cmocka_unit_test(tour_moments_show_what_they_say),
    };
    return cmocka_run_group_tests_name("lesson2_listing", tests, NULL, NULL);
}

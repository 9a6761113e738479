/* test_lesson2.c: lesson 2 (phaser vs. shields) without a window: the beam
 * leaves the firing turret and ends where the mode says: the tutorial's
 * min(s1, s2) (the default), or with M the library's smallest root >= 0
 * (the exit point for the turret inside its shield); the shield gets an
 * impact there, and a miss flies the full range. The tutorial's quadratic
 * (a, b, c, det, its min(s1, s2)) is reported, both answers are on the HUD,
 * step mode walks the listing's steps with the scene frozen and no flash
 * over the roots, and beam pieces seen through a shield are drawn as dim
 * dashes. (The listing against the library, its steps' lines and the
 * tour: test_lesson2_listing.c.) */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "lesson_test_util.h"

#define L (&lesson2_shields)
#define RANGE 60.0f
#define SHIELDS 4
#define FULL_WIDTH 0.28f        /* a beam the camera sees directly */

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

/* Where the list's beam pieces end farthest from `from`: the beam's end.
   Every piece must lie on one line through `from`. */
static void beam_far_end(const render_list *list, const vec3 from, vec3 end)
{
    float best = -1.0f;
    vec3 dir = {0, 0, 0};
    for (int i = 0; i < list->count; ++i) {
        const render_cmd *c = &list->cmds[i];
        if (c->kind != RENDER_CMD_BEAM)
            continue;
        float d = vec3_dist(c->u.beam.b, from);
        if (d > best) {
            best = d;
            glm_vec3_copy((float *)c->u.beam.b, end);
            glm_vec3_sub((float *)c->u.beam.b, (float *)from, dir);
        }
    }
    assert_true(best > 0.0f);
    glm_vec3_normalize(dir);
    for (int i = 0; i < list->count; ++i) {
        const render_cmd *c = &list->cmds[i];
        if (c->kind != RENDER_CMD_BEAM)
            continue;
        vec3 v, cross;
        glm_vec3_sub((float *)c->u.beam.a, (float *)from, v);
        glm_vec3_cross(v, dir, cross);
        assert_true(glm_vec3_norm(cross) < 1e-3f);
    }
}

/* does the camera at eye see p through one of the shields? (independent
   of the lesson: the library's ray against each listed shield) */
static bool behind_a_shield(const lesson_object *o, int n, const vec3 eye, const vec3 p)
{
    rp_ray sight;
    glm_vec3_copy((float *)eye, sight.origin);
    glm_vec3_sub((float *)p, (float *)eye, sight.dir);
    float len = glm_vec3_norm(sight.dir);
    glm_vec3_scale(sight.dir, 1.0f / len, sight.dir);
    for (int i = 0; i < n; ++i) {
        rp_hit h;
        if (o[i].kind == LESSON_OBJECT_ELLIPSOID && rp_intersect_ray_ellipsoid(&sight, &o[i].shape.ellipsoid, &h) &&
            h.t < len * 0.999f)
            return true;
    }
    return false;
}

/* The tutorial's sphere quadratic for a ray and a sphere of radius r, in
   double: a = d.d, b = 2 (o - c).d, c = (o - c).(o - c) - r^2 (its
   Sphere_Ray_Intersections, not divided by r^2). */
static void sphere_quadratic(const rp_ray *ray, const rp_ellipsoid *e, double q[3])
{
    double r2 = (double)e->radii[0] * e->radii[0], oc[3], od = 0.0, oo = 0.0, dd = 0.0;
    for (int i = 0; i < 3; ++i) {
        oc[i] = (double)ray->origin[i] - e->center[i];
        od += oc[i] * ray->dir[i];
        oo += oc[i] * oc[i];
        dd += (double)ray->dir[i] * ray->dir[i];
    }
    q[0] = dd;
    q[1] = 2.0 * od;
    q[2] = oo - r2;
}

/* Is there a point command at p of this colour kind (red: the tutorial's
   wrong l, green: the right one)? */
static bool point_at(const render_list *list, const vec3 p, bool red)
{
    for (int i = 0; i < list->count; ++i) {
        const render_cmd *c = &list->cmds[i];
        if (c->kind != RENDER_CMD_POINT || vec3_dist(c->u.point.p, p) > 1e-3f)
            continue;
        bool is_red = c->u.point.color[0] > 0.9f && c->u.point.color[1] < 0.4f;
        bool is_green = c->u.point.color[1] > 0.9f && c->u.point.color[0] < 0.5f;
        if (red ? is_red : is_green)
            return true;
    }
    return false;
}

static int red_points(const render_list *list)
{
    int n = 0;
    for (int i = 0; i < list->count; ++i) {
        const render_cmd *c = &list->cmds[i];
        n += c->kind == RENDER_CMD_POINT && c->u.point.color[0] > 0.9f && c->u.point.color[1] < 0.4f;
    }
    return n;
}

/* '.' until the stepper's step has this id (or the last step); false when none has it */
static bool step_to(void *self, const char *id)
{
    lesson_code_view cv;
    for (int guard = 0; guard < 256; ++guard) {
        if (!L->code(self, &cv) || !cv.step)
            return false;
        if (strcmp(cv.step->msg_id, id) == 0)
            return true;
        if (cv.index + 1 >= cv.count)
            return false;
        L->key(self, '.');
    }
    return false;
}

static void objects_are_four_shields_and_two_turrets(void **state)
{
    lesson_object o[16];
    int n = start_objects(L, *state, o, 16);
    assert_int_equal(n, SHIELDS + 2);
    for (int i = 0; i < SHIELDS; ++i) {
        assert_int_equal(o[i].id, i);
        assert_int_equal(o[i].kind, LESSON_OBJECT_ELLIPSOID);
    }
    /* the frigate is the carrier's ellipsoid, axis-aligned (the seed's case) */
    const rp_ellipsoid *carrier = &o[1].shape.ellipsoid, *frigate = &o[3].shape.ellipsoid;
    assert_memory_equal(carrier->radii, frigate->radii, sizeof(vec3));
    assert_true(carrier->orientation[3] != 0.0f);
    for (int i = 0; i < 4; ++i)
        assert_true(frigate->orientation[i] == 0.0f);
    const lesson_object *ground = object_by_id(o, n, 100), *inner = object_by_id(o, n, 101);
    assert_non_null(ground);
    assert_non_null(inner);
    assert_int_equal(ground->kind, LESSON_OBJECT_TURRET);
    /* the second turret sits inside the station's shield, away from its
       centre (its shots cross the picture) */
    assert_true(ellipsoid_level(&o[2].shape.ellipsoid, inner->shape.turret.center) < 1.0f);
    assert_true(ellipsoid_level(&o[2].shape.ellipsoid, inner->shape.turret.center) > 0.5f);
}

static void beam_ends_at_the_cruisers_entry_point(void **state)
{
    void *self = *state;
    lesson_object o[16];
    start_objects(L, self, o, 16);
    const rp_ellipsoid *cruiser = &o[0].shape.ellipsoid;
    const float *turret = object_by_id(o, SHIELDS + 2, 100)->shape.turret.center;
    L->update(self, 0.25f);
    lesson_pick p;
    assert_true(click_world_point(L, self, cruiser->center, &p));
    assert_true(p.hit);
    assert_int_equal(p.id, 0);
    assert_int_equal(lesson_pick_field(&p, "turret")->value.i, 0);
    assert_true(vec3_dist(p.ray.origin, turret) < 1e-6f);
    assert_false(lesson_pick_field(&p, "inside")->value.b);
    /* the tutorial's root, in float, is the library's entry point */
    assert_float_equal(p.t, lesson_pick_field(&p, "t_enter")->value.f, 1e-4f * p.t);
    assert_true(p.t > 0.0f);
    assert_float_equal(ellipsoid_level(cruiser, p.point), 1.0f, 1e-4f);

    /* the tutorial's quadratic, reported: its roots are the library's, and
       from outside its min(s1, s2) is the right answer, the one the beam
       ends at in the default (tutorial) mode */
    const lesson_field *q = lesson_pick_field(&p, "quadratic");
    assert_non_null(q);
    double want[3];
    sphere_quadratic(&p.ray, cruiser, want);
    for (int i = 0; i < 3; ++i)
        assert_float_equal(q->value.v[i], want[i], 1e-4 * (1.0 + fabs(want[i])));
    float disc = lesson_pick_field(&p, "discriminant")->value.f;
    assert_float_equal(disc, q->value.v[1] * q->value.v[1] - 4.0f * q->value.v[0] * q->value.v[2], 1e-5f);
    assert_true(disc > 0.0f);
    assert_float_equal(lesson_pick_field(&p, "tutorial_t")->value.f, p.t, 1e-3f);
    assert_string_equal(p.method, "min-s1-s2");
    assert_int_equal(lesson_pick_field(&p, "tutorial_shield")->value.i, 0);
    assert_int_equal(lesson_pick_field(&p, "exact_shield")->value.i, 0);

    render_list list = {0};
    draw_once(L, self, &list);
    assert_non_null(beam_from(&list, turret));
    vec3 end;
    beam_far_end(&list, turret, end);
    assert_true(vec3_dist(end, p.point) < 1e-4f);
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
    assert_int_equal(count_cmds(&list, RENDER_CMD_SHIELD), SHIELDS);
    render_list_free(&list);
}

/* The turret inside the station's shield: the tutorial's min(s1, s2) is
   s2 < 0, a point behind the gun, and its beam is drawn backwards; M gives
   the library's answer, s1, the exit point. The HUD says both. */
static void turret_inside_its_shield_hits_the_exit_point(void **state)
{
    void *self = *state;
    lesson_object o[16];
    start_objects(L, self, o, 16);
    const rp_ellipsoid *station = &o[2].shape.ellipsoid;
    const float *gun = object_by_id(o, SHIELDS + 2, 101)->shape.turret.center;
    assert_true(L->key(self, 't'));
    lesson_pick p;
    assert_true(click_world_point(L, self, station->center, &p));
    /* the tutorial's answer (the default mode): behind the gun */
    assert_true(p.hit);
    assert_int_equal(p.id, 2);
    assert_true(p.t < 0.0f);
    assert_float_equal(p.t, lesson_pick_field(&p, "t_enter")->value.f, 1e-3f);
    assert_float_equal(ellipsoid_level(station, p.point), 1.0f, 1e-3f);
    render_list list = {0};
    draw_once(L, self, &list);
    const render_cmd *b = beam_from(&list, gun);
    assert_non_null(b);
    vec3 back;
    glm_vec3_sub((float *)b->u.beam.b, (float *)gun, back);
    assert_true(glm_vec3_dot(back, p.ray.dir) < 0.0f);      /* drawn backwards from the gun */
    char hud[1024];
    L->status(self, hud, sizeof hud);
    char expect[96];
    snprintf(expect, sizeof expect, "tutorial: station at l = %.3f, BEHIND the gun", (double)p.t);
    assert_non_null(strstr(hud, expect));
    assert_non_null(strstr(hud, "the exit point"));

    /* M: the library's, the same shot */
    float seed_t = p.t;
    assert_true(L->key(self, 'm'));
    assert_true(L->pick(self, &p));
    assert_true(p.hit);
    assert_int_equal(p.id, 2);
    assert_string_equal(p.method, "smallest-root");
    assert_int_equal(lesson_pick_field(&p, "turret")->value.i, 1);
    assert_true(vec3_dist(p.ray.origin, gun) < 1e-6f);
    assert_true(lesson_pick_field(&p, "inside")->value.b);
    assert_true(lesson_pick_field(&p, "t_enter")->value.f < 0.0f);
    assert_float_equal(p.t, lesson_pick_field(&p, "t_exit")->value.f, 1e-6f);
    assert_true(p.t > 0.0f);
    assert_float_equal(ellipsoid_level(station, p.point), 1.0f, 1e-4f);
    /* the aim point was on the station's near side: the beam ends there */
    assert_true(vec3_dist(p.point, lesson_pick_field(&p, "aim")->value.v) < 1e-3f);
    assert_float_equal(lesson_pick_field(&p, "tutorial_t")->value.f, seed_t, 1e-6f);
    L->status(self, hud, sizeof hud);
    snprintf(expect, sizeof expect, "raypick: station at l = %.3f, the exit point", (double)p.t);
    assert_non_null(strstr(hud, expect));
    /* fired again in this mode: the whole beam is inside the shield, the
       camera sees it through the shield, dashed, every piece thinner than
       a beam seen directly */
    L->update(self, 2.0f);
    assert_true(click_world_point(L, self, station->center, &p));
    draw_once(L, self, &list);
    int pieces = 0;
    for (int i = 0; i < list.count; ++i)
        if (list.cmds[i].kind == RENDER_CMD_BEAM) {
            ++pieces;
            assert_true(list.cmds[i].u.beam.width < 0.5f * FULL_WIDTH);
        }
    assert_true(pieces > 2);
    render_list_free(&list);
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
    const lesson_object *ground = object_by_id(o, SHIELDS + 2, 100);
    assert_non_null(ground);
    vec3 turret, end;
    glm_vec3_copy((float *)ground->shape.turret.center, turret);
    assert_non_null(beam_from(&list, turret));
    beam_far_end(&list, turret, end);
    assert_float_equal(vec3_dist(turret, end), RANGE, 1e-3f);
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

/* P, a click, then '.': the steps are the listing's (the code view shows
   the stepper's), the scene stands still, no flash is drawn over the roots,
   and at the tutorial's choice its l is marked: green where it is the
   library's answer, red where not (with the right root green). */
static void step_mode_walks_the_listing(void **state)
{
    void *self = *state;
    lesson_object o[16];
    start_objects(L, self, o, 16);
    char hud[1024];
    assert_true(L->key(self, 'p'));
    L->status(self, hud, sizeof hud);
    assert_non_null(strstr(hud, "step mode (P): click to fire"));
    assert_true(L->key(self, 't'));
    lesson_pick p;
    assert_true(click_world_point(L, self, o[1].shape.ellipsoid.center, &p));
    lesson_code_view cv;
    assert_true(L->code(self, &cv));
    assert_non_null(cv.step);
    assert_int_equal(cv.index, 0);
    assert_true(cv.count >= 4 * 3 + 4);     /* every shield: its step, a, b, c, det, the answer */
    assert_string_equal(cv.step->msg_id, "lesson.phaser-shields.step.shield");
    assert_int_equal(listing_step_watch(cv.step, "i")->i, 0);
    L->status(self, hud, sizeof hud);
    assert_non_null(strstr(hud, "step mode (P)  . next  , previous"));

    /* the station's roots: s2 < 0 <= s1; no flash covers them */
    assert_true(step_to(self, "lesson.phaser-shields.step.min-inside"));
    assert_true(L->code(self, &cv));
    float s1 = listing_step_watch(cv.step, "s1")->v[0], s2 = listing_step_watch(cv.step, "s2")->v[0];
    assert_true(s2 < 0.0f && s1 > 0.0f);
    L->update(self, 1.0f);      /* frozen: the beam stays */
    render_list list = {0};
    draw_once(L, self, &list);
    for (int i = 0; i < list.count; ++i)
        if (list.cmds[i].kind == RENDER_CMD_SHIELD)
            assert_int_equal(list.cmds[i].u.shield.impact_count, 0);
    vec3 p1, p2;
    rp_ray_at(&p.ray, s1, p1);
    rp_ray_at(&p.ray, s2, p2);
    assert_true(point_at(&list, p2, true));     /* the tutorial's s2: wrong */
    assert_true(point_at(&list, p1, false));    /* s1, the exit point: right */
    /* '.' and ',' move one step */
    int at = cv.index;
    assert_true(L->key(self, '.'));
    assert_true(L->code(self, &cv));
    assert_int_equal(cv.index, at + 1);
    assert_true(L->key(self, ','));
    assert_true(L->code(self, &cv));
    assert_int_equal(cv.index, at);
    /* the last step: FirePhaser's answer, the station behind the gun */
    assert_false(step_to(self, "no such step"));
    assert_true(L->code(self, &cv));
    assert_int_equal(cv.index, cv.count - 1);
    assert_string_equal(cv.step->msg_id, "lesson.phaser-shields.step.result-behind");
    assert_int_equal(listing_step_watch(cv.step, "hitShield")->i, 2);
    /* P again: time runs, the beam fades */
    assert_true(L->key(self, 'p'));
    L->update(self, 1.0f);
    draw_once(L, self, &list);
    assert_int_equal(count_cmds(&list, RENDER_CMD_BEAM), 0);
    render_list_free(&list);
}

/* From outside the tutorial's min(s1, s2) is the entry point: at its
   choice it is marked green, and nothing is red. */
static void step_choice_is_green_when_the_seed_is_right(void **state)
{
    void *self = *state;
    lesson_object o[16];
    start_objects(L, self, o, 16);
    assert_true(L->key(self, 'p'));
    lesson_pick p;
    assert_true(click_world_point(L, self, o[0].shape.ellipsoid.center, &p));
    assert_true(p.hit);
    assert_true(step_to(self, "lesson.phaser-shields.step.min"));
    render_list list = {0};
    draw_once(L, self, &list);
    vec3 seed_point;
    rp_ray_at(&p.ray, lesson_pick_field(&p, "tutorial_t")->value.f, seed_point);
    assert_true(point_at(&list, seed_point, false));
    assert_int_equal(red_points(&list), 0);
    char hud[1024];
    L->status(self, hud, sizeof hud);
    assert_null(strstr(hud, "BEHIND"));
    render_list_free(&list);
}

/* A miss reports the quadratic of the shield it came closest to, with no
   root the seed could return when the discriminant is negative. */
static void miss_reports_the_nearest_shields_quadratic(void **state)
{
    void *self = *state;
    mat4 view, proj;
    vec3 eye;
    start_camera(L, view, proj, eye);
    lesson_pick p;
    click_ray(L, self, eye, (vec3){0.0f, 1.0f, 0.0f}, &p);     /* straight up */
    assert_false(p.hit);
    const lesson_field *shield = lesson_pick_field(&p, "shield");
    assert_non_null(shield);
    assert_true(shield->value.i >= 0 && shield->value.i < SHIELDS);
    assert_non_null(lesson_pick_field(&p, "quadratic"));
    float disc = lesson_pick_field(&p, "discriminant")->value.f;
    assert_true(disc < 0.0f);
    assert_null(lesson_pick_field(&p, "tutorial_t"));
    assert_int_equal(lesson_pick_field(&p, "tutorial_shield")->value.i, -1);
    assert_null(lesson_pick_field(&p, "tutorial_l"));
    char hud[1024];
    L->status(self, hud, sizeof hud);
    assert_non_null(strstr(hud, "tutorial: miss   raypick: miss"));
}

/* Over a grid of clicks: every beam piece is dashed exactly when the
   camera sees it through a shield, and both kinds occur. */
static void beams_behind_shields_are_dashed(void **state)
{
    void *self = *state;
    lesson_object o[16];
    int n = start_objects(L, self, o, 16);
    mat4 view, proj;
    vec3 eye;
    start_camera(L, view, proj, eye);
    int dashes = 0, direct = 0;
    render_list list = {0};
    for (int y = 60; y < (int)TEST_H; y += 60)
        for (int x = 40; x < (int)TEST_W; x += 80) {
            L->update(self, 1.0f);      /* the last click's beam has faded */
            lesson_click c;
            assert_true(make_click(L, self, (float)x, (float)y, &c));
            lesson_pick p;
            L->click(self, &c, &p);
            draw_once(L, self, &list);
            for (int i = 0; i < list.count; ++i) {
                const render_cmd *b = &list.cmds[i];
                if (b->kind != RENDER_CMD_BEAM)
                    continue;
                vec3 mid;
                glm_vec3_center((float *)b->u.beam.a, (float *)b->u.beam.b, mid);
                bool dashed = b->u.beam.width < 0.5f * FULL_WIDTH;
                if (dashed || vec3_dist(b->u.beam.a, b->u.beam.b) > 0.6f)
                    assert_int_equal(dashed, behind_a_shield(o, n, eye, mid));
                dashes += dashed;
                direct += !dashed;
            }
        }
    render_list_free(&list);
    assert_true(dashes > 0);
    assert_true(direct > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(objects_are_four_shields_and_two_turrets, setup, teardown),
        cmocka_unit_test_setup_teardown(beam_ends_at_the_cruisers_entry_point, setup, teardown),
        cmocka_unit_test_setup_teardown(turret_inside_its_shield_hits_the_exit_point, setup, teardown),
        cmocka_unit_test_setup_teardown(miss_flies_the_full_range, setup, teardown),
        cmocka_unit_test_setup_teardown(beams_fade_out, setup, teardown),
        cmocka_unit_test_setup_teardown(step_mode_walks_the_listing, setup, teardown),
        cmocka_unit_test_setup_teardown(step_choice_is_green_when_the_seed_is_right, setup, teardown),
        cmocka_unit_test_setup_teardown(miss_reports_the_nearest_shields_quadratic, setup, teardown),
        cmocka_unit_test_setup_teardown(beams_behind_shields_are_dashed, setup, teardown),
    };
    return cmocka_run_group_tests_name("lesson2", tests, NULL, NULL);
}

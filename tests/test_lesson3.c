/* test_lesson3.c: lesson 3 (bounding-sphere tests) without a window: a
 * click pauses the ship it hits, the contact counts on the HUD are the
 * library's tests on the ships' spheres, the scene depends on the seed
 * only, the HUD says whether the spheres are shown, shrunk spheres that
 * miss overlapping models are marked and counted, and the selected pair's
 * numbers (report, HUD, step mode) are the tests' own. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "lesson_test_util.h"

#define L (&lesson3_bounds)
#define SHIPS 4

/* with X: the details (the counts, the pair's numbers) on the HUD */
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

/* "contacts: A by this test, B exact" from the HUD */
static void hud_contacts(const void *self, int *by_test, int *exact)
{
    char buf[512];
    L->status(self, buf, sizeof buf);
    const char *p = strstr(buf, "contacts: ");
    assert_non_null(p);
    assert_int_equal(sscanf(p, "contacts: %d by this test, %d exact", by_test, exact), 2);
}

static void objects_are_four_ship_spheres(void **state)
{
    lesson_object o[16];
    assert_int_equal(start_objects(L, *state, o, 16), SHIPS);
    for (int i = 0; i < SHIPS; ++i) {
        assert_int_equal(o[i].id, i);
        assert_int_equal(o[i].kind, LESSON_OBJECT_SPHERE);
    }
}

static void click_pauses_the_ship_it_hits(void **state)
{
    void *self = *state;
    lesson_object before[16], after[16];
    start_objects(L, self, before, 16);
    lesson_pick p;
    assert_true(click_world_point(L, self, before[2].shape.sphere.center, &p));
    assert_true(p.hit);
    assert_int_equal(p.id, 2);
    assert_string_equal(p.what, "hauler");
    assert_true(lesson_pick_field(&p, "paused")->value.b);
    assert_float_equal(lesson_pick_field(&p, "radius")->value.f, before[2].shape.sphere.radius, 1e-6f);
    assert_float_equal(vec3_dist(p.point, before[2].shape.sphere.center), before[2].shape.sphere.radius, 1e-3f);

    L->update(self, 0.7f);
    start_objects(L, self, after, 16);
    for (int i = 0; i < SHIPS; ++i) {
        float moved = vec3_dist(before[i].shape.sphere.center, after[i].shape.sphere.center);
        if (i == 2)
            assert_true(moved == 0.0f);
        else
            assert_true(moved > 0.01f);
    }

    /* clicked again, it moves on */
    assert_true(click_world_point(L, self, after[2].shape.sphere.center, &p));
    assert_int_equal(p.id, 2);
    assert_false(lesson_pick_field(&p, "paused")->value.b);
    L->update(self, 0.7f);
    start_objects(L, self, before, 16);
    assert_true(vec3_dist(before[2].shape.sphere.center, after[2].shape.sphere.center) > 0.01f);
}

static void contact_counts_are_the_librarys_tests(void **state)
{
    void *self = *state;
    int by_test_total = 0, exact_total = 0, missed = 0;
    for (int step = 0; step < 400; ++step) {
        L->update(self, 0.05f);
        lesson_object o[16];
        start_objects(L, self, o, 16);
        int exact = 0, shortcut = 0;
        for (int i = 0; i < SHIPS; ++i)
            for (int k = i + 1; k < SHIPS; ++k) {
                exact += rp_test_sphere_sphere(&o[i].shape.sphere, &o[k].shape.sphere);
                shortcut += rp_test_sphere_sphere_approx(&o[i].shape.sphere, &o[k].shape.sphere);
            }
        int hud_test, hud_exact;
        hud_contacts(self, &hud_test, &hud_exact);
        assert_int_equal(hud_exact, exact);
        assert_int_equal(hud_test, shortcut);     /* the start mode: the seed's shortcut */
        by_test_total += hud_test;
        exact_total += hud_exact;
        missed += exact - shortcut;
    }
    /* the swing brings the pairs into contact, and the shortcut misses some */
    assert_true(exact_total > 0);
    assert_true(missed > 0);
    assert_true(by_test_total < exact_total);

    /* M: the exact test, then the sqrt(2)-scaled radii, which never miss */
    assert_true(L->key(self, 'm'));
    int hud_test, hud_exact;
    hud_contacts(self, &hud_test, &hud_exact);
    assert_int_equal(hud_test, hud_exact);
    assert_true(L->key(self, 'm'));
    for (int step = 0; step < 200; ++step) {
        L->update(self, 0.05f);
        hud_contacts(self, &hud_test, &hud_exact);
        assert_true(hud_test >= hud_exact);
    }
}

static void shrink_key_scales_the_spheres(void **state)
{
    void *self = *state;
    lesson_object a[16], b[16];
    start_objects(L, self, a, 16);
    assert_true(L->key(self, 's'));
    start_objects(L, self, b, 16);
    for (int i = 0; i < SHIPS; ++i)
        assert_float_equal(b[i].shape.sphere.radius, 0.8f * a[i].shape.sphere.radius, 1e-6f);
}

static void same_seed_same_scene(void **state)
{
    (void)state;
    void *a = create_ok(L, 7), *b = create_ok(L, 7), *c = create_ok(L, 8);
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(c);
    render_list la = {0}, lb = {0}, lc = {0};
    for (int step = 0; step < 30; ++step) {
        L->update(a, 1.0f / 60.0f);
        L->update(b, 1.0f / 60.0f);
        L->update(c, 1.0f / 60.0f);
    }
    draw_once(L, a, &la);
    draw_once(L, b, &lb);
    draw_once(L, c, &lc);
    assert_int_equal(la.count, lb.count);
    assert_memory_equal(la.cmds, lb.cmds, (size_t)la.count * sizeof *la.cmds);
    /* another seed: other projectiles */
    assert_true(la.count != lc.count || memcmp(la.cmds, lc.cmds, (size_t)la.count * sizeof *la.cmds) != 0);
    render_list_free(&la);
    render_list_free(&lb);
    render_list_free(&lc);
    L->destroy(a);
    L->destroy(b);
    L->destroy(c);
}

static void hud_says_whether_the_spheres_are_shown(void **state)
{
    void *self = *state;
    char hud[1024];
    render_list list = {0};
    L->status(self, hud, sizeof hud);
    assert_non_null(strstr(hud, "shown (B)"));
    draw_once(L, self, &list);
    assert_int_equal(count_cmds(&list, RENDER_CMD_GLASS), SHIPS);
    assert_true(L->key(self, 'b'));
    L->status(self, hud, sizeof hud);
    assert_non_null(strstr(hud, "hidden (B)"));
    assert_null(strstr(hud, "shown (B)"));
    draw_once(L, self, &list);
    assert_int_equal(count_cmds(&list, RENDER_CMD_GLASS), 0);
    assert_true(L->key(self, 'b'));
    L->status(self, hud, sizeof hud);
    assert_non_null(strstr(hud, "shown (B)"));
    render_list_free(&list);
}

/* "models overlapping while their spheres are apart: N" from the HUD */
static int hud_hidden_overlaps(const void *self)
{
    char buf[1024];
    L->status(self, buf, sizeof buf);
    const char *p = strstr(buf, "models overlapping while their spheres are apart: ");
    assert_non_null(p);
    int n = -1;
    assert_int_equal(sscanf(p, "models overlapping while their spheres are apart: %d", &n), 1);
    return n;
}

/* Is a world point inside a drawn shape (render_list.h's unit shapes under
   the command's model matrix)? Written here from the shapes' definitions. */
static bool inside_drawn(const render_cmd *c, const vec3 p)
{
    mat4 inv;
    glm_mat4_inv((vec4 *)c->u.shape.model, inv);
    vec3 q;
    glm_mat4_mulv3(inv, (float *)p, 1.0f, q);
    float ring = sqrtf(q[0] * q[0] + q[2] * q[2]);
    switch (c->u.shape.shape) {
    case RENDER_SPHERE: return q[0] * q[0] + q[1] * q[1] + q[2] * q[2] <= 1.0f;
    case RENDER_CUBE: return fabsf(q[0]) <= 1.0f && fabsf(q[1]) <= 1.0f && fabsf(q[2]) <= 1.0f;
    case RENDER_CONE: return q[1] >= -1.0f && q[1] <= 1.0f && ring <= (1.0f - q[1]) * 0.5f;
    default: return (ring - 0.75f) * (ring - 0.75f) + q[1] * q[1] <= 0.09f;
    }
}

static bool is_red_marker(const vec4 c)
{
    return c[0] > 0.9f && c[1] < 0.2f && c[2] < 0.2f;
}

/* With S the spheres are smaller than the models: some frames the models
   overlap while the spheres are apart. The HUD counts them, the two models
   glow red, a red pin runs from a point inside both down to the ground.
   Without S (spheres enclosing the models) that never happens. */
static void shrunk_spheres_missing_an_overlap_are_marked(void **state)
{
    void *self = *state;
    for (int step = 0; step < 300; ++step) {
        L->update(self, 1.0f / 60.0f);
        assert_int_equal(hud_hidden_overlaps(self), 0);
    }
    assert_true(L->key(self, 's'));
    int marked_frames = 0, convex_checked = 0;
    render_list list = {0};
    for (int step = 0; step < 1200; ++step) {
        L->update(self, 1.0f / 60.0f);
        int hidden = hud_hidden_overlaps(self);
        draw_once(L, self, &list);
        const render_cmd *glowing[SHIPS];
        int glows = 0, pins = 0;
        for (int i = 0; i < list.count; ++i) {
            const render_cmd *c = &list.cmds[i];
            if (c->kind == RENDER_CMD_SHAPE && c->u.shape.emissive[0] > 0.7f && c->u.shape.emissive[1] == 0.0f)
                glowing[glows++] = c;
            if (c->kind == RENDER_CMD_POINT && is_red_marker(c->u.point.color)) {
                ++pins;
                assert_float_equal(c->u.point.p[1], 0.02f, 1e-6f);     /* on the ground */
            }
        }
        assert_int_equal(pins, hidden);
        if (hidden == 0) {
            assert_int_equal(glows, 0);
            continue;
        }
        ++marked_frames;
        assert_int_equal(glows, 2 * hidden);
        /* the glowing pair: their spheres (as listed) are apart, the
           enclosing ones (radius / 0.8) meet */
        lesson_object o[16];
        start_objects(L, self, o, 16);
        int pair[2], found = 0;
        for (int g = 0; g < 2; ++g)
            for (int i = 0; i < SHIPS; ++i)
                if (vec3_dist(o[i].shape.sphere.center, glowing[g]->u.shape.model[3]) < 1e-5f)
                    pair[found++] = i;
        assert_int_equal(found, 2);
        const rp_sphere *a = &o[pair[0]].shape.sphere, *b = &o[pair[1]].shape.sphere;
        assert_false(rp_test_sphere_sphere(a, b));
        rp_sphere ea = *a, eb = *b;
        ea.radius /= 0.8f;
        eb.radius /= 0.8f;
        assert_true(rp_test_sphere_sphere(&ea, &eb));
        /* the pin's upper end is in the overlap: inside both models when both
           are convex (their overlap is then convex too) */
        for (int i = 0; i < list.count; ++i) {
            const render_cmd *c = &list.cmds[i];
            if (c->kind != RENDER_CMD_LINE || !is_red_marker(c->u.line.color) || hidden != 1)
                continue;
            if (glowing[0]->u.shape.shape == RENDER_TORUS || glowing[1]->u.shape.shape == RENDER_TORUS)
                continue;
            assert_true(inside_drawn(glowing[0], c->u.line.a));
            assert_true(inside_drawn(glowing[1], c->u.line.a));
            ++convex_checked;
        }
    }
    render_list_free(&list);
    assert_true(marked_frames > 0);
    assert_true(convex_checked > 0);
}

/* A click selects a ship and its nearest neighbour: the report and the HUD
   give d^2, (ra+rb)^2 and ra^2+rb^2 of their spheres and each verdict. */
static void selection_shows_the_pairs_numbers(void **state)
{
    void *self = *state;
    lesson_object o[16];
    start_objects(L, self, o, 16);
    lesson_pick p;
    assert_true(click_world_point(L, self, o[0].shape.sphere.center, &p));
    assert_int_equal(p.id, 0);
    assert_int_equal(lesson_pick_field(&p, "partner")->value.i, 1);
    const rp_sphere *a = &o[0].shape.sphere, *b = &o[1].shape.sphere;
    float d2 = glm_vec3_distance2((float *)a->center, (float *)b->center);
    float sum = a->radius + b->radius, squares = a->radius * a->radius + b->radius * b->radius;
    assert_float_equal(lesson_pick_field(&p, "d2")->value.f, d2, 1e-5f);
    assert_float_equal(lesson_pick_field(&p, "exact_bound")->value.f, sum * sum, 1e-5f);
    assert_float_equal(lesson_pick_field(&p, "shortcut_bound")->value.f, squares, 1e-5f);
    assert_false(lesson_pick_field(&p, "models_overlap")->value.b);    /* 2.4 apart at the start */

    char hud[1024], expect[160];
    L->status(self, hud, sizeof hud);
    snprintf(expect, sizeof expect, "freighter + scout: d^2 = %.3f  (ra+rb)^2 = %.3f  ra^2+rb^2 = %.3f",
             (double)d2, (double)(sum * sum), (double)squares);
    assert_non_null(strstr(hud, expect));
    snprintf(expect, sizeof expect, "exact: %s   shortcut: %s",
             rp_test_sphere_sphere(a, b) ? "contact" : "apart", rp_test_sphere_sphere_approx(a, b) ? "contact" : "apart");
    assert_non_null(strstr(hud, expect));
    /* a white line on the ground under the pair's centres */
    render_list list = {0};
    draw_once(L, self, &list);
    bool line = false;
    for (int i = 0; i < list.count; ++i) {
        const render_cmd *c = &list.cmds[i];
        if (c->kind == RENDER_CMD_LINE && c->u.line.color[0] == 1.0f && c->u.line.color[1] == 1.0f &&
            c->u.line.a[1] == 0.02f && c->u.line.b[1] == 0.02f)
            line = fabsf(vec3_dist(c->u.line.a, c->u.line.b) - sqrtf(d2)) < 1e-4f;
    }
    assert_true(line);
    render_list_free(&list);
}

/* P freezes the scene; a click walks through the articles' code for the
   pair: overlapSpheres, Sphere_Sphere_Collision with the squared radii and
   with the sqrt(2)-scaled ones, then Check_SphereHit and pointInSphere for
   the nearest projectile; each verdict the library's. */
static void step_mode_walks_the_tests(void **state)
{
    void *self = *state;
    L->update(self, 1.0f);
    assert_true(L->key(self, 'p'));
    lesson_object before[16], after[16];
    start_objects(L, self, before, 16);
    L->update(self, 1.0f);
    start_objects(L, self, after, 16);
    for (int i = 0; i < SHIPS; ++i)
        assert_true(vec3_dist(before[i].shape.sphere.center, after[i].shape.sphere.center) == 0.0f);

    lesson_pick p;
    assert_true(click_world_point(L, self, before[0].shape.sphere.center, &p));
    assert_int_equal(p.id, 0);
    assert_false(lesson_pick_field(&p, "paused")->value.b);    /* step mode selects only */
    const rp_sphere *a = &before[0].shape.sphere, *b = &before[1].shape.sphere;
    bool exact = rp_test_sphere_sphere(a, b), shortcut = rp_test_sphere_sphere_approx(a, b);
    rp_sphere sa = *a, sb = *b;
    sa.radius = rp_sphere_radius_for_approx(sa.radius);
    sb.radius = rp_sphere_radius_for_approx(sb.radius);
    bool scaled = rp_test_sphere_sphere_approx(&sa, &sb);
    assert_int_equal(lesson_pick_field(&p, "overlapSpheres")->value.b, exact);
    assert_int_equal(lesson_pick_field(&p, "Sphere_Sphere_Collision")->value.b, shortcut);
    assert_int_equal(lesson_pick_field(&p, "scaled_collision")->value.b, scaled);
    const char *want[9] = {
        "overlap-distance", exact ? "overlap-yes" : "overlap-no",
        "ssc-distance", shortcut ? "ssc-collision" : "ssc-apart",
        "ssc-distance", scaled ? "ssc-collision" : "ssc-apart",
        "hit-distance", NULL, NULL};
    lesson_code_view cv;
    assert_true(L->code(self, &cv));
    assert_int_equal(cv.count, 9);
    for (int i = 0; i < 7; ++i) {
        char id[96];
        snprintf(id, sizeof id, "lesson.bounding-sphere-tests.step.%s", want[i]);
        assert_true(L->code(self, &cv) && cv.step);
        assert_int_equal(cv.index, i);
        assert_string_equal(cv.step->msg_id, id);
        assert_true(L->key(self, '.'));
    }
    /* the squared distance the German test watches is the pair's d^2 */
    float d2 = glm_vec3_distance2((float *)a->center, (float *)b->center);
    assert_float_equal(listing_step_watch(&cv.steps[2], "D3DXVec3LengthSq(&DistanceVector)")->v[0], d2, 1e-4f);
    assert_float_equal(listing_step_watch(&cv.steps[3], "SphereSquareRadius1")->v[0], a->radius * a->radius, 1e-5f);
    /* Check_SphereHit and pointInSphere agree with the library's point test */
    bool hit = strcmp(cv.steps[7].msg_id, "lesson.bounding-sphere-tests.step.hit-possible") == 0;
    bool in = strcmp(cv.steps[8].msg_id, "lesson.bounding-sphere-tests.step.point-in") == 0;
    assert_int_equal(hit, in);
    /* off again: the scene moves on */
    assert_true(L->key(self, 'p'));
    L->update(self, 0.5f);
    start_objects(L, self, after, 16);
    assert_true(vec3_dist(before[0].shape.sphere.center, after[0].shape.sphere.center) > 0.01f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(objects_are_four_ship_spheres, setup, teardown),
        cmocka_unit_test_setup_teardown(click_pauses_the_ship_it_hits, setup, teardown),
        cmocka_unit_test_setup_teardown(contact_counts_are_the_librarys_tests, setup, teardown),
        cmocka_unit_test_setup_teardown(shrink_key_scales_the_spheres, setup, teardown),
        cmocka_unit_test(same_seed_same_scene),
        cmocka_unit_test_setup_teardown(hud_says_whether_the_spheres_are_shown, setup, teardown),
        cmocka_unit_test_setup_teardown(shrunk_spheres_missing_an_overlap_are_marked, setup, teardown),
        cmocka_unit_test_setup_teardown(selection_shows_the_pairs_numbers, setup, teardown),
        cmocka_unit_test_setup_teardown(step_mode_walks_the_tests, setup, teardown),
    };
    return cmocka_run_group_tests_name("lesson3", tests, NULL, NULL);
}

/* test_lesson3.c: lesson 3 (bounding-sphere tests) without a window: a
 * click pauses the ship it hits, the contact counts on the HUD are the
 * library's tests on the ships' spheres, and the scene depends on the seed
 * only. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "lesson_test_util.h"

#define L (&lesson3_bounds)
#define SHIPS 4

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(objects_are_four_ship_spheres, setup, teardown),
        cmocka_unit_test_setup_teardown(click_pauses_the_ship_it_hits, setup, teardown),
        cmocka_unit_test_setup_teardown(contact_counts_are_the_librarys_tests, setup, teardown),
        cmocka_unit_test_setup_teardown(shrink_key_scales_the_spheres, setup, teardown),
        cmocka_unit_test(same_seed_same_scene),
    };
    return cmocka_run_group_tests_name("lesson3", tests, NULL, NULL);
}

/* test_lesson4_listing.c: lesson 4's listing (the XNA recipe ported under
 * its own names, src/lessons/listings/lesson4_xna_recipe.c) against the
 * library where the two should agree, and where they must not; every step
 * a click records names a line of the shown listing that holds what the
 * step watches; and the lesson's tour: each moment valid and each doing
 * what its sentence says. No GL, no SDL. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <cmocka.h>

#include "lesson_test_util.h"
#include "lesson4_xna_recipe.h"
#include "msg.h"

#define L (&lesson4_terrain)
#define STEPS_CAP 1024

/* A map like the lesson's (the procedural terrain, no spire) and the
   recipe's context for a click at the lesson's start camera. */
typedef struct fixture {
    rp_heightmap *map;
    listing_step steps[STEPS_CAP];
    listing_trace trace;
    Recipe recipe;
} fixture;

static int setup(void **state)
{
    static fixture f;
    float half = 24.0f;
    f.map = rp_heightmap_generate(97, 97, 0.5f, 7.0f, 1, (vec3){-half, 0.0f, -half});
    if (!f.map)
        return -1;
    listing_trace_reset(&f.trace, f.steps, STEPS_CAP);
    memset(&f.recipe, 0, sizeof f.recipe);
    f.recipe.terrain = f.map;
    f.recipe.viewport = (rp_viewport){0.0f, 0.0f, TEST_W, TEST_H};
    vec3 eye;
    start_camera(L, f.recipe.view, f.recipe.projection, eye);
    rp_heightmap_height_range(f.map, &f.recipe.lowest, &f.recipe.highest);
    f.recipe.trace = &f.trace;
    *state = &f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    rp_heightmap_destroy(f->map);
    return 0;
}

static void use_steps(fixture *f, int steps)
{
    f->recipe.linearSteps = steps;
    f->recipe.linearBound = RECIPE_LINEAR_BOUND(steps);
    f->recipe.binaryBound = RECIPE_BINARY_BOUND;
    listing_trace_reset(&f->trace, f->steps, STEPS_CAP);
}

/* ------------------------------------------------------------ the library */

/* GetPointerRay is the library's rp_pick_ray_unproject: the same near
   point and the same far - near, pixel by pixel. */
static void get_pointer_ray_is_the_librarys_unproject_ray(void **state)
{
    fixture *f = *state;
    use_steps(f, 30);
    for (float py = 0.5f; py < TEST_H; py += 53.0f)
        for (float px = 0.5f; px < TEST_W; px += 61.0f) {
            Ray mine = GetPointerRay(&f->recipe, (Vector2){px, py});
            rp_ray lib;
            assert_true(rp_pick_ray_unproject(px, py, &f->recipe.viewport, f->recipe.projection, f->recipe.view,
                                              RP_GL, &lib));
            vec3 o = {mine.Position.X, mine.Position.Y, mine.Position.Z};
            vec3 d = {mine.Direction.X, mine.Direction.Y, mine.Direction.Z};
            assert_true(vec3_dist(o, lib.origin) < 1e-4f);
            assert_true(vec3_dist(d, lib.dir) < 1e-4f * glm_vec3_norm(lib.dir));
        }
}

/* Where the map has no feature thinner than a step, the recipe with 300
   steps finds the crossing the library finds, exactly and by its own
   search: its point is above the ground by less than the accuracy (the
   recipe's promise), on the first crossing. */
static void the_recipe_agrees_with_the_library_on_the_terrain(void **state)
{
    fixture *f = *state;
    int compared = 0;
    for (float py = TEST_H * 0.3f; py < TEST_H; py += 37.0f)
        for (float px = 0.5f; px < TEST_W; px += 71.0f) {
            use_steps(f, 300);
            Vector3 p = UpdatePointerPos(&f->recipe, (Vector2){px, py});
            Ray r = GetPointerRay(&f->recipe, (Vector2){px, py});
            rp_ray ray = {{r.Position.X, r.Position.Y, r.Position.Z}, {r.Direction.X, r.Direction.Y, r.Direction.Z}};
            rp_hit exact;
            vec3 search;
            bool hit = rp_intersect_ray_heightmap(f->map, &ray, &exact);
            bool found = rp_heightmap_pick_search(f->map, &ray, 300, 0.01f, search);
            if (!hit) {
                /* the ray leaves the map without meeting it: the recipe never ends */
                assert_true(f->trace.stopped);
                continue;
            }
            assert_false(f->trace.stopped);
            vec3 mine = {p.X, p.Y, p.Z};
            float ground;
            assert_true(rp_heightmap_height_at(f->map, p.X, p.Z, &ground));
            assert_true(p.Y - ground >= 0.0f && p.Y - ground <= 0.01f);
            assert_true(found);
            assert_true(vec3_dist(mine, exact.point) < 0.05f);
            assert_true(vec3_dist(mine, search) < 0.05f);
            ++compared;
        }
    assert_true(compared >= 40);
}

/* Where they must not agree: ClipRay's division by Direction.Y, a ray
   going up, and BinarySearch on a ray that misses. */
static void the_recipes_mistakes_are_kept(void **state)
{
    fixture *f = *state;
    use_steps(f, 30);
    /* a level ray: A and B are not finite */
    Ray level = {{0.0f, 5.0f, 30.0f}, {0.0f, 0.0f, -10.0f}};
    Ray clipped = ClipRay(&f->recipe, level, f->recipe.highest, f->recipe.lowest);
    assert_false(isfinite(clipped.Position.X + clipped.Position.Y + clipped.Position.Z));
    assert_int_equal(f->trace.count, 1);
    assert_string_equal(f->steps[0].msg_id, "lesson.terrain-picking.step.clip-level");
    /* a ray going up from above the terrain: A and B lie behind its start */
    use_steps(f, 30);
    Ray up = {{0.0f, 20.0f, 0.0f}, {0.0f, 1.0f, -1.0f}};
    clipped = ClipRay(&f->recipe, up, f->recipe.highest, f->recipe.lowest);
    assert_string_equal(f->steps[0].msg_id, "lesson.terrain-picking.step.clip-up");
    assert_true(listing_step_watch(&f->steps[0], "factorH")->v[0] < 0.0f);
    assert_true(clipped.Position.Z > up.Position.Z);    /* behind: -z is ahead */
    /* BinarySearch on a ray that never meets the ground (off the map):
       the recipe's loop would not end; the bound stops it */
    use_steps(f, 30);
    Ray off = {{100.0f, 10.0f, 100.0f}, {10.0f, -1.0f, 0.0f}};
    BinarySearch(&f->recipe, off);
    assert_true(f->trace.stopped);
    assert_string_equal(f->steps[f->trace.count - 1].msg_id, "lesson.terrain-picking.step.binary-bound");
    assert_int_equal(listing_step_watch(&f->steps[f->trace.count - 1], "turns")->i, RECIPE_BINARY_BOUND);
    /* and LinearSearch walking past B off the map */
    use_steps(f, 8);
    LinearSearch(&f->recipe, off);
    assert_true(f->trace.stopped);
    assert_string_equal(f->steps[f->trace.count - 1].msg_id, "lesson.terrain-picking.step.linear-bound");
    assert_true(f->trace.count <= RECIPE_LINEAR_BOUND(8) + 2);
}

/* ------------------------------------------------------------ steps -> lines */

/* Every step of the click names a display line that exists; the statement
   there holds one of the step's watched variables, or (a bound) is the
   loop the lesson stops; its sentence exists in every language
   (lesson_test_util.h). */
static void check_steps_name_their_lines(const void *self)
{
    char why[1200];
    if (!steps_name_their_lines(L, self, why, sizeof why))
        fail_msg("%s", why);
}

static void every_step_names_its_line(void **state)
{
    (void)state;
    static const char keys[][4] = {"", "l", "ll", "lll"};    /* 30, 300, 1, 8 steps */
    static const float clicks[][2] = {{0.45f, 0.62f}, {0.5f, 0.01f}, {0.2f, 0.8f}, {0.55f, 0.33f}};
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
            check_steps_name_their_lines(self);
            L->destroy(self);
        }
}

/* The check above fails when a step lights the wrong line: a step that
   watches currentError moved onto ClipRay's first line, or its sentence
   missing from the catalogue. */
static listing_step fake_steps[1];

static bool fake_code(const void *self, lesson_code_view *out)
{
    (void)self;
    memset(out, 0, sizeof *out);
    out->code = &listing_lesson4_xna_recipe;
    out->steps = fake_steps;
    out->count = 1;
    return true;
}

static void a_step_on_the_wrong_line_is_caught(void **state)
{
    (void)state;
    const lesson fake = {.number = 99, .code = fake_code};
    char why[1200];
    const listing *l = &listing_lesson4_xna_recipe;
    int clip_line = 0, error_line = 0;
    for (int src = 1; src <= l->source_line_count; ++src) {
        const char *text = listing_line_text(l, listing_display_line(l, src));
        if (!clip_line && text && strstr(text, "Ray ClipRay("))
            clip_line = src;
        if (!error_line && text && strstr(text, "float currentError ="))
            error_line = src;
    }
    assert_true(clip_line > 0 && error_line > 0);
    fake_steps[0] = (listing_step){error_line, "lesson.terrain-picking.step.binary-start", 1,
                                   {WATCH_F("currentError", 1.0f)}};
    assert_true(steps_name_their_lines(&fake, NULL, why, sizeof why));
    fake_steps[0].source_line = clip_line;
    assert_false(steps_name_their_lines(&fake, NULL, why, sizeof why));
    assert_non_null(strstr(why, "binary-start"));
    fake_steps[0].source_line = error_line;
    fake_steps[0].msg_id = "lesson.terrain-picking.step.no-such-sentence";
    assert_false(steps_name_their_lines(&fake, NULL, why, sizeof why));
}

/* ------------------------------------------------------------ the tour */

/* Every moment is valid: a sentence in every language, keys the lesson
   or the app uses, clicks that land at the start camera. */
static void tour_moments_are_valid(void **state)
{
    (void)state;
    char why[256];
    if (!tour_moments_valid(L, 0, why, sizeof why))
        fail_msg("%s", why);
}

static float off_axis(const vec3 p, const lesson_object *spire)
{
    return hypotf(p[0] - spire->shape.spire.center[0], p[2] - spire->shape.spire.center[2]);
}

/* Each moment shows what its sentence says. */
static void tour_moments_show_what_they_say(void **state)
{
    (void)state;
    lesson_object o[32];
    void *probe = create_ok(L, 1);
    int n = start_objects(L, probe, o, 32);
    const lesson_object *spire = object_by_id(o, n, 0);
    assert_non_null(spire);
    lesson_pick p;
    lesson_code_view cv;

    /* 1: the recipe's case: 30 steps, every step to pointerPos, which is
       where the exact method hits */
    void *self = stage_tour_moment(L, 0, &p);
    assert_non_null(self);
    assert_int_equal(lesson_pick_field(&p, "linear_steps")->value.i, 30);
    assert_true(L->code(self, &cv) && cv.step);
    assert_string_equal(cv.step->msg_id, "lesson.terrain-picking.step.found");
    assert_true(lesson_pick_field(&p, "methods_apart")->value.f < 0.05f);
    L->destroy(self);

    /* 2: 8 steps stride over the spire: the search lands behind it, the
       exact method on its top; 30 steps land on it (README's claim at the
       default holds only for them) */
    self = stage_tour_moment(L, 1, &p);
    assert_non_null(self);
    assert_int_equal(lesson_pick_field(&p, "linear_steps")->value.i, 8);
    assert_true(off_axis(lesson_pick_field(&p, "search_point")->value.v, spire) > 2.0f);
    assert_true(off_axis(lesson_pick_field(&p, "exact_point")->value.v, spire) < 1.1f);
    assert_true(L->code(self, &cv) && cv.step);
    assert_string_equal(cv.step->msg_id, "lesson.terrain-picking.step.shorter-ray");
    L->destroy(self);
    lesson_pick at30;
    float px, py;
    assert_true(tour_click_pixel(L, probe, &L->camera, &L->tour[1].clicks[0], &px, &py));
    assert_true(click_through(L, probe, &L->camera, px, py, &at30));
    assert_int_equal(lesson_pick_field(&at30, "linear_steps")->value.i, 30);
    assert_true(off_axis(lesson_pick_field(&at30, "search_point")->value.v, spire) < 1.1f);

    /* 3: beyond the map, BinarySearch alone: stopped after 48 halvings */
    self = stage_tour_moment(L, 2, &p);
    assert_non_null(self);
    assert_false(p.hit);
    assert_true(lesson_pick_field(&p, "search_stopped")->value.b);
    assert_int_equal(lesson_pick_field(&p, "linear_steps")->value.i, 1);
    assert_int_equal(lesson_pick_field(&p, "binary_steps")->value.i, RECIPE_BINARY_BOUND);
    assert_true(L->code(self, &cv) && cv.step);
    assert_string_equal(cv.step->msg_id, "lesson.terrain-picking.step.binary-bound");
    L->destroy(self);

    /* 4: the exact method: on the spire, in its upper half */
    self = stage_tour_moment(L, 3, &p);
    assert_non_null(self);
    assert_string_equal(p.method, "exact");
    assert_true(p.hit);
    assert_true(off_axis(p.point, spire) < 1.1f);
    assert_true(p.point[1] > 0.5f * (spire->shape.spire.base[1] + spire->shape.spire.center[1]));
    L->destroy(self);
    L->destroy(probe);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(get_pointer_ray_is_the_librarys_unproject_ray, setup, teardown),
        cmocka_unit_test_setup_teardown(the_recipe_agrees_with_the_library_on_the_terrain, setup, teardown),
        cmocka_unit_test_setup_teardown(the_recipes_mistakes_are_kept, setup, teardown),
        cmocka_unit_test(every_step_names_its_line),
        cmocka_unit_test(a_step_on_the_wrong_line_is_caught),
        cmocka_unit_test(tour_moments_are_valid),
        cmocka_unit_test(tour_moments_show_what_they_say),
    };
    return cmocka_run_group_tests_name("lesson4_listing", tests, NULL, NULL);
}

/* test_lesson3_listing.c: lesson 3's listing (the German bounding-sphere
 * tutorial's Check_SphereHit and Sphere_Sphere_Collision, the Android
 * book's overlapSpheres and pointInSphere, ported under their own names:
 * src/lessons/listings/lesson3_sphere_tests.c) against the library where
 * they should agree, and where they must not (the dropped mixed term,
 * < against <=); every step a click records names a line of the shown
 * listing that holds what it watches; step mode's camera frames the pair
 * under test; the projectiles' colour is the legend's; and the lesson's
 * tour: each moment valid and doing what its sentence says. No GL, no
 * SDL. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <cmocka.h>

#include "lesson_test_util.h"
#include "lesson3_sphere_tests.h"
#include "msg.h"

#define L (&lesson3_bounds)
#define STEP(name) "lesson.bounding-sphere-tests.step." name

static Sphere book(const rp_sphere *s)
{
    return (Sphere){{s->center[0], s->center[1], s->center[2]}, s->radius};
}

static D3DXVECTOR3 dx(const float *v)
{
    return (D3DXVECTOR3){v[0], v[1], v[2]};
}

static bool shortcut(const rp_sphere *a, const rp_sphere *b, float scale)
{
    D3DXVECTOR3 pa = dx(a->center), pb = dx(b->center);
    float ra = a->radius * scale, rb = b->radius * scale;
    return Sphere_Sphere_Collision(NULL, &pa, ra * ra, &pb, rb * rb);
}

/* ------------------------------------------------------------ the library */

/* Away from the boundary (a relative margin of 1e-4) each article's test
   gives the library's answer: overlapSpheres is rp_test_sphere_sphere,
   Sphere_Sphere_Collision is rp_test_sphere_sphere_approx, Check_SphereHit
   and pointInSphere are rp_sphere_contains_point. */
static void the_articles_tests_agree_with_the_library(void **state)
{
    (void)state;
    uint32_t seed = 99u;
    int pairs = 0, contacts = 0, missed = 0, points = 0, inside = 0;
    for (int n = 0; n < 20000; ++n) {
        float v[9];
        for (int k = 0; k < 9; ++k) {
            seed = seed * 1664525u + 1013904223u;
            v[k] = (float)(seed >> 8) / 16777216.0f;
        }
        rp_sphere a = {{0.0f, 0.0f, 0.0f}, 0.2f + 2.0f * v[0]};
        rp_sphere b = {{6.0f * v[1] - 3.0f, 6.0f * v[2] - 3.0f, 6.0f * v[3] - 3.0f}, 0.2f + 2.0f * v[4]};
        vec3 p = {6.0f * v[5] - 3.0f, 6.0f * v[6] - 3.0f, 6.0f * v[7] - 3.0f};
        float d2 = glm_vec3_norm2(b.center), sum = a.radius + b.radius, sq = a.radius * a.radius + b.radius * b.radius;
        Sphere s1 = book(&a), s2 = book(&b);
        if (fabsf(d2 - sum * sum) > 1e-4f * sum * sum) {
            bool exact = overlapSpheres(NULL, &s1, &s2);
            assert_int_equal(exact, rp_test_sphere_sphere(&a, &b));
            contacts += exact;
            ++pairs;
        }
        if (fabsf(d2 - sq) > 1e-4f * sq) {
            bool cut = shortcut(&a, &b, 1.0f);
            assert_int_equal(cut, rp_test_sphere_sphere_approx(&a, &b));
            missed += rp_test_sphere_sphere(&a, &b) && !cut;
        }
        float p2 = glm_vec3_norm2(p);
        if (fabsf(p2 - a.radius * a.radius) > 1e-4f * a.radius * a.radius) {
            D3DXVECTOR3 c = dx(a.center), at = dx(p);
            Vector3 q = {p[0], p[1], p[2]};
            bool lib = rp_sphere_contains_point(&a, p);
            assert_int_equal(Check_SphereHit(NULL, &c, a.radius * a.radius, &at), lib);
            assert_int_equal(pointInSphere(NULL, &s1, &q), lib);
            inside += lib;
            ++points;
        }
    }
    assert_true(pairs > 15000 && contacts > 1000 && missed > 100 && points > 15000 && inside > 500);
}

/* Where they must not agree, as the lesson says: the shortcut misses
   unit spheres 1.5 apart; at the boundary overlapSpheres' <= counts
   touching spheres while the German test's < and pointInSphere's < leave
   the surface out; the tutorial's generous radii taken as exactly
   sqrt(2) miss equal spheres that touch, the library's (rounded up) do
   not; and scaled radii 1 and 3 call centres 4.2 apart a contact. */
static void the_articles_mistakes_are_kept(void **state)
{
    (void)state;
    rp_sphere a = {{0.0f, 0.0f, 0.0f}, 1.0f}, b = {{1.5f, 0.0f, 0.0f}, 1.0f};
    Sphere s1 = book(&a), s2 = book(&b);
    assert_true(overlapSpheres(NULL, &s1, &s2));
    assert_false(shortcut(&a, &b, 1.0f));
    /* touching: d = 2 = 1 + 1, exact in float */
    b.center[0] = 2.0f;
    s2 = book(&b);
    assert_true(overlapSpheres(NULL, &s1, &s2));
    assert_true(rp_test_sphere_sphere(&a, &b));
    assert_false(shortcut(&a, &b, sqrtf(2.0f)));                   /* 2 + 2 < 4: false */
    rp_sphere la = a, lb = b;
    la.radius = rp_sphere_radius_for_approx(a.radius);
    lb.radius = rp_sphere_radius_for_approx(b.radius);
    assert_true(shortcut(&la, &lb, 1.0f));                          /* what the lesson's sqrt(2) mode runs */
    Vector3 on = {1.0f, 0.0f, 0.0f};
    D3DXVECTOR3 c = dx(a.center), at = {1.0f, 0.0f, 0.0f};
    assert_false(pointInSphere(NULL, &s1, &on));
    assert_false(Check_SphereHit(NULL, &c, 1.0f, &at));
    assert_false(rp_sphere_contains_point(&a, (vec3){1.0f, 0.0f, 0.0f}));
    /* the price: a false alarm */
    rp_sphere one = {{0.0f, 0.0f, 0.0f}, 1.0f}, three = {{4.2f, 0.0f, 0.0f}, 3.0f};
    Sphere b1 = book(&one), b3 = book(&three);
    assert_false(overlapSpheres(NULL, &b1, &b3));
    one.radius = rp_sphere_radius_for_approx(1.0f);
    three.radius = rp_sphere_radius_for_approx(3.0f);
    assert_true(shortcut(&one, &three, 1.0f));
}

/* ------------------------------------------------------------ steps -> lines */

static void every_step_names_its_line(void **state)
{
    (void)state;
    static const char keys[][4] = {"", "s", "m"};
    static const float times[] = {0.0f, 0.4f, 2.5f};
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; ++k)
        for (size_t t = 0; t < sizeof times / sizeof times[0]; ++t)
            for (int ship = 0; ship < 4; ++ship)
                for (int dcase = 0; dcase < 4; ++dcase) {
                    void *self = create_ok(L, 1);
                    assert_non_null(self);
                    L->update(self, times[t]);
                    for (const char *key = keys[k]; *key; ++key)
                        assert_true(L->key(self, *key));
                    assert_true(L->key(self, 'p'));
                    lesson_object o[8];
                    start_objects(L, self, o, 8);
                    lesson_pick p;
                    assert_true(click_world_point(L, self, object_by_id(o, 4, ship)->shape.sphere.center, &p));
                    for (int d = 0; d < dcase; ++d)
                        assert_true(L->key(self, 'd'));
                    char why[1200];
                    if (!steps_name_their_lines(L, self, why, sizeof why))
                        fail_msg("keys %s, time %g, ship %d, D %d: %s", keys[k], (double)times[t], ship, dcase, why);
                    L->destroy(self);
                }
}

/* ------------------------------------------------------------ framed steps */

/* does the segment from e to p pass through sphere s? (not when p lies
   inside s: ships in contact, no view is clear) */
static bool sight_blocked(const vec3 e, const vec3 p, const rp_sphere *s)
{
    if (glm_vec3_distance((float *)p, (float *)s->center) <= s->radius)
        return false;
    vec3 seg, to, closest;
    glm_vec3_sub((float *)p, (float *)e, seg);
    glm_vec3_sub((float *)s->center, (float *)e, to);
    float t = glm_clamp(glm_vec3_dot(to, seg) / glm_vec3_dot(seg, seg), 0.0f, 1.0f);
    glm_vec3_copy((float *)e, closest);
    glm_vec3_muladds(seg, t, closest);
    return glm_vec3_distance(closest, (float *)s->center) < s->radius;
}

/* The projectile's steps look at the clicked ship from a side where no
   other ship's model stands in front of its centre, wherever the ships
   swing and whichever is clicked (the screenshots' click on the
   freighter, D once: from the start camera's side the scout hid the
   ship and its projectile); returns how many such views were checked. */
static int projectile_views_clear(float time, int ship, int dcase)
{
    void *self = create_ok(L, 1);
    L->update(self, time);
    assert_true(L->key(self, 'p'));
    lesson_object o[8];
    int n = start_objects(L, self, o, 8);
    lesson_pick p;
    assert_true(click_world_point(L, self, object_by_id(o, n, ship)->shape.sphere.center, &p));
    assert_true(p.hit);
    ship = p.id;    /* the one in front when another hides its centre */
    for (int d = 0; d < dcase; ++d)
        assert_true(L->key(self, 'd'));
    start_objects(L, self, o, 8);   /* D moves the neighbour */
    const float *centre = object_by_id(o, n, ship)->shape.sphere.center;
    lesson_code_view cv;
    int views = 0;
    assert_true(L->code(self, &cv));
    for (int i = 0; i < cv.count; ++i, L->key(self, '.')) {
        assert_true(L->code(self, &cv) && cv.step);
        if (strncmp(cv.step->msg_id, STEP("hit"), strlen(STEP("hit"))) != 0 &&
            strncmp(cv.step->msg_id, STEP("point"), strlen(STEP("point"))) != 0)
            continue;
        lesson_camera cam;
        assert_true(L->frame(self, &cam));
        app_camera ac;
        app_camera_reset(&ac, &cam);
        vec3 eye;
        app_camera_eye(&ac, eye);
        for (int k = 0; k < n; ++k)
            if (o[k].id != ship && sight_blocked(eye, centre, &o[k].shape.sphere))
                fail_msg("time %g, D %d, step %d: %s stands in front of %s", (double)time, dcase, i + 1, o[k].name,
                         object_by_id(o, n, ship)->name);
        ++views;
    }
    L->destroy(self);
    return views;
}

static void the_projectile_steps_see_the_ship(void **state)
{
    (void)state;
    int views = 0;
    for (int t = 0; t < 12; ++t)
        for (int ship = 0; ship < 4; ++ship)
            for (int dcase = 0; dcase < 2; ++dcase)
                views += projectile_views_clear(0.5f * (float)t, ship, dcase);
    assert_true(views > 12 * 4 * 2);
}

/* Every step is framed on what it tests: the pair's two centres (the
   projectile's steps: the ship's centre and the projectile), in view and
   well apart on screen, the view across the line between them. The old
   step mode drew the same picture at every step. */
static void each_step_frames_the_pair_under_test(void **state)
{
    (void)state;
    void *self = create_ok(L, 1);
    assert_true(L->key(self, 'p'));
    lesson_object o[8];
    start_objects(L, self, o, 8);
    lesson_pick p;
    assert_true(click_world_point(L, self, o[0].shape.sphere.center, &p));
    lesson_code_view cv;
    assert_true(L->code(self, &cv));
    int framed_pair = 0, framed_shot = 0;
    lesson_camera first = {{0.0f, 0.0f, 0.0f}, 0.0f, 0.0f, 0.0f, 0.0f}, last = first;
    for (int i = 0; i < cv.count; ++i) {
        assert_true(L->code(self, &cv) && cv.step);
        lesson_camera cam;
        assert_true(L->frame(self, &cam));
        if (i == 0)
            first = cam;
        last = cam;
        bool shot = strncmp(cv.step->msg_id, STEP("hit"), strlen(STEP("hit"))) == 0 ||
                    strncmp(cv.step->msg_id, STEP("point"), strlen(STEP("point"))) == 0;
        vec2 pa, pb;
        assert_true(project_through(&cam, o[0].shape.sphere.center, pa));
        if (!shot) {
            assert_true(project_through(&cam, o[1].shape.sphere.center, pb));
            /* d in world units is at least a sixth of the view's height on screen */
            assert_true(glm_vec2_distance(pa, pb) > TEST_H / 6.0f);
            ++framed_pair;
        } else {
            ++framed_shot;
        }
        L->key(self, '.');
    }
    assert_true(framed_pair == 6 && framed_shot == 3);
    /* the projectile's steps look at another place than the pair's */
    assert_true(glm_vec3_distance(first.target, last.target) > 0.1f || fabsf(first.yaw - last.yaw) > 0.05f);
    assert_true(L->key(self, 'z'));
    lesson_camera cam;
    assert_false(L->frame(self, &cam));
    L->destroy(self);
}

/* A projectile inside a ship's sphere lights the ship cyan, as the legend
   says (it was orange, the legend's colour of a false alarm). */
static void a_hit_glows_the_legends_cyan(void **state)
{
    (void)state;
    void *self = create_ok(L, 1);
    char hud[1024];
    L->status(self, hud, sizeof hud);
    assert_non_null(strstr(hud, "cyan: a projectile inside a sphere"));
    assert_non_null(strstr(hud, "amber: a false alarm"));
    render_list list = {0};
    int glowing = 0;
    for (int f = 0; f < 600 && !glowing; ++f) {
        L->update(self, 1.0f / 60.0f);
        draw_once(L, self, &list);
        for (int i = 0; i < list.count; ++i) {
            const render_cmd *c = &list.cmds[i];
            if (c->kind != RENDER_CMD_SHAPE || c->u.shape.emissive[0] + c->u.shape.emissive[2] == 0.0f)
                continue;
            if (c->u.shape.emissive[0] > 0.7f)
                continue;   /* red: models overlapping unseen */
            assert_true(c->u.shape.emissive[2] > 2.0f * c->u.shape.emissive[0]);     /* blue over red: cyan */
            ++glowing;
        }
    }
    assert_true(glowing > 0);
    render_list_free(&list);
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

static float watch(const listing_step *s, const char *name)
{
    const listing_watch *w = listing_step_watch(s, name);
    assert_non_null(w);
    return w->v[0];
}

static void tour_moments_show_what_they_say(void **state)
{
    (void)state;
    lesson_pick p;
    lesson_code_view cv;
    char hud[1024];

    /* 1: the hauler and the probe overlap: overlapSpheres says so */
    void *self = stage_tour_moment(L, 0, &p);
    assert_non_null(self);
    assert_int_equal(p.id, 2);
    assert_int_equal(lesson_pick_field(&p, "partner")->value.i, 3);
    assert_true(L->code(self, &cv) && cv.step);
    assert_string_equal(cv.step->msg_id, STEP("overlap-yes"));
    L->destroy(self);

    /* 2: in the blind band the exact test says contact, the German
       shortcut apart */
    self = stage_tour_moment(L, 1, &p);
    assert_non_null(self);
    assert_true(L->code(self, &cv) && cv.step);
    assert_int_equal(cv.index, 3);
    assert_string_equal(cv.step->msg_id, STEP("ssc-apart"));
    assert_string_equal(cv.steps[1].msg_id, STEP("overlap-yes"));
    float d2 = watch(cv.step, "D3DXVec3LengthSq(&DistanceVector)");
    float r1 = watch(cv.step, "SphereSquareRadius1"), r2 = watch(cv.step, "SphereSquareRadius2");
    float sum = sqrtf(r1) + sqrtf(r2);
    assert_true(d2 >= r1 + r2 && d2 <= sum * sum);
    L->status(self, hud, sizeof hud);
    assert_non_null(strstr(hud, "this test: apart"));
    assert_non_null(strstr(hud, "exact: contact"));
    L->destroy(self);

    /* 3: the sqrt(2) test catches it */
    self = stage_tour_moment(L, 2, &p);
    assert_non_null(self);
    assert_true(L->code(self, &cv) && cv.step);
    assert_int_equal(cv.index, 5);
    assert_string_equal(cv.step->msg_id, STEP("ssc-collision"));
    assert_string_equal(cv.steps[3].msg_id, STEP("ssc-apart"));
    L->status(self, hud, sizeof hud);
    assert_non_null(strstr(hud, "test: shortcut, radii * sqrt(2) (M)"));
    assert_non_null(strstr(hud, "this test: contact"));
    L->destroy(self);

    /* 4: its price: a contact the exact test denies */
    self = stage_tour_moment(L, 3, &p);
    assert_non_null(self);
    assert_true(L->code(self, &cv) && cv.step);
    assert_int_equal(cv.index, 5);
    assert_string_equal(cv.steps[1].msg_id, STEP("overlap-no"));
    L->status(self, hud, sizeof hud);
    assert_non_null(strstr(hud, "this test: contact   exact: apart"));
    L->destroy(self);

    /* 5: touching: distance equals radiusSum squared, and <= says contact */
    self = stage_tour_moment(L, 4, &p);
    assert_non_null(self);
    assert_true(L->code(self, &cv) && cv.step);
    assert_string_equal(cv.step->msg_id, STEP("overlap-yes"));
    assert_true(watch(cv.step, "distance") == watch(cv.step, "radiusSum * radiusSum"));
    L->status(self, hud, sizeof hud);
    assert_non_null(strstr(hud, "test: exact: d^2 <= (ra+rb)^2 (M)"));
    L->destroy(self);
}

/* ------------------------------------------------------------ the inset */

/* lesson_fig_phrases breaks a line only in a gap of two or more spaces,
   where the next phrase would not fit; never at a single space; keeps the
   text's own line breaks; cuts short on whole characters. */
static void inset_phrases_break_between_phrases(void **state)
{
    (void)state;
    char out[64];
    const char *three = "a = 1   b = 2   c = 3";     /* 21 characters: 126 pixels at scale 1 */
    lesson_fig_phrases(three, 200.0f, 1.0f, out, sizeof out);
    assert_string_equal(out, three);
    lesson_fig_phrases(three, 100.0f, 1.0f, out, sizeof out);    /* "a = 1   b = 2": 78 pixels */
    assert_string_equal(out, "a = 1   b = 2\nc = 3");
    lesson_fig_phrases(three, 100.0f, 2.0f, out, sizeof out);
    assert_string_equal(out, "a = 1\nb = 2\nc = 3");
    lesson_fig_phrases(three, 10.0f, 1.0f, out, sizeof out);     /* a phrase alone wider: still whole */
    assert_string_equal(out, "a = 1\nb = 2\nc = 3");
    lesson_fig_phrases("one long phrase of words", 30.0f, 1.0f, out, sizeof out);
    assert_string_equal(out, "one long phrase of words");
    lesson_fig_phrases("a = 1\nb = 2   c = 3", 200.0f, 1.0f, out, sizeof out);
    assert_string_equal(out, "a = 1\nb = 2   c = 3");
    /* CJK counts double: two phrases of 3 (36 pixels each) and the gap (18)
       do not share 80 */
    lesson_fig_phrases("\xe5\x8c\x85\xe5\x9b\xb4\xe7\x90\x83   \xe5\x8c\x85\xe5\x9b\xb4\xe7\x90\x83", 80.0f, 1.0f,
                       out, sizeof out);
    assert_string_equal(out, "\xe5\x8c\x85\xe5\x9b\xb4\xe7\x90\x83\n\xe5\x8c\x85\xe5\x9b\xb4\xe7\x90\x83");
    char small[5];
    lesson_fig_phrases("\xe5\x8c\x85\xe5\x9b\xb4", 100.0f, 1.0f, small, sizeof small);
    assert_string_equal(small, "\xe5\x8c\x85");
    lesson_fig_phrases(three, 200.0f, 1.0f, small, sizeof small);
    assert_string_equal(small, "a = ");
}

/* The inset areas the app gives at 1280x720, 800x600 and 1920x1200
   (APP_AREAS of them), then a narrower one. */
static const lesson_figure_area areas[] = {
    {742.4f, 464.4f, 526.8f, 244.8f, 1.3238f},
    {464.0f, 387.0f, 327.0f, 204.0f, 1.0f},
    {1113.6f, 774.0f, 788.4f, 408.0f, 1.9716f},
    {0.0f, 0.0f, 240.0f, 200.0f, 1.0f},
};
enum { APP_AREAS = 3 };

/* The figure's text commands and lines of lesson 3 drawn into area. */
static void draw_figure(const void *self, const lesson_figure_area *area, render_list *list)
{
    render_view v;
    memset(&v, 0, sizeof v);
    v.width = 1920;
    v.height = 1200;
    render_list_reset(list, &v);
    L->figure(self, area, list);
}

static bool same_color(const vec4 a, float r, float g, float b)
{
    return fabsf(a[0] - r) < 1e-4f && fabsf(a[1] - g) < 1e-4f && fabsf(a[2] - b) < 1e-4f;
}

/* Tour moment 2 (the pair in the German shortcut's blind band), its inset
   at the sizes the app gives it (1280x720, 800x600, 1920x1200) and a
   narrower one: the numbers
   line breaks between its phrases only, each line fits the inset by
   lesson_fig_lines' estimate; the right triangle's legs carry "ra" (under
   the across leg, within its span) and "rb" (right of the upright leg, at
   its height), apart from the circles' own labels. */
static void inset_numbers_break_between_phrases_and_legs_are_labelled(void **state)
{
    (void)state;
    assert_true(msg_set_language("en"));
    static const char *const phrases[] = {"d = ", "ra + rb = ", "sqrt(ra^2 + rb^2) = ", "radii * sqrt(2): "};
    void *self = stage_tour_moment(L, 1, NULL);
    assert_non_null(self);
    render_list list = {0};
    int most_lines = 0;
    for (size_t k = 0; k < sizeof areas / sizeof areas[0]; ++k) {
        const lesson_figure_area *a = &areas[k];
        float ts = a->text_scale, max_w = a->w - 12.0f * ts;
        draw_figure(self, a, &list);
        const char *numbers = NULL;
        const render_cmd *across = NULL, *upright = NULL;
        for (int i = 0; i < list.count; ++i) {
            const render_cmd *c = &list.cmds[i];
            if (c->kind != RENDER_CMD_FIGURE)
                continue;
            if (c->u.figure.shape == RENDER_FIG_TEXT && strncmp(render_list_fig_string(&list, c), "d = ", 4) == 0)
                numbers = render_list_fig_string(&list, c);
            /* the triangle's legs: the first across line in ra's blue
               right of the circles, the upright one in rb's orange */
            if (c->u.figure.shape == RENDER_FIG_LINE && same_color(c->u.figure.color, 0.45f, 0.8f, 1.0f) &&
                c->u.figure.y0 == c->u.figure.y1 && !across)
                across = c;
            if (c->u.figure.shape == RENDER_FIG_LINE && same_color(c->u.figure.color, 1.0f, 0.6f, 0.25f) &&
                c->u.figure.x0 == c->u.figure.x1 && !upright)
                upright = c;
        }
        /* the numbers: every line one or more whole phrases, in order */
        assert_non_null(numbers);
        char copy[512];
        snprintf(copy, sizeof copy, "%s", numbers);
        int lines = 0;
        size_t next = 0;
        for (char *line = strtok(copy, "\n"); line; line = strtok(NULL, "\n"), ++lines) {
            if (lesson_fig_lines(line, max_w, ts) != 1)
                fail_msg("area %lu: \"%s\" does not fit %.1f pixels", (unsigned long)k, line, (double)max_w);
            if (next >= 4 || strncmp(line, phrases[next], strlen(phrases[next])) != 0)
                fail_msg("area %lu: line \"%s\" does not start a phrase", (unsigned long)k, line);
            for (const char *g = strstr(line, "   "); g; g = strstr(g + 3, "   "))
                ++next;         /* the phrases after it on the line */
            ++next;
            size_t len = strlen(line);
            assert_true(len > 0 && line[len - 1] != ' ' && line[0] != ' ');
        }
        assert_int_equal(next, 4);
        most_lines = lines > most_lines ? lines : most_lines;
        /* the legs and their labels */
        assert_non_null(across);
        assert_non_null(upright);
        assert_float_equal(upright->u.figure.x0, across->u.figure.x1, 1e-3f);
        bool ra_seen = false, rb_seen = false;
        for (int i = 0; i < list.count; ++i) {
            const render_cmd *c = &list.cmds[i];
            if (c->kind != RENDER_CMD_FIGURE || c->u.figure.shape != RENDER_FIG_TEXT)
                continue;
            const char *t = render_list_fig_string(&list, c);
            float x = c->u.figure.x0, y = c->u.figure.y0;
            if (strcmp(t, "ra") == 0 && x > across->u.figure.x0 && x < across->u.figure.x1 &&
                y > across->u.figure.y0 && y < across->u.figure.y0 + 8.0f * ts)
                ra_seen = true;
            float top = fminf(upright->u.figure.y0, upright->u.figure.y1);
            float bottom = fmaxf(upright->u.figure.y0, upright->u.figure.y1);
            if (strcmp(t, "rb") == 0 && x > upright->u.figure.x0 && x < upright->u.figure.x0 + 8.0f * ts &&
                y + 5.0f * ts > top && y + 5.0f * ts < bottom && x + 12.0f * ts <= a->x + a->w)
                rb_seen = true;
        }
        if (!ra_seen || !rb_seen)
            fail_msg("area %lu: the legs' labels: ra %d, rb %d", (unsigned long)k, ra_seen, rb_seen);
    }
    assert_true(most_lines >= 3);    /* the narrowest breaks the line twice */
    render_list_free(&list);
    L->destroy(self);
}

/* The labels on the inset's distance axis ("0", "sqrt(ra^2+rb^2)",
   "ra+rb", "sqrt(2)" and d's) never cover one another, by
   lesson_fig_width's measure (the font's width or more), and d's stays
   by its dot: at every tour moment (moment 4 puts d just past ra + rb,
   moment 5 on it: touching spheres) in the inset sizes of the app. */
static void axis_labels_leave_each_other_room(void **state)
{
    (void)state;
    assert_true(msg_set_language("en"));
    render_list list = {0};
    for (int m = 0; m < L->tour_count; ++m) {
        void *self = stage_tour_moment(L, m, NULL);
        assert_non_null(self);
        for (size_t k = 0; k < APP_AREAS; ++k) {
            float ts = areas[k].text_scale;
            draw_figure(self, &areas[k], &list);
            /* the axis's labels: the texts from "0" to the numbers line */
            const render_cmd *label[8], *dot = NULL;
            int n = 0;
            bool on_axis = false;
            for (int i = 0; i < list.count; ++i) {
                const render_cmd *c = &list.cmds[i];
                if (c->kind != RENDER_CMD_FIGURE)
                    continue;
                const char *t = render_list_fig_string(&list, c);
                if (c->u.figure.shape == RENDER_FIG_TEXT && strcmp(t, "0") == 0)
                    on_axis = true;
                if (c->u.figure.shape == RENDER_FIG_TEXT && strncmp(t, "d = ", 4) == 0)
                    break;
                if (on_axis && c->u.figure.shape == RENDER_FIG_CIRCLE && c->u.figure.width == 0.0f)
                    dot = c;
                if (on_axis && c->u.figure.shape == RENDER_FIG_TEXT && n < 8)
                    label[n++] = c;
            }
            assert_int_equal(n, 5);
            assert_non_null(dot);
            for (int i = 0; i < n; ++i) {
                const char *ti = render_list_fig_string(&list, label[i]);
                float xi = label[i]->u.figure.x0, yi = label[i]->u.figure.y0;
                float wi = lesson_fig_width(ti, ts);
                for (int j = i + 1; j < n; ++j) {
                    const char *tj = render_list_fig_string(&list, label[j]);
                    float xj = label[j]->u.figure.x0, yj = label[j]->u.figure.y0;
                    float wj = lesson_fig_width(tj, ts);
                    bool apart = fabsf(xi - xj) >= 0.5f * (wi + wj) ||
                                 fabsf(yi - yj) >= LESSON_FIG_LINE * ts;
                    if (!apart)
                        fail_msg("moment %d, area %lu: \"%s\" at (%.1f, %.1f) covers \"%s\" at (%.1f, %.1f)",
                                 m + 1, (unsigned long)k, ti, (double)xi, (double)yi, tj, (double)xj, (double)yj);
                }
                if (strcmp(ti, "d") == 0 && fabsf(xi - dot->u.figure.x0) > 40.0f * ts)
                    fail_msg("moment %d, area %lu: d's label %.1f pixels from its dot", m + 1, (unsigned long)k,
                             (double)fabsf(xi - dot->u.figure.x0));
            }
        }
        L->destroy(self);
    }
    render_list_free(&list);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_articles_tests_agree_with_the_library),
        cmocka_unit_test(the_articles_mistakes_are_kept),
        cmocka_unit_test(every_step_names_its_line),
        cmocka_unit_test(each_step_frames_the_pair_under_test),
        cmocka_unit_test(the_projectile_steps_see_the_ship),
        cmocka_unit_test(a_hit_glows_the_legends_cyan),
        cmocka_unit_test(tour_moments_are_valid),
        cmocka_unit_test(tour_moments_show_what_they_say),
        cmocka_unit_test(inset_phrases_break_between_phrases),
        cmocka_unit_test(inset_numbers_break_between_phrases_and_legs_are_labelled),
        cmocka_unit_test(axis_labels_leave_each_other_room),
    };
    return cmocka_run_group_tests_name("lesson3_listing", tests, NULL, NULL);
}

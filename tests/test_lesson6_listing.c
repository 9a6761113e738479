/* test_lesson6_listing.c: lesson 6's listing (marquee selection as an XNA 4
 * game writes it, src/lessons/listings/lesson6_xna_marquee.c) against the
 * library: its frustum is the one rp_frustum_from_rect makes, its Contains
 * is the library's plane-by-plane test, and its selection is the
 * library's rp_scene_query_frustum and a brute-force loop, on random
 * rectangles over hundreds of random spheres; the lesson runs it on every
 * rectangle and selects the same units; every step a rectangle records
 * names a line of the shown listing that holds what it watches; and the
 * tour's step-mode moments. No GL, no SDL. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "lesson_test_util.h"
#include "lesson6_xna_marquee.h"
#include "lessons.h"

#define UNITS 8
#define SPHERES 300
#define STEPS_CAP 4096
#define TIE 1e-3f       /* world units: a sphere this close to touching may go either way */

static const lesson *L6(void)
{
    const lessons_entry *e = lessons_get(6);
    assert_non_null(e);
    assert_string_equal(e->name, "hover-drag-select");
    return e->lesson;
}

static uint32_t next(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

static float uniform(uint32_t *s, float lo, float hi)
{
    return lo + (hi - lo) * (float)next(s) / (float)(1u << 24);
}

/* The listing's context for the lesson's start camera and a test's units. */
typedef struct fixture {
    Unit units[SPHERES];
    rp_sphere spheres[SPHERES];
    bool selected[SPHERES];
    listing_step steps[STEPS_CAP];
    listing_trace trace;
    Selection sel;
    rp_scene *scene;
} fixture;

static int setup(void **state)
{
    static fixture f;
    memset(&f, 0, sizeof f);
    uint32_t seed = 32u;
    f.scene = rp_scene_create();
    if (!f.scene)
        return -1;
    for (int i = 0; i < SPHERES; ++i) {
        rp_sphere s = {{uniform(&seed, -26.0f, 26.0f), uniform(&seed, -1.0f, 9.0f), uniform(&seed, -26.0f, 26.0f)},
                       uniform(&seed, 0.2f, 2.5f)};
        uint32_t layer = 1u << (next(&seed) % 2);
        f.spheres[i] = s;
        f.units[i] = (Unit){{{s.center[0], s.center[1], s.center[2]}, s.radius}, layer};
        if (rp_scene_add_sphere(f.scene, &s) != i || !rp_scene_set_mask(f.scene, i, layer))
            return -1;
    }
    if (!rp_scene_build(f.scene))
        return -1;
    f.sel.viewport = (rp_viewport){0.0f, 0.0f, TEST_W, TEST_H};
    vec3 eye;
    start_camera(L6(), f.sel.view, f.sel.projection, eye);
    f.sel.units = f.units;
    f.sel.unitCount = SPHERES;
    f.sel.selectableLayers = 3u;
    f.sel.selected = f.selected;
    f.sel.trace = &f.trace;
    listing_trace_reset(&f.trace, f.steps, STEPS_CAP);
    *state = &f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    rp_scene_destroy(f->scene);
    return 0;
}

static Vector3 V(const float *p) { return (Vector3){p[0], p[1], p[2]}; }

/* The sphere is within TIE of changing test's answer (of touching f, of
   being wholly inside a plane...): the listing's float frustum and the
   library's double one may answer it differently. */
static bool near_tie(bool (*test)(const rp_frustum *, const rp_sphere *), const rp_frustum *f, const rp_sphere *s)
{
    rp_sphere bigger = *s, smaller = *s;
    bigger.radius += TIE;
    smaller.radius -= TIE;
    return test(f, &bigger) != test(f, &smaller);
}

/* ------------------------------------------------------------ the frustum */

/* The listing's frustum is the library's for the same rectangle: its
   corners are rp_frustum_from_rect's (GetCorners order against the
   library's bits), every plane has a unit Normal facing out (the library's
   inward normal negated), passes through its four corners, and has the
   frustum's middle behind it. */
static void the_frustum_is_the_librarys(void **state)
{
    fixture *f = *state;
    static const int bits[8] = {2, 3, 1, 0, 6, 7, 5, 4};   /* GetCorners i -> the library's corner */
    uint32_t seed = 7u;
    for (int k = 0; k < 200; ++k) {
        float x0 = uniform(&seed, 0.0f, TEST_W), y0 = uniform(&seed, 0.0f, TEST_H);
        float x1 = uniform(&seed, 0.0f, TEST_W), y1 = uniform(&seed, 0.0f, TEST_H);
        if (fabsf(x1 - x0) < 2.0f || fabsf(y1 - y0) < 2.0f)
            continue;
        listing_trace_reset(&f->trace, f->steps, STEPS_CAP);
        Rectangle rect = GetSelectionRectangle(&f->sel, (Vector2){x0, y0}, (Vector2){x1, y1});
        BoundingFrustum mine = GetSelectionFrustum(&f->sel, rect);
        rp_frustum lib;
        assert_true(rp_frustum_from_rect(x0, y0, x1, y1, &f->sel.viewport, f->sel.projection, f->sel.view, RP_GL,
                                         &lib));
        vec3 middle = {0};
        for (int i = 0; i < 8; ++i) {
            vec3 c = {mine.Corners[i].X, mine.Corners[i].Y, mine.Corners[i].Z};
            float scale = 1.0f + glm_vec3_norm(lib.corners[bits[i]]);
            assert_true(vec3_dist(c, lib.corners[bits[i]]) < 1e-4f * scale);
            glm_vec3_muladds(c, 0.125f, middle);
        }
        const Plane *planes[6] = {&mine.Left, &mine.Right, &mine.Bottom, &mine.Top, &mine.Near, &mine.Far};
        for (int p = 0; p < 6; ++p) {
            Vector3 n = planes[p]->Normal;
            assert_true(fabsf(sqrtf(n.X * n.X + n.Y * n.Y + n.Z * n.Z) - 1.0f) < 1e-5f);
            vec3 inward = {-n.X, -n.Y, -n.Z};
            assert_true(glm_vec3_dot(inward, lib.planes[p].normal) > 0.9999f);
            assert_true(DotCoordinate(*planes[p], V(middle)) < 0.0f);
        }
        /* each corner lies on the three planes that meet there */
        for (int i = 0; i < 8; ++i) {
            int b = bits[i];
            const Plane *on[3] = {(b & 1) ? &mine.Right : &mine.Left, (b & 2) ? &mine.Top : &mine.Bottom,
                                  (b & 4) ? &mine.Far : &mine.Near};
            float scale = 1.0f + glm_vec3_norm(lib.corners[b]);
            for (int p = 0; p < 3; ++p)
                assert_true(fabsf(DotCoordinate(*on[p], mine.Corners[i])) < 1e-4f * scale);
        }
    }
}

/* ------------------------------------------------------------ the selection */

/* Contains is the library's plane-by-plane test: Disjoint exactly when
   rp_test_frustum_sphere_conservative says no, Contains exactly when
   rp_frustum_contains_sphere says yes (a sphere within TIE of a plane
   aside); and SelectUnits selects what rp_scene_query_frustum selects with
   the same layers and what a loop of rp_test_frustum_sphere_exact
   selects, rectangle after rectangle (any corner order, some past the
   window's edges, some empty). Of its Intersects answers some are spheres
   beside an edge or corner that the exact test leaves out. */
static void the_listing_selects_what_the_library_selects(void **state)
{
    fixture *f = *state;
    static const uint32_t layer_choices[] = {3u, 1u, 2u};
    uint32_t seed = 6u;
    int rects = 0, empties = 0, selected = 0, ties = 0, corner_cases = 0, contained = 0;
    int found[SPHERES];
    for (int k = 0; k < 400; ++k) {
        float x0 = uniform(&seed, -80.0f, TEST_W + 80.0f), y0 = uniform(&seed, -80.0f, TEST_H + 80.0f);
        float x1 = uniform(&seed, -80.0f, TEST_W + 80.0f), y1 = uniform(&seed, -80.0f, TEST_H + 80.0f);
        if (k % 25 == 0)
            x1 = x0;        /* a click: nothing */
        uint32_t layers = layer_choices[k % 3];
        f->sel.selectableLayers = layers;
        listing_trace_reset(&f->trace, f->steps, STEPS_CAP);
        int count = SelectUnits(&f->sel, (Vector2){x0, y0}, (Vector2){x1, y1});
        assert_int_equal(f->trace.dropped, 0);
        rp_frustum fr;
        if (!rp_frustum_from_rect(x0, y0, x1, y1, &f->sel.viewport, f->sel.projection, f->sel.view, RP_GL, &fr)) {
            assert_int_equal(count, 0);
            for (int i = 0; i < SPHERES; ++i)
                assert_false(f->selected[i]);
            ++empties;
            continue;
        }
        ++rects;
        rp_scene_query q = {0};
        q.layers = layers;
        size_t n = rp_scene_query_frustum(f->scene, &fr, &q, found, SPHERES);
        assert_true(n <= SPHERES);
        bool by_query[SPHERES] = {0};
        for (size_t j = 0; j < n; ++j)
            by_query[found[j]] = true;
        /* the listing's frustum, for its Contains sphere by sphere */
        listing_trace quiet;
        listing_trace_reset(&quiet, NULL, 0);
        Selection s2 = f->sel;
        s2.trace = &quiet;
        Rectangle rect = GetSelectionRectangle(&s2, (Vector2){x0, y0}, (Vector2){x1, y1});
        BoundingFrustum frustum = GetSelectionFrustum(&s2, rect);
        int mine = 0;
        for (int i = 0; i < SPHERES; ++i) {
            const rp_sphere *s = &f->spheres[i];
            bool pickable = (f->units[i].Layer & layers) != 0;
            bool loop = pickable && rp_test_frustum_sphere_exact(&fr, s);
            bool tie = near_tie(rp_test_frustum_sphere_exact, &fr, s);
            ties += tie;
            if (!tie) {
                assert_true(f->selected[i] == by_query[i]);
                assert_true(f->selected[i] == loop);
            }
            mine += f->selected[i];
            /* Contains, plane by plane, is the library's conservative test */
            ContainmentType c = Contains(&s2, &frustum, f->units[i].BoundingSphere);
            if (!near_tie(rp_test_frustum_sphere_conservative, &fr, s))
                assert_true((c != ContainmentType_Disjoint) == rp_test_frustum_sphere_conservative(&fr, s));
            if (!near_tie(rp_frustum_contains_sphere, &fr, s))
                assert_true((c == ContainmentType_Contains) == rp_frustum_contains_sphere(&fr, s));
            if (!tie && c == ContainmentType_Intersects && !rp_test_frustum_sphere_exact(&fr, s))
                ++corner_cases;
            contained += c == ContainmentType_Contains;
        }
        assert_int_equal(count, mine);
        selected += count > 0;
    }
    /* enough of everything to mean something */
    assert_true(rects >= 300 && empties >= 10);
    assert_true(selected >= 300);
    assert_true(corner_cases >= 40 && contained >= 2000);
    /* ties are rare: a sphere within a millimetre of a plane */
    assert_true(ties <= 20);
}

/* Contains plane by plane is conservative: a sphere beside a corner of the
   frustum is partly outside two planes and wholly outside none, so it says
   Intersects; the exact test finds no common point. The tour's corner. */
static void a_sphere_beside_a_corner_is_left_out(void **state)
{
    fixture *f = *state;
    f->sel.selectableLayers = 3u;
    listing_trace_reset(&f->trace, f->steps, STEPS_CAP);
    Rectangle rect = GetSelectionRectangle(&f->sel, (Vector2){100.0f, 100.0f}, (Vector2){400.0f, 300.0f});
    BoundingFrustum frustum = GetSelectionFrustum(&f->sel, rect);
    /* a point outside the top right edge, at depth 0.99 (far from the
       camera: the edge between the Right and the Top plane), and a sphere
       around it touching neither plane's far side */
    vec3 beyond;
    assert_true(rp_unproject_point(412.0f, 88.0f, 0.995f, &f->sel.viewport, f->sel.projection, f->sel.view, RP_GL,
                                   beyond));
    float dr = DotCoordinate(frustum.Right, V(beyond)), dt = DotCoordinate(frustum.Top, V(beyond));
    assert_true(dr > 0.0f && dt > 0.0f);
    BoundingSphere sphere = {V(beyond), 1.02f * glm_max(dr, dt)};
    assert_true(sphere.Radius < sqrtf(dr * dr + dt * dt));
    assert_int_equal(Contains(&f->sel, &frustum, sphere), ContainmentType_Intersects);
    assert_false(Intersects(&frustum, sphere));
    /* the library: the conservative test says yes, the exact one no */
    rp_frustum fr;
    assert_true(rp_frustum_from_rect(100.0f, 100.0f, 400.0f, 300.0f, &f->sel.viewport, f->sel.projection,
                                     f->sel.view, RP_GL, &fr));
    rp_sphere s = {{beyond[0], beyond[1], beyond[2]}, sphere.Radius};
    assert_true(rp_test_frustum_sphere_conservative(&fr, &s));
    assert_false(rp_test_frustum_sphere_exact(&fr, &s));
}

/* ------------------------------------------------------------ the lesson */

static bool pointer_at(void *self, lesson_pointer_phase phase, float px, float py, lesson_pick *out)
{
    lesson_click c;
    assert_true(make_click(L6(), self, px, py, &c));
    memset(out, 0, sizeof *out);
    return L6()->pointer(self, phase, &c, out);
}

/* press on the ground at (x0, y0), drag, release at (x1, y1); false when
   the press picks a unit or path (no rectangle) */
static bool marquee(void *self, float x0, float y0, float x1, float y1, lesson_pick *pick)
{
    lesson_click c;
    assert_true(make_click(L6(), self, x0, y0, &c));
    L6()->click(self, &c, pick);
    if (pick->hit)
        return false;
    assert_true(pointer_at(self, LESSON_POINTER_DRAG, (x0 + x1) * 0.5f, (y0 + y1) * 0.5f, pick));
    assert_true(pointer_at(self, LESSON_POINTER_RELEASE, x1, y1, pick));
    return true;
}

static void same_ints(const lesson_field *a, const lesson_field *b)
{
    assert_non_null(a);
    assert_non_null(b);
    assert_int_equal(a->count, b->count);
    for (int j = 0; j < a->count; ++j)
        assert_int_equal(a->value.ints[j], b->value.ints[j]);
}

/* The lesson runs the listing on every rectangle: under each of L's
   choices its selection is the library query's, and its steps are the
   ones the code panel shows (all of them: none dropped). */
static void the_lesson_runs_the_listing_on_every_rectangle(void **state)
{
    (void)state;
    void *self = create_ok(L6(), 1);
    assert_non_null(self);
    uint32_t seed = 60u;
    int tried = 0, nonempty = 0;
    for (int choice = 0; choice < 4; ++choice) {
        for (int k = 0; k < 40; ++k) {
            float x0 = uniform(&seed, 0.0f, TEST_W - 1.0f), y0 = uniform(&seed, 0.0f, TEST_H - 1.0f);
            float x1 = uniform(&seed, -60.0f, TEST_W + 60.0f), y1 = uniform(&seed, -60.0f, TEST_H + 60.0f);
            lesson_pick pick;
            if (!marquee(self, x0, y0, x1, y1, &pick))
                continue;
            ++tried;
            const lesson_field *agrees = lesson_pick_field(&pick, "listing_agrees");
            assert_non_null(agrees);
            assert_true(agrees->value.b);
            same_ints(lesson_pick_field(&pick, "listing_selected"), lesson_pick_field(&pick, "selected"));
            nonempty += lesson_pick_field(&pick, "selected")->count > 0;
            lesson_code_view cv;
            assert_true(L6()->code(self, &cv));
            assert_ptr_equal(cv.code, &listing_lesson6_xna_marquee);
            assert_int_equal(cv.count, lesson_pick_field(&pick, "steps")->value.i);
            assert_true(cv.count >= 2 && cv.count <= MARQUEE_STEPS(UNITS));
            assert_null(cv.step);   /* step mode is off */
        }
        assert_true(L6()->key(self, 'l'));
    }
    assert_true(tried >= 100 && nonempty >= 30);
    /* a press on a unit (a grab) ends the rectangle's steps */
    lesson_object o[16];
    start_objects(L6(), self, o, 16);
    assert_true(click_world_point(L6(), self, o[0].shape.sphere.center, &(lesson_pick){0}));
    lesson_code_view cv;
    assert_true(L6()->code(self, &cv));
    assert_int_equal(cv.count, 0);
    L6()->destroy(self);
}

/* ------------------------------------------------------------ steps -> lines */

static void check_steps_name_their_lines(const void *self)
{
    char why[1200];
    if (!steps_name_their_lines(L6(), self, why, sizeof why))
        fail_msg("%s", why);
}

/* The steps are the code that ran, in order: the rectangle, then (unless
   it is empty) its corners and planes, then per unit either the layer
   skip or Contains's planes (up to the first that leaves the sphere
   out), the exact test after an Intersects, and the verdict, which is
   the unit's selection. */
static void check_step_order(const void *self, const lesson_pick *pick)
{
    lesson_code_view cv;
    assert_true(L6()->code(self, &cv));
    const listing_step *s = cv.steps;
    int k = 0;
    assert_non_null(strstr(s[k++].msg_id, ".step.rectangle"));
    if (k < cv.count && strstr(s[k].msg_id, ".step.empty")) {
        assert_int_equal(cv.count, 2);
        return;
    }
    assert_non_null(strstr(s[k++].msg_id, ".step.near-corners"));
    assert_non_null(strstr(s[k++].msg_id, ".step.far-corners"));
    assert_non_null(strstr(s[k++].msg_id, ".step.planes"));
    bool chosen[UNITS] = {0};
    const lesson_field *sel = lesson_pick_field(pick, "selected");
    for (int j = 0; j < sel->count; ++j)
        chosen[sel->value.ints[j]] = true;
    for (int unit = 0; unit < UNITS; ++unit) {
        assert_true(k < cv.count);
        if (strstr(s[k].msg_id, ".step.layer")) {
            assert_int_equal(listing_step_watch(&s[k++], "i")->i, unit);
            assert_false(chosen[unit]);
            continue;
        }
        int planes = 0, inside = 0;
        bool out = false;
        while (k < cv.count && strstr(s[k].msg_id, ".step.plane-")) {
            assert_int_equal(listing_step_watch(&s[k], "p")->i, planes);
            assert_int_equal(listing_step_watch(&s[k], "inside")->i, inside);
            out = strstr(s[k].msg_id, "plane-outside") != NULL;
            inside += strstr(s[k].msg_id, "plane-inside") != NULL;
            ++planes;
            ++k;
            if (out)
                break;
        }
        assert_true(planes >= 1 && (out || planes == 6));
        bool exact = k < cv.count && strstr(s[k].msg_id, ".step.exact-");
        if (exact) {
            assert_false(out || inside == 6);
            assert_int_equal(listing_step_watch(&s[k++], "i")->i, unit);
        }
        assert_true(k < cv.count);
        assert_int_equal(listing_step_watch(&s[k], "i")->i, unit);
        const char *verdict = s[k].msg_id;
        assert_true(listing_step_watch(&s[k], "self->selected[i]")->i == (chosen[unit] ? 1 : 0));
        if (out)
            assert_non_null(strstr(verdict, "unit-disjoint"));
        else if (inside == 6)
            assert_non_null(strstr(verdict, "unit-contains"));
        else
            assert_true(exact);
        ++k;
    }
    assert_int_equal(k, cv.count);
}

static void every_step_names_its_line(void **state)
{
    (void)state;
    static const char keys[][3] = {"", "l", "ll", "lll"};   /* all, units, paths (none), blue */
    static const float rects[][4] = {
        {0.03f, 0.47f, 0.52f, 0.72f},       /* the tour's: Contains, Intersects, a corner */
        {0.98f, 0.98f, 0.02f, 0.05f},       /* almost everything, corners reversed */
        {0.40f, 0.90f, 1.20f, -0.3f},       /* past the window's edges */
        {0.10f, 0.90f, 0.10f, 0.90f},       /* a click: empty */
        {0.45f, 0.95f, 0.46f, 0.96f},       /* a few pixels of ground */
    };
    int steps_seen = 0;
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; ++k)
        for (size_t r = 0; r < sizeof rects / sizeof rects[0]; ++r) {
            void *self = create_ok(L6(), 1);
            assert_non_null(self);
            assert_true(L6()->key(self, 'p'));
            for (const char *key = keys[k]; *key; ++key)
                assert_true(L6()->key(self, *key));
            lesson_pick pick;
            assert_true(marquee(self, rects[r][0] * TEST_W, rects[r][1] * TEST_H, rects[r][2] * TEST_W,
                                rects[r][3] * TEST_H, &pick));
            check_steps_name_their_lines(self);
            check_step_order(self, &pick);
            lesson_code_view cv;
            assert_true(L6()->code(self, &cv) && cv.step);
            assert_int_equal(cv.index, 0);
            steps_seen += cv.count;
            /* '.' walks the steps, ',' back */
            for (int i = 1; i < cv.count; ++i)
                assert_true(L6()->key(self, '.'));
            assert_true(L6()->code(self, &cv) && cv.step);
            assert_int_equal(cv.index, cv.count - 1);
            assert_true(L6()->key(self, ','));
            assert_true(L6()->code(self, &cv) && cv.index == cv.count - 2);
            L6()->destroy(self);
        }
    assert_true(steps_seen >= 300);
}

/* The check above fails when a step lights the wrong line. */
static listing_step fake_steps[1];

static bool fake_code(const void *self, lesson_code_view *out)
{
    (void)self;
    memset(out, 0, sizeof *out);
    out->code = &listing_lesson6_xna_marquee;
    out->steps = fake_steps;
    out->count = 1;
    return true;
}

static void a_step_on_the_wrong_line_is_caught(void **state)
{
    (void)state;
    const lesson fake = {.number = 99, .code = fake_code};
    char why[1200];
    const listing *l = &listing_lesson6_xna_marquee;
    int distance_line = 0, rect_line = 0;
    for (int src = 1; src <= l->source_line_count; ++src) {
        const char *text = listing_line_text(l, listing_display_line(l, src));
        if (!distance_line && text && strstr(text, "float distance ="))
            distance_line = src;
        if (!rect_line && text && strstr(text, "rect = Intersect("))
            rect_line = src;
    }
    assert_true(distance_line > 0 && rect_line > 0);
    fake_steps[0] = (listing_step){distance_line, "lesson.hover-drag-select.step.plane-inside", 1,
                                   {WATCH_F("distance", -3.0f)}};
    assert_true(steps_name_their_lines(&fake, NULL, why, sizeof why));
    fake_steps[0].source_line = rect_line;
    assert_false(steps_name_their_lines(&fake, NULL, why, sizeof why));
    fake_steps[0].source_line = distance_line;
    fake_steps[0].msg_id = "lesson.hover-drag-select.step.no-such-sentence";
    assert_false(steps_name_their_lines(&fake, NULL, why, sizeof why));
}

/* ------------------------------------------------------------ step mode in the scene */

/* While a step is shown the released rectangle stays drawn (four lines in
   pixels) and the unit the step is about gets a ring; with step mode off
   nothing stays after the release. */
static void step_mode_shows_the_rectangle_and_the_steps_unit(void **state)
{
    (void)state;
    render_list list;
    memset(&list, 0, sizeof list);
    for (int on = 0; on < 2; ++on) {
        void *self = create_ok(L6(), 1);
        assert_non_null(self);
        if (on)
            assert_true(L6()->key(self, 'p'));
        lesson_pick pick;
        assert_true(marquee(self, 0.03f * TEST_W, 0.47f * TEST_H, 0.52f * TEST_W, 0.72f * TEST_H, &pick));
        draw_once(L6(), self, &list);
        int figure_lines = count_cmds(&list, RENDER_CMD_FIGURE);
        int lines_before = count_cmds(&list, RENDER_CMD_LINE);
        char buf[1024];
        L6()->status(self, buf, sizeof buf);
        if (!on) {
            assert_int_equal(figure_lines, 0);
            assert_non_null(strstr(buf, "P: step through"));
            L6()->destroy(self);
            continue;
        }
        assert_true(figure_lines >= 4);
        assert_non_null(strstr(buf, ". next"));
        /* walk to the first unit's first plane: a ring (32 lines) more than before */
        lesson_code_view cv;
        while (L6()->code(self, &cv) && cv.step && !strstr(cv.step->msg_id, ".step.plane-"))
            assert_true(L6()->key(self, '.'));
        draw_once(L6(), self, &list);
        assert_int_equal(count_cmds(&list, RENDER_CMD_LINE), lines_before + 32);
        L6()->destroy(self);
    }
    render_list_free(&list);
}

/* ------------------------------------------------------------ the tour */

static int tour_moment(const char *sentence)
{
    const lesson *l = L6();
    for (int m = 0; m < l->tour_count; ++m)
        if (strcmp(l->tour[m].sentence, sentence) == 0)
            return m;
    fail_msg("no tour moment %s", sentence);
    return -1;
}

/* The step-mode moments: staged as the app stages them, each stops at the
   step its sentence is about, the step's unit is the one meant, and the
   selection is the library's. */
static void tour_step_moments_show_what_they_say(void **state)
{
    (void)state;
    const lesson *l = L6();
    lesson_pick p;
    lesson_code_view cv;

    int m = tour_moment("lesson.hover-drag-select.tour.steps");
    void *self = stage_tour_moment(l, m, &p);
    assert_non_null(self);
    assert_true(l->code(self, &cv) && cv.step);
    assert_string_equal(cv.step->msg_id, "lesson.hover-drag-select.step.unit-contains");
    int unit = listing_step_watch(cv.step, "i")->i;
    assert_true(lesson_pick_field(&p, "listing_agrees")->value.b);
    const lesson_field *sel = lesson_pick_field(&p, "selected");
    assert_true(sel->count >= 2);
    bool in = false;
    for (int j = 0; j < sel->count; ++j)
        in = in || sel->value.ints[j] == unit;
    assert_true(in);
    /* the step before it: the sixth plane, all six holding the sphere */
    const listing_step *before = &cv.steps[cv.index - 1];
    assert_int_equal(listing_step_watch(before, "p")->i, 5);
    assert_int_equal(listing_step_watch(before, "inside")->i, 5);
    assert_string_equal(before->msg_id, "lesson.hover-drag-select.step.plane-inside");
    /* the rectangle lies left of the code panel (42% of the width) */
    assert_true(l->tour[m].clicks[0].to_fx < 0.58f && l->tour[m].clicks[0].fx < 0.58f);
    l->destroy(self);

    m = tour_moment("lesson.hover-drag-select.tour.corner");
    self = stage_tour_moment(l, m, &p);
    assert_non_null(self);
    assert_true(l->code(self, &cv) && cv.step);
    assert_string_equal(cv.step->msg_id, "lesson.hover-drag-select.step.exact-misses");
    unit = listing_step_watch(cv.step, "i")->i;
    sel = lesson_pick_field(&p, "selected");
    for (int j = 0; j < sel->count; ++j)
        assert_int_not_equal(sel->value.ints[j], unit);
    /* the library agrees: the conservative test says yes, the exact one no */
    lesson_object o[16];
    start_objects(l, self, o, 16);
    const lesson_tour_click *c = &l->tour[m].clicks[0];
    mat4 view, proj;
    vec3 eye;
    start_camera(l, view, proj, eye);
    rp_viewport vp = {0.0f, 0.0f, TEST_W, TEST_H};
    rp_frustum fr;
    assert_true(rp_frustum_from_rect(c->fx * TEST_W, c->fy * TEST_H, c->to_fx * TEST_W, c->to_fy * TEST_H, &vp, proj,
                                     view, RP_GL, &fr));
    assert_true(rp_test_frustum_sphere_conservative(&fr, &o[unit].shape.sphere));
    assert_false(rp_test_frustum_sphere_exact(&fr, &o[unit].shape.sphere));
    l->destroy(self);
}

int main(void)
{
    msg_set_language("en");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(the_frustum_is_the_librarys, setup, teardown),
        cmocka_unit_test_setup_teardown(the_listing_selects_what_the_library_selects, setup, teardown),
        cmocka_unit_test_setup_teardown(a_sphere_beside_a_corner_is_left_out, setup, teardown),
        cmocka_unit_test(the_lesson_runs_the_listing_on_every_rectangle),
        cmocka_unit_test(every_step_names_its_line),
        cmocka_unit_test(a_step_on_the_wrong_line_is_caught),
        cmocka_unit_test(step_mode_shows_the_rectangle_and_the_steps_unit),
        cmocka_unit_test(tour_step_moments_show_what_they_say),
    };
    return cmocka_run_group_tests_name("lesson6_listing", tests, NULL, NULL);
}

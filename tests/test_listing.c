/* test_listing.c: the teaching infrastructure every lesson uses
 * (src/lessons/listing.h, lesson.h): the step recorder (capacity, dropped
 * steps, watches, bounds), the watches' formatting, the embedded listings'
 * source -> display line tables, and labels that do not pile up. No GL, no
 * SDL. (Lesson 4's own listing against the library: test_lesson4_listing.c.) */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "lesson.h"
#include "lesson4_xna_recipe.h"
#include "msg.h"

/* ------------------------------------------------------------ recorder */

static void steps_are_kept_up_to_the_capacity_then_counted(void **state)
{
    (void)state;
    listing_step buf[3];
    listing_trace t;
    listing_trace_reset(&t, buf, 3);
    for (int i = 0; i < 5; ++i)
        LISTING_STEP(&t, "test.step", WATCH_I("i", i), WATCH_F("half", 0.5f * (float)i));
    assert_int_equal(t.count, 3);
    assert_int_equal(t.dropped, 2);
    assert_false(t.stopped);
    assert_string_equal(buf[2].msg_id, "test.step");
    assert_int_equal(buf[2].watch_count, 2);
    assert_int_equal(listing_step_watch(&buf[2], "i")->i, 2);
    assert_float_equal(listing_step_watch(&buf[2], "half")->v[0], 1.0f, 0.0f);
    assert_null(listing_step_watch(&buf[2], "j"));
    /* the line of the statement: __LINE__ where it stands */
    int line = __LINE__ + 1;
    LISTING_STEP(&t, "test.step", WATCH_B("flag", 1));
    assert_int_equal(t.dropped, 3);
    listing_trace_reset(&t, buf, 3);
    LISTING_STEP(&t, "test.line", WATCH_B("flag", 1));
    assert_int_equal(buf[0].source_line, line + 3);
    /* a trace without a buffer counts only */
    listing_trace_reset(&t, NULL, 0);
    LISTING_STEP(&t, "test.step", WATCH_I("i", 1));
    assert_int_equal(t.count, 0);
    assert_int_equal(t.dropped, 1);
    listing_step_add(NULL, 1, "test.step", NULL, 0);     /* no trace: nothing */
}

/* A loop the tutorial never ends, bounded by the lesson: it stops after
   the limit, records the step with the turns that ran, and says so. */
static int endless(listing_trace *t, int limit)
{
    int turns_done = 0;
    LISTING_LOOP(turns);
    while (turns_done >= 0) {
        LISTING_BOUND(t, turns, limit, "test.bound");
        ++turns_done;
    }
    return turns_done;
}

static void a_bound_stops_a_loop_and_says_so(void **state)
{
    (void)state;
    listing_step buf[4];
    listing_trace t;
    listing_trace_reset(&t, buf, 4);
    assert_int_equal(endless(&t, 48), 48);
    assert_true(t.stopped);
    assert_int_equal(t.count, 1);
    assert_string_equal(buf[0].msg_id, "test.bound");
    assert_int_equal(listing_step_watch(&buf[0], "turns")->i, 48);
    assert_false(listing_bound(&t, 1, "test.bound", 3, 3));  /* the limit itself still runs */
    assert_true(listing_bound(NULL, 1, "test.bound", 4, 3));  /* without a trace it still stops */
}

static void watches_are_formatted_when_shown(void **state)
{
    (void)state;
    char buf[64];
    listing_watch w = WATCH_F("x", 0.0123456f);
    assert_string_equal(listing_watch_format(&w, buf, sizeof buf), "0.012346");
    w = WATCH_F("x", -INFINITY);
    assert_string_equal(listing_watch_format(&w, buf, sizeof buf), "-inf");
    w = WATCH_F("x", NAN);
    assert_string_equal(listing_watch_format(&w, buf, sizeof buf), "nan");
    w = WATCH_V3("p", 1.0f, -2.5f, 12345.0f);
    assert_string_equal(listing_watch_format(&w, buf, sizeof buf), "(1, -2.5, 1.234e+04)");
    w = WATCH_I("n", -7);
    assert_string_equal(listing_watch_format(&w, buf, sizeof buf), "-7");
    w = WATCH_B("b", 0);
    assert_string_equal(listing_watch_format(&w, buf, sizeof buf), "false");
    assert_string_equal(listing_watch_format(NULL, buf, sizeof buf), "");
    char small[4];
    w = WATCH_V3("p", 1.0f, 2.0f, 3.0f);
    assert_int_equal(strlen(listing_watch_format(&w, small, sizeof small)), 3);    /* cut, terminated */
}

/* ------------------------------------------------------------ listings */

/* Every listing compiled in: its shown text has no instrumentation, and
   every source line of the shown part maps to a line that exists. */
static void embedded_listing_maps_every_line(void **state)
{
    (void)state;
    const listing *l = &listing_lesson4_xna_recipe;
    assert_string_equal(l->name, "lesson4_xna_recipe");
    assert_non_null(strstr(l->path, "src/lessons/listings/lesson4_xna_recipe.c"));
    assert_true(l->line_count > 40);
    int mapped = 0, shown_once[256] = {0};
    assert_true(l->line_count < 256);
    for (int n = 1; n <= l->line_count; ++n) {
        const char *text = listing_line_text(l, n);
        assert_non_null(text);
        assert_null(strstr(text, "LISTING_"));
        assert_null(strstr(text, "LISTING BEGIN"));
    }
    for (int src = 1; src <= l->source_line_count; ++src) {
        int d = listing_display_line(l, src);
        assert_true(d >= 0 && d <= l->line_count);
        if (d > 0) {
            ++mapped;
            ++shown_once[d];
        }
    }
    /* every display line is the image of at least its own source line */
    for (int n = 1; n <= l->line_count; ++n)
        assert_true(shown_once[n] >= 1);
    assert_true(mapped > l->line_count);        /* and the hidden lines map too */
    assert_int_equal(listing_display_line(l, 0), 0);
    assert_int_equal(listing_display_line(l, l->source_line_count + 1), 0);
    assert_int_equal(listing_display_line(l, 1), 0);    /* the file's header is not shown */
    assert_null(listing_line_text(l, 0));
    assert_null(listing_line_text(l, l->line_count + 1));
    assert_int_equal(listing_display_line(NULL, 3), 0);
}

/* The recipe's names, shown as the tutorial spells them. */
static void recipe_listing_shows_the_recipes_names(void **state)
{
    (void)state;
    const listing *l = &listing_lesson4_xna_recipe;
    static const char *const names[] = {"GetPointerRay", "ClipRay", "LinearSearch", "BinarySearch", "currentError",
                                        "heightAtNextPoint", "factorH", "nearScreenPoint", "pointerPos"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i) {
        bool found = false;
        for (int n = 1; n <= l->line_count && !found; ++n)
            found = strstr(listing_line_text(l, n), names[i]) != NULL;
        assert_true(found);
    }
}

/* ------------------------------------------------------------ labels */

static void labels_do_not_pile_up(void **state)
{
    (void)state;
    render_view v;
    memset(&v, 0, sizeof v);
    glm_lookat((vec3){0.0f, 0.0f, 10.0f}, (vec3){0.0f, 0.0f, 0.0f}, (vec3){0.0f, 1.0f, 0.0f}, v.view);
    glm_perspective(0.8f, 16.0f / 9.0f, 0.1f, 100.0f, v.proj);
    glm_mat4_mul(v.proj, v.view, v.view_proj);
    v.width = 960;
    v.height = 540;
    render_list list = {0};
    render_list_reset(&list, &v);
    lesson_label_room room = {.count = 0};
    /* 30 points 0.05 apart (a few pixels each): only every few labelled */
    int drawn = 0;
    for (int i = 0; i < 30; ++i)
        drawn += lesson_list_label_spaced(&list, &room, (vec3){-0.75f + 0.05f * (float)i, 0.0f, 0.0f}, "L1", 16.0f,
                                          (vec4){1, 1, 1, 1});
    assert_true(drawn >= 2 && drawn <= 10);
    assert_int_equal(room.count, drawn);
    for (int i = 0; i < room.count; ++i)
        for (int j = i + 1; j < room.count; ++j)
            assert_true(glm_vec2_distance(room.at[i], room.at[j]) >= 3.0f * 16.0f);
    /* behind the eye: none */
    assert_false(lesson_list_label_spaced(&list, &room, (vec3){0.0f, 0.0f, 20.0f}, "A", 16.0f, (vec4){1, 1, 1, 1}));
    render_list_free(&list);
}

/* ------------------------------------------------------------ figures */

static void figure_commands_are_copied_and_wrapped(void **state)
{
    (void)state;
    render_view v;
    memset(&v, 0, sizeof v);
    render_list list = {0}, copy = {0};
    render_list_reset(&list, &v);
    render_list_reset(&copy, &v);
    char text[16] = "ClipRay";
    render_list_fig_rect(&list, 10, 20, 100, 50, (vec4){0, 0, 0, 1});
    render_list_fig_text(&list, 15, 25, 1.5f, RENDER_ALIGN_CENTER, 80.0f, (vec4){1, 1, 1, 1}, text);
    text[0] = 'X';      /* copied: the list keeps its own */
    float xy[6] = {0, 0, 10, 10, NAN, 3};
    render_list_fig_polyline(&list, xy, 3, 2.0f, (vec4){1, 0, 0, 1});     /* the NaN pair is dropped */
    render_list_fig_circle(&list, 50, 50, 0.0f, 1.0f, (vec4){1, 1, 1, 1});  /* radius 0: nothing */
    render_list_fig_line(&list, INFINITY, 0, 1, 1, 1.0f, (vec4){1, 1, 1, 1}); /* not finite: nothing */
    assert_int_equal(list.count, 3);
    const render_cmd *t = &list.cmds[1];
    assert_int_equal(t->kind, RENDER_CMD_FIGURE);
    assert_int_equal(t->u.figure.shape, RENDER_FIG_TEXT);
    assert_int_equal(t->pick_id, -1);
    assert_string_equal(render_list_fig_string(&list, t), "ClipRay");
    assert_float_equal(t->u.figure.y1, 80.0f, 0.0f);
    assert_float_equal(list.cmds[0].u.figure.x1, 110.0f, 0.0f);
    render_list_append(&copy, &list, 1);
    assert_string_equal(render_list_fig_string(&copy, &copy.cmds[0]), "ClipRay");
    /* a clipped line keeps its right edge through a copy */
    render_list_fig_text_clipped(&list, 5, 5, 1.0f, 42.0f, (vec4){1, 1, 1, 1}, "LinearSearch(self, clippedRay);");
    assert_float_equal(list.cmds[list.count - 1].u.figure.width, 42.0f, 0.0f);
    render_list_append(&copy, &list, list.count - 1);
    assert_float_equal(copy.cmds[copy.count - 1].u.figure.width, 42.0f, 0.0f);
    assert_string_equal(render_list_fig_string(&copy, &copy.cmds[copy.count - 1]), "LinearSearch(self, clippedRay);");
    assert_string_equal(render_list_fig_string(&list, &list.cmds[0]), "");   /* no text */
    render_list_free(&list);
    render_list_free(&copy);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(steps_are_kept_up_to_the_capacity_then_counted),
        cmocka_unit_test(a_bound_stops_a_loop_and_says_so),
        cmocka_unit_test(watches_are_formatted_when_shown),
        cmocka_unit_test(embedded_listing_maps_every_line),
        cmocka_unit_test(recipe_listing_shows_the_recipes_names),
        cmocka_unit_test(labels_do_not_pile_up),
        cmocka_unit_test(figure_commands_are_copied_and_wrapped),
    };
    return cmocka_run_group_tests_name("listing", tests, NULL, NULL);
}

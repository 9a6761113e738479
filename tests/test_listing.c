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

/* the other listings (their headers each define the tutorial's types: one
   a file) */
extern const listing listing_lesson1_cgame_pick, listing_lesson2_phaser_tutorial, listing_lesson3_sphere_tests,
    listing_lesson5_pick_sample;

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
    w = WATCH_V3("p", 1.0f, -2.5f, 12341.0f);    /* no tie: C runtimes round 1.2345e4 differently */
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

/* ------------------------------------------------------------ translated comments */

static const listing *const all_listings[] = {&listing_lesson1_cgame_pick, &listing_lesson2_phaser_tutorial,
                                              &listing_lesson3_sphere_tests, &listing_lesson4_xna_recipe,
                                              &listing_lesson5_pick_sample};
#define LISTINGS (sizeof all_listings / sizeof all_listings[0])

/* A comment is shown in the language, the code beside it as written: a
   comment on its own lines (lesson 3's first) and one after code (lesson
   5's line 44); English shows the listing's own line. */
static void comments_are_shown_in_the_language(void **state)
{
    (void)state;
    const listing *l3 = &listing_lesson3_sphere_tests, *l5 = &listing_lesson5_pick_sample;
    char buf[LISTING_LINE_SHOWN_MAX];
    assert_string_equal(listing_line_text(l3, 1), "// The German tutorial. A projectile is a point: a hit is");
    assert_string_equal(listing_line_text(l5, 44), "    v.z = -1.0f;    // GL's camera looks down -z (the sample's: +1)");
    assert_true(msg_set_language("en"));
    for (size_t k = 0; k < LISTINGS; ++k)
        for (int n = 1; n <= all_listings[k]->line_count; ++n)
            assert_string_equal(listing_line_shown(all_listings[k], n, buf, sizeof buf),
                                listing_line_text(all_listings[k], n));
    assert_true(msg_set_language("de"));
    assert_string_equal(listing_line_shown(l3, 1, buf, sizeof buf),
                        "// Das deutsche Tutorial. Ein Geschoss ist ein Punkt: ein Treffer");
    assert_string_equal(listing_line_shown(l3, 3, buf, sizeof buf),
                        "// quadrierte Radius ist (Quadrate: keine Wurzel zu ziehen).");
    assert_string_equal(listing_line_shown(l5, 44, buf, sizeof buf),
                        "    v.z = -1.0f;    // Die GL-Kamera blickt nach -z (im Beispiel: +1)");
    /* a line without a comment: as written */
    assert_string_equal(listing_line_shown(l5, 43, buf, sizeof buf), listing_line_text(l5, 43));
    assert_true(msg_set_language("zh"));
    assert_string_equal(listing_line_shown(l3, 1, buf, sizeof buf),
                        "// \u5fb7\u8bed\u6559\u7a0b\u3002\u70ae\u5f39\u88ab\u89c6\u4e3a\u4e00\u4e2a\u70b9"
                        "\uff1a\u53ea\u8981\u8ddd\u79bb\u7684\u5e73\u65b9");       /* 德语教程。炮弹被视为一个点：只要距离的平方 */
    assert_string_equal(listing_line_shown(l5, 44, buf, sizeof buf),
                        "    v.z = -1.0f;    // GL \u7684\u76f8\u673a\u671d -z \u770b"
                        "\uff08\u793a\u4f8b\u4e2d\u4e3a +1\uff09");        /* GL 的相机朝 -z 看（示例中为 +1） */
    assert_string_equal(listing_line_shown(l5, 43, buf, sizeof buf), listing_line_text(l5, 43));
    assert_true(msg_set_language("en"));
}

/* Every comment of every listing, in every language: its id is in the
   catalogue with the listing's comment as its English text (the catalogue
   and the compiled listing agree), translated into the same number of
   lines; the code in front of it is shown as written. */
static void every_comment_is_translated_beside_its_code(void **state)
{
    (void)state;
    char buf[LISTING_LINE_SHOWN_MAX];
    int comments = 0;
    for (const char *const *code = msg_languages(); *code; ++code) {
        assert_true(msg_set_language(*code));
        for (size_t k = 0; k < LISTINGS; ++k) {
            const listing *l = all_listings[k];
            assert_non_null(l->comments);
            for (int n = 1; n <= l->line_count; ++n) {
                const listing_comment *c = &l->comments[n - 1];
                const char *line = listing_line_text(l, n), *shown = listing_line_shown(l, n, buf, sizeof buf);
                if (!c->id) {
                    assert_null(strstr(line, "//"));
                    assert_string_equal(shown, line);
                    continue;
                }
                ++comments;
                assert_true(c->column >= 2 && c->column <= strlen(line) && c->part < c->parts);
                assert_memory_equal(line + c->column - 2 - (line[c->column - 1] == ' '), "//", 2);
                assert_memory_equal(shown, line, c->column);
                const char *english = msg_in("en", c->id), *own = msg_in(*code, c->id);
                if (!english || !own)
                    fail_msg("%s line %d: %s has no text in %s (po/)", l->name, n, c->id, english ? *code : "en");
                /* the catalogue's line `part` is the comment's text (English) or the shown one */
                const char *want = english, *got = line + c->column;
                for (int pass = 0; pass < 2; ++pass) {
                    const char *p = pass ? own : english;
                    int lines = 1;
                    for (const char *q = p; *q; ++q)
                        lines += *q == '\n';
                    if (lines != c->parts)
                        fail_msg("%s: %s's %s text has %d lines, the comment %d", l->name, c->id,
                                 pass ? *code : "en", lines, c->parts);
                    for (int part = 0; part < c->part; ++part)
                        p = strchr(p, '\n') + 1;
                    size_t len = strchr(p, '\n') ? (size_t)(strchr(p, '\n') - p) : strlen(p);
                    want = p;
                    got = pass ? shown + c->column : line + c->column;
                    if (strlen(got) != len || memcmp(got, want, len) != 0)
                        fail_msg("%s line %d (%s): \"%s\" is not the catalogue's %s \"%.*s\"", l->name, n, c->id,
                                 got, pass ? *code : "en", (int)len, want);
                }
                if (strcmp(*code, "en") != 0)
                    assert_string_not_equal(shown, line);       /* translated, not English again */
            }
        }
    }
    assert_true(comments > 20 * 3);
    assert_true(msg_set_language("en"));
}

/* What is not shown translated: a comment the catalogue's English does not
   match (changed since the translation), a translation with another
   number of lines; a short buffer cuts at a character's boundary. */
static void a_stale_or_misshapen_translation_shows_the_line_as_written(void **state)
{
    (void)state;
    static const char *const lines[] = {"x = 1;  // a comment that was changed", "y = 2;  // hitShield -1: no shield is hit, the beam flies on."};
    static const unsigned short display[] = {0, 1, 2};
    static const listing_comment stale[] = {{"listing.lesson2_phaser_tutorial.comment.4", 11, 0, 1},
                                            {"listing.lesson2_phaser_tutorial.comment.4", 11, 0, 2}};
    static const listing_comment right[] = {{NULL, 0, 0, 0}, {"listing.lesson2_phaser_tutorial.comment.4", 11, 0, 1}};
    listing l = {"fixture", "fixture.c", 2, lines, 2, display, stale};
    char buf[LISTING_LINE_SHOWN_MAX];
    assert_true(msg_set_language("de"));
    assert_string_equal(listing_line_shown(&l, 1, buf, sizeof buf), lines[0]);
    assert_string_equal(listing_line_shown(&l, 2, buf, sizeof buf), lines[1]);
    l.comments = right;
    assert_string_equal(listing_line_shown(&l, 2, buf, sizeof buf),
                        "y = 2;  // hitShield -1: kein Schild getroffen, der Strahl fliegt weiter.");
    l.comments = NULL;
    assert_string_equal(listing_line_shown(&l, 2, buf, sizeof buf), lines[1]);
    /* cut to the buffer, never inside a character */
    assert_true(msg_set_language("zh"));
    l.comments = right;
    char small[16];
    assert_string_equal(listing_line_shown(&l, 2, small, sizeof small), "y = 2;  // hitS");
    assert_string_equal(listing_line_shown(&l, 2, small, 10), "y = 2;  /");
    const listing *l5 = &listing_lesson5_pick_sample;
    listing_line_shown(l5, 44, small, sizeof small);
    assert_string_equal(small, "    v.z = -1.0f");
    char shown[LISTING_LINE_SHOWN_MAX];
    listing_line_shown(l5, 44, shown, sizeof shown);
    for (size_t size = 1; size <= strlen(shown) + 1; ++size) {
        char cut[LISTING_LINE_SHOWN_MAX];
        listing_line_shown(l5, 44, cut, size);
        size_t len = strlen(cut);
        assert_true(len < size && strncmp(cut, shown, len) == 0);
        assert_true(shown[len] == '\0' || ((unsigned char)shown[len] & 0xc0) != 0x80);    /* a character's start */
        assert_true(len + 4 >= size || len == strlen(shown));
    }
    assert_null(listing_line_shown(l5, 0, buf, sizeof buf));
    assert_null(listing_line_shown(l5, l5->line_count + 1, buf, sizeof buf));
    assert_null(listing_line_shown(NULL, 1, buf, sizeof buf));
    assert_null(listing_line_shown(l5, 1, NULL, 4));
    assert_null(listing_line_shown(l5, 1, buf, 0));
    assert_true(msg_set_language("en"));
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
        cmocka_unit_test(comments_are_shown_in_the_language),
        cmocka_unit_test(every_comment_is_translated_beside_its_code),
        cmocka_unit_test(a_stale_or_misshapen_translation_shows_the_line_as_written),
        cmocka_unit_test(labels_do_not_pile_up),
        cmocka_unit_test(figure_commands_are_copied_and_wrapped),
    };
    return cmocka_run_group_tests_name("listing", tests, NULL, NULL);
}

/* test_code_panel.c: the code panel's layout (src/app/code_panel.c), a
 * pure function of the window and the text's measures: the column at the
 * right, the inset under the panel, the lit line always in view and where
 * the layout says, the code's scale, refusals; and the word wrap of the
 * step's sentence. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <math.h>
#include <string.h>
#include <cmocka.h>
#include "../src/app/code_panel.h"

/* stb_easy_font-like measures: 12 units a line, 6 a character */
static const code_panel_metrics METRICS = {12.0f, 6.0f, 64.0f * 6.0f};

static float measure(const char *line, void *user)
{
    (void)user;
    return 6.0f * (float)strlen(line);
}

static void column_at_the_right_inset_below(void **state)
{
    (void)state;
    code_panel_layout l;
    code_panel_content c = {76, 36, 6, true};
    assert_true(code_panel_compute(1280, 720, 1.8f, &METRICS, &c, &l));
    /* the column: the right part, inside the window */
    assert_true(l.room_w > 0.5f * 1280.0f && l.room_w < 0.7f * 1280.0f);
    assert_float_equal(l.code.x, l.room_w, 1e-3f);
    assert_true(l.code.x + l.code.w <= 1280.0f);
    assert_true(l.figure.x + l.figure.w <= 1280.0f && l.figure.y + l.figure.h <= 720.0f);
    /* the inset under the code, apart */
    assert_true(l.figure.h > 0.25f * 720.0f);
    assert_true(l.code.y + l.code.h < l.figure.y);
    /* the lines shown fit the panel above the text under them */
    assert_true(l.visible_lines > 10 && l.visible_lines <= 76);
    assert_true(l.code_y + (float)l.visible_lines * l.line_h <= l.text_y);
    assert_true(l.text_y + 6.0f * l.line_h <= l.code.y + l.code.h + 1e-3f);
    /* the code's scale: the widest line and the numbers fit */
    assert_true(l.scale >= 1.0f && l.scale <= 1.8f);
    assert_true(l.code_x + METRICS.widest_w * l.scale <= l.clip_right + 1e-3f || l.scale == 1.0f);
    /* no inset: the code takes the column's height */
    code_panel_layout no_figure;
    c.figure = false;
    assert_true(code_panel_compute(1280, 720, 1.8f, &METRICS, &c, &no_figure));
    assert_true(no_figure.figure.h == 0.0f && no_figure.visible_lines > l.visible_lines);
}

/* The lit line is always shown, in the band the layout gives, and the
   band moves with it. */
static void lit_line_stays_in_view(void **state)
{
    (void)state;
    code_panel_content c = {76, 0, 4, true};
    float last_y = -1.0f;
    int moved = 0;
    for (int lit = 1; lit <= 76; ++lit) {
        c.lit_line = lit;
        code_panel_layout l;
        assert_true(code_panel_compute(960, 540, 1.35f, &METRICS, &c, &l));
        assert_true(lit >= l.first_line && lit < l.first_line + l.visible_lines);
        assert_true(l.first_line >= 1 && l.first_line + l.visible_lines - 1 <= 76);
        assert_true(l.lit.h > 0.0f);
        assert_int_equal(code_panel_line_at(&l, l.lit.y + 0.5f * l.lit.h), lit);
        moved += l.lit.y != last_y;
        last_y = l.lit.y;
    }
    assert_true(moved > 10);
    /* no lit line: the listing from its top, no band */
    c.lit_line = 0;
    code_panel_layout l;
    assert_true(code_panel_compute(960, 540, 1.35f, &METRICS, &c, &l));
    assert_int_equal(l.first_line, 1);
    assert_true(l.lit.h == 0.0f);
    assert_int_equal(code_panel_line_at(&l, l.code_y - 1.0f), 0);
}

/* A listing shorter than the room: all of it, from line 1. */
static void short_listing_is_shown_whole(void **state)
{
    (void)state;
    code_panel_content c = {5, 5, 2, false};
    code_panel_layout l;
    assert_true(code_panel_compute(1920, 1080, 2.7f, &METRICS, &c, &l));
    assert_int_equal(l.first_line, 1);
    assert_int_equal(l.visible_lines, 5);
}

static void too_small_or_bad_input_is_refused(void **state)
{
    (void)state;
    code_panel_layout l;
    memset(&l, 0x5a, sizeof l);
    code_panel_layout before = l;
    code_panel_content c = {76, 3, 4, true};
    assert_false(code_panel_compute(320, 240, 1.0f, &METRICS, &c, &l));     /* no room for a panel */
    assert_false(code_panel_compute(1280, 200, 1.0f, &METRICS, &c, &l));
    assert_false(code_panel_compute(1280, 720, 1.8f, NULL, &c, &l));
    assert_false(code_panel_compute(1280, 720, 1.8f, &METRICS, NULL, &l));
    assert_false(code_panel_compute(1280, 720, NAN, &METRICS, &c, &l));
    code_panel_metrics bad = METRICS;
    bad.line_h = 0.0f;
    assert_false(code_panel_compute(1280, 720, 1.8f, &bad, &c, &l));
    bad = METRICS;
    bad.widest_w = INFINITY;
    assert_false(code_panel_compute(1280, 720, 1.8f, &bad, &c, &l));
    assert_memory_equal(&l, &before, sizeof l);
    assert_int_equal(code_panel_line_at(NULL, 10.0f), 0);
}

static void sentences_wrap_at_spaces_and_between_cjk_characters(void **state)
{
    (void)state;
    char out[256];
    /* 10 characters a line at most */
    assert_int_equal(code_panel_wrap("the loop steps on for ever", 60.0f, measure, NULL, out, sizeof out), 3);
    assert_string_equal(out, "the loop\nsteps on\nfor ever");
    /* a word wider than the line stays whole; line breaks are kept */
    assert_int_equal(code_panel_wrap("heightAtNextPoint < y\nok", 60.0f, measure, NULL, out, sizeof out), 3);
    assert_string_equal(out, "heightAtNextPoint\n< y\nok");
    /* Chinese breaks between characters (each 3 bytes: 18 "pixels" here),
       never before its closing punctuation, and a Latin word in it stays whole */
    assert_int_equal(code_panel_wrap("\xe7\x90\x83\xe4\xb8\x8e\xe8\xa7\x86\xe9\x94\xa5\xef\xbc\x8c"
                                     "\xe5\x88\x86 Contains", 60.0f, measure, NULL, out, sizeof out), 3);
    assert_string_equal(out, "\xe7\x90\x83\xe4\xb8\x8e\xe8\xa7\x86\n\xe9\x94\xa5\xef\xbc\x8c\xe5\x88\x86\nContains");
    assert_int_equal(code_panel_wrap("fits", 60.0f, measure, NULL, out, sizeof out), 1);
    assert_string_equal(out, "fits");
    /* too small an output: nothing, never a cut line */
    char small[8];
    assert_int_equal(code_panel_wrap("the loop steps on", 600.0f, measure, NULL, small, sizeof small), 0);
    assert_string_equal(small, "");
    assert_int_equal(code_panel_wrap(NULL, 60.0f, measure, NULL, out, sizeof out), 0);
    assert_int_equal(code_panel_wrap("x", 60.0f, NULL, NULL, out, sizeof out), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(column_at_the_right_inset_below),
        cmocka_unit_test(lit_line_stays_in_view),
        cmocka_unit_test(short_listing_is_shown_whole),
        cmocka_unit_test(too_small_or_bad_input_is_refused),
        cmocka_unit_test(sentences_wrap_at_spaces_and_between_cjk_characters),
    };
    return cmocka_run_group_tests_name("code_panel", tests, NULL, NULL);
}

/* test_hud_layout.c: the HUD's panels at small, large and high-DPI sizes
   (src/app/hud_layout.c), and the re-flow of long status lines. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <math.h>
#include <string.h>
#include <cmocka.h>

#include "../src/app/hud_layout.h"

/* Sizes at scale 1 like lesson 1's texts (stb_easy_font: 12 units a line). */
static const hud_text_sizes lesson_like = {
    .title = {187.0f, 12.0f},
    .status = {560.0f, 24.0f},
    .pick = {300.0f, 24.0f},
    .pick_short = {80.0f, 12.0f},
    .help = {330.0f, 84.0f},
    .help_short = {40.0f, 12.0f},
};

static hud_layout layout_at(int w, int h)
{
    hud_layout out;
    memset(&out, 0, sizeof out);
    assert_true(hud_layout_compute(w, h, &lesson_like, &out));
    return out;
}

static void assert_inside_and_apart(const hud_layout *l, int w, int h)
{
    assert_true(l->top.x >= 0.0f && l->top.y >= 0.0f);
    assert_true(l->top.x + l->top.w <= (float)w);
    if (l->bottom.h > 0.0f) {
        assert_true(l->bottom.x + l->bottom.w <= (float)w);
        assert_true(l->bottom.y + l->bottom.h <= (float)h);
        assert_true(l->top.y + l->top.h < l->bottom.y);     /* never overlapping */
    }
}

static void small_window_leaves_the_scene_visible(void **state)
{
    (void)state;
    hud_layout l = layout_at(320, 240);
    assert_inside_and_apart(&l, 320, 240);
    assert_true(l.bottom.h > 0.0f);
    assert_true(l.top.h + l.bottom.h <= 0.5f * 240.0f);
    /* the middle of the window (where the lesson's objects are) is free */
    assert_true(l.top.y + l.top.h <= 0.3f * 240.0f);
    assert_true(l.bottom.y >= 0.85f * 240.0f);
    /* detail went first: the key list and the status lines (560 wide at
       scale 1 cannot fit 320 pixels), not the title or the pick */
    assert_false(l.full_help);
    assert_false(l.show_status);
    assert_float_equal(l.scale, 1.0f, 0.0f);
}

static void panels_never_overlap_at_any_size(void **state)
{
    (void)state;
    for (int h = 64; h <= 2200; h += 37) {
        for (int w = 64; w <= 3900; w += 113) {
            hud_layout l = layout_at(w, h);
            assert_inside_and_apart(&l, w, h);
            if (w >= 320 && h >= 200) {     /* room for both panels within their share */
                assert_true(l.bottom.h > 0.0f);
                assert_true(l.top.h + l.bottom.h <= 0.5f * (float)h);
            }
        }
    }
}

static void text_scales_with_the_drawable(void **state)
{
    (void)state;
    hud_layout small = layout_at(640, 360), hd = layout_at(1280, 720), full = layout_at(1920, 1080);
    assert_true(hd.scale > small.scale);
    assert_true(full.scale > hd.scale);
    assert_float_equal(full.scale, 2.7f, 1e-5f);
    assert_float_equal(full.title_scale, 1.5f * full.scale, 1e-5f);
    /* everything shown when there is room */
    assert_true(full.show_status && full.full_pick && full.full_help);
    /* high-DPI: a 1280x720 window whose drawable is 2560x1440 gets text
       twice as many pixels tall (the same size to the eye) */
    hud_layout retina = layout_at(2560, 1440);
    assert_float_equal(retina.scale, 2.0f * hd.scale, 1e-5f);
    assert_float_equal(retina.top.h, 2.0f * hd.top.h, 1e-3f);
    assert_float_equal(hud_scale_for(100), 1.0f, 0.0f);
    assert_float_equal(hud_scale_for(100000), 6.0f, 0.0f);
}

static void tiny_window_keeps_only_the_top_panel(void **state)
{
    (void)state;
    hud_layout l = layout_at(64, 64);
    assert_true(l.bottom.w == 0.0f && l.bottom.h == 0.0f);
    assert_false(l.full_help);
    assert_true(l.clip_right <= 64.0f);
}

static void bad_input_is_refused(void **state)
{
    (void)state;
    hud_layout out, before;
    memset(&out, 0x5a, sizeof out);
    before = out;
    hud_text_sizes nan_size = lesson_like;
    nan_size.pick.w = NAN;
    hud_text_sizes negative = lesson_like;
    negative.help.h = -1.0f;
    assert_false(hud_layout_compute(0, 240, &lesson_like, &out));
    assert_false(hud_layout_compute(320, -1, &lesson_like, &out));
    assert_false(hud_layout_compute(320, 240, NULL, &out));
    assert_false(hud_layout_compute(320, 240, &lesson_like, NULL));
    assert_false(hud_layout_compute(320, 240, &nan_size, &out));
    assert_false(hud_layout_compute(320, 240, &negative, &out));
    assert_memory_equal(&out, &before, sizeof out);
}

/* 6 units a character, like stb_easy_font's common letters */
static float six_per_char(const char *line, void *user)
{
    (void)user;
    size_t n = strcspn(line, "\n");
    return 6.0f * (float)n;
}

static void wrap_breaks_at_item_gaps(void **state)
{
    (void)state;
    char out[64];
    assert_true(hud_wrap("aa   bb   cc", 30.0f, six_per_char, NULL, out, sizeof out));
    assert_string_equal(out, "aa\nbb\ncc");
    assert_true(hud_wrap("aa   bb   cc", 100.0f, six_per_char, NULL, out, sizeof out));
    assert_string_equal(out, "aa   bb   cc");
    /* two items fit (8 chars = 48), the third starts a line; newlines kept */
    assert_true(hud_wrap("aa   bb   cc\ndd e", 50.0f, six_per_char, NULL, out, sizeof out));
    assert_string_equal(out, "aa   bb\ncc\ndd e");
    /* an item wider than the room stays whole (single spaces do not break) */
    assert_true(hud_wrap("one long item   x", 20.0f, six_per_char, NULL, out, sizeof out));
    assert_string_equal(out, "one long item\nx");
}

static void wrap_refuses_what_does_not_fit(void **state)
{
    (void)state;
    char out[8];
    assert_false(hud_wrap("aa   bb   cc", 30.0f, six_per_char, NULL, out, sizeof out));
    assert_string_equal(out, "");
    assert_false(hud_wrap(NULL, 30.0f, six_per_char, NULL, out, sizeof out));
    assert_false(hud_wrap("a", 30.0f, NULL, NULL, out, sizeof out));
    assert_false(hud_wrap("a", 30.0f, six_per_char, NULL, out, 0));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(small_window_leaves_the_scene_visible),
        cmocka_unit_test(panels_never_overlap_at_any_size),
        cmocka_unit_test(text_scales_with_the_drawable),
        cmocka_unit_test(tiny_window_keeps_only_the_top_panel),
        cmocka_unit_test(bad_input_is_refused),
        cmocka_unit_test(wrap_breaks_at_item_gaps),
        cmocka_unit_test(wrap_refuses_what_does_not_fit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

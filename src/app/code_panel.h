/*
 * code_panel.h: where the code panel and the inset go, as a pure function
 * of the drawable size and the text's measures (no SDL, no GL: unit tested
 * in tests/test_code_panel.c). The panel shows a lesson's listing (its
 * lesson_code_view: the tutorial's method as C) with line numbers, the
 * current step's line lit, the step's sentence and its watched variables;
 * the inset below it is the lesson's figure (lesson->figure).
 *
 * Both sit in a column at the right of the window; the scene and the HUD
 * keep the rest (room_w). The code scrolls so the lit line stays in view.
 */
#ifndef RAYPICK_APP_CODE_PANEL_H
#define RAYPICK_APP_CODE_PANEL_H

#include <stdbool.h>
#include <stddef.h>

#include "hud_layout.h"

/* The text's measures at scale 1 (render_text_width / _height). */
typedef struct code_panel_metrics {
    float line_h;           /* one line's height */
    float digit_w;          /* one digit's width (line numbers) */
    float widest_w;         /* the listing's widest line */
} code_panel_metrics;

/* What the panel holds besides the code. */
typedef struct code_panel_content {
    int line_count;         /* the listing's lines */
    int lit_line;           /* 1..line_count, 0 = none */
    int text_lines;         /* lines below the code: header, sentence, watches */
    bool figure;            /* the lesson has an inset */
} code_panel_content;

typedef struct code_panel_layout {
    float room_w;           /* the scene's room: x in [0, room_w) */
    hud_rect code;          /* the code panel */
    hud_rect figure;        /* the inset (all zero: none) */
    float scale;            /* the panel's text scale */
    float line_h;           /* pixels from one code line to the next */
    float number_x;         /* line numbers start here */
    float code_x;           /* code text starts here */
    float code_y;           /* top of the first line shown */
    float clip_right;       /* text stops here */
    int first_line;         /* the first listing line shown (1-based) */
    int visible_lines;      /* how many are shown (<= line_count) */
    hud_rect lit;           /* the lit line's band (all zero: none shown) */
    float text_y;           /* top of the lines below the code */
} code_panel_layout;

/*!
 * @brief lays out the code panel and the inset in a drawable of
 *        width x height pixels whose HUD text has scale hud_scale.
 *
 * The column takes about 42% of the width (at most 60% of it, at least 300
 * pixels); the inset a third of the height under the panel. The code's
 * scale fits the widest line into the panel when it can (never below 1:
 * longer lines are clipped at clip_right, never drawn outside). The code
 * lines shown are those around lit_line (it stays in view, centred where
 * the listing allows).
 *
 * @returns false (out untouched) for a NULL argument, a size below 1, bad
 *          measures, or a window too small for a panel (narrower than 560
 *          pixels or lower than 240): the app then draws none
 */
bool code_panel_compute(int width, int height, float hud_scale, const code_panel_metrics *m,
                        const code_panel_content *c, code_panel_layout *out);

/* The display line at pixel row y of the layout's code lines, 0 outside. */
int code_panel_line_at(const code_panel_layout *l, float y);

/* How wide a line of text is at scale 1. */
typedef float (*code_panel_measure_fn)(const char *line, void *user);

/*!
 * @brief word-wraps text to max_w (as measure counts), breaking at spaces
 *        and between CJK characters (Chinese has no spaces; its closing
 *        punctuation stays with the character before it); a word wider
 *        than max_w stays whole on its own line. Existing line breaks are
 *        kept. Returns the number of lines, 0 (out "")
 *        when out does not hold the result or an argument is NULL.
 */
int code_panel_wrap(const char *text, float max_w, code_panel_measure_fn measure, void *user, char *out,
                    size_t out_size);

#endif /* RAYPICK_APP_CODE_PANEL_H */

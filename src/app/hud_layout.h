/*
 * hud_layout.h: where the HUD's panels go, as a pure function of the
 * drawable size and the size of each text block (no SDL, no GL: unit
 * tested in tests/test_hud_layout.c).
 *
 * Two panels: the top one (the lesson's title, its status lines, the last
 * pick) and the bottom one (the keys, or just "H help"). The text scales
 * with the drawable's height, so a high-DPI window (drawable twice the
 * window) gets text twice as many pixels tall, the same size to the eye.
 * When the panels would cover too much of a small window, the layout drops
 * detail in a fixed order (the full key list, then the status lines, then
 * the long pick text) before it ever lets the panels overlap.
 */
#ifndef RAYPICK_APP_HUD_LAYOUT_H
#define RAYPICK_APP_HUD_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>

/* A text block's size at scale 1 (stb_easy_font units); 0 x 0 = empty. */
typedef struct hud_size {
    float w, h;
} hud_size;

/* A rectangle in drawable pixels, top-left origin. */
typedef struct hud_rect {
    float x, y, w, h;
} hud_rect;

/* The HUD's text blocks, each measured at scale 1. */
typedef struct hud_text_sizes {
    hud_size title;         /* drawn 1.5 times larger when it fits */
    hud_size status;        /* the lesson's status lines */
    hud_size pick;          /* the last pick, every line */
    hud_size pick_short;    /* the last pick, one short line */
    hud_size help;          /* the key list */
    hud_size help_short;    /* "H help" */
} hud_text_sizes;

typedef struct hud_layout {
    float scale;            /* of the body text */
    float title_scale;
    bool show_status;       /* false: the status lines did not fit */
    bool full_pick;         /* false: pick_short is drawn */
    bool full_help;         /* false: help_short is drawn */
    hud_rect top, bottom;   /* the panels */
    float text_x;           /* left edge of the text in both panels */
    float title_y, status_y, pick_y, help_y;
    float clip_right;       /* text stops here (too wide for the window) */
} hud_layout;

/* The body text's scale for a drawable height: one stb_easy_font pixel per
   drawable pixel up to 400 pixels, then growing with the height (2.7 at
   1080, 5.4 at 2160), at most 6. */
float hud_scale_for(int drawable_h);

/*!
 * @brief lays out the HUD in a drawable of width x height pixels.
 *
 * The panels never overlap, stay inside the drawable's width, and
 * together take at most half its height. A drawable too small even for
 * the shortest texts at scale 1 gets them anyway, clipped at clip_right,
 * and loses the bottom panel (bottom all zero) rather than overlap it.
 *
 * @param[in]  width, height  the drawable's size in pixels
 * @param[in]  t              the text blocks' sizes at scale 1
 * @param[out] out            the layout; untouched on false
 * @returns false for a NULL argument, a size below 1, or a text size that
 *          is negative or not finite
 */
bool hud_layout_compute(int width, int height, const hud_text_sizes *t, hud_layout *out);

/* How wide a line of text is at scale 1 (render_text_width). */
typedef float (*hud_measure_fn)(const char *line, void *user);

/*!
 * @brief re-flows text so each line fits max_w: a line too wide is broken
 *        where its items are separated by three or more spaces (the way
 *        the lessons' status lines separate "ray: ... (M)   picks: ...").
 *        Items are never split: one wider than max_w stays whole (the
 *        renderer clips it).
 *
 * @param[in]  text     lines separated by '\n'
 * @param[in]  max_w    the widest a line may be, as measure counts
 * @param[in]  measure  width of a line; user is passed through
 * @param[out] out      the re-flowed text, always NUL-terminated
 * @returns false (out empty when out_size > 0) for a NULL argument, a zero
 *          out_size, or text that does not fit out_size
 */
bool hud_wrap(const char *text, float max_w, hud_measure_fn measure, void *user, char *out, size_t out_size);

#endif /* RAYPICK_APP_HUD_LAYOUT_H */

/*
 * report.h: the JSON the program prints for tests and tools, written once
 * for every lesson from the lessons' data (lesson.h): one line per pick
 * (--report) and the scene's layout (--print-layout). No SDL, no GL.
 */
#ifndef RAYPICK_REPORT_H
#define RAYPICK_REPORT_H

#include <stdio.h>

#include "font.h"
#include "code_panel.h"
#include "hud_layout.h"
#include "lesson.h"

/* What the GPU pick pass (key G) found under the same pixel. */
typedef struct report_gpu {
    bool   hit;
    int    id;              /* object id or triangle index, -1 for nothing */
    float  depth;           /* window depth read back, [0, 1] */
    vec3   point;           /* the depth unprojected (rp_unproject_point) */
    bool   agree;           /* same hit and id as the ray */
    float  distance;        /* |GPU point - ray point| when both hit, else -1 */
    double read_ms;         /* the synchronous glReadPixels */
} report_gpu;

/* Where a pick came from: the window position SDL gave and the frame. */
typedef struct report_click_info {
    int lesson;             /* lesson number */
    int frame;
    float window_x, window_y;
    double us;              /* how long the pick took */
    const report_gpu *gpu;  /* NULL: no GPU pick */
    const char *event;      /* NULL: a click; "move", "drag", "release": lesson->pointer's */
} report_click_info;

/* [x,y,z] with 6 significant digits */
void report_vec3(FILE *out, const vec3 v);
/* s as a JSON string (quotes and backslashes escaped, control characters
   as \u00XX, UTF-8 as is); null for NULL. */
void report_string(FILE *out, const char *s);
/* --list-lessons: the lesson registry (lessons.h) as one JSON object,
   {"count":N,"lessons":[...]}, one lesson a line: number, name, title,
   title_key, pick_ids, files (the options naming a file it loads, which
   make it created at start), object, source, unit_test, notes (paths
   relative to the source root). */
void report_lessons(FILE *out);
/* One JSON line: the click, the pick ray, the lesson's pick and its fields. */
void report_pick(FILE *out, const report_click_info *info, const lesson_click *c, const lesson_pick *p);
/* After --screenshot, with --report: {"screenshot":{frame, width, height,
   path, "hud":{... "top":[x,y,w,h], "bottom":[...]}}}, the HUD's panels as
   that frame drew them (hud NULL: none), so a test can tell the scene's
   pixels from the HUD's. */
void report_screenshot(FILE *out, const char *path, int frame, int width, int height, const hud_layout *hud);
/* The HUD as --print-layout describes it. */
typedef struct report_hud {
    hud_layout layout;      /* the panels and where the text goes */
    const char *title;      /* the heading drawn, UTF-8 */
    const char *language;   /* the catalogue's language shown (msg.h) */
    const font_set *fonts;  /* the faces drawing it; NULL: the built-in font */
} report_hud;

/* --report, when step mode shows a step (at a click, '.', ',', a tour
   moment): {"step":{"lesson", "frame", "index" (0-based), "count",
   "line" (the listing's display line it lights), "source_line",
   "listing" (its path), "tag" (the step's id in the catalogue),
   "sentence" (its text now), "code" (the lit line as the panel shows it:
   a comment in the language), "watches": {"name":"value", ...}}}. */
void report_step(FILE *out, int lesson, int frame, const lesson_code_view *v);
/* After --screenshot, with --report: {"panel":{"lesson", "frame",
   "shown", and when shown "code", "figure", "lit" ([x,y,w,h], drawable
   pixels), "first_line", "visible_lines", "line_h", "code_y",
   "text_y" (the text under the listing), "scale" (its text's),
   "room_w"}}: where the code panel and the inset were drawn. */
void report_panel(FILE *out, int lesson, int frame, const code_panel_layout *panel);
/* One JSON line: the lesson's number and registry name, the camera and
   the objects (count of them), each with where it appears in a window of
   window_w x window_h (window coordinates, what a click needs; the view's
   width and height are the drawable's), and the HUD when hud is not NULL:
   its panels, scales, the title's text and place, the language and the
   font faces opened so far (path, family name, index in the file). */
void report_layout(FILE *out, int lesson, const render_view *v, int window_w, int window_h, const report_hud *hud,
                   const lesson_object *objects, int count);
/* Where world point p appears: window coordinates (top-left origin) in a
   window of window_w x window_h whose drawable is v's size; on_screen when
   inside the window and between the near and far planes. Any output may be
   NULL. false (outputs untouched) for a NULL view, a size <= 0, or a point
   at or behind the camera's plane. */
bool report_window_position(const render_view *v, int window_w, int window_h, const vec3 p,
                            float *wx, float *wy, bool *on_screen);

#endif /* RAYPICK_REPORT_H */

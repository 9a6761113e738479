/*
 * report.h: the JSON the program prints for tests and tools, written once
 * for every lesson from the lessons' data (lesson.h): one line per pick
 * (--report) and the scene's layout (--print-layout). No SDL, no GL.
 */
#ifndef RAYPICK_REPORT_H
#define RAYPICK_REPORT_H

#include <stdio.h>

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
/* One JSON line: the lesson's number and registry name, the camera and
   the objects (count of them), each with where it appears in a window of
   window_w x window_h (window coordinates, what a click needs; the view's
   width and height are the drawable's), and the HUD's panels when hud is
   not NULL. */
void report_layout(FILE *out, int lesson, const render_view *v, int window_w, int window_h, const hud_layout *hud,
                   const lesson_object *objects, int count);
/* Where world point p appears: window coordinates (top-left origin) in a
   window of window_w x window_h whose drawable is v's size; on_screen when
   inside the window and between the near and far planes. Any output may be
   NULL. false (outputs untouched) for a NULL view, a size <= 0, or a point
   at or behind the camera's plane. */
bool report_window_position(const render_view *v, int window_w, int window_h, const vec3 p,
                            float *wx, float *wy, bool *on_screen);

#endif /* RAYPICK_REPORT_H */

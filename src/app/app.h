/*
 * app.h: the program. app_run() is the whole native run; the pieces are
 * public so another main loop (a browser's requestAnimationFrame through
 * emscripten_set_main_loop_arg) can drive the same frames:
 *
 *     app *a = app_create(&opt);
 *     while (app_frame(a)) {}
 *     app_destroy(a);
 */
#ifndef RAYPICK_APP_H
#define RAYPICK_APP_H

#include <stdbool.h>

#include "options.h"

typedef struct app app;

/* Window, GL context, renderer and lessons; NULL after printing why. */
app *app_create(const app_options *opt);
/* One frame: events, script events, update, draw, swap. false once the app
   is done (quit, or the script's last frame). */
bool app_frame(app *a);
/* Frees everything app_create made; NULL is fine. */
void app_destroy(app *a);
/* Runs the program with parsed options; returns the exit status. */
int app_run(const app_options *opt);

#ifdef __EMSCRIPTEN__
/* The teaching page's controls (the browser build: src/web/main_web.c). */
struct lesson_code_view;
/* Called from app_frame when what the code panel would show changes (the
   lesson, a click's steps, the step shown, the tour moment), and once at
   the first frame: the lesson's code view (NULL for a lesson without a
   listing) and the tour moment (0-based, -1: none). NULL hook: none. */
typedef void (*app_step_hook)(void *user, int lesson, const struct lesson_code_view *view, int tour);
void app_set_step_hook(app *a, app_step_hook hook, void *user);
/* Stages moment m (0-based) of the shown lesson's tour, as O and --tour
   do; false when the lesson has no such moment. */
bool app_show_tour(app *a, int m);
/* The code panel in the canvas: 1 shown, 0 hidden, -1 shown while a step
   is (the default); the page shows it in HTML instead. */
void app_set_code_panel(app *a, int pref);
/* Whether the last frame drew the code panel in the canvas: a canvas too
   small for it (code_panel_plan) draws none whatever the preference. */
bool app_code_panel_drawn(const app *a);
#endif

#endif

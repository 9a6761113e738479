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

#endif

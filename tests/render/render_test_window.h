/* render_test_window.h: a hidden GL 3.3 window with the renderer on it,
 * for the render tests written in C (test_pick_pass.c,
 * test_loading_screen.c, ../test_render_order.c). */
#ifndef RAYPICK_RENDER_TEST_WINDOW_H
#define RAYPICK_RENDER_TEST_WINDOW_H

#include "gl_test_window.h"
#include "render.h"
#include "sanitizer_keep.h"

/* Opens w (hidden) and a renderer on it: complete (render_create), or only
   what a loading screen draws (render_create_for_loading). NULL with the
   reason on stderr; then nothing is left open. */
static inline renderer *render_test_open(gl_test_window *w, const char *title, int width, int height, bool complete)
{
    char err[256] = "";
    if (!gl_test_window_open(w, title, width, height, SDL_WINDOW_HIDDEN, err, sizeof err)) {
        fprintf(stderr, "%s: %s\n", title, err);
        return NULL;
    }
    app_keep_gl_driver_loaded();    /* as the demo does: LeakSanitizer can then name the driver */
    renderer *r = complete ? render_create((render_loader)SDL_GL_GetProcAddress, err, sizeof err)
                           : render_create_for_loading((render_loader)SDL_GL_GetProcAddress, err, sizeof err);
    if (!r) {
        fprintf(stderr, "%s: no OpenGL 3.3 renderer: %s\n", title, err);
        gl_test_window_close(w);
    }
    return r;
}

/* render_destroy(r), then the window and SDL */
static inline void render_test_close(gl_test_window *w, renderer *r)
{
    render_destroy(r);
    gl_test_window_close(w);
}

#endif

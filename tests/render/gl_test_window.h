/* gl_test_window.h: an SDL window with a current OpenGL 3.3 core context,
 * for the programs that draw without the demo's app: the render tests
 * written in C (test_pick_pass.c, test_loading_screen.c,
 * ../test_render_order.c) and bench/bench_draw_floor.c. Header only, SDL2
 * and nothing of raypick, so the bench stays a stand-alone GL program. */
#ifndef RAYPICK_GL_TEST_WINDOW_H
#define RAYPICK_GL_TEST_WINDOW_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <SDL.h>

typedef struct gl_test_window {
    SDL_Window *window;
    SDL_GLContext gl;
} gl_test_window;

/* Closes what gl_test_window_open made and shuts SDL down (w zeroed). */
static inline void gl_test_window_close(gl_test_window *w)
{
    if (w->gl)
        SDL_GL_DeleteContext(w->gl);
    if (w->window)
        SDL_DestroyWindow(w->window);
    SDL_Quit();
    memset(w, 0, sizeof *w);
}

/* Starts SDL's video and opens a width x height window (SDL_WINDOW_OPENGL
   plus flags: SDL_WINDOW_HIDDEN for a test that only reads pixels back)
   with a current OpenGL 3.3 core context, double-buffered, 24-bit depth.
   false with SDL's message in err (err may be NULL); then nothing is left
   open. */
static inline bool gl_test_window_open(gl_test_window *w, const char *title, int width, int height, Uint32 flags,
                                       char *err, size_t err_size)
{
    memset(w, 0, sizeof *w);
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        if (err && err_size)
            snprintf(err, err_size, "SDL_Init: %s", SDL_GetError());
        return false;
    }
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
    /* as the program's: what macOS gives a core context anyway */
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_FLAGS, SDL_GL_CONTEXT_FORWARD_COMPATIBLE_FLAG);
    SDL_GL_SetAttribute(SDL_GL_DEPTH_SIZE, 24);
    SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
    w->window = SDL_CreateWindow(title, SDL_WINDOWPOS_UNDEFINED, SDL_WINDOWPOS_UNDEFINED, width, height,
                                 SDL_WINDOW_OPENGL | flags);
    w->gl = w->window ? SDL_GL_CreateContext(w->window) : NULL;
    if (!w->gl) {
        if (err && err_size)
            snprintf(err, err_size, "no OpenGL 3.3 core window: %s", SDL_GetError());
        gl_test_window_close(w);
        return false;
    }
    return true;
}

#endif

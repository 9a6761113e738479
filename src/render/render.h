/*
 * render.h: the OpenGL 3.3 core renderer. src/render is the only code that
 * includes glad; this interface uses cglm types only, so the lessons and the
 * app never see a GL name. The renderer only draws state: it never calls the
 * library's collision code.
 *
 * A frame:
 *     render_begin(r, &view);          // clear
 *     render_submit(r, &list);         // the scene: a render_list (render_list.h)
 *     render_text(r, 10, 10, 2, color, "hello");
 *     render_end(r);                   // the HUD last
 *
 * render_submit draws the list in fixed phases: opaque (shapes, terrain),
 * background (the gradient, only where nothing opaque is: a software
 * rasteriser shades only what shows of it), translucent (grid, shadows,
 * lines, shields and glass, markers, beams); render_end adds the overlay
 * (the HUD). The order of the commands in the list does not change the
 * picture (shields and glass spheres are sorted back to front; lines,
 * points, shadows and beams of one kind keep their list order).
 */
#ifndef RAYPICK_RENDER_H
#define RAYPICK_RENDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cglm/cglm.h>

#include "font.h"
#include "render_list.h"

typedef struct renderer renderer;

typedef void *(*render_loader)(const char *name);

/* Loads GL through `load` (SDL_GL_GetProcAddress), checks for GL 3.3,
   compiles the embedded shaders and builds the meshes. NULL with a message
   in err on failure. */
renderer *render_create(render_loader load, char *err, size_t err_size);
/* render_create in two steps: first only what a loading screen draws
   (render_begin, render_loading_text, render_end: no shader); then the
   programs, meshes and the HUD's text. A program that loads
   a large file meanwhile keeps the shader compiler's memory and the file's
   from adding up at start-up (issue 16). render_complete: true once done
   (also when called again), false with a message; a renderer it failed on
   is only fit for render_destroy. */
renderer *render_create_for_loading(render_loader load, char *err, size_t err_size);
bool render_complete(renderer *r, char *err, size_t err_size);
void render_destroy(renderer *r);
/* true for a CPU rasteriser (llvmpipe): the app then skips multisampling.
   Needs a current context. */
bool render_driver_is_software(render_loader load);
/* The GL driver's renderer string (GL_RENDERER: "llvmpipe ...", "NVIDIA H100 ...")
   for benchmark lines, with '"', '\\' and control characters left out so it
   can go into JSON as it is; "unknown" if the driver gives none. Needs a
   current context. */
const char *render_driver_name(void);

void render_begin(renderer *r, const render_view *v);
void render_end(renderer *r);

/* Draws a frame's scene: the list's commands, phase by phase (above).
   Terrain meshes are built on first sight and kept until render_destroy. */
void render_submit(renderer *r, const render_list *list);
/* The part of the drawable the frame's 3D scene fills (drawable pixels,
   top-left origin); render_begin resets it to the whole drawable.
   render_submit draws the scene's phases only there (scissored) and the
   2D figures everywhere: a column of opaque panels beside the scene then
   costs the scene nothing. Ignored for an empty or non-finite rectangle. */
void render_scene_rect(renderer *r, float x, float y, float w, float h);

/* HUD, in drawable pixels from the top-left corner; drawn last. Text is
   UTF-8, drawn with the fonts given to render_set_fonts (any script they
   cover; a character none has shows as the font's missing box), else with
   the built-in ASCII font (stb_easy_font: other characters show as '?').
   At scale 1 a line is 12 pixels, an em 10. */
void render_text(renderer *r, float x, float y, float scale, const vec4 color, const char *text);
/* render_text that leaves out every character reaching past x = max_x */
void render_text_clipped(renderer *r, float x, float y, float scale, const vec4 color, const char *text,
                         float max_x);
void render_panel(renderer *r, float x, float y, float w, float h, const vec4 color);
/* A loading screen's frame: render_loading_begin, render_loading_text,
   render_end. No shader: it costs no shader compiling while a large file
   loads (under llvmpipe the first compile alone brings 6.5 MB). On a CPU
   rasteriser the band is drawn in memory and copied to the window
   (a scissored clear there draws with an internal shader, 13 MB more);
   elsewhere it is scissored clears. Either way it touches only the band
   of the colour buffer its text is in, and no depth buffer (a full clear
   makes 7 MB of buffers resident at 1280x720 at that moment). Works on a
   renderer from render_create_for_loading. The text: one line on an opaque
   panel, in a band filled across the window. */
void render_loading_begin(renderer *r, const render_view *v);
void render_loading_text(renderer *r, float x, float y, float scale, const vec4 panel, const vec4 color,
                         const char *text);
/* The widest line of text at scale, as render_text draws it (with the
   renderer's fonts, or the built-in font's widths); 0 for NULL. */
float render_text_width(renderer *r, const char *text, float scale);
/* 12 * scale a line, the last one counted only when it holds something
   (stb_easy_font's rule); 0 for NULL. */
float render_text_height(const renderer *r, const char *text, float scale);
/* The HUD's fonts from now on (font.h): the renderer owns them and closes
   them in render_destroy or at the next call; NULL: the built-in ASCII
   font. r NULL: fonts are closed. */
void render_set_fonts(renderer *r, font_set *fonts);
/* The fonts render_set_fonts gave (NULL: the built-in font); still the
   renderer's. */
font_set *render_fonts(const renderer *r);

/* The finished frame's pixels, RGB, top row first (width * height * 3 bytes). */
bool render_read_pixels(renderer *r, int width, int height, uint8_t *rgb);

/* Make sure all GL work is done (benchmarks). */
void render_finish(renderer *r);

#endif /* RAYPICK_RENDER_H */

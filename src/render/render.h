/*
 * render.h: the OpenGL 3.3 core renderer. src/render is the only code that
 * includes glad; this interface uses cglm types only, so the lessons and the
 * app never see a GL name. The renderer only draws state: it never calls the
 * library's collision code.
 *
 * A frame:
 *     render_begin(r, &view);          // clear
 *     render_shape(r, RENDER_CUBE, model, color, glow);   // opaque first
 *     render_grid(r, 0.0f);            // background + ground, then the grid
 *     render_line(r, a, b, color);     // batched lines, points, beams ...
 *     render_flush(r);                 // ... drawn here
 *     render_shield(r, ...);           // translucent things last
 *     render_text(r, 10, 10, 2, color, "hello");
 *     render_end(r);                   // flushes batches, then the HUD
 *
 * The background is drawn just before the first translucent thing, behind
 * the opaque ones, so a software rasteriser only shades what shows of it.
 */
#ifndef RAYPICK_RENDER_H
#define RAYPICK_RENDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cglm/cglm.h>

typedef struct renderer renderer;
typedef struct render_terrain render_terrain;

/* What the camera sees this frame. */
typedef struct render_view {
    mat4 view;
    mat4 proj;
    mat4 view_proj;
    vec3 eye;
    int  width, height;     /* drawable pixels */
} render_view;

typedef enum render_shape_kind {
    RENDER_SPHERE,          /* unit radius */
    RENDER_CUBE,            /* half-size 1: corners at +-1 */
    RENDER_TORUS,           /* ring radius 0.75, tube 0.3, around y */
    RENDER_CONE,            /* base radius 1 at y = -1, apex at y = 1 */
    RENDER_SHAPE_COUNT
} render_shape_kind;

typedef void *(*render_loader)(const char *name);

/* Loads GL through `load` (SDL_GL_GetProcAddress), checks for GL 3.3,
   compiles the embedded shaders and builds the meshes. NULL with a message
   in err on failure. */
renderer *render_create(render_loader load, char *err, size_t err_size);
void render_destroy(renderer *r);
/* true for a CPU rasteriser (llvmpipe): the app then skips multisampling.
   Needs a current context. */
bool render_driver_is_software(render_loader load);

void render_begin(renderer *r, const render_view *v);
void render_end(renderer *r);

/* ground plane and grid at height y, fading with distance; call it before
   anything translucent */
void render_grid(renderer *r, float y);
/* an opaque lit shape; emissive is added on top (highlights) */
void render_shape(renderer *r, render_shape_kind kind, mat4 model,
                  const vec4 color, const vec3 emissive);
/* Translucent shield (a unit sphere transformed by model: scale for an
   ellipsoid). impacts[i] = world point xyz, start time w; at most
   RENDER_MAX_IMPACTS are used. */
#define RENDER_MAX_IMPACTS 8
void render_shield(renderer *r, mat4 model, const vec4 color,
                   const vec4 *impacts, int impact_count, float time,
                   float lifetime, float ripple_speed);

/* A bounding volume shown as glass: the shield look (fresnel rim), near
   side only, no impacts: cheaper than render_shield. */
void render_glass_sphere(renderer *r, const vec3 center, float radius, const vec4 color);

/* Batched until render_flush / render_end. */
void render_line(renderer *r, const vec3 a, const vec3 b, const vec4 color);
void render_point(renderer *r, const vec3 p, float size_px, const vec4 color);
void render_beam(renderer *r, const vec3 a, const vec3 b, float width, const vec4 color);
/* a soft round shadow on the ground plane y = ground under an object at
   center (darkest in the middle, fading out at the edge) */
void render_shadow(renderer *r, const vec3 center, float radius, float ground, float strength);
/* draw the batched lines, points and beams now */
void render_flush(renderer *r);

/* Terrain: a grid of cols x rows samples, heights[row * cols + col], at
   x = origin.x + col * spacing, z = origin.z + row * spacing; every cell
   split along the (col, row)-(col+1, row+1) diagonal like the library's. */
render_terrain *render_terrain_create(renderer *r, int cols, int rows, float spacing,
                                      const vec3 origin, const float *heights);
void render_terrain_draw(renderer *r, const render_terrain *t);
void render_terrain_destroy(render_terrain *t);

/* HUD, in drawable pixels from the top-left corner; drawn last. */
void render_text(renderer *r, float x, float y, float scale, const vec4 color, const char *text);
void render_panel(renderer *r, float x, float y, float w, float h, const vec4 color);
float render_text_width(const char *text, float scale);
float render_text_height(const char *text, float scale);

/* The finished frame's pixels, RGB, top row first (width * height * 3 bytes). */
bool render_read_pixels(renderer *r, int width, int height, uint8_t *rgb);

/* Make sure all GL work is done (benchmarks). */
void render_finish(renderer *r);

#endif /* RAYPICK_RENDER_H */

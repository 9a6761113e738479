/*
 * render_model.h: a user's triangle mesh on the GPU (lesson 5's model):
 * drawn lit with a checker pattern from its texture coordinates (so tu/tv
 * on the HUD can be checked by eye), and chosen triangles drawn highlighted
 * on top (the Pick sample's g_pVB of picked triangles, here drawn straight
 * from the model's own index buffer). No GL names in this interface.
 */
#ifndef RAYPICK_RENDER_MODEL_H
#define RAYPICK_RENDER_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cglm/cglm.h>
#include "render.h"

typedef struct render_model render_model;

/* Interleaved vertices: position (3 floats) at byte 0, normal (3 floats)
   at 12, tu tv (2 floats) at 24, `stride` bytes apart (>= 32); three
   32-bit indices per triangle. NULL (message in err) on bad input or a GL
   failure. The data is copied to the GPU; the caller keeps its arrays. */
render_model *render_model_create(renderer *r, const void *vertices, size_t vertex_count,
                                  size_t stride, const uint32_t *indices, size_t triangle_count,
                                  char *err, size_t err_size);
void render_model_destroy(render_model *m);
size_t render_model_triangle_count(const render_model *m);

/* The model, lit, with a checker of `checks` squares per unit of tu/tv
   (0: plain colour); back faces culled unless two_sided. */
void render_model_draw(renderer *r, const render_model *m, mat4 model, const vec4 color,
                       float checks, bool two_sided);

/* Triangles drawn again in a flat colour over the model (depth-tested,
   pulled slightly towards the eye), with their edges; indices >= the
   triangle count are skipped. */
void render_model_highlight(renderer *r, const render_model *m, mat4 model,
                            const uint32_t *triangles, size_t count, const vec4 fill,
                            const vec4 edge);

#endif /* RAYPICK_RENDER_MODEL_H */

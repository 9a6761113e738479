/*
 * render_pick.h: picking on the GPU, beside the library's rays. An ID
 * buffer: the scene drawn again into an off-screen framebuffer whose colour
 * attachment holds 32-bit unsigned integers (RGBA32UI: the id and the
 * depth) beside a depth attachment for the depth test; each object writes
 * its id (lesson 1), each instanced copy base + its index (lesson 1's many
 * objects) or each triangle its index (lesson 5, gl_PrimitiveID), and the
 * pixel under the cursor is read back: the id and the depth, which the
 * app turns into a world point with rp_unproject_point.
 *
 *     render_pick_begin(p, &view, px, py);     // only that pixel is drawn
 *     render_pick_list(p, &list);              // what render_list_pick_id marked
 *     render_pick_shape(p, RENDER_CUBE, model, 7);   // or one by one
 *     render_pick_model(p, mesh, model, 0);    // triangle i writes 0 + i
 *     render_pick_instances(p, RENDER_SPHERE, copies, n, 100);  // copy j writes 100 + j
 *     render_pick_result res;
 *     render_pick_read(p, &res);               // glReadPixels: waits
 *     render_pick_end(p);
 *
 * Only the pixel under the cursor is rasterised (a 1x1 scissor), so the
 * extra pass costs almost nothing; what costs is the wait in glReadPixels
 * for the GPU to finish everything queued before it (D3D9's
 * GetRenderTargetData stalls the same way). render_pick_read_async starts
 * the copy into a pixel buffer object with a fence instead, and
 * render_pick_poll collects it a frame later without waiting.
 *
 * OpenGL ES 3 / WebGL 2 seam: GLSL ES has no gl_PrimitiveID, and ES cannot
 * read a depth attachment with glReadPixels. So the colour attachment is
 * RGBA32UI and every fragment writes (id + 1, its depth's float bits), read
 * back as one RGBA_INTEGER pixel everywhere; and with
 * render_pick_desc.flat_triangle_ids (always on in the browser) a model is
 * drawn from a non-indexed copy whose three vertices of triangle i carry i
 * as a flat integer attribute (at 3x the vertices).
 */
#ifndef RAYPICK_RENDER_PICK_H
#define RAYPICK_RENDER_PICK_H

#include <stdbool.h>
#include <stdint.h>
#include <cglm/cglm.h>
#include "render.h"
#include "render_model.h"

typedef struct render_pick render_pick;

/* Zero value = defaults. */
typedef struct render_pick_desc {
    bool flat_triangle_ids;     /* per-vertex ids, no gl_PrimitiveID (forced on in the browser) */
} render_pick_desc;

typedef struct render_pick_result {
    bool     hit;           /* something was drawn under the pixel */
    uint32_t id;            /* what it wrote: object id or base + triangle */
    float    depth;         /* window depth in [0, 1] (1 = nothing) */
    int      x, y;          /* the pixel read: column, row from the top */
    double   read_ms;       /* render_pick_read: time in glReadPixels (the stall);
                               render_pick_poll: time to map the buffers */
    double   wait_ms;       /* render_pick_poll: time from the read's start to
                               the fence found signalled (frames in between) */
} render_pick_result;

render_pick *render_pick_create(renderer *r, const render_pick_desc *desc, char *err, size_t err_size);
void render_pick_destroy(render_pick *p);

/* Binds the ID framebuffer (resized to v's drawable size when needed),
   clears the pixel (px, py) (drawable pixels, y down: the click's), and
   restricts drawing to it. false when (px, py) lies outside the view or
   the framebuffer cannot be made; then nothing is bound. */
bool render_pick_begin(render_pick *p, const render_view *v, float px, float py);
/* An object: every pixel it covers gets `id` (must be < UINT32_MAX). */
void render_pick_shape(render_pick *p, render_shape_kind kind, mat4 model, uint32_t id);
/* A model: triangle i's pixels get base + i. */
void render_pick_model(render_pick *p, const render_model *m, mat4 model, uint32_t base);
/* Copies of a shape (render_list_instances): copy j's pixels get base + j
   (the last, base + count - 1, must be below UINT32_MAX, else nothing is
   drawn).
   Spheres, ellipsoids and boxes are ray-cast as in the picture
   (shaders/impostor.*) with their exact depth, so where copies overlap the
   nearest surface wins, as for a ray; other kinds are the coarse meshes
   the picture draws. Only the copies whose bounds reach the pixel are
   drawn: the cost is a pass over the copies on the CPU and a handful of
   quads, whatever the count. */
void render_pick_instances(render_pick *p, render_shape_kind kind, const render_instance *inst, int count,
                           uint32_t base);
/* Every shape, mesh and instanced command of a frame's list that has a
   pick id (render_list_pick_id). */
void render_pick_list(render_pick *p, const render_list *list);
/* Reads the pixel now (synchronous: waits for the GPU). false on a GL error. */
bool render_pick_read(render_pick *p, render_pick_result *out);
/* Starts reading the pixel into pixel buffer objects and sets a fence;
   returns at once. A read still pending is dropped. */
bool render_pick_read_async(render_pick *p);
/* Unbinds the ID framebuffer and restores the frame's state. */
void render_pick_end(render_pick *p);

/* The async read, if the GPU has finished it: true and *out filled (once
   per read). With wait, blocks until it has. false while pending or when
   no read was started. */
bool render_pick_poll(render_pick *p, bool wait, render_pick_result *out);

#endif /* RAYPICK_RENDER_PICK_H */

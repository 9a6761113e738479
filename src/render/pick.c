/* pick.c: the ID buffer (RGBA32UI colour: id + 1 and the depth's float
   bits; a depth attachment for the depth test) and its readback, now
   (glReadPixels) or a frame later (a pixel buffer object and a fence).
   One RGBA_INTEGER read serves desktop GL and WebGL 2 alike. */
#include "render_pick.h"
#include "clock.h"
#include "geometry.h"
#include "render_model_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shaders.h"

/* what one pixel of the ID buffer reads back as: id + 1, depth bits, 0, 0 */
#define PIXEL_BYTES (4 * sizeof(GLuint))

struct render_pick {
    renderer *r;
    render_pick_desc desc;
    GLuint program, flat_program;
    /* instances (render_pick_instances): the ID variants (PICK_ID) of the
       impostor and instanced programs, the copies that can reach the pixel
       with their indices, and the VAOs reading both */
    GLuint impostor_program, instanced_program;
    GLuint candidate_vbo, index_vbo;
    GLuint impostor_vao;                        /* quads: no vertices, attributes 2..6 */
    GLuint mesh_vao[RENDER_SHAPE_COUNT];        /* other kinds: the coarse shape too (made on first use) */
    render_instance *candidates;
    uint32_t *candidate_index;
    int candidate_cap;
    GLuint fbo, color, depth;
    int width, height;          /* of the attachments */
    int x, y;                   /* the pixel, GL rows (from the bottom) */
    int row_down;               /* the same row counted from the top */
    bool active;
    render_view view;           /* of the pass (a click comes before the frame) */
    /* async read */
    GLuint pbo;                 /* one pixel: 4 x uint32 */
    GLsync fence;
    double async_start;         /* seconds */
    int async_x, async_row_down;
};

/* Attributes 2..6 of the bound VAO, one per copy: the candidates (a
   render_instance each) and their indices (location 6, an integer). */
static void candidate_attributes(const render_pick *p)
{
    render_instance_attributes(p->candidate_vbo, 1);
    glBindBuffer(GL_ARRAY_BUFFER, p->index_vbo);
    glEnableVertexAttribArray(6);
    glVertexAttribIPointer(6, 1, GL_UNSIGNED_INT, sizeof(uint32_t), NULL);
    glVertexAttribDivisor(6, 1);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
}

render_pick *render_pick_create(renderer *r, const render_pick_desc *desc, char *err, size_t err_size)
{
    render_pick *p = calloc(1, sizeof *p);
    if (!p) {
        snprintf(err, err_size, "pick pass: out of memory");
        return NULL;
    }
    p->r = r;
    if (desc)
        p->desc = *desc;
    /* without gl_PrimitiveID (the browser) the flat path is the only one */
    if (gl_platform_flat_triangle_ids())
        p->desc.flat_triangle_ids = true;
    p->program = render_link_program(shader_solid_vert, shader_pick_frag, "pick", err, err_size);
    p->flat_program = p->program ? render_link_program(shader_pick_flat_vert, shader_pick_flat_frag, "pick_flat", err, err_size) : 0;
    p->impostor_program = p->flat_program ? render_link_program_defined("#define PICK_ID\n", shader_impostor_vert,
                                                                        shader_impostor_frag, "pick impostor", err,
                                                                        err_size) : 0;
    p->instanced_program = p->impostor_program ? render_link_program_defined("#define PICK_ID\n",
                                                                             shader_instanced_vert,
                                                                             shader_instanced_frag,
                                                                             "pick instanced", err, err_size) : 0;
    if (!p->instanced_program) {
        render_pick_destroy(p);
        return NULL;
    }
    glGenBuffers(1, &p->candidate_vbo);
    glGenBuffers(1, &p->index_vbo);
    glGenVertexArrays(1, &p->impostor_vao);
    glBindVertexArray(p->impostor_vao);
    candidate_attributes(p);
    glBindVertexArray(0);
    glGenFramebuffers(1, &p->fbo);
    glGenRenderbuffers(1, &p->color);
    glGenRenderbuffers(1, &p->depth);
    glGenBuffers(1, &p->pbo);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, p->pbo);
    glBufferData(GL_PIXEL_PACK_BUFFER, PIXEL_BYTES, NULL, GL_STREAM_READ);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    return p;
}

void render_pick_destroy(render_pick *p)
{
    if (!p)
        return;
    if (p->fence)
        glDeleteSync(p->fence);
    glDeleteBuffers(1, &p->pbo);
    glDeleteFramebuffers(1, &p->fbo);
    glDeleteRenderbuffers(1, &p->color);
    glDeleteRenderbuffers(1, &p->depth);
    glDeleteProgram(p->program);
    glDeleteProgram(p->flat_program);
    glDeleteProgram(p->impostor_program);
    glDeleteProgram(p->instanced_program);
    glDeleteBuffers(1, &p->candidate_vbo);
    glDeleteBuffers(1, &p->index_vbo);
    glDeleteVertexArrays(1, &p->impostor_vao);
    glDeleteVertexArrays(RENDER_SHAPE_COUNT, p->mesh_vao);
    free(p->candidates);
    free(p->candidate_index);
    free(p);
}

/* The attachments follow the drawable's size, so ids land on the same
   pixels as the picture. */
static bool ensure_size(render_pick *p, int w, int h)
{
    glBindFramebuffer(GL_FRAMEBUFFER, p->fbo);
    if (p->width == w && p->height == h)
        return true;
    glBindRenderbuffer(GL_RENDERBUFFER, p->color);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA32UI, w, h);
    glBindRenderbuffer(GL_RENDERBUFFER, p->depth);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, w, h);
    glBindRenderbuffer(GL_RENDERBUFFER, 0);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, p->color);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, p->depth);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        p->width = p->height = 0;
        return false;
    }
    p->width = w;
    p->height = h;
    return true;
}

bool render_pick_begin(render_pick *p, const render_view *v, float px, float py)
{
    if (!p || !v || !(px >= 0.0f) || !(py >= 0.0f) || px >= (float)v->width || py >= (float)v->height)
        return false;
    if (!ensure_size(p, v->width, v->height))
        return false;
    p->x = (int)px;
    p->row_down = (int)py;
    p->y = v->height - 1 - p->row_down;     /* GL counts rows from the bottom */
    p->active = true;
    p->view = *v;
    glViewport(0, 0, v->width, v->height);
    /* only the pixel under the cursor: the rest of the pass is clipped away */
    glEnable(GL_SCISSOR_TEST);
    glScissor(p->x, p->y, 1, 1);
    const GLuint none[4] = {0, 0, 0, 0};
    glClearBufferuiv(GL_COLOR, 0, none);
    const GLfloat far_depth = 1.0f;
    glClearBufferfv(GL_DEPTH, 0, &far_depth);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);
    glDepthMask(GL_TRUE);
    glDisable(GL_BLEND);
    /* both sides, like the library's triangles (D3DXIntersect hits both) */
    glDisable(GL_CULL_FACE);
    return true;
}

static void set_matrices(GLuint prog, const render_view *v, mat4 model)
{
    glUniformMatrix4fv(glGetUniformLocation(prog, "u_model"), 1, GL_FALSE, model[0]);
    glUniformMatrix4fv(glGetUniformLocation(prog, "u_view_proj"), 1, GL_FALSE, (const float *)v->view_proj);
}

void render_pick_shape(render_pick *p, render_shape_kind kind, mat4 model, uint32_t id)
{
    if (!p || !p->active || (int)kind < 0 || kind >= RENDER_SHAPE_COUNT || id == UINT32_MAX)
        return;
    glUseProgram(p->program);
    set_matrices(p->program, &p->view, model);
    glUniform1ui(glGetUniformLocation(p->program, "u_id"), id);
    glUniform1i(glGetUniformLocation(p->program, "u_per_triangle"), 0);
    const render_mesh *m = &p->r->shapes[kind];
    glBindVertexArray(m->vao);
    glDrawElements(GL_TRIANGLES, m->index_count, GL_UNSIGNED_INT, NULL);
}

void render_pick_model(render_pick *p, const render_model *m, mat4 model, uint32_t base)
{
    if (!p || !p->active || !m)
        return;
    GLsizei corners = (GLsizei)(3 * m->triangle_count);
    if (p->desc.flat_triangle_ids && render_model_flat_ids((render_model *)m)) {
        glUseProgram(p->flat_program);
        set_matrices(p->flat_program, &p->view, model);
        glUniform1ui(glGetUniformLocation(p->flat_program, "u_id"), base);
        glBindVertexArray(m->flat_vao);
        glDrawArrays(GL_TRIANGLES, 0, corners);
        return;
    }
    glUseProgram(p->program);
    set_matrices(p->program, &p->view, model);
    glUniform1ui(glGetUniformLocation(p->program, "u_id"), base);
    glUniform1i(glGetUniformLocation(p->program, "u_per_triangle"), 1);
    glBindVertexArray(m->vao);
    glDrawElements(GL_TRIANGLES, corners, GL_UNSIGNED_INT, NULL);
}

/* ------------------------------------------------------------ instances */

/* Room for n candidates; false when out of memory (the old ones kept). */
static bool grow_candidates(render_pick *p, int n)
{
    if (n <= p->candidate_cap)
        return true;
    int cap = p->candidate_cap ? p->candidate_cap : 64;
    while (cap < n)
        cap = cap <= INT32_MAX / 2 ? cap * 2 : n;
    render_instance *c = realloc(p->candidates, (size_t)cap * sizeof *c);
    if (c)
        p->candidates = c;
    uint32_t *index = realloc(p->candidate_index, (size_t)cap * sizeof *index);
    if (index)
        p->candidate_index = index;
    if (!c || !index)
        return false;
    p->candidate_cap = cap;
    return true;
}

/* Gathers the copies whose bounding sphere meets the frustum of the picked
   pixel alone (gluPickMatrix's: that pixel stretched over the whole view),
   with their indices in inst: the only copies that can write the pixel.
   Among 100,000 they are a handful, so the pass draws them all as quads
   with exact depth, and an index must ride along (a draw of these few
   numbers them 0, 1, 2, ... in gl_InstanceID). -1 when out of memory. */
static int pixel_candidates(render_pick *p, render_shape_kind kind, const render_instance *inst, int count)
{
    float w = (float)p->view.width, h = (float)p->view.height;
    float cx = (float)p->x + 0.5f, cy = (float)p->y + 0.5f;    /* the pixel's centre, GL rows */
    mat4 pixel = GLM_MAT4_IDENTITY_INIT, m;
    pixel[0][0] = w;
    pixel[1][1] = h;
    pixel[3][0] = w - 2.0f * cx;
    pixel[3][1] = h - 2.0f * cy;
    glm_mat4_mul(pixel, p->view.view_proj, m);
    vec4 planes[6];     /* unit normals pointing in */
    glm_frustum_planes(m, planes);
    int n = 0;
    for (int i = 0; i < count; ++i) {
        const float *c = inst[i].position;
        float radius = render_instance_radius(kind, &inst[i]);
        if (!render_sphere_meets_planes((const vec4 *)planes, c, radius))
            continue;
        if (!grow_candidates(p, n + 1))
            return -1;
        p->candidates[n] = inst[i];
        p->candidate_index[n++] = (uint32_t)i;
    }
    return n;
}

/* The VAO of kind's coarse instanced shape reading the candidates (made on
   first use: the renderer's shapes exist once render_complete has run). */
static GLuint mesh_vao(render_pick *p, render_shape_kind kind)
{
    const render_mesh *shape = &p->r->inst_shapes[kind];
    if (p->mesh_vao[kind] || !shape->vao)
        return p->mesh_vao[kind];
    glGenVertexArrays(1, &p->mesh_vao[kind]);
    glBindVertexArray(p->mesh_vao[kind]);
    render_mesh_attributes(shape);
    candidate_attributes(p);
    glBindVertexArray(0);
    return p->mesh_vao[kind];
}

/* Sphere (ellipsoid) and box copies: impostor quads, ray-cast per pixel,
   exact depth; the n candidates are in the bound buffers. */
static void draw_impostor_candidates(render_pick *p, render_shape_kind kind, uint32_t base, int n)
{
    GLuint prog = p->impostor_program;
    glUseProgram(prog);
    vec3 ray_base, dx, dy;
    render_pixel_rays(&p->view, ray_base, dx, dy);
    glUniformMatrix4fv(glGetUniformLocation(prog, "u_view_proj"), 1, GL_FALSE, (const float *)p->view.view_proj);
    glUniform3fv(glGetUniformLocation(prog, "u_eye"), 1, p->view.eye);
    glUniform2f(glGetUniformLocation(prog, "u_screen"), (float)p->view.width, (float)p->view.height);
    glUniform1i(glGetUniformLocation(prog, "u_box"), kind == RENDER_CUBE);
    glUniform1i(glGetUniformLocation(prog, "u_quads"), 1);
    glUniform3fv(glGetUniformLocation(prog, "u_ray_base"), 1, ray_base);
    glUniform3fv(glGetUniformLocation(prog, "u_ray_dx"), 1, dx);
    glUniform3fv(glGetUniformLocation(prog, "u_ray_dy"), 1, dy);
    glUniform1ui(glGetUniformLocation(prog, "u_id"), base);
    glBindVertexArray(p->impostor_vao);
    glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, n);
}

void render_pick_instances(render_pick *p, render_shape_kind kind, const render_instance *inst, int count,
                           uint32_t base)
{
    if (!p || !p->active || (int)kind < 0 || kind >= RENDER_SHAPE_COUNT || !inst || count <= 0 ||
        (uint64_t)base + (uint64_t)count > UINT32_MAX)    /* the last id, base + count - 1, is written + 1 */
        return;
    int n = pixel_candidates(p, kind, inst, count);
    if (n <= 0)
        return;     /* none near the pixel (or out of memory: the copies write nothing) */
    glBindBuffer(GL_ARRAY_BUFFER, p->candidate_vbo);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)((size_t)n * sizeof *p->candidates), p->candidates, GL_STREAM_DRAW);
    glBindBuffer(GL_ARRAY_BUFFER, p->index_vbo);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)((size_t)n * sizeof *p->candidate_index), p->candidate_index,
                 GL_STREAM_DRAW);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    if (kind == RENDER_SPHERE || kind == RENDER_CUBE) {
        draw_impostor_candidates(p, kind, base, n);
        return;
    }
    GLuint vao = mesh_vao(p, kind);
    if (!vao)
        return;
    GLuint prog = p->instanced_program;
    glUseProgram(prog);
    glUniformMatrix4fv(glGetUniformLocation(prog, "u_view_proj"), 1, GL_FALSE, (const float *)p->view.view_proj);
    glUniform1ui(glGetUniformLocation(prog, "u_id"), base);
    glBindVertexArray(vao);
    glDrawElementsInstanced(GL_TRIANGLES, p->r->inst_shapes[kind].index_count, GL_UNSIGNED_INT, NULL, n);
}

void render_pick_list(render_pick *p, const render_list *list)
{
    if (!p || !p->active || !list)
        return;
    for (int i = 0; i < list->count; ++i) {
        const render_cmd *c = &list->cmds[i];
        if (c->pick_id < 0)
            continue;
        /* Every kind is named and none is left to a default: a new kind does
           not compile (-Wswitch, an error with --werror) until it is decided
           here whether the ID pass draws it. */
        switch (c->kind) {
        case RENDER_CMD_SHAPE:
            render_pick_shape(p, c->u.shape.shape, (vec4 *)c->u.shape.model, (uint32_t)c->pick_id);
            break;
        case RENDER_CMD_MESH:
            render_pick_model(p, render_cached_model(p->r, c->u.mesh.mesh), (vec4 *)c->u.mesh.model,
                              (uint32_t)c->pick_id);
            break;
        case RENDER_CMD_INSTANCES:
            render_pick_instances(p, c->u.instances.shape, c->u.instances.instances, c->u.instances.count,
                                  (uint32_t)c->pick_id);
            break;
        case RENDER_CMD_TERRAIN:            /* opaque, but picked by the library's heightmap (lesson 4) */
        case RENDER_CMD_MESH_HIGHLIGHT:     /* drawn over its mesh, which is the target */
        case RENDER_CMD_GRID:               /* the rest is translucent or a marker: a ray passes through */
        case RENDER_CMD_SHADOW:
        case RENDER_CMD_LINE:
        case RENDER_CMD_POINT:
        case RENDER_CMD_BEAM:
        case RENDER_CMD_SHIELD:
        case RENDER_CMD_GLASS:
        case RENDER_CMD_FIGURE:             /* a 2D inset over the scene, not in it */
        case RENDER_CMD_COUNT:
            break;
        }
    }
}

/* pixel = what the ID pass wrote: id + 1 (0 = nothing), the depth's bits */
static void fill_result(render_pick_result *out, const GLuint pixel[4], int x, int row_down)
{
    memset(out, 0, sizeof *out);
    out->hit = pixel[0] != 0;
    out->id = pixel[0] ? pixel[0] - 1 : 0;
    float depth = 1.0f;
    if (out->hit)
        memcpy(&depth, &pixel[1], sizeof depth);
    out->depth = depth;
    out->x = x;
    out->y = row_down;
}

bool render_pick_read(render_pick *p, render_pick_result *out)
{
    if (!p || !p->active || !out)
        return false;
    GLuint pixel[4] = {0, 0, 0, 0};
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadBuffer(GL_COLOR_ATTACHMENT0);
    double start = render_clock_seconds();
    glReadPixels(p->x, p->y, 1, 1, GL_RGBA_INTEGER, GL_UNSIGNED_INT, pixel);
    double ms = (render_clock_seconds() - start) * 1e3;
    if (glGetError() != GL_NO_ERROR)
        return false;
    fill_result(out, pixel, p->x, p->row_down);
    out->read_ms = ms;
    return true;
}

bool render_pick_read_async(render_pick *p)
{
    if (!p || !p->active)
        return false;
    if (p->fence) {
        glDeleteSync(p->fence);
        p->fence = NULL;
    }
    p->async_start = render_clock_seconds();
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadBuffer(GL_COLOR_ATTACHMENT0);
    /* with a pack buffer bound the last argument is an offset into it and
       glReadPixels returns without waiting for the GPU */
    glBindBuffer(GL_PIXEL_PACK_BUFFER, p->pbo);
    glReadPixels(p->x, p->y, 1, 1, GL_RGBA_INTEGER, GL_UNSIGNED_INT, NULL);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    p->fence = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    p->async_x = p->x;
    p->async_row_down = p->row_down;
    return p->fence != NULL && glGetError() == GL_NO_ERROR;
}

void render_pick_end(render_pick *p)
{
    if (!p || !p->active)
        return;
    p->active = false;
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDisable(GL_SCISSOR_TEST);
    glEnable(GL_CULL_FACE);
    glViewport(0, 0, p->view.width, p->view.height);
}

bool render_pick_poll(render_pick *p, bool wait, render_pick_result *out)
{
    if (!p || !p->fence || !out)
        return false;
    GLenum state = glClientWaitSync(p->fence, GL_SYNC_FLUSH_COMMANDS_BIT,
                                    gl_platform_wait_limit_ns(wait ? 1000000000u : 0u));
    if (state != GL_ALREADY_SIGNALED && state != GL_CONDITION_SATISFIED)
        return false;
    double signalled = render_clock_seconds();
    glDeleteSync(p->fence);
    p->fence = NULL;
    GLuint pixel[4] = {0, 0, 0, 0};
    double start = render_clock_seconds();
    glBindBuffer(GL_PIXEL_PACK_BUFFER, p->pbo);
    bool ok = gl_platform_read_pack_buffer(PIXEL_BYTES, pixel);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    if (!ok)
        return false;
    fill_result(out, pixel, p->async_x, p->async_row_down);
    out->read_ms = (render_clock_seconds() - start) * 1e3;
    out->wait_ms = (signalled - p->async_start) * 1e3;
    return true;
}

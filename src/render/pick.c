/* pick.c: the ID buffer (RGBA32UI colour: id + 1 and the depth's float
   bits; a depth attachment for the depth test) and its readback, now
   (glReadPixels) or a frame later (a pixel buffer object and a fence).
   One RGBA_INTEGER read serves desktop GL and WebGL 2 alike. */
#include "render_pick.h"
#include "clock.h"
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
    if (!p->flat_program) {
        render_pick_destroy(p);
        return NULL;
    }
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

void render_pick_list(render_pick *p, const render_list *list)
{
    if (!p || !p->active || !list)
        return;
    for (int i = 0; i < list->count; ++i) {
        const render_cmd *c = &list->cmds[i];
        if (c->pick_id < 0)
            continue;
        if (c->kind == RENDER_CMD_SHAPE)
            render_pick_shape(p, c->u.shape.shape, (vec4 *)c->u.shape.model, (uint32_t)c->pick_id);
        else if (c->kind == RENDER_CMD_MESH)
            render_pick_model(p, render_cached_model(p->r, c->u.mesh.mesh), (vec4 *)c->u.mesh.model,
                              (uint32_t)c->pick_id);
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

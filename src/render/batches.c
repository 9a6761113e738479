/* batches.c: what the frame collects into vertex batches and draws in a
   few calls: lines (and x-ray lines' hidden parts), round points,
   camera-facing beams, soft ground shadows, and the ground grid (a batch
   built once). */
#include "render_internal.h"
#include "steady_math.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The hidden parts of an x-ray line: this much of its opacity. */
#define XRAY_HIDDEN_ALPHA 0.5f

void render_batch_init(render_batch *b)
{
    memset(b, 0, sizeof *b);
    glGenVertexArrays(1, &b->vao);
    glGenBuffers(1, &b->vbo);
    glBindVertexArray(b->vao);
    glBindBuffer(GL_ARRAY_BUFFER, b->vbo);
    render_float_attribute(0, 3, sizeof(render_vertex), offsetof(render_vertex, position));
    render_float_attribute(1, 4, sizeof(render_vertex), offsetof(render_vertex, color));
    render_float_attribute(2, 1, sizeof(render_vertex), offsetof(render_vertex, extra));
    glBindVertexArray(0);
}

void render_batch_free(render_batch *b)
{
    glDeleteVertexArrays(1, &b->vao);
    glDeleteBuffers(1, &b->vbo);
    free(b->v);
    memset(b, 0, sizeof *b);
}

static render_vertex *batch_push(render_batch *b, int count)
{
    if (b->count + count > b->cap) {
        int cap = b->cap ? b->cap * 2 : 1024;
        while (cap < b->count + count)
            cap *= 2;
        render_vertex *v = realloc(b->v, (size_t)cap * sizeof *v);
        if (!v)
            return NULL;
        b->v = v;
        b->cap = cap;
    }
    render_vertex *out = b->v + b->count;
    b->count += count;
    return out;
}

static void set_rv(render_vertex *v, const vec3 p, const vec4 c, float extra)
{
    memcpy(v->position, p, sizeof v->position);
    memcpy(v->color, c, sizeof v->color);
    v->extra = extra;
}

static void batch_draw(render_batch *b, GLenum mode)
{
    if (b->count == 0)
        return;
    glBindVertexArray(b->vao);
    glBindBuffer(GL_ARRAY_BUFFER, b->vbo);
    /* a new store of the batch's capacity each frame (orphaning: no wait
       for the last frame's draw), then the frame's vertices into it. The
       size changes only when the capacity doubles: a store sized to each
       frame's count made the driver allocate a different size every frame,
       and the soak run saw the heap creep. */
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)((size_t)b->cap * sizeof(render_vertex)), NULL, GL_STREAM_DRAW);
    glBufferSubData(GL_ARRAY_BUFFER, 0, (GLsizeiptr)((size_t)b->count * sizeof(render_vertex)), b->v);
    glDrawArrays(mode, 0, b->count);
    b->count = 0;
}

/* ------------------------------------------------------------ grid */

static void build_grid(renderer *r)
{
    /* lines in pieces, alpha per vertex fading with distance */
    const int half = 40, pieces = 8;
    const float extent = (float)half;
    render_batch_init(&r->grid);
    for (int i = -half; i <= half; ++i) {
        float f = (float)i, base = i % 5 == 0 ? 0.30f : 0.14f;
        for (int k = 0; k < pieces; ++k) {
            float a = -extent + 2.0f * extent * (float)k / (float)pieces;
            float b = -extent + 2.0f * extent * (float)(k + 1) / (float)pieces;
            for (int axis = 0; axis < 2; ++axis) {
                vec3 p0 = {axis ? f : a, 0.0f, axis ? a : f};
                vec3 p1 = {axis ? f : b, 0.0f, axis ? b : f};
                float d0 = sqrtf(p0[0] * p0[0] + p0[2] * p0[2]) / extent;
                float d1 = sqrtf(p1[0] * p1[0] + p1[2] * p1[2]) / extent;
                vec4 c0 = {0.45f, 0.55f, 0.75f, base * glm_clamp(1.0f - d0, 0.0f, 1.0f)};
                vec4 c1 = {0.45f, 0.55f, 0.75f, base * glm_clamp(1.0f - d1, 0.0f, 1.0f)};
                if (c0[3] <= 0.0f && c1[3] <= 0.0f)
                    continue;   /* faded out: not worth a line */
                render_vertex *v = batch_push(&r->grid, 2);
                if (!v)
                    return;
                set_rv(&v[0], p0, c0, 0.0f);
                set_rv(&v[1], p1, c1, 0.0f);
            }
        }
    }
    glBindBuffer(GL_ARRAY_BUFFER, r->grid.vbo);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)((size_t)r->grid.count * sizeof(render_vertex)),
                 r->grid.v, GL_STATIC_DRAW);
}

void render_draw_grid(renderer *r, float y)
{
    mat4 m, vp;
    glm_translate_make(m, (vec3){0.0f, y, 0.0f});
    glm_mat4_mul(r->view.view_proj, m, vp);
    glUseProgram(r->flat_prog.id);
    glUniformMatrix4fv(r->flat_prog.loc[U_VIEW_PROJ], 1, GL_FALSE, vp[0]);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glDepthMask(GL_FALSE);
    glDisable(GL_CULL_FACE);
    glBindVertexArray(r->grid.vao);
    glDrawArrays(GL_LINES, 0, r->grid.count);
    glEnable(GL_CULL_FACE);
    glDepthMask(GL_TRUE);
    glDisable(GL_BLEND);
}

/* ------------------------------------------------------------ life cycle */

enum { FRAME_BATCHES = 5 };

/* the batches every frame refills */
static void frame_batches(renderer *r, render_batch *out[FRAME_BATCHES])
{
    out[0] = &r->shadows;
    out[1] = &r->lines;
    out[2] = &r->hidden_lines;
    out[3] = &r->points;
    out[4] = &r->beams;
}

void render_batches_build(renderer *r)
{
    render_batch *frame[FRAME_BATCHES];
    frame_batches(r, frame);
    for (int i = 0; i < FRAME_BATCHES; ++i)
        render_batch_init(frame[i]);
    build_grid(r);
}

void render_batches_free(renderer *r)
{
    render_batch *frame[FRAME_BATCHES];
    frame_batches(r, frame);
    for (int i = 0; i < FRAME_BATCHES; ++i)
        render_batch_free(frame[i]);
    render_batch_free(&r->grid);
}

/* ------------------------------------------------------------ collecting */

static void batch_line(renderer *r, const vec3 a, const vec3 b, const vec4 color, bool xray)
{
    render_vertex *v = batch_push(&r->lines, 2);
    if (!v)
        return;
    set_rv(&v[0], a, color, 0.0f);
    set_rv(&v[1], b, color, 0.0f);
    if (!xray || !(v = batch_push(&r->hidden_lines, 2)))
        return;
    vec4 faint = {color[0], color[1], color[2], color[3] * XRAY_HIDDEN_ALPHA};
    set_rv(&v[0], a, faint, 0.0f);
    set_rv(&v[1], b, faint, 0.0f);
}

static void batch_point(renderer *r, const vec3 p, float size_px, const vec4 color)
{
    render_vertex *v = batch_push(&r->points, 1);
    if (v)
        set_rv(v, p, color, size_px);
}

static void batch_beam(renderer *r, const vec3 a, const vec3 b, float width, const vec4 color)
{
    vec3 along, to_eye, side, mid;
    glm_vec3_sub((float *)b, (float *)a, along);
    glm_vec3_lerp((float *)a, (float *)b, 0.5f, mid);
    glm_vec3_sub(r->view.eye, mid, to_eye);
    glm_vec3_cross(along, to_eye, side);
    if (glm_vec3_norm(side) < 1e-6f)
        return;
    glm_vec3_normalize(side);
    glm_vec3_scale(side, width * 0.5f, side);
    vec3 a0, a1, b0, b1;
    glm_vec3_sub((float *)a, side, a0);
    glm_vec3_add((float *)a, side, a1);
    glm_vec3_sub((float *)b, side, b0);
    glm_vec3_add((float *)b, side, b1);
    render_vertex *v = batch_push(&r->beams, 6);
    if (!v)
        return;
    set_rv(&v[0], a0, color, -1.0f);
    set_rv(&v[1], b0, color, -1.0f);
    set_rv(&v[2], b1, color, 1.0f);
    set_rv(&v[3], a0, color, -1.0f);
    set_rv(&v[4], b1, color, 1.0f);
    set_rv(&v[5], a1, color, 1.0f);
}

static void batch_shadow(renderer *r, const vec3 center, float radius, float ground, float strength)
{
    enum { SEG = 32 };
    /* higher objects cast lighter, wider shadows */
    float height = glm_max(center[1] - ground, 0.0f);
    float spread = radius * (1.0f + 0.15f * height);
    float alpha = strength / (1.0f + 0.1f * height);
    render_vertex *v = batch_push(&r->shadows, SEG * 3);
    if (!v)
        return;
    vec3 mid = {center[0], ground + 0.01f, center[2]};
    vec4 dark = {0.0f, 0.0f, 0.0f, alpha}, clear = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int i = 0; i < SEG; ++i) {
        float a0 = 2.0f * GLM_PIf * (float)i / SEG, a1 = 2.0f * GLM_PIf * (float)(i + 1) / SEG;
        vec3 p0 = {mid[0] + spread * steady_sinf(a0), mid[1], mid[2] + spread * steady_cosf(a0)};
        vec3 p1 = {mid[0] + spread * steady_sinf(a1), mid[1], mid[2] + spread * steady_cosf(a1)};
        set_rv(&v[3 * i], mid, dark, 0.0f);
        set_rv(&v[3 * i + 1], p0, clear, 0.0f);
        set_rv(&v[3 * i + 2], p1, clear, 0.0f);
    }
}

void render_batches_collect(renderer *r, const render_list *list)
{
    for (int i = 0; i < list->count; ++i) {
        const render_cmd *c = &list->cmds[i];
        if (c->kind == RENDER_CMD_SHADOW)
            batch_shadow(r, c->u.shadow.center, c->u.shadow.radius, c->u.shadow.ground, c->u.shadow.strength);
        else if (c->kind == RENDER_CMD_LINE)
            batch_line(r, c->u.line.a, c->u.line.b, c->u.line.color, c->u.line.xray);
        else if (c->kind == RENDER_CMD_POINT)
            batch_point(r, c->u.point.p, c->u.point.size_px, c->u.point.color);
        else if (c->kind == RENDER_CMD_BEAM)
            batch_beam(r, c->u.beam.a, c->u.beam.b, c->u.beam.width, c->u.beam.color);
    }
}

/* ------------------------------------------------------------ drawing */

void render_draw_shadows_and_lines(renderer *r)
{
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glDisable(GL_CULL_FACE);
    glUseProgram(r->flat_prog.id);
    glUniformMatrix4fv(r->flat_prog.loc[U_VIEW_PROJ], 1, GL_FALSE,
                       (const float *)r->view.view_proj);
    glDepthMask(GL_FALSE);
    batch_draw(&r->shadows, GL_TRIANGLES);
    glDepthMask(GL_TRUE);
    batch_draw(&r->lines, GL_LINES);
    /* x-ray lines again, faintly, only where something nearer hides them */
    glDepthFunc(GL_GREATER);
    glDepthMask(GL_FALSE);
    batch_draw(&r->hidden_lines, GL_LINES);
    glDepthFunc(GL_LESS);
    glDepthMask(GL_TRUE);
    glEnable(GL_CULL_FACE);
    glDisable(GL_BLEND);
}

/* A batch through the line program: round points, or beams (additive, no
   depth writes); blended, both sides drawn. */
static void draw_line_batch(renderer *r, render_batch *b, GLenum mode, bool beam)
{
    if (b->count == 0)
        return;
    const render_program *p = &r->line_prog;
    glUseProgram(p->id);
    glUniformMatrix4fv(p->loc[U_VIEW_PROJ], 1, GL_FALSE, (const float *)r->view.view_proj);
    glUniform1i(p->loc[U_ROUND_POINTS], !beam);
    glUniform1i(p->loc[U_BEAM], beam);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, beam ? GL_ONE : GL_ONE_MINUS_SRC_ALPHA);
    if (beam)
        glDepthMask(GL_FALSE);
    glDisable(GL_CULL_FACE);
    batch_draw(b, mode);
    glDepthMask(GL_TRUE);
    glEnable(GL_CULL_FACE);
    glDisable(GL_BLEND);
}

void render_draw_points(renderer *r)
{
    draw_line_batch(r, &r->points, GL_POINTS, false);
}

void render_draw_beams(renderer *r)
{
    draw_line_batch(r, &r->beams, GL_TRIANGLES, true);
}

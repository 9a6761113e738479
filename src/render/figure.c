/* figure.c: 2D figures (a lesson's inset: its key figure drawn from the
   step's numbers; the code panel) in drawable pixels, top-left origin. The
   list's RENDER_CMD_FIGURE commands become triangles in list order, their
   texts drawn over them by the HUD's text (text.c, flushed here), all into
   a layer: a texture the drawable's size, kept while the figures stay the
   same (a key hashed from the commands). Each frame shows the layer as one
   quad over the scene (after its translucent phase) and under the HUD.
   A panel of code is thousands of small text quads; drawn once per step,
   not per frame, it costs a frame one textured quad (docs/performance.md).
   The layer holds premultiplied colour: shapes are blended into it with
   the alpha accumulated, shown with (1, 1 - alpha). The programs are built
   when a figure is first drawn: a run that never shows one holds none. */
#include "render_internal.h"

#include "shaders.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* the layer's quad: x y in pixels, then u v */
typedef struct layer_vertex {
    float position[2];
    float uv[2];
} layer_vertex;

void render_figure_init(renderer *r)
{
    glGenVertexArrays(1, &r->figure.vao);
    glGenBuffers(1, &r->figure.vbo);
    glBindVertexArray(r->figure.vao);
    glBindBuffer(GL_ARRAY_BUFFER, r->figure.vbo);
    render_float_attribute(0, 2, sizeof(text_vertex), offsetof(text_vertex, position));
    render_float_attribute(1, 4, sizeof(text_vertex), offsetof(text_vertex, color));
    glGenVertexArrays(1, &r->figure.quad_vao);
    glGenBuffers(1, &r->figure.quad_vbo);
    glBindVertexArray(r->figure.quad_vao);
    glBindBuffer(GL_ARRAY_BUFFER, r->figure.quad_vbo);
    render_float_attribute(0, 2, sizeof(layer_vertex), offsetof(layer_vertex, position));
    render_float_attribute(1, 2, sizeof(layer_vertex), offsetof(layer_vertex, uv));
    glBindVertexArray(0);
}

static void layer_free(renderer *r)
{
    glDeleteFramebuffers(1, &r->figure.layer_fbo);
    glDeleteTextures(1, &r->figure.layer_tex);
    r->figure.layer_fbo = r->figure.layer_tex = 0;
    r->figure.layer_w = r->figure.layer_h = 0;
    r->figure.layer_key = 0;
}

void render_figure_free(renderer *r)
{
    layer_free(r);
    glDeleteVertexArrays(1, &r->figure.vao);
    glDeleteBuffers(1, &r->figure.vbo);
    glDeleteVertexArrays(1, &r->figure.quad_vao);
    glDeleteBuffers(1, &r->figure.quad_vbo);
    free(r->figure.v);
    memset(&r->figure, 0, sizeof r->figure);
}

/* Room for n more vertices; NULL when out of memory (the figure loses a part). */
static text_vertex *push(renderer *r, int n)
{
    render_figure_batch *b = &r->figure;
    if (b->count + n > b->cap) {
        int cap = b->cap ? b->cap : 1024;
        while (cap < b->count + n)
            cap *= 2;
        text_vertex *v = realloc(b->v, (size_t)cap * sizeof *v);
        if (!v)
            return NULL;
        b->v = v;
        b->cap = cap;
    }
    text_vertex *out = b->v + b->count;
    b->count += n;
    return out;
}

static void triangle(renderer *r, const float p[6], const vec4 color)
{
    text_vertex *v = push(r, 3);
    if (!v)
        return;
    for (int i = 0; i < 3; ++i) {
        v[i].position[0] = p[2 * i];
        v[i].position[1] = p[2 * i + 1];
        memcpy(v[i].color, color, sizeof v[i].color);
    }
}

static void quad(renderer *r, const float a[2], const float b[2], const float c[2], const float d[2],
                 const vec4 color)
{
    const float t1[6] = {a[0], a[1], b[0], b[1], c[0], c[1]}, t2[6] = {a[0], a[1], c[0], c[1], d[0], d[1]};
    triangle(r, t1, color);
    triangle(r, t2, color);
}

/* a segment as a quad, width pixels across (at least one) */
static void segment(renderer *r, float x0, float y0, float x1, float y1, float width, const vec4 color)
{
    float dx = x1 - x0, dy = y1 - y0, len = sqrtf(dx * dx + dy * dy);
    if (len <= 0.0f)
        return;
    float h = 0.5f * fmaxf(width, 1.0f), nx = -dy / len * h, ny = dx / len * h;
    const float a[2] = {x0 + nx, y0 + ny}, b[2] = {x1 + nx, y1 + ny}, c[2] = {x1 - nx, y1 - ny},
                d[2] = {x0 - nx, y0 - ny};
    quad(r, a, b, c, d, color);
}

static void arrow(renderer *r, float x0, float y0, float x1, float y1, float width, const vec4 color)
{
    float dx = x1 - x0, dy = y1 - y0, len = sqrtf(dx * dx + dy * dy);
    if (len <= 0.0f)
        return;
    float head = fminf(4.0f * fmaxf(width, 1.0f) + 4.0f, 0.5f * len);
    float ux = dx / len, uy = dy / len;
    float bx = x1 - ux * head, by = y1 - uy * head;
    segment(r, x0, y0, bx, by, width, color);
    const float t[6] = {x1, y1, bx - uy * head * 0.5f, by + ux * head * 0.5f, bx + uy * head * 0.5f,
                        by - ux * head * 0.5f};
    triangle(r, t, color);
}

/* a ring width wide, or a disc for width <= 0 */
static void circle(renderer *r, float cx, float cy, float radius, float width, const vec4 color)
{
    int n = (int)glm_clamp(radius * 0.8f, 12.0f, 64.0f);
    float inner = width > 0.0f ? fmaxf(radius - 0.5f * width, 0.0f) : 0.0f;
    float outer = width > 0.0f ? radius + 0.5f * width : radius;
    for (int i = 0; i < n; ++i) {
        float a0 = 2.0f * GLM_PIf * (float)i / (float)n, a1 = 2.0f * GLM_PIf * (float)(i + 1) / (float)n;
        float c0 = cosf(a0), s0 = sinf(a0), c1 = cosf(a1), s1 = sinf(a1);
        const float o0[2] = {cx + outer * c0, cy + outer * s0}, o1[2] = {cx + outer * c1, cy + outer * s1};
        if (inner <= 0.0f) {
            const float t[6] = {cx, cy, o0[0], o0[1], o1[0], o1[1]};
            triangle(r, t, color);
        } else {
            const float i0[2] = {cx + inner * c0, cy + inner * s0}, i1[2] = {cx + inner * c1, cy + inner * s1};
            quad(r, i0, o0, o1, i1, color);
        }
    }
}

/* the byte after the UTF-8 character at s */
static const char *next_char(const char *s)
{
    ++s;
    while ((*s & 0xC0) == 0x80)
        ++s;
    return s;
}

/* How many bytes of line (up to its end or '\n') fit max_w: up to the
   last space that keeps it within max_w, else as many characters as fit
   (at least one). */
static size_t fitting(renderer *r, const char *line, float scale, float max_w)
{
    char buf[512];
    size_t end = strcspn(line, "\n"), best_space = 0, best_char = 0;
    for (const char *p = line; (size_t)(p - line) < end;) {
        const char *q = next_char(p);
        size_t n = (size_t)(q - line);
        if (n >= sizeof buf)
            break;
        memcpy(buf, line, n);
        buf[n] = '\0';
        if (render_text_width(r, buf, scale) > max_w)
            break;
        best_char = n;
        if (*q == ' ' || *q == '\n' || *q == '\0')
            best_space = n;
        p = q;
    }
    if (best_char == end)
        return end;
    if (best_space > 0)
        return best_space;
    return best_char > 0 ? best_char : (size_t)(next_char(line) - line);
}

static void text_line(renderer *r, const render_cmd *c, float y, const char *s)
{
    float scale = c->u.figure.x1, x = c->u.figure.x0;
    if (c->u.figure.align != RENDER_ALIGN_LEFT) {
        float w = render_text_width(r, s, scale);
        x -= c->u.figure.align == RENDER_ALIGN_CENTER ? 0.5f * w : w;
    }
    if (c->u.figure.width > 0.0f)
        render_text_clipped(r, x, y, scale, c->u.figure.color, s, c->u.figure.width);
    else
        render_text(r, x, y, scale, c->u.figure.color, s);
}

/* the text, wrapped to its width when it has one, a line at a time */
static void text(renderer *r, const render_list *list, const render_cmd *c)
{
    const char *s = render_list_fig_string(list, c);
    float scale = c->u.figure.x1, max_w = c->u.figure.y1;
    if (max_w <= 0.0f) {
        text_line(r, c, c->u.figure.y0, s);
        return;
    }
    float line_h = render_text_height(r, "0", scale), y = c->u.figure.y0;
    char line[512];
    while (*s) {
        size_t n = fitting(r, s, scale, max_w);
        if (n >= sizeof line)
            n = sizeof line - 1;
        memcpy(line, s, n);
        line[n] = '\0';
        text_line(r, c, y, line);
        y += line_h;
        s += n;
        while (*s == ' ')
            ++s;
        if (*s == '\n')
            ++s;
    }
}

/* ---- the layer ---- */

static uint64_t fnv(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; ++i)
        h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

/* Where a text command's text goes (wrapped: as many lines as its width
   needs at most, counted generously). */
static void text_extent(renderer *r, const render_cmd *c, const char *s, float *x0, float *y0, float *x1, float *y1)
{
    float scale = c->u.figure.x1, max_w = c->u.figure.y1;
    float w = render_text_width(r, s, scale), line_h = render_text_height(r, "0", scale);
    float lines = 1.0f;
    for (const char *p = s; *p; ++p)
        lines += *p == '\n';
    float left = c->u.figure.x0;
    if (max_w > 0.0f) {
        lines += ceilf(w / max_w);
        w = max_w;
    }
    if (c->u.figure.align == RENDER_ALIGN_CENTER)
        left -= 0.5f * w;
    else if (c->u.figure.align == RENDER_ALIGN_RIGHT)
        left -= w;
    *x0 = left;
    *x1 = c->u.figure.width > 0.0f ? fminf(left + w, c->u.figure.width) : left + w;
    *y0 = c->u.figure.y0;
    *y1 = c->u.figure.y0 + lines * line_h;
}

/* What the list's figures look like, as a number (never 0), and where
   they are. */
static uint64_t figures_key(renderer *r, const render_list *list, float extent[4])
{
    uint64_t h = 14695981039346656037ull;
    h = fnv(h, &r->view.width, sizeof r->view.width);
    h = fnv(h, &r->view.height, sizeof r->view.height);
    extent[0] = extent[1] = INFINITY;
    extent[2] = extent[3] = -INFINITY;
    for (int i = 0; i < list->count; ++i) {
        const render_cmd *c = &list->cmds[i];
        if (c->kind != RENDER_CMD_FIGURE)
            continue;
        const float v[9] = {(float)c->u.figure.shape, c->u.figure.x0, c->u.figure.y0, c->u.figure.x1,
                            c->u.figure.y1, c->u.figure.width, (float)c->u.figure.align, 0.0f, 0.0f};
        h = fnv(h, v, sizeof v);
        h = fnv(h, c->u.figure.color, sizeof c->u.figure.color);
        float x0 = c->u.figure.x0, y0 = c->u.figure.y0, x1 = c->u.figure.x1, y1 = c->u.figure.y1;
        float pad = 0.5f * c->u.figure.width + 1.0f;
        switch (c->u.figure.shape) {
        case RENDER_FIG_TEXT: {
            const char *s = render_list_fig_string(list, c);
            h = fnv(h, s, strlen(s) + 1);
            text_extent(r, c, s, &x0, &y0, &x1, &y1);
            pad = 2.0f;
            break;
        }
        case RENDER_FIG_CIRCLE:
            pad += x1;
            x1 = x0;
            y1 = y0;
            break;
        case RENDER_FIG_ARROW:
            pad += 4.0f * fmaxf(c->u.figure.width, 1.0f) + 4.0f;
            break;
        case RENDER_FIG_RECT:
        case RENDER_FIG_LINE:
            break;
        }
        extent[0] = fminf(extent[0], fminf(x0, x1) - pad);
        extent[1] = fminf(extent[1], fminf(y0, y1) - pad);
        extent[2] = fmaxf(extent[2], fmaxf(x0, x1) + pad);
        extent[3] = fmaxf(extent[3], fmaxf(y0, y1) + pad);
    }
    extent[0] = glm_clamp(floorf(extent[0]), 0.0f, (float)r->view.width);
    extent[1] = glm_clamp(floorf(extent[1]), 0.0f, (float)r->view.height);
    extent[2] = glm_clamp(ceilf(extent[2]), 0.0f, (float)r->view.width);
    extent[3] = glm_clamp(ceilf(extent[3]), 0.0f, (float)r->view.height);
    return h ? h : 1;
}

/* A layer the drawable's size; false when the driver will not make one. */
static bool layer_ready(renderer *r)
{
    render_figure_batch *b = &r->figure;
    if (b->layer_fbo && b->layer_w == r->view.width && b->layer_h == r->view.height)
        return true;
    layer_free(r);
    glGenTextures(1, &b->layer_tex);
    glBindTexture(GL_TEXTURE_2D, b->layer_tex);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, r->view.width, r->view.height, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glGenFramebuffers(1, &b->layer_fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, b->layer_fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, b->layer_tex, 0);
    bool ok = glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glBindTexture(GL_TEXTURE_2D, 0);
    if (!ok) {
        layer_free(r);
        return false;
    }
    b->layer_w = r->view.width;
    b->layer_h = r->view.height;
    return true;
}

/* The figures' triangles and texts into what is bound now. */
static void draw_into_bound(renderer *r, const render_list *list)
{
    r->figure.count = 0;
    for (int i = 0; i < list->count; ++i) {
        const render_cmd *c = &list->cmds[i];
        if (c->kind != RENDER_CMD_FIGURE)
            continue;
        const float x0 = c->u.figure.x0, y0 = c->u.figure.y0, x1 = c->u.figure.x1, y1 = c->u.figure.y1;
        switch (c->u.figure.shape) {
        case RENDER_FIG_RECT: {
            const float a[2] = {x0, y0}, b[2] = {x1, y0}, cc[2] = {x1, y1}, d[2] = {x0, y1};
            quad(r, a, b, cc, d, c->u.figure.color);
            break;
        }
        case RENDER_FIG_LINE: segment(r, x0, y0, x1, y1, c->u.figure.width, c->u.figure.color); break;
        case RENDER_FIG_ARROW: arrow(r, x0, y0, x1, y1, c->u.figure.width, c->u.figure.color); break;
        case RENDER_FIG_CIRCLE: circle(r, x0, y0, x1, c->u.figure.width, c->u.figure.color); break;
        case RENDER_FIG_TEXT: text(r, list, c); break;
        }
    }
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_CULL_FACE);
    glEnable(GL_BLEND);
    if (r->figure.count > 0) {
        /* colour blended as usual; alpha accumulated: a premultiplied layer */
        glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
        glUseProgram(r->figure_prog.id);
        glUniform2f(r->figure_prog.loc[U_SCREEN], (float)r->view.width, (float)r->view.height);
        glBindVertexArray(r->figure.vao);
        glBindBuffer(GL_ARRAY_BUFFER, r->figure.vbo);
        /* the whole capacity, then the triangles: see batch_draw (batches.c) */
        glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)((size_t)r->figure.cap * sizeof(text_vertex)), NULL,
                     GL_STREAM_DRAW);
        glBufferSubData(GL_ARRAY_BUFFER, 0, (GLsizeiptr)((size_t)r->figure.count * sizeof(text_vertex)),
                        r->figure.v);
        glDrawArrays(GL_TRIANGLES, 0, r->figure.count);
    }
    render_text_flush(r);       /* the texts, over the shapes */
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
}

static void show_layer(renderer *r)
{
    const float *e = r->figure.extent;
    if (e[2] <= e[0] || e[3] <= e[1])
        return;
    float w = (float)r->figure.layer_w, h = (float)r->figure.layer_h;
    /* texture rows go up, pixel rows down */
    layer_vertex q[6] = {{{e[0], e[1]}, {e[0] / w, 1.0f - e[1] / h}}, {{e[2], e[1]}, {e[2] / w, 1.0f - e[1] / h}},
                         {{e[2], e[3]}, {e[2] / w, 1.0f - e[3] / h}}, {{e[0], e[1]}, {e[0] / w, 1.0f - e[1] / h}},
                         {{e[2], e[3]}, {e[2] / w, 1.0f - e[3] / h}}, {{e[0], e[3]}, {e[0] / w, 1.0f - e[3] / h}}};
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_CULL_FACE);
    glEnable(GL_BLEND);
    glBlendFunc(GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
    glUseProgram(r->figure_layer_prog.id);
    glUniform2f(r->figure_layer_prog.loc[U_SCREEN], (float)r->view.width, (float)r->view.height);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, r->figure.layer_tex);
    glBindVertexArray(r->figure.quad_vao);
    glBindBuffer(GL_ARRAY_BUFFER, r->figure.quad_vbo);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)sizeof q, q, GL_STREAM_DRAW);
    glDrawArrays(GL_TRIANGLES, 0, 6);
    glBindTexture(GL_TEXTURE_2D, 0);
}

void render_draw_figures(renderer *r, const render_list *list)
{
    glDisable(GL_SCISSOR_TEST);     /* render_scene_rect's: figures go anywhere */
    bool any = false;
    for (int i = 0; i < list->count && !any; ++i)
        any = list->cmds[i].kind == RENDER_CMD_FIGURE;
    if (!any || !render_program_ready(&r->figure_prog, "", shader_figure_vert, shader_figure_frag, "figure"))
        return;
    bool layered = render_program_ready(&r->figure_layer_prog, "", shader_figure_layer_vert,
                                        shader_figure_layer_frag, "figure layer") &&
                   layer_ready(r);
    if (!layered) {     /* no layer: straight onto the frame, every frame */
        draw_into_bound(r, list);
    } else {
        float extent[4];
        uint64_t key = figures_key(r, list, extent);
        if (key != r->figure.layer_key) {
            glBindFramebuffer(GL_FRAMEBUFFER, r->figure.layer_fbo);
            glViewport(0, 0, r->view.width, r->view.height);
            glClearColor(0.0f, 0.0f, 0.0f, 0.0f);
            glClear(GL_COLOR_BUFFER_BIT);
            draw_into_bound(r, list);
            glBindFramebuffer(GL_FRAMEBUFFER, 0);
            glViewport(0, 0, r->view.width, r->view.height);
            r->figure.layer_key = key;
            memcpy(r->figure.extent, extent, sizeof extent);
        }
        show_layer(r);
    }
    glBindVertexArray(0);
    glDisable(GL_BLEND);
    glEnable(GL_DEPTH_TEST);
    glEnable(GL_CULL_FACE);
}

/* figure.c: 2D figures (a lesson's inset: its key figure drawn from the
   step's numbers) in drawable pixels, top-left origin. The list's
   RENDER_CMD_FIGURE commands become triangles drawn in list order over
   the scene (after its translucent phase) and under the HUD; their texts
   go to the HUD's text (text.c), so they are drawn over the figure's
   shapes. The program is built when a figure is first drawn: a run that
   never shows one never holds it. */
#include "render_internal.h"

#include "shaders.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void render_figure_init(renderer *r)
{
    glGenVertexArrays(1, &r->figure.vao);
    glGenBuffers(1, &r->figure.vbo);
    glBindVertexArray(r->figure.vao);
    glBindBuffer(GL_ARRAY_BUFFER, r->figure.vbo);
    render_float_attribute(0, 2, sizeof(text_vertex), offsetof(text_vertex, position));
    render_float_attribute(1, 4, sizeof(text_vertex), offsetof(text_vertex, color));
    glBindVertexArray(0);
}

void render_figure_free(renderer *r)
{
    glDeleteVertexArrays(1, &r->figure.vao);
    glDeleteBuffers(1, &r->figure.vbo);
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
static size_t fitting(const char *line, float scale, float max_w)
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
        if (render_text_width(buf, scale) > max_w)
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
        float w = render_text_width(s, scale);
        x -= c->u.figure.align == RENDER_ALIGN_CENTER ? 0.5f * w : w;
    }
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
    float line_h = render_text_height("0", scale), y = c->u.figure.y0;
    char line[512];
    while (*s) {
        size_t n = fitting(s, scale, max_w);
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

void render_draw_figures(renderer *r, const render_list *list)
{
    r->figure.count = 0;
    bool any = false;
    for (int i = 0; i < list->count; ++i) {
        const render_cmd *c = &list->cmds[i];
        if (c->kind != RENDER_CMD_FIGURE)
            continue;
        any = true;
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
    if (!any || r->figure.count == 0 ||
        !render_program_ready(&r->figure_prog, "", shader_figure_vert, shader_figure_frag, "figure"))
        return;
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_CULL_FACE);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glUseProgram(r->figure_prog.id);
    glUniform2f(r->figure_prog.loc[U_SCREEN], (float)r->view.width, (float)r->view.height);
    glBindVertexArray(r->figure.vao);
    glBindBuffer(GL_ARRAY_BUFFER, r->figure.vbo);
    /* the whole capacity, then the frame's triangles: see batch_draw (batches.c) */
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)((size_t)r->figure.cap * sizeof(text_vertex)), NULL, GL_STREAM_DRAW);
    glBufferSubData(GL_ARRAY_BUFFER, 0, (GLsizeiptr)((size_t)r->figure.count * sizeof(text_vertex)), r->figure.v);
    glDrawArrays(GL_TRIANGLES, 0, r->figure.count);
    glBindVertexArray(0);
    glDisable(GL_BLEND);
    glEnable(GL_DEPTH_TEST);
    glEnable(GL_CULL_FACE);
}

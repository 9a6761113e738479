/* text.c: HUD text with stb_easy_font (quads of a tiny bitmap-free font),
   drawn as triangles in window pixels after the 3D scene. */
#include "render_internal.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wconversion"
#endif
#include <stb_easy_font.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

/* stb_easy_font's vertex: x, y, z, then 4 colour bytes */
typedef struct easy_vertex {
    float x, y, z;
    unsigned char rgba[4];
} easy_vertex;

void render_text_init(renderer *r)
{
    glGenVertexArrays(1, &r->text_vao);
    glGenBuffers(1, &r->text_vbo);
    glBindVertexArray(r->text_vao);
    glBindBuffer(GL_ARRAY_BUFFER, r->text_vbo);
    render_float_attribute(0, 2, sizeof(text_vertex), offsetof(text_vertex, position));
    render_float_attribute(1, 4, sizeof(text_vertex), offsetof(text_vertex, color));
    glBindVertexArray(0);
}

void render_text_free(renderer *r)
{
    glDeleteVertexArrays(1, &r->text_vao);
    glDeleteBuffers(1, &r->text_vbo);
    free(r->text);
    r->text = NULL;
    r->text_count = r->text_cap = 0;
}

static text_vertex *text_push(renderer *r, int count)
{
    if (r->text_count + count > r->text_cap) {
        int cap = r->text_cap ? r->text_cap * 2 : 4096;
        while (cap < r->text_count + count)
            cap *= 2;
        text_vertex *v = realloc(r->text, (size_t)cap * sizeof *v);
        if (!v)
            return NULL;
        r->text = v;
        r->text_cap = cap;
    }
    text_vertex *out = r->text + r->text_count;
    r->text_count += count;
    return out;
}

static void quad(renderer *r, float x0, float y0, float x1, float y1, const vec4 c)
{
    text_vertex *v = text_push(r, 6);
    if (!v)
        return;
    const float xs[6] = {x0, x1, x1, x0, x1, x0}, ys[6] = {y0, y0, y1, y0, y1, y1};
    for (int i = 0; i < 6; ++i) {
        v[i].position[0] = xs[i];
        v[i].position[1] = ys[i];
        memcpy(v[i].color, c, sizeof v[i].color);
    }
}

void render_panel(renderer *r, float x, float y, float w, float h, const vec4 color)
{
    quad(r, x, y, x + w, y + h, color);
}

/* quads reaching past max_x are left out: a line too long for the window
   is cut at a character, not drawn over the panel's edge */
static void text_quads(renderer *r, float x, float y, float scale, const vec4 color, const char *text,
                       float max_x)
{
    static easy_vertex buf[6000];   /* ~1500 quads per call: several lines of HUD */
    int quads = stb_easy_font_print(0.0f, 0.0f, (char *)text, NULL, buf, (int)sizeof buf);
    for (int q = 0; q < quads; ++q) {
        const easy_vertex *e = &buf[q * 4];
        if (x + e[2].x * scale > max_x)
            continue;
        quad(r, x + e[0].x * scale, y + e[0].y * scale, x + e[2].x * scale, y + e[2].y * scale, color);
    }
}

/* Line by line: text_quads' buffer holds a few lines' quads, so a long
   status drawn in one call would be cut off. */
static void text_lines(renderer *r, float x, float y, float scale, const vec4 color, const char *text,
                       float max_x)
{
    char line[512];
    for (const char *p = text; *p;) {
        size_t n = strcspn(p, "\n");
        size_t keep = n < sizeof line ? n : sizeof line - 1;
        memcpy(line, p, keep);
        line[keep] = '\0';
        text_quads(r, x, y, scale, color, line, max_x);
        y += 12.0f * scale;     /* stb_easy_font's line height */
        p += n;
        if (*p == '\n')
            ++p;
    }
}

void render_text(renderer *r, float x, float y, float scale, const vec4 color, const char *text)
{
    if (!text)
        return;
    /* no drop shadow: the HUD sits on panels, and every quad costs on a
       software rasteriser */
    text_lines(r, x, y, scale, color, text, FLT_MAX);
}

void render_text_clipped(renderer *r, float x, float y, float scale, const vec4 color, const char *text,
                         float max_x)
{
    if (text)
        text_lines(r, x, y, scale, color, text, max_x);
}

float render_text_width(const char *text, float scale)
{
    return (float)stb_easy_font_width((char *)text) * scale;
}

float render_text_height(const char *text, float scale)
{
    return (float)stb_easy_font_height((char *)text) * scale;
}

void render_text_flush(renderer *r)
{
    if (r->text_count == 0)
        return;
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_CULL_FACE);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glUseProgram(r->text_prog.id);
    glUniform2f(r->text_prog.loc[U_SCREEN], (float)r->view.width, (float)r->view.height);
    glBindVertexArray(r->text_vao);
    glBindBuffer(GL_ARRAY_BUFFER, r->text_vbo);
    /* the whole capacity, then the frame's quads: see batch_draw (batches.c) */
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)((size_t)r->text_cap * sizeof(text_vertex)), NULL, GL_STREAM_DRAW);
    glBufferSubData(GL_ARRAY_BUFFER, 0, (GLsizeiptr)((size_t)r->text_count * sizeof(text_vertex)), r->text);
    glDrawArrays(GL_TRIANGLES, 0, r->text_count);
    r->text_count = 0;
    glDisable(GL_BLEND);
    glEnable(GL_DEPTH_TEST);
    glEnable(GL_CULL_FACE);
}

/* ------------------------------------------------------------ loading */

/* A rectangle in y-down pixels filled by a scissored clear. */
static void clear_rect(const renderer *r, float x0, float y0, float x1, float y1, const vec4 c)
{
    int left = (int)floorf(x0), right = (int)ceilf(x1);
    int top = (int)floorf(y0), bottom = (int)ceilf(y1);
    if (right <= left || bottom <= top)
        return;
    glScissor(left, r->view.height - bottom, right - left, bottom - top);
    glClearColor(c[0], c[1], c[2], 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
}

void render_loading_begin(renderer *r, const render_view *v)
{
    r->view = *v;
    glViewport(0, 0, v->width, v->height);
    glDisable(GL_SCISSOR_TEST);
    glDisable(GL_DEPTH_TEST);
    if (r->software)
        return;     /* the band and panel of render_loading_text are cleared, the rest stays */
    glClearColor(0.015f, 0.016f, 0.028f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
}

/* ---- the loading screen's line as an image (a CPU rasteriser) ---- */

/* The band's pixels in the texture's byte order: the browser's WebGL 2 has
   no BGRA upload; desktop GL takes the window's own order, so the copy to
   the window is a plain copy. */
#ifdef __EMSCRIPTEN__
#define BAND_FORMAT GL_RGBA
static void band_pixel(const vec4 c, unsigned char out[4])
{
    for (int i = 0; i < 3; ++i)
        out[i] = (unsigned char)(glm_clamp(c[i], 0.0f, 1.0f) * 255.0f + 0.5f);
    out[3] = 255;
}
#else
#define BAND_FORMAT GL_BGRA
static void band_pixel(const vec4 c, unsigned char out[4])
{
    for (int i = 0; i < 3; ++i)
        out[2 - i] = (unsigned char)(glm_clamp(c[i], 0.0f, 1.0f) * 255.0f + 0.5f);
    out[3] = 255;
}
#endif

typedef struct band_image {
    unsigned char *px;      /* width x height, bottom row first (GL's order) */
    int width, height;
    int top;                /* the band's first window row, y down */
} band_image;

/* A rectangle in y-down window pixels, clipped to the band. */
static void band_fill(band_image *b, float x0, float y0, float x1, float y1, const vec4 c)
{
    unsigned char pixel[4];
    band_pixel(c, pixel);
    int left = (int)glm_max(floorf(x0), 0.0f), right = (int)glm_min(ceilf(x1), (float)b->width);
    int top = (int)glm_max(floorf(y0), (float)b->top);
    int bottom = (int)glm_min(ceilf(y1), (float)(b->top + b->height));
    for (int y = top; y < bottom; ++y) {
        unsigned char *row = b->px + (size_t)(b->height - 1 - (y - b->top)) * (size_t)b->width * 4;
        for (int x = left; x < right; ++x)
            memcpy(row + (size_t)x * 4, pixel, 4);
    }
}

/* Copies the band to the window, one pixel to one (scissor off). */
static void band_show(const renderer *r, const band_image *b)
{
    GLuint tex = 0, fbo = 0;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, b->width, b->height, 0, BAND_FORMAT, GL_UNSIGNED_BYTE, b->px);
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo);
    glFramebufferTexture2D(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
    int gl_y = r->view.height - (b->top + b->height);
    glBlitFramebuffer(0, 0, b->width, b->height, 0, gl_y, b->width, gl_y + b->height, GL_COLOR_BUFFER_BIT,
                      GL_NEAREST);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDeleteFramebuffers(1, &fbo);
    glBindTexture(GL_TEXTURE_2D, 0);
    glDeleteTextures(1, &tex);
}

void render_loading_text(renderer *r, float x, float y, float scale, const vec4 panel, const vec4 color,
                         const char *text)
{
    if (!text)
        return;
    static const vec4 BAND = {0.015f, 0.016f, 0.028f, 1.0f};
    float pad_x = 8.0f * scale, pad_y = 6.0f * scale;
    float text_w = render_text_width(text, scale), text_h = render_text_height(text, scale);
    static easy_vertex buf[6000];
    int quads = stb_easy_font_print(0.0f, 0.0f, (char *)text, NULL, buf, (int)sizeof buf);
    /* On a CPU rasteriser the line is drawn in memory and copied in: a
       scissored clear there draws a quad with an internal shader, and that
       first shader (about 13 MB under llvmpipe) would join a large map's
       load at its peak (issue 16). The copy of an image of the window's
       own layout needs none. A GPU keeps the scissored clears (a
       multisampled window cannot be copied into). */
    int top = (int)glm_max(floorf(y - pad_y), 0.0f);
    int bottom = (int)glm_min(ceilf(y + text_h + pad_y), (float)r->view.height);
    band_image b = {NULL, r->view.width, bottom - top, top};
    if (r->software && b.width > 0 && b.height > 0 &&
        (b.px = malloc((size_t)b.width * (size_t)b.height * 4)) != NULL) {
        band_fill(&b, 0.0f, (float)top, (float)b.width, (float)bottom, BAND);
        band_fill(&b, x - pad_x, y - pad_y, x + text_w + pad_x, y + text_h + pad_y, panel);
        for (int q = 0; q < quads; ++q) {
            const easy_vertex *e = &buf[q * 4];
            band_fill(&b, x + e[0].x * scale, y + e[0].y * scale, x + e[2].x * scale, y + e[2].y * scale, color);
        }
        band_show(r, &b);
        free(b.px);
        return;
    }
    glEnable(GL_SCISSOR_TEST);
    /* the band across the window behind the panel: a shorter line than the
       last leaves nothing of it */
    clear_rect(r, 0.0f, y - pad_y, (float)r->view.width, y + text_h + pad_y, BAND);
    clear_rect(r, x - pad_x, y - pad_y, x + text_w + pad_x, y + text_h + pad_y, panel);
    for (int q = 0; q < quads; ++q) {
        const easy_vertex *e = &buf[q * 4];
        clear_rect(r, x + e[0].x * scale, y + e[0].y * scale, x + e[2].x * scale, y + e[2].y * scale, color);
    }
    glDisable(GL_SCISSOR_TEST);
}

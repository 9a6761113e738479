/* text.c: the HUD's text and panels, drawn after the 3D scene in window
   pixels. With fonts (font.h) each glyph is rasterised by stb_truetype
   the first time it is drawn at a size, kept in an atlas texture, and drawn
   as a textured quad from then on: a frame's cost does not grow with the
   script or the number of distinct characters. Without fonts the HUD
   falls back to stb_easy_font (ASCII quads). Panels are solid quads in the
   same stream. The loading screen's line is stb_easy_font always: it is
   drawn before any shader exists. */
#include "render_internal.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "font.h"

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

/* Text metrics at scale 1, in stb_easy_font's units so the HUD's layout
   (hud_layout.h) reads the same either way: a line is 12 units; a font's
   em is 10 of them with its baseline 9.5 below the line's top, so Latin
   capitals stand about as tall as stb_easy_font's and a CJK character
   fills the line without touching the next. */
#define TEXT_LINE 12.0f
#define TEXT_EM 10.0f
#define TEXT_BASELINE 9.5f

/* The glyph atlas: one 8-bit texture, filled in shelves. When it or the
   cache's table is full, what is queued is drawn and both start empty. */
#define ATLAS_SIZE 1024
#define GLYPH_SLOTS 4096        /* a power of two, kept at most 3/4 full */

typedef struct glyph_slot {
    bool used;
    int face, index, em;        /* the key: the glyph at a whole-pixel em */
    int x, y, w, h;             /* its place in the atlas (w or h 0: blank) */
    int x0, y0;                 /* its box's corner from the pen */
} glyph_slot;

struct text_atlas {
    GLuint texture;
    int shelf_x, shelf_y, shelf_h;
    int used;
    glyph_slot slots[GLYPH_SLOTS];
    unsigned char *scratch;     /* a glyph's pixels before upload */
    size_t scratch_size;
};

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
    render_float_attribute(1, 2, sizeof(text_vertex), offsetof(text_vertex, uv));
    render_float_attribute(2, 4, sizeof(text_vertex), offsetof(text_vertex, color));
    glBindVertexArray(0);
}

static void atlas_free(renderer *r)
{
    if (!r->atlas)
        return;
    glDeleteTextures(1, &r->atlas->texture);
    free(r->atlas->scratch);
    free(r->atlas);
    r->atlas = NULL;
}

void render_text_free(renderer *r)
{
    glDeleteVertexArrays(1, &r->text_vao);
    glDeleteBuffers(1, &r->text_vbo);
    free(r->text);
    r->text = NULL;
    r->text_count = r->text_cap = 0;
    atlas_free(r);
}

void render_set_fonts(renderer *r, font_set *fonts)
{
    if (!r) {
        font_set_close(fonts);
        return;
    }
    if (r->text_count > 0 && r->complete)
        render_text_flush(r);
    atlas_free(r);      /* its glyphs were the old fonts' */
    font_set_close(r->fonts);
    r->fonts = fonts;
}

font_set *render_fonts(const renderer *r)
{
    return r ? r->fonts : NULL;
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

/* A quad from (x0, y0) to (x1, y1), its texture from (u0, v0) to (u1,
   v1); u0 < 0: solid (text.frag) */
static void quad_uv(renderer *r, float x0, float y0, float x1, float y1, float u0, float v0, float u1, float v1,
                    const vec4 c)
{
    text_vertex *v = text_push(r, 6);
    if (!v)
        return;
    const float xs[6] = {x0, x1, x1, x0, x1, x0}, ys[6] = {y0, y0, y1, y0, y1, y1};
    const float us[6] = {u0, u1, u1, u0, u1, u0}, vs[6] = {v0, v0, v1, v0, v1, v1};
    for (int i = 0; i < 6; ++i) {
        v[i].position[0] = xs[i];
        v[i].position[1] = ys[i];
        v[i].uv[0] = us[i];
        v[i].uv[1] = vs[i];
        memcpy(v[i].color, c, sizeof v[i].color);
    }
}

static void quad(renderer *r, float x0, float y0, float x1, float y1, const vec4 c)
{
    quad_uv(r, x0, y0, x1, y1, -1.0f, -1.0f, -1.0f, -1.0f, c);
}

void render_panel(renderer *r, float x, float y, float w, float h, const vec4 color)
{
    quad(r, x, y, x + w, y + h, color);
}

/* ------------------------------------------------------------ the atlas */

static bool atlas_create(renderer *r)
{
    r->atlas = calloc(1, sizeof *r->atlas);
    if (!r->atlas)
        return false;
    glGenTextures(1, &r->atlas->texture);
    glBindTexture(GL_TEXTURE_2D, r->atlas->texture);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_R8, ATLAS_SIZE, ATLAS_SIZE, 0, GL_RED, GL_UNSIGNED_BYTE, NULL);
    /* glyphs are drawn one texel to one pixel */
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glBindTexture(GL_TEXTURE_2D, 0);
    return true;
}

/* Forgets every glyph (the texture stays): what is queued is drawn first,
   its glyphs still in place. */
static void atlas_reset(renderer *r)
{
    render_text_flush(r);
    struct text_atlas *a = r->atlas;
    memset(a->slots, 0, sizeof a->slots);
    a->shelf_x = a->shelf_y = a->shelf_h = 0;
    a->used = 0;
}

static unsigned slot_hash(int face, int index, int em)
{
    unsigned h = (unsigned)index * 2654435761u ^ (unsigned)em * 40503u ^ (unsigned)face * 97u;
    return (h ^ (h >> 15)) & (GLYPH_SLOTS - 1);
}

/* A place for a w x h image (one texel apart from its neighbours); false
   when the atlas is full. */
static bool atlas_place(struct text_atlas *a, int w, int h, int *x, int *y)
{
    if (w + 1 > ATLAS_SIZE || h + 1 > ATLAS_SIZE)
        return false;
    if (a->shelf_x + w + 1 > ATLAS_SIZE) {
        a->shelf_y += a->shelf_h;
        a->shelf_x = a->shelf_h = 0;
    }
    if (a->shelf_y + h + 1 > ATLAS_SIZE)
        return false;
    *x = a->shelf_x;
    *y = a->shelf_y;
    a->shelf_x += w + 1;
    if (h + 1 > a->shelf_h)
        a->shelf_h = h + 1;
    return true;
}

/* Rasterises g at em pixels into a free place of the atlas. */
static bool atlas_add(renderer *r, font_glyph g, int em, glyph_slot *s)
{
    struct text_atlas *a = r->atlas;
    font_box b = font_set_box(r->fonts, g, (float)em);
    *s = (glyph_slot){true, g.face, g.index, em, 0, 0, b.x1 - b.x0, b.y1 - b.y0, b.x0, b.y0};
    if (s->w <= 0 || s->h <= 0) {
        s->w = s->h = 0;        /* a space: nothing to draw */
        return true;
    }
    size_t bytes = (size_t)s->w * (size_t)s->h;
    if (bytes > a->scratch_size) {
        unsigned char *p = realloc(a->scratch, bytes);
        if (!p)
            return false;
        a->scratch = p;
        a->scratch_size = bytes;
    }
    if (!atlas_place(a, s->w, s->h, &s->x, &s->y))
        return false;
    memset(a->scratch, 0, bytes);
    font_set_render(r->fonts, g, (float)em, a->scratch, s->w);
    glBindTexture(GL_TEXTURE_2D, a->texture);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexSubImage2D(GL_TEXTURE_2D, 0, s->x, s->y, s->w, s->h, GL_RED, GL_UNSIGNED_BYTE, a->scratch);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glBindTexture(GL_TEXTURE_2D, 0);
    return true;
}

/* The atlas's copy of g at em pixels, made on first use; NULL when it
   cannot be made (too large for the atlas, out of memory). */
static const glyph_slot *atlas_glyph(renderer *r, font_glyph g, int em)
{
    if (!r->atlas && !atlas_create(r))
        return NULL;
    for (int attempt = 0; attempt < 2; ++attempt) {
        struct text_atlas *a = r->atlas;
        unsigned i = slot_hash(g.face, g.index, em);
        while (a->slots[i].used) {
            const glyph_slot *s = &a->slots[i];
            if (s->face == g.face && s->index == g.index && s->em == em)
                return s;
            i = (i + 1) & (GLYPH_SLOTS - 1);
        }
        glyph_slot made;
        if (a->used < GLYPH_SLOTS * 3 / 4 && atlas_add(r, g, em, &made)) {
            a->slots[i] = made;
            ++a->used;
            return &a->slots[i];
        }
        atlas_reset(r);     /* full: start again, once */
    }
    return NULL;
}

/* ------------------------------------------------------------ drawing */

/* stb_easy_font reads only ASCII (it indexes a table by the byte): other
   characters become '?', one per code point. */
static void ascii_only(const char *text, char *out, size_t size)
{
    size_t n = 0;
    for (const char *p = text; *p && n + 1 < size;) {
        uint32_t c = font_utf8_next(&p);
        out[n++] = c == '\n' || (c >= 32 && c < 127) ? (char)c : '?';
    }
    out[n] = '\0';
}

/* One line with stb_easy_font; quads reaching past max_x are left out: a
   line too long for the window is cut at a character, not drawn over the
   panel's edge. */
static void easy_line(renderer *r, float x, float y, float scale, const vec4 color, const char *line, float max_x)
{
    static easy_vertex buf[6000];   /* ~1500 quads per call: a line's */
    char ascii[512];
    ascii_only(line, ascii, sizeof ascii);
    int quads = stb_easy_font_print(0.0f, 0.0f, ascii, NULL, buf, (int)sizeof buf);
    for (int q = 0; q < quads; ++q) {
        const easy_vertex *e = &buf[q * 4];
        if (x + e[2].x * scale > max_x)
            continue;
        quad(r, x + e[0].x * scale, y + e[0].y * scale, x + e[2].x * scale, y + e[2].y * scale, color);
    }
}

/* The em in pixels at `scale`; glyph images are made at whole pixels. */
static float text_em(float scale)
{
    return TEXT_EM * scale;
}

/* One line with the fonts: pen positions from the exact em, each image
   from the atlas at the whole-pixel em, set on whole pixels (crisp, one
   texel to one pixel). */
static void font_line(renderer *r, float x, float y, float scale, const vec4 color, const char *line, size_t len,
                      float max_x)
{
    float em = text_em(scale);
    int em_px = (int)lroundf(em);
    if (em_px < 1)
        return;
    float pen = x, baseline = roundf(y + TEXT_BASELINE * scale);
    const char *end = line + len;
    for (const char *p = line; p < end;) {
        uint32_t c = font_utf8_next(&p);
        if (c == 0)
            break;
        font_glyph g;
        font_set_find(r->fonts, c, &g);     /* none: the face's missing box, honestly drawn */
        const glyph_slot *s = atlas_glyph(r, g, em_px);
        if (s && s->w > 0) {
            float gx = roundf(pen) + (float)s->x0, gy = baseline + (float)s->y0;
            if (gx + (float)s->w > max_x)
                break;
            const float k = 1.0f / ATLAS_SIZE;
            quad_uv(r, gx, gy, gx + (float)s->w, gy + (float)s->h, (float)s->x * k, (float)s->y * k,
                    (float)(s->x + s->w) * k, (float)(s->y + s->h) * k, color);
        }
        pen += font_set_advance(r->fonts, g, em);
    }
}

static void text_lines(renderer *r, float x, float y, float scale, const vec4 color, const char *text,
                       float max_x)
{
    char line[512];
    for (const char *p = text; *p;) {
        size_t n = strcspn(p, "\n");
        if (r->fonts) {
            font_line(r, x, y, scale, color, p, n, max_x);
        } else {
            size_t keep = n < sizeof line ? n : sizeof line - 1;
            memcpy(line, p, keep);
            line[keep] = '\0';
            easy_line(r, x, y, scale, color, line, max_x);
        }
        y += TEXT_LINE * scale;
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

/* stb_easy_font's width of one line of ASCII */
static float easy_width(const char *text, size_t len)
{
    char line[512];
    size_t keep = len < sizeof line ? len : sizeof line - 1;
    memcpy(line, text, keep);
    line[keep] = '\0';
    char ascii[512];
    ascii_only(line, ascii, sizeof ascii);
    return (float)stb_easy_font_width(ascii);
}

static float font_width(renderer *r, const char *text, size_t len, float em)
{
    float w = 0.0f;
    const char *end = text + len;
    for (const char *p = text; p < end;) {
        uint32_t c = font_utf8_next(&p);
        if (c == 0)
            break;
        font_glyph g;
        font_set_find(r->fonts, c, &g);
        w += font_set_advance(r->fonts, g, em);
    }
    return w;
}

float render_text_width(renderer *r, const char *text, float scale)
{
    if (!text)
        return 0.0f;
    float widest = 0.0f;
    for (const char *p = text;;) {
        size_t n = strcspn(p, "\n");
        float w = r && r->fonts ? font_width(r, p, n, text_em(scale)) : easy_width(p, n) * scale;
        if (w > widest)
            widest = w;
        p += n;
        if (!*p)
            break;
        ++p;
    }
    return widest;
}

/* Lines as stb_easy_font counts them: a last line ending in '\n' adds none. */
float render_text_height(const renderer *r, const char *text, float scale)
{
    (void)r;
    if (!text)
        return 0.0f;
    int lines = 0;
    bool open = false;
    for (const char *p = text; *p; ++p) {
        if (*p == '\n') {
            ++lines;
            open = false;
        } else {
            open = true;
        }
    }
    return (float)(lines + open) * TEXT_LINE * scale;
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
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, r->atlas ? r->atlas->texture : 0);
    glBindVertexArray(r->text_vao);
    glBindBuffer(GL_ARRAY_BUFFER, r->text_vbo);
    /* the whole capacity, then the frame's quads: see batch_draw (batches.c) */
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)((size_t)r->text_cap * sizeof(text_vertex)), NULL, GL_STREAM_DRAW);
    glBufferSubData(GL_ARRAY_BUFFER, 0, (GLsizeiptr)((size_t)r->text_count * sizeof(text_vertex)), r->text);
    glDrawArrays(GL_TRIANGLES, 0, r->text_count);
    r->text_count = 0;
    glBindTexture(GL_TEXTURE_2D, 0);
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
    char ascii[320];
    ascii_only(text, ascii, sizeof ascii);
    float text_w = (float)stb_easy_font_width(ascii) * scale, text_h = (float)stb_easy_font_height(ascii) * scale;
    static easy_vertex buf[6000];
    int quads = stb_easy_font_print(0.0f, 0.0f, ascii, NULL, buf, (int)sizeof buf);
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

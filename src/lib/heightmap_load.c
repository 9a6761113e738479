/*
 * heightmap_load.c: heightmaps from image files through stb_image.
 *
 * stb_image's implementation is compiled here, static (STB_IMAGE_STATIC),
 * so none of its symbols leave the library and a program that bundles its
 * own stb_image does not clash with ours. Only PNG, BMP and JPEG are
 * compiled in: formats with a magic number, so a stray text file is "not an
 * image" rather than a guessed TGA.
 *
 * Binary PGM/PPM (P5/P6) are read here instead: stb_image 2.27 (Debian 12)
 * returns 16-bit PNM samples in file (big-endian) byte order and does not
 * notice a file cut short, and a PNM reader is a few dozen lines.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "heightmap_internal.h"

static void set_error(char *err, size_t err_size, const char *fmt, ...)
{
    if (err == NULL || err_size == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, err_size, fmt, ap);
    va_end(ap);
}

/* ---- where the bytes come from: a file or a buffer ------------------ */

/* One reader for both loaders, so a file and the same bytes in memory go
   through exactly the same code (and the fuzzer tests what users run). */
typedef struct source {
    FILE *f;                    /* a file, or NULL for data/size    */
    const unsigned char *data;
    size_t size, pos;
} source;

static int src_getc(source *s)
{
    if (s->f)
        return fgetc(s->f);
    return s->pos < s->size ? s->data[s->pos++] : EOF;
}

static size_t src_read(source *s, void *buf, size_t n)
{
    if (s->f)
        return fread(buf, 1, n, s->f);
    size_t left = s->size - s->pos, got = n < left ? n : left;
    if (got > 0)
        memcpy(buf, s->data + s->pos, got);
    s->pos += got;
    return got;
}

#ifdef RP_HAVE_STB_IMAGE       /* only stb_image's formats read twice */
static void src_rewind(source *s)
{
    if (s->f)
        rewind(s->f);
    else
        s->pos = 0;
}
#endif

/* The size limits every format shares; false (err set) when out of them. */
static bool size_ok(const char *path, long long w, long long h, char *err, size_t err_size)
{
    if (w < 2 || h < 2) {
        set_error(err, err_size, "%s: image is %lldx%lld, too small: a heightmap needs at "
                  "least 2x2 samples", path, w, h);
        return false;
    }
    if (w > RP_HM_MAX_SIDE || h > RP_HM_MAX_SIDE ||
        (unsigned long long)w * (unsigned long long)h > RP_HM_MAX_SAMPLES) {
        set_error(err, err_size, "%s: image is %lldx%lld, too large (at most %d per side and "
                  "%zu samples)", path, w, h, RP_HM_MAX_SIDE, RP_HM_MAX_SAMPLES);
        return false;
    }
    return true;
}

/* ---- binary PGM / PPM ------------------------------------------------ */

/* Next header number: skips whitespace and # comments; -1 when there is no
   number, values beyond 10^9 are clamped there (refused later as too large). */
static long long pnm_number(source *f)
{
    int c = src_getc(f);
    for (;;) {
        while (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f')
            c = src_getc(f);
        if (c != '#')
            break;
        while (c != '\n' && c != EOF)
            c = src_getc(f);
    }
    if (c < '0' || c > '9')
        return -1;
    long long v = 0;
    while (c >= '0' && c <= '9') {
        if (v < 1000000000LL)
            v = v * 10 + (c - '0');
        c = src_getc(f);
    }
    /* exactly one whitespace character ends the number (consumed above) */
    return v;
}

static rp_heightmap *load_pnm(source *f, const char *path, int channels, float spacing,
                              float height_scale, const vec3 origin, char *err, size_t err_size)
{
    long long w = pnm_number(f), h = pnm_number(f), maxval = pnm_number(f);
    if (w < 0 || h < 0 || maxval < 1 || maxval > 65535) {
        set_error(err, err_size, "%s: not an image: corrupt PGM/PPM header", path);
        return NULL;
    }
    if (!size_ok(path, w, h, err, err_size))
        return NULL;
    size_t bytes = maxval > 255 ? 2 : 1;
    size_t n = (size_t)w * (size_t)h, row_len = (size_t)w * (size_t)channels * bytes;
    float *heights = malloc(n * sizeof *heights);
    unsigned char *row = malloc(row_len);
    if (heights == NULL || row == NULL) {
        free(heights);
        free(row);
        set_error(err, err_size, "%s: out of memory for %lldx%lld samples", path, w, h);
        return NULL;
    }
    double k = (double)height_scale / (double)maxval;
    for (long long r = 0; r < h; r++) {
        size_t got = src_read(f, row, row_len);
        if (got != row_len) {
            free(heights);
            free(row);
            set_error(err, err_size, "%s: truncated or corrupt: the pixels end in row %lld of "
                      "%lld", path, r, h);
            return NULL;
        }
        for (long long c = 0; c < w; c++) {
            double v[3];
            for (int ch = 0; ch < channels; ch++) {
                const unsigned char *p = row + ((size_t)c * (size_t)channels + (size_t)ch) * bytes;
                v[ch] = bytes == 2 ? (double)((p[0] << 8) | p[1]) : (double)p[0];  /* big-endian */
                /* the format forbids it, and a height above white would
                   silently break the map's height band */
                if (v[ch] > (double)maxval) {
                    free(heights);
                    free(row);
                    set_error(err, err_size, "%s: corrupt: a sample in row %lld is %.0f, above "
                              "the header's maximum %lld", path, r, v[ch], maxval);
                    return NULL;
                }
            }
            double y = channels == 3 ? 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2] : v[0];
            heights[(size_t)r * (size_t)w + (size_t)c] = (float)(y * k);
        }
    }
    free(row);
    rp_heightmap *hm = rp_hm_adopt((int)w, (int)h, spacing, origin, heights);
    if (hm == NULL)
        set_error(err, err_size, "%s: cannot build the heightmap (out of memory, or "
                  "spacing/height scale overflow)", path);
    return hm;
}

#ifdef RP_HAVE_STB_IMAGE

/* stb_image is third-party code written to older warning levels: silence
   its warnings here, and only here. */
#if defined(__GNUC__) || defined(__clang__)
/* stb_image declares static functions that its ONLY_ options leave
   undefined; GCC reports those at the end of the file, after any pop, so
   this one stays off for this file (which defines no other statics that
   could go unused unnoticed: the build still sees them in every config). */
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpedantic"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wunused-but-set-variable"
#pragma GCC diagnostic ignored "-Wimplicit-fallthrough"
#pragma GCC diagnostic ignored "-Wtype-limits"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wdouble-promotion"
#pragma GCC diagnostic ignored "-Wcast-qual"
#endif
#define STB_IMAGE_STATIC
#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#define STBI_ONLY_BMP
/* No JPEG: lossy compression makes poor heightmaps, and Debian's stb_image
   2.27 writes past a Huffman table for a DHT segment declaring more than 256
   codes (finding F1 in docs/reliability.md). A JPEG file is refused as an
   unsupported format instead. */
#include <stb_image.h>
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic pop
#endif

/* 16-bit samples to heights; colour by Rec. 709 luma, alpha ignored. */
static float *samples_to_heights(const stbi_us *px, int w, int h, int comp, float height_scale)
{
    size_t n = (size_t)w * (size_t)h;
    float *out = malloc(n * sizeof *out);
    if (out == NULL)
        return NULL;
    double k = (double)height_scale / 65535.0;
    for (size_t i = 0; i < n; i++) {
        const stbi_us *p = px + i * (size_t)comp;
        double y = comp >= 3 ? 0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2] : (double)p[0];
        out[i] = (float)(y * k);
    }
    return out;
}

/* A PNG's IHDR size, read before stb_image: stb refuses absurd sizes with a
   reason it then overwrites while trying the other formats. */
static bool png_size_ok(source *f, const char *path, char *err, size_t err_size)
{
    static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    unsigned char head[24];
    size_t got = src_read(f, head, sizeof head);
    src_rewind(f);
    if (got < sizeof head || memcmp(head, sig, 8) != 0 || memcmp(head + 12, "IHDR", 4) != 0)
        return true;        /* not a PNG header: stb_image decides */
    unsigned long long w = ((unsigned long long)head[16] << 24) | ((unsigned)head[17] << 16) |
                           ((unsigned)head[18] << 8) | head[19];
    unsigned long long h = ((unsigned long long)head[20] << 24) | ((unsigned)head[21] << 16) |
                           ((unsigned)head[22] << 8) | head[23];
    return size_ok(path, (long long)w, (long long)h, err, err_size);
}

/* stb_image reads through these, from a file or from memory alike. */
static int stb_read(void *user, char *data, int size)
{
    return (int)src_read(user, data, (size_t)size);
}

static void stb_skip(void *user, int n)
{
    source *s = user;
    if (s->f) {
        fseek(s->f, n, SEEK_CUR);
    } else if (n < 0) {
        s->pos = (size_t)-n > s->pos ? 0 : s->pos - (size_t)-n;
    } else {
        s->pos = (size_t)n > s->size - s->pos ? s->size : s->pos + (size_t)n;
    }
}

static int stb_eof(void *user)
{
    source *s = user;
    return s->f ? feof(s->f) : s->pos >= s->size;
}

static const stbi_io_callbacks stb_io = {stb_read, stb_skip, stb_eof};

static rp_heightmap *load_image(source *f, const char *path, float spacing, float height_scale,
                               const vec3 origin, char *err, size_t err_size)
{
    int w, h, comp;
    /* The header first: refuse absurd sizes before decoding anything. */
    if (!png_size_ok(f, path, err, err_size))
        return NULL;
    if (!stbi_info_from_callbacks(&stb_io, f, &w, &h, &comp)) {
        set_error(err, err_size, "%s: not an image in a supported format (%s)",
                  path, stbi_failure_reason());
        return NULL;
    }
    if (!size_ok(path, w, h, err, err_size))
        return NULL;
    int w2, h2, comp2;
    src_rewind(f);
    stbi_us *px = stbi_load_16_from_callbacks(&stb_io, f, &w2, &h2, &comp2, 0);
    if (px == NULL) {
        set_error(err, err_size, "%s: cannot decode the image, truncated or corrupt (%s)",
                  path, stbi_failure_reason());
        return NULL;
    }
    if (w2 != w || h2 != h || comp2 < 1 || comp2 > 4) {
        stbi_image_free(px);
        set_error(err, err_size, "%s: image header and data disagree", path);
        return NULL;
    }
    float *heights = samples_to_heights(px, w, h, comp2, height_scale);
    stbi_image_free(px);
    if (heights == NULL) {
        set_error(err, err_size, "%s: out of memory for %dx%d samples", path, w, h);
        return NULL;
    }
    rp_heightmap *hm = rp_hm_adopt(w, h, spacing, origin, heights);
    if (hm == NULL)
        set_error(err, err_size, "%s: cannot build the heightmap (out of memory, or "
                  "spacing/height scale overflow)", path);
    return hm;
}

#endif /* RP_HAVE_STB_IMAGE */

static bool options_ok(const char *name, float spacing, float height_scale,
                       const vec3 origin, char *err, size_t err_size)
{
    if (!(spacing > 0.0f) || !isfinite(spacing) || !isfinite(height_scale) ||
        origin == NULL || !rp_vec3_finite(origin)) {
        set_error(err, err_size, "%s: invalid spacing, height scale or origin", name);
        return false;
    }
    return true;
}

/* PGM/PPM by their magic number, anything else through stb_image. */
static rp_heightmap *load_source(source *src, const char *name, float spacing,
                                 float height_scale, const vec3 origin, char *err,
                                 size_t err_size)
{
    int c0 = src_getc(src), c1 = src_getc(src);
    if (c0 == 'P' && (c1 == '5' || c1 == '6'))
        return load_pnm(src, name, c1 == '5' ? 1 : 3, spacing, height_scale, origin, err,
                        err_size);
#ifdef RP_HAVE_STB_IMAGE
    src_rewind(src);
    return load_image(src, name, spacing, height_scale, origin, err, err_size);
#else
    set_error(err, err_size, "%s: cannot load: not a PGM/PPM, and raypick was built "
              "without stb_image (PNG, BMP, JPEG)", name);
    return NULL;
#endif
}

rp_heightmap *rp_heightmap_load(const char *path, float spacing, float height_scale,
                                const vec3 origin, char *err, size_t err_size)
{
    if (path == NULL) {
        set_error(err, err_size, "(null): no file name given");
        return NULL;
    }
    if (!options_ok(path, spacing, height_scale, origin, err, err_size))
        return NULL;
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        set_error(err, err_size, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    source src = {.f = f};
    rp_heightmap *hm = load_source(&src, path, spacing, height_scale, origin, err, err_size);
    fclose(f);
    return hm;
}

rp_heightmap *rp_heightmap_load_memory(const void *data, size_t size, float spacing,
                                       float height_scale, const vec3 origin, char *err,
                                       size_t err_size)
{
    const char *name = "(memory)";
    if (data == NULL) {
        set_error(err, err_size, "%s: no data given", name);
        return NULL;
    }
    if (!options_ok(name, spacing, height_scale, origin, err, err_size))
        return NULL;
    /* stb_image counts in int: a larger buffer is no image it could read */
    if (size > (size_t)0x7fffffff) {
        set_error(err, err_size, "%s: %zu bytes, too large (at most 2 GiB - 1)", name, size);
        return NULL;
    }
    source src = {.data = data, .size = size};
    return load_source(&src, name, spacing, height_scale, origin, err, err_size);
}

/*
 * heightmap_load.c: heightmaps from image files through stb_image.
 *
 * stb_image's implementation is compiled here, static (STB_IMAGE_STATIC),
 * so none of its symbols leave the library and a program that bundles its
 * own stb_image does not clash with ours. Only PNG and BMP are compiled in:
 * formats with a magic number, so a stray text file is "not an image"
 * rather than a guessed TGA.
 *
 * stb_image decodes, but trusts its input more than a loader of files from
 * strangers may (docs/reliability.md, issue 34), so each file is checked
 * here first and refused with a reason when it is damaged or lies:
 * - PNG: every chunk's length against the bytes there are and its CRC-32;
 *   the compressed pixels inflated once, by stb_image's own inflate into a
 *   buffer of exactly the size the header implies (a zlib bomb stops at
 *   that cap), and their Adler-32 checked; a palette shorter than the
 *   indices can reach is padded with a colour no entry has, so an index
 *   past the palette is seen and refused rather than read from stb's
 *   uninitialised table.
 * - BMP: the header parsed here (OS/2 and top-down ones included), the
 *   pixel rows checked to be all there; paletted BMPs are looked up here
 *   (stb 2.27 reads the last four entries of an OS/2 palette as garbage and
 *   never checks an index against the palette), the others decoded by stb.
 * Binary PGM/PPM (P5/P6) are read here entirely: stb_image 2.27 (Debian
 * 12) returns 16-bit PNM samples in file (big-endian) byte order and does
 * not notice a file cut short, and a PNM reader is a few dozen lines.
 *
 * A file is read whole into memory first (at most RP_HM_MAX_FILE_BYTES,
 * and only a regular file: a FIFO or a device is refused before it is
 * opened for reading), then goes through the same code as
 * rp_heightmap_load_memory.
 */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L     /* open, fstat, fcntl */
#endif
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#ifndef _WIN32
#include <fcntl.h>
#include <unistd.h>
#endif

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

/* ---- the bytes: a buffer, whichever way they came ------------------- */

typedef struct source {
    const unsigned char *data;
    size_t size, pos;
} source;

static int src_getc(source *s)
{
    return s->pos < s->size ? s->data[s->pos++] : EOF;
}

static size_t src_read(source *s, void *buf, size_t n)
{
    size_t left = s->size - s->pos, got = n < left ? n : left;
    if (got > 0)
        memcpy(buf, s->data + s->pos, got);
    s->pos += got;
    return got;
}

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

/* Skips a '#' comment up to and with the '\n' that ends it. */
static void pnm_skip_comment(source *f)
{
    int c = src_getc(f);
    while (c != '\n' && c != EOF)
        c = src_getc(f);
}

/* Next header number: skips whitespace and # comments; -1 when there is no
   number, values beyond 10^9 are clamped there (refused later as too large).
   One whitespace character ends the number, or a comment with its line end
   (netpbm reads "255#c\n" as maxval 255 and a comment: the pixels start
   after the '\n'). */
static long long pnm_number(source *f)
{
    int c = src_getc(f);
    for (;;) {
        while (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f')
            c = src_getc(f);
        if (c != '#')
            break;
        pnm_skip_comment(f);
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
    if (c == '#')
        pnm_skip_comment(f);
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

static uint32_t be32(const unsigned char *p)
{
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static unsigned le16(const unsigned char *p)
{
    return (unsigned)p[0] | ((unsigned)p[1] << 8);
}

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

static rp_heightmap *adopt_heights(const char *path, int w, int h, float spacing, const vec3 origin,
                                   float *heights, char *err, size_t err_size)
{
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

/* Decodes a checked image with stb_image (16 bits a sample). `sentinel`:
   when non-NULL, an RGB that no palette entry has; a pixel of that colour
   came from an index past the palette and refuses the file. */
static rp_heightmap *decode_stb(const unsigned char *data, size_t size, const char *path, int w, int h,
                                const unsigned char *sentinel, float spacing, float height_scale,
                                const vec3 origin, char *err, size_t err_size)
{
    int w2, h2, comp;
    stbi__g_failure_reason = NULL;      /* none stale (see png_inflate_check) */
    stbi_us *px = stbi_load_16_from_memory(data, (int)size, &w2, &h2, &comp, 0);
    if (px == NULL) {
        set_error(err, err_size, "%s: cannot decode the image, truncated or corrupt (%s)",
                  path, stbi_failure_reason() ? stbi_failure_reason() : "no reason given");
        return NULL;
    }
    if (w2 != w || h2 != h || comp < 1 || comp > 4) {
        stbi_image_free(px);
        set_error(err, err_size, "%s: image header and data disagree", path);
        return NULL;
    }
    if (sentinel != NULL && comp >= 3) {
        size_t n = (size_t)w * (size_t)h;
        for (size_t i = 0; i < n; i++) {
            const stbi_us *p = px + i * (size_t)comp;
            if (p[0] == sentinel[0] * 257u && p[1] == sentinel[1] * 257u && p[2] == sentinel[2] * 257u) {
                stbi_image_free(px);
                set_error(err, err_size, "%s: corrupt: pixel (%zu, %zu) uses a palette index past "
                          "the palette's last entry", path, i % (size_t)w, i / (size_t)w);
                return NULL;
            }
        }
    }
    float *heights = samples_to_heights(px, w, h, comp, height_scale);
    stbi_image_free(px);
    return adopt_heights(path, w, h, spacing, origin, heights, err, err_size);
}

/* ---- PNG: checked, then decoded by stb_image -------------------------- */

static uint32_t crc32_of(const unsigned char *p, size_t n)
{
    static uint32_t table[256];
    static int ready;           /* benign race: every thread writes the same table */
    if (!ready) {
        for (uint32_t i = 0; i < 256; i++) {
            uint32_t c = i;
            for (int k = 0; k < 8; k++)
                c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
            table[i] = c;
        }
        ready = 1;
    }
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++)
        c = table[(c ^ p[i]) & 0xFF] ^ (c >> 8);
    return c ^ 0xFFFFFFFFu;
}

static uint32_t adler32_of(const unsigned char *p, size_t n)
{
    uint32_t a = 1, b = 0;
    while (n > 0) {
        size_t run = n < 5552 ? n : 5552;      /* the most bytes before b can overflow */
        n -= run;
        while (run--) {
            a += *p++;
            b += a;
        }
        a %= 65521u;
        b %= 65521u;
    }
    return (b << 16) | a;
}

static void put_be32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)(v >> 24);
    p[1] = (unsigned char)(v >> 16);
    p[2] = (unsigned char)(v >> 8);
    p[3] = (unsigned char)v;
}

/* Appends a chunk with a correct CRC at out + *n. */
static void put_chunk(unsigned char *out, size_t *n, const char *type, const unsigned char *data, size_t len)
{
    put_be32(out + *n, (uint32_t)len);
    memcpy(out + *n + 4, type, 4);
    if (len > 0)
        memcpy(out + *n + 8, data, len);
    put_be32(out + *n + 8 + len, crc32_of(out + *n + 4, len + 4));
    *n += 12 + len;
}

typedef struct png_facts {
    uint32_t w, h;
    int depth, colour, interlace;
    const unsigned char *ihdr, *plte, *trns;
    size_t plte_len, trns_len;
    size_t idat_total;          /* compressed bytes in all IDAT chunks */
} png_facts;

/* Bytes the filtered scanlines of a w x h image take: a filter byte and
   the packed samples each row, every Adam7 pass for an interlaced one. */
static unsigned long long png_raw_bytes(const png_facts *f)
{
    static const int channels[7] = {1, 0, 3, 1, 2, 0, 4};
    unsigned long long bits = (unsigned long long)channels[f->colour] * (unsigned)f->depth;
    if (!f->interlace)
        return (unsigned long long)f->h * (1 + (f->w * bits + 7) / 8);
    static const int x0[7] = {0, 4, 0, 2, 0, 1, 0}, y0[7] = {0, 0, 4, 0, 2, 0, 1};
    static const int dx[7] = {8, 8, 4, 4, 2, 2, 1}, dy[7] = {8, 8, 8, 4, 4, 2, 2};
    unsigned long long total = 0;
    for (int p = 0; p < 7; p++) {
        unsigned long long pw = (f->w + (unsigned)(dx[p] - x0[p] - 1)) / (unsigned)dx[p];
        unsigned long long ph = (f->h + (unsigned)(dy[p] - y0[p] - 1)) / (unsigned)dy[p];
        if (pw > 0 && ph > 0)
            total += ph * (1 + (pw * bits + 7) / 8);
    }
    return total;
}

static bool png_depth_ok(int colour, int depth)
{
    switch (colour) {
    case 0: return depth == 1 || depth == 2 || depth == 4 || depth == 8 || depth == 16;
    case 3: return depth == 1 || depth == 2 || depth == 4 || depth == 8;
    case 2: case 4: case 6: return depth == 8 || depth == 16;
    default: return false;
    }
}

/* Walks the chunks: lengths within the file, CRCs, IHDR first and sane,
   PLTE/tRNS/IDAT found, IEND reached. false (err set) on any problem. */
static bool png_walk(const unsigned char *d, size_t size, const char *path, png_facts *f, char *err,
                     size_t err_size)
{
    memset(f, 0, sizeof *f);
    size_t pos = 8;
    bool idat_done = false;
    for (int index = 0;; index++) {
        if (size - pos < 12) {
            set_error(err, err_size, "%s: truncated: the PNG ends at byte %zu, before its IEND chunk",
                      path, size);
            return false;
        }
        uint32_t len = be32(d + pos);
        const unsigned char *type = d + pos + 4, *body = d + pos + 8;
        char name[5];
        for (int k = 0; k < 4; k++)
            name[k] = type[k] >= 0x20 && type[k] < 0x7f ? (char)type[k] : '?';
        name[4] = '\0';
        if (len > 0x7fffffffu || len > size - pos - 12) {
            set_error(err, err_size, "%s: truncated or corrupt: chunk '%s' at byte %zu declares %lu "
                      "bytes, the file has %zu after it", path, name, pos, (unsigned long)len,
                      size - pos - 12);
            return false;
        }
        if (crc32_of(type, (size_t)len + 4) != be32(body + len)) {
            set_error(err, err_size, "%s: corrupt: chunk '%s' at byte %zu fails its CRC check", path,
                      name, pos);
            return false;
        }
        bool is_idat = memcmp(type, "IDAT", 4) == 0;
        if (index == 0 && (memcmp(type, "IHDR", 4) != 0 || len != 13)) {
            set_error(err, err_size, "%s: corrupt: a PNG starts with a 13-byte IHDR chunk", path);
            return false;
        }
        if (index == 0) {
            f->ihdr = body;
            f->w = be32(body);
            f->h = be32(body + 4);
            f->depth = body[8];
            f->colour = body[9];
            f->interlace = body[12];
            if (!size_ok(path, f->w, f->h, err, err_size))
                return false;
            if (!png_depth_ok(f->colour, f->depth) || body[10] != 0 || body[11] != 0 || body[12] > 1) {
                set_error(err, err_size, "%s: corrupt: IHDR has colour type %d with bit depth %d, "
                          "compression %d, filter %d, interlace %d", path, f->colour, f->depth,
                          body[10], body[11], body[12]);
                return false;
            }
        } else if (memcmp(type, "PLTE", 4) == 0) {
            if (len == 0 || len % 3 != 0 || len > 256 * 3) {
                set_error(err, err_size, "%s: corrupt: a PLTE chunk of %lu bytes (1 to 256 entries of "
                          "3)", path, (unsigned long)len);
                return false;
            }
            f->plte = body;
            f->plte_len = len;
        } else if (memcmp(type, "tRNS", 4) == 0) {
            f->trns = body;
            f->trns_len = len;
        } else if (is_idat) {
            if (idat_done) {
                set_error(err, err_size, "%s: corrupt: IDAT chunks must follow each other", path);
                return false;
            }
            f->idat_total += len;
            if (f->idat_total > 0x7fffff00u) {
                set_error(err, err_size, "%s: too large: over 2 GiB of compressed image data", path);
                return false;
            }
        } else if (memcmp(type, "IEND", 4) == 0) {
            break;
        } else if (!(type[0] & 0x20)) {     /* a critical chunk we do not know */
            set_error(err, err_size, "%s: unsupported: critical chunk '%s'", path, name);
            return false;
        }
        if (!is_idat && f->idat_total > 0)
            idat_done = true;
        pos += 12 + (size_t)len;
    }
    if (f->idat_total == 0) {
        set_error(err, err_size, "%s: truncated or corrupt: the PNG has no image data (IDAT)", path);
        return false;
    }
    if (f->colour == 3 && f->plte == NULL) {
        set_error(err, err_size, "%s: corrupt: a paletted PNG without a PLTE chunk", path);
        return false;
    }
    return true;
}

/* The compressed pixels inflated into exactly the bytes the header needs:
   more is refused when the buffer is full (a zlib bomb costs no more than
   a true image of its size), less is a truncated file; then Adler-32. */
static bool png_inflate_check(const unsigned char *z, size_t zlen, unsigned long long raw, const char *path,
                              const png_facts *f, char *err, size_t err_size)
{
    if (raw > 0x7fffffffu) {
        set_error(err, err_size, "%s: too large: %lux%lu pixels take %llu bytes unpacked", path,
                  (unsigned long)f->w, (unsigned long)f->h, raw);
        return false;
    }
    /* deflate gives at most 1032 bytes for one (a run of 258 in 2 bits):
       fewer compressed bytes cannot hold the image, whatever they say */
    if ((unsigned long long)zlen * 1032u + 64u < raw) {
        set_error(err, err_size, "%s: truncated: %zu bytes of compressed pixels cannot hold the %llu "
                  "bytes a %lux%lu image needs", path, zlen, raw, (unsigned long)f->w, (unsigned long)f->h);
        return false;
    }
    unsigned char *out = malloc((size_t)raw);
    if (out == NULL) {
        set_error(err, err_size, "%s: out of memory for %llu bytes of pixels", path, raw);
        return false;
    }
    /* stb's inflate fails some inputs without a reason: no stale one
       (the variable is this file's: stb_image is compiled in here) */
    stbi__g_failure_reason = NULL;
    int got = stbi_zlib_decode_buffer((char *)out, (int)raw, (const char *)z, (int)zlen);
    const char *why = stbi_failure_reason() ? stbi_failure_reason() : "corrupt data";
    bool ok = false;
    if (got < 0 && strcmp(why, "output buffer limit") == 0)
        set_error(err, err_size, "%s: corrupt: the compressed pixels inflate to more than the %llu "
                  "bytes a %lux%lu image holds (refused at that limit)", path, raw,
                  (unsigned long)f->w, (unsigned long)f->h);
    else if (got < 0)
        set_error(err, err_size, "%s: corrupt: the compressed pixels are not a valid zlib stream "
                  "(%s)", path, why);
    else if ((unsigned long long)got < raw)
        set_error(err, err_size, "%s: truncated or corrupt: the compressed pixels give %d of the "
                  "%llu bytes the image needs", path, got, raw);
    else if (zlen < 6 || adler32_of(out, (size_t)raw) != be32(z + zlen - 4))
        set_error(err, err_size, "%s: corrupt: the pixels fail their Adler-32 check", path);
    else
        ok = true;
    free(out);
    return ok;
}

/* The colour a padded palette entry gets: one no real entry has. */
static void png_sentinel(const png_facts *f, unsigned char rgb[3])
{
    size_t n = f->plte_len / 3;
    for (unsigned k = 0;; k++) {      /* 257 candidates, at most 256 taken */
        rgb[0] = (unsigned char)k;
        rgb[1] = (unsigned char)(255 - k);
        rgb[2] = (unsigned char)(k == 256 ? 7 : 91);
        bool taken = false;
        for (size_t i = 0; i < n && !taken; i++)
            taken = memcmp(f->plte + 3 * i, rgb, 3) == 0;
        if (!taken)
            return;
    }
}

static rp_heightmap *load_png(const unsigned char *d, size_t size, const char *path, float spacing,
                              float height_scale, const vec3 origin, char *err, size_t err_size)
{
    png_facts f;
    if (!png_walk(d, size, path, &f, err, err_size))
        return NULL;
    /* one file for stb: IHDR, the palette (padded), tRNS, one IDAT, IEND */
    size_t entries = f.colour == 3 ? (size_t)1 << f.depth : 0;
    size_t cap = 8 + 25 + (12 + 768) + (12 + f.trns_len) + (12 + f.idat_total) + 12;
    unsigned char *png = malloc(cap);
    unsigned char *idat = malloc(f.idat_total);
    if (png == NULL || idat == NULL) {
        free(png);
        free(idat);
        set_error(err, err_size, "%s: out of memory for %zu bytes of compressed pixels", path, f.idat_total);
        return NULL;
    }
    size_t n = 8, k = 0;
    memcpy(png, d, 8);
    put_chunk(png, &n, "IHDR", f.ihdr, 13);
    for (size_t pos = 8; memcmp(d + pos + 4, "IEND", 4) != 0; pos += 12 + be32(d + pos)) {
        if (memcmp(d + pos + 4, "IDAT", 4) == 0) {
            memcpy(idat + k, d + pos + 8, be32(d + pos));
            k += be32(d + pos);
        }
    }
    unsigned char sentinel[3], palette[768];
    bool padded = f.plte != NULL && f.plte_len / 3 < entries;
    if (f.plte != NULL) {
        size_t len = f.plte_len;
        memcpy(palette, f.plte, len);
        if (padded) {
            png_sentinel(&f, sentinel);
            for (; len < 3 * entries; len += 3)
                memcpy(palette + len, sentinel, 3);
        }
        put_chunk(png, &n, "PLTE", palette, len);
    }
    if (f.trns != NULL)
        put_chunk(png, &n, "tRNS", f.trns, f.trns_len);
    put_chunk(png, &n, "IDAT", idat, f.idat_total);
    put_chunk(png, &n, "IEND", NULL, 0);
    bool ok = png_inflate_check(idat, f.idat_total, png_raw_bytes(&f), path, &f, err, err_size);
    free(idat);
    rp_heightmap *hm = ok ? decode_stb(png, n, path, (int)f.w, (int)f.h, padded ? sentinel : NULL, spacing,
                                       height_scale, origin, err, err_size)
                          : NULL;
    free(png);
    return hm;
}

/* ---- BMP: checked here; paletted ones looked up here, the rest by stb -- */

typedef struct bmp_facts {
    long long w, h;             /* h > 0 whatever the row order */
    bool top_down;
    int bpp, compression;
    unsigned header;            /* 12 (OS/2 1.x), 40, 56, 108, 124 */
    size_t offset, stride;      /* where the rows start, bytes a row */
    size_t palette_at, palette_entries, entry_bytes;
} bmp_facts;

static bool bmp_parse(const unsigned char *d, size_t size, const char *path, bmp_facts *f, char *err,
                      size_t err_size)
{
    memset(f, 0, sizeof *f);
    if (size < 26) {
        set_error(err, err_size, "%s: truncated: a BMP header needs 26 bytes, the file has %zu", path, size);
        return false;
    }
    f->offset = le32(d + 10);
    f->header = le32(d + 14);
    if (f->header == 12) {
        f->w = le16(d + 18);
        f->h = le16(d + 20);
        f->bpp = (int)le16(d + 24);
        f->entry_bytes = 3;
    } else if (f->header == 40 || f->header == 56 || f->header == 108 || f->header == 124) {
        if (size < 14 + (size_t)f->header) {
            set_error(err, err_size, "%s: truncated: the BMP header needs %u bytes", path, 14 + f->header);
            return false;
        }
        f->w = (int32_t)le32(d + 18);
        f->h = (int32_t)le32(d + 22);
        f->bpp = (int)le16(d + 28);
        f->compression = (int)le32(d + 30);
        f->entry_bytes = 4;
    } else {
        set_error(err, err_size, "%s: unsupported BMP: a header of %u bytes (12, 40, 56, 108 and 124 "
                  "are read)", path, f->header);
        return false;
    }
    f->top_down = f->h < 0;
    f->h = f->h < 0 ? -f->h : f->h;
    if (!size_ok(path, f->w, f->h, err, err_size))
        return false;
    bool bitfields = f->compression == 3 && (f->bpp == 16 || f->bpp == 32);
    if (f->compression != 0 && !bitfields) {
        set_error(err, err_size, "%s: unsupported BMP: compression %d with %d bits a pixel (uncompressed "
                  "and bit fields are read; RLE is not)", path, f->compression, f->bpp);
        return false;
    }
    if (f->bpp != 1 && f->bpp != 4 && f->bpp != 8 && f->bpp != 16 && f->bpp != 24 && f->bpp != 32) {
        set_error(err, err_size, "%s: corrupt BMP: %d bits a pixel", path, f->bpp);
        return false;
    }
    f->stride = (((size_t)f->w * (size_t)f->bpp + 31) / 32) * 4;
    size_t need = f->stride * (size_t)f->h;
    if (f->offset > size || size - f->offset < need) {
        set_error(err, err_size, "%s: truncated: the BMP's %lldx%lld pixels need %zu bytes from byte %zu, "
                  "the file has %zu", path, f->w, f->h, need, f->offset,
                  f->offset > size ? (size_t)0 : size - f->offset);
        return false;
    }
    if (f->bpp <= 8) {
        f->palette_at = 14 + f->header;
        size_t room = f->offset > f->palette_at ? (f->offset - f->palette_at) / f->entry_bytes : 0;
        size_t most = (size_t)1 << f->bpp;
        f->palette_entries = room < most ? room : most;
        if (f->palette_entries == 0) {
            set_error(err, err_size, "%s: corrupt BMP: %d bits a pixel and no palette", path, f->bpp);
            return false;
        }
    }
    return true;
}

/* A paletted BMP: every index looked up here, and checked. */
static rp_heightmap *load_bmp_palette(const unsigned char *d, const bmp_facts *f, const char *path,
                                      float spacing, float height_scale, const vec3 origin, char *err,
                                      size_t err_size)
{
    float luma[256];
    for (size_t i = 0; i < f->palette_entries; i++) {
        const unsigned char *e = d + f->palette_at + i * f->entry_bytes;     /* B, G, R */
        luma[i] = (float)((0.2126 * e[2] + 0.7152 * e[1] + 0.0722 * e[0]) * (double)height_scale / 255.0);
    }
    size_t w = (size_t)f->w, h = (size_t)f->h;
    float *heights = malloc(w * h * sizeof *heights);
    if (heights == NULL)
        return adopt_heights(path, (int)w, (int)h, spacing, origin, NULL, err, err_size);
    unsigned per_byte = 8u / (unsigned)f->bpp, mask = (1u << f->bpp) - 1u;
    for (size_t r = 0; r < h; r++) {
        const unsigned char *row = d + f->offset + (f->top_down ? r : h - 1 - r) * f->stride;
        for (size_t c = 0; c < w; c++) {
            unsigned shift = (unsigned)f->bpp * (per_byte - 1 - (unsigned)(c % per_byte));
            unsigned index = (row[c / per_byte] >> shift) & mask;
            if (index >= f->palette_entries) {
                free(heights);
                set_error(err, err_size, "%s: corrupt: pixel (%zu, %zu) uses palette entry %u, the "
                          "palette has %zu", path, c, r, index, f->palette_entries);
                return NULL;
            }
            heights[r * w + c] = luma[index];
        }
    }
    return adopt_heights(path, (int)w, (int)h, spacing, origin, heights, err, err_size);
}

static rp_heightmap *load_bmp(const unsigned char *d, size_t size, const char *path, float spacing,
                              float height_scale, const vec3 origin, char *err, size_t err_size)
{
    bmp_facts f;
    if (!bmp_parse(d, size, path, &f, err, err_size))
        return NULL;
    if (f.bpp <= 8)
        return load_bmp_palette(d, &f, path, spacing, height_scale, origin, err, err_size);
    return decode_stb(d, size, path, (int)f.w, (int)f.h, NULL, spacing, height_scale, origin, err, err_size);
}

static rp_heightmap *load_image(source *f, const char *path, float spacing, float height_scale,
                               const vec3 origin, char *err, size_t err_size)
{
    static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    const unsigned char *d = f->data;
    if (f->size >= 8 && memcmp(d, sig, 8) == 0)
        return load_png(d, f->size, path, spacing, height_scale, origin, err, err_size);
    if (f->size >= 2 && d[0] == 'B' && d[1] == 'M')
        return load_bmp(d, f->size, path, spacing, height_scale, origin, err, err_size);
    set_error(err, err_size, "%s: not an image in a supported format (PNG, BMP, PGM, PPM)", path);
    return NULL;
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
    src->pos = 0;
    return load_image(src, name, spacing, height_scale, origin, err, err_size);
#else
    set_error(err, err_size, "%s: cannot load: not a PGM/PPM, and raypick was built "
              "without stb_image (PNG, BMP)", name);
    return NULL;
#endif
}

/* ---- files ------------------------------------------------------------ */

/* The whole of a regular file, at most RP_HM_MAX_FILE_BYTES; NULL (err
   set) otherwise. A FIFO, a device or a socket is refused before anything
   is read from it (opening a FIFO for reading would wait for a writer:
   the descriptor is opened non-blocking and looked at first). */
static unsigned char *read_regular_file(const char *path, size_t *size, char *err, size_t err_size)
{
#ifdef _WIN32
    struct _stat64 st;
    if (_stat64(path, &st) != 0) {
        set_error(err, err_size, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    if ((st.st_mode & _S_IFMT) != _S_IFREG) {
        set_error(err, err_size, "%s: cannot load: not a regular file", path);
        return NULL;
    }
    FILE *f = fopen(path, "rb");
#else
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        set_error(err, err_size, "%s: cannot open: %s", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return NULL;
    }
    if (!S_ISREG(st.st_mode)) {
        set_error(err, err_size, "%s: cannot load: not a regular file (%s)", path,
                  S_ISDIR(st.st_mode) ? "a directory" : S_ISFIFO(st.st_mode) ? "a FIFO"
                  : S_ISSOCK(st.st_mode) ? "a socket" : "a device");
        close(fd);
        return NULL;
    }
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    FILE *f = fdopen(fd, "rb");
    if (f == NULL)
        close(fd);
#endif
    if (f == NULL) {
        set_error(err, err_size, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    if ((unsigned long long)st.st_size > RP_HM_MAX_FILE_BYTES) {
        fclose(f);
        set_error(err, err_size, "%s: too large: %llu bytes (an image file may have at most %zu)", path,
                  (unsigned long long)st.st_size, (size_t)RP_HM_MAX_FILE_BYTES);
        return NULL;
    }
    /* the size it has now; one byte more shows a file that grew meanwhile */
    size_t want = (size_t)st.st_size;
    unsigned char *data = malloc(want + 1);
    size_t got = data ? fread(data, 1, want + 1, f) : 0;
    bool failed = data == NULL || ferror(f) || got != want;
    fclose(f);
    if (failed) {
        set_error(err, err_size, data ? "%s: cannot read: the file changed while read, or a read "
                  "error" : "%s: out of memory reading the file", path);
        free(data);
        return NULL;
    }
    *size = got;
    return data;
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
    size_t size = 0;
    unsigned char *data = read_regular_file(path, &size, err, err_size);
    if (data == NULL)
        return NULL;
    source src = {.data = data, .size = size};
    rp_heightmap *hm = load_source(&src, path, spacing, height_scale, origin, err, err_size);
    free(data);
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

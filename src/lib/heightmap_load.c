/*
 * heightmap_load.c: heightmaps from image files through stb_image.
 *
 * stb_image's implementation is compiled here, static (STB_IMAGE_STATIC),
 * so none of its symbols leave the library and a program that bundles its
 * own stb_image does not clash with ours. Only PNG, PNM (PGM/PPM), BMP and
 * JPEG are compiled in: formats with a magic number, so a stray text file is
 * "not an image" rather than a guessed TGA.
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
#define STBI_ONLY_PNM
#define STBI_ONLY_BMP
#define STBI_ONLY_JPEG
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

static rp_heightmap *load_file(FILE *f, const char *path, float spacing, float height_scale,
                               const vec3 origin, char *err, size_t err_size)
{
    int w, h, comp;
    /* The header first: refuse absurd sizes before decoding anything. */
    if (!stbi_info_from_file(f, &w, &h, &comp)) {
        const char *why = stbi_failure_reason();
        /* stb_image refuses some absurd headers itself (PNG > 2^30 bytes). */
        if (why != NULL && strcmp(why, "too large") == 0) {
            set_error(err, err_size, "%s: image too large (its header claims more than "
                      "stb_image will decode)", path);
            return NULL;
        }
        set_error(err, err_size, "%s: not an image in a supported format (%s)",
                  path, why ? why : "unknown");
        return NULL;
    }
    if (w < 2 || h < 2) {
        set_error(err, err_size, "%s: image is %dx%d, too small: a heightmap needs at "
                  "least 2x2 samples", path, w, h);
        return NULL;
    }
    if (w > RP_HM_MAX_SIDE || h > RP_HM_MAX_SIDE ||
        (size_t)w * (size_t)h > RP_HM_MAX_SAMPLES) {
        set_error(err, err_size, "%s: image is %dx%d, too large (at most %d per side and "
                  "%zu samples)", path, w, h, RP_HM_MAX_SIDE, RP_HM_MAX_SAMPLES);
        return NULL;
    }
    int w2, h2, comp2;
    stbi_us *px = stbi_load_from_file_16(f, &w2, &h2, &comp2, 0);
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

rp_heightmap *rp_heightmap_load(const char *path, float spacing, float height_scale,
                                const vec3 origin, char *err, size_t err_size)
{
    if (path == NULL) {
        set_error(err, err_size, "(null): no file name given");
        return NULL;
    }
    if (!(spacing > 0.0f) || !isfinite(spacing) || !isfinite(height_scale) ||
        origin == NULL || !rp_vec3_finite(origin)) {
        set_error(err, err_size, "%s: invalid spacing, height scale or origin", path);
        return NULL;
    }
#ifdef RP_HAVE_STB_IMAGE
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        set_error(err, err_size, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    rp_heightmap *hm = load_file(f, path, spacing, height_scale, origin, err, err_size);
    fclose(f);
    return hm;
#else
    set_error(err, err_size, "%s: cannot load, raypick was built without stb_image", path);
    return NULL;
#endif
}

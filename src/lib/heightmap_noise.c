/*
 * heightmap_noise.c: procedural heightmaps from seeded fractal value noise.
 *
 * Every lattice value comes from an integer hash of (x, z, octave, seed) and
 * every lattice position from integer arithmetic, so a seed gives the same
 * map on every platform and compiler (no rand(), no global state).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

/* A fused multiply-add rounds once instead of twice: allowed to contract,
   a compiler targeting FMA hardware would give different low bits. */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

#include "internal.h"
#include "heightmap_internal.h"

/* A 32-bit integer finaliser (lowbias32, Chris Wellons' hash prospector). */
static uint32_t mix32(uint32_t h)
{
    h ^= h >> 16;
    h *= 0x7feb352dU;
    h ^= h >> 15;
    h *= 0x846ca68bU;
    h ^= h >> 16;
    return h;
}

/* Lattice value in [0, 1). */
static double lattice(uint32_t x, uint32_t z, uint32_t octave_seed)
{
    uint32_t h = mix32(x * 0x8da6b343U ^ mix32(z * 0xd8163841U ^ octave_seed));
    return (double)(h >> 8) * (1.0 / 16777216.0);
}

/* Quintic fade: C2-continuous, so no creases along the lattice lines. */
static double fade(double t) { return t * t * t * (t * (t * 6.0 - 15.0) + 10.0); }

static double lerp(double a, double b, double t) { return a + (b - a) * t; }

/* One octave at sample (c, r) with a lattice every `period` samples. */
static double octave_at(int c, int r, int period, uint32_t octave_seed)
{
    uint32_t ix = (uint32_t)(c / period), iz = (uint32_t)(r / period);
    double fx = fade((double)(c % period) / period);
    double fz = fade((double)(r % period) / period);
    double v00 = lattice(ix, iz, octave_seed), v10 = lattice(ix + 1, iz, octave_seed);
    double v01 = lattice(ix, iz + 1, octave_seed), v11 = lattice(ix + 1, iz + 1, octave_seed);
    return lerp(lerp(v00, v10, fx), lerp(v01, v11, fx), fz);
}

rp_heightmap *rp_heightmap_generate(int cols, int rows, float spacing, float height_scale,
                                    uint32_t seed, const vec3 origin)
{
    if (cols < 2 || rows < 2 || cols > RP_HM_MAX_SIDE || rows > RP_HM_MAX_SIDE ||
        (size_t)cols * (size_t)rows > RP_HM_MAX_SAMPLES)
        return NULL;
    if (!(spacing > 0.0f) || !isfinite(spacing) || !(height_scale >= 0.0f) ||
        !isfinite(height_scale) || origin == NULL || !rp_vec3_finite(origin))
        return NULL;

    size_t n = (size_t)cols * (size_t)rows;
    float *h = malloc(n * sizeof *h);
    if (h == NULL)
        return NULL;

    /* Largest feature: about half the map; octaves down to two samples. */
    int side = (cols > rows ? cols : rows) - 1;
    int base = 2;
    while (base * 4 <= side)
        base *= 2;
    double lo = INFINITY, hi = -INFINITY;
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            double v = 0.0, amp = 1.0;
            uint32_t octave = 0;
            for (int period = base; period >= 2; period /= 2, octave++) {
                v += amp * octave_at(c, r, period, mix32(seed ^ (octave * 0x9e3779b9U)));
                amp *= 0.5;
            }
            float stored = (float)v;
            h[(size_t)r * (size_t)cols + (size_t)c] = stored;
            lo = fmin(lo, stored);      /* so the lowest maps to exactly 0 */
            hi = fmax(hi, stored);
        }

    /* Stretch to exactly [0, height_scale]. */
    double range = hi - lo;
    for (size_t i = 0; i < n; i++) {
        double v = range > 0.0 ? ((double)h[i] - lo) / range : 0.0;
        h[i] = (float)(v * height_scale);
    }
    return rp_hm_adopt(cols, rows, spacing, origin, h);
}

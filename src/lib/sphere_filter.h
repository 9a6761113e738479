/*
 * sphere_filter.h: rp_intersect_ray_spheres' cheap float filter, shared by
 * its plain C and SSE2 versions (sphere.c) and its AVX kernel
 * (sphere_avx.c); simd.c picks one. Not installed.
 *
 * The filter rejects most spheres; only the rest go through the exact
 * double path. It must never drop a sphere the exact path would accept, so
 * its constants are error bounds, not tuning knobs. With u = dir / |dir|
 * (rounded once, per ray), f = centre - origin, tc = f.u and ff = f.f, all
 * in float (eps = 2^-24):
 *
 *   far from the line: the squared distance from the centre to the line is
 *     ff - tc^2, and a hit needs it <= r^2. The computed ff is within ~5 eps
 *     ff, the computed tc^2 within ~11 eps ff, so with B = 4e-6 (~67 eps)
 *     the computed ff (1 - B) - tc^2 stays below the true distance^2 (to
 *     within one rounding of itself), and rejecting when it exceeds
 *     r^2 (1 + 1e-5) + 16 FLT_MIN is safe (the FLT_MIN term covers the
 *     absolute errors of denormal results).
 *   behind the origin: a hit from outside needs tc > 0 and
 *     tc^2 >= ff - r^2. When the computed tc is < 0 the true one is below
 *     ~5 eps |f|, so such a hit needs ff - r^2 <= 25 eps^2 ff: the origin on
 *     the surface up to rounding, which the same bound on ff keeps.
 *     Reject when tc < 0 and ff > r^2 (1 + 1e-5) + 16 FLT_MIN.
 *   overflow: the two rejections are trusted only while ff < 1e30 (|f| up to
 *     1e15, nothing can overflow); farther spheres, and every NaN (bad radius,
 *     bad centre), are kept and left to the exact path, which validates.
 *
 * Every version computes these expressions operand for operand (no fused
 * multiply-add: src/lib/meson.build turns contraction off), so all give
 * the same bits.
 */
#ifndef RAYPICK_SPHERE_FILTER_H
#define RAYPICK_SPHERE_FILTER_H

#include <float.h>
#include <stdbool.h>
#include <stddef.h>

#include "raypick/sphere.h"

#define RP_FILTER_BLOCK 512            /* spheres per filter pass, multiple of 8 */
#define RP_FILTER_B 4e-6f
#define RP_FILTER_R2_SCALE (1.0f + 1e-5f)
#define RP_FILTER_TINY (16.0f * FLT_MIN)
#define RP_FILTER_TRUSTED_FF 1e30f

/* The ray as the filter sees it: origin and unit direction, in float. */
typedef struct rp_sphere_filter_ray {
    float ox, oy, oz, ux, uy, uz;
} rp_sphere_filter_ray;

/* Filters spheres s[i..n) (i a multiple of 4, n <= RP_FILTER_BLOCK): bit j
   of keep[k] says whether sphere 4k + j may be hit. Returns the OR of the
   bytes it wrote (0: none of them can be hit). */
typedef unsigned (*rp_sphere_filter_fn)(const rp_sphere_filter_ray *rf, const rp_sphere *s,
                                        size_t n, size_t i, unsigned char *keep);

unsigned rp_sphere_filter_scalar(const rp_sphere_filter_ray *rf, const rp_sphere *s, size_t n,
                                 size_t i, unsigned char *keep);
unsigned rp_sphere_filter_sse2(const rp_sphere_filter_ray *rf, const rp_sphere *s, size_t n,
                               size_t i, unsigned char *keep);   /* RP_SIMD_SSE2 only */
unsigned rp_sphere_filter_avx(const rp_sphere_filter_ray *rf, const rp_sphere *s, size_t n,
                              size_t i, unsigned char *keep);    /* RP_SIMD_DISPATCH only */

#endif /* RAYPICK_SPHERE_FILTER_H */

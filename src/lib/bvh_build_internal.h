/*
 * bvh_build_internal.h: what the builder's two files share (bvh_build.c
 * chooses the planes, bvh_partition.c moves the primitives to their
 * sides): the 32-byte records they reorder in place, four-float box
 * arithmetic, the map from a centroid to its bin, and the node waiting to
 * be built. Not installed.
 */
#ifndef RAYPICK_BVH_BUILD_INTERNAL_H
#define RAYPICK_BVH_BUILD_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "bvh.h"
#include "simd.h"

/* Most bins per axis (Wald 2007: centroids in 16 bins, the cheapest of
   the 15 planes between them). */
#define RP_BVH_BINS 16

/* A box corner or a centroid, four floats at a time (lane 3 ignored):
   SSE2 where simd.h allows it, plain C otherwise; both give the same tree. */
#if RP_SIMD_SSE2
typedef __m128 rp_v4;
static inline rp_v4 rp_v4_load3(const float *p) { return _mm_setr_ps(p[0], p[1], p[2], 0.0f); }
/* Loads three floats and whatever 4 bytes follow them (ignored lane). */
static inline rp_v4 rp_v4_load3x(const float *p) { return _mm_loadu_ps(p); }
static inline rp_v4 rp_v4_set1(float x) { return _mm_set1_ps(x); }
static inline rp_v4 rp_v4_min(rp_v4 a, rp_v4 b) { return _mm_min_ps(a, b); }
static inline rp_v4 rp_v4_max(rp_v4 a, rp_v4 b) { return _mm_max_ps(a, b); }
static inline rp_v4 rp_v4_add(rp_v4 a, rp_v4 b) { return _mm_add_ps(a, b); }
static inline rp_v4 rp_v4_sub(rp_v4 a, rp_v4 b) { return _mm_sub_ps(a, b); }
static inline rp_v4 rp_v4_mul(rp_v4 a, rp_v4 b) { return _mm_mul_ps(a, b); }
static inline void rp_v4_store(float *dst, rp_v4 a) { _mm_storeu_ps(dst, a); }
/* x y + y z + z x of lanes 0..2 (lane 3 must be 0) */
static inline float rp_v4_area_of_extent(rp_v4 e)
{
    rp_v4 p = _mm_mul_ps(e, _mm_shuffle_ps(e, e, _MM_SHUFFLE(3, 0, 2, 1)));
    rp_v4 q = _mm_add_ps(p, _mm_movehl_ps(p, p));
    return _mm_cvtss_f32(_mm_add_ss(q, _mm_shuffle_ps(q, q, _MM_SHUFFLE(1, 1, 1, 1))));
}
/* Bin of each lane's x in [0, last], truncated. */
static inline void rp_v4_bins(rp_v4 x, float last, int out[4])
{
    x = _mm_min_ps(_mm_max_ps(x, _mm_setzero_ps()), _mm_set1_ps(last));
    _mm_storeu_si128((__m128i *)out, _mm_cvttps_epi32(x));
}
#else
typedef struct rp_v4 { float f[4]; } rp_v4;
static inline rp_v4 rp_v4_load3(const float *p) { rp_v4 r = {{p[0], p[1], p[2], 0.0f}}; return r; }
static inline rp_v4 rp_v4_load3x(const float *p) { return rp_v4_load3(p); }
static inline rp_v4 rp_v4_set1(float x) { rp_v4 r = {{x, x, x, x}}; return r; }
#define RP_V4_OP(name, expr)                       \
    static inline rp_v4 name(rp_v4 a, rp_v4 b)      \
    {                                               \
        rp_v4 r;                                    \
        for (int i = 0; i < 4; i++) {               \
            float x = a.f[i], y = b.f[i];           \
            r.f[i] = (expr);                        \
        }                                           \
        return r;                                   \
    }
RP_V4_OP(rp_v4_min, x < y ? x : y)
RP_V4_OP(rp_v4_max, x > y ? x : y)
RP_V4_OP(rp_v4_add, x + y)
RP_V4_OP(rp_v4_sub, x - y)
RP_V4_OP(rp_v4_mul, x * y)
static inline void rp_v4_store(float *dst, rp_v4 a) { memcpy(dst, a.f, sizeof a.f); }
static inline float rp_v4_area_of_extent(rp_v4 e)
{
    return e.f[0] * e.f[1] + e.f[1] * e.f[2] + e.f[2] * e.f[0];
}
static inline void rp_v4_bins(rp_v4 x, float last, int out[4])
{
    for (int i = 0; i < 4; i++) {
        float v = x.f[i] > 0.0f ? x.f[i] : 0.0f;
        v = v < last ? v : last;
        out[i] = (int)v;
    }
}
#endif

/* A node to build: its primitives p[first .. first + count), their box
   and the bounds of their centroids (times two: min + max, no halving
   needed to compare them), as the parent's bins measured them: exact
   when the parent binned all its primitives, those of its sample when it
   binned every n-th (the box is then made exact once the subtree is
   built, bottom up; a sample's centroid bounds only steer the binning). */
typedef struct rp_bvh_task {
    uint32_t node, first, count, depth;
    float    bmin[4], bmax[4];
    float    cmin[4], cmax[4];
} rp_bvh_task;

/* Per-axis offset and scale that map a centroid to its bin (small nodes
   use fewer bins than RP_BVH_BINS: bvh_build.c's make_binning). */
typedef struct rp_bvh_binning {
    rp_v4 cmin, scale;
    float cmin_f[4], scale_f[4];
    int   bins;
} rp_bvh_binning;

/* The bins of centroid c on the three axes; the same function decides
   binning and partitioning, so they always agree. */
static inline void rp_bvh_bins_of(const rp_bvh_binning *bn, rp_v4 c, int out[4])
{
    rp_v4_bins(rp_v4_mul(rp_v4_sub(c, bn->cmin), bn->scale), (float)(bn->bins - 1), out);
}

/* Whether the centroid bin of p on `axis` is beyond `plane`: rp_bvh_bins_of
   on one axis, the same float operations; a bin is beyond plane exactly
   when the unclamped bin coordinate reaches plane + 1 (plane + 1 is a
   bin, and clamping moves no value across it). */
static inline bool rp_bvh_beyond(const rp_bvh_binning *bn, const rp_bvh_prim *p, int axis,
                                 float plane_end)
{
    return ((p->min[axis] + p->max[axis]) - bn->cmin_f[axis]) * bn->scale_f[axis] >= plane_end;
}

/* Moves the primitives of p[0 .. count) whose centroid bins on `axis`
   are at most `plane` (rp_bvh_beyond) to the front, in place; returns
   how many went left. scattered: as rp_bvh_shape's. top_threads > 0 (the
   top of the tree): each half of p is partitioned on its own, on two
   threads when top_threads > 1, with the same result on any number. */
uint32_t rp_bvh_partition(rp_bvh_prim *p, uint32_t count, int axis, int plane,
                          const rp_bvh_binning *bn, bool scattered, int top_threads);

#endif /* RAYPICK_BVH_BUILD_INTERNAL_H */

/*
 * bvh_build_internal.h: what the builder's two files share (bvh_build.c
 * chooses the planes, bvh_partition.c moves the primitives to their
 * sides): four-float box arithmetic and the node waiting to be built;
 * the records they reorder are bvh.h's, the bins bvh_bin.h's. Not
 * installed.
 */
#ifndef RAYPICK_BVH_BUILD_INTERNAL_H
#define RAYPICK_BVH_BUILD_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "bvh.h"
#include "bvh_bin.h"
#include "simd.h"

/* A box corner or a centroid, four floats at a time (lane 3 ignored):
   SSE2 where simd.h allows it, plain C otherwise; both give the same tree. */
#if RP_SIMD_SSE2
typedef __m128 rp_v4;
static inline rp_v4 rp_v4_load3(const float *p) { return _mm_setr_ps(p[0], p[1], p[2], 0.0f); }
/* a with lane 3 zeroed */
static inline rp_v4 rp_v4_keep3(rp_v4 a)
{
    return _mm_and_ps(a, _mm_castsi128_ps(_mm_setr_epi32(-1, -1, -1, 0)));
}
/* Loads three floats with one 16-byte load (p[3] must be readable) and
   zeroes lane 3. A record's lane 3 holds an index or a tag, whose bits
   make a subnormal float, and Intel CPUs take a microcode assist of
   about a hundred cycles for each add or multiply that meets one. */
static inline rp_v4 rp_v4_load3x(const float *p) { return rp_v4_keep3(_mm_loadu_ps(p)); }
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
static inline rp_v4 rp_v4_keep3(rp_v4 a)
{
    a.f[3] = 0.0f;
    return a;
}
static inline float rp_v4_area_of_extent(rp_v4 e)
{
    return e.f[0] * e.f[1] + e.f[1] * e.f[2] + e.f[2] * e.f[0];
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

/* Moves the primitives of p[0 .. count) whose centroid bins on `axis`
   are at most `plane` (rp_bvh_beyond) to the front, in place; returns
   how many went left. scattered: as rp_bvh_shape's. top_threads > 0 (the
   top of the tree): each half of p is partitioned on its own, on two
   threads when top_threads > 1, with the same result on any number. */
uint32_t rp_bvh_partition(rp_bvh_prim *p, uint32_t count, int axis, int plane,
                          const rp_bvh_binning *bn, bool scattered, int top_threads);

#endif /* RAYPICK_BVH_BUILD_INTERNAL_H */

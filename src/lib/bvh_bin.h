/*
 * bvh_bin.h: the BVH builder's binning (Wald 2007): each primitive's
 * centroid falls into one of up to RP_BVH_BINS bins per axis, and every
 * bin grows the box of its primitives and the bounds of their centroids.
 * The builder (bvh_build.c) sweeps the bins for the cheapest plane, and
 * the two sides' bounds are unions of bins. Its plain C and SSE2 versions
 * are bvh_bin.c's, its AVX2 kernel bvh_bin_avx2.c; simd.c picks one.
 * Every version does the same float operations on the same values, so
 * the bins, and so the trees, are the same bit for bit. Not installed.
 */
#ifndef RAYPICK_BVH_BIN_H
#define RAYPICK_BVH_BIN_H

#include <stdalign.h>
#include <stdbool.h>
#include <stdint.h>

#include "bvh.h"

/* Most bins per axis (Wald 2007: centroids in 16 bins, the cheapest of
   the 15 planes between them). */
#define RP_BVH_BINS 16

/* The map from a centroid to its bins: on axis a, centroid c (min + max
   of the box: twice the centre, no halving needed) falls into bin
   trunc(clamp((c - cmin[a]) * scale[a], 0, bins - 1)); scale 0: the axis
   is not binned (its centroids do not spread). Lane 3 unused (0). */
typedef struct rp_bvh_binning {
    float cmin[4], scale[4];
    int   bins;     /* 2 .. RP_BVH_BINS */
} rp_bvh_binning;

/* Whether the centroid bin of p on `axis` is beyond `plane`: the bin
   arithmetic above on one axis, the same float operations; a bin is
   beyond plane exactly when the unclamped bin coordinate reaches
   plane + 1 (plane + 1 is a bin, and clamping moves no value across it). */
static inline bool rp_bvh_beyond(const rp_bvh_binning *bn, const rp_bvh_prim *p, int axis,
                                 float plane_end)
{
    return ((p->min[axis] + p->max[axis]) - bn->cmin[axis]) * bn->scale[axis] >= plane_end;
}

/* What the binning measures. A bin's box is min x y z, (unused), then the
   negated max x y z, (unused), so one minimum grows both ends (eight
   floats: one AVX register); its centroid bounds likewise. An empty bin
   holds FLT_MAX in its used lanes and count 0; the unused lanes (3 and
   7) hold anything. */
typedef struct rp_bvh_bin {
    alignas(32) float box[8];   /* aligned: whole-register loads and stores */
    float cent[8];
} rp_bvh_bin;

typedef struct rp_bvh_bins {
    rp_bvh_bin bin[3][RP_BVH_BINS];
    uint32_t   count[3][RP_BVH_BINS];
} rp_bvh_bins;

/* Bins primitives p[0], p[stride], p[2 stride] ... below count (stride
   >= 1) into bins [0, bn->bins) of every axis of *out (all three, also
   those of scale 0). */
typedef void (*rp_bvh_bin_fn)(const rp_bvh_prim *p, uint32_t count, uint32_t stride,
                              const rp_bvh_binning *bn, rp_bvh_bins *out);

void rp_bvh_bin_scalar(const rp_bvh_prim *p, uint32_t count, uint32_t stride,
                       const rp_bvh_binning *bn, rp_bvh_bins *out);
void rp_bvh_bin_sse2(const rp_bvh_prim *p, uint32_t count, uint32_t stride,
                     const rp_bvh_binning *bn, rp_bvh_bins *out);   /* RP_SIMD_SSE2 only */
void rp_bvh_bin_avx2(const rp_bvh_prim *p, uint32_t count, uint32_t stride,
                     const rp_bvh_binning *bn, rp_bvh_bins *out);   /* RP_SIMD_DISPATCH only */

#endif /* RAYPICK_BVH_BIN_H */

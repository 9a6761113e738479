/*
 * tri_filter.h: the mesh leaves' first look at their triangles, a whole
 * leaf at a time: the watertight test's edge functions (triangle_internal.h)
 * of every triangle in the leaf's packets, and only the triangles whose
 * three signs do not mix are kept for rp_tri_intersect. Its plain C and
 * SSE2 versions live in tri_filter.c, its AVX kernel (two packets an
 * operation) in tri_filter_avx.c; simd.c picks one. Not installed.
 *
 * Every version computes U, V and W with rp_tri_intersect's float
 * operations in its order, operand for operand (no fused multiply-add:
 * src/lib/meson.build turns contraction off), so they get its bits: a
 * triangle dropped here is one rp_tri_intersect rejects at its first
 * test, and all versions keep the same triangles.
 */
#ifndef RAYPICK_TRI_FILTER_H
#define RAYPICK_TRI_FILTER_H

#include <stdint.h>

#include "mesh_bvh.h"
#include "simd.h"
#include "triangle_internal.h"   /* rp_tri_ray: the filter reads its origin, shear and axes */

/* The most slots a leaf's packets hold: a leaf of up to RP_MESH_MAX_LEAF
   triangles touches at most RP_MESH_MAX_LEAF / 4 packets (mesh_bvh.h). */
#define RP_TRI_FILTER_SLOTS 16
_Static_assert(RP_MESH_MAX_LEAF <= RP_TRI_FILTER_SLOTS,
               "a leaf's slots fit the filter's mask (and mesh.c's PREFETCH_LINES)");

/* The job (its type rp_tri_filter_fn is in simd.h): of the count
   (1 .. 16) slots from `first` of `packs`, in at most four packets from
   packet first / 4, the ones whose triangle the ray may hit; bit j of the
   result stands for slot 4 (first / 4) + j. */

unsigned rp_tri_filter_scalar(const rp_tri4 *packs, uint32_t first, uint32_t count,
                              const rp_tri_ray *r);
unsigned rp_tri_filter_sse2(const rp_tri4 *packs, uint32_t first, uint32_t count,
                            const rp_tri_ray *r);   /* RP_SIMD_SSE2 only */
unsigned rp_tri_filter_avx(const rp_tri4 *packs, uint32_t first, uint32_t count,
                           const rp_tri_ray *r);    /* RP_SIMD_DISPATCH only */

/* The slots [first, first + count) as bits from slot 4 (first / 4). */
static inline unsigned rp_tri_filter_lanes(uint32_t first, uint32_t count)
{
    return ((1u << count) - 1u) << (first % RP_TRI4_LANES);
}

/* How many packets the slots [first, first + count) touch. */
static inline uint32_t rp_tri_filter_packets(uint32_t first, uint32_t count)
{
    return (first % RP_TRI4_LANES + count + RP_TRI4_LANES - 1) / RP_TRI4_LANES;
}

#endif /* RAYPICK_TRI_FILTER_H */

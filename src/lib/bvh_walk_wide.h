/* bvh_walk_wide.h: the 256-bit node test of the AVX and AVX2 walks
   (bvh_walk_avx.c, bvh_walk_avx2.c); not installed. Include it only from a
   file compiled with AVX. An eight-wide node's two halves are tested
   together, each row of eight bounds one register (a 128-bit load of
   each half); a node of one half the same way, its slots 4-7 masked.
   The slab test is rp_bvh4_enter's (bvh4.h), operation for operation
   and operand for operand (vmaxps keeps its second operand on a NaN as
   maxps does), so it enters the same children at the same distances as
   rp_bvh_walk_base. */
#ifndef RAYPICK_BVH_WALK_WIDE_H
#define RAYPICK_BVH_WALK_WIDE_H

#include "bvh_walk.h"
#include "simd.h"

#if RP_SIMD_DISPATCH

/* rp_bvh4_ray's constants in every lane of a 256-bit register, and each
   slab's near and far rows of rp_bvh4_node.b (rp_bvh4_ray's). */
typedef struct wide_ray {
    __m256 o_near[3], o_far[3], inv[3], inv_far[3];
    int    near_row[3], far_row[3];
} wide_ray;

/* A node of one half is tested eight lanes wide too, its half loaded
   twice and slots 4-7 masked off: one test for both kinds, no branch on
   which (in a scene's tree the kinds alternate at random: a fifth of
   those branches went the wrong way). */
typedef struct node_halves {
    const rp_bvh4_node *lo, *hi;   /* hi: the second half, or lo again */
    int                 slots;     /* 255, or 15 for a node of one half */
} node_halves;

static inline node_halves halves_of(const rp_bvh4_node *n, uint32_t halves)
{
    uint32_t second = halves - 1;   /* 0 or 1 */
    RP_OPAQUE(second);
    const node_halves h = {n, n + second, 15 | (int)(240 * second)};
    return h;
}

/* Row `row` of both halves: lanes 0-3 the first's. */
static inline __m256 both_halves(node_halves h, int row)
{
    return _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(h.lo->b[row])),
                                _mm_loadu_ps(h.hi->b[row]), 1);
}

/* Bit i set when child slot i (of eight) is used. */
static inline int slots_used8(node_halves h)
{
    const __m128i all = _mm_set1_epi32(-1);
    const __m128i e0 = _mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)(const void *)h.lo->child), all);
    const __m128i e1 = _mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)(const void *)h.hi->child), all);
    const int empty = _mm_movemask_ps(_mm_castsi128_ps(e0)) |
                      _mm_movemask_ps(_mm_castsi128_ps(e1)) << 4;
    return ~empty & h.slots;
}

static RP_INLINE_ALWAYS int enter_wide(const rp_bvh4_node *n, uint32_t halves, const void *ray,
                                       float t_max, float t_enter[RP_BVH8_SLOTS])
{
    const wide_ray *r = ray;
    const node_halves h = halves_of(n, halves);
    __m256 t_near = _mm256_setzero_ps(), t_far = _mm256_set1_ps(t_max + 0.0f), behind = t_near;
    for (int a = 0; a < 3; a++) {
        const __m256 t0 = _mm256_mul_ps(_mm256_sub_ps(both_halves(h, r->near_row[a]), r->o_near[a]),
                                        r->inv[a]);
        const __m256 t1 = _mm256_mul_ps(_mm256_sub_ps(both_halves(h, r->far_row[a]), r->o_far[a]),
                                        r->inv_far[a]);
        t_near = _mm256_max_ps(t0, t_near);
        t_far = _mm256_min_ps(t1, t_far);
        behind = _mm256_or_ps(behind, t1);
    }
    _mm256_storeu_ps(t_enter, t_near);
    return _mm256_movemask_ps(_mm256_cmp_ps(t_near, t_far, _CMP_LE_OS)) &
           ~_mm256_movemask_ps(behind) & slots_used8(h);
}

static inline void wide_ray_setup(const rp_bvh4_ray *ray, wide_ray *r)
{
    for (int a = 0; a < 3; a++) {
        r->o_near[a] = _mm256_set1_ps(ray->o_near[a]);
        r->o_far[a] = _mm256_set1_ps(ray->o_far[a]);
        r->inv[a] = _mm256_set1_ps(ray->inv[a]);
        r->inv_far[a] = _mm256_set1_ps(ray->inv_far[a]);
        r->near_row[a] = ray->near_row[a];
        r->far_row[a] = ray->far_row[a];
    }
}

#endif /* RP_SIMD_DISPATCH */

#endif /* RAYPICK_BVH_WALK_WIDE_H */

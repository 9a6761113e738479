/*
 * bvh_refit.h: the refit of a wide tree (bvh4.h) after its primitives'
 * boxes moved, one range of halves at a time; not installed. The refit is
 * a job of simd.c's table: rp_bvh_refit_avx (bvh_refit_avx.c) is these
 * functions compiled for AVX, where a half's SAH sum takes its four slots
 * in one 256-bit operation; rp_bvh_refit_base (bvh4.c) is them in SSE2,
 * two slots at a time, or plain C. Every path does the same float and
 * double operations in the same order, so each writes the same boxes and
 * returns the same sum, bit for bit (tests/test_simd.c).
 *
 * bvh4.c's rp_bvh4_refit and rp_bvh4_refit_split split a tree into
 * ranges and call the kernel on each.
 */
#ifndef RAYPICK_BVH_REFIT_H
#define RAYPICK_BVH_REFIT_H

#include <math.h>
#include <stdint.h>

#include "bvh4.h"
#include "internal.h"
#include "simd.h"

/* The refit reads each leaf's boxes at random (boxes are in object order,
   leaves in tree order): what the node this many places ahead will read
   is asked for early, so the misses overlap (rp_bvh_refit_loop's three
   stages). */
#define RP_REFIT_AHEAD 16

/* The entry a leaf slot's box starts from: its first; entry 0 for a
   node's or an empty slot (a read thrown away, cheaper than a branch no
   CPU guesses: the slots of leaves and of nodes alternate at random). */
static inline uint32_t refit_leaf_entry(const rp_bvh4_node *n, int i)
{
    /* a mask, not a ?: (which compilers turn into that branch) */
    return n->child[i] & (0u - (uint32_t)(n->count[i] > 0));
}

#if RP_SIMD_SSE2
/* The box around the leaf entries [first, first + count), entry first's
   when count is 0: min and max as (x, y, z, any). */
static inline void refit_leaf_box4(const uint32_t *prims, uint32_t first, uint32_t count,
                                   const rp_bvh_box *boxes, __m128 *lo, __m128 *hi)
{
    /* max read as (min z, max x, y, z): no load past the box */
    const rp_bvh_box *b = &boxes[prims[first]];
    __m128 m = _mm_loadu_ps(&b->min[2]);
    *lo = _mm_loadu_ps(b->min);
    *hi = _mm_shuffle_ps(m, m, _MM_SHUFFLE(0, 3, 2, 1));
    for (uint32_t j = first + 1; j < first + count; j++) {
        b = &boxes[prims[j]];
        m = _mm_loadu_ps(&b->min[2]);
        *lo = _mm_min_ps(*lo, _mm_loadu_ps(b->min));
        *hi = _mm_max_ps(*hi, _mm_shuffle_ps(m, m, _MM_SHUFFLE(0, 3, 2, 1)));
    }
}

/* The box around a node's four slots: rows b[0..2] are its slots' min
   x, y, z, b[3..5] their max (empty slots are inverted boxes). */
static inline void refit_node_box4(const rp_bvh4_node *n, __m128 *lo, __m128 *hi)
{
    __m128 x = _mm_loadu_ps(n->b[0]), y = _mm_loadu_ps(n->b[1]), z = _mm_loadu_ps(n->b[2]);
    __m128 w = z;
    _MM_TRANSPOSE4_PS(x, y, z, w);
    *lo = _mm_min_ps(_mm_min_ps(x, y), _mm_min_ps(z, w));
    x = _mm_loadu_ps(n->b[3]);
    y = _mm_loadu_ps(n->b[4]);
    z = _mm_loadu_ps(n->b[5]);
    w = z;
    _MM_TRANSPOSE4_PS(x, y, z, w);
    *hi = _mm_max_ps(_mm_max_ps(x, y), _mm_max_ps(z, w));
}

/* The weighted area of four slots of rows lo[0..2], hi[0..2] and weights
   w (bvh4.c's node_weighted_area: per slot (dx dy + dy dz) + dz dx in
   double, 0 unless dx >= 0 (an inverted, empty slot), times its weight;
   summed slot 0 to 3). AVX: the four slots in one 256-bit operation;
   SSE2: two at a time. The same operations per slot either way. */
#if RP_SIMD_BUILT_AVX
static inline double refit_rows_area(const __m128 lo[3], const __m128 hi[3], __m128i w)
{
    __m256d d[3];
    for (int a = 0; a < 3; a++)
        d[a] = _mm256_sub_pd(_mm256_cvtps_pd(hi[a]), _mm256_cvtps_pd(lo[a]));
    __m256d area = _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(d[0], d[1]), _mm256_mul_pd(d[1], d[2])),
                                 _mm256_mul_pd(d[2], d[0]));
    area = _mm256_and_pd(area, _mm256_cmp_pd(d[0], _mm256_setzero_pd(), _CMP_GE_OQ));
    area = _mm256_mul_pd(area, _mm256_cvtepi32_pd(w));
    const __m128d a01 = _mm256_castpd256_pd128(area), a23 = _mm256_extractf128_pd(area, 1);
    double sum = 0.0;
    sum += _mm_cvtsd_f64(a01);
    sum += _mm_cvtsd_f64(_mm_unpackhi_pd(a01, a01));
    sum += _mm_cvtsd_f64(a23);
    sum += _mm_cvtsd_f64(_mm_unpackhi_pd(a23, a23));
    return sum;
}
#else
static inline double refit_rows_area(const __m128 lo[3], const __m128 hi[3], __m128i w)
{
    double sum = 0.0;
    for (int half = 0; half < 2; half++) {
        __m128d d[3];
        for (int a = 0; a < 3; a++) {
            const __m128 l = half ? _mm_movehl_ps(lo[a], lo[a]) : lo[a];
            const __m128 h = half ? _mm_movehl_ps(hi[a], hi[a]) : hi[a];
            d[a] = _mm_sub_pd(_mm_cvtps_pd(h), _mm_cvtps_pd(l));
        }
        __m128d area = _mm_add_pd(_mm_add_pd(_mm_mul_pd(d[0], d[1]), _mm_mul_pd(d[1], d[2])),
                                  _mm_mul_pd(d[2], d[0]));
        area = _mm_and_pd(area, _mm_cmpge_pd(d[0], _mm_setzero_pd()));
        const __m128i wh = half ? _mm_srli_si128(w, 8) : w;
        area = _mm_mul_pd(area, _mm_cvtepi32_pd(wh));
        sum += _mm_cvtsd_f64(area);
        sum += _mm_cvtsd_f64(_mm_unpackhi_pd(area, area));
    }
    return sum;
}
#endif

/* Stores half n's rows lo[0..2] (min x, y, z of its four slots) and
   hi[0..2], and returns its weighted area (refit_rows_area). */
static inline double refit_store_rows(rp_bvh4_node *n, const __m128 lo[3], const __m128 hi[3])
{
    for (int a = 0; a < 3; a++) {
        _mm_storeu_ps(n->b[a], lo[a]);
        _mm_storeu_ps(n->b[3 + a], hi[a]);
    }
    const __m128i counts = _mm_loadu_si128((const __m128i *)(const void *)n->count);
    const __m128i used = _mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)(const void *)n->child),
                                         _mm_set1_epi32(-1));
    /* weight: the count, 1 for a node (count 0), 0 for an empty slot */
    __m128i w = _mm_or_si128(counts, _mm_and_si128(_mm_cmpeq_epi32(counts, _mm_setzero_si128()),
                                                   _mm_set1_epi32(1)));
    return refit_rows_area(lo, hi, _mm_andnot_si128(used, w));
}

/* Refits half n from its children (nodes of `halves` halves); returns
   its weighted area (the same sum, in the same order, as bvh4.c's
   node_weighted_area). */
static inline double rp_bvh_refit_node_simd(rp_bvh4_node *nodes, uint32_t halves, rp_bvh4_node *n,
                                            const uint32_t *prims, const rp_bvh_box *boxes)
{
    __m128 lo[4], hi[4];
    const __m128 empty = _mm_castsi128_ps(
        _mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)(const void *)n->child),
                        _mm_set1_epi32(-1)));
    const __m128 leaf = _mm_castsi128_ps(   /* counts are below 2^31 */
        _mm_cmpgt_epi32(_mm_loadu_si128((const __m128i *)(const void *)n->count),
                        _mm_setzero_si128()));
    if (_mm_movemask_ps(_mm_or_ps(empty, leaf)) == 15) {
        /* leaves only, as most halves (the bottom of the tree): every
           slot reads a box, an empty one entry 0's, then drops it (no
           branch on what a slot holds, which no CPU guesses) */
        for (int i = 0; i < 4; i++)
            refit_leaf_box4(prims, refit_leaf_entry(n, i), n->count[i], boxes, &lo[i], &hi[i]);
        _MM_TRANSPOSE4_PS(lo[0], lo[1], lo[2], lo[3]);
        _MM_TRANSPOSE4_PS(hi[0], hi[1], hi[2], hi[3]);
        for (int a = 0; a < 3; a++) {     /* empty slots: inverted boxes */
            lo[a] = _mm_or_ps(_mm_and_ps(empty, _mm_set1_ps(INFINITY)),
                              _mm_andnot_ps(empty, lo[a]));
            hi[a] = _mm_or_ps(_mm_and_ps(empty, _mm_set1_ps(-INFINITY)),
                              _mm_andnot_ps(empty, hi[a]));
        }
        return refit_store_rows(n, lo, hi);
    }
    for (int i = 0; i < 4; i++) {
        if (n->child[i] == RP_BVH4_EMPTY) {
            lo[i] = _mm_set1_ps(INFINITY);
            hi[i] = _mm_set1_ps(-INFINITY);
        } else if (n->count[i] > 0) {
            refit_leaf_box4(prims, n->child[i], n->count[i], boxes, &lo[i], &hi[i]);
        } else {
            const uint32_t first = rp_bvh4_child_first(n->child[i], halves);
            refit_node_box4(&nodes[first], &lo[i], &hi[i]);
            if (rp_bvh4_child_halves(n->child[i], halves) == 2) {
                __m128 l, u;
                refit_node_box4(&nodes[first + 1], &l, &u);
                lo[i] = _mm_min_ps(lo[i], l);
                hi[i] = _mm_max_ps(hi[i], u);
            }
        }
    }
    _MM_TRANSPOSE4_PS(lo[0], lo[1], lo[2], lo[3]);
    _MM_TRANSPOSE4_PS(hi[0], hi[1], hi[2], hi[3]);
    return refit_store_rows(n, lo, hi);
}
#endif /* RP_SIMD_SSE2 */

/* The first entry of half n's first leaf slot (0 when it has none): its
   leaf entries lie from there on, most within one line of prims. */
static inline uint32_t refit_first_leaf_entry(const rp_bvh4_node *n)
{
    return n->count[0] > 0   ? n->child[0]
           : n->count[1] > 0 ? n->child[1]
           : n->count[2] > 0 ? n->child[2]
           : n->count[3] > 0 ? n->child[3]
                             : 0u;
}

/* Asks for the boxes of half n's leaf entries: the refit's reads at
   random. */
static inline void refit_prefetch_leaves(const rp_bvh4_node *n, const uint32_t *prims,
                                         const rp_bvh_box *boxes)
{
    for (int i = 0; i < 4; i++) {
        const uint32_t first = refit_leaf_entry(n, i);
        const rp_bvh_box *b = &boxes[prims[first]];
        RP_PREFETCH(b->min);    /* both lines a box may straddle */
        RP_PREFETCH(&b->max[2]);
        for (uint32_t j = first + 1; j < first + n->count[i]; j++) {   /* leaves of more */
            b = &boxes[prims[j]];
            RP_PREFETCH(b->min);
            RP_PREFETCH(&b->max[2]);
        }
    }
}

/* How a kernel refits one half: its boxes from its children's, and its
   weighted area returned. */
typedef double (*rp_bvh_refit_node_fn)(rp_bvh4_node *nodes, uint32_t halves, rp_bvh4_node *n,
                                       const uint32_t *prims, const rp_bvh_box *boxes);

/* Refits halves [from, to), which hold their own children or refitted
   ones; returns their weighted area (rp_bvh4_weighted_area). `node` is a
   constant of each caller, so it is inlined. */
static RP_INLINE_ALWAYS double rp_bvh_refit_loop(rp_bvh4_node *nodes, uint32_t halves, uint32_t from,
                                                 uint32_t to, const uint32_t *prims,
                                                 const rp_bvh_box *boxes, rp_bvh_refit_node_fn node)
{
    double weighted = 0.0;
    /* children come after their parents: backwards, every child node is
       refitted before the slot that holds it is. Three stages ahead: a
       half's lines, then its leaf entries (backwards streams, which the
       hardware's prefetcher is slow to follow), then their boxes. The
       child nodes a half reads were refitted earlier in this pass, mostly
       still in cache (asking for them too measured no faster). */
    for (uint32_t q = to; q-- > from;) {
        if (q >= from + 3 * RP_REFIT_AHEAD) {
            RP_PREFETCH(&nodes[q - 3 * RP_REFIT_AHEAD]);
            RP_PREFETCH((const char *)&nodes[q - 3 * RP_REFIT_AHEAD] + 64);
        }
        if (q >= from + 2 * RP_REFIT_AHEAD)
            RP_PREFETCH(&prims[refit_first_leaf_entry(&nodes[q - 2 * RP_REFIT_AHEAD])]);
        if (q >= from + RP_REFIT_AHEAD)
            refit_prefetch_leaves(&nodes[q - RP_REFIT_AHEAD], prims, boxes);
        weighted += node(nodes, halves, &nodes[q], prims, boxes);
    }
    return weighted;
}

/* The baseline refit (bvh4.c): SSE2 where compiled in, else plain C. */
double rp_bvh_refit_base(rp_bvh4_node *nodes, uint32_t halves, uint32_t from, uint32_t to,
                         const uint32_t *prims, const rp_bvh_box *boxes);
#if RP_SIMD_DISPATCH
/* The AVX kernel (bvh_refit_avx.c): only where rp_simd_isa() >= RP_ISA_AVX. */
double rp_bvh_refit_avx(rp_bvh4_node *nodes, uint32_t halves, uint32_t from, uint32_t to,
                        const uint32_t *prims, const rp_bvh_box *boxes);
#endif

#endif /* RAYPICK_BVH_REFIT_H */

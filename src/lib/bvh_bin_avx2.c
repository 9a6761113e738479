/* bvh_bin_avx2.c: the builder's binning (bvh_bin.h) with 256-bit AVX2: a
   bin's box (min, negated max) and its centroid bounds are one register
   each, so each primitive grows a bin of each axis with two minimums
   instead of four. Compiled with the AVX2 flag (src/lib/meson.build) and
   called only when simd.c has found AVX2 on the CPU. The same operations
   on the same values as rp_bvh_bin_sse2 (bvh_bin.c), operand for operand:
   the same bins. */
#include <float.h>

#include "bvh_bin.h"
#include "simd.h"

#if RP_SIMD_DISPATCH && !RP_SIMD_BUILT_AVX2
#error "bvh_bin_avx2.c is a run-time kernel: compile it with -mavx2 (MSVC: /arch:AVX2)"
#endif

#if RP_SIMD_DISPATCH

/* Adds primitive p to its bin of each axis of b. */
static inline void add(rp_bvh_bins *b, const rp_bvh_prim *p, __m128 cmin, __m128 scale,
                       __m128 last)
{
    const __m256 negate_high = _mm256_setr_ps(0, 0, 0, 0, -0.0f, -0.0f, -0.0f, -0.0f);
    /* min, index, max, tag: 32 bytes, the index and tag zeroed (as
       subnormal floats they would cost Intel CPUs an assist in the add) */
    const __m256 xyz = _mm256_castsi256_ps(_mm256_setr_epi32(-1, -1, -1, 0, -1, -1, -1, 0));
    const __m256 r = _mm256_and_ps(_mm256_loadu_ps(p->min), xyz);
    const __m256 box = _mm256_xor_ps(r, negate_high);
    const __m128 s = _mm_add_ps(_mm256_castps256_ps128(r), _mm256_extractf128_ps(r, 1));
    const __m256 cent = _mm256_xor_ps(_mm256_insertf128_ps(_mm256_castps128_ps256(s), s, 1),
                                      negate_high);
    __m128 x = _mm_mul_ps(_mm_sub_ps(s, cmin), scale);
    x = _mm_min_ps(_mm_max_ps(x, _mm_setzero_ps()), last);
    const __m128i k = _mm_cvttps_epi32(x);
    const int k0 = _mm_cvtsi128_si32(k), k1 = _mm_extract_epi32(k, 1), k2 = _mm_extract_epi32(k, 2);
    float *b0 = b->bin[0][k0].box, *b1 = b->bin[1][k1].box, *b2 = b->bin[2][k2].box;
    float *c0 = b->bin[0][k0].cent, *c1 = b->bin[1][k1].cent, *c2 = b->bin[2][k2].cent;
    _mm256_store_ps(b0, _mm256_min_ps(box, _mm256_load_ps(b0)));
    _mm256_store_ps(c0, _mm256_min_ps(cent, _mm256_load_ps(c0)));
    b->count[0][k0]++;
    _mm256_store_ps(b1, _mm256_min_ps(box, _mm256_load_ps(b1)));
    _mm256_store_ps(c1, _mm256_min_ps(cent, _mm256_load_ps(c1)));
    b->count[1][k1]++;
    _mm256_store_ps(b2, _mm256_min_ps(box, _mm256_load_ps(b2)));
    _mm256_store_ps(c2, _mm256_min_ps(cent, _mm256_load_ps(c2)));
    b->count[2][k2]++;
}

static void empty(rp_bvh_bins *b, int nb)
{
    const __m256 big = _mm256_set1_ps(FLT_MAX);
    for (int a = 0; a < 3; a++)
        for (int k = 0; k < nb; k++) {
            _mm256_store_ps(b->bin[a][k].box, big);
            _mm256_store_ps(b->bin[a][k].cent, big);
            b->count[a][k] = 0;
        }
}

/* out's bins grown by other's: new = other < out ? other : out, as the
   other versions. */
static void merge(rp_bvh_bins *out, const rp_bvh_bins *other, int nb)
{
    for (int a = 0; a < 3; a++)
        for (int k = 0; k < nb; k++) {
            _mm256_store_ps(out->bin[a][k].box, _mm256_min_ps(_mm256_load_ps(other->bin[a][k].box),
                                                           _mm256_load_ps(out->bin[a][k].box)));
            _mm256_store_ps(out->bin[a][k].cent, _mm256_min_ps(_mm256_load_ps(other->bin[a][k].cent),
                                                            _mm256_load_ps(out->bin[a][k].cent)));
            out->count[a][k] += other->count[a][k];
        }
}

void rp_bvh_bin_avx2(const rp_bvh_prim *p, uint32_t count, uint32_t stride,
                     const rp_bvh_binning *bn, rp_bvh_bins *out)
{
    rp_bvh_bins odd;
    empty(out, bn->bins);
    empty(&odd, bn->bins);
    const __m128 cmin = _mm_loadu_ps(bn->cmin), scale = _mm_loadu_ps(bn->scale);
    const __m128 last = _mm_set1_ps((float)(bn->bins - 1));
    uint32_t i = 0;
    for (; i + stride < count; i += 2 * stride) {
        add(out, &p[i], cmin, scale, last);
        add(&odd, &p[i + stride], cmin, scale, last);
    }
    if (i < count)
        add(out, &p[i], cmin, scale, last);
    merge(out, &odd, bn->bins);
}
#else
/* RAYPICK_NO_SIMD or RAYPICK_NO_AVX: simd.c's table does not list it. */
typedef int rp_bvh_bin_avx2_left_out;
#endif

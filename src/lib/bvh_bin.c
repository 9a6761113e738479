/* bvh_bin.c: the builder's binning (bvh_bin.h), plain C and SSE2; the
   AVX2 kernel is bvh_bin_avx2.c.

   Every version bins the even-numbered primitives into out and the odd
   ones into a second set merged in at the end (neighbours often share a
   bin, and each update would otherwise wait for the one before it to be
   stored), and grows a bound as new = v < old ? v : old, operands in
   that order (SSE's minps): so all give the same bits, down to the sign
   of a zero. */
#include <float.h>
#include <string.h>

#include "bvh_bin.h"
#include "simd.h"

static void bins_empty(rp_bvh_bins *b, int nb)
{
    for (int a = 0; a < 3; a++)
        for (int k = 0; k < nb; k++) {
            for (int i = 0; i < 8; i++)
                b->bin[a][k].box[i] = b->bin[a][k].cent[i] = FLT_MAX;
            b->count[a][k] = 0;
        }
}

/* out's bins [0, nb) grown by other's. */
static void bins_merge(rp_bvh_bins *out, const rp_bvh_bins *other, int nb)
{
    for (int a = 0; a < 3; a++)
        for (int k = 0; k < nb; k++) {
            for (int i = 0; i < 8; i++) {
                float *x = &out->bin[a][k].box[i], *y = &out->bin[a][k].cent[i];
                *x = other->bin[a][k].box[i] < *x ? other->bin[a][k].box[i] : *x;
                *y = other->bin[a][k].cent[i] < *y ? other->bin[a][k].cent[i] : *y;
            }
            out->count[a][k] += other->count[a][k];
        }
}

/* The bin of centroid coordinate c on axis a (bvh_bin.h's formula). */
static int bin_of(const rp_bvh_binning *bn, int a, float c)
{
    float x = (c - bn->cmin[a]) * bn->scale[a];
    x = x > 0.0f ? x : 0.0f;
    const float last = (float)(bn->bins - 1);
    x = x < last ? x : last;
    return (int)x;
}

static void add_scalar(rp_bvh_bins *b, const rp_bvh_binning *bn, const rp_bvh_prim *p)
{
    float v[8], c[8];
    for (int i = 0; i < 3; i++) {
        const float cc = p->min[i] + p->max[i];
        v[i] = p->min[i];
        v[4 + i] = -p->max[i];
        c[i] = cc;
        c[4 + i] = -cc;
    }
    for (int a = 0; a < 3; a++) {
        const int k = bin_of(bn, a, c[a]);
        float *box = b->bin[a][k].box, *cent = b->bin[a][k].cent;
        for (int i = 0; i < 8; i++) {
            if (i % 4 == 3)
                continue;       /* unused lanes */
            box[i] = v[i] < box[i] ? v[i] : box[i];
            cent[i] = c[i] < cent[i] ? c[i] : cent[i];
        }
        b->count[a][k]++;
    }
}

void rp_bvh_bin_scalar(const rp_bvh_prim *p, uint32_t count, uint32_t stride,
                       const rp_bvh_binning *bn, rp_bvh_bins *out)
{
    rp_bvh_bins odd;
    bins_empty(out, bn->bins);
    bins_empty(&odd, bn->bins);
    uint32_t i = 0;
    for (; i + stride < count; i += 2 * stride) {
        add_scalar(out, bn, &p[i]);
        add_scalar(&odd, bn, &p[i + stride]);
    }
    if (i < count)
        add_scalar(out, bn, &p[i]);
    bins_merge(out, &odd, bn->bins);
}

#if RP_SIMD_SSE2
/* Four floats per register: a bound is two halves, min and negated max. */
static inline void add_sse2(rp_bvh_bins *b, const int k[4], __m128 lo, __m128 nhi, __m128 c,
                            __m128 nc)
{
    for (int a = 0; a < 3; a++) {
        float *box = b->bin[a][k[a]].box, *cent = b->bin[a][k[a]].cent;
        _mm_store_ps(box, _mm_min_ps(lo, _mm_load_ps(box)));
        _mm_store_ps(box + 4, _mm_min_ps(nhi, _mm_load_ps(box + 4)));
        _mm_store_ps(cent, _mm_min_ps(c, _mm_load_ps(cent)));
        _mm_store_ps(cent + 4, _mm_min_ps(nc, _mm_load_ps(cent + 4)));
        b->count[a][k[a]]++;
    }
}

/* The primitive's four vectors (lane 3 zeroed: the index and tag bits
   there are subnormal floats, which cost an Intel CPU a microcode assist
   in every add or multiply) and its bins on the three axes. */
static inline void prim_sse2(const rp_bvh_prim *p, __m128 cmin, __m128 scale, __m128 last,
                             __m128 *lo, __m128 *nhi, __m128 *c, __m128 *nc, int k[4])
{
    const __m128 sign = _mm_set1_ps(-0.0f);
    const __m128 xyz = _mm_castsi128_ps(_mm_setr_epi32(-1, -1, -1, 0));
    const __m128 a = _mm_and_ps(_mm_loadu_ps(p->min), xyz);
    const __m128 b = _mm_and_ps(_mm_loadu_ps(p->max), xyz);
    const __m128 s = _mm_add_ps(a, b);
    *lo = a;
    *nhi = _mm_xor_ps(b, sign);
    *c = s;
    *nc = _mm_xor_ps(s, sign);
    /* bin_of, four lanes at once: max and min keep their second operand
       for a NaN, as the plain C comparisons do */
    __m128 x = _mm_mul_ps(_mm_sub_ps(s, cmin), scale);
    x = _mm_min_ps(_mm_max_ps(x, _mm_setzero_ps()), last);
    _mm_storeu_si128((__m128i *)(void *)k, _mm_cvttps_epi32(x));
}

static void empty_sse2(rp_bvh_bins *b, int nb)
{
    const __m128 big = _mm_set1_ps(FLT_MAX);
    for (int a = 0; a < 3; a++)
        for (int k = 0; k < nb; k++) {
            for (int i = 0; i < 8; i += 4) {
                _mm_store_ps(&b->bin[a][k].box[i], big);
                _mm_store_ps(&b->bin[a][k].cent[i], big);
            }
            b->count[a][k] = 0;
        }
}

static void merge_sse2(rp_bvh_bins *out, const rp_bvh_bins *other, int nb)
{
    for (int a = 0; a < 3; a++)
        for (int k = 0; k < nb; k++) {
            for (int i = 0; i < 8; i += 4) {
                float *x = &out->bin[a][k].box[i], *y = &out->bin[a][k].cent[i];
                _mm_store_ps(x, _mm_min_ps(_mm_load_ps(&other->bin[a][k].box[i]), _mm_load_ps(x)));
                _mm_store_ps(y, _mm_min_ps(_mm_load_ps(&other->bin[a][k].cent[i]), _mm_load_ps(y)));
            }
            out->count[a][k] += other->count[a][k];
        }
}

void rp_bvh_bin_sse2(const rp_bvh_prim *p, uint32_t count, uint32_t stride,
                     const rp_bvh_binning *bn, rp_bvh_bins *out)
{
    rp_bvh_bins odd;
    empty_sse2(out, bn->bins);
    empty_sse2(&odd, bn->bins);
    const __m128 cmin = _mm_loadu_ps(bn->cmin), scale = _mm_loadu_ps(bn->scale);
    const __m128 last = _mm_set1_ps((float)(bn->bins - 1));
    __m128 lo, nhi, c, nc;
    int k[4];
    uint32_t i = 0;
    for (; i + stride < count; i += 2 * stride) {
        prim_sse2(&p[i], cmin, scale, last, &lo, &nhi, &c, &nc, k);
        add_sse2(out, k, lo, nhi, c, nc);
        prim_sse2(&p[i + stride], cmin, scale, last, &lo, &nhi, &c, &nc, k);
        add_sse2(&odd, k, lo, nhi, c, nc);
    }
    if (i < count) {
        prim_sse2(&p[i], cmin, scale, last, &lo, &nhi, &c, &nc, k);
        add_sse2(out, k, lo, nhi, c, nc);
    }
    merge_sse2(out, &odd, bn->bins);
}
#endif

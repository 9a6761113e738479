/* tri_filter.c: the leaves' triangle filter (tri_filter.h) in plain C and
   with SSE2, four triangles (one packet) an operation. */
#include "simd.h"
#include "tri_filter.h"

/* Lane `lane` of packet pk: true when its edge functions' signs mix. */
static int mixed_signs(const rp_tri4 *pk, int lane, const rp_tri_ray *r)
{
    const int kx = r->kx, ky = r->ky, kz = r->kz;
    const float az = pk->v[kz][lane] - r->oz, bz = pk->v[3 + kz][lane] - r->oz;
    const float cz = pk->v[6 + kz][lane] - r->oz;
    const float ax = (pk->v[kx][lane] - r->ox) - r->sx * az;
    const float ay = (pk->v[ky][lane] - r->oy) - r->sy * az;
    const float bx = (pk->v[3 + kx][lane] - r->ox) - r->sx * bz;
    const float by = (pk->v[3 + ky][lane] - r->oy) - r->sy * bz;
    const float cx = (pk->v[6 + kx][lane] - r->ox) - r->sx * cz;
    const float cy = (pk->v[6 + ky][lane] - r->oy) - r->sy * cz;
    const float u = cx * by - cy * bx, v = ax * cy - ay * cx, w = bx * ay - by * ax;
    const int neg = (u < 0.0f) | (v < 0.0f) | (w < 0.0f);
    const int pos = (u > 0.0f) | (v > 0.0f) | (w > 0.0f);
    return neg & pos;
}

unsigned rp_tri_filter_scalar(const rp_tri4 *packs, uint32_t first, uint32_t count,
                              const rp_tri_ray *r)
{
    const rp_tri4 *pk = &packs[first / RP_TRI4_LANES];
    unsigned keep = rp_tri_filter_lanes(first, count);
    for (int j = 0; j < RP_TRI_FILTER_SLOTS; j++)
        if ((keep >> j) & 1u)
            keep &= ~((unsigned)mixed_signs(&pk[j / RP_TRI4_LANES], j % RP_TRI4_LANES, r) << j);
    return keep;
}

#if RP_SIMD_SSE2

/* The lanes of pk whose signs mix, as rp_tri_intersect computes them. */
static int mixed_signs4(const rp_tri4 *pk, const rp_tri_ray *r, __m128 ox, __m128 oy,
                        __m128 oz, __m128 sx, __m128 sy)
{
    const int kx = r->kx, ky = r->ky, kz = r->kz;
    const __m128 az = _mm_sub_ps(_mm_loadu_ps(pk->v[kz]), oz);
    const __m128 bz = _mm_sub_ps(_mm_loadu_ps(pk->v[3 + kz]), oz);
    const __m128 cz = _mm_sub_ps(_mm_loadu_ps(pk->v[6 + kz]), oz);
    const __m128 ax = _mm_sub_ps(_mm_sub_ps(_mm_loadu_ps(pk->v[kx]), ox), _mm_mul_ps(sx, az));
    const __m128 ay = _mm_sub_ps(_mm_sub_ps(_mm_loadu_ps(pk->v[ky]), oy), _mm_mul_ps(sy, az));
    const __m128 bx = _mm_sub_ps(_mm_sub_ps(_mm_loadu_ps(pk->v[3 + kx]), ox), _mm_mul_ps(sx, bz));
    const __m128 by = _mm_sub_ps(_mm_sub_ps(_mm_loadu_ps(pk->v[3 + ky]), oy), _mm_mul_ps(sy, bz));
    const __m128 cx = _mm_sub_ps(_mm_sub_ps(_mm_loadu_ps(pk->v[6 + kx]), ox), _mm_mul_ps(sx, cz));
    const __m128 cy = _mm_sub_ps(_mm_sub_ps(_mm_loadu_ps(pk->v[6 + ky]), oy), _mm_mul_ps(sy, cz));
    const __m128 u = _mm_sub_ps(_mm_mul_ps(cx, by), _mm_mul_ps(cy, bx));
    const __m128 v = _mm_sub_ps(_mm_mul_ps(ax, cy), _mm_mul_ps(ay, cx));
    const __m128 w = _mm_sub_ps(_mm_mul_ps(bx, ay), _mm_mul_ps(by, ax));
    const __m128 zero = _mm_setzero_ps();
    const __m128 neg = _mm_or_ps(_mm_or_ps(_mm_cmplt_ps(u, zero), _mm_cmplt_ps(v, zero)),
                                 _mm_cmplt_ps(w, zero));
    const __m128 pos = _mm_or_ps(_mm_or_ps(_mm_cmpgt_ps(u, zero), _mm_cmpgt_ps(v, zero)),
                                 _mm_cmpgt_ps(w, zero));
    return _mm_movemask_ps(_mm_and_ps(neg, pos));
}

unsigned rp_tri_filter_sse2(const rp_tri4 *packs, uint32_t first, uint32_t count,
                            const rp_tri_ray *r)
{
    const __m128 ox = _mm_set1_ps(r->ox), oy = _mm_set1_ps(r->oy), oz = _mm_set1_ps(r->oz);
    const __m128 sx = _mm_set1_ps(r->sx), sy = _mm_set1_ps(r->sy);
    const rp_tri4 *pk = &packs[first / RP_TRI4_LANES];
    const uint32_t n = rp_tri_filter_packets(first, count);
    unsigned mixed = 0;
    for (uint32_t p = 0; p < n; p++)
        mixed |= (unsigned)mixed_signs4(&pk[p], r, ox, oy, oz, sx, sy) << (RP_TRI4_LANES * p);
    return rp_tri_filter_lanes(first, count) & ~mixed;
}

#endif /* RP_SIMD_SSE2 */

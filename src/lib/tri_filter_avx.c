/* tri_filter_avx.c: the leaves' triangle filter (tri_filter.h) two
   packets at a time with 256-bit AVX: lanes 0-3 of each register are one
   packet's, lanes 4-7 the next one's, so a leaf of up to four packets
   takes at most two passes. Compiled with the AVX flag (-mavx, /arch:AVX:
   src/lib/meson.build) and called only when simd.c has found AVX. */
#include "simd.h"
#include "tri_filter.h"

#if RP_SIMD_DISPATCH && !RP_SIMD_BUILT_AVX
#error "tri_filter_avx.c is a run-time kernel: compile it with -mavx (MSVC: /arch:AVX)"
#endif

#if RP_SIMD_DISPATCH

/* Row `row` of packets pk[0] and pk[1]; of pk[0] alone (lanes 4-7 a copy)
   when `one`. */
static inline __m256 two_packets(const rp_tri4 *pk, int row, int one)
{
    const __m128 lo = _mm_loadu_ps(pk[0].v[row]);
    return _mm256_insertf128_ps(_mm256_castps128_ps256(lo), one ? lo : _mm_loadu_ps(pk[1].v[row]), 1);
}

unsigned rp_tri_filter_avx(const rp_tri4 *packs, uint32_t first, uint32_t count,
                           const rp_tri_ray *r)
{
    const __m256 ox = _mm256_set1_ps(r->ox), oy = _mm256_set1_ps(r->oy);
    const __m256 oz = _mm256_set1_ps(r->oz), sx = _mm256_set1_ps(r->sx);
    const __m256 sy = _mm256_set1_ps(r->sy), zero = _mm256_setzero_ps();
    const int kx = r->kx, ky = r->ky, kz = r->kz;
    const rp_tri4 *pk = &packs[first / RP_TRI4_LANES];
    const uint32_t n = rp_tri_filter_packets(first, count);
    unsigned mixed = 0;
    for (uint32_t p = 0; p < n; p += 2) {
        const int one = p + 1 == n;
        const __m256 az = _mm256_sub_ps(two_packets(&pk[p], kz, one), oz);
        const __m256 bz = _mm256_sub_ps(two_packets(&pk[p], 3 + kz, one), oz);
        const __m256 cz = _mm256_sub_ps(two_packets(&pk[p], 6 + kz, one), oz);
        const __m256 ax = _mm256_sub_ps(_mm256_sub_ps(two_packets(&pk[p], kx, one), ox),
                                        _mm256_mul_ps(sx, az));
        const __m256 ay = _mm256_sub_ps(_mm256_sub_ps(two_packets(&pk[p], ky, one), oy),
                                        _mm256_mul_ps(sy, az));
        const __m256 bx = _mm256_sub_ps(_mm256_sub_ps(two_packets(&pk[p], 3 + kx, one), ox),
                                        _mm256_mul_ps(sx, bz));
        const __m256 by = _mm256_sub_ps(_mm256_sub_ps(two_packets(&pk[p], 3 + ky, one), oy),
                                        _mm256_mul_ps(sy, bz));
        const __m256 cx = _mm256_sub_ps(_mm256_sub_ps(two_packets(&pk[p], 6 + kx, one), ox),
                                        _mm256_mul_ps(sx, cz));
        const __m256 cy = _mm256_sub_ps(_mm256_sub_ps(two_packets(&pk[p], 6 + ky, one), oy),
                                        _mm256_mul_ps(sy, cz));
        const __m256 u = _mm256_sub_ps(_mm256_mul_ps(cx, by), _mm256_mul_ps(cy, bx));
        const __m256 v = _mm256_sub_ps(_mm256_mul_ps(ax, cy), _mm256_mul_ps(ay, cx));
        const __m256 w = _mm256_sub_ps(_mm256_mul_ps(bx, ay), _mm256_mul_ps(by, ax));
        const __m256 neg = _mm256_or_ps(_mm256_or_ps(_mm256_cmp_ps(u, zero, _CMP_LT_OS),
                                                     _mm256_cmp_ps(v, zero, _CMP_LT_OS)),
                                        _mm256_cmp_ps(w, zero, _CMP_LT_OS));
        const __m256 pos = _mm256_or_ps(_mm256_or_ps(_mm256_cmp_ps(u, zero, _CMP_GT_OS),
                                                     _mm256_cmp_ps(v, zero, _CMP_GT_OS)),
                                        _mm256_cmp_ps(w, zero, _CMP_GT_OS));
        mixed |= (unsigned)_mm256_movemask_ps(_mm256_and_ps(neg, pos)) << (RP_TRI4_LANES * p);
    }
    return rp_tri_filter_lanes(first, count) & ~mixed;
}

#endif /* RP_SIMD_DISPATCH */

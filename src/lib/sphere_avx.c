/* sphere_avx.c: rp_intersect_ray_spheres' filter (sphere_filter.h) eight
   spheres at a time with 256-bit AVX. Compiled with the AVX flag (-mavx,
   /arch:AVX: src/lib/meson.build) and called only when simd.c has found
   AVX on the CPU; the rest of the library is built for the baseline. */
#include "simd.h"

#if RP_SIMD_DISPATCH && !RP_SIMD_BUILT_AVX
#error "sphere_avx.c is a run-time kernel: compile it with -mavx (MSVC: /arch:AVX)"
#endif

#if RP_SIMD_DISPATCH

/* Lane 0 of each register holds spheres i..i+3, lane 1 spheres i+4..i+7,
   so the in-lane transpose is the SSE one and the mask's low and high
   nibbles are the two groups of four. The comparisons are the scalar
   ones, operand for operand, so NaN keeps. */
unsigned rp_sphere_filter_avx(const rp_sphere_filter_ray *rf, const rp_sphere *s, size_t n,
                              size_t i, unsigned char *keep)
{
    const __m256 ox = _mm256_set1_ps(rf->ox), oy = _mm256_set1_ps(rf->oy);
    const __m256 oz = _mm256_set1_ps(rf->oz);
    const __m256 ux = _mm256_set1_ps(rf->ux), uy = _mm256_set1_ps(rf->uy);
    const __m256 uz = _mm256_set1_ps(rf->uz);
    const __m256 one_minus_b = _mm256_set1_ps(1.0f - RP_FILTER_B);
    const __m256 r2_scale = _mm256_set1_ps(RP_FILTER_R2_SCALE);
    const __m256 tiny = _mm256_set1_ps(RP_FILTER_TINY);
    const __m256 trusted = _mm256_set1_ps(RP_FILTER_TRUSTED_FF);
    const __m256 zero = _mm256_setzero_ps();
    unsigned any = 0;
    for (; i + 8 <= n; i += 8) {
        const float *p = &s[i].center[0];   /* 4 floats per sphere */
        const __m256 r0 = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(p)),
                                               _mm_loadu_ps(p + 16), 1);
        const __m256 r1 = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(p + 4)),
                                               _mm_loadu_ps(p + 20), 1);
        const __m256 r2 = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(p + 8)),
                                               _mm_loadu_ps(p + 24), 1);
        const __m256 r3 = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(p + 12)),
                                               _mm_loadu_ps(p + 28), 1);
        const __m256 t0 = _mm256_unpacklo_ps(r0, r1), t1 = _mm256_unpacklo_ps(r2, r3);
        const __m256 t2 = _mm256_unpackhi_ps(r0, r1), t3 = _mm256_unpackhi_ps(r2, r3);
        const __m256 cx = _mm256_shuffle_ps(t0, t1, 0x44), cy = _mm256_shuffle_ps(t0, t1, 0xEE);
        const __m256 cz = _mm256_shuffle_ps(t2, t3, 0x44), r = _mm256_shuffle_ps(t2, t3, 0xEE);
        const __m256 fx = _mm256_sub_ps(cx, ox), fy = _mm256_sub_ps(cy, oy);
        const __m256 fz = _mm256_sub_ps(cz, oz);
        const __m256 tc = _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(fx, ux), _mm256_mul_ps(fy, uy)),
                                        _mm256_mul_ps(fz, uz));
        const __m256 ff = _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(fx, fx), _mm256_mul_ps(fy, fy)),
                                        _mm256_mul_ps(fz, fz));
        const __m256 bound = _mm256_add_ps(_mm256_mul_ps(_mm256_mul_ps(r, r), r2_scale), tiny);
        const __m256 far_from_line = _mm256_cmp_ps(
            _mm256_sub_ps(_mm256_mul_ps(ff, one_minus_b), _mm256_mul_ps(tc, tc)), bound, _CMP_GT_OQ);
        const __m256 behind = _mm256_and_ps(_mm256_cmp_ps(tc, zero, _CMP_LT_OQ),
                                            _mm256_cmp_ps(ff, bound, _CMP_GT_OQ));
        const __m256 reject = _mm256_and_ps(_mm256_or_ps(far_from_line, behind),
                                            _mm256_cmp_ps(ff, trusted, _CMP_LT_OQ));
        const unsigned bits = ~(unsigned)_mm256_movemask_ps(reject) & 255u;
        keep[i / 4] = (unsigned char)(bits & 15u);
        keep[i / 4 + 1] = (unsigned char)(bits >> 4);
        any |= bits;
    }
    /* the last four or fewer: the SSE2 version (it hands on to plain C) */
    return any | rp_sphere_filter_sse2(rf, s, n, i, keep);
}
#else
/* RAYPICK_NO_SIMD or RAYPICK_NO_AVX: simd.c's table does not list it. */
typedef int rp_sphere_avx_left_out;
#endif

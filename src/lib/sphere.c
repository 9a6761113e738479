/* sphere.c: ray vs sphere (one and many), point in sphere, sphere vs sphere. */
#include "raypick/sphere.h"
#include "internal.h"
#include "quadric.h"

#include <float.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>

/* The many-sphere filter has an SSE2 path, an AVX one picked at run time,
   and the portable C one (simd.h decides which exist; the tests build every
   variant). */
#include "simd.h"

static bool sphere_is_valid(const rp_sphere *s)
{
    return s != NULL && rp_vec3_finite(s->center) && isfinite(s->radius) &&
           s->radius > 0.0f;
}

/* The whole exact path, shared by the single and the many-sphere calls so
   both give bit-identical answers. Expects a valid ray and sphere. */
static bool ray_sphere_hit(const rp_ray *ray, const rp_sphere *s, rp_hit *out)
{
    const double f[3] = {(double)ray->origin[0] - s->center[0],
                         (double)ray->origin[1] - s->center[1],
                         (double)ray->origin[2] - s->center[2]};
    const double d[3] = {ray->dir[0], ray->dir[1], ray->dir[2]};
    double t0, t1;
    if (!rp__ray_sphere_roots(f, d, s->radius, &t0, &t1) || t1 < 0.0)
        return false;                 /* missed, or the sphere is behind */

    /* the outward normal at the hit is the hit relative to the centre */
    const double t = rp__first_root(t0, t1);
    double n[3] = {f[0] + t * d[0], f[1] + t * d[1], f[2] + t * d[2]};
    return rp__store_hit(ray->origin, d, t0, t1, n, out);
}

bool rp_intersect_ray_sphere(const rp_ray *ray, const rp_sphere *s, rp_hit *out)
{
    if (!rp_ray_is_valid(ray) || !sphere_is_valid(s))
        return false;
    return ray_sphere_hit(ray, s, out);
}

bool rp_test_ray_sphere(const rp_ray *ray, const rp_sphere *s)
{
    return rp_intersect_ray_sphere(ray, s, NULL);
}

/* ---- many spheres -------------------------------------------------------
 *
 * A cheap float filter rejects most spheres; only the rest go through the
 * exact double path above. The filter must never drop a sphere the exact
 * path would accept, so its constants are error bounds, not tuning knobs.
 * With u = dir / |dir| (rounded once, per ray), f = centre - origin,
 * tc = f.u and ff = f.f, all in float (eps = 2^-24):
 *
 *   far from the line: the squared distance from the centre to the line is
 *     ff - tc^2, and a hit needs it <= r^2. The computed ff is within ~5 eps
 *     ff, the computed tc^2 within ~11 eps ff, so with B = 4e-6 (~67 eps)
 *     the computed ff (1 - B) - tc^2 stays below the true distance^2 (to
 *     within one rounding of itself), and rejecting when it exceeds
 *     r^2 (1 + 1e-5) + 16 FLT_MIN is safe (the FLT_MIN term covers the
 *     absolute errors of denormal results).
 *   behind the origin: a hit from outside needs tc > 0 and
 *     tc^2 >= ff - r^2. When the computed tc is < 0 the true one is below
 *     ~5 eps |f|, so such a hit needs ff - r^2 <= 25 eps^2 ff: the origin on
 *     the surface up to rounding, which the same bound on ff keeps.
 *     Reject when tc < 0 and ff > r^2 (1 + 1e-5) + 16 FLT_MIN.
 *   overflow: the two rejections are trusted only while ff < 1e30 (|f| up to
 *     1e15, nothing can overflow); farther spheres, and every NaN (bad radius,
 *     bad centre), are kept and left to the exact path, which validates. */

#define RP_FILTER_BLOCK 512            /* spheres per filter pass, multiple of 8 */
#define RP_FILTER_B 4e-6f
#define RP_FILTER_R2_SCALE (1.0f + 1e-5f)
#define RP_FILTER_TINY (16.0f * FLT_MIN)
#define RP_FILTER_TRUSTED_FF 1e30f

typedef struct ray_filter {
    float ox, oy, oz, ux, uy, uz;
} ray_filter;

static unsigned keep_sphere(const ray_filter *rf, const rp_sphere *s)
{
    const float fx = s->center[0] - rf->ox;
    const float fy = s->center[1] - rf->oy;
    const float fz = s->center[2] - rf->oz;
    const float tc = fx * rf->ux + fy * rf->uy + fz * rf->uz;
    const float ff = fx * fx + fy * fy + fz * fz;
    const float bound = s->radius * s->radius * RP_FILTER_R2_SCALE + RP_FILTER_TINY;
    const bool far_from_line = ff * (1.0f - RP_FILTER_B) - tc * tc > bound;
    const bool behind = tc < 0.0f && ff > bound;
    return !((far_from_line || behind) && ff < RP_FILTER_TRUSTED_FF);
}

/* Spheres [i, n) in groups of four (the last one possibly partial). */
static unsigned filter_scalar(const ray_filter *rf, const rp_sphere *s, size_t n, size_t i,
                              unsigned char *keep)
{
    unsigned any = 0;
    for (; i < n; i += 4) {
        unsigned bits = 0;
        for (unsigned j = 0; j < 4 && i + j < n; j++)
            bits |= keep_sphere(rf, &s[i + j]) << j;
        keep[i / 4] = (unsigned char)bits;
        any |= bits;
    }
    return any;
}

#if RP_SIMD_SSE2
/* The same filter four spheres at a time: a sphere is 16 bytes, one SSE
   register, so four loads and a transpose give x, y, z, r lanes. The
   comparisons are the scalar ones, operand for operand, so NaN keeps. */
static unsigned filter_sse2(const ray_filter *rf, const rp_sphere *s, size_t n, size_t i,
                            unsigned char *keep)
{
    const __m128 ox = _mm_set1_ps(rf->ox), oy = _mm_set1_ps(rf->oy), oz = _mm_set1_ps(rf->oz);
    const __m128 ux = _mm_set1_ps(rf->ux), uy = _mm_set1_ps(rf->uy), uz = _mm_set1_ps(rf->uz);
    const __m128 one_minus_b = _mm_set1_ps(1.0f - RP_FILTER_B);
    const __m128 r2_scale = _mm_set1_ps(RP_FILTER_R2_SCALE);
    const __m128 tiny = _mm_set1_ps(RP_FILTER_TINY);
    const __m128 trusted = _mm_set1_ps(RP_FILTER_TRUSTED_FF);
    const __m128 zero = _mm_setzero_ps();
    unsigned any = 0;
    for (; i + 4 <= n; i += 4) {
        __m128 cx = _mm_loadu_ps(&s[i].center[0]);
        __m128 cy = _mm_loadu_ps(&s[i + 1].center[0]);
        __m128 cz = _mm_loadu_ps(&s[i + 2].center[0]);
        __m128 r = _mm_loadu_ps(&s[i + 3].center[0]);
        _MM_TRANSPOSE4_PS(cx, cy, cz, r);
        const __m128 fx = _mm_sub_ps(cx, ox), fy = _mm_sub_ps(cy, oy), fz = _mm_sub_ps(cz, oz);
        const __m128 tc = _mm_add_ps(_mm_add_ps(_mm_mul_ps(fx, ux), _mm_mul_ps(fy, uy)),
                                     _mm_mul_ps(fz, uz));
        const __m128 ff = _mm_add_ps(_mm_add_ps(_mm_mul_ps(fx, fx), _mm_mul_ps(fy, fy)),
                                     _mm_mul_ps(fz, fz));
        const __m128 bound = _mm_add_ps(_mm_mul_ps(_mm_mul_ps(r, r), r2_scale), tiny);
        const __m128 far_from_line =
            _mm_cmpgt_ps(_mm_sub_ps(_mm_mul_ps(ff, one_minus_b), _mm_mul_ps(tc, tc)), bound);
        const __m128 behind = _mm_and_ps(_mm_cmplt_ps(tc, zero), _mm_cmpgt_ps(ff, bound));
        const __m128 reject = _mm_and_ps(_mm_or_ps(far_from_line, behind),
                                         _mm_cmplt_ps(ff, trusted));
        const unsigned bits = ~(unsigned)_mm_movemask_ps(reject) & 15u;
        keep[i / 4] = (unsigned char)bits;
        any |= bits;
    }
    return any | filter_scalar(rf, s, n, i, keep);
}
#endif

#if RP_SIMD_AVX
/* Eight at a time with 256-bit AVX, chosen at run time when the CPU has it
   (the library itself is built for the baseline ISA). Lane 0 of each
   register holds spheres i..i+3, lane 1 spheres i+4..i+7, so the in-lane
   transpose is the SSE one and the mask's low and high nibbles are the two
   groups of four. */
RP_SIMD_TARGET_AVX
static unsigned filter_avx(const ray_filter *rf, const rp_sphere *s, size_t n, size_t i,
                           unsigned char *keep)
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
    return any | filter_sse2(rf, s, n, i, keep);
}
#endif

typedef unsigned (*filter_fn)(const ray_filter *, const rp_sphere *, size_t, size_t,
                              unsigned char *);

static filter_fn pick_filter(void)
{
#if RP_SIMD_AVX
    if (rp_simd_has_avx())
        return filter_avx;
#endif
#if RP_SIMD_SSE2
    return filter_sse2;
#else
    return filter_scalar;
#endif
}

int rp_intersect_ray_spheres(const rp_ray *ray, const rp_sphere *spheres,
                             size_t count, rp_hit *out)
{
    if (!rp_ray_is_valid(ray) || spheres == NULL || count == 0)
        return -1;
    double u[3] = {ray->dir[0], ray->dir[1], ray->dir[2]};
    if (!rp__normalize3d(u))
        return -1;
    const ray_filter rf = {ray->origin[0], ray->origin[1], ray->origin[2],
                           (float)u[0], (float)u[1], (float)u[2]};

    const filter_fn filter = pick_filter();
    unsigned char keep[RP_FILTER_BLOCK / 4];
    size_t best = SIZE_MAX;
    rp_hit best_hit;
    memset(&best_hit, 0, sizeof best_hit);
    for (size_t base = 0; base < count; base += RP_FILTER_BLOCK) {
        const size_t n = count - base < RP_FILTER_BLOCK ? count - base : RP_FILTER_BLOCK;
        if (!filter(&rf, spheres + base, n, 0, keep))
            continue;
        for (size_t g = 0; g * 4 < n; g++) {
            for (unsigned bits = keep[g], j = 0; bits != 0; bits >>= 1, j++) {
                const size_t i = base + g * 4 + j;
                rp_hit h;
                if (!(bits & 1u) || !sphere_is_valid(&spheres[i]) ||
                    !ray_sphere_hit(ray, &spheres[i], &h))
                    continue;
                /* strict <: on equal t the lower index, seen first, stays */
                if (best == SIZE_MAX || h.t < best_hit.t) {
                    best = i;
                    best_hit = h;
                }
            }
        }
    }
    if (best == SIZE_MAX || best > INT_MAX)
        return -1;
    if (out)
        *out = best_hit;
    return (int)best;
}

/* ---- bounding-sphere tests --------------------------------------------- */

static double dist2(const vec3 a, const vec3 b)
{
    const double x = (double)a[0] - b[0], y = (double)a[1] - b[1], z = (double)a[2] - b[2];
    return x * x + y * y + z * z;
}

bool rp_sphere_contains_point(const rp_sphere *s, const vec3 p)
{
    if (!sphere_is_valid(s) || p == NULL || !rp_vec3_finite(p))
        return false;
    const double r = s->radius;
    return dist2(p, s->center) < r * r;
}

bool rp_test_sphere_sphere(const rp_sphere *a, const rp_sphere *b)
{
    if (!sphere_is_valid(a) || !sphere_is_valid(b))
        return false;
    const double sum = (double)a->radius + b->radius;
    return dist2(a->center, b->center) <= sum * sum;
}

bool rp_test_sphere_sphere_approx(const rp_sphere *a, const rp_sphere *b)
{
    if (!sphere_is_valid(a) || !sphere_is_valid(b))
        return false;
    const double ra = a->radius, rb = b->radius;
    return dist2(a->center, b->center) < ra * ra + rb * rb;
}

float rp_sphere_radius_for_approx(float radius)
{
    if (!isfinite(radius) || !(radius > 0.0f))
        return 0.0f;
    /* round the product to float, then one step up: the result is at least
       half a float ulp above radius * sqrt(2), which outweighs every double
       rounding in the approx test's comparison */
    const double exact = (double)radius * 1.41421356237309504880;
    if (!rp__fits_float(exact))
        return 0.0f;
    const float scaled = nextafterf((float)exact, INFINITY);
    return scaled <= FLT_MAX ? scaled : 0.0f;
}

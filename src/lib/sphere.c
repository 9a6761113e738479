/* sphere.c: ray vs sphere (one and many), point in sphere, sphere vs sphere. */
#include "raypick/sphere.h"
#include "internal.h"
#include "quadric.h"

#include <float.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>

/* The many-sphere filter (sphere_filter.h): its plain C and SSE2 versions
   are here, the AVX one in sphere_avx.c; simd.c picks one at run time. */
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
    return rp__sphere_hit_from_roots(ray->origin, f, d, t0, t1, out);
}

bool rp_intersect_ray_sphere(const rp_ray *ray, const rp_sphere *s, rp_hit *out)
{
    if (!rp_ray_valid(ray) || !sphere_is_valid(s))
        return false;
    return ray_sphere_hit(ray, s, out);
}

bool rp_test_ray_sphere(const rp_ray *ray, const rp_sphere *s)
{
    return rp_intersect_ray_sphere(ray, s, NULL);
}

/* ---- many spheres ------------------------------------------------------- */

static unsigned keep_sphere(const rp_sphere_filter_ray *rf, const rp_sphere *s)
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
unsigned rp_sphere_filter_scalar(const rp_sphere_filter_ray *rf, const rp_sphere *s, size_t n,
                                 size_t i, unsigned char *keep)
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
unsigned rp_sphere_filter_sse2(const rp_sphere_filter_ray *rf, const rp_sphere *s, size_t n,
                               size_t i, unsigned char *keep)
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
    return any | rp_sphere_filter_scalar(rf, s, n, i, keep);
}
#endif

int rp_intersect_ray_spheres(const rp_ray *ray, const rp_sphere *spheres,
                             size_t count, rp_hit *out)
{
    if (!rp_ray_valid(ray) || spheres == NULL || count == 0)
        return -1;
    double u[3] = {ray->dir[0], ray->dir[1], ray->dir[2]};
    if (!rp__normalize3d(u))
        return -1;
    const rp_sphere_filter_ray rf = {ray->origin[0], ray->origin[1], ray->origin[2],
                                     (float)u[0], (float)u[1], (float)u[2]};

    const rp_sphere_filter_fn filter = rp_simd_sphere_filter();
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

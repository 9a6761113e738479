/* bvh_walk_avx2.c: the AVX walk (bvh_walk_wide.h) with each end of a
   node's slab intervals taken as an integer max or min of the distances'
   bits, for the rays whose distances are never NaN (all but those with a
   zero, or sub-1/FLT_MAX, dir component, or an origin near FLT_MAX). An
   integer max or min takes one cycle where a float one takes four on
   Intel's cores, and a walk waits on each node's test before it loads
   the next node. Compiled with the AVX2 flag (-mavx2, /arch:AVX2:
   src/lib/meson.build) and called only when simd.c has found AVX2. */
#include "bvh_walk_wide.h"

#if RP_SIMD_DISPATCH && !RP_SIMD_BUILT_AVX2
#error "bvh_walk_avx2.c is a run-time kernel: compile it with -mavx2 (MSVC: /arch:AVX2)"
#endif

#if RP_SIMD_DISPATCH

/* No slab distance of this ray can be NaN: every constant is finite (a
   NaN needs an infinite 1/d or origin), so a box's bound minus the
   origin times 1/d is a number or an infinity. */
static bool nan_free(const rp_bvh4_ray *ray)
{
    bool finite = true;
    for (int a = 0; a < 3; a++)
        finite = finite && isfinite(ray->inv[a]) && isfinite(ray->inv_far[a]) &&
                 isfinite(ray->o_near[a]) && isfinite(ray->o_far[a]);
    return finite;
}

/* enter_wide for a NaN-free ray, bit for bit: t_near starts at +0 and
   only grows, and floats of +0 or more order as their bits do as
   integers, every negative one (and -0) below them; a far end whose bits
   are negative as an integer is one rp_bvh4_enter closes the box for
   (a far slab at or behind the origin). An empty slot's inverted box
   (min +inf, max -inf) is entered at +inf and left at -inf by such a
   ray, so it needs no look at the children's references. */
static RP_INLINE_ALWAYS int enter_wide_int(const rp_bvh4_node *n, uint32_t halves,
                                           const void *ray, float t_max,
                                           float t_enter[RP_BVH8_SLOTS])
{
    const wide_ray *r = ray;
    const node_halves h = halves_of(n, halves);
    __m256i t_near = _mm256_setzero_si256(), t_far = _mm256_castps_si256(_mm256_set1_ps(t_max + 0.0f));
    for (int a = 0; a < 3; a++) {
        const __m256 t0 = _mm256_mul_ps(_mm256_sub_ps(both_halves(h, r->near_row[a]), r->o_near[a]),
                                        r->inv[a]);
        const __m256 t1 = _mm256_mul_ps(_mm256_sub_ps(both_halves(h, r->far_row[a]), r->o_far[a]),
                                        r->inv_far[a]);
        t_near = _mm256_max_epi32(_mm256_castps_si256(t0), t_near);
        t_far = _mm256_min_epi32(_mm256_castps_si256(t1), t_far);
    }
    _mm256_storeu_si256((__m256i *)(void *)t_enter, t_near);
    return ~_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(t_near, t_far))) & h.slots;
}

void rp_bvh_walk_avx2(const rp_bvh_walk *w)
{
    wide_ray r;
    wide_ray_setup(w->ray, &r);
    if (nan_free(w->ray))
        rp_bvh_walk_loop(w, &r, enter_wide_int);
    else
        rp_bvh_walk_loop(w, &r, enter_wide);
}

int rp_bvh_enter_avx2(const rp_bvh4_node *n, uint32_t halves, const rp_bvh4_ray *ray, float t_max,
                      float t_enter[RP_BVH8_SLOTS])
{
    wide_ray r;
    wide_ray_setup(ray, &r);
    return nan_free(ray) ? enter_wide_int(n, halves, &r, t_max, t_enter)
                         : enter_wide(n, halves, &r, t_max, t_enter);
}

#endif /* RP_SIMD_DISPATCH */

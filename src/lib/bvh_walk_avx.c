/* bvh_walk_avx.c: the ray's walk of a wide tree (bvh_walk.h) with 256-bit
   AVX: bvh_walk_wide.h's node test. Compiled with the AVX flag (-mavx,
   /arch:AVX: src/lib/meson.build) and called only when simd.c has found
   AVX on the CPU. */
#include "bvh_walk_wide.h"

#if RP_SIMD_DISPATCH && !RP_SIMD_BUILT_AVX
#error "bvh_walk_avx.c is a run-time kernel: compile it with -mavx (MSVC: /arch:AVX)"
#endif

#if RP_SIMD_DISPATCH

void rp_bvh_walk_avx(const rp_bvh_walk *w)
{
    wide_ray r;
    wide_ray_setup(w->ray, &r);
    rp_bvh_walk_loop(w, &r, enter_wide);
}

int rp_bvh_enter_avx(const rp_bvh4_node *n, uint32_t halves, const rp_bvh4_ray *ray, float t_max,
                     float t_enter[RP_BVH8_SLOTS])
{
    wide_ray r;
    wide_ray_setup(ray, &r);
    return enter_wide(n, halves, &r, t_max, t_enter);
}

#endif /* RP_SIMD_DISPATCH */

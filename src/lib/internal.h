/* internal.h: helpers shared by the library's sources; not installed. */
#ifndef RAYPICK_INTERNAL_H
#define RAYPICK_INTERNAL_H

#include <math.h>
#include <stddef.h>
#include <stdbool.h>
#include <cglm/cglm.h>
#include "raypick/ray.h"

static inline bool rp_vec3_finite(const vec3 v)
{
    return isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]);
}

/* rp_ray_is_valid (ray.h) for the library's own checks: inlined, not a
   call through the shared library's table on every query and every
   object a scene tests. */
static inline bool rp_ray_valid(const rp_ray *ray)
{
    if (ray == NULL || !rp_vec3_finite(ray->origin) || !rp_vec3_finite(ray->dir))
        return false;
    return ray->dir[0] != 0.0f || ray->dir[1] != 0.0f || ray->dir[2] != 0.0f;
}

static inline bool rp_vec4_finite(const vec4 v)
{
    return isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]) && isfinite(v[3]);
}

static inline bool rp_mat4_finite(mat4 m)
{
    return rp_vec4_finite(m[0]) && rp_vec4_finite(m[1]) &&
           rp_vec4_finite(m[2]) && rp_vec4_finite(m[3]);
}

/* A float at or below x, at most three of its ulps below: x moved down by
   more than the half ulp that rounding to nearest can add (2^-24 of |x|
   for a normal float, 2^-150 for a subnormal one), then rounded. No
   branch and no call (rp_scene rounds every moved object's box with it).
   Infinite when x is beyond the float range. */
static inline float rp_float_below(double x)
{
    return (float)(x - (fabs(x) * 0x1p-23 + 0x1p-149));
}

/* A float at or above x, at most three of its ulps above. */
static inline float rp_float_above(double x)
{
    return (float)(x + (fabs(x) * 0x1p-23 + 0x1p-149));
}

/* Blocks of many megabytes written right after allocation: huge pages
   where the system offers them (alloc_large.c). Free with rp_free_large. */
void *rp_alloc_large(size_t bytes);
/* realloc for such blocks (p NULL or from either function, old_bytes its
   size): p's first old_bytes in a block of `bytes`; NULL when out of
   memory, p then unchanged. */
void *rp_realloc_large(void *p, size_t old_bytes, size_t bytes);
void  rp_free_large(void *p);

/* rp_intersect_ray_obb refuses hits outside the box's world bounds widened
   by this fraction of |centre| + |R| h per side (its rotation rounds by far
   less); rp_scene's bounds of an OBB are widened by twice as much, so every
   hit the function reports lies inside the scene's box for it. */
#define RP_OBB_BOUNDS_PAD 1e-7

/* Inlined at every call even where the compiler would not: one function
   written for two callers that pass it different constants (the scene's
   traversal, traced or not) then costs the plain caller nothing. */
#if defined(__GNUC__) || defined(__clang__)
#define RP_INLINE_ALWAYS inline __attribute__((always_inline))
#elif defined(_MSC_VER)
#define RP_INLINE_ALWAYS __forceinline
#else
#define RP_INLINE_ALWAYS inline
#endif

/* Hides an integer's value from the optimizer from here on, so a select
   written without a branch (a table index, a 0/1 flag) stays one: gcc
   otherwise splits the code after it per value, and a value that is a
   coin toss (which of a ray's axes is largest) then costs a mispredicted
   branch per ray. No instruction; elsewhere nothing. */
#if defined(__GNUC__) || defined(__clang__)
#define RP_OPAQUE(x) __asm__("" : "+r"(x))
#else
#define RP_OPAQUE(x) ((void)0)
#endif

#endif /* RAYPICK_INTERNAL_H */

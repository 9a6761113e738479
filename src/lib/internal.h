/* internal.h: helpers shared by the library's sources; not installed. */
#ifndef RAYPICK_INTERNAL_H
#define RAYPICK_INTERNAL_H

#include <math.h>
#include <stddef.h>
#include <stdbool.h>
#include <cglm/cglm.h>

static inline bool rp_vec3_finite(const vec3 v)
{
    return isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]);
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

/* Blocks of many megabytes written right after allocation: huge pages
   where the system offers them (alloc_large.c). Free with rp_free_large. */
void *rp_alloc_large(size_t bytes);
void  rp_free_large(void *p);

#endif /* RAYPICK_INTERNAL_H */

/* points_internal.h: reading a caller's array of points, x y z floats at
   the start of each element, stride_bytes apart (the layout of
   rp_aabb_from_points, rp_sphere_from_points and their variants: a
   D3DVERTEX array works as is). */
#ifndef RAYPICK_POINTS_INTERNAL_H
#define RAYPICK_POINTS_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "internal.h"

typedef struct rp_points {
    const unsigned char *base;
    size_t count, stride;
} rp_points;

/* false for NULL, no points, or a stride that is neither 0 (packed) nor at
   least three floats and float-aligned (a multiple of 4) */
static inline bool rp_points_init(const float *xyz, size_t count, size_t stride_bytes, rp_points *out)
{
    if (xyz == NULL || count == 0)
        return false;
    if (stride_bytes == 0)
        stride_bytes = 3 * sizeof(float);
    if (stride_bytes < 3 * sizeof(float) || stride_bytes % sizeof(float) != 0)
        return false;
    out->base = (const unsigned char *)xyz;
    out->count = count;
    out->stride = stride_bytes;
    return true;
}

/* point i, copied (the caller's array need not be aligned for floats) */
static inline void rp_points_get(const rp_points *pts, size_t i, float p[3])
{
    memcpy(p, pts->base + i * pts->stride, 3 * sizeof(float));
}

static inline bool rp_points_finite(const rp_points *pts)
{
    for (size_t i = 0; i < pts->count; i++) {
        float p[3];
        rp_points_get(pts, i, p);
        if (!rp_vec3_finite(p))
            return false;
    }
    return true;
}

#endif /* RAYPICK_POINTS_INTERNAL_H */

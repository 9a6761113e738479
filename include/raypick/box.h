/*
 * raypick/box.h: axis-aligned and oriented boxes; bounding volumes of points.
 *
 *     rp_aabb box;
 *     rp_aabb_from_points(&verts[0].x, n, sizeof verts[0], &box);  // D3DXComputeBoundingBox
 *     if (rp_test_ray_aabb(&ray, &box))                             // D3DXBoxBoundProbe
 *         ...
 *
 * (Declarations of the round-2 contract; the implementation and the full
 * documentation are being written in src/lib/box.c.)
 */
#ifndef RAYPICK_BOX_H
#define RAYPICK_BOX_H

#include <stddef.h>
#include "ray.h"
#include "sphere.h"

#ifdef __cplusplus
extern "C" {
#endif

/* An axis-aligned box: min <= max on every axis (a flat box is valid). */
typedef struct rp_aabb {
    vec3 min, max;
} rp_aabb;

/* An oriented box. orientation as rp_ellipsoid's: unit quaternion (x, y,
   z, w) rotating the box's local axes into the world; all zeros means
   axis-aligned; a non-zero quaternion is normalised. */
typedef struct rp_obb {
    vec3   center;
    vec3   half_extents;
    versor orientation;
} rp_obb;

RP_API bool rp_intersect_ray_aabb(const rp_ray *ray, const rp_aabb *box, rp_hit *out);
RP_API bool rp_intersect_ray_obb(const rp_ray *ray, const rp_obb *box, rp_hit *out);
RP_API bool rp_test_ray_aabb(const rp_ray *ray, const rp_aabb *box);

RP_API bool rp_aabb_from_points(const float *xyz, size_t count, size_t stride_bytes,
                                rp_aabb *out);
RP_API bool rp_sphere_from_points(const float *xyz, size_t count, size_t stride_bytes,
                                  rp_sphere *out);

#ifdef __cplusplus
}
#endif

#endif /* RAYPICK_BOX_H */

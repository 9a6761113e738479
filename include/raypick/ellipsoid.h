/*
 * raypick/ellipsoid.h: ray vs ellipsoid, axis-aligned or rotated.
 *
 *     rp_ellipsoid shield = {{0, 0, -10}, {4, 1.5f, 2}, {0, 0, 0, 0}};
 *     rp_hit hit;
 *     if (rp_intersect_ray_ellipsoid(&beam, &shield, &hit))
 *         flash_at(hit.point, hit.normal);
 */
#ifndef RAYPICK_ELLIPSOID_H
#define RAYPICK_ELLIPSOID_H

#include "ray.h"

#ifdef __cplusplus
extern "C" {
#endif

/* orientation: unit quaternion (cglm order x, y, z, w) rotating the
   ellipsoid's local axes into the world; all zeros means axis-aligned. */
typedef struct rp_ellipsoid {
    vec3   center;
    vec3   radii;
    versor orientation;
} rp_ellipsoid;

/*!
 * @brief first intersection of a ray with an ellipsoid (seed 000's ellipsoid
 *        shield, generalised to any orientation)
 *
 * @param[in]  ray the ray (any non-zero dir length)
 * @param[in]  e   the ellipsoid
 * @param[out] out the hit; normal is the true surface normal (the gradient
 *                 of the ellipsoid equation), unit, outward; may be NULL
 * @returns true for a hit at t >= 0 (tangent counts); false for a miss, an
 *          ellipsoid behind the origin, or invalid input (a radius <= 0 or
 *          non-finite, a non-unit, non-zero orientation)
 */
bool rp_intersect_ray_ellipsoid(const rp_ray *ray, const rp_ellipsoid *e, rp_hit *out);

#ifdef __cplusplus
}
#endif

#endif /* RAYPICK_ELLIPSOID_H */

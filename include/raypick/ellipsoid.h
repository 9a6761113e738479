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

/* The ellipsoid is the unit sphere under x -> center + R (radii * x):
   radii are the semi-axes along the local x, y, z axes, and orientation is
   a unit quaternion (cglm order x, y, z, w, as glm_quatv builds it) whose
   rotation R turns those local axes into the world. All zeros means
   axis-aligned (R = identity), the tutorial's case; q and -q are the same
   rotation. */
typedef struct rp_ellipsoid {
    vec3   center;
    vec3   radii;
    versor orientation;
} rp_ellipsoid;

/*!
 * @brief first intersection of a ray with an ellipsoid. Replaces the German
 *        phaser/shield tutorial's ellipsoid shield test (Sphere_Ray_Intersections' ellipsoid sibling,
 *        with pEllipsoidScaleSq), generalised to any orientation.
 *
 * The tutorial divides each term by the squared radius and keeps the float
 * b^2 - 4ac, which cancels for small shields far away, and it can only
 * handle axis-aligned shields. Here the ray is mapped into the ellipsoid's
 * unit-sphere space (rotate back by the quaternion, divide by the radii) and
 * solved with the same robust roots as rp_intersect_ray_sphere (Ray Tracing
 * Gems ch. 7), in double. The map is linear along the ray, so t is the same
 * in both spaces and needs no conversion.
 *
 *     rp_ellipsoid e = {{0, 0, -10}, {4, 1.5f, 2}, {0, 0, 0, 0}};
 *     glm_quatv(e.orientation, glm_rad(30), (vec3){0, 1, 0});  // turned 30 deg
 *
 * @param[in]  ray the ray (any non-zero dir length; t is in units of dir)
 * @param[in]  e   the ellipsoid
 * @param[out] out the hit; may be NULL. t = t_enter, or t_exit with
 *                 inside = true when the origin is inside; normal is the
 *                 true surface normal, the gradient of the ellipsoid equation
 *                 (local p / radii^2, rotated into the world), unit, outward;
 *                 for an ellipsoid it generally differs from point - center
 * @returns true for a hit at t >= 0 (a tangent ray counts, t_enter ==
 *          t_exit); false, with *out untouched, for a miss, an ellipsoid
 *          behind the origin, a hit too far along a tiny dir for float, or
 *          invalid input: NULL, NaN or infinity anywhere, zero dir, a radius
 *          <= 0, or a non-zero orientation whose length is not 1 within 1e-3
 *          (within it, the quaternion is renormalised)
 */
RP_API bool rp_intersect_ray_ellipsoid(const rp_ray *ray, const rp_ellipsoid *e, rp_hit *out);

#ifdef __cplusplus
}
#endif

#endif /* RAYPICK_ELLIPSOID_H */

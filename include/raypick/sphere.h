/*
 * raypick/sphere.h: ray vs bounding sphere, point in sphere, sphere vs sphere.
 *
 *     rp_sphere shield = {{0, 0, -10}, 2};
 *     rp_hit hit;
 *     if (rp_intersect_ray_sphere(&beam, &shield, &hit))
 *         draw_beam(beam.origin, hit.point);   // ends at the entry point
 */
#ifndef RAYPICK_SPHERE_H
#define RAYPICK_SPHERE_H

#include <stddef.h>
#include "ray.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rp_sphere {
    vec3  center;
    float radius;
} rp_sphere;

/*!
 * @brief first intersection of a ray with a sphere (seed 000's
 *        Sphere_Ray_Intersections, seed 001's CheckIntersection, done right)
 *
 * @param[in]  ray the ray (any non-zero dir length)
 * @param[in]  s   the sphere
 * @param[out] out the hit; may be NULL
 * @returns true when the ray meets the sphere at some t >= 0 (a tangent ray
 *          counts, t_enter == t_exit); false for a miss, a sphere entirely
 *          behind the origin, or invalid input
 */
bool rp_intersect_ray_sphere(const rp_ray *ray, const rp_sphere *s, rp_hit *out);

/*!
 * @brief yes/no version of rp_intersect_ray_sphere: same answer, no hit point.
 */
bool rp_test_ray_sphere(const rp_ray *ray, const rp_sphere *s);

/*!
 * @brief nearest sphere of an array that the ray hits (picking many objects)
 *
 * @param[in]  ray     the ray
 * @param[in]  spheres array of count spheres (invalid ones are skipped)
 * @param[in]  count   number of spheres
 * @param[out] out     the hit on the nearest sphere; may be NULL
 * @returns index of the sphere with the smallest hit t, or -1 (out untouched)
 *          when none is hit or the ray is invalid
 */
int rp_intersect_ray_spheres(const rp_ray *ray, const rp_sphere *spheres,
                             size_t count, rp_hit *out);

/*!
 * @brief point strictly inside the sphere: |p - c|^2 < r^2 (seed 002's
 *        Check_SphereHit, seed 003's pointInSphere). false on invalid input.
 */
bool rp_sphere_contains_point(const rp_sphere *s, const vec3 p);

/*!
 * @brief exact overlap test: |ca - cb|^2 <= (ra + rb)^2 (touching counts;
 *        seed 003's overlapSpheres). false on invalid input.
 */
bool rp_test_sphere_sphere(const rp_sphere *a, const rp_sphere *b);

/*!
 * @brief seed 002's shortcut without the mixed term: |ca - cb|^2 < ra^2 + rb^2.
 *
 * Since ra^2 + rb^2 <= (ra + rb)^2 this is STRICTER than the exact test: it
 * misses real collisions (two unit spheres 1.5 apart touch, but 2.25 > 2).
 * Scaling both radii by sqrt(2) makes it never miss one:
 * 2ra^2 + 2rb^2 >= (ra + rb)^2. false on invalid input.
 */
bool rp_test_sphere_sphere_approx(const rp_sphere *a, const rp_sphere *b);

#ifdef __cplusplus
}
#endif

#endif /* RAYPICK_SPHERE_H */

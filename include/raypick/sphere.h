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
 * @brief first intersection of a ray with a sphere. Replaces the German
 *        phaser/shield tutorial's Sphere_Ray_Intersections and the Chinese
 *        bounding-sphere picking tutorial's CheckIntersection.
 *
 * The tutorials take min(s1, s2) of the textbook roots
 * (-b +- sqrt(b^2 - 4ac)) / 2a in float. That answer is negative when the
 * sphere is behind the ray or the origin is inside it, and b^2 - 4ac loses
 * every digit for a small sphere far away (radius 0.01 at 1e5: b^2 and 4ac
 * are both ~4e10 and float keeps them to ~4e3). This version uses Ray
 * Tracing Gems ch. 7's discriminant through the closest point of the line,
 * the stable root pair q = -(b + sign(b) sqrt(disc)) / 2, t0 = c/q,
 * t1 = q/a, and double arithmetic inside, so such spheres are neither
 * missed nor misplaced and no intermediate overflows.
 *
 * @param[in]  ray the ray (any non-zero dir length; t is in units of dir)
 * @param[in]  s   the sphere (finite centre, finite radius > 0)
 * @param[out] out the hit; may be NULL. t = t_enter, or t_exit with
 *                 inside = true when the origin is inside (then
 *                 t_enter < 0); point = origin + t * dir; normal = unit,
 *                 outward, (point - centre) / radius
 * @returns true when the ray meets the sphere at some t >= 0, a tangent ray
 *          included (t_enter == t_exit). false, with *out untouched, for a
 *          miss, a sphere entirely behind the origin, invalid input (NULL,
 *          NaN or infinity anywhere, zero dir, radius <= 0), or a hit too far
 *          along a tiny dir to be represented in float (t or point overflow).
 */
RP_API bool rp_intersect_ray_sphere(const rp_ray *ray, const rp_sphere *s, rp_hit *out);

/*!
 * @brief yes/no version of rp_intersect_ray_sphere: always the same answer.
 *        The "is the object under the mouse" question of the Chinese
 *        bounding-sphere picking tutorial.
 *
 * @param[in] ray the ray
 * @param[in] s   the sphere
 * @returns rp_intersect_ray_sphere(ray, s, NULL)
 */
RP_API bool rp_test_ray_sphere(const rp_ray *ray, const rp_sphere *s);

/*!
 * @brief nearest sphere of an array that the ray hits: picking among many
 *        objects (the Chinese bounding-sphere picking tutorial's loop over
 *        every object's CheckIntersection).
 *
 * A float pre-pass rejects the spheres far from the ray's line or behind
 * its origin, eight spheres per step with AVX (picked at run time), four
 * with SSE2, one in plain C elsewhere; its tolerances are rounding-error
 * bounds, so it never drops a sphere that rp_intersect_ray_sphere would hit. The rest go through
 * rp_intersect_ray_sphere's exact path, so the result equals a loop over
 * rp_intersect_ray_sphere keeping the smallest hit t.
 *
 * @param[in]  ray     the ray
 * @param[in]  spheres array of count spheres; invalid ones (NaN, infinity,
 *                     radius <= 0) are skipped, never picked
 * @param[in]  count   number of spheres (0 gives -1)
 * @param[out] out     the hit on the picked sphere, as
 *                     rp_intersect_ray_sphere gives it; may be NULL
 * @returns index of the sphere with the smallest hit t (on equal t the lowest
 *          index), or -1 with *out untouched when nothing is hit, the ray is
 *          invalid, spheres is NULL, or the index would not fit an int
 */
RP_API int rp_intersect_ray_spheres(const rp_ray *ray, const rp_sphere *spheres,
                             size_t count, rp_hit *out);

/*!
 * @brief point strictly inside the sphere: |p - c|^2 < r^2. Replaces the
 *        German bounding-sphere test tutorial's Check_SphereHit and
 *        pointInSphere of the Android games book (Beginning Android 4
 *        Games Development, its bounding-sphere overlap test): the same
 *        test; a point on the surface is outside, as in both tutorials.
 *
 * @param[in] s the sphere
 * @param[in] p the point
 * The three bounding-sphere tests evaluate their formulas in double: the
 * squares of float coordinates cannot overflow there, and a sum of squared
 * floats is exact or within one rounding, so the boundary cases (<= vs <)
 * are decided as the formulas say.
 *
 * @returns true when p is strictly inside; false on the surface, outside,
 *          or on invalid input (NULL, NaN, infinity, radius <= 0)
 */
RP_API bool rp_sphere_contains_point(const rp_sphere *s, const vec3 p);

/*!
 * @brief exact overlap test: |ca - cb|^2 <= (ra + rb)^2, touching counts.
 *        Replaces the Android games book's overlapSpheres (and the full
 *        form of the German bounding-sphere test tutorial's condition,
 *        with the mixed term 2 ra rb).
 *
 * @param[in] a first sphere
 * @param[in] b second sphere
 * @returns true when the spheres overlap or touch (one inside the other
 *          included); false when apart or on invalid input
 */
RP_API bool rp_test_sphere_sphere(const rp_sphere *a, const rp_sphere *b);

/*!
 * @brief the German bounding-sphere test tutorial's shortcut,
 *        Sphere_Sphere_Collision without the mixed term:
 *        |ca - cb|^2 < ra^2 + rb^2.
 *
 * Since ra^2 + rb^2 < (ra + rb)^2 this is STRICTER than the exact test, not
 * looser: it misses real collisions. Two unit spheres 1.5 apart overlap
 * (1.5^2 = 2.25 <= 4) but 2.25 < 1 + 1 is false. Whenever this test is true,
 * rp_test_sphere_sphere is true too.
 *
 * Scaling both radii by sqrt(2) makes it never miss one, because
 * 2 ra^2 + 2 rb^2 >= (ra + rb)^2; with equal radii that is an equality,
 * and at exactly touching spheres the strict < then fails by a rounding
 * hair. rp_sphere_radius_for_approx scales by sqrt(2) rounded UP, which
 * makes the guarantee hold in float too.
 *
 * @param[in] a first sphere
 * @param[in] b second sphere
 * @returns the shortcut's answer; false on invalid input
 */
RP_API bool rp_test_sphere_sphere_approx(const rp_sphere *a, const rp_sphere *b);

/*!
 * @brief the radius to give rp_test_sphere_sphere_approx so that it never
 *        misses a collision: radius * sqrt(2), rounded up to the next float.
 *
 * For every valid pair a, b with rp_test_sphere_sphere(a, b) true, the pair
 * with radii replaced by this function's results passes
 * rp_test_sphere_sphere_approx. (It reports some pairs that do not touch:
 * that is the price of the shortcut.)
 *
 * @param[in] radius a radius > 0
 * @returns the scaled radius; 0 (an invalid radius, so the tests say false)
 *          when radius is <= 0, not finite, or too large to scale
 */
RP_API float rp_sphere_radius_for_approx(float radius);

#ifdef __cplusplus
}
#endif

#endif /* RAYPICK_SPHERE_H */

/*
 * raypick/box.h: axis-aligned and oriented boxes; bounding volumes of points.
 *
 *     rp_aabb box;
 *     rp_aabb_from_points(&verts[0].x, n, sizeof verts[0], &box);  // D3DXComputeBoundingBox
 *     if (rp_test_ray_aabb(&ray, &box))                             // D3DXBoxBoundProbe
 *         ...
 *
 * D3DX calls replaced:
 *   D3DXBoxBoundProbe          -> rp_test_ray_aabb (and rp_intersect_ray_aabb
 *                                 for where: D3DX only says yes or no)
 *   D3DXComputeBoundingBox     -> rp_aabb_from_points
 *   D3DXComputeBoundingSphere  -> rp_sphere_from_points (the smallest sphere;
 *                                 D3DX's centroid sphere is larger)
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

/*!
 * @brief first intersection of a ray with an axis-aligned box: the slab
 *        test, D3DXBoxBoundProbe with the where.
 *
 * The textbook slab test computes (min - o) / d per axis in float; with a
 * zero d component that is +-inf, and 0 * inf (the origin on a slab plane)
 * is NaN, which silently turns a hit into a miss. Here a zero component is
 * never divided by: that axis only asks whether the origin lies between
 * its two planes (on one counts). The rest runs in double, where the
 * differences of float inputs are exact and the divisions correctly
 * rounded, so a ray through an edge or a corner is decided as in exact
 * arithmetic: touching counts as a hit. The box is closed: a flat box
 * (min == max on an axis: a rectangle, a segment, a point) is hit too.
 *
 * @param[in]  ray the ray (any non-zero dir length; t is in units of dir)
 * @param[in]  box the box (finite, min <= max on every axis)
 * @param[out] out the hit; may be NULL. t_enter / t_exit = the slab
 *                 interval (t_enter < 0 when the origin is inside); t =
 *                 t_enter, or t_exit with inside = true when the origin is
 *                 inside; point = origin + t * dir, on the box (clamped to
 *                 its faces against rounding); normal = the outward unit
 *                 axis of the face at point (at an edge or corner, one of
 *                 the faces that meet there). An origin exactly on the
 *                 surface may report inside either way.
 * @returns true when the ray meets the box at some t >= 0 (touching an
 *          edge, corner or face included). false, with *out untouched, for
 *          a miss, a box entirely behind the origin, invalid input (NULL,
 *          NaN or infinity anywhere, zero dir, min > max on an axis), or a
 *          hit too far along a tiny dir to be represented in float.
 */
RP_API bool rp_intersect_ray_aabb(const rp_ray *ray, const rp_aabb *box, rp_hit *out);
/*!
 * @brief first intersection of a ray with an oriented box.
 *
 * The ray is taken into the box's frame (rotated by the inverse of the
 * orientation about the centre, in double) and meets the axis-aligned box
 * [-half_extents, half_extents] there; a rotation keeps t, so t, t_enter
 * and t_exit are in units of the world ray's dir. point and normal are
 * rotated back into the world. With an all-zero orientation the result is
 * rp_intersect_ray_aabb's on the box centre +- half_extents.
 *
 * @param[in]  ray the ray
 * @param[in]  box the box: finite centre, half_extents >= 0 (0 is a flat
 *                 box), finite orientation; all zeros = axis-aligned, any
 *                 other quaternion is normalised
 * @param[out] out the hit, as rp_intersect_ray_aabb's, in world space;
 *                 may be NULL
 * @returns true when the ray meets the box at some t >= 0 (touching
 *          included, up to the rounding of the rotation); false, with
 *          *out untouched, for a miss, a box behind the origin, invalid
 *          input (NULL, NaN or infinity anywhere, zero dir, a negative
 *          half extent), or a hit that does not fit a float.
 */
RP_API bool rp_intersect_ray_obb(const rp_ray *ray, const rp_obb *box, rp_hit *out);
/*!
 * @brief yes/no version of rp_intersect_ray_aabb: always the same answer.
 *        D3DXBoxBoundProbe (which takes the box's min and max, the ray's
 *        position and direction).
 *
 * @param[in] ray the ray
 * @param[in] box the box
 * @returns rp_intersect_ray_aabb(ray, box, NULL)
 */
RP_API bool rp_test_ray_aabb(const rp_ray *ray, const rp_aabb *box);

/*!
 * @brief the axis-aligned bounding box of points: D3DXComputeBoundingBox.
 *
 * Points are x, y, z floats at the start of each element, stride_bytes
 * apart, so a D3DVERTEX array {x, y, z, nx, ny, nz, tu, tv} works as is:
 * rp_aabb_from_points(&v[0].x, n, sizeof v[0], &box).
 *
 * @param[in]  xyz          the first point's x
 * @param[in]  count        number of points (>= 1)
 * @param[in]  stride_bytes bytes from one point to the next: 0 means 12
 *                          (packed); otherwise >= 12 and a multiple of 4
 * @param[out] out          exactly the min and max of the coordinates, no
 *                          padding (one point gives a flat box); may be NULL
 * @returns false, with *out untouched, for a NULL xyz, count 0, a bad
 *          stride, or a NaN or infinity in any point
 */
RP_API bool rp_aabb_from_points(const float *xyz, size_t count, size_t stride_bytes,
                                rp_aabb *out);
/*!
 * @brief the smallest sphere enclosing points: D3DXComputeBoundingSphere
 *        done minimal.
 *
 * D3DX centres its sphere on the centroid, which is larger than needed
 * (up to twice the radius for a lopsided cloud: one far vertex and many
 * near ones). This is Welzl's algorithm in Gärtner's move-the-centre form,
 * in double, over the points in a fixed pseudo-random order (expected time
 * linear in count, and the same result on every run); degenerate sets
 * (collinear, coplanar, cospherical, duplicates) are handled by never
 * building a sphere on affinely dependent support points. The double
 * centre is then rounded to float and the float radius grown until every
 * point has |p - c| <= r, evaluated in double. The radius is within 1e-4
 * relative of the minimal one, plus the centre's float rounding (half an
 * ulp of |c| per axis: only visible for a tiny cloud far from the origin).
 * Works on a temporary, reordered copy of the points in double (up to
 * 32 bytes per point while it is made).
 *
 * @param[in]  xyz          the first point's x (same layout as for
 *                          rp_aabb_from_points)
 * @param[in]  count        number of points (>= 1)
 * @param[in]  stride_bytes 0 (packed), or >= 12 and a multiple of 4
 * @param[out] out          the sphere; may be NULL. One point, or all
 *                          points equal, gives that point with radius 0
 *                          (true, though the ray functions refuse a
 *                          radius-0 sphere)
 * @returns false, with *out untouched, for a NULL xyz, count 0, a bad
 *          stride, a NaN or infinity in any point, points spread too far
 *          for a float radius, or out of memory
 */
RP_API bool rp_sphere_from_points(const float *xyz, size_t count, size_t stride_bytes,
                                  rp_sphere *out);

#ifdef __cplusplus
}
#endif

#endif /* RAYPICK_BOX_H */

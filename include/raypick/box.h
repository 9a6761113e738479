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
 *                                 D3DX's centroid sphere is larger), or
 *                                 rp_sphere_from_points_rule(...,
 *                                 RP_SPHERE_CENTROID, ...) to reproduce it
 * DirectXMath / XNA calls replaced (docs/porting-d3d11-xna.md):
 *   BoundingBox {Center, Extents}  <-> rp_aabb_from_center_extents,
 *                                      rp_aabb_to_center_extents
 *   BoundingSphere::CreateFromPoints -> rp_sphere_from_points_rule (RITTER)
 *   BoundingSphere.Transform         -> rp_sphere_transform
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

/* ---- DirectXMath's layouts and the originals' bounding-sphere rules --- */

/*!
 * @brief the box from a centre and half extents: DirectXMath's
 *        BoundingBox {Center, Extents} and xnacollision's AxisAlignedBox.
 *
 *     BoundingBox b(XMFLOAT3(1, 2, 3), XMFLOAT3(0.5f, 0.5f, 2));
 *     rp_aabb box;
 *     rp_aabb_from_center_extents((vec3){1, 2, 3}, (vec3){0.5f, 0.5f, 2}, &box);
 *
 * min = center - extents and max = center + extents, each computed in
 * double and rounded once to the nearest float. A zero extent gives a flat
 * box (valid, as for rp_intersect_ray_aabb).
 *
 * @param[in]  center  the box's centre (finite)
 * @param[in]  extents half the box's size on each axis (finite, >= 0)
 * @param[out] out     the box; may be NULL
 * @returns false, with *out untouched, for a NULL center or extents, a NaN
 *          or infinity, a negative extent, or a corner beyond float's range
 */
RP_API bool rp_aabb_from_center_extents(const vec3 center, const vec3 extents, rp_aabb *out);
/*!
 * @brief centre and half extents of a box: back to DirectXMath's layout
 *        (BoundingBox::CreateFromPoints(out, min, max) does the same).
 *
 * center = (min + max) / 2 and extents = (max - min) / 2, each computed in
 * double and rounded once to the nearest float (no overflow, whatever the
 * box). A round trip through rp_aabb_from_center_extents gives the box
 * back exactly when the centre and extents are exact floats (integers and
 * halves, for example), otherwise within one float ulp of
 * max(|center|, |extents|) on each face.
 *
 * @param[in]  box     the box (finite, min <= max on every axis)
 * @param[out] center  the centre; may be NULL
 * @param[out] extents the half extents (>= 0); may be NULL
 * @returns false, with center and extents untouched, for a NULL box, a NaN
 *          or infinity, or min > max on an axis
 */
RP_API bool rp_aabb_to_center_extents(const rp_aabb *box, vec3 center, vec3 extents);

/* Which bounding sphere rp_sphere_from_points_rule computes: raypick's
   smallest one, or the rule of the library a port is compared against. */
typedef enum rp_sphere_rule {
    RP_SPHERE_SMALLEST = 0,      /* rp_sphere_from_points: the minimal sphere */
    RP_SPHERE_CENTROID = 1,      /* D3DXComputeBoundingSphere: centre = the
                                    average point, radius = the farthest point */
    RP_SPHERE_RITTER = 2,        /* DirectXMath BoundingSphere::CreateFromPoints,
                                    xnacollision ComputeBoundingSphereFromPoints */
    RP_SPHERE_RITTER_MONOGAME = 3 /* MonoGame's BoundingSphere.CreateFromPoints
                                    (XNA 4.0's API; ties start from x) */
} rp_sphere_rule;

/*!
 * @brief a bounding sphere of points by a named rule: the original's
 *        sphere, for ports that must reproduce its answers.
 *
 * RP_SPHERE_CENTROID: centre = the mean of the points, radius = the
 * largest distance from that (float) centre.
 *
 * RP_SPHERE_RITTER (Jack Ritter's two passes, as DirectXMath and
 * xnacollision run them): the first point with the smallest and the
 * largest x, y and z (strict comparisons, in order); of the three pairs
 * the one farthest apart (x if it beats both y and z, else z; otherwise y
 * if it beats z, else z) gives the first sphere: its midpoint and half
 * its distance. Then each point in order farther than r from the centre
 * grows the sphere to reach it: r' = (r + d) / 2, and the centre moves
 * toward the point by d - r'.
 *
 * RP_SPHERE_RITTER_MONOGAME: the same passes; only the first pair differs
 * on ties of squared distances (x unless y or z is strictly the largest),
 * so a cube's corners give another sphere than RP_SPHERE_RITTER.
 *
 * Both Ritter rules and the centroid rule give a larger sphere than
 * RP_SPHERE_SMALLEST. They run in double and round the centre and radius
 * to the nearest float once, so they can differ from the originals'
 * float arithmetic by a few ulps (and a point the original finds exactly
 * on the sphere may be found outside here, or inside: see
 * docs/porting-d3d11-xna.md, "Reproducing the original exactly"). Every
 * point lies within r (1 + 1e-6) of the centre, plus the rounding of the
 * centre to float (half an ulp of each coordinate), as in the originals.
 *
 * @param[in]  xyz          the first point's x (the layout of
 *                          rp_aabb_from_points: stride 0 = packed, or >= 12
 *                          and a multiple of 4)
 * @param[in]  count        number of points (>= 1)
 * @param[in]  stride_bytes bytes from one point to the next
 * @param[in]  rule         the rule
 * @param[out] out          the sphere; may be NULL. One point gives radius 0
 * @returns false, with *out untouched, for a NULL xyz, count 0, a bad
 *          stride, a NaN or infinity in a point, an unknown rule, a sphere
 *          beyond float's range, or out of memory (RP_SPHERE_SMALLEST)
 */
RP_API bool rp_sphere_from_points_rule(const float *xyz, size_t count, size_t stride_bytes,
                                       rp_sphere_rule rule, rp_sphere *out);

/*!
 * @brief a bounding sphere carried by an affine matrix: XNA's
 *        BoundingSphere.Transform, DirectXMath's BoundingSphere::Transform
 *        (the XNA picking sample's mesh sphere times its bone and world
 *        matrices).
 *
 * centre = m * (center, 1); radius = radius times the largest factor by
 * which m's linear part stretches any direction (its largest singular
 * value), computed in double and rounded up, so the result encloses the
 * image of the sphere. XNA and DirectXMath scale the radius by the longest
 * of the three axis images instead (the length of m[0], m[1] or m[2]):
 * the same for rotations with any (even non-uniform) scale, but smaller
 * than the image under a shear, which then pokes out of their sphere.
 * cglm's glm_sphere_transform keeps the radius unscaled.
 *
 * @param[in]  s   the sphere (finite centre, finite radius >= 0)
 * @param[in]  m   an affine matrix (finite; bottom row 0 0 0 1, i.e.
 *                 m[0][3] = m[1][3] = m[2][3] = 0, m[3][3] = 1)
 * @param[out] out the sphere; may be NULL (may be s itself)
 * @returns false, with *out untouched, for NULL s, a NaN or infinity, a
 *          negative radius, a projective m, or a result beyond float's range
 */
RP_API bool rp_sphere_transform(const rp_sphere *s, mat4 m, rp_sphere *out);

#ifdef __cplusplus
}
#endif

#endif /* RAYPICK_BOX_H */

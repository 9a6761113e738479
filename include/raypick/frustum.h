/*
 * raypick/frustum.h: the frustum of a camera, or of a rectangle dragged on
 * the screen (marquee selection), and which shapes it meets or holds.
 *
 *     rp_frustum f;   // the mouse went down at (x0, y0) and is now at (x1, y1)
 *     if (rp_frustum_from_rect(x0, y0, x1, y1, &vp, proj, view, RP_GL, &f))
 *         for (int i = 0; i < n; i++)
 *             unit[i].selected = rp_test_frustum_sphere_exact(&f, &unit[i].bounds);
 *     // false: an empty rectangle (a click) selects nothing
 *
 * Three kinds of test, named by what they promise:
 *   rp_test_frustum_X_conservative  the shape against each of the six
 *       planes alone (three.js Frustum.intersectsBox/Sphere; the usual
 *       culling test): never false for a shape that meets the frustum, but
 *       true for some shapes just outside an edge or corner of it.
 *   rp_test_frustum_X_exact  true exactly when the shape and the frustum
 *       share a point (touching counts): the separating-axis theorem for
 *       boxes and triangles, the distance to the frustum for spheres and
 *       ellipsoids (DirectXMath's BoundingFrustum::Intersects).
 *   rp_frustum_contains_X  true when the whole shape lies inside (for a
 *       convex shape the six planes decide this exactly): the "fully
 *       inside" selection mode (DirectXMath's ContainmentType CONTAINS).
 * Always contains => exact => conservative, for every input.
 *
 * DirectXMath / three.js calls replaced:
 *   BoundingFrustum::CreateFromMatrix  -> rp_frustum_from_camera
 *   three.js SelectionBox.select       -> rp_frustum_from_rect + the tests
 *   BoundingFrustum::Intersects        -> rp_test_frustum_*_exact
 *   BoundingFrustum::Contains          -> rp_frustum_contains_* (CONTAINS),
 *                                         rp_test_frustum_*_exact (INTERSECTS)
 *   three.js Frustum.intersectsSphere  -> rp_test_frustum_sphere_conservative
 *   three.js Frustum.containsPoint     -> rp_frustum_contains_point
 */
#ifndef RAYPICK_FRUSTUM_H
#define RAYPICK_FRUSTUM_H

#include <stddef.h>
#include "ray.h"
#include "pick.h"
#include "plane.h"
#include "sphere.h"
#include "ellipsoid.h"
#include "box.h"
#include "mesh.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Which plane is which in rp_frustum.planes. */
enum {
    RP_FRUSTUM_LEFT = 0,
    RP_FRUSTUM_RIGHT,
    RP_FRUSTUM_BOTTOM,
    RP_FRUSTUM_TOP,
    RP_FRUSTUM_NEAR,
    RP_FRUSTUM_FAR
};

/* A convex volume bounded by six planes: inside is where every plane's
   signed distance is >= 0 (the normals point inwards, as three.js's
   Frustum), normals unit length. corners[i] is the corner on the right
   (i & 1), top (i & 2) and far (i & 4) planes, or on the left, bottom and
   near ones where the bit is clear: corners[0] = left bottom near,
   corners[7] = right top far. The planes decide inside and outside; the
   corners serve the exact tests. Made by rp_frustum_from_*; a frustum
   made by hand must be a hexahedron whose planes and corners agree.
   Both are rounded to float, so they agree to about 1e-7 of the corners'
   largest coordinate: a shape that close to a face may meet the frustum
   by the planes (spheres, segments) and miss it by the corners (boxes,
   triangles), however near the origin the shape itself is. */
typedef struct rp_frustum {
    rp_plane planes[6];
    vec3     corners[8];
} rp_frustum;

/*!
 * @brief the frustum under a screen rectangle: the camera's frustum cut
 *        down to the pixels between (x0, y0) and (x1, y1), from the near
 *        plane to the far plane. Marquee selection.
 *
 * The corners may come in any order (the rectangle is their bounding box).
 * It is clipped to the viewport first: a rectangle dragged past the
 * window's edge selects up to the edge. The planes come from the rows of
 * proj * view (Gribb and Hartmann's extraction, for the sub-rectangle in
 * normalised device coordinates, in double), the corners from unprojecting
 * the rectangle at depth 0 and 1; so any invertible projection works:
 * perspective or orthographic, off-centre, left- or right-handed, with the
 * depth range conv names (as rp_pick_ray_unproject). A rectangle narrower
 * than single precision resolves where its frustum lies (a thousandth of a
 * pixel, a hundred units from the origin) may get two side planes that
 * rounding crosses inside it: it then selects nothing there.
 *
 * @param[in]  x0, y0 one corner (pixels, y down, as the pick functions)
 * @param[in]  x1, y1 the opposite corner
 * @param[in]  vp     the viewport
 * @param[in]  proj   projection matrix, any invertible one with w > 0 in
 *                    front of the camera (every GL and D3D projection)
 * @param[in]  view   view matrix
 * @param[in]  conv   RP_GL or RP_D3D: the clip depth range of proj
 * @param[out] out    the frustum; may be NULL
 * @returns false, with *out untouched, when the rectangle selects nothing
 *          (zero width or height, or nothing left after clipping to the
 *          viewport) and for invalid input: NULL, NaN or infinity, a
 *          viewport of zero size, an unknown conv, a singular proj * view,
 *          a projection with w < 0 in front of the camera (GL and D3D draw
 *          nothing with it), a far plane at infinity (an infinite
 *          projection: the frustum has no far corners), corners beyond
 *          float range.
 */
RP_API bool rp_frustum_from_rect(float x0, float y0, float x1, float y1, const rp_viewport *vp,
                                 mat4 proj, mat4 view, rp_convention conv, rp_frustum *out);

/*!
 * @brief the camera's whole frustum: BoundingFrustum::CreateFromMatrix
 *        (there of the projection alone, in view space; here of proj *
 *        view, in the world). The same as rp_frustum_from_rect over the
 *        whole viewport.
 *
 * @param[in]  proj, view, conv as for rp_frustum_from_rect
 * @param[out] out              the frustum; may be NULL
 * @returns false, with *out untouched, for what rp_frustum_from_rect refuses
 */
RP_API bool rp_frustum_from_camera(mat4 proj, mat4 view, rp_convention conv, rp_frustum *out);

/*!
 * @brief is the point inside the frustum (on a plane counts)?
 *        three.js Frustum.containsPoint: what its SelectionBox asks of each
 *        object's centre.
 * @returns false for an invalid frustum (NaN or infinity, a normal not of
 *          unit length within 1e-3) or a non-finite point
 */
RP_API bool rp_frustum_contains_point(const rp_frustum *f, const vec3 p);

/*!
 * @brief sphere vs frustum, plane by plane: true unless the sphere lies
 *        entirely outside one plane (centre more than a radius behind it).
 *        Conservative: a sphere near an edge or corner of the frustum,
 *        outside it but not wholly outside any one plane, gives true.
 * @returns false also for invalid input: an invalid frustum, a NULL
 *          sphere, NaN or infinity, a radius <= 0
 */
RP_API bool rp_test_frustum_sphere_conservative(const rp_frustum *f, const rp_sphere *s);
/*!
 * @brief sphere vs frustum, exact: true when the distance from the centre
 *        to the frustum (zero inside) is <= the radius, in double (the
 *        nearest face, edge or corner decides).
 * @returns false also for what the conservative test refuses
 */
RP_API bool rp_test_frustum_sphere_exact(const rp_frustum *f, const rp_sphere *s);
/*!
 * @brief is the whole sphere inside: the centre at least a radius inside
 *        every plane? Exact (a ball is inside a convex volume exactly when
 *        it is inside each of its half-spaces).
 * @returns false also for what the conservative test refuses
 */
RP_API bool rp_frustum_contains_sphere(const rp_frustum *f, const rp_sphere *s);

/*!
 * @brief ellipsoid vs frustum, plane by plane (the ellipsoid's extent
 *        along each normal, from its radii and rotation). Conservative as
 *        rp_test_frustum_sphere_conservative.
 * @returns false also for invalid input: an invalid frustum, what
 *          rp_intersect_ray_ellipsoid refuses in the ellipsoid (radius <= 0,
 *          NaN, a non-zero orientation of length not 1 within 1e-3)
 */
RP_API bool rp_test_frustum_ellipsoid_conservative(const rp_frustum *f, const rp_ellipsoid *e);
/*!
 * @brief ellipsoid vs frustum, exact: the frustum is taken into the space
 *        where the ellipsoid is the unit sphere (an affine map keeps
 *        planes, corners and meeting), then as for spheres.
 */
RP_API bool rp_test_frustum_ellipsoid_exact(const rp_frustum *f, const rp_ellipsoid *e);
/*! @brief is the whole ellipsoid inside? Exact, plane by plane. */
RP_API bool rp_frustum_contains_ellipsoid(const rp_frustum *f, const rp_ellipsoid *e);

/*!
 * @brief axis-aligned box vs frustum, plane by plane (the box's
 *        projected radius on each normal: the "p-vertex" test).
 *        Conservative as rp_test_frustum_sphere_conservative.
 * @returns false also for invalid input: an invalid frustum, NaN or
 *          infinity, min > max on an axis (a flat box is valid)
 */
RP_API bool rp_test_frustum_aabb_conservative(const rp_frustum *f, const rp_aabb *box);
/*!
 * @brief axis-aligned box vs frustum, exact: the separating-axis theorem
 *        over the frustum's and the box's face normals and the cross
 *        products of their edges, in double.
 */
RP_API bool rp_test_frustum_aabb_exact(const rp_frustum *f, const rp_aabb *box);
/*! @brief is the whole box inside? Exact (all eight corners inside). */
RP_API bool rp_frustum_contains_aabb(const rp_frustum *f, const rp_aabb *box);

/*!
 * @brief oriented box vs frustum, plane by plane. Conservative.
 * @returns false also for invalid input: an invalid frustum, NaN or
 *          infinity, a negative half extent (orientation as
 *          rp_intersect_ray_obb's: all zeros axis-aligned, any other
 *          quaternion normalised)
 */
RP_API bool rp_test_frustum_obb_conservative(const rp_frustum *f, const rp_obb *box);
/*! @brief oriented box vs frustum, exact (separating axes, as for the AABB). */
RP_API bool rp_test_frustum_obb_exact(const rp_frustum *f, const rp_obb *box);
/*! @brief is the whole oriented box inside? Exact. */
RP_API bool rp_frustum_contains_obb(const rp_frustum *f, const rp_obb *box);

/*!
 * @brief a mesh placed by an affine model matrix vs frustum, by its
 *        bounds: the box of rp_mesh_bounds carried by model (a
 *        parallelepiped) meets the frustum, exactly (separating axes).
 *        Conservative for the mesh: its triangles may all miss the frustum
 *        while their bounds meet it. Exact: rp_test_frustum_mesh_instance_exact.
 * @returns false also for invalid input: an invalid frustum, a NULL mesh,
 *          a NULL, non-finite or non-affine model (bottom row not 0 0 0 1)
 */
RP_API bool rp_test_frustum_mesh_instance_conservative(const rp_frustum *f, const rp_mesh *m,
                                                       mat4 model);
/*!
 * @brief is the whole mesh instance inside? Conservative the other way:
 *        true when its bounds under model are inside (then so is every
 *        triangle); false for a mesh inside whose bounds are not.
 */
RP_API bool rp_frustum_contains_mesh_instance_conservative(const rp_frustum *f,
                                                           const rp_mesh *m, mat4 model);

/*!
 * @brief a mesh placed by an affine model matrix vs frustum, exact: does
 *        any of its triangles meet it? Walks the mesh's BVH, skipping the
 *        boxes wholly outside a plane and answering at the first box
 *        wholly inside (or the first triangle that meets it).
 *
 * The answer is the loop over every triangle that can be hit (the
 * zero-area ones are left out, as by every ray function and by the GPU)
 * of rp_test_frustum_triangle on its world vertices, each vertex
 * computed as model * v in double and rounded to float: the same bits as
 * that loop. A mesh whose triangles all have zero area meets nothing.
 *
 * @returns false also for invalid input: an invalid frustum, a NULL mesh,
 *          a NULL, non-finite or non-affine model (bottom row not 0 0 0 1;
 *          a singular one is fine: the mesh flattened)
 */
RP_API bool rp_test_frustum_mesh_instance_exact(const rp_frustum *f, const rp_mesh *m,
                                                mat4 model);
/*!
 * @brief is the whole mesh instance inside, exactly: every vertex of
 *        every triangle that can be hit (world vertices as for
 *        rp_test_frustum_mesh_instance_exact) inside the frustum
 *        (rp_frustum_contains_point)? Through the mesh's BVH: the first
 *        box wholly outside a plane answers false.
 * @returns false also for a mesh with no triangle of non-zero area, and
 *          for what rp_test_frustum_mesh_instance_exact refuses
 */
RP_API bool rp_frustum_contains_mesh_instance(const rp_frustum *f, const rp_mesh *m,
                                              mat4 model);

/*!
 * @brief triangle vs frustum, exact (separating axes: the triangle's
 *        normal, the frustum's face normals, the cross products of their
 *        edges). Either winding; a degenerate triangle is tested as the
 *        segment or point it is.
 * @returns false also for an invalid frustum or a NULL or non-finite vertex
 */
RP_API bool rp_test_frustum_triangle(const rp_frustum *f, const vec3 v0, const vec3 v1,
                                     const vec3 v2);

/*!
 * @brief segment vs frustum, exact: the segment clipped by the six planes
 *        (Cyrus-Beck, in double) keeps a point. a == b is a point.
 * @returns false also for an invalid frustum or a NULL or non-finite end
 */
RP_API bool rp_test_frustum_segment(const rp_frustum *f, const vec3 a, const vec3 b);

/*!
 * @brief polyline vs frustum, exact: does any of its segments (point i to
 *        point i + 1) meet the frustum? One point is tested as a point.
 *
 * @param[in] f            the frustum
 * @param[in] xyz          the first point's x; points as for
 *                         rp_aabb_from_points (x, y, z floats at the start
 *                         of each element)
 * @param[in] count        number of points (>= 1)
 * @param[in] stride_bytes 0 (packed) or >= 12 and a multiple of 4
 * @param[out] out_segment the first segment that meets it (index of its
 *                         first point); may be NULL
 * @returns false, with *out_segment untouched, when none meets it and for
 *          invalid input (an invalid frustum, NULL xyz, count 0, a bad
 *          stride, a NaN or infinity in any point)
 */
RP_API bool rp_test_frustum_polyline(const rp_frustum *f, const float *xyz, size_t count,
                                     size_t stride_bytes, size_t *out_segment);
/*! @brief is the whole polyline inside (every point: the frustum is convex)? */
RP_API bool rp_frustum_contains_polyline(const rp_frustum *f, const float *xyz, size_t count,
                                         size_t stride_bytes);

#ifdef __cplusplus
}
#endif

#endif /* RAYPICK_FRUSTUM_H */

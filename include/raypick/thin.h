/*
 * raypick/thin.h: picking things without area (points, segments,
 * polylines: paths, wires, markers) within a tolerance, as three.js's
 * Raycaster does with params.Points.threshold and params.Line.threshold.
 *
 *     rp_thin_tolerance tol;                       // 6 pixels at any depth
 *     rp_thin_tolerance_pixels(6, mx, my, &vp, proj, view, RP_GL, &ray, &tol);
 *     rp_thin_hit hit;
 *     if (rp_intersect_ray_polyline(&ray, &path[0].x, n, sizeof path[0], &tol, &hit))
 *         highlight_segment(hit.index);            // hit.point is on the path
 *
 * A ray and a thin thing almost never meet exactly; what counts is their
 * closest approach: the point on the ray (at t >= 0) and the point on the
 * thing nearest to each other. It is a hit when their distance is within
 * the tolerance at that t. The tolerance is a radius around the ray that
 * may grow along it: fixed world units (three.js's thresholds), or pixels,
 * which cover more world the farther they look.
 *
 * Ready for scenes: each function takes plain data and reports the ray's
 * t, so a scene can hold thin things beside solid ones (the bounds of a
 * segment widened by the tolerance) and keep the nearest t.
 */
#ifndef RAYPICK_THIN_H
#define RAYPICK_THIN_H

#include <stddef.h>
#include <stdint.h>
#include "ray.h"
#include "pick.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How near counts as a hit: within radius(t) = world + per_t * t of the
   ray's point at t (t in units of the ray's dir). A fixed tolerance in
   world units (three.js's Line.threshold) is {w, 0}; one in pixels comes
   from rp_thin_tolerance_pixels. Both >= 0 and finite. */
typedef struct rp_thin_tolerance {
    float world;
    float per_t;
} rp_thin_tolerance;

/* Where a ray passes closest to a thin thing. */
typedef struct rp_thin_hit {
    float    t;          /* the ray's point of closest approach: origin + t dir, t >= 0 */
    float    distance;   /* from that point to the thing, in world units */
    float    s;          /* where on the segment: point = a + s (b - a), s in [0, 1];
                            0 for a point */
    uint32_t index;      /* polyline: the segment from point index to index + 1;
                            0 for a lone point or segment */
    vec3     ray_point;  /* origin + t dir */
    vec3     point;      /* the nearest point of the thing */
} rp_thin_hit;

/*!
 * @brief a tolerance of a number of pixels around the cursor, at every
 *        depth: the world size of a pixel grows linearly along a
 *        perspective pick ray (it is constant for an orthographic one), so
 *        pixels become world + per_t * t for this ray.
 *
 * The pixel's world size is measured at the near and the far plane under
 * (x, y) (the larger of its width and height there, by unprojecting the
 * neighbouring pixels, in double) and carried along the ray. A hit is
 * then within about `pixels` pixels of the cursor on screen, at the depth
 * of the hit (exactly so along the view axis; off-axis the world distance
 * across the ray is a little shorter than on screen).
 *
 * @param[in]  pixels the tolerance in pixels (finite, >= 0)
 * @param[in]  x, y   the cursor (pixels, y down), as given to the pick function
 * @param[in]  vp, proj, view, conv the camera, as for rp_pick_ray_unproject
 * @param[in]  ray    the pick ray under (x, y) (from rp_pick_ray_unproject
 *                    or rp_pick_ray_perspective: any origin and length of dir)
 * @param[out] out    the tolerance; may be NULL
 * @returns false, with *out untouched, for invalid input (NaN or infinity,
 *          pixels < 0, anything rp_pick_ray_unproject refuses) and for a
 *          ray that is not the pick ray under (x, y): off the cursor's line
 *          by more than a pixel, or pointing back towards the camera
 */
RP_API bool rp_thin_tolerance_pixels(float pixels, float x, float y, const rp_viewport *vp,
                                     mat4 proj, mat4 view, rp_convention conv,
                                     const rp_ray *ray, rp_thin_tolerance *out);

/*!
 * @brief closest approach of a ray to a point: three.js's Points picking
 *        (Raycaster.params.Points.threshold).
 *
 * t = max(0, (p - origin) . dir / dir . dir), in double.
 *
 * @param[in]  ray the ray (any non-zero dir length; t is in units of dir)
 * @param[in]  p   the point
 * @param[in]  tol the tolerance; NULL: none (the closest approach is
 *                 always reported)
 * @param[out] out the closest approach (s = 0, index = 0); may be NULL
 * @returns true when distance <= radius(t); false, with *out untouched,
 *          when it is farther, and for invalid input (NULL ray or point,
 *          NaN or infinity anywhere, zero dir, a negative tolerance)
 */
RP_API bool rp_intersect_ray_point(const rp_ray *ray, const vec3 p, const rp_thin_tolerance *tol,
                                   rp_thin_hit *out);

/*!
 * @brief closest approach of a ray to a segment: three.js's Line picking
 *        (Raycaster.params.Line.threshold) for one segment.
 *
 * The nearest pair of points of the ray (t >= 0) and the segment
 * (s in [0, 1]) in double (Ericson, Real-Time Collision Detection 5.1.9,
 * with the ray's t unbounded above): the stationary point when it lies in
 * that range, else the best of the range's edges. When several pairs are
 * equally near (the ray parallel to the segment), the one with the
 * smallest t. a == b is a point (s = 0).
 *
 * @param[in]  ray  the ray
 * @param[in]  a, b the segment's ends
 * @param[in]  tol  the tolerance; NULL: none
 * @param[out] out  the closest approach (index = 0); may be NULL
 * @returns true when distance <= radius(t); false, with *out untouched,
 *          when farther, and for invalid input (as rp_intersect_ray_point)
 */
RP_API bool rp_intersect_ray_segment(const rp_ray *ray, const vec3 a, const vec3 b,
                                     const rp_thin_tolerance *tol, rp_thin_hit *out);

/*!
 * @brief closest approach of a ray to a polyline (segments from point i to
 *        point i + 1): a path, a wire, a line strip.
 *
 * Each segment is met as by rp_intersect_ray_segment; the one reported is
 * the nearest measured in the tolerance's own unit, distance / radius(t)
 * (world distance for a world tolerance, about pixels on screen for a
 * pixel one), among those within the tolerance; the nearest in world
 * distance with tol NULL. Ties go to the lowest index. One point is a
 * point.
 *
 * @param[in]  ray          the ray
 * @param[in]  xyz          the first point's x; points as for
 *                          rp_aabb_from_points (x, y, z at the start of
 *                          each element, stride_bytes apart)
 * @param[in]  count        number of points (>= 1)
 * @param[in]  stride_bytes 0 (packed) or >= 12 and a multiple of 4
 * @param[in]  tol          the tolerance; NULL: none
 * @param[out] out          the closest approach, index = the segment; may be NULL
 * @returns true when some segment is within the tolerance; false, with
 *          *out untouched, when none is, and for invalid input (as
 *          rp_intersect_ray_point, and NULL xyz, count 0, a bad stride, a
 *          NaN or infinity in any point, 2^32 points or more)
 */
RP_API bool rp_intersect_ray_polyline(const rp_ray *ray, const float *xyz, size_t count,
                                      size_t stride_bytes, const rp_thin_tolerance *tol,
                                      rp_thin_hit *out);

#ifdef __cplusplus
}
#endif

#endif /* RAYPICK_THIN_H */

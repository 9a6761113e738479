/*
 * raypick/plane.h: planes, ray vs plane, and dragging an object on a plane
 * so that the grabbed point stays under the cursor.
 *
 *     rp_plane ground;
 *     rp_plane_from_point_normal((vec3){0, 0, 0}, (vec3){0, 1, 0}, &ground);
 *     vec3 p;
 *     if (rp_pick_point_on_plane(mx, my, &vp, proj, view, RP_GL, &ground, p))
 *         place_marker(p);
 *
 * D3DX / DirectXMath calls replaced:
 *   D3DXPlaneFromPointNormal   -> rp_plane_from_point_normal
 *   D3DXPlaneFromPoints        -> rp_plane_from_points
 *   D3DXPlaneDotCoord          -> rp_plane_signed_distance (divided by |normal|)
 *   D3DXPlaneIntersectLine     -> rp_intersect_ray_plane (a ray, not a line:
 *                                 t >= 0 only, and t comes back too)
 *   XMPlaneIntersectLine       -> the same
 *
 * Dragging, the WM_MOUSEMOVE way (docs/porting-apps.md has the SDL2
 * version). On WM_LBUTTONDOWN: pick the object (any rp_intersect_ray_*),
 * then rp_drag_begin with the hit point, the drag plane's normal and the
 * object's position, and SetCapture. On each WM_MOUSEMOVE while the
 * button is down: rp_drag_update with the cursor gives the object's new
 * position; on false (the cursor is above the horizon of the plane) keep
 * the old one. On WM_LBUTTONUP: ReleaseCapture and stop.
 *
 *     case WM_LBUTTONDOWN:                   // hit: from the pick
 *         rp_drag_begin(hit.point, (vec3){0, 1, 0}, unit->pos, &drag);
 *         SetCapture(hwnd);
 *         break;
 *     case WM_MOUSEMOVE:
 *         if (GetCapture() == hwnd)
 *             rp_drag_update(&drag, x + 0.5f, y + 0.5f, &vp, proj, view, RP_D3D, unit->pos);
 *         break;
 */
#ifndef RAYPICK_PLANE_H
#define RAYPICK_PLANE_H

#include "ray.h"
#include "pick.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The points p with dot(normal, p) + d == 0 (D3DXPLANE's a, b, c, d;
   three.js Plane's normal and constant). normal is finite and non-zero;
   it need not be unit length (every distance here is divided by its
   length). Its side is the front: signed distances are positive there. */
typedef struct rp_plane {
    vec3  normal;
    float d;
} rp_plane;

/*!
 * @brief the plane through a point with a given normal:
 *        D3DXPlaneFromPointNormal, with the normal made unit length.
 *
 * @param[in]  point  a point on the plane (finite)
 * @param[in]  normal the front side's direction (finite, non-zero, any length)
 * @param[out] out    the plane, unit normal; may be NULL
 * @returns false, with *out untouched, for NULL, NaN or infinity, a zero
 *          normal, or a d beyond float range
 */
RP_API bool rp_plane_from_point_normal(const vec3 point, const vec3 normal, rp_plane *out);

/*!
 * @brief the plane through three points: D3DXPlaneFromPoints. The front
 *        is the side from which a, b, c run counter-clockwise (normal
 *        (b - a) x (c - a), made unit length), as for rp_intersect_ray_triangle.
 *
 * @param[in]  a, b, c three points (finite)
 * @param[out] out     the plane; may be NULL
 * @returns false, with *out untouched, for NULL, NaN or infinity, or
 *          points on one line (no plane), in double
 */
RP_API bool rp_plane_from_points(const vec3 a, const vec3 b, const vec3 c, rp_plane *out);

/*!
 * @brief signed distance of a point from a plane: (dot(normal, p) + d) /
 *        |normal|, positive on the front side. D3DXPlaneDotCoord for a
 *        normalised plane.
 *
 * @param[in]  plane the plane
 * @param[in]  p     the point
 * @param[out] out   the distance, in world units; may be NULL
 * @returns false, with *out untouched, for an invalid plane (NaN or
 *          infinity, zero normal), a non-finite point, or a distance
 *          beyond float range
 */
RP_API bool rp_plane_signed_distance(const rp_plane *plane, const vec3 p, float *out);

/*!
 * @brief where a ray meets a plane (both sides): D3DXPlaneIntersectLine for
 *        a ray.
 *
 * t = -(dot(n, origin) + d) / dot(n, dir), in double. A plane is an open
 * surface, so the hit is reported as for a triangle: t = t_enter = t_exit;
 * normal = the plane's unit normal turned to face the side the ray came
 * from; inside = the ray came from the back side (it travels along the
 * normal). An origin on the plane gives t = 0, whichever way dir points.
 *
 * @param[in]  ray   the ray (any non-zero dir length; t is in units of dir)
 * @param[in]  plane the plane
 * @param[out] out   the hit; may be NULL. point = origin + t dir
 * @returns true for a hit at t >= 0. false, with *out untouched, for: a
 *          plane behind the origin; a ray parallel to the plane, lying in
 *          it included (dot(n, dir) == 0 in double: no single point);
 *          invalid input (NULL, NaN or infinity anywhere, zero dir, zero
 *          normal); a hit too far along a nearly parallel ray for float.
 */
RP_API bool rp_intersect_ray_plane(const rp_ray *ray, const rp_plane *plane, rp_hit *out);

/*!
 * @brief the point of a plane under a pixel: the pick ray of
 *        rp_pick_ray_unproject (any projection, both conventions) met with
 *        the plane. "Where on the ground did I click?"
 *
 * @param[in]  x, y  pixel position (y down), as for rp_pick_ray_unproject
 * @param[in]  vp    the viewport
 * @param[in]  proj  projection matrix, any invertible one
 * @param[in]  view  view matrix
 * @param[in]  conv  RP_GL or RP_D3D: the clip depth range of proj
 * @param[in]  plane the plane
 * @param[out] out   the point on the plane; may be NULL
 * @returns false, with out untouched, for everything
 *          rp_pick_ray_unproject refuses, an invalid plane, a plane the
 *          pixel's ray does not reach in front of the near plane (the
 *          cursor above the horizon of a ground plane, or a plane seen
 *          edge-on)
 */
RP_API bool rp_pick_point_on_plane(float x, float y, const rp_viewport *vp, mat4 proj,
                                   mat4 view, rp_convention conv, const rp_plane *plane,
                                   vec3 out);

/* A drag in progress: the plane the grabbed point moves on and where the
   object sits relative to that point. Filled by rp_drag_begin; plain
   data (copy it, keep it in the object, no destroy). */
typedef struct rp_drag {
    rp_plane plane;   /* through the grabbed point, unit normal */
    vec3     offset;  /* object position - grabbed point */
} rp_drag;

/*!
 * @brief starts a drag: the grabbed point moves on the plane through it
 *        with the given normal, and the object keeps its offset from it.
 *
 * Typical normals: the ground's up (0, 1, 0) to move units over flat
 * ground; the camera's forward to move in the screen's plane (for a cglm
 * view matrix, {view[0][2], view[1][2], view[2][2]}; the sign does not
 * matter). Avoid a plane seen edge-on: its points do not follow the cursor.
 *
 * @param[in]  grab_point      the point of the object under the cursor
 *                             (e.g. the rp_hit point of the pick that
 *                             started the drag)
 * @param[in]  plane_normal    the drag plane's normal (non-zero, any length)
 * @param[in]  object_position the object's position when grabbed
 * @param[out] out             the drag state; may be NULL
 * @returns false, with *out untouched, for NULL, NaN or infinity, a zero
 *          normal, or an offset beyond float range
 */
RP_API bool rp_drag_begin(const vec3 grab_point, const vec3 plane_normal,
                          const vec3 object_position, rp_drag *out);

/*!
 * @brief the object's position for a cursor position during a drag: the
 *        point of the drag plane under the pixel (rp_pick_point_on_plane)
 *        plus the offset, so the grabbed point stays under the cursor.
 *
 * @param[in]  drag          the state rp_drag_begin made
 * @param[in]  x, y          the cursor (pixels, y down; + 0.5 for an
 *                           integer mouse position, as for the pick)
 * @param[in]  vp, proj, view, conv the camera, as for rp_pick_ray_unproject
 * @param[out] out_position  the object's new position; may be NULL
 * @returns false, with out_position untouched, when the cursor's ray does
 *          not meet the plane in front of the camera (keep the last
 *          position) and for invalid input (a NULL or non-finite drag,
 *          anything rp_pick_ray_unproject refuses)
 */
RP_API bool rp_drag_update(const rp_drag *drag, float x, float y, const rp_viewport *vp,
                           mat4 proj, mat4 view, rp_convention conv, vec3 out_position);

#ifdef __cplusplus
}
#endif

#endif /* RAYPICK_PLANE_H */

/*
 * raypick: ray picking and bounding volumes, the classic D3D9/XNA tutorials
 * done right. C11, depends on cglm only.
 *
 * Usage:
 *
 *     #include <raypick/raypick.h>
 *
 *     rp_viewport vp = {0, 0, 1280, 720};
 *     rp_ray ray;
 *     if (rp_pick_ray_unproject(mouse_x, mouse_y, &vp, proj, view, RP_GL, &ray)) {
 *         rp_hit hit;
 *         int i = rp_intersect_ray_spheres(&ray, spheres, count, &hit);
 *         if (i >= 0)
 *             printf("picked %d at t = %g\n", i, hit.t);
 *     }
 *
 * Every function takes its inputs first and its outputs last. An output
 * pointer may be NULL; on `false` (or -1) the output is left untouched.
 * Invalid input (NaN, infinity, zero-length direction, radius <= 0, empty
 * viewport, singular matrix) gives `false`, never a NaN or a crash.
 *
 * Headers, one per topic:
 *   ray.h        rp_ray, rp_hit, points on a ray, ray transforms
 *   sphere.h     ray vs sphere, point in sphere, sphere vs sphere
 *   ellipsoid.h  ray vs (rotated) ellipsoid
 *   pick.h       pick rays from a mouse position (D3D9 and XNA styles)
 *   heightmap.h  heightmap terrain: height, tutorial search, exact first hit
 *   box.h        ray vs axis-aligned and oriented boxes; bounds of points
 *   mesh.h       ray vs triangle (watertight) and vs triangle meshes (BVH)
 *   scene.h      many objects under one BVH, refitted when they move
 *   plane.h      planes, ray vs plane, dragging on a plane under the cursor
 *   frustum.h    the frustum of a camera or a screen rectangle (marquee
 *                selection) against every shape
 *   thin.h       points, segments and polylines picked within a tolerance
 *                (world units or pixels)
 */
#ifndef RAYPICK_RAYPICK_H
#define RAYPICK_RAYPICK_H

#include "ray.h"
#include "sphere.h"
#include "ellipsoid.h"
#include "pick.h"
#include "heightmap.h"
#include "box.h"
#include "mesh.h"
#include "scene.h"
#include "plane.h"
#include "frustum.h"
#include "thin.h"

#endif /* RAYPICK_RAYPICK_H */

/*
 * raypick/heightmap.h: picking a point on a heightmap terrain.
 *
 *     rp_heightmap *hm = rp_heightmap_create(cols, rows, 1.0f, origin, heights);
 *     rp_hit hit;
 *     if (hm && rp_intersect_ray_heightmap(hm, &ray, &hit))
 *         place_marker(hit.point);
 *     rp_heightmap_destroy(hm);
 */
#ifndef RAYPICK_HEIGHTMAP_H
#define RAYPICK_HEIGHTMAP_H

#include "ray.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rp_heightmap rp_heightmap;   /* opaque */

/*!
 * @brief cols x rows samples (both >= 2), heights[row * cols + col] is the
 *        sample at world x = origin[0] + col * spacing,
 *        z = origin[2] + row * spacing, y = origin[1] + heights[...].
 *        Heights are copied. NULL on invalid input.
 */
rp_heightmap *rp_heightmap_create(int cols, int rows, float spacing,
                                  const vec3 origin, const float *heights);
void rp_heightmap_destroy(rp_heightmap *hm);

/*!
 * @brief height of the rendered surface at world (x, z): each cell is two
 *        triangles split along the diagonal from sample (col, row) to
 *        (col+1, row+1). false (and *out_y untouched) outside the map.
 */
bool rp_heightmap_height_at(const rp_heightmap *hm, float x, float z, float *out_y);

/*!
 * @brief the tutorial's method, made safe: clip the ray to the map's height
 *        band, linear search in linear_steps equal steps, then binary search
 *        until the height error is below accuracy. Bounded work on every
 *        input; false when nothing is found.
 */
bool rp_heightmap_pick_search(const rp_heightmap *hm, const rp_ray *ray,
                              int linear_steps, float accuracy, vec3 out_point);

/*!
 * @brief exact: the first point at t >= 0 where the ray meets the rendered
 *        triangles.
 */
bool rp_intersect_ray_heightmap(const rp_heightmap *hm, const rp_ray *ray, rp_hit *out);

#ifdef __cplusplus
}
#endif

#endif /* RAYPICK_HEIGHTMAP_H */

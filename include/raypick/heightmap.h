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

#include <stddef.h>
#include <stdint.h>
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

/* ---- building maps ---------------------------------------------------- */

/*!
 * @brief procedural map (seeded fractal value noise), heights in
 *        [0, height_scale]. NULL on invalid input (sizes < 2, spacing <= 0,
 *        non-finite values, absurdly large).
 */
rp_heightmap *rp_heightmap_generate(int cols, int rows, float spacing, float height_scale,
                                    uint32_t seed, const vec3 origin);

/*!
 * @brief load a map from an image file (8/16-bit grayscale PNG, PGM, ...;
 *        colour by luminance): a pixel per sample, black = 0, white =
 *        height_scale. NULL on error, with a message naming the file and the
 *        problem written to err (err may be NULL, err_size bytes).
 */
rp_heightmap *rp_heightmap_load(const char *path, float spacing, float height_scale,
                                const vec3 origin, char *err, size_t err_size);

/* ---- reading maps (for renderers) -------------------------------------- */

int   rp_heightmap_cols(const rp_heightmap *hm);
int   rp_heightmap_rows(const rp_heightmap *hm);
float rp_heightmap_spacing(const rp_heightmap *hm);
void  rp_heightmap_origin(const rp_heightmap *hm, vec3 dest);
/* the cols * rows samples, row-major (heights[row * cols + col]) */
const float *rp_heightmap_heights(const rp_heightmap *hm);
/* lowest and highest sample (relative to origin[1]) */
void  rp_heightmap_height_range(const rp_heightmap *hm, float *min_h, float *max_h);

/* ---- the tutorial's search, traced for drawing ------------------------ */

/* Caller-owned buffers the traced search fills; zero-initialise, then point
   linear/binary at arrays of linear_cap/binary_cap points. */
typedef struct rp_search_trace {
    bool  clipped;          /* the ray crossed the height band at all     */
    vec3  clip_start;       /* the ray clipped to the band: start, end    */
    vec3  clip_end;
    vec3 *linear;           /* linear-search sample points, in order      */
    int   linear_cap, linear_count;
    vec3 *binary;           /* binary-search sample points, in order      */
    int   binary_cap, binary_count;
} rp_search_trace;

/*!
 * @brief rp_heightmap_pick_search that also records what it did into trace
 *        (may be NULL). Counts beyond the caps are counted, not stored.
 */
bool rp_heightmap_pick_search_traced(const rp_heightmap *hm, const rp_ray *ray,
                                     int linear_steps, float accuracy,
                                     rp_search_trace *trace, vec3 out_point);

#ifdef __cplusplus
}
#endif

#endif /* RAYPICK_HEIGHTMAP_H */

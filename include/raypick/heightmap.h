/*
 * raypick/heightmap.h: picking a point on a heightmap terrain.
 *
 *     rp_heightmap *hm = rp_heightmap_create(cols, rows, 1.0f, origin, heights);
 *     rp_hit hit;
 *     if (hm && rp_intersect_ray_heightmap(hm, &ray, &hit))
 *         place_marker(hit.point);
 *     rp_heightmap_destroy(hm);
 *
 * The surface is what a renderer draws from the samples: every cell (four
 * neighbouring samples) is two triangles split along the diagonal from
 * sample (col, row) to sample (col + 1, row + 1). The map covers the closed
 * rectangle x in [x0, x0 + (cols - 1) * spacing], z in [z0, z0 + (rows - 1) *
 * spacing] (origin = (x0, y0, z0)); its border belongs to the map. Rows run
 * along +z (XNA's terrain runs along -z: mirror z or flip the rows to port).
 *
 * Two ways to pick:
 * - rp_heightmap_pick_search: the XNA tutorial's ClipRay + LinearSearch +
 *   BinarySearch, made safe. Cheap, approximate, and it can step over
 *   features thinner than one linear step (that is the lesson).
 * - rp_intersect_ray_heightmap: exact first hit on the triangles. It walks
 *   the cells under the ray (Amanatides-Woo) and skips whole blocks the ray
 *   passes above with a min/max pyramid built by create (about 1/12 of the
 *   heights' memory). This is what physics engines do
 *   (btHeightfieldTerrainShape, Jolt's HeightFieldShape).
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

/* The most linear steps rp_heightmap_pick_search accepts (more is refused,
   so a typo cannot turn one click into seconds of work). */
#define RP_HEIGHTMAP_SEARCH_MAX_STEPS (1 << 20)

/*!
 * @brief make a heightmap from samples. Replaces the tutorials' terrain
 *        class (XNA: Terrain built from a height texture).
 *
 * heights[row * cols + col] is the sample at world x = origin[0] + col *
 * spacing, z = origin[2] + row * spacing, y = origin[1] + heights[...].
 *
 * @param[in] cols, rows samples along x and z, each 2 .. 2^24 (and
 *                       rows * cols * sizeof(float) must fit in a size_t)
 * @param[in] spacing    distance between neighbouring samples, > 0, finite
 * @param[in] origin     world position of sample (0, 0), finite
 * @param[in] heights    rows * cols finite floats; copied
 * @returns the map (free with rp_heightmap_destroy), or NULL on invalid
 *          input (NULL pointers, sizes < 2, spacing <= 0 or not finite, a
 *          NaN or infinite height, an extent that overflows float) or when
 *          out of memory
 */
RP_API rp_heightmap *rp_heightmap_create(int cols, int rows, float spacing,
                                  const vec3 origin, const float *heights);

/*! @brief free a map; NULL is ignored. */
RP_API void rp_heightmap_destroy(rp_heightmap *hm);

/*!
 * @brief height of the rendered surface at world (x, z): each cell is two
 *        triangles split along the diagonal from sample (col, row) to
 *        (col+1, row+1). XNA's Terrain.GetExactHeightAt, on the triangles.
 *
 * @param[in]  hm    the map
 * @param[in]  x, z  world position
 * @param[out] out_y world height of the surface there; may be NULL
 * @returns false (and *out_y untouched) outside the map's closed rectangle,
 *          for a NULL map or non-finite x or z
 */
RP_API bool rp_heightmap_height_at(const rp_heightmap *hm, float x, float z, float *out_y);

/*!
 * @brief the tutorial's method, made safe: clip the ray to the map's height
 *        band, linear search in linear_steps equal steps, then binary search
 *        until the height error is below accuracy. Bounded work on every
 *        input; false when nothing is found. Port of XNA recipe 5-10's
 *        ClipRay + LinearSearch + BinarySearch.
 *
 * The ray (t >= 0) is clipped to the band origin[1] + [min_h, max_h] and to
 * the map's rectangle, slab by slab: a level ray inside the band is clipped
 * by the rectangle only, a ray going up works like any other. The clipped
 * stretch is sampled at linear_steps + 1 equally spaced points; the first
 * sample whose height error |ray y - surface y| is below accuracy is the
 * answer; the first sample on the other side of the surface than the
 * clipped start starts a binary search (at most 64 halvings) that stops at
 * the first point whose error is below accuracy (or, when accuracy is finer
 * than floats resolve, the best point of the 64). A ray starting below the
 * surface therefore finds where it comes out. Anything thinner than a step
 * can be stepped over: rp_intersect_ray_heightmap cannot miss it.
 *
 * @param[in]  hm           the map
 * @param[in]  ray          the ray; dir need not be unit length
 * @param[in]  linear_steps 1 .. RP_HEIGHTMAP_SEARCH_MAX_STEPS (the tutorial: 300)
 * @param[in]  accuracy     height error to stop at, > 0 (the tutorial: 0.01)
 * @param[out] out_point    the point found; may be NULL
 * @returns false (out_point untouched) when the ray misses the band or the
 *          map, when no sample crosses the surface, or on invalid input
 *          (NULL map, invalid ray, steps out of range, accuracy <= 0 or not
 *          finite)
 */
RP_API bool rp_heightmap_pick_search(const rp_heightmap *hm, const rp_ray *ray,
                              int linear_steps, float accuracy, vec3 out_point);

/*!
 * @brief exact: the first point at t >= 0 where the ray meets the rendered
 *        triangles. Replaces the tutorial's search (XNA has no exact one).
 *
 * The surface is an open sheet: a ray that enters the map's rectangle from
 * the side under the surface hits it only where it comes up through it.
 * Rays along grid lines, along diagonals and through vertices do not slip
 * between triangles. A ray touching the surface (a peak, an edge) hits it.
 *
 * @param[in]  hm  the map
 * @param[in]  ray the ray; dir need not be unit length, t is in its units
 * @param[out] out may be NULL. t = t_enter = t_exit = the hit's t (0 when
 *                 the origin lies on the surface), point = origin + t * dir,
 *                 normal = unit normal of the triangle hit, facing the side
 *                 the ray came from (up for a ray from above, down for one
 *                 from below), inside = the ray came from below the surface
 * @returns false (out untouched) when the ray misses, or on invalid input
 *          (NULL map, invalid ray), or when t does not fit in a float
 */
RP_API bool rp_intersect_ray_heightmap(const rp_heightmap *hm, const rp_ray *ray, rp_hit *out);

/* ---- building maps ---------------------------------------------------- */

/*!
 * @brief procedural map (seeded fractal value noise), heights in
 *        [0, height_scale], the lowest sample exactly 0 and the highest
 *        exactly height_scale (a flat map when height_scale is 0). The same
 *        seed gives the same map on every platform (integer hashing).
 *
 * @param[in] cols, rows   samples, 2 .. 16384 each, at most 64M in all
 * @param[in] spacing      > 0, finite
 * @param[in] height_scale >= 0, finite
 * @param[in] seed         any value
 * @param[in] origin       world position of sample (0, 0), finite
 * @returns the map, or NULL on invalid input or out of memory
 */
RP_API rp_heightmap *rp_heightmap_generate(int cols, int rows, float spacing, float height_scale,
                                    uint32_t seed, const vec3 origin);

/*!
 * @brief load a map from an image file (8/16-bit grayscale PNG and binary
 *        PGM (P5); colour PNG, binary PPM (P6) and BMP by Rec. 709 luma,
 *        alpha ignored; not JPEG, whose lossy blocks make poor heights): a
 *        pixel per sample, black = 0, white (the PGM's maxval) =
 *        height_scale; a sample above maxval is an error. PNG and BMP go
 *        through stb_image;
 *        PGM/PPM are read by raypick itself, so they load even in a build
 *        without stb_image. The image's top row is
 *        row 0 (smallest z), its left column col 0 (smallest x): the image
 *        is the map seen from above with +x right and +z down. XNA loads the
 *        heights from a texture's GetData.
 *
 * @param[in]  path         file name
 * @param[in]  spacing      > 0, finite
 * @param[in]  height_scale finite
 * @param[in]  origin       finite
 * @param[out] err          on NULL: a message naming the file and the
 *                          problem (cannot open, not an image, truncated or
 *                          corrupt, too small (< 2x2), too large (> 16384 a
 *                          side or > 64M samples), not a PGM/PPM in a build
 *                          without stb_image);
 *                          may be NULL
 * @param[in]  err_size     bytes at err
 * @returns the map, or NULL on error
 */
RP_API rp_heightmap *rp_heightmap_load(const char *path, float spacing, float height_scale,
                                const vec3 origin, char *err, size_t err_size);

/*!
 * @brief rp_heightmap_load on bytes already in memory (an image embedded
 *        in the program, read from an archive, or fetched): the same
 *        formats, options, limits and results; messages name "(memory)"
 *        instead of a file.
 *
 * @param[in]  data         the image file's bytes; not kept
 * @param[in]  size         bytes at data (at most 2 GiB - 1)
 * @param[in]  spacing, height_scale, origin as rp_heightmap_load
 * @param[out] err, err_size as rp_heightmap_load; may be NULL
 * @returns the map, or NULL on error (NULL data included; size 0 is "not
 *          an image")
 */
RP_API rp_heightmap *rp_heightmap_load_memory(const void *data, size_t size, float spacing,
                                              float height_scale, const vec3 origin,
                                              char *err, size_t err_size);

/* ---- reading maps (for renderers) -------------------------------------- */

/* Sizes and placement as given to create (0 / NULL for a NULL map). */
RP_API int   rp_heightmap_cols(const rp_heightmap *hm);
RP_API int   rp_heightmap_rows(const rp_heightmap *hm);
RP_API float rp_heightmap_spacing(const rp_heightmap *hm);
RP_API void  rp_heightmap_origin(const rp_heightmap *hm, vec3 dest);
/* the cols * rows samples, row-major (heights[row * cols + col]) */
RP_API const float *rp_heightmap_heights(const rp_heightmap *hm);
/* lowest and highest sample (relative to origin[1]); either may be NULL */
RP_API void  rp_heightmap_height_range(const rp_heightmap *hm, float *min_h, float *max_h);

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
 *
 * The trace is reset (clipped = false, counts = 0) on every call and then
 * filled even when the search finds nothing, so a miss can be drawn too.
 * linear[0] is clip_start; the last linear point is where the search
 * stopped; binary points are the halvings' midpoints in order.
 */
RP_API bool rp_heightmap_pick_search_traced(const rp_heightmap *hm, const rp_ray *ray,
                                     int linear_steps, float accuracy,
                                     rp_search_trace *trace, vec3 out_point);

/*!
 * @brief rp_heightmap_pick_search with the whole answer: the t of the point
 *        found along the ray, and the surface there. Same search, same
 *        point, same false cases; trace as in rp_heightmap_pick_search_traced
 *        (may be NULL).
 *
 * @param[in]  hm, ray, linear_steps, accuracy as rp_heightmap_pick_search
 * @param[out] trace what the search did; may be NULL
 * @param[out] out   may be NULL. t = t_enter = t_exit = the point's t along
 *                   ray (in units of ray->dir), point = origin + t * dir
 *                   (rp_heightmap_pick_search's point; within accuracy of
 *                   the surface, not on it), normal = unit normal of the
 *                   triangle under the point, facing the side the clipped
 *                   ray started on, inside = it started below the surface
 * @returns false (out untouched) as rp_heightmap_pick_search, and when t
 *          does not fit in a float
 */
RP_API bool rp_heightmap_pick_search_hit(const rp_heightmap *hm, const rp_ray *ray,
                                         int linear_steps, float accuracy,
                                         rp_search_trace *trace, rp_hit *out);

#ifdef __cplusplus
}
#endif

#endif /* RAYPICK_HEIGHTMAP_H */

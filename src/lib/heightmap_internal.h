/*
 * heightmap_internal.h: the heightmap's layout and the pieces its sources
 * share. Not installed; the benchmark and the unit tests include it to reach
 * the unaccelerated walk and the acceleration's memory figure.
 */
#ifndef RAYPICK_HEIGHTMAP_INTERNAL_H
#define RAYPICK_HEIGHTMAP_INTERNAL_H

#include <stddef.h>
#include "raypick/heightmap.h"

/* The acceleration's leaves are blocks of 2^leaf_log2 cells a side: a 4x4
   leaf keeps the pyramid at about 1/12 of the heights (two floats per 16
   cells, plus a third for the upper levels). Maps one or two cells thin
   get bigger leaves so the pyramid never exceeds half the heights. */
#define RP_HM_LEAF_LOG2_MIN 2
#define RP_HM_MAX_LEVELS 32

/* Lowest and highest sample under one node of the pyramid. */
typedef struct rp_hm_bounds {
    float lo, hi;
} rp_hm_bounds;

typedef struct rp_hm_level {
    int nx, nz;                 /* nodes along x (columns) and z (rows) */
    rp_hm_bounds *nodes;        /* nz * nx, row-major                   */
} rp_hm_level;

struct rp_heightmap {
    int    cols, rows;
    float  spacing;
    vec3   origin;
    float  min_h, max_h;        /* lowest and highest sample            */
    float *heights;             /* rows * cols, owned                   */

    /* min/max pyramid: level 0 = leaf blocks, the last level = one node */
    int           leaf_log2;
    int           levels;
    rp_hm_level   level[RP_HM_MAX_LEVELS];
    rp_hm_bounds *pyramid;      /* every level's nodes, one allocation  */
    size_t        pyramid_count;
};

/* Largest side and sample count create() accepts: the loader's limits too. */
#define RP_HM_MAX_SIDE    16384
#define RP_HM_MAX_SAMPLES ((size_t)64 * 1024 * 1024)
/* Largest image file rp_heightmap_load reads (it reads the file whole):
   above the largest image the limits allow in any format (a 64M-sample
   16-bit RGBA PNG stored without compression is 512 MiB). */
#define RP_HM_MAX_FILE_BYTES ((size_t)1 << 30)

/* Surface height relative to origin[1] at grid coordinates (u, v) =
   ((x - x0) / spacing, (z - z0) / spacing). (u, v) is clamped onto the map:
   callers check the map's extent themselves. */
double rp_hm_surface(const rp_heightmap *hm, double u, double v);

/* Upward (not unit) normal of the triangle rp_hm_surface uses at (u, v),
   in world units: (-dh/dx, 1, -dh/dz). */
void rp_hm_surface_normal(const rp_heightmap *hm, double u, double v, double n[3]);

/* A ray in the map's frame: x and z in grid units ((x - x0) / spacing),
   y in world units relative to origin[1]; t keeps the caller's units. */
typedef struct rp_hm_ray {
    double ou, oy, ov;
    double du, dy, dv;
} rp_hm_ray;

void rp_hm_ray_make(const rp_heightmap *hm, const rp_ray *ray, rp_hm_ray *out);

/* Clips t in [0, inf) to the map's closed rectangle and to y in
   [y_lo, y_hi]; false when nothing is left. Level and axis-parallel rays
   are tested against the slab instead of divided by zero. */
bool rp_hm_clip(const rp_heightmap *hm, const rp_hm_ray *r, double y_lo, double y_hi,
                double *t0, double *t1);

/* Copies src into hm->heights (skipped when src == hm->heights) and builds
   hm->pyramid in the same pass; false on a NaN in src or out of memory.
   The top node's lo/hi are the lowest and highest sample. */
bool rp_hm_build_pyramid(rp_heightmap *hm, const float *src);

/* A map that takes ownership of heights (malloc'ed, rows * cols, already
   validated finite); frees them on failure. */
rp_heightmap *rp_hm_adopt(int cols, int rows, float spacing, const vec3 origin,
                          float *heights);

/* The exact first hit without the pyramid: one Amanatides-Woo walk over
   every cell under the ray. Same contract as rp_intersect_ray_heightmap;
   kept for the benchmark and as a cross-check in the tests. */
bool rp_hm_intersect_walk(const rp_heightmap *hm, const rp_ray *ray, rp_hit *out);

/* Bytes the acceleration structure occupies (for the memory target). */
size_t rp_hm_accel_bytes(const rp_heightmap *hm);

#endif /* RAYPICK_HEIGHTMAP_INTERNAL_H */

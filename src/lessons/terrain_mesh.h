/*
 * terrain_mesh.h: what lesson 4 draws of a heightmap. A map larger than the
 * screen can show is drawn decimated: every stride-th sample of the
 * library's own heights (rp_heightmap_heights, read in place: no second
 * full-resolution copy), so a 4097x4097 map becomes a 129x129 grid. Its
 * vertices are samples of the exact surface; between them the drawn surface
 * is coarser than the one the library picks, so a marker at an exact hit is
 * lifted onto the drawn surface where that lies above it (terrain_mesh_marker).
 * Picking never uses this mesh. No GL, no SDL.
 */
#ifndef RAYPICK_TERRAIN_MESH_H
#define RAYPICK_TERRAIN_MESH_H

#include <stdbool.h>
#include <raypick/raypick.h>
#include "render_list.h"

/* The most vertices per side lesson 4 draws (128 cells): about as many
   triangles as the default 97x97 map, so a software rasteriser (llvmpipe)
   keeps its frame time (257 a side doubled the CPU time per frame). With
   the whole map in view at 1280x720 a cell is about 10 pixels wide. */
#define TERRAIN_MESH_MAX_SIDE 129

typedef struct terrain_mesh {
    render_terrain_data data;   /* what render_list_terrain gets */
    int stride;                 /* map samples per drawn cell; 1 = full resolution */
    float *owned;               /* the decimated heights; NULL when stride is 1 */
} terrain_mesh;

/* The smallest whole stride that keeps both sides at most max_side
   vertices: 1 for a map that fits. 0 for sizes < 2 or max_side < 2. */
int terrain_mesh_stride(int cols, int rows, int max_side);

/* Builds the drawn grid of hm with at most max_side vertices a side.
   Vertex (c, r) is sample (c * stride, r * stride); a side whose last
   sample the stride does not reach ends at the last sample it reaches
   (less than one drawn cell short). With stride 1 data.heights is the
   map's own array (hm must outlive the mesh either way). false (out
   zeroed) on NULL, max_side < 2 or out of memory. */
bool terrain_mesh_build(const rp_heightmap *hm, int max_side, terrain_mesh *out);

/* Frees what build made and zeroes m; NULL and a zero mesh are fine. */
void terrain_mesh_free(terrain_mesh *m);

/* Height of the DRAWN surface at world (x, z), the same two triangles per
   cell as the library (split along (c, r)-(c+1, r+1)). false (out_y
   untouched) outside the drawn rectangle, for a NULL or empty mesh or
   non-finite x, z. */
bool terrain_mesh_height_at(const terrain_mesh *m, float x, float z, float *out_y);

/* Where to draw a marker for the exact point p so that it is seen: p
   itself, or, on a decimated drawing (stride > 1), p raised onto the drawn
   surface when that lies above p there (a coarser surface can cover an
   exact hit in a dip). */
void terrain_mesh_marker(const terrain_mesh *m, const vec3 p, vec3 out);

#endif /* RAYPICK_TERRAIN_MESH_H */

/*
 * mesh_data.h: a triangle mesh as plain data, the way the DirectX SDK's
 * Pick sample keeps it: one vertex array in the sample's D3DVERTEX layout
 * (position, normal, tu/tv: 32 bytes) and three 32-bit indices per
 * triangle. Lesson 5 builds one procedurally (torus_knot.h) or gets one
 * from a file (src/app/model_load.h); the library reads its positions in
 * place with stride sizeof(mesh_vertex), the renderer uploads it as is.
 * No GL, no SDL.
 */
#ifndef RAYPICK_MESH_DATA_H
#define RAYPICK_MESH_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct mesh_vertex {
    float p[3];         /* position (first: the library's stride rule) */
    float n[3];         /* unit normal */
    float tu, tv;       /* texture coordinates */
} mesh_vertex;

typedef struct mesh_data {
    mesh_vertex *vertices;
    size_t       vertex_count;
    uint32_t    *indices;       /* 3 per triangle */
    size_t       triangle_count;
} mesh_data;

/* Frees both arrays and zeroes the struct; NULL and a zero struct are fine. */
void mesh_data_free(mesh_data *m);

/* Area-weighted vertex normals from the triangles (a vertex no triangle
   uses gets (0, 1, 0)). false on NULL or an index out of range. */
bool mesh_data_compute_normals(mesh_data *m);

/* Moves and scales the mesh so the box around the vertices that triangles
   use is centred on the origin and its largest half-size is `radius`.
   false (mesh untouched) on NULL, no triangles, radius <= 0, an index out
   of range, a non-finite position, or a mesh of zero size. */
bool mesh_data_fit(mesh_data *m, float radius);

/* The triangles worth drawing of a model that may be hostile (issue 34):
   one of each set of coincident triangles (the same three positions in any
   order), none of zero area, triangles in order while their summed area
   stays within max_layers times the model's largest cross-section (a
   bound on the fill a frame costs), and of those at most max_triangles,
   spread over the model. *out = the kept triangles' indices (malloc'd),
   or NULL when every triangle is kept; *count = how many are kept.
   Picking still uses every triangle. false on NULL, max_triangles 0, no
   triangles, an index out of range, or out of memory. */
bool mesh_data_draw_subset(const mesh_data *m, size_t max_triangles, double max_layers, uint32_t **out,
                           size_t *count);

#endif /* RAYPICK_MESH_DATA_H */

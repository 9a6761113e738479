/* geometry.h: CPU-side meshes (positions and normals, indexed triangles).
   No GL here: shapes.c uploads them. */
#ifndef RAYPICK_GEOMETRY_H
#define RAYPICK_GEOMETRY_H

#include <stdbool.h>
#include <stdint.h>

typedef struct geo_vertex {
    float position[3];
    float normal[3];
} geo_vertex;

typedef struct geo_mesh {
    geo_vertex *vertices;
    uint32_t   *indices;
    int vertex_count, index_count;
} geo_mesh;

bool geo_sphere(int slices, int stacks, geo_mesh *out);
bool geo_cube(geo_mesh *out);
bool geo_torus(float ring, float tube, int ring_segments, int tube_segments, geo_mesh *out);
bool geo_cone(int segments, geo_mesh *out);
/* heightmap grid with smooth normals; diagonal (col,row)-(col+1,row+1) */
bool geo_terrain(int cols, int rows, float spacing, const float origin[3],
                 const float *heights, geo_mesh *out);
void geo_free(geo_mesh *m);
/* The mesh the renderer draws for a render_shape_kind (render.h), so the
   lessons can pick exactly the triangles on screen. false for another kind. */
bool geo_shape(int kind, geo_mesh *out);

#endif

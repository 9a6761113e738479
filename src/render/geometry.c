/* geometry.c: the meshes the lessons draw, generated at start-up. */
#include "geometry.h"
#include "steady_math.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define GEO_PI 3.14159265358979f

static bool geo_alloc(int vertex_count, int index_count, geo_mesh *out)
{
    out->vertices = calloc((size_t)vertex_count, sizeof *out->vertices);
    out->indices = calloc((size_t)index_count, sizeof *out->indices);
    out->vertex_count = vertex_count;
    out->index_count = index_count;
    if (!out->vertices || !out->indices) {
        geo_free(out);
        return false;
    }
    return true;
}

static void set_vertex(geo_vertex *v, float px, float py, float pz, float nx, float ny, float nz)
{
    v->position[0] = px; v->position[1] = py; v->position[2] = pz;
    v->normal[0] = nx;   v->normal[1] = ny;   v->normal[2] = nz;
}

/* indices of a (columns+1) x (rows+1) vertex grid, two triangles per cell,
   counter-clockwise seen from outside when u runs along columns */
static void grid_indices(int columns, int rows, uint32_t *idx)
{
    int k = 0;
    for (int r = 0; r < rows; ++r) {
        for (int c = 0; c < columns; ++c) {
            uint32_t a = (uint32_t)(r * (columns + 1) + c);
            uint32_t b = a + 1;
            uint32_t d = a + (uint32_t)(columns + 1);
            uint32_t e = d + 1;
            idx[k++] = a; idx[k++] = d; idx[k++] = b;
            idx[k++] = b; idx[k++] = d; idx[k++] = e;
        }
    }
}

bool geo_sphere(int slices, int stacks, geo_mesh *out)
{
    if (slices < 3 || stacks < 2 || !geo_alloc((slices + 1) * (stacks + 1), slices * stacks * 6, out))
        return false;
    int k = 0;
    for (int s = 0; s <= stacks; ++s) {
        float theta = GEO_PI * (float)s / (float)stacks;       /* from +y down */
        for (int i = 0; i <= slices; ++i) {
            float phi = 2.0f * GEO_PI * (float)i / (float)slices;
            float x = steady_sinf(theta) * steady_sinf(phi), y = steady_cosf(theta), z = steady_sinf(theta) * steady_cosf(phi);
            set_vertex(&out->vertices[k++], x, y, z, x, y, z);
        }
    }
    grid_indices(slices, stacks, out->indices);
    return true;
}

bool geo_torus(float ring, float tube, int ring_segments, int tube_segments, geo_mesh *out)
{
    if (!geo_alloc((ring_segments + 1) * (tube_segments + 1), ring_segments * tube_segments * 6, out))
        return false;
    int k = 0;
    for (int t = 0; t <= tube_segments; ++t) {
        float b = 2.0f * GEO_PI * (float)t / (float)tube_segments;
        for (int i = 0; i <= ring_segments; ++i) {
            float a = 2.0f * GEO_PI * (float)i / (float)ring_segments;
            float nx = steady_cosf(b) * steady_sinf(a), ny = steady_sinf(b), nz = steady_cosf(b) * steady_cosf(a);
            set_vertex(&out->vertices[k++], ring * steady_sinf(a) + tube * nx, tube * ny,
                       ring * steady_cosf(a) + tube * nz, nx, ny, nz);
        }
    }
    grid_indices(ring_segments, tube_segments, out->indices);
    /* the tube runs the other way round: flip the winding */
    for (int i = 0; i < out->index_count; i += 3) {
        uint32_t tmp = out->indices[i + 1];
        out->indices[i + 1] = out->indices[i + 2];
        out->indices[i + 2] = tmp;
    }
    return true;
}

bool geo_cube(geo_mesh *out)
{
    if (!geo_alloc(24, 36, out))
        return false;
    static const float n[6][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
    for (int f = 0; f < 6; ++f) {
        /* two axes spanning the face, u x v = n */
        float u[3] = {n[f][1], n[f][2], n[f][0]};
        float v[3] = {n[f][1] * u[2] - n[f][2] * u[1], n[f][2] * u[0] - n[f][0] * u[2],
                      n[f][0] * u[1] - n[f][1] * u[0]};
        static const float corner[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
        for (int c = 0; c < 4; ++c) {
            float p[3];
            for (int j = 0; j < 3; ++j)
                p[j] = n[f][j] + corner[c][0] * u[j] + corner[c][1] * v[j];
            set_vertex(&out->vertices[f * 4 + c], p[0], p[1], p[2], n[f][0], n[f][1], n[f][2]);
        }
        uint32_t base = (uint32_t)(f * 4);
        uint32_t quad[6] = {0, 1, 2, 0, 2, 3};
        for (int j = 0; j < 6; ++j)
            out->indices[f * 6 + j] = base + quad[j];
    }
    return true;
}

bool geo_cone(int segments, geo_mesh *out)
{
    /* side: a ring at the base and a ring at the apex (normals per segment),
       then the base cap: centre + ring */
    int side = (segments + 1) * 2, cap = segments + 2;
    if (!geo_alloc(side + cap, segments * 6, out))
        return false;
    const float slope = 1.0f / sqrtf(5.0f);     /* radius 1, height 2 */
    int k = 0;
    for (int i = 0; i <= segments; ++i) {
        float a = 2.0f * GEO_PI * (float)i / (float)segments;
        float nx = steady_sinf(a) * 2.0f * slope, ny = slope, nz = steady_cosf(a) * 2.0f * slope;
        set_vertex(&out->vertices[k++], steady_sinf(a), -1.0f, steady_cosf(a), nx, ny, nz);
        set_vertex(&out->vertices[k++], 0.0f, 1.0f, 0.0f, nx, ny, nz);
    }
    int centre = k;
    set_vertex(&out->vertices[k++], 0.0f, -1.0f, 0.0f, 0.0f, -1.0f, 0.0f);
    for (int i = 0; i <= segments; ++i) {
        float a = 2.0f * GEO_PI * (float)i / (float)segments;
        set_vertex(&out->vertices[k++], steady_sinf(a), -1.0f, steady_cosf(a), 0.0f, -1.0f, 0.0f);
    }
    int j = 0;
    for (int i = 0; i < segments; ++i) {
        out->indices[j++] = (uint32_t)(2 * i);
        out->indices[j++] = (uint32_t)(2 * i + 2);
        out->indices[j++] = (uint32_t)(2 * i + 1);
        out->indices[j++] = (uint32_t)centre;
        out->indices[j++] = (uint32_t)(centre + 2 + i);
        out->indices[j++] = (uint32_t)(centre + 1 + i);
    }
    return true;
}

bool geo_terrain(int cols, int rows, float spacing, const float origin[3],
                 const float *heights, geo_mesh *out)
{
    if (cols < 2 || rows < 2 || !heights ||
        !geo_alloc(cols * rows, (cols - 1) * (rows - 1) * 6, out))
        return false;
    for (int r = 0; r < rows; ++r) {
        for (int c = 0; c < cols; ++c) {
            /* central differences for a smooth normal */
            int c0 = c > 0 ? c - 1 : c, c1 = c < cols - 1 ? c + 1 : c;
            int r0 = r > 0 ? r - 1 : r, r1 = r < rows - 1 ? r + 1 : r;
            float dx = (heights[r * cols + c1] - heights[r * cols + c0]) / ((float)(c1 - c0) * spacing);
            float dz = (heights[r1 * cols + c] - heights[r0 * cols + c]) / ((float)(r1 - r0) * spacing);
            float len = sqrtf(dx * dx + 1.0f + dz * dz);
            set_vertex(&out->vertices[r * cols + c], origin[0] + (float)c * spacing,
                       origin[1] + heights[r * cols + c], origin[2] + (float)r * spacing,
                       -dx / len, 1.0f / len, -dz / len);
        }
    }
    int k = 0;
    for (int r = 0; r < rows - 1; ++r) {
        for (int c = 0; c < cols - 1; ++c) {
            uint32_t a = (uint32_t)(r * cols + c), b = a + 1;
            uint32_t d = a + (uint32_t)cols, e = d + 1;
            /* split along a-e: the (col,row)-(col+1,row+1) diagonal; CCW seen from +y */
            out->indices[k++] = a; out->indices[k++] = e; out->indices[k++] = b;
            out->indices[k++] = a; out->indices[k++] = d; out->indices[k++] = e;
        }
    }
    return true;
}

void geo_free(geo_mesh *m)
{
    free(m->vertices);
    free(m->indices);
    memset(m, 0, sizeof *m);
}

bool geo_shape(int kind, geo_mesh *out)
{
    /* the order of render_shape_kind: sphere, cube, torus, cone */
    switch (kind) {
    case 0: return geo_sphere(32, 16, out);
    case 1: return geo_cube(out);
    case 2: return geo_torus(0.75f, 0.3f, 40, 14, out);
    case 3: return geo_cone(40, out);
    default: return false;
    }
}

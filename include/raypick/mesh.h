/*
 * raypick/mesh.h: ray vs triangle (watertight) and ray vs triangle mesh
 * (a BVH): what D3DXIntersectTri and D3DXIntersect do.
 *
 * (Declarations of the round-2 contract; the implementation and the full
 * documentation are being written in src/lib/triangle.c and src/lib/mesh*.c.)
 */
#ifndef RAYPICK_MESH_H
#define RAYPICK_MESH_H

#include <stddef.h>
#include <stdint.h>
#include "ray.h"
#include "box.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rp_triangle_hit {
    uint32_t triangle;  /* index in the mesh: D3DXIntersect's FaceIndex (0 for a lone triangle) */
    float    u, v;      /* point = v0 + u (v1 - v0) + v (v2 - v0): D3DXIntersect's pU, pV */
} rp_triangle_hit;

RP_API bool rp_intersect_ray_triangle(const rp_ray *ray, const vec3 v0, const vec3 v1,
                                      const vec3 v2, rp_hit *out, rp_triangle_hit *tri);

typedef struct rp_mesh rp_mesh;   /* opaque: the triangles and their BVH */

RP_API rp_mesh *rp_mesh_create(const float *positions, size_t vertex_count, size_t stride_bytes,
                               const uint32_t *indices, size_t triangle_count);
RP_API void     rp_mesh_destroy(rp_mesh *m);
RP_API size_t   rp_mesh_triangle_count(const rp_mesh *m);
RP_API bool     rp_mesh_bounds(const rp_mesh *m, rp_aabb *out);

RP_API bool   rp_intersect_ray_mesh(const rp_mesh *m, const rp_ray *ray, rp_hit *out,
                                    rp_triangle_hit *tri);
RP_API size_t rp_intersect_ray_mesh_all(const rp_mesh *m, const rp_ray *ray, rp_hit *hits,
                                        rp_triangle_hit *tris, size_t max_hits);
RP_API bool   rp_test_ray_mesh(const rp_mesh *m, const rp_ray *ray, float t_max);
RP_API bool   rp_intersect_ray_mesh_instance(const rp_mesh *m, mat4 model, const rp_ray *ray,
                                             rp_hit *out, rp_triangle_hit *tri);

#ifdef __cplusplus
}
#endif

#endif /* RAYPICK_MESH_H */

/*
 * raypick/scene.h: many objects (spheres, ellipsoids, boxes, mesh
 * instances) under one BVH, refitted or rebuilt when they move.
 *
 * (Declarations of the round-2 contract; the implementation and the full
 * documentation are being written in src/lib/scene.c.)
 */
#ifndef RAYPICK_SCENE_H
#define RAYPICK_SCENE_H

#include "ray.h"
#include "sphere.h"
#include "ellipsoid.h"
#include "box.h"
#include "mesh.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rp_scene rp_scene;

RP_API rp_scene *rp_scene_create(void);
RP_API void      rp_scene_destroy(rp_scene *s);

RP_API int  rp_scene_add_sphere(rp_scene *s, const rp_sphere *sphere);
RP_API int  rp_scene_add_ellipsoid(rp_scene *s, const rp_ellipsoid *e);
RP_API int  rp_scene_add_aabb(rp_scene *s, const rp_aabb *box);
RP_API int  rp_scene_add_obb(rp_scene *s, const rp_obb *box);
RP_API int  rp_scene_add_mesh(rp_scene *s, const rp_mesh *m, mat4 model);

RP_API bool rp_scene_set_sphere(rp_scene *s, int index, const rp_sphere *sphere);
RP_API bool rp_scene_set_ellipsoid(rp_scene *s, int index, const rp_ellipsoid *e);
RP_API bool rp_scene_set_aabb(rp_scene *s, int index, const rp_aabb *box);
RP_API bool rp_scene_set_obb(rp_scene *s, int index, const rp_obb *box);
RP_API bool rp_scene_set_mesh_model(rp_scene *s, int index, mat4 model);

RP_API bool rp_scene_build(rp_scene *s);
RP_API int  rp_intersect_ray_scene(const rp_scene *s, const rp_ray *ray, rp_hit *out,
                                   rp_triangle_hit *tri);

#ifdef __cplusplus
}
#endif

#endif /* RAYPICK_SCENE_H */

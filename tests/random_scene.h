/* random_scene.h: a scene's objects as plain data, for the tests, the fuzz
   target and the bench that hold rp_scene against a loop over every
   object's own ray function (tests/test_scene.c, test_bvh_reference.c,
   fuzz/fuzz_scene.c, bench/bench_scene.c): one object of any kind, adding
   and moving it in a scene, its own ray function, the loop's nearest hit,
   a closed cube for mesh instances, and the xorshift generator their
   random scenes and rays come from (and tests/web/wasm_paths.c's and
   bench/bench_wasm.c's). Header-only; cglm and raypick only. */
#ifndef RAYPICK_RANDOM_SCENE_H
#define RAYPICK_RANDOM_SCENE_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <raypick/raypick.h>

/* ---- the generator: xorshift64, 53-bit uniform doubles ---------------- */

typedef struct rs_rng {
    uint64_t s;     /* the state: any value but 0 */
} rs_rng;

/* uniform in [lo, hi) */
static inline double rs_uniform(rs_rng *r, double lo, double hi)
{
    r->s ^= r->s << 13;
    r->s ^= r->s >> 7;
    r->s ^= r->s << 17;
    return lo + (hi - lo) * ((double)(r->s >> 11) * (1.0 / 9007199254740992.0));
}

/* A ray from a random point of the sphere of radius 2r around the origin
   towards a random point of the cube [-r, r]^3 (t = 1 there). */
static inline rp_ray rs_ray_towards(rs_rng *g, double r)
{
    const double th = rs_uniform(g, 0.0, 6.283185307179586), z = rs_uniform(g, -1.0, 1.0);
    const double s = sqrt(1.0 - z * z);
    const double o[3] = {2.0 * r * s * cos(th), 2.0 * r * s * sin(th), 2.0 * r * z};
    rp_ray ray;
    for (int a = 0; a < 3; a++) {
        ray.origin[a] = (float)o[a];
        ray.dir[a] = (float)(rs_uniform(g, -r, r) - o[a]);
    }
    return ray;
}

/* ---- objects ---------------------------------------------------------- */

typedef enum rs_kind { RS_SPHERE, RS_ELLIPSOID, RS_AABB, RS_OBB, RS_MESH, RS_KINDS } rs_kind;

/* One object; which member holds it follows kind (model: a mesh instance's
   model matrix, of the mesh the functions below are given). */
typedef struct rs_object {
    rs_kind kind;
    union {
        rp_sphere    sphere;
        rp_ellipsoid ellipsoid;
        rp_aabb      aabb;
        rp_obb       obb;
        mat4         model;
    };
} rs_object;

/* rp_scene_add_* of the object's kind: its index, or -1. */
static inline int rs_add(rp_scene *s, const rp_mesh *mesh, const rs_object *o)
{
    switch (o->kind) {
    case RS_SPHERE: return rp_scene_add_sphere(s, &o->sphere);
    case RS_ELLIPSOID: return rp_scene_add_ellipsoid(s, &o->ellipsoid);
    case RS_AABB: return rp_scene_add_aabb(s, &o->aabb);
    case RS_OBB: return rp_scene_add_obb(s, &o->obb);
    default: return rp_scene_add_mesh(s, mesh, (vec4 *)o->model);
    }
}

/* rp_scene_set_* of the object's kind. */
static inline bool rs_set(rp_scene *s, int index, const rs_object *o)
{
    switch (o->kind) {
    case RS_SPHERE: return rp_scene_set_sphere(s, index, &o->sphere);
    case RS_ELLIPSOID: return rp_scene_set_ellipsoid(s, index, &o->ellipsoid);
    case RS_AABB: return rp_scene_set_aabb(s, index, &o->aabb);
    case RS_OBB: return rp_scene_set_obb(s, index, &o->obb);
    default: return rp_scene_set_mesh_model(s, index, (vec4 *)o->model);
    }
}

/* The object's own ray function (tri: a mesh instance's triangle; may be NULL). */
static inline bool rs_hit(const rp_ray *ray, const rp_mesh *mesh, const rs_object *o, rp_hit *h,
                          rp_triangle_hit *tri)
{
    switch (o->kind) {
    case RS_SPHERE: return rp_intersect_ray_sphere(ray, &o->sphere, h);
    case RS_ELLIPSOID: return rp_intersect_ray_ellipsoid(ray, &o->ellipsoid, h);
    case RS_AABB: return rp_intersect_ray_aabb(ray, &o->aabb, h);
    case RS_OBB: return rp_intersect_ray_obb(ray, &o->obb, h);
    default: return rp_intersect_ray_mesh_instance(mesh, (vec4 *)o->model, ray, h, tri);
    }
}

/* The loop the scene must agree with: the object hit at the smallest t, the
   lowest index on equal t, or -1. On a hit *out (may be NULL) is that
   object's rp_hit and, for a mesh instance, *tri (may be NULL) its
   triangle; on a miss both are untouched. */
static inline int rs_nearest(const rp_ray *ray, const rp_mesh *mesh, const rs_object *objs, int n,
                             rp_hit *out, rp_triangle_hit *tri)
{
    int best = -1;
    rp_hit best_hit;
    rp_triangle_hit best_tri;
    for (int i = 0; i < n; i++) {
        rp_hit h;
        rp_triangle_hit th;
        if (rs_hit(ray, mesh, &objs[i], &h, &th) && (best < 0 || h.t < best_hit.t)) {
            best = i;
            best_hit = h;
            best_tri = th;
        }
    }
    if (best >= 0 && out != NULL)
        *out = best_hit;
    if (best >= 0 && tri != NULL && objs[best].kind == RS_MESH)
        *tri = best_tri;
    return best;
}

/* The object's centre (a mesh instance's: its model's translation). */
static inline void rs_center(const rs_object *o, vec3 c)
{
    switch (o->kind) {
    case RS_SPHERE: glm_vec3_copy((float *)o->sphere.center, c); break;
    case RS_ELLIPSOID: glm_vec3_copy((float *)o->ellipsoid.center, c); break;
    case RS_AABB: glm_vec3_center((float *)o->aabb.min, (float *)o->aabb.max, c); break;
    case RS_OBB: glm_vec3_copy((float *)o->obb.center, c); break;
    default: glm_vec3_copy((float *)o->model[3], c); break;
    }
}

/* A closed cube [-1, 1]^3 of 12 triangles, outward faces counter-clockwise
   (NULL when out of memory). */
static inline rp_mesh *rs_cube_mesh(void)
{
    static const float v[8][3] = {{-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, 1, -1},
                                  {-1, -1, 1},  {1, -1, 1},  {1, 1, 1},  {-1, 1, 1}};
    static const uint32_t idx[36] = {0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4,
                                     2, 3, 7, 2, 7, 6, 1, 2, 6, 1, 6, 5, 0, 4, 7, 0, 7, 3};
    return rp_mesh_create(&v[0][0], 8, 0, idx, 12);
}

#endif /* RAYPICK_RANDOM_SCENE_H */

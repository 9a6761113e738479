/* query_objects.h: an object of any kind rp_scene holds, thin ones and
   layer masks included, as plain data, for the test and the fuzz target
   that hold the scene's filtered queries against a loop over every
   object's own function (tests/test_scene_query.c,
   fuzz/fuzz_scene_query.c): adding and moving it in a scene, its own ray
   function, its own frustum test for each select mode, and the hit
   comparison. Header-only; cglm and raypick only. (random_scene.h is the
   same for the solid kinds alone, with rp_intersect_ray_scene.) */
#ifndef RAYPICK_QUERY_OBJECTS_H
#define RAYPICK_QUERY_OBJECTS_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cglm/cglm.h>
#include <raypick/raypick.h>

#define QO_MAX_LINE 6

typedef enum qo_kind {
    QO_SPHERE, QO_ELLIPSOID, QO_AABB, QO_OBB, QO_MESH,
    QO_POINT, QO_SEGMENT, QO_POLYLINE,      /* the thin ones: QO_POINT and after */
    QO_KINDS
} qo_kind;

/* One object; the members its kind names hold it (mesh and model: a mesh
   instance; pts: a point's pts[0], a segment's pts[0..1], a polyline's
   npts; tol: a thin object's own tolerance). mask: its layers, as set
   with rp_scene_set_mask (all of them until then). */
typedef struct qo_object {
    qo_kind kind;
    uint32_t mask;
    rp_sphere sphere;
    rp_ellipsoid ellipsoid;
    rp_aabb aabb;
    rp_obb obb;
    const rp_mesh *mesh;
    mat4 model;
    float pts[QO_MAX_LINE][3];
    size_t npts;
    rp_thin_tolerance tol;
} qo_object;

/* Adds o to s: its index, -1 where the scene refuses it. */
static inline int qo_add(rp_scene *s, const qo_object *o)
{
    switch (o->kind) {
    case QO_SPHERE: return rp_scene_add_sphere(s, &o->sphere);
    case QO_ELLIPSOID: return rp_scene_add_ellipsoid(s, &o->ellipsoid);
    case QO_AABB: return rp_scene_add_aabb(s, &o->aabb);
    case QO_OBB: return rp_scene_add_obb(s, &o->obb);
    case QO_MESH: return rp_scene_add_mesh(s, o->mesh, (vec4 *)o->model);
    case QO_POINT: return rp_scene_add_point(s, o->pts[0], &o->tol);
    case QO_SEGMENT: return rp_scene_add_segment(s, o->pts[0], o->pts[1], &o->tol);
    default: return rp_scene_add_polyline(s, &o->pts[0][0], o->npts, 0, &o->tol);
    }
}

/* Moves object i of s to o (same kind; a mesh instance keeps its mesh). */
static inline bool qo_set(rp_scene *s, int i, const qo_object *o)
{
    switch (o->kind) {
    case QO_SPHERE: return rp_scene_set_sphere(s, i, &o->sphere);
    case QO_ELLIPSOID: return rp_scene_set_ellipsoid(s, i, &o->ellipsoid);
    case QO_AABB: return rp_scene_set_aabb(s, i, &o->aabb);
    case QO_OBB: return rp_scene_set_obb(s, i, &o->obb);
    case QO_MESH: return rp_scene_set_mesh_model(s, i, (vec4 *)o->model);
    case QO_POINT: return rp_scene_set_point(s, i, o->pts[0], &o->tol);
    case QO_SEGMENT: return rp_scene_set_segment(s, i, o->pts[0], o->pts[1], &o->tol);
    default: return rp_scene_set_polyline(s, i, &o->pts[0][0], o->npts, 0, &o->tol);
    }
}

/* The rp_hit of a thin object's closest approach, as scene.h defines it
   (the normal from the object to the ray, or against the ray where they
   meet). */
static inline void qo_thin_as_hit(const rp_ray *ray, const rp_thin_hit *th, rp_hit *out)
{
    out->t = out->t_enter = out->t_exit = th->t;
    glm_vec3_copy((float *)th->ray_point, out->point);
    double gap[3], len = 0.0;
    for (int c = 0; c < 3; c++) {
        gap[c] = (double)th->ray_point[c] - th->point[c];
        len += gap[c] * gap[c];
    }
    if (!(len > 0.0))
        for (int c = 0; c < 3; c++) {
            gap[c] = -(double)ray->dir[c];
            len += gap[c] * gap[c];
        }
    len = sqrt(len);
    for (int c = 0; c < 3; c++)
        out->normal[c] = (float)(gap[c] / len);
    out->inside = false;
}

/* Object o's own ray function (a thin one with its tolerance plus the
   query's, add): hit or not, and its records (tri: a mesh's; thin: a thin
   object's). */
static inline bool qo_hit(const rp_ray *ray, const qo_object *o, const rp_thin_tolerance *add,
                          rp_hit *h, rp_triangle_hit *tri, rp_thin_hit *thin)
{
    const rp_thin_tolerance tol = {o->tol.world + add->world, o->tol.per_t + add->per_t};
    bool hit;
    switch (o->kind) {
    case QO_SPHERE: return rp_intersect_ray_sphere(ray, &o->sphere, h);
    case QO_ELLIPSOID: return rp_intersect_ray_ellipsoid(ray, &o->ellipsoid, h);
    case QO_AABB: return rp_intersect_ray_aabb(ray, &o->aabb, h);
    case QO_OBB: return rp_intersect_ray_obb(ray, &o->obb, h);
    case QO_MESH: return rp_intersect_ray_mesh_instance(o->mesh, (vec4 *)o->model, ray, h, tri);
    case QO_POINT: hit = rp_intersect_ray_point(ray, o->pts[0], &tol, thin); break;
    case QO_SEGMENT: hit = rp_intersect_ray_segment(ray, o->pts[0], o->pts[1], &tol, thin); break;
    default: hit = rp_intersect_ray_polyline(ray, &o->pts[0][0], o->npts, 0, &tol, thin); break;
    }
    if (hit)
        qo_thin_as_hit(ray, thin, h);
    return hit;
}

/* Object o's own frustum test for a query's select mode. */
static inline bool qo_selected(const rp_frustum *f, const qo_object *o, rp_scene_select mode)
{
    const bool meets = mode == RP_SELECT_MEETS, inside = mode == RP_SELECT_INSIDE;
    switch (o->kind) {
    case QO_SPHERE:
        return meets ? rp_test_frustum_sphere_exact(f, &o->sphere)
               : inside ? rp_frustum_contains_sphere(f, &o->sphere)
                        : rp_test_frustum_sphere_conservative(f, &o->sphere);
    case QO_ELLIPSOID:
        return meets ? rp_test_frustum_ellipsoid_exact(f, &o->ellipsoid)
               : inside ? rp_frustum_contains_ellipsoid(f, &o->ellipsoid)
                        : rp_test_frustum_ellipsoid_conservative(f, &o->ellipsoid);
    case QO_AABB:
        return meets ? rp_test_frustum_aabb_exact(f, &o->aabb)
               : inside ? rp_frustum_contains_aabb(f, &o->aabb)
                        : rp_test_frustum_aabb_conservative(f, &o->aabb);
    case QO_OBB:
        return meets ? rp_test_frustum_obb_exact(f, &o->obb)
               : inside ? rp_frustum_contains_obb(f, &o->obb)
                        : rp_test_frustum_obb_conservative(f, &o->obb);
    case QO_MESH:
        return meets ? rp_test_frustum_mesh_instance_exact(f, o->mesh, (vec4 *)o->model)
               : inside ? rp_frustum_contains_mesh_instance(f, o->mesh, (vec4 *)o->model)
                        : rp_test_frustum_mesh_instance_conservative(f, o->mesh, (vec4 *)o->model);
    case QO_POINT:
        return rp_frustum_contains_point(f, o->pts[0]);
    case QO_SEGMENT:
        return inside ? rp_frustum_contains_polyline(f, &o->pts[0][0], 2, 0)
                      : rp_test_frustum_segment(f, o->pts[0], o->pts[1]);
    default:
        return inside ? rp_frustum_contains_polyline(f, &o->pts[0][0], o->npts, 0)
                      : rp_test_frustum_polyline(f, &o->pts[0][0], o->npts, 0, NULL);
    }
}

/* The layers a query takes (0: all of them). */
static inline uint32_t qo_layers_of(const rp_scene_query *q)
{
    return q->layers != 0 ? q->layers : UINT32_MAX;
}

/* The same hit to the bit. */
static inline bool qo_same_hit(const rp_hit *a, const rp_hit *b)
{
    return a->t == b->t && a->t_enter == b->t_enter && a->t_exit == b->t_exit &&
           memcmp(a->point, b->point, sizeof a->point) == 0 &&
           memcmp(a->normal, b->normal, sizeof a->normal) == 0 && a->inside == b->inside;
}

#endif /* RAYPICK_QUERY_OBJECTS_H */

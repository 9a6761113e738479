/* shape_bounds.c: sphere, AABB and OBB of the renderer's shapes, and their
   triangles, for lesson 1's false-positive count. */
#include "shape_bounds.h"

#include <float.h>
#include <string.h>

const char *bound_volume_name(bound_volume v)
{
    switch (v) {
    case BOUND_SPHERE: return "sphere";
    case BOUND_AABB: return "AABB";
    case BOUND_OBB: return "OBB";
    default: return "?";
    }
}

void shape_bounds_free(shape_bounds *b)
{
    for (int k = 0; k < SHAPE_BOUNDS_KINDS; ++k) {
        rp_mesh_destroy(b->mesh[k]);
        geo_free(&b->geometry[k]);
    }
    memset(b, 0, sizeof *b);
}

bool shape_bounds_init(shape_bounds *b)
{
    memset(b, 0, sizeof *b);
    for (int k = 0; k < SHAPE_BOUNDS_KINDS; ++k) {
        geo_mesh *g = &b->geometry[k];
        /* geo_vertex starts with its position: the library reads it in place */
        bool ok = geo_shape(k, g) &&
                  (b->mesh[k] = rp_mesh_create(g->vertices[0].position, (size_t)g->vertex_count,
                                               sizeof(geo_vertex), g->indices, (size_t)g->index_count / 3)) &&
                  rp_sphere_from_points(g->vertices[0].position, (size_t)g->vertex_count, sizeof(geo_vertex),
                                        &b->sphere[k]) &&
                  rp_aabb_from_points(g->vertices[0].position, (size_t)g->vertex_count, sizeof(geo_vertex),
                                      &b->box[k]);
        if (!ok) {
            shape_bounds_free(b);
            return false;
        }
    }
    return true;
}

static bool kind_ok(const shape_bounds *b, const shape_placement *p)
{
    return b && p && p->kind >= 0 && p->kind < SHAPE_BOUNDS_KINDS && b->mesh[p->kind];
}

static void model_matrix(const shape_placement *p, mat4 out)
{
    glm_translate_make(out, (float *)p->position);
    if (glm_vec4_norm2((float *)p->rotation) > 0.0f)    /* all zeros: not turned */
        glm_quat_rotate(out, (float *)p->rotation, out);
    glm_scale_uni(out, p->scale);
}

bool shape_bounds_sphere(const shape_bounds *b, const shape_placement *p, rp_sphere *out)
{
    if (!kind_ok(b, p))
        return false;
    mat4 m;
    model_matrix(p, m);
    glm_mat4_mulv3(m, (float *)b->sphere[p->kind].center, 1.0f, out->center);
    out->radius = b->sphere[p->kind].radius * p->scale;
    return true;
}

/* The box around the turned vertices: it changes as the object turns
   (what a world-space AABB costs: every vertex, every time). */
bool shape_bounds_aabb(const shape_bounds *b, const shape_placement *p, rp_aabb *out)
{
    if (!kind_ok(b, p))
        return false;
    mat4 m;
    model_matrix(p, m);
    const geo_mesh *g = &b->geometry[p->kind];
    vec3 lo = {FLT_MAX, FLT_MAX, FLT_MAX}, hi = {-FLT_MAX, -FLT_MAX, -FLT_MAX};
    for (int i = 0; i < g->vertex_count; ++i) {
        vec3 w;
        glm_mat4_mulv3(m, (float *)g->vertices[i].position, 1.0f, w);
        glm_vec3_minv(lo, w, lo);
        glm_vec3_maxv(hi, w, hi);
    }
    glm_vec3_copy(lo, out->min);
    glm_vec3_copy(hi, out->max);
    return true;
}

bool shape_bounds_obb(const shape_bounds *b, const shape_placement *p, rp_obb *out)
{
    if (!kind_ok(b, p))
        return false;
    const rp_aabb *box = &b->box[p->kind];
    vec3 mid, half;
    glm_vec3_add((float *)box->min, (float *)box->max, mid);
    glm_vec3_scale(mid, 0.5f, mid);
    glm_vec3_sub((float *)box->max, (float *)box->min, half);
    glm_vec3_scale(half, 0.5f * p->scale, half);
    mat4 m;
    model_matrix(p, m);
    glm_mat4_mulv3(m, mid, 1.0f, out->center);
    glm_vec3_copy(half, out->half_extents);
    glm_vec4_copy((float *)p->rotation, out->orientation);     /* zeros: axis-aligned, as rp_obb's */
    return true;
}

bool shape_bounds_hit_volume(const shape_bounds *b, const shape_placement *p, bound_volume v,
                             const rp_ray *ray, rp_hit *hit)
{
    rp_sphere s;
    rp_aabb a;
    rp_obb o;
    switch (v) {
    case BOUND_SPHERE: return shape_bounds_sphere(b, p, &s) && rp_intersect_ray_sphere(ray, &s, hit);
    case BOUND_AABB: return shape_bounds_aabb(b, p, &a) && rp_intersect_ray_aabb(ray, &a, hit);
    case BOUND_OBB: return shape_bounds_obb(b, p, &o) && rp_intersect_ray_obb(ray, &o, hit);
    default: return false;
    }
}

bool shape_bounds_hit_mesh(const shape_bounds *b, const shape_placement *p, const rp_ray *ray, rp_hit *hit)
{
    if (!kind_ok(b, p))
        return false;
    mat4 m;
    model_matrix(p, m);
    return rp_intersect_ray_mesh_instance(b->mesh[p->kind], m, ray, hit, NULL);
}

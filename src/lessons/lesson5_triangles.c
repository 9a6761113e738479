/*
 * Lesson 5: picking triangles (the DirectX SDK's Pick sample).
 *
 * The sample shows a mesh in a model-viewer camera; a click builds the pick
 * ray from the projection's _11/_22 (rp_pick_ray_perspective), takes it
 * into the mesh's own space through inverse(world * view) and asks
 * D3DXIntersect for the nearest triangle (or, with "Show All Hits", every
 * one), then draws the hit triangles and prints each one's face index,
 * barycentrics (fBary1, fBary2), distance and texture coordinates tu/tv
 * interpolated from them. Here the mesh is a torus knot (torus_knot.h) or a
 * user's model (--mesh), the library's BVH answers
 * (rp_intersect_ray_mesh_instance: the model matrix is the sample's world
 * matrix), and B shows what a bounding sphere alone would say: a click in
 * the knot's hole hits the sphere and misses every triangle.
 *
 * Keys: A all hits (F5 in the sample), B bounding sphere only, S spin the
 * model (the model-viewer camera's world rotation).
 */
#include "lesson.h"
#include "steady_math.h"
#include "msg.h"

#include <stdlib.h>
#include <string.h>

#include "mesh_data.h"
#include "torus_knot.h"

#define LESSON5_MAX_HITS 16         /* the sample's MAX_INTERSECTIONS */
#define LESSON5_LANDMARKS 12        /* faces --print-layout names for tests */
#define LESSON5_MODEL_RADIUS 1.5f   /* a --mesh model is fitted to this */

typedef struct tri_pick {
    uint32_t face;
    float u, v;             /* fBary1, fBary2 */
    float t;                /* in units of the pick ray's dir (unit: distance) */
    float tu, tv;
    vec3  point;
} tri_pick;

typedef struct lesson5 {
    mesh_data mesh;
    render_mesh_data draw_mesh;     /* what the renderer uploads (points into mesh) */
    rp_mesh *bvh;
    rp_sphere bound;                /* model space, rp_sphere_from_points */
    bool knot;                      /* the procedural model: it has a hole at its origin */
    vec3 position;
    float angle, tilt;              /* the world matrix: turn about y, tilt about x */
    bool spinning;
    bool all_hits;
    bool sphere_only;
    /* the last click */
    bool has_ray;
    rp_ray ray;
    int hit_count;                  /* kept (<= LESSON5_MAX_HITS) */
    int hit_total;                  /* found */
    tri_pick hits[LESSON5_MAX_HITS];
    bool sphere_hit;
    vec3 sphere_point;
    bool false_positive;            /* the sphere says yes, the triangles no */
} lesson5;

/* ------------------------------------------------------------ create */

static bool copy_mesh(const mesh_data *src, mesh_data *dst)
{
    dst->vertices = malloc(src->vertex_count * sizeof *dst->vertices);
    dst->indices = malloc(3 * src->triangle_count * sizeof *dst->indices);
    if (!dst->vertices || !dst->indices) {
        mesh_data_free(dst);
        return false;
    }
    memcpy(dst->vertices, src->vertices, src->vertex_count * sizeof *dst->vertices);
    memcpy(dst->indices, src->indices, 3 * src->triangle_count * sizeof *dst->indices);
    dst->vertex_count = src->vertex_count;
    dst->triangle_count = src->triangle_count;
    return true;
}

static void destroy(void *self_)
{
    lesson5 *self = self_;
    if (!self)
        return;
    rp_mesh_destroy(self->bvh);
    mesh_data_free(&self->mesh);
    free(self);
}

static void *create(const lesson_env *env)
{
    lesson5 *self = calloc(1, sizeof *self);
    if (!self) {
        snprintf(env->err, env->err_size, "out of memory");
        return NULL;
    }
    bool ok = env->mesh ? copy_mesh(env->mesh, &self->mesh) : torus_knot_build(NULL, &self->mesh);
    self->knot = !env->mesh;
    if (ok && env->mesh)
        ok = mesh_data_fit(&self->mesh, LESSON5_MODEL_RADIUS);
    /* the library reads the positions in place: D3DVERTEX's 32-byte stride */
    if (ok)
        self->bvh = rp_mesh_create(self->mesh.vertices[0].p, self->mesh.vertex_count, sizeof(mesh_vertex),
                                   self->mesh.indices, self->mesh.triangle_count);
    ok = ok && self->bvh &&
         rp_sphere_from_points(self->mesh.vertices[0].p, self->mesh.vertex_count, sizeof(mesh_vertex),
                               &self->bound);
    if (!ok) {
        snprintf(env->err, env->err_size, "cannot build the mesh (out of memory or invalid positions)");
        destroy(self);
        return NULL;
    }
    /* the knot is closed and wound outward; a user's model may be neither */
    self->draw_mesh = (render_mesh_data){self->mesh.vertices, self->mesh.vertex_count, sizeof(mesh_vertex),
                                         self->mesh.indices, self->mesh.triangle_count, !self->knot};
    glm_vec3_copy((vec3){0.0f, 1.7f, 0.0f}, self->position);
    self->angle = 0.35f;
    self->tilt = -0.25f;
    return self;
}

/* The sample's world matrix. */
static void world_matrix(const lesson5 *self, mat4 out)
{
    glm_translate_make(out, (float *)self->position);
    steady_rotate(out, self->angle, (vec3){0.0f, 1.0f, 0.0f});
    steady_rotate(out, self->tilt, (vec3){1.0f, 0.0f, 0.0f});
}

static void world_sphere(const lesson5 *self, rp_sphere *out)
{
    mat4 m;
    world_matrix(self, m);
    glm_mat4_mulv3(m, (float *)self->bound.center, 1.0f, out->center);
    out->radius = self->bound.radius;     /* the world matrix does not scale */
}

/* ------------------------------------------------------------ update */

static void update(void *self_, float dt)
{
    lesson5 *self = self_;
    if (self->spinning)
        self->angle += 0.5f * dt;
}

static bool key(void *self_, char k)
{
    lesson5 *self = self_;
    switch (k) {
    case 'a': self->all_hits = !self->all_hits; return true;
    case 'b': self->sphere_only = !self->sphere_only; return true;
    case 's': self->spinning = !self->spinning; return true;
    default: return false;
    }
}

static lesson_method method(const void *self)
{
    (void)self;
    return LESSON_PICK_D3D9;    /* the sample's _11/_22 ray */
}

/* ------------------------------------------------------------ click */

/* The sample's texture coordinates at a hit: tu0 + u (tu1 - tu0) + v (tu2 - tu0). */
static void interpolate_uv(const lesson5 *self, tri_pick *p)
{
    const uint32_t *idx = &self->mesh.indices[3 * (size_t)p->face];
    const mesh_vertex *a = &self->mesh.vertices[idx[0]], *b = &self->mesh.vertices[idx[1]],
                      *c = &self->mesh.vertices[idx[2]];
    p->tu = a->tu + p->u * (b->tu - a->tu) + p->v * (c->tu - a->tu);
    p->tv = a->tv + p->u * (b->tv - a->tv) + p->v * (c->tv - a->tv);
}

static void keep_hit(lesson5 *self, const rp_hit *h, const rp_triangle_hit *t)
{
    tri_pick *p = &self->hits[self->hit_count++];
    p->face = t->triangle;
    p->u = t->u;
    p->v = t->v;
    p->t = h->t;
    glm_vec3_copy((float *)h->point, p->point);
    interpolate_uv(self, p);
}

/* Every hit, nearest first: the ray taken into model space (as the sample
   does); an affine map keeps the ray parameter, so t is the world ray's t. */
static void pick_all(lesson5 *self, const rp_ray *world_ray, mat4 world)
{
    mat4 inv;
    glm_mat4_inv(world, inv);
    rp_ray model_ray;
    rp_hit hits[LESSON5_MAX_HITS];
    rp_triangle_hit tris[LESSON5_MAX_HITS];
    if (!rp_ray_transform(world_ray, inv, &model_ray))
        return;
    size_t total = rp_intersect_ray_mesh_all(self->bvh, &model_ray, hits, tris, LESSON5_MAX_HITS);
    self->hit_total = (int)total;
    for (size_t i = 0; i < total && i < LESSON5_MAX_HITS; ++i) {
        rp_ray_at(world_ray, hits[i].t, hits[i].point);     /* world point */
        keep_hit(self, &hits[i], &tris[i]);
    }
}

static void report(const lesson5 *self, lesson_pick *out)
{
    int faces[LESSON5_MAX_HITS];
    for (int i = 0; i < self->hit_count; ++i)
        faces[i] = (int)self->hits[i].face;
    if (self->hit_count > 0) {
        const tri_pick *p = &self->hits[0];
        lesson_pick_int(out, "face", (int)p->face);
        lesson_pick_float(out, "u", p->u, 7);
        lesson_pick_float(out, "v", p->v, 7);
        lesson_pick_float(out, "tu", p->tu, 7);
        lesson_pick_float(out, "tv", p->tv, 7);
    }
    lesson_pick_ints(out, "hits", faces, self->hit_count);
    lesson_pick_bool(out, "sphere_hit", self->sphere_hit);
    lesson_pick_bool(out, "false_positive", self->false_positive);
}

static void click(void *self_, const lesson_click *c, lesson_pick *out)
{
    lesson5 *self = self_;
    lesson_pick_miss(out, &c->ray, self->all_hits ? "mesh-all" : "mesh");
    self->has_ray = true;
    self->ray = c->ray;
    self->hit_count = self->hit_total = 0;
    mat4 world;
    world_matrix(self, world);

    rp_sphere s;
    rp_hit sh;
    world_sphere(self, &s);
    self->sphere_hit = rp_intersect_ray_sphere(&c->ray, &s, &sh);
    if (self->sphere_hit)
        glm_vec3_copy(sh.point, self->sphere_point);

    if (self->all_hits) {
        pick_all(self, &c->ray, world);
    } else {
        rp_hit h;
        rp_triangle_hit t;
        if (rp_intersect_ray_mesh_instance(self->bvh, world, &c->ray, &h, &t)) {
            keep_hit(self, &h, &t);
            self->hit_total = 1;
        }
    }
    self->false_positive = self->sphere_hit && self->hit_count == 0;
    report(self, out);
    if (self->sphere_only) {
        /* what a bounding-sphere test alone answers (lessons 1-3) */
        snprintf(out->method, sizeof out->method, "sphere");
        if (self->sphere_hit) {
            out->hit = true;
            out->id = -1;
            snprintf(out->what, sizeof out->what, "%s", self->false_positive ? "sphere (false positive)" : "sphere");
            out->t = sh.t;
            glm_vec3_copy(sh.point, out->point);
        }
        snprintf(out->note, sizeof out->note, "%s", self->false_positive
                 ? "the sphere says hit, no triangle is: a false positive" : "");
        return;
    }
    if (self->hit_count == 0)
        return;
    const tri_pick *p = &self->hits[0];
    out->hit = true;
    out->id = (int)p->face;
    snprintf(out->what, sizeof out->what, "face %u", (unsigned)p->face);
    out->t = p->t;
    glm_vec3_copy((float *)p->point, out->point);
    snprintf(out->note, sizeof out->note, "u %.3f  v %.3f  tu %.3f  tv %.3f", (double)p->u, (double)p->v,
             (double)p->tu, (double)p->tv);
}

/* ------------------------------------------------------------ draw */

static void draw(const void *self_, render_list *list)
{
    const lesson5 *self = self_;
    mat4 world;
    world_matrix(self, world);
    render_list_pick_id(list, 0);       /* triangle i writes id 0 + i in the GPU pass */
    render_list_mesh(list, &self->draw_mesh, world, (vec4){0.55f, 0.68f, 0.86f, 1.0f}, 4.0f);
    render_list_pick_id(list, -1);
    if (self->hit_count > 0) {
        uint32_t faces[LESSON5_MAX_HITS];
        for (int i = 0; i < self->hit_count; ++i)
            faces[i] = self->hits[i].face;
        /* the nearest in yellow, the others (all hits) in orange */
        render_list_mesh_highlight(list, &self->draw_mesh, world, faces, 1, (vec4){1.0f, 0.85f, 0.2f, 1.0f},
                                   (vec4){1.0f, 1.0f, 0.6f, 1.0f});
        if (self->hit_count > 1)
            render_list_mesh_highlight(list, &self->draw_mesh, world, faces + 1, (size_t)self->hit_count - 1,
                                       (vec4){1.0f, 0.45f, 0.15f, 1.0f}, (vec4){1.0f, 0.6f, 0.3f, 1.0f});
    }
    render_list_shadow(list, (vec3){self->position[0], 0.0f, self->position[2]}, 1.4f, 0.0f, 0.7f);
    render_list_grid(list, 0.0f);
    if (self->has_ray) {
        float len = self->hit_count > 0 ? self->hits[self->hit_count - 1].t + 0.5f : 30.0f;
        vec3 end;
        rp_ray_at(&self->ray, len, end);
        render_list_line(list, self->ray.origin, end, (vec4){1.0f, 0.9f, 0.4f, 0.9f});
        for (int i = 0; i < self->hit_count; ++i)
            render_list_point(list, self->hits[i].point, i == 0 ? 11.0f : 8.0f, (vec4){1.0f, 0.95f, 0.5f, 1.0f});
        if (self->sphere_only && self->sphere_hit)
            render_list_point(list, self->sphere_point, 11.0f, self->false_positive
                              ? (vec4){1.0f, 0.25f, 0.2f, 1.0f} : (vec4){0.4f, 0.8f, 1.0f, 1.0f});
    }
    if (self->sphere_only) {
        rp_sphere s;
        world_sphere(self, &s);
        render_list_glass_sphere(list, s.center, s.radius, self->false_positive
                                 ? (vec4){0.95f, 0.35f, 0.3f, 0.10f} : (vec4){0.35f, 0.55f, 0.85f, 0.07f});
    }
}

static void status(const void *self_, char *buf, size_t size)
{
    const lesson5 *self = self_;
    int n = snprintf(buf, size, msg("lesson.picking-triangles.status"), self->mesh.triangle_count,
                     msg(self->all_hits ? "lesson.picking-triangles.picks.all" : "lesson.picking-triangles.picks.nearest"),
                     msg(self->sphere_only ? "lesson.picking-triangles.test.sphere"
                                           : "lesson.picking-triangles.test.triangles"),
                     msg(self->spinning ? "word.on" : "word.off"));
    if (!self->has_ray || n < 0 || (size_t)n >= size)
        return;
    if (self->sphere_only || self->false_positive)
        n += snprintf(buf + n, size - (size_t)n, msg("lesson.picking-triangles.sphere"),
                      msg(self->sphere_hit ? "word.hit" : "word.miss"),
                      self->false_positive ? msg("lesson.picking-triangles.sphere.false_positive") : "");
    if (self->hit_count == 0 && n >= 0 && (size_t)n < size)
        n += snprintf(buf + n, size - (size_t)n, "%s", msg("lesson.picking-triangles.none"));
    for (int i = 0; i < self->hit_count && i < 6 && n >= 0 && (size_t)n < size; ++i) {
        const tri_pick *p = &self->hits[i];
        n += snprintf(buf + n, size - (size_t)n, msg("lesson.picking-triangles.face"), i ? "\n" : "",
                      (unsigned)p->face, (double)p->u, (double)p->v, (double)p->t, (double)p->tu, (double)p->tv);
    }
    if (self->hit_total > 6 && n >= 0 && (size_t)n < size)
        snprintf(buf + n, size - (size_t)n, msg("lesson.picking-triangles.more"), self->hit_total);
}

/* ------------------------------------------------------------ layout */

static void face_centroid(const lesson5 *self, uint32_t face, mat4 world, vec3 out, vec3 normal)
{
    const uint32_t *idx = &self->mesh.indices[3 * (size_t)face];
    vec3 p[3];
    for (int k = 0; k < 3; ++k)
        glm_mat4_mulv3(world, self->mesh.vertices[idx[k]].p, 1.0f, p[k]);
    glm_vec3_add(p[0], p[1], out);
    glm_vec3_add(out, p[2], out);
    glm_vec3_scale(out, 1.0f / 3.0f, out);
    vec3 e1, e2;
    glm_vec3_sub(p[1], p[0], e1);
    glm_vec3_sub(p[2], p[0], e2);
    glm_vec3_cross(e1, e2, normal);
    glm_vec3_normalize(normal);
}

/* Faces the camera sees squarely, spread over the mesh: the ray from the
   eye to each one's centroid must find that face first. Tests click them. */
static int landmarks(const lesson5 *self, const vec3 eye, lesson_object *out, int cap)
{
    mat4 world;
    world_matrix(self, world);
    int n = 0;
    size_t count = self->mesh.triangle_count, step = count / 97 + 1;
    for (size_t f = step / 2; f < count && n < LESSON5_LANDMARKS; f += step) {
        vec3 c, normal, dir;
        face_centroid(self, (uint32_t)f, world, c, normal);
        glm_vec3_sub(c, (float *)eye, dir);
        rp_ray ray;
        glm_vec3_copy((float *)eye, ray.origin);
        glm_vec3_copy(dir, ray.dir);
        glm_vec3_normalize(dir);
        rp_hit h;
        rp_triangle_hit t;
        if (fabsf(glm_vec3_dot(dir, normal)) < 0.7f ||
            !rp_intersect_ray_mesh_instance(self->bvh, world, &ray, &h, &t) || t.triangle != f)
            continue;
        if (n < cap) {
            out[n].id = (int)f;
            snprintf(out[n].name, sizeof out[n].name, "face %u", (unsigned)f);
            out[n].kind = LESSON_OBJECT_POINT;
            glm_vec3_copy(c, out[n].shape.point.center);
        }
        ++n;
    }
    return n;
}

static int objects(const void *self_, const vec3 eye, lesson_object *out, int cap)
{
    const lesson5 *self = self_;
    int n = 0;
    if (n < cap) {
        out[n].id = -1;
        snprintf(out[n].name, sizeof out[n].name, "bounding sphere");
        out[n].kind = LESSON_OBJECT_SPHERE;
        world_sphere(self, &out[n].shape.sphere);
    }
    ++n;
    if (self->knot) {
        /* the middle of the knot's hole: inside the sphere, on no triangle */
        if (n < cap) {
            mat4 world;
            world_matrix(self, world);
            out[n].id = -2;
            snprintf(out[n].name, sizeof out[n].name, "hole");
            out[n].kind = LESSON_OBJECT_POINT;
            glm_mat4_mulv3(world, (vec3){0.0f, 0.0f, 0.0f}, 1.0f, out[n].shape.point.center);
        }
        ++n;
    }
    return n + landmarks(self, eye, n < cap ? out + n : out, n < cap ? cap - n : 0);
}

const lesson lesson5_triangles = {
    .number = 5,
    .camera = {{0.0f, 1.7f, 0.0f}, 0.0f, 0.12f, 4.6f, 0.7853982f},
    .create = create,
    .destroy = destroy,
    .update = update,
    .key = key,
    .method = method,
    .click = click,
    .draw = draw,
    .status = status,
    .objects = objects,
};

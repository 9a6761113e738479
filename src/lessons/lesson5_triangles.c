/*
 * Lesson 5: picking triangles (the DirectX SDK's Pick sample).
 *
 * The sample shows a mesh in a model-viewer camera; a click builds the pick
 * ray from the projection's _11/_22, takes it into the mesh's own space
 * through inverse(world * view) and asks D3DXIntersect for the nearest
 * triangle (or, with "Show All Hits", every one), or, without "Use
 * D3DXIntersect", tests every face with its own IntersectTriangle; then it
 * draws the hit triangles and gives each one's face index, barycentrics
 * (fBary1, fBary2), distance fDist and texture coordinates tu/tv
 * interpolated from them. Every click runs the sample's Pick, ported to C
 * under its names (listings/lesson5_pick_sample.c); D3DXIntersect there is
 * the library's BVH (rp_intersect_ray_mesh, _all). Its mistakes are kept
 * and shown: IntersectTriangle never checks t >= 0, so with the eye inside
 * the knot's loop the "nearest" face lies behind it, and its threshold
 * det < 0.0001 is absolute, so small slanted faces (the knot's thin
 * waists, near the outline) are missed. The mesh is a torus knot
 * (torus_knot.h) or a user's model (--mesh); B shows what a bounding
 * sphere alone would say: a click in the knot's hole hits the sphere and
 * misses every triangle.
 *
 * Keys: U D3DXIntersect / IntersectTriangle on every face (the sample's
 * F4), A all hits (F5), B bounding sphere only, S spin the model (the
 * model-viewer camera's world rotation), I counters. Step mode (P, then
 * '.' and ','): the listing's steps in the code panel, each triangle under
 * test framed close (Z frees the camera), and the triangle in its own
 * plane with the barycentrics in the inset. The tour (O): the sample's
 * case, its mistakes, the fix.
 */
#include "lesson.h"
#include "lesson5_pick_sample.h"
#include "steady_math.h"
#include "msg.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mesh_data.h"
#include "torus_knot.h"

#define LESSON5_MAX_HITS 16         /* the sample's MAX_INTERSECTIONS */
#define LESSON5_LANDMARKS 12        /* faces --print-layout names for tests */
#define LESSON5_MODEL_RADIUS 1.5f   /* a --mesh model is fitted to this */
#define STEP_CAP 256                /* >= the steps of a click: 6 a face hit (the loop), 16 texture steps */
#define LABEL_PX 16.0f
#define TEXT(id) msg("lesson.picking-triangles." id)
#define STEP_ID(name) "lesson.picking-triangles.step." name

typedef struct tri_pick {
    uint32_t face;
    float u, v;             /* fBary1, fBary2 */
    float t;                /* in units of the click's world ray's dir (unit: distance) */
    float fDist;            /* the sample's: in units of vPickRayDir */
    float tu, tv;
    vec3  point;
} tri_pick;

typedef struct lesson5 {
    mesh_data mesh;
    render_mesh_data draw_mesh;     /* what the renderer uploads (points into mesh) */
    render_mesh_data all_mesh;      /* every triangle: the highlights name faces of it */
    uint32_t *draw_faces;           /* a user model's draw subset (NULL: all; face of each) */
    uint32_t *draw_indices;         /* its indices */
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
    /* the sample's Pick as it ran on the last click (the listing) */
    bool loop;                      /* U: IntersectTriangle on every face, not D3DXIntersect */
    bool free_camera;               /* Z: step mode's camera stays the user's (zero: it frames the step) */
    bool counters;                  /* I: the counters line */
    lesson_stepper stepper;
    listing_trace trace;
    listing_step steps[STEP_CAP];
    int step_face[STEP_CAP];        /* the face each step is about, -1: none */
    mat4 click_world;               /* the world matrix at the click (S may turn the model on) */
    rp_ray model_ray;               /* vPickRayOrig, vPickRayDir */
    int faces_tested, rejected_det, rejected_u, rejected_v;
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
    free(self->draw_faces);
    free(self->draw_indices);
    free(self);
}

/* A user's model may be built to make frames endless (65,536 copies of
   one triangle, a million overlapping ones: minutes a frame in a software
   rasteriser): what is drawn is bounded (mesh_data_draw_subset), what is
   picked is every triangle. */
#define LESSON5_DRAW_MAX_TRIANGLES ((size_t)1 << 18)
#define LESSON5_DRAW_MAX_LAYERS 32.0

static bool limit_drawing(lesson5 *self)
{
    size_t count = 0;
    if (!mesh_data_draw_subset(&self->mesh, LESSON5_DRAW_MAX_TRIANGLES, LESSON5_DRAW_MAX_LAYERS,
                               &self->draw_indices, &count))
        return false;
    if (!self->draw_indices)
        return true;        /* all of it */
    /* the face each drawn triangle is, for the GPU pick's ids */
    self->draw_faces = malloc((count ? count : 1) * sizeof *self->draw_faces);
    if (!self->draw_faces)
        return false;
    for (size_t i = 0, f = 0; i < count; ++i) {
        while (memcmp(self->mesh.indices + 3 * f, self->draw_indices + 3 * i, 3 * sizeof(uint32_t)) != 0)
            ++f;
        self->draw_faces[i] = (uint32_t)f;
    }
    self->draw_mesh.indices = self->draw_indices;
    self->draw_mesh.triangle_count = count;
    return true;
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
    self->all_mesh = (render_mesh_data){self->mesh.vertices, self->mesh.vertex_count, sizeof(mesh_vertex),
                                        self->mesh.indices, self->mesh.triangle_count, !self->knot};
    self->draw_mesh = self->all_mesh;
    if (env->mesh && !limit_drawing(self)) {
        snprintf(env->err, env->err_size, "out of memory for the model's drawing");
        destroy(self);
        return NULL;
    }
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
    if (self->spinning && !self->stepper.on)     /* step mode holds the model still */
        self->angle += 0.5f * dt;
}

static bool key(void *self_, char k)
{
    lesson5 *self = self_;
    if (lesson_stepper_key(&self->stepper, k))
        return true;
    switch (k) {
    case 'a': self->all_hits = !self->all_hits; return true;
    case 'b': self->sphere_only = !self->sphere_only; return true;
    case 's': self->spinning = !self->spinning; return true;
    case 'u': self->loop = !self->loop; return true;
    case 'z': self->free_camera = !self->free_camera; return true;
    case 'i': self->counters = !self->counters; return true;
    default: return false;
    }
}

static lesson_method method(const void *self)
{
    (void)self;
    return LESSON_PICK_D3D9;    /* the sample's _11/_22 ray */
}

/* ------------------------------------------------------------ click */

/* A world point and its t along the click's ray from a model-space
   point. */
static void to_world(const lesson5 *self, const vec3 model, vec3 world, float *t)
{
    glm_mat4_mulv3((vec4 *)self->click_world, (float *)model, 1.0f, world);
    vec3 d;
    glm_vec3_sub(world, (float *)self->ray.origin, d);
    *t = glm_vec3_dot(d, (float *)self->ray.dir) / glm_vec3_norm2((float *)self->ray.dir);
}

/* The sample's answer as the lesson keeps it: its intersections in its
   order (nearest first from D3DXIntersect, in face order from the loop's
   "all hits"), each point in the world. */
static void keep_sample_hits(lesson5 *self, const Sample *sample)
{
    self->hit_count = self->hit_total = (int)sample->g_dwNumIntersections;
    for (int i = 0; i < self->hit_count; ++i) {
        const INTERSECTION *in = &sample->g_IntersectionArray[i];
        tri_pick *p = &self->hits[i];
        p->face = in->dwFace;
        p->u = in->fBary1;
        p->v = in->fBary2;
        p->fDist = in->fDist;
        p->tu = in->tu;
        p->tv = in->tv;
        vec3 model;
        rp_ray_at(&self->model_ray, in->fDist, model);
        to_world(self, model, p->point, &p->t);
    }
}

/* The sample's context for a click: the mesh, the click's matrices and
   back buffer, the check boxes. */
static void sample_for(lesson5 *self, const lesson_click *c, Sample *out)
{
    memset(out, 0, sizeof *out);
    out->pMesh = self->bvh;
    out->pVertices = self->mesh.vertices;
    out->pIndices = self->mesh.indices;
    out->dwNumFaces = (DWORD)self->mesh.triangle_count;
    glm_mat4_copy(self->click_world, out->matWorld.m);
    glm_mat4_copy((vec4 *)c->view, out->matView.m);
    glm_mat4_copy((vec4 *)c->proj, out->matProj.m);
    out->Width = c->viewport.width;
    out->Height = c->viewport.height;
    out->g_bUseD3DXIntersect = !self->loop;
    out->g_bAllHits = self->all_hits;
    SampleBegin(out, &self->trace, self->step_face);
}

/* the method's name in the report */
static const char *method_name(const lesson5 *self)
{
    if (self->loop)
        return self->all_hits ? "triangle-loop-all" : "triangle-loop";
    return self->all_hits ? "mesh-all" : "mesh";
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
        lesson_pick_float(out, "fDist", p->fDist, 7);
    }
    lesson_pick_ints(out, "hits", faces, self->hit_count);
    lesson_pick_bool(out, "sphere_hit", self->sphere_hit);
    lesson_pick_bool(out, "false_positive", self->false_positive);
    if (self->loop) {
        lesson_pick_int(out, "rejected_det", self->rejected_det);
        lesson_pick_int(out, "rejected_u", self->rejected_u);
        lesson_pick_int(out, "rejected_v", self->rejected_v);
    }
}

/* The pick as it stands (the click made it; B and U are read as they were
   then, A too). */
static void fill_pick(const lesson5 *self, lesson_pick *out)
{
    lesson_pick_miss(out, &self->ray, method_name(self));
    report(self, out);
    if (self->sphere_only) {
        /* what a bounding-sphere test alone answers (lessons 1-3) */
        snprintf(out->method, sizeof out->method, "sphere");
        if (self->sphere_hit) {
            out->hit = true;
            out->id = -1;
            snprintf(out->what, sizeof out->what, "%s", self->false_positive ? "sphere (false positive)" : "sphere");
            vec3 d;
            glm_vec3_sub((float *)self->sphere_point, (float *)self->ray.origin, d);
            out->t = glm_vec3_dot(d, (float *)self->ray.dir);
            glm_vec3_copy((float *)self->sphere_point, out->point);
        }
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
}

static void click(void *self_, const lesson_click *c, lesson_pick *out)
{
    lesson5 *self = self_;
    self->has_ray = true;
    self->ray = c->ray;
    self->hit_count = self->hit_total = 0;
    world_matrix(self, self->click_world);

    rp_sphere s;
    rp_hit sh;
    world_sphere(self, &s);
    self->sphere_hit = rp_intersect_ray_sphere(&c->ray, &s, &sh);
    if (self->sphere_hit)
        glm_vec3_copy(sh.point, self->sphere_point);

    /* the sample's Pick, recorded step by step */
    listing_trace_reset(&self->trace, self->steps, STEP_CAP);
    for (int i = 0; i < STEP_CAP; ++i)
        self->step_face[i] = -1;    /* a step of the ray's: no face (Pick marks the others) */
    Sample sample;
    sample_for(self, c, &sample);
    Pick(&sample, (POINT){c->px, c->py});
    for (int i = 0; i < self->trace.count; ++i) {
        const listing_watch *o = listing_step_watch(&self->steps[i], "vPickRayOrig");
        const listing_watch *d = listing_step_watch(&self->steps[i], "vPickRayDir");
        if (o && d) {
            glm_vec3_copy((float *)o->v, self->model_ray.origin);
            glm_vec3_copy((float *)d->v, self->model_ray.dir);
        }
    }
    self->faces_tested = self->loop ? (int)self->mesh.triangle_count : 0;
    self->rejected_det = sample.rejectedDet;
    self->rejected_u = sample.rejectedU;
    self->rejected_v = sample.rejectedV;
    keep_sample_hits(self, &sample);
    lesson_stepper_restart(&self->stepper, self->trace.count);

    self->false_positive = self->sphere_hit && self->hit_count == 0;
    fill_pick(self, out);
}

static bool pick(const void *self_, lesson_pick *out)
{
    const lesson5 *self = self_;
    if (!self->has_ray)
        return false;
    fill_pick(self, out);
    return true;
}

/* ------------------------------------------------------------ draw */

/* ------------------------------------------------------------ steps */

static const vec4 EDGE = {1.0f, 0.95f, 0.35f, 1.0f}, INSIDE = {0.3f, 1.0f, 0.4f, 1.0f};
static const vec4 OUTSIDE = {1.0f, 0.3f, 0.25f, 1.0f}, DIM = {0.9f, 0.7f, 0.3f, 0.6f};

/* The face a step is about, -1: none. */
static int step_face(const lesson5 *self, int i)
{
    return i >= 0 && i < self->trace.count ? self->step_face[i] : -1;
}

/* Face f's corners in the world (as at the click). */
static void face_corners(const lesson5 *self, int f, vec3 out[3])
{
    const uint32_t *idx = &self->mesh.indices[3 * (size_t)f];
    for (int k = 0; k < 3; ++k)
        glm_mat4_mulv3((vec4 *)self->click_world, self->mesh.vertices[idx[k]].p, 1.0f, out[k]);
}

/* Where the click's ray meets face f's plane, and that point's
   barycentrics (u toward v1, v toward v2); false for a ray in the plane. */
static bool plane_point(const lesson5 *self, int f, vec3 p, float *u, float *v)
{
    vec3 c[3], e1, e2, n, w;
    face_corners(self, f, c);
    glm_vec3_sub(c[1], c[0], e1);
    glm_vec3_sub(c[2], c[0], e2);
    glm_vec3_cross(e1, e2, n);
    float dn = glm_vec3_dot(n, (float *)self->ray.dir), nn = glm_vec3_norm2(n);
    if (fabsf(dn) < 1e-12f || nn <= 0.0f)
        return false;
    glm_vec3_sub(c[0], (float *)self->ray.origin, w);
    rp_ray_at(&self->ray, glm_vec3_dot(n, w) / dn, p);
    /* u = ((p - c0) x e2) . n / n.n, v = (e1 x (p - c0)) . n / n.n */
    vec3 q, x;
    glm_vec3_sub(p, c[0], q);
    glm_vec3_cross(q, e2, x);
    *u = glm_vec3_dot(x, n) / nn;
    glm_vec3_cross(e1, q, x);
    *v = glm_vec3_dot(x, n) / nn;
    return true;
}

static bool inside_uv(float u, float v)
{
    return u >= 0.0f && v >= 0.0f && u + v <= 1.0f;
}

/* Step mode: the triangle under test (its edges, its corners 0, 1, 2),
   where the ray meets its plane (green inside, red outside), and the
   faces kept so far, dim. */
static void draw_steps(const lesson5 *self, render_list *list)
{
    int cur = self->stepper.current, f = step_face(self, cur);
    lesson_label_room room = {.count = 0};
    for (int i = 0; i < self->hit_count; ++i) {
        if ((int)self->hits[i].face == f)
            continue;
        vec3 c[3];
        face_corners(self, (int)self->hits[i].face, c);
        for (int k = 0; k < 3; ++k)
            render_list_line(list, c[k], c[(k + 1) % 3], DIM);
    }
    if (f < 0)
        return;
    vec3 c[3], p;
    face_corners(self, f, c);
    for (int k = 0; k < 3; ++k)
        render_list_line_xray(list, c[k], c[(k + 1) % 3], EDGE);
    float u, v;
    if (plane_point(self, f, p, &u, &v))
        render_list_point(list, p, 14.0f, inside_uv(u, v) ? INSIDE : OUTSIDE);
    static const char *const names[3] = {"0", "1", "2"};
    for (int k = 0; k < 3; ++k) {
        render_list_point(list, c[k], 8.0f, EDGE);
        lesson_list_label_spaced(list, &room, c[k], names[k], LABEL_PX, EDGE);
    }
}

static void draw(const void *self_, render_list *list)
{
    const lesson5 *self = self_;
    mat4 world;
    world_matrix(self, world);
    if (lesson_stepper_active(&self->stepper) && self->has_ray)
        glm_mat4_copy((vec4 *)self->click_world, world);    /* the model as the steps saw it */
    render_list_pick_id(list, 0);       /* triangle i writes id 0 + i in the GPU pass */
    render_list_mesh(list, &self->draw_mesh, world, (vec4){0.55f, 0.68f, 0.86f, 1.0f}, 4.0f);
    render_list_pick_id(list, -1);
    if (self->hit_count > 0) {
        uint32_t faces[LESSON5_MAX_HITS];
        for (int i = 0; i < self->hit_count; ++i)
            faces[i] = self->hits[i].face;
        /* the nearest in yellow, the others (all hits) in orange */
        render_list_mesh_highlight(list, &self->all_mesh, world, faces, 1, (vec4){1.0f, 0.85f, 0.2f, 1.0f},
                                   (vec4){1.0f, 1.0f, 0.6f, 1.0f});
        if (self->hit_count > 1)
            render_list_mesh_highlight(list, &self->all_mesh, world, faces + 1, (size_t)self->hit_count - 1,
                                       (vec4){1.0f, 0.45f, 0.15f, 1.0f}, (vec4){1.0f, 0.6f, 0.3f, 1.0f});
    }
    render_list_shadow(list, (vec3){self->position[0], 0.0f, self->position[2]}, 1.4f, 0.0f, 0.7f);
    render_list_grid(list, 0.0f);
    bool stepping = lesson_stepper_active(&self->stepper);
    if (self->has_ray) {
        /* the ray, and backwards to a hit behind the eye (the loop's) */
        float len = self->hit_count > 0 ? 0.5f : 30.0f, back = 0.0f;
        for (int i = 0; i < self->hit_count; ++i) {
            len = glm_max(len, self->hits[i].t + 0.5f);
            back = glm_min(back, self->hits[i].t - 0.5f);
        }
        vec3 start, end;
        rp_ray_at(&self->ray, back, start);
        rp_ray_at(&self->ray, len, end);
        render_list_line(list, self->ray.origin, end, (vec4){1.0f, 0.9f, 0.4f, 0.9f});
        if (back < 0.0f)
            render_list_line(list, start, self->ray.origin, (vec4){1.0f, 0.3f, 0.25f, 0.9f});
        /* the hit points; in step mode the step's own marks instead (they
           would hide the triangle under test) */
        for (int i = 0; i < self->hit_count && !stepping; ++i)
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
    if (stepping)
        draw_steps(self, list);
}

/* appends printf-style text to buf of size, keeping *n the length so far */
static void append(char *buf, size_t size, int *n, const char *fmt, ...)
{
    if (*n < 0 || (size_t)*n >= size)
        return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(buf + *n, size - (size_t)*n, fmt, ap);
    va_end(ap);
    *n = k < 0 ? -1 : *n + k;
}

/* The beginner's lines: what to click and how Pick runs; the last click's
   faces with the sample's names; the hint. The counters behind I. */
static void status(const void *self_, char *buf, size_t size)
{
    const lesson5 *self = self_;
    int n = 0;
    buf[0] = '\0';
    append(buf, size, &n, TEXT("status.click"));
    append(buf, size, &n, "\n");
    /* a hostile model is drawn within a budget (mesh_data_draw_subset): say so */
    if (self->draw_mesh.triangle_count != self->mesh.triangle_count)
        append(buf, size, &n, TEXT("drawn"), self->draw_mesh.triangle_count);
    append(buf, size, &n, TEXT("status.method"), self->loop ? TEXT("method.loop") : TEXT("method.d3dx"),
           self->all_hits ? TEXT("picks.all") : TEXT("picks.nearest"));
    if (self->counters) {
        append(buf, size, &n, "\n");
        append(buf, size, &n, TEXT("status.counters"), self->mesh.triangle_count,
               self->sphere_only ? TEXT("test.sphere") : TEXT("test.triangles"),
               msg(self->spinning ? "word.on" : "word.off"));
        if (self->has_ray && self->faces_tested > 0) {
            append(buf, size, &n, "\n");
            append(buf, size, &n, TEXT("status.rejected"), self->faces_tested, self->rejected_det, self->rejected_u,
                   self->rejected_v);
        }
    }
    if (self->has_ray && (self->sphere_only || self->false_positive)) {
        append(buf, size, &n, "\n");
        append(buf, size, &n, TEXT("sphere"), msg(self->sphere_hit ? "word.hit" : "word.miss"),
               self->false_positive ? TEXT("sphere.false_positive") : "");
    }
    if (self->has_ray && self->hit_count == 0) {
        append(buf, size, &n, "\n");
        append(buf, size, &n, "%s", TEXT("none"));
    }
    for (int i = 0; self->has_ray && i < self->hit_count && i < 6; ++i) {
        const tri_pick *p = &self->hits[i];
        append(buf, size, &n, "\n");
        append(buf, size, &n, TEXT("face"), (unsigned)p->face, (double)p->u, (double)p->v, (double)p->fDist,
               (double)p->tu, (double)p->tv, p->t < 0.0f ? TEXT("face.behind") : "");
    }
    if (self->has_ray && self->hit_total > 6)
        append(buf, size, &n, TEXT("more"), self->hit_total);
    append(buf, size, &n, "\n");
    if (!self->stepper.on) {
        append(buf, size, &n, "%s", TEXT("hint"));
    } else if (!lesson_stepper_active(&self->stepper)) {
        append(buf, size, &n, "%s", TEXT("steps.wait"));
    } else {
        append(buf, size, &n, TEXT("steps.keys"), self->free_camera ? TEXT("camera.free") : TEXT("camera.framed"));
    }
}

/* ------------------------------------------------------------ step mode */

/* Step mode's camera. A step about a face: close to it, on the side the
   ray comes from and turned aside, so the ray is seen crossing the
   triangle, a few triangle sizes away. The ray's own steps: the model
   from the side, the ray across it. */
static bool frame(const void *self_, lesson_camera *out)
{
    const lesson5 *self = self_;
    if (self->free_camera || !lesson_stepper_active(&self->stepper) || !self->has_ray)
        return false;
    int f = step_face(self, self->stepper.current);
    out->fov = 0.7853982f;
    if (f < 0) {
        rp_sphere s;
        world_sphere(self, &s);
        glm_vec3_copy(s.center, out->target);
        out->yaw = lesson5_triangles.camera.yaw + 1.1f;
        out->pitch = 0.3f;
        out->distance = 3.2f * s.radius;
        return true;
    }
    vec3 c[3], centre, e1, e2, n, side, eye_dir;
    face_corners(self, f, c);
    glm_vec3_center(c[0], c[1], centre);
    glm_vec3_lerp(centre, c[2], 1.0f / 3.0f, centre);
    glm_vec3_sub(c[1], c[0], e1);
    glm_vec3_sub(c[2], c[0], e2);
    glm_vec3_cross(e1, e2, n);
    glm_vec3_normalize(n);
    if (glm_vec3_dot(n, (float *)self->ray.dir) > 0.0f)      /* the side the ray comes from */
        glm_vec3_negate(n);
    glm_vec3_cross((float *)self->ray.dir, n, side);
    if (glm_vec3_norm(side) < 1e-3f)
        glm_vec3_cross((vec3){0.0f, 1.0f, 0.0f}, n, side);
    glm_vec3_normalize(side);
    glm_vec3_scale(side, 0.9f, side);
    glm_vec3_add(n, side, eye_dir);
    glm_vec3_normalize(eye_dir);
    float size = glm_max(glm_vec3_norm(e1), glm_max(glm_vec3_norm(e2), glm_vec3_distance(c[1], c[2])));
    glm_vec3_copy(centre, out->target);
    out->yaw = atan2f(eye_dir[0], eye_dir[2]);
    out->pitch = asinf(glm_clamp(eye_dir[1], -0.99f, 0.99f));
    out->distance = glm_max(5.0f * size, 0.25f);
    return true;
}

static bool code(const void *self_, lesson_code_view *out)
{
    const lesson5 *self = self_;
    memset(out, 0, sizeof *out);
    out->code = &listing_lesson5_pick_sample;
    if (self->has_ray) {
        out->steps = self->steps;
        out->count = self->trace.count;
    }
    if (self->has_ray && lesson_stepper_active(&self->stepper)) {
        out->step = &self->steps[self->stepper.current];
        out->index = self->stepper.current;
    }
    return true;
}

/* ------------------------------------------------------------ the inset */

/* The step the inset shows: the current one in step mode, the last one
   otherwise; -1: none. */
static int shown_step(const lesson5 *self)
{
    if (!self->has_ray || self->trace.count == 0)
        return -1;
    return lesson_stepper_active(&self->stepper) ? self->stepper.current : self->trace.count - 1;
}

static float step_f(const listing_step *s, const char *name, float fallback)
{
    const listing_watch *w = listing_step_watch(s, name);
    return w && w->kind == LISTING_WATCH_FLOAT ? w->v[0] : fallback;
}

/* The inset: the triangle in its own plane, v0 at the left, edge1 along
   the bottom; where the ray meets the plane, P = v0 + u edge1 + v edge2,
   built as the two arrows u edge1 and v edge2; the step's numbers under
   it. */
static void figure(const void *self_, const lesson_figure_area *area, render_list *list)
{
    const lesson5 *self = self_;
    int cur = shown_step(self), f = step_face(self, cur);
    float ts = area->text_scale, line = 13.0f * ts, pad = 6.0f * ts;
    render_list_fig_rect(list, area->x, area->y, area->w, area->h, (vec4){0.03f, 0.04f, 0.08f, 1.0f});
    const vec4 title = {1.0f, 0.92f, 0.65f, 1.0f}, plain = {0.80f, 0.88f, 1.0f, 1.0f};
    char text[256];
    if (f < 0) {
        const listing_step *st = cur >= 0 ? &self->steps[cur] : NULL;
        const listing_watch *pt = st ? listing_step_watch(st, "ptCursor") : NULL, *v = st ? listing_step_watch(st, "v") : NULL;
        const listing_watch *o = st ? listing_step_watch(st, "vPickRayOrig") : NULL;
        const listing_watch *d = st ? listing_step_watch(st, "vPickRayDir") : NULL;
        /* the ray's own steps come before any triangle: a heading about the ray */
        const char *heading = pt && v   ? TEXT("figure.title-screen")
                              : o && d ? TEXT("figure.title-model")
                                       : TEXT("figure.title");
        render_list_fig_text(list, area->x + pad, area->y + 5.0f * ts, ts, RENDER_ALIGN_LEFT, area->w - 2.0f * pad,
                             title, heading);
        if (pt && v)
            snprintf(text, sizeof text, TEXT("figure.screen"), (double)pt->v[0], (double)pt->v[1], (double)v->v[0],
                     (double)v->v[1], (double)step_f(st, "_11", NAN), (double)step_f(st, "_22", NAN));
        else if (o && d)
            snprintf(text, sizeof text, TEXT("figure.model"), (double)o->v[0], (double)o->v[1], (double)o->v[2],
                     (double)glm_vec3_norm((float *)d->v));
        else
            snprintf(text, sizeof text, "%s", cur < 0 ? TEXT("figure.empty") : TEXT("figure.no-face"));
        render_list_fig_text(list, area->x + pad, area->y + 5.0f * ts + line, ts, RENDER_ALIGN_LEFT,
                             area->w - 2.0f * pad, plain, text);
        return;
    }
    snprintf(text, sizeof text, TEXT("figure.heading"), f);
    render_list_fig_text(list, area->x + pad, area->y + 5.0f * ts, ts, RENDER_ALIGN_LEFT, area->w - 2.0f * pad, title,
                         text);
    /* the triangle in 2D: x along edge1, y square to it in the plane */
    vec3 c[3], e1, e2, n, y;
    face_corners(self, f, c);
    glm_vec3_sub(c[1], c[0], e1);
    glm_vec3_sub(c[2], c[0], e2);
    glm_vec3_cross(e1, e2, n);
    glm_vec3_cross(n, e1, y);
    float l1 = glm_vec3_norm(e1), ly = glm_vec3_norm(y);
    if (l1 <= 0.0f || ly <= 0.0f)
        return;
    float t2[3][2] = {{0.0f, 0.0f}, {l1, 0.0f}, {glm_vec3_dot(e2, e1) / l1, glm_vec3_dot(e2, y) / ly}};
    float pu = NAN, pv = NAN;
    vec3 pw;
    bool has_p = plane_point(self, f, pw, &pu, &pv);
    float pxy[2] = {NAN, NAN};
    if (has_p) {
        pxy[0] = pu * t2[1][0] + pv * t2[2][0];
        pxy[1] = pu * t2[1][1] + pv * t2[2][1];
    }
    /* fit the triangle (and P, within reason) into the plot */
    float lo[2] = {0.0f, 0.0f}, hi[2] = {0.0f, 0.0f};
    for (int k = 0; k < 3; ++k)
        for (int a = 0; a < 2; ++a) {
            lo[a] = glm_min(lo[a], t2[k][a]);
            hi[a] = glm_max(hi[a], t2[k][a]);
        }
    float size = glm_max(hi[0] - lo[0], hi[1] - lo[1]);
    if (has_p && isfinite(pxy[0]) && isfinite(pxy[1]))
        for (int a = 0; a < 2; ++a) {
            lo[a] = glm_min(lo[a], glm_max(pxy[a], lo[a] - 0.6f * size));
            hi[a] = glm_max(hi[a], glm_min(pxy[a], hi[a] + 0.6f * size));
        }
    float px = area->x + 14.0f * ts, py = area->y + 2.0f * line + 10.0f * ts;
    float pw_ = area->w - 28.0f * ts, ph = area->h - 6.0f * line - 14.0f * ts;
    if (pw_ < 8.0f || ph < 8.0f)
        return;
    float scale = glm_min(pw_ / glm_max(hi[0] - lo[0], 1e-9f), ph / glm_max(hi[1] - lo[1], 1e-9f));
    float ox = px + 0.5f * (pw_ - scale * (hi[0] - lo[0])) - scale * lo[0];
    float oy = py + ph - 0.5f * (ph - scale * (hi[1] - lo[1])) + scale * lo[1];
#define FX(x) (ox + scale * (x))
#define FY(y) (oy - scale * (y))
    for (int k = 0; k < 3; ++k) {
        int m = (k + 1) % 3;
        render_list_fig_line(list, FX(t2[k][0]), FY(t2[k][1]), FX(t2[m][0]), FY(t2[m][1]), 2.0f, EDGE);
    }
    static const char *const corner[3] = {"v0", "v1", "v2"};
    for (int k = 0; k < 3; ++k) {
        float cx = (t2[0][0] + t2[1][0] + t2[2][0]) / 3.0f, cy = (t2[0][1] + t2[1][1] + t2[2][1]) / 3.0f;
        float dx = t2[k][0] - cx, dy = t2[k][1] - cy, d = hypotf(dx, dy);
        float lx = FX(t2[k][0]) + (d > 0.0f ? 12.0f * ts * dx / d : 0.0f);
        float ly_ = FY(t2[k][1]) - (d > 0.0f ? 12.0f * ts * dy / d : 0.0f) - 0.5f * line;
        render_list_fig_text(list, lx, ly_, ts, RENDER_ALIGN_CENTER, 0.0f, EDGE, corner[k]);
    }
    if (has_p && isfinite(pxy[0]) && isfinite(pxy[1])) {
        /* P = v0 + u edge1 + v edge2: along edge1 by u, then along edge2 by v */
        float ax = pu * t2[1][0], ay = pu * t2[1][1];
        const float *col = inside_uv(pu, pv) ? INSIDE : OUTSIDE;
        render_list_fig_arrow(list, FX(0.0f), FY(0.0f), FX(ax), FY(ay), 2.0f * ts, (vec4){0.45f, 0.75f, 1.0f, 1.0f});
        render_list_fig_arrow(list, FX(ax), FY(ay), FX(pxy[0]), FY(pxy[1]), 2.0f * ts, (vec4){1.0f, 0.55f, 0.9f, 1.0f});
        render_list_fig_circle(list, FX(pxy[0]), FY(pxy[1]), 5.0f * ts, 0.0f, col);
        render_list_fig_text(list, FX(pxy[0]) + 7.0f * ts, FY(pxy[1]) - line, ts, RENDER_ALIGN_LEFT, 0.0f, col, "P");
    }
#undef FX
#undef FY
    /* the numbers: the plane point's u, v (the step's, when it has them) */
    const listing_step *st = &self->steps[cur];
    float det = step_f(st, "det", NAN);
    float su = step_f(st, "*u", NAN), sv = step_f(st, "*v", NAN);
    bool scaled = listing_step_watch(st, "*t") != NULL;
    if (!isnan(su) && !scaled && det > 0.0f)
        pu = su / det;
    if (!isnan(sv) && !scaled && det > 0.0f)
        pv = sv / det;
    if (scaled) {
        pu = su;
        pv = sv;
    }
    float fb1 = step_f(st, "fBary1", NAN), fb2 = step_f(st, "fBary2", NAN);
    if (!isnan(fb1) && !isnan(fb2)) {
        pu = fb1;
        pv = fb2;
    }
    float ty = area->y + area->h - 3.0f * line - 6.0f * ts;
    snprintf(text, sizeof text, TEXT("figure.uv"), (double)pu, (double)pv, (double)(1.0f - pu - pv));
    render_list_fig_text(list, area->x + pad, ty, ts, RENDER_ALIGN_LEFT, area->w - 2.0f * pad,
                         inside_uv(pu, pv) ? plain : OUTSIDE, text);
    bool good = has_p && inside_uv(pu, pv);
    const char *verdict = !has_p ? TEXT("figure.parallel") : good ? TEXT("figure.inside") : TEXT("figure.outside");
    if (strstr(st->msg_id, ".det-small")) {
        verdict = TEXT("figure.det-small");
        good = false;
    } else if (strstr(st->msg_id, ".hit-behind")) {
        verdict = TEXT("figure.behind");
        good = false;
    } else {
        for (int i = 0; i < self->hit_count; ++i)    /* a kept face behind the eye */
            if ((int)self->hits[i].face == f && self->hits[i].fDist < 0.0f) {
                verdict = TEXT("figure.behind");
                good = false;
            }
    }
    render_list_fig_text(list, area->x + pad, ty + line, ts, RENDER_ALIGN_LEFT, area->w - 2.0f * pad,
                         good ? plain : OUTSIDE, verdict);
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

/* GPU pick ids count the drawn triangles: the face each one is. */
static int gpu_object(const void *self_, uint32_t id)
{
    const lesson5 *self = self_;
    if (!self->draw_faces)
        return (int)id;
    return id < self->draw_mesh.triangle_count ? (int)self->draw_faces[id] : -1;
}

/* ------------------------------------------------------------ the tour */

/* The sample's case, its mistakes made visible, the fix, each in step
   mode with the code panel lit at the step the sentence is about. Keys: U
   the sample's IntersectTriangle loop, P step mode, B bounding sphere only.
   INSIDE_CAMERA: the eye at the middle of the knot's hole (the model's
   origin, at 0 1.7 0), turned 34 degrees right and 10 up. */
#define INSIDE_CAMERA {{0.5565f, 1.8692f, -0.8134f}, -0.6f, -0.17f, 1.0f, 0.7853982f}
/* PANEL_CAMERA: the start camera's eye (0 2.2507 4.5669), turned 0.3 to
   the right: the model in the middle of the room the code panel leaves at
   16:9, and the same ray to the middle of the hole */
#define PANEL_CAMERA {{1.3496f, 1.7f, 0.204f}, -0.3f, 0.12f, 4.6f, 0.7853982f}
static const lesson_tour_moment tour[] = {
    /* IntersectTriangle on every face, a click on a face: its steps to the
       texture coordinates */
    {.sentence = "lesson.picking-triangles.tour.loop", .keys = "up", .click_count = 1,
     .clicks = {{.aim = LESSON_AIM_OBJECT, .object = 15529}}, .steps = STEP_CAP},
    /* the eye in the middle of the knot's hole, looking at the tube: the
       face behind it, on the tube's far side, has the smallest fDist (a
       negative one), and the loop keeps it */
    {.sentence = "lesson.picking-triangles.tour.behind", .keys = "up", .click_count = 1,
     .clicks = {{.aim = LESSON_AIM_WINDOW, .fx = 0.5f, .fy = 0.41f}}, .steps = STEP_CAP,
     .has_camera = true, .camera = INSIDE_CAMERA},
    /* the bounding sphere alone: a click in the hole, walked in step mode
       to D3DXIntersect's answer (the code panel lit there): no triangle.
       Z keeps the click's own view (the dot in the hole, the sphere round
       it) rather than the ray from the side; PANEL_CAMERA: the start
       camera's eye turned right, the knot left of the panel */
    {.sentence = "lesson.picking-triangles.tour.sphere", .keys = "bp", .click_count = 1,
     .clicks = {{.aim = LESSON_AIM_OBJECT, .object = -2}}, .after = "z", .steps = STEP_CAP,
     .until = STEP_ID("d3dx-miss"), .has_camera = true, .camera = PANEL_CAMERA},
    /* the fix: D3DXIntersect, the library (t >= 0, watertight, no
       threshold), the same click */
    {.sentence = "lesson.picking-triangles.tour.fix", .keys = "p", .click_count = 1,
     .clicks = {{.aim = LESSON_AIM_WINDOW, .fx = 0.5f, .fy = 0.41f}}, .steps = STEP_CAP,
     .has_camera = true, .camera = INSIDE_CAMERA},
};

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
    .frame = frame,
    .code = code,
    .figure = figure,
    .pick = pick,
    .tour = tour,
    .tour_count = (int)(sizeof tour / sizeof tour[0]),
    .objects = objects,
    .gpu_object = gpu_object,
};

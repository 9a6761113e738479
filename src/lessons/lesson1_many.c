/*
 * lesson1_many.c: lesson 1's "many objects" mode (see lesson1_many.h).
 *
 * An asteroid belt: every object circles the belt's axis in one of a few
 * bands, the inner bands faster (Kepler's third law, roughly), and spins
 * with its band. Per frame one cosine/sine and one spin per band, then a
 * rotate-and-offset per object: moving 100,000 objects costs about what
 * writing them into the scene costs. rp_scene_build then refits the BVH
 * (or rebuilds it when the refitted tree has grown too loose), and a click
 * asks rp_intersect_ray_scene for the nearest object: no loop over the
 * objects anywhere. The click then asks rp_intersect_ray_scene_traced the
 * same question to draw what the traversal did: the BVH boxes it opened,
 * nodes and leaves, and how few of the objects it tested.
 *
 * The renderer gets the objects as instances (render_list_instances), one
 * array per shape kind that update() rewrites in place, so drawing lists a
 * handful of commands whatever the count; it draws the ones in view as
 * impostors (one point each, the exact shape ray-cast per pixel).
 *
 * GPU picking (G): each kind's copies get a run of pick ids (copy j of
 * kind k writes pick_base[k] + j), the tori the run after them, so the ids
 * are 0 .. count-1 in kind-then-slot order; pick_object maps one back to
 * the object's index, the scene's, which the ray's pick reports.
 */
#include "lesson1_many.h"
#include "msg.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "geometry.h"
#include "steady_math.h"

#define BANDS 24
#define MESH_INSTANCES 16
#define VISITS_DRAWN 512        /* boxes of the last pick's traversal kept for drawing */
#define BELT_INNER 6.0f
#define BELT_OUTER 22.0f

static const vec3 BELT_CENTER = {0.0f, 1.6f, -20.0f};
static const vec4 PICKED_COLOR = {1.0f, 0.86f, 0.25f, 1.0f};
static const vec4 MESH_COLOR = {0.45f, 0.80f, 0.60f, 1.0f};

/* the instanced kinds and the render shape each is drawn with */
enum { INSTANCED_KINDS = 3 };
static const render_shape_kind KIND_SHAPE[INSTANCED_KINDS] = {RENDER_SPHERE, RENDER_SPHERE, RENDER_CUBE};
static const char *const KIND_NAME[LESSON1_MANY_KIND_COUNT] = {"sphere", "ellipsoid", "box", "torus"};

/* one object's fixed data: its place in the belt at time 0 */
typedef struct many_object {
    uint8_t kind;           /* lesson1_many_kind */
    uint8_t band;
    int     slot;           /* in its kind's instance array (meshes: 0..MESH_INSTANCES-1) */
    vec3    offset;         /* from the belt's centre, at time 0 */
    versor  orientation;    /* at time 0 */
    vec3    size;           /* radii, half extents, or the mesh's scale in [0] */
} many_object;

typedef struct band_motion {
    float  speed, spin;     /* radians per second: around the belt, about axis */
    vec3   axis;
    float  c, s;            /* this frame's turn around the belt */
    versor q;               /* this frame's spin */
} band_motion;

struct lesson1_many {
    int count;
    many_object *objects;
    band_motion bands[BANDS];
    float time;
    rp_scene *scene;
    rp_mesh *torus;
    /* what the renderer draws, rewritten by update */
    render_instance *instances[INSTANCED_KINDS];
    int instance_count[INSTANCED_KINDS];
    mat4 mesh_model[MESH_INSTANCES];
    int mesh_object[MESH_INSTANCES];    /* the object index of each mesh instance */
    int mesh_count;
    /* GPU picking: the first pick id of each kind's run (the tori's last),
       and the object each pick id stands for */
    int pick_base[LESSON1_MANY_KIND_COUNT];
    int *pick_object;
    /* the last click */
    int picked;
    vec4 picked_color;      /* its own colour, back when another is picked */
    bool has_ray, last_hit;
    rp_ray last_ray;
    vec3 last_point;
    /* what the last pick's traversal opened (rp_intersect_ray_scene_traced):
       drawn as boxes, counted in the HUD; the boxes are the tree's as it
       was at the click, like the ray */
    rp_scene_visit visits[VISITS_DRAWN];
    rp_scene_trace trace;
    /* times for the HUD, milliseconds; smoothed, so they can be read */
    double move_ms, build_ms, pick_us;
    int builds_failed;
};

/* ------------------------------------------------------------ random */

/* xorshift32: the layout depends on the seed only */
static uint32_t next_random(uint32_t *state)
{
    uint32_t x = *state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *state = x;
}

static float uniform(uint32_t *state, float lo, float hi)
{
    return lo + (hi - lo) * (float)(next_random(state) >> 8) * (1.0f / 16777216.0f);
}

static void random_unit_quat(uint32_t *state, versor q)
{
    vec3 axis = {uniform(state, -1, 1), uniform(state, -1, 1), uniform(state, -1, 1)};
    if (glm_vec3_norm(axis) < 1e-3f)
        axis[1] = 1.0f;
    glm_vec3_normalize(axis);
    steady_quatv(uniform(state, 0.0f, 2.0f * GLM_PIf), axis, q);
}

/* ------------------------------------------------------------ bodies */

static const float TORUS_BOUND = 1.05f;     /* ring 0.75 + tube 0.3 */

/* Object i's shape at the current time, from its band's motion. */
static void body_of(const lesson1_many *m, int i, lesson1_many_body *out)
{
    const many_object *o = &m->objects[i];
    const band_motion *b = &m->bands[o->band];
    vec3 center = {BELT_CENTER[0] + o->offset[0] * b->c - o->offset[2] * b->s, BELT_CENTER[1] + o->offset[1],
                   BELT_CENTER[2] + o->offset[0] * b->s + o->offset[2] * b->c};
    versor q;
    glm_quat_mul((float *)b->q, (float *)o->orientation, q);
    memset(out, 0, sizeof *out);    /* the union's unused bytes too: tests compare bodies */
    out->kind = (lesson1_many_kind)o->kind;
    glm_vec3_copy(center, out->bounds.center);
    switch (out->kind) {
    case LESSON1_MANY_SPHERE:
        glm_vec3_copy(center, out->shape.sphere.center);
        out->shape.sphere.radius = o->size[0];
        out->bounds.radius = o->size[0];
        break;
    case LESSON1_MANY_ELLIPSOID:
        glm_vec3_copy(center, out->shape.ellipsoid.center);
        glm_vec3_copy((float *)o->size, out->shape.ellipsoid.radii);
        glm_quat_copy(q, out->shape.ellipsoid.orientation);
        out->bounds.radius = glm_vec3_max((float *)o->size);
        break;
    case LESSON1_MANY_BOX:
        glm_vec3_copy(center, out->shape.box.center);
        glm_vec3_copy((float *)o->size, out->shape.box.half_extents);
        glm_quat_copy(q, out->shape.box.orientation);
        out->bounds.radius = glm_vec3_norm((float *)o->size);
        break;
    default:
        out->shape.mesh.mesh = m->torus;
        lesson_model(center, q, (vec3){o->size[0], o->size[0], o->size[0]}, out->shape.mesh.model);
        out->bounds.radius = TORUS_BOUND * o->size[0];
        break;
    }
}

/* ------------------------------------------------------------ create */

static void init_bands(lesson1_many *m, uint32_t *rng)
{
    for (int b = 0; b < BANDS; ++b) {
        band_motion *band = &m->bands[b];
        float r = BELT_INNER + (BELT_OUTER - BELT_INNER) * ((float)b + 0.5f) / BANDS;
        float inner_over_r = BELT_INNER / r;
        band->speed = 0.35f * inner_over_r * sqrtf(inner_over_r);   /* Kepler's r^-1.5, without powf */
        band->spin = uniform(rng, 0.4f, 1.6f) * (b & 1 ? -1.0f : 1.0f);
        glm_vec3_copy((vec3){uniform(rng, -1, 1), 1.0f, uniform(rng, -1, 1)}, band->axis);
        glm_vec3_normalize(band->axis);
        band->c = 1.0f;
        band->s = 0.0f;
        glm_quat_identity(band->q);
    }
}

/* Where object i sits in the belt, its kind and size, its instance slot. */
static void place_object(lesson1_many *m, int i, uint32_t *rng)
{
    many_object *o = &m->objects[i];
    float r = sqrtf(uniform(rng, BELT_INNER * BELT_INNER, BELT_OUTER * BELT_OUTER));  /* even over the area */
    float a = uniform(rng, 0.0f, 2.0f * GLM_PIf);
    float thickness = 1.2f + 0.08f * r;
    float sin_a, cos_a;
    steady_sincosf(a, &sin_a, &cos_a);
    o->offset[0] = r * cos_a;
    o->offset[1] = uniform(rng, -0.5f, 0.5f) * thickness;
    o->offset[2] = r * sin_a;
    o->band = (uint8_t)glm_clamp((r - BELT_INNER) / (BELT_OUTER - BELT_INNER) * BANDS, 0.0f, BANDS - 1);
    random_unit_quat(rng, o->orientation);
    float size = uniform(rng, 0.045f, 0.12f);
    float pick = uniform(rng, 0.0f, 1.0f);
    /* a few mesh instances, spread over the indices */
    bool mesh = m->mesh_count < MESH_INSTANCES && i % (m->count / MESH_INSTANCES > 0 ? m->count / MESH_INSTANCES : 1) == 0;
    if (mesh) {
        o->kind = LESSON1_MANY_MESH;
        o->size[0] = uniform(rng, 0.5f, 0.8f);
        o->offset[1] += 2.5f;      /* above the belt, where they can be seen */
        o->slot = m->mesh_count;
        m->mesh_object[m->mesh_count++] = i;
        return;
    }
    o->kind = pick < 0.45f ? LESSON1_MANY_SPHERE : pick < 0.75f ? LESSON1_MANY_ELLIPSOID : LESSON1_MANY_BOX;
    if (o->kind == LESSON1_MANY_SPHERE)
        glm_vec3_broadcast(size, o->size);
    else if (o->kind == LESSON1_MANY_ELLIPSOID)
        glm_vec3_copy((vec3){size * 1.6f, size * 0.8f, size}, o->size);
    else
        glm_vec3_copy((vec3){size * 0.9f, size * 0.6f, size * 0.75f}, o->size);
    render_instance *inst = &m->instances[o->kind][m->instance_count[o->kind]];
    o->slot = m->instance_count[o->kind]++;
    /* rock colours: each kind its own hue, each object a shade */
    static const vec3 base[INSTANCED_KINDS] = {{0.62f, 0.56f, 0.50f}, {0.45f, 0.58f, 0.78f}, {0.85f, 0.50f, 0.32f}};
    float shade = uniform(rng, 0.7f, 1.15f);
    for (int k = 0; k < 3; ++k)
        inst->color[k] = glm_min(base[o->kind][k] * shade, 1.0f);
    inst->color[3] = 1.0f;
}

static int add_to_scene(lesson1_many *m, const lesson1_many_body *b)
{
    switch (b->kind) {
    case LESSON1_MANY_SPHERE: return rp_scene_add_sphere(m->scene, &b->shape.sphere);
    case LESSON1_MANY_ELLIPSOID: return rp_scene_add_ellipsoid(m->scene, &b->shape.ellipsoid);
    case LESSON1_MANY_BOX: return rp_scene_add_obb(m->scene, &b->shape.box);
    default: return rp_scene_add_mesh(m->scene, b->shape.mesh.mesh, (vec4 *)b->shape.mesh.model);
    }
}

static bool make_torus(lesson1_many *m)
{
    geo_mesh g = {0};
    if (geo_shape(RENDER_TORUS, &g))
        m->torus = rp_mesh_create(g.vertices[0].position, (size_t)g.vertex_count, sizeof(geo_vertex), g.indices,
                                  (size_t)g.index_count / 3);
    geo_free(&g);
    return m->torus != NULL;
}

static void write_object(lesson1_many *m, int i, const lesson1_many_body *b);

/* The pick ids: one run per kind in kind order, the tori last (their
   objects' slots are their places in the runs); false when out of memory. */
static bool number_picks(lesson1_many *m)
{
    m->pick_object = malloc((size_t)m->count * sizeof *m->pick_object);
    if (!m->pick_object)
        return false;
    int base = 0;
    for (int k = 0; k < LESSON1_MANY_KIND_COUNT; ++k) {
        m->pick_base[k] = base;
        base += k < INSTANCED_KINDS ? m->instance_count[k] : m->mesh_count;
    }
    for (int i = 0; i < m->count; ++i)
        m->pick_object[m->pick_base[m->objects[i].kind] + m->objects[i].slot] = i;
    return true;
}

lesson1_many *lesson1_many_create(uint32_t seed, int count, char *err, size_t err_size)
{
    if (count <= 0)
        count = LESSON1_MANY_OBJECTS;
    lesson1_many *m = calloc(1, sizeof *m);
    bool ok = m != NULL;
    if (ok) {
        m->count = count;
        m->picked = -1;
        m->objects = calloc((size_t)count, sizeof *m->objects);
        for (int k = 0; k < INSTANCED_KINDS; ++k)
            m->instances[k] = calloc((size_t)count, sizeof *m->instances[k]);
        m->scene = rp_scene_create();
        ok = m->objects && m->instances[0] && m->instances[1] && m->instances[2] && m->scene && make_torus(m);
    }
    uint32_t rng = seed ? seed : 0x9e3779b9u;
    if (ok)
        init_bands(m, &rng);
    for (int i = 0; ok && i < count; ++i) {
        place_object(m, i, &rng);
        lesson1_many_body b;
        body_of(m, i, &b);
        ok = add_to_scene(m, &b) == i;
        write_object(m, i, &b);
    }
    ok = ok && rp_scene_build(m->scene) && number_picks(m);
    if (!ok) {
        if (err && err_size)
            snprintf(err, err_size, "out of memory for %d objects", count);
        lesson1_many_destroy(m);
        return NULL;
    }
    return m;
}

void lesson1_many_destroy(lesson1_many *m)
{
    if (!m)
        return;
    rp_scene_destroy(m->scene);
    rp_mesh_destroy(m->torus);
    free(m->pick_object);
    for (int k = 0; k < INSTANCED_KINDS; ++k)
        free(m->instances[k]);
    free(m->objects);
    free(m);
}

/* ------------------------------------------------------------ update */

/* Object i's new shape into its instance (or mesh model) for drawing. */
static void write_object(lesson1_many *m, int i, const lesson1_many_body *b)
{
    const many_object *o = &m->objects[i];
    if (b->kind == LESSON1_MANY_MESH) {
        glm_mat4_copy((vec4 *)b->shape.mesh.model, m->mesh_model[o->slot]);
        return;
    }
    /* memcpy: a render_instance's fields are not 16-byte aligned, which
       cglm's SIMD copies want */
    static const versor identity = {0.0f, 0.0f, 0.0f, 1.0f};
    render_instance *inst = &m->instances[o->kind][o->slot];
    memcpy(inst->position, b->bounds.center, sizeof inst->position);
    memcpy(inst->scale, o->size, sizeof inst->scale);
    memcpy(inst->rotation,
           b->kind == LESSON1_MANY_SPHERE ? identity
           : b->kind == LESSON1_MANY_BOX  ? b->shape.box.orientation
                                          : b->shape.ellipsoid.orientation,
           sizeof inst->rotation);
}

static bool set_in_scene(lesson1_many *m, int i, const lesson1_many_body *b)
{
    switch (b->kind) {
    case LESSON1_MANY_SPHERE: return rp_scene_set_sphere(m->scene, i, &b->shape.sphere);
    case LESSON1_MANY_ELLIPSOID: return rp_scene_set_ellipsoid(m->scene, i, &b->shape.ellipsoid);
    case LESSON1_MANY_BOX: return rp_scene_set_obb(m->scene, i, &b->shape.box);
    default: return rp_scene_set_mesh_model(m->scene, i, (vec4 *)b->shape.mesh.model);
    }
}

/* a new reading folded into a smoothed one (the first taken as it is) */
static double smooth(double old, double reading)
{
    return old > 0.0 ? 0.9 * old + 0.1 * reading : reading;
}

void lesson1_many_update(lesson1_many *m, float dt)
{
    if (!m || dt <= 0.0f)
        return;
    double t0 = render_clock_seconds();
    m->time += dt;
    for (int b = 0; b < BANDS; ++b) {
        band_motion *band = &m->bands[b];
        steady_sincosf(band->speed * m->time, &band->s, &band->c);
        steady_quatv(band->spin * m->time, band->axis, band->q);
    }
    for (int i = 0; i < m->count; ++i) {
        lesson1_many_body b;
        body_of(m, i, &b);
        set_in_scene(m, i, &b);
        write_object(m, i, &b);
    }
    double t1 = render_clock_seconds();
    if (!rp_scene_build(m->scene))
        ++m->builds_failed;     /* queries keep the last build: still consistent */
    double t2 = render_clock_seconds();
    m->move_ms = smooth(m->move_ms, (t1 - t0) * 1e3);
    m->build_ms = smooth(m->build_ms, (t2 - t1) * 1e3);
}

/* ------------------------------------------------------------ click */

static float *color_of(lesson1_many *m, int i)
{
    const many_object *o = &m->objects[i];
    return o->kind == LESSON1_MANY_MESH ? NULL : m->instances[o->kind][o->slot].color;
}

/* Highlights object id (-1: none), giving the last picked its colour back. */
static void highlight(lesson1_many *m, int id)
{
    float *c = m->picked >= 0 ? color_of(m, m->picked) : NULL;
    if (c)
        memcpy(c, m->picked_color, sizeof m->picked_color);
    m->picked = id;
    c = id >= 0 ? color_of(m, id) : NULL;
    if (c) {    /* memcpy: instance fields are not aligned for cglm */
        memcpy(m->picked_color, c, sizeof m->picked_color);
        memcpy(c, PICKED_COLOR, sizeof m->picked_color);
    }
}

void lesson1_many_click(lesson1_many *m, const lesson_click *c, lesson_pick *out)
{
    lesson_pick_miss(out, &c->ray, "scene");
    lesson_pick_int(out, "objects", m->count);
    rp_hit hit;
    double t0 = render_clock_seconds();
    int id = rp_intersect_ray_scene(m->scene, &c->ray, &hit, NULL);
    m->pick_us = (render_clock_seconds() - t0) * 1e6;
    /* again, traced, to show the boxes it opened (timed without: tracing
       is not free, and the same traversal gives the same answer) */
    m->trace.visits = m->visits;
    m->trace.visit_cap = VISITS_DRAWN;
    rp_intersect_ray_scene_traced(m->scene, &c->ray, &m->trace, NULL, NULL);
    lesson_pick_int(out, "nodes_visited", m->trace.nodes_visited);
    lesson_pick_int(out, "leaves_visited", m->trace.leaves_visited);
    lesson_pick_int(out, "objects_tested", m->trace.objects_tested);
    lesson_pick_int(out, "tree_nodes", m->trace.tree_nodes);
    highlight(m, id);
    m->has_ray = true;
    m->last_ray = c->ray;
    m->last_hit = id >= 0;
    if (id < 0)
        return;
    lesson1_many_body b;
    body_of(m, id, &b);
    lesson_pick_vec3(out, "center", b.bounds.center, 7);
    lesson_pick_float(out, "bound_radius", b.bounds.radius, 7);
    out->hit = true;
    out->id = id;
    snprintf(out->what, sizeof out->what, "%s %d", KIND_NAME[b.kind], id);
    out->t = hit.t;
    glm_vec3_copy(hit.point, out->point);
    glm_vec3_copy(hit.point, m->last_point);
    snprintf(out->note, sizeof out->note, "rp_intersect_ray_scene: %s among %d objects", out->what, m->count);
}

/* ------------------------------------------------------------ draw */

/* A box's twelve edges. */
static void draw_box(render_list *list, const rp_aabb *b, const vec4 color)
{
    const float *lo = b->min, *hi = b->max;
    for (int e = 0; e < 12; ++e) {
        /* edge e runs along axis e / 4; the other two axes pick low or high
           by the two bits of e % 4 */
        int axis = e / 4, u = (axis + 1) % 3, v = (axis + 2) % 3;
        vec3 a, z;
        a[axis] = lo[axis];
        z[axis] = hi[axis];
        a[u] = z[u] = (e & 1) ? hi[u] : lo[u];
        a[v] = z[v] = (e & 2) ? hi[v] : lo[v];
        render_list_line_xray(list, a, z, color);
    }
}

/* The boxes the last pick opened: BVH nodes blue, leaves orange (the
   objects in them went through their own ray functions). */
static void draw_visits(const lesson1_many *m, render_list *list)
{
    static const vec4 NODE_COLOR = {0.45f, 0.85f, 1.0f, 0.9f};
    static const vec4 LEAF_COLOR = {1.0f, 0.45f, 0.10f, 1.0f};
    int n = m->trace.visit_count < VISITS_DRAWN ? m->trace.visit_count : VISITS_DRAWN;
    for (int i = 0; i < n; ++i)
        draw_box(list, &m->visits[i].box, m->visits[i].objects > 0 ? LEAF_COLOR : NODE_COLOR);
}

void lesson1_many_draw(const lesson1_many *m, render_list *list)
{
    for (int k = 0; k < INSTANCED_KINDS; ++k) {
        render_list_pick_id(list, m->pick_base[k]);     /* GPU picking: copy j writes base + j */
        render_list_instances(list, KIND_SHAPE[k], m->instances[k], m->instance_count[k]);
    }
    for (int j = 0; j < m->mesh_count; ++j) {
        bool picked = m->mesh_object[j] == m->picked;
        render_list_pick_id(list, m->pick_base[LESSON1_MANY_MESH] + j);
        render_list_shape(list, RENDER_TORUS, (vec4 *)m->mesh_model[j], picked ? PICKED_COLOR : MESH_COLOR,
                          picked ? (vec3){0.25f, 0.2f, 0.05f} : NULL);
    }
    render_list_pick_id(list, -1);
    render_list_grid(list, 0.0f);
    if (!m->has_ray)
        return;
    /* the ray ends at the hit, or runs 80 units into the belt */
    vec3 end;
    if (m->last_hit) {
        glm_vec3_copy((float *)m->last_point, end);
    } else {
        glm_vec3_normalize_to((float *)m->last_ray.dir, end);
        glm_vec3_scale(end, 80.0f, end);
        glm_vec3_add(end, (float *)m->last_ray.origin, end);
    }
    render_list_line(list, m->last_ray.origin, end, (vec4){1.0f, 0.9f, 0.4f, 0.9f});
    draw_visits(m, list);
    if (m->last_hit)
        render_list_point(list, m->last_point, 10.0f, (vec4){1.0f, 0.95f, 0.5f, 1.0f});
    /* a glass halo around the picked object: one among 100,000 is small */
    lesson1_many_body b;
    if (m->picked >= 0 && lesson1_many_body_at(m, m->picked, &b))
        render_list_glass_sphere(list, b.bounds.center, 2.5f * b.bounds.radius, (vec4){1.0f, 0.85f, 0.3f, 0.25f});
}

void lesson1_many_status(const lesson1_many *m, char *buf, size_t size)
{
    char picked[96], name[48];
    snprintf(picked, sizeof picked, "%s", msg("lesson.picking-spheres.many.none_yet"));
    if (m->picked >= 0)
        snprintf(picked, sizeof picked, "%s %d", lesson_display_name("name", KIND_NAME[m->objects[m->picked].kind],
                                                                     name, sizeof name), m->picked);
    else if (m->has_ray)
        snprintf(picked, sizeof picked, "%s", msg("word.miss"));
    char visits[320] = "";
    if (m->has_ray)
        snprintf(visits, sizeof visits, msg("lesson.picking-spheres.many.visits"), m->trace.nodes_visited,
                 m->trace.tree_nodes, m->trace.leaves_visited, m->trace.objects_tested, m->count);
    char pick[64] = "-";
    if (m->has_ray)
        render_format_us(m->pick_us, render_clock_step_seconds() * 1e6, pick, sizeof pick);
    snprintf(buf, size, msg("lesson.picking-spheres.many.status"), m->count, m->instance_count[0],
             m->instance_count[1], m->instance_count[2], m->mesh_count, m->move_ms, m->build_ms, pick, picked, visits,
             m->builds_failed ? msg("lesson.picking-spheres.many.out_of_memory") : "");
}

void lesson1_many_toggle(lesson1_many **m, bool *on, uint32_t seed, int count)
{
    if (!*on && !*m)
        *m = lesson1_many_create(seed, count, NULL, 0);
    *on = !*on && *m;
}

int lesson1_many_gpu_object(const lesson1_many *m, uint32_t id)
{
    return m && id < (uint32_t)m->count ? m->pick_object[id] : -1;
}

/* ------------------------------------------------------------ tests */

int lesson1_many_count(const lesson1_many *m)
{
    return m ? m->count : 0;
}

const rp_scene *lesson1_many_scene(const lesson1_many *m)
{
    return m ? m->scene : NULL;
}

bool lesson1_many_body_at(const lesson1_many *m, int index, lesson1_many_body *out)
{
    if (!m || index < 0 || index >= m->count || !out)
        return false;
    body_of(m, index, out);
    return true;
}

int lesson1_many_picked(const lesson1_many *m)
{
    return m ? m->picked : -1;
}

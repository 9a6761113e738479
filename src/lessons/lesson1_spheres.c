/*
 * Lesson 1: picking with bounding spheres (the Chinese bounding-sphere picking tutorial).
 *
 * Every object carries a bounding sphere. A left click casts the pick ray
 * and toggles the rotation of what it hits: only the nearest object (what a
 * user expects), or every object on the ray (what the tutorial's loop does).
 * M switches the ray between the D3D9 way (CalculateRay + TransformRay:
 * rp_pick_ray_perspective) and the XNA way (unproject near and far points:
 * rp_pick_ray_unproject); the HUD shows that both find the same point.
 *
 * V cycles the bounding volume: the tutorial's hand-set sphere, then the
 * volumes computed from the shape's vertices (shape_bounds.h: the
 * smallest sphere, the world AABB around the turned vertices, the OBB
 * that turns with the object). Each click also tests the objects' own
 * triangles, and the HUD counts each volume's false positives: objects
 * whose volume the ray hits while it misses every triangle.
 *
 * A switches to the many-objects mode (lesson1_many.c: 100,000 moving
 * objects in one rp_scene) and back.
 * The tutorial's own numbers are on the HUD: CalculateRay's px, py, the
 * roots t0, t1 of the hit and what t measures with the current ray. T
 * switches to the tutorial's click rule (rotation on for what is hit, off
 * for the rest); step mode (P . ,) shows each object's test in turn.
 */
#include "lesson.h"
#include "msg.h"
#include "lesson1_many.h"
#include "shape_bounds.h"
#include "steady_math.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OBJECT_COUNT 6

typedef struct object {
    const char *name;
    render_shape_kind shape;
    vec3  position;
    float scale;
    float bound_radius;     /* of the shape at scale 1 */
    vec4  color;
    bool  rotating;
    float angle;
    float flash;            /* highlight after a hit, seconds left */
} object;

/* The volume lesson 1 picks: the tutorial's sphere, or a computed one. */
enum { VOLUME_TUTORIAL = 0, VOLUME_COUNT = 1 + BOUND_VOLUME_COUNT };

/* One object's test for the last click, as the tutorial's CheckIntersection
   computes it (sphere volumes: the quadratic a t^2 + b t + c = 0 with
   v = origin - center; the tutorial's a is 1 for its unit dir), or the
   box's slab interval (AABB, OBB). */
typedef struct object_test {
    bool quadratic;         /* a sphere volume: a, b, c, disc, t0, t1 below */
    float a, b, c, disc;
    float t0, t1;           /* the tutorial's names: t0 = (-b + sqrt(disc)) / 2a, t1 = (-b - sqrt(disc)) / 2a */
    bool hit;               /* what the tutorial's test says: disc >= 0 and t0 >= 0 or t1 >= 0 */
    float t_enter, t_exit;  /* a box: where the ray enters and leaves it */
} object_test;

typedef struct lesson1 {
    object objects[OBJECT_COUNT];
    shape_bounds bounds;
    int volume;                     /* VOLUME_TUTORIAL or 1 + bound_volume */
    int false_positives[VOLUME_COUNT];  /* of the last click, per volume */
    char fp_names[VOLUME_COUNT][128];   /* names on the HUD: UTF-8 */
    lesson_method method;
    bool nearest_only;
    bool set_clear;                 /* T: the tutorial's rule (hit on, the rest off) instead of a toggle */
    lesson_stepper stepper;         /* P . ,: one object's test per step */
    object_test tests[OBJECT_COUNT];    /* of the last click */
    float tut_px, tut_py;           /* the tutorial's px, py (CalculateRay) of the last click */
    float dir_length;               /* |ray.dir| of the last click */
    lesson_method last_method;
    int last_id;
    bool show_bounds;
    bool has_ray;
    rp_ray last_ray;
    vec3 last_point;
    bool last_hit;
    char agreement[192];    /* the other pick-ray method's answer, for the HUD */
    bool agrees;            /* ... and whether it is the same */
    lesson1_many *many;             /* A: made on first use, kept */
    bool many_on;
    int many_count;                 /* its objects (--many-objects; 0: 100,000) */
    uint32_t seed;
} lesson1;

/* ------------------------------------------------------------ init */

static void *create(const lesson_env *env)
{
    static const object start[OBJECT_COUNT] = {
        {"cube",   RENDER_CUBE,   {-4.5f, 1.2f, 0.0f},  1.0f, 1.7320508f, {0.90f, 0.45f, 0.30f, 1}, false, 0, 0},
        {"torus",  RENDER_TORUS,  {-1.5f, 1.4f, -3.0f}, 1.3f, 1.05f,      {0.35f, 0.70f, 0.95f, 1}, false, 0, 0},
        {"cone",   RENDER_CONE,   {1.5f, 1.2f, 0.5f},   1.0f, 1.4142136f, {0.95f, 0.80f, 0.30f, 1}, false, 0, 0},
        {"sphere", RENDER_SPHERE, {4.5f, 1.0f, -2.0f},  1.0f, 1.05f,      {0.55f, 0.85f, 0.50f, 1}, false, 0, 0},
        {"tower",  RENDER_CUBE,   {-4.5f, 1.6f, -6.0f}, 0.8f, 1.7320508f, {0.75f, 0.55f, 0.90f, 1}, false, 0, 0},
        {"ring",   RENDER_TORUS,  {0.0f, 1.4f, -8.0f},  1.8f, 1.05f,      {0.90f, 0.40f, 0.60f, 1}, false, 0, 0},
    };
    lesson1 *self = calloc(1, sizeof *self);
    if (!self) {
        snprintf(env->err, env->err_size, "out of memory");
        return NULL;
    }
    if (!shape_bounds_init(&self->bounds)) {
        snprintf(env->err, env->err_size, "out of memory for the bounding volumes");
        free(self);
        return NULL;
    }
    memcpy(self->objects, start, sizeof start);
    for (int i = 0; i < OBJECT_COUNT; ++i)
        self->objects[i].angle = 0.4f * (float)i;
    self->method = LESSON_PICK_D3D9;
    self->nearest_only = true;
    self->last_id = -1;
    self->show_bounds = false;     /* B shows them */
    self->seed = env->seed;
    self->many_count = env->many_objects;
    return self;
}

static void destroy(void *self_)
{
    lesson1 *self = self_;
    if (self) {
        shape_bounds_free(&self->bounds);
        lesson1_many_destroy(self->many);
    }
    free(self);
}

static const char *volume_name(int v)
{
    return v == VOLUME_TUTORIAL ? msg("lesson.picking-spheres.volume.tutorial")
           : v == 1             ? msg("lesson.picking-spheres.volume.smallest")
                                : bound_volume_name((bound_volume)(v - 1));
}

static void object_rotation(const object *o, versor q)
{
    steady_quatv(o->angle, (vec3){0.25f, 1.0f, 0.1f}, q);
    glm_quat_normalize(q);
}

static shape_placement placement(const object *o)
{
    shape_placement p;
    p.kind = (int)o->shape;
    glm_vec3_copy((float *)o->position, p.position);
    object_rotation(o, p.rotation);
    p.scale = o->scale;
    return p;
}

static void bounding_sphere(const object *o, rp_sphere *s)
{
    glm_vec3_copy((float *)o->position, s->center);
    s->radius = o->bound_radius * o->scale;
}

/* ------------------------------------------------------------ update */

static void update(void *self_, float dt)
{
    lesson1 *self = self_;
    if (self->many_on) {
        lesson1_many_update(self->many, dt);
        return;
    }
    for (int i = 0; i < OBJECT_COUNT; ++i) {
        object *o = &self->objects[i];
        if (o->rotating)
            o->angle += 1.2f * dt;
        o->flash = glm_max(0.0f, o->flash - dt);
    }
}

static bool key(void *self_, char k)
{
    lesson1 *self = self_;
    if (lesson_stepper_key(&self->stepper, k))
        return true;
    switch (k) {
    case 't': self->set_clear = !self->set_clear; return true;
    case 'm': self->method = self->method == LESSON_PICK_D3D9 ? LESSON_PICK_UNPROJECT : LESSON_PICK_D3D9; return true;
    case 'n': self->nearest_only = !self->nearest_only; return true;
    case 'b': self->show_bounds = !self->show_bounds; return true;
    case 'v': self->volume = (self->volume + 1) % VOLUME_COUNT; return true;
    case 'a': lesson1_many_toggle(&self->many, &self->many_on, self->seed, self->many_count); return true;
    default: return false;
    }
}

static lesson_method method(const void *self_)
{
    const lesson1 *self = self_;
    return self->method;
}

/* ------------------------------------------------------------ click */

/* The sphere lesson 1 tests for o under the current volume setting: the
   tutorial's sphere, or the smallest one (the box volumes draw theirs). */
static void volume_sphere(const lesson1 *self, const object *o, rp_sphere *s)
{
    if (self->volume == VOLUME_TUTORIAL) {
        bounding_sphere(o, s);
    } else {
        shape_placement p = placement(o);
        shape_bounds_sphere(&self->bounds, &p, s);
    }
}

/* The nearest bounding sphere on a ray: what a D3D9 program of the
   tutorial's time would do by looping, the library does in one call. */
static bool volume_hit(const lesson1 *self, int i, int volume, const rp_ray *ray, rp_hit *hit)
{
    const object *o = &self->objects[i];
    if (volume == VOLUME_TUTORIAL) {
        rp_sphere s;
        bounding_sphere(o, &s);
        return rp_intersect_ray_sphere(ray, &s, hit);
    }
    shape_placement p = placement(o);
    return shape_bounds_hit_volume(&self->bounds, &p, (bound_volume)(volume - 1), ray, hit);
}

static int nearest_hit(const lesson1 *self, const rp_ray *ray, rp_hit *hit)
{
    if (self->volume == VOLUME_TUTORIAL) {
        rp_sphere spheres[OBJECT_COUNT];
        for (int i = 0; i < OBJECT_COUNT; ++i)
            bounding_sphere(&self->objects[i], &spheres[i]);
        return rp_intersect_ray_spheres(ray, spheres, OBJECT_COUNT, hit);
    }
    int best = -1;
    for (int i = 0; i < OBJECT_COUNT; ++i) {
        rp_hit h;
        if (volume_hit(self, i, self->volume, ray, &h) && (best < 0 || h.t < hit->t)) {
            best = i;
            *hit = h;
        }
    }
    return best;
}

/* Every volume's false positives for this ray: objects whose volume it
   hits while it misses all their triangles. */
static void count_false_positives(lesson1 *self, const rp_ray *ray)
{
    bool mesh[OBJECT_COUNT];
    for (int i = 0; i < OBJECT_COUNT; ++i) {
        shape_placement p = placement(&self->objects[i]);
        mesh[i] = shape_bounds_hit_mesh(&self->bounds, &p, ray, NULL);
    }
    for (int v = 0; v < VOLUME_COUNT; ++v) {
        self->false_positives[v] = 0;
        self->fp_names[v][0] = '\0';
        size_t n = 0;
        for (int i = 0; i < OBJECT_COUNT; ++i) {
            if (mesh[i] || !volume_hit(self, i, v, ray, NULL))
                continue;
            ++self->false_positives[v];
            char name[48];
            if (n < sizeof self->fp_names[v])
                n += (size_t)snprintf(self->fp_names[v] + n, sizeof self->fp_names[v] - n, "%s%s",
                                      n ? ", " : "", lesson_display_name("name", self->objects[i].name, name,
                                                                         sizeof name));
        }
    }
}

/* Build the other method's ray for the same pixel and check it finds the
   same object and the same point. */
static void compare_methods(lesson1 *self, const lesson_click *c, int id, const rp_hit *hit)
{
    rp_ray other;
    mat4 proj, view;    /* copies: gcc's -Wstringop-overflow misreads the const struct's arrays once inlined */
    glm_mat4_copy((vec4 *)c->proj, proj);
    glm_mat4_copy((vec4 *)c->view, view);
    bool ok = c->method == LESSON_PICK_D3D9
                  ? rp_pick_ray_unproject(c->px, c->py, &c->viewport, proj, view, RP_GL, &other)
                  : rp_pick_ray_perspective(c->px, c->py, &c->viewport, proj, view, RP_GL, &other);
    char other_name[48], name[48];
    lesson_display_name("method",
                        lesson_method_name(c->method == LESSON_PICK_D3D9 ? LESSON_PICK_UNPROJECT : LESSON_PICK_D3D9),
                        other_name, sizeof other_name);
    rp_hit other_hit;
    int other_id = ok ? nearest_hit(self, &other, &other_hit) : -2;
    self->agrees = other_id == id;
    if (other_id != id) {
        if (other_id >= 0)
            lesson_display_name("name", self->objects[other_id].name, name, sizeof name);
        snprintf(self->agreement, sizeof self->agreement, msg("lesson.picking-spheres.agree.differs"), other_name,
                 other_id >= 0 ? name : msg("word.nothing"));
    } else if (id < 0) {
        snprintf(self->agreement, sizeof self->agreement, msg("lesson.picking-spheres.agree.nothing"), other_name);
    } else {
        float d = glm_vec3_distance((float *)hit->point, other_hit.point);
        snprintf(self->agreement, sizeof self->agreement, msg("lesson.picking-spheres.agree.hit"), other_name,
                 lesson_display_name("name", self->objects[id].name, name, sizeof name), (double)d);
    }
}

/* The tutorial's numbers for a click: CalculateRay's px, py (the view-space
   direction before TransformRay; proj[0][0] is D3DX's _11, proj[1][1] its
   _22) and CheckIntersection's quadratic for every object, with the ray the
   click used (the unproject ray's dir is not unit: a != 1). */
static void record_tests(lesson1 *self, const lesson_click *c)
{
    self->tut_px = ((2.0f * (c->px - c->viewport.x)) / c->viewport.width - 1.0f) / c->proj[0][0];
    self->tut_py = ((-2.0f * (c->py - c->viewport.y)) / c->viewport.height + 1.0f) / c->proj[1][1];
    self->dir_length = glm_vec3_norm((float *)c->ray.dir);
    self->last_method = c->method;
    for (int i = 0; i < OBJECT_COUNT; ++i) {
        object_test *t = &self->tests[i];
        memset(t, 0, sizeof *t);
        if (self->volume > 1) {
            rp_hit h;
            t->hit = volume_hit(self, i, self->volume, &c->ray, &h);
            if (t->hit) {
                t->t_enter = h.t_enter;
                t->t_exit = h.t_exit;
            }
            continue;
        }
        rp_sphere s;
        volume_sphere(self, &self->objects[i], &s);
        vec3 v;
        glm_vec3_sub((float *)c->ray.origin, s.center, v);
        t->quadratic = true;
        t->a = glm_vec3_dot((float *)c->ray.dir, (float *)c->ray.dir);
        t->b = 2.0f * glm_vec3_dot((float *)c->ray.dir, v);
        t->c = glm_vec3_dot(v, v) - s.radius * s.radius;
        t->disc = t->b * t->b - 4.0f * t->a * t->c;
        if (t->disc >= 0.0f) {
            float n = sqrtf(t->disc);
            t->t0 = (-t->b + n) / (2.0f * t->a);
            t->t1 = (-t->b - n) / (2.0f * t->a);
            t->hit = t->t0 >= 0.0f || t->t1 >= 0.0f;
        }
    }
    lesson_stepper_restart(&self->stepper, OBJECT_COUNT);
}

static void click(void *self_, const lesson_click *c, lesson_pick *out)
{
    lesson1 *self = self_;
    if (self->many_on) {
        lesson1_many_click(self->many, c, out);
        return;
    }
    lesson_pick_miss(out, &c->ray, lesson_method_name(c->method));
    self->has_ray = true;
    self->last_ray = c->ray;

    rp_hit hit;
    int id = nearest_hit(self, &c->ray, &hit);
    int hits[OBJECT_COUNT], hit_count = 0;
    if (self->nearest_only) {
        if (id >= 0)
            hits[hit_count++] = id;
    } else {
        /* the tutorial's loop: every volume the ray passes through */
        for (int i = 0; i < OBJECT_COUNT; ++i)
            if (volume_hit(self, i, self->volume, &c->ray, NULL))
                hits[hit_count++] = i;
    }
    if (self->set_clear) {
        /* the tutorial's WM_LBUTTONDOWN: m_bRotate[i] = CheckIntersection(...) */
        for (int i = 0; i < OBJECT_COUNT; ++i)
            self->objects[i].rotating = false;
        for (int i = 0; i < hit_count; ++i)
            self->objects[hits[i]].rotating = true;
    } else {
        for (int i = 0; i < hit_count; ++i)
            self->objects[hits[i]].rotating = !self->objects[hits[i]].rotating;
    }
    for (int i = 0; i < hit_count; ++i)
        self->objects[hits[i]].flash = 0.6f;
    record_tests(self, c);
    self->last_id = id;
    count_false_positives(self, &c->ray);
    compare_methods(self, c, id, &hit);
    snprintf(out->note, sizeof out->note, "%.95s", self->agreement);     /* note: 96 bytes */

    lesson_pick_bool(out, "nearest_only", self->nearest_only);
    lesson_pick_bool(out, "set_clear", self->set_clear);
    lesson_pick_float(out, "tutorial_px", self->tut_px, 6);
    lesson_pick_float(out, "tutorial_py", self->tut_py, 6);
    if (id >= 0 && self->tests[id].quadratic) {
        lesson_pick_float(out, "t0", self->tests[id].t0, 6);
        lesson_pick_float(out, "t1", self->tests[id].t1, 6);
    }
    lesson_pick_ints(out, "toggled", hits, hit_count);
    lesson_pick_bool(out, "agree", self->agrees);
    lesson_pick_int(out, "volume", self->volume);
    lesson_pick_ints(out, "false_positives", self->false_positives, VOLUME_COUNT);

    self->last_hit = id >= 0;
    if (id < 0)
        return;
    out->hit = true;
    out->id = id;
    snprintf(out->what, sizeof out->what, "%s", self->objects[id].name);
    out->t = hit.t;
    glm_vec3_copy(hit.point, out->point);
    glm_vec3_copy(hit.point, self->last_point);
}

/* ------------------------------------------------------------ draw */

/* Object i's AABB or OBB (the volume shown) as its 12 edges. */
static void list_box(const lesson1 *self, int i, render_list *list)
{
    const object *o = &self->objects[i];
    shape_placement p = placement(o);
    rp_obb box = {0};
    if (self->volume == 1 + BOUND_AABB) {
        rp_aabb a;
        shape_bounds_aabb(&self->bounds, &p, &a);
        glm_vec3_add(a.min, a.max, box.center);
        glm_vec3_scale(box.center, 0.5f, box.center);
        glm_vec3_sub(a.max, box.center, box.half_extents);
    } else {
        shape_bounds_obb(&self->bounds, &p, &box);
    }
    vec4 color = {0.45f, 0.75f, 1.0f, 0.8f};
    if (o->rotating)
        glm_vec4_copy((vec4){1.0f, 0.8f, 0.4f, 0.9f}, color);
    lesson_list_box(list, &box, color);
}

/* Step mode: the object under test, its volume lit (yellow: the test
   says hit, red: miss) and the roots t0, t1 as points on the whole ray
   (green in front of the origin, grey behind it). */
static void draw_step(const lesson1 *self, render_list *list)
{
    int i = self->stepper.current;
    const object_test *t = &self->tests[i];
    const object *o = &self->objects[i];
    vec3 far;
    rp_ray_at(&self->last_ray, self->last_method == LESSON_PICK_D3D9 ? 60.0f : 0.3f, far);
    render_list_line(list, self->last_ray.origin, far, (vec4){1.0f, 1.0f, 1.0f, 0.4f});
    if (!t->quadratic) {
        list_box(self, i, list);
        return;
    }
    rp_sphere s;
    volume_sphere(self, o, &s);
    vec4 c = {1.0f, 0.3f, 0.25f, 0.12f};
    if (t->hit)
        glm_vec4_copy((vec4){1.0f, 0.85f, 0.3f, 0.14f}, c);
    render_list_glass_sphere(list, s.center, s.radius, c);
    if (t->disc < 0.0f)
        return;
    float roots[2] = {t->t0, t->t1};
    for (int k = 0; k < 2; ++k) {
        vec3 at;
        rp_ray_at(&self->last_ray, roots[k], at);
        render_list_point(list, at, 14.0f, roots[k] >= 0.0f ? (vec4){0.4f, 1.0f, 0.5f, 1.0f}
                                                            : (vec4){0.6f, 0.6f, 0.6f, 1.0f});
    }
}

static void draw(const void *self_, render_list *list)
{
    const lesson1 *self = self_;
    if (self->many_on) {
        lesson1_many_draw(self->many, list);
        return;
    }
    for (int i = 0; i < OBJECT_COUNT; ++i) {
        const object *o = &self->objects[i];
        versor q;
        object_rotation(o, q);
        mat4 model;
        lesson_model(o->position, q, (vec3){o->scale, o->scale, o->scale}, model);
        vec3 glow = {0.35f * o->flash, 0.35f * o->flash, 0.3f * o->flash};
        if (o->rotating)
            glm_vec3_adds(glow, 0.05f, glow);
        render_list_pick_id(list, i);      /* GPU picking: object i writes id i */
        render_list_shape(list, o->shape, model, o->color, glow);
        render_list_pick_id(list, -1);
        render_list_shadow(list, o->position, o->bound_radius * o->scale, 0.0f, 0.8f);
    }
    render_list_grid(list, 0.0f);
    if (self->has_ray) {
        /* the ray ends at the hit, or runs 60 units into the scene */
        rp_ray ray = self->last_ray;
        vec3 hit;
        glm_vec3_copy((float *)self->last_point, hit);
        float len = self->last_hit ? glm_vec3_distance(ray.origin, hit) : 60.0f;
        vec3 far;
        glm_vec3_normalize_to(ray.dir, far);
        glm_vec3_scale(far, len, far);
        glm_vec3_add(far, ray.origin, far);
        render_list_line(list, ray.origin, far, (vec4){1.0f, 0.9f, 0.4f, 0.9f});
        if (self->last_hit)
            render_list_point(list, self->last_point, 12.0f, (vec4){1.0f, 0.95f, 0.5f, 1.0f});
    }
    if (lesson_stepper_active(&self->stepper))
        draw_step(self, list);
    if (self->show_bounds && self->volume > 1)
        for (int i = 0; i < OBJECT_COUNT; ++i)
            list_box(self, i, list);
    if (self->show_bounds && self->volume <= 1) {
        for (int i = 0; i < OBJECT_COUNT; ++i) {
            const object *o = &self->objects[i];
            vec4 c = {0.35f, 0.55f, 0.85f, 0.05f};
            if (o->rotating)
                glm_vec4_copy((vec4){0.95f, 0.75f, 0.35f, 0.07f}, c);
            rp_sphere s;
            volume_sphere(self, o, &s);
            render_list_glass_sphere(list, s.center, s.radius, c);
        }
    }
}

/* One object's test in the tutorial's terms, for the HUD. */
static void test_text(const lesson1 *self, int i, char *buf, size_t size)
{
    const object_test *t = &self->tests[i];
    char name[48];
    lesson_display_name("name", self->objects[i].name, name, sizeof name);
    if (!t->quadratic && t->hit)
        snprintf(buf, size, msg("lesson.picking-spheres.test.slabs_hit"), name, volume_name(self->volume),
                 (double)t->t_enter, (double)t->t_exit);
    else if (!t->quadratic)
        snprintf(buf, size, msg("lesson.picking-spheres.test.slabs_miss"), name, volume_name(self->volume));
    else if (t->disc < 0.0f)
        snprintf(buf, size, msg("lesson.picking-spheres.test.no_root"), name, (double)t->a, (double)t->b,
                 (double)t->c, (double)t->disc);
    else
        snprintf(buf, size, msg("lesson.picking-spheres.test.roots"), name, (double)t->a, (double)t->b, (double)t->c,
                 (double)t->disc, (double)t->t0, (double)t->t1,
                 msg(t->hit ? "word.hit" : "lesson.picking-spheres.test.behind"));
}

/* What t measures with the last click's ray. */
static void t_meaning(const lesson1 *self, char *buf, size_t size)
{
    if (self->last_method == LESSON_PICK_D3D9)
        snprintf(buf, size, "%s", msg("lesson.picking-spheres.t.d3d9"));
    else
        snprintf(buf, size, msg("lesson.picking-spheres.t.unproject"), (double)self->dir_length);
}

static void status(const void *self_, char *buf, size_t size)
{
    const lesson1 *self = self_;
    if (self->many_on) {
        lesson1_many_status(self->many, buf, size);
        return;
    }
    int n = 0;
    for (int i = 0; i < OBJECT_COUNT; ++i)
        n += self->objects[i].rotating;
    char meaning[192] = "", numbers[160] = "", step[320] = "", label[48], name[48];
    if (self->has_ray) {
        t_meaning(self, meaning, sizeof meaning);
        int k = snprintf(numbers, sizeof numbers, "px %.4f  py %.4f (CalculateRay: ((2x/w)-1)/_11, (1-2y/h)/_22)",
                         (double)self->tut_px, (double)self->tut_py);
        const object_test *t = self->last_id >= 0 ? &self->tests[self->last_id] : NULL;
        if (t && t->quadratic && k > 0 && (size_t)k < sizeof numbers)
            snprintf(numbers + k, sizeof numbers - (size_t)k, "   %s: t0 %.4g  t1 %.4g",
                     lesson_display_name("name", self->objects[self->last_id].name, name, sizeof name),
                     (double)t->t0, (double)t->t1);
    }
    if (lesson_stepper_active(&self->stepper)) {
        int k = snprintf(step, sizeof step, "%s  ", lesson_stepper_label(&self->stepper, label, sizeof label));
        if (k > 0 && (size_t)k < sizeof step)
            test_text(self, self->stepper.current, step + k, sizeof step - (size_t)k);
    } else {
        snprintf(step, sizeof step, "%s",
                 msg(self->stepper.on ? "lesson.picking-spheres.step.waiting" : "lesson.picking-spheres.step.hint"));
    }
    int k = snprintf(buf, size, msg("lesson.picking-spheres.status"),
                     msg(self->method == LESSON_PICK_D3D9 ? "lesson.picking-spheres.ray.d3d9"
                                                          : "lesson.picking-spheres.ray.unproject"),
                     msg(self->nearest_only ? "lesson.picking-spheres.picks.nearest" : "lesson.picking-spheres.picks.all"),
                     msg(self->show_bounds ? "word.shown" : "word.hidden"), n,
                     msg(self->set_clear ? "lesson.picking-spheres.rule.tutorial" : "lesson.picking-spheres.rule.toggle"),
                     self->agreement, self->has_ray ? "\n" : "", meaning,
                     numbers[0] ? numbers : step, volume_name(self->volume), self->false_positives[0],
                     self->false_positives[1], self->false_positives[2], self->false_positives[3]);
    if (k > 0 && (size_t)k < size && self->fp_names[self->volume][0])
        k += snprintf(buf + k, size - (size_t)k, " (%s: %s)", volume_name(self->volume), self->fp_names[self->volume]);
    if (numbers[0] && k > 0 && (size_t)k < size)
        snprintf(buf + k, size - (size_t)k, "\n%s", step);
}

static int objects(const void *self_, const vec3 eye, lesson_object *out, int cap)
{
    const lesson1 *self = self_;
    (void)eye;
    for (int i = 0; i < OBJECT_COUNT && i < cap; ++i) {
        lesson_object *o = &out[i];
        memset(o, 0, sizeof *o);
        o->id = i;
        snprintf(o->name, sizeof o->name, "%s", self->objects[i].name);
        o->kind = LESSON_OBJECT_SPHERE;
        bounding_sphere(&self->objects[i], &o->shape.sphere);
    }
    return OBJECT_COUNT;
}

/* GPU picking: object i writes id i (draw); the many-objects mode numbers
   its own */
static int gpu_object(const void *self_, uint32_t id)
{
    const lesson1 *self = self_;
    if (self->many_on)
        return lesson1_many_gpu_object(self->many, id);
    return id < OBJECT_COUNT ? (int)id : -1;
}

const lesson lesson1_spheres = {
    .number = 1,
    .camera = {{0.0f, 1.0f, -2.0f}, 0.0f, 0.38f, 15.0f, 0.7853982f},
    .create = create,
    .destroy = destroy,
    .update = update,
    .key = key,
    .method = method,
    .click = click,
    .draw = draw,
    .status = status,
    .objects = objects,
    .gpu_object = gpu_object,
};

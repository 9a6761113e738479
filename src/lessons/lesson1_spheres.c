/*
 * Lesson 1: picking with bounding spheres (the Chinese bounding-sphere picking tutorial).
 *
 * Every object carries a bounding sphere. A left click runs the
 * tutorial's own click, ported to C under its names
 * (listings/lesson1_cgame_pick.c: HandleMessage, CalculateRay,
 * TransformRay, CheckIntersection): the pixel becomes the view-space
 * direction (px, py, 1), the inverse view matrix takes it into the world,
 * and each bounding sphere's quadratic t^2 + b t + c = 0 says whether the
 * ray meets it. The lesson turns what the ray hits: only the nearest
 * object (what a user expects; the library's rp_intersect_ray_spheres), or
 * with N every object on the ray, as the tutorial's loop (its m_bRotate).
 * T switches to the tutorial's click rule (rotation on for what is hit,
 * off for the rest).
 *
 * The tutorial's code keeps its mistakes: it ignores the viewport's
 * offset, reads only the projection's _11 and _22, and takes +z as
 * forward. D hands it OpenGL's right-handed matrices as they are instead
 * of the Direct3D ones it was written for: its ray then points behind the
 * camera (drawn red), while the library's (rp_pick_ray_perspective reads
 * the handedness from the projection) still picks.
 *
 * Step mode (P, then '.' and ','): the listing's steps one at a time, each
 * lighting its line in the code panel with the tutorial's variables, drawn
 * from the side (the camera frames the step: lesson->frame; Z frees it),
 * and as the key figure in the inset (lesson->figure): CalculateRay's
 * window -> NDC -> z = 1 mapping, or the quadratic's roots on the ray's t
 * axis. The tour (O) stages the tutorial's case, its mistakes and the fix.
 *
 * X shows the details: the ray method (M: the D3D9 way,
 * rp_pick_ray_perspective, or XNA's unproject, rp_pick_ray_unproject, and
 * whether both pick the same), the tutorial's numbers, and V's bounding
 * volumes (the tutorial's sphere, the smallest sphere, the world AABB, the
 * OBB; shape_bounds.h) with each one's false positives: objects whose
 * volume the ray hits while it misses every triangle. A switches to the
 * many-objects mode (lesson1_many.c: 100,000 moving objects in one
 * rp_scene) and back.
 */
#include "lesson.h"
#include "msg.h"
#include "lesson1_cgame_pick.h"
#include "lesson1_many.h"
#include "shape_bounds.h"
#include "steady_math.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OBJECT_COUNT 6
#define STEP_CAP 64             /* >= every step of a click: 4 + 5 per object */
#define TEXT(id) msg("lesson.picking-spheres." id)
#define STEP_ID(name) "lesson.picking-spheres.step." name
#define RAY_SHOWN 60.0f         /* world units of a ray that hits nothing */

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

/* One object's test for the last click on the ray the click used (the
   HUD's numbers with X): the quadratic a t^2 + b t + c = 0 with
   v = origin - center (a = 1 for the D3D9 ray's unit dir), or the box's
   slab interval (AABB, OBB). */
typedef struct object_test {
    bool quadratic;         /* a sphere volume: a, b, c, disc, t0, t1 below */
    float a, b, c, disc;
    float t0, t1;           /* the tutorial's names: t0 = (-b + sqrt(disc)) / 2a, t1 = (-b - sqrt(disc)) / 2a */
    bool hit;               /* disc >= 0 and t0 >= 0 or t1 >= 0 */
    float t_enter, t_exit;  /* a box: where the ray enters and leaves it */
} object_test;

/* What a recorded step of the listing is, for drawing it. */
typedef enum step_kind {
    K_PX,               /* CalculateRay: px */
    K_PY,               /* CalculateRay: py */
    K_VIEW_RAY,         /* CalculateRay: the ray (px, py, 1) */
    K_TRANSFORM,        /* TransformRay: the world ray */
    K_SPHERE,           /* HandleMessage's loop: sphere i */
    K_QUADRATIC,        /* CheckIntersection: v, b, c */
    K_DISC,             /* CheckIntersection: n = b^2 - 4c */
    K_ROOTS,            /* CheckIntersection: t0, t1 */
    K_HIT               /* CheckIntersection returns true */
} step_kind;

static const struct {
    const char *id;
    step_kind kind;
} step_kinds[] = {
    {STEP_ID("px"), K_PX},           {STEP_ID("py"), K_PY},
    {STEP_ID("view-ray"), K_VIEW_RAY}, {STEP_ID("transform"), K_TRANSFORM},
    {STEP_ID("sphere"), K_SPHERE},   {STEP_ID("quadratic"), K_QUADRATIC},
    {STEP_ID("no-root"), K_DISC},    {STEP_ID("two-roots"), K_DISC},
    {STEP_ID("roots"), K_ROOTS},     {STEP_ID("roots-behind"), K_ROOTS},
    {STEP_ID("hit"), K_HIT},         {STEP_ID("hit-inside"), K_HIT},
};

/* A recorded step as the scene and the inset draw it: its object (-1:
   the ray's steps) and what the object's test knows so far. */
typedef struct step_view {
    step_kind kind;
    int object;
    bool has_bc, has_n, has_roots;
    float b, c, n, t0, t1;
    bool verdict_known, hit;
} step_view;

typedef struct lesson1 {
    object objects[OBJECT_COUNT];
    shape_bounds bounds;
    int volume;                     /* VOLUME_TUTORIAL or 1 + bound_volume */
    int false_positives[VOLUME_COUNT];  /* of the last click, per volume */
    char fp_names[VOLUME_COUNT][128];   /* names on the HUD: UTF-8 */
    lesson_method method;
    bool nearest_only;
    bool set_clear;                 /* T: the tutorial's rule (hit on, the rest off) instead of a toggle */
    bool details;                   /* X: the HUD's details */
    bool left_handed;               /* D: the tutorial's device holds Direct3D's matrices (else GL's) */
    bool framed;                    /* Z: step mode's camera frames the step */
    lesson_stepper stepper;         /* P . ,: the listing's steps */
    object_test tests[OBJECT_COUNT];    /* of the last click, on its ray */
    float tut_px, tut_py;           /* CalculateRay's px, py of the last click */
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
    /* the tutorial's code for the last click */
    CGame game;
    listing_trace trace;
    listing_step steps[STEP_CAP];
    step_view views[STEP_CAP];
    rp_ray tut_ray;                 /* TransformRay's ray (unit dir) */
    bool tut_left_handed;           /* the device it ran with */
    int tut_hits;                   /* spheres its loop says the ray meets */
    vec3 eye, right, up, zt;        /* the click's camera: eye, its axes, the tutorial's +z in the world */
    float click_x, click_y;         /* the click's pixel centre */
    rp_viewport click_viewport;
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
    self->show_bounds = true;       /* the lesson is about them: B hides them */
    self->left_handed = true;
    self->framed = true;
    self->seed = env->seed;
    self->many_count = env->many_objects;
    listing_trace_reset(&self->trace, self->steps, STEP_CAP);
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
    return v == VOLUME_TUTORIAL ? TEXT("volume.tutorial")
           : v == 1             ? TEXT("volume.smallest")
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
    case 'x': self->details = !self->details; return true;
    case 'd': self->left_handed = !self->left_handed; return true;
    case 'z': self->framed = !self->framed; return true;
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

/* CheckIntersection's quadratic for every object on the ray the click
   used (the HUD's numbers with X; the unproject ray's dir is not unit:
   a != 1), or the box's slabs. */
static void record_tests(lesson1 *self, const lesson_click *c, const rp_ray *ray)
{
    self->dir_length = glm_vec3_norm((float *)ray->dir);
    self->last_method = c->method;
    for (int i = 0; i < OBJECT_COUNT; ++i) {
        object_test *t = &self->tests[i];
        memset(t, 0, sizeof *t);
        if (self->volume > 1) {
            rp_hit h;
            t->hit = volume_hit(self, i, self->volume, ray, &h);
            if (t->hit) {
                t->t_enter = h.t_enter;
                t->t_exit = h.t_exit;
            }
            continue;
        }
        rp_sphere s;
        volume_sphere(self, &self->objects[i], &s);
        vec3 v;
        glm_vec3_sub((float *)ray->origin, s.center, v);
        t->quadratic = true;
        t->a = glm_vec3_dot((float *)ray->dir, (float *)ray->dir);
        t->b = 2.0f * glm_vec3_dot((float *)ray->dir, v);
        t->c = glm_vec3_dot(v, v) - s.radius * s.radius;
        t->disc = t->b * t->b - 4.0f * t->a * t->c;
        if (t->disc >= 0.0f) {
            float n = sqrtf(t->disc);
            t->t0 = (-t->b + n) / (2.0f * t->a);
            t->t1 = (-t->b - n) / (2.0f * t->a);
            t->hit = t->t0 >= 0.0f || t->t1 >= 0.0f;
        }
    }
}

/* ------------------------------------------------------------ the tutorial's code */

static step_kind kind_of(const listing_step *s)
{
    for (size_t i = 0; i < sizeof step_kinds / sizeof step_kinds[0]; ++i)
        if (strcmp(step_kinds[i].id, s->msg_id) == 0)
            return step_kinds[i].kind;
    return K_SPHERE;    /* not reached: every id the listing records is above */
}

static float watch_f(const listing_step *s, const char *name, float fallback)
{
    const listing_watch *w = listing_step_watch(s, name);
    return w && w->kind == LISTING_WATCH_FLOAT ? w->v[0] : fallback;
}

static int watch_i(const listing_step *s, const char *name, int fallback)
{
    const listing_watch *w = listing_step_watch(s, name);
    return w && w->kind == LISTING_WATCH_INT ? w->i : fallback;
}

/* What each recorded step shows: its object and what its test knows by
   then (each step carries the numbers of the ones before it). */
static void build_views(lesson1 *self)
{
    step_view now = {.object = -1};
    for (int i = 0; i < self->trace.count; ++i) {
        const listing_step *s = &self->steps[i];
        now.kind = kind_of(s);
        switch (now.kind) {
        case K_PX:
        case K_PY:
        case K_VIEW_RAY:
        case K_TRANSFORM:
            now.object = -1;
            break;
        case K_SPHERE:
            memset(&now, 0, sizeof now);
            now.kind = K_SPHERE;
            now.object = watch_i(s, "i", -1);
            break;
        case K_QUADRATIC:
            now.has_bc = true;
            now.b = watch_f(s, "b", 0.0f);
            now.c = watch_f(s, "c", 0.0f);
            break;
        case K_DISC:
            now.has_n = true;
            now.n = watch_f(s, "n", 0.0f);
            if (now.n < 0.0f)
                now.verdict_known = true, now.hit = false;
            break;
        case K_ROOTS:
            now.has_roots = true;
            now.t0 = watch_f(s, "t0", 0.0f);
            now.t1 = watch_f(s, "t1", 0.0f);
            if (now.t0 < 0.0f && now.t1 < 0.0f)
                now.verdict_known = true, now.hit = false;
            break;
        case K_HIT:
            now.verdict_known = now.hit = true;
            break;
        }
        self->views[i] = now;
    }
}

/* The click's camera in the world: its eye and axes, and where the
   tutorial's view-space +z points (forward with Direct3D's matrices,
   backward with GL's). */
static void camera_axes(lesson1 *self, const lesson_click *c)
{
    mat4 inv;
    glm_mat4_inv((vec4 *)c->view, inv);
    glm_vec3_copy(inv[3], self->eye);
    glm_vec3_copy(inv[0], self->right);
    glm_vec3_copy(inv[1], self->up);
    glm_vec3_copy(inv[2], self->zt);        /* GL's view z: behind the eye */
    if (self->left_handed)
        glm_vec3_negate(self->zt);
}

/* Runs the tutorial's click (the listing's HandleMessage) on the click's
   pixel and camera, its spheres the lesson's sphere volume (the tutorial's,
   or the smallest: the boxes have no CheckIntersection), recording every
   step. */
static void run_tutorial(lesson1 *self, const lesson_click *c)
{
    mat4 view, proj;
    glm_mat4_copy((vec4 *)c->view, view);
    glm_mat4_copy((vec4 *)c->proj, proj);
    listing_trace_reset(&self->trace, self->steps, STEP_CAP);
    memset(&self->game, 0, sizeof self->game);
    self->game.trace = &self->trace;
    self->game.sphereCount = OBJECT_COUNT;
    for (int i = 0; i < OBJECT_COUNT; ++i) {
        rp_sphere s;
        if (self->volume == 1)
            volume_sphere(self, &self->objects[i], &s);
        else
            bounding_sphere(&self->objects[i], &s);
        self->game.m_boundSphere[i] = (BoundSphere){{s.center[0], s.center[1], s.center[2]}, s.radius};
    }
    self->tut_hits = 0;
    self->tut_left_handed = self->left_handed;
    self->click_x = c->px;
    self->click_y = c->py;
    self->click_viewport = c->viewport;
    camera_axes(self, c);
    if (!CGame_SetDevice(&self->game, &c->viewport, view, proj, self->left_handed)) {
        self->trace.count = 0;      /* not a perspective camera: the tutorial cannot run */
        return;
    }
    HandleMessage(&self->game, WM_LBUTTONDOWN, c->px, c->py);
    Ray r = self->game.lastRay;
    self->tut_ray = (rp_ray){{r._origin.x, r._origin.y, r._origin.z}, {r._dirction.x, r._dirction.y, r._dirction.z}};
    for (int i = 0; i < OBJECT_COUNT; ++i)
        self->tut_hits += self->game.m_bRotate[i];
    const listing_watch *px = self->trace.count > 0 ? listing_step_watch(&self->steps[0], "px") : NULL;
    const listing_watch *py = self->trace.count > 1 ? listing_step_watch(&self->steps[1], "py") : NULL;
    self->tut_px = px ? px->v[0] : NAN;
    self->tut_py = py ? py->v[0] : NAN;
    build_views(self);
}

static bool sphere_volume(const lesson1 *self)
{
    return self->volume <= 1;
}

static void click(void *self_, const lesson_click *c, lesson_pick *out)
{
    lesson1 *self = self_;
    if (self->many_on) {
        lesson1_many_click(self->many, c, out);
        return;
    }
    lesson_pick_miss(out, &c->ray, lesson_method_name(c->method));
    run_tutorial(self, c);
    self->has_ray = true;
    self->last_ray = c->ray;

    rp_hit hit;
    int id = nearest_hit(self, &c->ray, &hit);
    int hits[OBJECT_COUNT], hit_count = 0;
    if (self->nearest_only) {
        if (id >= 0)
            hits[hit_count++] = id;
    } else if (sphere_volume(self) && c->method == LESSON_PICK_D3D9 && self->trace.count > 0) {
        /* the tutorial's loop, as its own code ran: m_bRotate */
        for (int i = 0; i < OBJECT_COUNT; ++i)
            if (self->game.m_bRotate[i])
                hits[hit_count++] = i;
    } else {
        /* the same loop on the click's ray with the volume chosen */
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
    record_tests(self, c, &c->ray);
    lesson_stepper_restart(&self->stepper, self->trace.count);
    self->last_id = id;
    count_false_positives(self, &c->ray);
    compare_methods(self, c, id, &hit);
    snprintf(out->note, sizeof out->note, "%.95s", self->agreement);     /* note: 96 bytes */

    int rotate[OBJECT_COUNT], rotate_count = 0;
    for (int i = 0; i < OBJECT_COUNT; ++i)
        if (self->game.m_bRotate[i])
            rotate[rotate_count++] = i;
    lesson_pick_bool(out, "nearest_only", self->nearest_only);
    lesson_pick_bool(out, "set_clear", self->set_clear);
    lesson_pick_bool(out, "left_handed", self->tut_left_handed);
    lesson_pick_float(out, "CalculateRay_px", self->tut_px, 6);
    lesson_pick_float(out, "CalculateRay_py", self->tut_py, 6);
    lesson_pick_vec3(out, "TransformRay_dir", self->tut_ray.dir, 6);
    lesson_pick_ints(out, "m_bRotate", rotate, rotate_count);
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

static const vec4 YELLOW = {1.0f, 0.9f, 0.4f, 0.9f}, GREEN = {0.4f, 1.0f, 0.5f, 1.0f};
static const vec4 GREY = {0.6f, 0.6f, 0.6f, 1.0f}, RED = {1.0f, 0.3f, 0.25f, 1.0f};
static const vec4 CYAN = {0.3f, 0.85f, 1.0f, 1.0f}, WHITE = {1.0f, 1.0f, 1.0f, 0.95f};
static const vec4 ORANGE = {1.0f, 0.6f, 0.2f, 1.0f};

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

/* the step shown: the stepper's in step mode, -1 when there is none */
static int current_step(const lesson1 *self)
{
    if (!self->has_ray || self->many_on || !lesson_stepper_active(&self->stepper) ||
        self->stepper.current >= self->trace.count)
        return -1;
    return self->stepper.current;
}

/* the object the step shown tests, -1: none (a step of the ray) */
static int step_object(const lesson1 *self)
{
    int cur = current_step(self);
    return cur >= 0 ? self->views[cur].object : -1;
}

/* the point t along the tutorial's ray */
static void tut_at(const lesson1 *self, float t, vec3 out)
{
    rp_ray_at(&self->tut_ray, t, out);
}

/* CalculateRay's picture: the plane z = 1 of its view space (one unit in
   front of the eye along the tutorial's +z, as wide as the view there:
   2 / _11 by 2 / _22) and the point (px, py, 1) on it. */
static void draw_view_plane(const lesson1 *self, step_kind kind, render_list *list)
{
    float hx = 1.0f / self->game.projection._11, hy = 1.0f / self->game.projection._22;
    vec3 centre, corner[4], p;
    glm_vec3_add((float *)self->eye, (float *)self->zt, centre);
    for (int k = 0; k < 4; ++k) {
        glm_vec3_copy(centre, corner[k]);
        glm_vec3_muladds((float *)self->right, (k == 0 || k == 3) ? -hx : hx, corner[k]);
        glm_vec3_muladds((float *)self->up, k < 2 ? -hy : hy, corner[k]);
    }
    for (int k = 0; k < 4; ++k)
        render_list_line(list, corner[k], corner[(k + 1) % 4], CYAN);
    render_list_line(list, self->eye, centre, (vec4){0.3f, 0.85f, 1.0f, 0.5f});
    glm_vec3_copy(centre, p);
    glm_vec3_muladds((float *)self->right, self->tut_px, p);
    vec3 q;
    glm_vec3_copy(p, q);
    glm_vec3_muladds((float *)self->up, self->tut_py, p);
    /* px along the plane's x, py along its y, then the point */
    render_list_line(list, centre, q, kind == K_PX ? ORANGE : (vec4){1.0f, 0.6f, 0.2f, 0.5f});
    if (kind != K_PX)
        render_list_line(list, q, p, ORANGE);
    render_list_point(list, kind == K_PX ? q : p, 12.0f, YELLOW);
    render_list_point(list, self->eye, 10.0f, WHITE);
    if (kind == K_VIEW_RAY) {
        vec3 far;
        glm_vec3_sub(p, (float *)self->eye, far);
        glm_vec3_scale(far, 3.0f, far);
        glm_vec3_add(far, (float *)self->eye, far);
        render_list_line(list, self->eye, far, YELLOW);
    }
}

/* An object's test: its sphere lit (yellow: the test says hit, red: miss,
   white: not decided yet), where the ray passes nearest its centre, and
   the roots t1 (near) and t0 as points (green in front of the eye, grey
   behind it). */
static void draw_object_test(const lesson1 *self, const step_view *v, render_list *list)
{
    const BoundSphere *b = &self->game.m_boundSphere[v->object];
    vec3 c = {b->_center.x, b->_center.y, b->_center.z};
    vec4 glass = {1.0f, 1.0f, 1.0f, 0.10f};
    if (v->verdict_known)
        glm_vec4_copy(v->hit ? (vec4){1.0f, 0.85f, 0.3f, 0.16f} : (vec4){1.0f, 0.3f, 0.25f, 0.14f}, glass);
    render_list_glass_sphere(list, c, b->radius, glass);
    render_list_point(list, c, 8.0f, WHITE);
    if (v->has_bc) {
        /* t^2 + b t + c is least at t = -b/2: the ray's nearest point */
        vec3 near;
        tut_at(self, -0.5f * v->b, near);
        render_list_line(list, near, c, (vec4){1.0f, 1.0f, 1.0f, 0.6f});
        render_list_point(list, near, 8.0f, (vec4){1.0f, 1.0f, 1.0f, 0.7f});
    }
    if (!v->has_roots)
        return;
    float roots[2] = {v->t1, v->t0};
    for (int k = 0; k < 2; ++k) {
        vec3 at;
        tut_at(self, roots[k], at);
        render_list_point(list, at, k == 0 ? 16.0f : 12.0f, roots[k] >= 0.0f ? GREEN : GREY);
    }
}

static void draw_steps(const lesson1 *self, render_list *list)
{
    int cur = current_step(self);
    const step_view *v = &self->views[cur];
    /* the tutorial's ray from the eye; red when it runs behind the camera */
    vec3 far;
    tut_at(self, RAY_SHOWN, far);
    bool backwards = !self->tut_left_handed;
    if (v->kind >= K_TRANSFORM)
        render_list_line(list, self->tut_ray.origin, far, backwards ? RED : (vec4){1.0f, 1.0f, 1.0f, 0.6f});
    render_list_point(list, self->tut_ray.origin, 10.0f, WHITE);
    if (v->kind <= K_VIEW_RAY)
        draw_view_plane(self, v->kind, list);
    else if (v->object >= 0)
        draw_object_test(self, v, list);
}

static void draw(const void *self_, render_list *list)
{
    const lesson1 *self = self_;
    if (self->many_on) {
        lesson1_many_draw(self->many, list);
        return;
    }
    /* step mode on an object's test, framed: the others as their spheres
       only, so none hides the test */
    int focus = self->framed ? step_object(self) : -1;
    for (int i = 0; i < OBJECT_COUNT; ++i) {
        const object *o = &self->objects[i];
        if (focus >= 0 && i != focus)
            continue;
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
    bool stepping = current_step(self) >= 0;
    if (self->has_ray && !stepping) {
        /* the ray ends at the hit, or runs RAY_SHOWN units into the scene */
        rp_ray ray = self->last_ray;
        vec3 hit;
        glm_vec3_copy((float *)self->last_point, hit);
        float len = self->last_hit ? glm_vec3_distance(ray.origin, hit) : RAY_SHOWN;
        vec3 far;
        glm_vec3_normalize_to(ray.dir, far);
        glm_vec3_scale(far, len, far);
        glm_vec3_add(far, ray.origin, far);
        render_list_line(list, ray.origin, far, YELLOW);
        if (self->last_hit)
            render_list_point(list, self->last_point, 12.0f, (vec4){1.0f, 0.95f, 0.5f, 1.0f});
        /* the tutorial's own ray where it is another (OpenGL's matrices: backwards) */
        if (!self->tut_left_handed && self->trace.count > 0) {
            tut_at(self, RAY_SHOWN, far);
            render_list_line(list, self->tut_ray.origin, far, RED);
        }
    }
    if (stepping)
        draw_steps(self, list);
    if (self->show_bounds && self->volume > 1)
        for (int i = 0; i < OBJECT_COUNT; ++i)
            list_box(self, i, list);
    if (self->show_bounds && self->volume <= 1) {
        for (int i = 0; i < OBJECT_COUNT; ++i) {
            const object *o = &self->objects[i];
            if (stepping && i == step_object(self))
                continue;   /* drawn by the step */
            vec4 c = {0.35f, 0.55f, 0.85f, 0.05f};
            if (o->rotating)
                glm_vec4_copy((vec4){0.95f, 0.75f, 0.35f, 0.07f}, c);
            rp_sphere s;
            volume_sphere(self, o, &s);
            render_list_glass_sphere(list, s.center, s.radius, c);
        }
    }
}

/* ------------------------------------------------------------ the step's camera */

/* A camera looking square at the tutorial's ray from its side (the side
   the click's camera has on its right), a little above, at target. */
static void side_camera(const lesson1 *self, const vec3 target, float distance, lesson_camera *out)
{
    vec3 side;
    glm_vec3_cross((float *)self->tut_ray.dir, (vec3){0.0f, 1.0f, 0.0f}, side);
    if (glm_vec3_norm(side) < 1e-3f)
        glm_vec3_copy((float *)self->right, side);
    side[1] = 0.0f;
    glm_vec3_normalize(side);
    if (glm_vec3_dot(side, (float *)self->right) < 0.0f)
        glm_vec3_negate(side);
    out->yaw = atan2f(side[0], side[2]);
    out->pitch = 0.18f;
    out->fov = 0.7853982f;
    out->distance = distance;
    glm_vec3_copy((float *)target, out->target);
    /* the HUD covers the top of the room: what the step shows a little below the middle */
    out->target[1] += 0.08f * distance;
}

/* Step mode's camera: the eye and the plane z = 1 for CalculateRay, the
   ray through the scene for TransformRay, the sphere under test with the
   stretch of ray that passes it (both roots in it) for CheckIntersection.
   The app centres it in the room the panels leave. */
static bool frame(const void *self_, lesson_camera *out)
{
    const lesson1 *self = self_;
    int cur = self->framed ? current_step(self) : -1;
    if (cur < 0)
        return false;
    const step_view *v = &self->views[cur];
    vec3 target;
    if (v->kind <= K_VIEW_RAY) {
        /* from behind the eye and to its side: the plane z = 1 face on
           enough to see where (px, py) lies on it, the ray through it */
        glm_vec3_copy((float *)self->eye, target);
        glm_vec3_muladds((float *)self->zt, 0.6f, target);
        side_camera(self, target, 4.0f, out);
        vec3 back = {-self->zt[0], 0.0f, -self->zt[2]};
        if (glm_vec3_norm(back) > 1e-3f) {
            glm_vec3_normalize(back);
            vec3 side = {sinf(out->yaw), 0.0f, cosf(out->yaw)}, from;
            glm_vec3_scale(side, 0.6f, from);
            glm_vec3_muladds(back, 0.8f, from);
            out->yaw = atan2f(from[0], from[2]);
        }
        return true;
    }
    if (v->object < 0) {
        /* the eye, the ray as far as the objects reach along it, and the
           objects (a ray that runs backwards shows beside them) */
        float reach = 8.0f;
        vec3 lo, hi, end;
        glm_vec3_copy((float *)self->eye, lo);
        glm_vec3_copy((float *)self->eye, hi);
        for (int i = 0; i < OBJECT_COUNT; ++i) {
            vec3 d, c;
            const BoundSphere *b = &self->game.m_boundSphere[i];
            glm_vec3_copy((vec3){b->_center.x, b->_center.y, b->_center.z}, c);
            glm_vec3_sub(c, (float *)self->tut_ray.origin, d);
            reach = glm_max(reach, fabsf(glm_vec3_dot(d, (float *)self->tut_ray.dir)) + b->radius);
            glm_vec3_minv(lo, c, lo);
            glm_vec3_maxv(hi, c, hi);
        }
        tut_at(self, glm_min(reach, RAY_SHOWN), end);
        glm_vec3_minv(lo, end, lo);
        glm_vec3_maxv(hi, end, hi);
        glm_vec3_center(lo, hi, target);
        side_camera(self, target, 1.1f * glm_vec3_distance(lo, hi) + 2.0f, out);
        return true;
    }
    const BoundSphere *b = &self->game.m_boundSphere[v->object];
    vec3 c = {b->_center.x, b->_center.y, b->_center.z}, d, near;
    glm_vec3_sub(c, (float *)self->tut_ray.origin, d);
    tut_at(self, glm_vec3_dot(d, (float *)self->tut_ray.dir), near);
    glm_vec3_center(c, near, target);
    float extent = b->radius + 0.5f * glm_vec3_distance(c, near);
    side_camera(self, target, 5.0f * extent + 2.0f, out);
    return true;
}

static bool code(const void *self_, lesson_code_view *out)
{
    const lesson1 *self = self_;
    memset(out, 0, sizeof *out);
    if (self->many_on)
        return false;
    out->code = &listing_lesson1_cgame_pick;
    if (self->has_ray && self->trace.count > 0) {
        out->steps = self->steps;
        out->count = self->trace.count;
    }
    int cur = current_step(self);
    if (cur >= 0) {
        out->step = &self->steps[cur];
        out->index = cur;
    }
    return true;
}
/* ------------------------------------------------------------ the inset */

static const vec4 FIG_BG = {0.03f, 0.04f, 0.08f, 1.0f}, FIG_TITLE = {1.0f, 0.92f, 0.65f, 1.0f};
static const vec4 FIG_TEXT = {0.80f, 0.88f, 1.0f, 1.0f}, FIG_DIM = {0.5f, 0.55f, 0.65f, 1.0f};
static const vec4 FIG_NOW = {1.0f, 1.0f, 0.45f, 1.0f}, FIG_BOX = {0.3f, 0.85f, 1.0f, 0.9f};

/* the inset's text lines, from the top of the area */
typedef struct fig_text {
    const lesson_figure_area *a;
    render_list *list;
    float line;                 /* one line's height */
} fig_text;

/* text from y, wrapped to the inset's width; returns the y after it */
static float fig_line(const fig_text *f, float y, const vec4 color, const char *text)
{
    return lesson_fig_text(f->list, f->a, y, color, text);
}

/* a box of the CalculateRay figure: its frame, its label above it */
static void fig_box(render_list *list, float x, float y, float w, float h, float ts, const char *label)
{
    const float t = 1.5f;
    render_list_fig_line(list, x, y, x + w, y, t, FIG_BOX);
    render_list_fig_line(list, x + w, y, x + w, y + h, t, FIG_BOX);
    render_list_fig_line(list, x + w, y + h, x, y + h, t, FIG_BOX);
    render_list_fig_line(list, x, y + h, x, y, t, FIG_BOX);
    render_list_fig_text(list, x + 0.5f * w, y - 14.0f * ts, ts, RENDER_ALIGN_CENTER, 0.0f, FIG_DIM, label);
}

/* CalculateRay: the click in the window (the viewport), in NDC ([-1, 1]
   both ways), and on the plane z = 1 (NDC divided by _11 and _22), then
   the sums with the click's numbers. */
static void figure_calculate(const lesson1 *self, int cur, const fig_text *f, float top)
{
    const lesson_figure_area *a = f->a;
    render_list *list = f->list;
    float ts = a->text_scale;
    float vw = self->click_viewport.width, vh = self->click_viewport.height;
    float m11 = self->game.projection._11, m22 = self->game.projection._22;
    float aspect = vw / vh, zw = 1.0f / m11, zh = 1.0f / m22;    /* half sizes of z = 1 */
    float gap = 26.0f * ts, label = 16.0f * ts;
    float room_h = a->y + a->h - top - label - 5.0f * f->line, room_w = a->w - 12.0f * ts - 2.0f * gap;
    /* three boxes side by side, NDC square, the window and z = 1 in the view's aspect */
    float bh = glm_min(room_h, room_w / (aspect + 1.0f + zw));
    if (!(bh > 8.0f))
        return;
    float unit = 0.5f * bh;     /* one NDC unit */
    float y = top + label, x = a->x + 6.0f * ts;
    float ww = bh * aspect;
    fig_box(list, x, y, ww, bh, ts, TEXT("figure.window"));
    float wx = x + self->click_x / vw * ww, wy = y + self->click_y / vh * bh;
    render_list_fig_circle(list, wx, wy, 4.0f * ts, 0.0f, FIG_NOW);
    float nx = 2.0f * self->click_x / vw - 1.0f, ny = 1.0f - 2.0f * self->click_y / vh;
    float x2 = x + ww + gap;
    render_list_fig_arrow(list, x + ww + 4.0f * ts, y + 0.5f * bh, x2 - 4.0f * ts, y + 0.5f * bh, 1.5f, FIG_DIM);
    fig_box(list, x2, y, bh, bh, ts, "NDC");
    float cx2 = x2 + unit, cy = y + unit;
    render_list_fig_line(list, x2, cy, x2 + bh, cy, 1.0f, FIG_DIM);
    render_list_fig_line(list, cx2, y, cx2, y + bh, 1.0f, FIG_DIM);
    render_list_fig_circle(list, cx2 + nx * unit, cy - ny * unit, 4.0f * ts, 0.0f, FIG_NOW);
    float x3 = x2 + bh + gap;
    render_list_fig_arrow(list, x2 + bh + 4.0f * ts, cy, x3 - 4.0f * ts, cy, 1.5f, FIG_DIM);
    float zx = x3, zy = cy - zh * unit;
    fig_box(list, zx, zy, 2.0f * zw * unit, 2.0f * zh * unit, ts, TEXT("figure.plane"));
    float cx3 = zx + zw * unit;
    render_list_fig_line(list, zx, cy, zx + 2.0f * zw * unit, cy, 1.0f, FIG_DIM);
    render_list_fig_line(list, cx3, zy, cx3, zy + 2.0f * zh * unit, 1.0f, FIG_DIM);
    step_kind k = cur >= 0 ? self->views[cur].kind : K_VIEW_RAY;
    float px = self->tut_px, py = k == K_PX ? 0.0f : self->tut_py;
    render_list_fig_line(list, cx3, cy, cx3 + px * unit, cy, 2.0f, ORANGE);
    if (k != K_PX)
        render_list_fig_line(list, cx3 + px * unit, cy, cx3 + px * unit, cy - py * unit, 2.0f, ORANGE);
    render_list_fig_circle(list, cx3 + px * unit, cy - py * unit, 4.0f * ts, 0.0f, FIG_NOW);

    /* the sums */
    char text[256];
    float ty = y + bh + 6.0f * ts;
    snprintf(text, sizeof text, TEXT("figure.px"), (double)self->click_x, (unsigned)self->game.viewport.Width,
             (double)nx, (double)m11, (double)self->tut_px);
    ty = fig_line(f, ty, k == K_PX ? FIG_NOW : FIG_TEXT, text);
    snprintf(text, sizeof text, TEXT("figure.py"), (double)self->click_y, (unsigned)self->game.viewport.Height,
             (double)ny, (double)m22, (double)self->tut_py);
    ty = fig_line(f, ty, k == K_PY ? FIG_NOW : FIG_TEXT, text);
    if (self->tut_left_handed)
        snprintf(text, sizeof text, TEXT("figure.dir"), (double)self->tut_px, (double)self->tut_py);
    else
        snprintf(text, sizeof text, TEXT("figure.dir-gl"), (double)self->tut_px, (double)self->tut_py);
    ty = fig_line(f, ty, !self->tut_left_handed ? RED : k >= K_VIEW_RAY ? FIG_NOW : FIG_TEXT, text);
    snprintf(text, sizeof text, TEXT("figure.viewport"), (unsigned)self->game.viewport.X,
             (unsigned)self->game.viewport.Y);
    fig_line(f, ty, FIG_DIM, text);
}

/* CheckIntersection: f(t) = t^2 + b t + c along the ray's t axis (world
   units from the eye, 0 marked), its roots where it crosses zero, what the
   tutorial asks of them and which is the hit. The numbers appear as the
   steps compute them. */
static void figure_roots(const lesson1 *self, const step_view *v, const fig_text *f, float top)
{
    const lesson_figure_area *a = f->a;
    render_list *list = f->list;
    float ts = a->text_scale;
    float radius = self->game.m_boundSphere[v->object].radius;
    float x0 = a->x + 14.0f * ts, x1 = a->x + a->w - 14.0f * ts;
    float py0 = top + 2.0f, py1 = a->y + a->h - 4.8f * f->line;
    if (!(x1 - x0 > 16.0f) || !(py1 - py0 > 32.0f * ts))
        return;
    /* t from 0 to the far side of the sphere (the roots lie around
       -b/2, half the chord on either side) */
    float tv = v->has_bc ? -0.5f * v->b : 0.0f, half = v->has_n && v->n > 0.0f ? 0.5f * sqrtf(v->n) : 0.0f;
    float reach = glm_max(half, radius) * 1.4f;
    float t_lo = glm_min(0.0f, tv - reach), t_hi = glm_max(0.0f, tv + reach);
    if (!v->has_bc)
        t_lo = 0.0f, t_hi = 1.0f;
    float fv = v->has_bc ? v->c - 0.25f * v->b * v->b : -1.0f;      /* f at its vertex: -n/4 */
    float f_lo = glm_min(fv, -0.25f * radius * radius) * 1.25f, f_hi = glm_max(-f_lo * 1.6f, 1.8f * fv);
    float pb = py1 - 16.0f * ts;        /* under the axis: the eye's label */
    float axis_y = py0 + (pb - py0) * f_hi / (f_hi - f_lo);
#define TX(t) (x0 + ((t) - t_lo) / (t_hi - t_lo) * (x1 - x0))
#define FY(fx) (axis_y - (fx) / (f_hi - f_lo) * (pb - py0))
    render_list_fig_arrow(list, x0, axis_y, x1 + 8.0f * ts, axis_y, 1.5f, FIG_DIM);
    render_list_fig_text(list, x1 + 6.0f * ts, axis_y + 3.0f * ts, ts, RENDER_ALIGN_RIGHT, 0.0f, FIG_DIM, "t");
    /* t = 0: the eye, TransformRay's origin */
    render_list_fig_line(list, TX(0.0f), axis_y - 5.0f * ts, TX(0.0f), axis_y + 5.0f * ts, 2.0f, WHITE);
    /* its label from the tick rightwards: centred it ran out of the inset */
    render_list_fig_text(list, glm_max(TX(0.0f) - 6.0f * ts, a->x + 4.0f * ts), axis_y + 6.0f * ts, ts,
                         RENDER_ALIGN_LEFT, 0.0f, WHITE, TEXT("figure.eye"));
    if (v->has_bc) {
        enum { N = 96 };
        float xy[2 * (N + 1)];
        for (int i = 0; i <= N; ++i) {
            float t = t_lo + (t_hi - t_lo) * (float)i / N, fx = t * t + v->b * t + v->c;
            xy[2 * i] = TX(t);
            xy[2 * i + 1] = fx >= f_lo && fx <= f_hi ? FY(fx) : NAN;
        }
        render_list_fig_polyline(list, xy, N + 1, 2.0f, (vec4){1.0f, 0.85f, 0.25f, 1.0f});
    }
    if (v->has_roots) {
        /* inside the sphere from t1 to t0 */
        render_list_fig_line(list, TX(v->t1), axis_y, TX(v->t0), axis_y, 4.0f * ts, (vec4){1.0f, 0.85f, 0.3f, 0.6f});
        const float roots[2] = {v->t1, v->t0};
        const char *names[2] = {"t1", "t0"};
        /* the hit: the smallest root >= 0 */
        int hit = v->t1 >= 0.0f ? 0 : v->t0 >= 0.0f ? 1 : -1;
        for (int k = 0; k < 2; ++k) {
            float rx = TX(roots[k]);
            render_list_fig_circle(list, rx, axis_y, (k == hit ? 6.0f : 4.0f) * ts, k == hit ? 0.0f : 2.0f,
                                   roots[k] >= 0.0f ? GREEN : GREY);
            render_list_fig_text(list, rx, axis_y - 19.0f * ts, ts, RENDER_ALIGN_CENTER, 0.0f,
                                 roots[k] >= 0.0f ? GREEN : GREY, names[k]);
        }
    }
#undef TX
#undef FY
    char text[256];
    float ty = py1 + 4.0f * ts;
    if (!v->has_bc)
        snprintf(text, sizeof text, "%s", TEXT("figure.roots.wait"));
    else if (!v->has_n)
        snprintf(text, sizeof text, TEXT("figure.roots.bc"), (double)v->b, (double)v->c);
    else
        snprintf(text, sizeof text, TEXT("figure.roots.bcn"), (double)v->b, (double)v->c, (double)v->n);
    ty = fig_line(f, ty, FIG_TEXT, text);
    if (v->has_n && v->n < 0.0f)
        snprintf(text, sizeof text, "%s", TEXT("figure.roots.none"));
    else if (!v->has_roots)
        text[0] = '\0';
    else if (v->t1 >= 0.0f)
        snprintf(text, sizeof text, TEXT("figure.roots.hit"), (double)v->t1, (double)v->t0);
    else if (v->t0 >= 0.0f)
        snprintf(text, sizeof text, TEXT("figure.roots.inside"), (double)v->t1, (double)v->t0);
    else
        snprintf(text, sizeof text, TEXT("figure.roots.behind"), (double)v->t0, (double)v->t1);
    if (text[0])
        ty = fig_line(f, ty, v->verdict_known && !v->hit ? RED : FIG_NOW, text);
    fig_line(f, ty, FIG_DIM, TEXT("figure.roots.rule"));
}

static void figure(const void *self_, const lesson_figure_area *area, render_list *list)
{
    const lesson1 *self = self_;
    float ts = area->text_scale;
    fig_text f = {area, list, LESSON_FIG_LINE * ts};
    render_list_fig_rect(list, area->x, area->y, area->w, area->h, FIG_BG);
    float top = area->y + 5.0f * ts;
    if (self->many_on || !self->has_ray || self->trace.count == 0) {
        fig_line(&f, fig_line(&f, top, FIG_TITLE, TEXT("figure.calc.title")), FIG_TEXT, TEXT("figure.empty"));
        return;
    }
    int cur = current_step(self);
    if (cur >= 0 && self->views[cur].object >= 0) {
        const step_view *v = &self->views[cur];
        char title[160], name[48];
        snprintf(title, sizeof title, TEXT("figure.roots.title"),
                 lesson_display_name("name", self->objects[v->object].name, name, sizeof name));
        figure_roots(self, v, &f, fig_line(&f, top, FIG_TITLE, title) + f.line);
        return;
    }
    figure_calculate(self, cur, &f, fig_line(&f, top, FIG_TITLE, TEXT("figure.calc.title")));
}

/* ------------------------------------------------------------ the HUD */

/* What t measures with the last click's ray. */
static void t_meaning(const lesson1 *self, char *buf, size_t size)
{
    if (self->last_method == LESSON_PICK_D3D9)
        snprintf(buf, size, "%s", TEXT("t.d3d9"));
    else
        snprintf(buf, size, TEXT("t.unproject"), (double)self->dir_length);
}

/* X: everything the lesson measures (the ray methods, the tutorial's
   numbers, the volumes' false positives, the other modes' keys). */
static void status_details(const lesson1 *self, char *buf, size_t size)
{
    int n = 0;
    for (int i = 0; i < OBJECT_COUNT; ++i)
        n += self->objects[i].rotating;
    char meaning[192] = "", numbers[200] = "", name[48];
    if (self->has_ray) {
        t_meaning(self, meaning, sizeof meaning);
        int k = snprintf(numbers, sizeof numbers, "px %.4f  py %.4f (CalculateRay: ((2x/w)-1)/_11, (1-2y/h)/_22)",
                         (double)self->tut_px, (double)self->tut_py);
        const object_test *t = self->last_id >= 0 ? &self->tests[self->last_id] : NULL;
        if (t && t->quadratic && k > 0 && (size_t)k < sizeof numbers)
            snprintf(numbers + k, sizeof numbers - (size_t)k, "   %s: t0 %.4g  t1 %.4g",
                     lesson_display_name("name", self->objects[self->last_id].name, name, sizeof name),
                     (double)t->t0, (double)t->t1);
    } else {
        snprintf(numbers, sizeof numbers, "%s", TEXT("steps.hint"));
    }
    int k = snprintf(buf, size, TEXT("status"),
                     msg(self->method == LESSON_PICK_D3D9 ? "lesson.picking-spheres.ray.d3d9"
                                                          : "lesson.picking-spheres.ray.unproject"),
                     msg(self->nearest_only ? "lesson.picking-spheres.picks.nearest"
                                            : "lesson.picking-spheres.picks.all"),
                     msg(self->show_bounds ? "word.shown" : "word.hidden"), n,
                     msg(self->set_clear ? "lesson.picking-spheres.rule.tutorial" : "lesson.picking-spheres.rule.toggle"),
                     self->agreement, self->has_ray ? "\n" : "", meaning, numbers, volume_name(self->volume),
                     self->false_positives[0], self->false_positives[1], self->false_positives[2],
                     self->false_positives[3]);
    if (k > 0 && (size_t)k < size && self->fp_names[self->volume][0])
        k += snprintf(buf + k, size - (size_t)k, " (%s: %s)", volume_name(self->volume), self->fp_names[self->volume]);
    if (k > 0 && (size_t)k < size) {
        k += snprintf(buf + k, size - (size_t)k, "\n");
        snprintf(buf + k, size - (size_t)k, TEXT("details.more"),
                 self->left_handed ? TEXT("device.d3d") : TEXT("device.gl"),
                 self->framed ? TEXT("camera.framed") : TEXT("camera.free"));
    }
}

static void status(const void *self_, char *buf, size_t size)
{
    const lesson1 *self = self_;
    if (self->many_on) {
        lesson1_many_status(self->many, buf, size);
        return;
    }
    if (self->details) {
        status_details(self, buf, size);
        return;
    }
    /* the beginner's lines: what to do, what the last click did, the keys */
    int k;
    if (!self->has_ray || self->trace.count == 0)
        k = snprintf(buf, size, "%s", TEXT("first"));
    else
        k = snprintf(buf, size, TEXT("last"), self->tut_hits, OBJECT_COUNT);
    if (k < 0 || (size_t)k >= size)
        return;
    const char *keys = !self->stepper.on ? TEXT("keys.short")
                       : lesson_stepper_active(&self->stepper) ? TEXT("steps.keys") : TEXT("steps.wait");
    k += snprintf(buf + k, size - (size_t)k, "\n%s", keys);
    if (!self->left_handed && k > 0 && (size_t)k < size)
        snprintf(buf + k, size - (size_t)k, "\n%s", TEXT("device.warning"));
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

/* ------------------------------------------------------------ the tour */

/* The tutorial's case, its mistakes made visible, the fix. Keys: P step
   mode, N all on the ray, T the tutorial's rule, D OpenGL's matrices. */
static const lesson_tour_moment tour[] = {
    /* the cone: CalculateRay's numbers, then its CheckIntersection to the hit */
    {.sentence = "lesson.picking-spheres.tour.case", .keys = "p", .click_count = 1,
     .clicks = {{.aim = LESSON_AIM_OBJECT, .object = 2}}, .steps = STEP_CAP, .until = STEP_ID("hit")},
    /* a ray through two spheres: the tutorial's loop and rule turn both */
    {.sentence = "lesson.picking-spheres.tour.loop", .keys = "ptn", .click_count = 1,
     .clicks = {{.aim = LESSON_AIM_WORLD, .world = {-0.85f, 2.19f, -3.26f}}}, .steps = STEP_CAP},
    /* OpenGL's matrices: the tutorial's ray runs behind the camera */
    {.sentence = "lesson.picking-spheres.tour.handed", .keys = "pd", .click_count = 1,
     .clicks = {{.aim = LESSON_AIM_OBJECT, .object = 2}}, .steps = STEP_CAP, .until = STEP_ID("transform")},
    /* the fix: the nearest sphere only, the ray seen from the side */
    {.sentence = "lesson.picking-spheres.tour.fix", .keys = "", .click_count = 1,
     .clicks = {{.aim = LESSON_AIM_WORLD, .world = {-0.85f, 2.19f, -3.26f}}}, .after = "]", .steps = 0},
};

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
    .frame = frame,
    .gpu_object = gpu_object,
    .code = code,
    .figure = figure,
    .tour = tour,
    .tour_count = (int)(sizeof tour / sizeof tour[0]),
};

/*
 * Lesson 2: phaser vs. shields (seed 000).
 *
 * A turret fires a beam toward the point under the cursor. The beam is a ray
 * from the turret; it stops where it first meets a shield: the entry point,
 * or, for the turret that sits inside its own shield, the exit point (the
 * seed's min(s1, s2) would pick a point behind the gun there). The shield
 * lights up around the impact with a ripple that expands and fades; several
 * impacts overlap. A beam that meets nothing flies to its full range.
 * One shield is an ellipsoid, rotated: the seed handled axis-aligned only.
 */
#include "lesson.h"

#include <stdlib.h>
#include <string.h>

#define SHIELD_COUNT 3
#define TURRET_COUNT 2
#define BEAM_COUNT 8
#define BEAM_RANGE 60.0f
#define BEAM_LIFE 0.7f
#define IMPACT_LIFE 1.6f
#define RIPPLE_SPEED 2.4f
#define SHIELD_IMPACTS 8        /* ripples alive at once per shield */

typedef struct shield {
    const char *name;
    rp_ellipsoid shape;     /* a sphere is an ellipsoid with equal radii */
    bool is_sphere;
    vec4 color;
    vec4 impacts[SHIELD_IMPACTS];   /* xyz + start time */
    int next_impact;
} shield;

typedef struct beam {
    vec3 from, to;
    float start;            /* < 0: unused */
    bool hit;
} beam;

typedef struct lesson2 {
    shield shields[SHIELD_COUNT];
    vec3 turrets[TURRET_COUNT];
    int turret;             /* which one fires */
    beam beams[BEAM_COUNT];
    int next_beam;
    float time;
    char last[96];
} lesson2;

static const char *const TURRET_NAMES[TURRET_COUNT] = {"ground turret", "station turret (inside its shield)"};

/* ------------------------------------------------------------ init */

static void set_shield(shield *s, const char *name, const vec3 c, const vec3 radii, const versor q,
                       const vec4 color)
{
    memset(s, 0, sizeof *s);
    s->name = name;
    glm_vec3_copy((float *)c, s->shape.center);
    glm_vec3_copy((float *)radii, s->shape.radii);
    glm_vec4_copy((float *)q, s->shape.orientation);
    s->is_sphere = radii[0] == radii[1] && radii[1] == radii[2];
    glm_vec4_copy((float *)color, s->color);
    for (int i = 0; i < SHIELD_IMPACTS; ++i)
        s->impacts[i][3] = -1.0f;
}

static void *create(const lesson_env *env)
{
    lesson2 *self = calloc(1, sizeof *self);
    if (!self) {
        snprintf(env->err, env->err_size, "out of memory");
        return NULL;
    }
    versor none = {0, 0, 0, 0}, tilt, yaw;
    glm_quatv(yaw, glm_rad(35.0f), (vec3){0, 1, 0});
    glm_quatv(tilt, glm_rad(20.0f), (vec3){0, 0, 1});
    glm_quat_mul(yaw, tilt, tilt);
    glm_quat_normalize(tilt);
    set_shield(&self->shields[0], "cruiser", (vec3){-5.0f, 2.2f, -1.0f}, (vec3){2.2f, 2.2f, 2.2f}, none,
               (vec4){0.25f, 0.55f, 1.0f, 0.10f});
    set_shield(&self->shields[1], "carrier (rotated ellipsoid)", (vec3){4.5f, 2.6f, -3.0f},
               (vec3){3.4f, 1.4f, 1.9f}, tilt, (vec4){0.35f, 1.0f, 0.65f, 0.10f});
    set_shield(&self->shields[2], "station", (vec3){-0.5f, 3.0f, -10.0f}, (vec3){3.2f, 3.2f, 3.2f}, none,
               (vec4){0.85f, 0.45f, 1.0f, 0.10f});
    glm_vec3_copy((vec3){1.5f, 0.9f, 2.5f}, self->turrets[0]);
    glm_vec3_copy((vec3){0.3f, 2.6f, -9.3f}, self->turrets[1]);
    for (int i = 0; i < BEAM_COUNT; ++i)
        self->beams[i].start = -1.0f;
    snprintf(self->last, sizeof self->last, "click to fire");
    return self;
}

static void destroy(void *self)
{
    free(self);
}

/* ------------------------------------------------------------ update */

static void update(void *self_, float dt)
{
    lesson2 *self = self_;
    self->time += dt;
}

static bool key(void *self_, char k)
{
    lesson2 *self = self_;
    if (k != 't')
        return false;
    self->turret = (self->turret + 1) % TURRET_COUNT;
    return true;
}

static lesson_method method(const void *self)
{
    (void)self;
    return LESSON_PICK_D3D9;
}

/* ------------------------------------------------------------ click */

/* The nearest shield on a ray, or -1. */
static int first_shield(const lesson2 *self, const rp_ray *ray, rp_hit *hit)
{
    int best = -1;
    for (int i = 0; i < SHIELD_COUNT; ++i) {
        rp_hit h;
        if (rp_intersect_ray_ellipsoid(ray, &self->shields[i].shape, &h) && (best < 0 || h.t < hit->t)) {
            best = i;
            *hit = h;
        }
    }
    return best;
}

/* The point under the cursor: a shield, else the ground, else far away. */
static void aim_point(const lesson2 *self, const rp_ray *pick, vec3 aim)
{
    rp_hit h;
    if (first_shield(self, pick, &h) >= 0) {
        glm_vec3_copy(h.point, aim);
    } else if (pick->dir[1] < 0.0f && pick->origin[1] > 0.0f) {
        rp_ray_at(pick, -pick->origin[1] / pick->dir[1], aim);
    } else {
        vec3 d;
        glm_vec3_normalize_to((float *)pick->dir, d);
        glm_vec3_scale(d, 200.0f, d);
        glm_vec3_add((float *)pick->origin, d, aim);
    }
}

static void add_beam(lesson2 *self, const vec3 from, const vec3 to, bool hit)
{
    beam *b = &self->beams[self->next_beam];
    self->next_beam = (self->next_beam + 1) % BEAM_COUNT;
    glm_vec3_copy((float *)from, b->from);
    glm_vec3_copy((float *)to, b->to);
    b->start = self->time;
    b->hit = hit;
}

static void add_impact(shield *s, const vec3 p, float time)
{
    float *slot = s->impacts[s->next_impact];
    s->next_impact = (s->next_impact + 1) % SHIELD_IMPACTS;
    glm_vec3_copy((float *)p, slot);
    slot[3] = time;
}

static void click(void *self_, const lesson_click *c, lesson_pick *out)
{
    lesson2 *self = self_;
    vec3 aim;
    aim_point(self, &c->ray, aim);

    rp_ray beam_ray;
    glm_vec3_copy(self->turrets[self->turret], beam_ray.origin);
    glm_vec3_sub(aim, beam_ray.origin, beam_ray.dir);
    if (glm_vec3_norm(beam_ray.dir) < 1e-4f) {
        lesson_pick_miss(out, &c->ray, lesson_method_name(c->method));
        return;
    }
    glm_vec3_normalize(beam_ray.dir);   /* t is then the beam length */
    lesson_pick_miss(out, &beam_ray, lesson_method_name(c->method));

    rp_hit hit;
    int id = first_shield(self, &beam_ray, &hit);
    bool in_range = id >= 0 && hit.t <= BEAM_RANGE;
    vec3 end;
    rp_ray_at(&beam_ray, in_range ? hit.t : BEAM_RANGE, end);
    add_beam(self, beam_ray.origin, end, in_range);

    lesson_pick_int(out, "turret", self->turret);
    lesson_pick_vec3(out, "aim", aim, 6);
    if (!in_range) {
        snprintf(self->last, sizeof self->last, "%s: miss, the beam flies its full range", TURRET_NAMES[self->turret]);
        snprintf(out->note, sizeof out->note, "%s", self->last);
        return;
    }
    add_impact(&self->shields[id], hit.point, self->time);
    out->hit = true;
    out->id = id;
    snprintf(out->what, sizeof out->what, "%s", self->shields[id].name);
    out->t = hit.t;
    glm_vec3_copy(hit.point, out->point);
    lesson_pick_bool(out, "inside", hit.inside);
    lesson_pick_float(out, "t_enter", hit.t_enter, 7);
    lesson_pick_float(out, "t_exit", hit.t_exit, 7);
    snprintf(self->last, sizeof self->last, "%s hits the %s at its %s point", TURRET_NAMES[self->turret],
             self->shields[id].name, hit.inside ? "EXIT" : "entry");
    snprintf(out->note, sizeof out->note, "%s", self->last);
}

/* ------------------------------------------------------------ draw */

static void draw_ships(const lesson2 *self, render_list *list)
{
    /* hulls: squashed spheres inside the shields */
    for (int i = 0; i < SHIELD_COUNT; ++i) {
        const shield *s = &self->shields[i];
        vec3 hull;
        glm_vec3_scale((float *)s->shape.radii, 0.45f, hull);
        if (s->is_sphere)
            hull[1] *= 0.45f;
        mat4 m;
        lesson_model(s->shape.center, s->shape.orientation, hull, m);
        render_list_shape(list, i == 2 ? RENDER_TORUS : RENDER_SPHERE, m, (vec4){0.55f, 0.58f, 0.65f, 1.0f},
                     (vec3){0.02f, 0.03f, 0.05f});
        render_list_shadow(list, s->shape.center, glm_vec3_max((float *)s->shape.radii), 0.0f, 0.7f);
    }
    /* turrets: a base and a head */
    for (int i = 0; i < TURRET_COUNT; ++i) {
        mat4 m;
        vec3 base = {self->turrets[i][0], self->turrets[i][1] - 0.45f, self->turrets[i][2]};
        lesson_model(base, NULL, (vec3){0.35f, 0.3f, 0.35f}, m);
        render_list_shape(list, RENDER_CUBE, m, (vec4){0.35f, 0.35f, 0.40f, 1.0f}, NULL);
        lesson_model(self->turrets[i], NULL, (vec3){0.3f, 0.3f, 0.3f}, m);
        vec3 glow = {0.0f, 0.0f, 0.0f};
        if (i == self->turret)
            glm_vec3_copy((vec3){0.5f, 0.2f, 0.05f}, glow);
        render_list_shape(list, RENDER_SPHERE, m, (vec4){0.9f, 0.5f, 0.2f, 1.0f}, glow);
    }
}

static void draw(const void *self_, render_list *list)
{
    const lesson2 *self = self_;
    draw_ships(self, list);
    render_list_grid(list, 0.0f);
    for (int i = 0; i < SHIELD_COUNT; ++i) {
        const shield *s = &self->shields[i];
        mat4 m;
        lesson_model(s->shape.center, s->shape.orientation, s->shape.radii, m);
        render_list_shield(list, m, s->color, (const vec4 *)s->impacts, SHIELD_IMPACTS, self->time, IMPACT_LIFE,
                      RIPPLE_SPEED);
    }
    for (int i = 0; i < BEAM_COUNT; ++i) {
        const beam *b = &self->beams[i];
        float age = self->time - b->start;
        if (b->start < 0.0f || age > BEAM_LIFE)
            continue;
        float fade = 1.0f - age / BEAM_LIFE;
        render_list_beam(list, b->from, b->to, 0.28f, (vec4){1.0f, 0.42f, 0.12f, fade});
        if (b->hit)
            render_list_point(list, b->to, 22.0f, (vec4){1.0f, 0.75f, 0.4f, fade});
    }
}

static void status(const void *self_, char *buf, size_t size)
{
    const lesson2 *self = self_;
    snprintf(buf, size, "firing: %s (T)\n%s", TURRET_NAMES[self->turret], self->last);
}

static int objects(const void *self_, const vec3 eye, lesson_object *out, int cap)
{
    const lesson2 *self = self_;
    (void)eye;
    int n = 0;
    for (int i = 0; i < SHIELD_COUNT; ++i, ++n) {
        if (n >= cap)
            continue;
        lesson_object *o = &out[n];
        memset(o, 0, sizeof *o);
        o->id = i;
        snprintf(o->name, sizeof o->name, "%s", self->shields[i].name);
        o->kind = LESSON_OBJECT_ELLIPSOID;
        o->shape.ellipsoid = self->shields[i].shape;
    }
    for (int i = 0; i < TURRET_COUNT; ++i, ++n) {
        if (n >= cap)
            continue;
        lesson_object *o = &out[n];
        memset(o, 0, sizeof *o);
        o->id = 100 + i;
        snprintf(o->name, sizeof o->name, "turret %d", i);
        o->kind = LESSON_OBJECT_TURRET;
        glm_vec3_copy((float *)self->turrets[i], o->shape.turret.center);
    }
    return n;
}

const lesson lesson2_shields = {
    .number = 2,
    .title = "Lesson 2: phaser vs. shields",
    .keys = "left click  fire at the point under the cursor\n"
            "T  switch turret (one sits inside its own shield)",
    .camera = {{0.0f, 2.0f, -3.5f}, 0.0f, 0.44f, 19.0f, 0.7853982f},
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

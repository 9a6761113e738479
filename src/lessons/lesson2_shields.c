/*
 * Lesson 2: phaser vs. shields (the German phaser/shield tutorial).
 *
 * A turret fires a beam toward the point under the cursor. The beam is a ray
 * from the turret; it stops where it first meets a shield: the entry point,
 * or, for the turret that sits inside its own shield, the exit point (the
 * seed's min(s1, s2) would pick a point behind the gun there). The shield
 * lights up around the impact with a ripple that expands and fades; several
 * impacts overlap. A beam that meets nothing flies to its full range.
 * Two shields are the same ellipsoid: one axis-aligned (the seed's case),
 * one rotated (the seed handled axis-aligned only).
 *
 * The HUD shows the seed's own arithmetic for the last shot: the beam taken
 * into the shield's unit space, the quadratic's a, b, c, the discriminant,
 * both roots, the root the seed returns (min(s1, s2), negative for the
 * turret inside its shield) and the right one. Step mode (P, then '.' and
 * ',') freezes the scene and walks through those numbers one step at a
 * time. Beam pieces that the camera sees through a shield are drawn dashed
 * and dim: a beam behind a shield does not look as if it passed in front.
 */
#include "lesson.h"
#include "steady_math.h"
#include "msg.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SHIELD_COUNT 4
#define TURRET_COUNT 2
#define BEAM_COUNT 8
#define BEAM_RANGE 60.0f
#define BEAM_LIFE 0.7f
#define IMPACT_LIFE 1.6f
#define RIPPLE_SPEED 2.4f
#define SHIELD_IMPACTS 8        /* ripples alive at once per shield */
#define BEAM_WIDTH 0.28f
#define DASH_WIDTH 0.12f        /* beam pieces seen through a shield */
#define DASH_LENGTH 0.25f       /* world units: the depth cue's sampling step */
#define DASH_DIM 0.6f

/* The seed's steps for the last shot (step mode). */
enum {
    STEP_BEAM, STEP_UNIT_SPACE, STEP_COEFFICIENTS, STEP_DISCRIMINANT, STEP_ROOTS, STEP_CHOICE, STEP_COUNT
};

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

/* The seed's Sphere_Ray_Intersections arithmetic for one beam and one
   shield, done in the shield's unit space (the seed's ellipsoid version;
   for a sphere its a, b, c are the sphere version's divided by r^2, the
   same roots). Beside it, the library's answer. */
typedef struct shot_math {
    bool valid;             /* a shot was fired */
    rp_ray beam;            /* unit dir: t is the beam length */
    int shield;             /* the shield the numbers are for */
    vec3 o, d;              /* the beam in that shield's unit space */
    float a, b, c, disc;
    float s_minus, s_plus;  /* (-b -+ sqrt(disc)) / 2a, when disc >= 0 */
    bool lib_hit;           /* rp_intersect_ray_ellipsoid on that shield */
    float lib_t;
    bool inside;
    bool in_range;          /* the beam reaches it */
} shot_math;

typedef struct lesson2 {
    shield shields[SHIELD_COUNT];
    vec3 turrets[TURRET_COUNT];
    int turret;             /* which one fires */
    beam beams[BEAM_COUNT];
    int next_beam;
    float time;
    char last[256];         /* the last shot in words, for the HUD (UTF-8) */
    shot_math math;
    lesson_stepper stepper;
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
    versor none = {0, 0, 0, 0}, tilt, yaw, tilted;
    steady_quatv(glm_rad(35.0f), (vec3){0, 1, 0}, yaw);
    steady_quatv(glm_rad(20.0f), (vec3){0, 0, 1}, tilt);
    /* not in place: cglm's plain C glm_quat_mul (no SSE: WebAssembly, ARM
       without NEON) overwrites dest while still reading q */
    glm_quat_mul(yaw, tilt, tilted);
    glm_quat_normalize(tilted);
    set_shield(&self->shields[0], "cruiser", (vec3){-5.0f, 2.2f, -1.0f}, (vec3){2.2f, 2.2f, 2.2f}, none,
               (vec4){0.25f, 0.55f, 1.0f, 0.10f});
    set_shield(&self->shields[1], "carrier (rotated ellipsoid)", (vec3){4.5f, 2.6f, -3.0f},
               (vec3){3.4f, 1.4f, 1.9f}, tilted, (vec4){0.35f, 1.0f, 0.65f, 0.10f});
    set_shield(&self->shields[2], "station", (vec3){-0.5f, 3.0f, -10.0f}, (vec3){3.2f, 3.2f, 3.2f}, none,
               (vec4){0.85f, 0.45f, 1.0f, 0.10f});
    /* the carrier's ellipsoid unturned: the seed's axis-aligned case */
    set_shield(&self->shields[3], "frigate (axis-aligned ellipsoid)", (vec3){11.0f, 2.4f, -8.0f},
               (vec3){3.4f, 1.4f, 1.9f}, none, (vec4){1.0f, 0.8f, 0.3f, 0.10f});
    glm_vec3_copy((vec3){1.5f, 0.9f, 2.5f}, self->turrets[0]);
    /* inside the station's shield, off to the side of its hull: its shots
       at the shield's near side cross the picture instead of coming
       straight at the camera behind the flash */
    glm_vec3_copy((vec3){-2.4f, 2.0f, -11.6f}, self->turrets[1]);
    for (int i = 0; i < BEAM_COUNT; ++i)
        self->beams[i].start = -1.0f;
    snprintf(self->last, sizeof self->last, "%s", msg("lesson.phaser-shields.last.ready"));
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
    if (!self->stepper.on)      /* step mode freezes the beam and the flash */
        self->time += dt;
}

static bool key(void *self_, char k)
{
    lesson2 *self = self_;
    if (lesson_stepper_key(&self->stepper, k))
        return true;
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

/* The nearest shield on a ray, or -1 (then hit->t is +infinity). */
static int first_shield(const lesson2 *self, const rp_ray *ray, rp_hit *hit)
{
    int best = -1;
    /* defined on a miss too (t infinite: beyond any range), so a caller that
       reads hit->t never reads an unset record (release builds warned) */
    memset(hit, 0, sizeof *hit);
    hit->t = hit->t_enter = hit->t_exit = INFINITY;
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

/* A world point (relative to the centre) or direction in the shield's unit
   space: its rotation undone, each axis divided by its semi-axis. There the
   ellipsoid is the unit sphere and the beam keeps its parameter t. */
static void to_unit_space(const rp_ellipsoid *e, const vec3 v, bool is_point, vec3 out)
{
    vec3 x, turned;
    if (is_point)
        glm_vec3_sub((float *)v, (float *)e->center, x);
    else
        glm_vec3_copy((float *)v, x);
    const float *q = e->orientation;
    if (q[0] != 0.0f || q[1] != 0.0f || q[2] != 0.0f || q[3] != 0.0f) {
        versor unit_q, inverse;
        glm_vec4_copy((float *)q, unit_q);
        glm_quat_normalize(unit_q);
        glm_quat_inv(unit_q, inverse);
        glm_quat_rotatev(inverse, x, turned);
        glm_vec3_copy(turned, x);
    }
    for (int i = 0; i < 3; ++i)
        out[i] = x[i] / e->radii[i];
}

/* The seed's quadratic a t^2 + b t + c = 0 for the beam and one shield, in
   float as the seed computes it. */
static void seed_quadratic(const shield *s, const rp_ray *beam, shot_math *m)
{
    to_unit_space(&s->shape, beam->origin, true, m->o);
    to_unit_space(&s->shape, beam->dir, false, m->d);
    m->a = glm_vec3_dot(m->d, m->d);
    m->b = 2.0f * glm_vec3_dot(m->o, m->d);
    m->c = glm_vec3_dot(m->o, m->o) - 1.0f;
    m->disc = m->b * m->b - 4.0f * m->a * m->c;
    m->s_minus = m->s_plus = 0.0f;
    if (m->disc >= 0.0f) {
        float root = sqrtf(m->disc);
        m->s_minus = (-m->b - root) / (2.0f * m->a);
        m->s_plus = (-m->b + root) / (2.0f * m->a);
    }
}

/* For a beam that hits no shield: the shield its quadratic comes closest to
   hitting (largest disc / a^2, the squared half chord in t). A shield
   behind the gun has real roots: the seed would call that a hit. */
static int nearest_call(const lesson2 *self, const rp_ray *beam)
{
    int best = 0;
    float best_score = 0.0f;
    for (int i = 0; i < SHIELD_COUNT; ++i) {
        shot_math m;
        seed_quadratic(&self->shields[i], beam, &m);
        float score = m.disc / (m.a * m.a);
        if (i == 0 || score > best_score) {
            best = i;
            best_score = score;
        }
    }
    return best;
}

/* The seed's numbers and the library's answer for this shot; step mode
   starts over at its first step. */
static void record_math(lesson2 *self, const rp_ray *beam, int hit_shield)
{
    shot_math *m = &self->math;
    memset(m, 0, sizeof *m);
    m->valid = true;
    m->beam = *beam;
    m->shield = hit_shield >= 0 ? hit_shield : nearest_call(self, beam);
    seed_quadratic(&self->shields[m->shield], beam, m);
    rp_hit h;
    m->lib_hit = rp_intersect_ray_ellipsoid(beam, &self->shields[m->shield].shape, &h);
    if (m->lib_hit) {
        m->lib_t = h.t;
        m->inside = h.inside;
        m->in_range = h.t <= BEAM_RANGE;
    }
    lesson_stepper_restart(&self->stepper, STEP_COUNT);
}

static void report_math(const shot_math *m, lesson_pick *out)
{
    lesson_pick_vec3(out, "quadratic", (vec3){m->a, m->b, m->c}, 7);
    lesson_pick_float(out, "discriminant", m->disc, 7);
    if (m->disc >= 0.0f)
        lesson_pick_float(out, "tutorial_t", m->s_minus, 7);   /* the seed's min(s1, s2) */
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
        self->math.valid = false;
        lesson_stepper_restart(&self->stepper, 0);
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

    record_math(self, &beam_ray, in_range ? id : -1);
    lesson_pick_int(out, "turret", self->turret);
    lesson_pick_vec3(out, "aim", aim, 6);
    if (!in_range) {
        char turret[96];
        snprintf(self->last, sizeof self->last, msg("lesson.phaser-shields.last.miss"),
                 lesson_display_name("name", TURRET_NAMES[self->turret], turret, sizeof turret));
        snprintf(out->note, sizeof out->note, "%.95s", self->last);
        lesson_pick_int(out, "shield", self->math.shield);     /* the quadratic's */
        report_math(&self->math, out);
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
    report_math(&self->math, out);
    char turret[96], name[96];
    snprintf(self->last, sizeof self->last, msg("lesson.phaser-shields.last.hit"),
             lesson_display_name("name", TURRET_NAMES[self->turret], turret, sizeof turret),
             lesson_display_name("name", self->shields[id].name, name, sizeof name),
             msg(hit.inside ? "lesson.phaser-shields.point.exit" : "lesson.phaser-shields.point.entry"));
    snprintf(out->note, sizeof out->note, "%.95s", self->last);
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

/* true when the camera sees p through a shield: the line from the eye to p
   crosses a shield's surface before it reaches p */
static bool seen_through_shield(const lesson2 *self, const vec3 eye, const vec3 p)
{
    rp_ray sight;
    glm_vec3_copy((float *)eye, sight.origin);
    glm_vec3_sub((float *)p, (float *)eye, sight.dir);
    float len = glm_vec3_norm(sight.dir);
    if (len < 1e-6f)
        return false;
    glm_vec3_scale(sight.dir, 1.0f / len, sight.dir);
    for (int i = 0; i < SHIELD_COUNT; ++i) {
        rp_hit h;
        /* a point on the surface itself (the impact) is not behind it */
        if (rp_intersect_ray_ellipsoid(&sight, &self->shields[i].shape, &h) && h.t < len * 0.999f)
            return true;
    }
    return false;
}

/* point k of a beam cut into n pieces; the last one is exactly `to` */
static void beam_point(const beam *b, int k, int n, vec3 out)
{
    if (k >= n) {
        glm_vec3_copy((float *)b->to, out);
        return;
    }
    glm_vec3_lerp((float *)b->from, (float *)b->to, (float)k / (float)n, out);
}

/* Pieces k0 .. k1-1 of a beam as one glowing beam, or, seen through a
   shield, as dim thin dashes (every other piece, and the last). */
static void draw_run(const beam *b, int k0, int k1, int n, bool hidden, float fade, render_list *list)
{
    vec3 p, q;
    if (!hidden) {
        beam_point(b, k0, n, p);
        beam_point(b, k1, n, q);
        render_list_beam(list, p, q, BEAM_WIDTH, (vec4){1.0f, 0.42f, 0.12f, fade});
        return;
    }
    for (int k = k0; k < k1; ++k) {
        if ((k - k0) % 2 != 0 && k != k1 - 1)
            continue;
        beam_point(b, k, n, p);
        beam_point(b, k + 1, n, q);
        render_list_beam(list, p, q, DASH_WIDTH, (vec4){1.0f, 0.42f, 0.12f, fade * DASH_DIM});
    }
}

/* A beam in runs: glowing where the camera sees it directly, dashed where it
   sees it through a shield (the beam is drawn over the shields, additive,
   so without this a beam behind a shield looks as if it passed in front). */
static void draw_beam(const lesson2 *self, const beam *b, const vec3 eye, float fade, render_list *list)
{
    float len = glm_vec3_distance((float *)b->from, (float *)b->to);
    int n = (int)ceilf(len / DASH_LENGTH);
    if (n < 1)
        n = 1;
    int run_start = 0;
    bool run_hidden = false;
    for (int k = 0; k <= n; ++k) {
        bool hidden = false;
        if (k < n) {
            vec3 a, c, mid;
            beam_point(b, k, n, a);
            beam_point(b, k + 1, n, c);
            glm_vec3_center(a, c, mid);
            hidden = seen_through_shield(self, eye, mid);
        }
        if (k == 0) {
            run_hidden = hidden;
        } else if (k == n || hidden != run_hidden) {
            draw_run(b, run_start, k, n, run_hidden, fade, list);
            run_start = k;
            run_hidden = hidden;
        }
    }
}

/* Step mode: the shield's semi-axes from the unit-space step on (what the
   division by the radii undoes), the roots on the beam's line from the
   roots step on, and at the choice the seed's root (red) and the right one
   (green). */
static void draw_steps(const lesson2 *self, render_list *list)
{
    const shot_math *m = &self->math;
    if (!lesson_stepper_active(&self->stepper) || !m->valid)
        return;
    int step = self->stepper.current;
    const rp_ellipsoid *e = &self->shields[m->shield].shape;
    if (step >= STEP_UNIT_SPACE) {
        mat4 model;
        lesson_model(e->center, e->orientation, e->radii, model);
        static const vec4 axis_colors[3] = {{1.0f, 0.3f, 0.3f, 1.0f}, {0.3f, 1.0f, 0.3f, 1.0f}, {0.4f, 0.6f, 1.0f, 1.0f}};
        for (int i = 0; i < 3; ++i) {
            vec3 tip;
            glm_mat4_mulv3(model, (vec3){i == 0, i == 1, i == 2}, 1.0f, tip);
            render_list_line(list, e->center, tip, axis_colors[i]);
        }
    }
    if (step < STEP_ROOTS || m->disc < 0.0f)
        return;
    vec3 p_minus, p_plus;
    rp_ray_at(&m->beam, m->s_minus, p_minus);
    rp_ray_at(&m->beam, m->s_plus, p_plus);
    render_list_line(list, p_minus, p_plus, (vec4){1.0f, 1.0f, 1.0f, 0.8f});
    render_list_line(list, m->beam.origin, p_minus, (vec4){1.0f, 1.0f, 1.0f, 0.5f});
    vec4 minus_color = {1.0f, 1.0f, 1.0f, 1.0f}, plus_color = {1.0f, 1.0f, 1.0f, 1.0f};
    if (step >= STEP_CHOICE) {
        glm_vec4_copy((vec4){1.0f, 0.2f, 0.2f, 1.0f}, minus_color);   /* the seed's min(s1, s2) */
        /* the same root, up to the seed's float rounding: it was right */
        if (m->lib_hit && fabsf(m->lib_t - m->s_minus) <= 1e-4f * glm_max(1.0f, fabsf(m->lib_t)))
            glm_vec4_copy((vec4){0.3f, 1.0f, 0.4f, 1.0f}, minus_color);
    }
    render_list_point(list, p_minus, 16.0f, minus_color);
    render_list_point(list, p_plus, 16.0f, plus_color);
    if (step >= STEP_CHOICE && m->lib_hit) {
        vec3 right;
        rp_ray_at(&m->beam, m->lib_t, right);
        render_list_point(list, right, 20.0f, (vec4){0.3f, 1.0f, 0.4f, 1.0f});
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
        draw_beam(self, b, list->view.eye, fade, list);
        if (b->hit)
            render_list_point(list, b->to, 22.0f, (vec4){1.0f, 0.75f, 0.4f, fade});
    }
    draw_steps(self, list);
}

/* ------------------------------------------------------------ HUD */

/* the steps' titles: catalogue ids */
static const char *const STEP_TITLES[STEP_COUNT] = {
    "lesson.phaser-shields.step.beam", "lesson.phaser-shields.step.unit_space", "lesson.phaser-shields.step.quadratic",
    "lesson.phaser-shields.step.discriminant", "lesson.phaser-shields.step.roots", "lesson.phaser-shields.step.which"};

/* the library's answer for the shot, in words */
static void right_answer(const shot_math *m, char *buf, size_t size)
{
    if (!m->lib_hit)
        snprintf(buf, size, "%s", msg("lesson.phaser-shields.right.none"));
    else if (!m->in_range)
        snprintf(buf, size, msg("lesson.phaser-shields.right.beyond"), (double)m->lib_t);
    else
        snprintf(buf, size, msg("lesson.phaser-shields.right.point"), (double)m->lib_t,
                 msg(m->inside ? "lesson.phaser-shields.point.exit" : "lesson.phaser-shields.point.entry"));
}

/* the root the seed returns, in words */
static void seed_answer(const shot_math *m, char *buf, size_t size)
{
    if (m->disc < 0.0f)
        snprintf(buf, size, "%s", msg("lesson.phaser-shields.seed.none"));
    else
        snprintf(buf, size, "%.3f%s", (double)m->s_minus,
                 m->s_minus < 0.0f ? msg("lesson.phaser-shields.seed.behind") : "");
}

static void step_text(const lesson2 *self, char *buf, size_t size)
{
    const shot_math *m = &self->math;
    const shield *s = &self->shields[m->shield];
    const rp_ellipsoid *e = &s->shape;
    char label[48], seed[96], right[128], name[96];
    lesson_stepper_label(&self->stepper, label, sizeof label);
    seed_answer(m, seed, sizeof seed);
    right_answer(m, right, sizeof right);
    int step = self->stepper.current;
    int n = snprintf(buf, size, msg("lesson.phaser-shields.step.header"), label, msg(STEP_TITLES[step]));
    if (n < 0 || (size_t)n >= size)
        return;
    buf += n;
    size -= (size_t)n;
    switch (step) {
    case STEP_BEAM:
        snprintf(buf, size, msg("lesson.phaser-shields.step.beam_text"),
                 (double)m->beam.origin[0], (double)m->beam.origin[1], (double)m->beam.origin[2],
                 (double)m->beam.dir[0], (double)m->beam.dir[1], (double)m->beam.dir[2],
                 lesson_display_name("name", s->name, name, sizeof name),
                 (double)e->center[0], (double)e->center[1], (double)e->center[2], (double)e->radii[0],
                 (double)e->radii[1], (double)e->radii[2],
                 msg(e->orientation[3] != 0.0f ? "lesson.phaser-shields.shape.rotated"
                                               : "lesson.phaser-shields.shape.axis_aligned"));
        break;
    case STEP_UNIT_SPACE:
        snprintf(buf, size, msg("lesson.phaser-shields.step.unit_text"),
                 (double)m->o[0], (double)m->o[1], (double)m->o[2], (double)m->d[0], (double)m->d[1],
                 (double)m->d[2]);
        break;
    case STEP_COEFFICIENTS:
        snprintf(buf, size, msg("lesson.phaser-shields.step.coeff_text"),
                 (double)m->a, (double)m->b, (double)m->c);
        break;
    case STEP_DISCRIMINANT:
        snprintf(buf, size, msg("lesson.phaser-shields.step.disc_text"), (double)m->disc,
                 msg(m->disc < 0.0f ? "lesson.phaser-shields.disc.negative" : "lesson.phaser-shields.disc.positive"));
        break;
    case STEP_ROOTS:
        if (m->disc < 0.0f)
            snprintf(buf, size, "%s", msg("lesson.phaser-shields.step.no_roots"));
        else
            snprintf(buf, size, msg("lesson.phaser-shields.step.roots_text"),
                     (double)m->s_minus, (double)m->s_plus);
        break;
    default:
        snprintf(buf, size, msg("lesson.phaser-shields.step.which_text"), seed, right);
        break;
    }
}

static void status(const void *self_, char *buf, size_t size)
{
    const lesson2 *self = self_;
    const shot_math *m = &self->math;
    char turret[96];
    lesson_display_name("name", TURRET_NAMES[self->turret], turret, sizeof turret);
    if (m->valid && lesson_stepper_active(&self->stepper)) {
        int n = snprintf(buf, size, msg("lesson.phaser-shields.status.firing"), turret);
        if (n >= 0 && (size_t)n < size)
            step_text(self, buf + n, size - (size_t)n);
        return;
    }
    int n = snprintf(buf, size, msg("lesson.phaser-shields.status.main"), turret,
                     msg(self->stepper.on ? "lesson.phaser-shields.step.on" : "word.off"), self->last);
    if (!m->valid || n < 0 || (size_t)n >= size)
        return;
    char seed[96], right[128], roots[64], name[96];
    seed_answer(m, seed, sizeof seed);
    right_answer(m, right, sizeof right);
    if (m->disc >= 0.0f)
        snprintf(roots, sizeof roots, msg("lesson.phaser-shields.roots.two"), (double)m->s_minus, (double)m->s_plus);
    else
        snprintf(roots, sizeof roots, "%s", msg("lesson.phaser-shields.roots.none"));
    snprintf(buf + n, size - (size_t)n, msg("lesson.phaser-shields.status.math"),
             lesson_display_name("name", self->shields[m->shield].name, name, sizeof name), (double)m->a,
             (double)m->b, (double)m->c, (double)m->disc, roots, seed, right);
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

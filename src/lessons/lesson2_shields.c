/*
 * Lesson 2: phaser vs. shields (the German phaser/shield tutorial).
 *
 * A turret fires a beam toward the point under the cursor: A + l * Dir
 * from the gun A, Dir of length 1, so l is the beam's length. Every shot
 * runs the tutorial's own test, ported to C under its names
 * (listings/lesson2_phaser_tutorial.c: Sphere_Ray_Intersections with a, b,
 * c, RayHelp, det, s1, s2, its ellipsoid version, and FirePhaser, the game
 * that keeps the smallest l), and the library's (rp_intersect_ray_ellipsoid:
 * the smallest root l >= 0, turned shields too). M chooses whose answer
 * the beam follows; the tutorial's is the default, so its mistakes are
 * seen: a gun inside its shield (T) and a shield behind the gun give
 * l = s2 < 0, a beam drawn backwards from the gun, and the turned
 * carrier is tested as if it were not turned.
 *
 * The shield lights up around the impact with a ripple that expands and
 * fades. Beam pieces the camera sees through a shield are drawn dashed and
 * dim: a beam behind a shield does not look as if it passed in front.
 *
 * Step mode (P, then '.' and ','): the listing's steps one at a time, each
 * lighting its line in the code panel with its variables, drawn from the
 * side of the beam (the camera frames the step: lesson->frame; Z frees
 * it) with the roots on the beam's line, and as the quadratic over the
 * beam's l axis in the inset (lesson->figure). The scene stands still and
 * no flash is drawn there. The tour (O) stages the tutorial's case, its
 * mistakes and the fix.
 */
#include "lesson.h"
#include "lesson2_phaser_tutorial.h"
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
#define STEP_CAP 64             /* >= 8 steps a shield (FirePhaser's 3, the test's 4) + 1 */
#define FRAME_MIN 4.0f          /* the framing camera shows at least this much beam */
#define LABEL_PX 16.0f
#define TEXT(id) msg("lesson.phaser-shields." id)
#define STEP_ID(name) "lesson.phaser-shields.step." name

typedef enum shot_mode { MODE_TUTORIAL, MODE_RAYPICK } shot_mode;

/* What a recorded step of the listing is, for drawing it. */
typedef enum step_kind {
    K_SHIELD,       /* FirePhaser takes shield i */
    K_ABC,          /* a, RayHelp, b, c */
    K_DET,          /* det = b^2 - 4ac, its sign */
    K_ROOTS,        /* s1, s2 */
    K_MIN,          /* *pIntersectionParam = s2 */
    K_RETURNED,     /* the test's answer in FirePhaser */
    K_KEPT,         /* the smallest l so far */
    K_RESULT        /* FirePhaser's answer */
} step_kind;

static const struct {
    const char *id;
    step_kind kind;
} step_kinds[] = {
    {STEP_ID("shield"), K_SHIELD},          {STEP_ID("shield-ellipsoid"), K_SHIELD},
    {STEP_ID("abc"), K_ABC},                {STEP_ID("abc-ellipsoid"), K_ABC},
    {STEP_ID("det"), K_DET},                {STEP_ID("det-negative"), K_DET},
    {STEP_ID("roots"), K_ROOTS},            {STEP_ID("min"), K_MIN},
    {STEP_ID("min-inside"), K_MIN},         {STEP_ID("min-behind"), K_MIN},
    {STEP_ID("returned-miss"), K_RETURNED}, {STEP_ID("returned-hit"), K_RETURNED},
    {STEP_ID("returned-farther"), K_RETURNED}, {STEP_ID("kept"), K_KEPT},
    {STEP_ID("result"), K_RESULT},          {STEP_ID("result-none"), K_RESULT},
    {STEP_ID("result-behind"), K_RESULT},
};

/* One shield's Sphere_Ray_Intersections call as far as a step knows it. */
typedef struct call_numbers {
    bool has_abc, has_det, has_roots, has_l;
    float a, b, c;          /* as the test formed them (the sphere: not divided by r^2) */
    float det;              /* b^2 - 4ac, before its square root */
    float s1, s2;
    float l;                /* *pIntersectionParam: s2 */
} call_numbers;

typedef struct step_view {
    step_kind kind;
    int shield;             /* the shield the step is about; -1: none (a result without a hit) */
    call_numbers q;         /* that shield's numbers up to this step */
    float span0, span1;     /* the stretch of the beam's l the camera frames */
} step_view;

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

/* The last shot: both answers. */
typedef struct shot {
    bool valid;
    int turret;
    rp_ray beam;            /* A and unit Dir: l is the beam's length */
    vec3 aim;
    int tutorial_shield;    /* FirePhaser's answer, -1: none */
    float tutorial_l;
    int lib_shield;         /* the library's: nearest l >= 0, -1: none */
    rp_hit lib_hit;
    call_numbers calls[SHIELD_COUNT];   /* each shield's test as it ended */
    bool exact_hit[SHIELD_COUNT];       /* the library on each shield alone: its smallest root >= 0 */
    float exact_l[SHIELD_COUNT];
    int report_shield;      /* whose numbers the report gives */
} shot;

typedef struct lesson2 {
    shield shields[SHIELD_COUNT];
    PhaserShield tutorial_shields[SHIELD_COUNT];    /* the same, as the tutorial sees them */
    vec3 turrets[TURRET_COUNT];
    int turret;             /* which one fires */
    shot_mode mode;
    bool framed;            /* step mode: the camera frames the step (Z) */
    beam beams[BEAM_COUNT];
    int next_beam;
    float time;
    shot last;
    lesson_stepper stepper;
    listing_trace trace;
    listing_step steps[STEP_CAP];
    step_view views[STEP_CAP];
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

/* The shield as the tutorial's functions take it: centre and squared
   semi-axes; its orientation left out (the tutorial has none). */
static PhaserShield tutorial_shield(const shield *s)
{
    const float *c = s->shape.center, *r = s->shape.radii;
    return (PhaserShield){{c[0], c[1], c[2]}, {r[0] * r[0], r[1] * r[1], r[2] * r[2]}, s->is_sphere};
}

static bool turned(const rp_ellipsoid *e)
{
    return e->orientation[0] != 0.0f || e->orientation[1] != 0.0f || e->orientation[2] != 0.0f;
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
    for (int i = 0; i < SHIELD_COUNT; ++i)
        self->tutorial_shields[i] = tutorial_shield(&self->shields[i]);
    glm_vec3_copy((vec3){1.5f, 0.9f, 2.5f}, self->turrets[0]);
    /* inside the station's shield, off to the side of its hull: its shots
       at the shield's near side cross the picture instead of coming
       straight at the camera behind the flash */
    glm_vec3_copy((vec3){-2.4f, 2.0f, -11.6f}, self->turrets[1]);
    for (int i = 0; i < BEAM_COUNT; ++i)
        self->beams[i].start = -1.0f;
    self->mode = MODE_TUTORIAL;
    self->framed = true;
    listing_trace_reset(&self->trace, self->steps, STEP_CAP);
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
    switch (k) {
    case 't': self->turret = (self->turret + 1) % TURRET_COUNT; return true;
    case 'm': self->mode = self->mode == MODE_TUTORIAL ? MODE_RAYPICK : MODE_TUTORIAL; return true;
    case 'z': self->framed = !self->framed; return true;
    default: return false;
    }
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

static step_kind kind_of(const listing_step *s)
{
    for (size_t i = 0; i < sizeof step_kinds / sizeof step_kinds[0]; ++i)
        if (strcmp(step_kinds[i].id, s->msg_id) == 0)
            return step_kinds[i].kind;
    return K_RESULT;    /* not reached: every id the listing records is above */
}

static float watch_f(const listing_step *s, const char *name, float fallback)
{
    const listing_watch *w = listing_step_watch(s, name);
    return w && w->kind == LISTING_WATCH_FLOAT ? w->v[0] : fallback;
}

static int watch_i(const listing_step *s, const char *name, int fallback)
{
    const listing_watch *w = listing_step_watch(s, name);
    return w && (w->kind == LISTING_WATCH_INT || w->kind == LISTING_WATCH_BOOL) ? w->i : fallback;
}

/* l along the beam where it comes closest to the shield's centre, and the
   shield's largest semi-axis */
static void shield_on_beam(const lesson2 *self, int i, float *l, float *reach)
{
    vec3 d;
    glm_vec3_sub((float *)self->shields[i].shape.center, (float *)self->last.beam.origin, d);
    *l = glm_vec3_dot(d, (float *)self->last.beam.dir);
    *reach = glm_vec3_max((float *)self->shields[i].shape.radii);
}

/* The stretch of l a step is about: the gun (l = 0) and the shield, or
   the gun and the roots and the point chosen. */
static void step_span(const lesson2 *self, step_view *v)
{
    float lo = 0.0f, hi = 0.0f;
    if (v->shield >= 0) {
        float lc, reach;
        shield_on_beam(self, v->shield, &lc, &reach);
        lo = glm_min(lo, lc - reach);
        hi = glm_max(hi, lc + reach);
        if (v->q.has_roots) {
            lo = glm_min(lo, v->q.s2);
            hi = glm_max(hi, v->q.s1);
        }
    }
    if (v->kind == K_RESULT && self->last.lib_shield >= 0 && self->last.lib_hit.t <= BEAM_RANGE)
        hi = glm_max(hi, self->last.lib_hit.t);
    if (hi - lo < FRAME_MIN) {
        float mid = 0.5f * (lo + hi);
        lo = mid - 0.5f * FRAME_MIN;
        hi = mid + 0.5f * FRAME_MIN;
    }
    v->span0 = lo;
    v->span1 = hi;
}

/* What each recorded step shows: the shield it is about and that shield's
   numbers so far; and each shield's test as it ended. */
static void build_views(lesson2 *self)
{
    shot *s = &self->last;
    memset(s->calls, 0, sizeof s->calls);
    int cur = -1;
    for (int i = 0; i < self->trace.count; ++i) {
        const listing_step *st = &self->steps[i];
        step_view *v = &self->views[i];
        memset(v, 0, sizeof *v);
        v->kind = kind_of(st);
        if (v->kind == K_SHIELD)
            cur = watch_i(st, "i", -1);
        call_numbers *q = cur >= 0 && cur < SHIELD_COUNT ? &s->calls[cur] : NULL;
        switch (v->kind) {
        case K_ABC:
            if (q) {
                q->has_abc = true;
                q->a = watch_f(st, "a", NAN);
                q->b = watch_f(st, "b", NAN);
                q->c = watch_f(st, "c", NAN);
            }
            break;
        case K_DET:
            if (q) {
                q->has_det = true;
                q->det = watch_f(st, "det", NAN);
            }
            break;
        case K_ROOTS:
            if (q) {
                q->has_roots = true;
                q->s1 = watch_f(st, "s1", NAN);
                q->s2 = watch_f(st, "s2", NAN);
            }
            break;
        case K_MIN:
            if (q) {
                q->has_l = true;
                q->l = watch_f(st, "*pIntersectionParam", NAN);
            }
            break;
        case K_RESULT:
            cur = watch_i(st, "hitShield", -1);
            q = cur >= 0 && cur < SHIELD_COUNT ? &s->calls[cur] : NULL;
            break;
        default:
            break;
        }
        v->shield = cur >= 0 && cur < SHIELD_COUNT ? cur : -1;
        if (q)
            v->q = *q;
        step_span(self, v);
    }
}

/* For a shot no shield stops: the shield whose quadratic comes closest to
   a hit (largest det / a^2, the squared chord in l). */
static int nearest_call(const shot *s)
{
    int best = 0;
    float best_score = -INFINITY;
    for (int i = 0; i < SHIELD_COUNT; ++i) {
        const call_numbers *q = &s->calls[i];
        float score = q->has_det ? q->det / (q->a * q->a) : -INFINITY;
        if (score > best_score) {
            best = i;
            best_score = score;
        }
    }
    return best;
}

/* The answer the mode gives: its shield (-1: none in range) and l. */
static int mode_answer(const lesson2 *self, shot_mode mode, float *l)
{
    const shot *s = &self->last;
    if (mode == MODE_TUTORIAL) {
        *l = s->tutorial_l;
        return s->tutorial_shield >= 0 && fabsf(s->tutorial_l) <= BEAM_RANGE ? s->tutorial_shield : -1;
    }
    *l = s->lib_hit.t;
    return s->lib_shield >= 0 && s->lib_hit.t <= BEAM_RANGE ? s->lib_shield : -1;
}

static const char *mode_method(shot_mode m)
{
    return m == MODE_TUTORIAL ? "min-s1-s2" : "smallest-root";
}

/* The pick as it stands: the mode's answer, both answers in the report. */
static void fill_pick(const lesson2 *self, lesson_pick *out)
{
    const shot *s = &self->last;
    lesson_pick_miss(out, &s->beam, mode_method(self->mode));
    lesson_pick_int(out, "turret", s->turret);
    lesson_pick_vec3(out, "aim", s->aim, 6);
    const call_numbers *q = &s->calls[s->report_shield];
    lesson_pick_int(out, "shield", s->report_shield);
    lesson_pick_vec3(out, "quadratic", (vec3){q->a, q->b, q->c}, 7);
    lesson_pick_float(out, "discriminant", q->det, 7);
    if (q->has_l)
        lesson_pick_float(out, "tutorial_t", q->l, 7);     /* that shield's min(s1, s2) */
    lesson_pick_int(out, "tutorial_shield", s->tutorial_shield);
    if (s->tutorial_shield >= 0)
        lesson_pick_float(out, "tutorial_l", s->tutorial_l, 7);
    if (s->lib_shield >= 0) {
        lesson_pick_int(out, "exact_shield", s->lib_shield);
        lesson_pick_bool(out, "inside", s->lib_hit.inside);
        lesson_pick_float(out, "t_enter", s->lib_hit.t_enter, 7);
        lesson_pick_float(out, "t_exit", s->lib_hit.t_exit, 7);
    }
    float l;
    int id = mode_answer(self, self->mode, &l);
    if (id < 0)
        return;
    out->hit = true;
    out->id = id;
    snprintf(out->what, sizeof out->what, "%s", self->shields[id].name);
    out->t = l;
    rp_ray_at(&s->beam, l, out->point);
}

static void click(void *self_, const lesson_click *c, lesson_pick *out)
{
    lesson2 *self = self_;
    shot *s = &self->last;
    listing_trace_reset(&self->trace, self->steps, STEP_CAP);
    memset(s, 0, sizeof *s);
    s->turret = self->turret;
    aim_point(self, &c->ray, s->aim);
    glm_vec3_copy(self->turrets[self->turret], s->beam.origin);
    glm_vec3_sub(s->aim, s->beam.origin, s->beam.dir);
    if (glm_vec3_norm(s->beam.dir) < 1e-4f) {
        lesson_stepper_restart(&self->stepper, 0);
        lesson_pick_miss(out, &c->ray, mode_method(self->mode));
        return;
    }
    glm_vec3_normalize(s->beam.dir);   /* l is then the beam's length */
    s->valid = true;

    /* the tutorial's game, recorded step by step */
    Phaser phaser = {self->tutorial_shields, SHIELD_COUNT, &self->trace};
    D3DXVECTOR3 A = {s->beam.origin[0], s->beam.origin[1], s->beam.origin[2]};
    D3DXVECTOR3 Dir = {s->beam.dir[0], s->beam.dir[1], s->beam.dir[2]};
    s->tutorial_l = 0.0f;
    s->tutorial_shield = FirePhaser(&phaser, A, Dir, &s->tutorial_l);
    /* the library on the same beam: the nearest shield, and each one alone */
    s->lib_shield = first_shield(self, &s->beam, &s->lib_hit);
    for (int i = 0; i < SHIELD_COUNT; ++i) {
        rp_hit h;
        s->exact_hit[i] = rp_intersect_ray_ellipsoid(&s->beam, &self->shields[i].shape, &h);
        s->exact_l[i] = s->exact_hit[i] ? h.t : NAN;
    }
    build_views(self);
    s->report_shield = s->lib_shield >= 0 ? s->lib_shield
                       : s->tutorial_shield >= 0 ? s->tutorial_shield : nearest_call(s);
    lesson_stepper_restart(&self->stepper, self->trace.count);

    float l;
    int id = mode_answer(self, self->mode, &l);
    vec3 end;
    rp_ray_at(&s->beam, id >= 0 ? l : BEAM_RANGE, end);
    add_beam(self, s->beam.origin, end, id >= 0);
    if (id >= 0)
        add_impact(&self->shields[id], end, self->time);
    fill_pick(self, out);
}

static bool pick(const void *self_, lesson_pick *out)
{
    const lesson2 *self = self_;
    if (!self->last.valid)
        return false;
    fill_pick(self, out);
    return true;
}

/* ------------------------------------------------------------ draw */

static const vec4 ROOT = {1.0f, 1.0f, 1.0f, 1.0f}, RIGHT = {0.3f, 1.0f, 0.4f, 1.0f};
static const vec4 WRONG = {1.0f, 0.3f, 0.25f, 1.0f}, GUN = {1.0f, 0.85f, 0.4f, 1.0f};
static const vec4 BEAM_COLOR = {1.0f, 0.42f, 0.12f, 1.0f}, TUTORIAL_SHAPE = {1.0f, 0.75f, 0.3f, 0.8f};
static const vec4 RAY_HELP = {0.85f, 0.45f, 1.0f, 1.0f};

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
static void draw_run(const beam *b, int k0, int k1, int n, bool hidden, float width, float fade,
                     render_list *list)
{
    vec3 p, q;
    if (!hidden) {
        beam_point(b, k0, n, p);
        beam_point(b, k1, n, q);
        render_list_beam(list, p, q, width, (vec4){BEAM_COLOR[0], BEAM_COLOR[1], BEAM_COLOR[2], fade});
        return;
    }
    for (int k = k0; k < k1; ++k) {
        if ((k - k0) % 2 != 0 && k != k1 - 1)
            continue;
        beam_point(b, k, n, p);
        beam_point(b, k + 1, n, q);
        render_list_beam(list, p, q, DASH_WIDTH * width / BEAM_WIDTH,
                         (vec4){BEAM_COLOR[0], BEAM_COLOR[1], BEAM_COLOR[2], fade * DASH_DIM});
    }
}

/* A beam in runs: glowing where the camera sees it directly, dashed where it
   sees it through a shield (the beam is drawn over the shields, additive,
   so without this a beam behind a shield looks as if it passed in front). */
static void draw_beam(const lesson2 *self, const beam *b, const vec3 eye, float width, float fade,
                      render_list *list)
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
            draw_run(b, run_start, k, n, run_hidden, width, fade, list);
            run_start = k;
            run_hidden = hidden;
        }
    }
}

/* The ellipsoid the tutorial tests for a turned shield: its semi-axes
   along x, y and z, drawn as its three axis-plane outlines. */
static void draw_tutorial_shape(const rp_ellipsoid *e, render_list *list)
{
    enum { N = 48 };
    static const int planes[3][2] = {{0, 1}, {1, 2}, {0, 2}};
    for (int k = 0; k < 3; ++k) {
        int u = planes[k][0], w = planes[k][1];
        vec3 prev = {0};
        for (int i = 0; i <= N; ++i) {
            float ang = 2.0f * GLM_PIf * (float)i / N;
            vec3 p;
            glm_vec3_copy((float *)e->center, p);
            p[u] += e->radii[u] * cosf(ang);
            p[w] += e->radii[w] * sinf(ang);
            if (i % 2 == 1)     /* dashed: every other piece */
                render_list_line(list, prev, p, TUTORIAL_SHAPE);
            glm_vec3_copy(p, prev);
        }
    }
}

/* the point at l along the last beam */
static void beam_at(const lesson2 *self, float l, vec3 out)
{
    rp_ray_at(&self->last.beam, l, out);
}

/* Is the tutorial's l for shield i the library's answer for that shield
   (its smallest root >= 0, up to the tutorial's float rounding)? */
static bool tutorial_right(const lesson2 *self, int i, float l)
{
    const shot *s = &self->last;
    return s->exact_hit[i] && fabsf(l - s->exact_l[i]) <= 1e-3f * glm_max(1.0f, fabsf(l));
}

/* Step mode: the beam's line through the span, the gun A, the shield under
   test with its semi-axes (and, turned, the shape the tutorial tests), the
   roots, the root chosen, and at the end the mode's beam. No flash: it
   would cover the points. Labels: A the gun, 1 and 2 the roots s1 and s2,
   L the tutorial's l; while a, b, c are formed, RayHelp from the centre M
   to A in violet. */
static void draw_steps(const lesson2 *self, render_list *list)
{
    const shot *s = &self->last;
    const step_view *v = &self->views[self->stepper.current];
    lesson_label_room room = {.count = 0};
    vec3 a, b;
    beam_at(self, glm_min(v->span0, 0.0f) - 1.0f, a);
    beam_at(self, v->span1 + 1.0f, b);
    render_list_line(list, a, b, (vec4){1.0f, 1.0f, 1.0f, 0.45f});
    render_list_point(list, s->beam.origin, 12.0f, GUN);
    lesson_list_label_spaced(list, &room, s->beam.origin, "A", LABEL_PX, GUN);
    if (v->shield >= 0) {
        const rp_ellipsoid *e = &self->shields[v->shield].shape;
        mat4 model;
        lesson_model(e->center, e->orientation, e->radii, model);
        static const vec4 axis_colors[3] = {{1.0f, 0.3f, 0.3f, 1.0f}, {0.3f, 1.0f, 0.3f, 1.0f}, {0.4f, 0.6f, 1.0f, 1.0f}};
        for (int i = 0; i < 3; ++i) {
            vec3 tip;
            glm_mat4_mulv3(model, (vec3){i == 0, i == 1, i == 2}, 1.0f, tip);
            render_list_line(list, e->center, tip, axis_colors[i]);
        }
        if (turned(e))
            draw_tutorial_shape(e, list);
        /* a, b, c are built from RayHelp = A - M: the arrow from the centre M to the gun */
        if (v->kind == K_ABC) {
            render_list_line(list, e->center, s->beam.origin, RAY_HELP);
            render_list_point(list, e->center, 12.0f, RAY_HELP);
        }
    }
    const call_numbers *q = &v->q;
    if (q->has_roots) {
        vec3 p1, p2;
        beam_at(self, q->s1, p1);
        beam_at(self, q->s2, p2);
        render_list_line(list, p1, p2, (vec4){1.0f, 1.0f, 1.0f, 0.9f});
        if (q->has_l) {
            vec3 lp;
            beam_at(self, q->l, lp);
            bool right = tutorial_right(self, v->shield, q->l);
            render_list_point(list, lp, 20.0f, right ? RIGHT : WRONG);
            lesson_list_label_spaced(list, &room, lp, "L", LABEL_PX, right ? RIGHT : WRONG);
            if (!right && s->exact_hit[v->shield]) {    /* where the beam really meets this shield */
                vec3 rp;
                beam_at(self, s->exact_l[v->shield], rp);
                render_list_point(list, rp, 20.0f, RIGHT);
            }
        }
        render_list_point(list, p1, 13.0f, ROOT);
        render_list_point(list, p2, 13.0f, ROOT);
        lesson_list_label_spaced(list, &room, p2, "2", LABEL_PX, ROOT);
        lesson_list_label_spaced(list, &room, p1, "1", LABEL_PX, ROOT);
    }
    if (v->kind != K_RESULT)
        return;
    /* the end: the beam as the mode draws it */
    float l;
    int id = mode_answer(self, self->mode, &l);
    beam end = {.hit = id >= 0};
    glm_vec3_copy((float *)s->beam.origin, end.from);
    beam_at(self, id >= 0 ? l : BEAM_RANGE, end.to);
    draw_beam(self, &end, list->view.eye, 0.5f * BEAM_WIDTH, 0.9f, list);
    if (self->mode == MODE_RAYPICK && id >= 0)
        render_list_point(list, end.to, 20.0f, RIGHT);
}

static void draw(const void *self_, render_list *list)
{
    const lesson2 *self = self_;
    bool stepping = lesson_stepper_active(&self->stepper) && self->last.valid;
    draw_ships(self, list);
    render_list_grid(list, 0.0f);
    for (int i = 0; i < SHIELD_COUNT; ++i) {
        const shield *s = &self->shields[i];
        mat4 m;
        lesson_model(s->shape.center, s->shape.orientation, s->shape.radii, m);
        render_list_shield(list, m, s->color, (const vec4 *)s->impacts, stepping ? 0 : SHIELD_IMPACTS, self->time,
                           IMPACT_LIFE, RIPPLE_SPEED);
    }
    if (stepping) {
        draw_steps(self, list);
        return;
    }
    for (int i = 0; i < BEAM_COUNT; ++i) {
        const beam *b = &self->beams[i];
        float age = self->time - b->start;
        if (b->start < 0.0f || age > BEAM_LIFE)
            continue;
        float fade = 1.0f - age / BEAM_LIFE;
        draw_beam(self, b, list->view.eye, BEAM_WIDTH, fade, list);
        if (b->hit)
            render_list_point(list, b->to, 22.0f, (vec4){1.0f, 0.75f, 0.4f, fade});
    }
}

/* ------------------------------------------------------------ the inset */

/* The step the panel and the inset show: the current one in step mode,
   the last one otherwise; -1 when there is none. */
static int shown_step(const lesson2 *self)
{
    if (!self->last.valid || self->trace.count == 0)
        return -1;
    return lesson_stepper_active(&self->stepper) ? self->stepper.current : self->trace.count - 1;
}

typedef struct plot {
    float x, y, w, h;           /* pixels */
    float l0, l1, f0, f1;       /* what they span: l across, a l^2 + b l + c up */
} plot;

static float plot_x(const plot *p, float l)
{
    return p->x + (l - p->l0) / (p->l1 - p->l0) * p->w;
}

static float plot_y(const plot *p, float f)
{
    return p->y + p->h - (glm_clamp(f, p->f0, p->f1) - p->f0) / (p->f1 - p->f0) * p->h;
}

static float quadratic_at(const call_numbers *q, float l)
{
    return (q->a * l + q->b) * l + q->c;
}

/* The l range the figure shows: 0, the roots (or the vertex), the beam's
   closest approach to the shield; f's range over it. */
static void plot_ranges(const lesson2 *self, const step_view *v, plot *p)
{
    const call_numbers *q = &v->q;
    float lc, reach;
    shield_on_beam(self, v->shield, &lc, &reach);
    float lo = glm_min(0.0f, lc - reach), hi = glm_max(0.0f, lc + reach);
    if (q->has_roots) {
        lo = glm_min(lo, q->s2);
        hi = glm_max(hi, q->s1);
    }
    float pad = 0.12f * (hi - lo) + 0.5f;
    p->l0 = lo - pad;
    p->l1 = hi + pad;
    /* f from below the vertex, f = -det / 4a, to a little above the axis:
       the axis and the dip between the roots fill the plot, the rest of the
       parabola leaves it at the top */
    float fv = q->c - q->b * q->b / (4.0f * q->a);
    if (fv < 0.0f) {
        p->f0 = 1.35f * fv;
        p->f1 = -2.6f * fv;
    } else {
        float h = glm_max(fv, 1e-3f);
        p->f0 = -0.6f * h;
        p->f1 = 3.5f * h;
    }
}

static void marker_text(render_list *list, const plot *p, float l, float y, float ts, const vec4 color,
                        const char *text)
{
    render_list_fig_text(list, plot_x(p, l), y, ts, RENDER_ALIGN_CENTER, 0.0f, color, text);
}

/* the line under the plot: which case the roots are, in words */
static const char *case_text(const call_numbers *q)
{
    if (!q->has_abc)
        return TEXT("figure.wait");
    if (!q->has_det)
        return TEXT("figure.abc");
    if (q->det < 0.0f)
        return TEXT("figure.no-roots");
    if (!q->has_roots)
        return TEXT("figure.two-roots");
    if (q->s2 >= 0.0f)
        return TEXT("figure.entry");
    if (q->s1 >= 0.0f)
        return TEXT("figure.inside");
    return TEXT("figure.behind");
}

static void figure(const void *self_, const lesson_figure_area *area, render_list *list)
{
    const lesson2 *self = self_;
    int cur = shown_step(self);
    float ts = area->text_scale, line = 13.0f * ts, pad = 6.0f * ts;
    render_list_fig_rect(list, area->x, area->y, area->w, area->h, (vec4){0.03f, 0.04f, 0.08f, 1.0f});
    const vec4 title = {1.0f, 0.92f, 0.65f, 1.0f}, plain = {0.80f, 0.88f, 1.0f, 1.0f};
    const step_view *v = cur >= 0 ? &self->views[cur] : NULL;
    if (!v || v->shield < 0) {
        render_list_fig_text(list, area->x + pad, area->y + 5.0f * ts, ts, RENDER_ALIGN_LEFT, area->w - 2.0f * pad,
                             title, TEXT("figure.title"));
        render_list_fig_text(list, area->x + pad, area->y + 5.0f * ts + line, ts, RENDER_ALIGN_LEFT,
                             area->w - 2.0f * pad, plain, v ? TEXT("figure.none") : TEXT("figure.empty"));
        return;
    }
    char head[160], name[96];
    snprintf(head, sizeof head, TEXT("figure.heading"),
             lesson_display_name("name", self->shields[v->shield].name, name, sizeof name));
    render_list_fig_text(list, area->x + pad, area->y + 5.0f * ts, ts, RENDER_ALIGN_LEFT, area->w - 2.0f * pad, title,
                         head);
    plot p = {area->x + 10.0f * ts, area->y + 2.0f * line + 6.0f * ts, area->w - 20.0f * ts,
              area->h - 5.0f * line - 10.0f * ts, 0, 0, 0, 0};
    if (p.w < 8.0f || p.h < 8.0f)
        return;
    const call_numbers *q = &v->q;
    if (q->has_abc)
        plot_ranges(self, v, &p);
    else {
        float lc, reach;
        shield_on_beam(self, v->shield, &lc, &reach);
        p.l0 = glm_min(0.0f, lc - reach) - 1.0f;
        p.l1 = glm_max(0.0f, lc + reach) + 1.0f;
        p.f0 = -1.0f;
        p.f1 = 1.0f;
    }
    /* behind the gun (l < 0): shaded */
    float x0 = plot_x(&p, 0.0f);
    if (x0 > p.x)
        render_list_fig_rect(list, p.x, p.y, x0 - p.x, p.h, (vec4){0.22f, 0.07f, 0.07f, 1.0f});
    float axis_y = plot_y(&p, 0.0f);
    render_list_fig_line(list, p.x, axis_y, p.x + p.w, axis_y, 1.5f, (vec4){0.75f, 0.8f, 0.9f, 1.0f});
    if (q->has_roots) {     /* broken where the roots' labels go, so it never strikes through them */
        float gap0 = axis_y + 5.0f * ts, gap1 = glm_min(axis_y + 6.0f * ts + 2.0f * line, p.y + p.h);
        render_list_fig_line(list, x0, p.y, x0, glm_min(gap0, p.y + p.h), 1.5f, GUN);
        if (gap1 < p.y + p.h)
            render_list_fig_line(list, x0, gap1, x0, p.y + p.h, 1.5f, GUN);
    } else {
        render_list_fig_line(list, x0, p.y, x0, p.y + p.h, 1.5f, GUN);
    }
    bool gun_right = x0 > p.x + 0.6f * p.w;     /* its label on the side with room */
    render_list_fig_text(list, x0 + (gun_right ? -3.0f : 3.0f) * ts, p.y, ts,
                         gun_right ? RENDER_ALIGN_RIGHT : RENDER_ALIGN_LEFT, 0.0f, GUN, TEXT("figure.gun"));
    render_list_fig_text(list, p.x + p.w, axis_y + 2.0f * ts, ts, RENDER_ALIGN_RIGHT, 0.0f, plain, "l");
    if (q->has_abc) {
        enum { N = 96 };
        float xy[2 * (N + 1)];
        for (int i = 0; i <= N; ++i) {
            float l = p.l0 + (p.l1 - p.l0) * (float)i / N, f = quadratic_at(q, l);
            xy[2 * i] = plot_x(&p, l);
            xy[2 * i + 1] = f >= p.f0 && f <= p.f1 ? plot_y(&p, f) : NAN;
        }
        render_list_fig_polyline(list, xy, N + 1, 2.0f, (vec4){0.45f, 0.75f, 1.0f, 1.0f});
    }
    const shot *sh = &self->last;
    bool exact_shown = false;
    if (q->has_roots) {
        float x1 = plot_x(&p, q->s1), x2 = plot_x(&p, q->s2);
        /* the beam's line inside the shield */
        render_list_fig_line(list, x2, axis_y, x1, axis_y, 5.0f * ts, (vec4){0.45f, 0.75f, 1.0f, 0.6f});
        bool chosen = q->has_l;
        bool right2 = tutorial_right(self, v->shield, q->s2), right1 = !right2 && tutorial_right(self, v->shield, q->s1);
        const float *c2 = chosen ? (right2 ? RIGHT : WRONG) : ROOT, *c1 = chosen && right1 ? RIGHT : ROOT;
        render_list_fig_circle(list, x2, axis_y, 5.0f * ts, 0.0f, c2);
        render_list_fig_circle(list, x1, axis_y, 5.0f * ts, 0.0f, c1);
        /* the labels under the axis, the second a row lower when the roots are close */
        float below = axis_y + 6.0f * ts;
        marker_text(list, &p, q->s2, below, ts, c2, chosen ? TEXT("figure.s2-chosen") : "s2");
        marker_text(list, &p, q->s1, below + (fabsf(x1 - x2) < 0.4f * p.w ? line : 0.0f), ts, c1,
                    chosen && right1 ? TEXT("figure.s1-right") : "s1");
        /* a turned shield: where the beam really meets it, off the tutorial's roots */
        if (chosen && !right2 && !right1 && sh->exact_hit[v->shield] && sh->exact_l[v->shield] >= p.l0 &&
            sh->exact_l[v->shield] <= p.l1) {
            float xe = plot_x(&p, sh->exact_l[v->shield]);
            render_list_fig_line(list, xe, axis_y - 9.0f * ts, xe, axis_y + 4.0f * ts, 3.0f * ts, RIGHT);
            exact_shown = true;
        }
    }
    char last_line[256];
    const char *text = case_text(q);
    bool bad = q->has_roots && q->has_l && !tutorial_right(self, v->shield, q->l);
    if (q->has_l && turned(&self->shields[v->shield].shape)) {
        if (sh->exact_hit[v->shield])
            snprintf(last_line, sizeof last_line, TEXT("figure.turned"), (double)sh->exact_l[v->shield],
                     exact_shown ? TEXT("figure.turned-tick") : "");
        else
            snprintf(last_line, sizeof last_line, "%s", TEXT("figure.turned-miss"));
        text = last_line;
    }
    render_list_fig_text(list, area->x + pad, p.y + p.h + 4.0f * ts, ts, RENDER_ALIGN_LEFT, area->w - 2.0f * pad,
                         bad ? WRONG : plain, text);
}

/* ------------------------------------------------------------ the HUD */

/* one answer in words: "cruiser, l = 5.683" (", behind the gun") or "miss" */
static void answer_text(const lesson2 *self, shot_mode mode, char *buf, size_t size)
{
    float l;
    int id = mode_answer(self, mode, &l);
    char name[96];
    if (id < 0) {
        snprintf(buf, size, "%s", TEXT("answer.miss"));
        return;
    }
    lesson_display_name("name", self->shields[id].name, name, sizeof name);
    const char *where = l < 0.0f ? TEXT("answer.behind")
                        : mode == MODE_RAYPICK ? (self->last.lib_hit.inside ? TEXT("answer.exit") : TEXT("answer.entry"))
                        : turned(&self->shields[id].shape) ? TEXT("answer.unturned")
                        : TEXT("answer.entry");
    snprintf(buf, size, TEXT("answer.hit"), name, (double)l, where);
}

static void status(const void *self_, char *buf, size_t size)
{
    const lesson2 *self = self_;
    char turret[96], tut[160], lib[160];
    lesson_display_name("name", TURRET_NAMES[self->turret], turret, sizeof turret);
    int n = snprintf(buf, size, TEXT("status.main"), turret,
                     self->mode == MODE_TUTORIAL ? TEXT("mode.tutorial") : TEXT("mode.raypick"));
    if (n < 0 || (size_t)n >= size)
        return;
    buf += n;
    size -= (size_t)n;
    if (!self->last.valid) {
        n = snprintf(buf, size, "\n%s", TEXT("last.start"));
    } else {
        answer_text(self, MODE_TUTORIAL, tut, sizeof tut);
        answer_text(self, MODE_RAYPICK, lib, sizeof lib);
        n = snprintf(buf, size, "\n");
        n += snprintf(buf + n, size - (size_t)n, TEXT("last.both"), tut, lib);
    }
    if (n < 0 || (size_t)n >= size)
        return;
    buf += n;
    size -= (size_t)n;
    if (!self->stepper.on) {
        snprintf(buf, size, "\n%s", TEXT("hint"));
    } else if (!lesson_stepper_active(&self->stepper)) {
        snprintf(buf, size, "\n%s", TEXT("steps.wait"));
    } else {
        char keys[160];
        snprintf(keys, sizeof keys, TEXT("steps.keys"), self->framed ? TEXT("camera.framed") : TEXT("camera.free"));
        snprintf(buf, size, "\n%s", keys);
    }
}

/* The point a step of shield i is about, once its roots are known: the
   tutorial's l, else s2; false before. */
static bool step_point(const lesson2 *self, const step_view *v, float *l)
{
    if (v->kind == K_RESULT && self->mode == MODE_RAYPICK && v->shield == self->last.lib_shield &&
        self->last.lib_shield >= 0) {
        *l = self->last.lib_hit.t;     /* the end the library gives: that shield's smallest root >= 0 */
        return true;
    }
    if (v->shield < 0 || !v->q.has_roots)
        return false;
    *l = v->q.has_l ? v->q.l : v->q.s2;
    return true;
}

/* Where the eye looks from (unit, from the target): square to the beam,
   and once the step has a point on the shield, square to that point's
   surface normal too, so the point lies on the shield's outline and not
   in front of the hull. Above the beam rather than below it, on the
   start camera's side (+z) rather than behind; never steeper than about
   35 degrees (from high above the beam would run up the screen). */
static void view_side(const lesson2 *self, const step_view *v, vec3 out)
{
    const float *dir = self->last.beam.dir;
    glm_vec3_copy((vec3){-dir[2], 0.0f, dir[0]}, out);    /* horizontal, square to the beam */
    float l;
    if (step_point(self, v, &l)) {
        /* the normal of the shape the tutorial tests (axis-aligned): the
           gradient of sum (x_k - c_k)^2 / S_k */
        const PhaserShield *t = &self->tutorial_shields[v->shield];
        vec3 p, n, side;
        beam_at(self, l, p);
        n[0] = (p[0] - t->Position.x) / t->ScaleSq.x;
        n[1] = (p[1] - t->Position.y) / t->ScaleSq.y;
        n[2] = (p[2] - t->Position.z) / t->ScaleSq.z;
        glm_vec3_cross(n, (float *)dir, side);
        float len = glm_vec3_norm(side);
        if (len > 0.2f * glm_vec3_norm(n) && fabsf(side[1]) < 0.6f * len)
            glm_vec3_copy(side, out);
    }
    if (glm_vec3_norm(out) < 1e-6f)
        glm_vec3_copy((vec3){0.0f, 0.0f, 1.0f}, out);
    glm_vec3_normalize(out);
    if (out[1] < -0.05f || (out[1] <= 0.05f && out[2] < 0.0f))
        glm_vec3_negate(out);
}

/* Step mode's camera: from view_side, a little above, showing the step's
   stretch of beam (the gun and the shield, or the roots). The app centres
   it in the room the panel leaves. */
static bool frame(const void *self_, lesson_camera *out)
{
    const lesson2 *self = self_;
    if (!self->framed || !lesson_stepper_active(&self->stepper) || !self->last.valid)
        return false;
    const step_view *v = &self->views[self->stepper.current];
    vec3 side, a, b, mid;
    view_side(self, v, side);
    beam_at(self, v->span0, a);
    beam_at(self, v->span1, b);
    glm_vec3_center(a, b, mid);
    float len = glm_max(glm_vec3_distance(a, b), FRAME_MIN);
    if (v->shield >= 0) {   /* the shield's whole outline too */
        float reach = glm_vec3_max((float *)self->shields[v->shield].shape.radii);
        len = glm_max(len, 2.6f * reach);
    }
    out->yaw = atan2f(side[0], side[2]);
    out->pitch = glm_clamp(asinf(glm_clamp(side[1], -1.0f, 1.0f)) + 0.12f, -1.2f, 1.2f);
    out->fov = 0.7853982f;
    out->distance = 1.6f * len;
    glm_vec3_copy(mid, out->target);
    out->target[1] += 0.18f * len;     /* the beam below the HUD's lines */
    return true;
}

static bool code(const void *self_, lesson_code_view *out)
{
    const lesson2 *self = self_;
    memset(out, 0, sizeof *out);
    out->code = &listing_lesson2_phaser_tutorial;
    if (self->last.valid) {
        out->steps = self->steps;
        out->count = self->trace.count;
    }
    if (self->last.valid && lesson_stepper_active(&self->stepper)) {
        out->step = &self->steps[self->stepper.current];
        out->index = self->stepper.current;
    }
    return true;
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

/* ------------------------------------------------------------ the tour */

/* The tutorial's case, its mistakes made visible, the fix. Keys: P step
   mode, T the turret inside the station's shield, M the library's answer.
   Every moment walks its shot to its last step: FirePhaser's answer. */
static const lesson_tour_moment tour[] = {
    /* the ground turret at the cruiser: s2 is the entry point */
    {.sentence = "lesson.phaser-shields.tour.entry", .keys = "p", .click_count = 1,
     .clicks = {{.aim = LESSON_AIM_OBJECT, .object = 0}}, .steps = STEP_CAP},
    /* the ground behind the turret (a camera higher up, to see it): the
       beam's line runs back through the cruiser, both roots negative,
       still a hit */
    {.sentence = "lesson.phaser-shields.tour.behind", .keys = "p", .click_count = 1,
     .clicks = {{.aim = LESSON_AIM_WORLD, .world = {5.6f, 0.0f, 3.4f}}}, .steps = STEP_CAP,
     .has_camera = true, .camera = {{1.0f, 1.0f, 0.0f}, 0.0f, 0.55f, 22.0f, 0.7853982f}},
    /* the turret inside the station's shield: s2 < 0 < s1 */
    {.sentence = "lesson.phaser-shields.tour.inside", .keys = "tp", .click_count = 1,
     .clicks = {{.aim = LESSON_AIM_OBJECT, .object = 2}}, .steps = STEP_CAP},
    /* the turned carrier: the tutorial tests the unturned shape */
    {.sentence = "lesson.phaser-shields.tour.turned", .keys = "p", .click_count = 1,
     .clicks = {{.aim = LESSON_AIM_WORLD, .world = {6.07f, 3.16f, -1.9f}}}, .steps = STEP_CAP},
    /* the fix: the smallest root >= 0, from inside the station's shield */
    {.sentence = "lesson.phaser-shields.tour.fix", .keys = "tmp", .click_count = 1,
     .clicks = {{.aim = LESSON_AIM_OBJECT, .object = 2}}, .steps = STEP_CAP},
};

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
    .frame = frame,
    .code = code,
    .figure = figure,
    .pick = pick,
    .tour = tour,
    .tour_count = (int)(sizeof tour / sizeof tour[0]),
};

/*
 * Lesson 3: bounding-sphere tests (the German tutorial and the Android games book).
 *
 * Ships move; projectiles fly through them. A projectile inside a ship's
 * bounding sphere is a hit (point in sphere: |p - c|^2 < r^2): ship and
 * projectile light up. Two ships whose bounding spheres overlap are in
 * contact: a link joins them. M cycles the sphere-sphere test:
 *   exact      |ca - cb|^2 <= (ra + rb)^2
 *   shortcut   |ca - cb|^2 <  ra^2 + rb^2       (German tutorial: MISSES contacts)
 *   sqrt(2)    the shortcut with both radii scaled by sqrt(2): never misses,
 *              sometimes reports a contact that is not there
 * Pairs where the chosen test disagrees with the exact one are highlighted.
 * S shrinks the bounding spheres below the models (the Android book's trick: fewer
 * "hits" that look like near misses); models that then overlap while their
 * spheres are apart are marked red and counted on the HUD. A click selects
 * a ship and pauses it; the HUD shows d^2, (ra+rb)^2 and ra^2+rb^2 for it
 * and its nearest neighbour, with each test's verdict. Step mode (P)
 * freezes the scene and walks through those tests one at a time.
 */
#include "lesson.h"
#include "steady_math.h"
#include "msg.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SHIP_COUNT 4
#define SHOT_COUNT 10
#define SHRINK 0.8f
#define OVERLAP_GRID 20         /* samples per axis where two models may meet */

/* the steps of step mode, for the selected pair */
enum { STEP_PAIR, STEP_DISTANCE, STEP_EXACT, STEP_SHORTCUT, STEP_SCALED, STEP_MODELS, STEP_COUNT };

typedef enum test_mode { MODE_EXACT, MODE_SHORTCUT, MODE_SCALED, MODE_COUNT } test_mode;
/* the tests' names: catalogue ids */
static const char *const MODE_NAMES[MODE_COUNT] = {
    "lesson.bounding-sphere-tests.mode.exact", "lesson.bounding-sphere-tests.mode.shortcut",
    "lesson.bounding-sphere-tests.mode.scaled"};

typedef struct ship {
    const char *name;
    render_shape_kind shape;
    float model_radius;     /* the model's own bounding radius */
    vec4 color;
    /* motion: centre + amplitude * sin(speed * t + phase) along axis */
    vec3 home, axis;
    float amplitude, speed, phase;
    float clock;            /* own time: stops while paused */
    bool paused;
    vec3 position;
    float spin;
    bool hit_by_shot;
    bool in_contact;
} ship;

typedef struct shot {
    vec3 position, velocity;
    bool inside;
} shot;

/* Two ships, as the tests see them this frame (i < k). */
typedef struct pair_state {
    bool exact, chosen;     /* the spheres as used (shrunk with S) */
    bool models;            /* the models themselves overlap (sampled) */
    vec3 overlap_point;     /* the middle of the samples inside both */
} pair_state;

typedef struct lesson3 {
    ship ships[SHIP_COUNT];
    shot shots[SHOT_COUNT];
    pair_state pairs[SHIP_COUNT][SHIP_COUNT];
    test_mode mode;
    bool shrink;
    bool show_bounds;
    int contacts_exact, contacts_mode, disagreements, shots_inside;
    int hidden_overlaps;    /* models overlapping while their spheres are apart */
    int selected;           /* the clicked ship, -1: none */
    lesson_stepper stepper;
    uint32_t rng;
} lesson3;

static void update_contacts(lesson3 *self);

/* ------------------------------------------------------------ init */

static float random01(lesson3 *self)
{
    self->rng = self->rng * 1664525u + 1013904223u;     /* LCG: repeatable with --seed */
    return (float)(self->rng >> 8) / 16777216.0f;
}

static void launch_shot(lesson3 *self, shot *s)
{
    /* from the left edge of the play field towards the right, at ship height */
    glm_vec3_copy((vec3){-12.0f, 0.6f + 2.2f * random01(self), -6.0f + 8.0f * random01(self)}, s->position);
    glm_vec3_copy((vec3){5.0f + 3.0f * random01(self), 0.0f, 0.6f * (random01(self) - 0.5f)}, s->velocity);
    s->inside = false;
}

static void place_ship(ship *s)
{
    glm_vec3_copy(s->home, s->position);
    glm_vec3_muladds(s->axis, s->amplitude * steady_sinf(s->speed * s->clock + s->phase), s->position);
}

static void *create(const lesson_env *env)
{
    lesson3 *self = calloc(1, sizeof *self);
    if (!self) {
        snprintf(env->err, env->err_size, "out of memory");
        return NULL;
    }
    self->rng = env->seed * 2654435761u + 12345u;
    /* Pairs 0-1 and 2-3 swing towards each other. Unequal radii, so the
       three tests differ: for ra = 1.6, rb = 0.6 the exact contact distance
       is 2.2, the shortcut's 1.71, the sqrt(2)-scaled one's 2.42. */
    static const ship start[SHIP_COUNT] = {
        {"freighter", RENDER_SPHERE, 1.0f, {0.85f, 0.60f, 0.35f, 1}, {-4.6f, 1.8f, -2.0f}, {1, 0, 0}, 0.9f, 0.6f, 0.0f, 0, false, {0}, 0, false, false},
        {"scout",     RENDER_CUBE,   1.7320508f, {0.45f, 0.75f, 0.95f, 1}, {-2.2f, 1.8f, -2.0f}, {-1, 0, 0}, 0.9f, 0.6f, 0.0f, 0, false, {0}, 0, false, false},
        {"hauler",    RENDER_TORUS,  1.05f, {0.70f, 0.90f, 0.45f, 1}, {2.4f, 1.6f, -3.0f}, {1, 0, 0}, 0.8f, 0.45f, 1.3f, 0, false, {0}, 0, false, false},
        {"probe",     RENDER_CONE,   1.4142136f, {0.95f, 0.55f, 0.75f, 1}, {4.9f, 1.6f, -3.0f}, {-1, 0, 0}, 0.8f, 0.45f, 1.3f, 0, false, {0}, 0, false, false},
    };
    memcpy(self->ships, start, sizeof start);
    for (int i = 0; i < SHIP_COUNT; ++i)
        place_ship(&self->ships[i]);
    for (int i = 0; i < SHOT_COUNT; ++i) {
        launch_shot(self, &self->shots[i]);
        self->shots[i].position[0] += 24.0f * (float)i / SHOT_COUNT;     /* spread them out */
    }
    self->mode = MODE_SHORTCUT;
    self->show_bounds = true;
    self->selected = -1;
    update_contacts(self);
    return self;
}

static void destroy(void *self)
{
    free(self);
}

/* ship scale: the big ones are drawn larger */
static float ship_scale(int i)
{
    static const float scale[SHIP_COUNT] = {1.6f, 0.6f / 1.7320508f, 1.2f, 0.7f / 1.4142136f};
    return scale[i];
}

static void bounding_sphere(const lesson3 *self, int i, rp_sphere *s)
{
    glm_vec3_copy((float *)self->ships[i].position, s->center);
    s->radius = self->ships[i].model_radius * ship_scale(i) * (self->shrink ? SHRINK : 1.0f);
}

/* the sphere that encloses the model, whatever S says */
static void enclosing_sphere(const lesson3 *self, int i, rp_sphere *s)
{
    glm_vec3_copy((float *)self->ships[i].position, s->center);
    s->radius = self->ships[i].model_radius * ship_scale(i);
}

/* the model matrix the ship is drawn with */
static void ship_model(const lesson3 *self, int i, mat4 out)
{
    const ship *s = &self->ships[i];
    versor q;
    steady_quatv(s->spin, (vec3){0.2f, 1.0f, 0.0f}, q);
    glm_quat_normalize(q);
    float k = ship_scale(i);
    /* the freighter is a squashed sphere: its bounding sphere is its long axis */
    vec3 scale = {k, k, k};
    if (i == 0)
        glm_vec3_mul(scale, (vec3){1.0f, 0.55f, 0.75f}, scale);
    lesson_model(s->position, q, scale, out);
}

/* Is a point, in a shape's own unit space, inside the drawn shape
   (render_list.h's sphere, cube, torus and cone)? */
static bool inside_shape(render_shape_kind kind, const vec3 p)
{
    float around = sqrtf(p[0] * p[0] + p[2] * p[2]);
    switch (kind) {
    case RENDER_SPHERE: return glm_vec3_norm2((float *)p) <= 1.0f;
    case RENDER_CUBE: return fabsf(p[0]) <= 1.0f && fabsf(p[1]) <= 1.0f && fabsf(p[2]) <= 1.0f;
    case RENDER_TORUS: return (around - 0.75f) * (around - 0.75f) + p[1] * p[1] <= 0.09f;
    case RENDER_CONE: return p[1] >= -1.0f && p[1] <= 1.0f && around <= 0.5f * (1.0f - p[1]);
    default: return false;
    }
}

/* Do ships i and k's models overlap? A grid of OVERLAP_GRID^3 points over
   the box where their enclosing spheres' boxes meet; a point inside both
   models is an overlap (one thinner than a grid cell can be missed). The
   middle of those points goes to *where. */
static bool models_overlap(const lesson3 *self, int i, int k, vec3 where)
{
    rp_sphere a, b;
    enclosing_sphere(self, i, &a);
    enclosing_sphere(self, k, &b);
    if (!rp_test_sphere_sphere(&a, &b))
        return false;
    vec3 lo, hi;
    for (int j = 0; j < 3; ++j) {
        lo[j] = glm_max(a.center[j] - a.radius, b.center[j] - b.radius);
        hi[j] = glm_min(a.center[j] + a.radius, b.center[j] + b.radius);
    }
    mat4 ma, mb, inv_a, inv_b;
    ship_model(self, i, ma);
    ship_model(self, k, mb);
    glm_mat4_inv(ma, inv_a);
    glm_mat4_inv(mb, inv_b);
    vec3 sum = {0.0f, 0.0f, 0.0f};
    int found = 0;
    for (int z = 0; z < OVERLAP_GRID; ++z)
        for (int y = 0; y < OVERLAP_GRID; ++y)
            for (int x = 0; x < OVERLAP_GRID; ++x) {
                const int cell[3] = {x, y, z};
                vec3 p, pa, pb;
                for (int j = 0; j < 3; ++j)
                    p[j] = lo[j] + (hi[j] - lo[j]) * ((float)cell[j] + 0.5f) / OVERLAP_GRID;
                glm_mat4_mulv3(inv_a, p, 1.0f, pa);
                glm_mat4_mulv3(inv_b, p, 1.0f, pb);
                if (inside_shape(self->ships[i].shape, pa) && inside_shape(self->ships[k].shape, pb)) {
                    glm_vec3_add(sum, p, sum);
                    ++found;
                }
            }
    if (found > 0)
        glm_vec3_scale(sum, 1.0f / (float)found, where);
    return found > 0;
}

/* ------------------------------------------------------------ update */

static bool contact(test_mode mode, const rp_sphere *a, const rp_sphere *b)
{
    if (mode == MODE_EXACT)
        return rp_test_sphere_sphere(a, b);
    if (mode == MODE_SHORTCUT)
        return rp_test_sphere_sphere_approx(a, b);
    rp_sphere sa = *a, sb = *b;
    sa.radius *= GLM_SQRT2f;
    sb.radius *= GLM_SQRT2f;
    return rp_test_sphere_sphere_approx(&sa, &sb);
}

/* ------------------------------------------------------------ the selected pair */

/* The selected ship and its nearest neighbour: the numbers each test
   compares, and each test's verdict (the library's, as drawn). */
typedef struct pair_numbers {
    int a, b;               /* ships; a is the selected one */
    float ra, rb;
    float d2;               /* |ca - cb|^2 */
    float exact_bound;      /* (ra + rb)^2 */
    float shortcut_bound;   /* ra^2 + rb^2 */
    float scaled_bound;     /* the shortcut with both radii times sqrt(2) */
    bool exact, shortcut, scaled, models;
} pair_numbers;

static void selected_pair(const lesson3 *self, pair_numbers *n)
{
    memset(n, 0, sizeof *n);
    n->a = self->selected;
    n->b = -1;
    if (n->a < 0)
        return;
    float best = 0.0f;
    for (int i = 0; i < SHIP_COUNT; ++i) {
        float d2 = glm_vec3_distance2((float *)self->ships[n->a].position, (float *)self->ships[i].position);
        if (i != n->a && (n->b < 0 || d2 < best)) {
            n->b = i;
            best = d2;
        }
    }
    rp_sphere sa, sb;
    bounding_sphere(self, n->a, &sa);
    bounding_sphere(self, n->b, &sb);
    n->ra = sa.radius;
    n->rb = sb.radius;
    n->d2 = glm_vec3_distance2(sa.center, sb.center);
    n->exact_bound = (n->ra + n->rb) * (n->ra + n->rb);
    n->shortcut_bound = n->ra * n->ra + n->rb * n->rb;
    n->scaled_bound = 2.0f * n->shortcut_bound;
    n->exact = contact(MODE_EXACT, &sa, &sb);
    n->shortcut = contact(MODE_SHORTCUT, &sa, &sb);
    n->scaled = contact(MODE_SCALED, &sa, &sb);
    const pair_state *ps = n->a < n->b ? &self->pairs[n->a][n->b] : &self->pairs[n->b][n->a];
    n->models = ps->models;
}

static void update_shots(lesson3 *self, float dt)
{
    self->shots_inside = 0;
    for (int j = 0; j < SHOT_COUNT; ++j) {
        shot *s = &self->shots[j];
        glm_vec3_muladds(s->velocity, dt, s->position);
        if (s->position[0] > 12.0f)
            launch_shot(self, s);
        s->inside = false;
        for (int i = 0; i < SHIP_COUNT; ++i) {
            rp_sphere b;
            bounding_sphere(self, i, &b);
            if (rp_sphere_contains_point(&b, s->position)) {
                s->inside = true;
                self->ships[i].hit_by_shot = true;
            }
        }
        self->shots_inside += s->inside;
    }
}

static void update_contacts(lesson3 *self)
{
    self->contacts_exact = self->contacts_mode = self->disagreements = self->hidden_overlaps = 0;
    pair_numbers selection;
    selected_pair(self, &selection);
    for (int i = 0; i < SHIP_COUNT; ++i)
        for (int k = i + 1; k < SHIP_COUNT; ++k) {
            rp_sphere a, b;
            bounding_sphere(self, i, &a);
            bounding_sphere(self, k, &b);
            pair_state *ps = &self->pairs[i][k];
            ps->exact = contact(MODE_EXACT, &a, &b);
            ps->chosen = contact(self->mode, &a, &b);
            /* the models are sampled where it matters: spheres apart (an
               overlap they miss?) and the selected pair (its last step) */
            bool selected = (i == selection.a && k == selection.b) || (k == selection.a && i == selection.b);
            ps->models = (!ps->exact || selected) && models_overlap(self, i, k, ps->overlap_point);
            self->contacts_exact += ps->exact;
            self->contacts_mode += ps->chosen;
            self->disagreements += ps->exact != ps->chosen;
            self->hidden_overlaps += ps->models && !ps->exact;
            if (ps->chosen)
                self->ships[i].in_contact = self->ships[k].in_contact = true;
        }
}

static void update(void *self_, float dt)
{
    lesson3 *self = self_;
    if (self->stepper.on)       /* step mode: the scene stands still */
        dt = 0.0f;
    for (int i = 0; i < SHIP_COUNT; ++i) {
        ship *s = &self->ships[i];
        if (!s->paused)
            s->clock += dt;
        s->spin += dt * 0.8f;
        place_ship(s);
        s->hit_by_shot = s->in_contact = false;
    }
    update_shots(self, dt);
    update_contacts(self);
}

static bool key(void *self_, char k)
{
    lesson3 *self = self_;
    if (lesson_stepper_key(&self->stepper, k))
        return true;
    switch (k) {
    case 'm': self->mode = (test_mode)((self->mode + 1) % MODE_COUNT); update_contacts(self); return true;
    case 's': self->shrink = !self->shrink; update_contacts(self); return true;
    case 'b': self->show_bounds = !self->show_bounds; return true;
    default: return false;
    }
}

static lesson_method method(const void *self)
{
    (void)self;
    return LESSON_PICK_UNPROJECT;
}

/* ------------------------------------------------------------ click */

static void click(void *self_, const lesson_click *c, lesson_pick *out)
{
    lesson3 *self = self_;
    lesson_pick_miss(out, &c->ray, lesson_method_name(c->method));
    rp_sphere spheres[SHIP_COUNT];
    for (int i = 0; i < SHIP_COUNT; ++i)
        bounding_sphere(self, i, &spheres[i]);
    rp_hit hit;
    int id = rp_intersect_ray_spheres(&c->ray, spheres, SHIP_COUNT, &hit);
    if (id < 0)
        return;
    self->selected = id;
    lesson_stepper_restart(&self->stepper, STEP_COUNT);
    if (!self->stepper.on)      /* in step mode everything stands still already */
        self->ships[id].paused = !self->ships[id].paused;
    out->hit = true;
    out->id = id;
    snprintf(out->what, sizeof out->what, "%s", self->ships[id].name);
    out->t = hit.t;
    glm_vec3_copy(hit.point, out->point);
    lesson_pick_bool(out, "paused", self->ships[id].paused);
    lesson_pick_float(out, "radius", spheres[id].radius, 6);
    pair_numbers n;
    selected_pair(self, &n);
    lesson_pick_int(out, "partner", n.b);
    lesson_pick_float(out, "d2", n.d2, 7);
    lesson_pick_float(out, "exact_bound", n.exact_bound, 7);     /* (ra+rb)^2 */
    lesson_pick_float(out, "shortcut_bound", n.shortcut_bound, 7);  /* ra^2+rb^2 */
    lesson_pick_bool(out, "models_overlap", n.models);
    snprintf(out->note, sizeof out->note, "%s %s", self->ships[id].name, self->ships[id].paused ? "paused" : "moving");
}

/* ------------------------------------------------------------ draw */

static void draw_links(const lesson3 *self, render_list *list)
{
    for (int i = 0; i < SHIP_COUNT; ++i)
        for (int k = i + 1; k < SHIP_COUNT; ++k) {
            rp_sphere a, b;
            bounding_sphere(self, i, &a);
            bounding_sphere(self, k, &b);
            bool exact = contact(MODE_EXACT, &a, &b), chosen = contact(self->mode, &a, &b);
            /* a bridge above the pair, clear of the models */
            vec3 pa, pb;
            glm_vec3_add(a.center, (vec3){0.0f, a.radius + 0.5f, 0.0f}, pa);
            glm_vec3_add(b.center, (vec3){0.0f, b.radius + 0.5f, 0.0f}, pb);
            if (exact != chosen) {
                /* magenta: the shortcut misses a real contact; amber: a false alarm */
                vec4 c = {1.0f, 0.2f, 0.9f, 1.0f};
                if (chosen)
                    glm_vec4_copy((vec4){1.0f, 0.7f, 0.1f, 1.0f}, c);
                render_list_beam(list, pa, pb, 0.25f, c);
                render_list_line(list, a.center, pa, c);
                render_list_line(list, b.center, pb, c);
            } else if (chosen) {
                render_list_beam(list, pa, pb, 0.15f, (vec4){0.3f, 1.0f, 0.5f, 0.9f});
                render_list_line(list, a.center, pa, (vec4){0.3f, 1.0f, 0.5f, 0.6f});
                render_list_line(list, b.center, pb, (vec4){0.3f, 1.0f, 0.5f, 0.6f});
            }
        }
}

/* p dropped onto the ground, just above it: the selection and the red
   markers are drawn there, since the centres and the overlap lie inside
   the opaque models and the space above them is under the HUD */
static void on_ground(const vec3 p, vec3 out)
{
    glm_vec3_copy((float *)p, out);
    out[1] = 0.02f;
}

/* the selected pair: a white line on the ground under the centres, as long
   as the distance d between them (a pair swings at one height), with
   ticks up to the centres */
static void draw_selection(const lesson3 *self, render_list *list)
{
    pair_numbers n;
    selected_pair(self, &n);
    if (n.a < 0)
        return;
    const float *ca = self->ships[n.a].position, *cb = self->ships[n.b].position;
    vec3 ga, gb;
    on_ground(ca, ga);
    on_ground(cb, gb);
    vec4 white = {1.0f, 1.0f, 1.0f, 0.9f};
    render_list_line(list, ga, gb, white);
    render_list_line(list, ca, ga, white);
    render_list_line(list, cb, gb, white);
    render_list_point(list, ga, 9.0f, white);
    render_list_point(list, gb, 9.0f, white);
}

/* is ship i in a pair whose models overlap while their spheres are apart? */
static bool in_hidden_overlap(const lesson3 *self, int i)
{
    for (int k = 0; k < SHIP_COUNT; ++k) {
        if (k == i)
            continue;
        const pair_state *ps = i < k ? &self->pairs[i][k] : &self->pairs[k][i];
        if (ps->models && !ps->exact)
            return true;
    }
    return false;
}

static void draw(const void *self_, render_list *list)
{
    const lesson3 *self = self_;
    for (int i = 0; i < SHIP_COUNT; ++i) {
        const ship *s = &self->ships[i];
        mat4 m;
        ship_model(self, i, m);
        vec3 glow = {0, 0, 0};
        if (s->hit_by_shot)
            glm_vec3_copy((vec3){0.55f, 0.15f, 0.05f}, glow);
        if (in_hidden_overlap(self, i))     /* red: a contact the spheres cannot see */
            glm_vec3_copy((vec3){0.75f, 0.0f, 0.08f}, glow);
        render_list_shape(list, s->shape, m, s->color, glow);
        render_list_shadow(list, s->position, s->model_radius * ship_scale(i) * 1.1f, 0.0f, 0.8f);
    }
    /* the overlap the spheres miss: a red pin from it down to the ground */
    for (int i = 0; i < SHIP_COUNT; ++i)
        for (int k = i + 1; k < SHIP_COUNT; ++k) {
            const pair_state *ps = &self->pairs[i][k];
            if (!ps->models || ps->exact)
                continue;
            vec3 foot;
            on_ground(ps->overlap_point, foot);
            render_list_line(list, ps->overlap_point, foot, (vec4){1.0f, 0.1f, 0.15f, 1.0f});
            render_list_point(list, foot, 18.0f, (vec4){1.0f, 0.1f, 0.15f, 1.0f});
        }
    for (int j = 0; j < SHOT_COUNT; ++j) {
        const shot *s = &self->shots[j];
        vec3 tail;
        glm_vec3_copy((float *)s->position, tail);
        glm_vec3_muladds((float *)s->velocity, -0.08f, tail);
        vec4 c = {0.6f, 0.9f, 1.0f, 1.0f};
        if (s->inside)
            glm_vec4_copy((vec4){1.0f, 0.35f, 0.2f, 1.0f}, c);
        render_list_line(list, tail, s->position, c);
        render_list_point(list, s->position, s->inside ? 14.0f : 8.0f, c);
    }
    render_list_grid(list, 0.0f);
    draw_links(self, list);
    draw_selection(self, list);
    if (!self->show_bounds)
        return;
    for (int i = 0; i < SHIP_COUNT; ++i) {
        rp_sphere b;
        bounding_sphere(self, i, &b);
        vec4 c = {0.35f, 0.55f, 0.85f, 0.06f};
        if (self->ships[i].in_contact)
            glm_vec4_copy((vec4){0.3f, 1.0f, 0.5f, 0.10f}, c);
        if (self->ships[i].hit_by_shot)
            glm_vec4_copy((vec4){1.0f, 0.4f, 0.2f, 0.14f}, c);
        render_list_glass_sphere(list, b.center, b.radius, c);
    }
}

static const char *yes_no(bool contact)
{
    return msg(contact ? "lesson.bounding-sphere-tests.contact" : "lesson.bounding-sphere-tests.apart");
}

/* SHRINK as a percentage, for the HUD */
static int shrink_percent(void)
{
    return (int)lroundf(SHRINK * 100.0f);
}

/* the selected pair's numbers: one step of step mode, or all in two lines */
static void pair_text(const lesson3 *self, char *buf, size_t size)
{
    pair_numbers n;
    selected_pair(self, &n);
    if (n.a < 0) {
        snprintf(buf, size, msg("lesson.bounding-sphere-tests.pair.none"),
                 msg(self->stepper.on ? "lesson.bounding-sphere-tests.pair.frozen"
                                      : "lesson.bounding-sphere-tests.pair.step_hint"));
        return;
    }
    char na[64], nb[64];
    lesson_display_name("name", self->ships[n.a].name, na, sizeof na);
    lesson_display_name("name", self->ships[n.b].name, nb, sizeof nb);
    if (!lesson_stepper_active(&self->stepper)) {
        snprintf(buf, size, msg("lesson.bounding-sphere-tests.pair.summary"),
                 na, nb, (double)n.d2, (double)n.exact_bound, (double)n.shortcut_bound, (double)n.scaled_bound,
                 yes_no(n.exact), yes_no(n.shortcut), yes_no(n.scaled),
                 msg(n.models ? "lesson.bounding-sphere-tests.overlap" : "lesson.bounding-sphere-tests.apart"));
        return;
    }
    char label[48], spheres[96];
    lesson_stepper_label(&self->stepper, label, sizeof label);
    int k = snprintf(buf, size, msg("lesson.bounding-sphere-tests.step.header"), label);
    if (k < 0 || (size_t)k >= size)
        return;
    buf += k;
    size -= (size_t)k;
    switch (self->stepper.current) {
    case STEP_PAIR:
        if (self->shrink)
            snprintf(spheres, sizeof spheres, msg("lesson.bounding-sphere-tests.spheres.shrunk_models"),
                     shrink_percent());
        else
            snprintf(spheres, sizeof spheres, "%s", msg("lesson.bounding-sphere-tests.spheres.enclosing_models"));
        snprintf(buf, size, msg("lesson.bounding-sphere-tests.step.pair"), na, (double)n.ra, nb, (double)n.rb,
                 spheres);
        break;
    case STEP_DISTANCE:
        snprintf(buf, size, msg("lesson.bounding-sphere-tests.step.distance"), (double)n.d2);
        break;
    case STEP_EXACT:
        snprintf(buf, size, msg("lesson.bounding-sphere-tests.step.exact"), (double)n.exact_bound,
                 msg(n.exact ? "word.yes" : "word.no"), yes_no(n.exact));
        break;
    case STEP_SHORTCUT:
        snprintf(buf, size, msg("lesson.bounding-sphere-tests.step.shortcut"), (double)n.shortcut_bound,
                 msg(n.shortcut ? "word.yes" : "word.no"), yes_no(n.shortcut),
                 n.exact && !n.shortcut ? msg("lesson.bounding-sphere-tests.step.misses") : "");
        break;
    case STEP_SCALED:
        snprintf(buf, size, msg("lesson.bounding-sphere-tests.step.scaled"), (double)n.scaled_bound,
                 msg(n.scaled ? "word.yes" : "word.no"), yes_no(n.scaled),
                 n.scaled && !n.exact ? msg("lesson.bounding-sphere-tests.step.false_alarm") : "");
        break;
    default:
        snprintf(buf, size, msg("lesson.bounding-sphere-tests.step.models"),
                 msg(n.models ? "lesson.bounding-sphere-tests.models.overlap" : "lesson.bounding-sphere-tests.apart"),
                 n.models && !n.exact ? msg("lesson.bounding-sphere-tests.models.missed") : "", OVERLAP_GRID,
                 OVERLAP_GRID, OVERLAP_GRID);
        break;
    }
}

static void status(const void *self_, char *buf, size_t size)
{
    const lesson3 *self = self_;
    char spheres[96];
    if (self->shrink)
        snprintf(spheres, sizeof spheres, msg("lesson.bounding-sphere-tests.spheres.shrunk_model"), shrink_percent());
    else
        snprintf(spheres, sizeof spheres, "%s", msg("lesson.bounding-sphere-tests.spheres.enclosing_model"));
    int n = snprintf(buf, size, msg("lesson.bounding-sphere-tests.status"),
             msg(MODE_NAMES[self->mode]), self->contacts_mode, self->contacts_exact, self->disagreements,
             self->disagreements ? msg("lesson.bounding-sphere-tests.status.colours") : "", spheres,
             msg(self->show_bounds ? "word.shown" : "word.hidden"), self->shots_inside, self->hidden_overlaps,
             self->hidden_overlaps ? msg("lesson.bounding-sphere-tests.status.red") : "");
    if (n >= 0 && (size_t)n < size)
        pair_text(self, buf + n, size - (size_t)n);
}

static int objects(const void *self_, const vec3 eye, lesson_object *out, int cap)
{
    const lesson3 *self = self_;
    (void)eye;
    for (int i = 0; i < SHIP_COUNT && i < cap; ++i) {
        lesson_object *o = &out[i];
        memset(o, 0, sizeof *o);
        o->id = i;
        snprintf(o->name, sizeof o->name, "%s", self->ships[i].name);
        o->kind = LESSON_OBJECT_SPHERE;
        bounding_sphere(self, i, &o->shape.sphere);
    }
    return SHIP_COUNT;
}

const lesson lesson3_bounds = {
    .number = 3,
    .camera = {{0.0f, 1.6f, -2.5f}, 0.0f, 0.5f, 12.0f, 0.7853982f},
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

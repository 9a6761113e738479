/*
 * Lesson 3: bounding-sphere tests (the German tutorial and the Android games book).
 *
 * Ships move; projectiles fly through them. Every frame the lesson runs
 * the two articles' own tests, ported to C under their names
 * (listings/lesson3_sphere_tests.c): a projectile inside a ship's bounding
 * sphere is a hit (the German Check_SphereHit: the squared distance below
 * SphereSquareRadius); two ships whose spheres the chosen test (M) says
 * meet are in contact, a link joins them:
 *   exact      the Android book's overlapSpheres: d^2 <= radiusSum^2
 *   shortcut   the German Sphere_Sphere_Collision: d^2 < r1^2 + r2^2, the
 *              mixed term 2 r1 r2 dropped (it MISSES contacts)
 *   sqrt(2)    the shortcut with both radii scaled by sqrt(2)
 *              (rp_sphere_radius_for_approx): never misses, sometimes
 *              reports a contact that is not there
 * Pairs where the chosen test disagrees with the exact one are highlighted
 * (magenta: a missed contact, amber: a false alarm). S shrinks the
 * bounding spheres below the models (the Android book's trick); models
 * that then overlap while their spheres are apart are marked red.
 *
 * A click selects a ship (and pauses it): its pair is it and its nearest
 * neighbour. D sets the pair's distance to the cases the tests disagree
 * on: in the shortcut's blind band, exactly touching (<= against <), in
 * the sqrt(2) test's false-alarm band. Step mode (P) freezes the scene and
 * walks the articles' code for the pair (and the projectile nearest the
 * ship), each step lighting its line in the code panel, the camera
 * framing the pair (lesson->frame; Z frees it), the inset drawing the two
 * circles with ra + rb against sqrt(ra^2 + rb^2) and d (lesson->figure).
 * The tour (O) stages the case, the mistake and the fix. X shows the
 * details: every pair's counts, the spheres' settings, the models.
 */
#include "lesson.h"
#include "lesson3_sphere_tests.h"
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
#define STEP_CAP 16             /* a click's steps: 2 + 2 + 2 + 2 + 1 */
#define TEXT(id) msg("lesson.bounding-sphere-tests." id)
#define STEP_ID(name) "lesson.bounding-sphere-tests.step." name

typedef enum test_mode { MODE_EXACT, MODE_SHORTCUT, MODE_SCALED, MODE_COUNT } test_mode;
/* the tests' names: catalogue ids */
static const char *const MODE_NAMES[MODE_COUNT] = {
    "lesson.bounding-sphere-tests.mode.exact", "lesson.bounding-sphere-tests.mode.shortcut",
    "lesson.bounding-sphere-tests.mode.scaled"};

/* D: the selected pair's distance, set where the tests disagree */
typedef enum distance_case { CASE_FREE, CASE_BLIND, CASE_TOUCHING, CASE_FALSE_ALARM, CASE_COUNT } distance_case;

/* The calls a click records, in order (their steps in the trace). */
enum { CALL_EXACT, CALL_SHORTCUT, CALL_SCALED, CALL_HIT, CALL_POINT, CALL_COUNT };

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
    bool pinned;            /* D put it where it is: it stays */
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
    bool details;           /* X */
    bool framed;            /* Z: step mode's camera frames the step */
    distance_case dcase;    /* D */
    int contacts_exact, contacts_mode, disagreements, shots_inside;
    int hidden_overlaps;    /* models overlapping while their spheres are apart */
    int selected;           /* the clicked ship, -1: none */
    lesson_stepper stepper;
    /* the articles' code for the selected pair, recorded */
    listing_trace trace;
    listing_step steps[STEP_CAP];
    int call_of[STEP_CAP];  /* which call (CALL_*) each step belongs to */
    int pair_a, pair_b, shot_index;     /* what it ran on (-1: no projectile) */
    rp_sphere rec_a, rec_b; /* the spheres as they were then */
    vec3 rec_shot;
    uint32_t rng;
} lesson3;

static void update_contacts(lesson3 *self);
static void record_steps(lesson3 *self);

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
    if (s->pinned)
        return;
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
        {"freighter", RENDER_SPHERE, 1.0f, {0.85f, 0.60f, 0.35f, 1}, {-4.6f, 1.8f, -2.0f}, {1, 0, 0}, 0.9f, 0.6f, 0.0f, 0, false, false, {0}, 0, false, false},
        {"scout",     RENDER_CUBE,   1.7320508f, {0.45f, 0.75f, 0.95f, 1}, {-2.2f, 1.8f, -2.0f}, {-1, 0, 0}, 0.9f, 0.6f, 0.0f, 0, false, false, {0}, 0, false, false},
        {"hauler",    RENDER_TORUS,  1.05f, {0.70f, 0.90f, 0.45f, 1}, {2.4f, 1.6f, -3.0f}, {1, 0, 0}, 0.8f, 0.45f, 1.3f, 0, false, false, {0}, 0, false, false},
        {"probe",     RENDER_CONE,   1.4142136f, {0.95f, 0.55f, 0.75f, 1}, {4.9f, 1.6f, -3.0f}, {-1, 0, 0}, 0.8f, 0.45f, 1.3f, 0, false, false, {0}, 0, false, false},
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
    self->framed = true;
    self->selected = -1;
    listing_trace_reset(&self->trace, self->steps, STEP_CAP);
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

/* ------------------------------------------------------------ the articles' tests */

static D3DXVECTOR3 d3dx(const float *v)
{
    return (D3DXVECTOR3){v[0], v[1], v[2]};
}

static Sphere book_sphere(const rp_sphere *s)
{
    return (Sphere){{s->center[0], s->center[1], s->center[2]}, s->radius};
}

/* The radius the sqrt(2) test gives a sphere: the library's, sqrt(2)
   rounded up, so that no contact is missed in float either. */
static float scaled_radius(float r)
{
    return rp_sphere_radius_for_approx(r);
}

/* One pair under a test, as the lesson runs it every frame: the articles'
   code (trace: where its steps go, NULL for none). */
static bool contact_traced(test_mode mode, const rp_sphere *a, const rp_sphere *b, listing_trace *trace)
{
    D3DXVECTOR3 pa = d3dx(a->center), pb = d3dx(b->center);
    if (mode == MODE_EXACT) {
        Sphere s1 = book_sphere(a), s2 = book_sphere(b);
        return overlapSpheres(trace, &s1, &s2);
    }
    float ra = mode == MODE_SCALED ? scaled_radius(a->radius) : a->radius;
    float rb = mode == MODE_SCALED ? scaled_radius(b->radius) : b->radius;
    return Sphere_Sphere_Collision(trace, &pa, ra * ra, &pb, rb * rb);
}

static bool contact(test_mode mode, const rp_sphere *a, const rp_sphere *b)
{
    return contact_traced(mode, a, b, NULL);
}

/* ------------------------------------------------------------ the selected pair */

/* The selected ship and its nearest neighbour: the numbers each test
   compares, and each test's verdict (the articles' code, as drawn). */
typedef struct pair_numbers {
    int a, b;               /* ships; a is the selected one */
    float ra, rb;
    float d2;               /* |ca - cb|^2 */
    float exact_bound;      /* (ra + rb)^2 */
    float shortcut_bound;   /* ra^2 + rb^2 */
    float scaled_bound;     /* the shortcut with both radii times sqrt(2) */
    bool exact, shortcut, scaled, models;
} pair_numbers;

/* the ship nearest ship a, -1 when a is not a ship */
static int nearest_neighbour(const lesson3 *self, int a)
{
    if (a < 0 || a >= SHIP_COUNT)
        return -1;
    int b = -1;
    float best = 0.0f;
    for (int i = 0; i < SHIP_COUNT; ++i) {
        float d2 = glm_vec3_distance2((float *)self->ships[a].position, (float *)self->ships[i].position);
        if (i != a && (b < 0 || d2 < best)) {
            b = i;
            best = d2;
        }
    }
    return b;
}

static void selected_pair(const lesson3 *self, pair_numbers *n)
{
    memset(n, 0, sizeof *n);
    n->a = self->selected;
    n->b = nearest_neighbour(self, n->a);
    if (n->a < 0)
        return;
    rp_sphere sa, sb;
    bounding_sphere(self, n->a, &sa);
    bounding_sphere(self, n->b, &sb);
    n->ra = sa.radius;
    n->rb = sb.radius;
    n->d2 = glm_vec3_distance2(sa.center, sb.center);
    n->exact_bound = (n->ra + n->rb) * (n->ra + n->rb);
    n->shortcut_bound = n->ra * n->ra + n->rb * n->rb;
    float sra = scaled_radius(n->ra), srb = scaled_radius(n->rb);
    n->scaled_bound = sra * sra + srb * srb;
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
            /* the German tutorial's hit test: the projectile as a point */
            D3DXVECTOR3 centre = d3dx(b.center), at = d3dx(s->position);
            if (Check_SphereHit(NULL, &centre, b.radius * b.radius, &at)) {
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
    int sel_a = self->selected, sel_b = nearest_neighbour(self, sel_a);
    for (int i = 0; i < SHIP_COUNT; ++i)
        for (int k = i + 1; k < SHIP_COUNT; ++k) {
            rp_sphere a, b;
            bounding_sphere(self, i, &a);
            bounding_sphere(self, k, &b);
            pair_state *ps = &self->pairs[i][k];
            ps->exact = contact(MODE_EXACT, &a, &b);
            ps->chosen = contact(self->mode, &a, &b);
            /* the models are sampled where it matters: spheres apart (an
               overlap they miss?) and the selected pair */
            bool selected = (i == sel_a && k == sel_b) || (k == sel_a && i == sel_b);
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

/* D: the selected pair at the distance of the case, ship a where it is and
   b moved along the line between them (both pinned: they stay). With the
   pair lying along an axis and a's coordinate on a 1/256 grid, the
   distance is exact in float: touching is touching. */
static void set_distance(lesson3 *self)
{
    int a = self->selected, b = nearest_neighbour(self, a);
    if (a < 0)
        return;
    if (self->dcase == CASE_FREE) {
        self->ships[a].pinned = self->ships[b].pinned = false;
        self->ships[b].paused = false;
        return;
    }
    rp_sphere sa, sb;
    bounding_sphere(self, a, &sa);
    bounding_sphere(self, b, &sb);
    float ra = sa.radius, rb = sb.radius;
    float hyp = sqrtf(ra * ra + rb * rb), sum = ra + rb;
    float sra = scaled_radius(ra), srb = scaled_radius(rb), scaled = sqrtf(sra * sra + srb * srb);
    float d = self->dcase == CASE_BLIND ? 0.5f * (hyp + sum) : self->dcase == CASE_TOUCHING ? sum : 0.5f * (sum + scaled);
    vec3 dir;
    glm_vec3_sub(sb.center, sa.center, dir);
    if (glm_vec3_norm(dir) < 1e-6f)
        glm_vec3_copy((vec3){1.0f, 0.0f, 0.0f}, dir);
    glm_vec3_normalize(dir);
    for (int k = 0; k < 3; ++k)     /* along an axis: exactly (normalize's 1/norm is not) */
        if (fabsf(dir[k]) < 1e-6f)
            dir[k] = 0.0f;
        else if (fabsf(fabsf(dir[k]) - 1.0f) < 1e-6f)
            dir[k] = copysignf(1.0f, dir[k]);
    ship *A = &self->ships[a], *B = &self->ships[b];
    for (int k = 0; k < 3; ++k)
        A->position[k] = roundf(A->position[k] * 256.0f) / 256.0f;
    glm_vec3_copy(A->position, B->position);
    glm_vec3_muladds(dir, d, B->position);
    A->pinned = B->pinned = true;
    A->paused = B->paused = true;
}

static bool key(void *self_, char k)
{
    lesson3 *self = self_;
    bool recorded = self->trace.count > 0;
    if (lesson_stepper_key(&self->stepper, k))
        return true;
    switch (k) {
    case 'm': self->mode = (test_mode)((self->mode + 1) % MODE_COUNT); break;
    case 's':
        self->shrink = !self->shrink;
        set_distance(self);     /* the case holds for the new radii */
        break;
    case 'b': self->show_bounds = !self->show_bounds; return true;
    case 'x': self->details = !self->details; return true;
    case 'z': self->framed = !self->framed; return true;
    case 'd':
        if (self->selected >= 0) {
            self->dcase = (distance_case)((self->dcase + 1) % CASE_COUNT);
            set_distance(self);
        }
        break;
    default: return false;
    }
    update_contacts(self);
    if (recorded && self->selected >= 0)
        record_steps(self);     /* the steps follow the pair as it is now */
    return true;
}

static lesson_method method(const void *self)
{
    (void)self;
    return LESSON_PICK_UNPROJECT;
}

/* ------------------------------------------------------------ click */

/* the projectile nearest ship a's centre, -1: none */
static int nearest_shot(const lesson3 *self, int a)
{
    int best = -1;
    float d2 = 0.0f;
    for (int j = 0; j < SHOT_COUNT; ++j) {
        float e = glm_vec3_distance2((float *)self->shots[j].position, (float *)self->ships[a].position);
        if (best < 0 || e < d2) {
            best = j;
            d2 = e;
        }
    }
    return best;
}

/* Runs the articles' code once more for the selected pair, recording its
   steps: overlapSpheres (exact), Sphere_Sphere_Collision with the squared
   radii (the shortcut) and with the sqrt(2)-scaled ones, then ship a
   against its nearest projectile: Check_SphereHit and pointInSphere. */
static void record_steps(lesson3 *self)
{
    listing_trace_reset(&self->trace, self->steps, STEP_CAP);
    self->pair_a = self->selected;
    self->pair_b = nearest_neighbour(self, self->selected);
    if (self->pair_a < 0) {
        lesson_stepper_restart(&self->stepper, 0);
        return;
    }
    bounding_sphere(self, self->pair_a, &self->rec_a);
    bounding_sphere(self, self->pair_b, &self->rec_b);
    int first[CALL_COUNT + 1];
    first[CALL_EXACT] = self->trace.count;
    contact_traced(MODE_EXACT, &self->rec_a, &self->rec_b, &self->trace);
    first[CALL_SHORTCUT] = self->trace.count;
    contact_traced(MODE_SHORTCUT, &self->rec_a, &self->rec_b, &self->trace);
    first[CALL_SCALED] = self->trace.count;
    contact_traced(MODE_SCALED, &self->rec_a, &self->rec_b, &self->trace);
    first[CALL_HIT] = self->trace.count;
    self->shot_index = nearest_shot(self, self->pair_a);
    if (self->shot_index >= 0) {
        glm_vec3_copy(self->shots[self->shot_index].position, self->rec_shot);
        D3DXVECTOR3 centre = d3dx(self->rec_a.center), at = d3dx(self->rec_shot);
        Check_SphereHit(&self->trace, &centre, self->rec_a.radius * self->rec_a.radius, &at);
        first[CALL_POINT] = self->trace.count;
        Sphere c = book_sphere(&self->rec_a);
        Vector3 p = {self->rec_shot[0], self->rec_shot[1], self->rec_shot[2]};
        pointInSphere(&self->trace, &c, &p);
    } else {
        first[CALL_POINT] = self->trace.count;
    }
    first[CALL_COUNT] = self->trace.count;
    for (int c = 0; c < CALL_COUNT; ++c)
        for (int i = first[c]; i < first[c + 1]; ++i)
            self->call_of[i] = c;
    lesson_stepper_restart(&self->stepper, self->trace.count);
}

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
    if (id != self->selected && self->selected >= 0 && self->dcase != CASE_FREE) {
        /* another pair: the last one swings again */
        self->dcase = CASE_FREE;
        set_distance(self);
    }
    self->selected = id;
    if (!self->stepper.on)      /* in step mode everything stands still already */
        self->ships[id].paused = !self->ships[id].paused;
    if (!self->ships[id].paused && self->ships[id].pinned) {
        /* resumed: the pinned pair swings again */
        self->dcase = CASE_FREE;
        set_distance(self);
    }
    update_contacts(self);
    record_steps(self);
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
    lesson_pick_bool(out, "overlapSpheres", n.exact);
    lesson_pick_bool(out, "Sphere_Sphere_Collision", n.shortcut);
    lesson_pick_bool(out, "scaled_collision", n.scaled);
    lesson_pick_bool(out, "models_overlap", n.models);
    snprintf(out->note, sizeof out->note, "%s %s", self->ships[id].name, self->ships[id].paused ? "paused" : "moving");
}

/* ------------------------------------------------------------ draw */

static const vec4 GREEN = {0.3f, 1.0f, 0.5f, 0.9f}, MAGENTA = {1.0f, 0.2f, 0.9f, 1.0f};
static const vec4 AMBER = {1.0f, 0.7f, 0.1f, 1.0f}, CYAN = {0.35f, 0.9f, 1.0f, 1.0f};
static const vec4 WHITE = {1.0f, 1.0f, 1.0f, 0.9f}, RA_COLOR = {0.45f, 0.8f, 1.0f, 1.0f};
static const vec4 RB_COLOR = {1.0f, 0.6f, 0.25f, 1.0f};

static void draw_links(const lesson3 *self, render_list *list)
{
    for (int i = 0; i < SHIP_COUNT; ++i)
        for (int k = i + 1; k < SHIP_COUNT; ++k) {
            const pair_state *ps = &self->pairs[i][k];
            rp_sphere a, b;
            bounding_sphere(self, i, &a);
            bounding_sphere(self, k, &b);
            /* a bridge above the pair, clear of the models */
            vec3 pa, pb;
            glm_vec3_add(a.center, (vec3){0.0f, a.radius + 0.5f, 0.0f}, pa);
            glm_vec3_add(b.center, (vec3){0.0f, b.radius + 0.5f, 0.0f}, pb);
            if (ps->exact != ps->chosen) {
                /* magenta: the test misses a real contact; amber: a false alarm */
                const float *c = ps->chosen ? AMBER : MAGENTA;
                render_list_beam(list, pa, pb, 0.25f, c);
                render_list_line(list, a.center, pa, c);
                render_list_line(list, b.center, pb, c);
            } else if (ps->chosen) {
                render_list_beam(list, pa, pb, 0.15f, GREEN);
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
    render_list_line(list, ga, gb, WHITE);
    render_list_line(list, ca, ga, WHITE);
    render_list_line(list, cb, gb, WHITE);
    render_list_point(list, ga, 9.0f, WHITE);
    render_list_point(list, gb, 9.0f, WHITE);
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

/* the step shown, -1: none */
static int current_step(const lesson3 *self)
{
    if (!lesson_stepper_active(&self->stepper) || self->stepper.current >= self->trace.count || self->pair_a < 0)
        return -1;
    return self->stepper.current;
}

static bool step_is(const listing_step *s, const char *name)
{
    return strcmp(s->msg_id, name) == 0;
}

/* a mark across the line at p: a short upright tick, seen through the
   models (the centres lie inside them) */
static void tick(render_list *list, const vec3 p, float h, const vec4 color)
{
    vec3 lo, hi;
    glm_vec3_add((float *)p, (vec3){0.0f, -0.5f * h, 0.0f}, lo);
    glm_vec3_add((float *)p, (vec3){0.0f, 0.5f * h, 0.0f}, hi);
    render_list_line_xray(list, lo, hi, color);
}

/* a length laid on the ground from p along dir, beside the selection's
   white d line (lane: how far towards the camera's side) */
static void ground_bar(render_list *list, const vec3 p, const vec3 dir, float length, const vec3 side, float lane,
                       const vec4 color)
{
    vec3 s, e;
    on_ground(p, s);
    glm_vec3_muladds((float *)side, lane, s);
    s[1] = 0.04f;
    glm_vec3_copy(s, e);
    glm_vec3_muladds((float *)dir, length, e);
    render_list_beam(list, s, e, 0.09f, color);
}

/* Step mode: what the step compares. The centres lie inside the opaque
   models, so the pair's lengths lie on the ground beside the white line
   under the centres, which is d long (a pair swings at one height): from
   a's foot overlapSpheres' ra (blue) and from b's rb (orange), overlapping
   when ra + rb > d; Sphere_Sphere_Collision's sqrt(ra^2 + rb^2) (magenta),
   shorter than ra + rb; the sqrt(2) test's, from the scaled radii (amber),
   longer; each reaching past b's foot means contact. Through the models,
   faint: d and the same lengths between the centres. The projectile's
   steps: the ship's centre, the point and r along the line to it. */
static void draw_step(const lesson3 *self, int cur, render_list *list)
{
    int call = self->call_of[cur];
    const rp_sphere *a = &self->rec_a, *b = &self->rec_b;
    vec3 dir, end;
    if (call >= CALL_HIT) {
        float dist = glm_vec3_distance((float *)a->center, (float *)self->rec_shot);
        glm_vec3_sub((float *)self->rec_shot, (float *)a->center, dir);
        if (dist > 1e-6f)
            glm_vec3_scale(dir, 1.0f / dist, dir);
        glm_vec3_copy((float *)a->center, end);
        glm_vec3_muladds(dir, a->radius, end);
        render_list_line_xray(list, a->center, self->rec_shot, WHITE);
        render_list_line_xray(list, a->center, end, RA_COLOR);
        tick(list, end, 0.25f, RA_COLOR);
        tick(list, a->center, 0.25f, WHITE);
        tick(list, self->rec_shot, 0.4f, CYAN);
        render_list_point(list, self->rec_shot, 16.0f, CYAN);
        return;
    }
    glm_vec3_sub((float *)b->center, (float *)a->center, dir);
    dir[1] = 0.0f;
    if (!(glm_vec3_norm(dir) > 1e-6f))
        return;
    glm_vec3_normalize(dir);
    vec3 side;
    glm_vec3_cross(dir, (vec3){0.0f, 1.0f, 0.0f}, side);
    if (side[2] < 0.0f)     /* towards the camera (frame: from +z) */
        glm_vec3_negate(side);
    float ra = a->radius, rb = b->radius;
    if (call == CALL_SCALED) {
        ra = scaled_radius(ra);
        rb = scaled_radius(rb);
    }
    render_list_line_xray(list, a->center, b->center, WHITE);
    if (call == CALL_EXACT) {
        vec3 eb;
        glm_vec3_copy((float *)b->center, eb);
        glm_vec3_muladds(dir, -rb, eb);
        ground_bar(list, a->center, dir, ra, side, 0.25f, RA_COLOR);
        ground_bar(list, eb, dir, rb, side, 0.45f, RB_COLOR);
        return;
    }
    /* the shortcut's bound: contact while d is below sqrt(ra^2 + rb^2) */
    const float *c = call == CALL_SCALED ? AMBER : MAGENTA;
    float bound = sqrtf(ra * ra + rb * rb);
    ground_bar(list, a->center, dir, bound, side, 0.25f, c);
    glm_vec3_copy((float *)a->center, end);
    glm_vec3_muladds(dir, bound, end);
    render_list_line_xray(list, a->center, end, c);
    tick(list, end, 0.35f, c);
    if (call == CALL_SCALED) {      /* the generous spheres the shortcut needs */
        render_list_glass_sphere(list, a->center, ra, (vec4){1.0f, 0.7f, 0.1f, 0.05f});
        render_list_glass_sphere(list, b->center, rb, (vec4){1.0f, 0.7f, 0.1f, 0.05f});
    }
}

static void draw(const void *self_, render_list *list)
{
    const lesson3 *self = self_;
    for (int i = 0; i < SHIP_COUNT; ++i) {
        const ship *s = &self->ships[i];
        mat4 m;
        ship_model(self, i, m);
        vec3 glow = {0, 0, 0};
        if (s->hit_by_shot)     /* cyan: a projectile inside its sphere (Check_SphereHit) */
            glm_vec3_copy((vec3){0.05f, 0.35f, 0.45f}, glow);
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
        if (s->inside)      /* white-hot inside a sphere */
            glm_vec4_copy((vec4){1.0f, 1.0f, 1.0f, 1.0f}, c);
        render_list_line(list, tail, s->position, c);
        render_list_point(list, s->position, s->inside ? 14.0f : 8.0f, c);
    }
    render_list_grid(list, 0.0f);
    draw_links(self, list);
    draw_selection(self, list);
    int cur = current_step(self);
    if (cur >= 0)
        draw_step(self, cur, list);
    if (!self->show_bounds)
        return;
    for (int i = 0; i < SHIP_COUNT; ++i) {
        rp_sphere b;
        bounding_sphere(self, i, &b);
        vec4 c = {0.35f, 0.55f, 0.85f, 0.06f};
        if (self->ships[i].in_contact)
            glm_vec4_copy((vec4){0.3f, 1.0f, 0.5f, 0.10f}, c);
        if (self->ships[i].hit_by_shot)
            glm_vec4_copy((vec4){0.35f, 0.9f, 1.0f, 0.14f}, c);
        render_list_glass_sphere(list, b.center, b.radius, c);
    }
}

/* ------------------------------------------------------------ the step's camera */

/* does the segment from e to p pass through the sphere? (not when p lies
   inside it: no view would be clear) */
static bool segment_meets_sphere(const vec3 e, const vec3 p, const rp_sphere *s)
{
    if (glm_vec3_distance2((float *)p, (float *)s->center) <= s->radius * s->radius)
        return false;
    vec3 seg, to;
    glm_vec3_sub((float *)p, (float *)e, seg);
    glm_vec3_sub((float *)s->center, (float *)e, to);
    float len2 = glm_vec3_dot(seg, seg);
    float t = len2 > 0.0f ? glm_clamp(glm_vec3_dot(to, seg) / len2, 0.0f, 1.0f) : 0.0f;
    vec3 closest;
    glm_vec3_copy((float *)e, closest);
    glm_vec3_muladds(seg, t, closest);
    return glm_vec3_distance2(closest, (float *)s->center) < s->radius * s->radius;
}

/* How many sight lines from cam's eye to p and to q pass through a ship's
   model other than pair_a's and skip's (its bound, the model's own radius). */
static int ships_in_front(const lesson3 *self, const lesson_camera *cam, const vec3 p, const vec3 q, int skip)
{
    float sy, cy, sp, cp;
    steady_sincosf(cam->yaw, &sy, &cy);
    steady_sincosf(cam->pitch, &sp, &cp);
    vec3 eye = {cam->target[0] + cam->distance * cp * sy, cam->target[1] + cam->distance * sp,
                cam->target[2] + cam->distance * cp * cy};
    int n = 0;
    for (int i = 0; i < SHIP_COUNT; ++i) {
        if (i == self->pair_a || i == skip)
            continue;
        rp_sphere s;
        glm_vec3_copy((float *)self->ships[i].position, s.center);
        s.radius = self->ships[i].model_radius * ship_scale(i);
        n += segment_meets_sphere(eye, p, &s) + segment_meets_sphere(eye, q, &s);
    }
    return n;
}

/* Step mode's camera: square to the pair's line of centres, nearly level,
   both spheres in view (the projectile's steps: the ship and the
   projectile). The app centres it in the room the panels leave. */
static bool frame(const void *self_, lesson_camera *out)
{
    const lesson3 *self = self_;
    int cur = self->framed ? current_step(self) : -1;
    if (cur < 0)
        return false;
    const rp_sphere *a = &self->rec_a, *b = &self->rec_b;
    vec3 p, q;
    float rp = a->radius, rq = b->radius;
    glm_vec3_copy((float *)a->center, p);
    glm_vec3_copy((float *)b->center, q);
    if (self->call_of[cur] >= CALL_HIT) {
        glm_vec3_copy((float *)self->rec_shot, q);
        rq = 0.3f;
    } else if (self->call_of[cur] == CALL_SCALED) {
        rp = scaled_radius(rp);
        rq = scaled_radius(rq);
    }
    vec3 line, side;
    glm_vec3_sub(q, p, line);
    glm_vec3_cross(line, (vec3){0.0f, 1.0f, 0.0f}, side);
    if (glm_vec3_norm(side) < 1e-4f)
        glm_vec3_copy((vec3){0.0f, 0.0f, 1.0f}, side);
    glm_vec3_normalize(side);
    if (side[2] < 0.0f)     /* from the side the start camera is on (+z) */
        glm_vec3_negate(side);
    out->pitch = 0.15f;
    out->fov = 0.7853982f;
    float extent = 0.5f * (glm_vec3_norm(line) + rp + rq);
    out->distance = 4.2f * extent + 2.0f;
    /* the middle of the span from a's far side to b's */
    vec3 dir;
    glm_vec3_normalize_to(line, dir);
    glm_vec3_copy(p, out->target);
    glm_vec3_muladds(dir, 0.5f * (glm_vec3_norm(line) + rq - rp), out->target);
    /* the HUD covers the top of the room: the pair a little below the middle */
    out->target[1] += 0.1f * out->distance;
    /* the other side, then higher up, while a third ship stands in front
       of the subject (the projectile's steps: often the neighbour) */
    static const float pitches[] = {0.15f, 0.7f, 1.2f};
    int skip_b = self->call_of[cur] >= CALL_HIT ? -1 : self->pair_b, best = -1;
    lesson_camera view = *out;
    for (int i = 0; i < 6 && best != 0; ++i) {
        float sign = i % 2 ? -1.0f : 1.0f;
        view.yaw = atan2f(sign * side[0], sign * side[2]);
        view.pitch = pitches[i / 2];
        int blocked = ships_in_front(self, &view, p, q, skip_b);
        if (best < 0 || blocked < best) {
            best = blocked;
            *out = view;
        }
    }
    return true;
}

static bool code(const void *self_, lesson_code_view *out)
{
    const lesson3 *self = self_;
    memset(out, 0, sizeof *out);
    out->code = &listing_lesson3_sphere_tests;
    if (self->trace.count > 0) {
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
static const vec4 FIG_NOW = {1.0f, 1.0f, 0.45f, 1.0f}, FIG_WHITE = {1.0f, 1.0f, 1.0f, 0.95f};

typedef struct fig_text {
    const lesson_figure_area *a;
    render_list *list;
    float line;
} fig_text;

/* text from y, wrapped to the inset's width; returns the y after it */
static float fig_line(const fig_text *f, float y, const vec4 color, const char *text)
{
    return lesson_fig_text(f->list, f->a, y, color, text);
}

/* a mark on the distance axis at x: a tick, its label centred above or
   below the axis */
typedef struct axis_mark {
    float x;
    bool above;
    const float *color;
    const char *label;
} axis_mark;

static void draw_axis_mark(render_list *list, const axis_mark *m, float y, float ts)
{
    render_list_fig_line(list, m->x, y - 5.0f * ts, m->x, y + 5.0f * ts, 2.0f, m->color);
    render_list_fig_text(list, m->x, m->above ? y - 19.0f * ts : y + 6.0f * ts, ts, RENDER_ALIGN_CENTER, 0.0f,
                         m->color, m->label);
}

/* the mark whose label, on that side of the axis, leaves less than gap
   beside a label half_w either side of x; NULL when none does */
static const axis_mark *label_in_the_way(const axis_mark *marks, int n, float x, float half_w, bool above,
                                         float gap, float ts)
{
    for (int i = 0; i < n; i++)
        if (marks[i].above == above &&
            fabsf(marks[i].x - x) < 0.5f * lesson_fig_width(marks[i].label, ts) + half_w + gap)
            return &marks[i];
    return NULL;
}

/* d's dot on the axis and its label: under the dot; over it when a mark's
   label is under there (d near ra + rb: spheres that touch, or near 0);
   when one is over there too, under the axis beside the label in the way,
   on d's side of it */
static void draw_axis_d(render_list *list, const axis_mark *marks, int n, float x, float y, float ts)
{
    float half_w = 0.5f * lesson_fig_width("d", ts), gap = 4.0f * ts, lx = x, ly = y + 7.0f * ts;
    const axis_mark *below = label_in_the_way(marks, n, x, half_w, false, gap, ts);
    if (below && !label_in_the_way(marks, n, x, half_w, true, gap, ts)) {
        ly = y - 19.0f * ts;
    } else if (below) {
        float room = 0.5f * lesson_fig_width(below->label, ts) + half_w + gap;
        lx = x >= below->x ? below->x + room : below->x - room;
    }
    render_list_fig_circle(list, x, y, 5.0f * ts, 0.0f, FIG_WHITE);
    render_list_fig_text(list, lx, ly, ts, RENDER_ALIGN_CENTER, 0.0f, FIG_WHITE, "d");
}

/* The pair: circle a (ra) and circle b (rb) with their centres d apart;
   beside them the right triangle with legs ra and rb, whose hypotenuse
   sqrt(ra^2 + rb^2) is the shortcut's contact distance, shorter than the
   two legs end to end, ra + rb, the exact one; under them the distances
   on one axis from a's centre: the band the shortcut misses (magenta),
   the one the sqrt(2) test reports falsely (amber), and d. */
static void figure_pair(const lesson3 *self, int cur, const fig_text *f, float top)
{
    const lesson_figure_area *a = f->a;
    render_list *list = f->list;
    float ts = a->text_scale;
    int call = self->call_of[cur];
    float ra = self->rec_a.radius, rb = self->rec_b.radius;
    float d = glm_vec3_distance((float *)self->rec_a.center, (float *)self->rec_b.center);
    float hyp = sqrtf(ra * ra + rb * rb), sum = ra + rb;
    float sra = scaled_radius(ra), srb = scaled_radius(rb), scaled = sqrtf(sra * sra + srb * srb);
    float bottom = a->y + a->h - 4.2f * f->line;
    float row_h = bottom - top - 36.0f * ts, x0 = a->x + 10.0f * ts, x1 = a->x + a->w - 10.0f * ts;
    float circles_w = 0.64f * (x1 - x0);
    /* the circles, to scale (the sqrt(2) step's larger ones too) */
    float la = call == CALL_SCALED ? sra : ra, lb = call == CALL_SCALED ? srb : rb;
    float span = glm_max(la + d + lb, 2.0f * glm_max(la, lb));
    float s = glm_min(circles_w / span, row_h / (2.0f * glm_max(la, lb)));
    if (!(s > 0.0f) || !(row_h > 10.0f))
        return;
    float cy = top + 0.5f * row_h, cxa = x0 + la * s, cxb = cxa + d * s;
    if (call == CALL_SCALED) {
        render_list_fig_circle(list, cxa, cy, sra * s, 1.0f, AMBER);
        render_list_fig_circle(list, cxb, cy, srb * s, 1.0f, AMBER);
    }
    render_list_fig_circle(list, cxa, cy, ra * s, 2.0f, RA_COLOR);
    render_list_fig_circle(list, cxb, cy, rb * s, 2.0f, RB_COLOR);
    render_list_fig_line(list, cxa, cy, cxb, cy, 1.5f, FIG_WHITE);
    render_list_fig_text(list, 0.5f * (cxa + cxb), cy - 16.0f * ts, ts, RENDER_ALIGN_CENTER, 0.0f, FIG_WHITE, "d");
    render_list_fig_text(list, cxa, cy + ra * s + 2.0f * ts, ts, RENDER_ALIGN_CENTER, 0.0f, RA_COLOR, "ra");
    render_list_fig_text(list, cxb, cy + rb * s + 2.0f * ts, ts, RENDER_ALIGN_CENTER, 0.0f, RB_COLOR, "rb");
    /* the right triangle: legs ra (across) and rb (up), each labelled (the
       radii the tests square: SphereSquareRadius1 = ra^2,
       SphereSquareRadius2 = rb^2), the hypotenuse; room for "ra" under the
       across leg and for "rb" right of the upright one */
    float tri_w = x1 - x0 - circles_w - 12.0f * ts;
    float ts2 = glm_min(glm_min(tri_w / sum, (tri_w - 18.0f * ts) / ra), (row_h - 26.0f * ts) / glm_max(rb, 1e-6f));
    if (ts2 > 0.0f) {
        float tx = x0 + circles_w + 12.0f * ts, ty = top + row_h - 24.0f * ts;
        render_list_fig_line(list, tx, ty, tx + ra * ts2, ty, 2.0f, RA_COLOR);
        render_list_fig_line(list, tx + ra * ts2, ty, tx + ra * ts2, ty - rb * ts2, 2.0f, RB_COLOR);
        render_list_fig_line(list, tx, ty, tx + ra * ts2, ty - rb * ts2, 2.0f, MAGENTA);
        render_list_fig_text(list, tx + 0.5f * ra * ts2, ty + 3.0f * ts, ts, RENDER_ALIGN_CENTER, 0.0f, RA_COLOR,
                             "ra");
        render_list_fig_text(list, tx + ra * ts2 + 4.0f * ts, ty - 0.5f * rb * ts2 - 5.0f * ts, ts, RENDER_ALIGN_LEFT,
                             0.0f, RB_COLOR, "rb");
        /* ra + rb laid end to end under it: longer */
        float by = ty + 17.0f * ts;
        render_list_fig_line(list, tx, by, tx + ra * ts2, by, 2.0f, RA_COLOR);
        render_list_fig_line(list, tx + ra * ts2, by, tx + sum * ts2, by, 2.0f, RB_COLOR);
    }
    /* the distance axis */
    float ay = top + row_h + 18.0f * ts, far = 1.12f * glm_max(d, scaled);
    float ax0 = x0, ax1 = x1 - 8.0f * ts;
#define DX(v) (ax0 + (v) / far * (ax1 - ax0))
    render_list_fig_rect(list, DX(hyp), ay - 4.0f * ts, DX(sum) - DX(hyp), 8.0f * ts, (vec4){1.0f, 0.2f, 0.9f, 0.55f});
    render_list_fig_rect(list, DX(sum), ay - 4.0f * ts, DX(scaled) - DX(sum), 8.0f * ts, (vec4){1.0f, 0.7f, 0.1f, 0.55f});
    render_list_fig_arrow(list, ax0, ay, ax1 + 6.0f * ts, ay, 1.5f, FIG_DIM);
    const axis_mark marks[] = {{DX(0.0f), false, FIG_DIM, "0"},
                               {DX(hyp), true, MAGENTA, "sqrt(ra^2+rb^2)"},
                               {DX(sum), false, GREEN, "ra+rb"},
                               {DX(scaled), true, AMBER, "sqrt(2)"}};
    const int mark_count = (int)(sizeof marks / sizeof marks[0]);
    for (int i = 0; i < mark_count; i++)
        draw_axis_mark(list, &marks[i], ay, ts);
    draw_axis_d(list, marks, mark_count, DX(d), ay, ts);
#undef DX
    /* the numbers, then what the step's test says */
    char text[256];
    float ty = bottom + 2.0f * ts;
    snprintf(text, sizeof text, TEXT("figure.numbers"), (double)d, (double)sum, (double)hyp, (double)scaled);
    ty = lesson_fig_phrase_text(list, a, ty, FIG_TEXT, text);     /* broken between its phrases */
    const listing_step *st = &self->steps[cur];
    bool exact = d * d <= sum * sum;
    if (step_is(st, STEP_ID("overlap-yes")) || step_is(st, STEP_ID("overlap-no"))) {
        snprintf(text, sizeof text, TEXT("figure.exact"), (double)(d * d), (double)(sum * sum),
                 msg(step_is(st, STEP_ID("overlap-yes")) ? "lesson.bounding-sphere-tests.contact"
                                                           : "lesson.bounding-sphere-tests.apart"));
        fig_line(f, ty, FIG_NOW, text);
    } else if (step_is(st, STEP_ID("ssc-collision")) || step_is(st, STEP_ID("ssc-apart"))) {
        bool yes = step_is(st, STEP_ID("ssc-collision"));
        float r1 = call == CALL_SCALED ? sra : ra, r2 = call == CALL_SCALED ? srb : rb;
        snprintf(text, sizeof text,
                 msg(call == CALL_SCALED ? "lesson.bounding-sphere-tests.figure.scaled"
                                         : "lesson.bounding-sphere-tests.figure.shortcut"),
                 (double)(d * d),
                 (double)(r1 * r1), (double)(r2 * r2),
                 msg(yes ? "lesson.bounding-sphere-tests.contact" : "lesson.bounding-sphere-tests.apart"),
                 yes == exact ? ""
                 : msg(yes ? "lesson.bounding-sphere-tests.figure.false-alarm"
                           : "lesson.bounding-sphere-tests.figure.misses"));
        fig_line(f, ty, yes == exact ? FIG_NOW : yes ? AMBER : MAGENTA, text);
    } else {
        snprintf(text, sizeof text, TEXT("figure.squares"), (double)(d * d));
        fig_line(f, ty, FIG_TEXT, text);
    }
}

/* The projectile: the ship's circle (radius r) and the point at its
   distance, the squares the German and the book's test compare. */
static void figure_shot(const lesson3 *self, int cur, const fig_text *f, float top)
{
    const lesson_figure_area *a = f->a;
    render_list *list = f->list;
    float ts = a->text_scale;
    float r = self->rec_a.radius, dist = glm_vec3_distance((float *)self->rec_a.center, (float *)self->rec_shot);
    float bottom = a->y + a->h - 4.6f * f->line, h = bottom - top - 16.0f * ts, x0 = a->x + 10.0f * ts;
    float s = glm_min((a->w - 20.0f * ts) / (r + glm_max(dist, r) + 0.5f), h / (2.0f * r));
    if (!(s > 0.0f) || !(h > 10.0f))
        return;
    float cx = x0 + r * s, cy = top + 0.5f * h;
    bool inside = dist * dist < r * r;
    render_list_fig_circle(list, cx, cy, r * s, 2.0f, RA_COLOR);
    render_list_fig_line(list, cx, cy, cx + dist * s, cy, 1.5f, FIG_WHITE);
    render_list_fig_circle(list, cx + dist * s, cy, 5.0f * ts, 0.0f, inside ? CYAN : FIG_WHITE);
    render_list_fig_text(list, cx, cy + r * s + 2.0f * ts, ts, RENDER_ALIGN_CENTER, 0.0f, RA_COLOR, "r");
    char text[256];
    snprintf(text, sizeof text, TEXT("figure.shot"), (double)(dist * dist), (double)(r * r),
             msg(inside ? "lesson.bounding-sphere-tests.inside" : "lesson.bounding-sphere-tests.outside"));
    float ty = fig_line(f, bottom + 2.0f * ts, inside ? CYAN : FIG_TEXT, text);
    /* pointInSphere's step: its < against overlapSpheres' <= */
    fig_line(f, ty, self->call_of[cur] == CALL_POINT ? FIG_NOW : FIG_DIM, TEXT("figure.boundary"));
}

static void figure(const void *self_, const lesson_figure_area *area, render_list *list)
{
    const lesson3 *self = self_;
    float ts = area->text_scale;
    fig_text f = {area, list, LESSON_FIG_LINE * ts};
    render_list_fig_rect(list, area->x, area->y, area->w, area->h, FIG_BG);
    float top = area->y + 5.0f * ts;
    int cur = current_step(self);
    if (cur < 0 && self->trace.count > 0 && self->pair_a >= 0)     /* the last click: its test's verdict */
        cur = glm_min(2 * (int)self->mode + 1, self->trace.count - 1);
    if (cur < 0) {
        fig_line(&f, fig_line(&f, top, FIG_TITLE, TEXT("figure.title")), FIG_TEXT, TEXT("figure.empty"));
        return;
    }
    if (self->call_of[cur] >= CALL_HIT) {
        figure_shot(self, cur, &f, fig_line(&f, top, FIG_TITLE, TEXT("figure.shot-title")) + 0.5f * f.line);
        return;
    }
    figure_pair(self, cur, &f, fig_line(&f, top, FIG_TITLE, TEXT("figure.title")) + 0.5f * f.line);
}

/* ------------------------------------------------------------ the HUD */

static const char *yes_no(bool contact)
{
    return msg(contact ? "lesson.bounding-sphere-tests.contact" : "lesson.bounding-sphere-tests.apart");
}

/* SHRINK as a percentage, for the HUD */
static int shrink_percent(void)
{
    return (int)lroundf(SHRINK * 100.0f);
}

/* X: the counts over every pair, the spheres' settings, the selected
   pair's numbers and verdicts */
static void status_details(const lesson3 *self, char *buf, size_t size)
{
    char spheres[96];
    if (self->shrink)
        snprintf(spheres, sizeof spheres, TEXT("spheres.shrunk_model"), shrink_percent());
    else
        snprintf(spheres, sizeof spheres, "%s", TEXT("spheres.enclosing_model"));
    int n = snprintf(buf, size, TEXT("status"), msg(MODE_NAMES[self->mode]), self->contacts_mode,
                     self->contacts_exact, self->disagreements,
                     self->disagreements ? TEXT("status.colours") : "", spheres,
                     msg(self->show_bounds ? "word.shown" : "word.hidden"), self->shots_inside, self->hidden_overlaps,
                     self->hidden_overlaps ? TEXT("status.red") : "");
    pair_numbers p;
    selected_pair(self, &p);
    if (p.a < 0 || n < 0 || (size_t)n >= size)
        return;
    char na[64], nb[64];
    lesson_display_name("name", self->ships[p.a].name, na, sizeof na);
    lesson_display_name("name", self->ships[p.b].name, nb, sizeof nb);
    snprintf(buf + n, size - (size_t)n, TEXT("pair.summary"), na, nb, (double)p.d2, (double)p.exact_bound,
             (double)p.shortcut_bound, (double)p.scaled_bound, yes_no(p.exact), yes_no(p.shortcut), yes_no(p.scaled),
             msg(p.models ? "lesson.bounding-sphere-tests.overlap" : "lesson.bounding-sphere-tests.apart"));
}

static void status(const void *self_, char *buf, size_t size)
{
    const lesson3 *self = self_;
    if (self->details) {
        status_details(self, buf, size);
        return;
    }
    /* the beginner's lines: the test, the pair, the colours, the keys */
    int k = snprintf(buf, size, TEXT("first.test"), msg(MODE_NAMES[self->mode]));
    pair_numbers p;
    selected_pair(self, &p);
    if (k > 0 && (size_t)k < size && p.a < 0) {
        k += snprintf(buf + k, size - (size_t)k, "\n%s", TEXT("first.click"));
    } else if (k > 0 && (size_t)k < size) {
        char na[64], nb[64];
        lesson_display_name("name", self->ships[p.a].name, na, sizeof na);
        lesson_display_name("name", self->ships[p.b].name, nb, sizeof nb);
        bool chosen = self->mode == MODE_EXACT ? p.exact : self->mode == MODE_SHORTCUT ? p.shortcut : p.scaled;
        k += snprintf(buf + k, size - (size_t)k, "\n");
        k += snprintf(buf + k, size - (size_t)k, TEXT("first.pair"), na, nb, (double)sqrtf(p.d2),
                      (double)(p.ra + p.rb), yes_no(chosen), yes_no(p.exact));
    }
    if (k > 0 && (size_t)k < size && self->dcase != CASE_FREE && p.a >= 0) {
        static const char *const cases[CASE_COUNT] = {"", "case.blind", "case.touching", "case.false-alarm"};
        char id[96];
        snprintf(id, sizeof id, "lesson.bounding-sphere-tests.%s", cases[self->dcase]);
        k += snprintf(buf + k, size - (size_t)k, "\n%s", msg(id));
    }
    if (k > 0 && (size_t)k < size)
        k += snprintf(buf + k, size - (size_t)k, "\n%s", TEXT("legend"));
    const char *keys = !self->stepper.on ? TEXT("keys.short")
                       : lesson_stepper_active(&self->stepper) ? TEXT("steps.keys") : TEXT("steps.wait");
    if (k > 0 && (size_t)k < size)
        snprintf(buf + k, size - (size_t)k, "\n%s", keys);
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

/* ------------------------------------------------------------ the tour */

/* The articles' case, the German shortcut's mistake, the fix and its
   price, the boundary. Keys: P step mode (the scene stands still), M the
   test (the start is the shortcut; M: sqrt(2), M M: exact), D the
   pair's distance (blind band -> touching -> false-alarm band). */
static const lesson_tour_moment tour[] = {
    /* the hauler and the probe, in contact at the start: overlapSpheres */
    {.sentence = "lesson.bounding-sphere-tests.tour.case", .keys = "p", .click_count = 1,
     .clicks = {{.aim = LESSON_AIM_OBJECT, .object = 2}}, .steps = STEP_CAP, .until = STEP_ID("overlap-yes")},
    /* the freighter and the scout in the shortcut's blind band */
    {.sentence = "lesson.bounding-sphere-tests.tour.mistake", .keys = "p", .click_count = 1,
     .clicks = {{.aim = LESSON_AIM_OBJECT, .object = 0}}, .after = "d", .steps = STEP_CAP,
     .until = STEP_ID("ssc-apart")},
    /* the same with radii times sqrt(2): caught */
    {.sentence = "lesson.bounding-sphere-tests.tour.fix", .keys = "pm", .click_count = 1,
     .clicks = {{.aim = LESSON_AIM_OBJECT, .object = 0}}, .after = "d", .steps = STEP_CAP,
     .until = STEP_ID("ssc-collision")},
    /* its price: a contact that is not there */
    {.sentence = "lesson.bounding-sphere-tests.tour.price", .keys = "pm", .click_count = 1,
     .clicks = {{.aim = LESSON_AIM_OBJECT, .object = 0}}, .after = "ddd", .steps = STEP_CAP,
     .until = STEP_ID("ssc-collision")},
    /* touching: <= counts it, < does not */
    {.sentence = "lesson.bounding-sphere-tests.tour.boundary", .keys = "pmm", .click_count = 1,
     .clicks = {{.aim = LESSON_AIM_OBJECT, .object = 0}}, .after = "dd", .steps = STEP_CAP,
     .until = STEP_ID("overlap-yes")},
};

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
    .frame = frame,
    .code = code,
    .figure = figure,
    .tour = tour,
    .tour_count = (int)(sizeof tour / sizeof tour[0]),
};

/*
 * Lesson 3: bounding-sphere tests (seeds 002 and 003).
 *
 * Ships move; projectiles fly through them. A projectile inside a ship's
 * bounding sphere is a hit (point in sphere: |p - c|^2 < r^2): ship and
 * projectile light up. Two ships whose bounding spheres overlap are in
 * contact: a link joins them. M cycles the sphere-sphere test:
 *   exact      |ca - cb|^2 <= (ra + rb)^2
 *   shortcut   |ca - cb|^2 <  ra^2 + rb^2       (seed 002: it MISSES contacts)
 *   sqrt(2)    the shortcut with both radii scaled by sqrt(2): never misses,
 *              sometimes reports a contact that is not there
 * Pairs where the chosen test disagrees with the exact one are highlighted.
 * S shrinks the bounding spheres below the models (seed 003's trick: fewer
 * "hits" that look like near misses). A click selects a ship and pauses it.
 */
#include "lesson.h"

#include <stdlib.h>
#include <string.h>

#define SHIP_COUNT 4
#define SHOT_COUNT 10
#define SHRINK 0.8f

typedef enum test_mode { MODE_EXACT, MODE_SHORTCUT, MODE_SCALED, MODE_COUNT } test_mode;
static const char *const MODE_NAMES[MODE_COUNT] = {
    "exact: d^2 <= (ra+rb)^2", "seed 002 shortcut: d^2 < ra^2+rb^2", "shortcut, radii * sqrt(2)"};

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

typedef struct lesson3 {
    ship ships[SHIP_COUNT];
    shot shots[SHOT_COUNT];
    test_mode mode;
    bool shrink;
    bool show_bounds;
    int contacts_exact, contacts_mode, disagreements, shots_inside;
    uint32_t rng;
} lesson3;

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
    glm_vec3_muladds(s->axis, s->amplitude * sinf(s->speed * s->clock + s->phase), s->position);
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
    self->contacts_exact = self->contacts_mode = self->disagreements = 0;
    for (int i = 0; i < SHIP_COUNT; ++i)
        for (int k = i + 1; k < SHIP_COUNT; ++k) {
            rp_sphere a, b;
            bounding_sphere(self, i, &a);
            bounding_sphere(self, k, &b);
            bool exact = contact(MODE_EXACT, &a, &b), chosen = contact(self->mode, &a, &b);
            self->contacts_exact += exact;
            self->contacts_mode += chosen;
            self->disagreements += exact != chosen;
            if (chosen)
                self->ships[i].in_contact = self->ships[k].in_contact = true;
        }
}

static void update(void *self_, float dt)
{
    lesson3 *self = self_;
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
    switch (k) {
    case 'm': self->mode = (test_mode)((self->mode + 1) % MODE_COUNT); update_contacts(self); return true;
    case 's': self->shrink = !self->shrink; return true;
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
    self->ships[id].paused = !self->ships[id].paused;
    out->hit = true;
    out->id = id;
    snprintf(out->what, sizeof out->what, "%s", self->ships[id].name);
    out->t = hit.t;
    glm_vec3_copy(hit.point, out->point);
    lesson_pick_bool(out, "paused", self->ships[id].paused);
    lesson_pick_float(out, "radius", spheres[id].radius, 6);
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

static void draw(const void *self_, render_list *list)
{
    const lesson3 *self = self_;
    for (int i = 0; i < SHIP_COUNT; ++i) {
        const ship *s = &self->ships[i];
        versor q;
        glm_quatv(q, s->spin, (vec3){0.2f, 1.0f, 0.0f});
        glm_quat_normalize(q);
        float k = ship_scale(i);
        /* the freighter is a squashed sphere: its bounding sphere is its long axis */
        vec3 scale = {k, k, k};
        if (i == 0)
            glm_vec3_mul(scale, (vec3){1.0f, 0.55f, 0.75f}, scale);
        mat4 m;
        lesson_model(s->position, q, scale, m);
        vec3 glow = {0, 0, 0};
        if (s->hit_by_shot)
            glm_vec3_copy((vec3){0.55f, 0.15f, 0.05f}, glow);
        render_list_shape(list, s->shape, m, s->color, glow);
        render_list_shadow(list, s->position, s->model_radius * k * 1.1f, 0.0f, 0.8f);
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

static void status(const void *self_, char *buf, size_t size)
{
    const lesson3 *self = self_;
    snprintf(buf, size,
             "test: %s (M)\n"
             "contacts: %d by this test, %d exact, %d disagree%s\n"
             "bounding spheres: %s (S)   shown (B)   projectiles inside a sphere: %d",
             MODE_NAMES[self->mode], self->contacts_mode, self->contacts_exact, self->disagreements,
             self->disagreements ? "  (magenta: missed, amber: false alarm)" : "",
             self->shrink ? "shrunk to 80% of the model" : "enclosing the model", self->shots_inside);
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
    .title = "Lesson 3: bounding-sphere tests",
    .keys = "left click  pause / resume a ship\n"
            "M  exact / seed 002 shortcut / sqrt(2)-scaled radii\n"
            "S  shrink bounding spheres below the models\n"
            "B  show bounding spheres",
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

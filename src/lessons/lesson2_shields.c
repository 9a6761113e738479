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

#include <string.h>

#define SHIELD_COUNT 3
#define TURRET_COUNT 2
#define BEAM_COUNT 8
#define BEAM_RANGE 60.0f
#define BEAM_LIFE 0.7f
#define IMPACT_LIFE 1.6f
#define RIPPLE_SPEED 2.4f

typedef struct shield {
    const char *name;
    rp_ellipsoid shape;     /* a sphere is an ellipsoid with equal radii */
    bool is_sphere;
    vec4 color;
    vec4 impacts[RENDER_MAX_IMPACTS];   /* xyz + start time */
    int next_impact;
} shield;

typedef struct beam {
    vec3 from, to;
    float start;            /* < 0: unused */
    bool hit;
} beam;

static struct {
    shield shields[SHIELD_COUNT];
    vec3 turrets[TURRET_COUNT];
    int turret;             /* which one fires */
    beam beams[BEAM_COUNT];
    int next_beam;
    float time;
    char last[96];
} L;

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
    for (int i = 0; i < RENDER_MAX_IMPACTS; ++i)
        s->impacts[i][3] = -1.0f;
}

static bool init(const lesson_env *env)
{
    (void)env;
    memset(&L, 0, sizeof L);
    versor none = {0, 0, 0, 0}, tilt, yaw;
    glm_quatv(yaw, glm_rad(35.0f), (vec3){0, 1, 0});
    glm_quatv(tilt, glm_rad(20.0f), (vec3){0, 0, 1});
    glm_quat_mul(yaw, tilt, tilt);
    glm_quat_normalize(tilt);
    set_shield(&L.shields[0], "cruiser", (vec3){-5.0f, 2.2f, -1.0f}, (vec3){2.2f, 2.2f, 2.2f}, none,
               (vec4){0.25f, 0.55f, 1.0f, 0.10f});
    set_shield(&L.shields[1], "carrier (rotated ellipsoid)", (vec3){4.5f, 2.6f, -3.0f},
               (vec3){3.4f, 1.4f, 1.9f}, tilt, (vec4){0.35f, 1.0f, 0.65f, 0.10f});
    set_shield(&L.shields[2], "station", (vec3){-0.5f, 3.0f, -10.0f}, (vec3){3.2f, 3.2f, 3.2f}, none,
               (vec4){0.85f, 0.45f, 1.0f, 0.10f});
    glm_vec3_copy((vec3){1.5f, 0.9f, 2.5f}, L.turrets[0]);
    glm_vec3_copy((vec3){0.3f, 2.6f, -9.3f}, L.turrets[1]);
    for (int i = 0; i < BEAM_COUNT; ++i)
        L.beams[i].start = -1.0f;
    snprintf(L.last, sizeof L.last, "click to fire");
    return true;
}

static void cleanup(void) {}

/* ------------------------------------------------------------ update */

static void update(float dt)
{
    L.time += dt;
}

static bool key(char k)
{
    if (k != 't')
        return false;
    L.turret = (L.turret + 1) % TURRET_COUNT;
    return true;
}

static lesson_method method(void)
{
    return LESSON_PICK_D3D9;
}

/* ------------------------------------------------------------ click */

/* The nearest shield on a ray, or -1. */
static int first_shield(const rp_ray *ray, rp_hit *hit)
{
    int best = -1;
    for (int i = 0; i < SHIELD_COUNT; ++i) {
        rp_hit h;
        if (rp_intersect_ray_ellipsoid(ray, &L.shields[i].shape, &h) && (best < 0 || h.t < hit->t)) {
            best = i;
            *hit = h;
        }
    }
    return best;
}

/* The point under the cursor: a shield, else the ground, else far away. */
static void aim_point(const rp_ray *pick, vec3 aim)
{
    rp_hit h;
    if (first_shield(pick, &h) >= 0) {
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

static void add_beam(const vec3 from, const vec3 to, bool hit)
{
    beam *b = &L.beams[L.next_beam];
    L.next_beam = (L.next_beam + 1) % BEAM_COUNT;
    glm_vec3_copy((float *)from, b->from);
    glm_vec3_copy((float *)to, b->to);
    b->start = L.time;
    b->hit = hit;
}

static void add_impact(shield *s, const vec3 p)
{
    float *slot = s->impacts[s->next_impact];
    s->next_impact = (s->next_impact + 1) % RENDER_MAX_IMPACTS;
    glm_vec3_copy((float *)p, slot);
    slot[3] = L.time;
}

static void click(const lesson_click *c, lesson_pick *out)
{
    vec3 aim;
    aim_point(&c->ray, aim);

    rp_ray beam_ray;
    glm_vec3_copy(L.turrets[L.turret], beam_ray.origin);
    glm_vec3_sub(aim, beam_ray.origin, beam_ray.dir);
    if (glm_vec3_norm(beam_ray.dir) < 1e-4f) {
        lesson_pick_miss(out, &c->ray, lesson_method_name(c->method));
        return;
    }
    glm_vec3_normalize(beam_ray.dir);   /* t is then the beam length */
    lesson_pick_miss(out, &beam_ray, lesson_method_name(c->method));

    rp_hit hit;
    int id = first_shield(&beam_ray, &hit);
    bool in_range = id >= 0 && hit.t <= BEAM_RANGE;
    vec3 end;
    rp_ray_at(&beam_ray, in_range ? hit.t : BEAM_RANGE, end);
    add_beam(beam_ray.origin, end, in_range);

    int n = snprintf(out->json, sizeof out->json, ",\"turret\":%d,\"aim\":", L.turret);
    snprintf(out->json + n, sizeof out->json - (size_t)n, "[%.6g,%.6g,%.6g]", (double)aim[0], (double)aim[1],
             (double)aim[2]);
    if (!in_range) {
        snprintf(L.last, sizeof L.last, "%s: miss, the beam flies its full range", TURRET_NAMES[L.turret]);
        snprintf(out->note, sizeof out->note, "%s", L.last);
        return;
    }
    add_impact(&L.shields[id], hit.point);
    out->hit = true;
    out->id = id;
    snprintf(out->what, sizeof out->what, "%s", L.shields[id].name);
    out->t = hit.t;
    glm_vec3_copy(hit.point, out->point);
    n = (int)strlen(out->json);
    snprintf(out->json + n, sizeof out->json - (size_t)n, ",\"inside\":%s,\"t_enter\":%.7g,\"t_exit\":%.7g",
             hit.inside ? "true" : "false", (double)hit.t_enter, (double)hit.t_exit);
    snprintf(L.last, sizeof L.last, "%s hits the %s at its %s point", TURRET_NAMES[L.turret],
             L.shields[id].name, hit.inside ? "EXIT" : "entry");
    snprintf(out->note, sizeof out->note, "%s", L.last);
}

/* ------------------------------------------------------------ draw */

static void draw_ships(renderer *r)
{
    /* hulls: squashed spheres inside the shields */
    for (int i = 0; i < SHIELD_COUNT; ++i) {
        const shield *s = &L.shields[i];
        vec3 hull;
        glm_vec3_scale((float *)s->shape.radii, 0.45f, hull);
        if (s->is_sphere)
            hull[1] *= 0.45f;
        mat4 m;
        lesson_model(s->shape.center, s->shape.orientation, hull, m);
        render_shape(r, i == 2 ? RENDER_TORUS : RENDER_SPHERE, m, (vec4){0.55f, 0.58f, 0.65f, 1.0f},
                     (vec3){0.02f, 0.03f, 0.05f});
        render_shadow(r, s->shape.center, glm_vec3_max((float *)s->shape.radii), 0.0f, 0.7f);
    }
    /* turrets: a base and a head */
    for (int i = 0; i < TURRET_COUNT; ++i) {
        mat4 m;
        vec3 base = {L.turrets[i][0], L.turrets[i][1] - 0.45f, L.turrets[i][2]};
        lesson_model(base, NULL, (vec3){0.35f, 0.3f, 0.35f}, m);
        render_shape(r, RENDER_CUBE, m, (vec4){0.35f, 0.35f, 0.40f, 1.0f}, NULL);
        lesson_model(L.turrets[i], NULL, (vec3){0.3f, 0.3f, 0.3f}, m);
        vec3 glow = {0.0f, 0.0f, 0.0f};
        if (i == L.turret)
            glm_vec3_copy((vec3){0.5f, 0.2f, 0.05f}, glow);
        render_shape(r, RENDER_SPHERE, m, (vec4){0.9f, 0.5f, 0.2f, 1.0f}, glow);
    }
}

static void draw(renderer *r, const render_view *v)
{
    (void)v;
    draw_ships(r);
    render_grid(r, 0.0f);
    render_flush(r);
    for (int i = 0; i < SHIELD_COUNT; ++i) {
        const shield *s = &L.shields[i];
        mat4 m;
        lesson_model(s->shape.center, s->shape.orientation, s->shape.radii, m);
        render_shield(r, m, s->color, (const vec4 *)s->impacts, RENDER_MAX_IMPACTS, L.time, IMPACT_LIFE,
                      RIPPLE_SPEED);
    }
    for (int i = 0; i < BEAM_COUNT; ++i) {
        const beam *b = &L.beams[i];
        float age = L.time - b->start;
        if (b->start < 0.0f || age > BEAM_LIFE)
            continue;
        float fade = 1.0f - age / BEAM_LIFE;
        render_beam(r, b->from, b->to, 0.28f, (vec4){1.0f, 0.42f, 0.12f, fade});
        if (b->hit)
            render_point(r, b->to, 22.0f, (vec4){1.0f, 0.75f, 0.4f, fade});
    }
}

static void status(char *buf, size_t size)
{
    snprintf(buf, size, "firing: %s (T)\n%s", TURRET_NAMES[L.turret], L.last);
}

static void layout(FILE *out, const vec3 eye)
{
    (void)eye;
    fputc('[', out);
    for (int i = 0; i < SHIELD_COUNT; ++i) {
        const rp_ellipsoid *e = &L.shields[i].shape;
        fprintf(out, "%s{\"id\":%d,\"name\":\"%s\",\"kind\":\"%s\",\"center\":", i ? "," : "", i,
                L.shields[i].name, L.shields[i].is_sphere ? "sphere" : "ellipsoid");
        lesson_json_vec3(out, e->center);
        fprintf(out, ",\"radius\":%.6g,\"radii\":", (double)e->radii[0]);
        lesson_json_vec3(out, e->radii);
        fprintf(out, ",\"orientation\":[%.7g,%.7g,%.7g,%.7g]}", (double)e->orientation[0],
                (double)e->orientation[1], (double)e->orientation[2], (double)e->orientation[3]);
    }
    for (int i = 0; i < TURRET_COUNT; ++i) {
        fprintf(out, ",{\"id\":%d,\"name\":\"turret %d\",\"kind\":\"turret\",\"center\":", 100 + i, i);
        lesson_json_vec3(out, L.turrets[i]);
        fputc('}', out);
    }
    fputc(']', out);
}

const lesson lesson2_shields = {
    .number = 2,
    .title = "Lesson 2: phaser vs. shields",
    .keys = "left click  fire at the point under the cursor\n"
            "T  switch turret (one sits inside its own shield)",
    .camera = {{0.0f, 2.0f, -3.5f}, 0.0f, 0.44f, 19.0f, 0.7853982f},
    .init = init,
    .cleanup = cleanup,
    .update = update,
    .key = key,
    .method = method,
    .click = click,
    .draw = draw,
    .status = status,
    .layout = layout,
};

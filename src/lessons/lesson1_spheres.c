/*
 * Lesson 1: picking with bounding spheres (seed 001).
 *
 * Every object carries a bounding sphere. A left click casts the pick ray
 * and toggles the rotation of what it hits: only the nearest object (what a
 * user expects), or every object on the ray (what the tutorial's loop does).
 * M switches the ray between the D3D9 way (CalculateRay + TransformRay:
 * rp_pick_ray_perspective) and the XNA way (unproject near and far points:
 * rp_pick_ray_unproject); the HUD shows that both find the same point.
 */
#include "lesson.h"

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

static struct {
    object objects[OBJECT_COUNT];
    lesson_method method;
    bool nearest_only;
    bool show_bounds;
    bool has_ray;
    rp_ray last_ray;
    vec3 last_point;
    bool last_hit;
    char agreement[96];
} L;

/* ------------------------------------------------------------ init */

static bool init(const lesson_env *env)
{
    (void)env;
    static const object start[OBJECT_COUNT] = {
        {"cube",   RENDER_CUBE,   {-4.5f, 1.2f, 0.0f},  1.0f, 1.7320508f, {0.90f, 0.45f, 0.30f, 1}, false, 0, 0},
        {"torus",  RENDER_TORUS,  {-1.5f, 1.4f, -3.0f}, 1.3f, 1.05f,      {0.35f, 0.70f, 0.95f, 1}, false, 0, 0},
        {"cone",   RENDER_CONE,   {1.5f, 1.2f, 0.5f},   1.0f, 1.4142136f, {0.95f, 0.80f, 0.30f, 1}, false, 0, 0},
        {"sphere", RENDER_SPHERE, {4.5f, 1.0f, -2.0f},  1.0f, 1.05f,      {0.55f, 0.85f, 0.50f, 1}, false, 0, 0},
        {"tower",  RENDER_CUBE,   {-4.5f, 1.6f, -6.0f}, 0.8f, 1.7320508f, {0.75f, 0.55f, 0.90f, 1}, false, 0, 0},
        {"ring",   RENDER_TORUS,  {0.0f, 1.4f, -8.0f},  1.8f, 1.05f,      {0.90f, 0.40f, 0.60f, 1}, false, 0, 0},
    };
    memset(&L, 0, sizeof L);
    memcpy(L.objects, start, sizeof start);
    for (int i = 0; i < OBJECT_COUNT; ++i)
        L.objects[i].angle = 0.4f * (float)i;
    L.method = LESSON_PICK_D3D9;
    L.nearest_only = true;
    L.show_bounds = false;     /* B shows them */
    return true;
}

static void cleanup(void) {}

static void bounding_sphere(const object *o, rp_sphere *s)
{
    glm_vec3_copy((float *)o->position, s->center);
    s->radius = o->bound_radius * o->scale;
}

/* ------------------------------------------------------------ update */

static void update(float dt)
{
    for (int i = 0; i < OBJECT_COUNT; ++i) {
        object *o = &L.objects[i];
        if (o->rotating)
            o->angle += 1.2f * dt;
        o->flash = glm_max(0.0f, o->flash - dt);
    }
}

static bool key(char k)
{
    switch (k) {
    case 'm': L.method = L.method == LESSON_PICK_D3D9 ? LESSON_PICK_UNPROJECT : LESSON_PICK_D3D9; return true;
    case 'n': L.nearest_only = !L.nearest_only; return true;
    case 'b': L.show_bounds = !L.show_bounds; return true;
    default: return false;
    }
}

static lesson_method method(void)
{
    return L.method;
}

/* ------------------------------------------------------------ click */

/* The nearest bounding sphere on a ray: what a D3D9 program of the
   tutorial's time would do by looping, the library does in one call. */
static int nearest_hit(const rp_ray *ray, rp_hit *hit)
{
    rp_sphere spheres[OBJECT_COUNT];
    for (int i = 0; i < OBJECT_COUNT; ++i)
        bounding_sphere(&L.objects[i], &spheres[i]);
    return rp_intersect_ray_spheres(ray, spheres, OBJECT_COUNT, hit);
}

/* Build the other method's ray for the same pixel and check it finds the
   same object and the same point. */
static void compare_methods(const lesson_click *c, int id, const rp_hit *hit)
{
    rp_ray other;
    bool ok = c->method == LESSON_PICK_D3D9
                  ? rp_pick_ray_unproject(c->px, c->py, &c->viewport, (vec4 *)c->proj, (vec4 *)c->view, RP_GL, &other)
                  : rp_pick_ray_perspective(c->px, c->py, &c->viewport, (vec4 *)c->proj, (vec4 *)c->view, RP_GL, &other);
    const char *other_name = lesson_method_name(c->method == LESSON_PICK_D3D9 ? LESSON_PICK_UNPROJECT : LESSON_PICK_D3D9);
    rp_hit other_hit;
    int other_id = ok ? nearest_hit(&other, &other_hit) : -2;
    if (other_id != id) {
        snprintf(L.agreement, sizeof L.agreement, "%s DISAGREES: it picks %s", other_name,
                 other_id >= 0 ? L.objects[other_id].name : "nothing");
    } else if (id < 0) {
        snprintf(L.agreement, sizeof L.agreement, "%s agrees: nothing hit", other_name);
    } else {
        float d = glm_vec3_distance((float *)hit->point, other_hit.point);
        snprintf(L.agreement, sizeof L.agreement, "%s agrees: %s, points %.1e apart", other_name,
                 L.objects[id].name, (double)d);
    }
}

static void click(const lesson_click *c, lesson_pick *out)
{
    lesson_pick_miss(out, &c->ray, lesson_method_name(c->method));
    L.has_ray = true;
    L.last_ray = c->ray;

    rp_hit hit;
    int id = nearest_hit(&c->ray, &hit);
    int hits[OBJECT_COUNT], hit_count = 0;
    if (L.nearest_only) {
        if (id >= 0)
            hits[hit_count++] = id;
    } else {
        /* the tutorial's loop: every sphere the ray passes through */
        for (int i = 0; i < OBJECT_COUNT; ++i) {
            rp_sphere s;
            bounding_sphere(&L.objects[i], &s);
            if (rp_test_ray_sphere(&c->ray, &s))
                hits[hit_count++] = i;
        }
    }
    for (int i = 0; i < hit_count; ++i) {
        object *o = &L.objects[hits[i]];
        o->rotating = !o->rotating;
        o->flash = 0.6f;
    }
    compare_methods(c, id, &hit);
    snprintf(out->note, sizeof out->note, "%s", L.agreement);

    int n = snprintf(out->json, sizeof out->json, ",\"nearest_only\":%s,\"toggled\":[",
                     L.nearest_only ? "true" : "false");
    for (int i = 0; i < hit_count && n < (int)sizeof out->json; ++i)
        n += snprintf(out->json + n, sizeof out->json - (size_t)n, "%s%d", i ? "," : "", hits[i]);
    if (n < (int)sizeof out->json)
        snprintf(out->json + n, sizeof out->json - (size_t)n, "],\"agree\":%s",
                 strstr(L.agreement, "agrees") ? "true" : "false");

    L.last_hit = id >= 0;
    if (id < 0)
        return;
    out->hit = true;
    out->id = id;
    snprintf(out->what, sizeof out->what, "%s", L.objects[id].name);
    out->t = hit.t;
    glm_vec3_copy(hit.point, out->point);
    glm_vec3_copy(hit.point, L.last_point);
}

/* ------------------------------------------------------------ draw */

static void draw(renderer *r, const render_view *v)
{
    (void)v;
    for (int i = 0; i < OBJECT_COUNT; ++i) {
        const object *o = &L.objects[i];
        versor q;
        glm_quatv(q, o->angle, (vec3){0.25f, 1.0f, 0.1f});
        glm_quat_normalize(q);
        mat4 model;
        lesson_model(o->position, q, (vec3){o->scale, o->scale, o->scale}, model);
        vec3 glow = {0.35f * o->flash, 0.35f * o->flash, 0.3f * o->flash};
        if (o->rotating)
            glm_vec3_adds(glow, 0.05f, glow);
        render_shape(r, o->shape, model, o->color, glow);
        render_shadow(r, o->position, o->bound_radius * o->scale, 0.0f, 0.8f);
    }
    render_grid(r, 0.0f);
    if (L.has_ray) {
        /* the ray ends at the hit, or runs 60 units into the scene */
        float len = L.last_hit ? glm_vec3_distance(L.last_ray.origin, L.last_point) : 60.0f;
        vec3 far;
        glm_vec3_normalize_to(L.last_ray.dir, far);
        glm_vec3_scale(far, len, far);
        glm_vec3_add(far, L.last_ray.origin, far);
        render_line(r, L.last_ray.origin, far, (vec4){1.0f, 0.9f, 0.4f, 0.9f});
        if (L.last_hit)
            render_point(r, L.last_point, 12.0f, (vec4){1.0f, 0.95f, 0.5f, 1.0f});
    }
    render_flush(r);
    if (L.show_bounds) {
        for (int i = 0; i < OBJECT_COUNT; ++i) {
            const object *o = &L.objects[i];
            vec4 c = {0.35f, 0.55f, 0.85f, 0.05f};
            if (o->rotating)
                glm_vec4_copy((vec4){0.95f, 0.75f, 0.35f, 0.07f}, c);
            render_glass_sphere(r, o->position, o->bound_radius * o->scale, c);
        }
    }
}

static void status(char *buf, size_t size)
{
    int n = 0;
    for (int i = 0; i < OBJECT_COUNT; ++i)
        n += L.objects[i].rotating;
    snprintf(buf, size, "ray: %s (M)   picks: %s (N)   bounds: %s (B)   rotating: %d\n%s",
             L.method == LESSON_PICK_D3D9 ? "D3D9 CalculateRay" : "XNA unproject",
             L.nearest_only ? "nearest only" : "all on the ray", L.show_bounds ? "shown" : "hidden", n,
             L.agreement);
}

static void layout(FILE *out, const vec3 eye)
{
    (void)eye;
    fputc('[', out);
    for (int i = 0; i < OBJECT_COUNT; ++i) {
        rp_sphere s;
        bounding_sphere(&L.objects[i], &s);
        fprintf(out, "%s{\"id\":%d,\"name\":\"%s\",\"kind\":\"sphere\",\"center\":", i ? "," : "", i,
                L.objects[i].name);
        lesson_json_vec3(out, s.center);
        fprintf(out, ",\"radius\":%.6g}", (double)s.radius);
    }
    fputc(']', out);
}

const lesson lesson1_spheres = {
    .number = 1,
    .title = "Lesson 1: picking bounding spheres",
    .keys = "left click  toggle rotation of what the ray hits\n"
            "M  D3D9 ray / unproject ray\n"
            "N  nearest only / all on the ray\n"
            "B  show bounding spheres",
    .camera = {{0.0f, 1.0f, -2.0f}, 0.0f, 0.38f, 15.0f, 0.7853982f},
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

/*
 * Lesson 4: picking a point on a heightmap terrain (seed 004).
 *
 * A click puts a marker where the pick ray meets the terrain. The seed's
 * method (the "search"): clip the ray to the terrain's height band, walk it
 * in equal linear steps until a sample lies below the ground, then halve the
 * last step until the height error is small. It is drawn: the clipped
 * segment, the linear steps, the binary steps. M switches to the exact
 * method (the first triangle the ray meets). The default map has a thin spire
 * the linear steps can stride over: click it in both modes to see.
 */
#include "lesson.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAP_SIZE 97             /* samples per side */
#define MAP_SPACING 0.5f
#define MAP_HEIGHT 7.0f
#define LINEAR_STEPS 24         /* coarse on purpose: the spire shows why */
#define ACCURACY 0.01f
#define TRACE_CAP 256
#define SPIRE_COL 52
#define SPIRE_ROW 62
#define SPIRE_HEIGHT 9.0f

typedef enum terrain_mode { MODE_SEARCH, MODE_EXACT } terrain_mode;

static struct {
    rp_heightmap *map;
    render_terrain *mesh;
    terrain_mode mode;
    bool has_spire;
    vec3 spire_base, spire_top;
    /* the last click */
    bool has_ray, has_marker;
    bool has_exact_ghost;       /* search mode: where the exact method hits, when they differ */
    vec3 exact_ghost;
    vec3 ray_start, ray_end;    /* the pick ray, clipped for drawing */
    vec3 marker;
    vec3 linear[TRACE_CAP], binary[TRACE_CAP];
    rp_search_trace trace;
    char last[96];
} L;

/* ------------------------------------------------------------ init */

/* The default map: the procedural terrain plus one thin spire, one sample
   wide, in plain view of the start camera. */
static rp_heightmap *default_map(uint32_t seed)
{
    float half = (MAP_SIZE - 1) * MAP_SPACING * 0.5f;
    vec3 origin = {-half, 0.0f, -half};
    rp_heightmap *noise = rp_heightmap_generate(MAP_SIZE, MAP_SIZE, MAP_SPACING, MAP_HEIGHT, seed, origin);
    if (!noise)
        return NULL;
    float *h = malloc(sizeof(float) * MAP_SIZE * MAP_SIZE);
    rp_heightmap *map = NULL;
    if (h) {
        memcpy(h, rp_heightmap_heights(noise), sizeof(float) * MAP_SIZE * MAP_SIZE);
        h[SPIRE_ROW * MAP_SIZE + SPIRE_COL] += SPIRE_HEIGHT;
        map = rp_heightmap_create(MAP_SIZE, MAP_SIZE, MAP_SPACING, origin, h);
        if (map) {
            float base = glm_min(glm_min(h[SPIRE_ROW * MAP_SIZE + SPIRE_COL - 1], h[SPIRE_ROW * MAP_SIZE + SPIRE_COL + 1]),
                                 glm_min(h[(SPIRE_ROW - 1) * MAP_SIZE + SPIRE_COL], h[(SPIRE_ROW + 1) * MAP_SIZE + SPIRE_COL]));
            vec3 p = {origin[0] + SPIRE_COL * MAP_SPACING, base, origin[2] + SPIRE_ROW * MAP_SPACING};
            glm_vec3_copy(p, L.spire_base);
            glm_vec3_copy(p, L.spire_top);
            L.spire_top[1] = h[SPIRE_ROW * MAP_SIZE + SPIRE_COL];
            L.has_spire = true;
        }
    }
    free(h);
    rp_heightmap_destroy(noise);
    return map;
}

/* An image from --heightmap, rescaled to the default map's extent and
   centred under the camera, whatever its size in pixels. */
static rp_heightmap *loaded_map(const char *path, char *err, size_t err_size)
{
    rp_heightmap *image = rp_heightmap_load(path, 1.0f, MAP_HEIGHT, (vec3){0.0f, 0.0f, 0.0f}, err, err_size);
    if (!image)
        return NULL;
    int cols = rp_heightmap_cols(image), rows = rp_heightmap_rows(image);
    float extent = (MAP_SIZE - 1) * MAP_SPACING;
    float spacing = extent / (float)(glm_max(cols, rows) - 1);
    vec3 origin = {-0.5f * spacing * (float)(cols - 1), 0.0f, -0.5f * spacing * (float)(rows - 1)};
    rp_heightmap *map = rp_heightmap_create(cols, rows, spacing, origin, rp_heightmap_heights(image));
    rp_heightmap_destroy(image);
    if (!map)
        snprintf(err, err_size, "%s: cannot build a %dx%d terrain", path, cols, rows);
    return map;
}

static bool init(const lesson_env *env)
{
    memset(&L, 0, sizeof L);
    if (env->heightmap_path) {
        L.map = loaded_map(env->heightmap_path, env->err, env->err_size);
        if (!L.map)
            return false;
    } else {
        L.map = default_map(env->seed);
        if (!L.map) {
            snprintf(env->err, env->err_size, "cannot build the terrain");
            return false;
        }
    }
    vec3 origin;
    rp_heightmap_origin(L.map, origin);
    L.mesh = render_terrain_create(env->r, rp_heightmap_cols(L.map), rp_heightmap_rows(L.map),
                                   rp_heightmap_spacing(L.map), origin, rp_heightmap_heights(L.map));
    if (!L.mesh) {
        snprintf(env->err, env->err_size, "cannot build the terrain mesh");
        rp_heightmap_destroy(L.map);
        L.map = NULL;
        return false;
    }
    L.mode = MODE_SEARCH;
    snprintf(L.last, sizeof L.last, "click the terrain");
    return true;
}

static void cleanup(void)
{
    render_terrain_destroy(L.mesh);
    rp_heightmap_destroy(L.map);
    L.mesh = NULL;
    L.map = NULL;
}

/* ------------------------------------------------------------ update */

static void update(float dt)
{
    (void)dt;
}

static bool key(char k)
{
    if (k != 'm')
        return false;
    L.mode = L.mode == MODE_SEARCH ? MODE_EXACT : MODE_SEARCH;
    return true;
}

static lesson_method method(void)
{
    return LESSON_PICK_UNPROJECT;   /* XNA's GetPointerRay, as in the seed */
}

/* ------------------------------------------------------------ click */

static void click(const lesson_click *c, lesson_pick *out)
{
    lesson_pick_miss(out, &c->ray, L.mode == MODE_SEARCH ? "search" : "exact");
    L.has_ray = true;
    glm_vec3_copy((float *)c->ray.origin, L.ray_start);
    rp_ray_at(&c->ray, 1.0f, L.ray_end);    /* unproject: t = 1 is the far plane */

    memset(&L.trace, 0, sizeof L.trace);
    L.trace.linear = L.linear;
    L.trace.linear_cap = TRACE_CAP;
    L.trace.binary = L.binary;
    L.trace.binary_cap = TRACE_CAP;

    /* both methods run: the HUD compares them */
    vec3 found;
    bool search_hit = rp_heightmap_pick_search_traced(L.map, &c->ray, LINEAR_STEPS, ACCURACY, &L.trace, found);
    rp_hit exact;
    bool exact_hit = rp_intersect_ray_heightmap(L.map, &c->ray, &exact);

    bool hit = L.mode == MODE_SEARCH ? search_hit : exact_hit;
    L.has_marker = hit;
    if (hit)
        glm_vec3_copy(L.mode == MODE_SEARCH ? found : exact.point, L.marker);

    L.has_exact_ghost = false;
    if (search_hit && exact_hit) {
        float d = glm_vec3_distance(found, exact.point);
        L.has_exact_ghost = L.mode == MODE_SEARCH && d > 0.25f;
        glm_vec3_copy(exact.point, L.exact_ghost);
        snprintf(L.last, sizeof L.last, d > 0.25f ? "search and exact differ by %.2f: the steps skipped something"
                                                  : "search and exact agree within %.3f", (double)d);
    } else {
        snprintf(L.last, sizeof L.last, "search: %s   exact: %s", search_hit ? "hit" : "miss",
                 exact_hit ? "hit" : "miss");
        L.has_exact_ghost = L.mode == MODE_SEARCH && exact_hit;
        if (exact_hit)
            glm_vec3_copy(exact.point, L.exact_ghost);
    }
    snprintf(out->note, sizeof out->note, "%s", L.last);
    snprintf(out->json, sizeof out->json, ",\"linear_steps\":%d,\"binary_steps\":%d,\"search_hit\":%s,\"exact_hit\":%s",
             L.trace.linear_count, L.trace.binary_count, search_hit ? "true" : "false", exact_hit ? "true" : "false");
    if (!hit)
        return;
    out->hit = true;
    out->id = 0;
    snprintf(out->what, sizeof out->what, "terrain");
    glm_vec3_copy(L.marker, out->point);
    /* t along the pick ray: the projection of the point on it */
    vec3 d;
    glm_vec3_sub(L.marker, (float *)c->ray.origin, d);
    out->t = glm_vec3_dot(d, (float *)c->ray.dir) / glm_vec3_dot((float *)c->ray.dir, (float *)c->ray.dir);
}

/* ------------------------------------------------------------ draw */

static void draw_marker(renderer *r, const vec3 p)
{
    mat4 m;
    vec3 tip = {p[0], p[1] + 0.9f, p[2]};
    versor down;
    glm_quatv(down, GLM_PIf, (vec3){1, 0, 0});
    lesson_model(tip, down, (vec3){0.3f, 0.6f, 0.3f}, m);
    render_shape(r, RENDER_CONE, m, (vec4){1.0f, 0.3f, 0.2f, 1.0f}, (vec3){0.35f, 0.05f, 0.0f});
    lesson_model(p, NULL, (vec3){0.55f, 0.55f, 0.55f}, m);
    render_shape(r, RENDER_TORUS, m, (vec4){1.0f, 0.85f, 0.3f, 1.0f}, (vec3){0.3f, 0.2f, 0.0f});
}

static void draw(renderer *r, const render_view *v)
{
    (void)v;
    render_terrain_draw(r, L.mesh);
    if (L.has_marker)
        draw_marker(r, L.marker);
    if (L.has_ray) {
        render_line(r, L.ray_start, L.ray_end, (vec4){1.0f, 1.0f, 1.0f, 0.35f});
        if (L.trace.clipped)
            render_beam(r, L.trace.clip_start, L.trace.clip_end, 0.08f, (vec4){0.3f, 0.8f, 1.0f, 0.9f});
        int nl = glm_min(L.trace.linear_count, TRACE_CAP), nb = glm_min(L.trace.binary_count, TRACE_CAP);
        for (int i = 0; i < nl; ++i)
            render_point(r, L.linear[i], 9.0f, (vec4){0.3f, 0.85f, 1.0f, 1.0f});
        for (int i = 0; i < nb; ++i)
            render_point(r, L.binary[i], 6.0f, (vec4){1.0f, 0.4f, 0.95f, 1.0f});
        if (L.has_exact_ghost)
            render_point(r, L.exact_ghost, 18.0f, (vec4){1.0f, 1.0f, 1.0f, 0.95f});
    }
    render_flush(r);
}

static void status(char *buf, size_t size)
{
    snprintf(buf, size, "method: %s (M)\n%s\ncyan: clipped ray, linear steps   pink: binary steps   white: exact hit",
             L.mode == MODE_SEARCH ? "seed 004 search (linear + binary steps)" : "exact: first triangle hit",
             L.last);
}

/* Landmarks for tests: terrain points the start camera can see, plus the
   spire. Visibility: nothing on the terrain lies between the eye and them. */
/* true when the terrain hides nothing of p from the eye */
static bool visible_from(const vec3 eye, const vec3 p)
{
    rp_ray ray;
    glm_vec3_copy((float *)eye, ray.origin);
    glm_vec3_sub((float *)p, (float *)eye, ray.dir);
    rp_hit hit;
    return rp_intersect_ray_heightmap(L.map, &ray, &hit) && fabsf(hit.t - 1.0f) * glm_vec3_norm(ray.dir) < 0.05f;
}

static void layout(FILE *out, const vec3 eye)
{
    vec3 origin;
    rp_heightmap_origin(L.map, origin);
    fprintf(out, "[{\"id\":-1,\"name\":\"map\",\"kind\":\"map\",\"cols\":%d,\"rows\":%d,\"spacing\":%.9g,"
            "\"height_scale\":%.9g,\"origin\":", rp_heightmap_cols(L.map), rp_heightmap_rows(L.map),
            (double)rp_heightmap_spacing(L.map), (double)MAP_HEIGHT);
    lesson_json_vec3(out, origin);
    fputc('}', out);
    int n = 1;
    if (L.has_spire) {
        fprintf(out, ",{\"id\":0,\"name\":\"spire\",\"kind\":\"spire\",\"center\":");
        lesson_json_vec3(out, L.spire_top);
        fprintf(out, ",\"base\":");
        lesson_json_vec3(out, L.spire_base);
        fputc('}', out);
        ++n;
    }
    static const float spots[][2] = {{-8, 4}, {6, 6}, {0, 10}, {-12, 12}, {10, -4}, {-4, -8}, {3, 1}};
    for (size_t i = 0; i < sizeof spots / sizeof spots[0]; ++i) {
        vec3 p = {spots[i][0], 0.0f, spots[i][1]};
        if (!rp_heightmap_height_at(L.map, p[0], p[2], &p[1]) || !visible_from(eye, p))
            continue;
        fprintf(out, "%s{\"id\":%d,\"name\":\"landmark %zu\",\"kind\":\"point\",\"center\":", n ? "," : "",
                (int)(i + 1), i + 1);
        lesson_json_vec3(out, p);
        fputc('}', out);
        ++n;
    }
    fputc(']', out);
}

const lesson lesson4_terrain = {
    .number = 4,
    .title = "Lesson 4: terrain picking",
    .keys = "left click  put the marker on the terrain\n"
            "M  seed 004 search / exact method",
    .camera = {{0.0f, 2.0f, 2.0f}, 0.0f, 0.62f, 34.0f, 0.7853982f},
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

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
#include "heightmap_file.h"
#include "terrain_mesh.h"

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

typedef struct lesson4 {
    rp_heightmap *map;
    terrain_mesh mesh;          /* what the renderer draws: the map's own heights, decimated when large */
    float height_scale;         /* world height of white (a loaded map) */
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
} lesson4;

/* ------------------------------------------------------------ init */

/* The default map: the procedural terrain plus one thin spire, one sample
   wide, in plain view of the start camera. */
static rp_heightmap *default_map(lesson4 *self, uint32_t seed)
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
            glm_vec3_copy(p, self->spire_base);
            glm_vec3_copy(p, self->spire_top);
            self->spire_top[1] = h[SPIRE_ROW * MAP_SIZE + SPIRE_COL];
            self->has_spire = true;
        }
    }
    free(h);
    rp_heightmap_destroy(noise);
    return map;
}

/* An image from --heightmap: spacing and white from the options, or by
   default the default map's extent (the whole map in the start view) and
   height, centred under the camera whatever its size in pixels. The size
   comes from the header first: it sets the spacing, and a map too large for
   the demo is refused before anything is decoded. */
static rp_heightmap *loaded_map(const lesson_env *env, float height_scale)
{
    const char *path = env->heightmap_path;
    heightmap_file_info info;
    if (!heightmap_file_probe(path, &info, env->err, env->err_size) ||
        !heightmap_file_fits(path, &info, HEIGHTMAP_FILE_BUDGET, env->err, env->err_size))
        return NULL;
    char what[256];
    if (info.known)
        snprintf(what, sizeof what, "%s: loading a %lldx%lld %d-bit %s", path, info.width, info.height,
                 info.bits, info.format);
    else
        snprintf(what, sizeof what, "%s: loading", path);
    lesson_progress(env, what);
    /* an unknown header (the library may still read it): load, then place */
    long long cols = info.known ? info.width : 2, rows = info.known ? info.height : 2;
    rp_heightmap *image = NULL;
    if (!info.known) {
        image = rp_heightmap_load(path, 1.0f, height_scale, (vec3){0.0f, 0.0f, 0.0f}, env->err, env->err_size);
        if (!image)
            return NULL;
        cols = rp_heightmap_cols(image);
        rows = rp_heightmap_rows(image);
    }
    float spacing = env->heightmap_spacing > 0.0f ? env->heightmap_spacing
                    : (MAP_SIZE - 1) * MAP_SPACING / (float)(glm_max(cols, rows) - 1);
    vec3 origin = {-0.5f * spacing * (float)(cols - 1), 0.0f, -0.5f * spacing * (float)(rows - 1)};
    rp_heightmap *map = image ? rp_heightmap_create((int)cols, (int)rows, spacing, origin, rp_heightmap_heights(image))
                              : rp_heightmap_load(path, spacing, height_scale, origin, env->err, env->err_size);
    if (image && !map)
        snprintf(env->err, env->err_size, "%s: cannot build a %lldx%lld terrain", path, cols, rows);
    rp_heightmap_destroy(image);
    return map;
}

static void destroy(void *self_)
{
    lesson4 *self = self_;
    if (!self)
        return;
    terrain_mesh_free(&self->mesh);
    rp_heightmap_destroy(self->map);
    free(self);
}

static void *create(const lesson_env *env)
{
    lesson4 *self = calloc(1, sizeof *self);
    if (!self) {
        snprintf(env->err, env->err_size, "out of memory");
        return NULL;
    }
    self->height_scale = env->heightmap_scale > 0.0f ? env->heightmap_scale : MAP_HEIGHT;
    if (env->heightmap_path) {
        self->map = loaded_map(env, self->height_scale);
    } else {
        self->map = default_map(self, env->seed);
        if (!self->map)
            snprintf(env->err, env->err_size, "cannot build the terrain");
    }
    if (!self->map) {
        destroy(self);
        return NULL;
    }
    lesson_progress(env, "building the terrain's render mesh");
    if (!terrain_mesh_build(self->map, TERRAIN_MESH_MAX_SIDE, &self->mesh)) {
        snprintf(env->err, env->err_size, "out of memory for the terrain's render mesh");
        destroy(self);
        return NULL;
    }
    self->mode = MODE_SEARCH;
    snprintf(self->last, sizeof self->last, "click the terrain");
    return self;
}

/* ------------------------------------------------------------ update */

static void update(void *self, float dt)
{
    (void)self;
    (void)dt;
}

static bool key(void *self_, char k)
{
    lesson4 *self = self_;
    if (k != 'm')
        return false;
    self->mode = self->mode == MODE_SEARCH ? MODE_EXACT : MODE_SEARCH;
    return true;
}

static lesson_method method(const void *self)
{
    (void)self;
    return LESSON_PICK_UNPROJECT;   /* XNA's GetPointerRay, as in the seed */
}

/* ------------------------------------------------------------ click */

static void click(void *self_, const lesson_click *c, lesson_pick *out)
{
    lesson4 *self = self_;
    lesson_pick_miss(out, &c->ray, self->mode == MODE_SEARCH ? "search" : "exact");
    self->has_ray = true;
    glm_vec3_copy((float *)c->ray.origin, self->ray_start);
    rp_ray_at(&c->ray, 1.0f, self->ray_end);    /* unproject: t = 1 is the far plane */

    memset(&self->trace, 0, sizeof self->trace);
    self->trace.linear = self->linear;
    self->trace.linear_cap = TRACE_CAP;
    self->trace.binary = self->binary;
    self->trace.binary_cap = TRACE_CAP;

    /* both methods run: the HUD compares them */
    vec3 found;
    bool search_hit = rp_heightmap_pick_search_traced(self->map, &c->ray, LINEAR_STEPS, ACCURACY, &self->trace, found);
    rp_hit exact;
    bool exact_hit = rp_intersect_ray_heightmap(self->map, &c->ray, &exact);

    bool hit = self->mode == MODE_SEARCH ? search_hit : exact_hit;
    self->has_marker = hit;
    if (hit)
        glm_vec3_copy(self->mode == MODE_SEARCH ? found : exact.point, self->marker);

    self->has_exact_ghost = false;
    if (search_hit && exact_hit) {
        float d = glm_vec3_distance(found, exact.point);
        self->has_exact_ghost = self->mode == MODE_SEARCH && d > 0.25f;
        glm_vec3_copy(exact.point, self->exact_ghost);
        snprintf(self->last, sizeof self->last, d > 0.25f ? "search and exact differ by %.2f: the steps skipped something"
                                                  : "search and exact agree within %.3f", (double)d);
    } else {
        snprintf(self->last, sizeof self->last, "search: %s   exact: %s", search_hit ? "hit" : "miss",
                 exact_hit ? "hit" : "miss");
        self->has_exact_ghost = self->mode == MODE_SEARCH && exact_hit;
        if (exact_hit)
            glm_vec3_copy(exact.point, self->exact_ghost);
    }
    snprintf(out->note, sizeof out->note, "%s", self->last);
    lesson_pick_int(out, "linear_steps", self->trace.linear_count);
    lesson_pick_int(out, "binary_steps", self->trace.binary_count);
    lesson_pick_bool(out, "search_hit", search_hit);
    lesson_pick_bool(out, "exact_hit", exact_hit);
    if (!hit)
        return;
    out->hit = true;
    out->id = 0;
    snprintf(out->what, sizeof out->what, "terrain");
    glm_vec3_copy(self->marker, out->point);
    /* t along the pick ray: the projection of the point on it */
    vec3 d;
    glm_vec3_sub(self->marker, (float *)c->ray.origin, d);
    out->t = glm_vec3_dot(d, (float *)c->ray.dir) / glm_vec3_dot((float *)c->ray.dir, (float *)c->ray.dir);
}

/* ------------------------------------------------------------ draw */

/* p is the exact hit; the drawn surface may be coarser (terrain_mesh.h) */
static void draw_marker(render_list *list, const terrain_mesh *mesh, const vec3 exact)
{
    vec3 p;
    terrain_mesh_marker(mesh, exact, p);
    mat4 m;
    vec3 tip = {p[0], p[1] + 0.9f, p[2]};
    versor down;
    glm_quatv(down, GLM_PIf, (vec3){1, 0, 0});
    lesson_model(tip, down, (vec3){0.3f, 0.6f, 0.3f}, m);
    render_list_shape(list, RENDER_CONE, m, (vec4){1.0f, 0.3f, 0.2f, 1.0f}, (vec3){0.35f, 0.05f, 0.0f});
    lesson_model(p, NULL, (vec3){0.55f, 0.55f, 0.55f}, m);
    render_list_shape(list, RENDER_TORUS, m, (vec4){1.0f, 0.85f, 0.3f, 1.0f}, (vec3){0.3f, 0.2f, 0.0f});
}

static void draw(const void *self_, render_list *list)
{
    const lesson4 *self = self_;
    render_list_terrain(list, &self->mesh.data);
    if (self->has_marker)
        draw_marker(list, &self->mesh, self->marker);
    if (self->has_ray) {
        render_list_line(list, self->ray_start, self->ray_end, (vec4){1.0f, 1.0f, 1.0f, 0.35f});
        if (self->trace.clipped)
            render_list_beam(list, self->trace.clip_start, self->trace.clip_end, 0.08f, (vec4){0.3f, 0.8f, 1.0f, 0.9f});
        int nl = glm_min(self->trace.linear_count, TRACE_CAP), nb = glm_min(self->trace.binary_count, TRACE_CAP);
        for (int i = 0; i < nl; ++i)
            render_list_point(list, self->linear[i], 9.0f, (vec4){0.3f, 0.85f, 1.0f, 1.0f});
        for (int i = 0; i < nb; ++i)
            render_list_point(list, self->binary[i], 6.0f, (vec4){1.0f, 0.4f, 0.95f, 1.0f});
        if (self->has_exact_ghost)
            render_list_point(list, self->exact_ghost, 18.0f, (vec4){1.0f, 1.0f, 1.0f, 0.95f});
    }
}

static void status(const void *self_, char *buf, size_t size)
{
    const lesson4 *self = self_;
    snprintf(buf, size, "method: %s (M)\n%s\ncyan: clipped ray, linear steps   pink: binary steps   white: exact hit",
             self->mode == MODE_SEARCH ? "seed 004 search (linear + binary steps)" : "exact: first triangle hit",
             self->last);
}

/* Landmarks for tests: terrain points the start camera can see, plus the
   spire. Visibility: nothing on the terrain lies between the eye and them. */
/* true when the terrain hides nothing of p from the eye */
static bool visible_from(const lesson4 *self, const vec3 eye, const vec3 p)
{
    rp_ray ray;
    glm_vec3_copy((float *)eye, ray.origin);
    glm_vec3_sub((float *)p, (float *)eye, ray.dir);
    rp_hit hit;
    return rp_intersect_ray_heightmap(self->map, &ray, &hit) && fabsf(hit.t - 1.0f) * glm_vec3_norm(ray.dir) < 0.05f;
}

/* the next object slot, or NULL past cap (the count still goes up) */
static lesson_object *next_object(lesson_object *out, int cap, int *n, int id, lesson_object_kind kind)
{
    lesson_object *o = *n < cap ? &out[*n] : NULL;
    ++*n;
    if (o) {
        memset(o, 0, sizeof *o);
        o->id = id;
        o->kind = kind;
    }
    return o;
}

static int objects(const void *self_, const vec3 eye, lesson_object *out, int cap)
{
    const lesson4 *self = self_;
    int n = 0;
    lesson_object *o = next_object(out, cap, &n, -1, LESSON_OBJECT_MAP);
    if (o) {
        snprintf(o->name, sizeof o->name, "map");
        o->shape.map.cols = rp_heightmap_cols(self->map);
        o->shape.map.rows = rp_heightmap_rows(self->map);
        o->shape.map.spacing = rp_heightmap_spacing(self->map);
        o->shape.map.height_scale = self->height_scale;
        rp_heightmap_origin(self->map, o->shape.map.origin);
    }
    o = self->has_spire ? next_object(out, cap, &n, 0, LESSON_OBJECT_SPIRE) : NULL;
    if (o) {
        snprintf(o->name, sizeof o->name, "spire");
        glm_vec3_copy((float *)self->spire_top, o->shape.spire.center);
        glm_vec3_copy((float *)self->spire_base, o->shape.spire.base);
    }
    static const float spots[][2] = {{-8, 4}, {6, 6}, {0, 10}, {-12, 12}, {10, -4}, {-4, -8}, {3, 1}};
    for (int i = 0; i < (int)(sizeof spots / sizeof spots[0]); ++i) {
        vec3 p = {spots[i][0], 0.0f, spots[i][1]};
        if (!rp_heightmap_height_at(self->map, p[0], p[2], &p[1]) || !visible_from(self, eye, p))
            continue;
        o = next_object(out, cap, &n, i + 1, LESSON_OBJECT_POINT);
        if (o) {
            snprintf(o->name, sizeof o->name, "landmark %d", i + 1);
            glm_vec3_copy(p, o->shape.point.center);
        }
    }
    return n;
}

const lesson lesson4_terrain = {
    .number = 4,
    .title = "Lesson 4: terrain picking",
    .keys = "left click  put the marker on the terrain\n"
            "M  seed 004 search / exact method",
    .camera = {{0.0f, 2.0f, 2.0f}, 0.0f, 0.62f, 34.0f, 0.7853982f},
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

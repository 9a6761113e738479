/*
 * Lesson 4: picking a point on a heightmap terrain (the XNA terrain-picking recipe).
 *
 * A click puts a marker where the pick ray meets the terrain. The seed's
 * method (the "search"): clip the ray to the terrain's height band, walk it
 * in equal linear steps until a sample lies below the ground, then halve the
 * last step until the height error is small. It is drawn: the clipped
 * segment, the linear steps, the binary steps. M switches to the exact
 * method (the first triangle the ray meets); L cycles the linear step count
 * (1 = the binary search alone, 8, 30, 300). The default map has a spire
 * with a 1 x 1 top: 30 steps land on it, the binary search alone strides
 * over it (the recipe's figure 5-20).
 *
 * Step mode (P, then '.' and ','): the click's search one step at a time,
 * ClipRay, each linear sample, each halving numbered as in the recipe,
 * then the result; seen from the side through a cutaway of the terrain,
 * with a camera that frames the step (lesson->frame; Z frees it).
 */
#include "lesson.h"
#include "heightmap_file.h"
#include "terrain_mesh.h"
#include "steady_math.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAP_SIZE 97             /* samples per side */
#define MAP_SPACING 0.5f
#define MAP_HEIGHT 7.0f
#define ACCURACY 0.01f          /* the recipe's */
#define TRACE_CAP 320           /* >= the most linear steps (300) + 1 */
#define BINARY_CAP 64           /* the library's most halvings */
#define STEP_CAP (1 + TRACE_CAP + BINARY_CAP + 1)
#define SPIRE_COL 52
#define SPIRE_ROW 62
#define SPIRE_HALF 1            /* the top is (2 * SPIRE_HALF + 1)^2 samples: 1 x 1 units */
#define SPIRE_HEIGHT 9.0f
#define FRAME_MIN 1.2f          /* the framing camera shows at least this much ray */

/* The linear step counts L cycles through: 1 is the recipe's binary search
   alone (figures 5-19 and 5-20), 8 its figure 5-21, 30 the least its text
   asks for, 300 its code. */
static const int linear_choices[] = {1, 8, 30, 300};
#define LINEAR_CHOICES ((int)(sizeof linear_choices / sizeof linear_choices[0]))
#define LINEAR_DEFAULT 2        /* 30 */

typedef enum terrain_mode { MODE_SEARCH, MODE_EXACT } terrain_mode;

/* One step of the search as step mode shows it. */
typedef enum step_kind {
    STEP_CLIP,          /* ClipRay: A and B */
    STEP_LINEAR,        /* LinearSearch: one sample */
    STEP_BINARY,        /* BinarySearch: one halving, the recipe's point n */
    STEP_RESULT         /* the point found, beside the exact hit */
} step_kind;

typedef struct search_step {
    step_kind kind;
    int number;             /* linear: the sample (0 = A); binary: the point (1, 2, ...) */
    vec3 point;             /* the sample; clip: A; result: the point found */
    float ground;           /* surface height under point */
    bool has_ground;        /* point is over the map */
    bool crossed;           /* linear: the first sample on the other side */
    vec3 span_a, span_b;    /* what the framing camera shows */
    char lo[12], hi[12];      /* binary: the crossing lies between these points, after the step */
} search_step;

typedef struct lesson4 {
    rp_heightmap *map;
    terrain_mesh mesh;          /* what the renderer draws: the map's own heights, decimated when large */
    float height_scale;         /* world height of white (a loaded map) */
    terrain_mode mode;
    int linear_choice;          /* index into linear_choices */
    bool framed;                /* step mode: the camera frames the step (Z) */
    lesson_stepper stepper;
    bool has_spire;
    vec3 spire_base, spire_top;
    /* the last click */
    bool has_ray, has_marker;
    bool search_hit, exact_hit;
    vec3 search_point, exact_point;
    float search_t, exact_t;
    bool has_exact_ghost;       /* search mode: where the exact method hits, when they differ */
    vec3 exact_ghost;
    rp_ray ray;
    vec3 ray_start, ray_end;    /* the pick ray, clipped for drawing */
    vec3 marker;
    vec3 linear[TRACE_CAP], binary[TRACE_CAP];
    rp_search_trace trace;
    int linear_used;            /* the step count of the last click */
    search_step steps[STEP_CAP];
    /* step mode's cutaway: the terrain with everything between the framing
       camera and the ray lowered to the floor, so the steps are seen from
       the side like the recipe's figures */
    float *cut_heights;
    render_terrain_data cut_mesh;
    bool cut_valid;             /* cut_mesh is for the last click's ray */
    vec3 cut_side;              /* horizontal, toward the camera, across the ray */
    char last[96];
} lesson4;

/* ------------------------------------------------------------ init */

/* The default map: the procedural terrain plus one spire, its flat top
   (2 * SPIRE_HALF + 1) samples square (1 x 1 units: wide enough to click,
   still narrower than 8 or 30 linear steps), in plain view of the start
   camera. */
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
        float top = 0.0f, base = 1e30f;
        for (int r = SPIRE_ROW - SPIRE_HALF - 1; r <= SPIRE_ROW + SPIRE_HALF + 1; ++r)
            for (int c = SPIRE_COL - SPIRE_HALF - 1; c <= SPIRE_COL + SPIRE_HALF + 1; ++c) {
                bool core = abs(r - SPIRE_ROW) <= SPIRE_HALF && abs(c - SPIRE_COL) <= SPIRE_HALF;
                if (!core)
                    base = glm_min(base, h[r * MAP_SIZE + c]);      /* the ring around the top */
                else
                    top = glm_max(top, h[r * MAP_SIZE + c]);
            }
        /* a level top: every core sample at the same height */
        for (int r = SPIRE_ROW - SPIRE_HALF; r <= SPIRE_ROW + SPIRE_HALF; ++r)
            for (int c = SPIRE_COL - SPIRE_HALF; c <= SPIRE_COL + SPIRE_HALF; ++c)
                h[r * MAP_SIZE + c] = top + SPIRE_HEIGHT;
        map = rp_heightmap_create(MAP_SIZE, MAP_SIZE, MAP_SPACING, origin, h);
        if (map) {
            vec3 p = {origin[0] + SPIRE_COL * MAP_SPACING, base, origin[2] + SPIRE_ROW * MAP_SPACING};
            glm_vec3_copy(p, self->spire_base);
            glm_vec3_copy(p, self->spire_top);
            self->spire_top[1] = top + SPIRE_HEIGHT;
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
        !heightmap_file_fits(path, &info, env->load_limit > 0 ? env->load_limit : HEIGHTMAP_FILE_BUDGET,
                             env->err, env->err_size))
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
    free(self->cut_heights);
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
    self->linear_choice = LINEAR_DEFAULT;
    self->framed = true;
    snprintf(self->last, sizeof self->last, "click the terrain");
    return self;
}

/* ------------------------------------------------------------ update */

static void update(void *self, float dt)
{
    (void)self;
    (void)dt;
}

static void make_cutaway(lesson4 *self);

static bool key(void *self_, char k)
{
    lesson4 *self = self_;
    if (lesson_stepper_key(&self->stepper, k)) {
        /* step mode turned on after a click: its cutaway is made now */
        if (self->stepper.on && self->has_ray && !self->cut_valid)
            make_cutaway(self);
        return true;
    }
    switch (k) {
    case 'm': self->mode = self->mode == MODE_SEARCH ? MODE_EXACT : MODE_SEARCH; return true;
    case 'l': self->linear_choice = (self->linear_choice + 1) % LINEAR_CHOICES; return true;
    case 'z': self->framed = !self->framed; return true;
    default: return false;
    }
}

static lesson_method method(const void *self)
{
    (void)self;
    return LESSON_PICK_UNPROJECT;   /* XNA's GetPointerRay, as in the seed */
}

/* ------------------------------------------------------------ click */

/* t of point p along ray (in units of ray.dir: the unproject ray's far
   plane is t = 1) */
static float t_along(const rp_ray *ray, const vec3 p)
{
    vec3 d;
    glm_vec3_sub((float *)p, (float *)ray->origin, d);
    return glm_vec3_dot(d, (float *)ray->dir) / glm_vec3_dot((float *)ray->dir, (float *)ray->dir);
}

static search_step *add_step(lesson4 *self, int *n, step_kind kind, int number, const vec3 p)
{
    search_step *s = &self->steps[*n];
    ++*n;
    memset(s, 0, sizeof *s);
    s->kind = kind;
    s->number = number;
    glm_vec3_copy((float *)p, s->point);
    s->has_ground = rp_heightmap_height_at(self->map, p[0], p[2], &s->ground);
    return s;
}

static void set_span(search_step *s, const vec3 a, const vec3 b)
{
    glm_vec3_copy((float *)a, s->span_a);
    glm_vec3_copy((float *)b, s->span_b);
}

/* The name of linear sample i in the steps' text: A, B or L<i>. */
static void linear_name(const lesson4 *self, int i, char *buf, size_t size)
{
    if (i == 0)
        snprintf(buf, size, "A");
    else if (i == self->linear_used)
        snprintf(buf, size, "B");
    else
        snprintf(buf, size, "L%d", i);
}

/* Step mode's record of the last search: the clip, each linear sample,
   each halving (replayed: a point on the start's side of the surface
   becomes the near end of the interval, as in the recipe's figure 5-19),
   then the result. Returns how many. */
static int record_steps(lesson4 *self)
{
    const rp_search_trace *tr = &self->trace;
    int n = 0;
    if (!tr->clipped) {
        search_step *s = add_step(self, &n, STEP_CLIP, 0, self->ray_start);
        set_span(s, self->ray_start, self->ray_end);
        return n;
    }
    search_step *s = add_step(self, &n, STEP_CLIP, 0, tr->clip_start);
    set_span(s, tr->clip_start, tr->clip_end);
    float side = s->has_ground && s->point[1] < s->ground ? -1.0f : 1.0f;
    int nl = glm_min(tr->linear_count, TRACE_CAP);
    for (int i = 1; i < nl; ++i) {
        s = add_step(self, &n, STEP_LINEAR, i, self->linear[i]);
        set_span(s, tr->clip_start, tr->clip_end);
        s->crossed = s->has_ground && (s->point[1] - s->ground) * side < 0.0f;
        if (s->crossed) {
            linear_name(self, i - 1, s->lo, sizeof s->lo);
            linear_name(self, i, s->hi, sizeof s->hi);
        }
    }
    int nb = glm_min(tr->binary_count, BINARY_CAP);
    if (nb > 0 && nl >= 2) {
        vec3 lo, hi;
        char lo_name[12], hi_name[12];
        glm_vec3_copy(self->linear[nl - 2], lo);
        glm_vec3_copy(self->linear[nl - 1], hi);
        linear_name(self, nl - 2, lo_name, sizeof lo_name);
        linear_name(self, nl - 1, hi_name, sizeof hi_name);
        for (int j = 0; j < nb; ++j) {
            s = add_step(self, &n, STEP_BINARY, j + 1, self->binary[j]);
            set_span(s, lo, hi);
            bool same_side = s->has_ground && (s->point[1] - s->ground) * side > 0.0f;
            if (same_side) {
                glm_vec3_copy(s->point, lo);
                snprintf(lo_name, sizeof lo_name, "%d", j + 1);
            } else {
                glm_vec3_copy(s->point, hi);
                snprintf(hi_name, sizeof hi_name, "%d", j + 1);
            }
            snprintf(s->lo, sizeof s->lo, "%s", lo_name);
            snprintf(s->hi, sizeof s->hi, "%s", hi_name);
        }
    }
    if (self->search_hit) {
        s = add_step(self, &n, STEP_RESULT, 0, self->search_point);
        set_span(s, self->search_point, self->exact_hit ? self->exact_point : self->search_point);
    }
    return n;
}

/* The cutaway for the last ray: the samples nearer the camera's side than
   one cell behind the vertical plane through the ray go down to the lowest
   height, the rest stay. The renderer keeps a mesh per heights pointer:
   the version tells it the heights changed. */
static void make_cutaway(lesson4 *self)
{
    int cols = self->mesh.data.cols, rows = self->mesh.data.rows;
    if (!self->cut_heights)
        self->cut_heights = malloc(sizeof(float) * (size_t)cols * (size_t)rows);
    if (!self->cut_heights)
        return;     /* no cutaway: step mode shows the whole terrain */
    vec2 h = {self->ray.dir[0], self->ray.dir[2]};
    if (glm_vec2_norm(h) < 1e-6f * glm_vec3_norm(self->ray.dir))
        glm_vec2_copy((vec2){0.0f, -1.0f}, h);
    glm_vec2_normalize(h);
    glm_vec3_copy((vec3){-h[1], 0.0f, h[0]}, self->cut_side);
    float lo, hi;
    rp_heightmap_height_range(self->map, &lo, &hi);
    float keep_behind = -self->mesh.data.spacing;
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) {
            float x = self->mesh.data.origin[0] + (float)c * self->mesh.data.spacing - self->ray.origin[0];
            float z = self->mesh.data.origin[2] + (float)r * self->mesh.data.spacing - self->ray.origin[2];
            float d = x * self->cut_side[0] + z * self->cut_side[2];
            self->cut_heights[r * cols + c] = d > keep_behind ? lo : self->mesh.data.heights[r * cols + c];
        }
    uint32_t version = self->cut_mesh.version + 1;
    self->cut_mesh = self->mesh.data;
    self->cut_mesh.heights = self->cut_heights;
    self->cut_mesh.version = version;
    self->cut_valid = true;
}

static void click(void *self_, const lesson_click *c, lesson_pick *out)
{
    lesson4 *self = self_;
    lesson_pick_miss(out, &c->ray, self->mode == MODE_SEARCH ? "search" : "exact");
    self->has_ray = true;
    self->ray = c->ray;
    glm_vec3_copy((float *)c->ray.origin, self->ray_start);
    rp_ray_at(&c->ray, 1.0f, self->ray_end);    /* unproject: t = 1 is the far plane */

    memset(&self->trace, 0, sizeof self->trace);
    self->trace.linear = self->linear;
    self->trace.linear_cap = TRACE_CAP;
    self->trace.binary = self->binary;
    self->trace.binary_cap = TRACE_CAP;

    /* both methods run: the HUD compares them */
    self->linear_used = linear_choices[self->linear_choice];
    rp_hit search, exact;
    self->search_hit = rp_heightmap_pick_search_hit(self->map, &c->ray, self->linear_used, ACCURACY, &self->trace, &search);
    self->exact_hit = rp_intersect_ray_heightmap(self->map, &c->ray, &exact);
    if (self->search_hit) {
        glm_vec3_copy(search.point, self->search_point);
        self->search_t = search.t;
    }
    if (self->exact_hit) {
        glm_vec3_copy(exact.point, self->exact_point);
        self->exact_t = exact.t;
    }

    bool hit = self->mode == MODE_SEARCH ? self->search_hit : self->exact_hit;
    self->has_marker = hit;
    if (hit)
        glm_vec3_copy(self->mode == MODE_SEARCH ? self->search_point : self->exact_point, self->marker);

    self->has_exact_ghost = false;
    if (self->search_hit && self->exact_hit) {
        float d = glm_vec3_distance((float *)self->search_point, (float *)self->exact_point);
        self->has_exact_ghost = self->mode == MODE_SEARCH && d > 0.25f;
        glm_vec3_copy(self->exact_point, self->exact_ghost);
        snprintf(self->last, sizeof self->last, d > 0.25f ? "search and exact differ by %.2f: the steps skipped something"
                                                  : "search and exact agree within %.3f", (double)d);
    } else {
        snprintf(self->last, sizeof self->last, "search: %s   exact: %s", self->search_hit ? "hit" : "miss",
                 self->exact_hit ? "hit" : "miss");
        self->has_exact_ghost = self->mode == MODE_SEARCH && self->exact_hit;
        if (self->exact_hit)
            glm_vec3_copy(self->exact_point, self->exact_ghost);
    }
    lesson_stepper_restart(&self->stepper, record_steps(self));
    /* a copy of the heights per click only in step mode (maps can be big) */
    self->cut_valid = false;
    if (self->stepper.on)
        make_cutaway(self);

    snprintf(out->note, sizeof out->note, "%s", self->last);
    lesson_pick_int(out, "linear_steps", self->linear_used);
    lesson_pick_int(out, "linear_samples", self->trace.linear_count);
    lesson_pick_int(out, "binary_steps", self->trace.binary_count);
    lesson_pick_bool(out, "search_hit", self->search_hit);
    lesson_pick_bool(out, "exact_hit", self->exact_hit);
    if (self->search_hit) {
        lesson_pick_vec3(out, "search_point", self->search_point, 7);
        lesson_pick_float(out, "search_t", self->search_t, 7);
    }
    if (self->exact_hit) {
        lesson_pick_vec3(out, "exact_point", self->exact_point, 7);
        lesson_pick_float(out, "exact_t", self->exact_t, 7);
    }
    if (self->search_hit && self->exact_hit)
        lesson_pick_float(out, "methods_apart", glm_vec3_distance((float *)self->search_point, (float *)self->exact_point), 4);
    if (!hit)
        return;
    out->hit = true;
    out->id = 0;
    snprintf(out->what, sizeof out->what, "terrain");
    glm_vec3_copy(self->marker, out->point);
    out->t = self->mode == MODE_SEARCH ? self->search_t : self->exact_t;
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
    steady_quatv(GLM_PIf, (vec3){1, 0, 0}, down);
    lesson_model(tip, down, (vec3){0.3f, 0.6f, 0.3f}, m);
    render_list_shape(list, RENDER_CONE, m, (vec4){1.0f, 0.3f, 0.2f, 1.0f}, (vec3){0.35f, 0.05f, 0.0f});
    lesson_model(p, NULL, (vec3){0.55f, 0.55f, 0.55f}, m);
    render_list_shape(list, RENDER_TORUS, m, (vec4){1.0f, 0.85f, 0.3f, 1.0f}, (vec3){0.3f, 0.2f, 0.0f});
}

/* ---- step mode's drawing: the recipe's figures, large ---- */

/* A sample with its drop to the ground: green above, red below. */
static void draw_sample(render_list *list, const lesson4 *self, const vec3 p, float size, const vec4 color,
                        const char *label)
{
    render_list_point(list, p, size, color);
    float ground;
    const float *label_at = p;
    vec3 g;
    if (rp_heightmap_height_at(self->map, p[0], p[2], &ground)) {
        glm_vec3_copy((vec3){p[0], ground, p[2]}, g);
        vec4 drop = {0.3f, 1.0f, 0.4f, 0.95f};
        if (p[1] < ground) {
            /* the terrain hides a point under it: show where it is, on the
               ground above it, with the red drop going down into it */
            glm_vec4_copy((vec4){1.0f, 0.3f, 0.25f, 0.95f}, drop);
            render_list_point(list, g, size * 0.7f, drop);
            if (!self->framed)
                label_at = g;   /* the whole terrain hides the point: label the ground above it */
        }
        render_list_line(list, p, g, drop);
    }
    if (label)
        lesson_list_label(list, label_at, label, 16.0f, color);
}

/* The ground under the ray along [a, b] widened by half on each side, as a
   line just above the surface: the recipe's terrain profile. */
static void draw_profile(render_list *list, const lesson4 *self, const vec3 a, const vec3 b)
{
    enum { N = 96 };
    vec3 prev = {0};
    bool has_prev = false;
    float lift = 0.004f * glm_max(glm_vec3_distance((float *)a, (float *)b), FRAME_MIN);
    for (int i = 0; i <= N; ++i) {
        float f = -0.5f + 2.0f * (float)i / N;
        vec3 p;
        glm_vec3_lerp((float *)a, (float *)b, f, p);
        bool ok = rp_heightmap_height_at(self->map, p[0], p[2], &p[1]);
        p[1] += lift;
        if (ok && has_prev)
            render_list_line(list, prev, p, (vec4){1.0f, 0.85f, 0.25f, 1.0f});
        glm_vec3_copy(p, prev);
        has_prev = ok;
    }
}

static void draw_steps(const lesson4 *self, render_list *list)
{
    const search_step *cur = &self->steps[self->stepper.current];
    const vec4 cyan = {0.3f, 0.85f, 1.0f, 1.0f}, pink = {1.0f, 0.4f, 0.95f, 1.0f};
    const vec4 now = {1.0f, 1.0f, 0.45f, 1.0f};
    float len = glm_max(glm_vec3_distance((float *)cur->span_a, (float *)cur->span_b), FRAME_MIN);
    render_list_line(list, self->ray_start, self->ray_end, (vec4){1.0f, 1.0f, 1.0f, 0.5f});
    draw_profile(list, self, cur->span_a, cur->span_b);
    if (!self->trace.clipped)
        return;
    render_list_beam(list, cur->span_a, cur->span_b, 0.012f * len, (vec4){0.3f, 0.8f, 1.0f, 0.8f});
    /* the linear samples up to this step (A and B at the clip) */
    int nl = glm_min(self->trace.linear_count, TRACE_CAP);
    int last_linear = cur->kind == STEP_CLIP ? 0 : cur->kind == STEP_LINEAR ? cur->number : nl - 1;
    bool label_all = nl <= 31;
    char name[12];
    for (int i = 0; i <= last_linear && i < nl; ++i) {
        bool current = cur->kind == STEP_LINEAR && i == cur->number;
        linear_name(self, i, name, sizeof name);
        bool labelled = label_all || current || i == 0 || i == last_linear || i == last_linear - 1;
        draw_sample(list, self, self->linear[i], current ? 18.0f : 10.0f, current ? now : cyan, labelled ? name : NULL);
    }
    if (cur->kind == STEP_CLIP) {
        draw_sample(list, self, self->trace.clip_end, 10.0f, cyan, "B");
        draw_sample(list, self, self->trace.clip_start, 18.0f, now, NULL);
    }
    /* the halvings up to this step, numbered as in the recipe */
    int nb = glm_min(self->trace.binary_count, BINARY_CAP);
    int last_binary = cur->kind == STEP_BINARY ? cur->number : cur->kind == STEP_RESULT ? nb : 0;
    for (int j = 1; j <= last_binary; ++j) {
        bool current = cur->kind == STEP_BINARY && j == cur->number;
        snprintf(name, sizeof name, "%d", j);
        draw_sample(list, self, self->binary[j - 1], current ? 18.0f : 11.0f, current ? now : pink, name);
    }
    if (cur->kind == STEP_RESULT) {
        render_list_point(list, self->search_point, 18.0f, now);
        if (self->exact_hit)
            render_list_point(list, self->exact_point, 18.0f, (vec4){1.0f, 1.0f, 1.0f, 0.95f});
    }
}

static void draw(const void *self_, render_list *list)
{
    const lesson4 *self = self_;
    bool cut = self->framed && self->cut_valid && lesson_stepper_active(&self->stepper);
    render_list_terrain(list, cut ? &self->cut_mesh : &self->mesh.data);
    if (self->has_marker && (!lesson_stepper_active(&self->stepper) ||
                             self->steps[self->stepper.current].kind == STEP_RESULT))
        draw_marker(list, &self->mesh, self->marker);
    if (!self->has_ray)
        return;
    if (lesson_stepper_active(&self->stepper)) {
        draw_steps(self, list);
        return;
    }
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

/* The current step in words: the point, the height under it, the side. */
static void step_text(const lesson4 *self, char *buf, size_t size)
{
    const search_step *s = &self->steps[self->stepper.current];
    char label[32];
    lesson_stepper_label(&self->stepper, label, sizeof label);
    float err = s->point[1] - s->ground;
    const char *side = err >= 0.0f ? "above" : "below";
    float t = t_along(&self->ray, s->point);
    switch (s->kind) {
    case STEP_CLIP:
        if (!self->trace.clipped)
            snprintf(buf, size, "%s  ClipRay: the ray misses the height band over the map: nothing to search", label);
        else
            snprintf(buf, size, "%s  ClipRay: A at y %.2f (t %.5f) to B at y %.2f (t %.5f)\n  A is %.2f %s the ground",
                     label, (double)self->trace.clip_start[1], (double)t, (double)self->trace.clip_end[1],
                     (double)t_along(&self->ray, self->trace.clip_end), (double)fabsf(err), side);
        break;
    case STEP_LINEAR:
        if (s->crossed)
            snprintf(buf, size, "%s  linear point %d of %d: y %.3f, ground %.3f: %.3f %s\n"
                     "  -> the crossing is between %s and %s: binary search there", label, s->number,
                     self->linear_used, (double)s->point[1], (double)s->ground, (double)fabsf(err), side, s->lo, s->hi);
        else
            snprintf(buf, size, "%s  linear point %d of %d: y %.3f, ground %.3f: %.3f %s -> walk on", label,
                     s->number, self->linear_used, (double)s->point[1], (double)s->ground, (double)fabsf(err), side);
        break;
    case STEP_BINARY:
        snprintf(buf, size, "%s  binary point %d: t %.5f, y %.3f, ground %.3f: %.4f %s\n  -> %s", label, s->number,
                 (double)t, (double)s->point[1], (double)s->ground, (double)fabsf(err), side,
                 fabsf(err) < ACCURACY ? "within 0.01 of the ground: found" : "");
        if (fabsf(err) >= ACCURACY) {
            size_t used = strlen(buf);
            snprintf(buf + used, size - used, "the crossing is between %s and %s", s->lo, s->hi);
        }
        break;
    case STEP_RESULT:
        if (self->exact_hit)
            snprintf(buf, size, "%s  found: t %.5f (%.2f, %.2f, %.2f); exact: t %.5f, %.3f apart", label,
                     (double)self->search_t, (double)s->point[0], (double)s->point[1], (double)s->point[2],
                     (double)self->exact_t, (double)glm_vec3_distance((float *)self->search_point, (float *)self->exact_point));
        else
            snprintf(buf, size, "%s  found: t %.5f (%.2f, %.2f, %.2f); exact: miss", label, (double)self->search_t,
                     (double)s->point[0], (double)s->point[1], (double)s->point[2]);
        break;
    }
}

static void status(const void *self_, char *buf, size_t size)
{
    const lesson4 *self = self_;
    int k = snprintf(buf, size, "method: %s (M)   linear steps: %d (L)\n%s\n",
                     self->mode == MODE_SEARCH ? "XNA recipe's search (linear + binary steps)" : "exact: first triangle hit",
                     linear_choices[self->linear_choice], self->last);
    if (k < 0 || (size_t)k >= size)
        return;
    buf += k;
    size -= (size_t)k;
    if (!self->stepper.on) {
        snprintf(buf, size, "cyan: clipped ray, linear steps   pink: binary steps   white: exact hit\n"
                 "P: step through the search");
    } else if (!lesson_stepper_active(&self->stepper)) {
        snprintf(buf, size, "step mode (P): click the terrain, then . next  , previous");
    } else {
        k = snprintf(buf, size, "step mode (P)  . next  , previous   camera: %s (Z)\n",
                     self->framed ? "frames the step" : "free");
        if (k > 0 && (size_t)k < size)
            step_text(self, buf + k, size - (size_t)k);
    }
}

/* Step mode's camera: from the side of the ray, a little above, showing
   the step's stretch of ray, on the side where the terrain is lower (less
   of it in front). */
static bool frame(const void *self_, lesson_camera *out)
{
    const lesson4 *self = self_;
    if (!self->framed || !lesson_stepper_active(&self->stepper))
        return false;
    const search_step *s = &self->steps[self->stepper.current];
    float len = glm_max(glm_vec3_distance((float *)s->span_a, (float *)s->span_b), FRAME_MIN);
    vec3 mid;
    glm_vec3_center((float *)s->span_a, (float *)s->span_b, mid);
    /* square to the ray, on the cutaway's open side, nearly level: the
       recipe's figures are such side views */
    out->yaw = atan2f(self->cut_side[0], self->cut_side[2]);
    out->pitch = 0.12f;
    out->fov = 0.7853982f;
    out->distance = 1.5f * len;
    /* the span a little right of and below the centre: the HUD is top left */
    vec3 right = {steady_cosf(out->yaw), 0.0f, -steady_sinf(out->yaw)};
    glm_vec3_copy(mid, out->target);
    glm_vec3_muladds(right, -0.16f * len, out->target);
    out->target[1] += 0.2f * len;
    return true;
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
    .keys = "left click  put the marker on the terrain\n"
            "M  XNA recipe's search / exact method\n"
            "L  linear steps: 1 (binary search alone) / 8 / 30 / 300\n"
            "Z  step mode's camera: frames the step / free\n"
            LESSON_STEP_KEYS,
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
    .frame = frame,
};

/*
 * Lesson 4: picking a point on a heightmap terrain (the XNA terrain-picking recipe).
 *
 * A click puts a marker where the pick ray meets the terrain. In search
 * mode the recipe's own method runs, ported to C under its names
 * (listings/lesson4_xna_recipe.c: GetPointerRay, ClipRay, LinearSearch,
 * BinarySearch): clip the ray to the terrain's height band, walk it in
 * equal steps until a point lies below the ground, then halve the last
 * step while the height error (currentError) exceeds the accuracy. Its
 * mistakes are kept: a ray that misses the terrain never ends a loop (the
 * lesson stops it and says so), ClipRay divides by the ray's height
 * change. M switches to the exact method (the library's first triangle
 * the ray meets); L cycles the linear step count (1 = BinarySearch alone,
 * 8, 30, 300). The default map has a spire with a 1 x 1 top: 30 steps
 * land on it, 8 stride over it (the recipe's figure 5-20).
 *
 * Step mode (P, then '.' and ','): the listing's steps one at a time,
 * each lighting its line in the code panel with its variables, drawn
 * large from the side through a cutaway of the terrain (the camera frames
 * the step: lesson->frame; Z frees it), and as the recipe's ray profile in
 * the inset (lesson->figure). The tour (O) stages the recipe's case, its
 * mistakes and the fix.
 */
#include "lesson.h"
#include "heightmap_file.h"
#include "lesson4_xna_recipe.h"
#include "msg.h"
#include "terrain_mesh.h"
#include "steady_math.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAP_SIZE 97             /* samples per side */
#define MAP_SPACING 0.5f
#define MAP_HEIGHT 7.0f
#define ACCURACY 0.01f          /* the recipe's */
#define STEP_CAP 1024           /* >= every step of the longest run: 2 x 300 linear turns, 48 halvings */
#define SPIRE_COL 52
#define SPIRE_ROW 62
#define SPIRE_HALF 1            /* the top is (2 * SPIRE_HALF + 1)^2 samples: 1 x 1 units */
#define SPIRE_HEIGHT 9.0f
#define FRAME_MIN 3.0f          /* the framing camera shows at least this much ray (world units) */
#define LABEL_PX 16.0f          /* the labels' height on screen */
#define TEXT(id) msg("lesson.terrain-picking." id)
#define STEP_ID(name) "lesson.terrain-picking.step." name

/* The linear step counts L cycles through: 1 is the recipe's binary search
   alone (figures 5-19 and 5-20), 8 its figure 5-21, 30 the least its text
   asks for, 300 its code. */
static const int linear_choices[] = {1, 8, 30, 300};
#define LINEAR_CHOICES ((int)(sizeof linear_choices / sizeof linear_choices[0]))
#define LINEAR_DEFAULT 2        /* 30 */

typedef enum terrain_mode { MODE_SEARCH, MODE_EXACT } terrain_mode;

/* What a recorded step of the listing is, for drawing it. */
typedef enum step_kind {
    K_UNPROJECT,        /* GetPointerRay: near and far points */
    K_RAY,              /* GetPointerRay: the ray */
    K_CLIP,             /* ClipRay: A and B */
    K_DIVIDE,           /* LinearSearch: the step */
    K_LINEAR,           /* LinearSearch: a point above the ground, walk on */
    K_BOUND,            /* the lesson stopped a loop */
    K_SHORTER,          /* LinearSearch returned: the step across the ground */
    K_BINARY_START,     /* BinarySearch: currentError at the start */
    K_BINARY,           /* BinarySearch: one halving */
    K_BINARY_ERROR,     /* BinarySearch: moved, the new currentError */
    K_FOUND             /* pointerPos */
} step_kind;

static const struct {
    const char *id;
    step_kind kind;
} step_kinds[] = {
    {STEP_ID("unproject"), K_UNPROJECT},     {STEP_ID("pointer-ray"), K_RAY},
    {STEP_ID("clip"), K_CLIP},               {STEP_ID("clip-up"), K_CLIP},
    {STEP_ID("clip-level"), K_CLIP},         {STEP_ID("linear-divide"), K_DIVIDE},
    {STEP_ID("linear"), K_LINEAR},           {STEP_ID("linear-past-b"), K_LINEAR},
    {STEP_ID("linear-bound"), K_BOUND},      {STEP_ID("shorter-ray"), K_SHORTER},
    {STEP_ID("binary-start"), K_BINARY_START}, {STEP_ID("binary-above"), K_BINARY},
    {STEP_ID("binary-below"), K_BINARY},     {STEP_ID("binary-error"), K_BINARY_ERROR},
    {STEP_ID("binary-bound"), K_BOUND},      {STEP_ID("found"), K_FOUND},
};

/* A recorded step as the 3D view and the inset draw it: its point on the
   ray (the point it tests), the ground there, and the stretch of the ray
   (t along the pointer ray) the camera and the inset show. */
typedef struct step_view {
    step_kind kind;
    int turn;               /* LinearSearch's point number, BinarySearch's halving */
    bool has_point;
    vec3 point;
    float t;                /* point's t along the pointer ray */
    float ground;           /* GetExactHeightAt(point): -inf off the map */
    float span_t0, span_t1; /* what the camera frames */
    float near_t0, near_t1; /* what the inset shows: the span, or the bracket BinarySearch halves */
} step_view;

typedef struct lesson4 {
    rp_heightmap *map;
    terrain_mesh mesh;          /* what the renderer draws: the map's own heights, decimated when large */
    float height_scale;         /* world height of white (a loaded map) */
    float lowest, highest;      /* the map's height band (ClipRay's) */
    terrain_mode mode;
    int linear_choice;          /* index into linear_choices */
    bool framed;                /* step mode: the camera frames the step (Z) */
    lesson_stepper stepper;
    bool has_spire;
    vec3 spire_base, spire_top;
    /* the last click: both methods ran on the listing's pointer ray */
    bool has_ray;
    rp_ray ray;
    vec3 ray_start, ray_end;    /* near and far point */
    bool search_hit, search_stopped, exact_hit;
    vec3 search_point, exact_point;
    float search_t, exact_t;
    int linear_used;            /* the step count of the last click */
    int linear_samples, binary_steps;
    bool clipped;               /* ClipRay gave finite A and B */
    float clip_t0, clip_t1;     /* A and B along the pointer ray */
    listing_trace trace;
    listing_step steps[STEP_CAP];
    step_view views[STEP_CAP];
    /* step mode's cutaway: the terrain with everything between the framing
       camera and the ray lowered to the floor, so the steps are seen from
       the side like the recipe's figures */
    float *cut_heights;
    render_terrain_data cut_mesh;
    bool cut_valid;             /* cut_mesh is for the last click's ray */
    vec3 cut_side;              /* horizontal, toward the camera, across the ray */
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

/* --heightmap's header read, and the size it gives within the library's
   limits and the memory the demo allows; false with the message in env. */
static bool header_fits(const lesson_env *env, heightmap_file_info *info)
{
    const char *path = env->heightmap_path;
    return heightmap_file_probe(path, info, env->err, env->err_size) &&
           heightmap_file_fits(path, info, env->load_limit > 0 ? env->load_limit : HEIGHTMAP_FILE_BUDGET,
                               env->err, env->err_size);
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
    if (!header_fits(env, &info))
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

/* --heightmap's header, before any window (lesson.check_files): a file
   that cannot be opened, lies about its size or is too large for the demo
   is refused here; one whose pixels fail to decode, in create(). */
static bool check_files(const lesson_env *env)
{
    const char *path = env->heightmap_path;
    if (!path)
        return true;
    heightmap_file_info info;
    if (!header_fits(env, &info))
        return false;
    if (info.known)
        return true;
    /* none of the four headers: the library's own answer, which for a
       file that is no image comes from its first bytes */
    rp_heightmap *image = rp_heightmap_load(path, 1.0f, 1.0f, (vec3){0.0f, 0.0f, 0.0f}, env->err, env->err_size);
    const bool readable = image != NULL;
    rp_heightmap_destroy(image);
    return readable;
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
    rp_heightmap_height_range(self->map, &self->lowest, &self->highest);
    self->mode = MODE_SEARCH;
    self->linear_choice = LINEAR_DEFAULT;
    self->framed = true;
    listing_trace_reset(&self->trace, self->steps, STEP_CAP);
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
    return LESSON_PICK_UNPROJECT;   /* XNA's GetPointerRay, as in the recipe */
}

/* ------------------------------------------------------------ click */

/* t of point p along ray (in units of ray.dir: the pointer ray's far
   point is t = 1) */
static float t_along(const rp_ray *ray, const vec3 p)
{
    vec3 d;
    glm_vec3_sub((float *)p, (float *)ray->origin, d);
    return glm_vec3_dot(d, (float *)ray->dir) / glm_vec3_dot((float *)ray->dir, (float *)ray->dir);
}

/* how many t units one world unit along the ray is */
static float t_per_unit(const rp_ray *ray)
{
    return 1.0f / glm_vec3_norm((float *)ray->dir);
}

static step_kind kind_of(const listing_step *s)
{
    for (size_t i = 0; i < sizeof step_kinds / sizeof step_kinds[0]; ++i)
        if (strcmp(step_kinds[i].id, s->msg_id) == 0)
            return step_kinds[i].kind;
    return K_BOUND;     /* not reached: every id the listing records is above */
}

/* A vec3 watch of step s, or false. */
static bool watch_v3(const listing_step *s, const char *name, vec3 out)
{
    const listing_watch *w = listing_step_watch(s, name);
    if (!w || w->kind != LISTING_WATCH_VEC3)
        return false;
    glm_vec3_copy((float *)w->v, out);
    return true;
}

static float watch_f(const listing_step *s, const char *name, float fallback)
{
    const listing_watch *w = listing_step_watch(s, name);
    return w && w->kind == LISTING_WATCH_FLOAT ? w->v[0] : fallback;
}

static int watch_i(const listing_step *s, const char *name)
{
    const listing_watch *w = listing_step_watch(s, name);
    return w && w->kind == LISTING_WATCH_INT ? w->i : 0;
}

static void set_point(const lesson4 *self, step_view *v, const vec3 p, float ground)
{
    v->has_point = isfinite(p[0]) && isfinite(p[1]) && isfinite(p[2]);
    glm_vec3_copy((float *)p, v->point);
    v->ground = ground;
    v->t = v->has_point ? t_along(&self->ray, p) : 0.0f;
}

/* [t0, t1] widened around its centre to at least `least` */
static void widen(float t0, float t1, float least, float *out0, float *out1)
{
    float lo = glm_min(t0, t1), hi = glm_max(t0, t1);
    if (hi - lo < least) {
        float mid = 0.5f * (lo + hi);
        lo = mid - 0.5f * least;
        hi = mid + 0.5f * least;
    }
    *out0 = lo;
    *out1 = hi;
}

/* What each recorded step shows: its point, the ground under it, and the
   stretch of ray to frame. The binary steps keep at least an eighth of the
   step LinearSearch returned (and FRAME_MIN) in view, so the camera stops
   zooming where the halvings get too small to see: the inset zooms on. */
static void build_views(lesson4 *self)
{
    float least = FRAME_MIN * t_per_unit(&self->ray);
    /* ClipRay's A and B first: the GetPointerRay steps frame them too (the
       far point lies far beyond anything the recipe looks at) */
    self->clipped = false;
    for (int i = 0; i < self->trace.count && !self->clipped; ++i) {
        vec3 a, b;
        if (kind_of(&self->steps[i]) == K_CLIP && watch_v3(&self->steps[i], "pointA", a) &&
            watch_v3(&self->steps[i], "pointB", b) && isfinite(a[0] + a[1] + a[2]) && isfinite(b[0] + b[1] + b[2])) {
            self->clipped = true;
            self->clip_t0 = t_along(&self->ray, a);
            self->clip_t1 = t_along(&self->ray, b);
        }
    }
    float span0 = self->clipped ? glm_min(self->clip_t0, self->clip_t1) : 0.0f;
    float span1 = self->clipped ? glm_max(self->clip_t0, self->clip_t1) : 1.0f;
    float pos_t = 0.0f;                 /* BinarySearch's ray.Position */
    float near0 = 0.0f, near1 = 1.0f;   /* the inset's stretch */
    bool zoomed = false;
    self->linear_samples = self->binary_steps = 0;
    int linear_tested = 0;
    for (int i = 0; i < self->trace.count; ++i) {
        const listing_step *s = &self->steps[i];
        step_view *v = &self->views[i];
        memset(v, 0, sizeof *v);
        v->kind = kind_of(s);
        v->turn = watch_i(s, "turn");
        vec3 p, d;
        switch (v->kind) {
        case K_UNPROJECT:
        case K_RAY:
            break;
        case K_CLIP:
            if (self->clipped && watch_v3(s, "pointA", p))
                set_point(self, v, p, GetExactHeightAt(self->map, p[0], p[2]));
            break;
        case K_DIVIDE:
            break;
        case K_LINEAR:
            if (watch_v3(s, "nextPoint", p))
                set_point(self, v, p, watch_f(s, "heightAtNextPoint", -INFINITY));
            ++linear_tested;
            if (v->has_point) {
                span0 = glm_min(span0, v->t);
                span1 = glm_max(span1, v->t);
            }
            break;
        case K_BOUND:
            break;
        case K_SHORTER:
            ++linear_tested;
            /* the step across the ground: its far end is the first point below */
            if (watch_v3(s, "shorterRay.Position", p) && watch_v3(s, "shorterRay.Direction", d)) {
                vec3 end;
                glm_vec3_add(p, d, end);
                set_point(self, v, end, GetExactHeightAt(self->map, end[0], end[2]));
                /* framed: the whole walk (the binary steps zoom in) */
                pos_t = t_along(&self->ray, p);
                least = glm_max(least, fabsf(v->t - pos_t) / 8.0f);
                v->span_t0 = span0 = glm_min(span0, glm_min(pos_t, v->t));
                v->span_t1 = span1 = glm_max(span1, glm_max(pos_t, v->t));
                v->near_t0 = span0;
                v->near_t1 = span1;
                widen(pos_t, v->t, least, &span0, &span1);
                near0 = glm_min(pos_t, v->t);
                near1 = glm_max(pos_t, v->t);
                zoomed = true;
                continue;
            }
            break;
        case K_BINARY_START:
            if (watch_v3(s, "ray.Position", p))
                set_point(self, v, p, watch_f(s, "heightAtStartingPoint", -INFINITY));
            break;
        case K_BINARY:
            ++self->binary_steps;
            if (watch_v3(s, "nextPoint", p)) {
                set_point(self, v, p, watch_f(s, "heightAtNextPoint", -INFINITY));
                float step_t = v->t - pos_t;
                /* the crossing lies in [next, next + step] above the ground, else in [position, next] */
                float lo = v->point[1] > v->ground ? v->t : pos_t, hi = v->point[1] > v->ground ? v->t + step_t : v->t;
                widen(lo, hi, least, &span0, &span1);
                /* the inset: the bracket and as much again on each side, down to
                   float's resolution of t */
                widen(lo, hi, glm_max(3.0f * fabsf(hi - lo), 64.0f * FLT_EPSILON * fabsf(hi)), &near0, &near1);
            }
            break;
        case K_BINARY_ERROR:
            if (watch_v3(s, "ray.Position", p)) {
                set_point(self, v, p, p[1] - watch_f(s, "currentError", 0.0f));
                pos_t = v->t;
            }
            break;
        case K_FOUND:
            if (watch_v3(s, "pointerPos", p))
                set_point(self, v, p, watch_f(s, "GetExactHeightAt", -INFINITY));
            break;
        }
        v->span_t0 = span0;
        v->span_t1 = span1;
        v->near_t0 = zoomed ? near0 : span0;
        v->near_t1 = zoomed ? near1 : span1;
    }
    /* A and every point LinearSearch tested (A and B for BinarySearch alone) */
    self->linear_samples = self->linear_used > 1 ? 1 + linear_tested : 2;
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

/* The pick as it stands: the mode's answer, both methods' points in the
   report (a key may change the mode after the click: pick()). */
static void fill_pick(const lesson4 *self, lesson_pick *out)
{
    lesson_pick_miss(out, &self->ray, self->mode == MODE_SEARCH ? "search" : "exact");
    if (!self->has_ray)
        return;
    if (self->search_stopped)
        snprintf(out->note, sizeof out->note, "%s", TEXT("note.stopped"));
    else if (self->search_hit && self->exact_hit)
        snprintf(out->note, sizeof out->note,
                 glm_vec3_distance((float *)self->search_point, (float *)self->exact_point) > 0.25f
                     ? TEXT("note.differ") : TEXT("note.agree"),
                 (double)glm_vec3_distance((float *)self->search_point, (float *)self->exact_point));
    lesson_pick_int(out, "linear_steps", self->linear_used);
    lesson_pick_int(out, "linear_samples", self->linear_samples);
    lesson_pick_int(out, "binary_steps", self->binary_steps);
    lesson_pick_bool(out, "search_hit", self->search_hit);
    lesson_pick_bool(out, "search_stopped", self->search_stopped);
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
    bool hit = self->mode == MODE_SEARCH ? self->search_hit : self->exact_hit;
    if (!hit)
        return;
    out->hit = true;
    out->id = 0;
    snprintf(out->what, sizeof out->what, "terrain");
    glm_vec3_copy(self->mode == MODE_SEARCH ? (float *)self->search_point : (float *)self->exact_point, out->point);
    out->t = self->mode == MODE_SEARCH ? self->search_t : self->exact_t;
}

/* The recipe's context for a click: the terrain, the click's viewport
   and matrices, the height band, L and the lesson's bounds. */
static Recipe recipe_for(lesson4 *self, const lesson_click *c, listing_trace *trace)
{
    Recipe r = {.terrain = self->map, .viewport = c->viewport, .highest = self->highest,
                .lowest = self->lowest, .linearSteps = self->linear_used,
                .linearBound = RECIPE_LINEAR_BOUND(self->linear_used), .binaryBound = RECIPE_BINARY_BOUND,
                .trace = trace};
    glm_mat4_copy((vec4 *)c->proj, r.projection);
    glm_mat4_copy((vec4 *)c->view, r.view);
    return r;
}

static void click(void *self_, const lesson_click *c, lesson_pick *out)
{
    lesson4 *self = self_;
    self->linear_used = linear_choices[self->linear_choice];
    self->search_hit = self->search_stopped = self->exact_hit = false;
    listing_trace_reset(&self->trace, self->steps, STEP_CAP);
    self->has_ray = false;
    self->ray = c->ray;

    /* the recipe's own pointer ray (the app's is the library's
       GetPointerRay, rp_pick_ray_unproject: the same numbers) */
    listing_trace quiet;
    listing_trace_reset(&quiet, NULL, 0);
    Recipe r = recipe_for(self, c, &quiet);
    Vector2 pointer = {c->px, c->py};
    Ray pointerRay = GetPointerRay(&r, pointer);
    rp_ray ray = {{pointerRay.Position.X, pointerRay.Position.Y, pointerRay.Position.Z},
                  {pointerRay.Direction.X, pointerRay.Direction.Y, pointerRay.Direction.Z}};
    self->has_ray = isfinite(ray.origin[0] + ray.origin[1] + ray.origin[2]) &&
                    isfinite(ray.dir[0] + ray.dir[1] + ray.dir[2]) && glm_vec3_norm2(ray.dir) > 0.0f;
    if (self->has_ray) {
        self->ray = ray;
        glm_vec3_copy(ray.origin, self->ray_start);
        rp_ray_at(&ray, 1.0f, self->ray_end);

        /* the recipe, recorded step by step */
        r = recipe_for(self, c, &self->trace);
        Vector3 p = UpdatePointerPos(&r, pointer);
        vec3 point = {p.X, p.Y, p.Z};
        self->search_stopped = self->trace.stopped;
        self->search_hit = !self->search_stopped && isfinite(p.X + p.Y + p.Z);
        if (self->search_hit) {
            glm_vec3_copy(point, self->search_point);
            self->search_t = t_along(&self->ray, point);
        }
        /* the exact method on the same ray */
        rp_hit exact;
        self->exact_hit = rp_intersect_ray_heightmap(self->map, &self->ray, &exact);
        if (self->exact_hit) {
            glm_vec3_copy(exact.point, self->exact_point);
            self->exact_t = exact.t;
        }
        build_views(self);
    }
    lesson_stepper_restart(&self->stepper, self->has_ray ? self->trace.count : 0);
    /* a copy of the heights per click only in step mode (maps can be big) */
    self->cut_valid = false;
    if (self->stepper.on && self->has_ray)
        make_cutaway(self);
    fill_pick(self, out);
}

static bool pick(const void *self_, lesson_pick *out)
{
    const lesson4 *self = self_;
    if (!self->has_ray)
        return false;
    fill_pick(self, out);
    return true;
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

static const vec4 CYAN = {0.3f, 0.85f, 1.0f, 1.0f}, PINK = {1.0f, 0.4f, 0.95f, 1.0f};
static const vec4 NOW = {1.0f, 1.0f, 0.45f, 1.0f}, GOLD = {1.0f, 0.8f, 0.2f, 1.0f};
static const vec4 WHITE = {1.0f, 1.0f, 1.0f, 0.95f}, PROFILE = {1.0f, 0.85f, 0.25f, 1.0f};
static const vec4 ABOVE = {0.3f, 1.0f, 0.4f, 0.95f}, BELOW = {1.0f, 0.3f, 0.25f, 0.95f};

/* A sample with its drop to the ground: green above, red below (the
   terrain hides a point under it: its place on the ground is marked). */
static void draw_sample(render_list *list, const step_view *v, float size, const vec4 color)
{
    render_list_point(list, v->point, size, color);
    if (!isfinite(v->ground))
        return;
    vec3 g = {v->point[0], v->ground, v->point[2]};
    bool below = v->point[1] < v->ground;
    if (below)
        render_list_point(list, g, size * 0.7f, BELOW);
    render_list_line(list, v->point, g, below ? BELOW : ABOVE);
}

/* The ground under the ray along t in [t0, t1] widened by half on each
   side, as a line just above the surface: the recipe's terrain profile. */
static void draw_profile(render_list *list, const lesson4 *self, float t0, float t1)
{
    enum { N = 96 };
    vec3 prev = {0};
    bool has_prev = false;
    float lift = 0.004f * glm_max((t1 - t0) / t_per_unit(&self->ray), FRAME_MIN);
    for (int i = 0; i <= N; ++i) {
        vec3 p;
        rp_ray_at(&self->ray, t0 + (t1 - t0) * (-0.5f + 2.0f * (float)i / N), p);
        bool ok = rp_heightmap_height_at(self->map, p[0], p[2], &p[1]);
        p[1] += lift;
        if (ok && has_prev)
            render_list_line(list, prev, p, PROFILE);
        glm_vec3_copy(p, prev);
        has_prev = ok;
    }
}

static bool is_linear(step_kind k)
{
    return k == K_LINEAR || k == K_SHORTER;
}

static void draw_steps(const lesson4 *self, render_list *list)
{
    int cur = self->stepper.current;
    const step_view *now = &self->views[cur];
    lesson_label_room room = {.count = 0};
    render_list_line(list, self->ray_start, self->ray_end, (vec4){1.0f, 1.0f, 1.0f, 0.5f});
    draw_profile(list, self, now->span_t0, now->span_t1);
    /* the current step's point first: its label is kept before any other */
    char name[16];
    if (now->has_point) {
        draw_sample(list, now, 18.0f, NOW);
        if (now->kind == K_BINARY)
            snprintf(name, sizeof name, "%d", now->turn);
        else if (now->kind == K_CLIP)
            snprintf(name, sizeof name, "A");
        else
            snprintf(name, sizeof name, "L%d", now->turn);
        if (now->kind == K_BINARY || now->kind == K_CLIP || now->kind == K_LINEAR)
            lesson_list_label_spaced(list, &room, now->point, name, LABEL_PX, NOW);
    }
    if (!self->clipped)
        return;
    vec3 a, b;
    rp_ray_at(&self->ray, self->clip_t0, a);
    rp_ray_at(&self->ray, self->clip_t1, b);
    float len = glm_max((now->span_t1 - now->span_t0) / t_per_unit(&self->ray), FRAME_MIN);
    render_list_beam(list, a, b, 0.012f * len, (vec4){0.3f, 0.8f, 1.0f, 0.8f});
    lesson_list_label_spaced(list, &room, a, "A", LABEL_PX, CYAN);
    lesson_list_label_spaced(list, &room, b, "B", LABEL_PX, CYAN);
    /* the samples and halvings up to this step, newest first (their labels win) */
    for (int i = cur - 1; i >= 0; --i) {
        const step_view *v = &self->views[i];
        if (!v->has_point)
            continue;
        if (is_linear(v->kind)) {
            draw_sample(list, v, 10.0f, CYAN);
            snprintf(name, sizeof name, "L%d", v->turn);
            if (v->kind == K_LINEAR)
                lesson_list_label_spaced(list, &room, v->point, name, LABEL_PX, CYAN);
        } else if (v->kind == K_BINARY) {
            draw_sample(list, v, 11.0f, PINK);
            snprintf(name, sizeof name, "%d", v->turn);
            lesson_list_label_spaced(list, &room, v->point, name, LABEL_PX, PINK);
        }
    }
    if (now->kind == K_FOUND && self->exact_hit)
        render_list_point(list, self->exact_point, 14.0f, WHITE);
}

static void draw(const void *self_, render_list *list)
{
    const lesson4 *self = self_;
    bool stepping = lesson_stepper_active(&self->stepper);
    bool cut = self->framed && self->cut_valid && stepping;
    render_list_terrain(list, cut ? &self->cut_mesh : &self->mesh.data);
    bool hit = self->mode == MODE_SEARCH ? self->search_hit : self->exact_hit;
    /* the marker: not in step mode, where it would hide the points it marks */
    if (self->has_ray && hit && !stepping)
        draw_marker(list, &self->mesh, self->mode == MODE_SEARCH ? self->search_point : self->exact_point);
    if (!self->has_ray)
        return;
    if (stepping) {
        draw_steps(self, list);
        return;
    }
    render_list_line(list, self->ray_start, self->ray_end, (vec4){1.0f, 1.0f, 1.0f, 0.35f});
    if (self->clipped) {
        vec3 a, b;
        rp_ray_at(&self->ray, self->clip_t0, a);
        rp_ray_at(&self->ray, self->clip_t1, b);
        render_list_beam(list, a, b, 0.08f, (vec4){0.3f, 0.8f, 1.0f, 0.9f});
    }
    for (int i = 0; i < self->trace.count; ++i) {
        const step_view *v = &self->views[i];
        if (v->has_point && is_linear(v->kind))
            render_list_point(list, v->point, 9.0f, CYAN);
        else if (v->has_point && v->kind == K_BINARY)
            render_list_point(list, v->point, 6.0f, PINK);
    }
    /* search mode: where the exact method hits, when the two differ */
    if (self->mode == MODE_SEARCH && self->exact_hit &&
        (!self->search_hit || glm_vec3_distance((float *)self->search_point, (float *)self->exact_point) > 0.25f))
        render_list_point(list, self->exact_point, 18.0f, WHITE);
}

/* ------------------------------------------------------------ the inset */

/* The step the panel and the inset show: the current one in step mode,
   the last one otherwise; -1 when there is none. */
static int shown_step(const lesson4 *self)
{
    if (!self->has_ray || self->trace.count == 0)
        return -1;
    return lesson_stepper_active(&self->stepper) ? self->stepper.current : self->trace.count - 1;
}

/* The inset's axes: t along the pointer ray across, height up. */
typedef struct plot {
    float x, y, w, h;           /* pixels */
    float t0, t1, y0, y1;       /* what they span */
} plot;

static float plot_x(const plot *p, float t)
{
    return p->x + (t - p->t0) / (p->t1 - p->t0) * p->w;
}

static float plot_y(const plot *p, float height)
{
    return p->y + p->h - (height - p->y0) / (p->y1 - p->y0) * p->h;
}

static bool in_plot(const plot *p, float t, float height)
{
    return t >= p->t0 && t <= p->t1 && height >= p->y0 && height <= p->y1;
}

/* the height the ray has at t */
static float ray_height(const lesson4 *self, float t)
{
    return self->ray.origin[1] + t * self->ray.dir[1];
}

static float ground_at(const lesson4 *self, float t)
{
    vec3 p;
    rp_ray_at(&self->ray, t, p);
    return GetExactHeightAt(self->map, p[0], p[2]);
}

/* The heights the inset spans: the ray's and the ground's over [t0, t1]
   and the points shown, a tenth more on each side. */
static void plot_heights(const lesson4 *self, int cur, plot *p)
{
    float lo = glm_min(ray_height(self, p->t0), ray_height(self, p->t1)), hi = glm_max(ray_height(self, p->t0),
                                                                                     ray_height(self, p->t1));
    for (int i = 0; i <= 32; ++i) {
        float g = ground_at(self, p->t0 + (p->t1 - p->t0) * (float)i / 32.0f);
        if (isfinite(g)) {
            lo = glm_min(lo, g);
            hi = glm_max(hi, g);
        }
    }
    for (int i = 0; i <= cur; ++i) {
        const step_view *v = &self->views[i];
        if (v->has_point && v->t >= p->t0 && v->t <= p->t1) {
            lo = glm_min(lo, v->point[1]);
            hi = glm_max(hi, v->point[1]);
        }
    }
    float pad = glm_max(0.1f * (hi - lo), 1e-4f * glm_max(fabsf(hi), 1.0f));
    p->y0 = lo - pad;
    p->y1 = hi + pad;
}

static void figure_point(render_list *list, const plot *p, const step_view *v, float r, const vec4 color)
{
    if (!in_plot(p, v->t, v->point[1]))
        return;
    float x = plot_x(p, v->t), y = plot_y(p, v->point[1]);
    if (isfinite(v->ground)) {
        float gy = plot_y(p, glm_clamp(v->ground, p->y0, p->y1));
        render_list_fig_line(list, x, y, x, gy, 1.5f, v->point[1] < v->ground ? BELOW : ABOVE);
    }
    render_list_fig_circle(list, x, y, r, 0.0f, color);
}

/* The line under the plot: where the loop is, in numbers. */
static void counter_text(const lesson4 *self, int cur, char *buf, size_t size)
{
    const step_view *v = &self->views[cur];
    const listing_step *s = &self->steps[cur];
    switch (v->kind) {
    case K_UNPROJECT:
    case K_RAY:
    case K_CLIP:
    case K_DIVIDE:
        if (self->clipped)
            snprintf(buf, size, TEXT("figure.clip"), (double)ray_height(self, self->clip_t0),
                     (double)ray_height(self, self->clip_t1), self->linear_used);
        else
            snprintf(buf, size, "%s", TEXT("figure.no-clip"));
        break;
    case K_LINEAR:
        if (v->turn > self->linear_used)
            snprintf(buf, size, TEXT("figure.linear-past"), v->turn, self->linear_used);
        else
            snprintf(buf, size, TEXT("figure.linear"), v->turn, self->linear_used);
        break;
    case K_SHORTER:
        snprintf(buf, size, "%s", TEXT("figure.crossed"));
        break;
    case K_BOUND:
        snprintf(buf, size, TEXT("figure.stopped"),
                 strstr(s->msg_id, "binary") ? "BinarySearch" : "LinearSearch", watch_i(s, "turns"));
        break;
    case K_BINARY_START:
    case K_BINARY:
    case K_BINARY_ERROR:
        snprintf(buf, size, TEXT("figure.binary"), v->turn,
                 (double)watch_f(s, "currentError", v->point[1] - v->ground));
        break;
    case K_FOUND: {
        float te = self->exact_hit ? t_along(&self->ray, self->exact_point) : NAN;
        if (self->exact_hit && !(te >= v->near_t0 && te <= v->near_t1))
            snprintf(buf, size, TEXT("figure.found-apart"), (double)(v->point[1] - v->ground), self->binary_steps,
                     (double)glm_vec3_distance((float *)v->point, (float *)self->exact_point));
        else
            snprintf(buf, size, TEXT("figure.found"), (double)(v->point[1] - v->ground), self->binary_steps);
        break;
    }
    }
}

static void figure(const void *self_, const lesson_figure_area *area, render_list *list)
{
    const lesson4 *self = self_;
    int cur = shown_step(self);
    float ts = area->text_scale, line = 13.0f * ts;
    render_list_fig_rect(list, area->x, area->y, area->w, area->h, (vec4){0.03f, 0.04f, 0.08f, 1.0f});
    const vec4 title = {1.0f, 0.92f, 0.65f, 1.0f}, plain = {0.80f, 0.88f, 1.0f, 1.0f};
    render_list_fig_text(list, area->x + 6.0f * ts, area->y + 5.0f * ts, ts, RENDER_ALIGN_LEFT, area->w - 12.0f * ts, title,
                         TEXT("figure.title"));
    if (cur < 0 || self->mode == MODE_EXACT) {
        render_list_fig_text(list, area->x + 6.0f * ts, area->y + 5.0f * ts + line, ts, RENDER_ALIGN_LEFT, area->w - 12.0f * ts, plain,
                             cur < 0 ? TEXT("figure.empty") : TEXT("figure.exact"));
        if (cur < 0 || !self->exact_hit)
            return;
    }
    if (cur < 0)
        return;
    const step_view *v = &self->views[cur];
    plot p = {area->x + 10.0f * ts, area->y + 2.0f * line + 4.0f * ts, area->w - 20.0f * ts,
              area->h - 5.0f * line - 8.0f * ts, v->near_t0, v->near_t1, 0.0f, 1.0f};
    if ((v->kind == K_UNPROJECT || v->kind == K_RAY) && self->clipped) {
        p.t0 = glm_min(self->clip_t0, self->clip_t1);
        p.t1 = glm_max(self->clip_t0, self->clip_t1);
    }
    if (!(p.t1 > p.t0) || p.w < 8.0f || p.h < 8.0f)
        return;
    plot_heights(self, cur, &p);
    bool zoomed = v->near_t0 != v->span_t0 || v->near_t1 != v->span_t1;
    if (zoomed)
        render_list_fig_text(list, area->x + 6.0f * ts, area->y + 5.0f * ts + line, ts, RENDER_ALIGN_LEFT, area->w - 12.0f * ts, plain,
                             TEXT("figure.zoomed"));
    /* the height band ClipRay keeps */
    const vec4 band = {0.55f, 0.6f, 0.7f, 0.7f};
    if (self->highest >= p.y0 && self->highest <= p.y1)
        render_list_fig_line(list, p.x, plot_y(&p, self->highest), p.x + p.w, plot_y(&p, self->highest), 1.0f, band);
    if (self->lowest >= p.y0 && self->lowest <= p.y1)
        render_list_fig_line(list, p.x, plot_y(&p, self->lowest), p.x + p.w, plot_y(&p, self->lowest), 1.0f, band);
    /* the ground under the ray, filled; where there is none (off the map) a red floor */
    enum { N = 96 };
    float xy[2 * (N + 1)];
    float colw = p.w / N + 1.0f;
    for (int i = 0; i <= N; ++i) {
        float t = p.t0 + (p.t1 - p.t0) * (float)i / N, g = ground_at(self, t);
        xy[2 * i] = plot_x(&p, t);
        xy[2 * i + 1] = isfinite(g) ? plot_y(&p, glm_clamp(g, p.y0, p.y1)) : NAN;
        if (isfinite(g))
            render_list_fig_rect(list, xy[2 * i] - 0.5f * colw, xy[2 * i + 1], colw, p.y + p.h - xy[2 * i + 1],
                                 (vec4){0.22f, 0.19f, 0.1f, 1.0f});
        else
            render_list_fig_rect(list, xy[2 * i] - 0.5f * colw, p.y + p.h - 3.0f * ts, colw, 3.0f * ts, BELOW);
    }
    render_list_fig_polyline(list, xy, N + 1, 2.0f, PROFILE);
    /* the ray */
    render_list_fig_line(list, plot_x(&p, p.t0), plot_y(&p, ray_height(self, p.t0)), plot_x(&p, p.t1),
                         plot_y(&p, ray_height(self, p.t1)), 1.5f, (vec4){1.0f, 1.0f, 1.0f, 0.8f});
    if (self->clipped) {
        float ta = self->clip_t0, tb = self->clip_t1;
        if (ta >= p.t0 && ta <= p.t1)
            render_list_fig_text(list, plot_x(&p, ta), plot_y(&p, ray_height(self, ta)) - line, ts,
                                 RENDER_ALIGN_CENTER, 0.0f, CYAN, "A");
        if (tb >= p.t0 && tb <= p.t1)
            render_list_fig_text(list, plot_x(&p, tb), plot_y(&p, ray_height(self, tb)) - line, ts,
                                 RENDER_ALIGN_CENTER, 0.0f, CYAN, "B");
    }
    /* the points so far, the current one large */
    for (int i = 0; i < cur; ++i) {
        const step_view *w = &self->views[i];
        if (w->has_point && is_linear(w->kind))
            figure_point(list, &p, w, 3.0f * ts, CYAN);
        else if (w->has_point && w->kind == K_BINARY)
            figure_point(list, &p, w, 3.0f * ts, PINK);
    }
    if (v->kind == K_FOUND) {
        figure_point(list, &p, v, 5.0f * ts, GOLD);
        float te = self->exact_hit ? t_along(&self->ray, self->exact_point) : NAN;
        if (self->exact_hit && in_plot(&p, te, self->exact_point[1]))
            render_list_fig_circle(list, plot_x(&p, te), plot_y(&p, self->exact_point[1]), 7.0f * ts, 2.0f, WHITE);
    } else if (v->has_point) {
        figure_point(list, &p, v, 5.0f * ts, NOW);
    }
    char counter[192];
    counter_text(self, cur, counter, sizeof counter);
    render_list_fig_text(list, area->x + 6.0f * ts, p.y + p.h + 4.0f * ts, ts, RENDER_ALIGN_LEFT,
                         area->w - 12.0f * ts, v->kind == K_BOUND ? BELOW : plain, counter);
}

/* ------------------------------------------------------------ the HUD */

static void status(const void *self_, char *buf, size_t size)
{
    const lesson4 *self = self_;
    int k = snprintf(buf, size, TEXT("status.method"),
                     self->mode == MODE_SEARCH ? TEXT("method.search") : TEXT("method.exact"),
                     linear_choices[self->linear_choice]);
    if (k < 0 || (size_t)k >= size)
        return;
    buf += k;
    size -= (size_t)k;
    const char *hit = TEXT("hit"), *miss = TEXT("miss");
    if (!self->has_ray)
        k = snprintf(buf, size, "\n%s\n", TEXT("last.start"));
    else if (self->search_stopped)
        k = snprintf(buf, size, "\n%s\n", TEXT("last.stopped"));
    else if (self->search_hit && self->search_t < 0.0f)
        k = snprintf(buf, size, "\n%s\n", TEXT("last.behind"));
    else if (self->search_hit && self->exact_hit) {
        float d = glm_vec3_distance((float *)self->search_point, (float *)self->exact_point);
        k = snprintf(buf, size, "\n");
        k += snprintf(buf + k, size - (size_t)k, d > 0.25f ? TEXT("last.differ") : TEXT("last.agree"), (double)d);
        k += snprintf(buf + k, size - (size_t)k, "\n");
    } else {
        k = snprintf(buf, size, "\n");
        k += snprintf(buf + k, size - (size_t)k, TEXT("last.one"), self->search_hit ? hit : miss,
                      self->exact_hit ? hit : miss);
        k += snprintf(buf + k, size - (size_t)k, "\n");
    }
    if (k < 0 || (size_t)k >= size)
        return;
    buf += k;
    size -= (size_t)k;
    if (!self->stepper.on) {
        snprintf(buf, size, "%s", TEXT("legend"));
    } else if (!lesson_stepper_active(&self->stepper)) {
        snprintf(buf, size, "%s", TEXT("steps.wait"));
    } else {
        /* the step itself: the code panel, or the app's HUD line without it */
        snprintf(buf, size, TEXT("steps.keys"), self->framed ? TEXT("camera.framed") : TEXT("camera.free"));
    }
}

/* Step mode's camera: from the side of the ray, a little above, showing
   the step's stretch of ray, on the side where the terrain is lower (less
   of it in front). The app centres it in the room the panels leave. */
static bool frame(const void *self_, lesson_camera *out)
{
    const lesson4 *self = self_;
    if (!self->framed || !lesson_stepper_active(&self->stepper))
        return false;
    const step_view *v = &self->views[self->stepper.current];
    vec3 a, b, mid;
    rp_ray_at(&self->ray, v->span_t0, a);
    rp_ray_at(&self->ray, v->span_t1, b);
    /* at least FRAME_MIN of ray, at most what a 250-unit far plane can show */
    float len = glm_clamp(glm_vec3_distance(a, b), FRAME_MIN, 120.0f);
    glm_vec3_center(a, b, mid);
    /* square to the ray, on the cutaway's open side, nearly level: the
       recipe's figures are such side views */
    out->yaw = atan2f(self->cut_side[0], self->cut_side[2]);
    out->pitch = 0.12f;
    out->fov = 0.7853982f;
    out->distance = 1.5f * len;
    glm_vec3_copy(mid, out->target);
    out->target[1] += 0.1f * len;
    return true;
}

static bool code(const void *self_, lesson_code_view *out)
{
    const lesson4 *self = self_;
    memset(out, 0, sizeof *out);
    out->code = &listing_lesson4_xna_recipe;
    if (self->has_ray) {
        out->steps = self->steps;
        out->count = self->trace.count;
    }
    if (self->mode == MODE_SEARCH && lesson_stepper_active(&self->stepper)) {
        out->step = &self->steps[self->stepper.current];
        out->index = self->stepper.current;
    }
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

/* ------------------------------------------------------------ the tour */

/* The recipe's case, its mistakes made visible, the fix. Keys: P step
   mode, L the linear step count (30 -> 300 -> 1 -> 8), M the method. */
static const lesson_tour_moment tour[] = {
    /* a plain slope, 30 steps, every step to the found point */
    {.sentence = "lesson.terrain-picking.tour.recipe", .keys = "p", .click_count = 1,
     .clicks = {{.aim = LESSON_AIM_OBJECT, .object = 1}}, .steps = STEP_CAP},
    /* 8 steps stride over the spire's 1 x 1 top: the step where LinearSearch
       returns, all its points in view */
    {.sentence = "lesson.terrain-picking.tour.spire", .keys = "plll", .click_count = 1,
     .clicks = {{.aim = LESSON_AIM_OBJECT, .object = 0, .along = 0.8f}}, .steps = STEP_CAP,
     .until = STEP_ID("shorter-ray")},
    /* beyond the map: BinarySearch alone never ends */
    {.sentence = "lesson.terrain-picking.tour.endless", .keys = "pll", .click_count = 1,
     .clicks = {{.aim = LESSON_AIM_WINDOW, .fx = 0.5f, .fy = 0.02f}}, .steps = STEP_CAP},
    /* the exact method on the spire, its ray seen from 60 degrees aside, the
       spire in the middle of the view (under the HUD's lines) */
    {.sentence = "lesson.terrain-picking.tour.exact", .keys = "mlll", .click_count = 1,
     .clicks = {{.aim = LESSON_AIM_OBJECT, .object = 0, .along = 0.8f}}, .after = "]", .steps = 0,
     .has_camera = true, .camera = {{2.0f, 9.0f, 6.0f}, 0.0f, 0.45f, 26.0f, 0.7853982f}},
};

const lesson lesson4_terrain = {
    .number = 4,
    .camera = {{0.0f, 2.0f, 2.0f}, 0.0f, 0.62f, 34.0f, 0.7853982f},
    .create = create,
    .check_files = check_files,
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

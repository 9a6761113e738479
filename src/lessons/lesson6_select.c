/*
 * lesson6_select.c: picking as applications use it (issue 32). Units on
 * lesson 4's kind of terrain and paths between them, all in one rp_scene
 * with layer masks:
 *
 *   hover   every mouse move (WM_MOUSEMOVE) picks: rp_scene_query_ray with
 *           the pickable layers, a pixel tolerance for the thin paths
 *           (rp_thin_tolerance_pixels) and the terrain's hit as t_max (a
 *           hill hides what is behind it);
 *   drag    a left press on a unit grabs it; while the button is held the
 *           unit slides over the terrain with the grabbed point under the
 *           cursor (the ray shifted by the grab offset, against the
 *           terrain: see drag_unit);
 *   select  a left press on the ground starts a rectangle; the release
 *           selects the units inside it (rp_frustum_from_rect and
 *           rp_scene_query_frustum);
 *   layers  L cycles which layers the pointer picks and the rectangle
 *           selects (Unity's LayerMask, three.js's layers).
 *
 * Step mode (P, then '.' and ','): each rectangle is also selected by the
 * listing listings/lesson6_xna_marquee.c, marquee selection as an XNA 4
 * game writes it (the corners through Viewport.Unproject, six planes, a
 * BoundingFrustum, each unit's BoundingSphere against it), recorded step
 * by step for the code panel (C); the release reports whether its
 * selection is the library's (listing_agrees).
 *
 * No GL, no SDL: the app hands every move, drag and release to pointer().
 */
#include "lesson.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lesson6_xna_marquee.h"
#include "msg.h"
#include "terrain_mesh.h"

#define MAP_SIZE 97             /* lesson 4's terrain: 97 x 97 samples, 48 x 48 units */
#define MAP_SPACING 0.5f
#define MAP_HEIGHT 7.0f
#define UNIT_COUNT 8
#define UNIT_RADIUS 1.0f
#define PATH_COUNT 3
#define PATH_POINTS 49          /* samples along a path, about one per map sample */
#define PATH_LIFT 0.12f         /* a path floats this far above the ground: drawn over it */
#define HOVER_PX 6.0f           /* a path is picked within this many pixels of the cursor */
#define BEHIND_SLACK 0.05f      /* world units: an object this far behind the terrain's hit still counts */
#define TEXT(id) msg("lesson.hover-drag-select." id)
#define STEP_CAP MARQUEE_STEPS(UNIT_COUNT)     /* the longest SelectUnits run */

/* The layers: one bit each (rp_scene_set_mask). */
enum {
    LAYER_BLUE = 1u << 0,       /* the blue units */
    LAYER_ORANGE = 1u << 1,     /* the orange units */
    LAYER_PATHS = 1u << 2,
    LAYER_UNITS = LAYER_BLUE | LAYER_ORANGE
};

/* What L cycles through: which layers the pointer and the rectangle see. */
static const struct {
    uint32_t layers;
    const char *text;           /* catalogue id */
} layer_choices[] = {
    {LAYER_BLUE | LAYER_ORANGE | LAYER_PATHS, "lesson.hover-drag-select.layers.all"},
    {LAYER_UNITS, "lesson.hover-drag-select.layers.units"},
    {LAYER_PATHS, "lesson.hover-drag-select.layers.paths"},
    {LAYER_BLUE, "lesson.hover-drag-select.layers.blue"},
};
#define LAYER_CHOICES ((int)(sizeof layer_choices / sizeof layer_choices[0]))

/* Where the units start (x, z on the map) and which units the paths join. */
static const float unit_start[UNIT_COUNT][2] = {
    {-10.0f, -6.0f}, {-6.0f, 4.0f}, {-13.0f, 9.0f}, {2.0f, -1.0f},
    {8.0f, -4.0f},   {11.0f, 6.0f}, {4.0f, 11.0f},  {14.0f, -11.0f},
};
static const int path_ends[PATH_COUNT][2] = {{0, 4}, {1, 6}, {3, 5}};

typedef enum grab_kind { GRAB_NONE, GRAB_UNIT, GRAB_RECT } grab_kind;

typedef struct lesson6 {
    rp_heightmap *map;
    terrain_mesh mesh;
    rp_scene *scene;            /* units 0..7 (spheres), then the paths (polylines) */
    rp_sphere units[UNIT_COUNT];
    float paths[PATH_COUNT][PATH_POINTS * 3];
    int layer_choice;           /* index into layer_choices */
    int hover;                  /* scene index under the cursor, -1: none */
    bool selected[UNIT_COUNT];
    int selected_count;
    /* the left button's gesture */
    grab_kind grab;
    int grabbed;                /* GRAB_UNIT: the unit */
    vec3 grab_offset;           /* GRAB_UNIT: grabbed point - unit centre */
    bool moved;                 /* GRAB_UNIT: the last drag found the terrain */
    float rect[4];              /* GRAB_RECT: x0, y0 (the press), x1, y1 (the cursor); pixels */
    int picked;                 /* the last press's pick, -1: none */
    /* step mode: the listing's run on the last rectangle */
    lesson_stepper stepper;
    listing_step steps[STEP_CAP];
    listing_trace trace;
    bool has_steps;             /* the last gesture was a rectangle the listing ran on */
    float step_rect[4];         /* that rectangle: press x, y, release x, y; pixels */
    rp_viewport step_vp;        /* the release's viewport and camera, for the inset */
    mat4 step_view, step_proj;
    int step_unit[STEP_CAP];    /* the unit each step is about, -1: none */
    int verdict_step[UNIT_COUNT];   /* the step that decides unit i, -1: none */
    bool listing_selected[UNIT_COUNT];
    bool listing_agrees;        /* the listing selected what the library's query selected */
} lesson6;

/* ------------------------------------------------------------ the world */

static uint32_t layers_now(const lesson6 *self)
{
    return layer_choices[self->layer_choice].layers;
}

static uint32_t unit_layer(int i)
{
    return i < UNIT_COUNT / 2 ? LAYER_BLUE : LAYER_ORANGE;
}

/* A unit standing on the ground at (x, z): its centre one radius above the
   terrain there. false off the map. */
static bool stand(const lesson6 *self, float x, float z, rp_sphere *out)
{
    float y;
    if (!rp_heightmap_height_at(self->map, x, z, &y))
        return false;
    *out = (rp_sphere){{x, y + UNIT_RADIUS, z}, UNIT_RADIUS};
    return true;
}

/* Path i: a straight line over the map from one unit's foot to the
   other's, following the ground. */
static void make_path(lesson6 *self, int i)
{
    const float *a = self->units[path_ends[i][0]].center, *b = self->units[path_ends[i][1]].center;
    for (int k = 0; k < PATH_POINTS; ++k) {
        float f = (float)k / (float)(PATH_POINTS - 1);
        float x = a[0] + (b[0] - a[0]) * f, z = a[2] + (b[2] - a[2]) * f, y = 0.0f;
        rp_heightmap_height_at(self->map, x, z, &y);     /* both ends are on the map, so is the line */
        float *p = &self->paths[i][3 * k];
        p[0] = x;
        p[1] = y + PATH_LIFT;
        p[2] = z;
    }
}

static bool path_of_unit(int path, int unit)
{
    return path_ends[path][0] == unit || path_ends[path][1] == unit;
}

static void destroy(void *self_)
{
    lesson6 *self = self_;
    if (!self)
        return;
    rp_scene_destroy(self->scene);
    terrain_mesh_free(&self->mesh);
    rp_heightmap_destroy(self->map);
    free(self);
}

static bool fill_scene(lesson6 *self)
{
    static const rp_thin_tolerance none = {0.0f, 0.0f};   /* the query gives the pixels */
    for (int i = 0; i < UNIT_COUNT; ++i) {
        if (!stand(self, unit_start[i][0], unit_start[i][1], &self->units[i]) ||
            rp_scene_add_sphere(self->scene, &self->units[i]) != i ||
            !rp_scene_set_mask(self->scene, i, unit_layer(i)))
            return false;
    }
    for (int p = 0; p < PATH_COUNT; ++p) {
        make_path(self, p);
        int index = UNIT_COUNT + p;
        if (rp_scene_add_polyline(self->scene, self->paths[p], PATH_POINTS, 0, &none) != index ||
            !rp_scene_set_mask(self->scene, index, LAYER_PATHS))
            return false;
    }
    return rp_scene_build(self->scene);
}

static void *create(const lesson_env *env)
{
    lesson6 *self = calloc(1, sizeof *self);
    if (!self) {
        snprintf(env->err, env->err_size, "out of memory");
        return NULL;
    }
    float half = (MAP_SIZE - 1) * MAP_SPACING * 0.5f;
    self->map = rp_heightmap_generate(MAP_SIZE, MAP_SIZE, MAP_SPACING, MAP_HEIGHT, env->seed,
                                      (vec3){-half, 0.0f, -half});
    self->scene = rp_scene_create();
    if (!self->map || !self->scene || !terrain_mesh_build(self->map, TERRAIN_MESH_MAX_SIDE, &self->mesh) ||
        !fill_scene(self)) {
        snprintf(env->err, env->err_size, "cannot build the terrain and its units");
        destroy(self);
        return NULL;
    }
    self->hover = -1;
    self->picked = -1;
    listing_trace_reset(&self->trace, self->steps, STEP_CAP);
    return self;
}

static void update(void *self, float dt)
{
    (void)self;
    (void)dt;
}

static bool key(void *self_, char k)
{
    lesson6 *self = self_;
    if (lesson_stepper_key(&self->stepper, k))
        return true;
    if (k != 'l')
        return false;
    self->layer_choice = (self->layer_choice + 1) % LAYER_CHOICES;
    self->hover = -1;       /* the next move picks again, with the new layers */
    return true;
}

static lesson_method method(const void *self)
{
    (void)self;
    return LESSON_PICK_D3D9;    /* unit dir: t is a distance */
}

/* ------------------------------------------------------------ picking */

/* The scene index the ray picks among the pickable layers, in front of
   the terrain (a hill hides a unit behind it), -1 for none; *hit its hit,
   *ground whether the ray meets the terrain (and where, *ground_hit). */
static int pick_scene(const lesson6 *self, const lesson_click *c, rp_hit *hit, bool *ground, rp_hit *ground_hit)
{
    rp_scene_query q = {0};
    q.layers = layers_now(self);
    *ground = rp_intersect_ray_heightmap(self->map, &c->ray, ground_hit);
    if (*ground)
        q.t_max = ground_hit->t + BEHIND_SLACK / glm_vec3_norm((float *)c->ray.dir);
    if (!rp_thin_tolerance_pixels(HOVER_PX, c->px, c->py, &c->viewport, (vec4 *)c->proj, (vec4 *)c->view, RP_GL,
                                  &c->ray, &q.thin))
        q.thin = (rp_thin_tolerance){0.0f, 0.0f};
    return rp_scene_query_ray(self->scene, &c->ray, &q, hit, NULL, NULL);
}

/* "unit 3", "path 2" (1-based: as the HUD and the notes count) */
static void object_name(int index, char *buf, size_t size)
{
    if (index < UNIT_COUNT)
        snprintf(buf, size, "unit %d", index + 1);
    else
        snprintf(buf, size, "path %d", index - UNIT_COUNT + 1);
}

static void fill_hit(int index, const rp_hit *h, const lesson_click *c, const char *how, lesson_pick *out)
{
    lesson_pick_miss(out, &c->ray, how);
    if (index < 0)
        return;
    out->hit = true;
    out->id = index;
    object_name(index, out->what, sizeof out->what);
    out->t = h->t;
    glm_vec3_copy((float *)h->point, out->point);
}

static void selected_field(const lesson6 *self, lesson_pick *out)
{
    int ids[UNIT_COUNT], n = 0;
    for (int i = 0; i < UNIT_COUNT; ++i)
        if (self->selected[i])
            ids[n++] = i;
    lesson_pick_ints(out, "selected", ids, n);
}

static void clear_selection(lesson6 *self)
{
    memset(self->selected, 0, sizeof self->selected);
    self->selected_count = 0;
}

/* A left press: grab the unit under the cursor, or start a rectangle on
   the ground (or in the sky: a rectangle may start anywhere). */
static void click(void *self_, const lesson_click *c, lesson_pick *out)
{
    lesson6 *self = self_;
    rp_hit hit, ground_hit;
    bool ground;
    int index = pick_scene(self, c, &hit, &ground, &ground_hit);
    fill_hit(index, &hit, c, "scene", out);
    /* the last rectangle's steps end with a new gesture */
    self->has_steps = false;
    listing_trace_reset(&self->trace, self->steps, STEP_CAP);
    lesson_stepper_restart(&self->stepper, 0);
    self->picked = index;
    self->hover = index;
    if (index >= 0 && index < UNIT_COUNT) {
        self->grab = GRAB_UNIT;
        self->grabbed = index;
        self->moved = false;
        glm_vec3_sub(hit.point, self->units[index].center, self->grab_offset);
        clear_selection(self);
        self->selected[index] = true;
        self->selected_count = 1;
        lesson_pick_vec3(out, "grab_offset", self->grab_offset, 9);
        lesson_pick_vec3(out, "center", self->units[index].center, 9);
    } else if (index >= UNIT_COUNT) {
        self->grab = GRAB_NONE;     /* a path is picked, not moved */
    } else {
        self->grab = GRAB_RECT;
        self->rect[0] = self->rect[2] = c->px;
        self->rect[1] = self->rect[3] = c->py;
        clear_selection(self);
        if (ground) {
            out->t = ground_hit.t;
            glm_vec3_copy(ground_hit.point, out->point);
        }
    }
    lesson_pick_bool(out, "ground", ground);
    selected_field(self, out);
}

/*
 * The unit's new place for the cursor's ray, the grabbed point on the ray:
 * the grabbed point is centre + offset and the centre stands on the ground,
 * centre = foot + (0, r, 0) with the foot on the terrain. So the foot is
 * where the ray, shifted by -(offset + (0, r, 0)), meets the terrain: the
 * exact terrain hit of that ray (rp_intersect_ray_heightmap), and the
 * grabbed point, foot + (0, r, 0) + offset, is the original ray's point at
 * the same t. false (the unit stays) where the shifted ray misses the map.
 */
static bool drag_unit(lesson6 *self, const rp_ray *ray)
{
    rp_sphere *u = &self->units[self->grabbed];
    rp_ray shifted = *ray;
    glm_vec3_sub(shifted.origin, self->grab_offset, shifted.origin);
    shifted.origin[1] -= u->radius;
    rp_hit foot;
    if (!rp_intersect_ray_heightmap(self->map, &shifted, &foot))
        return false;
    glm_vec3_copy(foot.point, u->center);
    u->center[1] += u->radius;
    rp_scene_set_sphere(self->scene, self->grabbed, u);
    for (int p = 0; p < PATH_COUNT; ++p) {
        if (!path_of_unit(p, self->grabbed))
            continue;
        make_path(self, p);
        rp_scene_set_polyline(self->scene, UNIT_COUNT + p, self->paths[p], PATH_POINTS, 0,
                              &(rp_thin_tolerance){0.0f, 0.0f});
    }
    rp_scene_build(self->scene);
    return true;
}

/* The listing's marquee selection of the same rectangle, recorded step by
   step (step mode shows it); then which unit each step is about. */
static void run_listing(lesson6 *self, const lesson_click *c)
{
    Unit units[UNIT_COUNT];
    for (int i = 0; i < UNIT_COUNT; ++i) {
        const rp_sphere *u = &self->units[i];
        units[i] = (Unit){{{u->center[0], u->center[1], u->center[2]}, u->radius}, unit_layer(i)};
    }
    Selection sel = {.viewport = c->viewport, .units = units, .unitCount = UNIT_COUNT,
                     .selectableLayers = layers_now(self) & LAYER_UNITS, .selected = self->listing_selected,
                     .trace = &self->trace};
    glm_mat4_copy((vec4 *)c->proj, sel.projection);
    glm_mat4_copy((vec4 *)c->view, sel.view);
    listing_trace_reset(&self->trace, self->steps, STEP_CAP);
    SelectUnits(&sel, (Vector2){self->rect[0], self->rect[1]}, (Vector2){self->rect[2], self->rect[3]});
    memcpy(self->step_rect, self->rect, sizeof self->step_rect);
    self->step_vp = c->viewport;
    glm_mat4_copy((vec4 *)c->view, self->step_view);
    glm_mat4_copy((vec4 *)c->proj, self->step_proj);
    self->has_steps = true;
    /* backwards: a plane step of Contains is about the unit whose
       verdict follows it */
    int unit = -1;
    for (int k = 0; k < UNIT_COUNT; ++k)
        self->verdict_step[k] = -1;
    for (int k = self->trace.count - 1; k >= 0; --k) {
        const listing_step *s = &self->steps[k];
        const listing_watch *w = listing_step_watch(s, "i");
        if (w && w->i >= 0 && w->i < UNIT_COUNT) {
            unit = w->i;
            if (!listing_step_watch(s, "meets"))
                self->verdict_step[unit] = k;
        } else if (!strstr(s->msg_id, ".step.plane-")) {
            unit = -1;
        }
        self->step_unit[k] = unit;
    }
    lesson_stepper_restart(&self->stepper, self->trace.count);
}

/* The rectangle's units: the frustum under it, the unit layers the
   pointer may pick (none when L shows only the paths: a query's zero
   layers would mean all). The listing selects them too. */
static void select_rect(lesson6 *self, const lesson_click *c)
{
    clear_selection(self);
    run_listing(self, c);
    self->listing_agrees = memcmp(self->listing_selected, self->selected, sizeof self->selected) == 0;
    rp_frustum f;
    uint32_t layers = layers_now(self) & LAYER_UNITS;
    if (!layers || !rp_frustum_from_rect(self->rect[0], self->rect[1], self->rect[2], self->rect[3], &c->viewport,
                                         (vec4 *)c->proj, (vec4 *)c->view, RP_GL, &f))
        return;     /* an empty rectangle (a plain click) selects nothing */
    rp_scene_query q = {0};
    q.layers = layers;
    int found[UNIT_COUNT + PATH_COUNT];
    size_t n = rp_scene_query_frustum(self->scene, &f, &q, found, sizeof found / sizeof found[0]);
    for (size_t i = 0; i < n && i < sizeof found / sizeof found[0]; ++i) {
        if (found[i] < UNIT_COUNT) {
            self->selected[found[i]] = true;
            ++self->selected_count;
        }
    }
    self->listing_agrees = memcmp(self->listing_selected, self->selected, sizeof self->selected) == 0;
}

static bool pointer(void *self_, lesson_pointer_phase phase, const lesson_click *c, lesson_pick *out)
{
    lesson6 *self = self_;
    if (phase == LESSON_POINTER_MOVE) {
        /* no button is held: a gesture a release never ended (a script's
           --click, the app switching lessons mid-drag) is over */
        self->grab = GRAB_NONE;
        rp_hit hit, ground_hit;
        bool ground;
        self->hover = pick_scene(self, c, &hit, &ground, &ground_hit);
        fill_hit(self->hover, &hit, c, "hover", out);
        return true;
    }
    if (self->grab == GRAB_UNIT) {
        bool moved = drag_unit(self, &c->ray);
        self->moved = moved;
        const rp_sphere *u = &self->units[self->grabbed];
        lesson_pick_miss(out, &c->ray, "drag");
        out->hit = true;
        out->id = self->grabbed;
        object_name(self->grabbed, out->what, sizeof out->what);
        glm_vec3_add((float *)u->center, self->grab_offset, out->point);   /* the grabbed point */
        out->t = glm_vec3_distance((float *)c->ray.origin, out->point) / glm_vec3_norm((float *)c->ray.dir);
        lesson_pick_vec3(out, "center", u->center, 9);
        lesson_pick_vec3(out, "grab_offset", self->grab_offset, 9);
        lesson_pick_bool(out, "moved", moved);
        if (phase == LESSON_POINTER_RELEASE)
            self->grab = GRAB_NONE;
        return true;
    }
    if (self->grab == GRAB_RECT) {
        self->rect[2] = c->px;
        self->rect[3] = c->py;
        lesson_pick_miss(out, &c->ray, phase == LESSON_POINTER_RELEASE ? "select" : "rectangle");
        if (phase == LESSON_POINTER_RELEASE) {
            select_rect(self, c);
            self->grab = GRAB_NONE;
        }
        float r[4] = {self->rect[0], self->rect[1], self->rect[2], self->rect[3]};
        lesson_pick_vec3(out, "rect_from", (vec3){r[0], r[1], 0.0f}, 9);
        lesson_pick_vec3(out, "rect_to", (vec3){r[2], r[3], 0.0f}, 9);
        selected_field(self, out);
        if (phase == LESSON_POINTER_RELEASE) {
            int ids[UNIT_COUNT], n = 0;
            for (int i = 0; i < UNIT_COUNT; ++i)
                if (self->listing_selected[i])
                    ids[n++] = i;
            lesson_pick_ints(out, "listing_selected", ids, n);
            lesson_pick_bool(out, "listing_agrees", self->listing_agrees);
            lesson_pick_int(out, "steps", self->trace.count);
        }
        return true;
    }
    return false;   /* a release after a click on a path, or a drag of nothing */
}

/* ------------------------------------------------------------ drawing */

static const vec4 blue = {0.30f, 0.55f, 1.0f, 1.0f};
static const vec4 orange = {1.0f, 0.55f, 0.15f, 1.0f};
static const vec4 path_color = {0.85f, 0.85f, 0.80f, 1.0f};
static const vec4 hover_color = {1.0f, 1.0f, 0.35f, 1.0f};
static const vec4 select_color = {0.35f, 1.0f, 0.45f, 1.0f};

/* a ring on the ground around a selected unit */
static void draw_ring(const lesson6 *self, render_list *list, const rp_sphere *u, const vec4 color)
{
    enum { N = 32 };
    vec3 prev = {0};
    for (int k = 0; k <= N; ++k) {
        float a = 6.2831853f * (float)k / N, r = u->radius * 1.45f;
        vec3 p = {u->center[0] + r * cosf(a), 0.0f, u->center[2] + r * sinf(a)};
        if (!rp_heightmap_height_at(self->map, p[0], p[2], &p[1]))
            p[1] = u->center[1] - u->radius;
        p[1] += PATH_LIFT;
        if (k > 0)
            render_list_line(list, prev, p, color);
        glm_vec3_copy(p, prev);
    }
}

static bool pickable(const lesson6 *self, int index)
{
    uint32_t layer = index < UNIT_COUNT ? unit_layer(index) : LAYER_PATHS;
    return (layers_now(self) & layer) != 0;
}

/* Step mode showing a step of the listing's run: the step's index, else -1. */
static int step_shown(const lesson6 *self)
{
    if (!self->has_steps || !lesson_stepper_active(&self->stepper) || self->stepper.current >= self->trace.count)
        return -1;
    return self->stepper.current;
}

static const vec4 step_color = {0.35f, 0.9f, 1.0f, 1.0f};

static void draw_rect_outline(render_list *list, const float *rect, const vec4 color)
{
    float x0 = glm_min(rect[0], rect[2]), x1 = glm_max(rect[0], rect[2]);
    float y0 = glm_min(rect[1], rect[3]), y1 = glm_max(rect[1], rect[3]);
    if (!(x1 > x0 && y1 > y0))
        return;
    render_list_fig_line(list, x0, y0, x1, y0, 2.0f, color);
    render_list_fig_line(list, x1, y0, x1, y1, 2.0f, color);
    render_list_fig_line(list, x1, y1, x0, y1, 2.0f, color);
    render_list_fig_line(list, x0, y1, x0, y0, 2.0f, color);
}

static void draw(const void *self_, render_list *list)
{
    const lesson6 *self = self_;
    render_list_terrain(list, &self->mesh.data);
    /* step mode: the released rectangle stays, the step's unit is lit and
       the rings come as the listing decides */
    int shown = step_shown(self);
    int step_unit = shown >= 0 ? self->step_unit[shown] : -1;
    if (shown >= 0 && self->grab != GRAB_RECT)
        draw_rect_outline(list, self->step_rect, step_color);
    for (int i = 0; i < UNIT_COUNT; ++i) {
        const rp_sphere *u = &self->units[i];
        mat4 model;
        lesson_model(u->center, (versor){0.0f, 0.0f, 0.0f, 0.0f}, (vec3){u->radius, u->radius, u->radius}, model);
        vec4 color;
        glm_vec4_copy((float *)(unit_layer(i) == LAYER_BLUE ? blue : orange), color);
        if (!pickable(self, i))
            glm_vec4_scale(color, 0.45f, color);     /* dimmed: L leaves its layer out */
        color[3] = 1.0f;
        bool lit = self->hover == i || (self->grab == GRAB_UNIT && self->grabbed == i) || step_unit == i;
        render_list_shape(list, RENDER_SPHERE, model, color,
                          step_unit == i ? (vec3){0.1f, 0.45f, 0.55f} : lit ? (vec3){0.45f, 0.45f, 0.2f} : NULL);
        bool decided = shown < 0 || (self->verdict_step[i] >= 0 && self->verdict_step[i] <= shown);
        if (self->selected[i] && decided)
            draw_ring(self, list, u, select_color);
        else if (step_unit == i)
            draw_ring(self, list, u, step_color);
    }
    for (int p = 0; p < PATH_COUNT; ++p) {
        bool lit = self->hover == UNIT_COUNT + p;
        vec4 color;
        glm_vec4_copy((float *)(lit ? hover_color : path_color), color);
        if (!pickable(self, UNIT_COUNT + p))
            glm_vec4_scale(color, 0.5f, color);
        color[3] = 1.0f;
        for (int k = 0; k + 1 < PATH_POINTS; ++k) {
            const float *a = &self->paths[p][3 * k], *b = &self->paths[p][3 * k + 3];
            if (lit)
                render_list_beam(list, a, b, 0.25f, (vec4){1.0f, 0.9f, 0.3f, 0.8f});
            render_list_line(list, a, b, color);
        }
    }
    if (self->grab == GRAB_RECT) {
        float x0 = glm_min(self->rect[0], self->rect[2]), x1 = glm_max(self->rect[0], self->rect[2]);
        float y0 = glm_min(self->rect[1], self->rect[3]), y1 = glm_max(self->rect[1], self->rect[3]);
        if (x1 > x0 && y1 > y0) {
            render_list_fig_rect(list, x0, y0, x1 - x0, y1 - y0, (vec4){0.35f, 1.0f, 0.45f, 0.15f});
            render_list_fig_line(list, x0, y0, x1, y0, 2.0f, select_color);
            render_list_fig_line(list, x1, y0, x1, y1, 2.0f, select_color);
            render_list_fig_line(list, x1, y1, x0, y1, 2.0f, select_color);
            render_list_fig_line(list, x0, y1, x0, y0, 2.0f, select_color);
        }
    }
}

static void status(const void *self_, char *buf, size_t size)
{
    const lesson6 *self = self_;
    char hover[48] = "", shown[64];
    if (self->hover >= 0) {
        object_name(self->hover, hover, sizeof hover);
        lesson_display_name("name", hover, shown, sizeof shown);
    } else {
        snprintf(shown, sizeof shown, "%s", TEXT("nothing"));
    }
    int n = snprintf(buf, size, TEXT("status"), shown, self->selected_count, msg(layer_choices[self->layer_choice].text));
    if (n < 0 || (size_t)n >= size)
        return;
    const char *doing = self->grab == GRAB_UNIT ? (self->moved ? TEXT("dragging") : TEXT("grabbed"))
                        : self->grab == GRAB_RECT ? TEXT("selecting")
                                                  : TEXT("idle");
    const char *steps = !self->stepper.on ? TEXT("steps.hint")
                        : step_shown(self) >= 0 ? TEXT("steps.keys") : TEXT("steps.wait");
    snprintf(buf + n, size - (size_t)n, "%s\n%s", doing, steps);
}

/* The code panel: the listing, the last rectangle's steps, the one shown. */
static bool code(const void *self_, lesson_code_view *out)
{
    const lesson6 *self = self_;
    memset(out, 0, sizeof *out);
    out->code = &listing_lesson6_xna_marquee;
    if (self->has_steps) {
        out->steps = self->steps;
        out->count = self->trace.count;
    }
    int shown = step_shown(self);
    if (shown >= 0) {
        out->step = &self->steps[shown];
        out->index = shown;
    }
    return true;
}

/* ------------------------------------------------------------ the inset */

static const vec4 fig_bg = {0.05f, 0.06f, 0.09f, 1.0f};
static const vec4 fig_title = {1.0f, 0.85f, 0.45f, 1.0f};
static const vec4 fig_text = {0.85f, 0.88f, 0.92f, 1.0f};
static const vec4 fig_dim = {0.42f, 0.45f, 0.52f, 1.0f};
static const vec4 fig_plane = {1.0f, 0.7f, 0.2f, 1.0f};

/* The window as the release saw it, scaled into the inset: the rectangle
   (clipped to the window, as GetSelectionRectangle clips it), the plane
   the step tests as the rectangle's side (Near and Far: all of it), and
   each unit's sphere where the camera shows it, coloured by what the
   listing has decided up to the step: green selected, grey left out. */
static void figure(const void *self_, const lesson_figure_area *area, render_list *list)
{
    const lesson6 *self = self_;
    float ts = area->text_scale;
    render_list_fig_rect(list, area->x, area->y, area->w, area->h, fig_bg);
    float y = lesson_fig_text(list, area, area->y + 4.0f * ts, fig_title, TEXT("figure.title"));
    if (!self->has_steps || self->trace.count == 0) {
        lesson_fig_text(list, area, y, fig_text, TEXT("figure.empty"));
        return;
    }
    int shown = step_shown(self);
    if (shown < 0)
        shown = self->trace.count - 1;
    const rp_viewport *vp = &self->step_vp;
    float s = glm_min((area->w - 12.0f * ts) / vp->width, (area->y + area->h - y - 6.0f * ts) / vp->height);
    if (!(s > 0.0f))
        return;
    float ox = area->x + 0.5f * (area->w - vp->width * s), oy = y + 2.0f * ts;
#define FX(px) (ox + ((px) - vp->x) * s)
#define FY(py) (oy + ((py) - vp->y) * s)
    float win[4] = {vp->x, vp->y, vp->x + vp->width, vp->y + vp->height};
    draw_rect_outline(list, (float[4]){FX(win[0]), FY(win[1]), FX(win[2]), FY(win[3])}, fig_dim);
    float x0 = glm_clamp(glm_min(self->step_rect[0], self->step_rect[2]), win[0], win[2]);
    float x1 = glm_clamp(glm_max(self->step_rect[0], self->step_rect[2]), win[0], win[2]);
    float y0 = glm_clamp(glm_min(self->step_rect[1], self->step_rect[3]), win[1], win[3]);
    float y1 = glm_clamp(glm_max(self->step_rect[1], self->step_rect[3]), win[1], win[3]);
    float r[4] = {FX(x0), FY(y0), FX(x1), FY(y1)};
    draw_rect_outline(list, r, step_color);
    /* the plane of a plane step: p 0 Near 1 Far 2 Left 3 Right 4 Top 5 Bottom */
    const listing_step *st = &self->steps[shown];
    const listing_watch *p = strstr(st->msg_id, ".step.plane-") ? listing_step_watch(st, "p") : NULL;
    if (p) {
        static const char *const names[6] = {"Near", "Far", "Left", "Right", "Top", "Bottom"};
        int k = p->i;
        if (k < 2) {
            render_list_fig_rect(list, r[0], r[1], r[2] - r[0], r[3] - r[1], (vec4){1.0f, 0.7f, 0.2f, 0.18f});
        } else {
            float ex0 = k == 3 ? r[2] : r[0], ex1 = k == 2 ? r[0] : r[2];
            float ey0 = k == 5 ? r[3] : r[1], ey1 = k == 4 ? r[1] : r[3];
            render_list_fig_line(list, ex0, ey0, ex1, ey1, 4.0f * ts, fig_plane);
        }
        if (k >= 0 && k < 6)
            render_list_fig_text(list, 0.5f * (r[0] + r[2]), 0.5f * (r[1] + r[3]) - 6.0f * ts, ts,
                                 RENDER_ALIGN_CENTER, 0.0f, fig_plane, names[k]);
    }
    /* the units: a circle of the sphere's size on screen, its number */
    int step_unit = self->step_unit[shown];
    mat4 view, proj;
    glm_mat4_copy((vec4 *)self->step_view, view);
    glm_mat4_copy((vec4 *)self->step_proj, proj);
    for (int i = 0; i < UNIT_COUNT; ++i) {
        const rp_sphere *u = &self->units[i];
        vec3 at;
        vec4 clip;
        glm_mat4_mulv(view, (vec4){u->center[0], u->center[1], u->center[2], 1.0f}, clip);
        if (!rp_project_point(u->center, vp, proj, view, RP_GL, at) || !(clip[2] < 0.0f))
            continue;
        float radius = u->radius * proj[1][1] * 0.5f * vp->height / -clip[2] * s;
        bool decided = self->verdict_step[i] >= 0 && self->verdict_step[i] <= shown;
        vec4 color;
        glm_vec4_copy((float *)(decided ? (self->listing_selected[i] ? select_color : fig_dim)
                                : unit_layer(i) == LAYER_BLUE ? blue : orange), color);
        bool now = i == step_unit;
        radius = glm_max(radius, 3.0f * ts);
        render_list_fig_circle(list, FX(at[0]), FY(at[1]), radius, now ? 3.0f * ts : 1.5f * ts,
                               now ? step_color : color);
        char label[12];                             /* room for any int */
        snprintf(label, sizeof label, "%d", i);     /* the listing's i */
        render_list_fig_text(list, FX(at[0]) + radius + 2.0f * ts, FY(at[1]) - 6.0f * ts, ts, RENDER_ALIGN_LEFT,
                             0.0f, now ? step_color : color, label);
    }
#undef FX
#undef FY
}

/* ------------------------------------------------------------ objects */

static int objects(const void *self_, const vec3 eye, lesson_object *out, int cap)
{
    (void)eye;
    const lesson6 *self = self_;
    int n = 0;
    for (int i = 0; i < UNIT_COUNT; ++i, ++n) {
        if (n >= cap)
            continue;
        out[n].id = i;
        object_name(i, out[n].name, sizeof out[n].name);
        out[n].kind = LESSON_OBJECT_SPHERE;
        out[n].shape.sphere = self->units[i];
    }
    /* each path's middle point: a place on the path to hover */
    for (int p = 0; p < PATH_COUNT; ++p, ++n) {
        if (n >= cap)
            continue;
        out[n].id = UNIT_COUNT + p;
        object_name(UNIT_COUNT + p, out[n].name, sizeof out[n].name);
        out[n].kind = LESSON_OBJECT_POINT;
        glm_vec3_copy((float *)&self->paths[p][3 * (PATH_POINTS / 2)], out[n].shape.point.center);
    }
    return n;
}

/* ------------------------------------------------------------ tour */

#define TOUR_ID(name) "lesson.hover-drag-select.tour." name
#define STEP_ID(name) "lesson.hover-drag-select.step." name

static const lesson_tour_moment tour[] = {
    /* hover: the cursor on path 1's middle; the path glows */
    {.sentence = TOUR_ID("hover"),
     .click_count = 1,
     .clicks = {{.aim = LESSON_AIM_OBJECT, .object = UNIT_COUNT, .gesture = LESSON_GESTURE_MOVE}}},
    /* drag: unit 2 up the slope */
    {.sentence = TOUR_ID("drag"),
     .click_count = 1,
     .clicks = {{.aim = LESSON_AIM_OBJECT, .object = 1, .gesture = LESSON_GESTURE_DRAG, .to_fx = 0.44f,
                 .to_fy = 0.46f}}},
    /* select: a rectangle from the middle of the ground down to the right */
    {.sentence = TOUR_ID("select"),
     .click_count = 1,
     .clicks = {{.aim = LESSON_AIM_WINDOW, .fx = 0.54f, .fy = 0.56f, .gesture = LESSON_GESTURE_DRAG,
                 .to_fx = 0.94f, .to_fy = 0.89f}}},
    /* layers: L twice (paths only), the cursor on unit 2 picks nothing */
    {.sentence = TOUR_ID("layers"),
     .keys = "ll",
     .click_count = 1,
     .clicks = {{.aim = LESSON_AIM_OBJECT, .object = 1, .gesture = LESSON_GESTURE_MOVE}}},
    /* step mode: a rectangle left of the code panel, from the ground at the
       left edge down to the middle, stepped to the listing's first
       Contains verdict (unit 2, wholly inside) */
    {.sentence = TOUR_ID("steps"),
     .keys = "p",
     .click_count = 1,
     .clicks = {{.aim = LESSON_AIM_WINDOW, .fx = 0.03f, .fy = 0.47f, .gesture = LESSON_GESTURE_DRAG,
                 .to_fx = 0.52f, .to_fy = 0.72f}},
     .steps = STEP_CAP,
     .until = STEP_ID("unit-contains")},
    /* the same rectangle: its top right corner passes just below and left
       of unit 4, which Contains calls Intersects and the exact test leaves out */
    {.sentence = TOUR_ID("corner"),
     .keys = "p",
     .click_count = 1,
     .clicks = {{.aim = LESSON_AIM_WINDOW, .fx = 0.03f, .fy = 0.47f, .gesture = LESSON_GESTURE_DRAG,
                 .to_fx = 0.52f, .to_fy = 0.72f}},
     .steps = STEP_CAP,
     .until = STEP_ID("exact-misses")},
};

const lesson lesson6_select = {
    .number = 6,
    .camera = {{0.0f, 2.0f, 0.0f}, 0.0f, 0.75f, 36.0f, 0.7853982f},
    .create = create,
    .destroy = destroy,
    .update = update,
    .key = key,
    .method = method,
    .click = click,
    .draw = draw,
    .status = status,
    .objects = objects,
    .pointer = pointer,
    .code = code,
    .figure = figure,
    .tour = tour,
    .tour_count = (int)(sizeof tour / sizeof tour[0]),
};

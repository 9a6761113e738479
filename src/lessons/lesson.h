/*
 * lesson.h: what every lesson provides. A lesson is an object: create()
 * returns its state, every callback receives it as `self` (sokol's
 * user-data pattern), destroy() frees it. No lesson keeps file-level mutable
 * state, so two instances never share anything and a test can make one
 * without a window. The app owns the window, the camera and the input.
 * Data flows one way:
 *
 *   SDL click -> app maps it to drawable pixels -> app builds the pick ray
 *   (the lesson's method) -> lesson->click asks the library and updates its
 *   state -> lesson->draw lists what to draw (render_list.h, plain data) ->
 *   the app submits the list to the renderer.
 *
 * Lessons never include SDL or GL and never call the renderer: what they
 * report (objects, pick fields) is data the app writes out, once for all.
 */
#ifndef RAYPICK_LESSON_H
#define RAYPICK_LESSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <raypick/raypick.h>
#include "listing.h"
#include "render_list.h"

typedef enum lesson_method {
    LESSON_PICK_D3D9,       /* rp_pick_ray_perspective (D3D9 CalculateRay)    */
    LESSON_PICK_UNPROJECT   /* rp_pick_ray_unproject (XNA's GetPointerRay)   */
} lesson_method;

const char *lesson_method_name(lesson_method m);

/* Where the user clicked, and the ray the app built for it. */
typedef struct lesson_click {
    float px, py;           /* drawable pixels, top-left origin */
    rp_viewport viewport;
    mat4 view, proj;        /* RP_GL convention */
    lesson_method method;
    rp_ray ray;             /* built with `method` */
} lesson_click;

/* One extra field of a pick's report, as data: the app writes it as
   ,"name":value after the common fields. */
typedef enum lesson_field_type {
    LESSON_FIELD_BOOL,
    LESSON_FIELD_INT,
    LESSON_FIELD_FLOAT,     /* printed with `digits` significant digits */
    LESSON_FIELD_VEC3,      /* [x,y,z], `digits` significant digits */
    LESSON_FIELD_INTS       /* [a,b,...]: the first `count` of `ints` */
} lesson_field_type;

#define LESSON_FIELD_INTS_MAX 16
#define LESSON_PICK_FIELDS 16

typedef struct lesson_field {
    const char *name;       /* a string literal: not copied */
    lesson_field_type type;
    int digits;
    int count;
    union {
        bool b;
        int i;
        float f;
        vec3 v;
        int ints[LESSON_FIELD_INTS_MAX];
    } value;
} lesson_field;

/* What a click did: the HUD shows it, --report prints it as JSON. */
typedef struct lesson_pick {
    bool   hit;
    int    id;              /* object id, -1 for a miss */
    char   what[48];        /* object name or "miss" */
    float  t;               /* in units of ray.dir */
    vec3   point;
    rp_ray ray;             /* the ray the hit is on (lesson 2: the beam) */
    char   method[24];      /* how it was found, e.g. "d3d9", "search" */
    char   note[96];        /* one more HUD line, e.g. "D3D9 and unproject agree" */
    lesson_field fields[LESSON_PICK_FIELDS];   /* the lesson's own report fields */
    int    field_count;
} lesson_pick;

/* A pickable object (or a landmark) as data: --print-layout writes these,
   tests aim at them. */
typedef enum lesson_object_kind {
    LESSON_OBJECT_SPHERE,       /* sphere */
    LESSON_OBJECT_ELLIPSOID,    /* ellipsoid ("sphere" in JSON when its radii are equal) */
    LESSON_OBJECT_TURRET,       /* center */
    LESSON_OBJECT_MAP,          /* the terrain: cols, rows, spacing, height_scale, origin */
    LESSON_OBJECT_SPIRE,        /* center = top, base */
    LESSON_OBJECT_POINT         /* center */
} lesson_object_kind;

typedef struct lesson_object {
    int id;
    char name[48];
    lesson_object_kind kind;
    union {
        rp_sphere sphere;
        rp_ellipsoid ellipsoid;
        struct { vec3 center; } turret, point;
        struct { int cols, rows; float spacing, height_scale; vec3 origin; } map;
        struct { vec3 center, base; } spire;
    } shape;
} lesson_object;

/* Start-up settings a lesson may use. */
typedef struct lesson_env {
    uint32_t    seed;
    const char *heightmap_path; /* lesson 4: NULL = procedural */
    char       *err;            /* create() failure message */
    size_t      err_size;
    const struct mesh_data *mesh; /* lesson 5: a model to pick (--mesh), copied; NULL = procedural */
    float heightmap_spacing;    /* lesson 4: world units per sample; 0 = fit the default view */
    float heightmap_scale;      /* lesson 4: world height of white; 0 = the default (7) */
    int many_objects;           /* lesson 1's many-objects mode (A): how many; 0 = 100,000 */
    long long load_limit;       /* bytes a file may take to load (--load-limit); 0 = the default */
    /* create() calls this when a step that may take long starts (what it
       does, e.g. "map.png: loading 4097x4097"), for the HUD; may be NULL.
       create() may run on another thread than the window's. */
    void (*progress)(void *user, const char *what);
    void *progress_user;
} lesson_env;

/* The orbit camera a lesson starts with (and R returns to). */
typedef struct lesson_camera {
    vec3  target;
    float yaw, pitch;       /* radians; yaw 0 looks down -z */
    float distance;
    float fov;              /* vertical, radians */
} lesson_camera;

/* ---- how a lesson teaches (docs/architecture.md, "How a lesson teaches") */

/* The code panel's content: the lesson's listing (listing.h) and the step
   shown. The app draws it beside the scene (key C). */
typedef struct lesson_code_view {
    const listing *code;            /* the tutorial's method as it ran */
    const listing_step *steps;      /* the last click's steps, count of them (NULL, 0: none yet) */
    int count;
    const listing_step *step;       /* the step shown, &steps[index]; NULL: none (the code alone) */
    int index;
} lesson_code_view;

/* Where the lesson's inset goes: drawable pixels, top-left origin, and the
   scale its texts should have (render_text's, the HUD's body text). */
typedef struct lesson_figure_area {
    float x, y, w, h;
    float text_scale;
} lesson_figure_area;

/* Where a tour moment clicks: a place in the window (fractions of its
   width and height, top-left origin: the sky), a world point, or one of
   the lesson's objects (objects(): the one with this id; its centre, or
   for a spire base + along * (top - base)). World points and objects are
   aimed through the camera the moment sets. */
typedef enum lesson_tour_aim {
    LESSON_AIM_WINDOW,
    LESSON_AIM_WORLD,
    LESSON_AIM_OBJECT
} lesson_tour_aim;

/* What a tour click does there (a lesson with a pointer callback): a
   click (the zero value), the cursor moved there with no button (hover),
   or a drag: the left button down there, LESSON_TOUR_DRAG_MOVES moves on
   the line to the window fraction (to_fx, to_fy), the button up there. */
typedef enum lesson_tour_gesture {
    LESSON_GESTURE_CLICK,
    LESSON_GESTURE_MOVE,
    LESSON_GESTURE_DRAG
} lesson_tour_gesture;

#define LESSON_TOUR_DRAG_MOVES 8

typedef struct lesson_tour_click {
    lesson_tour_aim aim;
    float fx, fy;                   /* WINDOW: 0..1 */
    vec3 world;                     /* WORLD */
    int object;                     /* OBJECT: its id */
    float along;                    /* OBJECT, a spire: 0 base .. 1 top */
    lesson_tour_gesture gesture;
    float to_fx, to_fy;             /* DRAG: where it ends, 0..1 of the window */
} lesson_tour_click;

#define LESSON_TOUR_CLICKS 2

/* One staged moment of a lesson's tour: the app starts the lesson afresh,
   puts its camera at `camera` (the lesson's start camera when !has_camera),
   presses `keys` (app and lesson keys, e.g. "pl"), makes the clicks,
   presses `after` (e.g. "]": the app's orbit, to see the click's ray from
   the side), then presses '.' up to `steps` times (step mode: more than the click recorded
   stops at its last), stopping early at the first step whose id is
   `until` (NULL: no early stop). `sentence` is the catalogue's id of the
   one sentence the HUD shows. */
typedef struct lesson_tour_moment {
    const char *sentence;
    bool has_camera;
    lesson_camera camera;
    const char *keys;
    int click_count;
    lesson_tour_click clicks[LESSON_TOUR_CLICKS];
    const char *after;
    int steps;
    const char *until;
} lesson_tour_moment;

/* What the mouse did besides a click (lesson->pointer): the port of
   WM_MOUSEMOVE and of a drag held by SetCapture. */
typedef enum lesson_pointer_phase {
    LESSON_POINTER_MOVE,    /* moved with no button held: hover */
    LESSON_POINTER_DRAG,    /* moved with the left button held since a click (click() came
                               first, at the press); the cursor may be outside the window */
    LESSON_POINTER_RELEASE  /* the left button went up, at c (ends the drag) */
} lesson_pointer_phase;

typedef struct lesson {
    int number;             /* its line in the registry (lessons.c; tests/test_lessons.c checks);
                               its title and keys are the catalogue's
                               (lessons_title, lessons_keys) */
    lesson_camera camera;

    /* the lesson's state, or NULL with a message in env->err */
    void *(*create)(const lesson_env *env);
    /* Optional (NULL: nothing to check): the lesson's files checked before
       any window opens, from what is quick to read (a header, not the
       pixels): false with a message in env->err. create() still checks
       everything; this spares the user a window that would only close. */
    bool (*check_files)(const lesson_env *env);
    /* frees everything create() made; NULL is fine */
    void (*destroy)(void *self);
    void (*update)(void *self, float dt);
    bool (*key)(void *self, char key);          /* true when the lesson used it */
    lesson_method (*method)(const void *self);  /* how the app builds its ray */
    void (*click)(void *self, const lesson_click *c, lesson_pick *out);
    /* what to draw this frame, appended to list (list->view is the camera) */
    void (*draw)(const void *self, render_list *list);
    /* status lines for the HUD */
    void (*status)(const void *self, char *buf, size_t size);
    /* The pickable objects (and landmarks) seen from eye: writes at most
       cap to out, returns how many there are. */
    int (*objects)(const void *self, const vec3 eye, lesson_object *out, int cap);
    /* Optional (NULL: never): a camera that frames what the lesson shows
       now (lesson 4's step mode: the current interval). true when out is
       set; the app then looks through it, with the user's orbit and zoom
       applied on top (app_camera_framed). */
    bool (*frame)(const void *self, lesson_camera *out);
    /* Optional (NULL: the id itself): the object, as the pick's id names
       it, that a GPU pick id written by draw's commands stands for (lesson
       1's many objects: an instanced copy's id), -1 for an id no object
       writes. */
    int (*gpu_object)(const void *self, uint32_t id);
    /* Optional (NULL: no code panel): the listing and the step shown; false
       when there is nothing to show now. */
    bool (*code)(const void *self, lesson_code_view *out);
    /* Optional (NULL: no inset): the lesson's key figure for what it shows
       now, drawn with render_list_fig_* into area (the app calls it after
       draw, when the code panel is on). */
    void (*figure)(const void *self, const lesson_figure_area *area, render_list *list);
    /* Optional (NULL: the pick stays as the click made it): the last pick
       as it stands now, after a key changed it (lesson 4's M shows the
       other method's point); false when there is none. */
    bool (*pick)(const void *self, lesson_pick *out);
    /* Optional (NULL: only clicks): the cursor moved, with or without the
       left button held, or the button went up; c holds the ray under the
       cursor (as a click's). true when out is filled with what the event
       picked (the app reports it; a hover's pick does not replace the
       click's on the HUD's pick line). */
    bool (*pointer)(void *self, lesson_pointer_phase phase, const lesson_click *c, lesson_pick *out);
    /* The lesson's tour: staged moments (NULL, 0: none). */
    const lesson_tour_moment *tour;
    int tour_count;
} lesson;

/* The lessons' tables, in the order of the registry (lessons.h): the app
   and tools reach them through lessons_get(); tests may name them. */
extern const lesson lesson1_spheres;
extern const lesson lesson2_shields;
extern const lesson lesson3_bounds;
extern const lesson lesson4_terrain;
extern const lesson lesson5_triangles;

/* Step mode, the same keys in every lesson: P pauses at the next click and
   shows the algorithm one step at a time, '.' advances, ',' goes back. A
   click records its steps (the lesson keeps them); the stepper only says
   which one is shown. Zero value: step mode off, no steps. */

typedef struct lesson_stepper {
    bool on;        /* step mode */
    int  current;   /* the step shown, 0 .. count-1 */
    int  count;     /* steps the last click recorded, 0 = none yet */
} lesson_stepper;

/* Handles p . , : true when it used the key. '.' and ',' stop at the ends. */
bool lesson_stepper_key(lesson_stepper *s, char key);
/* A click recorded count steps: show the first one. */
void lesson_stepper_restart(lesson_stepper *s, int count);
/* true when step mode is on and a click has recorded steps */
bool lesson_stepper_active(const lesson_stepper *s);
/* "step 3 of 12" (1-based) into buf; "" when not active. Returns buf. */
const char *lesson_stepper_label(const lesson_stepper *s, char *buf, size_t size);

/* The world point a tour click aims at (AIM_WORLD: its point; AIM_OBJECT:
   the object of l->objects(self, eye) with that id, its centre, or along
   its height for a spire); false for a window click, an object the lesson
   does not list from eye, or a map. */
bool lesson_tour_point(const lesson *l, const void *self, const lesson_tour_click *c, const vec3 eye, vec3 out);

/* helpers shared by the lessons (lesson_common.c) */
/* env->progress(env->progress_user, what) when there is one */
void lesson_progress(const lesson_env *env, const char *what);
void lesson_pick_miss(lesson_pick *out, const rp_ray *ray, const char *method);
/* append a report field to a pick (ignored when the pick is full) */
void lesson_pick_bool(lesson_pick *out, const char *name, bool value);
void lesson_pick_int(lesson_pick *out, const char *name, int value);
void lesson_pick_float(lesson_pick *out, const char *name, float value, int digits);
void lesson_pick_vec3(lesson_pick *out, const char *name, const vec3 value, int digits);
void lesson_pick_ints(lesson_pick *out, const char *name, const int *values, int count);
/* The HUD's words for a name the lessons keep in English (their reports'
   "what" and "method", "torus", "face 12", "search"): the catalogue's
   prefix.NAME (spaces as '-'; "name" or "method"), a trailing number kept
   ("face 12" -> "Dreieck 12" in German); the name itself where the
   catalogue has none. Returns buf ("" for NULL arguments). */
const char *lesson_display_name(const char *prefix, const char *name, char *buf, size_t size);
/* the field called name, or NULL */
const lesson_field *lesson_pick_field(const lesson_pick *p, const char *name);
/* model matrix: translate, rotate (quaternion, all zeros = none), scale */
void lesson_model(const vec3 position, const versor rotation, const vec3 scale, mat4 out);
/* A box's twelve edges as lines; box->orientation all zeros = axis-aligned
   (an rp_aabb is the box with center (min + max) / 2, half_extents
   (max - min) / 2). */
void lesson_list_box(render_list *list, const rp_obb *box, const vec4 color);
/* A label beside world point p, px_height pixels tall whatever the
   distance, in seven-segment strokes facing the camera (list->view): the
   renderer has no text in the scene. Digits, A, B and L; other characters
   leave a gap. Nothing for a view without height or a p at the eye. */
void lesson_list_label(render_list *list, const vec3 p, const char *text, float px_height, const vec4 color);

/* Labels that never pile up: a label is drawn only where no label drawn
   before it (into the same room, this frame) lies within three label
   heights on screen, so a lesson asks for the important ones first. */
#define LESSON_LABELS_MAX 48
typedef struct lesson_label_room {
    vec2 at[LESSON_LABELS_MAX];     /* where the labels drawn so far are, pixels */
    int count;
} lesson_label_room;
/* lesson_list_label when there is room for it (above); true when drawn.
   Nothing for a point behind the eye, or once LESSON_LABELS_MAX are. */
bool lesson_list_label_spaced(render_list *list, lesson_label_room *room, const vec3 p, const char *text,
                              float px_height, const vec4 color);

/* ---- insets (lesson->figure) ---- */

/* A line of an inset's text is this many pixels at its text scale. */
#define LESSON_FIG_LINE 13.0f
/* About how many lines text takes wrapped to max_w pixels at text scale
   ts: a lesson cannot measure the font, so an ASCII character counts about
   6 pixels at scale 1, a CJK one 12 (a little more than the HUD font
   needs). At least 1; 0 for NULL. */
int lesson_fig_lines(const char *text, float max_w, float ts);
/* The width of one line of text at text scale ts by that count: as wide
   as the font draws it or wider. 0 for NULL. */
float lesson_fig_width(const char *text, float ts);
/* text at y in the area, wrapped to its width (a 6-pixel margin each
   side, at its text scale); returns the y under it by lesson_fig_lines. */
float lesson_fig_text(render_list *list, const lesson_figure_area *area, float y, const vec4 color, const char *text);
/* text whose phrases are set apart by runs of two or more spaces ("d = 1.9
   ra + rb = 2.2"), into out with a line break in place of each run where
   the next phrase would not fit max_w at text scale ts (lesson_fig_lines'
   measure, which the font never exceeds): the lines break between phrases,
   never inside one (a phrase wider than max_w alone is still wrapped when
   drawn). Cut short, whole characters, when out is too small. */
void lesson_fig_phrases(const char *text, float max_w, float ts, char *out, size_t size);
/* lesson_fig_text with the lines broken between phrases
   (lesson_fig_phrases). */
float lesson_fig_phrase_text(render_list *list, const lesson_figure_area *area, float y, const vec4 color,
                             const char *text);

#endif /* RAYPICK_LESSON_H */

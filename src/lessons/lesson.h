/*
 * lesson.h: what every lesson provides. A lesson owns its scene state; the
 * app owns the window, the camera and the input. Data flows one way:
 *
 *   SDL click -> app maps it to drawable pixels -> app builds the pick ray
 *   (the lesson's method) -> lesson->click asks the library and updates its
 *   state -> lesson->draw hands the state to the renderer.
 *
 * Lessons never include SDL or GL.
 */
#ifndef RAYPICK_LESSON_H
#define RAYPICK_LESSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <raypick/raypick.h>
#include "render.h"

typedef enum lesson_method {
    LESSON_PICK_D3D9,       /* rp_pick_ray_perspective (seed 001's CalculateRay) */
    LESSON_PICK_UNPROJECT   /* rp_pick_ray_unproject (seed 004's GetPointerRay)  */
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
    char   json[256];       /* extra report fields: ,"key":value,... */
} lesson_pick;

/* Start-up settings a lesson may use. */
typedef struct lesson_env {
    renderer   *r;
    uint32_t    seed;
    const char *heightmap_path; /* lesson 4: NULL = procedural */
    char       *err;            /* init failure message */
    size_t      err_size;
} lesson_env;

/* The orbit camera a lesson starts with (and R returns to). */
typedef struct lesson_camera {
    vec3  target;
    float yaw, pitch;       /* radians; yaw 0 looks down -z */
    float distance;
    float fov;              /* vertical, radians */
} lesson_camera;

typedef struct lesson {
    int number;
    const char *title;
    const char *keys;       /* lesson keys for the help text, one per line */
    lesson_camera camera;

    bool (*init)(const lesson_env *env);
    void (*cleanup)(void);
    void (*update)(float dt);
    bool (*key)(char key);                 /* true when the lesson used it */
    lesson_method (*method)(void);         /* how the app builds its ray */
    void (*click)(const lesson_click *c, lesson_pick *out);
    void (*draw)(renderer *r, const render_view *v);
    /* status lines for the HUD */
    void (*status)(char *buf, size_t size);
    /* the scene's pickable objects as a JSON array (for tests); eye = the
       camera position */
    void (*layout)(FILE *out, const vec3 eye);
} lesson;

extern const lesson lesson1_spheres;
extern const lesson lesson2_shields;
extern const lesson lesson3_bounds;
extern const lesson lesson4_terrain;

/* helpers shared by the lessons (lesson_common.c) */
void lesson_pick_miss(lesson_pick *out, const rp_ray *ray, const char *method);
void lesson_json_vec3(FILE *out, const vec3 v);
/* model matrix: translate, rotate (quaternion, all zeros = none), scale */
void lesson_model(const vec3 position, const versor rotation, const vec3 scale, mat4 out);

#endif /* RAYPICK_LESSON_H */

/*
 * lesson1_many.h: lesson 1's "many objects" mode (A): 100,000 small moving
 * objects (spheres, ellipsoids, boxes and a few mesh instances) in one
 * rp_scene, moved and refitted every frame, picked with
 * rp_intersect_ray_scene, drawn with one instanced draw per shape kind.
 *
 * Lesson 1 owns one (made on the first A) and hands it its update, click,
 * draw and status while the mode is on. Like a lesson it keeps no
 * file-level state and needs no window: the unit test makes one directly.
 *
 *     lesson1_many *m = lesson1_many_create(seed, 0, err, sizeof err);
 *     lesson1_many_update(m, dt);          // move, refit
 *     lesson1_many_click(m, &click, &pick);
 *     lesson1_many_draw(m, &list);
 */
#ifndef RAYPICK_LESSON1_MANY_H
#define RAYPICK_LESSON1_MANY_H

#include "lesson.h"

/* how many objects the mode shows */
#define LESSON1_MANY_OBJECTS 100000

typedef struct lesson1_many lesson1_many;

typedef enum lesson1_many_kind {
    LESSON1_MANY_SPHERE,
    LESSON1_MANY_ELLIPSOID,
    LESSON1_MANY_BOX,           /* an oriented box */
    LESSON1_MANY_MESH,          /* an instance of a torus mesh */
    LESSON1_MANY_KIND_COUNT
} lesson1_many_kind;

/* One object as the scene holds it since the last update: what a test
   hands to the object's own rp_intersect_* function. */
typedef struct lesson1_many_body {
    lesson1_many_kind kind;
    union {
        rp_sphere sphere;
        rp_ellipsoid ellipsoid;
        rp_obb box;
        struct { const rp_mesh *mesh; mat4 model; } mesh;
    } shape;
    rp_sphere bounds;           /* a sphere around it */
} lesson1_many_body;

/* count objects (0: LESSON1_MANY_OBJECTS) placed from seed, the scene
   built; NULL with a message in err when out of memory. */
lesson1_many *lesson1_many_create(uint32_t seed, int count, char *err, size_t err_size);
/* frees everything; NULL is fine */
void lesson1_many_destroy(lesson1_many *m);
/* moves every object dt seconds along its orbit and rebuilds the scene
   (a refit: rp_scene_build), timing both for the HUD */
void lesson1_many_update(lesson1_many *m, float dt);
/* picks the nearest object on c->ray with rp_intersect_ray_scene and
   highlights it; the report names it ("box 4711"), its index is the id */
void lesson1_many_click(lesson1_many *m, const lesson_click *c, lesson_pick *out);
/* grid, one instanced command per kind, the mesh instances, the last ray;
   the objects with GPU pick ids (see lesson1_many_gpu_object) */
void lesson1_many_draw(const lesson1_many *m, render_list *list);
/* The object (its index, the ray pick's id) that the GPU pick id `id`
   written by lesson1_many_draw's commands stands for: each kind's copies
   number their run of ids in slot order. -1 for an id no object writes
   (>= the object count) or a NULL m. */
int lesson1_many_gpu_object(const lesson1_many *m, uint32_t id);
/* HUD lines: counts, move / build / pick times, the picked object */
void lesson1_many_status(const lesson1_many *m, char *buf, size_t size);

/* Lesson 1's A key: switches *on, making *m (count objects, 0:
   LESSON1_MANY_OBJECTS, from seed) the first time. When it cannot be made
   (out of memory) *on stays false. */
void lesson1_many_toggle(lesson1_many **m, bool *on, uint32_t seed, int count);

/* for tests: the object count, the scene, object `index` (false when out
   of range), the picked object (-1: none) */
int lesson1_many_count(const lesson1_many *m);
const rp_scene *lesson1_many_scene(const lesson1_many *m);
bool lesson1_many_body_at(const lesson1_many *m, int index, lesson1_many_body *out);
int lesson1_many_picked(const lesson1_many *m);

#endif /* RAYPICK_LESSON1_MANY_H */

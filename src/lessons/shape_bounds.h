/*
 * shape_bounds.h: bounding volumes of the renderer's shapes, computed from
 * their vertices (rp_sphere_from_points, rp_aabb_from_points, as
 * D3DXComputeBoundingSphere / D3DXComputeBoundingBox would), and their
 * triangles (rp_mesh), so lesson 1 can say how often each volume answers
 * "hit" for a click that misses the object itself: the false positives.
 * No GL: the vertices come from geometry.c, the same the renderer draws.
 */
#ifndef RAYPICK_SHAPE_BOUNDS_H
#define RAYPICK_SHAPE_BOUNDS_H

#include <stdbool.h>
#include <raypick/raypick.h>
#include "geometry.h"

#define SHAPE_BOUNDS_KINDS 4    /* render_shape_kind: sphere, cube, torus, cone */

typedef enum bound_volume {
    BOUND_SPHERE,           /* smallest sphere, moves with the object */
    BOUND_AABB,             /* axis-aligned box around the turned vertices, world axes */
    BOUND_OBB,              /* the model-space box, turned with the object */
    BOUND_VOLUME_COUNT
} bound_volume;

const char *bound_volume_name(bound_volume v);

/* An object as lesson 1 places it: translate * rotate * uniform scale. */
typedef struct shape_placement {
    int    kind;            /* render_shape_kind */
    vec3   position;
    versor rotation;        /* unit quaternion (x, y, z, w) */
    float  scale;
} shape_placement;

typedef struct shape_bounds {
    geo_mesh   geometry[SHAPE_BOUNDS_KINDS];
    rp_mesh   *mesh[SHAPE_BOUNDS_KINDS];
    rp_sphere  sphere[SHAPE_BOUNDS_KINDS];     /* model space */
    rp_aabb    box[SHAPE_BOUNDS_KINDS];        /* model space */
} shape_bounds;

/* false (and nothing to free) when out of memory. */
bool shape_bounds_init(shape_bounds *b);
void shape_bounds_free(shape_bounds *b);

/* The placed object's volume of that type, in world space: exactly one of
   the outputs is filled (the one the volume needs); false on a bad kind. */
bool shape_bounds_sphere(const shape_bounds *b, const shape_placement *p, rp_sphere *out);
bool shape_bounds_aabb(const shape_bounds *b, const shape_placement *p, rp_aabb *out);
bool shape_bounds_obb(const shape_bounds *b, const shape_placement *p, rp_obb *out);

/* Does the ray hit the placed object's volume? hit may be NULL. */
bool shape_bounds_hit_volume(const shape_bounds *b, const shape_placement *p, bound_volume v,
                             const rp_ray *ray, rp_hit *hit);
/* Does the ray hit the placed object's triangles? hit may be NULL. */
bool shape_bounds_hit_mesh(const shape_bounds *b, const shape_placement *p, const rp_ray *ray,
                           rp_hit *hit);

#endif /* RAYPICK_SHAPE_BOUNDS_H */

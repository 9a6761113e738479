/*
 * bvh_reference.h: the smallest BVH that gives the library's answers, to
 * read before the fast one (bvh.h lists its layers). Binary, one 32-byte
 * node, recursive binned SAH, no SIMD, no threads. The library never
 * calls it: the tests compile it in and check that rp_mesh and rp_scene
 * answer every ray as it does. Not installed.
 */
#ifndef RAYPICK_BVH_REFERENCE_H
#define RAYPICK_BVH_REFERENCE_H

#include <stdbool.h>
#include <stdint.h>

#include "raypick/box.h"
#include "raypick/ray.h"

/* tinybvh's node, and the fast builder's before it collapses them (bvh.h). */
typedef struct rp_ref_node {
    float    min[3];
    uint32_t left_first;    /* inner: left child (the right one follows it);
                               leaf: its first entry in prims */
    float    max[3];
    uint32_t count;         /* leaf: its primitives (>= 1); inner: 0 */
} rp_ref_node;

typedef struct rp_ref_bvh {
    rp_ref_node *nodes;     /* the root at 0 */
    uint32_t     node_count;
    uint32_t    *prims;     /* primitive indices, leaf by leaf */
    uint32_t     prim_count;
} rp_ref_bvh;

/* Builds a BVH over boxes[0 .. count) (count >= 1, finite, min <= max).
   false (and *out empty) on count 0 or out of memory. */
bool rp_ref_bvh_build(const rp_aabb *boxes, uint32_t count, rp_ref_bvh *out);
void rp_ref_bvh_free(rp_ref_bvh *bvh);

/* Whether primitive `prim` meets the ray at some t >= 0, and where. */
typedef bool (*rp_ref_hit_fn)(void *user, uint32_t prim, const rp_ray *ray, float *t);

/* The nearest primitive whose hit function says yes (on equal t the lowest
   index), provided each primitive's hits lie in its box; false when none.
   A primitive's box only decides whether it is tested. */
bool rp_ref_bvh_intersect(const rp_ref_bvh *bvh, const rp_ray *ray, rp_ref_hit_fn hit,
                          void *user, uint32_t *prim, float *t);

#endif /* RAYPICK_BVH_REFERENCE_H */

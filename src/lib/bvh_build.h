/*
 * bvh_build.h: the BVH builder that meshes (over triangles) and scenes
 * (over object boxes) share: binned SAH on the boxes' centroids, on up to
 * eight threads, handed out as a four-wide or a wide tree (bvh4.h). Not
 * installed; the unit tests and the benchmark include it to check the
 * tree.
 */
#ifndef RAYPICK_BVH_BUILD_H
#define RAYPICK_BVH_BUILD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bvh.h"
#include "bvh4.h"

/* A scene's leaves hold at most this many objects. */
#define RP_BVH_SCENE_MAX_LEAF 4

/* The built tree. */
typedef struct rp_bvh {
    rp_bvh4_node *nodes;    /* the root at 0 (bvh4.h)                       */
    uint32_t  node_count;   /* halves (bvh4.h: nodes of one or two)         */
    uint32_t  halves;       /* 1: a BVH4; 2: a wide tree (bvh4.h)           */
    uint32_t  node_total;   /* nodes (of one or two halves)                 */
    uint32_t *prims;        /* primitive indices, leaf by leaf              */
    uint32_t *tags;         /* their tags, when built with some (else NULL) */
    uint32_t  prim_count;
    uint32_t  depth;        /* deepest leaf of the binary tree (root = 0)   */
    double    cost;         /* the tree's SAH cost (rp_bvh4_cost)           */
    /* nodes [top_count, half) and [half, node_count) each hold whole
       subtrees, and [0, top_count) the nodes above them (rp_bvh4_ranges'
       two halves; rp_bvh4_refit_split's top) */
    uint32_t  top_count, half;
} rp_bvh;

/* The tree's shape: leaves of at most max_leaf primitives (>= 1), and
   the SAH cost of a node visit in primitive tests (a split is taken when
   it is cheaper than a leaf). */
typedef struct rp_bvh_shape {
    uint32_t max_leaf;
    double   node_cost;
    uint32_t max_threads;   /* 0: one per processor (up to 8); the tree is
                               the same on any number of threads */
    bool     scattered;     /* the primitives come in no spatial order (a
                               scene's): partition without a branch per
                               primitive (false: a mesh's triangles, whose
                               sides come in runs a branch predicts) */
    uint32_t own_slots;     /* nodes of 2 to own_slots (<= max_leaf)
                               primitives are not split: each primitive
                               gets a child slot of its own in a four-wide
                               node (bvh4.h: rp_bvh4_collapse), so each is
                               boxed on its own (a scene's, whose objects
                               cost more to test than a box); 0: none */
    uint32_t halves;        /* 0 or 1: nodes of four children; 2: of up to
                               eight, a wide tree (bvh4.h) */
} rp_bvh_shape;

/* A shape's halves per node: 1 or 2. */
static inline uint32_t rp_bvh_halves(const rp_bvh_shape *shape)
{
    return shape->halves == 2 ? 2u : 1u;
}

/* Builds a tree over boxes[0 .. count) (count >= 1) into *out (which must
   be empty) with a scene's shape (RP_BVH_SCENE_MAX_LEAF, node cost 1,
   scattered, RP_BVH_SCENE_MAX_LEAF own slots, nodes of eight children);
   false when out of memory, with *out left empty. */
bool rp_bvh_build(const rp_bvh_box *boxes, uint32_t count, rp_bvh *out);

/* rp_bvh_build, each primitive's tags[i] carried along with its box:
   out->tags[j] is the tag of out->prims[j] (the scene's kind and slot,
   read in leaf order without a random access per object). */
bool rp_bvh_build_tagged(const rp_bvh_box *boxes, const uint32_t *tags, uint32_t count,
                         rp_bvh *out);

/* rp_bvh_build with another shape. */
bool rp_bvh_build_shaped(const rp_bvh_box *boxes, uint32_t count, const rp_bvh_shape *shape,
                         rp_bvh *out);

/* Triangles where the caller has them, not copied: triangle i of the
   build is triangle prim_index[i] (NULL: i) of a mesh whose corner k is
   vertex indices[3 t + k] (NULL: 3 t + k), each vertex x y z floats at
   positions + vertex * stride. A copy of 9 floats per triangle is
   {tris, 3, NULL, NULL}. */
typedef struct rp_tri_source {
    const float    *positions;
    size_t          stride;         /* floats from one vertex to the next */
    const uint32_t *indices;
    const uint32_t *prim_index;
} rp_tri_source;

/* The input triangle that triangle i of the build is. */
static inline uint32_t rp_tri_source_triangle(const rp_tri_source *s, uint32_t i)
{
    return s->prim_index ? s->prim_index[i] : i;
}

/* The three corners of input triangle t. */
static inline void rp_tri_source_corners(const rp_tri_source *s, uint32_t t, const float *corner[3])
{
    for (int k = 0; k < 3; k++) {
        size_t v = s->indices ? s->indices[3 * (size_t)t + (size_t)k] : 3 * (size_t)t + (size_t)k;
        corner[k] = s->positions + v * s->stride;
    }
}

/* rp_bvh_build_shaped over the boxes around count triangles of `tris`:
   no box array and no copy of the triangles in between (a mesh's peak
   memory is the builder's records, not its input twice). */
bool rp_bvh_build_triangles(const rp_tri_source *tris, uint32_t count, const rp_bvh_shape *shape,
                            rp_bvh *out);

void rp_bvh_free(rp_bvh *bvh);

#endif /* RAYPICK_BVH_BUILD_H */

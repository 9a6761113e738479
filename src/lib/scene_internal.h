/*
 * scene_internal.h: the builder of the BVHs over object bounding boxes (a
 * scene's objects, a mesh's triangles). Not installed; the unit tests and
 * the benchmark include it to check the builder's depth bound and to read
 * the tree's cost.
 *
 * The builder splits binary nodes (rp_snode), and hands out the tree as a
 * BVH4 (bvh4.h): each thread collapses the subtrees it built while their
 * binary nodes are still in its cache. The binary layout (tinybvh-like):
 * one flat array of 32-byte nodes, the root at 0, the two children of
 * every interior node together at `first` and `first + 1`, after their
 * parent.
 */
#ifndef RAYPICK_SCENE_INTERNAL_H
#define RAYPICK_SCENE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* An object's world bounding box, rounded outwards to float. */
typedef struct rp_sbox {
    float min[3], max[3];
} rp_sbox;

typedef struct rp_snode {
    float    min[3];
    uint32_t first;     /* leaf: first entry in prims; interior: left child */
    float    max[3];
    uint32_t count;     /* leaf: number of objects (>= 1); interior: 0      */
} rp_snode;

/* The count of a binary node whose subtree is already a BVH4: `first` is
   the BVH4 node that holds its children (rp_bvh4_collapse never opens it). */
#define RP_SNODE_BVH4 UINT32_MAX

/* Leaves hold at most this many objects. */
#define RP_SBVH_MAX_LEAF 4
/* Below this depth the builder splits by SAH; from it on, in halves (by
   count), so no leaf is deeper than RP_SBVH_SAH_DEPTH + 30 for any count
   that fits a uint32_t: the traversal's fixed stack holds every path. */
#define RP_SBVH_SAH_DEPTH 32
#define RP_SBVH_STACK 64

typedef struct rp_sbvh {
    struct rp_bvh4_node *nodes;     /* the tree as a BVH4 (bvh4.h)          */
    uint32_t  node_count;
    uint32_t *prims;        /* object indices, leaf by leaf                 */
    uint32_t *tags;         /* their tags, when built with some (else NULL) */
    uint32_t  prim_count;
    uint32_t  depth;        /* deepest leaf of the binary tree (root = 0)   */
    double    cost;         /* the tree's SAH cost (rp_bvh4_cost)           */
    /* nodes [top_count, half) and [half, node_count) each hold whole
       subtrees, and [0, top_count) the nodes above them: the refit's two
       halves (rp_bvh4_refit_split) */
    uint32_t  top_count, half;
} rp_sbvh;

/* Builds a tree over boxes[0 .. count) (count >= 1) into *out (which must
   be empty); false when out of memory, with *out left empty. */
bool rp_sbvh_build(const rp_sbox *boxes, uint32_t count, rp_sbvh *out);

/* rp_sbvh_build, each object's tags[i] carried along with its box: out->
   tags[j] is the tag of out->prims[j] (the scene's kind and slot, read in
   leaf order without a random access per object). */
bool rp_sbvh_build_tagged(const rp_sbox *boxes, const uint32_t *tags, uint32_t count,
                          rp_sbvh *out);

/* The tree's shape, for other users of the builder (the mesh BVH): leaves
   of at most max_leaf objects (>= 1), and the SAH cost of a node visit in
   object tests (a split is taken when it is cheaper than a leaf). */
typedef struct rp_sbvh_shape {
    uint32_t max_leaf;
    double   node_cost;
    uint32_t max_threads;   /* 0: one per processor (up to 8); the tree is
                               the same on any number of threads */
    bool     scattered;     /* the objects come in no spatial order (a
                               scene's): partition without a branch per
                               object (false: a mesh's triangles, whose
                               sides come in runs a branch predicts) */
} rp_sbvh_shape;

/* rp_sbvh_build with that shape (rp_sbvh_build: RP_SBVH_MAX_LEAF, 1,
   scattered). */
bool rp_sbvh_build_shaped(const rp_sbox *boxes, uint32_t count, const rp_sbvh_shape *shape,
                          rp_sbvh *out);

/* rp_sbvh_build_shaped over the boxes around count triangles, 9 floats
   each (three vertices' x y z): no box array in between. */
bool rp_sbvh_build_triangles(const float *tris, uint32_t count, const rp_sbvh_shape *shape,
                             rp_sbvh *out);

void rp_sbvh_free(rp_sbvh *bvh);

#endif /* RAYPICK_SCENE_INTERNAL_H */

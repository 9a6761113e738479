/*
 * scene_internal.h: the scene's BVH over object bounding boxes. Not
 * installed; the unit tests and the benchmark include it to check the
 * builder's depth bound and to read the tree's cost.
 *
 * Layout (tinybvh-like): one flat array of 32-byte nodes. The root is node
 * 0; node 1 is unused so that the two children of every interior node,
 * always allocated together at `first` and `first + 1`, share one 64-byte
 * line. Children come after their parent in the array, so walking it
 * backwards visits every child before its parent (the refit's order).
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

/* Leaves hold at most this many objects. */
#define RP_SBVH_MAX_LEAF 4
/* Below this depth the builder splits by SAH; from it on, in halves (by
   count), so no leaf is deeper than RP_SBVH_SAH_DEPTH + 30 for any count
   that fits a uint32_t: the traversal's fixed stack holds every path. */
#define RP_SBVH_SAH_DEPTH 32
#define RP_SBVH_STACK 64

typedef struct rp_sbvh {
    rp_snode *nodes;
    uint32_t  node_count;   /* used entries of nodes (index 1 included)     */
    uint32_t *prims;        /* object indices, leaf by leaf                 */
    uint32_t  prim_count;
    uint32_t  depth;        /* deepest leaf (root = 0)                      */
} rp_sbvh;

/* Builds a tree over boxes[0 .. count) (count >= 1) into *out (which must
   be empty); false when out of memory, with *out left empty. */
bool rp_sbvh_build(const rp_sbox *boxes, uint32_t count, rp_sbvh *out);

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

/* SAH cost (traversal 1, object test 1 per object, each node weighted by
   its surface area over the root's): the expected work of a random ray. */
double rp_sbvh_cost(const rp_sbvh *bvh);

void rp_sbvh_free(rp_sbvh *bvh);

#endif /* RAYPICK_SCENE_INTERNAL_H */

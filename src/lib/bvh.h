/*
 * bvh.h: what every layer of the library's BVH shares: the float box of a
 * primitive, the builder's binary node, and the depth bound that lets every
 * walk use a fixed stack. Not installed.
 *
 * The layers, each built on the one before (docs/architecture.md, "Inside
 * the library"; bvh_reference.c is the same idea in one small file):
 *   bvh_build.c      boxes -> binary tree by binned SAH, on threads
 *                    (bvh_partition.c: moving a node's boxes to its sides)
 *   bvh4.c           binary tree -> nodes of four children; refit; cost
 *                    (bvh_refit.h: the refit's loop, SSE2 and AVX kernels)
 *   mesh_bvh.c       meshes only: nodes of eight, triangles in packets of four
 *   mesh.c, scene.c  the walks
 */
#ifndef RAYPICK_BVH_H
#define RAYPICK_BVH_H

#include <stdint.h>

/* A primitive's box in float, rounded outwards by whoever made it. */
typedef struct rp_bvh_box {
    float min[3], max[3];
} rp_bvh_box;

/* A primitive as the builder moves it (its records, partitioned in
   place, end in leaf order): min and max each followed by 4 more bytes,
   so both load as one four-float vector; those bytes are the primitive's
   index and its tag (rp_bvh_build_tagged), which travel with its box. */
typedef struct rp_bvh_prim {
    float    min[3];
    uint32_t obj;
    float    max[3];
    uint32_t tag;
} rp_bvh_prim;

/* The builder's binary node: 32 bytes, one flat array, the root at 0 and
   the two children of an inner node side by side at first and first + 1
   (tinybvh's layout, and bvh_reference.c's). */
typedef struct rp_bvh2_node {
    float    min[3];
    uint32_t first;     /* leaf: first entry of the leaf order; inner: left child */
    float    max[3];
    uint32_t count;     /* leaf: its primitives (>= 1); inner: 0 */
} rp_bvh2_node;

/* The count of a binary node whose subtree has already been collapsed
   (bvh4.h): first is then the four-wide node that holds its children. */
#define RP_BVH2_COLLAPSED UINT32_MAX

/* The builder splits by SAH down to this depth and in halves by count
   below it; 31 halvings bring any count below 2^31 to one, so no leaf is
   deeper than RP_BVH_MAX_DEPTH (the root has depth 0). */
#define RP_BVH_SAH_DEPTH 32
#define RP_BVH_MAX_DEPTH (RP_BVH_SAH_DEPTH + 31)

#endif /* RAYPICK_BVH_H */

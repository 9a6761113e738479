/* mesh_internal.h: the mesh's storage and its BVH; not installed. */
#ifndef RAYPICK_MESH_INTERNAL_H
#define RAYPICK_MESH_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include "raypick/mesh.h"
#include "bvh4.h"

/* Deepest leaf the builder makes (rp_sbvh_build_shaped's bound,
   scene_internal.h: RP_SBVH_SAH_DEPTH + 31 for any count below 2^31). */
#define RP_BVH_MAX_DEPTH 63
#define RP_BVH_MAX_LEAF 8
/* The SAH cost of visiting a node, in triangle tests (two box tests, a
   stack push, a likely cache miss). 3 was measured best in bench_mesh on
   60k and 1M triangles and gives leaves of ~2-4 triangles: ~55 bytes per
   triangle instead of ~76 with 1. */
#define RP_BVH_NODE_COST 3.0

/* The BVH the queries walk: the builder's binary tree collapsed into
   nodes of up to four children (bvh4.h: rp_bvh4_node, RP_BVH4_STACK). */
/* A triangle as the BVH stores it: its three vertices and its original
   index together (40 bytes), so the index costs no second cache miss. */
typedef struct rp_mesh_tri {
    float    v[9];      /* v0, v1, v2 */
    uint32_t index;     /* the triangle's index in rp_mesh_create's input */
} rp_mesh_tri;

struct rp_mesh {
    size_t       triangle_count;   /* as given to rp_mesh_create */
    rp_aabb      bounds;           /* of the vertices the triangles use */
    float        max_abs;          /* largest |coordinate| in bounds */
    uint32_t     prim_count;       /* non-degenerate triangles: those in the BVH */
    uint32_t     node_count;       /* of the BVH4 */
    rp_bvh4_node *nodes;
    rp_mesh_tri *tris;             /* prim_count triangles, in BVH order */
};

/* Builds m->nodes (the BVH4) and m->tris from `tris` (9 floats per
   triangle) and `index` (their original indices), both prim_count long,
   in original order; takes ownership of both arrays (frees or keeps them).
   false on out of memory (then nothing is left allocated). */
bool rp_bvh_build(rp_mesh *m, float *tris, uint32_t *index, uint32_t prim_count);

#endif /* RAYPICK_MESH_INTERNAL_H */

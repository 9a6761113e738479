/* mesh_internal.h: the mesh's storage and its BVH; not installed. */
#ifndef RAYPICK_MESH_INTERNAL_H
#define RAYPICK_MESH_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "raypick/mesh.h"
#include "bvh4.h"

/* Deepest leaf the builder makes (rp_sbvh_build_shaped's bound,
   scene_internal.h: RP_SBVH_SAH_DEPTH + 31 for any count below 2^31). */
#define RP_BVH_MAX_DEPTH 63
/* Leaves of up to four packets (rp_tri4 below). The SAH counts a leaf's
   cost per triangle, but the leaves test four at a time, so a node visit
   (two box tests, a stack push, a likely cache miss on a dependent load)
   is priced at 10 triangle tests: leaves grow to ~2 packets, the tree
   loses about a level, and each level a ray skips is one cache miss
   fewer that it waits for (the packets of a leaf are adjacent and load
   together). bench_mesh on 1M triangles (a loaded machine, ratio to
   Embree's rtcIntersect1 CPU time): leaves of 8 at cost 3, 1.8x; 12 at
   6, 1.7x; 16 at 6, 10 or 16, 1.4-1.5x; 47 bytes per triangle at 10. */
#define RP_BVH_MAX_LEAF 16
#define RP_BVH_NODE_COST 10.0

/* The BVH4 the builder's binary tree collapses into: bvh4.h (rp_bvh4_node,
   RP_BVH4_EMPTY, RP_BVH4_STACK). */

/* The queries walk that BVH4 widened once more: a node of up to eight
   children is two rp_bvh4_node side by side (256 bytes: slot s is lane
   s % 4 of half s / 4), so a ray descends about two levels for every
   three of the BVH4, and each level is a cache miss it waits for (Embree
   picks BVH8 for the same reason). A node of four or fewer children has
   only its first half. m->nodes holds the halves (node_count of them);
   the root is two halves at 0; an inner child slot (count 0) refers to
   its node by 2 * (first half) + (1 when it has a second half), so the
   walk knows before loading a node how many lines it takes
   (rp_bvh_wide_ref below). A wide node takes the place of at least one
   BVH4 node and is no deeper than it, so the walk's stack holds at most
   seven entries per ancestor level plus its own eight. */
#define RP_BVH_WIDE 8
#define RP_BVH_WIDE_STACK ((RP_BVH_WIDE - 1) * RP_BVH_MAX_DEPTH + RP_BVH_WIDE)
/* Halves stay below this, so no reference is RP_BVH4_EMPTY. */
#define RP_BVH_WIDE_MAX_HALF (UINT32_MAX / 2)

static inline uint32_t rp_bvh_wide_ref(uint32_t first_half, bool two_halves)
{
    return 2u * first_half + (two_halves ? 1u : 0u);
}
static inline uint32_t rp_bvh_wide_first(uint32_t ref) { return ref >> 1; }
static inline bool rp_bvh_wide_two(uint32_t ref) { return (ref & 1u) != 0; }

/* The triangles as the BVH stores them: packets of four, one lane per
   triangle (Embree's Triangle4 layout), so one SSE2 pass computes the
   edge functions of four triangles. v[3 k + a][lane] is axis a of vertex
   k; index[lane] the triangle's index in rp_mesh_create's input. A
   triangle's slot is 4 * packet + lane. A leaf's triangles fill
   consecutive slots and touch as few packets as their count allows (a
   leaf of up to four never straddles two packets), so several small
   leaves share a packet; slots no leaf uses repeat a neighbour
   (finite floats, never read as a hit). 160 bytes, 40 per triangle. */
#define RP_TRI4_LANES 4
typedef struct rp_tri4 {
    float    v[9][RP_TRI4_LANES];
    uint32_t index[RP_TRI4_LANES];
} rp_tri4;

struct rp_mesh {
    size_t       triangle_count;   /* as given to rp_mesh_create */
    rp_aabb      bounds;           /* of the vertices the triangles use */
    float        max_abs;          /* largest |coordinate| in bounds */
    uint32_t     prim_count;       /* non-degenerate triangles: those in the BVH */
    uint32_t     node_count;       /* halves of wide nodes (RP_BVH_WIDE) */
    rp_bvh4_node *nodes;
    uint32_t     pack_count;       /* of packs */
    rp_tri4      *packs;           /* the triangles, in BVH leaf order */
};

/* Builds m->nodes (the wide BVH) and m->packs from `tris` (9 floats per
   triangle) and `index` (their original indices), both prim_count long,
   in original order; takes ownership of both arrays (frees or keeps them).
   false on out of memory (then nothing is left allocated). */
bool rp_bvh_build(rp_mesh *m, float *tris, uint32_t *index, uint32_t prim_count);

#endif /* RAYPICK_MESH_INTERNAL_H */

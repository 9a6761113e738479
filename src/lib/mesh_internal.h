/* mesh_internal.h: the mesh's storage and its BVH; not installed. */
#ifndef RAYPICK_MESH_INTERNAL_H
#define RAYPICK_MESH_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "raypick/mesh.h"

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

/* The BVH the queries walk: the builder's binary tree collapsed into nodes of
   up to four children (128 bytes), boxes stored one lane per child so one
   SSE2 slab test checks all four (Embree's BVH4 layout). b[0..2] are the
   children's min x, y, z, b[3..5] their max x, y, z. A child slot is a
   node when count[i] == 0 (child[i] = its index), a leaf of count[i]
   triangles from slot child[i] (rp_tri4 below) when count[i] > 0, and empty when
   child[i] == RP_BVH4_EMPTY (UINT32_MAX, all bits set: compared four at a
   time); its box is then inverted (min +inf, max -inf), but the queries
   skip it by the child, not the box (a ray whose box padding overflowed
   to infinity gets NaN slabs, which constrain nothing). Node 0 is the
   root. */
#define RP_BVH4_EMPTY UINT32_MAX
typedef struct rp_bvh4_node {
    float    b[6][4];
    uint32_t child[4];
    uint32_t count[4];
} rp_bvh4_node;

/* Each BVH4 node holds the children of a binary inner node, and a binary
   inner node is at depth <= RP_BVH_MAX_DEPTH - 1 (62), so no BVH4 node is
   deeper than that. A depth-first walk that pushes a node's hit children
   (up to four) and pops the nearest holds, at a node of depth d, at most
   three entries per ancestor level, plus its own four: 3 * 62 + 4 = 190. */
#define RP_BVH4_STACK (3 * RP_BVH_MAX_DEPTH + 4)

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

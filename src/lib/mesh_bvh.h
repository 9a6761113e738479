/*
 * mesh_bvh.h: a mesh's BVH as its queries walk it: the shared builder's
 * four-wide tree (bvh_build.h) widened to nodes of eight children, over
 * the triangles copied in leaf order into packets of four. Knows nothing
 * of rp_mesh (mesh_internal.h holds one of these). Not installed.
 */
#ifndef RAYPICK_MESH_BVH_H
#define RAYPICK_MESH_BVH_H

#include <stdbool.h>
#include <stdint.h>

#include "bvh.h"
#include "bvh4.h"
#include "bvh_build.h"

/* Leaves of up to four packets (rp_tri4 below). The SAH counts a leaf's
   cost per triangle, but the leaves test four at a time, so a node visit
   (two box tests, a stack push, a likely cache miss on a dependent load)
   is priced at 10 triangle tests: leaves grow to ~2 packets, the tree
   loses about a level, and each level a ray skips is one cache miss
   fewer that it waits for (the packets of a leaf are adjacent and load
   together). The figures behind 16 and 10: docs/performance.md. */
#define RP_MESH_MAX_LEAF 16
#define RP_MESH_NODE_COST 10.0

/* The queries walk the BVH4 widened once more: a node of up to eight
   children is two rp_bvh4_node side by side (256 bytes: slot s is lane
   s % 4 of half s / 4), so a ray descends about two levels for every
   three of the BVH4, and each level is a cache miss it waits for (Embree
   picks BVH8 for the same reason). A node of four or fewer children has
   only its first half. The root is two halves at 0; an inner child slot
   (count 0) refers to its node by 2 * (first half) + (1 when it has a
   second half), so the walk knows before loading a node how many lines
   it takes (rp_bvh8_ref, bvh4.h). A wide node takes the place of at least
   one BVH4 node and is no deeper than it, so the walk's stack holds at
   most seven entries per ancestor level plus its own eight. */
/* (RP_BVH8_SLOTS, RP_BVH8_STACK and the references rp_bvh8_ref: bvh4.h) */

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

typedef struct rp_mesh_bvh {
    uint32_t      prim_count;   /* triangles in the BVH */
    uint32_t      node_count;   /* halves of wide nodes (RP_BVH8_SLOTS) */
    rp_bvh4_node *nodes;
    uint32_t      pack_count;   /* of packs */
    rp_tri4      *packs;        /* the triangles, in BVH leaf order */
} rp_mesh_bvh;

/* Builds *out over prim_count triangles of `tris` (bvh_build.h: the
   caller's arrays, read, not kept; a packet's index is the triangle's
   number there). prim_count 0 gives an empty BVH that no ray hits. false
   on out of memory (then *out is empty). */
bool rp_mesh_bvh_build(const rp_tri_source *tris, uint32_t prim_count, rp_mesh_bvh *out);

/* Frees what rp_mesh_bvh_build made and empties *bvh. */
void rp_mesh_bvh_free(rp_mesh_bvh *bvh);

#endif /* RAYPICK_MESH_BVH_H */

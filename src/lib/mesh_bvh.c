/* mesh_bvh.c: the mesh BVH. The binary tree comes from the scene's
   builder (scene_bvh.c: binned SAH on the triangles' boxes, SSE2, in
   place, sampled planes for big nodes, depth bounded); it is then
   collapsed into the BVH4 the queries walk (bvh4.c), and the triangles
   copied in leaf order. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "bvh4.h"
#include "internal.h"
#include "mesh_internal.h"
#include "scene_internal.h"

/*
 * Depth bound (why RP_BVH4_STACK always suffices): rp_sbvh_build_shaped
 * splits by SAH down to depth RP_SBVH_SAH_DEPTH (32) and in halves below
 * it; a node there holds at most 2^31 - 1 triangles (rp_mesh_create
 * refuses more), which 31 halvings bring to 1: no leaf is deeper than
 * 32 + 31 = RP_BVH_MAX_DEPTH, no inner node deeper than 62. tests/test_mesh.c checks the depth on degenerate inputs (a million
 * identical triangles, all coplanar, all on one line of centroids).
 */
#if RP_SBVH_SAH_DEPTH + 31 > RP_BVH_MAX_DEPTH
#error "RP_BVH_MAX_DEPTH no longer bounds the builder's depth (see above)"
#endif

bool rp_bvh_build(rp_mesh *m, float *tris, uint32_t *index, uint32_t prim_count)
{
    m->prim_count = prim_count;
    m->node_count = 0;
    m->nodes = NULL;
    m->tris = NULL;
    if (prim_count == 0) {   /* only degenerate triangles: nothing to hit */
        rp_free_large(tris);
        rp_free_large(index);
        return true;
    }
    rp_sbox *boxes = rp_alloc_large((size_t)prim_count * sizeof *boxes);
    rp_sbvh bvh;
    memset(&bvh, 0, sizeof bvh);
    bool ok = boxes != NULL;
    if (ok) {
        for (uint32_t i = 0; i < prim_count; i++) {
            const float *p = tris + 9 * (size_t)i;
            for (int a = 0; a < 3; a++) {
                float x = p[a], y = p[3 + a], z = p[6 + a];
                float lo = x < y ? x : y, hi = x > y ? x : y;
                boxes[i].min[a] = z < lo ? z : lo;
                boxes[i].max[a] = z > hi ? z : hi;
            }
        }
        const rp_sbvh_shape shape = {RP_BVH_MAX_LEAF, RP_BVH_NODE_COST};
        ok = rp_sbvh_build_shaped(boxes, prim_count, &shape, &bvh);
    }
    rp_free_large(boxes);
    /* triangles in leaf order, so a leaf's are contiguous */
    rp_mesh_tri *sorted = ok ? rp_alloc_large((size_t)prim_count * sizeof *sorted) : NULL;
    if (sorted) {
        for (uint32_t i = 0; i < prim_count; i++) {
            memcpy(sorted[i].v, tris + 9 * (size_t)bvh.prims[i], sizeof sorted[i].v);
            sorted[i].index = index[bvh.prims[i]];
        }
    }
    rp_free_large(tris);
    rp_free_large(index);
    uint32_t count4 = 0;
    rp_bvh4_node *nodes4 = sorted ? rp_bvh4_collapse(bvh.nodes, bvh.node_count, &count4) : NULL;
    rp_sbvh_free(&bvh);
    if (!nodes4) {
        rp_free_large(sorted);
        return false;
    }
    m->nodes = nodes4;
    m->node_count = count4;
    m->tris = sorted;
    return true;
}

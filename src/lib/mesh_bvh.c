/* mesh_bvh.c: the mesh BVH. The binary tree comes from the scene's
   builder (scene_bvh.c: binned SAH on the triangles' boxes, SSE2, in
   place, sampled planes for big nodes, depth bounded); it is then
   collapsed into the BVH4 the queries walk, and the triangles copied in
   leaf order. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "mesh_internal.h"
#include "scene_internal.h"

/* Half the surface area, in double: no overflow for boxes near FLT_MAX. */
static double half_area(const float lo[3], const float hi[3])
{
    double dx = (double)hi[0] - lo[0], dy = (double)hi[1] - lo[1], dz = (double)hi[2] - lo[2];
    if (!(dx >= 0.0))   /* an empty box */
        return 0.0;
    return dx * dy + dy * dz + dz * dx;
}

/* ---- the BVH4 ------------------------------------------------------------ */

static void slot_set(rp_bvh4_node *q, int i, const rp_snode *n, uint32_t child, uint32_t count)
{
    for (int a = 0; a < 3; a++) {
        q->b[a][i] = n->min[a];
        q->b[3 + a][i] = n->max[a];
    }
    q->child[i] = child;
    q->count[i] = count;
}

static void slot_empty(rp_bvh4_node *q, int i)
{
    for (int a = 0; a < 3; a++) {
        q->b[a][i] = INFINITY;
        q->b[3 + a][i] = -INFINITY;
    }
    q->child[i] = RP_BVH4_EMPTY;
    q->count[i] = 0;
}

/* Up to four binary nodes that together hold the subtree of inner node
   `root`: its two children, then, while there is room, the inner one of
   largest area replaced by its own two (Wald et al., "Getting rid of
   packets", 2008: open the largest first, it is the one rays enter most). */
static int gather(const rp_snode *nodes, uint32_t root, uint32_t out[4])
{
    int k = 2;
    out[0] = nodes[root].first;
    out[1] = nodes[root].first + 1;
    while (k < 4) {
        int open = -1;
        double best = -1.0;
        for (int i = 0; i < k; i++) {
            const rp_snode *n = &nodes[out[i]];
            double area = half_area(n->min, n->max);
            if (n->count == 0 && area > best) {
                best = area;
                open = i;
            }
        }
        if (open < 0)
            break;
        uint32_t first = nodes[out[open]].first;
        out[open] = first;
        out[k++] = first + 1;
    }
    return k;
}

/* The binary tree (nodes[0] the root, `used` nodes; scene_internal.h's
   layout) as a BVH4, built
   depth first (a node's inner children get consecutive indices). Each BVH4 node takes the
   place of one distinct binary inner node, so there are at most as many
   as those (or one, for a root that is a leaf). NULL on out of memory. */
static rp_bvh4_node *collapse(const rp_snode *nodes, uint32_t used, uint32_t *count_out)
{
    uint32_t inner = 0;
    for (uint32_t i = 0; i < used; i++)
        inner += i != 1 && nodes[i].count == 0;   /* rp_sbvh leaves node 1 unused */
    size_t cap = inner > 0 ? inner : 1;
    /* not shrunk afterwards: a large block's untouched tail is never
       given pages (rp_alloc_large), a small one's slack is small */
    rp_bvh4_node *out = rp_alloc_large(cap * sizeof *out);
    if (!out)
        return NULL;
    uint32_t count = 1;
    if (nodes[0].count > 0) {   /* a single leaf: the root's only child */
        slot_set(&out[0], 0, &nodes[0], nodes[0].first, nodes[0].count);
        for (int i = 1; i < 4; i++)
            slot_empty(&out[0], i);
        *count_out = 1;
        return out;
    }
    /* (binary inner node, its BVH4 node) pairs to fill; each pop pushes
       at most four, and the depth bound of RP_BVH4_STACK holds here too */
    uint32_t stack[RP_BVH4_STACK][2];
    int sp = 0;
    stack[sp][0] = 0;
    stack[sp][1] = 0;
    sp++;
    while (sp > 0) {
        sp--;
        uint32_t bin = stack[sp][0], q = stack[sp][1];
        uint32_t kids[4];
        int k = gather(nodes, bin, kids);
        /* pushed in reverse, so the first child's subtree comes next */
        for (int i = 3; i >= 0; i--) {
            if (i >= k) {
                slot_empty(&out[q], i);
                continue;
            }
            const rp_snode *n = &nodes[kids[i]];
            if (n->count > 0) {
                slot_set(&out[q], i, n, n->first, n->count);
                continue;
            }
            slot_set(&out[q], i, n, count, 0);
            stack[sp][0] = kids[i];
            stack[sp][1] = count;
            sp++;
            count++;
        }
    }
    *count_out = count;
    return out;
}

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
        const rp_sbvh_shape shape = {RP_BVH_MAX_LEAF, RP_BVH_NODE_COST, 0};
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
    rp_bvh4_node *nodes4 = sorted ? collapse(bvh.nodes, bvh.node_count, &count4) : NULL;
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

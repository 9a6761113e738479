/* bvh4.c: the four-wide BVH (bvh4.h) from the builder's binary tree
   (scene_bvh.c), its refit and its SAH cost; the mesh and the scene both
   use it. */
#include <math.h>
#include <string.h>

#include "bvh4.h"
#include "internal.h"

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
            double area = rp_bvh4_half_area(n->min, n->max);
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

/* Built depth first (a node's inner children get consecutive indices,
   after it). Each BVH4 node takes the place of one distinct binary inner
   node, so there are at most as many as those (or one, for a root that
   is a leaf). A tree deeper than the builder's bound (RP_BVH4_MAX_DEPTH)
   is refused rather than allowed to overrun the fixed stacks here and in
   the traversals. */
rp_bvh4_node *rp_bvh4_collapse(const rp_snode *nodes, uint32_t used, uint32_t *count_out)
{
    /* the root, then two nodes per inner node, and node 1 unused
       (scene_internal.h's layout): no pass over the nodes to count them */
    uint32_t inner = used > 2 ? (used - 2) / 2 : 0;
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
    /* (binary inner node, its BVH4 node, that node's depth) to fill; each
       pop pushes at most four, and the depth bound of RP_BVH4_STACK holds
       here too */
    uint32_t stack[RP_BVH4_STACK][3];
    int sp = 0;
    stack[sp][0] = 0;
    stack[sp][1] = 0;
    stack[sp][2] = 0;
    sp++;
    while (sp > 0) {
        sp--;
        uint32_t bin = stack[sp][0], q = stack[sp][1], depth = stack[sp][2];
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
            if (depth + 1 >= RP_BVH4_MAX_DEPTH) {
                rp_free_large(out);
                return NULL;
            }
            slot_set(&out[q], i, n, count, 0);
            stack[sp][0] = kids[i];
            stack[sp][1] = count;
            stack[sp][2] = depth + 1;
            sp++;
            count++;
        }
    }
    *count_out = count;
    return out;
}

/* ---- refit and cost ------------------------------------------------------ */

/* The box around a node's (up to) four children: empty slots hold
   inverted boxes, which a min/max leaves out. */
static void node_box(const rp_bvh4_node *n, float lo[3], float hi[3])
{
    for (int a = 0; a < 3; a++) {
        const float *mn = n->b[a], *mx = n->b[3 + a];
        float l = mn[0] < mn[1] ? mn[0] : mn[1], l2 = mn[2] < mn[3] ? mn[2] : mn[3];
        float h = mx[0] > mx[1] ? mx[0] : mx[1], h2 = mx[2] > mx[3] ? mx[2] : mx[3];
        lo[a] = l < l2 ? l : l2;
        hi[a] = h > h2 ? h : h2;
    }
}

/* The box around the leaf entries [first, first + count). */
static void leaf_box(const uint32_t *prims, uint32_t first, uint32_t count,
                     const rp_sbox *boxes, float lo[3], float hi[3])
{
    const rp_sbox *b = &boxes[prims[first]];
    memcpy(lo, b->min, sizeof b->min);
    memcpy(hi, b->max, sizeof b->max);
    for (uint32_t j = first + 1; j < first + count; j++) {
        b = &boxes[prims[j]];
        for (int a = 0; a < 3; a++) {
            lo[a] = b->min[a] < lo[a] ? b->min[a] : lo[a];
            hi[a] = b->max[a] > hi[a] ? b->max[a] : hi[a];
        }
    }
}

/* Sum over the used slots of nodes[q] of area * (primitives, or 1). */
static double node_weighted_area(const rp_bvh4_node *n)
{
    double sum = 0.0;
    for (int i = 0; i < 4; i++) {
        if (n->child[i] == RP_BVH4_EMPTY)
            continue;
        float lo[3] = {n->b[0][i], n->b[1][i], n->b[2][i]};
        float hi[3] = {n->b[3][i], n->b[4][i], n->b[5][i]};
        sum += rp_bvh4_half_area(lo, hi) * (n->count[i] > 0 ? n->count[i] : 1);
    }
    return sum;
}

/* The weighted sum over the root's area; 0 when the root has none. */
static double cost_of(const rp_bvh4_node *nodes, double weighted)
{
    float lo[3], hi[3];
    node_box(&nodes[0], lo, hi);
    double root = rp_bvh4_half_area(lo, hi);
    if (!(root > 0.0) || !isfinite(root))
        return 0.0;     /* a flat or point-like tree: no area to compare */
    return weighted / root;
}

double rp_bvh4_refit(rp_bvh4_node *nodes, uint32_t count, const uint32_t *prims,
                     const rp_sbox *boxes)
{
    if (count == 0)
        return 0.0;
    double weighted = 0.0;
    /* children come after their parents: backwards, every child node is
       refitted before the slot that holds it is */
    for (uint32_t q = count; q-- > 0;) {
        rp_bvh4_node *n = &nodes[q];
        for (int i = 0; i < 4; i++) {
            if (n->child[i] == RP_BVH4_EMPTY)
                continue;
            float lo[3], hi[3];
            if (n->count[i] > 0)
                leaf_box(prims, n->child[i], n->count[i], boxes, lo, hi);
            else
                node_box(&nodes[n->child[i]], lo, hi);
            for (int a = 0; a < 3; a++) {
                n->b[a][i] = lo[a];
                n->b[3 + a][i] = hi[a];
            }
        }
        weighted += node_weighted_area(n);
    }
    return cost_of(nodes, weighted);
}

double rp_bvh4_cost(const rp_bvh4_node *nodes, uint32_t count)
{
    if (count == 0)
        return 0.0;
    double weighted = 0.0;
    for (uint32_t q = 0; q < count; q++)
        weighted += node_weighted_area(&nodes[q]);
    return cost_of(nodes, weighted);
}

bool rp_bvh4_bounds(const rp_bvh4_node *nodes, uint32_t count, rp_sbox *out)
{
    if (count == 0)
        return false;
    node_box(&nodes[0], out->min, out->max);
    return true;
}

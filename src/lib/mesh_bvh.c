/* mesh_bvh.c: the mesh BVH builder. Binned SAH (16 bins on the centroids,
   all three axes in one pass), built iteratively with an explicit stack,
   into a flat array of 32-byte binary nodes whose two children are
   adjacent; then collapsed into the BVH4 the queries walk. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "mesh_internal.h"

typedef struct bvh_ref {
    float    lo[3], hi[3];   /* the triangle's box */
    uint32_t prim;           /* its position in the input arrays */
} bvh_ref;

typedef struct bvh_bin {
    float    lo[3], hi[3];
    uint32_t count;
} bvh_bin;

typedef struct bvh_task {
    uint32_t node, begin, end, depth;
} bvh_task;

static void box_empty(float lo[3], float hi[3])
{
    for (int a = 0; a < 3; a++) {
        lo[a] = INFINITY;
        hi[a] = -INFINITY;
    }
}

static void box_grow(float lo[3], float hi[3], const float blo[3], const float bhi[3])
{
    for (int a = 0; a < 3; a++) {
        lo[a] = blo[a] < lo[a] ? blo[a] : lo[a];
        hi[a] = bhi[a] > hi[a] ? bhi[a] : hi[a];
    }
}

/* Half the surface area, in double: no overflow for boxes near FLT_MAX. */
static double half_area(const float lo[3], const float hi[3])
{
    double dx = (double)hi[0] - lo[0], dy = (double)hi[1] - lo[1], dz = (double)hi[2] - lo[2];
    if (!(dx >= 0.0))   /* an empty box */
        return 0.0;
    return dx * dy + dy * dz + dz * dx;
}

static float centroid(const bvh_ref *r, int a)
{
    return r->lo[a] * 0.5f + r->hi[a] * 0.5f;   /* no overflow near FLT_MAX */
}

typedef struct bvh_split {
    int    axis;     /* -1: no SAH split found */
    int    bin;      /* refs in bins < bin go left */
    double cost;     /* sum of half-area * count of the two sides */
    double cmin[3], scale[3];
} bvh_split;

static int bin_of(const bvh_split *s, const bvh_ref *r, int a)
{
    int b = (int)(((double)centroid(r, a) - s->cmin[a]) * s->scale[a]);
    return b < 0 ? 0 : (b >= RP_BVH_BINS ? RP_BVH_BINS - 1 : b);
}

/* The best binned-SAH split of refs[begin, end) whose centroids span
   [cmin, cmax]. */
static bvh_split find_split(const bvh_ref *refs, uint32_t begin, uint32_t end,
                            const float cmin[3], const float cmax[3])
{
    bvh_split s = {.axis = -1, .bin = 0, .cost = INFINITY};
    bvh_bin bins[3][RP_BVH_BINS];
    bool usable[3];
    for (int a = 0; a < 3; a++) {
        double extent = (double)cmax[a] - cmin[a];
        usable[a] = extent > 0.0;
        s.cmin[a] = cmin[a];
        /* a hair under BINS / extent, so the largest centroid lands in
           the last bin, not past it */
        s.scale[a] = usable[a] ? RP_BVH_BINS * (1.0 - 1e-6) / extent : 0.0;
        for (int b = 0; b < RP_BVH_BINS; b++) {
            box_empty(bins[a][b].lo, bins[a][b].hi);
            bins[a][b].count = 0;
        }
    }
    if (!usable[0] && !usable[1] && !usable[2])
        return s;
    for (uint32_t i = begin; i < end; i++) {
        const bvh_ref *r = &refs[i];
        for (int a = 0; a < 3; a++) {
            bvh_bin *b = &bins[a][bin_of(&s, r, a)];
            box_grow(b->lo, b->hi, r->lo, r->hi);
            b->count++;
        }
    }
    for (int a = 0; a < 3; a++) {
        if (!usable[a])
            continue;
        /* right-to-left sweep: area * count of every suffix */
        double right_cost[RP_BVH_BINS];
        float lo[3], hi[3];
        box_empty(lo, hi);
        uint32_t n = 0;
        for (int b = RP_BVH_BINS - 1; b > 0; b--) {
            box_grow(lo, hi, bins[a][b].lo, bins[a][b].hi);
            n += bins[a][b].count;
            right_cost[b] = half_area(lo, hi) * n;
        }
        box_empty(lo, hi);
        n = 0;
        for (int b = 1; b < RP_BVH_BINS; b++) {
            box_grow(lo, hi, bins[a][b - 1].lo, bins[a][b - 1].hi);
            n += bins[a][b - 1].count;
            if (n == 0 || n == end - begin)
                continue;   /* one side empty: not a split */
            double cost = half_area(lo, hi) * n + right_cost[b];
            if (cost < s.cost) {
                s.cost = cost;
                s.axis = a;
                s.bin = b;
            }
        }
    }
    return s;
}

static uint32_t partition(bvh_ref *refs, uint32_t begin, uint32_t end, const bvh_split *s)
{
    uint32_t i = begin, j = end;
    while (i < j) {
        if (bin_of(s, &refs[i], s->axis) < s->bin) {
            i++;
        } else {
            j--;
            bvh_ref t = refs[i];
            refs[i] = refs[j];
            refs[j] = t;
        }
    }
    return i;
}

/* ---- the BVH4 ------------------------------------------------------------ */

static void slot_set(rp_bvh4_node *q, int i, const rp_bvh_node *n, uint32_t child, uint32_t count)
{
    for (int a = 0; a < 3; a++) {
        q->b[a][i] = n->b[0][a];
        q->b[3 + a][i] = n->b[1][a];
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
static int gather(const rp_bvh_node *nodes, uint32_t root, uint32_t out[4])
{
    int k = 2;
    out[0] = nodes[root].first;
    out[1] = nodes[root].first + 1;
    while (k < 4) {
        int open = -1;
        double best = -1.0;
        for (int i = 0; i < k; i++) {
            const rp_bvh_node *n = &nodes[out[i]];
            double area = half_area(n->b[0], n->b[1]);
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

/* The binary tree (nodes[0] the root, `used` nodes) as a BVH4, built
   depth first (a node's inner children get consecutive indices). Each BVH4 node takes the
   place of one distinct binary inner node, so there are at most as many
   as those (or one, for a root that is a leaf). NULL on out of memory. */
static rp_bvh4_node *collapse(const rp_bvh_node *nodes, uint32_t used, uint32_t *count_out)
{
    uint32_t inner = 0;
    for (uint32_t i = 0; i < used; i++)
        inner += nodes[i].count == 0;
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
            const rp_bvh_node *n = &nodes[kids[i]];
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
 * Depth bound (why a 64-entry traversal stack always suffices):
 * SAH splits are taken only at depth < RP_BVH_SAH_DEPTH (32). A node at
 * depth >= 32 that is not a leaf is split at its middle, so each child
 * holds at most ceil(n / 2) triangles. A node at depth 32 holds at most
 * 2^31 - 1 triangles (rp_mesh_create refuses more), and ceil-halving that
 * 31 times gives 1, which is a leaf: so no node is deeper than 32 + 31 =
 * 63 = RP_BVH_MAX_DEPTH. A depth-first walk that keeps one pending sibling
 * per level holds at most 63 entries at a node of depth 63: RP_BVH_STACK
 * (64) is enough. The build's own task stack is bounded the same way.
 * tests/test_mesh.c checks the depth on degenerate inputs (a million
 * identical triangles, all coplanar, all on one line of centroids).
 *
 * Identical or all-coplanar inputs have no SAH split (every centroid in
 * one bin, or every split as costly as none) and take the median split
 * too, so they build in O(n log n) time.
 */
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

    bvh_ref *refs = rp_alloc_large((size_t)prim_count * sizeof *refs);
    /* a binary tree with one triangle or more per leaf has < 2n nodes */
    size_t max_nodes = 2 * (size_t)prim_count - 1;
    rp_bvh_node *nodes = rp_alloc_large(max_nodes * sizeof *nodes);
    if (!refs || !nodes) {
        rp_free_large(refs);
        rp_free_large(nodes);
        rp_free_large(tris);
        rp_free_large(index);
        return false;
    }
    for (uint32_t i = 0; i < prim_count; i++) {
        const float *p = tris + 9 * (size_t)i;
        bvh_ref *r = &refs[i];
        for (int a = 0; a < 3; a++) {
            float x = p[a], y = p[3 + a], z = p[6 + a];
            r->lo[a] = fminf(x, fminf(y, z));
            r->hi[a] = fmaxf(x, fmaxf(y, z));
        }
        r->prim = i;
    }

    bvh_task stack[RP_BVH_STACK];
    int sp = 0;
    uint32_t used = 1;
    stack[sp++] = (bvh_task){0, 0, prim_count, 0};
    while (sp > 0) {
        bvh_task task = stack[--sp];
        rp_bvh_node *node = &nodes[task.node];
        float lo[3], hi[3], cmin[3], cmax[3];
        box_empty(lo, hi);
        box_empty(cmin, cmax);
        for (uint32_t i = task.begin; i < task.end; i++) {
            box_grow(lo, hi, refs[i].lo, refs[i].hi);
            float c[3] = {centroid(&refs[i], 0), centroid(&refs[i], 1), centroid(&refs[i], 2)};
            box_grow(cmin, cmax, c, c);
        }
        memcpy(node->b[0], lo, sizeof lo);
        memcpy(node->b[1], hi, sizeof hi);
        uint32_t n = task.end - task.begin;

        uint32_t mid = task.begin + n / 2;   /* the median split */
        bool leaf = n == 1;
        if (!leaf && task.depth < RP_BVH_SAH_DEPTH) {
            bvh_split s = find_split(refs, task.begin, task.end, cmin, cmax);
            /* SAH: a split costs one more box test (the node's area) plus
               its children's triangle tests; a leaf, n triangle tests */
            double leaf_cost = half_area(lo, hi) * n;
            if (s.axis >= 0 && !(n <= RP_BVH_MAX_LEAF && leaf_cost <= s.cost + RP_BVH_NODE_COST * half_area(lo, hi)))
                mid = partition(refs, task.begin, task.end, &s);
            else if (n <= RP_BVH_MAX_LEAF)
                leaf = true;
        } else if (n <= RP_BVH_MAX_LEAF) {
            leaf = true;
        }
        /* never taken (the depth bound above); a guard, not a mechanism */
        if (sp + 2 > RP_BVH_STACK)
            leaf = true;
        if (leaf) {
            node->first = task.begin;
            node->count = n;
            continue;
        }
        node->first = used;
        node->count = 0;
        /* the depth bound above keeps sp <= 63 here */
        stack[sp++] = (bvh_task){used + 1, mid, task.end, task.depth + 1};
        stack[sp++] = (bvh_task){used, task.begin, mid, task.depth + 1};
        used += 2;
    }

    /* Triangles in BVH order, so a leaf's are contiguous. */
    rp_mesh_tri *sorted = rp_alloc_large((size_t)prim_count * sizeof *sorted);
    if (!sorted) {
        rp_free_large(refs);
        rp_free_large(nodes);
        rp_free_large(tris);
        rp_free_large(index);
        return false;
    }
    for (uint32_t i = 0; i < prim_count; i++) {
        memcpy(sorted[i].v, tris + 9 * (size_t)refs[i].prim, sizeof sorted[i].v);
        sorted[i].index = index[refs[i].prim];
    }
    rp_free_large(refs);
    rp_free_large(tris);
    rp_free_large(index);
    uint32_t count4 = 0;
    rp_bvh4_node *nodes4 = collapse(nodes, used, &count4);
    rp_free_large(nodes);
    if (!nodes4) {
        rp_free_large(sorted);
        return false;
    }
    m->nodes = nodes4;
    m->node_count = count4;
    m->tris = sorted;
    return true;
}

/*
 * bvh_build.c: the BVH builder of meshes and scenes (bvh_build.h): binned
 * SAH (Wald 2007: centroids in up to 16 bins per axis, the cheapest plane
 * between them), an exact sweep for small nodes, halving by count past
 * RP_BVH_SAH_DEPTH; big builds on several threads with the same tree on
 * any number; each subtree collapsed to four-wide nodes, or wide ones of
 * up to eight children (bvh4.c), by the thread that built it, while it is
 * in that thread's cache.
 *
 * The builder works on its own array of 32-byte records (box + index) that
 * it partitions in place (bvh_partition.c), so every pass over a node's
 * primitives reads memory in order.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bvh4.h"
#include "bvh_build.h"
#include "bvh_build_internal.h"
#include "internal.h"
#include "thread_internal.h"

/* A bin's box, as it grows. */
/* Nodes with more than twice this many primitives choose their plane from
   an even sample of about this many: the plane barely changes, and the
   one full pass left per node is the partition (docs/performance.md). */
#define SAMPLE_TARGET 1024

/* The builder compares areas of boxes inside one node, in float, in the
   node's own units: halved extents (no overflow even at +-FLT_MAX) times
   `unit`, 1 / the node's largest halved extent (lane 3: 0). Every area is
   then at most 3, so no product overflows whatever the coordinates. */
static rp_v4 area_unit(const float mn[4], const float mx[4])
{
    float big = 0.0f;
    for (int k = 0; k < 3; k++) {
        float e = 0.5f * mx[k] - 0.5f * mn[k];
        big = e > big ? e : big;
    }
    float u = big > 0.0f ? 1.0f / big : 1.0f;
    u = isfinite(u) ? u : 1.0f;     /* subnormal extents: areas round to 0 */
    float lanes[4] = {u, u, u, 0.0f};
    return rp_v4_load3(lanes);
}

static float box_area(rp_v4 mn, rp_v4 mx, rp_v4 unit)
{
    rp_v4 half = rp_v4_set1(0.5f);
    return rp_v4_area_of_extent(
        rp_v4_mul(rp_v4_sub(rp_v4_mul(mx, half), rp_v4_mul(mn, half)), unit));
}

/* box_area of the box mn .. -nmx (a bin's, bvh_bin.h, loaded with
   rp_v4_load3x): the same float operations (-nmx times -1/2 is max times
   1/2 exactly). */
static float bin_area(rp_v4 mn, rp_v4 nmx, rp_v4 unit)
{
    const rp_v4 e = rp_v4_sub(rp_v4_mul(nmx, rp_v4_set1(-0.5f)), rp_v4_mul(mn, rp_v4_set1(0.5f)));
    return rp_v4_area_of_extent(rp_v4_mul(e, unit));
}

/* The binning of a node's centroids. Small nodes use fewer bins: the
   sweep over the bins costs as much as binning a few dozen primitives,
   and most nodes are small. */
static rp_bvh_binning make_binning(const float cmin[4], const float cmax[4], uint32_t count)
{
    rp_bvh_binning b;
    b.bins = count <= 16 ? 4 : (count <= 128 ? 8 : RP_BVH_BINS);
    for (int k = 0; k < 4; k++) {
        float extent = k < 3 ? cmax[k] - cmin[k] : 0.0f;
        /* a zero or overflowing extent cannot be split on that axis */
        b.scale[k] = extent > 0.0f && isfinite(extent) ? b.bins * 0.99999f / extent : 0.0f;
        b.cmin[k] = k < 3 ? cmin[k] : 0.0f;
    }
    return b;
}

/* Box and centroid bounds of count objects (the root, the halving
   fallback). */
static void scan_bounds(const rp_bvh_prim *p, uint32_t count, float mn[4], float mx[4],
                        float cmin[4], float cmax[4])
{
    rp_v4 bmn = rp_v4_set1(FLT_MAX), bmx = rp_v4_set1(-FLT_MAX);
    rp_v4 cmn = rp_v4_set1(FLT_MAX), cmx = rp_v4_set1(-FLT_MAX);
    for (uint32_t i = 0; i < count; i++) {
        rp_v4 a = rp_v4_load3x(p[i].min), b = rp_v4_load3x(p[i].max), c = rp_v4_add(a, b);
        bmn = rp_v4_min(bmn, a);
        bmx = rp_v4_max(bmx, b);
        cmn = rp_v4_min(cmn, c);
        cmx = rp_v4_max(cmx, c);
    }
    rp_v4_store(mn, bmn);
    rp_v4_store(mx, bmx);
    rp_v4_store(cmin, cmn);
    rp_v4_store(cmax, cmx);
}

typedef struct split {
    int    axis, plane;     /* left: bins 0 .. plane */
    double cost;            /* sum of half area * count of both sides */
} split;

/* The bounds of bins [from, to) of one axis into t (bvh_bin.h's
   layout: the maxima negated). */
static void bins_bounds(const rp_bvh_bins *bins, int axis, int from, int to, rp_bvh_task *t)
{
    rp_v4 mn = rp_v4_set1(FLT_MAX), nmx = rp_v4_set1(FLT_MAX);
    rp_v4 cmn = rp_v4_set1(FLT_MAX), ncmx = rp_v4_set1(FLT_MAX);
    for (int b = from; b < to; b++) {
        mn = rp_v4_min(mn, rp_v4_load3(bins->bin[axis][b].box));
        nmx = rp_v4_min(nmx, rp_v4_load3(bins->bin[axis][b].box + 4));
        cmn = rp_v4_min(cmn, rp_v4_load3(bins->bin[axis][b].cent));
        ncmx = rp_v4_min(ncmx, rp_v4_load3(bins->bin[axis][b].cent + 4));
    }
    const rp_v4 zero = rp_v4_set1(0.0f);
    rp_v4_store(t->bmin, mn);
    rp_v4_store(t->bmax, rp_v4_sub(zero, nmx));
    rp_v4_store(t->cmin, cmn);
    rp_v4_store(t->cmax, rp_v4_sub(zero, ncmx));
}

/* Bins the objects (every stride-th) on all three axes, then finds the
   cheapest plane; axis -1 when the centroids do not spread on any axis.
   left and right get both sides' bounds (rp_bvh_task: those of the
   sample when stride > 1). */
static split best_split(const rp_bvh_prim *p, uint32_t count, uint32_t stride,
                        const rp_bvh_binning *bn, rp_v4 unit, rp_bvh_task *left,
                        rp_bvh_task *right)
{
    rp_bvh_bins bins;
    rp_simd_bvh_bin()(p, count, stride, bn, &bins);
    const int nb = bn->bins;
    split best = {-1, 0, INFINITY};
    for (int k = 0; k < 3; k++) {
        if (bn->scale[k] == 0.0f)
            continue;
        float left_area[RP_BVH_BINS];
        uint32_t left_count[RP_BVH_BINS];
        rp_v4 mn = rp_v4_set1(FLT_MAX), nmx = rp_v4_set1(FLT_MAX);
        uint32_t n = 0;
        for (int b = 0; b < nb - 1; b++) {
            mn = rp_v4_min(mn, rp_v4_load3x(bins.bin[k][b].box));
            nmx = rp_v4_min(nmx, rp_v4_load3x(bins.bin[k][b].box + 4));
            n += bins.count[k][b];
            left_area[b] = n ? bin_area(mn, nmx, unit) : 0.0f;
            left_count[b] = n;
        }
        mn = nmx = rp_v4_set1(FLT_MAX);
        n = 0;
        for (int b = nb - 1; b > 0; b--) {
            mn = rp_v4_min(mn, rp_v4_load3x(bins.bin[k][b].box));
            nmx = rp_v4_min(nmx, rp_v4_load3x(bins.bin[k][b].box + 4));
            n += bins.count[k][b];
            int plane = b - 1;
            if (n == 0 || left_count[plane] == 0)
                continue;
            double cost = (double)left_area[plane] * left_count[plane] +
                          (double)bin_area(mn, nmx, unit) * n;
            if (cost < best.cost) {
                best.axis = k;
                best.plane = plane;
                best.cost = cost;
            }
        }
    }
    if (best.axis >= 0) {
        bins_bounds(&bins, best.axis, 0, best.plane + 1, left);
        bins_bounds(&bins, best.axis, best.plane + 1, nb, right);
    }
    return best;
}

/* Nodes of at most this many primitives try every plane between them (a
   full sweep, Wald 2007's exact SAH) instead of binning: for so few,
   sorting them on each axis costs less than clearing and sweeping bins,
   and the plane is the best one rather than the best bin edge (the size
   is docs/performance.md's measurement). */
#define SMALL 8
#define NO_SPLIT UINT32_MAX

/* o[r] = the index of the r-th smallest of c[0 .. n) (n <= SMALL), ties
   in index order: a stable sort. SSE2: every object's rank counted at
   once against four others at a time, without branches (the small nodes'
   sort was the builder's most mispredicted branch); c must be padded
   with +inf up to a multiple of 4. Plain C: insertion sort. */
static void sort_small(const float *c, uint32_t n, uint8_t *o)
{
#if RP_SIMD_SSE2
    uint32_t blocks = (n + 3) / 4;
    for (uint32_t i = 0; i < n; i++) {
        __m128 ci = _mm_set1_ps(c[i]);
        __m128i ii = _mm_set1_epi32((int)i), rank = _mm_setzero_si128();
        for (uint32_t q = 0; q < blocks; q++) {
            __m128 k = _mm_loadu_ps(c + 4 * q);
            __m128i idx = _mm_setr_epi32((int)(4 * q), (int)(4 * q + 1), (int)(4 * q + 2),
                                         (int)(4 * q + 3));
            __m128i before = _mm_or_si128(
                _mm_castps_si128(_mm_cmplt_ps(k, ci)),
                _mm_and_si128(_mm_castps_si128(_mm_cmpeq_ps(k, ci)), _mm_cmplt_epi32(idx, ii)));
            rank = _mm_sub_epi32(rank, before);     /* each true lane is -1 */
        }
        rank = _mm_add_epi32(rank, _mm_shuffle_epi32(rank, _MM_SHUFFLE(1, 0, 3, 2)));
        rank = _mm_add_epi32(rank, _mm_shuffle_epi32(rank, _MM_SHUFFLE(2, 3, 0, 1)));
        o[_mm_cvtsi128_si32(rank)] = (uint8_t)i;
    }
#else
    for (uint32_t i = 0; i < n; i++) {
        uint32_t j = i;
        for (; j > 0 && c[o[j - 1]] > c[i]; j--)
            o[j] = o[j - 1];
        o[j] = (uint8_t)i;
    }
#endif
}

/* sweep_split for two objects: the one cut there is (when their
   centroids differ), without sorting. */
static uint32_t pair_split(rp_bvh_prim *p, bool leaf_ok, double node_cost, double area,
                           rp_v4 unit, rp_bvh_task *left, rp_bvh_task *right)
{
    rp_v4 a0 = rp_v4_load3x(p[0].min), b0 = rp_v4_load3x(p[0].max);
    rp_v4 a1 = rp_v4_load3x(p[1].min), b1 = rp_v4_load3x(p[1].max);
    float c0[4], c1[4];
    rp_v4_store(c0, rp_v4_add(a0, b0));
    rp_v4_store(c1, rp_v4_add(a1, b1));
    if (c0[0] == c1[0] && c0[1] == c1[1] && c0[2] == c1[2])
        return NO_SPLIT;
    double cost = (double)box_area(a0, b0, unit) + (double)box_area(a1, b1, unit);
    if (leaf_ok && node_cost * area + cost >= area * 2)
        return 0;
    rp_v4_store(left->bmin, a0);
    rp_v4_store(left->bmax, b0);
    rp_v4_store(left->cmin, rp_v4_add(a0, b0));
    rp_v4_store(left->cmax, rp_v4_add(a0, b0));
    rp_v4_store(right->bmin, a1);
    rp_v4_store(right->bmax, b1);
    rp_v4_store(right->cmin, rp_v4_add(a1, b1));
    rp_v4_store(right->cmax, rp_v4_add(a1, b1));
    return 1;
}

/* The small node's split: sorts its objects by centroid on each axis and
   takes the cheapest cut between two different centroids. Returns the
   left count with the objects reordered and both sides measured, 0 for a
   leaf, NO_SPLIT when all centroids are equal. */
static uint32_t sweep_split(rp_bvh_prim *p, uint32_t n, bool leaf_ok, double node_cost,
                            double area, rp_v4 unit, rp_bvh_task *left, rp_bvh_task *right)
{
    float key[3][SMALL];
    uint8_t order[3][SMALL];
    for (uint32_t i = 0; i < n; i++)
        for (int k = 0; k < 3; k++)
            key[k][i] = p[i].min[k] + p[i].max[k];
    for (uint32_t i = n; i < (n + 3) / 4 * 4; i++)
        for (int k = 0; k < 3; k++)
            key[k][i] = INFINITY;       /* sort_small's padding */
    int best_axis = -1;
    uint32_t best_left = 0;
    double best_cost = INFINITY;
    for (int k = 0; k < 3; k++) {
        uint8_t *o = order[k];
        const float *c = key[k];
        sort_small(c, n, o);
        if (!(c[o[0]] < c[o[n - 1]]))
            continue;
        float right_area[SMALL];
        rp_v4 mn = rp_v4_set1(FLT_MAX), mx = rp_v4_set1(-FLT_MAX);
        for (uint32_t i = n - 1; i > 0; i--) {
            mn = rp_v4_min(mn, rp_v4_load3x(p[o[i]].min));
            mx = rp_v4_max(mx, rp_v4_load3x(p[o[i]].max));
            right_area[i] = box_area(mn, mx, unit);
        }
        mn = rp_v4_set1(FLT_MAX);
        mx = rp_v4_set1(-FLT_MAX);
        for (uint32_t i = 0; i + 1 < n; i++) {
            mn = rp_v4_min(mn, rp_v4_load3x(p[o[i]].min));
            mx = rp_v4_max(mx, rp_v4_load3x(p[o[i]].max));
            double cost = (double)box_area(mn, mx, unit) * (i + 1) +
                          (double)right_area[i + 1] * (n - 1 - i);
            /* no plane between equal centroids (a select, not a branch:
               equal neighbours are common and unpredictable) */
            cost = c[o[i]] == c[o[i + 1]] ? INFINITY : cost;
            if (cost < best_cost) {
                best_cost = cost;
                best_axis = k;
                best_left = i + 1;
            }
        }
    }
    if (best_axis < 0)
        return NO_SPLIT;
    if (leaf_ok && node_cost * area + best_cost >= area * n)
        return 0;
    rp_bvh_prim sorted[SMALL];
    for (uint32_t i = 0; i < n; i++)
        sorted[i] = p[order[best_axis][i]];
    memcpy(p, sorted, n * sizeof *p);
    scan_bounds(p, best_left, left->bmin, left->bmax, left->cmin, left->cmax);
    scan_bounds(p + best_left, n - best_left, right->bmin, right->bmax, right->cmin, right->cmax);
    return best_left;
}

/* The split of a node by SAH: the left count with its objects reordered
   and both sides measured, 0 for a leaf, NO_SPLIT when no plane
   separates its centroids. */
static uint32_t sah_split(rp_bvh_prim *p, const rp_bvh_task *t, const rp_bvh_shape *shape,
                          bool leaf_ok, int top_threads, rp_bvh_task *left, rp_bvh_task *right)
{
    rp_v4 unit = area_unit(t->bmin, t->bmax);
    double area = box_area(rp_v4_load3(t->bmin), rp_v4_load3(t->bmax), unit);
    if (t->count == 2)
        return pair_split(p, leaf_ok, shape->node_cost, area, unit, left, right);
    if (t->count <= SMALL)
        return sweep_split(p, t->count, leaf_ok, shape->node_cost, area, unit, left, right);
    rp_bvh_binning bn = make_binning(t->cmin, t->cmax, t->count);
    if (bn.scale[0] == 0.0f && bn.scale[1] == 0.0f && bn.scale[2] == 0.0f) {
        /* a sample's centroids may all fall on one point where the
           node's do not: measure them all before giving up */
        float mn[4], mx[4], cmin[4], cmax[4];
        scan_bounds(p, t->count, mn, mx, cmin, cmax);
        bn = make_binning(cmin, cmax, t->count);
    }
    uint32_t stride = t->count > 2 * SAMPLE_TARGET ? t->count / SAMPLE_TARGET : 1;
    split s = best_split(p, t->count, stride, &bn, unit, left, right);
    if (s.axis < 0)
        return NO_SPLIT;
    if (stride == 1) {
        /* the node's own box, exact from its bins (a sampled parent's
           bins only estimated it) */
        area = box_area(rp_v4_min(rp_v4_load3(left->bmin), rp_v4_load3(right->bmin)),
                        rp_v4_max(rp_v4_load3(left->bmax), rp_v4_load3(right->bmax)), unit);
    }
    /* traversal 1 + the children's objects, against testing all
       (sampled nodes are far too big to become leaves) */
    if (leaf_ok && shape->node_cost * area + s.cost >= area * t->count)
        return 0;
    return rp_bvh_partition(p, t->count, s.axis, s.plane, &bn, shape->scattered, top_threads);
}

/* Builds the node of task t: bounds, and where to split its primitives
   (0 makes a leaf); fills the children's bounds. top_threads: see
   rp_bvh_partition. */
static uint32_t build_node(rp_bvh_prim *p, const rp_bvh_task *t, const rp_bvh_shape *shape,
                           int top_threads, rp_bvh2_node *node, rp_bvh_task *left,
                           rp_bvh_task *right)
{
    bool leaf_ok = t->count <= shape->max_leaf;
    memcpy(node->min, t->bmin, sizeof node->min);
    memcpy(node->max, t->bmax, sizeof node->max);
    /* each its own slot of one four-wide node: no split could beat that */
    if (leaf_ok && t->count <= shape->own_slots)
        return 0;
    /* a node visit costs more than testing them all: no split pays
       (every split's cost is at least the visit's) */
    if (leaf_ok && shape->node_cost >= (double)t->count)
        return 0;
    if (t->count > 1 && t->depth < RP_BVH_SAH_DEPTH) {
        uint32_t nl = sah_split(p, t, shape, leaf_ok, top_threads, left, right);
        if (nl != NO_SPLIT)
            return nl;
    }
    if (leaf_ok)
        return 0;
    /* Identical centroids, or deep enough to guarantee the depth bound:
       halves by count, so the depth grows by at most log2(count). */
    uint32_t half = t->count / 2;
    scan_bounds(p, half, left->bmin, left->bmax, left->cmin, left->cmax);
    scan_bounds(p + half, t->count - half, right->bmin, right->bmax, right->cmin, right->cmax);
    return half;
}

bool rp_bvh_build(const rp_bvh_box *boxes, uint32_t count, rp_bvh *out)
{
    return rp_bvh_build_tagged(boxes, NULL, count, out);
}

/* Makes the boxes of nodes[first .. end) exact, children before parents
   (every child comes after its parent): a leaf's from its records, an
   inner node's from its children's (the children of sampled nodes were
   boxed by the sample). COLLAPSED nodes are exact already. */
static void exact_boxes(const rp_bvh_prim *p, rp_bvh2_node *nodes, uint32_t first, uint32_t end)
{
    for (uint32_t i = end; i-- > first;) {
        rp_bvh2_node *n = &nodes[i];
        if (n->count == RP_BVH2_COLLAPSED)
            continue;
        rp_v4 mn, mx;
        if (n->count > 0) {
            mn = rp_v4_load3x(p[n->first].min);
            mx = rp_v4_load3x(p[n->first].max);
            for (uint32_t k = n->first + 1; k < n->first + n->count; k++) {
                mn = rp_v4_min(mn, rp_v4_load3x(p[k].min));
                mx = rp_v4_max(mx, rp_v4_load3x(p[k].max));
            }
        } else {
            const rp_bvh2_node *l = &nodes[n->first], *r = &nodes[n->first + 1];
            mn = rp_v4_min(rp_v4_load3(l->min), rp_v4_load3(r->min));
            mx = rp_v4_max(rp_v4_load3(l->max), rp_v4_load3(r->max));
        }
        float lo[4], hi[4];
        rp_v4_store(lo, mn);
        rp_v4_store(hi, mx);
        memcpy(n->min, lo, sizeof n->min);
        memcpy(n->max, hi, sizeof n->max);
    }
}

/* Builds the subtree of task `root` depth first: its node is written at
   root->node, its descendants' pairs from *next upwards (which it
   advances). Returns the depth of its deepest leaf. */
static uint32_t build_subtree(rp_bvh_prim *p, rp_bvh2_node *nodes, const rp_bvh_task *root,
                              const rp_bvh_shape *shape, uint32_t *next)
{
    /* The right child waits on the stack while the left one is built:
       one waiting task per level, depth <= RP_BVH_MAX_DEPTH. */
    rp_bvh_task stack[2 * (RP_BVH_MAX_DEPTH + 1)];
    int sp = 0;
    uint32_t used = *next, max_depth = 0;
    stack[sp++] = *root;
    while (sp > 0) {
        rp_bvh_task t = stack[--sp];
        rp_bvh2_node *node = &nodes[t.node];
        rp_bvh_task left, right;
        uint32_t nl = build_node(p + t.first, &t, shape, 0, node, &left, &right);
        if (nl == 0 || nl == t.count) {
            node->first = t.first;
            node->count = t.count;
            max_depth = t.depth > max_depth ? t.depth : max_depth;
            continue;
        }
        node->first = used;
        node->count = 0;
        used += 2;
        right.node = node->first + 1;
        right.first = t.first + nl;
        right.count = t.count - nl;
        right.depth = t.depth + 1;
        left.node = node->first;
        left.first = t.first;
        left.count = nl;
        left.depth = t.depth + 1;
        stack[sp++] = right;
        stack[sp++] = left;
    }
    exact_boxes(p, nodes, root->node, used);
    *next = used;
    return max_depth;
}

/*
 * Big builds run on several threads and give the same tree on any number
 * of them (one included):
 * 0. the records are filled, and the root measured, in two halves;
 * 1. the top of the tree is built first, always the same way: the biggest
 *    waiting node is split until there are SUBTREES waiting or none is
 *    bigger than SUBTREE_MIN objects (each split partitions the node's two
 *    halves on their own, on two threads: see rp_bvh_partition);
 * 2. the threads take the waiting nodes one at a time, biggest first,
 *    each when it is free (a core slowed by something else takes fewer);
 *    each subtree is built into the thread's scratch array of binary
 *    nodes and collapsed into BVH4 nodes at once (from its cache) at the
 *    end of the thread's own list of them; the thread also writes the
 *    subtree's object indices and tags;
 * 3. the top is collapsed over the subtrees' BVH4 roots, and the threads'
 *    nodes are copied behind it, subtree by subtree in object order, on
 *    two threads, which also sum the tree's SAH cost; into the records'
 *    block when they fit, whose pages the records have touched already
 *    (the kernel zeroes each fresh page on its first write: on the
 *    project's virtual machines a quarter of a big build's time).
 * Which thread builds which subtree changes nothing but the time.
 */
#define SUBTREES 16
#define SUBTREE_MIN 16384
#define MAX_THREADS 8
/* the top's binary nodes: the root, and a pair per split (at most
   SUBTREES - 1 splits leave room for their children) */
#define TOP_NODES (2 * SUBTREES)

typedef struct subtree {
    rp_bvh_task root;       /* its node belongs to the top of the tree */
    uint32_t    depth;      /* its deepest leaf */
    int         worker;     /* the thread that built it */
    uint32_t    first4;     /* its BVH4 nodes in that thread's list */
    uint32_t    count4;     /* (none when its root is a leaf) */
    uint32_t    at;         /* and their place in the whole tree */
} subtree;

/* Writes the object indices (and tags) of records [first, first + count)
   into the leaf order's arrays. */
static void write_prims(const rp_bvh_prim *p, uint32_t first, uint32_t count, uint32_t *prims,
                        uint32_t *tags)
{
    for (uint32_t k = first; k < first + count; k++)
        prims[k] = p[k].obj;
    for (uint32_t k = first; k < first + count && tags != NULL; k++)
        tags[k] = p[k].tag;
}

typedef struct build_job {
    rp_bvh_prim        *p;
    uint32_t           *prims, *tags;
    rp_bvh2_node       *top;
    const rp_bvh_shape *shape;
    subtree            *sub;
    const int          *order;      /* sub[] biggest first */
    int                 subs, worker;
    rp_ticket          *ticket;     /* the next of order[] to build */
    uint32_t            scratch_nodes;
    rp_bvh4_node       *out4;       /* this thread's BVH4 nodes */
    uint32_t            used4, cap4;
    bool                failed;     /* out of memory, or too deep */
} build_job;

/* Room for `more` nodes at the end of the job's BVH4 list. */
static bool reserve4(build_job *j, uint32_t more)
{
    if (j->used4 + (uint64_t)more <= j->cap4)
        return true;
    /* doubling, in huge pages where there are some: a thread's list of a
       million objects' nodes grew by realloc in 4 KiB pages (three
       quarters of a build's 11,000 to 21,000 page faults) and copied
       itself each time */
    uint64_t cap = 2 * (uint64_t)j->cap4;
    cap = cap > j->used4 + (uint64_t)more ? cap : j->used4 + (uint64_t)more;
    if (cap > SIZE_MAX / sizeof *j->out4)
        return false;
    rp_bvh4_node *grown = rp_realloc_large(j->out4, (size_t)j->used4 * sizeof *grown,
                                           (size_t)cap * sizeof *grown);   /* the used part kept */
    if (grown == NULL)
        return false;
    j->out4 = grown;
    j->cap4 = (uint32_t)cap;
    return true;
}

/* About the halves a tree of `count` objects takes: a scene's wide tree
   took 0.39-0.40 an object (1M spheres, 100k mixed objects), a mesh's
   four-wide one 0.044 a triangle. An estimate, not a bound: build and
   reserve4 manage without it. */
static uint64_t halves_expected(uint32_t count, uint32_t halves)
{
    return halves == 2 ? (uint64_t)count * 27 / 64 : (uint64_t)count / 16;
}

/* The records' block: room for the records, and for the nodes when they
   come to about halves_expected (build puts them there, as the block is
   warm by then). Pages that neither touches are never backed. */
static size_t records_bytes(uint32_t count, uint32_t halves)
{
    const uint64_t records = (uint64_t)count * sizeof(rp_bvh_prim);
    const uint64_t nodes = (halves_expected(count, halves) + 2 * SUBTREES) * sizeof(rp_bvh4_node);
    const uint64_t bytes = records > nodes ? records : nodes;
    return bytes <= SIZE_MAX ? (size_t)bytes : SIZE_MAX;    /* (then no allocation succeeds) */
}

/* A job's list whose share of the expected halves takes this many bytes
   or more gets its room at once (first_reserve). Blocks that big come
   fresh from the system anyway (glibc maps anything over 32 MiB), and a
   list growing by doubling copies itself into fresh pages each time; a
   smaller list grows as before, in blocks the allocator recycles. */
#define FIRST_RESERVE_FROM ((uint64_t)16 << 20)

/* A job's first room for BVH4 nodes (0: none, for a small build): its
   share of the expected halves, and the most that collapsing its biggest
   subtree asks for, so that its list does not have to grow. Only the
   part the job writes is ever touched. */
static uint32_t first_reserve(uint32_t count, const rp_bvh_shape *shape, int workers,
                              uint32_t scratch_nodes)
{
    const uint64_t share = halves_expected(count, rp_bvh_halves(shape)) / (uint64_t)workers;
    if (share * sizeof(rp_bvh4_node) < FIRST_RESERVE_FROM)
        return 0;
    const uint64_t r = share + (uint64_t)scratch_nodes * rp_bvh_halves(shape);
    return r < UINT32_MAX / 2 ? (uint32_t)r : UINT32_MAX / 2;
}

/* Builds subtree s into scratch (its root at 0), collapses it into the
   job's BVH4 list, and marks its root in the top accordingly. */
static void build_one(build_job *j, subtree *s, rp_bvh2_node *scratch)
{
    rp_bvh_task root = s->root;
    root.node = 0;
    uint32_t used = 1;
    s->depth = build_subtree(j->p, scratch, &root, j->shape, &used);
    rp_bvh2_node *top = &j->top[s->root.node];
    *top = scratch[0];
    s->worker = j->worker;
    s->first4 = j->used4;
    s->count4 = 0;
    const bool own = top->count > 1 && top->count <= j->shape->own_slots;
    if (top->count == 0 || own) {
        /* a node (of its halves) per binary node at most */
        if (!reserve4(j, used * rp_bvh_halves(j->shape))) {
            j->failed = true;
            return;
        }
        /* the top's BVH4 nodes are above it: its root is no deeper than
           the binary one */
        s->count4 = rp_bvh4_collapse(scratch, 0, s->root.depth, j->p, j->shape->own_slots,
                                     rp_bvh_halves(j->shape), j->out4 + j->used4);
        j->failed |= s->count4 == 0;
        j->used4 += s->count4;
        top->count = RP_BVH2_COLLAPSED;
    }
    write_prims(j->p, s->root.first, s->root.count, j->prims, j->tags);
}

static void build_job_run(void *arg)
{
    build_job *j = arg;
    /* one scratch array, reused */
    rp_bvh2_node *scratch = rp_alloc_large((size_t)j->scratch_nodes * sizeof *scratch);
    j->failed |= scratch == NULL;
    while (!j->failed) {
        long next = rp_ticket_take(j->ticket);
        if (next >= j->subs)
            break;
        build_one(j, &j->sub[j->order[next]], scratch);
    }
    rp_free_large(scratch);
}

/* Splits the biggest waiting node while there is room for its children;
   leaves made here are finished. Returns the number of subtrees left in
   sub[], ordered by their objects' position; *used and *max_depth as
   build_subtree's. */
static int build_top(rp_bvh_prim *p, uint32_t *prims, uint32_t *tags, rp_bvh2_node *nodes,
                     const rp_bvh_task *root, const rp_bvh_shape *shape, int threads,
                     subtree sub[SUBTREES], uint32_t *used, uint32_t *max_depth)
{
    int n = 0;
    sub[n++].root = *root;
    while (n < SUBTREES && *used + 2 <= TOP_NODES) {
        int big = -1;
        for (int i = 0; i < n; i++)
            if (sub[i].root.count > SUBTREE_MIN && (big < 0 || sub[i].root.count > sub[big].root.count))
                big = i;
        if (big < 0)
            break;
        rp_bvh_task t = sub[big].root, left, right;
        rp_bvh2_node *node = &nodes[t.node];
        uint32_t nl = build_node(p + t.first, &t, shape, threads, node, &left, &right);
        if (nl == 0 || nl == t.count) {
            node->first = t.first;
            node->count = t.count;
            write_prims(p, t.first, t.count, prims, tags);
            *max_depth = t.depth > *max_depth ? t.depth : *max_depth;
            sub[big] = sub[--n];
            continue;
        }
        node->first = *used;
        node->count = 0;
        *used += 2;
        left.node = node->first;
        left.first = t.first;
        left.count = nl;
        left.depth = t.depth + 1;
        right.node = node->first + 1;
        right.first = t.first + nl;
        right.count = t.count - nl;
        right.depth = t.depth + 1;
        sub[big].root = left;
        sub[n++].root = right;
    }
    /* in object order (insertion sort: a handful) */
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && sub[j - 1].root.first > sub[j].root.first; j--) {
            subtree tmp = sub[j];
            sub[j] = sub[j - 1];
            sub[j - 1] = tmp;
        }
    return n;
}

/* order[] = the subtrees' positions in sub[], biggest first (ties in
   object order); returns the most objects one holds. */
static uint32_t order_by_size(const subtree *sub, int n, int order[SUBTREES])
{
    for (int i = 0; i < n; i++) {
        int j = i;
        for (; j > 0 && sub[order[j - 1]].root.count < sub[i].root.count; j--)
            order[j] = order[j - 1];
        order[j] = i;
    }
    return n > 0 ? sub[order[0]].root.count : 0;
}

/* Runs the workers; the calling thread is worker 0, and does the work of
   any thread the system would not start. */
static void run_workers(build_job *jobs, int workers)
{
    rp_thread threads[MAX_THREADS];
    bool started[MAX_THREADS] = {false};
    for (int w = 1; w < workers; w++)
        started[w] = rp_thread_start(&threads[w], build_job_run, &jobs[w]);
    build_job_run(&jobs[0]);
    for (int w = 1; w < workers; w++) {
        if (started[w])
            rp_thread_join(&threads[w]);
        else
            build_job_run(&jobs[w]);
    }
}

/* The top's nodes of `halves` halves, written at out[0 ..] (room for
   SUBTREES nodes), with each subtree's root pointing to its place;
   returns the halves written. A root that is a subtree has none; a root
   that is a leaf, one node. */
static uint32_t collapse_top(rp_bvh2_node *top, const subtree *sub, int n, uint32_t halves,
                             rp_bvh4_node *out)
{
    if (top[0].count == RP_BVH2_COLLAPSED)
        return 0;
    if (top[0].count > 0) {     /* a single leaf: the root's only child */
        const rp_bvh2_node leaf = top[0];
        for (uint32_t i = 0; i < 4 * halves; i++) {
            rp_bvh4_node *h = &out[i / 4];
            for (int a = 0; a < 3; a++) {
                h->b[a][i % 4] = i == 0 ? leaf.min[a] : INFINITY;
                h->b[3 + a][i % 4] = i == 0 ? leaf.max[a] : -INFINITY;
            }
            h->child[i % 4] = i == 0 ? leaf.first : RP_BVH4_EMPTY;
            h->count[i % 4] = i == 0 ? leaf.count : 0;
        }
        return halves;
    }
    for (int i = 0; i < n; i++)
        if (top[sub[i].root.node].count == RP_BVH2_COLLAPSED)
            top[sub[i].root.node].first = sub[i].at;
    /* (the records are gone: a leaf of the top stays one slot) */
    return rp_bvh4_collapse(top, 0, 0, NULL, 0, halves, out);
}

/* Copies subtrees [from, to)'s BVH4 nodes from their threads' lists to
   their places, moving their children's indices with them, and sums
   their part of the SAH cost. */
typedef struct copy_job {
    rp_bvh4_node    *nodes;
    const subtree   *sub;
    const build_job *jobs;
    uint32_t         halves;
    int              from, to;
    double           weighted;
    uint32_t         inner;     /* inner slots copied: the nodes below them */
} copy_job;

/* Inner slots of halves [from, to). */
static uint32_t inner_slots(const rp_bvh4_node *nodes, uint32_t from, uint32_t to)
{
    uint32_t inner = 0;
    for (uint32_t q = from; q < to; q++)
        for (int k = 0; k < 4; k++)
            inner += nodes[q].count[k] == 0 && nodes[q].child[k] != RP_BVH4_EMPTY;
    return inner;
}

static void copy_job_run(void *arg)
{
    copy_job *c = arg;
    for (int i = c->from; i < c->to; i++) {
        const subtree *s = &c->sub[i];
        if (s->count4 == 0)
            continue;       /* a leaf at its root: nothing in any list */
        const rp_bvh4_node *src = c->jobs[s->worker].out4 + s->first4;
        rp_bvh4_node *dst = c->nodes + s->at;
        memcpy(dst, src, (size_t)s->count4 * sizeof *dst);
        /* an index moves by at halves, a wide node's reference by twice */
        const uint32_t shift = c->halves == 2 ? 2 * s->at : s->at;
        for (uint32_t q = 0; q < s->count4; q++)
            for (int k = 0; k < 4; k++)
                if (dst[q].count[k] == 0 && dst[q].child[k] != RP_BVH4_EMPTY) {
                    dst[q].child[k] += shift;
                    c->inner++;
                }
    }
    c->weighted = 0.0;
    if (c->from < c->to) {
        uint32_t end = c->sub[c->to - 1].at + c->sub[c->to - 1].count4;
        c->weighted = rp_bvh4_weighted_area(c->nodes, c->sub[c->from].at, end);
    }
}

/* Fills records [lo, hi) from the boxes, or from the boxes around the
   triangles, and measures them (box and centroid bounds: the root's,
   once both halves are done). */
typedef struct fill_job {
    const rp_bvh_box    *boxes;
    const rp_tri_source *tris;
    const uint32_t   *tags;
    rp_bvh_prim      *p;
    uint32_t          lo, hi;
    float             bmin[4], bmax[4], cmin[4], cmax[4];
} fill_job;

static void fill_job_run(void *arg)
{
    fill_job *j = arg;
    for (uint32_t i = j->lo; i < j->hi && j->tris != NULL; i++) {
        const float *c[3];
        rp_tri_source_corners(j->tris, rp_tri_source_triangle(j->tris, i), c);
        for (int a = 0; a < 3; a++) {
            float x = c[0][a], y = c[1][a], z = c[2][a];
            float lo = x < y ? x : y, hi = x > y ? x : y;
            j->p[i].min[a] = z < lo ? z : lo;
            j->p[i].max[a] = z > hi ? z : hi;
        }
    }
    for (uint32_t i = j->lo; i < j->hi && j->tris == NULL; i++) {
        memcpy(j->p[i].min, j->boxes[i].min, sizeof j->p[i].min);
        memcpy(j->p[i].max, j->boxes[i].max, sizeof j->p[i].max);
    }
    for (uint32_t i = j->lo; i < j->hi; i++) {
        j->p[i].obj = i;
        j->p[i].tag = j->tags != NULL ? j->tags[i] : 0;
    }
    scan_bounds(j->p + j->lo, j->hi - j->lo, j->bmin, j->bmax, j->cmin, j->cmax);
}

static void free_jobs(build_job *jobs, int workers)
{
    for (int w = 0; w < workers; w++)
        rp_free_large(jobs[w].out4);
}

/* rp_bvh_build_shaped on boxes, or on the boxes of tris when boxes is
   NULL; tags (may be NULL) go with their objects. */
static bool build(const rp_bvh_box *boxes, const rp_tri_source *tris, const uint32_t *tags,
                  uint32_t count, const rp_bvh_shape *shape, rp_bvh *out)
{
    memset(out, 0, sizeof *out);
    if (count == 0)
        return false;
    /* the records' block, dead once the subtrees are built, then takes
       the tree's nodes when they fit (records_bytes): fresh memory costs
       a page fault and the kernel's zeroing of every page it touches */
    const size_t p_bytes = records_bytes(count, rp_bvh_halves(shape));
    rp_bvh_prim *p = rp_alloc_large(p_bytes);
    uint32_t *prims = rp_alloc_large((size_t)count * sizeof *prims);
    uint32_t *tags_out = tags ? rp_alloc_large((size_t)count * sizeof *tags_out) : NULL;
    if (p == NULL || prims == NULL || (tags != NULL && tags_out == NULL)) {
        rp_free_large(p);
        rp_free_large(prims);
        rp_free_large(tags_out);
        return false;
    }
    int threads = shape->max_threads > 0 ? (int)shape->max_threads : rp_cpu_count();
    threads = threads < MAX_THREADS ? threads : MAX_THREADS;
    /* the records and the root's bounds, in two halves */
    fill_job fill[2] = {{boxes, tris, tags, p, 0, count / 2, {0}, {0}, {0}, {0}},
                        {boxes, tris, tags, p, count / 2, count, {0}, {0}, {0}, {0}}};
    rp_thread_run_pair(fill_job_run, &fill[0], fill_job_run, &fill[1],
                       threads > 1 && count > SUBTREE_MIN);

    rp_bvh_task root;
    memset(&root, 0, sizeof root);
    root.count = count;
    for (int k = 0; k < 4; k++) {
        root.bmin[k] = fminf(fill[0].bmin[k], fill[1].bmin[k]);
        root.bmax[k] = fmaxf(fill[0].bmax[k], fill[1].bmax[k]);
        root.cmin[k] = fminf(fill[0].cmin[k], fill[1].cmin[k]);
        root.cmax[k] = fmaxf(fill[0].cmax[k], fill[1].cmax[k]);
    }
    rp_bvh2_node top[TOP_NODES];
    memset(top, 0, sizeof top);
    subtree sub[SUBTREES];
    uint32_t used = 2, max_depth = 0;
    int n = build_top(p, prims, tags_out, top, &root, shape, threads, sub, &used, &max_depth);
    int workers = threads < n ? threads : (n > 0 ? n : 1);
    int order[SUBTREES];
    /* scratch for the biggest: two nodes per split, at most count - 1 */
    uint32_t scratch_nodes = 2 * order_by_size(sub, n, order);
    rp_ticket ticket = {0};
    build_job jobs[MAX_THREADS];
    for (int w = 0; w < workers; w++) {
        build_job j = {p,     prims,   tags_out, top,           shape, sub, order, n,
                       w,     &ticket, scratch_nodes, NULL, 0,     0,   false};
        jobs[w] = j;
    }
    for (int w = 0; w < workers && n > 0; w++)
        jobs[w].failed = !reserve4(&jobs[w], first_reserve(count, shape, workers, scratch_nodes));
    if (n > 0)
        run_workers(jobs, workers);
    exact_boxes(p, top, 0, used);
    bool failed = false;
    for (int w = 0; w < workers; w++)
        failed |= jobs[w].failed;

    /* the top first, then the subtrees in object order */
    const uint32_t halves = rp_bvh_halves(shape);
    rp_bvh4_node top4[SUBTREES * 2];
    for (int i = 0; i < n; i++)
        sub[i].at = 0;
    uint32_t top_count = failed ? 0 : collapse_top(top, sub, n, halves, top4);
    uint64_t total = top_count;
    for (int i = 0; i < n; i++) {
        sub[i].at = (uint32_t)total;
        total += sub[i].count4;
        max_depth = sub[i].depth > max_depth ? sub[i].depth : max_depth;
    }
    if (!failed && total > top_count)   /* again, now the places are known */
        top_count = collapse_top(top, sub, n, halves, top4);
    rp_bvh4_node *nodes = NULL;
    if (!failed && (top_count > 0 || total > 0) && total <= UINT32_MAX)
        nodes = total * sizeof *nodes <= p_bytes ? (rp_bvh4_node *)(void *)p
                                                 : rp_alloc_large((size_t)total * sizeof *nodes);
    if ((void *)nodes != (void *)p)
        rp_free_large(p);
    if (nodes == NULL) {
        free_jobs(jobs, workers);
        rp_free_large(prims);
        rp_free_large(tags_out);
        return false;
    }
    memcpy(nodes, top4, top_count * sizeof *nodes);
    /* two halves of the nodes, in whole subtrees */
    int mid = 0;
    while (mid < n && sub[mid].at + sub[mid].count4 <= top_count + (total - top_count) / 2)
        mid++;
    copy_job copy[2] = {{nodes, sub, jobs, halves, 0, mid, 0.0, 0},
                        {nodes, sub, jobs, halves, mid, n, 0.0, 0}};
    rp_thread_run_pair(copy_job_run, &copy[0], copy_job_run, &copy[1],
                       threads > 1 && total > 4096);
    free_jobs(jobs, workers);
    double weighted = rp_bvh4_weighted_area(nodes, 0, top_count);
    weighted += copy[0].weighted;
    weighted += copy[1].weighted;
    if ((void *)nodes == (void *)p && total * sizeof *nodes < p_bytes) {
        /* the records' block handed back past the nodes (a small mesh's
           tree would otherwise keep room for 32 more halves): a shrink,
           which allocators do in place or by remapping pages */
        rp_bvh4_node *fit = rp_realloc_large(nodes, p_bytes, (size_t)total * sizeof *nodes);
        nodes = fit != NULL ? fit : nodes;
    }

    out->nodes = nodes;
    out->node_count = (uint32_t)total;
    out->prims = prims;
    out->tags = tags_out;
    out->prim_count = count;
    out->depth = max_depth;
    out->cost = rp_bvh4_cost_of(nodes, halves, weighted);
    out->halves = halves;
    /* every node but the root sits under one inner slot */
    out->node_total = halves == 1 ? (uint32_t)total
                                  : 1 + inner_slots(nodes, 0, top_count) + copy[0].inner +
                                        copy[1].inner;
    out->top_count = top_count;
    out->half = mid < n ? sub[mid].at : (uint32_t)total;
    return true;
}

bool rp_bvh_build_shaped(const rp_bvh_box *boxes, uint32_t count, const rp_bvh_shape *shape,
                          rp_bvh *out)
{
    return build(boxes, NULL, NULL, count, shape, out);
}

bool rp_bvh_build_tagged(const rp_bvh_box *boxes, const uint32_t *tags, uint32_t count,
                          rp_bvh *out)
{
    const rp_bvh_shape scene = {RP_BVH_SCENE_MAX_LEAF, 1.0, 0, true, RP_BVH_SCENE_MAX_LEAF, 2};
    return build(boxes, NULL, tags, count, &scene, out);
}

bool rp_bvh_build_triangles(const rp_tri_source *tris, uint32_t count, const rp_bvh_shape *shape,
                             rp_bvh *out)
{
    return build(NULL, tris, NULL, count, shape, out);
}

void rp_bvh_free(rp_bvh *bvh)
{
    rp_free_large(bvh->nodes);
    rp_free_large(bvh->prims);
    rp_free_large(bvh->tags);
    memset(bvh, 0, sizeof *bvh);
}

/* bvh4.c: the four-wide BVH (bvh4.h) from the builder's binary tree
   (bvh_build.c), its refit and its SAH cost; the mesh and the scene both
   use it. */
#include <math.h>
#include <string.h>

#include "bvh4.h"
#include "internal.h"
#include "thread_internal.h"

static void slot_set(rp_bvh4_node *q, int i, const rp_bvh2_node *n, uint32_t child, uint32_t count)
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
static int gather(const rp_bvh2_node *nodes, uint32_t root, uint32_t out[4])
{
    int k = 2;
    out[0] = nodes[root].first;
    out[1] = nodes[root].first + 1;
    while (k < 4) {
        int open = -1;
        double best = -1.0;
        for (int i = 0; i < k; i++) {
            const rp_bvh2_node *n = &nodes[out[i]];
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

/* (Depth first: a node's inner children get consecutive indices, after
   it.) Each BVH4 node takes the place of one distinct binary inner node,
   so there are at most as many as those. */
uint32_t rp_bvh4_collapse(const rp_bvh2_node *nodes, uint32_t root, uint32_t depth,
                          rp_bvh4_node *out)
{
    /* (binary inner node, its BVH4 node, that node's depth) to fill; each
       pop pushes at most four, and the depth bound of RP_BVH4_STACK holds
       here too */
    uint32_t stack[RP_BVH4_STACK][3];
    int sp = 0;
    stack[sp][0] = root;
    stack[sp][1] = 0;
    stack[sp][2] = depth;
    sp++;
    uint32_t count = 1;
    while (sp > 0) {
        sp--;
        uint32_t bin = stack[sp][0], q = stack[sp][1], d = stack[sp][2];
        uint32_t kids[4];
        int k = gather(nodes, bin, kids);
        /* pushed in reverse, so the first child's subtree comes next */
        for (int i = 3; i >= 0; i--) {
            if (i >= k) {
                slot_empty(&out[q], i);
                continue;
            }
            const rp_bvh2_node *n = &nodes[kids[i]];
            if (n->count == RP_BVH2_COLLAPSED) {
                slot_set(&out[q], i, n, n->first, 0);
                continue;
            }
            if (n->count > 0) {
                slot_set(&out[q], i, n, n->first, n->count);
                continue;
            }
            if (d + 1 >= RP_BVH_MAX_DEPTH)
                return 0;
            slot_set(&out[q], i, n, count, 0);
            stack[sp][0] = kids[i];
            stack[sp][1] = count;
            stack[sp][2] = d + 1;
            sp++;
            count++;
        }
    }
    return count;
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
                     const rp_bvh_box *boxes, float lo[3], float hi[3])
{
    const rp_bvh_box *b = &boxes[prims[first]];
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
double rp_bvh4_cost_of(const rp_bvh4_node *nodes, double weighted)
{
    float lo[3], hi[3];
    node_box(&nodes[0], lo, hi);
    double root = rp_bvh4_half_area(lo, hi);
    if (!(root > 0.0) || !isfinite(root))
        return 0.0;     /* a flat or point-like tree: no area to compare */
    return weighted / root;
}

/* Refits nodes [from, to), which hold their own children or refitted
   ones; returns their weighted area (rp_bvh4_weighted_area). */
static double refit_range(rp_bvh4_node *nodes, uint32_t from, uint32_t to,
                          const uint32_t *prims, const rp_bvh_box *boxes)
{
    double weighted = 0.0;
    /* children come after their parents: backwards, every child node is
       refitted before the slot that holds it is */
    for (uint32_t q = to; q-- > from;) {
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
    return weighted;
}

double rp_bvh4_refit(rp_bvh4_node *nodes, uint32_t count, const uint32_t *prims,
                     const rp_bvh_box *boxes)
{
    if (count == 0)
        return 0.0;
    return rp_bvh4_cost_of(nodes, refit_range(nodes, 0, count, prims, boxes));
}

typedef struct refit_job {
    rp_bvh4_node     *nodes;
    uint32_t          from, to;
    const uint32_t   *prims;
    const rp_bvh_box *boxes;
    double            weighted;
} refit_job;

static void refit_job_run(void *arg)
{
    refit_job *j = arg;
    j->weighted = refit_range(j->nodes, j->from, j->to, j->prims, j->boxes);
}

double rp_bvh4_refit_split(rp_bvh4_node *nodes, uint32_t count, uint32_t top, uint32_t half,
                           const uint32_t *prims, const rp_bvh_box *boxes, bool threaded)
{
    if (count == 0)
        return 0.0;
    if (!(top <= half && half <= count))
        return rp_bvh4_refit(nodes, count, prims, boxes);
    refit_job jobs[2] = {{nodes, top, half, prims, boxes, 0.0},
                         {nodes, half, count, prims, boxes, 0.0}};
    rp_thread_run_pair(refit_job_run, &jobs[0], refit_job_run, &jobs[1],
                       threaded && half > top && count > half);
    double weighted = jobs[0].weighted + jobs[1].weighted;
    weighted += refit_range(nodes, 0, top, prims, boxes);
    return rp_bvh4_cost_of(nodes, weighted);
}

double rp_bvh4_weighted_area(const rp_bvh4_node *nodes, uint32_t from, uint32_t to)
{
    double weighted = 0.0;
    for (uint32_t q = from; q < to; q++)
        weighted += node_weighted_area(&nodes[q]);
    return weighted;
}

double rp_bvh4_cost(const rp_bvh4_node *nodes, uint32_t count)
{
    if (count == 0)
        return 0.0;
    return rp_bvh4_cost_of(nodes, rp_bvh4_weighted_area(nodes, 0, count));
}

bool rp_bvh4_bounds(const rp_bvh4_node *nodes, uint32_t count, rp_bvh_box *out)
{
    if (count == 0)
        return false;
    node_box(&nodes[0], out->min, out->max);
    return true;
}

void rp_bvh4_masks_compute(const rp_bvh4_node *nodes, uint32_t count,
                           const uint32_t *leaf_masks, rp_bvh4_masks *out)
{
    /* children come after their parents: backwards, a child node's masks
       are ready before its parent's slot reads them */
    for (uint32_t q = count; q-- > 0;) {
        const rp_bvh4_node *n = &nodes[q];
        for (int i = 0; i < 4; i++) {
            uint32_t m = 0;
            if (n->child[i] == RP_BVH4_EMPTY) {
                m = 0;
            } else if (n->count[i] > 0) {
                for (uint32_t j = n->child[i]; j < n->child[i] + n->count[i]; j++)
                    m |= leaf_masks[j];
            } else {
                const rp_bvh4_masks *c = &out[n->child[i]];
                m = c->slot[0] | c->slot[1] | c->slot[2] | c->slot[3];
            }
            out[q].slot[i] = m;
        }
    }
}

/* The ranges of nodes [from, to), whose child nodes' ranges are ready. */
static void ranges_range(const rp_bvh4_node *nodes, uint32_t from, uint32_t to,
                         rp_bvh4_range *out)
{
    for (uint32_t q = to; q-- > from;) {
        const rp_bvh4_node *n = &nodes[q];
        uint32_t first = UINT32_MAX, end = 0, entries = 0;
        bool whole = true;
        for (int i = 0; i < 4; i++) {
            const uint32_t c = n->child[i], k = n->count[i];
            if (c == RP_BVH4_EMPTY)
                continue;
            /* a leaf's entries, or a child node's range */
            const rp_bvh4_range r = k > 0 ? (rp_bvh4_range){c, c + k} : out[c];
            whole = whole && r.end > r.first;
            first = r.first < first ? r.first : first;
            end = r.end > end ? r.end : end;
            entries += r.end - r.first;
        }
        /* contiguous: the children's entries fill [first, end) exactly */
        const bool ok = whole && end > first && entries == end - first;
        out[q].first = ok ? first : 0;
        out[q].end = ok ? end : 0;
    }
}

typedef struct ranges_job {
    const rp_bvh4_node *nodes;
    uint32_t            from, to;
    rp_bvh4_range      *out;
} ranges_job;

static void ranges_job_run(void *arg)
{
    ranges_job *j = arg;
    ranges_range(j->nodes, j->from, j->to, j->out);
}

void rp_bvh4_ranges(const rp_bvh4_node *nodes, uint32_t count, uint32_t top, uint32_t half,
                    bool threaded, rp_bvh4_range *out)
{
    if (!(top <= half && half <= count)) {
        ranges_range(nodes, 0, count, out);
        return;
    }
    ranges_job jobs[2] = {{nodes, top, half, out}, {nodes, half, count, out}};
    rp_thread_run_pair(ranges_job_run, &jobs[0], ranges_job_run, &jobs[1],
                       threaded && half > top && count > half);
    ranges_range(nodes, 0, top, out);
}

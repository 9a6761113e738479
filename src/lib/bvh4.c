/* bvh4.c: the four-wide BVH (bvh4.h) from the builder's binary tree
   (bvh_build.c), its refit and its SAH cost; the mesh and the scene both
   use it. */
#include <math.h>
#include <string.h>

#include "bvh4.h"
#include "bvh_refit.h"
#include "bvh_walk.h"
#include "internal.h"
#include "thread_internal.h"

static void slot_set(rp_bvh4_node *q, int i, const rp_bvh2_node *n, uint32_t child, uint32_t count)
{
    q += i / 4;     /* slot i of a node of halves: lane i % 4 of half i / 4 */
    i %= 4;
    for (int a = 0; a < 3; a++) {
        q->b[a][i] = n->min[a];
        q->b[3 + a][i] = n->max[a];
    }
    q->child[i] = child;
    q->count[i] = count;
}

static void slot_empty(rp_bvh4_node *q, int i)
{
    q += i / 4;
    i %= 4;
    for (int a = 0; a < 3; a++) {
        q->b[a][i] = INFINITY;
        q->b[3 + a][i] = -INFINITY;
    }
    q->child[i] = RP_BVH4_EMPTY;
    q->count[i] = 0;
}

/* What a slot of a BVH4 node holds while the collapse gathers them: a
   binary node, or (ITEM_ENTRY | j) the primitive of leaf entry j alone. */
#define ITEM_ENTRY 0x80000000u

typedef struct collapser {
    const rp_bvh2_node *nodes;
    const rp_bvh_prim  *entries;
    uint32_t            own_slots;   /* 0: no leaf gives its primitives slots */
    int                 slots;       /* per node: 4 per half */
} collapser;

/* The slots binary node n would take opened: two for an inner node, one
   per primitive for a leaf whose primitives have slots of their own; 0
   when it cannot be opened. */
static uint32_t opened_slots(const collapser *c, uint32_t n)
{
    const uint32_t count = c->nodes[n].count;
    if (count == 0)
        return 2;
    return count > 1 && count <= c->own_slots ? count : 0;
}

/* Replaces out[i], binary node n, by what it opens into, in its place:
   the items stay in the builder's leaf order (a left child's entries come
   before its right sibling's), so a node's slots, and each half's, cover
   one run of leaf entries (rp_bvh4_ranges). */
static int open_item(const collapser *c, uint32_t out[RP_BVH8_SLOTS], int k, int i)
{
    const rp_bvh2_node *n = &c->nodes[out[i]];
    const uint32_t more = n->count == 0 ? 1 : n->count - 1;
    memmove(&out[i + 1 + more], &out[i + 1], (size_t)(k - i - 1) * sizeof *out);
    if (n->count == 0) {
        out[i] = n->first;
        out[i + 1] = n->first + 1;
    } else {
        for (uint32_t j = 0; j < n->count; j++)
            out[i + j] = ITEM_ENTRY | (n->first + j);
    }
    return k + (int)more;
}

/* Up to c->slots items that together hold the subtree of binary node
   `root` (inner, or a leaf whose primitives have slots of their own): its
   children, then, while there is room, the one of largest area that fits
   replaced by what it opens into (Wald et al., "Getting rid of packets",
   2008: open the largest first, it is the one rays enter most). */
static int gather(const collapser *c, uint32_t root, uint32_t out[RP_BVH8_SLOTS])
{
    out[0] = root;
    int k = open_item(c, out, 1, 0);
    for (;;) {
        int open = -1;
        double best = -1.0;
        for (int i = 0; i < k; i++) {
            if (out[i] & ITEM_ENTRY)
                continue;
            const rp_bvh2_node *n = &c->nodes[out[i]];
            const uint32_t more = opened_slots(c, out[i]);
            double area = rp_bvh4_half_area(n->min, n->max);
            if (more > 0 && k - 1 + more <= (uint32_t)c->slots && area > best) {
                best = area;
                open = i;
            }
        }
        if (open < 0)
            return k;
        k = open_item(c, out, k, open);
    }
}

static void slot_set_entry(rp_bvh4_node *q, int i, const rp_bvh_prim *e, uint32_t j)
{
    q += i / 4;
    i %= 4;
    for (int a = 0; a < 3; a++) {
        q->b[a][i] = e->min[a];
        q->b[3 + a][i] = e->max[a];
    }
    q->child[i] = j;
    q->count[i] = 1;
}

/* A wide node's gathered items, kept in its first half (its child and
   count fields: eight words) from when its parent learns how many halves
   it takes until it is filled, so gather runs once per node. Unused
   words hold UINT32_MAX, never an item (entries stay below 2^31 - 1). */
static void keep_gathered(rp_bvh4_node *first, const uint32_t items[RP_BVH8_SLOTS], int k)
{
    for (int i = 0; i < RP_BVH8_SLOTS; i++) {
        const uint32_t item = i < k ? items[i] : UINT32_MAX;
        if (i < 4)
            first->child[i] = item;
        else
            first->count[i - 4] = item;
    }
}

static int take_gathered(const rp_bvh4_node *first, uint32_t items[RP_BVH8_SLOTS])
{
    int k = 0;
    for (int i = 0; i < RP_BVH8_SLOTS; i++) {
        const uint32_t item = i < 4 ? first->child[i] : first->count[i - 4];
        if (item != UINT32_MAX)
            items[k++] = item;
    }
    return k;
}

/* (Depth first: a node's children nodes get consecutive indices, after
   it.) Each BVH4 node takes the place of one distinct binary node, so
   there are at most as many as those. */
uint32_t rp_bvh4_collapse(const rp_bvh2_node *nodes, uint32_t root, uint32_t depth,
                          const rp_bvh_prim *entries, uint32_t own_slots, uint32_t halves,
                          rp_bvh4_node *out)
{
    const collapser c = {nodes, entries, entries != NULL ? own_slots : 0, 4 * (int)halves};
    /* (binary node, its first half, that node's depth, its slots) to
       fill; each pop pushes at most c.slots, and the depth bound of
       RP_BVH8_STACK holds here too */
    uint32_t stack[RP_BVH8_STACK][4];
    int sp = 0;
    stack[sp][0] = root;
    stack[sp][1] = 0;
    stack[sp][2] = depth;
    stack[sp][3] = (uint32_t)c.slots;     /* the root: all its halves */
    sp++;
    uint64_t count = halves;
    while (sp > 0) {
        sp--;
        const uint32_t bin = stack[sp][0], q = stack[sp][1], d = stack[sp][2];
        const int slots = (int)stack[sp][3];
        uint32_t kids[RP_BVH8_SLOTS];
        const int k = q > 0 && halves == 2 ? take_gathered(&out[q], kids) : gather(&c, bin, kids);
        /* pushed in reverse, so the first child's subtree comes next */
        for (int i = slots - 1; i >= 0; i--) {
            if (i >= k) {
                slot_empty(&out[q], i);
                continue;
            }
            if (kids[i] & ITEM_ENTRY) {
                uint32_t j = kids[i] & ~ITEM_ENTRY;
                slot_set_entry(&out[q], i, &entries[j], j);
                continue;
            }
            const rp_bvh2_node *n = &nodes[kids[i]];
            if (n->count == RP_BVH2_COLLAPSED) {
                /* a subtree collapsed on its own: its root has all halves */
                slot_set(&out[q], i, n, halves == 2 ? rp_bvh8_ref(n->first, true) : n->first, 0);
                continue;
            }
            /* a leaf stays one slot when it has one primitive, or too
               deep a node of its own would be (then it is tested whole) */
            const bool own = opened_slots(&c, kids[i]) > 0;
            if (n->count > 0 && (!own || d + 1 >= RP_BVH_MAX_DEPTH)) {
                slot_set(&out[q], i, n, n->first, n->count);
                continue;
            }
            if (d + 1 >= RP_BVH_MAX_DEPTH)
                return 0;
            /* a wide node of four or fewer children takes one half; its
               items wait in that half until it is filled */
            uint32_t grand[RP_BVH8_SLOTS];
            const int gk = halves == 2 ? gather(&c, kids[i], grand) : 0;
            const uint32_t its = halves == 2 && gk <= 4 ? 1 : halves;
            if (count + its > RP_BVH8_MAX_HALF)
                return 0;
            if (halves == 2)
                keep_gathered(&out[count], grand, gk);
            const uint32_t child = (uint32_t)count;
            slot_set(&out[q], i, n, halves == 2 ? rp_bvh8_ref(child, its == 2) : child, 0);
            stack[sp][0] = kids[i];
            stack[sp][1] = (uint32_t)count;
            stack[sp][2] = d + 1;
            stack[sp][3] = 4 * its;
            sp++;
            count += its;
        }
    }
    return (uint32_t)count;
}

/* ---- refit and cost ------------------------------------------------------ */

/* The box around the (up to) four children of a half: empty slots hold
   inverted boxes, which a min/max leaves out. */
static void half_box(const rp_bvh4_node *n, float lo[3], float hi[3])
{
    for (int a = 0; a < 3; a++) {
        const float *mn = n->b[a], *mx = n->b[3 + a];
        float l = mn[0] < mn[1] ? mn[0] : mn[1], l2 = mn[2] < mn[3] ? mn[2] : mn[3];
        float h = mx[0] > mx[1] ? mx[0] : mx[1], h2 = mx[2] > mx[3] ? mx[2] : mx[3];
        lo[a] = l < l2 ? l : l2;
        hi[a] = h > h2 ? h : h2;
    }
}

/* The box around a node: its halves' boxes. */
static void node_box(const rp_bvh4_node *n, uint32_t halves, float lo[3], float hi[3])
{
    half_box(n, lo, hi);
    for (uint32_t h = 1; h < halves; h++) {
        float l[3], u[3];
        half_box(&n[h], l, u);
        for (int a = 0; a < 3; a++) {
            lo[a] = l[a] < lo[a] ? l[a] : lo[a];
            hi[a] = u[a] > hi[a] ? u[a] : hi[a];
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
double rp_bvh4_cost_of(const rp_bvh4_node *nodes, uint32_t halves, double weighted)
{
    float lo[3], hi[3];
    node_box(&nodes[0], halves, lo, hi);
    double root = rp_bvh4_half_area(lo, hi);
    if (!(root > 0.0) || !isfinite(root))
        return 0.0;     /* a flat or point-like tree: no area to compare */
    return weighted / root;
}

#if !RP_SIMD_SSE2     /* the plain C twins of bvh_refit.h's SSE2 refit */
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

/* rp_bvh_refit_node_simd: half n's boxes from its children's; returns its
   weighted area. */
static double refit_node_plain(rp_bvh4_node *nodes, uint32_t halves, rp_bvh4_node *n,
                               const uint32_t *prims, const rp_bvh_box *boxes)
{
    for (int i = 0; i < 4; i++) {
        if (n->child[i] == RP_BVH4_EMPTY)
            continue;
        float lo[3], hi[3];
        if (n->count[i] > 0)
            leaf_box(prims, n->child[i], n->count[i], boxes, lo, hi);
        else
            node_box(&nodes[rp_bvh4_child_first(n->child[i], halves)],
                     rp_bvh4_child_halves(n->child[i], halves), lo, hi);
        for (int a = 0; a < 3; a++) {
            n->b[a][i] = lo[a];
            n->b[3 + a][i] = hi[a];
        }
    }
    return node_weighted_area(n);
}
#endif

double rp_bvh_refit_base(rp_bvh4_node *nodes, uint32_t halves, uint32_t from, uint32_t to,
                         const uint32_t *prims, const rp_bvh_box *boxes)
{
#if RP_SIMD_SSE2
    return rp_bvh_refit_loop(nodes, halves, from, to, prims, boxes, rp_bvh_refit_node_simd);
#else
    return rp_bvh_refit_loop(nodes, halves, from, to, prims, boxes, refit_node_plain);
#endif
}

double rp_bvh4_refit(rp_bvh4_node *nodes, uint32_t count, uint32_t halves, const uint32_t *prims,
                     const rp_bvh_box *boxes)
{
    if (count == 0)
        return 0.0;
    return rp_bvh4_cost_of(nodes, halves, rp_simd_bvh_refit()(nodes, halves, 0, count, prims, boxes));
}

/* A tree as the builder lays it out: the top's nodes [0, top), then
   whole subtrees, each from its root to the next one's (or the end). The
   parts are those subtrees; two threads take them one at a time, the
   largest first, so the one that starts first (the caller's, which also
   has in cache the boxes the sets just wrote) does more of them. */
#define REFIT_PARTS_MAX 128

typedef struct refit_parts {
    rp_bvh_refit_fn   refit;                    /* the kernel (simd.c)            */
    rp_bvh4_node     *nodes;
    uint32_t          halves, parts;
    const uint32_t   *prims;
    const rp_bvh_box *boxes;
    uint32_t          at[REFIT_PARTS_MAX + 1];  /* part i: halves [at[i], at[i + 1]) */
    uint32_t          order[REFIT_PARTS_MAX];   /* the parts, largest first       */
    double            weighted[REFIT_PARTS_MAX];
    rp_ticket         ticket;
} refit_parts;

/* Halves in part i. */
static inline uint32_t part_size(const refit_parts *p, uint32_t i)
{
    return p->at[i + 1] - p->at[i];
}

/* Finds the parts of a tree of `count` halves whose top is [0, top):
   false when it is not laid out so (too many subtrees, the first not right
   after the top, or halves under none). */
static bool find_parts(const rp_bvh4_node *nodes, uint32_t count, uint32_t halves, uint32_t top,
                       refit_parts *p)
{
    uint32_t n = 0;
    for (uint32_t q = 0; q < top; q++) {
        for (int i = 0; i < 4; i++) {
            const uint32_t c = nodes[q].child[i];
            if (c == RP_BVH4_EMPTY || nodes[q].count[i] > 0)
                continue;   /* nothing, or a leaf */
            const uint32_t root = rp_bvh4_child_first(c, halves);
            if (root < top)
                continue;   /* a node of the top */
            if (n == REFIT_PARTS_MAX)
                return false;
            uint32_t k = n++;   /* insertion: the roots in order */
            for (; k > 0 && p->at[k - 1] > root; k--)
                p->at[k] = p->at[k - 1];
            p->at[k] = root;
        }
    }
    p->at[n] = count;
    if (n == 0 ? top != count : p->at[0] != top)
        return false;
    for (uint32_t i = 0; i < n; i++) {
        if (p->at[i] >= p->at[i + 1])
            return false;   /* two slots of one node, or past the end */
        uint32_t k = i;     /* insertion: the largest part first */
        for (; k > 0 && part_size(p, p->order[k - 1]) < part_size(p, i); k--)
            p->order[k] = p->order[k - 1];
        p->order[k] = i;
    }
    p->parts = n;
    return true;
}

/* Refits parts, the largest first, until none is left (both threads). */
static void refit_parts_run(void *arg)
{
    refit_parts *p = arg;
    for (long k; (k = rp_ticket_take(&p->ticket)) < (long)p->parts;) {
        const uint32_t i = p->order[k];
        p->weighted[i] = p->refit(p->nodes, p->halves, p->at[i], p->at[i + 1], p->prims,
                                  p->boxes);
    }
}

double rp_bvh4_refit_split(rp_bvh4_node *nodes, uint32_t count, uint32_t halves, uint32_t top,
                           const uint32_t *prims, const rp_bvh_box *boxes, bool threaded)
{
    if (count == 0)
        return 0.0;
    refit_parts p = {.refit = rp_simd_bvh_refit(), .nodes = nodes, .halves = halves,
                     .prims = prims, .boxes = boxes};
    if (top > count || !find_parts(nodes, count, halves, top, &p))
        return rp_bvh4_refit(nodes, count, halves, prims, boxes);
    rp_thread_run_pair(refit_parts_run, &p, refit_parts_run, &p, threaded && p.parts > 1);
    double weighted = 0.0;
    for (uint32_t i = 0; i < p.parts; i++)  /* in one order, whoever refitted them */
        weighted += p.weighted[i];
    weighted += p.refit(nodes, halves, 0, top, prims, boxes);
    return rp_bvh4_cost_of(nodes, halves, weighted);
}

double rp_bvh4_weighted_area(const rp_bvh4_node *nodes, uint32_t from, uint32_t to)
{
    double weighted = 0.0;
    for (uint32_t q = from; q < to; q++)
        weighted += node_weighted_area(&nodes[q]);
    return weighted;
}

double rp_bvh4_cost(const rp_bvh4_node *nodes, uint32_t count, uint32_t halves)
{
    if (count == 0)
        return 0.0;
    return rp_bvh4_cost_of(nodes, halves, rp_bvh4_weighted_area(nodes, 0, count));
}

bool rp_bvh4_bounds(const rp_bvh4_node *nodes, uint32_t count, uint32_t halves, rp_bvh_box *out)
{
    if (count == 0)
        return false;
    node_box(&nodes[0], halves, out->min, out->max);
    return true;
}

void rp_bvh4_masks_compute(const rp_bvh4_node *nodes, uint32_t count, uint32_t halves,
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
                const uint32_t first = rp_bvh4_child_first(n->child[i], halves);
                for (uint32_t h = 0; h < rp_bvh4_child_halves(n->child[i], halves); h++) {
                    const rp_bvh4_masks *c = &out[first + h];
                    m |= c->slot[0] | c->slot[1] | c->slot[2] | c->slot[3];
                }
            }
            out[q].slot[i] = m;
        }
    }
}

/* The ranges of halves [from, to), whose child nodes' ranges are ready:
   each half's own (rp_bvh4_child_range joins a node's two). */
static void ranges_range(const rp_bvh4_node *nodes, uint32_t halves, uint32_t from, uint32_t to,
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
            const rp_bvh4_range r =
                k > 0 ? (rp_bvh4_range){c, c + k} : rp_bvh4_child_range(out, c, halves);
            whole = whole && r.end > r.first;
            first = r.first < first ? r.first : first;
            end = r.end > end ? r.end : end;
            entries += r.end - r.first;
        }
        /* contiguous: the children's entries fill [first, end) exactly;
           a half with no children (a root's second) says so */
        const bool ok = whole && end > first && entries == end - first;
        const bool none = first == UINT32_MAX;
        out[q].first = ok ? first : none ? RP_BVH4_EMPTY : 0;
        out[q].end = ok ? end : none ? RP_BVH4_EMPTY : 0;
    }
}

typedef struct ranges_job {
    const rp_bvh4_node *nodes;
    uint32_t            halves, from, to;
    rp_bvh4_range      *out;
} ranges_job;

static void ranges_job_run(void *arg)
{
    ranges_job *j = arg;
    ranges_range(j->nodes, j->halves, j->from, j->to, j->out);
}

void rp_bvh4_ranges(const rp_bvh4_node *nodes, uint32_t count, uint32_t halves, uint32_t top,
                    uint32_t half, bool threaded, rp_bvh4_range *out)
{
    if (!(top <= half && half <= count)) {
        ranges_range(nodes, halves, 0, count, out);
        return;
    }
    ranges_job jobs[2] = {{nodes, halves, top, half, out}, {nodes, halves, half, count, out}};
    rp_thread_run_pair(ranges_job_run, &jobs[0], ranges_job_run, &jobs[1],
                       threaded && half > top && count > half);
    ranges_range(nodes, halves, 0, top, out);
}

/* ---- the baseline walk (bvh_walk.h) ---- */

/* rp_bvh4_enter on each half of the node. */
static RP_INLINE_ALWAYS int enter_halves(const rp_bvh4_node *n, uint32_t halves, const void *ray,
                                         float t_max, float t_enter[RP_BVH8_SLOTS])
{
    int mask = 0;
    for (uint32_t h = 0; h < halves; h++)
        mask |= rp_bvh4_enter(&n[h], ray, t_max, t_enter + 4 * h) << (4 * h);
    return mask;
}

void rp_bvh_walk_base(const rp_bvh_walk *w)
{
    /* a copy the leaf callback cannot change: it stays in registers */
    const rp_bvh4_ray ray = *w->ray;
    rp_bvh_walk_loop(w, &ray, enter_halves);
}

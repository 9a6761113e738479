/* mesh_bvh.c: the mesh BVH (mesh_bvh.h). The shared builder (bvh_build.c)
   makes the four-wide tree over the triangles' boxes; it is widened here
   to the eight-child nodes the queries walk, and the triangles copied in
   leaf order into packets of four. The depth bound of every walk's fixed
   stack is the builder's (bvh.h: RP_BVH_MAX_DEPTH); tests/test_mesh.c
   checks it on degenerate inputs (a million identical triangles, all
   coplanar, all on one line of centroids). */
#include <stdlib.h>
#include <string.h>

#include "bvh4.h"
#include "internal.h"
#include "mesh_bvh.h"
#include "simd.h"
#include "thread_internal.h"

/* ---- the wide nodes -------------------------------------------------------- */

/* A child slot of the BVH4: node `node`, lane `lane`. */
typedef struct slot_ref {
    uint32_t node;
    int      lane;
} slot_ref;

static double slot_area(const rp_bvh4_node *q, int i)
{
    const float lo[3] = {q->b[0][i], q->b[1][i], q->b[2][i]};
    const float hi[3] = {q->b[3][i], q->b[4][i], q->b[5][i]};
    return rp_bvh4_half_area(lo, hi);
}

static int used_slots(const rp_bvh4_node *q, slot_ref out[4], uint32_t node)
{
    int k = 0;
    for (int i = 0; i < 4; i++)
        if (q->child[i] != RP_BVH4_EMPTY) {
            out[k].node = node;
            out[k++].lane = i;
        }
    return k;
}

/* Up to RP_BVH8_SLOTS BVH4 slots that together hold the subtree of BVH4
   node `root`: its children, then, while there is room, the inner one of
   largest area replaced by its own (gather's rule, one level up). */
static int gather_wide(const rp_bvh4_node *in, uint32_t root, slot_ref out[RP_BVH8_SLOTS])
{
    int k = used_slots(&in[root], out, root);
    for (;;) {
        int open = -1;
        double best = -1.0;
        slot_ref kids[4];
        for (int i = 0; i < k; i++) {
            const rp_bvh4_node *q = &in[out[i].node];
            if (q->count[out[i].lane] != 0)
                continue;
            uint32_t child = q->child[out[i].lane];
            double area = slot_area(q, out[i].lane);
            if (area > best && k - 1 + used_slots(&in[child], kids, child) <= RP_BVH8_SLOTS) {
                best = area;
                open = i;
            }
        }
        if (open < 0)
            return k;
        uint32_t child = in[out[open].node].child[out[open].lane];
        int n = used_slots(&in[child], kids, child);
        out[open] = kids[0];
        for (int j = 1; j < n; j++)
            out[k++] = kids[j];
    }
}

static void wide_slot_set(rp_bvh4_node *w, int s, const rp_bvh4_node *q, int lane,
                          uint32_t child, uint32_t count)
{
    rp_bvh4_node *h = &w[s / 4];
    for (int a = 0; a < 6; a++)
        h->b[a][s % 4] = q->b[a][lane];
    h->child[s % 4] = child;
    h->count[s % 4] = count;
}

static void wide_slot_empty(rp_bvh4_node *w, int s)
{
    rp_bvh4_node *h = &w[s / 4];
    for (int a = 0; a < 3; a++) {
        h->b[a][s % 4] = INFINITY;
        h->b[3 + a][s % 4] = -INFINITY;
    }
    h->child[s % 4] = RP_BVH4_EMPTY;
    h->count[s % 4] = 0;
}

/* How many halves a wide node of k children takes: a node of four or
   fewer has no second half (half the nodes near the leaves, where the
   cache misses are). The root always has two. */
static uint32_t halves_for(int k)
{
    return k > 4 ? 2u : 1u;
}

/* The BVH4 (node 0 the root) as wide nodes (mesh_bvh.h), depth
   first; *count_out: halves used. Leaves keep their child and count.
   NULL on out of memory or when the halves would not fit the
   references' 31 bits. */
static rp_bvh4_node *widen(const rp_bvh4_node *in, uint32_t count_in, uint32_t *count_out)
{
    /* each wide node replaces at least one BVH4 node: at most count_in */
    rp_bvh4_node *out = rp_alloc_large(((size_t)count_in + 1) * 2 * sizeof *out);
    if (!out)
        return NULL;
    uint64_t used = 2;
    /* (BVH4 node, first half) pairs to fill; the depth bound of
       RP_BVH8_STACK holds here too */
    uint32_t stack[RP_BVH8_STACK][2];
    int sp = 0;
    stack[sp][0] = 0;
    stack[sp][1] = 0;
    sp++;
    while (sp > 0) {
        sp--;
        uint32_t q = stack[sp][0];
        rp_bvh4_node *w = &out[stack[sp][1]];
        slot_ref kids[RP_BVH8_SLOTS];
        int k = gather_wide(in, q, kids);
        int slots = stack[sp][1] == 0 || k > 4 ? RP_BVH8_SLOTS : 4;
        /* pushed in reverse, so the first child's subtree comes next */
        for (int s = slots - 1; s >= 0; s--) {
            if (s >= k) {
                wide_slot_empty(w, s);
                continue;
            }
            const rp_bvh4_node *src = &in[kids[s].node];
            const int lane = kids[s].lane;
            if (src->count[lane] > 0) {
                wide_slot_set(w, s, src, lane, src->child[lane], src->count[lane]);
                continue;
            }
            slot_ref grand[RP_BVH8_SLOTS];
            uint32_t halves = halves_for(gather_wide(in, src->child[lane], grand));
            if (used + halves > RP_BVH8_MAX_HALF) {
                rp_free_large(out);
                return NULL;
            }
            wide_slot_set(w, s, src, lane, rp_bvh8_ref((uint32_t)used, halves == 2), 0);
            stack[sp][0] = src->child[lane];
            stack[sp][1] = (uint32_t)used;
            sp++;
            used += halves;
        }
    }
    *count_out = (uint32_t)used;
    return out;
}

/* ---- the triangle packets ------------------------------------------------ */

/* Where a leaf of `count` triangles goes when the next free slot is
   `next`: there, unless starting there makes it touch one packet more
   than its count needs; then at the start of the next packet. */
static uint64_t leaf_slot(uint64_t next, uint32_t count)
{
    const uint64_t lanes = RP_TRI4_LANES;
    uint64_t lane = next % lanes;
    uint64_t needed = (count + lanes - 1) / lanes;
    if ((lane + count + lanes - 1) / lanes > needed)
        return next - lane + lanes;
    return next;
}

/* The slots every leaf of the BVH4 takes, leaves in node order (depth
   first: neighbours in space are neighbours in memory): the number of
   packets they fill. */
static uint64_t count_packets(const rp_bvh4_node *nodes, uint32_t node_count)
{
    uint64_t next = 0;
    for (uint32_t i = 0; i < node_count; i++)
        for (int c = 0; c < 4; c++)
            if (nodes[i].child[c] != RP_BVH4_EMPTY && nodes[i].count[c] > 0)
                next = leaf_slot(next, nodes[i].count[c]) + nodes[i].count[c];
    return (next + RP_TRI4_LANES - 1) / RP_TRI4_LANES;
}

static void slot_copy(rp_tri4 *packs, uint64_t to, uint64_t from)
{
    rp_tri4 *p = &packs[to / RP_TRI4_LANES];
    const rp_tri4 *q = &packs[from / RP_TRI4_LANES];
    int lane = (int)(to % RP_TRI4_LANES), from_lane = (int)(from % RP_TRI4_LANES);
    for (int k = 0; k < 9; k++)
        p->v[k][lane] = q->v[k][from_lane];
    p->index[lane] = q->index[from_lane];
}

/* Copies the triangles of the leaves of nodes [first, end) into the
   packets from slot `next` on (`order`: the builder's leaf order, a leaf
   slot's child its first position there) and points each leaf at its
   first slot. A skipped slot repeats the slot before it (finite floats;
   no leaf reads it), which the same call wrote when its first leaf
   skips none (see fill_packets). */
typedef struct pack_job {
    rp_bvh4_node        *nodes;
    uint32_t             first, end;
    uint64_t             next;      /* in: the first slot; out: after the last */
    const rp_tri_source *tris;
    const uint32_t      *order;
    uint32_t             order_count;
    rp_tri4             *packs;
} pack_job;

/* The leaves' triangles are read in leaf order, scattered over the
   caller's arrays: a triangle's corner indices are asked for this many
   positions ahead, and its vertices (once those indices are in) half as
   many, so the misses overlap instead of coming one by one. */
#define PACK_PREFETCH 24

static void prefetch_corners(const rp_tri_source *s, const uint32_t *order, uint32_t at)
{
    uint32_t t = rp_tri_source_triangle(s, order[at]);
    if (s->indices)
        RP_PREFETCH(s->indices + 3 * (size_t)t);
    else
        RP_PREFETCH(s->positions + 3 * (size_t)t * s->stride);
}

static void prefetch_vertices(const rp_tri_source *s, const uint32_t *order, uint32_t at)
{
    const float *c[3];
    rp_tri_source_corners(s, rp_tri_source_triangle(s, order[at]), c);
    for (int k = 0; k < 3; k++)
        RP_PREFETCH(c[k]);
}

static void pack_job_run(void *arg)
{
    pack_job *j = arg;
    uint64_t next = j->next;
    for (uint32_t i = j->first; i < j->end; i++)
        for (int c = 0; c < 4; c++) {
            rp_bvh4_node *n = &j->nodes[i];
            if (n->child[c] == RP_BVH4_EMPTY || n->count[c] == 0)
                continue;
            /* the next leaves' triangles follow this one's in order[]
               (leaves in node order are consecutive there, except
               across subtrees) */
            for (uint32_t k = 0; k < n->count[c]; k++) {
                uint32_t ahead = n->child[c] + k;
                if (ahead + PACK_PREFETCH < j->order_count)
                    prefetch_corners(j->tris, j->order, ahead + PACK_PREFETCH);
                if (ahead + PACK_PREFETCH / 2 < j->order_count)
                    prefetch_vertices(j->tris, j->order, ahead + PACK_PREFETCH / 2);
            }
            uint64_t at = leaf_slot(next, n->count[c]);
            for (; next < at; next++)
                slot_copy(j->packs, next, next - 1);
            for (uint32_t k = 0; k < n->count[c]; k++, next++) {
                uint32_t t = rp_tri_source_triangle(j->tris, j->order[n->child[c] + k]);
                const float *corner[3];
                rp_tri_source_corners(j->tris, t, corner);
                rp_tri4 *p = &j->packs[next / RP_TRI4_LANES];
                int lane = (int)(next % RP_TRI4_LANES);
                for (int v = 0; v < 9; v++)
                    p->v[v][lane] = corner[v / 3][v % 3];
                p->index[lane] = t;
            }
            n->child[c] = (uint32_t)at;
        }
    j->next = next;
}

/* The first node from `from` on whose first leaf skips no slot when the
   leaves before it end at *next (updated to where that node's leaves
   start); node_count when there is none. */
static uint32_t clean_start(const rp_bvh4_node *nodes, uint32_t from, uint32_t node_count,
                            uint64_t *next)
{
    for (uint32_t i = from; i < node_count; i++) {
        bool first = true;
        for (int c = 0; c < 4; c++) {
            const rp_bvh4_node *n = &nodes[i];
            if (n->child[c] == RP_BVH4_EMPTY || n->count[c] == 0)
                continue;
            uint64_t at = leaf_slot(*next, n->count[c]);
            if (first && at == *next)
                return i;
            first = false;
            *next = at + n->count[c];
        }
    }
    return node_count;
}

/* The packets of every leaf, in node order: two halves of the nodes on
   two threads when `threaded` (split where the second half's first leaf
   skips no slot, so neither half reads what the other writes); the
   slots after the last leaf repeat the slot before them. */
static void fill_packets(rp_bvh4_node *nodes, uint32_t node_count, const rp_tri_source *tris,
                         const uint32_t *order, uint32_t order_count, rp_tri4 *packs, uint32_t pack_count,
                         bool threaded)
{
    uint64_t next = 0;
    for (uint32_t i = 0; i < node_count / 2; i++)
        for (int c = 0; c < 4; c++)
            if (nodes[i].child[c] != RP_BVH4_EMPTY && nodes[i].count[c] > 0)
                next = leaf_slot(next, nodes[i].count[c]) + nodes[i].count[c];
    uint32_t mid = clean_start(nodes, node_count / 2, node_count, &next);
    pack_job jobs[2] = {{nodes, 0, mid, 0, tris, order, order_count, packs},
                        {nodes, mid, node_count, next, tris, order, order_count, packs}};
    rp_thread_run_pair(pack_job_run, &jobs[0], pack_job_run, &jobs[1], threaded);
    uint64_t end = mid < node_count ? jobs[1].next : jobs[0].next;
    for (; end < (uint64_t)pack_count * RP_TRI4_LANES; end++)
        slot_copy(packs, end, end - 1);
}

bool rp_mesh_bvh_build(const rp_tri_source *tris, uint32_t prim_count, rp_mesh_bvh *out)
{
    memset(out, 0, sizeof *out);
    if (prim_count == 0)    /* only degenerate triangles: nothing to hit */
        return true;
    rp_bvh bvh;
    memset(&bvh, 0, sizeof bvh);
    const rp_bvh_shape shape = {RP_MESH_MAX_LEAF, RP_MESH_NODE_COST, 0, false, 0, 1};
    bool ok = rp_bvh_build_triangles(tris, prim_count, &shape, &bvh);
    uint32_t halves = 0;
    rp_bvh4_node *nodes8 = ok ? widen(bvh.nodes, bvh.node_count, &halves) : NULL;
    /* the packets need only the wide nodes and the leaf order: the
       four-wide tree goes before they take their room */
    rp_free_large(bvh.nodes);
    bvh.nodes = NULL;
    rp_tri4 *packs = NULL;
    uint64_t pack_count = nodes8 ? count_packets(nodes8, halves) : 0;
    /* every slot index fits below RP_BVH4_EMPTY (padding at most doubles
       the slots: it takes a packet only when the next leaf does not fit) */
    if (nodes8 && pack_count <= (UINT32_MAX - 1) / RP_TRI4_LANES)
        packs = rp_alloc_large((size_t)pack_count * sizeof *packs);
    if (packs)
        fill_packets(nodes8, halves, tris, bvh.prims, bvh.prim_count, packs, (uint32_t)pack_count,
                     rp_cpu_count() > 1);
    rp_bvh_free(&bvh);
    if (!packs) {
        rp_free_large(nodes8);
        return false;
    }
    out->prim_count = prim_count;
    out->nodes = nodes8;
    out->node_count = halves;
    out->packs = packs;
    out->pack_count = (uint32_t)pack_count;
    return true;
}

void rp_mesh_bvh_free(rp_mesh_bvh *bvh)
{
    rp_free_large(bvh->nodes);
    rp_free_large(bvh->packs);
    memset(bvh, 0, sizeof *bvh);
}

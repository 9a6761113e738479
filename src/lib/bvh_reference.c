/* bvh_reference.c: the reference BVH (bvh_reference.h). Build: each node
   bins its primitives' centroids on each axis and splits at the plane of
   least SAH cost, or stays a leaf when no split is cheaper. Query: depth
   first, the nearer child first, skipping boxes entered beyond the best
   hit so far. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bvh_reference.h"

#define BINS 8

_Static_assert(sizeof(rp_ref_node) == 32, "a node is 32 bytes: two to a cache line");

static const rp_aabb empty = {{INFINITY, INFINITY, INFINITY}, {-INFINITY, -INFINITY, -INFINITY}};

static void grow(rp_aabb *box, const float mn[3], const float mx[3])
{
    for (int a = 0; a < 3; a++) {
        box->min[a] = fminf(box->min[a], mn[a]);
        box->max[a] = fmaxf(box->max[a], mx[a]);
    }
}

/* Half the surface area: how the SAH weighs a box (the chance that a
   random ray meets it, up to a constant). */
static double half_area(const float mn[3], const float mx[3])
{
    double dx = (double)mx[0] - mn[0], dy = (double)mx[1] - mn[1], dz = (double)mx[2] - mn[2];
    return dx * dy + dy * dz + dz * dx;
}

static float centroid(const rp_aabb *b, int axis)
{
    return 0.5f * (b->min[axis] + b->max[axis]);
}

/* The bin of b's centroid along `axis`, for centroids from lo on. */
static int bin_of(const rp_aabb *b, int axis, float lo, float scale)
{
    int k = (int)((centroid(b, axis) - lo) * scale);
    return k < 0 ? 0 : (k >= BINS ? BINS - 1 : k);
}

/* Node n's box: the box around its primitives' boxes. */
static void fit(const rp_aabb *boxes, const rp_ref_bvh *bvh, rp_ref_node *n)
{
    rp_aabb box = empty;
    for (uint32_t i = n->left_first; i < n->left_first + n->count; i++)
        grow(&box, boxes[bvh->prims[i]].min, boxes[bvh->prims[i]].max);
    memcpy(n->min, box.min, sizeof n->min);
    memcpy(n->max, box.max, sizeof n->max);
}

/* Splits leaf `index` where the SAH says it pays, then its children. The
   candidate planes are the edges of BINS equal bins of the centroids'
   extent on each axis; each is weighed by one pass over the primitives
   (bvh_build.c bins them once instead: the same planes, found faster). */
static void subdivide(const rp_aabb *boxes, rp_ref_bvh *bvh, uint32_t index)
{
    rp_ref_node *n = &bvh->nodes[index];
    const uint32_t first = n->left_first, count = n->count;
    /* a split costs one box test (area 1 x) and its sides' primitives,
       each weighted by its side's area; a leaf costs all its primitives */
    double best_cost = half_area(n->min, n->max) * (count - 1.0);
    int best_axis = -1, best_plane = 0;
    float lo[3], scale[3];
    for (int axis = 0; axis < 3; axis++) {
        float hi = -INFINITY;
        lo[axis] = INFINITY;
        for (uint32_t i = first; i < first + count; i++) {
            lo[axis] = fminf(lo[axis], centroid(&boxes[bvh->prims[i]], axis));
            hi = fmaxf(hi, centroid(&boxes[bvh->prims[i]], axis));
        }
        if (!(hi > lo[axis]))
            continue;       /* every centroid in one plane: no cut on this axis */
        scale[axis] = BINS / (hi - lo[axis]);
        for (int plane = 1; plane < BINS; plane++) {    /* bins [0, plane) go left */
            rp_aabb left = empty, right = empty;
            uint32_t on_left = 0;
            for (uint32_t i = first; i < first + count; i++) {
                const rp_aabb *b = &boxes[bvh->prims[i]];
                bool is_left = bin_of(b, axis, lo[axis], scale[axis]) < plane;
                grow(is_left ? &left : &right, b->min, b->max);
                on_left += is_left;
            }
            double cost = half_area(left.min, left.max) * on_left +
                          half_area(right.min, right.max) * (count - on_left);
            if (on_left > 0 && on_left < count && cost < best_cost) {
                best_cost = cost;
                best_axis = axis;
                best_plane = plane;
            }
        }
    }
    if (best_axis < 0)
        return;             /* no split is cheaper than the leaf */
    uint32_t l = first, r = first + count;
    while (l < r) {         /* the left bins' primitives to the front */
        if (bin_of(&boxes[bvh->prims[l]], best_axis, lo[best_axis], scale[best_axis]) <
            best_plane) {
            l++;
        } else {
            uint32_t swap = bvh->prims[l];
            bvh->prims[l] = bvh->prims[--r];
            bvh->prims[r] = swap;
        }
    }
    const uint32_t child = bvh->node_count;
    bvh->node_count += 2;
    rp_ref_node *kids = &bvh->nodes[child];
    kids[0].left_first = first;
    kids[0].count = l - first;
    kids[1].left_first = l;
    kids[1].count = first + count - l;
    fit(boxes, bvh, &kids[0]);
    fit(boxes, bvh, &kids[1]);
    n->left_first = child;
    n->count = 0;
    subdivide(boxes, bvh, child);
    subdivide(boxes, bvh, child + 1);
}

bool rp_ref_bvh_build(const rp_aabb *boxes, uint32_t count, rp_ref_bvh *out)
{
    memset(out, 0, sizeof *out);
    if (count == 0)
        return false;
    /* n leaves make a binary tree of 2 n - 1 nodes at most */
    out->nodes = malloc((2 * (size_t)count - 1) * sizeof *out->nodes);
    out->prims = malloc(count * sizeof *out->prims);
    if (out->nodes == NULL || out->prims == NULL) {
        rp_ref_bvh_free(out);
        return false;
    }
    for (uint32_t i = 0; i < count; i++)
        out->prims[i] = i;
    out->prim_count = count;
    out->node_count = 1;
    out->nodes[0].left_first = 0;
    out->nodes[0].count = count;
    fit(boxes, out, &out->nodes[0]);
    subdivide(boxes, out, 0);
    return true;
}

void rp_ref_bvh_free(rp_ref_bvh *bvh)
{
    free(bvh->nodes);
    free(bvh->prims);
    memset(bvh, 0, sizeof *bvh);
}

typedef struct query {
    const rp_ref_bvh *bvh;
    const rp_ray     *ray;
    rp_ref_hit_fn     hit;
    void             *user;
    bool              found;
    uint32_t          prim;
    float             t;
} query;

/* Where the ray enters node n's box widened by a millionth of the
   coordinates (far more than the rounding of this test or of a
   primitive's own); NaN when it misses. In double, dividing: a zero dir
   component gives infinities of the right signs. */
static float enter(const query *q, const rp_ref_node *n)
{
    double t0 = 0.0, t1 = INFINITY;
    for (int a = 0; a < 3; a++) {
        double o = q->ray->origin[a], d = q->ray->dir[a];
        double pad = 1e-6 * (fabs(o) + fmax(fabs(n->min[a]), fabs(n->max[a]))) + 1e-30;
        double lo = (n->min[a] - pad - o) / d, hi = (n->max[a] + pad - o) / d;
        t0 = fmax(t0, fmin(lo, hi));
        t1 = fmin(t1, fmax(lo, hi));
    }
    return t0 <= t1 ? (float)t0 : NAN;
}

static void visit(query *q, uint32_t index)
{
    const rp_ref_node *n = &q->bvh->nodes[index];
    if (n->count > 0) {
        for (uint32_t i = n->left_first; i < n->left_first + n->count; i++) {
            uint32_t prim = q->bvh->prims[i];
            float t;
            if (!q->hit(q->user, prim, q->ray, &t) || t > q->t)
                continue;
            if (q->found && t == q->t && prim > q->prim)
                continue;   /* equal t: the lower index wins */
            q->found = true;
            q->prim = prim;
            q->t = t;
        }
        return;
    }
    const uint32_t kid[2] = {n->left_first, n->left_first + 1};
    const float t[2] = {enter(q, &q->bvh->nodes[kid[0]]), enter(q, &q->bvh->nodes[kid[1]])};
    const int near = t[1] < t[0] || isnan(t[0]);
    /* a box entered exactly at the best t may still hold a tie; a missed
       one (NaN) compares false */
    for (int k = near, i = 0; i < 2; k = 1 - k, i++)
        if (t[k] <= q->t)
            visit(q, kid[k]);
}

bool rp_ref_bvh_intersect(const rp_ref_bvh *bvh, const rp_ray *ray, rp_ref_hit_fn hit,
                          void *user, uint32_t *prim, float *t)
{
    query q = {bvh, ray, hit, user, false, 0, INFINITY};
    if (bvh->node_count > 0 && !isnan(enter(&q, &bvh->nodes[0])))
        visit(&q, 0);
    if (q.found) {
        *prim = q.prim;
        *t = q.t;
    }
    return q.found;
}

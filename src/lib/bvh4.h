/*
 * bvh4.h: the four-wide BVH that the mesh and the scene walk; not
 * installed. bvh4.c collapses the builder's binary tree (bvh.h) into nodes
 * of up to four children, refits it when objects move, and measures its
 * SAH cost. The ray's slab test of a node's four boxes at once and the
 * nearest-first order of the children it enters are here, inline, for
 * the walks (mesh.c, scene.c).
 */
#ifndef RAYPICK_BVH4_H
#define RAYPICK_BVH4_H

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>     /* _BitScanForward */
#endif

#include "raypick/ray.h"
#include "bvh.h"
#include "internal.h"   /* RP_OPAQUE */
#include "simd.h"

/* A node of up to four children (128 bytes), boxes stored one lane per
   child so one SSE2 slab test checks all four (Embree's BVH4 layout).
   b[0..2] are the children's min x, y, z, b[3..5] their max x, y, z. A
   child slot is a node when count[i] == 0 (child[i] = its index), a leaf
   of count[i] primitives from child[i] (in the builder's prims order)
   when count[i] > 0, and empty when child[i] == RP_BVH4_EMPTY (UINT32_MAX,
   all bits set: compared four at a time); its box is then inverted (min
   +inf, max -inf), but the queries skip it by the child, not the box (a
   ray whose box padding overflowed to infinity gets NaN slabs, which
   constrain nothing), except the AVX2 walk's test for rays with no NaN
   slab, which the inverted box stops (bvh_walk_avx2.c). Node 0 is the
   root; every node comes after its parent (a backwards pass meets
   children first). */
#define RP_BVH4_EMPTY UINT32_MAX
typedef struct rp_bvh4_node {
    float    b[6][4];
    uint32_t child[4];
    uint32_t count[4];
} rp_bvh4_node;

/* Each BVH4 node holds the children of a binary inner node, which is at
   depth <= RP_BVH_MAX_DEPTH - 1, or the primitives of a leaf that the
   collapse places no deeper than that, so no BVH4 node is deeper. A depth-first walk that pushes a node's hit children
   (up to four) and pops the nearest holds, at a node of depth d, at most
   three entries per ancestor level, plus its own four. */
#define RP_BVH4_STACK (3 * RP_BVH_MAX_DEPTH + 4)

/* Eight children: a node of two halves side by side (256 bytes: slot s
   is lane s % 4 of half s / 4). Each is no deeper than the BVH4 node it
   replaces, so a walk's stack holds at most seven entries per ancestor
   level plus its own eight. */
#define RP_BVH8_SLOTS 8
#define RP_BVH8_STACK ((RP_BVH8_SLOTS - 1) * RP_BVH_MAX_DEPTH + RP_BVH8_SLOTS)

/* A wide tree (halves == 2 below) is an array of rp_bvh4_node halves: a
   node of four or fewer children has only its first half (half the nodes
   near the leaves, where the cache misses are), the root and every node
   of more have two, side by side. An inner child slot refers to its node
   by 2 * (first half) + (1 when it has a second half), so a walk knows
   before loading a node how many lines it takes. With halves == 1 the
   tree is the plain BVH4: a child slot holds its node's index. Counts of
   nodes (node_count) count halves either way; node 0 is the root. */
/* Halves stay below this, so no reference is RP_BVH4_EMPTY. */
#define RP_BVH8_MAX_HALF (UINT32_MAX / 2)

static inline uint32_t rp_bvh8_ref(uint32_t first_half, bool two_halves)
{
    return 2u * first_half + (two_halves ? 1u : 0u);
}
static inline uint32_t rp_bvh8_first(uint32_t ref) { return ref >> 1; }
static inline bool rp_bvh8_two(uint32_t ref) { return (ref & 1u) != 0; }

/* The first half of the node an inner slot's child refers to, and how
   many halves it has, in a tree of `halves` (1 or 2). */
static inline uint32_t rp_bvh4_child_first(uint32_t child, uint32_t halves)
{
    return halves == 2 ? rp_bvh8_first(child) : child;
}
static inline uint32_t rp_bvh4_child_halves(uint32_t child, uint32_t halves)
{
    return halves == 2 && rp_bvh8_two(child) ? 2u : 1u;
}

/* The root's reference. */
static inline uint32_t rp_bvh4_root(uint32_t halves)
{
    return halves == 2 ? rp_bvh8_ref(0, true) : 0u;
}

/* Half the surface area of the box lo..hi, in double: no overflow for
   boxes near FLT_MAX; 0 for an empty (inverted) box. */
static inline double rp_bvh4_half_area(const float lo[3], const float hi[3])
{
    double dx = (double)hi[0] - lo[0], dy = (double)hi[1] - lo[1], dz = (double)hi[2] - lo[2];
    if (!(dx >= 0.0))
        return 0.0;
    return dx * dy + dy * dz + dz * dx;
}

/* The tree of nodes of `halves` halves (four or eight children) of the
   binary subtree under node `root` of `nodes` (bvh.h's layout), written
   at out[0 ..], depth first: out[0] holds root's children, each node's
   children come after it, and child indices count halves from out. Each
   binary inner node's subtree opens into up to 4 * halves children, the
   largest first; a node marked RP_BVH2_COLLAPSED is never opened (its
   slot points to half `first` as it is). A leaf of 2 to
   own_slots primitives gives each one a slot of its own, boxed by its
   record in entries[] (the builder's records in leaf order): in its
   parent's node when they fit there, else in a node of its own (so root
   may be such a leaf); entries NULL or own_slots < 2: every leaf is one
   slot. depth: the depth of out[0] in the whole tree, or a bound on it.
   out needs room for `halves` halves per binary node under root (root
   included). Returns the halves written; 0 when one would be deeper than
   RP_BVH_MAX_DEPTH allows (deeper than the builder ever makes), rather
   than let a later walk overrun its fixed stack. */
uint32_t rp_bvh4_collapse(const rp_bvh2_node *nodes, uint32_t root, uint32_t depth,
                          const rp_bvh_prim *entries, uint32_t own_slots, uint32_t halves,
                          rp_bvh4_node *out);

/* Recomputes every box of the tree (count nodes) from the primitives'
   current boxes, boxes[prims[j]] for leaf entry j, in one backwards pass;
   the shape stays. Returns the new SAH cost (rp_bvh4_cost). */
double rp_bvh4_refit(rp_bvh4_node *nodes, uint32_t count, uint32_t halves, const uint32_t *prims,
                     const rp_bvh_box *boxes);

/* rp_bvh4_refit of a tree laid out as the builder does: the top's nodes
   [0, top) (rp_bvh's top_count), then whole subtrees, each from its root
   (a child of the top) to the next one's or the end. The subtrees on two
   threads when `threaded`, each taking the next, largest first; then the
   top's. The same boxes as rp_bvh4_refit; the cost summed in another
   order. A tree not laid out so gets rp_bvh4_refit. */
double rp_bvh4_refit_split(rp_bvh4_node *nodes, uint32_t count, uint32_t halves, uint32_t top,
                           const uint32_t *prims, const rp_bvh_box *boxes, bool threaded);

/* SAH cost of the tree: the sum over its child slots of the slot's area
   over the root's, times the slot's primitives for a leaf (1 for a node):
   the expected work of a random ray. 0 for a tree of no area. */
double rp_bvh4_cost(const rp_bvh4_node *nodes, uint32_t count, uint32_t halves);

/* rp_bvh4_cost in parts: the weighted sum of nodes [from, to), and that
   sum (over all nodes) over the root's area. */
double rp_bvh4_weighted_area(const rp_bvh4_node *nodes, uint32_t from, uint32_t to);
double rp_bvh4_cost_of(const rp_bvh4_node *nodes, uint32_t halves, double weighted);

/* The box around the root's children; false (out untouched) for a tree
   of no nodes. */
bool rp_bvh4_bounds(const rp_bvh4_node *nodes, uint32_t count, uint32_t halves, rp_bvh_box *out);

/* Layer masks beside a tree (the scene's; kept out of rp_bvh4_node so its
   128 bytes stay two cache lines): slot[i] is the OR of the masks of the
   primitives under child slot i of the node of the same index, 0 for an
   empty slot. */
typedef struct rp_bvh4_masks {
    uint32_t slot[4];
} rp_bvh4_masks;

/* Fills out[0 .. count) from the primitives' masks in leaf order
   (leaf_masks[j] for leaf entry j), in one backwards pass as the refit. */
void rp_bvh4_masks_compute(const rp_bvh4_node *nodes, uint32_t count, uint32_t halves,
                           const uint32_t *leaf_masks, rp_bvh4_masks *out);

/* The leaf entries under a node: [first, end) of the builder's prims
   order, which partitions in place, so every subtree's entries are
   contiguous (end == first marks a node whose were not: never made by
   the builder, but a walk must not trust such a range). */
typedef struct rp_bvh4_range {
    uint32_t first, end;
} rp_bvh4_range;

/* The range of the node an inner slot's child refers to, from the
   halves' own ranges (rp_bvh4_ranges; a half without children, as a
   root's second may be, has {RP_BVH4_EMPTY, RP_BVH4_EMPTY}): a node of
   two halves joins them when they are adjacent ({0, 0} otherwise, or
   when one is). */
static inline rp_bvh4_range rp_bvh4_child_range(const rp_bvh4_range *ranges, uint32_t child,
                                                uint32_t halves)
{
    const uint32_t first = rp_bvh4_child_first(child, halves);
    rp_bvh4_range r = ranges[first];
    if (rp_bvh4_child_halves(child, halves) == 1 || ranges[first + 1].first == RP_BVH4_EMPTY)
        return r;
    const rp_bvh4_range b = ranges[first + 1];
    const bool ok = r.end > r.first && b.end > b.first && (r.end == b.first || b.end == r.first);
    r.first = ok ? (r.first < b.first ? r.first : b.first) : 0;
    r.end = ok ? (r.end > b.end ? r.end : b.end) : 0;
    return r;
}

/* Fills out[0 .. count) in one backwards pass; nodes [top, half) and
   [half, count) on two threads when `threaded`, then the top's, as
   rp_bvh4_refit_split (bounds out of that order: one pass). */
void rp_bvh4_ranges(const rp_bvh4_node *nodes, uint32_t count, uint32_t halves, uint32_t top,
                    uint32_t half, bool threaded, rp_bvh4_range *out);

/* Bit i set when child slot i's mask shares a bit with layers. */
static inline int rp_bvh4_layer_slots(const rp_bvh4_masks *m, uint32_t layers)
{
    return ((m->slot[0] & layers) != 0) | ((m->slot[1] & layers) != 0) << 1 |
           ((m->slot[2] & layers) != 0) << 2 | ((m->slot[3] & layers) != 0) << 3;
}

/* ---- the ray against a node's four boxes -------------------------------
 *
 * The test is conservative: it never rejects a box holding a primitive
 * hit that the primitive's own test would report, nor enters a box later
 * than the ray truly meets it. Three things could make a plain slab test
 * reject one:
 * 1. Rounding in the slab test itself: Ize, "Robust BVH Ray Traversal"
 *    (JCGT 2013), scales the far distance by 1 + 2 gamma(3). Here the far
 *    slabs use 1/d times that, rounded once more (inv_far): the far
 *    distance then carries four roundings of at most eps each, still less
 *    than the scale adds, and the test saves a multiply on its chain.
 * 2. A primitive test may report a hit a few ulps (of the larger of
 *    |origin| and |coordinate|) outside the primitive's true outline (the
 *    watertight triangle test decides on sheared coordinates). Every box
 *    is widened by pad = 16 eps (max |origin| + max |coordinate|), more
 *    than that error, by shifting the origin per slab (so the cost is the
 *    same as the plain test).
 * 3. A zero (or sub-1/FLT_MAX) dir component makes 1/d infinite: then
 *    (bound - origin) * inf is +-inf, the right answer, or NaN when the
 *    difference is exactly 0; the min/max below are written so a NaN
 *    leaves the interval as it was (a missing constraint can only widen
 *    it). Such a tiny component moves the ray at most |d| FLT_MAX along
 *    its axis for any t <= FLT_MAX; that is added to the pad.
 */
typedef struct rp_bvh4_ray {
#if RP_SIMD_SSE2
    __m128 o_near4[3], o_far4[3], inv4[3], inv_far4[3];   /* the four below, in every lane */
#endif
    float  o_near[3], o_far[3];   /* the origin shifted by -+pad per slab */
    float  inv[3];                /* 1 / dir, for the near slabs */
    float  inv_far[3];            /* inv * RP_BVH4_SLAB_PAD, for the far slabs */
    int    near_row[3], far_row[3];   /* rows of rp_bvh4_node.b: the slab's near
                                         bound is the max when dir[a] < 0 */
} rp_bvh4_ray;

/* 1 + 2 gamma(3), gamma(n) = n eps / (1 - n eps), eps = 2^-24 */
#define RP_BVH4_SLAB_PAD (1.0f + 2.0f * (3.0f * 0x1p-24f) / (1.0f - 3.0f * 0x1p-24f))

/* The slab test's pad for a valid ray (a finite origin) against boxes
   whose coordinates are all at most max_abs (>= 0) in magnitude. No NaN
   can reach the maxima, so they are plain compares, not calls to libm's
   fmaxf (which gcc keeps as calls for its NaN rules). */
static inline float rp_bvh4_pad(const rp_ray *ray, float max_abs)
{
    const float x = fabsf(ray->origin[0]), y = fabsf(ray->origin[1]), z = fabsf(ray->origin[2]);
    const float yz = y > z ? y : z, omax = x > yz ? x : yz;
    const float pad = 16.0f * FLT_EPSILON * (omax + max_abs);
    return pad > FLT_MIN ? pad : FLT_MIN;
}

/* Sets r up for a valid ray against boxes whose coordinates are all at
   most max_abs in magnitude. */
static inline void rp_bvh4_ray_setup(const rp_ray *ray, float max_abs, rp_bvh4_ray *r)
{
    const float pad = rp_bvh4_pad(ray, max_abs);
    for (int a = 0; a < 3; a++) {
        float d = ray->dir[a], p = pad;
        int neg = signbit(d) ? 1 : 0;
        RP_OPAQUE(neg);   /* a ray's signs are coin tosses: no branch on them */
        r->near_row[a] = a + 3 * neg;
        r->far_row[a] = a + 3 - 3 * neg;
        /* 1 / FLT_MAX is subnormal: compared only with a d that is
           (Intel CPUs take an assist for every subnormal operand) */
        if (fabsf(d) < FLT_MIN && fabsf(d) < 1.0f / FLT_MAX) {
            r->inv[a] = copysignf(INFINITY, d);
            p += fabsf(d) * FLT_MAX;
        } else {
            r->inv[a] = 1.0f / d;
        }
        /* near plane of the widened box: min - pad (positive d) or
           max + pad (negative d); (bound -+ pad - o) = (bound - (o +- pad));
           p > 0 takes d's sign without a branch (a ray's signs are coin
           tosses) */
        float s = copysignf(p, d);
        r->o_near[a] = ray->origin[a] + s;
        r->o_far[a] = ray->origin[a] - s;
        r->inv_far[a] = r->inv[a] * RP_BVH4_SLAB_PAD;
#if RP_SIMD_SSE2
        r->o_near4[a] = _mm_set1_ps(r->o_near[a]);
        r->o_far4[a] = _mm_set1_ps(r->o_far[a]);
        r->inv4[a] = _mm_set1_ps(r->inv[a]);
        r->inv_far4[a] = _mm_set1_ps(r->inv_far[a]);
#endif
    }
}

/* Bit i set when child slot i of n is not empty. */
static inline int rp_bvh4_slots_used(const rp_bvh4_node *n)
{
#if RP_SIMD_SSE2
    __m128i empty = _mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)(const void *)n->child),
                                    _mm_set1_epi32(-1));
    return ~_mm_movemask_ps(_mm_castsi128_ps(empty)) & 15;
#else
    int used = 0;
    for (int i = 0; i < 4; i++)
        used |= (n->child[i] != RP_BVH4_EMPTY) << i;
    return used;
#endif
}

/* The ray against the (widened) boxes of a node's four children: bit i
   of the result is set when child slot i is used and the ray meets its
   box within [0, t_max]; t_enter[i] is then where it enters. The SSE2
   and the plain C versions do the same float operations in the same
   order, so they agree bit for bit: _mm_max_ps(x, y) is x > y ? x : y,
   the scalar line below, and keeps y when x is NaN (likewise _mm_min_ps).
   The interval starts as [0, t_max]: a node's test is a chain of three
   max (min) operations, then the compare, for a walk waits on it.
   A far slab at or behind the origin closes the box: its distance's sign
   bit set (< 0, -0, or a NaN that has it), which the compare alone would
   not say for -0 (0 <= -0) or a NaN. Such a box holds no hit at t >= 0:
   its padded far plane is at the origin or behind it, and the pad is
   more than any primitive test's error. So the interval's far end is
   the least of its values as integers too (the AVX2 walk's test), and t_max
   is taken as +0 when it is -0. */
static inline int rp_bvh4_enter(const rp_bvh4_node *n, const rp_bvh4_ray *r, float t_max,
                                float t_enter[4])
{
#if RP_SIMD_SSE2
    __m128 t_near = _mm_setzero_ps(), t_far = _mm_set1_ps(t_max + 0.0f), behind = t_near;
    for (int a = 0; a < 3; a++) {
        __m128 t0 = _mm_mul_ps(_mm_sub_ps(_mm_loadu_ps(n->b[r->near_row[a]]), r->o_near4[a]),
                               r->inv4[a]);
        __m128 t1 = _mm_mul_ps(_mm_sub_ps(_mm_loadu_ps(n->b[r->far_row[a]]), r->o_far4[a]),
                               r->inv_far4[a]);
        t_near = _mm_max_ps(t0, t_near);
        t_far = _mm_min_ps(t1, t_far);
        behind = _mm_or_ps(behind, t1);
    }
    _mm_storeu_ps(t_enter, t_near);
    return _mm_movemask_ps(_mm_cmple_ps(t_near, t_far)) & ~_mm_movemask_ps(behind) &
           rp_bvh4_slots_used(n);
#else
    int mask = 0;
    for (int i = 0; i < 4; i++) {
        float t_near = 0.0f, t_far = t_max + 0.0f;
        bool behind = false;
        for (int a = 0; a < 3; a++) {
            float t0 = (n->b[r->near_row[a]][i] - r->o_near[a]) * r->inv[a];
            float t1 = (n->b[r->far_row[a]][i] - r->o_far[a]) * r->inv_far[a];
            /* a NaN compares false: the interval keeps its old end */
            t_near = t0 > t_near ? t0 : t_near;
            t_far = t1 < t_far ? t1 : t_far;
            behind = behind || signbit(t1);
        }
        t_enter[i] = t_near;
        mask |= (t_near <= t_far && !behind) << i;
    }
    return mask & rp_bvh4_slots_used(n);
#endif
}

/* ---- a ray whose reach widens along it --------------------------------
 *
 * A pick tolerance of radius(t) = w + p t around the ray (thin.h: pixels
 * at depth) reaches a point of a box when the ray's point at some t lies
 * within w + p t of the box. Per axis that is two linear conditions on t,
 *     t (d + p) >= min - o - w    and    t (d - p) <= max - o + w,
 * a box grown by the radius in every direction (more than the ball: the
 * test is conservative). Solved in double per child, without SIMD: only
 * queries with such a tolerance over thin objects walk this way. w is
 * widened by the slab test's pad (rp_bvh4_ray_setup), which covers the
 * primitive tests' own rounding.
 */
typedef struct rp_bvh4_cone {
    double o[3], w;
    double d_plus[3], d_minus[3];   /* dir + p, dir - p */
} rp_bvh4_cone;

static inline void rp_bvh4_cone_setup(const rp_ray *ray, float max_abs, double w, double p,
                                      rp_bvh4_cone *c)
{
    c->w = w + (double)rp_bvh4_pad(ray, max_abs);
    for (int a = 0; a < 3; a++) {
        c->o[a] = ray->origin[a];
        c->d_plus[a] = (double)ray->dir[a] + p;
        c->d_minus[a] = (double)ray->dir[a] - p;
    }
}

/* rp_bvh4_enter for the widened boxes: bit i set when child slot i is
   used and the ray reaches its grown box within [0, t_max]; t_enter[i]
   is then where (rounded down to float). */
static inline int rp_bvh4_enter_cone(const rp_bvh4_node *n, const rp_bvh4_cone *c, float t_max,
                                     float t_enter[4])
{
    int mask = 0;
    for (int i = 0; i < 4; i++) {
        t_enter[i] = 0.0f;
        if (n->child[i] == RP_BVH4_EMPTY)
            continue;
        double lo = 0.0, hi = t_max;
        for (int a = 0; a < 3; a++) {
            const double below = (double)n->b[a][i] - c->o[a] - c->w;
            const double above = (double)n->b[3 + a][i] - c->o[a] + c->w;
            const double dp = c->d_plus[a], dm = c->d_minus[a];
            if (dp > 0.0)
                lo = fmax(lo, below / dp);
            else if (dp < 0.0)
                hi = fmin(hi, below / dp);
            else if (below > 0.0)
                hi = -1.0;
            if (dm > 0.0)
                hi = fmin(hi, above / dm);
            else if (dm < 0.0)
                lo = fmax(lo, above / dm);
            else if (above < 0.0)
                hi = -1.0;
        }
        if (!(lo <= hi))
            continue;
        float t = (float)lo;
        t_enter[i] = (double)t > lo ? nextafterf(t, 0.0f) : t;
        mask |= 1 << i;
    }
    return mask;
}

/* A child reference: a BVH4 node (count == 0) or a leaf of count
   primitives from first; t_enter: where the ray enters its box. */
typedef struct rp_bvh4_ref {
    uint32_t first, count;
    float    t_enter;
} rp_bvh4_ref;

/* The child of slot `slot` (0 .. 4 halves - 1) of the node whose first
   half is n, entered at t_enter. */
static inline rp_bvh4_ref rp_bvh4_child(const rp_bvh4_node *n, int slot, float t_enter)
{
    /* unsigned: a shift and a mask, no fix-ups for a negative slot */
    const unsigned half = (unsigned)slot >> 2, lane = (unsigned)slot & 3u;
    rp_bvh4_ref r;
    r.first = n[half].child[lane];
    r.count = n[half].count[lane];
    r.t_enter = t_enter;
    return r;
}

/* The lowest set bit of a mask of slots (0 for none; up to 31 bits: a
   wide node's eight, a mesh leaf's sixteen triangle slots): one bit-scan
   instruction where the compiler has one, a table of nibbles elsewhere. */
static inline int rp_bvh4_lowest_slot(int mask)
{
#if defined(__GNUC__) || defined(__clang__)
    return mask != 0 ? __builtin_ctz((unsigned)mask) : 0;
#elif defined(_MSC_VER)
    unsigned long slot;
    return _BitScanForward(&slot, (unsigned long)mask) ? (int)slot : 0;
#else
    static const int8_t low4[16] = {0, 0, 1, 0, 2, 0, 1, 0, 3, 0, 1, 0, 2, 0, 1, 0};
    int skipped = 0;
    for (; mask != 0 && (mask & 15) == 0; mask >>= 4)
        skipped += 4;
    return skipped + low4[mask & 15];
#endif
}

/* A child's sort key: its entry distance's bits (t_enter >= 0, so they
   order as unsigned integers) with its slot in the three lowest. The
   t_enter read back from a key has lost those three bits (rounded
   towards 0): a pending child is then skipped a hair later, never
   wrongly. Keys of one node differ (their slots do). */

/* The children of the node whose first half is n in `mask` (bit s: slot
   s; not 0), nearest first, as keys: returns how many. Insertion, as
   there are at most eight: the plain C form, and the reference the SSE2
   form is tested against. */
static inline int rp_bvh4_order_keys_insertion(int mask, const float t_enter[RP_BVH8_SLOTS],
                                               uint32_t key[RP_BVH8_SLOTS])
{
    int k = 0;
    for (int s = 0; s < RP_BVH8_SLOTS; s++) {
        if (!((mask >> s) & 1))
            continue;
        uint32_t bits;
        memcpy(&bits, &t_enter[s], sizeof bits);
        const uint32_t x = (bits & ~7u) | (uint32_t)s;
        int j = k++;
        for (; j > 0 && key[j - 1] > x; j--)
            key[j] = key[j - 1];
        key[j] = x;
    }
    return k;
}

#if RP_SIMD_SSE2
/* rp_bvh4_order_keys_insertion without a branch per child, whose
   outcome no predictor knows: each key goes to its rank, the number of
   keys below it (an unsigned compare: signed, with the sign bits
   flipped). An unused slot's key is all ones, above every used key, so
   the unused all land on key[k], past the used ones. */
static inline int rp_bvh4_order_keys(int mask, const float t_enter[RP_BVH8_SLOTS],
                                     uint32_t key[RP_BVH8_SLOTS])
{
    const __m128i m = _mm_set1_epi32(mask), zero = _mm_setzero_si128();
    const __m128i unused_lo = _mm_cmpeq_epi32(_mm_and_si128(m, _mm_setr_epi32(1, 2, 4, 8)), zero);
    const __m128i unused_hi =
        _mm_cmpeq_epi32(_mm_and_si128(m, _mm_setr_epi32(16, 32, 64, 128)), zero);
    /* slots 4-7 are only written for nodes of two halves: read zeros
       (a pointer chosen, not a branch) when none of them is used */
    static const float none[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    const float *t_hi = (mask & 0xf0) != 0 ? t_enter + 4 : none;
    const __m128i high_bits = _mm_set1_epi32(~7);
    __m128i k_lo = _mm_and_si128(_mm_loadu_si128((const __m128i *)(const void *)t_enter), high_bits);
    __m128i k_hi = _mm_and_si128(_mm_loadu_si128((const __m128i *)(const void *)t_hi), high_bits);
    k_lo = _mm_or_si128(_mm_or_si128(k_lo, _mm_setr_epi32(0, 1, 2, 3)), unused_lo);
    k_hi = _mm_or_si128(_mm_or_si128(k_hi, _mm_setr_epi32(4, 5, 6, 7)), unused_hi);
    const __m128i flip = _mm_set1_epi32(INT32_MIN);
    const __m128i s_lo = _mm_xor_si128(k_lo, flip), s_hi = _mm_xor_si128(k_hi, flip);
    /* rank: minus the sum of the compares' all-ones (-1) lanes */
    __m128i r_lo = zero, r_hi = zero;
#define RP_BVH4_RANK(v, lane)                                                        \
    do {                                                                             \
        const __m128i b = _mm_shuffle_epi32(v, _MM_SHUFFLE(lane, lane, lane, lane)); \
        r_lo = _mm_sub_epi32(r_lo, _mm_cmpgt_epi32(s_lo, b));                        \
        r_hi = _mm_sub_epi32(r_hi, _mm_cmpgt_epi32(s_hi, b));                        \
    } while (0)
    RP_BVH4_RANK(s_lo, 0);
    RP_BVH4_RANK(s_lo, 1);
    RP_BVH4_RANK(s_lo, 2);
    RP_BVH4_RANK(s_lo, 3);
    RP_BVH4_RANK(s_hi, 0);
    RP_BVH4_RANK(s_hi, 1);
    RP_BVH4_RANK(s_hi, 2);
    RP_BVH4_RANK(s_hi, 3);
#undef RP_BVH4_RANK
    uint32_t keys[RP_BVH8_SLOTS], rank[RP_BVH8_SLOTS];
    _mm_storeu_si128((__m128i *)(void *)keys, k_lo);
    _mm_storeu_si128((__m128i *)(void *)(keys + 4), k_hi);
    _mm_storeu_si128((__m128i *)(void *)rank, r_lo);
    _mm_storeu_si128((__m128i *)(void *)(rank + 4), r_hi);
    for (int s = 0; s < RP_BVH8_SLOTS; s++)
        key[rank[s]] = keys[s];
    /* k: mask's bits counted */
    int c = mask - ((mask >> 1) & 0x55);
    c = (c & 0x33) + ((c >> 2) & 0x33);
    return (c + (c >> 4)) & 0x0f;
}
#else
#define rp_bvh4_order_keys rp_bvh4_order_keys_insertion
#endif

/* rp_bvh4_order_keys of a mask of exactly three slots (the most common
   count above two): three keys and a network of three compare-exchanges,
   whose minima and maxima compile to conditional moves, where the ranks
   of eight keys take about a hundred instructions. The same keys in the
   same order (keys of one node differ). */
static inline void rp_bvh4_order3_keys(int mask, const float t_enter[RP_BVH8_SLOTS],
                                       uint32_t key[3])
{
    uint32_t k[3];
    for (int j = 0; j < 3; j++) {
        const int s = rp_bvh4_lowest_slot(mask);
        mask &= mask - 1;
        uint32_t bits;
        memcpy(&bits, &t_enter[s], sizeof bits);
        k[j] = (bits & ~7u) | (uint32_t)s;
    }
    const uint32_t lo01 = k[0] < k[1] ? k[0] : k[1], hi01 = k[0] < k[1] ? k[1] : k[0];
    const uint32_t lo12 = hi01 < k[2] ? hi01 : k[2];
    key[2] = hi01 < k[2] ? k[2] : hi01;
    key[0] = lo01 < lo12 ? lo01 : lo12;
    key[1] = lo01 < lo12 ? lo12 : lo01;
}

/* The child a key of rp_bvh4_order_keys names, with its t_enter. */
static inline rp_bvh4_ref rp_bvh4_child_of_key(const rp_bvh4_node *n, uint32_t key)
{
    const uint32_t bits = key & ~7u;
    float t;
    memcpy(&t, &bits, sizeof t);
    return rp_bvh4_child(n, (int)(key & 7u), t);
}

/* The children of `mask`, nearest first, as references (out[0] the
   nearest): returns how many. */
static inline int rp_bvh4_order(const rp_bvh4_node *n, int mask,
                                const float t_enter[RP_BVH8_SLOTS], rp_bvh4_ref out[RP_BVH8_SLOTS])
{
    uint32_t key[RP_BVH8_SLOTS];
    const int k = rp_bvh4_order_keys(mask, t_enter, key);
    for (int j = 0; j < k; j++)
        out[j] = rp_bvh4_child_of_key(n, key[j]);
    return k;
}

#endif /* RAYPICK_BVH4_H */

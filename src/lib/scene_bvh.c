/*
 * scene_bvh.c: the scene's BVH over object boxes: a binned SAH builder
 * (Wald 2007: centroids in 16 bins per axis, the cheapest of the 15 planes
 * of each axis) and an O(n) bottom-up refit.
 *
 * The builder works on its own array of 32-byte records (box + object
 * index) that it partitions in place, so every pass over a node's objects
 * reads memory in order.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bvh4.h"
#include "internal.h"
#include "scene_internal.h"
#include "thread_internal.h"

#define BINS 16

/* SSE2 (the x86-64 baseline) for the builder's box arithmetic, four
   floats at a time (the fourth lane is ignored); plain C elsewhere or
   with RAYPICK_NO_SIMD. Both give the same tree. */
#if defined(__SSE2__) && !defined(RAYPICK_NO_SIMD)
#include <emmintrin.h>
typedef __m128 v4;
static v4 v4_load3(const float *p) { return _mm_setr_ps(p[0], p[1], p[2], 0.0f); }
/* Loads three floats and whatever 4 bytes follow them (ignored lane). */
static v4 v4_load3x(const float *p) { return _mm_loadu_ps(p); }
static v4 v4_set1(float x) { return _mm_set1_ps(x); }
static v4 v4_min(v4 a, v4 b) { return _mm_min_ps(a, b); }
static v4 v4_max(v4 a, v4 b) { return _mm_max_ps(a, b); }
static v4 v4_add(v4 a, v4 b) { return _mm_add_ps(a, b); }
static v4 v4_sub(v4 a, v4 b) { return _mm_sub_ps(a, b); }
static v4 v4_mul(v4 a, v4 b) { return _mm_mul_ps(a, b); }
static void v4_store(float *dst, v4 a) { _mm_storeu_ps(dst, a); }
/* x y + y z + z x of lanes 0..2 (lane 3 must be 0) */
static float v4_area_of_extent(v4 e)
{
    v4 p = _mm_mul_ps(e, _mm_shuffle_ps(e, e, _MM_SHUFFLE(3, 0, 2, 1)));
    v4 q = _mm_add_ps(p, _mm_movehl_ps(p, p));
    return _mm_cvtss_f32(_mm_add_ss(q, _mm_shuffle_ps(q, q, _MM_SHUFFLE(1, 1, 1, 1))));
}
/* Bin of each lane's x in [0, last], truncated. */
static void v4_bins(v4 x, float last, int out[4])
{
    x = _mm_min_ps(_mm_max_ps(x, _mm_setzero_ps()), _mm_set1_ps(last));
    _mm_storeu_si128((__m128i *)out, _mm_cvttps_epi32(x));
}
#else
typedef struct v4 { float f[4]; } v4;
static v4 v4_load3(const float *p) { v4 r = {{p[0], p[1], p[2], 0.0f}}; return r; }
static v4 v4_load3x(const float *p) { return v4_load3(p); }
static v4 v4_set1(float x) { v4 r = {{x, x, x, x}}; return r; }
#define V4_OP(name, expr)                                 \
    static v4 name(v4 a, v4 b)                            \
    {                                                     \
        v4 r;                                             \
        for (int i = 0; i < 4; i++) {                     \
            float x = a.f[i], y = b.f[i];                 \
            r.f[i] = (expr);                              \
        }                                                 \
        return r;                                         \
    }
V4_OP(v4_min, x < y ? x : y)
V4_OP(v4_max, x > y ? x : y)
V4_OP(v4_add, x + y)
V4_OP(v4_sub, x - y)
V4_OP(v4_mul, x * y)
static void v4_store(float *dst, v4 a) { memcpy(dst, a.f, sizeof a.f); }
static float v4_area_of_extent(v4 e)
{
    return e.f[0] * e.f[1] + e.f[1] * e.f[2] + e.f[2] * e.f[0];
}
static void v4_bins(v4 x, float last, int out[4])
{
    for (int i = 0; i < 4; i++) {
        float v = x.f[i] > 0.0f ? x.f[i] : 0.0f;
        v = v < last ? v : last;
        out[i] = (int)v;
    }
}
#endif

/* min and max each followed by 4 more bytes, so both load as one v4:
   the object's index and its tag (rp_sbvh_build_tagged), which travel
   with its box. */
typedef struct bprim {
    float    min[3];
    uint32_t obj;
    float    max[3];
    uint32_t tag;
} bprim;

typedef struct bin {
    v4 min, max;
} bin;

/* A node to build: its objects, their box and the bounds of their
   centroids (times two: min + max, no halving needed to compare them),
   all measured by the parent's partition pass. */
typedef struct task {
    uint32_t node, first, count, depth;
    float    bmin[4], bmax[4];
    float    cmin[4], cmax[4];
} task;

/* Nodes with more than twice this many objects choose their plane from
   an even sample of about this many: the plane barely changes, and the
   one full pass left per node is the partition. (1024 rather than 4096:
   SAH cost 61.56 against 61.64 on the 1M-triangle knot, 255.19 both on
   1M random spheres, and 6% fewer instructions.) */
#define SAMPLE_TARGET 1024

/* The builder compares areas of boxes inside one node, in float, in the
   node's own units: halved extents (no overflow even at +-FLT_MAX) times
   `unit`, 1 / the node's largest halved extent (lane 3: 0). Every area is
   then at most 3, so no product overflows whatever the coordinates. */
static v4 area_unit(const float mn[4], const float mx[4])
{
    float big = 0.0f;
    for (int k = 0; k < 3; k++) {
        float e = 0.5f * mx[k] - 0.5f * mn[k];
        big = e > big ? e : big;
    }
    float u = big > 0.0f ? 1.0f / big : 1.0f;
    u = isfinite(u) ? u : 1.0f;     /* subnormal extents: areas round to 0 */
    float lanes[4] = {u, u, u, 0.0f};
    return v4_load3(lanes);
}

static float v4_area(v4 mn, v4 mx, v4 unit)
{
    v4 half = v4_set1(0.5f);
    return v4_area_of_extent(v4_mul(v4_sub(v4_mul(mx, half), v4_mul(mn, half)), unit));
}

/* Per-axis offset and scale that map a centroid to its bin. Small nodes
   use fewer bins: the sweep over the bins costs as much as binning a few
   dozen objects, and most nodes are small. */
typedef struct binning {
    v4    cmin, scale;
    float scale_f[4];
    int   bins;
} binning;

static binning make_binning(const float cmin[4], const float cmax[4], uint32_t count)
{
    binning b;
    b.bins = count <= 16 ? 4 : (count <= 128 ? 8 : BINS);
    for (int k = 0; k < 4; k++) {
        float extent = k < 3 ? cmax[k] - cmin[k] : 0.0f;
        /* a zero or overflowing extent cannot be split on that axis */
        b.scale_f[k] = extent > 0.0f && isfinite(extent) ? b.bins * 0.99999f / extent : 0.0f;
    }
    b.cmin = v4_load3(cmin);
    b.scale = v4_load3(b.scale_f);
    return b;
}

/* The bins of p's centroid on the three axes; the same function decides
   binning and partitioning, so they always agree. */
static void bins_of(const binning *bn, v4 c, int out[4])
{
    v4_bins(v4_mul(v4_sub(c, bn->cmin), bn->scale), (float)(bn->bins - 1), out);
}

/* Box and centroid bounds of count objects (the root, the halving
   fallback). */
static void scan_bounds(const bprim *p, uint32_t count, float mn[4], float mx[4],
                        float cmin[4], float cmax[4])
{
    v4 bmn = v4_set1(FLT_MAX), bmx = v4_set1(-FLT_MAX);
    v4 cmn = v4_set1(FLT_MAX), cmx = v4_set1(-FLT_MAX);
    for (uint32_t i = 0; i < count; i++) {
        v4 a = v4_load3x(p[i].min), b = v4_load3x(p[i].max), c = v4_add(a, b);
        bmn = v4_min(bmn, a);
        bmx = v4_max(bmx, b);
        cmn = v4_min(cmn, c);
        cmx = v4_max(cmx, c);
    }
    v4_store(mn, bmn);
    v4_store(mx, bmx);
    v4_store(cmin, cmn);
    v4_store(cmax, cmx);
}

typedef struct split {
    int    axis, plane;     /* left: bins 0 .. plane */
    double cost;            /* sum of half area * count of both sides */
} split;

/* Bins the objects (every stride-th) on all three axes, then finds the
   cheapest plane; axis -1 when the centroids do not spread on any axis. */
static split best_split(const bprim *p, uint32_t count, uint32_t stride, const binning *bn,
                        v4 unit)
{
    /* Two sets of bins, for the even and the odd objects: neighbours
       often fall in the same bin, and each update would wait for the one
       before it to be stored. */
    bin bins[2][3][BINS];
    uint32_t counts[2][3][BINS];
    const int nb = bn->bins;
    for (int s = 0; s < 2; s++)
        for (int k = 0; k < 3; k++)
            for (int b = 0; b < nb; b++) {
                bins[s][k][b].min = v4_set1(FLT_MAX);
                bins[s][k][b].max = v4_set1(-FLT_MAX);
                counts[s][k][b] = 0;
            }
    uint32_t i = 0;
    for (; i + stride < count; i += 2 * stride) {
        int ix[4], jx[4];
        v4 a = v4_load3x(p[i].min), b = v4_load3x(p[i].max);
        v4 c = v4_load3x(p[i + stride].min), d = v4_load3x(p[i + stride].max);
        bins_of(bn, v4_add(a, b), ix);
        bins_of(bn, v4_add(c, d), jx);
        for (int k = 0; k < 3; k++) {
            bin *bk = &bins[0][k][ix[k]], *bj = &bins[1][k][jx[k]];
            bk->min = v4_min(bk->min, a);
            bk->max = v4_max(bk->max, b);
            bj->min = v4_min(bj->min, c);
            bj->max = v4_max(bj->max, d);
            counts[0][k][ix[k]]++;
            counts[1][k][jx[k]]++;
        }
    }
    if (i < count) {
        int ix[4];
        v4 a = v4_load3x(p[i].min), b = v4_load3x(p[i].max);
        bins_of(bn, v4_add(a, b), ix);
        for (int k = 0; k < 3; k++) {
            bin *bk = &bins[0][k][ix[k]];
            bk->min = v4_min(bk->min, a);
            bk->max = v4_max(bk->max, b);
            counts[0][k][ix[k]]++;
        }
    }
    for (int k = 0; k < 3; k++)
        for (int b = 0; b < nb; b++) {
            bins[0][k][b].min = v4_min(bins[0][k][b].min, bins[1][k][b].min);
            bins[0][k][b].max = v4_max(bins[0][k][b].max, bins[1][k][b].max);
            counts[0][k][b] += counts[1][k][b];
        }
    split best = {-1, 0, INFINITY};
    for (int k = 0; k < 3; k++) {
        if (bn->scale_f[k] == 0.0f)
            continue;
        float left_area[BINS];
        uint32_t left_count[BINS];
        v4 mn = v4_set1(FLT_MAX), mx = v4_set1(-FLT_MAX);
        uint32_t n = 0;
        for (int b = 0; b < nb - 1; b++) {
            mn = v4_min(mn, bins[0][k][b].min);
            mx = v4_max(mx, bins[0][k][b].max);
            n += counts[0][k][b];
            left_area[b] = n ? v4_area(mn, mx, unit) : 0.0f;
            left_count[b] = n;
        }
        mn = v4_set1(FLT_MAX);
        mx = v4_set1(-FLT_MAX);
        n = 0;
        for (int b = nb - 1; b > 0; b--) {
            mn = v4_min(mn, bins[0][k][b].min);
            mx = v4_max(mx, bins[0][k][b].max);
            n += counts[0][k][b];
            int plane = b - 1;
            if (n == 0 || left_count[plane] == 0)
                continue;
            double cost = (double)left_area[plane] * left_count[plane] +
                          (double)v4_area(mn, mx, unit) * n;
            if (cost < best.cost) {
                best.axis = k;
                best.plane = plane;
                best.cost = cost;
            }
        }
    }
    return best;
}

/* Both sides' boxes and centroid bounds, gathered while partitioning. */
typedef struct side_bounds {
    v4 bmn, bmx, cmn, cmx;
} side_bounds;

static void side_bounds_empty(side_bounds *b)
{
    b->bmn = b->cmn = v4_set1(FLT_MAX);
    b->bmx = b->cmx = v4_set1(-FLT_MAX);
}

static void side_bounds_store(const side_bounds *b, task *t)
{
    v4_store(t->bmin, b->bmn);
    v4_store(t->bmax, b->bmx);
    v4_store(t->cmin, b->cmn);
    v4_store(t->cmax, b->cmx);
}

/* The partition classifies its objects a block at a time from both ends
   (Edelkamp and Weiss's BlockQuicksort): each block notes where its
   misplaced objects are, without a branch per object (the side of a
   random object is a coin toss the branch predictor loses), and the two
   blocks' misplaced objects are then swapped pairwise. */
#define BLOCK 64

typedef struct partitioner {
    const binning *bn;
    int            axis, plane;
    side_bounds    side[2];     /* 0 left, 1 right */
} partitioner;

/* Classifies n objects, p[0], p[step], p[2 step] ...: adds each to its
   side's bounds and notes in off[] the position (0, 1, 2 ...) of those
   on side `misplaced`; returns how many. No branch per object: SSE2 adds
   each object to both sides, the other side seeing a NaN (all bits set),
   which minps/maxps ignore as their first operand. */
static uint32_t classify_block(partitioner *pt, const bprim *p, ptrdiff_t step, uint32_t n,
                               int misplaced, uint8_t *off)
{
    uint32_t found = 0;
    side_bounds l = pt->side[0], r = pt->side[1];
#if defined(__SSE2__) && !defined(RAYPICK_NO_SIMD)
    const __m128 cmin = pt->bn->cmin, scale = pt->bn->scale, zero = _mm_setzero_ps();
    const __m128 last = _mm_set1_ps((float)(pt->bn->bins - 1));
    const __m128i plane = _mm_set1_epi32(pt->plane);
    const int axis = pt->axis;
    for (uint32_t k = 0; k < n; k++) {
        const bprim *q = p + step * (ptrdiff_t)k;
        __m128 a = _mm_loadu_ps(q->min), b = _mm_loadu_ps(q->max), c = _mm_add_ps(a, b);
        /* bins_of's arithmetic, to the same bin */
        __m128 x = _mm_min_ps(_mm_max_ps(_mm_mul_ps(_mm_sub_ps(c, cmin), scale), zero), last);
        __m128i beyond = _mm_cmpgt_epi32(_mm_cvttps_epi32(x), plane);
        int right = (_mm_movemask_ps(_mm_castsi128_ps(beyond)) >> axis) & 1;
        __m128 not_left = _mm_castsi128_ps(_mm_set1_epi32(-right));
        __m128 not_right = _mm_castsi128_ps(_mm_set1_epi32(right - 1));
        __m128 al = _mm_or_ps(a, not_left), bl = _mm_or_ps(b, not_left), cl = _mm_or_ps(c, not_left);
        __m128 ar = _mm_or_ps(a, not_right), br = _mm_or_ps(b, not_right), cr = _mm_or_ps(c, not_right);
        l.bmn = _mm_min_ps(al, l.bmn);
        l.bmx = _mm_max_ps(bl, l.bmx);
        l.cmn = _mm_min_ps(cl, l.cmn);
        l.cmx = _mm_max_ps(cl, l.cmx);
        r.bmn = _mm_min_ps(ar, r.bmn);
        r.bmx = _mm_max_ps(br, r.bmx);
        r.cmn = _mm_min_ps(cr, r.cmn);
        r.cmx = _mm_max_ps(cr, r.cmx);
        off[found] = (uint8_t)k;
        found += (uint32_t)(right == misplaced);
    }
#else
    for (uint32_t k = 0; k < n; k++) {
        const bprim *q = p + step * (ptrdiff_t)k;
        int ix[4];
        v4 a = v4_load3x(q->min), b = v4_load3x(q->max), c = v4_add(a, b);
        bins_of(pt->bn, c, ix);
        int right = ix[pt->axis] > pt->plane;
        side_bounds *sb = right ? &r : &l;
        sb->bmn = v4_min(sb->bmn, a);
        sb->bmx = v4_max(sb->bmx, b);
        sb->cmn = v4_min(sb->cmn, c);
        sb->cmx = v4_max(sb->cmx, c);
        off[found] = (uint8_t)k;
        found += (uint32_t)(right == misplaced);
    }
#endif
    pt->side[0] = l;
    pt->side[1] = r;
    return found;
}

static void swap_prims(bprim *a, bprim *b)
{
    bprim tmp = *a;
    *a = *b;
    *b = tmp;
}

/* Moves the objects of [lo, hi) left of the plane to its front, adding
   every object to its side's bounds; returns the first right one. */
static uint32_t partition_range(partitioner *pt, bprim *p, uint32_t lo, uint32_t hi)
{
    /* [lo, ul): the left block, classified, nl misplaced objects still
       at lo + off_l[sl ..]; (uh, hi]: the right block likewise, offsets
       counted down from hi - 1; [ul, uh): not classified yet */
    uint8_t off_l[BLOCK], off_r[BLOCK];
    uint32_t ul = lo, uh = hi, nl = 0, nr = 0, sl = 0, sr = 0;
    for (;;) {
        if (nl == 0 && ul < uh) {
            lo = ul;
            uint32_t n = uh - ul < BLOCK ? uh - ul : BLOCK;
            sl = 0;
            nl = classify_block(pt, &p[lo], 1, n, 1, off_l);
            ul += n;
        }
        if (nr == 0 && ul < uh) {
            hi = uh;
            uint32_t n = uh - ul < BLOCK ? uh - ul : BLOCK;
            sr = 0;
            nr = classify_block(pt, &p[hi - 1], -1, n, 0, off_r);
            uh -= n;
        }
        uint32_t m = nl < nr ? nl : nr;
        if (m == 0 && ul == uh)
            break;
        for (uint32_t t = 0; t < m; t++)
            swap_prims(&p[lo + off_l[sl + t]], &p[hi - 1 - off_r[sr + t]]);
        nl -= m;
        nr -= m;
        sl += m;
        sr += m;
    }
    /* Everything is classified; one block at most still holds misplaced
       objects (its offsets ascend): they change places with the block's
       well placed objects nearest its other end. */
    if (nl > 0) {
        uint32_t a = sl, b = sl + nl, pos = ul - lo;
        while (a < b) {
            pos--;
            if (off_l[b - 1] == pos)
                b--;
            else
                swap_prims(&p[lo + off_l[a++]], &p[lo + pos]);
        }
        return lo + pos;
    }
    if (nr > 0) {
        uint32_t a = sr, b = sr + nr, pos = hi - uh;
        while (a < b) {
            pos--;
            if (off_r[b - 1] == pos)
                b--;
            else
                swap_prims(&p[hi - 1 - off_r[a++]], &p[hi - 1 - pos]);
        }
        return hi - pos;
    }
    return ul;
}

/* partition_range with a branch per object (Hoare's): faster when the
   branch predictor guesses the sides (a mesh's triangles, in the order
   it lists them, make patterns it learns). */
static uint32_t partition_runs(partitioner *pt, bprim *p, uint32_t lo, uint32_t hi)
{
    side_bounds l = pt->side[0], r = pt->side[1];
    uint32_t i = lo, j = hi;
    while (i < j) {
        int ix[4];
        v4 a = v4_load3x(p[i].min), b = v4_load3x(p[i].max), c = v4_add(a, b);
        bins_of(pt->bn, c, ix);
        int right = ix[pt->axis] > pt->plane;
        if (!right) {
            l.bmn = v4_min(l.bmn, a);
            l.bmx = v4_max(l.bmx, b);
            l.cmn = v4_min(l.cmn, c);
            l.cmx = v4_max(l.cmx, c);
            i++;
        } else {
            r.bmn = v4_min(r.bmn, a);
            r.bmx = v4_max(r.bmx, b);
            r.cmn = v4_min(r.cmn, c);
            r.cmx = v4_max(r.cmx, c);
            swap_prims(&p[i], &p[--j]);
        }
    }
    pt->side[0] = l;
    pt->side[1] = r;
    return i;
}

/* One half of a big node's partition. */
typedef struct half_job {
    partitioner pt;
    bprim      *p;
    uint32_t    lo, hi, split;
    bool        scattered;
} half_job;

static void half_job_run(void *arg)
{
    half_job *j = arg;
    side_bounds_empty(&j->pt.side[0]);
    side_bounds_empty(&j->pt.side[1]);
    j->split = j->scattered ? partition_range(&j->pt, j->p, j->lo, j->hi)
                            : partition_runs(&j->pt, j->p, j->lo, j->hi);
}

/* Swaps p[a + i] and p[b + i] for i < n. */
typedef struct swap_job {
    bprim   *p;
    uint32_t a, b, n;
} swap_job;

static void swap_job_run(void *arg)
{
    swap_job *j = arg;
    for (uint32_t i = 0; i < j->n; i++)
        swap_prims(&j->p[j->a + i], &j->p[j->b + i]);
}

/* Moves the objects left of the plane to the front and measures both
   sides' boxes and centroid bounds; returns the left count. Scattered
   objects (rp_sbvh_shape) are partitioned without a branch per object;
   others with (one-thread builds, ms of CPU, branchless against branchy:
   1M random spheres 515 against 613; the 1M-triangle knot 318 against
   270).
   The top of the tree (top_threads > 0) partitions each half of the node
   on its own, on two threads when there are, then swaps the first half's
   right objects with the second half's left ones: the same objects end
   in the same places on any number of threads. */
static uint32_t partition(bprim *p, uint32_t count, const split *s, const binning *bn,
                          bool scattered, int top_threads, task *left, task *right)
{
    half_job half[2];
    for (int h = 0; h < 2; h++) {
        half[h].pt.bn = bn;
        half[h].pt.axis = s->axis;
        half[h].pt.plane = s->plane;
        half[h].p = p;
        half[h].scattered = scattered;
    }
    half[0].lo = 0;
    half[0].hi = top_threads > 0 ? count / 2 : count;
    half[1].lo = half[0].hi;
    half[1].hi = count;
    bool threaded = top_threads > 1;
    if (top_threads > 0)
        rp_thread_run_pair(half_job_run, &half[0], half_job_run, &half[1], threaded);
    else
        half_job_run(&half[0]);
    uint32_t nl = half[0].split;
    if (top_threads > 0) {
        /* [split0, mid) goes right, [mid, split1) left: swap the shorter
           with the far end of the other */
        uint32_t a = half[0].split, mid = half[0].hi, b = half[1].split;
        uint32_t n = mid - a < b - mid ? mid - a : b - mid;
        swap_job swaps[2] = {{p, a, b - n, n / 2}, {p, a + n / 2, b - n + n / 2, n - n / 2}};
        rp_thread_run_pair(swap_job_run, &swaps[0], swap_job_run, &swaps[1], threaded && n > 4096);
        nl = a + (b - mid);
        for (int k = 0; k < 2; k++) {
            side_bounds *into = &half[0].pt.side[k], *from = &half[1].pt.side[k];
            into->bmn = v4_min(into->bmn, from->bmn);
            into->bmx = v4_max(into->bmx, from->bmx);
            into->cmn = v4_min(into->cmn, from->cmn);
            into->cmx = v4_max(into->cmx, from->cmx);
        }
    }
    side_bounds_store(&half[0].pt.side[0], left);
    side_bounds_store(&half[0].pt.side[1], right);
    return nl;
}

/* Nodes of at most this many objects try every plane between them (a
   full sweep, Wald 2007's exact SAH) instead of binning: for so few,
   sorting them on each axis costs less than clearing and sweeping bins,
   and the plane is the best one rather than the best bin edge. (Measured
   with cachegrind: 16 made bigger nodes cost more instructions than 4-bin
   binning; 8 costs fewer.) */
#define SMALL 8
#define NO_SPLIT UINT32_MAX

/* o[r] = the index of the r-th smallest of c[0 .. n) (n <= SMALL), ties
   in index order: a stable sort. SSE2: every object's rank counted at
   once against four others at a time, without branches (the small nodes'
   sort was the builder's most mispredicted branch); c must be padded
   with +inf up to a multiple of 4. Plain C: insertion sort. */
static void sort_small(const float *c, uint32_t n, uint8_t *o)
{
#if defined(__SSE2__) && !defined(RAYPICK_NO_SIMD)
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
static uint32_t pair_split(bprim *p, bool leaf_ok, double node_cost, double area, v4 unit,
                           task *left, task *right)
{
    v4 a0 = v4_load3x(p[0].min), b0 = v4_load3x(p[0].max);
    v4 a1 = v4_load3x(p[1].min), b1 = v4_load3x(p[1].max);
    float c0[4], c1[4];
    v4_store(c0, v4_add(a0, b0));
    v4_store(c1, v4_add(a1, b1));
    if (c0[0] == c1[0] && c0[1] == c1[1] && c0[2] == c1[2])
        return NO_SPLIT;
    double cost = (double)v4_area(a0, b0, unit) + (double)v4_area(a1, b1, unit);
    if (leaf_ok && node_cost * area + cost >= area * 2)
        return 0;
    v4_store(left->bmin, a0);
    v4_store(left->bmax, b0);
    v4_store(left->cmin, v4_add(a0, b0));
    v4_store(left->cmax, v4_add(a0, b0));
    v4_store(right->bmin, a1);
    v4_store(right->bmax, b1);
    v4_store(right->cmin, v4_add(a1, b1));
    v4_store(right->cmax, v4_add(a1, b1));
    return 1;
}

/* The small node's split: sorts its objects by centroid on each axis and
   takes the cheapest cut between two different centroids. Returns the
   left count with the objects reordered and both sides measured, 0 for a
   leaf, NO_SPLIT when all centroids are equal. */
static uint32_t sweep_split(bprim *p, uint32_t n, bool leaf_ok, double node_cost, double area,
                            v4 unit, task *left, task *right)
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
        v4 mn = v4_set1(FLT_MAX), mx = v4_set1(-FLT_MAX);
        for (uint32_t i = n - 1; i > 0; i--) {
            mn = v4_min(mn, v4_load3x(p[o[i]].min));
            mx = v4_max(mx, v4_load3x(p[o[i]].max));
            right_area[i] = v4_area(mn, mx, unit);
        }
        mn = v4_set1(FLT_MAX);
        mx = v4_set1(-FLT_MAX);
        for (uint32_t i = 0; i + 1 < n; i++) {
            mn = v4_min(mn, v4_load3x(p[o[i]].min));
            mx = v4_max(mx, v4_load3x(p[o[i]].max));
            double cost = (double)v4_area(mn, mx, unit) * (i + 1) +
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
    bprim sorted[SMALL];
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
static uint32_t sah_split(bprim *p, const task *t, const rp_sbvh_shape *shape, bool leaf_ok,
                          int top_threads, task *left, task *right)
{
    v4 unit = area_unit(t->bmin, t->bmax);
    double area = v4_area(v4_load3(t->bmin), v4_load3(t->bmax), unit);
    if (t->count == 2)
        return pair_split(p, leaf_ok, shape->node_cost, area, unit, left, right);
    if (t->count <= SMALL)
        return sweep_split(p, t->count, leaf_ok, shape->node_cost, area, unit, left, right);
    binning bn = make_binning(t->cmin, t->cmax, t->count);
    uint32_t stride = t->count > 2 * SAMPLE_TARGET ? t->count / SAMPLE_TARGET : 1;
    split s = best_split(p, t->count, stride, &bn, unit);
    if (s.axis < 0)
        return NO_SPLIT;
    /* traversal 1 + the children's objects, against testing all
       (sampled nodes are far too big to become leaves) */
    if (leaf_ok && shape->node_cost * area + s.cost >= area * t->count)
        return 0;
    return partition(p, t->count, &s, &bn, shape->scattered, top_threads, left, right);
}

/* Builds the node of task t: bounds, and where to split its objects (0
   makes a leaf); fills the children's bounds. top_threads: see partition. */
static uint32_t build_node(bprim *p, const task *t, const rp_sbvh_shape *shape, int top_threads,
                           rp_snode *node, task *left, task *right)
{
    bool leaf_ok = t->count <= shape->max_leaf;
    memcpy(node->min, t->bmin, sizeof node->min);
    memcpy(node->max, t->bmax, sizeof node->max);
    if (t->count > 1 && t->depth < RP_SBVH_SAH_DEPTH) {
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

bool rp_sbvh_build(const rp_sbox *boxes, uint32_t count, rp_sbvh *out)
{
    return rp_sbvh_build_tagged(boxes, NULL, count, out);
}

/* Builds the subtree of task `root` depth first: its node is written at
   root->node, its descendants' pairs from *next upwards (which it
   advances). Returns the depth of its deepest leaf. */
static uint32_t build_subtree(bprim *p, rp_snode *nodes, const task *root,
                              const rp_sbvh_shape *shape, uint32_t *next)
{
    /* The right child waits on the stack while the left one is built.
       Depth <= RP_SBVH_SAH_DEPTH + 31, one waiting task per level. */
    task stack[2 * RP_SBVH_STACK];
    int sp = 0;
    uint32_t used = *next, max_depth = 0;
    stack[sp++] = *root;
    while (sp > 0) {
        task t = stack[--sp];
        rp_snode *node = &nodes[t.node];
        task left, right;
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
 *    halves on their own, on two threads: see partition);
 * 2. the threads take the waiting nodes one at a time, biggest first,
 *    each when it is free (a core slowed by something else takes fewer);
 *    each subtree is built into the thread's scratch array of binary
 *    nodes and collapsed into BVH4 nodes at once (from its cache) at the
 *    end of the thread's own list of them; the thread also writes the
 *    subtree's object indices and tags;
 * 3. the top is collapsed over the subtrees' BVH4 roots, and the threads'
 *    nodes are copied behind it, subtree by subtree in object order, on
 *    two threads, which also sum the tree's SAH cost.
 * Which thread builds which subtree changes nothing but the time.
 */
#define SUBTREES 16
#define SUBTREE_MIN 16384
#define MAX_THREADS 8
/* the top's binary nodes: the root, and a pair per split (at most
   SUBTREES - 1 splits leave room for their children) */
#define TOP_NODES (2 * SUBTREES)

typedef struct subtree {
    task     root;      /* its node belongs to the top of the tree */
    uint32_t depth;     /* its deepest leaf */
    int      worker;    /* the thread that built it */
    uint32_t first4;    /* its BVH4 nodes in that thread's list */
    uint32_t count4;    /* (none when its root is a leaf) */
    uint32_t at;        /* and their place in the whole tree */
} subtree;

/* Writes the object indices (and tags) of records [first, first + count)
   into the leaf order's arrays. */
static void write_prims(const bprim *p, uint32_t first, uint32_t count, uint32_t *prims,
                        uint32_t *tags)
{
    for (uint32_t k = first; k < first + count; k++)
        prims[k] = p[k].obj;
    for (uint32_t k = first; k < first + count && tags != NULL; k++)
        tags[k] = p[k].tag;
}

typedef struct build_job {
    bprim               *p;
    uint32_t            *prims, *tags;
    rp_snode            *top;
    const rp_sbvh_shape *shape;
    subtree             *sub;
    const int           *order;     /* sub[] biggest first */
    int                  subs, worker;
    rp_ticket           *ticket;    /* the next of order[] to build */
    uint32_t             scratch_nodes;
    rp_bvh4_node        *out4;      /* this thread's BVH4 nodes */
    uint32_t             used4, cap4;
    bool                 failed;    /* out of memory, or too deep */
} build_job;

/* Room for `more` nodes at the end of the job's BVH4 list. */
static bool reserve4(build_job *j, uint32_t more)
{
    if (j->used4 + (uint64_t)more <= j->cap4)
        return true;
    uint64_t cap = j->cap4 + j->cap4 / 2;
    cap = cap > j->used4 + (uint64_t)more ? cap : j->used4 + (uint64_t)more;
    if (cap > SIZE_MAX / sizeof *j->out4)
        return false;
    rp_bvh4_node *grown = realloc(j->out4, (size_t)cap * sizeof *grown);
    if (grown == NULL)
        return false;
    j->out4 = grown;
    j->cap4 = (uint32_t)cap;
    return true;
}

/* Builds subtree s into scratch (its root at 0), collapses it into the
   job's BVH4 list, and marks its root in the top accordingly. */
static void build_one(build_job *j, subtree *s, rp_snode *scratch)
{
    task root = s->root;
    root.node = 0;
    uint32_t used = 1;
    s->depth = build_subtree(j->p, scratch, &root, j->shape, &used);
    rp_snode *top = &j->top[s->root.node];
    *top = scratch[0];
    s->worker = j->worker;
    s->first4 = j->used4;
    s->count4 = 0;
    if (top->count == 0) {
        /* a BVH4 node per binary inner node at most: (used - 1) / 2 */
        if (!reserve4(j, (used - 1) / 2)) {
            j->failed = true;
            return;
        }
        /* the top's BVH4 nodes are above it: its root is no deeper than
           the binary one */
        s->count4 = rp_bvh4_collapse(scratch, 0, s->root.depth, j->out4 + j->used4);
        j->failed |= s->count4 == 0;
        j->used4 += s->count4;
        top->count = RP_SNODE_BVH4;
    }
    write_prims(j->p, s->root.first, s->root.count, j->prims, j->tags);
}

static void build_job_run(void *arg)
{
    build_job *j = arg;
    /* one scratch array, reused */
    rp_snode *scratch = rp_alloc_large((size_t)j->scratch_nodes * sizeof *scratch);
    j->failed = scratch == NULL;
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
static int build_top(bprim *p, uint32_t *prims, uint32_t *tags, rp_snode *nodes, const task *root,
                     const rp_sbvh_shape *shape, int threads, subtree sub[SUBTREES],
                     uint32_t *used, uint32_t *max_depth)
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
        task t = sub[big].root, left, right;
        rp_snode *node = &nodes[t.node];
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

/* The top's BVH4 nodes, written at out[0 ..] (room for SUBTREES), with
   each subtree's root pointing to its place; returns how many. A root
   that is a subtree has none; a root that is a leaf, one. */
static uint32_t collapse_top(rp_snode *top, const subtree *sub, int n, rp_bvh4_node *out)
{
    if (top[0].count == RP_SNODE_BVH4)
        return 0;
    if (top[0].count > 0) {     /* a single leaf: the root's only child */
        const rp_snode leaf = top[0];
        for (int i = 0; i < 4; i++) {
            for (int a = 0; a < 3; a++) {
                out[0].b[a][i] = i == 0 ? leaf.min[a] : INFINITY;
                out[0].b[3 + a][i] = i == 0 ? leaf.max[a] : -INFINITY;
            }
            out[0].child[i] = i == 0 ? leaf.first : RP_BVH4_EMPTY;
            out[0].count[i] = i == 0 ? leaf.count : 0;
        }
        return 1;
    }
    for (int i = 0; i < n; i++)
        if (top[sub[i].root.node].count == RP_SNODE_BVH4)
            top[sub[i].root.node].first = sub[i].at;
    return rp_bvh4_collapse(top, 0, 0, out);
}

/* Copies subtrees [from, to)'s BVH4 nodes from their threads' lists to
   their places, moving their children's indices with them, and sums
   their part of the SAH cost. */
typedef struct copy_job {
    rp_bvh4_node    *nodes;
    const subtree   *sub;
    const build_job *jobs;
    int              from, to;
    double           weighted;
} copy_job;

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
        for (uint32_t q = 0; q < s->count4; q++)
            for (int k = 0; k < 4; k++)
                if (dst[q].count[k] == 0 && dst[q].child[k] != RP_BVH4_EMPTY)
                    dst[q].child[k] += s->at;
    }
    c->weighted = 0.0;
    if (c->from < c->to) {
        uint32_t end = c->sub[c->to - 1].at + c->sub[c->to - 1].count4;
        c->weighted = rp_bvh4_weighted_area(c->nodes, c->sub[c->from].at, end);
    }
}

/* Fills records [lo, hi) from the boxes, or from the boxes around the
   triangles (9 floats each), and measures them (box and centroid
   bounds: the root's, once both halves are done). */
typedef struct fill_job {
    const rp_sbox  *boxes;
    const float    *tris;
    const uint32_t *tags;
    bprim         *p;
    uint32_t       lo, hi;
    float          bmin[4], bmax[4], cmin[4], cmax[4];
} fill_job;

static void fill_job_run(void *arg)
{
    fill_job *j = arg;
    for (uint32_t i = j->lo; i < j->hi && j->tris != NULL; i++) {
        const float *t = j->tris + 9 * (size_t)i;
        for (int a = 0; a < 3; a++) {
            float x = t[a], y = t[3 + a], z = t[6 + a];
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
        free(jobs[w].out4);
}

/* rp_sbvh_build_shaped on boxes, or on the boxes of tris when boxes is
   NULL; tags (may be NULL) go with their objects. */
static bool build(const rp_sbox *boxes, const float *tris, const uint32_t *tags,
                  uint32_t count, const rp_sbvh_shape *shape, rp_sbvh *out)
{
    memset(out, 0, sizeof *out);
    if (count == 0)
        return false;
    bprim *p = rp_alloc_large((size_t)count * sizeof *p);
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

    task root;
    memset(&root, 0, sizeof root);
    root.count = count;
    for (int k = 0; k < 4; k++) {
        root.bmin[k] = fminf(fill[0].bmin[k], fill[1].bmin[k]);
        root.bmax[k] = fmaxf(fill[0].bmax[k], fill[1].bmax[k]);
        root.cmin[k] = fminf(fill[0].cmin[k], fill[1].cmin[k]);
        root.cmax[k] = fmaxf(fill[0].cmax[k], fill[1].cmax[k]);
    }
    rp_snode top[TOP_NODES];
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
    if (n > 0)
        run_workers(jobs, workers);
    rp_free_large(p);
    bool failed = false;
    for (int w = 0; w < workers; w++)
        failed |= jobs[w].failed;

    /* the top first, then the subtrees in object order */
    rp_bvh4_node top4[SUBTREES];
    for (int i = 0; i < n; i++)
        sub[i].at = 0;
    uint32_t top_count = failed ? 0 : collapse_top(top, sub, n, top4);
    uint64_t total = top_count;
    for (int i = 0; i < n; i++) {
        sub[i].at = (uint32_t)total;
        total += sub[i].count4;
        max_depth = sub[i].depth > max_depth ? sub[i].depth : max_depth;
    }
    if (!failed && total > top_count)   /* again, now the places are known */
        top_count = collapse_top(top, sub, n, top4);
    rp_bvh4_node *nodes = NULL;
    if (!failed && (top_count > 0 || total > 0) && total <= UINT32_MAX)
        nodes = rp_alloc_large((size_t)total * sizeof *nodes);
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
    copy_job copy[2] = {{nodes, sub, jobs, 0, mid, 0.0}, {nodes, sub, jobs, mid, n, 0.0}};
    rp_thread_run_pair(copy_job_run, &copy[0], copy_job_run, &copy[1],
                       threads > 1 && total > 4096);
    free_jobs(jobs, workers);
    double weighted = rp_bvh4_weighted_area(nodes, 0, top_count);
    weighted += copy[0].weighted;
    weighted += copy[1].weighted;

    out->nodes = nodes;
    out->node_count = (uint32_t)total;
    out->prims = prims;
    out->tags = tags_out;
    out->prim_count = count;
    out->depth = max_depth;
    out->cost = rp_bvh4_cost_of(nodes, weighted);
    out->top_count = top_count;
    out->half = mid < n ? sub[mid].at : (uint32_t)total;
    return true;
}

bool rp_sbvh_build_shaped(const rp_sbox *boxes, uint32_t count, const rp_sbvh_shape *shape,
                          rp_sbvh *out)
{
    return build(boxes, NULL, NULL, count, shape, out);
}

bool rp_sbvh_build_tagged(const rp_sbox *boxes, const uint32_t *tags, uint32_t count,
                          rp_sbvh *out)
{
    const rp_sbvh_shape scene = {RP_SBVH_MAX_LEAF, 1.0, 0, true};
    return build(boxes, NULL, tags, count, &scene, out);
}

bool rp_sbvh_build_triangles(const float *tris, uint32_t count, const rp_sbvh_shape *shape,
                             rp_sbvh *out)
{
    return build(NULL, tris, NULL, count, shape, out);
}

void rp_sbvh_free(rp_sbvh *bvh)
{
    rp_free_large(bvh->nodes);
    rp_free_large(bvh->prims);
    rp_free_large(bvh->tags);
    memset(bvh, 0, sizeof *bvh);
}

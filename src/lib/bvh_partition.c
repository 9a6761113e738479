/*
 * bvh_partition.c: the builder's partition of a node's primitives by the
 * chosen plane, in place, measuring both sides as it goes; at the top of
 * the tree, two halves of a node on two threads (bvh_build.c chooses the
 * plane).
 */
#include <float.h>
#include <stddef.h>
#include <stdint.h>

#include "bvh_build_internal.h"
#include "thread_internal.h"

/* Both sides' boxes and centroid bounds, gathered while partitioning. */
typedef struct side_bounds {
    rp_v4 bmn, bmx, cmn, cmx;
} side_bounds;

static void side_bounds_empty(side_bounds *b)
{
    b->bmn = b->cmn = rp_v4_set1(FLT_MAX);
    b->bmx = b->cmx = rp_v4_set1(-FLT_MAX);
}

static void side_bounds_store(const side_bounds *b, rp_bvh_task *t)
{
    rp_v4_store(t->bmin, b->bmn);
    rp_v4_store(t->bmax, b->bmx);
    rp_v4_store(t->cmin, b->cmn);
    rp_v4_store(t->cmax, b->cmx);
}

/* The partition classifies its objects a block at a time from both ends
   (Edelkamp and Weiss's BlockQuicksort): each block notes where its
   misplaced objects are, without a branch per object (the side of a
   random object is a coin toss the branch predictor loses), and the two
   blocks' misplaced objects are then swapped pairwise. */
#define BLOCK 64

typedef struct partitioner {
    const rp_bvh_binning *bn;
    int                   axis, plane;
    side_bounds           side[2];     /* 0 left, 1 right */
} partitioner;

/* Classifies n objects, p[0], p[step], p[2 step] ...: adds each to its
   side's bounds and notes in off[] the position (0, 1, 2 ...) of those
   on side `misplaced`; returns how many. No branch per object: SSE2 adds
   each object to both sides, the other side seeing a NaN (all bits set),
   which minps/maxps ignore as their first operand. */
static uint32_t classify_block(partitioner *pt, const rp_bvh_prim *p, ptrdiff_t step, uint32_t n,
                               int misplaced, uint8_t *off)
{
    uint32_t found = 0;
    side_bounds l = pt->side[0], r = pt->side[1];
#if RP_SIMD_SSE2
    const __m128 cmin = pt->bn->cmin, scale = pt->bn->scale, zero = _mm_setzero_ps();
    const __m128 last = _mm_set1_ps((float)(pt->bn->bins - 1));
    const __m128i plane = _mm_set1_epi32(pt->plane);
    const int axis = pt->axis;
    for (uint32_t k = 0; k < n; k++) {
        const rp_bvh_prim *q = p + step * (ptrdiff_t)k;
        __m128 a = _mm_loadu_ps(q->min), b = _mm_loadu_ps(q->max), c = _mm_add_ps(a, b);
        /* rp_bvh_bins_of's arithmetic, to the same bin */
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
        const rp_bvh_prim *q = p + step * (ptrdiff_t)k;
        int ix[4];
        rp_v4 a = rp_v4_load3x(q->min), b = rp_v4_load3x(q->max), c = rp_v4_add(a, b);
        rp_bvh_bins_of(pt->bn, c, ix);
        int right = ix[pt->axis] > pt->plane;
        side_bounds *sb = right ? &r : &l;
        sb->bmn = rp_v4_min(sb->bmn, a);
        sb->bmx = rp_v4_max(sb->bmx, b);
        sb->cmn = rp_v4_min(sb->cmn, c);
        sb->cmx = rp_v4_max(sb->cmx, c);
        off[found] = (uint8_t)k;
        found += (uint32_t)(right == misplaced);
    }
#endif
    pt->side[0] = l;
    pt->side[1] = r;
    return found;
}

static void swap_prims(rp_bvh_prim *a, rp_bvh_prim *b)
{
    rp_bvh_prim tmp = *a;
    *a = *b;
    *b = tmp;
}

/* Moves the objects of [lo, hi) left of the plane to its front, adding
   every object to its side's bounds; returns the first right one. */
static uint32_t partition_range(partitioner *pt, rp_bvh_prim *p, uint32_t lo, uint32_t hi)
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
static uint32_t partition_runs(partitioner *pt, rp_bvh_prim *p, uint32_t lo, uint32_t hi)
{
    side_bounds l = pt->side[0], r = pt->side[1];
    uint32_t i = lo, j = hi;
    while (i < j) {
        int ix[4];
        rp_v4 a = rp_v4_load3x(p[i].min), b = rp_v4_load3x(p[i].max), c = rp_v4_add(a, b);
        rp_bvh_bins_of(pt->bn, c, ix);
        int right = ix[pt->axis] > pt->plane;
        if (!right) {
            l.bmn = rp_v4_min(l.bmn, a);
            l.bmx = rp_v4_max(l.bmx, b);
            l.cmn = rp_v4_min(l.cmn, c);
            l.cmx = rp_v4_max(l.cmx, c);
            i++;
        } else {
            r.bmn = rp_v4_min(r.bmn, a);
            r.bmx = rp_v4_max(r.bmx, b);
            r.cmn = rp_v4_min(r.cmn, c);
            r.cmx = rp_v4_max(r.cmx, c);
            swap_prims(&p[i], &p[--j]);
        }
    }
    pt->side[0] = l;
    pt->side[1] = r;
    return i;
}

/* One half of a big node's partition. */
typedef struct half_job {
    partitioner  pt;
    rp_bvh_prim *p;
    uint32_t     lo, hi, split;
    bool         scattered;
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
    rp_bvh_prim *p;
    uint32_t     a, b, n;
} swap_job;

static void swap_job_run(void *arg)
{
    swap_job *j = arg;
    for (uint32_t i = 0; i < j->n; i++)
        swap_prims(&j->p[j->a + i], &j->p[j->b + i]);
}

/* Scattered primitives (rp_bvh_shape) are partitioned without a branch
   per primitive, the others with one: each is the faster on its kind of
   input (docs/performance.md). The top of the tree (top_threads > 0)
   partitions each half of the node on its own, on two threads when there
   are, then swaps the first half's right primitives with the second
   half's left ones: the same primitives end in the same places on any
   number of threads. */
uint32_t rp_bvh_partition(rp_bvh_prim *p, uint32_t count, int axis, int plane,
                          const rp_bvh_binning *bn, bool scattered, int top_threads,
                          rp_bvh_task *left, rp_bvh_task *right)
{
    half_job half[2];
    for (int h = 0; h < 2; h++) {
        half[h].pt.bn = bn;
        half[h].pt.axis = axis;
        half[h].pt.plane = plane;
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
            into->bmn = rp_v4_min(into->bmn, from->bmn);
            into->bmx = rp_v4_max(into->bmx, from->bmx);
            into->cmn = rp_v4_min(into->cmn, from->cmn);
            into->cmx = rp_v4_max(into->cmx, from->cmx);
        }
    }
    side_bounds_store(&half[0].pt.side[0], left);
    side_bounds_store(&half[0].pt.side[1], right);
    return nl;
}

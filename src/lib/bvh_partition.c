/*
 * bvh_partition.c: the builder's partition of a node's primitives by the
 * chosen plane, in place; at the top of the tree, two halves of a node on
 * two threads (bvh_build.c chooses the plane, and its bins measure both
 * sides, so the partition only moves primitives).
 */
#include <stddef.h>
#include <stdint.h>

#include "bvh_build_internal.h"
#include "thread_internal.h"

/* The partition of scattered primitives classifies them a block at a time
   from both ends (Edelkamp and Weiss's BlockQuicksort): each block notes
   where its misplaced primitives are, without a branch per primitive (the
   side of a random one is a coin toss the branch predictor loses), and
   the two blocks' misplaced primitives are then swapped pairwise. */
#define BLOCK 64

typedef struct partitioner {
    const rp_bvh_binning *bn;
    int                   axis;
    float                 plane_end;    /* rp_bvh_beyond's */
} partitioner;

/* Notes in off[] the positions (0, 1, 2 ...) of those of n primitives
   p[0], p[step], p[2 step] ... that are on side `misplaced` (1: beyond
   the plane); returns how many. */
static uint32_t classify_block(const partitioner *pt, const rp_bvh_prim *p, ptrdiff_t step,
                               uint32_t n, int misplaced, uint8_t *off)
{
    uint32_t found = 0;
    for (uint32_t k = 0; k < n; k++) {
        const int right = rp_bvh_beyond(pt->bn, p + step * (ptrdiff_t)k, pt->axis, pt->plane_end);
        off[found] = (uint8_t)k;
        found += (uint32_t)(right == misplaced);
    }
    return found;
}

static void swap_prims(rp_bvh_prim *a, rp_bvh_prim *b)
{
    rp_bvh_prim tmp = *a;
    *a = *b;
    *b = tmp;
}

/* Moves the primitives of [lo, hi) left of the plane to its front;
   returns the first right one. */
static uint32_t partition_range(const partitioner *pt, rp_bvh_prim *p, uint32_t lo, uint32_t hi)
{
    /* [lo, ul): the left block, classified, nl misplaced primitives still
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
       primitives (its offsets ascend): they change places with the
       block's well placed primitives nearest its other end. */
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

/* partition_range with a branch per primitive (Hoare's): faster when the
   branch predictor guesses the sides (a mesh's triangles, in the order
   it lists them, make patterns it learns). */
static uint32_t partition_runs(const partitioner *pt, rp_bvh_prim *p, uint32_t lo, uint32_t hi)
{
    uint32_t i = lo, j = hi;
    while (i < j) {
        if (!rp_bvh_beyond(pt->bn, &p[i], pt->axis, pt->plane_end))
            i++;
        else
            swap_prims(&p[i], &p[--j]);
    }
    return i;
}

/* One half of a big node's partition. */
typedef struct half_job {
    const partitioner *pt;
    rp_bvh_prim       *p;
    uint32_t           lo, hi, split;
    bool               scattered;
} half_job;

static void half_job_run(void *arg)
{
    half_job *j = arg;
    j->split = j->scattered ? partition_range(j->pt, j->p, j->lo, j->hi)
                            : partition_runs(j->pt, j->p, j->lo, j->hi);
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
                          const rp_bvh_binning *bn, bool scattered, int top_threads)
{
    const partitioner pt = {bn, axis, (float)(plane + 1)};
    if (top_threads == 0) {
        return scattered ? partition_range(&pt, p, 0, count) : partition_runs(&pt, p, 0, count);
    }
    half_job half[2] = {{&pt, p, 0, count / 2, 0, scattered},
                        {&pt, p, count / 2, count, 0, scattered}};
    const bool threaded = top_threads > 1;
    rp_thread_run_pair(half_job_run, &half[0], half_job_run, &half[1], threaded);
    /* [split0, mid) goes right, [mid, split1) left: swap the shorter with
       the far end of the other */
    uint32_t a = half[0].split, mid = half[0].hi, b = half[1].split;
    uint32_t n = mid - a < b - mid ? mid - a : b - mid;
    swap_job swaps[2] = {{p, a, b - n, n / 2}, {p, a + n / 2, b - n + n / 2, n - n / 2}};
    rp_thread_run_pair(swap_job_run, &swaps[0], swap_job_run, &swaps[1], threaded && n > 4096);
    return a + (b - mid);
}

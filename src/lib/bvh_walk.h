/*
 * bvh_walk.h: a ray's nearest-first walk of a wide tree (bvh4.h), the
 * caller's leaves through a callback; not installed. The walk is a job of
 * simd.c's table: rp_bvh_walk_avx (bvh_walk_avx.c) tests both halves of
 * an eight-wide node with one 256-bit operation per row (rp_bvh_walk_avx2:
 * the same, its max and min as integers), rp_bvh_walk_base
 * (bvh4.c) half by half with rp_bvh4_enter (SSE2, or plain C). All run
 * rp_bvh_walk_loop below with their own node test, which gives the same
 * masks and entry distances bit for bit (the same float operations in the
 * same order; the AVX2 test's integer max and min order the same bits),
 * so they visit the same nodes in the same order and hand the callback
 * the same leaves.
 *
 * The scene's plain ray query walks this way (scene.c); its queries with
 * a filter, a tolerance or a trace keep their own walk.
 */
#ifndef RAYPICK_BVH_WALK_H
#define RAYPICK_BVH_WALK_H

#include <stdint.h>

#include "bvh4.h"
#include "internal.h"

/* What a walk needs; the zero value is not a valid walk. */
typedef struct rp_bvh_walk {
    const rp_bvh4_node *nodes;      /* node 0 is the root; at least one node */
    uint32_t            halves;     /* 1: BVH4, 2: wide tree (bvh4.h) */
    const rp_bvh4_ray  *ray;        /* rp_bvh4_ray_setup's */
    float               t_max;      /* boxes entered beyond it are skipped */
    /* Tests leaf entries [first, first + count) and returns the new t_max
       (the old one when nothing nearer was found). */
    float (*leaf)(void *user, uint32_t first, uint32_t count);
    void *user;
    /* Starts loading what leaf entries [first, first + count) will read,
       as soon as the leaf waits on the stack (NULL: nothing). */
    void (*leaf_prefetch)(void *user, uint32_t first, uint32_t count);
} rp_bvh_walk;

/* The baseline walk (bvh4.c): SSE2 where compiled in, else plain C. */
void rp_bvh_walk_base(const rp_bvh_walk *w);
#if RP_SIMD_DISPATCH
/* The AVX kernel (bvh_walk_avx.c): only where rp_simd_isa() >= RP_ISA_AVX. */
void rp_bvh_walk_avx(const rp_bvh_walk *w);
/* Its node test alone, for the tests: rp_bvh4_enter on each of the
   `halves` halves from n, bit for bit (slot s: lane s % 4 of half s / 4). */
int rp_bvh_enter_avx(const rp_bvh4_node *n, uint32_t halves, const rp_bvh4_ray *ray, float t_max,
                     float t_enter[RP_BVH8_SLOTS]);
/* The AVX2 kernel (bvh_walk_avx2.c), its intervals' ends as integers
   where no slab can be NaN: only where rp_simd_isa() >= RP_ISA_AVX2. */
void rp_bvh_walk_avx2(const rp_bvh_walk *w);
/* Its node test alone, for the tests: as rp_bvh_enter_avx. */
int rp_bvh_enter_avx2(const rp_bvh4_node *n, uint32_t halves, const rp_bvh4_ray *ray,
                      float t_max, float t_enter[RP_BVH8_SLOTS]);
#endif

/* Starts loading a child: a node's lines, or what a leaf will read (w's
   leaf_prefetch). The tree's fields come as arguments: locals of the
   loop, which the leaf callback cannot change behind its back. */
static RP_INLINE_ALWAYS void rp_bvh_walk_prefetch(const rp_bvh_walk *w, const rp_bvh4_node *nodes,
                                                  uint32_t halves, const rp_bvh4_ref *r)
{
    if (r->count > 0) {
        if (w->leaf_prefetch != NULL)
            w->leaf_prefetch(w->user, r->first, r->count);
        return;
    }
    const char *line = (const char *)&nodes[rp_bvh4_child_first(r->first, halves)];
    for (uint32_t i = 0; i < 2 * rp_bvh4_child_halves(r->first, halves); i++)
        RP_PREFETCH(line + 64 * i);
}

/* The node test a walk brings: bit s of the result set when child slot s
   of the node of `halves` halves from n is used and the ray meets its box
   within [0, t_max], t_enter[s] then where (rp_bvh4_enter per half). */
typedef int (*rp_bvh_walk_enter_fn)(const rp_bvh4_node *n, uint32_t halves, const void *ray,
                                    float t_max, float t_enter[RP_BVH8_SLOTS]);

/* Depth first, nearest child first; a pending child entered beyond t_max
   is skipped. `enter` is a constant of each caller, so it is inlined and
   its ray constants stay in registers. */
static RP_INLINE_ALWAYS void rp_bvh_walk_loop(const rp_bvh_walk *w, const void *ray,
                                              rp_bvh_walk_enter_fn enter)
{
    const rp_bvh4_node *nodes = w->nodes;
    const uint32_t tree_halves = w->halves;
    float t_max = w->t_max;
    rp_bvh4_ref stack[RP_BVH8_STACK];
    int sp = 0;
    rp_bvh4_ref cur = {rp_bvh4_root(tree_halves), 0, 0.0f};
    for (;;) {
        if (cur.count > 0) {
            t_max = w->leaf(w->user, cur.first, cur.count);
        } else {
            const uint32_t first = rp_bvh4_child_first(cur.first, tree_halves);
            const rp_bvh4_node *n = &nodes[first];
            float t_enter[RP_BVH8_SLOTS];
            const int mask = enter(n, rp_bvh4_child_halves(cur.first, tree_halves), ray, t_max,
                                   t_enter);
            /* one or two children entered (most nodes): no sort, and no
               prefetch of the one visited next (it is loaded right away) */
            const int rest = mask & (mask - 1);
            if (mask != 0 && (rest & (rest - 1)) == 0) {
                /* (not "near" and "far": <windows.h> defines both away) */
                int nearer = rp_bvh4_lowest_slot(mask);
                if (rest != 0) {
                    const int other = rp_bvh4_lowest_slot(rest);
                    const int farther = t_enter[other] < t_enter[nearer] ? nearer : other;
                    nearer = nearer + other - farther;
                    stack[sp] = rp_bvh4_child(n, farther, t_enter[farther]);
                    rp_bvh_walk_prefetch(w, nodes, tree_halves, &stack[sp]);
                    sp++;
                }
                cur = rp_bvh4_child(n, nearer, t_enter[nearer]);
                continue;
            }
            if (mask != 0) {
                /* three or more: nearest first (rp_bvh4_order's keys); the
                   far ones wait on the stack (RP_BVH8_STACK: its bound),
                   each asked for as it is pushed */
                uint32_t key[RP_BVH8_SLOTS];
                const int more = rest & (rest - 1);
                int k = 3;
                if ((more & (more - 1)) == 0)
                    rp_bvh4_order3_keys(mask, t_enter, key);
                else
                    k = rp_bvh4_order_keys(mask, t_enter, key);
                for (int j = k - 1; j > 0; j--) {
                    stack[sp] = rp_bvh4_child_of_key(n, key[j]);
                    rp_bvh_walk_prefetch(w, nodes, tree_halves, &stack[sp]);
                    sp++;
                }
                cur = rp_bvh4_child_of_key(n, key[0]);
                continue;
            }
        }
        /* pop, skipping boxes entered beyond the best hit so far */
        for (;;) {
            if (sp == 0)
                return;
            cur = stack[--sp];
            if (cur.t_enter <= t_max)
                break;
        }
    }
}

#endif /* RAYPICK_BVH_WALK_H */

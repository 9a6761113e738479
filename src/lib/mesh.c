/* mesh.c: triangle meshes: creation (validated, copied) and ray queries
   over the BVH (mesh_bvh.c) with the watertight triangle test
   (triangle_internal.h). A leaf's triangles go through simd.c's filter
   first (tri_filter.h: the edge functions of a whole leaf, SSE2 or AVX);
   every version keeps the same ones. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "raypick/mesh.h"
#include "internal.h"
#include "mesh_internal.h"
#include "bvh_walk.h"
#include "simd.h"
#include "thread_internal.h"
#include "tri_filter.h"
#include "triangle_internal.h"

/* ---- creation ---------------------------------------------------------- */

static const float *vertex_at(const float *positions, size_t stride_floats, size_t i)
{
    return positions + i * stride_floats;
}

static void triangle_vertices(const uint32_t *indices, size_t t, size_t v[3])
{
    for (int k = 0; k < 3; k++)
        v[k] = indices ? indices[3 * t + (size_t)k] : 3 * t + (size_t)k;
}

/* Meshes of fewer triangles check and copy them on one thread. */
#define MESH_THREADED_MIN 65536

/* One half of rp_mesh_create's two passes over the triangles
   [first, end): the check (ok, box, prims: the non-degenerate ones) and,
   when some are degenerate, the numbers of the others (to index from
   first_out on). */
typedef struct mesh_pass {
    const float    *positions;
    const uint32_t *indices;
    size_t          vertex_count, stride, first, end;
    bool            ok;
    rp_aabb         box;
    size_t          prims;
    uint32_t       *index;
    size_t          first_out;
} mesh_pass;

static void check_pass_run(void *arg)
{
    mesh_pass *j = arg;
    for (size_t t = j->first; t < j->end; t++) {
        size_t v[3];
        triangle_vertices(j->indices, t, v);
        const float *p[3];
        for (int k = 0; k < 3; k++) {
            if (v[k] >= j->vertex_count) {
                j->ok = false;
                return;
            }
            p[k] = vertex_at(j->positions, j->stride, v[k]);
            if (!rp_vec3_finite(p[k])) {
                j->ok = false;
                return;
            }
            for (int a = 0; a < 3; a++) {   /* finite: no NaN to care for */
                j->box.min[a] = p[k][a] < j->box.min[a] ? p[k][a] : j->box.min[a];
                j->box.max[a] = p[k][a] > j->box.max[a] ? p[k][a] : j->box.max[a];
            }
        }
        j->prims += !rp_tri_is_degenerate(p[0], p[1], p[2]);
    }
}

static void index_pass_run(void *arg)
{
    mesh_pass *j = arg;
    size_t n = j->first_out;
    for (size_t t = j->first; t < j->end; t++) {
        size_t v[3];
        triangle_vertices(j->indices, t, v);
        const float *p0 = vertex_at(j->positions, j->stride, v[0]);
        const float *p1 = vertex_at(j->positions, j->stride, v[1]);
        const float *p2 = vertex_at(j->positions, j->stride, v[2]);
        if (!rp_tri_is_degenerate(p0, p1, p2))
            j->index[n++] = (uint32_t)t;
    }
}

rp_mesh *rp_mesh_create(const float *positions, size_t vertex_count, size_t stride_bytes,
                        const uint32_t *indices, size_t triangle_count)
{
    if (positions == NULL || triangle_count == 0 || triangle_count > (size_t)INT32_MAX)
        return NULL;
    if (stride_bytes == 0)
        stride_bytes = 3 * sizeof(float);
    if (stride_bytes < 3 * sizeof(float) || stride_bytes % sizeof(float) != 0)
        return NULL;
    /* no array of that many vertices can exist: the counts are wrong */
    if (vertex_count > SIZE_MAX / stride_bytes || triangle_count > SIZE_MAX / 3)
        return NULL;
    if (indices == NULL && triangle_count > vertex_count / 3)
        return NULL;
    size_t stride = stride_bytes / sizeof(float);

    /* Each pass runs over two halves of the triangles, on two threads
       when the mesh is big enough to pay for one. */
    const bool threaded = triangle_count >= MESH_THREADED_MIN && rp_cpu_count() > 1;
    mesh_pass half[2];
    for (int h = 0; h < 2; h++) {
        mesh_pass j = {positions, indices, vertex_count, stride,
                       h == 0 ? 0 : triangle_count / 2, h == 0 ? triangle_count / 2 : triangle_count,
                       true, {{INFINITY, INFINITY, INFINITY}, {-INFINITY, -INFINITY, -INFINITY}},
                       0, NULL, 0};
        half[h] = j;
    }
    /* Pass 1, before any allocation: every index in range, every used
       vertex finite; the bounds; how many triangles are not degenerate. */
    rp_thread_run_pair(check_pass_run, &half[0], check_pass_run, &half[1], threaded);
    if (!half[0].ok || !half[1].ok)
        return NULL;
    size_t prims = half[0].prims + half[1].prims;
    rp_aabb box = half[0].box;
    for (int a = 0; a < 3; a++) {
        box.min[a] = half[1].box.min[a] < box.min[a] ? half[1].box.min[a] : box.min[a];
        box.max[a] = half[1].box.max[a] > box.max[a] ? half[1].box.max[a] : box.max[a];
    }

    rp_mesh *m = calloc(1, sizeof *m);
    /* The BVH is built from the caller's arrays as they are: no copy of
       the triangles beside the builder's records and the packets (the
       peak memory, bench/bench_mesh_peak.c). Only when some triangles are
       degenerate (they can never be hit) a list of the others. */
    uint32_t *index = prims < triangle_count ? rp_alloc_large(prims * sizeof *index) : NULL;
    if (!m || (prims < triangle_count && prims > 0 && !index)) {
        free(m);
        rp_free_large(index);
        return NULL;
    }
    if (index) {
        for (int h = 0; h < 2; h++)
            half[h].index = index;
        half[1].first_out = half[0].prims;
        rp_thread_run_pair(index_pass_run, &half[0], index_pass_run, &half[1], threaded && prims > 0);
    }
    m->triangle_count = triangle_count;
    m->walk = rp_simd_bvh_walk();
    m->filter = rp_simd_tri_filter();
    m->bounds = box;
    m->max_abs = 0.0f;
    for (int a = 0; a < 3; a++)
        m->max_abs = fmaxf(m->max_abs, fmaxf(fabsf(box.min[a]), fabsf(box.max[a])));
    const rp_tri_source source = {positions, stride, indices, index};
    bool built = rp_mesh_bvh_build(&source, (uint32_t)prims, &m->bvh);
    rp_free_large(index);
    if (!built) {
        free(m);
        return NULL;
    }
    return m;
}

void rp_mesh_destroy(rp_mesh *m)
{
    if (m == NULL)
        return;
    rp_mesh_bvh_free(&m->bvh);
    free(m);
}

size_t rp_mesh_triangle_count(const rp_mesh *m)
{
    return m ? m->triangle_count : 0;
}

bool rp_mesh_bounds(const rp_mesh *m, rp_aabb *out)
{
    if (m == NULL)
        return false;
    if (out)
        *out = m->bounds;
    return true;
}

/* ---- traversal --------------------------------------------------------- */

/* The ray as the walk needs it: bvh4.h's slab test set-up (the padded,
   conservative box test shared with the scene: why it never rejects a box
   holding a triangle rp_tri_intersect would report is said there) and the
   watertight triangle test's shear. */
typedef struct trav_ray {
    rp_bvh4_ray box;
    rp_tri_ray  tri;
} trav_ray;

static void trav_setup(const rp_mesh *m, const rp_ray *ray, trav_ray *r)
{
    rp_tri_ray_setup(ray, &r->tri);
    rp_bvh4_ray_setup(ray, m->max_abs, &r->box);
}

/* A child reference (rp_bvh4_ref): a wide node (count == 0; first:
   rp_bvh8_ref) or a leaf of count triangles from slot first; t_enter:
   where the ray enters its box. */
typedef rp_bvh4_ref stack_entry;

/* Bit s set when the ray enters child slot s of the wide node whose
   first half is n (and second, when `two`) within t_max, with t_enter[s]
   where. Empty slots never count: their inverted boxes stop no ray whose
   pad overflowed to infinity (then every slab is NaN, no constraint). */
static inline int child_mask(const rp_bvh4_node *n, bool two, const trav_ray *r, float t_max,
                             float t_enter[RP_BVH8_SLOTS])
{
    const int lo = rp_bvh4_enter(&n[0], &r->box, t_max, t_enter);
    if (!two)
        return lo;
    const int hi = rp_bvh4_enter(&n[1], &r->box, t_max, t_enter + 4);
    return lo | hi << 4;
}

/* The most lines a child takes: a leaf's four packets (640 bytes) from
   any point of a line. */
#define PREFETCH_LINES 11

/* Starts loading every cache line of a child: a wide node's (two per
   half), a leaf's packets' (up to three per packet: 160 bytes need not
   start a line). */
static inline void prefetch_child(const rp_mesh *m, const stack_entry *e)
{
    const char *line, *last;
    if (e->count > 0) {
        line = (const char *)&m->bvh.packs[e->first / RP_TRI4_LANES];
        last = (const char *)&m->bvh.packs[(e->first + e->count - 1) / RP_TRI4_LANES + 1] - 1;
    } else {
        line = (const char *)&m->bvh.nodes[rp_bvh8_first(e->first)];
        last = line + (rp_bvh8_two(e->first) ? 2 : 1) * sizeof(rp_bvh4_node) - 1;
    }
    /* a fixed count of lines, the ones past `last` asked for as `last`:
       a loop's exit would be a mispredicted branch per child */
    for (int i = 0; i < PREFETCH_LINES; i++) {
        const char *at = line + 64 * i;
        RP_PREFETCH(at < last ? at : last);
    }
}

/* The children of `mask` (child_mask's), nearest first (rp_bvh4_order),
   each asked for: returns how many. */
static inline int sort_children(const rp_mesh *m, const rp_bvh4_node *n, int mask,
                                const float t_enter[RP_BVH8_SLOTS], stack_entry out[RP_BVH8_SLOTS])
{
    const int k = rp_bvh4_order(n, mask, t_enter, out);
    for (int j = 0; j < k; j++)
        prefetch_child(m, &out[j]);
    return k;
}

/* ---- the triangles ------------------------------------------------------ */

/* The vertices (v0, v1, v2) of the triangle in slot s of the packets. */
static inline void slot_vertices(const rp_mesh *m, uint32_t s, float p[9])
{
    const rp_tri4 *pk = &m->bvh.packs[s / RP_TRI4_LANES];
    const uint32_t lane = s % RP_TRI4_LANES;
    for (int k = 0; k < 9; k++)
        p[k] = pk->v[k][lane];
}

static inline uint32_t slot_index(const rp_mesh *m, uint32_t s)
{
    return m->bvh.packs[s / RP_TRI4_LANES].index[s % RP_TRI4_LANES];
}

/* The triangle test of slot s of the mesh, exactly as
   rp_intersect_ray_triangle makes it, including its refusal of a hit
   whose point cannot be represented. */
static inline bool prim_hit(const rp_mesh *m, const rp_ray *ray, const trav_ray *r, uint32_t s,
                            rp_tri_result *res)
{
    float p[9];
    slot_vertices(m, s, p);
    if (!rp_tri_intersect(&r->tri, p, p + 3, p + 6, res))
        return false;
    vec3 point;
    rp_ray_at(ray, res->t, point);
    return rp_vec3_finite(point);
}

/* The slots of [first, first + count) the ray may hit (tri_filter.h):
   bit j for slot 4 (first / 4) + j. Most triangles of a leaf miss, so
   most leaves end here. */
static inline unsigned leaf_candidates(const rp_mesh *m, const trav_ray *r, uint32_t first,
                                       uint32_t count)
{
    return m->filter(m->bvh.packs, first, count, &r->tri);
}

typedef struct nearest {
    float         t;
    uint32_t      prim;  /* its slot in the packets */
    uint32_t      tri;   /* original index: the tie-breaker */
    rp_tri_result res;
} nearest;

/* What the walk's callbacks (bvh_walk.h) share: the query and its best
   hit so far. */
typedef struct mesh_walk {
    const rp_mesh *m;
    const rp_ray  *ray;
    trav_ray       r;
    bool           any, found;
    nearest       *best;
} mesh_walk;

/* The walk's callback: every cache line of the leaf's packets
   (prefetch_child). */
static void prefetch_leaf(void *user, uint32_t first, uint32_t count)
{
    const stack_entry leaf = {first, count, 0.0f};
    prefetch_child(((const mesh_walk *)user)->m, &leaf);
}

/* The leaf's triangles against the best hit so far: returns the walk's
   new t_max, -1 (nothing more to visit) once an any-hit query has one. */
static float test_leaf(void *user, uint32_t first, uint32_t count)
{
    mesh_walk *w = user;
    const rp_mesh *m = w->m;
    nearest *best = w->best;
    const uint32_t base = first - first % RP_TRI4_LANES;
    for (unsigned cand = leaf_candidates(m, &w->r, first, count); cand != 0; cand &= cand - 1) {
        rp_tri_result res;
        const uint32_t i = base + (uint32_t)rp_bvh4_lowest_slot((int)cand);
        if (!prim_hit(m, w->ray, &w->r, i, &res) || res.t > best->t)
            continue;
        uint32_t tri = slot_index(m, i);
        if (w->found && res.t == best->t && tri > best->tri)
            continue;
        w->found = true;
        best->t = res.t;
        best->prim = i;
        best->tri = tri;
        best->res = res;
        if (w->any)
            return -1.0f;
    }
    return best->t;
}

/* Nearest hit with t <= t_max (ties: lowest original index); any = stop
   at the first hit. The walk simd.c's table picks for this CPU
   (bvh_walk.h): children nearest first; a pending child entered after the
   best hit so far is skipped (one entered exactly there is not: it may
   hold a tie with a lower index). */
static bool traverse(const rp_mesh *m, const rp_ray *ray, float t_max, bool any, nearest *best)
{
    if (m->bvh.node_count == 0)
        return false;
    mesh_walk mw;
    mw.m = m;
    mw.ray = ray;
    mw.any = any;
    mw.found = false;
    mw.best = best;
    trav_setup(m, ray, &mw.r);
    best->t = t_max;
    const rp_bvh_walk w = {m->bvh.nodes, 2, &mw.r.box, t_max, test_leaf, &mw, prefetch_leaf};
    m->walk(&w);
    return mw.found;
}

static void report(const rp_mesh *m, const rp_ray *ray, const nearest *b, rp_hit *out,
                   rp_triangle_hit *tri)
{
    if (out) {
        /* the point and the normal (a square root and a division in
           double) only for a caller who asks for them; cannot fail:
           prim_hit checked the point, the triangle is not degenerate */
        float p[9];
        slot_vertices(m, b->prim, p);
        rp_tri_make_hit(ray, p, p + 3, p + 6, &b->res, out);
    }
    if (tri) {
        tri->triangle = b->tri;
        tri->u = b->res.u;
        tri->v = b->res.v;
    }
}

bool rp_intersect_ray_mesh(const rp_mesh *m, const rp_ray *ray, rp_hit *out,
                           rp_triangle_hit *tri)
{
    if (m == NULL || !rp_ray_valid(ray))
        return false;
    nearest best;
    if (!traverse(m, ray, INFINITY, false, &best))
        return false;
    report(m, ray, &best, out, tri);
    return true;
}

bool rp_test_ray_mesh(const rp_mesh *m, const rp_ray *ray, float t_max)
{
    if (m == NULL || !rp_ray_valid(ray) || !(t_max >= 0.0f))
        return false;
    nearest best;
    return traverse(m, ray, t_max, true, &best);
}

/* ---- all hits ------------------------------------------------------------ */

typedef struct any_hit {
    float         t;
    uint32_t      tri, prim;   /* original index, slot in the packets */
    rp_tri_result res;
} any_hit;

static int cmp_hits(const void *a, const void *b)
{
    const any_hit *x = a, *y = b;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    return (x->tri > y->tri) - (x->tri < y->tri);
}

/* Every hit goes into a buffer that starts on the stack and doubles on
   the heap (never more than the mesh's triangle count, since each
   triangle is hit once at most); it is freed before returning. On out of
   memory the query fails (returns 0). */
#define LOCAL_HITS 64

size_t rp_intersect_ray_mesh_all(const rp_mesh *m, const rp_ray *ray, rp_hit *hits,
                                 rp_triangle_hit *tris, size_t max_hits)
{
    if (m == NULL || !rp_ray_valid(ray) || m->bvh.node_count == 0)
        return 0;
    trav_ray r;
    trav_setup(m, ray, &r);
    any_hit local[LOCAL_HITS];
    any_hit *buf = local;
    size_t count = 0, cap = LOCAL_HITS;
    stack_entry stack[RP_BVH8_STACK];
    int sp = 0;
    stack[sp++] = (stack_entry){rp_bvh8_ref(0, true), 0, 0.0f};
    while (sp > 0) {
        stack_entry n = stack[--sp];
        if (n.count == 0) {
            const rp_bvh4_node *node = &m->bvh.nodes[rp_bvh8_first(n.first)];
            float t_enter[RP_BVH8_SLOTS];
            stack_entry hit[RP_BVH8_SLOTS];
            const int mask = child_mask(node, rp_bvh8_two(n.first), &r, INFINITY, t_enter);
            int k = sort_children(m, node, mask, t_enter, hit);
            for (int i = 0; i < k; i++)
                stack[sp++] = hit[i];
            continue;
        }
        const uint32_t base = n.first - n.first % RP_TRI4_LANES;
        for (unsigned cand = leaf_candidates(m, &r, n.first, n.count); cand != 0; cand &= cand - 1) {
            rp_tri_result res;
            const uint32_t i = base + (uint32_t)rp_bvh4_lowest_slot((int)cand);
            if (!prim_hit(m, ray, &r, i, &res))
                continue;
            if (count == cap) {
                size_t grown = cap * 2;
                any_hit *nb = malloc(grown * sizeof *nb);
                if (nb == NULL) {
                    if (buf != local)
                        free(buf);
                    return 0;
                }
                memcpy(nb, buf, count * sizeof *nb);
                if (buf != local)
                    free(buf);
                buf = nb;
                cap = grown;
            }
            buf[count++] = (any_hit){res.t, slot_index(m, i), i, res};
        }
    }
    qsort(buf, count, sizeof *buf, cmp_hits);
    for (size_t k = 0; k < count && k < max_hits; k++) {
        float p[9];
        slot_vertices(m, buf[k].prim, p);
        if (hits)
            rp_tri_make_hit(ray, p, p + 3, p + 6, &buf[k].res, &hits[k]);
        if (tris) {
            tris[k].triangle = buf[k].tri;
            tris[k].u = buf[k].res.u;
            tris[k].v = buf[k].res.v;
        }
    }
    if (buf != local)
        free(buf);
    return count;
}

/* ---- instances ----------------------------------------------------------- */

/* The inverse of an affine matrix's 3x3 part, in double; false when the
   matrix is not affine (last row 0 0 0 1), not finite or singular. */
static bool affine_inverse(mat4 m, double inv[3][3])
{
    if (!rp_mat4_finite(m) || m[0][3] != 0.0f || m[1][3] != 0.0f || m[2][3] != 0.0f ||
        m[3][3] != 1.0f)
        return false;
    /* a[r][c]: row r, column c of the linear part (cglm: m[column][row]) */
    double a[3][3];
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
            a[r][c] = m[c][r];
    double c00 = a[1][1] * a[2][2] - a[1][2] * a[2][1];
    double c01 = a[1][2] * a[2][0] - a[1][0] * a[2][2];
    double c02 = a[1][0] * a[2][1] - a[1][1] * a[2][0];
    double det = a[0][0] * c00 + a[0][1] * c01 + a[0][2] * c02;
    if (det == 0.0 || !isfinite(det))
        return false;
    double id = 1.0 / det;
    inv[0][0] = c00 * id;
    inv[1][0] = c01 * id;
    inv[2][0] = c02 * id;
    inv[0][1] = (a[0][2] * a[2][1] - a[0][1] * a[2][2]) * id;
    inv[1][1] = (a[0][0] * a[2][2] - a[0][2] * a[2][0]) * id;
    inv[2][1] = (a[0][1] * a[2][0] - a[0][0] * a[2][1]) * id;
    inv[0][2] = (a[0][1] * a[1][2] - a[0][2] * a[1][1]) * id;
    inv[1][2] = (a[0][2] * a[1][0] - a[0][0] * a[1][2]) * id;
    inv[2][2] = (a[0][0] * a[1][1] - a[0][1] * a[1][0]) * id;
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
            if (!isfinite(inv[r][c]))
                return false;
    /* Numerically singular: when A inv is not the identity to well below
       float precision, the model-space ray would be noise (a column of
       1e-44 next to ones of 1e30 gave hits 1e31 away from the mesh). */
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) {
            double e = a[r][0] * inv[0][c] + a[r][1] * inv[1][c] + a[r][2] * inv[2][c];
            if (!(fabs(e - (r == c ? 1.0 : 0.0)) <= 0x1p-30))
                return false;
        }
    return true;
}

/* Where the model-space ray's float copy starts, as a t on it (>= 0).
   Rounding that ray to float moves it by about 2^-24 of its coordinates;
   a skewed or badly scaled model can put a world origin near the mesh
   millions of model units away (origin 3e7, mesh 1), and the rounded ray
   then passes a whole mesh width from the true one: hits the world ray
   never makes. So when the copy is inexact, it starts just before the
   ball around the mesh's bounds, where its coordinates are of the mesh's
   size; no hit lies before that point. An exact copy (identity, most
   ordinary models) starts at the origin, as the plain query does. */
static double local_start(const rp_mesh *m, const double o[3], const double d[3])
{
    bool exact = true;
    for (int k = 0; k < 3; k++)
        exact = exact && (double)(float)o[k] == o[k] && (double)(float)d[k] == d[k];
    if (exact)
        return 0.0;
    double c[3], r2 = 0.0, cd = 0.0, dd = 0.0;
    for (int k = 0; k < 3; k++) {
        const double half = 0.5 * ((double)m->bounds.max[k] - m->bounds.min[k]);
        c[k] = 0.5 * ((double)m->bounds.max[k] + m->bounds.min[k]);
        r2 += half * half;
        cd += (c[k] - o[k]) * d[k];
        dd += d[k] * d[k];
    }
    if (!(dd > 0.0) || !isfinite(dd) || !isfinite(cd))
        return 0.0;
    /* the ray's closest approach to the centre, backed off by the ball's
       radius (with a margin for this double arithmetic) */
    const double t = (cd - 1.01 * sqrt(r2) * sqrt(dd)) / dd - 1e-9 * fabs(cd / dd);
    return t > 0.0 && isfinite(t) ? t : 0.0;
}

bool rp_intersect_ray_mesh_instance(const rp_mesh *m, mat4 model, const rp_ray *ray,
                                    rp_hit *out, rp_triangle_hit *tri)
{
    double inv[3][3];
    if (m == NULL || model == NULL || !rp_ray_valid(ray) || !affine_inverse(model, inv))
        return false;
    /* the ray in model space: o' = A^-1 (o - b), d' = A^-1 d; t is the
       same number in both spaces (an affine map keeps the parameter) */
    double o[3], d[3];
    for (int i = 0; i < 3; i++) {
        o[i] = (double)ray->origin[i] - model[3][i];
        d[i] = ray->dir[i];
    }
    double lo[3], ld[3];
    for (int r = 0; r < 3; r++) {
        lo[r] = inv[r][0] * o[0] + inv[r][1] * o[1] + inv[r][2] * o[2];
        ld[r] = inv[r][0] * d[0] + inv[r][1] * d[1] + inv[r][2] * d[2];
    }
    const double t_start = local_start(m, lo, ld);
    rp_ray local;
    for (int r = 0; r < 3; r++) {
        local.origin[r] = (float)(lo[r] + t_start * ld[r]);
        local.dir[r] = (float)ld[r];
    }
    if (!rp_ray_valid(&local))
        return false;
    nearest best;
    if (!traverse(m, &local, INFINITY, false, &best))
        return false;
    best.t = (float)(t_start + best.t);
    if (!isfinite(best.t))
        return false;
    rp_hit lh;
    float p[9];
    slot_vertices(m, best.prim, p);
    rp_tri_make_hit(&local, p, p + 3, p + 6, &best.res, &lh);

    rp_hit hit;
    hit.t = hit.t_enter = hit.t_exit = best.t;
    rp_ray_at(ray, best.t, hit.point);
    /* normals go by the inverse transpose: n_world = A^-T n_model. The
       model normal faces the ray there, and n_world . d_world =
       n_model . d_model, so it faces the ray here too. */
    double n[3], len = 0.0;
    for (int c = 0; c < 3; c++) {
        n[c] = inv[0][c] * lh.normal[0] + inv[1][c] * lh.normal[1] + inv[2][c] * lh.normal[2];
        len += n[c] * n[c];
    }
    len = sqrt(len);
    if (!rp_vec3_finite(hit.point) || !(len > 0.0) || !isfinite(len))
        return false;
    for (int c = 0; c < 3; c++)
        hit.normal[c] = (float)(n[c] / len);
    hit.inside = lh.inside;   /* the mesh's own faces decide, mirrored or not */
    if (out)
        *out = hit;
    if (tri) {
        tri->triangle = best.tri;
        tri->u = best.res.u;
        tri->v = best.res.v;
    }
    return true;
}

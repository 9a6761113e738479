/*
 * scene.c: many objects under one BVH (bvh_build.c), picked with each
 * object's own ray function.
 *
 * Two states live side by side. The pending one is what rp_scene_add_* and
 * rp_scene_set_* change: every object's kind, its slot in its kind's array,
 * its world box, and the kind arrays themselves. The built one is what
 * queries read: the tree and a snapshot of the kind arrays taken by
 * rp_scene_build. Queries see only the first built_count objects, so an add
 * or a move stays invisible until the next build, as the contract asks.
 * The build takes its snapshot by swapping each kind's two arrays, not by
 * copying one into the other: the old snapshot becomes the pending array,
 * stale in the slots the build took new data from. A set overwrites a
 * stale slot anyway; the next build first copies back only the stale
 * slots nothing set since. When every object moves every frame, nothing is
 * copied at all.
 *
 * The tree is the builder's binary tree collapsed into nodes of up to
 * eight children, two BVH4 halves side by side (bvh4.h), walked nearest
 * child first with the four-box slab test on each half; moves refit its
 * boxes in place. Eight children rather than four: a ray descends about
 * two levels for every three, and on a big scene each level is a cache
 * miss it waits for (docs/performance.md). Boxes are computed in double
 * and rounded outwards to float with a small relative margin, and the slab test is conservative
 * (bvh4.h): a box never cuts off a hit its object's own function would
 * report, so the scene's answer equals the brute-force loop over every
 * object.
 *
 * Layer masks live beside the tree, not in its nodes (whose halves' 128
 * bytes are two cache lines each, kept for the unfiltered walk): once any
 * mask is set, every half has four slot masks (the OR of the masks of the
 * objects under each child) and every leaf entry its object's mask,
 * recomputed by the builds that rebuild the tree or follow a mask change. Thin objects
 * (points, segments, polylines) sit in the tree by their bounds widened
 * by their own world tolerance; a query that adds a tolerance, or one
 * that grows along the ray (pixels), walks the boxes widened by it
 * (rp_bvh4_enter_cone). Frustum queries classify the same boxes against
 * the six planes (frustum_internal.h).
 */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "raypick/scene.h"
#include "bvh4.h"
#include "bvh_walk.h"
#include "frustum_internal.h"
#include "internal.h"
#include "quadric.h"
#include "thread_internal.h"
#include "bvh_build.h"

enum kind {
    KIND_SPHERE, KIND_ELLIPSOID, KIND_AABB, KIND_OBB, KIND_MESH,
    KIND_POINT, KIND_SEGMENT, KIND_POLYLINE, KIND_COUNT   /* 8: three bits */
};

typedef struct mesh_instance {
    mat4           model;
    const rp_mesh *mesh;
} mesh_instance;

/* Thin objects with their own tolerance. */
typedef struct thin_point {
    vec3              p;
    rp_thin_tolerance tol;
} thin_point;

typedef struct thin_segment {
    vec3              ends[2];   /* a, b: six floats in a row, a polyline of two */
    rp_thin_tolerance tol;
} thin_segment;

/* The points are the scene's copy, packed, never changed once made: a
   set makes a new copy, and the old one waits in retired[] until the
   build after which no snapshot points to it. */
typedef struct thin_polyline {
    float            *xyz;
    uint32_t          count;
    rp_thin_tolerance tol;
} thin_polyline;

static const size_t kind_size[KIND_COUNT] = {
    sizeof(rp_sphere), sizeof(rp_ellipsoid), sizeof(rp_aabb), sizeof(rp_obb),
    sizeof(mesh_instance), sizeof(thin_point), sizeof(thin_segment), sizeof(thin_polyline),
};

#define RP_SLOT_BITS 29
#define RP_SLOT_MAX ((1u << RP_SLOT_BITS) - 1u)

/* One kind's objects, in the order they were added. */
typedef struct kind_array {
    unsigned char *data;
    size_t count, cap;      /* elements */
} kind_array;

/* One bit per slot of a kind's pending array: dirty, set (or added) since
   the last build; stale, older than the snapshot's copy (the build's swap
   left it so, and nothing has set it since). */
typedef struct kind_marks {
    uint64_t *dirty, *stale;
    size_t    words;
} kind_marks;

struct rp_scene {
    /* per object, by index */
    uint32_t      *where;   /* kind << RP_SLOT_BITS | slot in its kind's array */
    rp_bvh_box    *box;     /* world box, pending                          */
    uint32_t      *mask;    /* layer mask, pending; NULL (all ones) until
                               the first rp_scene_set_mask              */
    size_t         count, cap;

    kind_array pending[KIND_COUNT];
    kind_array built[KIND_COUNT];   /* snapshot at the last build          */
    kind_marks marks[KIND_COUNT];   /* the pending slots' state            */
    size_t     built_count;         /* objects the tree covers             */
    bool       moved;               /* a set_* since the last build        */
    bool       masks_used;          /* a set_mask ever: the tree has masks */
    bool       masks_changed;       /* a set_mask since the last build     */
    float      thin_per_t;          /* largest per_t of a thin object
                                       (pending; never shrinks)            */
    float      built_thin_per_t;
    float    **retired;             /* polyline copies replaced since the
                                       last build (thin_polyline)          */
    size_t     retired_count, retired_cap;

    /* the built tree: NULL nodes before the first build of a non-empty
       scene. A leaf's objects are entries [child, child + count) of prims
       (their indices) and kind_slot (kind << RP_SLOT_BITS | slot, so the
       traversal finds an object without two more random reads). */
    rp_bvh4_node *nodes;
    uint32_t      node_count;       /* halves (bvh4.h)                     */
    uint32_t      halves;           /* 2: a wide tree (bvh4.h)             */
    uint32_t      node_total;       /* nodes (of one or two halves)        */
    uint32_t     *prims;
    uint32_t     *kind_slot;
    uint32_t      leaf_count;       /* entries of prims and kind_slot      */
    uint32_t      top_count, half;  /* the top, and the ranges' two halves */
    double        built_cost;       /* SAH cost right after the build      */
    float         max_abs;          /* largest |coordinate| of the root box */
    /* the masks, once masks_used (else NULL: every mask all ones): per
       leaf entry, and per half its four children's ORs (bvh4.h) */
    uint32_t      *leaf_mask;
    rp_bvh4_masks *node_masks;
    /* per node, its leaf entries (a frustum query lists a box wholly
       inside without walking it); the same after a refit */
    rp_bvh4_range *ranges;
};

/* Rebuild instead of refit when the refitted tree's SAH cost exceeds the
   freshly built one's by this factor. */
#define RP_SCENE_REBUILD_FACTOR 2.0

/* The refit and the ranges' pass run on two threads from this many
   halves on. Starting a thread costs 75-80 us of CPU on a virtual machine
   whose other core has been idle (docs/performance.md, "Threads on this
   machine"): below about 50,000 spheres (15,000 halves) one thread's
   refit was done sooner, and always with less CPU. */
#define RP_SCENE_THREADS_FROM_HALVES 16384

/* Two threads for a pass over the tree's halves: enough of them, and a
   second core. */
static bool threads_pay(uint32_t halves)
{
    return halves >= RP_SCENE_THREADS_FROM_HALVES && rp_cpu_count() > 1;
}

/* The scene's object count must fit an int (the index type). */
#define RP_SCENE_MAX_OBJECTS ((size_t)INT_MAX)

/* ---- lifetime -------------------------------------------------------- */

static void free_tree(rp_scene *s)
{
    rp_free_large(s->nodes);
    rp_free_large(s->prims);
    rp_free_large(s->kind_slot);
    rp_free_large(s->leaf_mask);
    rp_free_large(s->node_masks);
    rp_free_large(s->ranges);
    s->ranges = NULL;
    s->nodes = NULL;
    s->prims = s->kind_slot = s->leaf_mask = NULL;
    s->node_masks = NULL;
    s->node_count = s->leaf_count = s->node_total = 0;
    s->top_count = s->half = 0;
}

static void free_retired(rp_scene *s)
{
    for (size_t i = 0; i < s->retired_count; i++)
        free(s->retired[i]);
    s->retired_count = 0;
}

static bool slot_marked(const uint64_t *bits, size_t slot)
{
    return (bits[slot / 64] >> (slot % 64) & 1u) != 0;
}

/* Slot `slot` of kind k as it is now: the pending array's, or the
   snapshot's where the pending one is stale. */
static const void *current_slot(const rp_scene *s, enum kind k, size_t slot)
{
    const kind_array *a = slot_marked(s->marks[k].stale, slot) ? &s->built[k] : &s->pending[k];
    return a->data + slot * kind_size[k];
}

/* Marks slot `slot` of kind k as set since the last build: dirty, and no
   longer stale. */
static void mark_set(rp_scene *s, enum kind k, size_t slot)
{
    const uint64_t bit = (uint64_t)1 << (slot % 64);
    s->marks[k].dirty[slot / 64] |= bit;
    s->marks[k].stale[slot / 64] &= ~bit;
}

rp_scene *rp_scene_create(void)
{
    return calloc(1, sizeof(rp_scene));
}

void rp_scene_destroy(rp_scene *s)
{
    if (s == NULL)
        return;
    /* every polyline copy is pending or retired (a snapshot's are the
       pending ones or retired ones) */
    for (size_t i = 0; i < s->pending[KIND_POLYLINE].count; i++)
        free(((const thin_polyline *)current_slot(s, KIND_POLYLINE, i))->xyz);
    free_retired(s);
    rp_free_large(s->retired);
    for (int k = 0; k < KIND_COUNT; k++) {
        rp_free_large(s->pending[k].data);
        rp_free_large(s->built[k].data);
        rp_free_large(s->marks[k].dirty);
        rp_free_large(s->marks[k].stale);
    }
    rp_free_large(s->where);
    rp_free_large(s->box);
    rp_free_large(s->mask);
    free_tree(s);
    free(s);
}

/* ---- world boxes ------------------------------------------------------ */

/* Rounds [lo, hi] outwards to float with a margin of 1e-6 of its size and
   position, which covers the rounding of the double arithmetic before it
   and of the object functions' own; false when it does not fit a float. */
static bool box_from_double(const double lo[3], const double hi[3], rp_bvh_box *out)
{
    rp_bvh_box b;
    for (int k = 0; k < 3; k++) {
        double pad = 1e-6 * (fabs(lo[k]) + fabs(hi[k]) + (hi[k] - lo[k])) + 1e-30;
        b.min[k] = rp_float_below(lo[k] - pad);
        b.max[k] = rp_float_above(hi[k] + pad);
        if (!isfinite(b.min[k]) || !isfinite(b.max[k]))
            return false;
    }
    *out = b;
    return true;
}

/* Rotation matrix (row i, column j) of a quaternion: identity for all
   zeros, the normalised quaternion's otherwise; false for a non-finite
   one. */
static bool quat_matrix(const versor q, double r[3][3])
{
    if (!rp_vec4_finite(q))
        return false;
    double x = q[0], y = q[1], z = q[2], w = q[3];
    double n2 = x * x + y * y + z * z + w * w;
    /* 2 / |q|^2 scales the products as normalising q first would: one
       division instead of four */
    double s = n2 == 0.0 ? 0.0 : 2.0 / n2;
    r[0][0] = 1 - s * (y * y + z * z);
    r[0][1] = s * (x * y - z * w);
    r[0][2] = s * (x * z + y * w);
    r[1][0] = s * (x * y + z * w);
    r[1][1] = 1 - s * (x * x + z * z);
    r[1][2] = s * (y * z - x * w);
    r[2][0] = s * (x * z - y * w);
    r[2][1] = s * (y * z + x * w);
    r[2][2] = 1 - s * (x * x + y * y);
    return true;
}

static bool sphere_box(const rp_sphere *sp, rp_bvh_box *out)
{
    if (!rp_vec3_finite(sp->center) || !isfinite(sp->radius) || !(sp->radius > 0.0f))
        return false;
    double lo[3], hi[3];
    for (int k = 0; k < 3; k++) {
        lo[k] = (double)sp->center[k] - sp->radius;
        hi[k] = (double)sp->center[k] + sp->radius;
    }
    return box_from_double(lo, hi, out);
}

/* Same acceptance as rp_intersect_ray_ellipsoid: radii > 0, and a non-zero
   orientation within 1e-3 of unit length. */
static bool ellipsoid_box(const rp_ellipsoid *e, rp_bvh_box *out)
{
    double r[3][3];
    if (!rp_vec3_finite(e->center) || !rp_vec3_finite(e->radii) || !quat_matrix(e->orientation, r))
        return false;
    for (int k = 0; k < 3; k++)
        if (!(e->radii[k] > 0.0f))
            return false;
    const float *q = e->orientation;
    double n2 = (double)q[0] * q[0] + (double)q[1] * q[1] + (double)q[2] * q[2] +
                (double)q[3] * q[3];
    if (n2 != 0.0 && fabs(sqrt(n2) - 1.0) > 1e-3)
        return false;
    /* The extent along world axis i of R diag(radii) applied to the unit
       sphere: the length of row i of R diag(radii). */
    double lo[3], hi[3];
    for (int i = 0; i < 3; i++) {
        double h = 0.0;
        for (int j = 0; j < 3; j++) {
            double v = r[i][j] * e->radii[j];
            h += v * v;
        }
        h = sqrt(h);
        lo[i] = (double)e->center[i] - h;
        hi[i] = (double)e->center[i] + h;
    }
    return box_from_double(lo, hi, out);
}

static bool aabb_box(const rp_aabb *b, rp_bvh_box *out)
{
    if (!rp_vec3_finite(b->min) || !rp_vec3_finite(b->max))
        return false;
    double lo[3], hi[3];
    for (int k = 0; k < 3; k++) {
        if (!(b->min[k] <= b->max[k]))
            return false;
        lo[k] = b->min[k];
        hi[k] = b->max[k];
    }
    return box_from_double(lo, hi, out);
}

static bool obb_box(const rp_obb *b, rp_bvh_box *out)
{
    double r[3][3];
    if (!rp_vec3_finite(b->center) || !rp_vec3_finite(b->half_extents) ||
        !quat_matrix(b->orientation, r))
        return false;
    for (int k = 0; k < 3; k++)
        if (!(b->half_extents[k] >= 0.0f))
            return false;
    /* |R| times the half extents */
    double lo[3], hi[3];
    for (int i = 0; i < 3; i++) {
        double h = 0.0;
        for (int j = 0; j < 3; j++)
            h += fabs(r[i][j]) * b->half_extents[j];
        /* wider than rp_intersect_ray_obb's own bounds check (internal.h) */
        const double pad = 2.0 * RP_OBB_BOUNDS_PAD * (fabs((double)b->center[i]) + h);
        lo[i] = (double)b->center[i] - h - pad;
        hi[i] = (double)b->center[i] + h + pad;
    }
    return box_from_double(lo, hi, out);
}

/* An affine, invertible, finite model matrix: bottom row (0, 0, 0, 1)
   (cglm is column-major: m[column][row]) and a non-zero finite 3x3
   determinant. */
static bool model_valid(mat4 m)
{
    if (!rp_mat4_finite(m) || m[0][3] != 0.0f || m[1][3] != 0.0f || m[2][3] != 0.0f ||
        m[3][3] != 1.0f)
        return false;
    double a = m[0][0], b = m[1][0], c = m[2][0];
    double d = m[0][1], e = m[1][1], f = m[2][1];
    double g = m[0][2], h = m[1][2], i = m[2][2];
    double det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g);
    return det != 0.0 && isfinite(det) && isfinite(1.0 / det);
}

/* Arvo's method: the box of the transformed local box, axis by axis, from
   the smaller and larger of m_ij * min_j and m_ij * max_j. */
static bool mesh_box(const rp_mesh *mesh, mat4 m, rp_bvh_box *out)
{
    rp_aabb local;
    if (mesh == NULL || !model_valid(m) || !rp_mesh_bounds(mesh, &local))
        return false;
    double lo[3], hi[3];
    for (int i = 0; i < 3; i++) {
        lo[i] = hi[i] = m[3][i];
        for (int j = 0; j < 3; j++) {
            double a = (double)m[j][i] * local.min[j], b = (double)m[j][i] * local.max[j];
            lo[i] += a < b ? a : b;
            hi[i] += a < b ? b : a;
        }
    }
    return box_from_double(lo, hi, out);
}

/* A thin object's own tolerance: finite, >= 0 (NULL refused: see scene.h). */
static bool tolerance_valid(const rp_thin_tolerance *tol)
{
    return tol != NULL && isfinite(tol->world) && isfinite(tol->per_t) && tol->world >= 0.0f &&
           tol->per_t >= 0.0f;
}

/* The box around `count` finite points (packed xyz), widened by the
   tolerance's world part: a ray passing farther from every point's box
   than that (plus what a query adds) cannot pick the thing. */
static bool points_box(const float *xyz, size_t count, const rp_thin_tolerance *tol,
                       rp_bvh_box *out)
{
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (size_t i = 0; i < count; i++)
        for (int k = 0; k < 3; k++) {
            lo[k] = fmin(lo[k], xyz[3 * i + (size_t)k]);
            hi[k] = fmax(hi[k], xyz[3 * i + (size_t)k]);
        }
    for (int k = 0; k < 3; k++) {
        lo[k] -= tol->world;
        hi[k] += tol->world;
    }
    return box_from_double(lo, hi, out);
}

static bool point_box(const thin_point *p, rp_bvh_box *out)
{
    return rp_vec3_finite(p->p) && points_box(p->p, 1, &p->tol, out);
}

static bool segment_box(const thin_segment *g, rp_bvh_box *out)
{
    return rp_vec3_finite(g->ends[0]) && rp_vec3_finite(g->ends[1]) &&
           points_box(&g->ends[0][0], 2, &g->tol, out);
}

/* The caller's points as a packed copy (malloc), and their box; NULL
   for a bad stride, a non-finite point, too many points or out of
   memory. */
static float *copy_points(const float *xyz, size_t count, size_t stride_bytes,
                          const rp_thin_tolerance *tol, rp_bvh_box *box)
{
    if (xyz == NULL || count == 0 || count > UINT32_MAX || count > SIZE_MAX / (3 * sizeof(float)))
        return NULL;
    if (stride_bytes == 0)
        stride_bytes = 3 * sizeof(float);
    if (stride_bytes < 3 * sizeof(float) || stride_bytes % sizeof(float) != 0)
        return NULL;
    const size_t step = stride_bytes / sizeof(float);
    for (size_t i = 0; i < count; i++)
        if (!rp_vec3_finite(xyz + i * step))
            return NULL;
    float *copy = malloc(count * 3 * sizeof *copy);
    if (copy == NULL)
        return NULL;
    for (size_t i = 0; i < count; i++)
        memcpy(copy + 3 * i, xyz + i * step, 3 * sizeof *copy);
    if (!points_box(copy, count, tol, box)) {
        free(copy);
        return NULL;
    }
    return copy;
}

/* ---- adding and moving ------------------------------------------------ */

static bool grow(void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return true;
    size_t n = *cap ? *cap : 16;
    while (n < need)
        n *= 2;
    if (n > SIZE_MAX / elem)
        return false;
    /* the object arrays that the refit reads at random: huge pages */
    void *q = rp_realloc_large(*p, *cap * elem, n * elem);
    if (q == NULL)
        return false;
    *p = q;
    *cap = n;
    return true;
}

/* Room in both bit arrays for `slots` slots, new words zero. */
static bool grow_marks(kind_marks *m, size_t slots)
{
    const size_t need = (slots + 63) / 64, old = m->words;
    size_t c1 = old, c2 = old;
    if (!grow((void **)&m->dirty, &c1, need, sizeof *m->dirty) ||
        !grow((void **)&m->stale, &c2, need, sizeof *m->stale))
        return false;
    const size_t words = c1 < c2 ? c1 : c2;
    if (words > old) {
        memset(m->dirty + old, 0, (words - old) * sizeof *m->dirty);
        memset(m->stale + old, 0, (words - old) * sizeof *m->stale);
    }
    m->words = words;
    return true;
}

/* Appends one object of the kind (its data and world box); its index, or
   -1 when out of memory or full. */
static int add_object(rp_scene *s, enum kind k, const void *data, const rp_bvh_box *box)
{
    kind_array *a = &s->pending[k];
    if (s->count >= RP_SCENE_MAX_OBJECTS || a->count >= RP_SLOT_MAX)
        return -1;
    size_t need = s->count + 1, cap = s->cap;
    /* Grow every per-object array to the same capacity before writing. */
    size_t c1 = cap, c2 = cap, c3 = cap;
    if (!grow((void **)&s->where, &c1, need, sizeof *s->where) ||
        !grow((void **)&s->box, &c2, need, sizeof *s->box) ||
        (s->mask != NULL && !grow((void **)&s->mask, &c3, need, sizeof *s->mask)))
        return -1;
    s->cap = c1 < c2 ? c1 : c2;
    s->cap = s->mask != NULL && c3 < s->cap ? c3 : s->cap;
    if (!grow((void **)&a->data, &a->cap, a->count + 1, kind_size[k]) ||
        !grow_marks(&s->marks[k], a->count + 1))
        return -1;
    memcpy(a->data + a->count * kind_size[k], data, kind_size[k]);
    mark_set(s, k, a->count);
    s->where[s->count] = (uint32_t)k << RP_SLOT_BITS | (uint32_t)a->count;
    s->box[s->count] = *box;
    if (s->mask != NULL)
        s->mask[s->count] = UINT32_MAX;     /* every layer */
    a->count++;
    return (int)s->count++;
}

/* The data of object `index` as it is now, when it is of kind k; NULL
   otherwise. */
static const void *object_of_kind(const rp_scene *s, int index, enum kind k)
{
    if (s == NULL || index < 0 || (size_t)index >= s->count ||
        s->where[index] >> RP_SLOT_BITS != (uint32_t)k)
        return NULL;
    return current_slot(s, k, s->where[index] & RP_SLOT_MAX);
}

static bool set_object(rp_scene *s, int index, enum kind k, const void *data,
                       const rp_bvh_box *box)
{
    if (object_of_kind(s, index, k) == NULL)
        return false;
    const size_t slot = s->where[index] & RP_SLOT_MAX;
    memcpy(s->pending[k].data + slot * kind_size[k], data, kind_size[k]);
    mark_set(s, k, slot);
    s->box[index] = *box;
    s->moved = true;
    return true;
}

int rp_scene_add_sphere(rp_scene *s, const rp_sphere *sphere)
{
    rp_bvh_box box;
    if (s == NULL || sphere == NULL || !sphere_box(sphere, &box))
        return -1;
    return add_object(s, KIND_SPHERE, sphere, &box);
}

int rp_scene_add_ellipsoid(rp_scene *s, const rp_ellipsoid *e)
{
    rp_bvh_box box;
    if (s == NULL || e == NULL || !ellipsoid_box(e, &box))
        return -1;
    return add_object(s, KIND_ELLIPSOID, e, &box);
}

int rp_scene_add_aabb(rp_scene *s, const rp_aabb *b)
{
    rp_bvh_box box;
    if (s == NULL || b == NULL || !aabb_box(b, &box))
        return -1;
    return add_object(s, KIND_AABB, b, &box);
}

int rp_scene_add_obb(rp_scene *s, const rp_obb *b)
{
    rp_bvh_box box;
    if (s == NULL || b == NULL || !obb_box(b, &box))
        return -1;
    return add_object(s, KIND_OBB, b, &box);
}

int rp_scene_add_mesh(rp_scene *s, const rp_mesh *m, mat4 model)
{
    rp_bvh_box box;
    if (s == NULL || model == NULL || !mesh_box(m, model, &box))
        return -1;
    mesh_instance inst;
    glm_mat4_copy(model, inst.model);
    inst.mesh = m;
    return add_object(s, KIND_MESH, &inst, &box);
}

/* Thin objects raise the largest per_t the walk must widen boxes by. */
static int add_thin(rp_scene *s, enum kind k, const void *data, const rp_bvh_box *box,
                    float per_t)
{
    int index = add_object(s, k, data, box);
    if (index >= 0)
        s->thin_per_t = fmaxf(s->thin_per_t, per_t);
    return index;
}

int rp_scene_add_point(rp_scene *s, const vec3 p, const rp_thin_tolerance *tol)
{
    thin_point obj;
    rp_bvh_box box;
    if (s == NULL || p == NULL || !tolerance_valid(tol))
        return -1;
    glm_vec3_copy((float *)p, obj.p);
    obj.tol = *tol;
    if (!point_box(&obj, &box))
        return -1;
    return add_thin(s, KIND_POINT, &obj, &box, tol->per_t);
}

int rp_scene_add_segment(rp_scene *s, const vec3 a, const vec3 b, const rp_thin_tolerance *tol)
{
    thin_segment obj;
    rp_bvh_box box;
    if (s == NULL || a == NULL || b == NULL || !tolerance_valid(tol))
        return -1;
    glm_vec3_copy((float *)a, obj.ends[0]);
    glm_vec3_copy((float *)b, obj.ends[1]);
    obj.tol = *tol;
    if (!segment_box(&obj, &box))
        return -1;
    return add_thin(s, KIND_SEGMENT, &obj, &box, tol->per_t);
}

int rp_scene_add_polyline(rp_scene *s, const float *xyz, size_t count, size_t stride_bytes,
                          const rp_thin_tolerance *tol)
{
    thin_polyline obj;
    rp_bvh_box box;
    if (s == NULL || !tolerance_valid(tol))
        return -1;
    obj.xyz = copy_points(xyz, count, stride_bytes, tol, &box);
    if (obj.xyz == NULL)
        return -1;
    obj.count = (uint32_t)count;
    obj.tol = *tol;
    int index = add_thin(s, KIND_POLYLINE, &obj, &box, tol->per_t);
    if (index < 0)
        free(obj.xyz);
    return index;
}

bool rp_scene_set_mask(rp_scene *s, int index, uint32_t mask)
{
    if (s == NULL || index < 0 || (size_t)index >= s->count)
        return false;
    if (s->mask == NULL) {
        /* the first mask: every object so far in every layer */
        s->mask = rp_alloc_large(s->cap * sizeof *s->mask);
        if (s->mask == NULL)
            return false;
        for (size_t i = 0; i < s->count; i++)
            s->mask[i] = UINT32_MAX;
    }
    s->mask[index] = mask;
    s->masks_used = true;
    s->masks_changed = true;
    return true;
}

bool rp_scene_set_sphere(rp_scene *s, int index, const rp_sphere *sphere)
{
    rp_bvh_box box;
    if (object_of_kind(s, index, KIND_SPHERE) == NULL || sphere == NULL ||
        !sphere_box(sphere, &box))
        return false;
    return set_object(s, index, KIND_SPHERE, sphere, &box);
}

bool rp_scene_set_ellipsoid(rp_scene *s, int index, const rp_ellipsoid *e)
{
    rp_bvh_box box;
    if (object_of_kind(s, index, KIND_ELLIPSOID) == NULL || e == NULL || !ellipsoid_box(e, &box))
        return false;
    return set_object(s, index, KIND_ELLIPSOID, e, &box);
}

bool rp_scene_set_aabb(rp_scene *s, int index, const rp_aabb *b)
{
    rp_bvh_box box;
    if (object_of_kind(s, index, KIND_AABB) == NULL || b == NULL || !aabb_box(b, &box))
        return false;
    return set_object(s, index, KIND_AABB, b, &box);
}

bool rp_scene_set_obb(rp_scene *s, int index, const rp_obb *b)
{
    rp_bvh_box box;
    if (object_of_kind(s, index, KIND_OBB) == NULL || b == NULL || !obb_box(b, &box))
        return false;
    return set_object(s, index, KIND_OBB, b, &box);
}

bool rp_scene_set_mesh_model(rp_scene *s, int index, mat4 model)
{
    rp_bvh_box box;
    const mesh_instance *inst = object_of_kind(s, index, KIND_MESH);
    if (inst == NULL || model == NULL || !mesh_box(inst->mesh, model, &box))
        return false;
    mesh_instance moved = *inst;
    glm_mat4_copy(model, moved.model);
    return set_object(s, index, KIND_MESH, &moved, &box);
}

bool rp_scene_set_point(rp_scene *s, int index, const vec3 p, const rp_thin_tolerance *tol)
{
    thin_point obj;
    rp_bvh_box box;
    if (object_of_kind(s, index, KIND_POINT) == NULL || p == NULL || !tolerance_valid(tol))
        return false;
    glm_vec3_copy((float *)p, obj.p);
    obj.tol = *tol;
    if (!point_box(&obj, &box))
        return false;
    s->thin_per_t = fmaxf(s->thin_per_t, tol->per_t);
    return set_object(s, index, KIND_POINT, &obj, &box);
}

bool rp_scene_set_segment(rp_scene *s, int index, const vec3 a, const vec3 b,
                          const rp_thin_tolerance *tol)
{
    thin_segment obj;
    rp_bvh_box box;
    if (object_of_kind(s, index, KIND_SEGMENT) == NULL || a == NULL || b == NULL ||
        !tolerance_valid(tol))
        return false;
    glm_vec3_copy((float *)a, obj.ends[0]);
    glm_vec3_copy((float *)b, obj.ends[1]);
    obj.tol = *tol;
    if (!segment_box(&obj, &box))
        return false;
    s->thin_per_t = fmaxf(s->thin_per_t, tol->per_t);
    return set_object(s, index, KIND_SEGMENT, &obj, &box);
}

bool rp_scene_set_polyline(rp_scene *s, int index, const float *xyz, size_t count,
                           size_t stride_bytes, const rp_thin_tolerance *tol)
{
    const thin_polyline *old = object_of_kind(s, index, KIND_POLYLINE);
    size_t cap = s ? s->retired_cap : 0;
    /* room to retire the old copy first, so nothing fails after the new
       copy is made */
    if (old == NULL || !tolerance_valid(tol) ||
        !grow((void **)&s->retired, &cap, s->retired_count + 1, sizeof *s->retired))
        return false;
    s->retired_cap = cap;
    thin_polyline obj;
    rp_bvh_box box;
    obj.xyz = copy_points(xyz, count, stride_bytes, tol, &box);
    if (obj.xyz == NULL)
        return false;
    obj.count = (uint32_t)count;
    obj.tol = *tol;
    s->retired[s->retired_count++] = old->xyz;   /* a snapshot may still read it */
    s->thin_per_t = fmaxf(s->thin_per_t, tol->per_t);
    return set_object(s, index, KIND_POLYLINE, &obj, &box);
}

/* ---- building --------------------------------------------------------- */

/* Makes room for the snapshot. A bigger block (from rp_alloc_large: no
   page fault per 4 KiB on the first write) receives the built objects
   before it replaces the old one, so if the build then fails, queries
   still see the previous build. */
static bool reserve_snapshot(rp_scene *s)
{
    for (int k = 0; k < KIND_COUNT; k++) {
        kind_array *b = &s->built[k];
        size_t need = s->pending[k].count;
        if (need <= b->cap)
            continue;
        if (need > SIZE_MAX / kind_size[k])
            return false;
        unsigned char *data = rp_alloc_large(need * kind_size[k]);
        if (data == NULL)
            return false;
        if (b->count > 0)
            memcpy(data, b->data, b->count * kind_size[k]);
        rp_free_large(b->data);
        b->data = data;
        b->cap = need;
    }
    return true;
}

/* The lowest set bit of x, which is not 0. */
static unsigned lowest_bit(uint64_t x)
{
#if defined(__GNUC__) || defined(__clang__)
    return (unsigned)__builtin_ctzll(x);
#else
    unsigned i = (uint32_t)x == 0 ? 32u : 0u;  /* the high half when the low one is empty */
    for (uint64_t rest = x >> i; (rest & 1u) == 0; rest >>= 1)
        i++;
    return i;
#endif
}

/* Copies into the pending array of kind k the slots of word w that are
   stale and not set since: the snapshot holds them as they are. */
static void refresh_stale(rp_scene *s, enum kind k, size_t w)
{
    const kind_marks *m = &s->marks[k];
    const size_t size = kind_size[k];
    uint64_t copy = m->stale[w] & ~m->dirty[w];
    unsigned char *to = s->pending[k].data + w * 64 * size;
    const unsigned char *from = s->built[k].data + w * 64 * size;
    if (copy == UINT64_MAX) {       /* the whole word: one copy */
        memcpy(to, from, 64 * size);
        return;
    }
    while (copy != 0) {
        const unsigned i = lowest_bit(copy);
        memcpy(to + i * size, from + i * size, size);
        copy &= copy - 1;
    }
}

/* The snapshot: each kind's pending array, made current, swapped with the
   built one (reserve_snapshot made that big enough). */
static void take_snapshot(rp_scene *s)
{
    for (int k = 0; k < KIND_COUNT; k++) {
        kind_array *p = &s->pending[k], *b = &s->built[k];
        kind_marks *m = &s->marks[k];
        for (size_t w = 0; w < (p->count + 63) / 64; w++) {
            refresh_stale(s, (enum kind)k, w);
            m->stale[w] = m->dirty[w];  /* what the swap leaves behind */
            m->dirty[w] = 0;
        }
        unsigned char *data = p->data;
        const size_t cap = p->cap;
        p->data = b->data;
        p->cap = b->cap;
        b->data = data;
        b->cap = cap;
        b->count = p->count;
    }
    s->built_count = s->count;
    s->built_thin_per_t = s->thin_per_t;
    s->moved = false;
    s->masks_changed = false;
    free_retired(s);    /* the snapshot no longer points to them */
}

/* The mask arrays of a tree of node_count nodes (when masks are used and
   the tree has none yet); false when out of memory, nothing changed. */
static bool reserve_masks(rp_scene *s)
{
    if (!s->masks_used || s->nodes == NULL || s->node_masks != NULL)
        return true;
    uint32_t *leaf = rp_alloc_large((size_t)s->leaf_count * sizeof *leaf);
    rp_bvh4_masks *node = rp_alloc_large((size_t)s->node_count * sizeof *node);
    if (leaf == NULL || node == NULL) {
        rp_free_large(leaf);
        rp_free_large(node);
        return false;
    }
    s->leaf_mask = leaf;
    s->node_masks = node;
    return true;
}

/* Every leaf entry's mask, and every node's OR of its children's. */
static void fill_masks(rp_scene *s)
{
    if (s->node_masks == NULL)
        return;
    for (uint32_t j = 0; j < s->leaf_count; j++)
        s->leaf_mask[j] = s->mask[s->prims[j]];
    rp_bvh4_masks_compute(s->nodes, s->node_count, s->halves, s->leaf_mask, s->node_masks);
}

/* The largest |coordinate| of the tree's root box (the slab test's pad). */
static void update_max_abs(rp_scene *s)
{
    rp_bvh_box root;
    s->max_abs = 0.0f;
    if (!rp_bvh4_bounds(s->nodes, s->node_count, s->halves, &root))
        return;
    for (int k = 0; k < 3; k++)
        s->max_abs = fmaxf(s->max_abs, fmaxf(fabsf(root.min[k]), fabsf(root.max[k])));
}

/* A new tree over every object; false (the old tree kept) when out of
   memory. */
static bool rebuild(rp_scene *s)
{
    if (s->count == 0) {
        free_tree(s);
        return true;
    }
    /* each leaf entry's kind and slot come out of the builder beside its
       object's index */
    rp_bvh bin;
    if (!rp_bvh_build_tagged(s->box, s->where, (uint32_t)s->count, &bin))
        return false;
    uint32_t *leaf_mask = NULL;
    rp_bvh4_masks *node_masks = NULL;
    rp_bvh4_range *ranges = rp_alloc_large((size_t)bin.node_count * sizeof *ranges);
    if (s->masks_used) {
        leaf_mask = rp_alloc_large((size_t)bin.prim_count * sizeof *leaf_mask);
        node_masks = rp_alloc_large((size_t)bin.node_count * sizeof *node_masks);
    }
    if (ranges == NULL || (s->masks_used && (leaf_mask == NULL || node_masks == NULL))) {
        rp_free_large(ranges);
        rp_free_large(leaf_mask);
        rp_free_large(node_masks);
        rp_bvh_free(&bin);
        return false;
    }
    rp_bvh4_ranges(bin.nodes, bin.node_count, bin.halves, bin.top_count, bin.half,
                   threads_pay(bin.node_count), ranges);
    free_tree(s);
    s->leaf_mask = leaf_mask;
    s->node_masks = node_masks;
    s->ranges = ranges;
    s->nodes = bin.nodes;
    s->node_count = bin.node_count;
    s->halves = bin.halves;
    s->node_total = bin.node_total;
    s->prims = bin.prims;
    s->kind_slot = bin.tags;
    s->leaf_count = bin.prim_count;
    s->built_cost = bin.cost;
    s->top_count = bin.top_count;
    s->half = bin.half;
    update_max_abs(s);
    return true;
}

bool rp_scene_build(rp_scene *s)
{
    if (s == NULL)
        return false;
    if (s->count == s->built_count && !s->moved && !s->masks_changed)
        return true;                    /* nothing changed since the last build */
    if (!reserve_snapshot(s))
        return false;
    /* masks are recomputed when the tree is new or a mask changed: a
       refit keeps the tree's shape, and so its masks */
    bool new_masks = s->masks_changed;
    if (s->count != s->built_count || (s->count > 0 && s->nodes == NULL)) {
        if (!rebuild(s))
            return false;
        new_masks = true;
    } else {
        if (!reserve_masks(s))          /* before anything changes */
            return false;
        if (s->moved) {
            double cost = rp_bvh4_refit_split(s->nodes, s->node_count, s->halves, s->top_count,
                                              s->prims, s->box, threads_pay(s->node_count));
            update_max_abs(s);
            /* A refitted tree keeps its shape; when objects have moved so
               far that its boxes overlap badly, a rebuild pays for itself.
               If the rebuild runs out of memory the refitted tree is still
               correct. */
            if (cost > RP_SCENE_REBUILD_FACTOR * s->built_cost && rebuild(s))
                new_masks = true;
        }
    }
    if (new_masks)
        fill_masks(s);
    take_snapshot(s);
    return true;
}

/* ---- ray queries ------------------------------------------------------ */

typedef struct query {
    const rp_scene *s;
    const rp_ray   *ray;
    rp_bvh4_ray     box_ray;
    rp_bvh4_cone    cone;   /* the boxes widened by the tolerance, when cone */
    float  t_max;           /* boxes entered beyond this cannot hold the answer */
    float  t_limit;         /* the query's t_max: hits beyond it do not count */
    uint32_t layers;        /* all ones for the zero query */
    bool   filter;          /* the tree has masks: skip children and objects */
    bool   cone_walk;       /* walk the widened boxes (rp_bvh4_enter_cone) */
    bool   any_hit;
    rp_thin_tolerance thin; /* the query's, added to each thin object's */
    int    best;
    rp_hit hit;
    rp_triangle_hit tri;
    rp_thin_hit thin_hit;
    rp_scene_trace *trace;  /* NULL unless rp_intersect_ray_scene_traced */
} query;

/* Whether a hit at t by object obj would lose to the best so far (equal t:
   the lower index wins). */
static bool loses(const query *q, float t, uint32_t obj)
{
    return q->best >= 0 && (t > q->hit.t || (t == q->hit.t && (int)obj > q->best));
}

/* loses, or past the query's t limit (`general`: a query that has one). */
static bool loses_or_past(const query *q, float t, uint32_t obj, bool general)
{
    return loses(q, t, obj) || (general && t > q->t_limit);
}

/* A sphere's hit exactly as rp_intersect_ray_sphere makes it (the same
   roots and the same end, quadric.h), its roots computed once: false when
   it misses, or when its t loses (loses_or_past). Most spheres a ray meets
   in the leaves it visits do, and then no point or normal is made. The
   scene's spheres and the query's ray are valid (checked when added and
   when asked). */
static bool sphere_hit(const query *q, const rp_sphere *sp, uint32_t obj, bool general, rp_hit *h)
{
    const rp_ray *ray = q->ray;
    const double f[3] = {(double)ray->origin[0] - sp->center[0],
                         (double)ray->origin[1] - sp->center[1],
                         (double)ray->origin[2] - sp->center[2]};
    const double d[3] = {ray->dir[0], ray->dir[1], ray->dir[2]};
    double t0, t1;
    if (!rp__ray_sphere_roots(f, d, sp->radius, &t0, &t1) || t1 < 0.0)
        return false;
    const double first = rp__first_root(t0, t1);
    if (!rp__fits_float(first) || loses_or_past(q, (float)first + 0.0f, obj, general))
        return false;                   /* (float)first + 0: the hit's t */
    return rp__sphere_hit_from_roots(ray->origin, f, d, t0, t1, h);
}

/* The rp_hit of a thin object's closest approach (scene.h says which):
   the ray's point, and the normal from the thing towards it. */
static void thin_as_hit(const rp_ray *ray, const rp_thin_hit *th, rp_hit *out)
{
    out->t = out->t_enter = out->t_exit = th->t;
    glm_vec3_copy((float *)th->ray_point, out->point);
    double gap[3], len = 0.0;
    for (int c = 0; c < 3; c++) {
        gap[c] = (double)th->ray_point[c] - th->point[c];
        len += gap[c] * gap[c];
    }
    if (!(len > 0.0)) {
        for (int c = 0; c < 3; c++) {
            gap[c] = -(double)ray->dir[c];
            len += gap[c] * gap[c];
        }
    }
    len = sqrt(len);
    for (int c = 0; c < 3; c++)
        out->normal[c] = (float)(gap[c] / len);
    out->inside = false;
}

/* A thin object's own function with its tolerance plus the query's. */
static bool thin_object_hit(const query *q, unsigned k, const unsigned char *data, rp_hit *h,
                            rp_thin_hit *th)
{
    const rp_thin_tolerance *own = k == KIND_POINT     ? &((const thin_point *)data)->tol
                                   : k == KIND_SEGMENT ? &((const thin_segment *)data)->tol
                                                       : &((const thin_polyline *)data)->tol;
    const rp_thin_tolerance tol = {own->world + q->thin.world, own->per_t + q->thin.per_t};
    bool hit;
    if (k == KIND_POINT) {
        hit = rp_intersect_ray_point(q->ray, ((const thin_point *)data)->p, &tol, th);
    } else if (k == KIND_SEGMENT) {
        const thin_segment *g = (const thin_segment *)data;
        hit = rp_intersect_ray_segment(q->ray, g->ends[0], g->ends[1], &tol, th);
    } else {
        const thin_polyline *l = (const thin_polyline *)data;
        hit = rp_intersect_ray_polyline(q->ray, l->xyz, l->count, 0, &tol, th);
    }
    if (hit)
        thin_as_hit(q->ray, th, h);
    return hit;
}

/* The hit of `data` (an object of kind k) by its own function. */
static bool object_hit(const query *q, unsigned k, const unsigned char *data, rp_hit *h,
                       rp_triangle_hit *th, rp_thin_hit *tth)
{
    switch (k) {
    case KIND_SPHERE:   /* (test_object's own spheres take sphere_hit) */
        return rp_intersect_ray_sphere(q->ray, (const rp_sphere *)data, h);
    case KIND_ELLIPSOID:
        return rp_intersect_ray_ellipsoid(q->ray, (const rp_ellipsoid *)data, h);
    case KIND_AABB:
        return rp_intersect_ray_aabb(q->ray, (const rp_aabb *)data, h);
    case KIND_OBB:
        return rp_intersect_ray_obb(q->ray, (const rp_obb *)data, h);
    case KIND_MESH: {
        const mesh_instance *m = (const mesh_instance *)data;
        mat4 model;
        glm_mat4_copy((vec4 *)m->model, model);
        return rp_intersect_ray_mesh_instance(m->mesh, model, q->ray, h, th);
    }
    default:
        return thin_object_hit(q, k, data, h, tth);
    }
}

/* The boxes' limit for a best hit at t: equal t must still be visited (a
   lower index may tie), so a relative margin above it for the boxes'
   rounding, rounded up to float. */
static float box_limit(float t)
{
    double limit = (double)t * (1.0 + 1e-6) + 1e-30;
    float t_max = (float)limit;
    if ((double)t_max < limit)
        t_max = nextafterf(t_max, INFINITY);
    return t_max;
}

/* Runs the object of leaf entry i through its own function and keeps the
   nearest hit (lowest index on equal t). `general`: a constant of each
   walk (traverse_with): the query's mask, t limit and any-hit apply. */
static RP_INLINE_ALWAYS void test_object(query *q, uint32_t i, bool general)
{
    const rp_scene *s = q->s;
    if (general && ((q->filter && (s->leaf_mask[i] & q->layers) == 0) ||
                    (q->any_hit && q->best >= 0)))
        return;
    uint32_t ks = s->kind_slot[i];
    unsigned k = ks >> RP_SLOT_BITS;
    const unsigned char *data = s->built[k].data + (size_t)(ks & RP_SLOT_MAX) * kind_size[k];
    uint32_t obj = s->prims[i];
    rp_hit h;
    rp_triangle_hit th;
    rp_thin_hit tth;
    if (k == KIND_SPHERE) {
        if (!sphere_hit(q, (const rp_sphere *)data, obj, general, &h))
            return;
    } else if (!object_hit(q, k, data, &h, &th, &tth) || loses_or_past(q, h.t, obj, general)) {
        return;
    }
    q->best = (int)obj;
    q->hit = h;
    if (k == KIND_MESH)
        q->tri = th;
    else if (k >= KIND_POINT)
        q->thin_hit = tth;
    /* any hit: done, every box left is skipped */
    q->t_max = general && q->any_hit ? -1.0f : box_limit(h.t);
}

/* ---- tracing (rp_intersect_ray_scene_traced) ---- */

/* The box of child ref r in the node of `halves` halves from n (the slot
   that holds it). */
static void child_box(const rp_bvh4_node *n, uint32_t halves, const rp_bvh4_ref *r, rp_aabb *out)
{
    for (uint32_t s = 0; s < 4 * halves; s++) {
        const rp_bvh4_node *h = &n[s / 4];
        const uint32_t i = s % 4;
        if (h->child[i] != r->first || h->count[i] != r->count)
            continue;
        for (int a = 0; a < 3; a++) {
            out->min[a] = h->b[a][i];
            out->max[a] = h->b[3 + a][i];
        }
        return;
    }
}

/* The child slots of the node of `halves` halves from half `first` that
   the ray enters (bit s: slot s), as rp_bvh4_enter per half, t_enter[s]
   where; `general`: the query's widened boxes and layer filter. */
static RP_INLINE_ALWAYS int enter_node(const query *q, uint32_t first, uint32_t halves,
                                       bool general, float t_enter[RP_BVH8_SLOTS])
{
    const rp_scene *s = q->s;
    int mask = 0;
    for (uint32_t h = 0; h < halves; h++) {
        const rp_bvh4_node *n = &s->nodes[first + h];
        int m;
        if (general && q->cone_walk)
            m = rp_bvh4_enter_cone(n, &q->cone, q->t_max, t_enter + 4 * h);
        else
            m = rp_bvh4_enter(n, &q->box_ray, q->t_max, t_enter + 4 * h);
        if (general && q->filter)
            m &= rp_bvh4_layer_slots(&s->node_masks[first + h], q->layers);
        mask |= m << (4 * h);
    }
    return mask;
}

/* Starts loading a child: a node's lines, or a leaf's first entries. */
static inline void prefetch_child(const rp_scene *s, const rp_bvh4_ref *r)
{
    if (r->count > 0) {
        RP_PREFETCH(&s->kind_slot[r->first]);
        RP_PREFETCH(&s->prims[r->first]);
        return;
    }
    const char *line = (const char *)&s->nodes[rp_bvh4_child_first(r->first, s->halves)];
    for (uint32_t i = 0; i < 2 * rp_bvh4_child_halves(r->first, s->halves); i++)
        RP_PREFETCH(line + 64 * i);
}

/* Records that the traversal opened `box`: a node (objects 0) or a leaf. */
static void trace_visit(rp_scene_trace *tr, const rp_aabb *box, uint32_t objects)
{
    if (tr->visits != NULL && tr->visit_count < tr->visit_cap) {
        tr->visits[tr->visit_count].box = *box;
        tr->visits[tr->visit_count].objects = (int)objects;
    }
    tr->visit_count++;
    if (objects > 0) {
        tr->leaves_visited++;
        tr->objects_tested += (int)objects;
    } else {
        tr->nodes_visited++;
    }
}

/* Depth first, nearest child first; a pending child entered after the
   best hit so far (with its margin) is skipped. When tracing, each
   pending child's box waits beside it (boxes[]) until it is opened.
   `general`: the query's filter, widened boxes, t limit and any-hit.
   Inlined into each caller with its constants. The plain query walks
   with bvh_walk.h instead (traverse, below): the same nodes in the same
   order as this walk with no trace and `general` false, so what
   rp_intersect_ray_scene_traced records is what the plain query does. */
static RP_INLINE_ALWAYS void traverse_with(query *q, rp_scene_trace *trace, bool general)
{
    const rp_scene *s = q->s;
    const rp_bvh4_node *nodes = s->nodes;
    rp_bvh4_ref stack[RP_BVH8_STACK];
    rp_aabb boxes[RP_BVH8_STACK], box;
    int sp = 0;
    rp_bvh4_ref cur = {rp_bvh4_root(s->halves), 0, 0.0f};
    if (trace) {
        rp_bvh_box root;
        rp_bvh4_bounds(nodes, s->node_count, s->halves, &root);
        memcpy(box.min, root.min, sizeof box.min);
        memcpy(box.max, root.max, sizeof box.max);
    }
    for (;;) {
        if (trace)
            trace_visit(trace, &box, cur.count);
        if (cur.count > 0) {
            for (uint32_t i = cur.first; i < cur.first + cur.count; i++)
                test_object(q, i, general);
        } else {
            const uint32_t first = rp_bvh4_child_first(cur.first, s->halves);
            const uint32_t halves = rp_bvh4_child_halves(cur.first, s->halves);
            const rp_bvh4_node *n = &nodes[first];
            float t_enter[RP_BVH8_SLOTS];
            const int mask = enter_node(q, first, halves, general, t_enter);
            /* one or two children entered (most nodes): no sort, and no
               prefetch of the one visited next (it is loaded right away) */
            const int rest = mask & (mask - 1);
            if (mask != 0 && !trace && (rest & (rest - 1)) == 0) {
                int near = rp_bvh4_lowest_slot(mask);
                if (rest != 0) {
                    const int far0 = rp_bvh4_lowest_slot(rest);
                    const int far = t_enter[far0] < t_enter[near] ? near : far0;
                    near = near + far0 - far;
                    stack[sp] = rp_bvh4_child(n, far, t_enter[far]);
                    prefetch_child(s, &stack[sp]);
                    sp++;
                }
                cur = rp_bvh4_child(n, near, t_enter[near]);
                continue;
            }
            if (mask != 0) {
                rp_bvh4_ref hit[RP_BVH8_SLOTS];
                int k = rp_bvh4_order(n, mask, t_enter, hit);
                for (int j = 0; j < k; j++)
                    prefetch_child(s, &hit[j]);
                /* the far ones wait on the stack (RP_BVH8_STACK: its bound) */
                for (int j = k - 1; j > 0; j--) {
                    if (trace)
                        child_box(n, halves, &hit[j], &boxes[sp]);
                    stack[sp++] = hit[j];
                }
                cur = hit[0];
                if (trace)
                    child_box(n, halves, &hit[0], &box);
                continue;
            }
        }
        /* pop, skipping boxes entered after the best hit so far */
        for (;;) {
            if (sp == 0)
                return;
            cur = stack[--sp];
            if (cur.t_enter <= q->t_max)
                break;
        }
        if (trace)
            box = boxes[sp];
    }
}

/* The walk's callback (bvh_walk.h): the leaf's objects. */
static float test_leaf(void *user, uint32_t first, uint32_t count)
{
    query *q = user;
    for (uint32_t i = first; i < first + count; i++)
        test_object(q, i, false);
    return q->t_max;
}

/* The walk's callback: a pending leaf's first entry. */
static void prefetch_leaf(void *user, uint32_t first, uint32_t count)
{
    const rp_scene *s = ((const query *)user)->s;
    (void)count;
    RP_PREFETCH(&s->kind_slot[first]);
    RP_PREFETCH(&s->prims[first]);
}

/* The plain query: the walk simd.c's table picks for this CPU (the same
   nodes, in the same order, as traverse_with's plain walk). */
static void traverse(query *q)
{
    const rp_scene *s = q->s;
    const rp_bvh_walk w = {s->nodes, s->halves, &q->box_ray, q->t_max, test_leaf, q,
                           prefetch_leaf};
    rp_simd_bvh_walk()(&w);
}

static void traverse_traced(query *q)
{
    traverse_with(q, q->trace, false);
}

static void traverse_general(query *q)
{
    traverse_with(q, q->trace, true);
}

/* The ray fields of a query are valid: t_max >= 0 (+inf included), the
   tolerance finite and >= 0. NULL is the zero query. */
static bool ray_query_valid(const rp_scene_query *query)
{
    return query == NULL ||
           (query->t_max >= 0.0f && isfinite(query->thin.world) && isfinite(query->thin.per_t) &&
            query->thin.world >= 0.0f && query->thin.per_t >= 0.0f);
}

static bool frustum_query_valid(const rp_scene_query *query)
{
    return query == NULL || query->select == RP_SELECT_MEETS ||
           query->select == RP_SELECT_MEETS_CONSERVATIVE || query->select == RP_SELECT_INSIDE;
}

/* Whether the built scene holds thin objects. */
static bool has_thin(const rp_scene *s)
{
    return s->built[KIND_POINT].count + s->built[KIND_SEGMENT].count +
               s->built[KIND_POLYLINE].count > 0;
}

/* The ray queries with spec (NULL: the zero one) and trace set up. */
static int intersect(const rp_scene *s, const rp_ray *ray, const rp_scene_query *spec,
                     rp_scene_trace *trace, rp_hit *out, rp_triangle_hit *tri,
                     rp_thin_hit *thin)
{
    if (s == NULL || !rp_ray_valid(ray) || !ray_query_valid(spec) || s->built_count == 0 ||
        s->nodes == NULL)
        return -1;
    query q;
    q.s = s;
    q.ray = ray;
    q.trace = trace;
    q.best = -1;
    q.layers = spec && spec->layers != 0 ? spec->layers : UINT32_MAX;
    q.filter = s->node_masks != NULL;
    q.any_hit = spec && spec->any_hit;
    q.t_limit = spec && spec->t_max > 0.0f ? spec->t_max : INFINITY;
    q.t_max = isinf(q.t_limit) ? INFINITY : box_limit(q.t_limit);
    q.thin.world = spec ? spec->thin.world : 0.0f;
    q.thin.per_t = spec ? spec->thin.per_t : 0.0f;
    /* boxes hold each thin object's own world tolerance; what grows along
       the ray, or what the query adds, widens every box as it is walked
       (the margins: rounding of the float sums in thin_object_hit) */
    const double grow = (double)q.thin.per_t + s->built_thin_per_t;
    q.cone_walk = has_thin(s) && (q.thin.world > 0.0f || grow > 0.0);
    if (q.cone_walk)
        rp_bvh4_cone_setup(ray, s->max_abs, q.thin.world * (1.0 + 1e-6), grow * (1.0 + 1e-6),
                           &q.cone);
    rp_bvh4_ray_setup(ray, s->max_abs, &q.box_ray);
    if (trace)
        trace->tree_nodes = (int)s->node_total;
    if (q.filter || q.cone_walk || q.any_hit || !isinf(q.t_limit))
        traverse_general(&q);
    else if (trace)
        traverse_traced(&q);
    else
        traverse(&q);
    if (q.best < 0)
        return -1;
    if (out)
        *out = q.hit;
    unsigned kind = s->where[q.best] >> RP_SLOT_BITS;
    if (tri && kind == KIND_MESH)
        *tri = q.tri;
    if (thin && kind >= KIND_POINT)
        *thin = q.thin_hit;
    return q.best;
}

int rp_intersect_ray_scene(const rp_scene *s, const rp_ray *ray, rp_hit *out,
                           rp_triangle_hit *tri)
{
    return intersect(s, ray, NULL, NULL, out, tri, NULL);
}

int rp_scene_query_ray(const rp_scene *s, const rp_ray *ray, const rp_scene_query *query,
                       rp_hit *out, rp_triangle_hit *tri, rp_thin_hit *thin)
{
    return intersect(s, ray, query, NULL, out, tri, thin);
}

int rp_intersect_ray_scene_traced(const rp_scene *s, const rp_ray *ray, rp_scene_trace *trace,
                                  rp_hit *out, rp_triangle_hit *tri)
{
    if (trace) {
        rp_scene_visit *visits = trace->visits;
        int cap = visits != NULL && trace->visit_cap > 0 ? trace->visit_cap : 0;
        memset(trace, 0, sizeof *trace);
        trace->visits = visits;
        trace->visit_cap = cap;
    }
    return intersect(s, ray, NULL, trace, out, tri, NULL);
}

/* ---- frustum queries -------------------------------------------------- */

/* Margin of the walk's box test against the planes, relative to the size
   of the coordinates (the frustum's and the box's): far above the double
   rounding of every shape's own test, far below the boxes' own margin
   (box_from_double), so a box the walk skips or takes whole holds no
   object whose own test would answer otherwise. */
#define RP_SCENE_FRUSTUM_MARGIN 1e-9

/* The selected indices: a bitmap of every object (then written out in
   order), or, when only a few are wanted or no bitmap could be had, the
   caller's array as a max-heap of the cap smallest so far. */
typedef struct selection {
    uint64_t *bits;
    int      *heap;
    size_t    cap, kept, total;
} selection;

static void heap_sift_down(int *h, size_t n, size_t i)
{
    for (;;) {
        size_t big = i, l = 2 * i + 1, r = l + 1;
        if (l < n && h[l] > h[big])
            big = l;
        if (r < n && h[r] > h[big])
            big = r;
        if (big == i)
            return;
        int t = h[i];
        h[i] = h[big];
        h[big] = t;
        i = big;
    }
}

static void select_object(selection *sel, uint32_t obj)
{
    sel->total++;
    if (sel->bits != NULL) {
        sel->bits[obj >> 6] |= (uint64_t)1 << (obj & 63);
        return;
    }
    if (sel->cap == 0)
        return;
    int *h = sel->heap;
    if (sel->kept < sel->cap) {
        size_t i = sel->kept++;
        for (; i > 0 && h[(i - 1) / 2] < (int)obj; i = (i - 1) / 2)
            h[i] = h[(i - 1) / 2];
        h[i] = (int)obj;
    } else if ((int)obj < h[0]) {
        h[0] = (int)obj;
        heap_sift_down(h, sel->kept, 0);
    }
}

/* The index of the lowest set bit of x != 0 (de Bruijn: no intrinsic). */
static int lowest_bit64(uint64_t x)
{
    static const int table[64] = {
        0,  1,  2,  53, 3,  7,  54, 27, 4,  38, 41, 8,  34, 55, 48, 28,
        62, 5,  39, 46, 44, 42, 22, 9,  24, 35, 59, 56, 49, 18, 29, 11,
        63, 52, 6,  26, 37, 40, 33, 47, 61, 45, 43, 21, 23, 58, 17, 10,
        51, 25, 36, 32, 60, 20, 57, 16, 50, 31, 19, 15, 30, 14, 13, 12,
    };
    return table[((x & (~x + 1)) * UINT64_C(0x022fdd63cc95386d)) >> 58];
}

/* Writes the first min(total, cap) indices to out, ascending. */
static void selection_finish(selection *sel, int *out, size_t words)
{
    if (sel->bits != NULL) {
        size_t n = 0;
        for (size_t w = 0; w < words && n < sel->cap; w++)
            for (uint64_t x = sel->bits[w]; x != 0 && n < sel->cap; x &= x - 1)
                out[n++] = (int)(w * 64 + (size_t)lowest_bit64(x));
        return;
    }
    /* heap sort: the largest kept goes last, and so on */
    for (size_t n = sel->kept; n > 1; n--) {
        int t = sel->heap[0];
        sel->heap[0] = sel->heap[n - 1];
        sel->heap[n - 1] = t;
        heap_sift_down(sel->heap, n - 1, 0);
    }
}

typedef struct frustum_query {
    const rp_scene   *s;
    const rp_frustum *f;
    rp_dfrustum       df;
    rp_scene_select   select;
    uint32_t          layers;
    bool              filter;
    selection         sel;
} frustum_query;

/* Object `data` of kind k against the frustum by its own test. */
static bool object_selected(const frustum_query *fq, unsigned k, const unsigned char *data)
{
    const rp_frustum *f = fq->f;
    const rp_scene_select mode = fq->select;
    switch (k) {
    case KIND_SPHERE: {
        const rp_sphere *o = (const rp_sphere *)data;
        return mode == RP_SELECT_MEETS ? rp_test_frustum_sphere_exact(f, o)
               : mode == RP_SELECT_INSIDE ? rp_frustum_contains_sphere(f, o)
                                          : rp_test_frustum_sphere_conservative(f, o);
    }
    case KIND_ELLIPSOID: {
        const rp_ellipsoid *o = (const rp_ellipsoid *)data;
        return mode == RP_SELECT_MEETS ? rp_test_frustum_ellipsoid_exact(f, o)
               : mode == RP_SELECT_INSIDE ? rp_frustum_contains_ellipsoid(f, o)
                                          : rp_test_frustum_ellipsoid_conservative(f, o);
    }
    case KIND_AABB: {
        const rp_aabb *o = (const rp_aabb *)data;
        return mode == RP_SELECT_MEETS ? rp_test_frustum_aabb_exact(f, o)
               : mode == RP_SELECT_INSIDE ? rp_frustum_contains_aabb(f, o)
                                          : rp_test_frustum_aabb_conservative(f, o);
    }
    case KIND_OBB: {
        const rp_obb *o = (const rp_obb *)data;
        return mode == RP_SELECT_MEETS ? rp_test_frustum_obb_exact(f, o)
               : mode == RP_SELECT_INSIDE ? rp_frustum_contains_obb(f, o)
                                          : rp_test_frustum_obb_conservative(f, o);
    }
    case KIND_MESH: {
        const mesh_instance *m = (const mesh_instance *)data;
        mat4 model;
        glm_mat4_copy((vec4 *)m->model, model);
        return mode == RP_SELECT_MEETS ? rp_test_frustum_mesh_instance_exact(f, m->mesh, model)
               : mode == RP_SELECT_INSIDE
                   ? rp_frustum_contains_mesh_instance(f, m->mesh, model)
                   : rp_test_frustum_mesh_instance_conservative(f, m->mesh, model);
    }
    case KIND_POINT:
        return rp_frustum_contains_point(f, ((const thin_point *)data)->p);
    case KIND_SEGMENT: {
        const thin_segment *g = (const thin_segment *)data;
        return mode == RP_SELECT_INSIDE ? rp_frustum_contains_polyline(f, &g->ends[0][0], 2, 0)
                                        : rp_test_frustum_segment(f, g->ends[0], g->ends[1]);
    }
    default: {
        const thin_polyline *l = (const thin_polyline *)data;
        return mode == RP_SELECT_INSIDE ? rp_frustum_contains_polyline(f, l->xyz, l->count, 0)
                                        : rp_test_frustum_polyline(f, l->xyz, l->count, 0, NULL);
    }
    }
}

/* Leaf entries [first, first + count): each whose mask matches and, unless
   the box around it lies wholly inside (`inside`), whose own test says so.
   Mesh instances are always asked: one whose triangles all have zero area
   meets nothing, wherever its bounds are. */
static void select_leaf(frustum_query *fq, uint32_t first, uint32_t count, bool inside)
{
    const rp_scene *s = fq->s;
    for (uint32_t i = first; i < first + count; i++) {
        if (fq->filter && (s->leaf_mask[i] & fq->layers) == 0)
            continue;
        uint32_t ks = s->kind_slot[i];
        unsigned k = ks >> RP_SLOT_BITS;
        const unsigned char *data = s->built[k].data + (size_t)(ks & RP_SLOT_MAX) * kind_size[k];
        if ((inside && k != KIND_MESH) || object_selected(fq, k, data))
            select_object(&fq->sel, s->prims[i]);
    }
}

/* Depth first from the node `root` refers to (rp_bvh4_child_first);
   `inside`: its whole box lies inside, so no box below needs the planes. */
static void walk_frustum(frustum_query *fq, uint32_t root, bool inside)
{
    const rp_scene *s = fq->s;
    uint32_t stack[RP_BVH8_STACK];
    int sp = 0;
    stack[sp++] = root;
    while (sp > 0) {
        const uint32_t ref = stack[--sp];
        const uint32_t q = rp_bvh4_child_first(ref, s->halves);
        for (uint32_t h = q; h < q + rp_bvh4_child_halves(ref, s->halves); h++) {
            const rp_bvh4_node *n = &s->nodes[h];
            int slots = rp_bvh4_slots_used(n);
            if (fq->filter)
                slots &= rp_bvh4_layer_slots(&s->node_masks[h], fq->layers);
            for (int i = 0; i < 4; i++) {
                if (!((slots >> i) & 1))
                    continue;
                bool whole = inside;
                if (!whole) {
                    const float lo[3] = {n->b[0][i], n->b[1][i], n->b[2][i]};
                    const float hi[3] = {n->b[3][i], n->b[4][i], n->b[5][i]};
                    const rp_frustum_side side =
                        rp_dfrustum_aabb_side(&fq->df, lo, hi, RP_SCENE_FRUSTUM_MARGIN);
                    if (side == RP_SIDE_OUTSIDE)
                        continue;
                    whole = side == RP_SIDE_INSIDE;
                }
                if (n->count[i] > 0) {
                    select_leaf(fq, n->child[i], n->count[i], whole);
                    continue;
                }
                const rp_bvh4_range r =
                    whole ? rp_bvh4_child_range(s->ranges, n->child[i], s->halves)
                          : (rp_bvh4_range){0, 0};
                if (r.end > r.first)
                    select_leaf(fq, r.first, r.end - r.first, true);   /* no node loaded */
                else if (whole && !inside)
                    walk_frustum(fq, n->child[i], true);   /* one level of recursion */
                else
                    stack[sp++] = n->child[i];   /* RP_BVH8_STACK: its bound */
            }
        }
    }
}

/* A selection through the bitmap pays for clearing and reading it, one bit
   per object: worth it unless the caller wants few (here: fewer than one
   per 64 objects, or none). */
static bool wants_bitmap(size_t cap, size_t objects)
{
    return cap > 0 && cap >= objects / 64;
}

size_t rp_scene_query_frustum(const rp_scene *s, const rp_frustum *f, const rp_scene_query *query,
                              int *out, size_t cap)
{
    frustum_query fq;
    if (s == NULL || !frustum_query_valid(query) || s->built_count == 0 || s->nodes == NULL ||
        !rp_dfrustum_from(f, &fq.df))
        return 0;
    if (out == NULL)
        cap = 0;
    fq.s = s;
    fq.f = f;
    fq.select = query ? query->select : RP_SELECT_MEETS;
    fq.layers = query && query->layers != 0 ? query->layers : UINT32_MAX;
    fq.filter = s->node_masks != NULL;
    const size_t words = (s->built_count + 63) / 64;
    fq.sel.bits = wants_bitmap(cap, s->built_count) ? calloc(words, sizeof *fq.sel.bits) : NULL;
    fq.sel.heap = out;
    fq.sel.cap = cap;
    fq.sel.kept = fq.sel.total = 0;
    walk_frustum(&fq, rp_bvh4_root(s->halves), false);
    if (fq.sel.total > 0 && cap > 0)
        selection_finish(&fq.sel, out, words);
    free(fq.sel.bits);
    return fq.sel.total;
}

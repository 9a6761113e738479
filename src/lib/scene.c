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
 *
 * The tree is the builder's binary tree collapsed into a BVH4 (bvh4.h),
 * walked nearest child first with the four-box slab test; moves refit its
 * boxes in place. Boxes are computed in double and rounded outwards to
 * float with a small relative margin, and the slab test is conservative
 * (bvh4.h): a box never cuts off a hit its object's own function would
 * report, so the scene's answer equals the brute-force loop over every
 * object.
 */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "raypick/scene.h"
#include "bvh4.h"
#include "internal.h"
#include "quadric.h"
#include "thread_internal.h"
#include "bvh_build.h"

enum kind { KIND_SPHERE, KIND_ELLIPSOID, KIND_AABB, KIND_OBB, KIND_MESH, KIND_COUNT };

typedef struct mesh_instance {
    mat4           model;
    const rp_mesh *mesh;
} mesh_instance;

static const size_t kind_size[KIND_COUNT] = {
    sizeof(rp_sphere), sizeof(rp_ellipsoid), sizeof(rp_aabb), sizeof(rp_obb),
    sizeof(mesh_instance),
};

#define RP_SLOT_BITS 29
#define RP_SLOT_MAX ((1u << RP_SLOT_BITS) - 1u)

/* One kind's objects, in the order they were added. */
typedef struct kind_array {
    unsigned char *data;
    size_t count, cap;      /* elements */
} kind_array;

struct rp_scene {
    /* per object, by index */
    uint32_t      *where;   /* kind << RP_SLOT_BITS | slot in its kind's array */
    rp_bvh_box    *box;     /* world box, pending                          */
    size_t         count, cap;

    kind_array pending[KIND_COUNT];
    kind_array built[KIND_COUNT];   /* snapshot at the last build          */
    size_t     built_count;         /* objects the tree covers             */
    bool       moved;               /* a set_* since the last build        */

    /* the built tree: NULL nodes before the first build of a non-empty
       scene. A leaf's objects are entries [child, child + count) of prims
       (their indices) and kind_slot (kind << RP_SLOT_BITS | slot, so the
       traversal finds an object without two more random reads). */
    rp_bvh4_node *nodes;
    uint32_t      node_count;
    uint32_t     *prims;
    uint32_t     *kind_slot;
    uint32_t      leaf_count;       /* entries of prims and kind_slot      */
    uint32_t      top_count, half;  /* the refit's parts (rp_bvh's)        */
    double        built_cost;       /* SAH cost right after the build      */
    float         max_abs;          /* largest |coordinate| of the root box */
};

/* Rebuild instead of refit when the refitted tree's SAH cost exceeds the
   freshly built one's by this factor. */
#define RP_SCENE_REBUILD_FACTOR 2.0

/* The scene's object count must fit an int (the index type). */
#define RP_SCENE_MAX_OBJECTS ((size_t)INT_MAX)

/* ---- lifetime -------------------------------------------------------- */

static void free_tree(rp_scene *s)
{
    rp_free_large(s->nodes);
    rp_free_large(s->prims);
    rp_free_large(s->kind_slot);
    s->nodes = NULL;
    s->prims = s->kind_slot = NULL;
    s->node_count = s->leaf_count = 0;
    s->top_count = s->half = 0;
}

rp_scene *rp_scene_create(void)
{
    return calloc(1, sizeof(rp_scene));
}

void rp_scene_destroy(rp_scene *s)
{
    if (s == NULL)
        return;
    for (int k = 0; k < KIND_COUNT; k++) {
        free(s->pending[k].data);
        rp_free_large(s->built[k].data);
    }
    free(s->where);
    free(s->box);
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
    void *q = realloc(*p, n * elem);
    if (q == NULL)
        return false;
    *p = q;
    *cap = n;
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
    size_t c1 = cap, c2 = cap;
    if (!grow((void **)&s->where, &c1, need, sizeof *s->where) ||
        !grow((void **)&s->box, &c2, need, sizeof *s->box))
        return -1;
    s->cap = c1 < c2 ? c1 : c2;
    if (!grow((void **)&a->data, &a->cap, a->count + 1, kind_size[k]))
        return -1;
    memcpy(a->data + a->count * kind_size[k], data, kind_size[k]);
    s->where[s->count] = (uint32_t)k << RP_SLOT_BITS | (uint32_t)a->count;
    s->box[s->count] = *box;
    a->count++;
    return (int)s->count++;
}

/* The pending data of object `index` when it is of kind k; NULL otherwise. */
static void *object_of_kind(rp_scene *s, int index, enum kind k)
{
    if (s == NULL || index < 0 || (size_t)index >= s->count ||
        s->where[index] >> RP_SLOT_BITS != (uint32_t)k)
        return NULL;
    return s->pending[k].data + (size_t)(s->where[index] & RP_SLOT_MAX) * kind_size[k];
}

static bool set_object(rp_scene *s, int index, enum kind k, const void *data,
                       const rp_bvh_box *box)
{
    void *dst = object_of_kind(s, index, k);
    if (dst == NULL)
        return false;
    memcpy(dst, data, kind_size[k]);
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
    mesh_instance *inst = object_of_kind(s, index, KIND_MESH);
    if (inst == NULL || model == NULL || !mesh_box(inst->mesh, model, &box))
        return false;
    mesh_instance moved = *inst;
    glm_mat4_copy(model, moved.model);
    return set_object(s, index, KIND_MESH, &moved, &box);
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

static void take_snapshot(rp_scene *s)
{
    for (int k = 0; k < KIND_COUNT; k++) {
        kind_array *b = &s->built[k];
        if (s->pending[k].count > 0)
            memcpy(b->data, s->pending[k].data, s->pending[k].count * kind_size[k]);
        b->count = s->pending[k].count;
    }
    s->built_count = s->count;
    s->moved = false;
}

/* The largest |coordinate| of the tree's root box (the slab test's pad). */
static void update_max_abs(rp_scene *s)
{
    rp_bvh_box root;
    s->max_abs = 0.0f;
    if (!rp_bvh4_bounds(s->nodes, s->node_count, &root))
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
    free_tree(s);
    s->nodes = bin.nodes;
    s->node_count = bin.node_count;
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
    if (s->count == s->built_count && !s->moved)
        return true;                    /* nothing changed since the last build */
    if (!reserve_snapshot(s))
        return false;
    if (s->count != s->built_count || (s->count > 0 && s->nodes == NULL)) {
        if (!rebuild(s))
            return false;
    } else if (s->moved) {
        /* two threads pay from some thousands of nodes on */
        bool threaded = s->node_count > 4096 && rp_cpu_count() > 1;
        double cost = rp_bvh4_refit_split(s->nodes, s->node_count, s->top_count, s->half,
                                          s->prims, s->box, threaded);
        update_max_abs(s);
        /* A refitted tree keeps its shape; when objects have moved so far
           that its boxes overlap badly, a rebuild pays for itself. If the
           rebuild runs out of memory the refitted tree is still correct. */
        if (cost > RP_SCENE_REBUILD_FACTOR * s->built_cost)
            (void)rebuild(s);
    }
    take_snapshot(s);
    return true;
}

/* ---- queries ---------------------------------------------------------- */

typedef struct query {
    const rp_scene *s;
    const rp_ray   *ray;
    rp_bvh4_ray     box_ray;
    float  t_max;           /* boxes entered beyond this cannot hold the best */
    int    best;
    rp_hit hit;
    rp_triangle_hit tri;
    rp_scene_trace *trace;  /* NULL unless rp_intersect_ray_scene_traced */
} query;

/* Whether a hit at t by object obj would lose to the best so far (equal t:
   the lower index wins). */
static bool loses(const query *q, float t, uint32_t obj)
{
    return q->best >= 0 && (t > q->hit.t || (t == q->hit.t && (int)obj > q->best));
}

/* A sphere's hit t exactly as rp_intersect_ray_sphere computes it (the
   same roots, quadric.h), without the normal and point it would also
   make: false when it misses. Most spheres a ray meets in the leaves it
   visits either miss or lie behind the best hit so far; only the others
   go through the full function. */
static bool sphere_t(const rp_ray *ray, const rp_sphere *sp, float *t)
{
    const double f[3] = {(double)ray->origin[0] - sp->center[0],
                         (double)ray->origin[1] - sp->center[1],
                         (double)ray->origin[2] - sp->center[2]};
    const double d[3] = {ray->dir[0], ray->dir[1], ray->dir[2]};
    double t0, t1;
    if (!rp__ray_sphere_roots(f, d, sp->radius, &t0, &t1) || t1 < 0.0)
        return false;
    double first = rp__first_root(t0, t1);
    if (!rp__fits_float(first))
        return false;                   /* the full function refuses it too */
    *t = (float)first + 0.0f;           /* as the hit's t */
    return true;
}

/* Runs the object of leaf entry i through its own function and keeps the
   nearest hit (lowest index on equal t). */
static void test_object(query *q, uint32_t i)
{
    const rp_scene *s = q->s;
    uint32_t ks = s->kind_slot[i];
    unsigned k = ks >> RP_SLOT_BITS;
    const unsigned char *data = s->built[k].data + (size_t)(ks & RP_SLOT_MAX) * kind_size[k];
    rp_hit h;
    rp_triangle_hit th;
    bool hit;
    switch (k) {
    case KIND_SPHERE: {
        float t;
        if (!sphere_t(q->ray, (const rp_sphere *)data, &t) || loses(q, t, s->prims[i]))
            return;
        hit = rp_intersect_ray_sphere(q->ray, (const rp_sphere *)data, &h);
        break;
    }
    case KIND_ELLIPSOID:
        hit = rp_intersect_ray_ellipsoid(q->ray, (const rp_ellipsoid *)data, &h);
        break;
    case KIND_AABB:
        hit = rp_intersect_ray_aabb(q->ray, (const rp_aabb *)data, &h);
        break;
    case KIND_OBB:
        hit = rp_intersect_ray_obb(q->ray, (const rp_obb *)data, &h);
        break;
    default: {
        const mesh_instance *m = (const mesh_instance *)data;
        mat4 model;
        glm_mat4_copy((vec4 *)m->model, model);
        hit = rp_intersect_ray_mesh_instance(m->mesh, model, q->ray, &h, &th);
        break;
    }
    }
    uint32_t obj = s->prims[i];
    if (!hit || loses(q, h.t, obj))
        return;
    q->best = (int)obj;
    q->hit = h;
    if (k == KIND_MESH)
        q->tri = th;
    /* equal t must still be visited (a lower index may tie): keep a
       relative margin above the best t for the boxes' rounding, rounded
       up to float */
    double limit = (double)h.t * (1.0 + 1e-6) + 1e-30;
    float t_max = (float)limit;
    if ((double)t_max < limit)
        t_max = nextafterf(t_max, INFINITY);
    q->t_max = t_max;
}

/* ---- tracing (rp_intersect_ray_scene_traced) ---- */

/* The box of child ref r in node n (the slot that holds it). */
static void child_box(const rp_bvh4_node *n, const rp_bvh4_ref *r, rp_aabb *out)
{
    for (int i = 0; i < 4; i++) {
        if (n->child[i] != r->first || n->count[i] != r->count)
            continue;
        for (int a = 0; a < 3; a++) {
            out->min[a] = n->b[a][i];
            out->max[a] = n->b[3 + a][i];
        }
        return;
    }
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
   Inlined into both callers, so the untraced one has no tracing left. */
static RP_INLINE_ALWAYS void traverse_with(query *q, rp_scene_trace *trace)
{
    const rp_scene *s = q->s;
    const rp_bvh4_node *nodes = s->nodes;
    rp_bvh4_ref stack[RP_BVH4_STACK];
    rp_aabb boxes[RP_BVH4_STACK], box;
    int sp = 0;
    rp_bvh4_ref cur = {0, 0, 0.0f};     /* the root */
    if (trace) {
        rp_bvh_box root;
        rp_bvh4_bounds(nodes, s->node_count, &root);
        memcpy(box.min, root.min, sizeof box.min);
        memcpy(box.max, root.max, sizeof box.max);
    }
    for (;;) {
        if (trace)
            trace_visit(trace, &box, cur.count);
        if (cur.count > 0) {
            for (uint32_t i = cur.first; i < cur.first + cur.count; i++)
                test_object(q, i);
        } else {
            const rp_bvh4_node *n = &nodes[cur.first];
            float t_enter[4];
            int mask = rp_bvh4_enter(n, &q->box_ray, q->t_max, t_enter);
            /* one or two children entered (most nodes): no sort, and no
               prefetch of the one visited next (it is loaded right away) */
            const int rest = mask & (mask - 1);
            if (mask != 0 && !trace && (rest & (rest - 1)) == 0) {
                static const int8_t low[16] = {0, 0, 1, 0, 2, 0, 1, 0, 3, 0, 1, 0, 2, 0, 1, 0};
                int near = low[mask];
                if (rest != 0) {
                    const int far0 = low[rest];
                    const int far = t_enter[far0] < t_enter[near] ? near : far0;
                    near = near + far0 - far;
                    stack[sp].first = n->child[far];
                    stack[sp].count = n->count[far];
                    stack[sp].t_enter = t_enter[far];
                    if (n->count[far] == 0) {
                        RP_PREFETCH(&nodes[n->child[far]]);
                        RP_PREFETCH((const char *)&nodes[n->child[far]] + 64);
                    }
                    sp++;
                }
                cur.first = n->child[near];
                cur.count = n->count[near];
                cur.t_enter = t_enter[near];
                continue;
            }
            if (mask != 0) {
                rp_bvh4_ref hit[4];
                int k = rp_bvh4_order(n, mask, t_enter, hit);
                for (int j = 0; j < k; j++) {
                    /* a node's two lines, or a leaf's first entries */
                    if (hit[j].count == 0) {
                        RP_PREFETCH(&nodes[hit[j].first]);
                        RP_PREFETCH((const char *)&nodes[hit[j].first] + 64);
                    } else {
                        RP_PREFETCH(&s->kind_slot[hit[j].first]);
                    }
                }
                /* the far ones wait on the stack (RP_BVH4_STACK: its bound) */
                for (int j = k - 1; j > 0; j--) {
                    if (trace)
                        child_box(n, &hit[j], &boxes[sp]);
                    stack[sp++] = hit[j];
                }
                cur = hit[0];
                if (trace)
                    child_box(n, &hit[0], &box);
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

static void traverse(query *q)
{
    traverse_with(q, NULL);
}

static void traverse_traced(query *q)
{
    traverse_with(q, q->trace);
}

/* rp_intersect_ray_scene_traced with trace set up (or NULL). */
static int intersect(const rp_scene *s, const rp_ray *ray, rp_scene_trace *trace, rp_hit *out,
                     rp_triangle_hit *tri)
{
    if (s == NULL || !rp_ray_is_valid(ray) || s->built_count == 0 || s->nodes == NULL)
        return -1;
    query q;
    q.s = s;
    q.ray = ray;
    q.trace = trace;
    rp_bvh4_ray_setup(ray, s->max_abs, &q.box_ray);
    q.t_max = INFINITY;
    q.best = -1;
    if (trace)
        trace->tree_nodes = (int)s->node_count;
    if (trace)
        traverse_traced(&q);
    else
        traverse(&q);
    if (q.best < 0)
        return -1;
    if (out)
        *out = q.hit;
    if (tri && s->where[q.best] >> RP_SLOT_BITS == KIND_MESH)
        *tri = q.tri;
    return q.best;
}

int rp_intersect_ray_scene(const rp_scene *s, const rp_ray *ray, rp_hit *out,
                           rp_triangle_hit *tri)
{
    return intersect(s, ray, NULL, out, tri);
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
    return intersect(s, ray, trace, out, tri);
}

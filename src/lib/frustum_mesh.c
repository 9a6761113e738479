/* frustum_mesh.c: a mesh instance against a frustum, exactly, triangle by
   triangle through the mesh's own BVH (mesh_bvh.h): the boxes wholly
   outside a plane are skipped, a box wholly inside answers for all its
   triangles at once, and the triangles of the boxes between go through
   the separating-axis test (frustum_box.c). In double, on rp_dfrustum. */
#include "raypick/frustum.h"
#include "internal.h"
#include "frustum_internal.h"
#include "mesh_internal.h"

/* Margin of the walk's box test, relative to the size of the coordinates:
   far above the rounding of a world vertex to float (2^-24 of it) and of
   the box's transform in double, so a box the walk skips or takes whole
   holds no vertex that the triangle test would see on the other side. */
#define RP_MESH_WALK_MARGIN 1e-6

/* An affine model matrix in double: world = lin * v + move. */
typedef struct placement {
    double lin[3][3];   /* lin[r][c]: row r, column c (cglm: model[c][r]) */
    double move[3];
} placement;

/* false for a non-finite or non-affine matrix (bottom row not 0 0 0 1). */
static bool placement_from(mat4 model, placement *out)
{
    if (model == NULL || !rp_mat4_finite(model) || model[0][3] != 0.0f ||
        model[1][3] != 0.0f || model[2][3] != 0.0f || model[3][3] != 1.0f)
        return false;
    for (int r = 0; r < 3; r++) {
        for (int c = 0; c < 3; c++)
            out->lin[r][c] = model[c][r];
        out->move[r] = model[3][r];
    }
    return true;
}

/* A vertex's world position as the header promises it: model * v in
   double, rounded to float (false when that overflows). */
static bool world_vertex(const placement *pl, const float v[3], double out[3])
{
    for (int r = 0; r < 3; r++) {
        const float w = (float)(pl->lin[r][0] * v[0] + pl->lin[r][1] * v[1] +
                                pl->lin[r][2] * v[2] + pl->move[r]);
        if (!isfinite(w))
            return false;
        out[r] = w;
    }
    return true;
}

/* The triangle in slot s of the packets, in the world; false when a
   vertex overflows float. */
static bool world_triangle(const rp_mesh *m, const placement *pl, uint32_t s, double v[3][3])
{
    const rp_tri4 *pk = &m->bvh.packs[s / RP_TRI4_LANES];
    const uint32_t lane = s % RP_TRI4_LANES;
    for (int k = 0; k < 3; k++) {
        const float p[3] = {pk->v[3 * k][lane], pk->v[3 * k + 1][lane], pk->v[3 * k + 2][lane]};
        if (!world_vertex(pl, p, v[k]))
            return false;
    }
    return true;
}

/* Where child slot i of a BVH4 half lies: its model-space box carried into
   the world (a parallelepiped), against the planes with the walk's margin. */
static rp_frustum_side slot_side(const rp_dfrustum *f, const placement *pl,
                                 const rp_bvh4_node *n, int i)
{
    double c[3], h[3];
    for (int a = 0; a < 3; a++) {
        c[a] = 0.5 * n->b[a][i] + 0.5 * n->b[3 + a][i];
        h[a] = 0.5 * n->b[3 + a][i] - 0.5 * n->b[a][i];
    }
    rp_dbox b;
    double size = f->scale;
    for (int r = 0; r < 3; r++) {
        b.center[r] = pl->lin[r][0] * c[0] + pl->lin[r][1] * c[1] + pl->lin[r][2] * c[2] +
                      pl->move[r];
        double reach = fabs(b.center[r]);
        for (int a = 0; a < 3; a++) {
            b.axis[a][r] = pl->lin[r][a] * h[a];
            reach += fabs(b.axis[a][r]);
        }
        size += reach;
    }
    return rp_dfrustum_box_side_margin(f, &b, RP_MESH_WALK_MARGIN * size);
}

/* What the walk asks of the mesh. */
typedef enum walk_goal {
    GOAL_MEETS,     /* does some triangle meet the frustum? */
    GOAL_INSIDE     /* is every vertex of every triangle inside? */
} walk_goal;

/* The answer a leaf of `count` triangles from slot `first` gives alone:
   for GOAL_MEETS true when one meets; for GOAL_INSIDE false when one has
   a vertex outside. Otherwise the walk goes on. */
static bool leaf_decides(const rp_mesh *m, const rp_dfrustum *f, const placement *pl,
                         uint32_t first, uint32_t count, walk_goal goal)
{
    for (uint32_t s = first; s < first + count; s++) {
        double v[3][3];
        const bool finite = world_triangle(m, pl, s, v);
        if (goal == GOAL_MEETS) {
            if (finite && rp_dfrustum_triangle_meets(f, (const double(*)[3])v))
                return true;
        } else if (!finite || !rp_dfrustum_contains_point(f, v[0]) ||
                   !rp_dfrustum_contains_point(f, v[1]) || !rp_dfrustum_contains_point(f, v[2])) {
            return true;
        }
    }
    return false;
}

/* Depth first over the wide nodes (mesh_bvh.h). A child wholly outside
   decides GOAL_INSIDE (false) and is skipped for GOAL_MEETS; one wholly
   inside decides GOAL_MEETS (true) and is skipped for GOAL_INSIDE. */
static bool walk(const rp_mesh *m, const rp_dfrustum *f, const placement *pl, walk_goal goal)
{
    const rp_mesh_bvh *bvh = &m->bvh;
    if (bvh->node_count == 0)
        return false;                  /* no triangle of non-zero area */
    const bool decided = goal == GOAL_MEETS;   /* the answer once decided */
    const rp_frustum_side deciding = goal == GOAL_MEETS ? RP_SIDE_INSIDE : RP_SIDE_OUTSIDE;
    uint32_t stack[RP_BVH8_STACK];
    int sp = 0;
    stack[sp++] = rp_bvh8_ref(0, true);   /* the root: two halves */
    while (sp > 0) {
        const uint32_t ref = stack[--sp];
        const rp_bvh4_node *n = &bvh->nodes[rp_bvh8_first(ref)];
        const int halves = rp_bvh8_two(ref) ? 2 : 1;
        for (int h = 0; h < halves; h++)
            for (int i = 0; i < 4; i++) {
                if (n[h].child[i] == RP_BVH4_EMPTY)
                    continue;
                const rp_frustum_side side = slot_side(f, pl, &n[h], i);
                if (side == deciding)
                    return decided;
                if (side != RP_SIDE_CROSSING)
                    continue;
                if (n[h].count[i] == 0)
                    stack[sp++] = n[h].child[i];   /* RP_BVH8_STACK: its bound */
                else if (leaf_decides(m, f, pl, n[h].child[i], n[h].count[i], goal))
                    return decided;
            }
    }
    return !decided;
}

static bool mesh_answer(const rp_frustum *f, const rp_mesh *m, mat4 model, walk_goal goal)
{
    rp_dfrustum df;
    placement pl;
    return m != NULL && placement_from(model, &pl) && rp_dfrustum_from(f, &df) &&
           walk(m, &df, &pl, goal);
}

bool rp_test_frustum_mesh_instance_exact(const rp_frustum *f, const rp_mesh *m, mat4 model)
{
    return mesh_answer(f, m, model, GOAL_MEETS);
}

bool rp_frustum_contains_mesh_instance(const rp_frustum *f, const rp_mesh *m, mat4 model)
{
    return mesh_answer(f, m, model, GOAL_INSIDE);
}

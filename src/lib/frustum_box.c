/* frustum_box.c: boxes (axis-aligned, oriented, a mesh's bounds under its
   model matrix) and triangles against a frustum, plane by plane and by
   the separating-axis theorem (Ericson, Real-Time Collision Detection,
   5.2.1 and 4.4). In double, on rp_dfrustum (frustum.c). */
#include "raypick/frustum.h"
#include "internal.h"
#include "frustum_internal.h"

/* Relative slack of a separating axis (see RP_FRUSTUM_TOUCH_REL in
   frustum.c): a gap this small is rounding, and touching counts. */
#define RP_SAT_TOUCH_REL 1e-12

static double dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void cross3(const double a[3], const double b[3], double out[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

static double abs_sum3(const double v[3])
{
    return fabs(v[0]) + fabs(v[1]) + fabs(v[2]);
}

/* The twelve edges of the frustum as direction vectors: corners i and
   i | bit for each corner i without that bit. */
static void frustum_edges(const rp_dfrustum *f, double edges[12][3])
{
    int e = 0;
    for (int bit = 1; bit < 8; bit <<= 1)
        for (int i = 0; i < 8; i++)
            if (!(i & bit)) {
                for (int c = 0; c < 3; c++)
                    edges[e][c] = f->corner[i | bit][c] - f->corner[i][c];
                e++;
            }
}

/* The frustum's extent along axis l: [min, max] of its corners. */
static void frustum_interval(const rp_dfrustum *f, const double l[3], double *lo, double *hi)
{
    *lo = INFINITY;
    *hi = -INFINITY;
    for (int i = 0; i < 8; i++) {
        const double p = dot3(f->corner[i], l);
        *lo = fmin(*lo, p);
        *hi = fmax(*hi, p);
    }
}

/* Do the intervals [lo, hi] (the shape's) and the frustum's along l leave
   a gap wider than rounding? The slack is relative to the coordinates'
   size times |l|, so a zero l (parallel edges) never separates. */
static bool separated_on(const rp_dfrustum *f, const double l[3], double lo, double hi,
                         double size)
{
    double flo, fhi;
    frustum_interval(f, l, &flo, &fhi);
    const double slack = RP_SAT_TOUCH_REL * abs_sum3(l) * (f->scale + size);
    return lo > fhi + slack || hi < flo - slack;
}

/* ---- boxes ---------------------------------------------------------------- */

/* The box's reach along l: sum over its axes of |axis . l|. */
static double box_radius(const rp_dbox *b, const double l[3])
{
    return fabs(dot3(b->axis[0], l)) + fabs(dot3(b->axis[1], l)) + fabs(dot3(b->axis[2], l));
}

rp_frustum_side rp_dfrustum_box_side(const rp_dfrustum *f, const rp_dbox *b)
{
    return rp_dfrustum_box_side_margin(f, b, 0.0);
}

rp_frustum_side rp_dfrustum_box_side_margin(const rp_dfrustum *f, const rp_dbox *b, double slack)
{
    rp_frustum_side side = RP_SIDE_INSIDE;
    for (int k = 0; k < 6; k++) {
        const double dist = dot3(f->n[k], b->center) + f->d[k];
        const double r = box_radius(b, f->n[k]);
        if (dist < -r - slack)
            return RP_SIDE_OUTSIDE;
        if (dist < r + slack)
            side = RP_SIDE_CROSSING;
    }
    return side;
}

/* Largest |coordinate| the box reaches: the size its rounding scales with. */
static double box_size(const rp_dbox *b)
{
    double size = 0.0;
    for (int c = 0; c < 3; c++)
        size = fmax(size, fabs(b->center[c]) + fabs(b->axis[0][c]) + fabs(b->axis[1][c]) +
                              fabs(b->axis[2][c]));
    return size;
}

static bool box_separated_on(const rp_dfrustum *f, const rp_dbox *b, const double l[3],
                             double size)
{
    const double c = dot3(b->center, l), r = box_radius(b, l);
    return separated_on(f, l, c - r, c + r, size);
}

/* Separating axes of two convex polyhedra: the face normals of each and
   the cross products of an edge of one with an edge of the other. The
   box's face normals are the cross products of its axes (for a flat box
   some are zero and separate nothing: its edges' products cover it). */
bool rp_dfrustum_box_meets(const rp_dfrustum *f, const rp_dbox *b)
{
    const rp_frustum_side side = rp_dfrustum_box_side(f, b);
    if (side != RP_SIDE_CROSSING)
        return side == RP_SIDE_INSIDE;
    const double size = box_size(b);
    for (int k = 0; k < 6; k++)
        if (box_separated_on(f, b, f->n[k], size))
            return false;
    double l[3];
    for (int i = 0; i < 3; i++) {
        cross3(b->axis[(i + 1) % 3], b->axis[(i + 2) % 3], l);
        if (box_separated_on(f, b, l, size))
            return false;
    }
    double edges[12][3];
    frustum_edges(f, edges);
    for (int i = 0; i < 3; i++)
        for (int e = 0; e < 12; e++) {
            cross3(b->axis[i], edges[e], l);
            if (box_separated_on(f, b, l, size))
                return false;
        }
    return true;
}

/* Which of the three box questions a public function asks. */
typedef enum box_query { BOX_CONSERVATIVE, BOX_EXACT, BOX_CONTAINED } box_query;

static bool box_answer(const rp_frustum *f, const rp_dbox *b, box_query q)
{
    rp_dfrustum df;
    if (!rp_dfrustum_from(f, &df))
        return false;
    switch (q) {
    case BOX_CONSERVATIVE: return rp_dfrustum_box_side(&df, b) != RP_SIDE_OUTSIDE;
    case BOX_EXACT:        return rp_dfrustum_box_meets(&df, b);
    case BOX_CONTAINED:    return rp_dfrustum_box_side(&df, b) == RP_SIDE_INSIDE;
    }
    return false;
}

static bool aabb_to_dbox(const rp_aabb *box, rp_dbox *b)
{
    if (box == NULL || !rp_vec3_finite(box->min) || !rp_vec3_finite(box->max))
        return false;
    for (int c = 0; c < 3; c++) {
        if (!(box->min[c] <= box->max[c]))
            return false;
        /* halves of float values: exact in double */
        b->center[c] = 0.5 * box->min[c] + 0.5 * box->max[c];
        for (int i = 0; i < 3; i++)
            b->axis[i][c] = i == c ? 0.5 * box->max[c] - 0.5 * box->min[c] : 0.0;
    }
    return true;
}

/* rp_intersect_ray_obb's rule: all zeros is axis-aligned, any other finite
   quaternion is normalised (scaled first: neither a huge nor a denormal
   one over- or underflows). axis[i] = R e_i * half_extents[i]. */
static bool obb_to_dbox(const rp_obb *box, rp_dbox *b)
{
    if (box == NULL || !rp_vec3_finite(box->center) || !rp_vec3_finite(box->half_extents) ||
        !rp_vec4_finite(box->orientation))
        return false;
    double q[4], m = 0.0;
    for (int i = 0; i < 4; i++)
        m = fmax(m, fabs((double)box->orientation[i]));
    for (int i = 0; i < 4; i++)
        q[i] = m > 0.0 ? box->orientation[i] / m : (i == 3 ? 1.0 : 0.0);
    const double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    const double x = q[0] / n, y = q[1] / n, z = q[2] / n, w = q[3] / n;
    const double rot[3][3] = {   /* rot[i] = R e_i, column i */
        {1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y)},
        {2 * (x * y - w * z), 1 - 2 * (x * x + z * z), 2 * (y * z + w * x)},
        {2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y)},
    };
    for (int i = 0; i < 3; i++) {
        if (!(box->half_extents[i] >= 0.0f))
            return false;
        b->center[i] = box->center[i];
        for (int c = 0; c < 3; c++)
            b->axis[i][c] = rot[i][c] * box->half_extents[i];
    }
    return true;
}

/* The mesh's bounds carried by an affine model matrix: centre M c + t,
   axes the model's columns times the half extents. */
static bool mesh_to_dbox(const rp_mesh *m, mat4 model, rp_dbox *b)
{
    rp_aabb bounds;
    rp_dbox local;
    if (model == NULL || !rp_mat4_finite(model) || model[0][3] != 0.0f ||
        model[1][3] != 0.0f || model[2][3] != 0.0f || model[3][3] != 1.0f ||
        !rp_mesh_bounds(m, &bounds) || !aabb_to_dbox(&bounds, &local))
        return false;
    for (int r = 0; r < 3; r++) {
        b->center[r] = model[3][r];
        for (int c = 0; c < 3; c++)
            b->center[r] += (double)model[c][r] * local.center[c];
    }
    for (int i = 0; i < 3; i++)
        for (int r = 0; r < 3; r++)
            b->axis[i][r] = (double)model[i][r] * local.axis[i][i];
    return true;
}

bool rp_test_frustum_aabb_conservative(const rp_frustum *f, const rp_aabb *box)
{
    rp_dbox b;
    return aabb_to_dbox(box, &b) && box_answer(f, &b, BOX_CONSERVATIVE);
}

bool rp_test_frustum_aabb_exact(const rp_frustum *f, const rp_aabb *box)
{
    rp_dbox b;
    return aabb_to_dbox(box, &b) && box_answer(f, &b, BOX_EXACT);
}

bool rp_frustum_contains_aabb(const rp_frustum *f, const rp_aabb *box)
{
    rp_dbox b;
    return aabb_to_dbox(box, &b) && box_answer(f, &b, BOX_CONTAINED);
}

bool rp_test_frustum_obb_conservative(const rp_frustum *f, const rp_obb *box)
{
    rp_dbox b;
    return obb_to_dbox(box, &b) && box_answer(f, &b, BOX_CONSERVATIVE);
}

bool rp_test_frustum_obb_exact(const rp_frustum *f, const rp_obb *box)
{
    rp_dbox b;
    return obb_to_dbox(box, &b) && box_answer(f, &b, BOX_EXACT);
}

bool rp_frustum_contains_obb(const rp_frustum *f, const rp_obb *box)
{
    rp_dbox b;
    return obb_to_dbox(box, &b) && box_answer(f, &b, BOX_CONTAINED);
}

bool rp_test_frustum_mesh_instance_conservative(const rp_frustum *f, const rp_mesh *m,
                                                mat4 model)
{
    rp_dbox b;
    return mesh_to_dbox(m, model, &b) && box_answer(f, &b, BOX_EXACT);
}

bool rp_frustum_contains_mesh_instance_conservative(const rp_frustum *f, const rp_mesh *m,
                                                    mat4 model)
{
    rp_dbox b;
    return mesh_to_dbox(m, model, &b) && box_answer(f, &b, BOX_CONTAINED);
}

/* ---- triangles ------------------------------------------------------------- */

static void triangle_interval(const double v[3][3], const double l[3], double *lo, double *hi)
{
    const double a = dot3(v[0], l), b = dot3(v[1], l), c = dot3(v[2], l);
    *lo = fmin(a, fmin(b, c));
    *hi = fmax(a, fmax(b, c));
}

static bool triangle_separated_on(const rp_dfrustum *f, const double v[3][3],
                                  const double l[3], double size)
{
    double lo, hi;
    triangle_interval(v, l, &lo, &hi);
    return separated_on(f, l, lo, hi, size);
}

/* The triangle against the planes alone: OUTSIDE when all three corners
   are behind one plane, INSIDE when all are inside every plane. */
static rp_frustum_side triangle_side(const rp_dfrustum *f, const double v[3][3])
{
    rp_frustum_side side = RP_SIDE_INSIDE;
    for (int k = 0; k < 6; k++) {
        int behind = 0;
        for (int i = 0; i < 3; i++)
            behind += dot3(f->n[k], v[i]) + f->d[k] < 0.0;
        if (behind == 3)
            return RP_SIDE_OUTSIDE;
        if (behind > 0)
            side = RP_SIDE_CROSSING;
    }
    return side;
}

bool rp_dfrustum_triangle_meets(const rp_dfrustum *f, const double v[3][3])
{
    const rp_frustum_side side = triangle_side(f, v);
    if (side != RP_SIDE_CROSSING)
        return side == RP_SIDE_INSIDE;

    double size = 0.0, edge[3][3], l[3];
    for (int i = 0; i < 3; i++)
        for (int c = 0; c < 3; c++) {
            size = fmax(size, fabs(v[i][c]));
            edge[i][c] = v[(i + 1) % 3][c] - v[i][c];
        }
    for (int k = 0; k < 6; k++)
        if (triangle_separated_on(f, v, f->n[k], size))
            return false;
    cross3(edge[0], edge[1], l);   /* the triangle's normal; zero if degenerate */
    if (triangle_separated_on(f, v, l, size))
        return false;
    double fedges[12][3];
    frustum_edges(f, fedges);
    for (int i = 0; i < 3; i++)
        for (int e = 0; e < 12; e++) {
            cross3(edge[i], fedges[e], l);
            if (triangle_separated_on(f, v, l, size))
                return false;
        }
    return true;
}

bool rp_test_frustum_triangle(const rp_frustum *f, const vec3 v0, const vec3 v1, const vec3 v2)
{
    rp_dfrustum df;
    if (v0 == NULL || v1 == NULL || v2 == NULL || !rp_vec3_finite(v0) || !rp_vec3_finite(v1) ||
        !rp_vec3_finite(v2) || !rp_dfrustum_from(f, &df))
        return false;
    const double v[3][3] = {{v0[0], v0[1], v0[2]}, {v1[0], v1[1], v1[2]}, {v2[0], v2[1], v2[2]}};
    return rp_dfrustum_triangle_meets(&df, v);
}

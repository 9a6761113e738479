/* frustum.c: the frustum from a camera or a screen rectangle, and the
   tests of points, spheres, ellipsoids, segments and polylines against it.
   Boxes and triangles (separating axes) are in frustum_box.c.

   Everything is decided in double on the frustum's unit planes; the
   corners serve the exact tests, which look at the frustum's faces,
   edges and corners. */
#include "raypick/frustum.h"
#include "internal.h"
#include "camera_math.h"
#include "frustum_internal.h"

#include <float.h>

/* A normal of a frustum given by the caller must be unit length within
   this (the builders' float rounding is 1e-7; a hand-made frustum from
   float maths drifts by more). */
#define RP_FRUSTUM_UNIT_TOLERANCE 1e-3
/* Slack of the exact tests, relative to the frustum's size: a point this
   close to a face counts as on it, so a shape that touches the frustum
   counts as meeting it despite rounding. */
#define RP_FRUSTUM_TOUCH_REL 1e-12

static double dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* Signed distance of p from plane k: >= 0 inside. */
static double plane_dist(const rp_dfrustum *f, int k, const double p[3])
{
    return dot3(f->n[k], p) + f->d[k];
}

/* ---- building ------------------------------------------------------------ */

/* Row r of a matrix in double: the coefficients of x, y, z and 1 in clip
   coordinate r (x, y, z or w). */
static void clip_row(const double pv[16], int r, double row[4])
{
    for (int c = 0; c < 4; c++)
        row[c] = pv[c * 4 + r];
}

/* a * row_a + b * row_b, a plane as four coefficients. */
static void combine(double a, const double row_a[4], double b, const double row_b[4],
                    double plane[4])
{
    for (int c = 0; c < 4; c++)
        plane[c] = a * row_a[c] + b * row_b[c];
}

/* The six planes of the sub-rectangle [x_lo, x_hi] x [y_lo, y_hi] of NDC,
   inward (Gribb and Hartmann: x >= x_lo w is row x - x_lo row w >= 0).
   Together left and right force w >= 0 (x_lo < x_hi), so the six
   half-spaces are the frustum and not its mirror image behind the eye. */
static void ndc_planes(const double pv[16], const double ndc[4], double z_near,
                       double planes[6][4])
{
    double rx[4], ry[4], rz[4], rw[4];
    clip_row(pv, 0, rx);
    clip_row(pv, 1, ry);
    clip_row(pv, 2, rz);
    clip_row(pv, 3, rw);
    combine(1.0, rx, -ndc[0], rw, planes[RP_FRUSTUM_LEFT]);
    combine(-1.0, rx, ndc[1], rw, planes[RP_FRUSTUM_RIGHT]);
    combine(1.0, ry, -ndc[2], rw, planes[RP_FRUSTUM_BOTTOM]);
    combine(-1.0, ry, ndc[3], rw, planes[RP_FRUSTUM_TOP]);
    combine(1.0, rz, -z_near, rw, planes[RP_FRUSTUM_NEAR]);
    combine(-1.0, rz, 1.0, rw, planes[RP_FRUSTUM_FAR]);
}

/* Normalises the planes and rounds everything to float; false when a
   plane has no normal or a value does not fit a float. */
static bool store_frustum(double planes[6][4], double corners[8][3], rp_frustum *f)
{
    for (int k = 0; k < 6; k++) {
        const double *p = planes[k];
        const double len = sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
        if (!(len > 0.0) || !isfinite(len))
            return false;
        for (int c = 0; c < 3; c++)
            f->planes[k].normal[c] = (float)(p[c] / len);
        if (!rp_to_float(p[3] / len, &f->planes[k].d))
            return false;
    }
    for (int i = 0; i < 8; i++)
        for (int c = 0; c < 3; c++)
            if (!rp_to_float(corners[i][c], &f->corners[i][c]))
                return false;
    return true;
}

/* The frustum of the NDC rectangle ndc = {x_lo, x_hi, y_lo, y_hi}. */
static bool frustum_from_ndc(const double pv[16], const double ndc[4], rp_convention conv,
                             rp_frustum *out)
{
    double inv[16];
    if (!rp_dmat4_invert(pv, inv))
        return false;
    const double z_near = conv == RP_D3D ? 0.0 : -1.0;
    double planes[6][4], corners[8][3];
    ndc_planes(pv, ndc, z_near, planes);
    for (int i = 0; i < 8; i++) {
        const double nx = ndc[(i & 1) ? 1 : 0], ny = ndc[(i & 2) ? 3 : 2];
        const double nz = (i & 4) ? 1.0 : z_near;
        /* Each corner's homogeneous w must be positive: the clip-space w of
           what it stands for is 1 / w, and GL and D3D draw only w > 0. Then
           w, affine over the box, keeps its sign inside it, so the box maps
           to a convex hexahedron whose faces are the six planes. A w of
           either sign wraps the box through infinity: no frustum at all. */
        const double w = inv[3] * nx + inv[7] * ny + inv[11] * nz + inv[15];
        if (!(w > 0.0) || !rp_unproject_ndc(inv, nx, ny, nz, corners[i]))
            return false;   /* behind the camera, or a far plane at infinity */
    }
    /* a projection whose visible points have w < 0 renders nothing in GL
       or D3D; its planes bound nothing: the corners' centre is outside
       (asked of the planes in double, where a rectangle a fraction of a
       pixel wide still has room) */
    double centre[3] = {0.0, 0.0, 0.0};
    for (int i = 0; i < 8; i++)
        for (int c = 0; c < 3; c++)
            centre[c] += corners[i][c] / 8.0;
    for (int k = 0; k < 6; k++)
        if (!(planes[k][0] * centre[0] + planes[k][1] * centre[1] + planes[k][2] * centre[2] +
              planes[k][3] > 0.0))
            return false;
    rp_frustum f;
    if (!store_frustum(planes, corners, &f))
        return false;
    if (out)
        *out = f;
    return true;
}

static bool camera_pv(mat4 proj, mat4 view, rp_convention conv, double pv[16])
{
    return rp_convention_is_valid(conv) && rp_view_projection(proj, view, pv);
}

bool rp_frustum_from_rect(float x0, float y0, float x1, float y1, const rp_viewport *vp,
                          mat4 proj, mat4 view, rp_convention conv, rp_frustum *out)
{
    double unused, pv[16];
    if (!rp_viewport_to_ndc(x0, y0, vp, &unused, &unused) ||
        !rp_viewport_to_ndc(x1, y1, vp, &unused, &unused) || !camera_pv(proj, view, conv, pv))
        return false;
    /* any corner order; then clipped to the viewport */
    const double left = fmax(fmin(x0, x1), vp->x);
    const double right = fmin(fmax(x0, x1), (double)vp->x + vp->width);
    const double top = fmax(fmin(y0, y1), vp->y);
    const double bottom = fmin(fmax(y0, y1), (double)vp->y + vp->height);
    if (!(right > left) || !(bottom > top))
        return false;   /* a click, a line, or nothing left: selects nothing */
    /* pixel y grows downwards, NDC y upwards: the top edge is y_hi */
    const double ndc[4] = {
        2.0 * (left - vp->x) / vp->width - 1.0,
        2.0 * (right - vp->x) / vp->width - 1.0,
        1.0 - 2.0 * (bottom - vp->y) / vp->height,
        1.0 - 2.0 * (top - vp->y) / vp->height,
    };
    return frustum_from_ndc(pv, ndc, conv, out);
}

bool rp_frustum_from_camera(mat4 proj, mat4 view, rp_convention conv, rp_frustum *out)
{
    double pv[16];
    const double whole[4] = {-1.0, 1.0, -1.0, 1.0};
    return camera_pv(proj, view, conv, pv) && frustum_from_ndc(pv, whole, conv, out);
}

/* ---- the frustum in double ------------------------------------------------ */

bool rp_dfrustum_from(const rp_frustum *f, rp_dfrustum *out)
{
    if (f == NULL)
        return false;
    double scale = 0.0;
    for (int k = 0; k < 6; k++) {
        if (!rp_vec3_finite(f->planes[k].normal) || !isfinite(f->planes[k].d))
            return false;
        double n[3] = {f->planes[k].normal[0], f->planes[k].normal[1], f->planes[k].normal[2]};
        const double len = sqrt(dot3(n, n));
        if (!(fabs(len - 1.0) <= RP_FRUSTUM_UNIT_TOLERANCE))
            return false;
        for (int c = 0; c < 3; c++)
            out->n[k][c] = n[c] / len;
        out->d[k] = f->planes[k].d / len;
    }
    for (int i = 0; i < 8; i++) {
        if (!rp_vec3_finite(f->corners[i]))
            return false;
        for (int c = 0; c < 3; c++) {
            out->corner[i][c] = f->corners[i][c];
            scale = fmax(scale, fabs(out->corner[i][c]));
        }
    }
    out->scale = scale;
    return true;
}

/* ---- points and balls ------------------------------------------------------ */

bool rp_dfrustum_contains_point(const rp_dfrustum *f, const double p[3])
{
    for (int k = 0; k < 6; k++)
        if (plane_dist(f, k, p) < 0.0)
            return false;
    return true;
}

bool rp_frustum_contains_point(const rp_frustum *f, const vec3 p)
{
    rp_dfrustum df;
    if (!rp_dfrustum_from(f, &df) || p == NULL || !rp_vec3_finite(p))
        return false;
    const double q[3] = {p[0], p[1], p[2]};
    return rp_dfrustum_contains_point(&df, q);
}

/* Squared distance from p to the segment a b. */
static double dist2_point_segment(const double p[3], const double a[3], const double b[3])
{
    double ab[3], ap[3];
    for (int c = 0; c < 3; c++) {
        ab[c] = b[c] - a[c];
        ap[c] = p[c] - a[c];
    }
    const double len2 = dot3(ab, ab);
    double s = len2 > 0.0 ? dot3(ap, ab) / len2 : 0.0;
    s = fmin(1.0, fmax(0.0, s));
    double e[3];
    for (int c = 0; c < 3; c++)
        e[c] = ap[c] - s * ab[c];
    return dot3(e, e);
}

/* Is p inside every plane but `skip`, within slack? */
static bool inside_others(const rp_dfrustum *f, int skip, const double p[3], double slack)
{
    for (int k = 0; k < 6; k++)
        if (k != skip && plane_dist(f, k, p) < -slack)
            return false;
    return true;
}

/* Squared distance from p to the frustum (0 inside). The nearest point of
   a convex polyhedron to an outside point is inside a face (when p's foot
   on that face's plane lies within the face), or else on an edge; the
   corners are the edges' ends. */
static double dist2_point_frustum(const rp_dfrustum *f, const double p[3])
{
    double dist[6];
    bool inside = true;
    for (int k = 0; k < 6; k++) {
        dist[k] = plane_dist(f, k, p);
        inside = inside && dist[k] >= 0.0;
    }
    if (inside)
        return 0.0;
    const double slack = RP_FRUSTUM_TOUCH_REL * (f->scale + fabs(p[0]) + fabs(p[1]) + fabs(p[2]));
    double best = INFINITY;
    for (int k = 0; k < 6; k++) {
        if (dist[k] >= 0.0)
            continue;
        double foot[3];
        for (int c = 0; c < 3; c++)
            foot[c] = p[c] - dist[k] * f->n[k][c];
        if (inside_others(f, k, foot, slack))
            best = fmin(best, dist[k] * dist[k]);
    }
    for (int bit = 1; bit < 8; bit <<= 1)
        for (int i = 0; i < 8; i++)
            if (!(i & bit))
                best = fmin(best, dist2_point_segment(p, f->corner[i], f->corner[i | bit]));
    return best;
}

/* The ball (centre c, radius r) against the frustum. */
static bool ball_conservative(const rp_dfrustum *f, const double c[3], double r)
{
    for (int k = 0; k < 6; k++)
        if (plane_dist(f, k, c) < -r)
            return false;
    return true;
}

static bool ball_contained(const rp_dfrustum *f, const double c[3], double r)
{
    for (int k = 0; k < 6; k++)
        if (plane_dist(f, k, c) < r)
            return false;
    return true;
}

/* Ordered so that contained => exact => conservative holds on every input,
   rounding included: each test first asks the one it must agree with. */
static bool ball_exact(const rp_dfrustum *f, const double c[3], double r)
{
    if (!ball_conservative(f, c, r))
        return false;
    if (ball_contained(f, c, r))
        return true;
    const double slack = RP_FRUSTUM_TOUCH_REL * (f->scale + fabs(c[0]) + fabs(c[1]) + fabs(c[2]));
    const double reach = r + slack;
    return dist2_point_frustum(f, c) <= reach * reach;
}

static bool sphere_args(const rp_frustum *f, const rp_sphere *s, rp_dfrustum *df, double c[3])
{
    if (s == NULL || !rp_vec3_finite(s->center) || !isfinite(s->radius) ||
        !(s->radius > 0.0f) || !rp_dfrustum_from(f, df))
        return false;
    for (int i = 0; i < 3; i++)
        c[i] = s->center[i];
    return true;
}

bool rp_test_frustum_sphere_conservative(const rp_frustum *f, const rp_sphere *s)
{
    rp_dfrustum df;
    double c[3];
    return sphere_args(f, s, &df, c) && ball_conservative(&df, c, s->radius);
}

bool rp_test_frustum_sphere_exact(const rp_frustum *f, const rp_sphere *s)
{
    rp_dfrustum df;
    double c[3];
    return sphere_args(f, s, &df, c) && ball_exact(&df, c, s->radius);
}

bool rp_frustum_contains_sphere(const rp_frustum *f, const rp_sphere *s)
{
    rp_dfrustum df;
    double c[3];
    return sphere_args(f, s, &df, c) && ball_contained(&df, c, s->radius);
}

/* ---- ellipsoids: the unit ball after an affine map ----------------------- */

/* rp_intersect_ray_ellipsoid's rule: all zeros is the identity, any other
   orientation must be unit length within 1e-3 and is renormalised. */
#define RP_UNIT_QUAT_TOLERANCE 1e-3

/* The ellipsoid as centre + M x for |x| <= 1, M = R diag(radii): columns
   of rot are the rotated local axes. */
typedef struct ellipsoid_frame {
    double center[3];
    double rot[3][3];    /* rot[c] = column c of R */
    double radii[3];
} ellipsoid_frame;

static void quat_to_columns(const double q[4], double rot[3][3])
{
    const double x = q[0], y = q[1], z = q[2], w = q[3];
    rot[0][0] = 1 - 2 * (y * y + z * z);
    rot[0][1] = 2 * (x * y + w * z);
    rot[0][2] = 2 * (x * z - w * y);
    rot[1][0] = 2 * (x * y - w * z);
    rot[1][1] = 1 - 2 * (x * x + z * z);
    rot[1][2] = 2 * (y * z + w * x);
    rot[2][0] = 2 * (x * z + w * y);
    rot[2][1] = 2 * (y * z - w * x);
    rot[2][2] = 1 - 2 * (x * x + y * y);
}

static bool ellipsoid_args(const rp_frustum *f, const rp_ellipsoid *e, rp_dfrustum *df,
                           ellipsoid_frame *fr)
{
    if (e == NULL || !rp_vec3_finite(e->center) || !rp_vec3_finite(e->radii) ||
        !rp_vec4_finite(e->orientation) || !rp_dfrustum_from(f, df))
        return false;
    double q[4] = {e->orientation[0], e->orientation[1], e->orientation[2], e->orientation[3]};
    const double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    if (n == 0.0) {
        q[3] = 1.0;
    } else {
        if (fabs(n - 1.0) > RP_UNIT_QUAT_TOLERANCE)
            return false;
        for (int i = 0; i < 4; i++)
            q[i] /= n;
    }
    quat_to_columns(q, fr->rot);
    for (int i = 0; i < 3; i++) {
        if (!(e->radii[i] > 0.0f))
            return false;
        fr->radii[i] = e->radii[i];
        fr->center[i] = e->center[i];
    }
    return true;
}

/* M^T n: the plane normal n seen from the unit ball's space. Its length is
   the ellipsoid's reach along the unit normal n (its support distance). */
static void normal_to_unit_space(const ellipsoid_frame *fr, const double n[3], double out[3])
{
    for (int c = 0; c < 3; c++)
        out[c] = fr->radii[c] * dot3(fr->rot[c], n);
}

static double ellipsoid_reach(const ellipsoid_frame *fr, const double n[3])
{
    double m[3];
    normal_to_unit_space(fr, n, m);
    return sqrt(dot3(m, m));
}

/* The frustum in the unit ball's space: x' = M^-1 (x - centre) =
   diag(1 / radii) R^T (x - centre); a plane n.x + d = 0 becomes
   (M^T n).x' + (n.centre + d) = 0, normalised. */
static void frustum_to_unit_space(const rp_dfrustum *f, const ellipsoid_frame *fr,
                                  rp_dfrustum *out)
{
    double scale = 0.0;
    for (int k = 0; k < 6; k++) {
        double m[3];
        normal_to_unit_space(fr, f->n[k], m);
        const double len = sqrt(dot3(m, m));   /* > 0: radii > 0, R orthonormal */
        for (int c = 0; c < 3; c++)
            out->n[k][c] = m[c] / len;
        out->d[k] = (dot3(f->n[k], fr->center) + f->d[k]) / len;
    }
    for (int i = 0; i < 8; i++) {
        double rel[3];
        for (int c = 0; c < 3; c++)
            rel[c] = f->corner[i][c] - fr->center[c];
        for (int c = 0; c < 3; c++) {
            out->corner[i][c] = dot3(fr->rot[c], rel) / fr->radii[c];
            scale = fmax(scale, fabs(out->corner[i][c]));
        }
    }
    out->scale = scale;
}

static bool ellipsoid_conservative(const rp_dfrustum *f, const ellipsoid_frame *fr)
{
    for (int k = 0; k < 6; k++)
        if (plane_dist(f, k, fr->center) < -ellipsoid_reach(fr, f->n[k]))
            return false;
    return true;
}

static bool ellipsoid_contained(const rp_dfrustum *f, const ellipsoid_frame *fr)
{
    for (int k = 0; k < 6; k++)
        if (plane_dist(f, k, fr->center) < ellipsoid_reach(fr, f->n[k]))
            return false;
    return true;
}

bool rp_test_frustum_ellipsoid_conservative(const rp_frustum *f, const rp_ellipsoid *e)
{
    rp_dfrustum df;
    ellipsoid_frame fr;
    return ellipsoid_args(f, e, &df, &fr) && ellipsoid_conservative(&df, &fr);
}

bool rp_test_frustum_ellipsoid_exact(const rp_frustum *f, const rp_ellipsoid *e)
{
    rp_dfrustum df, unit;
    ellipsoid_frame fr;
    if (!ellipsoid_args(f, e, &df, &fr) || !ellipsoid_conservative(&df, &fr))
        return false;
    if (ellipsoid_contained(&df, &fr))
        return true;
    frustum_to_unit_space(&df, &fr, &unit);
    const double origin[3] = {0.0, 0.0, 0.0};
    const double reach = 1.0 + RP_FRUSTUM_TOUCH_REL * unit.scale;
    return dist2_point_frustum(&unit, origin) <= reach * reach;
}

bool rp_frustum_contains_ellipsoid(const rp_frustum *f, const rp_ellipsoid *e)
{
    rp_dfrustum df;
    ellipsoid_frame fr;
    return ellipsoid_args(f, e, &df, &fr) && ellipsoid_contained(&df, &fr);
}

/* ---- segments and polylines ------------------------------------------------ */

/* Cyrus-Beck: clip the parameter range [0, 1] of a + s (b - a) by each
   plane; the segment meets the frustum when some of it is left. */
static bool segment_meets(const rp_dfrustum *f, const double a[3], const double b[3])
{
    double lo = 0.0, hi = 1.0;
    for (int k = 0; k < 6; k++) {
        const double da = plane_dist(f, k, a), db = plane_dist(f, k, b);
        if (da < 0.0 && db < 0.0)
            return false;
        if (da < 0.0)
            lo = fmax(lo, da / (da - db));     /* enters at this s */
        else if (db < 0.0)
            hi = fmin(hi, da / (da - db));     /* leaves at this s */
        if (lo > hi)
            return false;
    }
    return true;
}

static void to_double3(const float *p, double out[3])
{
    out[0] = p[0];
    out[1] = p[1];
    out[2] = p[2];
}

bool rp_test_frustum_segment(const rp_frustum *f, const vec3 a, const vec3 b)
{
    rp_dfrustum df;
    if (a == NULL || b == NULL || !rp_vec3_finite(a) || !rp_vec3_finite(b) ||
        !rp_dfrustum_from(f, &df))
        return false;
    double da[3], db[3];
    to_double3(a, da);
    to_double3(b, db);
    return segment_meets(&df, da, db);
}

/* The polyline's arguments, as rp_aabb_from_points takes points: false for
   NULL, count 0, a bad stride or a non-finite point. */
static bool polyline_args(const float *xyz, size_t count, size_t stride_bytes, size_t *step)
{
    if (xyz == NULL || count == 0)
        return false;
    if (stride_bytes == 0)
        stride_bytes = 3 * sizeof(float);
    if (stride_bytes < 3 * sizeof(float) || stride_bytes % sizeof(float) != 0)
        return false;
    *step = stride_bytes / sizeof(float);
    for (size_t i = 0; i < count; i++)
        if (!rp_vec3_finite(xyz + i * *step))
            return false;
    return true;
}

/* The first segment of the polyline that meets the frustum (a lone point:
   segment 0 when it is inside); false when none does. */
static bool first_meeting_segment(const rp_dfrustum *f, const float *xyz, size_t count,
                                  size_t step, size_t *segment)
{
    double a[3], b[3];
    to_double3(xyz, a);
    if (count == 1) {
        *segment = 0;
        return rp_dfrustum_contains_point(f, a);
    }
    for (size_t i = 0; i + 1 < count; i++) {
        to_double3(xyz + (i + 1) * step, b);
        if (segment_meets(f, a, b)) {
            *segment = i;
            return true;
        }
        for (int c = 0; c < 3; c++)
            a[c] = b[c];
    }
    return false;
}

bool rp_test_frustum_polyline(const rp_frustum *f, const float *xyz, size_t count,
                              size_t stride_bytes, size_t *out_segment)
{
    rp_dfrustum df;
    size_t step, segment;
    if (!polyline_args(xyz, count, stride_bytes, &step) || !rp_dfrustum_from(f, &df) ||
        !first_meeting_segment(&df, xyz, count, step, &segment))
        return false;
    if (out_segment)
        *out_segment = segment;
    return true;
}

bool rp_frustum_contains_polyline(const rp_frustum *f, const float *xyz, size_t count,
                                  size_t stride_bytes)
{
    rp_dfrustum df;
    size_t step;
    if (!polyline_args(xyz, count, stride_bytes, &step) || !rp_dfrustum_from(f, &df))
        return false;
    for (size_t i = 0; i < count; i++) {
        double p[3];
        to_double3(xyz + i * step, p);
        if (!rp_dfrustum_contains_point(&df, p))
            return false;
    }
    return true;
}

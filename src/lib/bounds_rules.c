/* bounds_rules.c: DirectXMath's centre/extents box layout, the bounding-
 * sphere rules of the libraries ports are compared against (D3DX's
 * centroid sphere, Ritter's passes as DirectXMath and MonoGame run them),
 * and a bounding sphere carried by an affine matrix.
 *
 * Everything runs in double and is rounded to float once at the end: the
 * rules' discrete choices (which pair of extreme points, which points grow
 * the sphere) then follow exact arithmetic wherever the originals' float
 * arithmetic is not on a knife edge. */
#include "raypick/box.h"
#include "internal.h"
#include "points_internal.h"

#include <float.h>
#include <string.h>

/* ---- centre and extents ---------------------------------------------------- */

bool rp_aabb_from_center_extents(const vec3 center, const vec3 extents, rp_aabb *out)
{
    if (center == NULL || extents == NULL || !rp_vec3_finite(center) || !rp_vec3_finite(extents))
        return false;
    rp_aabb box;
    for (int k = 0; k < 3; k++) {
        if (!(extents[k] >= 0.0f))
            return false;
        box.min[k] = (float)((double)center[k] - (double)extents[k]);
        box.max[k] = (float)((double)center[k] + (double)extents[k]);
        if (!isfinite(box.min[k]) || !isfinite(box.max[k]))
            return false;   /* a corner beyond float's range */
    }
    if (out)
        *out = box;
    return true;
}

bool rp_aabb_to_center_extents(const rp_aabb *box, vec3 center, vec3 extents)
{
    if (box == NULL || !rp_vec3_finite(box->min) || !rp_vec3_finite(box->max))
        return false;
    vec3 c, e;
    for (int k = 0; k < 3; k++) {
        if (!(box->min[k] <= box->max[k]))
            return false;
        /* halving before adding keeps FLT_MAX-sized boxes finite; in double
           both halves are exact */
        c[k] = (float)(0.5 * (double)box->min[k] + 0.5 * (double)box->max[k]);
        e[k] = (float)(0.5 * (double)box->max[k] - 0.5 * (double)box->min[k]);
    }
    if (center)
        glm_vec3_copy(c, center);
    if (extents)
        glm_vec3_copy(e, extents);
    return true;
}

/* ---- reading points (the layout of rp_aabb_from_points) ------------------ */

static void point_d(const rp_points *pr, size_t i, double p[3])
{
    float f[3];
    rp_points_get(pr, i, f);
    p[0] = f[0], p[1] = f[1], p[2] = f[2];
}

static double dist2(const double a[3], const double b[3])
{
    const double x = a[0] - b[0], y = a[1] - b[1], z = a[2] - b[2];
    return x * x + y * y + z * z;
}

/* The double sphere rounded to float; false beyond float's range. */
static bool round_sphere(const double c[3], double r, rp_sphere *s)
{
    for (int k = 0; k < 3; k++) {
        if (!(fabs(c[k]) <= FLT_MAX))
            return false;
        s->center[k] = (float)c[k];
    }
    if (!(r <= FLT_MAX))
        return false;
    s->radius = (float)r;
    return isfinite(s->radius);
}

/* ---- the rules ------------------------------------------------------------- */

/* D3DXComputeBoundingSphere: the mean point, then the farthest point's
   distance from the mean as it is stored (in float). */
static bool sphere_centroid(const rp_points *pr, rp_sphere *s)
{
    double sum[3] = {0.0, 0.0, 0.0};
    for (size_t i = 0; i < pr->count; i++) {
        double p[3];
        point_d(pr, i, p);
        sum[0] += p[0], sum[1] += p[1], sum[2] += p[2];
    }
    double c[3];
    for (int k = 0; k < 3; k++) {
        c[k] = sum[k] / (double)pr->count;
        if (!(fabs(c[k]) <= FLT_MAX))
            return false;
        c[k] = (float)c[k];   /* the radius is measured from the stored centre */
    }
    double max_d2 = 0.0;
    for (size_t i = 0; i < pr->count; i++) {
        double p[3];
        point_d(pr, i, p);
        const double d2 = dist2(p, c);
        max_d2 = d2 > max_d2 ? d2 : max_d2;
    }
    return round_sphere(c, sqrt(max_d2), s);
}

/* Ritter's first pass: for each axis the first point with the smallest and
   the first with the largest coordinate (strict comparisons, in order). */
static void extreme_points(const rp_points *pr, double lo[3][3], double hi[3][3])
{
    point_d(pr, 0, lo[0]);
    for (int a = 0; a < 3; a++) {
        memcpy(lo[a], lo[0], sizeof lo[a]);
        memcpy(hi[a], lo[0], sizeof hi[a]);
    }
    for (size_t i = 1; i < pr->count; i++) {
        double p[3];
        point_d(pr, i, p);
        for (int a = 0; a < 3; a++) {
            if (p[a] < lo[a][a])
                memcpy(lo[a], p, sizeof p);
            if (p[a] > hi[a][a])
                memcpy(hi[a], p, sizeof p);
        }
    }
}

/* The pair to start from. DirectXMath compares the distances: x if it
   beats y and z, else z; otherwise y if it beats z, else z. MonoGame
   compares squared distances: y or z only when strictly the largest. */
static int ritter_axis(const double span2[3], bool monogame)
{
    if (monogame) {
        if (span2[1] > span2[0] && span2[1] > span2[2])
            return 1;
        if (span2[2] > span2[0] && span2[2] > span2[1])
            return 2;
        return 0;
    }
    const double dx = sqrt(span2[0]), dy = sqrt(span2[1]), dz = sqrt(span2[2]);
    if (dx > dy)
        return dx > dz ? 0 : 2;
    return dy > dz ? 1 : 2;
}

static bool sphere_ritter(const rp_points *pr, bool monogame, rp_sphere *s)
{
    double lo[3][3], hi[3][3];
    extreme_points(pr, lo, hi);
    const double span2[3] = {dist2(hi[0], lo[0]), dist2(hi[1], lo[1]), dist2(hi[2], lo[2])};
    const int a = ritter_axis(span2, monogame);
    double c[3];
    for (int k = 0; k < 3; k++)
        c[k] = 0.5 * lo[a][k] + 0.5 * hi[a][k];
    double r = 0.5 * sqrt(span2[a]);

    /* Second pass: a point outside moves the far side of the sphere to it. */
    for (size_t i = 0; i < pr->count; i++) {
        double p[3];
        point_d(pr, i, p);
        const double d2 = dist2(p, c);
        const bool outside = monogame ? d2 > r * r : sqrt(d2) > r;
        if (!outside)
            continue;
        const double d = sqrt(d2);
        const double grown = 0.5 * (r + d);
        const double move = (grown - r) / d;   /* the fraction of (p - c) */
        for (int k = 0; k < 3; k++)
            c[k] += move * (p[k] - c[k]);
        r = grown;
    }
    return round_sphere(c, r, s);
}

bool rp_sphere_from_points_rule(const float *xyz, size_t count, size_t stride_bytes,
                                rp_sphere_rule rule, rp_sphere *out)
{
    if (rule == RP_SPHERE_SMALLEST)
        return rp_sphere_from_points(xyz, count, stride_bytes, out);
    if (rule != RP_SPHERE_CENTROID && rule != RP_SPHERE_RITTER && rule != RP_SPHERE_RITTER_MONOGAME)
        return false;
    rp_points pr;
    if (!rp_points_init(xyz, count, stride_bytes, &pr) || !rp_points_finite(&pr))
        return false;
    rp_sphere s;
    const bool ok = rule == RP_SPHERE_CENTROID ? sphere_centroid(&pr, &s)
                                               : sphere_ritter(&pr, rule == RP_SPHERE_RITTER_MONOGAME, &s);
    if (!ok)
        return false;
    if (out)
        *out = s;
    return true;
}

/* ---- a sphere carried by a matrix ------------------------------------------- */

/* The largest eigenvalue of a symmetric positive semi-definite 3x3 matrix
   (Smith's closed form, 1961): the squared largest singular value when b
   is A^T A. */
static double largest_eigenvalue_sym3(double b[3][3])
{
    const double off = b[0][1] * b[0][1] + b[0][2] * b[0][2] + b[1][2] * b[1][2];
    const double q = (b[0][0] + b[1][1] + b[2][2]) / 3.0;
    const double d0 = b[0][0] - q, d1 = b[1][1] - q, d2 = b[2][2] - q;
    const double p2 = d0 * d0 + d1 * d1 + d2 * d2 + 2.0 * off;
    if (!(p2 > 0.0))
        return q;   /* a multiple of the identity */
    const double p = sqrt(p2 / 6.0);
    /* C = (B - q I) / p; half its determinant is cos(3 phi) */
    const double c00 = d0 / p, c11 = d1 / p, c22 = d2 / p;
    const double c01 = b[0][1] / p, c02 = b[0][2] / p, c12 = b[1][2] / p;
    double half_det = 0.5 * (c00 * (c11 * c22 - c12 * c12) - c01 * (c01 * c22 - c12 * c02) +
                             c02 * (c01 * c12 - c11 * c02));
    half_det = half_det < -1.0 ? -1.0 : half_det > 1.0 ? 1.0 : half_det;
    return q + 2.0 * p * cos(acos(half_det) / 3.0);
}

bool rp_sphere_transform(const rp_sphere *s, mat4 m, rp_sphere *out)
{
    if (s == NULL || m == NULL || !rp_vec3_finite(s->center) || !isfinite(s->radius) ||
        !(s->radius >= 0.0f) || !rp_mat4_finite(m))
        return false;
    if (m[0][3] != 0.0f || m[1][3] != 0.0f || m[2][3] != 0.0f || m[3][3] != 1.0f)
        return false;   /* projective: the image of a sphere is no sphere */
    double c[3];
    for (int k = 0; k < 3; k++)
        c[k] = (double)m[0][k] * s->center[0] + (double)m[1][k] * s->center[1] +
               (double)m[2][k] * s->center[2] + (double)m[3][k];
    /* A^T A of the linear part: m[i] is the image of axis i (a D3D row) */
    double b[3][3];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            b[i][j] = (double)m[i][0] * m[j][0] + (double)m[i][1] * m[j][1] + (double)m[i][2] * m[j][2];
    double lambda = largest_eigenvalue_sym3(b);
    /* never below the longest axis image (the closed form's rounding) */
    for (int i = 0; i < 3; i++)
        lambda = b[i][i] > lambda ? b[i][i] : lambda;
    /* the closed form is accurate to a few 1e-16 relative; the margin makes
       the rounded-up radius enclose the image */
    double r = (double)s->radius * sqrt(lambda) * (1.0 + 1e-12);
    rp_sphere t;
    double moved2 = 0.0;   /* how far rounding the centre moved it */
    for (int k = 0; k < 3; k++) {
        if (!(fabs(c[k]) <= FLT_MAX))
            return false;
        t.center[k] = (float)c[k];
        moved2 += (c[k] - t.center[k]) * (c[k] - t.center[k]);
    }
    r += sqrt(moved2);
    t.radius = r == 0.0 ? 0.0f : rp_float_above(r);
    if (!isfinite(t.radius))
        return false;
    if (out)
        *out = t;
    return true;
}

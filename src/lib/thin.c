/* thin.c: closest approach of a ray to points, segments and polylines,
   within a tolerance that may grow along the ray (pixels at depth).
   In double: float coordinates and their differences are exact there. */
#include "raypick/thin.h"
#include "internal.h"
#include "camera_math.h"

#include <float.h>

/* Two approaches whose distances differ by less than this fraction of the
   distances from the origin to the segment's ends are equally near (a ray
   parallel to a segment): the one with the smaller t wins. */
#define RP_THIN_TIE_REL 1e-12

static double dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static double length3(const double v[3])
{
    return sqrt(dot3(v, v));
}

/* A closest approach in double, before rounding. */
typedef struct approach {
    double t, s, dist;
    double ray_point[3], point[3];
} approach;

/* The ray in double: origin, dir and dir . dir. */
typedef struct dray {
    double o[3], d[3], dd;
} dray;

static void dray_from(const rp_ray *ray, dray *r)
{
    for (int c = 0; c < 3; c++) {
        r->o[c] = ray->origin[c];
        r->d[c] = ray->dir[c];
    }
    r->dd = dot3(r->d, r->d);
}

/* Fills the points and the distance for the pair (t, s) on the ray and the
   segment a + s ab. */
static void evaluate(const dray *r, const double a[3], const double ab[3], double t, double s,
                     approach *ap)
{
    double gap[3];
    for (int c = 0; c < 3; c++) {
        ap->ray_point[c] = r->o[c] + t * r->d[c];
        ap->point[c] = a[c] + s * ab[c];
        gap[c] = ap->point[c] - ap->ray_point[c];
    }
    ap->t = t;
    ap->s = s;
    ap->dist = length3(gap);
}

/* Keeps the nearer of *best and the candidate (t, s); the smaller t when
   they are equally near within slack. */
static void consider(const dray *r, const double a[3], const double ab[3], double t, double s,
                     double slack, approach *best)
{
    approach c;
    evaluate(r, a, ab, t, s, &c);
    if (c.dist < best->dist - slack || (c.dist <= best->dist + slack && c.t < best->t))
        *best = c;
}

/* Ray (t >= 0) vs segment a + s (b - a), s in [0, 1]: Ericson's 5.1.9 with
   the stationary point of |r + t d - s ab|^2 tried first and the edges of
   the (t, s) range after it; the function is convex, so the best of these
   is the minimum whatever rounding does to the stationary point. */
static void closest_to_segment(const dray *r, const double a[3], const double b[3],
                               approach *best)
{
    double ab[3], ar[3];
    for (int c = 0; c < 3; c++) {
        ab[c] = b[c] - a[c];
        ar[c] = r->o[c] - a[c];   /* Ericson's r: origin - a */
    }
    const double A = r->dd, E = dot3(ab, ab), B = dot3(r->d, ab);
    const double C = dot3(r->d, ar), F = dot3(ab, ar);
    double to_b[3];
    for (int c = 0; c < 3; c++)
        to_b[c] = ar[c] - ab[c];
    const double slack = RP_THIN_TIE_REL * (length3(ar) + length3(to_b));

    best->dist = INFINITY;
    best->t = INFINITY;
    /* s = 0: the nearest ray point to a (also the whole answer for a == b) */
    consider(r, a, ab, fmax(0.0, -C / A), 0.0, slack, best);
    if (E == 0.0)
        return;
    /* s = 1: the nearest ray point to b */
    consider(r, a, ab, fmax(0.0, (B - C) / A), 1.0, slack, best);
    /* t = 0: the nearest segment point to the origin */
    consider(r, a, ab, 0.0, fmin(1.0, fmax(0.0, F / E)), slack, best);
    /* the stationary point, when the lines are not parallel and it lies in range */
    const double denom = A * E - B * B;
    if (denom > 0.0) {
        const double t = (B * F - C * E) / denom, s = (A * F - B * C) / denom;
        if (t >= 0.0 && s >= 0.0 && s <= 1.0)
            consider(r, a, ab, t, s, slack, best);
    }
}

static bool tolerance_is_valid(const rp_thin_tolerance *tol)
{
    return tol == NULL || (isfinite(tol->world) && isfinite(tol->per_t) &&
                           tol->world >= 0.0f && tol->per_t >= 0.0f);
}

/* The tolerance's radius at t; infinite for none. */
static double radius_at(const rp_thin_tolerance *tol, double t)
{
    return tol == NULL ? INFINITY : tol->world + (double)tol->per_t * t;
}

/* Rounds an approach to float; false when it does not fit. */
static bool store_approach(const approach *ap, uint32_t index, rp_thin_hit *out)
{
    rp_thin_hit h;
    if (!rp_to_float(ap->t, &h.t) || !rp_to_float(ap->dist, &h.distance))
        return false;
    for (int c = 0; c < 3; c++)
        if (!rp_to_float(ap->ray_point[c], &h.ray_point[c]) ||
            !rp_to_float(ap->point[c], &h.point[c]))
            return false;
    h.s = (float)ap->s;
    h.index = index;
    if (out)
        *out = h;
    return true;
}

bool rp_intersect_ray_point(const rp_ray *ray, const vec3 p, const rp_thin_tolerance *tol,
                            rp_thin_hit *out)
{
    if (!rp_ray_valid(ray) || p == NULL || !rp_vec3_finite(p) || !tolerance_is_valid(tol))
        return false;
    dray r;
    dray_from(ray, &r);
    const double a[3] = {p[0], p[1], p[2]};
    approach ap;
    closest_to_segment(&r, a, a, &ap);   /* a segment of length 0 */
    return ap.dist <= radius_at(tol, ap.t) && store_approach(&ap, 0, out);
}

bool rp_intersect_ray_segment(const rp_ray *ray, const vec3 a, const vec3 b,
                              const rp_thin_tolerance *tol, rp_thin_hit *out)
{
    if (!rp_ray_valid(ray) || a == NULL || b == NULL || !rp_vec3_finite(a) ||
        !rp_vec3_finite(b) || !tolerance_is_valid(tol))
        return false;
    dray r;
    dray_from(ray, &r);
    const double da[3] = {a[0], a[1], a[2]}, db[3] = {b[0], b[1], b[2]};
    approach ap;
    closest_to_segment(&r, da, db, &ap);
    return ap.dist <= radius_at(tol, ap.t) && store_approach(&ap, 0, out);
}

/* How near an approach is in the tolerance's own unit: world distance
   without a tolerance, else distance / radius (about pixels for a pixel
   tolerance). Infinite when it is not within the tolerance. */
static double nearness(const rp_thin_tolerance *tol, const approach *ap)
{
    if (tol == NULL)
        return ap->dist;
    const double radius = radius_at(tol, ap->t);
    if (!(ap->dist <= radius))
        return INFINITY;
    return radius > 0.0 ? ap->dist / radius : 0.0;
}

bool rp_intersect_ray_polyline(const rp_ray *ray, const float *xyz, size_t count,
                               size_t stride_bytes, const rp_thin_tolerance *tol,
                               rp_thin_hit *out)
{
    if (!rp_ray_valid(ray) || !tolerance_is_valid(tol) || xyz == NULL || count == 0 ||
        count > UINT32_MAX)
        return false;
    if (stride_bytes == 0)
        stride_bytes = 3 * sizeof(float);
    if (stride_bytes < 3 * sizeof(float) || stride_bytes % sizeof(float) != 0)
        return false;
    const size_t step = stride_bytes / sizeof(float);
    for (size_t i = 0; i < count; i++)
        if (!rp_vec3_finite(xyz + i * step))
            return false;

    dray r;
    dray_from(ray, &r);
    approach best = {0};
    double best_near = INFINITY;
    size_t best_index = 0;
    const size_t segments = count > 1 ? count - 1 : 1;   /* one point: a point */
    for (size_t i = 0; i < segments; i++) {
        const float *pa = xyz + i * step, *pb = count > 1 ? pa + step : pa;
        const double a[3] = {pa[0], pa[1], pa[2]}, b[3] = {pb[0], pb[1], pb[2]};
        approach ap;
        closest_to_segment(&r, a, b, &ap);
        const double closeness = nearness(tol, &ap);
        if (closeness < best_near) {   /* strict: ties keep the lowest index */
            best = ap;
            best_near = closeness;
            best_index = i;
        }
    }
    return best_near < INFINITY && store_approach(&best, (uint32_t)best_index, out);
}

/* ---- pixels at depth -------------------------------------------------------- */

/* World size of one pixel at NDC (nx, ny, nz): the larger of the distances
   to the points one pixel right and one pixel down, unprojected alike. */
static bool pixel_size(const double inv[16], double nx, double ny, double nz,
                       double px, double py, double here[3], double *size)
{
    double right[3], down[3], dr[3], dd[3];
    if (!rp_unproject_ndc(inv, nx, ny, nz, here) ||
        !rp_unproject_ndc(inv, nx + px, ny, nz, right) ||
        !rp_unproject_ndc(inv, nx, ny - py, nz, down))
        return false;
    for (int c = 0; c < 3; c++) {
        dr[c] = right[c] - here[c];
        dd[c] = down[c] - here[c];
    }
    *size = fmax(length3(dr), length3(dd));
    return true;
}

/* The ray's t nearest to p, and p's distance from the ray's line. */
static double off_line(const dray *r, const double p[3], double *t)
{
    double rel[3], off[3];
    for (int c = 0; c < 3; c++)
        rel[c] = p[c] - r->o[c];
    *t = dot3(rel, r->d) / r->dd;
    for (int c = 0; c < 3; c++)
        off[c] = rel[c] - *t * r->d[c];
    return length3(off);
}

/* How far a float ray may sit from the exact line through two points:
   a few float roundings of the coordinates involved. */
static double float_slack(const dray *r, const double p[3], double t)
{
    double m = 0.0;
    for (int c = 0; c < 3; c++)
        m = fmax(m, fabs(p[c]) + fabs(r->o[c]) + fabs(t * r->d[c]));
    return 8.0 * FLT_EPSILON * m;
}

bool rp_thin_tolerance_pixels(float pixels, float x, float y, const rp_viewport *vp,
                              mat4 proj, mat4 view, rp_convention conv, const rp_ray *ray,
                              rp_thin_tolerance *out)
{
    double nx, ny, pv[16], inv[16];
    if (!isfinite(pixels) || !(pixels >= 0.0f) || !rp_ray_valid(ray) ||
        !rp_viewport_to_ndc(x, y, vp, &nx, &ny) || !rp_convention_is_valid(conv) ||
        !rp_view_projection(proj, view, pv) || !rp_dmat4_invert(pv, inv))
        return false;
    /* one pixel in NDC units, across and down */
    const double px = 2.0 / vp->width, py = 2.0 / vp->height;
    const double z_near = conv == RP_D3D ? 0.0 : -1.0;
    double near_point[3], far_point[3], near_size, far_size;
    if (!pixel_size(inv, nx, ny, z_near, px, py, near_point, &near_size) ||
        !pixel_size(inv, nx, ny, 1.0, px, py, far_point, &far_size))
        return false;

    /* the ray must be the pick ray under (x, y): within a pixel (and the
       float rounding of its origin and dir) of both points */
    dray r;
    dray_from(ray, &r);
    double t_near, t_far;
    const double off_near = off_line(&r, near_point, &t_near);
    const double off_far = off_line(&r, far_point, &t_far);
    if (!(off_near <= near_size + float_slack(&r, near_point, t_near)) ||
        !(off_far <= far_size + float_slack(&r, far_point, t_far)) || !(t_far > t_near))
        return false;   /* off the cursor's line, or looking back at the camera */

    /* the pixel's size is affine along the line: carry it to the ray's t */
    const double growth = (far_size - near_size) / (t_far - t_near);
    const double at_origin = near_size - growth * t_near;
    rp_thin_tolerance tol;
    if (!rp_to_float(pixels * fmax(0.0, at_origin), &tol.world) ||
        !rp_to_float(pixels * fmax(0.0, growth), &tol.per_t))
        return false;
    if (out)
        *out = tol;
    return true;
}

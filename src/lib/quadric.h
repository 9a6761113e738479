/* quadric.h: the robust ray vs sphere root solver that sphere.c and
   ellipsoid.c share; not installed.

   Everything runs in double. Float inputs (|x| <= 3.4e38) square to at most
   ~1e77 and products of squares to ~1e154, far inside double's range, so no
   intermediate can overflow; the float results are checked at the end. */
#ifndef RAYPICK_QUADRIC_H
#define RAYPICK_QUADRIC_H

#include <math.h>
#include <stdbool.h>
#include <float.h>

#include "raypick/ray.h"

static inline double rp__dot3d(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* Roots of |f + t d|^2 = r^2, where f is the ray origin minus the centre.
 *
 * The textbook b^2 - 4ac cancels catastrophically for a small sphere far
 * away (b^2 and 4ac are both ~|f|^4 while their difference is ~r^2 |f|^2).
 * Ray Tracing Gems ch. 7 rewrites it through the vector from the centre to
 * the closest point of the line, l = f - (f.d / d.d) d:
 *     b^2 - 4ac = 4 (d.d) (r^2 - |l|^2),
 * which loses nothing. The roots then come from the stable pair
 *     q = -(b + sign(b) sqrt(disc)) / 2,   t0 = c / q,   t1 = q / a,
 * which avoids subtracting two nearly equal numbers for the near root.
 * b and q are kept halved here (b' = f.d), which cancels every factor 2.
 *
 * false when the line misses the sphere; otherwise *t0 <= *t1 (equal for a
 * tangent line). */
static inline bool rp__ray_sphere_roots(const double f[3], const double d[3], double r,
                                        double *t0, double *t1)
{
    const double a = rp__dot3d(d, d);
    const double half_b = rp__dot3d(f, d);
    const double s = half_b / a;
    const double l[3] = {f[0] - s * d[0], f[1] - s * d[1], f[2] - s * d[2]};
    const double r2 = r * r;
    const double disc = r2 - rp__dot3d(l, l);        /* (b^2 - 4ac) / 4a */
    if (!(disc >= 0.0))
        return false;

    const double c = rp__dot3d(f, f) - r2;
    const double root = sqrt(a * disc);
    const double q = -(half_b + (half_b < 0.0 ? -root : root));
    double lo, hi;
    if (disc == 0.0) {
        /* tangent: one double root; computing it once keeps t0 == t1 */
        lo = hi = -s;
    } else {
        lo = c / q;
        hi = q / a;
        if (lo > hi) {
            double tmp = lo;
            lo = hi;
            hi = tmp;
        }
    }
    *t0 = lo;
    *t1 = hi;
    return true;
}

/* Scale v to unit length; false when it is zero or not finite. */
static inline bool rp__normalize3d(double v[3])
{
    /* scale first so that squaring cannot overflow or underflow */
    double m = fmax(fabs(v[0]), fmax(fabs(v[1]), fabs(v[2])));
    if (!(m > 0.0) || !isfinite(m))
        return false;
    const double inv_m = 1.0 / m;
    if (!isfinite(inv_m))       /* m a denormal double: cannot come from floats */
        return false;
    const double x = v[0] * inv_m, y = v[1] * inv_m, z = v[2] * inv_m;
    const double inv_len = 1.0 / sqrt(x * x + y * y + z * z);   /* len in [1, sqrt 3] */
    v[0] = x * inv_len;
    v[1] = y * inv_len;
    v[2] = z * inv_len;
    return true;
}

/* A double that fits a float without becoming infinite. */
static inline bool rp__fits_float(double x)
{
    return fabs(x) <= (double)FLT_MAX;
}

/* The first surface point at t >= 0 of roots t0 <= t1 with t1 >= 0: the
   entry point, or the exit point when the origin is inside (t0 < 0). */
static inline double rp__first_root(double t0, double t1)
{
    return t0 < 0.0 ? t1 : t0;
}

/* Finish a hit from the double roots t0 <= t1 (t1 >= 0) of a ray with
 * origin o and direction d at t = rp__first_root(t0, t1): turns the
 * unnormalised outward normal n there into a unit one, and stores everything
 * as floats. Point and normal come from the double t, not the rounded float
 * one, so they are as good as the root. false (out untouched) when a value
 * does not fit a float or n is degenerate. */
static inline bool rp__store_hit(const float o[3], const double d[3], double t0, double t1,
                                 double n[3], rp_hit *out)
{
    if (!rp__fits_float(t0) || !rp__fits_float(t1))
        return false;     /* a far shape and a tiny dir: no honest float t */
    const double t = rp__first_root(t0, t1);
    const double point[3] = {o[0] + t * d[0], o[1] + t * d[1], o[2] + t * d[2]};
    if (!rp__fits_float(point[0]) || !rp__fits_float(point[1]) ||
        !rp__fits_float(point[2]) || !rp__normalize3d(n))
        return false;

    if (out) {
        out->t = (float)t + 0.0f;     /* + 0 turns a -0 root into +0 */
        out->t_enter = (float)t0;
        out->t_exit = (float)t1;
        for (int i = 0; i < 3; i++) {
            out->point[i] = (float)point[i];
            out->normal[i] = (float)n[i];
        }
        out->inside = t0 < 0.0;
    }
    return true;
}

/* A sphere's hit from its roots t0 <= t1 (t1 >= 0, rp__ray_sphere_roots
   of f = origin - centre and d): the outward normal at the first root is
   the point there relative to the centre, f + t d. rp__store_hit's answer
   (false, out untouched, when a value does not fit a float). sphere.c and
   the scene's leaves both end a sphere's test here, so both give the same
   bits. */
static inline bool rp__sphere_hit_from_roots(const float o[3], const double f[3], const double d[3],
                                             double t0, double t1, rp_hit *out)
{
    const double t = rp__first_root(t0, t1);
    double n[3] = {f[0] + t * d[0], f[1] + t * d[1], f[2] + t * d[2]};
    return rp__store_hit(o, d, t0, t1, n, out);
}

#endif /* RAYPICK_QUADRIC_H */

/* triangle_internal.h: the watertight ray-triangle test shared by
   rp_intersect_ray_triangle and the mesh BVH's leaves; not installed.

   Both call the same inline code on the same floats, so a mesh query gives
   bit for bit the answer of a loop over rp_intersect_ray_triangle.

   The test is Woop, Benthin & Wald, "Watertight Ray/Triangle Intersection"
   (JCGT 2013): the vertices are moved so the ray starts at the origin,
   the axes permuted so the ray's largest component is z, and sheared so
   the ray becomes the +z axis. The hit question is then 2D: is (0, 0)
   inside the sheared triangle? Each edge function is a 2x2 determinant of
   two sheared vertices, and an edge shared by two triangles gives the
   same two products in both (only the subtraction's order differs), so the
   two signs are exact opposites: no ray slips between them. Float products
   round monotonically, so a computed edge function never has the opposite
   sign of the exact one on the sheared coordinates; it can only collapse
   to 0, and then the three are recomputed in double, where the products of
   two floats are exact. */
#ifndef RAYPICK_TRIANGLE_INTERNAL_H
#define RAYPICK_TRIANGLE_INTERNAL_H

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include "raypick/mesh.h"
#include "internal.h"   /* RP_OPAQUE */

/* The per-ray part of the test: computed once per ray, used for every
   triangle. */
typedef struct rp_tri_ray {
    float ox, oy, oz;   /* the origin, permuted: (org[kx], org[ky], org[kz]) */
    float sx, sy, sz;   /* shear constants: dir[kx]/dir[kz], dir[ky]/dir[kz], 1/dir[kz],
                           of dir scaled by a power of two when |dir[kz]| is tiny or huge */
    double t_scale;     /* that power of two: t = t_scaled * t_scale, exactly */
    int   kx, ky, kz;
    float org[3], dir[3];   /* the ray itself, for rp_tri_near_zero */
} rp_tri_ray;

/* What one triangle test finds: t, D3DX barycentrics, and which face. */
typedef struct rp_tri_result {
    float t, u, v;
    bool  back;   /* the ray hit the back face (the one away from (v1-v0)x(v2-v0)) */
} rp_tri_result;

/* dir must be finite and non-zero (a valid ray). */
static inline void rp_tri_ray_setup(const rp_ray *ray, rp_tri_ray *r)
{
    const float *d = ray->dir;
    float ax = fabsf(d[0]), ay = fabsf(d[1]), az = fabsf(d[2]);
    /* kz: 0 when x is largest, else 1 or 2 (ties to the lower axis), as
       0/1 arithmetic: a ray's largest axis is a coin toss to a branch */
    const int x_first = (ax >= ay) & (ax >= az);
    int kz = (1 - x_first) * (2 - (ay >= az));
    RP_OPAQUE(kz);
    /* looking down -kz mirrors the 2D plane: swapping kx and ky mirrors it
       back, so a front face keeps the same sign of the determinant */
    static const int8_t plane[3][2][2] = {{{1, 2}, {2, 1}}, {{2, 0}, {0, 2}}, {{0, 1}, {1, 0}}};
    int mirror = d[kz] < 0.0f;
    RP_OPAQUE(mirror);
    r->kx = plane[kz][mirror][0];
    r->ky = plane[kz][mirror][1];
    r->kz = kz;
    /* 1/dir[kz] overflows for a tiny (subnormal) dir: then work with
       dir * 2^-e, |dir[kz] 2^-e| in [0.5, 1) (an exact scaling; t comes
       back times 2^-e, also exact). Ordinary dirs keep e = 0. */
    r->t_scale = 1.0;
    if (!(fabsf(d[kz]) >= 0x1p-60f && fabsf(d[kz]) <= 0x1p60f)) {
        /* only then: a libm call per ray is not free */
        int e = 0;
        frexpf(d[kz], &e);
        r->t_scale = ldexp(1.0, -e);
    }
    float dz = (float)((double)d[kz] * r->t_scale);
    r->sx = (float)((double)d[r->kx] * r->t_scale) / dz;
    r->sy = (float)((double)d[r->ky] * r->t_scale) / dz;
    r->sz = 1.0f / dz;
    for (int i = 0; i < 3; i++) {
        r->org[i] = ray->origin[i];
        r->dir[i] = ray->dir[i];
    }
    r->ox = ray->origin[r->kx];
    r->oy = ray->origin[r->ky];
    r->oz = ray->origin[kz];
}

/* Zero-area triangles never hit. Decided on the exact-ish double cross
   product of the float edges (the differences and products of floats of
   similar size are exact in double), once per triangle. */
static inline bool rp_tri_is_degenerate(const float *p0, const float *p1, const float *p2)
{
    double e1[3], e2[3];
    for (int i = 0; i < 3; i++) {
        e1[i] = (double)p1[i] - (double)p0[i];
        e2[i] = (double)p2[i] - (double)p0[i];
    }
    double nx = e1[1] * e2[2] - e1[2] * e2[1];
    double ny = e1[2] * e2[0] - e1[0] * e2[2];
    double nz = e1[0] * e2[1] - e1[1] * e2[0];
    return nx == 0.0 && ny == 0.0 && nz == 0.0;
}

/* A T this close to 0 (either side) may have the wrong sign: then
   rp_tri_near_zero decides (an origin on the triangle hits at exactly
   t = 0). The slack is about twice a first-order bound of T's rounding error:
   each sheared coordinate is off by a few eps of its bound |vertex -
   origin| + |shear (vertex - origin)_z| (xb, yb below), which moves each
   edge function by eps (xb |y| + |x| yb) per product, and T by that times
   |z|; plus the rounding of the products and sums themselves. */
#define RP_TRI_T0_TOLERANCE (8.0 * FLT_EPSILON)

static inline double rp_tri_pair_err(const double xb[3], const double yb[3], const double x[3],
                                     const double y[3], int j, int k)
{
    return xb[j] * fabs(y[k]) + fabs(x[j]) * yb[k] + xb[k] * fabs(y[j]) + fabs(x[k]) * yb[j];
}

/* s[i] = the sheared (x, y, z) of vertex i as the test computed them;
   U, V, W its edge functions. */
static inline double rp_tri_t_slack(const rp_tri_ray *r, const float *p0, const float *p1,
                                    const float *p2, const double s[3][3], double U, double V,
                                    double W)
{
    const float *p[3] = {p0, p1, p2};
    double xb[3], yb[3], x[3], y[3];
    for (int i = 0; i < 3; i++) {
        double c = fabs((double)p[i][r->kz] - r->oz);
        xb[i] = fabs((double)p[i][r->kx] - r->ox) + fabs((double)r->sx) * c;
        yb[i] = fabs((double)p[i][r->ky] - r->oy) + fabs((double)r->sy) * c;
        x[i] = s[i][0];
        y[i] = s[i][1];
    }
    double e = fabs(s[0][2]) * rp_tri_pair_err(xb, yb, x, y, 1, 2) +
               fabs(s[1][2]) * rp_tri_pair_err(xb, yb, x, y, 0, 2) +
               fabs(s[2][2]) * rp_tri_pair_err(xb, yb, x, y, 0, 1) + fabs(U * s[0][2]) +
               fabs(V * s[1][2]) + fabs(W * s[2][2]);
    return RP_TRI_T0_TOLERANCE * e;
}

/* True when |T| is surely above rp_tri_t_slack's value, found with a
   few float operations instead of its double ones (most hits are far
   above it). Each of the slack's factors is taken from above: the
   float differences and products of xb and yb (a float rounding is at
   most 2^-24 relative), the sheared coordinates as they are (exact in
   double too), and 2^-40 added to each, so every product below is at
   least 2^-120, a normal float, and rounds by at most 2^-24 relative
   (an underflowed |sx| |dz| loses at most 2^-149, which the 2^-40 covers).
   Some fifteen roundings in a chain make the float sum at most
   2^-20 below the exact one; the double slack rounds by 2^-53 a step: a
   margin of 2^-16 covers both. An overflow gives infinity, a NaN
   compares false: then the caller computes the slack itself. */
static inline bool rp_tri_t_clear(const rp_tri_ray *r, const float *p0, const float *p1,
                                  const float *p2, const float s[3][3], float U, float V, float W,
                                  float T)
{
    const float g = 0x1p-40f, asx = fabsf(r->sx), asy = fabsf(r->sy);
    const float *p[3] = {p0, p1, p2};
    float xb[3], yb[3], x[3], y[3], z[3];
    for (int i = 0; i < 3; i++) {
        const float c = fabsf(p[i][r->kz] - r->oz);
        xb[i] = (fabsf(p[i][r->kx] - r->ox) + asx * c) + g;
        yb[i] = (fabsf(p[i][r->ky] - r->oy) + asy * c) + g;
        x[i] = fabsf(s[i][0]) + g;
        y[i] = fabsf(s[i][1]) + g;
        z[i] = fabsf(s[i][2]) + g;
    }
    const float p12 = xb[1] * y[2] + x[1] * yb[2] + xb[2] * y[1] + x[2] * yb[1];
    const float p02 = xb[0] * y[2] + x[0] * yb[2] + xb[2] * y[0] + x[2] * yb[0];
    const float p01 = xb[0] * y[1] + x[0] * yb[1] + xb[1] * y[0] + x[1] * yb[0];
    const float e = z[0] * p12 + z[1] * p02 + z[2] * p01 + (fabsf(U) + g) * z[0] +
                    (fabsf(V) + g) * z[1] + (fabsf(W) + g) * z[2];
    return (double)fabsf(T) > RP_TRI_T0_TOLERANCE * (double)e * (1.0 + 0x1p-16);
}

/* When |T| is within its rounding slack of 0, the sign of t is not
   known from T (an origin on the triangle, or a far, edge-on triangle
   whose small det makes T tiny). triangle.c decides from the plane in
   double instead: t = -n.(o - v0) / n.d with n = (v1 - v0) x (v2 - v0),
   well conditioned; an origin within a float rounding of the triangle
   (not merely of its plane: a ray running nearly along the plane crosses
   it far from the origin) is on it (t = 0). Returns false when the plane
   is behind. */
bool rp_tri_near_zero(const rp_tri_ray *r, const float *p0, const float *p1, const float *p2,
                      float *t);

/* The slow path (triangle.c): the edge functions collapsed to zero or
   something overflowed in float. Recomputes U, V, W from the float sheared
   coordinates in double (exact products: the sign of a shared edge stays
   the exact opposite of its neighbour's), and det and T in double; when
   the float shear itself overflowed, it shears again in double. */
bool rp_tri_slow(const rp_tri_ray *r, const float *p0, const float *p1, const float *p2,
                 rp_tri_result *res);

/* The test. Returns true for a hit at t >= 0 (either face; edges and
   vertices included). The caller has rejected degenerate triangles. */
static inline bool rp_tri_intersect(const rp_tri_ray *r, const float *p0, const float *p1,
                                    const float *p2, rp_tri_result *res)
{
    const int kx = r->kx, ky = r->ky, kz = r->kz;
    const float az = p0[kz] - r->oz, bz = p1[kz] - r->oz, cz = p2[kz] - r->oz;
    const float ax = (p0[kx] - r->ox) - r->sx * az, ay = (p0[ky] - r->oy) - r->sy * az;
    const float bx = (p1[kx] - r->ox) - r->sx * bz, by = (p1[ky] - r->oy) - r->sy * bz;
    const float cx = (p2[kx] - r->ox) - r->sx * cz, cy = (p2[ky] - r->oy) - r->sy * cz;

    const float U = cx * by - cy * bx;
    const float V = ax * cy - ay * cx;
    const float W = bx * ay - by * ax;
    /* Mixed signs miss; a zero (or an overflow) goes to the exact path.
       The comparisons are combined with | and &, not || and &&: one
       branch on the outcome instead of one per comparison (in a mesh,
       whether a ray misses a triangle is a coin toss the CPU cannot
       predict). */
    const int neg = (U < 0.0f) | (V < 0.0f) | (W < 0.0f);
    const int pos = (U > 0.0f) | (V > 0.0f) | (W > 0.0f);
    if (neg & pos)
        return false;
    const float au = fabsf(U), av = fabsf(V), aw = fabsf(W);   /* no calls inside the &s */
    const int finite = (U != 0.0f) & (V != 0.0f) & (W != 0.0f) & (au <= FLT_MAX) &
                       (av <= FLT_MAX) & (aw <= FLT_MAX);
    if (!finite)
        return rp_tri_slow(r, p0, p1, p2, res);

    const float det = U + V + W;
    const float sz = r->sz;
    const float tz0 = sz * az, tz1 = sz * bz, tz2 = sz * cz;
    const float T = U * tz0 + V * tz1 + W * tz2;
    if (!(fabsf(det) <= FLT_MAX && fabsf(T) <= FLT_MAX))
        return rp_tri_slow(r, p0, p1, p2, res);
    /* all three edge functions share det's sign here, so det != 0 */
    float t = T / det;
    /* within T's rounding error of 0: decided from the plane in double
       (the slack is computed only for a hit candidate: edge tests passed) */
    const float sf[3][3] = {{ax, ay, tz0}, {bx, by, tz1}, {cx, cy, tz2}};
    bool near_zero = false;
    if (!rp_tri_t_clear(r, p0, p1, p2, sf, U, V, W, T)) {
        const double sh[3][3] = {{ax, ay, tz0}, {bx, by, tz1}, {cx, cy, tz2}};
        near_zero = fabsf(T) <= rp_tri_t_slack(r, p0, p1, p2, sh, U, V, W);
    }
    if (near_zero) {
        if (!rp_tri_near_zero(r, p0, p1, p2, &t))
            return false;
    } else if (t < 0.0f) {
        return false;
    } else {
        t = (float)((double)t * r->t_scale);
    }
    if (!(t <= FLT_MAX))
        return false;
    const float inv = 1.0f / det;
    res->t = t;
    res->u = V * inv;
    res->v = W * inv;
    res->back = det < 0.0f;
    return true;
}

/* The rp_hit of a triangle hit: point on the ray, unit geometric normal
   facing the ray's side. false when the point or normal cannot be
   represented (overflow), so no caller ever reports a non-finite hit. */
bool rp_tri_make_hit(const rp_ray *ray, const float *p0, const float *p1, const float *p2,
                     const rp_tri_result *res, rp_hit *out);

#endif /* RAYPICK_TRIANGLE_INTERNAL_H */

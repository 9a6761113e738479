/* ref_quadric.h: what the sphere and ellipsoid tests compare the library
 * against: a fixed-seed PRNG, an independent double-precision reference
 * solver (geometric: closest approach and half chord, not the library's
 * quadratic), and the tutorial's textbook float formula (seed 000's
 * quadratic, reimplemented here to show where it fails). */
#ifndef RAYPICK_TEST_REF_QUADRIC_H
#define RAYPICK_TEST_REF_QUADRIC_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

/* ---- PRNG: xorshift64*, fixed seed per test -------------------------- */

typedef struct test_rng {
    uint64_t s;
} test_rng;

static inline uint32_t rng_u32(test_rng *r)
{
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    return (uint32_t)((r->s * 0x2545F4914F6CDD1Dull) >> 32);
}

/* uniform in [lo, hi) */
static inline double rng_uniform(test_rng *r, double lo, double hi)
{
    return lo + (hi - lo) * (double)rng_u32(r) * (1.0 / 4294967296.0);
}

/* 10^U(lo_exp, hi_exp): spreads magnitudes over decades */
static inline double rng_log(test_rng *r, double lo_exp, double hi_exp)
{
    return pow(10.0, rng_uniform(r, lo_exp, hi_exp));
}

/* ---- reference solver -------------------------------------------------- */

typedef struct ref_hit {
    bool line_hits;   /* the infinite line meets the sphere               */
    bool hit;         /* ... at some t >= 0                               */
    double t0, t1;    /* roots when line_hits                            */
    double tangency;  /* (r^2 - dist^2) / (r^2 + dist^2): ~0 near tangent */
    double surface;   /* (|oc|^2 - r^2) / (|oc|^2 + r^2): ~0 when the
                         origin is on the surface                          */
} ref_hit;

static inline double ref_dot(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* Ray origin + t d against the sphere |x| = r, with oc = origin - centre.
   dist^2 from the cross product (no cancellation), half chord from
   Pythagoras, t = (distance along the unit dir +- half chord) / |d|. */
static inline ref_hit ref_ray_sphere(const double oc[3], const double d[3], double r)
{
    ref_hit h = {0};
    const double dd = ref_dot(d, d), len = sqrt(dd);
    const double along = -ref_dot(oc, d) / len;
    const double cr[3] = {oc[1] * d[2] - oc[2] * d[1], oc[2] * d[0] - oc[0] * d[2],
                          oc[0] * d[1] - oc[1] * d[0]};
    const double dist2 = ref_dot(cr, cr) / dd;
    const double r2 = r * r;
    const double oo = ref_dot(oc, oc);
    h.tangency = (r2 - dist2) / (r2 + dist2);
    h.surface = (oo - r2) / (oo + r2);
    if (r2 - dist2 < 0.0)
        return h;
    const double half_chord = sqrt(r2 - dist2);
    h.line_hits = true;
    h.t0 = (along - half_chord) / len;
    h.t1 = (along + half_chord) / len;
    h.hit = h.t1 >= 0.0;
    return h;
}

/* float triples to double, and differences */
static inline void ref_sub3f(const float a[3], const float b[3], double out[3])
{
    for (int i = 0; i < 3; i++)
        out[i] = (double)a[i] - (double)b[i];
}

static inline void ref_f2d(const float a[3], double out[3])
{
    for (int i = 0; i < 3; i++)
        out[i] = a[i];
}

/* Rotation matrix of a unit quaternion (x, y, z, w), rows. */
static inline void ref_quat_matrix(const double q[4], double m[3][3])
{
    const double x = q[0], y = q[1], z = q[2], w = q[3];
    m[0][0] = 1 - 2 * (y * y + z * z); m[0][1] = 2 * (x * y - z * w); m[0][2] = 2 * (x * z + y * w);
    m[1][0] = 2 * (x * y + z * w); m[1][1] = 1 - 2 * (x * x + z * z); m[1][2] = 2 * (y * z - x * w);
    m[2][0] = 2 * (x * z - y * w); m[2][1] = 2 * (y * z + x * w); m[2][2] = 1 - 2 * (x * x + y * y);
}

/* ---- the tutorial's formula (seed 000), as written: float, b^2 - 4ac --- */

static inline bool textbook_ray_sphere(const float o[3], const float d[3], const float c[3],
                                       float r, float *t)
{
    float a = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    float hx = o[0] - c[0], hy = o[1] - c[1], hz = o[2] - c[2];
    float b = 2.0f * (hx * d[0] + hy * d[1] + hz * d[2]);
    float cc = hx * hx + hy * hy + hz * hz - r * r;
    float det = b * b - 4.0f * a * cc;
    if (det < 0.0f)
        return false;
    det = sqrtf(det);
    a = 1.0f / (2.0f * a);
    float s1 = (-b + det) * a, s2 = (-b - det) * a;
    *t = s1 < s2 ? s1 : s2;
    return true;
}

/* seed 000's ellipsoid version: each term divided by the squared radius */
static inline bool textbook_ray_ellipsoid(const float o[3], const float d[3], const float c[3],
                                          const float radii[3], float *t)
{
    const float sq[3] = {radii[0] * radii[0], radii[1] * radii[1], radii[2] * radii[2]};
    float hx = o[0] - c[0], hy = o[1] - c[1], hz = o[2] - c[2];
    float a = d[0] * d[0] / sq[0] + d[1] * d[1] / sq[1] + d[2] * d[2] / sq[2];
    float b = 2.0f * (hx * d[0] / sq[0] + hy * d[1] / sq[1] + hz * d[2] / sq[2]);
    float cc = hx * hx / sq[0] + hy * hy / sq[1] + hz * hz / sq[2] - 1.0f;
    float det = b * b - 4.0f * a * cc;
    if (det < 0.0f)
        return false;
    det = sqrtf(det);
    a = 1.0f / (2.0f * a);
    float s1 = (-b + det) * a, s2 = (-b - det) * a;
    *t = s1 < s2 ? s1 : s2;
    return true;
}

#endif /* RAYPICK_TEST_REF_QUADRIC_H */

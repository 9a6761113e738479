/* bounds.c: bounding box and smallest bounding sphere of a point array
 * (D3DXComputeBoundingBox, and D3DXComputeBoundingSphere done minimal).
 *
 * The sphere is Welzl's algorithm in Gärtner's form ("Fast and robust
 * smallest enclosing balls", ESA 1999): the ball of a support set is built
 * one point at a time (push), each new support point moving the centre
 * along the part of (p - q0) orthogonal to the support's affine hull; a
 * point whose orthogonal part vanishes (collinear, coplanar, duplicate)
 * is not pushed, which is what keeps degenerate sets finite. The
 * recursion goes one level per support point, so it is at most 5 deep.
 * The points are visited in a fixed pseudo-random order (Welzl's expected
 * linear time needs a random order; a fixed seed keeps the result
 * reproducible), and each point that forces a new ball moves to the front
 * (Gärtner's move-to-front), where the later scans meet it first. Everything runs in double; the float sphere is then
 * grown until it encloses every input point, checked in double. */
#include "raypick/box.h"
#include "internal.h"
#include "points_internal.h"

#include <float.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- reading the points -------------------------------------------------- */


/* ---- box ----------------------------------------------------------------- */

bool rp_aabb_from_points(const float *xyz, size_t count, size_t stride_bytes, rp_aabb *out)
{
    rp_points pa;
    if (!rp_points_init(xyz, count, stride_bytes, &pa))
        return false;
    rp_aabb box;
    rp_points_get(&pa, 0, box.min);
    if (!rp_vec3_finite(box.min))
        return false;
    glm_vec3_copy(box.min, box.max);
    for (size_t i = 1; i < count; i++) {
        float p[3];
        rp_points_get(&pa, i, p);
        if (!rp_vec3_finite(p))
            return false;
        for (int k = 0; k < 3; k++) {
            box.min[k] = p[k] < box.min[k] ? p[k] : box.min[k];
            box.max[k] = p[k] > box.max[k] ? p[k] : box.max[k];
        }
    }
    if (out)
        *out = box;
    return true;
}

/* ---- smallest enclosing sphere ------------------------------------------- */

#define MB_MAX_SUPPORT 4   /* in 3-D a ball is fixed by at most 4 points */

/* A point is pushed only when its distance from the support's affine hull
   is above this fraction of its distance from q0 (squared: 1e-12 in
   length), far above double's rounding of the projection (~1e-16). */
#define MB_DEGENERATE_REL2 1e-24

/* A point counts as outside the current ball when |p - c|^2 exceeds r^2 by
   more than this fraction: double rounding of cospherical points does not
   trigger useless pushes. The final float sphere is grown to enclose every
   point anyway. */
#define MB_OUTSIDE_REL 1e-13

typedef struct miniball {
    double (*pts)[3];            /* the points, in visiting order (move-to-front) */
    int size;                    /* support points pushed */
    double q0[3];                /* the first support point */
    double v[MB_MAX_SUPPORT][3]; /* v[k]: the part of (q_k - q0) orthogonal to q1..q_{k-1} */
    double z[MB_MAX_SUPPORT];    /* |v[k]|^2 */
    double c[MB_MAX_SUPPORT + 1][3]; /* c[k], r2[k]: the smallest ball with */
    double r2[MB_MAX_SUPPORT + 1];   /* the first k support points on its surface */
    double cur_c[3], cur_r2;     /* the ball found so far */
} miniball;

static double dist2d(const double a[3], const double b[3])
{
    const double x = a[0] - b[0], y = a[1] - b[1], z = a[2] - b[2];
    return x * x + y * y + z * z;
}

static bool mb_outside(const miniball *mb, const double p[3])
{
    return dist2d(p, mb->cur_c) - mb->cur_r2 > MB_OUTSIDE_REL * mb->cur_r2;
}

/* Adds p to the support: the new ball has every support point and p on
   its surface and its centre in their affine hull. With v the part of
   p - q0 orthogonal to the old hull (v.(p - c) = |v|^2 = z), the centre
   moves to c + f v with f = e / (2 z), e = |p - c|^2 - r^2, which keeps
   the old support equidistant, and r^2 grows by e^2 / (4 z). false (and
   nothing changed) when p lies in the hull up to rounding. */
static bool mb_push(miniball *mb, const double p[3])
{
    const int k = mb->size;
    if (k == 0) {
        memcpy(mb->q0, p, sizeof mb->q0);
        memcpy(mb->c[1], p, sizeof mb->c[1]);
        mb->r2[1] = 0.0;
    } else {
        double qm[3] = {p[0] - mb->q0[0], p[1] - mb->q0[1], p[2] - mb->q0[2]};
        const double len2 = qm[0] * qm[0] + qm[1] * qm[1] + qm[2] * qm[2];
        double v[3] = {qm[0], qm[1], qm[2]};
        for (int i = 1; i < k; i++) {
            const double a = (mb->v[i][0] * qm[0] + mb->v[i][1] * qm[1] +
                              mb->v[i][2] * qm[2]) / mb->z[i];
            for (int j = 0; j < 3; j++)
                v[j] -= a * mb->v[i][j];
        }
        const double z = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
        if (!(z > MB_DEGENERATE_REL2 * len2))
            return false;
        const double e = dist2d(p, mb->c[k]) - mb->r2[k];
        const double f = e / (2.0 * z);
        for (int j = 0; j < 3; j++) {
            mb->v[k][j] = v[j];
            mb->c[k + 1][j] = mb->c[k][j] + f * v[j];
        }
        mb->z[k] = z;
        mb->r2[k + 1] = mb->r2[k] + e * e / (4.0 * z);
    }
    mb->size = k + 1;
    memcpy(mb->cur_c, mb->c[k + 1], sizeof mb->cur_c);
    mb->cur_r2 = mb->r2[k + 1];
    return true;
}

/* Gärtner's move-to-front: a point that forced a new ball is likely to be
   on the final one, so later scans meet it first. Shifting [0, i) by one
   costs no more than the scan of [0, i) that the point just caused. */
static void move_to_front(double (*pts)[3], size_t i)
{
    double p[3];
    memcpy(p, pts[i], sizeof p);
    memmove(pts + 1, pts, i * sizeof *pts);
    memcpy(pts[0], p, sizeof p);
}

/* Welzl: makes the current ball the smallest one that encloses points
   [0, end) and has the current support on its surface. Each level adds
   one support point, and a full support (4 points) fixes the ball, so the
   recursion is at most MB_MAX_SUPPORT + 1 deep. A deeper level only
   reorders points below its own end, so the loop's i stays valid. */
static void mb_solve(miniball *mb, size_t end)
{
    if (mb->size == MB_MAX_SUPPORT)
        return;
    for (size_t i = 0; i < end; i++) {
        double p[3];
        memcpy(p, mb->pts[i], sizeof p);
        if (mb_outside(mb, p) && mb_push(mb, p)) {
            mb_solve(mb, i);
            mb->size--;   /* the support shrinks; the ball found stays */
            move_to_front(mb->pts, i);
        }
    }
}

/* splitmix64: the fixed-seed generator of the visiting order */
static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* The points in double, in a pseudo-random order: Fisher-Yates on an
   index array (small and cache-friendly), then one gather. NULL when out
   of memory. */
static double (*shuffled_points(const rp_points *pa))[3]
{
    const size_t n = pa->count;
    if (n > SIZE_MAX / sizeof(double[3]))
        return NULL;
    double (*pts)[3] = malloc(n * sizeof *pts);
    size_t *order = malloc(n * sizeof *order);
    if (pts == NULL || order == NULL) {
        free(pts);
        free(order);
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        order[i] = i;
    uint64_t state = 0x5EED5EED5EED5EEDull;
    for (size_t i = n - 1; i > 0; i--) {
        const size_t j = (size_t)(next_random(&state) % ((uint64_t)i + 1));
        const size_t tmp = order[i];
        order[i] = order[j];
        order[j] = tmp;
    }
    for (size_t i = 0; i < n; i++) {
        float p[3];
        rp_points_get(pa, order[i], p);
        pts[i][0] = p[0];
        pts[i][1] = p[1];
        pts[i][2] = p[2];
    }
    free(order);
    return pts;
}

/* The float sphere: the double centre rounded to float, and the smallest
   float radius r with |p - c| <= r for every point, in double, with a
   margin of a few double roundings so that any order of summing the
   squares agrees. */
static bool enclosing_float_sphere(const rp_points *pa, const double centre[3],
                                   rp_sphere *s)
{
    for (int k = 0; k < 3; k++) {
        if (!(fabs(centre[k]) <= FLT_MAX))
            return false;
        s->center[k] = (float)centre[k];
    }
    const double c[3] = {s->center[0], s->center[1], s->center[2]};
    double max_d2 = 0.0;
    for (size_t i = 0; i < pa->count; i++) {
        float p[3];
        rp_points_get(pa, i, p);
        const double pd[3] = {p[0], p[1], p[2]};
        const double d2 = dist2d(pd, c);
        max_d2 = d2 > max_d2 ? d2 : max_d2;
    }
    const double need = sqrt(max_d2) * (1.0 + 8.0 * DBL_EPSILON);
    const double need2 = max_d2 * (1.0 + 8.0 * DBL_EPSILON);
    if (!(need <= FLT_MAX))
        return false;
    float r = (float)need;
    while ((double)r < need || (double)r * (double)r < need2) {
        r = nextafterf(r, INFINITY);
        if (!(r <= FLT_MAX))
            return false;   /* points spread over more than float's range */
    }
    s->radius = r;
    return true;
}

bool rp_sphere_from_points(const float *xyz, size_t count, size_t stride_bytes,
                           rp_sphere *out)
{
    rp_points pa;
    if (!rp_points_init(xyz, count, stride_bytes, &pa) || !rp_points_finite(&pa))
        return false;

    double (*pts)[3] = shuffled_points(&pa);
    if (pts == NULL)
        return false;
    miniball mb;
    memset(&mb, 0, sizeof mb);
    mb.pts = pts;
    mb.cur_r2 = -1.0;   /* the empty ball: every point is outside it */
    mb_solve(&mb, count);
    double centre[3];
    memcpy(centre, mb.cur_c, sizeof centre);
    free(pts);

    rp_sphere s;
    if (!enclosing_float_sphere(&pa, centre, &s))
        return false;
    if (out)
        *out = s;
    return true;
}

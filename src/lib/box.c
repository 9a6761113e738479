/* box.c: ray vs axis-aligned and oriented boxes (the slab test).
 *
 * Everything runs in double. For an AABB the slab bounds (lo - o) / d come
 * from float inputs: lo - o is exact in double whenever the two floats are
 * within 2^29 of each other in scale, and IEEE division is correctly
 * rounded, so equal exact values give equal doubles and the comparisons
 * t_enter <= t_exit decide a ray through an edge or a corner as exact
 * arithmetic would: touching counts. A zero component of dir never divides:
 * that axis only asks whether the origin lies between the two planes, so
 * there is no 0 * inf = NaN, and no infinity either (a denormal d gives at
 * most ~1e84, far inside double's range). */
#include "raypick/box.h"
#include "internal.h"
#include "quadric.h"

/* The slab interval of one ray against one box, with the faces it enters
   and leaves through: axis 0..2, and side -1 (the min face) or +1 (max). */
typedef struct slab_span {
    double t_enter, t_exit;
    int enter_axis, exit_axis;
    int enter_side, exit_side;
} slab_span;

/* false when the line misses the box (the whole interval may be behind the
   origin: the caller decides about t >= 0). Expects a non-zero d. */
static bool slab_interval(const double o[3], const double d[3], const double lo[3],
                          const double hi[3], slab_span *s)
{
    s->t_enter = -HUGE_VAL;
    s->t_exit = HUGE_VAL;
    s->enter_axis = s->exit_axis = -1;
    s->enter_side = s->exit_side = 0;
    for (int i = 0; i < 3; i++) {
        if (d[i] == 0.0) {
            /* parallel to this axis's planes: inside them (on one counts) or a miss */
            if (o[i] < lo[i] || o[i] > hi[i])
                return false;
            continue;
        }
        /* entering through the min face when moving up the axis */
        const int near_side = d[i] > 0.0 ? -1 : 1;
        const double t_near = ((near_side < 0 ? lo[i] : hi[i]) - o[i]) / d[i];
        const double t_far = ((near_side < 0 ? hi[i] : lo[i]) - o[i]) / d[i];
        if (t_near > s->t_enter) {
            s->t_enter = t_near;
            s->enter_axis = i;
            s->enter_side = near_side;
        }
        if (t_far < s->t_exit) {
            s->t_exit = t_far;
            s->exit_axis = i;
            s->exit_side = -near_side;
        }
    }
    return s->t_enter <= s->t_exit;
}

/* Turns a slab interval of a box [lo, hi] in the ray's frame (o, d) into a
   hit: t = the first surface point at t >= 0, the face normal there (in
   that frame), the point snapped onto that face. false when the box is
   behind the origin or a value does not fit a float. */
typedef struct box_hit {
    double t, t_enter, t_exit;
    double point[3];   /* in the frame of o, d */
    double normal[3];
    bool inside;
} box_hit;

static bool slab_hit(const double o[3], const double d[3], const double lo[3],
                     const double hi[3], box_hit *h)
{
    slab_span s;
    if (!slab_interval(o, d, lo, hi, &s) || s.t_exit < 0.0)
        return false;
    const bool inside = s.t_enter < 0.0;
    const int axis = inside ? s.exit_axis : s.enter_axis;
    const int side = inside ? s.exit_side : s.enter_side;
    h->t = inside ? s.t_exit : s.t_enter;
    h->t_enter = s.t_enter;
    h->t_exit = s.t_exit;
    h->inside = inside;
    for (int i = 0; i < 3; i++) {
        /* the point lies on the box: rounding of o + t d must not put it a
           hair outside, and on the hit face it is that face's plane */
        double p = o[i] + h->t * d[i];
        p = p < lo[i] ? lo[i] : (p > hi[i] ? hi[i] : p);
        if (i == axis)
            p = side < 0 ? lo[i] : hi[i];
        h->point[i] = p;
        h->normal[i] = i == axis ? (double)side : 0.0;
    }
    return true;
}

/* Every float of a finished hit fits a float; false otherwise (a box far
   along a tiny dir, as for spheres). */
static bool box_hit_fits(const box_hit *h, const double world_point[3])
{
    return rp__fits_float(h->t_enter) && rp__fits_float(h->t_exit) &&
           rp__fits_float(world_point[0]) && rp__fits_float(world_point[1]) &&
           rp__fits_float(world_point[2]);
}

static void store_box_hit(const box_hit *h, const double world_point[3],
                          const double world_normal[3], rp_hit *out)
{
    if (out == NULL)
        return;
    out->t = (float)h->t + 0.0f;   /* + 0 turns -0 into +0 */
    out->t_enter = (float)h->t_enter;
    out->t_exit = (float)h->t_exit;
    for (int i = 0; i < 3; i++) {
        out->point[i] = (float)world_point[i];
        out->normal[i] = (float)world_normal[i];
    }
    out->inside = h->inside;
}

static bool aabb_is_valid(const rp_aabb *box)
{
    if (box == NULL || !rp_vec3_finite(box->min) || !rp_vec3_finite(box->max))
        return false;
    return box->min[0] <= box->max[0] && box->min[1] <= box->max[1] &&
           box->min[2] <= box->max[2];
}

bool rp_intersect_ray_aabb(const rp_ray *ray, const rp_aabb *box, rp_hit *out)
{
    if (!rp_ray_valid(ray) || !aabb_is_valid(box))
        return false;
    double o[3], d[3], lo[3], hi[3];
    for (int i = 0; i < 3; i++) {
        o[i] = ray->origin[i];
        d[i] = ray->dir[i];
        lo[i] = box->min[i];
        hi[i] = box->max[i];
    }
    box_hit h;
    if (!slab_hit(o, d, lo, hi, &h) || !box_hit_fits(&h, h.point))
        return false;
    store_box_hit(&h, h.point, h.normal, out);
    return true;
}

bool rp_test_ray_aabb(const rp_ray *ray, const rp_aabb *box)
{
    return rp_intersect_ray_aabb(ray, box, NULL);
}

/* ---- oriented boxes ------------------------------------------------------ */

/* The box's rotation as a unit quaternion in double: identity for all
   zeros, any other finite quaternion normalised (scaled first, so neither
   a huge nor a denormal one over- or underflows). */
static bool obb_rotation(const rp_obb *box, double q[4])
{
    if (box == NULL || !rp_vec3_finite(box->center) || !rp_vec3_finite(box->half_extents) ||
        !rp_vec4_finite(box->orientation))
        return false;
    for (int i = 0; i < 3; i++)
        if (!(box->half_extents[i] >= 0.0f))
            return false;
    double m = 0.0;
    for (int i = 0; i < 4; i++)
        m = fmax(m, fabs((double)box->orientation[i]));
    if (m == 0.0) {
        q[0] = q[1] = q[2] = 0.0;
        q[3] = 1.0;
        return true;
    }
    double n2 = 0.0;
    for (int i = 0; i < 4; i++) {
        q[i] = box->orientation[i] / m;
        n2 += q[i] * q[i];
    }
    const double n = sqrt(n2);
    for (int i = 0; i < 4; i++)
        q[i] /= n;
    return true;
}

/* v' = q v q* for a unit quaternion; sign = -1 applies the inverse. */
static void rotate(const double q[4], double sign, const double v[3], double dest[3])
{
    const double ux = sign * q[0], uy = sign * q[1], uz = sign * q[2], w = q[3];
    const double cx = uy * v[2] - uz * v[1];
    const double cy = uz * v[0] - ux * v[2];
    const double cz = ux * v[1] - uy * v[0];
    dest[0] = v[0] + 2.0 * (w * cx + uy * cz - uz * cy);
    dest[1] = v[1] + 2.0 * (w * cy + uz * cx - ux * cz);
    dest[2] = v[2] + 2.0 * (w * cz + ux * cy - uy * cx);
}

/* Does the ray (t >= 0) meet the world bounds of the box, centre +- |R| h,
   each side widened by RP_OBB_BOUNDS_PAD of |centre| + |R| h? */
static bool ray_meets_obb_bounds(const rp_ray *ray, const rp_obb *box, const double q[4])
{
    double lo[3], hi[3], o[3], d[3], half[3] = {0.0, 0.0, 0.0};
    for (int j = 0; j < 3; j++) {
        double axis[3] = {0.0, 0.0, 0.0}, col[3];
        axis[j] = 1.0;
        rotate(q, 1.0, axis, col);          /* column j of R */
        for (int i = 0; i < 3; i++)
            half[i] += fabs(col[i]) * box->half_extents[j];
    }
    for (int i = 0; i < 3; i++) {
        const double c = box->center[i];
        const double pad = RP_OBB_BOUNDS_PAD * (fabs(c) + half[i]);
        lo[i] = c - half[i] - pad;
        hi[i] = c + half[i] + pad;
        o[i] = ray->origin[i];
        d[i] = ray->dir[i];
    }
    slab_span span;
    return slab_interval(o, d, lo, hi, &span) && span.t_exit >= 0.0;
}

bool rp_intersect_ray_obb(const rp_ray *ray, const rp_obb *box, rp_hit *out)
{
    double q[4];
    if (!rp_ray_valid(ray) || !obb_rotation(box, q))
        return false;

    /* Rounding in the rotation below grows with the distance between the
       ray's origin and the box: for a box far thinner than that distance
       (half extents 1e-36 at 1e19 from the origin) it can report a hit
       where the exact box has none, even outside the box's own world
       bounds. No true hit lies outside those bounds, so a ray that misses
       them (padded a little beyond float rounding; rp_scene's boxes are
       padded more) is a miss. Touching rays are inside the padding. */
    if (!ray_meets_obb_bounds(ray, box, q))
        return false;

    /* The box is [-h, h] under x -> centre + R x. R is a rotation, so the
       ray in box space has the same t as in the world: the interval, the
       face and its normal come from the axis-aligned test there. */
    const double rel[3] = {(double)ray->origin[0] - box->center[0],
                           (double)ray->origin[1] - box->center[1],
                           (double)ray->origin[2] - box->center[2]};
    const double d_world[3] = {ray->dir[0], ray->dir[1], ray->dir[2]};
    double o[3], d[3], lo[3], hi[3];
    rotate(q, -1.0, rel, o);
    rotate(q, -1.0, d_world, d);
    for (int i = 0; i < 3; i++) {
        hi[i] = box->half_extents[i];
        lo[i] = -hi[i];
    }
    /* a rotated non-zero dir stays non-zero (|d| is preserved to rounding) */
    box_hit h;
    if (!slab_hit(o, d, lo, hi, &h))
        return false;
    double point[3], normal[3];
    rotate(q, 1.0, h.point, point);
    rotate(q, 1.0, h.normal, normal);
    for (int i = 0; i < 3; i++)
        point[i] += box->center[i];
    if (!box_hit_fits(&h, point) || !rp__normalize3d(normal))
        return false;
    store_box_hit(&h, point, normal, out);
    return true;
}

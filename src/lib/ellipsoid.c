/* ellipsoid.c: ray vs ellipsoid, axis-aligned or rotated.
 *
 * The ellipsoid is the unit sphere under x -> center + R (radii * x). The
 * inverse of that affine map takes the ray to a ray against the unit sphere;
 * because the map is linear in t (origin and direction map separately), the
 * roots t are the same in both spaces, so the robust sphere solver gives the
 * world-space t directly. */
#include "raypick/ellipsoid.h"
#include "internal.h"
#include "quadric.h"

/* A non-zero orientation must be a unit quaternion; 1e-3 absorbs the drift
   of float quaternions built by cglm (glm_quat, glm_quat_mul chains). */
#define RP_UNIT_QUAT_TOLERANCE 1e-3

typedef struct frame {
    double q[4];     /* unit quaternion x, y, z, w; identity when axis-aligned */
    double radii[3];
    double center[3];
} frame;

static bool ellipsoid_frame(const rp_ellipsoid *e, frame *fr)
{
    if (e == NULL || !rp_vec3_finite(e->center) || !rp_vec3_finite(e->radii) ||
        !rp_vec4_finite(e->orientation))
        return false;
    for (int i = 0; i < 3; i++) {
        if (!(e->radii[i] > 0.0f))
            return false;
        fr->radii[i] = e->radii[i];
        fr->center[i] = e->center[i];
    }
    const double x = e->orientation[0], y = e->orientation[1];
    const double z = e->orientation[2], w = e->orientation[3];
    const double n2 = x * x + y * y + z * z + w * w;
    if (n2 == 0.0) {
        fr->q[0] = fr->q[1] = fr->q[2] = 0.0;
        fr->q[3] = 1.0;
        return true;
    }
    const double n = sqrt(n2);
    if (fabs(n - 1.0) > RP_UNIT_QUAT_TOLERANCE)
        return false;
    /* renormalise so the rotation is orthonormal to double precision */
    fr->q[0] = x / n;
    fr->q[1] = y / n;
    fr->q[2] = z / n;
    fr->q[3] = w / n;
    return true;
}

/* v' = q v q* for a unit quaternion, as v + 2w (u x v) + 2 u x (u x v);
   sign = -1 applies the inverse rotation (the conjugate). */
static void rotate(const double q[4], double sign, const double v[3], double dest[3])
{
    const double ux = sign * q[0], uy = sign * q[1], uz = sign * q[2], w = q[3];
    const double cx = uy * v[2] - uz * v[1];
    const double cy = uz * v[0] - ux * v[2];
    const double cz = ux * v[1] - uy * v[0];
    const double ccx = uy * cz - uz * cy;
    const double ccy = uz * cx - ux * cz;
    const double ccz = ux * cy - uy * cx;
    dest[0] = v[0] + 2.0 * (w * cx + ccx);
    dest[1] = v[1] + 2.0 * (w * cy + ccy);
    dest[2] = v[2] + 2.0 * (w * cz + ccz);
}

bool rp_intersect_ray_ellipsoid(const rp_ray *ray, const rp_ellipsoid *e, rp_hit *out)
{
    frame fr;
    if (!rp_ray_valid(ray) || !ellipsoid_frame(e, &fr))
        return false;

    const double o_rel[3] = {(double)ray->origin[0] - fr.center[0],
                             (double)ray->origin[1] - fr.center[1],
                             (double)ray->origin[2] - fr.center[2]};
    const double d_world[3] = {ray->dir[0], ray->dir[1], ray->dir[2]};
    double o_local[3], d_local[3];
    rotate(fr.q, -1.0, o_rel, o_local);
    rotate(fr.q, -1.0, d_world, d_local);
    for (int i = 0; i < 3; i++) {
        o_local[i] /= fr.radii[i];
        d_local[i] /= fr.radii[i];
    }

    double t0, t1;
    if (!rp__ray_sphere_roots(o_local, d_local, 1.0, &t0, &t1) || t1 < 0.0)
        return false;
    /* The normal is the gradient of |x_local / radii|^2 = 1: with u the hit
       on the unit sphere, x_local = radii * u and the gradient is
       x_local / radii^2 = u / radii, rotated back into the world. */
    const double t = rp__first_root(t0, t1);
    double n_local[3], n[3];
    for (int i = 0; i < 3; i++)
        n_local[i] = (o_local[i] + t * d_local[i]) / fr.radii[i];
    rotate(fr.q, 1.0, n_local, n);
    return rp__store_hit(ray->origin, d_world, t0, t1, n, out);
}

/* plane.c: planes, ray vs plane, and the drag helper built on them.
   Everything runs in double: float products are exact there, so
   dot(n, origin) + d loses nothing to cancellation until the last sum. */
#include "raypick/plane.h"
#include "internal.h"
#include "camera_math.h"

static bool plane_is_valid(const rp_plane *plane)
{
    if (plane == NULL || !rp_vec3_finite(plane->normal) || !isfinite(plane->d))
        return false;
    return plane->normal[0] != 0.0f || plane->normal[1] != 0.0f || plane->normal[2] != 0.0f;
}

static double dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* Scales n to unit length in place; false when it is zero. Scaled by its
   largest component first, so the squares of a double cross product of
   huge or tiny float differences neither overflow nor underflow. */
static bool unit3(double n[3])
{
    const double m = fmax(fabs(n[0]), fmax(fabs(n[1]), fabs(n[2])));
    if (!(m > 0.0) || !isfinite(m))
        return false;
    for (int i = 0; i < 3; i++)
        n[i] /= m;
    const double len = sqrt(dot3(n, n));
    for (int i = 0; i < 3; i++)
        n[i] /= len;
    return true;
}

/* The plane through p with unit normal n (double), rounded to float. */
static bool store_plane(const double n[3], const double p[3], rp_plane *out)
{
    rp_plane pl;
    if (!rp_to_float(-dot3(n, p), &pl.d))
        return false;
    for (int i = 0; i < 3; i++)
        pl.normal[i] = (float)n[i];
    if (out)
        *out = pl;
    return true;
}

bool rp_plane_from_point_normal(const vec3 point, const vec3 normal, rp_plane *out)
{
    if (point == NULL || normal == NULL || !rp_vec3_finite(point) || !rp_vec3_finite(normal))
        return false;
    double n[3] = {normal[0], normal[1], normal[2]};
    const double p[3] = {point[0], point[1], point[2]};
    return unit3(n) && store_plane(n, p, out);
}

bool rp_plane_from_points(const vec3 a, const vec3 b, const vec3 c, rp_plane *out)
{
    if (a == NULL || b == NULL || c == NULL || !rp_vec3_finite(a) || !rp_vec3_finite(b) ||
        !rp_vec3_finite(c))
        return false;
    double e1[3], e2[3];
    for (int i = 0; i < 3; i++) {
        e1[i] = (double)b[i] - a[i];
        e2[i] = (double)c[i] - a[i];
    }
    double n[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2],
                   e1[0] * e2[1] - e1[1] * e2[0]};
    const double p[3] = {a[0], a[1], a[2]};
    return unit3(n) && store_plane(n, p, out);   /* collinear: n == 0 */
}

bool rp_plane_signed_distance(const rp_plane *plane, const vec3 p, float *out)
{
    if (!plane_is_valid(plane) || p == NULL || !rp_vec3_finite(p))
        return false;
    /* float squares fit double's range: no scaling needed for the length */
    const double n[3] = {plane->normal[0], plane->normal[1], plane->normal[2]};
    const double q[3] = {p[0], p[1], p[2]};
    float dist;
    if (!rp_to_float((dot3(n, q) + plane->d) / sqrt(dot3(n, n)), &dist))
        return false;
    if (out)
        *out = dist;
    return true;
}

bool rp_intersect_ray_plane(const rp_ray *ray, const rp_plane *plane, rp_hit *out)
{
    if (!rp_ray_valid(ray) || !plane_is_valid(plane))
        return false;
    const double n[3] = {plane->normal[0], plane->normal[1], plane->normal[2]};
    const double o[3] = {ray->origin[0], ray->origin[1], ray->origin[2]};
    const double d[3] = {ray->dir[0], ray->dir[1], ray->dir[2]};
    const double along = dot3(n, d);
    if (along == 0.0)
        return false;            /* parallel, or in the plane: no single point */
    const double height = dot3(n, o) + plane->d;   /* signed, times |n| */
    const double t = height == 0.0 ? 0.0 : -height / along;
    if (!(t >= 0.0))
        return false;            /* behind the origin */

    rp_hit h;
    if (!rp_to_float(t, &h.t))
        return false;
    for (int i = 0; i < 3; i++)
        if (!rp_to_float(o[i] + t * d[i], &h.point[i]))
            return false;
    /* facing the side the ray came from: against dir */
    double facing[3] = {n[0], n[1], n[2]};
    unit3(facing);
    const double sign = along > 0.0 ? -1.0 : 1.0;
    for (int i = 0; i < 3; i++)
        h.normal[i] = (float)(sign * facing[i]);
    h.t_enter = h.t_exit = h.t;
    h.inside = along > 0.0;
    if (out)
        *out = h;
    return true;
}

bool rp_pick_point_on_plane(float x, float y, const rp_viewport *vp, mat4 proj, mat4 view,
                            rp_convention conv, const rp_plane *plane, vec3 out)
{
    rp_ray ray;
    rp_hit hit;
    if (!rp_pick_ray_unproject(x, y, vp, proj, view, conv, &ray) ||
        !rp_intersect_ray_plane(&ray, plane, &hit))
        return false;
    if (out)
        glm_vec3_copy(hit.point, out);
    return true;
}

bool rp_drag_begin(const vec3 grab_point, const vec3 plane_normal, const vec3 object_position,
                   rp_drag *out)
{
    if (object_position == NULL || !rp_vec3_finite(object_position))
        return false;
    rp_drag drag;
    if (!rp_plane_from_point_normal(grab_point, plane_normal, &drag.plane))
        return false;
    for (int i = 0; i < 3; i++)
        if (!rp_to_float((double)object_position[i] - grab_point[i], &drag.offset[i]))
            return false;
    if (out)
        *out = drag;
    return true;
}

bool rp_drag_update(const rp_drag *drag, float x, float y, const rp_viewport *vp, mat4 proj,
                    mat4 view, rp_convention conv, vec3 out_position)
{
    if (drag == NULL || !rp_vec3_finite(drag->offset))
        return false;
    vec3 under_cursor;
    if (!rp_pick_point_on_plane(x, y, vp, proj, view, conv, &drag->plane, under_cursor))
        return false;
    vec3 position;
    for (int i = 0; i < 3; i++)
        if (!rp_to_float((double)under_cursor[i] + drag->offset[i], &position[i]))
            return false;
    if (out_position)
        glm_vec3_copy(position, out_position);
    return true;
}

/* triangle.c: watertight ray vs triangle (D3DXIntersectTri done exactly).
   The test itself is in triangle_internal.h, shared with the mesh BVH. */
#include "raypick/mesh.h"
#include "internal.h"
#include "triangle_internal.h"

bool rp_tri_slow(const rp_tri_ray *r, const float *p0, const float *p1, const float *p2,
                 rp_tri_result *res)
{
    double s[3][3];   /* sheared x, y and scaled z of the three vertices */
    const float *p[3] = {p0, p1, p2};
    bool float_ok = true;
    for (int i = 0; i < 3; i++) {
        /* the same float operations as the fast path: same values */
        float c = p[i][r->kz] - r->oz;
        float x = (p[i][r->kx] - r->ox) - r->sx * c, y = (p[i][r->ky] - r->oy) - r->sy * c;
        float z = r->sz * c;
        if (!isfinite(x) || !isfinite(y) || !isfinite(z))
            float_ok = false;
        s[i][0] = x;
        s[i][1] = y;
        s[i][2] = z;
    }
    if (!float_ok) {
        /* coordinates near FLT_MAX: shear in double (beyond float's reach,
           so no float neighbour to stay consistent with) */
        for (int i = 0; i < 3; i++) {
            double c = (double)p[i][r->kz] - r->oz;
            s[i][0] = ((double)p[i][r->kx] - r->ox) - (double)r->sx * c;
            s[i][1] = ((double)p[i][r->ky] - r->oy) - (double)r->sy * c;
            s[i][2] = (double)r->sz * c;
        }
    }
    double U = s[2][0] * s[1][1] - s[2][1] * s[1][0];
    double V = s[0][0] * s[2][1] - s[0][1] * s[2][0];
    double W = s[1][0] * s[0][1] - s[1][1] * s[0][0];
    if ((U < 0.0 || V < 0.0 || W < 0.0) && (U > 0.0 || V > 0.0 || W > 0.0))
        return false;
    double det = U + V + W;
    if (det == 0.0 || !isfinite(det))
        return false;   /* the ray runs in the triangle's plane */
    double T = U * s[0][2] + V * s[1][2] + W * s[2][2];
    double t = T / det;
    float tf;
    if (fabs(T) <= rp_tri_t_slack(r, p0, p1, p2, (const double (*)[3])s, U, V, W)) {
        if (!rp_tri_near_zero(r, p0, p1, p2, &tf))
            return false;
    } else if (t < 0.0) {
        return false;
    } else {
        t *= r->t_scale;
        if (!(t <= FLT_MAX))
            return false;
        tf = (float)t;
    }
    res->t = tf;
    res->u = (float)(V / det);
    res->v = (float)(W / det);
    res->back = det < 0.0;
    return true;
}

/* Squared distance from w (a point relative to v0) to the segment from a
   to b (also relative to v0). */
static double segment_dist2(const double w[3], const double a[3], const double b[3])
{
    double ab[3], aw[3], ab2 = 0.0, dot = 0.0;
    for (int i = 0; i < 3; i++) {
        ab[i] = b[i] - a[i];
        aw[i] = w[i] - a[i];
        ab2 += ab[i] * ab[i];
        dot += ab[i] * aw[i];
    }
    double s = ab2 > 0.0 ? fmin(fmax(dot / ab2, 0.0), 1.0) : 0.0;
    double d2 = 0.0;
    for (int i = 0; i < 3; i++) {
        double c = aw[i] - s * ab[i];
        d2 += c * c;
    }
    return d2;
}

/* Squared distance from w to the triangle (0, e1, e2), n = e1 x e2 != 0,
   dist = n.w: the distance to the plane when w's foot lies inside every
   edge (n x edge points inwards), else the distance to the nearest edge. */
static double triangle_dist2(const double w[3], const double e1[3], const double e2[3],
                             const double n[3], double dist)
{
    static const double zero[3] = {0.0, 0.0, 0.0};
    const double *corner[4] = {zero, e1, e2, zero};
    bool inside = true;
    for (int k = 0; k < 3 && inside; k++) {
        const double *a = corner[k], *b = corner[k + 1];
        double edge[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
        double in[3] = {n[1] * edge[2] - n[2] * edge[1], n[2] * edge[0] - n[0] * edge[2],
                        n[0] * edge[1] - n[1] * edge[0]};
        inside = in[0] * (w[0] - a[0]) + in[1] * (w[1] - a[1]) + in[2] * (w[2] - a[2]) >= 0.0;
    }
    if (inside)
        return dist * dist / (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    return fmin(segment_dist2(w, zero, e1), fmin(segment_dist2(w, e1, e2), segment_dist2(w, e2, zero)));
}

bool rp_tri_near_zero(const rp_tri_ray *r, const float *p0, const float *p1, const float *p2,
                      float *t)
{
    double e1[3], e2[3], w[3], n[3];
    double scale = 0.0;
    for (int i = 0; i < 3; i++) {
        e1[i] = (double)p1[i] - p0[i];
        e2[i] = (double)p2[i] - p0[i];
        w[i] = (double)r->org[i] - p0[i];
        scale = fmax(scale, fmax(fabs((double)r->org[i]),
                                 fmax(fabs((double)p0[i]), fmax(fabs((double)p1[i]),
                                                                fabs((double)p2[i])))));
    }
    n[0] = e1[1] * e2[2] - e1[2] * e2[1];
    n[1] = e1[2] * e2[0] - e1[0] * e2[2];
    n[2] = e1[0] * e2[1] - e1[1] * e2[0];
    double dist = n[0] * w[0] + n[1] * w[1] + n[2] * w[2];          /* |n| * distance */
    double denom = n[0] * r->dir[0] + n[1] * r->dir[1] + n[2] * r->dir[2];
    /* The origin within a float rounding of the triangle itself (not just
       of its plane) starts on it: t = 0. The edge tests passed say where
       the ray's line crosses the plane, which for a ray running nearly
       along the plane can be far from an origin that is near the plane
       but off the triangle; such an origin is decided by the plane's t
       below. (Within this distance the BVH's widened boxes, padded by 16
       eps of the coordinates, always hold the origin.) */
    double tol = 2.0 * FLT_EPSILON * scale;
    if (triangle_dist2(w, e1, e2, n, dist) <= tol * tol) {
        *t = 0.0f;
        return true;
    }
    if (denom == 0.0)
        return false;
    double td = -dist / denom;
    if (!(td >= 0.0) || !(td <= FLT_MAX))
        return false;
    *t = (float)td;
    return true;
}

bool rp_tri_make_hit(const rp_ray *ray, const float *p0, const float *p1, const float *p2,
                     const rp_tri_result *res, rp_hit *out)
{
    vec3 point;
    rp_ray_at(ray, res->t, point);
    if (!rp_vec3_finite(point))
        return false;
    /* the geometric normal in double: no overflow for huge triangles, no
       underflow for tiny ones */
    double e1[3], e2[3], n[3];
    for (int i = 0; i < 3; i++) {
        e1[i] = (double)p1[i] - (double)p0[i];
        e2[i] = (double)p2[i] - (double)p0[i];
    }
    n[0] = e1[1] * e2[2] - e1[2] * e2[1];
    n[1] = e1[2] * e2[0] - e1[0] * e2[2];
    n[2] = e1[0] * e2[1] - e1[1] * e2[0];
    double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    if (!(len > 0.0) || !isfinite(len))
        return false;
    /* facing the side the ray came from: the front normal for a front hit */
    double s = (res->back ? -1.0 : 1.0) / len;
    if (out) {
        out->t = out->t_enter = out->t_exit = res->t;
        glm_vec3_copy(point, out->point);
        out->normal[0] = (float)(n[0] * s);
        out->normal[1] = (float)(n[1] * s);
        out->normal[2] = (float)(n[2] * s);
        out->inside = res->back;
    }
    return true;
}

bool rp_intersect_ray_triangle(const rp_ray *ray, const vec3 v0, const vec3 v1,
                               const vec3 v2, rp_hit *out, rp_triangle_hit *tri)
{
    if (!rp_ray_valid(ray) || v0 == NULL || v1 == NULL || v2 == NULL ||
        !rp_vec3_finite(v0) || !rp_vec3_finite(v1) || !rp_vec3_finite(v2))
        return false;
    if (rp_tri_is_degenerate(v0, v1, v2))
        return false;
    rp_tri_ray r;
    rp_tri_ray_setup(ray, &r);
    rp_tri_result res;
    if (!rp_tri_intersect(&r, v0, v1, v2, &res))
        return false;
    rp_hit hit;
    if (!rp_tri_make_hit(ray, v0, v1, v2, &res, &hit))
        return false;
    if (out)
        *out = hit;
    if (tri) {
        tri->triangle = 0;
        tri->u = res.u;
        tri->v = res.v;
    }
    return true;
}

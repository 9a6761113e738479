/* fuzz_thin.c: thin objects (closest approach of a ray to a point, a
   segment, a polyline; tolerances in world units and in pixels) and
   planes (ray vs plane, the point under the cursor, the drag), fed any
   bit pattern for every float.

   Input: byte 0 picks how floats are read (raw, tame, tame with an odd raw
   one), byte 1 flags (bit 0: no tolerance, bit 1: a zero per_t, bit 2: a
   real camera for the pixel tolerance and the drag, bit 3: the
   convention), byte 2 the polyline's point count (0..6), byte 3 its
   stride choice; then the ray, the point, the segment, the tolerance, the
   polyline, the plane, the drag, the cursor and the camera.

   Checks: outputs untouched on false; a reported approach is finite, t >=
   0, s in [0, 1], within the tolerance at its t, and (on moderate inputs)
   its points are the ray's at t and the segment's at s, at the reported
   distance, and no nearer pair is found by sampling; the tolerance changes
   whether, never where; a one-segment polyline is that segment; a plane
   hit lies on the plane; a drag keeps the grabbed point on its plane. */
#define CGLM_CLIPSPACE_INCLUDE_ALL
#include <float.h>
#include "fuzz_common.h"

#define MAX_POLY 6

static bool moderate3(const float *v)
{
    return fuzz_vec3_moderate(v, 1e6f);
}

static double dist_ray_seg(const rp_ray *r, const float *a, const float *b, double t, double s)
{
    double e = 0.0;
    for (int k = 0; k < 3; k++) {
        const double v = a[k] + s * ((double)b[k] - a[k]) - (r->origin[k] + t * r->dir[k]);
        e += v * v;
    }
    return sqrt(e);
}

/* The checks every reported approach to segment a b must pass. */
static void check_approach(const rp_ray *r, const float *a, const float *b,
                           const rp_thin_tolerance *tol, const rp_thin_hit *h, const char *what)
{
    if (!isfinite(h->t) || !isfinite(h->distance) || !isfinite(h->s) ||
        !fuzz_vec3_finite(h->point) || !fuzz_vec3_finite(h->ray_point))
        fuzz_fail("%s: a non-finite result", what);
    if (!(h->t >= 0.0f && h->s >= 0.0f && h->s <= 1.0f && h->distance >= 0.0f))
        fuzz_fail("%s: t %g, s %g or distance %g out of range", what, (double)h->t, (double)h->s,
                  (double)h->distance);
    /* the library decides with t in double: up to one float step above h->t */
    if (tol && !(h->distance <= (tol->world + (double)tol->per_t * nextafterf(h->t, INFINITY)) *
                                    (1.0 + 1e-6) + 1e-30))
        fuzz_fail("%s: distance %g outside the tolerance at t %g", what, (double)h->distance,
                  (double)h->t);
    if (!moderate3(r->origin) || !moderate3(r->dir) || !moderate3(a) || !moderate3(b) ||
        glm_vec3_norm2((float *)r->dir) < 1e-6f || h->t > 1e6f)
        return;
    double scale = 1.0;
    for (int k = 0; k < 3; k++)
        scale = fmax(scale, fmax(fabs(r->origin[k]) + fabs(h->t * r->dir[k]),
                                 fmax(fabs(a[k]), fabs(b[k]))));
    const double slack = 1e-5 * scale;
    if (fabs(dist_ray_seg(r, a, b, h->t, h->s) - h->distance) > slack)
        fuzz_fail("%s: the distance is not that of its points", what);
    /* no sampled pair is nearer */
    for (int i = 0; i <= 8; i++)
        for (int j = 0; j <= 4; j++) {
            const double t = h->t * i / 4.0, s = j / 4.0;
            if (dist_ray_seg(r, a, b, t, s) < h->distance - slack)
                fuzz_fail("%s: (t %g, s %g) is nearer than the reported (t %g, s %g)", what, t, s,
                          (double)h->t, (double)h->s);
        }
}

static void fuzz_thin(fuzz_input *in, int mode, int count, size_t stride_floats,
                      const rp_ray *ray, rp_thin_tolerance *tol)
{
    vec3 p, a, b;
    fuzz_vec3(in, mode, p);
    fuzz_vec3(in, mode, a);
    fuzz_vec3(in, mode, b);
    rp_thin_hit h, free_h;
    fuzz_poison(&h, sizeof h);

    bool got = rp_intersect_ray_point(ray, p, tol, &h);
    fuzz_check(rp_intersect_ray_point(ray, p, tol, NULL) == got, "point: NULL out changes it");
    if (!got) {
        fuzz_check(fuzz_untouched(&h, sizeof h), "point: a miss wrote to *out");
    } else {
        check_approach(ray, p, p, tol, &h, "point");
        fuzz_check(rp_intersect_ray_point(ray, p, NULL, &free_h) &&
                   memcmp(&free_h, &h, sizeof h) == 0, "point: the tolerance moved the approach");
    }

    fuzz_poison(&h, sizeof h);
    got = rp_intersect_ray_segment(ray, a, b, tol, &h);
    if (!got) {
        fuzz_check(fuzz_untouched(&h, sizeof h), "segment: a miss wrote to *out");
    } else {
        check_approach(ray, a, b, tol, &h, "segment");
        fuzz_check(rp_intersect_ray_segment(ray, a, b, NULL, &free_h) &&
                   memcmp(&free_h, &h, sizeof h) == 0, "segment: the tolerance moved the approach");
        /* the segment as a polyline of two points, padded to any stride */
        float two[2 * 8];
        memcpy(two, a, sizeof(vec3));
        memcpy(two + stride_floats, b, sizeof(vec3));
        rp_thin_hit ph;
        fuzz_check(rp_intersect_ray_polyline(ray, two, 2, stride_floats * sizeof(float), tol, &ph) &&
                   memcmp(&ph, &h, sizeof h) == 0, "a one-segment polyline differs from the segment");
    }

    float pts[MAX_POLY * 8];
    for (int i = 0; i < count; i++)
        fuzz_vec3(in, mode, pts + i * stride_floats);
    fuzz_poison(&h, sizeof h);
    got = rp_intersect_ray_polyline(ray, pts, (size_t)count, stride_floats * sizeof(float), tol, &h);
    if (!got) {
        fuzz_check(fuzz_untouched(&h, sizeof h), "polyline: a miss wrote to *out");
        return;
    }
    fuzz_check(h.index < (uint32_t)(count > 1 ? count - 1 : 1), "polyline: index out of range");
    const float *pa = pts + h.index * stride_floats;
    const float *pb = count > 1 ? pa + stride_floats : pa;
    check_approach(ray, pa, pb, tol, &h, "polyline");
    fuzz_check(rp_intersect_ray_segment(ray, pa, pb, tol, &free_h) &&
               free_h.t == h.t && free_h.s == h.s, "polyline: its segment reports otherwise");
}

static void fuzz_plane(fuzz_input *in, int mode, const rp_ray *ray)
{
    rp_plane plane;
    fuzz_vec3(in, mode, plane.normal);
    plane.d = fuzz_float(in, mode);
    rp_hit h;
    fuzz_poison(&h, sizeof h);
    if (!rp_intersect_ray_plane(ray, &plane, &h)) {
        fuzz_check(fuzz_untouched(&h, sizeof h), "plane: a miss wrote to *out");
        return;
    }
    fuzz_check_hit(&h);
    fuzz_check(h.t == h.t_enter && h.t == h.t_exit, "plane: t_enter or t_exit differ from t");
    double facing = 0.0, dir_len = 0.0;
    for (int k = 0; k < 3; k++) {
        facing += (double)h.normal[k] * ray->dir[k];
        dir_len += (double)ray->dir[k] * ray->dir[k];
    }
    fuzz_check(facing <= 1e-6 * sqrt(dir_len), "plane: the normal faces along dir");
    if (moderate3(ray->origin) && moderate3(ray->dir) && moderate3(plane.normal) &&
        fabsf(plane.d) < 1e6f && h.t < 1e6f) {
        fuzz_check_point_on_ray(ray, &h);
        float d;
        fuzz_check(rp_plane_signed_distance(&plane, h.point, &d), "plane: distance refused");
        fuzz_check(fabsf(d) <= 1e-4f * (1.0f + glm_vec3_norm(h.point)), "plane: the hit is off the plane");
    }
}

/* A camera of tame numbers: a perspective one looking at the origin. */
static bool real_camera(fuzz_input *in, rp_convention conv, mat4 proj, mat4 view)
{
    vec3 eye, target = {0, 0, 0}, up = {0, 1, 0};
    fuzz_vec3(in, 1, eye);
    const float len = glm_vec3_norm(eye);
    if (len < 1e-2f || len - fabsf(eye[1]) < 1e-3f * len)
        return false;
    const float fovy = glm_rad(10.0f + (float)fuzz_u8(in) / 2.0f);
    if (conv == RP_D3D) {
        glm_perspective_lh_zo(fovy, 4.0f / 3.0f, 0.1f, 500.0f, proj);
        glm_lookat_lh(eye, target, up, view);
    } else {
        glm_perspective_rh_no(fovy, 4.0f / 3.0f, 0.1f, 500.0f, proj);
        glm_lookat_rh(eye, target, up, view);
    }
    return true;
}

static void fuzz_camera_parts(fuzz_input *in, int mode, uint8_t flags)
{
    const rp_convention conv = (flags & 8) ? RP_D3D : RP_GL;
    float x = fuzz_float(in, mode), y = fuzz_float(in, mode);
    const float pixels = fuzz_float(in, mode);
    rp_viewport vp = {fuzz_float(in, mode), fuzz_float(in, mode), fuzz_float(in, mode),
                      fuzz_float(in, mode)};
    mat4 proj, view;
    if (flags & 4) {
        vp = (rp_viewport){0, 0, 640, 480};
        x = 320.0f + (float)(int8_t)fuzz_u8(in) * 2.5f;
        y = 240.0f + (float)(int8_t)fuzz_u8(in) * 1.875f;
        if (!real_camera(in, conv, proj, view))
            return;
    } else {
        fuzz_mat4(in, mode, proj);
        fuzz_mat4(in, mode, view);
    }

    rp_ray ray;
    if (rp_pick_ray_unproject(x, y, &vp, proj, view, conv, &ray)) {
        rp_thin_tolerance tol;
        fuzz_poison(&tol, sizeof tol);
        if (rp_thin_tolerance_pixels(pixels, x, y, &vp, proj, view, conv, &ray, &tol))
            fuzz_check(isfinite(tol.world) && isfinite(tol.per_t) && tol.world >= 0.0f &&
                       tol.per_t >= 0.0f, "pixel tolerance: not a tolerance");
        else
            fuzz_check(fuzz_untouched(&tol, sizeof tol), "pixel tolerance: refused but written");
    }

    /* a drag on a plane through a grabbed point */
    vec3 grab, normal, object, pos;
    fuzz_vec3(in, mode, grab);
    fuzz_vec3(in, mode, normal);
    fuzz_vec3(in, mode, object);
    rp_drag drag;
    fuzz_poison(&drag, sizeof drag);
    if (!rp_drag_begin(grab, normal, object, &drag)) {
        fuzz_check(fuzz_untouched(&drag, sizeof drag), "drag: refused but written");
        return;
    }
    fuzz_poison(pos, sizeof pos);
    if (!rp_drag_update(&drag, x, y, &vp, proj, view, conv, pos)) {
        fuzz_check(fuzz_untouched(pos, sizeof pos), "drag: a miss wrote the position");
        return;
    }
    fuzz_check(fuzz_vec3_finite(pos), "drag: non-finite position");
    vec3 grabbed;
    glm_vec3_sub(pos, drag.offset, grabbed);
    if ((flags & 4) && moderate3(grab) && moderate3(object) && moderate3(pos)) {
        float d;
        fuzz_check(rp_plane_signed_distance(&drag.plane, grabbed, &d), "drag: distance refused");
        fuzz_check(fabsf(d) <= 1e-3f * (1.0f + glm_vec3_norm(grabbed) + glm_vec3_norm(pos)),
                   "drag: the grabbed point left its plane");
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_watchdog();
    fuzz_input in = {data, size, 0};
    const int mode = fuzz_u8(&in) % 3;
    const uint8_t flags = fuzz_u8(&in);
    const int count = fuzz_u8(&in) % (MAX_POLY + 1);
    const size_t strides[4] = {3, 4, 5, 8};   /* floats: packed, padded */
    const size_t stride_floats = strides[fuzz_u8(&in) % 4];

    rp_ray ray;
    fuzz_vec3(&in, mode, ray.origin);
    fuzz_vec3(&in, mode, ray.dir);
    rp_thin_tolerance tol = {fuzz_float(&in, mode), fuzz_float(&in, mode)};
    if (flags & 2)
        tol.per_t = 0.0f;
    fuzz_thin(&in, mode, count, stride_floats, &ray, (flags & 1) ? NULL : &tol);
    fuzz_plane(&in, mode, &ray);
    fuzz_camera_parts(&in, mode, flags);
    return 0;
}

/* fuzz_box.c: ray vs AABB and OBB, bounding box and smallest sphere of
   points (with byte strides), project / unproject, fed any bit pattern for
   every float.

   Input: byte 0 picks how floats are read (raw, tame, tame with an odd raw
   one), byte 1 holds flags (bit 0: order each box axis so min <= max,
   bit 1: all-zero OBB orientation, bit 2: a real camera instead of raw
   matrices, bit 3: depth-range convention, bits 4-5: which cglm builder),
   byte 2 the point count (0..8) and byte 3 the stride choice; then the
   ray, the boxes, the points, the camera and the click.

   Checks: outputs untouched on false; no NaN or infinity in a result; a
   box hit lies on the ray and (for an AABB) on the box; test == intersect;
   valid point arrays are accepted; the box holds every point; the sphere
   encloses every point (in double), is no larger than the box's
   circumsphere and no smaller than half the span of any two points;
   project(unproject(pixel)) lands on the pixel for real cameras. */
#define CGLM_CLIPSPACE_INCLUDE_ALL
#include <float.h>
#include "fuzz_common.h"

#define MAX_POINTS 8
#define MAX_STRIDE_FLOATS 8

static void check_aabb(const rp_ray *ray, const rp_aabb *box, bool moderate)
{
    rp_hit hit;
    fuzz_poison(&hit, sizeof hit);
    const bool got = rp_intersect_ray_aabb(ray, box, &hit);
    fuzz_check(rp_intersect_ray_aabb(ray, box, NULL) == got, "NULL out changes the answer");
    fuzz_check(rp_test_ray_aabb(ray, box) == got, "test and intersect disagree");
    if (!got) {
        fuzz_check(fuzz_untouched(&hit, sizeof hit), "miss wrote to *out");
        return;
    }
    fuzz_check_hit(&hit);
    fuzz_check(hit.t == hit.t_enter || hit.t == hit.t_exit, "t is neither end");
    for (int i = 0; i < 3; i++) {
        fuzz_check(hit.point[i] >= box->min[i] && hit.point[i] <= box->max[i],
                   "AABB hit point outside the box");
        fuzz_check(hit.normal[i] == 0.0f || fabsf(hit.normal[i]) == 1.0f,
                   "AABB normal is not a face axis");
    }
    if (moderate)
        fuzz_check_point_on_ray(ray, &hit);
}

static void check_obb(const rp_ray *ray, const rp_obb *box, bool moderate)
{
    rp_hit hit;
    fuzz_poison(&hit, sizeof hit);
    const bool got = rp_intersect_ray_obb(ray, box, &hit);
    fuzz_check(rp_intersect_ray_obb(ray, box, NULL) == got, "NULL out changes the answer");
    if (!got) {
        fuzz_check(fuzz_untouched(&hit, sizeof hit), "miss wrote to *out");
        return;
    }
    fuzz_check_hit(&hit);
    if (moderate)
        fuzz_check_point_on_ray(ray, &hit);
}

static double dist_d(const float *a, const float *b)
{
    const double x = (double)a[0] - b[0], y = (double)a[1] - b[1], z = (double)a[2] - b[2];
    return sqrt(x * x + y * y + z * z);
}

static void check_points(const float *xyz, size_t count, size_t stride, int stride_floats)
{
    const bool stride_ok = stride == 0 || (stride >= 12 && stride % 4 == 0);
    bool finite = true, moderate = true;
    for (size_t i = 0; i < count; i++) {
        const float *p = xyz + i * (size_t)stride_floats;
        finite = finite && fuzz_vec3_finite(p);
        moderate = moderate && fuzz_vec3_moderate(p, 1e30f);
    }
    const bool valid = count > 0 && stride_ok && finite;

    rp_aabb box;
    fuzz_poison(&box, sizeof box);
    const bool got_box = rp_aabb_from_points(xyz, count, stride, &box);
    fuzz_check(got_box == valid, "aabb_from_points accepts what it must refuse, or the reverse");
    fuzz_check(rp_aabb_from_points(xyz, count, stride, NULL) == got_box, "NULL out changes it");
    if (!got_box)
        fuzz_check(fuzz_untouched(&box, sizeof box), "refused box wrote to *out");

    rp_sphere s;
    fuzz_poison(&s, sizeof s);
    const bool got_sphere = rp_sphere_from_points(xyz, count, stride, &s);
    fuzz_check(rp_sphere_from_points(xyz, count, stride, NULL) == got_sphere,
               "NULL out changes the sphere answer");
    if (!got_sphere) {
        fuzz_check(fuzz_untouched(&s, sizeof s), "refused sphere wrote to *out");
        fuzz_check(!(valid && moderate), "valid moderate points refused");
        return;
    }
    fuzz_check(valid, "sphere of invalid points");
    fuzz_check(fuzz_vec3_finite(s.center) && isfinite(s.radius) && s.radius >= 0.0f,
               "sphere not finite");
    double half_diag = 0.0, max_pair = 0.0;
    for (int k = 0; k < 3; k++) {
        const double e = (double)box.max[k] - box.min[k];
        half_diag += e * e;
    }
    half_diag = 0.5 * sqrt(half_diag);
    for (size_t i = 0; i < count; i++) {
        const float *p = xyz + i * (size_t)stride_floats;
        const float c[3] = {s.center[0], s.center[1], s.center[2]};
        const double x = (double)p[0] - c[0], y = (double)p[1] - c[1], z = (double)p[2] - c[2];
        const double d2 = x * x + y * y + z * z;
        if (!(sqrt(d2) <= s.radius && d2 <= (double)s.radius * s.radius))
            fuzz_fail("point %zu is %.9g from the centre, radius %.9g", i, sqrt(d2),
                      (double)s.radius);
        for (int k = 0; k < 3; k++)
            fuzz_check(p[k] >= box.min[k] && p[k] <= box.max[k], "point outside its box");
        for (size_t j = 0; j < i; j++)
            max_pair = fmax(max_pair, dist_d(p, xyz + j * (size_t)stride_floats));
    }
    /* minimal: the box's circumsphere encloses everything, so the smallest
       sphere is no larger (plus the float rounding of the centre); two
       points need at least half their distance */
    const double centre_round = 4.0 * FLT_EPSILON *
        (fabs(s.center[0]) + fabs(s.center[1]) + fabs(s.center[2]));
    fuzz_check(s.radius <= half_diag * (1.0 + 1e-4) + centre_round + 1e-37,
               "sphere larger than the box's circumsphere");
    fuzz_check(s.radius >= 0.5 * max_pair * (1.0 - 1e-6), "sphere smaller than two points need");
}

static float tame_in(fuzz_input *in, float lo, float hi)
{
    return lo + (hi - lo) * (float)fuzz_u8(in) / 255.0f;
}

typedef void (*persp_builder)(float, float, float, float, mat4);

/* A real camera from tame numbers: false when eye and target coincide or
   the view is along up (no view matrix). */
static bool build_camera(fuzz_input *in, int builder, float aspect, mat4 proj, mat4 view)
{
    const persp_builder builders[4] = {glm_perspective_rh_no, glm_perspective_rh_zo,
                                       glm_perspective_lh_no, glm_perspective_lh_zo};
    const float near_z = tame_in(in, 0.1f, 5.0f);
    const float far_z = near_z * tame_in(in, 10.0f, 1000.0f);
    builders[builder](glm_rad(tame_in(in, 20.0f, 100.0f)), aspect, near_z, far_z, proj);
    vec3 eye, target, up = {0, 1, 0}, fwd;
    fuzz_vec3(in, 1, eye);
    fuzz_vec3(in, 1, target);
    glm_vec3_sub(target, eye, fwd);
    const float len = glm_vec3_norm(fwd);
    if (len < 1e-2f || len - fabsf(fwd[1]) < 1e-2f * len)
        return false;
    if (fuzz_u8(in) & 1)
        glm_lookat_lh(eye, target, up, view);
    else
        glm_lookat_rh(eye, target, up, view);
    return true;
}

static void check_projection(fuzz_input *in, int mode, unsigned flags)
{
    const rp_convention conv = (flags & 8) ? RP_D3D : RP_GL;
    const bool real_camera = (flags & 4) != 0;
    const int builder = (int)((flags >> 4) & 3);
    rp_viewport vp = {fuzz_float(in, mode), fuzz_float(in, mode), fuzz_float(in, mode),
                      fuzz_float(in, mode)};
    mat4 proj, view;
    bool camera_ok = false;
    if (real_camera) {
        vp.width = fabsf(vp.width) + 16.0f;
        vp.height = fabsf(vp.height) + 16.0f;
        /* a real viewport is a window's pixels: one at 3e38 has no pixel
           coordinates left for projecting back (the library then refuses,
           rightly; a fuzz_box finding with seed 4) */
        camera_ok = fuzz_vec3_moderate((float[3]){vp.x, vp.y, vp.width}, 1e6f) && vp.height <= 1e6f &&
                    build_camera(in, builder, vp.width / vp.height, proj, view);
        if (!camera_ok)
            return;
    } else {
        fuzz_mat4(in, mode, proj);
        fuzz_mat4(in, mode, view);
    }
    /* the convention that matches the builder's depth range */
    const rp_convention cam_conv = (builder & 1) ? RP_D3D : RP_GL;
    const rp_convention use = real_camera ? cam_conv : conv;

    const float fx = fuzz_float(in, mode), fy = fuzz_float(in, mode);
    float depth = fuzz_float(in, mode);
    float x = fx, y = fy;
    if (real_camera) {   /* a click on the viewport, a depth in the frustum */
        x = vp.x + vp.width * (float)(fuzz_u8(in) % 101) / 100.0f;
        y = vp.y + vp.height * (float)(fuzz_u8(in) % 101) / 100.0f;
        depth = (float)(fuzz_u8(in) % 91) / 100.0f;
    }
    vec3 world;
    fuzz_poison(world, sizeof world);
    const bool got = rp_unproject_point(x, y, depth, &vp, proj, view, use, world);
    fuzz_check(rp_unproject_point(x, y, depth, &vp, proj, view, use, NULL) == got,
               "NULL out changes unproject");
    if (!got) {
        fuzz_check(fuzz_untouched(world, sizeof world), "refused unproject wrote to out");
    } else {
        fuzz_check(fuzz_vec3_finite(world), "unproject gave a non-finite point");
    }

    vec3 p, pixel;
    fuzz_vec3(in, mode, p);
    fuzz_poison(pixel, sizeof pixel);
    const bool projected = rp_project_point(p, &vp, proj, view, use, pixel);
    fuzz_check(rp_project_point(p, &vp, proj, view, use, NULL) == projected,
               "NULL out changes project");
    if (!projected)
        fuzz_check(fuzz_untouched(pixel, sizeof pixel), "refused project wrote to out");
    else
        fuzz_check(fuzz_vec3_finite(pixel), "project gave a non-finite pixel");

    if (real_camera && got && fuzz_vec3_moderate(world, 1e5f)) {
        vec3 back;
        fuzz_check(rp_project_point(world, &vp, proj, view, use, back),
                   "an unprojected point in the frustum does not project");
        const float tol = 0.01f * fmaxf(vp.width, vp.height);
        if (!(fabsf(back[0] - x) <= tol && fabsf(back[1] - y) <= tol))
            fuzz_fail("round trip (%g, %g) -> (%g, %g)", (double)x, (double)y,
                      (double)back[0], (double)back[1]);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_watchdog();
    fuzz_input in = {data, size, 0};
    const int mode = fuzz_u8(&in) % 3;
    const unsigned flags = fuzz_u8(&in);
    const size_t count = fuzz_u8(&in) % (MAX_POINTS + 1);
    const size_t strides[6] = {0, 12, 16, 32, 8, 14};
    const int stride_floats[6] = {3, 3, 4, 8, 3, 3};
    const int sc = fuzz_u8(&in) % 6;

    rp_ray ray;
    fuzz_vec3(&in, mode, ray.origin);
    fuzz_vec3(&in, mode, ray.dir);
    rp_aabb box;
    fuzz_vec3(&in, mode, box.min);
    fuzz_vec3(&in, mode, box.max);
    if (flags & 1)
        for (int i = 0; i < 3; i++)
            if (box.min[i] > box.max[i]) {
                const float t = box.min[i];
                box.min[i] = box.max[i];
                box.max[i] = t;
            }
    rp_obb obb;
    fuzz_vec3(&in, mode, obb.center);
    fuzz_vec3(&in, mode, obb.half_extents);
    for (int i = 0; i < 4; i++)
        obb.orientation[i] = (flags & 2) ? 0.0f : fuzz_float(&in, mode);
    if (flags & 1)
        for (int i = 0; i < 3; i++)
            obb.half_extents[i] = fabsf(obb.half_extents[i]);

    const bool moderate = fuzz_vec3_moderate(ray.origin, 1e4f) &&
                          fuzz_vec3_moderate(ray.dir, 1e4f) &&
                          glm_vec3_norm(ray.dir) >= 1e-3f &&
                          fuzz_vec3_moderate(box.min, 1e4f) && fuzz_vec3_moderate(box.max, 1e4f) &&
                          fuzz_vec3_moderate(obb.center, 1e4f) &&
                          fuzz_vec3_moderate(obb.half_extents, 1e4f);
    check_aabb(&ray, &box, moderate);
    check_obb(&ray, &obb, moderate);
    fuzz_check(!rp_intersect_ray_aabb(NULL, &box, NULL) && !rp_intersect_ray_aabb(&ray, NULL, NULL),
               "NULL accepted");
    fuzz_check(!rp_intersect_ray_obb(NULL, &obb, NULL) && !rp_intersect_ray_obb(&ray, NULL, NULL),
               "NULL accepted");

    float pts[MAX_POINTS * MAX_STRIDE_FLOATS];
    for (size_t i = 0; i < MAX_POINTS * MAX_STRIDE_FLOATS; i++)
        pts[i] = fuzz_float(&in, mode);
    check_points(pts, count, strides[sc], stride_floats[sc]);
    fuzz_check(!rp_sphere_from_points(NULL, count, 0, NULL), "NULL points accepted");

    check_projection(&in, mode, flags);
    return 0;
}

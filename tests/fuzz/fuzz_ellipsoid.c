/* fuzz_ellipsoid.c: ray vs ellipsoid (axis-aligned and rotated), fed any
   bit pattern for every float.

   Input: byte 0 picks how floats are read, byte 1 how the orientation is
   made (zero = axis-aligned, a unit quaternion from an axis and angle, or
   four raw floats), then the ray (6 floats), centre (3), radii (3) and the
   orientation's floats. */
#include "fuzz_common.h"

#include <float.h>

/* Where on the ellipsoid's implicit surface a point lies: 1 on the surface. */
static float implicit_value(const rp_ellipsoid *e, bool rotated, const vec3 p)
{
    vec3 d;
    glm_vec3_sub((float *)p, (float *)e->center, d);
    if (rotated) {
        versor inv;
        glm_quat_inv((float *)e->orientation, inv);
        glm_quat_rotatev(inv, d, d);
    }
    float s = 0.0f;
    for (int i = 0; i < 3; i++)
        s += (d[i] / e->radii[i]) * (d[i] / e->radii[i]);
    return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_watchdog();
    fuzz_input in = {data, size, 0};
    int mode = fuzz_u8(&in) % 3;
    int orient = fuzz_u8(&in) % 3;

    rp_ray ray;
    rp_ellipsoid e;
    fuzz_vec3(&in, mode, ray.origin);
    fuzz_vec3(&in, mode, ray.dir);
    fuzz_vec3(&in, mode, e.center);
    fuzz_vec3(&in, mode, e.radii);
    bool rotated = false;
    if (orient == 0) {
        glm_vec4_zero(e.orientation);
    } else if (orient == 1) {
        vec3 axis;
        fuzz_vec3(&in, 1, axis);
        float angle = fuzz_float(&in, mode);
        if (glm_vec3_norm(axis) > 1e-3f && isfinite(angle) && fabsf(angle) < 100.0f) {
            glm_quatv(e.orientation, angle, axis);
            rotated = true;
        } else {
            glm_quat_identity(e.orientation);
        }
    } else {
        for (int i = 0; i < 4; i++)
            e.orientation[i] = fuzz_raw_float(&in);
    }

    rp_hit hit;
    fuzz_poison(&hit, sizeof hit);
    bool got = rp_intersect_ray_ellipsoid(&ray, &e, &hit);
    fuzz_check(rp_intersect_ray_ellipsoid(&ray, &e, NULL) == got, "NULL out changes the answer");
    fuzz_check(!rp_intersect_ray_ellipsoid(NULL, &e, NULL), "NULL ray accepted");
    fuzz_check(!rp_intersect_ray_ellipsoid(&ray, NULL, NULL), "NULL ellipsoid accepted");
    if (!got) {
        fuzz_check(fuzz_untouched(&hit, sizeof hit), "miss wrote to *out");
        return 0;
    }
    fuzz_check_hit(&hit);
    for (int i = 0; i < 3; i++)
        fuzz_check(e.radii[i] > 0.0f && isfinite(e.radii[i]), "hit on an invalid ellipsoid");

    /* Correctness on inputs where single precision can deliver it: the point
       is on the ray and on the surface. A radius of at least FLT_MIN keeps
       the point's coordinates normal floats, 24 bits against the radius:
       below it they are subnormal, spaced 2^-149 apart, and a radius of 63
       such steps cannot hold the surface to 1%. */
    float min_r = fminf(e.radii[0], fminf(e.radii[1], e.radii[2]));
    float reach = fmaxf(glm_vec3_max(ray.origin), -glm_vec3_min(ray.origin));
    reach = fmaxf(reach, fmaxf(glm_vec3_max(e.center), -glm_vec3_min(e.center)));
    reach = fmaxf(reach, hit.t * glm_vec3_norm(ray.dir));
    reach = fmaxf(reach, glm_vec3_max(e.radii));
    if (orient != 2 && reach <= 1e4f && reach / min_r <= 64.0f && min_r >= FLT_MIN) {
        fuzz_check_point_on_ray(&ray, &hit);
        float f = implicit_value(&e, rotated, hit.point);
        if (fabsf(f - 1.0f) > 1e-2f)
            fuzz_fail("hit point off the surface: implicit value %g", (double)f);
    }
    return 0;
}

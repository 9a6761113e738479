/* fuzz_sphere.c: ray vs sphere, ray vs an array of spheres, point in
   sphere, sphere vs sphere, fed any bit pattern for every float.

   Input: byte 0 picks how floats are read (raw bits, tame numbers, tame
   with an odd raw one), byte 1 the number of spheres (0..8), then the
   ray (6 floats), the spheres (4 floats each) and a point (3 floats). */
#include "fuzz_common.h"

#define MAX_SPHERES 8

static void check_single(const rp_ray *ray, const rp_sphere *s, bool moderate)
{
    rp_hit hit;
    fuzz_poison(&hit, sizeof hit);
    bool got = rp_intersect_ray_sphere(ray, s, &hit);
    if (!got) {
        fuzz_check(fuzz_untouched(&hit, sizeof hit), "miss wrote to *out");
    } else {
        fuzz_check_hit(&hit);
        if (moderate) {
            fuzz_check_point_on_ray(ray, &hit);
            fuzz_check(hit.t == hit.t_enter || hit.t == hit.t_exit,
                       "t is neither the entry nor the exit root");
            /* On the surface, where single precision can tell. */
            float reach = fmaxf(glm_vec3_norm((float *)ray->origin),
                                glm_vec3_norm((float *)s->center));
            reach = fmaxf(reach, hit.t * glm_vec3_norm((float *)ray->dir));
            if (reach / s->radius <= 64.0f) {
                float d = glm_vec3_distance(hit.point, (float *)s->center);
                if (fabsf(d - s->radius) > 1e-3f * s->radius)
                    fuzz_fail("hit point %g from the centre, radius %g",
                              (double)d, (double)s->radius);
            }
        }
    }
    /* The same answer with no output, and from the yes/no test. */
    fuzz_check(rp_intersect_ray_sphere(ray, s, NULL) == got, "NULL out changes the answer");
    fuzz_check(rp_test_ray_sphere(ray, s) == got, "test and intersect disagree");
}

static void check_array(const rp_ray *ray, const rp_sphere *spheres, size_t n)
{
    rp_hit hit;
    fuzz_poison(&hit, sizeof hit);
    int idx = rp_intersect_ray_spheres(ray, spheres, n, &hit);
    fuzz_check(idx >= -1 && idx < (int)n, "index out of range");
    if (idx < 0) {
        fuzz_check(fuzz_untouched(&hit, sizeof hit), "miss wrote to *out");
        for (size_t i = 0; i < n; i++)
            fuzz_check(!rp_intersect_ray_sphere(ray, &spheres[i], NULL),
                       "array says no hit but one sphere is hit");
        return;
    }
    fuzz_check_hit(&hit);
    rp_hit single;
    fuzz_check(rp_intersect_ray_sphere(ray, &spheres[idx], &single),
               "array picked a sphere the ray misses");
    for (size_t i = 0; i < n; i++) {
        rp_hit other;
        if (rp_intersect_ray_sphere(ray, &spheres[i], &other))
            fuzz_check(hit.t <= other.t, "array did not pick the nearest sphere");
    }
    fuzz_check(rp_intersect_ray_spheres(ray, spheres, n, NULL) == idx,
               "NULL out changes the answer");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_watchdog();
    fuzz_input in = {data, size, 0};
    int mode = fuzz_u8(&in) % 3;
    size_t n = fuzz_u8(&in) % (MAX_SPHERES + 1);

    rp_ray ray;
    fuzz_vec3(&in, mode, ray.origin);
    fuzz_vec3(&in, mode, ray.dir);
    rp_sphere spheres[MAX_SPHERES];
    for (size_t i = 0; i < MAX_SPHERES; i++) {
        fuzz_vec3(&in, mode, spheres[i].center);
        spheres[i].radius = fuzz_float(&in, mode);
    }
    vec3 p;
    fuzz_vec3(&in, mode, p);

    bool moderate = fuzz_vec3_moderate(ray.origin, 1e4f) && fuzz_vec3_moderate(ray.dir, 1e4f) &&
                    fuzz_vec3_moderate(spheres[0].center, 1e4f) &&
                    fabsf(spheres[0].radius) <= 1e4f && fabsf(spheres[0].radius) >= 1e-3f;
    check_single(&ray, &spheres[0], moderate);
    check_array(&ray, spheres, n);
    /* An empty or NULL array is a miss, never a crash. */
    fuzz_check(rp_intersect_ray_spheres(&ray, NULL, n, NULL) == -1, "NULL array not a miss");
    fuzz_check(rp_intersect_ray_spheres(&ray, spheres, 0, NULL) == -1, "empty array not a miss");
    fuzz_check(!rp_intersect_ray_sphere(NULL, &spheres[0], NULL), "NULL ray accepted");
    fuzz_check(!rp_intersect_ray_sphere(&ray, NULL, NULL), "NULL sphere accepted");

    bool inside = rp_sphere_contains_point(&spheres[0], p);
    bool touch = rp_test_sphere_sphere(&spheres[0], &spheres[1]);
    bool approx = rp_test_sphere_sphere_approx(&spheres[0], &spheres[1]);
    /* Symmetry: a overlaps b exactly when b overlaps a. */
    fuzz_check(rp_test_sphere_sphere(&spheres[1], &spheres[0]) == touch, "overlap not symmetric");
    fuzz_check(rp_test_sphere_sphere_approx(&spheres[1], &spheres[0]) == approx,
               "approx overlap not symmetric");
    /* Invalid spheres (radius <= 0, NaN) are in nothing and touch nothing. */
    if (!(spheres[0].radius > 0.0f) || !isfinite(spheres[0].radius)) {
        fuzz_check(!inside, "invalid sphere contains a point");
        fuzz_check(!touch && !approx, "invalid sphere overlaps");
    }
    return 0;
}

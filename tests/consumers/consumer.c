/* consumer.c: a program that uses an installed raypick the way a user's
 * would, built by each project under tests/consumers/ (scripts/consumers
 * copies it beside each one). It picks the middle of three spheres with a
 * ray under the centre of an 800 x 600 view, and uses cglm's inline maths
 * (glm_perspective calls tanf at run time: libm must be linked) and the
 * version macros.
 * Exit status 0 when the pick and the version are right. */
#include <stdio.h>
#include <string.h>
#include <raypick/raypick.h>

#if !RAYPICK_VERSION_AT_LEAST(0, 1, 0)
#error "raypick 0.1 or newer expected"
#endif

int main(void)
{
    char version[32];
    snprintf(version, sizeof version, "%d.%d.%d", RAYPICK_VERSION_MAJOR, RAYPICK_VERSION_MINOR,
             RAYPICK_VERSION_PATCH);
    if (strcmp(version, RAYPICK_VERSION_STRING) != 0) {
        fprintf(stderr, "version macros disagree: %s vs %s\n", version, RAYPICK_VERSION_STRING);
        return 1;
    }
    /* volatile: the compiler must call tanf at run time, not fold it */
    volatile float fov_degrees = 60.0f;
    mat4 proj, view;
    glm_perspective(glm_rad(fov_degrees), 800.0f / 600.0f, 0.1f, 100.0f, proj);
    glm_lookat((vec3){0, 0, 10}, (vec3){0, 0, 0}, (vec3){0, 1, 0}, view);
    const rp_sphere spheres[3] = {{{-3, 0, 0}, 1}, {{0, 0, 0}, 1}, {{3, 0, 0}, 1}};
    rp_viewport vp = {0, 0, 800, 600};
    rp_ray ray;
    rp_hit hit;
    if (!rp_pick_ray_unproject(400.5f, 300.5f, &vp, proj, view, RP_GL, &ray))
        return 1;
    int picked = rp_intersect_ray_spheres(&ray, spheres, 3, &hit);
    printf("raypick %s: picked sphere %d at (%.3f, %.3f, %.3f)\n", RAYPICK_VERSION_STRING, picked,
           (double)hit.point[0], (double)hit.point[1], (double)hit.point[2]);
    return picked == 1 && hit.point[2] > 0.99f && hit.point[2] < 1.01f ? 0 : 1;
}

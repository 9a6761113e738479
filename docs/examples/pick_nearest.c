/* pick_nearest.c: a mouse click -> a pick ray -> the nearest sphere under it. */
#include <stdio.h>
#include <raypick/raypick.h>

/* Index of the nearest sphere under the mouse, or -1 for none.
   (mouse_x, mouse_y) are drawable pixels, top-left origin, y down: SDL's
   event.button.x/y scaled by drawable size / window size. */
int pick_nearest(float mouse_x, float mouse_y, int width, int height,
                 mat4 proj, mat4 view,
                 const rp_sphere *spheres, size_t count, rp_hit *hit)
{
    rp_viewport vp = {0.0f, 0.0f, (float)width, (float)height};
    rp_ray ray;

    if (!rp_pick_ray_unproject(mouse_x, mouse_y, &vp, proj, view, RP_GL, &ray))
        return -1;   /* empty viewport, singular matrix, NaN mouse */
    return rp_intersect_ray_spheres(&ray, spheres, count, hit);
}

int main(void)
{
    mat4 proj, view;
    glm_perspective(glm_rad(60.0f), 800.0f / 600.0f, 0.1f, 100.0f, proj);
    glm_lookat((vec3){0, 0, 5}, (vec3){0, 0, 0}, (vec3){0, 1, 0}, view);

    const rp_sphere spheres[] = {
        {{0, 0, -3}, 1.0f},   /* straight ahead, but behind sphere 1 */
        {{0, 0,  0}, 1.0f},   /* straight ahead, nearest             */
        {{3, 0,  0}, 1.0f},   /* off to the right                    */
    };
    rp_hit hit;
    int i = pick_nearest(400, 300, 800, 600, proj, view, spheres, 3, &hit);
    if (i < 0) {
        puts("nothing under the mouse");
        return 1;
    }
    printf("sphere %d, hit at (%.2f, %.2f, %.2f)\n",
           i, hit.point[0], hit.point[1], hit.point[2]);
    return 0;
}

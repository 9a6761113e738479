// consumer.cpp: raypick from C++. The headers are C with extern "C"; C++
// has no compound literals, so vectors are named arrays.
#include <cstdio>
#include <string>
#include <vector>
#include <raypick/raypick.h>

int main()
{
    volatile float fov_degrees = 60.0f;   // tanf called at run time: libm linked
    mat4 proj, view;
    vec3 eye = {0, 0, 10}, target = {0, 0, 0}, up = {0, 1, 0};
    glm_perspective(glm_rad(fov_degrees), 800.0f / 600.0f, 0.1f, 100.0f, proj);
    glm_lookat(eye, target, up, view);

    std::vector<rp_sphere> spheres;
    for (int i = -1; i <= 1; ++i) {
        rp_sphere s = {{3.0f * i, 0.0f, 0.0f}, 1.0f};
        spheres.push_back(s);
    }
    const rp_viewport vp = {0, 0, 800, 600};
    rp_ray ray;
    rp_hit hit;
    if (!rp_pick_ray_unproject(400.5f, 300.5f, &vp, proj, view, RP_GL, &ray))
        return 1;
    const int picked = rp_intersect_ray_spheres(&ray, spheres.data(), spheres.size(), &hit);

    // DirectXMath's box layout, from C++
    vec3 center = {1, 2, 3}, extents = {0.5f, 0.5f, 2};
    rp_aabb box;
    if (!rp_aabb_from_center_extents(center, extents, &box) || box.max[2] != 5.0f)
        return 1;

    const std::string version = RAYPICK_VERSION_STRING;
    std::printf("raypick %s from C++: picked sphere %d\n", version.c_str(), picked);
    return picked == 1 ? 0 : 1;
}

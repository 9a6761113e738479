/* pick_mesh.c: the DirectX SDK's Pick sample in a few lines: a click -> a
   pick ray -> the triangle under it, on a mesh placed by a world matrix. */
#include <stdio.h>
#include <raypick/raypick.h>

typedef struct vertex { float x, y, z, nx, ny, nz, u, v; } vertex;   /* like D3DVERTEX */

int main(void)
{
    /* a unit quad in the xy plane, two triangles, counter-clockwise seen from +z */
    const vertex verts[4] = {
        {-1, -1, 0, 0, 0, 1, 0, 1}, {1, -1, 0, 0, 0, 1, 1, 1},
        { 1,  1, 0, 0, 0, 1, 1, 0}, {-1, 1, 0, 0, 0, 1, 0, 0},
    };
    const uint32_t indices[6] = {0, 1, 2, 0, 2, 3};
    rp_mesh *mesh = rp_mesh_create(&verts[0].x, 4, sizeof verts[0], indices, 2);
    if (!mesh)
        return 1;

    mat4 world, proj, view;   /* the quad turned 30 degrees about y */
    glm_rotate_make(world, glm_rad(30.0f), (vec3){0, 1, 0});
    glm_perspective(glm_rad(60.0f), 800.0f / 600.0f, 0.1f, 100.0f, proj);
    glm_lookat((vec3){0, 0, 5}, (vec3){0, 0, 0}, (vec3){0, 1, 0}, view);

    rp_viewport vp = {0, 0, 800, 600};
    rp_ray ray;
    rp_hit hit;
    rp_triangle_hit tri;
    int status = 1;
    if (rp_pick_ray_unproject(420, 280, &vp, proj, view, RP_GL, &ray) &&
        rp_intersect_ray_mesh_instance(mesh, world, &ray, &hit, &tri)) {
        /* texture coordinates at the hit, as the Pick sample computes them */
        const vertex *a = &verts[indices[3 * tri.triangle]];
        const vertex *b = &verts[indices[3 * tri.triangle + 1]];
        const vertex *c = &verts[indices[3 * tri.triangle + 2]];
        float tu = a->u + tri.u * (b->u - a->u) + tri.v * (c->u - a->u);
        float tv = a->v + tri.u * (b->v - a->v) + tri.v * (c->v - a->v);
        printf("face %u, barycentrics (%.3f, %.3f), t %.4f, texture (%.3f, %.3f)\n",
               tri.triangle, tri.u, tri.v, hit.t, tu, tv);
        status = 0;
    } else {
        puts("nothing under the mouse");
    }
    rp_mesh_destroy(mesh);
    return status;
}

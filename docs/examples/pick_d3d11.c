/* pick_d3d11.c: a Direct3D 11 picking function ported to raypick.
 *
 * The original (the flow of the Direct3D 11 books' picking demos, written
 * with DirectXMath and its collision helpers):
 *
 *     left-handed camera: XMMatrixPerspectiveFovLH, XMMatrixLookAtLH
 *     Pick(sx, sy):   a ray from XMVector3Unproject at depth 0 and 1
 *                     (integer client coordinates from WM_LBUTTONDOWN),
 *                     into the mesh's local space with XMMatrixInverse(world)
 *                     and XMVector3TransformCoord / TransformNormal,
 *                     XMVector3Normalize
 *                     BoundingBox{Center, Extents}::Intersects(o, d, dist):
 *                     a quick reject
 *                     TriangleTests::Intersects(o, d, v0, v1, v2, dist) on
 *                     every triangle; the smallest dist wins
 *
 * The port keeps the D3D matrices (glm_perspective_lh_zo, glm_lookat_lh:
 * the same floats, so RP_D3D), the integer coordinates, the local-space
 * loop and the box reject. docs/porting-d3d11-xna.md quotes it; the meson
 * test example-pick-d3d11 runs it. */
#define CGLM_CLIPSPACE_INCLUDE_ALL   /* the left-handed, [0, 1] builders */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <raypick/raypick.h>

/* A mesh as the demo keeps it: positions, 32-bit indices, and the box
   DirectXMath made from the positions (Center, Extents). */
typedef struct d3d_mesh {
    const float (*positions)[3];
    const uint32_t *indices;
    size_t triangle_count;
    vec3 box_center, box_extents;
} d3d_mesh;

/* Pick(sx, sy): the index of the nearest triangle under the pixel, -1 for
   none; *dist is its distance in local units (the original's tmin). */
static int pick(int sx, int sy, const rp_viewport *vp, mat4 proj, mat4 view, mat4 world,
                const d3d_mesh *mesh, float *dist)
{
    /* XMVector3Unproject at depth 0 and 1: the world ray (depth [0, 1]:
       RP_D3D). The original passes integer pixels: so does the port. */
    rp_ray world_ray;
    if (!rp_pick_ray_unproject((float)sx, (float)sy, vp, proj, view, RP_D3D, &world_ray))
        return -1;
    /* XMMatrixInverse(&det, world), TransformCoord / TransformNormal:
       glm_mat4_inv and rp_ray_transform (which refuses a singular world) */
    mat4 to_local;
    glm_mat4_inv(world, to_local);
    rp_ray ray;
    if (!rp_ray_transform(&world_ray, to_local, &ray))
        return -1;
    /* XMVector3Normalize: DirectXMath's dist is a distance only along a
       unit direction; raypick's t is in units of dir */
    glm_vec3_normalize(ray.dir);

    /* BoundingBox::Intersects(o, d, dist): the box is Center / Extents */
    rp_aabb box;
    if (!rp_aabb_from_center_extents(mesh->box_center, mesh->box_extents, &box) ||
        !rp_test_ray_aabb(&ray, &box))
        return -1;

    /* TriangleTests::Intersects on every triangle, nearest first */
    int picked = -1;
    float tmin = FLT_MAX;
    for (size_t i = 0; i < mesh->triangle_count; i++) {
        const float *v0 = mesh->positions[mesh->indices[3 * i]];
        const float *v1 = mesh->positions[mesh->indices[3 * i + 1]];
        const float *v2 = mesh->positions[mesh->indices[3 * i + 2]];
        rp_hit hit;
        if (rp_intersect_ray_triangle(&ray, v0, v1, v2, &hit, NULL) && hit.t < tmin) {
            tmin = hit.t;   /* TriangleTests' dist: hit.t */
            picked = (int)i;
        }
    }
    *dist = tmin;
    return picked;
}

int main(void)
{
    /* a box 4 x 1.5 x 2 (a car's proportions), 12 triangles (both sides
       are hit, as by TriangleTests::Intersects: the winding does not matter) */
    static const float positions[8][3] = {
        {-2, -0.75f, -1}, {2, -0.75f, -1}, {2, 0.75f, -1}, {-2, 0.75f, -1},
        {-2, -0.75f, 1},  {2, -0.75f, 1},  {2, 0.75f, 1},  {-2, 0.75f, 1},
    };
    static const uint32_t indices[36] = {
        0, 3, 2, 0, 2, 1,   4, 5, 6, 4, 6, 7,   0, 4, 7, 0, 7, 3,
        1, 2, 6, 1, 6, 5,   3, 7, 6, 3, 6, 2,   0, 1, 5, 0, 5, 4,
    };
    d3d_mesh mesh = {positions, indices, 12, {0, 0, 0}, {0, 0, 0}};
    /* BoundingBox::CreateFromPoints(box, 8, positions, sizeof(XMFLOAT3)) */
    rp_aabb bounds;
    if (!rp_aabb_from_points(&positions[0][0], 8, 0, &bounds) ||
        !rp_aabb_to_center_extents(&bounds, mesh.box_center, mesh.box_extents))
        return 1;

    /* the D3D camera, left-handed: the eye in front of -z looking at +z */
    mat4 proj, view, world;
    glm_perspective_lh_zo(glm_rad(45.0f), 800.0f / 600.0f, 1.0f, 1000.0f, proj);
    glm_lookat_lh((vec3){3, 4, -8}, (vec3){0, 0, 0}, (vec3){0, 1, 0}, view);
    glm_rotate_make(world, glm_rad(20.0f), (vec3){0, 1, 0});   /* XMMatrixRotationY */
    world[3][0] = 0.5f;                                          /* then a translation */
    rp_viewport vp = {0, 0, 800, 600};

    /* The port must agree with raypick's own mesh pick (BVH, world ray) at
       every pixel of a grid, and a hit must lie under its pixel. */
    rp_mesh *m = rp_mesh_create(&positions[0][0], 8, 0, indices, 12);
    if (!m)
        return 1;
    int hits = 0, mismatches = 0;
    for (int sy = 0; sy < 600; sy += 10) {
        for (int sx = 0; sx < 800; sx += 10) {
            float dist;
            int t = pick(sx, sy, &vp, proj, view, world, &mesh, &dist);
            rp_ray ray;
            rp_hit hit;
            rp_triangle_hit tri;
            int expect = -1;
            if (rp_pick_ray_unproject((float)sx, (float)sy, &vp, proj, view, RP_D3D, &ray) &&
                rp_intersect_ray_mesh_instance(m, world, &ray, &hit, &tri)) {
                expect = (int)tri.triangle;
                vec3 pixel;   /* the hit goes back to the clicked pixel */
                if (!rp_project_point(hit.point, &vp, proj, view, RP_D3D, pixel) ||
                    fabsf(pixel[0] - (float)sx) > 0.01f || fabsf(pixel[1] - (float)sy) > 0.01f)
                    mismatches++;
            }
            hits += t >= 0;
            mismatches += t != expect;
        }
    }
    rp_mesh_destroy(m);

    /* the middle of the screen is the box's near side; a corner is empty */
    float dist;
    int centre = pick(400, 300, &vp, proj, view, world, &mesh, &dist);
    int corner = pick(5, 5, &vp, proj, view, world, &mesh, &dist);
    printf("pick_d3d11: %d of %d grid pixels hit the box, %d mismatches; centre -> triangle %d, corner -> %d\n",
           hits, 80 * 60, mismatches, centre, corner);
    return mismatches == 0 && hits > 100 && centre >= 0 && corner == -1 ? 0 : 1;
}

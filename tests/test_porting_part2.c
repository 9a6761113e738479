/* test_porting_part2.c: the claims of docs/porting-d3d9.md's part 2 (the
 * DirectX SDK's Pick sample, D3DX's mesh and bounding helpers, DirectXMath's
 * collision functions): each test ports one call the way the guide says and
 * checks that the answer is what the D3D call gives. The D3D side is
 * written out here as the sample writes it (its IntersectTriangle, its
 * world * view inverse, D3DX's centroid sphere) so both sides run. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <float.h>
#include <math.h>
#include <string.h>
#include <cmocka.h>

#include <raypick/raypick.h>

/* The Pick sample's vertex: D3DFVF_XYZ | D3DFVF_NORMAL | D3DFVF_TEX1. */
typedef struct d3dvertex {
    float p[3];
    float n[3];
    float tu, tv;
} d3dvertex;

/* Two squares facing +z, at z = -2 (faces 0, 1) and z = -5 (faces 2, 3),
   x and y in [-1, 1], texture coordinates across each. 16-bit indices, as
   the sample's WORD index buffer. */
static const d3dvertex QUADS[8] = {
    {{-1, -1, -2}, {0, 0, 1}, 0, 1}, {{1, -1, -2}, {0, 0, 1}, 1, 1},
    {{1, 1, -2}, {0, 0, 1}, 1, 0},   {{-1, 1, -2}, {0, 0, 1}, 0, 0},
    {{-1, -1, -5}, {0, 0, 1}, 0, 1}, {{1, -1, -5}, {0, 0, 1}, 1, 1},
    {{1, 1, -5}, {0, 0, 1}, 1, 0},   {{-1, 1, -5}, {0, 0, 1}, 0, 0},
};
static const uint16_t QUAD_WORDS[12] = {0, 1, 2, 0, 2, 3, 4, 5, 6, 4, 6, 7};

/* LockIndexBuffer gives WORDs; rp_mesh_create takes 32-bit indices. */
static rp_mesh *quads_mesh(void)
{
    uint32_t idx[12];
    for (int i = 0; i < 12; ++i)
        idx[i] = QUAD_WORDS[i];
    rp_mesh *m = rp_mesh_create(&QUADS[0].p[0], 8, sizeof(d3dvertex), idx, 4);
    assert_non_null(m);
    return m;
}

/* The sample's IntersectTriangle (Moller-Trumbore with its 0.0001 cull),
   written out so the guide's claim can compare with it. */
static bool sample_intersect_triangle(const vec3 orig, const vec3 dir, const vec3 v0, const vec3 v1,
                                      const vec3 v2, float *t, float *u, float *v)
{
    vec3 e1, e2, pvec, tvec, qvec;
    glm_vec3_sub((float *)v1, (float *)v0, e1);
    glm_vec3_sub((float *)v2, (float *)v0, e2);
    glm_vec3_cross((float *)dir, e2, pvec);
    float det = glm_vec3_dot(e1, pvec);
    if (det > 0) {
        glm_vec3_sub((float *)orig, (float *)v0, tvec);
    } else {
        glm_vec3_sub((float *)v0, (float *)orig, tvec);
        det = -det;
    }
    if (det < 0.0001f)
        return false;
    *u = glm_vec3_dot(tvec, pvec);
    if (*u < 0.0f || *u > det)
        return false;
    glm_vec3_cross(tvec, e1, qvec);
    *v = glm_vec3_dot((float *)dir, qvec);
    if (*v < 0.0f || *u + *v > det)
        return false;
    *t = glm_vec3_dot(e2, qvec);
    *t /= det, *u /= det, *v /= det;
    return true;
}

/* ---- D3DXIntersect, D3DXINTERSECTINFO, D3DXIntersectTri ------------------ */

static void d3dx_intersect_nearest_is_rp_intersect_ray_mesh(void **state)
{
    (void)state;
    rp_mesh *m = quads_mesh();
    /* D3DXIntersect(mesh, &orig, &dir, &hit, &face, &u, &v, &dist, NULL, NULL) */
    rp_ray ray = {{0.5f, -0.25f, 0.0f}, {0.0f, 0.0f, -2.0f}};     /* dir not unit */
    rp_hit hit;
    rp_triangle_hit tri;
    assert_true(rp_intersect_ray_mesh(m, &ray, &hit, &tri));
    assert_int_equal(tri.triangle, 0);          /* FaceIndex: the near square */
    assert_float_equal(hit.t, 1.0f, 1e-6f);     /* pDist in units of dir: 2 / |dir| */
    /* pU, pV: point = v0 + u (v1 - v0) + v (v2 - v0) */
    float t, u, v;
    assert_true(sample_intersect_triangle(ray.origin, ray.dir, QUADS[0].p, QUADS[1].p, QUADS[2].p, &t, &u, &v));
    assert_float_equal(tri.u, u, 1e-6f);
    assert_float_equal(tri.v, v, 1e-6f);
    assert_float_equal(hit.t, t, 1e-6f);
    /* the sample's tu/tv from fBary1, fBary2 */
    float tu = QUADS[0].tu + tri.u * (QUADS[1].tu - QUADS[0].tu) + tri.v * (QUADS[2].tu - QUADS[0].tu);
    float tv = QUADS[0].tv + tri.u * (QUADS[1].tv - QUADS[0].tv) + tri.v * (QUADS[2].tv - QUADS[0].tv);
    assert_float_equal(tu, 0.75f, 1e-6f);
    assert_float_equal(tv, 0.625f, 1e-6f);
    rp_mesh_destroy(m);
}

static void d3dx_all_hits_is_rp_intersect_ray_mesh_all_nearest_first(void **state)
{
    (void)state;
    rp_mesh *m = quads_mesh();
    /* D3DXIntersect(..., &pAllHits, &count): a D3DXINTERSECTINFO
       {FaceIndex, U, V, Dist} per hit = rp_triangle_hit + rp_hit.t */
    rp_ray ray = {{-0.5f, 0.5f, 1.0f}, {0.0f, 0.0f, -1.0f}};
    rp_hit hits[4];
    rp_triangle_hit tris[4];
    assert_int_equal(rp_intersect_ray_mesh_all(m, &ray, hits, tris, 4), 2);
    assert_int_equal(tris[0].triangle, 1);      /* nearest first */
    assert_float_equal(hits[0].t, 3.0f, 1e-6f);
    assert_int_equal(tris[1].triangle, 3);
    assert_float_equal(hits[1].t, 6.0f, 1e-6f);
    /* the sample's MAX_INTERSECTIONS: room for fewer, the total still comes back */
    rp_triangle_hit one[1];
    assert_int_equal(rp_intersect_ray_mesh_all(m, &ray, NULL, one, 1), 2);
    assert_int_equal(one[0].triangle, 1);
    rp_mesh_destroy(m);
}

static void d3dx_intersect_tri_barycentrics_match(void **state)
{
    (void)state;
    /* D3DXIntersectTri(&v0, &v1, &v2, &orig, &dir, &u, &v, &dist) and
       DirectXMath's TriangleTests::Intersects(orig, dir, v0, v1, v2, dist) */
    const vec3 v0 = {0, 0, 0}, v1 = {3, 0, 0}, v2 = {0, 3, 0};
    rp_ray ray = {{1.0f, 0.5f, 4.0f}, {0.0f, 0.0f, -1.0f}};
    rp_hit hit;
    rp_triangle_hit tri;
    assert_true(rp_intersect_ray_triangle(&ray, v0, v1, v2, &hit, &tri));
    assert_int_equal(tri.triangle, 0);
    float t, u, v;
    assert_true(sample_intersect_triangle(ray.origin, ray.dir, v0, v1, v2, &t, &u, &v));
    assert_float_equal(tri.u, u, 1e-6f);
    assert_float_equal(tri.v, v, 1e-6f);
    assert_float_equal(hit.t, t, 1e-6f);        /* TriangleTests' Dist with a unit dir */
    assert_float_equal(tri.u, 1.0f / 3.0f, 1e-6f);
    assert_float_equal(tri.v, 0.5f / 3.0f, 1e-6f);
    /* both sides hit, as D3DXIntersectTri: from behind, inside = true */
    rp_ray back = {{1.0f, 0.5f, -4.0f}, {0.0f, 0.0f, 1.0f}};
    assert_true(rp_intersect_ray_triangle(&back, v0, v1, v2, &hit, NULL));
    assert_true(hit.inside);
    assert_float_equal(hit.normal[2], -1.0f, 1e-6f);    /* faces the ray */
}

/* ---- bounding probes and bounding volumes ---------------------------------- */

static void d3dx_box_and_sphere_bound_probes(void **state)
{
    (void)state;
    /* D3DXBoxBoundProbe(&min, &max, &orig, &dir) */
    rp_aabb box = {{-1, -1, -1}, {1, 2, 3}};
    rp_ray at = {{0, 0, 10}, {0, 0, -1}}, beside = {{1.5f, 0, 10}, {0, 0, -1}};
    assert_true(rp_test_ray_aabb(&at, &box));
    assert_false(rp_test_ray_aabb(&beside, &box));
    /* a box behind the ray is a miss (a shape behind the origin, the
       library's rule) */
    rp_ray away = {{0, 0, 10}, {0, 0, 1}};
    assert_false(rp_test_ray_aabb(&away, &box));
    /* D3DXSphereBoundProbe(&center, radius, &orig, &dir) */
    rp_sphere s = {{0, 0, 0}, 1.0f};
    assert_true(rp_test_ray_sphere(&at, &s));
    assert_false(rp_test_ray_sphere(&beside, &s));
    assert_false(rp_test_ray_sphere(&away, &s));
}

static void d3dx_compute_bounding_box_reads_strided_vertices(void **state)
{
    (void)state;
    /* D3DXComputeBoundingBox(&verts[0].p, count, sizeof(D3DVERTEX), &min, &max):
       the normals and tu/tv between the positions are skipped */
    rp_aabb box;
    assert_true(rp_aabb_from_points(&QUADS[0].p[0], 8, sizeof(d3dvertex), &box));
    assert_float_equal(box.min[0], -1.0f, 0.0f);
    assert_float_equal(box.max[1], 1.0f, 0.0f);
    assert_float_equal(box.min[2], -5.0f, 0.0f);
    assert_float_equal(box.max[2], -2.0f, 0.0f);
    /* D3DXGetFVFVertexSize(D3DFVF_XYZ | D3DFVF_NORMAL | D3DFVF_TEX1) = 32 */
    assert_int_equal(sizeof(d3dvertex), 32);
}

static void raypick_bounding_sphere_is_smaller_than_the_centroid_sphere(void **state)
{
    (void)state;
    /* nine points bunched around the origin (a cross of radius 0.5 in the
       x = 0 plane) and one at x = 10: the centroid lies at x = 1, so the
       centroid sphere needs radius 9; the smallest sphere's centre c on
       the x axis has (10 - c)^2 = c^2 + 0.25: c = 4.9875, r = 5.0125 */
    static const float cross[9][3] = {{0, 0.5f, 0}, {0, -0.5f, 0}, {0, 0, 0.5f}, {0, 0, -0.5f}, {0, 0, 0},
                                      {0, 0.5f, 0}, {0, -0.5f, 0}, {0, 0, 0.5f}, {0, 0, -0.5f}};
    float pts[10][3];
    memcpy(pts, cross, sizeof cross);
    pts[9][0] = 10.0f, pts[9][1] = 0.0f, pts[9][2] = 0.0f;
    /* D3DXComputeBoundingSphere's way: the average, then the farthest point */
    vec3 c = {0, 0, 0};
    for (int i = 0; i < 10; ++i)
        glm_vec3_muladds(pts[i], 0.1f, c);
    float centroid_r = 0.0f;
    for (int i = 0; i < 10; ++i)
        centroid_r = fmaxf(centroid_r, glm_vec3_distance(c, pts[i]));
    rp_sphere s;
    assert_true(rp_sphere_from_points(&pts[0][0], 10, 0, &s));
    for (int i = 0; i < 10; ++i)
        assert_true(glm_vec3_distance(s.center, pts[i]) <= s.radius * (1.0f + 1e-6f));
    assert_float_equal(s.radius, 5.0125f, 1e-3f);
    assert_float_equal(s.center[0], 4.9875f, 1e-3f);
    assert_true(centroid_r > 8.9f);
    assert_true(s.radius < 0.6f * centroid_r);
}

/* ---- projecting points ----------------------------------------------------- */

static void camera(mat4 proj, mat4 view)
{
    glm_perspective(glm_rad(45.0f), 640.0f / 480.0f, 0.5f, 50.0f, proj);
    glm_lookat((vec3){1, 2, 6}, (vec3){0, 0, 0}, (vec3){0, 1, 0}, view);
}

static void d3dx_vec3_project_gives_pixels_y_down_and_depth(void **state)
{
    (void)state;
    mat4 proj, view;
    camera(proj, view);
    /* D3DXVec3Project(&out, &p, &viewport, &proj, &view, &world) */
    rp_viewport vp = {0, 0, 640, 480};
    vec3 out;
    assert_true(rp_project_point((vec3){0, 0, 0}, &vp, proj, view, RP_GL, out));
    assert_float_equal(out[0], 320.0f, 1e-3f);   /* the look-at point: centre */
    assert_float_equal(out[1], 240.0f, 1e-3f);
    assert_true(out[2] > 0.0f && out[2] < 1.0f);
    /* above the target: smaller y (y grows downwards, no flip) */
    assert_true(rp_project_point((vec3){0, 1, 0}, &vp, proj, view, RP_GL, out));
    assert_true(out[1] < 240.0f);
    /* behind the camera: false (D3DX would return a mirrored point) */
    assert_false(rp_project_point((vec3){2, 4, 12}, &vp, proj, view, RP_GL, out));
}

static void d3dx_vec3_unproject_round_trips_project(void **state)
{
    (void)state;
    mat4 proj, view;
    camera(proj, view);
    /* D3DXVec3Unproject / XMVector3Unproject(p, 0, 0, w, h, 0, 1, proj, view, world) */
    rp_viewport vp = {0, 0, 640, 480};
    const vec3 p = {0.3f, -0.4f, 1.1f};
    vec3 screen, back;
    assert_true(rp_project_point(p, &vp, proj, view, RP_GL, screen));
    assert_true(rp_unproject_point(screen[0], screen[1], screen[2], &vp, proj, view, RP_GL, back));
    for (int k = 0; k < 3; ++k)
        assert_float_equal(back[k], p[k], 1e-4f);
    /* depth 0 is the near plane: 0.5 from the eye along the view ray */
    vec3 near_pt;
    assert_true(rp_unproject_point(320.0f, 240.0f, 0.0f, &vp, proj, view, RP_GL, near_pt));
    assert_float_equal(glm_vec3_distance(near_pt, (vec3){1, 2, 6}), 0.5f, 1e-4f);
}

/* ---- D3DX math --------------------------------------------------------------- */

static void d3dx_vec3_cross_is_glm_vec3_cross(void **state)
{
    (void)state;
    /* D3DXVec3Cross(&out, &a, &b): the same formula, whatever the handedness */
    vec3 out;
    glm_vec3_cross((vec3){1, 0, 0}, (vec3){0, 1, 0}, out);
    assert_float_equal(out[2], 1.0f, 0.0f);
    glm_vec3_cross((vec3){2, 3, 4}, (vec3){5, 6, 7}, out);
    assert_float_equal(out[0], 3 * 7 - 4 * 6, 0.0f);
    assert_float_equal(out[1], 4 * 5 - 2 * 7, 0.0f);
    assert_float_equal(out[2], 2 * 6 - 3 * 5, 0.0f);
}

static void d3dx_matrix_translation_and_element_access(void **state)
{
    (void)state;
    /* D3DXMatrixTranslation(&m, 1, 2, 3): _41 _42 _43 = 1 2 3;
       m(3, 0) (D3DXMATRIX::operator()(row, col), 0-based) = _41 */
    mat4 m;
    glm_translate_make(m, (vec3){1, 2, 3});
    assert_float_equal(m[3][0], 1.0f, 0.0f);
    assert_float_equal(m[3][1], 2.0f, 0.0f);
    assert_float_equal(m[3][2], 3.0f, 0.0f);
    assert_float_equal(m[3][3], 1.0f, 0.0f);
    assert_float_equal(m[0][3], 0.0f, 0.0f);
    /* the 16 floats in memory, as a D3DXMATRIX stores them row by row */
    const float d3dx[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 1, 2, 3, 1};
    assert_memory_equal(m, d3dx, sizeof d3dx);
}

static void d3dx_matrix_product_order_is_reversed(void **state)
{
    (void)state;
    /* D3D: world * view (row vectors: world applies first).
       cglm:  glm_mat4_mul(view, world, dest): the same 16 floats. */
    mat4 world, view, wv;
    glm_translate_make(world, (vec3){1, 0, 0});
    glm_rotate_make(view, glm_rad(90.0f), (vec3){0, 0, 1});
    glm_mat4_mul(view, world, wv);
    vec3 p;
    glm_mat4_mulv3(wv, (vec3){0, 0, 0}, 1.0f, p);
    /* translate first to (1, 0, 0), then turn 90 degrees about z: (0, 1, 0) */
    assert_float_equal(p[0], 0.0f, 1e-6f);
    assert_float_equal(p[1], 1.0f, 1e-6f);
    /* the D3D product written out: (world * view)_ij = sum_k world_ik view_kj
       with _ij = m[i][j]: the same floats as cglm's view * world */
    for (int i = 0; i < 4; ++i) {
        for (int j = 0; j < 4; ++j) {
            float s = 0.0f;
            for (int k = 0; k < 4; ++k)
                s += world[i][k] * view[k][j];
            assert_float_equal(wv[i][j], s, 1e-6f);
        }
    }
}

/* ---- picking in model space, and a locked vertex buffer ------------------ */

static void model_space_pick_equals_mesh_instance(void **state)
{
    (void)state;
    rp_mesh *m = quads_mesh();
    mat4 world, view, proj;
    glm_rotate_make(world, glm_rad(30.0f), (vec3){0, 1, 0});
    glm_scale_uni(world, 1.5f);
    vec3 target;    /* where the near square's centre went */
    glm_mat4_mulv3(world, (vec3){0, 0, -2}, 1.0f, target);
    glm_lookat((vec3){0.3f, 0.2f, 4.0f}, target, (vec3){0, 1, 0}, view);
    glm_perspective(glm_rad(50.0f), 4.0f / 3.0f, 0.1f, 100.0f, proj);
    rp_viewport vp = {0, 0, 640, 480};
    const float px = 350.5f, py = 230.5f;
    /* The sample: the view-space direction from _11 and _22, then
       inverse(world * view) takes it to model space (GL: view looks down -z). */
    vec3 vdir = {(2.0f * px / vp.width - 1.0f) / proj[0][0], -(2.0f * py / vp.height - 1.0f) / proj[1][1], -1.0f};
    mat4 wv, inv;
    glm_mat4_mul(view, world, wv);
    glm_mat4_inv(wv, inv);
    rp_ray model_ray;
    glm_mat4_mulv3(inv, vdir, 0.0f, model_ray.dir);
    glm_vec3_copy(inv[3], model_ray.origin);
    rp_hit model_hit;
    rp_triangle_hit model_tri;
    assert_true(rp_intersect_ray_mesh(m, &model_ray, &model_hit, &model_tri));
    /* raypick: the world ray and the model matrix */
    rp_ray world_ray;
    assert_true(rp_pick_ray_perspective(px, py, &vp, proj, view, RP_GL, &world_ray));
    rp_hit hit;
    rp_triangle_hit tri;
    assert_true(rp_intersect_ray_mesh_instance(m, world, &world_ray, &hit, &tri));
    assert_int_equal(tri.triangle, model_tri.triangle);
    assert_float_equal(tri.u, model_tri.u, 1e-4f);
    assert_float_equal(tri.v, model_tri.v, 1e-4f);
    /* the model-space hit taken to the world is the instance's point */
    vec3 model_point, world_point;
    rp_ray_at(&model_ray, model_hit.t, model_point);
    glm_mat4_mulv3(world, model_point, 1.0f, world_point);
    for (int k = 0; k < 3; ++k)
        assert_float_equal(hit.point[k], world_point[k], 1e-4f);
    rp_mesh_destroy(m);
}

static void locked_buffers_with_stride_pick_like_the_sample(void **state)
{
    (void)state;
    /* pVB->Lock(...) gives D3DVERTEX *; pass &v[0].p with the stride, and
       the WORD indices widened: the same faces as the sample's loop over
       IntersectTriangle (nearest of all faces) */
    rp_mesh *m = quads_mesh();
    assert_int_equal(rp_mesh_triangle_count(m), 4);
    rp_ray ray = {{-0.2f, -0.7f, 3.0f}, {0.05f, 0.1f, -1.0f}};
    int best = -1;
    float best_t = FLT_MAX, bu = 0, bv = 0;
    for (int f = 0; f < 4; ++f) {
        float t, u, v;
        const float *a = QUADS[QUAD_WORDS[3 * f]].p, *b = QUADS[QUAD_WORDS[3 * f + 1]].p,
                    *c = QUADS[QUAD_WORDS[3 * f + 2]].p;
        if (sample_intersect_triangle(ray.origin, ray.dir, a, b, c, &t, &u, &v) && t < best_t)
            best = f, best_t = t, bu = u, bv = v;
    }
    rp_hit hit;
    rp_triangle_hit tri;
    assert_true(rp_intersect_ray_mesh(m, &ray, &hit, &tri));
    assert_int_equal((int)tri.triangle, best);
    assert_float_equal(hit.t, best_t, 1e-5f);
    assert_float_equal(tri.u, bu, 1e-5f);
    assert_float_equal(tri.v, bv, 1e-5f);
    rp_mesh_destroy(m);
}

/* ---- DirectXMath's collision types -------------------------------------- */

static void directxmath_intersects_dist_is_t_or_t_enter(void **state)
{
    (void)state;
    /* BoundingSphere / BoundingBox / BoundingOrientedBox::Intersects(origin,
       direction, dist): DirectXMath wants a unit direction, and dist is
       then the distance; raypick's t is in units of dir, the same number
       for a unit dir. From outside dist = hit.t = hit.t_enter. */
    rp_ray unit = {{0, 0, 10}, {0, 0, -1}}, doubled = {{0, 0, 10}, {0, 0, -2}};
    rp_sphere s = {{0, 0, 0}, 2.0f};
    rp_aabb box = {{-1, -1, -1}, {1, 1, 1}};
    /* Orientation as XMFLOAT4 (x, y, z, w): 45 degrees about y, so the
       corner edge faces the ray at sqrt(2) from the centre */
    rp_obb obb = {{0, 0, 0}, {1, 1, 1}, {0.0f, 0.38268343f, 0.0f, 0.92387953f}};
    rp_hit h;
    assert_true(rp_intersect_ray_sphere(&unit, &s, &h));
    assert_float_equal(h.t, 8.0f, 1e-5f);
    assert_true(rp_intersect_ray_sphere(&doubled, &s, &h));
    assert_float_equal(h.t, 4.0f, 1e-5f);
    assert_true(rp_intersect_ray_aabb(&unit, &box, &h));
    assert_float_equal(h.t, 9.0f, 1e-5f);
    assert_true(rp_intersect_ray_obb(&unit, &obb, &h));
    assert_float_equal(h.t, 10.0f - sqrtf(2.0f), 1e-5f);
    /* From inside a box DirectXMath's dist is the entry behind the origin,
       -1 here (its t_min): hit.t_enter; hit.t is the exit, 1. From inside
       a sphere DirectXMath gives the exit: hit.t. */
    rp_ray inside = {{0, 0, 0}, {1, 0, 0}};
    assert_true(rp_intersect_ray_aabb(&inside, &box, &h));
    assert_true(h.inside);
    assert_float_equal(h.t_enter, -1.0f, 1e-6f);
    assert_float_equal(h.t, 1.0f, 1e-6f);
    assert_true(rp_intersect_ray_sphere(&inside, &s, &h));
    assert_true(h.inside);
    assert_float_equal(h.t, 2.0f, 1e-6f);
    assert_float_equal(h.t_enter, -2.0f, 1e-6f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(d3dx_intersect_nearest_is_rp_intersect_ray_mesh),
        cmocka_unit_test(d3dx_all_hits_is_rp_intersect_ray_mesh_all_nearest_first),
        cmocka_unit_test(d3dx_intersect_tri_barycentrics_match),
        cmocka_unit_test(d3dx_box_and_sphere_bound_probes),
        cmocka_unit_test(d3dx_compute_bounding_box_reads_strided_vertices),
        cmocka_unit_test(raypick_bounding_sphere_is_smaller_than_the_centroid_sphere),
        cmocka_unit_test(d3dx_vec3_project_gives_pixels_y_down_and_depth),
        cmocka_unit_test(d3dx_vec3_unproject_round_trips_project),
        cmocka_unit_test(d3dx_vec3_cross_is_glm_vec3_cross),
        cmocka_unit_test(d3dx_matrix_translation_and_element_access),
        cmocka_unit_test(d3dx_matrix_product_order_is_reversed),
        cmocka_unit_test(model_space_pick_equals_mesh_instance),
        cmocka_unit_test(locked_buffers_with_stride_pick_like_the_sample),
        cmocka_unit_test(directxmath_intersects_dist_is_t_or_t_enter),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

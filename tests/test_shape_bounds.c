/* test_shape_bounds.c: lesson 1's bounding volumes of the renderer's
 * shapes enclose the shapes, follow the placement, and answer "hit" for
 * rays that miss the triangles (the false positives the lesson counts). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <math.h>
#include <cmocka.h>

#include "shape_bounds.h"

static shape_bounds g_b;

static int setup(void **state)
{
    (void)state;
    return shape_bounds_init(&g_b) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    shape_bounds_free(&g_b);
    return 0;
}

static shape_placement placed(int kind, float x, float y, float z, float angle, float scale)
{
    shape_placement p = {kind, {x, y, z}, {0, 0, 0, 1}, scale};
    glm_quatv(p.rotation, angle, (vec3){0.3f, 1.0f, 0.2f});
    glm_quat_normalize(p.rotation);
    return p;
}

static void every_volume_encloses_every_vertex(void **state)
{
    (void)state;
    for (int k = 0; k < SHAPE_BOUNDS_KINDS; ++k) {
        shape_placement p = placed(k, 1.0f, 2.0f, -3.0f, 0.7f, 1.3f);
        rp_sphere s;
        rp_aabb a;
        rp_obb o;
        assert_true(shape_bounds_sphere(&g_b, &p, &s));
        assert_true(shape_bounds_aabb(&g_b, &p, &a));
        assert_true(shape_bounds_obb(&g_b, &p, &o));
        mat4 m, inv_rot;
        glm_translate_make(m, p.position);
        glm_quat_rotate(m, p.rotation, m);
        glm_scale_uni(m, p.scale);
        glm_quat_mat4(p.rotation, inv_rot);
        glm_mat4_transpose(inv_rot);
        const geo_mesh *g = &g_b.geometry[k];
        for (int i = 0; i < g->vertex_count; ++i) {
            vec3 w, local, d;
            glm_mat4_mulv3(m, g->vertices[i].position, 1.0f, w);
            assert_true(glm_vec3_distance(w, s.center) <= s.radius * 1.00001f);
            for (int c = 0; c < 3; ++c)
                assert_true(w[c] >= a.min[c] && w[c] <= a.max[c]);
            /* in the OBB's own axes, within its half extents */
            glm_vec3_sub(w, o.center, d);
            glm_mat4_mulv3(inv_rot, d, 0.0f, local);
            for (int c = 0; c < 3; ++c)
                assert_true(fabsf(local[c]) <= o.half_extents[c] * 1.0001f + 1e-5f);
        }
    }
}

static void the_torus_hole_is_a_false_positive_of_every_volume(void **state)
{
    (void)state;
    shape_placement p = {2, {0, 0, 0}, {0, 0, 0, 1}, 1.0f};    /* torus around y */
    rp_ray down = {{0, 5, 0}, {0, -1, 0}};
    for (int v = 0; v < BOUND_VOLUME_COUNT; ++v)
        assert_true(shape_bounds_hit_volume(&g_b, &p, (bound_volume)v, &down, NULL));
    assert_false(shape_bounds_hit_mesh(&g_b, &p, &down, NULL));
    /* through the tube: the mesh too */
    rp_ray tube = {{0.75f, 5, 0}, {0, -1, 0}};
    rp_hit h;
    assert_true(shape_bounds_hit_mesh(&g_b, &p, &tube, &h));
    assert_float_equal(h.point[1], 0.3f, 0.02f);
}

static void a_box_hugs_a_torus_where_its_sphere_does_not(void **state)
{
    (void)state;
    /* along z, above the flat ring: inside the sphere (radius 1.05 about
       the centre), above the box (the tube is 0.3 thick) */
    shape_placement p = {2, {0, 0, 0}, {0, 0, 0, 1}, 1.0f};
    rp_ray ray = {{0.5f, 0.5f, 5}, {0, 0, -1}};
    assert_true(shape_bounds_hit_volume(&g_b, &p, BOUND_SPHERE, &ray, NULL));
    assert_false(shape_bounds_hit_volume(&g_b, &p, BOUND_AABB, &ray, NULL));
    assert_false(shape_bounds_hit_volume(&g_b, &p, BOUND_OBB, &ray, NULL));
    assert_false(shape_bounds_hit_mesh(&g_b, &p, &ray, NULL));
}

static void a_turned_cube_is_its_own_obb_but_not_its_aabb(void **state)
{
    (void)state;
    /* a cube (half-size 1) turned 45 degrees about z: seen along z a
       diamond |x| + |y| <= sqrt(2); a ray at (0.9, 0.9) passes beside it
       and its OBB, through the world box around it */
    shape_placement p = {1, {0, 0, 0}, {0, 0, 0, 1}, 1.0f};
    glm_quatv(p.rotation, glm_rad(45.0f), (vec3){0, 0, 1});
    rp_ray ray = {{0.9f, 0.9f, 5}, {0, 0, -1}};
    assert_true(shape_bounds_hit_volume(&g_b, &p, BOUND_AABB, &ray, NULL));
    assert_false(shape_bounds_hit_volume(&g_b, &p, BOUND_OBB, &ray, NULL));
    assert_false(shape_bounds_hit_mesh(&g_b, &p, &ray, NULL));
    rp_ray centre = {{0.2f, 0.1f, 5}, {0, 0, -1}};
    rp_hit box, mesh;
    assert_true(shape_bounds_hit_volume(&g_b, &p, BOUND_OBB, &centre, &box));
    assert_true(shape_bounds_hit_mesh(&g_b, &p, &centre, &mesh));
    assert_float_equal(box.t, mesh.t, 1e-4f);
}

static void bad_kinds_are_refused(void **state)
{
    (void)state;
    shape_placement p = {7, {0, 0, 0}, {0, 0, 0, 1}, 1.0f};
    rp_ray ray = {{0, 0, 5}, {0, 0, -1}};
    rp_sphere s;
    assert_false(shape_bounds_sphere(&g_b, &p, &s));
    assert_false(shape_bounds_hit_volume(&g_b, &p, BOUND_SPHERE, &ray, NULL));
    assert_false(shape_bounds_hit_mesh(&g_b, &p, &ray, NULL));
    p.kind = -1;
    assert_false(shape_bounds_hit_volume(&g_b, &p, BOUND_AABB, &ray, NULL));
    assert_string_equal(bound_volume_name(BOUND_OBB), "OBB");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_volume_encloses_every_vertex),
        cmocka_unit_test(the_torus_hole_is_a_false_positive_of_every_volume),
        cmocka_unit_test(a_box_hugs_a_torus_where_its_sphere_does_not),
        cmocka_unit_test(a_turned_cube_is_its_own_obb_but_not_its_aabb),
        cmocka_unit_test(bad_kinds_are_refused),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

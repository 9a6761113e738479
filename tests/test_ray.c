/* test_ray.c: points on a ray, validity, transforms. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <math.h>
#include <string.h>
#include <cmocka.h>

#include <raypick/raypick.h>

static void ray_at_scales_with_dir(void **state)
{
    (void)state;
    rp_ray r = {{1, 2, 3}, {0, 0, -2}};
    vec3 p;
    rp_ray_at(&r, 1.5f, p);
    assert_float_equal(p[0], 1.0f, 0.0f);
    assert_float_equal(p[1], 2.0f, 0.0f);
    assert_float_equal(p[2], 0.0f, 0.0f);
}

static void ray_at_null_rule(void **state)
{
    (void)state;
    rp_ray r = {{1, 2, 3}, {0, 0, -2}};
    vec3 p = {7, 8, 9};
    rp_ray_at(&r, 1.0f, NULL);          /* no output: nothing to write */
    rp_ray_at(NULL, 1.0f, p);           /* no ray: p untouched */
    assert_true(p[0] == 7.0f && p[1] == 8.0f && p[2] == 9.0f);
    rp_ray_at(NULL, 1.0f, NULL);
}

static void ray_validity(void **state)
{
    (void)state;
    rp_ray ok = {{0, 0, 0}, {0, 0, 1}};
    rp_ray zero = {{0, 0, 0}, {0, 0, 0}};
    rp_ray nan = {{NAN, 0, 0}, {0, 0, 1}};
    rp_ray inf = {{0, 0, 0}, {INFINITY, 0, 1}};
    assert_true(rp_ray_is_valid(&ok));
    assert_false(rp_ray_is_valid(&zero));
    assert_false(rp_ray_is_valid(&nan));
    assert_false(rp_ray_is_valid(&inf));
    assert_false(rp_ray_is_valid(NULL));
}

static void transform_moves_origin_not_direction(void **state)
{
    (void)state;
    mat4 m;
    glm_translate_make(m, (vec3){10, 0, 0});
    rp_ray r = {{1, 2, 3}, {0, 1, 0}}, out;
    assert_true(rp_ray_transform(&r, m, &out));
    assert_float_equal(out.origin[0], 11.0f, 1e-6f);
    assert_float_equal(out.origin[1], 2.0f, 1e-6f);
    assert_float_equal(out.dir[0], 0.0f, 0.0f);
    assert_float_equal(out.dir[1], 1.0f, 0.0f);
    assert_true(rp_ray_transform(&r, m, NULL));
}

static void transform_rotates_direction(void **state)
{
    (void)state;
    mat4 m;
    glm_rotate_make(m, GLM_PI_2f, (vec3){0, 1, 0});   /* +x goes to -z */
    rp_ray r = {{0, 0, 0}, {1, 0, 0}}, out;
    assert_true(rp_ray_transform(&r, m, &out));
    assert_float_equal(out.dir[0], 0.0f, 1e-6f);
    assert_float_equal(out.dir[2], -1.0f, 1e-6f);
}

static void transform_rejects_bad_input(void **state)
{
    (void)state;
    mat4 zero = GLM_MAT4_ZERO_INIT, id = GLM_MAT4_IDENTITY_INIT, nanm = GLM_MAT4_IDENTITY_INIT;
    nanm[3][1] = NAN;
    rp_ray r = {{0, 0, 0}, {1, 0, 0}}, bad = {{0, 0, 0}, {0, 0, 0}};
    rp_ray out = {{7, 7, 7}, {7, 7, 7}};
    assert_false(rp_ray_transform(&r, zero, &out));   /* w = 0 and dir = 0 */
    assert_false(rp_ray_transform(&r, nanm, &out));
    assert_false(rp_ray_transform(&bad, id, &out));
    assert_float_equal(out.origin[0], 7.0f, 0.0f);    /* untouched */
    assert_float_equal(out.dir[2], 7.0f, 0.0f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ray_at_scales_with_dir),
        cmocka_unit_test(ray_at_null_rule),
        cmocka_unit_test(ray_validity),
        cmocka_unit_test(transform_moves_origin_not_direction),
        cmocka_unit_test(transform_rotates_direction),
        cmocka_unit_test(transform_rejects_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

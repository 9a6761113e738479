/* test_project.c: rp_project_point / rp_unproject_point (D3DXVec3Project /
 * D3DXVec3Unproject with MinZ 0, MaxZ 1), with every cglm perspective
 * builder in its depth convention, orthographic and off-centre ones. */
#define CGLM_CLIPSPACE_INCLUDE_ALL   /* the *_lh_* and *_zo builders */

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <float.h>
#include <math.h>
#include <string.h>
#include <cmocka.h>

#include <raypick/raypick.h>
#include "ref_quadric.h"

#define WINDOW_H 800.0f
static const rp_viewport VP = {100.0f, 40.0f, 960.0f, 640.0f};
static const float NEAR_Z = 0.1f, FAR_Z = 1000.0f;

typedef void (*persp_builder)(float, float, float, float, mat4);

typedef struct camera {
    mat4 proj, view;
    rp_convention conv;
    float forward;   /* view-space z of "in front": -1 right-handed, +1 left */
} camera;

/* builders 0..3: rh_no, rh_zo, lh_no, lh_zo; 4, 5: orthographic no / zo */
static void make_camera(int kind, bool lh_view, camera *cam)
{
    const persp_builder persp[4] = {glm_perspective_rh_no, glm_perspective_rh_zo,
                                    glm_perspective_lh_no, glm_perspective_lh_zo};
    vec3 eye = {1.5f, 2.0f, 4.0f}, target = {0.0f, 0.5f, -1.0f}, up = {0.0f, 1.0f, 0.0f};
    if (lh_view)
        glm_lookat_lh(eye, target, up, cam->view);
    else
        glm_lookat_rh(eye, target, up, cam->view);
    if (kind < 4) {
        persp[kind](glm_rad(55.0f), VP.width / VP.height, NEAR_Z, FAR_Z, cam->proj);
        cam->conv = kind % 2 ? RP_D3D : RP_GL;
        cam->forward = kind < 2 ? -1.0f : 1.0f;
    } else if (kind == 4) {
        glm_ortho_rh_no(-4.0f, 6.0f, -3.0f, 2.0f, 0.5f, 60.0f, cam->proj);
        cam->conv = RP_GL;
        cam->forward = -1.0f;
    } else {
        glm_ortho_lh_zo(-4.0f, 6.0f, -3.0f, 2.0f, 0.5f, 60.0f, cam->proj);
        cam->conv = RP_D3D;
        cam->forward = 1.0f;
    }
}

static rp_convention other(rp_convention c)
{
    return c == RP_GL ? RP_D3D : RP_GL;
}

/* the reference: clip = P V p in double, the D3D9 viewport transform */
static bool ref_project(const camera *cam, const double p[3], double out[3])
{
    double view[4], clip[4];
    for (int r = 0; r < 4; r++)
        view[r] = cam->view[0][r] * p[0] + cam->view[1][r] * p[1] + cam->view[2][r] * p[2] +
                  cam->view[3][r];
    for (int r = 0; r < 4; r++)
        clip[r] = cam->proj[0][r] * view[0] + cam->proj[1][r] * view[1] +
                  cam->proj[2][r] * view[2] + cam->proj[3][r] * view[3];
    if (!(clip[3] > 0.0))
        return false;
    out[0] = VP.x + (clip[0] / clip[3] + 1.0) * 0.5 * VP.width;
    out[1] = VP.y + (1.0 - clip[1] / clip[3]) * 0.5 * VP.height;
    out[2] = cam->conv == RP_D3D ? clip[2] / clip[3] : 0.5 * (clip[2] / clip[3] + 1.0);
    return true;
}

/* a world point inside the frustum: a random pixel at a random view depth */
static void random_visible_point(test_rng *g, const camera *cam, vec3 out)
{
    const float x = (float)rng_uniform(g, VP.x, VP.x + VP.width);
    const float y = (float)rng_uniform(g, VP.y, VP.y + VP.height);
    const float depth = (float)rng_uniform(g, 0.0, 0.999);
    assert_true(rp_unproject_point(x, y, depth, &VP, (vec4 *)cam->proj, (vec4 *)cam->view,
                                   cam->conv, out));
}

static void assert_project_rejected(const vec3 p, const rp_viewport *vp, mat4 proj, mat4 view,
                                    rp_convention conv)
{
    vec3 out = {1234.5f, -6.0f, 7.0f};
    assert_false(rp_project_point(p, vp, proj, view, conv, out));
    assert_float_equal(out[0], 1234.5f, 0.0f);
    assert_float_equal(out[1], -6.0f, 0.0f);
    assert_float_equal(out[2], 7.0f, 0.0f);
    assert_false(rp_project_point(p, vp, proj, view, conv, NULL));
}

static void assert_unproject_rejected(float x, float y, float depth, const rp_viewport *vp,
                                      mat4 proj, mat4 view, rp_convention conv)
{
    vec3 out = {1234.5f, -6.0f, 7.0f};
    assert_false(rp_unproject_point(x, y, depth, vp, proj, view, conv, out));
    assert_float_equal(out[0], 1234.5f, 0.0f);
    assert_float_equal(out[1], -6.0f, 0.0f);
    assert_float_equal(out[2], 7.0f, 0.0f);
    assert_false(rp_unproject_point(x, y, depth, vp, proj, view, conv, NULL));
}

/* ---- projecting ------------------------------------------------------------ */

/* Every builder in its convention, both view handednesses: the pixel and
   depth of random points match the double reference. */
static void project_matches_reference(void **state)
{
    (void)state;
    test_rng g = {0x9E01u};
    for (int kind = 0; kind < 6; kind++)
        for (int v = 0; v < 2; v++) {
            camera cam;
            make_camera(kind, v == 1, &cam);
            int visible = 0;
            for (int n = 0; n < 500; n++) {
                vec3 p;
                double pd[3], ref[3];
                for (int i = 0; i < 3; i++) {
                    p[i] = (float)rng_uniform(&g, -30.0, 30.0);
                    pd[i] = p[i];
                }
                vec3 out = {-1.0f, -1.0f, -1.0f};
                const bool in_front = ref_project(&cam, pd, ref);
                assert_int_equal(rp_project_point(p, &VP, cam.proj, cam.view, cam.conv, out),
                                 in_front);
                if (!in_front) {
                    assert_float_equal(out[0], -1.0f, 0.0f);
                    continue;
                }
                visible++;
                for (int i = 0; i < 3; i++)
                    assert_float_equal(out[i], ref[i], 1e-5 * (1.0 + fabs(ref[i])));
            }
            assert_true(visible > 100);
        }
}

/* glm_project (GL's gluProject, y up from the window's bottom) agrees for
   RP_GL, once the viewport and the pixel are flipped. */
static void project_matches_glm_project(void **state)
{
    (void)state;
    camera cam;
    make_camera(0, false, &cam);
    mat4 pv;
    glm_mat4_mul(cam.proj, cam.view, pv);
    vec4 gl_vp = {VP.x, WINDOW_H - (VP.y + VP.height), VP.width, VP.height};
    test_rng g = {0x61u};
    for (int n = 0; n < 200; n++) {
        vec3 p, ours, win;
        random_visible_point(&g, &cam, p);
        assert_true(rp_project_point(p, &VP, cam.proj, cam.view, RP_GL, ours));
        glm_project(p, pv, gl_vp, win);
        assert_float_equal(ours[0], win[0], 0.02f);
        assert_float_equal(ours[1], WINDOW_H - win[1], 0.02f);
        assert_float_equal(ours[2], win[2], 1e-5f);
    }
}

/* Behind the camera, and on its plane: w <= 0 is refused, not mirrored. */
static void behind_the_camera_is_refused(void **state)
{
    (void)state;
    for (int kind = 0; kind < 4; kind++) {
        camera cam;
        make_camera(kind, false, &cam);
        mat4 inv_view;
        glm_mat4_inv(cam.view, inv_view);
        /* the view-space point (1, 0.5, -forward * 5) is behind; z = 0 is the
           eye's plane */
        vec4 behind_v = {1.0f, 0.5f, -cam.forward * 5.0f, 1.0f}, plane_v = {1.0f, 0.5f, 0.0f, 1.0f};
        vec4 front_v = {1.0f, 0.5f, cam.forward * 5.0f, 1.0f};
        vec4 behind, plane, front;
        glm_mat4_mulv(inv_view, behind_v, behind);
        glm_mat4_mulv(inv_view, plane_v, plane);
        glm_mat4_mulv(inv_view, front_v, front);
        assert_project_rejected(behind, &VP, cam.proj, cam.view, cam.conv);
        vec3 out;
        assert_true(rp_project_point(front, &VP, cam.proj, cam.view, cam.conv, out));
        /* the eye plane: w is 0 up to the rounding of the inverse view */
        double pd[3] = {plane[0], plane[1], plane[2]}, ref[3];
        if (!ref_project(&cam, pd, ref))
            assert_project_rejected(plane, &VP, cam.proj, cam.view, cam.conv);
    }
    /* exactly on the plane: identity view, a point with z = 0 */
    mat4 proj, view = GLM_MAT4_IDENTITY_INIT;
    glm_perspective_rh_no(1.0f, 1.5f, 0.1f, 100.0f, proj);
    const vec3 on_plane = {3.0f, -1.0f, 0.0f};
    assert_project_rejected(on_plane, &VP, proj, view, RP_GL);
}

/* ---- unprojecting ----------------------------------------------------------- */

/* Depth 0 is the near plane, 1 the far plane, in both conventions; the
   points agree with rp_pick_ray_unproject's origin and origin + dir. */
static void depth_zero_and_one_are_near_and_far(void **state)
{
    (void)state;
    for (int kind = 0; kind < 4; kind++)
        for (int v = 0; v < 2; v++) {
            camera cam;
            make_camera(kind, v == 1, &cam);
            const float px[3][2] = {{580.0f, 360.0f}, {101.0f, 41.0f}, {1000.5f, 600.25f}};
            for (int i = 0; i < 3; i++) {
                vec3 near_p, far_p, nv, fv;
                assert_true(rp_unproject_point(px[i][0], px[i][1], 0.0f, &VP, cam.proj,
                                               cam.view, cam.conv, near_p));
                assert_true(rp_unproject_point(px[i][0], px[i][1], 1.0f, &VP, cam.proj,
                                               cam.view, cam.conv, far_p));
                glm_mat4_mulv3(cam.view, near_p, 1.0f, nv);
                glm_mat4_mulv3(cam.view, far_p, 1.0f, fv);
                assert_float_equal(nv[2] * cam.forward, NEAR_Z, 1e-5f);
                /* far / near = 1e4 magnifies the float rounding of proj */
                assert_float_equal(fv[2] * cam.forward, FAR_Z, 2.0f);
                rp_ray ray;
                assert_true(rp_pick_ray_unproject(px[i][0], px[i][1], &VP, cam.proj, cam.view,
                                                  cam.conv, &ray));
                vec3 end;
                glm_vec3_add(ray.origin, ray.dir, end);
                for (int k = 0; k < 3; k++) {
                    assert_float_equal(near_p[k], ray.origin[k], 1e-5f);
                    assert_float_equal(far_p[k], end[k], 1e-2f);
                }
                /* the wrong convention puts depth 0 elsewhere (not the near plane) */
                vec3 wrong;
                assert_true(rp_unproject_point(px[i][0], px[i][1], 0.0f, &VP, cam.proj,
                                               cam.view, other(cam.conv), wrong));
                glm_mat4_mulv3(cam.view, wrong, 1.0f, nv);
                assert_true(fabsf(nv[2] * cam.forward - NEAR_Z) > 1e-2f);
            }
        }
}

/* project(unproject(x, y, depth)) = (x, y, depth) and
   unproject(project(p)) = p, for every builder in its convention and the
   orthographic ones. */
static void round_trips_in_both_conventions(void **state)
{
    (void)state;
    test_rng g = {0x207u};
    for (int kind = 0; kind < 6; kind++)
        for (int v = 0; v < 2; v++) {
            camera cam;
            make_camera(kind, v == 1, &cam);
            for (int n = 0; n < 300; n++) {
                const float x = (float)rng_uniform(&g, VP.x - 50.0, VP.x + VP.width + 50.0);
                const float y = (float)rng_uniform(&g, VP.y - 50.0, VP.y + VP.height + 50.0);
                const float depth = (float)rng_uniform(&g, 0.0, 0.99);
                vec3 world, back;
                assert_true(rp_unproject_point(x, y, depth, &VP, cam.proj, cam.view, cam.conv,
                                               world));
                assert_true(rp_project_point(world, &VP, cam.proj, cam.view, cam.conv, back));
                assert_float_equal(back[0], x, 0.01f);
                assert_float_equal(back[1], y, 0.01f);
                assert_float_equal(back[2], depth, 1e-4f);

                vec3 p, pixel, again;
                random_visible_point(&g, &cam, p);
                assert_true(rp_project_point(p, &VP, cam.proj, cam.view, cam.conv, pixel));
                assert_true(rp_unproject_point(pixel[0], pixel[1], pixel[2], &VP, cam.proj,
                                               cam.view, cam.conv, again));
                /* the depth value of a far point is steep in float: the
                   tolerance grows with the distance */
                vec3 eye_rel;
                glm_mat4_mulv3(cam.view, p, 1.0f, eye_rel);
                const float dist = glm_vec3_norm(eye_rel);
                for (int k = 0; k < 3; k++)
                    assert_float_equal(again[k], p[k], 1e-3f * (1.0f + dist * dist / 50.0f));
            }
        }
}

/* Depth outside [0, 1] extrapolates along the same line, as
   D3DXVec3Unproject does. */
static void depth_outside_range_extrapolates(void **state)
{
    (void)state;
    for (int kind = 0; kind < 6; kind++) {
        camera cam;
        make_camera(kind, false, &cam);
        rp_ray ray;
        assert_true(rp_pick_ray_unproject(300.0f, 200.0f, &VP, cam.proj, cam.view, cam.conv,
                                          &ray));
        const float depths[] = {-0.5f, -0.001f, 1.0001f, 3.0f};
        for (int i = 0; i < 4; i++) {
            vec3 p, rel, cr;
            if (!rp_unproject_point(300.0f, 200.0f, depths[i], &VP, cam.proj, cam.view,
                                    cam.conv, p))
                continue;   /* a perspective depth past w = 0 */
            glm_vec3_sub(p, ray.origin, rel);
            glm_vec3_cross(rel, ray.dir, cr);
            const float dist = glm_vec3_norm(cr) / glm_vec3_norm(ray.dir);
            assert_true(dist <= 1e-4f * (1.0f + glm_vec3_norm(rel)));
            vec3 back;
            if (rp_project_point(p, &VP, cam.proj, cam.view, cam.conv, back))
                assert_float_equal(back[2], depths[i], 1e-3f * (1.0f + fabsf(depths[i])));
        }
        /* orthographic: every depth is finite */
        if (kind >= 4)
            for (int i = 0; i < 4; i++)
                assert_true(rp_unproject_point(300.0f, 200.0f, depths[i], &VP, cam.proj,
                                               cam.view, cam.conv, NULL));
    }
}

/* ---- invalid input ------------------------------------------------------------ */

static void invalid_input_is_refused(void **state)
{
    (void)state;
    camera cam;
    make_camera(0, false, &cam);
    const vec3 p = {0.0f, 0.5f, -3.0f};
    assert_true(rp_project_point(p, &VP, cam.proj, cam.view, RP_GL, NULL));
    assert_true(rp_unproject_point(500.0f, 300.0f, 0.5f, &VP, cam.proj, cam.view, RP_GL, NULL));

    assert_project_rejected(NULL, &VP, cam.proj, cam.view, RP_GL);
    assert_project_rejected(p, NULL, cam.proj, cam.view, RP_GL);
    assert_project_rejected(p, &VP, NULL, cam.view, RP_GL);
    assert_project_rejected(p, &VP, cam.proj, NULL, RP_GL);
    assert_project_rejected(p, &VP, cam.proj, cam.view, (rp_convention)2);
    assert_unproject_rejected(500.0f, 300.0f, 0.5f, NULL, cam.proj, cam.view, RP_GL);
    assert_unproject_rejected(500.0f, 300.0f, 0.5f, &VP, NULL, cam.view, RP_GL);
    assert_unproject_rejected(500.0f, 300.0f, 0.5f, &VP, cam.proj, NULL, RP_GL);
    assert_unproject_rejected(500.0f, 300.0f, 0.5f, &VP, cam.proj, cam.view, (rp_convention)-1);

    const float bad[] = {NAN, INFINITY, -INFINITY};
    for (int b = 0; b < 3; b++) {
        for (int i = 0; i < 3; i++) {
            vec3 q = {p[0], p[1], p[2]};
            q[i] = bad[b];
            assert_project_rejected(q, &VP, cam.proj, cam.view, RP_GL);
        }
        assert_unproject_rejected(bad[b], 300.0f, 0.5f, &VP, cam.proj, cam.view, RP_GL);
        assert_unproject_rejected(500.0f, bad[b], 0.5f, &VP, cam.proj, cam.view, RP_GL);
        assert_unproject_rejected(500.0f, 300.0f, bad[b], &VP, cam.proj, cam.view, RP_GL);
        for (int f = 0; f < 4; f++) {
            rp_viewport vp = VP;
            float *field[4] = {&vp.x, &vp.y, &vp.width, &vp.height};
            *field[f] = bad[b];
            assert_project_rejected(p, &vp, cam.proj, cam.view, RP_GL);
            assert_unproject_rejected(500.0f, 300.0f, 0.5f, &vp, cam.proj, cam.view, RP_GL);
        }
        for (int e = 0; e < 16; e++) {
            camera c = cam;
            c.proj[e / 4][e % 4] = bad[b];
            assert_project_rejected(p, &VP, c.proj, c.view, RP_GL);
            assert_unproject_rejected(500.0f, 300.0f, 0.5f, &VP, c.proj, c.view, RP_GL);
            c = cam;
            c.view[e / 4][e % 4] = bad[b];
            assert_project_rejected(p, &VP, c.proj, c.view, RP_GL);
            assert_unproject_rejected(500.0f, 300.0f, 0.5f, &VP, c.proj, c.view, RP_GL);
        }
    }
    /* viewports of zero or negative size */
    const rp_viewport empty[4] = {{0, 0, 0, 600}, {0, 0, 800, 0}, {0, 0, -800, 600},
                                  {0, 0, 800, -600}};
    for (int i = 0; i < 4; i++) {
        assert_project_rejected(p, &empty[i], cam.proj, cam.view, RP_GL);
        assert_unproject_rejected(10.0f, 10.0f, 0.5f, &empty[i], cam.proj, cam.view, RP_GL);
    }
    /* singular matrices: all zeros, near == far, a flattening view */
    mat4 zero = GLM_MAT4_ZERO_INIT, flat_proj, flat_view;
    assert_project_rejected(p, &VP, zero, cam.view, RP_GL);
    assert_unproject_rejected(500.0f, 300.0f, 0.5f, &VP, zero, cam.view, RP_GL);
    glm_mat4_copy(cam.proj, flat_proj);
    flat_proj[2][2] = 0.0f;
    flat_proj[3][2] = 0.0f;   /* depth row zero: every point at one depth */
    assert_project_rejected(p, &VP, flat_proj, cam.view, RP_GL);
    assert_unproject_rejected(500.0f, 300.0f, 0.5f, &VP, flat_proj, cam.view, RP_GL);
    glm_mat4_copy(cam.view, flat_view);
    glm_vec4_zero(flat_view[1]);   /* world y ignored */
    assert_project_rejected(p, &VP, cam.proj, flat_view, RP_GL);
    assert_unproject_rejected(500.0f, 300.0f, 0.5f, &VP, cam.proj, flat_view, RP_GL);
}

/* Results that do not fit a float are refused, not infinite. */
static void overflow_is_refused(void **state)
{
    (void)state;
    camera cam;
    make_camera(5, false, &cam);   /* orthographic: the depth is linear */
    assert_unproject_rejected(500.0f, 300.0f, 1e37f, &VP, cam.proj, cam.view, RP_D3D);
    const vec3 far_away = {0.0f, 0.0f, 3e38f};
    mat4 huge_scale = GLM_MAT4_IDENTITY_INIT;
    huge_scale[0][0] = huge_scale[1][1] = huge_scale[2][2] = 1e30f;
    assert_project_rejected(far_away, &VP, cam.proj, huge_scale, RP_D3D);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(project_matches_reference),
        cmocka_unit_test(project_matches_glm_project),
        cmocka_unit_test(behind_the_camera_is_refused),
        cmocka_unit_test(depth_zero_and_one_are_near_and_far),
        cmocka_unit_test(round_trips_in_both_conventions),
        cmocka_unit_test(depth_outside_range_extrapolates),
        cmocka_unit_test(invalid_input_is_refused),
        cmocka_unit_test(overflow_is_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

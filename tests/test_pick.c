/* test_pick.c: pick rays, the D3D9 way (CalculateRay + TransformRay) and the
   XNA way (Viewport.Unproject), in the GL and the D3D conventions. */
#define CGLM_CLIPSPACE_INCLUDE_ALL   /* the *_lh_zo builders beside the GL ones */

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <float.h>
#include <math.h>
#include <string.h>
#include <cmocka.h>

#include <raypick/pick.h>

/* ------------------------------------------------------------ the scene */

#define WINDOW_W 1280.0f
#define WINDOW_H 800.0f
#define FOVY     glm_rad(60.0f)
#define NEAR_Z   0.1f
#define FAR_Z    1000.0f

static const rp_viewport VP_FULL = {0.0f, 0.0f, WINDOW_W, WINDOW_H};
/* a viewport that does not start at the window's corner */
static const rp_viewport VP_OFFSET = {100.0f, 40.0f, 960.0f, 640.0f};

/* The eye stays near the world origin on purpose: a float ray origin on a
   0.1 near plane is only as exact as float coordinates of |EYE| allow
   (half an ulp of |EYE| / near, times the pixels per unit of tangent), and
   glm_project adds its own float error; at |EYE| ~ 6 the two together use
   most of the 0.01 px budget. */
static const vec3 EYE = {1.2f, 0.8f, 2.0f};
static const vec3 TARGET = {0.0f, 0.2f, 0.0f};
static const vec3 UP = {0.0f, 1.0f, 0.0f};

/* orthographic and off-centre bounds: deliberately asymmetric */
static const float ORTHO_L = -3.0f, ORTHO_R = 5.0f, ORTHO_B = -2.0f, ORTHO_T = 3.0f;
static const float ORTHO_N = 0.5f, ORTHO_F = 50.0f;
static const float FRUST_L = -0.08f, FRUST_R = 0.03f, FRUST_B = -0.02f, FRUST_T = 0.05f;

static const rp_convention CONVENTIONS[] = {RP_GL, RP_D3D};

typedef enum projection_kind {
    PERSPECTIVE,
    ORTHOGRAPHIC,
    OFF_CENTRE,          /* glm_frustum (GL) / D3DXMatrixPerspectiveOffCenterLH */
    OFF_CENTRE_CGLM_LH,  /* glm_frustum_lh_zo for D3D (see off_centre_d3dx) */
} projection_kind;

typedef struct camera {
    mat4 proj, view;
    rp_convention conv;
} camera;

static void view_matrix(rp_convention conv, mat4 view)
{
    vec3 eye, target, up;
    glm_vec3_copy((float *)EYE, eye);
    glm_vec3_copy((float *)TARGET, target);
    glm_vec3_copy((float *)UP, up);
    if (conv == RP_D3D)
        glm_lookat_lh(eye, target, up, view);     /* D3DXMatrixLookAtLH */
    else
        glm_lookat(eye, target, up, view);        /* gluLookAt */
}

/* D3DXMatrixPerspectiveOffCenterLH, written from its documented formula:
   _31 = (l + r) / (l - r), _32 = (t + b) / (b - t). cglm 0.8.8's
   glm_frustum_lh_zo has the opposite sign there, so its frustum is the
   mirror image [-r, -l] x [-t, -b]; still a valid off-centre projection. */
static void off_centre_d3dx(float l, float r, float b, float t, float n, float f, mat4 m)
{
    glm_mat4_zero(m);
    m[0][0] = 2.0f * n / (r - l);
    m[1][1] = 2.0f * n / (t - b);
    m[2][0] = (l + r) / (l - r);
    m[2][1] = (t + b) / (b - t);
    m[2][2] = f / (f - n);
    m[2][3] = 1.0f;
    m[3][2] = n * f / (n - f);
}

static void make_camera(rp_convention conv, projection_kind kind, const rp_viewport *vp,
                        camera *cam)
{
    float aspect = vp->width / vp->height;
    cam->conv = conv;
    view_matrix(conv, cam->view);
    switch (kind) {
    case PERSPECTIVE:
        if (conv == RP_D3D)
            glm_perspective_lh_zo(FOVY, aspect, NEAR_Z, FAR_Z, cam->proj);
        else
            glm_perspective(FOVY, aspect, NEAR_Z, FAR_Z, cam->proj);
        break;
    case ORTHOGRAPHIC:
        if (conv == RP_D3D)
            glm_ortho_lh_zo(ORTHO_L, ORTHO_R, ORTHO_B, ORTHO_T, ORTHO_N, ORTHO_F, cam->proj);
        else
            glm_ortho(ORTHO_L, ORTHO_R, ORTHO_B, ORTHO_T, ORTHO_N, ORTHO_F, cam->proj);
        break;
    case OFF_CENTRE:
        if (conv == RP_D3D)
            off_centre_d3dx(FRUST_L, FRUST_R, FRUST_B, FRUST_T, NEAR_Z, FAR_Z, cam->proj);
        else
            glm_frustum(FRUST_L, FRUST_R, FRUST_B, FRUST_T, NEAR_Z, FAR_Z, cam->proj);
        break;
    case OFF_CENTRE_CGLM_LH:
        if (conv == RP_D3D)
            glm_frustum_lh_zo(FRUST_L, FRUST_R, FRUST_B, FRUST_T, NEAR_Z, FAR_Z, cam->proj);
        else
            glm_frustum(FRUST_L, FRUST_R, FRUST_B, FRUST_T, NEAR_Z, FAR_Z, cam->proj);
        break;
    }
}

/* centre, the four corners, and two points off any symmetry line */
static void viewport_pixels(const rp_viewport *vp, vec2 px[7])
{
    const float fx[7] = {0.5f, 0.0f, 1.0f, 0.0f, 1.0f, 0.3f, 0.85f};
    const float fy[7] = {0.5f, 0.0f, 0.0f, 1.0f, 1.0f, 0.8f, 0.15f};
    for (int i = 0; i < 7; ++i) {
        px[i][0] = vp->x + fx[i] * vp->width + (i >= 5 ? 0.25f : 0.0f);
        px[i][1] = vp->y + fy[i] * vp->height + (i >= 5 ? 0.5f : 0.0f);
    }
}

/* ------------------------------------------- the tutorial, done by hand */

/* CalculateRay as seed 001 writes it, in float, reading _11 and _22 only.
   with_offset = false is the tutorial verbatim; true subtracts the
   viewport's corner, which the tutorial forgot. forward_z is its +1 for
   D3D, -1 for GL. */
static rp_ray tutorial_calculate_ray(float x, float y, const rp_viewport *vp, mat4 proj,
                                     float forward_z, bool with_offset)
{
    if (with_offset) {
        x -= vp->x;
        y -= vp->y;
    }
    float px = (((2.0f * x) / vp->width) - 1.0f) / proj[0][0];    /* _11 */
    float py = (((-2.0f * y) / vp->height) + 1.0f) / proj[1][1];  /* _22 */
    rp_ray ray = {{0.0f, 0.0f, 0.0f}, {px, py, forward_z}};
    return ray;
}

/* D3DXVec3TransformCoord: row vector times D3DXMATRIX, divided by w. The
   D3DX element _ij is m[i-1][j-1] of the cglm matrix (same floats). */
static void d3dx_vec3_transform_coord(const vec3 v, mat4 m, vec3 out)
{
    float x = v[0] * m[0][0] + v[1] * m[1][0] + v[2] * m[2][0] + m[3][0];  /* _11 _21 _31 _41 */
    float y = v[0] * m[0][1] + v[1] * m[1][1] + v[2] * m[2][1] + m[3][1];
    float z = v[0] * m[0][2] + v[1] * m[1][2] + v[2] * m[2][2] + m[3][2];
    float w = v[0] * m[0][3] + v[1] * m[1][3] + v[2] * m[2][3] + m[3][3];
    out[0] = x / w;
    out[1] = y / w;
    out[2] = z / w;
}

/* D3DXVec3TransformNormal: the same without the translation row _41.._43. */
static void d3dx_vec3_transform_normal(const vec3 v, mat4 m, vec3 out)
{
    vec3 r;
    r[0] = v[0] * m[0][0] + v[1] * m[1][0] + v[2] * m[2][0];
    r[1] = v[0] * m[0][1] + v[1] * m[1][1] + v[2] * m[2][1];
    r[2] = v[0] * m[0][2] + v[1] * m[1][2] + v[2] * m[2][2];
    glm_vec3_copy(r, out);
}

static rp_ray tutorial_transform_ray(rp_ray ray, mat4 t)
{
    rp_ray out;
    d3dx_vec3_transform_coord(ray.origin, t, out.origin);
    d3dx_vec3_transform_normal(ray.dir, t, out.dir);
    glm_vec3_normalize(out.dir);                   /* D3DXVec3Normalize */
    return out;
}

/* The click handler: GetTransform(D3DTS_VIEW), D3DXMatrixInverse, TransformRay. */
static rp_ray tutorial_ray(float x, float y, const rp_viewport *vp, const camera *cam,
                           bool with_offset)
{
    mat4 view, inv_view, proj;
    glm_mat4_copy((vec4 *)cam->view, view);
    glm_mat4_copy((vec4 *)cam->proj, proj);
    glm_mat4_inv(view, inv_view);
    float forward_z = cam->conv == RP_D3D ? 1.0f : -1.0f;
    return tutorial_transform_ray(
        tutorial_calculate_ray(x, y, vp, proj, forward_z, with_offset), inv_view);
}

/* ------------------------------------------------- projecting back */

/* World point to (pixel x, pixel y down, depth in [0, 1]). GL: glm_project
   takes a GL viewport (origin bottom-left of the window, y up), so the
   rp_viewport is flipped on the way in and the pixel on the way out. */
static void project_gl(const vec3 p, mat4 proj, mat4 view, const rp_viewport *vp, vec3 out)
{
    mat4 pv;
    vec3 pos, win;
    glm_mat4_mul(proj, view, pv);
    glm_vec3_copy((float *)p, pos);
    vec4 gl_vp = {vp->x, WINDOW_H - (vp->y + vp->height), vp->width, vp->height};
    glm_project(pos, pv, gl_vp, win);
    out[0] = win[0];
    out[1] = WINDOW_H - win[1];
    out[2] = win[2];
}

/* D3D: the viewport transform of D3D9 with MinZ = 0, MaxZ = 1. */
static void project_d3d(const vec3 p, mat4 proj, mat4 view, const rp_viewport *vp, vec3 out)
{
    mat4 pv;
    vec4 clip;
    glm_mat4_mul(proj, view, pv);
    glm_mat4_mulv(pv, (vec4){p[0], p[1], p[2], 1.0f}, clip);
    out[0] = vp->x + (clip[0] / clip[3] + 1.0f) * 0.5f * vp->width;
    out[1] = vp->y + (1.0f - clip[1] / clip[3]) * 0.5f * vp->height;
    out[2] = clip[2] / clip[3];
}

static void project(const camera *cam, const rp_viewport *vp, const vec3 p, vec3 out)
{
    if (cam->conv == RP_D3D)
        project_d3d(p, (vec4 *)cam->proj, (vec4 *)cam->view, vp, out);
    else
        project_gl(p, (vec4 *)cam->proj, (vec4 *)cam->view, vp, out);
}

/* ------------------------------------------------------------ helpers */

static void assert_vec3_near(const vec3 a, const vec3 b, float eps)
{
    for (int i = 0; i < 3; ++i)
        assert_float_equal(a[i], b[i], eps);
}

static void forward(vec3 out)
{
    glm_vec3_sub((float *)TARGET, (float *)EYE, out);
    glm_vec3_normalize(out);
}

static float distance_to_line(const vec3 p, const rp_ray *ray)
{
    vec3 d, c;
    glm_vec3_sub((float *)p, (float *)ray->origin, d);
    glm_vec3_cross(d, (float *)ray->dir, c);
    return glm_vec3_norm(c) / glm_vec3_norm((float *)ray->dir);
}

static void to_view_space(const camera *cam, const vec3 p, vec3 out)
{
    glm_mat4_mulv3((vec4 *)cam->view, (float *)p, 1.0f, out);
}

typedef bool (*pick_fn)(float, float, const rp_viewport *, mat4, mat4, rp_convention,
                        rp_ray *);

/* ----------------------------------------- the D3D9 method, by the book */

static void perspective_matches_tutorial(void **state)
{
    (void)state;
    const rp_viewport *vps[] = {&VP_FULL, &VP_OFFSET};
    for (int c = 0; c < 2; ++c)
        for (int v = 0; v < 2; ++v) {
            camera cam;
            make_camera(CONVENTIONS[c], PERSPECTIVE, vps[v], &cam);
            vec2 px[7];
            viewport_pixels(vps[v], px);
            for (int i = 0; i < 5; ++i) {     /* centre and the four corners */
                rp_ray ray;
                assert_true(rp_pick_ray_perspective(px[i][0], px[i][1], vps[v],
                                                    cam.proj, cam.view, cam.conv, &ray));
                rp_ray expect = tutorial_ray(px[i][0], px[i][1], vps[v], &cam, true);
                assert_vec3_near(ray.origin, expect.origin, 1e-5f);
                assert_vec3_near(ray.dir, expect.dir, 1e-5f);
                assert_vec3_near(ray.origin, EYE, 1e-5f);
                assert_float_equal(glm_vec3_norm(ray.dir), 1.0f, 1e-6f);
                if (v == 0) {   /* at the window's corner the tutorial is right as written */
                    rp_ray verbatim = tutorial_ray(px[i][0], px[i][1], vps[v], &cam, false);
                    assert_vec3_near(ray.dir, verbatim.dir, 1e-5f);
                }
            }
        }
}

static void tutorial_without_offset_misses_in_offset_viewport(void **state)
{
    (void)state;
    for (int c = 0; c < 2; ++c) {
        camera cam;
        make_camera(CONVENTIONS[c], PERSPECTIVE, &VP_OFFSET, &cam);
        vec2 px[7];
        viewport_pixels(&VP_OFFSET, px);
        for (int i = 0; i < 7; ++i) {
            rp_ray ours, verbatim = tutorial_ray(px[i][0], px[i][1], &VP_OFFSET, &cam, false);
            assert_true(rp_pick_ray_perspective(px[i][0], px[i][1], &VP_OFFSET,
                                                cam.proj, cam.view, cam.conv, &ours));
            vec3 p_ours, p_verbatim, back_ours, back_verbatim;
            rp_ray_at(&ours, 10.0f, p_ours);
            rp_ray_at(&verbatim, 10.0f, p_verbatim);
            project(&cam, &VP_OFFSET, p_ours, back_ours);
            project(&cam, &VP_OFFSET, p_verbatim, back_verbatim);
            assert_float_equal(back_ours[0], px[i][0], 0.01f);
            assert_float_equal(back_ours[1], px[i][1], 0.01f);
            /* the tutorial's ray lands exactly one viewport offset away */
            assert_float_equal(back_verbatim[0], px[i][0] + VP_OFFSET.x, 0.01f);
            assert_float_equal(back_verbatim[1], px[i][1] + VP_OFFSET.y, 0.01f);
        }
    }
}

static void centre_click_looks_forward(void **state)
{
    (void)state;
    const rp_viewport *vps[] = {&VP_FULL, &VP_OFFSET};
    vec3 fwd;
    forward(fwd);
    for (int c = 0; c < 2; ++c)
        for (int v = 0; v < 2; ++v) {
            camera cam;
            make_camera(CONVENTIONS[c], PERSPECTIVE, vps[v], &cam);
            float cx = vps[v]->x + 0.5f * vps[v]->width;
            float cy = vps[v]->y + 0.5f * vps[v]->height;
            rp_ray ray, unproj;
            assert_true(rp_pick_ray_perspective(cx, cy, vps[v], cam.proj, cam.view,
                                                cam.conv, &ray));
            assert_vec3_near(ray.dir, fwd, 1e-6f);
            assert_vec3_near(ray.origin, EYE, 1e-5f);
            assert_true(rp_pick_ray_unproject(cx, cy, vps[v], cam.proj, cam.view,
                                              cam.conv, &unproj));
            glm_vec3_normalize(unproj.dir);
            assert_vec3_near(unproj.dir, fwd, 1e-6f);
            /* origin on the near plane, straight ahead */
            vec3 near_point;
            glm_vec3_scale(fwd, NEAR_Z, near_point);
            glm_vec3_add(near_point, (float *)EYE, near_point);
            assert_vec3_near(unproj.origin, near_point, 1e-5f);
        }
}

/* A right click should be on the right: GL mirrors z, not x. */
static void screen_right_is_camera_right(void **state)
{
    (void)state;
    vec3 fwd, right;
    forward(fwd);
    glm_vec3_crossn(fwd, (float *)UP, right);     /* right-handed world */
    for (int c = 0; c < 2; ++c) {
        camera cam;
        make_camera(CONVENTIONS[c], PERSPECTIVE, &VP_FULL, &cam);
        rp_ray ray;
        assert_true(rp_pick_ray_perspective(WINDOW_W, 0.5f * WINDOW_H, &VP_FULL,
                                            cam.proj, cam.view, cam.conv, &ray));
        float side = glm_vec3_dot(ray.dir, right);
        /* D3D's left-handed lookat puts +x of the screen on the other side
           of a right-handed world: the mirror image D3D ports must expect. */
        if (cam.conv == RP_GL)
            assert_true(side > 0.3f);
        else
            assert_true(side < -0.3f);
    }
}

/* --------------------------------------------------------- round trips */

static float round_trip_worst;

static void check_round_trip(const camera *cam, const rp_viewport *vp, pick_fn pick,
                             const float *ts, int n_ts, bool depth_is_t)
{
    vec2 px[7];
    viewport_pixels(vp, px);
    for (int i = 0; i < 7; ++i) {
        rp_ray ray;
        assert_true(pick(px[i][0], px[i][1], vp, (vec4 *)cam->proj, (vec4 *)cam->view,
                         cam->conv, &ray));
        for (int k = 0; k < n_ts; ++k) {
            vec3 p, back;
            rp_ray_at(&ray, ts[k], p);
            project(cam, vp, p, back);
            float err = fmaxf(fabsf(back[0] - px[i][0]), fabsf(back[1] - px[i][1]));
            round_trip_worst = fmaxf(round_trip_worst, err);
            assert_float_equal(back[0], px[i][0], 0.01f);
            assert_float_equal(back[1], px[i][1], 0.01f);
            if (depth_is_t && (ts[k] == 0.0f || ts[k] == 1.0f))
                assert_float_equal(back[2], ts[k], 1e-4f);   /* near and far planes */
        }
    }
}

static void unproject_round_trips(void **state)
{
    (void)state;
    const projection_kind kinds[] = {PERSPECTIVE, ORTHOGRAPHIC, OFF_CENTRE, OFF_CENTRE_CGLM_LH};
    const rp_viewport *vps[] = {&VP_FULL, &VP_OFFSET};
    const float ts[] = {0.0f, 1e-4f, 0.01f, 0.5f, 1.0f};
    round_trip_worst = 0.0f;
    for (int c = 0; c < 2; ++c)
        for (int k = 0; k < 4; ++k)
            for (int v = 0; v < 2; ++v) {
                camera cam;
                make_camera(CONVENTIONS[c], kinds[k], vps[v], &cam);
                check_round_trip(&cam, vps[v], rp_pick_ray_unproject, ts, 5, true);
            }
    print_message("unproject: worst round trip %.5f px\n", (double)round_trip_worst);
}

static void perspective_round_trips(void **state)
{
    (void)state;
    const rp_viewport *vps[] = {&VP_FULL, &VP_OFFSET};
    const float ts[] = {0.2f, 1.0f, 10.0f, 100.0f, 900.0f};   /* unit dir: distances */
    round_trip_worst = 0.0f;
    for (int c = 0; c < 2; ++c)
        for (int v = 0; v < 2; ++v) {
            camera cam;
            make_camera(CONVENTIONS[c], PERSPECTIVE, vps[v], &cam);
            check_round_trip(&cam, vps[v], rp_pick_ray_perspective, ts, 5, false);
        }
    print_message("perspective: worst round trip %.5f px\n", (double)round_trip_worst);
}

static void methods_agree_for_symmetric_perspective(void **state)
{
    (void)state;
    const rp_viewport *vps[] = {&VP_FULL, &VP_OFFSET};
    for (int c = 0; c < 2; ++c)
        for (int v = 0; v < 2; ++v) {
            camera cam;
            make_camera(CONVENTIONS[c], PERSPECTIVE, vps[v], &cam);
            vec2 px[7];
            viewport_pixels(vps[v], px);
            for (int i = 0; i < 7; ++i) {
                rp_ray a, b;
                assert_true(rp_pick_ray_perspective(px[i][0], px[i][1], vps[v], cam.proj,
                                                    cam.view, cam.conv, &a));
                assert_true(rp_pick_ray_unproject(px[i][0], px[i][1], vps[v], cam.proj,
                                                  cam.view, cam.conv, &b));
                glm_vec3_normalize(b.dir);
                assert_vec3_near(a.dir, b.dir, 1e-5f);
                /* same line: the near point lies on the ray from the eye */
                assert_true(distance_to_line(b.origin, &a) < 1e-5f);
            }
        }
}

/* ------------------------------------- orthographic and off-centre */

/* The corners of the viewport must reach the corners of the view volume:
   (l, t) top-left, (r, b) bottom-right, on the near and the far plane. */
static void check_corners(const camera *cam, const rp_viewport *vp,
                          const float near_lt[3], const float near_rb[3],
                          const float far_lt[3], const float far_rb[3], float eps)
{
    const float xs[2] = {vp->x, vp->x + vp->width};
    const float ys[2] = {vp->y, vp->y + vp->height};
    const float *nears[2] = {near_lt, near_rb}, *fars[2] = {far_lt, far_rb};
    for (int i = 0; i < 2; ++i) {
        rp_ray ray, untouched;
        memset(&untouched, 0x5a, sizeof untouched);
        rp_ray sentinel = untouched;
        assert_true(rp_pick_ray_unproject(xs[i], ys[i], vp, (vec4 *)cam->proj,
                                          (vec4 *)cam->view, cam->conv, &ray));
        vec3 o, f, far_world;
        rp_ray_at(&ray, 1.0f, far_world);
        to_view_space(cam, ray.origin, o);
        to_view_space(cam, far_world, f);
        assert_vec3_near(o, nears[i], eps);
        /* Where the far plane lands moves by (far / near) times the float
           rounding of the matrix (1e4 * 6e-8 here): check its depth loosely
           and the corner's direction tightly. */
        assert_float_equal(f[2], fars[i][2], 1e-3f * fabsf(fars[i][2]));
        glm_vec3_scale(f, fars[i][2] / f[2], f);
        assert_vec3_near(f, fars[i], eps * fabsf(fars[i][2]));
        /* the D3D9 method cannot do it, and says so */
        assert_false(rp_pick_ray_perspective(xs[i], ys[i], vp, (vec4 *)cam->proj,
                                             (vec4 *)cam->view, cam->conv, &untouched));
        assert_memory_equal(&untouched, &sentinel, sizeof sentinel);
    }
}

static void orthographic_unprojects_and_perspective_refuses(void **state)
{
    (void)state;
    vec3 fwd;
    forward(fwd);
    for (int c = 0; c < 2; ++c) {
        camera cam;
        make_camera(CONVENTIONS[c], ORTHOGRAPHIC, &VP_OFFSET, &cam);
        float s = cam.conv == RP_D3D ? 1.0f : -1.0f;   /* view-space forward z */
        const float n_lt[3] = {ORTHO_L, ORTHO_T, s * ORTHO_N};
        const float n_rb[3] = {ORTHO_R, ORTHO_B, s * ORTHO_N};
        const float f_lt[3] = {ORTHO_L, ORTHO_T, s * ORTHO_F};
        const float f_rb[3] = {ORTHO_R, ORTHO_B, s * ORTHO_F};
        check_corners(&cam, &VP_OFFSET, n_lt, n_rb, f_lt, f_rb, 1e-4f);

        /* every ray is parallel to the view direction, length far - near */
        vec2 px[7];
        viewport_pixels(&VP_OFFSET, px);
        for (int i = 0; i < 7; ++i) {
            rp_ray ray;
            assert_true(rp_pick_ray_unproject(px[i][0], px[i][1], &VP_OFFSET, cam.proj,
                                              cam.view, cam.conv, &ray));
            vec3 expect;
            glm_vec3_scale(fwd, ORTHO_F - ORTHO_N, expect);
            assert_vec3_near(ray.dir, expect, 1e-4f);
        }
    }
}

static void off_centre_unprojects_and_perspective_refuses(void **state)
{
    (void)state;
    const float k = FAR_Z / NEAR_Z;
    for (int c = 0; c < 2; ++c) {
        camera cam;
        make_camera(CONVENTIONS[c], OFF_CENTRE, &VP_OFFSET, &cam);
        float s = cam.conv == RP_D3D ? 1.0f : -1.0f;
        const float n_lt[3] = {FRUST_L, FRUST_T, s * NEAR_Z};
        const float n_rb[3] = {FRUST_R, FRUST_B, s * NEAR_Z};
        const float f_lt[3] = {k * FRUST_L, k * FRUST_T, s * FAR_Z};
        const float f_rb[3] = {k * FRUST_R, k * FRUST_B, s * FAR_Z};
        check_corners(&cam, &VP_OFFSET, n_lt, n_rb, f_lt, f_rb, 1e-5f);

        /* a perspective frustum, off-centre or not: every ray comes from the eye */
        vec2 px[7];
        viewport_pixels(&VP_OFFSET, px);
        for (int i = 0; i < 7; ++i) {
            rp_ray ray;
            assert_true(rp_pick_ray_unproject(px[i][0], px[i][1], &VP_OFFSET, cam.proj,
                                              cam.view, cam.conv, &ray));
            assert_true(distance_to_line(EYE, &ray) < 1e-5f);
        }
    }
    /* cglm's own LH off-centre matrix is refused too */
    camera cam;
    make_camera(RP_D3D, OFF_CENTRE_CGLM_LH, &VP_OFFSET, &cam);
    assert_false(rp_pick_ray_perspective(500.0f, 300.0f, &VP_OFFSET, cam.proj, cam.view,
                                         RP_D3D, NULL));
}

/* ---------------------------------------- matrices the D3D9 way reads */

/* Every entry of the x, y and w rows that _11/_22 do not read changes where
   a pixel's ray goes: one at a time, each must make the D3D9 method refuse,
   while unproject still gives the right ray. [2][0] alone and [2][1] alone
   are the off-centre cases (a lens shift in x or in y); [3][3] alone is
   half-way to orthographic. */
static void perspective_refuses_any_entry_it_cannot_read(void **state)
{
    (void)state;
    const int entries[9][2] = {{1, 0}, {2, 0}, {3, 0}, {0, 1}, {2, 1}, {3, 1},
                               {0, 3}, {1, 3}, {3, 3}};
    const float ts[] = {0.0f, 0.5f, 1.0f};
    for (int c = 0; c < 2; ++c)
        for (int e = 0; e < 9; ++e) {
            camera cam;
            make_camera(CONVENTIONS[c], PERSPECTIVE, &VP_OFFSET, &cam);
            cam.proj[entries[e][0]][entries[e][1]] = 0.05f;
            rp_ray out, sentinel;
            memset(&out, 0x77, sizeof out);
            sentinel = out;
            assert_false(rp_pick_ray_perspective(400.0f, 300.0f, &VP_OFFSET, cam.proj,
                                                 cam.view, cam.conv, &out));
            assert_memory_equal(&out, &sentinel, sizeof out);
            check_round_trip(&cam, &VP_OFFSET, rp_pick_ray_unproject, ts, 3, false);
        }
}

/* A projection scaled by k > 0 is the same projection (clip space is
   homogeneous): both methods must give the same ray. */
static void scaled_projection_gives_same_ray(void **state)
{
    (void)state;
    for (int c = 0; c < 2; ++c) {
        camera cam, scaled;
        make_camera(CONVENTIONS[c], PERSPECTIVE, &VP_OFFSET, &cam);
        scaled = cam;
        glm_mat4_scale(scaled.proj, 2.5f);
        rp_ray a, b;
        assert_true(rp_pick_ray_perspective(300.0f, 500.0f, &VP_OFFSET, cam.proj,
                                            cam.view, cam.conv, &a));
        assert_true(rp_pick_ray_perspective(300.0f, 500.0f, &VP_OFFSET, scaled.proj,
                                            scaled.view, cam.conv, &b));
        assert_vec3_near(a.dir, b.dir, 1e-6f);
        assert_true(rp_pick_ray_unproject(300.0f, 500.0f, &VP_OFFSET, cam.proj,
                                          cam.view, cam.conv, &a));
        assert_true(rp_pick_ray_unproject(300.0f, 500.0f, &VP_OFFSET, scaled.proj,
                                          scaled.view, cam.conv, &b));
        assert_vec3_near(a.origin, b.origin, 1e-5f);
        /* the far point is ill-conditioned (far / near = 1e4 times float
           rounding of the scaled matrix); its direction is not */
        glm_vec3_normalize(a.dir);
        glm_vec3_normalize(b.dir);
        assert_vec3_near(a.dir, b.dir, 1e-6f);
    }
}

/* The handedness is in the matrix (the sign of _34), the convention is the
   depth range only. Each of cglm's four builders, passed with the conv of
   its depth range (_no: RP_GL, _zo: RP_D3D), and seen through either a
   right- or a left-handed view matrix, gives the same ray from both
   methods: a D3D port rendered with glm_perspective_lh_no and a GL program
   using glClipControl (glm_perspective_rh_zo) both pick right. The ray goes
   through what the pixel shows (projecting a point on it lands on the
   pixel), depth 0 and 1 land on the near and far planes, and the
   perspective ray does not depend on conv at all. */
static void every_cglm_builder_gives_the_same_ray_from_both_methods(void **state)
{
    (void)state;
    typedef void (*builder)(float, float, float, float, mat4);
    const builder builders[4] = {glm_perspective_rh_no, glm_perspective_rh_zo,
                                 glm_perspective_lh_no, glm_perspective_lh_zo};
    const rp_convention convs[4] = {RP_GL, RP_D3D, RP_GL, RP_D3D};
    const float forward_z[4] = {-1.0f, -1.0f, 1.0f, 1.0f};
    vec2 px[7];
    viewport_pixels(&VP_OFFSET, px);
    for (int b = 0; b < 4; ++b)
        for (int v = 0; v < 2; ++v) {
            camera cam;
            cam.conv = convs[b];
            builders[b](FOVY, VP_OFFSET.width / VP_OFFSET.height, NEAR_Z, FAR_Z, cam.proj);
            view_matrix(v == 0 ? RP_GL : RP_D3D, cam.view);   /* lookat rh, lh */
            assert_float_equal(cam.proj[2][3], forward_z[b], 0.0f);
            for (int i = 0; i < 7; ++i) {
                rp_ray persp, unproj, other_conv;
                assert_true(rp_pick_ray_perspective(px[i][0], px[i][1], &VP_OFFSET, cam.proj,
                                                    cam.view, cam.conv, &persp));
                assert_true(rp_pick_ray_unproject(px[i][0], px[i][1], &VP_OFFSET, cam.proj,
                                                  cam.view, cam.conv, &unproj));
                assert_true(rp_pick_ray_perspective(px[i][0], px[i][1], &VP_OFFSET, cam.proj,
                                                    cam.view,
                                                    cam.conv == RP_GL ? RP_D3D : RP_GL,
                                                    &other_conv));
                assert_memory_equal(&persp, &other_conv, sizeof persp);
                /* same line, same way: unproject's origin is on the
                   perspective ray, in front of the eye, and the directions agree */
                assert_vec3_near(persp.origin, EYE, 1e-5f);
                assert_true(distance_to_line(unproj.origin, &persp) < 1e-5f);
                vec3 to_near, unit;
                glm_vec3_sub(unproj.origin, persp.origin, to_near);
                assert_true(glm_vec3_dot(to_near, persp.dir) > 0.0f);
                glm_vec3_normalize_to(unproj.dir, unit);
                assert_vec3_near(unit, persp.dir, 1e-5f);
                /* through the pixel, near plane at depth 0, far at depth 1 */
                vec3 near_view, far_view, mid, back;
                vec3 far_point;
                rp_ray_at(&unproj, 1.0f, far_point);
                to_view_space(&cam, unproj.origin, near_view);
                to_view_space(&cam, far_point, far_view);
                assert_float_equal(near_view[2] * forward_z[b], NEAR_Z, 1e-4f);
                assert_float_equal(far_view[2] * forward_z[b], FAR_Z, 2.0f);
                rp_ray_at(&persp, 10.0f, mid);
                project_d3d(mid, cam.proj, cam.view, &VP_OFFSET, back);
                assert_float_equal(back[0], px[i][0], 0.01f);
                assert_float_equal(back[1], px[i][1], 0.01f);
            }
        }
}

/* TransformRay moves the direction with w = 0: right only for an affine
   view matrix. Unproject inverts proj * view and does not care. */
static void perspective_refuses_projective_view(void **state)
{
    (void)state;
    camera cam;
    make_camera(RP_GL, PERSPECTIVE, &VP_FULL, &cam);
    cam.view[0][3] = 0.05f;
    assert_false(rp_pick_ray_perspective(640.0f, 400.0f, &VP_FULL, cam.proj, cam.view,
                                         RP_GL, NULL));
    const float ts[] = {0.0f, 0.5f, 1.0f};
    check_round_trip(&cam, &VP_FULL, rp_pick_ray_unproject, ts, 3, true);
}

/* A far camera, a tiny near plane, a huge far plane: still not singular. */
static void extreme_but_valid_cameras_work(void **state)
{
    (void)state;
    mat4 proj, view;
    glm_perspective(FOVY, 1.6f, 0.01f, 1e5f, proj);
    glm_lookat((vec3){1e4f, 2e3f, -5e3f}, (vec3){1e4f + 1.0f, 2e3f, -5e3f}, (vec3){0, 1, 0},
               view);
    rp_ray a, b;
    assert_true(rp_pick_ray_perspective(640.0f, 400.0f, &VP_FULL, proj, view, RP_GL, &a));
    assert_true(rp_pick_ray_unproject(640.0f, 400.0f, &VP_FULL, proj, view, RP_GL, &b));
    assert_vec3_near(a.dir, (vec3){1, 0, 0}, 1e-5f);
    assert_true(b.dir[0] > 0.0f);
    glm_vec3_normalize(b.dir);
    assert_vec3_near(b.dir, (vec3){1, 0, 0}, 1e-4f);
}

/* ------------------------------------------------------ invalid input */

static void expect_rejected(pick_fn pick, float x, float y, const rp_viewport *vp,
                            mat4 proj, mat4 view, rp_convention conv)
{
    rp_ray out, sentinel;
    memset(&out, 0xa5, sizeof out);
    sentinel = out;
    assert_false(pick(x, y, vp, proj, view, conv, &out));
    assert_memory_equal(&out, &sentinel, sizeof out);
    assert_false(pick(x, y, vp, proj, view, conv, NULL));
}

static void rejects_every_invalid_input(void **state)
{
    (void)state;
    const pick_fn picks[] = {rp_pick_ray_perspective, rp_pick_ray_unproject};
    for (int f = 0; f < 2; ++f)
        for (int c = 0; c < 2; ++c) {
            pick_fn pick = picks[f];
            camera cam;
            make_camera(CONVENTIONS[c], PERSPECTIVE, &VP_OFFSET, &cam);
            rp_convention conv = cam.conv;
            float x = 400.0f, y = 300.0f;

            /* the valid call works, with and without an output */
            rp_ray ok;
            assert_true(pick(x, y, &VP_OFFSET, cam.proj, cam.view, conv, &ok));
            assert_true(pick(x, y, &VP_OFFSET, cam.proj, cam.view, conv, NULL));

            /* viewports */
            const rp_viewport bad_vps[] = {
                {100, 40, 0, 640}, {100, 40, 960, 0}, {100, 40, -960, 640},
                {100, 40, 960, -640}, {100, 40, NAN, 640}, {100, 40, 960, INFINITY},
                {NAN, 40, 960, 640}, {100, -INFINITY, 960, 640},
            };
            for (size_t i = 0; i < sizeof bad_vps / sizeof bad_vps[0]; ++i)
                expect_rejected(pick, x, y, &bad_vps[i], cam.proj, cam.view, conv);
            expect_rejected(pick, x, y, NULL, cam.proj, cam.view, conv);

            /* coordinates */
            expect_rejected(pick, NAN, y, &VP_OFFSET, cam.proj, cam.view, conv);
            expect_rejected(pick, x, NAN, &VP_OFFSET, cam.proj, cam.view, conv);
            expect_rejected(pick, INFINITY, y, &VP_OFFSET, cam.proj, cam.view, conv);
            expect_rejected(pick, x, -INFINITY, &VP_OFFSET, cam.proj, cam.view, conv);

            /* NaN and infinity in either matrix */
            camera bad = cam;
            bad.proj[3][2] = NAN;
            expect_rejected(pick, x, y, &VP_OFFSET, bad.proj, bad.view, conv);
            bad = cam;
            bad.proj[0][0] = INFINITY;
            expect_rejected(pick, x, y, &VP_OFFSET, bad.proj, bad.view, conv);
            bad = cam;
            bad.view[3][1] = NAN;
            expect_rejected(pick, x, y, &VP_OFFSET, bad.proj, bad.view, conv);
            bad = cam;
            bad.view[1][2] = -INFINITY;
            expect_rejected(pick, x, y, &VP_OFFSET, bad.proj, bad.view, conv);

            /* singular view: zero, two equal axes, lookat along its up vector */
            bad = cam;
            glm_mat4_zero(bad.view);
            expect_rejected(pick, x, y, &VP_OFFSET, bad.proj, bad.view, conv);
            bad = cam;
            glm_vec4_copy(bad.view[0], bad.view[1]);
            expect_rejected(pick, x, y, &VP_OFFSET, bad.proj, bad.view, conv);
            bad = cam;
            glm_scale(bad.view, (vec3){1.0f, 0.0f, 1.0f});
            expect_rejected(pick, x, y, &VP_OFFSET, bad.proj, bad.view, conv);
            bad = cam;
            if (conv == RP_D3D)
                glm_lookat_lh((vec3){0, 5, 0}, (vec3){0, 0, 0}, (vec3){0, 1, 0}, bad.view);
            else
                glm_lookat((vec3){0, 5, 0}, (vec3){0, 0, 0}, (vec3){0, 1, 0}, bad.view);
            expect_rejected(pick, x, y, &VP_OFFSET, bad.proj, bad.view, conv);

            /* singular projection: zero, near == far (depth collapsed), no width */
            bad = cam;
            glm_mat4_zero(bad.proj);
            expect_rejected(pick, x, y, &VP_OFFSET, bad.proj, bad.view, conv);
            bad = cam;
            bad.proj[3][2] = 0.0f;
            expect_rejected(pick, x, y, &VP_OFFSET, bad.proj, bad.view, conv);
            bad = cam;
            bad.proj[0][0] = 0.0f;
            expect_rejected(pick, x, y, &VP_OFFSET, bad.proj, bad.view, conv);

            /* NULL matrices, a convention that does not exist */
            expect_rejected(pick, x, y, &VP_OFFSET, NULL, cam.view, conv);
            expect_rejected(pick, x, y, &VP_OFFSET, cam.proj, NULL, conv);
            expect_rejected(pick, x, y, &VP_OFFSET, cam.proj, cam.view, (rp_convention)7);

            /* clicks absurdly far outside: a finite ray or a refusal, never
               an infinity (the far point of unproject overflows float) */
            const float huge[] = {1e30f, -1e37f, FLT_MAX, -FLT_MAX};
            for (size_t i = 0; i < sizeof huge / sizeof huge[0]; ++i) {
                rp_ray out, sentinel;
                memset(&out, 0xa5, sizeof out);
                sentinel = out;
                if (pick(huge[i], y, &VP_OFFSET, cam.proj, cam.view, conv, &out))
                    assert_true(rp_ray_is_valid(&out));
                else
                    assert_memory_equal(&out, &sentinel, sizeof out);
                memset(&out, 0xa5, sizeof out);
                if (pick(x, huge[i], &VP_OFFSET, cam.proj, cam.view, conv, &out))
                    assert_true(rp_ray_is_valid(&out));
                else
                    assert_memory_equal(&out, &sentinel, sizeof out);
            }
            expect_rejected(rp_pick_ray_unproject, FLT_MAX, y, &VP_OFFSET, cam.proj,
                            cam.view, conv);
        }
}

/* An infinite far plane has its depth-1 point at infinity: unproject cannot
   give dir = far - near, and says so rather than returning infinity. */
static void unproject_refuses_infinite_far_plane(void **state)
{
    (void)state;
    mat4 proj, view;
    glm_perspective(FOVY, 1.6f, NEAR_Z, FAR_Z, proj);
    proj[2][2] = -1.0f;              /* the limit far -> infinity */
    proj[3][2] = -2.0f * NEAR_Z;
    view_matrix(RP_GL, view);
    expect_rejected(rp_pick_ray_unproject, 640.0f, 400.0f, &VP_FULL, proj, view, RP_GL);
    /* the D3D9 method has no far plane and still works */
    rp_ray ray;
    assert_true(rp_pick_ray_perspective(640.0f, 400.0f, &VP_FULL, proj, view, RP_GL, &ray));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(perspective_matches_tutorial),
        cmocka_unit_test(tutorial_without_offset_misses_in_offset_viewport),
        cmocka_unit_test(centre_click_looks_forward),
        cmocka_unit_test(screen_right_is_camera_right),
        cmocka_unit_test(unproject_round_trips),
        cmocka_unit_test(perspective_round_trips),
        cmocka_unit_test(methods_agree_for_symmetric_perspective),
        cmocka_unit_test(orthographic_unprojects_and_perspective_refuses),
        cmocka_unit_test(off_centre_unprojects_and_perspective_refuses),
        cmocka_unit_test(perspective_refuses_any_entry_it_cannot_read),
        cmocka_unit_test(scaled_projection_gives_same_ray),
        cmocka_unit_test(every_cglm_builder_gives_the_same_ray_from_both_methods),
        cmocka_unit_test(perspective_refuses_projective_view),
        cmocka_unit_test(extreme_but_valid_cameras_work),
        cmocka_unit_test(rejects_every_invalid_input),
        cmocka_unit_test(unproject_refuses_infinite_far_plane),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

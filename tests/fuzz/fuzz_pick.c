/* fuzz_pick.c: pick rays in both styles and both conventions, and ray
   transforms, fed any bit pattern for every float.

   Input: byte 0 picks how floats are read (0 raw, 1 tame, 2 tame with an
   odd raw one, 3 a real camera: perspective or orthographic projection
   and a look-at view built from tame numbers; the click is then moved onto
   or near the viewport), byte 1 the convention
   (0 GL, 1 D3D, anything else an out-of-range enum value), then the mouse
   position, viewport, and either two raw matrices or the camera's
   parameters.

   For real cameras the ray is also checked against the projection: its
   points must project back onto the pixel that was clicked. */
#define CGLM_CLIPSPACE_INCLUDE_ALL
#include <float.h>
#include "fuzz_common.h"

typedef struct camera {
    mat4 proj, view;
    bool ortho;
    float near_z, far_z, fovy, half_h;
    vec3 forward;   /* unit, world space */
} camera;

/* World units per pixel at distance d in front of the camera. */
static float pixel_size(const camera *cam, const rp_viewport *vp, float d)
{
    float h = cam->ortho ? 2.0f * cam->half_h : 2.0f * d * tanf(0.5f * cam->fovy);
    return h / vp->height;
}

static float tame_in(fuzz_input *in, float lo, float hi)
{
    return lo + (hi - lo) * (float)fuzz_u8(in) / 255.0f;
}

/* false when the parameters make no camera at all (eye on the target, up
   along the view direction): then only the no-crash checks apply. */
static bool build_camera(fuzz_input *in, rp_convention conv, float aspect, camera *cam)
{
    cam->ortho = fuzz_u8(in) & 1;
    cam->near_z = tame_in(in, 0.05f, 10.0f);
    cam->far_z = cam->near_z * tame_in(in, 10.0f, 10000.0f);
    float fovy = cam->fovy = glm_rad(tame_in(in, 10.0f, 120.0f));
    float half_h = cam->half_h = tame_in(in, 0.5f, 50.0f);
    vec3 eye, target, up = {0, 1, 0};
    fuzz_vec3(in, 1, eye);
    fuzz_vec3(in, 1, target);

    vec3 fwd;
    glm_vec3_sub(target, eye, fwd);
    float len = glm_vec3_norm(fwd);
    if (len < 1e-3f || glm_vec3_norm(fwd) - fabsf(fwd[1]) < 1e-3f * len)
        return false;
    glm_vec3_scale(fwd, 1.0f / len, cam->forward);
    if (conv == RP_D3D) {
        if (cam->ortho)
            glm_ortho_lh_zo(-half_h * aspect, half_h * aspect, -half_h, half_h,
                            cam->near_z, cam->far_z, cam->proj);
        else
            glm_perspective_lh_zo(fovy, aspect, cam->near_z, cam->far_z, cam->proj);
        glm_lookat_lh(eye, target, up, cam->view);
    } else {
        if (cam->ortho)
            glm_ortho_rh_no(-half_h * aspect, half_h * aspect, -half_h, half_h,
                            cam->near_z, cam->far_z, cam->proj);
        else
            glm_perspective_rh_no(fovy, aspect, cam->near_z, cam->far_z, cam->proj);
        glm_lookat_rh(eye, target, up, cam->view);
    }
    return true;
}

/* Where world point p lands in the viewport, y down; false behind the eye. */
static bool project_to_pixels(const camera *cam, const rp_viewport *vp, const vec3 p,
                              float *px, float *py, float *ndc_z)
{
    mat4 pv;
    glm_mat4_mul((vec4 *)cam->proj, (vec4 *)cam->view, pv);
    vec4 w = {p[0], p[1], p[2], 1.0f}, c;
    glm_mat4_mulv(pv, w, c);
    if (!(c[3] > 1e-6f))
        return false;
    *px = vp->x + (c[0] / c[3] + 1.0f) * 0.5f * vp->width;
    *py = vp->y + (1.0f - c[1] / c[3]) * 0.5f * vp->height;
    *ndc_z = c[2] / c[3];
    return true;
}

/* p, at distance d in front of the camera, must project onto (x, y). The
   tolerance: what the float matrices lose (1e-3 of the viewport), plus
   what storing p in floats loses, which is large in pixels when p is far
   from the world origin and a pixel is small there. */
static void check_lands_on_pixel(const camera *cam, const rp_viewport *vp, const vec3 p,
                                 float d, float x, float y, const char *what)
{
    float px, py, z;
    if (!project_to_pixels(cam, vp, p, &px, &py, &z))
        fuzz_fail("%s: a point of the ray is behind the camera", what);
    float reach = fmaxf(glm_vec3_max((float *)p), -glm_vec3_min((float *)p));
    float tol = 1e-3f * fmaxf(vp->width, vp->height) + 0.05f +
                16.0f * FLT_EPSILON * reach / pixel_size(cam, vp, d);
    if (fabsf(px - x) > tol || fabsf(py - y) > tol)
        fuzz_fail("%s: clicked (%g, %g), the ray passes (%g, %g)", what,
                  (double)x, (double)y, (double)px, (double)py);
}

static void check_ray(const rp_ray *r, const char *what)
{
    if (!fuzz_vec3_finite(r->origin) || !fuzz_vec3_finite(r->dir))
        fuzz_fail("%s: non-finite ray", what);
    if (r->dir[0] == 0.0f && r->dir[1] == 0.0f && r->dir[2] == 0.0f)
        fuzz_fail("%s: zero direction", what);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_watchdog();
    fuzz_input in = {data, size, 0};
    int mode = fuzz_u8(&in) % 4;
    uint8_t conv_byte = fuzz_u8(&in);
    rp_convention conv = conv_byte < 128 ? (rp_convention)(conv_byte & 1)
                                         : (rp_convention)(int)conv_byte;
    bool known_conv = conv == RP_GL || conv == RP_D3D;

    int fmode = mode == 3 ? 1 : mode;
    float x = fuzz_float(&in, fmode), y = fuzz_float(&in, fmode);
    rp_viewport vp;
    vp.x = fuzz_float(&in, fmode);
    vp.y = fuzz_float(&in, fmode);
    vp.width = fuzz_float(&in, fmode);
    vp.height = fuzz_float(&in, fmode);

    camera cam;
    bool real_camera = false;
    if (mode == 3) {
        /* A real window: at least a pixel, clicked on or near it (far
           outside, the ray runs along the image plane and no single-
           precision check of it means anything). */
        vp.width = fabsf(vp.width) + 1.0f;
        vp.height = fabsf(vp.height) + 1.0f;
        x = vp.x + vp.width * tame_in(&in, -0.25f, 1.25f);
        y = vp.y + vp.height * tame_in(&in, -0.25f, 1.25f);
        if (known_conv) {
            float aspect = vp.width / vp.height;
            real_camera = aspect > 0.1f && aspect < 10.0f &&
                          build_camera(&in, conv, aspect, &cam);
        }
        if (!real_camera)
            return 0;
    } else {
        fuzz_mat4(&in, mode, cam.proj);
        fuzz_mat4(&in, mode, cam.view);
    }

    rp_ray ray;
    fuzz_poison(&ray, sizeof ray);
    bool got = rp_pick_ray_perspective(x, y, &vp, cam.proj, cam.view, conv, &ray);
    fuzz_check(rp_pick_ray_perspective(x, y, &vp, cam.proj, cam.view, conv, NULL) == got,
               "perspective: NULL out changes the answer");
    fuzz_check(!rp_pick_ray_perspective(x, y, NULL, cam.proj, cam.view, conv, NULL),
               "perspective: NULL viewport accepted");
    if (!got) {
        fuzz_check(fuzz_untouched(&ray, sizeof ray), "perspective: failure wrote to *out");
    } else {
        check_ray(&ray, "perspective");
        float len = glm_vec3_norm(ray.dir);
        if (fabsf(len - 1.0f) > 1e-3f)
            fuzz_fail("perspective: dir length %g, not unit", (double)len);
        if (real_camera && !cam.ortho) {
            /* The point of the ray at depth 2 * near: a fixed depth, not a
               fixed distance, which for a click far off-centre would be a
               point almost beside the eye, its depth lost to rounding. */
            float along = glm_vec3_dot(ray.dir, cam.forward);
            if (!(along > 1e-3f))
                fuzz_fail("perspective: the ray does not go forward (%g)", (double)along);
            vec3 p;
            rp_ray_at(&ray, 2.0f * cam.near_z / along, p);
            check_lands_on_pixel(&cam, &vp, p, 2.0f * cam.near_z, x, y, "perspective");
        }
    }

    fuzz_poison(&ray, sizeof ray);
    got = rp_pick_ray_unproject(x, y, &vp, cam.proj, cam.view, conv, &ray);
    fuzz_check(rp_pick_ray_unproject(x, y, &vp, cam.proj, cam.view, conv, NULL) == got,
               "unproject: NULL out changes the answer");
    fuzz_check(!rp_pick_ray_unproject(x, y, NULL, cam.proj, cam.view, conv, NULL),
               "unproject: NULL viewport accepted");
    if (!got) {
        fuzz_check(fuzz_untouched(&ray, sizeof ray), "unproject: failure wrote to *out");
        if (real_camera)
            fuzz_fail("unproject: refused a real camera");
    } else {
        check_ray(&ray, "unproject");
        if (real_camera) {
            float px, py, z;
            check_lands_on_pixel(&cam, &vp, ray.origin, cam.near_z, x, y,
                                 "unproject near point");
            vec3 far_point;
            rp_ray_at(&ray, 1.0f, far_point);
            check_lands_on_pixel(&cam, &vp, far_point, cam.far_z, x, y,
                                 "unproject far point");
            /* The origin is on the near plane of the convention's depth range. */
            if (project_to_pixels(&cam, &vp, ray.origin, &px, &py, &z)) {
                float near_ndc = conv == RP_D3D ? 0.0f : -1.0f;
                if (fabsf(z - near_ndc) > 1e-2f)
                    fuzz_fail("unproject: origin at depth %g, not on the near plane",
                              (double)z);
            }
        }
    }

    /* Ray transforms: the helper the D3D9 path uses. */
    rp_ray r, out;
    fuzz_vec3(&in, fmode, r.origin);
    fuzz_vec3(&in, fmode, r.dir);
    fuzz_poison(&out, sizeof out);
    if (rp_ray_transform(&r, cam.view, &out))
        check_ray(&out, "transform");
    else
        fuzz_check(fuzz_untouched(&out, sizeof out), "transform: failure wrote to *out");
    return 0;
}

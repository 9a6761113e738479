/* ref_camera.h: random cameras of every kind the pick functions support
 * (cglm's four perspective builders in their depth conventions,
 * orthographic ones, an off-centre one, random viewports) and a
 * double-precision projection to pixels, written here from the formulas
 * (not the library's code), for the plane, frustum and thin-object tests.
 * Include after <cglm/cglm.h> with CGLM_CLIPSPACE_INCLUDE_ALL defined. */
#ifndef RAYPICK_TEST_REF_CAMERA_H
#define RAYPICK_TEST_REF_CAMERA_H

#include <math.h>
#include <stdbool.h>
#include <raypick/raypick.h>
#include "ref_quadric.h"

typedef struct ref_camera {
    mat4 proj, view;
    rp_convention conv;
    rp_viewport vp;
    int kind;
    double eye[3];        /* perspective only */
    double forward[3];    /* world direction the camera looks along, unit */
} ref_camera;

#define REF_CAMERA_KINDS 7
static const char *const ref_camera_names[REF_CAMERA_KINDS] = {
    "perspective rh_no (GL)", "perspective rh_zo (GL clip control)",
    "perspective lh_no (D3D data on GL)", "perspective lh_zo (D3D)",
    "orthographic rh_no", "orthographic lh_zo", "off-centre frustum rh_no",
};

/* kind: 0..3 glm_perspective_{rh_no, rh_zo, lh_no, lh_zo}; 4 glm_ortho_rh_no;
   5 glm_ortho_lh_zo; 6 glm_frustum_rh_no off-centre. The view matches the
   projection's handedness, so the target is in front. */
static inline void ref_camera_random(test_rng *g, int kind, ref_camera *cam)
{
    typedef void (*persp_fn)(float, float, float, float, mat4);
    const persp_fn persp[4] = {glm_perspective_rh_no, glm_perspective_rh_zo,
                               glm_perspective_lh_no, glm_perspective_lh_zo};
    cam->kind = kind;
    cam->vp.x = (float)floor(rng_uniform(g, 0.0, 200.0));
    cam->vp.y = (float)floor(rng_uniform(g, 0.0, 100.0));
    cam->vp.width = (float)floor(rng_uniform(g, 320.0, 1280.0));
    cam->vp.height = (float)floor(rng_uniform(g, 240.0, 900.0));
    vec3 eye = {(float)rng_uniform(g, -20, 20), (float)rng_uniform(g, 2, 30),
                (float)rng_uniform(g, -20, 20)};
    vec3 target = {(float)rng_uniform(g, -5, 5), (float)rng_uniform(g, -2, 2),
                   (float)rng_uniform(g, -5, 5)};
    vec3 up = {0.0f, 1.0f, 0.0f};
    const bool lh = kind == 2 || kind == 3 || kind == 5;
    if (lh)
        glm_lookat_lh(eye, target, up, cam->view);
    else
        glm_lookat_rh(eye, target, up, cam->view);
    const float aspect = cam->vp.width / cam->vp.height;
    const float near_z = (float)rng_uniform(g, 0.05, 1.0), far_z = (float)rng_uniform(g, 60, 400);
    if (kind < 4) {
        persp[kind](glm_rad((float)rng_uniform(g, 30, 90)), aspect, near_z, far_z, cam->proj);
        cam->conv = kind % 2 ? RP_D3D : RP_GL;
    } else if (kind < 6) {
        const float h = (float)rng_uniform(g, 5, 30), w = h * aspect;
        const float sx = (float)rng_uniform(g, -3, 3), sy = (float)rng_uniform(g, -3, 3);
        if (kind == 4)
            glm_ortho_rh_no(-w + sx, w + sx, -h + sy, h + sy, 0.5f, far_z, cam->proj);
        else
            glm_ortho_lh_zo(-w + sx, w + sx, -h + sy, h + sy, 0.5f, far_z, cam->proj);
        cam->conv = kind == 4 ? RP_GL : RP_D3D;
    } else {
        const float h = near_z * (float)rng_uniform(g, 0.3, 1.0), w = h * aspect;
        const float sx = w * (float)rng_uniform(g, -0.6, 0.6);
        glm_frustum(-w + sx, w + sx, -h, h, near_z, far_z, cam->proj);
        cam->conv = RP_GL;
    }
    double f[3], len = 0.0;
    for (int i = 0; i < 3; i++) {
        cam->eye[i] = eye[i];
        f[i] = (double)target[i] - eye[i];
        len += f[i] * f[i];
    }
    for (int i = 0; i < 3; i++)
        cam->forward[i] = f[i] / sqrt(len);
}

/* clip = proj * view * (p, 1), in double. */
static inline void ref_clip(const ref_camera *cam, const double p[3], double clip[4])
{
    double v[4];
    for (int r = 0; r < 4; r++)
        v[r] = cam->view[0][r] * p[0] + cam->view[1][r] * p[1] + cam->view[2][r] * p[2] +
               cam->view[3][r];
    for (int r = 0; r < 4; r++)
        clip[r] = cam->proj[0][r] * v[0] + cam->proj[1][r] * v[1] + cam->proj[2][r] * v[2] +
                  cam->proj[3][r] * v[3];
}

/* Pixel (y down) and depth in [0, 1] of a point; false at or behind the
   camera plane. */
static inline bool ref_project(const ref_camera *cam, const double p[3], double out[3])
{
    double c[4];
    ref_clip(cam, p, c);
    if (!(c[3] > 0.0))
        return false;
    out[0] = cam->vp.x + (c[0] / c[3] + 1.0) * 0.5 * cam->vp.width;
    out[1] = cam->vp.y + (1.0 - c[1] / c[3]) * 0.5 * cam->vp.height;
    out[2] = cam->conv == RP_D3D ? c[2] / c[3] : 0.5 * (c[2] / c[3] + 1.0);
    return true;
}

static inline bool ref_projectf(const ref_camera *cam, const float p[3], double out[3])
{
    const double d[3] = {p[0], p[1], p[2]};
    return ref_project(cam, d, out);
}

/* A world point at pixel (x, y) and depth in [0, 1]: the library's
   rp_unproject_point (test_project.c holds it to a reference and to
   glm_unproject). */
static inline bool ref_point_at(const ref_camera *cam, double x, double y, double depth,
                                vec3 out)
{
    return rp_unproject_point((float)x, (float)y, (float)depth, &cam->vp, (vec4 *)cam->proj,
                              (vec4 *)cam->view, cam->conv, out);
}

#endif /* RAYPICK_TEST_REF_CAMERA_H */

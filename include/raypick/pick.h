/*
 * raypick/pick.h: the pick ray under the mouse.
 *
 *     rp_viewport vp = {0, 0, (float)w, (float)h};
 *     rp_ray ray;
 *     rp_pick_ray_unproject(mx, my, &vp, proj, view, RP_GL, &ray);
 */
#ifndef RAYPICK_PICK_H
#define RAYPICK_PICK_H

#include "ray.h"

#ifdef __cplusplus
extern "C" {
#endif

/* pixels, (x, y) = top-left corner, y grows downwards: like D3DVIEWPORT9 and
   like SDL mouse coordinates once scaled to drawable pixels */
typedef struct rp_viewport {
    float x, y, width, height;
} rp_viewport;

typedef enum rp_convention {
    RP_GL  = 0, /* right-handed view space, camera looks down -z, clip z in [-1, 1] */
    RP_D3D = 1  /* left-handed view space,  camera looks down +z, clip z in [0, 1]  */
} rp_convention;

/*!
 * @brief D3D9 CalculateRay + TransformRay: uses proj[0][0] (_11) and
 *        proj[1][1] (_22) only, so it is valid for symmetric perspective
 *        projections. origin = camera position, dir = unit length.
 */
bool rp_pick_ray_perspective(float x, float y, const rp_viewport *vp,
                             mat4 proj, mat4 view, rp_convention conv, rp_ray *out);

/*!
 * @brief XNA GetPointerRay: unprojects the near (depth 0) and far (depth 1)
 *        points. Any projection (orthographic, off-centre). origin on the
 *        near plane, dir = far - near, NOT normalized: t = 1 is the far plane.
 */
bool rp_pick_ray_unproject(float x, float y, const rp_viewport *vp,
                           mat4 proj, mat4 view, rp_convention conv, rp_ray *out);

#ifdef __cplusplus
}
#endif

#endif /* RAYPICK_PICK_H */

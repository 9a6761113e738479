/*
 * raypick/pick.h: the pick ray under the mouse.
 *
 *     rp_viewport vp = {0, 0, (float)w, (float)h};
 *     rp_ray ray;
 *     rp_pick_ray_unproject(mx, my, &vp, proj, view, RP_GL, &ray);
 *
 * Two ways to get it, as the tutorials do:
 *   rp_pick_ray_perspective  the D3D9 CalculateRay + TransformRay (the Chinese
 *                            bounding-sphere picking tutorial)
 *   rp_pick_ray_unproject    XNA's GetPointerRay with Viewport.Unproject (the
 *                            XNA terrain-picking recipe)
 *
 * D3D9 / D3DX / XNA calls replaced:
 *   IDirect3DDevice9::GetViewport       -> the rp_viewport you pass
 *   GetTransform(D3DTS_PROJECTION/VIEW) -> the proj and view you pass
 *   D3DXMatrixInverse                   -> done inside, in double
 *   D3DXVec3TransformCoord / Normal     -> rp_ray_transform (ray.h)
 *   D3DXVec3Normalize                   -> done inside
 *   Viewport.Unproject (XNA)            -> rp_pick_ray_unproject
 *   D3DXVec3Unproject / D3DXVec3Project -> rp_unproject_point / rp_project_point
 *
 * Conventions, the places where D3D9 ports to OpenGL go wrong:
 *
 * Handedness comes from the projection, not from rp_convention. A
 *   right-handed projection (glm_perspective, glm_perspective_rh_*) has
 *   the camera looking down -z of view space and _34 = -1; a left-handed
 *   one (D3DXMatrixPerspectiveFovLH, glm_perspective_lh_*) looks down +z
 *   with _34 = +1. The tutorial's view-space direction (px, py, 1) is
 *   (px, py, -1) for a right-handed one: rp_pick_ray_perspective reads the
 *   sign of _34. The world is whatever the view matrix says; the library
 *   never assumes one.
 *
 * Clip depth: this is what rp_convention selects, and all it selects.
 *   D3D (and XNA) clip z runs over [0, 1] (D3DXMatrixPerspectiveFovLH,
 *   cglm's *_zo builders): RP_D3D. GL's runs over [-1, 1] (glm_perspective,
 *   the *_no builders): RP_GL. Unproject needs to know which, to find the
 *   near plane: depth 0 is the near plane and depth 1 the far plane in both
 *   conventions. So each of glm_perspective_{rh,lh}_{no,zo}, passed with
 *   the conv of its depth range (_no: RP_GL, _zo: RP_D3D), gives the same
 *   ray from both pick functions: a D3D port rendered with
 *   glm_perspective_lh_no, or a GL program using glClipControl with
 *   glm_perspective_rh_zo, works. cglm 0.8.8 declares the *_lh_* and *_zo
 *   builders beside the GL ones only when CGLM_CLIPSPACE_INCLUDE_ALL is
 *   defined before including cglm.
 *
 * Layout. A D3DXMATRIX is used with row vectors (v * M) and stored row by
 *   row; a cglm mat4 is used with column vectors (M * v) and stored column
 *   by column. The two transposes cancel: the 16 floats of a D3DXMATRIX and
 *   of the cglm mat4 for the same transform are the same floats, in the
 *   same order. So _11 = m[0][0], _22 = m[1][1], _34 = m[2][3],
 *   _41 _42 _43 = m[3][0..2] (the translation), and D3DXMatrixMultiply(a, b)
 *   is glm_mat4_mul(b, a).
 *
 * Viewport. rp_viewport is in pixels with y growing downwards, like
 *   D3DVIEWPORT9 and SDL's mouse (after app_window_to_pixels scales window
 *   points to drawable pixels on high-DPI displays), so no flip is needed.
 *   glViewport and glm_project/glm_unproject count y upwards from the
 *   bottom: flip there (y_down = window_height - y_up), not here. The
 *   viewport's x, y are subtracted; the D3D9 tutorial forgot them, which
 *   only works for a viewport at the window's top-left corner. Coordinates
 *   are continuous: vp.x is the left edge of the first pixel, so pixel i's
 *   centre is i + 0.5 (GL, D3D10+; D3D9 put centres on integers, its
 *   half-pixel offset). Add 0.5 to an integer mouse position to aim at the
 *   centre of the pixel under the cursor.
 *
 * Why _11/_22 are not enough. CalculateRay divides by _11 and _22 and
 *   assumes clip w = +-view z. An orthographic projection has w = 1
 *   (_34 = 0, _44 = 1): every ray is parallel and starts at a different
 *   point, which "origin = camera position" cannot express. An off-centre
 *   projection (D3DXMatrixPerspectiveOffCenterLH, glFrustum with l != -r)
 *   shifts x and y by _31/_32 times z, which the formula ignores. Such
 *   matrices make rp_pick_ray_perspective return false; unproject handles
 *   any invertible projection.
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

/* The clip-space depth range only; handedness comes from the projection. */
typedef enum rp_convention {
    RP_GL  = 0, /* clip z in [-1, 1]: GL's default, cglm's *_no builders */
    RP_D3D = 1  /* clip z in [0, 1]: D3D's and XNA's, cglm's *_zo builders */
} rp_convention;

/*!
 * @brief D3D9 CalculateRay + TransformRay: uses proj[0][0] (_11) and
 *        proj[1][1] (_22) only, so it is valid for symmetric perspective
 *        projections. origin = camera position, dir = unit length.
 *
 * View-space direction: px = (2 (x - vp.x) / vp.width - 1) / _11,
 * py = (1 - 2 (y - vp.y) / vp.height) / _22, z = 1 / _34 (+1 for a
 * left-handed projection, -1 for a right-handed one, in either depth
 * range; a projection scaled by k > 0 gives the same ray). Then
 * inverse(view) moves it to world space: the origin as a point
 * (D3DXVec3TransformCoord), the direction as a vector
 * (D3DXVec3TransformNormal), and the direction is normalised.
 *
 * @param[in]  x, y  pixel position (y down), in the same pixels as vp;
 *                   any finite value, inside the viewport or not
 * @param[in]  vp    the viewport (GetViewport)
 * @param[in]  proj  projection matrix (GetTransform(D3DTS_PROJECTION))
 * @param[in]  view  view matrix (GetTransform(D3DTS_VIEW)); affine
 * @param[in]  conv  RP_GL or RP_D3D: checked, but the ray does not depend
 *                   on it (the formula never reads the depth entries)
 * @param[out] out   the ray; may be NULL
 * @returns false (out untouched) for: a NULL vp, proj or view; a viewport
 *          of zero, negative or non-finite size; a NaN or infinity in x, y,
 *          vp or either matrix; an unknown conv; a projection that is not a
 *          symmetric perspective (orthographic: _34 = 0; off-centre,
 *          skewed); a singular projection or view
 *          matrix (|det| tiny relative to the matrix's scale); a view
 *          matrix whose bottom row is not (0 0 0 w); a ray that overflows
 *          float.
 */
RP_API bool rp_pick_ray_perspective(float x, float y, const rp_viewport *vp,
                             mat4 proj, mat4 view, rp_convention conv, rp_ray *out);

/*!
 * @brief XNA GetPointerRay: unprojects the near (depth 0) and far (depth 1)
 *        points. Any projection (orthographic, off-centre). origin on the
 *        near plane, dir = far - near, NOT normalized: t = 1 is the far plane.
 *
 * The port of Viewport.Unproject((x, y, depth), proj, view, Identity) for
 * depth 0 and 1: inverse(proj * view) (D3DXMatrixInverse) applied to
 * NDC (2 (x - vp.x) / vp.width - 1, 1 - 2 (y - vp.y) / vp.height, z) with
 * z = depth for RP_D3D and 2 depth - 1 for RP_GL, divided by w. Computed
 * in double: the far point of a 0.1 .. 1000 frustum still round-trips to
 * well under 0.01 px. Where exactly the far plane lands depends on the
 * float rounding of proj (times far / near); the direction does not.
 *
 * @param[in]  x, y  pixel position (y down), in the same pixels as vp
 * @param[in]  vp    the viewport
 * @param[in]  proj  projection matrix, any invertible one
 * @param[in]  view  view matrix, any invertible one
 * @param[in]  conv  RP_GL or RP_D3D: selects the clip depth range only
 * @param[out] out   the ray; may be NULL
 * @returns false (out untouched) for: a NULL vp, proj or view; a viewport
 *          of zero, negative or non-finite size; a NaN or infinity in x, y,
 *          vp or either matrix; an unknown conv; a singular proj * view
 *          (|det| tiny relative to the matrix's scale); a near or far point
 *          at infinity (w ~ 0, e.g. an infinite far plane) or beyond float
 *          range; near == far in float.
 */
RP_API bool rp_pick_ray_unproject(float x, float y, const rp_viewport *vp,
                           mat4 proj, mat4 view, rp_convention conv, rp_ray *out);

/*!
 * @brief D3DXVec3Unproject with MinZ 0, MaxZ 1: the world point under a
 *        pixel at a depth-buffer value. The second half of GPU picking:
 *        read the depth under the mouse (glReadPixels with
 *        GL_DEPTH_COMPONENT gives the same [0, 1] value), unproject it.
 *
 * inverse(proj * view) applied to NDC (2 (x - vp.x) / vp.width - 1,
 * 1 - 2 (y - vp.y) / vp.height, z) with z = depth for RP_D3D and
 * 2 depth - 1 for RP_GL, divided by w; in double. depth 0 is the near
 * plane and 1 the far plane in both conventions.
 *
 * @param[in]  x, y  pixel position (y down), in the same pixels as vp
 * @param[in]  depth the depth-buffer value; any finite value (outside
 *                   [0, 1] extrapolates, as D3DXVec3Unproject does)
 * @param[in]  vp    the viewport
 * @param[in]  proj  projection matrix, any invertible one
 * @param[in]  view  view matrix, any invertible one
 * @param[in]  conv  RP_GL or RP_D3D: the clip depth range of proj
 * @param[out] out   the world point; may be NULL
 * @returns false (out untouched) for: a NULL vp, proj or view; a viewport
 *          of zero, negative or non-finite size; a NaN or infinity in x,
 *          y, depth, vp or either matrix; an unknown conv; a singular
 *          proj * view; a point at infinity (w ~ 0: the far plane of an
 *          infinite projection) or beyond float range.
 */
RP_API bool rp_unproject_point(float x, float y, float depth, const rp_viewport *vp,
                               mat4 proj, mat4 view, rp_convention conv, vec3 out);

/*!
 * @brief D3DXVec3Project with MinZ 0, MaxZ 1: a world point to its pixel
 *        (y down) and depth-buffer value. The inverse of
 *        rp_unproject_point: unprojecting the result gives p back.
 *
 * clip = proj * view * (p, 1); pixel x = vp.x + (clip.x / w + 1) / 2 *
 * vp.width, y = vp.y + (1 - clip.y / w) / 2 * vp.height, depth =
 * clip.z / w for RP_D3D and (clip.z / w + 1) / 2 for RP_GL; in double.
 * A point beside the frustum still projects (outside the viewport, or a
 * depth outside [0, 1]); only the camera plane and what is behind it is
 * refused, where D3DXVec3Project would mirror the point onto the screen.
 *
 * @param[in]  p     the world point
 * @param[in]  vp    the viewport
 * @param[in]  proj  projection matrix, any invertible one
 * @param[in]  view  view matrix, any invertible one
 * @param[in]  conv  RP_GL or RP_D3D: the clip depth range of proj
 * @param[out] out   (pixel x, pixel y, depth); may be NULL
 * @returns false (out untouched) for: a NULL p, vp, proj or view; a
 *          viewport of zero, negative or non-finite size; a NaN or
 *          infinity in p, vp or either matrix; an unknown conv; a singular
 *          proj * view; a point at or behind the camera's plane (clip
 *          w <= 0); a result beyond float range.
 */
RP_API bool rp_project_point(const vec3 p, const rp_viewport *vp, mat4 proj, mat4 view,
                             rp_convention conv, vec3 out);

#ifdef __cplusplus
}
#endif

#endif /* RAYPICK_PICK_H */

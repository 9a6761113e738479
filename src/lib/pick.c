/* pick.c: the pick ray under the mouse, the D3D9 way (CalculateRay +
   TransformRay) and the XNA way (Viewport.Unproject of the near and far
   points), in the GL and the D3D conventions. */
#include "raypick/pick.h"
#include "internal.h"
#include "camera_math.h"

#include <float.h>

/* Projection entries the D3D9 formula ignores must be zero up to this
   fraction of the largest entry it uses. */
#define RP_IGNORED_REL 1e-6

/* The D3D9 formula reads _11 and _22 and assumes clip w = +-view z: true of
   a symmetric perspective projection (D3DXMatrixPerspectiveFovLH,
   glm_perspective) and of nothing else. Every entry it ignores in the x, y
   and w rows must be zero. The sign of _34 (proj[2][3]) tells which way
   the camera looks: + for a left-handed projection (+z forward: D3DX's,
   glm_perspective_lh_*), - for a right-handed one (-z forward: GL's,
   glm_perspective_rh_*). The depth range (the convention) does not enter:
   it only changes _33 and _43, which the formula never reads. */
static bool is_symmetric_perspective(mat4 p)
{
    float w_z = p[2][3];
    if (w_z == 0.0f)
        return false;               /* orthographic: w = 1, no eye point */
    if (p[0][0] == 0.0f || p[1][1] == 0.0f)
        return false;

    double scale = fmax(fabs(w_z), fmax(fabs(p[0][0]), fabs(p[1][1])));
    double tol = RP_IGNORED_REL * scale;
    const float ignored[] = {
        p[1][0], p[2][0], p[3][0],  /* x row: skew, off-centre, shift      */
        p[0][1], p[2][1], p[3][1],  /* y row: skew, off-centre, shift      */
        p[0][3], p[1][3], p[3][3],  /* w row: anything but z; ortho has _44 */
    };
    for (size_t i = 0; i < sizeof ignored / sizeof ignored[0]; ++i)
        if (fabs(ignored[i]) > tol)
            return false;
    return true;
}

/* inverse(view), for a view matrix that is affine up to a common scale
   (bottom row 0 0 0 w, w != 0): TransformRay treats the direction as w = 0,
   which is only right for such a matrix. */
static bool invert_view(mat4 view, mat4 inv_view)
{
    double tol = RP_IGNORED_REL * fabs(view[3][3]);
    if (view[3][3] == 0.0f || fabs(view[0][3]) > tol ||
        fabs(view[1][3]) > tol || fabs(view[2][3]) > tol)
        return false;
    double d[16], inv[16];
    rp_dmat4_from(view, d);
    return rp_dmat4_invert(d, inv) && rp_dmat4_to_float(inv, inv_view);
}

bool rp_pick_ray_perspective(float x, float y, const rp_viewport *vp,
                             mat4 proj, mat4 view, rp_convention conv, rp_ray *out)
{
    double ndc_x, ndc_y;
    if (!rp_viewport_to_ndc(x, y, vp, &ndc_x, &ndc_y) || !rp_convention_is_valid(conv))
        return false;
    if (proj == NULL || view == NULL || !rp_mat4_finite(proj) || !rp_mat4_finite(view))
        return false;
    if (!is_symmetric_perspective(proj))
        return false;

    /* The D3D9 method never inverts the projection, but a singular one
       (say near == far) is a broken camera: refuse it as unproject does. */
    double dp[16], unused[16];
    rp_dmat4_from(proj, dp);
    if (!rp_dmat4_invert(dp, unused))
        return false;

    mat4 inv_view;
    if (!invert_view(view, inv_view))
        return false;

    /* CalculateRay: the view-space point under the pixel where clip w = 1:
       z = 1 / _34, the tutorial's +1 for a left-handed projection and -1
       for a right-handed one, whatever the depth range. Clip space is
       homogeneous, so a projection scaled by k > 0 is the same camera; its
       _34 = +-k keeps the direction right where a hard-coded 1 would not. */
    rp_ray view_ray = {{0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.0f}};
    if (!rp_to_float(ndc_x / proj[0][0], &view_ray.dir[0]) ||
        !rp_to_float(ndc_y / proj[1][1], &view_ray.dir[1]) ||
        !rp_to_float(1.0 / proj[2][3], &view_ray.dir[2]))
        return false;

    /* TransformRay: origin with w = 1 (D3DXVec3TransformCoord), direction
       with w = 0 (D3DXVec3TransformNormal), then D3DXVec3Normalize. */
    rp_ray world;
    if (!rp_ray_transform(&view_ray, inv_view, &world))
        return false;

    double dx = world.dir[0], dy = world.dir[1], dz = world.dir[2];
    double len = sqrt(dx * dx + dy * dy + dz * dz);   /* no float overflow */
    world.dir[0] = (float)(dx / len);
    world.dir[1] = (float)(dy / len);
    world.dir[2] = (float)(dz / len);
    if (!rp_ray_valid(&world))
        return false;

    if (out)
        *out = world;
    return true;
}

bool rp_pick_ray_unproject(float x, float y, const rp_viewport *vp,
                           mat4 proj, mat4 view, rp_convention conv, rp_ray *out)
{
    double ndc_x, ndc_y;
    if (!rp_viewport_to_ndc(x, y, vp, &ndc_x, &ndc_y) || !rp_convention_is_valid(conv))
        return false;
    if (proj == NULL || view == NULL || !rp_mat4_finite(proj) || !rp_mat4_finite(view))
        return false;

    double dp[16], dv[16], pv[16], inv[16];
    rp_dmat4_from(proj, dp);
    rp_dmat4_from(view, dv);
    rp_dmat4_mul(dp, dv, pv);
    if (!rp_dmat4_invert(pv, inv))
        return false;

    /* Depth 0 and 1 are the near and far planes: clip z in [0, 1] for D3D
       (and XNA), [-1, 1] for GL. */
    double z_near = conv == RP_D3D ? 0.0 : -1.0;
    double near_point[3], far_point[3];
    if (!rp_unproject_ndc(inv, ndc_x, ndc_y, z_near, near_point) ||
        !rp_unproject_ndc(inv, ndc_x, ndc_y, 1.0, far_point))
        return false;

    rp_ray r;
    for (int i = 0; i < 3; ++i)
        if (!rp_to_float(near_point[i], &r.origin[i]) ||
            !rp_to_float(far_point[i] - near_point[i], &r.dir[i]))
            return false;
    if (!rp_ray_valid(&r))      /* near == far in float: no direction */
        return false;

    if (out)
        *out = r;
    return true;
}

/* ---- projecting points: D3DXVec3Unproject / D3DXVec3Project ---------------
 *
 * The viewport transform of D3D9 with MinZ = 0, MaxZ = 1 (and GL's
 * glDepthRange(0, 1)): pixel x = vp.x + (ndc x + 1) / 2 * width, pixel y
 * (down) = vp.y + (1 - ndc y) / 2 * height, depth = ndc z for RP_D3D and
 * (ndc z + 1) / 2 for RP_GL. Both directions run in double. */

bool rp_unproject_point(float x, float y, float depth, const rp_viewport *vp,
                        mat4 proj, mat4 view, rp_convention conv, vec3 out)
{
    double ndc_x, ndc_y, pv[16], inv[16];
    if (!rp_viewport_to_ndc(x, y, vp, &ndc_x, &ndc_y) || !rp_convention_is_valid(conv) ||
        !isfinite(depth) || !rp_view_projection(proj, view, pv) || !rp_dmat4_invert(pv, inv))
        return false;
    /* any finite depth: outside [0, 1] extrapolates, as D3DXVec3Unproject */
    const double ndc_z = conv == RP_D3D ? (double)depth : 2.0 * depth - 1.0;
    double world[3];
    vec3 result;
    if (!rp_unproject_ndc(inv, ndc_x, ndc_y, ndc_z, world))
        return false;
    for (int i = 0; i < 3; ++i)
        if (!rp_to_float(world[i], &result[i]))
            return false;
    if (out)
        glm_vec3_copy(result, out);
    return true;
}

bool rp_project_point(const vec3 p, const rp_viewport *vp, mat4 proj, mat4 view,
                      rp_convention conv, vec3 out)
{
    double unused_x, unused_y, pv[16];
    if (p == NULL || !rp_vec3_finite(p) || !rp_viewport_to_ndc(0.0f, 0.0f, vp, &unused_x, &unused_y) ||
        !rp_convention_is_valid(conv) || !rp_view_projection(proj, view, pv))
        return false;
    double clip[4];
    for (int r = 0; r < 4; ++r)
        clip[r] = pv[0 * 4 + r] * p[0] + pv[1 * 4 + r] * p[1] + pv[2 * 4 + r] * p[2] +
                  pv[3 * 4 + r];
    /* w <= 0: at or behind the camera's plane, where the divide would fold
       the point onto the screen mirrored (D3DXVec3Project does not check) */
    if (!(clip[3] > 0.0))
        return false;
    const double ndc_x = clip[0] / clip[3], ndc_y = clip[1] / clip[3];
    const double ndc_z = clip[2] / clip[3];
    const double win[3] = {
        vp->x + (ndc_x + 1.0) * 0.5 * vp->width,
        vp->y + (1.0 - ndc_y) * 0.5 * vp->height,
        conv == RP_D3D ? ndc_z : (ndc_z + 1.0) * 0.5,
    };
    vec3 result;
    for (int i = 0; i < 3; ++i)
        if (!rp_to_float(win[i], &result[i]))
            return false;
    if (out)
        glm_vec3_copy(result, out);
    return true;
}

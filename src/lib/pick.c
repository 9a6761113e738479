/* pick.c: the pick ray under the mouse, the D3D9 way (CalculateRay +
   TransformRay) and the XNA way (Viewport.Unproject of the near and far
   points), in the GL and the D3D conventions. */
#include "raypick/pick.h"
#include "internal.h"

#include <float.h>

/* A matrix counts as singular when |det| is below this fraction of the
   Hadamard bound (the product of its column lengths). The ratio is 1 for
   orthogonal columns, does not change when a column is scaled (so a far
   plane at 1e6 or a scene in millimetres is fine), and a float matrix that
   is singular in exact arithmetic lands near 1e-16 in double. */
#define RP_SINGULAR_REL 1e-10

/* Projection entries the D3D9 formula ignores must be zero up to this
   fraction of the largest entry it uses. */
#define RP_IGNORED_REL 1e-6

/* 4x4 matrices in double, laid out like cglm: m[col * 4 + row]. */

static void dmat4_from(mat4 m, double d[16])
{
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r)
            d[c * 4 + r] = (double)m[c][r];
}

/* a * b with column vectors: what glm_mat4_mul(a, b, dest) computes. */
static void dmat4_mul(const double a[16], const double b[16], double dest[16])
{
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r) {
            double s = 0.0;
            for (int k = 0; k < 4; ++k)
                s += a[k * 4 + r] * b[c * 4 + k];
            dest[c * 4 + r] = s;
        }
}

static double column_length(const double m[16], int c)
{
    const double *v = m + c * 4;
    return sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3]);
}

/* General inverse by cofactors (the port of D3DXMatrixInverse). Double
   precision keeps near/far ratios of 1e4 and more exact enough for
   0.01 px round trips. false when m is singular relative to its scale or
   the inverse is not finite. The formula is the same for either storage
   order, because the inverse of a transpose is the transpose of the
   inverse. */
static bool dmat4_invert(const double m[16], double inv[16])
{
    double t[16];

    t[0]  =  m[5] * m[10] * m[15] - m[5] * m[11] * m[14] - m[9] * m[6] * m[15]
           + m[9] * m[7] * m[14] + m[13] * m[6] * m[11] - m[13] * m[7] * m[10];
    t[4]  = -m[4] * m[10] * m[15] + m[4] * m[11] * m[14] + m[8] * m[6] * m[15]
           - m[8] * m[7] * m[14] - m[12] * m[6] * m[11] + m[12] * m[7] * m[10];
    t[8]  =  m[4] * m[9] * m[15] - m[4] * m[11] * m[13] - m[8] * m[5] * m[15]
           + m[8] * m[7] * m[13] + m[12] * m[5] * m[11] - m[12] * m[7] * m[9];
    t[12] = -m[4] * m[9] * m[14] + m[4] * m[10] * m[13] + m[8] * m[5] * m[14]
           - m[8] * m[6] * m[13] - m[12] * m[5] * m[10] + m[12] * m[6] * m[9];
    t[1]  = -m[1] * m[10] * m[15] + m[1] * m[11] * m[14] + m[9] * m[2] * m[15]
           - m[9] * m[3] * m[14] - m[13] * m[2] * m[11] + m[13] * m[3] * m[10];
    t[5]  =  m[0] * m[10] * m[15] - m[0] * m[11] * m[14] - m[8] * m[2] * m[15]
           + m[8] * m[3] * m[14] + m[12] * m[2] * m[11] - m[12] * m[3] * m[10];
    t[9]  = -m[0] * m[9] * m[15] + m[0] * m[11] * m[13] + m[8] * m[1] * m[15]
           - m[8] * m[3] * m[13] - m[12] * m[1] * m[11] + m[12] * m[3] * m[9];
    t[13] =  m[0] * m[9] * m[14] - m[0] * m[10] * m[13] - m[8] * m[1] * m[14]
           + m[8] * m[2] * m[13] + m[12] * m[1] * m[10] - m[12] * m[2] * m[9];
    t[2]  =  m[1] * m[6] * m[15] - m[1] * m[7] * m[14] - m[5] * m[2] * m[15]
           + m[5] * m[3] * m[14] + m[13] * m[2] * m[7] - m[13] * m[3] * m[6];
    t[6]  = -m[0] * m[6] * m[15] + m[0] * m[7] * m[14] + m[4] * m[2] * m[15]
           - m[4] * m[3] * m[14] - m[12] * m[2] * m[7] + m[12] * m[3] * m[6];
    t[10] =  m[0] * m[5] * m[15] - m[0] * m[7] * m[13] - m[4] * m[1] * m[15]
           + m[4] * m[3] * m[13] + m[12] * m[1] * m[7] - m[12] * m[3] * m[5];
    t[14] = -m[0] * m[5] * m[14] + m[0] * m[6] * m[13] + m[4] * m[1] * m[14]
           - m[4] * m[2] * m[13] - m[12] * m[1] * m[6] + m[12] * m[2] * m[5];
    t[3]  = -m[1] * m[6] * m[11] + m[1] * m[7] * m[10] + m[5] * m[2] * m[11]
           - m[5] * m[3] * m[10] - m[9] * m[2] * m[7] + m[9] * m[3] * m[6];
    t[7]  =  m[0] * m[6] * m[11] - m[0] * m[7] * m[10] - m[4] * m[2] * m[11]
           + m[4] * m[3] * m[10] + m[8] * m[2] * m[7] - m[8] * m[3] * m[6];
    t[11] = -m[0] * m[5] * m[11] + m[0] * m[7] * m[9] + m[4] * m[1] * m[11]
           - m[4] * m[3] * m[9] - m[8] * m[1] * m[7] + m[8] * m[3] * m[5];
    t[15] =  m[0] * m[5] * m[10] - m[0] * m[6] * m[9] - m[4] * m[1] * m[10]
           + m[4] * m[2] * m[9] + m[8] * m[1] * m[6] - m[8] * m[2] * m[5];

    double det = m[0] * t[0] + m[1] * t[4] + m[2] * t[8] + m[3] * t[12];
    double bound = column_length(m, 0) * column_length(m, 1) *
                   column_length(m, 2) * column_length(m, 3);
    /* written so that a NaN determinant also fails */
    if (!(fabs(det) > RP_SINGULAR_REL * bound))
        return false;

    double inv_det = 1.0 / det;
    for (int i = 0; i < 16; ++i) {
        t[i] *= inv_det;
        if (!isfinite(t[i]))
            return false;
    }
    for (int i = 0; i < 16; ++i)
        inv[i] = t[i];
    return true;
}

/* double to float, false when the value does not fit: C leaves the
   conversion of an out-of-range value undefined. */
static bool to_float(double d, float *f)
{
    if (!isfinite(d) || fabs(d) > FLT_MAX)
        return false;
    *f = (float)d;
    return true;
}

static bool dmat4_to_float(const double d[16], mat4 m)
{
    mat4 tmp;
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r)
            if (!to_float(d[c * 4 + r], &tmp[c][r]))
                return false;
    glm_mat4_copy(tmp, m);
    return true;
}

static bool convention_is_valid(rp_convention conv)
{
    return conv == RP_GL || conv == RP_D3D;
}

/* Pixel (y down, like D3DVIEWPORT9 and SDL) to normalised device x, y in
   [-1, 1] (y up). The D3D9 tutorial left out vp->x and vp->y, which only
   works for a viewport at the window's corner. */
static bool viewport_to_ndc(float x, float y, const rp_viewport *vp,
                            double *ndc_x, double *ndc_y)
{
    if (vp == NULL || !isfinite(x) || !isfinite(y))
        return false;
    if (!isfinite(vp->x) || !isfinite(vp->y) ||
        !isfinite(vp->width) || !isfinite(vp->height))
        return false;
    if (!(vp->width > 0.0f) || !(vp->height > 0.0f))
        return false;
    *ndc_x = 2.0 * ((double)x - vp->x) / vp->width - 1.0;
    *ndc_y = 1.0 - 2.0 * ((double)y - vp->y) / vp->height;
    return true;
}

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
    dmat4_from(view, d);
    return dmat4_invert(d, inv) && dmat4_to_float(inv, inv_view);
}

bool rp_pick_ray_perspective(float x, float y, const rp_viewport *vp,
                             mat4 proj, mat4 view, rp_convention conv, rp_ray *out)
{
    double ndc_x, ndc_y;
    if (!viewport_to_ndc(x, y, vp, &ndc_x, &ndc_y) || !convention_is_valid(conv))
        return false;
    if (proj == NULL || view == NULL || !rp_mat4_finite(proj) || !rp_mat4_finite(view))
        return false;
    if (!is_symmetric_perspective(proj))
        return false;

    /* The D3D9 method never inverts the projection, but a singular one
       (say near == far) is a broken camera: refuse it as unproject does. */
    double dp[16], unused[16];
    dmat4_from(proj, dp);
    if (!dmat4_invert(dp, unused))
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
    if (!to_float(ndc_x / proj[0][0], &view_ray.dir[0]) ||
        !to_float(ndc_y / proj[1][1], &view_ray.dir[1]) ||
        !to_float(1.0 / proj[2][3], &view_ray.dir[2]))
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
    if (!rp_ray_is_valid(&world))
        return false;

    if (out)
        *out = world;
    return true;
}

/* inverse(proj * view) applied to an NDC point, divided by w. */
static bool unproject_ndc(const double inv[16], double nx, double ny, double nz,
                          double world[3])
{
    double p[4];
    for (int r = 0; r < 4; ++r)
        p[r] = inv[0 * 4 + r] * nx + inv[1 * 4 + r] * ny + inv[2 * 4 + r] * nz +
               inv[3 * 4 + r];
    double size = fmax(fabs(p[0]), fmax(fabs(p[1]), fabs(p[2])));
    /* w = 0 is a point at infinity: the far plane of an infinite projection */
    if (!isfinite(p[3]) || !(fabs(p[3]) > 1e-12 * size))
        return false;
    for (int i = 0; i < 3; ++i)
        world[i] = p[i] / p[3];
    return true;
}

bool rp_pick_ray_unproject(float x, float y, const rp_viewport *vp,
                           mat4 proj, mat4 view, rp_convention conv, rp_ray *out)
{
    double ndc_x, ndc_y;
    if (!viewport_to_ndc(x, y, vp, &ndc_x, &ndc_y) || !convention_is_valid(conv))
        return false;
    if (proj == NULL || view == NULL || !rp_mat4_finite(proj) || !rp_mat4_finite(view))
        return false;

    double dp[16], dv[16], pv[16], inv[16];
    dmat4_from(proj, dp);
    dmat4_from(view, dv);
    dmat4_mul(dp, dv, pv);
    if (!dmat4_invert(pv, inv))
        return false;

    /* Depth 0 and 1 are the near and far planes: clip z in [0, 1] for D3D
       (and XNA), [-1, 1] for GL. */
    double z_near = conv == RP_D3D ? 0.0 : -1.0;
    double near_point[3], far_point[3];
    if (!unproject_ndc(inv, ndc_x, ndc_y, z_near, near_point) ||
        !unproject_ndc(inv, ndc_x, ndc_y, 1.0, far_point))
        return false;

    rp_ray r;
    for (int i = 0; i < 3; ++i)
        if (!to_float(near_point[i], &r.origin[i]) ||
            !to_float(far_point[i] - near_point[i], &r.dir[i]))
            return false;
    if (!rp_ray_is_valid(&r))      /* near == far in float: no direction */
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

/* proj * view in double, refused when either is missing, not finite, or
   the product is singular relative to its scale. */
static bool view_projection(mat4 proj, mat4 view, double pv[16])
{
    if (proj == NULL || view == NULL || !rp_mat4_finite(proj) || !rp_mat4_finite(view))
        return false;
    double dp[16], dv[16], unused[16];
    dmat4_from(proj, dp);
    dmat4_from(view, dv);
    dmat4_mul(dp, dv, pv);
    return dmat4_invert(pv, unused);
}

bool rp_unproject_point(float x, float y, float depth, const rp_viewport *vp,
                        mat4 proj, mat4 view, rp_convention conv, vec3 out)
{
    double ndc_x, ndc_y, pv[16], inv[16];
    if (!viewport_to_ndc(x, y, vp, &ndc_x, &ndc_y) || !convention_is_valid(conv) ||
        !isfinite(depth) || !view_projection(proj, view, pv) || !dmat4_invert(pv, inv))
        return false;
    /* any finite depth: outside [0, 1] extrapolates, as D3DXVec3Unproject */
    const double ndc_z = conv == RP_D3D ? (double)depth : 2.0 * depth - 1.0;
    double world[3];
    vec3 result;
    if (!unproject_ndc(inv, ndc_x, ndc_y, ndc_z, world))
        return false;
    for (int i = 0; i < 3; ++i)
        if (!to_float(world[i], &result[i]))
            return false;
    if (out)
        glm_vec3_copy(result, out);
    return true;
}

bool rp_project_point(const vec3 p, const rp_viewport *vp, mat4 proj, mat4 view,
                      rp_convention conv, vec3 out)
{
    double unused_x, unused_y, pv[16];
    if (p == NULL || !rp_vec3_finite(p) || !viewport_to_ndc(0.0f, 0.0f, vp, &unused_x, &unused_y) ||
        !convention_is_valid(conv) || !view_projection(proj, view, pv))
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
        if (!to_float(win[i], &result[i]))
            return false;
    if (out)
        glm_vec3_copy(result, out);
    return true;
}

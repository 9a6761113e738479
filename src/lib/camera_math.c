/* camera_math.c: 4x4 matrices in double and the viewport transform: what
   the pick ray, the frustum from a screen rectangle and the pixel
   tolerance of thin objects all compute the same way. */
#include "camera_math.h"
#include "internal.h"

#include <float.h>

/* A matrix counts as singular when |det| is below this fraction of the
   Hadamard bound (the product of its column lengths). The ratio is 1 for
   orthogonal columns, does not change when a column is scaled (so a far
   plane at 1e6 or a scene in millimetres is fine), and a float matrix that
   is singular in exact arithmetic lands near 1e-16 in double. */
#define RP_SINGULAR_REL 1e-10

/* 4x4 matrices in double, laid out like cglm: m[col * 4 + row]. */

void rp_dmat4_from(mat4 m, double d[16])
{
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r)
            d[c * 4 + r] = (double)m[c][r];
}

/* a * b with column vectors: what glm_mat4_mul(a, b, dest) computes. */
void rp_dmat4_mul(const double a[16], const double b[16], double dest[16])
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
bool rp_dmat4_invert(const double m[16], double inv[16])
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
bool rp_to_float(double d, float *f)
{
    if (!isfinite(d) || fabs(d) > FLT_MAX)
        return false;
    *f = (float)d;
    return true;
}

bool rp_dmat4_to_float(const double d[16], mat4 m)
{
    mat4 tmp;
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r)
            if (!rp_to_float(d[c * 4 + r], &tmp[c][r]))
                return false;
    glm_mat4_copy(tmp, m);
    return true;
}

bool rp_convention_is_valid(rp_convention conv)
{
    return conv == RP_GL || conv == RP_D3D;
}

/* Pixel (y down, like D3DVIEWPORT9 and SDL) to normalised device x, y in
   [-1, 1] (y up). The D3D9 tutorial left out vp->x and vp->y, which only
   works for a viewport at the window's corner. */
bool rp_viewport_to_ndc(float x, float y, const rp_viewport *vp,
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


/* inverse(proj * view) applied to an NDC point, divided by w. */
bool rp_unproject_ndc(const double inv[16], double nx, double ny, double nz,
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


/* proj * view in double, refused when either is missing, not finite, or
   the product is singular relative to its scale. */
bool rp_view_projection(mat4 proj, mat4 view, double pv[16])
{
    if (proj == NULL || view == NULL || !rp_mat4_finite(proj) || !rp_mat4_finite(view))
        return false;
    double dp[16], dv[16], unused[16];
    rp_dmat4_from(proj, dp);
    rp_dmat4_from(view, dv);
    rp_dmat4_mul(dp, dv, pv);
    return rp_dmat4_invert(pv, unused);
}


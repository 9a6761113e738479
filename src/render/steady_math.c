/* steady_math.c: see steady_math.h. */
#include "steady_math.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* A fused multiply-add rounds once where a * b + c rounds twice: allowed to
   contract, a compiler targeting FMA hardware would give other bits. GCC in
   ISO C mode (the project's c_std=c11) never contracts; clang does within an
   expression unless told not to. */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

/* pi/2 in three parts, the first two with trailing zero bits, so k * part is
   exact for |k| < 2^20 (Cody and Waite's reduction). */
static const double PIO2_1 = 1.57079632673412561417e+00;
static const double PIO2_2 = 6.07710050630396597660e-11;
static const double PIO2_3 = 2.02226624879595063154e-21;
static const double TWO_OVER_PI = 6.36619772367581382433e-01;

/* Taylor coefficients 1/n!, alternating: on |r| <= pi/4 the first term
   left out is below 1e-19, far under a float's half ulp. */
static double sin_poly(double r)
{
    double z = r * r;
    return r + r * z * (-1.66666666666666666667e-01 +
                 z * (8.33333333333333333333e-03 +
                 z * (-1.98412698412698412698e-04 +
                 z * (2.75573192239858906526e-06 +
                 z * (-2.50521083854417187751e-08 +
                 z * (1.60590438368216145994e-10 +
                 z * (-7.64716373181981647590e-13 +
                 z * 2.81145725434552076320e-15)))))));
}

static double cos_poly(double r)
{
    double z = r * r;
    return 1.0 + z * (-0.5 +
                 z * (4.16666666666666666667e-02 +
                 z * (-1.38888888888888888889e-03 +
                 z * (2.48015873015873015873e-05 +
                 z * (-2.75573192239858906526e-07 +
                 z * (2.08767569878680989792e-09 +
                 z * (-1.14707455977297247139e-11 +
                 z * 4.77947733238738529744e-14)))))));
}

/* x = k * pi/2 + r with |r| <= pi/4 (a little more for huge x); the
   quadrant k mod 4 */
static double reduce(double x, int *quadrant)
{
    double k = floor(x * TWO_OVER_PI + 0.5);
    double r = ((x - k * PIO2_1) - k * PIO2_2) - k * PIO2_3;
    *quadrant = (int)fmod(k, 4.0);
    if (*quadrant < 0)
        *quadrant += 4;
    return r;
}

static void sincos_double(float x, double *s, double *c)
{
    if (!isfinite(x)) {
        *s = *c = (double)NAN;
        return;
    }
    int q;
    double r = reduce((double)x, &q);
    double sr = sin_poly(r), cr = cos_poly(r);
    switch (q) {
    case 0: *s = sr; *c = cr; break;
    case 1: *s = cr; *c = -sr; break;
    case 2: *s = -sr; *c = -cr; break;
    default: *s = -cr; *c = sr; break;
    }
}

void steady_sincosf(float x, float *out_sin, float *out_cos)
{
    double s, c;
    sincos_double(x, &s, &c);
    *out_sin = (float)s;
    *out_cos = (float)c;
}

float steady_sinf(float x)
{
    double s, c;
    sincos_double(x, &s, &c);
    return (float)s;
}

float steady_cosf(float x)
{
    double s, c;
    sincos_double(x, &s, &c);
    return (float)c;
}

float steady_tanf(float x)
{
    double s, c;
    sincos_double(x, &s, &c);
    if (c == 0.0)   /* not reached for a float x, whose cos is never exactly 0 */
        return s > 0.0 ? FLT_MAX : -FLT_MAX;
    double t = s / c;
    if (t > FLT_MAX)
        return FLT_MAX;
    if (t < -FLT_MAX)
        return -FLT_MAX;
    return (float)t;
}

void steady_quatv(float angle, const vec3 axis, versor out)
{
    double len = sqrt((double)axis[0] * axis[0] + (double)axis[1] * axis[1] + (double)axis[2] * axis[2]);
    if (!(len > 0.0)) {
        glm_quat_identity(out);
        return;
    }
    double s, c;
    sincos_double(angle * 0.5f, &s, &c);
    double k = s / len;
    out[0] = (float)(axis[0] * k);
    out[1] = (float)(axis[1] * k);
    out[2] = (float)(axis[2] * k);
    out[3] = (float)c;
}

void steady_rotate(mat4 m, float angle, const vec3 axis)
{
    versor q;
    steady_quatv(angle, axis, q);
    glm_quat_rotate(m, q, m);
}

void steady_perspective(float fovy, float aspect, float near_z, float far_z, mat4 out)
{
    float f = 1.0f / steady_tanf(fovy * 0.5f);
    float fn = 1.0f / (near_z - far_z);
    memset(out, 0, sizeof(mat4));
    out[0][0] = f / aspect;
    out[1][1] = f;
    out[2][2] = (near_z + far_z) * fn;
    out[2][3] = -1.0f;
    out[3][2] = 2.0f * near_z * far_z * fn;
}

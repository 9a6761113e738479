/*
 * steady_math.h: sine, cosine and tangent that give the same bits on every
 * platform and CPU, for what the demo draws and moves.
 *
 * The C runtimes' sinf/cosf do not: mingw-w64's go through the x87 `fsin`
 * and `fcos` instructions, whose last bits differ between Intel and AMD
 * processors, so a Windows build moved lesson 1's 100,000 objects by a few
 * ulps differently on each, and its screenshots stopped matching the Linux
 * build's. These are double-precision polynomials after an exact range
 * reduction, made of IEEE additions and multiplications only (no FMA, see
 * steady_math.c), so every conforming compiler and CPU computes the same
 * result, within 1 ulp of the true value for |x| up to 2^20.
 *
 * Not for the library: rp_ functions keep libm (their answers are
 * specified to a tolerance, not to the bit).
 */
#ifndef RAYPICK_STEADY_MATH_H
#define RAYPICK_STEADY_MATH_H

#include <cglm/cglm.h>

/* sin(x) and cos(x) at once; a NaN for a non-finite x. */
void  steady_sincosf(float x, float *out_sin, float *out_cos);
float steady_sinf(float x);
float steady_cosf(float x);
/* tan(x); a NaN for a non-finite x, huge (not infinite) near odd multiples of pi/2. */
float steady_tanf(float x);

/* glm_quatv with steady_sincosf: the unit quaternion rotating by angle
   (radians) about axis (normalised here; a zero axis gives identity). */
void steady_quatv(float angle, const vec3 axis, versor out);

/* m = m * R: glm_rotate with steady_quatv's rotation (angle in radians
   about axis). */
void steady_rotate(mat4 m, float angle, const vec3 axis);

/* glm_perspective (right-handed, clip z in [-1, 1]) with steady_tanf. */
void steady_perspective(float fovy, float aspect, float near_z, float far_z, mat4 out);

#endif /* RAYPICK_STEADY_MATH_H */

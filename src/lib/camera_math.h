/* camera_math.h: 4x4 matrices in double and the viewport transform, shared
   by the pick ray (pick.c), the frustum from a screen rectangle
   (frustum.c) and the pixel tolerance of thin objects (thin.c); not
   installed. Matrices in double are laid out like cglm's: m[col * 4 + row]. */
#ifndef RAYPICK_CAMERA_MATH_H
#define RAYPICK_CAMERA_MATH_H

#include <stdbool.h>
#include <cglm/cglm.h>

#include "raypick/pick.h"

void rp_dmat4_from(mat4 m, double d[16]);
/* a * b with column vectors: what glm_mat4_mul(a, b, dest) computes. */
void rp_dmat4_mul(const double a[16], const double b[16], double dest[16]);
/* General inverse by cofactors; false when m is singular relative to its
   scale or the inverse is not finite. */
bool rp_dmat4_invert(const double m[16], double inv[16]);
bool rp_dmat4_to_float(const double d[16], mat4 m);
/* double to float, false when the value does not fit (C leaves the
   conversion of an out-of-range value undefined). */
bool rp_to_float(double d, float *f);

bool rp_convention_is_valid(rp_convention conv);
/* Pixel (y down) to normalised device x, y (y up); false for a bad
   viewport or a non-finite pixel. */
bool rp_viewport_to_ndc(float x, float y, const rp_viewport *vp, double *ndc_x, double *ndc_y);
/* proj * view in double; false when either is missing, not finite, or the
   product is singular relative to its scale. */
bool rp_view_projection(mat4 proj, mat4 view, double pv[16]);
/* inverse(proj * view) applied to an NDC point, divided by w; false for a
   point at infinity (w ~ 0). */
bool rp_unproject_ndc(const double inv[16], double nx, double ny, double nz, double world[3]);

#endif /* RAYPICK_CAMERA_MATH_H */

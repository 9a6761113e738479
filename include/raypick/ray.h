/*
 * raypick/ray.h: the ray and the hit record shared by every intersection.
 *
 *     rp_ray r = {{0, 1, 5}, {0, 0, -1}};
 *     vec3 p;
 *     rp_ray_at(&r, 2.0f, p);          // p = origin + 2 * dir
 */
#ifndef RAYPICK_RAY_H
#define RAYPICK_RAY_H

#include <stdbool.h>
#include <cglm/cglm.h>
#include "export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A half-line origin + t * dir, t >= 0. dir need not be unit length: every
   t the library returns is in units of dir. */
typedef struct rp_ray {
    vec3 origin;
    vec3 dir;
} rp_ray;

/* Where a ray meets a closed volume. */
typedef struct rp_hit {
    float t;        /* the first surface point at t >= 0: the entry point, or
                       the exit point when the origin is inside the volume */
    float t_enter;  /* smaller root (negative when the origin is inside)  */
    float t_exit;   /* larger root                                        */
    vec3  point;    /* origin + t * dir                                   */
    vec3  normal;   /* unit outward surface normal at point               */
    bool  inside;   /* the origin lies inside the volume                  */
} rp_hit;

/*!
 * @brief point on the ray at parameter t: origin + t * dir
 *
 * @param[in]  ray  the ray
 * @param[in]  t    ray parameter, in units of ray->dir
 * @param[out] dest the point; may be NULL (nothing is written)
 * @returns nothing; a NULL ray leaves dest untouched
 */
RP_API void rp_ray_at(const rp_ray *ray, float t, vec3 dest);

/*!
 * @brief true when every component of origin and dir is finite and dir is
 *        not the zero vector: the rays every function here accepts.
 */
RP_API bool rp_ray_is_valid(const rp_ray *ray);

/*!
 * @brief transform a ray by an affine matrix: origin as a point (w = 1),
 *        dir as a direction (w = 0). The port of D3DXVec3TransformCoord on
 *        the origin and D3DXVec3TransformNormal on the direction, as the
 *        tutorials' TransformRay does with the inverse view matrix.
 *
 * @param[in]  ray the ray
 * @param[in]  m   transform (column vectors, cglm layout; same floats as a
 *                 D3DXMATRIX of the same transform)
 * @param[out] out the transformed ray; may be NULL
 * @returns false (out untouched) for an invalid ray, a non-finite matrix, or
 *          a result with a zero or non-finite direction
 */
RP_API bool rp_ray_transform(const rp_ray *ray, mat4 m, rp_ray *out);

#ifdef __cplusplus
}
#endif

#endif /* RAYPICK_RAY_H */

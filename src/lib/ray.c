/* ray.c: points on a ray, ray validity, ray transforms. */
#include "raypick/ray.h"
#include "internal.h"

void rp_ray_at(const rp_ray *ray, float t, vec3 dest)
{
    if (ray == NULL || dest == NULL)
        return;                 /* outputs may be NULL; no ray, no point */
    dest[0] = ray->origin[0] + t * ray->dir[0];
    dest[1] = ray->origin[1] + t * ray->dir[1];
    dest[2] = ray->origin[2] + t * ray->dir[2];
}

bool rp_ray_is_valid(const rp_ray *ray)
{
    return rp_ray_valid(ray);
}

bool rp_ray_transform(const rp_ray *ray, mat4 m, rp_ray *out)
{
    if (!rp_ray_valid(ray) || m == NULL || !rp_mat4_finite(m))
        return false;

    /* D3DXVec3TransformCoord divides by w; an affine matrix has w = 1, a
       projective one may not, and the divide keeps the port faithful. */
    vec4 o = {ray->origin[0], ray->origin[1], ray->origin[2], 1.0f};
    vec4 d = {ray->dir[0], ray->dir[1], ray->dir[2], 0.0f};
    vec4 to, td;
    glm_mat4_mulv(m, o, to);
    glm_mat4_mulv(m, d, td);
    if (to[3] == 0.0f || !isfinite(to[3]))
        return false;

    rp_ray r;
    glm_vec3_scale(to, 1.0f / to[3], r.origin);
    glm_vec3_copy(td, r.dir);
    if (!rp_ray_valid(&r))
        return false;
    if (out)
        *out = r;
    return true;
}

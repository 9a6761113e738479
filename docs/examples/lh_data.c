/* lh_data.c: a Direct3D scene (left-handed: +z into the screen, front faces
   clockwise) drawn and picked with OpenGL-style code, three ways:
     A. the data as it is, with cglm's left-handed builders
        (glm_lookat_lh, glm_perspective_lh_no: GL's depth range): nothing
        mirrored, front faces stay clockwise: glFrontFace(GL_CW);
     B. the data as it is, with the usual right-handed builders (glm_lookat,
        glm_perspective): the picture is mirrored left to right;
     C. the data mirrored (z -> -z, the camera too), right-handed builders:
        the D3D picture again, still clockwise: glFrontFace(GL_CW); picks
        come back mirrored (flip z of the hit point for D3D's world).
   Prints where each puts the sphere and the triangle's winding, and exits
   non-zero unless A and C match D3D itself (D3DX's matrices, which cglm's
   glm_lookat_lh and glm_perspective_lh_zo build) and B is the mirror. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
/* cglm declares its left-handed builders only with this, before the first
   include of cglm (raypick.h includes it) */
#define CGLM_CLIPSPACE_INCLUDE_ALL
#include <raypick/raypick.h>

#define W 800.0f
#define H 600.0f

typedef struct setup {
    const char *name;
    mat4 proj, view;
    float z_sign;      /* +1: the data as it is; -1: mirrored (z -> -z) */
    rp_convention conv;     /* the projection's depth range */
} setup;

static void d3d_point(const setup *s, const vec3 d3d, vec3 out)
{
    glm_vec3_copy((float *)d3d, out);
    out[2] *= s->z_sign;
}

/* positive: clockwise on screen (pixel y grows downwards) */
static float screen_winding(setup *s, const vec3 tri[3], const rp_viewport *vp)
{
    vec3 p[3];
    for (int i = 0; i < 3; i++) {
        vec3 q;
        d3d_point(s, tri[i], q);
        if (!rp_project_point(q, vp, s->proj, s->view, s->conv, p[i]))
            return 0.0f;
    }
    return (p[1][0] - p[0][0]) * (p[2][1] - p[0][1]) - (p[2][0] - p[0][0]) * (p[1][1] - p[0][1]);
}

int main(void)
{
    /* the D3D scene: camera at the origin looking down +z, a sphere right
       of centre, a triangle wound clockwise (D3D's front face) */
    const vec3 eye = {0, 0, 0}, at = {0, 0, 5}, up = {0, 1, 0};
    const vec3 sphere_center = {1, 0, 5};
    const vec3 tri[3] = {{0, 1, 5}, {1, -1, 5}, {-1, -1, 5}};
    const rp_viewport vp = {0, 0, W, H};
    float fovy = glm_rad(60.0f);

    setup s[4] = {{"A: LH builders", {{0}}, {{0}}, 1.0f, RP_GL},
                  {"B: RH builders, data as is", {{0}}, {{0}}, 1.0f, RP_GL},
                  {"C: RH builders, data mirrored", {{0}}, {{0}}, -1.0f, RP_GL},
                  {"D3D (the D3DX matrices)", {{0}}, {{0}}, 1.0f, RP_D3D}};
    glm_perspective_lh_no(fovy, W / H, 0.1f, 100.0f, s[0].proj);
    glm_lookat_lh((float *)eye, (float *)at, (float *)up, s[0].view);
    glm_perspective(fovy, W / H, 0.1f, 100.0f, s[1].proj);
    glm_lookat((float *)eye, (float *)at, (float *)up, s[1].view);
    glm_perspective(fovy, W / H, 0.1f, 100.0f, s[2].proj);
    vec3 at_mirrored = {at[0], at[1], -at[2]};
    glm_lookat((float *)eye, at_mirrored, (float *)up, s[2].view);
    /* D3DXMatrixPerspectiveFovLH and D3DXMatrixLookAtLH: the same 16 floats
       as these (docs/porting-d3d9.md, the table) */
    glm_perspective_lh_zo(fovy, W / H, 0.1f, 100.0f, s[3].proj);
    glm_lookat_lh((float *)eye, (float *)at, (float *)up, s[3].view);

    bool ok = true;
    vec3 picked[4];
    for (int i = 0; i < 4; i++) {
        vec3 c, pixel;
        d3d_point(&s[i], sphere_center, c);
        rp_sphere sphere = {{c[0], c[1], c[2]}, 0.5f};
        if (!rp_project_point(c, &vp, s[i].proj, s[i].view, s[i].conv, pixel))
            return 1;
        /* click where D3D shows the sphere's centre: 1 unit right at 5
           units, fovy 60 degrees, 4:3 -> x = 400 * (1 + 1 / (5 tan 30 * 4/3))
           = 503.9; the pixel there is 503, its centre 503.5 */
        rp_ray ray;
        rp_hit hit;
        bool hits = rp_pick_ray_perspective(503.5f, 300.5f, &vp, s[i].proj, s[i].view, s[i].conv, &ray) &&
                    rp_intersect_ray_sphere(&ray, &sphere, &hit);
        if (hits) {
            glm_vec3_copy(hit.point, picked[i]);
            picked[i][2] *= s[i].z_sign;     /* back to D3D's world */
        }
        float wind = screen_winding(&s[i], tri, &vp);
        printf("%-30s sphere at pixel x %6.1f   click at 503 %s   triangle %s\n", s[i].name,
               (double)pixel[0], hits ? "hits" : "misses", wind > 0 ? "clockwise" : "counter-clockwise");
        bool like_d3d = i != 1;
        ok = ok && (fabsf(pixel[0] - (like_d3d ? 503.92f : 296.08f)) < 0.05f) && hits == like_d3d &&
             (wind > 0) == like_d3d;
    }
    /* A and C pick the point D3D picks, on the sphere's front (z near 4.5) */
    ok = ok && glm_vec3_distance(picked[0], picked[3]) < 1e-4f && glm_vec3_distance(picked[2], picked[3]) < 1e-4f &&
         fabsf(picked[3][2] - 4.5f) < 0.05f;
    printf("A picks (%.3f, %.3f, %.3f), C mirrored back (%.3f, %.3f, %.3f)\n", (double)picked[0][0],
           (double)picked[0][1], (double)picked[0][2], (double)picked[2][0], (double)picked[2][1],
           (double)picked[2][2]);
    return ok ? 0 : 1;
}

/* test_docs_claims.c: the numbers quoted in docs/porting-d3d9.md and
   docs/lessons/ that no other test pins down. Each test is named after the
   claim it proves; the documents cite these names. Only public API: cglm and
   <raypick/raypick.h>. The D3DX matrices are rebuilt here from the formulas
   Microsoft documents, written out element by element (_rc = row r, column c),
   independently of cglm. */
#define CGLM_CLIPSPACE_INCLUDE_ALL   /* glm_perspective_lh_zo, glm_unprojecti_zo */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <math.h>
#include <string.h>
#include <cmocka.h>

#include <raypick/raypick.h>

/* ------------------------------------------------------------ D3DX formulas */

/* A D3DXMATRIX as its 16 floats in memory order: _11 _12 _13 _14 _21 ... _44. */
typedef struct d3dx_matrix { float m[4][4]; } d3dx_matrix;   /* m[r-1][c-1] = _rc */

/* D3DXMatrixPerspectiveFovLH as documented: yScale = cot(fovy / 2),
   xScale = yScale / aspect, _33 = zf / (zf - zn), _34 = 1,
   _43 = -zn * zf / (zf - zn). */
static d3dx_matrix d3dx_perspective_fov_lh(float fovy, float aspect, float zn, float zf)
{
    d3dx_matrix d;
    memset(&d, 0, sizeof d);
    float y_scale = 1.0f / tanf(fovy / 2.0f);
    d.m[0][0] = y_scale / aspect;             /* _11 */
    d.m[1][1] = y_scale;                      /* _22 */
    d.m[2][2] = zf / (zf - zn);               /* _33 */
    d.m[2][3] = 1.0f;                         /* _34 */
    d.m[3][2] = -zn * zf / (zf - zn);         /* _43 */
    return d;
}

static void cross3(const float a[3], const float b[3], float out[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

static float dot3(const float a[3], const float b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void normalize3(float v[3])
{
    float len = sqrtf(dot3(v, v));
    v[0] /= len; v[1] /= len; v[2] /= len;
}

/* D3DXMatrixLookAtLH as documented: zaxis = normal(at - eye),
   xaxis = normal(cross(up, zaxis)), yaxis = cross(zaxis, xaxis); the axes are
   the columns, the last row is -dot(axis, eye). */
static d3dx_matrix d3dx_look_at_lh(const float eye[3], const float at[3], const float up[3])
{
    float z[3] = {at[0] - eye[0], at[1] - eye[1], at[2] - eye[2]}, x[3], y[3];
    normalize3(z);
    cross3(up, z, x);
    normalize3(x);
    cross3(z, x, y);
    d3dx_matrix d;
    memset(&d, 0, sizeof d);
    for (int r = 0; r < 3; r++) {
        d.m[r][0] = x[r];
        d.m[r][1] = y[r];
        d.m[r][2] = z[r];
    }
    d.m[3][0] = -dot3(x, eye);
    d.m[3][1] = -dot3(y, eye);
    d.m[3][2] = -dot3(z, eye);
    d.m[3][3] = 1.0f;
    return d;
}

/* D3DXVec3TransformCoord: the row vector (x, y, z, 1) times the matrix, then
   divided by w. */
static void d3dx_transform_coord(const float v[3], const d3dx_matrix *d, float out[3])
{
    float r[4];
    for (int c = 0; c < 4; c++)
        r[c] = v[0] * d->m[0][c] + v[1] * d->m[1][c] + v[2] * d->m[2][c] + d->m[3][c];
    for (int c = 0; c < 3; c++)
        out[c] = r[c] / r[3];
}

static void assert_same_16_floats(const d3dx_matrix *d, mat4 m, float eps)
{
    const float *a = &d->m[0][0], *b = &m[0][0];
    for (int i = 0; i < 16; i++)
        assert_float_equal(a[i], b[i], eps);
}

/* ------------------------------------------------------------ memory layout */

static void d3dx_perspective_fov_lh_is_glm_perspective_lh_zo_float_for_float(void **state)
{
    (void)state;
    d3dx_matrix d = d3dx_perspective_fov_lh(glm_rad(60.0f), 4.0f / 3.0f, 1.0f, 100.0f);
    mat4 m;
    glm_perspective_lh_zo(glm_rad(60.0f), 4.0f / 3.0f, 1.0f, 100.0f, m);
    assert_same_16_floats(&d, m, 1e-6f);
    /* the values docs/porting-d3d9.md quotes */
    assert_float_equal(m[0][0], 1.2990f, 1e-4f);     /* _11 */
    assert_float_equal(m[1][1], 1.7321f, 1e-4f);     /* _22 */
    assert_float_equal(m[2][2], 1.0101f, 1e-4f);     /* _33 */
    assert_float_equal(m[2][3], 1.0f, 0.0f);         /* _34 */
    assert_float_equal(m[3][2], -1.0101f, 1e-4f);    /* _43 */
}

static void d3dx_look_at_lh_is_glm_lookat_lh_float_for_float(void **state)
{
    (void)state;
    float eye[3] = {3, 4, -8}, at[3] = {-1, 0.5f, 2}, up[3] = {0, 1, 0};
    d3dx_matrix d = d3dx_look_at_lh(eye, at, up);
    mat4 m;
    glm_lookat_lh(eye, at, up, m);
    assert_same_16_floats(&d, m, 1e-5f);
}

static void d3dx_translation_sits_in_floats_12_to_14_like_cglm(void **state)
{
    (void)state;
    mat4 m;
    glm_translate_make(m, (vec3){2, 3, 4});
    const float *f = &m[0][0];
    /* D3DXMatrixTranslation puts x, y, z in _41 _42 _43: floats 12, 13, 14 */
    assert_float_equal(f[12], 2.0f, 0.0f);
    assert_float_equal(f[13], 3.0f, 0.0f);
    assert_float_equal(f[14], 4.0f, 0.0f);
    assert_float_equal(f[15], 1.0f, 0.0f);
    assert_float_equal(f[3], 0.0f, 0.0f);            /* _14 */
}

static void row_vector_times_d3dx_matrix_is_cglm_matrix_times_column_vector(void **state)
{
    (void)state;
    float eye[3] = {3, 4, -8}, at[3] = {-1, 0.5f, 2}, up[3] = {0, 1, 0};
    d3dx_matrix d = d3dx_look_at_lh(eye, at, up);
    mat4 m;
    memcpy(m, d.m, sizeof m);                        /* the very same floats */
    float p[3] = {1.5f, -2, 7}, want[3];
    d3dx_transform_coord(p, &d, want);
    vec3 got;
    glm_mat4_mulv3(m, p, 1.0f, got);
    for (int i = 0; i < 3; i++)
        assert_float_equal(got[i], want[i], 1e-5f);
    /* and the eye goes to the view-space origin, as a view matrix must */
    d3dx_transform_coord(eye, &d, want);
    for (int i = 0; i < 3; i++)
        assert_float_equal(want[i], 0.0f, 1e-5f);
}

/* D3DXMatrixMultiply(out, a, b) = a * b for row vectors: out_rc = sum a_rk b_kc */
static d3dx_matrix d3dx_multiply(const d3dx_matrix *a, const d3dx_matrix *b)
{
    d3dx_matrix out;
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++) {
            float sum = 0.0f;
            for (int k = 0; k < 4; k++)
                sum += a->m[r][k] * b->m[k][c];
            out.m[r][c] = sum;
        }
    return out;
}

static void d3dx_multiply_a_b_is_glm_mat4_mul_b_a(void **state)
{
    (void)state;
    /* view then projection: D3DX writes view * proj, cglm proj * view */
    float eye[3] = {3, 4, -8}, at[3] = {-1, 0.5f, 2}, up[3] = {0, 1, 0};
    d3dx_matrix view = d3dx_look_at_lh(eye, at, up);
    d3dx_matrix proj = d3dx_perspective_fov_lh(glm_rad(60.0f), 4.0f / 3.0f, 1.0f, 100.0f);
    d3dx_matrix d = d3dx_multiply(&view, &proj);
    mat4 v, p, m;
    memcpy(v, view.m, sizeof v);
    memcpy(p, proj.m, sizeof p);
    glm_mat4_mul(p, v, m);
    assert_same_16_floats(&d, m, 1e-5f);
    glm_mat4_mul(v, p, m);                           /* the other order differs */
    assert_true(fabsf(m[3][2] - d.m[3][2]) > 0.1f);
}

static void transform_coord_divides_by_w_mulv3_does_not(void **state)
{
    (void)state;
    d3dx_matrix d = d3dx_perspective_fov_lh(glm_rad(60.0f), 4.0f / 3.0f, 1.0f, 100.0f);
    mat4 m;
    memcpy(m, d.m, sizeof m);
    float p[3] = {0, 0, 100}, coord[3];              /* a point on the far plane */
    d3dx_transform_coord(p, &d, coord);
    assert_float_equal(coord[2], 1.0f, 1e-5f);       /* depth 1 after the divide */
    vec3 raw;
    glm_mat4_mulv3(m, p, 1.0f, raw);
    assert_float_equal(raw[2], 100.0f, 1e-3f);       /* still z * w = 100 */
}

/* ------------------------------------------------------------ handedness */

static void lh_view_space_looks_down_plus_z_rh_down_minus_z(void **state)
{
    (void)state;
    mat4 lh, rh;
    vec3 eye = {0, 0, 0}, target = {0, 0, 5}, up = {0, 1, 0}, p = {1, 0, 5}, v;
    glm_lookat_lh(eye, target, up, lh);
    glm_lookat(eye, target, up, rh);
    glm_mat4_mulv3(lh, p, 1.0f, v);
    assert_float_equal(v[0], 1.0f, 1e-6f);
    assert_float_equal(v[2], 5.0f, 1e-6f);
    glm_mat4_mulv3(rh, p, 1.0f, v);
    assert_float_equal(v[0], -1.0f, 1e-6f);          /* x mirrored */
    assert_float_equal(v[2], -5.0f, 1e-6f);          /* in front = negative z */
}

/* ------------------------------------------------------------ clip depth */

static void depth_0_is_the_near_plane_only_in_the_matching_convention(void **state)
{
    (void)state;
    mat4 gl, d3d, inv;
    glm_perspective(glm_rad(60.0f), 4.0f / 3.0f, 1.0f, 100.0f, gl);
    glm_perspective_lh_zo(glm_rad(60.0f), 4.0f / 3.0f, 1.0f, 100.0f, d3d);
    vec4 vp = {0, 0, 800, 600};
    vec3 p;
    glm_mat4_inv(gl, inv);
    glm_unprojecti_no((vec3){400, 300, 0}, inv, vp, p);
    assert_float_equal(p[2], -1.0f, 1e-4f);          /* GL matrix, GL depth: near */
    glm_unprojecti_zo((vec3){400, 300, 0}, inv, vp, p);
    assert_float_equal(p[2], -200.0f / 101.0f, 1e-4f); /* GL matrix, D3D depth: -1.98 */
    glm_mat4_inv(d3d, inv);
    glm_unprojecti_zo((vec3){400, 300, 0}, inv, vp, p);
    assert_float_equal(p[2], 1.0f, 1e-4f);           /* D3D matrix, D3D depth: near */
    glm_unprojecti_no((vec3){400, 300, 0}, inv, vp, p);
    assert_float_equal(p[2], 100.0f / 199.0f, 1e-4f); /* D3D matrix, GL depth: 0.50 */
}

static void pick_ray_origin_is_on_the_near_plane_in_both_conventions(void **state)
{
    (void)state;
    mat4 gl, d3d, id = GLM_MAT4_IDENTITY_INIT;
    glm_perspective(glm_rad(60.0f), 4.0f / 3.0f, 1.0f, 100.0f, gl);
    glm_perspective_lh_zo(glm_rad(60.0f), 4.0f / 3.0f, 1.0f, 100.0f, d3d);
    rp_viewport vp = {0, 0, 800, 600};
    rp_ray r;
    assert_true(rp_pick_ray_unproject(400, 300, &vp, gl, id, RP_GL, &r));
    assert_float_equal(r.origin[2], -1.0f, 1e-4f);
    assert_float_equal(r.origin[2] + r.dir[2], -100.0f, 1e-2f);   /* t = 1: far */
    assert_true(rp_pick_ray_unproject(400, 300, &vp, d3d, id, RP_D3D, &r));
    assert_float_equal(r.origin[2], 1.0f, 1e-4f);
    assert_float_equal(r.origin[2] + r.dir[2], 100.0f, 1e-2f);
    /* the wrong convention for the matrix moves the origin off the near plane */
    assert_true(rp_pick_ray_unproject(400, 300, &vp, gl, id, RP_D3D, &r));
    assert_float_equal(r.origin[2], -200.0f / 101.0f, 1e-3f);
}

/* ------------------------------------------------------------ viewport */

static void rp_viewport_y_down_is_glm_unproject_y_up_flipped(void **state)
{
    (void)state;
    mat4 proj, view, vpm;
    glm_perspective(glm_rad(60.0f), 4.0f / 3.0f, 1.0f, 100.0f, proj);
    glm_lookat((vec3){1, 2, 6}, (vec3){0, 0, 0}, (vec3){0, 1, 0}, view);
    glm_mat4_mul(proj, view, vpm);
    rp_viewport vp = {0, 0, 800, 600};
    rp_ray r;
    /* a click 100 pixels below the top edge */
    assert_true(rp_pick_ray_unproject(250, 100, &vp, proj, view, RP_GL, &r));
    vec3 near_up, near_unflipped;
    glm_unproject((vec3){250, 600 - 100, 0}, vpm, (vec4){0, 0, 800, 600}, near_up);
    glm_unproject((vec3){250, 100, 0}, vpm, (vec4){0, 0, 800, 600}, near_unflipped);
    for (int i = 0; i < 3; i++)
        assert_float_equal(r.origin[i], near_up[i], 1e-4f);
    assert_true(fabsf(r.origin[1] - near_unflipped[1]) > 0.1f);  /* the mirrored ray */
}

static void viewport_offset_moves_the_centre_pixel(void **state)
{
    (void)state;
    /* the right half of an 800 x 600 window: a split screen */
    mat4 proj, id = GLM_MAT4_IDENTITY_INIT;
    glm_perspective(glm_rad(60.0f), 400.0f / 600.0f, 1.0f, 100.0f, proj);
    rp_viewport right_half = {400, 0, 400, 600};
    rp_ray r;
    assert_true(rp_pick_ray_unproject(600, 300, &right_half, proj, id, RP_GL, &r));
    assert_float_equal(r.dir[0] / -r.dir[2], 0.0f, 1e-5f);        /* straight ahead */
    assert_true(rp_pick_ray_perspective(600, 300, &right_half, proj, id, RP_GL, &r));
    assert_float_equal(r.dir[0], 0.0f, 1e-5f);
    /* the seed's formula without the offset: 2 * 600 / 400 - 1 = 2, twice
       the distance to the edge of the view */
    float seed_ndc_x = 2.0f * 600.0f / 400.0f - 1.0f;
    assert_float_equal(seed_ndc_x, 2.0f, 0.0f);
}

/* ------------------------------------------------------------ _11 / _22 */

/* The seed's CalculateRay in view space, GL convention (forward is -z):
   direction (ndc_x / _11, ndc_y / _22, -1) from the eye. */
static void shortcut_view_ray(float x, float y, const rp_viewport *vp, mat4 proj, rp_ray *out)
{
    float ndc_x = 2.0f * (x - vp->x) / vp->width - 1.0f;
    float ndc_y = 1.0f - 2.0f * (y - vp->y) / vp->height;
    glm_vec3_zero(out->origin);
    out->dir[0] = ndc_x / proj[0][0];
    out->dir[1] = ndc_y / proj[1][1];
    out->dir[2] = -1.0f;
}

static void orthographic_projection_defeats_the_11_22_shortcut(void **state)
{
    (void)state;
    mat4 ortho, id = GLM_MAT4_IDENTITY_INIT;
    glm_ortho(-10, 10, -7.5f, 7.5f, 0.1f, 100, ortho);
    assert_float_equal(ortho[0][0], 0.1f, 1e-6f);    /* _11 = 2 / (r - l) */
    rp_viewport vp = {0, 0, 800, 600};
    rp_sphere target = {{9, 0, -50}, 1};             /* seen at ndc x = 0.9 */
    float x = 760, y = 300;                          /* (0.9 + 1) / 2 * 800 */
    rp_ray r;
    assert_true(rp_pick_ray_unproject(x, y, &vp, ortho, id, RP_GL, &r));
    assert_float_equal(r.origin[0], 9.0f, 1e-4f);    /* parallel rays */
    assert_float_equal(r.dir[0], 0.0f, 1e-4f);
    assert_true(rp_intersect_ray_sphere(&r, &target, NULL));
    shortcut_view_ray(x, y, &vp, ortho, &r);
    assert_float_equal(r.dir[0], 9.0f, 1e-4f);       /* 0.9 / 0.1: 84 degrees off */
    assert_false(rp_intersect_ray_sphere(&r, &target, NULL));
    /* raypick's D3D9-style function refuses rather than return that ray */
    assert_false(rp_pick_ray_perspective(x, y, &vp, ortho, id, RP_GL, NULL));
}

static void off_centre_projection_defeats_the_11_22_shortcut(void **state)
{
    (void)state;
    mat4 frustum, id = GLM_MAT4_IDENTITY_INIT;
    glm_frustum(-0.5f, 1.5f, -0.75f, 0.75f, 1, 100, frustum);
    assert_float_equal(frustum[2][0], 0.5f, 1e-6f);  /* _31 = (r + l) / (r - l) */
    rp_viewport vp = {0, 0, 800, 600};
    rp_sphere target = {{5, 0, -10}, 1};
    rp_ray r;
    assert_true(rp_pick_ray_unproject(400, 300, &vp, frustum, id, RP_GL, &r));
    assert_float_equal(r.dir[0] / -r.dir[2], 0.5f, 1e-4f);  /* centre pixel looks right */
    assert_true(rp_intersect_ray_sphere(&r, &target, NULL));
    shortcut_view_ray(400, 300, &vp, frustum, &r);
    assert_float_equal(r.dir[0], 0.0f, 0.0f);                /* straight ahead */
    assert_false(rp_intersect_ray_sphere(&r, &target, NULL));
    assert_false(rp_pick_ray_perspective(400, 300, &vp, frustum, id, RP_GL, NULL));
}

static void symmetric_perspective_both_pick_rays_agree(void **state)
{
    (void)state;
    mat4 proj, view;
    glm_perspective(glm_rad(50.0f), 16.0f / 9.0f, 0.5f, 200.0f, proj);
    glm_lookat((vec3){4, 3, 10}, (vec3){0, 1, 0}, (vec3){0, 1, 0}, view);
    rp_viewport vp = {0, 0, 1280, 720};
    rp_ray a, b;
    assert_true(rp_pick_ray_perspective(1000, 150, &vp, proj, view, RP_GL, &a));
    assert_true(rp_pick_ray_unproject(1000, 150, &vp, proj, view, RP_GL, &b));
    glm_vec3_normalize(b.dir);
    for (int i = 0; i < 3; i++)
        assert_float_equal(a.dir[i], b.dir[i], 1e-4f);
    assert_float_equal(a.origin[0], 4.0f, 1e-4f);    /* from the eye */
}

/* ------------------------------------------------------------ spheres */

static void shortcut_sphere_test_misses_unit_spheres_1_5_apart(void **state)
{
    (void)state;
    rp_sphere a = {{0, 0, 0}, 1}, b = {{1.5f, 0, 0}, 1};
    assert_true(rp_test_sphere_sphere(&a, &b));            /* 2.25 <= 4 */
    assert_false(rp_test_sphere_sphere_approx(&a, &b));    /* 2.25 <  2 is false */
    a.radius = b.radius = sqrtf(2.0f);                     /* the safe scaling */
    assert_true(rp_test_sphere_sphere_approx(&a, &b));     /* 2.25 < 4 */
}

static void worked_examples_of_the_lesson_notes(void **state)
{
    (void)state;
    rp_hit hit;
    /* lesson 1: eye at (0, 0, 5) looking down -z, unit sphere at the origin */
    rp_ray eye = {{0, 0, 5}, {0, 0, -1}};
    rp_sphere unit = {{0, 0, 0}, 1};
    assert_true(rp_intersect_ray_sphere(&eye, &unit, &hit));
    assert_float_equal(hit.t_enter, 4.0f, 1e-5f);
    assert_float_equal(hit.t_exit, 6.0f, 1e-5f);
    assert_float_equal(hit.point[2], 1.0f, 1e-5f);
    /* lesson 2: gun at the origin, shield of radius 2 around (0, 0, -10) */
    rp_ray beam = {{0, 0, 0}, {0, 0, -1}};
    rp_sphere shield = {{0, 0, -10}, 2};
    assert_true(rp_intersect_ray_sphere(&beam, &shield, &hit));
    assert_float_equal(hit.t, 8.0f, 1e-5f);
    assert_float_equal(hit.t_exit, 12.0f, 1e-5f);
    assert_float_equal(hit.point[2], -8.0f, 1e-5f);
    assert_false(hit.inside);
}

static void scaled_shortcut_reports_unequal_spheres_4_2_apart(void **state)
{
    (void)state;
    rp_sphere a = {{0, 0, 0}, 1}, b = {{4.2f, 0, 0}, 3};
    assert_false(rp_test_sphere_sphere(&a, &b));            /* 17.64 > 16 */
    a.radius = rp_sphere_radius_for_approx(1);
    b.radius = rp_sphere_radius_for_approx(3);
    assert_true(rp_test_sphere_sphere_approx(&a, &b));      /* 17.64 < 2 + 18 */
}

static void seed_min_root_is_negative_when_the_gun_is_inside(void **state)
{
    (void)state;
    /* gun at the centre of a radius-2 shield, firing along +x */
    rp_ray beam = {{0, 0, 0}, {1, 0, 0}};
    rp_sphere shield = {{0, 0, 0}, 2};
    rp_hit hit;
    assert_true(rp_intersect_ray_sphere(&beam, &shield, &hit));
    assert_float_equal(hit.t_enter, -2.0f, 1e-5f);   /* what min(s1, s2) returns */
    assert_float_equal(hit.t, 2.0f, 1e-5f);          /* the exit point */
    assert_true(hit.inside);
    /* shield entirely behind the gun: the seed reports t = -7 as a hit */
    rp_sphere behind = {{-5, 0, 0}, 2};
    assert_false(rp_intersect_ray_sphere(&beam, &behind, &hit));
}

static void point_on_the_sphere_is_not_inside_but_touching_spheres_collide(void **state)
{
    (void)state;
    rp_sphere s = {{0, 0, 0}, 1}, t = {{2, 0, 0}, 1};
    assert_false(rp_sphere_contains_point(&s, (vec3){1, 0, 0}));   /* 1 < 1 fails */
    assert_true(rp_sphere_contains_point(&s, (vec3){0.999f, 0, 0}));
    assert_true(rp_test_sphere_sphere(&s, &t));                     /* 4 <= 4 */
}


/* The textbook quadratic in float, as the German article evaluates it:
   a t^2 + b t + c with b = 2 d.(o - c), discriminant b^2 - 4ac, and the
   smaller root. For the precision comparison only. */
static bool textbook_ray_sphere(const rp_ray *ray, const rp_sphere *s, float *t)
{
    float oc[3] = {ray->origin[0] - s->center[0], ray->origin[1] - s->center[1],
                   ray->origin[2] - s->center[2]};
    float a = dot3(ray->dir, ray->dir);
    float b = 2.0f * dot3(oc, ray->dir);
    float c = dot3(oc, oc) - s->radius * s->radius;
    float disc = b * b - 4.0f * a * c;
    if (disc < 0.0f)
        return false;
    float root = sqrtf(disc);
    float s1 = (-b + root) / (2.0f * a), s2 = (-b - root) / (2.0f * a);
    *t = s1 < s2 ? s1 : s2;
    return true;
}

static void textbook_float_quadratic_fails_for_a_small_far_sphere(void **state)
{
    (void)state;
    rp_sphere ball = {{0, 0, -1000}, 0.1f};
    /* a ray passing 0.15 from the centre: outside a radius of 0.1 */
    rp_ray past = {{0.15f, 0, 0}, {0, 0, -1}};
    float t;
    assert_true(textbook_ray_sphere(&past, &ball, &t));      /* a phantom hit */
    assert_false(rp_intersect_ray_sphere(&past, &ball, NULL));
    /* through the centre: the entry point is at t = 999.9 */
    rp_ray through = {{0, 0, 0}, {0, 0, -1}};
    rp_hit hit;
    assert_true(textbook_ray_sphere(&through, &ball, &t));
    assert_float_equal(t, 1000.0f, 0.01f);                   /* a radius off */
    assert_true(rp_intersect_ray_sphere(&through, &ball, &hit));
    assert_float_equal(hit.t, 999.9f, 1e-3f);
    /* just inside the radius still hits */
    rp_ray grazing = {{0.09f, 0, 0}, {0, 0, -1}};
    assert_true(rp_intersect_ray_sphere(&grazing, &ball, NULL));
}

/* ------------------------------------------------------------ ellipsoids */

static void rotated_ellipsoid_turns_its_shield_and_its_normals(void **state)
{
    (void)state;
    /* radii 4, 1, 1: long along x; turned 90 degrees about y: long along z */
    rp_ellipsoid aligned = {{0, 0, 0}, {4, 1, 1}, {0, 0, 0, 0}};
    rp_ellipsoid turned = aligned;
    glm_quatv(turned.orientation, GLM_PI_2f, (vec3){0, 1, 0});
    rp_ray off_axis = {{2, 0, 10}, {0, 0, -1}};
    rp_hit hit;
    assert_true(rp_intersect_ray_ellipsoid(&off_axis, &aligned, &hit));
    assert_float_equal(hit.t, 10.0f - sqrtf(0.75f), 1e-4f);  /* (2/4)^2 + z^2 = 1 */
    assert_false(rp_intersect_ray_ellipsoid(&off_axis, &turned, NULL)); /* |x| > 1 */
    rp_ray near_axis = {{0.5f, 0, 10}, {0, 0, -1}};
    assert_true(rp_intersect_ray_ellipsoid(&near_axis, &turned, &hit));
    float z = 4.0f * sqrtf(0.75f);                           /* (z/4)^2 + 0.5^2 = 1 */
    assert_float_equal(hit.t, 10.0f - z, 1e-4f);
    /* the normal is the gradient (x / 1, 0, z / 16), not the direction from
       the centre (0.5, 0, 3.46) / 3.5 = (0.14, 0, 0.99) */
    vec3 gradient = {0.5f, 0, z / 16.0f};
    glm_vec3_normalize(gradient);
    assert_float_equal(gradient[0], 0.9177f, 1e-3f);
    for (int i = 0; i < 3; i++)
        assert_float_equal(hit.normal[i], gradient[i], 1e-4f);
}

static void cglm_normalize_keeps_a_zero_vector_zero(void **state)
{
    (void)state;
    vec3 v = {0, 0, 0}, w;
    glm_vec3_normalize(v);
    glm_vec3_normalize_to(v, w);
    for (int i = 0; i < 3; i++) {
        assert_float_equal(v[i], 0.0f, 0.0f);
        assert_float_equal(w[i], 0.0f, 0.0f);
    }
}

static void shrunken_spheres_report_touching_models_apart(void **state)
{
    (void)state;
    /* ships 2 long (enclosing radius 1) with the Android book's smaller 0.8 */
    rp_sphere a = {{0, 0, 0}, 0.8f}, b = {{2.0f, 0, 0}, 0.8f};
    assert_false(rp_test_sphere_sphere(&a, &b));             /* noses touch at 2 */
    b.center[0] = 1.7f;
    assert_false(rp_test_sphere_sphere(&a, &b));             /* overlapping models */
    b.center[0] = 1.6f;
    assert_true(rp_test_sphere_sphere(&a, &b));              /* 2.56 <= 2.56 */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(d3dx_perspective_fov_lh_is_glm_perspective_lh_zo_float_for_float),
        cmocka_unit_test(d3dx_look_at_lh_is_glm_lookat_lh_float_for_float),
        cmocka_unit_test(d3dx_translation_sits_in_floats_12_to_14_like_cglm),
        cmocka_unit_test(row_vector_times_d3dx_matrix_is_cglm_matrix_times_column_vector),
        cmocka_unit_test(d3dx_multiply_a_b_is_glm_mat4_mul_b_a),
        cmocka_unit_test(transform_coord_divides_by_w_mulv3_does_not),
        cmocka_unit_test(lh_view_space_looks_down_plus_z_rh_down_minus_z),
        cmocka_unit_test(depth_0_is_the_near_plane_only_in_the_matching_convention),
        cmocka_unit_test(pick_ray_origin_is_on_the_near_plane_in_both_conventions),
        cmocka_unit_test(rp_viewport_y_down_is_glm_unproject_y_up_flipped),
        cmocka_unit_test(viewport_offset_moves_the_centre_pixel),
        cmocka_unit_test(orthographic_projection_defeats_the_11_22_shortcut),
        cmocka_unit_test(off_centre_projection_defeats_the_11_22_shortcut),
        cmocka_unit_test(symmetric_perspective_both_pick_rays_agree),
        cmocka_unit_test(shortcut_sphere_test_misses_unit_spheres_1_5_apart),
        cmocka_unit_test(worked_examples_of_the_lesson_notes),
        cmocka_unit_test(scaled_shortcut_reports_unequal_spheres_4_2_apart),
        cmocka_unit_test(seed_min_root_is_negative_when_the_gun_is_inside),
        cmocka_unit_test(point_on_the_sphere_is_not_inside_but_touching_spheres_collide),
        cmocka_unit_test(textbook_float_quadratic_fails_for_a_small_far_sphere),
        cmocka_unit_test(rotated_ellipsoid_turns_its_shield_and_its_normals),
        cmocka_unit_test(cglm_normalize_keeps_a_zero_vector_zero),
        cmocka_unit_test(shrunken_spheres_report_touching_models_apart),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

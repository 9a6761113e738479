/* fuzz_frustum.c: the frustum from a screen rectangle (or a frustum made of
   raw bytes) against every shape, fed any bit pattern for every float.

   Input: byte 0 picks how floats are read (0 raw, 1 tame, 2 tame with an
   odd raw one, 3 a real camera built from tame numbers), byte 1 the
   convention (0 GL, 1 D3D, anything else an out-of-range value), byte 2
   flags (bit 0: a frustum of raw floats instead of one built from the
   camera, bit 1: order each box axis so min <= max, bit 2: an orthographic
   real camera, bit 3: all-zero orientations), byte 3 the polyline's point
   count (0..7); then the rectangle, the viewport, the camera (two raw
   matrices, or eye, target, fov / height, near, far), the shapes.

   Checks: outputs untouched on false; a built frustum is finite with unit
   normals; contains => exact => conservative for every shape; a real
   camera with a non-empty rectangle gives a frustum, whose corners lie
   inside all six planes and hold the point under the rectangle's centre;
   shapes through its corners (a ball at a corner, the box around the
   corners, a segment and a triangle between corners) meet it; a segment
   or triangle with a vertex well inside meets it. */
#define CGLM_CLIPSPACE_INCLUDE_ALL
#include <float.h>
#include "fuzz_common.h"

#define MAX_POLY 7

static float tame_in(fuzz_input *in, float lo, float hi)
{
    return lo + (hi - lo) * (float)fuzz_u8(in) / 255.0f;
}

/* A real camera: false when its parameters make none (eye on the target,
   looking straight up or down). */
static bool build_camera(fuzz_input *in, rp_convention conv, bool ortho, float aspect,
                         mat4 proj, mat4 view)
{
    vec3 eye, target, up = {0, 1, 0}, fwd;
    fuzz_vec3(in, 1, eye);
    fuzz_vec3(in, 1, target);
    const float near_z = tame_in(in, 0.05f, 5.0f), far_z = near_z * tame_in(in, 10.0f, 5000.0f);
    const float fovy = glm_rad(tame_in(in, 10.0f, 120.0f)), half_h = tame_in(in, 0.5f, 50.0f);
    glm_vec3_sub(target, eye, fwd);
    const float len = glm_vec3_norm(fwd);
    if (len < 1e-3f || len - fabsf(fwd[1]) < 1e-3f * len)
        return false;
    if (conv == RP_D3D) {
        if (ortho)
            glm_ortho_lh_zo(-half_h * aspect, half_h * aspect, -half_h, half_h, near_z, far_z, proj);
        else
            glm_perspective_lh_zo(fovy, aspect, near_z, far_z, proj);
        glm_lookat_lh(eye, target, up, view);
    } else {
        if (ortho)
            glm_ortho_rh_no(-half_h * aspect, half_h * aspect, -half_h, half_h, near_z, far_z, proj);
        else
            glm_perspective_rh_no(fovy, aspect, near_z, far_z, proj);
        glm_lookat_rh(eye, target, up, view);
    }
    return true;
}

static void check_frustum(const rp_frustum *f)
{
    for (int k = 0; k < 6; k++) {
        fuzz_check(fuzz_vec3_finite(f->planes[k].normal) && isfinite(f->planes[k].d),
                   "a non-finite plane");
        const float len = glm_vec3_norm((float *)f->planes[k].normal);
        fuzz_check(fabsf(len - 1.0f) < 1e-5f, "a plane's normal is not unit length");
    }
    for (int i = 0; i < 8; i++)
        fuzz_check(fuzz_vec3_finite(f->corners[i]), "a non-finite corner");
}

/* contains => exact => conservative, whatever the input. */
static void check_nested(bool conservative, bool exact, bool contains, const char *what)
{
    if (contains && !exact)
        fuzz_fail("%s: contained but not meeting", what);
    if (exact && !conservative)
        fuzz_fail("%s: exact meets, conservative does not", what);
}

static void read_quat(fuzz_input *in, int mode, bool zero, versor q)
{
    for (int i = 0; i < 4; i++)
        q[i] = zero ? 0.0f : fuzz_float(in, mode);
    if (!zero && mode != 0 && (fuzz_u8(in) & 1)) {   /* mostly a unit one */
        const float n = sqrtf(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
        if (n > 0.0f && isfinite(n))
            for (int i = 0; i < 4; i++)
                q[i] /= n;
    }
}

/* The shortest of the frustum's twelve edges (corners differing in one
   index bit). */
static float thinnest_edge(const rp_frustum *f)
{
    float shortest = INFINITY;
    for (int i = 0; i < 8; i++)
        for (int bit = 1; bit < 8; bit <<= 1)
            if (!(i & bit)) {
                const float *a = f->corners[i], *b = f->corners[i | bit];
                const float dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2];
                shortest = fminf(shortest, sqrtf(dx * dx + dy * dy + dz * dz));
            }
    return shortest;
}

/* The largest coordinate of the corners. */
static float corner_scale(const rp_frustum *f)
{
    float scale = 0.0f;
    for (int i = 0; i < 8; i++)
        for (int k = 0; k < 3; k++)
            scale = fmaxf(scale, fabsf(f->corners[i][k]));
    return scale;
}

/* Is the frustum more than a few float steps wide everywhere? Narrower
   (a rectangle a fraction of a pixel wide, far from the origin), rounding
   its planes and corners to float can cross two opposite planes inside
   it, and what is inside is then decided by the rounding. */
static bool wide_for_float(const rp_frustum *f)
{
    return thinnest_edge(f) > 1e-5f * (corner_scale(f) + 1.0f);
}

static void fuzz_shapes(const rp_frustum *f, bool built, fuzz_input *in, int mode,
                        uint8_t flags, int poly_count)
{
    rp_sphere s;
    fuzz_vec3(in, mode, s.center);
    s.radius = fuzz_float(in, mode);
    check_nested(rp_test_frustum_sphere_conservative(f, &s), rp_test_frustum_sphere_exact(f, &s),
                 rp_frustum_contains_sphere(f, &s), "sphere");

    rp_ellipsoid e;
    fuzz_vec3(in, mode, e.center);
    fuzz_vec3(in, mode, e.radii);
    read_quat(in, mode, flags & 8, e.orientation);
    check_nested(rp_test_frustum_ellipsoid_conservative(f, &e),
                 rp_test_frustum_ellipsoid_exact(f, &e), rp_frustum_contains_ellipsoid(f, &e),
                 "ellipsoid");

    rp_aabb box;
    fuzz_vec3(in, mode, box.min);
    fuzz_vec3(in, mode, box.max);
    if (flags & 2)
        for (int k = 0; k < 3; k++)
            if (box.min[k] > box.max[k]) {
                const float t = box.min[k];
                box.min[k] = box.max[k];
                box.max[k] = t;
            }
    check_nested(rp_test_frustum_aabb_conservative(f, &box), rp_test_frustum_aabb_exact(f, &box),
                 rp_frustum_contains_aabb(f, &box), "aabb");

    rp_obb obb;
    fuzz_vec3(in, mode, obb.center);
    fuzz_vec3(in, mode, obb.half_extents);
    if (flags & 2)
        for (int k = 0; k < 3; k++)
            obb.half_extents[k] = fabsf(obb.half_extents[k]);
    read_quat(in, mode, flags & 8, obb.orientation);
    check_nested(rp_test_frustum_obb_conservative(f, &obb), rp_test_frustum_obb_exact(f, &obb),
                 rp_frustum_contains_obb(f, &obb), "obb");

    vec3 v[3];
    for (int i = 0; i < 3; i++)
        fuzz_vec3(in, mode, v[i]);
    const bool tri = rp_test_frustum_triangle(f, v[0], v[1], v[2]);
    const bool seg = rp_test_frustum_segment(f, v[0], v[1]);
    /* a vertex well inside (a small ball around it is): both meet. Near
       the boundary the triangle's test (on the corners) and the segment's
       (on the planes) may differ by the frustum's float rounding, which
       grows with the frustum's size, not the vertex's (the CI input: a
       vertex 0.8 from the origin, corners 2e9 away); in a frustum of raw
       floats, planes and corners need not agree at all. */
    const rp_sphere around_v0 = {
        {v[0][0], v[0][1], v[0][2]},
        fmaxf(1e-4f * (1.0f + fabsf(v[0][0]) + fabsf(v[0][1]) + fabsf(v[0][2])),
              1e-5f * (corner_scale(f) + 1.0f))};
    if (built && isfinite(around_v0.radius) && rp_frustum_contains_sphere(f, &around_v0)) {
        fuzz_check(tri, "a triangle with a vertex well inside misses");
        fuzz_check(seg, "a segment with an end well inside misses");
    }

    float pts[MAX_POLY * 3];
    for (int i = 0; i < poly_count * 3; i++)
        pts[i] = fuzz_float(in, mode);
    size_t first = (size_t)-1;
    const bool poly = rp_test_frustum_polyline(f, pts, (size_t)poly_count, 0, &first);
    const bool poly_in = rp_frustum_contains_polyline(f, pts, (size_t)poly_count, 0);
    if (poly_in && !poly)
        fuzz_fail("polyline: contained but not meeting");
    if (poly) {
        fuzz_check(first < (size_t)(poly_count > 1 ? poly_count - 1 : 1), "segment index out of range");
        if (poly_count > 1)
            fuzz_check(rp_test_frustum_segment(f, pts + 3 * first, pts + 3 * first + 3),
                       "the reported segment does not meet");
    } else {
        fuzz_check(first == (size_t)-1, "polyline: a miss wrote the index");
    }
}

/* A real frustum: shapes through its own corners meet it. */
static void fuzz_corners(const rp_frustum *f)
{
    const float scale = corner_scale(f);
    rp_aabb around = {{INFINITY, INFINITY, INFINITY}, {-INFINITY, -INFINITY, -INFINITY}};
    for (int i = 0; i < 8; i++)
        for (int k = 0; k < 3; k++) {
            around.min[k] = fminf(around.min[k], f->corners[i][k]);
            around.max[k] = fmaxf(around.max[k], f->corners[i][k]);
        }
    for (int i = 0; i < 8; i++) {
        for (int k = 0; k < 6; k++) {
            float d;
            fuzz_check(rp_plane_signed_distance(&f->planes[k], f->corners[i], &d), "plane refused");
            if (d < -1e-5f * (scale + 1.0f))
                fuzz_fail("corner %d is %g outside plane %d", i, (double)d, k);
        }
        const rp_sphere ball = {{f->corners[i][0], f->corners[i][1], f->corners[i][2]},
                                1e-5f * (scale + 1.0f)};
        fuzz_check(rp_test_frustum_sphere_exact(f, &ball), "a ball at a corner misses");
        /* A diagonal and a triangle of corners touch the frustum's faces
           and edges: when the frustum is only a few float steps wide there
           (a rectangle a fraction of a pixel, far away), rounding the
           corners to float can move them all outside one plane, and missing
           is then the exact answer for those floats. */
        if (wide_for_float(f)) {
            fuzz_check(rp_test_frustum_segment(f, f->corners[i], f->corners[7 - i]),
                       "a diagonal misses");
            fuzz_check(rp_test_frustum_triangle(f, f->corners[i], f->corners[i ^ 3], f->corners[i ^ 5]),
                       "a triangle of corners misses");
        }
    }
    fuzz_check(rp_test_frustum_aabb_exact(f, &around), "the box around the corners misses");
    const rp_obb obb = {{0.5f * (around.min[0] + around.max[0]), 0.5f * (around.min[1] + around.max[1]),
                         0.5f * (around.min[2] + around.max[2])},
                        {0.5f * (around.max[0] - around.min[0]), 0.5f * (around.max[1] - around.min[1]),
                         0.5f * (around.max[2] - around.min[2])},
                        {0, 0, 0, 0}};
    if (fuzz_vec3_finite(obb.half_extents))
        fuzz_check(rp_test_frustum_obb_exact(f, &obb), "the oriented box around the corners misses");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_watchdog();
    fuzz_input in = {data, size, 0};
    const int mode = fuzz_u8(&in) % 4;
    const uint8_t conv_byte = fuzz_u8(&in);
    const rp_convention conv = conv_byte < 128 ? (rp_convention)(conv_byte & 1)
                                               : (rp_convention)(int)conv_byte;
    const uint8_t flags = fuzz_u8(&in);
    const int poly_count = fuzz_u8(&in) % (MAX_POLY + 1);
    const int fmode = mode == 3 ? 1 : mode;

    float rect[4];
    rp_viewport vp;
    for (int i = 0; i < 4; i++)
        rect[i] = fuzz_float(&in, fmode);
    vp.x = fuzz_float(&in, fmode);
    vp.y = fuzz_float(&in, fmode);
    vp.width = fuzz_float(&in, fmode);
    vp.height = fuzz_float(&in, fmode);

    rp_frustum f;
    fuzz_poison(&f, sizeof f);
    bool real = false;
    if (flags & 1) {
        /* a frustum of raw floats: the tests must refuse or answer, never crash */
        float *raw = &f.planes[0].normal[0];
        for (size_t i = 0; i < sizeof f / sizeof(float); i++)
            raw[i] = fuzz_float(&in, fmode);
    } else {
        mat4 proj, view;
        if (mode == 3) {
            vp.width = fabsf(vp.width) + 1.0f;
            vp.height = fabsf(vp.height) + 1.0f;
            for (int i = 0; i < 4; i++)
                rect[i] = (i % 2 ? vp.y + vp.height * tame_in(&in, -0.3f, 1.3f)
                                 : vp.x + vp.width * tame_in(&in, -0.3f, 1.3f));
            const float aspect = vp.width / vp.height;
            const bool known = conv == RP_GL || conv == RP_D3D;
            real = known && aspect > 0.1f && aspect < 10.0f &&
                   build_camera(&in, conv, flags & 4, aspect, proj, view);
            if (!real)
                return 0;
        } else {
            fuzz_mat4(&in, mode, proj);
            fuzz_mat4(&in, mode, view);
        }
        const bool got = rp_frustum_from_rect(rect[0], rect[1], rect[2], rect[3], &vp, proj, view,
                                              conv, &f);
        fuzz_check(rp_frustum_from_rect(rect[0], rect[1], rect[2], rect[3], &vp, proj, view, conv,
                                        NULL) == got, "NULL out changes the answer");
        if (!got) {
            fuzz_check(fuzz_untouched(&f, sizeof f), "a refused frustum was written");
            /* a real camera refuses only a rectangle left empty by clipping */
            const double w = fmin(fmax(rect[0], rect[2]), (double)vp.x + vp.width) -
                             fmax(fmin(rect[0], rect[2]), vp.x);
            const double h = fmin(fmax(rect[1], rect[3]), (double)vp.y + vp.height) -
                             fmax(fmin(rect[1], rect[3]), vp.y);
            if (real && w > 0 && h > 0)
                fuzz_fail("a real camera's rectangle (%g x %g px) was refused", w, h);
            return 0;
        }
        check_frustum(&f);
        if (real) {
            fuzz_corners(&f);
            /* the point under the rectangle's centre, half-way in depth,
               where the frustum is wide enough for float to hold it (the
               CI input: 0.0012 px wide, 97 units from the origin, its two
               side planes crossing 4e-6 from the point) */
            const float cx = 0.5f * (fmaxf(fminf(rect[0], rect[2]), vp.x) +
                                     fminf(fmaxf(rect[0], rect[2]), vp.x + vp.width));
            const float cy = 0.5f * (fmaxf(fminf(rect[1], rect[3]), vp.y) +
                                     fminf(fmaxf(rect[1], rect[3]), vp.y + vp.height));
            vec3 p;
            if (wide_for_float(&f) && rp_unproject_point(cx, cy, 0.5f, &vp, proj, view, conv, p)) {
                const rp_sphere dot = {{p[0], p[1], p[2]},
                                       1e-5f * (1.0f + fabsf(p[0]) + fabsf(p[1]) + fabsf(p[2]))};
                fuzz_check(rp_test_frustum_sphere_exact(&f, &dot),
                           "the point under the rectangle's centre is outside");
            }
        }
    }
    fuzz_shapes(&f, !(flags & 1), &in, fmode, flags, poly_count);
    return 0;
}

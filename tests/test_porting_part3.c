/* test_porting_part3.c: the rows of docs/porting-d3d11-xna.md, one test per
 * row (or per small family of rows). Each test computes what the original
 * call does, as its documentation and published source describe it, with
 * its own small re-implementation here in double precision (not raypick,
 * not cglm), and checks raypick or cglm plus the guide's mapping against
 * it on random inputs: inside origins, grazing rays, degenerate boxes and
 * ties included. Written here from the documented semantics; no code of
 * DirectXMath, xnacollision, XNA or MonoGame is copied.
 *
 * Matrices of the originals are kept as double m[r][c] = _{r+1}{c+1}
 * (DirectXMath r[r].c, XNA M{r+1}{c+1}): row vectors, v' = v M. */
#define CGLM_CLIPSPACE_INCLUDE_ALL   /* glm_perspective_lh_zo, glm_lookat_lh, ... */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <float.h>
#include <math.h>
#include <string.h>
#include <cmocka.h>

#include <raypick/raypick.h>

/* ---- random inputs -------------------------------------------------------- */

typedef struct rng { uint64_t s; } rng;

static uint64_t next_u64(rng *r)
{
    /* xorshift64*: deterministic, so a failure names a reproducible case */
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    return r->s * 0x2545F4914F6CDD1DULL;
}

static double uniform(rng *r, double lo, double hi)
{
    return lo + (hi - lo) * (double)(next_u64(r) >> 11) * 0x1p-53;
}

/* a multiple of 1/64 in [lo, hi]: centres, extents and origins exact in
   float, so c - e and c + e are exact too and both sides see one box */
static float dyadic(rng *r, double lo, double hi)
{
    return (float)(floor(uniform(r, lo, hi) * 64.0) / 64.0);
}

/* a random direction rounded to float (unit to within float rounding, as
   DirectXMath's Intersects asserts) */
static void unit_dir(rng *r, float d[3])
{
    double v[3], n;
    do {
        for (int k = 0; k < 3; k++)
            v[k] = uniform(r, -1.0, 1.0);
        n = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    } while (n < 0.1 || n > 1.0);
    for (int k = 0; k < 3; k++)
        d[k] = (float)(v[k] / n);
}

/* the unit direction from a to b, in float */
static void dir_towards(const float a[3], const double b[3], float d[3])
{
    double v[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
    double n = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    for (int k = 0; k < 3; k++)
        d[k] = (float)(v[k] / n);
}

static void to_d3(const float f[3], double d[3])
{
    d[0] = f[0], d[1] = f[1], d[2] = f[2];
}

static double dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void cross3(const double a[3], const double b[3], double out[3])
{
    double t[3] = {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
    memcpy(out, t, sizeof t);
}

static void sub3(const double a[3], const double b[3], double out[3])
{
    out[0] = a[0] - b[0], out[1] = a[1] - b[1], out[2] = a[2] - b[2];
}

static void normalize3(double v[3])
{
    double n = sqrt(dot3(v, v));
    v[0] /= n, v[1] /= n, v[2] /= n;
}

/* |a - b| <= tol (1 + |b|) */
static void assert_close(double a, double b, double tol)
{
    if (!(fabs(a - b) <= tol * (1.0 + fabs(b)))) {
        print_error("%.9g is not %.9g (tolerance %g)\n", a, b, tol);
        fail();
    }
}

/* ---- the originals' matrices (row vectors) ------------------------------ */

typedef struct dmat { double m[4][4]; } dmat;   /* m[r][c] = _{r+1}{c+1} */

static dmat dmat_zero(void)
{
    dmat z;
    memset(&z, 0, sizeof z);
    return z;
}

static dmat dmat_identity(void)
{
    dmat z = dmat_zero();
    for (int i = 0; i < 4; i++)
        z.m[i][i] = 1.0;
    return z;
}

/* A * B as DirectXMath's XMMatrixMultiply and XNA's operator* define it */
static dmat dmat_mul(const dmat *a, const dmat *b)
{
    dmat c = dmat_zero();
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            for (int k = 0; k < 4; k++)
                c.m[i][j] += a->m[i][k] * b->m[k][j];
    return c;
}

/* Gauss-Jordan with partial pivoting; returns the determinant (0: singular) */
static double dmat_inverse(const dmat *a, dmat *inv)
{
    double w[4][8];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 8; j++)
            w[i][j] = j < 4 ? a->m[i][j] : (j - 4 == i ? 1.0 : 0.0);
    double det = 1.0;
    for (int c = 0; c < 4; c++) {
        int p = c;
        for (int r = c + 1; r < 4; r++)
            if (fabs(w[r][c]) > fabs(w[p][c]))
                p = r;
        if (w[p][c] == 0.0)
            return 0.0;
        if (p != c) {
            for (int j = 0; j < 8; j++) {
                double t = w[p][j];
                w[p][j] = w[c][j], w[c][j] = t;
            }
            det = -det;
        }
        det *= w[c][c];
        double piv = w[c][c];
        for (int j = 0; j < 8; j++)
            w[c][j] /= piv;
        for (int r = 0; r < 4; r++) {
            if (r == c)
                continue;
            double f = w[r][c];
            for (int j = 0; j < 8; j++)
                w[r][j] -= f * w[c][j];
        }
    }
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            inv->m[i][j] = w[i][j + 4];
    return det;
}

/* (x, y, z, w) M */
static void dmat_row_vec4(const dmat *m, const double v[4], double out[4])
{
    double t[4] = {0, 0, 0, 0};
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++)
            t[c] += v[r] * m->m[r][c];
    memcpy(out, t, sizeof t);
}

/* XMVector3TransformCoord: (x, y, z, 1) M, divided by w */
static void xm_transform_coord(const dmat *m, const double v[3], double out[3])
{
    double h[4] = {v[0], v[1], v[2], 1.0}, o[4];
    dmat_row_vec4(m, h, o);
    out[0] = o[0] / o[3], out[1] = o[1] / o[3], out[2] = o[2] / o[3];
}

/* XMVector3TransformNormal / XNA Vector3.TransformNormal: (x, y, z, 0) M */
static void xm_transform_normal(const dmat *m, const double v[3], double out[3])
{
    double h[4] = {v[0], v[1], v[2], 0.0}, o[4];
    dmat_row_vec4(m, h, o);
    out[0] = o[0], out[1] = o[1], out[2] = o[2];
}

/* XNA Vector3.Transform(v, m): (x, y, z, 1) M, the w it makes dropped */
static void xna_vector3_transform(const dmat *m, const double v[3], double out[3])
{
    double h[4] = {v[0], v[1], v[2], 1.0}, o[4];
    dmat_row_vec4(m, h, o);
    out[0] = o[0], out[1] = o[1], out[2] = o[2];
}

static dmat dmat_from_mat4(mat4 f)
{
    dmat d;
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++)
            d.m[r][c] = f[r][c];
    return d;
}

/* every element within tol of the reference, relative to the largest */
static void assert_mat4_is(mat4 f, const dmat *ref, double tol)
{
    double scale = 0.0;
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++)
            scale = fmax(scale, fabs(ref->m[r][c]));
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++)
            if (!(fabs(f[r][c] - ref->m[r][c]) <= tol * scale)) {
                print_error("_%d%d = %.9g, expected %.9g\n", r + 1, c + 1, (double)f[r][c], ref->m[r][c]);
                fail();
            }
}

/* XMMatrixPerspectiveFovLH / RH as documented: h = cot(fovY / 2),
   w = h / aspect; LH: _33 = f / (f - n), _34 = 1, _43 = -n f / (f - n);
   RH (and XNA's CreatePerspectiveFieldOfView): _33 = f / (n - f),
   _34 = -1, _43 = n f / (n - f) */
static dmat xm_perspective_fov(double fovy, double aspect, double n, double f, bool lh)
{
    dmat m = dmat_zero();
    double h = cos(0.5 * fovy) / sin(0.5 * fovy);
    m.m[0][0] = h / aspect;
    m.m[1][1] = h;
    if (lh) {
        m.m[2][2] = f / (f - n), m.m[2][3] = 1.0, m.m[3][2] = -n * f / (f - n);
    } else {
        m.m[2][2] = f / (n - f), m.m[2][3] = -1.0, m.m[3][2] = n * f / (n - f);
    }
    return m;
}

/* XMMatrixOrthographicLH / RH (XNA: CreateOrthographic): width w, height h */
static dmat xm_orthographic(double w, double h, double n, double f, bool lh)
{
    dmat m = dmat_zero();
    m.m[0][0] = 2.0 / w;
    m.m[1][1] = 2.0 / h;
    m.m[2][2] = lh ? 1.0 / (f - n) : 1.0 / (n - f);
    m.m[3][2] = lh ? -n / (f - n) : n / (n - f);
    m.m[3][3] = 1.0;
    return m;
}

/* XMMatrixLookToLH / RH: z = dir (LH) or -dir (RH), x = up x z, y = z x x;
   columns x y z, last row -(x.eye, y.eye, z.eye) */
static dmat xm_look_to(const double eye[3], const double dir[3], const double up[3], bool lh)
{
    double z[3] = {dir[0], dir[1], dir[2]}, x[3], y[3];
    if (!lh)
        z[0] = -z[0], z[1] = -z[1], z[2] = -z[2];
    normalize3(z);
    cross3(up, z, x);
    normalize3(x);
    cross3(z, x, y);
    dmat m = dmat_identity();
    for (int r = 0; r < 3; r++)
        m.m[r][0] = x[r], m.m[r][1] = y[r], m.m[r][2] = z[r];
    m.m[3][0] = -dot3(x, eye), m.m[3][1] = -dot3(y, eye), m.m[3][2] = -dot3(z, eye);
    return m;
}

/* XMMatrixLookAtLH / RH (XNA: CreateLookAt, right-handed) */
static dmat xm_look_at(const double eye[3], const double at[3], const double up[3], bool lh)
{
    double dir[3];
    sub3(at, eye, dir);
    return xm_look_to(eye, dir, up, lh);
}

/* XMMatrixRotationX/Y/Z (XNA: CreateRotationX/Y/Z): for row vectors, the
   rows are the images of the axes */
static dmat xm_rotation_axis(int axis, double a)
{
    dmat m = dmat_identity();
    int i = (axis + 1) % 3, j = (axis + 2) % 3;
    m.m[i][i] = cos(a), m.m[i][j] = sin(a);
    m.m[j][i] = -sin(a), m.m[j][j] = cos(a);
    return m;
}

/* XMMatrixRotationQuaternion / XNA CreateFromQuaternion, q = (x, y, z, w) unit */
static dmat xm_rotation_quaternion(const double q[4])
{
    double x = q[0], y = q[1], z = q[2], w = q[3];
    dmat m = dmat_identity();
    m.m[0][0] = 1 - 2 * (y * y + z * z), m.m[0][1] = 2 * (x * y + z * w), m.m[0][2] = 2 * (x * z - y * w);
    m.m[1][0] = 2 * (x * y - z * w), m.m[1][1] = 1 - 2 * (x * x + z * z), m.m[1][2] = 2 * (y * z + x * w);
    m.m[2][0] = 2 * (x * z + y * w), m.m[2][1] = 2 * (y * z - x * w), m.m[2][2] = 1 - 2 * (x * x + y * y);
    return m;
}

/* XMMatrixRotationRollPitchYaw(pitch, yaw, roll) / XNA
   CreateFromYawPitchRoll(yaw, pitch, roll): roll about z first, then pitch
   about x, then yaw about y */
static dmat xm_roll_pitch_yaw(double pitch, double yaw, double roll)
{
    dmat rz = xm_rotation_axis(2, roll), rx = xm_rotation_axis(0, pitch), ry = xm_rotation_axis(1, yaw);
    dmat zx = dmat_mul(&rz, &rx);
    return dmat_mul(&zx, &ry);
}

/* XMVector3Unproject(v, vx, vy, vw, vh, minz, maxz, P, V, W): the viewport
   mapping undone (y down, depth (z - minz) / (maxz - minz)), then the
   inverse of W V P with the divide by w */
static bool xm_unproject(const double v[3], double vx, double vy, double vw, double vh, double minz,
                         double maxz, const dmat *p, const dmat *view, const dmat *world, double out[3])
{
    dmat wv = dmat_mul(world, view), wvp = dmat_mul(&wv, p), inv;
    if (dmat_inverse(&wvp, &inv) == 0.0)
        return false;
    double ndc[3] = {(v[0] - vx) / (0.5 * vw) - 1.0, 1.0 - (v[1] - vy) / (0.5 * vh), (v[2] - minz) / (maxz - minz)};
    xm_transform_coord(&inv, ndc, out);
    return true;
}

/* XMVector3Project: W V P with the divide, then the viewport mapping */
static void xm_project(const double v[3], double vx, double vy, double vw, double vh, double minz, double maxz,
                       const dmat *p, const dmat *view, const dmat *world, double out[3])
{
    dmat wv = dmat_mul(world, view), wvp = dmat_mul(&wv, p);
    double c[3];
    xm_transform_coord(&wvp, v, c);
    out[0] = vx + (c[0] + 1.0) * 0.5 * vw;
    out[1] = vy + (1.0 - c[1]) * 0.5 * vh;
    out[2] = minz + c[2] * (maxz - minz);
}

/* XNA Viewport.Unproject(source, projection, view, world), as XNA documents
   it: source in pixels (y down) and depth in [MinDepth, MaxDepth]; the
   point through inverse(world * view * projection), divided by its w */
typedef struct xna_viewport { double x, y, width, height, min_depth, max_depth; } xna_viewport;

static bool xna_unproject(const xna_viewport *vp, const double source[3], const dmat *p, const dmat *view,
                          const dmat *world, double out[3])
{
    dmat wv = dmat_mul(world, view), wvp = dmat_mul(&wv, p), inv;
    if (dmat_inverse(&wvp, &inv) == 0.0)
        return false;
    double s[4] = {(source[0] - vp->x) / vp->width * 2.0 - 1.0, -((source[1] - vp->y) / vp->height * 2.0 - 1.0),
                   (source[2] - vp->min_depth) / (vp->max_depth - vp->min_depth), 1.0};
    double o[4];
    dmat_row_vec4(&inv, s, o);
    out[0] = o[0] / o[3], out[1] = o[1] / o[3], out[2] = o[2] / o[3];
    return true;
}

/* ---- the originals' collision functions --------------------------------- */

/* DirectXMath BoundingSphere::Intersects(Origin, Direction, Dist) and
   xnacollision IntersectRaySphere (unit Direction): l = C - O, s = l.D,
   m2 = l.l - s^2; a miss when the centre is behind an origin outside
   (s < 0 and l.l > r^2) or m2 > r^2; else Dist = s - q, or s + q (the
   exit) when the origin is inside or on the sphere (l.l <= r^2),
   q = sqrt(r^2 - m2). */
static bool xm_ray_sphere(const double o[3], const double d[3], const double c[3], double r, double *dist)
{
    double l[3];
    sub3(c, o, l);
    double s = dot3(l, d), l2 = dot3(l, l), r2 = r * r, m2 = l2 - s * s;
    if ((s < 0.0 && l2 > r2) || m2 > r2)
        return false;
    double q = sqrt(r2 - m2);
    *dist = l2 <= r2 ? s + q : s - q;
    return true;
}

/* XNA BoundingSphere.Intersects(Ray) / Ray.Intersects(BoundingSphere)
   (unit Direction): 0 when the origin is inside; null when the centre is
   behind or the line passes outside; else the entry distance. */
static bool xna_ray_sphere(const double o[3], const double d[3], const double c[3], double r, double *dist)
{
    double l[3];
    sub3(c, o, l);
    double l2 = dot3(l, l), r2 = r * r;
    if (l2 < r2) {
        *dist = 0.0;
        return true;
    }
    double s = dot3(l, d);
    if (s < 0.0)
        return false;
    double disc = r2 + s * s - l2;
    if (disc < 0.0)
        return false;
    *dist = s - sqrt(disc);
    return true;
}

/* DirectXMath BoundingBox::Intersects / xnacollision
   IntersectRayAxisAlignedBox (unit Direction), the slab test on Center and
   Extents: an axis with |d| <= 1e-20 is parallel (the origin must lie
   within its slab, boundary included); otherwise t1 = (C - O - E) / d,
   t2 = (C - O + E) / d. t_min = the largest entering t, t_max = the
   smallest leaving t; a miss when t_min > t_max or t_max < 0; Dist =
   t_min, negative when the origin is inside. */
static bool xm_ray_box_axes(const double o[3], const double d[3], const double c[3], const double e[3],
                            double axes[3][3], double *dist)
{
    double t_min = -DBL_MAX, t_max = DBL_MAX;
    for (int a = 0; a < 3; a++) {
        double diff[3];
        sub3(c, o, diff);
        double ao = dot3(axes[a], diff), ad = dot3(axes[a], d);
        if (fabs(ad) <= 1e-20) {
            if (ao < -e[a] || ao > e[a])
                return false;
            continue;
        }
        double t1 = (ao - e[a]) / ad, t2 = (ao + e[a]) / ad;
        t_min = fmax(t_min, fmin(t1, t2));
        t_max = fmin(t_max, fmax(t1, t2));
    }
    if (t_min > t_max || t_max < 0.0)
        return false;
    *dist = t_min;
    return true;
}

static bool xm_ray_box(const double o[3], const double d[3], const double c[3], const double e[3], double *dist)
{
    double axes[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    return xm_ray_box_axes(o, d, c, e, axes, dist);
}

/* DirectXMath BoundingOrientedBox::Intersects / xnacollision
   IntersectRayOrientedBox: the same slabs along the box's axes, the rows
   of the rotation made from the unit quaternion Orientation */
static bool xm_ray_oriented_box(const double o[3], const double d[3], const double c[3], const double e[3],
                                const double q[4], double *dist)
{
    dmat r = xm_rotation_quaternion(q);
    double axes[3][3];
    for (int a = 0; a < 3; a++)
        for (int k = 0; k < 3; k++)
            axes[a][k] = r.m[a][k];
    return xm_ray_box_axes(o, d, c, e, axes, dist);
}

/* XNA BoundingBox.Intersects(Ray) / Ray.Intersects(BoundingBox) (the
   behaviour MonoGame implements): an axis with |d| < 1e-6 is parallel;
   0 when the origin is inside (t_min < 0 < t_max), null when the box is
   behind, else t_min. */
static bool xna_ray_box(const double o[3], const double d[3], const double lo[3], const double hi[3], double *dist)
{
    double t_min = -DBL_MAX, t_max = DBL_MAX;
    for (int a = 0; a < 3; a++) {
        if (fabs(d[a]) < 1e-6) {
            if (o[a] < lo[a] || o[a] > hi[a])
                return false;
            continue;
        }
        double t1 = (lo[a] - o[a]) / d[a], t2 = (hi[a] - o[a]) / d[a];
        t_min = fmax(t_min, fmin(t1, t2));
        t_max = fmin(t_max, fmax(t1, t2));
        if (t_min > t_max)
            return false;
    }
    if (t_min < 0.0 && t_max > 0.0) {
        *dist = 0.0;
        return true;
    }
    if (t_min < 0.0)
        return false;
    *dist = t_min;
    return true;
}

/* DirectXMath TriangleTests::Intersects / xnacollision IntersectRayTriangle
   (Moller-Trumbore, both sides): det = e1.(D x e2); |det| < 1e-20 is
   parallel (a miss); u, v, u + v within [0, det] (mirrored for det < 0)
   and t of the same sign as det; Dist = t / det. */
static bool xm_ray_triangle(const double o[3], const double d[3], const double v0[3], const double v1[3],
                            const double v2[3], double *dist, double *u_out, double *v_out)
{
    double e1[3], e2[3], p[3], s[3], q[3];
    sub3(v1, v0, e1);
    sub3(v2, v0, e2);
    cross3(d, e2, p);
    double det = dot3(e1, p);
    if (fabs(det) < 1e-20)
        return false;
    sub3(o, v0, s);
    double u = dot3(s, p);
    cross3(s, e1, q);
    double v = dot3(d, q), t = dot3(e2, q);
    if (det > 0.0 && (u < 0.0 || u > det || v < 0.0 || u + v > det || t < 0.0))
        return false;
    if (det < 0.0 && (u > 0.0 || u < det || v > 0.0 || u + v < det || t > 0.0))
        return false;
    *dist = t / det;
    *u_out = u / det;
    *v_out = v / det;
    return true;
}

/* ---- the originals' bounding spheres ----------------------------------- */

typedef struct dsphere { double c[3], r; } dsphere;

/* D3DXComputeBoundingSphere: the average point, the farthest distance */
static dsphere d3dx_centroid_sphere(const float (*p)[3], size_t n)
{
    dsphere s = {{0, 0, 0}, 0};
    for (size_t i = 0; i < n; i++)
        for (int k = 0; k < 3; k++)
            s.c[k] += p[i][k] / (double)n;
    for (size_t i = 0; i < n; i++) {
        double q[3], diff[3];
        to_d3(p[i], q);
        sub3(q, s.c, diff);
        s.r = fmax(s.r, sqrt(dot3(diff, diff)));
    }
    return s;
}

/* DirectXMath BoundingSphere::CreateFromPoints, xnacollision
   ComputeBoundingSphereFromPoints (Ritter): the first points with the
   smallest and largest x, y, z; the pair farthest apart starts the sphere
   (if |x| > |y|: x when |x| > |z| else z; otherwise y when |y| > |z| else
   z); then every point outside grows it: r' = (r + d) / 2, centre +=
   (1 - r' / d) (p - centre). */
static dsphere xm_ritter_sphere(const float (*p)[3], size_t n)
{
    size_t lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
    for (size_t i = 1; i < n; i++)
        for (int a = 0; a < 3; a++) {
            if (p[i][a] < p[lo[a]][a])
                lo[a] = i;
            if (p[i][a] > p[hi[a]][a])
                hi[a] = i;
        }
    double dist[3];
    for (int a = 0; a < 3; a++) {
        double x[3], y[3], diff[3];
        to_d3(p[hi[a]], x);
        to_d3(p[lo[a]], y);
        sub3(x, y, diff);
        dist[a] = sqrt(dot3(diff, diff));
    }
    int a = dist[0] > dist[1] ? (dist[0] > dist[2] ? 0 : 2) : (dist[1] > dist[2] ? 1 : 2);
    dsphere s;
    for (int k = 0; k < 3; k++)
        s.c[k] = ((double)p[hi[a]][k] + p[lo[a]][k]) * 0.5;
    s.r = dist[a] * 0.5;
    for (size_t i = 0; i < n; i++) {
        double q[3], delta[3];
        to_d3(p[i], q);
        sub3(q, s.c, delta);
        double d = sqrt(dot3(delta, delta));
        if (d > s.r) {
            s.r = (s.r + d) * 0.5;
            for (int k = 0; k < 3; k++)
                s.c[k] += (1.0 - s.r / d) * delta[k];
        }
    }
    return s;
}

/* MonoGame BoundingSphere.CreateFromPoints: the same extreme points
   (scanning from +-FLT_MAX); the x pair unless the y or the z pair is
   strictly the farthest (squared distances); centre the midpoint, radius
   the distance to the max point; then each point outside pulls the
   sphere: G = c - r (p - c) / |p - c|, c = (G + p) / 2, r = |p - c|. */
static dsphere monogame_sphere(const float (*p)[3], size_t n)
{
    double mn[3][3], mx[3][3];
    for (int a = 0; a < 3; a++)
        for (int k = 0; k < 3; k++)
            mn[a][k] = FLT_MAX, mx[a][k] = -FLT_MAX;
    for (size_t i = 0; i < n; i++)
        for (int a = 0; a < 3; a++) {
            if (p[i][a] < mn[a][a])
                to_d3(p[i], mn[a]);
            if (p[i][a] > mx[a][a])
                to_d3(p[i], mx[a]);
        }
    double sq[3];
    for (int a = 0; a < 3; a++) {
        double diff[3];
        sub3(mx[a], mn[a], diff);
        sq[a] = dot3(diff, diff);
    }
    int a = 0;
    if (sq[1] > sq[0] && sq[1] > sq[2])
        a = 1;
    if (sq[2] > sq[0] && sq[2] > sq[1])
        a = 2;
    dsphere s;
    for (int k = 0; k < 3; k++)
        s.c[k] = (mn[a][k] + mx[a][k]) * 0.5;
    double diff[3];
    sub3(mx[a], s.c, diff);
    s.r = sqrt(dot3(diff, diff));
    for (size_t i = 0; i < n; i++) {
        double q[3], delta[3];
        to_d3(p[i], q);
        sub3(q, s.c, delta);
        double d2 = dot3(delta, delta);
        if (d2 > s.r * s.r) {
            double d = sqrt(d2), g[3];
            for (int k = 0; k < 3; k++)
                g[k] = s.c[k] - s.r * delta[k] / d;
            for (int k = 0; k < 3; k++)
                s.c[k] = (g[k] + q[k]) * 0.5;
            sub3(q, s.c, delta);
            s.r = sqrt(dot3(delta, delta));
        }
    }
    return s;
}

static void assert_sphere_is(const rp_sphere *s, const dsphere *ref, double tol)
{
    double scale = ref->r + fabs(ref->c[0]) + fabs(ref->c[1]) + fabs(ref->c[2]);
    for (int k = 0; k < 3; k++)
        if (!(fabs(s->center[k] - ref->c[k]) <= tol * scale)) {
            print_error("centre[%d] %.9g, expected %.9g\n", k, (double)s->center[k], ref->c[k]);
            fail();
        }
    if (!(fabs(s->radius - ref->r) <= tol * scale)) {
        print_error("radius %.9g, expected %.9g\n", (double)s->radius, ref->r);
        fail();
    }
}

/* ======================================================================== */
/* D3D10 / D3D11: DirectXMath and xnacollision                              */
/* ======================================================================== */

/* ---- layouts --------------------------------------------------------------- */

static void directxmath_and_xna_layouts(void **state)
{
    (void)state;
    /* XMFLOAT3 / XNA Vector3: three floats = vec3 */
    assert_int_equal(sizeof(vec3), 3 * sizeof(float));
    /* XMFLOAT4X4 / XNA Matrix: 16 floats, row by row = mat4, _rc = m[r-1][c-1] */
    assert_int_equal(sizeof(mat4), 16 * sizeof(float));
    /* BoundingSphere {XMFLOAT3 Center; float Radius} / xnacollision Sphere:
       the same 16 bytes as rp_sphere, so a copy is a memcpy */
    struct { float center[3]; float radius; } xm_sphere = {{1.5f, -2.0f, 3.25f}, 0.75f};
    assert_int_equal(sizeof(rp_sphere), sizeof xm_sphere);
    assert_int_equal(offsetof(rp_sphere, radius), 3 * sizeof(float));
    rp_sphere s;
    memcpy(&s, &xm_sphere, sizeof s);
    assert_true(s.center[2] == 3.25f && s.radius == 0.75f);
    /* BoundingOrientedBox {XMFLOAT3 Center, Extents; XMFLOAT4 Orientation}
       is 40 bytes; rp_obb's versor is 16-byte aligned (cglm), so its
       orientation sits at 32: copy the fields, not the struct */
    assert_int_equal(offsetof(rp_obb, half_extents), 3 * sizeof(float));
    assert_true(offsetof(rp_obb, orientation) != 6 * sizeof(float));
    /* BoundingBox {Center, Extents} has rp_aabb's size but another meaning:
       convert with rp_aabb_from_center_extents (tested below) */
    assert_int_equal(sizeof(rp_aabb), 6 * sizeof(float));
    /* quaternions: XMFLOAT4 / XNA Quaternion (x, y, z, w) = cglm versor
       order: 90 degrees about +z takes +x to +y in both */
    versor q;
    glm_quatv(q, glm_rad(90.0f), (vec3){0, 0, 1});
    const double qd[4] = {q[0], q[1], q[2], q[3]};
    assert_true(fabs(qd[2] - sqrt(0.5)) < 1e-6 && fabs(qd[3] - sqrt(0.5)) < 1e-6);
    dmat r = xm_rotation_quaternion(qd);
    double x_axis[3] = {1, 0, 0}, img[3];
    xm_transform_normal(&r, x_axis, img);
    assert_close(img[1], 1.0, 1e-6);
    vec3 v;
    glm_quat_rotatev(q, (vec3){1, 0, 0}, v);
    assert_close(v[1], 1.0, 1e-6);
}

/* ---- matrices --------------------------------------------------------------- */

static void random_mat4(rng *r, mat4 m, bool projective)
{
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            m[i][j] = (float)uniform(r, -2.0, 2.0);
    if (!projective) {
        m[0][3] = m[1][3] = m[2][3] = 0.0f;
        m[3][3] = 1.0f;
    }
    for (int i = 0; i < 4; i++)
        m[i][i] += 3.0f;   /* diagonally dominant: well conditioned */
}

static void xm_matrix_multiply_is_glm_mat4_mul_reversed(void **state)
{
    (void)state;
    rng r = {0x5eed0001};
    for (int it = 0; it < 2000; it++) {
        mat4 a, b, c, t;
        random_mat4(&r, a, true);
        random_mat4(&r, b, true);
        /* XMMatrixMultiply(A, B) = A * B (row vectors: A applies first) */
        dmat da = dmat_from_mat4(a), db = dmat_from_mat4(b), dc = dmat_mul(&da, &db);
        glm_mat4_mul(b, a, c);
        assert_mat4_is(c, &dc, 1e-6);
        /* XMMatrixTranspose = glm_mat4_transpose_to */
        glm_mat4_transpose_to(a, t);
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 4; j++)
                assert_true(t[i][j] == a[j][i]);
    }
}

static void matrix_inverse_is_glm_mat4_inv(void **state)
{
    (void)state;
    rng r = {0x5eed0002};
    for (int it = 0; it < 2000; it++) {
        mat4 m, inv;
        random_mat4(&r, m, it % 2 == 0);
        /* XMMatrixInverse(&det, M) / XNA Matrix.Invert(m) */
        dmat dm = dmat_from_mat4(m), dinv;
        double det = dmat_inverse(&dm, &dinv);
        glm_mat4_inv(m, inv);
        assert_mat4_is(inv, &dinv, 1e-5);
        /* XMMatrixDeterminant = glm_mat4_det */
        assert_close(glm_mat4_det(m), det, 1e-5);
    }
    /* A singular matrix: the originals return a matrix of infinities (1/0
       times the adjugate), and so does cglm; raypick's pick functions
       refuse it instead */
    mat4 singular = GLM_MAT4_IDENTITY_INIT, inv;
    singular[2][2] = 0.0f;
    dmat ds = dmat_from_mat4(singular), dinv;
    assert_true(dmat_inverse(&ds, &dinv) == 0.0);
    assert_true(glm_mat4_det(singular) == 0.0f);
    glm_mat4_inv(singular, inv);
    bool all_finite = true;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            all_finite = all_finite && isfinite(inv[i][j]);
    assert_false(all_finite);
    mat4 proj;
    glm_perspective_lh_zo(glm_rad(60.0f), 4.0f / 3.0f, 0.1f, 100.0f, proj);
    rp_viewport vp = {0, 0, 640, 480};
    rp_ray ray;
    assert_false(rp_pick_ray_unproject(320, 240, &vp, proj, singular, RP_D3D, &ray));
}

static void xm_perspective_and_look_at_builders_match_cglm(void **state)
{
    (void)state;
    rng r = {0x5eed0003};
    for (int it = 0; it < 2000; it++) {
        float fov = (float)uniform(&r, 0.5, 1.8), aspect = (float)uniform(&r, 0.5, 2.5);
        float n = (float)uniform(&r, 0.05, 2.0), f = (float)uniform(&r, 10.0, 1000.0);
        mat4 m;
        /* XMMatrixPerspectiveFovLH = glm_perspective_lh_zo (RP_D3D) */
        dmat ref = xm_perspective_fov(fov, aspect, n, f, true);
        glm_perspective_lh_zo(fov, aspect, n, f, m);
        assert_mat4_is(m, &ref, 2e-6);
        /* XMMatrixPerspectiveFovRH = glm_perspective_rh_zo (RP_D3D) */
        ref = xm_perspective_fov(fov, aspect, n, f, false);
        glm_perspective_rh_zo(fov, aspect, n, f, m);
        assert_mat4_is(m, &ref, 2e-6);
        /* XMMatrixOrthographicLH / RH(w, h, n, f) = glm_ortho_lh_zo / rh_zo
           with left = -w / 2, right = w / 2, bottom = -h / 2, top = h / 2 */
        float w = (float)uniform(&r, 1.0, 50.0), h = (float)uniform(&r, 1.0, 50.0);
        ref = xm_orthographic(w, h, n, f, true);
        glm_ortho_lh_zo(-w / 2, w / 2, -h / 2, h / 2, n, f, m);
        assert_mat4_is(m, &ref, 2e-6);
        ref = xm_orthographic(w, h, n, f, false);
        glm_ortho_rh_zo(-w / 2, w / 2, -h / 2, h / 2, n, f, m);
        assert_mat4_is(m, &ref, 2e-6);
        /* XMMatrixLookAtLH = glm_lookat_lh, XMMatrixLookAtRH = glm_lookat
           (glm_lookat_rh), XMMatrixLookToLH = glm_look_lh */
        vec3 eye = {(float)uniform(&r, -20, 20), (float)uniform(&r, -20, 20), (float)uniform(&r, -20, 20)};
        vec3 at = {(float)uniform(&r, -5, 5), (float)uniform(&r, -5, 5), (float)uniform(&r, -5, 5)};
        vec3 up = {0, 1, 0}, dir;
        glm_vec3_sub(at, eye, dir);
        if (glm_vec3_norm(dir) < 1.0f || fabsf(dir[1]) > 0.95f * glm_vec3_norm(dir))
            continue;   /* looking straight up or down: no view */
        double de[3], da[3], du[3] = {0, 1, 0}, dd[3];
        to_d3(eye, de), to_d3(at, da), to_d3(dir, dd);
        ref = xm_look_at(de, da, du, true);
        glm_lookat_lh(eye, at, up, m);
        assert_mat4_is(m, &ref, 1e-5);
        ref = xm_look_at(de, da, du, false);
        glm_lookat(eye, at, up, m);
        assert_mat4_is(m, &ref, 1e-5);
        ref = xm_look_to(de, dd, du, true);
        glm_look_lh(eye, dir, up, m);
        assert_mat4_is(m, &ref, 1e-5);
    }
}

static void xm_transform_builders_match_cglm(void **state)
{
    (void)state;
    rng r = {0x5eed0004};
    static const float axes[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    for (int it = 0; it < 2000; it++) {
        mat4 m;
        float x = (float)uniform(&r, -9, 9), y = (float)uniform(&r, -9, 9), z = (float)uniform(&r, -9, 9);
        /* XMMatrixTranslation / XNA CreateTranslation = glm_translate_make */
        dmat ref = dmat_identity();
        ref.m[3][0] = x, ref.m[3][1] = y, ref.m[3][2] = z;
        glm_translate_make(m, (vec3){x, y, z});
        assert_mat4_is(m, &ref, 0.0);
        /* XMMatrixScaling / XNA CreateScale = glm_scale_make */
        ref = dmat_identity();
        ref.m[0][0] = x, ref.m[1][1] = y, ref.m[2][2] = z;
        glm_scale_make(m, (vec3){x, y, z});
        assert_mat4_is(m, &ref, 0.0);
        /* XMMatrixRotationX/Y/Z / XNA CreateRotationX/Y/Z = glm_rotate_make
           about the axis: the same floats (DirectXMath's "clockwise looking
           toward the origin" in its left-handed world is the same matrix as
           cglm's counter-clockwise in a right-handed one) */
        float a = (float)uniform(&r, -3.1, 3.1);
        for (int k = 0; k < 3; k++) {
            ref = xm_rotation_axis(k, a);
            glm_rotate_make(m, a, (float *)axes[k]);
            assert_mat4_is(m, &ref, 1e-6);
        }
        /* XMMatrixRotationQuaternion / XNA CreateFromQuaternion = glm_quat_mat4 */
        versor q;
        vec3 axis;
        unit_dir(&r, axis);
        glm_quatv(q, a, axis);
        double qd[4] = {q[0], q[1], q[2], q[3]};
        double qn = sqrt(qd[0] * qd[0] + qd[1] * qd[1] + qd[2] * qd[2] + qd[3] * qd[3]);
        for (int k = 0; k < 4; k++)
            qd[k] /= qn;
        ref = xm_rotation_quaternion(qd);
        glm_quat_mat4(q, m);
        assert_mat4_is(m, &ref, 1e-6);
        /* XMMatrixRotationRollPitchYaw(pitch, yaw, roll) / XNA
           CreateFromYawPitchRoll(yaw, pitch, roll) = glm_euler_yxz with the
           angles (pitch, yaw, roll) */
        float pitch = (float)uniform(&r, -3, 3), yaw = (float)uniform(&r, -3, 3), roll = (float)uniform(&r, -3, 3);
        ref = xm_roll_pitch_yaw(pitch, yaw, roll);
        glm_euler_yxz((vec3){pitch, yaw, roll}, m);
        assert_mat4_is(m, &ref, 1e-6);
    }
}

static void xm_vector3_transforms_match_cglm(void **state)
{
    (void)state;
    rng r = {0x5eed0005};
    for (int it = 0; it < 2000; it++) {
        mat4 m;
        random_mat4(&r, m, true);
        dmat dm = dmat_from_mat4(m);
        vec3 v = {(float)uniform(&r, -5, 5), (float)uniform(&r, -5, 5), (float)uniform(&r, -5, 5)};
        double dv[3], ref[3];
        to_d3(v, dv);
        /* XMVector3TransformCoord: glm_mat4_mulv, then divide by w */
        vec4 h;
        glm_mat4_mulv(m, (vec4){v[0], v[1], v[2], 1.0f}, h);
        xm_transform_coord(&dm, dv, ref);
        if (fabs(h[3]) < 0.1)
            continue;   /* near w = 0 the quotient magnifies rounding */
        for (int k = 0; k < 3; k++)
            assert_close(h[k] / h[3], ref[k], 1e-4);
        /* XMVector3Transform: (x, y, z, 1) M with w kept = glm_mat4_mulv */
        double h4[4] = {v[0], v[1], v[2], 1.0}, o4[4];
        dmat_row_vec4(&dm, h4, o4);
        for (int k = 0; k < 4; k++)
            assert_close(h[k], o4[k], 1e-5);
        /* XMVector3TransformNormal = glm_mat4_mulv3(m, v, 0.0f, dest) */
        vec3 out;
        glm_mat4_mulv3(m, v, 0.0f, out);
        xm_transform_normal(&dm, dv, ref);
        for (int k = 0; k < 3; k++)
            assert_close(out[k], ref[k], 1e-5);
    }
}

static void xm_vector3_basics_match_cglm(void **state)
{
    (void)state;
    rng r = {0x5eed0006};
    for (int it = 0; it < 2000; it++) {
        vec3 a = {(float)uniform(&r, -5, 5), (float)uniform(&r, -5, 5), (float)uniform(&r, -5, 5)};
        vec3 b = {(float)uniform(&r, -5, 5), (float)uniform(&r, -5, 5), (float)uniform(&r, -5, 5)};
        double da[3], db[3], c[3];
        to_d3(a, da), to_d3(b, db);
        /* XMVector3Dot = glm_vec3_dot, XMVector3Cross = glm_vec3_cross,
           XMVector3Length = glm_vec3_norm, XMVector3Normalize = glm_vec3_normalize_to */
        assert_close(glm_vec3_dot(a, b), dot3(da, db), 1e-5);
        vec3 x;
        glm_vec3_cross(a, b, x);
        cross3(da, db, c);
        for (int k = 0; k < 3; k++)
            assert_close(x[k], c[k], 1e-5);
        assert_close(glm_vec3_norm(a), sqrt(dot3(da, da)), 1e-6);
        glm_vec3_normalize_to(a, x);
        for (int k = 0; k < 3; k++)
            assert_close(x[k], da[k] / sqrt(dot3(da, da)), 1e-6);
    }
    /* a zero vector normalises to zero in both (no NaN) */
    vec3 zero = {0, 0, 0}, n;
    glm_vec3_normalize_to(zero, n);
    assert_true(n[0] == 0.0f && n[1] == 0.0f && n[2] == 0.0f);
}

/* ---- projecting and unprojecting ------------------------------------------ */

/* A random D3D camera (left- or right-handed, depth [0, 1]), world matrix
   and viewport with an offset and a depth range. */
typedef struct camera_case {
    mat4 proj, view, world;
    float vx, vy, vw, vh, minz, maxz;
} camera_case;

static void random_camera(rng *r, bool lh, camera_case *c)
{
    float fov = (float)uniform(r, 0.6, 1.6), n = (float)uniform(r, 0.1, 1.0), f = (float)uniform(r, 50, 500);
    c->vx = dyadic(r, 0, 200), c->vy = dyadic(r, 0, 100);
    c->vw = dyadic(r, 200, 1600), c->vh = dyadic(r, 200, 1000);
    float aspect = c->vw / c->vh;
    vec3 eye = {(float)uniform(r, -10, 10), (float)uniform(r, 1, 10), (float)uniform(r, -10, 10)};
    vec3 at = {(float)uniform(r, -2, 2), (float)uniform(r, -2, 2), (float)uniform(r, -2, 2)};
    if (lh) {
        glm_perspective_lh_zo(fov, aspect, n, f, c->proj);
        glm_lookat_lh(eye, at, (vec3){0, 1, 0}, c->view);
    } else {
        glm_perspective_rh_zo(fov, aspect, n, f, c->proj);
        glm_lookat(eye, at, (vec3){0, 1, 0}, c->view);
    }
    vec3 axis;
    unit_dir(r, axis);
    glm_rotate_make(c->world, (float)uniform(r, -3, 3), axis);
    glm_scale_uni(c->world, (float)uniform(r, 0.5, 2.0));
    c->world[3][0] = (float)uniform(r, -3, 3);
    c->world[3][1] = (float)uniform(r, -3, 3);
    c->world[3][2] = (float)uniform(r, -3, 3);
    c->minz = (float)uniform(r, 0.0, 0.3);
    c->maxz = (float)uniform(r, 0.7, 1.0);
}

static void xm_vector3_unproject_is_rp_unproject_point(void **state)
{
    (void)state;
    rng r = {0x5eed0007};
    for (int it = 0; it < 3000; it++) {
        camera_case c;
        random_camera(&r, it % 2 == 0, &c);
        dmat p = dmat_from_mat4(c.proj), v = dmat_from_mat4(c.view), w = dmat_from_mat4(c.world);
        /* XMVector3Unproject((x, y, z), vx, vy, vw, vh, minz, maxz, P, V, W) */
        float x = (float)uniform(&r, c.vx, c.vx + c.vw), y = (float)uniform(&r, c.vy, c.vy + c.vh);
        float z = (float)uniform(&r, c.minz, c.minz + 0.9 * (c.maxz - c.minz));
        double src[3] = {x, y, z}, ref[3] = {0};   /* as model below */
        assert_true(xm_unproject(src, c.vx, c.vy, c.vw, c.vh, c.minz, c.maxz, &p, &v, &w, ref));
        /* raypick: the depth mapped to [0, 1], the world folded into the
           view (D3D's World * View is cglm's view * world), RP_D3D */
        rp_viewport vp = {c.vx, c.vy, c.vw, c.vh};
        mat4 view_world;
        glm_mat4_mul(c.view, c.world, view_world);
        float depth = (z - c.minz) / (c.maxz - c.minz);
        vec3 out;
        assert_true(rp_unproject_point(x, y, depth, &vp, c.proj, view_world, RP_D3D, out));
        /* float inputs: the world point is as precise as the depth value */
        double scale = 1.0 + sqrt(dot3(ref, ref));
        for (int k = 0; k < 3; k++)
            assert_true(fabs(out[k] - ref[k]) <= 2e-3 * scale);
    }
}

static void xm_vector3_project_is_rp_project_point(void **state)
{
    (void)state;
    rng r = {0x5eed0008};
    for (int it = 0; it < 3000; it++) {
        camera_case c;
        random_camera(&r, it % 2 == 1, &c);
        dmat p = dmat_from_mat4(c.proj), v = dmat_from_mat4(c.view), w = dmat_from_mat4(c.world);
        /* a model-space point in front of the camera: unproject a random pixel */
        double src[3] = {uniform(&r, c.vx, c.vx + c.vw), uniform(&r, c.vy, c.vy + c.vh),
                         uniform(&r, c.minz + 0.05, c.maxz - 0.05)};
        double model[3] = {0};   /* {0}: GCC -O3 cannot tell a failed assert_true ends the test */
        assert_true(xm_unproject(src, c.vx, c.vy, c.vw, c.vh, c.minz, c.maxz, &p, &v, &w, model));
        vec3 pf = {(float)model[0], (float)model[1], (float)model[2]};
        double pd[3], ref[3];
        to_d3(pf, pd);
        /* XMVector3Project(p, vx, vy, vw, vh, minz, maxz, P, V, W) */
        xm_project(pd, c.vx, c.vy, c.vw, c.vh, c.minz, c.maxz, &p, &v, &w, ref);
        rp_viewport vp = {c.vx, c.vy, c.vw, c.vh};
        mat4 view_world;
        glm_mat4_mul(c.view, c.world, view_world);
        vec3 out;
        assert_true(rp_project_point(pf, &vp, c.proj, view_world, RP_D3D, out));
        assert_true(fabs(out[0] - ref[0]) < 1e-2 && fabs(out[1] - ref[1]) < 1e-2);   /* pixels */
        /* depth in [0, 1]: MinZ + depth (MaxZ - MinZ) is D3D's */
        assert_close(c.minz + out[2] * (c.maxz - c.minz), ref[2], 1e-4);
    }
}

/* ---- rays against bounding volumes -------------------------------------- */

/* raypick's ray from float origin and direction */
static rp_ray make_ray(const float o[3], const float d[3])
{
    rp_ray ray;
    glm_vec3_copy((float *)o, ray.origin);
    glm_vec3_copy((float *)d, ray.dir);
    return ray;
}

/* The reference's answer does not change when the sphere grows or shrinks
   by 1e-5 of its radius: float and double arithmetic agree on it. */
static bool sphere_case_is_robust(const double o[3], const double d[3], const double c[3], double r)
{
    double t0, t1;
    bool h0 = xm_ray_sphere(o, d, c, r * (1 - 1e-5), &t0), h1 = xm_ray_sphere(o, d, c, r * (1 + 1e-5), &t1);
    double l[3];
    sub3(c, o, l);
    double l2 = dot3(l, l);
    bool in0 = l2 <= r * r * (1 - 2e-5), in1 = l2 <= r * r * (1 + 2e-5);
    return h0 == h1 && in0 == in1;
}

/* One random ray and sphere of four kinds: aimed from outside, from
   inside, away from the sphere, and exactly tangent (integers). */
static void random_sphere_case(rng *r, int kind, float o[3], float d[3], float c[3], float *radius)
{
    for (int k = 0; k < 3; k++)
        c[k] = dyadic(r, -50, 50);
    *radius = dyadic(r, 0.25, 10);
    if (kind == 3) {   /* tangent: origin (cx + r, cy - k, cz), dir +y, touches at t = k */
        for (int k = 0; k < 3; k++)
            c[k] = (float)floor(c[k]);
        *radius = (float)floor(*radius) + 1.0f;
        o[0] = c[0] + *radius, o[1] = c[1] - (float)floor(uniform(r, 1, 20)), o[2] = c[2];
        d[0] = 0, d[1] = 1, d[2] = 0;
        return;
    }
    double target[3];
    if (kind == 1) {   /* inside */
        float u[3];
        unit_dir(r, u);
        double s = uniform(r, 0.0, 0.95) * *radius;
        for (int k = 0; k < 3; k++)
            o[k] = (float)(c[k] + s * u[k]);
        unit_dir(r, d);
        return;
    }
    float u[3];
    unit_dir(r, u);
    double s = uniform(r, 1.2, 12.0) * *radius;
    for (int k = 0; k < 3; k++) {
        o[k] = (float)(c[k] + s * u[k]);
        target[k] = c[k] + uniform(r, -1.4, 1.4) * *radius;
    }
    dir_towards(o, target, d);
    if (kind == 2)   /* away */
        d[0] = -d[0], d[1] = -d[1], d[2] = -d[2];
}

static void xm_sphere_intersects_dist_is_hit_t(void **state)
{
    (void)state;
    rng r = {0x5eed0009};
    int compared = 0, inside = 0, tangent = 0, total = 0;
    for (int it = 0; it < 20000; it++, total++) {
        float o[3], d[3], c[3], radius;
        random_sphere_case(&r, it % 4, o, d, c, &radius);
        double od[3], dd[3], cd[3], dist;
        to_d3(o, od), to_d3(d, dd), to_d3(c, cd);
        if (it % 4 != 3 && !sphere_case_is_robust(od, dd, cd, radius))
            continue;
        compared++;
        /* BoundingSphere::Intersects(origin, dir, dist) / XNA::IntersectRaySphere */
        bool ref = xm_ray_sphere(od, dd, cd, radius, &dist);
        rp_ray ray = make_ray(o, d);
        rp_sphere s = {{c[0], c[1], c[2]}, radius};
        rp_hit hit;
        bool got = rp_intersect_ray_sphere(&ray, &s, &hit);
        assert_int_equal(got, ref);
        if (!ref)
            continue;
        /* dist = hit.t: the entry, or the exit when the origin is inside
           (compared where it is well conditioned: a nearly tangent ray's
           entry moves far with the last bit of its direction) */
        double l[3];
        sub3(cd, od, l);
        double m2 = dot3(l, l) - dot3(l, dd) * dot3(l, dd);
        if (it % 4 == 3 || (double)radius * radius - m2 > 1e-2 * (double)radius * radius)
            assert_close(hit.t, dist, 1e-5);
        if (hit.inside) {
            inside++;
            assert_true(hit.t_enter < 0.0f);
            assert_true(fabs(hit.t_enter - dist) > 1e-3);   /* t_enter is not dist here */
        }
        if (it % 4 == 3) {
            tangent++;
            assert_true(hit.t_enter == hit.t_exit);
        }
    }
    assert_true(compared > total * 9 / 10);
    assert_true(inside > 1000 && tangent > 1000);
}

/* The reference box answer does not change when the extents grow or shrink
   by 1e-5 of the box's scale on the axes in mask. */
static bool box_case_is_robust(const double o[3], const double d[3], const double c[3], const double e[3], int mask)
{
    double lo[3], hi[3], t;
    double scale = 1.0 + fabs(c[0]) + fabs(c[1]) + fabs(c[2]) + e[0] + e[1] + e[2];
    for (int k = 0; k < 3; k++) {
        bool m = mask & (1 << k);
        lo[k] = m ? fmax(e[k] - 1e-5 * scale, 0.0) : e[k];
        hi[k] = m ? e[k] + 1e-5 * scale : e[k];
    }
    bool in_lo = true, in_hi = true;
    for (int k = 0; k < 3; k++) {
        in_lo = in_lo && fabs(o[k] - c[k]) < lo[k];
        in_hi = in_hi && fabs(o[k] - c[k]) < hi[k];
    }
    return xm_ray_box(o, d, c, lo, &t) == xm_ray_box(o, d, c, hi, &t) && in_lo == in_hi;
}

/* Boxes with dyadic centre and extents (exact corners in float), some flat;
   rays aimed from outside, from inside, grazing a face (a zero direction
   component, origin on the face's plane), and exactly through an edge. */
static int random_box_case(rng *r, int kind, float o[3], float d[3], float c[3], float e[3])
{
    for (int k = 0; k < 3; k++) {
        c[k] = dyadic(r, -20, 20);
        e[k] = uniform(r, 0, 1) < 0.15 ? 0.0f : dyadic(r, 0.25, 8);
    }
    if (kind == 1) {   /* inside a solid box */
        for (int k = 0; k < 3; k++) {
            e[k] = e[k] == 0.0f ? 1.0f : e[k];
            o[k] = c[k] + (float)(floor(uniform(r, -0.9, 0.9) * e[k] * 64.0) / 64.0);
        }
        unit_dir(r, d);
        return 7;
    }
    if (kind == 2) {   /* along the plane of a face: d[a] = 0, o[a] on the face */
        int a = (int)(next_u64(r) % 3);
        double target[3];
        for (int k = 0; k < 3; k++) {
            o[k] = c[k] + dyadic(r, -30, 30);
            target[k] = c[k] + uniform(r, -1.2, 1.2) * (e[k] + 0.1);
        }
        o[a] = (next_u64(r) & 1) ? c[a] + e[a] : c[a] - e[a];
        target[a] = o[a];
        dir_towards(o, target, d);   /* d[a] = 0 exactly */
        return 7 & ~(1 << a);
    }
    if (kind == 3) {   /* touching only the edge x = max, y = max, at t = k */
        float k = (float)floor(uniform(r, 1, 10));
        e[0] = e[0] == 0.0f ? 1.0f : e[0], e[1] = e[1] == 0.0f ? 1.0f : e[1];
        o[0] = c[0] + e[0] + k, o[1] = c[1] + e[1] - k, o[2] = c[2] + (float)(floor(uniform(r, -0.9, 0.9) * e[2] * 64.0) / 64.0);
        d[0] = -1.0f, d[1] = 1.0f, d[2] = 0.0f;   /* not unit: t in units of d on both sides */
        return 0;
    }
    double target[3];
    for (int k = 0; k < 3; k++) {
        o[k] = c[k] + dyadic(r, -40, 40);
        target[k] = c[k] + uniform(r, -1.3, 1.3) * (e[k] + 0.1);
    }
    dir_towards(o, target, d);
    return 7;
}

static void xm_box_intersects_dist_is_hit_t_enter(void **state)
{
    (void)state;
    rng r = {0x5eed000a};
    int compared = 0, inside = 0, grazing = 0, edges = 0, total = 0;
    for (int it = 0; it < 20000; it++, total++) {
        float o[3], d[3], c[3], e[3];
        int kind = it % 4;
        int mask = random_box_case(&r, kind, o, d, c, e);
        double od[3], dd[3], cd[3], ed[3], dist;
        to_d3(o, od), to_d3(d, dd), to_d3(c, cd), to_d3(e, ed);
        if (mask && !box_case_is_robust(od, dd, cd, ed, mask))
            continue;
        compared++;
        /* BoundingBox::Intersects(origin, dir, dist) / XNA::IntersectRayAxisAlignedBox */
        bool ref = xm_ray_box(od, dd, cd, ed, &dist);
        rp_aabb box;
        assert_true(rp_aabb_from_center_extents(c, e, &box));
        rp_ray ray = make_ray(o, d);
        rp_hit hit;
        bool got = rp_intersect_ray_aabb(&ray, &box, &hit);
        assert_int_equal(got, ref);
        if (!ref)
            continue;
        /* dist = hit.t_enter: negative when the origin is inside, where
           hit.t is the exit */
        assert_close(hit.t_enter, dist, 1e-6);
        if (kind == 1) {
            inside++;
            assert_true(hit.inside && dist < 0.0);
            assert_true(hit.t > 0.0f && hit.t != hit.t_enter);
        }
        grazing += kind == 2;   /* along a face: touching counts in both */
        if (kind == 3) {
            edges++;
            assert_true(hit.t_enter == hit.t_exit);
        }
    }
    assert_true(compared > total * 9 / 10);
    assert_true(inside == total / 4 && grazing > 500 && edges == total / 4);
}

static void xm_oriented_box_intersects_dist_is_hit_t_enter(void **state)
{
    (void)state;
    rng r = {0x5eed000b};
    int compared = 0, inside = 0, total = 0;
    for (int it = 0; it < 20000; it++, total++) {
        float c[3], e[3], o[3], d[3], axis[3];
        for (int k = 0; k < 3; k++)
            c[k] = dyadic(&r, -20, 20), e[k] = dyadic(&r, 0.25, 6);
        unit_dir(&r, axis);
        versor q;
        glm_quatv(q, (float)uniform(&r, -3, 3), axis);
        double qd[4] = {q[0], q[1], q[2], q[3]};
        double qn = sqrt(qd[0] * qd[0] + qd[1] * qd[1] + qd[2] * qd[2] + qd[3] * qd[3]);
        for (int k = 0; k < 4; k++)
            qd[k] /= qn;
        dmat rot = xm_rotation_quaternion(qd);
        bool from_inside = it % 3 == 0;
        double local[3], world_off[3];
        for (int k = 0; k < 3; k++)
            local[k] = from_inside ? uniform(&r, -0.9, 0.9) * e[k] : uniform(&r, -4, 4) * (e[k] + 2);
        xm_transform_normal(&rot, local, world_off);   /* box axes to world */
        for (int k = 0; k < 3; k++)
            o[k] = (float)(c[k] + world_off[k]);
        if (from_inside) {
            unit_dir(&r, d);
        } else {
            double target[3];
            for (int k = 0; k < 3; k++)
                target[k] = c[k] + uniform(&r, -1.2, 1.2) * e[k];
            dir_towards(o, target, d);
        }
        double od[3], dd[3], cd[3], ed[3], elo[3], ehi[3], dist, t;
        to_d3(o, od), to_d3(d, dd), to_d3(c, cd), to_d3(e, ed);
        for (int k = 0; k < 3; k++)
            elo[k] = ed[k] * (1 - 1e-5), ehi[k] = ed[k] * (1 + 1e-5);
        if (xm_ray_oriented_box(od, dd, cd, elo, qd, &t) != xm_ray_oriented_box(od, dd, cd, ehi, qd, &t))
            continue;
        compared++;
        /* BoundingOrientedBox::Intersects / XNA::IntersectRayOrientedBox;
           Orientation (x, y, z, w) is rp_obb's versor */
        bool ref = xm_ray_oriented_box(od, dd, cd, ed, qd, &dist);
        rp_obb box = {{c[0], c[1], c[2]}, {e[0], e[1], e[2]}, {q[0], q[1], q[2], q[3]}};
        rp_ray ray = make_ray(o, d);
        rp_hit hit;
        assert_int_equal(rp_intersect_ray_obb(&ray, &box, &hit), ref);
        if (!ref)
            continue;
        assert_close(hit.t_enter, dist, 1e-5);
        if (from_inside) {
            inside++;
            assert_true(hit.inside && dist < 0.0 && hit.t > 0.0f);
        }
    }
    assert_true(compared > total * 9 / 10 && inside > 5000);
}

static void xm_triangle_intersects_is_rp_intersect_ray_triangle(void **state)
{
    (void)state;
    rng r = {0x5eed000c};
    int compared = 0, back = 0, hits = 0, total = 0;
    for (int it = 0; it < 20000; it++, total++) {
        float v[3][3], o[3], d[3];
        for (int i = 0; i < 3; i++)
            for (int k = 0; k < 3; k++)
                v[i][k] = dyadic(&r, -10, 10);
        bool degenerate = it % 50 == 0;
        if (degenerate)   /* collinear: v2 = v0 + 2 (v1 - v0), exact */
            for (int k = 0; k < 3; k++)
                v[2][k] = v[0][k] + 2.0f * (v[1][k] - v[0][k]);
        double v0[3], v1[3], v2[3], e1[3], e2[3], n[3];
        to_d3(v[0], v0), to_d3(v[1], v1), to_d3(v[2], v2);
        sub3(v1, v0, e1), sub3(v2, v0, e2), cross3(e1, e2, n);
        if (!degenerate && sqrt(dot3(n, n)) < 1.0)
            continue;   /* a sliver: its edges are the knife edges */
        /* aim at barycentrics (b1, b2), from either side, sometimes from behind */
        double b1 = uniform(&r, -0.3, 1.1), b2 = uniform(&r, -0.3, 1.1), target[3];
        for (int k = 0; k < 3; k++)
            target[k] = v0[k] + b1 * e1[k] + b2 * e2[k];
        unit_dir(&r, d);
        double dd0[3];
        to_d3(d, dd0);
        double back_off = uniform(&r, -5, 20);
        for (int k = 0; k < 3; k++)
            o[k] = (float)(target[k] - back_off * dd0[k]);
        double od[3], dd[3], dist, u, vv;
        to_d3(o, od), to_d3(d, dd);
        double margin = fmin(fmin(fabs(b1), fabs(b2)), fabs(1 - b1 - b2));
        double nn = sqrt(dot3(n, n));
        double cosang = fabs(dot3(n, dd)) / nn;
        if (!degenerate && (margin < 1e-3 || fabs(back_off) < 1e-3 || cosang < 1e-2))
            continue;
        compared++;
        /* TriangleTests::Intersects(origin, dir, v0, v1, v2, dist) /
           XNA::IntersectRayTriangle: both sides, dist = hit.t */
        bool ref = xm_ray_triangle(od, dd, v0, v1, v2, &dist, &u, &vv);
        rp_ray ray = make_ray(o, d);
        rp_hit hit;
        rp_triangle_hit tri;
        assert_int_equal(rp_intersect_ray_triangle(&ray, v[0], v[1], v[2], &hit, &tri), ref);
        if (degenerate)
            assert_false(ref);
        if (!ref)
            continue;
        hits++;
        assert_close(hit.t, dist, 1e-5);
        assert_close(tri.u, u, 1e-5);
        assert_close(tri.v, vv, 1e-5);
        back += hit.inside;   /* the back side: det < 0 in Moller-Trumbore */
    }
    assert_true(compared > total / 2 && hits > 2000 && back > 1000);
}

/* ---- bounding volumes of points ------------------------------------------ */

/* A cloud of one of four kinds: uniform in a box, a blob with one far
   point, the eight corners of a cube (ties between the axes), one point
   repeated. Returns the count. */
static size_t random_cloud(rng *r, int kind, float (*p)[3], size_t cap)
{
    size_t n = 1 + next_u64(r) % cap;
    double c[3] = {uniform(r, -100, 100), uniform(r, -100, 100), uniform(r, -100, 100)};
    double s = uniform(r, 0.1, 30);
    if (kind == 2) {   /* exact corners: the three spans tie exactly */
        for (int k = 0; k < 3; k++)
            c[k] = floor(c[k] * 64.0) / 64.0;
        s = floor(s * 64.0 + 1.0) / 64.0;
        for (size_t i = 0; i < 8; i++)
            for (int k = 0; k < 3; k++)
                p[i][k] = (float)(c[k] + ((i >> k) & 1 ? s : 0.0));
        return 8;
    }
    for (size_t i = 0; i < n; i++)
        for (int k = 0; k < 3; k++) {
            double x = kind == 1 ? (uniform(r, -1, 1) + uniform(r, -1, 1) + uniform(r, -1, 1)) * 0.1 * s
                                 : uniform(r, -s, s);
            p[i][k] = kind == 3 ? (float)c[k] : (float)(c[k] + x);
        }
    if (kind == 1)
        p[n - 1][0] = (float)(c[0] + 5 * s);
    return n;
}

/* every point within r (1 + 1e-6) of the centre, plus the rounding of the
   centre to float (half an ulp per axis) */
static void assert_encloses(const rp_sphere *s, const float (*p)[3], size_t n)
{
    double c[3], slack = 0.0;
    to_d3(s->center, c);
    for (int k = 0; k < 3; k++)
        slack += nextafterf(fabsf(s->center[k]), INFINITY) - fabsf(s->center[k]);
    for (size_t i = 0; i < n; i++) {
        double q[3], diff[3];
        to_d3(p[i], q), sub3(q, c, diff);
        assert_true(sqrt(dot3(diff, diff)) <= s->radius * (1.0 + 1e-6) + slack);
    }
}

static void xm_create_sphere_from_points_is_ritter_rule(void **state)
{
    (void)state;
    rng r = {0x5eed000d};
    static float p[300][3];
    int larger = 0;
    for (int it = 0; it < 2000; it++) {
        size_t n = random_cloud(&r, it % 4, p, 300);
        /* BoundingSphere::CreateFromPoints(out, n, pts, sizeof(XMFLOAT3)) /
           XNA::ComputeBoundingSphereFromPoints */
        dsphere ref = xm_ritter_sphere((const float (*)[3])p, n);
        rp_sphere s, smallest;
        assert_true(rp_sphere_from_points_rule(&p[0][0], n, 0, RP_SPHERE_RITTER, &s));
        assert_sphere_is(&s, &ref, 1e-6);
        assert_encloses(&s, (const float (*)[3])p, n);
        /* raypick's own is never larger (within its 1e-4) */
        assert_true(rp_sphere_from_points(&p[0][0], n, 0, &smallest));
        assert_true(smallest.radius <= s.radius * (1 + 1e-4) + 1e-6);
        larger += smallest.radius < s.radius * (1 - 1e-3);
    }
    assert_true(larger > 100);
}

static void monogame_create_sphere_from_points_is_ritter_monogame(void **state)
{
    (void)state;
    rng r = {0x5eed000e};
    static float p[300][3];
    int cube_differs = 0;
    for (int it = 0; it < 2000; it++) {
        int kind = it % 4;
        size_t n = random_cloud(&r, kind, p, 300);
        /* MonoGame's BoundingSphere.CreateFromPoints(points) */
        dsphere ref = monogame_sphere((const float (*)[3])p, n);
        rp_sphere s, xm;
        assert_true(rp_sphere_from_points_rule(&p[0][0], n, 0, RP_SPHERE_RITTER_MONOGAME, &s));
        assert_sphere_is(&s, &ref, 1e-6);
        assert_encloses(&s, (const float (*)[3])p, n);
        /* a cube's corners tie all three pairs: DirectXMath starts from z,
           MonoGame from x, and the two spheres differ */
        assert_true(rp_sphere_from_points_rule(&p[0][0], n, 0, RP_SPHERE_RITTER, &xm));
        if (kind == 2)
            cube_differs += !glm_vec3_eqv_eps(s.center, xm.center);
    }
    assert_int_equal(cube_differs, 500);
}

static void d3dx_compute_bounding_sphere_is_centroid_rule(void **state)
{
    (void)state;
    rng r = {0x5eed000f};
    static float p[300][3];
    for (int it = 0; it < 2000; it++) {
        size_t n = random_cloud(&r, it % 4, p, 300);
        /* D3DXComputeBoundingSphere(&v[0].p, n, stride, &centre, &radius) */
        dsphere ref = d3dx_centroid_sphere((const float (*)[3])p, n);
        rp_sphere s;
        assert_true(rp_sphere_from_points_rule(&p[0][0], n, 0, RP_SPHERE_CENTROID, &s));
        assert_sphere_is(&s, &ref, 1e-6);
        assert_encloses(&s, (const float (*)[3])p, n);
    }
    /* the layout rules of rp_aabb_from_points, and bad input refused with
       the output untouched */
    struct { float p[3]; float n[3]; float uv[2]; } verts[3] = {
        {{0, 0, 0}, {0, 0, 1}, {0, 0}}, {{4, 0, 0}, {0, 0, 1}, {1, 0}}, {{0, 2, 0}, {0, 0, 1}, {0, 1}}};
    rp_sphere s, before = {{7, 7, 7}, 7};
    assert_true(rp_sphere_from_points_rule(verts[0].p, 3, sizeof verts[0], RP_SPHERE_CENTROID, &s));
    assert_close(s.center[0], 4.0 / 3.0, 1e-6);
    assert_close(s.center[1], 2.0 / 3.0, 1e-6);
    s = before;
    assert_false(rp_sphere_from_points_rule(NULL, 3, 0, RP_SPHERE_RITTER, &s));
    assert_false(rp_sphere_from_points_rule(verts[0].p, 0, 0, RP_SPHERE_RITTER, &s));
    assert_false(rp_sphere_from_points_rule(verts[0].p, 3, 14, RP_SPHERE_RITTER, &s));
    assert_false(rp_sphere_from_points_rule(verts[0].p, 3, sizeof verts[0], (rp_sphere_rule)9, &s));
    verts[1].p[1] = NAN;
    assert_false(rp_sphere_from_points_rule(verts[0].p, 3, sizeof verts[0], RP_SPHERE_CENTROID, &s));
    assert_memory_equal(&s, &before, sizeof s);
    /* RP_SPHERE_SMALLEST is rp_sphere_from_points */
    const float pts[4][3] = {{0, 0, 0}, {10, 0, 0}, {0, 0.5f, 0}, {0, -0.5f, 0}};
    rp_sphere a, b;
    assert_true(rp_sphere_from_points_rule(&pts[0][0], 4, 0, RP_SPHERE_SMALLEST, &a));
    assert_true(rp_sphere_from_points(&pts[0][0], 4, 0, &b));
    assert_memory_equal(&a, &b, sizeof a);
    /* one point: radius 0 in every rule */
    for (int rule = RP_SPHERE_SMALLEST; rule <= RP_SPHERE_RITTER_MONOGAME; rule++) {
        assert_true(rp_sphere_from_points_rule(&pts[1][0], 1, 0, (rp_sphere_rule)rule, &a));
        assert_true(a.radius == 0.0f && a.center[0] == 10.0f);
    }
}

static void xm_box_center_extents_round_trip(void **state)
{
    (void)state;
    rng r = {0x5eed0010};
    for (int it = 0; it < 20000; it++) {
        /* BoundingBox {Center, Extents} -> rp_aabb -> back */
        vec3 c, e, c2, e2;
        bool exact = it % 2 == 0;
        for (int k = 0; k < 3; k++) {
            c[k] = exact ? dyadic(&r, -1000, 1000) : (float)uniform(&r, -1e4, 1e4);
            e[k] = exact ? dyadic(&r, 0, 1000) : (float)uniform(&r, 0, 1e4);
        }
        rp_aabb box;
        assert_true(rp_aabb_from_center_extents(c, e, &box));
        for (int k = 0; k < 3; k++) {
            assert_true(box.min[k] == (float)((double)c[k] - e[k]));
            assert_true(box.max[k] == (float)((double)c[k] + e[k]));
        }
        assert_true(rp_aabb_to_center_extents(&box, c2, e2));
        for (int k = 0; k < 3; k++) {
            if (exact) {
                assert_true(c2[k] == c[k] && e2[k] == e[k]);
            } else {   /* within one ulp of max(|c|, |e|) */
                double ulp = nextafterf(fmaxf(fabsf(c[k]), e[k]), INFINITY) - fmaxf(fabsf(c[k]), e[k]);
                assert_true(fabs(c2[k] - c[k]) <= ulp && fabs(e2[k] - e[k]) <= ulp);
            }
        }
    }
    /* bad input: false, outputs untouched */
    rp_aabb box = {{1, 1, 1}, {2, 2, 2}}, keep = box;
    assert_false(rp_aabb_from_center_extents((vec3){0, 0, 0}, (vec3){1, -1, 1}, &box));
    assert_false(rp_aabb_from_center_extents((vec3){0, NAN, 0}, (vec3){1, 1, 1}, &box));
    assert_false(rp_aabb_from_center_extents((vec3){FLT_MAX, 0, 0}, (vec3){FLT_MAX, 1, 1}, &box));
    assert_false(rp_aabb_from_center_extents(NULL, (vec3){1, 1, 1}, &box));
    assert_memory_equal(&box, &keep, sizeof box);
    vec3 c = {9, 9, 9}, e = {9, 9, 9};
    rp_aabb bad = {{0, 0, 0}, {1, -1, 1}};
    assert_false(rp_aabb_to_center_extents(&bad, c, e));
    assert_false(rp_aabb_to_center_extents(NULL, c, e));
    bad.max[1] = INFINITY;
    assert_false(rp_aabb_to_center_extents(&bad, c, e));
    assert_true(c[0] == 9.0f && e[2] == 9.0f);
    /* the widest box stays finite; a flat box has extent 0 */
    rp_aabb wide = {{-FLT_MAX, 0, 3}, {FLT_MAX, 0, 3}};
    assert_true(rp_aabb_to_center_extents(&wide, c, NULL));
    assert_true(rp_aabb_to_center_extents(&wide, NULL, e));
    assert_true(c[0] == 0.0f && e[0] == FLT_MAX && e[1] == 0.0f && c[2] == 3.0f);
}

static void xm_create_box_from_points_is_rp_aabb_from_points(void **state)
{
    (void)state;
    rng r = {0x5eed0011};
    static float p[300][3];
    for (int it = 0; it < 2000; it++) {
        size_t n = random_cloud(&r, it % 4, p, 300);
        /* BoundingBox::CreateFromPoints(out, n, pts, stride) /
           XNA::ComputeBoundingAxisAlignedBoxFromPoints: the min and max,
           stored as centre and extents */
        double lo[3] = {DBL_MAX, DBL_MAX, DBL_MAX}, hi[3] = {-DBL_MAX, -DBL_MAX, -DBL_MAX};
        for (size_t i = 0; i < n; i++)
            for (int k = 0; k < 3; k++)
                lo[k] = fmin(lo[k], p[i][k]), hi[k] = fmax(hi[k], p[i][k]);
        rp_aabb box;
        vec3 c, e;
        assert_true(rp_aabb_from_points(&p[0][0], n, 0, &box));
        assert_true(rp_aabb_to_center_extents(&box, c, e));
        for (int k = 0; k < 3; k++) {
            assert_true(box.min[k] == lo[k] && box.max[k] == hi[k]);
            assert_close(c[k], 0.5 * (lo[k] + hi[k]), 1e-7);
            assert_close(e[k], 0.5 * (hi[k] - lo[k]), 1e-7);
        }
        /* BoundingBox::CreateFromPoints(out, pt1, pt2): any two corners */
        assert_true(rp_aabb_from_points(&p[0][0], n > 1 ? 2 : 1, 0, &box));
        for (int k = 0; k < 3; k++)
            assert_true(box.min[k] == fminf(p[0][k], p[n > 1][k]));
    }
}

/* ---- containment and overlap ----------------------------------------------- */

static void point_in_sphere_inclusive_and_strict(void **state)
{
    (void)state;
    rng r = {0x5eed0012};
    for (int it = 0; it < 20000; it++) {
        float c[3], p[3];
        for (int k = 0; k < 3; k++)
            c[k] = dyadic(&r, -10, 10), p[k] = dyadic(&r, -12, 12);
        float radius = dyadic(&r, 0.5, 12);
        double pd[3], cd[3], diff[3];
        to_d3(p, pd), to_d3(c, cd), sub3(pd, cd, diff);
        double d2 = dot3(diff, diff), r2 = (double)radius * radius;
        /* XNA::IntersectPointSphere, BoundingSphere::Contains(point) !=
           DISJOINT, XNA Contains(point) != Disjoint: |p - c|^2 <= r^2 =
           cglm's glm_sphere_point */
        vec4 s4 = {c[0], c[1], c[2], radius};
        assert_int_equal(glm_sphere_point(s4, p), d2 <= r2);
        /* XNA Contains(point) == ContainmentType.Contains: strictly inside =
           rp_sphere_contains_point */
        rp_sphere s = {{c[0], c[1], c[2]}, radius};
        assert_int_equal(rp_sphere_contains_point(&s, p), d2 < r2);
    }
    /* on the surface: (3, 4, 0) from the centre of a radius-5 sphere */
    vec4 s4 = {1, 1, 1, 5};
    rp_sphere s = {{1, 1, 1}, 5};
    vec3 on = {4, 5, 1};
    assert_true(glm_sphere_point(s4, on));
    assert_false(rp_sphere_contains_point(&s, on));
}

static void sphere_sphere_overlap_is_rp_test_sphere_sphere(void **state)
{
    (void)state;
    rng r = {0x5eed0013};
    int touching = 0;
    for (int it = 0; it < 20000; it++) {
        rp_sphere a, b;
        for (int k = 0; k < 3; k++)
            a.center[k] = dyadic(&r, -10, 10), b.center[k] = dyadic(&r, -10, 10);
        a.radius = dyadic(&r, 0.25, 8), b.radius = dyadic(&r, 0.25, 8);
        if (it % 4 == 0) {   /* touching exactly: centres 5 apart along (3, 4, 0) */
            for (int k = 0; k < 3; k++)
                a.center[k] = floorf(a.center[k]);
            b.center[0] = a.center[0] + 3, b.center[1] = a.center[1] + 4, b.center[2] = a.center[2];
            a.radius = 2.0f, b.radius = 3.0f;
            touching++;
        }
        double ca[3], cb[3], diff[3];
        to_d3(a.center, ca), to_d3(b.center, cb), sub3(ca, cb, diff);
        double rr = (double)a.radius + b.radius;
        /* BoundingSphere::Intersects(sphere), XNA::IntersectSphereSphere,
           XNA BoundingSphere.Intersects(BoundingSphere): |ca - cb|^2 <= (ra + rb)^2 */
        assert_int_equal(rp_test_sphere_sphere(&a, &b), dot3(diff, diff) <= rr * rr);
    }
    assert_true(touching == 5000);
}

static void xm_box_point_and_box_box_are_cglm_aabb(void **state)
{
    (void)state;
    rng r = {0x5eed0014};
    for (int it = 0; it < 20000; it++) {
        float c[3], e[3], c2[3], e2[3], p[3];
        for (int k = 0; k < 3; k++) {
            c[k] = dyadic(&r, -8, 8), e[k] = dyadic(&r, 0, 4);
            c2[k] = dyadic(&r, -8, 8), e2[k] = dyadic(&r, 0, 4);
            p[k] = dyadic(&r, -12, 12);
        }
        if (it % 5 == 0)   /* on a face */
            p[it % 3] = c[it % 3] + e[it % 3];
        if (it % 7 == 0)   /* boxes touching on a face */
            c2[0] = c[0] + e[0] + e2[0];
        rp_aabb a, b;
        assert_true(rp_aabb_from_center_extents(c, e, &a));
        assert_true(rp_aabb_from_center_extents(c2, e2, &b));
        /* XNA::IntersectPointAxisAlignedBox, BoundingBox::Contains(point):
           |p - c| <= e on every axis = glm_aabb_point (rp_aabb is vec3[2]) */
        bool in = true, overlap = true;
        for (int k = 0; k < 3; k++) {
            in = in && fabs((double)p[k] - c[k]) <= e[k];
            /* XNA::IntersectAxisAlignedBoxAxisAlignedBox,
               BoundingBox::Intersects(box): no axis separates, touching
               counts = glm_aabb_aabb */
            overlap = overlap && !((double)c[k] - e[k] > (double)c2[k] + e2[k] ||
                                   (double)c2[k] - e2[k] > (double)c[k] + e[k]);
        }
        assert_int_equal(glm_aabb_point((vec3 *)&a, p), in);
        assert_int_equal(glm_aabb_aabb((vec3 *)&a, (vec3 *)&b), overlap);
    }
}

/* XNA BoundingSphere.Transform(m), DirectXMath BoundingSphere::Transform:
   the centre through m (no divide), the radius times the longest of the
   three axis images (rows 1 to 3 of m) */
static dsphere xna_sphere_transform(const double c[3], double radius, const dmat *m)
{
    dsphere s;
    xna_vector3_transform(m, c, s.c);
    double longest = 0.0;
    for (int i = 0; i < 3; i++)
        longest = fmax(longest, m->m[i][0] * m->m[i][0] + m->m[i][1] * m->m[i][1] + m->m[i][2] * m->m[i][2]);
    s.r = radius * sqrt(longest);
    return s;
}

static void sphere_transform_encloses_and_matches_rotation_scale(void **state)
{
    (void)state;
    rng r = {0x5eed0015};
    int xna_pokes_out = 0;
    for (int it = 0; it < 2000; it++) {
        rp_sphere s = {{(float)uniform(&r, -5, 5), (float)uniform(&r, -5, 5), (float)uniform(&r, -5, 5)},
                       (float)uniform(&r, 0.1, 4)};
        mat4 m, rot;
        vec3 axis;
        unit_dir(&r, axis);
        glm_rotate_make(rot, (float)uniform(&r, -3, 3), axis);
        glm_scale_make(m, (vec3){(float)uniform(&r, 0.2, 3), (float)uniform(&r, 0.2, 3), (float)uniform(&r, 0.2, 3)});
        bool shear = it % 2 == 1;
        if (shear)
            m[1][0] = (float)uniform(&r, 0.5, 2);   /* y feeds x */
        glm_mat4_mul(rot, m, m);   /* scale (and shear) first, then rotate */
        m[3][0] = (float)uniform(&r, -9, 9), m[3][1] = (float)uniform(&r, -9, 9), m[3][2] = (float)uniform(&r, -9, 9);
        dmat dm = dmat_from_mat4(m);
        double c[3];
        to_d3(s.center, c);
        dsphere ref = xna_sphere_transform(c, s.radius, &dm);
        rp_sphere t;
        assert_true(rp_sphere_transform(&s, m, &t));
        /* the same centre */
        for (int k = 0; k < 3; k++)
            assert_close(t.center[k], ref.c[k], 1e-6);
        /* rotation and scale: the same radius, rounded up (by at most a few
           ulps, plus the rounding of the centre) */
        double slack = 0.0;
        for (int k = 0; k < 3; k++)
            slack += nextafterf(fabsf(t.center[k]), INFINITY) - fabsf(t.center[k]);
        if (!shear)
            assert_true(t.radius >= ref.r * (1 - 1e-6) && t.radius <= ref.r * (1 + 1e-6) + slack);
        /* raypick's encloses the image of the sphere; XNA's misses parts of
           a sheared one */
        bool xna_out = false;
        for (int j = 0; j < 200; j++) {
            float u[3];
            unit_dir(&r, u);
            double sp[3], img[3], diff[3];
            for (int k = 0; k < 3; k++)
                sp[k] = c[k] + (double)s.radius * u[k];
            xna_vector3_transform(&dm, sp, img);
            double tc[3];
            to_d3(t.center, tc);
            sub3(img, tc, diff);
            assert_true(sqrt(dot3(diff, diff)) <= t.radius);
            sub3(img, ref.c, diff);
            xna_out = xna_out || sqrt(dot3(diff, diff)) > ref.r * (1 + 1e-6);
        }
        if (!shear)
            assert_false(xna_out);
        xna_pokes_out += xna_out;
    }
    assert_true(xna_pokes_out > 500);
    /* a projective matrix, a negative radius: false, output untouched */
    rp_sphere s = {{0, 0, 0}, 1}, keep = {{5, 5, 5}, 5}, out = keep;
    mat4 proj;
    glm_perspective_rh_zo(1.0f, 1.0f, 0.1f, 10.0f, proj);
    assert_false(rp_sphere_transform(&s, proj, &out));
    s.radius = -1.0f;
    assert_false(rp_sphere_transform(&s, GLM_MAT4_IDENTITY, &out));
    assert_memory_equal(&out, &keep, sizeof out);
}

/* ---- frustum ---------------------------------------------------------------- */

/* inside the view volume of a D3D projection (depth [0, 1]): clip
   coordinates with |x| <= w, |y| <= w, 0 <= z <= w */
static bool d3d_frustum_contains(const dmat *view_proj, const double p[3], double margin)
{
    double h[4] = {p[0], p[1], p[2], 1.0}, c[4];
    dmat_row_vec4(view_proj, h, c);
    double w = c[3], m = margin * fabs(w);
    return c[0] >= -w + m && c[0] <= w - m && c[1] >= -w + m && c[1] <= w - m && c[2] >= m && c[2] <= w - m;
}

static bool planes_contain(vec4 planes[6], const float p[3])
{
    for (int i = 0; i < 6; i++)
        if (glm_vec3_dot(planes[i], (float *)p) + planes[i][3] < 0.0f)
            return false;
    return true;
}

static void frustum_planes_from_cglm_contain_the_view_volume(void **state)
{
    (void)state;
    rng r = {0x5eed0016};
    int inside = 0, boxes_in = 0, boxes_out = 0;
    for (int it = 0; it < 500; it++) {
        /* a D3D camera: BoundingFrustum::CreateFromMatrix(proj) moved by the
           inverse view (DirectXMath), BoundingFrustum(view * proj) (XNA) */
        float fov = (float)uniform(&r, 0.6, 1.5), aspect = (float)uniform(&r, 0.6, 2.0);
        float n = (float)uniform(&r, 0.2, 2), f = (float)uniform(&r, 20, 100);
        vec3 eye = {(float)uniform(&r, -10, 10), (float)uniform(&r, -10, 10), (float)uniform(&r, -10, 10)};
        vec3 at = {0, 0, 0};
        mat4 proj_zo, proj_no, view, vp_zo, vp_no;
        glm_perspective_rh_zo(fov, aspect, n, f, proj_zo);
        glm_perspective_rh_no(fov, aspect, n, f, proj_no);
        glm_lookat(eye, at, (vec3){0, 1, 0}, view);
        glm_mat4_mul(proj_zo, view, vp_zo);
        glm_mat4_mul(proj_no, view, vp_no);
        dmat ref = dmat_from_mat4(vp_zo);
        /* cglm: the planes of a GL-depth matrix; for the [0, 1] matrix
           glm_frustum_planes makes its near plane from z >= -w: replace it
           with the third row alone (z >= 0) */
        vec4 planes[6], planes_zo[6];
        glm_frustum_planes(vp_no, planes);
        glm_frustum_planes(vp_zo, planes_zo);
        mat4 t;
        glm_mat4_transpose_to(vp_zo, t);
        glm_vec4_copy(t[2], planes_zo[4]);
        glm_plane_normalize(planes_zo[4]);
        for (int j = 0; j < 100; j++) {
            float p[3];
            for (int k = 0; k < 3; k++)
                p[k] = (float)uniform(&r, -40, 40);
            double pd[3];
            to_d3(p, pd);
            bool in = d3d_frustum_contains(&ref, pd, 1e-4), out = !d3d_frustum_contains(&ref, pd, -1e-4);
            if (!in && !out)
                continue;   /* within rounding of a plane */
            inside += in;
            assert_int_equal(planes_contain(planes, p), in);
            assert_int_equal(planes_contain(planes_zo, p), in);
        }
        /* the pitfall: a point between the eye and the near plane is
           inside the planes glm_frustum_planes makes from the [0, 1] matrix */
        vec3 fwd, before_near;
        glm_vec3_sub(at, eye, fwd);
        glm_vec3_normalize(fwd);
        glm_vec3_scale(fwd, 0.75f * n, before_near);
        glm_vec3_add(eye, before_near, before_near);
        vec4 raw_zo[6];
        glm_frustum_planes(vp_zo, raw_zo);
        double bd[3];
        to_d3(before_near, bd);
        assert_false(d3d_frustum_contains(&ref, bd, 0.0));
        assert_true(planes_contain(raw_zo, before_near));
        assert_false(planes_contain(planes_zo, before_near));
        /* boxes: glm_aabb_frustum never drops one with a corner inside, and
           drops one whose corners are all outside the same plane */
        for (int j = 0; j < 50; j++) {
            float c[3], e[3];
            for (int k = 0; k < 3; k++)
                c[k] = (float)uniform(&r, -40, 40), e[k] = (float)uniform(&r, 0, 5);
            rp_aabb box;
            assert_true(rp_aabb_from_center_extents(c, e, &box));
            bool corner_in = false;
            bool all_out_of[6] = {true, true, true, true, true, true};
            for (int q = 0; q < 8; q++) {
                float corner[3] = {q & 1 ? box.max[0] : box.min[0], q & 2 ? box.max[1] : box.min[1],
                                   q & 4 ? box.max[2] : box.min[2]};
                double cd[3];
                to_d3(corner, cd);
                corner_in = corner_in || d3d_frustum_contains(&ref, cd, 1e-4);
                for (int i = 0; i < 6; i++)
                    all_out_of[i] = all_out_of[i] &&
                                    glm_vec3_dot(planes_zo[i], corner) + planes_zo[i][3] < -1e-3f;
            }
            bool separated = false;
            for (int i = 0; i < 6; i++)
                separated = separated || all_out_of[i];
            bool kept = glm_aabb_frustum((vec3 *)&box, planes_zo);
            if (corner_in) {
                assert_true(kept);
                boxes_in++;
            }
            if (separated) {
                assert_false(kept);
                boxes_out++;
            }
        }
    }
    assert_true(inside > 500 && boxes_in > 200 && boxes_out > 5000);
}

/* ======================================================================== */
/* XNA 4.0 / MonoGame                                                        */
/* ======================================================================== */

static void xna_matrix_product_order_is_reversed(void **state)
{
    (void)state;
    rng r = {0x5eed0017};
    for (int it = 0; it < 1000; it++) {
        camera_case c;
        random_camera(&r, false, &c);
        /* XNA: world * view * projection (row vectors, world first) =
           cglm: proj * view * world */
        dmat w = dmat_from_mat4(c.world), v = dmat_from_mat4(c.view), p = dmat_from_mat4(c.proj);
        dmat wv = dmat_mul(&w, &v), wvp = dmat_mul(&wv, &p);
        mat4 pv, pvw;
        glm_mat4_mul(c.proj, c.view, pv);
        glm_mat4_mul(pv, c.world, pvw);
        assert_mat4_is(pvw, &wvp, 1e-5);
        /* a point through it: Vector4.Transform(p, wvp) = pvw * (p, 1) */
        double pt[4] = {uniform(&r, -2, 2), uniform(&r, -2, 2), uniform(&r, -2, 2), 1.0}, ref[4];
        dmat_row_vec4(&wvp, pt, ref);
        vec4 got;
        glm_mat4_mulv(pvw, (vec4){(float)pt[0], (float)pt[1], (float)pt[2], 1.0f}, got);
        for (int k = 0; k < 4; k++)
            assert_close(got[k], ref[k], 1e-4);
    }
}

static void xna_matrix_builders_match_cglm(void **state)
{
    (void)state;
    rng r = {0x5eed0018};
    for (int it = 0; it < 2000; it++) {
        /* MathHelper.ToRadians = glm_rad */
        float degrees = (float)uniform(&r, 20, 120);
        assert_close(glm_rad(degrees), degrees * GLM_PI / 180.0, 1e-7);
        float fov = glm_rad(degrees), aspect = (float)uniform(&r, 0.5, 2.5);
        float n = (float)uniform(&r, 0.05, 2.0), f = (float)uniform(&r, 10.0, 1000.0);
        mat4 m;
        /* Matrix.CreatePerspectiveFieldOfView: right-handed, depth [0, 1]
           = glm_perspective_rh_zo, picked with RP_D3D */
        dmat ref = xm_perspective_fov(fov, aspect, n, f, false);
        glm_perspective_rh_zo(fov, aspect, n, f, m);
        assert_mat4_is(m, &ref, 2e-6);
        /* Matrix.CreateOrthographic(w, h, n, f) = glm_ortho_rh_zo(-w/2, w/2, -h/2, h/2, n, f) */
        float w = (float)uniform(&r, 1, 50), h = (float)uniform(&r, 1, 50);
        ref = xm_orthographic(w, h, n, f, false);
        glm_ortho_rh_zo(-w / 2, w / 2, -h / 2, h / 2, n, f, m);
        assert_mat4_is(m, &ref, 2e-6);
        /* Matrix.CreateLookAt(position, target, up) = glm_lookat */
        vec3 eye = {(float)uniform(&r, -20, 20), (float)uniform(&r, 2, 20), (float)uniform(&r, -20, 20)};
        vec3 at = {(float)uniform(&r, -1, 1), (float)uniform(&r, -1, 1), (float)uniform(&r, -1, 1)};
        double de[3], da[3], du[3] = {0, 1, 0};
        to_d3(eye, de), to_d3(at, da);
        ref = xm_look_at(de, da, du, false);
        glm_lookat(eye, at, (vec3){0, 1, 0}, m);
        assert_mat4_is(m, &ref, 1e-5);
        /* Matrix.CreateFromYawPitchRoll(yaw, pitch, roll) = glm_euler_yxz((vec3){pitch, yaw, roll}) */
        float yaw = (float)uniform(&r, -3, 3), pitch = (float)uniform(&r, -3, 3), roll = (float)uniform(&r, -3, 3);
        ref = xm_roll_pitch_yaw(pitch, yaw, roll);
        glm_euler_yxz((vec3){pitch, yaw, roll}, m);
        assert_mat4_is(m, &ref, 1e-6);
        /* Matrix.CreateRotationY(a) = glm_rotate_make(m, a, GLM_YUP) */
        ref = xm_rotation_axis(1, yaw);
        glm_rotate_make(m, yaw, GLM_YUP);
        assert_mat4_is(m, &ref, 1e-6);
    }
}

static void xna_vector3_transform_does_not_divide_by_w(void **state)
{
    (void)state;
    rng r = {0x5eed0019};
    int differ = 0;
    for (int it = 0; it < 2000; it++) {
        mat4 m;
        random_mat4(&r, m, it % 2 == 0);
        dmat dm = dmat_from_mat4(m);
        vec3 v = {(float)uniform(&r, -5, 5), (float)uniform(&r, -5, 5), (float)uniform(&r, -5, 5)}, out;
        double dv[3], ref[3], coord[3];
        to_d3(v, dv);
        /* Vector3.Transform(v, m): (v, 1) m with w dropped, never divided =
           glm_mat4_mulv3(m, v, 1.0f, dest) */
        xna_vector3_transform(&dm, dv, ref);
        glm_mat4_mulv3(m, v, 1.0f, out);
        for (int k = 0; k < 3; k++)
            assert_close(out[k], ref[k], 1e-5);
        /* for a projective m that is not XMVector3TransformCoord's point */
        xm_transform_coord(&dm, dv, coord);
        differ += fabs(coord[0] - ref[0]) > 1e-3 * (1 + fabs(ref[0]));
        /* Vector3.TransformNormal(v, m) = glm_mat4_mulv3(m, v, 0.0f, dest) */
        xm_transform_normal(&dm, dv, ref);
        glm_mat4_mulv3(m, v, 0.0f, out);
        for (int k = 0; k < 3; k++)
            assert_close(out[k], ref[k], 1e-5);
        /* Vector3.Transform(v, q) = glm_quat_rotatev(q, v, dest) */
        versor q;
        vec3 axis;
        unit_dir(&r, axis);
        glm_quatv(q, (float)uniform(&r, -3, 3), axis);
        double qd[4] = {q[0], q[1], q[2], q[3]};
        dmat rq = xm_rotation_quaternion(qd);
        xm_transform_normal(&rq, dv, ref);
        glm_quat_rotatev(q, v, out);
        for (int k = 0; k < 3; k++)
            assert_close(out[k], ref[k], 1e-5);
    }
    assert_true(differ > 500);
}

static void xna_viewport_unproject_and_project(void **state)
{
    (void)state;
    rng r = {0x5eed001a};
    for (int it = 0; it < 3000; it++) {
        camera_case c;
        random_camera(&r, false, &c);
        xna_viewport xvp = {c.vx, c.vy, c.vw, c.vh, c.minz, c.maxz};
        dmat p = dmat_from_mat4(c.proj), v = dmat_from_mat4(c.view), w = dmat_from_mat4(c.world);
        /* Viewport.Unproject(new Vector3(x, y, z), projection, view, world) */
        float x = (float)uniform(&r, c.vx, c.vx + c.vw), y = (float)uniform(&r, c.vy, c.vy + c.vh);
        float z = (float)uniform(&r, c.minz, c.minz + 0.9 * (c.maxz - c.minz));
        double src[3] = {x, y, z}, ref[3] = {0};   /* as model above */
        assert_true(xna_unproject(&xvp, src, &p, &v, &w, ref));
        rp_viewport vp = {c.vx, c.vy, c.vw, c.vh};
        mat4 view_world;
        glm_mat4_mul(c.view, c.world, view_world);
        vec3 out, back;
        assert_true(rp_unproject_point(x, y, (z - c.minz) / (c.maxz - c.minz), &vp, c.proj, view_world, RP_D3D, out));
        double scale = 1.0 + sqrt(dot3(ref, ref));
        for (int k = 0; k < 3; k++)
            assert_true(fabs(out[k] - ref[k]) <= 2e-3 * scale);
        /* Viewport.Project goes back: rp_project_point, depth mapped into
           [MinDepth, MaxDepth] */
        assert_true(rp_project_point(out, &vp, c.proj, view_world, RP_D3D, back));
        assert_true(fabs(back[0] - x) < 1e-2 && fabs(back[1] - y) < 1e-2);
        assert_close(c.minz + back[2] * (c.maxz - c.minz), z, 1e-4);
    }
}

static void xna_pick_ray_is_rp_pick_ray_unproject(void **state)
{
    (void)state;
    rng r = {0x5eed001b};
    for (int it = 0; it < 3000; it++) {
        camera_case c;
        random_camera(&r, false, &c);
        glm_mat4_identity(c.world);
        c.minz = 0.0f, c.maxz = 1.0f;   /* GraphicsDevice.Viewport's default */
        xna_viewport xvp = {c.vx, c.vy, c.vw, c.vh, 0.0, 1.0};
        dmat p = dmat_from_mat4(c.proj), v = dmat_from_mat4(c.view), w = dmat_identity();
        /* the sample: near = Unproject((x, y, 0)), far = Unproject((x, y, 1)),
           direction = Normalize(far - near), new Ray(near, direction) */
        float x = (float)floor(uniform(&r, c.vx, c.vx + c.vw)), y = (float)floor(uniform(&r, c.vy, c.vy + c.vh));
        double ns[3] = {x, y, 0.0}, fs[3] = {x, y, 1.0}, np[3], fp[3], dir[3];
        assert_true(xna_unproject(&xvp, ns, &p, &v, &w, np));
        assert_true(xna_unproject(&xvp, fs, &p, &v, &w, fp));
        sub3(fp, np, dir);
        double len = sqrt(dot3(dir, dir));
        normalize3(dir);
        rp_viewport vp = {c.vx, c.vy, c.vw, c.vh};
        rp_ray ray;
        assert_true(rp_pick_ray_unproject(x, y, &vp, c.proj, c.view, RP_D3D, &ray));
        /* Ray.Position = ray.origin; Ray.Direction = ray.dir normalised;
           ray.dir itself is far - near: t = 1 at the far plane, so an XNA
           distance is t * |ray.dir| */
        double scale = 1.0 + sqrt(dot3(np, np));
        for (int k = 0; k < 3; k++)
            assert_true(fabs(ray.origin[k] - np[k]) <= 1e-4 * scale);
        assert_close(glm_vec3_norm(ray.dir), len, 1e-4);
        vec3 unit;
        glm_vec3_normalize_to(ray.dir, unit);
        for (int k = 0; k < 3; k++)
            assert_close(unit[k], dir[k], 1e-5);
    }
}

static void xna_ray_sphere_is_zero_inside(void **state)
{
    (void)state;
    rng r = {0x5eed001c};
    int compared = 0, inside = 0, total = 0;
    for (int it = 0; it < 20000; it++, total++) {
        float o[3], d[3], c[3], radius;
        random_sphere_case(&r, it % 4, o, d, c, &radius);
        double od[3], dd[3], cd[3], dist;
        to_d3(o, od), to_d3(d, dd), to_d3(c, cd);
        if (it % 4 != 3 && !sphere_case_is_robust(od, dd, cd, radius))
            continue;
        compared++;
        /* Ray.Intersects(BoundingSphere) / BoundingSphere.Intersects(Ray) */
        bool ref = xna_ray_sphere(od, dd, cd, radius, &dist);
        rp_ray ray = make_ray(o, d);
        rp_sphere s = {{c[0], c[1], c[2]}, radius};
        rp_hit hit;
        bool got = rp_intersect_ray_sphere(&ray, &s, &hit);
        /* null = false; the float? value = hit.inside ? 0 : hit.t
           = max(hit.t_enter, 0) */
        assert_int_equal(got, ref);
        if (!ref)
            continue;
        double l[3];
        sub3(cd, od, l);
        double m2 = dot3(l, l) - dot3(l, dd) * dot3(l, dd);
        if (it % 4 != 3 && (double)radius * radius - m2 < 1e-2 * (double)radius * radius)
            continue;   /* nearly tangent: the entry is ill-conditioned */
        assert_close(fmaxf(hit.t_enter, 0.0f), dist, 1e-5);
        assert_close(hit.inside ? 0.0f : hit.t, dist, 1e-5);
        if (hit.inside) {
            inside++;
            assert_true(dist == 0.0 && hit.t > 0.0f);
        }
    }
    assert_true(compared > total * 9 / 10 && inside > 4000);
}

static void xna_ray_box_is_zero_inside(void **state)
{
    (void)state;
    rng r = {0x5eed001d};
    int compared = 0, inside = 0, total = 0;
    for (int it = 0; it < 20000; it++, total++) {
        float o[3], d[3], c[3], e[3];
        int kind = it % 4;
        int mask = random_box_case(&r, kind, o, d, c, e);
        if (kind == 3)
            continue;   /* XNA asks for a unit direction */
        double od[3], dd[3], cd[3], ed[3], lo[3], hi[3], dist;
        to_d3(o, od), to_d3(d, dd), to_d3(c, cd), to_d3(e, ed);
        if (mask && !box_case_is_robust(od, dd, cd, ed, mask))
            continue;
        for (int k = 0; k < 3; k++)
            lo[k] = cd[k] - ed[k], hi[k] = cd[k] + ed[k];
        /* near-parallel directions: XNA's 1e-6 threshold decides otherwise
           than exact arithmetic (documented in the guide) */
        if ((fabs(dd[0]) < 1e-4 && dd[0] != 0) || (fabs(dd[1]) < 1e-4 && dd[1] != 0) ||
            (fabs(dd[2]) < 1e-4 && dd[2] != 0))
            continue;
        compared++;
        /* Ray.Intersects(BoundingBox) / BoundingBox.Intersects(Ray) */
        bool ref = xna_ray_box(od, dd, lo, hi, &dist);
        rp_aabb box;
        assert_true(rp_aabb_from_center_extents(c, e, &box));
        rp_ray ray = make_ray(o, d);
        rp_hit hit;
        bool got = rp_intersect_ray_aabb(&ray, &box, &hit);
        assert_int_equal(got, ref);
        if (!ref)
            continue;
        assert_close(fmaxf(hit.t_enter, 0.0f), dist, 1e-6);
        if (kind == 1) {
            inside++;
            assert_true(dist == 0.0 && hit.inside);
        }
    }
    assert_true(compared > total / 2 && inside > 4000);
}

static void integer_and_pixel_centre_rays_differ_by_half_a_pixel(void **state)
{
    (void)state;
    /* XNA passes Mouse.GetState().X, .Y (integers) to Viewport.Unproject,
       as the D3D samples pass the cursor's integer client coordinates: the
       ray goes through the pixel's top-left corner. raypick's examples add
       0.5 (the pixel's centre, where GL and D3D sample). To reproduce the
       original, pass the same numbers it passes. */
    mat4 proj, view;
    glm_perspective_rh_zo(glm_rad(45.0f), 800.0f / 600.0f, 1.0f, 100.0f, proj);
    glm_lookat((vec3){0, 0, 10}, (vec3){0, 0, 0}, (vec3){0, 1, 0}, view);
    rp_viewport vp = {0, 0, 800, 600};
    for (int x = 0; x < 800; x += 37) {
        rp_ray corner, centre;
        assert_true(rp_pick_ray_unproject((float)x, 300.0f, &vp, proj, view, RP_D3D, &corner));
        assert_true(rp_pick_ray_unproject((float)x + 0.5f, 300.5f, &vp, proj, view, RP_D3D, &centre));
        /* where each ray meets the z = 0 plane, projected back */
        vec3 pc, pm, sc, sm;
        rp_ray_at(&corner, -corner.origin[2] / corner.dir[2], pc);
        rp_ray_at(&centre, -centre.origin[2] / centre.dir[2], pm);
        assert_true(rp_project_point(pc, &vp, proj, view, RP_D3D, sc));
        assert_true(rp_project_point(pm, &vp, proj, view, RP_D3D, sm));
        assert_close(sc[0], x, 1e-3);
        assert_close(sm[0], x + 0.5, 1e-3);
        assert_close(sm[1] - sc[1], 0.5, 1e-3);
    }
    /* a sphere whose silhouette edge lies between the corner and the centre
       of pixel 400 is hit by one and not the other */
    rp_ray corner, centre;
    assert_true(rp_pick_ray_unproject(400.0f, 300.0f, &vp, proj, view, RP_D3D, &corner));
    assert_true(rp_pick_ray_unproject(400.5f, 300.5f, &vp, proj, view, RP_D3D, &centre));
    vec3 at_corner;
    rp_ray_at(&corner, -corner.origin[2] / corner.dir[2], at_corner);
    rp_sphere s = {{at_corner[0] + 3e-3f - 1.0f, at_corner[1], 0.0f}, 1.0f};   /* half a pixel is 7e-3 here */
    assert_true(rp_test_ray_sphere(&corner, &s));
    assert_false(rp_test_ray_sphere(&centre, &s));
}

/* ---- the guide's table of dist from inside ------------------------------ */

static void inside_origin_dist_by_library(void **state)
{
    (void)state;
    /* the origin at the centre of a unit sphere and of the box [-1, 1]^3,
       looking along +x */
    const double o[3] = {0, 0, 0}, d[3] = {1, 0, 0}, c[3] = {0, 0, 0}, e[3] = {1, 1, 1};
    const double lo[3] = {-1, -1, -1}, hi[3] = {1, 1, 1};
    double xm_sphere, xm_box, xna_sphere, xna_box;
    assert_true(xm_ray_sphere(o, d, c, 1.0, &xm_sphere));
    assert_true(xm_ray_box(o, d, c, e, &xm_box));
    assert_true(xna_ray_sphere(o, d, c, 1.0, &xna_sphere));
    assert_true(xna_ray_box(o, d, lo, hi, &xna_box));
    /* DirectXMath / xnacollision: the sphere gives its exit, the box its
       (negative) entry; XNA: 0 for both */
    assert_true(xm_sphere == 1.0 && xm_box == -1.0 && xna_sphere == 0.0 && xna_box == 0.0);
    rp_ray ray = {{0, 0, 0}, {1, 0, 0}};
    rp_sphere s = {{0, 0, 0}, 1};
    rp_aabb box = {{-1, -1, -1}, {1, 1, 1}};
    rp_hit hs, hb;
    assert_true(rp_intersect_ray_sphere(&ray, &s, &hs));
    assert_true(rp_intersect_ray_aabb(&ray, &box, &hb));
    /* raypick: t the exit, t_enter the entry behind the origin, inside */
    assert_true(hs.inside && hs.t == 1.0f && hs.t_enter == -1.0f && hs.t_exit == 1.0f);
    assert_true(hb.inside && hb.t == 1.0f && hb.t_enter == -1.0f && hb.t_exit == 1.0f);
    /* the mappings: sphere dist = t, box dist = t_enter, XNA = max(t_enter, 0) */
    assert_true(hs.t == xm_sphere && hb.t_enter == xm_box);
    assert_true(fmaxf(hs.t_enter, 0.0f) == xna_sphere && fmaxf(hb.t_enter, 0.0f) == xna_box);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(directxmath_and_xna_layouts),
        cmocka_unit_test(xm_matrix_multiply_is_glm_mat4_mul_reversed),
        cmocka_unit_test(matrix_inverse_is_glm_mat4_inv),
        cmocka_unit_test(xm_perspective_and_look_at_builders_match_cglm),
        cmocka_unit_test(xm_transform_builders_match_cglm),
        cmocka_unit_test(xm_vector3_transforms_match_cglm),
        cmocka_unit_test(xm_vector3_basics_match_cglm),
        cmocka_unit_test(xm_vector3_unproject_is_rp_unproject_point),
        cmocka_unit_test(xm_vector3_project_is_rp_project_point),
        cmocka_unit_test(xm_sphere_intersects_dist_is_hit_t),
        cmocka_unit_test(xm_box_intersects_dist_is_hit_t_enter),
        cmocka_unit_test(xm_oriented_box_intersects_dist_is_hit_t_enter),
        cmocka_unit_test(xm_triangle_intersects_is_rp_intersect_ray_triangle),
        cmocka_unit_test(xm_create_sphere_from_points_is_ritter_rule),
        cmocka_unit_test(monogame_create_sphere_from_points_is_ritter_monogame),
        cmocka_unit_test(d3dx_compute_bounding_sphere_is_centroid_rule),
        cmocka_unit_test(xm_box_center_extents_round_trip),
        cmocka_unit_test(xm_create_box_from_points_is_rp_aabb_from_points),
        cmocka_unit_test(point_in_sphere_inclusive_and_strict),
        cmocka_unit_test(sphere_sphere_overlap_is_rp_test_sphere_sphere),
        cmocka_unit_test(xm_box_point_and_box_box_are_cglm_aabb),
        cmocka_unit_test(sphere_transform_encloses_and_matches_rotation_scale),
        cmocka_unit_test(frustum_planes_from_cglm_contain_the_view_volume),
        cmocka_unit_test(xna_matrix_product_order_is_reversed),
        cmocka_unit_test(xna_matrix_builders_match_cglm),
        cmocka_unit_test(xna_vector3_transform_does_not_divide_by_w),
        cmocka_unit_test(xna_viewport_unproject_and_project),
        cmocka_unit_test(xna_pick_ray_is_rp_pick_ray_unproject),
        cmocka_unit_test(xna_ray_sphere_is_zero_inside),
        cmocka_unit_test(xna_ray_box_is_zero_inside),
        cmocka_unit_test(integer_and_pixel_centre_rays_differ_by_half_a_pixel),
        cmocka_unit_test(inside_origin_dist_by_library),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * lesson1_cgame_pick.c: the Chinese bounding-sphere picking tutorial's
 * click, ported to C under its own names (lesson1_cgame_pick.h). The part
 * between the markers is what the code panel shows, numbered from 1
 * (docs/lessons/lesson1-picking-spheres.md prints it); the LISTING_ lines
 * in it are the lesson's instrumentation, hidden there (src/lessons/
 * listing.h).
 */
#include "lesson1_cgame_pick.h"

#include <math.h>
#include <string.h>

#define STEP_ID(name) "lesson.picking-spheres.step." name
/* keeps the click's ray for the lesson (a LISTING_ line: not shown) */
#define LISTING_KEEP_RAY(self, ray) ((self)->lastRay = (ray))

/* ---- what the tutorial takes from D3DX and its device ---------------- */

static D3DXVECTOR3 Sub(D3DXVECTOR3 a, D3DXVECTOR3 b)
{
    return (D3DXVECTOR3){a.x - b.x, a.y - b.y, a.z - b.z};
}

static float D3DXVec3Dot(const D3DXVECTOR3 *a, const D3DXVECTOR3 *b)
{
    return a->x * b->x + a->y * b->y + a->z * b->z;
}

/* [x y z 1] * M, divided by its w */
static void D3DXVec3TransformCoord(D3DXVECTOR3 *out, const D3DXVECTOR3 *v, const D3DXMATRIX *m)
{
    float x = v->x * m->_11 + v->y * m->_21 + v->z * m->_31 + m->_41;
    float y = v->x * m->_12 + v->y * m->_22 + v->z * m->_32 + m->_42;
    float z = v->x * m->_13 + v->y * m->_23 + v->z * m->_33 + m->_43;
    float w = v->x * m->_14 + v->y * m->_24 + v->z * m->_34 + m->_44;
    *out = (D3DXVECTOR3){x / w, y / w, z / w};
}

/* [x y z 0] * M: a direction, no translation */
static void D3DXVec3TransformNormal(D3DXVECTOR3 *out, const D3DXVECTOR3 *v, const D3DXMATRIX *m)
{
    D3DXVECTOR3 r = {v->x * m->_11 + v->y * m->_21 + v->z * m->_31, v->x * m->_12 + v->y * m->_22 + v->z * m->_32,
                     v->x * m->_13 + v->y * m->_23 + v->z * m->_33};
    *out = r;
}

static void D3DXVec3Normalize(D3DXVECTOR3 *out, const D3DXVECTOR3 *v)
{
    float len = sqrtf(D3DXVec3Dot(v, v));
    *out = len > 0.0f ? (D3DXVECTOR3){v->x / len, v->y / len, v->z / len} : *v;
}

/* D3DX keeps *out as it was when m cannot be inverted (it returns NULL) */
static void D3DXMatrixInverse(D3DXMATRIX *out, float *determinant, const D3DXMATRIX *m)
{
    mat4 a, inv;
    memcpy(a, m, sizeof a);     /* the same 16 floats (lesson1_cgame_pick.h) */
    if (determinant)
        *determinant = glm_mat4_det(a);
    if (glm_mat4_det(a) == 0.0f)
        return;
    glm_mat4_inv(a, inv);
    memcpy(out, inv, sizeof *out);
}

static void GetViewport(const CGame *self, D3DVIEWPORT9 *vp)
{
    *vp = self->viewport;
}

static void GetTransform(const CGame *self, D3DTRANSFORMSTATETYPE state, D3DXMATRIX *m)
{
    *m = state == D3DTS_VIEW ? self->view : self->projection;
}

bool CGame_SetDevice(CGame *self, const rp_viewport *viewport, mat4 view, mat4 proj, bool left_handed)
{
    /* a GL perspective projection: w = -z_view */
    if (!(proj[2][3] == -1.0f && proj[3][3] == 0.0f && proj[0][3] == 0.0f && proj[1][3] == 0.0f))
        return false;
    self->viewport = (D3DVIEWPORT9){(DWORD)viewport->x, (DWORD)viewport->y, (DWORD)viewport->width,
                                    (DWORD)viewport->height, 0.0f, 1.0f};
    if (!left_handed) {
        memcpy(&self->view, view, sizeof self->view);
        memcpy(&self->projection, proj, sizeof self->projection);
        return true;
    }
    /* the same camera in a left-handed view space: z mirrored */
    mat4 mirror = GLM_MAT4_IDENTITY_INIT, lh;
    mirror[2][2] = -1.0f;
    glm_mat4_mul(mirror, view, lh);
    memcpy(&self->view, lh, sizeof self->view);
    /* D3DXMatrixPerspectiveFovLH for GL's near and far planes */
    float a = proj[2][2], b = proj[3][2];
    float zn = b / (a - 1.0f), zf = b / (a + 1.0f);
    memset(&self->projection, 0, sizeof self->projection);
    self->projection._11 = proj[0][0];
    self->projection._22 = proj[1][1];
    self->projection._33 = zf / (zf - zn);
    self->projection._34 = 1.0f;
    self->projection._43 = -zn * zf / (zf - zn);
    return true;
}

/* LISTING BEGIN */
// View space: the eye at the origin, +z forward (Direct3D's
// left-handed space); z = 1 is the plane px, py live on.
// x, y: the click's pixel centre (D3D9: integers; GL: + 0.5).
Ray CalculateRay(CGame *self, float x, float y)
{
    float px = 0.0f;
    float py = 0.0f;
    D3DVIEWPORT9 vp;
    GetViewport(self, &vp);
    D3DXMATRIX proj;
    GetTransform(self, D3DTS_PROJECTION, &proj);
    px = (((2.0f * x) / vp.Width) - 1.0f) / proj._11;
    LISTING_STEP(self->trace, STEP_ID("px"), WATCH_F("x", x), WATCH_I("vp.Width", vp.Width),
                 WATCH_F("(2x / vp.Width) - 1", (2.0f * x) / vp.Width - 1.0f), WATCH_F("proj._11", proj._11),
                 WATCH_F("px", px));
    py = (((-2.0f * y) / vp.Height) + 1.0f) / proj._22;
    LISTING_STEP(self->trace, STEP_ID("py"), WATCH_F("y", y), WATCH_I("vp.Height", vp.Height),
                 WATCH_F("(-2y / vp.Height) + 1", (-2.0f * y) / vp.Height + 1.0f), WATCH_F("proj._22", proj._22),
                 WATCH_F("py", py));
    Ray ray;
    ray._origin = (D3DXVECTOR3){0.0f, 0.0f, 0.0f};
    ray._dirction = (D3DXVECTOR3){px, py, 1.0f};
    LISTING_STEP(self->trace, STEP_ID("view-ray"),
                 WATCH_V3("ray._origin", ray._origin.x, ray._origin.y, ray._origin.z),
                 WATCH_V3("ray._dirction", ray._dirction.x, ray._dirction.y, ray._dirction.z));
    return ray;
}

// Into the world: T is the inverse of the view matrix.
Ray TransformRay(CGame *self, Ray ray, D3DXMATRIX *T)
{
    Ray transRay;
    D3DXVec3TransformCoord(&transRay._origin, &ray._origin, T);
    D3DXVec3TransformNormal(&transRay._dirction,
                            &ray._dirction, T);
    D3DXVec3Normalize(&transRay._dirction, &transRay._dirction);
    LISTING_STEP(self->trace, STEP_ID("transform"),
                 WATCH_V3("transRay._origin", transRay._origin.x, transRay._origin.y, transRay._origin.z),
                 WATCH_V3("transRay._dirction", transRay._dirction.x, transRay._dirction.y,
                          transRay._dirction.z));
    return transRay;
}

// |origin + t u - center| = radius, squared: t^2 + b t + c = 0
// (A = u.u = 1: the direction is taken as unit).
BOOL CheckIntersection(CGame *self, Ray *ray, BoundSphere *sphere)
{
    D3DXVECTOR3 v = Sub(ray->_origin, sphere->_center);
    float b = 2.0f * D3DXVec3Dot(&ray->_dirction, &v);
    float c = D3DXVec3Dot(&v, &v) -
              (sphere->radius * sphere->radius);
    LISTING_STEP(self->trace, STEP_ID("quadratic"), WATCH_V3("v", v.x, v.y, v.z), WATCH_F("b", b),
                 WATCH_F("c", c));
    float n = (b * b) - (4.0f * c);
    LISTING_STEP(self->trace, n < 0.0f ? STEP_ID("no-root") : STEP_ID("two-roots"), WATCH_F("b", b),
                 WATCH_F("c", c), WATCH_F("n", n));
    if (n < 0.0f) {
        return false;
    }
    n = sqrtf(n);
    float t0 = (-b + n) / 2.0f;
    float t1 = (-b - n) / 2.0f;
    LISTING_STEP(self->trace, t0 >= 0 || t1 >= 0 ? STEP_ID("roots") : STEP_ID("roots-behind"),
                 WATCH_F("n", n), WATCH_F("t0", t0), WATCH_F("t1", t1));
    if (t0 >= 0 || t1 >= 0) {
        LISTING_STEP(self->trace, t1 >= 0 ? STEP_ID("hit") : STEP_ID("hit-inside"), WATCH_F("t0", t0),
                     WATCH_F("t1", t1));
        return true;
    }
    return false;
}

// The tutorial's left click: rotate what the ray hits, stop
// the rest. x, y: the click (the tutorial asks GetCursorPos).
void HandleMessage(CGame *self, UINT message, float x, float y)
{
    switch (message) {
    case WM_LBUTTONDOWN: {
        Ray ray = CalculateRay(self, x, y);
        D3DXMATRIX mat;
        GetTransform(self, D3DTS_VIEW, &mat);
        D3DXMatrixInverse(&mat, NULL, &mat);
        ray = TransformRay(self, ray, &mat);
        LISTING_KEEP_RAY(self, ray);
        for (int i = 0; i < self->sphereCount; ++i) {
            LISTING_STEP(self->trace, STEP_ID("sphere"), WATCH_I("i", i),
                         WATCH_V3("m_boundSphere[i]._center", self->m_boundSphere[i]._center.x,
                                  self->m_boundSphere[i]._center.y, self->m_boundSphere[i]._center.z),
                         WATCH_F("m_boundSphere[i].radius", self->m_boundSphere[i].radius));
            if (CheckIntersection(self, &ray,
                                  &self->m_boundSphere[i]))
                self->m_bRotate[i] = true;
            else
                self->m_bRotate[i] = false;
        }
    } break;
    }
}
/* LISTING END */

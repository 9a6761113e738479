/*
 * lesson1_cgame_pick.h: the Chinese bounding-sphere picking tutorial's
 * click (its CGame class: HandleMessage, CalculateRay, TransformRay,
 * CheckIntersection) as C under the tutorial's own names, the code lesson 1
 * runs on every click (lesson1_cgame_pick.c, shown in the code panel;
 * docs/lessons/lesson1-picking-spheres.md puts it beside the tutorial).
 *
 * D3DX's types become plain structs with the same fields (D3DXMATRIX's
 * _11 ... _44, row vectors as D3DX multiplies them; D3DVIEWPORT9's X, Y,
 * Width, Height; the tutorial's Ray with its _origin and its _dirction,
 * spelt as the tutorial's code spells it), the device a CGame passed as
 * `self`. The tutorial's mistakes are kept: CalculateRay ignores the
 * viewport's X and Y, reads only the projection's _11 and _22, and takes
 * +z as forward (Direct3D's left-handed view space); CheckIntersection
 * takes the ray's direction as unit (A = 1).
 */
#ifndef RAYPICK_LESSON1_CGAME_PICK_H
#define RAYPICK_LESSON1_CGAME_PICK_H

#include <stdbool.h>
#include <stdint.h>

#include <raypick/raypick.h>

#include "listing.h"

typedef uint32_t DWORD;
typedef unsigned int UINT;
typedef int BOOL;

#define WM_LBUTTONDOWN 0x0201u

typedef struct D3DXVECTOR3 { float x, y, z; } D3DXVECTOR3;
/* row-major, row vectors (v' = v * M): the same 16 floats, in the same
   order, as a cglm mat4 of the same transform */
typedef struct D3DXMATRIX {
    float _11, _12, _13, _14;
    float _21, _22, _23, _24;
    float _31, _32, _33, _34;
    float _41, _42, _43, _44;
} D3DXMATRIX;
typedef struct D3DVIEWPORT9 { DWORD X, Y, Width, Height; float MinZ, MaxZ; } D3DVIEWPORT9;
typedef enum D3DTRANSFORMSTATETYPE { D3DTS_VIEW = 2, D3DTS_PROJECTION = 3 } D3DTRANSFORMSTATETYPE;

typedef struct Ray { D3DXVECTOR3 _origin, _dirction; } Ray;     /* sic: the tutorial's spelling */
typedef struct BoundSphere { D3DXVECTOR3 _center; float radius; } BoundSphere;

#define CGAME_SPHERES_MAX 8

typedef struct CGame {
    D3DVIEWPORT9 viewport;          /* m_pDevice->GetViewport */
    D3DXMATRIX view, projection;    /* m_pDevice->GetTransform(D3DTS_VIEW / D3DTS_PROJECTION) */
    int sphereCount;                /* the tutorial's loop: 2; the lesson's: its objects */
    BoundSphere m_boundSphere[CGAME_SPHERES_MAX];
    bool m_bRotate[CGAME_SPHERES_MAX];
    listing_trace *trace;           /* where the steps go (NULL: none recorded) */
    Ray lastRay;                    /* the lesson's: the ray of HandleMessage's last click */
} CGame;

/* What the device holds for a GL camera (view and proj as the app builds
   them, RP_GL, right-handed) and a viewport: left_handed, what Direct3D
   would hold for the same camera (D3DXMatrixLookAtLH's view: view space
   z mirrored; D3DXMatrixPerspectiveFovLH's projection: the same _11 and
   _22, _34 = 1), the tutorial's world; !left_handed, the GL matrices as
   they are (a port that keeps the tutorial's +z: its rays point backwards).
   false for a projection that is not a perspective one (w row not -z). */
bool CGame_SetDevice(CGame *self, const rp_viewport *viewport, mat4 view, mat4 proj, bool left_handed);

Ray CalculateRay(CGame *self, float x, float y);
Ray TransformRay(CGame *self, Ray ray, D3DXMATRIX *T);
BOOL CheckIntersection(CGame *self, Ray *ray, BoundSphere *sphere);
/* The tutorial's WM_LBUTTONDOWN: sets m_bRotate[i] to whether the click's
   ray meets m_boundSphere[i]. (x, y): the click's pixel centre. */
void HandleMessage(CGame *self, UINT message, float x, float y);

/* The shown text (made at build time by listing2c.py). */
extern const listing listing_lesson1_cgame_pick;

#endif /* RAYPICK_LESSON1_CGAME_PICK_H */

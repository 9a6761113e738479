/*
 * lesson5_pick_sample.h: the DirectX SDK's Pick sample (its Pick function
 * and IntersectTriangle) as C under the sample's own names, the code lesson
 * 5 runs on every click (lesson5_pick_sample.c, shown in the code panel;
 * docs/lessons/lesson5-picking-triangles.md puts it beside the sample).
 *
 * D3DX's types become plain C: D3DXVECTOR3 a struct with x, y, z, a
 * D3DXMATRIX a union whose _11 ... _44 are the same 16 floats as the cglm
 * matrix of the same transform (include/raypick/pick.h, "Layout"). The
 * sample's globals (the mesh, the camera's matrices, the back buffer's
 * size, its check boxes "Use D3DXIntersect" and "Show All Hits", the
 * intersections found) are a Sample passed as `self`; D3DXIntersect is the
 * library's BVH (rp_intersect_ray_mesh, _all) on the model-space ray. The
 * sample's mistakes are kept: IntersectTriangle never checks t >= 0 (a
 * triangle behind the eye is a hit, and the nearest one when its fDist is
 * the smallest), its determinant threshold 0.0001 is absolute (a small or
 * far triangle is missed), and "Show All Hits" keeps them in face order,
 * the first MAX_INTERSECTIONS of it.
 */
#ifndef RAYPICK_LESSON5_PICK_SAMPLE_H
#define RAYPICK_LESSON5_PICK_SAMPLE_H

#include <stdbool.h>
#include <stdint.h>
#include <raypick/raypick.h>

#include "listing.h"
#include "mesh_data.h"

typedef uint32_t DWORD;
typedef float FLOAT;
typedef bool BOOL;
typedef struct D3DXVECTOR3 { float x, y, z; } D3DXVECTOR3;
typedef union D3DXMATRIX {
    struct {
        float _11, _12, _13, _14, _21, _22, _23, _24, _31, _32, _33, _34, _41, _42, _43, _44;
    };
    mat4 m;
} D3DXMATRIX;
typedef struct POINT { float x, y; } POINT;
typedef mesh_vertex D3DVERTEX;     /* p, n, tu, tv */

/* The sample's record of one hit. */
typedef struct INTERSECTION {
    DWORD dwFace;               /* the mesh face that was hit */
    FLOAT fBary1, fBary2;       /* its barycentrics: point = v0 + fBary1 (v1 - v0) + fBary2 (v2 - v0) */
    FLOAT fDist;                /* the ray parameter, in units of vPickRayDir */
    FLOAT tu, tv;               /* the texture coordinates there */
} INTERSECTION;

/* D3DXIntersect's all-hits record (D3DXINTERSECTINFO). */
typedef struct D3DXINTERSECTINFO {
    DWORD FaceIndex;
    FLOAT U, V, Dist;
} D3DXINTERSECTINFO;

#define MAX_INTERSECTIONS 16
#define SAMPLE_ALL_HITS 256     /* the lesson's room for D3DXIntersect's all hits */

typedef struct Sample {
    const rp_mesh *pMesh;                   /* the BVH D3DXIntersect asks */
    const D3DVERTEX *pVertices;
    const uint32_t *pIndices;               /* the sample reads WORDs: at most 65536 vertices */
    DWORD dwNumFaces;
    D3DXMATRIX matWorld, matView, matProj;  /* g_Camera's; RP_GL (right-handed, looking down -z) */
    float Width, Height;                    /* the back buffer's */
    bool g_bUseD3DXIntersect, g_bAllHits;
    DWORD g_dwNumIntersections;
    INTERSECTION g_IntersectionArray[MAX_INTERSECTIONS];
    D3DXINTERSECTINFO allHits[SAMPLE_ALL_HITS];
    /* the lesson's: where the steps go (never NULL), and, for the loop,
       one face's steps before they are kept (a hit's) or counted (a miss:
       which test rejected it) */
    listing_trace *trace, *clickTrace;
    listing_trace faceTrace;
    listing_step faceSteps[8];
    int *stepFace;                          /* [step] = the face a step is about, -1: none (cap as the trace's) */
    int currentFace;
    int rejectedDet, rejectedU, rejectedV;
    D3DXVECTOR3 rayOrig, rayDir;            /* the model-space ray, for the near misses */
} Sample;

/* Makes self ready for a click: the steps go to trace, the face each
   step is about to stepFace (both of cap entries; Pick writes the entries
   of the steps about a face, the caller fills the rest with -1), the
   counters at zero. The loop keeps
   the steps of the faces it hits, and of its near misses: a face the
   ray passes within about the face's own size of (v fails, u passed),
   and a face |det| < 0.0001 rejects though the ray meets it. */
void SampleBegin(Sample *self, listing_trace *trace, int *stepFace);

bool IntersectTriangle(Sample *self, const D3DXVECTOR3 orig, const D3DXVECTOR3 dir, D3DXVECTOR3 v0,
                       D3DXVECTOR3 v1, D3DXVECTOR3 v2, FLOAT *t, FLOAT *u, FLOAT *v);
/* The sample's Pick for a click at ptCursor (back-buffer pixels): fills
   g_dwNumIntersections and g_IntersectionArray. */
void Pick(Sample *self, POINT ptCursor);

/* The shown text (made at build time by listing2c.py). */
extern const listing listing_lesson5_pick_sample;

#endif /* RAYPICK_LESSON5_PICK_SAMPLE_H */

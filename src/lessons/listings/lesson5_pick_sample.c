/*
 * lesson5_pick_sample.c: the DirectX SDK's Pick sample, ported to C under
 * its own names (lesson5_pick_sample.h). The part between the markers is
 * what the code panel shows, numbered from 1 (docs/lessons/
 * lesson5-picking-triangles.md prints it); the LISTING_ lines in it are
 * the lesson's instrumentation, hidden there (src/lessons/listing.h and
 * the LISTING_FACE_ macros below).
 */
#include "lesson5_pick_sample.h"

#include <math.h>
#include <string.h>

#define STEP_ID(name) "lesson.picking-triangles.step." name

static D3DXVECTOR3 Sub(D3DXVECTOR3 p, D3DXVECTOR3 q) { return (D3DXVECTOR3){p.x - q.x, p.y - q.y, p.z - q.z}; }
static FLOAT Dot(D3DXVECTOR3 p, D3DXVECTOR3 q) { return p.x * q.x + p.y * q.y + p.z * q.z; }

static D3DXVECTOR3 Cross(D3DXVECTOR3 p, D3DXVECTOR3 q)
{
    return (D3DXVECTOR3){p.y * q.z - p.z * q.y, p.z * q.x - p.x * q.z, p.x * q.y - p.y * q.x};
}

/* D3DXMatrixMultiply(out, a, b) = a * b with D3DX's row vectors: a first */
static void D3DXMatrixMultiply(D3DXMATRIX *pOut, const D3DXMATRIX *pM1, const D3DXMATRIX *pM2)
{
    glm_mat4_mul((vec4 *)pM2->m, (vec4 *)pM1->m, pOut->m);
}

static void D3DXMatrixInverse(D3DXMATRIX *pOut, float *pDeterminant, const D3DXMATRIX *pM)
{
    (void)pDeterminant;
    glm_mat4_inv((vec4 *)pM->m, pOut->m);
}

/* vertex k of the index buffer, as the sample reads it */
static D3DXVECTOR3 Vertex(const Sample *self, DWORD k)
{
    const float *p = self->pVertices[self->pIndices[k]].p;
    return (D3DXVECTOR3){p[0], p[1], p[2]};
}

/* D3DXIntersect on the model-space ray: the library's BVH (nearest, or
   every hit nearest first into self->allHits). *pDist is in units of
   pRayDir, as D3DX's. */
static void D3DXIntersect(Sample *self, const D3DXVECTOR3 *pRayPos, const D3DXVECTOR3 *pRayDir, BOOL *pHit,
                          DWORD *pFaceIndex, FLOAT *pU, FLOAT *pV, FLOAT *pDist, D3DXINTERSECTINFO **ppAllHits,
                          DWORD *pCountOfHits)
{
    rp_ray ray = {{pRayPos->x, pRayPos->y, pRayPos->z}, {pRayDir->x, pRayDir->y, pRayDir->z}};
    if (ppAllHits) {
        rp_hit hits[SAMPLE_ALL_HITS];
        rp_triangle_hit tris[SAMPLE_ALL_HITS];
        size_t n = rp_intersect_ray_mesh_all(self->pMesh, &ray, hits, tris, SAMPLE_ALL_HITS);
        if (n > SAMPLE_ALL_HITS)
            n = SAMPLE_ALL_HITS;
        for (size_t i = 0; i < n; ++i)
            self->allHits[i] = (D3DXINTERSECTINFO){tris[i].triangle, tris[i].u, tris[i].v, hits[i].t};
        *pHit = n > 0;
        *ppAllHits = self->allHits;
        *pCountOfHits = (DWORD)n;
        return;
    }
    rp_hit h;
    rp_triangle_hit tri;
    *pHit = rp_intersect_ray_mesh(self->pMesh, &ray, &h, &tri);
    if (*pHit) {
        *pFaceIndex = tri.triangle;
        *pU = tri.u;
        *pV = tri.v;
        *pDist = h.t;
    }
}

void SampleBegin(Sample *self, listing_trace *trace, int *stepFace)
{
    self->trace = self->clickTrace = trace;
    self->stepFace = stepFace;
    self->currentFace = -1;
    self->rejectedDet = self->rejectedU = self->rejectedV = 0;
}

/* the faces of the steps recorded since `from` */
static void mark_steps(Sample *self, int from, int face)
{
    for (int i = from; i < self->clickTrace->count; ++i)
        self->stepFace[i] = face;
}

/* The loop's instrumentation: a face's IntersectTriangle steps go to a
   scratch trace; a hit's join the click's (they are what the lesson
   shows), a miss is counted by the test that rejected it. */
static void face_begin(Sample *self, DWORD face)
{
    self->currentFace = (int)face;
    listing_trace_reset(&self->faceTrace, self->faceSteps, 8);
    self->trace = &self->faceTrace;
}

static void face_keep(Sample *self)
{
    int from = self->clickTrace->count;
    for (int i = 0; i < self->faceTrace.count; ++i) {
        const listing_step *s = &self->faceSteps[i];
        listing_step_add(self->clickTrace, s->source_line, s->msg_id, s->watches, s->watch_count);
    }
    mark_steps(self, from, self->currentFace);
    self->trace = self->clickTrace;
    self->faceTrace.count = 0;
}

/* Does the line through orig along dir meet the triangle (in double,
   whatever the determinant's size)? */
static bool line_meets(D3DXVECTOR3 orig, D3DXVECTOR3 dir, D3DXVECTOR3 a, D3DXVECTOR3 b, D3DXVECTOR3 c)
{
    double e1[3] = {b.x - a.x, b.y - a.y, b.z - a.z}, e2[3] = {c.x - a.x, c.y - a.y, c.z - a.z};
    double d[3] = {dir.x, dir.y, dir.z}, w[3] = {orig.x - a.x, orig.y - a.y, orig.z - a.z};
    double p[3] = {d[1] * e2[2] - d[2] * e2[1], d[2] * e2[0] - d[0] * e2[2], d[0] * e2[1] - d[1] * e2[0]};
    double det = e1[0] * p[0] + e1[1] * p[1] + e1[2] * p[2];
    if (det == 0.0)
        return false;
    double u = (w[0] * p[0] + w[1] * p[1] + w[2] * p[2]) / det;
    double q[3] = {w[1] * e1[2] - w[2] * e1[1], w[2] * e1[0] - w[0] * e1[2], w[0] * e1[1] - w[1] * e1[0]};
    double v = (d[0] * q[0] + d[1] * q[1] + d[2] * q[2]) / det;
    return u >= 0.0 && v >= 0.0 && u + v <= 1.0;
}

/* A face that did not pass: counted by the test that rejected it; its
   steps kept when it was a near miss (the ones worth a look). */
static void face_end(Sample *self)
{
    if (self->trace == &self->faceTrace && self->faceTrace.count > 0) {
        const listing_step *last = &self->faceSteps[self->faceTrace.count - 1];
        bool small = strcmp(last->msg_id, STEP_ID("det-small")) == 0;
        bool off_v = strcmp(last->msg_id, STEP_ID("v-out")) == 0;
        self->rejectedDet += small;
        self->rejectedU += strcmp(last->msg_id, STEP_ID("u-out")) == 0;
        self->rejectedV += off_v;
        bool near = false;
        if (off_v) {
            const listing_watch *u = listing_step_watch(last, "*u"), *v = listing_step_watch(last, "*v");
            const listing_watch *det = listing_step_watch(last, "det");
            near = u && v && det && det->v[0] > 0.0f && v->v[0] >= -det->v[0] && u->v[0] + v->v[0] <= 2.0f * det->v[0];
        } else if (small) {
            DWORD k = 3 * (DWORD)self->currentFace;
            near = line_meets(self->rayOrig, self->rayDir, Vertex(self, k), Vertex(self, k + 1), Vertex(self, k + 2));
        }
        if (near)
            face_keep(self);
    }
    self->trace = self->clickTrace;
    self->currentFace = -1;
}

/* a step of the click's own (not a face's): its face, if any, noted */
static void mark_last(Sample *self, int face)
{
    if (self->trace == self->clickTrace && self->clickTrace->count > 0)
        self->stepFace[self->clickTrace->count - 1] = face;
}

#define LISTING_FACE_BEGIN(self, face) face_begin((self), (face))
#define LISTING_FACE_KEEP(self) face_keep(self)
#define LISTING_FACE_END(self) face_end(self)
#define LISTING_FACE_OF_STEP(self, face) mark_last((self), (int)(face))
#define LISTING_RAY(self, orig, dir) ((self)->rayOrig = (orig), (self)->rayDir = (dir))

/* LISTING BEGIN */
// The sample's triangle test (Moller-Trumbore, both faces): TRUE
// with t, u, v when the ray meets the triangle v0 v1 v2.
bool IntersectTriangle(Sample *self, const D3DXVECTOR3 orig,
    const D3DXVECTOR3 dir, D3DXVECTOR3 v0, D3DXVECTOR3 v1,
    D3DXVECTOR3 v2, FLOAT *t, FLOAT *u, FLOAT *v)
{
    D3DXVECTOR3 edge1 = Sub(v1, v0);
    D3DXVECTOR3 edge2 = Sub(v2, v0);
    D3DXVECTOR3 pvec = Cross(dir, edge2);
    FLOAT det = Dot(edge1, pvec);
    LISTING_STEP(self->trace, fabsf(det) < 0.0001f ? STEP_ID("det-small") : STEP_ID("det"),
                 WATCH_V3("edge1", edge1.x, edge1.y, edge1.z), WATCH_V3("edge2", edge2.x, edge2.y, edge2.z),
                 WATCH_F("det", det));
    D3DXVECTOR3 tvec;
    if (det > 0) {
        tvec = Sub(orig, v0);
    } else {
        tvec = Sub(v0, orig);
        det = -det;
    }
    if (det < 0.0001f)
        return false;
    *u = Dot(tvec, pvec);
    LISTING_STEP(self->trace, *u < 0.0f || *u > det ? STEP_ID("u-out") : STEP_ID("u-in"), WATCH_F("*u", *u),
                 WATCH_F("det", det), WATCH_V3("tvec", tvec.x, tvec.y, tvec.z));
    if (*u < 0.0f || *u > det)
        return false;
    D3DXVECTOR3 qvec = Cross(tvec, edge1);
    *v = Dot(dir, qvec);
    LISTING_STEP(self->trace, *v < 0.0f || *u + *v > det ? STEP_ID("v-out") : STEP_ID("v-in"), WATCH_F("*v", *v),
                 WATCH_F("*u", *u), WATCH_F("det", det));
    if (*v < 0.0f || *u + *v > det)
        return false;
    *t = Dot(edge2, qvec);
    FLOAT fInvDet = 1.0f / det;
    *t *= fInvDet;
    *u *= fInvDet;
    *v *= fInvDet;
    LISTING_STEP(self->trace, *t < 0.0f ? STEP_ID("hit-behind") : STEP_ID("hit"), WATCH_F("*t", *t),
                 WATCH_F("*u", *u), WATCH_F("*v", *v));
    return true;
}

// The sample's Pick: the click's ray into the mesh's own space,
// then the triangles it meets (all, or the nearest).
void Pick(Sample *self, POINT ptCursor)
{
    D3DXVECTOR3 vPickRayDir, vPickRayOrig, v;
    const D3DXMATRIX *pmatProj = &self->matProj;
    self->g_dwNumIntersections = 0;
    v.x = (((2.0f * ptCursor.x) / self->Width) - 1) / pmatProj->_11;
    v.y = -(((2.0f * ptCursor.y) / self->Height) - 1) / pmatProj->_22;
    v.z = -1.0f;    // GL's camera looks down -z (the sample's: +1)
    LISTING_STEP(self->trace, STEP_ID("screen-ray"), WATCH_V3("ptCursor", ptCursor.x, ptCursor.y, 0),
                 WATCH_F("_11", self->matProj._11), WATCH_F("_22", self->matProj._22), WATCH_V3("v", v.x, v.y, v.z));
    D3DXMATRIX mWorldView, m;
    D3DXMatrixMultiply(&mWorldView, &self->matWorld, &self->matView);
    D3DXMatrixInverse(&m, NULL, &mWorldView);
    vPickRayDir.x = v.x * m._11 + v.y * m._21 + v.z * m._31;
    vPickRayDir.y = v.x * m._12 + v.y * m._22 + v.z * m._32;
    vPickRayDir.z = v.x * m._13 + v.y * m._23 + v.z * m._33;
    vPickRayOrig.x = m._41;
    vPickRayOrig.y = m._42;
    vPickRayOrig.z = m._43;
    LISTING_STEP(self->trace, STEP_ID("model-ray"),
                 WATCH_V3("vPickRayOrig", vPickRayOrig.x, vPickRayOrig.y, vPickRayOrig.z),
                 WATCH_V3("vPickRayDir", vPickRayDir.x, vPickRayDir.y, vPickRayDir.z));
    LISTING_RAY(self, vPickRayOrig, vPickRayDir);
    INTERSECTION *hits = self->g_IntersectionArray;
    if (self->g_bUseD3DXIntersect && !self->g_bAllHits) {
        BOOL bHit;
        DWORD dwFace = 0;
        FLOAT fBary1 = 0, fBary2 = 0, fDist = 0;
        D3DXIntersect(self, &vPickRayOrig, &vPickRayDir, &bHit,
                      &dwFace, &fBary1, &fBary2, &fDist, NULL, NULL);
        LISTING_STEP(self->trace, bHit ? STEP_ID("d3dx-hit") : STEP_ID("d3dx-miss"), WATCH_B("bHit", bHit),
                     WATCH_I("dwFace", dwFace), WATCH_F("fBary1", fBary1), WATCH_F("fBary2", fBary2),
                     WATCH_F("fDist", fDist));
        LISTING_FACE_OF_STEP(self, bHit ? (int)dwFace : -1);
        if (bHit) {
            self->g_dwNumIntersections = 1;
            hits[0] = (INTERSECTION){dwFace, fBary1, fBary2,
                                     fDist, 0, 0};
        }
    } else if (self->g_bUseD3DXIntersect) {
        BOOL bHit;
        D3DXINTERSECTINFO *pIntersectInfoArray = NULL;
        DWORD dwCount = 0;
        D3DXIntersect(self, &vPickRayOrig, &vPickRayDir, &bHit,
                      NULL, NULL, NULL, NULL, &pIntersectInfoArray,
                      &dwCount);
        if (dwCount > MAX_INTERSECTIONS)
            dwCount = MAX_INTERSECTIONS;
        for (DWORD i = 0; i < dwCount; i++) {
            D3DXINTERSECTINFO *info = &pIntersectInfoArray[i];
            hits[i] = (INTERSECTION){info->FaceIndex, info->U,
                                     info->V, info->Dist, 0, 0};
        }
        self->g_dwNumIntersections = dwCount;
        LISTING_STEP(self->trace, STEP_ID("d3dx-all"), WATCH_B("bHit", bHit),
                     WATCH_I("g_dwNumIntersections", self->g_dwNumIntersections));
        LISTING_FACE_OF_STEP(self, dwCount > 0 ? (int)hits[0].dwFace : -1);
    } else {
        FLOAT fBary1, fBary2, fDist;
        for (DWORD i = 0; i < self->dwNumFaces; i++) {
            D3DXVECTOR3 v0 = Vertex(self, 3 * i + 0);
            D3DXVECTOR3 v1 = Vertex(self, 3 * i + 1);
            D3DXVECTOR3 v2 = Vertex(self, 3 * i + 2);
            LISTING_FACE_BEGIN(self, i);
            if (IntersectTriangle(self, vPickRayOrig, vPickRayDir, v0,
                    v1, v2, &fDist, &fBary1, &fBary2)) {
                LISTING_FACE_KEEP(self);
                LISTING_STEP(self->trace,
                             self->g_bAllHits || self->g_dwNumIntersections == 0 || fDist < hits[0].fDist
                                 ? STEP_ID("face-hit") : STEP_ID("face-farther"),
                             WATCH_I("i", i), WATCH_F("fDist", fDist),
                             WATCH_F("hits[0].fDist", self->g_dwNumIntersections ? hits[0].fDist : NAN));
                LISTING_FACE_OF_STEP(self, i);
                if (self->g_bAllHits ||
                    self->g_dwNumIntersections == 0 ||
                    fDist < hits[0].fDist) {
                    if (!self->g_bAllHits)
                        self->g_dwNumIntersections = 0;
                    DWORD n = self->g_dwNumIntersections++;
                    hits[n] = (INTERSECTION){i, fBary1, fBary2,
                                             fDist, 0, 0};
                    LISTING_STEP(self->trace, self->g_bAllHits ? STEP_ID("kept-all") : STEP_ID("kept"),
                                 WATCH_I("i", i), WATCH_F("fDist", fDist),
                                 WATCH_I("g_dwNumIntersections", self->g_dwNumIntersections));
                    LISTING_FACE_OF_STEP(self, i);
                    if (n + 1 == MAX_INTERSECTIONS)
                        break;
                }
            }
            LISTING_FACE_END(self);
        }
        // every face tested; g_dwNumIntersections hits kept
        LISTING_STEP(self->trace, STEP_ID("loop-done"), WATCH_I("dwNumFaces", self->dwNumFaces),
                     WATCH_I("g_dwNumIntersections", self->g_dwNumIntersections));
        LISTING_FACE_OF_STEP(self, self->g_dwNumIntersections > 0 ? (int)hits[0].dwFace : -1);
    }
    // The texture coordinates of each hit, from its barycentrics.
    for (DWORD k = 0; k < self->g_dwNumIntersections; k++) {
        INTERSECTION *pIntersection = &hits[k];
        const uint32_t *iThisTri =
            &self->pIndices[3 * pIntersection->dwFace];
        const D3DVERTEX *v0 = &self->pVertices[iThisTri[0]];
        const D3DVERTEX *v1 = &self->pVertices[iThisTri[1]];
        const D3DVERTEX *v2 = &self->pVertices[iThisTri[2]];
        FLOAT dtu1 = v1->tu - v0->tu, dtu2 = v2->tu - v0->tu;
        FLOAT dtv1 = v1->tv - v0->tv, dtv2 = v2->tv - v0->tv;
        pIntersection->tu = v0->tu + pIntersection->fBary1 * dtu1 +
                            pIntersection->fBary2 * dtu2;
        pIntersection->tv = v0->tv + pIntersection->fBary1 * dtv1 +
                            pIntersection->fBary2 * dtv2;
        LISTING_STEP(self->trace, STEP_ID("texture"), WATCH_I("dwFace", pIntersection->dwFace),
                     WATCH_F("fBary1", pIntersection->fBary1), WATCH_F("fBary2", pIntersection->fBary2),
                     WATCH_F("tu", pIntersection->tu), WATCH_F("tv", pIntersection->tv));
        LISTING_FACE_OF_STEP(self, pIntersection->dwFace);
    }
}
/* LISTING END */

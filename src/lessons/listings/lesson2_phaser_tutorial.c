/*
 * lesson2_phaser_tutorial.c: the German phaser/shield tutorial's beam
 * test, ported to C under its own names (lesson2_phaser_tutorial.h). The
 * part between the markers is what the code panel shows, numbered from 1
 * (docs/lessons/lesson2-phaser-shields.md prints it); the LISTING_ lines
 * in it are the lesson's instrumentation, hidden there
 * (src/lessons/listing.h).
 */
#include "lesson2_phaser_tutorial.h"

#include <math.h>

#define STEP_ID(name) "lesson.phaser-shields.step." name

/* D3DXVECTOR3's operator- */
static D3DXVECTOR3 Sub(D3DXVECTOR3 p, D3DXVECTOR3 q)
{
    return (D3DXVECTOR3){p.x - q.x, p.y - q.y, p.z - q.z};
}

float FastSqrtExact(float x)
{
    return sqrtf(x);
}

/* which sentence the choice of s2 gets: its sign and s1's */
static const char *min_id(float s1, float s2)
{
    return s2 >= 0.0f ? STEP_ID("min") : s1 >= 0.0f ? STEP_ID("min-inside") : STEP_ID("min-behind");
}

/* LISTING BEGIN */
// The tutorial's sphere test. The beam P = A + l * Dir put into
// (P - M)^2 = r^2 is a quadratic a l^2 + b l + c = 0.
bool Sphere_Ray_Intersections(Phaser *self,
    float *pIntersectionParam,
    const D3DXVECTOR3 *pRayDirection,
    const D3DXVECTOR3 *pRayStartPosition,
    const D3DXVECTOR3 *pSpherePosition, const float *pSphereScaleSq)
{
    float a = pRayDirection->x*pRayDirection->x +
              pRayDirection->y*pRayDirection->y +
              pRayDirection->z*pRayDirection->z;
    D3DXVECTOR3 RayHelp = Sub(*pRayStartPosition, *pSpherePosition);
    float b = 2.0f * (RayHelp.x*pRayDirection->x +
                      RayHelp.y*pRayDirection->y +
                      RayHelp.z*pRayDirection->z);
    float c = RayHelp.x*RayHelp.x +
              RayHelp.y*RayHelp.y +
              RayHelp.z*RayHelp.z - *pSphereScaleSq;
    LISTING_STEP(self->trace, STEP_ID("abc"), WATCH_F("a", a),
                 WATCH_V3("RayHelp", RayHelp.x, RayHelp.y, RayHelp.z), WATCH_F("b", b), WATCH_F("c", c));
    float det = b * b - 4.0f * a * c;
    LISTING_STEP(self->trace, det < 0.0f ? STEP_ID("det-negative") : STEP_ID("det"), WATCH_F("det", det),
                 WATCH_F("a", a), WATCH_F("b", b), WATCH_F("c", c));
    if (det < 0.0f)
        return false;
    det = FastSqrtExact(det);
    a *= 2.0f;
    a = 1.0f / a;
    float s1 = (-b + det) * a;
    float s2 = (-b - det) * a;
    LISTING_STEP(self->trace, STEP_ID("roots"), WATCH_F("det", det), WATCH_F("a", a), WATCH_F("s1", s1),
                 WATCH_F("s2", s2));
    if (s1 < s2)
        *pIntersectionParam = s1;
    else
        *pIntersectionParam = s2;
    LISTING_STEP(self->trace, min_id(s1, s2), WATCH_F("s1", s1), WATCH_F("s2", s2),
                 WATCH_F("*pIntersectionParam", *pIntersectionParam));
    return true;
}

// Its ellipsoid version: ((x - x0) / a)^2 + ... = 1, each axis
// divided by its squared semi-axis (along x, y and z only).
bool Ellipsoid_Ray_Intersections(Phaser *self,
    float *pIntersectionParam,
    const D3DXVECTOR3 *pRayDirection,
    const D3DXVECTOR3 *pRayStartPosition,
    const D3DXVECTOR3 *pEllipsoidPosition,
    const D3DXVECTOR3 *pEllipsoidScaleSq)
{
    D3DXVECTOR3 RayHelp =
        Sub(*pRayStartPosition, *pEllipsoidPosition);
    float a = pRayDirection->x*pRayDirection->x/pEllipsoidScaleSq->x +
        pRayDirection->y*pRayDirection->y/pEllipsoidScaleSq->y +
        pRayDirection->z*pRayDirection->z/pEllipsoidScaleSq->z;
    float b = 2.0f*(RayHelp.x*pRayDirection->x/pEllipsoidScaleSq->x +
        RayHelp.y*pRayDirection->y/pEllipsoidScaleSq->y +
        RayHelp.z*pRayDirection->z/pEllipsoidScaleSq->z);
    float c = RayHelp.x*RayHelp.x/pEllipsoidScaleSq->x +
        RayHelp.y*RayHelp.y/pEllipsoidScaleSq->y +
        RayHelp.z*RayHelp.z/pEllipsoidScaleSq->z - 1.0f;
    LISTING_STEP(self->trace, STEP_ID("abc-ellipsoid"), WATCH_F("a", a),
                 WATCH_V3("RayHelp", RayHelp.x, RayHelp.y, RayHelp.z), WATCH_F("b", b), WATCH_F("c", c));
    float det = b * b - 4.0f * a * c;
    LISTING_STEP(self->trace, det < 0.0f ? STEP_ID("det-negative") : STEP_ID("det"), WATCH_F("det", det),
                 WATCH_F("a", a), WATCH_F("b", b), WATCH_F("c", c));
    if (det < 0.0f)
        return false;
    det = FastSqrtExact(det);
    a *= 2.0f;
    a = 1.0f / a;
    float s1 = (-b + det) * a;
    float s2 = (-b - det) * a;
    LISTING_STEP(self->trace, STEP_ID("roots"), WATCH_F("det", det), WATCH_F("a", a), WATCH_F("s1", s1),
                 WATCH_F("s2", s2));
    if (s1 < s2)
        *pIntersectionParam = s1;
    else
        *pIntersectionParam = s2;
    LISTING_STEP(self->trace, min_id(s1, s2), WATCH_F("s1", s1), WATCH_F("s2", s2),
                 WATCH_F("*pIntersectionParam", *pIntersectionParam));
    return true;
}

// The game: the beam is A + l * Dir (Dir of length 1, so l is
// the beam's length); it ends at the shield with the smallest l.
int FirePhaser(Phaser *self, D3DXVECTOR3 A, D3DXVECTOR3 Dir,
    float *pBeamLength)
{
    int hitShield = -1;
    for (int i = 0; i < self->ShieldCount; i++) {
        const PhaserShield *s = &self->Shields[i];
        LISTING_STEP(self->trace, s->IsSphere ? STEP_ID("shield") : STEP_ID("shield-ellipsoid"), WATCH_I("i", i),
                     WATCH_V3("s->Position", s->Position.x, s->Position.y, s->Position.z),
                     WATCH_V3("s->ScaleSq", s->ScaleSq.x, s->ScaleSq.y, s->ScaleSq.z));
        float l = 0.0f;
        bool hit = s->IsSphere
            ? Sphere_Ray_Intersections(self, &l, &Dir, &A,
                  &s->Position, &s->ScaleSq.x)
            : Ellipsoid_Ray_Intersections(self, &l, &Dir, &A,
                  &s->Position, &s->ScaleSq);
        LISTING_STEP(self->trace,
                     !hit ? STEP_ID("returned-miss")
                     : hitShield >= 0 && !(l < *pBeamLength) ? STEP_ID("returned-farther") : STEP_ID("returned-hit"),
                     WATCH_I("i", i), WATCH_B("hit", hit), WATCH_F("l", l));
        if (hit && (hitShield < 0 || l < *pBeamLength)) {
            hitShield = i;
            *pBeamLength = l;
            LISTING_STEP(self->trace, STEP_ID("kept"), WATCH_I("hitShield", hitShield),
                         WATCH_F("*pBeamLength", *pBeamLength));
        }
    }
    // hitShield -1: no shield is hit, the beam flies on.
    LISTING_STEP(self->trace,
                 hitShield < 0 ? STEP_ID("result-none")
                 : *pBeamLength < 0.0f ? STEP_ID("result-behind") : STEP_ID("result"),
                 WATCH_I("hitShield", hitShield), WATCH_F("*pBeamLength", *pBeamLength));
    return hitShield;
}
/* LISTING END */

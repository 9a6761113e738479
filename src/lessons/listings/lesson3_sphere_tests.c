/*
 * lesson3_sphere_tests.c: the German bounding-sphere test tutorial and the
 * Android games book's sphere tests, ported to C under their own names
 * (lesson3_sphere_tests.h). The part between the markers is what the code
 * panel shows, numbered from 1 (docs/lessons/lesson3-bounding-sphere-tests.md
 * prints it); the LISTING_ lines in it are the lesson's instrumentation,
 * hidden there (src/lessons/listing.h).
 */
#include "lesson3_sphere_tests.h"

#define STEP_ID(name) "lesson.bounding-sphere-tests.step." name

/* ---- what the articles take from D3DX and from the book's Vector3 ---- */

static D3DXVECTOR3 Sub(D3DXVECTOR3 a, D3DXVECTOR3 b)
{
    return (D3DXVECTOR3){a.x - b.x, a.y - b.y, a.z - b.z};
}

static float D3DXVec3LengthSq(const D3DXVECTOR3 *v)
{
    return v->x * v->x + v->y * v->y + v->z * v->z;
}

/* Vector3.distSquared(other) */
static float distSquared(const Vector3 *a, const Vector3 *b)
{
    float dx = a->x - b->x, dy = a->y - b->y, dz = a->z - b->z;
    return dx * dx + dy * dy + dz * dz;
}

/* LISTING BEGIN */
// The German tutorial. A projectile is a point: a hit is
// possible while the squared distance is below the squared
// radius (squares: no square root to take).
bool Check_SphereHit(listing_trace *trace,
                     D3DXVECTOR3 *pSpherePosition,
                     float SphereSquareRadius,
                     D3DXVECTOR3 *pHitPosition)
{
    D3DXVECTOR3 DistanceVector =
        Sub(*pSpherePosition, *pHitPosition);
    LISTING_STEP(trace, STEP_ID("hit-distance"),
                 WATCH_V3("DistanceVector", DistanceVector.x, DistanceVector.y, DistanceVector.z),
                 WATCH_F("D3DXVec3LengthSq(&DistanceVector)", D3DXVec3LengthSq(&DistanceVector)));
    if (D3DXVec3LengthSq(&DistanceVector) < SphereSquareRadius) {
        LISTING_STEP(trace, STEP_ID("hit-possible"),
                     WATCH_F("D3DXVec3LengthSq(&DistanceVector)", D3DXVec3LengthSq(&DistanceVector)),
                     WATCH_F("SphereSquareRadius", SphereSquareRadius));
        return true;
    } else {
        LISTING_STEP(trace, STEP_ID("hit-no"),
                     WATCH_F("D3DXVec3LengthSq(&DistanceVector)", D3DXVec3LengthSq(&DistanceVector)),
                     WATCH_F("SphereSquareRadius", SphereSquareRadius));
        return false;
    }
}

// Two spheres collide when Abstand^2 < r1^2 + r2^2 + 2 r1 r2
// (the exact test has <=). The tutorial drops the mixed term
// 2 r1 r2 and gives the spheres more generous radii instead.
bool Sphere_Sphere_Collision(listing_trace *trace,
                             D3DXVECTOR3 *pSpherePosition1,
                             float SphereSquareRadius1,
                             D3DXVECTOR3 *pSpherePosition2,
                             float SphereSquareRadius2)
{
    D3DXVECTOR3 DistanceVector =
        Sub(*pSpherePosition1, *pSpherePosition2);
    LISTING_STEP(trace, STEP_ID("ssc-distance"),
                 WATCH_V3("DistanceVector", DistanceVector.x, DistanceVector.y, DistanceVector.z),
                 WATCH_F("D3DXVec3LengthSq(&DistanceVector)", D3DXVec3LengthSq(&DistanceVector)));
    if (D3DXVec3LengthSq(&DistanceVector) < SphereSquareRadius1 +
                                            SphereSquareRadius2) {
        LISTING_STEP(trace, STEP_ID("ssc-collision"),
                     WATCH_F("D3DXVec3LengthSq(&DistanceVector)", D3DXVec3LengthSq(&DistanceVector)),
                     WATCH_F("SphereSquareRadius1", SphereSquareRadius1),
                     WATCH_F("SphereSquareRadius2", SphereSquareRadius2),
                     WATCH_F("SphereSquareRadius1 + SphereSquareRadius2", SphereSquareRadius1 + SphereSquareRadius2));
        return true;
    } else {
        LISTING_STEP(trace, STEP_ID("ssc-apart"),
                     WATCH_F("D3DXVec3LengthSq(&DistanceVector)", D3DXVec3LengthSq(&DistanceVector)),
                     WATCH_F("SphereSquareRadius1", SphereSquareRadius1),
                     WATCH_F("SphereSquareRadius2", SphereSquareRadius2),
                     WATCH_F("SphereSquareRadius1 + SphereSquareRadius2", SphereSquareRadius1 + SphereSquareRadius2));
        return false;
    }
}

// The Android book's OverlapTester: the sum of the radii,
// squared, with <=: spheres that just touch overlap.
boolean overlapSpheres(listing_trace *trace, Sphere *s1, Sphere *s2)
{
    float distance = distSquared(&s1->center, &s2->center);
    LISTING_STEP(trace, STEP_ID("overlap-distance"), WATCH_F("distance", distance),
                 WATCH_F("s1.radius", s1->radius), WATCH_F("s2.radius", s2->radius));
    float radiusSum = s1->radius + s2->radius;
    LISTING_STEP(trace, distance <= radiusSum * radiusSum ? STEP_ID("overlap-yes") : STEP_ID("overlap-no"),
                 WATCH_F("distance", distance), WATCH_F("radiusSum", radiusSum),
                 WATCH_F("radiusSum * radiusSum", radiusSum * radiusSum),
                 WATCH_B("distance <= radiusSum * radiusSum", distance <= radiusSum * radiusSum));
    return distance <= radiusSum * radiusSum;
}

// ... and < for a point: on the surface is outside.
boolean pointInSphere(listing_trace *trace, Sphere *c, Vector3 *p)
{
    LISTING_STEP(trace,
                 distSquared(&c->center, p) < c->radius * c->radius ? STEP_ID("point-in") : STEP_ID("point-out"),
                 WATCH_F("c.center.distSquared(p)", distSquared(&c->center, p)),
                 WATCH_F("c.radius * c.radius", c->radius * c->radius));
    return distSquared(&c->center, p) < c->radius * c->radius;
}
/* LISTING END */

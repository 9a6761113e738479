/*
 * lesson3_sphere_tests.h: the two bounding-sphere articles lesson 3 is
 * about, as C under their own names, the code the lesson runs every frame
 * (lesson3_sphere_tests.c, shown in the code panel;
 * docs/lessons/lesson3-bounding-sphere-tests.md puts it beside them):
 *
 * - the German bounding-sphere test tutorial ("Der Bounding-Sphären-Test"):
 *   Check_SphereHit (a projectile as a point) and Sphere_Sphere_Collision
 *   with the squared radii SphereSquareRadius1, SphereSquareRadius2, its
 *   mixed term 2 r1 r2 dropped;
 * - the Android games book's OverlapTester (section 11.8.2):
 *   overlapSpheres with radiusSum (<=: touching counts) and pointInSphere
 *   (<: a point on the surface is outside).
 *
 * D3DX's D3DXVECTOR3 and the book's Vector3 and Sphere become plain
 * structs with the same fields; each function takes the lesson's step
 * recorder first (NULL: nothing recorded, as every frame runs them). The
 * articles' choices are kept: the shortcut misses contacts (it is
 * stricter, not looser), the boundary is < in three tests and <= in one.
 */
#ifndef RAYPICK_LESSON3_SPHERE_TESTS_H
#define RAYPICK_LESSON3_SPHERE_TESTS_H

#include <stdbool.h>

#include "listing.h"

typedef bool boolean;   /* the book's Java */

typedef struct D3DXVECTOR3 { float x, y, z; } D3DXVECTOR3;
typedef struct Vector3 { float x, y, z; } Vector3;
typedef struct Sphere { Vector3 center; float radius; } Sphere;

/* the German tutorial */
bool Check_SphereHit(listing_trace *trace, D3DXVECTOR3 *pSpherePosition, float SphereSquareRadius,
                     D3DXVECTOR3 *pHitPosition);
bool Sphere_Sphere_Collision(listing_trace *trace, D3DXVECTOR3 *pSpherePosition1, float SphereSquareRadius1,
                             D3DXVECTOR3 *pSpherePosition2, float SphereSquareRadius2);
/* the Android book's OverlapTester */
boolean overlapSpheres(listing_trace *trace, Sphere *s1, Sphere *s2);
boolean pointInSphere(listing_trace *trace, Sphere *c, Vector3 *p);

/* The shown text (made at build time by listing2c.py). */
extern const listing listing_lesson3_sphere_tests;

#endif /* RAYPICK_LESSON3_SPHERE_TESTS_H */

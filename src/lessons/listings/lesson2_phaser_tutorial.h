/*
 * lesson2_phaser_tutorial.h: the German phaser/shield tutorial's beam test
 * (Sphere_Ray_Intersections and its ellipsoid version) as C under the
 * tutorial's own names, and the game loop the tutorial describes (every
 * shield tested, the smallest beam length l kept): the code lesson 2 runs
 * in its tutorial mode (lesson2_phaser_tutorial.c, shown in the code
 * panel; docs/lessons/lesson2-phaser-shields.md puts it beside the
 * tutorial).
 *
 * D3DXVECTOR3 becomes a plain struct with the same fields; the game's
 * shields and the trace the steps go to are a Phaser passed as `self`.
 * The tutorial's mistakes are kept: the smaller root s2 is returned
 * whatever its sign (a shield behind the gun, a gun inside its shield:
 * l < 0, a point behind the gun), and the ellipsoid has no orientation
 * (a turned shield is tested as if it were not turned).
 */
#ifndef RAYPICK_LESSON2_PHASER_TUTORIAL_H
#define RAYPICK_LESSON2_PHASER_TUTORIAL_H

#include <stdbool.h>

#include "listing.h"

typedef struct D3DXVECTOR3 { float x, y, z; } D3DXVECTOR3;

/* A shield as the tutorial's functions take it: its centre and its
   squared radius (a sphere: ScaleSq.x) or squared semi-axes along x, y,
   z (an ellipsoid). No orientation: the tutorial has none. */
typedef struct PhaserShield {
    D3DXVECTOR3 Position;
    D3DXVECTOR3 ScaleSq;
    bool IsSphere;
} PhaserShield;

typedef struct Phaser {
    const PhaserShield *Shields;
    int ShieldCount;
    listing_trace *trace;           /* where the steps go (never NULL) */
} Phaser;

/* The tutorial's square root (FastSqrtExact): sqrtf here. */
float FastSqrtExact(float x);

/* The tutorial's sphere test: the beam *pRayStartPosition + l
   *pRayDirection against the sphere around *pSpherePosition with squared
   radius *pSphereScaleSq. false when det < 0; else true with
   *pIntersectionParam = the smaller root, whatever its sign. */
bool Sphere_Ray_Intersections(Phaser *self, float *pIntersectionParam, const D3DXVECTOR3 *pRayDirection,
                              const D3DXVECTOR3 *pRayStartPosition, const D3DXVECTOR3 *pSpherePosition,
                              const float *pSphereScaleSq);
/* Its ellipsoid version (the tutorial overloads one name; C needs two):
   semi-axes along x, y, z with squares *pEllipsoidScaleSq. */
bool Ellipsoid_Ray_Intersections(Phaser *self, float *pIntersectionParam, const D3DXVECTOR3 *pRayDirection,
                                 const D3DXVECTOR3 *pRayStartPosition, const D3DXVECTOR3 *pEllipsoidPosition,
                                 const D3DXVECTOR3 *pEllipsoidScaleSq);
/* The game on a shot from A along Dir: every shield tested, the one with
   the smallest l kept; its index (-1: none) and *pBeamLength = its l. */
int FirePhaser(Phaser *self, D3DXVECTOR3 A, D3DXVECTOR3 Dir, float *pBeamLength);

/* The shown text (made at build time by listing2c.py). */
extern const listing listing_lesson2_phaser_tutorial;

#endif /* RAYPICK_LESSON2_PHASER_TUTORIAL_H */

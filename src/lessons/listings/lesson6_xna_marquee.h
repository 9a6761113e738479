/*
 * lesson6_xna_marquee.h: marquee (box) selection as an XNA 4 / MonoGame
 * game writes it, ported to C under XNA's names: the dragged rectangle's
 * corners through Viewport.Unproject at depth 0 and 1, the six planes
 * through them (new Plane(a, b, c)), a BoundingFrustum of those planes, and
 * each unit's BoundingSphere against it (BoundingFrustum.Contains, giving
 * a ContainmentType, then BoundingFrustum.Intersects where the planes
 * alone cannot tell). Lesson 6 follows no tutorial of its own: this is
 * the method an XNA or MonoGame porter knows, written for the lesson
 * (lesson6_xna_marquee.c, shown in the code panel; docs/lessons/
 * lesson6-hover-drag-select.md prints it).
 *
 * XNA's structs become plain structs with the same field names (Vector3's
 * X Y Z, Plane's Normal and D, BoundingSphere's Center and Radius), the
 * game's fields (the viewport, the camera's matrices, the units, the
 * layers the player may select) a Selection passed as `self`. The lesson
 * runs it on every rectangle it selects with and checks that it selects
 * what the library's rp_scene_query_frustum selects
 * (tests/test_lesson6_listing.c).
 */
#ifndef RAYPICK_LESSON6_XNA_MARQUEE_H
#define RAYPICK_LESSON6_XNA_MARQUEE_H

#include <stdint.h>
#include <raypick/raypick.h>

#include "listing.h"

typedef struct Vector2 { float X, Y; } Vector2;
typedef struct Vector3 { float X, Y, Z; } Vector3;
/* XNA's Rectangle holds ints; the mouse here gives float pixels
   (MonoGame.Extended's RectangleF): the same fields. */
typedef struct Rectangle { float X, Y, Width, Height; } Rectangle;
/* The points p with Dot(Normal, p) + D == 0; XNA's frustum planes face
   outwards: DotCoordinate > 0 is outside. */
typedef struct Plane { Vector3 Normal; float D; } Plane;
typedef struct BoundingSphere { Vector3 Center; float Radius; } BoundingSphere;
/* XNA builds a BoundingFrustum from a matrix only; the rectangle's is
   built from its planes, with the same properties (and its corners,
   GetCorners()'s order: near top left, top right, bottom right, bottom
   left, then the same on the far plane). */
typedef struct BoundingFrustum {
    Plane Near, Far, Left, Right, Top, Bottom;
    Vector3 Corners[8];
} BoundingFrustum;
/* XNA's values */
typedef enum ContainmentType {
    ContainmentType_Disjoint = 0,
    ContainmentType_Contains = 1,
    ContainmentType_Intersects = 2
} ContainmentType;

typedef struct Unit {
    BoundingSphere BoundingSphere;
    uint32_t Layer;                 /* one bit: the lesson's layers */
} Unit;

typedef struct Selection {
    rp_viewport viewport;           /* GraphicsDevice.Viewport (its Bounds: x, y, width, height) */
    mat4 projection, view;          /* camera.Projection, camera.View (RP_GL) */
    const Unit *units;
    int unitCount;
    uint32_t selectableLayers;      /* the layers the player may select now (the lesson's L) */
    bool *selected;                 /* [unitCount]: the answer */
    listing_trace *trace;           /* where the steps go (never NULL) */
} Selection;

/* The most steps one SelectUnits records for n units: the rectangle, the
   corners, the planes, then per unit six planes, the exact test and the
   verdict. */
#define MARQUEE_STEPS(n) (8 + 9 * (n))

/* XNA's Plane(point1, point2, point3): Normal = Normalize(Cross(point2 -
   point1, point3 - point1)), D = -Dot(Normal, point1). */
Plane NewPlane(Vector3 point1, Vector3 point2, Vector3 point3);
/* Plane.DotCoordinate: the signed distance of a point (unit Normal). */
float DotCoordinate(Plane plane, Vector3 value);

Rectangle GetSelectionRectangle(Selection *self, Vector2 pressed, Vector2 released);
BoundingFrustum GetSelectionFrustum(Selection *self, Rectangle rect);
/* BoundingFrustum.Contains(BoundingSphere): plane by plane. */
ContainmentType Contains(Selection *self, const BoundingFrustum *frustum, BoundingSphere sphere);
/* BoundingFrustum.Intersects(BoundingSphere), exact: the sphere and the
   frustum share a point (the library's rp_test_frustum_sphere_exact on
   this frustum). */
bool Intersects(const BoundingFrustum *frustum, BoundingSphere sphere);
/* The game on the button's release: sets self->selected[i] for every
   unit, returns how many are selected. */
int SelectUnits(Selection *self, Vector2 pressed, Vector2 released);

/* The shown text (made at build time by listing2c.py). */
extern const listing listing_lesson6_xna_marquee;

#endif /* RAYPICK_LESSON6_XNA_MARQUEE_H */

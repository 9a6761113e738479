/*
 * lesson4_xna_recipe.h: the XNA recipe's terrain pick (GetPointerRay,
 * ClipRay, LinearSearch, BinarySearch) as C under the recipe's own names,
 * the code lesson 4 runs in search mode (lesson4_xna_recipe.c, shown in
 * the code panel; docs/lessons/lesson4-terrain-picking.md puts it beside
 * the recipe).
 *
 * XNA's types become plain structs with the same field names (Vector3's
 * X Y Z, Ray's Position and Direction), the recipe's class fields (the
 * terrain, the device's viewport, the camera's matrices) a Recipe passed
 * as `self`. The recipe's mistakes are kept: ClipRay divides by
 * Direction.Y, and a ray that misses the terrain never ends either loop;
 * the lesson stops them (linearBound, binaryBound) and says so.
 */
#ifndef RAYPICK_LESSON4_XNA_RECIPE_H
#define RAYPICK_LESSON4_XNA_RECIPE_H

#include <raypick/raypick.h>

#include "listing.h"

typedef struct Vector2 { float X, Y; } Vector2;
typedef struct Vector3 { float X, Y, Z; } Vector3;
typedef struct Ray { Vector3 Position, Direction; } Ray;

typedef struct Recipe {
    const rp_heightmap *terrain;    /* terrain.GetExactHeightAt */
    rp_viewport viewport;           /* device.Viewport */
    mat4 projection, view;          /* moveCam.ProjectionMatrix, moveCam.ViewMatrix (RP_GL) */
    float highest, lowest;          /* the terrain's height band (the book's terrain: 30 and 0) */
    int linearSteps;                /* the recipe's code: 300; its text: at least 30; 1: BinarySearch alone */
    int linearBound, binaryBound;   /* the lesson's: most turns of each loop */
    listing_trace *trace;           /* where the steps go (never NULL) */
} Recipe;

/* The bounds the lesson sets: LinearSearch's loop twice the way from A to
   B, BinarySearch's 48 halvings (after about 24 a float point no longer
   moves: the recipe's loop would spin for ever). */
#define RECIPE_LINEAR_BOUND(steps) (2 * (steps))
#define RECIPE_BINARY_BOUND 48

/* The surface height at (x, z); -infinity off the map, where there is no
   ground (every point there is "above" it). The recipe's terrain runs
   along -z and it passes -z; this map runs along +z. */
float GetExactHeightAt(const rp_heightmap *terrain, float x, float z);

Ray GetPointerRay(Recipe *self, Vector2 pointerPosition);
Ray ClipRay(Recipe *self, Ray ray, float highest, float lowest);
Ray LinearSearch(Recipe *self, Ray ray);
Vector3 BinarySearch(Recipe *self, Ray ray);
/* The recipe's game on a click: the point under the pointer. When a bound
   stopped a loop (self->trace->stopped) the point is where it stopped:
   no answer. */
Vector3 UpdatePointerPos(Recipe *self, Vector2 pointerPosition);

/* The shown text (made at build time by listing2c.py). */
extern const listing listing_lesson4_xna_recipe;

#endif /* RAYPICK_LESSON4_XNA_RECIPE_H */

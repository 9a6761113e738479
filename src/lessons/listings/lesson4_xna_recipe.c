/*
 * lesson4_xna_recipe.c: the XNA recipe's terrain pick, ported to C under
 * its own names (lesson4_xna_recipe.h). The part between the markers is
 * what the code panel shows, numbered from 1 (docs/lessons/
 * lesson4-terrain-picking.md prints it); the LISTING_ lines in it are the
 * lesson's instrumentation, hidden there (src/lessons/listing.h).
 */
#include "lesson4_xna_recipe.h"

#include <math.h>

#define STEP_ID(name) "lesson.terrain-picking.step." name

static Vector3 Add(Vector3 a, Vector3 b) { return (Vector3){a.X + b.X, a.Y + b.Y, a.Z + b.Z}; }
static Vector3 Sub(Vector3 a, Vector3 b) { return (Vector3){a.X - b.X, a.Y - b.Y, a.Z - b.Z}; }
static Vector3 Mul(Vector3 v, float s) { return (Vector3){v.X * s, v.Y * s, v.Z * s}; }
static Vector3 Div(Vector3 v, float s) { return (Vector3){v.X / s, v.Y / s, v.Z / s}; }

/* device.Viewport.Unproject with the identity world matrix; a matrix that
   cannot be inverted gives NaN (the recipe has no failure path: the lesson
   finds the NaN in the result). */
static Vector3 Unproject(const rp_viewport *viewport, Vector3 source, mat4 projection, mat4 view)
{
    vec3 out;
    if (!rp_unproject_point(source.X, source.Y, source.Z, viewport, projection, view, RP_GL, out))
        return (Vector3){NAN, NAN, NAN};
    return (Vector3){out[0], out[1], out[2]};
}

float GetExactHeightAt(const rp_heightmap *terrain, float x, float z)
{
    float y;
    return rp_heightmap_height_at(terrain, x, z, &y) ? y : -INFINITY;
}

/* LISTING BEGIN */
// The pointer's ray: near plane (depth 0) to far plane (depth 1).
// Not normalised: Position + 1 * Direction is the far point.
Ray GetPointerRay(Recipe *self, Vector2 pointerPosition)
{
    Vector3 nearScreenPoint = {pointerPosition.X, pointerPosition.Y, 0};
    Vector3 farScreenPoint = {pointerPosition.X, pointerPosition.Y, 1};
    Vector3 near3DWorldPoint = Unproject(&self->viewport,
        nearScreenPoint, self->projection, self->view);
    Vector3 far3DWorldPoint = Unproject(&self->viewport,
        farScreenPoint, self->projection, self->view);
    LISTING_STEP(self->trace, STEP_ID("unproject"),
                 WATCH_V3("pointerPosition", pointerPosition.X, pointerPosition.Y, 0),
                 WATCH_V3("near3DWorldPoint", near3DWorldPoint.X, near3DWorldPoint.Y, near3DWorldPoint.Z),
                 WATCH_V3("far3DWorldPoint", far3DWorldPoint.X, far3DWorldPoint.Y, far3DWorldPoint.Z));
    Vector3 pointerRayDirection =
        Sub(far3DWorldPoint, near3DWorldPoint);
    Ray pointerRay = {near3DWorldPoint, pointerRayDirection};
    LISTING_STEP(self->trace, STEP_ID("pointer-ray"),
                 WATCH_V3("pointerRay.Position", pointerRay.Position.X, pointerRay.Position.Y,
                          pointerRay.Position.Z),
                 WATCH_V3("pointerRay.Direction", pointerRay.Direction.X, pointerRay.Direction.Y,
                          pointerRay.Direction.Z));
    return pointerRay;
}

// A: the ray's point at y = highest; B: its point at y = lowest.
Ray ClipRay(Recipe *self, Ray ray, float highest, float lowest)
{
    Vector3 oldStartPoint = ray.Position;
    float factorH = -(oldStartPoint.Y - highest) / ray.Direction.Y;
    Vector3 pointA = Add(oldStartPoint, Mul(ray.Direction, factorH));
    float factorL = -(oldStartPoint.Y - lowest) / ray.Direction.Y;
    Vector3 pointB = Add(oldStartPoint, Mul(ray.Direction, factorL));
    Vector3 newDirection = Sub(pointB, pointA);
    LISTING_STEP(self->trace,
                 !(ray.Direction.Y < 0.0f || ray.Direction.Y > 0.0f) ? STEP_ID("clip-level")
                 : ray.Direction.Y > 0.0f ? STEP_ID("clip-up") : STEP_ID("clip"),
                 WATCH_F("ray.Direction.Y", ray.Direction.Y), WATCH_F("factorH", factorH),
                 WATCH_V3("pointA", pointA.X, pointA.Y, pointA.Z), WATCH_F("factorL", factorL),
                 WATCH_V3("pointB", pointB.X, pointB.Y, pointB.Z));
    return (Ray){pointA, newDirection};
}

// Equal steps from A until the next point is below the ground.
Ray LinearSearch(Recipe *self, Ray ray)
{
    ray.Direction = Div(ray.Direction, self->linearSteps);
    LISTING_STEP(self->trace, STEP_ID("linear-divide"), WATCH_I("linearSteps", self->linearSteps),
                 WATCH_V3("ray.Direction", ray.Direction.X, ray.Direction.Y, ray.Direction.Z));
    Vector3 nextPoint = Add(ray.Position, ray.Direction);
    float heightAtNextPoint =
        GetExactHeightAt(self->terrain, nextPoint.X, nextPoint.Z);
    LISTING_LOOP(turns);
    while (heightAtNextPoint < nextPoint.Y) {
        LISTING_BOUND(self->trace, turns, self->linearBound, STEP_ID("linear-bound"));
        LISTING_STEP(self->trace, turns > self->linearSteps ? STEP_ID("linear-past-b") : STEP_ID("linear"),
                     WATCH_I("turn", turns), WATCH_V3("nextPoint", nextPoint.X, nextPoint.Y, nextPoint.Z),
                     WATCH_F("heightAtNextPoint", heightAtNextPoint));
        ray.Position = nextPoint;
        nextPoint = Add(ray.Position, ray.Direction);
        heightAtNextPoint =
            GetExactHeightAt(self->terrain, nextPoint.X, nextPoint.Z);
    }
    return ray;
}

// Halve the step; move on only while the next point is above.
Vector3 BinarySearch(Recipe *self, Ray ray)
{
    float accuracy = 0.01f;
    float heightAtStartingPoint =
        GetExactHeightAt(self->terrain, ray.Position.X, ray.Position.Z);
    float currentError = ray.Position.Y - heightAtStartingPoint;
    LISTING_STEP(self->trace, STEP_ID("binary-start"),
                 WATCH_V3("ray.Position", ray.Position.X, ray.Position.Y, ray.Position.Z),
                 WATCH_F("heightAtStartingPoint", heightAtStartingPoint),
                 WATCH_F("currentError", currentError), WATCH_F("accuracy", accuracy));
    LISTING_LOOP(turns);
    while (currentError > accuracy) {
        LISTING_BOUND(self->trace, turns, self->binaryBound, STEP_ID("binary-bound"));
        ray.Direction = Div(ray.Direction, 2.0f);
        Vector3 nextPoint = Add(ray.Position, ray.Direction);
        float heightAtNextPoint =
            GetExactHeightAt(self->terrain, nextPoint.X, nextPoint.Z);
        LISTING_STEP(self->trace,
                     nextPoint.Y > heightAtNextPoint ? STEP_ID("binary-above") : STEP_ID("binary-below"),
                     WATCH_I("turn", turns),
                     WATCH_V3("ray.Direction", ray.Direction.X, ray.Direction.Y, ray.Direction.Z),
                     WATCH_V3("nextPoint", nextPoint.X, nextPoint.Y, nextPoint.Z),
                     WATCH_F("heightAtNextPoint", heightAtNextPoint), WATCH_F("currentError", currentError));
        if (nextPoint.Y > heightAtNextPoint) {
            ray.Position = nextPoint;
            currentError = ray.Position.Y - heightAtNextPoint;
            LISTING_STEP(self->trace, STEP_ID("binary-error"), WATCH_I("turn", turns),
                         WATCH_V3("ray.Position", ray.Position.X, ray.Position.Y, ray.Position.Z),
                         WATCH_F("currentError", currentError), WATCH_F("accuracy", accuracy));
        }
    }
    return ray.Position;
}

// The recipe's game on a click. linearSteps 1: BinarySearch
// alone, the recipe's first version.
Vector3 UpdatePointerPos(Recipe *self, Vector2 pointerPosition)
{
    Ray pointerRay = GetPointerRay(self, pointerPosition);
    Ray clippedRay =
        ClipRay(self, pointerRay, self->highest, self->lowest);
    Ray shorterRay = clippedRay;
    if (self->linearSteps > 1)
        shorterRay = LinearSearch(self, clippedRay);
    LISTING_RETURN_IF_STOPPED(self->trace, shorterRay.Position);
    LISTING_STEP(self->trace, STEP_ID("shorter-ray"),
                 WATCH_V3("shorterRay.Position", shorterRay.Position.X, shorterRay.Position.Y,
                          shorterRay.Position.Z),
                 WATCH_V3("shorterRay.Direction", shorterRay.Direction.X, shorterRay.Direction.Y,
                          shorterRay.Direction.Z));
    Vector3 pointerPos = BinarySearch(self, shorterRay);
    LISTING_RETURN_IF_STOPPED(self->trace, pointerPos);
    LISTING_STEP(self->trace, STEP_ID("found"),
                 WATCH_V3("pointerPos", pointerPos.X, pointerPos.Y, pointerPos.Z),
                 WATCH_F("GetExactHeightAt", GetExactHeightAt(self->terrain, pointerPos.X, pointerPos.Z)));
    return pointerPos;
}
/* LISTING END */

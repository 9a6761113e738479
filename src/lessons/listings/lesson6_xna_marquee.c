/*
 * lesson6_xna_marquee.c: marquee selection as an XNA 4 / MonoGame game
 * writes it, ported to C under XNA's names (lesson6_xna_marquee.h). The
 * part between the markers is what the code panel shows, numbered from 1
 * (docs/lessons/lesson6-hover-drag-select.md prints it); the LISTING_
 * lines in it are the lesson's instrumentation, hidden there
 * (src/lessons/listing.h).
 */
#include "lesson6_xna_marquee.h"

#include <math.h>

#define STEP_ID(name) "lesson.hover-drag-select.step." name

static Vector3 Subtract(Vector3 a, Vector3 b) { return (Vector3){a.X - b.X, a.Y - b.Y, a.Z - b.Z}; }
static float Dot(Vector3 a, Vector3 b) { return a.X * b.X + a.Y * b.Y + a.Z * b.Z; }
static Vector3 Cross(Vector3 a, Vector3 b)
{
    return (Vector3){a.Y * b.Z - a.Z * b.Y, a.Z * b.X - a.X * b.Z, a.X * b.Y - a.Y * b.X};
}

Plane NewPlane(Vector3 point1, Vector3 point2, Vector3 point3)
{
    Vector3 n = Cross(Subtract(point2, point1), Subtract(point3, point1));
    float length = sqrtf(Dot(n, n));
    n = (Vector3){n.X / length, n.Y / length, n.Z / length};
    return (Plane){n, -Dot(n, point1)};
}

float DotCoordinate(Plane plane, Vector3 value)
{
    return Dot(plane.Normal, value) + plane.D;
}

/* Rectangle.Intersect: the overlap, or an empty rectangle */
static Rectangle Intersect(Rectangle a, Rectangle b)
{
    float left = fmaxf(a.X, b.X), right = fminf(a.X + a.Width, b.X + b.Width);
    float top = fmaxf(a.Y, b.Y), bottom = fminf(a.Y + a.Height, b.Y + b.Height);
    if (!(right > left && bottom > top))
        return (Rectangle){0.0f, 0.0f, 0.0f, 0.0f};
    return (Rectangle){left, top, right - left, bottom - top};
}

/* viewport.Unproject(new Vector3(x, y, depth), projection, view,
   Matrix.Identity); a matrix that cannot be inverted gives NaN (XNA has
   no failure path either) */
static Vector3 Unproject(Selection *self, float x, float y, float depth)
{
    vec3 out;
    if (!rp_unproject_point(x, y, depth, &self->viewport, self->projection, self->view, RP_GL, out))
        return (Vector3){NAN, NAN, NAN};
    return (Vector3){out[0], out[1], out[2]};
}

/* The library's frustum for the same planes and corners: its planes face
   inwards (XNA's outwards), its corners are numbered by bits (right 1,
   top 2, far 4). */
static rp_frustum to_rp_frustum(const BoundingFrustum *f)
{
    rp_frustum out;
    const Plane *planes[6] = {&f->Left, &f->Right, &f->Bottom, &f->Top, &f->Near, &f->Far};
    for (int i = 0; i < 6; ++i) {
        out.planes[i].normal[0] = -planes[i]->Normal.X;
        out.planes[i].normal[1] = -planes[i]->Normal.Y;
        out.planes[i].normal[2] = -planes[i]->Normal.Z;
        out.planes[i].d = -planes[i]->D;
    }
    /* GetCorners order: near TL, TR, BR, BL, then far */
    static const int bits[8] = {2, 3, 1, 0, 6, 7, 5, 4};
    for (int i = 0; i < 8; ++i) {
        out.corners[bits[i]][0] = f->Corners[i].X;
        out.corners[bits[i]][1] = f->Corners[i].Y;
        out.corners[bits[i]][2] = f->Corners[i].Z;
    }
    return out;
}

bool Intersects(const BoundingFrustum *frustum, BoundingSphere sphere)
{
    rp_frustum f = to_rp_frustum(frustum);
    rp_sphere s = {{sphere.Center.X, sphere.Center.Y, sphere.Center.Z}, sphere.Radius};
    return rp_test_frustum_sphere_exact(&f, &s);
}

/* LISTING BEGIN */
// The dragged rectangle, any corner order, clipped to the
// viewport (a rectangle dragged past the window's edge).
Rectangle GetSelectionRectangle(Selection *self, Vector2 pressed,
                                Vector2 released)
{
    Rectangle rect = {fminf(pressed.X, released.X),
                      fminf(pressed.Y, released.Y),
                      fabsf(released.X - pressed.X),
                      fabsf(released.Y - pressed.Y)};
    Rectangle bounds = {self->viewport.x, self->viewport.y,
                        self->viewport.width, self->viewport.height};
    rect = Intersect(rect, bounds);
    LISTING_STEP(self->trace, STEP_ID("rectangle"), WATCH_V3("pressed", pressed.X, pressed.Y, 0),
                 WATCH_V3("released", released.X, released.Y, 0), WATCH_F("rect.X", rect.X),
                 WATCH_F("rect.Y", rect.Y), WATCH_F("rect.Width", rect.Width),
                 WATCH_F("rect.Height", rect.Height));
    return rect;
}

// Each corner of the rectangle, unprojected at depth 0 (on the
// near plane) and at depth 1 (on the far plane): eight points.
// NewPlane(a, b, c) is XNA's new Plane(a, b, c): Normal =
// Normalize(Cross(b - a, c - a)), D = -Dot(Normal, a); the points
// go counter-clockwise seen from outside, so Normal points out.
BoundingFrustum GetSelectionFrustum(Selection *self, Rectangle rect)
{
    float left = rect.X, right = rect.X + rect.Width;
    float top = rect.Y, bottom = rect.Y + rect.Height;
    Vector3 nearTopLeft = Unproject(self, left, top, 0);
    Vector3 nearTopRight = Unproject(self, right, top, 0);
    Vector3 nearBottomRight = Unproject(self, right, bottom, 0);
    Vector3 nearBottomLeft = Unproject(self, left, bottom, 0);
    LISTING_STEP(self->trace, STEP_ID("near-corners"),
                 WATCH_V3("nearTopLeft", nearTopLeft.X, nearTopLeft.Y, nearTopLeft.Z),
                 WATCH_V3("nearTopRight", nearTopRight.X, nearTopRight.Y, nearTopRight.Z),
                 WATCH_V3("nearBottomRight", nearBottomRight.X, nearBottomRight.Y, nearBottomRight.Z),
                 WATCH_V3("nearBottomLeft", nearBottomLeft.X, nearBottomLeft.Y, nearBottomLeft.Z));
    Vector3 farTopLeft = Unproject(self, left, top, 1);
    Vector3 farTopRight = Unproject(self, right, top, 1);
    Vector3 farBottomRight = Unproject(self, right, bottom, 1);
    Vector3 farBottomLeft = Unproject(self, left, bottom, 1);
    LISTING_STEP(self->trace, STEP_ID("far-corners"),
                 WATCH_V3("farTopLeft", farTopLeft.X, farTopLeft.Y, farTopLeft.Z),
                 WATCH_V3("farTopRight", farTopRight.X, farTopRight.Y, farTopRight.Z),
                 WATCH_V3("farBottomRight", farBottomRight.X, farBottomRight.Y, farBottomRight.Z),
                 WATCH_V3("farBottomLeft", farBottomLeft.X, farBottomLeft.Y, farBottomLeft.Z));
    BoundingFrustum frustum = {.Corners = {nearTopLeft, nearTopRight,
        nearBottomRight, nearBottomLeft, farTopLeft, farTopRight,
        farBottomRight, farBottomLeft}};
    frustum.Near = NewPlane(nearTopLeft, nearBottomLeft,
                            nearBottomRight);
    frustum.Far = NewPlane(farTopLeft, farTopRight, farBottomRight);
    frustum.Left = NewPlane(nearTopLeft, farTopLeft, farBottomLeft);
    frustum.Right = NewPlane(nearTopRight, farBottomRight,
                             farTopRight);
    frustum.Top = NewPlane(nearTopLeft, nearTopRight, farTopRight);
    frustum.Bottom = NewPlane(nearBottomLeft, farBottomLeft,
                              farBottomRight);
    LISTING_STEP(self->trace, STEP_ID("planes"),
                 WATCH_V3("frustum.Left.Normal", frustum.Left.Normal.X, frustum.Left.Normal.Y,
                          frustum.Left.Normal.Z),
                 WATCH_V3("frustum.Right.Normal", frustum.Right.Normal.X, frustum.Right.Normal.Y,
                          frustum.Right.Normal.Z),
                 WATCH_V3("frustum.Top.Normal", frustum.Top.Normal.X, frustum.Top.Normal.Y, frustum.Top.Normal.Z),
                 WATCH_V3("frustum.Bottom.Normal", frustum.Bottom.Normal.X, frustum.Bottom.Normal.Y,
                          frustum.Bottom.Normal.Z),
                 WATCH_V3("frustum.Near.Normal", frustum.Near.Normal.X, frustum.Near.Normal.Y,
                          frustum.Near.Normal.Z),
                 WATCH_F("frustum.Near.D", frustum.Near.D));
    return frustum;
}

// BoundingFrustum.Contains(BoundingSphere), plane by plane:
// wholly outside one plane is Disjoint, wholly inside all six
// Contains, anything else Intersects. DotCoordinate: how far the
// centre is outside the plane (negative: inside).
ContainmentType Contains(Selection *self,
                         const BoundingFrustum *frustum,
                         BoundingSphere sphere)
{
    Plane planes[6] = {frustum->Near, frustum->Far, frustum->Left,
                       frustum->Right, frustum->Top, frustum->Bottom};
    int inside = 0;     // p: 0 Near 1 Far 2 Left 3 Right 4 Top 5 Bottom
    for (int p = 0; p < 6; p++) {
        float distance = DotCoordinate(planes[p], sphere.Center);
        LISTING_STEP(self->trace,
                     distance > sphere.Radius ? STEP_ID("plane-outside")
                     : distance < -sphere.Radius ? STEP_ID("plane-inside") : STEP_ID("plane-crossing"),
                     WATCH_I("p", p), WATCH_F("distance", distance), WATCH_F("sphere.Radius", sphere.Radius),
                     WATCH_I("inside", inside));
        if (distance > sphere.Radius)
            return ContainmentType_Disjoint;
        if (distance < -sphere.Radius)
            inside++;
    }
    return inside == 6 ? ContainmentType_Contains
                       : ContainmentType_Intersects;
}

// On the button's release: every unit of a selectable layer
// whose BoundingSphere the frustum contains or meets.
int SelectUnits(Selection *self, Vector2 pressed, Vector2 released)
{
    for (int i = 0; i < self->unitCount; i++)
        self->selected[i] = false;
    Rectangle rect = GetSelectionRectangle(self, pressed, released);
    if (rect.Width <= 0 || rect.Height <= 0) {
        LISTING_STEP(self->trace, STEP_ID("empty"), WATCH_F("rect.Width", rect.Width),
                     WATCH_F("rect.Height", rect.Height));
        return 0;   // a click, or nothing left inside the window
    }
    BoundingFrustum frustum = GetSelectionFrustum(self, rect);
    int count = 0;
    for (int i = 0; i < self->unitCount; i++) {
        const Unit *unit = &self->units[i];
        if ((unit->Layer & self->selectableLayers) == 0) {
            LISTING_STEP(self->trace, STEP_ID("layer"), WATCH_I("i", i), WATCH_I("unit->Layer", unit->Layer),
                         WATCH_I("self->selectableLayers", self->selectableLayers));
            continue;
        }
        ContainmentType containment =
            Contains(self, &frustum, unit->BoundingSphere);
        if (containment == ContainmentType_Intersects) {
            // Beside an edge or a corner of the frustum the planes
            // cannot tell: the exact test (XNA 4's Intersects).
            bool meets = Intersects(&frustum, unit->BoundingSphere);
            LISTING_STEP(self->trace, meets ? STEP_ID("exact-meets") : STEP_ID("exact-misses"),
                         WATCH_I("i", i), WATCH_B("meets", meets));
            if (!meets)
                containment = ContainmentType_Disjoint;
        }
        self->selected[i] = containment != ContainmentType_Disjoint;
        LISTING_STEP(self->trace,
                     containment == ContainmentType_Contains ? STEP_ID("unit-contains")
                     : containment == ContainmentType_Intersects ? STEP_ID("unit-intersects")
                                                                 : STEP_ID("unit-disjoint"),
                     WATCH_I("i", i), WATCH_I("containment", containment),
                     WATCH_B("self->selected[i]", self->selected[i]));
        count += self->selected[i];
    }
    return count;
}
/* LISTING END */

/* frustum_internal.h: the frustum in double and the box tests on it, for
   frustum.c and for walks that test many boxes against one frustum (a
   scene's BVH: validate once, then test each node); not installed. */
#ifndef RAYPICK_FRUSTUM_INTERNAL_H
#define RAYPICK_FRUSTUM_INTERNAL_H

#include <math.h>
#include <stdbool.h>

#include "raypick/frustum.h"

/* rp_frustum in double: unit inward normals, corners as rp_frustum's.
   scale is the largest |coordinate| of a corner: the exact tests' slack
   for rounding is relative to it. */
typedef struct rp_dfrustum {
    double n[6][3];
    double d[6];
    double corner[8][3];
    double scale;
} rp_dfrustum;

/* A parallelepiped: centre + a x + b y + c z for x, y, z in [-1, 1], with
   axis[0..2] = a, b, c (half-extent vectors; for a box they are
   orthogonal, for a box under an affine matrix they need not be; a zero
   axis is a flat box). */
typedef struct rp_dbox {
    double center[3];
    double axis[3][3];
} rp_dbox;

/* Where a shape lies relative to the frustum. */
typedef enum rp_frustum_side {
    RP_SIDE_OUTSIDE = 0,   /* wholly outside one plane: meets nothing */
    RP_SIDE_CROSSING = 1,  /* not decided by the planes alone */
    RP_SIDE_INSIDE = 2     /* inside every plane: wholly inside */
} rp_frustum_side;

/* false for an invalid frustum (NaN or infinity, a normal not of unit
   length within 1e-3). */
bool rp_dfrustum_from(const rp_frustum *f, rp_dfrustum *out);

/* The box against the six planes, one by one: OUTSIDE is certain,
   INSIDE is certain, CROSSING may still miss (near an edge or corner). */
rp_frustum_side rp_dfrustum_box_side(const rp_dfrustum *f, const rp_dbox *b);

/* Exact: does the box share a point with the frustum (separating axes)? */
bool rp_dfrustum_box_meets(const rp_dfrustum *f, const rp_dbox *b);

/* rp_dfrustum_box_side with a margin for a walk that trusts its answer for
   the shapes inside the box (a BVH's node): OUTSIDE only when the box is
   more than `slack` behind a plane, INSIDE only when it is at least
   `slack` inside each; CROSSING otherwise. */
rp_frustum_side rp_dfrustum_box_side_margin(const rp_dfrustum *f, const rp_dbox *b, double slack);

/* The box min..max (floats, min <= max) against the planes with a margin
   of rel times the size of the coordinates involved (the frustum's and
   the box's): rp_dfrustum_box_side_margin for an axis-aligned box, inline
   for the scene's walk, which asks it of every child box it meets. */
static inline rp_frustum_side rp_dfrustum_aabb_side(const rp_dfrustum *f, const float lo[3],
                                                    const float hi[3], double rel)
{
    double c[3], h[3], size = f->scale;
    for (int a = 0; a < 3; a++) {
        c[a] = 0.5 * lo[a] + 0.5 * hi[a];
        h[a] = 0.5 * hi[a] - 0.5 * lo[a];
        size += fabs(c[a]) + h[a];
    }
    const double slack = rel * size;
    rp_frustum_side side = RP_SIDE_INSIDE;
    for (int k = 0; k < 6; k++) {
        const double *n = f->n[k];
        const double dist = n[0] * c[0] + n[1] * c[1] + n[2] * c[2] + f->d[k];
        const double r = fabs(n[0]) * h[0] + fabs(n[1]) * h[1] + fabs(n[2]) * h[2];
        if (dist < -r - slack)
            return RP_SIDE_OUTSIDE;
        if (dist < r + slack)
            side = RP_SIDE_CROSSING;
    }
    return side;
}

/* rp_test_frustum_triangle on a validated frustum and double vertices:
   the same answer for the same values. */
bool rp_dfrustum_triangle_meets(const rp_dfrustum *f, const double v[3][3]);

/* rp_frustum_contains_point on a validated frustum: every plane's signed
   distance >= 0. */
bool rp_dfrustum_contains_point(const rp_dfrustum *f, const double p[3]);

#endif /* RAYPICK_FRUSTUM_INTERNAL_H */

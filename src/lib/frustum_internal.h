/* frustum_internal.h: the frustum in double and the box tests on it, for
   frustum.c and for walks that test many boxes against one frustum (a
   scene's BVH: validate once, then test each node); not installed. */
#ifndef RAYPICK_FRUSTUM_INTERNAL_H
#define RAYPICK_FRUSTUM_INTERNAL_H

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

#endif /* RAYPICK_FRUSTUM_INTERNAL_H */

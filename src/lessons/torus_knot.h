/*
 * torus_knot.h: lesson 5's default model, a (p, q) torus knot: a tube
 * wound p times around the z axis and q times through the hole of a torus.
 * It has what a picking test wants: a hole in the middle that a bounding
 * sphere covers (the sphere's false positive), thin waists where the tube
 * narrows to a few pixels, crossings where a ray meets the tube several
 * times (all hits), and tens of thousands of triangles. The tube is closed:
 * every edge belongs to exactly two triangles, counter-clockwise seen from
 * outside. Texture coordinates: tu runs along the knot, tv around the tube.
 */
#ifndef RAYPICK_TORUS_KNOT_H
#define RAYPICK_TORUS_KNOT_H

#include <stdbool.h>
#include "mesh_data.h"

/* Zero means the default in every field. */
typedef struct torus_knot_desc {
    int   p, q;             /* windings, coprime (default 2, 3) */
    int   segments;         /* rings along the knot (default 480) */
    int   sides;            /* vertices around the tube (default 36) */
    float ring_radius;      /* distance of the knot's core from the z axis (default 1) */
    float amplitude;        /* how far the core swings in and out (default 0.45) */
    float tube_thick;       /* tube radius at its widest (default 0.2) */
    float tube_thin;        /* ... and at its q waists (default 0.07) */
    float tu_repeat;        /* tu runs 0 .. tu_repeat along the knot (default 8) */
} torus_knot_desc;

/* (segments + 1) * (sides + 1) vertices (the seam vertices repeat the
   first ring's positions bit for bit with their own tu/tv), 2 * segments *
   sides triangles. false (out untouched) on a NULL out, segments < 3,
   sides < 3, more than 2^24 vertices, a tube radius that is not positive
   or not smaller than ring_radius - amplitude allows, or out of memory. */
bool torus_knot_build(const torus_knot_desc *desc, mesh_data *out);

#endif /* RAYPICK_TORUS_KNOT_H */

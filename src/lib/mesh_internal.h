/* mesh_internal.h: the mesh's storage; not installed. mesh.c makes and
   walks it; its BVH is built by mesh_bvh.c. */
#ifndef RAYPICK_MESH_INTERNAL_H
#define RAYPICK_MESH_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "raypick/mesh.h"
#include "mesh_bvh.h"
#include "simd.h"

struct rp_mesh {
    size_t           triangle_count;   /* as given to rp_mesh_create */
    rp_aabb          bounds;           /* of the vertices the triangles use */
    float            max_abs;          /* largest |coordinate| in bounds */
    rp_mesh_bvh      bvh;              /* over the non-degenerate triangles */
    /* simd.c's kernels, asked for once (its choice holds for the process) */
    rp_bvh_walk_fn   walk;
    rp_tri_filter_fn filter;
};

#endif /* RAYPICK_MESH_INTERNAL_H */

/*
 * raypick/scene.h: many objects (spheres, ellipsoids, boxes, mesh
 * instances) under one BVH, refitted or rebuilt when they move: the Chinese
 * bounding-sphere picking tutorial's loop over every object's bounding
 * sphere, without the loop.
 *
 *     rp_scene *scene = rp_scene_create();
 *     for (int i = 0; i < n; i++)
 *         rp_scene_add_sphere(scene, &asteroid[i].bounds);   // index i
 *     rp_scene_build(scene);
 *     ...
 *     // every frame: move, build (a refit), pick
 *     for (int i = 0; i < n; i++)
 *         rp_scene_set_sphere(scene, i, &asteroid[i].bounds);
 *     rp_scene_build(scene);
 *     int picked = rp_intersect_ray_scene(scene, &ray, &hit, NULL);
 *
 * The answer is always the one a loop over every object's own function
 * (rp_intersect_ray_sphere, _ellipsoid, _aabb, _obb, _mesh_instance) would
 * give: the nearest hit at t >= 0, the lowest index on equal t, and the hit
 * record exactly as that function writes it. The BVH only decides which
 * objects need testing; its boxes are rounded outwards, so it never hides
 * a hit.
 *
 * Adds and moves change a pending copy of the scene; queries read the
 * state of the last rp_scene_build. So picking while the game loop
 * updates objects sees one consistent frame, and nothing is visible
 * before the build that makes it so.
 *
 * Not thread-safe for writers: queries may run on several threads at once
 * only while no add, set or build runs.
 */
#ifndef RAYPICK_SCENE_H
#define RAYPICK_SCENE_H

#include "ray.h"
#include "sphere.h"
#include "ellipsoid.h"
#include "box.h"
#include "mesh.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rp_scene rp_scene;

/*!
 * @brief an empty scene.
 *
 * @returns the scene (destroy with rp_scene_destroy), or NULL when out of
 *          memory
 */
RP_API rp_scene *rp_scene_create(void);

/*!
 * @brief frees the scene and everything it allocated (not the meshes its
 *        instances point to: they belong to the caller).
 *
 * @param[in] s the scene; NULL is ignored
 */
RP_API void rp_scene_destroy(rp_scene *s);

/*!
 * @brief adds a sphere (copied).
 *
 * @param[in] s      the scene
 * @param[in] sphere finite centre, finite radius > 0
 * @returns the object's index (0 for the first object of the scene, then
 *          1, 2, ... whatever their kinds), or -1 with nothing added for
 *          NULL s or sphere, a NaN or infinity, a radius <= 0, a sphere
 *          whose bounds overflow float, or out of memory
 */
RP_API int rp_scene_add_sphere(rp_scene *s, const rp_sphere *sphere);

/*!
 * @brief adds an ellipsoid (copied).
 *
 * @param[in] s the scene
 * @param[in] e finite centre, radii > 0, orientation all zeros
 *              (axis-aligned) or a unit quaternion (within 1e-3, as
 *              rp_intersect_ray_ellipsoid accepts)
 * @returns the object's index, or -1 with nothing added on NULL, NaN,
 *          infinity, a radius <= 0, a non-unit non-zero orientation,
 *          bounds that overflow float, or out of memory
 */
RP_API int rp_scene_add_ellipsoid(rp_scene *s, const rp_ellipsoid *e);

/*!
 * @brief adds an axis-aligned box (copied).
 *
 * @param[in] s   the scene
 * @param[in] box finite, min <= max on every axis (a flat box is valid)
 * @returns the object's index, or -1 with nothing added on NULL, NaN,
 *          infinity, min > max on an axis, or out of memory
 */
RP_API int rp_scene_add_aabb(rp_scene *s, const rp_aabb *box);

/*!
 * @brief adds an oriented box (copied).
 *
 * @param[in] s   the scene
 * @param[in] box finite centre, half extents >= 0, finite orientation
 *                (all zeros = axis-aligned; a non-zero one is normalised)
 * @returns the object's index, or -1 with nothing added on NULL, NaN,
 *          infinity, a negative half extent, bounds that overflow float, or
 *          out of memory
 */
RP_API int rp_scene_add_obb(rp_scene *s, const rp_obb *box);

/*!
 * @brief adds an instance of a mesh placed by a model matrix. The mesh is
 *        shared, not copied: it must outlive the scene. One mesh may have
 *        any number of instances.
 *
 * @param[in] s     the scene
 * @param[in] m     the mesh (rp_mesh_create)
 * @param[in] model affine (bottom row 0 0 0 1 in cglm's m[col][row]),
 *                  invertible, finite; copied
 * @returns the object's index, or -1 with nothing added for NULL s, m or
 *          model, a projective, singular or non-finite model, bounds that
 *          overflow float, or out of memory
 */
RP_API int rp_scene_add_mesh(rp_scene *s, const rp_mesh *m, mat4 model);

/*!
 * @brief moves (or reshapes) sphere `index`. Seen by queries after the
 *        next rp_scene_build, not before.
 *
 * @param[in] s      the scene
 * @param[in] index  an index rp_scene_add_sphere returned
 * @param[in] sphere the new sphere, valid as for rp_scene_add_sphere
 * @returns true when stored; false, changing nothing, for NULL s or
 *          sphere, an index out of range or of another kind, or an invalid
 *          sphere
 */
RP_API bool rp_scene_set_sphere(rp_scene *s, int index, const rp_sphere *sphere);

/*!
 * @brief moves ellipsoid `index`; as rp_scene_set_sphere.
 *
 * @param[in] s     the scene
 * @param[in] index an index rp_scene_add_ellipsoid returned
 * @param[in] e     the new ellipsoid, valid as for rp_scene_add_ellipsoid
 * @returns true when stored; false, changing nothing, on a wrong index or
 *          kind, NULL, or an invalid ellipsoid
 */
RP_API bool rp_scene_set_ellipsoid(rp_scene *s, int index, const rp_ellipsoid *e);

/*!
 * @brief moves box `index`; as rp_scene_set_sphere.
 *
 * @param[in] s     the scene
 * @param[in] index an index rp_scene_add_aabb returned
 * @param[in] box   the new box, valid as for rp_scene_add_aabb
 * @returns true when stored; false, changing nothing, on a wrong index or
 *          kind, NULL, or an invalid box
 */
RP_API bool rp_scene_set_aabb(rp_scene *s, int index, const rp_aabb *box);

/*!
 * @brief moves oriented box `index`; as rp_scene_set_sphere.
 *
 * @param[in] s     the scene
 * @param[in] index an index rp_scene_add_obb returned
 * @param[in] box   the new box, valid as for rp_scene_add_obb
 * @returns true when stored; false, changing nothing, on a wrong index or
 *          kind, NULL, or an invalid box
 */
RP_API bool rp_scene_set_obb(rp_scene *s, int index, const rp_obb *box);

/*!
 * @brief places mesh instance `index` by a new model matrix (same mesh);
 *        as rp_scene_set_sphere.
 *
 * @param[in] s     the scene
 * @param[in] index an index rp_scene_add_mesh returned
 * @param[in] model the new model matrix, valid as for rp_scene_add_mesh
 * @returns true when stored; false, changing nothing, on a wrong index or
 *          kind, NULL, or an invalid matrix
 */
RP_API bool rp_scene_set_mesh_model(rp_scene *s, int index, mat4 model);

/*!
 * @brief makes queries see every add and move since the last build.
 *
 * After adds, the BVH is rebuilt (binned SAH, O(n log n); big scenes on
 * up to 8 threads, one per core, giving the same tree as one). After moves
 * only, it is refitted: the same tree, its boxes recomputed bottom-up in
 * O(n), a fraction of a rebuild. A refit keeps answers exact but lets the
 * tree's boxes grow and overlap as objects drift apart; when its SAH cost
 * (the expected work of a ray) passes twice the cost it had when built,
 * the build rebuilds instead. A build with nothing changed costs nothing.
 *
 * @param[in] s the scene
 * @returns true when queries now see the current objects; false for NULL
 *          s or out of memory, and then queries keep seeing the previous
 *          build
 */
RP_API bool rp_scene_build(rp_scene *s);

/*!
 * @brief the nearest object the ray hits, as of the last rp_scene_build.
 *
 * Near-first traversal of the BVH with a fixed stack (the builder bounds
 * the depth), skipping every box that starts beyond the best hit so far.
 *
 * @param[in]  s   the scene
 * @param[in]  ray the ray (any non-zero dir length; t is in units of dir)
 * @param[out] out the hit exactly as that object's own function reports
 *                 it (rp_intersect_ray_sphere, _ellipsoid, _aabb, _obb or
 *                 _mesh_instance); may be NULL
 * @param[out] tri for a mesh instance, the triangle and barycentrics as
 *                 rp_intersect_ray_mesh_instance gives them; left
 *                 untouched when the object hit is not a mesh; may be NULL
 * @returns the index of the object with the smallest hit t >= 0 (on equal
 *          t the lowest index), or -1 with *out and *tri untouched when
 *          nothing is hit, the scene is NULL, empty or never built, or the
 *          ray is invalid (NULL, NaN, infinity, zero dir)
 */
RP_API int rp_intersect_ray_scene(const rp_scene *s, const rp_ray *ray, rp_hit *out,
                                  rp_triangle_hit *tri);

/* ---- the traversal, traced for drawing -------------------------------- */

/* One box the traversal opened: a BVH node whose (up to) four child boxes
   it tested against the ray (objects 0), or a leaf whose objects it ran
   through their own functions (objects: how many). */
typedef struct rp_scene_visit {
    rp_aabb box;
    int     objects;
} rp_scene_visit;

/* What rp_intersect_ray_scene_traced did for one ray: caller-owned.
   Zero-initialise, then point visits at an array of visit_cap entries, or
   leave it NULL to count only. */
typedef struct rp_scene_trace {
    rp_scene_visit *visits;     /* the boxes opened, in the order opened  */
    int visit_cap;
    int visit_count;            /* all opened, also those past visit_cap  */
    int nodes_visited;          /* BVH nodes opened (the root among them) */
    int leaves_visited;         /* leaves opened                          */
    int objects_tested;         /* objects in the leaves opened           */
    int tree_nodes;             /* BVH nodes in the built tree            */
} rp_scene_trace;

/*!
 * @brief rp_intersect_ray_scene that also records which boxes of the BVH
 *        it opened: what makes one pick among 100,000 objects cheap.
 *
 * The same traversal, so the same answer: every box entered beyond the
 * best hit so far stays closed and is not recorded. The trace is reset
 * (counts 0; visits and visit_cap kept) on every call, and filled even
 * when nothing is hit. A negative visit_cap, or NULL visits, counts
 * without storing.
 *
 * @param[in]  s, ray as rp_intersect_ray_scene
 * @param[out] trace  what the traversal did; may be NULL
 * @param[out] out, tri as rp_intersect_ray_scene
 * @returns rp_intersect_ray_scene's answer; -1 (the trace all zeros) for
 *          a NULL, empty or unbuilt scene or an invalid ray
 */
RP_API int rp_intersect_ray_scene_traced(const rp_scene *s, const rp_ray *ray,
                                         rp_scene_trace *trace, rp_hit *out,
                                         rp_triangle_hit *tri);

#ifdef __cplusplus
}
#endif

#endif /* RAYPICK_SCENE_H */

/*
 * raypick/scene.h: many objects (spheres, ellipsoids, boxes, mesh
 * instances, and thin points, segments and polylines) under one BVH,
 * refitted or rebuilt when they move: the Chinese bounding-sphere picking
 * tutorial's loop over every object's bounding sphere, without the loop.
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
 * (rp_intersect_ray_sphere, _ellipsoid, _aabb, _obb, _mesh_instance; for
 * thin objects rp_intersect_ray_point, _segment, _polyline) would give:
 * the nearest hit at t >= 0, the lowest index on equal t, and the hit
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
 *
 * Queries with a filter (rp_scene_query: layers, a t limit, any hit, a
 * pick tolerance) and selection by a frustum (marquee selection):
 *
 *     rp_scene_set_mask(scene, tree, LAYER_SCENERY);    // then build
 *     rp_scene_query q = {0};                           // every layer, nearest hit
 *     q.layers = LAYER_UNITS | LAYER_PATHS;             // Unity's LayerMask
 *     int i = rp_scene_query_ray(scene, &ray, &q, &hit, NULL, NULL);
 *
 *     rp_frustum f;                                     // the dragged rectangle
 *     if (rp_frustum_from_rect(x0, y0, x1, y1, &vp, proj, view, RP_GL, &f)) {
 *         size_t n = rp_scene_query_frustum(scene, &f, &q, selected, cap);
 *         ...                                           // selected[0 .. min(n, cap))
 *     }
 */
#ifndef RAYPICK_SCENE_H
#define RAYPICK_SCENE_H

#include "ray.h"
#include "sphere.h"
#include "ellipsoid.h"
#include "box.h"
#include "mesh.h"
#include "frustum.h"
#include "thin.h"

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
 * @brief adds a point picked within a tolerance (thin.h): a marker, a
 *        waypoint, a vertex. Copied.
 *
 * A ray picks it when its closest approach to p (at t >= 0) is within
 * radius(t) = world + per_t * t, where world and per_t are this tolerance's
 * plus the query's (rp_scene_query.thin): rp_intersect_ray_point with
 * that sum. Frustum queries select it by p alone (the tolerance is for
 * rays).
 *
 * @param[in] s   the scene
 * @param[in] p   the point (finite)
 * @param[in] tol its own tolerance: finite, both fields >= 0; {0, 0}
 *                leaves the tolerance to each query. Unlike thin.h, NULL
 *                is refused (there it means "any distance", which would
 *                make the point catch every ray). An object's own per_t
 *                suits rays of one scale (unit dirs from one camera); a
 *                pixel tolerance for the ray at hand belongs in the query
 *                (rp_scene_query.thin). A per_t > 0 makes every query on
 *                the scene walk the boxes widened along the ray.
 * @returns the object's index, or -1 with nothing added for NULL s, p or
 *          tol, a NaN or infinity, a negative tolerance, bounds (the point
 *          widened by tol->world) that overflow float, or out of memory
 */
RP_API int rp_scene_add_point(rp_scene *s, const vec3 p, const rp_thin_tolerance *tol);

/*!
 * @brief adds a segment from a to b picked within a tolerance: a wire, a
 *        ruler, an edge. Copied. Picked as rp_intersect_ray_segment with
 *        its tolerance plus the query's (as rp_scene_add_point); a == b is
 *        a point.
 *
 * @param[in] s    the scene
 * @param[in] a, b the ends (finite)
 * @param[in] tol  as rp_scene_add_point's
 * @returns the object's index, or -1 with nothing added on what
 *          rp_scene_add_point refuses
 */
RP_API int rp_scene_add_segment(rp_scene *s, const vec3 a, const vec3 b,
                                const rp_thin_tolerance *tol);

/*!
 * @brief adds a polyline (segments from point i to point i + 1) picked
 *        within a tolerance: a path, a line strip. The points are copied
 *        (the caller's array may change or go right after the call).
 *        Picked as rp_intersect_ray_polyline with its tolerance plus the
 *        query's; one point is a point.
 *
 * @param[in] s            the scene
 * @param[in] xyz          the first point's x; x, y, z floats at the start
 *                         of each element, stride_bytes apart
 * @param[in] count        number of points, 1 .. 2^32 - 1
 * @param[in] stride_bytes 0 (packed) or >= 12 and a multiple of 4
 * @param[in] tol          as rp_scene_add_point's
 * @returns the object's index, or -1 with nothing added on NULL, count 0
 *          or >= 2^32, a bad stride, a NaN or infinity in any point, and
 *          what rp_scene_add_point refuses
 */
RP_API int rp_scene_add_polyline(rp_scene *s, const float *xyz, size_t count,
                                 size_t stride_bytes, const rp_thin_tolerance *tol);

/*!
 * @brief moves point `index` (or changes its tolerance); as
 *        rp_scene_set_sphere.
 * @returns true when stored; false, changing nothing, on a wrong index or
 *          kind, or what rp_scene_add_point refuses
 */
RP_API bool rp_scene_set_point(rp_scene *s, int index, const vec3 p,
                               const rp_thin_tolerance *tol);

/*!
 * @brief moves segment `index`; as rp_scene_set_sphere.
 * @returns true when stored; false, changing nothing, on a wrong index or
 *          kind, or what rp_scene_add_segment refuses
 */
RP_API bool rp_scene_set_segment(rp_scene *s, int index, const vec3 a, const vec3 b,
                                 const rp_thin_tolerance *tol);

/*!
 * @brief replaces polyline `index`'s points (any new count) and
 *        tolerance; the points are copied. As rp_scene_set_sphere:
 *        queries see the old points until the next rp_scene_build.
 * @returns true when stored; false, changing nothing, on a wrong index or
 *          kind, what rp_scene_add_polyline refuses, or out of memory
 */
RP_API bool rp_scene_set_polyline(rp_scene *s, int index, const float *xyz, size_t count,
                                  size_t stride_bytes, const rp_thin_tolerance *tol);

/*!
 * @brief sets object `index`'s layer mask: which queries see it (three.js
 *        Object3D.layers, Unity's GameObject.layer as a bit). An object
 *        matches a query when (mask & layers) != 0 (rp_scene_query), so
 *        mask 0 hides it from every query, rp_intersect_ray_scene
 *        included. Objects start with every bit set (0xFFFFFFFF: seen by
 *        every query). Like a move, seen by queries after the next
 *        rp_scene_build (which then recomputes the BVH nodes' masks, in
 *        O(n), whether it refits or rebuilds).
 *
 * @param[in] s     the scene
 * @param[in] index any object's index
 * @param[in] mask  any 32 bits
 * @returns true when stored; false, changing nothing, for NULL s or an
 *          index out of range
 */
RP_API bool rp_scene_set_mask(rp_scene *s, int index, uint32_t mask);

/*!
 * @brief makes queries see every add, move and mask change since the
 *        last build.
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
 * The same as rp_scene_query_ray with the zero query (every layer, no t
 * limit, nearest hit, no added tolerance): objects whose mask is 0
 * (rp_scene_set_mask) are not picked; a scene that never sets a mask
 * sees every object.
 *
 * @param[out] out the hit exactly as that object's own function reports
 *                 it (rp_intersect_ray_sphere, _ellipsoid, _aabb, _obb or
 *                 _mesh_instance; for a thin object, the rp_hit that
 *                 rp_scene_query_ray describes); may be NULL
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

/* ---- queries with a filter, and selection by a frustum ----------------- */

/* Which objects rp_scene_query_frustum lists. */
typedef enum rp_scene_select {
    /* every object that shares a point with the frustum, touching
       included: each kind's rp_test_frustum_X_exact (a mesh instance:
       rp_test_frustum_mesh_instance_exact, triangle by triangle) */
    RP_SELECT_MEETS = 0,
    /* cheaper: each kind's rp_test_frustum_X_conservative (a mesh
       instance: by its bounds); never leaves out an object that meets
       the frustum, may list one just outside an edge or corner */
    RP_SELECT_MEETS_CONSERVATIVE = 1,
    /* only the objects wholly inside: rp_frustum_contains_X (a mesh
       instance: rp_frustum_contains_mesh_instance, every triangle) */
    RP_SELECT_INSIDE = 2
} rp_scene_select;

/* What a scene query asks. Zero-initialise it (rp_scene_query q = {0};),
   then set what differs: the zero value (or a NULL query) means every
   layer, no t limit, the nearest hit, no added tolerance, the objects a
   frustum meets (sokol's convention).

   layers    an object matches when (its mask & layers) != 0
             (rp_scene_set_mask); 0 means all 32 bits: every object
             whose mask is not 0. Unity's LayerMask, three.js's
             Raycaster.layers as a bit set.
   t_max     rays: only hits at t <= t_max count (t in units of the ray's
             dir: with a unit dir, a distance); 0 means no limit; may be
             +INFINITY; negative or NaN: refused.
   any_hit   rays: the first matching hit the traversal finds within
             t_max, not the nearest (an occlusion test, Unity's
             Physics.Raycast as a bool; cheaper): some object hit at
             0 <= t <= t_max, which need not be the nearest or the lowest
             index.
   thin      rays: added to every thin object's own tolerance (fields
             summed in float): a pixel tolerance made for this ray by
             rp_thin_tolerance_pixels, or a world one for every thin
             object at once (three.js's Raycaster.params.Line.threshold).
             {0, 0}: each object's own alone. Negative or NaN: refused.
             Solid objects ignore it.
   select    frustums: which objects to list (rp_scene_select). */
typedef struct rp_scene_query {
    uint32_t          layers;
    float             t_max;
    bool              any_hit;
    rp_thin_tolerance thin;
    rp_scene_select   select;
} rp_scene_query;

/*!
 * @brief the object a ray picks among those the query lets through, as
 *        of the last rp_scene_build: rp_intersect_ray_scene with layers,
 *        a t limit, any hit and a pick tolerance for thin objects.
 *
 * The same traversal, skipping every BVH child whose mask (the OR of its
 * objects' masks) shares no bit with the query's layers, and every box
 * entered beyond t_max. The answer is the brute-force loop's over the
 * objects that match: each object's own function, the smallest t >= 0
 * with t <= t_max (on equal t the lowest index); with any_hit, some
 * object that the loop would find within t_max.
 *
 * A thin object (point, segment, polyline) is hit as its thin.h function
 * says with the summed tolerance; its rp_hit then reads: t = t_enter =
 * t_exit = the ray's t of closest approach; point = origin + t * dir (the
 * ray's point of closest approach: every rp_hit's point is on the ray);
 * normal = the unit vector from the thing's nearest point towards that
 * ray point (-dir, normalised, when they coincide); inside = false. The
 * thing's own nearest point, the distance and the polyline's segment are
 * in *thin.
 *
 * @param[in]  s     the scene
 * @param[in]  ray   the ray (any non-zero dir length; t is in units of dir)
 * @param[in]  query the filter; NULL: the zero query (then the same as
 *                   rp_intersect_ray_scene)
 * @param[out] out   the hit, as rp_intersect_ray_scene's (thin objects:
 *                   above); may be NULL
 * @param[out] tri   for a mesh instance, as rp_intersect_ray_scene's; left
 *                   untouched for any other object; may be NULL
 * @param[out] thin  for a thin object, its closest approach as its thin.h
 *                   function reports it; left untouched for any other
 *                   object; may be NULL
 * @returns the index of the object picked, or -1 with every output
 *          untouched when no matching object is hit within t_max, for a
 *          NULL, empty or unbuilt scene, an invalid ray, a negative or NaN
 *          t_max, a negative or NaN thin tolerance
 */
RP_API int rp_scene_query_ray(const rp_scene *s, const rp_ray *ray, const rp_scene_query *query,
                              rp_hit *out, rp_triangle_hit *tri, rp_thin_hit *thin);

/*!
 * @brief every object a frustum meets (or holds) among those the query
 *        lets through, in index order, as of the last rp_scene_build:
 *        marquee selection (three.js's SelectionBox) without the loop.
 *
 * The BVH's boxes are tested against the six planes (in double, with a
 * margin for rounding): a box wholly outside one plane is skipped, and a
 * box wholly inside all six lists its matching objects without testing
 * each (except mesh instances, which are asked); the objects of the boxes
 * between go through their own test (query->select says which). The
 * answer is the brute-force loop's: every i, in increasing order, whose
 * mask matches the layers and whose own test is true. Thin objects are
 * tested without their tolerance: a point by rp_frustum_contains_point, a
 * segment by rp_test_frustum_segment (RP_SELECT_INSIDE: both ends
 * inside), a polyline by rp_test_frustum_polyline (RP_SELECT_INSIDE:
 * rp_frustum_contains_polyline); conservative and exact are the same for
 * them.
 *
 * @param[in]  s     the scene
 * @param[in]  f     the frustum (rp_frustum_from_rect: for a click or an
 *                   empty rectangle that returns false and there is no
 *                   frustum to pass: nothing is selected)
 * @param[in]  query the filter (layers, select; the ray fields are
 *                   ignored); NULL: the zero query
 * @param[out] out   the first min(total, cap) indices, ascending; may be
 *                   NULL (then only counted)
 * @param[in]  cap   room in out
 * @returns the total number of objects selected (which may exceed cap);
 *          0, with out untouched, when none is, and for a NULL, empty or
 *          unbuilt scene, an invalid frustum (what rp_test_frustum_* refuse:
 *          NaN, infinity, a normal not of unit length, so an all-zero
 *          frustum selects nothing), an unknown select
 */
RP_API size_t rp_scene_query_frustum(const rp_scene *s, const rp_frustum *f,
                                     const rp_scene_query *query, int *out, size_t cap);

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

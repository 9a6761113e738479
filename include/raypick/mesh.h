/*
 * raypick/mesh.h: ray vs triangle (watertight) and ray vs triangle mesh
 * (a BVH): what D3DXIntersectTri and D3DXIntersect do.
 *
 *     rp_mesh *m = rp_mesh_create(&verts[0].x, nverts, sizeof verts[0],
 *                                 indices, ntris);          // D3DVERTEX works as is
 *     rp_hit hit;
 *     rp_triangle_hit tri;
 *     if (rp_intersect_ray_mesh_instance(m, world, &ray, &hit, &tri))
 *         highlight(tri.triangle);                          // D3DXIntersect's FaceIndex
 *     rp_mesh_destroy(m);
 */
#ifndef RAYPICK_MESH_H
#define RAYPICK_MESH_H

#include <stddef.h>
#include <stdint.h>
#include "ray.h"
#include "box.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Which triangle a ray hit, and where on it. */
typedef struct rp_triangle_hit {
    uint32_t triangle;  /* index in the mesh: D3DXIntersect's FaceIndex (0 for a lone triangle) */
    float    u, v;      /* point = v0 + u (v1 - v0) + v (v2 - v0): D3DXIntersect's pU, pV
                           (the Pick sample's fBary1, fBary2) */
} rp_triangle_hit;

/*!
 * @brief ray vs one triangle, both faces, watertight. Replaces
 *        D3DXIntersectTri and the Pick sample's IntersectTriangle.
 *
 * The Pick sample's test (Moller-Trumbore with an epsilon on the
 * determinant) lets rays through the shared edges and vertices of a closed
 * mesh: a click on an edge picks nothing, or the triangle behind. This is
 * Woop, Benthin & Wald's watertight test (JCGT 2013): the vertices are
 * sheared into the ray's frame and each edge function is a 2x2 determinant
 * that two triangles sharing the edge compute with the same products, so
 * their signs are exact opposites; when one rounds to exactly 0 the three
 * are recomputed in double, where float products are exact. A ray through
 * an edge or vertex of a closed mesh therefore hits at least one of its
 * triangles. When T (t times the determinant) is within its rounding error
 * of 0, the plane equation in double decides, so an origin on the triangle
 * gives exactly t = 0 and a far edge-on triangle is not mistaken for one.
 *
 * @param[in]  ray the ray (any non-zero dir length; t is in units of dir)
 * @param[in]  v0  first vertex (finite)
 * @param[in]  v1  second vertex
 * @param[in]  v2  third vertex; front face = counter-clockwise v0 v1 v2,
 *                 normal (v1 - v0) x (v2 - v0)
 * @param[out] out the hit; may be NULL. t = t_enter = t_exit; point =
 *                 origin + t * dir; normal = unit geometric normal facing
 *                 the side the ray came from; inside = the ray hit the back
 *                 face
 * @param[out] tri triangle 0 and the barycentrics u, v; may be NULL
 * @returns true for a hit at t >= 0 on either face, edges and vertices
 *          included (touching counts), t = 0 when the origin lies on the
 *          triangle. false, with *out and *tri untouched, for a miss, a
 *          triangle behind the origin, a ray in the triangle's plane, a
 *          degenerate (zero-area) triangle, invalid input (NULL, NaN or
 *          infinity anywhere, zero dir), or a hit too far along a tiny dir
 *          to be represented in float.
 */
RP_API bool rp_intersect_ray_triangle(const rp_ray *ray, const vec3 v0, const vec3 v1,
                                      const vec3 v2, rp_hit *out, rp_triangle_hit *tri);

typedef struct rp_mesh rp_mesh;   /* opaque: the triangles and their BVH */

/*!
 * @brief copy a triangle mesh and build its BVH (what D3DXCreateMesh plus
 *        D3DXIntersect's first call would cost).
 *
 * The BVH is built with the binned surface area heuristic (16 bins; every
 * plane for nodes of up to 8 triangles), on up to 8 threads for big meshes
 * (one per core; the same tree on any number of them, one where threads
 * are unavailable), in O(n log n) time on every input: below depth 32
 * every split halves its node, so no leaf is deeper than 63; it is then
 * flattened into 128-byte nodes of four children (one SIMD test for the
 * four boxes), walked with a fixed 193-entry stack, also for a million
 * identical triangles. About 46 bytes per triangle kept (the triangles
 * in packets of four, 40 bytes with their original index, and the nodes);
 * building takes about 50 at the peak (the builder reads the positions
 * and indices where they are, without a copy). Degenerate triangles are
 * kept in the count but never hit.
 *
 * @param[in] positions      vertex_count vertices, x y z floats at the start
 *                           of each, stride_bytes apart
 * @param[in] vertex_count   number of vertices
 * @param[in] stride_bytes   0 (= 12, packed), or >= 12 and a multiple of 4:
 *                           an array of D3DVERTEX (32 bytes) works as is
 * @param[in] indices        3 * triangle_count vertex indices, or NULL:
 *                           triangle i is vertices 3i, 3i+1, 3i+2
 * @param[in] triangle_count number of triangles (1 .. 2^31 - 1)
 * @returns the mesh (free it with rp_mesh_destroy), or NULL on NULL
 *          positions, triangle_count 0 or > 2^31 - 1, a bad stride, an
 *          index >= vertex_count (or vertex_count < 3 * triangle_count
 *          without indices), a NaN or infinite position that a triangle
 *          uses (unused vertices are not read), or out of memory. Counts
 *          are checked before anything is allocated.
 */
RP_API rp_mesh *rp_mesh_create(const float *positions, size_t vertex_count, size_t stride_bytes,
                               const uint32_t *indices, size_t triangle_count);

/*!
 * @brief free a mesh. NULL is fine. Scenes that share it must be
 *        destroyed first.
 */
RP_API void rp_mesh_destroy(rp_mesh *m);

/*!
 * @brief number of triangles given to rp_mesh_create (degenerate ones
 *        included)
 * @returns the count; 0 for NULL
 */
RP_API size_t rp_mesh_triangle_count(const rp_mesh *m);

/*!
 * @brief bounding box of the mesh: exactly the min and max of the vertices
 *        its triangles use (no padding; unused vertices do not count).
 *
 * @param[in]  m   the mesh
 * @param[out] out the box; may be NULL
 * @returns true; false (out untouched) for NULL m
 */
RP_API bool rp_mesh_bounds(const rp_mesh *m, rp_aabb *out);

/*!
 * @brief nearest triangle of the mesh along the ray: D3DXIntersect's
 *        pHit, pFaceIndex, pU, pV, pDist.
 *
 * The result is that of a loop over rp_intersect_ray_triangle on every
 * triangle keeping the smallest t (same t, triangle, barycentrics; checked
 * bit for bit on random rays and under the fuzzer): the BVH's box test is
 * widened by more than the triangle test's rounding error, so it never
 * drops a triangle that test would hit. (A triangle seen almost exactly
 * edge-on has an ill-conditioned t; in principle its rounded t could fall
 * outside its widened box and lose a tie that the loop would give it.)
 *
 * @param[in]  m   the mesh
 * @param[in]  ray the ray (t in units of dir)
 * @param[out] out the hit, as rp_intersect_ray_triangle gives it; may be NULL
 *                 (then its point and normal are not computed: a pick that
 *                 wants only the triangle is a little faster)
 * @param[out] tri the triangle's index and barycentrics; may be NULL
 * @returns true for a hit at t >= 0 (on equal t the lowest triangle
 *          index); false, outputs untouched, for a miss or invalid input
 *          (NULL, NaN, infinity, zero dir)
 */
RP_API bool rp_intersect_ray_mesh(const rp_mesh *m, const rp_ray *ray, rp_hit *out,
                                  rp_triangle_hit *tri);

/*!
 * @brief every triangle the ray hits, nearest first: D3DXIntersect's
 *        ppAllHits and pCountOfHits (the Pick sample's "all hits" mode).
 *
 * Sorted by t, then by triangle index. The hits are gathered in a buffer
 * that starts on the stack and grows on the heap (at most one entry per
 * triangle), freed before returning.
 *
 * @param[in]  m        the mesh
 * @param[in]  ray      the ray
 * @param[out] hits     room for max_hits hits; may be NULL
 * @param[out] tris     room for max_hits triangle hits; may be NULL
 * @param[in]  max_hits how many to write (0: just count)
 * @returns the total number of hits at t >= 0 (also when more than
 *          max_hits: only the first max_hits are written); 0 for a miss,
 *          invalid input or out of memory (nothing written)
 */
RP_API size_t rp_intersect_ray_mesh_all(const rp_mesh *m, const rp_ray *ray, rp_hit *hits,
                                        rp_triangle_hit *tris, size_t max_hits);

/*!
 * @brief is any triangle hit with 0 <= t <= t_max? The occlusion question
 *        (is something between the eye and the point?); stops at the
 *        first hit found.
 *
 * @param[in] m     the mesh
 * @param[in] ray   the ray
 * @param[in] t_max the farthest t that counts; +INFINITY for no limit
 * @returns true when rp_intersect_ray_mesh would find a hit with
 *          t <= t_max; false otherwise, and for NaN or negative t_max or
 *          invalid input
 */
RP_API bool rp_test_ray_mesh(const rp_mesh *m, const rp_ray *ray, float t_max);

/*!
 * @brief the mesh placed in the world by an affine model matrix (the Pick
 *        sample's world matrix): rp_intersect_ray_mesh without
 *        transforming the vertices.
 *
 * The ray is taken into model space with the inverse (in double); t is the
 * same number in both spaces, so it comes back in units of the world ray's
 * dir. point = world origin + t * world dir; normal = the model normal
 * through the inverse transpose, normalised: the world-space unit normal
 * facing the side the ray came from; inside = the mesh's own back face
 * was hit (decided in model space, so a mirroring matrix keeps the mesh's
 * outside).
 *
 * @param[in]  m     the mesh
 * @param[in]  model affine (last row 0 0 0 1), finite, invertible; rotation,
 *                   non-uniform scale, mirror, translation all fine
 * @param[in]  ray   the ray, in world space
 * @param[out] out   the hit in world space; may be NULL
 * @param[out] tri   the triangle's index and barycentrics; may be NULL
 * @returns true for a hit at t >= 0; false, outputs untouched, for a miss,
 *          invalid input, or a singular, non-affine or non-finite matrix
 */
RP_API bool rp_intersect_ray_mesh_instance(const rp_mesh *m, mat4 model, const rp_ray *ray,
                                           rp_hit *out, rp_triangle_hit *tri);

#ifdef __cplusplus
}
#endif

#endif /* RAYPICK_MESH_H */

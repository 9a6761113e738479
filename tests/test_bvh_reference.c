/* test_bvh_reference.c: the reference BVH (src/lib/bvh_reference.c) is a
   sound tree, answers as a loop over every primitive does, and gives the
   same nearest hit as rp_intersect_ray_mesh and rp_intersect_ray_scene on
   random meshes and scenes with duplicates (equal t: the lowest index).
   Inputs stay small: the suite also runs under valgrind. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "random_scene.h"
#include "ref_mesh.h"
#include "bvh_reference.h"

/* ---- the tree itself ---------------------------------------------------- */

static bool box_inside(const float mn[3], const float mx[3], const float bmn[3],
                       const float bmx[3])
{
    for (int a = 0; a < 3; a++)
        if (mn[a] < bmn[a] || mx[a] > bmx[a])
            return false;
    return true;
}

/* Every node's box holds its subtree's boxes; each primitive is in one
   leaf; leaves are not empty. Returns the primitives under node i. */
static uint32_t check_node(const rp_ref_bvh *bvh, const rp_aabb *boxes, uint32_t i, int *seen)
{
    assert_true(i < bvh->node_count);
    const rp_ref_node *n = &bvh->nodes[i];
    if (n->count > 0) {
        assert_true(n->left_first + n->count <= bvh->prim_count);
        for (uint32_t k = n->left_first; k < n->left_first + n->count; k++) {
            uint32_t p = bvh->prims[k];
            assert_true(p < bvh->prim_count);
            seen[p]++;
            assert_true(box_inside(boxes[p].min, boxes[p].max, n->min, n->max));
        }
        return n->count;
    }
    for (uint32_t c = n->left_first; c < n->left_first + 2; c++) {
        assert_true(c > i);
        assert_true(box_inside(bvh->nodes[c].min, bvh->nodes[c].max, n->min, n->max));
    }
    return check_node(bvh, boxes, n->left_first, seen) +
           check_node(bvh, boxes, n->left_first + 1, seen);
}

static rp_aabb random_box(test_rng *g, double spread, double size)
{
    rp_aabb b;
    for (int a = 0; a < 3; a++) {
        double c = rng_uniform(g, -spread, spread), h = rng_uniform(g, 0, size);
        b.min[a] = (float)(c - h);
        b.max[a] = (float)(c + h);
    }
    return b;
}

static void tree_holds_every_primitive_once(void **state)
{
    (void)state;
    test_rng g = {7};
    const uint32_t n = 1500;
    rp_aabb *boxes = malloc(n * sizeof *boxes);
    for (uint32_t i = 0; i < n; i++)    /* every tenth a copy: equal centroids */
        boxes[i] = i % 10 == 9 ? boxes[i - 5] : random_box(&g, 50, 2);
    rp_ref_bvh bvh;
    assert_true(rp_ref_bvh_build(boxes, n, &bvh));
    assert_int_equal(sizeof(rp_ref_node), 32);
    assert_true(bvh.node_count >= 3 && bvh.node_count <= 2 * n - 1);
    int *seen = calloc(n, sizeof *seen);
    assert_int_equal(check_node(&bvh, boxes, 0, seen), n);
    for (uint32_t i = 0; i < n; i++)
        assert_int_equal(seen[i], 1);
    free(seen);
    rp_ref_bvh_free(&bvh);
    assert_null(bvh.nodes);
    assert_false(rp_ref_bvh_build(boxes, 0, &bvh));
    free(boxes);
}

/* ---- against a loop over every primitive -------------------------------- */

static bool sphere_hit(void *user, uint32_t prim, const rp_ray *ray, float *t)
{
    rp_hit h;
    if (!rp_intersect_ray_sphere(ray, &((const rp_sphere *)user)[prim], &h))
        return false;
    *t = h.t;
    return true;
}

static void equals_a_loop_over_every_primitive(void **state)
{
    (void)state;
    test_rng g = {11};
    const uint32_t n = 800;
    rp_sphere *spheres = malloc(n * sizeof *spheres);
    rp_aabb *boxes = malloc(n * sizeof *boxes);
    for (uint32_t i = 0; i < n; i++) {
        if (i % 8 == 7) {
            spheres[i] = spheres[i / 2];    /* a twin at a higher index */
        } else {
            for (int a = 0; a < 3; a++)
                spheres[i].center[a] = (float)rng_uniform(&g, -30, 30);
            spheres[i].radius = (float)rng_uniform(&g, 0.3, 3);
        }
        glm_vec3_subs(spheres[i].center, spheres[i].radius, boxes[i].min);
        glm_vec3_adds(spheres[i].center, spheres[i].radius, boxes[i].max);
    }
    rp_ref_bvh bvh;
    assert_true(rp_ref_bvh_build(boxes, n, &bvh));
    int hits = 0;
    for (int r = 0; r < 300; r++) {
        rp_ray ray;
        for (int a = 0; a < 3; a++) {
            ray.origin[a] = (float)rng_uniform(&g, -60, 60);
            ray.dir[a] = (float)rng_uniform(&g, -30, 30) - ray.origin[a];
        }
        bool want = false;
        uint32_t want_prim = 0;
        float want_t = INFINITY, t;
        for (uint32_t i = 0; i < n; i++)
            if (sphere_hit(spheres, i, &ray, &t) && t < want_t) {
                want = true;
                want_prim = i;
                want_t = t;
            }
        uint32_t prim = UINT32_MAX;
        float got_t = -1.0f;
        bool got = rp_ref_bvh_intersect(&bvh, &ray, sphere_hit, spheres, &prim, &got_t);
        assert_int_equal(got, want);
        if (got) {
            hits++;
            assert_int_equal(prim, want_prim);
            assert_true(got_t == want_t);
        } else {
            assert_int_equal(prim, UINT32_MAX);   /* untouched on a miss */
        }
    }
    assert_true(hits > 100);
    rp_ref_bvh_free(&bvh);
    free(spheres);
    free(boxes);
}

/* ---- against rp_mesh -------------------------------------------------------- */

static bool triangle_hit(void *user, uint32_t prim, const rp_ray *ray, float *t)
{
    const test_mesh *m = user;
    rp_hit h;
    if (!rp_intersect_ray_triangle(ray, tm_v(m, prim, 0), tm_v(m, prim, 1), tm_v(m, prim, 2), &h,
                                   NULL))
        return false;
    *t = h.t;
    return true;
}

/* The reference over the triangles' boxes and the mesh agree on every ray:
   hit or miss, t to the bit, the triangle. Returns the hits. */
static int compare_with_mesh(const test_mesh *tm, test_rng *g, int rays, double far, double r)
{
    rp_aabb *boxes = malloc(tm->nt * sizeof *boxes);
    for (size_t t = 0; t < tm->nt; t++) {
        glm_vec3_copy((float *)tm_v(tm, t, 0), boxes[t].min);
        glm_vec3_copy((float *)tm_v(tm, t, 0), boxes[t].max);
        for (int k = 1; k < 3; k++) {
            glm_vec3_minv(boxes[t].min, (float *)tm_v(tm, t, k), boxes[t].min);
            glm_vec3_maxv(boxes[t].max, (float *)tm_v(tm, t, k), boxes[t].max);
        }
    }
    rp_ref_bvh bvh;
    assert_true(rp_ref_bvh_build(boxes, (uint32_t)tm->nt, &bvh));
    rp_mesh *m = tm_build(tm);
    assert_non_null(m);
    int hits = 0;
    for (int k = 0; k < rays; k++) {
        rp_ray ray = aimed_ray(g, far, r);
        rp_hit h;
        rp_triangle_hit th;
        uint32_t prim = 0;
        float t = 0.0f;
        bool got = rp_intersect_ray_mesh(m, &ray, &h, &th);
        bool want = rp_ref_bvh_intersect(&bvh, &ray, triangle_hit, (void *)tm, &prim, &t);
        if (got != want)
            fail_msg("ray %d: mesh says %d, reference %d", k, got, want);
        if (got && (h.t != t || th.triangle != prim))
            fail_msg("ray %d: mesh t %.9g triangle %u, reference t %.9g triangle %u", k,
                     (double)h.t, th.triangle, (double)t, prim);
        hits += got;
    }
    rp_mesh_destroy(m);
    rp_ref_bvh_free(&bvh);
    free(boxes);
    return hits;
}

static void same_answers_as_the_mesh(void **state)
{
    (void)state;
    test_rng g = {23};
    /* a soup whose last quarter repeats earlier triangles: equal t */
    test_mesh soup = tm_soup(&g, 2000, 0.1);
    for (size_t t = 1500; t < 2000; t++)
        memcpy(&soup.idx[3 * t], &soup.idx[3 * (2 * (1999 - t))], 3 * sizeof *soup.idx);
    assert_true(compare_with_mesh(&soup, &g, 400, 3.0, 1.0) > 100);
    tm_free(&soup);
    /* a closed torus: rays through its shared edges and vertices too */
    test_mesh torus = tm_torus(40, 20, 1.0, 0.3);
    assert_true(compare_with_mesh(&torus, &g, 300, 4.0, 1.2) > 100);
    tm_free(&torus);
}

/* ---- against rp_scene --------------------------------------------------------- */

typedef struct scene_data {
    const rs_object *objs;
    const rp_mesh *mesh;
} scene_data;

static void random_object(test_rng *g, rs_kind k, rs_object *o)
{
    vec3 c;
    versor q;
    for (int a = 0; a < 3; a++)
        c[a] = (float)rng_uniform(g, -20, 20);
    vec3 axis = {(float)rng_uniform(g, -1, 1), (float)rng_uniform(g, -1, 1), 1.5f};
    glm_vec3_normalize(axis);
    glm_quatv(q, (float)rng_uniform(g, 0, 6.28), axis);
    vec3 size = {(float)rng_uniform(g, 0.2, 2), (float)rng_uniform(g, 0.2, 2),
                 (float)rng_uniform(g, 0.2, 2)};
    memset(o, 0, sizeof *o);
    o->kind = k;
    switch (k) {
    case RS_SPHERE: glm_vec3_copy(c, o->sphere.center); o->sphere.radius = size[0]; break;
    case RS_ELLIPSOID:
        glm_vec3_copy(c, o->ellipsoid.center);
        glm_vec3_copy(size, o->ellipsoid.radii);
        glm_vec4_copy(q, o->ellipsoid.orientation);
        break;
    case RS_AABB:
        glm_vec3_sub(c, size, o->aabb.min);
        glm_vec3_add(c, size, o->aabb.max);
        break;
    case RS_OBB:
        glm_vec3_copy(c, o->obb.center);
        glm_vec3_copy(size, o->obb.half_extents);
        glm_vec4_copy(q, o->obb.orientation);
        break;
    default:
        glm_translate_make(o->model, c);
        glm_quat_rotate(o->model, q, o->model);
        glm_scale(o->model, size);
        break;
    }
}

/* A box around the object: a ball's for the rotated kinds is enough
   (the reference only uses it to skip work). */
static rp_aabb object_box(const rs_object *o, const rp_aabb *mesh_bounds)
{
    vec3 c;
    float r;
    rs_center(o, c);
    switch (o->kind) {
    case RS_SPHERE: r = o->sphere.radius; break;
    case RS_ELLIPSOID: r = glm_vec3_max((float *)o->ellipsoid.radii); break;
    case RS_AABB: return o->aabb;
    case RS_OBB: r = glm_vec3_norm((float *)o->obb.half_extents); break;
    default: {
        rp_aabb b = {{INFINITY, INFINITY, INFINITY}, {-INFINITY, -INFINITY, -INFINITY}};
        for (int k = 0; k < 8; k++) {
            vec4 p = {k & 1 ? mesh_bounds->max[0] : mesh_bounds->min[0],
                      k & 2 ? mesh_bounds->max[1] : mesh_bounds->min[1],
                      k & 4 ? mesh_bounds->max[2] : mesh_bounds->min[2], 1.0f}, w;
            glm_mat4_mulv((vec4 *)o->model, p, w);
            glm_vec3_minv(b.min, w, b.min);
            glm_vec3_maxv(b.max, w, b.max);
        }
        return b;
    }
    }
    rp_aabb b;
    glm_vec3_subs(c, r, b.min);
    glm_vec3_adds(c, r, b.max);
    return b;
}

static bool object_hit(void *user, uint32_t prim, const rp_ray *ray, float *t)
{
    const scene_data *d = user;
    rp_hit h;
    bool hit = rs_hit(ray, d->mesh, &d->objs[prim], &h, NULL);
    if (hit)
        *t = h.t;
    return hit;
}

static void same_answers_as_the_scene(void **state)
{
    (void)state;
    test_rng g = {31};
    test_mesh cube = tm_box(2, 1.0);
    rp_mesh *mesh = tm_build(&cube);
    assert_non_null(mesh);
    rp_aabb mesh_bounds;
    assert_true(rp_mesh_bounds(mesh, &mesh_bounds));
    const uint32_t n = 700;
    rs_object *objs = malloc(n * sizeof *objs);
    rp_aabb *boxes = malloc(n * sizeof *boxes);
    rp_scene *s = rp_scene_create();
    for (uint32_t i = 0; i < n; i++) {
        if (i % 7 == 6)
            objs[i] = objs[i - 3];      /* a twin at a higher index: equal t */
        else
            random_object(&g, (rs_kind)(i % RS_KINDS), &objs[i]);
        boxes[i] = object_box(&objs[i], &mesh_bounds);
        assert_int_equal(rs_add(s, mesh, &objs[i]), (int)i);
    }
    assert_true(rp_scene_build(s));
    rp_ref_bvh bvh;
    assert_true(rp_ref_bvh_build(boxes, n, &bvh));
    scene_data data = {objs, mesh};
    int hits = 0;
    for (int k = 0; k < 400; k++) {
        rp_ray ray = aimed_ray(&g, 45.0, 20.0);
        rp_hit h;
        uint32_t prim = 0;
        float t = 0.0f;
        int got = rp_intersect_ray_scene(s, &ray, &h, NULL);
        bool want = rp_ref_bvh_intersect(&bvh, &ray, object_hit, &data, &prim, &t);
        if ((got >= 0) != want || (want && ((uint32_t)got != prim || h.t != t)))
            fail_msg("ray %d: scene says %d (t %.9g), reference %d (t %.9g)", k, got,
                     got >= 0 ? (double)h.t : 0.0, want ? (int)prim : -1, (double)t);
        hits += want;
    }
    assert_true(hits > 100);
    rp_ref_bvh_free(&bvh);
    rp_scene_destroy(s);
    rp_mesh_destroy(mesh);
    tm_free(&cube);
    free(objs);
    free(boxes);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(tree_holds_every_primitive_once),
        cmocka_unit_test(equals_a_loop_over_every_primitive),
        cmocka_unit_test(same_answers_as_the_mesh),
        cmocka_unit_test(same_answers_as_the_scene),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_scene_query.c: rp_scene's filtered queries against brute-force
   loops over every object: the ray query (layers, t_max, any hit, a pick
   tolerance for thin objects) against the loop over each matching
   object's own function, and the frustum query against the loop over
   each object's own frustum test, on random scenes of every kind of
   object (mesh instances and thin points, segments and polylines
   included) under random cameras of both depth conventions
   (ref_camera.h), before and after moves, mask changes, refits and
   rebuilds. Also: the exact mesh-instance frustum tests against the loop
   over the mesh's triangles, rp_intersect_ray_scene as the zero query,
   and every kind of bad input. The counts of rays and cameras shrink with
   RAYPICK_TEST_SCALE (test_scale.h: memcheck, ASan); the scenes do not. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#define CGLM_CLIPSPACE_INCLUDE_ALL
#include <cglm/cglm.h>
#include <raypick/raypick.h>
#include "query_objects.h"
#include "ref_camera.h"
#include "test_scale.h"
#include "sentinel.h"

/* ---- meshes ------------------------------------------------------------ */

/* A closed unit cube, 12 triangles. */
static rp_mesh *cube_mesh(void)
{
    static const float v[8][3] = {{-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, 1, -1},
                                  {-1, -1, 1},  {1, -1, 1},  {1, 1, 1},  {-1, 1, 1}};
    static const uint32_t idx[36] = {0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4,
                                     2, 3, 7, 2, 7, 6, 1, 2, 6, 1, 6, 5, 0, 4, 7, 0, 7, 3};
    rp_mesh *m = rp_mesh_create(&v[0][0], 8, 0, idx, 12);
    assert_non_null(m);
    return m;
}

/* A mesh kept with its triangles (for the brute-force loops). */
typedef struct test_mesh {
    rp_mesh *mesh;
    float   *tris;      /* 9 floats per triangle */
    size_t   count;
} test_mesh;

/* Scattered triangles in [-1, 1]^3, a few of them of zero area (a
   repeated vertex, or three on a line): the BVH leaves those out. */
static void random_mesh(test_rng *g, size_t count, test_mesh *out)
{
    out->tris = malloc(count * 9 * sizeof *out->tris);
    assert_non_null(out->tris);
    out->count = count;
    for (size_t t = 0; t < count; t++) {
        float *p = out->tris + 9 * t;
        float c[3], size = (float)rng_uniform(g, 0.05, 0.6);
        for (int k = 0; k < 3; k++)
            c[k] = (float)rng_uniform(g, -1, 1);
        for (int v = 0; v < 3; v++)
            for (int k = 0; k < 3; k++)
                p[3 * v + k] = c[k] + size * (float)rng_uniform(g, -1, 1);
        if (t % 17 == 5)
            memcpy(p + 6, p + 3, 3 * sizeof *p);          /* a repeated vertex */
        if (t % 23 == 7)
            for (int k = 0; k < 3; k++)
                p[6 + k] = 2.0f * p[3 + k] - p[k];        /* on a line (exact: powers of 2 aside) */
    }
    out->mesh = rp_mesh_create(out->tris, 3 * count, 0, NULL, count);
    assert_non_null(out->mesh);
}

static void free_mesh(test_mesh *m)
{
    rp_mesh_destroy(m->mesh);
    free(m->tris);
}

/* Zero area exactly as the library decides it (the cross product of the
   edges, in double, is zero): such triangles cannot be hit or seen. */
static bool zero_area(const float *p)
{
    double e1[3], e2[3];
    for (int i = 0; i < 3; i++) {
        e1[i] = (double)p[3 + i] - p[i];
        e2[i] = (double)p[6 + i] - p[i];
    }
    return e1[1] * e2[2] - e1[2] * e2[1] == 0.0 && e1[2] * e2[0] - e1[0] * e2[2] == 0.0 &&
           e1[0] * e2[1] - e1[1] * e2[0] == 0.0;
}

/* A vertex in the world as rp_test_frustum_mesh_instance_exact promises:
   model * v in double, rounded to float; false when it overflows. */
static bool world_vertex(mat4 m, const float *v, vec3 out)
{
    for (int r = 0; r < 3; r++) {
        out[r] = (float)((double)m[0][r] * v[0] + (double)m[1][r] * v[1] +
                         (double)m[2][r] * v[2] + (double)m[3][r]);
        if (!isfinite(out[r]))
            return false;
    }
    return true;
}

/* The loops the exact mesh tests must equal: over every triangle of
   non-zero area, rp_test_frustum_triangle / rp_frustum_contains_point on
   its world vertices. */
static bool brute_mesh_meets(const rp_frustum *f, const test_mesh *m, mat4 model)
{
    for (size_t t = 0; t < m->count; t++) {
        const float *p = m->tris + 9 * t;
        vec3 w[3];
        if (zero_area(p))
            continue;
        if (world_vertex(model, p, w[0]) && world_vertex(model, p + 3, w[1]) &&
            world_vertex(model, p + 6, w[2]) && rp_test_frustum_triangle(f, w[0], w[1], w[2]))
            return true;
    }
    return false;
}

static bool brute_mesh_inside(const rp_frustum *f, const test_mesh *m, mat4 model)
{
    bool any = false;
    for (size_t t = 0; t < m->count; t++) {
        const float *p = m->tris + 9 * t;
        if (zero_area(p))
            continue;
        any = true;
        for (int v = 0; v < 3; v++) {
            vec3 w;
            if (!world_vertex(model, p + 3 * v, w) || !rp_frustum_contains_point(f, w))
                return false;
        }
    }
    return any;
}

/* ---- objects of every kind ----------------------------------------------- */

static void random_quat(test_rng *g, versor q)
{
    vec3 axis = {(float)rng_uniform(g, -1, 1), (float)rng_uniform(g, -1, 1),
                 (float)rng_uniform(g, -1, 1) + 1.5f};
    glm_vec3_normalize(axis);
    glm_quatv(q, (float)rng_uniform(g, 0, 6.28), axis);
}

static float uf(test_rng *g, double lo, double hi)
{
    return (float)rng_uniform(g, lo, hi);
}

/* A random object of kind k around the origin (where ref_camera.h's
   cameras look), of size `size`. meshes: the meshes an instance may use. */
static void random_object(test_rng *g, qo_object *o, qo_kind k, float extent, float size,
                          const test_mesh *meshes, int mesh_count)
{
    memset(o, 0, sizeof *o);
    vec3 c = {uf(g, -extent, extent), uf(g, -extent * 0.4, extent * 0.4),
              uf(g, -extent, extent)};
    float s = size * uf(g, 0.2, 1.0);
    o->kind = k;
    o->mask = UINT32_MAX;
    switch (k) {
    case QO_SPHERE:
        glm_vec3_copy(c, o->sphere.center);
        o->sphere.radius = s;
        break;
    case QO_ELLIPSOID:
        glm_vec3_copy(c, o->ellipsoid.center);
        o->ellipsoid.radii[0] = s;
        o->ellipsoid.radii[1] = size * uf(g, 0.2, 1.0);
        o->ellipsoid.radii[2] = size * uf(g, 0.2, 1.0);
        if (rng_uniform(g, 0, 1) < 0.5)
            random_quat(g, o->ellipsoid.orientation);
        break;
    case QO_AABB:
        for (int i = 0; i < 3; i++) {
            o->aabb.min[i] = c[i] - size * uf(g, 0, 1);
            o->aabb.max[i] = c[i] + size * uf(g, 0, 1);
        }
        break;
    case QO_OBB:
        glm_vec3_copy(c, o->obb.center);
        o->obb.half_extents[0] = s;
        o->obb.half_extents[1] = size * uf(g, 0.1, 1.0);
        o->obb.half_extents[2] = size * uf(g, 0.1, 1.0);
        random_quat(g, o->obb.orientation);
        break;
    case QO_MESH: {
        versor q;
        random_quat(g, q);
        o->mesh = meshes[rng_u32(g) % (uint32_t)mesh_count].mesh;
        glm_mat4_identity(o->model);
        glm_translate(o->model, c);
        glm_quat_rotate(o->model, q, o->model);
        /* sometimes mirrored */
        glm_scale(o->model, (vec3){s * (rng_u32(g) % 5 == 0 ? -1.0f : 1.0f),
                                   size * uf(g, 0.2, 1.0), size * uf(g, 0.2, 1.0)});
        break;
    }
    default: {
        o->npts = k == QO_POINT ? 1 : k == QO_SEGMENT ? 2 : 1 + rng_u32(g) % QO_MAX_LINE;
        for (size_t i = 0; i < o->npts; i++)
            for (int a = 0; a < 3; a++)
                o->pts[i][a] = c[a] + size * uf(g, -1.5, 1.5);
        o->tol.world = rng_u32(g) % 3 == 0 ? 0.0f : size * uf(g, 0.0, 0.2);
        o->tol.per_t = rng_u32(g) % 4 == 0 ? uf(g, 0.0, 0.01) : 0.0f;
        break;
    }
    }
}

/* ---- the ray loop -------------------------------------------------------- */

/* Index of the nearest matching object hit at t <= t_max (lowest index
   on ties), -1 for none; its records. */
static int brute_ray(const qo_object *objs, int n, const rp_ray *ray, const rp_scene_query *q,
                     rp_hit *out, rp_triangle_hit *tri, rp_thin_hit *thin)
{
    const float t_max = q->t_max > 0.0f ? q->t_max : INFINITY;
    int best = -1;
    for (int i = 0; i < n; i++) {
        rp_hit h;
        rp_triangle_hit th;
        rp_thin_hit tth;
        if ((objs[i].mask & qo_layers_of(q)) == 0 || !qo_hit(ray, &objs[i], &q->thin, &h, &th, &tth) ||
            h.t > t_max || (best >= 0 && h.t >= out->t))
            continue;
        best = i;
        *out = h;
        *tri = th;
        *thin = tth;
    }
    return best;
}

/* How many check_ray calls, and how many found something: the tests
   make sure their rays hit (the comparison is not -1 == -1). */
static long rays_checked, rays_hit;

/* The scene's ray query against the loop (and with any_hit, against what
   the loop allows). */
static void check_ray(const rp_scene *s, const qo_object *objs, int n, const rp_ray *ray,
                      const rp_scene_query *q)
{
    rp_hit want, got;
    rp_triangle_hit want_tri, got_tri;
    rp_thin_hit want_thin, got_thin;
    test_poison(&got, sizeof got);
    test_poison(&got_tri, sizeof got_tri);
    test_poison(&got_thin, sizeof got_thin);
    const int expect = brute_ray(objs, n, ray, q, &want, &want_tri, &want_thin);
    const int i = rp_scene_query_ray(s, ray, q, &got, &got_tri, &got_thin);
    rays_checked++;
    rays_hit += i >= 0;
    if (q->any_hit) {
        /* some matching object that its own function hits within t_max */
        if ((i < 0) != (expect < 0))
            fail_msg("any hit: scene %d, loop %d", i, expect);
        if (i < 0)
            return;
        assert_true((objs[i].mask & qo_layers_of(q)) != 0);
        assert_true(qo_hit(ray, &objs[i], &q->thin, &want, &want_tri, &want_thin));
        assert_true(want.t <= (q->t_max > 0.0f ? q->t_max : INFINITY));
    } else if (i != expect) {
        fail_msg("scene %d (t %g), loop %d (t %g), layers %x, t_max %g", i,
                 i >= 0 ? (double)got.t : -1.0, expect, expect >= 0 ? (double)want.t : -1.0,
                 q->layers, (double)q->t_max);
    }
    if (i < 0) {
        assert_true(test_untouched(&got, sizeof got));
        assert_true(test_untouched(&got_tri, sizeof got_tri));
        assert_true(test_untouched(&got_thin, sizeof got_thin));
        return;
    }
    if (!qo_same_hit(&got, &want))
        fail_msg("object %d kind %d: t %.9g vs %.9g, point %g %g %g vs %g %g %g, any %d", i,
                 objs[i].kind, (double)got.t, (double)want.t, got.point[0], got.point[1],
                 got.point[2], want.point[0], want.point[1], want.point[2], q->any_hit);
    const qo_kind k = objs[i].kind;
    if (k == QO_MESH)
        assert_memory_equal(&got_tri, &want_tri, sizeof got_tri);
    else
        assert_true(test_untouched(&got_tri, sizeof got_tri));
    if (k >= QO_POINT)
        assert_memory_equal(&got_thin, &want_thin, sizeof got_thin);
    else
        assert_true(test_untouched(&got_thin, sizeof got_thin));
}

/* Rays from around the scene towards it. */
static void random_ray(test_rng *g, float extent, rp_ray *r)
{
    for (int k = 0; k < 3; k++) {
        r->origin[k] = uf(g, -1.5 * extent, 1.5 * extent);
        r->dir[k] = uf(g, -extent, extent) - r->origin[k];
    }
    if (rng_u32(g) % 4 == 0)
        glm_vec3_normalize(r->dir);
}

/* ---- the frustum loop -------------------------------------------------- */

static size_t brute_frustum(const qo_object *objs, int n, const rp_frustum *f,
                            const rp_scene_query *q, int *out)
{
    size_t total = 0;
    for (int i = 0; i < n; i++)
        if ((objs[i].mask & qo_layers_of(q)) != 0 && qo_selected(f, &objs[i], q->select))
            out[total++] = i;
    return total;
}

/* The scene's frustum query against the loop: the whole list, and with a
   smaller cap its first entries and nothing written past them. */
static size_t check_frustum(const rp_scene *s, const qo_object *objs, int n, const rp_frustum *f,
                            const rp_scene_query *q, test_rng *g)
{
    int *want = malloc((size_t)(n + 1) * sizeof *want);
    int *got = malloc((size_t)(n + 2) * sizeof *got);
    assert_non_null(want);
    assert_non_null(got);
    const size_t total = brute_frustum(objs, n, f, q, want);
    test_poison(got, (size_t)(n + 2) * sizeof *got);
    const size_t all = rp_scene_query_frustum(s, f, q, got, (size_t)n + 1);
    if (all != total) {
        int *w2 = want, *g2 = got;
        for (size_t a = 0, b = 0; a < total || b < all;) {
            if (a < total && (b >= all || want[a] < got[b])) {
                printf("only the loop: %d kind %d\n", w2[a], objs[w2[a]].kind);
                a++;
            } else if (b < all && (a >= total || got[b] < want[a])) {
                printf("only the scene: %d kind %d\n", g2[b], objs[g2[b]].kind);
                b++;
            } else {
                a++;
                b++;
            }
        }
    }
    if (all != total)
        fail_msg("frustum query: %lu objects, the loop %lu (select %d, layers %x)", (unsigned long)all, (unsigned long)total,
                 (int)q->select, q->layers);
    if (total > 0)
        assert_memory_equal(got, want, total * sizeof *got);
    assert_true(test_untouched(got + total, (size_t)(n + 2 - (int)total) * sizeof *got));
    /* a smaller cap: the first ones in order (a bitmap or a heap inside) */
    const size_t cap = total > 0 ? (size_t)rng_u32(g) % total : 0;
    test_poison(got, (size_t)(n + 2) * sizeof *got);
    assert_int_equal(rp_scene_query_frustum(s, f, q, got, cap), total);
    if (cap > 0)
        assert_memory_equal(got, want, cap * sizeof *got);
    assert_true(test_untouched(got + cap, (size_t)(n + 2 - (int)cap) * sizeof *got));
    assert_int_equal(rp_scene_query_frustum(s, f, q, NULL, 5), total);
    free(want);
    free(got);
    return total;
}

/* A rectangle of the camera's viewport: often along an edge or past it. */
static float edge_coord(test_rng *g, float lo, float size)
{
    const double u = rng_uniform(g, 0.0, 1.0);
    if (u < 0.15)
        return lo;
    if (u < 0.3)
        return lo + size;
    if (u < 0.4)
        return lo + size * uf(g, -0.3, 1.3);
    return lo + size * uf(g, 0.0, 1.0);
}

static bool random_rect_frustum(test_rng *g, const ref_camera *cam, rp_frustum *f)
{
    const rp_viewport *vp = &cam->vp;
    for (int tries = 0; tries < 100; tries++) {
        float x0 = edge_coord(g, vp->x, vp->width), x1 = edge_coord(g, vp->x, vp->width);
        float y0 = edge_coord(g, vp->y, vp->height), y1 = edge_coord(g, vp->y, vp->height);
        if (rp_frustum_from_rect(x0, y0, x1, y1, vp, (vec4 *)cam->proj, (vec4 *)cam->view,
                                 cam->conv, f))
            return true;
    }
    return false;
}

/* ---- a random scene ------------------------------------------------------- */

typedef struct world {
    rp_scene *scene;
    qo_object *objs;
    int n;
    test_mesh meshes[3];
    rp_mesh *cube;
    test_mesh cube_tm;
} world;

static void world_make(test_rng *g, world *w, int n, float extent, float size, bool thin)
{
    random_mesh(g, 40, &w->meshes[0]);
    random_mesh(g, 300, &w->meshes[1]);
    /* the cube, kept with its triangles */
    w->cube = cube_mesh();
    static const float cv[8][3] = {{-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, 1, -1},
                                   {-1, -1, 1},  {1, -1, 1},  {1, 1, 1},  {-1, 1, 1}};
    static const int ci[36] = {0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4,
                               2, 3, 7, 2, 7, 6, 1, 2, 6, 1, 6, 5, 0, 4, 7, 0, 7, 3};
    w->meshes[2].mesh = w->cube;
    w->meshes[2].count = 12;
    w->meshes[2].tris = malloc(12 * 9 * sizeof(float));
    assert_non_null(w->meshes[2].tris);
    for (int t = 0; t < 36; t++)
        memcpy(w->meshes[2].tris + 3 * t, cv[ci[t]], 3 * sizeof(float));
    w->scene = rp_scene_create();
    assert_non_null(w->scene);
    w->objs = calloc((size_t)n, sizeof *w->objs);
    assert_non_null(w->objs);
    w->n = n;
    for (int i = 0; i < n; i++) {
        const qo_kind k = (qo_kind)(rng_u32(g) % (thin ? QO_KINDS : QO_POINT));
        random_object(g, &w->objs[i], k, extent, size, w->meshes, 3);
        assert_int_equal(qo_add(w->scene, &w->objs[i]), i);
    }
    assert_true(rp_scene_build(w->scene));
}

static void world_free(world *w)
{
    rp_scene_destroy(w->scene);
    free(w->objs);
    free_mesh(&w->meshes[0]);
    free_mesh(&w->meshes[1]);
    free_mesh(&w->meshes[2]);
}

/* Random masks over a few layers (some objects in none: mask 0). */
static void random_masks(test_rng *g, world *w, qo_object *view)
{
    for (int i = 0; i < w->n; i++) {
        const uint32_t r = rng_u32(g) % 8;
        const uint32_t mask = r == 0 ? 0u : r == 1 ? UINT32_MAX : 1u << (rng_u32(g) % 4);
        assert_true(rp_scene_set_mask(w->scene, i, mask));
        view[i].mask = mask;
    }
}

static void random_query(test_rng *g, rp_scene_query *q, bool any_allowed)
{
    memset(q, 0, sizeof *q);
    const uint32_t r = rng_u32(g) % 6;
    q->layers = r == 0 ? 0u : r == 1 ? 3u : r == 2 ? UINT32_MAX : 1u << (rng_u32(g) % 5);
    if (rng_u32(g) % 3 == 0)
        q->t_max = uf(g, 0.1, 2.0);
    q->any_hit = any_allowed && rng_u32(g) % 4 == 0;
    q->select = (rp_scene_select)(rng_u32(g) % 3);
}

/* ---- tests ------------------------------------------------------------------ */

/* rp_intersect_ray_scene is the zero query: the same index and the same
   records on every ray, with and without thin objects. */
static void zero_query_is_intersect_ray_scene(void **state)
{
    (void)state;
    test_rng g = {0x5ce7e001u};
    for (int round = 0; round < 2; round++) {
        world w;
        world_make(&g, &w, 600, 12.0f, 1.5f, round == 1);
        const rp_scene_query zero = {0};
        for (int r = 0; r < (int)test_scaled(400, 60); r++) {
            rp_ray ray;
            random_ray(&g, 12.0f, &ray);
            rp_hit a, b, c;
            rp_triangle_hit ta, tb, tc;
            test_poison(&ta, sizeof ta);
            test_poison(&tb, sizeof tb);
            test_poison(&tc, sizeof tc);
            const int i = rp_intersect_ray_scene(w.scene, &ray, &a, &ta);
            assert_int_equal(rp_scene_query_ray(w.scene, &ray, &zero, &b, &tb, NULL), i);
            assert_int_equal(rp_scene_query_ray(w.scene, &ray, NULL, &c, &tc, NULL), i);
            check_ray(w.scene, w.objs, w.n, &ray, &zero);
            if (i < 0)
                continue;
            assert_true(qo_same_hit(&a, &b) && qo_same_hit(&a, &c));
            assert_memory_equal(&ta, &tb, sizeof ta);
            assert_memory_equal(&ta, &tc, sizeof ta);
        }
        world_free(&w);
    }
}

/* Masks, t_max and any hit against the filtered loop, through moves,
   mask changes, refits and rebuilds; each change seen only after the
   build. */
static void ray_query_equals_filtered_loop(void **state)
{
    (void)state;
    test_rng g = {0x1a7e25u};
    rays_checked = rays_hit = 0;
    world w;
    world_make(&g, &w, 700, 10.0f, 1.5f, true);
    qo_object *pending = malloc((size_t)w.n * sizeof *pending);
    assert_non_null(pending);
    memcpy(pending, w.objs, (size_t)w.n * sizeof *pending);
    for (int round = 0; round < 6; round++) {
        /* round 0: no mask ever set; then masks, moves, both */
        if (round >= 1 && round != 3)
            random_masks(&g, &w, pending);
        if (round >= 2) {
            for (int m = 0; m < w.n / 3; m++) {
                const int i = (int)(rng_u32(&g) % (uint32_t)w.n);
                qo_object o;
                /* small moves (a refit) or far ones (the refit's cost may
                   ask for a rebuild) */
                random_object(&g, &o, pending[i].kind, round == 4 ? 30.0f : 10.0f, 1.5f,
                              w.meshes, 3);
                o.mask = pending[i].mask;
                o.mesh = pending[i].mesh;   /* a set moves an instance, same mesh */
                assert_true(qo_set(w.scene, i, &o));
                pending[i] = o;
            }
        }
        /* before the build, queries see the last one */
        for (int r = 0; r < (int)test_scaled(60, 10); r++) {
            rp_ray ray;
            rp_scene_query q;
            random_ray(&g, 10.0f, &ray);
            random_query(&g, &q, true);
            check_ray(w.scene, w.objs, w.n, &ray, &q);
        }
        assert_true(rp_scene_build(w.scene));
        memcpy(w.objs, pending, (size_t)w.n * sizeof *pending);
        for (int r = 0; r < (int)test_scaled(250, 40); r++) {
            rp_ray ray;
            rp_scene_query q;
            random_ray(&g, 10.0f, &ray);
            random_query(&g, &q, true);
            check_ray(w.scene, w.objs, w.n, &ray, &q);
        }
    }
    /* adds: a rebuild, masks carried over to the new tree */
    w.objs = realloc(w.objs, (size_t)(w.n + 50) * sizeof *w.objs);
    assert_non_null(w.objs);
    for (int i = 0; i < 50; i++) {
        qo_object *o = &w.objs[w.n + i];
        random_object(&g, o, (qo_kind)(rng_u32(&g) % QO_KINDS), 10.0f, 1.5f, w.meshes, 3);
        assert_int_equal(qo_add(w.scene, o), w.n + i);
        if (i % 2) {
            o->mask = 2u;
            assert_true(rp_scene_set_mask(w.scene, w.n + i, 2u));
        }
    }
    w.n += 50;
    assert_true(rp_scene_build(w.scene));
    for (int r = 0; r < (int)test_scaled(250, 40); r++) {
        rp_ray ray;
        rp_scene_query q;
        random_ray(&g, 10.0f, &ray);
        random_query(&g, &q, true);
        check_ray(w.scene, w.objs, w.n, &ray, &q);
    }
    assert_true(rays_hit > rays_checked / 4);
    free(pending);
    world_free(&w);
}

/* t_max: a hit exactly at t_max counts, one past it does not; 0 is no
   limit, +inf too; negative and NaN are refused, outputs untouched. */
static void t_max_semantics(void **state)
{
    (void)state;
    rp_scene *s = rp_scene_create();
    const rp_sphere near_sphere = {{0, 0, -5}, 1}, far_sphere = {{0, 0, -20}, 1};
    assert_int_equal(rp_scene_add_sphere(s, &far_sphere), 0);
    assert_int_equal(rp_scene_add_sphere(s, &near_sphere), 1);
    assert_true(rp_scene_build(s));
    const rp_ray ray = {{0, 0, 0}, {0, 0, -1}};
    rp_hit h;
    rp_scene_query q = {0};
    assert_int_equal(rp_scene_query_ray(s, &ray, &q, &h, NULL, NULL), 1);
    const float t = h.t;
    assert_float_equal(t, 4.0f, 1e-6f);
    q.t_max = t;
    assert_int_equal(rp_scene_query_ray(s, &ray, &q, &h, NULL, NULL), 1);
    q.t_max = nextafterf(t, 0.0f);
    assert_int_equal(rp_scene_query_ray(s, &ray, &q, &h, NULL, NULL), -1);
    q.t_max = INFINITY;
    assert_int_equal(rp_scene_query_ray(s, &ray, &q, &h, NULL, NULL), 1);
    /* the near one hidden: the far one, only within reach */
    assert_true(rp_scene_set_mask(s, 1, 0));
    assert_true(rp_scene_build(s));
    q.t_max = 0.0f;
    assert_int_equal(rp_scene_query_ray(s, &ray, &q, &h, NULL, NULL), 0);
    assert_float_equal(h.t, 19.0f, 1e-5f);
    q.t_max = 18.0f;
    assert_int_equal(rp_scene_query_ray(s, &ray, &q, NULL, NULL, NULL), -1);
    const float bad[] = {-1.0f, -FLT_MIN, NAN, -INFINITY};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        q.t_max = bad[i];
        test_poison(&h, sizeof h);
        assert_int_equal(rp_scene_query_ray(s, &ray, &q, &h, NULL, NULL), -1);
        assert_true(test_untouched(&h, sizeof h));
    }
    rp_scene_destroy(s);
}

/* Any hit stops at the first object found within t_max: along a row of
   spheres it is one of them (not necessarily the nearest), and none when
   the row lies beyond t_max. */
static void any_hit_semantics(void **state)
{
    (void)state;
    rp_scene *s = rp_scene_create();
    for (int i = 0; i < 200; i++) {
        const rp_sphere sp = {{0, 0, -3.0f - (float)i}, 0.4f};
        assert_int_equal(rp_scene_add_sphere(s, &sp), i);
    }
    assert_true(rp_scene_build(s));
    const rp_ray ray = {{0, 0, 0}, {0, 0, -1}};
    rp_scene_query q = {0};
    q.any_hit = true;
    rp_hit h;
    const int i = rp_scene_query_ray(s, &ray, &q, &h, NULL, NULL);
    assert_true(i >= 0 && i < 200);
    rp_hit own;
    assert_true(rp_intersect_ray_sphere(&ray, &(rp_sphere){{0, 0, -3.0f - (float)i}, 0.4f}, &own));
    assert_true(qo_same_hit(&h, &own));
    q.t_max = 2.5f;
    assert_int_equal(rp_scene_query_ray(s, &ray, &q, &h, NULL, NULL), -1);
    q.t_max = 2.7f;   /* only the first sphere starts before it (t 2.6) */
    assert_int_equal(rp_scene_query_ray(s, &ray, &q, &h, NULL, NULL), 0);
    /* layers: only odd spheres */
    for (int k = 0; k < 200; k++)
        assert_true(rp_scene_set_mask(s, k, k % 2 ? 4u : 1u));
    assert_true(rp_scene_build(s));
    q.t_max = 0.0f;
    q.layers = 4u;
    const int odd = rp_scene_query_ray(s, &ray, &q, &h, NULL, NULL);
    assert_true(odd >= 0 && odd % 2 == 1);
    q.any_hit = false;
    assert_int_equal(rp_scene_query_ray(s, &ray, &q, &h, NULL, NULL), 1);
    rp_scene_destroy(s);
}

/* Mask 0 hides an object from every query, the fixed functions included;
   masks change nothing before the build. */
static void mask_zero_matches_nothing(void **state)
{
    (void)state;
    rp_scene *s = rp_scene_create();
    const rp_sphere sp = {{0, 0, -5}, 1};
    const rp_thin_tolerance tol = {0.1f, 0.0f};
    assert_int_equal(rp_scene_add_sphere(s, &sp), 0);
    assert_int_equal(rp_scene_add_point(s, (vec3){0, 0, -2}, &tol), 1);
    assert_true(rp_scene_build(s));
    const rp_ray ray = {{0, 0, 0}, {0, 0, -1}};
    assert_int_equal(rp_intersect_ray_scene(s, &ray, NULL, NULL), 1);
    assert_true(rp_scene_set_mask(s, 1, 0));
    assert_int_equal(rp_intersect_ray_scene(s, &ray, NULL, NULL), 1);   /* not built yet */
    assert_true(rp_scene_build(s));
    assert_int_equal(rp_intersect_ray_scene(s, &ray, NULL, NULL), 0);
    assert_true(rp_scene_set_mask(s, 0, 0));
    assert_true(rp_scene_build(s));
    rp_hit h;
    test_poison(&h, sizeof h);
    assert_int_equal(rp_intersect_ray_scene(s, &ray, &h, NULL), -1);
    assert_true(test_untouched(&h, sizeof h));
    rp_scene_trace trace = {0};
    assert_int_equal(rp_intersect_ray_scene_traced(s, &ray, &trace, NULL, NULL), -1);
    rp_scene_query q = {0};
    q.layers = UINT32_MAX;
    assert_int_equal(rp_scene_query_ray(s, &ray, &q, NULL, NULL, NULL), -1);
    /* nor does a frustum around everything list them */
    mat4 proj, view;
    glm_perspective_rh_no(glm_rad(60.0f), 1.0f, 0.1f, 100.0f, proj);
    glm_lookat_rh((vec3){0, 0, 3}, (vec3){0, 0, 0}, (vec3){0, 1, 0}, view);
    rp_frustum f;
    assert_true(rp_frustum_from_camera(proj, view, RP_GL, &f));
    int out[4] = {-7, -7, -7, -7};
    assert_int_equal(rp_scene_query_frustum(s, &f, NULL, out, 4), 0);
    assert_int_equal(out[0], -7);
    assert_true(rp_scene_set_mask(s, 0, 8u));
    assert_true(rp_scene_build(s));
    assert_int_equal(rp_scene_query_frustum(s, &f, NULL, out, 4), 1);
    assert_int_equal(out[0], 0);
    q.layers = 7u;
    assert_int_equal(rp_scene_query_frustum(s, &f, &q, out, 4), 0);
    rp_scene_destroy(s);
}

/* The frustum query against the loop over every object's own test:
   random scenes of every kind, random cameras of every kind and both
   conventions, rectangles along and past the viewport's edges, the three
   selections, with layers; then after masks and moves. */
static void frustum_query_equals_brute_force(void **state)
{
    (void)state;
    test_rng g = {0xf2057e11u};
    size_t selected = 0, checks = 0;
    for (int round = 0; round < 3; round++) {
        world w;
        world_make(&g, &w, round == 2 ? 2500 : 900, round == 0 ? 8.0f : 15.0f,
                   round == 2 ? 0.8f : 1.8f, true);
        for (int step = 0; step < 3; step++) {
            if (step == 1) {
                random_masks(&g, &w, w.objs);
                assert_true(rp_scene_build(w.scene));
            } else if (step == 2) {
                for (int m = 0; m < w.n / 4; m++) {
                    const int i = (int)(rng_u32(&g) % (uint32_t)w.n);
                    qo_object o;
                    random_object(&g, &o, w.objs[i].kind, 15.0f, 1.8f, w.meshes, 3);
                    o.mask = w.objs[i].mask;
                    o.mesh = w.objs[i].mesh;
                    assert_true(qo_set(w.scene, i, &o));
                    w.objs[i] = o;
                }
                assert_true(rp_scene_build(w.scene));
            }
            for (int c = 0; c < (int)test_scaled(14, 5); c++) {
                ref_camera cam;
                ref_camera_random(&g, c % REF_CAMERA_KINDS, &cam);
                rp_frustum f;
                if (c % 5 == 4)
                    assert_true(rp_frustum_from_camera(cam.proj, cam.view, cam.conv, &f));
                else if (!random_rect_frustum(&g, &cam, &f))
                    continue;
                for (int m = 0; m < 3; m++) {
                    rp_scene_query q;
                    random_query(&g, &q, false);
                    q.select = (rp_scene_select)m;
                    selected += check_frustum(w.scene, w.objs, w.n, &f, &q, &g);
                    checks++;
                }
            }
        }
        world_free(&w);
    }
    /* the random cameras do select things (the comparison is not 0 == 0) */
    assert_true(selected > checks * 5);
}

/* The exact mesh tests against the loop over the mesh's triangles: random
   meshes (zero-area triangles among them) under random, mirrored and
   singular models, random cameras and rectangles. */
static void mesh_instance_exact_equals_triangle_loop(void **state)
{
    (void)state;
    test_rng g = {0x3e54u};
    test_mesh m;
    random_mesh(&g, 500, &m);
    int meets = 0, inside = 0, bounds_only = 0;
    for (int c = 0; c < 300; c++) {
        ref_camera cam;
        ref_camera_random(&g, c % REF_CAMERA_KINDS, &cam);
        rp_frustum f;
        if (!random_rect_frustum(&g, &cam, &f))
            continue;
        mat4 model;
        versor q;
        random_quat(&g, q);
        glm_mat4_identity(model);
        glm_translate(model, (vec3){uf(&g, -8, 8), uf(&g, -3, 3), uf(&g, -8, 8)});
        glm_quat_rotate(model, q, model);
        const float sc = uf(&g, 0.3, 4.0);
        glm_scale(model, (vec3){sc * (c % 7 == 0 ? -1.0f : 1.0f), sc, sc * uf(&g, 0.5, 1.5)});
        if (c % 29 == 3)
            glm_vec4_zero(model[2]);   /* singular: the mesh flattened */
        const bool want_meets = brute_mesh_meets(&f, &m, model);
        const bool want_inside = brute_mesh_inside(&f, &m, model);
        assert_int_equal(rp_test_frustum_mesh_instance_exact(&f, m.mesh, model), want_meets);
        assert_int_equal(rp_frustum_contains_mesh_instance(&f, m.mesh, model), want_inside);
        /* contains => exact => conservative */
        if (want_inside)
            assert_true(want_meets);
        if (want_meets)
            assert_true(rp_test_frustum_mesh_instance_conservative(&f, m.mesh, model));
        meets += want_meets;
        inside += want_inside;
        bounds_only += !want_meets && rp_test_frustum_mesh_instance_conservative(&f, m.mesh, model);
    }
    /* every outcome occurred */
    assert_true(meets > 20 && inside > 5 && bounds_only > 0);
    free_mesh(&m);
}

/* A mesh whose bounds meet the frustum but whose triangles do not: the
   exact test says no, the conservative one yes. And a mesh of zero-area
   triangles only meets nothing. */
static void mesh_instance_exact_sees_holes(void **state)
{
    (void)state;
    /* two far triangles: bounds [-10, 10]^2, nothing in the middle */
    const float tris[18] = {-10, -10, 0, -9, -10, 0, -10, -9, 0, 10, 10, 0, 9, 10, 0, 10, 9, 0};
    rp_mesh *m = rp_mesh_create(tris, 6, 0, NULL, 2);
    mat4 proj, view, model = GLM_MAT4_IDENTITY_INIT;
    glm_perspective_rh_no(glm_rad(60.0f), 1.0f, 0.1f, 100.0f, proj);
    glm_lookat_rh((vec3){0, 0, 30}, (vec3){0, 0, 0}, (vec3){0, 1, 0}, view);
    const rp_viewport vp = {0, 0, 400, 400};
    rp_frustum f;   /* a small box around the screen's centre */
    assert_true(rp_frustum_from_rect(190, 190, 210, 210, &vp, proj, view, RP_GL, &f));
    assert_true(rp_test_frustum_mesh_instance_conservative(&f, m, model));
    assert_false(rp_test_frustum_mesh_instance_exact(&f, m, model));
    assert_false(rp_frustum_contains_mesh_instance(&f, m, model));
    rp_frustum whole;   /* about 17 units each way at the mesh's depth */
    assert_true(rp_frustum_from_camera(proj, view, RP_GL, &whole));
    assert_true(rp_test_frustum_mesh_instance_exact(&whole, m, model));
    assert_true(rp_frustum_contains_mesh_instance(&whole, m, model));
    glm_translate(model, (vec3){12, 0, 0});   /* one triangle out of view */
    assert_true(rp_test_frustum_mesh_instance_exact(&whole, m, model));
    assert_false(rp_frustum_contains_mesh_instance(&whole, m, model));
    glm_translate(model, (vec3){20, 0, 0});   /* both */
    assert_false(rp_test_frustum_mesh_instance_exact(&whole, m, model));
    assert_false(rp_test_frustum_mesh_instance_conservative(&whole, m, model));
    /* in a scene: the selection tells the two modes apart */
    rp_scene *s = rp_scene_create();
    assert_int_equal(rp_scene_add_mesh(s, m, GLM_MAT4_IDENTITY), 0);
    assert_true(rp_scene_build(s));
    rp_scene_query q = {0};
    assert_int_equal(rp_scene_query_frustum(s, &f, &q, NULL, 0), 0);
    q.select = RP_SELECT_MEETS_CONSERVATIVE;
    assert_int_equal(rp_scene_query_frustum(s, &f, &q, NULL, 0), 1);
    rp_scene_destroy(s);
    rp_mesh_destroy(m);

    const float flat[9] = {0, 0, 0, 1, 1, 1, 2, 2, 2};
    rp_mesh *line = rp_mesh_create(flat, 3, 0, NULL, 1);
    assert_non_null(line);
    assert_true(rp_test_frustum_mesh_instance_conservative(&whole, line, GLM_MAT4_IDENTITY));
    assert_false(rp_test_frustum_mesh_instance_exact(&whole, line, GLM_MAT4_IDENTITY));
    assert_false(rp_frustum_contains_mesh_instance(&whole, line, GLM_MAT4_IDENTITY));
    s = rp_scene_create();
    assert_int_equal(rp_scene_add_mesh(s, line, GLM_MAT4_IDENTITY), 0);
    assert_true(rp_scene_build(s));
    q.select = RP_SELECT_MEETS;
    assert_int_equal(rp_scene_query_frustum(s, &whole, &q, NULL, 0), 0);
    q.select = RP_SELECT_INSIDE;
    assert_int_equal(rp_scene_query_frustum(s, &whole, &q, NULL, 0), 0);
    rp_scene_destroy(s);
    rp_mesh_destroy(line);
}

/* Thin objects picked with a pixel tolerance made for each pick ray (the
   query's) on top of their own, against the loop; the hit records as
   scene.h defines them. */
static void thin_objects_with_pixel_tolerance(void **state)
{
    (void)state;
    test_rng g = {0x7410u};
    world w;
    world_make(&g, &w, 800, 10.0f, 1.0f, true);
    int thin_hits = 0;
    const int cameras = (int)test_scaled(40, 10);
    for (int c = 0; c < cameras; c++) {
        ref_camera cam;
        ref_camera_random(&g, c % REF_CAMERA_KINDS, &cam);
        for (int r = 0; r < 30; r++) {
            const float x = cam.vp.x + uf(&g, 0, cam.vp.width);
            const float y = cam.vp.y + uf(&g, 0, cam.vp.height);
            rp_ray ray;
            if (!rp_pick_ray_unproject(x, y, &cam.vp, cam.proj, cam.view, cam.conv, &ray))
                continue;
            rp_scene_query q = {0};
            assert_true(rp_thin_tolerance_pixels(uf(&g, 0, 8), x, y, &cam.vp, cam.proj,
                                                 cam.view, cam.conv, &ray, &q.thin));
            if (r % 3 == 0)
                q.layers = 1u;
            check_ray(w.scene, w.objs, w.n, &ray, &q);
            const int i = rp_scene_query_ray(w.scene, &ray, &q, NULL, NULL, NULL);
            thin_hits += i >= 0 && w.objs[i].kind >= QO_POINT;
        }
    }
    print_message("thin objects picked: %d, by %d cameras' rays\n", thin_hits, cameras);
    assert_true(thin_hits > cameras / 2);     /* 40 cameras: more than 20 */
    world_free(&w);
}

/* One segment's records exactly: t at closest approach, the ray's point,
   the normal from the segment towards it, the segment's point in *thin,
   tri untouched; a point on the ray itself: the normal faces the ray. */
static void thin_hit_records(void **state)
{
    (void)state;
    rp_scene *s = rp_scene_create();
    const rp_thin_tolerance tol = {0.5f, 0.0f};
    assert_int_equal(rp_scene_add_segment(s, (vec3){-1, 0.25f, -4}, (vec3){1, 0.25f, -4}, &tol),
                     0);
    assert_int_equal(rp_scene_add_point(s, (vec3){0, 0, -8}, &tol), 1);
    assert_true(rp_scene_build(s));
    const rp_ray ray = {{0, 0, 0}, {0, 0, -2}};
    rp_hit h;
    rp_triangle_hit tri;
    rp_thin_hit th;
    test_poison(&tri, sizeof tri);
    assert_int_equal(rp_scene_query_ray(s, &ray, NULL, &h, &tri, &th), 0);
    assert_float_equal(h.t, 2.0f, 1e-6f);
    assert_true(h.t_enter == h.t && h.t_exit == h.t && !h.inside);
    assert_float_equal(h.point[2], -4.0f, 1e-6f);
    assert_float_equal(h.normal[1], -1.0f, 1e-6f);   /* from the segment down to the ray */
    assert_float_equal(th.point[1], 0.25f, 1e-6f);
    assert_float_equal(th.distance, 0.25f, 1e-6f);
    assert_true(test_untouched(&tri, sizeof tri));
    /* the segment hidden: the point, on the ray */
    assert_true(rp_scene_set_mask(s, 0, 0));
    assert_true(rp_scene_build(s));
    assert_int_equal(rp_intersect_ray_scene(s, &ray, &h, &tri), 1);
    assert_float_equal(h.t, 4.0f, 1e-6f);
    assert_float_equal(h.normal[2], 1.0f, 1e-6f);   /* -dir */
    /* beyond its tolerance: a miss, unless the query adds some */
    assert_true(rp_scene_set_point(s, 1, (vec3){0, 0.7f, -8}, &tol));
    assert_true(rp_scene_build(s));
    assert_int_equal(rp_intersect_ray_scene(s, &ray, NULL, NULL), -1);
    rp_scene_query q = {0};
    q.thin.world = 0.25f;
    assert_int_equal(rp_scene_query_ray(s, &ray, &q, NULL, NULL, &th), 1);
    assert_float_equal(th.distance, 0.7f, 1e-6f);
    rp_scene_destroy(s);
}

/* A polyline's points are the scene's copy: the caller's array may change;
   a set replaces them, seen after the build (queries in between see the
   old points, still alive). */
static void polylines_are_copied(void **state)
{
    (void)state;
    rp_scene *s = rp_scene_create();
    float path[4][4] = {{-5, 0, -5, 9}, {0, 0, -5, 9}, {0, 0, -10, 9}, {5, 0, -10, 9}};
    const rp_thin_tolerance tol = {0.2f, 0.0f};
    assert_int_equal(rp_scene_add_polyline(s, &path[0][0], 4, sizeof path[0], &tol), 0);
    memset(path, 0, sizeof path);
    assert_true(rp_scene_build(s));
    const rp_ray down = {{0, 5, -7}, {0, -1, 0}};
    rp_thin_hit th;
    assert_int_equal(rp_scene_query_ray(s, &down, NULL, NULL, NULL, &th), 0);
    assert_int_equal(th.index, 1);
    const float moved[2][3] = {{10, 0, 0}, {20, 0, 0}};
    assert_true(rp_scene_set_polyline(s, 0, &moved[0][0], 2, 0, &tol));
    assert_true(rp_scene_set_polyline(s, 0, &moved[0][0], 2, 0, &tol));   /* twice */
    assert_int_equal(rp_scene_query_ray(s, &down, NULL, NULL, NULL, &th), 0);   /* old points */
    assert_true(rp_scene_build(s));
    assert_int_equal(rp_scene_query_ray(s, &down, NULL, NULL, NULL, NULL), -1);
    const rp_ray there = {{15, 5, 0}, {0, -1, 0}};
    assert_int_equal(rp_scene_query_ray(s, &there, NULL, NULL, NULL, &th), 0);
    assert_float_equal(th.point[0], 15.0f, 1e-5f);
    rp_scene_destroy(s);
}

/* Bad input: NaN or negative tolerances, NULL tolerances, bad points and
   strides, wrong indices and kinds are refused and change nothing; a NaN
   or zero frustum, an unknown selection or bad query fields select
   nothing, outputs untouched. */
static void bad_input_is_refused(void **state)
{
    (void)state;
    rp_scene *s = rp_scene_create();
    const rp_thin_tolerance ok = {0.1f, 0.0f}, nan_w = {NAN, 0.0f}, nan_p = {0.0f, NAN},
                            neg = {-0.1f, 0.0f}, inf = {INFINITY, 0.0f};
    const rp_thin_tolerance *bad_tol[] = {NULL, &nan_w, &nan_p, &neg, &inf};
    const vec3 p = {1, 2, 3}, q = {2, 3, 4}, nan_p3 = {NAN, 0, 0};
    for (size_t i = 0; i < sizeof bad_tol / sizeof bad_tol[0]; i++) {
        assert_int_equal(rp_scene_add_point(s, p, bad_tol[i]), -1);
        assert_int_equal(rp_scene_add_segment(s, p, q, bad_tol[i]), -1);
        assert_int_equal(rp_scene_add_polyline(s, p, 1, 0, bad_tol[i]), -1);
    }
    assert_int_equal(rp_scene_add_point(NULL, p, &ok), -1);
    assert_int_equal(rp_scene_add_point(s, NULL, &ok), -1);
    assert_int_equal(rp_scene_add_point(s, nan_p3, &ok), -1);
    assert_int_equal(rp_scene_add_segment(s, p, nan_p3, &ok), -1);
    assert_int_equal(rp_scene_add_segment(s, p, NULL, &ok), -1);
    const float line[6] = {0, 0, 0, 1, NAN, 1};
    assert_int_equal(rp_scene_add_polyline(s, line, 2, 0, &ok), -1);
    assert_int_equal(rp_scene_add_polyline(s, line, 1, 13, &ok), -1);   /* stride */
    assert_int_equal(rp_scene_add_polyline(s, line, 1, 8, &ok), -1);
    assert_int_equal(rp_scene_add_polyline(s, line, 0, 0, &ok), -1);
    assert_int_equal(rp_scene_add_polyline(s, NULL, 1, 0, &ok), -1);
    const vec3 huge = {3e38f, 0, 0};
    const rp_thin_tolerance wide = {3e38f, 0.0f};
    assert_int_equal(rp_scene_add_point(s, huge, &wide), -1);   /* bounds overflow */

    /* nothing was added: the next index is 0 */
    assert_int_equal(rp_scene_add_point(s, p, &ok), 0);
    assert_int_equal(rp_scene_add_sphere(s, &(rp_sphere){{0, 0, -5}, 1}), 1);
    assert_int_equal(rp_scene_add_polyline(s, line, 1, 0, &ok), 2);
    assert_false(rp_scene_set_point(s, 1, p, &ok));            /* a sphere */
    assert_false(rp_scene_set_segment(s, 0, p, q, &ok));       /* a point */
    assert_false(rp_scene_set_polyline(s, 0, line, 1, 0, &ok));
    assert_false(rp_scene_set_point(s, 0, p, &nan_w));
    assert_false(rp_scene_set_point(s, 0, nan_p3, &ok));
    assert_false(rp_scene_set_polyline(s, 2, line, 2, 0, &ok));   /* NaN point */
    assert_false(rp_scene_set_point(s, 7, p, &ok));
    assert_false(rp_scene_set_mask(s, 3, 1));
    assert_false(rp_scene_set_mask(s, -1, 1));
    assert_false(rp_scene_set_mask(NULL, 0, 1));

    /* queries before the first build see nothing */
    const rp_ray ray = {{1, 2, 10}, {0, 0, -1}};
    assert_int_equal(rp_scene_query_ray(s, &ray, NULL, NULL, NULL, NULL), -1);
    assert_true(rp_scene_build(s));
    assert_int_equal(rp_scene_query_ray(s, &ray, NULL, NULL, NULL, NULL), 0);
    rp_scene_query qn = {0};
    qn.thin.world = NAN;
    rp_hit h;
    rp_thin_hit th;
    test_poison(&h, sizeof h);
    test_poison(&th, sizeof th);
    assert_int_equal(rp_scene_query_ray(s, &ray, &qn, &h, NULL, &th), -1);
    qn.thin.world = 0.0f;
    qn.thin.per_t = -1.0f;
    assert_int_equal(rp_scene_query_ray(s, &ray, &qn, &h, NULL, &th), -1);
    assert_true(test_untouched(&h, sizeof h) && test_untouched(&th, sizeof th));
    const rp_ray zero_dir = {{0, 0, 0}, {0, 0, 0}};
    assert_int_equal(rp_scene_query_ray(s, &zero_dir, NULL, &h, NULL, &th), -1);
    assert_int_equal(rp_scene_query_ray(NULL, &ray, NULL, &h, NULL, &th), -1);
    assert_int_equal(rp_scene_query_ray(s, NULL, NULL, &h, NULL, &th), -1);

    /* frustums: a good one selects, NaN / zero / bad selection do not */
    mat4 proj, view;
    glm_perspective_rh_zo(glm_rad(60.0f), 1.0f, 0.1f, 100.0f, proj);
    glm_lookat_rh((vec3){0, 0, 10}, (vec3){0, 0, 0}, (vec3){0, 1, 0}, view);
    const rp_viewport vp = {0, 0, 300, 300};
    rp_frustum f;
    assert_true(rp_frustum_from_rect(0, 0, 300, 300, &vp, proj, view, RP_D3D, &f));
    int out[4];
    assert_int_equal(rp_scene_query_frustum(s, &f, NULL, out, 4), 3);
    test_poison(out, sizeof out);
    rp_frustum bad = f;
    bad.planes[2].d = NAN;
    assert_int_equal(rp_scene_query_frustum(s, &bad, NULL, out, 4), 0);
    bad = f;
    bad.corners[5][1] = INFINITY;
    assert_int_equal(rp_scene_query_frustum(s, &bad, NULL, out, 4), 0);
    const rp_frustum zero = {0};
    assert_int_equal(rp_scene_query_frustum(s, &zero, NULL, out, 4), 0);
    assert_int_equal(rp_scene_query_frustum(s, NULL, NULL, out, 4), 0);
    assert_int_equal(rp_scene_query_frustum(NULL, &f, NULL, out, 4), 0);
    rp_scene_query qs = {0};
    qs.select = (rp_scene_select)3;
    assert_int_equal(rp_scene_query_frustum(s, &f, &qs, out, 4), 0);
    qs.select = (rp_scene_select)-1;
    assert_int_equal(rp_scene_query_frustum(s, &f, &qs, out, 4), 0);
    assert_true(test_untouched(out, sizeof out));
    /* ray fields do not matter to a frustum */
    qs.select = RP_SELECT_MEETS;
    qs.t_max = NAN;
    assert_int_equal(rp_scene_query_frustum(s, &f, &qs, out, 4), 3);
    /* an empty or inverted-to-nothing rectangle gives no frustum at all */
    assert_false(rp_frustum_from_rect(100, 100, 100, 200, &vp, proj, view, RP_D3D, &f));
    assert_false(rp_frustum_from_rect(400, 100, 350, 200, &vp, proj, view, RP_D3D, &f));
    /* and a frustum whose planes face away from each other holds nothing */
    assert_true(rp_frustum_from_rect(0, 0, 300, 300, &vp, proj, view, RP_D3D, &f));
    for (int k = 0; k < 6; k++) {
        glm_vec3_negate(f.planes[k].normal);
        f.planes[k].d = -f.planes[k].d;
    }
    assert_int_equal(rp_scene_query_frustum(s, &f, NULL, NULL, 0), 0);
    rp_scene_destroy(s);
    /* an empty scene */
    s = rp_scene_create();
    assert_true(rp_scene_build(s));
    assert_int_equal(rp_scene_query_frustum(s, &zero, NULL, NULL, 0), 0);
    assert_int_equal(rp_scene_query_ray(s, &ray, NULL, NULL, NULL, NULL), -1);
    rp_scene_destroy(s);
}

/* Masks on a scene the traced query walks: the same answer as the
   untraced one (both hide mask-0 objects, both walk the filtered tree);
   a layer of every 50th object: the queries find exactly those. */
static void traced_query_with_masks(void **state)
{
    (void)state;
    test_rng g = {0x77ace5u};
    world w;
    world_make(&g, &w, 1500, 12.0f, 1.0f, false);
    for (int i = 0; i < w.n; i++) {
        w.objs[i].mask = i % 50 == 0 ? 2u : i % 7 == 0 ? 0u : 1u;
        assert_true(rp_scene_set_mask(w.scene, i, w.objs[i].mask));
    }
    assert_true(rp_scene_build(w.scene));
    for (int r = 0; r < 200; r++) {
        rp_ray ray;
        random_ray(&g, 12.0f, &ray);
        rp_scene_trace trace = {0};
        rp_hit a, b;
        const int i = rp_intersect_ray_scene(w.scene, &ray, &a, NULL);
        assert_int_equal(rp_intersect_ray_scene_traced(w.scene, &ray, &trace, &b, NULL), i);
        assert_true(i < 0 || (qo_same_hit(&a, &b) && w.objs[i].mask != 0));
        assert_true(trace.visit_count == trace.nodes_visited + trace.leaves_visited);
        rp_scene_query q = {0};
        check_ray(w.scene, w.objs, w.n, &ray, &q);
        q.layers = 2u;
        check_ray(w.scene, w.objs, w.n, &ray, &q);
        q.any_hit = true;
        check_ray(w.scene, w.objs, w.n, &ray, &q);
    }
    /* a frustum around everything lists layer 2: indices 0, 50, 100, ... */
    mat4 proj, view;
    glm_ortho_rh_no(-40, 40, -40, 40, 0.1f, 200, proj);
    glm_lookat_rh((vec3){0, 0, 60}, (vec3){0, 0, 0}, (vec3){0, 1, 0}, view);
    rp_frustum f;
    assert_true(rp_frustum_from_camera(proj, view, RP_GL, &f));
    rp_scene_query q = {0};
    q.layers = 2u;
    int out[40];
    assert_int_equal(rp_scene_query_frustum(w.scene, &f, &q, out, 40), 30);
    for (int k = 0; k < 30; k++)
        assert_int_equal(out[k], 50 * k);
    world_free(&w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(zero_query_is_intersect_ray_scene),
        cmocka_unit_test(ray_query_equals_filtered_loop),
        cmocka_unit_test(t_max_semantics),
        cmocka_unit_test(any_hit_semantics),
        cmocka_unit_test(mask_zero_matches_nothing),
        cmocka_unit_test(frustum_query_equals_brute_force),
        cmocka_unit_test(mesh_instance_exact_equals_triangle_loop),
        cmocka_unit_test(mesh_instance_exact_sees_holes),
        cmocka_unit_test(thin_objects_with_pixel_tolerance),
        cmocka_unit_test(thin_hit_records),
        cmocka_unit_test(polylines_are_copied),
        cmocka_unit_test(bad_input_is_refused),
        cmocka_unit_test(traced_query_with_masks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

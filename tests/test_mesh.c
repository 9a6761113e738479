/* test_mesh.c: rp_mesh: creation (stride, NULL indices, every refusal),
   bounds, and the four queries against brute-force loops over
   rp_intersect_ray_triangle; the crack test on closed meshes; instances;
   degenerate inputs (a million identical triangles, all coplanar) and the
   BVH depth bound. Under valgrind (RAYPICK_TEST_SCALE, test_scale.h) the
   brute-force comparisons cast fewer rays and the big meshes are smaller,
   still above the threaded builder's threshold. */
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

#include <raypick/raypick.h>
#include "ref_mesh.h"
#include "test_scale.h"
#include "../src/lib/mesh_internal.h"

/* ---- helpers ------------------------------------------------------------- */

/* Slot s of the wide node whose first half is nodes[w] (mesh_bvh.h:
   RP_BVH8_SLOTS): its box row a, child and count. */
#define WBOX(m, w, a, s) ((m)->bvh.nodes[(w) + (uint32_t)(s) / 4].b[a][(s) % 4])
#define WCHILD(m, w, s) ((m)->bvh.nodes[(w) + (uint32_t)(s) / 4].child[(s) % 4])
#define WCOUNT(m, w, s) ((m)->bvh.nodes[(w) + (uint32_t)(s) / 4].count[(s) % 4])

/* What check_node found below a node. */
typedef struct bvh_tally {
    size_t   covered, halves, children;
    int      deepest;
    unsigned char *seen;   /* per original triangle index */
} bvh_tally;

/* The wide node `ref` (rp_bvh8_ref) at `depth`, and its subtree:
   slots inside the halves it has, children inside its boxes, empty slots
   no ray can enter, each leaf's triangles inside its box and seen once. */
static void check_node(const rp_mesh *m, uint32_t ref, int depth, bvh_tally *t)
{
    const uint32_t w = rp_bvh8_first(ref);
    const int slots = rp_bvh8_two(ref) ? RP_BVH8_SLOTS : 4;
    assert_true(w + (uint32_t)slots / 4 <= m->bvh.node_count);
    t->halves += (size_t)slots / 4;
    t->deepest = depth > t->deepest ? depth : t->deepest;
    int used = 0;
    for (int c = 0; c < slots; c++) {
        if (WCHILD(m, w, c) == RP_BVH4_EMPTY) {
            assert_int_equal(WCOUNT(m, w, c), 0);
            for (int a = 0; a < 3; a++) {
                assert_true(WBOX(m, w, a, c) == INFINITY);
                assert_true(WBOX(m, w, 3 + a, c) == -INFINITY);
            }
            continue;
        }
        used++;
        if (WCOUNT(m, w, c) == 0) {
            uint32_t k = WCHILD(m, w, c), kw = rp_bvh8_first(k);
            assert_true(kw > w && kw < m->bvh.node_count);
            t->children++;
            /* the child's own children lie inside its box */
            for (int j = 0; j < (rp_bvh8_two(k) ? RP_BVH8_SLOTS : 4); j++)
                if (WCHILD(m, kw, j) != RP_BVH4_EMPTY)
                    for (int a = 0; a < 3; a++) {
                        assert_true(WBOX(m, kw, a, j) >= WBOX(m, w, a, c));
                        assert_true(WBOX(m, kw, 3 + a, j) <= WBOX(m, w, 3 + a, c));
                    }
            check_node(m, k, depth + 1, t);
            continue;
        }
        uint32_t count = WCOUNT(m, w, c);
        t->covered += count;
        assert_true(count <= RP_MESH_MAX_LEAF);
        /* a leaf's slots lie in the packets and touch no more of them
           than its count needs */
        uint32_t first = WCHILD(m, w, c), last = first + count - 1;
        assert_true(last / RP_TRI4_LANES < m->bvh.pack_count);
        assert_int_equal(last / RP_TRI4_LANES - first / RP_TRI4_LANES,
                         (count - 1) / RP_TRI4_LANES);
        for (uint32_t p = first; p <= last; p++) {
            const rp_tri4 *pk = &m->bvh.packs[p / RP_TRI4_LANES];
            uint32_t index = pk->index[p % RP_TRI4_LANES];
            assert_true(index < m->triangle_count && !t->seen[index]);
            t->seen[index] = 1;
            for (int k = 0; k < 9; k++)
                assert_true(pk->v[k][p % RP_TRI4_LANES] >= WBOX(m, w, k % 3, c) &&
                            pk->v[k][p % RP_TRI4_LANES] <= WBOX(m, w, 3 + k % 3, c));
        }
    }
    /* only a single-leaf root has fewer than two children; a node with a
       second half needs it */
    assert_true(used >= 2 || (w == 0 && m->bvh.node_count == 2 && used == 1));
    assert_true(w == 0 || !rp_bvh8_two(ref) || used > 4);
}

/* The whole BVH from the root (two halves at 0): every triangle in
   exactly one leaf, every half reached once, the depth bound. */
static void check_bvh(const rp_mesh *m)
{
    if (m->bvh.node_count == 0)
        return;
    bvh_tally t = {0, 0, 0, 0, calloc(m->triangle_count, 1)};
    assert_non_null(t.seen);
    check_node(m, rp_bvh8_ref(0, true), 0, &t);
    free(t.seen);
    assert_true(t.deepest <= RP_BVH_MAX_DEPTH - 1);
    assert_int_equal(t.halves, m->bvh.node_count);
    assert_int_equal(t.covered, m->bvh.prim_count);
}

static void assert_same_hit(const rp_hit *a, const rp_triangle_hit *ta, const rp_hit *b,
                            const rp_triangle_hit *tb)
{
    assert_true(a->t == b->t);
    assert_int_equal(ta->triangle, tb->triangle);
    assert_true(ta->u == tb->u && ta->v == tb->v);
    assert_true(a->inside == b->inside);
    assert_memory_equal(a->point, b->point, sizeof a->point);
    assert_memory_equal(a->normal, b->normal, sizeof a->normal);
}

/* The mesh's nearest hit equals the brute-force loop, bit for bit. */
static int compare_nearest(const test_mesh *tm, const rp_mesh *m, test_rng *g, int rays,
                           double far, double r)
{
    int hits = 0;
    for (int k = 0; k < rays; k++) {
        rp_ray ray = aimed_ray(g, far, r);
        rp_hit a, b;
        rp_triangle_hit ta, tb;
        bool got = rp_intersect_ray_mesh(m, &ray, &a, &ta);
        bool ref = tm_brute_nearest(tm, &ray, &b, &tb);
        /* asked for the triangle alone (no point, no normal), or nothing */
        rp_triangle_hit tc = {0};
        if (rp_intersect_ray_mesh(m, &ray, NULL, &tc) != got ||
            rp_intersect_ray_mesh(m, &ray, NULL, NULL) != got)
            fail_msg("ray %d: the answer changes with what is asked for", k);
        if (got && (tc.triangle != ta.triangle || tc.u != ta.u || tc.v != ta.v))
            fail_msg("ray %d: triangle %u (u %.9g) alone, %u (u %.9g) with the hit", k, tc.triangle,
                     (double)tc.u, ta.triangle, (double)ta.u);
        if (got != ref)
            fail_msg("ray %d: mesh says %d, brute force %d", k, got, ref);
        if (got) {
            hits++;
            if (a.t != b.t || ta.triangle != tb.triangle)
                fail_msg("ray %d: mesh t %.9g tri %u, brute force t %.9g tri %u", k, (double)a.t,
                         ta.triangle, (double)b.t, tb.triangle);
            assert_same_hit(&a, &ta, &b, &tb);
        }
    }
    return hits;
}

/* ---- creation ------------------------------------------------------------ */

static void create_refuses_invalid_input(void **state)
{
    (void)state;
    const float pos[] = {0, 0, 0, 1, 0, 0, 0, 1, 0, NAN, NAN, NAN};
    const uint32_t idx[] = {0, 1, 2};
    const uint32_t bad_idx[] = {0, 1, 4};
    const uint32_t nan_idx[] = {0, 1, 3};
    rp_mesh *ok = rp_mesh_create(pos, 4, 0, idx, 1);
    assert_non_null(ok);
    rp_mesh_destroy(ok);
    assert_null(rp_mesh_create(NULL, 4, 0, idx, 1));
    assert_null(rp_mesh_create(pos, 4, 0, idx, 0));
    assert_null(rp_mesh_create(pos, 4, 8, idx, 1));       /* stride < 12 */
    assert_null(rp_mesh_create(pos, 2, 14, idx, 1));      /* not a multiple of 4 */
    assert_null(rp_mesh_create(pos, 4, 13, idx, 1));
    assert_null(rp_mesh_create(pos, 4, 0, bad_idx, 1));   /* index >= vertex_count */
    assert_null(rp_mesh_create(pos, 2, 0, idx, 1));
    assert_null(rp_mesh_create(pos, 0, 0, idx, 1));
    assert_null(rp_mesh_create(pos, 4, 0, nan_idx, 1));   /* a used NaN vertex */
    assert_null(rp_mesh_create(pos, 4, 0, NULL, 2));      /* needs 6 vertices */
    /* huge counts are refused before anything is read or allocated */
    assert_null(rp_mesh_create(pos, 4, 0, idx, (size_t)INT32_MAX + 1));
    assert_null(rp_mesh_create(pos, 4, 0, idx, SIZE_MAX));
    assert_null(rp_mesh_create(pos, SIZE_MAX, 0, NULL, SIZE_MAX / 3));
    assert_null(rp_mesh_create(pos, SIZE_MAX, 16, idx, 1));
    const float inf_pos[] = {0, 0, 0, 1, INFINITY, 0, 0, 1, 0};
    assert_null(rp_mesh_create(inf_pos, 3, 0, NULL, 1));
    /* NULL mesh: every function refuses */
    rp_ray ray = {{0.2f, 0.2f, 1}, {0, 0, -1}};
    rp_hit h = {.t = 42.0f};
    rp_triangle_hit th = {.triangle = 7};
    rp_aabb box = {{1, 2, 3}, {4, 5, 6}};
    mat4 id = GLM_MAT4_IDENTITY_INIT;
    assert_int_equal(rp_mesh_triangle_count(NULL), 0);
    assert_false(rp_mesh_bounds(NULL, &box));
    assert_false(rp_intersect_ray_mesh(NULL, &ray, &h, &th));
    assert_int_equal(rp_intersect_ray_mesh_all(NULL, &ray, &h, &th, 1), 0);
    assert_false(rp_test_ray_mesh(NULL, &ray, INFINITY));
    assert_false(rp_intersect_ray_mesh_instance(NULL, id, &ray, &h, &th));
    assert_float_equal(h.t, 42.0f, 0.0f);
    assert_int_equal(th.triangle, 7);
    assert_float_equal(box.min[1], 2.0f, 0.0f);
    rp_mesh_destroy(NULL);
}

static void bounds_are_the_used_vertices_exactly(void **state)
{
    (void)state;
    /* vertex 1 is unused (and NaN); vertex 4 unused and far away */
    const float pos[] = {0.5f, -1, 2, NAN, NAN, NAN, 3, 0.25f, -2, -1.5f, 4, 0, 100, 100, 100};
    const uint32_t idx[] = {0, 2, 3};
    rp_mesh *m = rp_mesh_create(pos, 5, 0, idx, 1);
    assert_non_null(m);
    assert_int_equal(rp_mesh_triangle_count(m), 1);
    rp_aabb b;
    assert_true(rp_mesh_bounds(m, &b));
    assert_true(b.min[0] == -1.5f && b.min[1] == -1.0f && b.min[2] == -2.0f);
    assert_true(b.max[0] == 3.0f && b.max[1] == 4.0f && b.max[2] == 2.0f);
    assert_true(rp_mesh_bounds(m, NULL));
    rp_mesh_destroy(m);
}

/* A D3DVERTEX-like array (position, normal, uv: 32 bytes) and the
   unindexed form give the same mesh as packed positions with indices. */
typedef struct d3d_vertex {
    float x, y, z, nx, ny, nz, tu, tv;
} d3d_vertex;

static void stride_and_null_index_forms_agree(void **state)
{
    (void)state;
    test_mesh tm = tm_icosphere(2, 1.0);
    d3d_vertex *dv = calloc(tm.nv, sizeof *dv);
    float *flat = malloc(tm.nt * 9 * sizeof *flat);
    for (size_t i = 0; i < tm.nv; i++) {
        dv[i].x = tm.pos[3 * i];
        dv[i].y = tm.pos[3 * i + 1];
        dv[i].z = tm.pos[3 * i + 2];
        dv[i].nx = NAN;   /* the other fields are never read as positions */
        dv[i].tu = INFINITY;
    }
    for (size_t t = 0; t < tm.nt; t++)
        for (int k = 0; k < 3; k++)
            memcpy(flat + 9 * t + 3 * k, tm_v(&tm, t, k), 3 * sizeof(float));
    rp_mesh *packed = tm_build(&tm);
    rp_mesh *strided = rp_mesh_create(&dv[0].x, tm.nv, sizeof *dv, tm.idx, tm.nt);
    rp_mesh *unindexed = rp_mesh_create(flat, 3 * tm.nt, 12, NULL, tm.nt);
    assert_non_null(packed);
    assert_non_null(strided);
    assert_non_null(unindexed);
    test_rng g = {0x51de0001u};
    int hits = 0;
    for (int k = 0; k < 2000; k++) {
        rp_ray ray = aimed_ray(&g, 5.0, 1.2);
        rp_hit a, b, c;
        rp_triangle_hit ta, tb, tc;
        bool ga = rp_intersect_ray_mesh(packed, &ray, &a, &ta);
        assert_true(rp_intersect_ray_mesh(strided, &ray, &b, &tb) == ga);
        assert_true(rp_intersect_ray_mesh(unindexed, &ray, &c, &tc) == ga);
        if (ga) {
            hits++;
            assert_same_hit(&a, &ta, &b, &tb);
            assert_same_hit(&a, &ta, &c, &tc);
        }
    }
    assert_true(hits > 500);
    rp_mesh_destroy(packed);
    rp_mesh_destroy(strided);
    rp_mesh_destroy(unindexed);
    free(dv);
    free(flat);
    tm_free(&tm);
}

/* ---- nearest, all, any against brute force -------------------------------- */

static void nearest_equals_brute_force(void **state)
{
    (void)state;
    test_rng g = {0xbeef0001u};
    test_mesh soup = tm_soup(&g, 1000, 0.12);
    rp_mesh *m = tm_build(&soup);
    assert_non_null(m);
    check_bvh(m);
    int rays = (int)test_scaled(10000, 1000);
    int hits = compare_nearest(&soup, m, &g, rays, 4.0, 1.0);
    assert_true(hits > 3 * rays / 10 && hits < rays);
    rp_mesh_destroy(m);
    tm_free(&soup);

    test_mesh torus = tm_torus(48, 24, 1.0, 0.35);
    m = tm_build(&torus);
    check_bvh(m);
    rays = (int)test_scaled(2000, 300);
    hits = compare_nearest(&torus, m, &g, rays, 4.0, 1.4);
    assert_true(hits > 3 * rays / 10);
    rp_mesh_destroy(m);
    tm_free(&torus);
}

/* Duplicate triangles (same t): the lowest index wins, as in the brute
   force; degenerate ones are never reported. */
static void duplicates_and_degenerates(void **state)
{
    (void)state;
    test_rng g = {0xd0d0d0u};
    test_mesh base = tm_soup(&g, 400, 0.2);
    test_mesh tm = tm_alloc(base.nv + 3, 3 * base.nt);
    memcpy(tm.pos, base.pos, base.nv * 3 * sizeof(float));
    tm_vertex(&tm, base.nv, 0.5, 0.5, 0.5);
    tm_vertex(&tm, base.nv + 1, 0.6, 0.6, 0.6);
    tm_vertex(&tm, base.nv + 2, 0.7, 0.7, 0.7);
    uint32_t line0 = (uint32_t)base.nv;
    for (size_t t = 0; t < base.nt; t++) {
        const uint32_t *s = base.idx + 3 * t;
        /* triangle t + 2n repeats t; triangle t + n is degenerate */
        tm_tri(&tm, t + 2 * base.nt, s[0], s[1], s[2]);
        if (t % 2)
            tm_tri(&tm, t + base.nt, s[0], s[0], s[1]);   /* two equal vertices */
        else
            tm_tri(&tm, t + base.nt, line0, line0 + 1, line0 + 2);   /* collinear */
        tm_tri(&tm, t, s[0], s[1], s[2]);
    }
    rp_mesh *m = tm_build(&tm);
    assert_non_null(m);
    assert_int_equal(rp_mesh_triangle_count(m), tm.nt);
    assert_int_equal(m->bvh.prim_count, 2 * base.nt);   /* degenerates left out */
    check_bvh(m);
    int rays = (int)test_scaled(3000, 300);
    int hits = compare_nearest(&tm, m, &g, rays, 4.0, 1.0);
    assert_true(hits > rays / 6);
    /* every hit is reported twice by all-hits: t and its repeat t + 2n */
    for (int k = 0; k < (int)test_scaled(500, 100); k++) {
        rp_ray ray = aimed_ray(&g, 4.0, 1.0);
        rp_triangle_hit tris[64];
        rp_hit hs[64];
        size_t n = rp_intersect_ray_mesh_all(m, &ray, hs, tris, 64);
        assert_true(n % 2 == 0 && n <= 64);
        for (size_t i = 0; i + 1 < n; i += 2) {
            assert_true(hs[i].t == hs[i + 1].t);
            assert_true(tris[i].triangle < base.nt);
            assert_int_equal(tris[i + 1].triangle, tris[i].triangle + 2 * base.nt);
        }
    }
    rp_mesh_destroy(m);
    tm_free(&tm);
    tm_free(&base);
}

typedef struct all_ref {
    float    t;
    uint32_t tri;
    rp_hit   hit;
    rp_triangle_hit th;
} all_ref;

static int cmp_ref(const void *a, const void *b)
{
    const all_ref *x = a, *y = b;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    return (x->tri > y->tri) - (x->tri < y->tri);
}

static void all_hits_equal_brute_force(void **state)
{
    (void)state;
    test_rng g = {0xa11a11u};
    test_mesh soup = tm_soup(&g, 2000, 0.6);
    rp_mesh *m = tm_build(&soup);
    all_ref *ref = malloc(soup.nt * sizeof *ref);
    rp_hit *hs = malloc(soup.nt * sizeof *hs);
    rp_triangle_hit *ts = malloc(soup.nt * sizeof *ts);
    size_t most = 0;
    for (int k = 0; k < (int)test_scaled(1000, 150); k++) {
        rp_ray ray = aimed_ray(&g, 4.0, 1.0);
        size_t n = 0;
        for (size_t t = 0; t < soup.nt; t++) {
            all_ref r;
            if (rp_intersect_ray_triangle(&ray, tm_v(&soup, t, 0), tm_v(&soup, t, 1),
                                          tm_v(&soup, t, 2), &r.hit, &r.th)) {
                r.t = r.hit.t;
                r.tri = r.th.triangle = (uint32_t)t;
                ref[n++] = r;
            }
        }
        qsort(ref, n, sizeof *ref, cmp_ref);
        most = n > most ? n : most;
        /* the count with no room at all, then everything, then a prefix */
        assert_int_equal(rp_intersect_ray_mesh_all(m, &ray, NULL, NULL, 0), n);
        assert_int_equal(rp_intersect_ray_mesh_all(m, &ray, hs, ts, soup.nt), n);
        for (size_t i = 0; i < n; i++)
            assert_same_hit(&hs[i], &ts[i], &ref[i].hit, &ref[i].th);
        size_t cap = n / 2;
        hs[cap].t = -7.0f;   /* must stay untouched */
        ts[cap].triangle = 123456;
        assert_int_equal(rp_intersect_ray_mesh_all(m, &ray, hs, NULL, cap), n);
        assert_int_equal(rp_intersect_ray_mesh_all(m, &ray, NULL, ts, cap), n);
        if (n > 0) {
            assert_true(hs[cap].t == -7.0f);
            assert_int_equal(ts[cap].triangle, 123456);
            for (size_t i = 0; i < cap; i++)
                assert_int_equal(ts[i].triangle, ref[i].tri);
        }
        /* the first of all hits is the nearest */
        rp_hit nh;
        rp_triangle_hit nt;
        assert_true(rp_intersect_ray_mesh(m, &ray, &nh, &nt) == (n > 0));
        if (n > 0)
            assert_same_hit(&nh, &nt, &ref[0].hit, &ref[0].th);
    }
    assert_true(most > 64);   /* the heap buffer was used */
    free(ref);
    free(hs);
    free(ts);
    rp_mesh_destroy(m);
    tm_free(&soup);
}

static void any_hit_equals_brute_force(void **state)
{
    (void)state;
    test_rng g = {0xa4a4u};
    test_mesh soup = tm_soup(&g, 1000, 0.14);
    rp_mesh *m = tm_build(&soup);
    int yes = 0, no = 0;
    const int rays = (int)test_scaled(3000, 300);
    for (int k = 0; k < rays; k++) {
        rp_ray ray = aimed_ray(&g, 4.0, 1.0);
        rp_hit h;
        rp_triangle_hit th;
        bool any = tm_brute_nearest(&soup, &ray, &h, &th);
        float t_max = (float)rng_uniform(&g, 0.5, 1.5);
        if (any && k % 7 == 0)
            t_max = h.t;   /* exactly at the nearest hit: included */
        bool ref = any && h.t <= t_max;
        assert_true(rp_test_ray_mesh(m, &ray, t_max) == ref);
        assert_true(rp_test_ray_mesh(m, &ray, INFINITY) == any);
        if (any && h.t > 0.0f)
            assert_false(rp_test_ray_mesh(m, &ray, nextafterf(h.t, 0.0f)));
        yes += ref;
        no += !ref;
        assert_false(rp_test_ray_mesh(m, &ray, NAN));
        assert_false(rp_test_ray_mesh(m, &ray, -1.0f));
        assert_false(rp_test_ray_mesh(m, &ray, -INFINITY));
    }
    assert_true(yes > rays / 6 && no > rays / 6);
    rp_mesh_destroy(m);
    tm_free(&soup);
}

/* ---- watertightness -------------------------------------------------------- */

static bool same_point(const float *a, const float *b)
{
    return a[0] == b[0] && a[1] == b[1] && a[2] == b[2];
}

static void unit_normal(const test_mesh *tm, size_t t, double n[3])
{
    const float *a = tm_v(tm, t, 0), *b = tm_v(tm, t, 1), *c = tm_v(tm, t, 2);
    double e1[3], e2[3];
    for (int i = 0; i < 3; i++) {
        e1[i] = (double)b[i] - a[i];
        e2[i] = (double)c[i] - a[i];
    }
    n[0] = e1[1] * e2[2] - e1[2] * e2[1];
    n[1] = e1[2] * e2[0] - e1[0] * e2[2];
    n[2] = e1[0] * e2[1] - e1[1] * e2[0];
    double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    for (int i = 0; i < 3; i++)
        n[i] /= len;
}

/* Rays aimed exactly at every vertex and edge midpoint of a closed mesh,
   from outside, must hit the mesh no later than the aimed point: none
   slips through to the back. Each ray enters the surface there: it
   faces every triangle around the point (d . n < -0.05), so it is not a
   silhouette ray that only grazes the point (such a ray may miss: it
   passes a rounding hair outside). Checked for the mesh query and for
   the lone-triangle loop. */
static void crack_test(const test_mesh *tm, double far, unsigned seed)
{
    rp_mesh *m = tm_build(tm);
    assert_non_null(m);
    test_rng g = {seed};
    size_t targets = 0, cracks = 0, brute_cracks = 0;
    double (*normals)[3] = malloc(tm->nt * sizeof *normals);
    size_t *around = malloc(tm->nt * sizeof *around);
    for (size_t t = 0; t < tm->nt; t++)
        unit_normal(tm, t, normals[t]);
    /* every triangle's vertices and edges; every step-th one's with a
       smaller RAYPICK_TEST_SCALE */
    const size_t step = (size_t)(1.0 / test_scale() + 0.5), aimed_at = (tm->nt + step - 1) / step;
    for (size_t t = 0; t < tm->nt; t += step)
        for (int e = 0; e < 3; e++) {
            const float *a = tm_v(tm, t, e), *b = tm_v(tm, t, (e + 1) % 3);
            float pts[2][3];
            for (int i = 0; i < 3; i++) {
                pts[0][i] = a[i];                       /* a vertex */
                pts[1][i] = 0.5f * a[i] + 0.5f * b[i];  /* an edge midpoint */
            }
            for (int p = 0; p < 2; p++) {
                /* the triangles around the point: with vertex a (p = 0),
                   with both a and b (p = 1) */
                size_t n_around = 0;
                for (size_t q = 0; q < tm->nt; q++) {
                    int has_a = 0, has_b = 0;
                    for (int k = 0; k < 3; k++) {
                        has_a |= same_point(tm_v(tm, q, k), a);
                        has_b |= same_point(tm_v(tm, q, k), b);
                    }
                    if (has_a && (p == 0 || has_b))
                        around[n_around++] = q;
                }
                assert_true(n_around >= (p == 0 ? 3u : 2u));
                for (int dirs = 0; dirs < 2; dirs++) {
                    double d[3];
                    bool entering = false;
                    for (int tries = 0; tries < 200 && !entering; tries++) {
                        rand_dir(&g, d);
                        entering = true;
                        for (size_t q = 0; q < n_around; q++) {
                            const double *n = normals[around[q]];
                            entering &= d[0] * n[0] + d[1] * n[1] + d[2] * n[2] < -0.05;
                        }
                    }
                    if (!entering)
                        continue;
                    rp_ray ray;
                    for (int i = 0; i < 3; i++) {
                        /* the origin far out, dir exactly to the point */
                        ray.origin[i] = (float)(pts[p][i] - d[i] * far);
                        ray.dir[i] = pts[p][i] - ray.origin[i];
                    }
                    targets++;
                    rp_hit h;
                    rp_triangle_hit th;
                    /* t = 1 is the aimed point; the back is far later */
                    if (!rp_intersect_ray_mesh(m, &ray, &h, NULL) || h.t > 1.0f + 1e-4f)
                        cracks++;
                    /* the lone-triangle loop on every fourth ray (it is slow) */
                    if (targets % 4 == 0 &&
                        (!tm_brute_nearest(tm, &ray, &h, &th) || h.t > 1.0f + 1e-4f))
                        brute_cracks++;
                }
            }
        }
    /* nearly every point got its two rays (12 per triangle) */
    assert_true(targets > 10 * aimed_at);
    if (cracks || brute_cracks)
        fail_msg("%lu targets: %lu cracks in the mesh query, %lu in the brute force",
                 (unsigned long)targets, (unsigned long)cracks, (unsigned long)brute_cracks);
    free(normals);
    free(around);
    rp_mesh_destroy(m);
}

static void closed_meshes_have_no_cracks(void **state)
{
    (void)state;
    test_mesh ico = tm_icosphere(3, 1.0);   /* 1280 triangles */
    crack_test(&ico, 3.0, 0xc4ac01u);
    tm_free(&ico);
    test_mesh box = tm_box(6, 0.75);       /* 432 triangles */
    crack_test(&box, 3.0, 0xc4ac02u);
    tm_free(&box);
    test_mesh torus = tm_torus(40, 16, 1.0, 0.3);
    crack_test(&torus, 4.0, 0xc4ac03u);
    tm_free(&torus);
}

/* ---- instances -------------------------------------------------------------- */

static void instance_case(const test_mesh *tm, mat4 model, bool mirrored, test_rng *g)
{
    rp_mesh *m = tm_build(tm);
    /* the reference: the vertices transformed (in double), brute force */
    test_mesh world = tm_alloc(tm->nv, tm->nt);
    memcpy(world.idx, tm->idx, tm->nt * 3 * sizeof(uint32_t));
    for (size_t i = 0; i < tm->nv; i++) {
        double w[3];
        for (int r = 0; r < 3; r++)
            w[r] = (double)model[0][r] * tm->pos[3 * i] + (double)model[1][r] * tm->pos[3 * i + 1] +
                   (double)model[2][r] * tm->pos[3 * i + 2] + model[3][r];
        tm_vertex(&world, i, w[0], w[1], w[2]);
    }
    int compared = 0;
    const int rays = (int)test_scaled(2000, 300);
    for (int k = 0; k < rays; k++) {
        rp_ray ray = aimed_ray(g, 12.0, 3.0);
        for (int i = 0; i < 3; i++)
            ray.dir[i] += model[3][i];
        rp_hit a, b;
        rp_triangle_hit ta, tb;
        bool got = rp_intersect_ray_mesh_instance(m, model, &ray, &a, &ta);
        bool ref = tm_brute_nearest(&world, &ray, &b, &tb);
        /* compare where the answer is clear: the nearest hit well inside
           its triangle (a ray through an edge may pick either side) */
        bool clear = ref && tb.u > 1e-3f && tb.v > 1e-3f && tb.u + tb.v < 1 - 1e-3f;
        if (!ref) {
            assert_false(got);
            continue;
        }
        if (!clear)
            continue;
        assert_true(got);
        compared++;
        assert_int_equal(ta.triangle, tb.triangle);
        assert_float_equal(a.t, b.t, 1e-4f * b.t);
        assert_float_equal(ta.u, tb.u, 1e-3f);
        assert_float_equal(ta.v, tb.v, 1e-3f);
        for (int i = 0; i < 3; i++) {
            assert_float_equal(a.point[i], b.point[i], 1e-3f);
            assert_float_equal(a.normal[i], b.normal[i], 1e-3f);
        }
        assert_true(a.t == a.t_enter && a.t == a.t_exit);
        assert_true(glm_vec3_dot(a.normal, ray.dir) < 0.0f);
        /* inside is the model's own face: a mirror flips the world winding */
        assert_true(a.inside == (mirrored ? !b.inside : b.inside));
    }
    assert_true(compared > 3 * rays / 20);
    rp_mesh_destroy(m);
    tm_free(&world);
}

static void instances_match_transformed_brute_force(void **state)
{
    (void)state;
    test_rng g = {0x1a57a9ceu};
    test_mesh torus = tm_torus(32, 16, 1.0, 0.4);
    mat4 model;
    /* rotation + non-uniform scale + translation */
    glm_mat4_identity(model);
    glm_translate(model, (vec3){1.5f, -2.0f, 0.5f});
    glm_rotate(model, 0.7f, (vec3){0.3f, 1.0f, -0.2f});
    glm_scale(model, (vec3){2.0f, 0.5f, 1.25f});
    instance_case(&torus, model, false, &g);
    /* the same, mirrored in x */
    glm_scale(model, (vec3){-1.0f, 1.0f, 1.0f});
    instance_case(&torus, model, true, &g);
    /* the identity is the plain query, bit for bit */
    rp_mesh *m = tm_build(&torus);
    mat4 id = GLM_MAT4_IDENTITY_INIT;
    int hits = 0;
    const int rays = (int)test_scaled(500, 100);
    for (int k = 0; k < rays; k++) {
        rp_ray ray = aimed_ray(&g, 4.0, 1.4);
        rp_hit a, b;
        rp_triangle_hit ta, tb;
        bool ga = rp_intersect_ray_mesh_instance(m, id, &ray, &a, &ta);
        assert_true(rp_intersect_ray_mesh(m, &ray, &b, &tb) == ga);
        if (ga) {
            hits++;
            /* the normal goes through the inverse transpose and is
               normalised again: equal to a rounding */
            for (int i = 0; i < 3; i++)
                assert_float_equal(a.normal[i], b.normal[i], 1e-6f);
            memcpy(a.normal, b.normal, sizeof a.normal);
            assert_same_hit(&a, &ta, &b, &tb);
        }
    }
    assert_true(hits > rays / 5);
    rp_mesh_destroy(m);
    tm_free(&torus);
}

static void instance_refuses_bad_matrices(void **state)
{
    (void)state;
    test_mesh ico = tm_icosphere(1, 1.0);
    rp_mesh *m = tm_build(&ico);
    rp_ray ray = {{0, 0, 5}, {0, 0, -1}};
    rp_hit h = {.t = 42.0f};
    rp_triangle_hit th = {.triangle = 5};
    mat4 ok = GLM_MAT4_IDENTITY_INIT;
    assert_true(rp_intersect_ray_mesh_instance(m, ok, &ray, NULL, NULL));
    mat4 singular = GLM_MAT4_IDENTITY_INIT, projective = GLM_MAT4_IDENTITY_INIT;
    mat4 nan_m = GLM_MAT4_IDENTITY_INIT, zero = GLM_MAT4_ZERO_INIT, w2 = GLM_MAT4_IDENTITY_INIT;
    singular[1][1] = 0.0f;
    projective[2][3] = -1.0f;
    nan_m[3][0] = NAN;
    w2[3][3] = 2.0f;
    assert_false(rp_intersect_ray_mesh_instance(m, singular, &ray, &h, &th));
    assert_false(rp_intersect_ray_mesh_instance(m, projective, &ray, &h, &th));
    assert_false(rp_intersect_ray_mesh_instance(m, nan_m, &ray, &h, &th));
    assert_false(rp_intersect_ray_mesh_instance(m, zero, &ray, &h, &th));
    assert_false(rp_intersect_ray_mesh_instance(m, w2, &ray, &h, &th));
    assert_false(rp_intersect_ray_mesh_instance(m, NULL, &ray, &h, &th));
    assert_false(rp_intersect_ray_mesh_instance(m, ok, NULL, &h, &th));
    rp_ray bad = {{0, 0, 5}, {0, 0, 0}};
    assert_false(rp_intersect_ray_mesh_instance(m, ok, &bad, &h, &th));
    assert_float_equal(h.t, 42.0f, 0.0f);
    assert_int_equal(th.triangle, 5);
    rp_mesh_destroy(m);
    tm_free(&ico);
}

static void queries_refuse_invalid_rays_untouched(void **state)
{
    (void)state;
    test_mesh ico = tm_icosphere(1, 1.0);
    rp_mesh *m = tm_build(&ico);
    rp_ray bad[] = {{{NAN, 0, 5}, {0, 0, -1}}, {{0, 0, 5}, {0, 0, 0}},
                    {{0, 0, 5}, {0, INFINITY, -1}}, {{0, -INFINITY, 5}, {0, 0, -1}}};
    rp_hit h = {.t = 42.0f};
    rp_triangle_hit th = {.triangle = 5};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_false(rp_intersect_ray_mesh(m, &bad[i], &h, &th));
        assert_int_equal(rp_intersect_ray_mesh_all(m, &bad[i], &h, &th, 1), 0);
        assert_false(rp_test_ray_mesh(m, &bad[i], INFINITY));
    }
    assert_false(rp_intersect_ray_mesh(m, NULL, &h, &th));
    assert_int_equal(rp_intersect_ray_mesh_all(m, NULL, &h, &th, 1), 0);
    assert_false(rp_test_ray_mesh(m, NULL, 1.0f));
    /* a miss leaves the outputs alone too */
    rp_ray away = {{0, 0, 5}, {0, 0, 1}};
    assert_false(rp_intersect_ray_mesh(m, &away, &h, &th));
    assert_int_equal(rp_intersect_ray_mesh_all(m, &away, &h, &th, 1), 0);
    assert_float_equal(h.t, 42.0f, 0.0f);
    assert_int_equal(th.triangle, 5);
    /* a ray starting inside the sphere hits its inside at the exit */
    rp_ray in = {{0, 0, 0}, {0.1f, 0.2f, 1}};   /* not through a vertex */
    assert_true(rp_intersect_ray_mesh(m, &in, &h, &th));
    assert_true(h.inside);
    assert_true(h.normal[2] < 0.0f);
    assert_int_equal(rp_intersect_ray_mesh_all(m, &in, NULL, NULL, 0), 1);
    rp_mesh_destroy(m);
    tm_free(&ico);
}

/* ---- degenerate inputs: bounded build, bounded depth ------------------------- */

/* Above the threaded build's threshold (mesh.c: MESH_THREADED_MIN) at any
   RAYPICK_TEST_SCALE. */
#define THREADED_BUILD 70000

static void million_identical_triangles(void **state)
{
    (void)state;
    const size_t n = test_scaled(1000000, THREADED_BUILD);
    float *pos = malloc(n * 9 * sizeof *pos);
    const float tri[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    for (size_t t = 0; t < n; t++)
        memcpy(pos + 9 * t, tri, sizeof tri);
    rp_mesh *m = rp_mesh_create(pos, 3 * n, 0, NULL, n);
    assert_non_null(m);
    check_bvh(m);
    rp_ray ray = {{0.25f, 0.25f, 1}, {0, 0, -1}};
    rp_hit h;
    rp_triangle_hit th;
    assert_true(rp_intersect_ray_mesh(m, &ray, &h, &th));
    assert_int_equal(th.triangle, 0);   /* every t is equal: the lowest index */
    assert_float_equal(h.t, 1.0f, 1e-6f);
    assert_true(rp_test_ray_mesh(m, &ray, 2.0f));
    assert_false(rp_test_ray_mesh(m, &ray, 0.5f));
    rp_ray miss = {{2, 2, 1}, {0, 0, -1}};
    assert_false(rp_intersect_ray_mesh(m, &miss, NULL, NULL));
    rp_mesh_destroy(m);
    /* all hits of many equal ones: every one, in index order (on 1000:
       a million would only cost time) */
    m = rp_mesh_create(pos, 3000, 0, NULL, 1000);
    rp_triangle_hit all[1000];
    assert_int_equal(rp_intersect_ray_mesh_all(m, &ray, NULL, all, 1000), 1000);
    for (uint32_t i = 0; i < 1000; i++)
        assert_int_equal(all[i].triangle, i);
    rp_mesh_destroy(m);
    free(pos);
}

static void coplanar_and_collinear_centroids_build_bounded(void **state)
{
    (void)state;
    /* a flat 150 x 150 grid of triangles in z = 0 */
    test_mesh grid = tm_alloc(151 * 151, 2 * 150 * 150);
    for (int i = 0; i <= 150; i++)
        for (int j = 0; j <= 150; j++)
            tm_vertex(&grid, (size_t)i * 151 + j, i / 150.0, j / 150.0, 0.0);
    size_t t = 0;
    for (uint32_t i = 0; i < 150; i++)
        for (uint32_t j = 0; j < 150; j++) {
            uint32_t a = i * 151 + j;
            tm_tri(&grid, t++, a, a + 151, a + 152);
            tm_tri(&grid, t++, a, a + 152, a + 1);
        }
    rp_mesh *m = tm_build(&grid);
    check_bvh(m);
    test_rng g = {0xf1a7u};
    for (int k = 0; k < 200; k++) {
        rp_ray ray = {{(float)rng_uniform(&g, 0, 1), (float)rng_uniform(&g, 0, 1), 1}, {0, 0, -1}};
        rp_hit h;
        rp_triangle_hit th;
        assert_true(rp_intersect_ray_mesh(m, &ray, &h, &th));
        assert_float_equal(h.t, 1.0f, 1e-6f);
    }
    rp_mesh_destroy(m);
    tm_free(&grid);

    /* 100,000 slivers along one line, centroids strictly increasing
       (SAH splits off one or two at a time if unbounded) */
    const size_t n = test_scaled(100000, THREADED_BUILD);
    test_mesh line = tm_alloc(3 * n, n);
    for (size_t i = 0; i < n; i++) {
        double x = (double)i * (double)i * 1e-9;   /* spacing that grows: skewed splits */
        tm_vertex(&line, 3 * i, x, 0, 0);
        tm_vertex(&line, 3 * i + 1, x + 1e-3, 0, 0);
        tm_vertex(&line, 3 * i + 2, x, 1e-3, 1e-3);
        tm_tri(&line, i, (uint32_t)(3 * i), (uint32_t)(3 * i + 1), (uint32_t)(3 * i + 2));
    }
    m = tm_build(&line);
    assert_non_null(m);
    check_bvh(m);
    compare_nearest(&line, m, &g, 30, 2.0, 1.0);
    rp_mesh_destroy(m);
    tm_free(&line);
}

/* fuzz_mesh's finding (tests/fuzz/corpus/mesh/origin_near_plane_off_triangle):
   ten unindexed triangles and a ray starting on vertex 2 of triangle 6,
   so the answer is triangle 6 at t = 0. Triangle 2's plane passes within
   4e-6 of the origin and the ray runs nearly along that plane, so its line
   meets triangle 2 at t = -1 (the vertex (0, 0, 0)), 0.87 behind the
   origin; the triangle test once took "origin on the plane" for "origin on
   the triangle" and reported it at t = 0 too, which the BVH's boxes (rightly)
   never reached: brute force said triangle 2, the mesh triangle 6. */
/* Coordinates near FLT_MAX on both the mesh and the ray's origin: the
   box padding (16 eps of their sum) overflows to infinity, every slab test
   is NaN and lets the box through. The BVH4's root here is one leaf and
   three empty slots, which must still never be entered (they were: a read
   far past the node array, fuzz_mesh finding). */
static void huge_coordinates_never_enter_empty_slots(void **state)
{
    (void)state;
    static const float pos[2 * 9] = {
        3e38f, -1, -1,   3e38f, 1, -1,   3e38f, 0, 1,
        0, -1, -1,       0, 1, -1,       0, 0, 1,
    };
    const rp_ray ray = {{-3e38f, 0.25f, 0}, {1e12f, 0, 0}};
    rp_mesh *m = rp_mesh_create(pos, 6, 0, NULL, 2);
    assert_non_null(m);
    check_bvh(m);
    int want = -1;
    float want_t = INFINITY;
    rp_hit h;
    for (int t = 0; t < 2; t++)
        if (rp_intersect_ray_triangle(&ray, &pos[9 * t], &pos[9 * t + 3], &pos[9 * t + 6], &h,
                                      NULL) && h.t < want_t) {
            want = t;
            want_t = h.t;
        }
    assert_int_equal(want, 1);   /* the one at x = 0 */
    rp_triangle_hit th;
    assert_true(rp_intersect_ray_mesh(m, &ray, &h, &th));
    assert_int_equal(th.triangle, want);
    assert_true(h.t == want_t);
    assert_true(rp_test_ray_mesh(m, &ray, INFINITY));
    size_t all = rp_intersect_ray_mesh_all(m, &ray, NULL, NULL, 0);
    assert_true(all >= 1 && all <= 2);
    rp_mesh_destroy(m);
}

static void ray_near_a_plane_but_off_its_triangle_misses_it(void **state)
{
    (void)state;
    static const float pos[30 * 3] = {
        0, 0, 0,   1, 1, 0,   0.046875f, 24, 1,
        0.25f, 464, 0.005859375f,   0, 0, -48,   0.0078125f, 0, 0,
        0, 0, 0,   0.015625f, 0.25f, 0.25f,   464, 0.005859375f, 0,
        0, 16, 0.0078125f,   0, 0, 0,   0, 0, 0,
        1, 0.125f, 0,   0, 8, 0.005859375f,   0, 0, 0,
        0, 0, 0,   0, -0.12109375f, 0,   -0.12109375f, 0, -0.12109375f,
        0, -32, -80,   -65, 8.5f, -0.5f,   -0.5f, -0.5f, -0.5f,
        -0.5f, -0.5f, -0.5f,   -0.5f, -0.5f, -0.5f,   -0.5f, -0.5f, -0.5f,
        -0.5f, -0.5f, -0.5f,   -0.5f, -0.5f, -0.5f,   -0.5f, -0.5f, -0.5f,
        -0.5f, -0.5f, -0.5f,   -0.5f, -0.5f, -0.5f,   -0.5f, -0.5f, -0.5f,
    };
    const rp_ray ray = {{-0.5f, -0.5f, -0.5f}, {-0.5f, -0.5f, -0.5f}};
    rp_hit h;
    rp_triangle_hit th;
    /* triangle 2 alone: a miss, outputs untouched */
    memset(&h, 0x5a, sizeof h);
    rp_hit before = h;
    assert_false(rp_intersect_ray_triangle(&ray, &pos[6 * 3], &pos[7 * 3], &pos[8 * 3], &h, NULL));
    assert_memory_equal(&h, &before, sizeof h);
    /* the brute-force loop and the mesh: triangle 6 at t = 0, the only hit */
    int first = -1, hits = 0;
    for (int t = 0; t < 10; t++)
        if (rp_intersect_ray_triangle(&ray, &pos[9 * t], &pos[9 * t + 3], &pos[9 * t + 6], &h,
                                      NULL)) {
            hits++;
            if (first < 0)
                first = t;
        }
    assert_int_equal(hits, 1);
    assert_int_equal(first, 6);
    rp_mesh *m = rp_mesh_create(pos, 30, 0, NULL, 10);
    assert_non_null(m);
    assert_true(rp_intersect_ray_mesh(m, &ray, &h, &th));
    assert_true(h.t == 0.0f);
    assert_int_equal(th.triangle, 6);
    assert_int_equal(rp_intersect_ray_mesh_all(m, &ray, NULL, NULL, 0), 1);
    rp_mesh_destroy(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(create_refuses_invalid_input),
        cmocka_unit_test(bounds_are_the_used_vertices_exactly),
        cmocka_unit_test(stride_and_null_index_forms_agree),
        cmocka_unit_test(nearest_equals_brute_force),
        cmocka_unit_test(duplicates_and_degenerates),
        cmocka_unit_test(all_hits_equal_brute_force),
        cmocka_unit_test(any_hit_equals_brute_force),
        cmocka_unit_test(closed_meshes_have_no_cracks),
        cmocka_unit_test(instances_match_transformed_brute_force),
        cmocka_unit_test(instance_refuses_bad_matrices),
        cmocka_unit_test(queries_refuse_invalid_rays_untouched),
        cmocka_unit_test(million_identical_triangles),
        cmocka_unit_test(coplanar_and_collinear_centroids_build_bounded),
        cmocka_unit_test(ray_near_a_plane_but_off_its_triangle_misses_it),
        cmocka_unit_test(huge_coordinates_never_enter_empty_slots),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

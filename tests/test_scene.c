/* test_scene.c: rp_scene against a brute-force loop over every object's
   own ray function: random mixed scenes with duplicates (ties), moves seen
   only after a build, refit and rebuild agreeing, a 100k-object scene,
   identical objects, every kind of invalid input, and the traced
   traversal (rp_intersect_ray_scene_traced). Under valgrind
   (RAYPICK_TEST_SCALE, test_scale.h) the brute-force comparisons cast
   fewer rays and the thread test builds fewer boxes, still enough for a
   top over several subtrees. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <raypick/raypick.h>
#include "random_scene.h"
#include "test_scale.h"
#include "../src/lib/bvh4.h"
#include "../src/lib/internal.h"
#include "../src/lib/bvh_build.h"

/* ---- a deterministic generator ---------------------------------------- */

static rs_rng rng;

static double uniform(double lo, double hi) { return rs_uniform(&rng, lo, hi); }

static float uf(double lo, double hi) { return (float)uniform(lo, hi); }

static void random_quat(versor q)
{
    vec3 axis = {uf(-1, 1), uf(-1, 1), uf(-1, 1) + 1.5f};
    glm_vec3_normalize(axis);
    glm_quatv(q, uf(0, 6.28), axis);
}

/* ---- objects of every kind (random_scene.h) ------------------------------ */

/* The cube the mesh instances share. */
static rp_mesh *cube_mesh(void)
{
    rp_mesh *m = rs_cube_mesh();
    assert_non_null(m);
    return m;
}

static void random_object(rs_object *o, rs_kind k, float extent)
{
    vec3 c = {uf(-extent, extent), uf(-extent, extent), uf(-extent, extent)};
    float s = uf(0.2, 2.0);
    o->kind = k;
    switch (k) {
    case RS_SPHERE:
        glm_vec3_copy(c, o->sphere.center);
        o->sphere.radius = s;
        break;
    case RS_ELLIPSOID:
        glm_vec3_copy(c, o->ellipsoid.center);
        o->ellipsoid.radii[0] = s;
        o->ellipsoid.radii[1] = uf(0.2, 2.0);
        o->ellipsoid.radii[2] = uf(0.2, 2.0);
        if (uniform(0, 1) < 0.5)
            glm_vec4_zero(o->ellipsoid.orientation);
        else
            random_quat(o->ellipsoid.orientation);
        break;
    case RS_AABB:
        for (int i = 0; i < 3; i++) {
            o->aabb.min[i] = c[i] - uf(0, 2);
            o->aabb.max[i] = c[i] + uf(0, 2);
        }
        break;
    case RS_OBB:
        glm_vec3_copy(c, o->obb.center);
        o->obb.half_extents[0] = s;
        o->obb.half_extents[1] = uf(0.1, 2.0);
        o->obb.half_extents[2] = uf(0.1, 2.0);
        random_quat(o->obb.orientation);
        break;
    default: {
        versor q;
        random_quat(q);
        glm_mat4_identity(o->model);
        glm_translate(o->model, c);
        glm_quat_rotate(o->model, q, o->model);
        glm_scale(o->model, (vec3){s, uf(0.2, 2.0), uf(0.2, 2.0)});
        break;
    }
    }
}

static void random_ray(rp_ray *r, float extent, const rs_object *aim)
{
    for (int i = 0; i < 3; i++)
        r->origin[i] = uf(-2 * extent, 2 * extent);
    if (aim != NULL) {
        /* towards an object's centre, give or take: most such rays hit */
        vec3 c;
        rs_center(aim, c);
        for (int i = 0; i < 3; i++)
            r->dir[i] = (c[i] + uf(-0.5, 0.5) - r->origin[i]) * uf(0.01, 3);
    } else {
        for (int i = 0; i < 3; i++)
            r->dir[i] = uf(-1, 1);
    }
}

static void assert_same_hit(const rp_hit *a, const rp_hit *b)
{
    assert_true(a->t == b->t && a->t_enter == b->t_enter && a->t_exit == b->t_exit);
    assert_memory_equal(a->point, b->point, sizeof(vec3));
    assert_memory_equal(a->normal, b->normal, sizeof(vec3));
    assert_true(a->inside == b->inside);
}

#define SENTINEL 4242.0f

static rp_hit sentinel_hit(void)
{
    rp_hit h;
    h.t = h.t_enter = h.t_exit = SENTINEL;
    glm_vec3_fill(h.point, SENTINEL);
    glm_vec3_fill(h.normal, SENTINEL);
    h.inside = true;
    return h;
}

static const rp_triangle_hit tri_sentinel = {777u, SENTINEL, SENTINEL};

/* Scene query and brute force agree on index, hit and triangle; a miss
   and a non-mesh hit leave tri untouched. Returns the index. */
static int check_ray(const rp_scene *s, const rp_ray *ray, const rp_mesh *mesh, rs_object *objs,
                     int n)
{
    rp_hit got = sentinel_hit(), want = sentinel_hit();
    rp_triangle_hit got_tri = tri_sentinel, want_tri = tri_sentinel;
    int i = rp_intersect_ray_scene(s, ray, &got, &got_tri);
    int j = rs_nearest(ray, mesh, objs, n, &want, &want_tri);
    assert_int_equal(i, j);
    assert_same_hit(&got, &want);
    assert_memory_equal(&got_tri, &want_tri, sizeof got_tri);
    assert_int_equal(rp_intersect_ray_scene(s, ray, NULL, NULL), i);
    /* the traced traversal gives the same answer */
    rp_hit traced = sentinel_hit();
    rp_triangle_hit traced_tri = tri_sentinel;
    rp_scene_trace trace = {0};
    assert_int_equal(rp_intersect_ray_scene_traced(s, ray, &trace, &traced, &traced_tri), i);
    assert_same_hit(&traced, &got);
    assert_memory_equal(&traced_tri, &got_tri, sizeof got_tri);
    assert_true(trace.visit_count == trace.nodes_visited + trace.leaves_visited);
    return i;
}

/* ---- the BVH4 ------------------------------------------------------------ */

static void assert_slot_box(const rp_bvh4_node *n, int i, const float lo[3], const float hi[3])
{
    for (int a = 0; a < 3; a++) {
        assert_true(n->b[a][i] == lo[a]);
        assert_true(n->b[3 + a][i] == hi[a]);
    }
}

/* Every used slot's box is exactly the box around what it holds (its
   node's used slots, or its leaf's objects), every node but the root is
   some slot's child and comes after its parent, every leaf entry belongs
   to exactly one leaf and every object to one entry, and empty slots are
   inverted boxes. */
static void check_bvh4(const rp_bvh4_node *nodes, uint32_t count, uint32_t halves,
                       const uint32_t *prims, const rp_bvh_box *boxes, uint32_t n)
{
    unsigned char *entry_seen = calloc(n, 1), *obj_seen = calloc(n, 1);
    unsigned char *half_seen = calloc(count, 1);
    uint32_t *stack = malloc(count * sizeof *stack);
    assert_true(halves == 1 || halves == 2);
    /* from the root (every half of it), each node once through its parent */
    int sp = 0;
    stack[sp++] = rp_bvh4_root(halves);
    while (sp > 0) {
        const uint32_t ref = stack[--sp];
        const uint32_t q = rp_bvh4_child_first(ref, halves);
        const uint32_t its = rp_bvh4_child_halves(ref, halves);
        assert_true(q + its <= count);
        int used = 0;
        for (uint32_t s = 0; s < 4 * its; s++) {
            const rp_bvh4_node *nd = &nodes[q + s / 4];
            const int i = (int)(s % 4);
            if (s % 4 == 0)
                assert_int_equal(half_seen[q + s / 4]++, 0);
            float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
            if (nd->child[i] == RP_BVH4_EMPTY) {
                assert_slot_box(nd, i, lo, hi);
                continue;
            }
            used++;
            if (nd->count[i] > 0) {
                assert_true(nd->child[i] + nd->count[i] <= n);
                for (uint32_t j = nd->child[i]; j < nd->child[i] + nd->count[i]; j++) {
                    assert_int_equal(entry_seen[j]++, 0);
                    assert_true(prims[j] < n);
                    assert_int_equal(obj_seen[prims[j]]++, 0);
                    for (int a = 0; a < 3; a++) {
                        lo[a] = fminf(lo[a], boxes[prims[j]].min[a]);
                        hi[a] = fmaxf(hi[a], boxes[prims[j]].max[a]);
                    }
                }
            } else {
                /* a node after its parent, in the tree */
                const uint32_t c = rp_bvh4_child_first(nd->child[i], halves);
                const uint32_t c_halves = rp_bvh4_child_halves(nd->child[i], halves);
                assert_true(c > q && c + c_halves <= count);
                for (uint32_t k = 0; k < 4 * c_halves; k++) {
                    for (int a = 0; a < 3; a++) {
                        lo[a] = fminf(lo[a], nodes[c + k / 4].b[a][k % 4]);
                        hi[a] = fmaxf(hi[a], nodes[c + k / 4].b[3 + a][k % 4]);
                    }
                }
                assert_true(sp < (int)count);
                stack[sp++] = nd->child[i];
            }
            assert_slot_box(nd, i, lo, hi);
        }
        /* a second half only for more than four children */
        assert_true(used >= 1 && (q == 0 || used >= 2));
        if (q > 0 && halves == 2)
            assert_true((its == 2) == (used > 4));
    }
    for (uint32_t q = 0; q < count; q++)
        assert_int_equal(half_seen[q], 1);
    for (uint32_t j = 0; j < n; j++) {
        assert_int_equal(entry_seen[j], 1);
        assert_int_equal(obj_seen[j], 1);
    }
    free(stack);
    free(entry_seen);
    free(obj_seen);
    free(half_seen);
}

/* n boxes centred in [-spread, spread]^3, half sizes in [h_lo, h_hi]. */
static rp_bvh_box *random_boxes(uint32_t n, double spread, double h_lo, double h_hi)
{
    rp_bvh_box *boxes = malloc(n * sizeof *boxes);
    assert_non_null(boxes);
    for (uint32_t i = 0; i < n; i++)
        for (int a = 0; a < 3; a++) {
            float c = uf(-spread, spread), h = uf(h_lo, h_hi);
            boxes[i].min[a] = c - h;
            boxes[i].max[a] = c + h;
        }
    return boxes;
}

/* The BVH4 of random boxes as the builder makes it (one subtree, or many
   collapsed on their threads under the top's nodes), then refitted after
   every box moved (some far): still exact boxes around their contents,
   and the cost the refit returns is the tree's cost. A tree of one leaf
   too. The scene's trees (a slot per object) and trees whose leaf slots
   hold several, four-wide and eight-wide. */
static void bvh4_boxes_hold_their_contents_after_build_and_refit(void **state)
{
    (void)state;
    rng.s = 99991u;
    const uint32_t sizes[] = {3, 5000, 40000};
    const rp_bvh_shape several[2] = {{8, 1.0, 0, true, 0, 1}, {8, 1.0, 0, true, 0, 2}};
    for (int t = 0; t < 9; t++) {
        uint32_t n = sizes[t % 3];
        rp_bvh_box *boxes = random_boxes(n, 100, 0, 3);
        rp_bvh bin;
        assert_true(t < 3 ? rp_bvh_build(boxes, n, &bin)
                          : rp_bvh_build_shaped(boxes, n, &several[t / 3 - 1], &bin));
        if (t >= 3 && n > 4) {      /* leaf slots of several entries */
            uint32_t several_in_a_slot = 0;
            for (uint32_t q = 0; q < bin.node_count; q++)
                for (int i = 0; i < 4; i++)
                    several_in_a_slot += bin.nodes[q].count[i] > 1;
            assert_true(several_in_a_slot > 0);
        }
        rp_bvh4_node *nodes = bin.nodes;
        uint32_t count = bin.node_count;
        assert_non_null(nodes);
        assert_true(count >= bin.halves && (n > 4 || count == bin.halves));
        check_bvh4(nodes, count, bin.halves, bin.prims, boxes, n);
        double built = rp_bvh4_cost(nodes, count, bin.halves);
        assert_true(built > 0.0);
        for (uint32_t i = 0; i < n; i++) {
            float far = i % 10 == 0 ? 50.0f : 1.0f;
            for (int a = 0; a < 3; a++) {
                float d = uf(-far, far);
                boxes[i].min[a] += d;
                boxes[i].max[a] += d;
            }
        }
        double cost = rp_bvh4_refit(nodes, count, bin.halves, bin.prims, boxes);
        check_bvh4(nodes, count, bin.halves, bin.prims, boxes, n);
        assert_true(fabs(cost - rp_bvh4_cost(nodes, count, bin.halves)) <= 1e-12 * cost);
        rp_bvh_box root;
        assert_true(rp_bvh4_bounds(nodes, count, bin.halves, &root));
        for (uint32_t i = 0; i < n; i++) {
            for (int a = 0; a < 3; a++) {
                assert_true(root.min[a] <= boxes[i].min[a]);
                assert_true(root.max[a] >= boxes[i].max[a]);
            }
        }
        rp_bvh_free(&bin);
        free(boxes);
    }
}

/* A scene's tree boxes every object on its own: a node of up to
   RP_BVH_SCENE_MAX_LEAF objects is not split but gives each its own slot
   (in its parent's node when they fit there), so every leaf holds one
   object, from a tree of one object to one of many; the rest as
   check_bvh4. */
static void scene_tree_boxes_each_object(void **state)
{
    (void)state;
    rng.s = 31337u;
    const uint32_t sizes[] = {1, 2, 3, 4, 5, 9, 700, 30000};
    for (int s = 0; s < 8; s++) {
        uint32_t n = sizes[s];
        rp_bvh_box *boxes = random_boxes(n, 100, 0.1, 3);
        rp_bvh bin;
        assert_true(rp_bvh_build(boxes, n, &bin));
        check_bvh4(bin.nodes, bin.node_count, bin.halves, bin.prims, boxes, n);
        for (uint32_t q = 0; q < bin.node_count; q++)
            for (int i = 0; i < 4; i++)
                assert_true(bin.nodes[q].child[i] == RP_BVH4_EMPTY ||
                            bin.nodes[q].count[i] <= 1);
        /* up to four objects: one node (of eight slots), a slot each */
        assert_int_equal(bin.halves, 2);
        if (n <= RP_BVH_SCENE_MAX_LEAF)
            assert_int_equal(bin.node_count, bin.halves);
        rp_bvh_free(&bin);
        free(boxes);
    }
}

/* The leaf entries under the node `ref` refers to, counted by walking it;
   *lo and *hi: the least and one past the greatest. */
static uint32_t entries_under(const rp_bvh *bin, uint32_t ref, uint32_t *lo, uint32_t *hi)
{
    const uint32_t q = rp_bvh4_child_first(ref, bin->halves);
    uint32_t count = 0;
    for (uint32_t s = 0; s < 4 * rp_bvh4_child_halves(ref, bin->halves); s++) {
        const rp_bvh4_node *n = &bin->nodes[q + s / 4];
        const uint32_t c = n->child[s % 4], k = n->count[s % 4];
        if (c == RP_BVH4_EMPTY)
            continue;
        if (k > 0) {
            *lo = c < *lo ? c : *lo;
            *hi = c + k > *hi ? c + k : *hi;
            count += k;
        } else {
            count += entries_under(bin, c, lo, hi);
        }
    }
    return count;
}

/* Every node of a scene's tree covers one run of leaf entries, and its
   range (rp_bvh4_ranges, joined over its halves) says which: what lets a
   frustum query list a box wholly inside without walking it. The slots
   of a wide node follow the leaf order, so each half's run is one too. */
static void every_node_range_is_its_run_of_entries(void **state)
{
    (void)state;
    rng.s = 2718u;
    const uint32_t sizes[] = {5, 40, 3000, 40000};
    for (int s = 0; s < 4; s++) {
        const uint32_t n = sizes[s];
        rp_bvh_box *boxes = random_boxes(n, 300, 0.1, 2);
        rp_bvh bin;
        assert_true(rp_bvh_build(boxes, n, &bin));
        rp_bvh4_range *ranges = malloc(bin.node_count * sizeof *ranges);
        for (int threaded = 0; threaded < 2; threaded++) {
            rp_bvh4_ranges(bin.nodes, bin.node_count, bin.halves, bin.top_count, bin.half,
                           threaded, ranges);
            uint32_t lo = UINT32_MAX, hi = 0;
            assert_int_equal(entries_under(&bin, rp_bvh4_root(bin.halves), &lo, &hi), n);
            const rp_bvh4_range root = rp_bvh4_child_range(ranges, rp_bvh4_root(bin.halves),
                                                           bin.halves);
            assert_true(root.first == 0 && root.end == n);
            uint32_t inner = 0;
            for (uint32_t q = 0; q < bin.node_count; q++) {
                for (int i = 0; i < 4; i++) {
                    const uint32_t c = bin.nodes[q].child[i];
                    if (c == RP_BVH4_EMPTY || bin.nodes[q].count[i] > 0)
                        continue;
                    inner++;
                    lo = UINT32_MAX;
                    hi = 0;
                    const uint32_t count = entries_under(&bin, c, &lo, &hi);
                    const rp_bvh4_range r = rp_bvh4_child_range(ranges, c, bin.halves);
                    assert_int_equal(hi - lo, count);
                    assert_int_equal(r.first, lo);
                    assert_int_equal(r.end, hi);
                }
            }
            assert_int_equal(inner + 1, bin.node_total);
        }
        free(ranges);
        rp_bvh_free(&bin);
        free(boxes);
    }
}

/* The builder's cost is the tree's, and its two halves of subtrees hold
   their own children: refitting them on two threads and then the top
   gives the serial refit's boxes exactly (and its cost, summed in
   another order); bounds out of order fall back to the serial refit. */
static void split_refit_equals_serial_refit(void **state)
{
    (void)state;
    rng.s = 4242u;
    const uint32_t sizes[] = {5000, 40000};
    for (int s = 0; s < 2; s++) {
        uint32_t n = sizes[s];
        rp_bvh_box *boxes = random_boxes(n, 500, 0.1, 2);
        rp_bvh bin;
        assert_true(rp_bvh_build(boxes, n, &bin));
        assert_true(fabs(bin.cost - rp_bvh4_cost(bin.nodes, bin.node_count, bin.halves)) <=
                    1e-12 * bin.cost);
        assert_true(bin.top_count <= bin.half && bin.half <= bin.node_count);
        if (n > 20000)      /* many subtrees: a top, and two non-empty halves */
            assert_true(bin.top_count > 0 && bin.half > bin.top_count &&
                        bin.half < bin.node_count);
        for (uint32_t i = 0; i < n; i++) {
            float d = i % 7 == 0 ? uf(-40, 40) : uf(-1, 1);
            for (int a = 0; a < 3; a++) {
                boxes[i].min[a] += d;
                boxes[i].max[a] += d;
            }
        }
        size_t bytes = bin.node_count * sizeof *bin.nodes;
        rp_bvh4_node *serial = malloc(bytes);
        memcpy(serial, bin.nodes, bytes);
        double want = rp_bvh4_refit(serial, bin.node_count, bin.halves, bin.prims, boxes);
        for (int threaded = 0; threaded < 2; threaded++) {
            rp_bvh4_node *split = malloc(bytes);
            memcpy(split, bin.nodes, bytes);
            double got = rp_bvh4_refit_split(split, bin.node_count, bin.halves, bin.top_count,
                                             bin.prims, boxes, threaded);
            assert_memory_equal(split, serial, bytes);
            assert_true(fabs(got - want) <= 1e-12 * want);
            free(split);
        }
        /* a split that is not the builder's: the serial refit */
        rp_bvh4_node *bad = malloc(bytes);
        memcpy(bad, bin.nodes, bytes);
        double got = rp_bvh4_refit_split(bad, bin.node_count, bin.halves, bin.node_count,
                                         bin.prims, boxes, true);
        assert_memory_equal(bad, serial, bytes);
        assert_true(got == want);
        free(bad);
        check_bvh4(serial, bin.node_count, bin.halves, bin.prims, boxes, n);
        free(serial);
        rp_bvh_free(&bin);
        free(boxes);
    }
}

/* ---- tests --------------------------------------------------------------- */

static void nearest_equals_brute_force_on_mixed_scenes(void **state)
{
    (void)state;
    rp_mesh *mesh = cube_mesh();
    const int sizes[] = {1, 2, 7, 60, 400};
    for (int seed = 1; seed <= 5; seed++) {
        rng.s = 0x9e3779b97f4a7c15ULL * (uint64_t)seed;
        int n = sizes[seed - 1];
        float extent = 2.0f + sqrtf((float)n);
        rs_object *objs = calloc((size_t)n, sizeof *objs);
        rp_scene *s = rp_scene_create();
        assert_non_null(s);
        for (int i = 0; i < n; i++) {
            /* every fifth object repeats an earlier one exactly: ties */
            if (i > 0 && i % 5 == 0)
                objs[i] = objs[(int)uniform(0, i)];
            else
                random_object(&objs[i], (rs_kind)(i % RS_KINDS), extent);
            assert_int_equal(rs_add(s, mesh, &objs[i]), i);
        }
        assert_true(rp_scene_build(s));
        int hits = 0, ties = 0;
        const int rays = (int)test_scaled(2000, 400);
        for (int r = 0; r < rays; r++) {
            rp_ray ray;
            random_ray(&ray, extent, r % 4 ? &objs[(int)uniform(0, n)] : NULL);
            int i = check_ray(s, &ray, mesh, objs, n);
            hits += i >= 0;
            /* count the ties on some rays (the check above covers them all) */
            for (int k = 0; i >= 0 && r < rays / 5 && k < n; k++) {
                rp_hit h, best;
                rp_triangle_hit th;
                rs_hit(&ray, mesh, &objs[i], &best, &th);
                if (k != i && rs_hit(&ray, mesh, &objs[k], &h, &th) && h.t == best.t)
                    ties++;
            }
        }
        assert_true(hits > 2 * rays / 25);     /* the hit paths were really exercised */
        if (n >= 7)
            assert_true(ties > 0);     /* the duplicates were really exercised */
        rp_scene_destroy(s);
        free(objs);
    }
    rp_mesh_destroy(mesh);
}

static void moves_are_seen_after_build_and_not_before(void **state)
{
    (void)state;
    rp_scene *s = rp_scene_create();
    rp_sphere a = {{0, 0, -10}, 1};
    rp_ray ray = {{0, 0, 0}, {0, 0, -1}};
    rp_ray side = {{5, 0, 0}, {0, 0, -1}};

    assert_int_equal(rp_intersect_ray_scene(s, &ray, NULL, NULL), -1);   /* empty */
    assert_int_equal(rp_scene_add_sphere(s, &a), 0);
    assert_int_equal(rp_intersect_ray_scene(s, &ray, NULL, NULL), -1);   /* unbuilt */
    assert_true(rp_scene_build(s));
    assert_int_equal(rp_intersect_ray_scene(s, &ray, NULL, NULL), 0);

    /* moved away: the old place still answers until the build */
    rp_sphere moved = {{5, 0, -10}, 1};
    assert_true(rp_scene_set_sphere(s, 0, &moved));
    assert_int_equal(rp_intersect_ray_scene(s, &ray, NULL, NULL), 0);
    assert_int_equal(rp_intersect_ray_scene(s, &side, NULL, NULL), -1);
    assert_true(rp_scene_build(s));
    assert_int_equal(rp_intersect_ray_scene(s, &ray, NULL, NULL), -1);
    rp_hit h;
    assert_int_equal(rp_intersect_ray_scene(s, &side, &h, NULL), 0);
    assert_float_equal(h.t, 9.0f, 1e-5f);

    /* an add is invisible until the build too, and then it is nearer */
    rp_aabb box = {{4, -1, -4}, {6, 1, -3}};
    assert_int_equal(rp_scene_add_aabb(s, &box), 1);
    assert_int_equal(rp_intersect_ray_scene(s, &side, &h, NULL), 0);
    assert_true(rp_scene_build(s));
    assert_int_equal(rp_intersect_ray_scene(s, &side, &h, NULL), 1);
    assert_float_equal(h.t, 3.0f, 1e-5f);
    /* a build with no change keeps the answers */
    assert_true(rp_scene_build(s));
    assert_int_equal(rp_intersect_ray_scene(s, &side, &h, NULL), 1);
    rp_scene_destroy(s);
}

/* Two scenes with the same final objects: one built, moved and built again
   (refit, or rebuild when the moves wreck the tree), one built from
   scratch. Every ray gets the same answer from both and from brute force. */
static void refit_and_rebuild_agree(void **state)
{
    (void)state;
    rp_mesh *mesh = cube_mesh();
    const float move[] = {0.3f, 40.0f};     /* small moves refit; huge ones rebuild */
    for (int m = 0; m < 2; m++) {
        rng.s = 1234567u + (uint64_t)m;
        const int n = 500;
        float extent = 25.0f;
        rs_object *objs = calloc(n, sizeof *objs);
        rp_scene *moved = rp_scene_create(), *fresh = rp_scene_create();
        for (int i = 0; i < n; i++) {
            random_object(&objs[i], (rs_kind)(i % RS_KINDS), extent);
            assert_int_equal(rs_add(moved, mesh, &objs[i]), i);
        }
        assert_true(rp_scene_build(moved));
        for (int i = 0; i < n; i++) {
            vec3 d = {uf(-move[m], move[m]), uf(-move[m], move[m]), uf(-move[m], move[m])};
            rs_object *o = &objs[i];
            switch (o->kind) {
            case RS_SPHERE: glm_vec3_add(o->sphere.center, d, o->sphere.center); break;
            case RS_ELLIPSOID: glm_vec3_add(o->ellipsoid.center, d, o->ellipsoid.center); break;
            case RS_AABB:
                glm_vec3_add(o->aabb.min, d, o->aabb.min);
                glm_vec3_add(o->aabb.max, d, o->aabb.max);
                break;
            case RS_OBB: glm_vec3_add(o->obb.center, d, o->obb.center); break;
            default: glm_vec3_add(o->model[3], d, o->model[3]); break;
            }
            assert_true(rs_set(moved, i, o));
            assert_int_equal(rs_add(fresh, mesh, o), i);
        }
        assert_true(rp_scene_build(moved));
        assert_true(rp_scene_build(fresh));
        for (int r = 0; r < (int)test_scaled(800, 100); r++) {
            rp_ray ray;
            random_ray(&ray, extent + move[m], &objs[(int)uniform(0, n)]);
            int a = check_ray(moved, &ray, mesh, objs, n);
            assert_int_equal(check_ray(fresh, &ray, mesh, objs, n), a);
        }
        rp_scene_destroy(moved);
        rp_scene_destroy(fresh);
        free(objs);
    }
    rp_mesh_destroy(mesh);
}

/* 100,000 objects (spheres, with boxes among them) against brute force:
   rp_intersect_ray_spheres for the spheres (documented equal to a loop
   over rp_intersect_ray_sphere) and a loop for the boxes. At a smaller
   RAYPICK_TEST_SCALE 40,000 at least: the builder still splits them into
   threaded subtrees (bvh_build.c: SUBTREE_MIN), while the brute force (in
   the portable build one sphere at a time) shrinks with them; they fill a
   smaller cube, as densely. */
static void hundred_thousand_objects_match_brute_force(void **state)
{
    (void)state;
    rng.s = 42;
    const int n = (int)test_scaled(100000, 40000), rays = (int)test_scaled(2000, 200);
    const double half = 500.0 * cbrt(n / 100000.0);     /* the cube's half side: as dense at any n */
    long opened = 0, tested = 0;
    int tree_nodes = 0;
    rp_sphere *spheres = malloc(n * sizeof *spheres);
    int *sphere_index = malloc(n * sizeof *sphere_index);
    rp_aabb *boxes = malloc(n * sizeof *boxes);
    int *box_index = malloc(n * sizeof *box_index);
    int ns = 0, nb = 0;
    rp_scene *s = rp_scene_create();
    for (int i = 0; i < n; i++) {
        vec3 c = {uf(-half, half), uf(-half, half), uf(-half, half)};
        if (i % 50 == 3) {
            rp_aabb b = {{c[0] - 1, c[1] - 1, c[2] - 1}, {c[0] + 1, c[1] + 1, c[2] + 1}};
            boxes[nb] = b;
            box_index[nb++] = i;
            assert_int_equal(rp_scene_add_aabb(s, &b), i);
        } else {
            rp_sphere sp = {{c[0], c[1], c[2]}, uf(0.5, 2)};
            spheres[ns] = sp;
            sphere_index[ns++] = i;
            assert_int_equal(rp_scene_add_sphere(s, &sp), i);
        }
    }
    assert_true(rp_scene_build(s));
    int hits = 0;
    for (int r = 0; r < rays; r++) {
        rp_ray ray;
        for (int k = 0; k < 3; k++) {
            ray.origin[k] = uf(-1.2 * half, 1.2 * half);
            ray.dir[k] = uf(-1, 1);
        }
        rp_hit want, h;
        int j = rp_intersect_ray_spheres(&ray, spheres, (size_t)ns, &want);
        int best = j >= 0 ? sphere_index[j] : -1;
        for (int b = 0; b < nb; b++)
            if (rp_intersect_ray_aabb(&ray, &boxes[b], &h) &&
                (best < 0 || h.t < want.t || (h.t == want.t && box_index[b] < best))) {
                best = box_index[b];
                want = h;
            }
        rp_hit got;
        int i = rp_intersect_ray_scene(s, &ray, &got, NULL);
        assert_int_equal(i, best);
        if (i >= 0) {
            assert_same_hit(&got, &want);
            hits++;
        }
        rp_scene_trace trace = {0};
        assert_int_equal(rp_intersect_ray_scene_traced(s, &ray, &trace, NULL, NULL), i);
        opened += trace.nodes_visited;
        tested += trace.objects_tested;
        tree_nodes = trace.tree_nodes;
    }
    assert_true(hits > rays / 10);
    /* what the BVH is for: a ray opens a sliver of the tree and runs a
       handful of the 100,000 objects through their own functions */
    assert_true(tree_nodes > n / 8);
    assert_true(opened < (long)rays * tree_nodes / 100);
    assert_true(tested < (long)rays * 100);
    rp_scene_destroy(s);
    free(spheres);
    free(sphere_index);
    free(boxes);
    free(box_index);
}

/* All objects the same: the builder cannot split by position, still
   builds with a bounded depth, and the lowest index wins every tie. */
static void identical_objects_build_bounded_and_tie_to_lowest(void **state)
{
    (void)state;
    const int n = 20000;
    rp_bvh_box *boxes = malloc(n * sizeof *boxes);
    for (int i = 0; i < n; i++)
        boxes[i] = (rp_bvh_box){{-1, -1, -1}, {1, 1, 1}};
    rp_bvh bvh;
    assert_true(rp_bvh_build(boxes, n, &bvh));
    assert_true(bvh.depth <= RP_BVH_MAX_DEPTH);
    assert_true(bvh.depth <= 16);       /* halving: log2(20000 / 4) < 13 */
    rp_bvh_free(&bvh);
    /* the same with every object on one line and a huge SAH depth */
    for (int i = 0; i < n; i++)
        boxes[i] = (rp_bvh_box){{(float)i, 0, 0}, {(float)i, 0, 0}};
    assert_true(rp_bvh_build(boxes, n, &bvh));
    assert_true(bvh.depth <= RP_BVH_MAX_DEPTH);
    rp_bvh_free(&bvh);
    free(boxes);

    rp_scene *s = rp_scene_create();
    rp_sphere sp = {{3, 4, 5}, 1.5f};
    for (int i = 0; i < n; i++)
        assert_int_equal(rp_scene_add_sphere(s, &sp), i);
    assert_true(rp_scene_build(s));
    rp_ray ray = {{3, 4, 50}, {0, 0, -2}};
    rp_hit h;
    assert_int_equal(rp_intersect_ray_scene(s, &ray, &h, NULL), 0);
    rp_hit want;
    assert_true(rp_intersect_ray_sphere(&ray, &sp, &want));
    assert_same_hit(&h, &want);
    rp_ray miss = {{30, 4, 50}, {0, 0, -2}};
    assert_int_equal(rp_intersect_ray_scene(s, &miss, NULL, NULL), -1);
    /* moving all but the last away: the last one is the only hit */
    rp_sphere away = {{100, 4, 5}, 1.5f};
    for (int i = 0; i < n - 1; i++)
        assert_true(rp_scene_set_sphere(s, i, &away));
    assert_true(rp_scene_build(s));
    assert_int_equal(rp_intersect_ray_scene(s, &ray, NULL, NULL), n - 1);
    rp_scene_destroy(s);
}

/* check_bvh4, and no leaf holds more than RP_BVH_SCENE_MAX_LEAF. */
static void assert_tree_valid(const rp_bvh *bvh, const rp_bvh_box *boxes, uint32_t n)
{
    assert_int_equal(bvh->prim_count, n);
    check_bvh4(bvh->nodes, bvh->node_count, bvh->halves, bvh->prims, boxes, n);
    for (uint32_t q = 0; q < bvh->node_count; q++)
        for (int i = 0; i < 4; i++)
            assert_true(bvh->nodes[q].count[i] <= RP_BVH_SCENE_MAX_LEAF);
}

/* Big builds run on several threads: the tree (every node, every index)
   is the same on one thread as on two, three or eight, and valid, with
   either partition (scattered or not: the scene's with its own slots for
   small leaves' objects, the other without), on random boxes, on many
   equal ones, and on boxes in order along a curve (a mesh's order: whole
   blocks of neighbours fall on one side). */
static void tree_is_the_same_on_any_number_of_threads(void **state)
{
    (void)state;
    /* some 8 subtrees under a top of 3 levels; at least 3 (bvh_build.c:
       SUBTREE_MIN is 16384) */
    const uint32_t n = (uint32_t)test_scaled(80000, 40000);
    rp_bvh_box *boxes = malloc(n * sizeof *boxes);
    rng.s = 77;
    for (int variant = 0; variant < 6; variant++) {
        const bool scattered = variant % 2 == 1;
        for (uint32_t i = 0; i < n; i++) {
            float c[3], r = uf(0.01, 3);
            float s = (float)i * 0.001f;
            for (int k = 0; k < 3; k++) {
                if (variant / 2 == 0)
                    c[k] = uf(-500, 500);
                else if (variant / 2 == 1)
                    c[k] = (float)(i % 7);                          /* many equal */
                else
                    c[k] = 100.0f * sinf(s * (float)(k + 1)) + uf(-1, 1);   /* in order */
            }
            for (int k = 0; k < 3; k++) {
                boxes[i].min[k] = c[k] - r;
                boxes[i].max[k] = c[k] + r;
            }
        }
        rp_bvh one;
        const uint32_t own = scattered ? RP_BVH_SCENE_MAX_LEAF : 0;
        /* the scene's nodes of eight children, the mesh's of four */
        const uint32_t halves = scattered ? 2 : 1;
        const rp_bvh_shape serial = {RP_BVH_SCENE_MAX_LEAF, 1.0, 1, scattered, own, halves};
        assert_true(rp_bvh_build_shaped(boxes, n, &serial, &one));
        assert_tree_valid(&one, boxes, n);
        assert_true(one.depth <= RP_BVH_MAX_DEPTH);
        /* subtrees under a top, in two non-empty halves: work to share */
        assert_true(one.top_count > 0 && one.half > one.top_count && one.half < one.node_count);
        /* at a smaller RAYPICK_TEST_SCALE (memcheck, which runs threads one
           at a time: every count runs the same code) 3 alone, an uneven
           split; the unscaled run holds all three to the serial tree */
        const uint32_t threads[3] = {3, 2, 8};
        const int counts = test_scale() < 1.0 ? 1 : 3;
        for (int t = 0; t < counts; t++) {
            rp_bvh many;
            const rp_bvh_shape parallel = {RP_BVH_SCENE_MAX_LEAF, 1.0, threads[t], scattered,
                                           own, halves};
            assert_true(rp_bvh_build_shaped(boxes, n, &parallel, &many));
            assert_int_equal(many.node_count, one.node_count);
            assert_int_equal(many.depth, one.depth);
            assert_memory_equal(many.nodes, one.nodes, one.node_count * sizeof *one.nodes);
            assert_memory_equal(many.prims, one.prims, n * sizeof *one.prims);
            assert_true(rp_bvh4_cost(many.nodes, many.node_count, many.halves) ==
                        rp_bvh4_cost(one.nodes, one.node_count, one.halves));
            rp_bvh_free(&many);
        }
        rp_bvh_free(&one);
    }
    free(boxes);
}

static void mesh_hits_report_the_triangle(void **state)
{
    (void)state;
    rp_mesh *mesh = cube_mesh();
    rp_scene *s = rp_scene_create();
    rp_sphere sp = {{0, 0, -20}, 1};
    mat4 model;
    glm_translate_make(model, (vec3){0, 0, -10});
    assert_int_equal(rp_scene_add_sphere(s, &sp), 0);
    assert_int_equal(rp_scene_add_mesh(s, mesh, model), 1);
    assert_true(rp_scene_build(s));
    rp_ray ray = {{0.25f, 0.5f, 0}, {0, 0, -1}};
    rp_hit h, want;
    rp_triangle_hit tri = tri_sentinel, want_tri;
    assert_int_equal(rp_intersect_ray_scene(s, &ray, &h, &tri), 1);
    assert_true(rp_intersect_ray_mesh_instance(mesh, model, &ray, &want, &want_tri));
    assert_same_hit(&h, &want);
    assert_memory_equal(&tri, &want_tri, sizeof tri);
    assert_float_equal(h.t, 9.0f, 1e-5f);
    /* the sphere behind it, once the mesh moves away: tri untouched */
    glm_translate_make(model, (vec3){10, 0, -10});
    assert_true(rp_scene_set_mesh_model(s, 1, model));
    assert_true(rp_scene_build(s));
    tri = tri_sentinel;
    assert_int_equal(rp_intersect_ray_scene(s, &ray, &h, &tri), 0);
    assert_memory_equal(&tri, &tri_sentinel, sizeof tri);
    rp_scene_destroy(s);
    rp_mesh_destroy(mesh);
}

/* Found by fuzz_scene: a skewed, badly scaled model (columns of 0.006 and
   936) puts the world origin 3e7 model units from the cube. The model-space
   ray rounded to float there passed a cube width off the true one, so the
   instance reported a hit the world ray never makes (its world box, z in
   [0.22, 4.53], is nowhere near the ray's z = 0) and the scene, trusting
   that box, disagreed with it. Both must now say miss, and a ray through
   the cube's centre must still hit it: the line x = z = 2.375 crosses the
   model's x = -1 face 7e-8 before the centre, so t is 2.375 in float. */
static void skewed_instance_far_in_model_space_matches_scene(void **state)
{
    (void)state;
    rp_mesh *mesh = cube_mesh();
    mat4 model = {{0.005859375f, 0, 0.15625f, 0},
                  {0, 0, -2.0f, 0},
                  {-936.0f, 0.01171875f, 0, 0},
                  {2.375f, 2.375f, 2.375f, 1}};
    rp_scene *s = rp_scene_create();
    assert_int_equal(rp_scene_add_mesh(s, mesh, model), 0);
    assert_true(rp_scene_build(s));
    rp_hit h;
    rp_triangle_hit tri;
    rp_ray miss = {{0, 0, 0}, {0, 0.005859375f, 0}};
    assert_false(rp_intersect_ray_mesh_instance(mesh, model, &miss, &h, &tri));
    assert_int_equal(rp_intersect_ray_scene(s, &miss, &h, &tri), -1);

    rp_ray through = {{2.375f, 0, 2.375f}, {0, 1, 0}};
    rp_hit want;
    rp_triangle_hit want_tri;
    assert_true(rp_intersect_ray_mesh_instance(mesh, model, &through, &want, &want_tri));
    assert_float_equal(want.t, 2.375f, 1e-6f);
    assert_int_equal(rp_intersect_ray_scene(s, &through, &h, &tri), 0);
    assert_same_hit(&h, &want);
    assert_memory_equal(&tri, &want_tri, sizeof tri);
    rp_scene_destroy(s);
    rp_mesh_destroy(mesh);
}

/* Found by fuzz_scene too: columns of 1e30 beside one of 1e-44 leave the
   matrix invertible in exact arithmetic but not in double (A inv is far
   from the identity), and the instance reported a hit 1e38 away from its
   box. A numerically singular model is refused, as a singular one is:
   the instance says false and the scene, holding its box, says -1. */
static void numerically_singular_instance_never_hits(void **state)
{
    (void)state;
    rp_mesh *mesh = cube_mesh();
    mat4 model = {{-2.5353205432695726e+30f, -9.624201630438541e+30f, -9.624201630438541e+30f, 0},
                  {-9.624201630438541e+30f, -9.624201630438541e+30f, -9.624201630438541e+30f, 0},
                  {-8.407672191046084e+21f, 1.1210387714598537e-44f, 0, 0},
                  {-8.407663746796782e+21f, -8.407663746796782e+21f, -8.407663746796782e+21f, 1}};
    rp_scene *s = rp_scene_create();
    int i = rp_scene_add_mesh(s, mesh, model);
    assert_true(i == 0 || i == -1);
    assert_true(rp_scene_build(s));
    rp_ray ray = {{0x1.fafafap+127f, 0x1.fafafap+123f, 0x1.fafafap+123f}, {-0.0f, 0x1.7ep-142f, 0}};
    rp_hit h;
    rp_triangle_hit tri;
    assert_false(rp_intersect_ray_mesh_instance(mesh, model, &ray, &h, &tri));
    assert_int_equal(rp_intersect_ray_scene(s, &ray, &h, &tri), -1);
    rp_scene_destroy(s);
    rp_mesh_destroy(mesh);
}

/* The outward rounding of every object's box (rp_float_below/above, in
   internal.h): never on the wrong side of the double, at most three ulps
   away, infinite only past the float range; over doubles from 2^-160
   (below the smallest float) to 2^140 (beyond the largest). */
static void box_rounding_is_outward_and_tight(void **state)
{
    (void)state;
    rng.s = 0x5eed0123u;
    int finite = 0;
    for (int i = 0; i < 400000; i++) {
        double x = ldexp(uniform(0.5, 1.0), (int)uniform(-160.0, 141.0)) * (i & 1 ? -1.0 : 1.0);
        float lo = rp_float_below(x), hi = rp_float_above(x);
        if (fabs(x) <= FLT_MAX * 0.99) {
            assert_true(isfinite(lo) && isfinite(hi));
            finite++;
        }
        if (!isfinite(lo) || !isfinite(hi)) {
            assert_true(fabs(x) > FLT_MAX * 0.99);
            continue;
        }
        assert_true((double)lo <= x && (double)hi >= x);
        /* the tightest floats, then three steps outwards still reach them */
        float tight_lo = (float)x, tight_hi = (float)x;
        if ((double)tight_lo > x)
            tight_lo = nextafterf(tight_lo, -INFINITY);
        if ((double)tight_hi < x)
            tight_hi = nextafterf(tight_hi, INFINITY);
        for (int step = 0; step < 3; step++) {
            tight_lo = nextafterf(tight_lo, -INFINITY);
            tight_hi = nextafterf(tight_hi, INFINITY);
        }
        assert_true(lo >= tight_lo && hi <= tight_hi);
    }
    assert_true(finite > 200000);
}

static void invalid_objects_are_refused(void **state)
{
    (void)state;
    rp_mesh *mesh = cube_mesh();
    rp_scene *s = rp_scene_create();
    rp_sphere sp = {{0, 0, 0}, 1};
    rp_ellipsoid el = {{0, 0, 0}, {1, 2, 3}, {0, 0, 0, 0}};
    rp_aabb box = {{-1, -1, -1}, {1, 1, 1}};
    rp_obb obb = {{0, 0, 0}, {1, 1, 1}, {0, 0, 0, 1}};
    mat4 id = GLM_MAT4_IDENTITY_INIT;

    /* NULL scene or rs_object */
    assert_int_equal(rp_scene_add_sphere(NULL, &sp), -1);
    assert_int_equal(rp_scene_add_sphere(s, NULL), -1);
    assert_int_equal(rp_scene_add_ellipsoid(NULL, &el), -1);
    assert_int_equal(rp_scene_add_ellipsoid(s, NULL), -1);
    assert_int_equal(rp_scene_add_aabb(NULL, &box), -1);
    assert_int_equal(rp_scene_add_aabb(s, NULL), -1);
    assert_int_equal(rp_scene_add_obb(NULL, &obb), -1);
    assert_int_equal(rp_scene_add_obb(s, NULL), -1);
    assert_int_equal(rp_scene_add_mesh(NULL, mesh, id), -1);
    assert_int_equal(rp_scene_add_mesh(s, NULL, id), -1);
    assert_int_equal(rp_scene_add_mesh(s, mesh, NULL), -1);

    /* bad values, each alone */
    rp_sphere bs[] = {{{NAN, 0, 0}, 1}, {{0, INFINITY, 0}, 1}, {{0, 0, 0}, 0},
                      {{0, 0, 0}, -1}, {{0, 0, 0}, NAN}, {{0, 0, 0}, INFINITY},
                      {{3e38f, 0, 0}, 3e38f}};
    for (size_t i = 0; i < sizeof bs / sizeof bs[0]; i++)
        assert_int_equal(rp_scene_add_sphere(s, &bs[i]), -1);
    rp_ellipsoid be[] = {{{NAN, 0, 0}, {1, 1, 1}, {0, 0, 0, 0}},
                         {{0, 0, 0}, {1, 0, 1}, {0, 0, 0, 0}},
                         {{0, 0, 0}, {1, -1, 1}, {0, 0, 0, 0}},
                         {{0, 0, 0}, {1, 1, INFINITY}, {0, 0, 0, 0}},
                         {{0, 0, 0}, {1, 1, 1}, {0, 0, 0, NAN}},
                         {{0, 0, 0}, {1, 1, 1}, {0, 0, 0, 2}}};   /* not unit */
    for (size_t i = 0; i < sizeof be / sizeof be[0]; i++)
        assert_int_equal(rp_scene_add_ellipsoid(s, &be[i]), -1);
    rp_aabb bb[] = {{{1, 0, 0}, {0, 1, 1}}, {{0, 0, 0}, {1, NAN, 1}},
                    {{-INFINITY, 0, 0}, {1, 1, 1}}};
    for (size_t i = 0; i < sizeof bb / sizeof bb[0]; i++)
        assert_int_equal(rp_scene_add_aabb(s, &bb[i]), -1);
    rp_obb bo[] = {{{0, 0, 0}, {1, -1, 1}, {0, 0, 0, 1}},
                   {{0, 0, NAN}, {1, 1, 1}, {0, 0, 0, 1}},
                   {{0, 0, 0}, {1, 1, 1}, {INFINITY, 0, 0, 1}}};
    for (size_t i = 0; i < sizeof bo / sizeof bo[0]; i++)
        assert_int_equal(rp_scene_add_obb(s, &bo[i]), -1);
    mat4 m;
    glm_mat4_copy(id, m);
    m[0][3] = 0.5f;                             /* projective, not affine */
    assert_int_equal(rp_scene_add_mesh(s, mesh, m), -1);
    glm_mat4_copy(id, m);
    m[3][3] = 2.0f;
    assert_int_equal(rp_scene_add_mesh(s, mesh, m), -1);
    glm_mat4_copy(id, m);
    m[2][2] = 0.0f;                             /* singular */
    assert_int_equal(rp_scene_add_mesh(s, mesh, m), -1);
    glm_mat4_copy(id, m);
    m[3][1] = NAN;
    assert_int_equal(rp_scene_add_mesh(s, mesh, m), -1);

    /* nothing was added: the first valid object is index 0 */
    assert_int_equal(rp_scene_add_sphere(s, &sp), 0);
    assert_int_equal(rp_scene_add_obb(s, &obb), 1);
    assert_int_equal(rp_scene_add_mesh(s, mesh, id), 2);
    assert_int_equal(rp_scene_add_ellipsoid(s, &el), 3);
    assert_int_equal(rp_scene_add_aabb(s, &box), 4);
    rp_scene_destroy(s);
    rp_scene_destroy(NULL);     /* ignored */
    assert_false(rp_scene_build(NULL));
    rp_mesh_destroy(mesh);
}

static void wrong_moves_change_nothing(void **state)
{
    (void)state;
    rp_mesh *mesh = cube_mesh();
    rp_scene *s = rp_scene_create();
    rp_sphere sp = {{0, 0, -10}, 1};
    rp_ellipsoid el = {{3, 0, -10}, {1, 1, 1}, {0, 0, 0, 0}};
    rp_aabb box = {{5, -1, -11}, {7, 1, -9}};
    rp_obb obb = {{9, 0, -10}, {1, 1, 1}, {0, 0, 0, 0}};
    mat4 model;
    glm_translate_make(model, (vec3){12, 0, -10});
    assert_int_equal(rp_scene_add_sphere(s, &sp), 0);
    assert_int_equal(rp_scene_add_ellipsoid(s, &el), 1);
    assert_int_equal(rp_scene_add_aabb(s, &box), 2);
    assert_int_equal(rp_scene_add_obb(s, &obb), 3);
    assert_int_equal(rp_scene_add_mesh(s, mesh, model), 4);
    assert_true(rp_scene_build(s));

    /* wrong index */
    assert_false(rp_scene_set_sphere(s, -1, &sp));
    assert_false(rp_scene_set_sphere(s, 5, &sp));
    assert_false(rp_scene_set_sphere(NULL, 0, &sp));
    assert_false(rp_scene_set_sphere(s, 0, NULL));
    /* wrong kind */
    assert_false(rp_scene_set_sphere(s, 1, &sp));
    assert_false(rp_scene_set_ellipsoid(s, 0, &el));
    assert_false(rp_scene_set_aabb(s, 3, &box));
    assert_false(rp_scene_set_obb(s, 2, &obb));
    assert_false(rp_scene_set_mesh_model(s, 0, model));
    assert_false(rp_scene_set_mesh_model(s, 4, NULL));
    /* invalid values on the right rs_object */
    rp_sphere bad_sp = {{0, 0, -10}, -1};
    rp_ellipsoid bad_el = {{3, 0, -10}, {1, 0, 1}, {0, 0, 0, 0}};
    rp_aabb bad_box = {{7, -1, -11}, {5, 1, -9}};
    rp_obb bad_obb = {{9, 0, -10}, {1, NAN, 1}, {0, 0, 0, 0}};
    mat4 bad_model = GLM_MAT4_ZERO_INIT;
    assert_false(rp_scene_set_sphere(s, 0, &bad_sp));
    assert_false(rp_scene_set_ellipsoid(s, 1, &bad_el));
    assert_false(rp_scene_set_aabb(s, 2, &bad_box));
    assert_false(rp_scene_set_obb(s, 3, &bad_obb));
    assert_false(rp_scene_set_mesh_model(s, 4, bad_model));
    assert_true(rp_scene_build(s));

    /* every object is where it was */
    const float xs[5] = {0, 3, 6, 9, 12};
    for (int i = 0; i < 5; i++) {
        rp_ray ray = {{xs[i], 0, 0}, {0, 0, -1}};
        rp_hit h;
        assert_int_equal(rp_intersect_ray_scene(s, &ray, &h, NULL), i);
        assert_float_equal(h.t, 9.0f, 1e-5f);
    }
    rp_scene_destroy(s);
    rp_mesh_destroy(mesh);
}

static void invalid_queries_return_minus_one(void **state)
{
    (void)state;
    rp_scene *s = rp_scene_create();
    rp_sphere sp = {{0, 0, -10}, 1};
    rp_ray ray = {{0, 0, 0}, {0, 0, -1}};
    rp_hit h = sentinel_hit();
    rp_triangle_hit tri = tri_sentinel;
    assert_int_equal(rp_intersect_ray_scene(NULL, &ray, &h, &tri), -1);
    assert_int_equal(rp_intersect_ray_scene(s, &ray, &h, &tri), -1);
    assert_true(rp_scene_build(s));       /* an empty scene builds */
    assert_int_equal(rp_intersect_ray_scene(s, &ray, &h, &tri), -1);
    assert_int_equal(rp_scene_add_sphere(s, &sp), 0);
    assert_true(rp_scene_build(s));
    rp_ray bad[] = {{{0, 0, 0}, {0, 0, 0}}, {{NAN, 0, 0}, {0, 0, -1}},
                    {{0, 0, 0}, {0, INFINITY, -1}}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_equal(rp_intersect_ray_scene(s, &bad[i], &h, &tri), -1);
    assert_int_equal(rp_intersect_ray_scene(s, NULL, &h, &tri), -1);
    rp_ray away = {{0, 0, 0}, {0, 0, 1}};     /* the sphere is behind */
    assert_int_equal(rp_intersect_ray_scene(s, &away, &h, &tri), -1);
    rp_hit untouched = sentinel_hit();
    assert_same_hit(&h, &untouched);
    assert_memory_equal(&tri, &tri_sentinel, sizeof tri);
    /* a ray along an axis (zero components) still hits */
    assert_int_equal(rp_intersect_ray_scene(s, &ray, &h, &tri), 0);
    assert_memory_equal(&tri, &tri_sentinel, sizeof tri);
    rp_scene_destroy(s);
}

/* ---- the traced traversal ---------------------------------------------- */

static bool box_holds_point(const rp_aabb *b, const float p[3], float pad)
{
    for (int a = 0; a < 3; a++)
        if (!(p[a] >= b->min[a] - pad && p[a] <= b->max[a] + pad))
            return false;
    return true;
}

static bool box_holds_box(const rp_aabb *outer, const rp_aabb *inner)
{
    return box_holds_point(outer, inner->min, 0.0f) && box_holds_point(outer, inner->max, 0.0f);
}

/* The ray meets the box (grown by pad for the traversal's rounding). */
static bool ray_meets_box(const rp_ray *ray, const rp_aabb *b, float pad)
{
    rp_aabb grown = *b;
    for (int a = 0; a < 3; a++) {
        grown.min[a] -= pad;
        grown.max[a] += pad;
    }
    rp_hit h;
    return rp_intersect_ray_aabb(ray, &grown, &h);
}

/* What the trace records is what the traversal did: the root first, every
   box opened is one the ray meets and lies in the root, the leaves hold
   the objects tested, and the object hit lies in a leaf opened. */
static void trace_records_the_boxes_the_traversal_opened(void **state)
{
    (void)state;
    rp_mesh *mesh = cube_mesh();
    rng.s = 77;
    const int n = 400;
    float extent = 2.0f + sqrtf((float)n);
    rs_object *objs = calloc((size_t)n, sizeof *objs);
    rp_scene *s = rp_scene_create();
    for (int i = 0; i < n; i++) {
        random_object(&objs[i], (rs_kind)(i % RS_KINDS), extent);
        assert_int_equal(rs_add(s, mesh, &objs[i]), i);
    }
    assert_true(rp_scene_build(s));
    enum { CAP = 2048 };
    rp_scene_visit *visits = malloc(CAP * sizeof *visits);
    int hits = 0, leaf_with_hit = 0;
    for (int r = 0; r < 500; r++) {
        rp_ray ray;
        random_ray(&ray, extent, r % 3 ? &objs[(int)uniform(0, n)] : NULL);
        rp_scene_trace trace = {visits, CAP, 99, 99, 99, 99, 99};   /* counts reset by the call */
        rp_hit h;
        int i = rp_intersect_ray_scene_traced(s, &ray, &trace, &h, NULL);
        assert_int_equal(i, rp_intersect_ray_scene(s, &ray, NULL, NULL));
        assert_true(trace.visits == visits && trace.visit_cap == CAP);
        assert_true(trace.tree_nodes > 1);
        assert_true(trace.visit_count >= 1 && trace.visit_count <= CAP);
        assert_int_equal(trace.visit_count, trace.nodes_visited + trace.leaves_visited);
        assert_int_equal(visits[0].objects, 0);        /* the root, a node */
        float pad = 1e-4f * (2.0f * extent + 1.0f);
        int objects = 0;
        bool in_leaf = false;
        for (int v = 0; v < trace.visit_count; v++) {
            assert_true(visits[v].objects >= 0 && visits[v].objects <= RP_BVH_SCENE_MAX_LEAF);
            assert_true(box_holds_box(&visits[0].box, &visits[v].box));
            /* the root is opened whatever the ray: the others were entered */
            assert_true(v == 0 || ray_meets_box(&ray, &visits[v].box, pad));
            objects += visits[v].objects;
            if (i >= 0 && visits[v].objects > 0 && box_holds_point(&visits[v].box, h.point, pad))
                in_leaf = true;
        }
        assert_int_equal(objects, trace.objects_tested);
        assert_true(trace.leaves_visited <= trace.objects_tested);
        if (i >= 0) {
            hits++;
            assert_true(trace.leaves_visited >= 1);
            leaf_with_hit += in_leaf;
        }
    }
    assert_true(hits > 100);
    assert_int_equal(leaf_with_hit, hits);
    free(visits);
    free(objs);
    rp_scene_destroy(s);
    rp_mesh_destroy(mesh);
}

/* Past visit_cap the trace counts without storing; NULL visits or a
   negative cap count only; invalid queries leave a zero trace. */
static void trace_counts_past_its_cap_and_refuses_bad_input(void **state)
{
    (void)state;
    rp_scene *s = rp_scene_create();
    for (int i = 0; i < 200; i++) {
        rp_sphere sp = {{(float)(i % 10) * 3.0f, (float)(i / 10 % 10) * 3.0f, -(float)(i / 100) * 3.0f - 10.0f}, 1};
        assert_int_equal(rp_scene_add_sphere(s, &sp), i);
    }
    assert_true(rp_scene_build(s));
    rp_ray ray = {{12.2f, 12.1f, 10.0f}, {0.001f, 0.002f, -1.0f}};     /* hits sphere 44 */
    rp_scene_trace full = {0};
    int want = rp_intersect_ray_scene_traced(s, &ray, &full, NULL, NULL);
    assert_int_equal(want, 44);
    assert_true(full.visit_count >= 4);
    /* three stored, the rest counted; the entries past the cap untouched */
    rp_scene_visit visits[8];
    memset(visits, 0x5a, sizeof visits);
    rp_scene_visit guard;
    memcpy(&guard, &visits[3], sizeof guard);
    rp_scene_trace capped = {visits, 3, 0, 0, 0, 0, 0};
    assert_int_equal(rp_intersect_ray_scene_traced(s, &ray, &capped, NULL, NULL), want);
    assert_int_equal(capped.visit_count, full.visit_count);
    assert_int_equal(capped.objects_tested, full.objects_tested);
    assert_memory_equal(&visits[3], &guard, sizeof guard);
    assert_int_equal(visits[0].objects, 0);
    /* counting only */
    rp_scene_trace none = {NULL, 10, 0, 0, 0, 0, 0}, negative = {visits, -5, 0, 0, 0, 0, 0};
    assert_int_equal(rp_intersect_ray_scene_traced(s, &ray, &none, NULL, NULL), want);
    assert_int_equal(rp_intersect_ray_scene_traced(s, &ray, &negative, NULL, NULL), want);
    assert_int_equal(none.visit_count, full.visit_count);
    assert_int_equal(none.visit_cap, 0);
    assert_int_equal(negative.visit_count, full.visit_count);
    assert_int_equal(negative.visit_cap, 0);
    /* a NULL trace: the plain query */
    assert_int_equal(rp_intersect_ray_scene_traced(s, &ray, NULL, NULL, NULL), want);
    /* invalid queries: -1 and a trace of zeros */
    rp_ray bad = {{0, 0, 0}, {0, 0, 0}};
    rp_scene *empty = rp_scene_create();
    rp_scene_trace t = {visits, 8, 5, 5, 5, 5, 5};
    assert_int_equal(rp_intersect_ray_scene_traced(s, &bad, &t, NULL, NULL), -1);
    assert_true(t.visit_count == 0 && t.nodes_visited == 0 && t.leaves_visited == 0 &&
                t.objects_tested == 0 && t.tree_nodes == 0 && t.visits == visits && t.visit_cap == 8);
    t.visit_count = 5;
    assert_int_equal(rp_intersect_ray_scene_traced(NULL, &ray, &t, NULL, NULL), -1);
    assert_int_equal(t.visit_count, 0);
    t.visit_count = 5;
    assert_int_equal(rp_intersect_ray_scene_traced(empty, &ray, &t, NULL, NULL), -1);
    assert_int_equal(t.visit_count, 0);
    rp_scene_destroy(empty);
    rp_scene_destroy(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(nearest_equals_brute_force_on_mixed_scenes),
        cmocka_unit_test(moves_are_seen_after_build_and_not_before),
        cmocka_unit_test(refit_and_rebuild_agree),
        cmocka_unit_test(hundred_thousand_objects_match_brute_force),
        cmocka_unit_test(identical_objects_build_bounded_and_tie_to_lowest),
        cmocka_unit_test(tree_is_the_same_on_any_number_of_threads),
        cmocka_unit_test(scene_tree_boxes_each_object),
        cmocka_unit_test(mesh_hits_report_the_triangle),
        cmocka_unit_test(skewed_instance_far_in_model_space_matches_scene),
        cmocka_unit_test(numerically_singular_instance_never_hits),
        cmocka_unit_test(box_rounding_is_outward_and_tight),
        cmocka_unit_test(invalid_objects_are_refused),
        cmocka_unit_test(wrong_moves_change_nothing),
        cmocka_unit_test(invalid_queries_return_minus_one),
        cmocka_unit_test(bvh4_boxes_hold_their_contents_after_build_and_refit),
        cmocka_unit_test(split_refit_equals_serial_refit),
        cmocka_unit_test(every_node_range_is_its_run_of_entries),
        cmocka_unit_test(trace_records_the_boxes_the_traversal_opened),
        cmocka_unit_test(trace_counts_past_its_cap_and_refuses_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

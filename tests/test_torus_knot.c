/* test_torus_knot.c: lesson 5's procedural model is a closed, outward-facing
 * tube of the promised size, and the plain-data mesh helpers (normals,
 * fitting) do what mesh_data.h says. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "mesh_data.h"
#include "torus_knot.h"

/* ---- welding: vertices with bit-identical positions are one vertex ------- */

static const mesh_data *g_sort_mesh;

static int compare_position(const void *x, const void *y)
{
    const float *a = g_sort_mesh->vertices[*(const uint32_t *)x].p;
    const float *b = g_sort_mesh->vertices[*(const uint32_t *)y].p;
    return memcmp(a, b, 3 * sizeof(float));
}

/* canonical[i] = the lowest-sorted vertex with the same position as i */
static uint32_t *weld(const mesh_data *m)
{
    uint32_t *order = malloc(m->vertex_count * sizeof *order);
    uint32_t *canonical = malloc(m->vertex_count * sizeof *canonical);
    assert_non_null(order);
    assert_non_null(canonical);
    for (size_t i = 0; i < m->vertex_count; ++i)
        order[i] = (uint32_t)i;
    g_sort_mesh = m;
    qsort(order, m->vertex_count, sizeof *order, compare_position);
    uint32_t head = order[0];
    for (size_t i = 0; i < m->vertex_count; ++i) {
        if (i > 0 && compare_position(&order[i - 1], &order[i]) != 0)
            head = order[i];
        canonical[order[i]] = head;
    }
    free(order);
    return canonical;
}

static int compare_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return (a > b) - (a < b);
}

/* Closed and consistently wound: every directed edge occurs once and its
   reverse occurs once, so every edge is shared by exactly two triangles
   that traverse it in opposite directions. */
static void assert_closed_and_consistent(const mesh_data *m)
{
    uint32_t *canonical = weld(m);
    size_t n = 3 * m->triangle_count;
    uint64_t *edges = malloc(n * sizeof *edges);
    assert_non_null(edges);
    for (size_t t = 0; t < m->triangle_count; ++t) {
        for (int k = 0; k < 3; ++k) {
            uint64_t a = canonical[m->indices[3 * t + (size_t)k]];
            uint64_t b = canonical[m->indices[3 * t + (size_t)(k + 1) % 3]];
            assert_true(a != b);    /* no degenerate triangle after welding */
            edges[3 * t + (size_t)k] = a << 32 | b;
        }
    }
    qsort(edges, n, sizeof *edges, compare_u64);
    for (size_t i = 0; i < n; ++i) {
        if (i > 0)
            assert_true(edges[i] != edges[i - 1]);
        uint64_t reverse = (edges[i] & 0xffffffffu) << 32 | edges[i] >> 32;
        assert_non_null(bsearch(&reverse, edges, n, sizeof *edges, compare_u64));
    }
    free(edges);
    free(canonical);
}

/* Signed volume by the divergence theorem: positive when the triangles
   are counter-clockwise seen from outside. */
static double signed_volume(const mesh_data *m)
{
    double v = 0.0;
    for (size_t t = 0; t < m->triangle_count; ++t) {
        const float *a = m->vertices[m->indices[3 * t]].p;
        const float *b = m->vertices[m->indices[3 * t + 1]].p;
        const float *c = m->vertices[m->indices[3 * t + 2]].p;
        v += ((double)a[0] * ((double)b[1] * c[2] - (double)b[2] * c[1]) -
              (double)a[1] * ((double)b[0] * c[2] - (double)b[2] * c[0]) +
              (double)a[2] * ((double)b[0] * c[1] - (double)b[1] * c[0])) / 6.0;
    }
    return v;
}

/* ---- the knot ------------------------------------------------------------- */

static void default_knot_has_the_documented_counts(void **state)
{
    (void)state;
    mesh_data m;
    assert_true(torus_knot_build(NULL, &m));
    assert_int_equal(m.vertex_count, 481 * 37);
    assert_int_equal(m.triangle_count, 2 * 480 * 36);
    assert_true(m.triangle_count >= 20000);     /* "tens of thousands" */
    for (size_t i = 0; i < 3 * m.triangle_count; ++i)
        assert_true(m.indices[i] < m.vertex_count);
    mesh_data_free(&m);
    assert_null(m.vertices);
    assert_int_equal(m.triangle_count, 0);
}

static void knot_is_closed_and_faces_outward(void **state)
{
    (void)state;
    mesh_data m;
    assert_true(torus_knot_build(NULL, &m));
    assert_closed_and_consistent(&m);
    assert_true(signed_volume(&m) > 0.0);
    mesh_data_free(&m);
    /* a coarse knot of other windings too */
    torus_knot_desc d = {.p = 3, .q = 2, .segments = 40, .sides = 5};
    assert_true(torus_knot_build(&d, &m));
    assert_int_equal(m.vertex_count, 41 * 6);
    assert_int_equal(m.triangle_count, 400);
    assert_closed_and_consistent(&m);
    assert_true(signed_volume(&m) > 0.0);
    mesh_data_free(&m);
}

/* The knot's volume is close to a tube's: length of the core times the
   tube's cross-section, which bounds it between the thin and thick tube. */
static void knot_volume_lies_between_thin_and_thick_tubes(void **state)
{
    (void)state;
    mesh_data m;
    assert_true(torus_knot_build(NULL, &m));
    double length = 0.0;
    for (int i = 0; i < 4800; ++i) {
        double phi0 = 6.283185307179586 * i / 4800.0, phi1 = 6.283185307179586 * (i + 1) / 4800.0;
        double p0[3], p1[3];
        for (int k = 0; k < 2; ++k) {
            double phi = k ? phi1 : phi0;
            double r = 1.0 + 0.45 * cos(3.0 * phi);
            double *p = k ? p1 : p0;
            p[0] = r * cos(2.0 * phi), p[1] = r * sin(2.0 * phi), p[2] = 0.45 * sin(3.0 * phi);
        }
        length += sqrt((p1[0] - p0[0]) * (p1[0] - p0[0]) + (p1[1] - p0[1]) * (p1[1] - p0[1]) +
                       (p1[2] - p0[2]) * (p1[2] - p0[2]));
    }
    double v = signed_volume(&m);
    assert_true(v > length * 3.14159 * 0.07 * 0.07);
    assert_true(v < length * 3.14160 * 0.2 * 0.2);
    mesh_data_free(&m);
}

static void knot_has_a_hole_around_the_z_axis(void **state)
{
    (void)state;
    mesh_data m;
    assert_true(torus_knot_build(NULL, &m));
    /* no vertex comes nearer the z axis than ring - amplitude - thick */
    float nearest = INFINITY, extent = 0.0f;
    for (size_t i = 0; i < m.vertex_count; ++i) {
        const float *p = m.vertices[i].p;
        nearest = fminf(nearest, sqrtf(p[0] * p[0] + p[1] * p[1]));
        extent = fmaxf(extent, sqrtf(p[0] * p[0] + p[1] * p[1]));
    }
    assert_true(nearest > 1.0f - 0.45f - 0.2f - 1e-4f);
    assert_true(nearest < 1.0f - 0.45f);
    assert_true(extent < 1.0f + 0.45f + 0.2f + 1e-4f);
    mesh_data_free(&m);
}

static void knot_normals_are_unit_and_outward(void **state)
{
    (void)state;
    mesh_data m;
    assert_true(torus_knot_build(NULL, &m));
    for (size_t i = 0; i < m.vertex_count; ++i) {
        const float *n = m.vertices[i].n;
        assert_float_equal(sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]), 1.0f, 1e-5f);
    }
    /* each corner's normal agrees with its face's geometric normal */
    for (size_t t = 0; t < m.triangle_count; ++t) {
        const mesh_vertex *a = &m.vertices[m.indices[3 * t]], *b = &m.vertices[m.indices[3 * t + 1]],
                          *c = &m.vertices[m.indices[3 * t + 2]];
        float e1[3] = {b->p[0] - a->p[0], b->p[1] - a->p[1], b->p[2] - a->p[2]};
        float e2[3] = {c->p[0] - a->p[0], c->p[1] - a->p[1], c->p[2] - a->p[2]};
        float f[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]};
        const mesh_vertex *corners[3] = {a, b, c};
        for (int k = 0; k < 3; ++k)
            assert_true(f[0] * corners[k]->n[0] + f[1] * corners[k]->n[1] + f[2] * corners[k]->n[2] > 0.0f);
    }
    mesh_data_free(&m);
}

static void knot_texture_coordinates_span_the_ranges(void **state)
{
    (void)state;
    mesh_data m;
    assert_true(torus_knot_build(NULL, &m));
    float tu_min = INFINITY, tu_max = -INFINITY, tv_min = INFINITY, tv_max = -INFINITY;
    for (size_t i = 0; i < m.vertex_count; ++i) {
        tu_min = fminf(tu_min, m.vertices[i].tu), tu_max = fmaxf(tu_max, m.vertices[i].tu);
        tv_min = fminf(tv_min, m.vertices[i].tv), tv_max = fmaxf(tv_max, m.vertices[i].tv);
    }
    assert_float_equal(tu_min, 0.0f, 0.0f);
    assert_float_equal(tu_max, 8.0f, 1e-6f);
    assert_float_equal(tv_min, 0.0f, 0.0f);
    assert_float_equal(tv_max, 1.0f, 1e-6f);
    /* the seam vertices share positions but not texture coordinates */
    assert_memory_equal(m.vertices[0].p, m.vertices[36].p, sizeof m.vertices[0].p);
    assert_true(m.vertices[0].tv != m.vertices[36].tv);
    assert_memory_equal(m.vertices[0].p, m.vertices[480 * 37].p, sizeof m.vertices[0].p);
    assert_true(m.vertices[0].tu != m.vertices[480 * 37].tu);
    mesh_data_free(&m);
}

static void knot_refuses_bad_descriptions(void **state)
{
    (void)state;
    mesh_data m, before;
    memset(&m, 0xab, sizeof m);
    before = m;
    const torus_knot_desc bad[] = {
        {.segments = 2}, {.sides = -4}, {.p = -1}, {.tube_thick = -0.1f},
        {.tube_thick = 0.6f},                     /* fills the hole: 1 - 0.45 */
        {.segments = 100000, .sides = 1000},     /* more than 2^24 vertices */
        {.ring_radius = NAN},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        assert_false(torus_knot_build(&bad[i], &m));
        assert_memory_equal(&m, &before, sizeof m);
    }
    assert_false(torus_knot_build(NULL, NULL));
}

/* ---- mesh_data helpers ---------------------------------------------------- */

static mesh_data tetrahedron(void)
{
    static const float p[4][3] = {{0, 0, 0}, {2, 0, 0}, {0, 4, 0}, {0, 0, 6}};
    static const uint32_t idx[12] = {0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3};
    mesh_data m;
    m.vertex_count = 5;     /* the fifth vertex is used by no triangle */
    m.triangle_count = 4;
    m.vertices = calloc(5, sizeof *m.vertices);
    m.indices = malloc(sizeof idx);
    assert_non_null(m.vertices);
    assert_non_null(m.indices);
    for (int i = 0; i < 4; ++i)
        memcpy(m.vertices[i].p, p[i], sizeof p[i]);
    m.vertices[4].p[0] = 100.0f;
    memcpy(m.indices, idx, sizeof idx);
    return m;
}

static void normals_of_a_tetrahedron(void **state)
{
    (void)state;
    mesh_data m = tetrahedron();
    assert_closed_and_consistent(&(mesh_data){m.vertices, 4, m.indices, 4});
    assert_true(mesh_data_compute_normals(&m));
    /* the corner at the origin sees three axis-aligned faces of areas
       (2*4)/2, (2*6)/2, (4*6)/2, all pointing away from the solid */
    float w[3] = {-12.0f, -6.0f, -4.0f}, len = sqrtf(144.0f + 36.0f + 16.0f);
    for (int k = 0; k < 3; ++k)
        assert_float_equal(m.vertices[0].n[k], w[k] / len, 1e-6f);
    assert_float_equal(m.vertices[4].n[1], 1.0f, 0.0f);     /* unused: up */
    m.indices[5] = 9;
    assert_false(mesh_data_compute_normals(&m));
    assert_false(mesh_data_compute_normals(NULL));
    mesh_data_free(&m);
}

static void fit_centres_and_scales_on_used_vertices(void **state)
{
    (void)state;
    mesh_data m = tetrahedron();
    assert_true(mesh_data_fit(&m, 1.5f));
    /* box (0..2, 0..4, 0..6): centre (1, 2, 3), largest half-size 3 -> 1.5 */
    assert_float_equal(m.vertices[0].p[0], -0.5f, 1e-6f);
    assert_float_equal(m.vertices[0].p[1], -1.0f, 1e-6f);
    assert_float_equal(m.vertices[0].p[2], -1.5f, 1e-6f);
    assert_float_equal(m.vertices[3].p[2], 1.5f, 1e-6f);
    assert_float_equal(m.vertices[4].p[0], 49.5f, 1e-5f);   /* moved along, not counted */
    mesh_data_free(&m);
}

static void fit_refuses_bad_input_and_leaves_the_mesh(void **state)
{
    (void)state;
    mesh_data m = tetrahedron();
    mesh_vertex copy[5];
    memcpy(copy, m.vertices, sizeof copy);
    assert_false(mesh_data_fit(&m, 0.0f));
    assert_false(mesh_data_fit(&m, -1.0f));
    assert_false(mesh_data_fit(&m, NAN));
    assert_false(mesh_data_fit(NULL, 1.0f));
    m.vertices[3].p[2] = INFINITY;
    copy[3].p[2] = INFINITY;
    assert_false(mesh_data_fit(&m, 1.0f));
    assert_memory_equal(m.vertices, copy, sizeof copy);
    /* all used vertices at one point: no size to fit */
    for (int i = 0; i < 4; ++i)
        memset(m.vertices[i].p, 0, sizeof m.vertices[i].p);
    memcpy(copy, m.vertices, sizeof copy);
    assert_false(mesh_data_fit(&m, 1.0f));
    assert_memory_equal(m.vertices, copy, sizeof copy);
    m.triangle_count = 0;
    assert_false(mesh_data_fit(&m, 1.0f));
    mesh_data_free(&m);
}

/* Issue 34 item 9: what a hostile model draws is bounded. Coincident
   triangles (any corner order) collapse to one, zero-area ones go, the
   summed area stays within the layers given, and at most max_triangles
   are kept, spread over the model. */
static void draw_subset_bounds_a_hostile_model(void **state)
{
    (void)state;
    enum { COPIES = 65536 };
    static mesh_vertex v[5] = {{{-1, -1, 0}, {0}, 0, 0}, {{1, -1, 0}, {0}, 0, 0}, {{0, 1, 0}, {0}, 0, 0},
                               {{0, 0, 1}, {0}, 0, 0}, {{2, 2, 2}, {0}, 0, 0}};
    static uint32_t idx[3 * (COPIES + 2)];
    for (size_t t = 0; t < COPIES; ++t) {     /* one triangle, its corners rotated and mirrored */
        static const uint32_t orders[6][3] = {{0, 1, 2}, {1, 2, 0}, {2, 0, 1}, {0, 2, 1}, {2, 1, 0}, {1, 0, 2}};
        memcpy(idx + 3 * t, orders[t % 6], sizeof orders[0]);
    }
    const uint32_t other[3] = {0, 1, 3}, flat[3] = {0, 0, 4};
    memcpy(idx + 3 * COPIES, other, sizeof other);
    memcpy(idx + 3 * (COPIES + 1), flat, sizeof flat);
    mesh_data m = {v, 5, idx, COPIES + 2};
    uint32_t *kept = NULL;
    size_t count = 0;
    assert_true(mesh_data_draw_subset(&m, 1000, 100.0, &kept, &count));
    assert_int_equal(count, 2);
    assert_non_null(kept);
    assert_memory_equal(kept, idx, 3 * sizeof *kept);
    assert_memory_equal(kept + 3, other, sizeof other);
    free(kept);
    /* the area budget: the two triangles take 2 and about 2.2 of the
       model's cross-section (a disc of radius sqrt(3)/... ): a tiny budget
       keeps none */
    assert_true(mesh_data_draw_subset(&m, 1000, 1e-6, &kept, &count));
    assert_int_equal(count, 0);
    free(kept);
    /* the count cap: a fan of 10,000 slivers keeps at most 100 */
    enum { FAN = 10000 };
    static mesh_vertex fan[FAN + 2];
    static uint32_t fan_idx[3 * FAN];
    for (int i = 0; i < FAN + 1; ++i) {
        double a = 6.283185307 * i / (FAN + 1);
        fan[i + 1] = (mesh_vertex){{(float)cos(a), (float)sin(a), 0}, {0}, 0, 0};
    }
    for (uint32_t t = 0; t < FAN; ++t) {
        fan_idx[3 * t] = 0;
        fan_idx[3 * t + 1] = t + 1;
        fan_idx[3 * t + 2] = t + 2;
    }
    mesh_data f = {fan, FAN + 2, fan_idx, FAN};
    assert_true(mesh_data_draw_subset(&f, 100, 100.0, &kept, &count));
    assert_true(count <= 100 && count >= 90);
    assert_int_equal(kept[3 * (count - 1) + 1] > FAN / 2, 1);   /* spread to the end */
    free(kept);
    /* a plain model: everything drawn, nothing allocated */
    assert_true(mesh_data_draw_subset(&f, FAN, 100.0, &kept, &count));
    assert_null(kept);
    assert_int_equal(count, FAN);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(draw_subset_bounds_a_hostile_model),
        cmocka_unit_test(default_knot_has_the_documented_counts),
        cmocka_unit_test(knot_is_closed_and_faces_outward),
        cmocka_unit_test(knot_volume_lies_between_thin_and_thick_tubes),
        cmocka_unit_test(knot_has_a_hole_around_the_z_axis),
        cmocka_unit_test(knot_normals_are_unit_and_outward),
        cmocka_unit_test(knot_texture_coordinates_span_the_ranges),
        cmocka_unit_test(knot_refuses_bad_descriptions),
        cmocka_unit_test(normals_of_a_tetrahedron),
        cmocka_unit_test(fit_centres_and_scales_on_used_vertices),
        cmocka_unit_test(fit_refuses_bad_input_and_leaves_the_mesh),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

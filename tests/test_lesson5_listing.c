/* test_lesson5_listing.c: lesson 5's listing (the DirectX SDK's Pick
 * sample ported under its own names, src/lessons/listings/
 * lesson5_pick_sample.c) against the library where the two should agree
 * (rp_pick_ray_perspective and rp_ray_transform for the model-space ray,
 * rp_intersect_ray_triangle for IntersectTriangle, rp_intersect_ray_mesh
 * for the loop's nearest face), and where they must not (a triangle
 * behind the eye, a small triangle, all hits in face order); every step a
 * click records names a line of the shown listing that holds what the step
 * watches; the step camera frames the triangle under test; and the
 * lesson's tour: each moment valid and each doing what its sentence says.
 * No GL, no SDL. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <cmocka.h>

#include "lesson_test_util.h"
#include "lesson5_pick_sample.h"
#include "msg.h"
#include "test_scale.h"
#include "torus_knot.h"

#define L (&lesson5_triangles)

static uint32_t rng = 2024u;
static float uniform(float lo, float hi)
{
    rng = rng * 1664525u + 1013904223u;
    return lo + (hi - lo) * (float)(rng >> 8) / (float)(1u << 24);
}

static listing_step steps[16];
static listing_trace trace;

/* a Sample that records into this file's trace (IntersectTriangle alone) */
static Sample bare_sample(void)
{
    Sample s;
    memset(&s, 0, sizeof s);
    listing_trace_reset(&trace, steps, 16);
    s.trace = &trace;
    return s;
}

static D3DXVECTOR3 v3(const vec3 v)
{
    return (D3DXVECTOR3){v[0], v[1], v[2]};
}

static const lesson_field *field(const lesson_pick *p, const char *name)
{
    const lesson_field *f = lesson_pick_field(p, name);
    assert_non_null(f);
    return f;
}

/* The lesson's world matrix (lesson5_triangles.c, world_matrix: at
   (0, 1.7, 0), turned 0.35 about y, tilted -0.25 about x). */
static void lesson_world(mat4 out)
{
    glm_translate_make(out, (vec3){0.0f, 1.7f, 0.0f});
    glm_rotate(out, 0.35f, (vec3){0.0f, 1.0f, 0.0f});
    glm_rotate(out, -0.25f, (vec3){1.0f, 0.0f, 0.0f});
}

/* The model-space ray the listing's Pick recorded for the last click. */
static void listing_model_ray(void *self, rp_ray *out)
{
    lesson_code_view cv;
    assert_true(L->code(self, &cv));
    for (int i = 0; i < cv.count; ++i) {
        const listing_watch *o = listing_step_watch(&cv.steps[i], "vPickRayOrig");
        const listing_watch *d = listing_step_watch(&cv.steps[i], "vPickRayDir");
        if (o && d) {
            glm_vec3_copy((float *)o->v, out->origin);
            glm_vec3_copy((float *)d->v, out->dir);
            return;
        }
    }
    fail_msg("%s", "no model-ray step");
}

/* ------------------------------------------------------------ the library */

/* Pick's vPickRayOrig and vPickRayDir are the library's pick ray
   (rp_pick_ray_perspective) taken into model space (rp_ray_transform with
   the inverse world matrix): the same origin, the same direction. */
static void picks_ray_is_the_librarys(void **state)
{
    (void)state;
    void *self = create_ok(L, 1);
    for (float py = 30.0f; py < TEST_H; py += 97.0f)
        for (float px = 30.0f; px < TEST_W; px += 131.0f) {
            lesson_click c;
            assert_true(make_click(L, self, px, py, &c));
            lesson_pick p;
            L->click(self, &c, &p);
            rp_ray mine, lib;
            listing_model_ray(self, &mine);
            /* the library's world ray into model space: the lesson's world matrix, inverted */
            mat4 world, inv;
            lesson_world(world);
            glm_mat4_inv(world, inv);
            assert_true(rp_ray_transform(&c.ray, inv, &lib));
            assert_true(vec3_dist(mine.origin, lib.origin) < 1e-4f);
            vec3 a, b;
            glm_vec3_normalize_to(mine.dir, a);
            glm_vec3_normalize_to(lib.dir, b);
            assert_true(vec3_dist(a, b) < 1e-5f);
        }
    L->destroy(self);
}

/* IntersectTriangle is rp_intersect_ray_triangle for triangles in front,
   seen not too slanted, big enough for its threshold: the same hit, t, u
   and v, away from the edges where float may round either way. */
static void intersect_triangle_agrees_with_the_library(void **state)
{
    (void)state;
    int hits = 0, misses = 0;
    for (int k = 0; k < 4000; ++k) {
        vec3 c[3];
        for (int i = 0; i < 3; ++i)
            glm_vec3_copy((vec3){uniform(-2, 2), uniform(-2, 2), uniform(-8, -3)}, c[i]);
        rp_ray ray = {{uniform(-0.5f, 0.5f), uniform(-0.5f, 0.5f), 1.0f}, {0, 0, 0}};
        vec3 aim = {uniform(-1.5f, 1.5f), uniform(-1.5f, 1.5f), -5.0f};
        glm_vec3_sub(aim, ray.origin, ray.dir);
        rp_hit h;
        rp_triangle_hit t;
        bool lib = rp_intersect_ray_triangle(&ray, c[0], c[1], c[2], &h, &t);
        Sample s = bare_sample();
        FLOAT ft, fu, fv;
        bool mine = IntersectTriangle(&s, v3(ray.origin), v3(ray.dir), v3(c[0]), v3(c[1]), v3(c[2]), &ft, &fu, &fv);
        /* the sample's threshold: its det is edge1 . (dir x edge2) */
        const listing_watch *det = listing_step_watch(&steps[0], "det");
        assert_non_null(det);
        if (fabsf(det->v[0]) < 0.05f)
            continue;
        if (lib && mine) {
            assert_float_equal(ft, h.t, 1e-4f * fmaxf(1.0f, h.t));
            assert_float_equal(fu, t.u, 1e-4f);
            assert_float_equal(fv, t.v, 1e-4f);
            ++hits;
        } else if (lib != mine) {
            /* only at an edge: a barycentric within rounding of 0 or 1 */
            float u = lib ? t.u : fu, v = lib ? t.v : fv;
            assert_true(fabsf(u) < 1e-4f || fabsf(v) < 1e-4f || fabsf(1.0f - u - v) < 1e-4f);
        } else {
            ++misses;
        }
    }
    assert_true(hits > 400 && misses > 400);
}

/* Where they must not agree: a triangle behind the origin, a small one. */
static void the_samples_mistakes_are_kept(void **state)
{
    (void)state;
    /* behind the eye: the sample says TRUE with t < 0 */
    vec3 a = {-1, -1, 5}, b = {1, -1, 5}, c = {0, 1, 5};
    rp_ray down = {{0, 0, 0}, {0, 0, -1}};
    Sample s = bare_sample();
    FLOAT t, u, v;
    assert_true(IntersectTriangle(&s, v3(down.origin), v3(down.dir), v3(a), v3(b), v3(c), &t, &u, &v));
    assert_float_equal(t, -5.0f, 1e-5f);
    assert_string_equal(steps[trace.count - 1].msg_id, "lesson.picking-triangles.step.hit-behind");
    assert_false(rp_intersect_ray_triangle(&down, a, b, c, NULL, NULL));
    /* a triangle 0.005 across, head on: det = 2.5e-5 < 0.0001, missed;
       the library hits it in the middle */
    vec3 p = {-0.0025f, -0.0025f, -5}, q = {0.0025f, -0.0025f, -5}, r = {0, 0.0025f, -5};
    s = bare_sample();
    assert_false(IntersectTriangle(&s, v3(down.origin), v3(down.dir), v3(p), v3(q), v3(r), &t, &u, &v));
    assert_int_equal(trace.count, 1);
    assert_string_equal(steps[0].msg_id, "lesson.picking-triangles.step.det-small");
    rp_hit h;
    assert_true(rp_intersect_ray_triangle(&down, p, q, r, &h, NULL));
    assert_float_equal(h.t, 5.0f, 1e-5f);
    /* the same triangle 100 times larger passes */
    glm_vec3_scale(p, 100.0f, p);
    glm_vec3_scale(q, 100.0f, q);
    glm_vec3_scale(r, 100.0f, r);
    p[2] = q[2] = r[2] = -5.0f;
    s = bare_sample();
    assert_true(IntersectTriangle(&s, v3(down.origin), v3(down.dir), v3(p), v3(q), v3(r), &t, &u, &v));
}

/* On the knot, from the start camera: the loop's nearest face is
   D3DXIntersect's (the library's BVH), click for click, except where the
   library's face is one the threshold drops (the outline, seen edge-on).
   The loop tries every face for every click: at a smaller
   RAYPICK_TEST_SCALE (valgrind, ASan) the grid of clicks is that much
   sparser, its spacing grown by 1 / sqrt(scale) in each direction. */
static void the_loop_agrees_with_d3dxintersect(void **state)
{
    (void)state;
    void *loop = create_ok(L, 1), *lib = create_ok(L, 1);
    assert_true(L->key(loop, 'u'));
    const float sparser = 1.0f / sqrtf((float)test_scale());
    int same = 0, dropped = 0;
    for (float py = 40.0f; py < TEST_H; py += 31.0f * sparser)
        for (float px = 40.0f; px < TEST_W; px += 41.0f * sparser) {
            lesson_click c;
            lesson_pick a, b;
            assert_true(make_click(L, loop, px, py, &c));
            L->click(loop, &c, &a);
            L->click(lib, &c, &b);
            assert_string_equal(a.method, "triangle-loop");
            assert_string_equal(b.method, "mesh");
            if (!b.hit) {
                assert_false(a.hit);
                continue;
            }
            if (a.hit && a.id == b.id) {
                assert_float_equal(a.t, b.t, 1e-4f * b.t);
                assert_float_equal(field(&a, "u")->value.f, field(&b, "u")->value.f, 1e-3f);
                ++same;
                continue;
            }
            /* the library's face: rejected by the sample's threshold */
            ++dropped;
            rp_ray ray;
            listing_model_ray(loop, &ray);
            Sample s = bare_sample();
            mesh_data knot;
            assert_true(torus_knot_build(NULL, &knot));
            const uint32_t *idx = &knot.indices[3 * (size_t)b.id];
            FLOAT t, u, v;
            bool hit = IntersectTriangle(&s, v3(ray.origin), v3(ray.dir), v3(knot.vertices[idx[0]].p),
                                         v3(knot.vertices[idx[1]].p), v3(knot.vertices[idx[2]].p), &t, &u, &v);
            mesh_data_free(&knot);
            assert_false(hit);
            assert_string_equal(steps[0].msg_id, "lesson.picking-triangles.step.det-small");
        }
    print_message("the loop and D3DXIntersect: %d clicks the same face, %d the threshold drops\n", same, dropped);
    assert_true(same > (int)(50.0 * test_scale()));    /* 71 of 391 clicks at full scale */
    assert_true(dropped <= same / 10);     /* only at the outline, a pixel wide */
    L->destroy(loop);
    L->destroy(lib);
}

/* Pick's D3DXIntersect path (the listing's ray, the library's BVH) gives
   what rp_intersect_ray_mesh_instance gives for the click's world ray and
   the world matrix: the same face, t and barycentrics. */
static void d3dxintersect_is_rp_intersect_ray_mesh_instance(void **state)
{
    (void)state;
    void *self = create_ok(L, 1);
    mesh_data knot;
    assert_true(torus_knot_build(NULL, &knot));
    rp_mesh *m = rp_mesh_create(knot.vertices[0].p, knot.vertex_count, sizeof(mesh_vertex), knot.indices,
                                knot.triangle_count);
    assert_non_null(m);
    mat4 world;
    lesson_world(world);
    int hits = 0;
    for (float py = 60.0f; py < TEST_H; py += 43.0f)
        for (float px = 60.0f; px < TEST_W; px += 47.0f) {
            lesson_click c;
            assert_true(make_click(L, self, px, py, &c));
            lesson_pick p;
            L->click(self, &c, &p);
            rp_hit h;
            rp_triangle_hit t;
            bool lib = rp_intersect_ray_mesh_instance(m, world, &c.ray, &h, &t);
            assert_int_equal(p.hit, lib);
            if (!lib)
                continue;
            assert_int_equal(p.id, (int)t.triangle);
            assert_float_equal(p.t, h.t, 1e-4f * h.t);
            assert_float_equal(field(&p, "u")->value.f, t.u, 1e-3f);
            assert_float_equal(field(&p, "v")->value.f, t.v, 1e-3f);
            ++hits;
        }
    assert_true(hits > 40);
    rp_mesh_destroy(m);
    mesh_data_free(&knot);
    L->destroy(self);
}

/* "Show All Hits" in the loop: face order, not distance; D3DXIntersect's:
   nearest first. The same faces. */
static void all_hits_come_in_face_order_from_the_loop(void **state)
{
    (void)state;
    void *loop = create_ok(L, 1), *lib = create_ok(L, 1);
    assert_true(L->key(loop, 'u') && L->key(loop, 'a') && L->key(lib, 'a'));
    int unsorted = 0;
    for (float px = 200.0f; px < 760.0f; px += 37.0f) {
        lesson_click c;
        lesson_pick a, b;
        assert_true(make_click(L, loop, px, 0.5f * TEST_H, &c));
        L->click(loop, &c, &a);
        L->click(lib, &c, &b);
        const lesson_field *fa = field(&a, "hits"), *fb = field(&b, "hits");
        assert_int_equal(fa->count, fb->count);
        for (int i = 1; i < fa->count; ++i)
            assert_true(fa->value.ints[i - 1] < fa->value.ints[i]);
        for (int i = 0; i < fa->count; ++i) {
            bool found = false;
            for (int j = 0; j < fb->count; ++j)
                found |= fa->value.ints[i] == fb->value.ints[j];
            assert_true(found);
        }
        unsorted += fa->count > 1 && fa->value.ints[0] != fb->value.ints[0];
    }
    assert_true(unsorted > 0);      /* somewhere the first in face order is not the nearest */
    L->destroy(loop);
    L->destroy(lib);
}

/* ------------------------------------------------------------ steps -> lines */

/* Each click builds the lesson (the knot's BVH) afresh: at a smaller
   RAYPICK_TEST_SCALE (valgrind, ASan) every stride-th of the 4 x 4 places,
   at least 2 for each set of keys, along the diagonals so that every row
   and column of places is still visited. */
static void every_step_names_its_line(void **state)
{
    (void)state;
    static const char keys[][4] = {"", "u", "a", "ua"};
    const size_t stride = 16 / test_scaled(16, 2);
    char why[1200];
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; ++k)
        for (size_t place = 0; place < 16; place += stride) {
            size_t row = place / 4, column = (place + row) % 4;
            float fx = 0.2f + 0.17f * (float)column, fy = 0.15f + 0.23f * (float)row;
            void *self = create_ok(L, 1);
            assert_true(L->key(self, 'p'));
            for (const char *c = keys[k]; *c; ++c)
                assert_true(L->key(self, *c));
            lesson_click click;
            assert_true(make_click(L, self, fx * TEST_W, fy * TEST_H, &click));
            lesson_pick p;
            L->click(self, &click, &p);
            if (!steps_name_their_lines(L, self, why, sizeof why))
                fail_msg("keys \"%s\": %s", keys[k], why);
            L->destroy(self);
        }
}

/* ------------------------------------------------------------ framed steps */

static bool framed_view(void *self, mat4 vp)
{
    lesson_camera cam;
    if (!L->frame(self, &cam))
        return false;
    app_camera ac;
    mat4 view, proj;
    app_camera_reset(&ac, &cam);
    app_camera_matrices(&ac, TEST_W / TEST_H, view, proj);
    glm_mat4_mul(proj, view, vp);
    return true;
}

/* p in view, its pixel position in out (NDC) */
static bool in_view(mat4 vp, const vec3 p, vec2 out)
{
    vec4 clip;
    glm_mat4_mulv(vp, (vec4){p[0], p[1], p[2], 1.0f}, clip);
    if (clip[3] <= 0.0f)
        return false;
    out[0] = clip[0] / clip[3];
    out[1] = clip[1] / clip[3];
    return fabsf(out[0]) < 0.95f && fabsf(out[1]) < 0.95f;
}

/* Every step frames what it is about: a step naming a face (the loop's
   face-hit, kept, D3DXIntersect's, the texture coordinates) has its
   corners in view and large; an IntersectTriangle step is a close view of
   a triangle the ray passes by (the camera's target within a few triangle
   sizes of the ray); the ray's own steps show the whole model. */
static void every_step_is_framed(void **state)
{
    (void)state;
    void *self = create_ok(L, 1);
    assert_true(L->key(self, 'u') && L->key(self, 'p'));
    lesson_object o[32];
    int n = start_objects(L, self, o, 32);
    lesson_pick p;
    assert_true(click_world_point(L, self, object_by_id(o, n, 15529)->shape.point.center, &p));
    assert_true(p.hit);
    mesh_data knot;
    assert_true(torus_knot_build(NULL, &knot));
    mat4 world;
    lesson_world(world);
    lesson_code_view cv;
    int faces = 0, tests = 0, others = 0;
    do {
        assert_true(L->code(self, &cv) && cv.step);
        mat4 vp;
        assert_true(framed_view(self, vp));
        const listing_watch *w = listing_step_watch(cv.step, "i");
        if (!w)
            w = listing_step_watch(cv.step, "dwFace");
        int face = w ? w->i : listing_step_watch(cv.step, "dwNumFaces") ? p.id : -1;   /* the loop's end: the face kept */
        if (face >= 0) {
            const uint32_t *idx = &knot.indices[3 * (size_t)face];
            vec2 s[3];
            for (int k = 0; k < 3; ++k) {
                vec3 c;
                glm_mat4_mulv3(world, knot.vertices[idx[k]].p, 1.0f, c);
                assert_true(in_view(vp, c, s[k]));
            }
            float span = fmaxf(fmaxf(fabsf(s[1][0] - s[0][0]), fabsf(s[2][0] - s[0][0])),
                               fmaxf(fabsf(s[1][1] - s[0][1]), fabsf(s[2][1] - s[0][1])));
            assert_true(span > 0.2f);
            ++faces;
        } else if (listing_step_watch(cv.step, "det") || listing_step_watch(cv.step, "*t")) {
            lesson_camera cam;
            assert_true(L->frame(self, &cam));
            vec3 d;
            glm_vec3_sub(cam.target, p.ray.origin, d);
            float along = glm_vec3_dot(d, p.ray.dir), off = sqrtf(fmaxf(glm_vec3_norm2(d) - along * along, 0.0f));
            assert_true(off < 0.1f);
            assert_true(cam.distance < 0.5f);
            ++tests;
        } else {
            vec2 s;
            assert_true(in_view(vp, (vec3){0.0f, 1.7f, 0.0f}, s));
            ++others;
        }
    } while (L->key(self, '.') && L->code(self, &cv) && cv.index + 1 < cv.count);
    assert_true(faces >= 2 && tests >= 4 && others >= 2);
    mesh_data_free(&knot);
    assert_true(L->key(self, 'z'));
    lesson_camera cam;
    assert_false(L->frame(self, &cam));
    L->destroy(self);
}

/* ------------------------------------------------------------ the tour */

static void tour_moments_are_valid(void **state)
{
    (void)state;
    char why[256];
    if (!tour_moments_valid(L, 0, why, sizeof why))
        fail_msg("%s", why);
}

static void tour_moments_show_what_they_say(void **state)
{
    (void)state;
    lesson_pick p, behind;
    lesson_code_view cv;

    /* 1: the loop on a face: every step to tu and tv */
    void *self = stage_tour_moment(L, 0, &p);
    assert_non_null(self);
    assert_string_equal(p.method, "triangle-loop");
    assert_true(p.hit);
    assert_int_equal(p.id, L->tour[0].clicks[0].object);
    assert_float_equal(field(&p, "u")->value.f, 1.0f / 3.0f, 0.01f);
    assert_true(L->code(self, &cv) && cv.step);
    assert_string_equal(cv.step->msg_id, "lesson.picking-triangles.step.texture");
    L->destroy(self);

    /* 2: the eye in the hole: the loop keeps a face behind it */
    self = stage_tour_moment(L, 1, &behind);
    assert_non_null(self);
    assert_string_equal(behind.method, "triangle-loop");
    assert_true(behind.hit && behind.t < 0.0f);
    assert_true(field(&behind, "fDist")->value.f < 0.0f);
    char hud[2048];
    L->status(self, hud, sizeof hud);
    assert_non_null(strstr(hud, "BEHIND the eye"));
    L->destroy(self);

    /* 3: the bounding sphere's false positive, walked in step mode to
       D3DXIntersect's answer for the same ray: no triangle (the code panel
       shows that step) */
    self = stage_tour_moment(L, 2, &p);
    assert_non_null(self);
    assert_string_equal(p.method, "sphere");
    assert_true(p.hit);
    assert_true(field(&p, "false_positive")->value.b);
    assert_true(L->code(self, &cv) && cv.step);
    assert_string_equal(cv.step->msg_id, "lesson.picking-triangles.step.d3dx-miss");
    assert_int_equal(listing_step_watch(cv.step, "bHit")->i, 0);
    L->destroy(self);

    /* 4: the fix, the same click: a face in front of the eye */
    self = stage_tour_moment(L, 3, &p);
    assert_non_null(self);
    assert_string_equal(p.method, "mesh");
    assert_true(p.hit && p.t > 0.0f);
    assert_int_not_equal(p.id, behind.id);
    L->destroy(self);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(picks_ray_is_the_librarys),
        cmocka_unit_test(intersect_triangle_agrees_with_the_library),
        cmocka_unit_test(the_samples_mistakes_are_kept),
        cmocka_unit_test(d3dxintersect_is_rp_intersect_ray_mesh_instance),
        cmocka_unit_test(the_loop_agrees_with_d3dxintersect),
        cmocka_unit_test(all_hits_come_in_face_order_from_the_loop),
        cmocka_unit_test(every_step_names_its_line),
        cmocka_unit_test(every_step_is_framed),
        cmocka_unit_test(tour_moments_are_valid),
        cmocka_unit_test(tour_moments_show_what_they_say),
    };
    return cmocka_run_group_tests_name("lesson5_listing", tests, NULL, NULL);
}

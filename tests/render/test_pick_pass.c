/* test_pick_pass.c: the GPU pick pass (src/render/pick.c) on a real GL 3.3
 * context (a hidden SDL window; under Xvfb, llvmpipe): object ids, triangle
 * ids by gl_PrimitiveID and by the flat per-vertex path, the depth under
 * the pixel against the projected depth, and the one-frame-later read
 * through pixel buffer objects, and render_pick_list's choice for every
 * command kind. The expected answers come from cglm's projection of known
 * geometry, not from the pass. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <raypick/raypick.h>
#include "render.h"
#include "render_list.h"
#include "render_model.h"
#include "render_pick.h"
#include "render_test_window.h"

enum { W = 320, H = 240 };

static gl_test_window g_win;
static renderer *g_r;
static render_view g_view;

static int setup(void **state)
{
    (void)state;
    g_r = render_test_open(&g_win, "pick pass", W, H, true);
    if (!g_r)
        return -1;
    /* camera at z = 5 looking down -z at the origin, 60 degrees */
    glm_lookat((vec3){0, 0, 5}, (vec3){0, 0, 0}, (vec3){0, 1, 0}, g_view.view);
    glm_perspective(glm_rad(60.0f), (float)W / (float)H, 0.1f, 100.0f, g_view.proj);
    glm_mat4_mul(g_view.proj, g_view.view, g_view.view_proj);
    glm_vec3_copy((vec3){0, 0, 5}, g_view.eye);
    g_view.width = W;
    g_view.height = H;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    render_test_close(&g_win, g_r);
    return 0;
}

/* Pixel (x, y down) and window depth of a world point, by cglm. */
static void project(const vec3 p, float *x, float *y, float *depth)
{
    vec4 clip;
    glm_mat4_mulv(g_view.view_proj, (vec4){p[0], p[1], p[2], 1.0f}, clip);
    *x = (clip[0] / clip[3] * 0.5f + 0.5f) * W;
    *y = (0.5f - clip[1] / clip[3] * 0.5f) * H;
    *depth = clip[2] / clip[3] * 0.5f + 0.5f;
}

/* A square in the plane z = zplane, x and y in [-1, 1], two triangles:
   0 = lower right half, 1 = upper left half. */
typedef struct quad_vertex { float p[3], n[3], uv[2]; } quad_vertex;

static render_model *quad(float zplane)
{
    const quad_vertex v[4] = {
        {{-1, -1, zplane}, {0, 0, 1}, {0, 0}}, {{1, -1, zplane}, {0, 0, 1}, {1, 0}},
        {{1, 1, zplane}, {0, 0, 1}, {1, 1}},   {{-1, 1, zplane}, {0, 0, 1}, {0, 1}},
    };
    const uint32_t idx[6] = {0, 1, 2, 0, 2, 3};
    char err[128];
    render_model *m = render_model_create(g_r, v, 4, sizeof v[0], idx, 2, err, sizeof err);
    assert_non_null(m);
    return m;
}

static render_pick_result pick_model(render_pick *p, render_model *m, mat4 model, uint32_t base,
                                     float x, float y)
{
    render_pick_result res;
    memset(&res, 0xff, sizeof res);
    assert_true(render_pick_begin(p, &g_view, x, y));
    render_pick_model(p, m, model, base);
    assert_true(render_pick_read(p, &res));
    render_pick_end(p);
    return res;
}

static void object_ids_and_background(void **state)
{
    (void)state;
    char err[256];
    render_pick *p = render_pick_create(g_r, NULL, err, sizeof err);
    assert_non_null(p);
    mat4 left, right;
    glm_translate_make(left, (vec3){-1.5f, 0, 0});
    glm_scale_uni(left, 0.5f);
    glm_translate_make(right, (vec3){1.5f, 0, -1});
    glm_scale_uni(right, 0.5f);
    const float probes[3][3] = {{-1.5f, 0, 0}, {1.5f, 0, -1}, {0, 2.5f, 0}};
    const bool hits[3] = {true, true, false};
    const uint32_t ids[3] = {41, 42, 0};
    for (int i = 0; i < 3; ++i) {
        float x, y, d;
        project(probes[i], &x, &y, &d);
        render_pick_result res;
        assert_true(render_pick_begin(p, &g_view, x, y));
        render_pick_shape(p, RENDER_SPHERE, left, 41);
        render_pick_shape(p, RENDER_CUBE, right, 42);
        assert_true(render_pick_read(p, &res));
        render_pick_end(p);
        assert_int_equal(res.hit, hits[i]);
        if (hits[i])
            assert_int_equal(res.id, ids[i]);
        else
            assert_float_equal(res.depth, 1.0f, 0.0f);
        assert_int_equal(res.x, (int)x);
        assert_int_equal(res.y, (int)y);
    }
    /* outside the view: refused, nothing bound */
    assert_false(render_pick_begin(p, &g_view, -1.0f, 10.0f));
    assert_false(render_pick_begin(p, &g_view, 10.0f, (float)H));
    render_pick_destroy(p);
}

static void triangle_ids_and_depth(bool flat)
{
    char err[256];
    render_pick_desc desc = {.flat_triangle_ids = flat};
    render_pick *p = render_pick_create(g_r, &desc, err, sizeof err);
    assert_non_null(p);
    render_model *m = quad(0.0f);
    mat4 model;
    glm_translate_make(model, (vec3){0, 0, -2});     /* the sample's world matrix */
    /* centroids of the two triangles, moved by the model matrix */
    const vec3 centroid[2] = {{1.0f / 3, -1.0f / 3, -2}, {-1.0f / 3, 1.0f / 3, -2}};
    for (uint32_t t = 0; t < 2; ++t) {
        float x, y, d;
        project(centroid[t], &x, &y, &d);
        render_pick_result res = pick_model(p, m, model, 1000, x, y);
        assert_true(res.hit);
        assert_int_equal(res.id, 1000 + t);
        /* the depth of a plane facing the camera is the same everywhere:
           what cglm projects, within 24-bit depth resolution */
        assert_float_equal(res.depth, d, 1e-6f);
    }
    render_model_destroy(m);
    render_pick_destroy(p);
}

static void triangle_ids_by_primitive_id(void **state)
{
    (void)state;
    triangle_ids_and_depth(false);
}

static void triangle_ids_by_flat_vertex_ids(void **state)
{
    (void)state;
    triangle_ids_and_depth(true);
}

static void nearer_surface_wins(void **state)
{
    (void)state;
    char err[256];
    render_pick *p = render_pick_create(g_r, NULL, err, sizeof err);
    render_model *far = quad(-3.0f), *near = quad(-1.0f);
    mat4 id = GLM_MAT4_IDENTITY_INIT;
    float x, y, d;
    project((vec3){0.5f, -0.5f, -1.0f}, &x, &y, &d);
    render_pick_result res;
    /* drawn far last: the depth test, not the order, decides */
    assert_true(render_pick_begin(p, &g_view, x, y));
    render_pick_model(p, near, id, 10);
    render_pick_model(p, far, id, 20);
    assert_true(render_pick_read(p, &res));
    render_pick_end(p);
    assert_int_equal(res.id, 10);
    assert_float_equal(res.depth, d, 1e-6f);
    render_model_destroy(far);
    render_model_destroy(near);
    render_pick_destroy(p);
}

static void async_read_matches_the_synchronous_one(void **state)
{
    (void)state;
    char err[256];
    render_pick *p = render_pick_create(g_r, NULL, err, sizeof err);
    render_model *m = quad(0.0f);
    mat4 id = GLM_MAT4_IDENTITY_INIT;
    render_pick_result none;
    assert_false(render_pick_poll(p, false, &none));     /* nothing started */
    float x, y, d;
    project((vec3){-0.4f, 0.5f, 0.0f}, &x, &y, &d);
    render_pick_result sync, later;
    assert_true(render_pick_begin(p, &g_view, x, y));
    render_pick_model(p, m, id, 0);
    assert_true(render_pick_read_async(p));
    assert_true(render_pick_read(p, &sync));
    render_pick_end(p);
    assert_true(render_pick_poll(p, true, &later));
    assert_true(later.hit);
    assert_int_equal(later.id, 1);
    assert_int_equal(later.id, sync.id);
    assert_float_equal(later.depth, sync.depth, 0.0f);
    assert_int_equal(later.x, sync.x);
    assert_int_equal(later.y, sync.y);
    assert_true(later.wait_ms >= 0.0);
    assert_false(render_pick_poll(p, false, &later));    /* collected once */
    render_model_destroy(m);
    render_pick_destroy(p);
}

/* ------------------------------------------------------------ instances */

static render_instance instance(const vec3 at, const vec3 size, const versor q)
{
    render_instance in;
    memset(&in, 0, sizeof in);
    memcpy(in.position, at, sizeof in.position);
    memcpy(in.scale, size, sizeof in.scale);
    memcpy(in.rotation, q, sizeof in.rotation);
    in.color[3] = 1.0f;
    return in;
}

/* The library's answer for the ray through pixel (x, y)'s centre against
   the copies (ellipsoids, or boxes when box): the nearest one's index (-1:
   none) and the window depth of its hit. */
static int ray_nearest_copy(const render_instance *inst, int count, bool box, float x, float y, float *depth)
{
    rp_viewport vp = {0.0f, 0.0f, (float)W, (float)H};
    rp_ray ray;
    assert_true(rp_pick_ray_unproject(floorf(x) + 0.5f, floorf(y) + 0.5f, &vp, g_view.proj, g_view.view, RP_GL,
                                      &ray));
    int nearest = -1;
    rp_hit best;
    for (int j = 0; j < count; ++j) {
        const render_instance *in = &inst[j];
        rp_hit hit;
        bool ok;
        if (box) {
            rp_obb b;
            memcpy(b.center, in->position, sizeof b.center);
            memcpy(b.half_extents, in->scale, sizeof b.half_extents);
            memcpy(b.orientation, in->rotation, sizeof b.orientation);
            ok = rp_intersect_ray_obb(&ray, &b, &hit);
        } else {
            rp_ellipsoid e;
            memcpy(e.center, in->position, sizeof e.center);
            memcpy(e.radii, in->scale, sizeof e.radii);
            memcpy(e.orientation, in->rotation, sizeof e.orientation);
            ok = rp_intersect_ray_ellipsoid(&ray, &e, &hit);
        }
        if (ok && (nearest < 0 || hit.t < best.t)) {
            nearest = j;
            best = hit;
        }
    }
    float px, py;
    if (nearest >= 0)
        project(best.point, &px, &py, depth);
    return nearest;
}

static render_pick_result pick_instances(render_pick *p, render_shape_kind kind, const render_instance *inst,
                                         int count, uint32_t base, float x, float y)
{
    render_pick_result res;
    memset(&res, 0xff, sizeof res);
    assert_true(render_pick_begin(p, &g_view, x, y));
    render_pick_instances(p, kind, inst, count, base);
    assert_true(render_pick_read(p, &res));
    render_pick_end(p);
    return res;
}

/* Copy j writes base + j with the depth of its exact surface, whether it
   would be a point or a quad in the picture; where copies overlap the
   nearest wins in either order; between them nothing. The expected
   answers are the library's rays through the same pixels. */
static void instance_ids_are_base_plus_index(void **state)
{
    (void)state;
    char err[256];
    render_pick *p = render_pick_create(g_r, NULL, err, sizeof err);
    assert_non_null(p);
    versor none = {0, 0, 0, 1}, turned, tilted;
    glm_quatv(turned, glm_rad(35.0f), (vec3){0, 1, 0});
    glm_quatv(tilted, glm_rad(50.0f), (vec3){0.6f, 0.0f, 0.8f});
    /* ellipsoids: a large sphere, a turned ellipsoid, a small far one (a
       point of a few pixels in the picture), a sphere in front of another */
    render_instance round[6] = {
        instance((vec3){-1.5f, 0.0f, 0.0f}, (vec3){0.5f, 0.5f, 0.5f}, none),
        instance((vec3){1.4f, 0.9f, -1.0f}, (vec3){0.7f, 0.3f, 0.4f}, tilted),
        instance((vec3){1.2f, -1.6f, -12.0f}, (vec3){0.12f, 0.12f, 0.12f}, none),
        instance((vec3){0.0f, 0.0f, -0.5f}, (vec3){0.6f, 0.6f, 0.6f}, none),   /* behind ... */
        instance((vec3){0.05f, 0.0f, 0.6f}, (vec3){0.25f, 0.25f, 0.25f}, none),  /* ... this one */
        instance((vec3){30.0f, 0.0f, 0.0f}, (vec3){1.0f, 1.0f, 1.0f}, none),   /* out of view */
    };
    render_instance boxes[2] = {
        instance((vec3){1.5f, -1.0f, 0.0f}, (vec3){0.5f, 0.3f, 0.4f}, turned),
        instance((vec3){-1.2f, 1.3f, 0.5f}, (vec3){0.3f, 0.3f, 0.3f}, tilted),
    };
    const uint32_t base = 1000;
    for (int j = 0; j < 5; ++j) {
        float x, y, d, want;
        project(round[j].position, &x, &y, &d);
        int expect = ray_nearest_copy(round, 6, false, x, y, &want);
        assert_int_equal(expect, j == 3 ? 4 : j);   /* sphere 3's centre is behind sphere 4 */
        render_pick_result res = pick_instances(p, RENDER_SPHERE, round, 6, base, x, y);
        assert_true(res.hit);
        assert_int_equal(res.id, base + (uint32_t)expect);
        assert_float_equal(res.depth, want, 2e-6f);
    }
    /* listed the other way round: the depth test, not the order, decides */
    render_instance swapped[2] = {round[4], round[3]};
    float x, y, d;
    project(round[3].position, &x, &y, &d);
    assert_int_equal(pick_instances(p, RENDER_SPHERE, swapped, 2, 0, x, y).id, 0);
    for (int j = 0; j < 2; ++j) {
        float want;
        project(boxes[j].position, &x, &y, &d);
        assert_int_equal(ray_nearest_copy(boxes, 2, true, x, y, &want), j);
        render_pick_result res = pick_instances(p, RENDER_CUBE, boxes, 2, 7, x, y);
        assert_true(res.hit);
        assert_int_equal(res.id, 7 + j);
        assert_float_equal(res.depth, want, 2e-6f);
    }
    /* between the copies, where no ray hits one: nothing */
    project((vec3){-0.4f, -1.4f, 0.0f}, &x, &y, &d);
    float unused;
    assert_int_equal(ray_nearest_copy(round, 6, false, x, y, &unused), -1);
    render_pick_result res = pick_instances(p, RENDER_SPHERE, round, 6, base, x, y);
    assert_false(res.hit);
    assert_float_equal(res.depth, 1.0f, 0.0f);
    /* ids that would not fit, no copies, bad kinds: nothing drawn */
    project(round[0].position, &x, &y, &d);
    res = pick_instances(p, RENDER_SPHERE, round, 6, UINT32_MAX - 6, x, y);   /* the last id: UINT32_MAX - 1 */
    assert_true(res.hit);
    assert_int_equal(res.id, UINT32_MAX - 6);
    assert_false(pick_instances(p, RENDER_SPHERE, round, 6, UINT32_MAX - 5, x, y).hit);
    assert_false(pick_instances(p, RENDER_SPHERE, round, 0, 0, x, y).hit);
    assert_false(pick_instances(p, RENDER_SPHERE, NULL, 6, 0, x, y).hit);
    assert_false(pick_instances(p, RENDER_SHAPE_COUNT, round, 6, 0, x, y).hit);
    render_pick_destroy(p);
}

/* The eye inside a copy's bounding sphere: a box ahead of it (the eye
   outside the box itself) is picked at its near face; the eye inside an
   ellipsoid, at its far side, where the library's ray from inside hits
   (t_exit). Both as the library answers, in several pixels. */
static void eye_inside_a_bound_or_a_shape(void **state)
{
    (void)state;
    char err[256];
    render_pick *p = render_pick_create(g_r, NULL, err, sizeof err);
    assert_non_null(p);
    versor none = {0, 0, 0, 1}, turned;
    glm_quatv(turned, glm_rad(20.0f), (vec3){0, 1, 0});
    /* the eye is at z = 5: the wall's bound (radius 2.9) holds it, its
       near face is 0.9 ahead */
    render_instance wall = instance((vec3){0.0f, 0.0f, 3.8f}, (vec3){2.0f, 2.0f, 0.3f}, turned);
    /* a sphere around the eye, and an ellipsoid around it too */
    render_instance around[2] = {
        instance((vec3){0.3f, 0.0f, 4.6f}, (vec3){1.5f, 1.5f, 1.5f}, none),
        instance((vec3){0.0f, 0.2f, 5.0f}, (vec3){2.5f, 1.0f, 3.0f}, turned),
    };
    const vec2 pixels[3] = {{W / 2.0f, H / 2.0f}, {W * 0.3f, H * 0.6f}, {W * 0.7f, H * 0.35f}};
    for (int k = 0; k < 3; ++k) {
        float x = pixels[k][0], y = pixels[k][1], want;
        assert_int_equal(ray_nearest_copy(&wall, 1, true, x, y, &want), 0);
        render_pick_result res = pick_instances(p, RENDER_CUBE, &wall, 1, 40, x, y);
        assert_true(res.hit);
        assert_int_equal(res.id, 40);
        assert_float_equal(res.depth, want, 2e-6f);
        for (int j = 0; j < 2; ++j) {
            assert_int_equal(ray_nearest_copy(&around[j], 1, false, x, y, &want), 0);
            res = pick_instances(p, RENDER_SPHERE, &around[j], 1, 60, x, y);
            assert_true(res.hit);
            assert_int_equal(res.id, 60);
            assert_float_equal(res.depth, want, 2e-6f);
        }
    }
    render_pick_destroy(p);
}

/* The frame (rgb, W x H) of `count` copies of kind drawn as instances, or
   each as its own shape (the mesh it stands for) when as_shapes. */
static void draw_copies(render_shape_kind kind, const render_instance *inst, int count, bool as_shapes,
                        uint8_t *rgb)
{
    render_list list = {0};
    render_list_reset(&list, &g_view);
    if (!as_shapes)
        render_list_instances(&list, kind, inst, count);
    for (int i = 0; as_shapes && i < count; ++i) {
        versor q;
        vec3 at, size;
        vec4 color;     /* aligned for cglm: instance fields are not */
        memcpy(q, inst[i].rotation, sizeof q);
        memcpy(at, inst[i].position, sizeof at);
        memcpy(size, inst[i].scale, sizeof size);
        memcpy(color, inst[i].color, sizeof color);
        mat4 model;
        glm_translate_make(model, at);
        glm_quat_rotate(model, q, model);
        glm_scale(model, size);
        render_list_shape(&list, kind, model, color, NULL);
    }
    render_begin(g_r, &g_view);
    render_submit(g_r, &list);
    render_end(g_r);
    assert_true(render_read_pixels(g_r, W, H, rgb));
    render_list_free(&list);
}

/* With the eye inside its bounding sphere (not inside it), a box drawn as
   an impostor covers what its mesh covers: the quad that faces the eye
   cannot exist there, so the impostor covers the view instead. */
static void eye_inside_a_bound_still_draws_the_box(void **state)
{
    (void)state;
    versor turned;
    glm_quatv(turned, glm_rad(20.0f), (vec3){0, 1, 0});
    /* a long bar beside the eye (z = 5), reaching past it and the near
       plane: 0.93 from the eye, its bound's radius 1.01 */
    render_instance wall = instance((vec3){0.25f, -0.05f, 4.1f}, (vec3){0.1f, 0.1f, 1.0f}, turned);
    wall.color[0] = 0.9f;
    float d = glm_vec3_distance(g_view.eye, (vec3){0.25f, -0.05f, 4.1f});
    assert_true(d < glm_vec3_norm((vec3){0.1f, 0.1f, 1.0f}));
    uint8_t *empty = malloc(W * H * 3), *impostor = malloc(W * H * 3), *mesh = malloc(W * H * 3);
    assert_true(empty && impostor && mesh);
    draw_copies(RENDER_CUBE, &wall, 0, true, empty);
    draw_copies(RENDER_CUBE, &wall, 1, false, impostor);
    draw_copies(RENDER_CUBE, &wall, 1, true, mesh);
    size_t in_impostor = 0, in_mesh = 0, in_both = 0;
    for (size_t i = 0; i < (size_t)W * H; ++i) {
        bool a = memcmp(impostor + 3 * i, empty + 3 * i, 3) != 0, b = memcmp(mesh + 3 * i, empty + 3 * i, 3) != 0;
        in_impostor += a;
        in_mesh += b;
        in_both += a && b;
    }
    /* a fair part of the view, and the same part (edges may differ by a
       pixel: the mesh is rasterised, the impostor ray-cast) */
    assert_true(in_mesh > (size_t)W * H / 50);
    assert_true(in_both >= in_mesh - in_mesh / 50 && in_both >= in_impostor - in_impostor / 50);
    free(empty);
    free(impostor);
    free(mesh);
}

/* Kinds without impostors (a torus) draw their coarse instanced mesh. */
static void instanced_meshes_write_their_ids(void **state)
{
    (void)state;
    char err[256];
    render_pick *p = render_pick_create(g_r, NULL, err, sizeof err);
    assert_non_null(p);
    versor facing;      /* the ring (around the torus's y) turned to face the camera */
    glm_quatv(facing, glm_rad(90.0f), (vec3){1, 0, 0});
    render_instance tori[3] = {
        instance((vec3){-1.5f, -1.0f, 0.0f}, (vec3){0.5f, 0.5f, 0.5f}, facing),
        instance((vec3){0.0f, -1.0f, 0.0f}, (vec3){0.5f, 0.5f, 0.5f}, facing),
        instance((vec3){1.5f, -1.0f, 0.0f}, (vec3){0.5f, 0.5f, 0.5f}, facing),
    };
    for (int j = 0; j < 3; ++j) {
        /* on the tube's centre line (ring radius 0.75, tube 0.3, scaled) */
        vec3 ring = {tori[j].position[0] + 0.375f, tori[j].position[1], 0.0f};
        float x, y, d;
        project(ring, &x, &y, &d);
        render_pick_result res = pick_instances(p, RENDER_TORUS, tori, 3, 50, x, y);
        assert_true(res.hit);
        assert_int_equal(res.id, 50 + j);
        /* the tube's front: nearer than its centre line, not nearer than its radius */
        float front_d;
        project((vec3){ring[0], ring[1], 0.15f}, &x, &y, &front_d);
        assert_true(res.depth < d && res.depth > front_d - 1e-5f);
        /* the hole: nothing */
        project(tori[j].position, &x, &y, &d);
        assert_false(pick_instances(p, RENDER_TORUS, tori, 3, 50, x, y).hit);
    }
    render_pick_destroy(p);
}

/* ------------------------------------------------------------ every command kind */

/* A square in the plane z = 0 facing +z, x and y in [-1, 1] (lesson 5's
   vertex layout: position, normal, tu tv). */
static const quad_vertex SQUARE_VERTICES[4] = {
    {{-1, -1, 0}, {0, 0, 1}, {0, 0}}, {{1, -1, 0}, {0, 0, 1}, {1, 0}},
    {{1, 1, 0}, {0, 0, 1}, {1, 1}},   {{-1, 1, 0}, {0, 0, 1}, {0, 1}},
};
static const uint32_t SQUARE_INDICES[6] = {0, 1, 2, 0, 2, 3};
static const render_mesh_data SQUARE = {SQUARE_VERTICES, 4, sizeof SQUARE_VERTICES[0], SQUARE_INDICES, 2, true};
static const float FLAT_HEIGHTS[4] = {1, 1, 1, 1};
static const vec4 SOLID = {0.8f, 0.5f, 0.3f, 1.0f}, GLOW = {0.3f, 0.8f, 1.0f, 0.4f};

/* One command of each kind, drawn over the origin (the view's centre). */
static void list_shape(render_list *l)
{
    mat4 m = GLM_MAT4_IDENTITY_INIT;
    render_list_shape(l, RENDER_SPHERE, m, SOLID, NULL);
}
static void list_terrain(render_list *l)
{
    const render_terrain_data t = {2, 2, 4.0f, {-2.0f, -1.0f, -2.0f}, FLAT_HEIGHTS, 0};   /* flat at y = 0 */
    render_list_terrain(l, &t);
}
static void list_grid(render_list *l) { render_list_grid(l, 0.0f); }
static void list_shadow(render_list *l) { render_list_shadow(l, (vec3){0, 0.5f, 0}, 1.5f, 0.0f, 0.8f); }
static void list_line(render_list *l) { render_list_line(l, (vec3){-2, 0, 0}, (vec3){2, 0, 0}, GLOW); }
static void list_point(render_list *l) { render_list_point(l, (vec3){0, 0, 0}, 16.0f, GLOW); }
static void list_beam(render_list *l) { render_list_beam(l, (vec3){-2, 0, 0}, (vec3){2, 0, 0}, 0.5f, GLOW); }
static void list_shield(render_list *l)
{
    mat4 m = GLM_MAT4_IDENTITY_INIT;
    render_list_shield(l, m, GLOW, NULL, 0, 0.0f, 1.0f, 1.0f);
}
static void list_glass(render_list *l) { render_list_glass_sphere(l, (vec3){0, 0, 0}, 1.0f, GLOW); }
static void list_mesh(render_list *l)
{
    mat4 m = GLM_MAT4_IDENTITY_INIT;
    render_list_mesh(l, &SQUARE, m, SOLID, 0.0f);
}
static void list_mesh_highlight(render_list *l)
{
    mat4 m = GLM_MAT4_IDENTITY_INIT;
    const uint32_t both[2] = {0, 1};
    render_list_mesh_highlight(l, &SQUARE, m, both, 2, SOLID, GLOW);
}
static void list_instances(render_list *l)
{
    static render_instance copy[1];     /* referenced by the list until it is drawn */
    copy[0] = instance((vec3){0, 0, 0}, (vec3){1, 1, 1}, (versor){0, 0, 0, 1});
    render_list_instances(l, RENDER_SPHERE, copy, 1);
}

static void list_figure(render_list *l)
{
    render_list_fig_rect(l, (float)W * 0.25f, (float)H * 0.25f, (float)W * 0.5f, (float)H * 0.5f, SOLID);
}

/* What each kind must do in the ID pass: drawn with its id, or left out.
   Indexed by kind, so a kind added to render_cmd_kind without a line here
   finds a hole and the test fails: GPU picking must be decided for it
   (docs/architecture.md, "A new renderer pass or command"). */
typedef struct kind_case {
    const char *name;
    void (*list)(render_list *l);
    bool picked;
} kind_case;
static const kind_case KIND_CASES[RENDER_CMD_COUNT] = {
    [RENDER_CMD_SHAPE] = {"RENDER_CMD_SHAPE", list_shape, true},
    [RENDER_CMD_MESH] = {"RENDER_CMD_MESH", list_mesh, true},
    [RENDER_CMD_INSTANCES] = {"RENDER_CMD_INSTANCES", list_instances, true},
    /* opaque, but the library's heightmap picks it (lesson 4) */
    [RENDER_CMD_TERRAIN] = {"RENDER_CMD_TERRAIN", list_terrain, false},
    /* drawn over its mesh: the mesh is the target */
    [RENDER_CMD_MESH_HIGHLIGHT] = {"RENDER_CMD_MESH_HIGHLIGHT", list_mesh_highlight, false},
    /* translucent or markers: a ray passes through */
    [RENDER_CMD_GRID] = {"RENDER_CMD_GRID", list_grid, false},
    [RENDER_CMD_SHADOW] = {"RENDER_CMD_SHADOW", list_shadow, false},
    [RENDER_CMD_LINE] = {"RENDER_CMD_LINE", list_line, false},
    [RENDER_CMD_POINT] = {"RENDER_CMD_POINT", list_point, false},
    [RENDER_CMD_BEAM] = {"RENDER_CMD_BEAM", list_beam, false},
    [RENDER_CMD_SHIELD] = {"RENDER_CMD_SHIELD", list_shield, false},
    [RENDER_CMD_GLASS] = {"RENDER_CMD_GLASS", list_glass, false},
    /* a 2D inset over the scene (figure.c), not part of it */
    [RENDER_CMD_FIGURE] = {"RENDER_CMD_FIGURE", list_figure, false},
};

/* The frame of list, RGB, top row first. */
static void draw_list(const render_list *list, uint8_t *rgb)
{
    render_begin(g_r, &list->view);
    render_submit(g_r, list);
    render_end(g_r);
    assert_true(render_read_pixels(g_r, W, H, rgb));
}

/* The pixel nearest the centre where a and b differ; false when none does. */
static bool nearest_change(const uint8_t *a, const uint8_t *b, int *px, int *py)
{
    long best = -1;
    for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x) {
            size_t i = 3 * ((size_t)y * W + (size_t)x);
            long d = (long)(x - W / 2) * (x - W / 2) + (long)(y - H / 2) * (y - H / 2);
            if (memcmp(a + i, b + i, 3) != 0 && (best < 0 || d < best)) {
                best = d;
                *px = x;
                *py = y;
            }
        }
    return best >= 0;
}

/* Each kind alone in a list with pick id 7, seen from above and in front:
   where it changes the picture, render_pick_list writes 7 for the kinds
   that are picked and nothing for the rest. */
static void every_command_kind_is_picked_or_left_out_on_purpose(void **state)
{
    (void)state;
    char err[256];
    render_pick *p = render_pick_create(g_r, NULL, err, sizeof err);
    assert_non_null(p);
    render_view v = g_view;
    glm_vec3_copy((vec3){0, 3, 6}, v.eye);
    glm_lookat(v.eye, (vec3){0, 0, 0}, (vec3){0, 1, 0}, v.view);
    glm_mat4_mul(v.proj, v.view, v.view_proj);
    uint8_t *empty = malloc((size_t)W * H * 3), *drawn = malloc((size_t)W * H * 3);
    assert_true(empty && drawn);
    render_list list = {0};
    render_list_reset(&list, &v);
    draw_list(&list, empty);
    for (int k = 0; k < RENDER_CMD_COUNT; ++k) {
        if (!KIND_CASES[k].list)
            fail_msg("render_cmd_kind %d has no case here: list one, and say whether GPU picking draws it", k);
        render_list_reset(&list, &v);
        render_list_pick_id(&list, 7);
        KIND_CASES[k].list(&list);
        assert_int_equal(list.count, 1);
        assert_int_equal(list.cmds[0].kind, k);
        draw_list(&list, drawn);
        int x = 0, y = 0;
        if (!nearest_change(empty, drawn, &x, &y))
            fail_msg("%s drew nothing: the case cannot tell", KIND_CASES[k].name);
        render_pick_result res;
        assert_true(render_pick_begin(p, &v, (float)x + 0.5f, (float)y + 0.5f));
        render_pick_list(p, &list);
        assert_true(render_pick_read(p, &res));
        render_pick_end(p);
        if (res.hit != KIND_CASES[k].picked)
            fail_msg("%s at pixel (%d, %d): %s by the ID pass, expected %s", KIND_CASES[k].name, x, y,
                     res.hit ? "drawn" : "left out", KIND_CASES[k].picked ? "drawn" : "left out");
        if (res.hit)
            assert_int_equal(res.id, 7);
    }
    render_list_free(&list);
    free(empty);
    free(drawn);
    render_pick_destroy(p);
}

int main(int argc, char **argv)   /* SDL_main's signature on Windows */
{
    (void)argc;
    (void)argv;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(object_ids_and_background),
        cmocka_unit_test(triangle_ids_by_primitive_id),
        cmocka_unit_test(triangle_ids_by_flat_vertex_ids),
        cmocka_unit_test(nearer_surface_wins),
        cmocka_unit_test(async_read_matches_the_synchronous_one),
        cmocka_unit_test(instance_ids_are_base_plus_index),
        cmocka_unit_test(instanced_meshes_write_their_ids),
        cmocka_unit_test(eye_inside_a_bound_or_a_shape),
        cmocka_unit_test(eye_inside_a_bound_still_draws_the_box),
        cmocka_unit_test(every_command_kind_is_picked_or_left_out_on_purpose),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

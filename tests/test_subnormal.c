/* test_subnormal.c: the BVH's builds, refits and walks do no float
 * arithmetic on subnormal numbers when the objects and rays are ordinary.
 *
 * Why it matters: an Intel CPU takes a microcode assist, about a hundred
 * cycles, for each SSE or AVX operation that meets a subnormal operand or
 * makes a subnormal result (AMD's do not). The builder once read its
 * 32-byte records four floats at a time, with an index or tag in lane 3
 * whose bits are a subnormal float, and multiplied them: on an Intel Xeon
 * the scene build of a million spheres took 3.5 times as long as on an
 * AMD EPYC, and 2.9 times Embree's (docs/performance.md). Nothing else
 * showed it: the answers were right and AMD machines were fast.
 *
 * How it tells: x86's MXCSR register has a sticky flag, DE, set by any
 * SSE or AVX instruction with a subnormal operand (and UE by a subnormal
 * result). The test clears the flags, runs one library call and reads
 * them; each call is named in the failure. The flags are the calling
 * thread's: builds big enough to use a second thread are checked on the
 * part the calling thread does, which runs the same code.
 *
 * x86 only (meson registers it there); left out of the valgrind setups,
 * whose CPU model keeps no MXCSR flags. */
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
#include <xmmintrin.h>

#include <raypick/raypick.h>

#define MXCSR_FLAGS 0x3Fu    /* the six sticky exception flags */
#define MXCSR_DE    0x02u    /* an operand was subnormal */
#define MXCSR_UE    0x10u    /* a result was subnormal (underflow) */

static void clear_flags(void)
{
    _mm_setcsr(_mm_getcsr() & ~MXCSR_FLAGS);
}

/* Fails naming `what` when a subnormal operand or result has been met
   since the last clear_flags, then clears them. */
static void expect_no_subnormal(const char *what)
{
    unsigned csr = _mm_getcsr();
    if (csr & (MXCSR_DE | MXCSR_UE))
        fail_msg("%s: %s%s", what, (csr & MXCSR_DE) ? "a subnormal operand (DE) " : "",
                 (csr & MXCSR_UE) ? "a subnormal result (UE)" : "");
    clear_flags();
}

static uint32_t rng = 12345u;
static float uniform(float lo, float hi)
{
    rng = rng * 1664525u + 1013904223u;
    return lo + (hi - lo) * (float)(rng >> 8) / 16777216.0f;
}

/* A random unit quaternion (x, y, z, w). */
static void random_versor(versor q)
{
    float n;
    do {
        for (int k = 0; k < 4; k++)
            q[k] = uniform(-1.0f, 1.0f);
        n = sqrtf(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    } while (n < 0.25f || n > 1.0f);
    for (int k = 0; k < 4; k++)
        q[k] /= n;
}

static void random_point(float extent, vec3 p)
{
    for (int k = 0; k < 3; k++)
        p[k] = uniform(-extent, extent);
}

/* A ray from outside the field towards a random point inside it. */
static rp_ray random_ray(float extent)
{
    rp_ray r;
    vec3 to;
    random_point(extent, r.origin);
    r.origin[2] = 3.0f * extent;
    random_point(extent * 0.8f, to);
    for (int k = 0; k < 3; k++)
        r.dir[k] = to[k] - r.origin[k];
    return r;
}

/* A grid of (n + 1)^2 vertices, 2 n^2 triangles, over [-1, 1]^2 with hills. */
static rp_mesh *hill_mesh(int n)
{
    float *xyz = malloc((size_t)(n + 1) * (size_t)(n + 1) * 3 * sizeof *xyz);
    uint32_t *idx = malloc((size_t)n * (size_t)n * 6 * sizeof *idx);
    assert_non_null(xyz);
    assert_non_null(idx);
    for (int j = 0; j <= n; j++)
        for (int i = 0; i <= n; i++) {
            float *v = xyz + 3 * (j * (n + 1) + i);
            v[0] = -1.0f + 2.0f * (float)i / (float)n;
            v[1] = -1.0f + 2.0f * (float)j / (float)n;
            v[2] = 0.3f * sinf(5.0f * v[0]) * cosf(4.0f * v[1]);
        }
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            uint32_t a = (uint32_t)(j * (n + 1) + i), b = a + 1, c = a + (uint32_t)n + 1, d = c + 1;
            uint32_t *t = idx + 6 * (j * n + i);
            t[0] = a, t[1] = b, t[2] = d, t[3] = a, t[4] = d, t[5] = c;
        }
    rp_mesh *m = rp_mesh_create(xyz, (size_t)(n + 1) * (size_t)(n + 1), 0, idx, (size_t)n * (size_t)n * 2);
    free(xyz);
    free(idx);
    assert_non_null(m);
    return m;
}

/* The flags do what the test relies on: a subnormal operand sets DE. */
static void test_the_flags_see_a_subnormal(void **state)
{
    (void)state;
    volatile float tiny = FLT_MIN / 4.0f, two = 2.0f;
    clear_flags();
    volatile float x = tiny * two;
    (void)x;
    assert_true((_mm_getcsr() & MXCSR_DE) != 0);
    clear_flags();
    volatile float y = two * two;
    (void)y;
    assert_int_equal(_mm_getcsr() & (MXCSR_DE | MXCSR_UE), 0);
}

/* Adds an object of kind i % 8 to s: every kind the scene holds. */
static void add_object(rp_scene *s, int i, float extent, const rp_mesh *mesh)
{
    const rp_thin_tolerance tol = {0.05f, 0.001f};
    vec3 c, d;
    random_point(extent, c);
    switch (i % 8) {
    case 0: {
        rp_sphere sp = {{c[0], c[1], c[2]}, uniform(0.5f, 2.0f)};
        assert_true(rp_scene_add_sphere(s, &sp) >= 0);
        break;
    }
    case 1: {
        rp_ellipsoid e = {{c[0], c[1], c[2]}, {uniform(0.5f, 2.0f), uniform(0.5f, 2.0f), uniform(0.5f, 2.0f)},
                          {0, 0, 0, 0}};
        random_versor(e.orientation);
        assert_true(rp_scene_add_ellipsoid(s, &e) >= 0);
        break;
    }
    case 2: {
        rp_aabb b = {{c[0] - 1.0f, c[1] - 0.5f, c[2] - 2.0f}, {c[0] + 1.0f, c[1] + 0.5f, c[2] + 2.0f}};
        assert_true(rp_scene_add_aabb(s, &b) >= 0);
        break;
    }
    case 3: {
        rp_obb b = {{c[0], c[1], c[2]}, {uniform(0.5f, 2.0f), uniform(0.5f, 2.0f), uniform(0.5f, 2.0f)},
                    {0, 0, 0, 0}};
        random_versor(b.orientation);
        assert_true(rp_scene_add_obb(s, &b) >= 0);
        break;
    }
    case 4: {
        mat4 model;
        glm_translate_make(model, c);
        glm_scale_uni(model, uniform(1.0f, 3.0f));
        assert_true(rp_scene_add_mesh(s, mesh, model) >= 0);
        break;
    }
    case 5:
        assert_true(rp_scene_add_point(s, c, &tol) >= 0);
        break;
    case 6:
        random_point(2.0f, d);
        glm_vec3_add(d, c, d);
        assert_true(rp_scene_add_segment(s, c, d, &tol) >= 0);
        break;
    default: {
        float path[4][3];
        for (int k = 0; k < 4; k++)
            for (int a = 0; a < 3; a++)
                path[k][a] = c[a] + (float)k * (a == 0 ? 1.5f : 0.5f);
        assert_true(rp_scene_add_polyline(s, &path[0][0], 4, 0, &tol) >= 0);
        break;
    }
    }
}

/* Every kind of object: build, refit after a move, picks, the filtered
   query and the marquee. Small (one thread) and big (two). */
static void scene_of(int count, float extent)
{
    rp_mesh *mesh = hill_mesh(12);
    rp_scene *s = rp_scene_create();
    assert_non_null(s);
    for (int i = 0; i < count; i++)
        add_object(s, i, extent, mesh);
    for (int i = 0; i < count; i++)
        rp_scene_set_mask(s, i, 1u << (i % 5));

    clear_flags();
    assert_true(rp_scene_build(s));
    expect_no_subnormal("rp_scene_build (the first build)");

    for (int i = 0; i < count; i += 8) {
        rp_sphere sp = {{uniform(-extent, extent), uniform(-extent, extent), uniform(-extent, extent)},
                        uniform(0.5f, 2.0f)};
        assert_true(rp_scene_set_sphere(s, i, &sp));
    }
    clear_flags();
    assert_true(rp_scene_build(s));
    expect_no_subnormal("rp_scene_build (a refit after moving the spheres)");

    int hits = 0;
    for (int r = 0; r < 500; r++) {
        rp_ray ray = random_ray(extent);
        rp_hit hit;
        clear_flags();
        hits += rp_intersect_ray_scene(s, &ray, &hit, NULL) >= 0;
        expect_no_subnormal("rp_intersect_ray_scene");
        rp_scene_query q = {.layers = 0x6u, .t_max = 1e30f, .thin = {0.1f, 0.0f}};
        rp_hit qhit;
        clear_flags();
        (void)rp_scene_query_ray(s, &ray, &q, &qhit, NULL, NULL);
        expect_no_subnormal("rp_scene_query_ray (layers, thin tolerance)");
    }
    assert_true(hits > 50);    /* the rays met objects: the walk ran deep */

    mat4 proj, view;
    glm_perspective(glm_rad(60.0f), 16.0f / 9.0f, 1.0f, 2000.0f, proj);
    glm_lookat((vec3){0.0f, -2.0f * extent, 2.5f * extent}, (vec3){0.0f, 0.0f, 0.0f}, (vec3){0.0f, 0.0f, 1.0f}, view);
    rp_viewport vp = {0.0f, 0.0f, 1280.0f, 720.0f};
    rp_frustum f;
    assert_true(rp_frustum_from_rect(300.0f, 200.0f, 900.0f, 600.0f, &vp, proj, view, RP_GL, &f));
    rp_scene_query q = {.layers = 0xFFFFFFFFu, .t_max = INFINITY};
    int *picked = malloc((size_t)count * sizeof *picked);
    assert_non_null(picked);
    clear_flags();
    size_t n = rp_scene_query_frustum(s, &f, &q, picked, (size_t)count);
    expect_no_subnormal("rp_scene_query_frustum");
    assert_true(n > 0 && n < (size_t)count);
    free(picked);

    rp_scene_destroy(s);
    rp_mesh_destroy(mesh);
}

static void test_small_scene(void **state)
{
    (void)state;
    scene_of(400, 30.0f);
}

static void test_big_scene(void **state)
{
    (void)state;
    scene_of(40000, 200.0f);
}

/* A mesh's build and its closest, all and any hits. */
static void test_mesh(void **state)
{
    (void)state;
    clear_flags();
    rp_mesh *m = hill_mesh(150);
    expect_no_subnormal("rp_mesh_create (45,000 triangles)");
    int hits = 0;
    rp_hit all[16];
    for (int r = 0; r < 500; r++) {
        rp_ray ray = random_ray(1.0f);
        rp_hit hit;
        clear_flags();
        hits += rp_intersect_ray_mesh(m, &ray, &hit, NULL);
        expect_no_subnormal("rp_intersect_ray_mesh");
        (void)rp_intersect_ray_mesh_all(m, &ray, all, NULL, 16);
        expect_no_subnormal("rp_intersect_ray_mesh_all");
        (void)rp_test_ray_mesh(m, &ray, 10.0f);
        expect_no_subnormal("rp_test_ray_mesh");
    }
    assert_true(hits > 250);
    rp_mesh_destroy(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_flags_see_a_subnormal),
        cmocka_unit_test(test_small_scene),
        cmocka_unit_test(test_big_scene),
        cmocka_unit_test(test_mesh),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

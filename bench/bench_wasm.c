/*
 * bench_wasm.c: the library in WebAssembly, for `scripts/web --bench`,
 * which links it with the library built with wasm SIMD (as the page ships
 * it) and without (-Dwasm_simd=false), runs both under Node in turns and
 * prints the ratios. Each line here is one figure: its name (with its
 * unit), a tab, the median of five passes. Not built by meson (emcc only).
 *
 *   the 60k-triangle knot: rp_mesh_create; closest hit per ray
 *   100,000 spheres and boxes: rp_scene_build; pick per ray
 *   1,000,000 spheres without a tree: rp_intersect_ray_spheres per ray
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <raypick/raypick.h>

#include "knot.h"
#include "../tests/random_scene.h"   /* the generator, the rays */

static rs_rng rng = {0x9e3779b97f4a7c15ULL};

static double uniform(double lo, double hi) { return rs_uniform(&rng, lo, hi); }

static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e6 + (double)t.tv_nsec * 1e-3;
}

static rp_ray ray_towards(double r) { return rs_ray_towards(&rng, r); }

enum { PASSES = 5, RAYS = 20000 };

static int by_value(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median pass, in microseconds over `unit` (1: us, 1000: ms). */
static void report(const char *name, double pass[PASSES], double unit)
{
    qsort(pass, PASSES, sizeof pass[0], by_value);
    printf("%s\t%.3f\n", name, pass[PASSES / 2] / unit);
}

static void fail(const char *what)
{
    fprintf(stderr, "bench_wasm: %s failed\n", what);
    exit(1);
}

int main(void)
{
    static rp_ray rays[RAYS];
    double pass[PASSES];
    long sum = 0;

    mesh k = make_knot(1000, 30, 0.3);
    rp_mesh *m = NULL;
    for (int p = 0; p < PASSES; p++) {
        rp_mesh_destroy(m);
        const double t0 = now_us();
        m = rp_mesh_create(k.pos, k.nv, 0, k.idx, k.nt);
        pass[p] = now_us() - t0;
        if (m == NULL)
            fail("rp_mesh_create");
    }
    report("knot of 60,000 triangles: rp_mesh_create (ms)", pass, 1000.0);
    for (int i = 0; i < RAYS; i++)
        rays[i] = ray_towards(3.5);
    for (int p = 0; p < PASSES; p++) {
        const double t0 = now_us();
        for (int i = 0; i < RAYS; i++) {
            rp_hit h;
            rp_triangle_hit t;
            sum += rp_intersect_ray_mesh(m, &rays[i], &h, &t) ? (long)t.triangle : -1;
        }
        pass[p] = (now_us() - t0) / RAYS;
    }
    report("knot: closest hit (us a ray)", pass, 1.0);

    enum { OBJECTS = 100000 };
    rp_scene *s = NULL;
    for (int p = 0; p < PASSES; p++) {
        rp_scene_destroy(s);
        s = rp_scene_create();
        if (s == NULL)
            fail("rp_scene_create");
        rng.s = 0x9e3779b97f4a7c15ULL;   /* the same scene each pass */
        for (int i = 0; i < OBJECTS; i++) {
            const float c[3] = {(float)uniform(-100, 100), (float)uniform(-100, 100),
                                (float)uniform(-100, 100)};
            const float r = (float)uniform(0.2, 1.0);
            rp_sphere sp = {{c[0], c[1], c[2]}, r};
            rp_aabb b = {{c[0] - r, c[1] - r, c[2] - r}, {c[0] + r, c[1] + r, c[2] + r}};
            if ((i % 2 ? rp_scene_add_sphere(s, &sp) : rp_scene_add_aabb(s, &b)) < 0)
                fail("adding an object");
        }
        const double t0 = now_us();
        if (!rp_scene_build(s))
            fail("rp_scene_build");
        pass[p] = now_us() - t0;
    }
    report("100,000 spheres and boxes: rp_scene_build (ms)", pass, 1000.0);
    for (int i = 0; i < RAYS; i++)
        rays[i] = ray_towards(100.0);
    for (int p = 0; p < PASSES; p++) {
        const double t0 = now_us();
        for (int i = 0; i < RAYS; i++) {
            rp_hit h;
            sum += rp_intersect_ray_scene(s, &rays[i], &h, NULL);
        }
        pass[p] = (now_us() - t0) / RAYS;
    }
    report("100,000 spheres and boxes: pick (us a ray)", pass, 1.0);

    enum { SPHERES = 1000000, SCANS = 20 };
    rp_sphere *sp = malloc(SPHERES * sizeof *sp);
    if (sp == NULL)
        fail("malloc");
    for (int i = 0; i < SPHERES; i++) {
        for (int a = 0; a < 3; a++)
            sp[i].center[a] = (float)uniform(-100, 100);
        sp[i].radius = (float)uniform(0.01, 0.1);
    }
    for (int p = 0; p < PASSES; p++) {
        const double t0 = now_us();
        for (int i = 0; i < SCANS; i++) {
            rp_hit h;
            sum += rp_intersect_ray_spheres(&rays[i], sp, SPHERES, &h);
        }
        pass[p] = (now_us() - t0) / SCANS;
    }
    report("1,000,000 spheres, no tree: rp_intersect_ray_spheres (ms a ray)", pass, 1000.0);
    /* the picks' sum: both builds must print the same */
    printf("answers\t%ld\n", sum);
    free(sp);
    rp_scene_destroy(s);
    rp_mesh_destroy(m);
    free(k.pos);
    free(k.idx);
    return 0;
}

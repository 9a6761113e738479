/*
 * bench_scene_query.c: rp_scene's filtered queries (issue 32) against the
 * loops they replace, in the same run:
 *
 *   1,000,000 objects (spheres, boxes, oriented boxes, ellipsoids) spread
 *     over a 2 km field, as an RTS's units: rp_scene_query_frustum for
 *     marquee rectangles of several sizes under a perspective camera
 *     against the brute-force loop over every object's own exact frustum
 *     test (the same list, checked), target >= 20x faster;
 *   the same objects on 16 layers: rp_scene_query_ray with one layer
 *     against the unfiltered query, and the zero query against
 *     rp_intersect_ray_scene.
 *
 * Times are medians of a few runs, wall-clock and, beside them, CPU time
 * of the process (on a shared machine the wall clock also counts the time
 * other programs held the cores; the load average is printed, and the CPU
 * model and SIMD paths first). Targets are checked on CPU time.
 *
 *   bench_scene_query             # 1,000,000 objects
 *   bench_scene_query 200000      # another count
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <raypick/raypick.h>
#include "machine.h"
#include "stats.h"
#include "timer.h"

#define REPS 5
#define LOOP_REPS 3
#define RAYS 20000
#define LAYERS 16

static uint64_t rng = 0x2545f4914f6cdd1dULL;

static double uniform(double lo, double hi)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return lo + (hi - lo) * ((double)(rng >> 11) * (1.0 / 9007199254740992.0));
}

static float uf(double lo, double hi) { return (float)uniform(lo, hi); }

static double now_ms(void) { return bench_now_seconds() * 1e3; }

static double cpu_ms(void) { return bench_process_cpu_seconds() * 1e3; }

typedef struct clocks {
    double wall, cpu;
} clocks;

static void print_load(void)
{
    FILE *f = fopen("/proc/loadavg", "r");
    double l1 = 0, l5 = 0, l15 = 0;
    if (f != NULL && fscanf(f, "%lf %lf %lf", &l1, &l5, &l15) == 3)
        printf("  load average: %.2f %.2f %.2f\n", l1, l5, l15);
    if (f != NULL)
        fclose(f);
}

static int targets_failed;

static void target(const char *what, double value, const char *op, double limit, bool met)
{
    printf("  target: %-52s %10.2f %s %-6g %s\n", what, value, op, limit, met ? "MET" : "NOT MET");
    targets_failed += !met;
}

/* ---- the objects ---------------------------------------------------------- */

enum kind { SPHERE, AABB, OBB, ELLIPSOID };

typedef struct object {
    enum kind kind;
    union {
        rp_sphere sphere;
        rp_aabb aabb;
        rp_obb obb;
        rp_ellipsoid ellipsoid;
    } u;
} object;

/* Units on a field of half-size e (x, z), up to 4 m tall (y). */
static void random_object(object *o, float e)
{
    const float x = uf(-e, e), y = uf(0, 4), z = uf(-e, e), s = uf(0.3, 1.5);
    const double r = uniform(0, 1);
    versor q;
    glm_quatv(q, uf(0, 6.28), (vec3){0, 1, 0});
    if (r < 0.7) {
        o->kind = SPHERE;
        o->u.sphere = (rp_sphere){{x, y, z}, s};
    } else if (r < 0.8) {
        o->kind = AABB;
        o->u.aabb = (rp_aabb){{x - s, y - s, z - s}, {x + s, y + 0.5f * s, z + s}};
    } else if (r < 0.9) {
        o->kind = OBB;
        rp_obb b = {{x, y, z}, {s, 0.5f * s, 0.8f * s}, {0, 0, 0, 1}};
        glm_quat_copy(q, b.orientation);
        o->u.obb = b;
    } else {
        o->kind = ELLIPSOID;
        rp_ellipsoid el = {{x, y, z}, {s, 0.6f * s, 0.4f * s}, {0, 0, 0, 1}};
        glm_quat_copy(q, el.orientation);
        o->u.ellipsoid = el;
    }
}

static int add(rp_scene *s, const object *o)
{
    switch (o->kind) {
    case SPHERE: return rp_scene_add_sphere(s, &o->u.sphere);
    case AABB: return rp_scene_add_aabb(s, &o->u.aabb);
    case OBB: return rp_scene_add_obb(s, &o->u.obb);
    default: return rp_scene_add_ellipsoid(s, &o->u.ellipsoid);
    }
}

/* The loop the frustum query replaces: every object's own exact test. */
static size_t loop_frustum(const object *objs, int n, const rp_frustum *f, int *out)
{
    size_t k = 0;
    for (int i = 0; i < n; i++) {
        const object *o = &objs[i];
        bool in;
        switch (o->kind) {
        case SPHERE: in = rp_test_frustum_sphere_exact(f, &o->u.sphere); break;
        case AABB: in = rp_test_frustum_aabb_exact(f, &o->u.aabb); break;
        case OBB: in = rp_test_frustum_obb_exact(f, &o->u.obb); break;
        default: in = rp_test_frustum_ellipsoid_exact(f, &o->u.ellipsoid); break;
        }
        if (in)
            out[k++] = i;
    }
    return k;
}

/* ---- the frustum query ------------------------------------------------------ */

typedef struct rect {
    const char *name;
    float x0, y0, x1, y1;
} rect;

static void bench_frustum(const rp_scene *s, const object *objs, int n, mat4 proj, mat4 view,
                          const rp_viewport *vp)
{
    const rect rects[] = {
        {"small marquee (5% of the width)", 620, 340, 684, 380},
        {"medium marquee (25%)", 480, 260, 800, 460},
        {"large marquee (60%)", 256, 144, 1024, 576},
        {"the whole viewport", 0, 0, 1280, 720},
        {"dragged past the edges", -300, 500, 200, 900},
    };
    int *got = malloc((size_t)n * sizeof *got), *want = malloc((size_t)n * sizeof *want);
    if (got == NULL || want == NULL) {
        printf("  out of memory\n");
        exit(1);
    }
    printf("  %-34s %9s %12s %12s %14s %9s\n", "rectangle", "selected", "query ms", "(CPU)",
           "loop ms (CPU)", "speed-up");
    double worst = INFINITY;
    for (size_t r = 0; r < sizeof rects / sizeof rects[0]; r++) {
        const rect *rc = &rects[r];
        rp_frustum f;
        if (!rp_frustum_from_rect(rc->x0, rc->y0, rc->x1, rc->y1, vp, proj, view, RP_GL, &f)) {
            printf("  %s: no frustum\n", rc->name);
            targets_failed++;
            continue;
        }
        double qw[REPS], qc[REPS], lw[LOOP_REPS], lc[LOOP_REPS];
        size_t total = 0, expect = 0;
        for (int k = 0; k < REPS; k++) {
            double t0 = now_ms(), c0 = cpu_ms();
            total = rp_scene_query_frustum(s, &f, NULL, got, (size_t)n);
            qw[k] = now_ms() - t0;
            qc[k] = cpu_ms() - c0;
        }
        for (int k = 0; k < LOOP_REPS; k++) {
            double t0 = now_ms(), c0 = cpu_ms();
            expect = loop_frustum(objs, n, &f, want);
            lw[k] = now_ms() - t0;
            lc[k] = cpu_ms() - c0;
        }
        const bool same = total == expect && memcmp(got, want, total * sizeof *got) == 0;
        const clocks q = {bench_median(qw, REPS), bench_median(qc, REPS)};
        const clocks l = {bench_median(lw, LOOP_REPS), bench_median(lc, LOOP_REPS)};
        const double speedup = l.cpu / fmax(q.cpu, 1e-3);
        printf("  %-34s %9zu %12.2f %12.2f %7.1f (%5.1f) %8.0fx%s\n", rc->name, total, q.wall,
               q.cpu, l.wall, l.cpu, speedup, same ? "" : "  LISTS DIFFER");
        if (!same)
            targets_failed++;
        worst = fmin(worst, speedup);
    }
    target("frustum query vs loop, slowest rectangle (CPU)", worst, ">=", 20, worst >= 20);
    free(got);
    free(want);
}

/* ---- ray queries with layers ---------------------------------------------- */

typedef struct ray_figures {
    clocks us;
    int hits;
} ray_figures;

static ray_figures time_rays(const rp_scene *s, const rp_ray *rays, int n,
                             const rp_scene_query *q, bool fixed, int *picks)
{
    double w[REPS], c[REPS];
    int hits = 0;
    for (int r = 0; r < REPS; r++) {
        double t0 = now_ms(), c0 = cpu_ms();
        hits = 0;
        for (int i = 0; i < n; i++) {
            rp_hit h;
            picks[i] = fixed ? rp_intersect_ray_scene(s, &rays[i], &h, NULL)
                             : rp_scene_query_ray(s, &rays[i], q, &h, NULL, NULL);
            hits += picks[i] >= 0;
        }
        w[r] = (now_ms() - t0) * 1e3 / n;
        c[r] = (cpu_ms() - c0) * 1e3 / n;
    }
    ray_figures f = {{bench_median(w, REPS), bench_median(c, REPS)}, hits};
    return f;
}

static void bench_rays(rp_scene *s, int n, float e)
{
    rp_ray *rays = malloc(RAYS * sizeof *rays);
    int *a = malloc(RAYS * sizeof *a), *b = malloc(RAYS * sizeof *b);
    if (rays == NULL || a == NULL || b == NULL) {
        printf("  out of memory\n");
        exit(1);
    }
    /* picks from above, down onto the field (a mouse over an RTS map) */
    for (int i = 0; i < RAYS; i++) {
        rays[i] = (rp_ray){{uf(-e, e), 60.0f, uf(-e, e)}, {uf(-0.5, 0.5), -1.0f, uf(-0.5, 0.5)}};
    }
    const rp_scene_query zero = {0};
    const ray_figures fixed = time_rays(s, rays, RAYS, NULL, true, a);
    const ray_figures zq = time_rays(s, rays, RAYS, &zero, false, b);
    const bool same = memcmp(a, b, RAYS * sizeof *a) == 0;
    printf("  no mask set:    rp_intersect_ray_scene %.3f us/ray (CPU %.3f), zero query %.3f "
           "(CPU %.3f), same picks: %s\n",
           fixed.us.wall, fixed.us.cpu, zq.us.wall, zq.us.cpu, same ? "yes" : "NO");
    /* 16 layers, one per object at random */
    double t0 = now_ms();
    for (int i = 0; i < n; i++)
        rp_scene_set_mask(s, i, 1u << (i * 7 % LAYERS));
    rp_scene_build(s);
    const double mask_ms = now_ms() - t0;
    rp_scene_query one = {0};
    one.layers = 1u;
    rp_scene_query most = {0};
    most.layers = 0xFFFEu;   /* 15 of the 16 */
    const ray_figures all = time_rays(s, rays, RAYS, &zero, false, a);
    const ray_figures f1 = time_rays(s, rays, RAYS, &one, false, b);
    const ray_figures f15 = time_rays(s, rays, RAYS, &most, false, b);
    printf("  16 layers set (set_mask on every object + build: %.0f ms):\n", mask_ms);
    printf("    every layer      %.3f us/ray (CPU %.3f), %d of %d rays hit\n", all.us.wall,
           all.us.cpu, all.hits, RAYS);
    printf("    15 layers        %.3f us/ray (CPU %.3f), %d hit\n", f15.us.wall, f15.us.cpu,
           f15.hits);
    printf("    one layer        %.3f us/ray (CPU %.3f), %d hit\n", f1.us.wall, f1.us.cpu,
           f1.hits);
    target("zero query picks == rp_intersect_ray_scene's", same ? 0 : 1, "==", 0, same);
    target("one layer / no filter, per ray (CPU)", f1.us.cpu / fixed.us.cpu, "<=", 1.5,
           f1.us.cpu <= 1.5 * fixed.us.cpu);
    free(rays);
    free(a);
    free(b);
}

int main(int argc, char **argv)
{
    const int n = argc > 1 ? atoi(argv[1]) : 1000000;
    if (n < 1) {
        fprintf(stderr, "usage: bench_scene_query [objects]\n");
        return 2;
    }
    bench_print_machine();
    /* about 4 units per 100 square metres, whatever n */
    const float e = 0.5f * sqrtf((float)n * 25.0f);
    printf("%d objects (70%% spheres, 10%% each boxes, oriented boxes, ellipsoids) on a "
           "field %.0f m wide:\n", n, 2.0 * e);
    print_load();
    object *objs = malloc((size_t)n * sizeof *objs);
    rp_scene *s = rp_scene_create();
    if (objs == NULL || s == NULL) {
        printf("  out of memory\n");
        return 1;
    }
    for (int i = 0; i < n; i++) {
        random_object(&objs[i], e);
        if (add(s, &objs[i]) != i) {
            printf("  object %d refused\n", i);
            return 1;
        }
    }
    double t0 = now_ms();
    if (!rp_scene_build(s)) {
        printf("  rp_scene_build failed\n");
        return 1;
    }
    printf("  build %.0f ms\n", now_ms() - t0);
    /* a perspective camera above the field's centre, looking down at 50 degrees */
    mat4 proj, view;
    const rp_viewport vp = {0, 0, 1280, 720};
    glm_perspective(glm_rad(60.0f), 1280.0f / 720.0f, 1.0f, 2.0f * e, proj);
    glm_lookat((vec3){0, 0.6f * e, 0.5f * e}, (vec3){0, 0, 0}, (vec3){0, 1, 0}, view);
    printf(" frustum query (exact: RP_SELECT_MEETS) vs the loop over every object's "
           "rp_test_frustum_*_exact:\n");
    bench_frustum(s, objs, n, proj, view, &vp);
    printf(" ray queries:\n");
    bench_rays(s, n, e);
    rp_scene_destroy(s);
    free(objs);
    printf("%s\n", targets_failed ? "some targets NOT MET" : "all targets met");
    return 0;
}

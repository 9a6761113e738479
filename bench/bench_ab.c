/*
 * bench_ab.c: two builds of libraypick in one process, their picks timed
 * in alternating passes over the same rays (scripts/bench-ab builds the
 * older one). On a shared virtual machine whose speed swings by half from
 * one minute to the next, two benchmark runs a few seconds apart cannot
 * tell a 10 % change from the noise; passes that alternate, A then B then
 * B then A, meet the same moments, and the median of their ratios can.
 *
 *   bench_ab A.so B.so [WORKLOAD [PASSES]]
 *
 * WORKLOAD: spheres (1,000,000 random spheres, rp_intersect_ray_scene),
 * mixed (100,000 spheres, ellipsoids, boxes and oriented boxes), mixed-10k
 * (10,000 of them: a tree that fits in L2), knot (the 60k-triangle torus
 * knot, rp_intersect_ray_mesh), knot-1m (its 1M-triangle version),
 * spheres-refit and mixed-refit (every object of spheres or mixed moved,
 * then rp_scene_build: a refit, its CPU time alone; mixed-refit-30k on
 * 30,000 of them, where whether a second thread pays is the question),
 * spheres-build and mixed-build (a new scene of them built: rp_scene_build
 * alone, the adds before it not counted), or all (the default). PASSES: 21 unless given (odd: a median is a pass).
 * Prints the CPU, each workload's CPU time per ray (per refit) for A and
 * B and the median of B/A over the passes, for a refit or a build the
 * wall clock's too; the picks of A and B must agree (else the exit status is 1). Linux
 * only (dlopen).
 */
#define _GNU_SOURCE 1   /* dlopen's RTLD_LOCAL with -std=c11 */
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <raypick/raypick.h>
#include "knot.h"
#include "machine.h"
#include "stats.h"
#include "timer.h"

/* The functions a workload calls, from one build. */
typedef struct library {
    const char *path;
    rp_scene *(*scene_create)(void);
    void (*scene_destroy)(rp_scene *);
    int (*add_sphere)(rp_scene *, const rp_sphere *);
    int (*add_ellipsoid)(rp_scene *, const rp_ellipsoid *);
    int (*add_aabb)(rp_scene *, const rp_aabb *);
    int (*add_obb)(rp_scene *, const rp_obb *);
    bool (*set_sphere)(rp_scene *, int, const rp_sphere *);
    bool (*set_ellipsoid)(rp_scene *, int, const rp_ellipsoid *);
    bool (*set_aabb)(rp_scene *, int, const rp_aabb *);
    bool (*set_obb)(rp_scene *, int, const rp_obb *);
    bool (*scene_build)(rp_scene *);
    int (*ray_scene)(const rp_scene *, const rp_ray *, rp_hit *, rp_triangle_hit *);
    rp_mesh *(*mesh_create)(const float *, size_t, size_t, const uint32_t *, size_t);
    void (*mesh_destroy)(rp_mesh *);
    bool (*ray_mesh)(const rp_mesh *, const rp_ray *, rp_hit *, rp_triangle_hit *);
} library;

static void *symbol(void *h, const char *path, const char *name)
{
    void *f = dlsym(h, name);
    if (f == NULL) {
        fprintf(stderr, "bench_ab: %s has no %s\n", path, name);
        exit(2);
    }
    return f;
}

/* RTLD_LOCAL: each build keeps its own symbols, though both have the
   same names (and soname). */
static void load(const char *path, library *l)
{
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (h == NULL) {
        fprintf(stderr, "bench_ab: %s\n", dlerror());
        exit(2);
    }
    l->path = path;
    *(void **)&l->scene_create = symbol(h, path, "rp_scene_create");
    *(void **)&l->scene_destroy = symbol(h, path, "rp_scene_destroy");
    *(void **)&l->add_sphere = symbol(h, path, "rp_scene_add_sphere");
    *(void **)&l->add_ellipsoid = symbol(h, path, "rp_scene_add_ellipsoid");
    *(void **)&l->add_aabb = symbol(h, path, "rp_scene_add_aabb");
    *(void **)&l->add_obb = symbol(h, path, "rp_scene_add_obb");
    *(void **)&l->set_sphere = symbol(h, path, "rp_scene_set_sphere");
    *(void **)&l->set_ellipsoid = symbol(h, path, "rp_scene_set_ellipsoid");
    *(void **)&l->set_aabb = symbol(h, path, "rp_scene_set_aabb");
    *(void **)&l->set_obb = symbol(h, path, "rp_scene_set_obb");
    *(void **)&l->scene_build = symbol(h, path, "rp_scene_build");
    *(void **)&l->ray_scene = symbol(h, path, "rp_intersect_ray_scene");
    *(void **)&l->mesh_create = symbol(h, path, "rp_mesh_create");
    *(void **)&l->mesh_destroy = symbol(h, path, "rp_mesh_destroy");
    *(void **)&l->ray_mesh = symbol(h, path, "rp_intersect_ray_mesh");
}

/* xorshift64: the same objects and rays for both builds */
static uint64_t rng_state;
static double uniform(double lo, double hi)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return lo + (hi - lo) * (double)(rng_state >> 11) * (1.0 / 9007199254740992.0);
}

static void random_unit_quat(versor q)
{
    double n = 0.0, v[4];
    for (int a = 0; a < 4; a++) {
        v[a] = uniform(-1.0, 1.0);
        n += v[a] * v[a];
    }
    n = sqrt(n) + 1e-9;
    for (int a = 0; a < 4; a++)
        q[a] = (float)(v[a] / n);
}

/* One object of a workload's scene. */
typedef struct object {
    int kind;           /* 0 sphere, 1 ellipsoid, 2 box, 3 oriented box */
    union {
        rp_sphere sphere;
        rp_ellipsoid ellipsoid;
        rp_aabb aabb;
        rp_obb obb;
    } as;
} object;

/* n objects of radius 0.5 .. 2 in [-e, e]^3: spheres, or (mixed) a
   quarter each of spheres, ellipsoids, boxes and oriented boxes. */
static object *make_objects(int n, bool mixed, double e)
{
    object *o = malloc((size_t)n * sizeof *o);
    if (o == NULL) {
        fprintf(stderr, "bench_ab: out of memory\n");
        exit(2);
    }
    rng_state = 0x9E3779B97F4A7C15ull;
    for (int i = 0; i < n; i++) {
        const float c[3] = {(float)uniform(-e, e), (float)uniform(-e, e), (float)uniform(-e, e)};
        const float r = (float)uniform(0.5, 2.0);
        o[i].kind = mixed ? i % 4 : 0;
        switch (o[i].kind) {
        case 0:
            o[i].as.sphere = (rp_sphere){{c[0], c[1], c[2]}, r};
            break;
        case 1:
            o[i].as.ellipsoid =
                (rp_ellipsoid){{c[0], c[1], c[2]}, {r, 0.5f * r, 0.8f * r}, {0, 0, 0, 1}};
            random_unit_quat(o[i].as.ellipsoid.orientation);
            break;
        case 2:
            o[i].as.aabb = (rp_aabb){{c[0] - r, c[1] - r, c[2] - r},
                                     {c[0] + 0.7f * r, c[1] + r, c[2] + 0.4f * r}};
            break;
        default:
            o[i].as.obb =
                (rp_obb){{c[0], c[1], c[2]}, {0.5f * r, 0.7f * r, 0.9f * r}, {0, 0, 0, 1}};
            random_unit_quat(o[i].as.obb.orientation);
            break;
        }
    }
    return o;
}

/* Object i, o moved by d along x, set in s. */
static void move_object(const library *l, rp_scene *s, int i, const object *o, float d)
{
    object m = *o;
    switch (m.kind) {
    case 0:
        m.as.sphere.center[0] += d;
        l->set_sphere(s, i, &m.as.sphere);
        break;
    case 1:
        m.as.ellipsoid.center[0] += d;
        l->set_ellipsoid(s, i, &m.as.ellipsoid);
        break;
    case 2:
        m.as.aabb.min[0] += d;
        m.as.aabb.max[0] += d;
        l->set_aabb(s, i, &m.as.aabb);
        break;
    default:
        m.as.obb.center[0] += d;
        l->set_obb(s, i, &m.as.obb);
        break;
    }
}

/* A scene of the objects, not built yet. */
static rp_scene *add_objects(const library *l, const object *o, int n)
{
    rp_scene *s = l->scene_create();
    for (int i = 0; i < n; i++) {
        switch (o[i].kind) {
        case 0: l->add_sphere(s, &o[i].as.sphere); break;
        case 1: l->add_ellipsoid(s, &o[i].as.ellipsoid); break;
        case 2: l->add_aabb(s, &o[i].as.aabb); break;
        default: l->add_obb(s, &o[i].as.obb); break;
        }
    }
    return s;
}

static void build_scene(const library *l, rp_scene *s)
{
    if (!l->scene_build(s)) {
        fprintf(stderr, "bench_ab: %s: rp_scene_build failed\n", l->path);
        exit(2);
    }
}

static rp_scene *make_scene(const library *l, const object *o, int n)
{
    rp_scene *s = add_objects(l, o, n);
    build_scene(l, s);
    return s;
}

/* From points on a sphere of radius 2e towards points in [-e, e]^3. */
static void make_rays(rp_ray *rays, int n, double e, uint64_t seed)
{
    rng_state = seed;
    for (int i = 0; i < n; i++) {
        const double th = uniform(0.0, 6.283185307179586), z = uniform(-1.0, 1.0);
        const double rr = sqrt(1.0 - z * z);
        const double o[3] = {2.0 * e * rr * cos(th), 2.0 * e * rr * sin(th), 2.0 * e * z};
        for (int a = 0; a < 3; a++) {
            rays[i].origin[a] = (float)o[a];
            rays[i].dir[a] = (float)(uniform(-e, e) - o[a]);
        }
    }
}

/* One build's data for a workload. */
typedef struct side {
    const library *l;
    rp_scene *scene;
    rp_mesh *mesh;
    /* refit and build workloads: the scene's objects, and the passes so
       far; build: each pass makes the scene anew */
    const object *objects;
    int n, moves;
    bool build;
} side;

enum { RAYS = 20000, REFIT_RAYS = 1000 };

/* The picks of rays[0 .. n), summed (scene: the index, -1 for none;
   mesh: the triangle, -1 for none). */
static long picks(const side *s, const rp_ray *rays, int n)
{
    long sum = 0;
    for (int i = 0; i < n; i++) {
        rp_hit h;
        rp_triangle_hit t;
        if (s->scene != NULL)
            sum += s->l->ray_scene(s->scene, &rays[i], &h, NULL);
        else
            sum += s->l->ray_mesh(s->mesh, &rays[i], &h, &t) ? (long)t.triangle : -1;
    }
    return sum;
}

/* A refit pass: every object moved (0.5 along x, back again the next
   pass), then rp_scene_build: its CPU and wall time, and the picks of the
   first REFIT_RAYS rays after it (the check). A build pass the same, on
   a new scene of the objects. */
static long refit_pass(side *s, const rp_ray *rays, double *cpu_ms, double *wall_ms)
{
    if (s->build) {
        s->l->scene_destroy(s->scene);
        s->scene = add_objects(s->l, s->objects, s->n);
    } else {
        const float d = (s->moves++ & 1) ? 0.0f : 0.5f;
        for (int i = 0; i < s->n; i++)
            move_object(s->l, s->scene, i, &s->objects[i], d);
    }
    const double c0 = bench_process_cpu_seconds(), w0 = bench_now_seconds();
    build_scene(s->l, s->scene);
    *wall_ms = (bench_now_seconds() - w0) * 1e3;
    *cpu_ms = (bench_process_cpu_seconds() - c0) * 1e3;
    return picks(s, rays, REFIT_RAYS);
}

/* A pass over the rays: the sum of their picks, its CPU and wall time. */
static long pass(side *s, const rp_ray *rays, double *cpu_ms, double *wall_ms)
{
    if (s->objects != NULL)
        return refit_pass(s, rays, cpu_ms, wall_ms);
    const double c0 = bench_process_cpu_seconds(), w0 = bench_now_seconds();
    const long sum = picks(s, rays, RAYS);
    *wall_ms = (bench_now_seconds() - w0) * 1e3;
    *cpu_ms = (bench_process_cpu_seconds() - c0) * 1e3;
    return sum;
}

/* The passes, alternated A B B A A B ...; false when the picks differ. */
static bool compare(const char *name, side sides[2], const rp_ray *rays, int passes)
{
    double total[2] = {0.0, 0.0}, wall_total[2] = {0.0, 0.0}, ratio[255], wall_ratio[255];
    long sum[2] = {0, 0};
    pass(&sides[0], rays, &total[0], &wall_total[0]);   /* warm both: caches, pages */
    pass(&sides[1], rays, &total[1], &wall_total[1]);
    total[0] = total[1] = wall_total[0] = wall_total[1] = 0.0;
    for (int p = 0; p < passes; p++) {
        double t[2], wt[2];
        for (int k = 0; k < 2; k++) {
            const int w = (p & 1) ? 1 - k : k;
            sum[w] = pass(&sides[w], rays, &t[w], &wt[w]);
            total[w] += t[w];
            wall_total[w] += wt[w];
        }
        ratio[p] = t[1] / t[0];
        wall_ratio[p] = wt[1] / wt[0];
    }
    const double med = bench_median(ratio, passes);   /* sorts them */
    const double lo = ratio[0], hi = ratio[passes - 1];
    const bool one_build = sides[0].objects != NULL;   /* a pass is one rp_scene_build */
    const double per = one_build ? 1.0 : 1e3 / RAYS;   /* ms a build or refit, us a ray */
    const char *unit = sides[0].build ? "ms/build" : one_build ? "ms/refit" : "us/ray";
    printf("  %-15s A %.3f %s, B %.3f %s (CPU, means of %d passes); "
           "B/A median %.3f (passes %.3f .. %.3f); picks %s\n",
           name, total[0] * per / passes, unit, total[1] * per / passes, unit, passes, med, lo,
           hi, sum[0] == sum[1] ? "agree" : "DIFFER");
    if (one_build)  /* the wall clock: what a second thread is for */
        printf("  %-15s A %.3f %s, B %.3f %s (wall, means); B/A median %.3f\n", "",
               wall_total[0] / passes, unit, wall_total[1] / passes, unit,
               bench_median(wall_ratio, passes));
    return sum[0] == sum[1];
}

static bool run_scene(const char *name, const library lib[2], int n, bool mixed, double e,
                      bool refit, bool build, int passes)
{
    object *o = make_objects(n, mixed, e);
    side s[2];
    for (int k = 0; k < 2; k++)
        s[k] = (side){&lib[k], make_scene(&lib[k], o, n), NULL, refit || build ? o : NULL, n, 0,
                      build};
    static rp_ray rays[RAYS];
    make_rays(rays, RAYS, e, 12345u);
    const bool ok = compare(name, s, rays, passes);
    for (int k = 0; k < 2; k++)
        lib[k].scene_destroy(s[k].scene);
    free(o);
    return ok;
}

static bool run_knot(const char *name, const library lib[2], int segs, int sides, int passes)
{
    mesh m = make_knot(segs, sides, 0.3);
    side s[2];
    for (int k = 0; k < 2; k++) {
        s[k] = (side){&lib[k], NULL, lib[k].mesh_create(m.pos, m.nv, 0, m.idx, m.nt), NULL, 0, 0,
                      false};
        if (s[k].mesh == NULL) {
            fprintf(stderr, "bench_ab: %s: rp_mesh_create failed\n", lib[k].path);
            exit(2);
        }
    }
    static rp_ray rays[RAYS];
    make_rays(rays, RAYS, 3.5, 54321u);
    const bool ok = compare(name, s, rays, passes);
    for (int k = 0; k < 2; k++)
        lib[k].mesh_destroy(s[k].mesh);
    free(m.pos);
    free(m.idx);
    return ok;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: bench_ab A.so B.so [spheres|mixed|mixed-10k|knot|knot-1m|"
                        "spheres-refit|mixed-refit|mixed-refit-30k|spheres-build|mixed-build|"
                        "all [PASSES]]\n");
        return 2;
    }
    const char *which = argc > 3 ? argv[3] : "all";
    const int passes = argc > 4 ? atoi(argv[4]) : 21;
    if (passes < 1 || passes > 255) {
        fprintf(stderr, "bench_ab: PASSES must be 1 .. 255\n");
        return 2;
    }
    library lib[2];
    load(argv[1], &lib[0]);
    load(argv[2], &lib[1]);
    if (lib[0].ray_scene == lib[1].ray_scene) {
        fprintf(stderr, "bench_ab: %s and %s are the same library\n", argv[1], argv[2]);
        return 2;
    }
    bench_print_machine();
    printf("A = %s\nB = %s\n", argv[1], argv[2]);
    const bool all = strcmp(which, "all") == 0;
    bool ok = true, any = false;
    const struct {
        const char *name;
        int n;          /* objects; 0: the knot of segs x sides */
        bool mixed, refit, build;
        double e;
        int segs, sides;
    } work[] = {
        {"spheres", 1000000, false, false, false, 1000.0, 0, 0},
        {"mixed", 100000, true, false, false, 300.0, 0, 0},
        {"mixed-10k", 10000, true, false, false, 140.0, 0, 0},
        {"knot", 0, false, false, false, 0.0, 1000, 30},
        {"knot-1m", 0, false, false, false, 0.0, 5000, 100},
        {"spheres-refit", 1000000, false, true, false, 1000.0, 0, 0},
        {"mixed-refit", 100000, true, true, false, 300.0, 0, 0},
        {"mixed-refit-30k", 30000, true, true, false, 200.0, 0, 0},   /* as dense: 300 cbrt(0.3) */
        {"spheres-build", 1000000, false, false, true, 1000.0, 0, 0},
        {"mixed-build", 100000, true, false, true, 300.0, 0, 0},
    };
    for (size_t w = 0; w < sizeof work / sizeof work[0]; w++) {
        if (!all && strcmp(which, work[w].name) != 0)
            continue;
        any = true;
        ok &= work[w].n > 0 ? run_scene(work[w].name, lib, work[w].n, work[w].mixed, work[w].e,
                                        work[w].refit, work[w].build, passes)
                            : run_knot(work[w].name, lib, work[w].segs, work[w].sides, passes);
    }
    if (!any) {
        fprintf(stderr, "bench_ab: no workload %s\n", which);
        return 2;
    }
    return ok ? 0 : 1;
}

/*
 * bench_scene.c: picking among many objects with rp_scene, side by side
 * with the linear scan and (when it was found at build time) Embree 3.
 *
 *   1,000,000 random spheres: rp_scene build, refit after moving every
 *     sphere, per-ray pick; rp_intersect_ray_spheres (the SIMD scan);
 *     Embree (RTC_GEOMETRY_TYPE_SPHERE_POINT over the same array) build and
 *     rtcIntersect1 per ray, with the agreement of the picks.
 *   100,000 mixed objects (spheres, ellipsoids, boxes, oriented boxes, a
 *     few mesh instances): build, refit, per-ray pick, against a loop over
 *     every object's own function (and the same answers), and Embree over
 *     the same objects as user geometry (its BVH, each object tested by
 *     the same raypick function).
 *
 * Times are medians of a few runs, wall-clock and, beside them, CPU time
 * of the process (on a shared machine the wall clock also counts the time
 * other programs held the cores; the load average is printed, and the CPU
 * model and SIMD paths first). Embree
 * builds with its own threads (all cores; its CPU time is their sum);
 * rp_scene too, one per core up to 8. Targets are checked on both clocks:
 * build and per-ray time at most Embree's (the CPU time per ray in
 * passes alternated with Embree's, which meet the same moments of a
 * noisy machine; the builds of fresh scenes alternated likewise, as the
 * time the kernel takes to hand a process new pages moves with the
 * machine's state), a refit at most 5 % of a build.
 *
 *   bench_scene            # both scenes
 *   bench_scene 200000     # another sphere count
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

#ifdef RP_BENCH_HAVE_EMBREE
#include <embree3/rtcore.h>
#endif

#define SPHERE_RAYS 20000
#define SCAN_RAYS 40
#define MIXED_RAYS 20000
#define LOOP_RAYS 100
#define REPS 3
#define PASSES 7    /* interleaved passes of raypick's and Embree's picks */
#define BUILD_PASSES 5  /* interleaved builds of fresh scenes, raypick's and Embree's */

static uint64_t rng = 0x853c49e6748fea9bULL;

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

/* A wall-clock and a CPU time, in the same unit. */
typedef struct clocks {
    double wall, cpu;
} clocks;

#ifdef RP_BENCH_HAVE_EMBREE
/* CPU time per ray (us) of raypick's picks and Embree's over the same
   rays, measured in alternated passes. */
typedef struct side_by_side {
    double raypick, embree;
} side_by_side;

/* The targets against Embree: per ray (the wall clocks of the
   separate runs, and the CPU time of the interleaved passes, the steadier
   ratio on a shared machine) and build at most Embree's (interleaved
   builds, on both clocks). */
static void ratio_targets(clocks ray, clocks embree_ray, side_by_side passes, clocks build,
                          clocks embree_build)
{
    printf("  interleaved passes (raypick, Embree, raypick, ...): %.3f / %.3f us of CPU per "
           "ray = %.2f x\n", passes.raypick, passes.embree, passes.raypick / passes.embree);
    printf("  interleaved builds of fresh scenes (raypick, Embree, ...): %.1f / %.1f ms wall, "
           "%.1f / %.1f ms CPU\n", build.wall, embree_build.wall, build.cpu, embree_build.cpu);
    bench_target("per ray / Embree's (wall clock)", ray.wall / embree_ray.wall, "<=", 1,
                 ray.wall <= embree_ray.wall);
    bench_target("per ray / Embree's (CPU time, interleaved passes)",
                 passes.raypick / passes.embree, "<=", 1, passes.raypick <= passes.embree);
    bench_target("build / Embree's (wall clock, interleaved builds)",
                 build.wall / embree_build.wall, "<=", 1, build.wall <= embree_build.wall);
    bench_target("build / Embree's (CPU of all threads, interleaved)",
                 build.cpu / embree_build.cpu, "<=", 1, build.cpu <= embree_build.cpu);
}
#endif

/* A refit (every object moved, then rp_scene_build) at most 5 % of a
   build, on both clocks. */
static void refit_targets(double refit_ms, double build_ms, double refit_cpu_ms,
                          double build_cpu_ms)
{
    bench_target("refit / build (wall clock)", refit_ms / build_ms, "<=", 0.05,
                 refit_ms <= 0.05 * build_ms);
    bench_target("refit / build (CPU time)", refit_cpu_ms / build_cpu_ms, "<=", 0.05,
                 refit_cpu_ms <= 0.05 * build_cpu_ms);
}

/* Rays from anywhere around the cube [-e, e]^3 towards a point inside it. */
static void make_rays(rp_ray *rays, int n, float e)
{
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < 3; k++) {
            rays[i].origin[k] = uf(-1.3 * e, 1.3 * e);
            rays[i].dir[k] = uf(-e, e) - rays[i].origin[k];
        }
    }
}

/* Per-ray times in us (the medians of REPS passes over all rays) and the
   picks of the last pass. */
static clocks time_scene_rays(const rp_scene *s, const rp_ray *rays, int n, int *picks,
                              float *ts)
{
    double t[REPS], c[REPS];
    for (int r = 0; r < REPS; r++) {
        double t0 = now_ms(), c0 = cpu_ms();
        for (int i = 0; i < n; i++) {
            rp_hit h;
            picks[i] = rp_intersect_ray_scene(s, &rays[i], &h, NULL);
            ts[i] = picks[i] >= 0 ? h.t : INFINITY;
        }
        t[r] = (now_ms() - t0) * 1e3 / n;
        c[r] = (cpu_ms() - c0) * 1e3 / n;
    }
    clocks k = {bench_median(t, REPS), bench_median(c, REPS)};
    return k;
}

/* ---- Embree ---------------------------------------------------------- */

#ifdef RP_BENCH_HAVE_EMBREE
/* Medians of raypick's and Embree's builds (interleaved_builds). */
typedef struct build_pair {
    clocks raypick, embree;
} build_pair;

typedef struct embree_figures {
    double build_ms, build1_ms, ray_us;
    double build_cpu_ms, ray_cpu_us;
    int agree, disagree_near_tie, disagree;
    side_by_side passes;
    build_pair builds;
} embree_figures;

/* The spheres array is x, y, z, radius: Embree's RTC_FORMAT_FLOAT4 point
   layout, shared without a copy. */
static RTCScene embree_scene(RTCDevice dev, const rp_sphere *spheres, size_t n, double *ms,
                             double *cpu)
{
    double t0 = now_ms(), c0 = cpu_ms();
    RTCScene scene = rtcNewScene(dev);
    RTCGeometry g = rtcNewGeometry(dev, RTC_GEOMETRY_TYPE_SPHERE_POINT);
    rtcSetSharedGeometryBuffer(g, RTC_BUFFER_TYPE_VERTEX, 0, RTC_FORMAT_FLOAT4, spheres, 0,
                               sizeof(rp_sphere), n);
    rtcCommitGeometry(g);
    rtcAttachGeometry(scene, g);
    rtcReleaseGeometry(g);
    rtcCommitScene(scene);
    *ms = now_ms() - t0;
    *cpu = cpu_ms() - c0;
    return scene;
}

static int embree_pick(RTCScene scene, const rp_ray *r, float *t);

/* rp_scene's picks and Embree's over the same rays in PASSES alternated
   passes (raypick, Embree, raypick, ...), so that both meet the same
   moments of a shared machine: the median CPU time per ray of each. */
static side_by_side interleaved_passes(const rp_scene *s, RTCScene e, const rp_ray *rays, int n)
{
    double mine[PASSES], theirs[PASSES];
    for (int p = 0; p < PASSES; p++) {
        double c0 = cpu_ms();
        for (int i = 0; i < n; i++) {
            rp_hit h;
            (void)rp_intersect_ray_scene(s, &rays[i], &h, NULL);
        }
        mine[p] = (cpu_ms() - c0) * 1e3 / n;
        c0 = cpu_ms();
        for (int i = 0; i < n; i++) {
            float t = 0.0f;
            (void)embree_pick(e, &rays[i], &t);
        }
        theirs[p] = (cpu_ms() - c0) * 1e3 / n;
    }
    side_by_side r = {bench_median(mine, PASSES), bench_median(theirs, PASSES)};
    return r;
}

/* Build times of fresh scenes, raypick's and Embree's, in BUILD_PASSES
   alternated passes (raypick, Embree, raypick, ...): the medians of
   each. A build's time depends on the memory it gets (the kernel zeroes
   every page a process touches first, and how long that takes moves with
   the machine's state), which alternating gives both alike. */
static build_pair interleaved_builds(clocks (*mine)(void *), clocks (*theirs)(void *), void *arg)
{
    double mw[BUILD_PASSES], mc[BUILD_PASSES], tw[BUILD_PASSES], tc[BUILD_PASSES];
    for (int p = 0; p < BUILD_PASSES; p++) {
        const clocks m = mine(arg), t = theirs(arg);
        mw[p] = m.wall;
        mc[p] = m.cpu;
        tw[p] = t.wall;
        tc[p] = t.cpu;
    }
    build_pair r = {{bench_median(mw, BUILD_PASSES), bench_median(mc, BUILD_PASSES)},
                    {bench_median(tw, BUILD_PASSES), bench_median(tc, BUILD_PASSES)}};
    return r;
}

static int embree_pick(RTCScene scene, const rp_ray *r, float *t)
{
    struct RTCIntersectContext ctx;
    rtcInitIntersectContext(&ctx);
    struct RTCRayHit rh;
    memset(&rh, 0, sizeof rh);
    rh.ray.org_x = r->origin[0];
    rh.ray.org_y = r->origin[1];
    rh.ray.org_z = r->origin[2];
    rh.ray.dir_x = r->dir[0];
    rh.ray.dir_y = r->dir[1];
    rh.ray.dir_z = r->dir[2];
    rh.ray.tnear = 0.0f;
    rh.ray.tfar = INFINITY;
    rh.ray.mask = 0xFFFFFFFFu;
    rh.hit.geomID = RTC_INVALID_GEOMETRY_ID;
    rtcIntersect1(scene, &ctx, &rh);
    if (rh.hit.geomID == RTC_INVALID_GEOMETRY_ID)
        return -1;
    *t = rh.ray.tfar;
    return (int)rh.hit.primID;
}

/* A fresh scene of the spheres built, by raypick or by Embree, for
   interleaved_builds. */
typedef struct sphere_builds {
    const rp_sphere *spheres;
    size_t           n;
    RTCDevice        dev;
} sphere_builds;

static clocks raypick_sphere_build(void *arg)
{
    const sphere_builds *b = arg;
    rp_scene *s = rp_scene_create();
    for (size_t i = 0; i < b->n; i++)
        rp_scene_add_sphere(s, &b->spheres[i]);
    double t0 = now_ms(), c0 = cpu_ms();
    if (!rp_scene_build(s))
        printf("  rp_scene_build failed\n");
    clocks k = {now_ms() - t0, cpu_ms() - c0};
    rp_scene_destroy(s);
    return k;
}

static clocks embree_sphere_build(void *arg)
{
    const sphere_builds *b = arg;
    clocks k;
    rtcReleaseScene(embree_scene(b->dev, b->spheres, b->n, &k.wall, &k.cpu));
    return k;
}

static embree_figures embree_run(const rp_sphere *spheres, size_t n, const rp_scene *mine,
                                 const rp_ray *rays, int nrays, const int *picks, const float *ts)
{
    embree_figures f;
    memset(&f, 0, sizeof f);
    double b[REPS], bc[REPS];
    RTCDevice dev1 = rtcNewDevice("threads=1");
    for (int r = 0; r < REPS; r++) {
        RTCScene s = embree_scene(dev1, spheres, n, &b[r], &bc[r]);
        rtcReleaseScene(s);
    }
    f.build1_ms = bench_median(b, REPS);
    rtcReleaseDevice(dev1);

    RTCDevice dev = rtcNewDevice(NULL);
    RTCScene scene = NULL;
    for (int r = 0; r < REPS; r++) {
        if (scene != NULL)
            rtcReleaseScene(scene);
        scene = embree_scene(dev, spheres, n, &b[r], &bc[r]);
    }
    f.build_ms = bench_median(b, REPS);
    f.build_cpu_ms = bench_median(bc, REPS);
    sphere_builds sb = {spheres, n, dev};
    f.builds = interleaved_builds(raypick_sphere_build, embree_sphere_build, &sb);

    double t[REPS], c[REPS];
    for (int r = 0; r < REPS; r++) {
        double t0 = now_ms(), c0 = cpu_ms();
        for (int i = 0; i < nrays; i++) {
            float te = 0.0f;
            int e = embree_pick(scene, &rays[i], &te);
            if (r == REPS - 1) {
                if (e == picks[i])
                    f.agree++;
                else if (e >= 0 && picks[i] >= 0 &&
                         fabsf(te - ts[i]) <= 1e-4f * fmaxf(te, ts[i]))
                    f.disagree_near_tie++;      /* two spheres at the same t */
                else
                    f.disagree++;
            }
        }
        t[r] = (now_ms() - t0) * 1e3 / nrays;
        c[r] = (cpu_ms() - c0) * 1e3 / nrays;
    }
    f.ray_us = bench_median(t, REPS);
    f.ray_cpu_us = bench_median(c, REPS);
    f.passes = interleaved_passes(mine, scene, rays, nrays);
    rtcReleaseScene(scene);
    rtcReleaseDevice(dev);
    return f;
}
#endif

/* ---- 1,000,000 spheres ----------------------------------------------- */

static void bench_spheres(int n)
{
    float e = 1000.0f;
    printf("%d random spheres in [-%g, %g]^3, radius 0.5..2:\n", n, e, e);
    bench_print_load();
    rp_sphere *spheres = malloc((size_t)n * sizeof *spheres);
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < 3; k++)
            spheres[i].center[k] = uf(-e, e);
        spheres[i].radius = uf(0.5, 2.0);
    }

    double t0 = now_ms();
    rp_scene *s = rp_scene_create();
    for (int i = 0; i < n; i++)
        rp_scene_add_sphere(s, &spheres[i]);
    double add_ms = now_ms() - t0;
    double b[REPS], bc[REPS];
    for (int r = 0; r < REPS; r++) {
        /* the first build of a fresh scene each time */
        rp_scene *fresh = r == REPS - 1 ? s : rp_scene_create();
        if (fresh != s)
            for (int i = 0; i < n; i++)
                rp_scene_add_sphere(fresh, &spheres[i]);
        t0 = now_ms();
        double c0 = cpu_ms();
        if (!rp_scene_build(fresh))
            printf("  rp_scene_build failed\n");
        b[r] = now_ms() - t0;
        bc[r] = cpu_ms() - c0;
        if (fresh != s)
            rp_scene_destroy(fresh);
    }
    double build_ms = bench_median(b, REPS), build_cpu_ms = bench_median(bc, REPS);

    /* move every sphere a little (what a frame of moving objects does),
       then build: a refit */
    double set_ms = 0.0, rc[REPS];
    for (int r = 0; r < REPS; r++) {
        t0 = now_ms();
        for (int i = 0; i < n; i++) {
            rp_sphere m = spheres[i];
            m.center[0] += (r + 1) * 0.5f;
            m.center[1] -= (r + 1) * 0.25f;
            rp_scene_set_sphere(s, i, &m);
        }
        set_ms = now_ms() - t0;
        t0 = now_ms();
        double c0 = cpu_ms();
        rp_scene_build(s);
        b[r] = now_ms() - t0;
        rc[r] = cpu_ms() - c0;
    }
    double refit_ms = bench_median(b, REPS), refit_cpu_ms = bench_median(rc, REPS);
    /* back where they were, for the comparisons */
    for (int i = 0; i < n; i++)
        rp_scene_set_sphere(s, i, &spheres[i]);
    rp_scene_build(s);

    rp_ray *rays = malloc(SPHERE_RAYS * sizeof *rays);
    int *picks = malloc(SPHERE_RAYS * sizeof *picks);
    float *ts = malloc(SPHERE_RAYS * sizeof *ts);
    make_rays(rays, SPHERE_RAYS, e);
    clocks ray = time_scene_rays(s, rays, SPHERE_RAYS, picks, ts);
    int hits = 0;
    for (int i = 0; i < SPHERE_RAYS; i++)
        hits += picks[i] >= 0;

    /* the linear scan on the first rays, and its agreement */
    int scan_agree = 0;
    t0 = now_ms();
    for (int i = 0; i < SCAN_RAYS; i++)
        scan_agree += rp_intersect_ray_spheres(&rays[i], spheres, (size_t)n, NULL) == picks[i];
    double scan_us = (now_ms() - t0) * 1e3 / SCAN_RAYS;

    printf("  rp_scene: add %.1f ms, build %.1f ms (CPU %.1f), set every sphere %.1f ms + "
           "build (refit) %.1f ms (CPU %.1f), %.3f us/ray (CPU %.3f) (%d of %d rays hit)\n",
           add_ms, build_ms, build_cpu_ms, set_ms, refit_ms, refit_cpu_ms, ray.wall, ray.cpu, hits,
           SPHERE_RAYS);
    printf("  rp_intersect_ray_spheres scan: %.1f us/ray, same pick as rp_scene on %d of %d "
           "rays\n", scan_us, scan_agree, SCAN_RAYS);
    bench_target("scene pick == scan pick (rays that differ)", SCAN_RAYS - scan_agree, "==", 0,
                 scan_agree == SCAN_RAYS);
    refit_targets(refit_ms, build_ms, refit_cpu_ms, build_cpu_ms);

#ifdef RP_BENCH_HAVE_EMBREE
    embree_figures f = embree_run(spheres, (size_t)n, s, rays, SPHERE_RAYS, picks, ts);
    printf("  Embree 3: build %.1f ms (all threads; CPU %.1f), %.1f ms (one thread); "
           "rtcIntersect1 %.3f us/ray (CPU %.3f)\n", f.build_ms, f.build_cpu_ms, f.build1_ms,
           f.ray_us, f.ray_cpu_us);
    printf("  picks: %d agree, %d differ at equal t (within 1e-4), %d differ\n", f.agree,
           f.disagree_near_tie, f.disagree);
    ratio_targets(ray, (clocks){f.ray_us, f.ray_cpu_us}, f.passes, f.builds.raypick,
                  f.builds.embree);
    printf("  (build time / Embree's on one thread: %.2f)\n", build_ms / f.build1_ms);
    bench_target("picks that differ from Embree's", f.disagree, "==", 0, f.disagree == 0);
#else
    printf("  Embree 3 not found at build time: no comparison\n");
#endif
    bench_print_load();
    free(rays);
    free(picks);
    free(ts);
    rp_scene_destroy(s);
    free(spheres);
}

/* ---- 100,000 mixed objects ------------------------------------------- */

enum kind { SPHERE, ELLIPSOID, AABB, OBB, MESH };

typedef struct object {
    enum kind kind;
    union {
        rp_sphere sphere;
        rp_ellipsoid ellipsoid;
        rp_aabb aabb;
        rp_obb obb;
    } u;
    mat4 model;
} object;

/* A closed 20-triangle icosahedron of radius 1. */
static rp_mesh *icosahedron(void)
{
    const float a = 0.525731f, b = 0.850651f;
    const float v[12][3] = {{-a, 0, b}, {a, 0, b}, {-a, 0, -b}, {a, 0, -b},
                            {0, b, a},  {0, b, -a}, {0, -b, a}, {0, -b, -a},
                            {b, a, 0},  {-b, a, 0}, {b, -a, 0}, {-b, -a, 0}};
    const uint32_t idx[60] = {0, 4, 1, 0, 9, 4, 9, 5, 4, 4, 5, 8, 4, 8, 1,
                              8, 10, 1, 8, 3, 10, 5, 3, 8, 5, 2, 3, 2, 7, 3,
                              7, 10, 3, 7, 6, 10, 7, 11, 6, 11, 0, 6, 0, 1, 6,
                              6, 1, 10, 9, 0, 11, 9, 11, 2, 9, 2, 5, 7, 2, 11};
    return rp_mesh_create(&v[0][0], 12, 0, idx, 20);
}

static void random_mixed(object *o, int i, float e)
{
    vec3 c = {uf(-e, e), uf(-e, e), uf(-e, e)};
    float r = uf(0.5, 2.0);
    versor q;
    vec3 axis = {uf(-1, 1), uf(-1, 1), 1.5f};
    glm_vec3_normalize(axis);
    glm_quatv(q, uf(0, 6.28), axis);
    /* mostly spheres and boxes (asteroids), one mesh instance per 1000 */
    int k = i % 1000 == 0 ? MESH : i % 4;
    o->kind = (enum kind)k;
    switch (k) {
    case SPHERE:
        glm_vec3_copy(c, o->u.sphere.center);
        o->u.sphere.radius = r;
        break;
    case ELLIPSOID:
        glm_vec3_copy(c, o->u.ellipsoid.center);
        glm_vec3_copy((vec3){r, uf(0.5, 2), uf(0.5, 2)}, o->u.ellipsoid.radii);
        glm_vec4_copy(q, o->u.ellipsoid.orientation);
        break;
    case AABB:
        glm_vec3_subs(c, r, o->u.aabb.min);
        glm_vec3_adds(c, r, o->u.aabb.max);
        break;
    case OBB:
        glm_vec3_copy(c, o->u.obb.center);
        glm_vec3_copy((vec3){r, uf(0.5, 2), uf(0.5, 2)}, o->u.obb.half_extents);
        glm_vec4_copy(q, o->u.obb.orientation);
        break;
    default:
        glm_translate_make(o->model, c);
        glm_quat_rotate(o->model, q, o->model);
        glm_scale_uni(o->model, r);
        break;
    }
}

static int add_mixed(rp_scene *s, const rp_mesh *mesh, object *o)
{
    switch (o->kind) {
    case SPHERE: return rp_scene_add_sphere(s, &o->u.sphere);
    case ELLIPSOID: return rp_scene_add_ellipsoid(s, &o->u.ellipsoid);
    case AABB: return rp_scene_add_aabb(s, &o->u.aabb);
    case OBB: return rp_scene_add_obb(s, &o->u.obb);
    default: return rp_scene_add_mesh(s, mesh, o->model);
    }
}

static void move_mixed(rp_scene *s, int i, object *o, float d)
{
    object m = *o;
    switch (o->kind) {
    case SPHERE: m.u.sphere.center[0] += d; rp_scene_set_sphere(s, i, &m.u.sphere); break;
    case ELLIPSOID:
        m.u.ellipsoid.center[0] += d;
        rp_scene_set_ellipsoid(s, i, &m.u.ellipsoid);
        break;
    case AABB:
        m.u.aabb.min[0] += d;
        m.u.aabb.max[0] += d;
        rp_scene_set_aabb(s, i, &m.u.aabb);
        break;
    case OBB: m.u.obb.center[0] += d; rp_scene_set_obb(s, i, &m.u.obb); break;
    default: m.model[3][0] += d; rp_scene_set_mesh_model(s, i, m.model); break;
    }
}

static bool mixed_hit(const rp_ray *ray, const rp_mesh *mesh, const object *o, rp_hit *h);

static int loop_pick(const rp_ray *ray, const rp_mesh *mesh, object *objs, int n)
{
    int best = -1;
    float best_t = INFINITY;
    for (int i = 0; i < n; i++) {
        rp_hit h;
        if (mixed_hit(ray, mesh, &objs[i], &h) && h.t < best_t) {
            best = i;
            best_t = h.t;
        }
    }
    return best;
}

/* The object's own hit (the function rp_scene calls for it). */
static bool mixed_hit(const rp_ray *ray, const rp_mesh *mesh, const object *o, rp_hit *h)
{
    switch (o->kind) {
    case SPHERE: return rp_intersect_ray_sphere(ray, &o->u.sphere, h);
    case ELLIPSOID: return rp_intersect_ray_ellipsoid(ray, &o->u.ellipsoid, h);
    case AABB: return rp_intersect_ray_aabb(ray, &o->u.aabb, h);
    case OBB: return rp_intersect_ray_obb(ray, &o->u.obb, h);
    default: return rp_intersect_ray_mesh_instance(mesh, (vec4 *)o->model, ray, h, NULL);
    }
}

/* A fresh scene of the objects, built: its build's wall and CPU time. */
static rp_scene *mixed_scene(const rp_mesh *mesh, object *objs, int n, clocks *build)
{
    rp_scene *s = rp_scene_create();
    for (int i = 0; i < n; i++)
        if (add_mixed(s, mesh, &objs[i]) != i)
            printf("  object %d refused\n", i);
    double t0 = now_ms(), c0 = cpu_ms();
    rp_scene_build(s);
    build->wall = now_ms() - t0;
    build->cpu = cpu_ms() - c0;
    return s;
}

#ifdef RP_BENCH_HAVE_EMBREE
/* Embree over the same objects as user geometry: its BVH over each
   object's box, and for each box a ray enters, the object's own raypick
   function (mixed_hit), as rp_scene calls it. */
typedef struct mixed_user {
    const object  *objs;
    const rp_mesh *mesh;
} mixed_user;

/* A box around the object (tight: rotated extents, Arvo for the mesh). */
static void mixed_box(const mixed_user *u, const object *o, float lo[3], float hi[3])
{
    vec3 c = {0, 0, 0}, ext = {0, 0, 0};
    mat3 rot;
    switch (o->kind) {
    case SPHERE:
        glm_vec3_copy((float *)o->u.sphere.center, c);
        glm_vec3_broadcast(o->u.sphere.radius, ext);
        break;
    case ELLIPSOID:
        glm_vec3_copy((float *)o->u.ellipsoid.center, c);
        glm_quat_mat3((float *)o->u.ellipsoid.orientation, rot);
        for (int i = 0; i < 3; i++) {
            float e2 = 0.0f;
            for (int j = 0; j < 3; j++)
                e2 += rot[j][i] * o->u.ellipsoid.radii[j] * rot[j][i] * o->u.ellipsoid.radii[j];
            ext[i] = sqrtf(e2);
        }
        break;
    case AABB:
        for (int i = 0; i < 3; i++) {
            c[i] = 0.5f * (o->u.aabb.min[i] + o->u.aabb.max[i]);
            ext[i] = 0.5f * (o->u.aabb.max[i] - o->u.aabb.min[i]);
        }
        break;
    case OBB:
        glm_vec3_copy((float *)o->u.obb.center, c);
        glm_quat_mat3((float *)o->u.obb.orientation, rot);
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++)
                ext[i] += fabsf(rot[j][i]) * o->u.obb.half_extents[j];
        break;
    default: {
        rp_aabb local;
        rp_mesh_bounds(u->mesh, &local);
        for (int i = 0; i < 3; i++) {
            float a = o->model[3][i], b = o->model[3][i];
            for (int j = 0; j < 3; j++) {
                float x = o->model[j][i] * local.min[j], y = o->model[j][i] * local.max[j];
                a += fminf(x, y);
                b += fmaxf(x, y);
            }
            c[i] = 0.5f * (a + b);
            ext[i] = 0.5f * (b - a);
        }
        break;
    }
    }
    /* a relative margin for the float arithmetic above */
    for (int i = 0; i < 3; i++) {
        float pad = 1e-5f * (fabsf(c[i]) + ext[i]);
        lo[i] = c[i] - ext[i] - pad;
        hi[i] = c[i] + ext[i] + pad;
    }
}

static void mixed_bounds(const struct RTCBoundsFunctionArguments *args)
{
    const mixed_user *u = args->geometryUserPtr;
    float lo[3], hi[3];
    mixed_box(u, &u->objs[args->primID], lo, hi);
    args->bounds_o->lower_x = lo[0];
    args->bounds_o->lower_y = lo[1];
    args->bounds_o->lower_z = lo[2];
    args->bounds_o->upper_x = hi[0];
    args->bounds_o->upper_y = hi[1];
    args->bounds_o->upper_z = hi[2];
}

/* rtcIntersect1 only: one ray, laid out as struct RTCRayHit. */
static void mixed_intersect(const struct RTCIntersectFunctionNArguments *args)
{
    if (args->N != 1 || !args->valid[0])
        return;
    const mixed_user *u = args->geometryUserPtr;
    struct RTCRayHit *rh = (struct RTCRayHit *)args->rayhit;
    const rp_ray ray = {{rh->ray.org_x, rh->ray.org_y, rh->ray.org_z},
                        {rh->ray.dir_x, rh->ray.dir_y, rh->ray.dir_z}};
    rp_hit h;
    if (!mixed_hit(&ray, u->mesh, &u->objs[args->primID], &h) || h.t < rh->ray.tnear ||
        h.t > rh->ray.tfar)
        return;
    /* equal t: the lower index, as rp_scene */
    if (h.t == rh->ray.tfar && rh->hit.geomID != RTC_INVALID_GEOMETRY_ID &&
        args->primID > rh->hit.primID)
        return;
    rh->ray.tfar = h.t;
    rh->hit.geomID = args->geomID;
    rh->hit.primID = args->primID;
}

static RTCScene mixed_embree_scene(RTCDevice dev, mixed_user *u, int n, clocks *build)
{
    double t0 = now_ms(), c0 = cpu_ms();
    RTCScene scene = rtcNewScene(dev);
    RTCGeometry g = rtcNewGeometry(dev, RTC_GEOMETRY_TYPE_USER);
    rtcSetGeometryUserPrimitiveCount(g, (unsigned)n);
    rtcSetGeometryUserData(g, u);
    rtcSetGeometryBoundsFunction(g, mixed_bounds, NULL);
    rtcSetGeometryIntersectFunction(g, mixed_intersect);
    rtcCommitGeometry(g);
    rtcAttachGeometry(scene, g);
    rtcReleaseGeometry(g);
    rtcCommitScene(scene);
    build->wall = now_ms() - t0;
    build->cpu = cpu_ms() - c0;
    return scene;
}

/* Embree's build (median of REPS) and per-ray time; *agree counts the
   rays whose pick is rp_scene's, *differ those whose pick differs other
   than at an equal t (within 1e-4). */
/* A fresh scene of the objects built, by raypick or by Embree, for
   interleaved_builds. */
typedef struct mixed_builds {
    mixed_user *u;
    object     *objs;
    int         n;
    RTCDevice   dev;
} mixed_builds;

static clocks raypick_mixed_build(void *arg)
{
    const mixed_builds *b = arg;
    clocks k;
    rp_scene_destroy(mixed_scene(b->u->mesh, b->objs, b->n, &k));
    return k;
}

static clocks embree_mixed_build(void *arg)
{
    const mixed_builds *b = arg;
    clocks k;
    rtcReleaseScene(mixed_embree_scene(b->dev, b->u, b->n, &k));
    return k;
}

static void mixed_embree(object *objs, const rp_mesh *mesh, int n, const rp_scene *mine,
                         const rp_ray *rays, const int *picks, const float *ts, clocks *build,
                         clocks *ray, side_by_side *passes, build_pair *builds, int *agree,
                         int *differ)
{
    mixed_user u = {objs, mesh};
    RTCDevice dev = rtcNewDevice(NULL);
    RTCScene scene = NULL;
    double b[REPS], bc[REPS], t[REPS], c[REPS];
    for (int r = 0; r < REPS; r++) {
        if (scene != NULL)
            rtcReleaseScene(scene);
        clocks k;
        scene = mixed_embree_scene(dev, &u, n, &k);
        b[r] = k.wall;
        bc[r] = k.cpu;
    }
    build->wall = bench_median(b, REPS);
    build->cpu = bench_median(bc, REPS);
    mixed_builds mb = {&u, objs, n, dev};
    *builds = interleaved_builds(raypick_mixed_build, embree_mixed_build, &mb);
    *agree = *differ = 0;
    for (int r = 0; r < REPS; r++) {
        double t0 = now_ms(), c0 = cpu_ms();
        for (int i = 0; i < MIXED_RAYS; i++) {
            float te = 0.0f;
            int e = embree_pick(scene, &rays[i], &te);
            if (r < REPS - 1)
                continue;
            *agree += e == picks[i];
            *differ += e != picks[i] && !(e >= 0 && picks[i] >= 0 &&
                                          fabsf(te - ts[i]) <= 1e-4f * fmaxf(te, ts[i]));
        }
        t[r] = (now_ms() - t0) * 1e3 / MIXED_RAYS;
        c[r] = (cpu_ms() - c0) * 1e3 / MIXED_RAYS;
    }
    ray->wall = bench_median(t, REPS);
    ray->cpu = bench_median(c, REPS);
    *passes = interleaved_passes(mine, scene, rays, MIXED_RAYS);
    rtcReleaseScene(scene);
    rtcReleaseDevice(dev);
}
#endif

static void bench_mixed(int n)
{
    float e = 300.0f;
    printf("%d mixed objects (spheres, ellipsoids, boxes, oriented boxes, 1 in 1000 an "
           "icosahedron instance) in [-%g, %g]^3:\n", n, e, e);
    bench_print_load();
    rp_mesh *mesh = icosahedron();
    object *objs = malloc((size_t)n * sizeof *objs);
    for (int i = 0; i < n; i++)
        random_mixed(&objs[i], i, e);
    double b[REPS], bc[REPS];
    rp_scene *s = NULL;
    for (int r = 0; r < REPS; r++) {
        /* the first build of a fresh scene each time */
        if (s != NULL)
            rp_scene_destroy(s);
        clocks k;
        s = mixed_scene(mesh, objs, n, &k);
        b[r] = k.wall;
        bc[r] = k.cpu;
    }
    double build_ms = bench_median(b, REPS), build_cpu_ms = bench_median(bc, REPS);
    double rc[REPS];
    for (int r = 0; r < REPS; r++) {
        for (int i = 0; i < n; i++)
            move_mixed(s, i, &objs[i], (r + 1) * 0.5f);
        double t0 = now_ms(), c0 = cpu_ms();
        rp_scene_build(s);
        b[r] = now_ms() - t0;
        rc[r] = cpu_ms() - c0;
    }
    double refit_ms = bench_median(b, REPS), refit_cpu_ms = bench_median(rc, REPS);
    for (int i = 0; i < n; i++)
        move_mixed(s, i, &objs[i], 0.0f);
    rp_scene_build(s);

    rp_ray *rays = malloc(MIXED_RAYS * sizeof *rays);
    int *picks = malloc(MIXED_RAYS * sizeof *picks);
    float *ts = malloc(MIXED_RAYS * sizeof *ts);
    make_rays(rays, MIXED_RAYS, e);
    clocks ray = time_scene_rays(s, rays, MIXED_RAYS, picks, ts);
    int hits = 0, agree = 0;
    for (int i = 0; i < MIXED_RAYS; i++)
        hits += picks[i] >= 0;
    double t0 = now_ms();
    for (int i = 0; i < LOOP_RAYS; i++)
        agree += loop_pick(&rays[i], mesh, objs, n) == picks[i];
    double loop_us = (now_ms() - t0) * 1e3 / LOOP_RAYS;
    printf("  rp_scene: build %.1f ms (CPU %.1f), refit after moving every object %.1f ms "
           "(CPU %.1f), %.3f us/ray (CPU %.3f) (%d of %d rays hit)\n", build_ms, build_cpu_ms,
           refit_ms, refit_cpu_ms, ray.wall, ray.cpu, hits, MIXED_RAYS);
    printf("  loop over every object's own function: %.1f us/ray; same pick on %d of %d rays\n",
           loop_us, agree, LOOP_RAYS);
    bench_target("scene pick == loop pick (rays that differ)", LOOP_RAYS - agree, "==", 0,
                 agree == LOOP_RAYS);
    refit_targets(refit_ms, build_ms, refit_cpu_ms, build_cpu_ms);
#ifdef RP_BENCH_HAVE_EMBREE
    clocks eb, er;
    side_by_side passes;
    build_pair builds;
    int eagree = 0, edifferent = 0;
    mixed_embree(objs, mesh, n, s, rays, picks, ts, &eb, &er, &passes, &builds, &eagree,
                 &edifferent);
    printf("  Embree 3 (user geometry, the same object functions): build %.1f ms (all threads; "
           "CPU %.1f), rtcIntersect1 %.3f us/ray (CPU %.3f); same pick as rp_scene on %d of %d "
           "rays\n", eb.wall, eb.cpu, er.wall, er.cpu, eagree, MIXED_RAYS);
    ratio_targets(ray, er, passes, builds.raypick, builds.embree);
    bench_target("picks that differ from Embree's (not at equal t)", edifferent, "==", 0,
                 edifferent == 0);
#endif
    free(rays);
    free(picks);
    free(ts);
    rp_scene_destroy(s);
    free(objs);
    rp_mesh_destroy(mesh);
}

int main(int argc, char **argv)
{
    int spheres = argc > 1 ? atoi(argv[1]) : 1000000;
    int mixed = argc > 2 ? atoi(argv[2]) : 100000;
    if (spheres < 1 || mixed < 1) {
        fprintf(stderr, "usage: bench_scene [spheres [mixed objects]]\n");
        return 2;
    }
    bench_print_machine();
    bench_spheres(spheres);
    bench_mixed(mixed);
    printf("%s\n", bench_targets_failed ? "some targets NOT MET" : "all targets met");
    return 0;
}

/*
 * bench_mesh.c: ray vs triangle mesh: raypick's BVH beside a brute-force
 * loop (raylib's GetRayCollisionMesh: Moller-Trumbore over every triangle)
 * and Embree 3 (when the build found it), on the same meshes and rays.
 *
 * Meshes: a closed torus knot tube, about 60,000 and 1,000,000 triangles.
 * Rays: camera rays from outside the mesh's bounding sphere (2.5 radii
 * out) aimed at random points of its bounding box.
 * Prints per mesh: build time (medians of 3; raypick: rp_mesh_create,
 * default threads; Embree: rtcCommitScene with its default threads, and
 * with one for a like-for-like figure), per-ray closest-hit
 * time (median of 3 passes; with Embree, also 3 raypick passes each run
 * right before an Embree pass, and 5 builds of fresh meshes of each,
 * alternated), agreement, bytes per triangle; the crack
 * count (rays aimed at vertices and edge midpoints of the closed tube,
 * entering it: any miss or hit behind the aimed point is a crack) for
 * raypick, Moller-Trumbore with epsilon, and Embree; and the targets on
 * the 1M mesh as MET / NOT MET lines (build, wall and CPU, and per ray at
 * most Embree's: the alternated builds and passes, which meet the same
 * moments of a shared machine). Also the CPU model and the SIMD
 * paths first, and the load average beside the figures: the machine may
 * be shared.
 *
 *   bench_mesh              # both meshes
 *   bench_mesh 1000000      # only that size (triangles, rounded)
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
#include "knot.h"
#include "../tests/random_scene.h"   /* the generator */
#include "../src/lib/mesh_internal.h"

#ifdef RP_BENCH_HAVE_EMBREE
#include <embree3/rtcore.h>
#endif

#define CAMERA_RAYS 20000
#define BUILD_PASSES 5   /* interleaved builds of fresh meshes, raypick's and Embree's */
#define CRACK_RAYS 20000

static rs_rng rng = {0x9e3779b97f4a7c15ULL};

static double uniform(double lo, double hi) { return rs_uniform(&rng, lo, hi); }

static double now_ns(void) { return bench_now_seconds() * 1e9; }

/* CPU time of this thread: on a loaded machine, what the single-threaded
   parts really cost (wall time includes waiting for a core) */
static double cpu_ns(void) { return bench_thread_cpu_seconds() * 1e9; }
/* every thread's: the builds (ours and Embree's) run on several */
static double process_cpu_ns(void) { return bench_process_cpu_seconds() * 1e9; }

static double median3(double a, double b, double c)
{
    double v[3] = {a, b, c};
    return bench_median(v, 3);
}

/* ---- the mesh: a (2, 3) torus knot tube (knot.h) ----------------------- */

static const float *vtx(const mesh *m, size_t t, int k)
{
    return m->pos + 3 * (size_t)m->idx[3 * t + (size_t)k];
}

/* ---- rays ---------------------------------------------------------------- */

static void camera_rays(const rp_aabb *b, rp_ray *rays, int n)
{
    double c[3], r = 0;
    for (int k = 0; k < 3; k++) {
        c[k] = 0.5 * ((double)b->min[k] + b->max[k]);
        r += 0.25 * ((double)b->max[k] - b->min[k]) * ((double)b->max[k] - b->min[k]);
    }
    r = sqrt(r);
    for (int i = 0; i < n; i++) {
        double d[3];
        do {
            for (int k = 0; k < 3; k++)
                d[k] = uniform(-1, 1);
        } while (d[0] * d[0] + d[1] * d[1] + d[2] * d[2] > 1 ||
                 d[0] * d[0] + d[1] * d[1] + d[2] * d[2] < 0.01);
        normalize(d);
        for (int k = 0; k < 3; k++) {
            rays[i].origin[k] = (float)(c[k] + 2.5 * r * d[k]);
            rays[i].dir[k] = (float)uniform(b->min[k], b->max[k]) - rays[i].origin[k];
        }
    }
}

/* ---- brute force: Moller-Trumbore with epsilon, as raylib does ------------- */

#define MT_EPSILON 0.000001f

static bool mt_triangle(const rp_ray *r, const float *v0, const float *v1, const float *v2,
                        float *t_out)
{
    vec3 e1, e2, p, tv, q;
    glm_vec3_sub((float *)v1, (float *)v0, e1);
    glm_vec3_sub((float *)v2, (float *)v0, e2);
    glm_vec3_cross((float *)r->dir, e2, p);
    float det = glm_vec3_dot(e1, p);
    if (det > -MT_EPSILON && det < MT_EPSILON)
        return false;
    float inv = 1.0f / det;
    glm_vec3_sub((float *)r->origin, (float *)v0, tv);
    float u = glm_vec3_dot(tv, p) * inv;
    if (u < 0.0f || u > 1.0f)
        return false;
    glm_vec3_cross(tv, e1, q);
    float v = glm_vec3_dot((float *)r->dir, q) * inv;
    if (v < 0.0f || u + v > 1.0f)
        return false;
    float t = glm_vec3_dot(e2, q) * inv;
    if (t <= MT_EPSILON)
        return false;
    *t_out = t;
    return true;
}

static bool mt_nearest(const mesh *m, const rp_ray *r, float *t_out, uint32_t *tri)
{
    bool found = false;
    for (size_t t = 0; t < m->nt; t++) {
        float tt;
        if (mt_triangle(r, vtx(m, t, 0), vtx(m, t, 1), vtx(m, t, 2), &tt) &&
            (!found || tt < *t_out)) {
            found = true;
            *t_out = tt;
            *tri = (uint32_t)t;
        }
    }
    return found;
}

static bool close_t(float a, float b)
{
    return fabsf(a - b) <= 1e-4f * fmaxf(fabsf(a), fabsf(b)) + 1e-6f;
}

/* ---- Embree ---------------------------------------------------------------- */

#ifdef RP_BENCH_HAVE_EMBREE
typedef struct embree {
    RTCDevice dev;
    RTCScene  scene;
    double    commit_ms, commit_cpu_ms;   /* wall; CPU of all its threads */
} embree;


/* config: rtcNewDevice's ("threads=1": one build thread; NULL: defaults) */
static bool embree_build(const mesh *m, const char *config, embree *e)
{
    e->dev = rtcNewDevice(config);
    if (!e->dev)
        return false;
    e->scene = rtcNewScene(e->dev);
    RTCGeometry g = rtcNewGeometry(e->dev, RTC_GEOMETRY_TYPE_TRIANGLE);
    float *vb = rtcSetNewGeometryBuffer(g, RTC_BUFFER_TYPE_VERTEX, 0, RTC_FORMAT_FLOAT3,
                                        3 * sizeof(float), m->nv);
    unsigned *ib = rtcSetNewGeometryBuffer(g, RTC_BUFFER_TYPE_INDEX, 0, RTC_FORMAT_UINT3,
                                           3 * sizeof(unsigned), m->nt);
    if (!vb || !ib)
        return false;
    memcpy(vb, m->pos, m->nv * 3 * sizeof(float));
    memcpy(ib, m->idx, m->nt * 3 * sizeof(unsigned));
    rtcCommitGeometry(g);
    rtcAttachGeometry(e->scene, g);
    rtcReleaseGeometry(g);
    double t0 = now_ns(), c0 = process_cpu_ns();
    rtcCommitScene(e->scene);
    e->commit_ms = (now_ns() - t0) / 1e6;
    e->commit_cpu_ms = (process_cpu_ns() - c0) / 1e6;
    return true;
}

static bool embree_nearest(const embree *e, const rp_ray *r, float *t, uint32_t *tri)
{
    struct RTCIntersectContext ctx;
    rtcInitIntersectContext(&ctx);
    struct RTCRayHit rh;
    rh.ray.org_x = r->origin[0];
    rh.ray.org_y = r->origin[1];
    rh.ray.org_z = r->origin[2];
    rh.ray.dir_x = r->dir[0];
    rh.ray.dir_y = r->dir[1];
    rh.ray.dir_z = r->dir[2];
    rh.ray.tnear = 0.0f;
    rh.ray.tfar = INFINITY;
    rh.ray.time = 0.0f;
    rh.ray.mask = 0xFFFFFFFFu;
    rh.ray.id = 0;
    rh.ray.flags = 0;
    rh.hit.geomID = RTC_INVALID_GEOMETRY_ID;
    rh.hit.instID[0] = RTC_INVALID_GEOMETRY_ID;
    rtcIntersect1(e->scene, &ctx, &rh);
    if (rh.hit.geomID == RTC_INVALID_GEOMETRY_ID)
        return false;
    *t = rh.ray.tfar;
    *tri = rh.hit.primID;
    return true;
}

static void embree_free(embree *e)
{
    rtcReleaseScene(e->scene);
    rtcReleaseDevice(e->dev);
}

/* Builds of fresh meshes, raypick's (rp_mesh_create: the check, the
   tree, the packets) and Embree's (rtcCommitScene), alternated
   BUILD_PASSES times: out[] = raypick's wall and CPU ms, Embree's wall
   and CPU ms, medians. A build's time moves with how fast the machine
   hands out fresh memory; alternating gives both the same moments (as
   bench_scene's builds). */
static void interleaved_builds(const mesh *m, double out[4])
{
    double v[4][BUILD_PASSES];
    for (int p = 0; p < BUILD_PASSES; p++) {
        const double t0 = now_ns(), c0 = process_cpu_ns();
        rp_mesh *fresh = rp_mesh_create(m->pos, m->nv, 0, m->idx, m->nt);
        v[0][p] = (now_ns() - t0) / 1e6;
        v[1][p] = (process_cpu_ns() - c0) / 1e6;
        if (!fresh) {
            fprintf(stderr, "bench_mesh: rp_mesh_create failed\n");
            exit(1);
        }
        rp_mesh_destroy(fresh);
        embree e = {0};
        if (!embree_build(m, NULL, &e)) {
            fprintf(stderr, "bench_mesh: Embree's build failed\n");
            exit(1);
        }
        v[2][p] = e.commit_ms;
        v[3][p] = e.commit_cpu_ms;
        embree_free(&e);
    }
    for (int k = 0; k < 4; k++)
        out[k] = bench_median(v[k], BUILD_PASSES);
}
#endif

/* ---- crack rays -------------------------------------------------------------- */

/* Rays aimed exactly at a vertex or an edge midpoint of a random triangle,
   entering the tube there: the direction is the inward tube normal (from
   the knot's centre line, known from the grid) tilted by up to ~35
   degrees, so every triangle around the point faces the ray. */
static void crack_rays(const mesh *m, rp_ray *rays, int n)
{
    for (int i = 0; i < n; i++) {
        size_t t = (size_t)uniform(0, (double)m->nt);
        if (t >= m->nt)
            t = m->nt - 1;
        int e = (int)uniform(0, 3) % 3;
        const float *a = vtx(m, t, e), *b = vtx(m, t, (e + 1) % 3);
        float p[3];
        bool midpoint = uniform(0, 1) < 0.5;
        for (int k = 0; k < 3; k++)
            p[k] = midpoint ? 0.5f * a[k] + 0.5f * b[k] : a[k];
        /* the centre of the tube's ring through vertex a: the mean of its
           ring's vertices */
        size_t ring = m->idx[3 * t + (size_t)e] / (size_t)m->sides;
        double c[3] = {0, 0, 0};
        for (int j = 0; j < m->sides; j++)
            for (int k = 0; k < 3; k++)
                c[k] += m->pos[3 * (ring * (size_t)m->sides + (size_t)j) + k] / m->sides;
        double d[3];
        for (int k = 0; k < 3; k++)
            d[k] = c[k] - p[k];
        normalize(d);
        for (int k = 0; k < 3; k++)
            d[k] += uniform(-0.4, 0.4);
        normalize(d);
        double back = 0.5;    /* from outside the tube, not through other strands */
        for (int k = 0; k < 3; k++) {
            rays[i].origin[k] = (float)(p[k] - back * d[k]);
            rays[i].dir[k] = p[k] - rays[i].origin[k];   /* t = 1 at the point */
        }
    }
}

/* ---- one mesh ------------------------------------------------------------------ */

static void run(int segs, int sides, bool check_targets)
{
    double t0 = now_ns();
    mesh m = make_knot(segs, sides, 0.3);
    printf("torus knot, %zu triangles, %zu vertices (generated in %.2f s)\n", m.nt, m.nv,
           (now_ns() - t0) / 1e9);
    bench_print_load();

    /* the build may use several threads: the CPU time of the whole
       process; the median of three builds */
    rp_mesh *rm = NULL;
    double bw[3], bc[3], c0;
    for (int r = 0; r < 3; r++) {
        rp_mesh_destroy(rm);
        t0 = now_ns();
        c0 = process_cpu_ns();
        rm = rp_mesh_create(m.pos, m.nv, 0, m.idx, m.nt);
        bw[r] = (now_ns() - t0) / 1e6;
        bc[r] = (process_cpu_ns() - c0) / 1e6;
        if (!rm) {
            fprintf(stderr, "bench_mesh: rp_mesh_create failed\n");
            exit(1);
        }
    }
    double build_ms = median3(bw[0], bw[1], bw[2]), build_cpu_ms = median3(bc[0], bc[1], bc[2]);
    double bytes = (double)rm->bvh.node_count * sizeof(rp_bvh4_node) +
                   (double)rm->bvh.pack_count * sizeof(rp_tri4);
    double bytes_per_tri = bytes / (double)m.nt;
    printf("  raypick build: %8.1f ms (default threads; %.1f ms of CPU in all); %u nodes, %.1f bytes per "
           "triangle (BVH %.1f + triangles %.1f)\n", build_ms, build_cpu_ms, rm->bvh.node_count,
           bytes_per_tri,
           rm->bvh.node_count * (double)sizeof(rp_bvh4_node) / m.nt,
           rm->bvh.pack_count * (double)sizeof(rp_tri4) / m.nt);

    rp_aabb box;
    rp_mesh_bounds(rm, &box);
    rp_ray *rays = malloc(CAMERA_RAYS * sizeof *rays);
    camera_rays(&box, rays, CAMERA_RAYS);
    float *rp_t = malloc(CAMERA_RAYS * sizeof *rp_t);
    uint32_t *rp_tri = malloc(CAMERA_RAYS * sizeof *rp_tri);
    double pass[3], cpu_pass[3];
    int hits = 0;
    for (int p = 0; p < 3; p++) {
        hits = 0;
        t0 = now_ns();
        c0 = cpu_ns();
        for (int i = 0; i < CAMERA_RAYS; i++) {
            rp_hit h;
            rp_triangle_hit th;
            if (rp_intersect_ray_mesh(rm, &rays[i], &h, &th)) {
                rp_t[i] = h.t;
                rp_tri[i] = th.triangle;
                hits++;
            } else {
                rp_t[i] = -1.0f;
            }
        }
        pass[p] = (now_ns() - t0) / CAMERA_RAYS;
        cpu_pass[p] = (cpu_ns() - c0) / CAMERA_RAYS;
    }
    double rp_ns = median3(pass[0], pass[1], pass[2]);
    double rp_cpu = median3(cpu_pass[0], cpu_pass[1], cpu_pass[2]);
    printf("  raypick closest hit: %8.3f us/ray (%.3f us of CPU) (%d rays, %d hits)\n",
           rp_ns / 1000, rp_cpu / 1000, CAMERA_RAYS, hits);

    /* brute force on a subset: as many rays as fit ~1 s */
    int brute_rays = (int)fmin(CAMERA_RAYS, fmax(10.0, 2e7 / (double)m.nt));
    int agree = 0;
    t0 = now_ns();
    for (int i = 0; i < brute_rays; i++) {
        float t;
        uint32_t tri;
        bool hit = mt_nearest(&m, &rays[i], &t, &tri);
        if (hit == (rp_t[i] >= 0.0f) && (!hit || close_t(t, rp_t[i])))
            agree++;
    }
    double brute_ns = (now_ns() - t0) / brute_rays;
    printf("  brute force (Moller-Trumbore over every triangle): %10.1f us/ray (%d rays); "
           "agrees with raypick on %d of %d\n", brute_ns / 1000, brute_rays, agree, brute_rays);

    double embree_one_cpu = 0;
    /* the targets' figures: interleaved passes and builds (below) */
    double il_rp_cpu = 0, il_em_cpu = 0, il_build[4] = {0, 0, 0, 0};
    bool have_embree = false;
#ifdef RP_BENCH_HAVE_EMBREE
    embree e = {0}, e1 = {0};
    double embree_cpu = 0, embree_commit = 0;
    double embree1_ms = 0, embree1_cpu_ms = 0;
    /* the median of three builds, as raypick's; the last one stays */
    double ew[3] = {0, 0, 0}, ec[3] = {0, 0, 0};
    for (int r = 0; r < 3; r++) {
        if (r > 0 && have_embree)
            embree_free(&e);
        have_embree = embree_build(&m, NULL, &e);
        if (!have_embree)
            break;
        ew[r] = e.commit_ms;
        ec[r] = e.commit_cpu_ms;
    }
    if (have_embree) {
        embree_commit = e.commit_ms = median3(ew[0], ew[1], ew[2]);
        e.commit_cpu_ms = median3(ec[0], ec[1], ec[2]);
        /* Embree with one build thread too, for a like-for-like build
           figure (the target below stays the issue's: default threads).
           Built while the first scene still lives, so it gets fresh
           memory as the first did, not the first one's freed pages. */
        if (embree_build(&m, "threads=1", &e1)) {
            embree1_ms = e1.commit_ms;
            embree1_cpu_ms = e1.commit_cpu_ms;
            embree_free(&e1);
        }
        embree_one_cpu = embree1_cpu_ms;
        int eagree = 0, ehits = 0;
        for (int p = 0; p < 3; p++) {
            t0 = now_ns();
            c0 = cpu_ns();
            ehits = 0;
            for (int i = 0; i < CAMERA_RAYS; i++) {
                float t;
                uint32_t tri;
                ehits += embree_nearest(&e, &rays[i], &t, &tri);
            }
            pass[p] = (now_ns() - t0) / CAMERA_RAYS;
            cpu_pass[p] = (cpu_ns() - c0) / CAMERA_RAYS;
        }
        double embree_ns = median3(pass[0], pass[1], pass[2]);
        embree_cpu = median3(cpu_pass[0], cpu_pass[1], cpu_pass[2]);
        /* Also each raypick pass right before an Embree pass: both then
           see the same load, and each starts with the other's data in the
           caches (as a pick once a frame does). Printed, not the target,
           which keeps the passes above. */
        double il_rp[3], il_em[3];
        for (int p = 0; p < 3; p++) {
            c0 = cpu_ns();
            for (int i = 0; i < CAMERA_RAYS; i++)
                rp_intersect_ray_mesh(rm, &rays[i], NULL, NULL);
            il_rp[p] = (cpu_ns() - c0) / CAMERA_RAYS;
            c0 = cpu_ns();
            for (int i = 0; i < CAMERA_RAYS; i++) {
                float t;
                uint32_t tri;
                embree_nearest(&e, &rays[i], &t, &tri);
            }
            il_em[p] = (cpu_ns() - c0) / CAMERA_RAYS;
        }
        il_rp_cpu = median3(il_rp[0], il_rp[1], il_rp[2]);
        il_em_cpu = median3(il_em[0], il_em[1], il_em[2]);
        printf("  interleaved passes (raypick, Embree, raypick, ...): %.3f / %.3f us of CPU per "
               "ray = %.2f x\n", il_rp_cpu / 1000, il_em_cpu / 1000, il_rp_cpu / il_em_cpu);
        interleaved_builds(&m, il_build);
        printf("  interleaved builds of fresh meshes (raypick, Embree, ...): %.1f / %.1f ms wall, "
               "%.1f / %.1f ms CPU\n", il_build[0], il_build[2], il_build[1], il_build[3]);
        for (int i = 0; i < CAMERA_RAYS; i++) {
            float t;
            uint32_t tri;
            bool hit = embree_nearest(&e, &rays[i], &t, &tri);
            if (hit == (rp_t[i] >= 0.0f) && (!hit || close_t(t, rp_t[i])))
                eagree++;
        }
        printf("  Embree 3 rtcCommitScene, one thread (threads=1): %8.1f ms (%.1f ms of CPU)\n",
               embree1_ms, embree1_cpu_ms);
        printf("  Embree 3 rtcCommitScene: %8.1f ms (default threads; %.1f ms of CPU in all)\n"
               "  Embree 3 rtcIntersect1: %8.3f us/ray (%.3f us of CPU) (%d hits); agrees with "
               "raypick on %d of %d\n", embree_commit, e.commit_cpu_ms, embree_ns / 1000, embree_cpu / 1000, ehits,
               eagree, CAMERA_RAYS);
    } else {
        printf("  Embree 3: device creation failed\n");
    }
#else
    printf("  Embree 3: not found at build time (libembree-dev): no comparison\n");
#endif

    /* cracks */
    rp_ray *crays = malloc(CRACK_RAYS * sizeof *crays);
    crack_rays(&m, crays, CRACK_RAYS);
    int rp_cracks = 0, mt_cracks = 0, em_cracks = 0;
    int mt_rays = (int)fmin(CRACK_RAYS, fmax(10.0, 1e7 / (double)m.nt));
    for (int i = 0; i < CRACK_RAYS; i++) {
        rp_hit h;
        if (!rp_intersect_ray_mesh(rm, &crays[i], &h, NULL) || h.t > 1.0f + 1e-4f)
            rp_cracks++;
#ifdef RP_BENCH_HAVE_EMBREE
        float t;
        uint32_t tri;
        if (have_embree && (!embree_nearest(&e, &crays[i], &t, &tri) || t > 1.0f + 1e-4f))
            em_cracks++;
#endif
    }
    for (int i = 0; i < mt_rays; i++) {
        float t;
        uint32_t tri;
        if (!mt_nearest(&m, &crays[i], &t, &tri) || t > 1.0f + 1e-4f)
            mt_cracks++;
    }
    printf("  cracks (rays at vertices and edge midpoints, entering the closed tube):\n"
           "    raypick %d of %d; Moller-Trumbore with epsilon %d of %d", rp_cracks, CRACK_RAYS,
           mt_cracks, mt_rays);
    if (have_embree)
        printf("; Embree %d of %d", em_cracks, CRACK_RAYS);
    printf("\n");

    if (check_targets) {
        printf("  targets on the %zu-triangle mesh:\n", m.nt);
        if (have_embree) {
            /* per-ray: CPU time of the same thread, both single-ray
               calls: the ratio does not depend on the load */
            bench_target("closest hit / Embree's, CPU time (interleaved passes)", il_rp_cpu / il_em_cpu,
                         "<=", 1, il_rp_cpu <= il_em_cpu);
            bench_target("build / Embree's, wall (interleaved builds)", il_build[0] / il_build[2],
                         "<=", 1, il_build[0] <= il_build[2]);
            bench_target("build / Embree's, CPU of all threads (interleaved)",
                         il_build[1] / il_build[3], "<=", 1, il_build[1] <= il_build[3]);
            if (embree_one_cpu > 0)
                printf("  (build CPU time beside Embree with one build thread: %.1f ms / %.1f ms = "
                       "%.2f x)\n", build_cpu_ms, embree_one_cpu, build_cpu_ms / embree_one_cpu);
        } else {
            printf("  target: (Embree ratios not measured: Embree not found)      NOT MET\n");
            bench_targets_failed++;
        }
        printf("  (refit: none to measure; an rp_mesh never changes once made)\n");
        bench_target("speed-up over the brute-force loop (x)", brute_ns / rp_ns, ">=", 1000,
                     brute_ns >= 1000 * rp_ns);
        bench_target("raypick cracks", rp_cracks, "==", 0, rp_cracks == 0);
        bench_target("bytes per triangle (BVH + triangles)", bytes_per_tri, "<=", 64, bytes_per_tri <= 64);
    }
#ifdef RP_BENCH_HAVE_EMBREE
    if (have_embree)
        embree_free(&e);
#endif
    free(crays);
    free(rays);
    free(rp_t);
    free(rp_tri);
    rp_mesh_destroy(rm);
    free(m.pos);
    free(m.idx);
}

int main(int argc, char **argv)
{
    /* ~60k: 1000 x 30 quads; ~1M: 5000 x 100 quads */
    long sizes[4] = {60000, 1000000};
    int n = 2;
    if (argc > 1) {
        n = 0;
        for (int i = 1; i < argc && n < 4; i++)
            sizes[n++] = atol(argv[i]);
    }
    bench_print_machine();
    for (int i = 0; i < n; i++) {
        int sides = sizes[i] >= 500000 ? 100 : 30;
        int segs = (int)(sizes[i] / (2 * sides));
        if (segs < 3) {
            fprintf(stderr, "bench_mesh: %ld triangles is too few\n", sizes[i]);
            return 1;
        }
        run(segs, sides, i == n - 1);
    }
    printf("%s\n", bench_targets_failed ? "some targets NOT MET" : "all targets met");
    return 0;
}

/*
 * bench_heightmap.c: terrain picking speed and quality.
 *
 * For procedural maps of 257^2, 1025^2 and 4097^2 samples (spacing 1,
 * relief a tenth of the width) and two kinds of rays:
 *   camera  - picking rays from a camera above the map looking down at
 *             20..60 degrees (what a mouse click gives);
 *   grazing - level rays across the whole map, just above the highest point
 *             of the terrain under their path (the worst case for a walk);
 *   low     - the same rays 0.25 lower: they clip the highest point under
 *             their path, wherever along the map it is, and the search's
 *             steps (13 cells apart on 4097^2) often step over it;
 * it prints the per-ray median time of the tutorial's search (300 steps,
 * accuracy 0.01), the exact walk without the pyramid and with it, how often
 * the search misses or lands away from the exact hit, and checks the
 * targets on the largest map. On the largest map it also times
 * rp_heightmap_create beside one memcpy of the heights into a fresh buffer
 * (the floor: creation must at least read the heights and write its copy).
 *
 *   bench_heightmap            # 257 1025 4097
 *   bench_heightmap 257 1025   # chosen sizes
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <raypick/raypick.h>
#include "stats.h"
#include "timer.h"
#include "machine.h"
#include "../tests/random_scene.h"   /* the generator */
#include "heightmap_internal.h"   /* raypick_internal_dep */

#define CAMERA_RAYS 2000
#define GRAZING_RAYS 200
#define SEARCH_STEPS 300
#define SEARCH_ACCURACY 0.01f

static rs_rng rng = {0x2545f4914f6cdd1dULL};

static double uniform(double lo, double hi) { return rs_uniform(&rng, lo, hi); }

static double now_ns(void)
{
    return bench_now_seconds() * 1e9;
}

/* ---- rays ----------------------------------------------------------- */

static void camera_rays(const rp_heightmap *hm, rp_ray *rays, int n)
{
    float extent = (rp_heightmap_cols(hm) - 1) * rp_heightmap_spacing(hm);
    float lo, hi;
    rp_heightmap_height_range(hm, &lo, &hi);
    for (int i = 0; i < n; i++) {
        double pitch = uniform(20, 60) * GLM_PI / 180, yaw = uniform(0, 2 * GLM_PI);
        rp_ray *r = &rays[i];
        r->origin[0] = (float)uniform(0.1, 0.9) * extent;
        r->origin[1] = hi + (float)uniform(0.01, 0.05) * extent;
        r->origin[2] = (float)uniform(0.1, 0.9) * extent;
        /* an unprojected pick ray: not unit length (near to far plane) */
        double len = uniform(500, 5000);
        r->dir[0] = (float)(len * cos(pitch) * cos(yaw));
        r->dir[1] = (float)(-len * sin(pitch));
        r->dir[2] = (float)(len * cos(pitch) * sin(yaw));
    }
}

/* Highest surface point under the segment (x0, z0)-(x1, z1), sampled every
   1/8 cell: the surface is linear between cell edges, so this is within a
   hair of the exact maximum. */
static float path_max(const rp_heightmap *hm, float x0, float z0, float x1, float z1)
{
    float len = hypotf(x1 - x0, z1 - z0);
    int n = (int)(len * 8) + 1;
    float best = -INFINITY;
    for (int i = 0; i <= n; i++) {
        float s = (float)i / n, y;
        if (rp_heightmap_height_at(hm, x0 + (x1 - x0) * s, z0 + (z1 - z0) * s, &y))
            best = fmaxf(best, y);
    }
    return best;
}

static void grazing_rays(const rp_heightmap *hm, rp_ray *rays, int n, float above)
{
    float extent = (rp_heightmap_cols(hm) - 1) * rp_heightmap_spacing(hm);
    for (int i = 0; i < n; i++) {
        /* from beyond the west edge to the east edge, any z to any z */
        float z0 = (float)uniform(0.05, 0.95) * extent, z1 = (float)uniform(0.05, 0.95) * extent;
        float y = path_max(hm, 0, z0, extent, z1) + above;
        rp_ray *r = &rays[i];
        r->origin[0] = -1.0f;
        r->origin[1] = y;
        r->origin[2] = z0 - (z1 - z0) / extent;
        r->dir[0] = extent + 1.0f;
        r->dir[1] = 0.0f;
        r->dir[2] = z1 - r->origin[2];
    }
}

/* ---- timing --------------------------------------------------------- */

enum method { SEARCH, WALK, EXACT };
static const char *method_name[] = {"tutorial search (300 steps)", "exact, plain walk",
                                    "exact, with pyramid"};

typedef struct result {
    bool  hit;
    vec3  point;
} result;

static bool run(enum method m, const rp_heightmap *hm, const rp_ray *ray, vec3 p)
{
    rp_hit hit;
    switch (m) {
    case SEARCH:
        return rp_heightmap_pick_search(hm, ray, SEARCH_STEPS, SEARCH_ACCURACY, p);
    case WALK:
        if (!rp_hm_intersect_walk(hm, ray, &hit))
            return false;
        break;
    default:
        if (!rp_intersect_ray_heightmap(hm, ray, &hit))
            return false;
        break;
    }
    glm_vec3_copy(hit.point, p);
    return true;
}

/* Median per-ray time in ns; each ray is repeated `reps` times. */
static double time_method(enum method m, const rp_heightmap *hm, const rp_ray *rays, int n,
                          int reps, result *out)
{
    double *t = malloc((size_t)n * sizeof *t);
    for (int i = 0; i < n; i++) {
        vec3 p = {0, 0, 0};
        bool hit = false;
        double t0 = now_ns();
        for (int k = 0; k < reps; k++)
            hit = run(m, hm, &rays[i], p);
        t[i] = (now_ns() - t0) / reps;
        out[i].hit = hit;
        glm_vec3_copy(p, out[i].point);
    }
    double med = bench_median(t, n);
    free(t);
    return med;
}

typedef struct figures {
    double ns[3];
    int hits[3];
    int search_misses, search_false_hits, search_far, walk_disagree;
    double search_err_median, search_err_max;
} figures;

static figures measure(const rp_heightmap *hm, const rp_ray *rays, int n, int reps_fast,
                       int reps_walk)
{
    figures f;
    memset(&f, 0, sizeof f);
    result *r[3];
    for (int m = 0; m < 3; m++) {
        r[m] = malloc((size_t)n * sizeof *r[m]);
        f.ns[m] = time_method((enum method)m, hm, rays, n, m == WALK ? reps_walk : reps_fast, r[m]);
        for (int i = 0; i < n; i++)
            f.hits[m] += r[m][i].hit;
    }
    double *err = malloc((size_t)n * sizeof *err);
    int nerr = 0;
    for (int i = 0; i < n; i++) {
        bool exact = r[EXACT][i].hit, search = r[SEARCH][i].hit;
        if (exact != r[WALK][i].hit ||
            (exact && glm_vec3_distance(r[EXACT][i].point, r[WALK][i].point) > 1e-3f))
            f.walk_disagree++;
        if (exact && !search)
            f.search_misses++;
        if (!exact && search)
            f.search_false_hits++;
        if (exact && search) {
            double e = glm_vec3_distance(r[EXACT][i].point, r[SEARCH][i].point);
            err[nerr++] = e;
            f.search_err_max = fmax(f.search_err_max, e);
            if (e > rp_heightmap_spacing(hm))
                f.search_far++;         /* stepped over the first hit */
        }
    }
    f.search_err_median = nerr ? bench_median(err, nerr) : 0.0;
    free(err);
    for (int m = 0; m < 3; m++)
        free(r[m]);
    return f;
}

static void print_figures(const char *what, int n, const figures *f)
{
    printf("  %s rays (%d):\n", what, n);
    for (int m = 0; m < 3; m++)
        printf("    %-28s %10.3f us/ray median, %5d hits\n", method_name[m], f->ns[m] / 1000,
               f->hits[m]);
    printf("    search vs exact: %d missed, %d false hits, %d more than a cell away "
           "(stepped over the first hit); distance median %.4g, max %.4g\n",
           f->search_misses, f->search_false_hits, f->search_far, f->search_err_median,
           f->search_err_max);
    printf("    plain walk vs pyramid: %d disagreements\n", f->walk_disagree);
}

#define CREATE_REPS 5

/* Median time of rp_heightmap_create on the map's heights, and of one
   memcpy of those heights into a freshly allocated buffer (what create
   cannot avoid: read every height, write the copy). */
static void time_create(const rp_heightmap *hm)
{
    int cols = rp_heightmap_cols(hm), rows = rp_heightmap_rows(hm);
    size_t bytes = (size_t)cols * (size_t)rows * sizeof(float);
    const float *h = rp_heightmap_heights(hm);
    vec3 origin = {0, 0, 0};
    double tc[CREATE_REPS], tm[CREATE_REPS], tw[CREATE_REPS];
    float *warm = malloc(bytes);
    memcpy(warm, h, bytes);
    for (int k = 0; k < CREATE_REPS; k++) {
        double t0 = now_ns();
        float *copy = malloc(bytes);
        memcpy(copy, h, bytes);
        tm[k] = now_ns() - t0;
        /* read the copy so the compiler keeps it */
        if (copy[bytes / sizeof(float) / 2] != h[bytes / sizeof(float) / 2])
            printf("memcpy mismatch\n");
        free(copy);

        t0 = now_ns();
        memcpy(warm, h, bytes);
        tw[k] = now_ns() - t0;

        t0 = now_ns();
        rp_heightmap *c = rp_heightmap_create(cols, rows, rp_heightmap_spacing(hm), origin, h);
        tc[k] = now_ns() - t0;
        if (c == NULL) {
            printf("rp_heightmap_create failed\n");
            bench_targets_failed++;
            free(warm);
            return;
        }
        rp_heightmap_destroy(c);
    }
    free(warm);
    double c = bench_median(tc, CREATE_REPS), m = bench_median(tm, CREATE_REPS), w = bench_median(tw, CREATE_REPS);
    printf("  create %dx%d (median of %d): rp_heightmap_create %.2f ms; memcpy of the heights "
           "%.2f ms into a fresh buffer, %.2f ms into a reused one\n", cols, rows, CREATE_REPS,
           c / 1e6, m / 1e6, w / 1e6);
    /* The target compares with the reused buffer: the bare cost of reading
       and writing the heights, without the first-touch page faults that a
       fresh malloc'ed buffer pays (create asks for huge pages to avoid them). */
    bench_target("create / memcpy into a reused buffer", c / w, "<=", 5, c <= 5 * w);
}

int main(int argc, char **argv)
{
    int sizes[8] = {257, 1025, 4097};
    int nsizes = 3;
    if (argc > 1) {
        nsizes = 0;
        for (int i = 1; i < argc && nsizes < 8; i++)
            sizes[nsizes++] = atoi(argv[i]);
    }
    for (int s = 0; s < nsizes; s++) {
        int n = sizes[s];
        double t0 = now_ns();
        rp_heightmap *hm = rp_heightmap_generate(n, n, 1.0f, 0.1f * (n - 1), 2024u,
                                                 (vec3){0, 0, 0});
        if (hm == NULL) {
            fprintf(stderr, "bench_heightmap: cannot generate a %dx%d map\n", n, n);
            return 1;
        }
        double heights_mb = (double)n * n * sizeof(float) / 1048576.0;
        double accel_mb = rp_hm_accel_bytes(hm) / 1048576.0;
        printf("map %dx%d: generated and built in %.2f s; heights %.1f MiB, pyramid %.2f MiB "
               "(%.3f of the heights)\n", n, n, (now_ns() - t0) / 1e9, heights_mb, accel_mb,
               accel_mb / heights_mb);

        rp_ray *cam = malloc(CAMERA_RAYS * sizeof *cam);
        rp_ray *graze = malloc(GRAZING_RAYS * sizeof *graze);
        rp_ray *low = malloc(GRAZING_RAYS * sizeof *low);
        camera_rays(hm, cam, CAMERA_RAYS);
        grazing_rays(hm, graze, GRAZING_RAYS, 0.25f);
        grazing_rays(hm, low, GRAZING_RAYS, -0.25f);
        /* the plain walk's time grows with the map: fewer repetitions */
        int reps_walk = n > 2000 ? 1 : 3;
        figures fc = measure(hm, cam, CAMERA_RAYS, 5, reps_walk);
        figures fg = measure(hm, graze, GRAZING_RAYS, 5, reps_walk);
        figures fl = measure(hm, low, GRAZING_RAYS, 5, reps_walk);
        print_figures("camera", CAMERA_RAYS, &fc);
        print_figures("grazing", GRAZING_RAYS, &fg);
        print_figures("low grazing", GRAZING_RAYS, &fl);

        if (s == nsizes - 1) {
            printf("  targets on the %dx%d map:\n", n, n);
            time_create(hm);
            bench_target("exact with pyramid, camera rays (us/ray)", fc.ns[EXACT] / 1000, "<", 5,
                         fc.ns[EXACT] < 5000);
            double ratio = fc.ns[EXACT] / fc.ns[SEARCH];
            bench_target("exact / tutorial search time, camera rays", ratio, "<=", 3, ratio <= 3);
            bench_target("pyramid vs plain walk disagreements (no misses)",
                         fc.walk_disagree + fg.walk_disagree + fl.walk_disagree, "==", 0,
                         fc.walk_disagree + fg.walk_disagree + fl.walk_disagree == 0);
            double speedup = fg.ns[WALK] / fg.ns[EXACT];
            bench_target("pyramid speed-up on grazing rays (x)", speedup, ">=", 20, speedup >= 20);
            bench_target("pyramid memory / heights memory", accel_mb / heights_mb, "<=", 0.5,
                         accel_mb / heights_mb <= 0.5);
        }
        free(cam);
        free(graze);
        free(low);
        rp_heightmap_destroy(hm);
    }
    printf("%s\n", bench_targets_failed ? "some targets NOT MET" : "all targets met");
    return 0;
}

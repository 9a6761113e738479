/* bench_sphere.c: how fast are ray vs sphere and ray vs many spheres,
 * against the tutorial's textbook formula (seed 000's quadratic: a, b, c,
 * b^2 - 4ac, both roots, min). Prints figures; asserts nothing.
 *
 *   meson test -C build --benchmark --verbose      (or run build/bench/bench_sphere)
 *
 * Every figure is the median of several repetitions (a monotonic clock), and
 * every loop feeds a checksum that is printed, so nothing is optimised away.
 */
#define _POSIX_C_SOURCE 199309L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <raypick/raypick.h>
#include "stats.h"
#include "timer.h"

#if defined(__GNUC__)
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE
#endif

#define REPS 7

static uint64_t rng_state = 0x9E3779B97F4A7C15u;

static uint32_t rng_next(void)   /* xorshift64* */
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (uint32_t)((rng_state * 0x2545F4914F6CDD1Du) >> 32);
}

static float rng_range(float lo, float hi)
{
    return lo + (hi - lo) * (float)(rng_next() >> 8) * (1.0f / 16777216.0f);
}

static double now_seconds(void)
{
    return bench_now_seconds();
}

/* The tutorial's formula as it stands (float, b^2 - 4ac, min of the roots). */
static NOINLINE bool textbook_ray_sphere(const rp_ray *ray, const rp_sphere *s, float *t)
{
    const float *d = ray->dir;
    float a = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    float hx = ray->origin[0] - s->center[0];
    float hy = ray->origin[1] - s->center[1];
    float hz = ray->origin[2] - s->center[2];
    float b = 2.0f * (hx * d[0] + hy * d[1] + hz * d[2]);
    float c = hx * hx + hy * hy + hz * hz - s->radius * s->radius;
    float det = b * b - 4.0f * a * c;
    if (det < 0.0f)
        return false;
    det = sqrtf(det);
    a = 1.0f / (2.0f * a);
    float s1 = (-b + det) * a;
    float s2 = (-b - det) * a;
    *t = s1 < s2 ? s1 : s2;
    return true;
}

/* The textbook picking loop: the same formula per sphere, inlined as a
   tutorial would write it; min of the roots, the other root when that is
   negative, the nearest non-negative one wins. */
static NOINLINE int textbook_pick(const rp_ray *ray, const rp_sphere *sp, size_t n, float *best_t)
{
    const float *d = ray->dir, *o = ray->origin;
    int best = -1;
    float best_t_local = INFINITY;
    for (size_t i = 0; i < n; i++) {
        float a = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
        float hx = o[0] - sp[i].center[0];
        float hy = o[1] - sp[i].center[1];
        float hz = o[2] - sp[i].center[2];
        float b = 2.0f * (hx * d[0] + hy * d[1] + hz * d[2]);
        float c = hx * hx + hy * hy + hz * hz - sp[i].radius * sp[i].radius;
        float det = b * b - 4.0f * a * c;
        if (det < 0.0f)
            continue;
        det = sqrtf(det);
        float inv = 1.0f / (2.0f * a);
        float s1 = (-b + det) * inv, s2 = (-b - det) * inv;
        float t = s1 < s2 ? s1 : s2;
        if (t < 0.0f)
            t = s1 < s2 ? s2 : s1;
        if (t >= 0.0f && t < best_t_local) {
            best_t_local = t;
            best = (int)i;
        }
    }
    *best_t = best_t_local;
    return best;
}

#define PAIRS 1024

static void bench_single(void)
{
    static rp_ray rays[PAIRS];
    static rp_sphere spheres[PAIRS];
    for (int i = 0; i < PAIRS; i++) {
        rays[i] = (rp_ray){{rng_range(-10, 10), rng_range(-10, 10), rng_range(-10, 10)},
                           {rng_range(-1, 1), rng_range(-1, 1), rng_range(-1, 1)}};
        spheres[i] = (rp_sphere){{rng_range(-10, 10), rng_range(-10, 10), rng_range(-10, 10)},
                                 rng_range(0.5f, 5.0f)};
    }
    const int rounds = 2000;   /* 2M calls per repetition */
    double ours[REPS], book[REPS];
    double sum_ours = 0, sum_book = 0;
    long hits_ours = 0, hits_book = 0;
    for (int rep = 0; rep < REPS; rep++) {
        double t0 = now_seconds();
        for (int k = 0; k < rounds; k++)
            for (int i = 0; i < PAIRS; i++) {
                rp_hit h;
                if (rp_intersect_ray_sphere(&rays[i], &spheres[i], &h)) {
                    sum_ours += h.t;
                    hits_ours++;
                }
            }
        double t1 = now_seconds();
        for (int k = 0; k < rounds; k++)
            for (int i = 0; i < PAIRS; i++) {
                float t;
                if (textbook_ray_sphere(&rays[i], &spheres[i], &t)) {
                    sum_book += t;
                    hits_book++;
                }
            }
        double t2 = now_seconds();
        ours[rep] = (t1 - t0) * 1e9 / ((double)rounds * PAIRS);
        book[rep] = (t2 - t1) * 1e9 / ((double)rounds * PAIRS);
    }
    double mo = bench_median(ours, REPS), mb = bench_median(book, REPS);
    printf("single ray vs sphere (median of %d x %d calls)\n", REPS, rounds * PAIRS);
    printf("  rp_intersect_ray_sphere : %6.2f ns/call   (full hit record, double inside)\n", mo);
    printf("  textbook float formula  : %6.2f ns/call   (t only; negative t when behind)\n", mb);
    printf("  ratio ours/textbook     : %6.2f\n", mo / mb);
    printf("  checksum %.6e / %.6e, hits %ld / %ld (textbook counts spheres behind)\n",
           sum_ours, sum_book, hits_ours, hits_book);
}

/* n spheres at a fixed density (1e6 in a 200-unit cube), radii 0.05..0.5,
   rays from outside the cube through a random inner point. */
static void bench_many(size_t n, int rays_per_rep)
{
    rp_sphere *sp = malloc(n * sizeof *sp);
    if (!sp) {
        printf("out of memory for %zu spheres\n", n);
        return;
    }
    const float half = 100.0f * cbrtf((float)n / 1e6f);
    for (size_t i = 0; i < n; i++)
        sp[i] = (rp_sphere){{rng_range(-half, half), rng_range(-half, half), rng_range(-half, half)},
                            rng_range(0.05f, 0.5f)};
    rp_ray *rays = malloc((size_t)rays_per_rep * sizeof *rays);
    if (!rays) {
        free(sp);
        return;
    }
    for (int r = 0; r < rays_per_rep; r++) {
        float o[3] = {-1.5f * half, rng_range(-half, half), rng_range(-half, half)};
        float p[3] = {rng_range(-half, half), rng_range(-half, half), rng_range(-half, half)};
        rays[r] = (rp_ray){{o[0], o[1], o[2]}, {p[0] - o[0], p[1] - o[1], p[2] - o[2]}};
    }

    double ours[REPS], book[REPS];
    double checksum = 0;
    long hits_ours = 0, hits_book = 0;
    int same = 0;
    for (int rep = 0; rep < REPS; rep++) {
        int idx_ours[64], idx_book[64];
        double t0 = now_seconds();
        for (int r = 0; r < rays_per_rep; r++) {
            rp_hit h;
            idx_ours[r] = rp_intersect_ray_spheres(&rays[r], sp, n, &h);
            if (idx_ours[r] >= 0) {
                checksum += h.t;
                hits_ours++;
            }
        }
        double t1 = now_seconds();
        for (int r = 0; r < rays_per_rep; r++) {
            float t;
            idx_book[r] = textbook_pick(&rays[r], sp, n, &t);
            if (idx_book[r] >= 0) {
                checksum += t;
                hits_book++;
            }
        }
        double t2 = now_seconds();
        ours[rep] = (double)n * rays_per_rep / (t1 - t0);
        book[rep] = (double)n * rays_per_rep / (t2 - t1);
        if (rep == 0)
            for (int r = 0; r < rays_per_rep; r++)
                same += idx_ours[r] == idx_book[r];
    }
    double mo = bench_median(ours, REPS), mb = bench_median(book, REPS);
    printf("ray vs %zu spheres (%d rays per repetition, median of %d)\n", n, rays_per_rep, REPS);
    printf("  rp_intersect_ray_spheres : %8.1f M spheres/s\n", mo / 1e6);
    printf("  textbook loop            : %8.1f M spheres/s\n", mb / 1e6);
    printf("  ratio ours/textbook      : %8.2f x\n", mo / mb);
    printf("  same index picked        : %d of %d rays; hits %ld / %ld; checksum %.6e\n",
           same, rays_per_rep, hits_ours, hits_book, checksum);
    free(rays);
    free(sp);
}

int main(void)
{
    bench_single();
    bench_many(1000, 64);
    bench_many(1000000, 16);
    bench_many(4000000, 8);    /* 64 MB: beyond a 32 MB L3, memory-bound */
    return 0;
}

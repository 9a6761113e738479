/* bench_bounds.c: rp_sphere_from_points (the smallest sphere) beside the
 * sphere D3DXComputeBoundingSphere computes (centred on the centroid, as
 * large as the farthest point): both radii and both times, side by side,
 * on three clouds of a million points. Prints figures; asserts nothing.
 *
 *   meson test -C build --benchmark --verbose   (or run build/bench/bench_bounds)
 *
 * Times are the median of REPS runs (CLOCK_MONOTONIC); results feed the
 * printed figures, so nothing is optimised away. */
#define _POSIX_C_SOURCE 199309L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <raypick/raypick.h>
#include "stats.h"
#include "timer.h"

#define REPS 5
#define COUNT 1000000

static uint64_t rng_state = 0x9E3779B97F4A7C15u;

static double rng_unit(void)   /* xorshift64*, [0, 1) */
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (double)((rng_state * 0x2545F4914F6CDD1Du) >> 11) * (1.0 / 9007199254740992.0);
}

static double now_seconds(void) { return bench_now_seconds(); }

/* D3DXComputeBoundingSphere: the centroid, and the farthest point from it */
static rp_sphere centroid_sphere(const float (*p)[3], size_t n)
{
    double c[3] = {0, 0, 0}, r2 = 0.0;
    for (size_t i = 0; i < n; i++)
        for (int k = 0; k < 3; k++)
            c[k] += p[i][k];
    for (int k = 0; k < 3; k++)
        c[k] /= (double)n;
    for (size_t i = 0; i < n; i++) {
        double d2 = 0.0;
        for (int k = 0; k < 3; k++)
            d2 += (p[i][k] - c[k]) * (p[i][k] - c[k]);
        r2 = d2 > r2 ? d2 : r2;
    }
    rp_sphere s = {{(float)c[0], (float)c[1], (float)c[2]}, (float)sqrt(r2)};
    return s;
}

static void fill(float (*p)[3], int cloud)
{
    for (size_t i = 0; i < COUNT; i++) {
        double x = 2.0 * rng_unit() - 1.0, y = 2.0 * rng_unit() - 1.0, z = 2.0 * rng_unit() - 1.0;
        if (cloud == 1) {            /* lopsided: a dense body, a long thin tail */
            if (i % 100 == 0)
                x = 1.0 + 9.0 * rng_unit();
        } else if (cloud == 2) {     /* on a sphere */
            const double len = sqrt(x * x + y * y + z * z) + 1e-12;
            x /= len;
            y /= len;
            z /= len;
        }
        p[i][0] = (float)x;
        p[i][1] = (float)y;
        p[i][2] = (float)z;
    }
}

int main(void)
{
    float (*p)[3] = malloc(COUNT * sizeof *p);
    if (p == NULL)
        return 1;
    const char *names[3] = {"uniform cube", "lopsided (1% tail to x = 10)", "sphere surface"};
    printf("bounding spheres of %d points: raypick (smallest) vs D3DX (centroid)\n", COUNT);
    printf("%-30s %12s %12s %8s %11s %11s %11s\n", "cloud", "raypick r", "centroid r",
           "ratio", "raypick ms", "centroid ms", "aabb ms");
    for (int cloud = 0; cloud < 3; cloud++) {
        fill(p, cloud);
        double t_min[REPS], t_cen[REPS], t_box[REPS];
        rp_sphere s = {{0, 0, 0}, 0}, c = s;
        rp_aabb box;
        for (int r = 0; r < REPS; r++) {
            double t0 = now_seconds();
            if (!rp_sphere_from_points(&p[0][0], COUNT, 0, &s))
                return 1;
            double t1 = now_seconds();
            c = centroid_sphere((const float(*)[3])p, COUNT);
            double t2 = now_seconds();
            if (!rp_aabb_from_points(&p[0][0], COUNT, 0, &box))
                return 1;
            double t3 = now_seconds();
            t_min[r] = t1 - t0;
            t_cen[r] = t2 - t1;
            t_box[r] = t3 - t2;
        }
        printf("%-30s %12.6f %12.6f %8.3f %11.2f %11.2f %11.2f\n", names[cloud],
               (double)s.radius, (double)c.radius, (double)c.radius / s.radius,
               1e3 * bench_median(t_min, REPS), 1e3 * bench_median(t_cen, REPS), 1e3 * bench_median(t_box, REPS));
    }
    free(p);
    return 0;
}

/* panel_ab.h: the code panel's A/B, shared by bench_code_panel.c (a lesson
   by a script) and bench_code_panel_tour.c (a lesson at a tour moment).
   Each run of the program prints its frame figures (--bench-frames); the
   runs with the panel and without it (C) alternate, each round in the other
   order, so a change in the machine's load falls on both. POSIX only:
   include it after child.h. */
#ifndef RP_BENCH_PANEL_AB_H
#define RP_BENCH_PANEL_AB_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "child.h"
#include "stats.h"

#define PANEL_AB_MAX_ROUNDS 15
#define PANEL_AB_LIMIT 1.2

/* Runs the program with argv; its median frame (wall, CPU) in ms from the
   bench line it prints; false when it failed or printed no figures. */
static inline bool panel_ab_run_child(char *const argv[], double *wall, double *cpu)
{
    char out[4096];
    if (!bench_run_child(argv, out, sizeof out, NULL))
        return false;
    const char *line = strstr(out, "{\"bench\"");
    *wall = line ? bench_json_number(line, "median_ms") : -1.0;
    *cpu = line ? bench_json_number(line, "cpu_median_ms") : -1.0;
    return *wall > 0.0 && *cpu >= 0.0;
}

/* One run of the bench's own making: with the panel or without it. */
typedef bool (*panel_ab_run_fn)(const void *ctx, bool panel, double *wall, double *cpu);

/* rounds (at most PANEL_AB_MAX_ROUNDS) of a run with the panel and one
   without, alternating; w and cp get the median over the rounds of each
   run's median frame, [0] with, [1] without. false when a run failed. */
static inline bool panel_ab_measure(int rounds, panel_ab_run_fn run, const void *ctx, double w[2], double cp[2])
{
    double wall[2][PANEL_AB_MAX_ROUNDS], cpu[2][PANEL_AB_MAX_ROUNDS];
    for (int r = 0; r < rounds; ++r)
        for (int k = 0; k < 2; ++k) {
            int c = (k + r) % 2;    /* 0: with, 1: without; the order alternates */
            if (!run(ctx, c == 0, &wall[c][r], &cpu[c][r]))
                return false;
        }
    for (int c = 0; c < 2; ++c) {
        w[c] = bench_median(wall[c], rounds);
        cp[c] = bench_median(cpu[c], rounds);
    }
    return true;
}

/* The table under the bench's own heading, and the ratio against the
   issue's limit. */
static inline void panel_ab_print(const double w[2], const double cp[2])
{
    printf("%-32s %10s %10s\n", "", "wall ms", "CPU ms");
    printf("%-32s %10.3f %10.3f\n", "with the code panel and inset", w[0], cp[0]);
    printf("%-32s %10.3f %10.3f\n", "without (C)", w[1], cp[1]);
    double ratio = w[0] / w[1];
    printf("with / without: %.3f (wall), %.3f (CPU): %s the %.1fx the issue allows\n", ratio, cp[0] / cp[1],
           ratio <= PANEL_AB_LIMIT ? "within" : "OVER", PANEL_AB_LIMIT);
}

#endif /* RP_BENCH_PANEL_AB_H */

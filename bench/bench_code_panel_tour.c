/*
 * bench_code_panel_tour.c: what the code panel and the inset cost a frame
 * in any lesson with a tour (issue 29: the median within 1.2x of the same
 * lesson without them); bench_code_panel.c measures lesson 4 by a script.
 *
 * The lesson at 1280x720, a tour moment staged (--tour N: its click, step
 * mode, its steps walked), timed by the program itself over 60 frames
 * (--bench-frames):
 *   with     the code panel and the inset (step mode's default)
 *   without  the same, the panel hidden (C)
 * The two alternate, each round in the other order, so a change in the
 * machine's load falls on both; a figure is the median over the rounds of
 * each run's median frame (wall, and the frame's CPU over all threads,
 * llvmpipe's included).
 *
 *   bench_code_panel_tour RAYPICK LESSON MOMENT [ROUNDS]   # needs a display
 *
 * POSIX only (fork, exec, wait4); elsewhere it says so and does nothing.
 */
#if !defined(_WIN32)
#define _DEFAULT_SOURCE 1       /* wait4 */
#endif
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(_WIN32) || defined(__EMSCRIPTEN__)
int main(void)
{
    printf("bench_code_panel_tour: needs fork, exec and wait4 (POSIX): not run here\n");
    return 0;
}
#else
#include "child.h"
#include "stats.h"

#define MAX_ROUNDS 15
#define LIMIT 1.2

/* The value of "key" in a JSON line, or -1. */
static double json_number(const char *text, const char *key)
{
    char pattern[64];
    snprintf(pattern, sizeof pattern, "\"%s\":", key);
    const char *at = strstr(text, pattern);
    return at ? strtod(at + strlen(pattern), NULL) : -1.0;
}

/* One run; its median frame (wall, CPU) in ms; false when it failed or the
   program printed no figures. */
static bool run(const char *raypick, const char *lesson, const char *moment, bool panel, double *wall, double *cpu)
{
    char *argv[16] = {(char *)raypick, "--lesson", (char *)lesson, "--size", "1280x720", "--tour", (char *)moment,
                      "--key", "h@0", "--bench-frames", "60"};
    if (!panel) {
        argv[11] = "--key";
        argv[12] = "c@1";
    }
    char out[4096];
    if (!bench_run_child(argv, out, sizeof out, NULL))
        return false;
    const char *line = strstr(out, "{\"bench\"");
    *wall = line ? json_number(line, "median_ms") : -1.0;
    *cpu = line ? json_number(line, "cpu_median_ms") : -1.0;
    return *wall > 0.0 && *cpu >= 0.0;
}

int main(int argc, char **argv)
{
    if (argc < 4 || argc > 5) {
        fprintf(stderr, "usage: bench_code_panel_tour RAYPICK LESSON MOMENT [ROUNDS]\n");
        return 2;
    }
    int rounds = argc == 5 ? atoi(argv[4]) : 7;
    if (rounds < 1 || rounds > MAX_ROUNDS) {
        fprintf(stderr, "bench_code_panel_tour: rounds %s out of 1..%d\n", argv[4], MAX_ROUNDS);
        return 2;
    }
    double wall[2][MAX_ROUNDS], cpu[2][MAX_ROUNDS];
    for (int r = 0; r < rounds; ++r)
        for (int k = 0; k < 2; ++k) {
            int c = (k + r) % 2;    /* 0: with, 1: without; the order alternates */
            if (!run(argv[1], argv[2], argv[3], c == 0, &wall[c][r], &cpu[c][r])) {
                fprintf(stderr, "bench_code_panel_tour: a run of lesson %s, tour %s failed or printed no bench line\n",
                        argv[2], argv[3]);
                return 1;
            }
        }
    double w[2], cp[2];
    for (int c = 0; c < 2; ++c) {
        w[c] = bench_median(wall[c], rounds);
        cp[c] = bench_median(cpu[c], rounds);
    }
    printf("lesson %s at 1280x720, tour moment %s (step mode, its steps walked), 60 frames a run; %d rounds "
           "alternating;\nfigures: the median over the rounds of each run's median frame\n", argv[2], argv[3], rounds);
    printf("%-32s %10s %10s\n", "", "wall ms", "CPU ms");
    printf("%-32s %10.3f %10.3f\n", "with the code panel and inset", w[0], cp[0]);
    printf("%-32s %10.3f %10.3f\n", "without (C)", w[1], cp[1]);
    double ratio = w[0] / w[1];
    printf("with / without: %.3f (wall), %.3f (CPU): %s the %.1fx the issue allows\n", ratio, cp[0] / cp[1],
           ratio <= LIMIT ? "within" : "OVER", LIMIT);
    return 0;
}
#endif

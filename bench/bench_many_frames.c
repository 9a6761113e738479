/*
 * bench_many_frames.c: lesson 1's many-objects mode against its frame
 * budget (issue 11: a median under 16.7 ms at 1280x720, under Xvfb and
 * llvmpipe on the idle 2-core machine, with 100,000 moving objects), side
 * by side in one run with fewer objects and with plain lesson 1.
 *
 * Each configuration is a child process:
 *   raypick --lesson 1 --size 1280x720 --click 640,400@6 --bench-frames 60
 *           [--key a@2 --many-objects N]
 * which prints one JSON line with its median frame time (wall) and the
 * median CPU time of a frame (all its threads, llvmpipe's included). The
 * configurations run in rounds, each round in a rotated order, so a change
 * in the machine's load falls on all of them; the figure of a configuration
 * is the median of its rounds.
 *
 *   bench_many_frames RAYPICK [ROUNDS]     # needs a display (xvfb-run -a)
 *
 * POSIX only (fork, exec, wait4); elsewhere it says so and does nothing.
 */
#if !defined(_WIN32)
#define _DEFAULT_SOURCE 1       /* getloadavg, wait4 */
#endif
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(_WIN32) || defined(__EMSCRIPTEN__)
int main(void)
{
    printf("bench_many_frames: needs fork, exec and wait4 (POSIX): not run here\n");
    return 0;
}
#else
#include "child.h"

#define BUDGET_MS 16.7
#define TARGET_OBJECTS 100000
#define MAX_ROUNDS 9

/* 0: plain lesson 1; else the many-objects mode with that many objects */
static const int COUNTS[] = {0, 3125, 6250, 12500, 25000, 50000, 100000};
#define CONFIGS ((int)(sizeof COUNTS / sizeof COUNTS[0]))

typedef struct frame_times {
    double wall_ms, cpu_ms;     /* the run's medians; < 0 when it failed */
} frame_times;

/* The value of "key": in a JSON line, or -1. */
static double json_number(const char *text, const char *key)
{
    char pattern[64];
    snprintf(pattern, sizeof pattern, "\"%s\":", key);
    const char *at = strstr(text, pattern);
    return at ? strtod(at + strlen(pattern), NULL) : -1.0;
}

static frame_times run_config(const char *raypick, int count)
{
    char objects[16];
    snprintf(objects, sizeof objects, "%d", count);
    char *argv[16];
    int n = 0;
    argv[n++] = (char *)raypick;
    argv[n++] = "--lesson";
    argv[n++] = "1";
    argv[n++] = "--size";
    argv[n++] = "1280x720";
    argv[n++] = "--click";
    argv[n++] = "640,400@6";
    argv[n++] = "--bench-frames";
    argv[n++] = "60";
    if (count > 0) {
        argv[n++] = "--key";
        argv[n++] = "a@2";
        argv[n++] = "--many-objects";
        argv[n++] = objects;
    }
    argv[n] = NULL;
    char out[4096];
    frame_times t = {-1.0, -1.0};
    if (bench_run_child(argv, out, sizeof out, NULL)) {
        const char *line = strstr(out, "{\"bench\"");
        if (line) {
            t.wall_ms = json_number(line, "median_ms");
            t.cpu_ms = json_number(line, "cpu_median_ms");
        }
    }
    return t;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, compare_doubles);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static const char *label(int count, char *buf, size_t size)
{
    if (count == 0)
        snprintf(buf, size, "plain lesson 1");
    else
        snprintf(buf, size, "%d objects", count);
    return buf;
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: bench_many_frames RAYPICK [ROUNDS]\n");
        return 2;
    }
    int rounds = argc == 3 ? atoi(argv[2]) : 3;
    if (rounds < 1 || rounds > MAX_ROUNDS) {
        fprintf(stderr, "bench_many_frames: rounds %s out of 1..%d\n", argv[2], MAX_ROUNDS);
        return 2;
    }
    double wall[CONFIGS][MAX_ROUNDS], cpu[CONFIGS][MAX_ROUNDS];
    for (int r = 0; r < rounds; ++r) {
        for (int k = 0; k < CONFIGS; ++k) {
            int c = (k + r) % CONFIGS;      /* each round starts one further on */
            frame_times t = run_config(argv[1], COUNTS[c]);
            char name[32];
            if (t.wall_ms < 0.0 || t.cpu_ms < 0.0) {
                fprintf(stderr, "bench_many_frames: %s: the run failed or printed no bench line\n",
                        label(COUNTS[c], name, sizeof name));
                return 1;
            }
            wall[c][r] = t.wall_ms;
            cpu[c][r] = t.cpu_ms;
        }
    }
    printf("lesson 1 at 1280x720, 60 frames a run, one click; %d round%s, configurations in a rotated "
           "order each round; figures: the median over the rounds of each run's median\n",
           rounds, rounds > 1 ? "s" : "");
    printf("%-16s %10s %10s %14s  %s\n", "", "wall ms", "CPU ms", "wall / 1000", "runs (wall ms)");
    double plain = 0.0, target = 0.0;
    int within = 0;
    for (int c = 0; c < CONFIGS; ++c) {
        char runs[160] = "", name[32];
        for (int r = 0; r < rounds; ++r) {
            size_t used = strlen(runs);
            snprintf(runs + used, sizeof runs - used, "%s%.1f", r ? " " : "", wall[c][r]);
        }
        double w = median(wall[c], rounds), u = median(cpu[c], rounds);
        if (COUNTS[c] == 0)
            plain = w;
        if (COUNTS[c] == TARGET_OBJECTS)
            target = w;
        if (COUNTS[c] > 0 && w <= BUDGET_MS && COUNTS[c] > within)
            within = COUNTS[c];
        char per[32] = "";
        if (COUNTS[c] > 0)
            snprintf(per, sizeof per, "%.3f", (w - plain) / (COUNTS[c] / 1000.0));
        printf("%-16s %10.1f %10.1f %14s  %s\n", label(COUNTS[c], name, sizeof name), w, u, per, runs);
    }
    printf("(wall / 1000: the frame's wall time above plain lesson 1's, per 1000 objects)\n");
    printf("target: %d objects, median frame <= %.1f ms: %.1f ms  %s\n", TARGET_OBJECTS, BUDGET_MS, target,
           target <= BUDGET_MS ? "MET" : "NOT MET");
    if (within > 0)
        printf("the most objects measured within %.1f ms here: %d\n", BUDGET_MS, within);
    else
        printf("none of the counts measured was within %.1f ms here\n", BUDGET_MS);
    double avg[3];
    if (getloadavg(avg, 3) == 3)
        printf("load average at the end: %.2f (wall times grow with the load)\n", avg[0]);
    return 0;
}
#endif

/*
 * bench_code_panel.c: what the code panel and the inset cost a frame
 * (issue 29: the median within 1.2x of the same lesson without them).
 *
 * A lesson at 1280x720 in step mode, a click and some steps on (LESSON, 4
 * by default: 20 steps, a LinearSearch step, the listing with its lit line,
 * the step's watches, the ray profile with its samples; 1: the cone's roots,
 * the quadratic on the ray's t axis; 3: D, the German shortcut's verdict,
 * the two circles), timed by the program itself over 60 frames
 * (--bench-frames):
 *   with     the code panel and the inset (step mode's default)
 *   without  the same, the panel hidden (C)
 * The two alternate, each round in the other order, so a change in the
 * machine's load falls on both; a figure is the median over the rounds of
 * each run's median frame (wall, and the frame's CPU over all threads,
 * llvmpipe's included).
 *
 *   bench_code_panel RAYPICK [ROUNDS [LESSON]]     # needs a display (scripts/bench: Xvfb)
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
    printf("bench_code_panel: needs fork, exec and wait4 (POSIX): not run here\n");
    return 0;
}
#else
#include "child.h"
#include "stats.h"

#define MAX_ROUNDS 15
#define MAX_STEPS 20
#define LIMIT 1.2

/* What a lesson's run does before it is timed: its click (window pixels
   at 1280x720, the step mode's P before it), keys after the click, the
   steps on. One line a lesson. */
typedef struct lesson_script {
    const char *lesson, *click, *after;
    int steps;
} lesson_script;

static const lesson_script scripts[] = {
    {"4", "560,440@1", NULL, 20},       /* a slope's LinearSearch step */
    {"1", "743,411@1", NULL, 13},       /* the cone's roots */
    {"3", "291,364@1", "d@1", 3},       /* the freighter: the shortcut misses */
};

/* The value of "key": in a JSON line, or -1. */
static double json_number(const char *text, const char *key)
{
    char pattern[64];
    snprintf(pattern, sizeof pattern, "\"%s\":", key);
    const char *at = strstr(text, pattern);
    return at ? strtod(at + strlen(pattern), NULL) : -1.0;
}

/* One run; its median frame (wall, CPU) in ms, false when it failed. */
static bool run(const char *raypick, const lesson_script *ls, bool panel, double *wall, double *cpu)
{
    char *argv[20 + 2 * MAX_STEPS];
    int n = 0;
    argv[n++] = (char *)raypick;
    argv[n++] = "--lesson";
    argv[n++] = (char *)ls->lesson;
    argv[n++] = "--size";
    argv[n++] = "1280x720";
    argv[n++] = "--key";
    argv[n++] = "p@0";
    argv[n++] = "--click";
    argv[n++] = (char *)ls->click;
    if (ls->after) {
        argv[n++] = "--key";
        argv[n++] = (char *)ls->after;
    }
    for (int i = 0; i < ls->steps && i < MAX_STEPS; ++i) {
        argv[n++] = "--key";
        argv[n++] = ".@2";
    }
    if (!panel) {
        argv[n++] = "--key";
        argv[n++] = "c@2";
    }
    argv[n++] = "--bench-frames";
    argv[n++] = "60";
    argv[n] = NULL;
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
    if (argc < 2 || argc > 4) {
        fprintf(stderr, "usage: bench_code_panel RAYPICK [ROUNDS [LESSON]]\n");
        return 2;
    }
    int rounds = argc >= 3 ? atoi(argv[2]) : 7;
    if (rounds < 1 || rounds > MAX_ROUNDS) {
        fprintf(stderr, "bench_code_panel: rounds %s out of 1..%d\n", argv[2], MAX_ROUNDS);
        return 2;
    }
    const lesson_script *ls = NULL;
    for (size_t i = 0; i < sizeof scripts / sizeof scripts[0]; ++i)
        if (strcmp(scripts[i].lesson, argc == 4 ? argv[3] : "4") == 0)
            ls = &scripts[i];
    if (!ls) {
        fprintf(stderr, "bench_code_panel: no script for lesson %s\n", argv[3]);
        return 2;
    }
    double wall[2][MAX_ROUNDS], cpu[2][MAX_ROUNDS];
    for (int r = 0; r < rounds; ++r)
        for (int k = 0; k < 2; ++k) {
            int c = (k + r) % 2;    /* 0: with, 1: without; the order alternates */
            if (!run(argv[1], ls, c == 0, &wall[c][r], &cpu[c][r])) {
                fprintf(stderr, "bench_code_panel: a run failed or printed no bench line\n");
                return 1;
            }
        }
    double w[2], cp[2];
    for (int c = 0; c < 2; ++c) {
        w[c] = bench_median(wall[c], rounds);
        cp[c] = bench_median(cpu[c], rounds);
    }
    printf("lesson %s at 1280x720, step mode, a click and %d steps, 60 frames a run; %d rounds alternating;\n"
           "figures: the median over the rounds of each run's median frame\n", ls->lesson, ls->steps, rounds);
    printf("%-32s %10s %10s\n", "", "wall ms", "CPU ms");
    printf("%-32s %10.3f %10.3f\n", "with the code panel and inset", w[0], cp[0]);
    printf("%-32s %10.3f %10.3f\n", "without (C)", w[1], cp[1]);
    double ratio = w[0] / w[1];
    printf("with / without: %.3f (wall), %.3f (CPU): %s the %.1fx the issue allows\n", ratio, cp[0] / cp[1],
           ratio <= LIMIT ? "within" : "OVER", LIMIT);
    return 0;
}
#endif

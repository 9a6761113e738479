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
#include "panel_ab.h"

#define MAX_STEPS 20

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

/* What a run needs: the program and the lesson's script. */
typedef struct run_ctx {
    const char *raypick;
    const lesson_script *ls;
} run_ctx;

/* One run; its median frame (wall, CPU) in ms, false when it failed. */
static bool run(const void *ctx, bool panel, double *wall, double *cpu)
{
    const char *raypick = ((const run_ctx *)ctx)->raypick;
    const lesson_script *ls = ((const run_ctx *)ctx)->ls;
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
    return panel_ab_run_child(argv, wall, cpu);
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 4) {
        fprintf(stderr, "usage: bench_code_panel RAYPICK [ROUNDS [LESSON]]\n");
        return 2;
    }
    const int rounds = bench_rounds("bench_code_panel", argc >= 3 ? argv[2] : NULL, 7, PANEL_AB_MAX_ROUNDS);
    if (rounds < 0)
        return 2;
    const lesson_script *ls = NULL;
    for (size_t i = 0; i < sizeof scripts / sizeof scripts[0]; ++i)
        if (strcmp(scripts[i].lesson, argc == 4 ? argv[3] : "4") == 0)
            ls = &scripts[i];
    if (!ls) {
        fprintf(stderr, "bench_code_panel: no script for lesson %s\n", argv[3]);
        return 2;
    }
    double w[2], cp[2];
    const run_ctx ctx = {argv[1], ls};
    if (!panel_ab_measure(rounds, run, &ctx, w, cp)) {
        fprintf(stderr, "bench_code_panel: a run failed or printed no bench line\n");
        return 1;
    }
    printf("lesson %s at 1280x720, step mode, a click and %d steps, 60 frames a run; %d rounds alternating;\n"
           "figures: the median over the rounds of each run's median frame\n", ls->lesson, ls->steps, rounds);
    panel_ab_print(w, cp);
    return 0;
}
#endif

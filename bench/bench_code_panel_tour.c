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
#include "panel_ab.h"

/* One run of argv = {RAYPICK, LESSON, MOMENT} (the bench's own); its median
   frame (wall, CPU) in ms; false when it failed or the program printed no
   figures. */
static bool run(const void *ctx, bool panel, double *wall, double *cpu)
{
    char *const *args = ctx;
    const char *raypick = args[0], *lesson = args[1], *moment = args[2];
    char *argv[16] = {(char *)raypick, "--lesson", (char *)lesson, "--size", "1280x720", "--tour", (char *)moment,
                      "--key", "h@0", "--bench-frames", "60"};
    if (!panel) {
        argv[11] = "--key";
        argv[12] = "c@1";
    }
    return panel_ab_run_child(argv, wall, cpu);
}

int main(int argc, char **argv)
{
    if (argc < 4 || argc > 5) {
        fprintf(stderr, "usage: bench_code_panel_tour RAYPICK LESSON MOMENT [ROUNDS]\n");
        return 2;
    }
    const int rounds = bench_rounds("bench_code_panel_tour", argc == 5 ? argv[4] : NULL, 7, PANEL_AB_MAX_ROUNDS);
    if (rounds < 0)
        return 2;
    double w[2], cp[2];
    if (!panel_ab_measure(rounds, run, argv + 1, w, cp)) {
        fprintf(stderr, "bench_code_panel_tour: a run of lesson %s, tour %s failed or printed no bench line\n",
                argv[2], argv[3]);
        return 1;
    }
    printf("lesson %s at 1280x720, tour moment %s (step mode, its steps walked), 60 frames a run; %d rounds "
           "alternating;\nfigures: the median over the rounds of each run's median frame\n", argv[2], argv[3], rounds);
    panel_ab_print(w, cp);
    return 0;
}
#endif

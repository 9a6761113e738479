/*
 * bench_many_frames.c: lesson 1's many-objects mode against its frame
 * budget (issue 11: a median under 16.7 ms at 1280x720, under Xvfb and
 * llvmpipe on the idle 2-core machine, with 100,000 moving objects), side
 * by side in one run with fewer objects, with plain lesson 1, and with the
 * floor: bench_draw_floor drawing 100,000 one-pixel primitives with the
 * simplest shaders and nothing else, the least any drawing of one
 * primitive per object costs here.
 *
 * Each configuration is a child process:
 *   raypick --lesson 1 --size 1280x720 --click 640,400@6 --bench-frames 60
 *           [--key a@2 --many-objects N]
 *   bench_draw_floor points|triangles|clipped N 60
 * which prints one JSON line with its median frame time (wall) and the
 * median CPU time of a frame (all its threads, llvmpipe's included). The
 * configurations run in rounds, each round in a rotated order, so a change
 * in the machine's load falls on all of them; the figure of a configuration
 * is the median of its rounds.
 *
 *   bench_many_frames RAYPICK BENCH_DRAW_FLOOR [ROUNDS]   # needs a display
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
#include "stats.h"

#define BUDGET_MS 16.7
#define TARGET_OBJECTS 100000
#define MAX_ROUNDS 9

/* What a run draws: the demo (objects 0: plain lesson 1; else the
   many-objects mode with that many), or bench_draw_floor in a mode. */
typedef struct config {
    const char *floor_mode;     /* NULL: the demo */
    int objects;
} config;

static const config CONFIGS_RUN[] = {
    {NULL, 0},     {NULL, 3125},  {NULL, 6250},  {NULL, 12500},  {NULL, 25000}, {NULL, 50000}, {NULL, 100000},
    {"points", 0}, {"clipped", 100000}, {"points", 100000}, {"triangles", 100000},
};
#define CONFIGS ((int)(sizeof CONFIGS_RUN / sizeof CONFIGS_RUN[0]))

typedef struct frame_times {
    double wall_ms, cpu_ms;     /* the run's medians; < 0 when it failed */
    double pixels;              /* bench_draw_floor's pixels drawn; < 0 from the demo */
} frame_times;

/* Runs one configuration's child: its two medians from its JSON line, and
   the pixels it drew (bench_draw_floor only). */
static frame_times run_child(char *const argv[])
{
    char out[4096];
    frame_times t = {-1.0, -1.0, -1.0};
    if (bench_run_child(argv, out, sizeof out, NULL)) {
        const char *line = strstr(out, "{\"bench\"");
        if (line) {
            t.wall_ms = bench_json_number(line, "median_ms");
            t.cpu_ms = bench_json_number(line, "cpu_median_ms");
            t.pixels = bench_json_number(line, "pixels_drawn");
        }
    }
    return t;
}

static frame_times run_config(const char *raypick, const char *floor, config c)
{
    char objects[16];
    snprintf(objects, sizeof objects, "%d", c.objects);
    char *argv[16];
    int n = 0;
    if (c.floor_mode) {
        argv[n++] = (char *)floor;
        argv[n++] = (char *)c.floor_mode;
        argv[n++] = objects;
        argv[n++] = "60";
        argv[n] = NULL;
        return run_child(argv);
    }
    argv[n++] = (char *)raypick;
    argv[n++] = "--lesson";
    argv[n++] = "1";
    argv[n++] = "--size";
    argv[n++] = "1280x720";
    argv[n++] = "--click";
    argv[n++] = "640,400@6";
    argv[n++] = "--bench-frames";
    argv[n++] = "60";
    if (c.objects > 0) {
        argv[n++] = "--key";
        argv[n++] = "a@2";
        argv[n++] = "--many-objects";
        argv[n++] = objects;
    }
    argv[n] = NULL;
    return run_child(argv);
}


static const char *label(config c, char *buf, size_t size)
{
    if (c.floor_mode)
        snprintf(buf, size, "floor %s %d", c.floor_mode, c.objects);
    else if (c.objects == 0)
        snprintf(buf, size, "plain lesson 1");
    else
        snprintf(buf, size, "%d objects", c.objects);
    return buf;
}

/* A floor run counts only if its objects were drawn (in view: a pixel
   for most of them; clipped: none); demo runs pass. */
static bool floor_drew_its_objects(config c, double pixels)
{
    if (!c.floor_mode)
        return true;
    if (strcmp(c.floor_mode, "clipped") == 0 || c.objects == 0)
        return pixels == 0.0;
    return pixels >= c.objects / 4;
}

/* The figures of configuration c: the medians over its rounds. */
typedef struct figures {
    double wall, cpu;
} figures;

int main(int argc, char **argv)
{
    if (argc < 3 || argc > 4) {
        fprintf(stderr, "usage: bench_many_frames RAYPICK BENCH_DRAW_FLOOR [ROUNDS]\n");
        return 2;
    }
    const int rounds = bench_rounds("bench_many_frames", argc == 4 ? argv[3] : NULL, 3, MAX_ROUNDS);
    if (rounds < 0)
        return 2;
    double wall[CONFIGS][MAX_ROUNDS], cpu[CONFIGS][MAX_ROUNDS];
    for (int r = 0; r < rounds; ++r) {
        for (int k = 0; k < CONFIGS; ++k) {
            int c = (k + r) % CONFIGS;      /* each round starts one further on */
            frame_times t = run_config(argv[1], argv[2], CONFIGS_RUN[c]);
            char name[40];
            if (t.wall_ms < 0.0 || t.cpu_ms < 0.0) {
                fprintf(stderr, "bench_many_frames: %s: the run failed or printed no bench line\n",
                        label(CONFIGS_RUN[c], name, sizeof name));
                return 1;
            }
            if (!floor_drew_its_objects(CONFIGS_RUN[c], t.pixels)) {
                fprintf(stderr, "bench_many_frames: %s drew %.0f pixels: not what it measures\n",
                        label(CONFIGS_RUN[c], name, sizeof name), t.pixels);
                return 1;
            }
            wall[c][r] = t.wall_ms;
            cpu[c][r] = t.cpu_ms;
        }
    }
    figures fig[CONFIGS];
    for (int c = 0; c < CONFIGS; ++c)
        fig[c] = (figures){bench_median(wall[c], rounds), bench_median(cpu[c], rounds)};
    /* the baselines: plain lesson 1 for the demo, clear and swap alone for
       the floor */
    double demo_base = 0.0, floor_base = 0.0;
    for (int c = 0; c < CONFIGS; ++c)
        if (CONFIGS_RUN[c].objects == 0) {
            if (CONFIGS_RUN[c].floor_mode)
                floor_base = fig[c].wall;
            else
                demo_base = fig[c].wall;
        }
    printf("lesson 1 at 1280x720, 60 frames a run, one click; %d round%s, configurations in a rotated "
           "order each round; figures: the median over the rounds of each run's median\n",
           rounds, rounds > 1 ? "s" : "");
    printf("%-24s %10s %10s %12s  %s\n", "", "wall ms", "CPU ms", "wall / 1000", "runs (wall ms)");
    double target = 0.0, floor_points = 0.0;
    int within = 0;
    for (int c = 0; c < CONFIGS; ++c) {
        config k = CONFIGS_RUN[c];
        char runs[160] = "", name[40];
        for (int r = 0; r < rounds; ++r) {
            size_t used = strlen(runs);
            snprintf(runs + used, sizeof runs - used, "%s%.1f", r ? " " : "", wall[c][r]);
        }
        double w = fig[c].wall;
        if (!k.floor_mode && k.objects == TARGET_OBJECTS)
            target = w;
        if (k.floor_mode && strcmp(k.floor_mode, "points") == 0 && k.objects == TARGET_OBJECTS)
            floor_points = w;
        if (!k.floor_mode && k.objects > 0 && w <= BUDGET_MS && k.objects > within)
            within = k.objects;
        char per[32] = "";
        if (k.objects > 0)
            snprintf(per, sizeof per, "%.3f", (w - (k.floor_mode ? floor_base : demo_base)) / (k.objects / 1000.0));
        printf("%-24s %10.1f %10.1f %12s  %s\n", label(k, name, sizeof name), w, fig[c].cpu, per, runs);
    }
    printf("(wall / 1000: the frame's wall time above its baseline's, plain lesson 1 or the floor's\n"
           " empty frame, per 1000 objects; the floor: bench_draw_floor, one-pixel primitives, a\n"
           " position in and a constant colour out, nothing moved, shaded or picked; clipped: all\n"
           " outside the view)\n");
    printf("target: %d objects, median frame <= %.1f ms: %.1f ms  %s\n", TARGET_OBJECTS, BUDGET_MS, target,
           target <= BUDGET_MS ? "MET" : "NOT MET");
    if (within > 0)
        printf("the most objects measured within %.1f ms here: %d\n", BUDGET_MS, within);
    else
        printf("none of the counts measured was within %.1f ms here\n", BUDGET_MS);
    printf("the floor: %d one-pixel points and nothing else take %.1f ms a frame: %s\n", TARGET_OBJECTS,
           floor_points,
           floor_points > BUDGET_MS ? "over the budget already, so no drawing of one primitive per object meets "
                                      "it on this machine"
                                    : "within the budget, so the mode's own work is what exceeds it");
    double avg[3];
    if (getloadavg(avg, 3) == 3)
        printf("load average at the end: %.2f (wall times grow with the load)\n", avg[0]);
    return 0;
}
#endif

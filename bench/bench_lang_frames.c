/*
 * bench_lang_frames.c: the frame time with the HUD in English, German and
 * Chinese (issue 30: Chinese within 1.2 times English), and with the
 * built-in ASCII font the HUD had before fonts, side by side in one run.
 *
 * Each configuration is a child process:
 *   raypick --lesson L --size 1280x720 --lang X --key p@2 --click 640,400@6
 *           --key .@8 --key .@9 --bench-frames 120
 * (step mode on, a click, two steps: the status at its longest), which
 * prints one JSON line with its median and slowest frame (wall clock), the
 * median frame's CPU time (all threads: llvmpipe rasterises in them), the
 * language it showed and whether it drew with fonts. The built-in font's
 * runs set RAYPICK_FONT to a file that does not exist. The configurations
 * run in rounds, each round in a rotated order, so a change in the
 * machine's load falls on all of them; a configuration's figure is the
 * median of its rounds. On a shared machine the wall clock mostly measures
 * the wait for a core; the CPU time is what the frame costs
 * (docs/performance.md). A run that showed another language than it asked
 * for (no font for it) stops the bench: it would compare English with
 * English.
 *
 *   bench_lang_frames RAYPICK [ROUNDS]   # needs a display
 *
 * POSIX only (fork, exec, wait4); elsewhere it says so and does nothing.
 */
#if !defined(_WIN32)
#define _DEFAULT_SOURCE 1       /* setenv, unsetenv, wait4 */
#endif
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(_WIN32) || defined(__EMSCRIPTEN__)
int main(void)
{
    printf("bench_lang_frames: needs fork, exec and wait4 (POSIX): not run here\n");
    return 0;
}
#else
#include "child.h"
#include "stats.h"

#define LIMIT 1.2               /* another language's median against English's */
#define MAX_ROUNDS 9
#define FRAMES "120"

typedef struct config {
    const char *lesson;
    const char *lang;
    bool builtin;               /* the built-in ASCII font (RAYPICK_FONT at nothing) */
} config;

static const config CONFIGS_RUN[] = {
    {"1", "en", true}, {"1", "en", false}, {"1", "de", false}, {"1", "zh", false},
    {"4", "en", true}, {"4", "en", false}, {"4", "de", false}, {"4", "zh", false},
};
#define CONFIGS ((int)(sizeof CONFIGS_RUN / sizeof CONFIGS_RUN[0]))

typedef struct frame_times {
    double median_ms, max_ms;   /* wall clock; < 0 when the run failed */
    double cpu_ms;              /* the median frame's CPU time, all threads (llvmpipe's too) */
} frame_times;

/* true when the JSON line has "key":"value" (or "key":value for a bare one) */
static bool json_has(const char *text, const char *key, const char *value, bool quoted)
{
    char pattern[96];
    snprintf(pattern, sizeof pattern, quoted ? "\"%s\":\"%s\"" : "\"%s\":%s", key, value);
    return strstr(text, pattern) != NULL;
}

static frame_times run_config(const char *raypick, config c, char *why, size_t why_size)
{
    char *argv[] = {(char *)raypick, "--lesson", (char *)c.lesson, "--size", "1280x720", "--lang", (char *)c.lang,
                    "--key", "p@2", "--click", "640,400@6", "--key", ".@8", "--key", ".@9",
                    "--bench-frames", FRAMES, NULL};
    char *saved = getenv("RAYPICK_FONT") ? strdup(getenv("RAYPICK_FONT")) : NULL;
    if (c.builtin)
        setenv("RAYPICK_FONT", "/nonexistent/raypick-bench-no-font.ttf", 1);
    char out[4096];
    frame_times t = {-1.0, -1.0, -1.0};
    bool ran = bench_run_child(argv, out, sizeof out, NULL);
    if (c.builtin) {
        if (saved)
            setenv("RAYPICK_FONT", saved, 1);
        else
            unsetenv("RAYPICK_FONT");
    }
    free(saved);
    const char *line = ran ? strstr(out, "{\"bench\"") : NULL;
    if (!line) {
        snprintf(why, why_size, "the run failed or printed no bench line");
        return t;
    }
    if (!json_has(line, "language", c.lang, true)) {
        snprintf(why, why_size, "it showed another language (no font for it? see docs/demo.md)");
        return t;
    }
    if (!json_has(line, "fonts", c.builtin ? "false" : "true", false)) {
        snprintf(why, why_size, c.builtin ? "it found a font" : "it found no font");
        return t;
    }
    t.median_ms = bench_json_number(line, "median_ms");
    t.max_ms = bench_json_number(line, "max_ms");
    t.cpu_ms = bench_json_number(line, "cpu_median_ms");
    return t;
}

static const char *label(config c, char *buf, size_t size)
{
    snprintf(buf, size, "lesson %s %s%s", c.lesson, c.lang, c.builtin ? " (built-in font)" : "");
    return buf;
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: bench_lang_frames RAYPICK [ROUNDS]\n");
        return 2;
    }
    const int rounds = bench_rounds("bench_lang_frames", argc == 3 ? argv[2] : NULL, 3, MAX_ROUNDS);
    if (rounds < 0)
        return 2;
    double median[CONFIGS][MAX_ROUNDS], slowest[CONFIGS][MAX_ROUNDS], cpu[CONFIGS][MAX_ROUNDS];
    for (int r = 0; r < rounds; ++r) {
        for (int k = 0; k < CONFIGS; ++k) {
            int c = (k + r) % CONFIGS;      /* each round starts one further on */
            char why[160], name[48];
            frame_times t = run_config(argv[1], CONFIGS_RUN[c], why, sizeof why);
            if (t.median_ms < 0.0) {
                fprintf(stderr, "bench_lang_frames: %s: %s\n", label(CONFIGS_RUN[c], name, sizeof name), why);
                return 1;
            }
            median[c][r] = t.median_ms;
            slowest[c][r] = t.max_ms;
            cpu[c][r] = t.cpu_ms;
        }
    }
    printf("1280x720, " FRAMES " frames a run, step mode on, a click, two steps; %d round%s, configurations "
           "in a rotated order each round; figures: the median over the rounds\n",
           rounds, rounds > 1 ? "s" : "");
    printf("%-34s %10s %10s %10s %12s %12s\n", "", "median ms", "max ms", "CPU ms", "wall / en", "CPU / en");
    int over = 0, over_cpu = 0;
    for (int c = 0; c < CONFIGS; ++c) {
        double m = bench_median(median[c], rounds), mx = bench_median(slowest[c], rounds);
        double mc = bench_median(cpu[c], rounds);
        double english = -1.0, english_cpu = -1.0;
        for (int e = 0; e < CONFIGS; ++e)
            if (!strcmp(CONFIGS_RUN[e].lesson, CONFIGS_RUN[c].lesson) && !strcmp(CONFIGS_RUN[e].lang, "en") &&
                !CONFIGS_RUN[e].builtin) {
                english = bench_median(median[e], rounds);
                english_cpu = bench_median(cpu[e], rounds);
            }
        char name[48];
        printf("%-34s %10.3f %10.3f %10.3f %12.3f %12.3f\n", label(CONFIGS_RUN[c], name, sizeof name), m, mx, mc,
               m / english, mc / english_cpu);
        if (strcmp(CONFIGS_RUN[c].lang, "en") != 0) {
            over += m > LIMIT * english;
            over_cpu += mc > LIMIT * english_cpu;
        }
    }
    printf("German and Chinese within %.1fx of English's median frame: CPU %s, wall %s\n", LIMIT,
           over_cpu ? "NO" : "yes", over ? "NO" : "yes");
    return 0;
}
#endif

/*
 * bench_hover.c: what a hover costs in the demo (issue 32: under 0.1 ms):
 * lesson 6's pointer callback on LESSON_POINTER_MOVE, with the pick ray
 * built as the app builds it (src/app/app.c, handle_pointer), from the
 * lesson's start camera at 1280 x 720, the cursor on a 64 x 36 grid over
 * the whole window. Each move is what one SDL_MOUSEMOTION costs the
 * program besides drawing: the ray, the pixel tolerance, the terrain's hit
 * and the scene query.
 *
 * Prints the median over ROUNDS of each round's mean per move, and the
 * median and 99th percentile of the single moves (a move the scheduler
 * interrupts on a loaded machine lands in the last percent), with the CPU
 * model. No window: the lesson needs
 * neither SDL nor GL.
 */
#define _POSIX_C_SOURCE 200809L     /* clock_gettime (timer.h) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "camera.h"
#include "lesson.h"
#include "lessons.h"
#include "machine.h"
#include "stats.h"
#include "timer.h"

#define W 1280.0f
#define H 720.0f
#define COLS 64
#define ROWS 36
#define ROUNDS 31

int main(void)
{
    bench_print_machine();
    const lessons_entry *e = lessons_get(6);
    if (!e || strcmp(e->name, "hover-drag-select") != 0) {
        fprintf(stderr, "bench_hover: lesson 6 is not hover-drag-select\n");
        return 1;
    }
    const lesson *l = e->lesson;
    char err[256] = "";
    lesson_env env = {.seed = 1, .err = err, .err_size = sizeof err};
    void *self = l->create(&env);
    if (!self) {
        fprintf(stderr, "bench_hover: lesson 6: %s\n", err);
        return 1;
    }
    lesson_click c;
    memset(&c, 0, sizeof c);
    app_camera cam;
    app_camera_reset(&cam, &l->camera);
    app_camera_matrices(&cam, W / H, c.view, c.proj);
    c.viewport = (rp_viewport){0.0f, 0.0f, W, H};
    c.method = l->method(self);
    double means[ROUNDS];
    static double single[ROUNDS * COLS * ROWS];
    int hits = 0, n = 0;
    for (int round = 0; round < ROUNDS; ++round) {
        double start = bench_now_seconds();
        for (int j = 0; j < ROWS; ++j) {
            for (int i = 0; i < COLS; ++i) {
                double t0 = bench_now_seconds();
                c.px = (i + 0.5f) * W / COLS;
                c.py = (j + 0.5f) * H / ROWS;
                lesson_pick p;
                bool ok = c.method == LESSON_PICK_D3D9
                              ? rp_pick_ray_perspective(c.px, c.py, &c.viewport, c.proj, c.view, RP_GL, &c.ray)
                              : rp_pick_ray_unproject(c.px, c.py, &c.viewport, c.proj, c.view, RP_GL, &c.ray);
                if (ok && l->pointer(self, LESSON_POINTER_MOVE, &c, &p) && round == 0)
                    hits += p.hit;
                single[n++] = bench_now_seconds() - t0;
            }
        }
        means[round] = (bench_now_seconds() - start) / (COLS * ROWS);
    }
    double median = bench_median(means, ROUNDS);
    double single_median = bench_median(single, n);     /* sorts single */
    double p99 = single[(int)(0.99 * (n - 1))];
    printf("lesson 6 hover pick (ray + tolerance + terrain + scene query), %dx%d cursor positions over 1280x720, "
           "%d on an object:\n", COLS, ROWS, hits);
    printf("  median of %d rounds' mean: %.2f us per move (target: under 100 us); single moves: median %.2f us, "
           "99th percentile %.2f us\n", ROUNDS, median * 1e6, single_median * 1e6, p99 * 1e6);
    l->destroy(self);
    return 0;
}

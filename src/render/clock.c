/* clock.c: see clock.h. POSIX's monotonic clock (C11's timespec_get where
   there is none); QueryPerformanceCounter on Windows (mingw's msvcrt has no
   timespec_get); performance.now() in the browser. */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 199309L    /* clock_gettime under -std=c11 */
#endif
#include "clock.h"
#include "msg.h"

#include <math.h>
#include <stdio.h>

#ifdef _WIN32
#define WIN32_LEAN_AND_MEAN
#include <windows.h>

double render_clock_seconds(void)
{
    LARGE_INTEGER freq, count;
    QueryPerformanceFrequency(&freq);
    QueryPerformanceCounter(&count);
    return (double)count.QuadPart / (double)freq.QuadPart;
}
#elif defined(__EMSCRIPTEN__)
#include <emscripten.h>

/* performance.now(): emscripten's timespec_get reads Date.now(), which
   steps a whole millisecond */
double render_clock_seconds(void)
{
    return emscripten_get_now() * 1e-3;
}
#else
#include <time.h>

/* POSIX's monotonic clock where there is one (a duration must not jump
   with the wall clock's corrections), C11's wall clock otherwise */
double render_clock_seconds(void)
{
    struct timespec ts;
#ifdef CLOCK_MONOTONIC
    clock_gettime(CLOCK_MONOTONIC, &ts);
#else
    timespec_get(&ts, TIME_UTC);
#endif
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
#endif

/* Waits for the reading to change; the change, or 0 when it did not within
   ten million readings (bounded by a count, not by the clock: a clock that
   stands still must not hang the program; a reading takes 20 ns natively
   and well under a microsecond in a browser). */
static double one_step(void)
{
    double start = render_clock_seconds();
    for (long i = 0; i < 10000000L; ++i) {
        double now = render_clock_seconds();
        if (now != start)
            return now > start ? now - start : 0.0;
    }
    return 0.0;
}

double render_clock_step_seconds(void)
{
    static double step = -1.0;
    if (step < 0.0) {
        double least = 0.0;
        for (int k = 0; k < 3; ++k) {
            double s = one_step();
            if (s > 0.0 && (least == 0.0 || s < least))
                least = s;
        }
        step = least;
    }
    return step;
}

void render_format_us(double us, double step_us, char *buf, size_t size)
{
    if (!buf || size == 0)
        return;
    if (!isfinite(us) || us < 0.0)
        snprintf(buf, size, "-");
    else if (!(step_us > 1.0))
        snprintf(buf, size, msg("time.us"), us);
    else if (us < step_us)
        snprintf(buf, size, msg("time.under_us"), step_us);
    else
        snprintf(buf, size, msg("time.us_steps"), us, step_us);
}

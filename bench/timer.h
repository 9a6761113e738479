/* timer.h: a monotonic clock in seconds for the benchmarks, on POSIX
   (clock_gettime, CLOCK_MONOTONIC) and on Windows (QueryPerformanceCounter:
   mingw's clock_gettime lives in libwinpthread, and MSVC has none). */
#ifndef RP_BENCH_TIMER_H
#define RP_BENCH_TIMER_H

#ifdef _WIN32
#include <windows.h>
#else
#include <time.h>
#endif

static double bench_now_seconds(void)
{
#ifdef _WIN32
    LARGE_INTEGER freq, count;
    QueryPerformanceFrequency(&freq);
    QueryPerformanceCounter(&count);
    return (double)count.QuadPart / (double)freq.QuadPart;
#else
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
#endif
}

#endif /* RP_BENCH_TIMER_H */

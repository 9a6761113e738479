/* timer.h: the benchmarks' clocks, in seconds, on POSIX (clock_gettime)
   and on Windows (QueryPerformanceCounter, GetThreadTimes, GetProcessTimes:
   mingw's clock_gettime lives in libwinpthread, and MSVC has none).
   Wall time is what a user waits; CPU time is what a single-threaded part
   really costs on a loaded machine (wall time includes waiting for a core). */
#ifndef RP_BENCH_TIMER_H
#define RP_BENCH_TIMER_H

#ifdef _WIN32
#include <windows.h>
#else
#include <time.h>
#endif

static inline double bench_now_seconds(void)
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

#ifdef _WIN32
static inline double bench_filetime_seconds(FILETIME kernel, FILETIME user)
{
    ULARGE_INTEGER k, u;
    k.LowPart = kernel.dwLowDateTime;
    k.HighPart = kernel.dwHighDateTime;
    u.LowPart = user.dwLowDateTime;
    u.HighPart = user.dwHighDateTime;
    return (double)(k.QuadPart + u.QuadPart) * 1e-7;   /* 100 ns units */
}
#endif

/* CPU time of the calling thread */
static inline double bench_thread_cpu_seconds(void)
{
#ifdef _WIN32
    FILETIME created, exited, kernel, user;
    GetThreadTimes(GetCurrentThread(), &created, &exited, &kernel, &user);
    return bench_filetime_seconds(kernel, user);
#else
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
#endif
}

/* CPU time of every thread of the process (Embree builds with several) */
static inline double bench_process_cpu_seconds(void)
{
#ifdef _WIN32
    FILETIME created, exited, kernel, user;
    GetProcessTimes(GetCurrentProcess(), &created, &exited, &kernel, &user);
    return bench_filetime_seconds(kernel, user);
#else
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
#endif
}

#endif /* RP_BENCH_TIMER_H */

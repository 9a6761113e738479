/* stats.h: the benchmarks' medians. A figure is the median of repeated
   runs, so one run slowed by the machine's load does not move it. */
#ifndef RP_BENCH_STATS_H
#define RP_BENCH_STATS_H

#include <stdlib.h>

/* qsort's comparison for doubles, ascending (no subtraction: no overflow,
   no rounding to 0 of a small difference). */
static inline int bench_compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Sorts v[0..n) in place and returns its median: the middle value, or
   the mean of the two middle ones when n is even. n >= 1. */
static inline double bench_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, bench_compare_doubles);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

#endif

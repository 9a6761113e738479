/* ld_math.h: the few long double functions the tests' references use.
 *
 * Wine's MSVC-mode headers (scripts/windows --msvc) declare no fabsl,
 * sqrtl or fmaxl, so the references use these instead. Where long double
 * is wider than double (x87 on Linux), ld_sqrt keeps the extra digits by
 * one Newton step from double's square root. */
#ifndef RAYPICK_TESTS_LD_MATH_H
#define RAYPICK_TESTS_LD_MATH_H

#include <math.h>

static inline long double ld_abs(long double x) { return x < 0 ? -x : x; }

static inline long double ld_max(long double a, long double b) { return a > b ? a : b; }

/* sqrt(x) for x >= 0; 0 for x <= 0. */
static inline long double ld_sqrt(long double x)
{
    if (!(x > 0))
        return 0;
    const long double y = sqrt((double)x);
    return 0.5L * (y + x / y);
}

#endif

/*
 * simd.h: the one place that decides which SIMD code the library compiles;
 * not installed. Every SIMD path in src/lib tests these macros, never the
 * compiler's own, and each has a plain C twin that gives the same answers
 * (the *-portable tests build the library with RAYPICK_NO_SIMD).
 *
 *   RP_SIMD_SSE2  1: SSE2 intrinsics (<emmintrin.h>), compiled in. SSE2 is
 *                 the x86-64 baseline, so no run-time check is needed.
 *   RP_SIMD_AVX   1: an AVX twin of an SSE2 function may be compiled beside
 *                 it (marked RP_SIMD_TARGET_AVX) and chosen at run time
 *                 when rp_simd_has_avx() says the CPU has AVX.
 *
 * Only intrinsic headers are used, so another compiler or another run-time
 * choice (MSVC and __cpuid, AVX2) changes this file, not its users.
 * RAYPICK_NO_SIMD turns every path off; RAYPICK_NO_AVX only the AVX ones.
 */
#ifndef RAYPICK_SIMD_H
#define RAYPICK_SIMD_H

#include <stdbool.h>

/* gcc and clang say __SSE2__; MSVC says _M_X64, or _M_IX86_FP >= 2. */
#if !defined(RAYPICK_NO_SIMD) && \
    (defined(__SSE2__) || defined(_M_X64) || (defined(_M_IX86_FP) && _M_IX86_FP >= 2))
#include <emmintrin.h>
#define RP_SIMD_SSE2 1
#else
#define RP_SIMD_SSE2 0
#endif

/* An AVX function in an SSE2 build needs the compiler's per-function
   target attribute and __builtin_cpu_supports: gcc (6 and later) and
   clang have both, but not in MSVC mode (clang-cl: no runtime behind the
   builtin; a __cpuid check would go here). */
#if RP_SIMD_SSE2 && !defined(RAYPICK_NO_AVX) && (defined(__x86_64__) || defined(__i386__)) && \
    (defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 6)) && !defined(_MSC_VER)
#include <immintrin.h>
#define RP_SIMD_AVX 1
#define RP_SIMD_TARGET_AVX __attribute__((target("avx")))
#else
#define RP_SIMD_AVX 0
#define RP_SIMD_TARGET_AVX
#endif

/* Whether this CPU runs the RP_SIMD_AVX functions; false without them. */
static inline bool rp_simd_has_avx(void)
{
#if RP_SIMD_AVX
    return __builtin_cpu_supports("avx");
#else
    return false;
#endif
}

/* Asks for the cache line at p ahead of its use (a hint: the walks start
   loading a child's lines as soon as its box is hit, so misses overlap). */
#if defined(__GNUC__) || defined(__clang__)
#define RP_PREFETCH(p) __builtin_prefetch(p)
#elif RP_SIMD_SSE2
#define RP_PREFETCH(p) _mm_prefetch((const char *)(p), _MM_HINT_T0)
#else
#define RP_PREFETCH(p) ((void)(p))
#endif

#endif /* RAYPICK_SIMD_H */

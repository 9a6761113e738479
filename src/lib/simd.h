/*
 * simd.h: the one place that decides which SIMD code the library uses; not
 * installed. Every SIMD path in src/lib tests these macros, never the
 * compiler's own, and each has a plain C twin that gives the same answers.
 *
 * Two kinds of path:
 *
 *   compiled in  RP_SIMD_SSE2 1: SSE2 intrinsics (<emmintrin.h>) in the
 *                ordinary sources. SSE2 is the x86-64 baseline, so no
 *                run-time check is needed (the *-portable tests build the
 *                library with RAYPICK_NO_SIMD to test the C twins).
 *   run time     kernels for the ISAs above the baseline (AVX, AVX2,
 *                AVX-512) live in files of their own (name_avx.c,
 *                name_avx2.c, name_avx512.c), each compiled with its ISA's
 *                flag (-mavx2 for gcc and clang, /arch:AVX2 for MSVC:
 *                src/lib/meson.build) and called only when rp_simd_isa()
 *                says this CPU runs it. No function attributes, no
 *                compiler builtins: what MSVC compiles too. simd.c holds
 *                the table, one line per kernel.
 *
 *   RP_SIMD_DISPATCH  1: the run-time kernels exist. The build says it
 *                compiled them (RP_SIMD_KERNELS, which src/lib/meson.build
 *                defines on x86 together with the kernels' files) and the
 *                target has SSE2. RAYPICK_NO_SIMD turns every path off,
 *                RAYPICK_NO_AVX the run-time ones.
 *
 * At run time RAYPICK_SIMD=scalar|sse2|avx|avx2|avx512 in the environment
 * caps the level the table may pick (never above what the CPU runs): the
 * tests run every path on one machine that way.
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

#if RP_SIMD_SSE2 && defined(RP_SIMD_KERNELS) && !defined(RAYPICK_NO_AVX) && \
    (defined(__x86_64__) || defined(__i386__) || defined(_M_X64) || defined(_M_IX86))
#define RP_SIMD_DISPATCH 1
#else
#define RP_SIMD_DISPATCH 0
#endif

/* A kernel's file is compiled with its ISA's flag, and the compiler says
   so (gcc, clang and MSVC alike: /arch:AVX512 defines all five AVX-512
   macros). Only there do the 256- and 512-bit intrinsics get declared; a
   kernel file checks that its flag was given. */
#if RP_SIMD_DISPATCH && defined(__AVX__)
#define RP_SIMD_BUILT_AVX 1
#else
#define RP_SIMD_BUILT_AVX 0
#endif
#if RP_SIMD_BUILT_AVX && defined(__AVX2__)
#define RP_SIMD_BUILT_AVX2 1
#else
#define RP_SIMD_BUILT_AVX2 0
#endif
#if RP_SIMD_BUILT_AVX2 && defined(__AVX512F__) && defined(__AVX512CD__) && \
    defined(__AVX512BW__) && defined(__AVX512DQ__) && defined(__AVX512VL__)
#define RP_SIMD_BUILT_AVX512 1
#else
#define RP_SIMD_BUILT_AVX512 0
#endif
#if RP_SIMD_BUILT_AVX
#include <immintrin.h>
#endif

/* CPUID and XGETBV, to ask the CPU and the OS what runs. */
#if RP_SIMD_DISPATCH && defined(_MSC_VER)
#include <intrin.h>     /* __cpuidex; _xgetbv comes with it (immintrin.h) */
#include <immintrin.h>
#elif RP_SIMD_DISPATCH
#include <cpuid.h>
#endif

/* The instruction sets a kernel may need, in order: each level includes
   the ones below it. */
typedef enum rp_isa {
    RP_ISA_SCALAR = 0,  /* plain C */
    RP_ISA_SSE2 = 1,    /* x86-64's baseline */
    RP_ISA_AVX = 2,     /* AVX: 256-bit float */
    RP_ISA_AVX2 = 3,    /* AVX2 and FMA (x86-64-v3, MSVC's /arch:AVX2) */
    RP_ISA_AVX512 = 4   /* AVX-512 F, CD, BW, DQ, VL (x86-64-v4, /arch:AVX512) */
} rp_isa;

#define RP_ISA_COUNT 5

#if RP_SIMD_DISPATCH
/* cpuid(leaf, subleaf) into r[0..3] = eax, ebx, ecx, edx; zeros for a leaf
   above the CPU's highest. */
static inline void rp_simd_cpuid(unsigned leaf, unsigned sub, unsigned r[4])
{
#if defined(_MSC_VER)
    int max[4], regs[4] = {0, 0, 0, 0};
    __cpuidex(max, (int)(leaf & 0x80000000u), 0);
    if ((unsigned)max[0] >= leaf)
        __cpuidex(regs, (int)leaf, (int)sub);
    for (int i = 0; i < 4; i++)
        r[i] = (unsigned)regs[i];
#else
    r[0] = r[1] = r[2] = r[3] = 0;
    (void)__get_cpuid_count(leaf, sub, &r[0], &r[1], &r[2], &r[3]);
#endif
}

/* XCR0: which register states the OS saves on a context switch. */
static inline unsigned long long rp_simd_xcr0(void)
{
#if defined(_MSC_VER)
    return _xgetbv(0);
#else
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((unsigned long long)hi << 32) | lo;
#endif
}
#endif

/* The highest level this build has code for and this CPU and OS run
   (cpuid, xgetbv; no caching, no RAYPICK_SIMD: rp_simd_isa() adds both).
   An ISA counts only when the OS saves its registers (OSXSAVE and XCR0),
   as Intel's manual asks. */
static inline rp_isa rp_simd_detect_isa(void)
{
#if RP_SIMD_DISPATCH
    unsigned l1[4], l7[4];
    rp_simd_cpuid(1, 0, l1);
    rp_simd_cpuid(7, 0, l7);
    const bool osxsave = (l1[2] >> 27) & 1u;
    const unsigned long long xcr0 = osxsave ? rp_simd_xcr0() : 0;
    const bool ymm_saved = (xcr0 & 0x6u) == 0x6u;       /* XMM and YMM */
    const bool zmm_saved = (xcr0 & 0xE6u) == 0xE6u;     /* and opmask, ZMM */
    const bool avx = ymm_saved && ((l1[2] >> 28) & 1u);
    const bool avx2 = avx && ((l7[1] >> 5) & 1u) && ((l1[2] >> 12) & 1u);   /* + FMA */
    /* F (bit 16), DQ (17), CD (28), BW (30), VL (31) */
    const unsigned avx512_bits = (1u << 16) | (1u << 17) | (1u << 28) | (1u << 30) | (1u << 31);
    const bool avx512 = avx2 && zmm_saved && (l7[1] & avx512_bits) == avx512_bits;
    return avx512 ? RP_ISA_AVX512 : avx2 ? RP_ISA_AVX2 : avx ? RP_ISA_AVX : RP_ISA_SSE2;
#elif RP_SIMD_SSE2
    return RP_ISA_SSE2;
#else
    return RP_ISA_SCALAR;
#endif
}

/* The level the table picks kernels for: rp_simd_detect_isa(), capped by
   RAYPICK_SIMD when that names a level (anything else is ignored).
   Decided on the first call, then cached; safe from any thread. */
rp_isa rp_simd_isa(void);

/* "scalar", "sse2", "avx", "avx2", "avx512" (RAYPICK_SIMD's values); "?"
   for anything else. */
static inline const char *rp_simd_isa_name(rp_isa isa)
{
    static const char *const names[RP_ISA_COUNT] = {"scalar", "sse2", "avx", "avx2", "avx512"};
    return (unsigned)isa < RP_ISA_COUNT ? names[isa] : "?";
}

/* ---- the run-time kernels (simd.c picks them: one line each) ----------- */

#include "sphere_filter.h"

/* rp_intersect_ray_spheres' float pre-filter (sphere_filter.h). */
rp_sphere_filter_fn rp_simd_sphere_filter(void);

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

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
 *                defines on x86-64 together with the kernels' files) and
 *                the target has SSE2. RAYPICK_NO_SIMD turns every path
 *                off, RAYPICK_NO_AVX the run-time ones. In a kernel's
 *                file RP_SIMD_BUILT_AVX (_AVX2, _AVX512) says its flag
 *                was given.
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

/* The highest level this build has code for and this CPU and OS run
   (cpuid and xgetbv, in simd.c; no cache, no RAYPICK_SIMD). */
rp_isa rp_simd_detect_isa(void);

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

#include "bvh_bin.h"
#include "sphere_filter.h"

/* bvh_walk.h's job; that header includes this one (through bvh4.h), so
   its function type is here. */
struct rp_bvh_walk;
typedef void (*rp_bvh_walk_fn)(const struct rp_bvh_walk *w);

/* rp_intersect_ray_spheres' float pre-filter (sphere_filter.h). */
rp_sphere_filter_fn rp_simd_sphere_filter(void);

/* tri_filter.h's job: that header includes this one (through
   mesh_bvh.h), so its function type is here. */
struct rp_tri4;
struct rp_tri_ray;
typedef unsigned (*rp_tri_filter_fn)(const struct rp_tri4 *packs, uint32_t first, uint32_t count,
                                     const struct rp_tri_ray *r);

/* The mesh leaves' triangle filter (tri_filter.h). */
rp_tri_filter_fn rp_simd_tri_filter(void);

/* The BVH builder's binning (bvh_bin.h). */
rp_bvh_bin_fn rp_simd_bvh_bin(void);

/* A ray's walk of a wide tree (bvh_walk.h). */
rp_bvh_walk_fn rp_simd_bvh_walk(void);

/* bvh_refit.h's job, for the same reason: refits halves [from, to) of a
   wide tree and returns their weighted area. */
struct rp_bvh4_node;
typedef double (*rp_bvh_refit_fn)(struct rp_bvh4_node *nodes, uint32_t halves, uint32_t from,
                                  uint32_t to, const uint32_t *prims, const rp_bvh_box *boxes);

/* The refit of a wide tree's halves (bvh_refit.h). */
rp_bvh_refit_fn rp_simd_bvh_refit(void);

/* Asks for the cache line at p ahead of its use (a hint: the walks start
   loading a child's lines as soon as its box is hit, so misses overlap).
   On x86 an asm statement, not __builtin_prefetch: gcc 12's dead code
   elimination drops that builtin in the walks' helpers (mesh.c had no
   prefetch instruction left). */
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
#define RP_PREFETCH(p) __asm__ volatile("prefetcht0 %0" : : "m"(*(const char *)(p)))
#elif defined(__GNUC__) || defined(__clang__)
#define RP_PREFETCH(p) __builtin_prefetch(p)
#elif RP_SIMD_SSE2
#define RP_PREFETCH(p) _mm_prefetch((const char *)(p), _MM_HINT_T0)
#else
#define RP_PREFETCH(p) ((void)(p))
#endif

#endif /* RAYPICK_SIMD_H */

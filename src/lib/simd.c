/* simd.c: the run-time half of simd.h: which level this process uses
   (cpuid, capped by RAYPICK_SIMD, decided once) and the table that maps a
   level to each job's kernel. */
#include <stdlib.h>
#include <string.h>

#include "simd.h"
#include "bvh_refit.h"  /* the refit's kernels in the table */
#include "bvh_walk.h"   /* the walk's kernels in the table */
#include "tri_filter.h" /* the triangle filter's kernels in the table */
#include "thread_internal.h"

/* CPUID and XGETBV, to ask the CPU and the OS what runs: MSVC's
   intrinsics (clang-cl has them too), or gcc's and clang's <cpuid.h>. */
#if RP_SIMD_DISPATCH && defined(_MSC_VER)
#include <intrin.h>     /* __cpuidex */
#include <immintrin.h>  /* _xgetbv */
#elif RP_SIMD_DISPATCH
#include <cpuid.h>
#endif

#if RP_SIMD_DISPATCH
/* cpuid(leaf, subleaf) into r[0..3] = eax, ebx, ecx, edx; zeros for a leaf
   above the CPU's highest. */
static void cpuid(unsigned leaf, unsigned sub, unsigned r[4])
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
static unsigned long long xcr0(void)
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

/* An ISA counts only when the OS saves its registers (OSXSAVE and XCR0),
   as Intel's manual asks. */
rp_isa rp_simd_detect_isa(void)
{
#if RP_SIMD_DISPATCH
    unsigned l1[4], l7[4];
    cpuid(1, 0, l1);
    cpuid(7, 0, l7);
    const bool osxsave = (l1[2] >> 27) & 1u;
    const unsigned long long saved = osxsave ? xcr0() : 0;
    const bool ymm_saved = (saved & 0x6u) == 0x6u;       /* XMM and YMM */
    const bool zmm_saved = (saved & 0xE6u) == 0xE6u;     /* and opmask, ZMM */
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

/* The CPU's level, lowered to the one RAYPICK_SIMD names (if it names one). */
static rp_isa decide_isa(void)
{
    const rp_isa cpu = rp_simd_detect_isa();
    const char *cap = getenv("RAYPICK_SIMD");
    for (int i = 0; cap != NULL && i < RP_ISA_COUNT; i++) {
        if (strcmp(cap, rp_simd_isa_name((rp_isa)i)) == 0)
            return (rp_isa)i < cpu ? (rp_isa)i : cpu;
    }
    return cpu;
}

/* -1 until the first call. Threads that race there compute the same value,
   so a relaxed store is all the publishing it needs. */
static long cached_isa = -1;

rp_isa rp_simd_isa(void)
{
    long isa = rp_atomic_load_relaxed(&cached_isa);
    if (isa < 0) {
        isa = (long)decide_isa();
        rp_atomic_store_relaxed(&cached_isa, isa);
    }
    return (rp_isa)isa;
}

/* ---- the table ----------------------------------------------------------
 * One table per job, best kernel first: each entry is the level its
 * instructions need and the function. The getter returns the first entry
 * rp_simd_isa() reaches; the last entry of each is plain C (RP_ISA_SCALAR),
 * so there is always one. A new kernel is its file (name_avx2.c, listed
 * under its ISA in src/lib/meson.build) and one entry here; a new job is
 * its function type (as sphere_filter.h's), a table and a getter like
 * these, and the getter's line in simd.h. */

/* Returns the first function in TABLE whose level LEVEL reaches. */
#define RP_SIMD_PICK(table, level)                                       \
    do {                                                                 \
        const rp_isa level_ = (level);                                   \
        for (size_t k_ = 0; k_ < sizeof(table) / sizeof(table)[0]; k_++) \
            if ((table)[k_].isa <= level_)                               \
                return (table)[k_].fn;                                   \
    } while (0)

static const struct {
    rp_isa isa;
    rp_sphere_filter_fn fn;
} sphere_filters[] = {
#if RP_SIMD_DISPATCH
    {RP_ISA_AVX, rp_sphere_filter_avx},
#endif
#if RP_SIMD_SSE2
    {RP_ISA_SSE2, rp_sphere_filter_sse2},
#endif
    {RP_ISA_SCALAR, rp_sphere_filter_scalar},
};

rp_sphere_filter_fn rp_simd_sphere_filter(void)
{
    RP_SIMD_PICK(sphere_filters, rp_simd_isa());
    return rp_sphere_filter_scalar;
}

static const struct {
    rp_isa isa;
    rp_tri_filter_fn fn;
} tri_filters[] = {
#if RP_SIMD_DISPATCH
    {RP_ISA_AVX, rp_tri_filter_avx},
#endif
#if RP_SIMD_SSE2
    {RP_ISA_SSE2, rp_tri_filter_sse2},
#endif
    {RP_ISA_SCALAR, rp_tri_filter_scalar},
};

rp_tri_filter_fn rp_simd_tri_filter(void)
{
    RP_SIMD_PICK(tri_filters, rp_simd_isa());
    return rp_tri_filter_scalar;
}

static const struct {
    rp_isa isa;
    rp_bvh_bin_fn fn;
} bvh_bins[] = {
#if RP_SIMD_DISPATCH
    {RP_ISA_AVX2, rp_bvh_bin_avx2},
#endif
#if RP_SIMD_SSE2
    {RP_ISA_SSE2, rp_bvh_bin_sse2},
#endif
    {RP_ISA_SCALAR, rp_bvh_bin_scalar},
};

rp_bvh_bin_fn rp_simd_bvh_bin(void)
{
    RP_SIMD_PICK(bvh_bins, rp_simd_isa());
    return rp_bvh_bin_scalar;
}

static const struct {
    rp_isa isa;
    rp_bvh_walk_fn fn;
} bvh_walks[] = {
#if RP_SIMD_DISPATCH
    {RP_ISA_AVX2, rp_bvh_walk_avx2},
    {RP_ISA_AVX, rp_bvh_walk_avx},
#endif
    {RP_ISA_SCALAR, rp_bvh_walk_base},   /* SSE2 where compiled in (bvh4.h) */
};

rp_bvh_walk_fn rp_simd_bvh_walk(void)
{
    RP_SIMD_PICK(bvh_walks, rp_simd_isa());
    return rp_bvh_walk_base;
}

static const struct {
    rp_isa isa;
    rp_bvh_refit_fn fn;
} bvh_refits[] = {
#if RP_SIMD_DISPATCH
    {RP_ISA_AVX, rp_bvh_refit_avx},
#endif
    {RP_ISA_SCALAR, rp_bvh_refit_base},  /* SSE2 where compiled in (bvh_refit.h) */
};

rp_bvh_refit_fn rp_simd_bvh_refit(void)
{
    RP_SIMD_PICK(bvh_refits, rp_simd_isa());
    return rp_bvh_refit_base;
}

/* simd.c: the run-time half of simd.h: which level this process uses
   (cpuid, capped by RAYPICK_SIMD, decided once) and the table that maps a
   level to each job's kernel. */
#include <stdlib.h>
#include <string.h>

#include "simd.h"
#include "thread_internal.h"

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
 * under its ISA in src/lib/meson.build) and one entry here. */

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

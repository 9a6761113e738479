/* test_simd.c: the library's SIMD dispatch (src/lib/simd.h, simd.c).
 *
 *   - what cpuid says (rp_simd_detect_isa) against a second opinion: the
 *     compiler's own CPU check (gcc, clang) or Windows' (MSVC);
 *   - the RAYPICK_SIMD cap: meson runs this once per value (and once with
 *     a value that names no level, which is ignored);
 *   - the table: each job gets the kernel of the level in use;
 *   - every kernel this CPU runs against its plain C twin, bit for bit
 *     (the sphere filter, the mesh leaves' triangle filter, the BVH
 *     builder's binning, the ray's walk of a wide tree, its refit), and the walk's SSE2 ordering of a node's children
 *     against the insertion sort it replaces.
 *
 * Links the library's objects (raypick_internal_dep): the dispatch is
 * internal. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#if defined(_WIN32) && !(defined(__GNUC__) && !defined(_MSC_VER))
#include <windows.h>
#endif

#include "simd.h"
#include "bvh_build.h"
#include "bvh_refit.h"
#include "bvh_walk.h"
#include "tri_filter.h"
#include "triangle_internal.h"
#include "ref_quadric.h"

/* ---- cpuid against a second opinion ------------------------------------ */

/* A second opinion on the CPU's level, and the highest level it can tell
   apart (*ceiling): above it, it says "at least *ceiling". */
#if RP_SIMD_DISPATCH && defined(__GNUC__) && !defined(_MSC_VER)
/* gcc's and clang's runtime (libgcc, compiler-rt) ask cpuid and xgetbv
   themselves; the levels are simd.h's. */
static rp_isa second_opinion(const char **who, rp_isa *ceiling)
{
    *who = "__builtin_cpu_supports";
    *ceiling = RP_ISA_AVX512;
    __builtin_cpu_init();
    const bool avx = __builtin_cpu_supports("avx");
    const bool avx2 = avx && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    const bool avx512 = avx2 && __builtin_cpu_supports("avx512f") &&
                        __builtin_cpu_supports("avx512cd") && __builtin_cpu_supports("avx512bw") &&
                        __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
    return avx512 ? RP_ISA_AVX512 : avx2 ? RP_ISA_AVX2 : avx ? RP_ISA_AVX : RP_ISA_SSE2;
}
#elif RP_SIMD_DISPATCH && defined(_WIN32)
/* Windows says AVX, AVX2 and AVX-512 F (not FMA, not the other AVX-512
   parts): AVX2 is taken to come with FMA (every such CPU has both) and
   AVX-512 F with the rest (every CPU but Knights Landing). Where it does
   not report AVX-512 F (Windows before 10; Wine 8 never does) it tells
   levels apart only up to AVX2. */
static rp_isa second_opinion(const char **who, rp_isa *ceiling)
{
    *who = "IsProcessorFeaturePresent";
    const bool avx = IsProcessorFeaturePresent(PF_AVX_INSTRUCTIONS_AVAILABLE);
    const bool avx2 = avx && IsProcessorFeaturePresent(PF_AVX2_INSTRUCTIONS_AVAILABLE);
    const bool avx512 = avx2 && IsProcessorFeaturePresent(PF_AVX512F_INSTRUCTIONS_AVAILABLE);
    *ceiling = avx512 ? RP_ISA_AVX512 : RP_ISA_AVX2;
    return avx512 ? RP_ISA_AVX512 : avx2 ? RP_ISA_AVX2 : avx ? RP_ISA_AVX : RP_ISA_SSE2;
}
#else
/* No run-time kernels in this build: the baseline is all there is. */
static rp_isa second_opinion(const char **who, rp_isa *ceiling)
{
    *who = "the build's baseline";
    *ceiling = RP_ISA_AVX512;
    return RP_SIMD_SSE2 ? RP_ISA_SSE2 : RP_ISA_SCALAR;
}
#endif

static rp_isa at_most(rp_isa isa, rp_isa ceiling)
{
    return isa < ceiling ? isa : ceiling;
}

static void detect_agrees_with_a_second_opinion(void **state)
{
    (void)state;
    const char *who = NULL;
    rp_isa ceiling = RP_ISA_AVX512;
    const rp_isa expected = second_opinion(&who, &ceiling);
    const rp_isa got = rp_simd_detect_isa();
    print_message("cpuid: %s; %s: %s%s\n", rp_simd_isa_name(got), who, rp_simd_isa_name(expected),
                  ceiling < RP_ISA_AVX512 ? " (tells levels apart up to there)" : "");
    assert_int_equal(at_most(got, ceiling), expected);
    assert_int_equal(rp_simd_detect_isa(), got);   /* the same on every call */
}

/* ---- the RAYPICK_SIMD cap ------------------------------------------------ */

static void level_is_the_cpus_capped_by_the_environment(void **state)
{
    (void)state;
    const rp_isa cpu = rp_simd_detect_isa();
    const char *cap = getenv("RAYPICK_SIMD");
    rp_isa expected = cpu;
    for (int i = 0; cap != NULL && i < RP_ISA_COUNT; i++) {
        if (strcmp(cap, rp_simd_isa_name((rp_isa)i)) == 0 && (rp_isa)i < cpu)
            expected = (rp_isa)i;
    }
    print_message("RAYPICK_SIMD=%s: %s in use\n", cap ? cap : "(unset)",
                  rp_simd_isa_name(rp_simd_isa()));
    assert_int_equal(rp_simd_isa(), expected);
    assert_int_equal(rp_simd_isa(), expected);   /* cached: the same again */
}

static void names_are_the_levels(void **state)
{
    (void)state;
    const char *names[RP_ISA_COUNT] = {"scalar", "sse2", "avx", "avx2", "avx512"};
    for (int i = 0; i < RP_ISA_COUNT; i++)
        assert_string_equal(rp_simd_isa_name((rp_isa)i), names[i]);
    assert_string_equal(rp_simd_isa_name((rp_isa)RP_ISA_COUNT), "?");
    assert_string_equal(rp_simd_isa_name((rp_isa)-1), "?");
}

/* ---- the table ------------------------------------------------------------ */

static void table_gives_the_levels_kernel(void **state)
{
    (void)state;
    const rp_isa isa = rp_simd_isa();
    rp_sphere_filter_fn expected = rp_sphere_filter_scalar;
#if RP_SIMD_SSE2
    if (isa >= RP_ISA_SSE2)
        expected = rp_sphere_filter_sse2;
#endif
#if RP_SIMD_DISPATCH
    if (isa >= RP_ISA_AVX)
        expected = rp_sphere_filter_avx;
#endif
    assert_true(rp_simd_sphere_filter() == expected);
    rp_tri_filter_fn tri = rp_tri_filter_scalar;
#if RP_SIMD_SSE2
    if (isa >= RP_ISA_SSE2)
        tri = rp_tri_filter_sse2;
#endif
#if RP_SIMD_DISPATCH
    if (isa >= RP_ISA_AVX)
        tri = rp_tri_filter_avx;
#endif
    assert_true(rp_simd_tri_filter() == tri);
    rp_bvh_bin_fn bin = rp_bvh_bin_scalar;
#if RP_SIMD_SSE2
    if (isa >= RP_ISA_SSE2)
        bin = rp_bvh_bin_sse2;
#endif
#if RP_SIMD_DISPATCH
    if (isa >= RP_ISA_AVX2)
        bin = rp_bvh_bin_avx2;
#endif
    assert_true(rp_simd_bvh_bin() == bin);
    rp_bvh_walk_fn walk = rp_bvh_walk_base;
#if RP_SIMD_DISPATCH
    if (isa >= RP_ISA_AVX)
        walk = rp_bvh_walk_avx;
    if (isa >= RP_ISA_AVX2)
        walk = rp_bvh_walk_avx2;
#endif
    assert_true(rp_simd_bvh_walk() == walk);
    rp_bvh_refit_fn refit = rp_bvh_refit_base;
#if RP_SIMD_DISPATCH
    if (isa >= RP_ISA_AVX)
        refit = rp_bvh_refit_avx;
#endif
    assert_true(rp_simd_bvh_refit() == refit);
}

/* ---- the sphere filter's kernels against plain C ------------------------ */

/* Spheres where the filter's decisions are close, and its special cases:
   grazing and behind the origin, huge and denormal, NaN and infinity. */
static void fill_spheres(test_rng *g, const rp_sphere_filter_ray *rf, rp_sphere *s, size_t n)
{
    const float o[3] = {rf->ox, rf->oy, rf->oz}, u[3] = {rf->ux, rf->uy, rf->uz};
    for (size_t k = 0; k < n; k++) {
        const double t = rng_uniform(g, -50.0, 200.0);
        const double scale = rng_log(g, -3.0, 3.0);
        for (int a = 0; a < 3; a++) {
            const float along = o[a] + (float)t * u[a];
            s[k].center[a] = along + (float)(scale * rng_uniform(g, -1.0, 1.0));
        }
        s[k].radius = (float)(scale * rng_uniform(g, 0.0, 1.8));
        switch (rng_u32(g) % 16) {
        case 0: s[k].radius = NAN; break;
        case 1: s[k].center[rng_u32(g) % 3] = INFINITY; break;
        case 2: s[k].center[0] = 1e20f; break;                 /* beyond the trusted ff */
        case 3: s[k].radius = FLT_MIN * 0.5f; break;           /* denormal */
        case 4: s[k].radius = -s[k].radius; break;
        default: break;
        }
    }
}

typedef struct kernel {
    const char *name;
    rp_isa needs;
    rp_sphere_filter_fn fn;
} kernel;

static void sphere_kernels_match_plain_c_bit_for_bit(void **state)
{
    (void)state;
    const kernel kernels[] = {
#if RP_SIMD_SSE2
        {"sse2", RP_ISA_SSE2, rp_sphere_filter_sse2},
#endif
#if RP_SIMD_DISPATCH
        {"avx", RP_ISA_AVX, rp_sphere_filter_avx},
#endif
        {"(none)", RP_ISA_COUNT, NULL},   /* no empty array where neither exists */
    };
    const rp_isa cpu = rp_simd_detect_isa();
    static rp_sphere spheres[RP_FILTER_BLOCK];
    test_rng g = {0x51dd0001u};
    size_t rounds = 0, compared = 0, runnable = 0;
    for (size_t k = 0; k < sizeof kernels / sizeof kernels[0]; k++)
        runnable += kernels[k].needs <= cpu;
    for (int round = 0; round < 400; round++) {
        rp_sphere_filter_ray rf = {(float)rng_uniform(&g, -10, 10), (float)rng_uniform(&g, -10, 10),
                                   (float)rng_uniform(&g, -10, 10), 0, 0, 0};
        double u[3] = {rng_uniform(&g, -1, 1), rng_uniform(&g, -1, 1), rng_uniform(&g, -1, 1)};
        const double len = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
        if (len < 1e-3)
            continue;
        rf.ux = (float)(u[0] / len);
        rf.uy = (float)(u[1] / len);
        rf.uz = (float)(u[2] / len);
        /* every tail length, and a few starts (a multiple of four) */
        const size_t n = 1 + rng_u32(&g) % RP_FILTER_BLOCK;
        const size_t start = 4 * (rng_u32(&g) % 3);
        if (start >= n)
            continue;
        fill_spheres(&g, &rf, spheres, n);
        rounds++;

        unsigned char want[RP_FILTER_BLOCK / 4], got[RP_FILTER_BLOCK / 4];
        memset(want, 0xEE, sizeof want);
        const unsigned want_any = rp_sphere_filter_scalar(&rf, spheres, n, start, want);
        for (size_t k = 0; k < sizeof kernels / sizeof kernels[0]; k++) {
            if (kernels[k].needs > cpu)
                continue;
            memset(got, 0xEE, sizeof got);
            const unsigned got_any = kernels[k].fn(&rf, spheres, n, start, got);
            if (memcmp(got, want, sizeof want) != 0 || (got_any != 0) != (want_any != 0))
                fail_msg("%s kernel differs from plain C: round %d, n %lu, start %lu",
                         kernels[k].name, round, (unsigned long)n, (unsigned long)start);
            compared++;
        }
    }
    for (size_t k = 0; k + 1 < sizeof kernels / sizeof kernels[0]; k++) {
        if (kernels[k].needs > cpu)
            print_message("the %s kernel was not run: this CPU lacks it\n", kernels[k].name);
    }
    assert_true(rounds > 200);
    assert_int_equal(compared, rounds * runnable);
}

/* ---- the mesh leaves' triangle filter against plain C --------------------- */

/* Packets of triangles around the ray: about half straddle it, some
   have a corner or an edge on it (edge functions of exactly 0), some
   coordinates are huge (products that overflow), a few NaN. */
static void fill_packets(test_rng *g, const rp_ray *ray, rp_tri4 *packs, int n)
{
    for (int p = 0; p < n; p++)
        for (int lane = 0; lane < RP_TRI4_LANES; lane++) {
            const double t = rng_uniform(g, 0.5, 20.0), size = rng_uniform(g, 0.01, 3.0);
            const int kind = (int)(rng_u32(g) % 12);
            for (int k = 0; k < 3; k++)
                for (int a = 0; a < 3; a++) {
                    double c = ray->origin[a] + t * ray->dir[a] + size * rng_uniform(g, -1, 1);
                    if (kind == 0 && k == 0)   /* a corner on the ray */
                        c = ray->origin[a] + 2.0 * ray->dir[a];
                    if (kind == 1 && k < 2)    /* an edge along the ray */
                        c = ray->origin[a] + (k + 1.0) * ray->dir[a];
                    if (kind == 2)
                        c *= 1e30;
                    packs[p].v[3 * k + a][lane] = (float)c;
                }
            if (kind == 3)
                packs[p].v[rng_u32(g) % 9][lane] = NAN;
            packs[p].index[lane] = (uint32_t)(4 * p + lane);
        }
}

typedef struct tri_kernel {
    const char *name;
    rp_isa needs;
    rp_tri_filter_fn fn;
} tri_kernel;

static void tri_filter_kernels_match_plain_c_bit_for_bit(void **state)
{
    (void)state;
    const tri_kernel kernels[] = {
#if RP_SIMD_SSE2
        {"sse2", RP_ISA_SSE2, rp_tri_filter_sse2},
#endif
#if RP_SIMD_DISPATCH
        {"avx", RP_ISA_AVX, rp_tri_filter_avx},
#endif
        {"(none)", RP_ISA_COUNT, NULL},
    };
    const rp_isa cpu = rp_simd_detect_isa();
    test_rng g = {0x7a1f0001u};
    int rounds = 0, compared = 0, runnable = 0, dropped = 0, kept = 0;
    for (size_t k = 0; k < sizeof kernels / sizeof kernels[0]; k++)
        runnable += kernels[k].needs <= cpu;
    for (int round = 0; round < 3000; round++) {
        rp_ray ray = {{(float)rng_uniform(&g, -10, 10), (float)rng_uniform(&g, -10, 10),
                       (float)rng_uniform(&g, -10, 10)},
                      {(float)rng_uniform(&g, -1, 1), (float)rng_uniform(&g, -1, 1),
                       (float)rng_uniform(&g, -1, 1)}};
        if (round % 7 == 0)
            ray.dir[round % 3] = 0.0f;   /* axis-aligned ones too */
        if (!rp_ray_is_valid(&ray))
            continue;
        rp_tri_ray tr;
        rp_tri_ray_setup(&ray, &tr);
        /* a leaf's slots: 1 to 16 of them, in as few packets as they need
           (mesh_bvh.c's rule), from any lane where that allows */
        const uint32_t count = 1 + rng_u32(&g) % RP_TRI_FILTER_SLOTS;
        const uint32_t lane = rng_u32(&g) % (RP_TRI4_LANES - (count - 1) % RP_TRI4_LANES);
        const uint32_t first = RP_TRI4_LANES * 3 + lane;   /* the leaf starts in packet 3 of 7 */
        rp_tri4 all[7];
        fill_packets(&g, &ray, all, 7);
        assert_true(rp_tri_filter_packets(first, count) <= 4);
        const unsigned want = rp_tri_filter_scalar(all, first, count, &tr);
        assert_int_equal(want & ~rp_tri_filter_lanes(first, count), 0);
        /* what the filter drops, the exact test rejects */
        for (uint32_t j = 0; j < 16; j++) {
            if (!((rp_tri_filter_lanes(first, count) >> j) & 1u))
                continue;
            const rp_tri4 *pk = &all[3 + j / 4];
            float v[9];
            for (int c = 0; c < 9; c++)
                v[c] = pk->v[c][j % 4];
            if ((want >> j) & 1u) {
                kept++;
                continue;
            }
            dropped++;
            rp_tri_result res;
            if (!rp_tri_is_degenerate(v, v + 3, v + 6) && rp_tri_intersect(&tr, v, v + 3, v + 6, &res))
                fail_msg("round %d: slot %u dropped, but the exact test hits it", round, j);
        }
        rounds++;
        for (size_t k = 0; k < sizeof kernels / sizeof kernels[0]; k++) {
            if (kernels[k].needs > cpu)
                continue;
            const unsigned got = kernels[k].fn(all, first, count, &tr);
            if (got != want)
                fail_msg("%s kernel differs from plain C: round %d, first %u, count %u: %#x, not %#x",
                         kernels[k].name, round, first, count, got, want);
            compared++;
        }
    }
    for (size_t k = 0; k + 1 < sizeof kernels / sizeof kernels[0]; k++)
        if (kernels[k].needs > cpu)
            print_message("the %s kernel was not run: this CPU lacks it\n", kernels[k].name);
    assert_true(rounds > 2500);
    assert_true(dropped > 1000 && kept > 1000);   /* both ways, often */
    assert_int_equal(compared, rounds * runnable);
}

/* ---- the BVH builder's binning against plain C ---------------------------- */

/* Boxes of every size and place the builder meets: huge and tiny,
   zero-sized, far outside the binned range (clamped to the end bins),
   and coordinates near FLT_MAX whose centroid sums overflow. */
static void fill_prims(test_rng *g, rp_bvh_prim *p, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        const double scale = rng_log(g, -6.0, 6.0);
        for (int a = 0; a < 3; a++) {
            const float c = (float)(scale * rng_uniform(g, -1.0, 1.0));
            const float h = (float)(scale * rng_uniform(g, 0.0, 0.5));
            p[i].min[a] = c - h;
            p[i].max[a] = c + h;
        }
        switch (rng_u32(g) % 12) {
        case 0: p[i].max[rng_u32(g) % 3] = p[i].min[0] = p[i].max[0]; break;   /* flat */
        case 1: p[i].min[1] = -FLT_MAX; p[i].max[1] = FLT_MAX; break;          /* huge */
        case 2: p[i].min[2] = p[i].max[2] = 0x1p-140f; break;                  /* denormal */
        default: break;
        }
        p[i].obj = rng_u32(g);      /* the lanes the bins do not use */
        p[i].tag = rng_u32(g);
    }
}

/* The used lanes of bins [0, nb) of every axis, and the counts. */
static bool same_bins(const rp_bvh_bins *a, const rp_bvh_bins *b, int nb)
{
    for (int axis = 0; axis < 3; axis++)
        for (int k = 0; k < nb; k++) {
            if (a->count[axis][k] != b->count[axis][k])
                return false;
            for (int i = 0; i < 8; i++)
                if (i % 4 != 3 &&
                    (memcmp(&a->bin[axis][k].box[i], &b->bin[axis][k].box[i], sizeof(float)) != 0 ||
                     memcmp(&a->bin[axis][k].cent[i], &b->bin[axis][k].cent[i], sizeof(float)) != 0))
                    return false;
        }
    return true;
}

typedef struct bin_kernel {
    const char *name;
    rp_isa needs;
    rp_bvh_bin_fn fn;
} bin_kernel;

static void bvh_bin_kernels_match_plain_c_bit_for_bit(void **state)
{
    (void)state;
    const bin_kernel kernels[] = {
#if RP_SIMD_SSE2
        {"sse2", RP_ISA_SSE2, rp_bvh_bin_sse2},
#endif
#if RP_SIMD_DISPATCH
        {"avx2", RP_ISA_AVX2, rp_bvh_bin_avx2},
#endif
        {"(none)", RP_ISA_COUNT, NULL},
    };
    const rp_isa cpu = rp_simd_detect_isa();
    enum { most = 3000 };
    static rp_bvh_prim prims[most];
    static rp_bvh_bins want, got;
    test_rng g = {0xb1b5u};
    size_t compared = 0, runnable = 0;
    for (size_t k = 0; k + 1 < sizeof kernels / sizeof kernels[0]; k++)
        runnable += kernels[k].needs <= cpu;
    for (int round = 0; round < 300; round++) {
        const uint32_t n = 1 + rng_u32(&g) % most;
        fill_prims(&g, prims, n);
        rp_bvh_binning bn;
        bn.bins = 2 + (int)(rng_u32(&g) % (RP_BVH_BINS - 1));
        for (int a = 0; a < 4; a++) {
            /* a range around part of the boxes: the rest clamps */
            bn.cmin[a] = a < 3 ? (float)rng_uniform(&g, -1e3, 0) : 0.0f;
            bn.scale[a] = a < 3 && rng_u32(&g) % 5 ? (float)rng_log(&g, -4.0, 1.0) : 0.0f;
        }
        const uint32_t stride = 1 + rng_u32(&g) % 4;
        rp_bvh_bin_scalar(prims, n, stride, &bn, &want);
        uint32_t binned = 0;
        for (int k = 0; k < bn.bins; k++)
            binned += want.count[0][k];
        assert_int_equal(binned, (n + stride - 1) / stride);
        for (size_t k = 0; k + 1 < sizeof kernels / sizeof kernels[0]; k++) {
            if (kernels[k].needs > cpu)
                continue;
            memset(&got, 0xEE, sizeof got);
            kernels[k].fn(prims, n, stride, &bn, &got);
            if (!same_bins(&want, &got, bn.bins))
                fail_msg("%s binning differs from plain C: round %d, n %u, stride %u, %d bins",
                         kernels[k].name, round, (unsigned)n, (unsigned)stride, bn.bins);
            compared++;
        }
    }
    for (size_t k = 0; k + 1 < sizeof kernels / sizeof kernels[0]; k++)
        if (kernels[k].needs > cpu)
            print_message("the %s binning was not run: this CPU lacks it\n", kernels[k].name);
    assert_int_equal(compared, 300 * runnable);
}

/* ---- the walk's kernels against the baseline walk ---------------------- */

/* What a walk told its callbacks, in order: each leaf tested (first,
   count) and each leaf pushed (~first, count). */
enum { WALK_LOG = 4096 };
typedef struct walk_log {
    uint32_t entry[WALK_LOG][2];
    size_t   n;         /* may pass WALK_LOG: only the first are kept */
    float    t_max;
    float    scale;     /* the ray's distances through the boxes */
    uint32_t seed;
} walk_log;

static void log_entry(walk_log *log, uint32_t a, uint32_t b)
{
    if (log->n < WALK_LOG) {
        log->entry[log->n][0] = a;
        log->entry[log->n][1] = b;
    }
    log->n++;
}

/* A leaf "hits" at a distance drawn from its first entry and the seed
   (up to `scale`), one leaf in three: the walk's t_max shrinks as a
   query's would, and prunes. */
static float log_leaf(void *user, uint32_t first, uint32_t count)
{
    walk_log *log = user;
    log_entry(log, first, count);
    uint32_t h = (first + 1u) * 2654435761u ^ log->seed;
    h ^= h >> 15;
    if (h % 3 == 0) {
        const float t = (float)(h >> 8) * 0x1p-24f * log->scale;
        if (t < log->t_max)
            log->t_max = t;
    }
    return log->t_max;
}

static void log_prefetch(void *user, uint32_t first, uint32_t count)
{
    log_entry(user, ~first, count);
}

static bool same_log(const walk_log *a, const walk_log *b)
{
    if (a->n != b->n || a->t_max != b->t_max)
        return false;
    const size_t n = a->n < WALK_LOG ? a->n : WALK_LOG;
    return memcmp(a->entry, b->entry, n * sizeof a->entry[0]) == 0;
}

/* A ray from around the boxes, now and then along an axis (zero
   components: infinite inverses, NaN slabs). */
static rp_ray random_walk_ray(test_rng *g, double extent)
{
    rp_ray ray;
    for (int a = 0; a < 3; a++) {
        ray.origin[a] = (float)rng_uniform(g, -1.5 * extent, 1.5 * extent);
        ray.dir[a] = (float)rng_uniform(g, -1.0, 1.0);
    }
    if (rng_u32(g) % 4 == 0)
        ray.dir[rng_u32(g) % 3] = 0.0f;
    if (rng_u32(g) % 8 == 0) {
        const int keep = (int)(rng_u32(g) % 3);
        for (int a = 0; a < 3; a++)
            ray.dir[a] = a == keep ? (rng_u32(g) % 2 ? 1.0f : -1.0f) : 0.0f;
    }
    return ray;
}

#if RP_SIMD_DISPATCH
/* The kernels' node tests (bvh_walk.h), each with the level it needs. */
typedef int (*node_test_fn)(const rp_bvh4_node *n, uint32_t halves, const rp_bvh4_ray *ray,
                            float t_max, float t_enter[RP_BVH8_SLOTS]);
static const struct {
    const char  *name;
    rp_isa       needs;
    node_test_fn fn;
} node_tests[] = {{"avx", RP_ISA_AVX, rp_bvh_enter_avx}, {"avx2", RP_ISA_AVX2, rp_bvh_enter_avx2}};
#endif

/* The AVX and AVX2 node tests against rp_bvh4_enter per half on up to 16
   of the tree's nodes, with t_max set to one of the distances the ray
   enters at (where <= and < part), or -0, or -1 (an any-hit walk's
   stop): mask and every used slot's t_enter, bit for bit. Returns the
   nodes compared (0 where this CPU has no AVX). */
static size_t compare_node_tests(const rp_bvh *bvh, const rp_bvh4_ray *ray, test_rng *g,
                                 rp_isa cpu, int tree, int r)
{
    size_t compared = 0;
#if RP_SIMD_DISPATCH
    if (cpu < RP_ISA_AVX)
        return 0;
    for (int k = 0; k < 16; k++) {
        /* the root, or any half as a node of one half */
        const uint32_t i = rng_u32(g) % bvh->node_count;
        const uint32_t ref = rng_u32(g) % 4 ? rp_bvh4_root(bvh->halves)
                             : bvh->halves == 2 ? rp_bvh8_ref(i, false) : i;
        const uint32_t first = rp_bvh4_child_first(ref, bvh->halves);
        uint32_t halves = rp_bvh4_child_halves(ref, bvh->halves);
        if (first + halves > bvh->node_count)
            halves = 1;
        /* a copy, some bounds of used slots moved onto the ray's shifted
           origin: slabs of 0 (and 0 times an infinite inverse: NaN, which
           the max and min must skip in the same operand order); empty
           slots keep their inverted boxes, as in every tree (test_scene's
           check_bvh4), which the AVX2 test counts on */
        rp_bvh4_node n[2];
        memcpy(n, &bvh->nodes[first], halves * sizeof n[0]);
        for (int moved = (int)(rng_u32(g) % 4); moved > 0; moved--) {
            const uint32_t h = rng_u32(g) % halves, lane = rng_u32(g) % 4;
            const int a = (int)(rng_u32(g) % 3);
            if (n[h].child[lane] == RP_BVH4_EMPTY)
                continue;
            n[h].b[ray->near_row[a]][lane] = ray->o_near[a];
            if (rng_u32(g) % 2)
                n[h].b[ray->far_row[a]][lane] = ray->o_far[a];
        }
        float want[RP_BVH8_SLOTS], got[RP_BVH8_SLOTS], t_max = INFINITY;
        int want_mask = 0;
        for (int pass = 0; pass < 2; pass++) {
            want_mask = 0;
            for (uint32_t h = 0; h < halves; h++)
                want_mask |= rp_bvh4_enter(&n[h], ray, t_max, want + 4 * h) << (4 * h);
            if (pass == 0 && want_mask != 0) {
                int s = 0;
                while (!((want_mask >> s) & 1))
                    s++;
                t_max = want[s] * (rng_u32(g) % 2 ? 1.0f : 0.5f);   /* a tie, or a cut */
                if (rng_u32(g) % 8 == 0)
                    t_max = rng_u32(g) % 2 ? -0.0f : -1.0f;
            }
        }
        for (size_t k = 0; k < sizeof node_tests / sizeof node_tests[0]; k++) {
            if (node_tests[k].needs > cpu)
                continue;
            const int got_mask = node_tests[k].fn(n, halves, ray, t_max, got);
            if (got_mask != want_mask)
                fail_msg("the %s node test's mask differs: tree %d, ray %d, %#x against %#x",
                         node_tests[k].name, tree, r, (unsigned)got_mask, (unsigned)want_mask);
            for (int s = 0; s < (int)(4 * halves); s++)
                if (((want_mask >> s) & 1) && memcmp(&want[s], &got[s], sizeof want[s]) != 0)
                    fail_msg("the %s node test's t_enter differs: tree %d, ray %d, slot %d",
                             node_tests[k].name, tree, r, s);
        }
        compared++;
    }
#else
    (void)bvh;
    (void)ray;
    (void)g;
    (void)cpu;
    (void)tree;
    (void)r;
#endif
    return compared;
}

/* rp_bvh4_order_keys (SSE2: each key placed at its rank) against the
   insertion sort it replaces, on every kind of entry distance a node
   test gives: ties (the slot decides), +0 and -0 (-0's bits sort last,
   as unsigned), subnormals, infinity, distances that differ only in the
   three bits a key drops; nodes of one half leave slots 4-7 unwritten
   (here: NaN bits, which must not matter). */
static int bits_set(int mask)
{
    int n = 0;
    for (; mask != 0; mask &= mask - 1)
        n++;
    return n;
}

static void order_keys_match_the_insertion_sort(void **state)
{
    (void)state;
    test_rng g = {0x0dde5u};
    const float pool[] = {0.0f, -0.0f, 1e-45f, 1e-40f, 1.0f, 1.0000001f, 1.0000002f, 2.0f,
                          100.0f, 3.4e38f, INFINITY};
    const int pooled = (int)(sizeof pool / sizeof pool[0]);
    size_t sorted = 0;
    for (int c = 0; c < 200000; c++) {
        const bool one_half = rng_u32(&g) % 4 == 0;
        const int mask = (int)(1 + rng_u32(&g) % (one_half ? 15 : 255));
        float t_enter[RP_BVH8_SLOTS];
        for (int s = 0; s < RP_BVH8_SLOTS; s++)
            t_enter[s] = rng_u32(&g) % 3 ? pool[rng_u32(&g) % (uint32_t)pooled]
                                         : (float)rng_uniform(&g, 0.0, 1000.0);
        if (one_half)
            for (int s = 4; s < RP_BVH8_SLOTS; s++)
                t_enter[s] = NAN;
        uint32_t want[RP_BVH8_SLOTS], got[RP_BVH8_SLOTS];
        const int k_want = rp_bvh4_order_keys_insertion(mask, t_enter, want);
        const int k_got = rp_bvh4_order_keys(mask, t_enter, got);
        if (k_got != k_want)
            fail_msg("case %d: %d keys against %d (mask %#x)", c, k_got, k_want, (unsigned)mask);
        for (int j = 0; j < k_want; j++)
            if (got[j] != want[j])
                fail_msg("case %d (mask %#x): key %d is %#x, the insertion sort's %#x", c,
                         (unsigned)mask, j, (unsigned)got[j], (unsigned)want[j]);
        sorted += k_want >= 3;
        /* the network for three (the walk's), on this mask's lowest three */
        int three = mask;
        while (bits_set(three) > 3)
            three &= three - 1;
        if (bits_set(three) == 3) {
            uint32_t net[3];
            rp_bvh4_order3_keys(three, t_enter, net);
            rp_bvh4_order_keys_insertion(three, t_enter, want);
            for (int j = 0; j < 3; j++)
                if (net[j] != want[j])
                    fail_msg("case %d (mask %#x): the network's key %d is %#x, the insertion "
                             "sort's %#x", c, (unsigned)three, j, (unsigned)net[j],
                             (unsigned)want[j]);
        }
    }
    assert_true(sorted > 100000);   /* most cases order three or more */
}

/* n boxes of sizes over several magnitudes in [-extent, extent]^3, some
   flat, and a tree over them: a scene's wide tree, every third
   (tree % 3 == 2) a four-wide one with leaves of up to 8 (a leaf slot of
   several entries). */
static void random_tree(test_rng *g, uint32_t n, double extent, int tree, rp_bvh_box *boxes,
                        uint32_t *tags, rp_bvh *bvh)
{
    for (uint32_t i = 0; i < n; i++) {
        const double size = extent * rng_log(g, -4.0, -0.5);
        for (int a = 0; a < 3; a++) {
            const float c = (float)rng_uniform(g, -extent, extent);
            const float h = (float)rng_uniform(g, 0.0, size);
            boxes[i].min[a] = c - h;
            boxes[i].max[a] = rng_u32(g) % 16 ? c + h : c - h;   /* some flat */
        }
        tags[i] = i;
    }
    const rp_bvh_shape four_wide = {8, 1.0, 0, true, 0, 1};
    assert_true(tree % 3 == 2 ? rp_bvh_build_shaped(boxes, n, &four_wide, bvh)
                              : rp_bvh_build_tagged(boxes, tags, n, bvh));
}

typedef struct walk_kernel {
    const char *name;
    rp_isa needs;
    rp_bvh_walk_fn fn;
} walk_kernel;

static void bvh_walk_kernels_match_the_baseline_bit_for_bit(void **state)
{
    (void)state;
    const walk_kernel kernels[] = {
#if RP_SIMD_DISPATCH
        {"avx", RP_ISA_AVX, rp_bvh_walk_avx},
        {"avx2", RP_ISA_AVX2, rp_bvh_walk_avx2},
#endif
        {"(none)", RP_ISA_COUNT, NULL},
    };
    const rp_isa cpu = rp_simd_detect_isa();
    enum { most = 3000, trees = 40, rays = 200 };
    static rp_bvh_box boxes[most];
    static uint32_t tags[most];
    static walk_log want, got;
    test_rng g = {0x3a1cu};
    size_t compared = 0, runnable = 0, leaves = 0, nodes_compared = 0;
    for (size_t k = 0; k + 1 < sizeof kernels / sizeof kernels[0]; k++)
        runnable += kernels[k].needs <= cpu;
    for (int tree = 0; tree < trees; tree++) {
        const uint32_t n = 1 + rng_u32(&g) % most;
        const double extent = rng_log(&g, -3.0, 4.0);
        rp_bvh bvh;
        random_tree(&g, n, extent, tree, boxes, tags, &bvh);
        rp_bvh_box root;
        assert_true(rp_bvh4_bounds(bvh.nodes, bvh.node_count, bvh.halves, &root));
        float max_abs = 0.0f;
        for (int a = 0; a < 3; a++)
            max_abs = fmaxf(max_abs, fmaxf(fabsf(root.min[a]), fabsf(root.max[a])));
        for (int r = 0; r < rays; r++) {
            rp_ray ray = random_walk_ray(&g, extent);
            float scale = 4.0f * (float)extent;   /* |dir| <= sqrt(3) */
            if (r % 2 == 0) {   /* aimed at a box's centre: t = 1 there */
                const rp_bvh_box *b = &boxes[rng_u32(&g) % n];
                for (int a = 0; a < 3; a++)
                    ray.dir[a] = 0.5f * (b->min[a] + b->max[a]) - ray.origin[a];
                scale = 2.0f;
            }
            rp_bvh4_ray box_ray;
            rp_bvh4_ray_setup(&ray, max_abs, &box_ray);
            const float t_max = rng_u32(&g) % 4 ? INFINITY : (float)rng_uniform(&g, 0.0, extent);
            nodes_compared += compare_node_tests(&bvh, &box_ray, &g, cpu, tree, r);
            const uint32_t seed = rng_u32(&g);
            want.n = 0;
            want.t_max = t_max;
            want.scale = scale;
            want.seed = seed;
            rp_bvh_walk w = {bvh.nodes, bvh.halves, &box_ray, t_max, log_leaf, &want, log_prefetch};
            rp_bvh_walk_base(&w);
            for (size_t e = 0; e < want.n && e < WALK_LOG; e++)
                leaves += want.entry[e][0] < ~want.entry[e][0];   /* a leaf tested */
            for (size_t k = 0; k + 1 < sizeof kernels / sizeof kernels[0]; k++) {
                if (kernels[k].needs > cpu)
                    continue;
                got.n = 0;
                got.t_max = t_max;
                got.scale = scale;
                got.seed = seed;
                w.user = &got;
                kernels[k].fn(&w);
                if (!same_log(&want, &got))
                    fail_msg("the %s walk differs from the baseline: tree %d (%u boxes), ray %d",
                             kernels[k].name, tree, (unsigned)n, r);
                compared++;
            }
        }
        rp_bvh_free(&bvh);
    }
    for (size_t k = 0; k + 1 < sizeof kernels / sizeof kernels[0]; k++)
        if (kernels[k].needs > cpu)
            print_message("the %s walk was not run: this CPU lacks it\n", kernels[k].name);
    assert_int_equal(compared, (size_t)trees * rays * runnable);
    assert_true(leaves > (size_t)trees * rays / 2);   /* the aimed rays meet boxes */
#if RP_SIMD_DISPATCH
    if (cpu >= RP_ISA_AVX)
        assert_true(nodes_compared > (size_t)trees * rays);
#endif
    (void)nodes_compared;
}

/* ---- the refit's kernels against the baseline --------------------------- */

typedef struct refit_kernel {
    const char *name;
    rp_isa needs;
    rp_bvh_refit_fn fn;
} refit_kernel;

/* Each refit kernel this CPU runs writes the baseline's boxes and returns
   its sum, bit for bit: trees of one to 3,000 boxes (scene trees and
   four-wide ones of several entries a leaf slot), the boxes then moved,
   grown, shrunk or made flat; the whole tree, then a range of it. */
static void bvh_refit_kernels_match_the_baseline_bit_for_bit(void **state)
{
    (void)state;
    const refit_kernel kernels[] = {
#if RP_SIMD_DISPATCH
        {"avx", RP_ISA_AVX, rp_bvh_refit_avx},
#endif
        {"(none)", RP_ISA_COUNT, NULL},
    };
    const rp_isa cpu = rp_simd_detect_isa();
    enum { most = 3000, trees = 60 };
    static rp_bvh_box boxes[most];
    static uint32_t tags[most];
    test_rng g = {0x7e51u};
    size_t compared = 0, runnable = 0, changed = 0;
    for (size_t k = 0; k + 1 < sizeof kernels / sizeof kernels[0]; k++)
        runnable += kernels[k].needs <= cpu;
    for (int tree = 0; tree < trees; tree++) {
        const uint32_t n = 1 + rng_u32(&g) % most;
        const double extent = rng_log(&g, -3.0, 4.0);
        rp_bvh bvh;
        random_tree(&g, n, extent, tree, boxes, tags, &bvh);
        for (uint32_t i = 0; i < n; i++) {      /* the objects move */
            const float d = (float)rng_uniform(&g, -0.1 * extent, 0.1 * extent);
            const float grow = (float)rng_log(&g, -2.0, 0.5);
            for (int a = 0; a < 3; a++) {
                const float c = 0.5f * (boxes[i].min[a] + boxes[i].max[a]) + d;
                const float h = 0.5f * (boxes[i].max[a] - boxes[i].min[a]) * grow;
                boxes[i].min[a] = c - h;
                boxes[i].max[a] = rng_u32(&g) % 16 ? c + h : c - h;
            }
        }
        const size_t bytes = (size_t)bvh.node_count * sizeof *bvh.nodes;
        rp_bvh4_node *want = malloc(bytes), *got = malloc(bytes);
        assert_non_null(want);
        assert_non_null(got);
        /* the whole tree, then halves [from, to) of the refitted one */
        const uint32_t from = rng_u32(&g) % bvh.node_count;
        const uint32_t to = from + 1 + rng_u32(&g) % (bvh.node_count - from);
        memcpy(want, bvh.nodes, bytes);
        const double want_all = rp_bvh_refit_base(want, bvh.halves, 0, bvh.node_count, bvh.prims,
                                                  boxes);
        changed += memcmp(want, bvh.nodes, bytes) != 0;
        const double want_range = rp_bvh_refit_base(want, bvh.halves, from, to, bvh.prims, boxes);
        for (size_t k = 0; k + 1 < sizeof kernels / sizeof kernels[0]; k++) {
            if (kernels[k].needs > cpu)
                continue;
            memcpy(got, bvh.nodes, bytes);
            const double got_all = kernels[k].fn(got, bvh.halves, 0, bvh.node_count, bvh.prims,
                                                 boxes);
            const double got_range = kernels[k].fn(got, bvh.halves, from, to, bvh.prims, boxes);
            if (memcmp(&got_all, &want_all, sizeof got_all) != 0 ||
                memcmp(&got_range, &want_range, sizeof got_range) != 0 ||
                memcmp(got, want, bytes) != 0)
                fail_msg("the %s refit differs from the baseline: tree %d (%u boxes, %u halves)",
                         kernels[k].name, tree, (unsigned)n, (unsigned)bvh.node_count);
            compared++;
        }
        free(want);
        free(got);
        rp_bvh_free(&bvh);
    }
    for (size_t k = 0; k + 1 < sizeof kernels / sizeof kernels[0]; k++)
        if (kernels[k].needs > cpu)
            print_message("the %s refit was not run: this CPU lacks it\n", kernels[k].name);
    assert_int_equal(compared, (size_t)trees * runnable);
    assert_true(changed > trees / 2);     /* the moves changed the boxes */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(detect_agrees_with_a_second_opinion),
        cmocka_unit_test(level_is_the_cpus_capped_by_the_environment),
        cmocka_unit_test(names_are_the_levels),
        cmocka_unit_test(table_gives_the_levels_kernel),
        cmocka_unit_test(sphere_kernels_match_plain_c_bit_for_bit),
        cmocka_unit_test(tri_filter_kernels_match_plain_c_bit_for_bit),
        cmocka_unit_test(bvh_bin_kernels_match_plain_c_bit_for_bit),
        cmocka_unit_test(order_keys_match_the_insertion_sort),
        cmocka_unit_test(bvh_walk_kernels_match_the_baseline_bit_for_bit),
        cmocka_unit_test(bvh_refit_kernels_match_the_baseline_bit_for_bit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* machine.h: the machine a benchmark's figures come from: the CPU model
   and its AVX level (from /proc/cpuinfo where there is one: the level the
   library's run-time kernels take, src/lib/simd.c, unless RAYPICK_SIMD
   caps it), its cpuid family, model and stepping and its cache (virtual
   machines of two CPU generations both call themselves "Intel(R) Xeon(R)
   Processor"), and the SIMD compiled in (src/lib/simd.h decides it; the
   benchmarks are built with the same flags). */
#ifndef RP_BENCH_MACHINE_H
#define RP_BENCH_MACHINE_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../src/lib/simd.h"

/* simd.h's level name for the CPU flags on one /proc/cpuinfo "flags" line */
static inline const char *bench_isa_of_flags(char *flags_line)
{
    bool avx = false, avx2 = false, fma = false;
    int avx512 = 0;   /* how many of F, CD, BW, DQ, VL */
    for (char *t = strtok(flags_line, " \t\n:"); t != NULL; t = strtok(NULL, " \t\n:")) {
        avx |= strcmp(t, "avx") == 0;
        avx2 |= strcmp(t, "avx2") == 0;
        fma |= strcmp(t, "fma") == 0;
        avx512 += strcmp(t, "avx512f") == 0 || strcmp(t, "avx512cd") == 0 ||
                  strcmp(t, "avx512bw") == 0 || strcmp(t, "avx512dq") == 0 ||
                  strcmp(t, "avx512vl") == 0;
    }
    const rp_isa isa = !avx ? RP_ISA_SSE2 : !(avx2 && fma) ? RP_ISA_AVX
                     : avx512 < 5 ? RP_ISA_AVX2 : RP_ISA_AVX512;
    return rp_simd_isa_name(isa);
}

/* The value of a /proc/cpuinfo line "key<tabs>: value" into out (its first
   such line only: out still empty), without the newline. */
static inline void bench_cpuinfo_field(const char *line, const char *key, char *out, size_t size)
{
    const size_t n = strlen(key);
    const char *colon = strchr(line, ':');
    if (out[0] != '\0' || colon == NULL || strncmp(line, key, n) != 0 ||
        strspn(line + n, " \t") != (size_t)(colon - line) - n)
        return;     /* another key, or one that only starts with this one */
    snprintf(out, size, "%s", colon[1] == ' ' ? colon + 2 : colon + 1);
    out[strcspn(out, "\n")] = '\0';
}

static inline void bench_print_machine(void)
{
    char line[8192], model[256] = "", family[32] = "", number[32] = "", stepping[32] = "",
                     cache[64] = "";
    const char *isa = "unknown";
    FILE *f = fopen("/proc/cpuinfo", "r");
    while (f != NULL && fgets(line, sizeof line, f) != NULL) {
        bench_cpuinfo_field(line, "model name", model, sizeof model);
        bench_cpuinfo_field(line, "cpu family", family, sizeof family);
        bench_cpuinfo_field(line, "model", number, sizeof number);
        bench_cpuinfo_field(line, "stepping", stepping, sizeof stepping);
        bench_cpuinfo_field(line, "cache size", cache, sizeof cache);
        if (strncmp(line, "flags", 5) == 0 && strcmp(isa, "unknown") == 0)
            isa = bench_isa_of_flags(line + 5);
    }
    if (f != NULL)
        fclose(f);
    const char *cap = getenv("RAYPICK_SIMD");
    printf("CPU: %s (%s)", model[0] ? model : "unknown", isa);
    if (family[0] && number[0])
        printf(", family %s model %s stepping %s, cache %s", family, number,
               stepping[0] ? stepping : "?", cache[0] ? cache : "?");
    printf("; SIMD: %s compiled in%s%s%s\n", RP_SIMD_SSE2 ? "SSE2" : "none (plain C)",
           RP_SIMD_DISPATCH ? ", run-time kernels" : "", cap ? ", RAYPICK_SIMD=" : "",
           cap ? cap : "");
}

/* The load average, for reading a figure taken on a shared machine. */
static inline void bench_print_load(void)
{
    FILE *f = fopen("/proc/loadavg", "r");
    double l1 = 0, l5 = 0, l15 = 0;
    if (f != NULL && fscanf(f, "%lf %lf %lf", &l1, &l5, &l15) == 3)
        printf("  load average: %.2f %.2f %.2f\n", l1, l5, l15);
    if (f != NULL)
        fclose(f);
}

/* How many targets were not met: the benchmark's exit status. */
static int bench_targets_failed;

/* One target line: what is measured, its value, the comparison and the
   limit, and whether it is met (counted in bench_targets_failed). */
static inline void bench_target(const char *what, double value, const char *op, double limit, bool met)
{
    printf("  target: %-52s %10.3f %s %-8g %s\n", what, value, op, limit, met ? "MET" : "NOT MET");
    bench_targets_failed += !met;
}

#endif

/* machine.h: the machine a benchmark's figures come from: the CPU model
   (from /proc/cpuinfo where there is one) and the SIMD paths the library
   was built with (src/lib/simd.h decides them; the benchmarks are built
   with the same flags). */
#ifndef RP_BENCH_MACHINE_H
#define RP_BENCH_MACHINE_H

#include <stdio.h>
#include <string.h>

#include "../src/lib/simd.h"

static inline void bench_print_machine(void)
{
    char line[256], model[256] = "unknown";
    FILE *f = fopen("/proc/cpuinfo", "r");
    while (f != NULL && fgets(line, sizeof line, f) != NULL) {
        const char *colon = strchr(line, ':');
        if (strncmp(line, "model name", 10) == 0 && colon != NULL) {
            snprintf(model, sizeof model, "%s", colon + 2);
            model[strcspn(model, "\n")] = '\0';
            break;
        }
    }
    if (f != NULL)
        fclose(f);
    printf("CPU: %s; SIMD: %s%s\n", model, RP_SIMD_SSE2 ? "SSE2" : "none (plain C)",
           RP_SIMD_AVX && rp_simd_has_avx() ? ", AVX for the sphere filter" : "");
}

#endif

/* machine.h: the machine a benchmark's figures come from: the CPU model
   (from /proc/cpuinfo where there is one), the SIMD compiled in and the
   level of the run-time kernels (src/lib/simd.h decides both; the
   benchmarks are built with the same flags), capped by RAYPICK_SIMD. */
#ifndef RP_BENCH_MACHINE_H
#define RP_BENCH_MACHINE_H

#include <stdio.h>
#include <stdlib.h>
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
    const char *cap = getenv("RAYPICK_SIMD");
    printf("CPU: %s; SIMD: %s compiled in, run-time kernels up to %s%s%s\n", model,
           RP_SIMD_SSE2 ? "SSE2" : "none (plain C)", rp_simd_isa_name(rp_simd_detect_isa()),
           cap ? ", RAYPICK_SIMD=" : "", cap ? cap : "");
}

#endif

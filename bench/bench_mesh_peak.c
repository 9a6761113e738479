/* bench_mesh_peak.c: the mesh builder's peak memory per triangle (issue
   34): rp_mesh_create on a grid of N triangles (default 50M; an argument
   sets another count), the process's peak resident memory (VmHWM) over
   what it held before the build, and what the mesh keeps (VmRSS after),
   both per triangle. The input arrays are allocated and touched first, so
   only the builder's own memory is in the difference. Linux (/proc). */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <raypick/raypick.h>

/* A field of /proc/self/status in KiB (VmHWM, VmRSS); -1 without /proc. */
static long long status_kib(const char *field)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (!f)
        return -1;
    char line[256];
    long long v = -1;
    size_t n = strlen(field);
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, field, n) && line[n] == ':')
            v = atoll(line + n + 1);
    fclose(f);
    return v;
}

/* Peak memory counted from here (Linux 4.0+: writing 5 resets VmHWM). */
static void reset_peak(void)
{
    FILE *f = fopen("/proc/self/clear_refs", "w");
    if (f) {
        fputs("5", f);
        fclose(f);
    }
}

int main(int argc, char **argv)
{
    size_t triangles = argc > 1 ? (size_t)strtoull(argv[1], NULL, 10) : (size_t)50000000;
    size_t side = 1;
    while (2 * side * side < triangles)
        ++side;
    size_t verts = (side + 1) * (side + 1);
    float *pos = malloc(verts * 3 * sizeof *pos);
    uint32_t *idx = malloc(triangles * 3 * sizeof *idx);
    if (!pos || !idx) {
        fprintf(stderr, "bench_mesh_peak: out of memory for the input\n");
        return 1;
    }
    for (size_t r = 0; r <= side; ++r)
        for (size_t c = 0; c <= side; ++c) {
            float *p = pos + 3 * (r * (side + 1) + c);
            p[0] = (float)c;
            p[1] = (float)((r * 7 + c * 13) % 17) * 0.1f;
            p[2] = (float)r;
        }
    for (size_t t = 0; t < triangles; ++t) {
        size_t cell = t / 2, r = cell / side, c = cell % side;
        uint32_t a = (uint32_t)(r * (side + 1) + c), b = a + 1, d = a + (uint32_t)(side + 1), e = d + 1;
        uint32_t *tri = idx + 3 * t;
        if (t % 2 == 0)
            tri[0] = a, tri[1] = d, tri[2] = b;
        else
            tri[0] = b, tri[1] = d, tri[2] = e;
    }
    reset_peak();
    long long before = status_kib("VmRSS");
    rp_mesh *m = rp_mesh_create(pos, verts, 0, idx, triangles);
    long long peak = status_kib("VmHWM"), after = status_kib("VmRSS");
    if (!m || before < 0 || peak < 0) {
        fprintf(stderr, "bench_mesh_peak: %s\n", m ? "no /proc/self/status" : "rp_mesh_create failed");
        return 1;
    }
    double t = (double)triangles, peak_per = (double)(peak - before) * 1024.0 / t;
    printf("{\"bench\":\"mesh_peak\",\"triangles\":%zu,\"peak_bytes_per_triangle\":%.1f,"
           "\"kept_bytes_per_triangle\":%.1f,\"target_peak\":64,\"met\":%s}\n",
           triangles, peak_per, (double)(after - before) * 1024.0 / t, peak_per <= 64.0 ? "true" : "false");
    rp_mesh_destroy(m);
    free(pos);
    free(idx);
    return 0;
}

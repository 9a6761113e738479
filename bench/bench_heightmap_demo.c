/*
 * bench_heightmap_demo.c: a real-size heightmap in the demo beside the
 * library alone, side by side in one run (issue 16).
 *
 * Writes a 4097x4097 16-bit grayscale PNG, then runs, each in a child
 * process of its own so that each has its own peak resident size:
 *   library  - this program again (--load FILE): rp_heightmap_load, its time
 *              measured inside the child;
 *   demo     - raypick --lesson 4 --heightmap FILE --frames 1: process start
 *              to exit after its first frame (wall clock);
 *   baseline - raypick --lesson 4 --frames 1: the demo's own start-up and
 *              first frame with its small default map.
 * Peak resident sizes are the children's (wait4's ru_maxrss). It prints each
 * and the ratios demo / library (the target: at most 2 each).
 *
 *   bench_heightmap_demo RAYPICK [SIDE]     # needs a display (xvfb-run -a)
 *   bench_heightmap_demo --write FILE SIDE  # only write the map (scripts/screenshots)
 *
 * POSIX only (fork, exec, wait4); elsewhere it says so and does nothing.
 */
#if !defined(_WIN32)
#define _DEFAULT_SOURCE 1       /* wait4 */
#endif
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <raypick/raypick.h>

#include "timer.h"

#if defined(_WIN32) || defined(__EMSCRIPTEN__)
int main(void)
{
    printf("bench_heightmap_demo: needs fork, exec and wait4 (POSIX): not run here\n");
    return 0;
}
#else
#include "child.h"

/* ---- a 16-bit PNG, stored (uncompressed) deflate: no zlib needed ---- */

static uint32_t crc_table[256];

static void crc_init(void)
{
    for (uint32_t n = 0; n < 256; ++n) {
        uint32_t c = n;
        for (int k = 0; k < 8; ++k)
            c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
        crc_table[n] = c;
    }
}

static uint32_t crc_update(uint32_t crc, const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; ++i)
        crc = crc_table[(crc ^ p[i]) & 0xff] ^ (crc >> 8);
    return crc;
}

static void put_be32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)(v >> 24);
    p[1] = (unsigned char)(v >> 16);
    p[2] = (unsigned char)(v >> 8);
    p[3] = (unsigned char)v;
}

static bool write_chunk(FILE *f, const char *type, const unsigned char *data, size_t n)
{
    unsigned char len[4], crc_be[4];
    put_be32(len, (uint32_t)n);
    uint32_t crc = crc_update(0xffffffffu, (const unsigned char *)type, 4);
    crc = crc_update(crc, data, n) ^ 0xffffffffu;
    put_be32(crc_be, crc);
    return fwrite(len, 1, 4, f) == 4 && fwrite(type, 1, 4, f) == 4 && fwrite(data, 1, n, f) == n &&
           fwrite(crc_be, 1, 4, f) == 4;
}

/* a rolling relief: hills of a few hundred samples, ridges of a few dozen */
static uint16_t sample(int c, int r, int side)
{
    double x = (double)c / side, z = (double)r / side;
    double h = 0.5 + 0.3 * sin(9.0 * x) * cos(7.0 * z) + 0.15 * sin(61.0 * x + 3.0 * z) * sin(47.0 * z);
    h = h < 0.0 ? 0.0 : h > 1.0 ? 1.0 : h;
    return (uint16_t)(h * 65535.0);
}

static bool write_png16(const char *path, int side)
{
    size_t row = 1 + 2 * (size_t)side;
    size_t raw_n = row * (size_t)side;
    size_t blocks = (raw_n + 65534) / 65535;
    size_t z_n = 2 + raw_n + 5 * blocks + 4;
    unsigned char *raw = malloc(raw_n), *z = malloc(z_n);
    bool ok = raw && z;
    if (ok) {
        for (int r = 0; r < side; ++r) {
            unsigned char *p = raw + (size_t)r * row;
            *p++ = 0;   /* filter: none */
            for (int c = 0; c < side; ++c) {
                uint16_t v = sample(c, r, side);
                *p++ = (unsigned char)(v >> 8);
                *p++ = (unsigned char)v;
            }
        }
        /* zlib stream: header, stored blocks, Adler-32 */
        unsigned char *q = z;
        *q++ = 0x78;
        *q++ = 0x01;
        uint32_t a = 1, b = 0;
        for (size_t i = 0; i < raw_n; ++i) {
            a = (a + raw[i]) % 65521u;
            b = (b + a) % 65521u;
        }
        for (size_t off = 0; off < raw_n; off += 65535) {
            size_t n = raw_n - off < 65535 ? raw_n - off : 65535;
            *q++ = off + n == raw_n ? 1 : 0;
            *q++ = (unsigned char)n;
            *q++ = (unsigned char)(n >> 8);
            *q++ = (unsigned char)~n;
            *q++ = (unsigned char)(~n >> 8);
            memcpy(q, raw + off, n);
            q += n;
        }
        put_be32(q, (b << 16) | a);
        q += 4;
        unsigned char ihdr[13] = {0};
        put_be32(ihdr, (uint32_t)side);
        put_be32(ihdr + 4, (uint32_t)side);
        ihdr[8] = 16;   /* bits */
        ihdr[9] = 0;    /* grayscale */
        FILE *f = fopen(path, "wb");
        static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
        ok = f && fwrite(sig, 1, 8, f) == 8 && write_chunk(f, "IHDR", ihdr, sizeof ihdr) &&
             write_chunk(f, "IDAT", z, (size_t)(q - z)) && write_chunk(f, "IEND", NULL, 0);
        if (f && fclose(f) != 0)
            ok = false;
    }
    free(raw);
    free(z);
    return ok;
}

/* ---- children ------------------------------------------------------- */

typedef struct child_run {
    bool ok;
    double wall_s;          /* spawn to exit */
    double cpu_s;           /* user + system time of all its threads */
    double peak_mib;        /* ru_maxrss */
    char out[256];          /* its first line on stdout */
} child_run;

static child_run run_child(char *const argv[])
{
    child_run run;
    memset(&run, 0, sizeof run);
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    double start = bench_now_seconds();
    run.ok = bench_run_child(argv, run.out, sizeof run.out, &ru);
    run.wall_s = bench_now_seconds() - start;
    run.peak_mib = (double)ru.ru_maxrss / 1024.0;    /* kilobytes on Linux */
    run.cpu_s = (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec +
                (double)ru.ru_stime.tv_sec + 1e-6 * (double)ru.ru_stime.tv_usec;
    char *nl = strchr(run.out, '\n');
    if (nl)
        *nl = '\0';
    return run;
}

/* the library child: load, print the time, exit */
static int load_only(const char *path)
{
    char err[256] = "";
    double start = bench_now_seconds();
    rp_heightmap *hm = rp_heightmap_load(path, 1.0f, 7.0f, (vec3){0.0f, 0.0f, 0.0f}, err, sizeof err);
    double took = bench_now_seconds() - start;
    if (!hm) {
        fprintf(stderr, "bench_heightmap_demo: %s\n", err);
        return 1;
    }
    printf("%.6f %dx%d\n", took, rp_heightmap_cols(hm), rp_heightmap_rows(hm));
    rp_heightmap_destroy(hm);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "--load"))
        return load_only(argv[2]);
    if (argc == 4 && !strcmp(argv[1], "--write")) {
        int n = atoi(argv[3]);
        crc_init();
        if (n < 2 || n > 16384 || !write_png16(argv[2], n)) {
            fprintf(stderr, "bench_heightmap_demo: cannot write a %s-sample map to %s\n", argv[3], argv[2]);
            return 1;
        }
        return 0;
    }
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: bench_heightmap_demo RAYPICK [SIDE]\n");
        return 2;
    }
    int side = argc == 3 ? atoi(argv[2]) : 4097;
    if (side < 2 || side > 16384) {
        fprintf(stderr, "bench_heightmap_demo: side %s out of 2..16384\n", argv[2]);
        return 2;
    }
    char path[] = "/tmp/raypick-bench-map-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) {
        perror("bench_heightmap_demo: mkstemp");
        return 1;
    }
    close(fd);
    crc_init();
    double t0 = bench_now_seconds();
    if (!write_png16(path, side)) {
        fprintf(stderr, "bench_heightmap_demo: cannot write %s\n", path);
        remove(path);
        return 1;
    }
    printf("heightmap: %dx%d 16-bit PNG written in %.2f s\n", side, side, bench_now_seconds() - t0);

    char *lib_argv[] = {argv[0], "--load", path, NULL};
    char *demo_argv[] = {argv[1], "--lesson", "4", "--heightmap", path, "--frames", "1", NULL};
    char *base_argv[] = {argv[1], "--lesson", "4", "--frames", "1", NULL};
    child_run lib = run_child(lib_argv);
    child_run demo = run_child(demo_argv);
    child_run base = run_child(base_argv);
    remove(path);
    if (!lib.ok || !demo.ok || !base.ok) {
        fprintf(stderr, "bench_heightmap_demo: a run failed (library %d, demo %d, baseline %d)\n",
                lib.ok, demo.ok, base.ok);
        return 1;
    }
    double lib_s = atof(lib.out);
    printf("%-46s %9s %9s %10s\n", "", "wall s", "CPU s", "peak MiB");
    printf("%-46s %9.3f %9s %10.1f\n", "library: rp_heightmap_load (in its process)", lib_s, "", lib.peak_mib);
    printf("%-46s %9.3f %9.3f %10.1f\n", "library: its whole process", lib.wall_s, lib.cpu_s, lib.peak_mib);
    printf("%-46s %9.3f %9.3f %10.1f\n", "demo: start to first frame, this map", demo.wall_s, demo.cpu_s,
           demo.peak_mib);
    printf("%-46s %9.3f %9.3f %10.1f\n", "demo: start to first frame, default map", base.wall_s, base.cpu_s,
           base.peak_mib);
    printf("ratios demo / library: wall time %.2f (target <= 2), CPU time of the processes %.2f, "
           "peak %.2f (target <= 2)\n", demo.wall_s / lib_s, demo.cpu_s / lib.cpu_s, demo.peak_mib / lib.peak_mib);
    double avg[3];
    if (getloadavg(avg, 3) == 3)
        printf("load average during the run: %.2f (figures above are wall clock: a loaded machine "
               "makes them longer)\n", avg[0]);
    return 0;
}
#endif

/* fuzz_common.h: reading typed values out of a libFuzzer input, and the
   checks every target makes on the library's results.

   A check that fails calls fuzz_fail(), which prints what broke and
   aborts: libFuzzer then saves the input as a crash-* file, so every
   broken promise of the contract is a finding with a reproducer. */
#ifndef RAYPICK_FUZZ_COMMON_H
#define RAYPICK_FUZZ_COMMON_H

/* timer_create, sigaction: POSIX, which tests/fuzz/meson.build asks for
   (-D_POSIX_C_SOURCE=200809L) before any system header. */
#include <signal.h>
#include <time.h>
#include <unistd.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <raypick/raypick.h>

/* ---- the hang detector: CPU time, not wall-clock time ----------------- */

/* libFuzzer's -timeout counts wall-clock seconds, so on a loaded machine a
   slow but finite input (a 64M-sample image: about 7 s of CPU under ASan)
   takes 30 s and more and is reported as a hang. This counts the CPU time
   the process spends on one input instead, which the load does not change:
   fuzz_watchdog(), first thing in every LLVMFuzzerTestOneInput, re-arms a
   FUZZ_CPU_LIMIT_S timer on the process's CPU clock; if it fires, the input
   is a hang, and abort() makes libFuzzer save it like any crash. */
#ifndef FUZZ_CPU_LIMIT_S
#define FUZZ_CPU_LIMIT_S 60
#endif

#define FUZZ_STR_(x) #x
#define FUZZ_STR(x) FUZZ_STR_(x)

static void fuzz_on_cpu_limit(int sig)
{
    static const char msg[] = "FUZZ CHECK FAILED: one input used more than "
                              FUZZ_STR(FUZZ_CPU_LIMIT_S) " s of CPU time: a hang\n";
    (void)sig;
    (void)!write(2, msg, sizeof msg - 1);
    abort();
}

static inline void fuzz_watchdog(void)
{
    static timer_t timer;
    static int ready;
    if (!ready) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = fuzz_on_cpu_limit;
        sigaction(SIGXCPU, &sa, NULL);
        struct sigevent ev;
        memset(&ev, 0, sizeof ev);
        ev.sigev_notify = SIGEV_SIGNAL;
        ev.sigev_signo = SIGXCPU;
        if (timer_create(CLOCK_PROCESS_CPUTIME_ID, &ev, &timer) != 0) {
            perror("fuzz_watchdog: timer_create");
            abort();
        }
        ready = 1;
    }
    struct itimerspec its;
    memset(&its, 0, sizeof its);
    its.it_value.tv_sec = FUZZ_CPU_LIMIT_S;
    timer_settime(timer, 0, &its, NULL);    /* relative: from now */
}

/* ---- reading the input ------------------------------------------------ */

typedef struct fuzz_input {
    const uint8_t *data;
    size_t size, pos;
} fuzz_input;

static inline uint8_t fuzz_u8(fuzz_input *in)
{
    return in->pos < in->size ? in->data[in->pos++] : 0;
}

static inline uint32_t fuzz_u32(fuzz_input *in)
{
    uint32_t v = 0;
    for (int i = 0; i < 4; i++)
        v |= (uint32_t)fuzz_u8(in) << (8 * i);
    return v;
}

/* Any bit pattern: NaNs, infinities, denormals, -0 included. */
static inline float fuzz_raw_float(fuzz_input *in)
{
    uint32_t bits = fuzz_u32(in);
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

/* A "reasonable" number: a small integer scaled by a power of two between
   1/64 and 64. Random bit patterns almost never give a ray that hits
   anything; these do, so the success paths get exercised too. */
static inline float fuzz_tame_float(fuzz_input *in)
{
    int8_t mant = (int8_t)fuzz_u8(in);
    uint8_t sh = fuzz_u8(in) % 13;
    return ldexpf((float)mant, (int)sh - 6) / 8.0f;
}

/* mode 0: raw bits; mode 1: tame numbers; mode 2: tame, with an occasional
   raw value (one bad component among good ones). */
static inline float fuzz_float(fuzz_input *in, int mode)
{
    if (mode == 0)
        return fuzz_raw_float(in);
    if (mode == 2 && (fuzz_u8(in) & 15) == 0)
        return fuzz_raw_float(in);
    return fuzz_tame_float(in);
}

static inline void fuzz_vec3(fuzz_input *in, int mode, vec3 v)
{
    for (int i = 0; i < 3; i++)
        v[i] = fuzz_float(in, mode);
}

static inline void fuzz_mat4(fuzz_input *in, int mode, mat4 m)
{
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++)
            m[c][r] = fuzz_float(in, mode);
}

/* ---- checks ------------------------------------------------------------ */

#define fuzz_fail(...)                                                  \
    do {                                                                \
        fprintf(stderr, "FUZZ CHECK FAILED at %s:%d: ", __FILE__, __LINE__); \
        fprintf(stderr, __VA_ARGS__);                                   \
        fputc('\n', stderr);                                            \
        abort();                                                        \
    } while (0)

#define fuzz_check(cond, ...)                                           \
    do {                                                                \
        if (!(cond))                                                    \
            fuzz_fail("%s: " "%s", #cond, "" __VA_ARGS__);              \
    } while (0)

static inline bool fuzz_vec3_finite(const vec3 v)
{
    return isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]);
}

/* A byte pattern no real result has: lets a target see whether a function
   wrote to its output when it returned false. */
#define FUZZ_SENTINEL 0xA5

static inline void fuzz_poison(void *p, size_t n)
{
    memset(p, FUZZ_SENTINEL, n);
}

static inline bool fuzz_untouched(const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++)
        if (b[i] != FUZZ_SENTINEL)
            return false;
    return true;
}

/* Everything in a reported hit is a number; t is at or after the origin;
   the roots are ordered; the normal is unit length. */
static inline void fuzz_check_hit(const rp_hit *h)
{
    fuzz_check(isfinite(h->t) && isfinite(h->t_enter) && isfinite(h->t_exit),
               "non-finite t in a hit");
    fuzz_check(fuzz_vec3_finite(h->point), "non-finite point in a hit");
    fuzz_check(fuzz_vec3_finite(h->normal), "non-finite normal in a hit");
    fuzz_check(h->t >= 0.0f, "hit behind the origin");
    fuzz_check(h->t_enter <= h->t_exit, "roots out of order");
    float len = sqrtf(h->normal[0] * h->normal[0] + h->normal[1] * h->normal[1] +
                      h->normal[2] * h->normal[2]);
    fuzz_check(fabsf(len - 1.0f) < 1e-3f, "normal not unit length");
}

/* On moderate inputs the reported point must be origin + t * dir. */
static inline void fuzz_check_point_on_ray(const rp_ray *r, const rp_hit *h)
{
    vec3 p;
    rp_ray_at(r, h->t, p);
    for (int i = 0; i < 3; i++) {
        float scale = 1.0f + fabsf(r->origin[i]) + fabsf(h->t * r->dir[i]);
        fuzz_check(fabsf(p[i] - h->point[i]) <= 1e-4f * scale,
                   "hit point is not origin + t * dir");
    }
}

static inline bool fuzz_vec3_moderate(const vec3 v, float limit)
{
    return fabsf(v[0]) <= limit && fabsf(v[1]) <= limit && fabsf(v[2]) <= limit;
}

#endif /* RAYPICK_FUZZ_COMMON_H */

/* test_thread.c: the library's threads and atomics (src/lib/thread.c):
 * POSIX or Win32 threads, gcc's and clang's __atomic builtins or Windows'
 * Interlocked functions (MSVC's C compiler has no <stdatomic.h>).
 *
 *   - rp_cpu_count against the system's own count, asked another way
 *     (macOS hides sysconf's count under _POSIX_C_SOURCE: a build that
 *     lost it would say 1 and build every BVH on one thread);
 *   - rp_ticket_take from several threads: every number once;
 *   - rp_thread_run_pair runs both halves, threaded or not;
 *   - the relaxed load and store.
 *
 * Links the library's objects (raypick_internal_dep): thread.c is internal. */
#if defined(__linux__) && !defined(_DEFAULT_SOURCE)
#define _DEFAULT_SOURCE 1
#endif
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#if defined(_WIN32)
#include <windows.h>
#elif defined(__APPLE__)
#include <sys/sysctl.h>
#include <sys/types.h>
#endif

#include "thread_internal.h"

/* ---- the CPU count --------------------------------------------------------- */

/* Logical processors online, asked differently from thread.c; 0 when this
   system offers no second way. */
static int system_cpu_count(const char **how)
{
#if defined(_WIN32)
    *how = "GetActiveProcessorCount";
    return (int)GetActiveProcessorCount(ALL_PROCESSOR_GROUPS);
#elif defined(__APPLE__)
    int n = 0;
    size_t size = sizeof n;
    *how = "sysctl hw.activecpu";
    return sysctlbyname("hw.activecpu", &n, &size, NULL, 0) == 0 ? n : 0;
#elif defined(__linux__)
    /* the "processor" lines of /proc/cpuinfo */
    *how = "/proc/cpuinfo";
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f == NULL)
        return 0;
    char line[512];
    int n = 0;
    while (fgets(line, sizeof line, f) != NULL)
        n += strncmp(line, "processor", 9) == 0;
    fclose(f);
    return n;
#else
    *how = "nothing";
    return 0;
#endif
}

static void cpu_count_is_the_systems(void **state)
{
    (void)state;
    const char *how = "";
    const int expected = system_cpu_count(&how);
    const int got = rp_cpu_count();
    print_message("rp_cpu_count: %d; %s: %d\n", got, how, expected);
    assert_true(got >= 1 && got <= 1024);
    if (expected > 0)
        assert_int_equal(got, expected < 1024 ? expected : 1024);
}

/* ---- tickets from several threads ----------------------------------------- */

#define WORKERS 4
#define TICKETS 20000

typedef struct ticket_run {
    rp_ticket *ticket;
    unsigned char *taken;   /* TICKETS counters, one per number */
    long *count;            /* this worker's own count */
} ticket_run;

static void take_tickets(void *p)
{
    ticket_run *run = p;
    for (;;) {
        const long k = rp_ticket_take(run->ticket);
        if (k >= TICKETS)
            return;
        run->taken[k]++;   /* each number goes to one worker: no race here */
        (*run->count)++;
    }
}

static void tickets_are_each_taken_once(void **state)
{
    (void)state;
    rp_ticket ticket = {0};
    static unsigned char taken[TICKETS];
    long counts[WORKERS] = {0};
    ticket_run runs[WORKERS];
    rp_thread threads[WORKERS];
    bool started[WORKERS];
    memset(taken, 0, sizeof taken);
    for (int w = 0; w < WORKERS; w++) {
        runs[w] = (ticket_run){&ticket, taken, &counts[w]};
        started[w] = rp_thread_start(&threads[w], take_tickets, &runs[w]);
    }
    take_tickets(&(ticket_run){&ticket, taken, &(long){0}});
    long total = 0;
    for (int w = 0; w < WORKERS; w++) {
        if (started[w])
            rp_thread_join(&threads[w]);
        else
            take_tickets(&runs[w]);   /* no threads here: nothing left to take */
        total += counts[w];
    }
    for (int k = 0; k < TICKETS; k++)
        assert_int_equal(taken[k], 1);
    assert_true(total <= TICKETS);
#if !defined(RAYPICK_NO_THREADS)
    assert_true(started[0]);   /* a desktop system starts a thread */
#endif
}

/* ---- run_pair --------------------------------------------------------------- */

static void add_one(void *p)
{
    (*(int *)p)++;
}

static void run_pair_runs_both(void **state)
{
    (void)state;
    for (int threaded = 0; threaded <= 1; threaded++) {
        int a = 0, b = 0;
        rp_thread_run_pair(add_one, &a, add_one, &b, threaded != 0);
        assert_int_equal(a, 1);
        assert_int_equal(b, 1);
    }
}

/* ---- relaxed atomics ------------------------------------------------------------ */

static void relaxed_load_reads_the_stored_value(void **state)
{
    (void)state;
    long x = -1;
    assert_int_equal(rp_atomic_load_relaxed(&x), -1);
    rp_atomic_store_relaxed(&x, 123456789L);
    assert_int_equal(rp_atomic_load_relaxed(&x), 123456789L);
    assert_int_equal(x, 123456789L);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cpu_count_is_the_systems),
        cmocka_unit_test(tickets_are_each_taken_once),
        cmocka_unit_test(run_pair_runs_both),
        cmocka_unit_test(relaxed_load_reads_the_stored_value),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

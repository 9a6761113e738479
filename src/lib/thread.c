/* thread.c: rp_thread_start / rp_thread_join / rp_cpu_count,
   rp_ticket_take and the relaxed loads and stores (thread_internal.h) on
   POSIX threads, Win32 threads, or nothing. C11's <stdatomic.h> is not
   used: MSVC's C compiler has it only as an experiment; gcc's and clang's
   __atomic builtins and Windows' Interlocked functions do the same. */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L   /* sysconf's _SC_NPROCESSORS_ONLN on glibc */
#endif
#if defined(__APPLE__) && !defined(_DARWIN_C_SOURCE)
#define _DARWIN_C_SOURCE 1        /* macOS hides it under _POSIX_C_SOURCE alone */
#endif
#include <stdlib.h>

#include "thread_internal.h"

#if defined(RAYPICK_NO_THREADS) || (defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__))
#define RP_THREADS_NONE 1
#elif defined(_WIN32)
#define RP_THREADS_WIN32 1
#include <windows.h>
#else
#define RP_THREADS_POSIX 1
#include <pthread.h>
#include <unistd.h>
#endif

/* What the new thread needs: the function and its argument. */
typedef struct start_box {
    void (*fn)(void *);
    void *arg;
#if defined(RP_THREADS_WIN32)
    HANDLE thread;
#elif defined(RP_THREADS_POSIX)
    pthread_t thread;
#endif
} start_box;

#if defined(RP_THREADS_WIN32)
static DWORD WINAPI trampoline(LPVOID p)
{
    start_box *b = p;
    b->fn(b->arg);
    return 0;
}
#elif defined(RP_THREADS_POSIX)
static void *trampoline(void *p)
{
    start_box *b = p;
    b->fn(b->arg);
    return NULL;
}
#endif

bool rp_thread_start(rp_thread *t, void (*fn)(void *), void *arg)
{
#if defined(RP_THREADS_NONE)
    (void)t;
    (void)fn;
    (void)arg;
    return false;
#else
    start_box *b = malloc(sizeof *b);
    if (b == NULL)
        return false;
    b->fn = fn;
    b->arg = arg;
#if defined(RP_THREADS_WIN32)
    b->thread = CreateThread(NULL, 0, trampoline, b, 0, NULL);
    bool ok = b->thread != NULL;
#else
    bool ok = pthread_create(&b->thread, NULL, trampoline, b) == 0;
#endif
    if (!ok) {
        free(b);
        return false;
    }
    t->handle = b;
    return true;
#endif
}

void rp_thread_join(rp_thread *t)
{
#if !defined(RP_THREADS_NONE)
    start_box *b = t->handle;
#if defined(RP_THREADS_WIN32)
    WaitForSingleObject(b->thread, INFINITE);
    CloseHandle(b->thread);
#else
    pthread_join(b->thread, NULL);
#endif
    free(b);
#endif
    t->handle = NULL;
}

int rp_cpu_count(void)
{
#if defined(RP_THREADS_NONE)
    return 1;
#elif defined(RP_THREADS_WIN32)
    SYSTEM_INFO info;
    GetSystemInfo(&info);
    return info.dwNumberOfProcessors > 0 ? (int)info.dwNumberOfProcessors : 1;
#elif defined(_SC_NPROCESSORS_ONLN)     /* not POSIX, but glibc, musl, BSDs */
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)(n < 1024 ? n : 1024) : 1;
#else
    return 1;
#endif
}

void rp_thread_run_pair(void (*a)(void *), void *arg_a, void (*b)(void *), void *arg_b,
                        bool threaded)
{
    rp_thread t;
    if (threaded && rp_thread_start(&t, b, arg_b)) {
        a(arg_a);
        rp_thread_join(&t);
        return;
    }
    a(arg_a);
    b(arg_b);
}

long rp_ticket_take(rp_ticket *t)
{
#if defined(RP_THREADS_NONE)
    return t->next++;
#elif defined(__GNUC__) || defined(__clang__)
    /* relaxed: a number only has to be taken once; what the jobs write is
       published by the thread join */
    return __atomic_fetch_add(&t->next, 1, __ATOMIC_RELAXED);
#elif defined(RP_THREADS_WIN32)
    return InterlockedIncrement(&t->next) - 1;
#else
#error "raypick: no atomic increment for this compiler; build with RAYPICK_NO_THREADS"
#endif
}

long rp_atomic_load_relaxed(const long *p)
{
#if defined(__GNUC__) || defined(__clang__)
    return __atomic_load_n(p, __ATOMIC_RELAXED);
#elif defined(RP_THREADS_WIN32)
    /* an aligned 32-bit volatile read is one load on every Windows target */
    return *(const volatile long *)p;
#elif defined(RP_THREADS_NONE)
    return *p;
#else
#error "raypick: no atomic load for this compiler; build with RAYPICK_NO_THREADS"
#endif
}

void rp_atomic_store_relaxed(long *p, long v)
{
#if defined(__GNUC__) || defined(__clang__)
    __atomic_store_n(p, v, __ATOMIC_RELAXED);
#elif defined(RP_THREADS_WIN32)
    InterlockedExchange((volatile LONG *)p, v);
#elif defined(RP_THREADS_NONE)
    *p = v;
#else
#error "raypick: no atomic store for this compiler; build with RAYPICK_NO_THREADS"
#endif
}

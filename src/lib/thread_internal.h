/* thread_internal.h: the least the library needs to run work on more than
   one core (the BVH builder): start a thread, wait for it. POSIX threads,
   Win32 threads, or none (emscripten without pthreads, RAYPICK_NO_THREADS):
   then rp_thread_start fails and callers do the work themselves. Not
   installed. */
#ifndef RAYPICK_THREAD_INTERNAL_H
#define RAYPICK_THREAD_INTERNAL_H

#include <stdbool.h>

typedef struct rp_thread {
    void *handle;           /* the system's thread, boxed (thread.c) */
} rp_thread;

/* Starts fn(arg) on a new thread; false (and nothing started) when
   threads are unavailable or the system refuses one. */
bool rp_thread_start(rp_thread *t, void (*fn)(void *), void *arg);
/* Waits for a thread rp_thread_start started, and releases it. */
void rp_thread_join(rp_thread *t);
/* Logical processors online (>= 1); 1 where threads are unavailable. */
int rp_cpu_count(void);
/* Runs a(arg_a) and b(arg_b): b on a new thread when `threaded` and the
   system starts one, else after a on this thread. Returns when both are
   done. */
void rp_thread_run_pair(void (*a)(void *), void *arg_a, void (*b)(void *), void *arg_b,
                        bool threaded);

/* Numbers handed out to threads one at a time, each once (0, 1, 2 ...):
   how workers share a list of jobs, each taking the next when it is free.
   Zero-initialised, it starts at 0. */
typedef struct rp_ticket {
    long next;
} rp_ticket;
/* The next number; safe to call from several threads at once. */
long rp_ticket_take(rp_ticket *t);

/* A long that several threads read and write whole, with no order
   between them and other memory (C11's memory_order_relaxed): enough for a
   cache of a value every thread would compute alike. */
long rp_atomic_load_relaxed(const long *p);
void rp_atomic_store_relaxed(long *p, long v);

#endif /* RAYPICK_THREAD_INTERNAL_H */

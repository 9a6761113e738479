/* child.h: a benchmark's child process, POSIX only (fork, exec, wait4):
   the benches that time the demo program run it through this. Include it
   with _DEFAULT_SOURCE defined first (wait4). */
#ifndef RP_BENCH_CHILD_H
#define RP_BENCH_CHILD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* Runs argv[0] (a path) with argv, its stdout into out: the first size - 1
   bytes kept and terminated, the rest read and dropped (so the child never
   blocks on a full pipe). Waits for it; ru (NULL: not wanted) gets its
   resource use. true when it ran and exited 0. */
static inline bool bench_run_child(char *const argv[], char *out, size_t size, struct rusage *ru)
{
    out[0] = '\0';
    int fds[2];
    if (pipe(fds) != 0)
        return false;
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fds[1], 1);
        close(fds[0]);
        close(fds[1]);
        execv(argv[0], argv);
        _exit(127);
    }
    close(fds[1]);
    if (pid < 0) {
        close(fds[0]);
        return false;
    }
    size_t used = 0;
    ssize_t got;
    char sink[256];
    while ((got = read(fds[0], used < size - 1 ? out + used : sink,
                       used < size - 1 ? size - 1 - used : sizeof sink)) > 0)
        if (used < size - 1)
            used += (size_t)got;
    out[used] = '\0';
    close(fds[0]);
    int status = 0;
    struct rusage unused;
    if (wait4(pid, &status, 0, ru ? ru : &unused) != pid)
        return false;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* The number after "key": in a JSON line the child printed, or -1 where
   the line has no such key. */
static inline double bench_json_number(const char *text, const char *key)
{
    char pattern[64];
    snprintf(pattern, sizeof pattern, "\"%s\":", key);
    const char *at = strstr(text, pattern);
    return at ? strtod(at + strlen(pattern), NULL) : -1.0;
}

/* The ROUNDS argument (text; NULL: not given, fallback) of the benchmark
   named bench: 1 to max, else a message and -1. */
static inline int bench_rounds(const char *bench, const char *text, int fallback, int max)
{
    const int rounds = text != NULL ? atoi(text) : fallback;
    if (rounds < 1 || rounds > max) {
        fprintf(stderr, "%s: rounds %s out of 1..%d\n", bench, text, max);
        return -1;
    }
    return rounds;
}

#endif /* RP_BENCH_CHILD_H */

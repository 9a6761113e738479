/* stop.c: SIGINT/SIGTERM with a deadline (stop.h). */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L     /* sigaction, alarm */
#endif
#include "stop.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if (defined(__unix__) || defined(__APPLE__)) && !defined(__EMSCRIPTEN__)
#define STOP_POSIX 1
#include <unistd.h>
#endif

static volatile sig_atomic_t stop_signal;   /* the signal that asked; 0 = none */

#ifdef STOP_POSIX

/* async-signal-safe: write(2) and no stdio */
static void say(const char *text)
{
    ssize_t ignored = write(STDERR_FILENO, text, strlen(text));
    (void)ignored;
}

/* Ends the process by `sig` itself (a shell then sees "killed by
   SIGTERM", as for a program without a handler). */
static void die_by(int sig)
{
    signal(sig, SIG_DFL);
    raise(sig);
    _exit(128 + sig);       /* in case it was blocked */
}

static void on_deadline(int sig)
{
    (void)sig;
    say("raypick: stopped: the frame or the loading under way did not end within a second of the signal\n");
    die_by(stop_signal ? stop_signal : SIGTERM);
}

static void on_stop(int sig)
{
    if (stop_signal) {      /* a second one: no more waiting */
        say("raypick: stopped by a second signal\n");
        die_by(sig);
    }
    stop_signal = sig;
    alarm(1);
}

void app_stop_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    sa.sa_handler = on_deadline;
    sigaction(SIGALRM, &sa, NULL);
    sa.sa_handler = on_stop;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

void app_stop_now(const char *why)
{
    fflush(stdout);
    if (why)
        fprintf(stderr, "raypick: %s\n", why);
    if (stop_signal)
        die_by(stop_signal);
    _exit(0);
}

#else

void app_stop_install(void)
{
}

void app_stop_now(const char *why)
{
    fflush(stdout);
    if (why)
        fprintf(stderr, "raypick: %s\n", why);
    _Exit(0);
}

#endif

bool app_stop_requested(void)
{
    return stop_signal != 0;
}

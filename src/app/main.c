/* main.c: raypick, the demo. Parses the command line and runs the app. */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L     /* fcntl, open */
#endif
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <SDL.h>
#include <fcntl.h>
#ifdef _WIN32
#include <io.h>
#else
#include <unistd.h>
#endif

#include "app.h"
#include "lang.h"
#include "msg.h"
#include "report.h"

/* A standard stream the parent closed gets /dev/null: otherwise the next
   descriptor opened (the X connection) would be descriptor 1, and --report
   would write its JSON into the X socket. Output asked for on a closed
   stdout is an error. false after saying why. */
static bool standard_streams_ok(const app_options *opt)
{
#ifdef _WIN32
    (void)opt;
    return true;
#else
    bool closed[3];
    for (int fd = 0; fd < 3; ++fd)
        closed[fd] = fcntl(fd, F_GETFD) == -1 && errno == EBADF;
    for (int fd = 0; fd < 3; ++fd)      /* the lowest free descriptor: fd itself */
        if (closed[fd] && open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY) != fd)
            return false;
    if (closed[1] && (opt->report || opt->print_layout || opt->bench_frames > 0 ||
                      opt->list_lessons)) {
        fprintf(stderr, "raypick: standard output is closed: %s would have nowhere to go\n",
                opt->report ? "--report" : opt->print_layout ? "--print-layout"
                : opt->bench_frames > 0 ? "--bench-frames" : "--list-lessons");
        return false;
    }
    return true;
#endif
}

int main(int argc, char **argv)
{
#ifdef _WIN32
    /* --report and --print-layout lines end in \n, not \r\n, as elsewhere */
    _setmode(_fileno(stdout), _O_BINARY);
#endif
    app_options opt;
    char err[256] = "";
    app_parse_result parsed = app_parse_options(argc, argv, &opt, err, sizeof err);
    /* --lang, else the locale: the help, the lesson list and the HUD */
    msg_set_language(app_lang_choose(opt.lang, getenv("LC_ALL"), getenv("LC_MESSAGES"), getenv("LANG")));
    switch (parsed) {
    case APP_PARSE_HELP:
        app_print_usage(argv[0], stdout);
        return 0;
    case APP_PARSE_ERROR:
        fprintf(stderr, "raypick: %s\n", err);
        app_print_usage(argv[0], stderr);
        return 2;
    default:
        break;
    }
    if (!standard_streams_ok(&opt))
        return 1;
    int status = 0;
    if (opt.list_lessons)       /* no window: tools and tests read the registry */
        report_lessons(stdout);
    else
        status = app_run(&opt);
    /* --report, --print-layout, --bench-frames and --list-lessons write to
       stdout: a write that failed (a full disk, a closed pipe) is an error,
       not success */
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "raypick: cannot write to standard output: %s\n",
                errno ? strerror(errno) : "write error");
        return 1;
    }
    return status;
}

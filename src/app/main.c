/* main.c: raypick, the demo. Parses the command line and runs the app. */
#include <stdio.h>
#include <SDL.h>
#ifdef _WIN32
#include <fcntl.h>
#include <io.h>
#endif

#include "app.h"
#include "report.h"

int main(int argc, char **argv)
{
#ifdef _WIN32
    /* --report and --print-layout lines end in \n, not \r\n, as elsewhere */
    _setmode(_fileno(stdout), _O_BINARY);
#endif
    app_options opt;
    char err[256] = "";
    switch (app_parse_options(argc, argv, &opt, err, sizeof err)) {
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
    if (opt.list_lessons) {     /* no window: tools and tests read the registry */
        report_lessons(stdout);
        return 0;
    }
    return app_run(&opt);
}

/* main.c: raypick, the demo. Parses the command line and runs the app. */
#include <stdio.h>
#include <stdlib.h>
#include <SDL.h>
#ifdef _WIN32
#include <fcntl.h>
#include <io.h>
#endif

#include "app.h"
#include "lang.h"
#include "msg.h"
#include "report.h"

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
    if (opt.list_lessons) {     /* no window: tools and tests read the registry */
        report_lessons(stdout);
        return 0;
    }
    return app_run(&opt);
}

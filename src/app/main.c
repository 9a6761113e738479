/* main.c: raypick, the demo. Parses the command line and runs the app. */
#include <stdio.h>
#include <SDL.h>

#include "app.h"

int main(int argc, char **argv)
{
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
    return app_run(&opt);
}

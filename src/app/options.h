/* options.h: the command line (interactive and script mode). No SDL here. */
#ifndef RAYPICK_APP_OPTIONS_H
#define RAYPICK_APP_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define APP_MAX_EVENTS 64

typedef struct app_script_event {
    int   frame;
    bool  is_click;
    float x, y;             /* click: window coordinates */
    char  key;              /* key: a lower-case character */
} app_script_event;

typedef struct app_options {
    int  lesson;            /* 1..lessons_count() (lessons.h) */
    int  width, height;     /* window size */
    app_script_event events[APP_MAX_EVENTS];
    int  event_count;
    int  frames;            /* > 0: script mode, exit after this many frames */
    int  bench_frames;      /* > 0: script mode, print the median frame time */
    const char *screenshot; /* PNG of the last frame */
    const char *heightmap;  /* lesson 4: load this image */
    float heightmap_spacing;  /* world units per sample; 0 = fit the 48x48 view */
    float heightmap_scale;    /* world height of white; 0 = 7 */
    const char *mesh;       /* lesson 5: load this model (assimp) */
    int  many_objects;      /* lesson 1's many-objects mode (A): how many; 0 = 100,000 */
    long long load_limit;   /* bytes loading --heightmap or --mesh may take; 0 = 1 GiB */
    int  tour;              /* > 0: start at this moment of the lesson's tour (1-based) */
    bool report;            /* JSON line per pick on stdout */
    bool print_layout;      /* print the lesson's objects and camera, exit */
    bool list_lessons;      /* print the lesson registry as JSON, exit */
    const char *lang;       /* --lang: a language of the catalogue (msg.h); NULL: the locale's */
    uint32_t seed;
} app_options;

typedef enum app_parse_result {
    APP_PARSE_OK = 0,
    APP_PARSE_HELP = 1,     /* --help: print usage, exit 0 */
    APP_PARSE_ERROR = 2     /* message in err: print it and usage, exit 2 */
} app_parse_result;

/* Reads argv[1..argc-1] into o (defaults first). Every argument is an
   option: "--name VALUE", "--name=VALUE" or a flag "--name"; anything else is
   "unknown option", wherever it stands. A value may not start with "--" unless
   given after '=' (so "--mesh --frames 3" says "--mesh needs a value"). Each
   option once (--click and --key repeat); options that contradict each other
   (--frames with --bench-frames, --print-layout with a script) are refused.
   --help or -h anywhere: APP_PARSE_HELP. On APP_PARSE_ERROR err (err_size > 0)
   holds one line saying what is wrong. The browser uses it too (main_web.c). */
app_parse_result app_parse_options(int argc, char **argv, app_options *o, char *err, size_t err_size);
void app_print_usage(const char *argv0, FILE *out);
bool app_script_mode(const app_options *o);
/* The name (without the dashes) of the i-th option the parser knows, --help
   aside; NULL past the last. For --help's text and its test. */
const char *app_option_name(int i);
/* The file given to --option (option without the dashes, as the lesson
   registry names it: "heightmap", "mesh"); NULL when it was not given or
   is no option naming a file. */
const char *app_option_file(const app_options *o, const char *option);

#endif

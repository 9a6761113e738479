/*
 * main_web.c: raypick in the browser. The page (index.html) turns its URL
 * query into the command line's options (lesson=4 -> --lesson 4) and starts
 * the module; from here on it is the native program, except for the loop:
 * a browser owns it, so each animation frame calls the same app_frame the
 * native loop calls, until app_frame says the script is over. The last frame
 * then stays on the canvas for screenshots and for the reader.
 *
 * The teaching site's lesson pages (src/web/site/) show the code panel and
 * the tour in HTML: the program tells the page what the panel would show
 * whenever it changes (web_tell_step: Module.raypickStep(json)), and the
 * page drives the program through the raypick_web_* functions below.
 */
#define _POSIX_C_SOURCE 200809L     /* open_memstream */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <SDL.h>
#include <emscripten.h>
#include <emscripten/html5.h>

#include "app.h"
#include "lang.h"
#include "lesson.h"
#include "lessons.h"
#include "msg.h"
#include "report.h"

typedef struct web_run {
    app *a;
    app_options opt;
    double *frame_ms;       /* --bench-frames: time between animation frames */
    double *work_ms;        /* --bench-frames: time inside app_frame */
    double last_start;
    int frames_done;
} web_run;

/* The page tells the running program to stop before it starts a new one
   (another heightmap from the file picker); the browser's callbacks carry no
   user pointer back to us, hence this one pointer. */
static web_run *current_run;

static int compare_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* Like the native --bench-frames line. A browser's glFinish does not wait
   for its GPU process, so the frame time is the interval between animation
   frames (the browser starts the next one when the last is drawn, at most
   at the display's rate); work_ms is the time spent in app_frame. */
static void print_bench(const web_run *run)
{
    int n = run->frames_done - 1;   /* intervals */
    if (n < 1)
        return;
    int width = 0, height = 0;
    emscripten_get_canvas_element_size("#canvas", &width, &height);
    qsort(run->frame_ms + 1, (size_t)n, sizeof *run->frame_ms, compare_double);
    qsort(run->work_ms, (size_t)n + 1, sizeof *run->work_ms, compare_double);
    printf("{\"bench\":{\"lesson\":%d,\"width\":%d,\"height\":%d,\"frames\":%d,"
           "\"median_ms\":%.3f,\"max_ms\":%.3f,\"work_median_ms\":%.3f}}\n",
           run->opt.lesson, width, height, n + 1, run->frame_ms[1 + n / 2], run->frame_ms[n],
           run->work_ms[(n + 1) / 2]);
}

static void web_frame(void *user)
{
    web_run *run = user;
    double start = emscripten_get_now();
    bool more = app_frame(run->a);
    if (run->frame_ms && run->frames_done < run->opt.bench_frames) {
        run->frame_ms[run->frames_done] = start - run->last_start;
        run->work_ms[run->frames_done] = emscripten_get_now() - start;
    }
    run->last_start = start;
    ++run->frames_done;
    if (!more) {
        emscripten_cancel_main_loop();
        if (run->frame_ms)
            print_bench(run);
        fflush(stdout);
        /* the page marks itself finished: tests wait for this */
        char script[96];
        snprintf(script, sizeof script, "document.body.setAttribute('data-finished', '%d')", run->frames_done);
        emscripten_run_script(script);
    }
}

/* ------------------------------------------------------------ the page's code panel */

/* A JSON array of the listing's display lines, as the code panel shows
   them (their comments in the program's language). */
static void write_listing(FILE *out, const listing *code)
{
    char shown[LISTING_LINE_SHOWN_MAX];
    fputs("{\"name\":", out);
    report_string(out, code->name);
    fputs(",\"path\":", out);
    report_string(out, code->path);
    fputs(",\"lines\":[", out);
    for (int n = 1; n <= code->line_count; ++n) {
        if (n > 1)
            fputc(',', out);
        report_string(out, listing_line_shown(code, n, shown, sizeof shown));
    }
    fputs("]}", out);
}

/* The lesson's tour sentences, in the program's language. */
static void write_tour(FILE *out, const lesson *l)
{
    fputc('[', out);
    for (int m = 0; m < l->tour_count; ++m) {
        if (m)
            fputc(',', out);
        report_string(out, msg(l->tour[m].sentence));
    }
    fputc(']', out);
}

/* Hands a JSON text to the page's Module.raypickStep, when it has one. */
EM_JS(void, web_page_step, (const char *json), {
    if (Module.raypickStep) Module.raypickStep(UTF8ToString(json));
})

/* app_step_hook: one JSON object to the page's Module.raypickStep:
     {"lesson":4,"frame":N,"language":"de","tour":-1,"tours":[...],
      "listing":{"name","path","lines":[...]} or null,
      "steps":K, "report":{"step":{...}} or null}
   "report" is the native --report step line (report_step), so the page
   shows what the program reports natively. */
static void web_tell_step(void *user, int number, const lesson_code_view *view, int tour)
{
    web_run *run = user;
    const lessons_entry *e = lessons_get(number);
    if (!e)
        return;
    char *json = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&json, &size);
    if (!out)
        return;
    fprintf(out, "{\"lesson\":%d,\"frame\":%d,\"language\":", number, run->frames_done);
    report_string(out, msg_language());
    fprintf(out, ",\"tour\":%d,\"tours\":", tour);
    write_tour(out, e->lesson);
    fputs(",\"listing\":", out);
    if (view)
        write_listing(out, view->code);
    else
        fputs("null", out);
    fprintf(out, ",\"steps\":%d,\"report\":", view ? view->count : 0);
    if (view && view->step) {
        report_step(out, number, run->frames_done, view);   /* ends in a newline: JSON whitespace */
    } else {
        fputs("null", out);
    }
    fputs("}", out);
    fclose(out);
    web_page_step(json);
    free(json);
}

/* Called by the page: key k as if typed on the canvas ('.', ',', 'p', ...). */
EMSCRIPTEN_KEEPALIVE void raypick_web_key(int k)
{
    if (!current_run || k <= 32 || k >= 127)
        return;
    SDL_Event e;
    memset(&e, 0, sizeof e);
    e.type = SDL_KEYDOWN;
    e.key.state = SDL_PRESSED;
    e.key.keysym.sym = k;
    SDL_PushEvent(&e);
    e.type = SDL_KEYUP;
    e.key.state = SDL_RELEASED;
    SDL_PushEvent(&e);
}

/* Called by the page: a left click at (x, y) in the canvas's CSS pixels
   (SDL's window coordinates), handled at the next frame as a mouse click. */
EMSCRIPTEN_KEEPALIVE void raypick_web_click(int x, int y)
{
    if (!current_run)
        return;
    SDL_Event e;
    memset(&e, 0, sizeof e);
    e.type = SDL_MOUSEBUTTONDOWN;
    e.button.button = SDL_BUTTON_LEFT;
    e.button.state = SDL_PRESSED;
    e.button.clicks = 1;
    e.button.x = x;
    e.button.y = y;
    SDL_PushEvent(&e);
    e.type = SDL_MOUSEBUTTONUP;
    e.button.state = SDL_RELEASED;
    SDL_PushEvent(&e);
}

/* Called by the page: stage moment m (0-based) of the lesson's tour.
   Returns 1 when the lesson has it. */
EMSCRIPTEN_KEEPALIVE int raypick_web_tour(int m)
{
    return current_run && app_show_tour(current_run->a, m) ? 1 : 0;
}

/* Called by the page: the code panel in the canvas too (1), or only in
   the page (0), or while a step is shown (-1: the program's default). */
EMSCRIPTEN_KEEPALIVE void raypick_web_panel(int pref)
{
    if (current_run)
        app_set_code_panel(current_run->a, pref);
}

/* Called by the page: 1 when the last frame drew the code panel in the
   canvas, 0 when it did not (none wanted, or the canvas too small). */
EMSCRIPTEN_KEEPALIVE int raypick_web_panel_drawn(void)
{
    return current_run && app_code_panel_drawn(current_run->a) ? 1 : 0;
}

/* Called by the page: stop the loop and free everything. */
EMSCRIPTEN_KEEPALIVE void raypick_web_stop(void)
{
    if (!current_run)
        return;
    emscripten_cancel_main_loop();
    app_destroy(current_run->a);
    free(current_run->frame_ms);
    free(current_run->work_ms);
    free(current_run);
    current_run = NULL;
}

int main(int argc, char **argv)
{
    web_run *run = calloc(1, sizeof *run);
    if (!run) {
        fprintf(stderr, "raypick: out of memory\n");
        return 1;
    }
    char err[256] = "";
    app_parse_result parsed = app_parse_options(argc, argv, &run->opt, err, sizeof err);
    /* ?lang=de (the page's --lang), else the browser's language (emscripten
       sets LANG from navigator.language) */
    msg_set_language(app_lang_choose(run->opt.lang, getenv("LC_ALL"), getenv("LC_MESSAGES"), getenv("LANG")));
    switch (parsed) {
    case APP_PARSE_HELP:
        app_print_usage("raypick", stdout);
        free(run);
        return 0;
    case APP_PARSE_ERROR:
        fprintf(stderr, "raypick: %s\n", err);
        app_print_usage("raypick", stderr);
        free(run);
        return 2;
    default:
        break;
    }
    if (run->opt.list_lessons) {
        report_lessons(stdout);
        free(run);
        return 0;
    }
    if (run->opt.screenshot) {
        fprintf(stderr, "raypick: screenshot is not available in the browser: "
                        "use the browser's own (the last frame stays on the canvas)\n");
        free(run);
        return 2;
    }
    if (run->opt.print_layout) {
        int status = app_run(&run->opt);
        free(run);
        return status;
    }
    /* keys go to the canvas (it takes focus), not to the whole page: typing
       in the page's file picker must not switch lessons */
    SDL_SetHint(SDL_HINT_EMSCRIPTEN_KEYBOARD_ELEMENT, "#canvas");
    run->a = app_create(&run->opt);
    if (!run->a) {
        free(run);
        return 1;
    }
    if (run->opt.bench_frames > 0) {
        run->frame_ms = calloc((size_t)run->opt.bench_frames, sizeof *run->frame_ms);
        run->work_ms = calloc((size_t)run->opt.bench_frames, sizeof *run->work_ms);
        if (!run->frame_ms || !run->work_ms) {
            fprintf(stderr, "raypick: out of memory\n");
            app_destroy(run->a);
            free(run->frame_ms);
            free(run->work_ms);
            free(run);
            return 1;
        }
    }
    current_run = run;
    app_set_step_hook(run->a, web_tell_step, run);
    /* 0 fps: the browser's animation frames; 0: main returns, the page
       keeps running */
    emscripten_set_main_loop_arg(web_frame, run, 0, 0);
    return 0;
}

/* test_options.c: the command line's parser (src/app/options.c), which the
 * browser's page uses too (its URL query becomes "--name=value" arguments),
 * so these messages are the browser's as well: an unknown option is
 * "unknown option" wherever it stands, "--name=value" means "--name value",
 * a flag takes no value, a value is never the next option, an option given
 * twice is refused (--click and --key repeat), options that contradict each
 * other are refused, --help wins anywhere, and --help names every option
 * the parser knows and nothing else. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "lessons.h"
#include "options.h"

#define MAX_ARGS 16

typedef struct parsed {
    app_parse_result result;
    app_options opt;
    char err[256];
    char *argv[MAX_ARGS + 2];
} parsed;

/* Parses "raypick" followed by the NULL-terminated args. The strings must
   outlive the result (the options point into them). */
static parsed *parse_args(const char *const *args)
{
    parsed *p = calloc(1, sizeof *p);
    assert_non_null(p);
    int argc = 0;
    p->argv[argc++] = "raypick";
    for (; args[argc - 1]; ++argc) {
        assert_true(argc <= MAX_ARGS);
        p->argv[argc] = (char *)args[argc - 1];
    }
    p->argv[argc] = NULL;
    p->result = app_parse_options(argc, p->argv, &p->opt, p->err, sizeof p->err);
    return p;
}

#define PARSE(...) parse_args((const char *const[]){__VA_ARGS__, NULL})

/* The parse failed with exactly this message. */
static void expect_error(parsed *p, const char *message)
{
    if (p->result != APP_PARSE_ERROR || strcmp(p->err, message) != 0)
        fail_msg("want error \"%s\", got result %d, \"%s\"", message, (int)p->result, p->err);
    free(p);
}

static void unknown_option_wherever_it_stands(void **state)
{
    (void)state;
    /* last, first, between, with a value, empty, without dashes, one dash,
       a known name glued to its value, three dashes, another case */
    expect_error(PARSE("--bogus"), "unknown option '--bogus'");
    expect_error(PARSE("--frames", "3", "--bogus"), "unknown option '--bogus'");
    expect_error(PARSE("--bogus", "--frames", "3"), "unknown option '--bogus'");
    expect_error(PARSE("--lesson", "2", "--bogus", "1", "--frames", "3"), "unknown option '--bogus'");
    expect_error(PARSE("--bogus=1"), "unknown option '--bogus'");   /* as "--bogus 1" */
    expect_error(PARSE("--bogus", "1"), "unknown option '--bogus'");
    expect_error(PARSE("x=1"), "unknown option 'x=1'");
    expect_error(PARSE(""), "unknown option ''");
    expect_error(PARSE("--frames", "3", ""), "unknown option ''");
    expect_error(PARSE("extra"), "unknown option 'extra'");
    expect_error(PARSE("--frames", "3", "4"), "unknown option '4'");
    expect_error(PARSE("-x"), "unknown option '-x'");
    expect_error(PARSE("--lesson5"), "unknown option '--lesson5'");
    expect_error(PARSE("---lesson", "5"), "unknown option '---lesson'");
    expect_error(PARSE("--Lesson", "5"), "unknown option '--Lesson'");
    expect_error(PARSE("--"), "unknown option '--'");
    /* a value with no name: the whole argument, not a bare "--" */
    expect_error(PARSE("--=5"), "unknown option '--=5': no name before '='");
    expect_error(PARSE("--frames", "3", "--="), "unknown option '--=': no name before '='");
    expect_error(PARSE("--==lesson"), "unknown option '--==lesson': no name before '='");
    expect_error(PARSE("--=5", "--bogus"), "unknown option '--=5': no name before '='");
}

/* Each valued option with a good value, and how to see it was set. */
typedef struct valued_case {
    const char *name, *value;
    const char *companion[4];   /* what it needs beside it, NULL-terminated */
} valued_case;

static const valued_case valued[] = {
    {"lesson", "2", {NULL}},
    {"size", "320x200", {NULL}},
    {"heightmap", "map.png", {NULL}},
    {"heightmap-spacing", "2.5", {"--heightmap", "map.png", NULL}},
    {"heightmap-scale", "3", {"--heightmap", "map.png", NULL}},
    {"mesh", "model.obj", {NULL}},
    {"many-objects", "300", {NULL}},
    {"seed", "7", {NULL}},
    {"load-limit", "64", {"--mesh", "model.obj", NULL}},
    {"lang", "de", {NULL}},
    {"tour", "1", {"--lesson", "4", NULL}},     /* lesson 4 has a tour */
    {"click", "10,20@1", {NULL}},
    {"key", "m@1", {NULL}},
    {"move", "10,20@1", {NULL}},
    {"drag", "10,20:-5,40@1-3", {NULL}},
    {"frames", "4", {NULL}},
    {"screenshot", "shot.png", {"--frames", "2", NULL}},
    {"bench-frames", "5", {NULL}},
};
#define VALUED_COUNT (sizeof valued / sizeof valued[0])

static parsed *parse_case(const valued_case *c, const char *first, const char *second)
{
    const char *args[MAX_ARGS] = {first};
    int n = 1;
    if (second)
        args[n++] = second;
    for (int i = 0; c->companion[i]; ++i)
        args[n++] = c->companion[i];
    args[n] = NULL;
    return parse_args(args);
}

static bool same_text(const char *a, const char *b)
{
    return (!a && !b) || (a && b && !strcmp(a, b));
}

static void options_equal(const app_options *a, const app_options *b)
{
    assert_int_equal(a->lesson, b->lesson);
    assert_int_equal(a->width, b->width);
    assert_int_equal(a->height, b->height);
    assert_int_equal(a->event_count, b->event_count);
    for (int i = 0; i < a->event_count; ++i) {
        assert_int_equal(a->events[i].frame, b->events[i].frame);
        assert_int_equal(a->events[i].kind, b->events[i].kind);
        assert_true(a->events[i].x == b->events[i].x && a->events[i].y == b->events[i].y);
        assert_true(a->events[i].x1 == b->events[i].x1 && a->events[i].y1 == b->events[i].y1);
        assert_int_equal(a->events[i].end_frame, b->events[i].end_frame);
        assert_int_equal(a->events[i].key, b->events[i].key);
    }
    assert_int_equal(a->frames, b->frames);
    assert_int_equal(a->bench_frames, b->bench_frames);
    assert_true(same_text(a->screenshot, b->screenshot));
    assert_true(same_text(a->heightmap, b->heightmap));
    assert_true(a->heightmap_spacing == b->heightmap_spacing);
    assert_true(a->heightmap_scale == b->heightmap_scale);
    assert_true(same_text(a->mesh, b->mesh));
    assert_true(same_text(a->lang, b->lang));
    assert_int_equal(a->tour, b->tour);
    assert_int_equal(a->many_objects, b->many_objects);
    assert_true(a->load_limit == b->load_limit);
    assert_int_equal(a->report, b->report);
    assert_int_equal(a->print_layout, b->print_layout);
    assert_int_equal(a->list_lessons, b->list_lessons);
    assert_int_equal(a->seed, b->seed);
}

static void equals_form_means_the_same_as_a_space(void **state)
{
    (void)state;
    for (size_t i = 0; i < VALUED_COUNT; ++i) {
        char option[64], joined[96];
        snprintf(option, sizeof option, "--%s", valued[i].name);
        snprintf(joined, sizeof joined, "--%s=%s", valued[i].name, valued[i].value);
        parsed *spaced = parse_case(&valued[i], option, valued[i].value);
        parsed *equals = parse_case(&valued[i], joined, NULL);
        if (spaced->result != APP_PARSE_OK || equals->result != APP_PARSE_OK)
            fail_msg("--%s: \"%s\" / \"%s\"", valued[i].name, spaced->err, equals->err);
        options_equal(&spaced->opt, &equals->opt);
        /* and the option did something: its companions alone parse otherwise */
        parsed *without = parse_args(valued[i].companion);
        assert_int_equal(without->result, APP_PARSE_OK);
        assert_true(memcmp(&without->opt, &spaced->opt, sizeof without->opt) != 0);
        free(without);
        free(spaced);
        free(equals);
    }
    /* the value after '=' is taken as written, even one that looks like an option */
    parsed *p = PARSE("--mesh=--frames");
    assert_int_equal(p->result, APP_PARSE_OK);
    assert_string_equal(p->opt.mesh, "--frames");
    free(p);
    p = PARSE("--heightmap=a=b.png");
    assert_int_equal(p->result, APP_PARSE_OK);
    assert_string_equal(p->opt.heightmap, "a=b.png");
    free(p);
    /* negative numbers are values, not options */
    expect_error(PARSE("--heightmap-scale", "-1", "--heightmap", "m.png"), "bad value for --heightmap-scale: '-1'");
}

static void a_missing_value_is_named(void **state)
{
    (void)state;
    expect_error(PARSE("--lesson"), "--lesson needs a value");
    expect_error(PARSE("--frames", "3", "--lesson"), "--lesson needs a value");
    /* the next option is not the value: "--mesh --frames 3" used to load a file named --frames */
    expect_error(PARSE("--mesh", "--frames", "3"), "--mesh needs a value");
    expect_error(PARSE("--screenshot", "--report", "--frames", "3"), "--screenshot needs a value");
    /* an empty value is a bad value, said the same way in both forms */
    expect_error(PARSE("--lesson="), "bad value for --lesson: ''");
    expect_error(PARSE("--lesson", ""), "bad value for --lesson: ''");
    expect_error(PARSE("--mesh="), "bad value for --mesh: ''");
    expect_error(PARSE("--lesson=abc"), "bad value for --lesson: 'abc'");
}

static void a_flag_takes_no_value(void **state)
{
    (void)state;
    expect_error(PARSE("--report=1"), "--report takes no value (given '1')");
    expect_error(PARSE("--report="), "--report takes no value (given '')");
    expect_error(PARSE("--print-layout=yes"), "--print-layout takes no value (given 'yes')");
    expect_error(PARSE("--list-lessons=1"), "--list-lessons takes no value (given '1')");
    /* a flag followed by a word: the word is no value of it, so it is unknown */
    expect_error(PARSE("--report", "yes", "--frames", "2"), "unknown option 'yes'");
}

static void an_option_given_twice_is_refused(void **state)
{
    (void)state;
    for (size_t i = 0; i < VALUED_COUNT; ++i) {
        const valued_case *c = &valued[i];
        if (!strcmp(c->name, "click") || !strcmp(c->name, "key") || !strcmp(c->name, "move") ||
            !strcmp(c->name, "drag"))
            continue;
        char option[64], joined[96], want[128];
        snprintf(option, sizeof option, "--%s", c->name);
        snprintf(joined, sizeof joined, "--%s=%s", c->name, c->value);
        snprintf(want, sizeof want, "--%s is given twice: once is enough", c->name);
        /* the same value twice (no "last one wins" either), the two forms mixed */
        const char *twice[MAX_ARGS] = {option, c->value, joined};
        int n = 3;
        for (int k = 0; c->companion[k]; ++k)
            twice[n++] = c->companion[k];
        twice[n] = NULL;
        expect_error(parse_args(twice), want);
        const char *other[MAX_ARGS] = {joined, option, c->value};
        for (int k = 3; k <= n; ++k)
            other[k] = twice[k];
        expect_error(parse_args(other), want);
    }
    expect_error(PARSE("--report", "--report"), "--report is given twice: once is enough");
    expect_error(PARSE("--print-layout", "--print-layout"), "--print-layout is given twice: once is enough");
    expect_error(PARSE("--lesson", "1", "--lesson", "2"), "--lesson is given twice: once is enough");
    /* --click and --key repeat: every one is kept, in order */
    parsed *p = PARSE("--frames", "9", "--click", "1,2@3", "--key", "m@1", "--click=5,6@7", "--key=t@8");
    assert_int_equal(p->result, APP_PARSE_OK);
    assert_int_equal(p->opt.event_count, 4);
    assert_true(p->opt.events[0].kind == APP_EVENT_CLICK && p->opt.events[0].x == 1.0f && p->opt.events[0].frame == 3);
    assert_true(p->opt.events[1].kind == APP_EVENT_KEY && p->opt.events[1].key == 'm');
    assert_true(p->opt.events[2].kind == APP_EVENT_CLICK && p->opt.events[2].y == 6.0f && p->opt.events[2].frame == 7);
    assert_true(p->opt.events[3].kind == APP_EVENT_KEY && p->opt.events[3].key == 't' && p->opt.events[3].frame == 8);
    free(p);
}

/* --move and --drag: hover and drags in script mode, in the same event list */
static void moves_and_drags_are_events(void **state)
{
    (void)state;
    parsed *p = PARSE("--frames", "20", "--move", "3,4@2", "--drag", "10,20:-5.5,700@4-12", "--move=7,8@15");
    assert_int_equal(p->result, APP_PARSE_OK);
    assert_int_equal(p->opt.event_count, 3);
    const app_script_event *e = p->opt.events;
    assert_true(e[0].kind == APP_EVENT_MOVE && e[0].x == 3.0f && e[0].y == 4.0f && e[0].frame == 2);
    /* a drag ends anywhere: the window holds the mouse while the button is down */
    assert_true(e[1].kind == APP_EVENT_DRAG && e[1].x == 10.0f && e[1].y == 20.0f && e[1].x1 == -5.5f &&
                e[1].y1 == 700.0f && e[1].frame == 4 && e[1].end_frame == 12);
    assert_true(e[2].kind == APP_EVENT_MOVE && e[2].x == 7.0f && e[2].frame == 15);
    free(p);
    /* malformed: no frames, one frame, backwards, no end, a press outside the window, a move outside */
    const char *bad_drags[] = {"1,2:3,4", "1,2:3,4@5", "1,2:3,4@5-5", "1,2:3,4@6-5", "1,2@1-3", "-1,2:3,4@1-3",
                               "1,2:3@1-3", "1,2:3,4@1-x", "a,2:3,4@1-3", "1,2:3,4@-3"};
    for (size_t i = 0; i < sizeof bad_drags / sizeof bad_drags[0]; ++i) {
        char want[96];
        snprintf(want, sizeof want, "bad value for --drag: '%s'", bad_drags[i]);
        expect_error(parse_args((const char *const[]){"--frames", "9", "--drag", bad_drags[i], NULL}), want);
    }
    const char *bad_moves[] = {"1,2", "-1,2@3", "1@3", "1,2@x", "nan,2@1"};
    for (size_t i = 0; i < sizeof bad_moves / sizeof bad_moves[0]; ++i) {
        char want[96];
        snprintf(want, sizeof want, "bad value for --move: '%s'", bad_moves[i]);
        expect_error(parse_args((const char *const[]){"--frames", "9", "--move", bad_moves[i], NULL}), want);
    }
    /* the press must happen within the run, as every event must; the
       release may lie past its end (a screenshot of the drag under way) */
    expect_error(PARSE("--frames", "10", "--drag", "1,2:3,4@10-12"),
                 "an event at frame 10 never happens: the run has 10 frames (0-9)");
    p = PARSE("--frames", "10", "--drag", "1,2:3,4@5-20");
    assert_int_equal(p->result, APP_PARSE_OK);
    free(p);
    expect_error(PARSE("--print-layout", "--move", "1,1@0"),
                 "--print-layout and --move do not go together: "
                 "--print-layout prints the layout and exits before the first frame");
    expect_error(PARSE("--print-layout", "--drag", "1,1:2,2@0-1"),
                 "--print-layout and --drag do not go together: "
                 "--print-layout prints the layout and exits before the first frame");
}

static void contradicting_options_are_refused(void **state)
{
    (void)state;
    /* --bench-frames used to override --frames without a word, in either order */
    expect_error(PARSE("--frames", "3", "--bench-frames", "5"),
                 "--frames and --bench-frames do not go together: --bench-frames N runs N frames itself");
    expect_error(PARSE("--bench-frames", "5", "--frames", "3"),
                 "--frames and --bench-frames do not go together: --bench-frames N runs N frames itself");
    /* --print-layout exits before any frame: a script beside it would be ignored */
    const char *script[][3] = {{"--frames", "2", NULL}, {"--bench-frames", "2", NULL},
                               {"--report", NULL, NULL}, {"--click", "1,1@0", NULL}, {"--key", "m@0", NULL}};
    for (size_t i = 0; i < sizeof script / sizeof script[0]; ++i) {
        char want[160];
        snprintf(want, sizeof want, "--print-layout and %s do not go together: "
                 "--print-layout prints the layout and exits before the first frame", script[i][0]);
        expect_error(parse_args((const char *const[]){"--print-layout", script[i][0], script[i][1], NULL}), want);
    }
    expect_error(PARSE("--print-layout", "--frames", "2", "--screenshot", "a.png"),
                 "--print-layout and --frames do not go together: "
                 "--print-layout prints the layout and exits before the first frame");
    /* --list-lessons prints the registry and exits: nothing else applies */
    expect_error(PARSE("--list-lessons", "--lesson", "2"),
                 "--list-lessons prints the lessons and exits: it takes no other option but --lang (--lesson)");
    expect_error(PARSE("--size", "64x64", "--list-lessons"),
                 "--list-lessons prints the lessons and exits: it takes no other option but --lang (--size)");
    /* options that do nothing without another */
    expect_error(PARSE("--load-limit", "64"), "--load-limit needs --heightmap or --mesh (it limits loading them)");
    expect_error(PARSE("--heightmap-scale", "2"), "--heightmap-spacing and --heightmap-scale need --heightmap");
    expect_error(PARSE("--screenshot", "a.png"), "--screenshot needs --frames or --bench-frames");
    /* and what does go together */
    parsed *p = PARSE("--bench-frames", "4", "--report", "--screenshot", "a.png", "--click", "1,1@3");
    assert_int_equal(p->result, APP_PARSE_OK);
    free(p);
    p = PARSE("--print-layout", "--lesson", "5", "--mesh", "m.obj", "--load-limit", "2048", "--size", "64x64");
    assert_int_equal(p->result, APP_PARSE_OK);
    assert_true(p->opt.load_limit == 2048LL << 20);
    free(p);
    p = PARSE("--list-lessons");
    assert_int_equal(p->result, APP_PARSE_OK);
    assert_true(p->opt.list_lessons);
    free(p);
    p = PARSE("--lang", "de", "--list-lessons");     /* the titles in that language */
    assert_int_equal(p->result, APP_PARSE_OK);
    assert_string_equal(p->opt.lang, "de");
    free(p);
}

static void help_wins_wherever_it_stands(void **state)
{
    (void)state;
    const char *const cases[][5] = {{"--help", NULL}, {"-h", NULL}, {"--lesson", "99", "--help", NULL},
                                    {"--bogus", "-h", NULL}, {"--frames", "3", "--bench-frames", "--help"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        parsed *p = parse_args(cases[i]);
        assert_int_equal(p->result, APP_PARSE_HELP);
        free(p);
    }
    /* a value that reads "--help" after '=' is a value */
    parsed *p = PARSE("--mesh=--help");
    assert_int_equal(p->result, APP_PARSE_OK);
    assert_string_equal(p->opt.mesh, "--help");
    free(p);
    expect_error(PARSE("--help=1"), "--help takes no value (given '1')");
}

/* --help's text names exactly the options the parser knows. */
static void help_names_every_option_and_no_other(void **state)
{
    (void)state;
    FILE *f = tmpfile();
    assert_non_null(f);
    app_print_usage("raypick", f);
    long size = ftell(f);
    assert_true(size > 0);
    char *text = calloc(1, (size_t)size + 1);
    assert_non_null(text);
    rewind(f);
    assert_int_equal(fread(text, 1, (size_t)size, f), (size_t)size);
    fclose(f);
    int known = 0;
    for (const char *name; (name = app_option_name(known)) != NULL; ++known) {
        char option[64];
        snprintf(option, sizeof option, "  --%s ", name);
        if (!strstr(text, option))
            fail_msg("--help has no line for --%s", name);
    }
    assert_int_equal(known, (int)VALUED_COUNT + 3);    /* and the flags report, print-layout, list-lessons */
    /* every "--word" at the start of a line of --help is an option the parser knows */
    int listed = 0;
    for (const char *line = text; line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        if (strncmp(line, "  --", 4) != 0)
            continue;
        char name[64] = "";
        sscanf(line + 4, "%63[a-z-]", name);
        if (!strcmp(name, "help"))
            continue;
        bool found = false;
        for (int i = 0; app_option_name(i); ++i)
            found |= !strcmp(app_option_name(i), name);
        if (!found)
            fail_msg("--help lists --%s, which the parser does not know", name);
        ++listed;
    }
    assert_int_equal(listed, known);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(unknown_option_wherever_it_stands),
        cmocka_unit_test(equals_form_means_the_same_as_a_space),
        cmocka_unit_test(a_missing_value_is_named),
        cmocka_unit_test(a_flag_takes_no_value),
        cmocka_unit_test(an_option_given_twice_is_refused),
        cmocka_unit_test(moves_and_drags_are_events),
        cmocka_unit_test(contradicting_options_are_refused),
        cmocka_unit_test(help_wins_wherever_it_stands),
        cmocka_unit_test(help_names_every_option_and_no_other),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

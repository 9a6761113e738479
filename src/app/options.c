/* options.c: parse the command line strictly: anything odd is an error
   (exit 2 with usage), never a silent default. The browser's page hands its
   URL query to the same parser (src/web/index.html), so both say the same. */
#include "options.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "lessons.h"
#include "msg.h"

/* "lesson N: " for the lesson that loads --option's file (the registry's),
   "" when none does */
static const char *file_lesson(const char *option, char *buf, size_t size)
{
    const lessons_entry *e = lessons_for_file(option);
    if (e)
        snprintf(buf, size, "lesson %d: ", e->number);
    else
        buf[0] = '\0';
    return buf;
}

/* "en, de, zh": the catalogue's languages */
static const char *language_list(char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (const char *const *code = msg_languages(); *code && used < size; ++code) {
        int n = snprintf(buf + used, size - used, "%s%s", used ? ", " : "", *code);
        if (n < 0)
            break;
        used += (size_t)n;
    }
    return buf;
}

void app_print_usage(const char *argv0, FILE *out)
{
    int count = lessons_count();
    char heightmap[16], mesh[16], languages[64];
    fprintf(out,
            "usage: %s [options]\n"
            "  --lesson N          start in lesson N (1-%d)\n"
            "  --size WxH          window size (default 1280x720)\n"
            "  --heightmap FILE    %sload the terrain from an image (PNG, PGM, PPM, BMP;\n"
            "                      at most 16384 a side, and --load-limit to load)\n"
            "  --heightmap-spacing S  world units between samples (default: the map fits\n"
            "                      48x48 units, its longer side 48 whatever its pixels)\n"
            "  --heightmap-scale H world height of white (default 7; black is 0)\n"
            "  --mesh FILE         %spick this model (.obj; .x .gltf .glb .ply .stl\n"
            "                      with a build with assimp; no other format)\n"
            "  --many-objects N    lesson 1's many-objects mode (A): N objects (1-1000000,\n"
            "                      default 100000)\n"
            "  --seed N            seed of the procedural scenes (default 1)\n"
            "  --load-limit MIB    memory loading --heightmap or --mesh may take (default 1024;\n"
            "                      16-1048576): larger files are refused before they are decoded\n"
            "  --lang CODE         language of the HUD and this help: %s (default: the\n"
            "                      locale's, from LC_ALL, LC_MESSAGES or LANG; else en).\n"
            "                      Fonts: the system's, or the files in RAYPICK_FONT\n"
            "  --tour N            start at moment N of the lesson's tour (key O walks it)\n"
            "script mode (fixed time step, for tests and screenshots):\n"
            "  --click X,Y@FRAME   left click at window coordinates X,Y (repeatable)\n"
            "  --key K@FRAME       press key K (repeatable)\n"
            "  --move X,Y@FRAME    the cursor moves to X,Y, no button held (hover; repeatable)\n"
            "  --drag X0,Y0:X1,Y1@F0-F1  left button down at X0,Y0 at frame F0, the cursor\n"
            "                      moves in a line each frame to X1,Y1 (may be outside the\n"
            "                      window), button up at frame F1 > F0 (repeatable)\n"
            "  --frames N          run N frames, then exit\n"
            "  --screenshot FILE   write the last frame as PNG\n"
            "  --report            one JSON line per pick on stdout\n"
            "  --print-layout      print the lesson's objects and camera as JSON, exit\n"
            "  --bench-frames N    run N frames, print the median frame time\n"
            "  --list-lessons      print the lessons as JSON (number, name, title, ...), exit\n"
            "  --help              this text\n"
            "a value goes after a space or '=' (--lesson 4, --lesson=4); each option once,\n"
            "--click, --key, --move and --drag as often as needed\n"
            "keys: 1-%d lesson, G GPU picking, H help, R reset camera, right drag or [ ] orbit, wheel zoom,\n"
            "      left click pick, M/N/B/T/S/L/Z lesson toggles (see the HUD), P step mode\n"
            "      (. next step, , previous), C code panel, O tour: next moment, Esc quit\n"
            "lessons:\n",
            argv0, count, file_lesson("heightmap", heightmap, sizeof heightmap),
            file_lesson("mesh", mesh, sizeof mesh), language_list(languages, sizeof languages), count);
    for (int n = 1; n <= count; ++n)
        fprintf(out, "  %d  %s\n", n, lessons_title(lessons_get(n)));
}

static bool parse_int(const char *s, long min, long max, int *out)
{
    if (!s || !*s || isspace((unsigned char)*s))
        return false;
    char *end = NULL;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *end || v < min || v > max)
        return false;
    *out = (int)v;
    return true;
}

static bool parse_float(const char *s, float *out)
{
    if (!s || !*s || isspace((unsigned char)*s))
        return false;
    char *end = NULL;
    errno = 0;
    float v = strtof(s, &end);
    if (errno || *end || v != v || v < -100000.0f || v > 100000.0f)
        return false;
    *out = v;
    return true;
}

/* "A@FRAME": split off the frame number */
static bool split_frame(const char *arg, char *head, size_t head_size, int *frame)
{
    const char *at = strrchr(arg, '@');
    if (!at || (size_t)(at - arg) >= head_size || at == arg)
        return false;
    memcpy(head, arg, (size_t)(at - arg));
    head[at - arg] = '\0';
    return parse_int(at + 1, 0, 1000000, frame);
}

static bool parse_click(const char *arg, app_script_event *e)
{
    char head[64];
    if (!split_frame(arg, head, sizeof head, &e->frame))
        return false;
    char *comma = strchr(head, ',');
    if (!comma)
        return false;
    *comma = '\0';
    e->kind = APP_EVENT_CLICK;
    return parse_float(head, &e->x) && parse_float(comma + 1, &e->y) && e->x >= 0 && e->y >= 0;
}

/* "X,Y" anywhere (a drag's end may lie outside the window) */
static bool parse_point(char *s, float *x, float *y)
{
    char *comma = strchr(s, ',');
    if (!comma)
        return false;
    *comma = '\0';
    return parse_float(s, x) && parse_float(comma + 1, y);
}

static bool parse_move(const char *arg, app_script_event *e)
{
    if (!parse_click(arg, e))
        return false;
    e->kind = APP_EVENT_MOVE;
    return true;
}

/* "X0,Y0:X1,Y1@F0-F1": it starts in the window (a press outside it is no
   press the window gets), ends anywhere, and lasts at least one frame */
static bool parse_drag(const char *arg, app_script_event *e)
{
    const char *at = strrchr(arg, '@');
    char head[96], frames[32];
    if (!at || at == arg || (size_t)(at - arg) >= sizeof head || strlen(at + 1) >= sizeof frames)
        return false;
    memcpy(head, arg, (size_t)(at - arg));
    head[at - arg] = '\0';
    strcpy(frames, at + 1);
    char *colon = strchr(head, ':'), *dash = strchr(frames, '-');
    if (!colon || !dash)
        return false;
    *colon = '\0';
    *dash = '\0';
    e->kind = APP_EVENT_DRAG;
    return parse_point(head, &e->x, &e->y) && e->x >= 0 && e->y >= 0 && parse_point(colon + 1, &e->x1, &e->y1) &&
           parse_int(frames, 0, 1000000, &e->frame) && parse_int(dash + 1, 0, 1000000, &e->end_frame) &&
           e->end_frame > e->frame;
}

static bool parse_key(const char *arg, app_script_event *e)
{
    char head[16];
    if (!split_frame(arg, head, sizeof head, &e->frame) || strlen(head) != 1 ||
        !isgraph((unsigned char)head[0]))
        return false;
    e->kind = APP_EVENT_KEY;
    e->key = (char)tolower((unsigned char)head[0]);
    return true;
}

static bool parse_size(const char *arg, int *w, int *h)
{
    char buf[32];
    if (!arg || strlen(arg) >= sizeof buf)
        return false;
    strcpy(buf, arg);
    char *x = strchr(buf, 'x');
    if (!x)
        return false;
    *x = '\0';
    return parse_int(buf, 64, 8192, w) && parse_int(x + 1, 64, 8192, h);
}

/* ---- the options, one table: each option's name (without the dashes),
   whether it takes a value, whether it may be given more than once, and
   what it sets. A setter returns false for a bad value; it may write its own
   message to err (else the parser says "bad value for --name"). */

typedef bool (*option_setter)(app_options *o, const char *value, char *err, size_t n);

static bool set_report(app_options *o, const char *v, char *err, size_t n)
{
    (void)v, (void)err, (void)n;
    o->report = true;
    return true;
}

static bool set_print_layout(app_options *o, const char *v, char *err, size_t n)
{
    (void)v, (void)err, (void)n;
    o->print_layout = true;
    return true;
}

static bool set_list_lessons(app_options *o, const char *v, char *err, size_t n)
{
    (void)v, (void)err, (void)n;
    o->list_lessons = true;
    return true;
}

static bool set_lesson(app_options *o, const char *v, char *err, size_t n)
{
    (void)err, (void)n;
    return parse_int(v, 1, lessons_count(), &o->lesson);
}

static bool set_size(app_options *o, const char *v, char *err, size_t n)
{
    (void)err, (void)n;
    return parse_size(v, &o->width, &o->height);
}

static bool set_frames(app_options *o, const char *v, char *err, size_t n)
{
    (void)err, (void)n;
    return parse_int(v, 1, 1000000, &o->frames);
}

static bool set_bench_frames(app_options *o, const char *v, char *err, size_t n)
{
    (void)err, (void)n;
    return parse_int(v, 1, 1000000, &o->bench_frames);
}

static bool set_many_objects(app_options *o, const char *v, char *err, size_t n)
{
    (void)err, (void)n;
    return parse_int(v, 1, 1000000, &o->many_objects);
}

static bool set_load_limit(app_options *o, const char *v, char *err, size_t n)
{
    (void)err, (void)n;
    int mib = 0;
    if (!parse_int(v, 16, 1048576, &mib))
        return false;
    o->load_limit = (long long)mib << 20;
    return true;
}

static bool set_seed(app_options *o, const char *v, char *err, size_t n)
{
    (void)err, (void)n;
    int seed = 0;
    if (!parse_int(v, 0, INT_MAX, &seed))
        return false;
    o->seed = (uint32_t)seed;
    return true;
}

static bool set_screenshot(app_options *o, const char *v, char *err, size_t n)
{
    (void)err, (void)n;
    o->screenshot = v;
    return *v != '\0';
}

static bool set_mesh(app_options *o, const char *v, char *err, size_t n)
{
    (void)err, (void)n;
    o->mesh = v;
    return *v != '\0';
}

static bool set_heightmap(app_options *o, const char *v, char *err, size_t n)
{
    (void)err, (void)n;
    o->heightmap = v;
    return *v != '\0';
}

static bool set_heightmap_spacing(app_options *o, const char *v, char *err, size_t n)
{
    (void)err, (void)n;
    return parse_float(v, &o->heightmap_spacing) && o->heightmap_spacing > 0.0f;
}

static bool set_heightmap_scale(app_options *o, const char *v, char *err, size_t n)
{
    (void)err, (void)n;
    return parse_float(v, &o->heightmap_scale) && o->heightmap_scale > 0.0f;
}

static bool set_lang(app_options *o, const char *v, char *err, size_t n)
{
    if (!msg_has_language(v)) {
        char codes[64];
        snprintf(err, n, "--lang: no language '%s' (there are %s)", v, language_list(codes, sizeof codes));
        return false;
    }
    o->lang = v;
    return true;
}

static bool set_tour(app_options *o, const char *v, char *err, size_t n)
{
    (void)err, (void)n;
    return parse_int(v, 1, 1000, &o->tour);
}

/* --click, --key, --move and --drag share the event list */
static app_script_event *next_event(app_options *o, char *err, size_t n)
{
    if (o->event_count == APP_MAX_EVENTS) {
        snprintf(err, n, "too many --click/--key/--move/--drag events (at most %d)", APP_MAX_EVENTS);
        return NULL;
    }
    return &o->events[o->event_count++];
}

static bool set_click(app_options *o, const char *v, char *err, size_t n)
{
    app_script_event *e = next_event(o, err, n);
    return e && parse_click(v, e);
}

static bool set_key(app_options *o, const char *v, char *err, size_t n)
{
    app_script_event *e = next_event(o, err, n);
    return e && parse_key(v, e);
}

static bool set_move(app_options *o, const char *v, char *err, size_t n)
{
    app_script_event *e = next_event(o, err, n);
    return e && parse_move(v, e);
}

static bool set_drag(app_options *o, const char *v, char *err, size_t n)
{
    app_script_event *e = next_event(o, err, n);
    return e && parse_drag(v, e);
}

typedef struct option_spec {
    const char *name;       /* without the dashes */
    bool takes_value;
    bool repeatable;        /* else a second one is an error, never "the last wins" */
    option_setter set;
} option_spec;

static const option_spec options[] = {
    {"lesson", true, false, set_lesson},
    {"size", true, false, set_size},
    {"heightmap", true, false, set_heightmap},
    {"heightmap-spacing", true, false, set_heightmap_spacing},
    {"heightmap-scale", true, false, set_heightmap_scale},
    {"mesh", true, false, set_mesh},
    {"many-objects", true, false, set_many_objects},
    {"seed", true, false, set_seed},
    {"load-limit", true, false, set_load_limit},
    {"lang", true, false, set_lang},
    {"tour", true, false, set_tour},
    {"click", true, true, set_click},
    {"key", true, true, set_key},
    {"move", true, true, set_move},
    {"drag", true, true, set_drag},
    {"frames", true, false, set_frames},
    {"screenshot", true, false, set_screenshot},
    {"report", false, false, set_report},
    {"print-layout", false, false, set_print_layout},
    {"bench-frames", true, false, set_bench_frames},
    {"list-lessons", false, false, set_list_lessons},
};
#define OPTION_COUNT (int)(sizeof options / sizeof options[0])

/* The table's index of "--NAME" or "--NAME=...", -1 for anything else */
static int find_option(const char *arg)
{
    if (strncmp(arg, "--", 2) != 0)
        return -1;
    const char *name = arg + 2;
    size_t len = strcspn(name, "=");
    for (int i = 0; i < OPTION_COUNT; ++i)
        if (strlen(options[i].name) == len && !strncmp(options[i].name, name, len))
            return i;
    return -1;
}

/* Options that make no sense together: the second would be silently
   ignored or override the first. */
static const struct {
    const char *a, *b, *why;
} conflicts[] = {
    {"frames", "bench-frames", "--bench-frames N runs N frames itself"},
    {"print-layout", "frames", "--print-layout prints the layout and exits before the first frame"},
    {"print-layout", "bench-frames", "--print-layout prints the layout and exits before the first frame"},
    {"print-layout", "screenshot", "--print-layout prints the layout and exits before the first frame"},
    {"print-layout", "report", "--print-layout prints the layout and exits before the first frame"},
    {"print-layout", "click", "--print-layout prints the layout and exits before the first frame"},
    {"print-layout", "key", "--print-layout prints the layout and exits before the first frame"},
    {"print-layout", "move", "--print-layout prints the layout and exits before the first frame"},
    {"print-layout", "drag", "--print-layout prints the layout and exits before the first frame"},
};

static int option_index(const char *name)
{
    for (int i = 0; i < OPTION_COUNT; ++i)
        if (!strcmp(options[i].name, name))
            return i;
    return -1;
}

/* Rules between options, checked once all are read. false after writing
   the first broken one to err. */
static bool options_agree(const app_options *o, const bool *given, char *err, size_t n)
{
    const lesson *l = lessons_get(o->lesson)->lesson;
    if (o->tour > l->tour_count) {
        if (l->tour_count > 0)
            snprintf(err, n, "--tour %d: lesson %d's tour has %d moments (1-%d)", o->tour, o->lesson, l->tour_count,
                     l->tour_count);
        else
            snprintf(err, n, "--tour %d: lesson %d has no tour", o->tour, o->lesson);
        return false;
    }
    if (o->list_lessons) {
        for (int i = 0; i < OPTION_COUNT; ++i) {
            /* --lang names the language of the titles it prints */
            if (given[i] && options[i].set != set_list_lessons && options[i].set != set_lang) {
                snprintf(err, n, "--list-lessons prints the lessons and exits: it takes no other option but "
                                 "--lang (--%s)", options[i].name);
                return false;
            }
        }
    }
    for (size_t c = 0; c < sizeof conflicts / sizeof conflicts[0]; ++c) {
        if (given[option_index(conflicts[c].a)] && given[option_index(conflicts[c].b)]) {
            snprintf(err, n, "--%s and --%s do not go together: %s", conflicts[c].a, conflicts[c].b,
                     conflicts[c].why);
            return false;
        }
    }
    int frames = o->bench_frames > 0 ? o->bench_frames : o->frames;
    for (int i = 0; frames > 0 && i < o->event_count; ++i) {
        /* a drag may still be held when the run ends (a screenshot of it
           under way): its press must happen */
        if (o->events[i].frame >= frames) {
            snprintf(err, n, "an event at frame %d never happens: the run has %d frames (0-%d)",
                     o->events[i].frame, frames, frames - 1);
            return false;
        }
    }
    if ((o->heightmap_spacing > 0.0f || o->heightmap_scale > 0.0f) && !o->heightmap) {
        snprintf(err, n, "--heightmap-spacing and --heightmap-scale need --heightmap");
        return false;
    }
    if (o->load_limit > 0 && !o->heightmap && !o->mesh) {
        snprintf(err, n, "--load-limit needs --heightmap or --mesh (it limits loading them)");
        return false;
    }
    if (o->screenshot && !app_script_mode(o)) {
        snprintf(err, n, "--screenshot needs --frames or --bench-frames");
        return false;
    }
    return true;
}

app_parse_result app_parse_options(int argc, char **argv, app_options *o, char *err, size_t n)
{
    memset(o, 0, sizeof *o);
    o->lesson = 1;
    o->width = 1280;
    o->height = 720;
    o->seed = 1;
    err[0] = '\0';
    /* help wins wherever it stands: "raypick --lesson 9 --help" asks how,
       in the language a --lang anywhere asks for */
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--help") != 0 && strcmp(argv[i], "-h") != 0)
            continue;
        for (int j = 1; j < argc; ++j) {
            const char *code = !strncmp(argv[j], "--lang=", 7) ? argv[j] + 7
                               : !strcmp(argv[j], "--lang") && j + 1 < argc ? argv[j + 1] : NULL;
            if (code && msg_has_language(code))
                o->lang = code;
        }
        return APP_PARSE_HELP;
    }
    bool given[OPTION_COUNT] = {false};
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        int k = find_option(a);
        if (k < 0 && !strncmp(a, "--help=", 7)) {
            snprintf(err, n, "--help takes no value (given '%s')", a + 7);
            return APP_PARSE_ERROR;
        }
        if (k < 0 && !strncmp(a, "--=", 3)) {
            /* "--=5": a value with no name; the whole argument, said so
               (cut at the '=', it would read as a bare "--") */
            snprintf(err, n, "unknown option '%s': no name before '='", a);
            return APP_PARSE_ERROR;
        }
        if (k < 0) {
            /* "--bogus=1" names "--bogus", as "--bogus 1" does */
            int len = !strncmp(a, "--", 2) ? (int)strcspn(a, "=") : (int)strlen(a);
            snprintf(err, n, "unknown option '%.*s'", len, a);
            return APP_PARSE_ERROR;
        }
        const option_spec *spec = &options[k];
        const char *eq = strchr(a, '=');
        const char *v = NULL;
        if (!spec->takes_value) {
            if (eq) {
                snprintf(err, n, "--%s takes no value (given '%s')", spec->name, eq + 1);
                return APP_PARSE_ERROR;
            }
        } else if (eq) {
            v = eq + 1;         /* --name=value: the value as written, even "--x" */
        } else if (i + 1 < argc && strncmp(argv[i + 1], "--", 2) != 0) {
            v = argv[++i];
        } else {
            /* "--mesh --frames 3": "--frames" is the next option, not a file
               (a file of that name: --mesh=--frames or --mesh ./--frames) */
            snprintf(err, n, "--%s needs a value", spec->name);
            return APP_PARSE_ERROR;
        }
        if (given[k] && !spec->repeatable) {
            snprintf(err, n, "--%s is given twice: once is enough", spec->name);
            return APP_PARSE_ERROR;
        }
        given[k] = true;
        if (!spec->set(o, v, err, n)) {
            if (!err[0])
                snprintf(err, n, "bad value for --%s: '%s'", spec->name, v ? v : "");
            return APP_PARSE_ERROR;
        }
    }
    return options_agree(o, given, err, n) ? APP_PARSE_OK : APP_PARSE_ERROR;
}

const char *app_option_name(int i)
{
    return i >= 0 && i < OPTION_COUNT ? options[i].name : NULL;
}

bool app_script_mode(const app_options *o)
{
    return o->frames > 0 || o->bench_frames > 0;
}

const char *app_option_file(const app_options *o, const char *option)
{
    if (!o || !option)
        return NULL;
    if (!strcmp(option, "heightmap"))
        return o->heightmap;
    if (!strcmp(option, "mesh"))
        return o->mesh;
    return NULL;
}

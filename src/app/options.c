/* options.c: parse the command line strictly: anything odd is an error
   (exit 2 with usage), never a silent default. */
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
            "                      at most 16384 a side, and 1 GiB to load)\n"
            "  --heightmap-spacing S  world units between samples (default: the map fits\n"
            "                      48x48 units, its longer side 48 whatever its pixels)\n"
            "  --heightmap-scale H world height of white (default 7; black is 0)\n"
            "  --mesh FILE         %spick this model (.obj; .x .gltf .glb .ply .stl ...\n"
            "                      with a build with assimp)\n"
            "  --many-objects N    lesson 1's many-objects mode (A): N objects (1-1000000,\n"
            "                      default 100000)\n"
            "  --seed N            seed of the procedural scenes (default 1)\n"
            "  --lang CODE         language of the HUD and this help: %s (default: the\n"
            "                      locale's, from LC_ALL, LC_MESSAGES or LANG; else en).\n"
            "                      Fonts: the system's, or the files in RAYPICK_FONT\n"
            "  --tour N            start at moment N of the lesson's tour (key O walks it)\n"
            "script mode (fixed time step, for tests and screenshots):\n"
            "  --click X,Y@FRAME   left click at window coordinates X,Y (repeatable)\n"
            "  --key K@FRAME       press key K (repeatable)\n"
            "  --frames N          run N frames, then exit\n"
            "  --screenshot FILE   write the last frame as PNG\n"
            "  --report            one JSON line per pick on stdout\n"
            "  --print-layout      print the lesson's objects and camera as JSON, exit\n"
            "  --bench-frames N    run N frames, print the median frame time\n"
            "  --list-lessons      print the lessons as JSON (number, name, title, ...), exit\n"
            "  --help              this text\n"
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
    e->is_click = true;
    return parse_float(head, &e->x) && parse_float(comma + 1, &e->y) && e->x >= 0 && e->y >= 0;
}

static bool parse_key(const char *arg, app_script_event *e)
{
    char head[16];
    if (!split_frame(arg, head, sizeof head, &e->frame) || strlen(head) != 1 ||
        !isgraph((unsigned char)head[0]))
        return false;
    e->is_click = false;
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

app_parse_result app_parse_options(int argc, char **argv, app_options *o, char *err, size_t n)
{
    memset(o, 0, sizeof *o);
    o->lesson = 1;
    o->width = 1280;
    o->height = 720;
    o->seed = 1;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        bool takes_value = true, ok = true;
        int seed = 0;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            for (int j = i + 1; j + 1 < argc; ++j)     /* the help in the language asked for */
                if (!strcmp(argv[j], "--lang") && msg_has_language(argv[j + 1]))
                    o->lang = argv[j + 1];
            return APP_PARSE_HELP;
        } else if (!strcmp(a, "--report")) {
            o->report = true;
            takes_value = false;
        } else if (!strcmp(a, "--print-layout")) {
            o->print_layout = true;
            takes_value = false;
        } else if (!strcmp(a, "--list-lessons")) {
            o->list_lessons = true;
            takes_value = false;
        } else if (!v) {
            snprintf(err, n, "%s needs a value", a);
            return APP_PARSE_ERROR;
        } else if (!strcmp(a, "--lang")) {
            if (!msg_has_language(v)) {
                char codes[64];
                snprintf(err, n, "--lang: no language '%s' (there are %s)", v, language_list(codes, sizeof codes));
                return APP_PARSE_ERROR;
            }
            o->lang = v;
        } else if (!strcmp(a, "--lesson")) {
            ok = parse_int(v, 1, lessons_count(), &o->lesson);
        } else if (!strcmp(a, "--size")) {
            ok = parse_size(v, &o->width, &o->height);
        } else if (!strcmp(a, "--frames")) {
            ok = parse_int(v, 1, 1000000, &o->frames);
        } else if (!strcmp(a, "--bench-frames")) {
            ok = parse_int(v, 1, 1000000, &o->bench_frames);
        } else if (!strcmp(a, "--tour")) {
            ok = parse_int(v, 1, 1000, &o->tour);
        } else if (!strcmp(a, "--many-objects")) {
            ok = parse_int(v, 1, 1000000, &o->many_objects);
        } else if (!strcmp(a, "--seed")) {
            ok = parse_int(v, 0, INT_MAX, &seed);
            o->seed = (uint32_t)seed;
        } else if (!strcmp(a, "--screenshot")) {
            o->screenshot = v;
            ok = *v != '\0';
        } else if (!strcmp(a, "--mesh")) {
            o->mesh = v;
            ok = *v != '\0';
        } else if (!strcmp(a, "--heightmap")) {
            o->heightmap = v;
            ok = *v != '\0';
        } else if (!strcmp(a, "--heightmap-spacing")) {
            ok = parse_float(v, &o->heightmap_spacing) && o->heightmap_spacing > 0.0f;
        } else if (!strcmp(a, "--heightmap-scale")) {
            ok = parse_float(v, &o->heightmap_scale) && o->heightmap_scale > 0.0f;
        } else if (!strcmp(a, "--click") || !strcmp(a, "--key")) {
            if (o->event_count == APP_MAX_EVENTS) {
                snprintf(err, n, "too many --click/--key events (at most %d)", APP_MAX_EVENTS);
                return APP_PARSE_ERROR;
            }
            app_script_event *e = &o->events[o->event_count++];
            ok = a[2] == 'c' ? parse_click(v, e) : parse_key(v, e);
        } else {
            snprintf(err, n, "unknown option '%s'", a);
            return APP_PARSE_ERROR;
        }
        if (!ok) {
            snprintf(err, n, "bad value for %s: '%s'", a, v);
            return APP_PARSE_ERROR;
        }
        if (takes_value)
            ++i;
    }
    int frames = o->bench_frames > 0 ? o->bench_frames : o->frames;
    for (int i = 0; frames > 0 && i < o->event_count; ++i) {
        if (o->events[i].frame >= frames) {
            snprintf(err, n, "an event at frame %d never happens: the run has %d frames (0-%d)",
                     o->events[i].frame, frames, frames - 1);
            return APP_PARSE_ERROR;
        }
    }
    const lesson *l = lessons_get(o->lesson)->lesson;
    if (o->tour > l->tour_count) {
        if (l->tour_count > 0)
            snprintf(err, n, "--tour %d: lesson %d's tour has %d moments (1-%d)", o->tour, o->lesson, l->tour_count,
                     l->tour_count);
        else
            snprintf(err, n, "--tour %d: lesson %d has no tour", o->tour, o->lesson);
        return APP_PARSE_ERROR;
    }
    if ((o->heightmap_spacing > 0.0f || o->heightmap_scale > 0.0f) && !o->heightmap) {
        snprintf(err, n, "--heightmap-spacing and --heightmap-scale need --heightmap");
        return APP_PARSE_ERROR;
    }
    if (o->screenshot && !app_script_mode(o)) {
        snprintf(err, n, "--screenshot needs --frames or --bench-frames");
        return APP_PARSE_ERROR;
    }
    return APP_PARSE_OK;
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

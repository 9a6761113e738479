/* hud_layout.c: the HUD's panels as a function of the drawable size. */
#include "hud_layout.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

#define HUD_MIN_SCALE 1.0f
#define HUD_MAX_SCALE 6.0f
#define HUD_TITLE_FACTOR 1.5f
/* the panels together cover at most this share of the drawable's height */
#define HUD_HEIGHT_SHARE 0.5f
/* detail levels, richest first: what each drops is in place() */
#define HUD_LEVELS 4

float hud_scale_for(int drawable_h)
{
    float s = (float)drawable_h / 400.0f;
    return s < HUD_MIN_SCALE ? HUD_MIN_SCALE : s > HUD_MAX_SCALE ? HUD_MAX_SCALE : s;
}

static bool size_ok(hud_size s)
{
    return isfinite(s.w) && isfinite(s.h) && s.w >= 0.0f && s.h >= 0.0f;
}

static float maxf(float a, float b)
{
    return a > b ? a : b;
}

static float minf(float a, float b)
{
    return a < b ? a : b;
}

/* One candidate: detail level (0 = everything; 1 drops the key list for
   "H help"; 2 also the status lines; 3 also the long pick text) at body
   scale s. true when it fits: no text wider than the window, the panels
   apart, and within their share of the height. */
static bool place(int width, int height, const hud_text_sizes *t, int level, float s, hud_layout *o)
{
    float pad = 6.0f * s, margin = 6.0f * s, gap = 4.0f * s;
    float text_room = (float)width - 2.0f * margin - 2.0f * pad;
    o->scale = s;
    o->full_help = level == 0;
    o->show_status = level <= 1;
    o->full_pick = level <= 2;
    o->title_scale = t->title.w * HUD_TITLE_FACTOR * s <= text_room ? HUD_TITLE_FACTOR * s : s;

    hud_size pick = o->full_pick ? t->pick : t->pick_short;
    hud_size help = o->full_help ? t->help : t->help_short;
    float title_h = t->title.h * o->title_scale;
    float status_h = o->show_status ? t->status.h * s : 0.0f;
    float text_w = maxf(t->title.w * o->title_scale, maxf(o->show_status ? t->status.w * s : 0.0f, pick.w * s));

    o->text_x = margin + pad;
    o->title_y = margin + pad;
    o->status_y = o->title_y + title_h + gap;
    o->pick_y = o->status_y + (status_h > 0.0f ? status_h + gap : 0.0f);
    float top_h = o->pick_y + pick.h * s + pad - margin;
    o->top = (hud_rect){margin, margin, minf(text_w + 2.0f * pad, (float)width - 2.0f * margin), top_h};

    float bottom_h = help.h * s + 2.0f * pad;
    o->bottom = (hud_rect){margin, (float)height - margin - bottom_h,
                           minf(help.w * s + 2.0f * pad, (float)width - 2.0f * margin), bottom_h};
    o->help_y = o->bottom.y + pad;
    o->clip_right = (float)width - margin - pad;

    return text_w <= text_room && help.w * s <= text_room &&
           o->top.y + o->top.h + margin <= o->bottom.y &&
           o->top.h + o->bottom.h <= HUD_HEIGHT_SHARE * (float)height;
}

bool hud_layout_compute(int width, int height, const hud_text_sizes *t, hud_layout *out)
{
    if (!t || !out || width < 1 || height < 1)
        return false;
    const hud_size all[] = {t->title, t->status, t->pick, t->pick_short, t->help, t->help_short};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i)
        if (!size_ok(all[i]))
            return false;

    /* richer content first; within a level the largest scale that fits */
    float top_scale = hud_scale_for(height);
    hud_layout o;
    for (int level = 0; level < HUD_LEVELS; ++level) {
        for (float s = top_scale;; s = maxf(s * 0.9f, HUD_MIN_SCALE)) {
            if (place(width, height, t, level, s, &o)) {
                *out = o;
                return true;
            }
            if (s <= HUD_MIN_SCALE)
                break;
        }
    }
    /* A window too small for even the shortest texts: the least detail at
       the smallest scale, text clipped at the right edge; if the panels
       would still meet, the bottom one goes (the top one says the most). */
    place(width, height, t, HUD_LEVELS - 1, HUD_MIN_SCALE, &o);
    if (o.top.y + o.top.h > o.bottom.y) {
        o.full_help = false;
        o.bottom = (hud_rect){0.0f, 0.0f, 0.0f, 0.0f};
    }
    *out = o;
    return true;
}

/* Appends n bytes of s to out (used so far: *len); false when full. */
static bool append(char *out, size_t out_size, size_t *len, const char *s, size_t n)
{
    if (*len + n + 1 > out_size)
        return false;
    memcpy(out + *len, s, n);
    *len += n;
    out[*len] = '\0';
    return true;
}

/* The next item of a line: [*begin, *end) up to three or more spaces or the
   line's end; *next is where the item after it starts. */
static void next_item(const char *p, const char *line_end, const char **end, const char **next)
{
    const char *q = p;
    while (q < line_end && !(q + 2 < line_end && q[0] == ' ' && q[1] == ' ' && q[2] == ' '))
        ++q;
    *end = q;
    while (q < line_end && *q == ' ')
        ++q;
    *next = q;
}

bool hud_wrap(const char *text, float max_w, hud_measure_fn measure, void *user, char *out, size_t out_size)
{
    if (!out || out_size == 0)
        return false;
    out[0] = '\0';
    if (!text || !measure)
        return false;
    size_t len = 0;
    const char *p = text;
    while (*p) {
        const char *line_end = strchr(p, '\n');
        if (!line_end)
            line_end = p + strlen(p);
        size_t line_start = len;     /* where the output line being filled begins */
        bool first = true;
        while (p < line_end) {
            const char *end, *next;
            next_item(p, line_end, &end, &next);
            if (!first) {
                /* try the item on this output line; else start a new one */
                size_t before = len;
                if (!append(out, out_size, &len, "   ", 3) || !append(out, out_size, &len, p, (size_t)(end - p))) {
                    out[0] = '\0';
                    return false;
                }
                if (measure(out + line_start, user) > max_w) {
                    len = before;
                    out[len] = '\0';
                    if (!append(out, out_size, &len, "\n", 1)) {
                        out[0] = '\0';
                        return false;
                    }
                    line_start = len;
                    first = true;
                }
            }
            if (first && !append(out, out_size, &len, p, (size_t)(end - p))) {
                out[0] = '\0';
                return false;
            }
            first = false;
            p = next;
        }
        if (*line_end == '\n') {
            if (!append(out, out_size, &len, "\n", 1)) {
                out[0] = '\0';
                return false;
            }
            p = line_end + 1;
        } else {
            p = line_end;
        }
    }
    return true;
}

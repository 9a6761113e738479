/* listing.c: the embedded listings' lookups and the step recorder (listing.h). */
#include "listing.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "msg.h"

int listing_display_line(const listing *l, int source_line)
{
    if (!l || source_line < 1 || source_line > l->source_line_count)
        return 0;
    return l->display_of_source[source_line];
}

const char *listing_line_text(const listing *l, int n)
{
    if (!l || n < 1 || n > l->line_count)
        return NULL;
    return l->lines[n - 1];
}

/* Appends text[0..len) to buf (used bytes so far *at), cut before a
   character that does not fit; "%%" is one '%' when percent is set. */
static void append(char *buf, size_t size, size_t *at, const char *text, size_t len, bool percent)
{
    for (size_t i = 0; i < len && *at + 1 < size; ++i) {
        if (percent && text[i] == '%' && i + 1 < len && text[i + 1] == '%')
            ++i;
        size_t bytes = 1;
        unsigned char c = (unsigned char)text[i];
        if (c >= 0xc0)
            bytes = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
        if (*at + bytes >= size || i + bytes > len)
            break;
        memcpy(buf + *at, text + i, bytes);
        *at += bytes;
        i += bytes - 1;
    }
    buf[*at] = '\0';
}

/* Line `part` of a catalogue text (lines end in '\n'): its start and
   length; false when the text has another number of lines than parts. */
static bool text_line(const char *text, int part, int parts, const char **start, size_t *len)
{
    int lines = 1;
    for (const char *p = text; *p; ++p)
        lines += *p == '\n';
    if (lines != parts)
        return false;
    const char *p = text;
    for (int k = 0; k < part; ++k)
        p = strchr(p, '\n') + 1;
    const char *end = strchr(p, '\n');
    *start = p;
    *len = end ? (size_t)(end - p) : strlen(p);
    return true;
}

/* true when a catalogue line (a printf format: "%%" for '%') reads as the
   comment's text */
static bool same_text(const char *format, size_t len, const char *text)
{
    size_t i = 0;
    for (; i < len; ++i, ++text) {
        if (format[i] == '%' && i + 1 < len && format[i + 1] == '%')
            ++i;
        if (*text != format[i])
            return false;
    }
    return *text == '\0';
}

const char *listing_line_shown(const listing *l, int n, char *buf, size_t size)
{
    const char *line = listing_line_text(l, n);
    if (!line || !buf || size == 0)
        return NULL;
    size_t at = 0;
    const listing_comment *c = l->comments ? &l->comments[n - 1] : NULL;
    const char *english = c && c->id ? msg_in("en", c->id) : NULL;
    const char *own = english ? msg(c->id) : NULL;
    const char *e_start, *t_start;
    size_t e_len, t_len;
    if (!own || own == english || strcmp(msg_language(), "en") == 0 || c->column > strlen(line) ||
        !text_line(english, c->part, c->parts, &e_start, &e_len) || !same_text(e_start, e_len, line + c->column) ||
        !text_line(own, c->part, c->parts, &t_start, &t_len)) {
        append(buf, size, &at, line, strlen(line), false);
        return buf;
    }
    append(buf, size, &at, line, c->column, false);
    append(buf, size, &at, t_start, t_len, true);
    return buf;
}

/* "%.5g", with the non-finite values spelled as C prints them everywhere
   (MSVC's printf writes "inf" as "1.#INF") */
static void format_float(float x, int digits, char *buf, size_t size)
{
    if (isnan(x))
        snprintf(buf, size, "nan");
    else if (isinf(x))
        snprintf(buf, size, x < 0.0f ? "-inf" : "inf");
    else
        snprintf(buf, size, "%.*g", digits, (double)x);
}

const char *listing_watch_format(const listing_watch *w, char *buf, size_t size)
{
    if (!buf || size == 0)
        return buf;
    buf[0] = '\0';
    if (!w)
        return buf;
    char c[3][24];
    switch (w->kind) {
    case LISTING_WATCH_FLOAT:
        format_float(w->v[0], 5, buf, size);
        break;
    case LISTING_WATCH_INT:
        snprintf(buf, size, "%d", w->i);
        break;
    case LISTING_WATCH_BOOL:
        snprintf(buf, size, "%s", w->i ? "true" : "false");
        break;
    case LISTING_WATCH_VEC3:
        for (int k = 0; k < 3; ++k)
            format_float(w->v[k], 4, c[k], sizeof c[k]);
        snprintf(buf, size, "(%s, %s, %s)", c[0], c[1], c[2]);
        break;
    }
    return buf;
}

void listing_trace_reset(listing_trace *t, listing_step *steps, int cap)
{
    if (!t)
        return;
    memset(t, 0, sizeof *t);
    t->steps = cap > 0 ? steps : NULL;
    t->cap = steps && cap > 0 ? cap : 0;
}

void listing_step_add(listing_trace *t, int source_line, const char *msg_id, const listing_watch *watches,
                      int watch_count)
{
    if (!t)
        return;
    if (t->count >= t->cap) {
        ++t->dropped;
        return;
    }
    listing_step *s = &t->steps[t->count++];
    s->source_line = source_line;
    s->msg_id = msg_id;
    s->watch_count = watch_count < 0 ? 0 : watch_count > LISTING_WATCHES_MAX ? LISTING_WATCHES_MAX : watch_count;
    if (s->watch_count > 0)
        memcpy(s->watches, watches, (size_t)s->watch_count * sizeof *watches);
}

const listing_watch *listing_step_watch(const listing_step *s, const char *name)
{
    if (!s || !name)
        return NULL;
    for (int i = 0; i < s->watch_count; ++i)
        if (s->watches[i].name && strcmp(s->watches[i].name, name) == 0)
            return &s->watches[i];
    return NULL;
}

bool listing_bound(listing_trace *t, int source_line, const char *msg_id, int turn, int limit)
{
    if (turn <= limit)
        return false;
    if (t) {
        listing_watch w = WATCH_I("turns", turn - 1);   /* the turns that ran */
        listing_step_add(t, source_line, msg_id, &w, 1);
        t->stopped = true;
    }
    return true;
}

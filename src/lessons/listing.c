/* listing.c: the embedded listings' lookups and the step recorder (listing.h). */
#include "listing.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

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

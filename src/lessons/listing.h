/*
 * listing.h: a tutorial's method as C that runs, and the record of one run,
 * step by step, for the code panel (docs/architecture.md, "How a lesson
 * teaches").
 *
 * A listing is a C file in src/lessons/listings/ that ports a tutorial's
 * method under the tutorial's own names (lesson 4: GetPointerRay,
 * ClipRay, LinearSearch, BinarySearch, currentError). The lesson calls it
 * when it uses the tutorial's method. Lines starting with LISTING_ are
 * the lesson's instrumentation, one statement each:
 *
 *     float currentError = ray.Position.Y - heightAtStartingPoint;
 *     LISTING_STEP(self->trace, "lesson.terrain-picking.step.binary-start",
 *                  WATCH_F("currentError", currentError));
 *
 * At build time src/lessons/listings/listing2c.py embeds the file's text
 * between the lines holding "LISTING BEGIN" and "LISTING END", without the
 * LISTING_ statements, as a `listing` (below), with a table from each
 * source line to its display line: an instrumentation line stands for the
 * nearest shown line above it. So a step recorded at __LINE__ lights the
 * line of code it follows, and the panel's text cannot drift from the code
 * that ran.
 *
 * The recorder keeps steps in a buffer the lesson owns (fixed capacity, no
 * allocation per step; steps past it are counted, not kept). Watches hold
 * numbers; they are formatted only when shown.
 */
#ifndef RAYPICK_LISTING_H
#define RAYPICK_LISTING_H

#include <stdbool.h>
#include <stddef.h>

/* ---- the embedded listing (made by listing2c.py) -------------------- */

/* A display line's comment. Its text is translated (po/README.md, "The
   listings' comments"): the comment is the catalogue's entry `id`, whose
   English text is the comment's lines after "// ", one a line. */
typedef struct listing_comment {
    const char *id;                 /* "listing.NAME.comment.K"; NULL: the line has no comment */
    unsigned short column;          /* the comment's text starts at this byte of the line */
    unsigned char part;             /* this line is the comment's line `part` (0-based) */
    unsigned char parts;            /* of `parts` */
} listing_comment;

typedef struct listing {
    const char *name;               /* "lesson4_xna_recipe" */
    const char *path;               /* from the source root, for docs and errors */
    int line_count;                 /* display lines, numbered 1..line_count */
    const char *const *lines;       /* lines[n - 1] is display line n, no '\n' */
    int source_line_count;
    const unsigned short *display_of_source;    /* [source line] = display line, 0 = not shown ([0] unused) */
    const listing_comment *comments;            /* [n - 1]: display line n's; NULL: no comments */
} listing;

/* The display line that source line `source_line` (1-based, __LINE__)
   stands for; 0 when it is outside the shown part or out of range, or l
   is NULL. */
int listing_display_line(const listing *l, int source_line);
/* Display line n's text (1-based), as written (English comments); NULL
   outside 1..line_count. */
const char *listing_line_text(const listing *l, int n);
/* Display line n as the code panel shows it in msg's current language
   (msg.h): the code as written, the comment's text (after "// ") the
   translation's line of the comment. The line as written in English, and
   where the language has no translation of the comment, its translation
   has another number of lines, or the catalogue's English is not the
   comment's (the comment changed since: the test `listings` fails then).
   Writes at most size bytes into buf (cut at a character's boundary,
   always NUL-terminated) and returns buf; NULL outside 1..line_count or
   for a NULL buf or size 0. */
const char *listing_line_shown(const listing *l, int n, char *buf, size_t size);
/* A buffer this large holds any line listing_line_shown writes (a longer
   one is cut). */
#define LISTING_LINE_SHOWN_MAX 512

/* ---- watched variables ---------------------------------------------- */

typedef enum listing_watch_kind {
    LISTING_WATCH_FLOAT,
    LISTING_WATCH_INT,
    LISTING_WATCH_BOOL,
    LISTING_WATCH_VEC3
} listing_watch_kind;

typedef struct listing_watch {
    const char *name;               /* the tutorial's name, a string literal (not copied) */
    listing_watch_kind kind;
    float v[3];                     /* FLOAT: v[0]; VEC3: all three */
    int i;                          /* INT; BOOL: 0 or 1 */
} listing_watch;

#define WATCH_F(name, x) ((listing_watch){(name), LISTING_WATCH_FLOAT, {(float)(x), 0.0f, 0.0f}, 0})
#define WATCH_I(name, x) ((listing_watch){(name), LISTING_WATCH_INT, {0.0f, 0.0f, 0.0f}, (int)(x)})
#define WATCH_B(name, x) ((listing_watch){(name), LISTING_WATCH_BOOL, {0.0f, 0.0f, 0.0f}, (x) ? 1 : 0})
#define WATCH_V3(name, x, y, z) ((listing_watch){(name), LISTING_WATCH_VEC3, {(float)(x), (float)(y), (float)(z)}, 0})

/* The watch's value as the panel shows it: "%.5g" for a float ("-inf",
   "nan" as such), "(x, y, z)" each "%.4g", an int, "true"/"false".
   Returns buf ("" for a NULL watch); always NUL-terminated when size > 0. */
const char *listing_watch_format(const listing_watch *w, char *buf, size_t size);

/* ---- the recorder --------------------------------------------------- */

#define LISTING_WATCHES_MAX 6

typedef struct listing_step {
    int source_line;                /* __LINE__ of the LISTING_ statement */
    const char *msg_id;             /* the step's sentence in the catalogue (msg.h) */
    int watch_count;
    listing_watch watches[LISTING_WATCHES_MAX];
} listing_step;

typedef struct listing_trace {
    listing_step *steps;            /* the lesson's buffer; NULL with cap 0: count only */
    int cap;
    int count;                      /* steps kept, <= cap */
    int dropped;                    /* steps recorded past cap, not kept */
    bool stopped;                   /* a LISTING_BOUND stopped a loop */
} listing_trace;

/* Empties t and points it at steps[cap] (steps may be NULL with cap 0). */
void listing_trace_reset(listing_trace *t, listing_step *steps, int cap);
/* Appends a step (the first LISTING_WATCHES_MAX watches); counts it as
   dropped when the buffer is full. Nothing for a NULL t. */
void listing_step_add(listing_trace *t, int source_line, const char *msg_id, const listing_watch *watches,
                      int watch_count);
/* The watch called name in step s, NULL when it has none. */
const listing_watch *listing_step_watch(const listing_step *s, const char *name);

/* true when loop turn `turn` is past `limit`: then records a step (msg_id,
   watch "turns": the limit, the turns that ran) and sets t->stopped. The tutorial's loop runs on; the
   lesson's does not. */
bool listing_bound(listing_trace *t, int source_line, const char *msg_id, int turn, int limit);

/* ---- the instrumentation (lines starting with LISTING_: hidden) ------ */

/* A step at this line: the sentence's id and one to LISTING_WATCHES_MAX
   watches (more do not compile). */
#define LISTING_STEP(trace, id, ...)                                                              \
    listing_step_add((trace), __LINE__, (id), (const listing_watch[]){__VA_ARGS__},             \
                     (int)(sizeof((const listing_watch[]){__VA_ARGS__}) / sizeof(listing_watch) + \
                           0 * sizeof(char[sizeof((const listing_watch[]){__VA_ARGS__}) <=      \
                                               LISTING_WATCHES_MAX * sizeof(listing_watch)       \
                                           ? 1                                                   \
                                           : -1])))
/* Declares a loop's turn counter (before the loop). */
#define LISTING_LOOP(turns) int turns = 0
/* First in a loop's body: counts the turn; past limit it records the
   step, sets trace->stopped and leaves the loop (break). */
#define LISTING_BOUND(trace, turns, limit, id) \
    if (listing_bound((trace), __LINE__, (id), ++(turns), (limit))) break
/* After a call whose loop a bound may have stopped: return value then. */
#define LISTING_RETURN_IF_STOPPED(trace, value) \
    if ((trace)->stopped) return value

#endif /* RAYPICK_LISTING_H */

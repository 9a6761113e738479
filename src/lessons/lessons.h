/*
 * lessons.h: the lesson registry. One table (lessons.c) lists the lessons
 * in order; everything that loops over lessons reads it: the app (lesson
 * keys, what it creates at start, GPU picking's hint), the options parser
 * and --help, the report writer (--list-lessons, --print-layout), and,
 * through --list-lessons, the scripts and tests outside C.
 *
 * A lesson is four things: src/lessons/lessonN_name.c (its `const lesson`
 * table, lesson.h), tests/test_lessonN.c, docs/lessons/lessonN-NAME.md and
 * one LESSON(...) line in lessons.c. No SDL, no GL.
 */
#ifndef RAYPICK_LESSONS_H
#define RAYPICK_LESSONS_H

#include <stdbool.h>
#include <stddef.h>

#include "lesson.h"

/* Keys 1-9 pick a lesson: the table holds at most this many. */
#define LESSONS_MAX 9
/* Options naming a file a lesson loads, at most (NULL-terminated). */
#define LESSONS_MAX_FILES 3

typedef struct lessons_entry {
    int number;             /* 1-based: its line in the table */
    const lesson *lesson;   /* the callbacks, keys and start camera */
    const char *object;     /* the C name of that table, "lesson4_terrain": it is
                               defined in src/lessons/<object>.c */
    const char *name;       /* short and stable, [a-z0-9-]: "terrain-picking";
                               its notes are docs/lessons/lessonN-<name>.md */
    const char *title_key;  /* the message catalogue's id of its title
                               (msg.h: "lesson.<name>.title") */
    const char *keys_key;   /* and of its keys for the help ("lesson.<name>.keys") */
    bool pick_ids;          /* its draw list gives objects GPU pick ids (key G
                               has something to compare with the ray) */
    /* the command-line options (without "--") that name a file it loads,
       NULL-terminated: given one, the app creates the lesson at start, so
       a bad file is reported before anything runs */
    const char *files[LESSONS_MAX_FILES + 1];
} lessons_entry;

/* How many lessons there are (1..LESSONS_MAX). */
int lessons_count(void);
/* Lesson `number` (1..lessons_count()); NULL for any other number. */
const lessons_entry *lessons_get(int number);
/* true when the lesson loads a file named by --option (option without the
   dashes); false for NULL arguments. */
bool lessons_loads_file(const lessons_entry *e, const char *option);
/* The first lesson that loads a file named by --option, NULL when none does. */
const lessons_entry *lessons_for_file(const char *option);
/* The lesson's title in the catalogue's current language (msg.h),
   "terrain picking"; NULL for NULL. */
const char *lessons_title(const lessons_entry *e);
/* The lesson's keys for the help panel, one a line, in the current
   language; NULL for NULL. */
const char *lessons_keys(const lessons_entry *e);
/* "Lesson 4: terrain picking" in the current language into buf; false
   (buf "" when size > 0) when it does not fit or e is NULL. */
bool lessons_heading(const lessons_entry *e, char *buf, size_t size);
/* "docs/lessons/lessonN-NAME.md" (relative to the source root) into buf;
   false when it does not fit or e is NULL. */
bool lessons_notes_path(const lessons_entry *e, char *buf, size_t size);

#endif /* RAYPICK_LESSONS_H */

/* lessons.c: the lesson registry (lessons.h). */
#include "lessons.h"

#include "msg.h"

#include <stdio.h>
#include <string.h>

/*
 * The lessons in order, one line each; the line's position is the lesson's
 * number (its key and --lesson N):
 *
 *   LESSON(object, name, pick ids, files it loads)
 *
 * object: the lesson's `const lesson` table, defined in src/lessons/<object>.c
 * (src/lessons/meson.build compiles that file for each line, so a new
 * lesson needs no other build edit); name: [a-z0-9-], its notes are
 * docs/lessons/lessonN-<name>.md; pick ids: its draw list gives GPU pick
 * ids; files: FILES("option", ...) for the options naming a file it
 * loads (options.c parses them), or NO_FILES.
 *
 * Keep each LESSON( at the start of its own line: Meson reads them too.
 * Every line ends in a backslash, the last one too, so a new lesson is
 * one line added and no other line changed.
 */
#define FILES(...) {__VA_ARGS__, NULL}
#define NO_FILES {NULL}
#define LESSONS_TABLE(LESSON) \
    LESSON(lesson1_spheres,   "picking-spheres",       true,  NO_FILES) \
    LESSON(lesson2_shields,   "phaser-shields",        false, NO_FILES) \
    LESSON(lesson3_bounds,    "bounding-sphere-tests", false, NO_FILES) \
    LESSON(lesson4_terrain,   "terrain-picking",       false, FILES("heightmap")) \
    LESSON(lesson5_triangles, "picking-triangles",     true,  FILES("mesh")) \
    LESSON(lesson6_select,    "hover-drag-select",     false, NO_FILES) \
    /* a new lesson: one line above this one */

/* the tables themselves, each in its own file */
#define DECLARE(object, name, pick_ids, files) extern const lesson object;
LESSONS_TABLE(DECLARE)

/* NUMBER_<object>: the line's position, 1-based */
#define NUMBER(object, name, pick_ids, files) NUMBER_##object,
enum { NUMBER_NONE, LESSONS_TABLE(NUMBER) NUMBER_END };

#define ENTRY(object, name, pick_ids, files) \
    {NUMBER_##object, &object, #object, name, "lesson." name ".title", "lesson." name ".keys", pick_ids, files},
static const lessons_entry table[] = {LESSONS_TABLE(ENTRY)};

#define TABLE_COUNT (NUMBER_END - 1)
_Static_assert(NUMBER_END - 1 <= LESSONS_MAX, "keys 1-9 pick a lesson: at most 9 lessons");

int lessons_count(void)
{
    return TABLE_COUNT;
}

const lessons_entry *lessons_get(int number)
{
    return number >= 1 && number <= TABLE_COUNT ? &table[number - 1] : NULL;
}

bool lessons_loads_file(const lessons_entry *e, const char *option)
{
    if (!e || !option)
        return false;
    for (int i = 0; i < LESSONS_MAX_FILES && e->files[i]; ++i)
        if (strcmp(e->files[i], option) == 0)
            return true;
    return false;
}

const lessons_entry *lessons_for_file(const char *option)
{
    for (int n = 1; n <= TABLE_COUNT; ++n)
        if (lessons_loads_file(lessons_get(n), option))
            return lessons_get(n);
    return NULL;
}

const char *lessons_title(const lessons_entry *e)
{
    return e ? msg(e->title_key) : NULL;
}

const char *lessons_keys(const lessons_entry *e)
{
    return e ? msg(e->keys_key) : NULL;
}

bool lessons_heading(const lessons_entry *e, char *buf, size_t size)
{
    if (!buf || size == 0)
        return false;
    buf[0] = '\0';
    if (!e)
        return false;
    int n = snprintf(buf, size, msg("lesson.heading"), e->number, lessons_title(e));
    if (n < 0 || (size_t)n >= size) {
        buf[0] = '\0';
        return false;
    }
    return true;
}

bool lessons_notes_path(const lessons_entry *e, char *buf, size_t size)
{
    if (!e || !buf || size == 0)
        return false;
    int n = snprintf(buf, size, "docs/lessons/lesson%d-%s.md", e->number, e->name);
    return n > 0 && (size_t)n < size;
}

/* test_scale.h: how much work the heaviest unit tests do.

   RAYPICK_TEST_SCALE, a number in (0, 1] (default 1), scales their counts
   of rays and objects; meson's valgrind setup sets it (tests/meson.build),
   since memcheck runs them some fifty times slower, and its sanitize setup
   (ASan and UBSan, some five times slower). Every count keeps a
   floor that still takes the same code paths (the threaded builders'
   thresholds, several BVH subtrees), so a smaller run checks the same
   things on fewer inputs. Header-only, for the tests. */
#ifndef RAYPICK_TEST_SCALE_H
#define RAYPICK_TEST_SCALE_H

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

/* The scale; a value that is not a number in (0, 1] stops the test with a
   message rather than run it at a size nobody asked for. */
static inline double test_scale(void)
{
    const char *text = getenv("RAYPICK_TEST_SCALE");
    if (text == NULL || *text == '\0')
        return 1.0;
    char *end;
    double s = strtod(text, &end);
    if (*end != '\0' || !(s > 0.0 && s <= 1.0)) {
        fprintf(stderr, "RAYPICK_TEST_SCALE=%s: want a number in (0, 1]\n", text);
        exit(2);
    }
    return s;
}

/* n times the scale, but at least floor (and at most n). */
static inline size_t test_scaled(size_t n, size_t floor)
{
    size_t k = (size_t)((double)n * test_scale());
    if (k < floor)
        k = floor;
    return k < n ? k : n;
}

#endif /* RAYPICK_TEST_SCALE_H */

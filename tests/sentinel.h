/* sentinel.h: checking that a function writes nothing it should not: fill
   an output with TEST_SENTINEL bytes before the call (test_poison), and
   see afterwards that every byte still holds it (test_untouched). For the
   tests whose functions promise to leave *out alone on a miss or a
   refusal. Header-only. */
#ifndef RAYPICK_TEST_SENTINEL_H
#define RAYPICK_TEST_SENTINEL_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#define TEST_SENTINEL 0xA5

/* Fills n bytes at p with TEST_SENTINEL. */
static inline void test_poison(void *p, size_t n)
{
    memset(p, TEST_SENTINEL, n);
}

/* true when all n bytes at p still hold TEST_SENTINEL. */
static inline bool test_untouched(const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        if (b[i] != TEST_SENTINEL)
            return false;
    return true;
}

#endif /* RAYPICK_TEST_SENTINEL_H */

/* test_msg.c: the message catalogue (src/lessons/msg.h) as the program has
 * it: every id in every language, none empty, valid UTF-8, the same printf
 * conversions in the same order as the English text (a translation then
 * reads exactly the arguments the code passes); the lookups, the
 * language switch and the locale's language. The conversion check is
 * itself tested on texts that must fail it. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "msg.h"

/* ------------------------------------------------------------ printf */

/* The arguments a printf format reads, one letter group per conversion
   ("*" for a width or precision given as an argument, then the length
   modifier and the conversion: "d", "*ld", "s" ...), into sig. false for
   what C's printf does not define, or what this project does not allow
   (positional "%1$s": MSVC has none; "%n"). */
static bool printf_signature(const char *fmt, char *sig, size_t size)
{
    size_t used = 0;
    sig[0] = '\0';
    for (const char *p = fmt; *p; ++p) {
        if (*p != '%')
            continue;
        ++p;
        if (*p == '%')
            continue;
        char one[16];
        size_t n = 0;
        while (*p && strchr("-+ #0", *p))
            ++p;
        if (*p == '*') {
            one[n++] = '*';
            ++p;
        }
        while (*p >= '0' && *p <= '9')
            ++p;
        if (*p == '$')
            return false;
        if (*p == '.') {
            ++p;
            if (*p == '*') {
                one[n++] = '*';
                ++p;
            }
            while (*p >= '0' && *p <= '9')
                ++p;
        }
        while (*p && strchr("hljztL", *p) && n < 4)
            one[n++] = *p++;
        if (!*p || !strchr("diouxXeEfFgGaAcsp", *p))
            return false;
        one[n++] = *p;
        one[n++] = ' ';
        if (used + n + 1 > size)
            return false;
        memcpy(sig + used, one, n);
        used += n;
        sig[used] = '\0';
    }
    return true;
}

static void the_conversion_check_tells_formats_apart(void **state)
{
    (void)state;
    char a[64], b[64];
    assert_true(printf_signature("t = %.3f at (%.2f, %.2f)", a, sizeof a));
    assert_true(printf_signature("t = %f bei (%5.1f, %g)", b, sizeof b));
    assert_string_not_equal(a, b);          /* %g is not %f */
    assert_true(printf_signature("%d of %d: %s", a, sizeof a));
    assert_true(printf_signature("%s: %d von %d", b, sizeof b));
    assert_string_not_equal(a, b);          /* reordered */
    assert_true(printf_signature("%-8s %5d", a, sizeof a));
    assert_true(printf_signature("%s\xe3\x80\x81%d", b, sizeof b));
    assert_string_equal(a, b);              /* width and flags are free */
    assert_true(printf_signature("%d", a, sizeof a));
    assert_true(printf_signature("%ld", b, sizeof b));
    assert_string_not_equal(a, b);          /* a length modifier matters */
    assert_true(printf_signature("%*d", b, sizeof b));
    assert_string_not_equal(a, b);          /* so does a width argument */
    assert_true(printf_signature("100%% sure", a, sizeof a));
    assert_string_equal(a, "");
    assert_false(printf_signature("%2$s %1$s", a, sizeof a));
    assert_false(printf_signature("50%", a, sizeof a));
    assert_false(printf_signature("%q", a, sizeof a));
    assert_false(printf_signature("%n", a, sizeof a));
}

/* ------------------------------------------------------------ UTF-8 */

/* true for well-formed UTF-8 without overlong forms, surrogates or
   control characters other than '\n' */
static bool utf8_valid(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        uint32_t c = *p;
        int extra = c < 0x80 ? 0 : (c & 0xe0) == 0xc0 ? 1 : (c & 0xf0) == 0xe0 ? 2 : (c & 0xf8) == 0xf0 ? 3 : -1;
        if (extra < 0)
            return false;
        if (extra)
            c &= 0x3fu >> extra;
        for (int i = 1; i <= extra; ++i) {
            if ((p[i] & 0xc0) != 0x80)
                return false;
            c = (c << 6) | (p[i] & 0x3fu);
        }
        static const uint32_t least[4] = {0, 0x80, 0x800, 0x10000};
        if (c < least[extra] || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff) || (c < 0x20 && c != '\n'))
            return false;
        p += extra + 1;
    }
    return true;
}

static void the_utf8_check_rejects_broken_text(void **state)
{
    (void)state;
    assert_true(utf8_valid("Hüllkugel \xe5\x8c\x85\xe5\x9b\xb4\xe7\x90\x83\nline"));
    assert_false(utf8_valid("\xe5\x8c"));           /* cut short */
    assert_false(utf8_valid("\xc0\xaf"));           /* overlong '/' */
    assert_false(utf8_valid("\xed\xa0\x80"));       /* a surrogate */
    assert_false(utf8_valid("tab\there"));
}

/* ------------------------------------------------------------ catalogue */

static void every_id_has_a_text_in_every_language(void **state)
{
    (void)state;
    assert_true(msg_count() > 0);
    int languages = 0;
    for (const char *const *code = msg_languages(); *code; ++code, ++languages) {
        for (int i = 0; i < msg_count(); ++i) {
            const char *id = msg_id(i), *text = msg_in(*code, id);
            if (!text)
                fail_msg("%s: no text for '%s' (po/%s.po)", *code, id, *code);
            if (!text[0])
                fail_msg("%s: '%s' is empty", *code, id);
            if (!utf8_valid(text))
                fail_msg("%s: '%s' is not valid UTF-8 (or holds a control character)", *code, id);
        }
    }
    assert_int_equal(languages, 3);
    assert_string_equal(msg_languages()[0], "en");
    assert_true(msg_has_language("de") && msg_has_language("zh"));
}

static void translations_read_the_same_arguments(void **state)
{
    (void)state;
    for (int i = 0; i < msg_count(); ++i) {
        const char *id = msg_id(i);
        char english[256], other[256];
        if (!printf_signature(msg_in("en", id), english, sizeof english))
            fail_msg("en: '%s' is not a printf format this project allows: \"%s\"", id, msg_in("en", id));
        for (const char *const *code = msg_languages() + 1; *code; ++code) {
            const char *text = msg_in(*code, id);
            if (!text)
                continue;   /* every_id_has_a_text_in_every_language says so */
            if (!printf_signature(text, other, sizeof other) || strcmp(english, other) != 0)
                fail_msg("%s: '%s' reads other arguments than English: [%s] vs [%s]: \"%s\"", *code, id, other,
                         english, text);
        }
    }
}

static void ids_are_sorted_and_unique(void **state)
{
    (void)state;
    for (int i = 1; i < msg_count(); ++i)
        assert_true(strcmp(msg_id(i - 1), msg_id(i)) < 0);
    assert_null(msg_id(-1));
    assert_null(msg_id(msg_count()));
}

static void msg_answers_in_the_chosen_language(void **state)
{
    (void)state;
    assert_string_equal(msg_language(), "en");
    for (const char *const *code = msg_languages(); *code; ++code) {
        assert_true(msg_set_language(*code));
        assert_string_equal(msg_language(), *code);
        for (int i = 0; i < msg_count(); ++i)
            assert_string_equal(msg(msg_id(i)), msg_in(*code, msg_id(i)));
    }
    assert_true(msg_set_language("de"));
    assert_string_equal(msg("language.name"), "Deutsch");
    /* a code the catalogue lacks leaves the language as it was */
    assert_false(msg_set_language("xx"));
    assert_false(msg_set_language("DE"));
    assert_false(msg_set_language(""));
    assert_false(msg_set_language(NULL));
    assert_string_equal(msg_language(), "de");
    assert_true(msg_set_language("en"));
    assert_string_equal(msg("language.name"), "English");
}

static void an_unknown_id_shows_itself(void **state)
{
    (void)state;
    assert_string_equal(msg("no.such.id"), "no.such.id");
    assert_false(msg_exists("no.such.id"));
    assert_false(msg_exists(NULL));
    assert_true(msg_exists("language.name"));
    assert_string_equal(msg(""), "");
    assert_null(msg(NULL));
    assert_null(msg_in("en", "no.such.id"));
    assert_null(msg_in("xx", "language.name"));
    assert_null(msg_in(NULL, "language.name"));
    assert_null(msg_in("en", NULL));
}

static void the_locale_names_the_language(void **state)
{
    (void)state;
    assert_string_equal(msg_locale_language(NULL, NULL, NULL), "en");
    assert_string_equal(msg_locale_language(NULL, NULL, "de_DE.UTF-8"), "de");
    assert_string_equal(msg_locale_language("", "", "zh_CN.UTF-8"), "zh");
    assert_string_equal(msg_locale_language(NULL, NULL, "zh_TW"), "zh");
    assert_string_equal(msg_locale_language(NULL, NULL, "de"), "de");
    assert_string_equal(msg_locale_language(NULL, NULL, "de_AT@euro"), "de");
    assert_string_equal(msg_locale_language(NULL, NULL, "DE-de"), "de");
    /* LC_ALL over LC_MESSAGES over LANG */
    assert_string_equal(msg_locale_language("zh_CN.UTF-8", "de_DE.UTF-8", "en_US.UTF-8"), "zh");
    assert_string_equal(msg_locale_language(NULL, "de_DE.UTF-8", "zh_CN.UTF-8"), "de");
    assert_string_equal(msg_locale_language("C", "de_DE.UTF-8", NULL), "en");
    /* what the catalogue lacks, and what only looks like a language */
    assert_string_equal(msg_locale_language(NULL, NULL, "C"), "en");
    assert_string_equal(msg_locale_language(NULL, NULL, "C.UTF-8"), "en");
    assert_string_equal(msg_locale_language(NULL, NULL, "POSIX"), "en");
    assert_string_equal(msg_locale_language(NULL, NULL, "fr_FR.UTF-8"), "en");
    assert_string_equal(msg_locale_language(NULL, NULL, "deu"), "en");
    assert_string_equal(msg_locale_language(NULL, NULL, "dexx_DE"), "en");
    assert_string_equal(msg_locale_language(NULL, NULL, "d3"), "en");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_conversion_check_tells_formats_apart),
        cmocka_unit_test(the_utf8_check_rejects_broken_text),
        cmocka_unit_test(every_id_has_a_text_in_every_language),
        cmocka_unit_test(translations_read_the_same_arguments),
        cmocka_unit_test(ids_are_sorted_and_unique),
        cmocka_unit_test(msg_answers_in_the_chosen_language),
        cmocka_unit_test(an_unknown_id_shows_itself),
        cmocka_unit_test(the_locale_names_the_language),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_lang.c: which language the program shows (src/app/lang.c): --lang
 * over the locale, the locale over English; a language only where the
 * fonts have every character of its texts, else English and a message
 * saying what to install. Runs with the fonts tests/meson.build found:
 *
 *     test_lang LATIN.ttf CJK.ttc */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "lang.h"
#include "msg.h"

static const char *latin_path, *cjk_path;

#if defined(_WIN32)
#define SEP ";"
#else
#define SEP ":"
#endif

static void the_option_wins_then_the_locale(void **state)
{
    (void)state;
    assert_string_equal(app_lang_choose("zh", "de_DE.UTF-8", NULL, NULL), "zh");
    assert_string_equal(app_lang_choose(NULL, NULL, NULL, "de_AT.UTF-8"), "de");
    assert_string_equal(app_lang_choose(NULL, NULL, "zh_CN.UTF-8", "de_DE.UTF-8"), "zh");
    assert_string_equal(app_lang_choose(NULL, NULL, NULL, NULL), "en");
    assert_string_equal(app_lang_choose(NULL, "C", "de_DE.UTF-8", "de_DE.UTF-8"), "en");
    /* options.c refuses an unknown --lang; here it is only passed over */
    assert_string_equal(app_lang_choose("xx", NULL, NULL, "de_DE.UTF-8"), "de");
}

static void the_built_in_font_shows_english_only(void **state)
{
    (void)state;
    char why[96];
    assert_true(app_lang_fonts_cover(NULL, "en", why, sizeof why));
    assert_string_equal(why, "");
    assert_false(app_lang_fonts_cover(NULL, "de", why, sizeof why));
    assert_non_null(strstr(why, "U+"));
    assert_false(app_lang_fonts_cover(NULL, "zh", why, sizeof why));
    assert_false(app_lang_fonts_cover(NULL, "xx", why, sizeof why));
}

static void each_language_needs_its_characters(void **state)
{
    (void)state;
    char err[600], why[96];
    font_set *latin = font_set_open(latin_path, err, sizeof err);
    assert_non_null(latin);
    assert_true(app_lang_fonts_cover(latin, "en", why, sizeof why));
    assert_true(app_lang_fonts_cover(latin, "de", why, sizeof why));
    assert_false(app_lang_fonts_cover(latin, "zh", why, sizeof why));
    assert_non_null(strstr(why, "U+"));     /* which character, in which text */
    assert_non_null(strchr(why, '.'));
    font_set_close(latin);

    char paths[1100];
    snprintf(paths, sizeof paths, "%s" SEP "%s", latin_path, cjk_path);
    font_set *both = font_set_open(paths, err, sizeof err);
    assert_non_null(both);
    for (const char *const *code = msg_languages(); *code; ++code)
        if (!app_lang_fonts_cover(both, *code, why, sizeof why))
            fail_msg("%s: %s", *code, why);
    font_set_close(both);
}

static void a_language_the_fonts_lack_falls_back_to_english(void **state)
{
    (void)state;
    char warn[800];
    /* Chinese with a Latin font only: English, and what to install */
    assert_true(msg_set_language("zh"));
    font_set *f = app_lang_fonts(latin_path, warn, sizeof warn);
    assert_non_null(f);
    assert_string_equal(msg_language(), "en");
    assert_non_null(strstr(warn, "showing English"));
    assert_non_null(strstr(warn, "RAYPICK_FONT"));
#if defined(__linux__)
    assert_non_null(strstr(warn, "fonts-noto-cjk"));
#endif
    font_set_close(f);

    /* German without any font: the same */
    assert_true(msg_set_language("de"));
    f = app_lang_fonts("/no/such/font.ttf", warn, sizeof warn);
    assert_null(f);
    assert_string_equal(msg_language(), "en");
    assert_non_null(strstr(warn, "font.ttf"));
    assert_non_null(strstr(warn, "showing English"));

    /* English without the font asked for: the built-in font, and a word */
    f = app_lang_fonts("/no/such/font.ttf", warn, sizeof warn);
    assert_null(f);
    assert_string_equal(msg_language(), "en");
    assert_non_null(strstr(warn, "built-in ASCII font"));

    /* Chinese with both: kept, no word */
    char paths[1100];
    snprintf(paths, sizeof paths, "%s" SEP "%s", latin_path, cjk_path);
    assert_true(msg_set_language("zh"));
    f = app_lang_fonts(paths, warn, sizeof warn);
    assert_non_null(f);
    assert_string_equal(msg_language(), "zh");
    assert_string_equal(warn, "");
    font_set_close(f);
    msg_set_language("en");
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: test_lang LATIN.ttf CJK.ttc\n");
        return 2;
    }
    latin_path = argv[1];
    cjk_path = argv[2];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_option_wins_then_the_locale),
        cmocka_unit_test(the_built_in_font_shows_english_only),
        cmocka_unit_test(each_language_needs_its_characters),
        cmocka_unit_test(a_language_the_fonts_lack_falls_back_to_english),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

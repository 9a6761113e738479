/* test_msg_fixture.c: msg.c over a catalogue made for the test
 * (tests/po/fixture.pot and tests/po/de.po, through po/po2c.py as the
 * program's own): a fuzzy, stale, missing or empty translation shows the
 * English text; escapes and UTF-8 arrive byte for byte. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "msg.h"

static void good_translations_are_used(void **state)
{
    (void)state;
    assert_int_equal(msg_count(), 6);
    assert_true(msg_set_language("de"));
    assert_string_equal(msg("a.plain"), "schlicht");
    assert_string_equal(msg_in("de", "a.plain"), "schlicht");
    assert_true(msg_set_language("en"));
    assert_string_equal(msg("a.plain"), "plain");
}

static void unusable_translations_fall_back_to_english(void **state)
{
    (void)state;
    assert_true(msg_set_language("de"));
    /* fuzzy, translating an older English text, missing, empty */
    static const char *const ids[] = {"b.fuzzy", "c.stale", "d.missing", "f.empty"};
    static const char *const english[] = {"fuzzy English", "new English", "only English", "English for empty"};
    for (int i = 0; i < 4; ++i) {
        assert_null(msg_in("de", ids[i]));
        assert_string_equal(msg(ids[i]), english[i]);
    }
    assert_true(msg_set_language("en"));
}

static void escapes_and_utf8_arrive_unchanged(void **state)
{
    (void)state;
    assert_string_equal(msg_in("en", "e.escapes"), "quote \" backslash \\ \?\?= trigraph\nnext line");
    assert_string_equal(msg_in("de", "e.escapes"),
                        "Anf\xc3\xbchrung \" R\xc3\xbc" "ckstrich \\ \?\?= \xe4\xb8\x89\xe5\xad\x97\xe7\xac\xa6\n"
                        "n\xc3\xa4" "chste Zeile");
    assert_null(msg_in("de", "z.obsolete"));    /* #~ entries are gone */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(good_translations_are_used),
        cmocka_unit_test(unusable_translations_fall_back_to_english),
        cmocka_unit_test(escapes_and_utf8_arrive_unchanged),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

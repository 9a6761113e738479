/* test_display_choice.c: a window, the offscreen driver, or a message
   (src/app/display_choice.c). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "../src/app/display_choice.h"

static void a_display_means_sdl_chooses(void **state)
{
    (void)state;
    assert_int_equal(app_choose_display(":0", NULL, NULL, false), APP_DISPLAY_DEFAULT);
    assert_int_equal(app_choose_display(NULL, "wayland-0", NULL, false), APP_DISPLAY_DEFAULT);
    assert_int_equal(app_choose_display(":99", "wayland-0", NULL, true), APP_DISPLAY_DEFAULT);
}

static void the_users_driver_wins(void **state)
{
    (void)state;
    assert_int_equal(app_choose_display(NULL, NULL, "dummy", false), APP_DISPLAY_DEFAULT);
    assert_int_equal(app_choose_display(NULL, NULL, "x11", true), APP_DISPLAY_DEFAULT);
}

static void no_display_script_runs_offscreen(void **state)
{
    (void)state;
    assert_int_equal(app_choose_display(NULL, NULL, NULL, true), APP_DISPLAY_OFFSCREEN);
    /* set but empty is unset (env -u vs DISPLAY= both happen over SSH) */
    assert_int_equal(app_choose_display("", "", "", true), APP_DISPLAY_OFFSCREEN);
}

static void no_display_interactive_is_refused(void **state)
{
    (void)state;
    assert_int_equal(app_choose_display(NULL, NULL, NULL, false), APP_DISPLAY_NONE);
    assert_int_equal(app_choose_display("", NULL, "", false), APP_DISPLAY_NONE);
    const char *msg = app_no_display_message();
    assert_non_null(strstr(msg, "no display"));
    assert_non_null(strstr(msg, "--screenshot"));
    assert_non_null(strstr(msg, "xvfb-run"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_display_means_sdl_chooses),
        cmocka_unit_test(the_users_driver_wins),
        cmocka_unit_test(no_display_script_runs_offscreen),
        cmocka_unit_test(no_display_interactive_is_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

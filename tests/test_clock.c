/* test_clock.c: the renderer's clock (src/render/clock.c, no GL): the step
 * it measures, and how the HUD writes a duration when the clock is coarser
 * than what it timed (a browser's performance.now() steps 100 us; a pick
 * takes 10 to 40). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "clock.h"

static void format(double us, double step_us, const char *want)
{
    char buf[64];
    memset(buf, 'x', sizeof buf);
    render_format_us(us, step_us, buf, sizeof buf);
    assert_string_equal(buf, want);
}

/* a fine clock: the reading as it is, to a tenth of a microsecond */
static void fine_clock_prints_the_reading(void **state)
{
    (void)state;
    format(12.34, 0.0, "12.3 us");      /* step unknown */
    format(12.34, 0.001, "12.3 us");    /* a nanosecond clock */
    format(0.0, 1.0, "0.0 us");
    format(1234.5, 0.02, "1234.5 us");
}

/* a coarse clock: no "0.0 us" for a pick that took 20; the step is said */
static void coarse_clock_says_its_step(void **state)
{
    (void)state;
    format(0.0, 100.0, "under 100 us");
    format(99.9, 100.0, "under 100 us");
    format(100.0, 100.0, "100 us (the clock steps 100 us)");
    format(400.0, 100.0, "400 us (the clock steps 100 us)");
    format(5.0, 5.0, "5 us (the clock steps 5 us)");
}

static void bad_readings_print_a_dash(void **state)
{
    (void)state;
    format(-1.0, 0.0, "-");
    format(NAN, 100.0, "-");
    format(INFINITY, 0.0, "-");
    /* a short buffer: cut, terminated */
    char small[6];
    render_format_us(12.34, 0.0, small, sizeof small);
    assert_string_equal(small, "12.3 ");
    render_format_us(12.34, 0.0, NULL, 8);      /* no buffer: nothing, no crash */
    render_format_us(12.34, 0.0, small, 0);     /* nothing written */
    assert_string_equal(small, "12.3 ");
}

/* this machine's clock (timespec_get, or QueryPerformanceCounter under
   Wine): it moves, its step is positive and finer than a millisecond, the
   same on a second call (measured once), and readings never go back */
static void native_clock_steps_finely(void **state)
{
    (void)state;
    double step = render_clock_step_seconds();
    assert_true(step > 0.0);
    assert_true(step < 1e-3);
    assert_true(render_clock_step_seconds() == step);
    double a = render_clock_seconds(), b = render_clock_seconds();
    assert_true(b >= a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fine_clock_prints_the_reading),
        cmocka_unit_test(coarse_clock_says_its_step),
        cmocka_unit_test(bad_readings_print_a_dash),
        cmocka_unit_test(native_clock_steps_finely),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

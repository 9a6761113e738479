/* test_lesson_stepper.c: the step-mode keys every lesson shares (P, '.',
 * ','): off by default, steps clamp at both ends, a new click restarts at
 * the first step, and the HUD label is 1-based. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "lesson.h"

static void zero_value_is_off(void **state)
{
    (void)state;
    lesson_stepper s = {0};
    char buf[32];
    assert_false(lesson_stepper_active(&s));
    assert_string_equal(lesson_stepper_label(&s, buf, sizeof buf), "");
    /* '.' and ',' are not step keys while step mode is off */
    assert_false(lesson_stepper_key(&s, '.'));
    assert_false(lesson_stepper_key(&s, ','));
    assert_false(lesson_stepper_key(&s, 'x'));
}

static void steps_clamp_at_both_ends(void **state)
{
    (void)state;
    lesson_stepper s = {0};
    char buf[32];
    assert_true(lesson_stepper_key(&s, 'p'));
    assert_false(lesson_stepper_active(&s));       /* on, but no click yet */
    lesson_stepper_restart(&s, 3);
    assert_true(lesson_stepper_active(&s));
    assert_string_equal(lesson_stepper_label(&s, buf, sizeof buf), "step 1 of 3");
    assert_true(lesson_stepper_key(&s, ','));
    assert_int_equal(s.current, 0);
    for (int i = 0; i < 5; ++i)
        assert_true(lesson_stepper_key(&s, '.'));
    assert_int_equal(s.current, 2);
    assert_string_equal(lesson_stepper_label(&s, buf, sizeof buf), "step 3 of 3");
    assert_true(lesson_stepper_key(&s, ','));
    assert_int_equal(s.current, 1);
}

static void a_new_click_restarts(void **state)
{
    (void)state;
    lesson_stepper s = {0};
    lesson_stepper_key(&s, 'p');
    lesson_stepper_restart(&s, 10);
    lesson_stepper_key(&s, '.');
    lesson_stepper_key(&s, '.');
    lesson_stepper_restart(&s, 4);
    assert_int_equal(s.current, 0);
    assert_int_equal(s.count, 4);
    lesson_stepper_restart(&s, -2);                /* nonsense count: no steps */
    assert_int_equal(s.count, 0);
    assert_false(lesson_stepper_active(&s));
    /* P again turns it off */
    lesson_stepper_key(&s, 'p');
    assert_false(s.on);
}

static void label_fits_small_buffers(void **state)
{
    (void)state;
    lesson_stepper s = {.on = true, .current = 11, .count = 300};
    char buf[6];
    memset(buf, 'x', sizeof buf);
    lesson_stepper_label(&s, buf, sizeof buf);
    assert_string_equal(buf, "step ");
    assert_ptr_equal(lesson_stepper_label(&s, buf, 0), buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(zero_value_is_off),
        cmocka_unit_test(steps_clamp_at_both_ends),
        cmocka_unit_test(a_new_click_restarts),
        cmocka_unit_test(label_fits_small_buffers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

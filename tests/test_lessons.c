/* test_lessons.c: the lesson registry (src/lessons/lessons.h) against the
 * lessons it lists and the options parser that reads it: numbers are the
 * table's lines, names and title keys are unique and safe in file names,
 * every lesson has its callbacks, "pick_ids" says what a fresh instance's
 * draw list really gives, and every file option the registry names is an
 * option the parser knows. The files each lesson needs (source, unit test,
 * notes) are checked by tests/check_lessons.py. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "lesson_test_util.h"
#include "lessons.h"
#include "msg.h"
#include "options.h"

static void numbers_are_the_lines_of_the_table(void **state)
{
    (void)state;
    int count = lessons_count();
    assert_true(count >= 1 && count <= LESSONS_MAX);
    for (int n = 1; n <= count; ++n) {
        const lessons_entry *e = lessons_get(n);
        assert_non_null(e);
        assert_int_equal(e->number, n);
        assert_non_null(e->lesson);
        assert_int_equal(e->lesson->number, n);   /* what the HUD and --report print */
    }
    assert_null(lessons_get(0));
    assert_null(lessons_get(-1));
    assert_null(lessons_get(count + 1));
}

/* [a-z0-9-]+: a file name and a URL part as it is */
static bool file_safe(const char *s)
{
    if (!s || !*s)
        return false;
    for (; *s; ++s)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '-'))
            return false;
    return true;
}

static void names_and_title_keys_are_unique_and_file_safe(void **state)
{
    (void)state;
    for (int n = 1; n <= lessons_count(); ++n) {
        const lessons_entry *e = lessons_get(n);
        assert_true(file_safe(e->name));
        assert_non_null(e->title_key);
        assert_non_null(strstr(e->title_key, e->name));
        /* the table's C name starts "lessonN_", as its file does */
        char prefix[32];
        snprintf(prefix, sizeof prefix, "lesson%d_", n);
        assert_int_equal(strncmp(e->object, prefix, strlen(prefix)), 0);
        /* the title and keys are the catalogue's, in every language */
        for (const char *const *code = msg_languages(); *code; ++code) {
            const char *title = msg_in(*code, e->title_key), *keys = msg_in(*code, e->keys_key);
            if (!title || !title[0])
                fail_msg("lesson %d: no title %s in language %s", n, e->title_key, *code);
            if (!keys || !keys[0])
                fail_msg("lesson %d: no keys %s in language %s", n, e->keys_key, *code);
        }
        assert_non_null(strstr(e->keys_key, e->name));
        char heading[160];
        assert_true(lessons_heading(e, heading, sizeof heading));
        assert_non_null(strstr(heading, lessons_title(e)));
        for (int k = 1; k < n; ++k) {
            assert_string_not_equal(lessons_get(k)->name, e->name);
            assert_string_not_equal(lessons_get(k)->title_key, e->title_key);
            assert_string_not_equal(lessons_get(k)->object, e->object);
        }
    }
}

static void names_on_the_hud_are_the_catalogue_s(void **state)
{
    (void)state;
    char buf[64];
    assert_true(msg_set_language("de"));
    assert_string_equal(lesson_display_name("name", "face 12", buf, sizeof buf), "Dreieck 12");
    assert_string_equal(lesson_display_name("name", "sphere 3", buf, sizeof buf), "Kugel 3");
    assert_string_equal(lesson_display_name("name", "sphere (false positive)", buf, sizeof buf), "Kugel (Fehlalarm)");
    assert_string_equal(lesson_display_name("method", "search", buf, sizeof buf), "Suche");
    /* what the catalogue lacks stays as the lesson wrote it */
    assert_string_equal(lesson_display_name("name", "gizmo 3", buf, sizeof buf), "gizmo 3");
    assert_string_equal(lesson_display_name("name", "12", buf, sizeof buf), "12");
    assert_string_equal(lesson_display_name("name", "", buf, sizeof buf), "");
    assert_true(msg_set_language("en"));
    assert_string_equal(lesson_display_name("name", "face 12", buf, sizeof buf), "face 12");
    assert_string_equal(lesson_display_name(NULL, "face 12", buf, sizeof buf), "");
    char tiny[4];
    assert_string_equal(lesson_display_name("name", "torus", tiny, sizeof tiny), "tor");
}

/* Lesson n's status lines after a click at the view's centre in step mode
   (one step on), in language code. */
static void status_after_a_click(int n, const char *code, char *buf, size_t size)
{
    assert_true(msg_set_language(code));
    const lesson *l = lessons_get(n)->lesson;
    char err[512] = "";
    lesson_env env = {.seed = 1, .err = err, .err_size = sizeof err};
    void *self = l->create(&env);
    if (!self)
        fail_msg("lesson %d does not start: %s", n, err);
    l->key(self, 'p');
    lesson_click c;
    lesson_pick pick;
    if (make_click(l, self, 0.5f * TEST_W, 0.5f * TEST_H, &c))
        l->click(self, &c, &pick);
    l->key(self, '.');
    l->status(self, buf, size);
    l->destroy(self);
    msg_set_language("en");
}

static void every_lesson_speaks_every_language(void **state)
{
    (void)state;
    for (int n = 1; n <= lessons_count(); ++n) {
        char english[2048], other[2048];
        status_after_a_click(n, "en", english, sizeof english);
        assert_true(strlen(english) > 20);
        for (const char *const *code = msg_languages() + 1; *code; ++code) {
            status_after_a_click(n, *code, other, sizeof other);
            if (strcmp(other, english) == 0)
                fail_msg("lesson %d: the status in %s is the English one:\n%s", n, *code, other);
            assert_null(strstr(other, "(null)"));
        }
    }
}

static void every_lesson_has_its_callbacks_and_texts(void **state)
{
    (void)state;
    for (int n = 1; n <= lessons_count(); ++n) {
        const lesson *l = lessons_get(n)->lesson;
        assert_non_null(l->create);
        assert_non_null(l->destroy);
        assert_non_null(l->update);
        assert_non_null(l->key);
        assert_non_null(l->method);
        assert_non_null(l->click);
        assert_non_null(l->draw);
        assert_non_null(l->status);
        assert_non_null(l->objects);
        assert_true(l->camera.distance > 0.0f && l->camera.fov > 0.0f);
    }
}

/* How many commands of lesson n's first frame (made as the app makes it
   at start, seen from its start camera) carry a GPU pick id. */
static int first_frame_pick_ids(int n)
{
    const lesson *l = lessons_get(n)->lesson;
    char err[512] = "";
    lesson_env env = {.seed = 1, .err = err, .err_size = sizeof err};
    void *self = l->create(&env);
    if (!self)
        fail_msg("lesson %d does not start: %s", n, err);
    render_view v;
    memset(&v, 0, sizeof v);
    start_camera(l, v.view, v.proj, v.eye);
    glm_mat4_mul(v.proj, v.view, v.view_proj);
    v.width = (int)TEST_W;
    v.height = (int)TEST_H;
    render_list list = {0};
    render_list_reset(&list, &v);
    l->update(self, 1.0f / 60.0f);
    l->draw(self, &list);
    int ids = 0;
    for (int i = 0; i < list.count; ++i)
        ids += list.cmds[i].pick_id >= 0;
    assert_true(list.count > 0);    /* it draws something */
    render_list_free(&list);
    l->destroy(self);
    return ids;
}

static void pick_ids_say_what_the_draw_list_gives(void **state)
{
    (void)state;
    for (int n = 1; n <= lessons_count(); ++n) {
        int ids = first_frame_pick_ids(n);
        if (lessons_get(n)->pick_ids != (ids > 0))
            fail_msg("lesson %d: the registry says pick_ids %s, its first frame lists %d commands with ids", n,
                     lessons_get(n)->pick_ids ? "true" : "false", ids);
    }
}

static void file_options_are_options_the_parser_knows(void **state)
{
    (void)state;
    for (int n = 1; n <= lessons_count(); ++n) {
        const lessons_entry *e = lessons_get(n);
        for (int f = 0; f < LESSONS_MAX_FILES && e->files[f]; ++f) {
            char option[64], err[256] = "";
            snprintf(option, sizeof option, "--%s", e->files[f]);
            char *argv[] = {"raypick", option, "some-file.dat", NULL};
            app_options o;
            assert_int_equal(app_parse_options(3, argv, &o, err, sizeof err), APP_PARSE_OK);
            assert_non_null(app_option_file(&o, e->files[f]));
            assert_string_equal(app_option_file(&o, e->files[f]), "some-file.dat");
            assert_true(lessons_loads_file(e, e->files[f]));
            /* the first lesson loading it: the one --help names */
            const lessons_entry *first = lessons_for_file(e->files[f]);
            assert_non_null(first);
            assert_true(first->number <= n);
        }
        assert_null(e->files[LESSONS_MAX_FILES]);
    }
    /* nothing given: no file; names that are no file option */
    char *argv[] = {"raypick", NULL};
    app_options o;
    char err[256] = "";
    assert_int_equal(app_parse_options(1, argv, &o, err, sizeof err), APP_PARSE_OK);
    for (int n = 1; n <= lessons_count(); ++n)
        for (int f = 0; f < LESSONS_MAX_FILES && lessons_get(n)->files[f]; ++f)
            assert_null(app_option_file(&o, lessons_get(n)->files[f]));
    assert_null(app_option_file(&o, "seed"));
    assert_null(app_option_file(&o, NULL));
    assert_null(app_option_file(NULL, "mesh"));
    assert_null(lessons_for_file("seed"));
    assert_null(lessons_for_file(NULL));
    assert_false(lessons_loads_file(NULL, "mesh"));
    assert_false(lessons_loads_file(lessons_get(1), NULL));
}

static void lesson_option_takes_exactly_the_registry_numbers(void **state)
{
    (void)state;
    char count[16], past[16], err[256];
    snprintf(count, sizeof count, "%d", lessons_count());
    snprintf(past, sizeof past, "%d", lessons_count() + 1);
    const char *cases[][2] = {{"1", "ok"}, {count, "ok"}, {"0", "bad"}, {past, "bad"}, {"-1", "bad"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        char *argv[] = {"raypick", "--lesson", (char *)cases[i][0], NULL};
        app_options o;
        err[0] = '\0';
        app_parse_result r = app_parse_options(3, argv, &o, err, sizeof err);
        if (!strcmp(cases[i][1], "ok")) {
            assert_int_equal(r, APP_PARSE_OK);
            assert_int_equal(o.lesson, atoi(cases[i][0]));
        } else {
            assert_int_equal(r, APP_PARSE_ERROR);
            assert_non_null(strstr(err, "--lesson"));
        }
    }
    char *argv[] = {"raypick", "--list-lessons", NULL};
    app_options o;
    assert_int_equal(app_parse_options(2, argv, &o, err, sizeof err), APP_PARSE_OK);
    assert_true(o.list_lessons);
}

static void notes_path_is_made_from_number_and_name(void **state)
{
    (void)state;
    for (int n = 1; n <= lessons_count(); ++n) {
        const lessons_entry *e = lessons_get(n);
        char path[256], want[256];
        assert_true(lessons_notes_path(e, path, sizeof path));
        snprintf(want, sizeof want, "docs/lessons/lesson%d-%s.md", n, e->name);
        assert_string_equal(path, want);
        /* too small a buffer: false, never a cut path */
        assert_false(lessons_notes_path(e, path, strlen(want)));
    }
    char path[8];
    assert_false(lessons_notes_path(NULL, path, sizeof path));
    assert_false(lessons_notes_path(lessons_get(1), NULL, 8));
    assert_false(lessons_notes_path(lessons_get(1), path, 0));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(numbers_are_the_lines_of_the_table),
        cmocka_unit_test(names_and_title_keys_are_unique_and_file_safe),
        cmocka_unit_test(names_on_the_hud_are_the_catalogue_s),
        cmocka_unit_test(every_lesson_speaks_every_language),
        cmocka_unit_test(every_lesson_has_its_callbacks_and_texts),
        cmocka_unit_test(pick_ids_say_what_the_draw_list_gives),
        cmocka_unit_test(file_options_are_options_the_parser_knows),
        cmocka_unit_test(lesson_option_takes_exactly_the_registry_numbers),
        cmocka_unit_test(notes_path_is_made_from_number_and_name),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

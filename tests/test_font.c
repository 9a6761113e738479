/* test_font.c: the HUD's fonts (src/render/font.c), no GL: a Latin and a
 * CJK font file given on the command line (tests/meson.build finds them
 * at configure time) chained as the program chains them; each character
 * from the face that has it; glyph images that are the characters' own
 * (distinct, inked, not the missing box); advances; files that are no
 * font refused with a message; UTF-8 decoding.
 *
 *     test_font LATIN.ttf CJK.ttc [--system]
 *
 * --system: the system's own search instead (font_set_open(NULL)), where
 * the build is native. */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L     /* mkdtemp (tests/tmpdir.h) */
#endif
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "font.h"
#include "tmpdir.h"

static const char *latin_path, *cjk_path;
static bool check_system;
static char tmp[512];

#if defined(_WIN32)
#define SEP ";"
#else
#define SEP ":"
#endif

static font_set *open_both(void)
{
    char paths[1100], err[600] = "";
    snprintf(paths, sizeof paths, "%s" SEP "%s", latin_path, cjk_path);
    font_set *f = font_set_open(paths, err, sizeof err);
    if (!f)
        fail_msg("%s: %s", paths, err);
    return f;
}

static void each_character_comes_from_the_face_that_has_it(void **state)
{
    (void)state;
    font_set *f = open_both();
    font_glyph g;
    assert_true(font_set_find(f, 'A', &g));
    assert_int_equal(g.face, 0);
    assert_true(g.index > 0);
    assert_true(font_set_find(f, 0x00fc, &g));      /* u umlaut: Latin */
    assert_int_equal(g.face, 0);
    assert_true(font_set_find(f, 0x62fe, &g));      /* the first character of "pick" in Chinese */
    assert_int_equal(g.face, 1);
    assert_true(g.index > 0);
    assert_string_equal(font_set_face_path(f, 1), cjk_path);
    assert_non_null(font_set_face_name(f, 1));
    assert_true(font_set_face_index(f, 1) >= 0);
    /* none has a private-use character of plane 16: the first face's box */
    assert_false(font_set_find(f, 0x10fffd, &g));
    assert_int_equal(g.face, 0);
    assert_int_equal(g.index, 0);
    assert_false(font_set_find(f, 0x110000, &g));
    font_set_close(f);
}

static void the_cjk_face_opens_only_when_needed(void **state)
{
    (void)state;
    font_set *f = open_both();
    assert_non_null(font_set_face_path(f, 0));
    assert_null(font_set_face_path(f, 1));      /* not opened yet */
    assert_int_equal(font_set_missing(f, "Picking mit H\xc3\xbcllkugeln\nzweite Zeile"), 0);
    assert_null(font_set_face_path(f, 1));      /* German needs none of it */
    assert_int_equal(font_set_missing(f, "\xe6\x8b\xbe\xe5\x8f\x96\xe5\xb0\x84\xe7\xba\xbf"), 0);
    assert_non_null(font_set_face_path(f, 1));
    assert_int_equal(font_set_missing(f, "ok \xf4\x8f\xbf\xbd"), 0x10fffd);
    font_set_close(f);
}

/* g's image at em pixels, and its box */
static unsigned char *image(font_set *f, uint32_t c, float em, font_box *box)
{
    font_glyph g;
    font_set_find(f, c, &g);
    *box = font_set_box(f, g, em);
    int w = box->x1 - box->x0, h = box->y1 - box->y0;
    assert_true(w > 0 && h > 0);
    unsigned char *px = calloc((size_t)w * (size_t)h, 1);
    assert_non_null(px);
    font_set_render(f, g, em, px, w);
    return px;
}

static double ink(const unsigned char *px, const font_box *b)
{
    size_t n = (size_t)(b->x1 - b->x0) * (size_t)(b->y1 - b->y0), sum = 0;
    for (size_t i = 0; i < n; ++i)
        sum += px[i];
    return (double)sum / (255.0 * (double)n);
}

/* share of pixels where two images of the same box differ by more than half */
static double differ(const unsigned char *a, const font_box *ba, const unsigned char *b, const font_box *bb)
{
    if (ba->x1 - ba->x0 != bb->x1 - bb->x0 || ba->y1 - ba->y0 != bb->y1 - bb->y0)
        return 1.0;
    size_t n = (size_t)(ba->x1 - ba->x0) * (size_t)(ba->y1 - ba->y0), d = 0;
    for (size_t i = 0; i < n; ++i)
        d += abs((int)a[i] - (int)b[i]) > 128;
    return (double)d / (double)n;
}

static void glyph_images_are_the_characters_own(void **state)
{
    (void)state;
    font_set *f = open_both();
    const float em = 24.0f;
    /* pick, take, shoot, line: "pick ray" in Chinese */
    const uint32_t cs[4] = {0x62fe, 0x53d6, 0x5c04, 0x7ebf};
    unsigned char *px[4];
    font_box box[4];
    for (int i = 0; i < 4; ++i) {
        px[i] = image(f, cs[i], em, &box[i]);
        /* an ideograph nearly fills its em and is partly inked */
        assert_true(box[i].x1 - box[i].x0 >= 16 && box[i].y1 - box[i].y0 >= 16);
        assert_true(box[i].x1 - box[i].x0 <= 26 && box[i].y1 - box[i].y0 <= 26);
        double k = ink(px[i], &box[i]);
        assert_true(k > 0.15 && k < 0.7);
    }
    for (int i = 0; i < 4; ++i)
        for (int j = i + 1; j < 4; ++j)
            assert_true(differ(px[i], &box[i], px[j], &box[j]) > 0.05);
    /* the missing box is no character's image */
    font_glyph none = {0, 0};
    font_box nb = font_set_box(f, none, em);
    unsigned char *npx = calloc((size_t)(nb.x1 - nb.x0) * (size_t)(nb.y1 - nb.y0), 1);
    assert_non_null(npx);
    font_set_render(f, none, em, npx, nb.x1 - nb.x0);
    for (int i = 0; i < 4; ++i)
        assert_true(differ(px[i], &box[i], npx, &nb) > 0.05);
    free(npx);
    for (int i = 0; i < 4; ++i)
        free(px[i]);
    /* a space has an advance and no image */
    font_glyph space;
    assert_true(font_set_find(f, ' ', &space));
    font_box sb = font_set_box(f, space, em);
    assert_int_equal(sb.x1 - sb.x0, 0);
    assert_true(font_set_advance(f, space, em) > 2.0f);
    font_set_close(f);
}

static void advances_scale_with_the_em(void **state)
{
    (void)state;
    font_set *f = open_both();
    font_glyph w, ideograph;
    assert_true(font_set_find(f, 'W', &w));
    assert_true(font_set_find(f, 0x5305, &ideograph));
    float a10 = font_set_advance(f, w, 10.0f), a20 = font_set_advance(f, w, 20.0f);
    assert_true(a10 > 5.0f && a10 < 13.0f);
    assert_float_equal(a20, 2.0f * a10, 1e-4f);
    /* an ideograph is one em wide */
    assert_float_equal(font_set_advance(f, ideograph, 20.0f), 20.0f, 0.5f);
    font_glyph bad = {FONT_MAX_FACES, 1};
    assert_float_equal(font_set_advance(f, bad, 20.0f), 0.0f, 0.0f);
    font_set_close(f);
}

static void write_file(const char *path, const void *data, size_t n)
{
    FILE *fp = fopen(path, "wb");
    assert_non_null(fp);
    assert_int_equal(fwrite(data, 1, n, fp), n);
    fclose(fp);
}

/* font_set_open(paths) fails with a message holding `needle` */
static void refused(const char *paths, const char *needle)
{
    char err[600] = "";
    font_set *f = font_set_open(paths, err, sizeof err);
    if (f)
        fail_msg("%s: opened", paths);
    if (!strstr(err, needle))
        fail_msg("%s: message '%s' lacks '%s'", paths, err, needle);
}

static void what_is_no_font_is_refused(void **state)
{
    (void)state;
    char path[700];
    snprintf(path, sizeof path, "%s/missing.ttf", tmp);
    refused(path, "cannot open");
    refused(tmp, "cannot open");                    /* a directory */
    refused("", "names no font file");
    snprintf(path, sizeof path, "%s/text.ttf", tmp);
    write_file(path, "this is not a font, only text long enough", 41);
    refused(path, "not a TrueType or OpenType font");
    snprintf(path, sizeof path, "%s/empty.ttf", tmp);
    write_file(path, "", 0);
    refused(path, "cannot open");
    /* a real font cut short: its tables reach past the end */
    FILE *fp = fopen(latin_path, "rb");
    assert_non_null(fp);
    unsigned char head[4096];
    size_t n = fread(head, 1, sizeof head, fp);
    fclose(fp);
    assert_int_equal(n, sizeof head);
    snprintf(path, sizeof path, "%s/cut.ttf", tmp);
    write_file(path, head, n);
    refused(path, "not a TrueType or OpenType font");
    /* a collection whose face offsets point past its end */
    const unsigned char ttc[16] = {'t', 't', 'c', 'f', 0, 1, 0, 0, 0, 0, 0, 1, 0x7f, 0, 0, 0};
    snprintf(path, sizeof path, "%s/bad.ttc", tmp);
    write_file(path, ttc, sizeof ttc);
    refused(path, "not a TrueType or OpenType font");
    /* the user's list: its first file must be a font */
    char list[1400];
    snprintf(list, sizeof list, "%s/missing.ttf" SEP "%s", tmp, latin_path);
    refused(list, "missing.ttf: cannot open");
    /* a list that starts well goes on */
    snprintf(list, sizeof list, "%s" SEP "%s/missing.ttf", latin_path, tmp);
    char err[600];
    font_set *f = font_set_open(list, err, sizeof err);
    assert_non_null(f);
    assert_int_equal(font_set_missing(f, "Hello"), 0);
    assert_int_equal(font_set_missing(f, "\xe6\x8b\xbe"), 0x62fe);
    font_set_close(f);
    font_set_close(NULL);
}

static void utf8_is_decoded_strictly(void **state)
{
    (void)state;
    const char *p = "A\xc3\xbc\xe6\x8b\xbe\xf0\x9f\x98\x80";
    assert_int_equal(font_utf8_next(&p), 'A');
    assert_int_equal(font_utf8_next(&p), 0xfc);
    assert_int_equal(font_utf8_next(&p), 0x62fe);
    assert_int_equal(font_utf8_next(&p), 0x1f600);
    assert_int_equal(font_utf8_next(&p), 0);
    const char *bad[] = {"\xc0\xaf", "\xed\xa0\x80", "\xe6\x8b", "\x80", "\xf8\x88\x80\x80\x80", "\xf4\x90\x80\x80"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        const char *q = bad[i];
        assert_int_equal(font_utf8_next(&q), 0xfffd);
        assert_true(q > bad[i]);    /* always moves on */
    }
}

static void the_system_has_fonts_for_every_language(void **state)
{
    (void)state;
    char err[600] = "";
    font_set *f = font_set_open(NULL, err, sizeof err);
    if (!f)
        fail_msg("no system font: %s", err);
    assert_int_equal(font_set_missing(f, "Hello, H\xc3\xbcllkugel \xe5\x8c\x85\xe5\x9b\xb4\xe7\x90\x83"), 0);
    font_set_close(f);
    assert_non_null(strstr(font_install_hint("zh"), "RAYPICK_FONT"));
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: test_font LATIN.ttf CJK.ttc [--system]\n");
        return 2;
    }
    latin_path = argv[1];
    cjk_path = argv[2];
    check_system = argc > 3 && !strcmp(argv[3], "--system");
    if (rp_test_tmpdir_make("raypick-font", tmp, sizeof tmp) != 0) {
        fprintf(stderr, "test_font: no temporary directory\n");
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(each_character_comes_from_the_face_that_has_it),
        cmocka_unit_test(the_cjk_face_opens_only_when_needed),
        cmocka_unit_test(glyph_images_are_the_characters_own),
        cmocka_unit_test(advances_scale_with_the_em),
        cmocka_unit_test(what_is_no_font_is_refused),
        cmocka_unit_test(utf8_is_decoded_strictly),
    };
    /* the system's search: only where the build is native (a cross
       build's system lists are another system's) */
    const struct CMUnitTest system_tests[] = {
        cmocka_unit_test(the_system_has_fonts_for_every_language),
    };
    int failed = check_system ? cmocka_run_group_tests_name("system", system_tests, NULL, NULL)
                              : cmocka_run_group_tests(tests, NULL, NULL);
    const char *written[] = {"text.ttf", "empty.ttf", "cut.ttf", "bad.ttc"};
    for (size_t i = 0; i < sizeof written / sizeof written[0]; ++i) {
        char path[700];
        snprintf(path, sizeof path, "%s/%s", tmp, written[i]);
        remove(path);
    }
    rp_test_tmpdir_remove(tmp);
    return failed;
}

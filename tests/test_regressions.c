/* test_regressions.c: inputs the fuzzers (tests/fuzz/) found that broke
   the library, each asserting the behaviour the contract promises. Every
   case names the finding in docs/reliability.md it comes from.

   Some of these only show under the sanitizers (scripts/test's second
   build): an out-of-bounds write inside a struct is invisible to a plain
   build, while UBSan's bounds check stops the test. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <raypick/raypick.h>
#include "tmpdir.h"

static char tmpdir[400];

static int setup(void **state)
{
    (void)state;
    return rp_test_tmpdir_make("raypick-regressions", tmpdir, sizeof tmpdir);
}

static int teardown(void **state)
{
    (void)state;
    return rp_test_tmpdir_remove(tmpdir);
}

/* Write bytes to a file in tmpdir, load it as a heightmap (spacing 1,
   height scale 10), remove the file; err receives the message. */
static rp_heightmap *load_bytes(const char *name, const void *data, size_t n,
                                char *err, size_t err_size)
{
    char path[480];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
    rp_heightmap *hm = rp_heightmap_load(path, 1.0f, 10.0f, (vec3){0, 0, 0}, err, err_size);
    assert_int_equal(remove(path), 0);
    return hm;
}

/* A loaded map is refused, or else every height is in [0, height_scale]
   (black = 0, white = height_scale). */
static void assert_refused_or_in_range(rp_heightmap *hm, const char *err)
{
    if (hm == NULL) {
        assert_true(err[0] != '\0');
        return;
    }
    int n = rp_heightmap_cols(hm) * rp_heightmap_rows(hm), bad = -1;
    const float *h = rp_heightmap_heights(hm);
    float bad_value = 0.0f;
    for (int i = 0; i < n && bad < 0; i++) {
        if (!(h[i] >= 0.0f && h[i] <= 10.0f)) {
            bad = i;
            bad_value = h[i];
        }
    }
    rp_heightmap_destroy(hm);      /* before failing: no leak under valgrind */
    if (bad >= 0)
        fail_msg("sample %d is %g, outside [0, 10]", bad, (double)bad_value);
}

/* Finding F1 (fuzz_heightmap_load): a JPEG whose DHT segment declares more
   than 256 Huffman codes. stb_image 2.27's stbi__build_huffman writes one
   size byte per declared code into h->size[257] without a bound: here
   0xFF + 0xD9 = 472 codes, writes up to h->size[471]. The 9 bytes: SOI,
   DHT with length 28, table 0, counts 0xFF 0xD9 and the end of the file.
   Fixed by building the loader without stb's JPEG decoder: the file must
   be refused with a message, and nothing may be written out of bounds. */
static void jpeg_huffman_table_over_256_codes(void **state)
{
    (void)state;
    static const unsigned char jpeg[] = {0xFF, 0xD8, 0xFF, 0xC4, 0x00, 0x1C, 0x00, 0xFF, 0xD9};
    char err[256] = "";
    rp_heightmap *hm = load_bytes("dht.jpg", jpeg, sizeof jpeg, err, sizeof err);
    assert_null(hm);
    assert_true(err[0] != '\0');
}

/* Finding F2 (fuzz_heightmap_load): binary PGM samples larger than the
   header's maxval. The reader scales by height_scale / maxval without a
   check, so maxval 2 and a sample of 200 gave a height of 1000 with a
   height scale of 10. */
static void pgm_sample_above_maxval(void **state)
{
    (void)state;
    static const char pgm[] = "P5\n2 2\n2\n\x00\x01\x02\xC8";
    char err[256] = "";
    rp_heightmap *hm = load_bytes("above.pgm", pgm, sizeof pgm - 1, err, sizeof err);
    assert_refused_or_in_range(hm, err);
}

/* The same with 16-bit samples (maxval > 255): 0xFFFF against maxval 1000. */
static void pgm16_sample_above_maxval(void **state)
{
    (void)state;
    static const char pgm[] = "P5\n2 2\n1000\n\x00\x00\x03\xE8\x00\x01\xFF\xFF";
    char err[256] = "";
    rp_heightmap *hm = load_bytes("above16.pgm", pgm, sizeof pgm - 1, err, sizeof err);
    assert_refused_or_in_range(hm, err);
}

/* And colour (P6, luminance of three samples above maxval). */
static void ppm_sample_above_maxval(void **state)
{
    (void)state;
    static const char ppm[] = "P6\n2 2\n15\n"
                              "\x00\x00\x00" "\x0F\x0F\x0F" "\xF0\xF0\xF0" "\x07\x07\x07";
    char err[256] = "";
    rp_heightmap *hm = load_bytes("above.ppm", ppm, sizeof ppm - 1, err, sizeof err);
    assert_refused_or_in_range(hm, err);
}

/* Finding F4 (fuzz_heightmap_load): a PNG chunk declaring more bytes than
   the file holds. stb_image 2.27 grows its IDAT buffer to the declared
   length before reading the chunk, so these 77 bytes (a valid 4x4 grey
   PNG's IHDR and IDAT, then an IDAT header declaring 0x7FFFFFF0 bytes and
   8 bytes) cost a 2 GiB realloc. The loader now walks the chunks before
   stb_image sees the file: refused there, naming the chunk's length. */
static void png_chunk_longer_than_the_file(void **state)
{
    (void)state;
    static const unsigned char png[] = {
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A,                         /* signature */
        0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00, 0x04, /* IHDR 4x4 */
        0x00, 0x00, 0x00, 0x04, 0x08, 0x00, 0x00, 0x00, 0x00, 0x8C, 0x9A, 0xC1, 0xA2,
        0x00, 0x00, 0x00, 0x10, 0x49, 0x44, 0x41, 0x54, 0x78, 0xDA, 0x63, 0x60, /* IDAT */
        0x30, 0x4A, 0x99, 0xC6, 0x80, 0x4A, 0x00, 0x00, 0x2B, 0x0C, 0x04, 0xB1, 0x3C, 0xD4,
        0x89, 0x21,
        0x7F, 0xFF, 0xFF, 0xF0, 0x49, 0x44, 0x41, 0x54,                         /* the lie */
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
    char err[256] = "";
    rp_heightmap *hm = load_bytes("long_chunk.png", png, sizeof png, err, sizeof err);
    assert_null(hm);
    assert_non_null(strstr(err, "declares 2147483632 bytes"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(jpeg_huffman_table_over_256_codes),
        cmocka_unit_test(pgm_sample_above_maxval),
        cmocka_unit_test(pgm16_sample_above_maxval),
        cmocka_unit_test(ppm_sample_above_maxval),
        cmocka_unit_test(png_chunk_longer_than_the_file),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

/* test_heightmap_load.c: loading heightmaps from image files, and every
   loader error. The images are written at run time into a fresh temporary
   directory: PGM and 16-bit PNG by hand, 8-bit and colour PNG through
   stb_image_write, broken files by truncating good ones. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <raypick/raypick.h>

#ifdef RP_TEST_HAVE_STB
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpedantic"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#endif
#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h>
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic pop
#endif
#endif

static char tmpdir[64];
static char paths[64][128];
static int npaths;

static const char *path_of(const char *name)
{
    assert_true(npaths < 64);
    snprintf(paths[npaths], sizeof paths[0], "%s/%s", tmpdir, name);
    return paths[npaths++];
}

static const char *write_file(const char *name, const void *data, size_t n)
{
    const char *p = path_of(name);
    FILE *f = fopen(p, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
    return p;
}

static int setup(void **state)
{
    (void)state;
    strcpy(tmpdir, "/tmp/raypick-heightmap-XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    for (int i = 0; i < npaths; i++)
        remove(paths[i]);
    return rmdir(tmpdir);
}

#ifdef RP_TEST_HAVE_STB
/* ---- a minimal PNG writer (stored deflate) for 16-bit and odd headers -- */

static uint32_t crc_table[256];

static uint32_t crc32_update(uint32_t crc, const uint8_t *p, size_t n)
{
    if (crc_table[1] == 0)
        for (uint32_t i = 0; i < 256; i++) {
            uint32_t c = i;
            for (int k = 0; k < 8; k++)
                c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
            crc_table[i] = c;
        }
    crc = ~crc;
    for (size_t i = 0; i < n; i++)
        crc = crc_table[(crc ^ p[i]) & 0xff] ^ (crc >> 8);
    return ~crc;
}

typedef struct buf {
    uint8_t data[1 << 16];
    size_t n;
} buf;

static void put(buf *b, const void *p, size_t n)
{
    assert_true(b->n + n <= sizeof b->data);
    memcpy(b->data + b->n, p, n);
    b->n += n;
}

static void put32(buf *b, uint32_t v)
{
    uint8_t x[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};
    put(b, x, 4);
}

static void chunk(buf *b, const char *type, const uint8_t *data, uint32_t n)
{
    put32(b, n);
    size_t start = b->n;
    put(b, type, 4);
    if (n)
        put(b, data, n);
    put32(b, crc32_update(0, b->data + start, n + 4));
}

static void png_header(buf *b, uint32_t w, uint32_t h, uint8_t depth, uint8_t colour)
{
    static const uint8_t sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    put(b, sig, 8);
    uint8_t ihdr[13] = {(uint8_t)(w >> 24), (uint8_t)(w >> 16), (uint8_t)(w >> 8), (uint8_t)w,
                        (uint8_t)(h >> 24), (uint8_t)(h >> 16), (uint8_t)(h >> 8), (uint8_t)h,
                        depth, colour, 0, 0, 0};
    chunk(b, "IHDR", ihdr, 13);
}

/* A 16-bit grayscale PNG: rows of big-endian samples behind filter byte 0,
   in one stored (uncompressed) deflate block. */
static const char *write_png16(const char *name, int w, int h, const uint16_t *px)
{
    static buf b, raw, z;
    b.n = raw.n = z.n = 0;
    png_header(&b, (uint32_t)w, (uint32_t)h, 16, 0);
    for (int r = 0; r < h; r++) {
        uint8_t filter = 0;
        put(&raw, &filter, 1);
        for (int c = 0; c < w; c++) {
            uint8_t s[2] = {(uint8_t)(px[r * w + c] >> 8), (uint8_t)px[r * w + c]};
            put(&raw, s, 2);
        }
    }
    uint8_t zhdr[2] = {0x78, 0x01};
    put(&z, zhdr, 2);
    uint8_t blk[5] = {1, (uint8_t)raw.n, (uint8_t)(raw.n >> 8), (uint8_t)~raw.n,
                      (uint8_t)(~raw.n >> 8)};
    put(&z, blk, 5);
    put(&z, raw.data, raw.n);
    uint32_t a = 1, s2 = 0;
    for (size_t i = 0; i < raw.n; i++) {
        a = (a + raw.data[i]) % 65521;
        s2 = (s2 + a) % 65521;
    }
    put32(&z, (s2 << 16) | a);
    chunk(&b, "IDAT", z.data, (uint32_t)z.n);
    chunk(&b, "IEND", NULL, 0);
    return write_file(name, b.data, b.n);
}

#endif /* RP_TEST_HAVE_STB */

/* ---- every load twice: from the file and from its bytes in memory ------ */

/* The file's bytes (malloc'ed, *n set), or NULL when it cannot be read. */
static unsigned char *read_bytes(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    unsigned char *data = NULL;
    size_t cap = 0, len = 0, got;
    do {
        if (len == cap) {
            cap = cap ? 2 * cap : 4096;
            unsigned char *grown = realloc(data, cap);
            assert_non_null(grown);
            data = grown;
        }
        got = fread(data + len, 1, cap - len, f);
        len += got;
    } while (got > 0);
    fclose(f);
    *n = len;
    return data;
}

/* The message with the file's name where the memory loader says "(memory)". */
static void as_memory_message(const char *msg, const char *path, char *out, size_t size)
{
    const char *at = strstr(msg, path);
    if (at == NULL) {
        snprintf(out, size, "%s", msg);
        return;
    }
    snprintf(out, size, "%.*s(memory)%s", (int)(at - msg), msg, at + strlen(path));
}

/* rp_heightmap_load, checked against rp_heightmap_load_memory on the same
   bytes: the same map (every height bit for bit) or the same error. */
static rp_heightmap *load_checked(const char *path, float spacing, float height_scale,
                                  const vec3 origin, char *err, size_t err_size)
{
    char file_err[512] = "", mem_err[512] = "", want[600];
    rp_heightmap *hm = rp_heightmap_load(path, spacing, height_scale, origin, file_err,
                                         sizeof file_err);
    size_t n = 0;
    unsigned char *data = read_bytes(path, &n);
    if (data != NULL) {
        rp_heightmap *mem = rp_heightmap_load_memory(data, n, spacing, height_scale, origin,
                                                     mem_err, sizeof mem_err);
        free(data);
        assert_true((hm == NULL) == (mem == NULL));
        if (hm != NULL) {
            int cols = rp_heightmap_cols(hm), rows = rp_heightmap_rows(hm);
            assert_int_equal(rp_heightmap_cols(mem), cols);
            assert_int_equal(rp_heightmap_rows(mem), rows);
            assert_memory_equal(rp_heightmap_heights(mem), rp_heightmap_heights(hm),
                                (size_t)cols * (size_t)rows * sizeof(float));
        } else {
            as_memory_message(file_err, path, want, sizeof want);
            assert_string_equal(mem_err, want);
        }
        rp_heightmap_destroy(mem);
    }
    if (err != NULL && err_size > 0)
        snprintf(err, err_size, "%s", file_err);
    return hm;
}

/* ---- helpers ----------------------------------------------------------- */

static void assert_fails_with(const char *path, const char *what)
{
    char err[512] = "untouched";
    rp_heightmap *hm = load_checked(path, 1.0f, 1.0f, (vec3){0, 0, 0}, err, sizeof err);
    if (hm != NULL || strstr(err, what) == NULL)
        print_error("loading %s: expected '%s', got '%s'\n", path, what, err);
    assert_null(hm);
    assert_non_null(strstr(err, path));     /* names the file */
    assert_non_null(strstr(err, what));     /* and the problem */
}

static void assert_heights(const rp_heightmap *hm, const float *want, int n, float tol)
{
    const float *got = rp_heightmap_heights(hm);
    for (int i = 0; i < n; i++)
        assert_float_equal(got[i], want[i], tol);
}

/* ---- good files --------------------------------------------------------- */

static void loads_8bit_pgm(void **state)
{
    (void)state;
    /* 3 x 2, top row first: the top row is row 0 (smallest z) */
    const uint8_t pgm[] = "P5\n# a comment\n3 2\n255\n\x00\x33\xff\x80\x01\x10";
    const char *p = write_file("gray8.pgm", pgm, sizeof pgm - 1);
    char err[256] = "";
    rp_heightmap *hm = load_checked(p, 2.0f, 51.0f, (vec3){1, 2, 3}, err, sizeof err);
    assert_non_null(hm);
    assert_int_equal(rp_heightmap_cols(hm), 3);
    assert_int_equal(rp_heightmap_rows(hm), 2);
    assert_true(rp_heightmap_spacing(hm) == 2.0f);
    const float want[6] = {0, 10.2f, 51, 128 / 5.0f, 0.2f, 3.2f};   /* v / 255 * 51 */
    assert_heights(hm, want, 6, 1e-4f);
    float y;
    assert_true(rp_heightmap_height_at(hm, 5.0f, 3.0f, &y));         /* col 2, row 0 */
    assert_float_equal(y, 53.0f, 1e-4f);
    rp_heightmap_destroy(hm);
}

static void sixteen_bit_values(float *want, uint16_t *px)
{
    /* values 8-bit images cannot hold */
    const uint16_t v[6] = {0, 1000, 65535, 32768, 1, 40000};
    for (int i = 0; i < 6; i++) {
        px[i] = v[i];
        want[i] = v[i] / 65535.0f * 100.0f;
    }
}

static void loads_16bit_pgm(void **state)
{
    (void)state;
    uint16_t px[6];
    float want[6];
    sixteen_bit_values(want, px);
    uint8_t pgm[64];
    int n = snprintf((char *)pgm, sizeof pgm, "P5 3 2 65535\n");
    for (int i = 0; i < 6; i++) {
        pgm[n++] = (uint8_t)(px[i] >> 8);       /* PNM samples are big-endian */
        pgm[n++] = (uint8_t)px[i];
    }
    const char *p = write_file("gray16.pgm", pgm, (size_t)n);
    char err[256] = "";
    rp_heightmap *hm = load_checked(p, 1.0f, 100.0f, (vec3){0, 0, 0}, err, sizeof err);
    assert_non_null(hm);
    assert_heights(hm, want, 6, 1e-4f);
    rp_heightmap_destroy(hm);
}

static void loads_colour_ppm_by_luminance(void **state)
{
    (void)state;
    /* red, green, blue, white; maxval 100 scales to height_scale */
    const uint8_t ppm[] = "P6 2 2 100\n\x64\0\0\0\x64\0\0\0\x64\x64\x64\x64";
    const char *p = write_file("colour.ppm", ppm, sizeof ppm - 1);
    rp_heightmap *hm = load_checked(p, 1.0f, 1.0f, (vec3){0, 0, 0}, NULL, 0);
    assert_non_null(hm);
    const float want[4] = {0.2126f, 0.7152f, 0.0722f, 1.0f};
    assert_heights(hm, want, 4, 1e-5f);
    rp_heightmap_destroy(hm);
}

static void truncated_pgm(void **state)
{
    (void)state;
    const uint8_t pgm[] = "P5 4 4 255\n0123456789";     /* 10 of 16 bytes */
    assert_fails_with(write_file("truncated.pgm", pgm, sizeof pgm - 1), "truncated or corrupt");
    const uint8_t head[] = "P5 4 4";                      /* no maxval */
    assert_fails_with(write_file("header.pgm", head, sizeof head - 1), "not an image");
}

static void missing_file(void **state)
{
    (void)state;
    assert_fails_with(path_of("no-such-file.png"), "cannot open");
}

static void too_small(void **state)
{
    (void)state;
    const uint8_t one[] = "P5 1 1 255\n\x80";
    assert_fails_with(write_file("one.pgm", one, sizeof one - 1), "too small");
    const uint8_t line[] = "P5 5 1 255\n\x80\x80\x80\x80\x80";
    assert_fails_with(write_file("line.pgm", line, sizeof line - 1), "too small");
}

#ifdef RP_TEST_HAVE_STB

static void loads_16bit_png(void **state)
{
    (void)state;
    uint16_t px[6];
    float want[6];
    sixteen_bit_values(want, px);
    const char *png = write_png16("gray16.png", 3, 2, px);
    char err[256] = "";
    rp_heightmap *hm = load_checked(png, 1.0f, 100.0f, (vec3){0, 0, 0}, err, sizeof err);
    if (hm == NULL)
        print_error("%s\n", err);
    assert_non_null(hm);
    assert_heights(hm, want, 6, 1e-4f);
    rp_heightmap_destroy(hm);
}

static void loads_8bit_png(void **state)
{
    (void)state;
    uint8_t px[4 * 3];
    for (int i = 0; i < 12; i++)
        px[i] = (uint8_t)(i * 20);
    const char *p = path_of("gray8.png");
    assert_true(stbi_write_png(p, 4, 3, 1, px, 4));
    rp_heightmap *hm = load_checked(p, 1.0f, 255.0f, (vec3){0, 0, 0}, NULL, 0);
    assert_non_null(hm);
    float want[12];
    for (int i = 0; i < 12; i++)
        want[i] = (float)(i * 20);
    assert_heights(hm, want, 12, 1e-3f);
    rp_heightmap_destroy(hm);
}

static void colour_by_luminance(void **state)
{
    (void)state;
    /* red, green, blue, white, black, grey (RGBA; alpha is ignored) */
    const uint8_t px[6 * 4] = {255, 0, 0, 255,  0, 255, 0, 10,  0, 0, 255, 255,
                               255, 255, 255, 0,  0, 0, 0, 255,  128, 128, 128, 255};
    const char *p = path_of("colour.png");
    assert_true(stbi_write_png(p, 3, 2, 4, px, 3 * 4));
    rp_heightmap *hm = load_checked(p, 1.0f, 1.0f, (vec3){0, 0, 0}, NULL, 0);
    assert_non_null(hm);
    /* Rec. 709 luma */
    const float want[6] = {0.2126f, 0.7152f, 0.0722f, 1.0f, 0.0f, 128 / 255.0f};
    assert_heights(hm, want, 6, 1e-4f);
    rp_heightmap_destroy(hm);
}

/* ---- every error -------------------------------------------------------- */


static void text_file_is_not_an_image(void **state)
{
    (void)state;
    const char text[] = "this is a heightmap, honest\n1 2 3\n4 5 6\n";
    assert_fails_with(write_file("notes.txt", text, sizeof text - 1), "not an image");
    assert_fails_with(write_file("empty.png", "", 0), "not an image");
}

static void truncated_png(void **state)
{
    (void)state;
    enum { W = 64, H = 64 };
    static uint8_t px[W * H];
    uint32_t x = 12345;
    for (int i = 0; i < W * H; i++) {
        x = x * 1664525u + 1013904223u;     /* noise: compresses badly */
        px[i] = (uint8_t)(x >> 24);
    }
    int len = 0;
    unsigned char *png = stbi_write_png_to_mem(px, W, W, H, 1, &len);
    assert_non_null(png);
    assert_true(len > 1000);
    const char *p = write_file("truncated.png", png, (size_t)len / 2);
    free(png);
    assert_fails_with(p, "truncated or corrupt");
}


static void absurdly_large(void **state)
{
    (void)state;
    const char pgm[] = "P5\n100000 100000\n255\n";
    assert_fails_with(write_file("huge.pgm", pgm, sizeof pgm - 1), "too large");
    const char wide[] = "P5\n16385 2\n255\n";
    assert_fails_with(write_file("wide.pgm", wide, sizeof wide - 1), "too large");
    static buf b;
    b.n = 0;
    png_header(&b, 100000, 100000, 8, 0);
    chunk(&b, "IEND", NULL, 0);
    assert_fails_with(write_file("huge.png", b.data, b.n), "too large");
}

#endif /* RP_TEST_HAVE_STB */

static void invalid_arguments(void **state)
{
    (void)state;
    char err[256] = "";
    vec3 o = {0, 0, 0};
    const char *p = path_of("whatever.png");
    assert_null(rp_heightmap_load(NULL, 1.0f, 1.0f, o, err, sizeof err));
    assert_true(strlen(err) > 0);
    assert_null(rp_heightmap_load(p, 0.0f, 1.0f, o, err, sizeof err));
    assert_non_null(strstr(err, p));
    assert_null(rp_heightmap_load(p, 1.0f, NAN, o, err, sizeof err));
    assert_null(rp_heightmap_load(p, 1.0f, 1.0f, NULL, err, sizeof err));
    assert_null(rp_heightmap_load(p, 1.0f, 1.0f, (vec3){INFINITY, 0, 0}, err, sizeof err));
    /* no room for the message, or a short buffer: no overflow */
    assert_null(rp_heightmap_load(p, 1.0f, 1.0f, o, NULL, 100));
    char tiny[8];
    memset(tiny, 'x', sizeof tiny);
    assert_null(rp_heightmap_load(p, 1.0f, 1.0f, o, tiny, 0));
    assert_true(tiny[0] == 'x');
    assert_null(rp_heightmap_load(p, 1.0f, 1.0f, o, tiny, sizeof tiny));
    assert_int_equal(strlen(tiny), sizeof tiny - 1);
}

static void memory_invalid_arguments(void **state)
{
    (void)state;
    char err[256] = "";
    vec3 o = {0, 0, 0};
    const uint8_t pgm[] = "P5 2 2 255\n\x00\x40\x80\xff";
    assert_null(rp_heightmap_load_memory(NULL, 10, 1.0f, 1.0f, o, err, sizeof err));
    assert_non_null(strstr(err, "(memory)"));
    assert_null(rp_heightmap_load_memory(pgm, 0, 1.0f, 1.0f, o, err, sizeof err));
    assert_non_null(strstr(err, "(memory): not an image"));
    assert_null(rp_heightmap_load_memory(pgm, sizeof pgm - 1, 0.0f, 1.0f, o, err, sizeof err));
    assert_non_null(strstr(err, "invalid spacing"));
    assert_null(rp_heightmap_load_memory(pgm, sizeof pgm - 1, 1.0f, INFINITY, o, err, sizeof err));
    assert_null(rp_heightmap_load_memory(pgm, sizeof pgm - 1, 1.0f, 1.0f, NULL, err, sizeof err));
    /* cut anywhere, the bytes are refused with a message, never over-read
       (the sanitizer build checks the reads) */
    for (size_t n = 1; n < sizeof pgm - 1; n++) {
        unsigned char *cut = malloc(n);
        assert_non_null(cut);
        memcpy(cut, pgm, n);
        err[0] = '\0';
        assert_null(rp_heightmap_load_memory(cut, n, 1.0f, 1.0f, o, err, sizeof err));
        assert_true(err[0] != '\0');
        free(cut);
    }
    /* no room for a message: nothing written */
    char tiny[4] = "abc";
    assert_null(rp_heightmap_load_memory(pgm, 3, 1.0f, 1.0f, o, tiny, 0));
    assert_string_equal(tiny, "abc");
    /* the whole buffer loads, and the buffer is not kept */
    unsigned char *copy = malloc(sizeof pgm - 1);
    assert_non_null(copy);
    memcpy(copy, pgm, sizeof pgm - 1);
    rp_heightmap *hm = rp_heightmap_load_memory(copy, sizeof pgm - 1, 1.0f, 255.0f, o, NULL, 0);
    free(copy);
    assert_non_null(hm);
    const float want[4] = {0.0f, 64.0f, 128.0f, 255.0f};
    assert_heights(hm, want, 4, 1e-4f);
    rp_heightmap_destroy(hm);
}

#ifndef RP_TEST_HAVE_STB
static void built_without_stb(void **state)
{
    (void)state;
    char err[256] = "";
    const char png[] = "\x89PNG\r\n\x1a\nnot really";
    const char *p = write_file("map.png", png, sizeof png - 1);
    assert_null(load_checked(p, 1.0f, 1.0f, (vec3){0, 0, 0}, err, sizeof err));
    assert_non_null(strstr(err, "built without stb_image"));
}
#endif

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(loads_8bit_pgm),
        cmocka_unit_test(loads_16bit_pgm),
        cmocka_unit_test(loads_colour_ppm_by_luminance),
        cmocka_unit_test(missing_file),
        cmocka_unit_test(truncated_pgm),
        cmocka_unit_test(too_small),
#ifdef RP_TEST_HAVE_STB
        cmocka_unit_test(loads_16bit_png),
        cmocka_unit_test(loads_8bit_png),
        cmocka_unit_test(colour_by_luminance),
        cmocka_unit_test(text_file_is_not_an_image),
        cmocka_unit_test(truncated_png),
        cmocka_unit_test(absurdly_large),
#else
        cmocka_unit_test(built_without_stb),
#endif
        cmocka_unit_test(invalid_arguments),
        cmocka_unit_test(memory_invalid_arguments),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

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
#include <cmocka.h>
#ifndef _WIN32
#include <sys/stat.h>     /* mkfifo */
#endif

#include <raypick/raypick.h>
#include "tmpdir.h"

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

static char tmpdir[400];
static char paths[64][480];
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
    return rp_test_tmpdir_make("raypick-heightmap", tmpdir, sizeof tmpdir);
}

static int teardown(void **state)
{
    (void)state;
    for (int i = 0; i < npaths; i++)
        remove(paths[i]);
    return rp_test_tmpdir_remove(tmpdir);
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

/* ---- hostile and odd images (issue 34) --------------------------------- */

/* A zlib stream of `n` stored bytes (one stored block each 65535). */
static void zlib_stored(buf *z, const uint8_t *raw, size_t n)
{
    uint8_t zhdr[2] = {0x78, 0x01};
    put(z, zhdr, 2);
    size_t done = 0;
    do {
        size_t len = n - done < 65535 ? n - done : 65535;
        uint8_t blk[5] = {(uint8_t)(done + len == n), (uint8_t)len, (uint8_t)(len >> 8),
                          (uint8_t)~len, (uint8_t)(~len >> 8)};
        put(z, blk, 5);
        put(z, raw + done, len);
        done += len;
    } while (done < n);
    uint32_t a = 1, s2 = 0;
    for (size_t i = 0; i < n; i++) {
        a = (a + raw[i]) % 65521;
        s2 = (s2 + a) % 65521;
    }
    put32(z, (s2 << 16) | a);
}

/* An 8-bit PNG of colour type `colour` (0 grey, 3 paletted), w x h,
   filter 0 rows; `plte` (entries * 3 bytes) for colour 3. */
static void png8(buf *b, int w, int h, uint8_t colour, const uint8_t *px, const uint8_t *plte, int entries)
{
    static buf raw, z;
    raw.n = z.n = 0;
    b->n = 0;
    png_header(b, (uint32_t)w, (uint32_t)h, 8, colour);
    if (plte)
        chunk(b, "PLTE", plte, (uint32_t)entries * 3);
    for (int r = 0; r < h; r++) {
        uint8_t filter = 0;
        put(&raw, &filter, 1);
        put(&raw, px + r * w, (size_t)w);
    }
    zlib_stored(&z, raw.data, raw.n);
    chunk(b, "IDAT", z.data, (uint32_t)z.n);
    chunk(b, "IEND", NULL, 0);
}

/* Where the first IDAT chunk's data starts in a PNG written by png8. */
static size_t idat_data_at(const buf *b)
{
    for (size_t i = 8; i + 8 <= b->n; i++)
        if (memcmp(b->data + i, "IDAT", 4) == 0)
            return i + 4;
    fail();
    return 0;
}

/* A bit writer for hand-made deflate data (LSB first, as deflate packs). */
typedef struct bits {
    uint8_t *p;
    size_t n, cap;
    unsigned acc, used;
} bits;

static void put_bits(bits *w, unsigned v, unsigned count)
{
    for (unsigned i = 0; i < count; i++) {
        w->acc |= ((v >> i) & 1u) << w->used;
        if (++w->used == 8) {
            assert_true(w->n < w->cap);
            w->p[w->n++] = (uint8_t)w->acc;
            w->acc = w->used = 0;
        }
    }
}

/* Huffman codes go most significant bit first. */
static void put_code(bits *w, unsigned code, unsigned len)
{
    for (unsigned i = len; i-- > 0;)
        put_bits(w, (code >> i) & 1u, 1);
}

/* A 2x2 grey PNG whose IDAT inflates to about `out_mib` MiB of zeros: a
   literal 0, then copies of 258 from 1 back, in one fixed-Huffman block. */
static uint8_t *zlib_bomb_png(size_t out_mib, size_t *size)
{
    size_t copies = out_mib * (1u << 20) / 258;
    size_t cap = 64 + copies * 13 / 8 + 64;
    uint8_t *png = malloc(cap);
    assert_non_null(png);
    static buf head;
    head.n = 0;
    png_header(&head, 2, 2, 8, 0);
    memcpy(png, head.data, head.n);
    size_t at = head.n + 8;                     /* IDAT length and type go before */
    bits w = {png + at, 0, cap - at - 16, 0, 0};
    w.p[w.n++] = 0x78;
    w.p[w.n++] = 0x01;
    put_bits(&w, 1, 1);                         /* final block */
    put_bits(&w, 1, 2);                         /* fixed Huffman */
    put_code(&w, 0x30, 8);                      /* literal 0 */
    for (size_t i = 0; i < copies; i++) {
        put_code(&w, 0xC5, 8);                  /* length 258 (code 285) */
        put_code(&w, 0, 5);                     /* distance 1 */
    }
    put_code(&w, 0, 7);                         /* end of block */
    while (w.used)
        put_bits(&w, 0, 1);
    uint8_t adler[4] = {0, 0, 0, 1};            /* never reached */
    memcpy(w.p + w.n, adler, 4);
    w.n += 4;
    uint8_t *len = png + head.n;
    len[0] = (uint8_t)(w.n >> 24);
    len[1] = (uint8_t)(w.n >> 16);
    len[2] = (uint8_t)(w.n >> 8);
    len[3] = (uint8_t)w.n;
    memcpy(png + head.n + 4, "IDAT", 4);
    uint32_t crc = crc32_update(0, png + head.n + 4, w.n + 4);
    size_t n = at + w.n;
    uint8_t tail[16] = {(uint8_t)(crc >> 24), (uint8_t)(crc >> 16), (uint8_t)(crc >> 8), (uint8_t)crc,
                        0, 0, 0, 0, 'I', 'E', 'N', 'D', 0xAE, 0x42, 0x60, 0x82};
    memcpy(png + n, tail, 16);
    *size = n + 16;
    return png;
}

/* Issue 34 item 3: the header says 2x2, the data inflate to 64 MiB: refused
   at the 6 bytes a 2x2 image holds, not after inflating it all. */
static void png_zlib_bomb_is_refused_at_the_image_size(void **state)
{
    (void)state;
    size_t n = 0;
    uint8_t *png = zlib_bomb_png(64, &n);
    const char *p = write_file("bomb.png", png, n);
    free(png);
    assert_fails_with(p, "inflate to more than the 6 bytes a 2x2 image holds");
}

/* Issue 34 item 13: one changed byte in a stored IDAT is caught by the CRC;
   with the CRC made to match, by the Adler-32 of the pixels. */
static void png_crc_and_adler_errors_are_refused(void **state)
{
    (void)state;
    static const uint8_t px[4] = {10, 20, 30, 40};
    static buf b;
    png8(&b, 2, 2, 0, px, NULL, 0);
    size_t at = idat_data_at(&b);
    /* the stored block's bytes: 2 (zlib) + 5 (block) + row 0's filter */
    b.data[at + 2 + 5 + 1] ^= 0x55;
    assert_fails_with(write_file("crc.png", b.data, b.n), "fails its CRC check");
    uint32_t len = ((uint32_t)b.data[at - 8] << 24) | ((uint32_t)b.data[at - 7] << 16) |
                   ((uint32_t)b.data[at - 6] << 8) | b.data[at - 5];
    uint32_t crc = crc32_update(0, b.data + at - 4, len + 4);
    uint8_t c[4] = {(uint8_t)(crc >> 24), (uint8_t)(crc >> 16), (uint8_t)(crc >> 8), (uint8_t)crc};
    memcpy(b.data + at + len, c, 4);
    assert_fails_with(write_file("adler.png", b.data, b.n), "Adler-32");
    /* a stream stb_image's inflate fails without giving a reason (it
       crashed the check once: strcmp on NULL) */
    static const uint8_t broken[6] = {0x78, 0x9c, 0xff, 0xff, 0xff, 0x00};
    b.n = 0;
    png_header(&b, 4, 4, 8, 0);
    chunk(&b, "IDAT", broken, sizeof broken);
    chunk(&b, "IEND", NULL, 0);
    assert_fails_with(write_file("broken_zlib.png", b.data, b.n), "not a valid zlib stream");
}

/* Issue 34 item 5: indices past a one-entry palette are refused, never
   read from stb_image's uninitialised palette; indices within it load. */
static void png_palette_index_past_the_palette(void **state)
{
    (void)state;
    static const uint8_t plte[6] = {255, 255, 255, 0, 0, 0};
    static const uint8_t bad[4] = {255, 255, 255, 255};
    static buf b;
    png8(&b, 2, 2, 3, bad, plte, 1);
    assert_fails_with(write_file("palette_bad.png", b.data, b.n), "palette index past");
    static const uint8_t good[4] = {0, 1, 1, 0};
    png8(&b, 2, 2, 3, good, plte, 2);
    rp_heightmap *hm = load_checked(write_file("palette_good.png", b.data, b.n), 1.0f, 10.0f,
                                    (vec3){0, 0, 0}, NULL, 0);
    assert_non_null(hm);
    const float want[4] = {10.0f, 0.0f, 0.0f, 10.0f};
    assert_heights(hm, want, 4, 1e-4f);
    rp_heightmap_destroy(hm);
}

/* A BMP: `header` 40 (Windows) or 12 (OS/2 1.x), `bpp` 8 (grey palette
   of `entries`) or 24, height negative for top-down rows. px: w x |h|
   grey values, top row first. */
static void bmp(buf *b, int header, int w, int h, int bpp, int entries, const uint8_t *px)
{
    int rows = h < 0 ? -h : h;
    size_t stride = (((size_t)w * (size_t)bpp + 31) / 32) * 4;
    size_t palette = bpp == 8 ? (size_t)entries * (header == 12 ? 3 : 4) : 0;
    size_t offset = 14 + (size_t)header + palette, size = offset + stride * (size_t)rows;
    b->n = 0;
    uint8_t file[14] = {'B', 'M', (uint8_t)size, (uint8_t)(size >> 8), (uint8_t)(size >> 16), 0, 0, 0, 0, 0,
                        (uint8_t)offset, (uint8_t)(offset >> 8), 0, 0};
    put(b, file, 14);
    uint8_t info[40];
    memset(info, 0, sizeof info);
    info[0] = (uint8_t)header;
    if (header == 12) {
        info[4] = (uint8_t)w;
        info[5] = (uint8_t)(w >> 8);
        info[6] = (uint8_t)h;
        info[7] = (uint8_t)(h >> 8);
        info[8] = 1;
        info[10] = (uint8_t)bpp;
    } else {
        uint32_t uh = (uint32_t)h;
        info[4] = (uint8_t)w;
        info[5] = (uint8_t)(w >> 8);
        info[8] = (uint8_t)uh;
        info[9] = (uint8_t)(uh >> 8);
        info[10] = (uint8_t)(uh >> 16);
        info[11] = (uint8_t)(uh >> 24);
        info[12] = 1;
        info[14] = (uint8_t)bpp;
    }
    put(b, info, (size_t)header);
    for (int i = 0; i < (bpp == 8 ? entries : 0); i++) {
        uint8_t e[4] = {(uint8_t)i, (uint8_t)i, (uint8_t)i, 0};
        put(b, e, header == 12 ? 3 : 4);
    }
    for (int r = 0; r < rows; r++) {
        int src = h < 0 ? r : rows - 1 - r;     /* bottom-up unless top-down */
        uint8_t line[256];
        memset(line, 0, sizeof line);
        for (int c = 0; c < w; c++) {
            if (bpp == 8) {
                line[c] = px[src * w + c];
            } else {
                memset(line + 3 * c, px[src * w + c], 3);
            }
        }
        put(b, line, stride);
    }
}

/* Issue 34 item 8: top-down and OS/2 BMPs load, as the same heights as a
   plain bottom-up Windows BMP of the same picture. */
static void bmp_top_down_and_os2_load(void **state)
{
    (void)state;
    enum { W = 5, H = 3 };
    static const uint8_t px[W * H] = {0, 51, 102, 153, 204, 255, 0, 51, 102, 153, 204, 255, 0, 17, 34};
    float want[W * H];
    for (int i = 0; i < W * H; i++)
        want[i] = px[i] / 255.0f * 10.0f;
    static buf b;
    const struct { int header, h, bpp; const char *name; } cases[] = {
        {40, H, 24, "plain24.bmp"}, {40, -H, 24, "topdown24.bmp"}, {40, -H, 8, "topdown8.bmp"},
        {12, H, 24, "os2_24.bmp"}, {12, H, 8, "os2_8.bmp"}, {40, H, 8, "plain8.bmp"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        bmp(&b, cases[i].header, W, cases[i].h, cases[i].bpp, 256, px);
        char err[512] = "";
        rp_heightmap *hm = load_checked(write_file(cases[i].name, b.data, b.n), 1.0f, 10.0f,
                                        (vec3){0, 0, 0}, err, sizeof err);
        if (hm == NULL)
            print_error("%s: %s\n", cases[i].name, err);
        assert_non_null(hm);
        assert_int_equal(rp_heightmap_cols(hm), W);
        assert_int_equal(rp_heightmap_rows(hm), H);
        assert_heights(hm, want, W * H, 1e-4f);
        rp_heightmap_destroy(hm);
    }
}

/* Issue 34 item 6: a BMP cut short, or one whose header claims far more
   pixels than follow, is refused as truncated; an index past a short
   palette is refused too. */
static void bmp_truncated_and_bad_palette(void **state)
{
    (void)state;
    static uint8_t px[64 * 64];
    for (int i = 0; i < 64 * 64; i++)
        px[i] = (uint8_t)(i * 7);
    static buf b;
    bmp(&b, 40, 64, 64, 8, 256, px);
    assert_fails_with(write_file("cut.bmp", b.data, 200), "truncated");
    bmp(&b, 40, 4, 2, 8, 256, px);
    /* the same header claiming 16384 x 4096 */
    b.data[18] = 0x00, b.data[19] = 0x40, b.data[22] = 0x00, b.data[23] = 0x10;
    assert_fails_with(write_file("liar.bmp", b.data, b.n), "truncated");
    static const uint8_t idx[4] = {0, 1, 2, 3};
    bmp(&b, 40, 2, 2, 8, 3, idx);
    assert_fails_with(write_file("short_palette.bmp", b.data, b.n), "uses palette entry 3, the palette has 3");
}

/* The note: a comment right after maxval is a comment (netpbm). */
static void pgm_comment_after_maxval(void **state)
{
    (void)state;
    const char pgm[] = "P5\n2 2\n255#a comment\n\x00\x33\x66\xff";
    rp_heightmap *hm = load_checked(write_file("comment.pgm", pgm, sizeof pgm - 1), 1.0f, 10.0f,
                                    (vec3){0, 0, 0}, NULL, 0);
    assert_non_null(hm);
    const float want[4] = {0.0f, 2.0f, 4.0f, 10.0f};
    assert_heights(hm, want, 4, 1e-4f);
    rp_heightmap_destroy(hm);
}

#endif /* RP_TEST_HAVE_STB */

/* Issue 34 item 4: a FIFO is refused before it is opened for reading
   (which would wait for a writer forever); so is a directory. */
static void special_files_are_refused(void **state)
{
    (void)state;
#ifndef _WIN32
    const char *fifo = path_of("map.pgm");
    assert_int_equal(mkfifo(fifo, 0600), 0);
    char err[512] = "";
    assert_null(rp_heightmap_load(fifo, 1.0f, 1.0f, (vec3){0, 0, 0}, err, sizeof err));
    assert_non_null(strstr(err, fifo));
    assert_non_null(strstr(err, "not a regular file (a FIFO)"));
    assert_null(rp_heightmap_load(tmpdir, 1.0f, 1.0f, (vec3){0, 0, 0}, err, sizeof err));
    assert_non_null(strstr(err, "not a regular file (a directory)"));
    assert_null(rp_heightmap_load("/dev/zero", 1.0f, 1.0f, (vec3){0, 0, 0}, err, sizeof err));
    assert_non_null(strstr(err, "not a regular file (a device)"));
#endif
}

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
        cmocka_unit_test(png_zlib_bomb_is_refused_at_the_image_size),
        cmocka_unit_test(png_crc_and_adler_errors_are_refused),
        cmocka_unit_test(png_palette_index_past_the_palette),
        cmocka_unit_test(bmp_top_down_and_os2_load),
        cmocka_unit_test(bmp_truncated_and_bad_palette),
        cmocka_unit_test(pgm_comment_after_maxval),
#else
        cmocka_unit_test(built_without_stb),
#endif
        cmocka_unit_test(special_files_are_refused),
        cmocka_unit_test(invalid_arguments),
        cmocka_unit_test(memory_invalid_arguments),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

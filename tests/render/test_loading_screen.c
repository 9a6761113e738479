/* test_loading_screen.c: the loading screen's line (render_loading_text,
 * src/render/text.c) on a real GL 3.3 context (a hidden SDL window; under
 * Xvfb, llvmpipe, where the band is drawn in memory and copied in), read
 * back with render_read_pixels before the swap. The
 * expected pixels come from stb_easy_font's own quads for the text, not
 * from the renderer: inside a glyph quad the text colour, elsewhere on the
 * panel the panel colour, elsewhere in the band the band colour. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <stb_easy_font.h>

#include "render.h"
#include "render_test_window.h"

enum { W = 640, H = 120 };

static const char *const TEXT = "map.png: loading a 4097x4097 16-bit PNG ... 0.7 s";
static const float X = 14.0f, Y = 12.0f, SCALE = 2.0f;
static const vec4 PANEL = {0.06f, 0.07f, 0.11f, 1.0f};
static const vec4 INK = {0.80f, 0.88f, 1.0f, 1.0f};
static const unsigned char BAND_RGB[3] = {4, 4, 7};     /* 0.015, 0.016, 0.028 */

typedef struct quad_vertex { float x, y, z; unsigned char c[4]; } quad_vertex;

static gl_test_window g_win;
static renderer *g_r;

static int setup(void **state)
{
    (void)state;
    g_r = render_test_open(&g_win, "loading screen", W, H, false);
    return g_r ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    render_test_close(&g_win, g_r);
    return 0;
}

static unsigned char byte_of(float c)
{
    return (unsigned char)(c * 255.0f + 0.5f);
}

static bool near_rgb(const unsigned char *px, const unsigned char want[3])
{
    for (int i = 0; i < 3; ++i)
        if (abs((int)px[i] - (int)want[i]) > 1)
            return false;
    return true;
}

/* Whether pixel (x, y down) lies wholly inside one of the text's quads,
   or touches one at all. */
static void glyph_cover(const quad_vertex *q, int quads, int x, int y, bool *inside, bool *touches)
{
    *inside = *touches = false;
    for (int i = 0; i < quads; ++i) {
        float x0 = X + q[4 * i].x * SCALE, y0 = Y + q[4 * i].y * SCALE;
        float x1 = X + q[4 * i + 2].x * SCALE, y1 = Y + q[4 * i + 2].y * SCALE;
        if (x >= x0 && x + 1 <= x1 && y >= y0 && y + 1 <= y1)
            *inside = true;
        if (x + 1 > x0 && x < x1 && y + 1 > y0 && y < y1)
            *touches = true;
    }
}

static void test_line_band_panel_and_glyphs(void **state)
{
    (void)state;
    render_view v;
    memset(&v, 0, sizeof v);
    v.width = W;
    v.height = H;
    glm_mat4_identity(v.view);
    glm_mat4_identity(v.proj);
    glm_mat4_identity(v.view_proj);
    render_loading_begin(g_r, &v);
    render_loading_text(g_r, X, Y, SCALE, PANEL, INK, TEXT);
    render_end(g_r);
    uint8_t *px = malloc((size_t)W * H * 3);
    assert_non_null(px);
    assert_true(render_read_pixels(g_r, W, H, px));

    static quad_vertex q[4000];
    int quads = stb_easy_font_print(0.0f, 0.0f, (char *)TEXT, NULL, q, (int)sizeof q);
    assert_true(quads > 50);
    const unsigned char panel[3] = {byte_of(PANEL[0]), byte_of(PANEL[1]), byte_of(PANEL[2])};
    const unsigned char ink[3] = {byte_of(INK[0]), byte_of(INK[1]), byte_of(INK[2])};
    float pad_x = 8.0f * SCALE, pad_y = 6.0f * SCALE;
    /* the loading line is stb_easy_font's whatever fonts the HUD has */
    float panel_x1 = X + (float)stb_easy_font_width((char *)TEXT) * SCALE + pad_x;
    float band_y0 = Y - pad_y, band_y1 = Y + (float)stb_easy_font_height((char *)TEXT) * SCALE + pad_y;
    int ink_pixels = 0, panel_pixels = 0, band_pixels = 0;
    for (int y = (int)ceilf(band_y0); y + 1 <= (int)floorf(band_y1); ++y)
        for (int x = 0; x < W; ++x) {
            const unsigned char *p = px + ((size_t)y * W + (size_t)x) * 3;
            bool on_panel = x >= (int)ceilf(X - pad_x) && x + 1 <= (int)floorf(panel_x1);
            bool inside, touches;
            glyph_cover(q, quads, x, y, &inside, &touches);
            if (inside) {
                assert_true(near_rgb(p, ink));
                ++ink_pixels;
            } else if (on_panel && !touches) {
                assert_true(near_rgb(p, panel));
                ++panel_pixels;
            } else if (x > (int)ceilf(panel_x1)) {
                assert_true(near_rgb(p, BAND_RGB));
                ++band_pixels;
            }
        }
    free(px);
    /* every kind of pixel was there to be checked */
    assert_true(ink_pixels > 500);
    assert_true(panel_pixels > 2000);
    assert_true(band_pixels > 1000);
}

int main(int argc, char *argv[])     /* SDL_main's signature, for Windows */
{
    (void)argc;
    (void)argv;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_line_band_panel_and_glyphs),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

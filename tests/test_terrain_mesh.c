/* test_terrain_mesh.c: what lesson 4 draws of a large map (terrain_mesh.h),
 * the header probe that sizes a map before loading it (heightmap_file.h),
 * and lesson 4 with such a map: a decimated drawing, exact picking on the
 * full-resolution surface, the marker lifted where the drawing is coarser,
 * --heightmap-spacing/--heightmap-scale, progress and the budget. */
#define _POSIX_C_SOURCE 200809L     /* mkdtemp (tests/tmpdir.h) */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <cmocka.h>

#include "heightmap_file.h"
#include "lesson_test_util.h"
#include "terrain_mesh.h"
#include "tmpdir.h"

#define L (&lesson4_terrain)

/* A cols x rows map with a bumpy surface: no two neighbouring samples alike. */
static rp_heightmap *bumpy_map(int cols, int rows, float spacing)
{
    float *h = malloc(sizeof *h * (size_t)cols * (size_t)rows);
    assert_non_null(h);
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c)
            h[r * cols + c] = 2.0f + sinf((float)c * 1.3f) * cosf((float)r * 0.7f) + 0.01f * (float)(c + r);
    rp_heightmap *hm = rp_heightmap_create(cols, rows, spacing, (vec3){-3.0f, 1.0f, 2.0f}, h);
    free(h);
    assert_non_null(hm);
    return hm;
}

/* ------------------------------------------------------------ terrain_mesh */

static void stride_keeps_both_sides_within_the_limit(void **state)
{
    (void)state;
    assert_int_equal(terrain_mesh_stride(97, 97, TERRAIN_MESH_MAX_SIDE), 1);
    assert_int_equal(terrain_mesh_stride(257, 3, 257), 1);
    assert_int_equal(terrain_mesh_stride(258, 3, 257), 2);
    assert_int_equal(terrain_mesh_stride(4097, 4097, 257), 16);
    assert_int_equal(terrain_mesh_stride(10, 4100, 257), 17);     /* 4099 cells / 256, rounded up */
    assert_int_equal(terrain_mesh_stride(3, 2, 2), 2);
    assert_int_equal(terrain_mesh_stride(1, 5, 257), 0);
    assert_int_equal(terrain_mesh_stride(5, 5, 1), 0);
}

static void small_map_is_drawn_from_its_own_heights(void **state)
{
    (void)state;
    rp_heightmap *hm = bumpy_map(9, 7, 0.5f);
    terrain_mesh m;
    assert_true(terrain_mesh_build(hm, 16, &m));
    assert_int_equal(m.stride, 1);
    assert_ptr_equal(m.data.heights, rp_heightmap_heights(hm));    /* no copy */
    assert_null(m.owned);
    assert_int_equal(m.data.cols, 9);
    assert_int_equal(m.data.rows, 7);
    /* full resolution: the drawn surface is the library's */
    for (int i = 0; i < 50; ++i) {
        float x = -3.0f + 4.0f * (float)i / 49.0f, z = 2.0f + 3.0f * (float)((i * 7) % 50) / 49.0f;
        float drawn, exact;
        assert_true(terrain_mesh_height_at(&m, x, z, &drawn));
        assert_true(rp_heightmap_height_at(hm, x, z, &exact));
        assert_float_equal(drawn, exact, 1e-5f);
    }
    terrain_mesh_free(&m);
    assert_null(m.data.heights);
    rp_heightmap_destroy(hm);
}

static void large_map_is_drawn_every_stride_th_sample(void **state)
{
    (void)state;
    rp_heightmap *hm = bumpy_map(10, 8, 0.5f);     /* 9 x 7 cells */
    terrain_mesh m;
    assert_true(terrain_mesh_build(hm, 4, &m));    /* 3 cells a side at most: stride 3 */
    assert_int_equal(m.stride, 3);
    assert_int_equal(m.data.cols, 4);              /* samples 0 3 6 9 */
    assert_int_equal(m.data.rows, 3);              /* samples 0 3 6: row 7 is less than a drawn cell away */
    assert_float_equal(m.data.spacing, 1.5f, 1e-6f);
    vec3 origin;
    rp_heightmap_origin(hm, origin);
    assert_true(glm_vec3_eqv(m.data.origin, origin));
    assert_non_null(m.owned);
    const float *h = rp_heightmap_heights(hm);
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 4; ++c) {
            assert_float_equal(m.data.heights[r * 4 + c], h[(r * 3) * 10 + c * 3], 0.0f);
            /* drawn vertices lie on the exact surface */
            float drawn, exact;
            float x = origin[0] + (float)c * 1.5f, z = origin[2] + (float)r * 1.5f;
            assert_true(terrain_mesh_height_at(&m, x, z, &drawn));
            assert_true(rp_heightmap_height_at(hm, x, z, &exact));
            assert_float_equal(drawn, exact, 1e-5f);
        }
    /* outside the drawn rectangle, and bad input */
    float y = 123.0f;
    assert_false(terrain_mesh_height_at(&m, origin[0] - 0.01f, origin[2], &y));
    assert_false(terrain_mesh_height_at(&m, origin[0], origin[2] + 3.01f, &y));
    assert_false(terrain_mesh_height_at(&m, NAN, origin[2], &y));
    assert_false(terrain_mesh_height_at(NULL, origin[0], origin[2], &y));
    assert_float_equal(y, 123.0f, 0.0f);
    terrain_mesh_free(&m);
    terrain_mesh_free(NULL);
    assert_false(terrain_mesh_build(NULL, 4, &m));
    assert_false(terrain_mesh_build(hm, 1, &m));
    rp_heightmap_destroy(hm);
}

static void marker_is_lifted_onto_a_coarser_drawing(void **state)
{
    (void)state;
    /* a 5x5 map, flat at 1 except a dip of -2 in the middle sample: drawn
       with stride 4 (one cell), the dip is not drawn */
    float h[25];
    for (int i = 0; i < 25; ++i)
        h[i] = 1.0f;
    h[12] = -2.0f;
    rp_heightmap *hm = rp_heightmap_create(5, 5, 1.0f, (vec3){0.0f, 0.0f, 0.0f}, h);
    assert_non_null(hm);
    terrain_mesh m;
    assert_true(terrain_mesh_build(hm, 2, &m));
    assert_int_equal(m.stride, 4);
    vec3 exact = {2.0f, -2.0f, 2.0f}, shown;
    terrain_mesh_marker(&m, exact, shown);
    assert_float_equal(shown[0], 2.0f, 0.0f);
    assert_float_equal(shown[1], 1.0f, 1e-6f);     /* on the drawn surface */
    assert_float_equal(shown[2], 2.0f, 0.0f);
    vec3 above = {1.0f, 1.5f, 3.0f};                /* a point above the drawing stays */
    terrain_mesh_marker(&m, above, shown);
    assert_true(glm_vec3_eqv(shown, above));
    vec3 outside = {9.0f, -5.0f, 9.0f};
    terrain_mesh_marker(&m, outside, shown);
    assert_true(glm_vec3_eqv(shown, outside));
    terrain_mesh_free(&m);
    /* at full resolution the marker stays where it is asked to be */
    assert_true(terrain_mesh_build(hm, 8, &m));
    assert_int_equal(m.stride, 1);
    vec3 below = {2.0f, -2.5f, 2.0f};
    terrain_mesh_marker(&m, below, shown);
    assert_true(glm_vec3_eqv(shown, below));
    terrain_mesh_free(&m);
    rp_heightmap_destroy(hm);
}

/* ------------------------------------------------------------ heightmap_file */

static void png_header_gives_size_channels_and_depth(void **state)
{
    (void)state;
    unsigned char png[33] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13, 'I', 'H', 'D', 'R',
                             0, 0, 0x10, 0x01, 0, 0, 0x08, 0x02, 16, 0, 0, 0, 0};
    heightmap_file_info info;
    heightmap_file_parse(png, sizeof png, &info);
    assert_true(info.known);
    assert_string_equal(info.format, "PNG");
    assert_true(info.width == 4097 && info.height == 2050);
    assert_int_equal(info.channels, 1);
    assert_int_equal(info.bits, 16);
    /* 2 raw + 2 copy + 4 heights + 1 pyramid bytes a sample */
    assert_true(heightmap_file_peak_bytes(&info) == 4097LL * 2050 * 9);
    png[25] = 6;    /* RGBA */
    png[24] = 8;
    heightmap_file_parse(png, sizeof png, &info);
    assert_int_equal(info.channels, 4);
    assert_int_equal(info.bits, 8);
    png[25] = 5;    /* no such colour type */
    heightmap_file_parse(png, sizeof png, &info);
    assert_false(info.known);
    heightmap_file_parse(png, 20, &info);       /* cut short */
    assert_false(info.known);
    assert_true(heightmap_file_peak_bytes(&info) == 0);
}

static void pnm_and_bmp_headers(void **state)
{
    (void)state;
    heightmap_file_info info;
    const char pgm[] = "P5\n# made by hand\n640 480\n65535\n";
    heightmap_file_parse((const unsigned char *)pgm, sizeof pgm - 1, &info);
    assert_true(info.known);
    assert_string_equal(info.format, "PGM");
    assert_true(info.width == 640 && info.height == 480);
    assert_int_equal(info.bits, 16);
    const char ppm[] = "P6 20 10 255 ";
    heightmap_file_parse((const unsigned char *)ppm, sizeof ppm - 1, &info);
    assert_true(info.known && info.channels == 3 && info.bits == 8 && info.width == 20);
    const char broken[] = "P5\n640";
    heightmap_file_parse((const unsigned char *)broken, sizeof broken - 1, &info);
    assert_false(info.known);
    unsigned char bmp[54] = {'B', 'M'};
    bmp[18] = 0x00; bmp[19] = 0x02;                          /* width 512 */
    bmp[22] = 0x00; bmp[23] = 0xff; bmp[24] = 0xff; bmp[25] = 0xff;   /* height -256: top-down */
    bmp[28] = 24;
    heightmap_file_parse(bmp, sizeof bmp, &info);
    assert_true(info.known);
    assert_true(info.width == 512 && info.height == 256);
    assert_int_equal(info.channels, 3);
    const char text[] = "this is not an image";
    heightmap_file_parse((const unsigned char *)text, sizeof text - 1, &info);
    assert_false(info.known);
    /* issue 34 item 8: an OS/2 1.x header (12 bytes, 16-bit sizes) */
    unsigned char os2[26] = {'B', 'M', [14] = 12, [18] = 64, [19] = 0, [20] = 0x80, [21] = 0x01, [22] = 1,
                             [24] = 24};
    heightmap_file_parse(os2, sizeof os2, &info);
    assert_true(info.known);
    assert_true(info.width == 64 && info.height == 384);
    assert_int_equal(info.channels, 3);
}

static void limits_and_budget_name_the_file(void **state)
{
    (void)state;
    char err[256] = "";
    heightmap_file_info info = {true, "PNG", 20000, 4, 1, 16, 0};
    assert_false(heightmap_file_fits("big.png", &info, HEIGHTMAP_FILE_BUDGET, err, sizeof err));
    assert_non_null(strstr(err, "big.png"));
    assert_non_null(strstr(err, "16384"));
    heightmap_file_info many = {true, "PNG", 9000, 9000, 1, 8, 0};       /* 81M samples */
    assert_false(heightmap_file_fits("many.png", &many, HEIGHTMAP_FILE_BUDGET, err, sizeof err));
    assert_non_null(strstr(err, "many.png"));
    heightmap_file_info rgba = {true, "PNG", 8192, 8192, 4, 16, 0};     /* about 1.3 GiB to load */
    assert_false(heightmap_file_fits("rgba.png", &rgba, HEIGHTMAP_FILE_BUDGET, err, sizeof err));
    assert_non_null(strstr(err, "rgba.png"));
    assert_non_null(strstr(err, "1024 MiB"));
    heightmap_file_info gray = {true, "PNG", 4097, 4097, 1, 16, 0};
    assert_true(heightmap_file_fits("gray.png", &gray, HEIGHTMAP_FILE_BUDGET, err, sizeof err));
    assert_false(heightmap_file_fits("gray.png", &gray, 100 << 20, err, sizeof err));   /* a smaller budget */
    /* the file counts three times: a 300 MiB file of that size is over */
    gray.file_bytes = 300LL << 20;
    assert_false(heightmap_file_fits("gray.png", &gray, HEIGHTMAP_FILE_BUDGET, err, sizeof err));
    /* issue 34 item 12: 1x1 and 0x0 are "too small" before any spacing */
    heightmap_file_info one = {true, "PNG", 1, 1, 1, 8, 0}, none = {true, "BMP", 0, 0, 3, 8, 0};
    assert_false(heightmap_file_fits("one.png", &one, HEIGHTMAP_FILE_BUDGET, err, sizeof err));
    assert_non_null(strstr(err, "one.png: PNG image is 1x1, too small"));
    assert_false(heightmap_file_fits("none.bmp", &none, HEIGHTMAP_FILE_BUDGET, err, sizeof err));
    assert_non_null(strstr(err, "too small"));
    heightmap_file_info unknown = {0};
    assert_true(heightmap_file_fits("x.tga", &unknown, 1, err, sizeof err));
    assert_false(heightmap_file_probe("/nonexistent/raypick-map.png", &info, err, sizeof err));
    assert_non_null(strstr(err, "/nonexistent/raypick-map.png"));
    /* a directory is refused before anything is read (file_open.c) */
    assert_false(heightmap_file_probe(".", &info, err, sizeof err));
    assert_non_null(strstr(err, ".: cannot load: not a regular file"));
}

/* ------------------------------------------------------------ lesson 4 */

typedef struct progress_log {
    int calls;
    char first[256];
} progress_log;

static void log_progress(void *user, const char *what)
{
    progress_log *log = user;
    if (log->calls++ == 0)
        snprintf(log->first, sizeof log->first, "%s", what);
}

/* A cols x rows 8-bit PGM of ridges one sample wide: a drawing that skips
   samples cannot show them. */
static void write_ridges(const char *path, int cols, int rows)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fprintf(f, "P5\n%d %d\n255\n", cols, rows);
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c)
            fputc(c % 5 == 2 ? 250 : 20 + (r % 7) * 3, f);
    assert_int_equal(fclose(f), 0);
}

static void *create_with_map(const char *path, float spacing, float scale, progress_log *log, char *err,
                             size_t err_size)
{
    lesson_env env = {.seed = 1, .heightmap_path = path, .err = err, .err_size = err_size,
                      .heightmap_spacing = spacing, .heightmap_scale = scale,
                      .progress = log_progress, .progress_user = log};
    return L->create(&env);
}

static const render_terrain_data *drawn_terrain(const render_list *list)
{
    for (int i = 0; i < list->count; ++i)
        if (list->cmds[i].kind == RENDER_CMD_TERRAIN)
            return &list->cmds[i].u.terrain;
    return NULL;
}

static void large_map_draws_coarse_and_picks_exact(void **state)
{
    (void)state;
    char dir[512], path[600], err[512] = "";
    assert_int_equal(rp_test_tmpdir_make("raypick-terrain-mesh", dir, sizeof dir), 0);
    snprintf(path, sizeof path, "%s/ridges.pgm", dir);
    const int cols = 1201, rows = 801;
    write_ridges(path, cols, rows);

    progress_log log = {0};
    void *self = create_with_map(path, 0.0f, 0.0f, &log, err, sizeof err);
    assert_non_null(self);
    assert_true(log.calls >= 1);
    assert_non_null(strstr(log.first, path));
    assert_non_null(strstr(log.first, "1201x801"));

    /* the map object: full resolution, fitted to 48 units, white = 7 */
    lesson_object o[32];
    assert_true(start_objects(L, self, o, 32) >= 1);
    assert_int_equal(o[0].kind, LESSON_OBJECT_MAP);
    assert_int_equal(o[0].shape.map.cols, cols);
    assert_int_equal(o[0].shape.map.rows, rows);
    assert_float_equal(o[0].shape.map.spacing, 48.0f / 1200.0f, 1e-7f);
    assert_float_equal(o[0].shape.map.height_scale, 7.0f, 0.0f);

    /* the drawing: at most TERRAIN_MESH_MAX_SIDE (129) a side, stride 10 */
    render_list list = {0};
    draw_once(L, self, &list);
    const render_terrain_data *t = drawn_terrain(&list);
    assert_non_null(t);
    assert_int_equal(t->cols, 121);
    assert_int_equal(t->rows, 81);
    assert_float_equal(t->spacing, 10.0f * o[0].shape.map.spacing, 1e-6f);
    render_list_free(&list);

    /* exact clicks land on the full-resolution surface, a ridge included */
    assert_true(L->key(self, 'm'));
    /* the surface the clicks must land on: the file's own samples, placed as the map object says */
    rp_heightmap *hm = rp_heightmap_load(path, o[0].shape.map.spacing, 7.0f, o[0].shape.map.origin, err,
                                         sizeof err);
    assert_non_null(hm);
    int on_ridge = 0;
    for (int i = 0; i < 12; ++i) {
        /* a ridge sample (col % 5 == 2) near the middle of the view */
        int c = 552 + 5 * (i % 4) + (i / 4) * 20, r = 400 + 13 * i;
        vec3 p = {o[0].shape.map.origin[0] + (float)c * o[0].shape.map.spacing, 0.0f,
                  o[0].shape.map.origin[2] + (float)r * o[0].shape.map.spacing};
        assert_true(rp_heightmap_height_at(hm, p[0], p[2], &p[1]));
        lesson_pick pick;
        if (!click_world_point(L, self, p, &pick))
            continue;
        assert_true(pick.hit);
        float y;
        assert_true(rp_heightmap_height_at(hm, pick.point[0], pick.point[2], &y));
        assert_float_equal(pick.point[1], y, 1e-3f);
        on_ridge += pick.point[1] > 5.0f;
        /* the marker is drawn at the point, or above it onto the coarser drawing */
        draw_once(L, self, &list);
        bool ring = false;
        for (int k = 0; k < list.count; ++k)
            if (list.cmds[k].kind == RENDER_CMD_SHAPE && list.cmds[k].u.shape.shape == RENDER_TORUS) {
                float *at = list.cmds[k].u.shape.model[3];
                ring = fabsf(at[0] - pick.point[0]) < 1e-5f && fabsf(at[2] - pick.point[2]) < 1e-5f &&
                       at[1] >= pick.point[1] - 1e-5f;
            }
        assert_true(ring);
        render_list_free(&list);
    }
    assert_true(on_ridge >= 3);     /* the drawing (stride 10) has no ridge at all: picking does */
    rp_heightmap_destroy(hm);
    L->destroy(self);

    /* spacing and white from the options */
    self = create_with_map(path, 0.25f, 3.0f, &log, err, sizeof err);
    assert_non_null(self);
    assert_true(start_objects(L, self, o, 32) >= 1);
    assert_float_equal(o[0].shape.map.spacing, 0.25f, 0.0f);
    assert_float_equal(o[0].shape.map.height_scale, 3.0f, 0.0f);
    assert_float_equal(o[0].shape.map.origin[0], -0.5f * 0.25f * 1200.0f, 1e-4f);
    L->destroy(self);

    remove(path);
    rp_test_tmpdir_remove(dir);
}

static void map_above_the_limits_is_refused_before_loading(void **state)
{
    (void)state;
    char dir[512], path[600], err[512] = "";
    assert_int_equal(rp_test_tmpdir_make("raypick-terrain-mesh", dir, sizeof dir), 0);
    snprintf(path, sizeof path, "%s/huge.pgm", dir);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fprintf(f, "P5\n16385 2\n255\n");     /* a header only: refused before any pixel is read */
    assert_int_equal(fclose(f), 0);
    progress_log log = {0};
    assert_null(create_with_map(path, 0.0f, 0.0f, &log, err, sizeof err));
    assert_non_null(strstr(err, path));
    assert_non_null(strstr(err, "16384"));
    assert_int_equal(log.calls, 0);
    remove(path);
    rp_test_tmpdir_remove(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(stride_keeps_both_sides_within_the_limit),
        cmocka_unit_test(small_map_is_drawn_from_its_own_heights),
        cmocka_unit_test(large_map_is_drawn_every_stride_th_sample),
        cmocka_unit_test(marker_is_lifted_onto_a_coarser_drawing),
        cmocka_unit_test(png_header_gives_size_channels_and_depth),
        cmocka_unit_test(pnm_and_bmp_headers),
        cmocka_unit_test(limits_and_budget_name_the_file),
        cmocka_unit_test(large_map_draws_coarse_and_picks_exact),
        cmocka_unit_test(map_above_the_limits_is_refused_before_loading),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

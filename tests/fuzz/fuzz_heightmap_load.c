/* fuzz_heightmap_load.c: the heightmap image loader fed any bytes,
   straight from memory (rp_heightmap_load_memory: the file loader's code
   on a buffer, so no file is written per input).

   Checked: no crash, no sanitizer report, no hang (libFuzzer's -timeout),
   no allocation beyond libFuzzer's -malloc_limit_mb; on failure a message
   that fits err (tested with a short buffer and a canary after it); on
   success a map of at least 2 x 2 samples whose heights are numbers in
   [0, height_scale], on which picking works. */
#include "fuzz_common.h"

/* Pick once on the loaded map, through the middle, straight down and at a
   slant: the map must answer with numbers. */
static void pick_on(const rp_heightmap *hm, float scale)
{
    int cols = rp_heightmap_cols(hm), rows = rp_heightmap_rows(hm);
    float cx = 0.5f * (float)(cols - 1), cz = 0.5f * (float)(rows - 1);
    rp_ray down = {{cx, scale + 5.0f, cz}, {0.0f, -1.0f, 0.0f}};
    rp_ray slant = {{-1.0f, scale + 5.0f, -1.0f}, {cx + 1.0f, -scale - 5.0f, cz + 1.0f}};
    rp_hit hit;
    vec3 p;
    if (rp_intersect_ray_heightmap(hm, &down, &hit))
        fuzz_check_hit(&hit);
    else
        fuzz_fail("a ray straight down through the middle missed the map");
    if (rp_intersect_ray_heightmap(hm, &slant, &hit))
        fuzz_check_hit(&hit);
    if (rp_heightmap_pick_search(hm, &slant, 32, 0.01f, p))
        fuzz_check(fuzz_vec3_finite(p), "search found a non-finite point");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_watchdog();
    const float scale = 10.0f;
    const vec3 origin = {0.0f, 0.0f, 0.0f};
    enum { ERR_SIZE = 24 };
    char err[ERR_SIZE + 8];
    memset(err, 0x7f, sizeof err);
    rp_heightmap *hm = rp_heightmap_load_memory(data, size, 1.0f, scale, origin, err, ERR_SIZE);
    for (size_t i = ERR_SIZE; i < sizeof err; i++)
        fuzz_check(err[i] == 0x7f, "message written past err_size");

    if (!hm) {
        fuzz_check(memchr(err, '\0', ERR_SIZE) != NULL, "message not terminated");
        fuzz_check(err[0] != '\0' && err[0] != 0x7f, "failure without a message");
        return 0;
    }
    int cols = rp_heightmap_cols(hm), rows = rp_heightmap_rows(hm);
    fuzz_check(cols >= 2 && rows >= 2, "loaded a map smaller than 2 x 2");
    const float *h = rp_heightmap_heights(hm);
    for (size_t i = 0; i < (size_t)cols * (size_t)rows; i++)
        if (!(h[i] >= 0.0f && h[i] <= scale))
            fuzz_fail("sample %zu is %g, outside [0, %g]", i, (double)h[i], (double)scale);
    if ((size_t)cols * (size_t)rows <= 512 * 512)
        pick_on(hm, scale);
    rp_heightmap_destroy(hm);

    /* No room for a message at all, and a map that cannot be: no crash. */
    hm = rp_heightmap_load_memory(data, size, -1.0f, scale, origin, NULL, 0);
    fuzz_check(hm == NULL, "negative spacing accepted");
    return 0;
}

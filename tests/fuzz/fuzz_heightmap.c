/* fuzz_heightmap.c: building heightmaps and picking on them, fed any bit
   pattern for every float.

   Input: byte 0 picks how floats are read, byte 1 and 2 the map size
   (2..17 samples a side), byte 3 flags, then spacing, origin, the heights,
   a ray, the search's step count and accuracy, a point to ask the height
   of, and the generator's parameters.

   Checked: create refuses what it must refuse and copies what it accepts;
   every query returns (libFuzzer's -timeout catches a hang); a successful
   result holds numbers only; the traced search finds what the plain one
   finds and never writes past its caps; an exact hit lies on the ray and
   on the rendered surface. */
#include <float.h>
#include <limits.h>
#include "fuzz_common.h"

#define MAX_SIDE 17

static int step_count(fuzz_input *in)
{
    static const int odd[] = {INT_MIN, -1, 0, 1, 2, 3, 1000, 100000};
    uint8_t b = fuzz_u8(in);
    return b >= 240 ? odd[b % 8] : 1 + b % 64;
}

static bool all_finite(const float *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(v[i]))
            return false;
    return true;
}

static void check_accessors(const rp_heightmap *hm, int cols, int rows, float spacing,
                            const vec3 origin, const float *heights)
{
    fuzz_check(rp_heightmap_cols(hm) == cols && rp_heightmap_rows(hm) == rows,
               "size not kept");
    fuzz_check(rp_heightmap_spacing(hm) == spacing, "spacing not kept");
    vec3 o;
    rp_heightmap_origin(hm, o);
    fuzz_check(memcmp(o, origin, sizeof o) == 0, "origin not kept");
    const float *h = rp_heightmap_heights(hm);
    fuzz_check(h != NULL && h != heights, "heights not copied");
    fuzz_check(memcmp(h, heights, (size_t)cols * (size_t)rows * sizeof *h) == 0,
               "heights not kept");
    float lo = INFINITY, hi = -INFINITY, min_h, max_h;
    for (int i = 0; i < cols * rows; i++) {
        lo = fminf(lo, heights[i]);
        hi = fmaxf(hi, heights[i]);
    }
    rp_heightmap_height_range(hm, &min_h, &max_h);
    fuzz_check(min_h == lo && max_h == hi, "height range wrong");
}

static void check_search(const rp_heightmap *hm, const rp_ray *ray, int steps, float accuracy)
{
    vec3 p;
    fuzz_poison(p, sizeof p);
    bool got = rp_heightmap_pick_search(hm, ray, steps, accuracy, p);
    if (!got)
        fuzz_check(fuzz_untouched(p, sizeof p), "search failure wrote to out_point");
    else
        fuzz_check(fuzz_vec3_finite(p), "search found a non-finite point");

    /* The traced search: same answer, caps respected (the buffers are
       exactly cap long, so AddressSanitizer sees any write past them). */
    enum { LCAP = 3, BCAP = 2 };
    vec3 *lin = malloc(LCAP * sizeof *lin), *bin = malloc(BCAP * sizeof *bin);
    fuzz_check(lin && bin, "out of memory");
    rp_search_trace tr;
    memset(&tr, 0, sizeof tr);
    tr.linear = lin;
    tr.linear_cap = LCAP;
    tr.binary = bin;
    tr.binary_cap = BCAP;
    vec3 q;
    fuzz_poison(q, sizeof q);
    bool traced = rp_heightmap_pick_search_traced(hm, ray, steps, accuracy, &tr, q);
    fuzz_check(traced == got, "traced search disagrees with the plain one");
    if (got)
        fuzz_check(memcmp(p, q, sizeof p) == 0, "traced search found another point");
    fuzz_check(tr.linear_count >= 0 && tr.binary_count >= 0, "negative trace counts");
    for (int i = 0; i < tr.linear_count && i < LCAP; i++)
        fuzz_check(fuzz_vec3_finite(lin[i]), "non-finite linear sample");
    for (int i = 0; i < tr.binary_count && i < BCAP; i++)
        fuzz_check(fuzz_vec3_finite(bin[i]), "non-finite binary sample");
    if (tr.clipped)
        fuzz_check(fuzz_vec3_finite(tr.clip_start) && fuzz_vec3_finite(tr.clip_end),
                   "non-finite clipped ray");
    free(lin);
    free(bin);
    fuzz_check(rp_heightmap_pick_search_traced(hm, ray, steps, accuracy, NULL, q) == got,
               "NULL trace changes the answer");
}

static void check_exact(const rp_heightmap *hm, const rp_ray *ray, bool moderate)
{
    rp_hit hit;
    fuzz_poison(&hit, sizeof hit);
    bool got = rp_intersect_ray_heightmap(hm, ray, &hit);
    fuzz_check(rp_intersect_ray_heightmap(hm, ray, NULL) == got, "NULL out changes the answer");
    if (!got) {
        fuzz_check(fuzz_untouched(&hit, sizeof hit), "miss wrote to *out");
        return;
    }
    fuzz_check(isfinite(hit.t) && hit.t >= 0.0f, "bad t");
    fuzz_check(fuzz_vec3_finite(hit.point) && fuzz_vec3_finite(hit.normal), "non-finite hit");
    float len = glm_vec3_norm(hit.normal);
    fuzz_check(fabsf(len - 1.0f) < 1e-3f, "normal not unit length");
    if (!moderate)
        return;
    fuzz_check_point_on_ray(ray, &hit);
    float y;
    if (rp_heightmap_height_at(hm, hit.point[0], hit.point[2], &y)) {
        float min_h, max_h;
        rp_heightmap_height_range(hm, &min_h, &max_h);
        /* x and z carry float rounding of the ray's sum; on a steep cell
           that much sideways is (range / spacing) times as much upwards */
        float reach = fabsf(ray->origin[0]) + fabsf(ray->origin[2]) +
                      hit.t * (fabsf(ray->dir[0]) + fabsf(ray->dir[2]));
        float sideways = 8.0f * FLT_EPSILON * (reach + fabsf(hit.point[0]) + fabsf(hit.point[2]));
        float tol = 1e-3f * (1.0f + fabsf(y) + (max_h - min_h)) +
                    sideways * (max_h - min_h) / rp_heightmap_spacing(hm);
        if (fabsf(y - hit.point[1]) > tol)
            fuzz_fail("exact hit at y %g, the surface there is at %g",
                      (double)hit.point[1], (double)y);
    }
}

static void check_generate(fuzz_input *in, int mode)
{
    static const int sides[] = {-5, 0, 1, 2, 3, 17, 64, 2};
    static const int absurd[][2] = {
        {65536, 65536}, {46341, 46341}, {INT_MAX, INT_MAX}, {INT_MAX, 2},
    };
    uint8_t b = fuzz_u8(in);
    int cols = sides[b & 7], rows = sides[(b >> 3) & 7];
    bool is_absurd = b >= 252;
    if (is_absurd) {
        cols = absurd[b & 3][0];
        rows = absurd[b & 3][1];
    }
    float spacing = fuzz_float(in, mode), scale = fuzz_float(in, mode);
    uint32_t seed = fuzz_u32(in);
    vec3 origin;
    fuzz_vec3(in, mode, origin);
    rp_heightmap *g = rp_heightmap_generate(cols, rows, spacing, scale, seed, origin);
    if (!g)
        return;
    fuzz_check(!is_absurd && cols >= 2 && rows >= 2, "generate accepted a bad size");
    fuzz_check(spacing > 0.0f && isfinite(spacing) && isfinite(scale) &&
               fuzz_vec3_finite(origin), "generate accepted a bad number");
    fuzz_check(rp_heightmap_cols(g) == cols && rp_heightmap_rows(g) == rows, "size not kept");
    const float *h = rp_heightmap_heights(g);
    float lo = fminf(0.0f, scale), hi = fmaxf(0.0f, scale);
    for (int i = 0; i < cols * rows; i++)
        if (!(h[i] >= lo && h[i] <= hi))
            fuzz_fail("generated height %g outside [0, %g]", (double)h[i], (double)scale);
    rp_heightmap_destroy(g);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_watchdog();
    fuzz_input in = {data, size, 0};
    int mode = fuzz_u8(&in) % 3;
    int cols = 2 + fuzz_u8(&in) % (MAX_SIDE - 1);
    int rows = 2 + fuzz_u8(&in) % (MAX_SIDE - 1);
    uint8_t flags = fuzz_u8(&in);
    float spacing = fuzz_float(&in, mode);
    vec3 origin;
    fuzz_vec3(&in, mode, origin);

    size_t n = (size_t)cols * (size_t)rows;
    float *heights = malloc(n * sizeof *heights);
    fuzz_check(heights != NULL, "out of memory");
    for (size_t i = 0; i < n; i++)
        heights[i] = (flags & 1) ? fuzz_float(&in, mode) : (float)fuzz_u8(&in) / 16.0f;

    /* Sizes below 2 are refused, whatever else is given. */
    static const int bad_sides[] = {INT_MIN, -1, 0, 1};
    int bad = bad_sides[(flags >> 1) & 3];
    fuzz_check(!rp_heightmap_create(bad, rows, spacing, origin, heights), "cols < 2 accepted");
    fuzz_check(!rp_heightmap_create(cols, bad, spacing, origin, heights), "rows < 2 accepted");
    fuzz_check(!rp_heightmap_create(cols, rows, spacing, origin, NULL), "NULL heights accepted");

    rp_heightmap *hm = rp_heightmap_create(cols, rows, spacing, origin, heights);
    bool valid = spacing > 0.0f && isfinite(spacing) && fuzz_vec3_finite(origin) &&
                 all_finite(heights, n);
    if (!valid)
        fuzz_check(hm == NULL, "create accepted a NaN, an infinity or spacing <= 0");

    rp_ray ray;
    fuzz_vec3(&in, mode, ray.origin);
    fuzz_vec3(&in, mode, ray.dir);
    int steps = step_count(&in);
    float accuracy = fuzz_float(&in, (flags & 8) ? 0 : mode);
    float qx = fuzz_float(&in, mode), qz = fuzz_float(&in, mode);

    if (hm) {
        check_accessors(hm, cols, rows, spacing, origin, heights);
        float y;
        float min_h, max_h;
        rp_heightmap_height_range(hm, &min_h, &max_h);
        fuzz_poison(&y, sizeof y);
        if (rp_heightmap_height_at(hm, qx, qz, &y)) {
            fuzz_check(isfinite(y), "non-finite height");
            float tol = 1e-4f * (1.0f + fabsf(origin[1]) + fabsf(min_h) + fabsf(max_h));
            fuzz_check(y >= origin[1] + min_h - tol && y <= origin[1] + max_h + tol,
                       "height outside the map's range");
        } else {
            fuzz_check(fuzz_untouched(&y, sizeof y), "height_at failure wrote to out_y");
        }
        check_search(hm, &ray, steps, accuracy);
        bool moderate = mode != 0 && fuzz_vec3_moderate(ray.origin, 1e3f) &&
                        fuzz_vec3_moderate(ray.dir, 1e3f) && fuzz_vec3_moderate(origin, 1e3f) &&
                        spacing >= 1e-2f && spacing <= 1e3f && fabsf(min_h) <= 1e3f &&
                        fabsf(max_h) <= 1e3f;
        check_exact(hm, &ray, moderate);
    }
    /* NULL map: every query refuses. */
    vec3 p;
    fuzz_check(!rp_heightmap_pick_search(NULL, &ray, steps, accuracy, p), "NULL map searched");
    fuzz_check(!rp_heightmap_pick_search(hm, NULL, steps, accuracy, p), "NULL ray searched");
    fuzz_check(!rp_intersect_ray_heightmap(NULL, &ray, NULL), "NULL map hit");
    fuzz_check(!rp_intersect_ray_heightmap(hm, NULL, NULL), "NULL ray hit");
    fuzz_check(!rp_heightmap_height_at(NULL, qx, qz, NULL), "NULL map has a height");
    rp_heightmap_destroy(hm);
    rp_heightmap_destroy(NULL);
    free(heights);

    if (flags & 16)
        check_generate(&in, mode);
    return 0;
}

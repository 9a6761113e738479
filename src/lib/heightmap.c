/* heightmap.c: building, reading and sampling heightmaps; the min/max
   pyramid the exact method walks. */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "heightmap_internal.h"

/* The copy-and-fold pass uses SSE2 where simd.h allows it, plain C
   elsewhere. */
#include "simd.h"

/* Sides beyond this would overflow the pyramid's shifts (1 << (levels + 2)). */
#define RP_HM_MAX_CREATE_SIDE (1 << 24)

static bool sizes_valid(int cols, int rows)
{
    if (cols < 2 || rows < 2 || cols > RP_HM_MAX_CREATE_SIDE || rows > RP_HM_MAX_CREATE_SIDE)
        return false;
    /* rows * cols floats must fit in size_t (guards 32-bit size_t). */
    return (size_t)rows <= SIZE_MAX / sizeof(float) / (size_t)cols;
}

/* The world rectangle and the height range must stay finite in float, or
   every coordinate the library returns could overflow. */
static bool extent_finite(int cols, int rows, float spacing, const vec3 origin,
                          float min_h, float max_h)
{
    float x1 = origin[0] + (float)(cols - 1) * spacing;
    float z1 = origin[2] + (float)(rows - 1) * spacing;
    float y0 = origin[1] + min_h, y1 = origin[1] + max_h;
    return isfinite(x1) && isfinite(z1) && isfinite(y0) && isfinite(y1);
}

/* A map over `heights` (owned from here on: freed on failure) whose
   pyramid is built from src in the same pass that copies src into heights
   (src == heights: adopted, only read). NULL on a NaN, an infinite extent
   or out of memory. */
static rp_heightmap *build_map(int cols, int rows, float spacing, const vec3 origin,
                               float *heights, const float *src)
{
    rp_heightmap *hm = calloc(1, sizeof *hm);
    if (hm == NULL) {
        free(heights);
        return NULL;
    }
    hm->cols = cols;
    hm->rows = rows;
    hm->spacing = spacing;
    glm_vec3_copy((float *)origin, hm->origin);
    hm->heights = heights;
    if (!rp_hm_build_pyramid(hm, src)) {
        rp_heightmap_destroy(hm);
        return NULL;
    }
    /* The pyramid's top node holds the lowest and highest sample. */
    const rp_hm_bounds *top = hm->level[hm->levels - 1].nodes;
    hm->min_h = top->lo;
    hm->max_h = top->hi;
    if (!extent_finite(cols, rows, spacing, origin, hm->min_h, hm->max_h)) {
        rp_heightmap_destroy(hm);
        return NULL;
    }
    return hm;
}

rp_heightmap *rp_hm_adopt(int cols, int rows, float spacing, const vec3 origin,
                          float *heights)
{
    return build_map(cols, rows, spacing, origin, heights, heights);
}

rp_heightmap *rp_heightmap_create(int cols, int rows, float spacing,
                                  const vec3 origin, const float *heights)
{
    if (heights == NULL || origin == NULL || !sizes_valid(cols, rows))
        return NULL;
    if (!(spacing > 0.0f) || !isfinite(spacing) || !rp_vec3_finite(origin))
        return NULL;
    /* No separate validation pass: the copy checks every height for NaN
       as it goes, and an infinity shows in the pyramid's top node. */
    float *copy = rp_alloc_large((size_t)cols * (size_t)rows * sizeof *copy);
    if (copy == NULL)
        return NULL;
    return build_map(cols, rows, spacing, origin, copy, heights);
}

void rp_heightmap_destroy(rp_heightmap *hm)
{
    if (hm == NULL)
        return;
    rp_free_large(hm->pyramid);
    rp_free_large(hm->heights);    /* malloc or rp_alloc_large: both free here */
    free(hm);
}

/* ---- reading --------------------------------------------------------- */

int rp_heightmap_cols(const rp_heightmap *hm) { return hm ? hm->cols : 0; }
int rp_heightmap_rows(const rp_heightmap *hm) { return hm ? hm->rows : 0; }
float rp_heightmap_spacing(const rp_heightmap *hm) { return hm ? hm->spacing : 0.0f; }
const float *rp_heightmap_heights(const rp_heightmap *hm) { return hm ? hm->heights : NULL; }

void rp_heightmap_origin(const rp_heightmap *hm, vec3 dest)
{
    if (hm && dest)
        glm_vec3_copy((float *)hm->origin, dest);
}

void rp_heightmap_height_range(const rp_heightmap *hm, float *min_h, float *max_h)
{
    if (hm == NULL)
        return;
    if (min_h)
        *min_h = hm->min_h;
    if (max_h)
        *max_h = hm->max_h;
}

/* ---- sampling -------------------------------------------------------- */

double rp_hm_surface(const rp_heightmap *hm, double u, double v)
{
    double umax = hm->cols - 1, vmax = hm->rows - 1;
    u = u < 0.0 ? 0.0 : (u > umax ? umax : u);
    v = v < 0.0 ? 0.0 : (v > vmax ? vmax : v);
    /* The last row/column of samples belongs to the last cell. */
    int c = (int)u, r = (int)v;
    if (c > hm->cols - 2)
        c = hm->cols - 2;
    if (r > hm->rows - 2)
        r = hm->rows - 2;
    double fu = u - c, fv = v - r;
    const float *h = hm->heights + (size_t)r * (size_t)hm->cols + (size_t)c;
    double h00 = h[0], h10 = h[1], h01 = h[hm->cols], h11 = h[hm->cols + 1];
    /* Diagonal (c, r)-(c+1, r+1): fu >= fv is the triangle 00-10-11, else
       00-11-01. On the diagonal both give the same value. */
    if (fu >= fv)
        return h00 + (h10 - h00) * fu + (h11 - h10) * fv;
    return h00 + (h11 - h01) * fu + (h01 - h00) * fv;
}

void rp_hm_surface_normal(const rp_heightmap *hm, double u, double v, double n[3])
{
    double umax = hm->cols - 1, vmax = hm->rows - 1;
    u = u < 0.0 ? 0.0 : (u > umax ? umax : u);
    v = v < 0.0 ? 0.0 : (v > vmax ? vmax : v);
    int c = (int)u, r = (int)v;       /* the cell rp_hm_surface picks */
    if (c > hm->cols - 2)
        c = hm->cols - 2;
    if (r > hm->rows - 2)
        r = hm->rows - 2;
    double fu = u - c, fv = v - r;
    const float *h = hm->heights + (size_t)r * (size_t)hm->cols + (size_t)c;
    double h00 = h[0], h10 = h[1], h01 = h[hm->cols], h11 = h[hm->cols + 1];
    /* The slopes of the triangle rp_hm_surface interpolates, per world unit. */
    double du = fu >= fv ? h10 - h00 : h11 - h01;
    double dv = fu >= fv ? h11 - h10 : h01 - h00;
    n[0] = -du / hm->spacing;
    n[1] = 1.0;
    n[2] = -dv / hm->spacing;
}

bool rp_heightmap_height_at(const rp_heightmap *hm, float x, float z, float *out_y)
{
    if (hm == NULL || !isfinite(x) || !isfinite(z))
        return false;
    double u = ((double)x - hm->origin[0]) / hm->spacing;
    double v = ((double)z - hm->origin[2]) / hm->spacing;
    /* The closed rectangle is inside: its border is the edge of the mesh. */
    if (!(u >= 0.0 && u <= hm->cols - 1 && v >= 0.0 && v <= hm->rows - 1))
        return false;
    if (out_y)
        *out_y = (float)(hm->origin[1] + rp_hm_surface(hm, u, v));
    return true;
}

/* ---- the min/max pyramid ---------------------------------------------
   Built in one pass over the heights, row by row, cache-friendly: each row
   is copied and folded into per-column running min/max over the current
   band of leaf rows (contiguous, SIMD-friendly, 8 * cols bytes that stay in
   cache). When a band's last sample row is in, the columns reduce into that
   band's leaves. Leaves share their border samples with their neighbours,
   so the boundary row also starts the next band. The upper levels are then
   built from the leaves (a third of the leaves' size together). */

/* Copies src to dst (dst may be NULL: read only), folds src into lo/hi;
   true when src holds a NaN. */
static bool fold_row(const float *src, float *dst, float *lo, float *hi, size_t n)
{
    size_t i = 0;
    bool nan_seen = false;
#if RP_SIMD_SSE2
    __m128 bad = _mm_setzero_ps();
    for (; i + 4 <= n; i += 4) {
        __m128 x = _mm_loadu_ps(src + i);
        if (dst != NULL)
            _mm_storeu_ps(dst + i, x);
        bad = _mm_or_ps(bad, _mm_cmpunord_ps(x, x));
        /* minps/maxps return the second operand when the first is NaN */
        _mm_storeu_ps(lo + i, _mm_min_ps(x, _mm_loadu_ps(lo + i)));
        _mm_storeu_ps(hi + i, _mm_max_ps(x, _mm_loadu_ps(hi + i)));
    }
    nan_seen = _mm_movemask_ps(bad) != 0;
#endif
    for (; i < n; i++) {
        float x = src[i];
        if (dst != NULL)
            dst[i] = x;
        nan_seen |= x != x;
        lo[i] = x < lo[i] ? x : lo[i];
        hi[i] = x > hi[i] ? x : hi[i];
    }
    return nan_seen;
}

/* Leaf row bz from the band's column bounds: leaf bx spans sample columns
   bx * 2^leaf_log2 ... + 2^leaf_log2, clamped to the map. */
static void emit_leaf_row(rp_heightmap *hm, int bz, const float *lo, const float *hi)
{
    const rp_hm_level *lv = &hm->level[0];
    rp_hm_bounds *out = lv->nodes + (size_t)bz * (size_t)lv->nx;
    int leaf = 1 << hm->leaf_log2;
    for (int bx = 0; bx < lv->nx; bx++) {
        int c0 = bx * leaf, c1 = c0 + leaf;
        if (c1 > hm->cols - 1)
            c1 = hm->cols - 1;
        float l = lo[c0], h = hi[c0];
        for (int c = c0 + 1; c <= c1; c++) {
            l = lo[c] < l ? lo[c] : l;
            h = hi[c] > h ? hi[c] : h;
        }
        out[bx].lo = l;
        out[bx].hi = h;
    }
}

/* Copies src into hm->heights (unless they are the same) and fills level 0;
   false on a NaN or out of memory. */
static bool build_leaves(rp_heightmap *hm, const float *src)
{
    size_t cols = (size_t)hm->cols;
    float *band = malloc(2 * cols * sizeof *band);
    if (band == NULL)
        return false;
    float *lo = band, *hi = band + cols;
    float *dst = src == hm->heights ? NULL : hm->heights;
    int leaf_mask = (1 << hm->leaf_log2) - 1;
    bool nan_seen = false;
    for (size_t c = 0; c < cols; c++) {
        lo[c] = INFINITY;
        hi[c] = -INFINITY;
    }
    for (int r = 0; r < hm->rows; r++) {
        size_t off = (size_t)r * cols;
        nan_seen |= fold_row(src + off, dst ? dst + off : NULL, lo, hi, cols);
        bool band_ends = r > 0 && ((r & leaf_mask) == 0 || r == hm->rows - 1);
        if (!band_ends)
            continue;
        emit_leaf_row(hm, (r - 1) >> hm->leaf_log2, lo, hi);
        /* the boundary row is the first row of the next band too */
        memcpy(lo, hm->heights + off, cols * sizeof *lo);
        memcpy(hi, hm->heights + off, cols * sizeof *hi);
    }
    free(band);
    return !nan_seen;
}

/* Level l from level l - 1: each node bounds its (up to) 2x2 children. */
static void build_parent_level(rp_hm_level *parent, const rp_hm_level *child)
{
    for (int pz = 0; pz < parent->nz; pz++) {
        int z0 = 2 * pz, z1 = z0 + 1 < child->nz ? z0 + 1 : z0;
        const rp_hm_bounds *ra = child->nodes + (size_t)z0 * (size_t)child->nx;
        const rp_hm_bounds *rb = child->nodes + (size_t)z1 * (size_t)child->nx;
        rp_hm_bounds *out = parent->nodes + (size_t)pz * (size_t)parent->nx;
        for (int px = 0; px < parent->nx; px++) {
            int x0 = 2 * px, x1 = x0 + 1 < child->nx ? x0 + 1 : x0;
            float l = fminf(fminf(ra[x0].lo, ra[x1].lo), fminf(rb[x0].lo, rb[x1].lo));
            float h = fmaxf(fmaxf(ra[x0].hi, ra[x1].hi), fmaxf(rb[x0].hi, rb[x1].hi));
            out[px].lo = l;
            out[px].hi = h;
        }
    }
}

/* Lays out the levels for leaves of 2^leaf_log2 cells; returns the node count. */
static size_t layout_levels(rp_heightmap *hm, int leaf_log2)
{
    int leaf = 1 << leaf_log2;
    int nx = (hm->cols - 1 + leaf - 1) / leaf, nz = (hm->rows - 1 + leaf - 1) / leaf;
    size_t total = 0;
    int levels = 0;
    for (;;) {
        hm->level[levels].nx = nx;
        hm->level[levels].nz = nz;
        total += (size_t)nx * (size_t)nz;
        levels++;
        if (nx == 1 && nz == 1)
            break;
        nx = (nx + 1) / 2;
        nz = (nz + 1) / 2;
    }
    hm->leaf_log2 = leaf_log2;
    hm->levels = levels;
    return total;
}

bool rp_hm_build_pyramid(rp_heightmap *hm, const float *src)
{
    size_t heights_bytes = (size_t)hm->cols * (size_t)hm->rows * sizeof(float);
    int leaf_log2 = RP_HM_LEAF_LOG2_MIN;
    size_t total = layout_levels(hm, leaf_log2);
    while (total * sizeof(rp_hm_bounds) * 2 > heights_bytes)
        total = layout_levels(hm, ++leaf_log2);
    hm->pyramid = rp_alloc_large(total * sizeof *hm->pyramid);
    if (hm->pyramid == NULL)
        return false;
    hm->pyramid_count = total;

    rp_hm_bounds *next = hm->pyramid;
    for (int l = 0; l < hm->levels; l++) {
        hm->level[l].nodes = next;
        next += (size_t)hm->level[l].nx * (size_t)hm->level[l].nz;
    }
    if (!build_leaves(hm, src))
        return false;
    for (int l = 1; l < hm->levels; l++)
        build_parent_level(&hm->level[l], &hm->level[l - 1]);
    return true;
}

size_t rp_hm_accel_bytes(const rp_heightmap *hm)
{
    return hm ? hm->pyramid_count * sizeof(rp_hm_bounds) : 0;
}

/* ---- rays in the map's frame ----------------------------------------- */

void rp_hm_ray_make(const rp_heightmap *hm, const rp_ray *ray, rp_hm_ray *out)
{
    double inv_s = 1.0 / hm->spacing;
    out->ou = ((double)ray->origin[0] - hm->origin[0]) * inv_s;
    out->ov = ((double)ray->origin[2] - hm->origin[2]) * inv_s;
    out->oy = (double)ray->origin[1] - hm->origin[1];
    out->du = ray->dir[0] * inv_s;
    out->dv = ray->dir[2] * inv_s;
    out->dy = ray->dir[1];
}

/* Narrows [t0, t1] to where o + t d lies in [lo, hi]. d == 0 is the level
   (or axis-parallel) case: inside for every t, or for none. */
static bool clip_slab(double o, double d, double lo, double hi, double *t0, double *t1)
{
    if (d == 0.0)
        return o >= lo && o <= hi;
    double a = (lo - o) / d, b = (hi - o) / d;
    if (a > b) {
        double tmp = a;
        a = b;
        b = tmp;
    }
    if (a > *t0)
        *t0 = a;
    if (b < *t1)
        *t1 = b;
    return *t0 <= *t1;
}

bool rp_hm_clip(const rp_heightmap *hm, const rp_hm_ray *r, double y_lo, double y_hi,
                double *t0, double *t1)
{
    double a = 0.0, b = INFINITY;
    if (!clip_slab(r->ou, r->du, 0.0, hm->cols - 1, &a, &b) ||
        !clip_slab(r->ov, r->dv, 0.0, hm->rows - 1, &a, &b) ||
        !clip_slab(r->oy, r->dy, y_lo, y_hi, &a, &b))
        return false;
    /* dir != 0 and every slab is bounded, so b is finite here. */
    *t0 = a;
    *t1 = b;
    return isfinite(b);
}

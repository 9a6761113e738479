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

rp_heightmap *rp_hm_adopt(int cols, int rows, float spacing, const vec3 origin,
                          float *heights)
{
    size_t n = (size_t)cols * (size_t)rows;
    float lo = heights[0], hi = heights[0];
    for (size_t i = 1; i < n; i++) {
        lo = fminf(lo, heights[i]);
        hi = fmaxf(hi, heights[i]);
    }
    if (!extent_finite(cols, rows, spacing, origin, lo, hi)) {
        free(heights);
        return NULL;
    }
    rp_heightmap *hm = calloc(1, sizeof *hm);
    if (hm == NULL) {
        free(heights);
        return NULL;
    }
    hm->cols = cols;
    hm->rows = rows;
    hm->spacing = spacing;
    glm_vec3_copy((float *)origin, hm->origin);
    hm->min_h = lo;
    hm->max_h = hi;
    hm->heights = heights;
    if (!rp_hm_build_pyramid(hm)) {
        rp_heightmap_destroy(hm);
        return NULL;
    }
    return hm;
}

rp_heightmap *rp_heightmap_create(int cols, int rows, float spacing,
                                  const vec3 origin, const float *heights)
{
    if (heights == NULL || origin == NULL || !sizes_valid(cols, rows))
        return NULL;
    if (!(spacing > 0.0f) || !isfinite(spacing) || !rp_vec3_finite(origin))
        return NULL;
    size_t n = (size_t)cols * (size_t)rows;
    for (size_t i = 0; i < n; i++)
        if (!isfinite(heights[i]))
            return NULL;
    float *copy = malloc(n * sizeof *copy);
    if (copy == NULL)
        return NULL;
    memcpy(copy, heights, n * sizeof *copy);
    return rp_hm_adopt(cols, rows, spacing, origin, copy);
}

void rp_heightmap_destroy(rp_heightmap *hm)
{
    if (hm == NULL)
        return;
    free(hm->pyramid);
    free(hm->heights);
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

/* ---- the min/max pyramid --------------------------------------------- */

static rp_hm_bounds leaf_bounds(const rp_heightmap *hm, int bx, int bz)
{
    int c0 = bx << hm->leaf_log2, r0 = bz << hm->leaf_log2;
    /* A block of cells spans one more sample than it has cells. */
    int c1 = c0 + (1 << hm->leaf_log2), r1 = r0 + (1 << hm->leaf_log2);
    if (c1 > hm->cols - 1)
        c1 = hm->cols - 1;
    if (r1 > hm->rows - 1)
        r1 = hm->rows - 1;
    rp_hm_bounds b = {FLT_MAX, -FLT_MAX};
    for (int r = r0; r <= r1; r++) {
        const float *row = hm->heights + (size_t)r * (size_t)hm->cols;
        for (int c = c0; c <= c1; c++) {
            b.lo = fminf(b.lo, row[c]);
            b.hi = fmaxf(b.hi, row[c]);
        }
    }
    return b;
}

static rp_hm_bounds parent_bounds(const rp_hm_level *child, int px, int pz)
{
    rp_hm_bounds b = {FLT_MAX, -FLT_MAX};
    for (int z = 2 * pz; z <= 2 * pz + 1 && z < child->nz; z++)
        for (int x = 2 * px; x <= 2 * px + 1 && x < child->nx; x++) {
            rp_hm_bounds c = child->nodes[(size_t)z * (size_t)child->nx + (size_t)x];
            b.lo = fminf(b.lo, c.lo);
            b.hi = fmaxf(b.hi, c.hi);
        }
    return b;
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

bool rp_hm_build_pyramid(rp_heightmap *hm)
{
    size_t heights_bytes = (size_t)hm->cols * (size_t)hm->rows * sizeof(float);
    int leaf_log2 = RP_HM_LEAF_LOG2_MIN;
    size_t total = layout_levels(hm, leaf_log2);
    while (total * sizeof(rp_hm_bounds) * 2 > heights_bytes)
        total = layout_levels(hm, ++leaf_log2);
    hm->pyramid = malloc(total * sizeof *hm->pyramid);
    if (hm->pyramid == NULL)
        return false;
    hm->pyramid_count = total;

    rp_hm_bounds *next = hm->pyramid;
    for (int l = 0; l < hm->levels; l++) {
        rp_hm_level *lv = &hm->level[l];
        lv->nodes = next;
        next += (size_t)lv->nx * (size_t)lv->nz;
        for (int z = 0; z < lv->nz; z++)
            for (int x = 0; x < lv->nx; x++)
                lv->nodes[(size_t)z * (size_t)lv->nx + (size_t)x] =
                    l == 0 ? leaf_bounds(hm, x, z) : parent_bounds(&hm->level[l - 1], x, z);
    }
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

/* terrain_mesh.c: the decimated grid lesson 4 draws (terrain_mesh.h). */
#include "terrain_mesh.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int terrain_mesh_stride(int cols, int rows, int max_side)
{
    if (cols < 2 || rows < 2 || max_side < 2)
        return 0;
    int cells = cols > rows ? cols - 1 : rows - 1;
    /* ceil(cells / (max_side - 1)) cells of the map per drawn cell */
    return (cells + max_side - 2) / (max_side - 1);
}

bool terrain_mesh_build(const rp_heightmap *hm, int max_side, terrain_mesh *out)
{
    if (!out)
        return false;
    memset(out, 0, sizeof *out);
    int cols = rp_heightmap_cols(hm), rows = rp_heightmap_rows(hm);
    int stride = terrain_mesh_stride(cols, rows, max_side);
    if (!hm || stride < 1)
        return false;
    const float *h = rp_heightmap_heights(hm);
    out->stride = stride;
    out->data.spacing = rp_heightmap_spacing(hm) * (float)stride;
    rp_heightmap_origin(hm, out->data.origin);
    /* the samples the stride reaches: (n - 1) / stride cells a side */
    out->data.cols = (cols - 1) / stride + 1;
    out->data.rows = (rows - 1) / stride + 1;
    if (stride == 1) {
        out->data.heights = h;
        return true;
    }
    size_t n = (size_t)out->data.cols * (size_t)out->data.rows;
    out->owned = malloc(n * sizeof *out->owned);
    if (!out->owned) {
        memset(out, 0, sizeof *out);
        return false;
    }
    for (int r = 0; r < out->data.rows; ++r) {
        const float *src = h + (size_t)r * (size_t)stride * (size_t)cols;
        float *dst = out->owned + (size_t)r * (size_t)out->data.cols;
        for (int c = 0; c < out->data.cols; ++c)
            dst[c] = src[(size_t)c * (size_t)stride];
    }
    out->data.heights = out->owned;
    return true;
}

void terrain_mesh_free(terrain_mesh *m)
{
    if (!m)
        return;
    free(m->owned);
    memset(m, 0, sizeof *m);
}

bool terrain_mesh_height_at(const terrain_mesh *m, float x, float z, float *out_y)
{
    if (!m || !m->data.heights || m->data.cols < 2 || m->data.rows < 2 || !isfinite(x) || !isfinite(z))
        return false;
    const render_terrain_data *d = &m->data;
    float fx = (x - d->origin[0]) / d->spacing, fz = (z - d->origin[2]) / d->spacing;
    if (!(fx >= 0.0f && fz >= 0.0f && fx <= (float)(d->cols - 1) && fz <= (float)(d->rows - 1)))
        return false;
    /* the last row and column belong to the cell before them */
    int c = glm_min((int)fx, d->cols - 2), r = glm_min((int)fz, d->rows - 2);
    float u = fx - (float)c, v = fz - (float)r;
    const float *h = d->heights + (size_t)r * (size_t)d->cols + (size_t)c;
    float h00 = h[0], h10 = h[1], h01 = h[d->cols], h11 = h[d->cols + 1];
    /* u >= v: triangle (c,r) (c+1,r) (c+1,r+1); else (c,r) (c,r+1) (c+1,r+1) */
    float y = u >= v ? h00 + u * (h10 - h00) + v * (h11 - h10)
                     : h00 + v * (h01 - h00) + u * (h11 - h01);
    if (out_y)
        *out_y = d->origin[1] + y;
    return true;
}

void terrain_mesh_marker(const terrain_mesh *m, const vec3 p, vec3 out)
{
    glm_vec3_copy((float *)p, out);
    float drawn;
    /* at full resolution the drawing is the surface: nothing to lift (the
       search's points lie within its accuracy of it, either side) */
    if (m && m->stride > 1 && terrain_mesh_height_at(m, p[0], p[2], &drawn) && drawn > p[1])
        out[1] = drawn;
}

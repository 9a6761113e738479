/* mesh_data.c: freeing, normals and fitting of a plain-data mesh. */
#include "mesh_data.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void mesh_data_free(mesh_data *m)
{
    if (!m)
        return;
    free(m->vertices);
    free(m->indices);
    memset(m, 0, sizeof *m);
}

static bool indices_in_range(const mesh_data *m)
{
    for (size_t i = 0; i < 3 * m->triangle_count; ++i)
        if (m->indices[i] >= m->vertex_count)
            return false;
    return true;
}

bool mesh_data_compute_normals(mesh_data *m)
{
    if (!m || !m->vertices || (m->triangle_count && !m->indices) || !indices_in_range(m))
        return false;
    for (size_t i = 0; i < m->vertex_count; ++i)
        memset(m->vertices[i].n, 0, sizeof m->vertices[i].n);
    for (size_t t = 0; t < m->triangle_count; ++t) {
        const uint32_t *idx = &m->indices[3 * t];
        const float *a = m->vertices[idx[0]].p, *b = m->vertices[idx[1]].p, *c = m->vertices[idx[2]].p;
        float e1[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
        float e2[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
        /* the cross product's length is twice the area: larger faces weigh more */
        float n[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2],
                      e1[0] * e2[1] - e1[1] * e2[0]};
        for (int k = 0; k < 3; ++k)
            for (int j = 0; j < 3; ++j)
                m->vertices[idx[k]].n[j] += n[j];
    }
    for (size_t i = 0; i < m->vertex_count; ++i) {
        float *n = m->vertices[i].n;
        /* scaled by its largest component first: a tiny triangle's sum is
           a denormal float whose square underflows (fuzz_obj found one) */
        float big = fmaxf(fabsf(n[0]), fmaxf(fabsf(n[1]), fabsf(n[2])));
        if (big > 0.0f && isfinite(big))
            n[0] /= big, n[1] /= big, n[2] /= big;
        float len = sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        if (len > 0.0f && isfinite(len)) {
            n[0] /= len, n[1] /= len, n[2] /= len;
        } else {
            n[0] = 0.0f, n[1] = 1.0f, n[2] = 0.0f;
        }
    }
    return true;
}

bool mesh_data_fit(mesh_data *m, float radius)
{
    if (!m || !m->vertices || !m->indices || m->triangle_count == 0 || !(radius > 0.0f) ||
        !isfinite(radius) || !indices_in_range(m))
        return false;
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (size_t i = 0; i < 3 * m->triangle_count; ++i) {
        const float *p = m->vertices[m->indices[i]].p;
        for (int k = 0; k < 3; ++k) {
            if (!isfinite(p[k]))
                return false;
            lo[k] = fmin(lo[k], p[k]);
            hi[k] = fmax(hi[k], p[k]);
        }
    }
    double half = 0.0, mid[3];
    for (int k = 0; k < 3; ++k) {
        mid[k] = 0.5 * (lo[k] + hi[k]);
        half = fmax(half, 0.5 * (hi[k] - lo[k]));
    }
    if (!(half > 0.0))
        return false;
    double s = (double)radius / half;
    /* every vertex moves, used or not, so the mesh stays one rigid shape */
    for (size_t i = 0; i < m->vertex_count; ++i)
        for (int k = 0; k < 3; ++k)
            m->vertices[i].p[k] = (float)(((double)m->vertices[i].p[k] - mid[k]) * s);
    return true;
}

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

/* ---- what to draw of a hostile model ----------------------------------- */

/* A triangle's corners as sorted position triples: equal keys are the same
   triangle whatever its corners' order or its winding. */
typedef struct tri_key {
    float c[9];
} tri_key;

static int compare_corner(const float *a, const float *b)
{
    for (int k = 0; k < 3; ++k)
        if (a[k] != b[k])
            return a[k] < b[k] ? -1 : 1;
    return 0;
}

static void key_of(const mesh_data *m, size_t t, tri_key *key)
{
    const float *p[3];
    for (int k = 0; k < 3; ++k)
        p[k] = m->vertices[m->indices[3 * t + (size_t)k]].p;
    for (int i = 1; i < 3; ++i)         /* three: an insertion sort */
        for (int j = i; j > 0 && compare_corner(p[j - 1], p[j]) > 0; --j) {
            const float *s = p[j];
            p[j] = p[j - 1];
            p[j - 1] = s;
        }
    for (int k = 0; k < 3; ++k)
        memcpy(key->c + 3 * k, p[k], 3 * sizeof(float));
}

static uint64_t key_hash(const tri_key *key)
{
    uint64_t h = 1469598103934665603ull;
    const unsigned char *b = (const unsigned char *)key->c;
    for (size_t i = 0; i < sizeof key->c; ++i)
        h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

static double tri_area(const mesh_data *m, size_t t)
{
    const float *a = m->vertices[m->indices[3 * t]].p, *b = m->vertices[m->indices[3 * t + 1]].p,
                *c = m->vertices[m->indices[3 * t + 2]].p;
    double u[3], v[3];
    for (int k = 0; k < 3; ++k) {
        u[k] = (double)b[k] - a[k];
        v[k] = (double)c[k] - a[k];
    }
    double x = u[1] * v[2] - u[2] * v[1], y = u[2] * v[0] - u[0] * v[2], z = u[0] * v[1] - u[1] * v[0];
    return 0.5 * sqrt(x * x + y * y + z * z);
}

bool mesh_data_draw_subset(const mesh_data *m, size_t max_triangles, double max_layers, uint32_t **out,
                           size_t *count)
{
    if (!m || !out || !count || max_triangles == 0 || m->triangle_count == 0)
        return false;
    size_t n = m->triangle_count;
    for (size_t i = 0; i < 3 * n; ++i)
        if (m->indices[i] >= m->vertex_count)
            return false;
    /* the model's extent: its area budget is max_layers times its largest
       cross-section (a disc around its box) */
    float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (size_t i = 0; i < 3 * n; ++i)
        for (int k = 0; k < 3; ++k) {
            lo[k] = fminf(lo[k], m->vertices[m->indices[i]].p[k]);
            hi[k] = fmaxf(hi[k], m->vertices[m->indices[i]].p[k]);
        }
    double r2 = 0.0;
    for (int k = 0; k < 3; ++k)
        r2 += 0.25 * ((double)hi[k] - lo[k]) * ((double)hi[k] - lo[k]);
    double area_left = max_layers * 3.14159265358979 * r2;
    size_t slots = 1;
    while (slots < 2 * n)
        slots <<= 1;
    uint32_t *table = malloc(slots * sizeof *table);    /* triangle + 1; 0 = empty */
    uint32_t *kept = malloc(n * 3 * sizeof *kept);
    if (!table || !kept) {
        free(table);
        free(kept);
        return false;
    }
    memset(table, 0, slots * sizeof *table);
    size_t k = 0;
    for (size_t t = 0; t < n; ++t) {
        tri_key key;
        key_of(m, t, &key);
        size_t s = (size_t)key_hash(&key) & (slots - 1);
        bool seen = false;
        for (; table[s]; s = (s + 1) & (slots - 1)) {
            tri_key other;
            key_of(m, table[s] - 1, &other);
            if (!memcmp(&key, &other, sizeof key)) {
                seen = true;
                break;
            }
        }
        if (seen)
            continue;       /* coincident with one kept: nothing more to see */
        table[s] = (uint32_t)t + 1;
        double area = tri_area(m, t);
        if (!(area > 0.0) || area > area_left)
            continue;       /* degenerate, or past the fill budget */
        area_left -= area;
        memcpy(kept + 3 * k++, m->indices + 3 * t, 3 * sizeof *kept);
    }
    free(table);
    /* still too many: every step-th, spread over the whole model */
    if (k > max_triangles) {
        size_t step = (k + max_triangles - 1) / max_triangles, j = 0;
        for (size_t t = 0; t < k; t += step, ++j)
            memmove(kept + 3 * j, kept + 3 * t, 3 * sizeof *kept);
        k = j;
    }
    if (k == n) {
        free(kept);
        *out = NULL;
    } else {
        uint32_t *fit = realloc(kept, (k ? k : 1) * 3 * sizeof *fit);
        *out = fit ? fit : kept;
    }
    *count = k;
    return true;
}

/* torus_knot.c: the tube around a (p, q) torus knot, built on a grid that
   wraps in both directions. */
#include "torus_knot.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define KNOT_TWO_PI 6.28318530717958647692

typedef struct knot_params {
    int p, q, segments, sides;
    double ring, amplitude, thick, thin, tu_repeat;
} knot_params;

static int pick_int(int v, int fallback) { return v ? v : fallback; }
static double pick_float(float v, double fallback) { return v != 0.0f ? (double)v : fallback; }

static knot_params params_from(const torus_knot_desc *d)
{
    torus_knot_desc zero;
    memset(&zero, 0, sizeof zero);
    if (!d)
        d = &zero;
    knot_params k;
    k.p = pick_int(d->p, 2);
    k.q = pick_int(d->q, 3);
    k.segments = pick_int(d->segments, 480);
    k.sides = pick_int(d->sides, 36);
    k.ring = pick_float(d->ring_radius, 1.0);
    k.amplitude = pick_float(d->amplitude, 0.45);
    k.thick = pick_float(d->tube_thick, 0.2);
    k.thin = pick_float(d->tube_thin, 0.07);
    k.tu_repeat = pick_float(d->tu_repeat, 8.0);
    return k;
}

static bool params_valid(const knot_params *k)
{
    double hole = k->ring - fabs(k->amplitude);
    return k->p > 0 && k->q > 0 && k->segments >= 3 && k->sides >= 3 &&
           (double)(k->segments + 1) * (double)(k->sides + 1) <= 16777216.0 &&
           k->thick > 0.0 && k->thin > 0.0 && isfinite(k->ring) && isfinite(k->amplitude) &&
           isfinite(k->tu_repeat) && fmax(k->thick, k->thin) < hole;
}

/* The knot's core curve at parameter phi, and its derivative. */
static void core(const knot_params *k, double phi, double pos[3], double tangent[3])
{
    double r = k->ring + k->amplitude * cos(k->q * phi);
    double dr = -k->amplitude * k->q * sin(k->q * phi);
    double c = cos(k->p * phi), s = sin(k->p * phi);
    pos[0] = r * c;
    pos[1] = r * s;
    pos[2] = k->amplitude * sin(k->q * phi);
    tangent[0] = dr * c - r * k->p * s;
    tangent[1] = dr * s + r * k->p * c;
    tangent[2] = k->amplitude * k->q * cos(k->q * phi);
}

static void normalize3(double v[3])
{
    double len = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    v[0] /= len, v[1] /= len, v[2] /= len;
}

static void cross3(const double a[3], const double b[3], double out[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

/* Tube radius: thick, narrowing q times to thin waists between the
   crossings. */
static double tube_radius(const knot_params *k, double phi)
{
    double w = 0.5 - 0.5 * cos(k->q * phi + 0.5 * KNOT_TWO_PI / 2.0);
    return k->thick + (k->thin - k->thick) * pow(w, 6.0);
}

/* Position of grid vertex (i, j), i along the knot, j around the tube.
   Computed from the wrapped indices, so the seam repeats bit for bit. */
static void tube_point(const knot_params *k, int i, int j, float out[3])
{
    double phi = KNOT_TWO_PI * (double)(i % k->segments) / (double)k->segments;
    double theta = KNOT_TWO_PI * (double)(j % k->sides) / (double)k->sides;
    double c[3], t[3], n[3], b[3];
    core(k, phi, c, t);
    normalize3(t);
    /* a frame that is periodic along the knot (parallel transport is not):
       the direction away from the z axis, made perpendicular to t */
    double out_dir[3] = {c[0], c[1], 0.0};
    cross3(t, out_dir, b);
    normalize3(b);
    cross3(b, t, n);
    double r = tube_radius(k, phi), cs = cos(theta), sn = sin(theta);
    for (int a = 0; a < 3; ++a)
        out[a] = (float)(c[a] + r * (cs * n[a] + sn * b[a]));
}

bool torus_knot_build(const torus_knot_desc *desc, mesh_data *out)
{
    knot_params k = params_from(desc);
    if (!out || !params_valid(&k))
        return false;
    size_t cols = (size_t)k.segments + 1, rows = (size_t)k.sides + 1;
    mesh_data m;
    m.vertex_count = cols * rows;
    m.triangle_count = 2 * (size_t)k.segments * (size_t)k.sides;
    m.vertices = malloc(m.vertex_count * sizeof *m.vertices);
    m.indices = malloc(3 * m.triangle_count * sizeof *m.indices);
    if (!m.vertices || !m.indices) {
        mesh_data_free(&m);
        return false;
    }
    for (size_t i = 0; i < cols; ++i) {
        for (size_t j = 0; j < rows; ++j) {
            mesh_vertex *v = &m.vertices[i * rows + j];
            tube_point(&k, (int)i, (int)j, v->p);
            v->tu = (float)(k.tu_repeat * (double)i / (double)k.segments);
            v->tv = (float)((double)j / (double)k.sides);
        }
    }
    /* Quad (i, j)-(i+1, j+1) as two triangles, counter-clockwise seen from
       outside: i runs along the tangent t, j around it (t x b = -n), so
       the around-edge comes first. */
    uint32_t *idx = m.indices;
    for (size_t i = 0; i < (size_t)k.segments; ++i) {
        for (size_t j = 0; j < (size_t)k.sides; ++j) {
            uint32_t a = (uint32_t)(i * rows + j), b = (uint32_t)((i + 1) * rows + j);
            uint32_t c = a + 1, d = b + 1;
            idx[0] = a, idx[1] = c, idx[2] = b;
            idx[3] = b, idx[4] = c, idx[5] = d;
            idx += 6;
        }
    }
    mesh_data_compute_normals(&m);
    /* The seam vertices got only one side's faces: give both copies the
       sum of both sides, so the tube shades without a visible seam. */
    for (size_t i = 0; i < cols; ++i) {
        mesh_vertex *first = &m.vertices[i * rows], *last = &m.vertices[i * rows + rows - 1];
        for (int a = 0; a < 3; ++a)
            first->n[a] = last->n[a] = first->n[a] + last->n[a];
    }
    for (size_t j = 0; j < rows; ++j) {
        mesh_vertex *first = &m.vertices[j], *last = &m.vertices[(cols - 1) * rows + j];
        for (int a = 0; a < 3; ++a)
            first->n[a] = last->n[a] = first->n[a] + last->n[a];
    }
    for (size_t i = 0; i < m.vertex_count; ++i) {
        float *n = m.vertices[i].n;
        float len = sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        if (len > 0.0f)
            n[0] /= len, n[1] /= len, n[2] /= len;
    }
    *out = m;
    return true;
}

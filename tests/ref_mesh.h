/* ref_mesh.h: closed test meshes (icosphere, box, torus), random triangle
   soups, and the references the mesh tests compare against: a
   double-precision ray-triangle test and brute-force loops over
   rp_intersect_ray_triangle. Header-only, for the tests. */
#ifndef RAYPICK_REF_MESH_H
#define RAYPICK_REF_MESH_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <raypick/raypick.h>
#include "ref_quadric.h"

typedef struct test_mesh {
    float    *pos;     /* 3 floats per vertex */
    uint32_t *idx;     /* 3 per triangle */
    size_t    nv, nt;
} test_mesh;

static inline void tm_free(test_mesh *m)
{
    free(m->pos);
    free(m->idx);
    memset(m, 0, sizeof *m);
}

static inline test_mesh tm_alloc(size_t nv, size_t nt)
{
    test_mesh m = {malloc(nv * 3 * sizeof(float)), malloc(nt * 3 * sizeof(uint32_t)), nv, nt};
    return m;
}

static inline void tm_vertex(test_mesh *m, size_t i, double x, double y, double z)
{
    m->pos[3 * i] = (float)x;
    m->pos[3 * i + 1] = (float)y;
    m->pos[3 * i + 2] = (float)z;
}

static inline void tm_tri(test_mesh *m, size_t t, uint32_t a, uint32_t b, uint32_t c)
{
    m->idx[3 * t] = a;
    m->idx[3 * t + 1] = b;
    m->idx[3 * t + 2] = c;
}

/* A (u x v) grid on a closed surface, wrapped in both directions: the
   torus. Outward-facing, counter-clockwise. */
static inline test_mesh tm_torus(int nu, int nv, double R, double r)
{
    test_mesh m = tm_alloc((size_t)nu * nv, 2 * (size_t)nu * nv);
    for (int i = 0; i < nu; i++)
        for (int j = 0; j < nv; j++) {
            double a = 2 * GLM_PI * i / nu, b = 2 * GLM_PI * j / nv;
            tm_vertex(&m, (size_t)i * nv + j, (R + r * cos(b)) * cos(a), r * sin(b),
                      (R + r * cos(b)) * sin(a));
        }
    size_t t = 0;
    for (int i = 0; i < nu; i++)
        for (int j = 0; j < nv; j++) {
            uint32_t a = (uint32_t)(i * nv + j), b = (uint32_t)(((i + 1) % nu) * nv + j);
            uint32_t c = (uint32_t)(((i + 1) % nu) * nv + (j + 1) % nv);
            uint32_t d = (uint32_t)(i * nv + (j + 1) % nv);
            tm_tri(&m, t++, a, d, c);
            tm_tri(&m, t++, a, c, b);
        }
    return m;
}

/* An axis-aligned box [-h, h]^3, each face an n x n grid: 12 n^2 triangles. */
static inline test_mesh tm_box(int n, double h)
{
    test_mesh m = tm_alloc(6 * (size_t)(n + 1) * (n + 1), 12 * (size_t)n * n);
    size_t v = 0, t = 0;
    for (int f = 0; f < 6; f++) {
        int axis = f / 2;
        double side = (f % 2) ? h : -h;
        int u_ax = (axis + 1) % 3, v_ax = (axis + 2) % 3;
        size_t base = v;
        for (int i = 0; i <= n; i++)
            for (int j = 0; j <= n; j++) {
                double p[3];
                p[axis] = side;
                p[u_ax] = -h + 2 * h * i / n;
                p[v_ax] = -h + 2 * h * j / n;
                tm_vertex(&m, v++, p[0], p[1], p[2]);
            }
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                uint32_t a = (uint32_t)(base + (size_t)i * (n + 1) + j), b = a + (uint32_t)(n + 1);
                uint32_t c = b + 1, d = a + 1;
                if (f % 2) {   /* outward: counter-clockwise seen from outside */
                    tm_tri(&m, t++, a, b, c);
                    tm_tri(&m, t++, a, c, d);
                } else {
                    tm_tri(&m, t++, a, c, b);
                    tm_tri(&m, t++, a, d, c);
                }
            }
    }
    /* the faces share their border vertices by position (duplicated
       floats, bit-identical), which is all watertightness needs */
    return m;
}

/* Icosahedron subdivided `levels` times, vertices pushed to radius r. */
static inline test_mesh tm_icosphere(int levels, double r)
{
    const double p = (1.0 + sqrt(5.0)) / 2.0;
    const double base[12][3] = {{-1, p, 0}, {1, p, 0}, {-1, -p, 0}, {1, -p, 0},
                                {0, -1, p}, {0, 1, p}, {0, -1, -p}, {0, 1, -p},
                                {p, 0, -1}, {p, 0, 1}, {-p, 0, -1}, {-p, 0, 1}};
    const uint32_t faces[20][3] = {{0, 11, 5}, {0, 5, 1}, {0, 1, 7}, {0, 7, 10}, {0, 10, 11},
                                   {1, 5, 9}, {5, 11, 4}, {11, 10, 2}, {10, 7, 6}, {7, 1, 8},
                                   {3, 9, 4}, {3, 4, 2}, {3, 2, 6}, {3, 6, 8}, {3, 8, 9},
                                   {4, 9, 5}, {2, 4, 11}, {6, 2, 10}, {8, 6, 7}, {9, 8, 1}};
    size_t nt = 20;
    for (int l = 0; l < levels; l++)
        nt *= 4;
    size_t cap_v = 12 + nt * 3;   /* generous: edge midpoints are deduplicated below */
    double *vd = malloc(cap_v * 3 * sizeof *vd);
    uint32_t *tri = malloc(nt * 3 * sizeof *tri), *next = malloc(nt * 3 * sizeof *next);
    size_t nv = 12, cur = 20;
    for (int i = 0; i < 12; i++) {
        double len = sqrt(base[i][0] * base[i][0] + base[i][1] * base[i][1] + base[i][2] * base[i][2]);
        for (int k = 0; k < 3; k++)
            vd[3 * i + k] = base[i][k] / len;
    }
    memcpy(tri, faces, sizeof faces);
    for (int l = 0; l < levels; l++) {
        /* edge -> midpoint, by linear search over this level's new points
           (small meshes only) */
        size_t first_new = nv;
        for (size_t t = 0; t < cur; t++) {
            uint32_t mid[3];
            for (int e = 0; e < 3; e++) {
                uint32_t a = tri[3 * t + e], b = tri[3 * t + (e + 1) % 3];
                double q[3];
                for (int k = 0; k < 3; k++)
                    q[k] = (vd[3 * a + k] + vd[3 * b + k]) / 2;
                double len = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2]);
                for (int k = 0; k < 3; k++)
                    q[k] /= len;
                size_t found = nv;
                for (size_t s = first_new; s < nv; s++)
                    if (vd[3 * s] == q[0] && vd[3 * s + 1] == q[1] && vd[3 * s + 2] == q[2])
                        found = s;
                if (found == nv) {
                    memcpy(vd + 3 * nv, q, sizeof q);
                    nv++;
                }
                mid[e] = (uint32_t)found;
            }
            uint32_t a = tri[3 * t], b = tri[3 * t + 1], c = tri[3 * t + 2];
            uint32_t sub[4][3] = {{a, mid[0], mid[2]}, {b, mid[1], mid[0]},
                                  {c, mid[2], mid[1]}, {mid[0], mid[1], mid[2]}};
            memcpy(next + 12 * t, sub, sizeof sub);
        }
        cur *= 4;
        uint32_t *s = tri;
        tri = next;
        next = s;
    }
    test_mesh m = tm_alloc(nv, cur);
    for (size_t i = 0; i < nv; i++)
        tm_vertex(&m, i, vd[3 * i] * r, vd[3 * i + 1] * r, vd[3 * i + 2] * r);
    memcpy(m.idx, tri, cur * 3 * sizeof *tri);
    free(vd);
    free(tri);
    free(next);
    return m;
}

/* n random triangles of size about `size` in the cube [-1, 1]^3
   (unindexed: vertices 3i .. 3i + 2). */
static inline test_mesh tm_soup(test_rng *g, size_t n, double size)
{
    test_mesh m = tm_alloc(3 * n, n);
    for (size_t t = 0; t < n; t++) {
        double c[3] = {rng_uniform(g, -1, 1), rng_uniform(g, -1, 1), rng_uniform(g, -1, 1)};
        for (int k = 0; k < 3; k++)
            tm_vertex(&m, 3 * t + k, c[0] + rng_uniform(g, -size, size),
                      c[1] + rng_uniform(g, -size, size), c[2] + rng_uniform(g, -size, size));
        tm_tri(&m, t, (uint32_t)(3 * t), (uint32_t)(3 * t + 1), (uint32_t)(3 * t + 2));
    }
    return m;
}

static inline const float *tm_v(const test_mesh *m, size_t t, int k)
{
    return m->pos + 3 * (size_t)m->idx[3 * t + (size_t)k];
}

static inline rp_mesh *tm_build(const test_mesh *m)
{
    return rp_mesh_create(m->pos, m->nv, 0, m->idx, m->nt);
}

/* Brute force: rp_intersect_ray_triangle on every triangle; nearest t,
   lowest index on equal t. */
static inline bool tm_brute_nearest(const test_mesh *m, const rp_ray *ray, rp_hit *out,
                                    rp_triangle_hit *tri)
{
    bool found = false;
    for (size_t t = 0; t < m->nt; t++) {
        rp_hit h;
        rp_triangle_hit th;
        if (!rp_intersect_ray_triangle(ray, tm_v(m, t, 0), tm_v(m, t, 1), tm_v(m, t, 2), &h, &th))
            continue;
        if (!found || h.t < out->t) {
            found = true;
            *out = h;
            *tri = th;
            tri->triangle = (uint32_t)t;
        }
    }
    return found;
}

/* A random direction, uniform on the sphere. */
static inline void rand_dir(test_rng *g, double d[3])
{
    double len;
    do {
        for (int k = 0; k < 3; k++)
            d[k] = rng_uniform(g, -1, 1);
        len = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    } while (len < 0.1 || len > 1.0);
    for (int k = 0; k < 3; k++)
        d[k] /= len;
}

/* A ray from a random point on a sphere of radius `far` around the
   origin to a random point of the box [-r, r]^3. */
static inline rp_ray aimed_ray(test_rng *g, double far, double r)
{
    double d[3];
    rand_dir(g, d);
    rp_ray ray;
    for (int i = 0; i < 3; i++) {
        ray.origin[i] = (float)(d[i] * far);
        ray.dir[i] = (float)(rng_uniform(g, -r, r) - d[i] * far);
    }
    return ray;
}

#endif /* RAYPICK_REF_MESH_H */

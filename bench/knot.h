/* knot.h: the benchmarks' mesh, a (2, 3) torus knot tube of segs x sides
   quads (bench_mesh.c, bench_ab.c). */
#ifndef RAYPICK_BENCH_KNOT_H
#define RAYPICK_BENCH_KNOT_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct mesh {
    float    *pos;
    uint32_t *idx;
    size_t    nv, nt;
    int       segs, sides;
} mesh;

static void knot_point(double s, double p[3])
{
    double r = 2.0 + cos(3.0 * s);
    p[0] = r * cos(2.0 * s);
    p[1] = r * sin(2.0 * s);
    p[2] = sin(3.0 * s);
}

static void normalize(double v[3])
{
    double l = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    v[0] /= l;
    v[1] /= l;
    v[2] /= l;
}

/* segs x sides quads around the knot, closed both ways (indices wrap) */
static mesh make_knot(int segs, int sides, double tube)
{
    mesh m = {malloc((size_t)segs * sides * 3 * sizeof(float)),
              malloc((size_t)segs * sides * 6 * sizeof(uint32_t)), (size_t)segs * sides,
              (size_t)segs * sides * 2, segs, sides};
    for (int i = 0; i < segs; i++) {
        double s = 2.0 * 3.14159265358979323846 * i / segs, h = 1e-3;
        double c[3], a[3], b[3], t[3], n[3], bn[3];
        knot_point(s, c);
        knot_point(s + h, a);
        knot_point(s - h, b);
        for (int k = 0; k < 3; k++) {
            t[k] = a[k] - b[k];
            n[k] = a[k] + b[k] - 2 * c[k];   /* curvature direction */
        }
        normalize(t);
        double nt = n[0] * t[0] + n[1] * t[1] + n[2] * t[2];
        for (int k = 0; k < 3; k++)
            n[k] -= nt * t[k];
        normalize(n);
        bn[0] = t[1] * n[2] - t[2] * n[1];
        bn[1] = t[2] * n[0] - t[0] * n[2];
        bn[2] = t[0] * n[1] - t[1] * n[0];
        for (int j = 0; j < sides; j++) {
            double ang = 2.0 * 3.14159265358979323846 * j / sides;
            /* a little bumpiness: real meshes are not perfectly smooth */
            double rr = tube * (1.0 + 0.05 * sin(7.0 * ang + 13.0 * s));
            for (int k = 0; k < 3; k++)
                m.pos[3 * ((size_t)i * sides + j) + k] =
                    (float)(c[k] + rr * (cos(ang) * n[k] + sin(ang) * bn[k]));
        }
    }
    size_t t = 0;
    for (int i = 0; i < segs; i++)
        for (int j = 0; j < sides; j++) {
            uint32_t a = (uint32_t)(i * sides + j), b = (uint32_t)(((i + 1) % segs) * sides + j);
            uint32_t c = (uint32_t)(((i + 1) % segs) * sides + (j + 1) % sides);
            uint32_t d = (uint32_t)(i * sides + (j + 1) % sides);
            uint32_t tri[6] = {a, b, c, a, c, d};
            memcpy(m.idx + 3 * t, tri, sizeof tri);
            t += 2;
        }
    return m;
}

#endif /* RAYPICK_BENCH_KNOT_H */

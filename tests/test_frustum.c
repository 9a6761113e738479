/* test_frustum.c: the frustum from a screen rectangle (marquee selection)
 * and every shape's test against it.
 *
 * The reference is brute force in screen space, written here without the
 * library's planes: a convex shape meets the rectangle's frustum exactly
 * when its part between the near and far planes, projected to pixels,
 * overlaps the rectangle. For polytopes (boxes, a mesh's bounds under its
 * model matrix, triangles, segments) that part is the hull of the
 * vertices in the depth range and of the edges' crossings of the near and
 * far planes, clipped in clip space; projected, the hull of those points
 * meets the rectangle unless a 2D separating axis says otherwise. Spheres
 * and ellipsoids are held by their distance to the frustum's hull, built
 * from the rectangle's corners unprojected with the test's own matrix
 * inverse, and between the projections of boxes inside and around them.
 *
 * Touching is decided by rounding on either side; a case counts only when
 * the reference gives the same answer for the shape grown and shrunk by
 * a margin, and such undecided cases must stay rare. */
#define CGLM_CLIPSPACE_INCLUDE_ALL   /* the *_lh_* and *_zo builders */

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <raypick/raypick.h>
#include "ld_math.h"
#include "ref_camera.h"
#include "sentinel.h"
#include "test_scale.h"

static double dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* ---- the reference's view of a selection ----------------------------------- */

/* A camera, the rectangle clipped to its viewport, and the frustum's hull. */
typedef struct selection {
    ref_camera cam;
    float rect[4];          /* as passed: x0, y0, x1, y1, any order */
    double lo[2], hi[2];    /* the clipped rectangle, pixels */
    double corner[8][3];    /* hull corners: bit 0 right, 1 top, 2 far */
    double scale;           /* largest |coordinate| of a corner */
    double near_scale;      /* ... of a near corner (about the eye's) */
} selection;

/* Gauss-Jordan with partial pivoting, in long double: not the library's
   cofactor inverse. */
static bool ref_invert(const double m[16], double inv[16])
{
    long double a[4][8];
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++) {
            a[r][c] = m[c * 4 + r];
            a[r][4 + c] = r == c;
        }
    for (int c = 0; c < 4; c++) {
        int p = c;
        for (int r = c + 1; r < 4; r++)
            if (ld_abs(a[r][c]) > ld_abs(a[p][c]))
                p = r;
        if (a[p][c] == 0)
            return false;
        for (int k = 0; k < 8; k++) {
            long double t = a[c][k];
            a[c][k] = a[p][k];
            a[p][k] = t;
        }
        for (int r = 0; r < 4; r++) {
            if (r == c)
                continue;
            const long double f = a[r][c] / a[c][c];
            for (int k = 0; k < 8; k++)
                a[r][k] -= f * a[c][k];
        }
    }
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++)
            inv[c * 4 + r] = (double)(a[r][4 + c] / a[r][r]);
    return true;
}

static void ref_pv(const ref_camera *cam, double pv[16])
{
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++) {
            double s = 0.0;
            for (int k = 0; k < 4; k++)
                s += (double)cam->proj[k][r] * cam->view[c][k];
            pv[c * 4 + r] = s;
        }
}

/* The hull's corners: the clipped rectangle's corners at depth 0 and 1. */
static void selection_hull(selection *s)
{
    double pv[16], inv[16];
    ref_pv(&s->cam, pv);
    assert_true(ref_invert(pv, inv));
    const rp_viewport *vp = &s->cam.vp;
    const double z_near = s->cam.conv == RP_D3D ? 0.0 : -1.0;
    s->scale = s->near_scale = 0.0;
    for (int i = 0; i < 8; i++) {
        const double px = (i & 1) ? s->hi[0] : s->lo[0];
        const double py = (i & 2) ? s->lo[1] : s->hi[1];   /* top = small y */
        const double ndc[4] = {2.0 * (px - vp->x) / vp->width - 1.0,
                               1.0 - 2.0 * (py - vp->y) / vp->height,
                               (i & 4) ? 1.0 : z_near, 1.0};
        double h[4];
        for (int r = 0; r < 4; r++)
            h[r] = inv[r] * ndc[0] + inv[4 + r] * ndc[1] + inv[8 + r] * ndc[2] + inv[12 + r];
        for (int c = 0; c < 3; c++) {
            s->corner[i][c] = h[c] / h[3];
            s->scale = fmax(s->scale, fabs(s->corner[i][c]));
            if (!(i & 4))
                s->near_scale = fmax(s->near_scale, fabs(s->corner[i][c]));
        }
    }
}

/* One coordinate of a rectangle: mostly inside, often exactly on the
   viewport's edge, sometimes beyond it. */
static float random_edge_coord(test_rng *g, float lo, float size)
{
    const double u = rng_uniform(g, 0.0, 1.0);
    if (u < 0.1)
        return lo;
    if (u < 0.2)
        return lo + size;
    if (u < 0.3)
        return lo + size * (float)rng_uniform(g, -0.3, 1.3);
    return lo + size * (float)rng_uniform(g, 0.0, 1.0);
}

static void random_selection(test_rng *g, int kind, selection *s)
{
    ref_camera_random(g, kind, &s->cam);
    const rp_viewport *vp = &s->cam.vp;
    for (;;) {
        for (int i = 0; i < 2; i++) {
            s->rect[2 * i] = random_edge_coord(g, vp->x, vp->width);
            s->rect[2 * i + 1] = random_edge_coord(g, vp->y, vp->height);
        }
        s->lo[0] = fmax(fmin(s->rect[0], s->rect[2]), vp->x);
        s->hi[0] = fmin(fmax(s->rect[0], s->rect[2]), (double)vp->x + vp->width);
        s->lo[1] = fmax(fmin(s->rect[1], s->rect[3]), vp->y);
        s->hi[1] = fmin(fmax(s->rect[1], s->rect[3]), (double)vp->y + vp->height);
        if (s->hi[0] - s->lo[0] >= 2.0 && s->hi[1] - s->lo[1] >= 2.0)
            break;
    }
    selection_hull(s);
}

static bool selection_frustum(const selection *s, rp_frustum *f)
{
    return rp_frustum_from_rect(s->rect[0], s->rect[1], s->rect[2], s->rect[3], &s->cam.vp,
                                (vec4 *)s->cam.proj, (vec4 *)s->cam.view, s->cam.conv, f);
}

/* ---- brute force 1: polytopes projected to the screen ------------------------- */

#define MAX_CLIPPED 512

typedef struct pt2 {
    double x, y;
} pt2;

static double cross2(pt2 o, pt2 a, pt2 b)
{
    return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
}

static int cmp_pt2(const void *pa, const void *pb)
{
    const pt2 *a = pa, *b = pb;
    if (a->x != b->x)
        return a->x < b->x ? -1 : 1;
    return (a->y > b->y) - (a->y < b->y);
}

/* Andrew's monotone chain; returns the hull's size (1 or 2 when degenerate). */
static int hull2(pt2 *p, int n, pt2 *h)
{
    qsort(p, (size_t)n, sizeof *p, cmp_pt2);
    int k = 0;
    for (int i = 0; i < n; i++) {
        while (k >= 2 && cross2(h[k - 2], h[k - 1], p[i]) <= 0)
            k--;
        h[k++] = p[i];
    }
    for (int i = n - 2, t = k + 1; i >= 0; i--) {
        while (k >= t && cross2(h[k - 2], h[k - 1], p[i]) <= 0)
            k--;
        h[k++] = p[i];
    }
    return n == 1 ? 1 : k - 1;
}

/* Does the convex hull h (n points) overlap the rectangle [lo, hi]? 2D
   separating axes: the rectangle's two and each hull edge's normal. */
static bool hull_meets_rect(const pt2 *h, int n, const double lo[2], const double hi[2])
{
    double minx = INFINITY, maxx = -INFINITY, miny = INFINITY, maxy = -INFINITY;
    for (int i = 0; i < n; i++) {
        minx = fmin(minx, h[i].x);
        maxx = fmax(maxx, h[i].x);
        miny = fmin(miny, h[i].y);
        maxy = fmax(maxy, h[i].y);
    }
    if (maxx < lo[0] || minx > hi[0] || maxy < lo[1] || miny > hi[1])
        return false;
    const pt2 rc[4] = {{lo[0], lo[1]}, {hi[0], lo[1]}, {hi[0], hi[1]}, {lo[0], hi[1]}};
    for (int i = 0; i < n && n > 1; i++) {
        const pt2 a = h[i], b = h[(i + 1) % n];
        const double nx = a.y - b.y, ny = b.x - a.x;
        double hlo = INFINITY, hhi = -INFINITY, rlo = INFINITY, rhi = -INFINITY;
        for (int j = 0; j < n; j++) {
            const double v = nx * h[j].x + ny * h[j].y;
            hlo = fmin(hlo, v);
            hhi = fmax(hhi, v);
        }
        for (int j = 0; j < 4; j++) {
            const double v = nx * rc[j].x + ny * rc[j].y;
            rlo = fmin(rlo, v);
            rhi = fmax(rhi, v);
        }
        if (hhi < rlo || hlo > rhi)
            return false;
    }
    return true;
}

/* Signed distances of a clip-space point from the near and far planes
   (>= 0 inside the depth range). */
static void depth_sides(const selection *s, const double c[4], double *near_side,
                        double *far_side)
{
    *near_side = s->cam.conv == RP_D3D ? c[2] : c[2] + c[3];
    *far_side = c[3] - c[2];
}

/* The polytope hull(points) cut to the depth range, in clip space: the
   points inside it, and where each pair's chord crosses the near or far
   plane inside it (every edge is a chord; chords add nothing outside the
   hull). */
static int clip_to_depth(const selection *s, const double (*pts)[3], int n,
                         double out[MAX_CLIPPED][4])
{
    double c[16][4];
    int m = 0;
    assert_true(n <= 16);
    for (int i = 0; i < n; i++)
        ref_clip(&s->cam, pts[i], c[i]);
    for (int i = 0; i < n; i++) {
        double ni, fi;
        depth_sides(s, c[i], &ni, &fi);
        if (ni >= 0 && fi >= 0 && c[i][3] > 0)
            memcpy(out[m++], c[i], sizeof c[i]);
        for (int j = i + 1; j < n; j++) {
            double nj, fj;
            depth_sides(s, c[j], &nj, &fj);
            const double sides[2][2] = {{ni, nj}, {fi, fj}};
            for (int k = 0; k < 2; k++) {
                const double a = sides[k][0], b = sides[k][1];
                if ((a < 0) == (b < 0) || a == b)
                    continue;
                const double u = a / (a - b);
                double p[4];
                for (int q = 0; q < 4; q++)
                    p[q] = c[i][q] + u * (c[j][q] - c[i][q]);
                double pn, pf;
                depth_sides(s, p, &pn, &pf);
                /* on one plane; inside the other (up to rounding) */
                if ((k == 0 ? pf : pn) >= -1e-12 * fabs(p[3]) && p[3] > 0)
                    memcpy(out[m++], p, sizeof p);
            }
        }
    }
    assert_true(m <= MAX_CLIPPED);
    return m;
}

static bool ref_polytope_meets(const selection *s, const double (*pts)[3], int n)
{
    double clipped[MAX_CLIPPED][4];
    const int m = clip_to_depth(s, pts, n, clipped);
    if (m == 0)
        return false;
    pt2 p[MAX_CLIPPED], h[MAX_CLIPPED + 1];
    const rp_viewport *vp = &s->cam.vp;
    for (int i = 0; i < m; i++) {
        p[i].x = vp->x + (clipped[i][0] / clipped[i][3] + 1.0) * 0.5 * vp->width;
        p[i].y = vp->y + (1.0 - clipped[i][1] / clipped[i][3]) * 0.5 * vp->height;
    }
    return hull_meets_rect(h, hull2(p, m, h), s->lo, s->hi);
}

/* Every point in the depth range and projected inside the rectangle. */
static bool ref_polytope_inside(const selection *s, const double (*pts)[3], int n)
{
    for (int i = 0; i < n; i++) {
        double c[4], ns, fs, px[3];
        ref_clip(&s->cam, pts[i], c);
        depth_sides(s, c, &ns, &fs);
        if (ns < 0 || fs < 0 || !ref_project(&s->cam, pts[i], px))
            return false;
        if (px[0] < s->lo[0] || px[0] > s->hi[0] || px[1] < s->lo[1] || px[1] > s->hi[1])
            return false;
    }
    return true;
}

/* A box as centre and three half-extent vectors, its eight corners. */
typedef struct ref_box {
    double c[3], axis[3][3];
} ref_box;

static void box_corners(const ref_box *b, double grow, double pts[8][3])
{
    for (int i = 0; i < 8; i++)
        for (int k = 0; k < 3; k++) {
            double v = b->c[k];
            for (int a = 0; a < 3; a++) {
                const double len = sqrt(dot3(b->axis[a], b->axis[a]));
                /* grow each half extent by `grow` world units (>= 0 after) */
                const double f = len > 0 ? fmax(0.0, len + grow) / len : 0.0;
                v += ((i >> a) & 1 ? 1.0 : -1.0) * b->axis[a][k] * f;
            }
            pts[i][k] = v;
        }
}

/* ---- brute force 2: distance to the frustum's hull ------------------------------ */

/* Ericson's ClosestPtPointTriangle (5.1.5), squared distance. */
static double dist2_point_triangle(const double p[3], const double a[3], const double b[3],
                                   const double c[3])
{
    double ab[3], ac[3], ap[3], q[3];
    for (int i = 0; i < 3; i++) {
        ab[i] = b[i] - a[i];
        ac[i] = c[i] - a[i];
        ap[i] = p[i] - a[i];
    }
    const double d1 = dot3(ab, ap), d2 = dot3(ac, ap);
    double bp[3], cp[3];
    for (int i = 0; i < 3; i++) {
        bp[i] = p[i] - b[i];
        cp[i] = p[i] - c[i];
    }
    const double d3 = dot3(ab, bp), d4 = dot3(ac, bp), d5 = dot3(ab, cp), d6 = dot3(ac, cp);
    const double vc = d1 * d4 - d3 * d2, vb = d5 * d2 - d1 * d6, va = d3 * d6 - d5 * d4;
    if (d1 <= 0 && d2 <= 0)
        memcpy(q, a, sizeof q);
    else if (d3 >= 0 && d4 <= d3)
        memcpy(q, b, sizeof q);
    else if (vc <= 0 && d1 >= 0 && d3 <= 0)
        for (int i = 0; i < 3; i++)
            q[i] = a[i] + d1 / (d1 - d3) * ab[i];
    else if (d6 >= 0 && d5 <= d6)
        memcpy(q, c, sizeof q);
    else if (vb <= 0 && d2 >= 0 && d6 <= 0)
        for (int i = 0; i < 3; i++)
            q[i] = a[i] + d2 / (d2 - d6) * ac[i];
    else if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) {
        const double w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        for (int i = 0; i < 3; i++)
            q[i] = b[i] + w * (c[i] - b[i]);
    } else {
        const double denom = 1.0 / (va + vb + vc), v = vb * denom, w = vc * denom;
        for (int i = 0; i < 3; i++)
            q[i] = a[i] + ab[i] * v + ac[i] * w;
    }
    double e[3] = {p[0] - q[0], p[1] - q[1], p[2] - q[2]};
    return dot3(e, e);
}

/* The hull's six faces as corner cycles: fix one bit, walk the other two. */
static void face_cycle(int face, int cyc[4])
{
    const int bit = 1 << (face / 2), base = (face % 2) ? bit : 0;
    const int i = bit == 1 ? 2 : 1, j = bit == 4 ? 2 : 4;
    cyc[0] = base;
    cyc[1] = base | i;
    cyc[2] = base | i | j;
    cyc[3] = base | j;
}

/* Distance from p to the hull's boundary, and whether p is inside. */
static double hull_boundary_distance(const double corner[8][3], const double p[3],
                                     bool *inside)
{
    double centre[3] = {0, 0, 0};
    for (int i = 0; i < 8; i++)
        for (int k = 0; k < 3; k++)
            centre[k] += corner[i][k] / 8.0;
    double best = INFINITY;
    *inside = true;
    for (int face = 0; face < 6; face++) {
        int cyc[4];
        face_cycle(face, cyc);
        const double *a = corner[cyc[0]], *b = corner[cyc[1]], *c = corner[cyc[2]],
                     *d = corner[cyc[3]];
        double e1[3], e2[3], n[3];
        for (int k = 0; k < 3; k++) {
            e1[k] = c[k] - a[k];
            e2[k] = d[k] - b[k];
        }
        n[0] = e1[1] * e2[2] - e1[2] * e2[1];
        n[1] = e1[2] * e2[0] - e1[0] * e2[2];
        n[2] = e1[0] * e2[1] - e1[1] * e2[0];
        double pc[3], cc[3];
        for (int k = 0; k < 3; k++) {
            pc[k] = p[k] - a[k];
            cc[k] = centre[k] - a[k];
        }
        if (dot3(n, pc) * dot3(n, cc) < 0)
            *inside = false;
        best = fmin(best, dist2_point_triangle(p, a, b, c));
        best = fmin(best, dist2_point_triangle(p, a, c, d));
    }
    return sqrt(best);
}

/* The hull carried into a frame: x' = M^-1 (x - centre) for M = R diag(radii). */
static void hull_to_unit_space(const double corner[8][3], const double centre[3],
                               double rot[3][3], const double radii[3],
                               double out[8][3])
{
    for (int i = 0; i < 8; i++)
        for (int k = 0; k < 3; k++) {
            double v = 0.0;
            for (int r = 0; r < 3; r++)
                v += rot[r][k] * (corner[i][r] - centre[r]);   /* R^T */
            out[i][k] = v / radii[k];
        }
}

/* ---- the comparison ------------------------------------------------------------- */

typedef struct tally {
    int decided, undecided, hits, misses, contained, conservative_only;
} tally;

/* The library's exact answer against the reference for the shape shrunk
   and grown by the margin (equal: decided, and must agree). */
static void judge(tally *t, const char *what, const selection *s, bool exact, bool ref_shrunk,
                  bool ref_grown, int index)
{
    if (ref_shrunk != ref_grown) {
        t->undecided++;
        return;
    }
    t->decided++;
    if (exact != ref_grown)
        fail_msg("%s %d, %s, rect (%g %g %g %g): library %d, brute force %d", what, index,
                 ref_camera_names[s->cam.kind], s->rect[0], s->rect[1], s->rect[2], s->rect[3],
                 exact, ref_grown);
    if (exact)
        t->hits++;
    else
        t->misses++;
}

static void check_nesting(tally *t, bool conservative, bool exact, bool contained)
{
    assert_true(!contained || exact);
    assert_true(!exact || conservative);
    t->contained += contained;
    t->conservative_only += conservative && !exact;
}

static void report(const char *what, const tally *t)
{
    print_message("%-14s decided %d (hits %d, misses %d), undecided %d, contained %d, "
                  "conservative only %d\n",
                  what, t->decided, t->hits, t->misses, t->undecided, t->contained,
                  t->conservative_only);
    assert_true(t->undecided * 50 < t->decided);       /* under 2% */
    assert_true(t->hits > t->decided / 10 && t->misses > t->decided / 10);
}

/* A random point near the selection: a pixel around the rectangle, a
   fraction of the way from the near to the far plane (cubed: most near). */
static void random_point_near(test_rng *g, const selection *s, double p[3], double *size)
{
    const double w = s->hi[0] - s->lo[0], h = s->hi[1] - s->lo[1];
    const double x = rng_uniform(g, s->lo[0] - 0.4 * w, s->hi[0] + 0.4 * w);
    const double y = rng_uniform(g, s->lo[1] - 0.4 * h, s->hi[1] + 0.4 * h);
    vec3 n, f;
    assert_true(ref_point_at(&s->cam, x, y, 0.0, n));
    assert_true(ref_point_at(&s->cam, x, y, 1.0, f));
    double u = rng_uniform(g, 0.0, 1.0);
    u = rng_uniform(g, 0.0, 1.0) < 0.1 ? rng_uniform(g, -0.05, 1.05) : u * u * u;
    for (int k = 0; k < 3; k++)
        p[k] = n[k] + u * ((double)f[k] - n[k]);
    /* the rectangle's world width at that depth, from its hull */
    double e[3];
    for (int k = 0; k < 3; k++)
        e[k] = (s->corner[1][k] - s->corner[0][k]) * (1 - u) + (s->corner[5][k] - s->corner[4][k]) * u;
    *size = sqrt(dot3(e, e)) * rng_log(g, -1.7, -0.2);
}

static void random_unit_quat(test_rng *g, double q[4])
{
    double n = 0.0;
    for (int i = 0; i < 4; i++) {
        q[i] = rng_uniform(g, -1, 1);
        n += q[i] * q[i];
    }
    for (int i = 0; i < 4; i++)
        q[i] /= sqrt(n);
}

/* The margin: the library keeps its frustum in float, planes and corners
   rounded by 6e-8 of their size, which moves them near a shape at c by
   about 6e-8 of |c| plus the eye's distance from the origin (the planes'
   d). Ten times that and more is undecided. */
static double margin_of(const selection *s, const double c[3], double size)
{
    const double mc = fmax(fabs(c[0]), fmax(fabs(c[1]), fabs(c[2])));
    return 1e-6 * (mc + size + s->near_scale + 1.0);
}

static void compare_boxes(test_rng *g, const selection *s, const rp_frustum *f, tally *aabb_t,
                          tally *obb_t, int index)
{
    double c[3], size;
    random_point_near(g, s, c, &size);
    const double m = margin_of(s, c, size);
    /* axis-aligned */
    rp_aabb box;
    ref_box rb;
    for (int k = 0; k < 3; k++) {
        const double half = size * rng_uniform(g, 0.0, 1.0);
        const bool flat = rng_uniform(g, 0, 1) < 0.05;   /* min == max on this axis */
        if (flat) {
            box.min[k] = box.max[k] = (float)c[k];
        } else {
            box.min[k] = (float)(c[k] - half);
            box.max[k] = (float)(c[k] + half);
        }
        rb.c[k] = 0.5 * box.min[k] + 0.5 * box.max[k];
        for (int a = 0; a < 3; a++)
            rb.axis[a][k] = a == k ? 0.5 * box.max[k] - 0.5 * box.min[k] : 0.0;
    }
    double shrunk[8][3], grown[8][3];
    box_corners(&rb, -m, shrunk);
    box_corners(&rb, m, grown);
    const bool ex = rp_test_frustum_aabb_exact(f, &box);
    const bool in = rp_frustum_contains_aabb(f, &box);
    check_nesting(aabb_t, rp_test_frustum_aabb_conservative(f, &box), ex, in);
    judge(aabb_t, "aabb", s, ex, ref_polytope_meets(s, (const double (*)[3])shrunk, 8),
          ref_polytope_meets(s, (const double (*)[3])grown, 8), index);
    /* containment: the same margins, the other way round */
    const bool in_shrunk = ref_polytope_inside(s, (const double (*)[3])shrunk, 8);
    const bool in_grown = ref_polytope_inside(s, (const double (*)[3])grown, 8);
    if (in_shrunk == in_grown)
        assert_int_equal(in, in_grown);

    /* oriented */
    rp_obb obb;
    double q[4], rot[3][3];
    random_unit_quat(g, q);
    for (int k = 0; k < 3; k++) {
        obb.center[k] = (float)c[k];
        obb.half_extents[k] = (float)(size * rng_uniform(g, 0.05, 1.0));
        obb.orientation[k] = (float)q[k];
    }
    obb.orientation[3] = (float)q[3];
    /* the reference rotates by the float quaternion, renormalised */
    double qf[4] = {obb.orientation[0], obb.orientation[1], obb.orientation[2], obb.orientation[3]};
    const double qn = sqrt(qf[0] * qf[0] + qf[1] * qf[1] + qf[2] * qf[2] + qf[3] * qf[3]);
    for (int i = 0; i < 4; i++)
        qf[i] /= qn;
    ref_quat_matrix(qf, rot);
    for (int k = 0; k < 3; k++) {
        rb.c[k] = obb.center[k];
        for (int a = 0; a < 3; a++)
            rb.axis[a][k] = rot[k][a] * obb.half_extents[a];
    }
    box_corners(&rb, -m, shrunk);
    box_corners(&rb, m, grown);
    const bool oex = rp_test_frustum_obb_exact(f, &obb);
    const bool oin = rp_frustum_contains_obb(f, &obb);
    check_nesting(obb_t, rp_test_frustum_obb_conservative(f, &obb), oex, oin);
    judge(obb_t, "obb", s, oex, ref_polytope_meets(s, (const double (*)[3])shrunk, 8),
          ref_polytope_meets(s, (const double (*)[3])grown, 8), index);
    const bool oin_shrunk = ref_polytope_inside(s, (const double (*)[3])shrunk, 8);
    const bool oin_grown = ref_polytope_inside(s, (const double (*)[3])grown, 8);
    if (oin_shrunk == oin_grown)
        assert_int_equal(oin, oin_grown);
}

static void compare_balls(test_rng *g, const selection *s, const rp_frustum *f, tally *sph_t,
                          tally *ell_t, int index)
{
    double c[3], size;
    random_point_near(g, s, c, &size);
    const double m = margin_of(s, c, size);
    rp_sphere sp = {{(float)c[0], (float)c[1], (float)c[2]}, (float)size};
    const double sc[3] = {sp.center[0], sp.center[1], sp.center[2]};
    bool inside;
    const double dist = hull_boundary_distance(s->corner, sc, &inside);
    const double r = sp.radius;
    const bool ex = rp_test_frustum_sphere_exact(f, &sp);
    const bool in = rp_frustum_contains_sphere(f, &sp);
    check_nesting(sph_t, rp_test_frustum_sphere_conservative(f, &sp), ex, in);
    judge(sph_t, "sphere", s, ex, inside || dist <= r - m, inside || dist <= r + m, index);
    if (!inside || fabs(dist - r) > m)
        assert_int_equal(in, inside && dist >= r);

    /* the projected boxes inside (half extents r / sqrt 3) and around it */
    ref_box cube = {{sc[0], sc[1], sc[2]}, {{r, 0, 0}, {0, r, 0}, {0, 0, r}}};
    double around[8][3], within[8][3];
    box_corners(&cube, m, around);
    box_corners(&cube, -r * (1.0 - 1.0 / sqrt(3.0)) - m, within);
    if (ex)
        assert_true(ref_polytope_meets(s, (const double (*)[3])around, 8));
    if (ref_polytope_meets(s, (const double (*)[3])within, 8))
        assert_true(ex);

    /* an ellipsoid, rotated, axis-aligned now and then */
    rp_ellipsoid e;
    double q[4] = {0, 0, 0, 1}, rot[3][3];
    const bool axis_aligned = rng_uniform(g, 0, 1) < 0.2;   /* orientation all zeros */
    if (!axis_aligned)
        random_unit_quat(g, q);
    for (int k = 0; k < 3; k++) {
        e.center[k] = (float)c[k];
        e.radii[k] = (float)(size * rng_uniform(g, 0.1, 1.0));
    }
    for (int i = 0; i < 4; i++)
        e.orientation[i] = axis_aligned ? 0.0f : (float)q[i];
    /* the reference rotates by the float quaternion, renormalised */
    double qf[4] = {0, 0, 0, 1};
    if (!axis_aligned) {
        const double qn = sqrt((double)e.orientation[0] * e.orientation[0] +
                               (double)e.orientation[1] * e.orientation[1] +
                               (double)e.orientation[2] * e.orientation[2] +
                               (double)e.orientation[3] * e.orientation[3]);
        for (int i = 0; i < 4; i++)
            qf[i] = e.orientation[i] / qn;
    }
    ref_quat_matrix(qf, rot);
    const double ec[3] = {e.center[0], e.center[1], e.center[2]};
    const double radii[3] = {e.radii[0], e.radii[1], e.radii[2]};
    double unit_hull[8][3];
    hull_to_unit_space(s->corner, ec, rot, radii, unit_hull);
    const double origin[3] = {0, 0, 0};
    const double udist = hull_boundary_distance((const double (*)[3])unit_hull, origin, &inside);
    /* the margin in unit-ball units: divided by the smallest radius */
    const double um = m / fmin(radii[0], fmin(radii[1], radii[2]));
    const bool eex = rp_test_frustum_ellipsoid_exact(f, &e);
    const bool ein = rp_frustum_contains_ellipsoid(f, &e);
    check_nesting(ell_t, rp_test_frustum_ellipsoid_conservative(f, &e), eex, ein);
    judge(ell_t, "ellipsoid", s, eex, inside || udist <= 1 - um, inside || udist <= 1 + um, index);
    if (!inside || fabs(udist - 1) > um)
        assert_int_equal(ein, inside && udist >= 1);
}

/* Triangles and segments: exact, held to the polytope reference; the
   margin moves each vertex away from (or towards) the centroid. */
static void scaled_about_centroid(const double (*v)[3], int n, double grow, double (*out)[3])
{
    double c[3] = {0, 0, 0};
    for (int i = 0; i < n; i++)
        for (int k = 0; k < 3; k++)
            c[k] += v[i][k] / n;
    for (int i = 0; i < n; i++) {
        double d[3];
        for (int k = 0; k < 3; k++)
            d[k] = v[i][k] - c[k];
        const double len = sqrt(dot3(d, d));
        const double f = len > 0 ? fmax(0.0, len + grow) / len : 0.0;
        for (int k = 0; k < 3; k++)
            out[i][k] = c[k] + d[k] * f;
    }
}

static void compare_thin(test_rng *g, const selection *s, const rp_frustum *f, tally *tri_t,
                         tally *seg_t, int index)
{
    double c[3], size, v[3][3];
    random_point_near(g, s, c, &size);
    vec3 fv[3];
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++) {
            fv[i][k] = (float)(c[k] + size * rng_uniform(g, -1, 1));
            v[i][k] = fv[i][k];
        }
    const double m = margin_of(s, c, size);
    double shrunk[3][3], grown[3][3];
    scaled_about_centroid((const double (*)[3])v, 3, -m, shrunk);
    scaled_about_centroid((const double (*)[3])v, 3, m, grown);
    const bool tex = rp_test_frustum_triangle(f, fv[0], fv[1], fv[2]);
    judge(tri_t, "triangle", s, tex, ref_polytope_meets(s, (const double (*)[3])shrunk, 3),
          ref_polytope_meets(s, (const double (*)[3])grown, 3), index);

    const bool sex = rp_test_frustum_segment(f, fv[0], fv[1]);
    scaled_about_centroid((const double (*)[3])v, 2, -m, shrunk);
    scaled_about_centroid((const double (*)[3])v, 2, m, grown);
    judge(seg_t, "segment", s, sex, ref_polytope_meets(s, (const double (*)[3])shrunk, 2),
          ref_polytope_meets(s, (const double (*)[3])grown, 2), index);
    /* the segment is an edge of the triangle: meeting it means meeting that */
    assert_true(!sex || tex);
}

static void selection_equals_brute_force(void **state)
{
    (void)state;
    test_rng g = {0x5eed5eedull};
    tally aabb_t = {0}, obb_t = {0}, sph_t = {0}, ell_t = {0}, tri_t = {0}, seg_t = {0};
    /* fewer selections at a smaller RAYPICK_TEST_SCALE (memcheck, ASan) */
    for (int n = 0; n < (int)test_scaled(700, 140); n++) {
        selection s;
        random_selection(&g, n % REF_CAMERA_KINDS, &s);
        rp_frustum f;
        assert_true(selection_frustum(&s, &f));
        for (int i = 0; i < 25; i++) {
            compare_boxes(&g, &s, &f, &aabb_t, &obb_t, n * 25 + i);
            compare_balls(&g, &s, &f, &sph_t, &ell_t, n * 25 + i);
            compare_thin(&g, &s, &f, &tri_t, &seg_t, n * 25 + i);
        }
    }
    report("aabb", &aabb_t);
    report("obb", &obb_t);
    report("sphere", &sph_t);
    report("ellipsoid", &ell_t);
    report("triangle", &tri_t);
    report("segment", &seg_t);
    /* the three modes really differ: some shapes are only conservatively
       selected, some wholly inside */
    assert_true(aabb_t.conservative_only > 0 && sph_t.conservative_only > 0 &&
                ell_t.conservative_only > 0 && obb_t.conservative_only > 0);
    assert_true(aabb_t.contained > 0 && sph_t.contained > 0 && ell_t.contained > 0 &&
                obb_t.contained > 0);
}

/* ---- mesh instances: their bounds under the model matrix --------------------------- */

/* Two triangles far apart (an L of the unit square's corners): their
   bounds hold a lot of empty space. */
static const float L_MESH[] = {0, 0, 0, 0.1f, 0, 0, 0, 0.1f, 0,
                               1, 1, 1, 0.9f, 1, 1, 1, 0.9f, 1};

static void mesh_instance_is_tested_by_its_bounds(void **state)
{
    (void)state;
    rp_mesh *mesh = rp_mesh_create(L_MESH, 6, 0, NULL, 2);
    assert_non_null(mesh);
    test_rng g = {4242};
    tally t = {0};
    int bounds_only = 0;
    for (int n = 0; n < (int)test_scaled(350, 70); n++) {
        selection s;
        random_selection(&g, n % REF_CAMERA_KINDS, &s);
        rp_frustum f;
        assert_true(selection_frustum(&s, &f));
        for (int i = 0; i < 25; i++) {
            double c[3], size, q[4], rot[3][3];
            random_point_near(&g, &s, c, &size);
            random_unit_quat(&g, q);
            ref_quat_matrix(q, rot);
            mat4 model = GLM_MAT4_IDENTITY_INIT;
            for (int col = 0; col < 3; col++) {
                const double scale = size * rng_uniform(&g, 0.2, 2.0);
                for (int row = 0; row < 3; row++)
                    model[col][row] = (float)(rot[row][col] * scale +
                                              (col == 0 && row == 1 ? 0.3 * size : 0.0));   /* a shear */
            }
            for (int row = 0; row < 3; row++)
                model[3][row] = (float)c[row];
            /* the reference: the unit cube's corners carried by model */
            double shrunk[8][3], grown[8][3];
            ref_box rb;
            for (int row = 0; row < 3; row++) {
                rb.c[row] = model[3][row];
                for (int col = 0; col < 3; col++) {
                    rb.c[row] += 0.5 * model[col][row];
                    rb.axis[col][row] = 0.5 * model[col][row];
                }
            }
            const double m = 4.0 * margin_of(&s, rb.c, size);   /* sheared axes: more */
            box_corners(&rb, -m, shrunk);
            box_corners(&rb, m, grown);
            const bool got = rp_test_frustum_mesh_instance_conservative(&f, mesh, model);
            const bool in = rp_frustum_contains_mesh_instance_conservative(&f, mesh, model);
            assert_true(!in || got);
            judge(&t, "mesh bounds", &s, got, ref_polytope_meets(&s, (const double (*)[3])shrunk, 8),
                  ref_polytope_meets(&s, (const double (*)[3])grown, 8), n * 25 + i);
            /* exact per triangle: never more than the bounds say */
            bool any_triangle = false;
            for (int tri = 0; tri < 2; tri++) {
                vec3 w[3];
                for (int v = 0; v < 3; v++)
                    glm_mat4_mulv3(model, (float *)&L_MESH[9 * tri + 3 * v], 1.0f, w[v]);
                any_triangle = any_triangle || rp_test_frustum_triangle(&f, w[0], w[1], w[2]);
            }
            assert_true(!any_triangle || got);
            bounds_only += got && !any_triangle;
            t.contained += in;
        }
    }
    report("mesh bounds", &t);
    assert_true(bounds_only > 0);   /* the bounds are conservative for the mesh */
    assert_true(t.contained > 0);
    rp_mesh_destroy(mesh);
}

/* ---- building the frustum ---------------------------------------------------------- */

static void corner_order_and_clipping_do_not_matter(void **state)
{
    (void)state;
    test_rng g = {99};
    for (int n = 0; n < 70; n++) {
        ref_camera cam;
        ref_camera_random(&g, n % REF_CAMERA_KINDS, &cam);
        const rp_viewport *vp = &cam.vp;
        const float x0 = vp->x + vp->width * 0.2f, x1 = vp->x + vp->width * 0.7f;
        const float y0 = vp->y + vp->height * 0.1f, y1 = vp->y + vp->height * 0.9f;
        rp_frustum ref, f;
        assert_true(rp_frustum_from_rect(x0, y0, x1, y1, vp, cam.proj, cam.view, cam.conv, &ref));
        const float orders[3][4] = {{x1, y1, x0, y0}, {x0, y1, x1, y0}, {x1, y0, x0, y1}};
        for (int i = 0; i < 3; i++) {
            assert_true(rp_frustum_from_rect(orders[i][0], orders[i][1], orders[i][2],
                                             orders[i][3], vp, cam.proj, cam.view, cam.conv, &f));
            assert_memory_equal(&f, &ref, sizeof f);
        }
        /* past the viewport's left and bottom edges: clipped to them */
        rp_frustum clipped, beyond;
        assert_true(rp_frustum_from_rect(vp->x, y0, x1, vp->y + vp->height, vp, cam.proj,
                                         cam.view, cam.conv, &clipped));
        assert_true(rp_frustum_from_rect(vp->x - 500, y0, x1, vp->y + vp->height + 3, vp,
                                         cam.proj, cam.view, cam.conv, &beyond));
        assert_memory_equal(&clipped, &beyond, sizeof clipped);
        /* the whole viewport, and more, is the camera's frustum */
        rp_frustum whole, cam_f;
        assert_true(rp_frustum_from_rect(vp->x - 1, vp->y + vp->height + 1, vp->x + vp->width,
                                         vp->y, vp, cam.proj, cam.view, cam.conv, &whole));
        assert_true(rp_frustum_from_camera(cam.proj, cam.view, cam.conv, &cam_f));
        assert_memory_equal(&whole, &cam_f, sizeof whole);
    }
}

static void corners_are_the_rect_unprojected_and_on_their_planes(void **state)
{
    (void)state;
    test_rng g = {31337};
    for (int n = 0; n < 700; n++) {
        selection s;
        random_selection(&g, n % REF_CAMERA_KINDS, &s);
        rp_frustum f;
        assert_true(selection_frustum(&s, &f));
        for (int k = 0; k < 6; k++)
            assert_float_equal(glm_vec3_norm(f.planes[k].normal), 1.0f, 1e-6f);
        for (int i = 0; i < 8; i++) {
            /* the test's own corners, rounded to float */
            for (int k = 0; k < 3; k++)
                if (fabs(f.corners[i][k] - s.corner[i][k]) > 1e-6 * (fabs(s.corner[i][k]) + 1e-3))
                    fail_msg("%s corner %d axis %d: %.9g, wanted %.9g", ref_camera_names[s.cam.kind],
                             i, k, f.corners[i][k], s.corner[i][k]);
            /* on the three planes its bits name, inside the other three */
            const int on[3] = {(i & 1) ? RP_FRUSTUM_RIGHT : RP_FRUSTUM_LEFT,
                               (i & 2) ? RP_FRUSTUM_TOP : RP_FRUSTUM_BOTTOM,
                               (i & 4) ? RP_FRUSTUM_FAR : RP_FRUSTUM_NEAR};
            for (int k = 0; k < 6; k++) {
                float d;
                assert_true(rp_plane_signed_distance(&f.planes[k], f.corners[i], &d));
                const float tol = 1e-5f * (float)(s.scale + 1.0);
                if (k == on[0] || k == on[1] || k == on[2])
                    assert_true(fabsf(d) <= tol);
                else
                    assert_true(d >= -tol);
            }
        }
    }
}

/* glm_perspective_rh_no with RP_GL and glm_perspective_rh_zo with RP_D3D
   are the same camera: the same frustum. */
static void both_depth_conventions_give_one_frustum(void **state)
{
    (void)state;
    mat4 no, zo, view;
    glm_perspective_rh_no(glm_rad(50.0f), 1.5f, 0.3f, 200.0f, no);
    glm_perspective_rh_zo(glm_rad(50.0f), 1.5f, 0.3f, 200.0f, zo);
    glm_lookat((vec3){3, 4, 10}, (vec3){0, 0, 0}, (vec3){0, 1, 0}, view);
    const rp_viewport vp = {10, 20, 900, 600};
    rp_frustum a, b;
    assert_true(rp_frustum_from_rect(100, 80, 500, 400, &vp, no, view, RP_GL, &a));
    assert_true(rp_frustum_from_rect(500, 80, 100, 400, &vp, zo, view, RP_D3D, &b));
    for (int i = 0; i < 8; i++)
        for (int k = 0; k < 3; k++)
            assert_float_equal(a.corners[i][k], b.corners[i][k], 1e-4f * 200.0f);
    for (int p = 0; p < 6; p++) {
        for (int k = 0; k < 3; k++)
            assert_float_equal(a.planes[p].normal[k], b.planes[p].normal[k], 1e-5f);
        assert_float_equal(a.planes[p].d, b.planes[p].d, 1e-3f);
    }
    /* and the wrong convention for the projection is a different frustum */
    rp_frustum wrong;
    assert_true(rp_frustum_from_rect(100, 80, 500, 400, &vp, zo, view, RP_GL, &wrong));
    assert_true(fabsf(wrong.corners[0][2] - a.corners[0][2]) > 0.01f ||
                fabsf(wrong.corners[0][0] - a.corners[0][0]) > 0.01f);
}

/* The difference the names promise: a ball and a box just beyond a corner
   edge of the frustum, outside it but not wholly outside any one plane. */
static void conservative_accepts_what_exact_refuses_at_an_edge(void **state)
{
    (void)state;
    mat4 proj, view;
    glm_ortho(-1, 1, -1, 1, 1, 11, proj);     /* the box x, y in [-1, 1], z in [-11, -1] */
    glm_mat4_identity(view);
    rp_frustum f;
    assert_true(rp_frustum_from_camera(proj, view, RP_GL, &f));
    /* beyond the edge x = 1, y = 1, diagonally: 0.5 from each plane, 0.71 from the edge */
    const rp_sphere ball = {{1.5f, 1.5f, -5.0f}, 0.6f};
    assert_true(rp_test_frustum_sphere_conservative(&f, &ball));
    assert_false(rp_test_frustum_sphere_exact(&f, &ball));
    const rp_sphere touching = {{1.5f, 1.5f, -5.0f}, 0.7072f};
    assert_true(rp_test_frustum_sphere_exact(&f, &touching));
    /* a box rotated 45 degrees about z, its corner pointing at the edge */
    rp_obb box = {{1.7f, 1.7f, -5.0f}, {0.6f, 0.6f, 0.5f}, {0, 0, 0, 0}};
    glm_quatv(box.orientation, glm_rad(45.0f), (vec3){0, 0, 1});
    assert_true(rp_test_frustum_obb_conservative(&f, &box));
    assert_false(rp_test_frustum_obb_exact(&f, &box));
    const rp_aabb aabb = {{1.2f, 1.2f, -6}, {2, 2, -4}};
    assert_false(rp_test_frustum_aabb_exact(&f, &aabb));
    const rp_aabb on_edge = {{1, 1, -6}, {2, 2, -4}};   /* touches the edge */
    assert_true(rp_test_frustum_aabb_exact(&f, &on_edge));
    assert_false(rp_frustum_contains_aabb(&f, &on_edge));
    const rp_aabb within = {{-1, -1, -10.99f}, {1, 1, -1.01f}};   /* x, y: the whole width */
    assert_true(rp_frustum_contains_aabb(&f, &within));
    /* an ellipsoid long along x, beyond the corner edge */
    const rp_ellipsoid e = {{1.5f, 1.5f, -5}, {0.6f, 0.6f, 0.6f}, {0, 0, 0, 0}};
    assert_true(rp_test_frustum_ellipsoid_conservative(&f, &e));
    assert_false(rp_test_frustum_ellipsoid_exact(&f, &e));
    /* points and segments */
    assert_true(rp_frustum_contains_point(&f, (vec3){1, -1, -10.99f}));
    assert_false(rp_frustum_contains_point(&f, (vec3){1, -1, -11.01f}));
    assert_false(rp_frustum_contains_point(&f, (vec3){1.001f, 0, -5}));
    assert_true(rp_test_frustum_segment(&f, (vec3){0, 1.5f, -5}, (vec3){1.5f, 0, -5}));   /* cuts the corner */
    assert_false(rp_test_frustum_segment(&f, (vec3){1, 3, -5}, (vec3){3, 1, -5}));
    /* no corner inside, yet it covers the middle */
    assert_true(rp_test_frustum_triangle(&f, (vec3){-5, -0.5f, -5}, (vec3){5, -0.5f, -5},
                                         (vec3){0, 5, -5}));
    /* not behind any one plane, yet beside the corner edge */
    assert_false(rp_test_frustum_triangle(&f, (vec3){0.5f, 2, -5}, (vec3){2, 0.5f, -5},
                                          (vec3){3, 3, -5}));
}

static void polyline_reports_the_first_segment_that_meets(void **state)
{
    (void)state;
    mat4 proj, view;
    glm_ortho(-1, 1, -1, 1, 1, 11, proj);
    glm_mat4_identity(view);
    rp_frustum f;
    assert_true(rp_frustum_from_camera(proj, view, RP_GL, &f));
    /* points padded to 5 floats: a stride of 20 bytes */
    const float path[] = {
        5, 5, -5, 0, 0,
        3, 5, -5, 0, 0,
        3, 0, -5, 0, 0,
        0, 0, -5, 0, 0,     /* segment 2 (3,0 -> 0,0) enters */
        0, 0, -20, 0, 0,    /* segment 3 leaves through the far plane */
    };
    size_t seg = 99;
    assert_true(rp_test_frustum_polyline(&f, path, 5, 20, &seg));
    assert_int_equal(seg, 2);
    assert_false(rp_test_frustum_polyline(&f, path, 2, 20, &seg));
    assert_int_equal(seg, 2);       /* untouched on false */
    assert_true(rp_test_frustum_polyline(&f, path + 15, 1, 20, &seg));   /* a point inside */
    assert_int_equal(seg, 0);
    assert_false(rp_frustum_contains_polyline(&f, path, 5, 20));
    assert_true(rp_frustum_contains_polyline(&f, path + 15, 1, 0));
    const float inside[] = {0, 0, -2, 0.5f, 0.5f, -9, -1, 1, -1.5f};
    assert_true(rp_frustum_contains_polyline(&f, inside, 3, 0));
    assert_true(rp_test_frustum_polyline(&f, inside, 3, 0, NULL));
}

/* ---- bad input ---------------------------------------------------------------------- */

static void empty_or_outside_rectangles_select_nothing(void **state)
{
    (void)state;
    mat4 proj, view;
    glm_perspective(glm_rad(60.0f), 4.0f / 3.0f, 0.1f, 100.0f, proj);
    glm_lookat((vec3){0, 5, 10}, (vec3){0, 0, 0}, (vec3){0, 1, 0}, view);
    const rp_viewport vp = {50, 30, 800, 600};
    rp_frustum f;
    test_poison(&f, sizeof f);
    const float rects[][4] = {
        {200, 200, 200, 400},       /* zero width: a click or a vertical line */
        {200, 200, 400, 200},       /* zero height */
        {300, 300, 300, 300},       /* a click */
        {0, 100, 49, 200},          /* left of the viewport */
        {900, 100, 851, 200},       /* right of it, corners reversed */
        {100, 700, 300, 631},       /* below it */
        {0, 0, 50, 30},             /* touches only its corner */
        {850, 100, 1000, 200},      /* touches only its right edge */
    };
    for (size_t i = 0; i < sizeof rects / sizeof rects[0]; i++)
        assert_false(rp_frustum_from_rect(rects[i][0], rects[i][1], rects[i][2], rects[i][3],
                                          &vp, proj, view, RP_GL, &f));
    assert_true(test_untouched(&f, sizeof f));
}

static void bad_cameras_are_refused(void **state)
{
    (void)state;
    mat4 proj, view, zero = GLM_MAT4_ZERO_INIT, infinite = GLM_MAT4_ZERO_INIT, mirrored;
    glm_perspective(glm_rad(60.0f), 1.0f, 0.1f, 100.0f, proj);
    glm_lookat((vec3){0, 5, 10}, (vec3){0, 0, 0}, (vec3){0, 1, 0}, view);
    /* an infinite far plane (GL's): far corners at infinity */
    infinite[0][0] = 1.7f;
    infinite[1][1] = 1.7f;
    infinite[2][2] = -1.0f;
    infinite[2][3] = -1.0f;
    infinite[3][2] = -0.2f;
    /* w < 0 in front: GL and D3D draw nothing with it */
    glm_mat4_copy(proj, mirrored);
    glm_mat4_scale_p(mirrored, -1.0f);
    mirrored[3][3] = -proj[3][3];
    const rp_viewport vp = {0, 0, 400, 400}, flat = {0, 0, 400, 0}, nan_vp = {NAN, 0, 400, 400};
    rp_frustum f;
    test_poison(&f, sizeof f);
    assert_false(rp_frustum_from_rect(10, 10, 100, 100, &flat, proj, view, RP_GL, &f));
    assert_false(rp_frustum_from_rect(10, 10, 100, 100, &nan_vp, proj, view, RP_GL, &f));
    assert_false(rp_frustum_from_rect(10, 10, 100, 100, NULL, proj, view, RP_GL, &f));
    assert_false(rp_frustum_from_rect(NAN, 10, 100, 100, &vp, proj, view, RP_GL, &f));
    assert_false(rp_frustum_from_rect(10, 10, INFINITY, 100, &vp, proj, view, RP_GL, &f));
    assert_false(rp_frustum_from_rect(10, 10, 100, 100, &vp, zero, view, RP_GL, &f));
    assert_false(rp_frustum_from_rect(10, 10, 100, 100, &vp, proj, zero, RP_GL, &f));
    assert_false(rp_frustum_from_rect(10, 10, 100, 100, &vp, NULL, view, RP_GL, &f));
    assert_false(rp_frustum_from_rect(10, 10, 100, 100, &vp, proj, view, (rp_convention)2, &f));
    assert_false(rp_frustum_from_rect(10, 10, 100, 100, &vp, infinite, view, RP_GL, &f));
    assert_false(rp_frustum_from_rect(10, 10, 100, 100, &vp, mirrored, view, RP_GL, &f));
    assert_false(rp_frustum_from_camera(infinite, view, RP_GL, &f));
    assert_false(rp_frustum_from_camera(proj, view, (rp_convention)-1, &f));
    mat4 nan_view;
    glm_mat4_copy(view, nan_view);
    nan_view[3][1] = NAN;
    assert_false(rp_frustum_from_camera(proj, nan_view, RP_GL, &f));
    assert_true(test_untouched(&f, sizeof f));
    /* the same cameras, made right, work */
    assert_true(rp_frustum_from_rect(10, 10, 100, 100, &vp, proj, view, RP_GL, NULL));
    assert_true(rp_frustum_from_camera(proj, view, RP_GL, NULL));
}

static void bad_frustums_and_shapes_are_refused(void **state)
{
    (void)state;
    mat4 proj, view;
    glm_ortho(-1, 1, -1, 1, 1, 11, proj);
    glm_mat4_identity(view);
    rp_frustum good;
    assert_true(rp_frustum_from_camera(proj, view, RP_GL, &good));
    const rp_sphere sphere = {{0, 0, -5}, 0.5f};
    const rp_ellipsoid ell = {{0, 0, -5}, {0.5f, 0.2f, 0.3f}, {0, 0, 0, 0}};
    const rp_aabb aabb = {{-0.5f, -0.5f, -6}, {0.5f, 0.5f, -4}};
    const rp_obb obb = {{0, 0, -5}, {0.5f, 0.5f, 0.5f}, {0, 0, 0, 0}};
    const float line[] = {0, 0, -5, 0, 0, -6};
    rp_mesh *mesh = rp_mesh_create(L_MESH, 6, 0, NULL, 2);
    assert_non_null(mesh);
    mat4 model = GLM_MAT4_IDENTITY_INIT;
    model[3][2] = -5;

    /* every function says yes to the good frustum and these shapes ... */
    assert_true(rp_frustum_contains_point(&good, (vec3){0, 0, -5}));
    assert_true(rp_frustum_contains_sphere(&good, &sphere));
    assert_true(rp_frustum_contains_ellipsoid(&good, &ell));
    assert_true(rp_frustum_contains_aabb(&good, &aabb));
    assert_true(rp_frustum_contains_obb(&good, &obb));
    assert_true(rp_frustum_contains_mesh_instance_conservative(&good, mesh, model));
    assert_true(rp_frustum_contains_polyline(&good, line, 2, 0));

    /* ... and no to a broken frustum */
    rp_frustum broken[5];
    for (int i = 0; i < 5; i++)
        broken[i] = good;
    broken[0].planes[2].normal[1] = NAN;
    broken[1].planes[4].d = INFINITY;
    broken[2].corners[6][0] = NAN;
    glm_vec3_zero(broken[3].planes[0].normal);
    glm_vec3_scale(broken[4].planes[5].normal, 1.01f, broken[4].planes[5].normal);
    for (int i = 0; i < 5; i++) {
        const rp_frustum *f = &broken[i];
        assert_false(rp_frustum_contains_point(f, (vec3){0, 0, -5}));
        assert_false(rp_test_frustum_sphere_conservative(f, &sphere));
        assert_false(rp_test_frustum_sphere_exact(f, &sphere));
        assert_false(rp_frustum_contains_sphere(f, &sphere));
        assert_false(rp_test_frustum_ellipsoid_conservative(f, &ell));
        assert_false(rp_test_frustum_ellipsoid_exact(f, &ell));
        assert_false(rp_frustum_contains_ellipsoid(f, &ell));
        assert_false(rp_test_frustum_aabb_conservative(f, &aabb));
        assert_false(rp_test_frustum_aabb_exact(f, &aabb));
        assert_false(rp_frustum_contains_aabb(f, &aabb));
        assert_false(rp_test_frustum_obb_conservative(f, &obb));
        assert_false(rp_test_frustum_obb_exact(f, &obb));
        assert_false(rp_frustum_contains_obb(f, &obb));
        assert_false(rp_test_frustum_mesh_instance_conservative(f, mesh, model));
        assert_false(rp_frustum_contains_mesh_instance_conservative(f, mesh, model));
        assert_false(rp_test_frustum_triangle(f, line, line + 3, (vec3){1, 0, -5}));
        assert_false(rp_test_frustum_segment(f, line, line + 3));
        assert_false(rp_test_frustum_polyline(f, line, 2, 0, NULL));
        assert_false(rp_frustum_contains_polyline(f, line, 2, 0));
    }
    assert_false(rp_frustum_contains_point(NULL, (vec3){0, 0, -5}));
    assert_false(rp_test_frustum_sphere_exact(NULL, &sphere));

    /* broken shapes */
    const rp_sphere bad_spheres[] = {{{0, 0, -5}, 0}, {{0, 0, -5}, -1}, {{0, NAN, -5}, 1},
                                     {{0, 0, -5}, INFINITY}};
    for (size_t i = 0; i < 4; i++) {
        assert_false(rp_test_frustum_sphere_conservative(&good, &bad_spheres[i]));
        assert_false(rp_test_frustum_sphere_exact(&good, &bad_spheres[i]));
        assert_false(rp_frustum_contains_sphere(&good, &bad_spheres[i]));
    }
    const rp_ellipsoid bad_ells[] = {{{0, 0, -5}, {0.5f, 0, 0.3f}, {0, 0, 0, 0}},
                                     {{0, 0, -5}, {0.5f, 0.2f, 0.3f}, {0, 0, 0, 2}},
                                     {{0, 0, -5}, {0.5f, 0.2f, 0.3f}, {0, NAN, 0, 1}}};
    for (size_t i = 0; i < 3; i++) {
        assert_false(rp_test_frustum_ellipsoid_conservative(&good, &bad_ells[i]));
        assert_false(rp_test_frustum_ellipsoid_exact(&good, &bad_ells[i]));
        assert_false(rp_frustum_contains_ellipsoid(&good, &bad_ells[i]));
    }
    const rp_aabb inverted = {{0, 0, -4}, {1, 1, -6}};
    assert_false(rp_test_frustum_aabb_conservative(&good, &inverted));
    assert_false(rp_test_frustum_aabb_exact(&good, &inverted));
    assert_false(rp_frustum_contains_aabb(&good, &inverted));
    assert_false(rp_test_frustum_aabb_exact(&good, NULL));
    const rp_obb negative = {{0, 0, -5}, {0.5f, -0.5f, 0.5f}, {0, 0, 0, 0}};
    assert_false(rp_test_frustum_obb_conservative(&good, &negative));
    assert_false(rp_test_frustum_obb_exact(&good, &negative));
    assert_false(rp_frustum_contains_obb(&good, &negative));
    mat4 projective;
    glm_mat4_copy(model, projective);
    projective[2][3] = 0.5f;
    assert_false(rp_test_frustum_mesh_instance_conservative(&good, mesh, projective));
    assert_false(rp_test_frustum_mesh_instance_conservative(&good, NULL, model));
    assert_false(rp_test_frustum_mesh_instance_conservative(&good, mesh, NULL));
    assert_false(rp_test_frustum_triangle(&good, line, line + 3, (vec3){NAN, 0, -5}));
    assert_false(rp_test_frustum_segment(&good, line, NULL));
    size_t seg = 7;
    const float nan_line[] = {0, 0, -5, 0, NAN, -6};
    assert_false(rp_test_frustum_polyline(&good, nan_line, 2, 0, &seg));
    assert_false(rp_test_frustum_polyline(&good, line, 0, 0, &seg));
    assert_false(rp_test_frustum_polyline(&good, line, 2, 10, &seg));   /* stride < 12 */
    assert_false(rp_test_frustum_polyline(&good, line, 1, 14, &seg));   /* not a multiple of 4 */
    assert_false(rp_test_frustum_polyline(&good, NULL, 2, 0, &seg));
    assert_int_equal(seg, 7);
    assert_false(rp_frustum_contains_polyline(&good, nan_line, 2, 0));
    rp_mesh_destroy(mesh);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(selection_equals_brute_force),
        cmocka_unit_test(mesh_instance_is_tested_by_its_bounds),
        cmocka_unit_test(corner_order_and_clipping_do_not_matter),
        cmocka_unit_test(corners_are_the_rect_unprojected_and_on_their_planes),
        cmocka_unit_test(both_depth_conventions_give_one_frustum),
        cmocka_unit_test(conservative_accepts_what_exact_refuses_at_an_edge),
        cmocka_unit_test(polyline_reports_the_first_segment_that_meets),
        cmocka_unit_test(empty_or_outside_rectangles_select_nothing),
        cmocka_unit_test(bad_cameras_are_refused),
        cmocka_unit_test(bad_frustums_and_shapes_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

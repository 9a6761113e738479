/*
 * heightmap_walk.c: the exact first hit of a ray on the heightmap's
 * triangles.
 *
 * Along the ray, f(t) = y(t) - surface(x(t), z(t)) is continuous and, inside
 * one triangle, linear. The ray meets the surface where f changes sign (or is
 * zero). The walk visits the cells under the ray in order (Amanatides-Woo),
 * cuts each cell's stretch of the ray at the diagonal into at most two
 * pieces, and evaluates f at both ends of every piece with that piece's
 * plane. A sign change is found either inside a piece or between the end of
 * one piece and the start of the next: the pieces share their end points,
 * so a ray along a grid line or through a vertex cannot slip through.
 *
 * The min/max pyramid lets the walk skip every block the ray passes wholly
 * above (or wholly below): f cannot change sign there.
 */
#include <float.h>
#include <math.h>

#include "internal.h"
#include "heightmap_internal.h"

typedef struct walk {
    const rp_heightmap *hm;
    rp_hm_ray r;
    double inv_du, inv_dv;      /* 0 when the ray is parallel to the axis */
    double margin;              /* slack on the pyramid's bounds           */
    int    side;                /* +1 above the surface, -1 below, 0 unknown */
    /* the hit */
    double t;
    double nx, ny, nz;          /* upward normal of the triangle hit */
} walk;

static double ray_y(const walk *w, double t) { return w->r.oy + t * w->r.dy; }

/* Tests one linear piece [ta, tb] of the ray over the plane
   h = h0 + a u + b v (grid units, cell-local u, v). */
static bool test_piece(walk *w, double h0, double a, double b,
                       double ta, double ua, double va, double tb, double ub, double vb)
{
    double fa = ray_y(w, ta) - (h0 + a * ua + b * va);
    double fb = ray_y(w, tb) - (h0 + a * ub + b * vb);
    double t;
    if (w->side == 0)
        w->side = fa > 0.0 ? 1 : (fa < 0.0 ? -1 : 0);
    if (w->side == 0 || fa * w->side <= 0.0)
        t = ta;                                 /* on (or across) already */
    else if (fb * w->side <= 0.0)
        t = ta + (tb - ta) * (fa / (fa - fb));  /* |fa / (fa - fb)| <= 1 */
    else
        return false;
    if (w->side == 0)
        w->side = 1;
    w->t = t < ta ? ta : (t > tb ? tb : t);
    w->nx = -a;
    w->ny = w->hm->spacing;
    w->nz = -b;
    return true;
}

/* The ray over [ta, tb] inside cell (cx, cz). */
static bool test_cell(walk *w, int cx, int cz, double ta, double tb)
{
    const rp_heightmap *hm = w->hm;
    const float *h = hm->heights + (size_t)cz * (size_t)hm->cols + (size_t)cx;
    double h00 = h[0], h10 = h[1], h01 = h[hm->cols], h11 = h[hm->cols + 1];
    double ua = w->r.ou + ta * w->r.du - cx, va = w->r.ov + ta * w->r.dv - cz;
    double ub = w->r.ou + tb * w->r.du - cx, vb = w->r.ov + tb * w->r.dv - cz;
    double da = ua - va, db = ub - vb;
    /* triangle 00-10-11 (u >= v): h00 + (h10 - h00) u + (h11 - h10) v
       triangle 00-11-01 (u <  v): h00 + (h11 - h01) u + (h01 - h00) v */
    double a1 = h10 - h00, b1 = h11 - h10, a2 = h11 - h01, b2 = h01 - h00;

    if ((da > 0.0 && db < 0.0) || (da < 0.0 && db > 0.0)) {
        double s = da / (da - db);
        double tm = ta + (tb - ta) * s;
        double um = ua + (ub - ua) * s, vm = va + (vb - va) * s;
        if (da > 0.0)
            return test_piece(w, h00, a1, b1, ta, ua, va, tm, um, vm) ||
                   test_piece(w, h00, a2, b2, tm, um, vm, tb, ub, vb);
        return test_piece(w, h00, a2, b2, ta, ua, va, tm, um, vm) ||
               test_piece(w, h00, a1, b1, tm, um, vm, tb, ub, vb);
    }
    /* One side of the diagonal (or along it, where both planes agree). */
    if (da + db >= 0.0)
        return test_piece(w, h00, a1, b1, ta, ua, va, tb, ub, vb);
    return test_piece(w, h00, a2, b2, ta, ua, va, tb, ub, vb);
}

static int clampi(int x, int lo, int hi) { return x < lo ? lo : (x > hi ? hi : x); }

/* Cell index of grid coordinate g for a ray moving in direction d: on an
   exact boundary, the cell the ray is about to enter. */
static int cell_of(double g, double d, int lo, int hi)
{
    double f = floor(g);
    if (f < lo)
        return lo;
    if (f > hi)
        return hi;
    int c = (int)f;
    if (d < 0.0 && g == f && c > lo)
        c--;
    return c;
}

/* Amanatides-Woo over cells [x_lo, x_hi] x [z_lo, z_hi] for t in [ta, tb].
   Every step moves one cell towards the exit, so it ends after at most
   (x_hi - x_lo + 1) + (z_hi - z_lo + 1) cells. */
static bool walk_cells(walk *w, int x_lo, int x_hi, int z_lo, int z_hi, double ta, double tb)
{
    const rp_hm_ray *r = &w->r;
    int cx = cell_of(r->ou + ta * r->du, r->du, x_lo, x_hi);
    int cz = cell_of(r->ov + ta * r->dv, r->dv, z_lo, z_hi);
    int sx = r->du > 0.0 ? 1 : -1, sz = r->dv > 0.0 ? 1 : -1;
    double t = ta;
    for (;;) {
        /* Boundary crossings recomputed from the cell index: no drift. */
        double tx = r->du == 0.0 ? INFINITY : (cx + (sx > 0) - r->ou) * w->inv_du;
        double tz = r->dv == 0.0 ? INFINITY : (cz + (sz > 0) - r->ov) * w->inv_dv;
        double tn = tx < tz ? tx : tz;
        if (tn > tb)
            tn = tb;
        if (tn < t)
            tn = t;
        if (test_cell(w, cx, cz, t, tn))
            return true;
        if (tn >= tb)
            return false;
        if (tx <= tz) {
            cx += sx;
            if (cx < x_lo || cx > x_hi)
                return false;
        } else {
            cz += sz;
            if (cz < z_lo || cz > z_hi)
                return false;
        }
        t = tn;
    }
}

/* Whether the ray at t lies on the far side (>= m) of the mid-line m of a
   coordinate o + t d. Decided by t against the crossing time, the same
   number the cuts use, not by o + t d: with d tiny (1e-20 beside 1) that
   sum rounds back onto the line, and the child chosen would disagree with
   the cell walk, which leaves the child at once and misses the hit. */
static bool beyond_mid(double o, double d, double inv_d, double m, double t)
{
    if (d == 0.0)
        return o >= m;
    double tc = (m - o) * inv_d;
    if (tc != tc)                   /* o on the line, inv_d infinite: 0 * inf */
        return d > 0.0;
    return d > 0.0 ? t > tc : t < tc;
}

/* Node (ix, iz) of pyramid level l for t in [ta, tb], children front to back. */
static bool visit(walk *w, int l, int ix, int iz, double ta, double tb)
{
    const rp_heightmap *hm = w->hm;
    const rp_hm_level *lv = &hm->level[l];
    rp_hm_bounds b = lv->nodes[(size_t)iz * (size_t)lv->nx + (size_t)ix];
    double ya = ray_y(w, ta), yb = ray_y(w, tb);
    /* Wholly above the highest sample or below the lowest: f keeps its sign. */
    if ((ya < yb ? ya : yb) > b.hi + w->margin) {
        if (w->side == 0)
            w->side = 1;
        return false;
    }
    if ((ya > yb ? ya : yb) < b.lo - w->margin) {
        if (w->side == 0)
            w->side = -1;
        return false;
    }

    int shift = l + hm->leaf_log2;
    int x0 = ix << shift, z0 = iz << shift;
    if (l == 0) {
        int n = 1 << hm->leaf_log2;
        return walk_cells(w, x0, clampi(x0 + n - 1, 0, hm->cols - 2),
                          z0, clampi(z0 + n - 1, 0, hm->rows - 2), ta, tb);
    }

    /* Split [ta, tb] where the ray crosses the node's two mid-lines. */
    const rp_hm_level *cl = &hm->level[l - 1];
    double xm = x0 + (1 << (shift - 1)), zm = z0 + (1 << (shift - 1));
    double cuts[4];
    int n = 0;
    cuts[n++] = ta;
    double tx = w->r.du == 0.0 ? -1.0 : (xm - w->r.ou) * w->inv_du;
    double tz = w->r.dv == 0.0 ? -1.0 : (zm - w->r.ov) * w->inv_dv;
    if (tx > tz) {
        double tmp = tx;
        tx = tz;
        tz = tmp;
    }
    if (tx > ta && tx < tb)
        cuts[n++] = tx;
    if (tz > ta && tz < tb && tz > cuts[n - 1])
        cuts[n++] = tz;
    cuts[n++] = tb;

    for (int i = 0; i + 1 < n; i++) {
        double lo = cuts[i], hi = cuts[i + 1], tm = 0.5 * (lo + hi);
        int cx = 2 * ix + beyond_mid(w->r.ou, w->r.du, w->inv_du, xm, tm);
        int cz = 2 * iz + beyond_mid(w->r.ov, w->r.dv, w->inv_dv, zm, tm);
        if (cx >= cl->nx)
            cx = cl->nx - 1;
        if (cz >= cl->nz)
            cz = cl->nz - 1;
        if (visit(w, l - 1, cx, cz, lo, hi))
            return true;
    }
    return false;
}

/* Validates, clips and prepares; false when the ray cannot hit. */
static bool walk_setup(const rp_heightmap *hm, const rp_ray *ray, walk *w,
                       double *t0, double *t1)
{
    if (hm == NULL || !rp_ray_valid(ray))
        return false;
    w->hm = hm;
    rp_hm_ray_make(hm, ray, &w->r);
    w->inv_du = w->r.du == 0.0 ? 0.0 : 1.0 / w->r.du;
    w->inv_dv = w->r.dv == 0.0 ? 0.0 : 1.0 / w->r.dv;
    /* Double rounding on ray heights is ~1e-16 relative; this is far above
       it and far below anything a float heightmap can resolve. */
    double scale = 1.0 + fabs(hm->min_h) + fabs(hm->max_h) + fabs(w->r.oy);
    w->margin = 1e-9 * scale;
    w->side = 0;
    return rp_hm_clip(hm, &w->r, hm->min_h - w->margin, hm->max_h + w->margin, t0, t1);
}

static bool walk_finish(const walk *w, const rp_ray *ray, rp_hit *out)
{
    float t = (float)w->t;
    double p[3] = {ray->origin[0] + w->t * ray->dir[0],
                   ray->origin[1] + w->t * ray->dir[1],
                   ray->origin[2] + w->t * ray->dir[2]};
    double len = sqrt(w->nx * w->nx + w->ny * w->ny + w->nz * w->nz);
    double flip = w->side < 0 ? -1.0 : 1.0;     /* face the side the ray came from */
    rp_hit hit;
    hit.t = hit.t_enter = hit.t_exit = t;
    for (int i = 0; i < 3; i++)
        hit.point[i] = (float)p[i];
    hit.normal[0] = (float)(flip * w->nx / len);
    hit.normal[1] = (float)(flip * w->ny / len);
    hit.normal[2] = (float)(flip * w->nz / len);
    hit.inside = w->side < 0;
    /* A t beyond float range (a ray with a denormal direction) is not a
       result we can return. */
    if (!isfinite(t) || !rp_vec3_finite(hit.point) || !rp_vec3_finite(hit.normal))
        return false;
    if (out)
        *out = hit;
    return true;
}

bool rp_intersect_ray_heightmap(const rp_heightmap *hm, const rp_ray *ray, rp_hit *out)
{
    walk w;
    double t0, t1;
    if (!walk_setup(hm, ray, &w, &t0, &t1))
        return false;
    if (!visit(&w, hm->levels - 1, 0, 0, t0, t1))
        return false;
    return walk_finish(&w, ray, out);
}

bool rp_hm_intersect_walk(const rp_heightmap *hm, const rp_ray *ray, rp_hit *out)
{
    walk w;
    double t0, t1;
    if (!walk_setup(hm, ray, &w, &t0, &t1))
        return false;
    if (!walk_cells(&w, 0, hm->cols - 2, 0, hm->rows - 2, t0, t1))
        return false;
    return walk_finish(&w, ray, out);
}

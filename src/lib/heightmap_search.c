/*
 * heightmap_search.c: the tutorial's terrain pick (XNA recipe 5-10:
 * ClipRay, LinearSearch, BinarySearch), made safe.
 *
 * What the tutorial gets wrong, and what this does instead:
 * - ClipRay divides by dir.y: a level ray gives infinities, a ray going up
 *   swaps the ends. Here the ray is clipped slab by slab to the height band
 *   and to the map's rectangle; a level ray is inside the band or not.
 * - LinearSearch and BinarySearch loop until they find the ground: a ray
 *   that misses never ends. Here the linear search takes exactly
 *   linear_steps steps and the binary search at most RP_HM_BINARY_CAP.
 * - Both assume the ray starts above the ground. Here the search looks for
 *   the first change of side, whichever side the clipped ray starts on.
 * What it keeps on purpose: it can step over anything thinner than a step.
 */
#include <math.h>
#include <string.h>

#include "internal.h"
#include "heightmap_internal.h"

/* Each halving gains a bit; 64 exhaust a double's t long before. */
#define RP_HM_BINARY_CAP 64

typedef struct search {
    const rp_heightmap *hm;
    const rp_ray *ray;
    rp_hm_ray r;
    rp_search_trace *trace;
} search;

/* Height of the ray above the surface at t (negative: below). */
static double height_error(const search *s, double t)
{
    double u = s->r.ou + t * s->r.du, v = s->r.ov + t * s->r.dv;
    return s->r.oy + t * s->r.dy - rp_hm_surface(s->hm, u, v);
}

static void point_at(const search *s, double t, vec3 dest)
{
    for (int i = 0; i < 3; i++)
        dest[i] = (float)(s->ray->origin[i] + t * s->ray->dir[i]);
}

static void record(const search *s, vec3 *buf, int cap, int *count, double t)
{
    if (buf != NULL && *count < cap)
        point_at(s, t, buf[*count]);
    (*count)++;
}

static void record_linear(const search *s, double t)
{
    if (s->trace)
        record(s, s->trace->linear, s->trace->linear_cap, &s->trace->linear_count, t);
}

static void record_binary(const search *s, double t)
{
    if (s->trace)
        record(s, s->trace->binary, s->trace->binary_cap, &s->trace->binary_count, t);
}

/* Where the search stopped: t along the caller's ray, and the side of the
   surface the clipped ray started on (+1 above, -1 below). */
typedef struct search_result {
    double t, side;
} search_result;

/* Halves [lo, hi] (lo on the starting side, hi across) until the height
   error is below accuracy, or RP_HM_BINARY_CAP halvings; the t found. */
static double binary_search(const search *s, double lo, double hi, double side,
                            double accuracy)
{
    double best_t = hi, best_err = fabs(height_error(s, hi));
    for (int i = 0; i < RP_HM_BINARY_CAP; i++) {
        double mid = 0.5 * (lo + hi);
        if (mid <= lo || mid >= hi)
            break;                      /* t cannot be split any finer */
        double err = height_error(s, mid);
        record_binary(s, mid);
        if (fabs(err) < best_err) {
            best_err = fabs(err);
            best_t = mid;
        }
        if (fabs(err) < accuracy)
            break;
        if (err * side > 0.0)
            lo = mid;
        else
            hi = mid;
    }
    /* A sign change is bracketed: even when accuracy is finer than the
       floats can resolve, the crossing is there; return the closest. */
    return best_t;
}

/* The clip, the linear steps and the binary search; false when nothing is
   found or on invalid input. The trace (may be NULL) is reset first. */
static bool run_search(const rp_heightmap *hm, const rp_ray *ray, int linear_steps,
                       float accuracy, rp_search_trace *trace, search_result *res)
{
    if (trace) {
        trace->clipped = false;
        trace->linear_count = 0;
        trace->binary_count = 0;
    }
    if (hm == NULL || !rp_ray_valid(ray) || linear_steps < 1 ||
        linear_steps > RP_HEIGHTMAP_SEARCH_MAX_STEPS || !(accuracy > 0.0f) || !isfinite(accuracy))
        return false;

    search s = {.hm = hm, .ray = ray, .trace = trace};
    rp_hm_ray_make(hm, ray, &s.r);
    double t0, t1;
    if (!rp_hm_clip(hm, &s.r, hm->min_h, hm->max_h, &t0, &t1))
        return false;
    if (trace) {
        trace->clipped = true;
        point_at(&s, t0, trace->clip_start);
        point_at(&s, t1, trace->clip_end);
    }

    double err = height_error(&s, t0);
    record_linear(&s, t0);
    res->side = err >= 0.0 ? 1.0 : -1.0;
    res->t = t0;
    if (fabs(err) < accuracy)
        return true;
    double prev = t0;
    for (int i = 1; i <= linear_steps; i++) {
        /* From t0 each time: no drift accumulates over the steps. */
        double t = i == linear_steps ? t1 : t0 + (t1 - t0) * ((double)i / linear_steps);
        err = height_error(&s, t);
        record_linear(&s, t);
        res->t = t;
        if (fabs(err) < accuracy)
            return true;
        if (err * res->side < 0.0) {
            res->t = binary_search(&s, prev, t, res->side, accuracy);
            return true;
        }
        prev = t;
    }
    return false;
}

/* The hit record of a search result; false when t or the point is not a
   finite float (a ray with an absurdly short dir). */
static bool make_hit(const rp_heightmap *hm, const rp_ray *ray, const search_result *res,
                     rp_hit *hit)
{
    search s = {.hm = hm, .ray = ray};
    rp_hm_ray_make(hm, ray, &s.r);
    point_at(&s, res->t, hit->point);
    hit->t = hit->t_enter = hit->t_exit = (float)res->t;
    if (!isfinite(hit->t) || !rp_vec3_finite(hit->point))
        return false;
    double n[3];
    rp_hm_surface_normal(hm, s.r.ou + res->t * s.r.du, s.r.ov + res->t * s.r.dv, n);
    /* facing the side the ray came from, as rp_intersect_ray_heightmap's */
    double k = res->side / sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    for (int i = 0; i < 3; i++)
        hit->normal[i] = (float)(k * n[i]);
    hit->inside = res->side < 0.0;
    return true;
}

bool rp_heightmap_pick_search_hit(const rp_heightmap *hm, const rp_ray *ray,
                                  int linear_steps, float accuracy,
                                  rp_search_trace *trace, rp_hit *out)
{
    search_result res;
    rp_hit hit;
    if (!run_search(hm, ray, linear_steps, accuracy, trace, &res) ||
        !make_hit(hm, ray, &res, &hit))
        return false;
    if (out)
        *out = hit;
    return true;
}

bool rp_heightmap_pick_search_traced(const rp_heightmap *hm, const rp_ray *ray,
                                     int linear_steps, float accuracy,
                                     rp_search_trace *trace, vec3 out_point)
{
    /* The point alone: a t beyond float range (a denormal dir) is fine here. */
    search_result res;
    vec3 p;
    if (!run_search(hm, ray, linear_steps, accuracy, trace, &res))
        return false;
    search s = {.hm = hm, .ray = ray};
    point_at(&s, res.t, p);
    if (!rp_vec3_finite(p))
        return false;
    if (out_point)
        glm_vec3_copy(p, out_point);
    return true;
}

bool rp_heightmap_pick_search(const rp_heightmap *hm, const rp_ray *ray,
                              int linear_steps, float accuracy, vec3 out_point)
{
    return rp_heightmap_pick_search_traced(hm, ray, linear_steps, accuracy, NULL, out_point);
}

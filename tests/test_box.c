/* test_box.c: ray vs axis-aligned box (D3DXBoxBoundProbe with the where)
 * and ray vs oriented box, against a double-precision reference that
 * intersects the six face rectangles one by one (not the slab test). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <float.h>
#include <math.h>
#include <string.h>
#include <cmocka.h>

#include <raypick/raypick.h>
#include "ref_quadric.h"

/* ---- helpers ------------------------------------------------------------ */

static rp_hit sentinel_hit(void)
{
    rp_hit h;
    memset(&h, 0xA5, sizeof h);
    return h;
}

static void assert_aabb_rejected(const rp_ray *ray, const rp_aabb *box)
{
    rp_hit out = sentinel_hit(), ref = sentinel_hit();
    assert_false(rp_intersect_ray_aabb(ray, box, &out));
    assert_memory_equal(&out, &ref, sizeof out);
    assert_false(rp_intersect_ray_aabb(ray, box, NULL));
    assert_false(rp_test_ray_aabb(ray, box));
}

static void assert_obb_rejected(const rp_ray *ray, const rp_obb *box)
{
    rp_hit out = sentinel_hit(), ref = sentinel_hit();
    assert_false(rp_intersect_ray_obb(ray, box, &out));
    assert_memory_equal(&out, &ref, sizeof out);
    assert_false(rp_intersect_ray_obb(ray, box, NULL));
}

static bool hit_is_finite(const rp_hit *h)
{
    bool ok = isfinite(h->t) && isfinite(h->t_enter) && isfinite(h->t_exit);
    for (int i = 0; i < 3; i++)
        ok = ok && isfinite(h->point[i]) && isfinite(h->normal[i]);
    return ok;
}

/* Every hit: finite, ordered, t >= 0, t one of the two ends, a unit
   normal, and the three ways of asking agree. */
static rp_hit expect_aabb_hit(const rp_ray *ray, const rp_aabb *box)
{
    rp_hit h = sentinel_hit();
    assert_true(rp_intersect_ray_aabb(ray, box, &h));
    assert_true(rp_intersect_ray_aabb(ray, box, NULL));
    assert_true(rp_test_ray_aabb(ray, box));
    assert_true(hit_is_finite(&h));
    assert_true(h.t >= 0.0f);
    assert_true(h.t_enter <= h.t_exit);
    assert_true(h.t == h.t_enter || h.t == h.t_exit);
    assert_float_equal(glm_vec3_norm(h.normal), 1.0f, 1e-6f);
    return h;
}

static void expect_aabb_miss(const rp_ray *ray, const rp_aabb *box)
{
    rp_hit out = sentinel_hit(), ref = sentinel_hit();
    assert_false(rp_intersect_ray_aabb(ray, box, &out));
    assert_memory_equal(&out, &ref, sizeof out);
    assert_false(rp_test_ray_aabb(ray, box));
}

/* ---- the reference: six face rectangles, in double ------------------------ */

typedef struct ref_box_hit {
    bool hit;
    double t_enter, t_exit, t;
    int axis, side;       /* the face at t */
    bool inside;
} ref_box_hit;

/* Where the line o + t d crosses each face plane inside the face's
   rectangle (with a relative slack of 1e-9, so rays through edges count);
   the smallest and largest such t are the entry and exit. */
static ref_box_hit ref_ray_box(const double o[3], const double d[3], const double lo[3],
                               const double hi[3])
{
    ref_box_hit r = {false, INFINITY, -INFINITY, 0.0, -1, 0, false};
    int enter_axis = -1, exit_axis = -1, enter_side = 0, exit_side = 0;
    for (int axis = 0; axis < 3; axis++)
        for (int side = -1; side <= 1; side += 2) {
            if (d[axis] == 0.0)
                continue;
            const double plane = side < 0 ? lo[axis] : hi[axis];
            const double t = (plane - o[axis]) / d[axis];
            bool on_face = true;
            for (int k = 0; k < 3; k++) {
                if (k == axis)
                    continue;
                const double p = o[k] + t * d[k];
                const double slack = 1e-9 * (1.0 + fabs(lo[k]) + fabs(hi[k]));
                on_face = on_face && p >= lo[k] - slack && p <= hi[k] + slack;
            }
            if (!on_face)
                continue;
            if (t < r.t_enter) {
                r.t_enter = t;
                enter_axis = axis;
                enter_side = side;
            }
            if (t > r.t_exit) {
                r.t_exit = t;
                exit_axis = axis;
                exit_side = side;
            }
        }
    if (enter_axis < 0 || r.t_exit < 0.0)
        return r;
    r.hit = true;
    r.inside = r.t_enter < 0.0;
    r.t = r.inside ? r.t_exit : r.t_enter;
    r.axis = r.inside ? exit_axis : enter_axis;
    r.side = r.inside ? exit_side : enter_side;
    return r;
}

static float rand_float(test_rng *g, double lo, double hi)
{
    return (float)rng_uniform(g, lo, hi);
}

static void random_aabb(test_rng *g, rp_aabb *box)
{
    for (int i = 0; i < 3; i++) {
        float a = rand_float(g, -10.0, 10.0), size = rand_float(g, 0.01, 8.0);
        box->min[i] = a;
        box->max[i] = a + size;
    }
}

/* origins around the box (some inside), aimed at a point near the box */
static void random_ray_at(test_rng *g, const vec3 lo, const vec3 hi, rp_ray *ray)
{
    const bool from_inside = rng_u32(g) % 4 == 0;
    for (int i = 0; i < 3; i++) {
        const double c = 0.5 * ((double)lo[i] + hi[i]), ext = (double)hi[i] - lo[i];
        ray->origin[i] = (float)(from_inside ? c + rng_uniform(g, -0.5, 0.5) * ext
                                             : c + rng_uniform(g, -1.5, 1.5) * (ext + 4.0));
        const double target = c + rng_uniform(g, -0.6, 0.6) * ext;
        ray->dir[i] = (float)((target - ray->origin[i]) * rng_log(g, -2.0, 2.0));
    }
    if (rng_u32(g) % 8 == 0)
        glm_vec3_negate(ray->dir);   /* and some boxes behind the origin */
}

static void ray_to_double(const rp_ray *ray, double o[3], double d[3])
{
    for (int i = 0; i < 3; i++) {
        o[i] = ray->origin[i];
        d[i] = ray->dir[i];
    }
}

/* ---- axis-aligned: against the reference ------------------------------------ */

static void random_rays_match_reference(void **state)
{
    (void)state;
    test_rng g = {0xB0C5u};
    int hits = 0, inside = 0, misses = 0;
    for (int n = 0; n < 20000; n++) {
        rp_aabb box;
        rp_ray ray;
        random_aabb(&g, &box);
        random_ray_at(&g, box.min, box.max, &ray);
        double o[3], d[3], lo[3], hi[3];
        ray_to_double(&ray, o, d);
        for (int i = 0; i < 3; i++) {
            lo[i] = box.min[i];
            hi[i] = box.max[i];
        }
        const ref_box_hit ref = ref_ray_box(o, d, lo, hi);
        if (!ref.hit) {
            expect_aabb_miss(&ray, &box);
            misses++;
            continue;
        }
        const rp_hit h = expect_aabb_hit(&ray, &box);
        hits++;
        inside += ref.inside;
        const double scale = fabs(ref.t_exit) + fabs(ref.t_enter) + 1e-3;
        assert_float_equal(h.t_enter, ref.t_enter, 1e-5 * scale);
        assert_float_equal(h.t_exit, ref.t_exit, 1e-5 * scale);
        assert_float_equal(h.t, ref.t, 1e-5 * scale);
        assert_int_equal(h.inside, ref.inside);
        for (int i = 0; i < 3; i++) {
            const double p = o[i] + ref.t * d[i];
            assert_float_equal(h.point[i], p, 1e-4 * (1.0 + fabs(p)));
            assert_true(h.point[i] >= box.min[i] && h.point[i] <= box.max[i]);
            assert_float_equal(h.normal[i], i == ref.axis ? (float)ref.side : 0.0f, 0.0f);
        }
        /* the point is on the face the normal names */
        assert_float_equal(h.point[ref.axis], ref.side < 0 ? box.min[ref.axis] : box.max[ref.axis],
                           0.0f);
    }
    /* the generator covers every case */
    print_message("%d hits (%d from inside), %d misses\n", hits, inside, misses);
    assert_true(hits > 5000 && misses > 2000 && inside > 1000);
}

/* D3DXBoxBoundProbe's question has the same answer as the full test on
   every input, rays with zero components included. */
static void test_agrees_with_intersect(void **state)
{
    (void)state;
    test_rng g = {0x7E57u};
    for (int n = 0; n < 5000; n++) {
        rp_aabb box;
        rp_ray ray;
        random_aabb(&g, &box);
        random_ray_at(&g, box.min, box.max, &ray);
        if (n % 3 == 0)
            ray.dir[rng_u32(&g) % 3] = 0.0f;
        assert_int_equal(rp_test_ray_aabb(&ray, &box), rp_intersect_ray_aabb(&ray, &box, NULL));
    }
}

/* ---- zero direction components ------------------------------------------------ */

/* A ray along an axis or in a coordinate plane: the textbook slab test
   divides by 0, and an origin on a slab plane gives 0 * inf = NaN. */
static void zero_dir_components_are_fine(void **state)
{
    (void)state;
    const rp_aabb box = {{-1, -1, -1}, {1, 1, 1}};
    /* along -z into the box's front face */
    rp_ray ray = {{0.25f, -0.5f, 5.0f}, {0.0f, 0.0f, -1.0f}};
    rp_hit h = expect_aabb_hit(&ray, &box);
    assert_float_equal(h.t, 4.0f, 0.0f);
    assert_float_equal(h.t_exit, 6.0f, 0.0f);
    assert_float_equal(h.normal[2], 1.0f, 0.0f);
    assert_false(h.inside);
    /* the same line outside the x slab: a miss, no NaN */
    ray.origin[0] = 1.5f;
    expect_aabb_miss(&ray, &box);
    /* the origin exactly on the slab planes x = 1 and y = -1 (an edge),
       moving along z: the ray runs along the box's edge, which counts */
    ray.origin[0] = 1.0f;
    ray.origin[1] = -1.0f;
    h = expect_aabb_hit(&ray, &box);
    assert_float_equal(h.t, 4.0f, 0.0f);
    assert_float_equal(h.t_exit, 6.0f, 0.0f);
    /* in the xy plane, two zero components */
    rp_ray along_x = {{-3.0f, 1.0f, 0.0f}, {2.0f, 0.0f, 0.0f}};
    h = expect_aabb_hit(&along_x, &box);   /* on the face y = 1 */
    assert_float_equal(h.t, 1.0f, 0.0f);
    assert_float_equal(h.t_exit, 2.0f, 0.0f);
    assert_float_equal(h.normal[0], -1.0f, 0.0f);
    along_x.origin[1] = nextafterf(1.0f, 2.0f);   /* one ulp above the face */
    expect_aabb_miss(&along_x, &box);
    /* a denormal component is not zero: it still divides, without overflow */
    rp_ray denormal = {{0.0f, 0.0f, -5.0f}, {1e-42f, 0.0f, 1.0f}};
    h = expect_aabb_hit(&denormal, &box);
    assert_float_equal(h.t, 4.0f, 0.0f);
}

/* ---- edges and corners ------------------------------------------------------ */

/* Rays that touch the box only at a corner or along an edge, built from
   exact float values (origin = touch point - 2^k dir), hit with
   t_enter == t_exit; moved one ulp away, they miss. */
static void edges_and_corners_touch(void **state)
{
    (void)state;
    const rp_aabb box = {{-1.5f, 0.25f, 2.0f}, {3.0f, 1.0f, 6.5f}};
    const float ks[] = {0.5f, 1.0f, 4.0f};
    for (int corner = 0; corner < 8; corner++) {
        vec3 c, d;
        for (int i = 0; i < 3; i++) {
            const bool upper = (corner >> i) & 1;
            c[i] = upper ? box.max[i] : box.min[i];
            /* outward along x, inward along y and z: the line leaves the
               box's x range where it enters the y and z ranges */
            d[i] = (i == 0) == upper ? 1.0f : -1.0f;
            if (i == 2)
                d[i] *= 0.5f;
        }
        /* the direction: outward in x, inward in y and z, so before the
           corner the ray is outside in y, z and after it outside in x */
        for (int k = 0; k < 3; k++) {
            rp_ray ray;
            for (int i = 0; i < 3; i++) {
                ray.dir[i] = d[i];
                ray.origin[i] = c[i] - ks[k] * d[i];
            }
            const rp_hit h = expect_aabb_hit(&ray, &box);
            assert_float_equal(h.t_enter, ks[k], 0.0f);
            assert_float_equal(h.t_exit, ks[k], 0.0f);
            assert_memory_equal(h.point, c, sizeof c);
            /* one ulp further out in y: a miss */
            rp_ray off = ray;
            off.origin[1] = nextafterf(ray.origin[1], ray.dir[1] > 0 ? -100.0f : 100.0f);
            expect_aabb_miss(&off, &box);
        }
    }
    /* along an edge's direction, grazing it: x = max, y = min, any z */
    rp_ray graze = {{3.0f, 0.25f, -4.0f}, {0.0f, 0.0f, 2.0f}};
    rp_hit h = expect_aabb_hit(&graze, &box);
    assert_float_equal(h.t_enter, 3.0f, 0.0f);
    assert_float_equal(h.t_exit, 5.25f, 0.0f);
    /* across an edge at 45 degrees, touching only the edge x = 3, y = 1 */
    rp_ray across = {{5.0f, -1.0f, 4.0f}, {-1.0f, 1.0f, 0.0f}};
    h = expect_aabb_hit(&across, &box);
    assert_float_equal(h.t_enter, 2.0f, 0.0f);
    assert_float_equal(h.t_exit, 2.0f, 0.0f);
    assert_float_equal(h.point[0], 3.0f, 0.0f);
    assert_float_equal(h.point[1], 1.0f, 0.0f);
    across.origin[0] = nextafterf(5.0f, 10.0f);   /* one ulp out: passes beside it */
    expect_aabb_miss(&across, &box);
}

/* ---- from inside, behind, on the surface ---------------------------------------- */

static void rays_from_inside_exit(void **state)
{
    (void)state;
    const rp_aabb box = {{-2, -1, -3}, {2, 1, 3}};
    const float dirs[6][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
    for (int k = 0; k < 6; k++) {
        rp_ray ray = {{0.5f, 0.25f, -1.0f}, {dirs[k][0], dirs[k][1], dirs[k][2]}};
        const rp_hit h = expect_aabb_hit(&ray, &box);
        assert_true(h.inside);
        assert_true(h.t_enter < 0.0f);
        assert_float_equal(h.t, h.t_exit, 0.0f);
        /* the outward normal of the exit face is the direction itself */
        for (int i = 0; i < 3; i++)
            assert_float_equal(h.normal[i], dirs[k][i], 0.0f);
    }
    rp_ray ray = {{0.5f, 0.25f, -1.0f}, {1, 0, 0}};
    rp_hit h = expect_aabb_hit(&ray, &box);
    assert_float_equal(h.t, 1.5f, 0.0f);
    assert_float_equal(h.t_enter, -2.5f, 0.0f);
    /* box entirely behind: a miss */
    rp_ray away = {{5.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}};
    expect_aabb_miss(&away, &box);
    /* origin on the surface, leaving: t = 0 */
    rp_ray leaving = {{2.0f, 0.0f, 0.0f}, {1.0f, 0.5f, 0.0f}};
    h = expect_aabb_hit(&leaving, &box);
    assert_float_equal(h.t, 0.0f, 0.0f);
    assert_false(signbit(h.t));
}

/* ---- flat boxes ---------------------------------------------------------------- */

static void flat_boxes_are_valid(void **state)
{
    (void)state;
    /* a rectangle in the plane z = 1, crossed head-on: one point */
    const rp_aabb rect = {{-1, -1, 1}, {1, 1, 1}};
    rp_ray ray = {{0.25f, 0.5f, 5.0f}, {0.0f, 0.0f, -2.0f}};
    rp_hit h = expect_aabb_hit(&ray, &rect);
    assert_float_equal(h.t, 2.0f, 0.0f);
    assert_float_equal(h.t_enter, h.t_exit, 0.0f);
    assert_float_equal(h.normal[2], 1.0f, 0.0f);
    /* from below: the normal faces the ray */
    ray.origin[2] = -3.0f;
    ray.dir[2] = 2.0f;
    h = expect_aabb_hit(&ray, &rect);
    assert_float_equal(h.normal[2], -1.0f, 0.0f);
    /* in its plane: the ray runs across the rectangle */
    rp_ray in_plane = {{-5.0f, 0.0f, 1.0f}, {1.0f, 0.0f, 0.0f}};
    h = expect_aabb_hit(&in_plane, &rect);
    assert_float_equal(h.t_enter, 4.0f, 0.0f);
    assert_float_equal(h.t_exit, 6.0f, 0.0f);
    /* a segment and a point */
    const rp_aabb segment = {{0, 2, 3}, {4, 2, 3}};
    rp_ray through = {{1.0f, 0.0f, 3.0f}, {0.0f, 1.0f, 0.0f}};
    h = expect_aabb_hit(&through, &segment);
    assert_float_equal(h.t, 2.0f, 0.0f);
    const rp_aabb point = {{1, 2, 3}, {1, 2, 3}};
    rp_ray at_point = {{0.0f, 0.0f, 0.0f}, {0.5f, 1.0f, 1.5f}};
    h = expect_aabb_hit(&at_point, &point);
    assert_float_equal(h.t, 2.0f, 0.0f);
    assert_float_equal(h.point[0], 1.0f, 0.0f);
    at_point.dir[0] = nextafterf(0.5f, 1.0f);
    expect_aabb_miss(&at_point, &point);
    /* rp_aabb_from_points of one point is such a box */
    rp_aabb from_one;
    assert_true(rp_aabb_from_points(point.min, 1, 0, &from_one));
    assert_memory_equal(&from_one, &point, sizeof point);
}

/* ---- invalid input --------------------------------------------------------------- */

static void invalid_boxes_and_rays_are_refused(void **state)
{
    (void)state;
    const rp_aabb good = {{-1, -1, -1}, {1, 1, 1}};
    const rp_ray ray = {{0, 0, 5}, {0, 0, -1}};
    expect_aabb_hit(&ray, &good);
    assert_aabb_rejected(NULL, &good);
    assert_aabb_rejected(&ray, NULL);
    const float bad[] = {NAN, INFINITY, -INFINITY};
    for (int b = 0; b < 3; b++)
        for (int i = 0; i < 6; i++) {
            rp_aabb box = good;
            (i < 3 ? box.min : box.max)[i % 3] = bad[b];
            assert_aabb_rejected(&ray, &box);
            rp_ray r = ray;
            (i < 3 ? r.origin : r.dir)[i % 3] = bad[b];
            assert_aabb_rejected(&r, &good);
        }
    for (int i = 0; i < 3; i++) {
        rp_aabb inverted = good;
        inverted.min[i] = 1.5f;   /* min > max */
        assert_aabb_rejected(&ray, &inverted);
    }
    const rp_ray zero_dir = {{0, 0, 5}, {0, 0, 0}};
    assert_aabb_rejected(&zero_dir, &good);
    /* a hit too far along a tiny dir for a float t */
    const rp_ray tiny = {{0, 0, 1e30f}, {0, 0, -1e-30f}};
    assert_aabb_rejected(&tiny, &good);

    const rp_obb obb = {{0, 0, 0}, {1, 1, 1}, {0, 0, 0, 0}};
    assert_true(rp_intersect_ray_obb(&ray, &obb, NULL));
    assert_obb_rejected(NULL, &obb);
    assert_obb_rejected(&ray, NULL);
    assert_obb_rejected(&zero_dir, &obb);
    for (int b = 0; b < 3; b++) {
        for (int i = 0; i < 3; i++) {
            rp_obb o = obb;
            o.center[i] = bad[b];
            assert_obb_rejected(&ray, &o);
            o = obb;
            o.half_extents[i] = bad[b];
            assert_obb_rejected(&ray, &o);
        }
        for (int i = 0; i < 4; i++) {
            rp_obb o = obb;
            o.orientation[i] = bad[b];
            assert_obb_rejected(&ray, &o);
        }
    }
    for (int i = 0; i < 3; i++) {
        rp_obb o = obb;
        o.half_extents[i] = -0.5f;
        assert_obb_rejected(&ray, &o);
    }
}

/* ---- oriented boxes ------------------------------------------------------------- */

static void random_unit_quat(test_rng *g, double q[4])
{
    double n = 0.0;
    do {
        n = 0.0;
        for (int i = 0; i < 4; i++) {
            q[i] = rng_uniform(g, -1.0, 1.0);
            n += q[i] * q[i];
        }
    } while (n < 0.01 || n > 1.0);
    for (int i = 0; i < 4; i++)
        q[i] /= sqrt(n);
}

/* An all-zero orientation, the identity, and a scaled identity are the
   axis-aligned box centre +- half extents: the same hit, bit for bit for
   the zero orientation. */
static void obb_axis_aligned_is_aabb(void **state)
{
    (void)state;
    test_rng g = {0x0BB0u};
    const versor identities[3] = {{0, 0, 0, 0}, {0, 0, 0, 1}, {0, 0, 0, -3}};
    for (int n = 0; n < 3000; n++) {
        rp_aabb box;
        random_aabb(&g, &box);
        /* centre and half extents exact in float: dyadic values */
        for (int i = 0; i < 3; i++) {
            box.min[i] = roundf(box.min[i] * 4.0f) / 4.0f;
            box.max[i] = box.min[i] + ceilf((box.max[i] - box.min[i]) * 4.0f) / 2.0f;
        }
        rp_ray ray;
        random_ray_at(&g, box.min, box.max, &ray);
        rp_obb obb;
        for (int i = 0; i < 3; i++) {
            obb.center[i] = 0.5f * (box.min[i] + box.max[i]);
            obb.half_extents[i] = 0.5f * (box.max[i] - box.min[i]);
        }
        rp_hit a = sentinel_hit();
        const bool hit = rp_intersect_ray_aabb(&ray, &box, &a);
        for (int k = 0; k < 3; k++) {
            glm_vec4_copy((float *)identities[k], obb.orientation);
            rp_hit o = sentinel_hit();
            assert_int_equal(rp_intersect_ray_obb(&ray, &obb, &o), hit);
            if (!hit) {
                rp_hit ref = sentinel_hit();
                assert_memory_equal(&o, &ref, sizeof o);
                continue;
            }
            if (k == 0) {   /* the same numbers (a -0 may come out +0) */
                assert_true(o.t == a.t && o.t_enter == a.t_enter && o.t_exit == a.t_exit);
                assert_true(glm_vec3_eqv(o.point, a.point) && glm_vec3_eqv(o.normal, a.normal));
                assert_int_equal(o.inside, a.inside);
                continue;
            }
            assert_float_equal(o.t, a.t, 1e-5f * (1.0f + a.t));
            assert_float_equal(o.t_enter, a.t_enter, 1e-5f * (1.0f + fabsf(a.t_enter)));
            assert_float_equal(o.t_exit, a.t_exit, 1e-5f * (1.0f + fabsf(a.t_exit)));
            assert_int_equal(o.inside, a.inside);
            for (int i = 0; i < 3; i++) {
                assert_float_equal(o.point[i], a.point[i], 1e-4f);
                assert_float_equal(o.normal[i], a.normal[i], 1e-6f);
            }
        }
    }
}

/* A rotated box against the axis-aligned box in its own frame: the test
   takes the ray into the frame itself (double), asks rp_intersect_ray_aabb,
   and maps the answer back; and against the face-rectangle reference in
   the box frame. */
static void obb_rotated_matches_transformed_aabb(void **state)
{
    (void)state;
    test_rng g = {0x0BB1u};
    int hits = 0;
    for (int n = 0; n < 10000; n++) {
        double q[4], m[3][3];
        random_unit_quat(&g, q);
        ref_quat_matrix(q, m);
        rp_obb obb;
        for (int i = 0; i < 3; i++) {
            obb.center[i] = rand_float(&g, -20.0, 20.0);
            obb.half_extents[i] = rand_float(&g, 0.05, 5.0);
            obb.orientation[i] = (float)q[i];
        }
        obb.orientation[3] = (float)q[3];
        /* the float quaternion, normalised again, is the rotation used */
        double qf[4], nf = 0.0;
        for (int i = 0; i < 4; i++) {
            qf[i] = obb.orientation[i];
            nf += qf[i] * qf[i];
        }
        for (int i = 0; i < 4; i++)
            qf[i] /= sqrt(nf);
        ref_quat_matrix(qf, m);

        /* a ray in box space, moved to the world */
        vec3 lo, hi;
        for (int i = 0; i < 3; i++) {
            hi[i] = obb.half_extents[i];
            lo[i] = -hi[i];
        }
        rp_ray local;
        random_ray_at(&g, lo, hi, &local);
        rp_ray world;
        for (int i = 0; i < 3; i++) {
            world.origin[i] = (float)(obb.center[i] + m[i][0] * local.origin[0] +
                                      m[i][1] * local.origin[1] + m[i][2] * local.origin[2]);
            world.dir[i] = (float)(m[i][0] * local.dir[0] + m[i][1] * local.dir[1] +
                                   m[i][2] * local.dir[2]);
        }
        /* the float world ray back into the box frame, in double */
        double o[3], d[3], dlo[3], dhi[3];
        for (int i = 0; i < 3; i++) {
            const double rel[3] = {(double)world.origin[0] - obb.center[0],
                                   (double)world.origin[1] - obb.center[1],
                                   (double)world.origin[2] - obb.center[2]};
            o[i] = m[0][i] * rel[0] + m[1][i] * rel[1] + m[2][i] * rel[2];
            d[i] = m[0][i] * world.dir[0] + m[1][i] * world.dir[1] + m[2][i] * world.dir[2];
            dlo[i] = lo[i];
            dhi[i] = hi[i];
        }
        const ref_box_hit ref = ref_ray_box(o, d, dlo, dhi);
        rp_aabb local_box;
        glm_vec3_copy(lo, local_box.min);
        glm_vec3_copy(hi, local_box.max);
        rp_ray local_f;
        for (int i = 0; i < 3; i++) {
            local_f.origin[i] = (float)o[i];
            local_f.dir[i] = (float)d[i];
        }
        rp_hit h = sentinel_hit(), a;
        const bool got = rp_intersect_ray_obb(&world, &obb, &h);
        assert_int_equal(got, ref.hit);
        assert_int_equal(rp_intersect_ray_aabb(&local_f, &local_box, &a), ref.hit);
        if (!got) {
            rp_hit s = sentinel_hit();
            assert_memory_equal(&h, &s, sizeof h);
            continue;
        }
        hits++;
        assert_true(hit_is_finite(&h));
        const double scale = fabs(ref.t_enter) + fabs(ref.t_exit) + 1e-3;
        assert_float_equal(h.t, ref.t, 1e-5 * scale);
        assert_float_equal(h.t_enter, ref.t_enter, 1e-5 * scale);
        assert_float_equal(h.t_exit, ref.t_exit, 1e-5 * scale);
        assert_float_equal(h.t, a.t, 1e-5 * scale);
        assert_int_equal(h.inside, ref.inside);
        for (int i = 0; i < 3; i++) {
            /* normal = R * the local face normal; point on the world ray */
            const double n = m[i][ref.axis] * ref.side;
            assert_float_equal(h.normal[i], n, 1e-5);
            const double nl = m[i][0] * a.normal[0] + m[i][1] * a.normal[1] + m[i][2] * a.normal[2];
            assert_float_equal(h.normal[i], nl, 1e-5);
            const double p = (double)world.origin[i] + ref.t * world.dir[i];
            assert_float_equal(h.point[i], p, 1e-4 * (1.0 + fabs(p)));
        }
    }
    print_message("%d hits of 10000\n", hits);
    assert_true(hits > 3000);
}

/* A quarter turn about y maps the box's x extent onto world z: a long thin
   box along x becomes one along z. */
static void obb_quarter_turn(void **state)
{
    (void)state;
    const float s = sqrtf(0.5f);
    const rp_obb box = {{1, 2, 3}, {4, 0.5f, 0.25f}, {0, s, 0, s}};
    /* local +x goes to world -z under a +90 degree turn about y */
    rp_ray down_z = {{1, 2, 20}, {0, 0, -1}};
    rp_hit h;
    assert_true(rp_intersect_ray_obb(&down_z, &box, &h));
    assert_float_equal(h.t, 13.0f, 1e-5f);       /* world z = 3 + 4 */
    assert_float_equal(h.t_exit, 21.0f, 1e-5f);  /* world z = 3 - 4 */
    assert_float_equal(h.normal[2], 1.0f, 1e-6f);
    assert_float_equal(h.point[2], 7.0f, 1e-5f);
    /* along world x it is only 0.25 thick */
    rp_ray along_x = {{-10, 2, 3}, {1, 0, 0}};
    assert_true(rp_intersect_ray_obb(&along_x, &box, &h));
    assert_float_equal(h.t, 10.75f, 1e-5f);
    assert_float_equal(h.normal[0], -1.0f, 1e-6f);
    rp_ray beside = {{-10, 2, 7.5f}, {1, 0, 0}};
    assert_false(rp_intersect_ray_obb(&beside, &box, NULL));
    /* a non-unit quaternion is normalised: the same box */
    rp_obb scaled = box;
    glm_vec4_scale(scaled.orientation, 5.0f, scaled.orientation);
    rp_hit h2;
    assert_true(rp_intersect_ray_obb(&along_x, &scaled, &h2));
    assert_float_equal(h2.t, h.t, 1e-5f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(random_rays_match_reference),
        cmocka_unit_test(test_agrees_with_intersect),
        cmocka_unit_test(zero_dir_components_are_fine),
        cmocka_unit_test(edges_and_corners_touch),
        cmocka_unit_test(rays_from_inside_exit),
        cmocka_unit_test(flat_boxes_are_valid),
        cmocka_unit_test(invalid_boxes_and_rays_are_refused),
        cmocka_unit_test(obb_axis_aligned_is_aabb),
        cmocka_unit_test(obb_rotated_matches_transformed_aabb),
        cmocka_unit_test(obb_quarter_turn),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

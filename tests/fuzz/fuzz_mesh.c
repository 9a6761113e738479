/* fuzz_mesh.c: building triangle meshes and querying them, fed any bit
   pattern for every float.

   Input: byte 0 picks how floats are read (raw bits, tame numbers, tame
   with an odd raw one), byte 1 the vertex count (1..16), byte 2 the
   triangle count (1..12), byte 3 flags (1: indexed, 2: 16-byte stride,
   4: raw instance matrix, 8: t_max from the input), then the vertices,
   the indices (one byte each, modulo vertex count + 1, so some are out of
   range), a ray, t_max and an instance matrix.

   Checked: create accepts exactly the valid meshes and keeps their count
   and exact bounds; the nearest hit is the brute-force loop over
   rp_intersect_ray_triangle (same t, same triangle); all hits are that
   loop's hits, sorted by t then index; any-hit agrees with it for t_max;
   the identity instance is the plain query; every reported hit holds
   numbers only, t >= 0 and a unit normal; a query that says false leaves
   its outputs untouched. */
#include "fuzz_common.h"

#define MAX_V 48
#define MAX_T 12

typedef struct brute {
    bool            hit;
    rp_hit          h;
    rp_triangle_hit th;
    size_t          count;
    float           ts[MAX_T];
    uint32_t        tris[MAX_T];
} brute;

static const float *vertex(const float *pos, size_t stride, const uint32_t *idx, size_t t, int k)
{
    size_t v = idx ? idx[3 * t + (size_t)k] : 3 * t + (size_t)k;
    return pos + v * stride;
}

static void brute_force(const float *pos, size_t stride, const uint32_t *idx, size_t nt,
                        const rp_ray *ray, brute *b)
{
    memset(b, 0, sizeof *b);
    for (size_t t = 0; t < nt; t++) {
        rp_hit h;
        rp_triangle_hit th;
        if (!rp_intersect_ray_triangle(ray, vertex(pos, stride, idx, t, 0),
                                       vertex(pos, stride, idx, t, 1),
                                       vertex(pos, stride, idx, t, 2), &h, &th))
            continue;
        fuzz_check_hit(&h);
        fuzz_check(h.t == h.t_enter && h.t == h.t_exit, "triangle hit with t_enter != t_exit");
        b->ts[b->count] = h.t;
        b->tris[b->count++] = (uint32_t)t;
        if (!b->hit || h.t < b->h.t) {
            b->hit = true;
            b->h = h;
            b->th = th;
            b->th.triangle = (uint32_t)t;
        }
    }
    /* sort (t, index): insertion sort, at most 12 */
    for (size_t i = 1; i < b->count; i++)
        for (size_t j = i; j > 0 && (b->ts[j] < b->ts[j - 1] ||
                                     (b->ts[j] == b->ts[j - 1] && b->tris[j] < b->tris[j - 1]));
             j--) {
            float t = b->ts[j];
            uint32_t x = b->tris[j];
            b->ts[j] = b->ts[j - 1];
            b->tris[j] = b->tris[j - 1];
            b->ts[j - 1] = t;
            b->tris[j - 1] = x;
        }
}

/* Is (t, triangle) one of the brute-force loop's hits? */
static bool brute_has(const brute *b, float t, uint32_t triangle)
{
    for (size_t i = 0; i < b->count && i < MAX_T; i++)
        if (b->ts[i] == t && b->tris[i] == triangle)
            return true;
    return false;
}

/* exact: tame numbers (mode 1), where the BVH's widened boxes provably hold
   every hit the triangle test reports, so the mesh must equal the loop.
   With raw float bits side by side (1e-40 and 3e27 in one ray) the
   triangle test's rounding can exceed any box padding (docs/reliability.md,
   F5): there every hit the mesh reports must be one of the loop's, and the
   outputs obey the contract, but the mesh may miss where the loop's
   rounding finds a hit. */
static void check_queries(const rp_mesh *m, const rp_ray *ray, const brute *b, float t_max,
                          mat4 model, bool exact)
{
    rp_hit h;
    rp_triangle_hit th;
    fuzz_poison(&h, sizeof h);
    fuzz_poison(&th, sizeof th);
    bool got = rp_intersect_ray_mesh(m, ray, &h, &th);
    fuzz_check(rp_intersect_ray_mesh(m, ray, NULL, NULL) == got, "NULL outputs change the answer");
    if (!exact) {
        if (got) {
            fuzz_check_hit(&h);
            fuzz_check(brute_has(b, h.t, th.triangle), "nearest: a hit the brute force lacks");
        } else {
            fuzz_check(fuzz_untouched(&h, sizeof h) && fuzz_untouched(&th, sizeof th),
                       "nearest: a miss wrote to its outputs");
        }
        return;
    }
    fuzz_check(got == b->hit, "nearest: mesh and brute force disagree on hit/miss");
    if (got) {
        fuzz_check_hit(&h);
        if (h.t != b->h.t || th.triangle != b->th.triangle)
            fuzz_fail("nearest: mesh t %.9g triangle %u, brute force t %.9g triangle %u",
                      (double)h.t, th.triangle, (double)b->h.t, b->th.triangle);
        fuzz_check(memcmp(&h, &b->h, sizeof h) == 0 || (h.t == b->h.t && h.inside == b->h.inside),
                   "nearest: another hit record");
        fuzz_check(th.u == b->th.u && th.v == b->th.v, "nearest: other barycentrics");
    } else {
        fuzz_check(fuzz_untouched(&h, sizeof h) && fuzz_untouched(&th, sizeof th),
                   "nearest: a miss wrote to its outputs");
    }

    /* all hits: the count, then the sorted list */
    rp_hit hs[MAX_T];
    rp_triangle_hit ths[MAX_T + 1];
    fuzz_poison(ths, sizeof ths);
    size_t n = rp_intersect_ray_mesh_all(m, ray, hs, ths, MAX_T);
    fuzz_check(n == b->count, "all hits: another count");
    fuzz_check(rp_intersect_ray_mesh_all(m, ray, NULL, NULL, 0) == n, "all hits: count differs");
    fuzz_check(fuzz_untouched(&ths[MAX_T], sizeof ths[MAX_T]), "all hits: wrote past max_hits");
    for (size_t i = 0; i < n; i++) {
        fuzz_check_hit(&hs[i]);
        fuzz_check(hs[i].t == b->ts[i] && ths[i].triangle == b->tris[i],
                   "all hits: another order or another hit");
    }

    /* any hit up to t_max */
    bool any = b->count > 0 && b->ts[0] <= t_max;
    if (!(t_max >= 0.0f))
        any = false;
    fuzz_check(rp_test_ray_mesh(m, ray, t_max) == any, "any hit: disagrees with brute force");

    /* the identity instance is the plain query; any other: sane or false */
    mat4 id = GLM_MAT4_IDENTITY_INIT;
    rp_hit ih;
    rp_triangle_hit ith;
    bool igot = rp_intersect_ray_mesh_instance(m, id, ray, &ih, &ith);
    fuzz_check(igot == got, "identity instance disagrees with the plain query");
    if (igot)
        fuzz_check(ih.t == h.t && ith.triangle == th.triangle, "identity instance: another hit");
    fuzz_poison(&ih, sizeof ih);
    fuzz_poison(&ith, sizeof ith);
    if (rp_intersect_ray_mesh_instance(m, model, ray, &ih, &ith)) {
        fuzz_check_hit(&ih);
        fuzz_check(ith.triangle < rp_mesh_triangle_count(m), "instance: no such triangle");
    } else {
        fuzz_check(fuzz_untouched(&ih, sizeof ih) && fuzz_untouched(&ith, sizeof ith),
                   "instance: a miss wrote to its outputs");
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_watchdog();
    fuzz_input in = {data, size, 0};
    int mode = fuzz_u8(&in) % 3;
    size_t nv = 1 + fuzz_u8(&in) % 16;
    size_t nt = 1 + fuzz_u8(&in) % MAX_T;
    uint8_t flags = fuzz_u8(&in);
    bool indexed = flags & 1;
    size_t stride = (flags & 2) ? 4 : 3;   /* floats */
    if (!indexed)
        nv = 3 * nt;
    float pos[MAX_V * 4];
    for (size_t i = 0; i < nv; i++) {
        fuzz_vec3(&in, mode, &pos[i * stride]);
        if (stride == 4)
            pos[i * stride + 3] = NAN;   /* padding: never read as a position */
    }
    uint32_t idx[3 * MAX_T];
    for (size_t i = 0; indexed && i < 3 * nt; i++)
        idx[i] = fuzz_u8(&in) % (uint32_t)(nv + 1);
    rp_ray ray;
    fuzz_vec3(&in, mode, ray.origin);
    fuzz_vec3(&in, mode, ray.dir);
    float t_max = (flags & 8) ? fuzz_float(&in, mode) : INFINITY;
    mat4 model = GLM_MAT4_IDENTITY_INIT;
    if (flags & 4) {
        fuzz_mat4(&in, mode, model);
    } else {
        for (int c = 0; c < 4; c++)
            for (int r = 0; r < 3; r++)
                model[c][r] = fuzz_float(&in, mode);
    }
    const uint32_t *ip = indexed ? idx : NULL;

    /* what create must accept: every index in range, every used vertex finite */
    bool valid = true;
    rp_aabb want = {{INFINITY, INFINITY, INFINITY}, {-INFINITY, -INFINITY, -INFINITY}};
    for (size_t t = 0; t < nt && valid; t++)
        for (int k = 0; k < 3 && valid; k++) {
            size_t v = ip ? ip[3 * t + (size_t)k] : 3 * t + (size_t)k;
            if (v >= nv || !fuzz_vec3_finite(&pos[v * stride])) {
                valid = false;
                break;
            }
            for (int a = 0; a < 3; a++) {
                want.min[a] = fminf(want.min[a], pos[v * stride + (size_t)a]);
                want.max[a] = fmaxf(want.max[a], pos[v * stride + (size_t)a]);
            }
        }
    rp_mesh *m = rp_mesh_create(pos, nv, stride * sizeof(float), ip, nt);
    fuzz_check((m != NULL) == valid, "create: accepted an invalid mesh or refused a valid one");
    fuzz_check(!rp_mesh_create(pos, nv, 13, ip, nt), "create: stride 13 accepted");
    fuzz_check(!rp_mesh_create(pos, nv, stride * sizeof(float), ip, 0), "create: no triangles");
    fuzz_check(!rp_mesh_create(NULL, nv, stride * sizeof(float), ip, nt), "create: NULL positions");
    if (m) {
        fuzz_check(rp_mesh_triangle_count(m) == nt, "create: another triangle count");
        rp_aabb got;
        fuzz_check(rp_mesh_bounds(m, &got), "bounds refused");
        fuzz_check(memcmp(&got, &want, sizeof got) == 0, "bounds are not the used vertices'");
        brute b;
        brute_force(pos, stride, ip, nt, &ray, &b);
        check_queries(m, &ray, &b, t_max, model, mode == 1);
    }
    /* NULL mesh: every query refuses */
    rp_hit h;
    fuzz_check(!rp_intersect_ray_mesh(NULL, &ray, &h, NULL), "NULL mesh hit");
    fuzz_check(rp_intersect_ray_mesh_all(NULL, &ray, &h, NULL, 1) == 0, "NULL mesh all hits");
    fuzz_check(!rp_test_ray_mesh(NULL, &ray, INFINITY), "NULL mesh any hit");
    fuzz_check(rp_mesh_triangle_count(NULL) == 0, "NULL mesh has triangles");
    rp_mesh_destroy(m);
    return 0;
}

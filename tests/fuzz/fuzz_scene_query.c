/* fuzz_scene_query.c: rp_scene's filtered queries (rp_scene_query_ray,
   rp_scene_query_frustum) on scenes of every kind of object, thin ones and
   layer masks included, built, moved and queried from fuzz bytes, every
   answer checked against the brute-force loop over the objects.

   Input: byte 0 picks how floats are read (0 raw bits, 1 tame numbers, 2
   tame with an odd raw one), byte 1 the number of objects (0..16); per
   object a kind byte (8 kinds), its floats (a mesh instance: 16 floats of
   model matrix and an affine flag; a thin object: its points (a polyline:
   a count byte first, 1..6) and its tolerance, 2 floats) and a mask byte
   (0: none set); then a byte of moves (0..6), each an index byte, the new
   object as above; then queries until the input ends (at most 6): a byte
   whose bit 0 picks a ray query (ray: 6 floats; layers: a byte; t_max: a
   float; any hit: a byte; tolerance: 2 floats) or a frustum query (a
   camera: eye and target, 3 tame floats each, then near, far, fov bytes
   and a convention byte; a rectangle of 4 bytes on a 256 x 256 viewport,
   shifted to reach past its edges; select, layers and cap bytes). The
   queries run before the second build (seeing the first) and after it.

   With tame numbers the answers must be the loop's exactly (the nearest
   matching hit, the same records; the same list in index order). With raw
   bits an object's own function rounds beyond what any box can cover (as
   in fuzz_scene.c), so there each answer must be sound: a pick is a hit
   of that object's own function within t_max on a matching layer, a list
   is ascending, within the scene, on matching layers; and always: outputs
   untouched on -1 and past what was written, the same totals for every
   cap. */
#define CGLM_CLIPSPACE_INCLUDE_ALL
#include "fuzz_common.h"

#define MAX_OBJECTS 16
#define MAX_MOVES 6
#define MAX_QUERIES 6
#define MAX_LINE 6

enum kind { SPHERE, ELLIPSOID, AABB, OBB, MESH, POINT, SEGMENT, POLYLINE, KINDS };

typedef struct object {
    enum kind kind;
    uint32_t mask;
    rp_sphere sphere;
    rp_ellipsoid ellipsoid;
    rp_aabb aabb;
    rp_obb obb;
    mat4 model;
    float pts[MAX_LINE][3];
    size_t npts;
    rp_thin_tolerance tol;
} object;

static rp_mesh *cube(void)
{
    static rp_mesh *mesh;
    static const float v[8][3] = {{-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, 1, -1},
                                  {-1, -1, 1},  {1, -1, 1},  {1, 1, 1},  {-1, 1, 1}};
    static const uint32_t idx[36] = {0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4,
                                     2, 3, 7, 2, 7, 6, 1, 2, 6, 1, 6, 5, 0, 4, 7, 0, 7, 3};
    if (mesh == NULL)
        mesh = rp_mesh_create(&v[0][0], 8, 0, idx, 12);
    if (mesh == NULL)
        fuzz_fail("cannot create the cube mesh");
    return mesh;
}

/* A mask byte: 0 keeps the default (no set_mask), else one of a few
   shapes of mask, 0 among them. */
static uint32_t mask_of(uint8_t b)
{
    switch (b & 3) {
    case 0: return UINT32_MAX;
    case 1: return 0u;
    case 2: return 1u << ((b >> 2) & 31);
    default: return (uint32_t)b * 0x01010101u;
    }
}

static void read_object(fuzz_input *in, int mode, enum kind k, object *o)
{
    memset(o, 0, sizeof *o);
    o->kind = k;
    switch (k) {
    case SPHERE:
        fuzz_vec3(in, mode, o->sphere.center);
        o->sphere.radius = fuzz_float(in, mode);
        break;
    case ELLIPSOID:
        fuzz_vec3(in, mode, o->ellipsoid.center);
        fuzz_vec3(in, mode, o->ellipsoid.radii);
        if (fuzz_u8(in) & 1) {
            vec3 axis;
            fuzz_vec3(in, 1, axis);
            glm_quatv(o->ellipsoid.orientation, fuzz_float(in, 1), axis);
            glm_quat_normalize(o->ellipsoid.orientation);
        }
        break;
    case AABB:
        fuzz_vec3(in, mode, o->aabb.min);
        fuzz_vec3(in, mode, o->aabb.max);
        break;
    case OBB:
        fuzz_vec3(in, mode, o->obb.center);
        fuzz_vec3(in, mode, o->obb.half_extents);
        for (int i = 0; i < 4; i++)
            o->obb.orientation[i] = fuzz_float(in, mode);
        break;
    case MESH:
        fuzz_mat4(in, mode, o->model);
        if (fuzz_u8(in) & 1) {
            o->model[0][3] = o->model[1][3] = o->model[2][3] = 0.0f;
            o->model[3][3] = 1.0f;
        }
        break;
    default:
        o->npts = k == POINT ? 1 : k == SEGMENT ? 2 : 1 + fuzz_u8(in) % MAX_LINE;
        for (size_t i = 0; i < o->npts; i++)
            fuzz_vec3(in, mode, o->pts[i]);
        o->tol.world = fuzz_float(in, mode);
        o->tol.per_t = fuzz_float(in, mode) / 64.0f;
        break;
    }
}

static int add(rp_scene *s, const object *o)
{
    switch (o->kind) {
    case SPHERE: return rp_scene_add_sphere(s, &o->sphere);
    case ELLIPSOID: return rp_scene_add_ellipsoid(s, &o->ellipsoid);
    case AABB: return rp_scene_add_aabb(s, &o->aabb);
    case OBB: return rp_scene_add_obb(s, &o->obb);
    case MESH: return rp_scene_add_mesh(s, cube(), (vec4 *)o->model);
    case POINT: return rp_scene_add_point(s, o->pts[0], &o->tol);
    case SEGMENT: return rp_scene_add_segment(s, o->pts[0], o->pts[1], &o->tol);
    default: return rp_scene_add_polyline(s, &o->pts[0][0], o->npts, 0, &o->tol);
    }
}

static bool set(rp_scene *s, int i, const object *o)
{
    switch (o->kind) {
    case SPHERE: return rp_scene_set_sphere(s, i, &o->sphere);
    case ELLIPSOID: return rp_scene_set_ellipsoid(s, i, &o->ellipsoid);
    case AABB: return rp_scene_set_aabb(s, i, &o->aabb);
    case OBB: return rp_scene_set_obb(s, i, &o->obb);
    case MESH: return rp_scene_set_mesh_model(s, i, (vec4 *)o->model);
    case POINT: return rp_scene_set_point(s, i, o->pts[0], &o->tol);
    case SEGMENT: return rp_scene_set_segment(s, i, o->pts[0], o->pts[1], &o->tol);
    default: return rp_scene_set_polyline(s, i, &o->pts[0][0], o->npts, 0, &o->tol);
    }
}

/* ---- rays --------------------------------------------------------------- */

static void thin_as_hit(const rp_ray *ray, const rp_thin_hit *th, rp_hit *out)
{
    out->t = out->t_enter = out->t_exit = th->t;
    glm_vec3_copy((float *)th->ray_point, out->point);
    double gap[3], len = 0.0;
    for (int c = 0; c < 3; c++) {
        gap[c] = (double)th->ray_point[c] - th->point[c];
        len += gap[c] * gap[c];
    }
    if (!(len > 0.0))
        for (int c = 0; c < 3; c++) {
            gap[c] = -(double)ray->dir[c];
            len += gap[c] * gap[c];
        }
    len = sqrt(len);
    for (int c = 0; c < 3; c++)
        out->normal[c] = (float)(gap[c] / len);
    out->inside = false;
}

static bool hit(const rp_ray *ray, const object *o, const rp_thin_tolerance *add_tol, rp_hit *h,
                rp_triangle_hit *tri, rp_thin_hit *th)
{
    const rp_thin_tolerance tol = {o->tol.world + add_tol->world, o->tol.per_t + add_tol->per_t};
    bool ok;
    switch (o->kind) {
    case SPHERE: return rp_intersect_ray_sphere(ray, &o->sphere, h);
    case ELLIPSOID: return rp_intersect_ray_ellipsoid(ray, &o->ellipsoid, h);
    case AABB: return rp_intersect_ray_aabb(ray, &o->aabb, h);
    case OBB: return rp_intersect_ray_obb(ray, &o->obb, h);
    case MESH: return rp_intersect_ray_mesh_instance(cube(), (vec4 *)o->model, ray, h, tri);
    case POINT: ok = rp_intersect_ray_point(ray, o->pts[0], &tol, th); break;
    case SEGMENT: ok = rp_intersect_ray_segment(ray, o->pts[0], o->pts[1], &tol, th); break;
    default: ok = rp_intersect_ray_polyline(ray, &o->pts[0][0], o->npts, 0, &tol, th); break;
    }
    if (ok)
        thin_as_hit(ray, th, h);
    return ok;
}

static bool same_hit(const rp_hit *a, const rp_hit *b)
{
    return a->t == b->t && a->t_enter == b->t_enter && a->t_exit == b->t_exit &&
           memcmp(a->point, b->point, sizeof a->point) == 0 &&
           memcmp(a->normal, b->normal, sizeof a->normal) == 0 && a->inside == b->inside;
}

static uint32_t layers_of(const rp_scene_query *q)
{
    return q->layers != 0 ? q->layers : UINT32_MAX;
}

static void check_ray(const rp_scene *s, const object *objs, int n, const rp_ray *ray,
                      const rp_scene_query *q, bool exact)
{
    rp_hit got, want;
    rp_triangle_hit got_tri, want_tri;
    rp_thin_hit got_thin, want_thin;
    fuzz_poison(&got, sizeof got);
    fuzz_poison(&got_tri, sizeof got_tri);
    fuzz_poison(&got_thin, sizeof got_thin);
    const int i = rp_scene_query_ray(s, ray, q, &got, &got_tri, &got_thin);
    fuzz_check(rp_scene_query_ray(s, ray, q, NULL, NULL, NULL) == i, "NULL outputs change the answer");
    const bool valid = q->t_max >= 0.0f && isfinite(q->thin.world) && isfinite(q->thin.per_t) &&
                       q->thin.world >= 0.0f && q->thin.per_t >= 0.0f;
    const float t_max = q->t_max > 0.0f ? q->t_max : INFINITY;
    int best = -1;
    if (valid)
        for (int k = 0; k < n; k++) {
            rp_hit h;
            rp_triangle_hit th;
            rp_thin_hit tth;
            if ((objs[k].mask & layers_of(q)) == 0 || !hit(ray, &objs[k], &q->thin, &h, &th, &tth) ||
                h.t > t_max || (best >= 0 && h.t >= want.t))
                continue;
            best = k;
            want = h;
            want_tri = th;
            want_thin = tth;
        }
    if (!valid)
        fuzz_check(i == -1, "a query with a bad t_max or tolerance answered");
    if (exact && !q->any_hit && i != best)
        fuzz_fail("scene picked %d, the loop %d", i, best);
    if (exact && q->any_hit && (i < 0) != (best < 0))
        fuzz_fail("any hit: scene %d, loop %d", i, best);
    if (i < 0) {
        fuzz_check(fuzz_untouched(&got, sizeof got), "a miss wrote to *out");
        fuzz_check(fuzz_untouched(&got_tri, sizeof got_tri), "a miss wrote to *tri");
        fuzz_check(fuzz_untouched(&got_thin, sizeof got_thin), "a miss wrote to *thin");
        return;
    }
    fuzz_check(i < n, "an index past the scene");
    fuzz_check((objs[i].mask & layers_of(q)) != 0, "picked an object on another layer");
    if (i != best) {
        /* raw mode or any hit: what that object's own function says */
        fuzz_check(hit(ray, &objs[i], &q->thin, &want, &want_tri, &want_thin),
                   "picked an object its own function misses");
        fuzz_check(want.t <= t_max, "picked a hit beyond t_max");
    }
    fuzz_check(same_hit(&got, &want), "the hit differs from the object's own function");
    if (objs[i].kind == MESH)
        fuzz_check(memcmp(&got_tri, &want_tri, sizeof got_tri) == 0, "tri differs");
    else
        fuzz_check(fuzz_untouched(&got_tri, sizeof got_tri), "a non-mesh hit wrote to *tri");
    if (objs[i].kind >= POINT)
        fuzz_check(memcmp(&got_thin, &want_thin, sizeof got_thin) == 0, "thin differs");
    else
        fuzz_check(fuzz_untouched(&got_thin, sizeof got_thin), "a solid hit wrote to *thin");
}

/* ---- frustums ---------------------------------------------------------- */

static bool selected(const rp_frustum *f, const object *o, rp_scene_select mode)
{
    const bool meets = mode == RP_SELECT_MEETS, inside = mode == RP_SELECT_INSIDE;
    switch (o->kind) {
    case SPHERE:
        return meets ? rp_test_frustum_sphere_exact(f, &o->sphere)
               : inside ? rp_frustum_contains_sphere(f, &o->sphere)
                        : rp_test_frustum_sphere_conservative(f, &o->sphere);
    case ELLIPSOID:
        return meets ? rp_test_frustum_ellipsoid_exact(f, &o->ellipsoid)
               : inside ? rp_frustum_contains_ellipsoid(f, &o->ellipsoid)
                        : rp_test_frustum_ellipsoid_conservative(f, &o->ellipsoid);
    case AABB:
        return meets ? rp_test_frustum_aabb_exact(f, &o->aabb)
               : inside ? rp_frustum_contains_aabb(f, &o->aabb)
                        : rp_test_frustum_aabb_conservative(f, &o->aabb);
    case OBB:
        return meets ? rp_test_frustum_obb_exact(f, &o->obb)
               : inside ? rp_frustum_contains_obb(f, &o->obb)
                        : rp_test_frustum_obb_conservative(f, &o->obb);
    case MESH:
        return meets ? rp_test_frustum_mesh_instance_exact(f, cube(), (vec4 *)o->model)
               : inside ? rp_frustum_contains_mesh_instance(f, cube(), (vec4 *)o->model)
                        : rp_test_frustum_mesh_instance_conservative(f, cube(), (vec4 *)o->model);
    case POINT:
        return rp_frustum_contains_point(f, o->pts[0]);
    case SEGMENT:
        return inside ? rp_frustum_contains_polyline(f, &o->pts[0][0], 2, 0)
                      : rp_test_frustum_segment(f, o->pts[0], o->pts[1]);
    default:
        return inside ? rp_frustum_contains_polyline(f, &o->pts[0][0], o->npts, 0)
                      : rp_test_frustum_polyline(f, &o->pts[0][0], o->npts, 0, NULL);
    }
}

static void check_frustum(const rp_scene *s, const object *objs, int n, const rp_frustum *f,
                          const rp_scene_query *q, size_t cap, bool exact)
{
    int got[MAX_OBJECTS + 2], all[MAX_OBJECTS + 2], want[MAX_OBJECTS];
    fuzz_poison(got, sizeof got);
    fuzz_poison(all, sizeof all);
    const size_t total = rp_scene_query_frustum(s, f, q, all, MAX_OBJECTS + 1);
    fuzz_check(total <= (size_t)n, "more objects selected than the scene has");
    fuzz_check(rp_scene_query_frustum(s, f, q, got, cap) == total, "the total depends on cap");
    fuzz_check(rp_scene_query_frustum(s, f, q, NULL, 3) == total, "the total depends on out");
    const size_t written = total < cap ? total : cap;
    fuzz_check(memcmp(got, all, written * sizeof *got) == 0, "a smaller cap lists other objects");
    fuzz_check(fuzz_untouched(got + written, sizeof got - written * sizeof *got),
               "wrote past min(total, cap)");
    fuzz_check(fuzz_untouched(all + total, sizeof all - total * sizeof *all),
               "wrote past the total");
    const bool valid_select = q->select == RP_SELECT_MEETS ||
                              q->select == RP_SELECT_MEETS_CONSERVATIVE ||
                              q->select == RP_SELECT_INSIDE;
    if (!valid_select) {
        fuzz_check(total == 0, "an unknown select selected something");
        return;
    }
    for (size_t k = 0; k < total; k++) {
        fuzz_check(all[k] >= 0 && all[k] < n, "an index past the scene");
        fuzz_check(k == 0 || all[k] > all[k - 1], "not in increasing index order");
        fuzz_check((objs[all[k]].mask & layers_of(q)) != 0, "listed an object on another layer");
    }
    if (!exact)
        return;
    size_t expect = 0;
    for (int i = 0; i < n; i++)
        if ((objs[i].mask & layers_of(q)) != 0 && selected(f, &objs[i], q->select))
            want[expect++] = i;
    if (expect != total || memcmp(all, want, total * sizeof *all) != 0)
        fuzz_fail("frustum query listed %zu objects, the loop %zu (select %d)", total, expect,
                  (int)q->select);
}

static float byte_in(fuzz_input *in, float lo, float hi)
{
    return lo + (hi - lo) * (float)fuzz_u8(in) / 255.0f;
}

/* A frustum from a camera and a rectangle; false when none is made (the
   query must then see what a zero frustum gives: nothing). */
static bool read_frustum(fuzz_input *in, rp_frustum *f)
{
    vec3 eye, target, up = {0, 1, 0};
    fuzz_vec3(in, 1, eye);
    fuzz_vec3(in, 1, target);
    const float near_z = byte_in(in, 0.05f, 5.0f), far_z = near_z * byte_in(in, 10.0f, 5000.0f);
    const float fovy = glm_rad(byte_in(in, 10.0f, 120.0f));
    const uint8_t conv = fuzz_u8(in);
    const rp_viewport vp = {0, 0, 256, 256};
    float r[4];
    for (int i = 0; i < 4; i++)
        r[i] = (float)fuzz_u8(in) * 1.25f - 32.0f;   /* past the edges too */
    mat4 proj, view;
    if (conv & 1) {
        glm_perspective_lh_zo(fovy, 1.0f, near_z, far_z, proj);
        glm_lookat_lh(eye, target, up, view);
    } else {
        glm_perspective_rh_no(fovy, 1.0f, near_z, far_z, proj);
        glm_lookat_rh(eye, target, up, view);
    }
    memset(f, 0, sizeof *f);
    return rp_frustum_from_rect(r[0], r[1], r[2], r[3], &vp, proj, view,
                                (conv & 1) ? RP_D3D : RP_GL, f);
}

/* ---- driver -------------------------------------------------------------- */

static void run_queries(const rp_scene *s, const object *objs, int n, const fuzz_input *queries,
                        int mode)
{
    fuzz_input in = *queries;
    for (int k = 0; k < MAX_QUERIES && in.pos < in.size; k++) {
        rp_scene_query q;
        memset(&q, 0, sizeof q);
        if (fuzz_u8(&in) & 1) {
            rp_ray ray;
            fuzz_vec3(&in, mode, ray.origin);
            fuzz_vec3(&in, mode, ray.dir);
            q.layers = mask_of(fuzz_u8(&in));
            q.t_max = fuzz_float(&in, mode);
            q.any_hit = fuzz_u8(&in) & 1;
            q.thin.world = fuzz_float(&in, mode);
            q.thin.per_t = fuzz_float(&in, mode) / 64.0f;
            check_ray(s, objs, n, &ray, &q, mode == 1);
        } else {
            rp_frustum f;
            const bool made = read_frustum(&in, &f);
            q.select = (rp_scene_select)(fuzz_u8(&in) % 4);   /* 3: unknown */
            q.layers = mask_of(fuzz_u8(&in));
            const size_t cap = fuzz_u8(&in) % (MAX_OBJECTS + 2);
            check_frustum(s, objs, n, &f, &q, cap, mode == 1);
            if (!made)
                fuzz_check(rp_scene_query_frustum(s, &f, &q, NULL, 0) == 0,
                           "a zero frustum selected something");
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_watchdog();
    fuzz_input in = {data, size, 0};
    const int mode = fuzz_u8(&in) % 3;
    const int count = fuzz_u8(&in) % (MAX_OBJECTS + 1);
    rp_scene *s = rp_scene_create();
    fuzz_check(s != NULL, "rp_scene_create failed");

    object built[MAX_OBJECTS], now[MAX_OBJECTS];
    int n = 0;
    for (int i = 0; i < count; i++) {
        object o;
        read_object(&in, mode, (enum kind)(fuzz_u8(&in) % KINDS), &o);
        const uint8_t mb = fuzz_u8(&in);
        const int idx = add(s, &o);
        if (idx != -1 && idx != n)
            fuzz_fail("add returned %d, expected -1 or %d", idx, n);
        if (idx < 0)
            continue;
        o.mask = UINT32_MAX;
        if (mb != 0) {
            o.mask = mask_of(mb);
            fuzz_check(rp_scene_set_mask(s, idx, o.mask), "set_mask refused a good index");
        }
        now[n++] = o;
    }
    fuzz_check(rp_scene_build(s), "build failed");
    memcpy(built, now, sizeof now);

    const int moves = fuzz_u8(&in) % (MAX_MOVES + 1);
    for (int m = 0; m < moves; m++) {
        const int i = (int)fuzz_u8(&in) % (MAX_OBJECTS + 1) - 1;
        object o;
        read_object(&in, mode, (enum kind)(fuzz_u8(&in) % KINDS), &o);
        const uint8_t mb = fuzz_u8(&in);
        const bool ok = set(s, i, &o);
        if (i < 0 || i >= n || now[i].kind != o.kind)
            fuzz_check(!ok, "set accepted a wrong index or kind");
        if (ok) {
            o.mask = now[i].mask;
            now[i] = o;
        }
        if (i >= 0 && i < n && mb != 0) {
            now[i].mask = mask_of(mb);
            fuzz_check(rp_scene_set_mask(s, i, now[i].mask), "set_mask refused a good index");
        }
    }
    fuzz_check(!rp_scene_set_mask(s, n, 1u) && !rp_scene_set_mask(s, -1, 1u),
               "set_mask accepted a wrong index");
    /* changes are invisible until the build, then seen */
    run_queries(s, built, n, &in, mode);
    fuzz_check(rp_scene_build(s), "build failed");
    run_queries(s, now, n, &in, mode);
    rp_scene_destroy(s);
    return 0;
}

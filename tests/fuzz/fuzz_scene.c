/* fuzz_scene.c: scenes built, moved and queried from fuzz bytes, every
   answer checked against a brute-force loop over the objects' own ray
   functions (nearest t, lowest index on ties; out equal to that object's).

   Input: byte 0 picks how floats are read (raw bits, tame numbers, tame
   with an odd raw one), byte 1 the number of objects (0..24); per object
   a kind byte and its floats (a mesh instance: 16 floats of model
   matrix); then a byte of moves (0..8), each an index byte and the new
   object's floats; then rays (6 floats each) until the input ends (at
   most 8). A unit cube mesh is shared by every instance. */
#include "fuzz_common.h"
#include "../random_scene.h"

#define MAX_OBJECTS 24
#define MAX_MOVES 8
#define MAX_RAYS 8

static rp_mesh *cube(void)
{
    static rp_mesh *mesh;
    if (mesh == NULL)
        mesh = rs_cube_mesh();
    if (mesh == NULL)
        fuzz_fail("cannot create the cube mesh");
    return mesh;
}

static void read_object(fuzz_input *in, int mode, rs_kind k, rs_object *o)
{
    memset(o, 0, sizeof *o);
    o->kind = k;
    switch (k) {
    case RS_SPHERE:
        fuzz_vec3(in, mode, o->sphere.center);
        o->sphere.radius = fuzz_float(in, mode);
        break;
    case RS_ELLIPSOID:
        fuzz_vec3(in, mode, o->ellipsoid.center);
        fuzz_vec3(in, mode, o->ellipsoid.radii);
        if (fuzz_u8(in) & 1) {      /* a unit quaternion, or raw values */
            vec3 axis;
            fuzz_vec3(in, 1, axis);
            glm_quatv(o->ellipsoid.orientation, fuzz_float(in, 1), axis);
            glm_quat_normalize(o->ellipsoid.orientation);
        } else {
            for (int i = 0; i < 4; i++)
                o->ellipsoid.orientation[i] = fuzz_float(in, mode);
        }
        break;
    case RS_AABB:
        fuzz_vec3(in, mode, o->aabb.min);
        fuzz_vec3(in, mode, o->aabb.max);
        break;
    case RS_OBB:
        fuzz_vec3(in, mode, o->obb.center);
        fuzz_vec3(in, mode, o->obb.half_extents);
        for (int i = 0; i < 4; i++)
            o->obb.orientation[i] = fuzz_float(in, mode);
        break;
    default:
        fuzz_mat4(in, mode, o->model);
        if (fuzz_u8(in) & 1) {      /* mostly affine: the interesting case */
            o->model[0][3] = o->model[1][3] = o->model[2][3] = 0.0f;
            o->model[3][3] = 1.0f;
        }
        break;
    }
}

/* The scene's answer against the loop over objs[0 .. n).

   With tame numbers (mode 1: every value a few bits of mantissa between
   2^-9 and 2^13) the scene must pick exactly the loop's object. With raw
   float bits (modes 0 and 2: values from 1e-45 to 3e38 side by side) the
   objects' own functions round beyond what any fixed bounding box can
   cover (an OBB 1e-27 thick beside coordinates of 1e9: docs/reliability.md,
   F5), so there the scene's pick must be a true answer of that object's
   own function, or a miss, but need not be the loop's nearest. */
static void check_query(const rp_scene *s, const rp_ray *ray, rs_object *objs, int n, bool exact)
{
    rp_hit got, want;
    rp_triangle_hit got_tri, want_tri;
    fuzz_poison(&got, sizeof got);
    fuzz_poison(&got_tri, sizeof got_tri);
    int i = rp_intersect_ray_scene(s, ray, &got, &got_tri);
    int best = rs_nearest(ray, cube(), objs, n, &want, &want_tri);
    if (i != best && exact)
        fuzz_fail("scene picked %d, the loop over the objects %d", i, best);
    if (i != best && i >= 0) {
        /* raw mode: compare with what object i's own function says */
        rp_triangle_hit th;
        fuzz_check(rs_hit(ray, cube(), &objs[i], &want, &th), "scene picked an object its function misses");
        if (objs[i].kind == RS_MESH)
            want_tri = th;
    }
    fuzz_check(rp_intersect_ray_scene(s, ray, NULL, NULL) == i, "NULL out changes the answer");
    rp_scene_visit visits[16];
    rp_scene_trace trace = {visits, 16, 0, 0, 0, 0, 0};
    fuzz_check(rp_intersect_ray_scene_traced(s, ray, &trace, NULL, NULL) == i, "tracing changes the answer");
    if (trace.visit_count != trace.nodes_visited + trace.leaves_visited ||
        trace.objects_tested < trace.leaves_visited || trace.objects_tested > n ||
        (i >= 0 && trace.leaves_visited < 1))
        fuzz_fail("trace counts disagree: %d visits, %d nodes, %d leaves, %d objects", trace.visit_count,
                  trace.nodes_visited, trace.leaves_visited, trace.objects_tested);
    if (i < 0) {
        fuzz_check(fuzz_untouched(&got, sizeof got), "miss wrote to *out");
        fuzz_check(fuzz_untouched(&got_tri, sizeof got_tri), "miss wrote to *tri");
        return;
    }
    fuzz_check(got.t == want.t && got.t_enter == want.t_enter && got.t_exit == want.t_exit,
               "hit differs from the object's own function");
    fuzz_check(memcmp(got.point, want.point, sizeof got.point) == 0 &&
               memcmp(got.normal, want.normal, sizeof got.normal) == 0 &&
               got.inside == want.inside, "hit differs from the object's own function");
    if (objs[i].kind == RS_MESH)
        fuzz_check(memcmp(&got_tri, &want_tri, sizeof got_tri) == 0, "tri differs");
    else
        fuzz_check(fuzz_untouched(&got_tri, sizeof got_tri), "non-mesh hit wrote to *tri");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_watchdog();
    fuzz_input in = {data, size, 0};
    int mode = fuzz_u8(&in) % 3;
    int count = fuzz_u8(&in) % (MAX_OBJECTS + 1);
    rp_scene *s = rp_scene_create();
    fuzz_check(s != NULL, "rp_scene_create failed");

    /* built: the objects as the last build saw them; now: as added/moved */
    rs_object built[MAX_OBJECTS], now[MAX_OBJECTS];
    int n = 0;
    for (int i = 0; i < count; i++) {
        rs_object o;
        read_object(&in, mode, (rs_kind)(fuzz_u8(&in) % RS_KINDS), &o);
        int idx = rs_add(s, cube(), &o);
        if (idx != -1 && idx != n)
            fuzz_fail("add returned %d, expected -1 or %d", idx, n);
        if (idx >= 0)
            now[n++] = o;
    }
    fuzz_check(rp_scene_build(s), "build failed");
    memcpy(built, now, sizeof now);

    int moves = fuzz_u8(&in) % (MAX_MOVES + 1);
    for (int m = 0; m < moves; m++) {
        int i = (int)fuzz_u8(&in) % (MAX_OBJECTS + 1) - 1;    /* -1 .. 23 */
        rs_object o;
        read_object(&in, mode, (rs_kind)(fuzz_u8(&in) % RS_KINDS), &o);
        bool ok = rs_set(s, i, &o);
        if (i < 0 || i >= n || now[i].kind != o.kind)
            fuzz_check(!ok, "set accepted a wrong index or kind");
        if (ok)
            now[i] = o;
    }

    rp_ray rays[MAX_RAYS];
    int nrays = 0;
    while (nrays < MAX_RAYS && in.pos < in.size) {
        fuzz_vec3(&in, mode, rays[nrays].origin);
        fuzz_vec3(&in, mode, rays[nrays].dir);
        nrays++;
    }
    /* moves are invisible until the build, then seen */
    for (int r = 0; r < nrays; r++)
        check_query(s, &rays[r], built, n, mode == 1);
    fuzz_check(rp_scene_build(s), "build failed");
    for (int r = 0; r < nrays; r++)
        check_query(s, &rays[r], now, n, mode == 1);
    rp_scene_destroy(s);
    return 0;
}

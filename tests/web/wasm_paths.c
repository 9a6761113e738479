/*
 * wasm_paths.c: the library's answers in WebAssembly, with SIMD and
 * without. scripts/web --test builds this program and the library twice
 * (emcc -msimd128 -msse2: the SSE2 paths as 128-bit wasm operations, as
 * the web build ships them; and plain C), runs both under Node and
 * compares what they print: every line must be the same.
 *
 * Each line is one kind of query over many rays: how many hit, and a
 * digest (FNV-1a) of every answer's bits: the object or triangle, t, the
 * point and the normal. The queries are the ones with SSE2 paths: a
 * mesh's closest and any hit (the BVH walk, the triangle packets), a
 * scene's picks before and after every object moved (the walk, the
 * refit), its frustum selection, and the many-sphere filter.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <raypick/raypick.h>

#include "../../bench/knot.h"
#include "../random_scene.h"   /* the generator, the objects */

/* ---- the digest ---------------------------------------------------------- */

typedef struct digest {
    uint64_t h;
    long     hits, queries;
} digest;

static void eat(digest *d, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        d->h = (d->h ^ b[i]) * 0x100000001b3ULL;
}

static void eat_hit(digest *d, int index, const rp_hit *h)
{
    d->queries++;
    eat(d, &index, sizeof index);
    if (index < 0)
        return;
    d->hits++;
    eat(d, &h->t, sizeof h->t);
    eat(d, h->point, sizeof h->point);
    eat(d, h->normal, sizeof h->normal);
}

static void print(const char *what, const digest *d)
{
    printf("%s: %ld of %ld hit, digest %016llx\n", what, d->hits, d->queries,
           (unsigned long long)d->h);
}

/* ---- rays ---------------------------------------------------------------- */

static rs_rng rng = {0x2545f4914f6cdd1dULL};

static double uniform(double lo, double hi) { return rs_uniform(&rng, lo, hi); }

static rp_ray ray_towards(double r) { return rs_ray_towards(&rng, r); }

/* ---- the queries --------------------------------------------------------- */

enum { RAYS = 4000 };

static void mesh_queries(void)
{
    mesh k = make_knot(600, 30, 0.3);
    rp_mesh *m = rp_mesh_create(k.pos, k.nv, 0, k.idx, k.nt);
    if (m == NULL) {
        printf("mesh: rp_mesh_create failed\n");
        exit(1);
    }
    digest closest = {0xcbf29ce484222325ULL, 0, 0}, any = closest;
    for (int i = 0; i < RAYS; i++) {
        const rp_ray ray = ray_towards(3.5);
        rp_hit h;
        rp_triangle_hit tri;
        const int got = rp_intersect_ray_mesh(m, &ray, &h, &tri) ? (int)tri.triangle : -1;
        eat_hit(&closest, got, &h);
        if (got >= 0) {
            eat(&closest, &tri.u, sizeof tri.u);
            eat(&closest, &tri.v, sizeof tri.v);
        }
        /* t = 1 is the point the ray was aimed at */
        const int hit = rp_test_ray_mesh(m, &ray, (float)uniform(0.2, 1.0)) ? 1 : 0;
        any.queries++;
        any.hits += hit;
        eat(&any, &hit, sizeof hit);
    }
    char what[64];
    snprintf(what, sizeof what, "mesh of %zu triangles, closest hit", k.nt);
    print(what, &closest);
    print("mesh, any hit before a random t", &any);
    rp_mesh_destroy(m);
    free(k.pos);
    free(k.idx);
}

/* A quaternion of a random rotation (normalised). */
static void random_versor(versor q)
{
    float n = 0.0f;
    for (int a = 0; a < 4; a++) {
        q[a] = (float)uniform(-1.0, 1.0);
        n += q[a] * q[a];
    }
    n = sqrtf(n);
    for (int a = 0; a < 4; a++)
        q[a] /= n;
}

/* Object i of the scene: spheres, ellipsoids, boxes and oriented boxes in
   turn, and every 250th a knot instance. */
static void add_object(rp_scene *s, int i, const rp_mesh *knot)
{
    const float c[3] = {(float)uniform(-100, 100), (float)uniform(-100, 100),
                        (float)uniform(-100, 100)};
    const float r = (float)uniform(0.2, 1.5);
    rs_object o;
    switch (i % 5) {
    case 0:
        o.kind = RS_SPHERE;
        o.sphere = (rp_sphere){{c[0], c[1], c[2]}, r};
        break;
    case 1:
        o.kind = RS_ELLIPSOID;
        o.ellipsoid = (rp_ellipsoid){{c[0], c[1], c[2]}, {r, 0.5f * r, 0.3f * r}, {0, 0, 0, 1}};
        random_versor(o.ellipsoid.orientation);
        break;
    case 2:
        o.kind = RS_AABB;
        o.aabb = (rp_aabb){{c[0] - r, c[1] - r, c[2] - 0.5f * r}, {c[0] + r, c[1] + 0.5f * r, c[2] + r}};
        break;
    case 3:
        o.kind = RS_OBB;
        o.obb = (rp_obb){{c[0], c[1], c[2]}, {r, 0.4f * r, 0.7f * r}, {0, 0, 0, 1}};
        random_versor(o.obb.orientation);
        break;
    default:
        if (i % 250 == 4) {   /* a knot, scaled and placed */
            o.kind = RS_MESH;
            glm_mat4_identity(o.model);
            glm_translate(o.model, (vec3){c[0], c[1], c[2]});
            glm_scale_uni(o.model, r);
        } else {
            o.kind = RS_SPHERE;
            o.sphere = (rp_sphere){{c[0], c[1], c[2]}, 0.5f * r};
        }
        break;
    }
    if (rs_add(s, knot, &o) < 0) {
        printf("scene: adding object %d failed\n", i);
        exit(1);
    }
}

static void scene_picks(const rp_scene *s, const char *what)
{
    digest d = {0xcbf29ce484222325ULL, 0, 0};
    for (int i = 0; i < RAYS; i++) {
        const rp_ray ray = ray_towards(100.0);
        rp_hit h;
        eat_hit(&d, rp_intersect_ray_scene(s, &ray, &h, NULL), &h);
    }
    print(what, &d);
}

static void scene_queries(void)
{
    enum { OBJECTS = 20000 };
    mesh k = make_knot(100, 12, 0.3);
    rp_mesh *knot = rp_mesh_create(k.pos, k.nv, 0, k.idx, k.nt);
    rp_scene *s = rp_scene_create();
    if (knot == NULL || s == NULL) {
        printf("scene: out of memory\n");
        exit(1);
    }
    for (int i = 0; i < OBJECTS; i++)
        add_object(s, i, knot);
    if (!rp_scene_build(s)) {
        printf("scene: rp_scene_build failed\n");
        exit(1);
    }
    scene_picks(s, "scene of 20000 objects, picks");

    /* every sphere and box moved a little: the refit */
    for (int i = 0; i < OBJECTS; i += 5) {
        rp_sphere sp = {{(float)uniform(-100, 100), (float)uniform(-100, 100),
                         (float)uniform(-100, 100)}, (float)uniform(0.2, 1.5)};
        rp_aabb b = {{sp.center[0] - 1, sp.center[1] - 1, sp.center[2] - 1},
                     {sp.center[0] + 1, sp.center[1] + 1, sp.center[2] + 1}};
        if (!rp_scene_set_sphere(s, i, &sp) || !rp_scene_set_aabb(s, i + 2, &b)) {
            printf("scene: moving object %d failed\n", i);
            exit(1);
        }
    }
    if (!rp_scene_build(s)) {
        printf("scene: the refit failed\n");
        exit(1);
    }
    scene_picks(s, "scene after the refit, picks");

    /* rectangles on a camera's screen */
    mat4 proj, view;
    glm_perspective(glm_rad(60.0f), 1.5f, 0.1f, 1000.0f, proj);
    glm_lookat((vec3){0, 0, 250}, (vec3){0, 0, 0}, (vec3){0, 1, 0}, view);
    const rp_viewport vp = {0, 0, 1200, 800};
    static int picked[OBJECTS];
    digest d = {0xcbf29ce484222325ULL, 0, 0};
    for (int i = 0; i < 200; i++) {
        const float x0 = (float)uniform(0, 1200), y0 = (float)uniform(0, 800);
        const float x1 = x0 + (float)uniform(1, 300), y1 = y0 + (float)uniform(1, 300);
        rp_frustum f;
        if (!rp_frustum_from_rect(x0, y0, x1, y1, &vp, proj, view, RP_GL, &f)) {
            printf("scene: rp_frustum_from_rect failed\n");
            exit(1);
        }
        const size_t n = rp_scene_query_frustum(s, &f, NULL, picked, OBJECTS);
        d.queries++;
        d.hits += n > 0;
        eat(&d, &n, sizeof n);
        eat(&d, picked, (n < OBJECTS ? n : OBJECTS) * sizeof picked[0]);
    }
    print("scene, frustum of a screen rectangle", &d);
    rp_scene_destroy(s);
    rp_mesh_destroy(knot);
    free(k.pos);
    free(k.idx);
}

static void sphere_filter(void)
{
    enum { SPHERES = 100000 };
    rp_sphere *sp = malloc(SPHERES * sizeof *sp);
    if (sp == NULL) {
        printf("spheres: out of memory\n");
        exit(1);
    }
    for (int i = 0; i < SPHERES; i++) {
        for (int a = 0; a < 3; a++)
            sp[i].center[a] = (float)uniform(-100, 100);
        sp[i].radius = (float)uniform(0.05, 0.5);
    }
    digest d = {0xcbf29ce484222325ULL, 0, 0};
    for (int i = 0; i < 300; i++) {
        const rp_ray ray = ray_towards(100.0);
        rp_hit h;
        eat_hit(&d, rp_intersect_ray_spheres(&ray, sp, SPHERES, &h), &h);
    }
    print("100000 spheres, no tree", &d);
    free(sp);
}

int main(void)
{
    mesh_queries();
    scene_queries();
    sphere_filter();
    return 0;
}

/* fuzz_model.c: --mesh's loader (src/app/model_load.c) with its budget on,
   fed any bytes as a model file: the guard (model_guard.c) first, then
   assimp for .x, .gltf, .glb, .ply and .stl, our reader for .obj, then
   the flattening, fitting and normals lesson 5 gets.

   Input: byte 0 picks the file's extension (so its format: FORMATS below),
   the rest is the file. The name's folder does not exist, so a .gltf's
   relative buffer URIs name no file.

   Checked: no crash, no sanitizer report, no hang (fuzz_watchdog), no single
   allocation above the budget (libFuzzer's -malloc_limit_mb, which
   tests/fuzz/meson.build sets to FUZZ_MODEL_BUDGET_MIB: a lie that gets past
   the guard to an allocation for its declared size is a finding). On
   failure: the output untouched, a message that names the file, is
   terminated and fits err. On success: at least one triangle, at most
   MODEL_LOAD_MAX_TRIANGLES, the flattened mesh within the budget, every
   index in range, every used vertex finite and inside the fitting box,
   unit normals; the library takes the mesh and a pick through it answers
   with numbers and a triangle that exists. Then the same bytes with a
   budget one byte smaller than the mesh they made are refused, naming the
   limit (--load-limit): the budget is what the model takes, not a guess.

   assimp itself is Debian's, not built with the fuzzer's coverage: the
   search is guided by our code (the guard, the flattening); assimp's
   crashes and allocations are caught all the same. */
#include "fuzz_common.h"

#include "model_load.h"

/* The loader's budget here (the program's --load-limit minimum is 16 MiB,
   its default 1 GiB): small, so libFuzzer's allocation limit can be it. */
#ifndef FUZZ_MODEL_BUDGET_MIB
#define FUZZ_MODEL_BUDGET_MIB 64
#endif
#define BUDGET ((long long)FUZZ_MODEL_BUDGET_MIB << 20)
#define RADIUS 1.5f

static const char *const FORMATS[] = {
    "/nonexistent-raypick-fuzz/model.x",   "/nonexistent-raypick-fuzz/model.gltf",
    "/nonexistent-raypick-fuzz/model.glb", "/nonexistent-raypick-fuzz/model.ply",
    "/nonexistent-raypick-fuzz/model.stl", "/nonexistent-raypick-fuzz/model.obj",
};
#define FORMAT_COUNT (sizeof FORMATS / sizeof FORMATS[0])

static unsigned long long mesh_bytes(const mesh_data *m)
{
    return (unsigned long long)m->vertex_count * sizeof(mesh_vertex) +
           (unsigned long long)m->triangle_count * 3 * sizeof(uint32_t);
}

static void check_failure(const char *path, const mesh_data *m, const char *err, size_t err_size)
{
    fuzz_check(fuzz_untouched(m, sizeof *m), "the mesh was written on failure");
    fuzz_check(memchr(err, '\0', err_size) != NULL, "message not terminated");
    size_t n = strlen(path) < err_size - 1 ? strlen(path) : err_size - 1;
    if (strncmp(err, path, n) != 0)
        fuzz_fail("the message does not name the file: '%s'", err);
}

static void check_mesh(const mesh_data *m)
{
    if (m->triangle_count < 1 || m->triangle_count > MODEL_LOAD_MAX_TRIANGLES)
        fuzz_fail("%zu triangles", m->triangle_count);
    if (mesh_bytes(m) > (unsigned long long)BUDGET)
        fuzz_fail("the mesh takes %llu bytes, over the %lld budget", mesh_bytes(m), BUDGET);
    for (size_t i = 0; i < 3 * m->triangle_count; ++i) {
        uint32_t v = m->indices[i];
        if (v >= m->vertex_count)
            fuzz_fail("index %u of %zu vertices", (unsigned)v, m->vertex_count);
        const mesh_vertex *p = &m->vertices[v];
        if (!fuzz_vec3_finite(p->p) || !fuzz_vec3_moderate(p->p, RADIUS * 1.001f))
            fuzz_fail("vertex %u outside the fitted box", (unsigned)v);
    }
    for (size_t i = 0; i < m->vertex_count; ++i) {
        const float *n = m->vertices[i].n;
        float len = sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        if (!(fabsf(len - 1.0f) < 1e-3f))
            fuzz_fail("vertex %zu: normal length %g", i, (double)len);
    }
}

/* What lesson 5 does next: the library's mesh and a pick. */
static void pick_mesh(const mesh_data *m)
{
    rp_mesh *mesh = rp_mesh_create(m->vertices[0].p, m->vertex_count, sizeof(mesh_vertex), m->indices,
                                   m->triangle_count);
    fuzz_check(mesh != NULL, "the library refused a loaded mesh");
    const rp_ray rays[2] = {{{0.0f, 0.0f, 5.0f}, {0.0f, 0.0f, -1.0f}}, {{0.3f, 5.0f, 0.2f}, {0.0f, -1.0f, 0.0f}}};
    for (int i = 0; i < 2; ++i) {
        rp_hit hit;
        rp_triangle_hit tri;
        if (rp_intersect_ray_mesh(mesh, &rays[i], &hit, &tri)) {
            fuzz_check_hit(&hit);
            if (tri.triangle >= m->triangle_count)
                fuzz_fail("hit triangle %u of %zu", (unsigned)tri.triangle, m->triangle_count);
        }
    }
    rp_mesh_destroy(mesh);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_watchdog();
    if (size < 1)
        return 0;
    const char *path = FORMATS[data[0] % FORMAT_COUNT];
    enum { ERR_SIZE = 120 };
    char err[ERR_SIZE + 8];
    memset(err, 0x7f, sizeof err);
    mesh_data m;
    fuzz_poison(&m, sizeof m);
    bool ok = model_load_bytes(path, data + 1, size - 1, RADIUS, BUDGET, &m, err, ERR_SIZE);
    for (size_t i = ERR_SIZE; i < sizeof err; i++)
        fuzz_check(err[i] == 0x7f, "message written past err_size");
    if (!ok) {
        check_failure(path, &m, err, ERR_SIZE);
        return 0;
    }
    check_mesh(&m);
    pick_mesh(&m);

    /* one byte less than the mesh took: refused, and the message says why */
    long long tight = (long long)mesh_bytes(&m) - 1;
    mesh_data_free(&m);
    if (tight > 0) {
        char why[512];
        mesh_data again;
        fuzz_poison(&again, sizeof again);
        if (model_load_bytes(path, data + 1, size - 1, RADIUS, tight, &again, why, sizeof why))
            fuzz_fail("loaded within %lld bytes, one less than its mesh takes", tight);
        fuzz_check(fuzz_untouched(&again, sizeof again), "the mesh was written on failure");
        if (!strstr(why, "--load-limit"))
            fuzz_fail("refused within %lld bytes without naming the limit: '%s'", tight, why);
    }
    return 0;
}

/* fuzz_obj.c: --mesh's .obj reader (src/app/obj_read.c) fed any bytes, as
   the demo feeds it a file's contents, then the demo's next steps
   (mesh_data_fit, mesh_data_compute_normals, rp_mesh_create, a pick).

   Checked: no crash, no sanitizer report, no hang, no allocation beyond
   libFuzzer's -malloc_limit_mb; on failure the output untouched and a
   message that names the data, is terminated and fits err (a short buffer
   with a canary after it); on success at least one triangle, every index
   in range, vertices numbered in the order the triangles first use them
   (so none is unused), finite positions and texture coordinates, zero
   normals; then a fitted mesh lies in the fitting box with unit normals,
   the library takes it, and a ray through it answers with numbers and a
   triangle that exists. */
#include "fuzz_common.h"

#include "obj_read.h"

#define NAME "fuzz.obj"

static void check_failure(const mesh_data *m, const char *err, size_t err_size)
{
    fuzz_check(fuzz_untouched(m, sizeof *m), "the mesh was written on failure");
    fuzz_check(memchr(err, '\0', err_size) != NULL, "message not terminated");
    if (strncmp(err, NAME ":", strlen(NAME) + 1) != 0 || strlen(err) <= strlen(NAME) + 2)
        fuzz_fail("the message does not name the data and a problem: '%s'", err);
}

static void check_mesh(const mesh_data *m)
{
    fuzz_check(m->triangle_count >= 1, "success without a triangle");
    if (m->vertex_count < 1 || m->vertex_count > 3 * m->triangle_count)
        fuzz_fail("%zu vertices for %zu triangles", m->vertex_count, m->triangle_count);
    uint32_t next_new = 0;      /* vertices appear in first-use order */
    for (size_t i = 0; i < 3 * m->triangle_count; ++i) {
        uint32_t v = m->indices[i];
        if (v >= m->vertex_count)
            fuzz_fail("index %u of %zu vertices", (unsigned)v, m->vertex_count);
        if (v > next_new)
            fuzz_fail("vertex %u used before vertex %u", (unsigned)v, (unsigned)next_new);
        if (v == next_new)
            ++next_new;
    }
    if (next_new != m->vertex_count)
        fuzz_fail("%zu vertices, %u used", m->vertex_count, (unsigned)next_new);
    for (size_t i = 0; i < m->vertex_count; ++i) {
        const mesh_vertex *v = &m->vertices[i];
        if (!fuzz_vec3_finite(v->p) || !isfinite(v->tu) || !isfinite(v->tv))
            fuzz_fail("vertex %zu: a position or texture coordinate that is not finite", i);
        if (v->n[0] != 0.0f || v->n[1] != 0.0f || v->n[2] != 0.0f)
            fuzz_fail("vertex %zu: a normal the reader should leave zero", i);
    }
}

/* What lesson 5 does with a loaded model: fit, normals, the library's
   mesh, a pick through the middle. */
static void use_mesh(mesh_data *m)
{
    const float radius = 1.5f;
    if (!mesh_data_fit(m, radius))
        return;     /* all points equal: the demo says so */
    fuzz_check(mesh_data_compute_normals(m), "normals of a checked mesh");
    for (size_t i = 0; i < m->vertex_count; ++i) {
        const mesh_vertex *v = &m->vertices[i];
        if (!fuzz_vec3_finite(v->p) || !fuzz_vec3_moderate(v->p, radius * 1.001f))
            fuzz_fail("vertex %zu outside the fitted box", i);
        float len = sqrtf(v->n[0] * v->n[0] + v->n[1] * v->n[1] + v->n[2] * v->n[2]);
        if (!(fabsf(len - 1.0f) < 1e-3f))
            fuzz_fail("vertex %zu: normal length %g", i, (double)len);
    }
    rp_mesh *mesh = rp_mesh_create(m->vertices[0].p, m->vertex_count, sizeof(mesh_vertex), m->indices,
                                   m->triangle_count);
    fuzz_check(mesh != NULL, "the library refused a loaded mesh");
    fuzz_check(rp_mesh_triangle_count(mesh) == m->triangle_count, "triangle count");
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
    enum { ERR_SIZE = 40 };
    char err[ERR_SIZE + 8];
    memset(err, 0x7f, sizeof err);
    mesh_data m;
    fuzz_poison(&m, sizeof m);
    bool ok = obj_read(data, size, NAME, &m, err, ERR_SIZE);
    for (size_t i = ERR_SIZE; i < sizeof err; i++)
        fuzz_check(err[i] == 0x7f, "message written past err_size");
    if (!ok) {
        check_failure(&m, err, ERR_SIZE);
        return 0;
    }
    fuzz_check(err[0] == 0x7f, "a message on success");
    check_mesh(&m);
    use_mesh(&m);
    mesh_data_free(&m);

    /* no room for a message, no name: the same answer, no crash */
    mesh_data again;
    fuzz_check(obj_read(data, size, NULL, &again, NULL, 0), "the same bytes refused the second time");
    mesh_data_free(&again);
    return 0;
}

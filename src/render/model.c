/* model.c: a user's triangle mesh on the GPU, drawn lit with a tu/tv
   checker, and highlighted triangles drawn from its own index buffer. */
#include "render_model_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shaders.h"

static bool fits_gl(size_t vertex_count, size_t stride, size_t triangle_count)
{
    /* GLsizeiptr / GLsizei limits, with room for the products */
    return vertex_count > 0 && vertex_count <= (size_t)1 << 26 && stride >= 32 && stride <= 256 &&
           stride % 4 == 0 && triangle_count > 0 && triangle_count <= (size_t)1 << 26;
}

static bool copy_corners(render_model *m, const unsigned char *v, size_t stride, const uint32_t *idx)
{
    m->corners = malloc(m->triangle_count * 9 * sizeof *m->corners);
    if (!m->corners)
        return false;
    for (size_t i = 0; i < 3 * m->triangle_count; ++i)
        memcpy(&m->corners[3 * i], v + (size_t)idx[i] * stride, 3 * sizeof(float));
    return true;
}

render_model *render_model_create(renderer *r, const void *vertices, size_t vertex_count,
                                  size_t stride, const uint32_t *indices, size_t triangle_count,
                                  char *err, size_t err_size)
{
    (void)r;
    if (!vertices || !indices || !fits_gl(vertex_count, stride, triangle_count)) {
        snprintf(err, err_size, "model: bad mesh (%zu vertices, stride %zu, %zu triangles)",
                 vertex_count, stride, triangle_count);
        return NULL;
    }
    for (size_t i = 0; i < 3 * triangle_count; ++i) {
        if (indices[i] >= vertex_count) {
            snprintf(err, err_size, "model: index %zu is %u, past the %zu vertices", i,
                     (unsigned)indices[i], vertex_count);
            return NULL;
        }
    }
    render_model *m = calloc(1, sizeof *m);
    if (!m || (m->triangle_count = triangle_count, !copy_corners(m, vertices, stride, indices))) {
        free(m);
        snprintf(err, err_size, "model: out of memory");
        return NULL;
    }
    m->lit_program = render_link_program(shader_model_vert, shader_model_frag, "model", err, err_size);
    m->solid_program = m->lit_program ? render_link_program(shader_solid_vert, shader_solid_frag, "solid", err, err_size) : 0;
    if (!m->solid_program) {
        render_model_destroy(m);
        return NULL;
    }
    glGenVertexArrays(1, &m->vao);
    glGenBuffers(1, &m->vbo);
    glGenBuffers(1, &m->ibo);
    glBindVertexArray(m->vao);
    glBindBuffer(GL_ARRAY_BUFFER, m->vbo);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(vertex_count * stride), vertices, GL_STATIC_DRAW);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, m->ibo);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, (GLsizeiptr)(3 * triangle_count * sizeof(uint32_t)), indices,
                 GL_STATIC_DRAW);
    render_float_attribute(0, 3, stride, 0);     /* position */
    render_float_attribute(1, 3, stride, 12);    /* normal */
    render_float_attribute(2, 2, stride, 24);    /* tu tv */
    glBindVertexArray(0);
    if (glGetError() != GL_NO_ERROR) {
        snprintf(err, err_size, "model: the GL driver refused the buffers");
        render_model_destroy(m);
        return NULL;
    }
    return m;
}

void render_model_destroy(render_model *m)
{
    if (!m)
        return;
    glDeleteVertexArrays(1, &m->vao);
    glDeleteBuffers(1, &m->vbo);
    glDeleteBuffers(1, &m->ibo);
    glDeleteVertexArrays(1, &m->flat_vao);
    glDeleteBuffers(1, &m->flat_vbo);
    glDeleteBuffers(1, &m->flat_ids);
    glDeleteProgram(m->lit_program);
    glDeleteProgram(m->solid_program);
    free(m->corners);
    free(m);
}

size_t render_model_triangle_count(const render_model *m)
{
    return m ? m->triangle_count : 0;
}

bool render_model_flat_ids(render_model *m)
{
    if (m->flat_vao)
        return true;
    if (!m->corners)
        return false;
    size_t n = 3 * m->triangle_count;
    uint32_t *ids = malloc(n * sizeof *ids);
    if (!ids)
        return false;
    for (size_t i = 0; i < n; ++i)
        ids[i] = (uint32_t)(i / 3);
    glGenVertexArrays(1, &m->flat_vao);
    glGenBuffers(1, &m->flat_vbo);
    glGenBuffers(1, &m->flat_ids);
    glBindVertexArray(m->flat_vao);
    glBindBuffer(GL_ARRAY_BUFFER, m->flat_vbo);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(n * 3 * sizeof(float)), m->corners, GL_STATIC_DRAW);
    render_float_attribute(0, 3, 3 * sizeof(float), 0);
    glBindBuffer(GL_ARRAY_BUFFER, m->flat_ids);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(n * sizeof(uint32_t)), ids, GL_STATIC_DRAW);
    glEnableVertexAttribArray(3);
    glVertexAttribIPointer(3, 1, GL_UNSIGNED_INT, sizeof(uint32_t), (void *)0);
    glBindVertexArray(0);
    free(ids);
    return glGetError() == GL_NO_ERROR;
}

static void normal_matrix(mat4 model, mat3 out)
{
    mat4 inv;
    glm_mat4_inv(model, inv);
    glm_mat4_transpose(inv);
    glm_mat4_pick3(inv, out);
}

void render_model_draw(renderer *r, const render_model *m, mat4 model, const vec4 color, float checks,
                       bool two_sided)
{
    if (!m)
        return;
    GLuint p = m->lit_program;
    mat3 nm;
    normal_matrix(model, nm);
    glUseProgram(p);
    glUniformMatrix4fv(glGetUniformLocation(p, "u_model"), 1, GL_FALSE, model[0]);
    glUniformMatrix3fv(glGetUniformLocation(p, "u_normal_matrix"), 1, GL_FALSE, nm[0]);
    glUniformMatrix4fv(glGetUniformLocation(p, "u_view_proj"), 1, GL_FALSE, (const float *)r->view.view_proj);
    glUniform3fv(glGetUniformLocation(p, "u_eye"), 1, r->view.eye);
    glUniform3fv(glGetUniformLocation(p, "u_light_dir"), 1, r->light_dir);
    glUniform4fv(glGetUniformLocation(p, "u_color"), 1, color);
    glUniform1f(glGetUniformLocation(p, "u_checks"), checks);
    glDisable(GL_BLEND);
    /* a model from a file may be open or wound either way: both sides;
       a closed mesh wound outward: its back faces never show */
    if (two_sided)
        glDisable(GL_CULL_FACE);
    glBindVertexArray(m->vao);
    glDrawElements(GL_TRIANGLES, (GLsizei)(3 * m->triangle_count), GL_UNSIGNED_INT, NULL);
    glEnable(GL_CULL_FACE);
}

void render_model_highlight(renderer *r, const render_model *m, mat4 model, const uint32_t *triangles,
                            size_t count, const vec4 fill, const vec4 edge)
{
    if (!m || !triangles || count == 0)
        return;
    GLuint p = m->solid_program;
    glUseProgram(p);
    glUniformMatrix4fv(glGetUniformLocation(p, "u_model"), 1, GL_FALSE, model[0]);
    glUniformMatrix4fv(glGetUniformLocation(p, "u_view_proj"), 1, GL_FALSE, (const float *)r->view.view_proj);
    glBindVertexArray(m->vao);
    glDisable(GL_CULL_FACE);
    glDepthFunc(GL_LEQUAL);
    /* on top of the model's own pixels of the same triangle */
    glEnable(GL_POLYGON_OFFSET_FILL);
    glPolygonOffset(-1.0f, -2.0f);
    glUniform4fv(glGetUniformLocation(p, "u_color"), 1, fill);
    for (size_t i = 0; i < count; ++i)
        if (triangles[i] < m->triangle_count)
            glDrawElements(GL_TRIANGLES, 3, GL_UNSIGNED_INT, (void *)(3 * (size_t)triangles[i] * sizeof(uint32_t)));
    glDisable(GL_POLYGON_OFFSET_FILL);
    /* the edges in front of everything, so a triangle hidden behind the
       model (all hits) still shows where it is */
    glDisable(GL_DEPTH_TEST);
    glUniform4fv(glGetUniformLocation(p, "u_color"), 1, edge);
    for (size_t i = 0; i < count; ++i)
        if (triangles[i] < m->triangle_count)
            glDrawElements(GL_LINE_LOOP, 3, GL_UNSIGNED_INT, (void *)(3 * (size_t)triangles[i] * sizeof(uint32_t)));
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);
    glEnable(GL_CULL_FACE);
}

/* ------------------------------------------------------------ cache */

static bool same_mesh(const render_mesh_data *a, const render_mesh_data *b)
{
    return a->vertices == b->vertices && a->vertex_count == b->vertex_count && a->stride == b->stride &&
           a->indices == b->indices && a->triangle_count == b->triangle_count;
}

struct render_model *render_cached_model(renderer *r, const render_mesh_data *d)
{
    if (!d)
        return NULL;
    for (int i = 0; i < RENDER_MODEL_CACHE; ++i)
        if (r->models[i].model && r->models[i].key == d && same_mesh(&r->models[i].data, d))
            return r->models[i].model;
    char err[256];
    render_model *m = render_model_create(r, d->vertices, d->vertex_count, d->stride, d->indices,
                                          d->triangle_count, err, sizeof err);
    if (!m)
        return NULL;
    render_model_slot *slot = &r->models[r->next_model];
    r->next_model = (r->next_model + 1) % RENDER_MODEL_CACHE;
    render_model_destroy(slot->model);
    slot->key = d;
    slot->data = *d;
    slot->model = m;
    return m;
}

void render_models_free(renderer *r)
{
    for (int i = 0; i < RENDER_MODEL_CACHE; ++i)
        render_model_destroy(r->models[i].model);
    memset(r->models, 0, sizeof r->models);
}

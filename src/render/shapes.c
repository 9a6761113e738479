/* shapes.c: GPU meshes (upload, draw, delete), the lit shapes of
   render_list_shape, and the vertex layout of one render_instance per copy
   that instances.c, impostor.c and pick.c read. */
#include "render_internal.h"

#include <string.h>

void render_float_attribute(GLuint index, GLint size, size_t stride, size_t offset)
{
    glEnableVertexAttribArray(index);
    glVertexAttribPointer(index, size, GL_FLOAT, GL_FALSE, (GLsizei)stride, (const void *)offset);
}

void render_mesh_attributes(const render_mesh *m)
{
    glBindBuffer(GL_ARRAY_BUFFER, m->vbo);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, m->ibo);
    render_float_attribute(0, 3, sizeof(geo_vertex), offsetof(geo_vertex, position));
    render_float_attribute(1, 3, sizeof(geo_vertex), offsetof(geo_vertex, normal));
}

void render_mesh_upload(const geo_mesh *m, render_mesh *out)
{
    glGenVertexArrays(1, &out->vao);
    glGenBuffers(1, &out->vbo);
    glGenBuffers(1, &out->ibo);
    glBindVertexArray(out->vao);
    glBindBuffer(GL_ARRAY_BUFFER, out->vbo);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(m->vertex_count * (int)sizeof(geo_vertex)),
                 m->vertices, GL_STATIC_DRAW);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, out->ibo);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, (GLsizeiptr)(m->index_count * (int)sizeof(uint32_t)),
                 m->indices, GL_STATIC_DRAW);
    render_mesh_attributes(out);
    glBindVertexArray(0);
    out->index_count = m->index_count;
}

void render_mesh_delete(render_mesh *m)
{
    glDeleteVertexArrays(1, &m->vao);
    glDeleteBuffers(1, &m->vbo);
    glDeleteBuffers(1, &m->ibo);
    memset(m, 0, sizeof *m);
}

void render_mesh_draw(const render_mesh *m)
{
    glBindVertexArray(m->vao);
    glDrawElements(GL_TRIANGLES, m->index_count, GL_UNSIGNED_INT, NULL);
}

void render_instance_attributes(GLuint vbo, GLuint divisor)
{
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    const struct { GLint size; size_t offset; } attrs[4] = {
        {3, offsetof(render_instance, position)},
        {3, offsetof(render_instance, scale)},
        {4, offsetof(render_instance, rotation)},
        {4, offsetof(render_instance, color)},
    };
    for (GLuint i = 0; i < 4; ++i) {
        render_float_attribute(2 + i, attrs[i].size, sizeof(render_instance), attrs[i].offset);
        glVertexAttribDivisor(2 + i, divisor);
    }
}

bool render_shapes_build(renderer *r)
{
    geo_mesh m[RENDER_SHAPE_COUNT];
    memset(m, 0, sizeof m);
    bool ok = true;
    for (int i = 0; i < RENDER_SHAPE_COUNT; ++i)
        ok = ok && geo_shape(i, &m[i]);
    for (int i = 0; i < RENDER_SHAPE_COUNT; ++i) {
        if (ok)
            render_mesh_upload(&m[i], &r->shapes[i]);
        geo_free(&m[i]);
    }
    return ok;
}

void render_shapes_free(renderer *r)
{
    for (int i = 0; i < RENDER_SHAPE_COUNT; ++i)
        render_mesh_delete(&r->shapes[i]);
}

void render_set_model_uniforms(const render_program *prog, const render_view *v, mat4 model)
{
    mat3 normal;
    mat4 inv;
    glm_mat4_inv(model, inv);
    glm_mat4_transpose(inv);
    glm_mat4_pick3(inv, normal);
    glUniformMatrix4fv(prog->loc[U_MODEL], 1, GL_FALSE, model[0]);
    glUniformMatrix3fv(prog->loc[U_NORMAL_MATRIX], 1, GL_FALSE, normal[0]);
    glUniformMatrix4fv(prog->loc[U_VIEW_PROJ], 1, GL_FALSE, (const float *)v->view_proj);
    glUniform3fv(prog->loc[U_EYE], 1, v->eye);
}

void render_draw_shape(renderer *r, render_shape_kind kind, mat4 model, const vec4 color, const vec3 emissive)
{
    if ((int)kind < 0 || kind >= RENDER_SHAPE_COUNT)
        return;
    glUseProgram(r->lit_prog.id);
    render_set_model_uniforms(&r->lit_prog, &r->view, model);
    glUniform4fv(r->lit_prog.loc[U_COLOR], 1, color);
    vec3 none = {0, 0, 0};
    glUniform3fv(r->lit_prog.loc[U_EMISSIVE], 1, emissive ? emissive : none);
    glUniform3fv(r->lit_prog.loc[U_LIGHT_DIR], 1, r->light_dir);
    glDisable(GL_BLEND);
    glDepthMask(GL_TRUE);
    render_mesh_draw(&r->shapes[kind]);
}

/* instances.c: render_list_instances, many copies of one shape in a draw:
   spheres (ellipsoids) and boxes go to impostor.c, the other kinds are
   instanced copies of a coarser mesh than render_list_shape's. */
#include "render_internal.h"

#include "shaders.h"

/* The coarse shapes of instanced drawing, in render_shape_kind order: a
   copy is a few pixels across, and a software rasteriser pays for every
   vertex of 100,000 of them (measured in lesson 1's many-objects mode under
   llvmpipe: a 12 x 8 sphere took three times the CPU of this 6 x 4 one). */
static bool coarse_shape(int kind, geo_mesh *out)
{
    switch (kind) {
    case RENDER_SPHERE: return geo_sphere(6, 4, out);
    case RENDER_CUBE: return geo_cube(out);
    case RENDER_TORUS: return geo_torus(0.75f, 0.3f, 16, 8, out);
    case RENDER_CONE: return geo_cone(12, out);
    default: return false;
    }
}

bool render_instances_build(renderer *r)
{
    glGenBuffers(1, &r->instance_vbo);
    bool ok = true;
    for (int i = 0; i < RENDER_SHAPE_COUNT && ok; ++i) {
        geo_mesh m = {0};
        ok = coarse_shape(i, &m);
        if (ok) {
            render_mesh_upload(&m, &r->inst_shapes[i]);
            glBindVertexArray(r->inst_shapes[i].vao);
            render_instance_attributes(r->instance_vbo, 1);
            glBindVertexArray(0);
        }
        geo_free(&m);
    }
    return ok;
}

void render_instances_free(renderer *r)
{
    for (int i = 0; i < RENDER_SHAPE_COUNT; ++i)
        render_mesh_delete(&r->inst_shapes[i]);
    glDeleteBuffers(1, &r->instance_vbo);
}

/* One draw call for every copy: the instances go to the GPU as they are
   (a fresh buffer each time, so the driver need not wait for the last
   frame's draw to finish reading the old one). */
void render_draw_instances(renderer *r, render_shape_kind kind, const render_instance *inst, int count)
{
    if ((int)kind < 0 || kind >= RENDER_SHAPE_COUNT || !inst || count <= 0)
        return;
    if (kind == RENDER_SPHERE || kind == RENDER_CUBE) {
        render_draw_impostors(r, kind, inst, count);
        return;
    }
    if (!render_program_ready(&r->inst_prog, "", shader_instanced_vert, shader_instanced_frag, "instanced"))
        return;
    const render_program *p = &r->inst_prog;
    glUseProgram(p->id);
    glUniformMatrix4fv(p->loc[U_VIEW_PROJ], 1, GL_FALSE, (const float *)r->view.view_proj);
    glUniform3fv(p->loc[U_EYE], 1, r->view.eye);
    glUniform3fv(p->loc[U_LIGHT_DIR], 1, r->light_dir);
    glDisable(GL_BLEND);
    glDepthMask(GL_TRUE);
    glBindBuffer(GL_ARRAY_BUFFER, r->instance_vbo);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)((size_t)count * sizeof *inst), inst, GL_STREAM_DRAW);
    const render_mesh *m = &r->inst_shapes[kind];
    glBindVertexArray(m->vao);
    glDrawElementsInstanced(GL_TRIANGLES, m->index_count, GL_UNSIGNED_INT, NULL, count);
}

/* impostor.c: spheres (ellipsoids once scaled) and boxes among many
   copies, drawn as impostors (shaders/impostor.*): only the copies in
   view, each a point sprite where it fits one (one plain draw) or an
   instanced quad where not, the exact shape ray-cast per pixel. The
   culling helpers here serve the GPU pick pass too (pick.c). */
#include "render_internal.h"

#include <math.h>
#include <stdlib.h>

#include "shaders.h"

/* Copies at most this wide on screen (estimated) are points: at that size
   the depth of their bound's front serves for every pixel, so the depth
   test can run before the shader; larger ones are quads with exact depth. */
#define POINT_PIXELS_MAX 24.0f
#define DEPTH_BUCKETS 256

void render_impostors_build(renderer *r)
{
    /* the instances only: quad corners come from gl_VertexID */
    glGenVertexArrays(1, &r->impostor_vao);
    glBindVertexArray(r->impostor_vao);
    render_instance_attributes(r->instance_vbo, 1);
    glGenVertexArrays(1, &r->impostor_point_vao);
    glBindVertexArray(r->impostor_point_vao);
    render_instance_attributes(r->instance_vbo, 0);
    glBindVertexArray(0);
    float sizes[2] = {1.0f, 1.0f};
    glGetFloatv(GL_PLATFORM_POINT_SIZE_RANGE, sizes);
    r->max_point_size = sizes[1];
}

void render_impostors_free(renderer *r)
{
    glDeleteVertexArrays(1, &r->impostor_vao);
    glDeleteVertexArrays(1, &r->impostor_point_vao);
    free(r->cull);
    free(r->cull_depth);
    free(r->cull_index);
}

float render_instance_radius(render_shape_kind kind, const render_instance *in)
{
    const float *s = in->scale;
    if (kind == RENDER_CUBE)
        return sqrtf(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]);
    return glm_max(glm_max(fabsf(s[0]), fabsf(s[1])), fabsf(s[2]));
}

bool render_sphere_meets_planes(const vec4 planes[6], const float center[3], float radius)
{
    for (int k = 0; k < 6; ++k)
        if (planes[k][0] * center[0] + planes[k][1] * center[1] + planes[k][2] * center[2] + planes[k][3] < -radius)
            return false;
    return true;
}

void render_pixel_rays(const render_view *v, vec3 base, vec3 dx, vec3 dy)
{
    /* the far-plane point of NDC (2x/w - 1, 2y/h - 1) minus the eye */
    mat4 inv;
    glm_mat4_inv((vec4 *)v->view_proj, inv);
    vec4 corner;
    glm_mat4_mulv(inv, (vec4){-1.0f, -1.0f, 1.0f, 1.0f}, corner);
    float w = corner[3];
    glm_vec3_scale(corner, 1.0f / w, base);
    glm_vec3_sub(base, (float *)v->eye, base);
    glm_vec3_scale(inv[0], 2.0f / ((float)v->width * w), dx);
    glm_vec3_scale(inv[1], 2.0f / ((float)v->height * w), dy);
}

static bool grow_cull(renderer *r, int count)
{
    if (count <= r->cull_cap)
        return true;
    render_instance *grown = realloc(r->cull, (size_t)count * sizeof *grown);
    if (grown)
        r->cull = grown;
    float *depth = realloc(r->cull_depth, (size_t)count * sizeof *depth);
    if (depth)
        r->cull_depth = depth;
    int *index = realloc(r->cull_index, (size_t)count * sizeof *index);
    if (index)
        r->cull_index = index;
    if (!grown || !depth || !index)
        return false;
    r->cull_cap = count;
    return true;
}

/* Sorts the copies whose bounding sphere meets the view frustum into
   r->cull: the small ones (points) from the front, nearest first (in
   DEPTH_BUCKETS steps of distance: hidden pixels then fail the depth test
   before they are shaded), the large or near ones (quads) from the back.
   false when the buffers cannot grow. */
static bool cull_instances(renderer *r, render_shape_kind kind, const render_instance *inst, int count,
                           int *points, int *quads)
{
    if (!grow_cull(r, count))
        return false;
    vec4 planes[6];     /* unit normals pointing in: inside where n.p + w >= 0 */
    glm_frustum_planes(r->view.view_proj, planes);
    /* pixels across a unit of world at distance 1; a point's size as the
       shader computes it may exceed radius * focal / distance by half (a
       shape off the axis) and a pixel */
    float focal = glm_max(r->view.proj[0][0] * (float)r->view.width, r->view.proj[1][1] * (float)r->view.height);
    float largest = (glm_min(r->max_point_size, POINT_PIXELS_MAX) - 1.0f) / 1.5f;
    int np = 0, nq = 0;
    float farthest = 0.0f;
    for (int i = 0; i < count; ++i) {
        const float *p = inst[i].position;
        float radius = render_instance_radius(kind, &inst[i]);
        if (!render_sphere_meets_planes((const vec4 *)planes, p, radius))
            continue;
        float d2 = glm_vec3_distance2((float *)p, r->view.eye);
        bool near = d2 <= 4.0f * radius * radius;
        if (!near && radius * focal <= largest * sqrtf(d2 - radius * radius)) {
            r->cull_index[np] = i;
            r->cull_depth[np] = sqrtf(d2);
            farthest = glm_max(farthest, r->cull_depth[np]);
            ++np;
        } else {
            r->cull[count - 1 - nq++] = inst[i];
        }
    }
    /* a counting sort of the points by distance bucket */
    int start[DEPTH_BUCKETS + 1] = {0};
    float to_bucket = farthest > 0.0f ? (DEPTH_BUCKETS - 1) / farthest : 0.0f;
    for (int j = 0; j < np; ++j) {
        int b = (int)(r->cull_depth[j] * to_bucket);
        r->cull_depth[j] = (float)b;
        ++start[b + 1];
    }
    for (int b = 0; b < DEPTH_BUCKETS; ++b)
        start[b + 1] += start[b];
    for (int j = 0; j < np; ++j)
        r->cull[start[(int)r->cull_depth[j]]++] = inst[r->cull_index[j]];
    *points = np;
    *quads = nq;
    return true;
}

/* One draw of impostors: points (plain) or quads (instanced). */
static void impostor_draw(renderer *r, const render_program *p, GLuint vao, render_shape_kind kind,
                          const render_instance *inst, int count, bool quads)
{
    glUseProgram(p->id);
    glUniformMatrix4fv(p->loc[U_VIEW_PROJ], 1, GL_FALSE, (const float *)r->view.view_proj);
    glUniform3fv(p->loc[U_EYE], 1, r->view.eye);
    glUniform3fv(p->loc[U_LIGHT_DIR], 1, r->light_dir);
    glUniform2f(p->loc[U_SCREEN], (float)r->view.width, (float)r->view.height);
    glUniform1i(p->loc[U_BOX], kind == RENDER_CUBE);
    vec3 base, dx, dy;
    render_pixel_rays(&r->view, base, dx, dy);
    glUniform3fv(p->loc[U_RAY_BASE], 1, base);
    glUniform3fv(p->loc[U_RAY_DX], 1, dx);
    glUniform3fv(p->loc[U_RAY_DY], 1, dy);
    glDisable(GL_BLEND);
    glDepthMask(GL_TRUE);
    glBindBuffer(GL_ARRAY_BUFFER, r->instance_vbo);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)((size_t)count * sizeof *inst), inst, GL_STREAM_DRAW);
    glUniform1i(p->loc[U_QUADS], quads);
    glBindVertexArray(vao);
    if (quads)
        glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, count);
    else
        glDrawArrays(GL_POINTS, 0, count);
}

void render_draw_impostors(renderer *r, render_shape_kind kind, const render_instance *inst, int count)
{
    int points = 0, quads = count;
    const render_instance *quad_first = inst;
    if (cull_instances(r, kind, inst, count, &points, &quads)) {
        inst = r->cull;
        quad_first = r->cull + count - quads;
    }
    /* the near ones first: their depth hides more of the points behind */
    if (quads > 0 && render_program_ready(&r->impostor_prog, "#define EXACT_DEPTH\n", shader_impostor_vert,
                                          shader_impostor_frag, "impostor"))
        impostor_draw(r, &r->impostor_prog, r->impostor_vao, kind, quad_first, quads, true);
    if (points > 0 && render_program_ready(&r->impostor_point_prog, "", shader_impostor_vert, shader_impostor_frag,
                                           "impostor points"))
        impostor_draw(r, &r->impostor_point_prog, r->impostor_point_vao, kind, inst, points, false);
}

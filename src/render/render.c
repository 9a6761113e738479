/* render.c: programs, meshes, frame set-up and the batched lines/points/beams.
   The only file besides text.c that talks to GL. */
#include "render.h"
#include "render_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "geometry.h"
#include "render_model.h"
#include "shaders.h"

static const vec3 LIGHT_DIR = {0.45f, 0.80f, 0.40f};   /* normalised in render_create */
static const vec3 BG_TOP = {0.10f, 0.12f, 0.19f};
static const vec3 BG_BOTTOM = {0.015f, 0.016f, 0.028f};

static void terrain_destroy(render_terrain *t);

/* ------------------------------------------------------------ programs */

/* defines: lines put between the #version line and the source ("" none) */
static GLuint compile_defined(GLenum type, const char *defines, const char *src, const char *name, char *err,
                              size_t n)
{
    GLuint s = glCreateShader(type);
    const char *parts[3] = {gl_platform_shader_header(), defines, gl_platform_shader_body(src)};
    glShaderSource(s, 3, parts, NULL);
    glCompileShader(s);
    GLint ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[1024] = "";
        glGetShaderInfoLog(s, sizeof log, NULL, log);
        snprintf(err, n, "shader %s: %s", name, log);
        glDeleteShader(s);
        return 0;
    }
    return s;
}

static GLuint program_defined(const char *defines, const char *vs, const char *fs, const char *name, char *err,
                              size_t n)
{
    GLuint v = compile_defined(GL_VERTEX_SHADER, defines, vs, name, err, n);
    GLuint f = v ? compile_defined(GL_FRAGMENT_SHADER, defines, fs, name, err, n) : 0;
    if (!f) {
        glDeleteShader(v);
        return 0;
    }
    GLuint p = glCreateProgram();
    glAttachShader(p, v);
    glAttachShader(p, f);
    glLinkProgram(p);
    glDeleteShader(v);
    glDeleteShader(f);
    GLint ok = 0;
    glGetProgramiv(p, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[1024] = "";
        glGetProgramInfoLog(p, sizeof log, NULL, log);
        snprintf(err, n, "program %s: %s", name, log);
        glDeleteProgram(p);
        return 0;
    }
    return p;
}

static GLuint program(const char *vs, const char *fs, const char *name, char *err, size_t n)
{
    return program_defined("", vs, fs, name, err, n);
}

static const char *const UNIFORM_NAMES[U_COUNT] = {
    "u_beam",
    "u_bottom",
    "u_box",
    "u_color",
    "u_emissive",
    "u_eye",
    "u_fog_color",
    "u_ground",
    "u_ground_y",
    "u_height_range",
    "u_impact_count",
    "u_impacts",
    "u_inv_view_proj",
    "u_lifetime",
    "u_light_dir",
    "u_model",
    "u_normal_matrix",
    "u_quads",
    "u_ray_base",
    "u_ray_dx",
    "u_ray_dy",
    "u_ripple_speed",
    "u_round_points",
    "u_screen",
    "u_time",
    "u_top",
    "u_view_proj",
};

/* Links the program (its sources after `defines`) and looks up every
   uniform once. false with a message. */
static bool build_program_defined(render_program *out, const char *defines, const char *vs, const char *fs,
                                  const char *name, char *err, size_t n)
{
    out->id = program_defined(defines, vs, fs, name, err, n);
    if (!out->id)
        return false;
    for (int i = 0; i < U_COUNT; ++i)
        out->loc[i] = glGetUniformLocation(out->id, UNIFORM_NAMES[i]);
    return true;
}

static bool build_program(render_program *out, const char *vs, const char *fs, const char *name,
                          char *err, size_t n)
{
    return build_program_defined(out, "", vs, fs, name, err, n);
}

/* Programs that only some lessons draw with (lesson 2's shields, instanced
   copies and their impostors) are built when first used: a start that
   never draws them (lesson 4 with a large map) does not hold them, about
   1.4 MB each under llvmpipe (issue 16). One that does not build is
   reported on stderr once, and what it would draw is skipped. */
static bool program_ready(render_program *p, const char *defines, const char *vs, const char *fs, const char *name)
{
    if (p->id)
        return true;
    if (p->failed)
        return false;
    char err[1100];
    if (build_program_defined(p, defines, vs, fs, name, err, sizeof err))
        return true;
    p->failed = true;
    fprintf(stderr, "raypick: %s (not drawn)\n", err);
    return false;
}

/* ------------------------------------------------------------ meshes */

static bool upload_mesh(const geo_mesh *m, render_mesh *out)
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
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(geo_vertex),
                          (void *)offsetof(geo_vertex, position));
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, sizeof(geo_vertex),
                          (void *)offsetof(geo_vertex, normal));
    glBindVertexArray(0);
    out->index_count = m->index_count;
    return true;
}

static void delete_mesh(render_mesh *m)
{
    glDeleteVertexArrays(1, &m->vao);
    glDeleteBuffers(1, &m->vbo);
    glDeleteBuffers(1, &m->ibo);
    memset(m, 0, sizeof *m);
}

static bool build_shapes(renderer *r)
{
    geo_mesh m[RENDER_SHAPE_COUNT];
    memset(m, 0, sizeof m);
    bool ok = true;
    for (int i = 0; i < RENDER_SHAPE_COUNT; ++i)
        ok = ok && geo_shape(i, &m[i]);
    for (int i = 0; i < RENDER_SHAPE_COUNT; ++i) {
        if (ok)
            upload_mesh(&m[i], &r->shapes[i]);
        geo_free(&m[i]);
    }
    return ok;
}

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
        glEnableVertexAttribArray(2 + i);
        glVertexAttribPointer(2 + i, attrs[i].size, GL_FLOAT, GL_FALSE, sizeof(render_instance),
                              (void *)attrs[i].offset);
        glVertexAttribDivisor(2 + i, divisor);
    }
}

static bool build_instanced_shapes(renderer *r)
{
    glGenBuffers(1, &r->instance_vbo);
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
    bool ok = true;
    for (int i = 0; i < RENDER_SHAPE_COUNT && ok; ++i) {
        geo_mesh m = {0};
        ok = coarse_shape(i, &m);
        if (ok) {
            upload_mesh(&m, &r->inst_shapes[i]);
            glBindVertexArray(r->inst_shapes[i].vao);
            render_instance_attributes(r->instance_vbo, 1);
            glBindVertexArray(0);
        }
        geo_free(&m);
    }
    return ok;
}

/* ------------------------------------------------------------ batches */

static void batch_init(render_batch *b)
{
    memset(b, 0, sizeof *b);
    glGenVertexArrays(1, &b->vao);
    glGenBuffers(1, &b->vbo);
    glBindVertexArray(b->vao);
    glBindBuffer(GL_ARRAY_BUFFER, b->vbo);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(render_vertex),
                          (void *)offsetof(render_vertex, position));
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, sizeof(render_vertex),
                          (void *)offsetof(render_vertex, color));
    glEnableVertexAttribArray(2);
    glVertexAttribPointer(2, 1, GL_FLOAT, GL_FALSE, sizeof(render_vertex),
                          (void *)offsetof(render_vertex, extra));
    glBindVertexArray(0);
}

static void batch_free(render_batch *b)
{
    glDeleteVertexArrays(1, &b->vao);
    glDeleteBuffers(1, &b->vbo);
    free(b->v);
    memset(b, 0, sizeof *b);
}

static render_vertex *batch_push(render_batch *b, int count)
{
    if (b->count + count > b->cap) {
        int cap = b->cap ? b->cap * 2 : 1024;
        while (cap < b->count + count)
            cap *= 2;
        render_vertex *v = realloc(b->v, (size_t)cap * sizeof *v);
        if (!v)
            return NULL;
        b->v = v;
        b->cap = cap;
    }
    render_vertex *out = b->v + b->count;
    b->count += count;
    return out;
}

static void set_rv(render_vertex *v, const vec3 p, const vec4 c, float extra)
{
    memcpy(v->position, p, sizeof v->position);
    memcpy(v->color, c, sizeof v->color);
    v->extra = extra;
}

static void batch_draw(render_batch *b, GLenum mode)
{
    if (b->count == 0)
        return;
    glBindVertexArray(b->vao);
    glBindBuffer(GL_ARRAY_BUFFER, b->vbo);
    /* a new store of the batch's capacity each frame (orphaning: no wait
       for the last frame's draw), then the frame's vertices into it. The
       size changes only when the capacity doubles: a store sized to each
       frame's count made the driver allocate a different size every frame,
       and the soak run saw the heap creep. */
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)((size_t)b->cap * sizeof(render_vertex)), NULL, GL_STREAM_DRAW);
    glBufferSubData(GL_ARRAY_BUFFER, 0, (GLsizeiptr)((size_t)b->count * sizeof(render_vertex)), b->v);
    glDrawArrays(mode, 0, b->count);
    b->count = 0;
}

/* ------------------------------------------------------------ grid */

/* The background's screen-covering grid of quads, in NDC. */
static void build_background(renderer *r)
{
    enum { COLS = 32, ROWS = 18 };
    static float xy[COLS * ROWS * 12];
    int k = 0;
    for (int j = 0; j < ROWS; ++j) {
        for (int i = 0; i < COLS; ++i) {
            float x0 = -1.0f + 2.0f * (float)i / COLS, x1 = -1.0f + 2.0f * (float)(i + 1) / COLS;
            float y0 = -1.0f + 2.0f * (float)j / ROWS, y1 = -1.0f + 2.0f * (float)(j + 1) / ROWS;
            const float quad[12] = {x0, y0, x1, y0, x1, y1, x0, y0, x1, y1, x0, y1};
            memcpy(&xy[k], quad, sizeof quad);
            k += 12;
        }
    }
    glGenVertexArrays(1, &r->background.vao);
    glGenBuffers(1, &r->background.vbo);
    glBindVertexArray(r->background.vao);
    glBindBuffer(GL_ARRAY_BUFFER, r->background.vbo);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)sizeof xy, xy, GL_STATIC_DRAW);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 2 * sizeof(float), NULL);
    glBindVertexArray(0);
    r->background.count = k / 2;
}

static void build_grid(renderer *r)
{
    /* lines in pieces, alpha per vertex fading with distance */
    const int half = 40, pieces = 8;
    const float extent = (float)half;
    batch_init(&r->grid);
    for (int i = -half; i <= half; ++i) {
        float f = (float)i, base = i % 5 == 0 ? 0.30f : 0.14f;
        for (int k = 0; k < pieces; ++k) {
            float a = -extent + 2.0f * extent * (float)k / (float)pieces;
            float b = -extent + 2.0f * extent * (float)(k + 1) / (float)pieces;
            for (int axis = 0; axis < 2; ++axis) {
                vec3 p0 = {axis ? f : a, 0.0f, axis ? a : f};
                vec3 p1 = {axis ? f : b, 0.0f, axis ? b : f};
                float d0 = sqrtf(p0[0] * p0[0] + p0[2] * p0[2]) / extent;
                float d1 = sqrtf(p1[0] * p1[0] + p1[2] * p1[2]) / extent;
                vec4 c0 = {0.45f, 0.55f, 0.75f, base * glm_clamp(1.0f - d0, 0.0f, 1.0f)};
                vec4 c1 = {0.45f, 0.55f, 0.75f, base * glm_clamp(1.0f - d1, 0.0f, 1.0f)};
                if (c0[3] <= 0.0f && c1[3] <= 0.0f)
                    continue;   /* faded out: not worth a line */
                render_vertex *v = batch_push(&r->grid, 2);
                if (!v)
                    return;
                set_rv(&v[0], p0, c0, 0.0f);
                set_rv(&v[1], p1, c1, 0.0f);
            }
        }
    }
    glBindBuffer(GL_ARRAY_BUFFER, r->grid.vbo);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)((size_t)r->grid.count * sizeof(render_vertex)),
                 r->grid.v, GL_STATIC_DRAW);
}

/* ------------------------------------------------------------ life cycle */

renderer *render_create_for_loading(render_loader load, char *err, size_t err_size)
{
    if (!gl_platform_load(load, err, err_size))
        return NULL;
    renderer *r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(err, err_size, "out of memory");
        return NULL;
    }
    const char *name = (const char *)glGetString(GL_RENDERER);
    r->software = name && (strstr(name, "llvmpipe") || strstr(name, "softpipe") || strstr(name, "SwiftShader"));
    return r;
}

bool render_complete(renderer *r, char *err, size_t err_size)
{
    if (!r)
        return false;
    if (r->complete)
        return true;
    bool ok = build_program(&r->text_prog, shader_text_vert, shader_text_frag, "text", err, err_size) &&
              build_program(&r->bg_prog, shader_background_vert, shader_background_frag, "background", err, err_size) &&
              build_program(&r->flat_prog, shader_flat_vert, shader_flat_frag, "flat", err, err_size) &&
              build_program(&r->lit_prog, shader_lit_vert, shader_lit_frag, "lit", err, err_size) &&
              build_program(&r->line_prog, shader_line_vert, shader_line_frag, "line", err, err_size) &&
              build_program(&r->terrain_prog, shader_terrain_vert, shader_terrain_frag, "terrain", err, err_size);
    /* the shields' and the instanced copies' programs come when first drawn
       (program_ready) */
    if (!ok)
        return false;
    glm_vec3_normalize_to((float *)LIGHT_DIR, r->light_dir);
    /* from here render_destroy frees the scene's parts too */
    r->complete = true;
    render_text_init(r);
    if (!build_shapes(r) || !build_instanced_shapes(r)) {
        snprintf(err, err_size, "out of memory building meshes");
        return false;
    }
    batch_init(&r->shadows);
    batch_init(&r->lines);
    batch_init(&r->hidden_lines);
    batch_init(&r->points);
    batch_init(&r->beams);
    build_grid(r);
    build_background(r);
    return true;
}

renderer *render_create(render_loader load, char *err, size_t err_size)
{
    renderer *r = render_create_for_loading(load, err, err_size);
    if (r && !render_complete(r, err, err_size)) {
        render_destroy(r);
        return NULL;
    }
    return r;
}

void render_destroy(renderer *r)
{
    if (!r)
        return;
    if (r->complete) {
        render_text_free(r);
        batch_free(&r->grid);
        batch_free(&r->background);
        batch_free(&r->shadows);
        batch_free(&r->lines);
        batch_free(&r->hidden_lines);
        batch_free(&r->points);
        batch_free(&r->beams);
        for (int i = 0; i < RENDER_SHAPE_COUNT; ++i) {
            delete_mesh(&r->shapes[i]);
            delete_mesh(&r->inst_shapes[i]);
        }
        glDeleteBuffers(1, &r->instance_vbo);
        glDeleteVertexArrays(1, &r->impostor_vao);
        glDeleteVertexArrays(1, &r->impostor_point_vao);
        free(r->cull);
        free(r->cull_depth);
        free(r->cull_index);
        for (int i = 0; i < RENDER_TERRAIN_CACHE; ++i)
            terrain_destroy(r->terrains[i].mesh);
        render_models_free(r);
    }
    glDeleteProgram(r->bg_prog.id);
    glDeleteProgram(r->flat_prog.id);
    glDeleteProgram(r->lit_prog.id);
    glDeleteProgram(r->line_prog.id);
    glDeleteProgram(r->shield_prog.id);
    glDeleteProgram(r->terrain_prog.id);
    glDeleteProgram(r->text_prog.id);
    glDeleteProgram(r->inst_prog.id);
    glDeleteProgram(r->impostor_prog.id);
    glDeleteProgram(r->impostor_point_prog.id);
    free(r->surfaces);
    free(r);
}

/* ------------------------------------------------------------ frame */

void render_begin(renderer *r, const render_view *v)
{
    r->view = *v;
    glViewport(0, 0, v->width, v->height);
    glDisable(GL_SCISSOR_TEST);
    glClearColor(BG_BOTTOM[0], BG_BOTTOM[1], BG_BOTTOM[2], 1.0f);
    gl_platform_begin_frame(1.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);
    glDepthMask(GL_TRUE);
    glEnable(GL_CULL_FACE);
    glCullFace(GL_BACK);
    glFrontFace(GL_CCW);
}

/* The gradient, and the ground plane under a grid when there is one. It
   is drawn after the opaque geometry, at the far plane, so a software
   rasteriser shades only the pixels nothing else covers; and before
   anything translucent, which blends over it. */
static void draw_background(renderer *r, bool ground, float ground_y)
{
    glDepthFunc(GL_LEQUAL);
    glDepthMask(GL_FALSE);
    glDisable(GL_BLEND);
    glDisable(GL_CULL_FACE);
    glUseProgram(r->bg_prog.id);
    glUniform3fv(r->bg_prog.loc[U_TOP], 1, BG_TOP);
    glUniform3fv(r->bg_prog.loc[U_BOTTOM], 1, BG_BOTTOM);
    mat4 inv;
    glm_mat4_inv(r->view.view_proj, inv);
    glUniformMatrix4fv(r->bg_prog.loc[U_INV_VIEW_PROJ], 1, GL_FALSE, inv[0]);
    glUniform3fv(r->bg_prog.loc[U_EYE], 1, r->view.eye);
    glUniform1i(r->bg_prog.loc[U_GROUND], ground);
    glUniform1f(r->bg_prog.loc[U_GROUND_Y], ground_y);
    glBindVertexArray(r->background.vao);
    glDrawArrays(GL_TRIANGLES, 0, r->background.count);
    glDepthFunc(GL_LESS);
    glDepthMask(GL_TRUE);
    glEnable(GL_CULL_FACE);
}

void render_end(renderer *r)
{
    render_text_flush(r);     /* the overlay phase: the HUD over everything */
    glBindVertexArray(0);
    glUseProgram(0);
}

bool render_driver_is_software(render_loader load)
{
    if (!gl_platform_load(load, NULL, 0))
        return false;
    const char *name = (const char *)glGetString(GL_RENDERER);
    return name && (strstr(name, "llvmpipe") || strstr(name, "softpipe") || strstr(name, "SwiftShader"));
}

void render_finish(renderer *r)
{
    (void)r;
    glFinish();
}

/* ------------------------------------------------------------ shapes */

static void set_model_uniforms(const render_program *prog, const render_view *v, mat4 model)
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

static void draw_mesh(const render_mesh *m)
{
    glBindVertexArray(m->vao);
    glDrawElements(GL_TRIANGLES, m->index_count, GL_UNSIGNED_INT, NULL);
}

static void draw_shape(renderer *r, render_shape_kind kind, mat4 model, const vec4 color, const vec3 emissive)
{
    if ((int)kind < 0 || kind >= RENDER_SHAPE_COUNT)
        return;
    glUseProgram(r->lit_prog.id);
    set_model_uniforms(&r->lit_prog, &r->view, model);
    glUniform4fv(r->lit_prog.loc[U_COLOR], 1, color);
    vec3 none = {0, 0, 0};
    glUniform3fv(r->lit_prog.loc[U_EMISSIVE], 1, emissive ? emissive : none);
    glUniform3fv(r->lit_prog.loc[U_LIGHT_DIR], 1, r->light_dir);
    glDisable(GL_BLEND);
    glDepthMask(GL_TRUE);
    draw_mesh(&r->shapes[kind]);
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

/* Copies at most this wide on screen (estimated) are points: at that size
   the depth of their bound's front serves for every pixel, so the depth
   test can run before the shader; larger ones are quads with exact depth. */
#define POINT_PIXELS_MAX 24.0f
#define DEPTH_BUCKETS 256

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

static void impostor_draw(renderer *r, const render_program *p, GLuint vao, render_shape_kind kind,
                          const render_instance *inst, int count, bool quads);

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

/* Spheres, ellipsoids and boxes as impostors (shaders/impostor.vert): the
   copies in view, as points where they fit one (a single plain draw), as
   instanced quads where not, the exact shape ray-cast per pixel. */
static void draw_impostors(renderer *r, render_shape_kind kind, const render_instance *inst, int count)
{
    int points = 0, quads = count;
    const render_instance *quad_first = inst;
    if (cull_instances(r, kind, inst, count, &points, &quads)) {
        inst = r->cull;
        quad_first = r->cull + count - quads;
    }
    /* the near ones first: their depth hides more of the points behind */
    if (quads > 0 && program_ready(&r->impostor_prog, "#define EXACT_DEPTH\n", shader_impostor_vert,
                                   shader_impostor_frag, "impostor"))
        impostor_draw(r, &r->impostor_prog, r->impostor_vao, kind, quad_first, quads, true);
    if (points > 0 && program_ready(&r->impostor_point_prog, "", shader_impostor_vert, shader_impostor_frag,
                                    "impostor points"))
        impostor_draw(r, &r->impostor_point_prog, r->impostor_point_vao, kind, inst, points, false);
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

/* One draw call for every copy: the instances go to the GPU as they are
   (a fresh buffer each time, so the driver need not wait for the last
   frame's draw to finish reading the old one). */
static void draw_instances(renderer *r, render_shape_kind kind, const render_instance *inst, int count)
{
    if ((int)kind < 0 || kind >= RENDER_SHAPE_COUNT || !inst || count <= 0)
        return;
    if (kind == RENDER_SPHERE || kind == RENDER_CUBE) {
        draw_impostors(r, kind, inst, count);
        return;
    }
    if (!program_ready(&r->inst_prog, "", shader_instanced_vert, shader_instanced_frag, "instanced"))
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

/* The shield shader's impact array (MAX_IMPACTS in shaders/shield.frag):
   how many ripples one shield shows at once. */
#define SHADER_IMPACTS 8

/* The live impacts (started, not yet faded) in their order; when more are
   live than the shader takes, the newest. Returns how many went to slots. */
static int live_impacts(const vec4 *impacts, int count, float time, float lifetime,
                        vec4 slots[SHADER_IMPACTS])
{
    int live = 0;
    for (int i = 0; impacts && i < count; ++i) {
        float age = time - impacts[i][3];
        if (impacts[i][3] < 0.0f || age < 0.0f || age > lifetime)
            continue;
        if (live == SHADER_IMPACTS) {
            /* full: drop the oldest, keep the order of the rest */
            int oldest = 0;
            for (int k = 1; k < live; ++k)
                if (slots[k][3] < slots[oldest][3])
                    oldest = k;
            if (slots[oldest][3] > impacts[i][3])
                continue;
            for (int k = oldest; k + 1 < live; ++k)
                glm_vec4_copy(slots[k + 1], slots[k]);
            --live;
        }
        glm_vec4_copy((float *)impacts[i], slots[live++]);
    }
    return live;
}

static void shield_pass(renderer *r, mat4 model, const vec4 color, const vec4 *live, int live_count,
                        float time, float lifetime, float ripple_speed, bool two_sided)
{
    if (!program_ready(&r->shield_prog, "", shader_shield_vert, shader_shield_frag, "shield"))
        return;
    const render_program *p = &r->shield_prog;
    glUseProgram(p->id);
    set_model_uniforms(p, &r->view, model);
    glUniform4fv(p->loc[U_COLOR], 1, color);
    glUniform1f(p->loc[U_TIME], time);
    glUniform1f(p->loc[U_LIFETIME], lifetime);
    glUniform1f(p->loc[U_RIPPLE_SPEED], ripple_speed);
    /* only the live impacts go to the shader: its loop runs over these */
    if (live_count)
        glUniform4fv(p->loc[U_IMPACTS], live_count, live[0]);
    glUniform1i(p->loc[U_IMPACT_COUNT], live_count);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glDepthMask(GL_FALSE);
    if (two_sided) {
        /* inside first, then the near side over it */
        glCullFace(GL_FRONT);
        draw_mesh(&r->shapes[RENDER_SPHERE]);
        glCullFace(GL_BACK);
    }
    draw_mesh(&r->shapes[RENDER_SPHERE]);
    glDepthMask(GL_TRUE);
    glDisable(GL_BLEND);
}

static void draw_shield(renderer *r, mat4 model, const vec4 color, const vec4 *impacts, int impact_count,
                        float time, float lifetime, float ripple_speed)
{
    vec4 live[SHADER_IMPACTS];
    int live_count = live_impacts(impacts, impact_count, time, lifetime, live);
    /* The far side only matters while a live impact lies on it (it shows
       through the near side): skipping it halves the fill otherwise. */
    vec3 center = {model[3][0], model[3][1], model[3][2]}, to_eye;
    glm_vec3_sub(r->view.eye, center, to_eye);
    bool far_side_lit = false;
    for (int i = 0; i < live_count; ++i) {
        vec3 out;
        glm_vec3_sub(live[i], center, out);
        far_side_lit |= glm_vec3_dot(out, to_eye) < 0.0f;
    }
    shield_pass(r, model, color, (const vec4 *)live, live_count, time, lifetime, ripple_speed, far_side_lit);
}

static void draw_glass_sphere(renderer *r, const vec3 center, float radius, const vec4 color)
{
    mat4 model;
    glm_translate_make(model, (float *)center);
    glm_scale_uni(model, radius);
    shield_pass(r, model, color, NULL, 0, 0.0f, 1.0f, 1.0f, false);
}

/* ------------------------------------------------------------ lines */

static void draw_grid(renderer *r, float y)
{
    mat4 m, vp;
    glm_translate_make(m, (vec3){0.0f, y, 0.0f});
    glm_mat4_mul(r->view.view_proj, m, vp);
    glUseProgram(r->flat_prog.id);
    glUniformMatrix4fv(r->flat_prog.loc[U_VIEW_PROJ], 1, GL_FALSE, vp[0]);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glDepthMask(GL_FALSE);
    glDisable(GL_CULL_FACE);
    glBindVertexArray(r->grid.vao);
    glDrawArrays(GL_LINES, 0, r->grid.count);
    glEnable(GL_CULL_FACE);
    glDepthMask(GL_TRUE);
    glDisable(GL_BLEND);
}

/* The hidden parts of an x-ray line: this much of its opacity. */
#define XRAY_HIDDEN_ALPHA 0.5f

static void batch_line(renderer *r, const vec3 a, const vec3 b, const vec4 color, bool xray)
{
    render_vertex *v = batch_push(&r->lines, 2);
    if (!v)
        return;
    set_rv(&v[0], a, color, 0.0f);
    set_rv(&v[1], b, color, 0.0f);
    if (!xray || !(v = batch_push(&r->hidden_lines, 2)))
        return;
    vec4 faint = {color[0], color[1], color[2], color[3] * XRAY_HIDDEN_ALPHA};
    set_rv(&v[0], a, faint, 0.0f);
    set_rv(&v[1], b, faint, 0.0f);
}

static void batch_point(renderer *r, const vec3 p, float size_px, const vec4 color)
{
    render_vertex *v = batch_push(&r->points, 1);
    if (v)
        set_rv(v, p, color, size_px);
}

static void batch_beam(renderer *r, const vec3 a, const vec3 b, float width, const vec4 color)
{
    vec3 along, to_eye, side, mid;
    glm_vec3_sub((float *)b, (float *)a, along);
    glm_vec3_lerp((float *)a, (float *)b, 0.5f, mid);
    glm_vec3_sub(r->view.eye, mid, to_eye);
    glm_vec3_cross(along, to_eye, side);
    if (glm_vec3_norm(side) < 1e-6f)
        return;
    glm_vec3_normalize(side);
    glm_vec3_scale(side, width * 0.5f, side);
    vec3 a0, a1, b0, b1;
    glm_vec3_sub((float *)a, side, a0);
    glm_vec3_add((float *)a, side, a1);
    glm_vec3_sub((float *)b, side, b0);
    glm_vec3_add((float *)b, side, b1);
    render_vertex *v = batch_push(&r->beams, 6);
    if (!v)
        return;
    set_rv(&v[0], a0, color, -1.0f);
    set_rv(&v[1], b0, color, -1.0f);
    set_rv(&v[2], b1, color, 1.0f);
    set_rv(&v[3], a0, color, -1.0f);
    set_rv(&v[4], b1, color, 1.0f);
    set_rv(&v[5], a1, color, 1.0f);
}

static void batch_shadow(renderer *r, const vec3 center, float radius, float ground, float strength)
{
    enum { SEG = 32 };
    /* higher objects cast lighter, wider shadows */
    float height = glm_max(center[1] - ground, 0.0f);
    float spread = radius * (1.0f + 0.15f * height);
    float alpha = strength / (1.0f + 0.1f * height);
    render_vertex *v = batch_push(&r->shadows, SEG * 3);
    if (!v)
        return;
    vec3 mid = {center[0], ground + 0.01f, center[2]};
    vec4 dark = {0.0f, 0.0f, 0.0f, alpha}, clear = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int i = 0; i < SEG; ++i) {
        float a0 = 2.0f * GLM_PIf * (float)i / SEG, a1 = 2.0f * GLM_PIf * (float)(i + 1) / SEG;
        vec3 p0 = {mid[0] + spread * sinf(a0), mid[1], mid[2] + spread * cosf(a0)};
        vec3 p1 = {mid[0] + spread * sinf(a1), mid[1], mid[2] + spread * cosf(a1)};
        set_rv(&v[3 * i], mid, dark, 0.0f);
        set_rv(&v[3 * i + 1], p0, clear, 0.0f);
        set_rv(&v[3 * i + 2], p1, clear, 0.0f);
    }
}

/* Shadows (ground decals: no depth writes), then lines (they write depth,
   so translucent surfaces drawn later stay behind the ones in front). */
static void draw_shadows_and_lines(renderer *r)
{
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glDisable(GL_CULL_FACE);
    glUseProgram(r->flat_prog.id);
    glUniformMatrix4fv(r->flat_prog.loc[U_VIEW_PROJ], 1, GL_FALSE,
                       (const float *)r->view.view_proj);
    glDepthMask(GL_FALSE);
    batch_draw(&r->shadows, GL_TRIANGLES);
    glDepthMask(GL_TRUE);
    batch_draw(&r->lines, GL_LINES);
    /* x-ray lines again, faintly, only where something nearer hides them */
    glDepthFunc(GL_GREATER);
    glDepthMask(GL_FALSE);
    batch_draw(&r->hidden_lines, GL_LINES);
    glDepthFunc(GL_LESS);
    glDepthMask(GL_TRUE);
    glEnable(GL_CULL_FACE);
    glDisable(GL_BLEND);
}

/* Round points: markers, mostly of points ON a shield or a bounding sphere
   (the hit), so they go after those surfaces: drawn before, a marker would
   write depth and hide half of the surface's glow around it. The size
   rides in the extra attribute. */
static void draw_points(renderer *r)
{
    if (r->points.count == 0)
        return;
    const render_program *p = &r->line_prog;
    glUseProgram(p->id);
    glUniformMatrix4fv(p->loc[U_VIEW_PROJ], 1, GL_FALSE, (const float *)r->view.view_proj);
    glUniform1i(p->loc[U_ROUND_POINTS], 1);
    glUniform1i(p->loc[U_BEAM], 0);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glDisable(GL_CULL_FACE);
    batch_draw(&r->points, GL_POINTS);
    glEnable(GL_CULL_FACE);
    glDisable(GL_BLEND);
}

/* Beams glow: additive, no depth writes, so their order does not matter
   and they light up whatever translucent surface lies behind them. */
static void draw_beams(renderer *r)
{
    if (r->beams.count == 0)
        return;
    const render_program *p = &r->line_prog;
    glUseProgram(p->id);
    glUniformMatrix4fv(p->loc[U_VIEW_PROJ], 1, GL_FALSE, (const float *)r->view.view_proj);
    glUniform1i(p->loc[U_ROUND_POINTS], 0);
    glUniform1i(p->loc[U_BEAM], 1);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE);
    glDepthMask(GL_FALSE);
    glDisable(GL_CULL_FACE);
    batch_draw(&r->beams, GL_TRIANGLES);
    glDepthMask(GL_TRUE);
    glEnable(GL_CULL_FACE);
    glDisable(GL_BLEND);
}

/* ------------------------------------------------------------ terrain */

static render_terrain *terrain_create(int cols, int rows, float spacing, const vec3 origin,
                                      const float *heights)
{
    geo_mesh m = {0};
    if (!geo_terrain(cols, rows, spacing, origin, heights, &m))
        return NULL;
    render_terrain *t = calloc(1, sizeof *t);
    if (t) {
        upload_mesh(&m, &t->mesh);
        t->min_y = t->max_y = m.vertices[0].position[1];
        for (int i = 1; i < m.vertex_count; ++i) {
            t->min_y = glm_min(t->min_y, m.vertices[i].position[1]);
            t->max_y = glm_max(t->max_y, m.vertices[i].position[1]);
        }
    }
    geo_free(&m);
    return t;
}

static void draw_terrain(renderer *r, const render_terrain *t)
{
    if (!t)
        return;
    const render_program *p = &r->terrain_prog;
    glUseProgram(p->id);
    glUniformMatrix4fv(p->loc[U_VIEW_PROJ], 1, GL_FALSE, (const float *)r->view.view_proj);
    glUniform2f(p->loc[U_HEIGHT_RANGE], t->min_y, t->max_y);
    glUniform3fv(p->loc[U_EYE], 1, r->view.eye);
    glUniform3fv(p->loc[U_LIGHT_DIR], 1, r->light_dir);
    glUniform3fv(p->loc[U_FOG_COLOR], 1, BG_TOP);
    glDisable(GL_BLEND);
    draw_mesh(&t->mesh);
}

static void terrain_destroy(render_terrain *t)
{
    if (!t)
        return;
    delete_mesh(&t->mesh);
    free(t);
}

/* The GPU mesh for a terrain: built the first time its data is seen, then
   reused while the data's key (heights pointer, size, placement) is the
   same. NULL when it cannot be built. */
static bool same_terrain(const render_terrain_data *a, const render_terrain_data *b)
{
    return a->heights == b->heights && a->version == b->version && a->cols == b->cols && a->rows == b->rows &&
           a->spacing == b->spacing && glm_vec3_eqv((float *)a->origin, (float *)b->origin);
}

static render_terrain *cached_terrain(renderer *r, const render_terrain_data *d)
{
    for (int i = 0; i < RENDER_TERRAIN_CACHE; ++i)
        if (r->terrains[i].mesh && same_terrain(&r->terrains[i].data, d))
            return r->terrains[i].mesh;
    render_terrain *t = terrain_create(d->cols, d->rows, d->spacing, d->origin, d->heights);
    if (!t)
        return NULL;
    render_terrain_slot *slot = &r->terrains[r->next_terrain];
    r->next_terrain = (r->next_terrain + 1) % RENDER_TERRAIN_CACHE;
    terrain_destroy(slot->mesh);
    slot->data = *d;
    slot->mesh = t;
    return t;
}

/* ------------------------------------------------------------ submit */

/* A frame's scene goes in fixed phases, whatever order the list has:
     1. opaque      shapes, instances, terrain and meshes (depth written), in list
                    order; then highlighted mesh triangles over them
     2. background  the gradient at the far plane, only where nothing opaque
                    is (cheap on a software rasteriser); it shades a ground
                    plane when the list has a grid
     3. translucent grid, shadows, lines; shields and glass spheres back
                    to front; round points (markers on those surfaces);
                    then additive beams
     4. overlay     the HUD (render_text / render_panel), in render_end
   so the picture depends on what the list holds, not on the order a lesson
   happened to add it in. (Within one kind of line, point, shadow or beam,
   list order is kept: overlapping ones blend in that order.) */
static void submit_opaque(renderer *r, const render_list *list)
{
    for (int i = 0; i < list->count; ++i) {
        const render_cmd *c = &list->cmds[i];
        if (c->kind == RENDER_CMD_SHAPE)
            draw_shape(r, c->u.shape.shape, (vec4 *)c->u.shape.model, c->u.shape.color, c->u.shape.emissive);
        else if (c->kind == RENDER_CMD_TERRAIN)
            draw_terrain(r, cached_terrain(r, &c->u.terrain));
        else if (c->kind == RENDER_CMD_INSTANCES)
            draw_instances(r, c->u.instances.shape, c->u.instances.instances, c->u.instances.count);
        else if (c->kind == RENDER_CMD_MESH)
            render_model_draw(r, render_cached_model(r, c->u.mesh.mesh), (vec4 *)c->u.mesh.model,
                              c->u.mesh.color, c->u.mesh.checks, c->u.mesh.two_sided);
    }
    /* highlighted triangles over their meshes (depth-tested against them) */
    for (int i = 0; i < list->count; ++i) {
        const render_cmd *c = &list->cmds[i];
        if (c->kind == RENDER_CMD_MESH_HIGHLIGHT)
            render_model_highlight(r, render_cached_model(r, c->u.highlight.mesh), (vec4 *)c->u.highlight.model,
                                   c->u.highlight.triangles, (size_t)c->u.highlight.count, c->u.highlight.fill,
                                   c->u.highlight.edge);
    }
}

/* The ground plane's height: the list's first grid, if any. */
static bool list_ground(const render_list *list, float *y)
{
    for (int i = 0; i < list->count; ++i)
        if (list->cmds[i].kind == RENDER_CMD_GRID) {
            *y = list->cmds[i].u.grid.y;
            return true;
        }
    return false;
}

/* Squared distance from the eye to a shield's or glass sphere's centre. */
static float surface_depth(const renderer *r, const render_cmd *c)
{
    vec3 center;
    if (c->kind == RENDER_CMD_SHIELD)
        glm_vec3_copy((float *)c->u.shield.model[3], center);
    else
        glm_vec3_copy((float *)c->u.glass.center, center);
    return glm_vec3_distance2(center, (float *)r->view.eye);
}

/* The list's shields and glass spheres into r->surfaces, farthest centre
   first (blending needs back to front; equal distances keep list order).
   Returns how many: 0, so none is drawn, when the index array cannot grow. */
static int sort_surfaces(renderer *r, const render_list *list)
{
    if (list->count > r->surface_cap) {
        int *grown = realloc(r->surfaces, (size_t)list->count * sizeof *grown);
        if (!grown)
            return 0;
        r->surfaces = grown;
        r->surface_cap = list->count;
    }
    int n = 0;
    for (int i = 0; i < list->count; ++i) {
        const render_cmd *c = &list->cmds[i];
        if (c->kind != RENDER_CMD_SHIELD && c->kind != RENDER_CMD_GLASS)
            continue;
        /* insertion sort: a handful of surfaces per frame */
        float d = surface_depth(r, c);
        int k = n++;
        while (k > 0 && surface_depth(r, &list->cmds[r->surfaces[k - 1]]) < d) {
            r->surfaces[k] = r->surfaces[k - 1];
            --k;
        }
        r->surfaces[k] = i;
    }
    return n;
}

static void submit_translucent(renderer *r, const render_list *list)
{
    for (int i = 0; i < list->count; ++i)
        if (list->cmds[i].kind == RENDER_CMD_GRID)
            draw_grid(r, list->cmds[i].u.grid.y);
    for (int i = 0; i < list->count; ++i) {
        const render_cmd *c = &list->cmds[i];
        if (c->kind == RENDER_CMD_SHADOW)
            batch_shadow(r, c->u.shadow.center, c->u.shadow.radius, c->u.shadow.ground, c->u.shadow.strength);
        else if (c->kind == RENDER_CMD_LINE)
            batch_line(r, c->u.line.a, c->u.line.b, c->u.line.color, c->u.line.xray);
        else if (c->kind == RENDER_CMD_POINT)
            batch_point(r, c->u.point.p, c->u.point.size_px, c->u.point.color);
        else if (c->kind == RENDER_CMD_BEAM)
            batch_beam(r, c->u.beam.a, c->u.beam.b, c->u.beam.width, c->u.beam.color);
    }
    draw_shadows_and_lines(r);
    int n = sort_surfaces(r, list);
    for (int k = 0; k < n; ++k) {
        const render_cmd *c = &list->cmds[r->surfaces[k]];
        if (c->kind == RENDER_CMD_SHIELD)
            draw_shield(r, (vec4 *)c->u.shield.model, c->u.shield.color, render_list_impacts(list, c),
                        c->u.shield.impact_count, c->u.shield.time, c->u.shield.lifetime,
                        c->u.shield.ripple_speed);
        else
            draw_glass_sphere(r, c->u.glass.center, c->u.glass.radius, c->u.glass.color);
    }
    draw_points(r);
    draw_beams(r);
}

void render_submit(renderer *r, const render_list *list)
{
    submit_opaque(r, list);
    float ground_y = 0.0f;
    bool ground = list_ground(list, &ground_y);
    draw_background(r, ground, ground_y);
    submit_translucent(r, list);
}

/* ------------------------------------------------------------ read back */

bool render_read_pixels(renderer *r, int width, int height, uint8_t *rgb)
{
    (void)r;
    if (width <= 0 || height <= 0 || !rgb)
        return false;
    size_t row = (size_t)width * 3;
    uint8_t *tmp = malloc(row);
    if (!tmp)
        return false;
    if (!gl_platform_read_rgb(width, height, rgb)) {
        free(tmp);
        return false;
    }
    /* GL's first row is the bottom one */
    for (int y = 0; y < height / 2; ++y) {
        uint8_t *a = rgb + (size_t)y * row, *b = rgb + (size_t)(height - 1 - y) * row;
        memcpy(tmp, a, row);
        memcpy(a, b, row);
        memcpy(b, tmp, row);
    }
    free(tmp);
    return glGetError() == GL_NO_ERROR;
}

/* ------------------------------------------------------------ for modules */

GLuint render_link_program(const char *vs, const char *fs, const char *name, char *err, size_t err_size)
{
    return program(vs, fs, name, err, err_size);
}

GLuint render_link_program_defined(const char *defines, const char *vs, const char *fs, const char *name, char *err,
                                   size_t err_size)
{
    return program_defined(defines, vs, fs, name, err, err_size);
}

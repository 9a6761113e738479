/* render_internal.h: the renderer's state, shared by render.c and text.c. */
#ifndef RAYPICK_RENDER_INTERNAL_H
#define RAYPICK_RENDER_INTERNAL_H

#include "gl_platform.h"
#include "render.h"

/* Every uniform any program uses. A program's locations are resolved once,
   when it is linked (-1 where the program has no such uniform: GL ignores
   those writes). */
typedef enum render_uniform_id {
    U_BEAM,
    U_BOTTOM,
    U_BOX,
    U_COLOR,
    U_EMISSIVE,
    U_EYE,
    U_FOG_COLOR,
    U_GROUND,
    U_GROUND_Y,
    U_HEIGHT_RANGE,
    U_IMPACT_COUNT,
    U_IMPACTS,
    U_INV_VIEW_PROJ,
    U_LIFETIME,
    U_LIGHT_DIR,
    U_MODEL,
    U_NORMAL_MATRIX,
    U_QUADS,
    U_RAY_BASE,
    U_RAY_DX,
    U_RAY_DY,
    U_RIPPLE_SPEED,
    U_ROUND_POINTS,
    U_SCREEN,
    U_TIME,
    U_TOP,
    U_VIEW_PROJ,
    U_COUNT
} render_uniform_id;

typedef struct render_program {
    GLuint id;
    GLint loc[U_COUNT];
    bool failed;        /* built on first use (render.c, program_ready) and failed */
} render_program;

typedef struct render_mesh {
    GLuint vao, vbo, ibo;
    int index_count;
} render_mesh;

typedef struct render_vertex {
    float position[3];
    float color[4];
    float extra;        /* beams: -1..1 across the beam; points: size in pixels */
} render_vertex;

typedef struct render_batch {
    GLuint vao, vbo;
    render_vertex *v;
    int count, cap;
} render_batch;

typedef struct text_vertex {
    float position[2];
    float color[4];
} text_vertex;

typedef struct render_terrain {
    render_mesh mesh;
    float min_y, max_y;
} render_terrain;

/* A terrain mesh built from a render_terrain_data, kept while the data's
   key (heights pointer, size, placement) stays the same. */
#define RENDER_TERRAIN_CACHE 4
typedef struct render_terrain_slot {
    render_terrain_data data;
    render_terrain *mesh;
} render_terrain_slot;

/* Meshes of render_list_mesh, uploaded once and kept while the data's key
   (the render_mesh_data's address and contents) stays the same. */
#define RENDER_MODEL_CACHE 4
struct render_model;
typedef struct render_model_slot {
    const render_mesh_data *key;
    render_mesh_data data;
    struct render_model *model;
} render_model_slot;

struct renderer {
    bool complete;          /* render_complete has run: the scene's parts exist */
    bool software;          /* a CPU rasteriser (llvmpipe): render_loading_begin */
    render_program bg_prog, flat_prog, lit_prog, line_prog, shield_prog, terrain_prog, text_prog;
    render_mesh shapes[RENDER_SHAPE_COUNT];
    /* instanced drawing: coarser shapes whose VAOs also read instance_vbo
       (one render_instance per copy) */
    render_program inst_prog;
    render_mesh inst_shapes[RENDER_SHAPE_COUNT];
    GLuint instance_vbo;
    /* spheres and boxes: impostors (a quad per copy, no vertex buffer but
       the instances), only the copies in view uploaded (culled into cull) */
    render_program impostor_prog, impostor_point_prog;   /* exact depth (quads) / the bound's front (points) */
    GLuint impostor_vao, impostor_point_vao;  /* quads (instanced) / points (plain) */
    float max_point_size;
    render_instance *cull;  /* the copies in view: points first, quads from the end */
    float *cull_depth;      /* each point's distance, then its order bucket */
    int *cull_index;        /* each point's index in the listed instances */
    int cull_cap;
    render_batch grid, shadows, lines, points, beams;
    render_batch hidden_lines;  /* x-ray lines' faint copies, drawn where hidden */
    render_batch background; /* screen grid in NDC (its own 2-float layout) */
    render_view view;
    vec3 light_dir;
    render_terrain_slot terrains[RENDER_TERRAIN_CACHE];
    int next_terrain;       /* the slot to reuse when all are taken */
    render_model_slot models[RENDER_MODEL_CACHE];
    int next_model;
    /* the frame's translucent surfaces, back to front (list indices) */
    int *surfaces;
    int surface_cap;
    /* HUD */
    GLuint text_vao, text_vbo;
    text_vertex *text;
    int text_count, text_cap;
};

/* Compile and link a program of modules with their own uniforms (model.c,
   pick.c): 0 and a message on failure. */
GLuint render_link_program(const char *vs, const char *fs, const char *name, char *err, size_t err_size);
/* the same with lines put between the #version line and the sources
   (e.g. "#define PICK_ID\n"; "" none) */
GLuint render_link_program_defined(const char *defines, const char *vs, const char *fs, const char *name, char *err,
                                   size_t err_size);
/* Attributes 2..5 of the bound VAO from vbo: one render_instance per copy
   (divisor 1) or per vertex (divisor 0: impostor points). */
void render_instance_attributes(GLuint vbo, GLuint divisor);
/* The radius of the sphere around an instance of a unit sphere (scaled: an
   ellipsoid) or of the cube [-1, 1]^3 (a box); other kinds as spheres. */
float render_instance_radius(render_shape_kind kind, const render_instance *in);
/* true when the sphere (center, radius) is at least partly inside all six
   planes (glm_frustum_planes: unit normals pointing in) */
bool render_sphere_meets_planes(const vec4 planes[6], const float center[3], float radius);
/* The world ray through window pixel (x, y), y up as gl_FragCoord's, is
   base + x dx + y dy from v's eye (affine in x and y for a perspective or
   orthographic projection): what shaders/impostor.* ray-cast with. */
void render_pixel_rays(const render_view *v, vec3 base, vec3 dx, vec3 dy);
/* the GPU copy of a listed mesh (made on first use), NULL on failure */
struct render_model *render_cached_model(renderer *r, const render_mesh_data *d);
void render_models_free(renderer *r);
void render_text_init(renderer *r);
void render_text_free(renderer *r);
void render_text_flush(renderer *r);

#endif

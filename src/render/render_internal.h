/* render_internal.h: the renderer's state and what its rooms share. Each
   room is a file named for what it draws, and calls only the rooms below
   it in this list, never one above (docs/architecture.md has the same
   list; tests/check_render_architecture.py checks both):

     render.c       life cycle, render_begin / render_end, read back
     submit.c       render_submit: the phases, each command to its room
     pick.c         the GPU pick pass: the list again, with ids (render_pick.h)
     model.c        user meshes (render_model.h) and their cache
     terrain.c      heightmap terrains and their cache
     shield.c       shields and glass spheres (translucent)
     instances.c    many copies of a shape: impostors or instanced meshes
     impostor.c     spheres and boxes among them, ray-cast; culling helpers
     background.c   the gradient and the ground plane
     batches.c      lines, points, beams, shadows, the grid
     figure.c       2D figures (insets, the code panel), cached in a layer
     text.c         the HUD and the loading screen's line
     shapes.c       GPU meshes, the lit shapes, vertex layouts
     program.c      the renderer's GLSL programs and their uniforms
     gl_program.c   compiling and linking (shared with a bench)
     gl_platform.c  desktop GL vs WebGL2
     render_list.c  the frame's commands as plain data (no GL)
     geometry.c     the shapes' vertices (no GL)
     clock.c        a monotonic clock (no GL)
     steady_math.c  sine and cosine, the same bits everywhere (no GL)
     font.c         the HUD's fonts: found, read with stb_truetype (no GL) */
#ifndef RAYPICK_RENDER_INTERNAL_H
#define RAYPICK_RENDER_INTERNAL_H

#include "geometry.h"
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
    bool failed;        /* built on first use (render_program_ready) and failed */
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
    float uv[2];        /* in the glyph atlas; negative: a solid quad */
    float color[4];
} text_vertex;

/* The frame's 2D figures (figure.c): triangles in pixels, drawn into a
   layer (a texture the size of the drawable) kept while the figures stay
   the same, then shown as one quad over their extent. */
typedef struct render_figure_batch {
    GLuint vao, vbo;
    text_vertex *v;
    int count, cap;
    GLuint layer_fbo, layer_tex;
    int layer_w, layer_h;
    uint64_t layer_key;         /* the figures the layer holds (0: none) */
    float extent[4];            /* where they are: x0, y0, x1, y1 */
    GLuint quad_vao, quad_vbo;
} render_figure_batch;

/* A terrain's GPU mesh (terrain.c). */
typedef struct render_terrain render_terrain;

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
    render_program glass_prog;      /* shield.frag without impacts (GLASS) */
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
    bool scene_clipped;         /* render_scene_rect: the scene's phases scissored to scene_box
                                   (set there, lifted by render_draw_figures and render_end) */
    int scene_box[4];           /* GL's x, y (bottom-up), width, height */
    vec3 light_dir;
    render_terrain_slot terrains[RENDER_TERRAIN_CACHE];
    int next_terrain;       /* the slot to reuse when all are taken */
    render_model_slot models[RENDER_MODEL_CACHE];
    int next_model;
    /* the frame's translucent surfaces, back to front (list indices) */
    int *surfaces;
    int surface_cap;
    /* 2D figures (insets, the code panel): built on first use */
    render_program figure_prog, figure_layer_prog;
    render_figure_batch figure;
    /* HUD */
    GLuint text_vao, text_vbo;
    text_vertex *text;
    int text_count, text_cap;
    font_set *fonts;            /* NULL: stb_easy_font (render_set_fonts) */
    struct text_atlas *atlas;   /* the glyphs drawn so far (text.c), made on first use */
};

/* ---- model.c: user meshes ---------------------------------------------- */

/* the GPU copy of a listed mesh (made on first use), NULL on failure */
struct render_model *render_cached_model(renderer *r, const render_mesh_data *d);
void render_models_free(renderer *r);

/* ---- terrain.c --------------------------------------------------------- */

/* The GPU mesh of a terrain: built the first time its data is seen, then
   reused while the data's key is the same. NULL when it cannot be built. */
render_terrain *render_terrain_cached(renderer *r, const render_terrain_data *d);
/* draws t lit and fogged (nothing for NULL) */
void render_draw_terrain(renderer *r, const render_terrain *t);
void render_terrains_free(renderer *r);

/* ---- shield.c ---------------------------------------------------------- */

/* The list's shields and glass spheres, translucent, farthest centre
   first. A shield shows the newest live impacts its shader takes, its far
   side only while an impact lies there; glass has its near side only. */
void render_draw_surfaces(renderer *r, const render_list *list);
void render_surfaces_free(renderer *r);

/* ---- instances.c ------------------------------------------------------- */

/* instance_vbo and the coarse shapes reading it; false when out of memory */
bool render_instances_build(renderer *r);
void render_instances_free(renderer *r);
/* Every copy in view in a draw or two (nothing for a bad kind, NULL or a
   count <= 0). */
void render_draw_instances(renderer *r, render_shape_kind kind, const render_instance *inst, int count);

/* ---- impostor.c -------------------------------------------------------- */

/* the impostors' VAOs (reading instance_vbo: build it first) */
void render_impostors_build(renderer *r);
void render_impostors_free(renderer *r);
/* Spheres (kind RENDER_SPHERE, scaled: ellipsoids) or boxes (RENDER_CUBE):
   points nearest first where a copy fits one, quads with exact depth
   where not. */
void render_draw_impostors(renderer *r, render_shape_kind kind, const render_instance *inst, int count);
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

/* ---- background.c ------------------------------------------------------ */

extern const vec3 RENDER_BG_TOP;      /* the sky's top, the terrain's fog */
extern const vec3 RENDER_BG_BOTTOM;   /* the horizon, render_begin's clear */
void render_background_build(renderer *r);
void render_background_free(renderer *r);
/* The gradient, and the ground plane at ground_y when ground. Drawn after
   the opaque geometry, at the far plane, so a software rasteriser shades
   only the pixels nothing else covers; and before anything translucent,
   which blends over it. */
void render_draw_background(renderer *r, bool ground, float ground_y);

/* ---- batches.c --------------------------------------------------------- */

void render_batch_init(render_batch *b);
void render_batch_free(render_batch *b);
/* the frame's batches and the grid's */
void render_batches_build(renderer *r);
void render_batches_free(renderer *r);
/* the grid, fading with distance, at height y */
void render_draw_grid(renderer *r, float y);
/* The list's shadows, lines, points and beams into their batches, in list
   order; the draws below empty them. */
void render_batches_collect(renderer *r, const render_list *list);
/* Shadows (ground decals: no depth writes), then lines (they write depth,
   so translucent surfaces drawn later stay behind the ones in front), then
   x-ray lines' faint copies where something nearer hides them. */
void render_draw_shadows_and_lines(renderer *r);
/* Round points: markers, mostly of points ON a shield or a bounding sphere
   (the hit), so they go after those surfaces: drawn before, a marker would
   write depth and hide half of the surface's glow around it. The size
   rides in the extra attribute. */
void render_draw_points(renderer *r);
/* Beams glow: additive, no depth writes, so their order does not matter
   and they light up whatever translucent surface lies behind them. */
void render_draw_beams(renderer *r);

/* ---- figure.c ---------------------------------------------------------- */

void render_figure_init(renderer *r);
void render_figure_free(renderer *r);
/* The list's RENDER_CMD_FIGURE commands, in list order, over the scene
   (depth off, blended, no scissor: render_scene_rect's ends here), texts
   over shapes. Drawn into the layer only when
   they differ from the last frame's (or the drawable's size does); else
   the layer is shown as it is. */
void render_draw_figures(renderer *r, const render_list *list);

/* ---- text.c ------------------------------------------------------------ */

void render_text_init(renderer *r);
void render_text_free(renderer *r);
/* the frame's HUD quads, over everything (render_end) */
void render_text_flush(renderer *r);

/* ---- shapes.c ---------------------------------------------------------- */

/* a geo_mesh to a VAO (positions at 0, normals at 1) with its buffers */
void render_mesh_upload(const geo_mesh *m, render_mesh *out);
void render_mesh_delete(render_mesh *m);
void render_mesh_draw(const render_mesh *m);
/* the lit shapes (geo_shape); false when out of memory */
bool render_shapes_build(renderer *r);
void render_shapes_free(renderer *r);
/* model, its normal matrix, the view's matrix and eye into prog */
void render_set_model_uniforms(const render_program *prog, const render_view *v, mat4 model);
/* an opaque lit shape (nothing for a bad kind); emissive may be NULL */
void render_draw_shape(renderer *r, render_shape_kind kind, mat4 model, const vec4 color, const vec3 emissive);
/* Attribute index of the bound VAO: `size` floats at offset, stride
   bytes apart, from the bound GL_ARRAY_BUFFER. */
void render_float_attribute(GLuint index, GLint size, size_t stride, size_t offset);
/* Attributes 0 (position) and 1 (normal) of the bound VAO from m's
   buffers, its indices bound too (geo_vertex's layout). */
void render_mesh_attributes(const render_mesh *m);
/* Attributes 2..5 of the bound VAO from vbo: one render_instance per copy
   (divisor 1) or per vertex (divisor 0: impostor points). */
void render_instance_attributes(GLuint vbo, GLuint divisor);

/* ---- program.c --------------------------------------------------------- */

/* The programs every frame uses (the rest: render_program_ready). false
   with a message. */
bool render_programs_build(renderer *r, char *err, size_t err_size);
void render_programs_free(renderer *r);
/* Links the program (its sources after `defines`, "" none) and looks up
   every uniform once. false with a message. */
bool render_program_build(render_program *out, const char *defines, const char *vs, const char *fs, const char *name,
                          char *err, size_t err_size);
/* p built on first use: true when it is ready; false (and the failure said
   on stderr, once) when it does not build. */
bool render_program_ready(render_program *p, const char *defines, const char *vs, const char *fs, const char *name);
/* Compile and link a program of modules with their own uniforms (model.c,
   pick.c): 0 and a message on failure. */
GLuint render_link_program(const char *vs, const char *fs, const char *name, char *err, size_t err_size);
/* the same with lines put between the #version line and the sources
   (e.g. "#define PICK_ID\n"; "" none) */
GLuint render_link_program_defined(const char *defines, const char *vs, const char *fs, const char *name, char *err,
                                   size_t err_size);

#endif

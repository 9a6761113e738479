/*
 * render_list.h: what a frame draws, as plain data. Lessons fill a list;
 * the renderer (submit.c) submits it. This header and render_list.c need no
 * GL: the lesson unit tests link them without a window, and can read back
 * what a lesson asked to draw.
 *
 *     render_list_reset(list, &view);
 *     render_list_shape(list, RENDER_CUBE, model, color, glow);
 *     render_list_grid(list, 0.0f);
 *     render_list_line(list, a, b, color);
 *     render_list_pick_id(list, 100);      // GPU picking: copy j writes 100 + j
 *     render_list_instances(list, RENDER_SPHERE, copies, n);
 *     render_list_pick_id(list, -1);
 *     render_submit(r, list);              // render.h: the GL side
 *
 * The order of the calls does not decide the picture: the renderer draws
 * the list in fixed phases (opaque, background, translucent; submit.c
 * says which command goes where) and sorts shields and glass spheres back
 * to front. Lines, points, shadows and beams keep their list order within
 * their kind (overlapping ones blend in that order).
 *
 * Every command is copied into the list (a shield's impacts too), so the
 * list stays valid whatever its producer does afterwards; only a terrain's
 * heights, a mesh's data and instanced copies are referenced (see
 * render_terrain_data, render_list_instances).
 */
#ifndef RAYPICK_RENDER_LIST_H
#define RAYPICK_RENDER_LIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cglm/cglm.h>

/* What the camera sees this frame. */
typedef struct render_view {
    mat4 view;
    mat4 proj;
    mat4 view_proj;
    vec3 eye;
    int  width, height;     /* drawable pixels */
} render_view;

typedef enum render_shape_kind {
    RENDER_SPHERE,          /* unit radius */
    RENDER_CUBE,            /* half-size 1: corners at +-1 */
    RENDER_TORUS,           /* ring radius 0.75, tube 0.3, around y */
    RENDER_CONE,            /* base radius 1 at y = -1, apex at y = 1 */
    RENDER_SHAPE_COUNT
} render_shape_kind;

/* A terrain grid: cols x rows samples, heights[row * cols + col], at
   x = origin.x + col * spacing, z = origin.z + row * spacing. The heights
   are NOT copied: they must live as long as the renderer may draw them
   (the renderer keeps the GPU mesh it builds, keyed by this pointer). */
typedef struct render_terrain_data {
    int cols, rows;
    float spacing;
    vec3 origin;
    const float *heights;
    uint32_t version;   /* bump when the heights change in place: the
                           renderer's cached mesh is rebuilt (0 is fine) */
} render_terrain_data;

typedef enum render_cmd_kind {
    RENDER_CMD_SHAPE,       /* opaque lit shape */
    RENDER_CMD_TERRAIN,     /* opaque terrain */
    RENDER_CMD_GRID,        /* ground plane and grid */
    RENDER_CMD_SHADOW,      /* soft round shadow on the ground */
    RENDER_CMD_LINE,
    RENDER_CMD_POINT,
    RENDER_CMD_BEAM,        /* glowing camera-facing quad */
    RENDER_CMD_SHIELD,      /* translucent shield with impact ripples */
    RENDER_CMD_GLASS,       /* translucent bounding sphere */
    RENDER_CMD_MESH,        /* opaque lit triangle mesh (lesson 5) */
    RENDER_CMD_MESH_HIGHLIGHT, /* some of a mesh's triangles drawn over it */
    RENDER_CMD_INSTANCES,   /* many copies of one opaque shape, one draw call */
    RENDER_CMD_FIGURE,      /* a 2D figure's part in drawable pixels (an inset), over the scene */
    RENDER_CMD_COUNT        /* how many kinds there are (not a command) */
} render_cmd_kind;

/* One copy of a shape in an instanced draw: the unit shape scaled per
   axis, turned by a unit quaternion (x y z w, cglm's versor), moved to
   position, in its own colour. 14 floats: what the GPU reads per copy. */
typedef struct render_instance {
    float position[3];
    float scale[3];
    float rotation[4];
    float color[4];
} render_instance;

/* A triangle mesh (lesson 5's model): interleaved vertices, position (3
   floats) at byte 0, normal (3 floats) at 12, tu tv (2 floats) at 24,
   `stride` bytes apart (>= 32); three 32-bit indices per triangle. NOT
   copied: like a terrain's heights it must live as long as the renderer
   may draw it (the renderer keeps the GPU copy it makes, keyed by this
   struct's address and contents). */
typedef struct render_mesh_data {
    const void     *vertices;
    size_t          vertex_count, stride;
    const uint32_t *indices;
    size_t          triangle_count;
    bool            two_sided;  /* draw back faces too (an open mesh, a
                                   model of unknown winding); false: cull
                                   them, half the rasterising of a closed one */
} render_mesh_data;

/* A 2D figure's parts (render_list_fig_*): drawable pixels, top-left
   origin, like the HUD. */
typedef enum render_figure_kind {
    RENDER_FIG_RECT,        /* filled rectangle (x0, y0) - (x1, y1) */
    RENDER_FIG_LINE,        /* (x0, y0) to (x1, y1), width pixels wide */
    RENDER_FIG_ARROW,       /* a line with a head at (x1, y1) */
    RENDER_FIG_CIRCLE,      /* centre (x0, y0), radius x1; a ring width wide, 0: a disc */
    RENDER_FIG_TEXT         /* the list's string at (x0, y0), render_text's scale x1, wrapped to
                               y1 (> 0), or clipped at x = width (> 0) */
} render_figure_kind;

typedef enum render_figure_align {
    RENDER_ALIGN_LEFT,      /* text starts at x */
    RENDER_ALIGN_CENTER,    /* centred on x */
    RENDER_ALIGN_RIGHT      /* ends at x */
} render_figure_align;

/* Most triangles one highlight command draws (the Pick sample's
   MAX_INTERSECTIONS). */
#define RENDER_HIGHLIGHT_MAX 16

typedef struct render_cmd {
    render_cmd_kind kind;
    int pick_id;            /* GPU picking: the id this shape or mesh writes
                               (a mesh: pick_id + triangle; instances:
                               pick_id + the copy's index); -1 = not pickable */
    union {
        struct { render_shape_kind shape; mat4 model; vec4 color; vec3 emissive; } shape;
        render_terrain_data terrain;
        struct { float y; } grid;
        struct { vec3 center; float radius, ground, strength; } shadow;
        struct { vec3 a, b; vec4 color; bool xray; } line;
        struct { vec3 p; float size_px; vec4 color; } point;
        struct { vec3 a, b; float width; vec4 color; } beam;
        struct {
            mat4 model; vec4 color;
            int impact_first, impact_count;     /* in the list's impacts */
            float time, lifetime, ripple_speed;
        } shield;
        struct { vec3 center; float radius; vec4 color; } glass;
        struct { const render_mesh_data *mesh; mat4 model; vec4 color; float checks; bool two_sided; } mesh;
        struct {
            const render_mesh_data *mesh; mat4 model;
            uint32_t triangles[RENDER_HIGHLIGHT_MAX]; int count;
            vec4 fill, edge;
        } highlight;
        struct { render_shape_kind shape; const render_instance *instances; int count; } instances;
        struct {
            render_figure_kind shape;
            float x0, y0, x1, y1, width;
            vec4 color;
            int text;                   /* RENDER_FIG_TEXT: offset in the list's strings */
            render_figure_align align;
        } figure;
    } u;
} render_cmd;

typedef struct render_list {
    render_view view;
    render_cmd *cmds;
    int count, cap;
    vec4 *impacts;          /* the shields' impacts, each shield a run */
    int impact_count, impact_cap;
    char *strings;          /* the figures' texts, each NUL-terminated */
    int string_len, string_cap;
    bool out_of_memory;     /* a command was dropped this frame */
    int pick_id;            /* given to the shapes and meshes listed next */
} render_list;

/* Empties the list (keeps its memory) and sets the frame's view. */
void render_list_reset(render_list *list, const render_view *view);
/* Frees the commands; the list may be reused after a reset. */
void render_list_free(render_list *list);
/* Makes room for at least cap commands now and touches it, so a frame
   that lists more than any before does not grow the program's memory in a
   step mid-run (a long-running program's memory then says what it uses,
   which the soak run checks). false when out of memory (the list keeps
   what it had). */
bool render_list_reserve(render_list *list, int cap);

/* an opaque lit shape; emissive (NULL: none) is added on top (highlights) */
void render_list_shape(render_list *list, render_shape_kind kind, mat4 model,
                       const vec4 color, const vec3 emissive);
void render_list_terrain(render_list *list, const render_terrain_data *terrain);
/* ground plane and grid at height y, fading with distance */
void render_list_grid(render_list *list, float y);
void render_list_shadow(render_list *list, const vec3 center, float radius, float ground,
                        float strength);
void render_list_line(render_list *list, const vec3 a, const vec3 b, const vec4 color);
/* A line that also shows, faintly, where surfaces hide it: boxes among
   many objects (lesson 1's BVH boxes inside the asteroid belt). */
void render_list_line_xray(render_list *list, const vec3 a, const vec3 b, const vec4 color);
void render_list_point(render_list *list, const vec3 p, float size_px, const vec4 color);
void render_list_beam(render_list *list, const vec3 a, const vec3 b, float width, const vec4 color);
/* A translucent shield: a unit sphere transformed by model (scale: an
   ellipsoid). impacts[i] = world point xyz + start time w (w < 0: an
   unused slot), as many as the lesson keeps; each lights a spot and an
   expanding ring while time - w is in [0, lifetime]. (The renderer shows
   the newest ones it has room for when too many are live at once.) */
void render_list_shield(render_list *list, mat4 model, const vec4 color,
                        const vec4 *impacts, int impact_count, float time,
                        float lifetime, float ripple_speed);
/* a bounding volume shown as glass: near side only, no impacts */
void render_list_glass_sphere(render_list *list, const vec3 center, float radius, const vec4 color);
/* GPU picking: the shapes, meshes and instances listed after this call
   write `id` into the ID buffer (a mesh writes id + its triangle index,
   instances id + the copy's index); -1 (what render_list_reset sets, and
   any negative id) makes them not pickable. */
void render_list_pick_id(render_list *list, int id);
/* A mesh, lit, with a checker of `checks` squares per unit of tu/tv (0:
   plain); drawn with the opaque shapes; mesh must outlive the frame (see
   render_mesh_data). */
void render_list_mesh(render_list *list, const render_mesh_data *mesh, mat4 model,
                      const vec4 color, float checks);
/* Triangles of a mesh drawn over it in a flat colour with their edges (the
   edges also where the mesh hides them); the first RENDER_HIGHLIGHT_MAX. */
void render_list_mesh_highlight(render_list *list, const render_mesh_data *mesh, mat4 model,
                                const uint32_t *triangles, size_t count, const vec4 fill,
                                const vec4 edge);
/* Many copies of one shape in one command (drawn with the opaque shapes,
   lit). The instances are NOT copied (100,000 of them would double a
   frame's memory traffic): they must stay as they are until the list is
   submitted. Ignored for a count <= 0, NULL instances or an unknown kind.
   Spheres (ellipsoids once scaled) and cubes are drawn as impostors: only
   the copies in view, each a point sprite (or a quad when large) on which
   the exact shape is ray-cast per pixel; other kinds as instances of a
   coarser mesh than render_list_shape's.
   GPU picking: the list's pick id is the base of a run, copy j writes
   base + j (render_list_pick_id(list, base) first; the lesson maps an id
   back to its object through the copy's index). The command is not
   pickable when base + count - 1 would not fit an int. */
void render_list_instances(render_list *list, render_shape_kind kind,
                           const render_instance *instances, int count);
/* ---- 2D figures (insets, the code panel), over the scene, under the HUD -
   Drawable pixels with the origin top left, as render_text's. The texts
   are copied into the list. A lesson draws its figure into the area the
   app gives it (lesson.h, figure). Ignored for non-finite coordinates.
   The renderer draws a frame's figures into a layer it keeps while they
   stay the same (figure.c): an unchanged panel costs one textured quad. */
void render_list_fig_rect(render_list *list, float x, float y, float w, float h, const vec4 color);
void render_list_fig_line(render_list *list, float x0, float y0, float x1, float y1, float width,
                          const vec4 color);
/* n points (x, y pairs in xy) joined by lines; a pair with a non-finite
   coordinate breaks the line there */
void render_list_fig_polyline(render_list *list, const float *xy, int n, float width, const vec4 color);
void render_list_fig_arrow(render_list *list, float x0, float y0, float x1, float y1, float width,
                           const vec4 color);
/* a ring width pixels wide (width <= 0: a filled disc) */
void render_list_fig_circle(render_list *list, float cx, float cy, float r, float width, const vec4 color);
/* text (one or more lines) with render_text's scale, its top at y; max_w
   > 0: lines wider than max_w pixels are wrapped (at a space where there
   is one, else between two characters: Chinese has no spaces) */
void render_list_fig_text(render_list *list, float x, float y, float scale, render_figure_align align,
                          float max_w, const vec4 color, const char *text);
/* render_list_fig_text on one line, its characters reaching past max_x
   left out (a line of code in a panel) */
void render_list_fig_text_clipped(render_list *list, float x, float y, float scale, float max_x,
                                  const vec4 color, const char *text);
/* a figure text command's string ("" for any other command) */
const char *render_list_fig_string(const render_list *list, const render_cmd *c);

/* appends a copy of from's command number index (a shield with its impacts) */
void render_list_append(render_list *list, const render_list *from, int index);
/* a shield command's impacts (u.shield.impact_count of them) */
const vec4 *render_list_impacts(const render_list *list, const render_cmd *shield);

#endif /* RAYPICK_RENDER_LIST_H */

/* render_list.c: the frame's commands as plain data (no GL here). */
#include "render_list.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void render_list_reset(render_list *list, const render_view *view)
{
    list->view = *view;
    list->count = 0;
    list->impact_count = 0;
    list->string_len = 0;
    list->out_of_memory = false;
    list->pick_id = -1;
}

bool render_list_reserve(render_list *list, int cap)
{
    if (cap <= list->cap)
        return true;
    render_cmd *cmds = realloc(list->cmds, (size_t)cap * sizeof *cmds);
    if (!cmds)
        return false;
    memset(cmds + list->cap, 0, (size_t)(cap - list->cap) * sizeof *cmds);
    list->cmds = cmds;
    list->cap = cap;
    /* the figures' texts: a few KB, from the start too */
    int string_cap = 16384;
    if (list->string_cap < string_cap) {
        char *strings = realloc(list->strings, (size_t)string_cap);
        if (!strings)
            return false;
        memset(strings + list->string_cap, 0, (size_t)(string_cap - list->string_cap));
        list->strings = strings;
        list->string_cap = string_cap;
    }
    return true;
}

void render_list_free(render_list *list)
{
    free(list->cmds);
    free(list->impacts);
    free(list->strings);
    list->cmds = NULL;
    list->impacts = NULL;
    list->strings = NULL;
    list->count = list->cap = 0;
    list->impact_count = list->impact_cap = 0;
    list->string_len = list->string_cap = 0;
}

/* A zeroed command of `kind` at the end of the list, NULL when out of memory. */
static render_cmd *push(render_list *list, render_cmd_kind kind)
{
    if (list->count == list->cap) {
        int cap = list->cap ? list->cap * 2 : 256;
        render_cmd *cmds = realloc(list->cmds, (size_t)cap * sizeof *cmds);
        if (!cmds) {
            list->out_of_memory = true;
            return NULL;
        }
        list->cmds = cmds;
        list->cap = cap;
    }
    render_cmd *c = &list->cmds[list->count++];
    memset(c, 0, sizeof *c);
    c->kind = kind;
    c->pick_id = list->pick_id;
    return c;
}

/* Room for n impacts at the end of the list's impacts, NULL when out of
   memory (or n is 0). */
static vec4 *push_impacts(render_list *list, int n)
{
    if (n <= 0)
        return NULL;
    if (list->impact_count + n > list->impact_cap) {
        int cap = list->impact_cap ? list->impact_cap : 64;
        while (cap < list->impact_count + n)
            cap *= 2;
        vec4 *impacts = realloc(list->impacts, (size_t)cap * sizeof *impacts);
        if (!impacts) {
            list->out_of_memory = true;
            return NULL;
        }
        list->impacts = impacts;
        list->impact_cap = cap;
    }
    vec4 *out = list->impacts + list->impact_count;
    list->impact_count += n;
    return out;
}

const vec4 *render_list_impacts(const render_list *list, const render_cmd *shield)
{
    return shield->u.shield.impact_count ? (const vec4 *)(list->impacts + shield->u.shield.impact_first) : NULL;
}

void render_list_shape(render_list *list, render_shape_kind kind, mat4 model,
                       const vec4 color, const vec3 emissive)
{
    if ((int)kind < 0 || kind >= RENDER_SHAPE_COUNT)
        return;
    render_cmd *c = push(list, RENDER_CMD_SHAPE);
    if (!c)
        return;
    c->u.shape.shape = kind;
    glm_mat4_copy(model, c->u.shape.model);
    glm_vec4_copy((float *)color, c->u.shape.color);
    if (emissive)
        glm_vec3_copy((float *)emissive, c->u.shape.emissive);
}

void render_list_terrain(render_list *list, const render_terrain_data *terrain)
{
    render_cmd *c = terrain ? push(list, RENDER_CMD_TERRAIN) : NULL;
    if (c)
        c->u.terrain = *terrain;
}

void render_list_grid(render_list *list, float y)
{
    render_cmd *c = push(list, RENDER_CMD_GRID);
    if (c)
        c->u.grid.y = y;
}

void render_list_shadow(render_list *list, const vec3 center, float radius, float ground,
                        float strength)
{
    render_cmd *c = push(list, RENDER_CMD_SHADOW);
    if (!c)
        return;
    glm_vec3_copy((float *)center, c->u.shadow.center);
    c->u.shadow.radius = radius;
    c->u.shadow.ground = ground;
    c->u.shadow.strength = strength;
}

void render_list_line(render_list *list, const vec3 a, const vec3 b, const vec4 color)
{
    render_cmd *c = push(list, RENDER_CMD_LINE);
    if (!c)
        return;
    glm_vec3_copy((float *)a, c->u.line.a);
    glm_vec3_copy((float *)b, c->u.line.b);
    glm_vec4_copy((float *)color, c->u.line.color);
}

void render_list_line_xray(render_list *list, const vec3 a, const vec3 b, const vec4 color)
{
    render_list_line(list, a, b, color);
    if (list->count > 0 && list->cmds[list->count - 1].kind == RENDER_CMD_LINE)
        list->cmds[list->count - 1].u.line.xray = true;
}

void render_list_point(render_list *list, const vec3 p, float size_px, const vec4 color)
{
    render_cmd *c = push(list, RENDER_CMD_POINT);
    if (!c)
        return;
    glm_vec3_copy((float *)p, c->u.point.p);
    c->u.point.size_px = size_px;
    glm_vec4_copy((float *)color, c->u.point.color);
}

void render_list_beam(render_list *list, const vec3 a, const vec3 b, float width, const vec4 color)
{
    render_cmd *c = push(list, RENDER_CMD_BEAM);
    if (!c)
        return;
    glm_vec3_copy((float *)a, c->u.beam.a);
    glm_vec3_copy((float *)b, c->u.beam.b);
    c->u.beam.width = width;
    glm_vec4_copy((float *)color, c->u.beam.color);
}

void render_list_shield(render_list *list, mat4 model, const vec4 color,
                        const vec4 *impacts, int impact_count, float time,
                        float lifetime, float ripple_speed)
{
    int n = impacts && impact_count > 0 ? impact_count : 0;
    vec4 *copy = push_impacts(list, n);
    render_cmd *c = n == 0 || copy ? push(list, RENDER_CMD_SHIELD) : NULL;
    if (!c)
        return;
    glm_mat4_copy(model, c->u.shield.model);
    glm_vec4_copy((float *)color, c->u.shield.color);
    if (n)
        memcpy(copy, impacts, (size_t)n * sizeof *copy);
    c->u.shield.impact_first = n ? (int)(copy - list->impacts) : 0;
    c->u.shield.impact_count = n;
    c->u.shield.time = time;
    c->u.shield.lifetime = lifetime;
    c->u.shield.ripple_speed = ripple_speed;
}

void render_list_glass_sphere(render_list *list, const vec3 center, float radius, const vec4 color)
{
    render_cmd *c = push(list, RENDER_CMD_GLASS);
    if (!c)
        return;
    glm_vec3_copy((float *)center, c->u.glass.center);
    c->u.glass.radius = radius;
    glm_vec4_copy((float *)color, c->u.glass.color);
}

void render_list_append(render_list *list, const render_list *from, int index)
{
    if (index < 0 || index >= from->count)
        return;
    const render_cmd *c = &from->cmds[index];
    if (c->kind == RENDER_CMD_SHIELD) {
        render_list_shield(list, (vec4 *)c->u.shield.model, c->u.shield.color, render_list_impacts(from, c),
                           c->u.shield.impact_count, c->u.shield.time, c->u.shield.lifetime,
                           c->u.shield.ripple_speed);
        return;
    }
    if (c->kind == RENDER_CMD_FIGURE && c->u.figure.shape == RENDER_FIG_TEXT) {
        render_list_fig_text(list, c->u.figure.x0, c->u.figure.y0, c->u.figure.x1, c->u.figure.align,
                             c->u.figure.y1, c->u.figure.color, render_list_fig_string(from, c));
        if (list->count > 0 && list->cmds[list->count - 1].kind == RENDER_CMD_FIGURE)
            list->cmds[list->count - 1].u.figure.width = c->u.figure.width;
        return;
    }
    render_cmd *copy = push(list, c->kind);
    if (copy)
        *copy = *c;
}

void render_list_pick_id(render_list *list, int id)
{
    list->pick_id = id < 0 ? -1 : id;
}

void render_list_mesh(render_list *list, const render_mesh_data *mesh, mat4 model,
                      const vec4 color, float checks)
{
    render_cmd *c = mesh ? push(list, RENDER_CMD_MESH) : NULL;
    if (!c)
        return;
    c->u.mesh.mesh = mesh;
    glm_mat4_copy(model, c->u.mesh.model);
    glm_vec4_copy((float *)color, c->u.mesh.color);
    c->u.mesh.checks = checks;
    c->u.mesh.two_sided = mesh->two_sided;
}

void render_list_mesh_highlight(render_list *list, const render_mesh_data *mesh, mat4 model,
                                const uint32_t *triangles, size_t count, const vec4 fill,
                                const vec4 edge)
{
    render_cmd *c = mesh && triangles && count ? push(list, RENDER_CMD_MESH_HIGHLIGHT) : NULL;
    if (!c)
        return;
    c->pick_id = -1;    /* drawn over the mesh: never a pick target of its own */
    c->u.highlight.mesh = mesh;
    glm_mat4_copy(model, c->u.highlight.model);
    size_t n = count < RENDER_HIGHLIGHT_MAX ? count : RENDER_HIGHLIGHT_MAX;
    memcpy(c->u.highlight.triangles, triangles, n * sizeof *triangles);
    c->u.highlight.count = (int)n;
    glm_vec4_copy((float *)fill, c->u.highlight.fill);
    glm_vec4_copy((float *)edge, c->u.highlight.edge);
}

void render_list_instances(render_list *list, render_shape_kind kind,
                           const render_instance *instances, int count)
{
    if ((int)kind < 0 || kind >= RENDER_SHAPE_COUNT || !instances || count <= 0)
        return;
    render_cmd *c = push(list, RENDER_CMD_INSTANCES);
    if (!c)
        return;
    if (c->pick_id > INT_MAX - (count - 1))
        c->pick_id = -1;    /* base + count - 1, the last copy's id, must be an int */
    c->u.instances.shape = kind;
    c->u.instances.instances = instances;
    c->u.instances.count = count;
}

/* ------------------------------------------------------------ figures */

static bool finite4(float a, float b, float c, float d)
{
    return isfinite(a) && isfinite(b) && isfinite(c) && isfinite(d);
}

static render_cmd *push_figure(render_list *list, render_figure_kind shape, float x0, float y0, float x1,
                               float y1, float width, const vec4 color)
{
    if (!finite4(x0, y0, x1, y1) || !isfinite(width))
        return NULL;
    render_cmd *c = push(list, RENDER_CMD_FIGURE);
    if (!c)
        return NULL;
    c->pick_id = -1;
    c->u.figure.shape = shape;
    c->u.figure.x0 = x0;
    c->u.figure.y0 = y0;
    c->u.figure.x1 = x1;
    c->u.figure.y1 = y1;
    c->u.figure.width = width;
    glm_vec4_copy((float *)color, c->u.figure.color);
    return c;
}

void render_list_fig_rect(render_list *list, float x, float y, float w, float h, const vec4 color)
{
    push_figure(list, RENDER_FIG_RECT, x, y, x + w, y + h, 0.0f, color);
}

void render_list_fig_line(render_list *list, float x0, float y0, float x1, float y1, float width,
                          const vec4 color)
{
    push_figure(list, RENDER_FIG_LINE, x0, y0, x1, y1, width, color);
}

void render_list_fig_polyline(render_list *list, const float *xy, int n, float width, const vec4 color)
{
    for (int i = 1; xy && i < n; ++i)
        push_figure(list, RENDER_FIG_LINE, xy[2 * i - 2], xy[2 * i - 1], xy[2 * i], xy[2 * i + 1], width, color);
}

void render_list_fig_arrow(render_list *list, float x0, float y0, float x1, float y1, float width,
                           const vec4 color)
{
    push_figure(list, RENDER_FIG_ARROW, x0, y0, x1, y1, width, color);
}

void render_list_fig_circle(render_list *list, float cx, float cy, float r, float width, const vec4 color)
{
    if (r > 0.0f)
        push_figure(list, RENDER_FIG_CIRCLE, cx, cy, r, 0.0f, width, color);
}

void render_list_fig_text(render_list *list, float x, float y, float scale, render_figure_align align,
                          float max_w, const vec4 color, const char *text)
{
    if (!text || !(scale > 0.0f) || !isfinite(max_w))
        return;
    size_t n = strlen(text) + 1;
    if (n > (size_t)INT_MAX / 2 || list->string_len > INT_MAX / 2 - (int)n) {
        list->out_of_memory = true;
        return;
    }
    if (list->string_len + (int)n > list->string_cap) {
        int cap = list->string_cap ? list->string_cap : 4096;
        while (cap < list->string_len + (int)n)
            cap *= 2;
        char *strings = realloc(list->strings, (size_t)cap);
        if (!strings) {
            list->out_of_memory = true;
            return;
        }
        list->strings = strings;
        list->string_cap = cap;
    }
    render_cmd *c = push_figure(list, RENDER_FIG_TEXT, x, y, scale, max_w > 0.0f ? max_w : 0.0f, 0.0f, color);
    if (!c)
        return;
    c->u.figure.text = list->string_len;
    c->u.figure.align = align;
    memcpy(list->strings + list->string_len, text, n);
    list->string_len += (int)n;
}

void render_list_fig_text_clipped(render_list *list, float x, float y, float scale, float max_x,
                                  const vec4 color, const char *text)
{
    int before = list->count;
    render_list_fig_text(list, x, y, scale, RENDER_ALIGN_LEFT, 0.0f, color, text);
    if (list->count > before && isfinite(max_x))
        list->cmds[list->count - 1].u.figure.width = max_x;
}

const char *render_list_fig_string(const render_list *list, const render_cmd *c)
{
    if (!c || c->kind != RENDER_CMD_FIGURE || c->u.figure.shape != RENDER_FIG_TEXT || !list->strings)
        return "";
    return list->strings + c->u.figure.text;
}

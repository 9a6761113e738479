/* submit.c: render_submit, a frame's list drawn in fixed phases; each
   command goes to the room that draws its kind (shapes.c, instances.c,
   terrain.c, model.c, background.c, batches.c, shield.c).

   A frame's scene goes in fixed phases, whatever order the list has:
     1. opaque      shapes, instances, terrain and meshes (depth written), in list
                    order; then highlighted mesh triangles over them
     2. background  the gradient at the far plane, only where nothing opaque
                    is (cheap on a software rasteriser); it shades a ground
                    plane when the list has a grid
     3. translucent grid, shadows, lines; shields and glass spheres back
                    to front; round points (markers on those surfaces);
                    then additive beams
     (1 to 3 only inside render_scene_rect's rectangle when one is set)
     4. overlay     2D figures (insets, figure.c) in list order; then, in
                    render_end, the HUD (render_text / render_panel) and
                    the figures' texts
   so the picture depends on what the list holds, not on the order a lesson
   happened to add it in. (Within one kind of line, point, shadow or beam,
   list order is kept: overlapping ones blend in that order.) */
#include "render_internal.h"

#include "render_model.h"

static void submit_opaque(renderer *r, const render_list *list)
{
    for (int i = 0; i < list->count; ++i) {
        const render_cmd *c = &list->cmds[i];
        if (c->kind == RENDER_CMD_SHAPE)
            render_draw_shape(r, c->u.shape.shape, (vec4 *)c->u.shape.model, c->u.shape.color, c->u.shape.emissive);
        else if (c->kind == RENDER_CMD_TERRAIN)
            render_draw_terrain(r, render_terrain_cached(r, &c->u.terrain));
        else if (c->kind == RENDER_CMD_INSTANCES)
            render_draw_instances(r, c->u.instances.shape, c->u.instances.instances, c->u.instances.count);
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

static void submit_translucent(renderer *r, const render_list *list)
{
    for (int i = 0; i < list->count; ++i)
        if (list->cmds[i].kind == RENDER_CMD_GRID)
            render_draw_grid(r, list->cmds[i].u.grid.y);
    render_batches_collect(r, list);
    render_draw_shadows_and_lines(r);
    render_draw_surfaces(r, list);
    render_draw_points(r);
    render_draw_beams(r);
}

void render_submit(renderer *r, const render_list *list)
{
    submit_opaque(r, list);
    float ground_y = 0.0f;
    bool ground = list_ground(list, &ground_y);
    render_draw_background(r, ground, ground_y);
    submit_translucent(r, list);
    render_draw_figures(r, list);   /* it lifts render_scene_rect's scissor */
}

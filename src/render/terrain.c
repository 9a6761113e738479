/* terrain.c: heightmap terrains (render_list_terrain): a GPU mesh per
   terrain, built the first time its data is seen and kept while the
   data's key (heights pointer, version, size, placement) stays the same. */
#include "render_internal.h"

#include <stdlib.h>

struct render_terrain {
    render_mesh mesh;
    float min_y, max_y;     /* the terrain shader's colour ramp */
};

static render_terrain *terrain_create(int cols, int rows, float spacing, const vec3 origin,
                                      const float *heights)
{
    geo_mesh m = {0};
    if (!geo_terrain(cols, rows, spacing, origin, heights, &m))
        return NULL;
    render_terrain *t = calloc(1, sizeof *t);
    if (t) {
        render_mesh_upload(&m, &t->mesh);
        t->min_y = t->max_y = m.vertices[0].position[1];
        for (int i = 1; i < m.vertex_count; ++i) {
            t->min_y = glm_min(t->min_y, m.vertices[i].position[1]);
            t->max_y = glm_max(t->max_y, m.vertices[i].position[1]);
        }
    }
    geo_free(&m);
    return t;
}

static void terrain_destroy(render_terrain *t)
{
    if (!t)
        return;
    render_mesh_delete(&t->mesh);
    free(t);
}

static bool same_terrain(const render_terrain_data *a, const render_terrain_data *b)
{
    return a->heights == b->heights && a->version == b->version && a->cols == b->cols && a->rows == b->rows &&
           a->spacing == b->spacing && glm_vec3_eqv((float *)a->origin, (float *)b->origin);
}

render_terrain *render_terrain_cached(renderer *r, const render_terrain_data *d)
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

void render_terrains_free(renderer *r)
{
    for (int i = 0; i < RENDER_TERRAIN_CACHE; ++i)
        terrain_destroy(r->terrains[i].mesh);
}

void render_draw_terrain(renderer *r, const render_terrain *t)
{
    if (!t)
        return;
    const render_program *p = &r->terrain_prog;
    glUseProgram(p->id);
    glUniformMatrix4fv(p->loc[U_VIEW_PROJ], 1, GL_FALSE, (const float *)r->view.view_proj);
    glUniform2f(p->loc[U_HEIGHT_RANGE], t->min_y, t->max_y);
    glUniform3fv(p->loc[U_EYE], 1, r->view.eye);
    glUniform3fv(p->loc[U_LIGHT_DIR], 1, r->light_dir);
    glUniform3fv(p->loc[U_FOG_COLOR], 1, RENDER_BG_TOP);
    glDisable(GL_BLEND);
    render_mesh_draw(&t->mesh);
}

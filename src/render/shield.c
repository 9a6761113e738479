/* shield.c: the translucent spheres, back to front: lesson 2's shields
   with their impact ripples, and bounding volumes shown as glass. */
#include "render_internal.h"

#include <stdlib.h>

#include "shaders.h"

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
    /* without a live impact the shader's loop adds nothing: the same
       colours from the program built without it */
    render_program *p = live_count > 0 ? &r->shield_prog : &r->glass_prog;
    if (!render_program_ready(p, live_count > 0 ? "" : "#define GLASS\n", shader_shield_vert,
                              shader_shield_frag, live_count > 0 ? "shield" : "glass"))
        return;
    glUseProgram(p->id);
    render_set_model_uniforms(p, &r->view, model);
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
        render_mesh_draw(&r->shapes[RENDER_SPHERE]);
        glCullFace(GL_BACK);
    }
    render_mesh_draw(&r->shapes[RENDER_SPHERE]);
    glDepthMask(GL_TRUE);
    glDisable(GL_BLEND);
}

static void draw_shield(renderer *r, mat4 model, const vec4 color, const vec4 *impacts, int impact_count, float time,
                        float lifetime, float ripple_speed)
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

void render_draw_surfaces(renderer *r, const render_list *list)
{
    int n = sort_surfaces(r, list);
    for (int k = 0; k < n; ++k) {
        const render_cmd *c = &list->cmds[r->surfaces[k]];
        if (c->kind == RENDER_CMD_SHIELD)
            draw_shield(r, (vec4 *)c->u.shield.model, c->u.shield.color, render_list_impacts(list, c),
                        c->u.shield.impact_count, c->u.shield.time, c->u.shield.lifetime, c->u.shield.ripple_speed);
        else
            draw_glass_sphere(r, c->u.glass.center, c->u.glass.radius, c->u.glass.color);
    }
}

void render_surfaces_free(renderer *r)
{
    free(r->surfaces);
    r->surfaces = NULL;
    r->surface_cap = 0;
}

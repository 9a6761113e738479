/* background.c: the sky gradient, and the ground plane under a grid,
   drawn at the far plane over a screen-covering grid of quads. */
#include "render_internal.h"

#include <string.h>

const vec3 RENDER_BG_TOP = {0.10f, 0.12f, 0.19f};
const vec3 RENDER_BG_BOTTOM = {0.015f, 0.016f, 0.028f};

/* The background's screen-covering grid of quads, in NDC. */
void render_background_build(renderer *r)
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
    render_float_attribute(0, 2, 2 * sizeof(float), 0);
    glBindVertexArray(0);
    r->background.count = k / 2;
}

void render_background_free(renderer *r)
{
    render_batch_free(&r->background);
}

void render_draw_background(renderer *r, bool ground, float ground_y)
{
    glDepthFunc(GL_LEQUAL);
    glDepthMask(GL_FALSE);
    glDisable(GL_BLEND);
    glDisable(GL_CULL_FACE);
    glUseProgram(r->bg_prog.id);
    glUniform3fv(r->bg_prog.loc[U_TOP], 1, RENDER_BG_TOP);
    glUniform3fv(r->bg_prog.loc[U_BOTTOM], 1, RENDER_BG_BOTTOM);
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

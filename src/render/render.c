/* render.c: the renderer's life cycle (create in one step or two, destroy)
   and a frame's set-up and end (render_begin, render_end, read back).
   What a frame draws is in its rooms: submit.c sends each command to the
   one that draws its kind (render_internal.h lists them). */
#include "render.h"
#include "render_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const vec3 LIGHT_DIR = {0.45f, 0.80f, 0.40f};   /* normalised in render_complete */

static bool is_software(void)
{
    const char *name = (const char *)glGetString(GL_RENDERER);
    return name && (strstr(name, "llvmpipe") || strstr(name, "softpipe") || strstr(name, "SwiftShader"));
}

renderer *render_create_for_loading(render_loader load, char *err, size_t err_size)
{
    if (!gl_platform_load(load, err, err_size))
        return NULL;
    renderer *r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(err, err_size, "out of memory");
        return NULL;
    }
    r->software = is_software();
    return r;
}

bool render_complete(renderer *r, char *err, size_t err_size)
{
    if (!r)
        return false;
    if (r->complete)
        return true;
    if (!render_programs_build(r, err, err_size))
        return false;
    glm_vec3_normalize_to((float *)LIGHT_DIR, r->light_dir);
    /* from here render_destroy frees the scene's parts too */
    r->complete = true;
    render_text_init(r);
    render_figure_init(r);
    if (!render_shapes_build(r) || !render_instances_build(r)) {
        snprintf(err, err_size, "out of memory building meshes");
        return false;
    }
    render_impostors_build(r);
    render_batches_build(r);
    render_background_build(r);
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
        render_figure_free(r);
        render_background_free(r);
        render_batches_free(r);
        render_shapes_free(r);
        render_instances_free(r);
        render_impostors_free(r);
        render_terrains_free(r);
        render_models_free(r);
    }
    render_programs_free(r);
    render_surfaces_free(r);
    font_set_close(r->fonts);
    free(r);
}

bool render_driver_is_software(render_loader load)
{
    return gl_platform_load(load, NULL, 0) && is_software();
}

const char *render_driver_name(void)
{
    static char name[128];
    const char *gl = (const char *)glGetString(GL_RENDERER);
    size_t n = 0;
    for (; gl && *gl && n + 1 < sizeof name; ++gl)
        if ((unsigned char)*gl >= 0x20 && *gl != '"' && *gl != '\\')
            name[n++] = *gl;
    name[n] = '\0';
    return n ? name : "unknown";
}

void render_begin(renderer *r, const render_view *v)
{
    r->view = *v;
    r->scene_clipped = false;
    glViewport(0, 0, v->width, v->height);
    glDisable(GL_SCISSOR_TEST);
    glClearColor(RENDER_BG_BOTTOM[0], RENDER_BG_BOTTOM[1], RENDER_BG_BOTTOM[2], 1.0f);
    gl_platform_begin_frame(1.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);
    glDepthMask(GL_TRUE);
    glEnable(GL_CULL_FACE);
    glCullFace(GL_BACK);
    glFrontFace(GL_CCW);
}

void render_scene_rect(renderer *r, float x, float y, float w, float h)
{
    if (!(w >= 1.0f && h >= 1.0f) || !isfinite(x) || !isfinite(y) || !isfinite(w) || !isfinite(h))
        return;
    int x0 = (int)glm_clamp(floorf(x), 0.0f, (float)r->view.width);
    int x1 = (int)glm_clamp(ceilf(x + w), 0.0f, (float)r->view.width);
    int y0 = (int)glm_clamp(floorf(y), 0.0f, (float)r->view.height);
    int y1 = (int)glm_clamp(ceilf(y + h), 0.0f, (float)r->view.height);
    r->scene_box[0] = x0;
    r->scene_box[1] = r->view.height - y1;
    r->scene_box[2] = x1 - x0;
    r->scene_box[3] = y1 - y0;
    r->scene_clipped = true;
    /* from here to the figures (render_draw_figures lifts it) */
    glEnable(GL_SCISSOR_TEST);
    glScissor(r->scene_box[0], r->scene_box[1], r->scene_box[2], r->scene_box[3]);
}

void render_end(renderer *r)
{
    glDisable(GL_SCISSOR_TEST);     /* render_scene_rect's, when no figure lifted it */
    render_text_flush(r);     /* the overlay phase: the HUD over everything */
    glBindVertexArray(0);
    glUseProgram(0);
}

void render_finish(renderer *r)
{
    (void)r;
    glFinish();
}

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

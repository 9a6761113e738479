/* test_render_order.c: the renderer's picture does not depend on the order
 * a lesson lists its commands in. One scene of every command kind is drawn
 * twice: as built, and with the commands regrouped by kind in the reverse
 * of the drawing phases (beams first, shapes last; the glass sphere and
 * the shield swap places, and they overlap; lines, points and shadows keep their
 * order within their kind, which their blending needs). Both frames must
 * match to the byte, and must differ from an empty scene (the commands
 * drew something). Instanced drawing: one command of many instances draws
 * what one command per instance draws, to the byte.
 *
 * Needs an X display with OpenGL 3.3 core (scripts/test runs the render
 * suite under xvfb-run; Mesa's llvmpipe draws). A missing display fails. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render.h"
#include "render/render_test_window.h"

#define W 320
#define H 240

static int failures;

static void check(bool ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "FAIL: %s\n", what);
        ++failures;
    }
}

/* a row of boxes and ellipsoids, turned and coloured each its own way */
#define INSTANCES 24
static render_instance instances[INSTANCES];

static void make_instances(void)
{
    for (int i = 0; i < INSTANCES; ++i) {
        render_instance *in = &instances[i];
        float f = (float)i;
        in->position[0] = -3.0f + 0.26f * f;
        in->position[1] = 0.4f + 0.05f * (float)(i % 5);
        in->position[2] = 1.5f - 0.1f * (float)(i % 3);
        in->scale[0] = 0.12f + 0.01f * (float)(i % 4);
        in->scale[1] = 0.10f;
        in->scale[2] = 0.15f;
        versor q;
        glm_quatv(q, 0.3f * f, (vec3){0.0f, 1.0f, 0.0f});
        memcpy(in->rotation, q, sizeof in->rotation);
        in->color[0] = 0.3f + 0.02f * f;
        in->color[1] = 0.8f - 0.02f * f;
        in->color[2] = 0.5f;
        in->color[3] = 1.0f;
    }
}

static void scene(render_list *list)
{
    render_list_instances(list, RENDER_CUBE, instances, INSTANCES / 2);
    render_list_instances(list, RENDER_SPHERE, instances + INSTANCES / 2, INSTANCES / 2);
    mat4 m;
    glm_translate_make(m, (vec3){-1.0f, 1.0f, 0.0f});
    render_list_shape(list, RENDER_CUBE, m, (vec4){0.9f, 0.5f, 0.3f, 1.0f}, NULL);
    render_list_grid(list, 0.0f);
    render_list_line(list, (vec3){-4.0f, 1.0f, 1.0f}, (vec3){4.0f, 1.2f, -1.0f}, (vec4){1.0f, 0.9f, 0.4f, 0.9f});
    render_list_point(list, (vec3){1.2f, 1.0f, 0.0f}, 16.0f, (vec4){1.0f, 0.4f, 0.9f, 1.0f});
    vec4 impacts[3] = {{1.0f, 1.0f, 1.2f, 0.5f}, {0.0f, 0.0f, 0.0f, -1.0f}, {1.5f, 1.8f, 0.5f, 0.8f}};
    glm_translate_make(m, (vec3){1.2f, 1.2f, 0.0f});
    glm_scale(m, (vec3){1.4f, 1.0f, 1.1f});
    render_list_shield(list, m, (vec4){0.3f, 0.6f, 1.0f, 0.12f}, (const vec4 *)impacts, 3, 1.0f, 1.6f, 2.4f);
    render_list_beam(list, (vec3){-3.0f, 0.5f, 2.0f}, (vec3){1.0f, 1.0f, 1.2f}, 0.3f, (vec4){1.0f, 0.4f, 0.1f, 0.9f});
    glm_translate_make(m, (vec3){-1.0f, 2.3f, -0.5f});
    glm_scale_uni(m, 0.6f);
    render_list_shape(list, RENDER_TORUS, m, (vec4){0.4f, 0.7f, 0.9f, 1.0f}, (vec3){0.1f, 0.0f, 0.0f});
    render_list_shadow(list, (vec3){-1.0f, 1.0f, 0.0f}, 1.5f, 0.0f, 0.8f);
    render_list_glass_sphere(list, (vec3){-1.0f, 1.0f, 0.0f}, 1.8f, (vec4){0.9f, 0.7f, 0.3f, 0.08f});
    render_list_line(list, (vec3){-1.0f, 0.0f, 0.0f}, (vec3){-1.0f, 3.0f, 0.0f}, (vec4){0.3f, 1.0f, 0.5f, 0.7f});
    render_list_point(list, (vec3){-1.0f, 2.8f, 0.0f}, 10.0f, (vec4){0.3f, 0.9f, 1.0f, 1.0f});
}

/* the reverse of the drawing phases: a stable regrouping by kind */
static int reverse_rank(render_cmd_kind k)
{
    switch (k) {
    case RENDER_CMD_FIGURE: return 0;
    case RENDER_CMD_BEAM: return 0;
    case RENDER_CMD_POINT: return 1;
    case RENDER_CMD_GLASS: return 2;
    case RENDER_CMD_SHIELD: return 3;
    case RENDER_CMD_LINE: return 4;
    case RENDER_CMD_SHADOW: return 5;
    case RENDER_CMD_GRID: return 6;
    case RENDER_CMD_TERRAIN: case RENDER_CMD_SHAPE: return 7;
    case RENDER_CMD_MESH: case RENDER_CMD_MESH_HIGHLIGHT: return 7;
    case RENDER_CMD_INSTANCES: return 7;
    case RENDER_CMD_COUNT: break;   /* not a command */
    }
    return 8;
}

static void regroup(const render_list *in, render_list *out)
{
    render_list_reset(out, &in->view);
    for (int rank = 0; rank <= 8; ++rank)
        for (int i = 0; i < in->count; ++i)
            if (reverse_rank(in->cmds[i].kind) == rank)
                render_list_append(out, in, i);
}

static bool frame(renderer *r, const render_list *list, uint8_t *rgb)
{
    render_begin(r, &list->view);
    render_submit(r, list);
    render_end(r);
    return render_read_pixels(r, W, H, rgb);
}

/* Every instance as its own shape command of `shape`: what one instanced
   draw must look like. */
static void add_as_shapes(render_list *list, render_shape_kind shape)
{
    for (int i = 0; i < INSTANCES; ++i) {
        const render_instance *in = &instances[i];
        versor q;
        memcpy(q, in->rotation, sizeof q);
        mat4 model;
        glm_translate_make(model, (float *)in->position);
        glm_quat_rotate(model, q, model);
        glm_scale(model, (float *)in->scale);
        vec4 color;     /* aligned for cglm: instance fields are not */
        memcpy(color, in->color, sizeof color);
        render_list_shape(list, shape, model, color, NULL);
    }
}

/* Pixels of frames a and b that differ from the empty frame e: in a, in
   b, and in both. */
static void coverage(const uint8_t *a, const uint8_t *b, const uint8_t *e, size_t *in_a,
                     size_t *in_b, size_t *in_both)
{
    *in_a = *in_b = *in_both = 0;
    for (size_t i = 0; i < (size_t)W * H; ++i) {
        bool ca = memcmp(a + 3 * i, e + 3 * i, 3) != 0, cb = memcmp(b + 3 * i, e + 3 * i, 3) != 0;
        *in_a += ca;
        *in_b += cb;
        *in_both += ca && cb;
    }
}

int main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    gl_test_window win;
    renderer *r = render_test_open(&win, "render order", W, H, true);
    if (!r) {
        fprintf(stderr, "FAIL: no window with the renderer\n");
        return 1;
    }

    render_view v;
    memset(&v, 0, sizeof v);
    glm_vec3_copy((vec3){2.0f, 5.0f, 9.0f}, v.eye);
    glm_lookat(v.eye, (vec3){0.0f, 1.0f, 0.0f}, (vec3){0.0f, 1.0f, 0.0f}, v.view);
    glm_perspective(0.8f, (float)W / H, 0.1f, 100.0f, v.proj);
    glm_mat4_mul(v.proj, v.view, v.view_proj);
    v.width = W;
    v.height = H;

    make_instances();
    render_list built = {0}, regrouped = {0}, empty = {0}, batched = {0}, one_by_one = {0};
    render_list_reset(&built, &v);
    render_list_reset(&empty, &v);
    scene(&built);
    regroup(&built, &regrouped);
    check(regrouped.count == built.count, "the regrouped list has every command");
    check(regrouped.cmds[0].kind == RENDER_CMD_BEAM && regrouped.cmds[regrouped.count - 1].kind == RENDER_CMD_SHAPE,
          "the regrouped list starts with the beam and ends with shapes");

    uint8_t *a = malloc(W * H * 3), *b = malloc(W * H * 3), *e = malloc(W * H * 3);
    check(a && b && e, "memory");
    if (a && b && e) {
        check(frame(r, &built, a), "read the first frame");
        check(frame(r, &regrouped, b), "read the regrouped frame");
        check(frame(r, &empty, e), "read the empty frame");
        size_t differ = 0, drawn = 0;
        for (size_t i = 0; i < (size_t)W * H * 3; ++i) {
            differ += a[i] != b[i];
            drawn += a[i] != e[i];
        }
        printf("bytes differing between the orders: %zu; bytes the scene changed: %zu\n", differ, drawn);
        check(differ == 0, "the same picture whatever the order of the commands");
        check(drawn > (size_t)W * H / 4, "the scene drew something");

        /* instancing: one command for all, or one per instance */
        render_list_reset(&batched, &v);
        render_list_reset(&one_by_one, &v);
        render_list_instances(&batched, RENDER_CUBE, instances, INSTANCES);
        for (int i = 0; i < INSTANCES; ++i)
            render_list_instances(&one_by_one, RENDER_CUBE, instances + i, 1);
        render_list_instances(&one_by_one, RENDER_CUBE, instances, 0);     /* ignored */
        render_list_instances(&one_by_one, RENDER_CUBE, NULL, 3);          /* ignored */
        check(batched.count == 1 && one_by_one.count == INSTANCES, "one command, or one per instance");
        check(frame(r, &batched, a), "read the batched frame");
        check(frame(r, &one_by_one, b), "read the one-by-one frame");
        differ = drawn = 0;
        for (size_t i = 0; i < (size_t)W * H * 3; ++i) {
            differ += a[i] != b[i];
            drawn += a[i] != e[i];
        }
        printf("instanced: bytes differing from one draw per instance: %zu; bytes drawn: %zu\n", differ, drawn);
        check(differ == 0, "one instanced draw = one draw per instance");
        check(drawn > 500, "the instances drew something");

        /* the instance transform is the shapes' model matrix: the same
           cubes as single shapes cover the same pixels (their shading
           differs, and edges may round the other way) */
        render_list_reset(&one_by_one, &v);
        add_as_shapes(&one_by_one, RENDER_CUBE);
        check(frame(r, &one_by_one, b), "read the shapes frame");
        size_t covered_a, covered_b, both;
        coverage(a, b, e, &covered_a, &covered_b, &both);
        printf("pixels covered: instances %zu, shapes %zu, both %zu\n", covered_a, covered_b, both);
        check(covered_a > 0 && both * 100 >= covered_a * 97 && both * 100 >= covered_b * 97,
              "instances cover the pixels the same shapes cover");

        /* the same for ellipsoids: impostors are exact where the sphere
           mesh is a polygon inside the surface, so every pixel the mesh
           covers is the impostor's and the impostor adds only a thin rim */
        render_list_reset(&batched, &v);
        render_list_reset(&one_by_one, &v);
        render_list_instances(&batched, RENDER_SPHERE, instances, INSTANCES);
        add_as_shapes(&one_by_one, RENDER_SPHERE);
        check(frame(r, &batched, a), "read the impostor frame");
        check(frame(r, &one_by_one, b), "read the sphere meshes frame");
        coverage(a, b, e, &covered_a, &covered_b, &both);
        printf("ellipsoid pixels covered: impostors %zu, meshes %zu, both %zu\n", covered_a, covered_b, both);
        check(covered_b > 500 && both * 100 >= covered_b * 99 && covered_a * 100 <= covered_b * 112,
              "ellipsoid impostors cover the meshes' pixels and a thin rim more");
    }
    free(a);
    free(b);
    free(e);
    render_list_free(&built);
    render_list_free(&regrouped);
    render_list_free(&empty);
    render_list_free(&batched);
    render_list_free(&one_by_one);
    render_test_close(&win, r);
    return failures ? 1 : 0;
}

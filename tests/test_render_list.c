/* test_render_list.c: the frame's command list (src/render/render_list.c,
 * no GL): which pick id each command carries. The GPU pick pass draws
 * exactly the commands with an id >= 0, a shape writing its id, a mesh
 * id + triangle, instances id + the copy's index; the list decides the
 * ids, so this is where they are checked. Also: x-ray lines. */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "render_list.h"

static render_instance copies[5];

static void reset(render_list *list)
{
    render_view v;
    memset(&v, 0, sizeof v);
    render_list_reset(list, &v);
}

static const render_cmd *last(const render_list *list)
{
    assert_true(list->count > 0);
    return &list->cmds[list->count - 1];
}

/* instances take the list's pick id as the base of their run */
static void instances_take_the_pick_id_as_their_base(void **state)
{
    (void)state;
    render_list list = {0};
    reset(&list);
    render_list_instances(&list, RENDER_SPHERE, copies, 5);
    assert_int_equal(last(&list)->pick_id, -1);     /* reset: not pickable */
    render_list_pick_id(&list, 100);
    render_list_instances(&list, RENDER_CUBE, copies, 5);
    assert_int_equal(last(&list)->kind, RENDER_CMD_INSTANCES);
    assert_int_equal(last(&list)->pick_id, 100);
    assert_int_equal(last(&list)->u.instances.count, 5);
    assert_ptr_equal(last(&list)->u.instances.instances, copies);   /* referenced, not copied */
    /* the next run starts where the ids of this one end */
    render_list_pick_id(&list, 105);
    render_list_instances(&list, RENDER_TORUS, copies, 3);
    assert_int_equal(last(&list)->pick_id, 105);
    /* and the id stays set for what follows, as for shapes */
    mat4 model = GLM_MAT4_IDENTITY_INIT;
    render_list_shape(&list, RENDER_TORUS, model, (vec4){1, 1, 1, 1}, NULL);
    assert_int_equal(last(&list)->pick_id, 105);
    render_list_pick_id(&list, -7);     /* any negative: none */
    render_list_instances(&list, RENDER_SPHERE, copies, 5);
    assert_int_equal(last(&list)->pick_id, -1);
    /* a reset forgets the id */
    render_list_pick_id(&list, 3);
    reset(&list);
    render_list_instances(&list, RENDER_SPHERE, copies, 5);
    assert_int_equal(last(&list)->pick_id, -1);
    render_list_free(&list);
}

/* the last copy's id must fit an int: a run that would not is not pickable */
static void runs_past_int_max_are_not_pickable(void **state)
{
    (void)state;
    render_list list = {0};
    reset(&list);
    render_list_pick_id(&list, INT_MAX - 4);
    render_list_instances(&list, RENDER_SPHERE, copies, 5);     /* ids up to INT_MAX: fine */
    assert_int_equal(last(&list)->pick_id, INT_MAX - 4);
    render_list_pick_id(&list, INT_MAX - 3);
    render_list_instances(&list, RENDER_SPHERE, copies, 5);     /* one past */
    assert_int_equal(last(&list)->pick_id, -1);
    render_list_pick_id(&list, INT_MAX);
    render_list_instances(&list, RENDER_SPHERE, copies, 1);
    assert_int_equal(last(&list)->pick_id, INT_MAX);
    render_list_free(&list);
}

/* nothing listed for bad input, pickable or not */
static void bad_instances_list_nothing(void **state)
{
    (void)state;
    render_list list = {0};
    reset(&list);
    render_list_pick_id(&list, 10);
    render_list_instances(&list, RENDER_SPHERE, copies, 0);
    render_list_instances(&list, RENDER_SPHERE, copies, -2);
    render_list_instances(&list, RENDER_SPHERE, NULL, 5);
    render_list_instances(&list, RENDER_SHAPE_COUNT, copies, 5);
    render_list_instances(&list, (render_shape_kind)-1, copies, 5);
    assert_int_equal(list.count, 0);
    render_list_free(&list);
}

/* An x-ray line is a line that says so; plain lines do not, and a list
   that cannot grow lists neither. */
static void xray_lines_are_lines_marked_xray(void **state)
{
    (void)state;
    render_list list = {0};
    reset(&list);
    const vec4 color = {0.2f, 0.4f, 0.6f, 0.8f};
    render_list_line(&list, (vec3){0, 0, 0}, (vec3){1, 2, 3}, color);
    render_list_line_xray(&list, (vec3){4, 5, 6}, (vec3){7, 8, 9}, color);
    assert_int_equal(list.count, 2);
    assert_int_equal(list.cmds[0].kind, RENDER_CMD_LINE);
    assert_int_equal(list.cmds[1].kind, RENDER_CMD_LINE);
    assert_false(list.cmds[0].u.line.xray);
    assert_true(list.cmds[1].u.line.xray);
    assert_true(glm_vec3_eqv(list.cmds[1].u.line.a, (vec3){4, 5, 6}));
    assert_true(glm_vec3_eqv(list.cmds[1].u.line.b, (vec3){7, 8, 9}));
    assert_true(glm_vec4_eqv(list.cmds[1].u.line.color, (float *)color));
    /* after a command that is not a line, an x-ray line marks only itself */
    render_list_point(&list, (vec3){0, 0, 0}, 4.0f, color);
    render_list_line_xray(&list, (vec3){0, 0, 0}, (vec3){1, 1, 1}, color);
    assert_int_equal(list.count, 4);
    assert_int_equal(list.cmds[2].kind, RENDER_CMD_POINT);
    assert_true(list.cmds[3].u.line.xray);
    render_list_free(&list);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(instances_take_the_pick_id_as_their_base),
        cmocka_unit_test(runs_past_int_max_are_not_pickable),
        cmocka_unit_test(bad_instances_list_nothing),
        cmocka_unit_test(xray_lines_are_lines_marked_xray),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

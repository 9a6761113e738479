/* test_lesson1_many.c: lesson 1's many-objects mode without a window.
 *
 * The mode's 100,000 objects are picked through one rp_scene; the oracle
 * here is the loop the scene replaces: every object's own rp_intersect_*
 * function, the smallest t winning and the lowest index on equal t. Picks
 * must agree with it exactly (index and t), at the start and after the
 * objects moved and the scene was refitted. Lesson 1's A key must switch
 * to the mode and back, its clicks and drawing going to the mode. Under
 * valgrind (RAYPICK_TEST_SCALE, test_scale.h) the tests but the first
 * make fewer objects: the refit's still enough for the scene's threaded
 * build and refit, those that pick and draw 10,000. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "lesson1_many.h"
#include "lesson_test_util.h"
#include "test_scale.h"

static const lesson *L = &lesson1_spheres;

/* The mode as the program makes it (LESSON1_MANY_OBJECTS objects). */
static int setup_full(void **state)
{
    char err[128] = "";
    *state = lesson1_many_create(7, 0, err, sizeof err);
    return *state ? 0 : -1;
}

/* The same with fewer objects at a smaller RAYPICK_TEST_SCALE: at least
   60,000, above the builder's threaded subtrees (bvh_build.c: SUBTREE_MIN)
   and the threaded refit (scene.c: RP_SCENE_THREADS_FROM_HALVES, 16,384
   halves; 60,000 of these objects make 23,528). */
static int setup(void **state)
{
    char err[128] = "";
    *state = lesson1_many_create(7, (int)test_scaled(LESSON1_MANY_OBJECTS, 60000), err, sizeof err);
    return *state ? 0 : -1;
}

/* Fewer still at a smaller scale, for the tests that pick and draw: the
   threaded build and refit are setup()'s. */
static int setup_few(void **state)
{
    char err[128] = "";
    *state = lesson1_many_create(7, (int)test_scaled(LESSON1_MANY_OBJECTS, 10000), err, sizeof err);
    return *state ? 0 : -1;
}

static int teardown(void **state)
{
    lesson1_many_destroy(*state);
    return 0;
}

/* ------------------------------------------------------------ oracle */

static bool body_hit(const lesson1_many_body *b, const rp_ray *ray, rp_hit *hit)
{
    switch (b->kind) {
    case LESSON1_MANY_SPHERE: return rp_intersect_ray_sphere(ray, &b->shape.sphere, hit);
    case LESSON1_MANY_ELLIPSOID: return rp_intersect_ray_ellipsoid(ray, &b->shape.ellipsoid, hit);
    case LESSON1_MANY_BOX: return rp_intersect_ray_obb(ray, &b->shape.box, hit);
    default: return rp_intersect_ray_mesh_instance(b->shape.mesh.mesh, (vec4 *)b->shape.mesh.model, ray, hit, NULL);
    }
}

/* the nearest object by looping over all of them, ties to the lowest index */
static int brute_force(const lesson1_many *m, const rp_ray *ray, rp_hit *best)
{
    int found = -1;
    for (int i = 0; i < lesson1_many_count(m); ++i) {
        lesson1_many_body b;
        rp_hit h;
        assert_true(lesson1_many_body_at(m, i, &b));
        if (body_hit(&b, ray, &h) && (found < 0 || h.t < best->t)) {
            found = i;
            *best = h;
        }
    }
    return found;
}

/* the scene's answer equals the loop's: same object, same t */
static int assert_scene_agrees(const lesson1_many *m, const rp_ray *ray)
{
    rp_hit expected, got;
    int want = brute_force(m, ray, &expected);
    int id = rp_intersect_ray_scene(lesson1_many_scene(m), ray, &got, NULL);
    assert_int_equal(id, want);
    if (want >= 0)
        assert_true(got.t == expected.t);
    return id;
}

static void ray_to(const vec3 from, const vec3 to, rp_ray *ray)
{
    glm_vec3_copy((float *)from, ray->origin);
    glm_vec3_sub((float *)to, (float *)from, ray->dir);
}

static void eye_of_lesson1(vec3 eye)
{
    mat4 view, proj;
    start_camera(L, view, proj, eye);
}

/* The `skip`-th to `skip + n - 1`-th nearest objects to the eye (in a
   dense belt most objects hide behind others; the near ones are seen). */
#define NEAREST_MAX 64
static void nearest_to(const lesson1_many *m, const vec3 eye, int skip, int n, int *out)
{
    int idx[NEAREST_MAX];
    float d2[NEAREST_MAX];
    int have = 0, want = skip + n;
    assert_true(want <= NEAREST_MAX);
    for (int i = 0; i < lesson1_many_count(m); ++i) {
        lesson1_many_body b;
        assert_true(lesson1_many_body_at(m, i, &b));
        float d = glm_vec3_distance2((float *)eye, b.bounds.center);
        if (have == want && d >= d2[have - 1])
            continue;
        int k = have < want ? have++ : have - 1;
        while (k > 0 && d2[k - 1] > d) {
            d2[k] = d2[k - 1];
            idx[k] = idx[k - 1];
            --k;
        }
        d2[k] = d;
        idx[k] = i;
    }
    memcpy(out, idx + skip, (size_t)n * sizeof *out);
}

/* Clicks (the mode's own click) through the centres of n objects near the
   eye, starting at the skip-th nearest: every click agrees with the loop,
   and the objects the loop sees first along their centre's ray are the
   ones picked. Returns how many such visible objects were clicked. */
static int click_centres(lesson1_many *m, int skip, int n)
{
    vec3 eye;
    eye_of_lesson1(eye);
    int near[NEAREST_MAX];
    nearest_to(m, eye, skip, n, near);
    int visible = 0;
    for (int k = 0; k < n; ++k) {
        int i = near[k];
        lesson1_many_body b;
        assert_true(lesson1_many_body_at(m, i, &b));
        lesson_click c;
        memset(&c, 0, sizeof c);
        ray_to(eye, b.bounds.center, &c.ray);
        rp_hit expected;
        int want = brute_force(m, &c.ray, &expected);
        lesson_pick p;
        lesson1_many_click(m, &c, &p);
        assert_int_equal(p.id, want);
        assert_int_equal(lesson1_many_picked(m), want);
        assert_int_equal(p.hit, want >= 0);
        if (want < 0)
            continue;
        assert_true(p.t == expected.t);
        assert_true(glm_vec3_eqv_eps(p.point, expected.point));
        visible += want == i;
    }
    return visible;
}

/* Rays straight down onto the centres of objects first .. first+n-1 from
   just above their bounding spheres: each agrees with the loop; returns
   how many picked the object aimed at. */
static int picked_from_above(const lesson1_many *m, int first, int n)
{
    int picked = 0;
    for (int i = first; i < first + n; ++i) {
        lesson1_many_body b;
        assert_true(lesson1_many_body_at(m, i, &b));
        vec3 from;
        glm_vec3_add(b.bounds.center, (vec3){0.0f, 1.01f * b.bounds.radius, 0.0f}, from);
        rp_ray ray;
        ray_to(from, b.bounds.center, &ray);
        picked += assert_scene_agrees(m, &ray) == i;
    }
    return picked;
}

/* ------------------------------------------------------------ tests */

static void scene_holds_every_object_of_every_kind(void **state)
{
    const lesson1_many *m = *state;
    assert_int_equal(lesson1_many_count(m), LESSON1_MANY_OBJECTS);
    assert_int_equal(LESSON1_MANY_OBJECTS, 100000);
    int kinds[LESSON1_MANY_KIND_COUNT] = {0};
    for (int i = 0; i < lesson1_many_count(m); ++i) {
        lesson1_many_body b;
        assert_true(lesson1_many_body_at(m, i, &b));
        assert_true(b.kind >= 0 && b.kind < LESSON1_MANY_KIND_COUNT);
        ++kinds[b.kind];
    }
    assert_true(kinds[LESSON1_MANY_SPHERE] > 10000);
    assert_true(kinds[LESSON1_MANY_ELLIPSOID] > 10000);
    assert_true(kinds[LESSON1_MANY_BOX] > 10000);
    assert_int_equal(kinds[LESSON1_MANY_MESH], 16);

    /* the last objects are in the scene: rays straight down onto their
       centres from just above them pick them (unless a neighbour overlaps
       them there: the loop decides, and most are not overlapped) */
    assert_true(picked_from_above(m, LESSON1_MANY_OBJECTS - 20, 20) >= 10);

    lesson1_many_body untouched;
    memset(&untouched, 0x5a, sizeof untouched);
    lesson1_many_body copy = untouched;
    assert_false(lesson1_many_body_at(m, -1, &copy));
    assert_false(lesson1_many_body_at(m, LESSON1_MANY_OBJECTS, &copy));
    assert_memory_equal(&copy, &untouched, sizeof copy);
}

static void clicks_through_centres_pick_the_object_the_loop_sees(void **state)
{
    lesson1_many *m = *state;
    int visible = click_centres(m, 0, 20);
    assert_true(visible >= 5);
    assert_true(lesson1_many_picked(m) >= 0);
}

/* A click draws what the traversal did: after the ray, twelve edges per
   box it opened, the root's first (it holds every object), leaves in
   their own colour, one of them holding the point hit; the pick reports
   how little of the tree it opened. */
static void a_click_draws_the_boxes_its_traversal_opened(void **state)
{
    lesson1_many *m = *state;
    vec3 eye;
    eye_of_lesson1(eye);
    int near[NEAREST_MAX];
    nearest_to(m, eye, 0, 1, near);
    lesson1_many_body b;
    assert_true(lesson1_many_body_at(m, near[0], &b));
    lesson_click c;
    memset(&c, 0, sizeof c);
    ray_to(eye, b.bounds.center, &c.ray);
    lesson_pick p;
    lesson1_many_click(m, &c, &p);
    assert_true(p.hit);
    int nodes = lesson_pick_field(&p, "nodes_visited")->value.i;
    int leaves = lesson_pick_field(&p, "leaves_visited")->value.i;
    int tested = lesson_pick_field(&p, "objects_tested")->value.i;
    int tree = lesson_pick_field(&p, "tree_nodes")->value.i;
    assert_true(nodes >= 1 && leaves >= 1 && tested >= leaves);
    assert_true(tree > lesson1_many_count(m) / 8);
    assert_true(nodes < tree / 100 && tested < lesson1_many_count(m) / 100);
    assert_true(nodes + leaves <= 512);     /* all of them drawn */

    render_list list = {0};
    render_view v;
    memset(&v, 0, sizeof v);
    render_list_reset(&list, &v);
    lesson1_many_draw(m, &list);
    const render_cmd *lines[1 + 12 * 512];
    int n = 0;
    for (int i = 0; i < list.count; ++i)
        if (list.cmds[i].kind == RENDER_CMD_LINE && n < (int)(sizeof lines / sizeof lines[0]))
            lines[n++] = &list.cmds[i];
    assert_int_equal(n, 1 + 12 * (nodes + leaves));
    int leaf_boxes = 0, holding_hit = 0;
    for (int k = 0; k < nodes + leaves; ++k) {
        vec3 lo = {INFINITY, INFINITY, INFINITY}, hi = {-INFINITY, -INFINITY, -INFINITY};
        for (int e = 0; e < 12; ++e) {
            const render_cmd *l = lines[1 + 12 * k + e];
            assert_true(glm_vec4_eqv((float *)l->u.line.color, (float *)lines[1 + 12 * k]->u.line.color));
            glm_vec3_minv(lo, (float *)l->u.line.a, lo);
            glm_vec3_minv(lo, (float *)l->u.line.b, lo);
            glm_vec3_maxv(hi, (float *)l->u.line.a, hi);
            glm_vec3_maxv(hi, (float *)l->u.line.b, hi);
        }
        bool leaf = lines[1 + 12 * k]->u.line.color[1] < 0.6f;    /* orange, not blue */
        bool holds = true;
        for (int a = 0; a < 3; ++a) {
            float pad = 1e-4f * (1.0f + fabsf(p.point[a]));
            holds = holds && p.point[a] >= lo[a] - pad && p.point[a] <= hi[a] + pad;
        }
        if (k == 0)
            assert_true(!leaf && holds);    /* the root */
        leaf_boxes += leaf;
        holding_hit += leaf && holds;
    }
    assert_int_equal(leaf_boxes, leaves);
    assert_true(holding_hit >= 1);
    render_list_free(&list);
}

static void random_rays_agree_with_the_loop(void **state)
{
    const lesson1_many *m = *state;
    vec3 eye;
    eye_of_lesson1(eye);
    uint32_t rng = 12345u;
    int hits = 0;
    for (int k = 0; k < 40; ++k) {
        rng = rng * 1664525u + 1013904223u;
        float a = (float)(rng >> 8) / 16777216.0f * 6.2831853f;
        rng = rng * 1664525u + 1013904223u;
        float r = 3.0f + (float)(rng >> 8) / 16777216.0f * 22.0f;
        /* from the eye, and straight down from above the belt */
        vec3 target = {r * cosf(a), 1.6f, -20.0f + r * sinf(a)}, above = {target[0], 30.0f, target[2]};
        rp_ray ray;
        ray_to(eye, target, &ray);
        hits += assert_scene_agrees(m, &ray) >= 0;
        ray_to(above, target, &ray);
        hits += assert_scene_agrees(m, &ray) >= 0;
    }
    assert_true(hits > 20);     /* the rays went through the belt */
}

static void moved_objects_are_picked_where_they_are_after_the_refit(void **state)
{
    lesson1_many *m = *state;
    enum { FIRST = 100, N = 40 };
    lesson1_many_body before[N];
    for (int k = 0; k < N; ++k)
        assert_true(lesson1_many_body_at(m, FIRST + k, &before[k]));
    for (int frame = 0; frame < 3; ++frame) {
        lesson1_many_update(m, 0.7f);
        assert_true(click_centres(m, 4 * frame, 12) >= 3);
    }
    /* their new places pick them... */
    assert_true(picked_from_above(m, FIRST, N) >= N / 2);
    /* ...their old places do not, once they moved sideways by more than
       their size (a ray straight down misses them then) */
    int moved = 0;
    for (int k = 0; k < N; ++k) {
        lesson1_many_body now;
        assert_true(lesson1_many_body_at(m, FIRST + k, &now));
        float sideways = glm_vec2_distance((vec2){before[k].bounds.center[0], before[k].bounds.center[2]},
                                           (vec2){now.bounds.center[0], now.bounds.center[2]});
        if (sideways <= 1.01f * now.bounds.radius)
            continue;
        ++moved;
        vec3 above = {before[k].bounds.center[0], before[k].bounds.center[1] + 1.01f * before[k].bounds.radius,
                      before[k].bounds.center[2]};
        rp_ray down;
        ray_to(above, before[k].bounds.center, &down);
        assert_int_not_equal(assert_scene_agrees(m, &down), FIRST + k);
    }
    assert_true(moved >= N / 2);

    /* no time, no move */
    lesson1_many_body after, same;
    assert_true(lesson1_many_body_at(m, FIRST, &after));
    lesson1_many_update(m, 0.0f);
    assert_true(lesson1_many_body_at(m, FIRST, &same));
    assert_memory_equal(&same, &after, sizeof same);
}

static int count_kind(const render_list *list, render_cmd_kind kind, int *instances)
{
    int n = 0;
    for (int i = 0; i < list->count; ++i)
        if (list->cmds[i].kind == kind) {
            ++n;
            if (instances)
                *instances += list->cmds[i].u.instances.count;
        }
    return n;
}

static void draw_lists_one_instanced_command_per_kind(void **state)
{
    const lesson1_many *m = *state;
    render_list list = {0};
    render_view v;
    memset(&v, 0, sizeof v);
    render_list_reset(&list, &v);
    lesson1_many_draw(m, &list);
    int instances = 0;
    assert_int_equal(count_kind(&list, RENDER_CMD_INSTANCES, &instances), 3);
    assert_int_equal(instances, lesson1_many_count(m) - 16);
    assert_int_equal(count_kind(&list, RENDER_CMD_SHAPE, NULL), 16);    /* the tori */
    render_list_free(&list);
}

/* The copy (or torus) drawn with GPU pick id `id` is object `object`:
   same kind, same place, same size. */
static void assert_drawn_object(const lesson1_many *m, const render_cmd *c, int j, int object)
{
    lesson1_many_body b;
    assert_true(lesson1_many_body_at(m, object, &b));
    if (c->kind == RENDER_CMD_SHAPE) {
        assert_int_equal(b.kind, LESSON1_MANY_MESH);
        assert_memory_equal(c->u.shape.model, b.shape.mesh.model, sizeof(mat4));
        return;
    }
    const render_instance *in = &c->u.instances.instances[j];
    assert_memory_equal(in->position, b.bounds.center, sizeof in->position);
    switch (b.kind) {
    case LESSON1_MANY_SPHERE:
        assert_int_equal(c->u.instances.shape, RENDER_SPHERE);
        for (int k = 0; k < 3; ++k)
            assert_true(in->scale[k] == b.shape.sphere.radius);
        break;
    case LESSON1_MANY_ELLIPSOID:
        assert_int_equal(c->u.instances.shape, RENDER_SPHERE);
        assert_memory_equal(in->scale, b.shape.ellipsoid.radii, sizeof in->scale);
        break;
    case LESSON1_MANY_BOX:
        assert_int_equal(c->u.instances.shape, RENDER_CUBE);
        assert_memory_equal(in->scale, b.shape.box.half_extents, sizeof in->scale);
        break;
    default:
        fail_msg("copy %d of an instanced command is a mesh (object %d)", j, object);
    }
}

/* GPU picking: the ids the draw's commands carry (instances: base + copy)
   name every object once, and lesson1_many_gpu_object maps each back to
   the object drawn with it; ids no object writes map to -1. */
static void gpu_pick_ids_map_back_to_the_objects_drawn(void **state)
{
    lesson1_many *m = *state;
    lesson1_many_update(m, 0.5f);    /* moved: the map holds, not the layout at time 0 */
    render_list list = {0};
    render_view v;
    memset(&v, 0, sizeof v);
    render_list_reset(&list, &v);
    lesson1_many_draw(m, &list);
    int n = lesson1_many_count(m);
    char *seen = calloc((size_t)n, 1);
    assert_non_null(seen);
    int ids = 0;
    for (int i = 0; i < list.count; ++i) {
        const render_cmd *c = &list.cmds[i];
        if (c->pick_id < 0)
            continue;
        assert_true(c->kind == RENDER_CMD_INSTANCES || c->kind == RENDER_CMD_SHAPE);
        int copies = c->kind == RENDER_CMD_INSTANCES ? c->u.instances.count : 1;
        for (int j = 0; j < copies; ++j) {
            int object = lesson1_many_gpu_object(m, (uint32_t)(c->pick_id + j));
            assert_in_range(object, 0, n - 1);
            assert_false(seen[object]);
            seen[object] = 1;
            assert_drawn_object(m, c, j, object);
            ++ids;
        }
    }
    assert_int_equal(ids, n);   /* every object, once */
    free(seen);
    assert_int_equal(lesson1_many_gpu_object(m, (uint32_t)n), -1);
    assert_int_equal(lesson1_many_gpu_object(m, UINT32_MAX), -1);
    assert_int_equal(lesson1_many_gpu_object(NULL, 0), -1);
    render_list_free(&list);
}

/* Lesson 1 itself: A switches its update, click, draw and status to the
   mode, and back. */
static void lesson1_key_a_switches_to_the_mode_and_back(void **state)
{
    (void)state;
    char err[128] = "";
    lesson_env env = {.seed = 7, .err = err, .err_size = sizeof err};
    void *self = L->create(&env);
    assert_non_null(self);
    render_list list = {0};
    render_view v;
    memset(&v, 0, sizeof v);
    char status[512];

    assert_true(L->key(self, 'a'));
    L->update(self, 1.0f / 60.0f);
    L->status(self, status, sizeof status);
    assert_non_null(strstr(status, "many objects"));
    render_list_reset(&list, &v);
    L->draw(self, &list);
    assert_int_equal(count_kind(&list, RENDER_CMD_INSTANCES, NULL), 3);

    lesson_pick p;
    assert_true(click_world_point(L, self, (vec3){0.0f, 1.6f, -2.0f}, &p));
    assert_true(p.hit);
    const lesson_field *objects = lesson_pick_field(&p, "objects");
    const lesson_field *center = lesson_pick_field(&p, "center");
    const lesson_field *radius = lesson_pick_field(&p, "bound_radius");
    assert_non_null(objects);
    assert_non_null(center);
    assert_non_null(radius);
    assert_int_equal(objects->value.i, LESSON1_MANY_OBJECTS);
    assert_true(glm_vec3_distance(p.point, (float *)center->value.v) <= radius->value.f * 1.0001f);
    char name[48];
    snprintf(name, sizeof name, " %d", p.id);
    assert_non_null(strstr(p.what, name));
    /* GPU pick ids: the mode's numbering */
    lesson1_many *alone = lesson1_many_create(7, 0, err, sizeof err);
    assert_non_null(alone);
    for (uint32_t id = 0; id < LESSON1_MANY_OBJECTS; id += 997)
        assert_int_equal(L->gpu_object(self, id), lesson1_many_gpu_object(alone, id));
    lesson1_many_destroy(alone);

    assert_true(L->key(self, 'a'));     /* back: lesson 1's six objects */
    for (uint32_t id = 0; id < 6; ++id)     /* object i writes id i */
        assert_int_equal(L->gpu_object(self, id), (int)id);
    assert_int_equal(L->gpu_object(self, 6), -1);
    render_list_reset(&list, &v);
    L->draw(self, &list);
    assert_int_equal(count_kind(&list, RENDER_CMD_INSTANCES, NULL), 0);
    assert_int_equal(count_kind(&list, RENDER_CMD_SHAPE, NULL), 6);
    L->status(self, status, sizeof status);
    assert_null(strstr(status, "many objects"));
    render_list_free(&list);
    L->destroy(self);
}

static void small_counts_and_bad_input(void **state)
{
    (void)state;
    char err[64] = "";
    lesson1_many *m = lesson1_many_create(3, 40, err, sizeof err);
    assert_non_null(m);
    assert_int_equal(lesson1_many_count(m), 40);
    assert_int_equal(lesson1_many_picked(m), -1);
    lesson1_many_update(m, 0.25f);
    assert_true(click_centres(m, 0, 10) >= 3);
    lesson1_many_destroy(m);
    lesson1_many_destroy(NULL);
    lesson1_many_update(NULL, 1.0f);
    assert_int_equal(lesson1_many_count(NULL), 0);
    assert_null(lesson1_many_scene(NULL));
    assert_int_equal(lesson1_many_picked(NULL), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(scene_holds_every_object_of_every_kind, setup_full, teardown),
        cmocka_unit_test_setup_teardown(clicks_through_centres_pick_the_object_the_loop_sees, setup_few, teardown),
        cmocka_unit_test_setup_teardown(random_rays_agree_with_the_loop, setup_few, teardown),
        cmocka_unit_test_setup_teardown(a_click_draws_the_boxes_its_traversal_opened, setup_few, teardown),
        cmocka_unit_test_setup_teardown(moved_objects_are_picked_where_they_are_after_the_refit, setup, teardown),
        cmocka_unit_test_setup_teardown(draw_lists_one_instanced_command_per_kind, setup_few, teardown),
        cmocka_unit_test_setup_teardown(gpu_pick_ids_map_back_to_the_objects_drawn, setup_few, teardown),
        cmocka_unit_test(lesson1_key_a_switches_to_the_mode_and_back),
        cmocka_unit_test(small_counts_and_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* lesson_test_util.h: clicking a lesson without a window, for the lesson
 * tests (test_lesson1.c ... test_lesson4.c). A click is built the way the
 * app builds it: the lesson's start camera (src/app/camera.c), a viewport of
 * TEST_W x TEST_H pixels, and the library's pick ray for the lesson's
 * method. Header-only: each test includes it once. */
#ifndef RAYPICK_LESSON_TEST_UTIL_H
#define RAYPICK_LESSON_TEST_UTIL_H

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "camera.h"
#include "lesson.h"
#include "msg.h"

#define TEST_W 960.0f
#define TEST_H 540.0f

/* The view, projection and eye of the lesson's start camera. */
static inline void start_camera(const lesson *l, mat4 view, mat4 proj, vec3 eye)
{
    app_camera cam;
    app_camera_reset(&cam, &l->camera);
    app_camera_matrices(&cam, TEST_W / TEST_H, view, proj);
    app_camera_eye(&cam, eye);
}

/* Where world point p lands through lesson camera cam, in pixels of the
   TEST_W x TEST_H view (y down); false when it is behind the eye or off
   screen. */
static inline bool project_through(const lesson_camera *cam, const vec3 p, vec2 out)
{
    app_camera ac;
    mat4 view, proj, vp;
    app_camera_reset(&ac, cam);
    app_camera_matrices(&ac, TEST_W / TEST_H, view, proj);
    glm_mat4_mul(proj, view, vp);
    vec4 clip;
    glm_mat4_mulv(vp, (vec4){p[0], p[1], p[2], 1.0f}, clip);
    if (clip[3] <= 0.0f)
        return false;
    out[0] = (clip[0] / clip[3] * 0.5f + 0.5f) * TEST_W;
    out[1] = (0.5f - clip[1] / clip[3] * 0.5f) * TEST_H;
    return out[0] >= 0.0f && out[0] < TEST_W && out[1] >= 0.0f && out[1] < TEST_H;
}

/* A click at drawable pixel (px, py) with the lesson's own ray method;
   false when the library refuses to build the ray. */
static inline bool make_click(const lesson *l, const void *self, float px, float py, lesson_click *c)
{
    memset(c, 0, sizeof *c);
    vec3 eye;
    start_camera(l, c->view, c->proj, eye);
    c->px = px;
    c->py = py;
    c->viewport = (rp_viewport){0.0f, 0.0f, TEST_W, TEST_H};
    c->method = l->method(self);
    return c->method == LESSON_PICK_D3D9
               ? rp_pick_ray_perspective(px, py, &c->viewport, c->proj, c->view, RP_GL, &c->ray)
               : rp_pick_ray_unproject(px, py, &c->viewport, c->proj, c->view, RP_GL, &c->ray);
}

/* Clicks the pixel where world point p appears; false when p is off screen. */
static inline bool click_world_point(const lesson *l, void *self, const vec3 p, lesson_pick *out)
{
    vec2 win;
    if (!project_through(&l->camera, p, win))
        return false;
    lesson_click c;
    if (!make_click(l, self, win[0], win[1], &c))
        return false;
    l->click(self, &c, out);
    return true;
}

/* Clicks with a ray of the test's choosing (the pixel fields stay zero). */
static inline void click_ray(const lesson *l, void *self, const vec3 origin, const vec3 dir, lesson_pick *out)
{
    lesson_click c;
    memset(&c, 0, sizeof c);
    vec3 eye;
    start_camera(l, c.view, c.proj, eye);
    c.viewport = (rp_viewport){0.0f, 0.0f, TEST_W, TEST_H};
    c.method = l->method(self);
    glm_vec3_copy((float *)origin, c.ray.origin);
    glm_vec3_copy((float *)dir, c.ray.dir);
    l->click(self, &c, out);
}

/* The lesson's objects seen from its start camera; returns the count. */
static inline int start_objects(const lesson *l, const void *self, lesson_object *out, int cap)
{
    mat4 view, proj;
    vec3 eye;
    start_camera(l, view, proj, eye);
    return l->objects(self, eye, out, cap);
}

static inline const lesson_object *object_by_id(const lesson_object *objects, int n, int id)
{
    for (int i = 0; i < n; ++i)
        if (objects[i].id == id)
            return &objects[i];
    return NULL;
}

/* The lesson's draw list for one frame from its start camera. */
static inline void draw_once(const lesson *l, const void *self, render_list *list)
{
    render_view v;
    memset(&v, 0, sizeof v);
    start_camera(l, v.view, v.proj, v.eye);
    glm_mat4_mul(v.proj, v.view, v.view_proj);
    v.width = (int)TEST_W;
    v.height = (int)TEST_H;
    render_list_reset(list, &v);
    l->draw(self, list);
}

static inline int count_cmds(const render_list *list, render_cmd_kind kind)
{
    int n = 0;
    for (int i = 0; i < list->count; ++i)
        n += list->cmds[i].kind == kind;
    return n;
}

static inline float vec3_dist(const vec3 a, const vec3 b)
{
    return glm_vec3_distance((float *)a, (float *)b);
}

static inline void *create_ok(const lesson *l, uint32_t seed)
{
    char err[256] = "";
    lesson_env env = {.seed = seed, .err = err, .err_size = sizeof err};
    void *self = l->create(&env);
    if (!self)
        fprintf(stderr, "lesson %d: %s\n", l->number, err);
    return self;
}

/* A click at pixel (px, py) through camera cam (a tour moment's), with
   the lesson's own ray method; false when the ray cannot be built. */
static inline bool click_through(const lesson *l, void *self, const lesson_camera *cam, float px, float py,
                                 lesson_pick *out)
{
    lesson_click c;
    memset(&c, 0, sizeof c);
    app_camera ac;
    app_camera_reset(&ac, cam);
    app_camera_matrices(&ac, TEST_W / TEST_H, c.view, c.proj);
    c.px = px;
    c.py = py;
    c.viewport = (rp_viewport){0.0f, 0.0f, TEST_W, TEST_H};
    c.method = l->method(self);
    bool ok = c.method == LESSON_PICK_D3D9
                  ? rp_pick_ray_perspective(px, py, &c.viewport, c.proj, c.view, RP_GL, &c.ray)
                  : rp_pick_ray_unproject(px, py, &c.viewport, c.proj, c.view, RP_GL, &c.ray);
    if (ok)
        l->click(self, &c, out);
    return ok;
}

/* The pointer event phase at pixel (px, py) through camera cam (a tour
   moment's), as the app hands it to l->pointer; false when the lesson
   has no pointer callback or the ray cannot be built. */
static inline bool pointer_through(const lesson *l, void *self, const lesson_camera *cam, lesson_pointer_phase phase,
                                   float px, float py, lesson_pick *out)
{
    lesson_click c;
    memset(&c, 0, sizeof c);
    app_camera ac;
    app_camera_reset(&ac, cam);
    app_camera_matrices(&ac, TEST_W / TEST_H, c.view, c.proj);
    c.px = px;
    c.py = py;
    c.viewport = (rp_viewport){0.0f, 0.0f, TEST_W, TEST_H};
    c.method = l->method(self);
    bool ok = l->pointer && (c.method == LESSON_PICK_D3D9
                  ? rp_pick_ray_perspective(px, py, &c.viewport, c.proj, c.view, RP_GL, &c.ray)
                  : rp_pick_ray_unproject(px, py, &c.viewport, c.proj, c.view, RP_GL, &c.ray));
    if (ok) {
        lesson_pick p;
        memset(&p, 0, sizeof p);
        if (l->pointer(self, phase, &c, &p) && out)
            *out = p;
    }
    return ok;
}

/* A tour click's gesture (lesson_tour_gesture) from pixel (px, py), as
   the app makes it (tour_click in src/app/app.c); *out: the click's pick,
   or the last pointer event's that reported one. */
static inline bool tour_gesture_through(const lesson *l, void *self, const lesson_camera *cam,
                                        const lesson_tour_click *t, float px, float py, lesson_pick *out)
{
    if (t->gesture == LESSON_GESTURE_CLICK)
        return click_through(l, self, cam, px, py, out);
    if (t->gesture == LESSON_GESTURE_MOVE)
        return pointer_through(l, self, cam, LESSON_POINTER_MOVE, px, py, out);
    float x1 = t->to_fx * TEST_W, y1 = t->to_fy * TEST_H;
    bool ok = click_through(l, self, cam, px, py, out);
    for (int k = 1; k <= LESSON_TOUR_DRAG_MOVES && ok; ++k) {
        float f = (float)k / LESSON_TOUR_DRAG_MOVES;
        ok = pointer_through(l, self, cam, LESSON_POINTER_DRAG, px + (x1 - px) * f, py + (y1 - py) * f, out);
    }
    return ok && pointer_through(l, self, cam, LESSON_POINTER_RELEASE, x1, y1, out);
}

/* Where a tour click lands: pixel (px, py) of the TEST_W x TEST_H view
   through cam; false when its object is not there or its point is off
   screen. */
static inline bool tour_click_pixel(const lesson *l, const void *self, const lesson_camera *cam,
                                    const lesson_tour_click *t, float *px, float *py)
{
    if (t->aim == LESSON_AIM_WINDOW) {
        *px = t->fx * TEST_W;
        *py = t->fy * TEST_H;
        return t->fx >= 0.0f && t->fx <= 1.0f && t->fy >= 0.0f && t->fy <= 1.0f;
    }
    app_camera ac;
    vec3 eye, p;
    app_camera_reset(&ac, cam);
    app_camera_eye(&ac, eye);
    vec2 at = {-1.0f, -1.0f};
    bool ok = lesson_tour_point(l, self, t, eye, p) && project_through(cam, p, at);
    *px = at[0];
    *py = at[1];
    return ok;
}

/* The keys a tour moment may press that the app, not the lesson, handles
   (src/app/app.c, handle_key): H help, G GPU picking, R camera, [ ] orbit,
   C code panel. O (the tour itself) and the lesson digits are not allowed. */
static inline bool tour_app_key(char k)
{
    return k == 'h' || k == 'g' || k == 'r' || k == '[' || k == ']' || k == 'c';
}

/* Stages tour moment m of lesson l as the app does (tour_setup in
   src/app/app.c), on a fresh instance seen through the moment's camera:
   its lesson keys, its clicks (moves, drags: tour_gesture_through), its
   keys after them, then '.' until `until` or `steps` (the app's keys do
   nothing here). NULL when the lesson cannot be made, a lesson key is not
   used or a click does not land; *last (may be NULL) is the last click's
   pick. */
static inline void *stage_tour_moment(const lesson *l, int m, lesson_pick *last)
{
    const lesson_tour_moment *t = &l->tour[m];
    const lesson_camera *cam = t->has_camera ? &t->camera : &l->camera;
    void *self = create_ok(l, 1);
    if (!self)
        return NULL;
    bool ok = true;
    for (const char *k = t->keys; k && *k && ok; ++k)
        ok = tour_app_key(*k) || l->key(self, *k);
    lesson_pick pick;
    memset(&pick, 0, sizeof pick);
    for (int i = 0; i < t->click_count && ok; ++i) {
        float px, py;
        ok = i < LESSON_TOUR_CLICKS && tour_click_pixel(l, self, cam, &t->clicks[i], &px, &py) &&
             tour_gesture_through(l, self, cam, &t->clicks[i], px, py, &pick);
    }
    for (const char *k = t->after; k && *k && ok; ++k)
        ok = tour_app_key(*k) || l->key(self, *k);
    lesson_code_view cv;
    for (int i = 0; i < t->steps && ok; ++i) {
        if (t->until && l->code && l->code(self, &cv) && cv.step && strcmp(cv.step->msg_id, t->until) == 0)
            break;
        l->key(self, '.');
    }
    if (!ok) {
        l->destroy(self);
        return NULL;
    }
    if (last)
        *last = pick;
    return self;
}

/* Every tour moment of lesson l can be staged as it is written: the
   lesson has at least 4; each moment's sentence is in every language of the
   catalogue; its keys (keys, then after) are neither O (the tour itself) nor
   a lesson digit, and each is the app's (tour_app_key) or one the lesson
   uses on a fresh instance; it has min_clicks to LESSON_TOUR_CLICKS clicks,
   each landing in the view of its camera (the moment's, or the lesson's
   start camera) on an instance made with seed 1; its `until`, when set, is
   a sentence of the catalogue. false with the first that is not in why. */
static inline bool tour_moments_valid(const lesson *l, int min_clicks, char *why, size_t size)
{
    if (l->tour_count < 4) {
        snprintf(why, size, "lesson %d: %d tour moments, fewer than 4", l->number, l->tour_count);
        return false;
    }
    void *self = create_ok(l, 1);
    if (!self) {
        snprintf(why, size, "lesson %d: cannot be made", l->number);
        return false;
    }
    bool ok = true;
    for (int m = 0; m < l->tour_count && ok; ++m) {
        const lesson_tour_moment *t = &l->tour[m];
        for (const char *const *lang = msg_languages(); *lang && ok; ++lang)
            if (!msg_in(*lang, t->sentence)) {
                snprintf(why, size, "moment %d: its sentence %s is not in %s", m + 1, t->sentence, *lang);
                ok = false;
            }
        char keys[32];
        snprintf(keys, sizeof keys, "%s%s", t->keys ? t->keys : "", t->after ? t->after : "");
        for (const char *k = keys; *k && ok; ++k) {
            if (*k == 'o' || (*k >= '0' && *k <= '9')) {
                snprintf(why, size, "moment %d: key '%c' is not allowed in a tour", m + 1, *k);
                ok = false;
                break;
            }
            void *probe = create_ok(l, 1);
            ok = probe && (tour_app_key(*k) || l->key(probe, *k));
            if (probe)
                l->destroy(probe);
            if (!ok)
                snprintf(why, size, "moment %d: key '%c' does nothing", m + 1, *k);
        }
        if (ok && (t->click_count < min_clicks || t->click_count > LESSON_TOUR_CLICKS)) {
            snprintf(why, size, "moment %d: %d clicks, not %d to %d", m + 1, t->click_count, min_clicks,
                     LESSON_TOUR_CLICKS);
            ok = false;
        }
        for (int i = 0; i < t->click_count && ok; ++i) {
            float px, py;
            ok = tour_click_pixel(l, self, t->has_camera ? &t->camera : &l->camera, &t->clicks[i], &px, &py);
            if (!ok)
                snprintf(why, size, "moment %d: click %d does not land", m + 1, i);
        }
        if (ok && t->until && !msg_in("en", t->until)) {
            snprintf(why, size, "moment %d: until %s is no sentence", m + 1, t->until);
            ok = false;
        }
    }
    l->destroy(self);
    return ok;
}

/* ---- the code panel's steps against the listing's lines ---- */

/* The statement shown at display line `line`: it and the lines continuing it. */
static inline void listing_statement(const listing *l, int line, char *out, size_t size)
{
    out[0] = '\0';
    for (int n = line; n <= l->line_count; ++n) {
        const char *text = listing_line_text(l, n);
        size_t used = strlen(out);
        snprintf(out + used, size - used, "%s\n", text);
        size_t len = strlen(text);
        while (len && text[len - 1] == ' ')
            --len;
        if (len == 0 || text[len - 1] == ';' || text[len - 1] == '{' || text[len - 1] == '}')
            break;
    }
}

/* Every step the last click recorded (lesson->code's steps) names a
   display line of its listing that exists; the statement there holds one
   of the step's watched variables (its name up to the first '.': "ray" of
   "ray.Direction"), or, for a step whose id ends in "-bound" (a
   LISTING_BOUND), is a while loop; and its sentence is in every language
   of the catalogue. false with the first step that does not in why. */
static inline bool steps_name_their_lines(const lesson *l, const void *self, char *why, size_t size)
{
    lesson_code_view cv;
    if (!l->code || !l->code(self, &cv) || !cv.code || cv.count <= 0 || !cv.steps) {
        snprintf(why, size, "lesson %d: no recorded steps", l->number);
        return false;
    }
    for (int i = 0; i < cv.count; ++i) {
        const listing_step *s = &cv.steps[i];
        int line = listing_display_line(cv.code, s->source_line);
        if (line < 1 || line > cv.code->line_count) {
            snprintf(why, size, "step %d (%s): source line %d shows no line", i, s->msg_id, s->source_line);
            return false;
        }
        char statement[1024], var[64];
        listing_statement(cv.code, line, statement, sizeof statement);
        bool holds = false;
        for (int w = 0; w < s->watch_count && !holds; ++w) {
            snprintf(var, sizeof var, "%s", s->watches[w].name);
            var[strcspn(var, ".")] = '\0';
            holds = strstr(statement, var) != NULL;
        }
        size_t id_len = strlen(s->msg_id);
        if (id_len > 6 && strcmp(s->msg_id + id_len - 6, "-bound") == 0)
            holds = strstr(statement, "while (") != NULL;
        for (const char *const *lang = msg_languages(); *lang && holds; ++lang)
            holds = msg_in(*lang, s->msg_id) != NULL;
        if (!holds) {
            snprintf(why, size, "step %d (%s) lights line %d, which does not hold it (or its sentence is "
                     "missing):\n%s", i, s->msg_id, line, statement);
            return false;
        }
    }
    return true;
}

#endif /* RAYPICK_LESSON_TEST_UTIL_H */

/*
 * app.c: the window, the event loop, picking and the HUD. The only code that
 * talks to SDL (with main.c). The loop mirrors the tutorials' WM_LBUTTONDOWN
 * handler: a left click is mapped to drawable pixels, turned into a pick ray
 * by the library with the lesson's method, and handed to the lesson.
 */
#include "app.h"

#include <SDL.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "camera.h"
#include "clock.h"
#include "code_panel_draw.h"
#include "display_choice.h"
#include "hud_layout.h"
#include "lang.h"
#include "lesson.h"
#include "lessons.h"
#include "mesh_data.h"
#include "model_load.h"
#include "msg.h"
#include "render.h"
#include "render_pick.h"
#include "report.h"
#include "sanitizer_keep.h"
#include "screenshot.h"
#include "stop.h"
#include "window_pixels.h"

#define SCRIPT_DT (1.0f / 60.0f)
#define LAYOUT_OBJECTS 64

struct app {
    app_options opt;
    SDL_Window *window;
    SDL_GLContext gl;
    renderer *r;
    font_set *fonts;                /* the HUD's, until the renderer takes them */
    const lesson *lessons[LESSONS_MAX];   /* the registry's (lessons.h), in order */
    void *states[LESSONS_MAX];      /* each lesson's self; NULL until created */
    app_camera cameras[LESSONS_MAX];
    int current;                    /* index into lessons: lesson number - 1 */
    bool show_help;
    bool details;                   /* X: the pick's method and timing (and the lesson's details) */
    bool orbiting;
    bool dragging;                  /* the left button is held since a click (SDL_CaptureMouse) */
    float pointer_x, pointer_y;     /* where the cursor was last seen, window coordinates */
    bool quit;
    int frame;
    /* the last pick, for the HUD */
    bool has_pick;
    lesson_pick pick;
    double pick_us;
    render_list scene;              /* what the lesson draws this frame */
    /* GPU picking beside the ray (key G) */
    render_pick *gpu;
    bool gpu_on;
    bool gpu_unsupported;           /* the current lesson lists no pick ids */
    char gpu_error[160];            /* why there is no pick pass (gpu NULL) */
    bool has_gpu;                   /* the last pick has a GPU answer */
    report_gpu gpu_last;
    bool async_pending;             /* a PBO read started at the last GPU pick */
    int async_frame;
    render_pick_result async_last;
    bool has_async;
    bool drew_hud;                  /* the last frame drew the HUD as last_hud */
    hud_layout last_hud;
    /* teaching (docs/architecture.md, "How a lesson teaches"): the code
       panel and the inset (C), the tour (O, --tour) */
    int panel_pref;                 /* -1: shown while a step is (the default), 0: hidden, 1: shown */
    bool drew_panel;                /* the last frame drew the panel as last_panel */
    code_panel_layout last_panel;
    int tour;                       /* the tour moment shown (0-based), -1: none */
    int tour_pending;               /* --tour N: moment N - 1, set up at the first frame; -1: none */
    int clicks;                     /* clicks so far: a new click's steps are new steps */
    struct { int lesson, clicks, index; } reported;   /* the step --report printed last */
#ifdef __EMSCRIPTEN__
    app_step_hook step_hook;        /* the page's code panel (app_set_step_hook) */
    void *step_hook_user;
    struct { bool told; int lesson, clicks, index, count, tour; const listing *code; } hooked;
#endif
    mesh_data user_mesh;            /* --mesh */
    /* the lessons being created (finish_loading) */
    struct app_loading *loading;
    SDL_Thread *loader;
    /* the frame loop */
    bool script;
    int frames;                     /* script mode: how many */
    double *times;                  /* --bench-frames: each frame's ms */
    double *cpu_times;              /* and its CPU ms, all threads */
    Uint64 last;
    clock_t cpu_start;
    int status;
};

/* ------------------------------------------------------------ views */

static void drawable_size(const app *a, int *w, int *h)
{
    SDL_GL_GetDrawableSize(a->window, w, h);
    if (*w < 1) *w = 1;
    if (*h < 1) *h = 1;
}

/* The lesson's code view when the code panel is to be shown: by default
   while step mode shows a step, or as C last set it. */
static bool panel_visible(const app *a, lesson_code_view *cv)
{
    const lesson *l = a->lessons[a->current];
    memset(cv, 0, sizeof *cv);
    if (!l->code || !l->code(a->states[a->current], cv) || !cv->code)
        return false;
    return a->panel_pref == 1 || (a->panel_pref == -1 && cv->step != NULL);
}

/* The code panel and the inset in a drawable of width x height; false:
   none this frame. */
static bool panel_plan(const app *a, int width, int height, lesson_code_view *cv, code_panel_frame *f)
{
    return panel_visible(a, cv) &&
           code_panel_plan(a->r, width, height, hud_scale_for(height), cv, a->lessons[a->current]->figure != NULL, f);
}

static void current_view(const app *a, render_view *v)
{
    drawable_size(a, &v->width, &v->height);
    const app_camera *c = &a->cameras[a->current];
    float aspect = (float)v->width / (float)v->height;
    /* a lesson may frame what it shows (lesson 4's step mode): in the
       middle of the room the code panel leaves */
    const lesson *l = a->lessons[a->current];
    lesson_camera frame;
    app_camera framed;
    if (l->frame && l->frame(a->states[a->current], &frame)) {
        app_camera_framed(c, &frame, &framed);
        lesson_code_view cv;
        code_panel_frame panel;
        if (panel_plan(a, v->width, v->height, &cv, &panel))
            app_camera_shift(&framed, aspect, panel.layout.room_w / (float)v->width - 1.0f, 0.0f);
        c = &framed;
    }
    app_camera_matrices(c, aspect, v->view, v->proj);
    glm_mat4_mul(v->proj, v->view, v->view_proj);
    app_camera_eye(c, v->eye);
}

/* ------------------------------------------------------------ picking */

/* GPU picking: the lesson's scene drawn with ids into the pick pass, only
   at the clicked pixel, read back now (the stall the sync read costs) and
   also started into pixel buffers, collected a frame later (app_frame). */
static bool gpu_pick(app *a, const render_view *v, const lesson_click *c, render_pick_result *out)
{
    render_list_reset(&a->scene, v);
    a->lessons[a->current]->draw(a->states[a->current], &a->scene);
    if (!a->gpu)
        return false;
    int pickable = 0;
    for (int i = 0; i < a->scene.count; ++i)
        pickable += a->scene.cmds[i].pick_id >= 0;
    a->gpu_unsupported = pickable == 0;     /* the lesson marks nothing: no ID buffer to ask */
    if (a->gpu_unsupported || !render_pick_begin(a->gpu, v, c->px, c->py))
        return false;
    render_pick_list(a->gpu, &a->scene);
    bool ok = render_pick_read(a->gpu, out);
    a->async_pending = render_pick_read_async(a->gpu);
    a->async_frame = a->frame;
    render_pick_end(a->gpu);
    return ok;
}

/* The object a GPU pick id stands for, as the lesson's picks name it: the
   lesson's own numbering (lesson 1's many objects number their copies per
   kind), else the id itself. */
static int gpu_object(const app *a, uint32_t id)
{
    const lesson *l = a->lessons[a->current];
    return l->gpu_object ? l->gpu_object(a->states[a->current], id) : (int)id;
}

/* The GPU's pixel against the ray's answer; object is what the pixel's id
   stands for (gpu_object). The pixel read is the one whose centre is
   (x + 0.5, y + 0.5): its depth unprojects there. */
static void compare_gpu(const lesson_click *c, const render_pick_result *g, int object, const lesson_pick *p,
                        report_gpu *out)
{
    memset(out, 0, sizeof *out);
    out->hit = g->hit;
    out->id = g->hit ? object : -1;
    out->depth = g->depth;
    out->read_ms = g->read_ms;
    out->distance = -1.0f;
    if (g->hit)
        out->hit = rp_unproject_point((float)g->x + 0.5f, (float)g->y + 0.5f, g->depth, &c->viewport,
                                      (vec4 *)c->proj, (vec4 *)c->view, RP_GL, out->point);
    out->agree = out->hit == p->hit && (!p->hit || out->id == p->id);
    if (out->hit && p->hit)
        out->distance = glm_vec3_distance(out->point, (float *)p->point);
}

/* The port of the tutorial's WM_LBUTTONDOWN handler. (wx, wy) is the mouse
   position as SDL reports it: integer window coordinates of the pixel under
   the cursor; the ray goes through that pixel's centre. */
/* The click's pixel, camera and method for window position (wx, wy)
   (v: the view now); false where it maps to no pixel. */
static bool click_at(const app *a, float wx, float wy, render_view *v, lesson_click *c)
{
    app_window_size size;
    SDL_GetWindowSize(a->window, &size.window_w, &size.window_h);
    SDL_GL_GetDrawableSize(a->window, &size.drawable_w, &size.drawable_h);
    memset(c, 0, sizeof *c);
    if (!app_window_to_pixels(&size, wx + 0.5f, wy + 0.5f, &c->px, &c->py))
        return false;
    current_view(a, v);
    c->viewport = (rp_viewport){0.0f, 0.0f, (float)v->width, (float)v->height};
    glm_mat4_copy(v->view, c->view);
    glm_mat4_copy(v->proj, c->proj);
    c->method = a->lessons[a->current]->method(a->states[a->current]);
    return true;
}

/* The pick ray for c, with c's method */
static bool click_ray(lesson_click *c)
{
    return c->method == LESSON_PICK_D3D9
               ? rp_pick_ray_perspective(c->px, c->py, &c->viewport, c->proj, c->view, RP_GL, &c->ray)
               : rp_pick_ray_unproject(c->px, c->py, &c->viewport, c->proj, c->view, RP_GL, &c->ray);
}

static void handle_click(app *a, float wx, float wy)
{
    lesson_click c;
    render_view v;
    if (!click_at(a, wx, wy, &v, &c))
        return;
    const lesson *l = a->lessons[a->current];
    void *self = a->states[a->current];

    /* the GPU's answer for the scene as it is now, before the click
       changes it */
    render_pick_result gpu;
    bool gpu_ok = a->gpu_on && gpu_pick(a, &v, &c, &gpu);

    double start = render_clock_seconds();
    if (!click_ray(&c))
        return;     /* a degenerate view: nothing sensible to pick */
    l->click(self, &c, &a->pick);
    a->pick_us = (render_clock_seconds() - start) * 1e6;
    a->has_pick = true;
    ++a->clicks;
    a->has_gpu = gpu_ok;
    if (gpu_ok)
        compare_gpu(&c, &gpu, gpu.hit ? gpu_object(a, gpu.id) : -1, &a->pick, &a->gpu_last);
    if (a->opt.report) {
        report_click_info info = {l->number, a->frame, wx, wy, a->pick_us, gpu_ok ? &a->gpu_last : NULL, NULL};
        report_pick(stdout, &info, &c, &a->pick);
    }
}

/* The port of WM_MOUSEMOVE (and of the drag a SetCapture holds): the ray
   under the cursor to the lesson's pointer callback, on every move. The
   pick it makes is reported (--report) but leaves the click's on the HUD. */
static void handle_pointer(app *a, lesson_pointer_phase phase, float wx, float wy)
{
    const lesson *l = a->lessons[a->current];
    lesson_click c;
    render_view v;
    a->pointer_x = wx;
    a->pointer_y = wy;
    if (!l->pointer || !click_at(a, wx, wy, &v, &c))
        return;
    double start = render_clock_seconds();
    if (!click_ray(&c))
        return;
    lesson_pick p;
    memset(&p, 0, sizeof p);
    bool picked = l->pointer(a->states[a->current], phase, &c, &p);
    double us = (render_clock_seconds() - start) * 1e6;
    if (picked && a->opt.report) {
        static const char *const names[] = {"move", "drag", "release"};
        report_click_info info = {l->number, a->frame, wx, wy, us, NULL, names[phase]};
        report_pick(stdout, &info, &c, &p);
    }
}

/* The left button: a click picks, and while it is held the moves are a
   drag that keeps the mouse (SDL_CaptureMouse: the events go on when the
   cursor leaves the window, as SetCapture does). */
static void left_press(app *a, float wx, float wy)
{
    a->pointer_x = wx;
    a->pointer_y = wy;
    handle_click(a, wx, wy);
    a->dragging = true;
    if (!a->script)
        SDL_CaptureMouse(SDL_TRUE);
}

static void left_release(app *a, float wx, float wy)
{
    if (!a->dragging)
        return;
    a->dragging = false;
    if (!a->script)
        SDL_CaptureMouse(SDL_FALSE);
    handle_pointer(a, LESSON_POINTER_RELEASE, wx, wy);
}

/* ------------------------------------------------------------ input */

static void *create_lesson(app *a, int i, char *err, size_t err_size, void (*progress)(void *, const char *),
                           void *progress_user);

static void switch_lesson(app *a, int index)
{
    if (index < 0 || index >= lessons_count() || index == a->current)
        return;
    /* a drag under way ends in the lesson it began in (its release), so
       that lesson is not left holding it */
    left_release(a, a->pointer_x, a->pointer_y);
    if (!a->states[index]) {    /* first shown now: made here (small, without files) */
        char err[512];
        a->states[index] = create_lesson(a, index, err, sizeof err, NULL, NULL);
        if (!a->states[index])
            fprintf(stderr, "raypick: lesson %d: %s\n", index + 1, err[0] ? err : "cannot start");
    }
    if (a->states[index]) {
        a->current = index;
        a->has_pick = false;
        a->tour = -1;
    }
}

/* GPU picking is an extra, made when G first turns it on: its ID pass
   compiles four programs (about 5 MB under llvmpipe) that a start with a
   large map need not hold at its peak (issue 16). Where the pass cannot be
   built the program runs without it and the HUD says why. */
static void toggle_gpu_picking(app *a)
{
    a->gpu_on = !a->gpu_on;
    if (a->gpu_on && !a->gpu && !a->gpu_error[0])
        a->gpu = render_pick_create(a->r, NULL, a->gpu_error, sizeof a->gpu_error);
}

static void tour_next(app *a);

static void handle_key(app *a, char k)
{
    const lesson *l = a->lessons[a->current];
    lesson_code_view cv;
    if (k >= '1' && k < '1' + lessons_count())
        switch_lesson(a, k - '1');
    else if (k == 'h')
        a->show_help = !a->show_help;
    else if (k == 'g')
        toggle_gpu_picking(a);
    else if (k == 'r')
        app_camera_reset(&a->cameras[a->current], &l->camera);
    else if (k == '[' || k == ']')     /* orbit in steps: scripts can show a side view */
        app_camera_orbit(&a->cameras[a->current], k == '[' ? -60.0f : 60.0f, 0.0f);
    else if (k == 'c' && l->code)      /* the code panel: hidden if shown, else shown */
        a->panel_pref = panel_visible(a, &cv) ? 0 : 1;
    else if (k == 'o')
        tour_next(a);
    else if (k == 'x') {    /* details: the app's (the pick's timing) and the lesson's, if it has any */
        a->details = !a->details;
        l->key(a->states[a->current], k);
    } else if (l->key(a->states[a->current], k) && a->has_pick && l->pick)
        l->pick(a->states[a->current], &a->pick);     /* the key may have changed the pick (lesson 4's M) */
}

/* ------------------------------------------------------------ tour */

/* Clicks where a tour moment aims (lesson.h, lesson_tour_click): a world
   point or object through the view as it is now, or a place in the window. */
static void tour_click(app *a, const lesson_tour_click *c)
{
    const lesson *l = a->lessons[a->current];
    render_view v;
    current_view(a, &v);
    float px = c->fx * (float)v.width, py = c->fy * (float)v.height;
    if (c->aim != LESSON_AIM_WINDOW) {
        vec3 p;
        vec4 clip;
        if (!lesson_tour_point(l, a->states[a->current], c, v.eye, p)) {
            fprintf(stderr, "raypick: tour: lesson %d has no object %d to click here\n", l->number, c->object);
            return;
        }
        glm_mat4_mulv(v.view_proj, (vec4){p[0], p[1], p[2], 1.0f}, clip);
        if (clip[3] <= 0.0f)
            return;
        px = (clip[0] / clip[3] * 0.5f + 0.5f) * (float)v.width;
        py = (0.5f - clip[1] / clip[3] * 0.5f) * (float)v.height;
    }
    int ww, wh;
    SDL_GetWindowSize(a->window, &ww, &wh);
    /* handle_click takes window coordinates of a pixel and aims at its centre */
    float wx = px * (float)ww / (float)v.width - 0.5f, wy = py * (float)wh / (float)v.height - 0.5f;
    switch (c->gesture) {
    case LESSON_GESTURE_CLICK:
        handle_click(a, wx, wy);
        break;
    case LESSON_GESTURE_MOVE:
        handle_pointer(a, LESSON_POINTER_MOVE, wx, wy);
        break;
    case LESSON_GESTURE_DRAG: {
        float x1 = c->to_fx * (float)ww - 0.5f, y1 = c->to_fy * (float)wh - 0.5f;
        handle_click(a, wx, wy);
        for (int k = 1; k <= LESSON_TOUR_DRAG_MOVES; ++k) {
            float f = (float)k / LESSON_TOUR_DRAG_MOVES;
            handle_pointer(a, LESSON_POINTER_DRAG, wx + (x1 - wx) * f, wy + (y1 - wy) * f);
        }
        handle_pointer(a, LESSON_POINTER_RELEASE, x1, y1);
        break;
    }
    }
}

/* Stages moment m of the lesson's tour: the lesson afresh, the moment's
   camera, keys, clicks and steps. */
static void tour_setup(app *a, int m)
{
    const lesson *l = a->lessons[a->current];
    if (m < 0 || m >= l->tour_count)
        return;
    const lesson_tour_moment *t = &l->tour[m];
    left_release(a, a->pointer_x, a->pointer_y);   /* a drag under way ends before the lesson is remade */
    char err[512];
    void *fresh = create_lesson(a, a->current, err, sizeof err, NULL, NULL);
    if (!fresh) {
        fprintf(stderr, "raypick: tour: lesson %d: %s\n", l->number, err[0] ? err : "cannot start");
        return;
    }
    l->destroy(a->states[a->current]);
    a->states[a->current] = fresh;
    a->has_pick = false;
    app_camera_reset(&a->cameras[a->current], t->has_camera ? &t->camera : &l->camera);
    for (const char *k = t->keys; k && *k; ++k)
        handle_key(a, *k);
    for (int i = 0; i < t->click_count && i < LESSON_TOUR_CLICKS; ++i)
        tour_click(a, &t->clicks[i]);
    for (const char *k = t->after; k && *k; ++k)
        handle_key(a, *k);
    lesson_code_view cv;
    for (int i = 0; i < t->steps; ++i) {
        if (t->until && l->code && l->code(a->states[a->current], &cv) && cv.step &&
            strcmp(cv.step->msg_id, t->until) == 0)
            break;
        l->key(a->states[a->current], '.');
    }
    a->tour = m;
    if (a->opt.report) {
        printf("{\"tour\":{\"lesson\":%d,\"frame\":%d,\"moment\":%d,\"count\":%d,\"sentence\":", l->number,
               a->frame, m + 1, l->tour_count);
        report_string(stdout, t->sentence);
        printf(",\"text\":");
        report_string(stdout, msg(t->sentence));
        printf("}}\n");
        fflush(stdout);
    }
}

/* O: the tour's next moment; after the last, the tour ends (the lesson
   stays as the last moment left it). */
static void tour_next(app *a)
{
    const lesson *l = a->lessons[a->current];
    if (l->tour_count <= 0)
        return;
    if (a->tour + 1 >= l->tour_count)
        a->tour = -1;
    else
        tour_setup(a, a->tour + 1);
}

static void handle_event(app *a, const SDL_Event *e)
{
    switch (e->type) {
    case SDL_QUIT:
        a->quit = true;
        break;
    case SDL_KEYDOWN:
        if (e->key.keysym.sym == SDLK_ESCAPE)
            a->quit = true;
        else if (e->key.keysym.sym < 128 && e->key.keysym.sym > 32)
            handle_key(a, (char)e->key.keysym.sym);
        break;
    case SDL_MOUSEBUTTONDOWN:
        if (e->button.button == SDL_BUTTON_LEFT)
            left_press(a, (float)e->button.x, (float)e->button.y);
        else if (e->button.button == SDL_BUTTON_RIGHT)
            a->orbiting = true;
        break;
    case SDL_MOUSEBUTTONUP:
        if (e->button.button == SDL_BUTTON_RIGHT)
            a->orbiting = false;
        else if (e->button.button == SDL_BUTTON_LEFT)
            left_release(a, (float)e->button.x, (float)e->button.y);
        break;
    case SDL_MOUSEMOTION:
        if (a->orbiting)
            app_camera_orbit(&a->cameras[a->current], (float)e->motion.xrel, (float)e->motion.yrel);
        else if (!a->script)    /* a script moves the pointer itself: the X server's moves (the
                                   window appearing under the cursor) would make its runs differ */
            handle_pointer(a, a->dragging ? LESSON_POINTER_DRAG : LESSON_POINTER_MOVE, (float)e->motion.x,
                           (float)e->motion.y);
        break;
    case SDL_MOUSEWHEEL:
        app_camera_zoom(&a->cameras[a->current], (float)e->wheel.y);
        break;
    default:
        break;
    }
}

static void run_script_events(app *a)
{
    for (int i = 0; i < a->opt.event_count; ++i) {
        const app_script_event *e = &a->opt.events[i];
        if (e->kind == APP_EVENT_DRAG && a->frame > e->frame && a->frame <= e->end_frame) {
            /* the cursor on the straight line from the press to the end */
            float f = (float)(a->frame - e->frame) / (float)(e->end_frame - e->frame);
            float x = e->x + (e->x1 - e->x) * f, y = e->y + (e->y1 - e->y) * f;
            handle_pointer(a, LESSON_POINTER_DRAG, x, y);
            if (a->frame == e->end_frame)
                left_release(a, x, y);
            continue;
        }
        if (e->frame != a->frame)
            continue;
        switch (e->kind) {
        case APP_EVENT_CLICK: handle_click(a, e->x, e->y); break;
        case APP_EVENT_KEY: handle_key(a, e->key); break;
        case APP_EVENT_MOVE: handle_pointer(a, LESSON_POINTER_MOVE, e->x, e->y); break;
        case APP_EVENT_DRAG: left_press(a, e->x, e->y); break;
        }
    }
}

/* ------------------------------------------------------------ HUD */

/* The HUD's texts for the current state; hud_layout.h decides which show. */
typedef struct hud_texts {
    char title[160];
    char status[2048];      /* UTF-8: a Chinese character is 3 bytes */
    char pick[1024];
    char pick_short[160];
    char help[1536];
    const char *help_short;
} hud_texts;

/* The HUD line when G is on but the lesson, as it is now, lists nothing
   with a pick id: where GPU picking can be seen instead (the registry's
   lessons with pick ids), never naming the lesson shown (lesson 1 without
   ids would be in a mode that has none). */
static void gpu_nothing_text(int lesson_number, char *buf, size_t size)
{
    char others[48] = "";
    int n = 0, total = 0;
    bool listed = false;
    for (int i = 1; i <= lessons_count(); ++i)
        total += lessons_get(i)->pick_ids && i != lesson_number;
    for (int i = 1; i <= lessons_count(); ++i) {
        if (!lessons_get(i)->pick_ids)
            continue;
        if (i == lesson_number) {
            listed = true;
            continue;
        }
        ++n;
        size_t used = strlen(others);
        snprintf(others + used, sizeof others - used, "%s%d", n == 1 ? "" : n == total ? msg("hud.list.and") : ", ",
                 i);
    }
    int k = snprintf(buf, size, "\n%s", msg(listed ? "hud.gpu.nothing_mode" : "hud.gpu.nothing_lesson"));
    if (total > 0 && k > 0 && (size_t)k < size)
        snprintf(buf + k, size - (size_t)k, msg(total > 1 ? "hud.gpu.others_many" : "hud.gpu.others_one"), others);
}

static void hud_pick_text(const app *a, hud_texts *t)
{
    char *pick = t->pick;
    size_t size = sizeof t->pick;
    if (a->has_pick) {
        const lesson_pick *p = &a->pick;
        char took[64], what[64], method[64];
        render_format_us(a->pick_us, render_clock_step_seconds() * 1e6, took, sizeof took);
        lesson_display_name("name", p->what, what, sizeof what);
        lesson_display_name("method", p->method, method, sizeof method);
        /* the method and the time it took: details (X), not a beginner's first screen */
        if (p->hit && a->details)
            snprintf(pick, size, msg("hud.pick.hit"), what, (double)p->t, (double)p->point[0], (double)p->point[1],
                     (double)p->point[2], method, took);
        else if (p->hit)
            snprintf(pick, size, msg("hud.pick.hit_plain"), what, (double)p->t, (double)p->point[0],
                     (double)p->point[1], (double)p->point[2]);
        else if (a->details)
            snprintf(pick, size, msg("hud.pick.miss"), method, took);
        else
            snprintf(pick, size, "%s", msg("hud.pick.miss_plain"));
        if (p->hit)
            snprintf(t->pick_short, sizeof t->pick_short, msg("hud.pick.short_hit"), what, (double)p->t);
        else
            snprintf(t->pick_short, sizeof t->pick_short, "%s", msg("hud.pick.short_miss"));
    } else {
        snprintf(pick, size, "%s", msg("hud.pick.none"));
        snprintf(t->pick_short, sizeof t->pick_short, "%s", msg("hud.pick.short_none"));
    }
    size_t used = strlen(pick);
    if (a->gpu_on && a->has_pick && a->has_gpu) {
        const report_gpu *g = &a->gpu_last;
        char id[32], apart[64] = "";
        if (g->hit)
            snprintf(id, sizeof id, msg("hud.gpu.id"), g->id);
        else
            snprintf(id, sizeof id, "%s", msg("hud.gpu.nothing"));
        if (g->distance >= 0.0f)
            snprintf(apart, sizeof apart, msg("hud.gpu.apart"), (double)g->distance);
        used += (size_t)snprintf(pick + used, size - used, "\n");
        snprintf(pick + used, size - used, msg("hud.gpu.line"), id, (double)g->depth,
                 msg(g->agree ? "hud.gpu.agrees" : "hud.gpu.differs"), apart, g->read_ms);
        used = strlen(pick);
        if (a->has_async && used + 1 < size) {
            used += (size_t)snprintf(pick + used, size - used, "\n");
            snprintf(pick + used, size - used, msg("hud.gpu.async"), a->async_last.wait_ms, a->async_last.read_ms);
        }
    } else if (a->gpu_on && !a->gpu && used + 1 < size) {
        used += (size_t)snprintf(pick + used, size - used, "\n");
        snprintf(pick + used, size - used, msg("hud.gpu.unavailable"), a->gpu_error);
    } else if (a->gpu_on && a->gpu_unsupported && a->has_pick) {
        gpu_nothing_text(a->lessons[a->current]->number, pick + used, size - used);
    } else if (a->gpu_on) {
        snprintf(pick + used, size - used, "\n%s", msg("hud.gpu.on"));
    }
}

/* does a line of the key help start with key k? */
static bool keys_name_key(const char *keys, char k)
{
    for (const char *line = keys; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        while (*line == ' ')
            ++line;
        if (line[0] == k && (line[1] == ' ' || line[1] == '\0'))
            return true;
    }
    return false;
}

static void hud_build(const app *a, hud_texts *t)
{
    const lesson *l = a->lessons[a->current];
    const lessons_entry *e = lessons_get(l->number);
    lessons_heading(e, t->title, sizeof t->title);
    l->status(a->states[a->current], t->status, sizeof t->status);
    hud_pick_text(a, t);
#ifdef __EMSCRIPTEN__
    const char *keys = msg("hud.help.keys_web");     /* a page cannot be quit */
#else
    const char *keys = msg("hud.help.keys");
#endif
    if (a->show_help) {
        int k = snprintf(t->help, sizeof t->help, "%s\n", lessons_keys(e));
        if (k > 0 && (size_t)k < sizeof t->help)
            k += snprintf(t->help + k, sizeof t->help - (size_t)k, keys, lessons_count());
        if (k > 0 && (size_t)k < sizeof t->help)
            k += snprintf(t->help + k, sizeof t->help - (size_t)k, "\n%s", msg("teach.keys"));
        /* X once: a lesson whose keys say what its details hold (1, 3) */
        if (k > 0 && (size_t)k < sizeof t->help && !keys_name_key(lessons_keys(e), 'X'))
            snprintf(t->help + k, sizeof t->help - (size_t)k, "   %s", msg("teach.keys.details"));
    } else {
        snprintf(t->help, sizeof t->help, "%s", msg("hud.help.short"));
    }
    t->help_short = msg("hud.help.short");
}

static hud_size hud_measure(renderer *r, const char *text)
{
    return (hud_size){render_text_width(r, text, 1.0f), render_text_height(r, text, 1.0f)};
}

static float hud_line_width(const char *line, void *user)
{
    return render_text_width(user, line, 1.0f);
}

/* Long lines re-flowed at their item breaks to the width the text has at
   the layout's largest scale (margins and padding, 24 units, off). */
static void hud_reflow(renderer *r, char *text, size_t size, int width, int height)
{
    char wrapped[2048];
    float s = hud_scale_for(height);
    if (size <= sizeof wrapped &&
        hud_wrap(text, (float)width / s - 24.0f, hud_line_width, r, wrapped, sizeof wrapped) &&
        strlen(wrapped) < size)
        memcpy(text, wrapped, strlen(wrapped) + 1);
}

/* The texts and where they go in a drawable of width x height. */
/* text wrapped to the HUD's width in a drawable of width x height (as is
   when it cannot be) */
static void hud_wrap_words(const char *text, int width, int height, char *out, size_t size)
{
    float max_w = (float)width / hud_scale_for(height) - 24.0f;
    if (code_panel_wrap(text, max_w, hud_line_width, NULL, out, size) == 0)
        snprintf(out, size, "%s", text);
}

/* The teaching lines of the HUD: the tour's moment over the lesson's
   status; under it, the step step mode shows when the code panel (which
   says it) is hidden. */
static void hud_teach_lines(const app *a, int width, int height, hud_texts *t)
{
    const lesson *l = a->lessons[a->current];
    char line[512], wrapped[640];
    lesson_code_view cv;
    if (!panel_visible(a, &cv) && cv.step) {
        snprintf(line, sizeof line, msg("teach.hud.step"), cv.index + 1, cv.count, msg(cv.step->msg_id));
        hud_wrap_words(line, width, height, wrapped, sizeof wrapped);
        size_t used = strlen(t->status);
        snprintf(t->status + used, sizeof t->status - used, "%s%s", used && t->status[used - 1] != '\n' ? "\n" : "",
                 wrapped);
    }
    if (a->tour < 0 || a->tour >= l->tour_count)
        return;
    snprintf(line, sizeof line, msg("teach.tour.line"), a->tour + 1, l->tour_count, msg(l->tour[a->tour].sentence));
    hud_wrap_words(line, width, height, wrapped, sizeof wrapped);
    /* the tour's line first, then as much of the status as fits */
    size_t n = strlen(wrapped), used = strlen(t->status);
    if (n + 1 >= sizeof t->status)
        return;
    if (used + n + 2 > sizeof t->status)
        used = sizeof t->status - n - 2;
    memmove(t->status + n + 1, t->status, used);
    t->status[n + 1 + used] = '\0';
    memcpy(t->status, wrapped, n);
    t->status[n] = '\n';
}

static bool hud_plan(const app *a, int width, int height, hud_texts *t, hud_layout *out)
{
    hud_build(a, t);
    hud_teach_lines(a, width, height, t);
    hud_reflow(a->r, t->status, sizeof t->status, width, height);
    hud_reflow(a->r, t->pick, sizeof t->pick, width, height);
    hud_text_sizes sizes = {hud_measure(a->r, t->title), hud_measure(a->r, t->status), hud_measure(a->r, t->pick),
                            hud_measure(a->r, t->pick_short), hud_measure(a->r, t->help),
                            hud_measure(a->r, t->help_short)};
    return hud_layout_compute(width, height, &sizes, out);
}

/* Panels nearly opaque: a moving object behind them must not run through
   the letters, yet the panel still reads as an overlay on the scene. */
static const vec4 hud_panel_color = {0.02f, 0.03f, 0.06f, 0.88f};

/* The HUD in the room left of the code panel (room_w wide). */
static void draw_hud(app *a, const render_view *v, int room_w)
{
    renderer *r = a->r;
    hud_texts t;
    hud_layout h;
    a->drew_hud = hud_plan(a, room_w, v->height, &t, &h);
    if (!a->drew_hud)
        return;
    a->last_hud = h;
    float s = h.scale, right = h.clip_right;
    render_panel(r, h.top.x, h.top.y, h.top.w, h.top.h, hud_panel_color);
    render_text_clipped(r, h.text_x, h.title_y, h.title_scale, (vec4){1.0f, 0.92f, 0.65f, 1.0f}, t.title, right);
    if (h.show_status)
        render_text_clipped(r, h.text_x, h.status_y, s, (vec4){0.80f, 0.88f, 1.0f, 1.0f}, t.status, right);
    render_text_clipped(r, h.text_x, h.pick_y, s, (vec4){0.75f, 1.0f, 0.80f, 1.0f},
                        h.full_pick ? t.pick : t.pick_short, right);
    if (h.bottom.h <= 0.0f)
        return;     /* too small a window for a second panel */
    render_panel(r, h.bottom.x, h.bottom.y, h.bottom.w, h.bottom.h, hud_panel_color);
    render_text_clipped(r, h.text_x, h.help_y, s, (vec4){0.85f, 0.85f, 0.90f, 0.95f},
                        h.full_help ? t.help : t.help_short, right);
}

/* ------------------------------------------------------------ frames */

static void draw_frame(app *a)
{
    render_view v;
    current_view(a, &v);
    render_list_reset(&a->scene, &v);
    const lesson *l = a->lessons[a->current];
    l->draw(a->states[a->current], &a->scene);
    lesson_code_view cv;
    code_panel_frame panel;
    a->drew_panel = panel_plan(a, v.width, v.height, &cv, &panel);
    if (a->drew_panel) {
        a->last_panel = panel.layout;
        code_panel_draw(&a->scene, &panel, &cv);
        const hud_rect *f = &panel.layout.figure;
        lesson_figure_area area = {f->x, f->y, f->w, f->h, panel.layout.scale};
        if (l->figure && f->h > 0.0f)
            l->figure(a->states[a->current], &area, &a->scene);
    }
    render_begin(a->r, &v);
    if (a->drew_panel)      /* the column is opaque panels: no scene behind it */
        render_scene_rect(a->r, 0.0f, 0.0f, panel.layout.room_w, (float)v.height);
    render_submit(a->r, &a->scene);
    draw_hud(a, &v, a->drew_panel ? (int)panel.layout.room_w : v.width);
    render_end(a->r);
}

static bool save_screenshot(app *a)
{
    int w, h;
    drawable_size(a, &w, &h);
    uint8_t *rgb = malloc((size_t)w * (size_t)h * 3);
    bool ok = rgb && render_read_pixels(a->r, w, h, rgb) && app_write_png(a->opt.screenshot, w, h, rgb);
    free(rgb);
    if (!ok)
        fprintf(stderr, "raypick: could not write screenshot %s\n", a->opt.screenshot);
    else if (a->opt.report) {
        report_screenshot(stdout, a->opt.screenshot, a->frame, w, h, a->drew_hud ? &a->last_hud : NULL);
        report_panel(stdout, a->lessons[a->current]->number, a->frame, a->drew_panel ? &a->last_panel : NULL);
    }
    return ok;
}

static int compare_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

static bool wants_frame(const app *a)
{
    return !a->quit && (!a->script || a->frame < a->frames);
}

/* The GPU pick's pixel-buffer read, collected on a later frame without
   waiting: what a program that cannot afford the stall does. */
static void collect_async_pick(app *a)
{
    if (!a->async_pending || a->frame <= a->async_frame ||
        !render_pick_poll(a->gpu, false, &a->async_last))
        return;
    a->async_pending = false;
    a->has_async = true;
    if (a->opt.report) {
        const render_pick_result *g = &a->async_last;
        int object = g->hit ? gpu_object(a, g->id) : -1;
        printf("{\"gpu_async\":{\"lesson\":%d,\"click_frame\":%d,\"frame\":%d,\"hit\":%s,\"id\":%d,"
               "\"depth\":%.9g,\"same_as_sync\":%s,\"wait_ms\":%.4f,\"map_ms\":%.4f}}\n",
               a->lessons[a->current]->number, a->async_frame, a->frame, g->hit ? "true" : "false",
               object, (double)g->depth,
               g->hit == a->gpu_last.hit && (!g->hit || object == a->gpu_last.id) &&
                       g->depth == a->gpu_last.depth ? "true" : "false",
               g->wait_ms, g->read_ms);
        fflush(stdout);
    }
}

/* --report: a line for each step step mode shows, once (a new click, a
   '.' or ',', a tour moment). */
static void report_step_shown(app *a)
{
    lesson_code_view cv;
    const lesson *l = a->lessons[a->current];
    if (!a->opt.report || !l->code || !l->code(a->states[a->current], &cv) || !cv.step)
        return;
    if (a->reported.lesson == l->number && a->reported.clicks == a->clicks && a->reported.index == cv.index)
        return;
    a->reported.lesson = l->number;
    a->reported.clicks = a->clicks;
    a->reported.index = cv.index;
    report_step(stdout, l->number, a->frame, &cv);
}

#ifdef __EMSCRIPTEN__
/* The page's code panel: told when what it shows changes. */
static void tell_step_hook(app *a)
{
    if (!a->step_hook)
        return;
    const lesson *l = a->lessons[a->current];
    lesson_code_view cv;
    bool has = l->code && l->code(a->states[a->current], &cv) && cv.code;
    int index = has && cv.step ? cv.index : -1, count = has ? cv.count : 0;
    if (a->hooked.told && a->hooked.lesson == l->number && a->hooked.clicks == a->clicks &&
        a->hooked.index == index && a->hooked.count == count && a->hooked.tour == a->tour &&
        a->hooked.code == (has ? cv.code : NULL))
        return;
    a->hooked.told = true;
    a->hooked.lesson = l->number;
    a->hooked.clicks = a->clicks;
    a->hooked.index = index;
    a->hooked.count = count;
    a->hooked.tour = a->tour;
    a->hooked.code = has ? cv.code : NULL;
    a->step_hook(a->step_hook_user, l->number, has ? &cv : NULL, a->tour);
}

void app_set_step_hook(app *a, app_step_hook hook, void *user)
{
    a->step_hook = hook;
    a->step_hook_user = user;
    a->hooked.told = false;
}

bool app_show_tour(app *a, int m)
{
    const lesson *l = a->lessons[a->current];
    if (m < 0 || m >= l->tour_count)
        return false;
    tour_setup(a, m);
    return a->tour == m;
}

void app_set_code_panel(app *a, int pref)
{
    a->panel_pref = pref < 0 ? -1 : pref > 0;
}

bool app_code_panel_drawn(const app *a)
{
    return a && a->drew_panel;
}
#endif

bool app_frame(app *a)
{
    if (app_stop_requested())
        a->quit = true;
    if (!wants_frame(a))
        return false;
    Uint64 start = SDL_GetPerformanceCounter();
    clock_t cpu_frame_start = clock();
    collect_async_pick(a);
    if (a->tour_pending >= 0) {     /* --tour N */
        tour_setup(a, a->tour_pending);
        a->tour_pending = -1;
    }
    SDL_Event e;
    while (SDL_PollEvent(&e))
        handle_event(a, &e);
    run_script_events(a);
    report_step_shown(a);
#ifdef __EMSCRIPTEN__
    tell_step_hook(a);
#endif
    float dt = SCRIPT_DT;
    if (!a->script) {
        dt = (float)((double)(start - a->last) / (double)SDL_GetPerformanceFrequency());
        dt = glm_clamp(dt, 0.0f, 0.1f);
    }
    a->last = start;
    a->lessons[a->current]->update(a->states[a->current], dt);
    draw_frame(a);
    if (a->script && a->frame == a->frames - 1 && a->opt.screenshot && !save_screenshot(a))
        a->status = 1;
    SDL_GL_SwapWindow(a->window);
    if (a->times) {
        render_finish(a->r);
        a->times[a->frame] = (double)(SDL_GetPerformanceCounter() - start) * 1e3 /
                             (double)SDL_GetPerformanceFrequency();
        a->cpu_times[a->frame] = (double)(clock() - cpu_frame_start) * 1e3 / CLOCKS_PER_SEC;
    }
    ++a->frame;
    return wants_frame(a);
}

static void print_bench(app *a)
{
    int w, h, frames = a->frame;
    if (frames < 1)
        return;
    drawable_size(a, &w, &h);
    double cpu_ms = (double)(clock() - a->cpu_start) * 1e3 / CLOCKS_PER_SEC / frames;
    qsort(a->times, (size_t)frames, sizeof *a->times, compare_double);
    qsort(a->cpu_times, (size_t)frames, sizeof *a->cpu_times, compare_double);
    /* cpu_ms_per_frame: the whole run's CPU over its frames (start-up work
       done in a frame, such as creating a mode's objects, included);
       cpu_median_ms: the median of each frame's own CPU time (the frame is
       finished before it is timed, so llvmpipe's work is in it) */
    printf("{\"bench\":{\"lesson\":%d,\"width\":%d,\"height\":%d,\"frames\":%d,"
           "\"median_ms\":%.3f,\"max_ms\":%.3f,\"cpu_ms_per_frame\":%.3f,\"cpu_median_ms\":%.3f,"
           "\"language\":\"%s\",\"fonts\":%s,\"gl_renderer\":\"%s\"}}\n",
           a->lessons[a->current]->number, w, h, frames, a->times[frames / 2], a->times[frames - 1], cpu_ms,
           a->cpu_times[frames / 2], msg_language(), render_fonts(a->r) ? "true" : "false",
           render_driver_name());
}

/* ------------------------------------------------------------ layout */

static void print_layout(app *a)
{
    render_view v;
    current_view(a, &v);
    const lesson *l = a->lessons[a->current];
    lesson_object objects[LAYOUT_OBJECTS];
    int n = l->objects(a->states[a->current], v.eye, objects, LAYOUT_OBJECTS);
    int window_w, window_h;
    SDL_GetWindowSize(a->window, &window_w, &window_h);
    hud_texts t;
    report_hud hud = {.language = msg_language(), .fonts = render_fonts(a->r)};
    bool planned = hud_plan(a, v.width, v.height, &t, &hud.layout);
    hud.title = t.title;
    report_layout(stdout, l->number, &v, window_w, window_h, planned ? &hud : NULL, objects,
                  n < LAYOUT_OBJECTS ? n : LAYOUT_OBJECTS);
}

/* ------------------------------------------------------------ start-up */

static void close_window(app *a)
{
    if (a->gl)
        SDL_GL_DeleteContext(a->gl);
    a->gl = NULL;
    if (a->window)
        SDL_DestroyWindow(a->window);
    a->window = NULL;
}

/* A hidden window with a GL context of the attributes set and `samples`
   samples per pixel; false (nothing open) when either cannot be made. */
static bool open_window(app *a, int samples, Uint32 flags)
{
    SDL_GL_SetAttribute(SDL_GL_MULTISAMPLEBUFFERS, samples ? 1 : 0);
    SDL_GL_SetAttribute(SDL_GL_MULTISAMPLESAMPLES, samples);
    a->window = SDL_CreateWindow("raypick", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, a->opt.width,
                                 a->opt.height, flags | SDL_WINDOW_HIDDEN);
    if (a->window)
        a->gl = SDL_GL_CreateContext(a->window);
    app_keep_gl_driver_loaded();    /* also when the context failed: the driver was loaded */
    if (a->gl)
        return true;
    close_window(a);
    return false;
}

static bool create_window(app *a)
{
    Uint32 flags = SDL_WINDOW_OPENGL | SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI;
#ifdef __EMSCRIPTEN__     /* the browser: WebGL2 is OpenGL ES 3.0 (src/render/gl_platform.h) */
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 0);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_ES);
#else
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_FLAGS, SDL_GL_CONTEXT_FORWARD_COMPATIBLE_FLAG);
#endif
    SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
    SDL_GL_SetAttribute(SDL_GL_DEPTH_SIZE, 24);
    /* Plain first. A CPU rasteriser (llvmpipe) keeps that one: there 4x
       multisampling triples the frame time, and an llvmpipe context made
       and dropped only to learn that left about 10 MB and 0.2 s behind
       (issue 16's peak). A GPU gets 4x multisampling in a second window;
       both are made hidden, so nothing flashes. */
    if (!open_window(a, 0, flags))
        return false;
    if (!render_driver_is_software((render_loader)SDL_GL_GetProcAddress)) {
        close_window(a);
        if (!open_window(a, 4, flags) && !open_window(a, 0, flags))
            return false;
    }
    SDL_ShowWindow(a->window);
    return true;
}

static bool finish_loading(app *a, bool show);

void app_destroy(app *a)
{
    if (!a)
        return;
    if (a->loading)
        finish_loading(a, false);   /* the thread must end before its lessons go */
    app_keep_gl_driver_loaded();    /* what SDL loaded since start-up, before it unloads it */
    for (int i = 0; i < lessons_count(); ++i)
        if (a->states[i])
            a->lessons[i]->destroy(a->states[i]);
    render_list_free(&a->scene);
    render_pick_destroy(a->gpu);
    render_destroy(a->r);
    font_set_close(a->fonts);
    if (a->gl)
        SDL_GL_DeleteContext(a->gl);
    if (a->window)
        SDL_DestroyWindow(a->window);
    SDL_Quit();
    free(a->times);
    free(a->cpu_times);
    mesh_data_free(&a->user_mesh);
    free(a);
}

/* ------------------------------------------------------------ loading */

/* Creating the lessons can take seconds (lesson 4 loading a large
   --heightmap): it runs on a thread while the window shows what it is
   doing, so the window never freezes. The lessons say what they do through
   lesson_env.progress; the loading screen and stderr (script mode) show a
   step once it has taken LOADING_SHOW_S. */
#define LOADING_SHOW_S 0.5

struct app_loading {
    app *a;
    SDL_mutex *lock;
    char what[256];         /* the step under way (under lock) */
    Uint64 step_start;      /* when it started (under lock) */
    int step;               /* counts steps (under lock) */
    SDL_atomic_t done;
    bool ok;
    char err[560];          /* "lesson N: " and the lesson's message (512) */
};
typedef struct app_loading app_loading;

static void loading_progress(void *user, const char *what)
{
    app_loading *l = user;
    if (l->lock)
        SDL_LockMutex(l->lock);
    snprintf(l->what, sizeof l->what, "%s", what);
    l->step_start = SDL_GetPerformanceCounter();
    ++l->step;
    if (l->lock)
        SDL_UnlockMutex(l->lock);
}

/* The lessons' environment, from the options. */
static void lesson_env_for(app *a, char *err, size_t err_size, void (*progress)(void *, const char *),
                           void *progress_user, lesson_env *env)
{
    *env = (lesson_env){.seed = a->opt.seed, .heightmap_path = a->opt.heightmap, .err = err,
                        .err_size = err_size, .mesh = a->opt.mesh ? &a->user_mesh : NULL,
                        .heightmap_spacing = a->opt.heightmap_spacing,
                        .heightmap_scale = a->opt.heightmap_scale,
                        .many_objects = a->opt.many_objects,
                        .load_limit = a->opt.load_limit,
                        .progress = progress, .progress_user = progress_user};
    err[0] = '\0';
}

/* Lesson i's state, made from the options; NULL with a message in err. */
static void *create_lesson(app *a, int i, char *err, size_t err_size, void (*progress)(void *, const char *),
                           void *progress_user)
{
    lesson_env env;
    lesson_env_for(a, err, err_size, progress, progress_user, &env);
    return a->lessons[i]->create(&env);
}

/* Made at start: the first lesson shown, and those given a file (the
   registry's file options: a bad --heightmap or --mesh is reported before
   anything runs). The others are made when first shown (switch_lesson):
   lesson 5's model alone is 5 MB, which a start with a 4097x4097 map need
   not hold (issue 16). */
static bool made_at_start(const app *a, int i)
{
    if (i == a->opt.lesson - 1)
        return true;
    const lessons_entry *e = lessons_get(i + 1);
    for (int f = 0; f < LESSONS_MAX_FILES && e->files[f]; ++f)
        if (app_option_file(&a->opt, e->files[f]))
            return true;
    return false;
}

/* The files of the lessons made at start, checked before any window
   (lesson.check_files); false after printing why on stderr, as
   finish_loading does for what create() finds. */
static bool check_lesson_files(app *a)
{
    for (int i = 0; i < lessons_count(); ++i) {
        if (!a->lessons[i]->check_files || !made_at_start(a, i))
            continue;
        char err[512] = "";
        lesson_env env;
        lesson_env_for(a, err, sizeof err, NULL, NULL, &env);
        if (!a->lessons[i]->check_files(&env)) {
            fprintf(stderr, "raypick: lesson %d: %s\n", i + 1, err[0] ? err : "cannot read its file");
            return false;
        }
    }
    return true;
}

/* The lessons made at start; false with the message in l->err. */
static int create_lessons(void *user)
{
    app_loading *l = user;
    app *a = l->a;
    char err[512] = "";
    l->ok = true;
    for (int i = 0; i < lessons_count() && l->ok; ++i) {
        if (!made_at_start(a, i))
            continue;
        a->states[i] = create_lesson(a, i, err, sizeof err, loading_progress, l);
        if (!a->states[i]) {
            snprintf(l->err, sizeof l->err, "lesson %d: %s", i + 1, err[0] ? err : "cannot start");
            l->ok = false;
        }
    }
    SDL_AtomicSet(&l->done, 1);
    return 0;
}

static double seconds_since(Uint64 start)
{
    return (double)(SDL_GetPerformanceCounter() - start) / (double)SDL_GetPerformanceFrequency();
}

/* One frame of the loading screen: the step under way and its time. */
static void draw_loading(app *a, const char *what, double seconds)
{
    render_view v;
    memset(&v, 0, sizeof v);
    drawable_size(a, &v.width, &v.height);
    glm_mat4_identity(v.view);
    glm_mat4_identity(v.proj);
    glm_mat4_identity(v.view_proj);
    render_loading_begin(a->r, &v);
    float s = glm_clamp((float)v.height / 400.0f, 1.0f, 3.0f);
    char text[320];
    snprintf(text, sizeof text, "%s ... %.1f s", what, seconds);
    /* no shader yet (render_create_for_loading): scissored clears */
    render_loading_text(a->r, 14.0f * s, 12.0f * s, s, (vec4){0.06f, 0.07f, 0.11f, 1.0f},
                        (vec4){0.80f, 0.88f, 1.0f, 1.0f}, text);
    render_end(a->r);
    SDL_GL_SwapWindow(a->window);
}

/* Starts create_lessons on a thread, once the window is open (app_create
   says why not before): the window keeps answering and shows progress
   while a large map is decoded. Where there are no threads (a browser
   without them) the lessons are created right here. */
static bool start_loading(app *a)
{
    app_loading *l = calloc(1, sizeof *l);
    if (!l)
        return false;
    l->a = a;
    l->step_start = SDL_GetPerformanceCounter();
    l->lock = SDL_CreateMutex();
    a->loading = l;
    a->loader = l->lock ? SDL_CreateThread(create_lessons, "raypick-load", l) : NULL;
    if (!a->loader)
        create_lessons(l);
    return true;
}

/* Waits for the lessons (drawing the loading screen when there is a
   window), frees the loading state. A quit asked for meanwhile is kept for
   the first frame. false after printing why on stderr. */
static bool finish_loading(app *a, bool show)
{
    app_loading *l = a->loading;
    if (!l)
        return false;
    int shown = 0;      /* the step last written to stderr */
    while (a->loader && !SDL_AtomicGet(&l->done)) {
        SDL_Event e;
        while (show && SDL_PollEvent(&e))
            if (e.type == SDL_QUIT || (e.type == SDL_KEYDOWN && e.key.keysym.sym == SDLK_ESCAPE))
                a->quit = true;
        /* nothing is on screen yet to keep: a quit ends the program now,
           whatever the loader is in the middle of (stop.h) */
        if (show && (a->quit || app_stop_requested()))
            app_stop_now("stopped while loading");
        char what[256];
        SDL_LockMutex(l->lock);
        snprintf(what, sizeof what, "%s", l->what[0] ? l->what : "starting the lessons");
        double took = seconds_since(l->step_start);
        int step = l->step;
        SDL_UnlockMutex(l->lock);
        if (show && took >= LOADING_SHOW_S) {
            draw_loading(a, what, took);
            if (app_script_mode(&a->opt) && step != shown) {
                fprintf(stderr, "raypick: %s ...\n", what);
                shown = step;
            }
        }
        SDL_Delay(15);
    }
    if (a->loader)
        SDL_WaitThread(a->loader, NULL);
    a->loader = NULL;
    a->loading = NULL;
    if (l->lock)
        SDL_DestroyMutex(l->lock);
    bool ok = l->ok;
    if (!ok && show)
        fprintf(stderr, "raypick: %s\n", l->err);
    free(l);
    if (!ok)
        return false;
    for (int i = 0; i < lessons_count(); ++i)
        app_camera_reset(&a->cameras[i], &a->lessons[i]->camera);
    return true;
}

/* X11 and Wayland systems without a display: the offscreen driver for a
   run that needs no window (no Wayland probe, no XDG_RUNTIME_DIR message),
   a message for an interactive one (display_choice.h). false: refused. */
static bool choose_video_driver(const app_options *opt)
{
#if defined(__unix__) && !defined(__EMSCRIPTEN__) && !defined(__ANDROID__)
    switch (app_choose_display(getenv("DISPLAY"), getenv("WAYLAND_DISPLAY"), getenv("SDL_VIDEODRIVER"),
                               app_script_mode(opt) || opt->print_layout)) {
    case APP_DISPLAY_NONE:
        fprintf(stderr, "raypick: %s", app_no_display_message());
        return false;
    case APP_DISPLAY_OFFSCREEN:
        SDL_SetHint(SDL_HINT_VIDEODRIVER, "offscreen");
        break;
    case APP_DISPLAY_DEFAULT:
        break;
    }
#else
    (void)opt;
#endif
    return true;
}

app *app_create(const app_options *opt)
{
    app *a = calloc(1, sizeof *a);
    if (!a) {
        fprintf(stderr, "raypick: out of memory\n");
        return NULL;
    }
    a->opt = *opt;
    for (int i = 0; i < lessons_count(); ++i)
        a->lessons[i] = lessons_get(i + 1)->lesson;
    a->show_help = true;
    app_stop_install();     /* before SDL_Init, which then keeps these */

    /* a model that cannot be read stops the program before any window */
    char load_err[512] = "";
    if (opt->mesh && !model_load_within(opt->mesh, 1.5f, opt->load_limit, &a->user_mesh, load_err, sizeof load_err)) {
        fprintf(stderr, "raypick: %s\n", load_err);
        free(a);
        return NULL;
    }

    /* so is a lesson's file that is plainly wrong: its header says so */
    if (!check_lesson_files(a)) {
        mesh_data_free(&a->user_mesh);
        free(a);
        return NULL;
    }

    if (!choose_video_driver(opt)) {
        mesh_data_free(&a->user_mesh);
        free(a);
        return NULL;
    }
    /* the fonts decide whether the language chosen (main.c) can be shown;
       before the lessons are made, whose texts are in it */
    char warn[800];
    a->fonts = app_lang_fonts(getenv(FONT_PATH_ENV), warn, sizeof warn);
    if (warn[0])
        fprintf(stderr, "raypick: %s\n", warn);
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        fprintf(stderr, "raypick: cannot start SDL video: %s\n", SDL_GetError());
        app_destroy(a);
        return NULL;
    }
    if (!create_window(a)) {
        fprintf(stderr, "raypick: needs OpenGL 3.3 core, and cannot get it here: %s\n", SDL_GetError());
        app_destroy(a);
        return NULL;
    }
    SDL_GL_SetSwapInterval(app_script_mode(opt) || opt->print_layout ? 0 : 1);
    char err[512] = "";
    /* only the loading screen's text until the lessons are made: the
       shaders' compiling (about 12 MB under llvmpipe) then does not add to
       a large map's loading at the peak (issue 16) */
    a->r = render_create_for_loading((render_loader)SDL_GL_GetProcAddress, err, sizeof err);
    if (!a->r) {
        fprintf(stderr, "raypick: %s\n", err);
        app_destroy(a);
        return NULL;
    }
    /* The lessons are made on a thread only now, after SDL_Init and the
       window: SDL_Init may fork (D-Bus autolaunch), and a fork while another
       thread holds an allocator lock leaves the child blocked in malloc and
       the parent waiting for it (seen under ASan). */
    if (!start_loading(a)) {
        fprintf(stderr, "raypick: out of memory\n");
        app_destroy(a);
        return NULL;
    }
    if (!finish_loading(a, true)) {
        app_destroy(a);
        return NULL;
    }
    if (!render_complete(a->r, err, sizeof err)) {
        fprintf(stderr, "raypick: %s\n", err);
        app_destroy(a);
        return NULL;
    }
    render_set_fonts(a->r, a->fonts);
    a->fonts = NULL;
    /* the frame's list at its largest from the start (lesson 3's busiest
       frames list a few thousand commands): the soak run saw memory step up
       mid-run when a frame first needed the list to double. After the
       loading: its 1.7 MB need not add to a large map's peak */
    render_list_reserve(&a->scene, 8192);
    a->current = opt->lesson - 1;
    a->panel_pref = -1;
    a->tour = -1;
    a->tour_pending = opt->tour - 1;

    a->script = app_script_mode(opt);
    a->frames = opt->bench_frames > 0 ? opt->bench_frames : opt->frames;
    if (opt->bench_frames > 0) {
        a->times = calloc((size_t)a->frames, sizeof *a->times);
        a->cpu_times = calloc((size_t)a->frames, sizeof *a->cpu_times);
        if (!a->times || !a->cpu_times) {
            fprintf(stderr, "raypick: out of memory\n");
            app_destroy(a);
            return NULL;
        }
    }
    a->last = SDL_GetPerformanceCounter();
    a->cpu_start = clock();     /* all our threads: llvmpipe's too */
    return a;
}

int app_run(const app_options *opt)
{
    app *a = app_create(opt);
    if (!a)
        return 1;
    int status = 0;
    if (opt->print_layout) {
        print_layout(a);
    } else {
        while (app_frame(a)) {
        }
        if (a->times)
            print_bench(a);
        status = a->status;
    }
    app_destroy(a);
    return status;
}

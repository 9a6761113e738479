/* sdl_drag.c: the Win32 messages a picking program ports besides
   WM_LBUTTONDOWN, on SDL2 and raypick: LOWORD/HIWORD(lParam) (the event's
   x, y), WM_MOUSEMOVE while the button is held (picking as the mouse
   drags), SetCapture/ReleaseCapture (SDL_CaptureMouse), WM_LBUTTONUP, and
   WM_SIZE/GetClientRect (SDL_WINDOWEVENT_SIZE_CHANGED and the drawable
   size). It sends itself the messages and checks what each one picked.
   Runs without a display: SDL_VIDEODRIVER=dummy. */
#include <stdbool.h>
#include <stdio.h>
#include <SDL.h>
#include <raypick/raypick.h>

/* What WM_SIZE + GetClientRect kept in the D3D program: the back buffer's
   size, which is the viewport and the projection's aspect ratio. */
typedef struct view_state {
    int window_w, window_h;         /* SDL_GetWindowSize: mouse units */
    int drawable_w, drawable_h;     /* SDL_GL_GetDrawableSize: pixels */
    mat4 proj, view;
} view_state;

/* WM_SIZE: re-read both sizes and rebuild the projection for the new
   aspect ratio (the D3D program resets the device with the new back-buffer
   size; GL also needs glViewport(0, 0, drawable_w, drawable_h)). */
static void on_size(SDL_Window *window, view_state *s)
{
    SDL_GetWindowSize(window, &s->window_w, &s->window_h);
    SDL_GL_GetDrawableSize(window, &s->drawable_w, &s->drawable_h);
    if (s->drawable_w <= 0 || s->drawable_h <= 0) {   /* no GL here (dummy driver) */
        s->drawable_w = s->window_w;
        s->drawable_h = s->window_h;
    }
    float aspect = s->window_h > 0 ? (float)s->drawable_w / (float)s->drawable_h : 1.0f;
    glm_perspective(glm_rad(45.0f), aspect, 0.1f, 100.0f, s->proj);
}

/* The pick under a mouse position in window coordinates (LOWORD(lParam),
   HIWORD(lParam) in Win32; event.button.x/y or event.motion.x/y in SDL):
   the index of the sphere hit, -1 for none. */
static int pick_at(const view_state *s, int mx, int my, const rp_sphere *spheres, int n)
{
    if (s->window_w <= 0 || s->window_h <= 0)
        return -1;     /* minimised */
    /* the pixel centre under the mouse, in drawable pixels (high-DPI) */
    float x = ((float)mx + 0.5f) * (float)s->drawable_w / (float)s->window_w;
    float y = ((float)my + 0.5f) * (float)s->drawable_h / (float)s->window_h;
    rp_viewport vp = {0.0f, 0.0f, (float)s->drawable_w, (float)s->drawable_h};
    rp_ray ray;
    rp_hit hit;
    if (!rp_pick_ray_perspective(x, y, &vp, (vec4 *)s->proj, (vec4 *)s->view, RP_GL, &ray))
        return -1;
    int nearest = rp_intersect_ray_spheres(&ray, spheres, (size_t)n, &hit);
    return nearest;
}

static void push_button(SDL_Window *w, Uint32 type, int x, int y)
{
    SDL_Event e = {0};
    e.type = type;
    e.button.windowID = SDL_GetWindowID(w);
    e.button.button = SDL_BUTTON_LEFT;
    e.button.state = type == SDL_MOUSEBUTTONDOWN ? SDL_PRESSED : SDL_RELEASED;
    e.button.x = x;
    e.button.y = y;
    SDL_PushEvent(&e);
}

static void push_motion(SDL_Window *w, int x, int y, bool held)
{
    SDL_Event e = {0};
    e.type = SDL_MOUSEMOTION;
    e.motion.windowID = SDL_GetWindowID(w);
    e.motion.state = held ? SDL_BUTTON_LMASK : 0;   /* wParam & MK_LBUTTON */
    e.motion.x = x;
    e.motion.y = y;
    SDL_PushEvent(&e);
}

int main(int argc, char *argv[])
{
    (void)argc;
    (void)argv;
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        fprintf(stderr, "SDL_Init: %s\n", SDL_GetError());
        return 1;
    }
    SDL_Window *window = SDL_CreateWindow("sdl_drag", SDL_WINDOWPOS_UNDEFINED, SDL_WINDOWPOS_UNDEFINED,
                                          800, 600, SDL_WINDOW_HIDDEN | SDL_WINDOW_ALLOW_HIGHDPI |
                                          SDL_WINDOW_RESIZABLE);
    if (!window) {
        fprintf(stderr, "SDL_CreateWindow: %s\n", SDL_GetError());
        SDL_Quit();
        return 1;
    }
    view_state s;
    glm_lookat((vec3){0, 0, 10}, (vec3){0, 0, 0}, (vec3){0, 1, 0}, s.view);
    on_size(window, &s);
    const rp_sphere spheres[2] = {{{-2, 0, 0}, 1.0f}, {{2, 0, 0}, 1.0f}};

    /* press on the left sphere, drag onto the right one, on past the
       window's right edge (reported only while the mouse is captured),
       release; then a move without the button picks nothing */
    push_button(window, SDL_MOUSEBUTTONDOWN, 255, 300);
    push_motion(window, 545, 300, true);
    push_motion(window, 900, 300, true);
    push_button(window, SDL_MOUSEBUTTONUP, 900, 300);
    push_motion(window, 255, 300, false);

    int picks[8], n_picks = 0, released_at = -1;
    bool dragging = false;
    SDL_Event e;
    while (SDL_PollEvent(&e) && n_picks < 8) {
        switch (e.type) {
        case SDL_MOUSEBUTTONDOWN:                       /* WM_LBUTTONDOWN */
            if (e.button.button != SDL_BUTTON_LEFT)
                break;
            dragging = true;
            /* SetCapture: keep getting moves outside the window. SDL2
               already does this while a button is held (the hint
               SDL_HINT_MOUSE_AUTO_CAPTURE, on by default); some drivers
               cannot (the dummy one here, Wayland): not an error. */
            SDL_CaptureMouse(SDL_TRUE);
            picks[n_picks++] = pick_at(&s, e.button.x, e.button.y, spheres, 2);
            break;
        case SDL_MOUSEMOTION:                           /* WM_MOUSEMOVE */
            if (dragging && (e.motion.state & SDL_BUTTON_LMASK))
                picks[n_picks++] = pick_at(&s, e.motion.x, e.motion.y, spheres, 2);
            break;
        case SDL_MOUSEBUTTONUP:                         /* WM_LBUTTONUP */
            if (e.button.button != SDL_BUTTON_LEFT)
                break;
            dragging = false;
            SDL_CaptureMouse(SDL_FALSE);                /* ReleaseCapture */
            released_at = n_picks;
            break;
        default:
            break;
        }
    }

    /* WM_SIZE: the window becomes 400 x 600. Where (-2, 0, 0) appears
       moves with the new aspect; the old projection would miss it. */
    SDL_SetWindowSize(window, 400, 600);
    mat4 old_proj;
    glm_mat4_copy(s.proj, old_proj);
    SDL_Event size = {0};
    size.type = SDL_WINDOWEVENT;
    size.window.event = SDL_WINDOWEVENT_SIZE_CHANGED;
    size.window.windowID = SDL_GetWindowID(window);
    SDL_PushEvent(&size);
    while (SDL_PollEvent(&e))
        if (e.type == SDL_WINDOWEVENT && e.window.event == SDL_WINDOWEVENT_SIZE_CHANGED)
            on_size(window, &s);
    /* (-2, 0, 0) at 45 degrees, aspect 400/600, 10 units away: pixel x 55 */
    int after_resize = pick_at(&s, 55, 300, spheres, 2);
    view_state stale = s;
    glm_mat4_copy(old_proj, stale.proj);
    int with_old_proj = pick_at(&stale, 55, 300, spheres, 2);

    printf("drag picks:");
    for (int i = 0; i < n_picks; i++)
        printf(" %d", picks[i]);
    printf("  (released after %d)  resized: %d, with the old projection: %d\n", released_at, after_resize,
           with_old_proj);

    SDL_DestroyWindow(window);
    SDL_Quit();
    bool ok = n_picks == 3 && picks[0] == 0 && picks[1] == 1 && picks[2] == -1 && released_at == 3 &&
              s.window_w == 400 && after_resize == 0 && with_old_proj == -1;
    return ok ? 0 : 1;
}

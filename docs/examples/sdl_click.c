/* sdl_click.c: the Chinese D3D9 tutorial's click handler (WM_LBUTTONDOWN,
   GetCursorPos, ScreenToClient, CalculateRay, TransformRay, CheckIntersection)
   ported to SDL2 and raypick. Runs without a display: SDL_VIDEODRIVER=dummy. */
#include <stdbool.h>
#include <stdio.h>
#include <SDL.h>
#include <raypick/raypick.h>

/* The pick ray under a click. SDL gives window coordinates relative to the
   window (no ScreenToClient); scale them to drawable pixels for high-DPI
   displays and aim at the pixel's centre. */
static bool click_ray(SDL_Window *window, const SDL_MouseButtonEvent *click,
                      mat4 proj, mat4 view, rp_ray *ray)
{
    int window_w, window_h, drawable_w, drawable_h;
    SDL_GetWindowSize(window, &window_w, &window_h);
    SDL_GL_GetDrawableSize(window, &drawable_w, &drawable_h);
    if (window_w <= 0 || window_h <= 0)
        return false;   /* minimised */
    float x = ((float)click->x + 0.5f) * (float)drawable_w / (float)window_w;
    float y = ((float)click->y + 0.5f) * (float)drawable_h / (float)window_h;
    rp_viewport vp = {0.0f, 0.0f, (float)drawable_w, (float)drawable_h};
    return rp_pick_ray_perspective(x, y, &vp, proj, view, RP_GL, ray);
}

int main(int argc, char *argv[])   /* SDL wants this signature (SDL_main) */
{
    (void)argc;
    (void)argv;
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        fprintf(stderr, "SDL_Init: %s\n", SDL_GetError());
        return 1;
    }
    SDL_Window *window = SDL_CreateWindow("sdl_click", SDL_WINDOWPOS_UNDEFINED,
                                          SDL_WINDOWPOS_UNDEFINED, 800, 600,
                                          SDL_WINDOW_HIDDEN | SDL_WINDOW_ALLOW_HIGHDPI);
    if (!window) {
        fprintf(stderr, "SDL_CreateWindow: %s\n", SDL_GetError());
        SDL_Quit();
        return 1;
    }

    /* The camera the program renders with (no GetTransform in GL: keep it). */
    mat4 proj, view;
    glm_perspective(glm_rad(45.0f), 800.0f / 600.0f, 0.1f, 100.0f, proj);
    glm_lookat((vec3){0, 0, 10}, (vec3){0, 0, 0}, (vec3){0, 1, 0}, view);
    const rp_sphere bound[2] = {{{-2, 0, 0}, 1.0f}, {{2, 0, 0}, 1.0f}};
    bool rotate[2] = {false, false};

    /* A left click in the middle of the left sphere, as the OS would send it. */
    SDL_Event fake = {0};
    fake.type = SDL_MOUSEBUTTONDOWN;
    fake.button.button = SDL_BUTTON_LEFT;
    fake.button.windowID = SDL_GetWindowID(window);
    fake.button.x = 255;   /* where (-2, 0, 0) lands in this 800 x 600 view */
    fake.button.y = 300;
    SDL_PushEvent(&fake);

    SDL_Event e;
    while (SDL_PollEvent(&e)) {
        if (e.type != SDL_MOUSEBUTTONDOWN || e.button.button != SDL_BUTTON_LEFT)
            continue;
        rp_ray ray;
        if (!click_ray(window, &e.button, proj, view, &ray))
            continue;
        for (int i = 0; i < 2; i++)   /* the tutorial: rotate what the ray hits */
            rotate[i] = rp_test_ray_sphere(&ray, &bound[i]);
    }
    printf("rotate: left %s, right %s\n", rotate[0] ? "yes" : "no", rotate[1] ? "yes" : "no");

    SDL_DestroyWindow(window);
    SDL_Quit();
    return rotate[0] && !rotate[1] ? 0 : 1;
}

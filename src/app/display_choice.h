/* display_choice.h: what to do when SDL would look for a display, as a pure
   function of the environment (no SDL: unit tested in
   tests/test_display_choice.c). */
#ifndef RAYPICK_APP_DISPLAY_CHOICE_H
#define RAYPICK_APP_DISPLAY_CHOICE_H

#include <stdbool.h>

typedef enum app_display_choice {
    APP_DISPLAY_DEFAULT,    /* a display or a driver the user chose: SDL's own choice */
    APP_DISPLAY_OFFSCREEN,  /* no display, script mode: SDL's offscreen driver (EGL) */
    APP_DISPLAY_NONE        /* no display, interactive: nothing to show a window on */
} app_display_choice;

/*!
 * @brief decides how to open the window on X11/Wayland systems.
 *
 * Without DISPLAY and WAYLAND_DISPLAY, SDL would try Wayland's default
 * socket (libwayland prints "error: XDG_RUNTIME_DIR is invalid or not set"
 * when that variable is missing) and then fall back to its offscreen
 * driver, where an interactive run shows nothing and never ends. So: a
 * run that only makes pictures or prints (script mode, --print-layout)
 * asks for the offscreen driver directly, an interactive one is refused.
 *
 * @param[in] display        $DISPLAY, NULL when unset
 * @param[in] wayland        $WAYLAND_DISPLAY, NULL when unset
 * @param[in] sdl_driver     $SDL_VIDEODRIVER, NULL when unset
 * @param[in] needs_no_input script mode or --print-layout
 * @returns APP_DISPLAY_DEFAULT when any of the three is set and not empty
 *          (SDL_VIDEODRIVER: the user's explicit choice wins), else
 *          APP_DISPLAY_OFFSCREEN or APP_DISPLAY_NONE by needs_no_input
 */
app_display_choice app_choose_display(const char *display, const char *wayland, const char *sdl_driver,
                                      bool needs_no_input);

/* The message for APP_DISPLAY_NONE: what to run instead. */
const char *app_no_display_message(void);

#endif /* RAYPICK_APP_DISPLAY_CHOICE_H */

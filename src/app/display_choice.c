/* display_choice.c: a window, an offscreen run, or a message. */
#include "display_choice.h"

#include <stddef.h>

static bool set(const char *value)
{
    return value != NULL && value[0] != '\0';
}

app_display_choice app_choose_display(const char *display, const char *wayland, const char *sdl_driver,
                                      bool needs_no_input)
{
    if (set(sdl_driver) || set(display) || set(wayland))
        return APP_DISPLAY_DEFAULT;
    return needs_no_input ? APP_DISPLAY_OFFSCREEN : APP_DISPLAY_NONE;
}

const char *app_no_display_message(void)
{
    return "no display: DISPLAY and WAYLAND_DISPLAY are not set, so the interactive demo has\n"
           "  nowhere to open its window. Either\n"
           "  - run it where there is a display: on the desktop, or over SSH with X forwarding\n"
           "    (ssh -X host, then scripts/run), or\n"
           "  - make pictures without a display in script mode, e.g.\n"
           "      raypick --lesson 1 --click 340,396@5 --frames 30 --screenshot out.png\n"
           "    (also under an X server of its own: xvfb-run -a raypick --frames 30 ...)\n";
}

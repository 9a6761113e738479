/* SDL_config.h for raypick's WebAssembly build of SDL2 (scripts/web).
   SDL's own emscripten configuration, minus what the lessons never use:
   audio, joysticks, sensors, power, dlopen and SDL's 2D renderer. What is
   left is the emscripten video driver (a WebGL2 context on the canvas) and
   the event code, so the library and the page stay small. */
#ifndef SDL_config_h_
#define SDL_config_h_

#include "SDL_platform.h"
#include "SDL_config_emscripten.h"

#undef SDL_AUDIO_DRIVER_DISK
#undef SDL_AUDIO_DRIVER_DUMMY
#undef SDL_AUDIO_DRIVER_EMSCRIPTEN
#define SDL_AUDIO_DISABLED 1

#undef SDL_JOYSTICK_EMSCRIPTEN
#define SDL_JOYSTICK_DISABLED 1

#undef SDL_SENSOR_DUMMY
#define SDL_SENSOR_DISABLED 1

#undef SDL_POWER_EMSCRIPTEN
#define SDL_POWER_DISABLED 1

#undef SDL_FILESYSTEM_EMSCRIPTEN
#define SDL_FILESYSTEM_DUMMY 1

#undef SDL_LOADSO_DLOPEN
#define SDL_LOADSO_DISABLED 1

#undef SDL_VIDEO_RENDER_OGL_ES2
#define SDL_RENDER_DISABLED 1

#endif

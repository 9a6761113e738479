/*
 * stop.h: SIGINT and SIGTERM end the program within a second, whatever it
 * is doing. The first signal asks for the usual shutdown (the frame loop
 * or the loading screen sees app_stop_requested and quits, exit 0) and
 * arms a one-second deadline; when the program is still running then (a
 * long frame, a model or map still loading, a blocked read), or at a
 * second signal, it says so on stderr and ends by the signal it got.
 * POSIX only; elsewhere SDL's own handling stays (a quit event between
 * frames).
 */
#ifndef RAYPICK_APP_STOP_H
#define RAYPICK_APP_STOP_H

#include <stdbool.h>

/* Installs the handlers. Call before SDL_Init: SDL leaves a handler that
   is already there alone. */
void app_stop_install(void);

/* true once SIGINT or SIGTERM has arrived. */
bool app_stop_requested(void);

/* Ends the process now, without the usual shutdown (another thread may be
   deep in a loader): by the signal that asked for it, else exit status 0.
   `why` goes to stderr. */
void app_stop_now(const char *why);

#endif

/*
 * clock.h: a wall clock in seconds for the renderer's own measurements (the
 * GPU pick pass's readback stall). Its own file because on Windows it needs
 * <windows.h>, which must not meet glad's GL header.
 */
#ifndef RAYPICK_RENDER_CLOCK_H
#define RAYPICK_RENDER_CLOCK_H

#include <stddef.h>

/* seconds since an arbitrary start; only differences mean anything */
double render_clock_seconds(void);

/* The smallest step render_clock_seconds was seen to take, in seconds,
   measured on the first call (three waits for the reading to change) and
   kept. Native clocks step in nanoseconds; a browser's performance.now()
   steps in 5 to 100 us (100 in Chromium unless the page is cross-origin
   isolated), coarser than a pick takes. 0 when the reading did not change
   in ten million readings (a clock that stands still). */
double render_clock_step_seconds(void);

/* A duration in microseconds for the HUD, into buf (size bytes, always
   terminated when size > 0), honest about a coarse clock (step_us: the
   clock's step in microseconds, 0 if unknown), in the message catalogue's
   language (msg.h; in English:)
     step_us <= 1:            "12.3 us"
     below one step:          "under 100 us"
     otherwise:               "300 us (the clock steps 100 us)"
   A negative or non-finite us prints as "-". */
void render_format_us(double us, double step_us, char *buf, size_t size);

#endif /* RAYPICK_RENDER_CLOCK_H */

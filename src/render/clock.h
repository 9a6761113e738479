/*
 * clock.h: a wall clock in seconds for the renderer's own measurements (the
 * GPU pick pass's readback stall). Its own file because on Windows it needs
 * <windows.h>, which must not meet glad's GL header.
 */
#ifndef RAYPICK_RENDER_CLOCK_H
#define RAYPICK_RENDER_CLOCK_H

/* seconds since an arbitrary start; only differences mean anything */
double render_clock_seconds(void);

#endif /* RAYPICK_RENDER_CLOCK_H */

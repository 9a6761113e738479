/* window_pixels.h: SDL window coordinates to drawable pixels (high-DPI).
   Pure functions: no SDL, testable anywhere. */
#ifndef RAYPICK_APP_WINDOW_PIXELS_H
#define RAYPICK_APP_WINDOW_PIXELS_H

#include <stdbool.h>

/* The window size SDL reports (SDL_GetWindowSize, in "points") and the
   drawable size GL renders to (SDL_GL_GetDrawableSize, in pixels). They
   differ by the display scale on Retina/4K displays. */
typedef struct app_window_size {
    int window_w, window_h;
    int drawable_w, drawable_h;
} app_window_size;

/*!
 * @brief map a mouse position in window coordinates to drawable pixels
 *        (top-left origin, y down: what rp_viewport expects), per axis:
 *        pixel = window coordinate * drawable size / window size.
 *
 * Both SDL and rp_viewport have y growing downwards, so there is no flip.
 * The result is in the drawable's pixels, not the viewport's: a letterboxed
 * viewport keeps its offset (rp_viewport.x, .y) and the pick functions
 * subtract it. Positions outside the window (SDL reports them while the
 * mouse is captured) map linearly like any other.
 *
 * @param[in]  size    window and drawable sizes
 * @param[in]  wx, wy  mouse position from SDL (window coordinates)
 * @param[out] px, py  pixel position; either may be NULL; untouched on false
 * @returns false for a NULL size, a zero or negative size (a minimised
 *          window) or non-finite input
 */
bool app_window_to_pixels(const app_window_size *size, float wx, float wy,
                          float *px, float *py);

#endif /* RAYPICK_APP_WINDOW_PIXELS_H */

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
 *        (top-left origin, y down: what rp_viewport expects)
 *
 * @param[in]  size    window and drawable sizes
 * @param[in]  wx, wy  mouse position from SDL (window coordinates)
 * @param[out] px, py  pixel position; untouched on false
 * @returns false for a zero or negative size (a minimised window) or
 *          non-finite input
 */
bool app_window_to_pixels(const app_window_size *size, float wx, float wy,
                          float *px, float *py);

#endif /* RAYPICK_APP_WINDOW_PIXELS_H */

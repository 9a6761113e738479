/* window_pixels.c: SDL window coordinates to drawable pixels. */
#include "window_pixels.h"

#include <float.h>
#include <math.h>
#include <stddef.h>

bool app_window_to_pixels(const app_window_size *size, float wx, float wy,
                          float *px, float *py)
{
    if (size == NULL || !isfinite(wx) || !isfinite(wy))
        return false;
    if (size->window_w <= 0 || size->window_h <= 0 ||
        size->drawable_w <= 0 || size->drawable_h <= 0)
        return false;

    /* Per axis: a display may scale x and y differently, and sizes are
       integers, so the ratio is computed rather than assumed (2.0, 1.5...). */
    double x = (double)wx * size->drawable_w / size->window_w;
    double y = (double)wy * size->drawable_h / size->window_h;
    if (fabs(x) > FLT_MAX || fabs(y) > FLT_MAX)   /* would not fit a float */
        return false;

    if (px)
        *px = (float)x;
    if (py)
        *py = (float)y;
    return true;
}

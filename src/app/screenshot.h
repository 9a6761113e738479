/* screenshot.h: write RGB pixels (top row first) as a PNG file. */
#ifndef RAYPICK_APP_SCREENSHOT_H
#define RAYPICK_APP_SCREENSHOT_H

#include <stdbool.h>
#include <stdint.h>

bool app_write_png(const char *path, int width, int height, const uint8_t *rgb);

#endif

/* screenshot.c: PNG output through stb_image_write, compiled into this file
   only (static), so it cannot clash with another copy of stb in a library. */
#include "screenshot.h"

#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wconversion"
#endif
#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

bool app_write_png(const char *path, int width, int height, const uint8_t *rgb)
{
    return stbi_write_png(path, width, height, 3, rgb, width * 3) != 0;
}

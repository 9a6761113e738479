/* screenshot.c: PNG output through stb_image_write, compiled into this file
   only (static), so it cannot clash with another copy of stb in a library. */
#include "screenshot.h"

#include <stdio.h>
#include <stdlib.h>

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

/* The PNG is made in memory and written here: stbi_write_png ignores
   fwrite's and fclose's errors, so a full disk (or /dev/full) looked like
   success. Every step is checked, the close too (where a buffered write
   fails). */
bool app_write_png(const char *path, int width, int height, const uint8_t *rgb)
{
    int len = 0;
    unsigned char *png = stbi_write_png_to_mem(rgb, width * 3, width, height, 3, &len);
    if (!png)
        return false;
    FILE *f = fopen(path, "wb");
    bool ok = f && fwrite(png, 1, (size_t)len, f) == (size_t)len;
    if (f && fclose(f) != 0)
        ok = false;
    STBIW_FREE(png);
    return ok;
}

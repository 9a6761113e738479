/* sanitizer_keep.c: see sanitizer_keep.h. */
#if defined(__SANITIZE_ADDRESS__) && defined(__linux__)
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <string.h>
#endif

#include "sanitizer_keep.h"

#if defined(__SANITIZE_ADDRESS__) && defined(__linux__)
static int pin(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    (void)data;
    const char *name = info->dlpi_name;
    if (name && (strstr(name, "_dri.so") || strstr(name, "libGLX_mesa") || strstr(name, "libEGL_mesa") ||
                 strstr(name, "libgallium"))) {
        /* NOLOAD: only take a reference; NODELETE: never unmap it */
        void *handle = dlopen(name, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
        (void)handle;   /* kept on purpose until exit */
    }
    return 0;
}

void app_keep_gl_driver_loaded(void)
{
    dl_iterate_phdr(pin, NULL);
}
#else
void app_keep_gl_driver_loaded(void)
{
}
#endif

/* sanitizer_keep.c: see sanitizer_keep.h. */
#if defined(__SANITIZE_ADDRESS__) && defined(__linux__)
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <string.h>
#endif

#include "sanitizer_keep.h"

#if defined(__SANITIZE_ADDRESS__) && defined(__linux__)
/* Every shared object loaded now, not only the GL driver's: SDL and the GL
   stack load and unload more than the driver (libEGL_mesa for the offscreen
   video driver, X11 and xcb extension libraries, LLVM), and which of them
   still holds a block at exit depends on thread timing. A leak checked
   after its library is gone shows as "<unknown module>": seen twice in one
   loaded run (1608 bytes each, from --print-layout). Pinned, every frame
   keeps its library's name, which tests/lsan.supp matches for system
   libraries and never for ours. */
static int pin(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    (void)data;
    const char *name = info->dlpi_name;
    if (name && name[0] && strstr(name, "linux-vdso") == NULL) {
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

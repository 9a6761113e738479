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

/* The sanitizer runtime of GCC 12 and 13 (and LLVM before 17) takes a
   dynamic TLS block that starts 16 bytes into a page for a glibc 2.19
   block, and reads the two words before it (ASan's own chunk header here)
   as that block's range. LeakSanitizer's tracer then scans that bogus range
   at exit and dies ("Tracer caught signal 11"): a crash that depends only
   on where malloc put a GL driver thread's TLS block, so it came and went
   with the machine's load. Off, LeakSanitizer still scans every thread's
   static TLS, through which the dynamic blocks stay reachable.
   tests/sanitizer/test_dtls_block.c reproduces it; ASAN_OPTIONS can still
   turn it back on. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
    return "intercept_tls_get_addr=0";
}
#else
void app_keep_gl_driver_loaded(void)
{
}
#endif

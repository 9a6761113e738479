/* sanitizer_keep.h: help LeakSanitizer tell the GL driver's leaks from ours. */
#ifndef RAYPICK_APP_SANITIZER_KEEP_H
#define RAYPICK_APP_SANITIZER_KEEP_H

/* In AddressSanitizer builds on Linux: pin every loaded shared library (the
   GL driver's: Mesa's *_dri.so, libGLX_mesa, libgallium; and the rest of
   the GL and windowing stack) so they stay mapped until exit.
   Otherwise they are unloaded when the X display closes, LeakSanitizer
   reports their allocations from "<unknown module>", and no suppression can
   name them. Pinned, tests/lsan.supp suppresses them by library name while
   leaks in our own code are still reported. Elsewhere: does nothing.
   Call with a current GL context, and again before shutting SDL down
   (libraries loaded since are pinned then). */
void app_keep_gl_driver_loaded(void);

#endif

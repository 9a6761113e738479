/*
 * raypick/export.h: RP_API marks every public function.
 *
 * The library is built with hidden visibility (gcc, clang) and with
 * RAYPICK_BUILD defined, so only functions marked RP_API leave a shared
 * library. On Windows, RP_API is __declspec(dllexport) while building the
 * DLL and __declspec(dllimport) for its users; define RAYPICK_STATIC when
 * linking the static library instead (raypick's pkg-config file and Meson
 * dependency do that for you).
 */
#ifndef RAYPICK_EXPORT_H
#define RAYPICK_EXPORT_H

#if defined(_WIN32) || defined(__CYGWIN__)
#  if defined(RAYPICK_STATIC)
#    define RP_API
#  elif defined(RAYPICK_BUILD)
#    define RP_API __declspec(dllexport)
#  else
#    define RP_API __declspec(dllimport)
#  endif
#elif defined(__GNUC__) && __GNUC__ >= 4
#  define RP_API __attribute__((visibility("default")))
#else
#  define RP_API
#endif

#endif /* RAYPICK_EXPORT_H */

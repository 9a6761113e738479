/*
 * raypick/export.h: RP_API marks every public function.
 *
 * The library is built with hidden visibility (gcc, clang), so only
 * functions marked RP_API leave a shared library. On Windows:
 *
 *   RAYPICK_BUILD   the library's sources making raypick.dll: dllexport
 *   RAYPICK_DLL     a program using raypick.dll: dllimport (a direct call
 *                   through the import table)
 *   neither, or RAYPICK_STATIC
 *                   no decoration: the static library, the sources
 *                   compiled into a program, or a program calling the DLL
 *                   through its import library's stubs (raypick exports
 *                   functions only, so that links as well)
 *
 * raypick's Meson dependency and pkg-config file define the right one for
 * you (RAYPICK_DLL or RAYPICK_STATIC). A declaration and its definition
 * always agree: no dllimport ever meets the library's own code.
 */
#ifndef RAYPICK_EXPORT_H
#define RAYPICK_EXPORT_H

#if defined(_WIN32) || defined(__CYGWIN__)
#  if defined(RAYPICK_STATIC)
#    define RP_API
#  elif defined(RAYPICK_BUILD)
#    define RP_API __declspec(dllexport)
#  elif defined(RAYPICK_DLL)
#    define RP_API __declspec(dllimport)
#  else
#    define RP_API
#  endif
#elif defined(__GNUC__) && __GNUC__ >= 4
#  define RP_API __attribute__((visibility("default")))
#else
#  define RP_API
#endif

#endif /* RAYPICK_EXPORT_H */

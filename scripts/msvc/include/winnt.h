/*
 * winnt.h: Wine's, with one clash taken out (scripts/windows --msvc puts
 * this folder before Wine's headers).
 *
 * Under clang, Wine's winnt.h defines _InterlockedCompareExchange128 as an
 * inline function; clang-cl knows that name as a builtin once <intrin.h>
 * has declared it, so any file that includes <intrin.h> before
 * <windows.h> fails ("definition of builtin function"). Microsoft's
 * winnt.h only declares the intrinsic. Wine's definition is renamed here;
 * callers get the builtin.
 */
#define _InterlockedCompareExchange128 raypick_wine_InterlockedCompareExchange128
#include_next <winnt.h>
#undef _InterlockedCompareExchange128

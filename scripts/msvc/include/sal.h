/*
 * sal.h: Wine's, with the two format-string annotations it lacks
 * (scripts/windows --msvc puts this folder before Wine's headers). SDL's
 * headers use them under _MSC_VER; they expand to nothing here, as all
 * of Wine's annotations do.
 */
#include_next <sal.h>
#ifndef _Printf_format_string_impl_
#define _Printf_format_string_impl_
#endif
#ifndef _Scanf_format_string_impl_
#define _Scanf_format_string_impl_
#endif

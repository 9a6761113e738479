/*
 * runtime.c: the few pieces of Visual Studio's static C runtime that
 * an MSVC-mode program needs at link time and that nothing on Debian
 * ships for that mode (Microsoft's msvcrt.lib and vcruntime.lib are not
 * redistributable). scripts/windows --msvc compiles it with clang-cl into
 * the msvcrt.lib that /MD objects ask for, once per part (-DRT_EXE,
 * -DRT_DLL, ...: one object each, so a DLL does not pull in main's entry
 * point); everything else comes from ucrtbase.dll and kernel32.dll through
 * Wine's import libraries.
 *
 *   mainCRTStartup, _DllMainCRTStartup   the entry points (no C++ static
 *                                        constructors: C needs none)
 *   _fltused                             referenced by any floating point
 *   __security_cookie, ..._check_cookie  /GS (on by default)
 *   _tls_used, _tls_index                __declspec(thread) / _Thread_local
 *   __chkstk                             frames of 4 KiB or more
 *   frexpf                               inline in Microsoft's <math.h>;
 *                                        Wine's imports it, ucrtbase.dll
 *                                        has no such export
 */
#include <stdint.h>
#include <stdlib.h>
#include <windows.h>
#include <corecrt_startup.h>

#pragma comment(lib, "ucrtbase.lib")
#pragma comment(lib, "kernel32.lib")

#if defined(RT_FLTUSED)
int _fltused = 0x9875;
#endif

/* ---- entry points ---------------------------------------------------- */

#if defined(RT_EXE)
int __cdecl main(int argc, char **argv, char **envp);

int __cdecl mainCRTStartup(void)
{
    _set_app_type(_crt_console_app);
    _configure_narrow_argv(_crt_argv_unexpanded_arguments);
    _initialize_narrow_environment();
    exit(main(*__p___argc(), *__p___argv(), _get_initial_narrow_environment()));
}
#endif

#if defined(RT_DLL)
BOOL WINAPI _DllMainCRTStartup(HINSTANCE dll, DWORD reason, LPVOID reserved)
{
    (void)dll;
    (void)reason;
    (void)reserved;
    return TRUE;
}
#endif

/* ---- float functions Microsoft's <math.h> defines inline ---------------- */

#if defined(RT_MATHF)
#include <math.h>

static float __cdecl rt_frexpf(float x, int *exponent)
{
    return (float)frexp(x, exponent);
}
/* what a call through Wine's dllimport declaration loads */
float(__cdecl *__imp_frexpf)(float, int *) = rt_frexpf;
#endif

/* ---- /GS: the stack cookie --------------------------------------------- */

#if defined(RT_GS)
uintptr_t __security_cookie = (uintptr_t)0x00002B992DDFA232ull;

void __cdecl __security_check_cookie(uintptr_t cookie)
{
    if (cookie != __security_cookie)
        abort();
}
#endif

/* ---- thread-local storage: the directory the loader reads ------------- */

#if defined(RT_TLS)
#pragma section(".tls", read, write)
#pragma section(".tls$ZZZ", read, write)
#pragma section(".CRT$XLA", read)
#pragma section(".CRT$XLZ", read)
__declspec(allocate(".tls")) char _tls_start = 0;
__declspec(allocate(".tls$ZZZ")) char _tls_end = 0;
__declspec(allocate(".CRT$XLA")) PIMAGE_TLS_CALLBACK __xl_a = 0;
__declspec(allocate(".CRT$XLZ")) PIMAGE_TLS_CALLBACK __xl_z = 0;
ULONG _tls_index = 0;
const IMAGE_TLS_DIRECTORY _tls_used = {
    (ULONG_PTR)&_tls_start, (ULONG_PTR)&_tls_end, (ULONG_PTR)&_tls_index,
    (ULONG_PTR)(&__xl_a + 1), 0, 0,
};
#endif

/* ---- __chkstk: touch each page of a big frame, top down ---------------- */

#if defined(RT_CHKSTK)
/* rax = the frame's size; every register but the flags kept (as
   compiler-rt's ___chkstk_ms, for the MSVC name and convention). */
__asm__(".text\n"
        ".globl __chkstk\n"
        "__chkstk:\n"
        "    pushq %rcx\n"
        "    pushq %rax\n"
        "    cmpq $0x1000, %rax\n"
        "    leaq 24(%rsp), %rcx\n"
        "    jb 2f\n"
        "1:  subq $0x1000, %rcx\n"
        "    testq %rcx, (%rcx)\n"
        "    subq $0x1000, %rax\n"
        "    cmpq $0x1000, %rax\n"
        "    ja 1b\n"
        "2:  subq %rax, %rcx\n"
        "    testq %rcx, (%rcx)\n"
        "    popq %rax\n"
        "    popq %rcx\n"
        "    ret\n");
#endif

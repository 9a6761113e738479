/* tmpdir.h: a fresh private directory for tests that write files, on POSIX
   (mkdtemp under $TMPDIR, else /tmp) and on Windows (under GetTempPath, a
   name made unique by the process id and a counter; _mkdir refuses names
   that exist, so two tests never share one). Header only: each test
   includes it once. */
#ifndef RP_TEST_TMPDIR_H
#define RP_TEST_TMPDIR_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef _WIN32
#include <direct.h>
#include <windows.h>
#else
#include <unistd.h>
#endif

/* Creates a new empty directory whose name starts with prefix and writes
   its path to out (size bytes). Returns 0, or -1 with out empty. */
static int rp_test_tmpdir_make(const char *prefix, char *out, size_t size)
{
#ifdef _WIN32
    char base[MAX_PATH + 1];
    DWORD n = GetTempPathA((DWORD)sizeof base, base);
    if (n == 0 || n > MAX_PATH) {
        out[0] = '\0';
        return -1;
    }
    for (int i = 0; i < 1000; i++) {
        int len = snprintf(out, size, "%s%s-%lu-%d", base, prefix,
                           (unsigned long)GetCurrentProcessId(), i);
        if (len < 0 || (size_t)len >= size)
            break;
        if (_mkdir(out) == 0)
            return 0;
        if (errno != EEXIST)
            break;
    }
    out[0] = '\0';
    return -1;
#else
    const char *base = getenv("TMPDIR");
    if (base == NULL || base[0] == '\0')
        base = "/tmp";
    int len = snprintf(out, size, "%s/%s-XXXXXX", base, prefix);
    if (len < 0 || (size_t)len >= size || mkdtemp(out) == NULL) {
        out[0] = '\0';
        return -1;
    }
    return 0;
#endif
}

/* Removes the (empty) directory; 0 or -1 like rmdir. */
static int rp_test_tmpdir_remove(const char *path)
{
#ifdef _WIN32
    return _rmdir(path);
#else
    return rmdir(path);
#endif
}

#endif /* RP_TEST_TMPDIR_H */

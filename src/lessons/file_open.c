/* file_open.c: regular files only (file_open.h). */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L     /* open, fstat, fdopen */
#endif
#include "file_open.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#ifndef _WIN32
#include <fcntl.h>
#include <unistd.h>
#endif

FILE *file_open_regular(const char *path, const char *what, long long *bytes, char *err,
                        size_t err_size)
{
    const char *gap = what[0] != '\0' ? " " : "";
#ifdef _WIN32
    struct _stat64 st;
    if (_stat64(path, &st) != 0) {
        snprintf(err, err_size, "%s: cannot open%s%s: %s", path, gap, what, strerror(errno));
        return NULL;
    }
    if ((st.st_mode & _S_IFMT) != _S_IFREG) {
        snprintf(err, err_size, "%s: cannot load%s%s: not a regular file", path, gap, what);
        return NULL;
    }
    FILE *f = fopen(path, "rb");
#else
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        snprintf(err, err_size, "%s: cannot open%s%s: %s", path, gap, what, strerror(errno));
        if (fd >= 0)
            close(fd);
        return NULL;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(err, err_size, "%s: cannot load%s%s: not a regular file (%s)", path, gap, what,
                 S_ISDIR(st.st_mode) ? "a directory" : S_ISFIFO(st.st_mode) ? "a FIFO"
                 : S_ISSOCK(st.st_mode) ? "a socket" : "a device");
        close(fd);
        return NULL;
    }
    FILE *f = fdopen(fd, "rb");
    if (!f)
        close(fd);
#endif
    if (!f)
        snprintf(err, err_size, "%s: cannot open%s%s: %s", path, gap, what, strerror(errno));
    else
        *bytes = (long long)st.st_size;
    return f;
}

/* file_open.h: opening a file the demo reads whole (a --mesh model, a
   --heightmap image) only when it is a regular file. A FIFO would block
   the open until a writer came and a device never ends, so both are
   refused before anything is read, on a descriptor opened without
   waiting. Shared by the app's model loader and the lessons' heightmap
   probe; the library has its own (src/lib/heightmap_load.c: it depends
   on nothing of ours). */
#ifndef RAYPICK_FILE_OPEN_H
#define RAYPICK_FILE_OPEN_H

#include <stddef.h>
#include <stdio.h>

/* The file at path, opened "rb", and its size in *bytes; NULL with a
   message in err ("PATH: cannot open WHAT: why", "PATH: cannot load
   WHAT: not a regular file (a FIFO)") otherwise. what: the file's role
   in the messages ("the model"), or "" for none. */
FILE *file_open_regular(const char *path, const char *what, long long *bytes, char *err,
                        size_t err_size);

#endif /* RAYPICK_FILE_OPEN_H */

/*
 * model_guard.h: a model file's bytes checked before assimp reads them.
 *
 * assimp's readers trust what a file declares: an .x mesh claiming 500M
 * faces is a vector of 500M faces before the first face is read (11.7 GB
 * from a 76-byte file), a .glb buffer claiming 4 GiB is allocated before
 * its bytes are looked for, a .ply element count is believed, and nested
 * .x frames are parsed by recursion until the stack runs out (60,000 of
 * them crash the program). assimp has no importer property that bounds
 * any of this, so the formats this loader hands to assimp are looked at
 * here first, as assimp would read them, and refused with a reason when:
 * - a count that assimp allocates for is larger than the bytes left in
 *   the file could hold (every element takes at least one byte);
 * - objects nest deeper than MODEL_GUARD_MAX_DEPTH;
 * - the data, decompressed (compressed .x), would exceed the budget.
 * Formats: DirectX .x (text, binary, MSZIP-compressed), glTF 2 (.gltf,
 * .glb), PLY (ASCII and binary), STL. Any other extension is refused: its
 * reader cannot be bounded from here. A pure function of bytes (tests and
 * the fuzz target call it directly).
 */
#ifndef RAYPICK_MODEL_GUARD_H
#define RAYPICK_MODEL_GUARD_H

#include <stdbool.h>
#include <stddef.h>

/* Deepest nesting of objects (frames, JSON arrays and objects) accepted:
   far beyond real models (tens), far below what overflows a thread's
   stack in assimp's recursive readers (about 40,000 .x frames in 8 MiB). */
#define MODEL_GUARD_MAX_DEPTH 256

/* true when the extension of path names a format model_guard_check knows. */
bool model_guard_known_format(const char *path);

/* Checks `size` bytes of the file `path` (its extension picks the format;
   `extra_bytes` is what files beside it that it names may add, for a
   .gltf's buffers). `budget`: bytes the load may take. false with "PATH:
   the problem and the limit" in err when the file is refused. */
bool model_guard_check(const char *path, const unsigned char *data, size_t size, size_t extra_bytes,
                       long long budget, char *err, size_t err_size);

#endif /* RAYPICK_MODEL_GUARD_H */

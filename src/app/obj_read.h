/*
 * obj_read.h: Wavefront OBJ text -> one mesh_data, without assimp. The
 * part of OBJ that picking needs: `v x y z` positions, `vt u [v]` texture
 * coordinates, `f` faces of three or more corners (`v`, `v/vt`, `v//vn`,
 * `v/vt/vn`; 1-based or negative, counting back from the last one read),
 * triangulated as fans. Comments (`#` to the end of the line), blank lines
 * and every other statement (`vn`'s values, `o`, `g`, `s`, `usemtl`,
 * `mtllib`, `l`, `p`, ...) are skipped.
 *
 * One output vertex per distinct (position, texture coordinate) pair that
 * a face uses, in the order faces first use them; triangles in the file's
 * order, so a face number means the same file triangle in every build
 * (assimp would regroup faces by material). Normals are left zero (see
 * mesh_data_compute_normals), nothing is moved or scaled.
 *
 * A UTF-8 byte-order mark at the start is skipped; UTF-16 (its mark) is
 * refused with a message.
 *
 * A pure function from bytes: no files, no globals (tests and a libFuzzer
 * target call it directly).
 */
#ifndef RAYPICK_OBJ_READ_H
#define RAYPICK_OBJ_READ_H

#include <stdbool.h>
#include <stddef.h>
#include "mesh_data.h"

/* Most `v` statements, and most `vt` statements, a file may have. */
#define OBJ_READ_MAX_POSITIONS ((size_t)1 << 24)
/* Most triangles after the fans (each face of n corners gives n - 2), and
   three times as many face corners. With the positions' limit this bounds
   the memory to about 2.5 GiB at the very worst; a file near the limits is
   hundreds of MiB itself. */
#define OBJ_READ_MAX_TRIANGLES ((size_t)1 << 24)

/* Reads `size` bytes of OBJ text into *out (arrays from malloc: free with
   mesh_data_free). `name` names the data in messages (the file's path).
   Returns false, *out untouched, on NULL out, a line it cannot read (a
   number that is not a finite float, an index 0 or beyond what the file
   defines, a face of fewer than 3 corners, a statement with too few or
   too many values), counts beyond the limits above, no triangles, or no
   memory; then err (when err_size > 0) holds "NAME:LINE: the problem" or
   "NAME: the problem", cut to fit and always terminated. */
bool obj_read(const void *bytes, size_t size, const char *name, mesh_data *out, char *err,
              size_t err_size);

/* obj_read within `budget` bytes (<= 0: the limits above only): the
   text's size and the arrays the counts of the first pass call for, added
   up before any is allocated; more is refused with "NAME: reading it takes
   N MiB ..., more than the M MiB ..." (the reader's memory, from any file:
   a face corner is two bytes of text and about a hundred of arrays). */
bool obj_read_within(const void *bytes, size_t size, const char *name, long long budget, mesh_data *out,
                     char *err, size_t err_size);

#endif /* RAYPICK_OBJ_READ_H */

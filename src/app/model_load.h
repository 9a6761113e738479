/*
 * model_load.h: --mesh FILE, a user's model for lesson 5. Wavefront .obj
 * files are read by raypick's own reader (obj_read.h) in every build, the
 * browser's too; .x (text, binary, compressed: the D3D9 projects'),
 * .gltf/.glb, .ply and .stl with assimp (its C API, assimp/cimport.h) when
 * raypick was built with it (the Meson feature option `assimp`), each
 * checked first by model_guard.h, which knows how assimp reads them. No
 * other format: assimp's other readers trust what a file declares and
 * cannot be checked from here.
 *
 * Every mesh of the file is flattened into one mesh_data with its node's
 * transform (instances repeat), triangles only (polygons as fans from their
 * first corner, points and lines dropped), normals recomputed from the
 * flattened triangles, and the result fitted to the view (mesh_data_fit).
 * The library never sees assimp.
 */
#ifndef RAYPICK_MODEL_LOAD_H
#define RAYPICK_MODEL_LOAD_H

#include <stdbool.h>
#include <stddef.h>
#include "mesh_data.h"

/* Most triangles a model may have (a bound on memory, 2^26). */
#define MODEL_LOAD_MAX_TRIANGLES ((size_t)1 << 26)

/* Bytes a model may take to load by default (--load-limit changes it):
   the file, what assimp builds from it, and the flattened mesh. */
#define MODEL_LOAD_DEFAULT_BUDGET ((long long)1 << 30)

/* true when this build reads assimp's formats (.obj is read in every build). */
bool model_load_available(void);

/* Reads `path` into *out, fitted so its largest half-size is fit_radius.
   false (out untouched) with a message in err naming the file and the
   reason (the .obj file's line and problem, assimp's aiGetErrorString,
   "no triangles", "too many triangles", "not built in", ...). */
bool model_load(const char *path, float fit_radius, mesh_data *out, char *err, size_t err_size);

/* model_load within `budget` bytes (<= 0: the default): a file larger
   than the budget, or one whose declared sizes (model_guard.h) or
   flattened instances exceed it, is refused with a message naming the
   limit. Only regular files are read, the files a .gltf names included;
   formats other than .obj, .x, .gltf, .glb, .ply and .stl are refused. */
bool model_load_within(const char *path, float fit_radius, long long budget, mesh_data *out, char *err,
                       size_t err_size);

/* model_load_within on `size` bytes already in memory, as if they were the
   file `path` (its extension picks the format; a .gltf's other files are
   still read from beside `path`). For tests and the fuzz target
   (tests/fuzz/fuzz_model.c); data is not kept. */
bool model_load_bytes(const char *path, const void *data, size_t size, float fit_radius, long long budget,
                      mesh_data *out, char *err, size_t err_size);

#endif /* RAYPICK_MODEL_LOAD_H */

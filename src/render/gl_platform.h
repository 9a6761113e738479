/* gl_platform.h: the one seam between desktop OpenGL 3.3 core (through
   glad) and the browser's WebGL2, which is OpenGL ES 3.0 (emscripten's
   GLES3 headers, no loader). The rest of src/render writes GL that both
   accept and asks here for what differs.

   Handled elsewhere: gl_PrimitiveID does not exist in GLSL ES 3.00, so the
   GPU pick pass draws meshes from a non-indexed copy with a flat
   per-vertex triangle id there (render_pick_desc.flat_triangle_ids,
   gl_platform_flat_triangle_ids), and its shaders hide gl_PrimitiveID
   behind #ifdef GL_ES. */
#ifndef RAYPICK_GL_PLATFORM_H
#define RAYPICK_GL_PLATFORM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __EMSCRIPTEN__
#include <GLES3/gl3.h>
#else
#include <glad/gl.h>
#endif

#include "render.h"

/* glGetFloatv's name for the point sizes the driver draws (ES spells it
   with ALIASED; desktop core kept the plain one) */
#ifdef __EMSCRIPTEN__
#define GL_PLATFORM_POINT_SIZE_RANGE GL_ALIASED_POINT_SIZE_RANGE
#else
#define GL_PLATFORM_POINT_SIZE_RANGE GL_POINT_SIZE_RANGE
#endif

/* Loads the GL functions and checks the version the renderer needs. false
   with a message in err (err may be NULL). */
bool gl_platform_load(render_loader load, char *err, size_t err_size);

/* The first lines of every shader: "#version 330 core" on the desktop,
   "#version 300 es" plus default precisions in the browser. */
const char *gl_platform_shader_header(void);

/* A shader source without its own #version line (shaders/ are written
   against GLSL 330 core and start with one); the source itself when it has
   none. */
const char *gl_platform_shader_body(const char *source);

/* Per-frame state with different spellings: the depth clear value
   (glClearDepth vs glClearDepthf) and shader-set point sizes (a switch on
   the desktop, always on in ES). */
void gl_platform_begin_frame(float clear_depth);

/* Reads the back buffer as tightly packed RGB, bottom row first. ES 3.0
   only promises RGBA readback, so the browser reads RGBA and drops alpha. */
bool gl_platform_read_rgb(int width, int height, uint8_t *rgb);

/* Copies the first size bytes of the buffer bound to GL_PIXEL_PACK_BUFFER
   into out (the GPU pick pass's read a frame later). The desktop maps it
   (glMapBufferRange); WebGL2 has no buffer mapping and copies with
   glGetBufferSubData. false on a GL error. */
bool gl_platform_read_pack_buffer(size_t size, void *out);

/* The longest glClientWaitSync timeout this GL allows, at most want:
   want on the desktop, 0 in WebGL2 (a page may not block on the GPU). */
uint64_t gl_platform_wait_limit_ns(uint64_t want);

/* true where the GPU pick pass must give triangle ids without
   gl_PrimitiveID (OpenGL ES 3 / WebGL 2). */
bool gl_platform_flat_triangle_ids(void);

#endif

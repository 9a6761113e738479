/* gl_program.h: compiling and linking a GLSL program, the one copy the
   renderer (program.c) and bench/bench_draw_floor.c share. GL only: no
   renderer state, so a stand-alone GL program links gl_program.c alone. */
#ifndef RAYPICK_GL_PROGRAM_H
#define RAYPICK_GL_PROGRAM_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __EMSCRIPTEN__
#include <GLES3/gl3.h>
#else
#include <glad/gl.h>
#endif

/* Compiles a vertex and a fragment shader, each the concatenation of its
   `parts` strings (glShaderSource's pieces, e.g. a #version line, defines,
   the body), and links them. The program's id, or 0 with the compiler's
   or linker's log in err ("shader NAME: ...", "program NAME: ..."; err
   may be NULL). Needs a current context with GL loaded. */
GLuint gl_program_link(const char *const vs[], const char *const fs[], int parts, const char *name, char *err,
                       size_t err_size);

#endif

/* gl_program.c: compile and link a GLSL program; see gl_program.h. */
#include "gl_program.h"

#include <stdio.h>

/* true when a shader compiled (program: false) or a program linked (true);
   else false with its info log in err as "WHAT NAME: log" */
static bool built(GLuint id, bool program, const char *what, const char *name, char *err, size_t n)
{
    GLint ok = 0;
    if (program)
        glGetProgramiv(id, GL_LINK_STATUS, &ok);
    else
        glGetShaderiv(id, GL_COMPILE_STATUS, &ok);
    if (ok)
        return true;
    char log[1024] = "";
    if (program)
        glGetProgramInfoLog(id, sizeof log, NULL, log);
    else
        glGetShaderInfoLog(id, sizeof log, NULL, log);
    if (err && n)
        snprintf(err, n, "%s %s: %s", what, name, log);
    return false;
}

/* one stage, 0 with the compiler's log */
static GLuint compile(GLenum type, const char *const parts[], int count, const char *name, char *err, size_t n)
{
    GLuint s = glCreateShader(type);
    glShaderSource(s, count, parts, NULL);
    glCompileShader(s);
    if (built(s, false, "shader", name, err, n))
        return s;
    glDeleteShader(s);
    return 0;
}

GLuint gl_program_link(const char *const vs[], const char *const fs[], int parts, const char *name, char *err,
                       size_t err_size)
{
    GLuint v = compile(GL_VERTEX_SHADER, vs, parts, name, err, err_size);
    GLuint f = v ? compile(GL_FRAGMENT_SHADER, fs, parts, name, err, err_size) : 0;
    if (!f) {
        glDeleteShader(v);
        return 0;
    }
    GLuint p = glCreateProgram();
    glAttachShader(p, v);
    glAttachShader(p, f);
    glLinkProgram(p);
    glDeleteShader(v);
    glDeleteShader(f);
    if (built(p, true, "program", name, err, err_size))
        return p;
    glDeleteProgram(p);
    return 0;
}

/* gl_program.c: compile and link a GLSL program; see gl_program.h. */
#include "gl_program.h"

#include <stdio.h>

static void set_log(char *err, size_t n, const char *what, const char *name, const char *log)
{
    if (err && n)
        snprintf(err, n, "%s %s: %s", what, name, log);
}

/* one stage, 0 with the compiler's log */
static GLuint compile(GLenum type, const char *const parts[], int count, const char *name, char *err, size_t n)
{
    GLuint s = glCreateShader(type);
    glShaderSource(s, count, parts, NULL);
    glCompileShader(s);
    GLint ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[1024] = "";
        glGetShaderInfoLog(s, sizeof log, NULL, log);
        set_log(err, n, "shader", name, log);
        glDeleteShader(s);
        return 0;
    }
    return s;
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
    GLint ok = 0;
    glGetProgramiv(p, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[1024] = "";
        glGetProgramInfoLog(p, sizeof log, NULL, log);
        set_log(err, err_size, "program", name, log);
        glDeleteProgram(p);
        return 0;
    }
    return p;
}

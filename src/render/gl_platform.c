/* gl_platform.c: desktop GL 3.3 core vs WebGL2 (GLES 3.0); see gl_platform.h. */
#include "gl_platform.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void set_error(char *err, size_t n, const char *message)
{
    if (err && n)
        snprintf(err, n, "%s", message);
}

const char *gl_platform_shader_body(const char *source)
{
    const char *s = source;
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
        ++s;
    if (strncmp(s, "#version", 8) != 0)
        return source;
    const char *eol = strchr(s, '\n');
    return eol ? eol + 1 : s + strlen(s);
}

#ifdef __EMSCRIPTEN__
#include <webgl/webgl2.h>     /* glGetBufferSubData: WebGL2, not GLES 3.0 */

bool gl_platform_load(render_loader load, char *err, size_t err_size)
{
    (void)load;     /* emscripten links the WebGL2 entry points directly */
    const char *version = (const char *)glGetString(GL_VERSION);
    if (!version || !strstr(version, "OpenGL ES 3")) {
        char message[160];
        snprintf(message, sizeof message, "WebGL2 (OpenGL ES 3.0) is required, this browser offers %s",
                 version ? version : "none");
        set_error(err, err_size, message);
        return false;
    }
    return true;
}

const char *gl_platform_shader_header(void)
{
    /* highp everywhere: the desktop shaders assume it (positions, t values) */
    return "#version 300 es\nprecision highp float;\nprecision highp int;\n";
}

void gl_platform_begin_frame(float clear_depth)
{
    glClearDepthf(clear_depth);
}

bool gl_platform_read_rgb(int width, int height, uint8_t *rgb)
{
    size_t n = (size_t)width * (size_t)height;
    uint8_t *rgba = malloc(n * 4);
    if (!rgba)
        return false;
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
    for (size_t i = 0; i < n; ++i)
        memcpy(rgb + i * 3, rgba + i * 4, 3);
    free(rgba);
    return true;
}

bool gl_platform_read_pack_buffer(size_t size, void *out)
{
    /* WebGL2 maps no buffers; it copies out of them instead */
    glGetBufferSubData(GL_PIXEL_PACK_BUFFER, 0, (GLsizeiptr)size, out);
    return glGetError() == GL_NO_ERROR;
}

uint64_t gl_platform_wait_limit_ns(uint64_t want)
{
    (void)want;
    return 0;       /* WebGL2's MAX_CLIENT_WAIT_TIMEOUT_WEBGL: the page never blocks */
}

bool gl_platform_flat_triangle_ids(void)
{
    return true;
}

#else

bool gl_platform_load(render_loader load, char *err, size_t err_size)
{
    int version = gladLoadGL((GLADloadfunc)load);
    if (version == 0) {
        set_error(err, err_size, "could not load OpenGL functions");
        return false;
    }
    if (GLAD_VERSION_MAJOR(version) < 3 ||
        (GLAD_VERSION_MAJOR(version) == 3 && GLAD_VERSION_MINOR(version) < 3)) {
        char message[128];
        snprintf(message, sizeof message, "OpenGL 3.3 core is required, this driver offers %d.%d",
                 GLAD_VERSION_MAJOR(version), GLAD_VERSION_MINOR(version));
        set_error(err, err_size, message);
        return false;
    }
    return true;
}

const char *gl_platform_shader_header(void)
{
    return "#version 330 core\n";
}

void gl_platform_begin_frame(float clear_depth)
{
    glClearDepth((double)clear_depth);
    glEnable(GL_PROGRAM_POINT_SIZE);
}

bool gl_platform_read_rgb(int width, int height, uint8_t *rgb)
{
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadBuffer(GL_BACK);
    glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE, rgb);
    return true;
}

bool gl_platform_read_pack_buffer(size_t size, void *out)
{
    const void *data = glMapBufferRange(GL_PIXEL_PACK_BUFFER, 0, (GLsizeiptr)size, GL_MAP_READ_BIT);
    if (!data)
        return false;
    memcpy(out, data, size);
    return glUnmapBuffer(GL_PIXEL_PACK_BUFFER) == GL_TRUE;
}

uint64_t gl_platform_wait_limit_ns(uint64_t want)
{
    return want;
}

bool gl_platform_flat_triangle_ids(void)
{
    return false;
}

#endif

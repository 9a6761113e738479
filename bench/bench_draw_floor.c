/*
 * bench_draw_floor.c: the least a frame costs on this machine when it
 * draws one primitive per object, the floor under issue 11's frame budget
 * (a median under 16.7 ms at 1280x720 with 100,000 objects).
 *
 * It draws N primitives, each one pixel, at fixed random places in view,
 * with the simplest shaders there are (a position in, one constant colour
 * out), and nothing else: nothing moves, nothing is refitted, shaded,
 * picked or written on a HUD. Each frame uploads the positions (as the
 * many-objects mode uploads its instances), clears colour and depth,
 * draws with the depth test on, swaps, and waits for the frame to be
 * finished; then it prints raypick --bench-frames's JSON line, so
 * bench_many_frames runs it beside the demo in the same rounds, with the
 * pixels one more such frame drew (so a floor that drew nothing shows).
 *
 *   bench_draw_floor MODE N [FRAMES]      # needs a display (xvfb-run -a)
 *
 * MODE: points     one GL_POINTS vertex per object (one plain draw)
 *       triangles  one instanced triangle per object (3 vertices each,
 *                  legs a pixel long: it covers half a pixel on average)
 *       clipped    the points, all outside the view: the vertex work
 *                  alone, the clipper throws every one away
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gl_program.h"
#include "gl_test_window.h"
#include "stats.h"

#define WIDTH 1280
#define HEIGHT 720
#define WARMUP_FRAMES 10
#define MAX_OBJECTS 1000000
#define MAX_FRAMES 1000

typedef enum { MODE_POINTS, MODE_TRIANGLES, MODE_CLIPPED } draw_mode;

/* The object's position as is (a point), or a triangle at it whose legs
   are one pixel across and one up (the instanced triangles). */
static const char *const VERTEX_SHADER =
    "#version 330 core\n"
    "layout(location = 0) in vec3 a_position;\n"
    "uniform int u_triangles;\n"
    "void main()\n"
    "{\n"
    "    vec2 corner = u_triangles == 1\n"
    "        ? vec2(float(gl_VertexID == 1), float(gl_VertexID == 2)) * vec2(2.0 / 1280.0, 2.0 / 720.0)\n"
    "        : vec2(0.0);\n"
    "    gl_Position = vec4(a_position.xy + corner, a_position.z, 1.0);\n"
    "}\n";

static const char *const FRAGMENT_SHADER =
    "#version 330 core\n"
    "out vec4 frag_color;\n"
    "void main() { frag_color = vec4(0.8, 0.6, 0.4, 1.0); }\n";

static bool parse_mode(const char *s, draw_mode *mode)
{
    static const char *const names[] = {"points", "triangles", "clipped"};
    for (int i = 0; i < 3; ++i)
        if (strcmp(s, names[i]) == 0) {
            *mode = (draw_mode)i;
            return true;
        }
    return false;
}

static bool parse_int(const char *s, int lo, int hi, int *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || *end != '\0' || v < lo || v > hi)
        return false;
    *out = (int)v;
    return true;
}

/* Fixed places (a small LCG, the same every run): x across the middle
   nine tenths of the view, y across its middle half, like the belt; z
   anywhere in the depth range. Clipped ones sit right of the view. */
static void place_objects(float *xyz, int n, bool clipped)
{
    unsigned state = 12345u;
    for (int i = 0; i < 3 * n; ++i) {
        state = state * 1664525u + 1013904223u;
        float unit = (float)(state >> 8) / 16777216.0f;     /* [0, 1) */
        float spread = i % 3 == 1 ? 0.5f : 0.9f;
        xyz[i] = (2.0f * unit - 1.0f) * spread;
        if (clipped && i % 3 == 0)
            xyz[i] += 3.0f;
    }
}

static double seconds_since(Uint64 start)
{
    return (double)(SDL_GetPerformanceCounter() - start) / (double)SDL_GetPerformanceFrequency();
}

/* Clears colour and depth and draws the n objects uploaded. */
static void draw_objects(GLsizei n, draw_mode mode)
{
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    if (n == 0)
        return;
    if (mode == MODE_TRIANGLES)
        glDrawArraysInstanced(GL_TRIANGLES, 0, 3, n);
    else
        glDrawArrays(GL_POINTS, 0, n);
}

/* Times `frames` frames after the warm-up ones: wall and CPU ms of each. */
static void run_frames(SDL_Window *window, GLsizei n, const float *xyz, draw_mode mode, int frames,
                       double *wall, double *cpu)
{
    for (int f = 0; f < WARMUP_FRAMES + frames; ++f) {
        Uint64 start = SDL_GetPerformanceCounter();
        clock_t cpu_start = clock();
        SDL_Event e;
        while (SDL_PollEvent(&e)) {
        }
        glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)n * 3 * (GLsizeiptr)sizeof(float), xyz, GL_STREAM_DRAW);
        draw_objects(n, mode);
        SDL_GL_SwapWindow(window);
        glFinish();
        if (f >= WARMUP_FRAMES) {
            wall[f - WARMUP_FRAMES] = seconds_since(start) * 1e3;
            cpu[f - WARMUP_FRAMES] = (double)(clock() - cpu_start) * 1e3 / CLOCKS_PER_SEC;
        }
    }
}

/* Draws one more frame and counts its pixels that are not the clear
   colour, before the swap: proof that the timed frames drew what they
   claim (clipped: none). -1 when there is no memory to read it into. */
static long drawn_pixels(GLsizei n, draw_mode mode)
{
    unsigned char *rgba = malloc((size_t)WIDTH * HEIGHT * 4);
    if (!rgba)
        return -1;
    draw_objects(n, mode);
    glReadPixels(0, 0, WIDTH, HEIGHT, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
    long count = 0;
    for (size_t i = 0; i < (size_t)WIDTH * HEIGHT; ++i)
        count += rgba[4 * i] > 100;     /* the objects' red is 204, the clear colour's 13 */
    free(rgba);
    return count;
}

int main(int argc, char **argv)
{
    draw_mode mode;
    int n = 0, frames = 60;
    if (argc < 3 || argc > 4 || !parse_mode(argv[1], &mode) || !parse_int(argv[2], 0, MAX_OBJECTS, &n) ||
        (argc == 4 && !parse_int(argv[3], 1, MAX_FRAMES, &frames))) {
        fprintf(stderr, "usage: bench_draw_floor points|triangles|clipped N(0-%d) [FRAMES(1-%d)]\n", MAX_OBJECTS,
                MAX_FRAMES);
        return 2;
    }
    gl_test_window win;
    char err[1100] = "";
    if (!gl_test_window_open(&win, "bench_draw_floor", WIDTH, HEIGHT, 0, err, sizeof err)) {
        fprintf(stderr, "bench_draw_floor: %s\n", err);
        return 1;
    }
    int status = 1;
    float *xyz = malloc((size_t)(n > 0 ? n : 1) * 3 * sizeof *xyz);
    double *wall = malloc((size_t)frames * sizeof *wall);
    double *cpu = malloc((size_t)frames * sizeof *cpu);
    GLuint program = 0;
    const char *const vs[1] = {VERTEX_SHADER}, *const fs[1] = {FRAGMENT_SHADER};
    if (!xyz || !wall || !cpu) {
        fprintf(stderr, "bench_draw_floor: out of memory for %d objects\n", n);
        goto done;
    }
    if (gladLoadGL((GLADloadfunc)SDL_GL_GetProcAddress) == 0) {
        fprintf(stderr, "bench_draw_floor: could not load OpenGL 3.3 core\n");
        goto done;
    }
    if (!(program = gl_program_link(vs, fs, 1, "floor", err, sizeof err))) {
        fprintf(stderr, "bench_draw_floor: %s\n", err);
        goto done;
    }
    SDL_GL_SetSwapInterval(0);
    place_objects(xyz, n, mode == MODE_CLIPPED);
    glViewport(0, 0, WIDTH, HEIGHT);
    glClearColor(0.05f, 0.06f, 0.09f, 1.0f);
    glEnable(GL_DEPTH_TEST);
    glUseProgram(program);
    glUniform1i(glGetUniformLocation(program, "u_triangles"), mode == MODE_TRIANGLES);
    GLuint vao, vbo;
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glGenBuffers(1, &vbo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 3 * sizeof(float), NULL);
    glEnableVertexAttribArray(0);
    if (mode == MODE_TRIANGLES)
        glVertexAttribDivisor(0, 1);    /* one position per instance */
    run_frames(win.window, (GLsizei)n, xyz, mode, frames, wall, cpu);
    long pixels = drawn_pixels((GLsizei)n, mode);
    if (glGetError() != GL_NO_ERROR || pixels < 0) {
        fprintf(stderr, "bench_draw_floor: OpenGL reported an error\n");
    } else {
        qsort(wall, (size_t)frames, sizeof *wall, bench_compare_doubles);
        qsort(cpu, (size_t)frames, sizeof *cpu, bench_compare_doubles);
        printf("{\"bench\":{\"mode\":\"%s\",\"objects\":%d,\"width\":%d,\"height\":%d,\"frames\":%d,"
               "\"median_ms\":%.3f,\"max_ms\":%.3f,\"cpu_median_ms\":%.3f,\"pixels_drawn\":%ld}}\n",
               argv[1], n, WIDTH, HEIGHT, frames, wall[frames / 2], wall[frames - 1], cpu[frames / 2], pixels);
        status = 0;
    }
    glDeleteBuffers(1, &vbo);
    glDeleteVertexArrays(1, &vao);
done:
    if (program)
        glDeleteProgram(program);
    free(xyz);
    free(wall);
    free(cpu);
    gl_test_window_close(&win);
    return status;
}

/* test_obj_read.c: the .obj reader (src/app/obj_read.c) on text written
   here: faces as fans, every corner form, negative and forward indices,
   comments, CRLF, the statements it skips; one vertex per (position,
   texture coordinate) pair; and every kind of bad input, each answered
   with false, the output untouched, and a message naming the data, the
   line and the problem. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "obj_read.h"

static bool read_text(const char *text, mesh_data *m, char *err, size_t err_size)
{
    return obj_read(text, strlen(text), "t.obj", m, err, err_size);
}

static void assert_position(const mesh_data *m, uint32_t vertex, float x, float y, float z)
{
    assert_true(vertex < m->vertex_count);
    assert_true(m->vertices[vertex].p[0] == x);
    assert_true(m->vertices[vertex].p[1] == y);
    assert_true(m->vertices[vertex].p[2] == z);
}

static void assert_triangle(const mesh_data *m, size_t t, uint32_t a, uint32_t b, uint32_t c)
{
    assert_true(t < m->triangle_count);
    assert_int_equal(m->indices[3 * t], a);
    assert_int_equal(m->indices[3 * t + 1], b);
    assert_int_equal(m->indices[3 * t + 2], c);
}

static void a_quad_and_a_pentagon_become_fans(void **state)
{
    (void)state;
    mesh_data m;
    char err[256] = "";
    assert_true(read_text("v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv -0.5 0.5 0.25\n"
                          "f 1 2 3 4\n"
                          "f 5 1 4 3 2\n", &m, err, sizeof err));
    assert_string_equal(err, "");
    assert_int_equal(m.triangle_count, 2 + 3);
    /* vertices in the order faces first use them: here the file's order */
    assert_int_equal(m.vertex_count, 5);
    assert_position(&m, 0, 0.0f, 0.0f, 0.0f);
    assert_position(&m, 2, 1.0f, 1.0f, 0.0f);
    assert_position(&m, 4, -0.5f, 0.5f, 0.25f);
    assert_triangle(&m, 0, 0, 1, 2);
    assert_triangle(&m, 1, 0, 2, 3);
    assert_triangle(&m, 2, 4, 0, 3);
    assert_triangle(&m, 3, 4, 3, 2);
    assert_triangle(&m, 4, 4, 2, 1);
    for (size_t i = 0; i < m.vertex_count; ++i) {     /* normals: left to the caller */
        assert_true(m.vertices[i].n[0] == 0.0f && m.vertices[i].n[1] == 0.0f && m.vertices[i].n[2] == 0.0f);
        assert_true(m.vertices[i].tu == 0.0f && m.vertices[i].tv == 0.0f);
    }
    mesh_data_free(&m);
}

/* Every corner form, negative indices, comments anywhere, CRLF and tabs,
   and the statements the reader skips. */
static void corner_forms_comments_and_skipped_statements(void **state)
{
    (void)state;
    static const char text[] =
        "# a header comment\r\n"
        "mtllib t.mtl\r\n"
        "o thing\r\n"
        "\r\n"
        "v 0 0 0 1\r\n"                     /* w: read, not kept */
        "v\t2 0 0 0.5 0.5 0.5\r\n"          /* a colour: the same */
        "v 0 2 0   # a comment after the numbers\r\n"
        "vt 0.25 0.75\r\n"
        "vt 0.5\r\n"                        /* v defaults to 0 */
        "vn 0 0 1\r\n"
        "vp 0.5 0.5\r\n"
        "g side\r\n"
        "usemtl red\r\n"
        "s off\r\n"
        "f 1/1/1 2/2/1 3/1/1\r\n"
        "f -3//1 -2//1 -1//1\r\n"           /* the same three, no texture */
        "l 1 2\r\n"
        "p 3\r\n"
        "f 1/2 2/2 3/2";                    /* no newline at the end */
    mesh_data m;
    char err[256] = "";
    assert_true(read_text(text, &m, err, sizeof err));
    assert_int_equal(m.triangle_count, 3);
    /* (1,1) (2,2) (3,1) | (1,-) (2,-) (3,-) | (1,2) (2,2) again (3,2) */
    assert_int_equal(m.vertex_count, 8);
    assert_triangle(&m, 0, 0, 1, 2);
    assert_triangle(&m, 1, 3, 4, 5);
    assert_triangle(&m, 2, 6, 1, 7);
    assert_position(&m, 0, 0.0f, 0.0f, 0.0f);
    assert_position(&m, 1, 2.0f, 0.0f, 0.0f);
    assert_position(&m, 2, 0.0f, 2.0f, 0.0f);
    assert_position(&m, 5, 0.0f, 2.0f, 0.0f);
    assert_position(&m, 7, 0.0f, 2.0f, 0.0f);
    assert_true(m.vertices[0].tu == 0.25f && m.vertices[0].tv == 0.75f);
    assert_true(m.vertices[1].tu == 0.5f && m.vertices[1].tv == 0.0f);
    assert_true(m.vertices[2].tu == 0.25f && m.vertices[2].tv == 0.75f);
    assert_true(m.vertices[3].tu == 0.0f && m.vertices[3].tv == 0.0f);
    assert_true(m.vertices[6].tu == 0.5f && m.vertices[7].tu == 0.5f);
    mesh_data_free(&m);
}

/* A face may name a vertex defined further down (positive indices count
   over the whole file); numbers in any form strtod reads. */
static void forward_references_and_number_forms(void **state)
{
    (void)state;
    mesh_data m;
    char err[256] = "";
    assert_true(read_text("f 1 2 3\nv 1e-3 -.5 +2.\nv 0x1p2 0 0\nv 1E2 3.25e+1 -0\n", &m, err, sizeof err));
    assert_int_equal(m.triangle_count, 1);
    assert_position(&m, 0, 1e-3f, -0.5f, 2.0f);
    assert_position(&m, 1, 4.0f, 0.0f, 0.0f);
    assert_position(&m, 2, 100.0f, 32.5f, 0.0f);
    mesh_data_free(&m);
}

/* One bad input: false, *out untouched, the message begins with `prefix`
   and contains `problem`. */
static void assert_rejected(const char *text, size_t size, const char *prefix, const char *problem)
{
    mesh_data m, before;
    memset(&m, 0x5a, sizeof m);
    before = m;
    char err[256];
    memset(err, 0, sizeof err);
    if (!obj_read(text, size, "t.obj", &m, err, sizeof err)) {
        assert_memory_equal(&m, &before, sizeof m);
        if (strncmp(err, prefix, strlen(prefix)) != 0 || !strstr(err, problem))
            fail_msg("for %.40s: got \"%s\", wanted \"%s...%s\"", text ? text : "(null)", err, prefix, problem);
    } else {
        fail_msg("accepted %.40s", text);
    }
}

static void bad_lines_name_the_line_and_the_problem(void **state)
{
    (void)state;
#define REJECT(text, prefix, problem) assert_rejected(text, sizeof text - 1, prefix, problem)
    REJECT("v 1 2\nf 1 1 1\n", "t.obj:1: ", "'v' takes 3 to 7 numbers, this one has 2");
    REJECT("# c\n\nv 1 2 nan\n", "t.obj:3: ", "'nan' is not a finite float");
    REJECT("v 1 2 inf\n", "t.obj:1: ", "'inf' is not a finite float");
    REJECT("v 1 2 -infinity\n", "t.obj:1: ", "is not a finite float");
    REJECT("v 1e39 0 0\n", "t.obj:1: ", "'1e39' is not a finite float");      /* beyond float */
    REJECT("v 1 2 x\n", "t.obj:1: ", "'x' is not a number");
    REJECT("v 1 2 3,5\n", "t.obj:1: ", "'3,5' is not a number");
    REJECT("v 1 2 3 4 5 6 7 8\n", "t.obj:1: ", "'v' takes 3 to 7 numbers, this one has 8");
    REJECT("vt\n", "t.obj:1: ", "'vt' takes 1 to 3 numbers, this one has 0");
    REJECT("vt 1 2 3 4\n", "t.obj:1: ", "'vt' takes 1 to 3 numbers, this one has 4");
    REJECT("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n", "t.obj:4: ", "vertex 4 does not exist (the file has 3)");
    REJECT("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 0 1 2\n", "t.obj:4: ", "vertex index 0 (OBJ counts from 1)");
    REJECT("v 0 0 0\nv 1 0 0\nv 0 1 0\nf -1 -2 -4\n", "t.obj:4: ", "vertex index -4 reaches before the first");
    REJECT("f -1 -2 -3\nv 0 0 0\nv 1 0 0\nv 0 1 0\n", "t.obj:1: ", "reaches before the first vertex (0 read");
    REJECT("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2\n", "t.obj:4: ", "a face needs at least 3 corners, this one has 2");
    REJECT("v 0 0 0\nv 1 0 0\nv 0 1 0\nf\n", "t.obj:4: ", "a face needs at least 3 corners, this one has 0");
    REJECT("v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nf 1/1 2/9 3/1\n", "t.obj:5: ",
           "texture coordinate 9 does not exist (the file has 1)");
    REJECT("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1//1 2//1 3//1\n", "t.obj:4: ", "normal 1 does not exist (the file has 0)");
    REJECT("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1/1/1/1 2 3\n", "t.obj:4: ", "'1/1/1/1' is not a face corner");
    REJECT("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1//a 2 3\n", "t.obj:4: ", "'a' is not a normal index");
    REJECT("v 0 0 0\nv 1 0 0\nv 0 1 0\nf /1 2 3\n", "t.obj:4: ", "'' is not a vertex index");
    REJECT("v 0 0 0\nv 1 0 0\nv 0 1 0\nf - 2 3\n", "t.obj:4: ", "'-' is not a vertex index");
    REJECT("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1.5 2 3\n", "t.obj:4: ", "'1.5' is not a vertex index");
    /* an index past any 32-bit count does not wrap around to a small one */
    REJECT("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 4294967297 2 3\n", "t.obj:4: ", "vertex 4294967297 does not exist");
    REJECT("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 99999999999999999999999 2 3\n", "t.obj:4: ",
           "vertex 99999999999999999999999 does not exist");
    REJECT("v 1 2 0.0000000000000000000000000000000000000000000000000000000000000001\n", "t.obj:1: ",
           "is too long for a number");
    /* a line that is not text: shown with '?' for the bytes */
    REJECT("v 1 2 \x01\x02\n", "t.obj:1: ", "'?" "?' is not a number");
    /* a NUL inside a number ends nothing early */
    REJECT("v 1 2 3\0.5\n", "t.obj:1: ", "'3?.5' is not a number");
#undef REJECT
}

static void files_without_triangles_say_so(void **state)
{
    (void)state;
    static const char points[] = "v 0 0 0\nv 1 0 0\nv 0 1 0\np 1 2 3\nl 1 2\n";
    assert_rejected(points, sizeof points - 1, "t.obj: ", "no triangles");
    assert_rejected("", 0, "t.obj: ", "no triangles");
    assert_rejected(NULL, 0, "t.obj: ", "no triangles");
    assert_rejected(NULL, 5, "t.obj: ", "no OBJ data given");
    /* binary garbage: no statement it knows, so no triangles */
    static const unsigned char png[] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13, 'I', 'H', 'D', 'R'};
    assert_rejected((const char *)png, sizeof png, "t.obj: ", "no triangles");
}

/* One face of MAX + 1 triangles: refused from the counts, before any array
   is allocated for it. */
static void too_many_triangles_are_refused_before_reading(void **state)
{
    (void)state;
    size_t corners = OBJ_READ_MAX_TRIANGLES + 3;
    size_t size = 2 + 2 * corners + 1;
    char *text = malloc(size + 1);
    assert_non_null(text);
    text[0] = 'f';
    for (size_t i = 0; i < corners; ++i)
        memcpy(text + 1 + 2 * i, " 1", 2);
    memcpy(text + 1 + 2 * corners, "\n", 2);
    char expected[64];
    snprintf(expected, sizeof expected, "too many triangles (%zu; at most %zu)", corners - 2,
             OBJ_READ_MAX_TRIANGLES);
    assert_rejected(text, strlen(text), "t.obj: ", expected);
    free(text);
}

/* The message is cut to err_size and terminated; nothing past it is
   written; no buffer at all is fine. */
static void messages_fit_the_buffer(void **state)
{
    (void)state;
    static const char bad[] = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n";
    char err[16];
    memset(err, 0x7f, sizeof err);
    mesh_data m;
    assert_false(obj_read(bad, sizeof bad - 1, "a-long-file-name.obj", &m, err, 8));
    assert_string_equal(err, "a-long-");
    for (size_t i = 8; i < sizeof err; ++i)
        assert_int_equal(err[i], 0x7f);
    assert_false(obj_read(bad, sizeof bad - 1, "t.obj", &m, NULL, 0));
    assert_false(obj_read(bad, sizeof bad - 1, "t.obj", NULL, err, sizeof err));
    /* no name: the message still says what the data is */
    char full[128];
    assert_false(obj_read(bad, sizeof bad - 1, NULL, &m, full, sizeof full));
    assert_non_null(strstr(full, "(OBJ data):4: vertex 4 does not exist"));
}

/* Issue 34 item 7: a UTF-8 byte-order mark is skipped, so the first `v`
   counts and the face names the vertices the file means; UTF-16 text is
   refused with a message saying so. */
static void byte_order_marks(void **state)
{
    (void)state;
    mesh_data m;
    char err[256] = "";
    assert_true(read_text("\xEF\xBB\xBFv 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 50\nf 1 2 3\n", &m, err, sizeof err));
    assert_int_equal(m.triangle_count, 1);
    assert_position(&m, m.indices[0], 0.0f, 0.0f, 0.0f);
    assert_position(&m, m.indices[1], 1.0f, 0.0f, 0.0f);
    assert_position(&m, m.indices[2], 0.0f, 1.0f, 0.0f);
    mesh_data_free(&m);
    assert_rejected("\xFF\xFEv\0 \0", 6, "t.obj: ", "UTF-16 text (it starts with a byte-order mark FF FE)");
    assert_rejected("\xFE\xFF\0v\0 ", 6, "t.obj: ", "byte-order mark FE FF");
}

/* Issue 34: the reader's arrays count against the budget, not the file's
   size alone: "f 1 1 1" is 8 bytes of text and over 200 bytes of arrays.
   Refused before anything is allocated, the limit named; a budget with
   room reads the same file. */
static void the_budget_counts_the_arrays_not_the_file(void **state)
{
    (void)state;
    enum { FACES = 100000 };
    static const char face[] = "f 1 2 3\n";
    const char head[] = "v 0 0 0\nv 1 0 0\nv 0 1 0\n";
    size_t size = sizeof head - 1 + FACES * (sizeof face - 1);
    char *text = malloc(size);
    assert_non_null(text);
    memcpy(text, head, sizeof head - 1);
    for (size_t i = 0; i < FACES; ++i)
        memcpy(text + sizeof head - 1 + i * (sizeof face - 1), face, sizeof face - 1);
    const long long budget = 16LL << 20;
    assert_true(size < (size_t)budget / 16);     /* the file is small: its arrays are not */
    mesh_data m;
    memset(&m, 0x5a, sizeof m);
    mesh_data before = m;
    char err[256] = "";
    assert_false(obj_read_within(text, size, "many.obj", budget, &m, err, sizeof err));
    assert_memory_equal(&m, &before, sizeof m);
    if (!strstr(err, "many.obj: reading it takes ") || !strstr(err, "(100000 triangles), more than the 16 MiB") ||
        !strstr(err, "(--load-limit)"))
        fail_msg("message: %s", err);
    assert_true(obj_read_within(text, size, "many.obj", 64LL << 20, &m, err, sizeof err));
    assert_int_equal(m.triangle_count, FACES);
    mesh_data_free(&m);
    assert_true(obj_read_within(text, size, "many.obj", 0, &m, err, sizeof err));     /* 0: no budget */
    mesh_data_free(&m);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_quad_and_a_pentagon_become_fans),
        cmocka_unit_test(corner_forms_comments_and_skipped_statements),
        cmocka_unit_test(forward_references_and_number_forms),
        cmocka_unit_test(bad_lines_name_the_line_and_the_problem),
        cmocka_unit_test(files_without_triangles_say_so),
        cmocka_unit_test(too_many_triangles_are_refused_before_reading),
        cmocka_unit_test(messages_fit_the_buffer),
        cmocka_unit_test(byte_order_marks),
        cmocka_unit_test(the_budget_counts_the_arrays_not_the_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

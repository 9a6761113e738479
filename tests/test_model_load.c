/* test_model_load.c: --mesh's loader reads models the test writes itself
 * (.obj, its own reader in every build; a text .x with frame transforms
 * through assimp), flattens them with their node transforms, fits them,
 * and names the file and the reason when it cannot. Without assimp a .x
 * must be refused as not built in, and .obj files must still load. */
#define _POSIX_C_SOURCE 200809L     /* mkdtemp (tests/tmpdir.h), mkfifo */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <sys/stat.h>

#include "tmpdir.h"

#include "model_load.h"

static char g_dir[256];

static const char *write_file(const char *name, const char *text)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", g_dir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

static const char *const FILES[] = {"square.obj", "frames.x", "garbage.x", "points.obj", "dot.obj",
                                    "groups.OBJ", "bad.obj", "deep.x", "deep_ok.x", "lie.x", "lie_vertices.x",
                                    "lie_normals.x", "lie.ply", "lie_binary.ply", "lie.gltf", "lie.glb",
                                    "model.dae", "fifo.x", "fifo.obj", "long_number.gltf", "no_end.ply", "empty_face.ply", "short_floats.x", "polygons.x", "past_vertices.x",
                                    "no_materials.x", "far_normal.x", "skin_write.x",
                                    "x_inside.gltf", "version1.gltf", "p.ply"};

static int teardown(void **state)
{
    (void)state;
    char path[512];
    for (size_t i = 0; i < sizeof FILES / sizeof FILES[0]; ++i) {
        snprintf(path, sizeof path, "%s/%s", g_dir, FILES[i]);
        remove(path);
    }
    return rp_test_tmpdir_remove(g_dir);
}

static int setup(void **state)
{
    (void)state;
    return rp_test_tmpdir_make("raypick-model", g_dir, sizeof g_dir);
}

/* A unit square in the z = 0 plane, two triangles, with texture coordinates. */
static const char SQUARE_OBJ[] =
    "# two triangles\n"
    "v 0 0 0\nv 4 0 0\nv 4 2 0\nv 0 2 0\n"
    "vt 0 0\nvt 1 0\nvt 1 1\nvt 0 1\n"
    "f 1/1 2/2 3/3\nf 1/1 3/3 4/4\n";

/* Two single-triangle meshes under frames moved to x = -5 and x = +5; the
   second frame also mirrors z (a negative determinant). */
static const char TWO_FRAMES_X[] =
    "xof 0303txt 0032\n"
    "Frame Left {\n"
    " FrameTransformMatrix { 1.0,0.0,0.0,0.0, 0.0,1.0,0.0,0.0, 0.0,0.0,1.0,0.0, -5.0,0.0,0.0,1.0;; }\n"
    " Mesh LeftTri { 3; 0.0;0.0;0.0;, 1.0;0.0;0.0;, 0.0;1.0;0.0;; 1; 3;0,1,2;; }\n"
    "}\n"
    "Frame Right {\n"
    " FrameTransformMatrix { 1.0,0.0,0.0,0.0, 0.0,1.0,0.0,0.0, 0.0,0.0,-1.0,0.0, 5.0,0.0,0.0,1.0;; }\n"
    " Mesh RightTri { 3; 0.0;0.0;0.0;, 1.0;0.0;0.0;, 0.0;1.0;0.0;; 1; 3;0,1,2;; }\n"
    "}\n";

static void reads_an_obj_fitted_to_the_radius(void **state)
{
    (void)state;
    const char *path = write_file("square.obj", SQUARE_OBJ);
    mesh_data m;
    char err[256] = "";
    assert_true(model_load(path, 2.0f, &m, err, sizeof err));
    assert_int_equal(m.triangle_count, 2);
    assert_int_equal(m.vertex_count, 4);
    /* box (0..4, 0..2): centre (2, 1), largest half-size 2 -> scale 1 */
    float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (size_t i = 0; i < m.vertex_count; ++i) {
        for (int k = 0; k < 3; ++k) {
            lo[k] = fminf(lo[k], m.vertices[i].p[k]);
            hi[k] = fmaxf(hi[k], m.vertices[i].p[k]);
        }
        /* counter-clockwise in x-y: normals face +z */
        assert_float_equal(m.vertices[i].n[2], 1.0f, 1e-6f);
        /* tu follows x: the corner at +x has tu 1 */
        assert_float_equal(m.vertices[i].tu, m.vertices[i].p[0] > 0.0f ? 1.0f : 0.0f, 1e-6f);
    }
    assert_float_equal(lo[0], -2.0f, 1e-6f);
    assert_float_equal(hi[0], 2.0f, 1e-6f);
    assert_float_equal(lo[1], -1.0f, 1e-6f);
    assert_float_equal(hi[1], 1.0f, 1e-6f);
    mesh_data_free(&m);
}

/* Objects and materials interleaved: the triangles stay in the file's
   order (face n of a report is the file's n-th triangle in every build),
   whatever the extension's case. */
static void obj_triangles_keep_the_files_order(void **state)
{
    (void)state;
    const char *path = write_file("groups.OBJ",
        "mtllib none.mtl\n"
        "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 10 0 0\nv 11 0 0\nv 10 1 0\nv 20 0 0\nv 21 0 0\nv 20 1 0\n"
        "o a\nusemtl red\nf 1 2 3\n"
        "o b\nusemtl blue\nf 4 5 6\n"
        "o c\nusemtl red\nf 7 8 9\n");
    mesh_data m;
    char err[256] = "";
    assert_true(model_load(path, 10.5f, &m, err, sizeof err));
    assert_int_equal(m.triangle_count, 3);
    /* x spans 0..21: centre 10.5, scale 1; triangle t starts at x = 10 t */
    for (size_t t = 0; t < 3; ++t)
        assert_float_equal(m.vertices[m.indices[3 * t]].p[0], 10.0f * (float)t - 10.5f, 1e-5f);
    mesh_data_free(&m);
}

static void a_bad_obj_names_the_file_and_the_line(void **state)
{
    (void)state;
    const char *path = write_file("bad.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 7\n");
    mesh_data m, before;
    memset(&m, 0x5a, sizeof m);
    before = m;
    char err[512] = "", expected[600];
    assert_false(model_load(path, 1.0f, &m, err, sizeof err));
    snprintf(expected, sizeof expected, "%s:4: vertex 7 does not exist (the file has 3)", path);
    assert_string_equal(err, expected);
    assert_memory_equal(&m, &before, sizeof m);
}

static void unreadable_objs_name_the_file_and_the_reason(void **state)
{
    (void)state;
    mesh_data m, before;
    memset(&m, 0x5a, sizeof m);
    before = m;
    char err[512] = "";
    char missing[512];
    snprintf(missing, sizeof missing, "%s/no-such-model.obj", g_dir);
    assert_false(model_load(missing, 1.0f, &m, err, sizeof err));
    assert_non_null(strstr(err, missing));
    assert_non_null(strstr(err, "cannot open"));
    assert_memory_equal(&m, &before, sizeof m);

    /* a file with points only: read, but nothing to pick */
    const char *points = write_file("points.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\np 1 2 3\n");
    err[0] = '\0';
    assert_false(model_load(points, 1.0f, &m, err, sizeof err));
    assert_non_null(strstr(err, points));
    assert_non_null(strstr(err, "no triangles"));
    assert_memory_equal(&m, &before, sizeof m);

    /* all corners equal: no size to fit */
    const char *flat = write_file("dot.obj", "v 1 1 1\nv 1 1 1\nv 1 1 1\nf 1 2 3\n");
    err[0] = '\0';
    assert_false(model_load(flat, 1.0f, &m, err, sizeof err));
    assert_non_null(strstr(err, flat));
    assert_non_null(strstr(err, "no size"));
    assert_memory_equal(&m, &before, sizeof m);
}

#ifdef RAYPICK_HAVE_ASSIMP

static void x_file_frames_place_and_mirror_their_meshes(void **state)
{
    (void)state;
    assert_true(model_load_available());
    const char *path = write_file("frames.x", TWO_FRAMES_X);
    mesh_data m;
    char err[256] = "";
    assert_true(model_load(path, 6.0f, &m, err, sizeof err));
    assert_int_equal(m.triangle_count, 2);
    /* x spans -5 .. 6 before fitting: centre 0.5, half-size 5.5, scale 6/5.5 */
    float s = 6.0f / 5.5f;
    int left = 0, right = 0;
    for (size_t t = 0; t < m.triangle_count; ++t) {
        float cx = 0.0f;
        for (int k = 0; k < 3; ++k)
            cx += m.vertices[m.indices[3 * t + (size_t)k]].p[0] / 3.0f;
        if (fabsf(cx - (-5.0f + 1.0f / 3.0f - 0.5f) * s) < 1e-4f)
            ++left;
        if (fabsf(cx - (5.0f + 1.0f / 3.0f - 0.5f) * s) < 1e-4f)
            ++right;
        /* D3D's front faces are clockwise: the triangle 0,1,2 as written
           faces -z, and assimp hands it over counter-clockwise facing -z.
           The mirrored right frame turns it to face +z; without the
           winding flip for a negative determinant it would face -z still
           (inside-out). */
        const float *n = m.vertices[m.indices[3 * t]].n;
        assert_float_equal(n[2], cx < 0.0f ? -1.0f : 1.0f, 1e-6f);
    }
    assert_int_equal(left, 1);
    assert_int_equal(right, 1);
    mesh_data_free(&m);
}

static void unreadable_x_files_name_the_file_and_the_reason(void **state)
{
    (void)state;
    mesh_data m, before;
    memset(&m, 0x5a, sizeof m);
    before = m;
    char err[512] = "";
    const char *garbage = write_file("garbage.x", "xof 0303txt 0032\nMesh { 3; this is not a mesh");
    assert_false(model_load(garbage, 1.0f, &m, err, sizeof err));
    assert_non_null(strstr(err, garbage));
    assert_memory_equal(&m, &before, sizeof m);
}

/* A file of `n` bytes made by repeating pieces: head, `count` x middle, tail. */
static const char *write_repeated(const char *name, const char *head, const char *middle, size_t count,
                                  const char *mid2, size_t count2, const char *tail)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", g_dir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs(head, f);
    for (size_t i = 0; i < count; ++i)
        fputs(middle, f);
    fputs(mid2, f);
    for (size_t i = 0; i < count2; ++i)
        fputs("}\n", f);
    fputs(tail, f);
    assert_int_equal(fclose(f), 0);
    return path;
}

static void assert_refused(const char *path, long long budget, const char *why)
{
    mesh_data m;
    char err[512] = "";
    bool ok = model_load_within(path, 1.0f, budget, &m, err, sizeof err);
    if (ok || !strstr(err, why))
        fail_msg("%s: wanted a refusal with \"%s\", got %s \"%s\"", path, why, ok ? "a model" : "", err);
    assert_non_null(strstr(err, path));
}

/* Issue 34 item 1: 60,000 nested frames crashed assimp (stack overflow);
   refused at MODEL_GUARD_MAX_DEPTH before assimp sees the file. 256 levels
   still load. */
static void deeply_nested_x_is_refused(void **state)
{
    (void)state;
    const char *mesh = "Mesh m {\n3;\n0;0;0;,\n1;0;0;,\n0;1;0;;\n1;\n3;0,1,2;;\n}\n";
    assert_refused(write_repeated("deep.x", "xof 0302txt 0064\n", "Frame f {\n", 60000, mesh, 60000, ""), 0,
                   "nest more than 256 deep");
    const char *ok = write_repeated("deep_ok.x", "xof 0302txt 0064\n", "Frame f {\n", 255, mesh, 255, "");
    mesh_data m;
    char err[512] = "";
    assert_true(model_load(ok, 1.0f, &m, err, sizeof err));
    assert_int_equal(m.triangle_count, 1);
    mesh_data_free(&m);
}

/* Issue 34 item 2: tiny files that declare huge counts are refused before
   assimp allocates for them. */
static void files_lying_about_their_counts_are_refused(void **state)
{
    (void)state;
    assert_refused(write_file("lie.x", "xof 0302txt 0064\nMesh m {\n3;\n0;0;0;,\n1;0;0;,\n0;1;0;;\n500000000;\n"
                                       "3;0,1,2;;\n}\n"), 0, "Mesh declares 500000000 elements");
    assert_refused(write_file("lie_vertices.x", "xof 0302txt 0064\nMesh m {\n400000000;\n0;0;0;,\n}\n"), 0,
                   "Mesh declares 400000000 elements");
    assert_refused(write_file("lie_normals.x", "xof 0302txt 0064\nMesh m {\n3;\n0;0;0;,\n1;0;0;,\n0;1;0;;\n1;\n"
                                               "3;0,1,2;;\nMeshNormals {\n300000000;\n0;0;1;;\n}\n}\n"), 0,
                   "MeshNormals declares 300000000");
    assert_refused(write_file("lie.ply", "ply\nformat ascii 1.0\nelement vertex 1000000000\nproperty float x\n"
                                         "property float y\nproperty float z\nend_header\n0 0 0\n"), 0,
                   "a PLY element declares 1000000000 elements, and the file ends after 1");
    assert_refused(write_file("lie_binary.ply", "ply\nformat binary_little_endian 1.0\nelement vertex 5\n"
                                                "property float x\nproperty float y\nproperty float z\nend_header\n"
                                                "0123456789"), 0, "a PLY element declares 5 elements, and the file ends in element 0");
    assert_refused(write_file("lie.gltf", "{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":4294967295,"
                                          "\"uri\":\"none.bin\"}]}"), 0, "a buffer of 4294967295");
    /* a .glb: 12-byte header, a JSON chunk, no BIN chunk */
    char glb[128];
    const char json[] = "{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":4294967295}]} ";
    size_t jn = sizeof json - 1, total = 20 + jn;
    memcpy(glb, "glTF\x02\0\0\0", 8);
    uint32_t words[2] = {(uint32_t)total, (uint32_t)jn};
    memcpy(glb + 8, &words[0], 4);
    memcpy(glb + 12, &words[1], 4);
    memcpy(glb + 16, "JSON", 4);
    memcpy(glb + 20, json, jn);
    char path[512];
    snprintf(path, sizeof path, "%s/lie.glb", g_dir);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(glb, 1, total, f), total);
    fclose(f);
    assert_refused(path, 0, "a buffer of 4294967295");
}

/* Read in assimp's source (XFileParser, XFileImporter) and each seen to
   crash the program (exit 139) before: .x files whose numbers index past
   what assimp holds. The last one wrote past a heap block. */
static void x_indices_past_their_arrays_are_refused(void **state)
{
    (void)state;
    const char *mesh = "xof 0302txt 0064\nMesh m {\n3;\n0;0;0;,\n1;0;0;,\n0;1;0;;\n1;\n3;0,1,2;;\n";
    char text[1024];
    /* a face's vertex one past the last: assimp's parser lets it through */
    assert_refused(write_file("past_vertices.x", "xof 0302txt 0064\nMesh m {\n3;\n0;0;0;,\n1;0;0;,\n0;1;0;;\n1;\n"
                                                 "3;0,1,3;;\n}\n"), 0, "a Mesh's face 0 names element 3 of 3");
    snprintf(text, sizeof text, "%sMeshMaterialList {\n1;\n1;\n0;;\n}\n}\n", mesh);
    assert_refused(write_file("no_materials.x", text), 0, "a MeshMaterialList gives materials to faces but holds none");
    snprintf(text, sizeof text, "%sMeshNormals {\n1;\n0;0;1;;\n1;\n3;0,5000000,900000000;;\n}\n}\n", mesh);
    assert_refused(write_file("far_normal.x", text), 0, "a MeshNormals's face 0 names element 5000000 of 1");
    snprintf(text, sizeof text, "%sSkinWeights {\n\"b\";\n1;\n900000000;\n1.0;\n1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,"
             "0.0,0.0,1.0,0.0,0.0,0.0,0.0,1.0;;\n}\n}\n", mesh);
    assert_refused(write_file("skin_write.x", text), 0, "a SkinWeights names vertex 900000000 of 3");
    /* the same objects with their numbers in range still load */
    snprintf(text, sizeof text, "%sMeshNormals {\n1;\n0;0;1;;\n1;\n3;0,0,0;;\n}\nMeshMaterialList {\n1;\n1;\n0;;\n"
             "Material {\n1.0;1.0;1.0;1.0;;\n1.0;\n0.0;0.0;0.0;;\n0.0;0.0;0.0;;\n}\n}\nSkinWeights {\n\"b\";\n1;\n2;\n"
             "1.0;\n1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,1.0;;\n}\n}\n", mesh);
    mesh_data m;
    char err[512] = "";
    if (!model_load(write_file("skin_write.x", text), 1.0f, &m, err, sizeof err))
        fail_msg("a whole .x with normals, a material and a skin weight: %s", err);
    assert_int_equal(m.triangle_count, 1);
    mesh_data_free(&m);
}

static const char *write_bytes(const char *name, const void *data, size_t size)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", g_dir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, size, f), size);
    fclose(f);
    return path;
}

/* PLY: only the plain form exporters write reaches assimp, whose reader
   allocates for a list's count before looking for its values, makes a
   numbered header comment an element, and reads its last line forever
   without end_header (each seen in its source or by fuzz_model). */
static void ply_is_read_only_in_its_plain_form(void **state)
{
    (void)state;
    const char *head = "ply\r\nformat ascii 1.0\r\ncomment made by hand\r\nobj_info none\r\nelement vertex 3\r\n"
                       "property float x\r\ncomment among the properties\r\nproperty float y\r\nproperty float z\r\n"
                       "element face 1\r\nproperty list uchar int vertex_indices\r\nend_header\r\n"
                       "0 0 0\r\n1 0 0\r\n0 1.5e0 -0.25\r\n";
    char text[1024];
    snprintf(text, sizeof text, "%s3 0 1 2\r\n", head);
    mesh_data m;
    char err[512] = "";
    if (!model_load(write_file("p.ply", text), 1.0f, &m, err, sizeof err))
        fail_msg("a plain ASCII PLY with comments and CRLF: %s", err);
    assert_int_equal(m.triangle_count, 1);
    mesh_data_free(&m);
    const char *cases[][2] = {
        {"%s4294967295 0 1 2\r\n", "a PLY data line without the values its element declares"},
        {"%s3 0 1 2 7\r\n", "a PLY data line with more values than its element declares"},
        {"%s3 0 1 2.5\r\n", "a PLY data line without the values its element declares"},
        {"%s3 0 1 2\r\r\n", "a PLY data line that is empty or holds a carriage return"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        snprintf(text, sizeof text, cases[i][0], head);
        assert_refused(write_file("p.ply", text), 0, cases[i][1]);
    }
    assert_refused(write_file("p.ply", "ply\nformat ascii 1.0\ncomment 2000000000 things\nelement vertex 1\n"
                                       "property float x\nend_header\n0\n"), 0,
                   "a PLY comment assimp would read as an element (line 3)");
    assert_refused(write_file("p.ply", "ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\n~end_header\n0\n"),
                   0, "a PLY header line raypick does not read (line 5)");
    assert_refused(write_file("p.ply", "ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\n"), 0,
                   "a PLY header without an end_header line");
    /* binary: a list count read as a signed int, -1: 4 Gi values asked for */
    static const unsigned char binary[] = "ply\nformat binary_little_endian 1.0\nelement vertex 3\nproperty float x\n"
        "property float y\nproperty float z\nelement face 1\nproperty list int int vertex_indices\nend_header\n"
        "\0\0\0\0\0\0\0\0\0\0\0\0" "\0\0\x80\x3f\0\0\0\0\0\0\0\0" "\0\0\0\0\0\0\x80\x3f\0\0\0\0"
        "\xff\xff\xff\xff\0\0\0\0";
    assert_refused(write_bytes("p.ply", binary, sizeof binary - 1), 0, "a PLY list of a negative count");
}

/* assimp's triangulation is not used (it aborts on a face with no
   corners): polygons become fans from their first corner, as in the .obj
   reader, and assimp still welds the corners it un-indexes. */
static void polygons_are_fans_and_corners_welded(void **state)
{
    (void)state;
    const char *path = write_file("polygons.x", "xof 0303txt 0032\nMesh q { 5; 0.0;0.0;0.0;, 1.0;0.0;0.0;, "
                                                "1.0;1.0;0.0;, 0.0;1.0;0.0;, 0.5;2.0;0.0;; 2; 4;0,1,2,3;, "
                                                "3;3,2,4;; }\n");
    mesh_data m;
    char err[512] = "";
    assert_true(model_load(path, 1.0f, &m, err, sizeof err));
    assert_int_equal(m.triangle_count, 3);      /* the quad's two, the triangle */
    assert_int_equal(m.vertex_count, 5);        /* 10 corners welded to the 5 points */
    /* the quad's fan: both triangles start at its first corner */
    assert_int_equal(m.indices[0], m.indices[3]);
    mesh_data_free(&m);
}


/* What fuzz_model found: each hung, aborted or took gigabytes before. */
static void fuzz_findings_are_refused(void **state)
{
    (void)state;
    /* a binary .x whose float list is shorter than its vertices: assimp reads
       its face count from the next bytes (33,554,432 faces, 800 MB) */
    static const unsigned char short_floats[] =
        "xof 0302bin 0032\x01\x00\x04\x00\x00\x00Mesh\x0a\x00\x06\x00\x01\x00\x00\x00\x03\x00\x00\x00"
        "\x07\x00\x09\x00\x00\x00\x00\x00\x00\x00\x00\x80\x3f\x00\x00\x00\x00\x06\x00\x05\x00\x00\x00"
        "\x01\x00\x00\x00\x03\x00\x00\x00\x00\x00\x00\x00\x9c\x27\x3d\x00\xfd\x7f\x00\x00\x01\x00\x00"
        "\x00\x02\x00\x00\x00\x0b\x00";
    assert_refused(write_bytes("short_floats.x", short_floats, sizeof short_floats - 1), 0,
                   "Mesh declares 33554432 elements");
    /* a 15-digit byteLength: the guard's number reader stopped at 10^12
       without moving on, and looped forever */
    assert_refused(write_file("long_number.gltf", "{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":"
                                                  "429496724967295,\"uri\":\"a.bin\"}]}"), 0,
                   "declares a buffer of over 10^12, more than the 84 bytes");
    /* a .x named .gltf: neither glTF importer takes it, so assimp asks every
       importer and its .x reader read it unchecked (64 MiB for 331 bytes) */
    assert_refused(write_file("x_inside.gltf", "xof 0302txt 0064\nMesh m {\n3;\n0;0;0;,\n1;0;0;,\n0;1;0;;\n1;\n"
                                                "3;0,1,2;;\n}\n"), 0, "not a glTF 2 file: its JSON is not valid");
    assert_refused(write_file("version1.gltf", "{\"asset\":{\"version\":\"1.0\"}}"), 0,
                   "its asset's \"version\" is not a string starting with 2");
    /* no end_header line ("~end_header"): assimp reads the last line forever */
    assert_refused(write_file("no_end.ply", "ply\nformat ascii 1.0\nelement vertex 3\nr int vertex_indices\n"
                                            "~end_header\n0 0 0\n1 0 0 1 2\n"), 0,
                   "a PLY header line raypick does not read (line 4)");
    /* a face with no corners: assimp's triangulation asserted and aborted;
       now such a face is skipped like a point, the triangle loads */
    mesh_data m;
    char err[512] = "";
    assert_true(model_load(write_file("empty_face.ply", "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\n"
                                                        "property float y\nproperty float z\nelement face 2\n"
                                                        "property list uchar int vertex_indices\nend_header\n"
                                                        "0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n0\n"),
                           1.0f, &m, err, sizeof err));
    assert_int_equal(m.triangle_count, 1);
    mesh_data_free(&m);
}

/* The budget: a file larger than --load-limit is refused before it is
   read; formats whose reader is not checked are refused; a FIFO too. */
static void budget_formats_and_special_files(void **state)
{
    (void)state;
    assert_refused(write_file("frames.x", TWO_FRAMES_X), 100, "a model may take to load (--load-limit)");
    assert_refused(write_file("model.dae", "<COLLADA/>"), 0, "this format is not read");
    char fifo[512];
    snprintf(fifo, sizeof fifo, "%s/fifo.x", g_dir);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    assert_refused(fifo, 0, "not a regular file (a FIFO)");
    snprintf(fifo, sizeof fifo, "%s/fifo.obj", g_dir);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    assert_refused(fifo, 0, "not a regular file (a FIFO)");
}

/* model_load_bytes (the fuzz target's way in): the same bytes give the
   same model as the file; the budget, the format list and the limits hold
   for bytes in memory as for a file. */
static void bytes_load_as_the_file_does(void **state)
{
    (void)state;
    const char *cases[][2] = {{"frames.x", TWO_FRAMES_X}, {"square.obj", SQUARE_OBJ}};
    for (size_t i = 0; i < 2; ++i) {
        mesh_data from_file, from_bytes;
        char err[512] = "";
        assert_true(model_load(write_file(cases[i][0], cases[i][1]), 1.0f, &from_file, err, sizeof err));
        assert_true(model_load_bytes(cases[i][0], cases[i][1], strlen(cases[i][1]), 1.0f, 0, &from_bytes, err,
                                     sizeof err));
        assert_int_equal(from_file.triangle_count, from_bytes.triangle_count);
        assert_int_equal(from_file.vertex_count, from_bytes.vertex_count);
        assert_memory_equal(from_file.indices, from_bytes.indices, 3 * from_file.triangle_count * sizeof(uint32_t));
        assert_memory_equal(from_file.vertices, from_bytes.vertices, from_file.vertex_count * sizeof(mesh_vertex));
        mesh_data_free(&from_file);
        mesh_data_free(&from_bytes);
    }
    mesh_data m;
    char err[512] = "";
    assert_false(model_load_bytes("frames.x", TWO_FRAMES_X, strlen(TWO_FRAMES_X), 1.0f, 100, &m, err, sizeof err));
    assert_non_null(strstr(err, "frames.x: the model is 0 MiB, more than the 0 MiB a model may take to load"));
    assert_false(model_load_bytes("model.dae", "<COLLADA/>", 10, 1.0f, 0, &m, err, sizeof err));
    assert_non_null(strstr(err, "model.dae: this format is not read"));
    const char lie[] = "xof 0302txt 0064\nMesh m {\n3;\n0;0;0;,\n1;0;0;,\n0;1;0;;\n500000000;\n3;0,1,2;;\n}\n";
    assert_false(model_load_bytes("lie.x", lie, sizeof lie - 1, 1.0f, 0, &m, err, sizeof err));
    assert_non_null(strstr(err, "Mesh declares 500000000 elements"));
    assert_false(model_load_bytes("empty.x", "", 0, 1.0f, 0, &m, err, sizeof err));
    assert_non_null(strstr(err, "empty.x: "));
    assert_false(model_load_bytes("null.x", NULL, 5, 1.0f, 0, &m, err, sizeof err));
    assert_false(model_load_bytes(NULL, "x", 1, 1.0f, 0, &m, err, sizeof err));
}

#else

static void without_assimp_other_formats_are_not_built_in(void **state)
{
    (void)state;
    assert_false(model_load_available());
    const char *path = write_file("frames.x", TWO_FRAMES_X);
    mesh_data m;
    char err[512] = "";
    assert_false(model_load(path, 1.0f, &m, err, sizeof err));
    assert_non_null(strstr(err, "not built in"));
    assert_non_null(strstr(err, path));
}

#endif

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reads_an_obj_fitted_to_the_radius),
        cmocka_unit_test(obj_triangles_keep_the_files_order),
        cmocka_unit_test(a_bad_obj_names_the_file_and_the_line),
        cmocka_unit_test(unreadable_objs_name_the_file_and_the_reason),
#ifdef RAYPICK_HAVE_ASSIMP
        cmocka_unit_test(x_file_frames_place_and_mirror_their_meshes),
        cmocka_unit_test(unreadable_x_files_name_the_file_and_the_reason),
        cmocka_unit_test(deeply_nested_x_is_refused),
        cmocka_unit_test(files_lying_about_their_counts_are_refused),
        cmocka_unit_test(budget_formats_and_special_files),
        cmocka_unit_test(bytes_load_as_the_file_does),
        cmocka_unit_test(fuzz_findings_are_refused),
        cmocka_unit_test(polygons_are_fans_and_corners_welded),
        cmocka_unit_test(x_indices_past_their_arrays_are_refused),
        cmocka_unit_test(ply_is_read_only_in_its_plain_form),
#else
        cmocka_unit_test(without_assimp_other_formats_are_not_built_in),
#endif
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

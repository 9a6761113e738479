/* model_guard.c: a model's bytes checked before assimp reads them
   (model_guard.h). */
#include "model_guard.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef RAYPICK_HAVE_ZLIB
#include <zlib.h>
#endif

typedef struct guard {
    const char *path;
    char *err;
    size_t err_size;
    long long budget;
} guard;

static bool refuse(const guard *g, const char *fmt, ...)
{
    if (!g->err || g->err_size == 0)
        return false;
    int n = snprintf(g->err, g->err_size, "%s: ", g->path);
    if (n >= 0 && (size_t)n < g->err_size) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(g->err + n, g->err_size - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return false;
}

static const char *extension(const char *path)
{
    const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
    return dot && (!slash || dot > slash) ? dot + 1 : "";
}

static bool ext_is(const char *path, const char *ext)
{
    const char *e = extension(path);
    size_t n = strlen(ext);
    if (strlen(e) != n)
        return false;
    for (size_t i = 0; i < n; ++i)
        if (tolower((unsigned char)e[i]) != ext[i])
            return false;
    return true;
}

bool model_guard_known_format(const char *path)
{
    return path && (ext_is(path, "x") || ext_is(path, "gltf") || ext_is(path, "glb") || ext_is(path, "ply") ||
                    ext_is(path, "stl"));
}

static uint32_t rd32(const unsigned char *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

/* ---- DirectX .x: assimp's reading, replayed ------------------------------

   assimp 5.2's .x reader (XFileParser, XFileImporter) trusts its input in
   ways no size check catches: it allocates for a count before reading the
   elements; past the end of a binary file every number it reads is 0 for
   free, so a loop over a count runs on without limit; in a binary file it
   reads numbers where the tokens do not say (an integer takes a 2-byte
   word whatever it is, then 4 bytes; the count left in a list is shared
   by integers and floats); and it indexes with the file's numbers without
   looking: a face's vertex one past the last, a normal face's index
   anywhere, a skin weight's vertex (a write), a material list without
   materials. Each of these crashed the program or took gigabytes from a
   file of under 200 bytes (fuzz_model and a reading of assimp's source).
   So the file is read here exactly as assimp reads it, object by object,
   text or binary, and refused where assimp would allocate for more than
   the bytes left can hold or index past what it has. Where assimp throws,
   the replay stops and accepts: assimp refuses the file itself. */

typedef struct x_reader {
    const guard *g;
    const unsigned char *data;
    long long pos, end;             /* pos may pass end, as assimp's pointer does */
    bool binary;
    unsigned float_bytes;
    uint32_t list_left;             /* binary: assimp's mBinaryNumCount */
    int depth;                      /* frames inside frames */
    bool done;                      /* refused, or assimp would throw here: stop */
    bool ok;                        /* false: refused (err written) */
} x_reader;

#define X_TOKEN 64

static unsigned x_char(const x_reader *x, long long at)
{
    return at >= 0 && at < x->end ? x->data[at] : 0u;     /* assimp's data end in a 0 */
}

static uint32_t x_rd(const x_reader *x, long long at, int bytes)
{
    uint32_t v = 0;
    for (int i = bytes - 1; i >= 0; --i)
        v = (v << 8) | x->data[at + i];
    return v;
}

/* assimp would throw here and refuse the file itself */
static void x_stop(x_reader *x)
{
    x->done = true;
}

static void x_refuse(x_reader *x, const char *fmt, ...)
{
    if (x->done)
        return;
    if (x->g->err && x->g->err_size > 0) {
        int n = snprintf(x->g->err, x->g->err_size, "%s: ", x->g->path);
        if (n >= 0 && (size_t)n < x->g->err_size) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(x->g->err + n, x->g->err_size - (size_t)n, fmt, ap);
            va_end(ap);
        }
    }
    x->done = true;
    x->ok = false;
}

/* A count assimp allocates for: each element takes at least `least` bytes
   of what is left (binary: its numbers' bytes; text: a digit and a
   separator a number). false (refused) when they cannot be there. */
static bool x_count_fits(x_reader *x, const char *what, uint32_t count, unsigned least)
{
    long long left = x->end - x->pos > 0 ? x->end - x->pos : 0;
    if (x->done)
        return false;
    if ((unsigned long long)count <= (unsigned long long)left / least)
        return true;
    x_refuse(x, "%s declares %lu %s, and the %lld bytes after it hold at most %lld: the file lies or is cut "
             "short", what, (unsigned long)count, count == 1 ? "element" : "elements", left, left / (long long)least);
    return false;
}

/* FindNextNoneWhiteSpace (text): spaces and comments */
static void x_skip_space(x_reader *x)
{
    for (;;) {
        while (x->pos < x->end && isspace((int)x_char(x, x->pos)))
            ++x->pos;
        if (x->pos >= x->end)
            return;
        unsigned c = x_char(x, x->pos);
        if (!((c == '/' && x_char(x, x->pos + 1) == '/') || c == '#'))
            return;
        while (x->pos < x->end && x_char(x, x->pos) != '\n' && x_char(x, x->pos) != '\r')
            ++x->pos;
        x->pos += x->pos < x->end;
    }
}

/* Copies n bytes at `at` as a token: longer than out holds or with a 0
   byte in it, "\x01" (equal to no keyword, not empty). */
static void x_token_text(const x_reader *x, long long at, long long n, char *out)
{
    if (n < X_TOKEN && !memchr(x->data + at, '\0', (size_t)n)) {
        memcpy(out, x->data + at, (size_t)n);
        out[n] = '\0';
    } else {
        snprintf(out, X_TOKEN, "\x01");
    }
}

/* GetNextToken, binary: a name or string's text, a keyword's, "" at the
   end or for an unknown token. */
static void x_token_binary(x_reader *x, char *out)
{
    static const struct { unsigned tok; const char *text; } keywords[] = {
        {3, "<integer>"}, {5, "<guid>"}, {6, "<int_list>"}, {7, "<flt_list>"}, {0x0a, "{"}, {0x0b, "}"},
        {0x0c, "("}, {0x0d, ")"}, {0x0e, "["}, {0x0f, "]"}, {0x10, "<"}, {0x11, ">"}, {0x12, "."}, {0x13, ","},
        {0x14, ";"}, {0x1f, "template"}, {0x28, "WORD"}, {0x29, "DWORD"}, {0x2a, "FLOAT"}, {0x2b, "DOUBLE"},
        {0x2c, "CHAR"}, {0x2d, "UCHAR"}, {0x2e, "SWORD"}, {0x2f, "SDWORD"}, {0x30, "void"}, {0x31, "string"},
        {0x32, "unicode"}, {0x33, "cstring"}, {0x34, "array"},
    };
    if (x->end - x->pos < 2)
        return;
    unsigned tok = x_rd(x, x->pos, 2);
    x->pos += 2;
    if (tok == 1 || tok == 2) {         /* name, string: a length, the bytes (a string: 2 more) */
        if (x->end - x->pos < 4)
            return;
        uint32_t len = x_rd(x, x->pos, 4);
        x->pos += 4;
        if (len > INT32_MAX) {          /* assimp's int(len) check lets a string take gigabytes */
            if (tok == 2)
                x_refuse(x, "corrupt binary .x: a string of %lu bytes", (unsigned long)len);
            return;
        }
        if (x->end - x->pos < (long long)len)
            return;
        if (len > 0)
            x_token_text(x, x->pos, len, out);
        x->pos += (long long)len + (tok == 2 ? 2 : 0);
        return;
    }
    if (tok == 3)
        x->pos += 4;
    else if (tok == 5)
        x->pos += 16;
    if (tok == 6 || tok == 7) {         /* skipped: count * size bytes, in 32-bit arithmetic */
        if (x->end - x->pos < 4)
            return;
        uint32_t len = x_rd(x, x->pos, 4);
        x->pos += 4;
        x->pos += (uint32_t)(len * (tok == 6 ? 4u : x->float_bytes));
    }
    for (size_t i = 0; i < sizeof keywords / sizeof keywords[0]; ++i)
        if (keywords[i].tok == tok)
            snprintf(out, X_TOKEN, "%s", keywords[i].text);
}

/* GetNextToken: out (X_TOKEN bytes) gets the token, "" at the end */
static void x_token(x_reader *x, char *out)
{
    out[0] = '\0';
    if (x->done)
        return;
    if (x->binary) {
        x_token_binary(x, out);
        return;
    }
    x_skip_space(x);
    long long start = x->pos;
    while (x->pos < x->end && !isspace((int)x_char(x, x->pos))) {
        unsigned c = x_char(x, x->pos);
        if (c == ';' || c == '}' || c == '{' || c == ',') {
            x->pos += x->pos == start;      /* a delimiter alone, or the end of a word */
            break;
        }
        ++x->pos;
    }
    if (x->pos > start)
        x_token_text(x, start, x->pos - start, out);
}

static bool x_is(const char *token, const char *word)
{
    return !strcmp(token, word);
}

/* CheckForSeparator (',' or ';') and CheckForSemicolon: text only */
static void x_separator(x_reader *x, bool semicolon_only)
{
    if (x->binary || x->done)
        return;
    char t[X_TOKEN];
    x_token(x, t);
    if (!x_is(t, ";") && (semicolon_only || !x_is(t, ",")))
        x_stop(x);
}

/* TestForSeparator: one ',' or ';' if there is one (text) */
static void x_test_separator(x_reader *x)
{
    if (x->binary || x->done)
        return;
    x_skip_space(x);
    if (x->pos < x->end && (x_char(x, x->pos) == ';' || x_char(x, x->pos) == ','))
        ++x->pos;
}

/* strtoul10_64 over the digits at *at: false when assimp would throw (no
   digit) or stop short (64-bit overflow, then it throws at the separator);
   max_digits: read at most that many, skip the rest (0: all). */
static bool x_digits(const x_reader *x, long long *at, unsigned max_digits)
{
    if (!isdigit((int)x_char(x, *at)))
        return false;
    uint64_t value = 0;
    unsigned count = 0;
    while (isdigit((int)x_char(x, *at))) {
        uint64_t next = value * 10u + (x_char(x, *at) - '0');
        if (next < value)
            return false;
        value = next;
        ++*at;
        if (max_digits && ++count == max_digits) {
            while (isdigit((int)x_char(x, *at)))
                ++*at;
            return true;
        }
    }
    return true;
}

/* ReadFloat, text: assimp's special strings, else fast_atoreal_move (which
   takes a ',' before a digit as a decimal point), then a separator. */
static void x_float_text(x_reader *x)
{
    x_skip_space(x);
    long long c = x->pos;
    unsigned char head[10] = {0};
    for (int i = 0; i < 9; ++i)
        head[i] = (unsigned char)x_char(x, c + i);
    if (!memcmp(head, "-1.#IND00", 9) || !memcmp(head, "1.#IND00", 8) || !memcmp(head, "1.#QNAN0", 8)) {
        x->pos += head[0] == '1' && head[2] == '#' && head[3] == 'Q' ? 8 : 9;
        x_separator(x, false);
        return;
    }
    if (x_char(x, c) == '-' || x_char(x, c) == '+')
        ++c;
    unsigned c0 = (unsigned)tolower((int)x_char(x, c));
    if (c0 == 'n' && tolower((int)x_char(x, c + 1)) == 'a' && tolower((int)x_char(x, c + 2)) == 'n') {
        c += 3;
    } else if (c0 == 'i' && tolower((int)x_char(x, c + 1)) == 'n' && tolower((int)x_char(x, c + 2)) == 'f') {
        c += 3;
        const char *rest = "inity";
        bool inity = true;
        for (int i = 0; i < 5; ++i)
            inity &= tolower((int)x_char(x, c + i)) == rest[i];
        c += inity ? 5 : 0;
    } else {
        unsigned d0 = x_char(x, c), d1 = x_char(x, c + 1);
        bool point = (d0 == '.' || d0 == ',') && isdigit((int)d1);
        if (!isdigit((int)d0) && !point) {
            x_stop(x);
            return;
        }
        if (d0 != '.' && d0 != ',' && !x_digits(x, &c, 0)) {
            x_stop(x);          /* 64-bit overflow: it stops there, the separator check throws */
            return;
        }
        if ((x_char(x, c) == '.' || x_char(x, c) == ',') && isdigit((int)x_char(x, c + 1))) {
            ++c;
            x_digits(x, &c, 15);
        } else if (x_char(x, c) == '.') {
            ++c;
        }
        if (x_char(x, c) == 'e' || x_char(x, c) == 'E') {
            ++c;
            if (x_char(x, c) == '-' || x_char(x, c) == '+')
                ++c;
            if (!x_digits(x, &c, 0)) {
                x_stop(x);
                return;
            }
        }
    }
    x->pos = c;
    x_separator(x, false);
}

/* ReadInt / ReadFloat, binary: a 2-byte word when no list is running (0x06
   / 0x07: a list of that many, else one number), then 4 bytes or a float;
   past the end, 0 for free. */
static uint32_t x_number_binary(x_reader *x, unsigned bytes, unsigned list_token)
{
    if (x->pos > x->end) {      /* assimp's length check wraps here and asserts: never let it */
        x_refuse(x, "corrupt binary .x: a number is read past the end of the file");
        return 0;
    }
    if (x->list_left == 0 && x->end - x->pos >= 2) {
        unsigned tok = x_rd(x, x->pos, 2);
        x->pos += 2;
        if (tok == list_token && x->end - x->pos >= 4) {
            x->list_left = x_rd(x, x->pos, 4);
            x->pos += 4;
        } else {
            x->list_left = 1;
        }
    }
    --x->list_left;
    if (x->end - x->pos >= (long long)bytes) {
        uint32_t v = x_rd(x, x->pos, 4);
        x->pos += bytes;
        return v;
    }
    x->pos = x->end;
    return 0;
}

/* ReadInt */
static uint32_t x_int(x_reader *x)
{
    if (x->done)
        return 0;
    if (x->binary)
        return x_number_binary(x, 4, 0x06);
    x_skip_space(x);
    bool negative = x_char(x, x->pos) == '-';
    x->pos += negative;
    if (!isdigit((int)x_char(x, x->pos))) {
        x_stop(x);      /* "Number expected." */
        return 0;
    }
    uint32_t number = 0;
    while (x->pos < x->end && isdigit((int)x_char(x, x->pos)))
        number = number * 10u + (x_char(x, x->pos++) - '0');
    x_separator(x, false);
    return negative ? 0u - number : number;
}

/* n ReadFloats */
static void x_floats(x_reader *x, int n)
{
    for (int i = 0; i < n && !x->done; ++i) {
        if (x->binary)
            x_number_binary(x, x->float_bytes, 0x07);
        else
            x_float_text(x);
    }
}

/* ReadVector2/3, ReadRGB/RGBA: n floats, then a separator if there is one */
static void x_vector(x_reader *x, int n)
{
    x_floats(x, n);
    x_test_separator(x);
}

/* GetNextTokenAsString: text, a quoted string and a ';' */
static void x_string(x_reader *x)
{
    char t[X_TOKEN];
    if (x->binary || x->done) {
        x_token(x, t);
        return;
    }
    x_skip_space(x);
    if (x->pos >= x->end || x_char(x, x->pos) != '"') {
        x_stop(x);
        return;
    }
    ++x->pos;
    while (x->pos < x->end && x_char(x, x->pos) != '"')
        ++x->pos;
    if (x->pos >= x->end - 1 || x_char(x, x->pos + 1) != ';') {
        x_stop(x);
        return;
    }
    x->pos += 2;
}

/* readHeadOfDataObject: a name, then '{'; or '{' alone */
static void x_head(x_reader *x)
{
    char t[X_TOKEN];
    x_token(x, t);
    if (!x_is(t, "{")) {
        x_token(x, t);
        if (!x_is(t, "{"))
            x_stop(x);
    }
}

static void x_closing_brace(x_reader *x)
{
    char t[X_TOKEN];
    x_token(x, t);
    if (!x_is(t, "}"))
        x_stop(x);
}

/* ParseUnknownDataObject: to its '{', then to the matching '}' (counted,
   not recursed) */
static void x_unknown(x_reader *x)
{
    char t[X_TOKEN];
    for (;;) {
        x_token(x, t);
        if (!t[0]) {
            x_stop(x);
            return;
        }
        if (x_is(t, "{"))
            break;
    }
    for (unsigned depth = 1; depth > 0;) {
        x_token(x, t);
        if (!t[0]) {
            x_stop(x);
            return;
        }
        if (x_is(t, "{"))
            ++depth;
        else if (x_is(t, "}"))
            --depth;
    }
}

/* `faces` faces of `what` (the count just read): each an index count and
   indices below `limit` (the vertices or normals they index). */
static void x_faces(x_reader *x, const char *what, uint32_t faces, uint32_t limit)
{
    unsigned least = x->binary ? 4u : 2u;
    if (!x_count_fits(x, what, faces, least))
        return;
    for (uint32_t f = 0; f < faces && !x->done; ++f) {
        uint32_t indices = x_int(x);
        if (!x_count_fits(x, what, indices, least))
            return;
        for (uint32_t i = 0; i < indices && !x->done; ++i) {
            uint32_t v = x_int(x);
            if (v >= limit && !x->done) {
                x_refuse(x, "a %s's face %lu names element %lu of %lu (assimp would read past them)", what,
                         (unsigned long)f, (unsigned long)v, (unsigned long)limit);
                return;
            }
        }
        x_test_separator(x);
    }
}

static void x_material(x_reader *x)
{
    char t[X_TOKEN];
    x_head(x);
    x_vector(x, 4);     /* diffuse RGBA */
    x_floats(x, 1);     /* specular power */
    x_vector(x, 3);     /* specular RGB */
    x_vector(x, 3);     /* emissive RGB */
    while (!x->done) {
        x_token(x, t);
        if (!t[0]) {
            x_stop(x);
        } else if (x_is(t, "}")) {
            return;
        } else if (x_is(t, "TextureFilename") || x_is(t, "TextureFileName") || x_is(t, "NormalmapFilename") ||
                   x_is(t, "NormalmapFileName")) {
            x_head(x);
            x_string(x);
            x_closing_brace(x);
        } else {
            x_unknown(x);
        }
    }
}

/* MeshMaterialList: per-face material indices, then the materials */
static void x_material_list(x_reader *x, uint32_t faces)
{
    char t[X_TOKEN];
    x_head(x);
    x_int(x);
    uint32_t indices = x_int(x);
    if (!x->done && indices != faces && indices != 1) {
        x_stop(x);      /* "Per-Face material index count does not match face count." */
        return;
    }
    for (uint32_t i = 0; i < indices && !x->done; ++i)
        x_int(x);
    if (!x->binary && x->pos < x->end && x_char(x, x->pos) == ';')
        ++x->pos;
    uint32_t materials = 0;
    while (!x->done) {
        x_token(x, t);
        if (!t[0]) {
            x_stop(x);
        } else if (x_is(t, "}")) {
            break;
        } else if (x_is(t, "{")) {      /* a material by reference */
            x_token(x, t);
            x_closing_brace(x);
            ++materials;
        } else if (x_is(t, "Material")) {
            x_material(x);
            ++materials;
        } else if (!x_is(t, ";")) {
            x_unknown(x);
        }
    }
    /* the importer then reads material 0 of the list, and face 0 of the
       mesh, for a face material index it has */
    if (!x->done && indices > 0 && (materials == 0 || faces == 0))
        x_refuse(x, "a MeshMaterialList gives materials to %s (assimp would read past its lists)",
                 materials == 0 ? "faces but holds none" : "a mesh without faces");
}

static void x_mesh(x_reader *x)
{
    char t[X_TOKEN];
    x_head(x);
    uint32_t vertices = x_int(x);
    if (!x_count_fits(x, "Mesh", vertices, x->binary ? 3 * x->float_bytes : 6u))
        return;
    for (uint32_t v = 0; v < vertices && !x->done; ++v)
        x_vector(x, 3);
    uint32_t faces = x_int(x);
    x_faces(x, "Mesh", faces, vertices);
    int coord_sets = 0, colour_sets = 0, material_lists = 0;
    while (!x->done) {
        x_token(x, t);
        if (!t[0]) {
            x_stop(x);
        } else if (x_is(t, "}")) {
            return;
        } else if (x_is(t, "MeshNormals")) {
            x_head(x);
            uint32_t normals = x_int(x);
            if (!x_count_fits(x, "MeshNormals", normals, x->binary ? 3 * x->float_bytes : 6u))
                return;
            for (uint32_t n = 0; n < normals && !x->done; ++n)
                x_vector(x, 3);
            uint32_t normal_faces = x_int(x);
            if (!x->done && normal_faces != faces) {
                x_stop(x);      /* "Normal face count does not match vertex face count." */
                return;
            }
            x_faces(x, "MeshNormals", normal_faces, normals);
            x_closing_brace(x);
        } else if (x_is(t, "MeshTextureCoords")) {
            x_head(x);
            if (++coord_sets > 8 || x_int(x) != vertices) {
                x_stop(x);
                return;
            }
            for (uint32_t v = 0; v < vertices && !x->done; ++v)
                x_vector(x, 2);
            x_closing_brace(x);
        } else if (x_is(t, "MeshVertexColors")) {
            x_head(x);
            if (++colour_sets > 8 || x_int(x) != vertices) {
                x_stop(x);
                return;
            }
            for (uint32_t v = 0; v < vertices && !x->done; ++v) {
                if (x_int(x) >= vertices) {
                    x_stop(x);      /* "Vertex color index out of bounds" */
                    return;
                }
                x_vector(x, 4);
                if (!x->binary) {
                    x_skip_space(x);
                    if (x_char(x, x->pos) == ';' || x_char(x, x->pos) == ',')
                        ++x->pos;
                }
            }
            x_closing_brace(x);
        } else if (x_is(t, "MeshMaterialList")) {
            /* a second list's indices would follow the first's: past the faces */
            if (++material_lists > 1) {
                x_refuse(x, "a Mesh has two MeshMaterialLists (assimp would read past its faces)");
                return;
            }
            x_material_list(x, faces);
        } else if (x_is(t, "XSkinMeshHeader")) {
            x_head(x);
            for (int i = 0; i < 3; ++i)
                x_int(x);
            x_closing_brace(x);
        } else if (x_is(t, "SkinWeights")) {
            x_head(x);
            x_string(x);            /* the bone's name */
            uint32_t weights = x_int(x);
            if (!x_count_fits(x, "SkinWeights", weights, x->binary ? 4 + x->float_bytes : 4u))
                return;
            for (uint32_t w = 0; w < weights && !x->done; ++w) {
                uint32_t v = x_int(x);
                if (v >= vertices && !x->done) {
                    x_refuse(x, "a SkinWeights names vertex %lu of %lu (assimp would write past them)",
                             (unsigned long)v, (unsigned long)vertices);
                    return;
                }
            }
            x_floats(x, (int)(weights < 1u << 30 ? weights : 1u << 30));
            x_floats(x, 16);
            x_separator(x, true);
            x_closing_brace(x);
        } else {
            x_unknown(x);       /* VertexDuplicationIndices and the rest */
        }
    }
}

static void x_frame(x_reader *x)
{
    char t[X_TOKEN];
    if (++x->depth > MODEL_GUARD_MAX_DEPTH) {
        x_refuse(x, "objects nest more than %d deep (a hostile file: assimp would recurse until the stack runs "
                 "out)", MODEL_GUARD_MAX_DEPTH);
        return;
    }
    x_head(x);
    while (!x->done) {
        x_token(x, t);
        if (!t[0]) {
            x_stop(x);
        } else if (x_is(t, "}")) {
            break;
        } else if (x_is(t, "Frame")) {
            x_frame(x);
        } else if (x_is(t, "FrameTransformMatrix")) {
            x_head(x);
            x_floats(x, 16);
            x_separator(x, true);
            x_closing_brace(x);
        } else if (x_is(t, "Mesh")) {
            x_mesh(x);
        } else {
            x_unknown(x);
        }
    }
    --x->depth;
}

static void x_animation_key(x_reader *x)
{
    x_head(x);
    uint32_t type = x_int(x), keys = x_int(x);
    static const uint32_t values[] = {4, 3, 3, 16, 16};     /* by key type */
    for (uint32_t k = 0; k < keys && !x->done; ++k) {
        x_int(x);                       /* time */
        if (type > 4 || x_int(x) != values[type]) {
            x_stop(x);                  /* unknown type, wrong count: assimp throws */
            return;
        }
        if (type == 1 || type == 2) {
            x_vector(x, 3);
        } else {
            x_floats(x, (int)values[type]);
            x_separator(x, true);
        }
        x_separator(x, false);
    }
    x_closing_brace(x);
}

static void x_animation_set(x_reader *x)
{
    char t[X_TOKEN];
    x_head(x);
    while (!x->done) {
        x_token(x, t);
        if (!t[0]) {
            x_stop(x);
        } else if (x_is(t, "}")) {
            return;
        } else if (x_is(t, "Animation")) {
            x_head(x);
            while (!x->done) {
                x_token(x, t);
                if (!t[0]) {
                    x_stop(x);
                } else if (x_is(t, "}")) {
                    break;
                } else if (x_is(t, "AnimationKey")) {
                    x_animation_key(x);
                } else if (x_is(t, "{")) {
                    x_token(x, t);
                    x_closing_brace(x);
                } else {
                    x_unknown(x);       /* AnimationOptions and the rest */
                }
            }
        } else {
            x_unknown(x);
        }
    }
}

/* ParseFile over a .x's data after its 16-byte header (a text file's
   first line is skipped, a decompressed one's not: as assimp does). */
static bool x_replay(const guard *g, const unsigned char *data, size_t size, bool binary, unsigned float_bytes,
                     bool skip_line)
{
    x_reader x = {g, data, 0, (long long)size, binary, float_bytes, 0, 0, false, true};
    char t[X_TOKEN];
    if (skip_line && !binary) {     /* ReadUntilEndOfLine */
        while (x.pos < x.end && x_char(&x, x.pos) != '\n' && x_char(&x, x.pos) != '\r')
            ++x.pos;
        x.pos += x.pos < x.end;
    }
    while (!x.done) {
        x_token(&x, t);
        if (!t[0])
            break;
        if (x_is(t, "template")) {
            x_head(&x);
            x_token(&x, t);     /* its GUID */
            for (;;) {
                x_token(&x, t);
                if (!t[0])
                    x_stop(&x);
                if (x.done || x_is(t, "}"))
                    break;
            }
        } else if (x_is(t, "Frame")) {
            x_frame(&x);
        } else if (x_is(t, "Mesh")) {
            x_mesh(&x);
        } else if (x_is(t, "AnimTicksPerSecond")) {
            x_head(&x);
            x_int(&x);
            x_closing_brace(&x);
        } else if (x_is(t, "AnimationSet")) {
            x_animation_set(&x);
        } else if (x_is(t, "Material")) {
            x_material(&x);
        } else if (!x_is(t, "}")) {
            x_unknown(&x);
        }
    }
    return x.ok;
}

/* MSZIP-compressed .x: blocks of raw deflate, each inflated on its own with
   the block before as its dictionary (assimp's Compression class). assimp
   sizes its buffer at 32,786 bytes a block whatever the block holds: that
   is checked against the budget, then the data are inflated here as assimp
   does and replayed. */
static bool x_compressed(const guard *g, const unsigned char *data, size_t size, bool binary, unsigned float_bytes)
{
    const size_t block_out = 32786;
    size_t pos = 22, blocks = 0;     /* 16-byte header, 6 unknown bytes */
    while (pos + 3 < size) {
        unsigned ofs = (unsigned)data[pos] | ((unsigned)data[pos + 1] << 8);
        if (ofs >= block_out || data[pos + 2] != 'C' || data[pos + 3] != 'K')
            return true;    /* assimp throws: "Invalid offset", "expected MSZIP header" */
        pos += 4 + ofs;
        ++blocks;
    }
    if ((long long)(blocks * block_out) > g->budget)
        return refuse(g, "a compressed .x of %zu blocks takes %zu MiB to decompress, more than the %lld MiB "
                      "allowed (--load-limit)", blocks, blocks * block_out >> 20, g->budget >> 20);
#ifdef RAYPICK_HAVE_ZLIB
    unsigned char *out = malloc(blocks * block_out + 1);
    if (!out)
        return refuse(g, "out of memory to decompress");
    z_stream z;
    memset(&z, 0, sizeof z);
    bool ok = inflateInit2(&z, -MAX_WBITS) == Z_OK;
    size_t done = 0;
    for (pos = 22; ok && pos + 3 < size;) {
        unsigned ofs = (unsigned)data[pos] | ((unsigned)data[pos + 1] << 8);
        pos += 4;
        if (ofs > size - pos + 2) {     /* assimp: "Unexpected EOF in compressed chunk" */
            ok = false;
            break;
        }
        z.next_in = (unsigned char *)(uintptr_t)(data + pos);
        z.avail_in = (uInt)(ofs <= size - pos ? ofs : size - pos);     /* not past the data */
        z.next_out = out + done;
        z.avail_out = (uInt)block_out;
        int r = inflate(&z, Z_SYNC_FLUSH);
        ok = r == Z_OK || r == Z_STREAM_END;
        size_t made = block_out - z.avail_out;
        inflateReset(&z);
        inflateSetDictionary(&z, out + done, (uInt)made);
        done += made;
        pos += ofs;
    }
    inflateEnd(&z);
    /* assimp throws where inflating failed: it refuses the file itself */
    bool result = !ok || x_replay(g, out, done, binary, float_bytes, false);
    free(out);
    return result;
#else
    (void)binary;
    (void)float_bytes;
    return refuse(g, "compressed .x files are not read by this build (no zlib)");
#endif
}

static bool x_check(const guard *g, const unsigned char *data, size_t size)
{
    if (size < 16 || memcmp(data, "xof ", 4) != 0)
        return refuse(g, "not a DirectX .x file (no 'xof ' header)");
    const unsigned char *kind = data + 8;
    unsigned float_bytes = memcmp(data + 12, "0064", 4) == 0 ? 8 : 4;
    bool binary = memcmp(kind, "bin ", 4) == 0 || memcmp(kind, "bzip", 4) == 0;
    if (memcmp(kind, "tzip", 4) == 0 || memcmp(kind, "bzip", 4) == 0)
        return x_compressed(g, data, size, binary, float_bytes);
    return x_replay(g, data + 16, size - 16, binary, float_bytes, true);
}

/* ---- glTF 2 (.gltf JSON, .glb binary) --------------------------------- */

/* The JSON's nesting, and every "byteLength" and "count" against the
   bytes there are (the file, its BIN chunk, the buffers beside it). */
static bool gltf_json(const guard *g, const unsigned char *j, size_t n, size_t available)
{
    int depth = 0;
    for (size_t i = 0; i < n; ++i) {
        unsigned char c = j[i];
        if (c == '[' || c == '{') {
            if (++depth > MODEL_GUARD_MAX_DEPTH)
                return refuse(g, "JSON nests more than %d deep", MODEL_GUARD_MAX_DEPTH);
        } else if (c == ']' || c == '}') {
            depth -= depth > 0;
        } else if (c == '"') {
            size_t k = i + 1;
            while (k < n && j[k] != '"')
                k += j[k] == '\\' ? 2 : 1;
            k = k < n ? k : n;      /* a backslash last: not past the end */
            size_t len = k - i - 1;
            bool sized = (len == 10 && !memcmp(j + i + 1, "byteLength", 10)) ||
                         (len == 5 && !memcmp(j + i + 1, "count", 5));
            i = k;
            if (!sized)
                continue;
            size_t v = i + 1;
            while (v < n && (isspace(j[v]) || j[v] == ':'))
                ++v;
            unsigned long long value = 0;
            /* every digit read, the value held at 10^12 and above (more than
               any file: refused); fuzz_model found the loop that stopped
               reading digits there and never ended */
            for (; v < n && isdigit(j[v]); ++v)
                if (value < 1000000000000ULL)
                    value = value * 10 + (unsigned)(j[v] - '0');
            if (value >= 1000000000000ULL)
                return refuse(g, "declares %s over 10^12, more than the %zu bytes the file and its buffers hold",
                              len == 5 ? "a count of" : "a buffer of", available);
            if (value > available)
                return refuse(g, "declares %s %llu, more than the %zu bytes the file and its buffers hold",
                              len == 5 ? "a count of" : "a buffer of", value, available);
        }
    }
    return true;
}

/* ---- glTF 2: what assimp's glTF 2 importer takes -------------------------

   Two of assimp's importers claim .gltf and .glb; each looks at the file,
   and when neither takes it assimp hands it to ANY importer whose
   signature test it passes (its .obj reader takes almost any text, its
   .x reader a file that starts with "xof ": fuzz_model found a .x named
   .gltf read unchecked into a 64 MiB allocation). So a .gltf or .glb must
   be one the glTF 2 importer takes: JSON rapidjson parses (a stricter
   subset is checked here), an object at the root whose first "asset" is
   an object whose first "version" is a string starting with 2 (and whose
   "profile", if any, an object), and for .glb its header, version 2, the
   JSON chunk and, where the header's length leaves room, a BIN chunk. */

typedef struct json_reader {
    const unsigned char *p, *end;
    bool too_deep;
} json_reader;

static unsigned json_peek(const json_reader *j)
{
    return j->p < j->end ? *j->p : 0u;      /* rapidjson's buffer ends in a 0 */
}

static void json_space(json_reader *j)
{
    while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r'))
        ++j->p;
}

static int json_hex4(const json_reader *j, const unsigned char *at)
{
    int v = 0;
    for (int i = 0; i < 4; ++i) {
        int c = at + i < j->end ? at[i] : 0;
        int d = isdigit(c) ? c - '0' : (c >= 'a' && c <= 'f') ? c - 'a' + 10 : (c >= 'A' && c <= 'F') ? c - 'A' + 10 : -1;
        if (d < 0)
            return -1;
        v = v * 16 + d;
    }
    return v;
}

/* A string at p (its opening quote); *raw and *len: its bytes between the
   quotes, *escaped: whether it has an escape. Control characters, a 0, a
   bad escape or a lone surrogate: false (rapidjson refuses them). */
static bool json_string(json_reader *j, const unsigned char **raw, size_t *len, bool *escaped)
{
    if (json_peek(j) != '"')
        return false;
    const unsigned char *start = ++j->p;
    *escaped = false;
    for (;;) {
        unsigned c = json_peek(j);
        if (c == '"')
            break;
        if (c < 0x20)           /* a control character, the 0 at the end */
            return false;
        if (c != '\\') {
            ++j->p;
            continue;
        }
        *escaped = true;
        unsigned e = j->p + 1 < j->end ? j->p[1] : 0u;
        if (e && strchr("\"\\/bfnrt", (int)e)) {
            j->p += 2;
            continue;
        }
        if (e != 'u')
            return false;
        int cp = json_hex4(j, j->p + 2);
        if (cp < 0 || (cp >= 0xDC00 && cp <= 0xDFFF))
            return false;
        j->p += 6;
        if (cp >= 0xD800 && cp <= 0xDBFF) {     /* a low surrogate must follow */
            if (json_peek(j) != '\\' || (j->p + 1 < j->end ? j->p[1] : 0) != 'u')
                return false;
            int low = json_hex4(j, j->p + 2);
            if (low < 0xDC00 || low > 0xDFFF)
                return false;
            j->p += 6;
        }
    }
    *raw = start;
    *len = (size_t)(j->p - start);
    ++j->p;
    return true;
}

/* RFC 8259's number, at most 300 digits and an exponent up to 300 (a
   subset of what rapidjson reads: it refuses some larger ones). */
static bool json_number(json_reader *j)
{
    if (json_peek(j) == '-')
        ++j->p;
    int digits = 0;
    if (json_peek(j) == '0') {
        ++j->p;
        digits = 1;
    } else {
        while (isdigit((int)json_peek(j)) && digits <= 300) {
            ++j->p;
            ++digits;
        }
    }
    if (digits == 0 || digits > 300)
        return false;
    if (json_peek(j) == '.') {
        ++j->p;
        if (!isdigit((int)json_peek(j)))
            return false;
        for (digits = 0; isdigit((int)json_peek(j)) && digits <= 300; ++digits)
            ++j->p;
        if (digits > 300)
            return false;
    }
    if (json_peek(j) == 'e' || json_peek(j) == 'E') {
        ++j->p;
        if (json_peek(j) == '+' || json_peek(j) == '-')
            ++j->p;
        int exponent = 0;
        if (!isdigit((int)json_peek(j)))
            return false;
        while (isdigit((int)json_peek(j))) {
            exponent = exponent * 10 + (int)(json_peek(j) - '0');
            if (exponent > 300)
                return false;
            ++j->p;
        }
    }
    return true;
}

static bool json_value(json_reader *j, int depth);

static bool json_literal(json_reader *j, const char *word)
{
    size_t n = strlen(word);
    if ((size_t)(j->end - j->p) < n || memcmp(j->p, word, n) != 0)
        return false;
    j->p += n;
    return true;
}

/* An object or array's members: `key` (0 for arrays) wants a string and a
   colon before each value. */
static bool json_members(json_reader *j, int depth, unsigned close, bool key)
{
    ++j->p;
    json_space(j);
    if (json_peek(j) == close) {
        ++j->p;
        return true;
    }
    for (;;) {
        if (key) {
            const unsigned char *raw;
            size_t len;
            bool escaped;
            if (!json_string(j, &raw, &len, &escaped))
                return false;
            json_space(j);
            if (json_peek(j) != ':')
                return false;
            ++j->p;
        }
        if (!json_value(j, depth + 1))
            return false;
        json_space(j);
        if (json_peek(j) == close) {
            ++j->p;
            return true;
        }
        if (json_peek(j) != ',')
            return false;
        ++j->p;
        json_space(j);
    }
}

static bool json_value(json_reader *j, int depth)
{
    if (depth > MODEL_GUARD_MAX_DEPTH) {
        j->too_deep = true;
        return false;
    }
    json_space(j);
    unsigned c = json_peek(j);
    if (c == '{' || c == '[')
        return json_members(j, depth, c == '{' ? '}' : ']', c == '{');
    if (c == '"') {
        const unsigned char *raw;
        size_t len;
        bool escaped;
        return json_string(j, &raw, &len, &escaped);
    }
    if (c == '-' || isdigit((int)c))
        return json_number(j);
    return json_literal(j, "true") || json_literal(j, "false") || json_literal(j, "null");
}

/* In the object at j->p (after its '{'), the value of the first member
   named `name`: j->p at it, true; false when there is none. A key with an
   escape in it is refused (*bad): rapidjson compares keys unescaped. */
static bool json_find(json_reader *j, const char *name, bool *bad)
{
    size_t n = strlen(name);
    json_space(j);
    if (json_peek(j) == '}')
        return false;
    for (;;) {
        const unsigned char *raw;
        size_t len;
        bool escaped;
        if (!json_string(j, &raw, &len, &escaped) || escaped) {
            *bad = true;
            return false;
        }
        json_space(j);
        ++j->p;                 /* the colon (the whole document is checked already) */
        json_space(j);
        if (len == n && !memcmp(raw, name, n))
            return true;
        json_value(j, 1);
        json_space(j);
        if (json_peek(j) != ',')
            return false;
        ++j->p;
        json_space(j);
    }
}

/* The JSON of a .gltf or a .glb's JSON chunk, as the glTF 2 importer
   wants it before it takes the file. */
static bool gltf2_takes(const guard *g, const unsigned char *d, size_t n)
{
    json_reader j = {d, d + n, false};
    if (n < 2 || !json_value(&j, 0))
        return j.too_deep ? refuse(g, "JSON nests more than %d deep", MODEL_GUARD_MAX_DEPTH)
                          : refuse(g, "not a glTF 2 file: its JSON is not valid");
    json_space(&j);
    if (json_peek(&j) != 0)
        return refuse(g, "not a glTF 2 file: more after its JSON");
    j.p = d;
    json_space(&j);
    bool bad = false;
    if (json_peek(&j) != '{')
        return refuse(g, "not a glTF 2 file: its JSON is not an object");
    ++j.p;
    if (!json_find(&j, "asset", &bad) || bad || json_peek(&j) != '{')
        return refuse(g, "not a glTF 2 file: no \"asset\" object first of its name");
    ++j.p;
    const unsigned char *asset = j.p;
    const unsigned char *raw;
    size_t len;
    bool escaped;
    if (!json_find(&j, "version", &bad) || bad || !json_string(&j, &raw, &len, &escaped) || len < 1 || raw[0] != '2')
        return refuse(g, "not a glTF 2 file: its asset's \"version\" is not a string starting with 2");
    j.p = asset;
    if (json_find(&j, "profile", &bad) && json_peek(&j) != '{')
        return refuse(g, "not a glTF 2 file: its asset's \"profile\" is not an object");
    if (bad)
        return refuse(g, "not a glTF 2 file: an escaped name in its asset");
    return true;
}

static bool glb_check(const guard *g, const unsigned char *d, size_t size)
{
    if (size < 20 || memcmp(d, "glTF", 4) != 0)
        return refuse(g, "not a binary glTF (.glb) file");
    if (rd32(d + 4) != 2)
        return refuse(g, "a binary glTF of version %lu: only version 2 is read", (unsigned long)rd32(d + 4));
    uint32_t total = rd32(d + 8), json = rd32(d + 12);
    if (total > size || json > size - 20 || memcmp(d + 16, "JSON", 4) != 0)
        return refuse(g, "truncated or corrupt .glb: its header declares %lu bytes (JSON %lu), the file has "
                      "%zu", (unsigned long)total, (unsigned long)json, size);
    /* where the header's length leaves room for it, a BIN chunk must follow */
    uint64_t body = 20 + (uint64_t)json + ((4 - json % 4) % 4);
    if (total >= body + 8 && (body + 8 > size || memcmp(d + body + 4, "BIN\0", 4) != 0))
        return refuse(g, "corrupt .glb: its length leaves room for a BIN chunk that is not there");
    return gltf2_takes(g, d + 20, json) && gltf_json(g, d + 20, json, size);
}

/* ---- PLY ----------------------------------------------------------------

   assimp 5.2's PLY reader, read in its source after fuzz_model pointed at
   it: a "comment" line in the header becomes an element whose count is
   any number it starts with; an ASCII list's count is allocated for before
   its values are looked for (a face "4294967295 0 1 2" asks for 64 GiB);
   at the end of the file without an end_header line it reads its last line
   again forever; a line ending in a lone '\r' or a 0 sends its line reader
   scanning past its buffer for a '\n'. So only a PLY file in the plain form
   exporters write is given to assimp: "ply", a format line, elements with
   their properties of the known types (comments among them, obj_info
   lines), "end_header"; then, ASCII, one line per element instance with
   exactly its values (whole numbers where the type is an integer), or,
   binary, every instance's bytes and each list's count within the file.
   That is read here line by line and value by value, so every count is
   one the file's bytes hold. */

#define PLY_MAX_ELEMENTS 64
#define PLY_MAX_PROPERTIES 256

typedef enum ply_kind { PLY_UINT, PLY_INT, PLY_FLOAT } ply_kind;

typedef struct ply_type {
    const char *name;
    unsigned bytes;
    ply_kind kind;
} ply_type;

static const ply_type PLY_TYPES[] = {
    {"char", 1, PLY_INT}, {"int8", 1, PLY_INT}, {"uchar", 1, PLY_UINT}, {"uint8", 1, PLY_UINT},
    {"short", 2, PLY_INT}, {"int16", 2, PLY_INT}, {"ushort", 2, PLY_UINT}, {"uint16", 2, PLY_UINT},
    {"int", 4, PLY_INT}, {"int32", 4, PLY_INT}, {"uint", 4, PLY_UINT}, {"uint32", 4, PLY_UINT},
    {"float", 4, PLY_FLOAT}, {"float32", 4, PLY_FLOAT}, {"double", 8, PLY_FLOAT}, {"float64", 8, PLY_FLOAT},
};

typedef struct ply_property {
    const ply_type *count_type;     /* a list's count; NULL for one value */
    const ply_type *type;
} ply_property;

typedef struct ply_element {
    uint32_t count;
    int first, properties;          /* in ply_header.property */
    bool mesh;                      /* vertex, face or tristrips: no instance array */
} ply_element;

typedef struct ply_header {
    ply_element element[PLY_MAX_ELEMENTS];
    int elements;
    ply_property property[PLY_MAX_PROPERTIES];
    int properties;
    bool ascii, big_endian;
} ply_header;

/* A line as assimp's line reader splits them: up to a '\n' (a '\r' right
   before it dropped), the last one up to the end. false at the end, and
   for what that reader mishandles: a lone '\r', a 0 or a form feed, an
   empty line (*bad). */
typedef struct ply_lines {
    const unsigned char *p, *end;
    bool bad;
} ply_lines;

static bool ply_line(ply_lines *r, const unsigned char **s, const unsigned char **e)
{
    if (r->p >= r->end)
        return false;
    const unsigned char *start = r->p, *nl = memchr(start, '\n', (size_t)(r->end - start));
    const unsigned char *stop = nl ? nl : r->end;
    r->p = nl ? nl + 1 : r->end;
    if (stop > start && stop[-1] == '\r')
        --stop;
    for (const unsigned char *c = start; c < stop; ++c)
        if (*c == '\r' || *c == '\0' || *c == '\f')
            r->bad = true;
    if (stop == start)
        r->bad = true;
    *s = start;
    *e = stop;
    return !r->bad;
}

/* The next space-separated word of [*s, e) in *w, *n; false at the end. */
static bool ply_word(const unsigned char **s, const unsigned char *e, const unsigned char **w, size_t *n)
{
    while (*s < e && (**s == ' ' || **s == '\t'))
        ++*s;
    if (*s >= e)
        return false;
    *w = *s;
    while (*s < e && **s != ' ' && **s != '\t')
        ++*s;
    *n = (size_t)(*s - *w);
    return true;
}

static bool ply_is(const unsigned char *w, size_t n, const char *word)
{
    return strlen(word) == n && !memcmp(w, word, n);
}

static const ply_type *ply_type_named(const unsigned char *w, size_t n)
{
    for (size_t i = 0; i < sizeof PLY_TYPES / sizeof PLY_TYPES[0]; ++i)
        if (ply_is(w, n, PLY_TYPES[i].name))
            return &PLY_TYPES[i];
    return NULL;
}

/* A whole number of digits only, into *v; false for anything else or
   above UINT32_MAX. */
static bool ply_count(const unsigned char *w, size_t n, uint32_t *v)
{
    uint64_t x = 0;
    if (n == 0 || n > 10)
        return false;
    for (size_t i = 0; i < n; ++i) {
        if (!isdigit(w[i]))
            return false;
        x = x * 10 + (w[i] - '0');
    }
    *v = (uint32_t)x;
    return x <= UINT32_MAX;
}

/* An ASCII value of its type, the whole word: digits (a '-' for signed
   integers), or a decimal number for floats. */
static bool ply_ascii_value(const unsigned char *w, size_t n, ply_kind kind)
{
    size_t i = 0;
    if (kind != PLY_UINT && i < n && w[i] == '-')
        ++i;
    size_t digits = 0;
    while (i < n && isdigit(w[i]))
        ++i, ++digits;
    if (kind != PLY_FLOAT)
        return digits > 0 && i == n;
    size_t fraction = 0;
    if (i < n && w[i] == '.') {
        ++i;
        while (i < n && isdigit(w[i]))
            ++i, ++fraction;
    }
    if (digits + fraction == 0)
        return false;
    if (i < n && (w[i] == 'e' || w[i] == 'E')) {
        ++i;
        if (i < n && (w[i] == '-' || w[i] == '+'))
            ++i;
        size_t exponent = 0;
        while (i < n && isdigit(w[i]))
            ++i, ++exponent;
        if (exponent == 0)
            return false;
    }
    return i == n;
}

/* The header, strictly; *body: where the data start. */
static bool ply_read_header(const guard *g, const unsigned char *d, size_t size, ply_header *h,
                            const unsigned char **body)
{
    ply_lines r = {d, d + size, false};
    const unsigned char *s, *e, *w;
    size_t n;
    if (!ply_line(&r, &s, &e) || !ply_word(&s, e, &w, &n) || !ply_is(w, n, "ply") || ply_word(&s, e, &w, &n))
        return refuse(g, "not a PLY file (no 'ply' line first)");
    if (!ply_line(&r, &s, &e) || !ply_word(&s, e, &w, &n) || !ply_is(w, n, "format") || !ply_word(&s, e, &w, &n))
        return refuse(g, "not a PLY file raypick reads: no format line second");
    h->ascii = ply_is(w, n, "ascii");
    h->big_endian = ply_is(w, n, "binary_big_endian");
    if (!h->ascii && !h->big_endian && !ply_is(w, n, "binary_little_endian"))
        return refuse(g, "a PLY format raypick does not read: '%.*s'", (int)(n < 40 ? n : 40), (const char *)w);
    bool in_run = false;        /* after an element line, among its properties */
    for (int line = 3;; ++line) {
        if (!ply_line(&r, &s, &e))
            return refuse(g, r.bad ? "a PLY header with an empty line, a lone carriage return, a 0 or a form feed "
                                     "(line %d)" : "a PLY header without an end_header line", line);
        if (!ply_word(&s, e, &w, &n))
            return refuse(g, "a PLY header line of spaces only (line %d)", line);
        if (ply_is(w, n, "end_header")) {
            if (ply_word(&s, e, &w, &n) || (!h->ascii && (e >= d + size || *e != '\n')))
                return refuse(g, "a PLY end_header line raypick does not read (line %d)", line);
            *body = r.p;
            return true;
        }
        if (ply_is(w, n, "element")) {
            const unsigned char *name;
            size_t name_len;
            uint32_t count;
            if (!ply_word(&s, e, &name, &name_len) || !ply_word(&s, e, &w, &n) || !ply_count(w, n, &count) ||
                ply_word(&s, e, &w, &n))
                return refuse(g, "a PLY element line raypick does not read (line %d)", line);
            if (h->elements == PLY_MAX_ELEMENTS)
                return refuse(g, "more than %d PLY elements", PLY_MAX_ELEMENTS);
            h->element[h->elements++] = (ply_element){count, h->properties, 0,
                                                      ply_is(name, name_len, "vertex") || ply_is(name, name_len, "face")
                                                      || ply_is(name, name_len, "tristrips")};
            in_run = true;
        } else if (ply_is(w, n, "property")) {
            ply_property prop = {NULL, NULL};
            if (!in_run || !ply_word(&s, e, &w, &n))
                return refuse(g, "a PLY property line outside an element's (line %d)", line);
            if (ply_is(w, n, "list")) {
                if (!ply_word(&s, e, &w, &n) || !(prop.count_type = ply_type_named(w, n)) ||
                    prop.count_type->kind == PLY_FLOAT || !ply_word(&s, e, &w, &n))
                    return refuse(g, "a PLY list property raypick does not read (line %d)", line);
            }
            if (!(prop.type = ply_type_named(w, n)) || !ply_word(&s, e, &w, &n) || ply_word(&s, e, &w, &n))
                return refuse(g, "a PLY property of a type or form raypick does not read (line %d)", line);
            if (h->properties == PLY_MAX_PROPERTIES)
                return refuse(g, "more than %d PLY properties", PLY_MAX_PROPERTIES);
            h->property[h->properties++] = prop;
            h->element[h->elements - 1].properties++;
        } else if (ply_is(w, n, "comment")) {
            /* among properties, skipped; between elements, assimp makes it an
               element, of as many as a number it starts with, or a second
               vertex or face element: only plain text is let through */
            const unsigned char *rest = s;
            if (!in_run && ply_word(&rest, e, &w, &n) &&
                (isdigit(w[0]) || ply_is(w, n, "vertex") || ply_is(w, n, "face") || ply_is(w, n, "tristrips") ||
                 ply_is(w, n, "edge") || ply_is(w, n, "material")))
                return refuse(g, "a PLY comment assimp would read as an element (line %d)", line);
        } else if (ply_is(w, n, "obj_info")) {
            in_run = false;
        } else {
            return refuse(g, "a PLY header line raypick does not read (line %d)", line);
        }
    }
}

/* A binary value of `bytes` at p: a list's count, as an unsigned number;
   false for a negative one. */
static bool ply_binary_count(const unsigned char *p, const ply_type *t, bool big_endian, uint32_t *out)
{
    uint32_t v = 0;
    for (unsigned i = 0; i < t->bytes; ++i)
        v = (v << 8) | p[big_endian ? i : t->bytes - 1 - i];
    bool negative = t->kind == PLY_INT && (v >> (8 * t->bytes - 1)) & 1u;
    *out = v;
    return !negative;
}

static bool ply_check(const guard *g, const unsigned char *d, size_t size)
{
    ply_header h;
    memset(&h, 0, sizeof h);
    const unsigned char *body = NULL;
    if (!ply_read_header(g, d, size, &h, &body))
        return false;
    const unsigned char *end = d + size;
    /* assimp keeps every instance of an element other than vertex, face and
       tristrips: 24 bytes and some 40 a property */
    unsigned long long kept = 0;
    for (int i = 0; i < h.elements; ++i) {
        const ply_element *el = &h.element[i];
        if (el->count > 0 && el->properties == 0)
            return refuse(g, "a PLY element of %lu instances without properties", (unsigned long)el->count);
        if (!el->mesh)
            kept += (unsigned long long)el->count * (24u + 40u * (unsigned)el->properties);
    }
    if ((long long)kept > g->budget)
        return refuse(g, "its PLY elements would take %llu MiB, more than the %lld MiB allowed (--load-limit)",
                      kept >> 20, g->budget >> 20);
    if (h.ascii) {
        ply_lines r = {body, end, false};
        for (int i = 0; i < h.elements; ++i) {
            const ply_element *el = &h.element[i];
            for (uint32_t k = 0; k < el->count; ++k) {
                const unsigned char *s = NULL, *e = NULL, *w;
                size_t n;
                bool more = ply_line(&r, &s, &e);
                if (r.bad)
                    return refuse(g, "a PLY data line that is empty or holds a carriage return, a 0 or a form feed");
                if (!more)
                    return refuse(g, "a PLY element declares %lu elements, and the file ends after %lu: it lies or is "
                                  "cut short", (unsigned long)el->count, (unsigned long)k);
                for (int p = el->first; p < el->first + el->properties; ++p) {
                    const ply_property *prop = &h.property[p];
                    uint32_t values = 1;
                    if (prop->count_type &&
                        (!ply_word(&s, e, &w, &n) || !ply_count(w, n, &values)))
                        return refuse(g, "a PLY list without a count of its values");
                    for (uint32_t v = 0; v < values; ++v)
                        if (!ply_word(&s, e, &w, &n) || !ply_ascii_value(w, n, prop->type->kind))
                            return refuse(g, "a PLY data line without the values its element declares");
                }
                if (ply_word(&s, e, &w, &n))
                    return refuse(g, "a PLY data line with more values than its element declares");
            }
        }
        return true;
    }
    const unsigned char *p = body;
    for (int i = 0; i < h.elements; ++i) {
        const ply_element *el = &h.element[i];
        for (uint32_t k = 0; k < el->count; ++k) {
            for (int q = el->first; q < el->first + el->properties; ++q) {
                const ply_property *prop = &h.property[q];
                uint32_t values = 1;
                if ((size_t)(end - p) < (prop->count_type ? prop->count_type : prop->type)->bytes)
                    return refuse(g, "a PLY element declares %lu elements, and the file ends in element %lu: it "
                                  "lies or is cut short", (unsigned long)el->count, (unsigned long)k);
                if (prop->count_type) {
                    if (!ply_binary_count(p, prop->count_type, h.big_endian, &values))
                        return refuse(g, "a PLY list of a negative count");
                    p += prop->count_type->bytes;
                }
                if ((unsigned long long)values * prop->type->bytes > (unsigned long long)(end - p))
                    return refuse(g, "a PLY list of %lu values, and the %zu bytes after it hold at most %zu: the file "
                                  "lies or is cut short", (unsigned long)values, (size_t)(end - p),
                                  (size_t)(end - p) / prop->type->bytes);
                p += (size_t)values * prop->type->bytes;
            }
        }
    }
    return true;
}

bool model_guard_check(const char *path, const unsigned char *data, size_t size, size_t extra_bytes,
                       long long budget, char *err, size_t err_size)
{
    guard g = {path ? path : "(model)", err, err_size, budget};
    if (!data && size > 0)
        return refuse(&g, "no data");
    if ((long long)size > budget)
        return refuse(&g, "the file is %zu MiB, more than the %lld MiB a model may take to load "
                      "(--load-limit)", size >> 20, budget >> 20);
    if (ext_is(g.path, "x"))
        return x_check(&g, data, size);
    if (ext_is(g.path, "glb"))
        return glb_check(&g, data, size);
    if (ext_is(g.path, "gltf"))
        return gltf2_takes(&g, data, size) && gltf_json(&g, data, size, size + extra_bytes);
    if (ext_is(g.path, "ply"))
        return ply_check(&g, data, size);
    if (ext_is(g.path, "stl"))
        return true;        /* assimp checks a binary STL's count against its size itself */
    return refuse(&g, "this format is not read: the loader reads .obj, .x, .gltf, .glb, .ply and .stl, "
                  "whose declared sizes it checks before assimp allocates for them");
}

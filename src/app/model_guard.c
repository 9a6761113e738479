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

/* A declared count against the bytes after it: each element takes at
   least `least` bytes, so more elements than that cannot be there. */
static bool count_fits(const guard *g, const char *what, unsigned long long count, size_t bytes_left,
                       size_t least)
{
    if (count <= bytes_left / least)
        return true;
    return refuse(g, "%s declares %llu %s, and the %zu bytes after it hold at most %zu: the file lies or is "
                  "cut short", what, count, count == 1 ? "element" : "elements", bytes_left, bytes_left / least);
}

/* ---- DirectX .x text: tokens as a stream of events --------------------- */

typedef enum x_event { X_END, X_OPEN, X_CLOSE, X_WORD, X_INT, X_FLOAT, X_OTHER } x_event;

typedef struct x_reader {
    const unsigned char *p, *end;
    char word[32];
    unsigned long long value;
} x_reader;

static size_t x_left(const x_reader *x)
{
    return (size_t)(x->end - x->p);
}

static uint32_t rd32(const unsigned char *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static x_event x_next_text(x_reader *x)
{
    for (;;) {
        while (x->p < x->end && (isspace(*x->p) || *x->p == ',' || *x->p == ';'))
            ++x->p;
        if (x->p == x->end)
            return X_END;
        if (*x->p == '#' || (*x->p == '/' && x->p + 1 < x->end && x->p[1] == '/')) {
            while (x->p < x->end && *x->p != '\n')
                ++x->p;
            continue;
        }
        break;
    }
    unsigned char c = *x->p;
    if (c == '{' || c == '}') {
        ++x->p;
        return c == '{' ? X_OPEN : X_CLOSE;
    }
    if (c == '"') {
        const unsigned char *close = memchr(x->p + 1, '"', x_left(x) - 1);
        x->p = close ? close + 1 : x->end;
        return X_OTHER;
    }
    const unsigned char *start = x->p;
    while (x->p < x->end && !isspace(*x->p) && *x->p != ',' && *x->p != ';' && *x->p != '{' && *x->p != '}')
        ++x->p;
    size_t len = (size_t)(x->p - start);
    bool digits = true;
    unsigned long long v = 0;
    for (size_t i = 0; i < len; ++i) {
        if (!isdigit(start[i])) {
            digits = false;
            break;
        }
        v = v < 1000000000000ULL ? v * 10 + (unsigned)(start[i] - '0') : v;
    }
    if (digits) {
        x->value = v;
        return X_INT;
    }
    if (isdigit(c) || c == '-' || c == '+' || c == '.')
        return X_FLOAT;
    size_t n = len < sizeof x->word - 1 ? len : sizeof x->word - 1;
    memcpy(x->word, start, n);
    x->word[n] = '\0';
    return X_WORD;
}


/* The data objects whose counts assimp allocates for before reading their
   elements: how many counts come first, and for a mesh (positions and
   their faces, normals and theirs) the count again after 3 numbers each. */
typedef struct x_counted {
    const char *name;
    int leading;        /* counts right after the brace */
    bool then_faces;    /* then 3 * count numbers, then a face count */
} x_counted;

static const x_counted X_COUNTED[] = {
    {"Mesh", 1, true}, {"MeshNormals", 1, true}, {"MeshTextureCoords", 1, false},
    {"MeshVertexColors", 1, false}, {"MeshMaterialList", 2, false}, {"SkinWeights", 1, false},
    {"AnimationKey", 2, false}, {"MeshFaceWraps", 1, false}, {"VertexDuplicationIndices", 2, false},
};

/* Reads the counts of a counted object, right after its '{'. */
static bool x_check_counts(const guard *g, x_reader *x, const x_counted *what)
{
    for (int i = 0; i < what->leading; ++i) {
        x_event e;
        do
            e = x_next_text(x);
        while (e == X_OTHER);      /* a SkinWeights' bone name comes first */
        if (e != X_INT)
            return true;            /* no count: assimp stops there itself */
        if (!count_fits(g, what->name, x->value, x_left(x), 2))
            return false;
    }
    if (!what->then_faces)
        return true;
    unsigned long long skip = 3 * x->value;
    x_event e = X_OTHER;
    for (unsigned long long i = 0; i < skip; ++i) {
        do
            e = x_next_text(x);
        while (e == X_OTHER);
        if (e != X_INT && e != X_FLOAT)
            return true;
    }
    do
        e = x_next_text(x);
    while (e == X_OTHER);
    return e != X_INT || count_fits(g, what->name, x->value, x_left(x), 2);
}

static bool x_scan(const guard *g, x_reader *x)
{
    int depth = 0;
    const x_counted *pending = NULL;    /* a counted object's name was read, its '{' comes */
    for (;;) {
        x_event e = x_next_text(x);
        switch (e) {
        case X_END:
            return true;
        case X_OPEN:
            if (++depth > MODEL_GUARD_MAX_DEPTH)
                return refuse(g, "objects nest more than %d deep (a hostile file: assimp would recurse "
                              "until the stack runs out)", MODEL_GUARD_MAX_DEPTH);
            if (pending && !x_check_counts(g, x, pending))
                return false;
            pending = NULL;
            break;
        case X_CLOSE:
            depth -= depth > 0;
            pending = NULL;
            break;
        case X_WORD:    /* a counted object's name, or the name it is given before its brace */
            for (size_t i = 0; i < sizeof X_COUNTED / sizeof X_COUNTED[0]; ++i)
                if (!strcmp(x->word, X_COUNTED[i].name))
                    pending = &X_COUNTED[i];
            break;
        default:
            break;      /* a name or GUID between the word and its brace keeps it pending */
        }
    }
}

/* ---- DirectX .x binary: assimp's reading, replayed --------------------

   A binary .x is read by assimp 5.2 (XFileParser) number by number, and
   the numbers it reads are not where the tokens say: reading an integer
   takes a 2-byte word whatever it is (0x06: a count of numbers follows,
   else one number), then 4 bytes; a float, 4 or 8; the count left in a
   list is shared between integers and floats; and past the end of the data
   every read gives 0 for free. So a count read from the wrong bytes can be
   anything, and a loop over it runs on at the end of the file without
   limit (fuzz_model found a 91-byte file that made assimp allocate 800 MB).
   The replay below reads the file exactly as assimp does, object by
   object, and refuses a count the bytes left cannot hold; where assimp
   would throw, it stops and accepts (assimp refuses the file itself). */

typedef struct xb_reader {
    const guard *g;
    const unsigned char *data;
    long long pos, end;             /* pos may pass end, as assimp's pointer does */
    unsigned float_bytes;
    uint32_t list_left;             /* assimp's mBinaryNumCount */
    int depth;                      /* frames inside frames */
    bool done;                      /* refused, or assimp would throw here: stop */
    bool ok;                        /* false: refused (err written) */
} xb_reader;

static uint32_t xb_rd(const xb_reader *x, long long at, int bytes)
{
    uint32_t v = 0;
    for (int i = bytes - 1; i >= 0; --i)
        v = (v << 8) | x->data[at + i];
    return v;
}

static void xb_refuse(xb_reader *x, const char *what, unsigned long long count, size_t least)
{
    long long left = x->end - x->pos > 0 ? x->end - x->pos : 0;
    refuse(x->g, "a binary %s declares %llu elements, and the %lld bytes after it hold at most %lld: the file "
           "lies or is cut short", what, count, left, left / (long long)least);
    x->done = true;
    x->ok = false;
}

/* assimp would throw here and refuse the file itself */
static void xb_stop(xb_reader *x)
{
    x->done = true;
}

/* GetNextToken: a name or string's text, a keyword's, "" at the end or
   for an unknown token. Names longer than out holds (or with a 0 byte in
   them) come back as "\x01": equal to no keyword, not empty. */
static void xb_token(xb_reader *x, char *out, size_t out_size)
{
    out[0] = '\0';
    if (x->done || x->end - x->pos < 2)
        return;
    unsigned tok = xb_rd(x, x->pos, 2);
    x->pos += 2;
    static const struct { unsigned tok; const char *text; } keywords[] = {
        {3, "<integer>"}, {5, "<guid>"}, {6, "<int_list>"}, {7, "<flt_list>"}, {0x0a, "{"}, {0x0b, "}"},
        {0x0c, "("}, {0x0d, ")"}, {0x0e, "["}, {0x0f, "]"}, {0x10, "<"}, {0x11, ">"}, {0x12, "."}, {0x13, ","},
        {0x14, ";"}, {0x1f, "template"}, {0x28, "WORD"}, {0x29, "DWORD"}, {0x2a, "FLOAT"}, {0x2b, "DOUBLE"},
        {0x2c, "CHAR"}, {0x2d, "UCHAR"}, {0x2e, "SWORD"}, {0x2f, "SDWORD"}, {0x30, "void"}, {0x31, "string"},
        {0x32, "unicode"}, {0x33, "cstring"}, {0x34, "array"},
    };
    if (tok == 1 || tok == 2) {         /* name, string: a length, the bytes (a string: 2 more) */
        if (x->end - x->pos < 4)
            return;
        uint32_t len = xb_rd(x, x->pos, 4);
        x->pos += 4;
        if (len > INT32_MAX) {
            if (tok == 2) {     /* assimp's int(len) check passes a negative length: gigabytes */
                refuse(x->g, "corrupt binary .x: a string of %lu bytes", (unsigned long)len);
                x->done = true;
                x->ok = false;
            }
            return;
        }
        if (x->end - x->pos < (long long)len)
            return;
        if (len == 0) {         /* "": assimp still steps over a string's 2 bytes */
            x->pos += tok == 2 ? 2 : 0;
            return;
        }
        if (len < out_size && !memchr(x->data + x->pos, '\0', len)) {
            memcpy(out, x->data + x->pos, len);
            out[len] = '\0';
        } else {
            snprintf(out, out_size, "\x01");
        }
        x->pos += (long long)len + (tok == 2 ? 2 : 0);
        return;
    }
    if (tok == 3)
        x->pos += 4;
    else if (tok == 5)
        x->pos += 16;
    if (tok == 6 || tok == 7) {         /* assimp skips count * size bytes, in 32-bit arithmetic */
        if (x->end - x->pos < 4)
            return;
        uint32_t len = xb_rd(x, x->pos, 4);
        x->pos += 4;
        x->pos += (uint32_t)(len * (tok == 6 ? 4u : x->float_bytes));
    }
    for (size_t i = 0; i < sizeof keywords / sizeof keywords[0]; ++i)
        if (keywords[i].tok == tok)
            snprintf(out, out_size, "%s", keywords[i].text);
}

/* ReadInt (bytes 4) and ReadFloat (bytes float_bytes). */
static uint32_t xb_number(xb_reader *x, unsigned bytes, unsigned list_token)
{
    if (x->done)
        return 0;
    if (x->pos > x->end) {      /* assimp's length check wraps here and asserts: never let it */
        refuse(x->g, "corrupt binary .x: a number is read past the end of the file");
        x->done = true;
        x->ok = false;
        return 0;
    }
    if (x->list_left == 0 && x->end - x->pos >= 2) {
        unsigned tok = xb_rd(x, x->pos, 2);
        x->pos += 2;
        if (tok == list_token && x->end - x->pos >= 4) {
            x->list_left = xb_rd(x, x->pos, 4);
            x->pos += 4;
        } else {
            x->list_left = 1;
        }
    }
    --x->list_left;
    if (x->end - x->pos >= (long long)bytes) {
        uint32_t v = xb_rd(x, x->pos, 4);
        x->pos += bytes;
        return v;
    }
    x->pos = x->end;
    return 0;
}

static uint32_t xb_int(xb_reader *x)
{
    return xb_number(x, 4, 0x06);
}

static void xb_floats(xb_reader *x, int n)
{
    for (int i = 0; i < n && !x->done; ++i)
        xb_number(x, x->float_bytes, 0x07);
}

/* A count assimp allocates for or loops over: each element takes at least
   `least` bytes of what is left. false (refused) when they cannot be there. */
static bool xb_count_fits(xb_reader *x, const char *what, uint32_t count, size_t least)
{
    long long left = x->end - x->pos > 0 ? x->end - x->pos : 0;
    if (x->done)
        return false;
    if ((unsigned long long)count <= (unsigned long long)left / least)
        return true;
    xb_refuse(x, what, count, least);
    return false;
}

static bool xb_is(const char *token, const char *word)
{
    return !strcmp(token, word);
}

/* readHeadOfDataObject: a name, then '{'; or '{' alone */
static void xb_head(xb_reader *x)
{
    char t[64];
    xb_token(x, t, sizeof t);
    if (!xb_is(t, "{")) {
        xb_token(x, t, sizeof t);
        if (!xb_is(t, "{"))
            xb_stop(x);
    }
}

static void xb_closing_brace(xb_reader *x)
{
    char t[64];
    xb_token(x, t, sizeof t);
    if (!xb_is(t, "}"))
        xb_stop(x);
}

static void xb_unknown(xb_reader *x)
{
    char t[64];
    for (;;) {
        xb_token(x, t, sizeof t);
        if (x->done || !t[0]) {
            xb_stop(x);
            return;
        }
        if (xb_is(t, "{"))
            break;
    }
    for (unsigned depth = 1; depth > 0;) {
        xb_token(x, t, sizeof t);
        if (x->done || !t[0]) {
            xb_stop(x);
            return;
        }
        if (xb_is(t, "{"))
            ++depth;
        else if (xb_is(t, "}"))
            --depth;
    }
}

/* `faces` faces (the count just read): each an index count and indices */
static void xb_faces(xb_reader *x, const char *what, uint32_t faces)
{
    if (!xb_count_fits(x, what, faces, 4))
        return;
    for (uint32_t f = 0; f < faces && !x->done; ++f) {
        uint32_t indices = xb_int(x);
        if (!xb_count_fits(x, what, indices, 4))
            return;
        for (uint32_t i = 0; i < indices && !x->done; ++i)
            xb_int(x);
    }
}

static void xb_material(xb_reader *x)
{
    char t[64];
    xb_head(x);
    xb_floats(x, 4 + 1 + 3 + 3);        /* diffuse RGBA, power, specular RGB, emissive RGB */
    while (!x->done) {
        xb_token(x, t, sizeof t);
        if (!t[0])
            xb_stop(x);
        else if (xb_is(t, "}"))
            return;
        else if (xb_is(t, "TextureFilename") || xb_is(t, "TextureFileName") || xb_is(t, "NormalmapFilename") ||
                 xb_is(t, "NormalmapFileName")) {
            xb_head(x);
            xb_token(x, t, sizeof t);
            xb_closing_brace(x);
        } else {
            xb_unknown(x);
        }
    }
}

static void xb_mesh(xb_reader *x)
{
    char t[64];
    xb_head(x);
    uint32_t vertices = xb_int(x);
    if (!xb_count_fits(x, "Mesh", vertices, 3 * (size_t)x->float_bytes))
        return;
    for (uint32_t v = 0; v < vertices && !x->done; ++v)
        xb_floats(x, 3);
    uint32_t faces = xb_int(x);
    xb_faces(x, "Mesh", faces);
    while (!x->done) {
        xb_token(x, t, sizeof t);
        if (!t[0]) {
            xb_stop(x);
        } else if (xb_is(t, "}")) {
            return;
        } else if (xb_is(t, "MeshNormals")) {
            xb_head(x);
            uint32_t normals = xb_int(x);
            if (!xb_count_fits(x, "MeshNormals", normals, 3 * (size_t)x->float_bytes))
                return;
            for (uint32_t n = 0; n < normals && !x->done; ++n)
                xb_floats(x, 3);
            uint32_t normal_faces = xb_int(x);
            if (normal_faces != faces) {
                xb_stop(x);                     /* assimp: "Normal face count does not match" */
                return;
            }
            xb_faces(x, "MeshNormals", normal_faces);
            xb_closing_brace(x);
        } else if (xb_is(t, "MeshTextureCoords")) {
            xb_head(x);
            if (xb_int(x) != vertices) {
                xb_stop(x);
                return;
            }
            for (uint32_t v = 0; v < vertices && !x->done; ++v)
                xb_floats(x, 2);
            xb_closing_brace(x);
        } else if (xb_is(t, "MeshVertexColors")) {
            xb_head(x);
            if (xb_int(x) != vertices) {
                xb_stop(x);
                return;
            }
            for (uint32_t v = 0; v < vertices && !x->done; ++v) {
                if (xb_int(x) >= vertices) {
                    xb_stop(x);
                    return;
                }
                xb_floats(x, 4);
            }
            xb_closing_brace(x);
        } else if (xb_is(t, "MeshMaterialList")) {
            xb_head(x);
            xb_int(x);
            uint32_t indices = xb_int(x);
            if (indices != faces && indices != 1) {
                xb_stop(x);
                return;
            }
            for (uint32_t i = 0; i < indices && !x->done; ++i)
                xb_int(x);
            while (!x->done) {
                xb_token(x, t, sizeof t);
                if (!t[0]) {
                    xb_stop(x);
                } else if (xb_is(t, "}")) {
                    break;
                } else if (xb_is(t, "{")) {
                    xb_token(x, t, sizeof t);
                    xb_closing_brace(x);
                } else if (xb_is(t, "Material")) {
                    xb_material(x);
                } else if (!xb_is(t, ";")) {
                    xb_unknown(x);
                }
            }
        } else if (xb_is(t, "VertexDuplicationIndices")) {
            xb_unknown(x);
        } else if (xb_is(t, "XSkinMeshHeader")) {
            xb_head(x);
            for (int i = 0; i < 3; ++i)
                xb_int(x);
            xb_closing_brace(x);
        } else if (xb_is(t, "SkinWeights")) {
            xb_head(x);
            xb_token(x, t, sizeof t);       /* the bone's name */
            uint32_t weights = xb_int(x);
            if (!xb_count_fits(x, "SkinWeights", weights, 4 + (size_t)x->float_bytes))
                return;
            for (uint32_t w = 0; w < weights && !x->done; ++w)
                xb_int(x);
            for (uint32_t w = 0; w < weights && !x->done; ++w)
                xb_floats(x, 1);
            xb_floats(x, 16);
            xb_closing_brace(x);
        } else {
            xb_unknown(x);
        }
    }
}

static void xb_frame(xb_reader *x)
{
    char t[64];
    if (++x->depth > MODEL_GUARD_MAX_DEPTH) {
        refuse(x->g, "objects nest more than %d deep (a hostile file: assimp would recurse until the stack "
               "runs out)", MODEL_GUARD_MAX_DEPTH);
        x->done = true;
        x->ok = false;
        return;
    }
    xb_head(x);
    while (!x->done) {
        xb_token(x, t, sizeof t);
        if (!t[0])
            xb_stop(x);
        else if (xb_is(t, "}"))
            break;
        else if (xb_is(t, "Frame"))
            xb_frame(x);
        else if (xb_is(t, "FrameTransformMatrix")) {
            xb_head(x);
            xb_floats(x, 16);
            xb_closing_brace(x);
        } else if (xb_is(t, "Mesh"))
            xb_mesh(x);
        else
            xb_unknown(x);
    }
    --x->depth;
}

static void xb_animation_key(xb_reader *x)
{
    xb_head(x);
    uint32_t type = xb_int(x), keys = xb_int(x);
    static const uint32_t values[] = {4, 3, 3, 16, 16};     /* by key type */
    for (uint32_t k = 0; k < keys && !x->done; ++k) {
        xb_int(x);                      /* time */
        if (type > 4 || xb_int(x) != values[type]) {
            xb_stop(x);                 /* unknown type, wrong count: assimp throws */
            return;
        }
        xb_floats(x, (int)values[type]);
    }
    xb_closing_brace(x);
}

static void xb_animation_set(xb_reader *x)
{
    char t[64];
    xb_head(x);
    while (!x->done) {
        xb_token(x, t, sizeof t);
        if (!t[0]) {
            xb_stop(x);
        } else if (xb_is(t, "}")) {
            return;
        } else if (xb_is(t, "Animation")) {
            xb_head(x);
            while (!x->done) {
                xb_token(x, t, sizeof t);
                if (!t[0]) {
                    xb_stop(x);
                } else if (xb_is(t, "}")) {
                    break;
                } else if (xb_is(t, "AnimationKey")) {
                    xb_animation_key(x);
                } else if (xb_is(t, "{")) {
                    xb_token(x, t, sizeof t);
                    xb_closing_brace(x);
                } else {
                    xb_unknown(x);      /* AnimationOptions and the rest */
                }
            }
        } else {
            xb_unknown(x);
        }
    }
}

/* ParseFile over a binary .x's data (after its 16-byte header). */
static bool xb_check(const guard *g, const unsigned char *data, size_t size, unsigned float_bytes)
{
    xb_reader x = {g, data, 0, (long long)size, float_bytes, 0, 0, false, true};
    char t[64];
    while (!x.done) {
        xb_token(&x, t, sizeof t);
        if (!t[0])
            break;
        if (xb_is(t, "template")) {
            xb_head(&x);
            xb_token(&x, t, sizeof t);      /* its GUID */
            for (;;) {
                xb_token(&x, t, sizeof t);
                if (x.done || !t[0] || xb_is(t, "}"))
                    break;
            }
        } else if (xb_is(t, "Frame")) {
            xb_frame(&x);
        } else if (xb_is(t, "Mesh")) {
            xb_mesh(&x);
        } else if (xb_is(t, "AnimTicksPerSecond")) {
            xb_head(&x);
            xb_int(&x);
            xb_closing_brace(&x);
        } else if (xb_is(t, "AnimationSet")) {
            xb_animation_set(&x);
        } else if (xb_is(t, "Material")) {
            xb_material(&x);
        } else if (!xb_is(t, "}")) {
            xb_unknown(&x);
        }
    }
    return x.ok;
}

/* MSZIP-compressed .x: blocks of raw deflate, one stream across them
   (each block's dictionary is the last). assimp sizes its buffer at 32,786
   bytes a block whatever the block holds: that is checked, then the data
   are inflated here (bounded by it) and scanned as an uncompressed file. */
static bool x_compressed(const guard *g, const unsigned char *data, size_t size, bool binary, unsigned float_bytes)
{
    const size_t block_out = 32786;
    size_t pos = 22, blocks = 0;     /* 16-byte header, 6 unknown bytes */
    while (pos + 3 < size) {
        unsigned ofs = (unsigned)data[pos] | ((unsigned)data[pos + 1] << 8);
        if (ofs >= block_out || data[pos + 2] != 'C' || data[pos + 3] != 'K')
            return refuse(g, "corrupt compressed .x: a bad MSZIP block header at byte %zu", pos);
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
        z.next_in = (unsigned char *)(uintptr_t)(data + pos);
        z.avail_in = (uInt)(ofs <= size - pos ? ofs : size - pos);
        z.next_out = out + done;
        z.avail_out = (uInt)block_out;
        int r = inflate(&z, Z_SYNC_FLUSH);
        ok = r == Z_OK || r == Z_STREAM_END || r == Z_BUF_ERROR;
        done = (size_t)(z.next_out - out);
        pos += ofs;
    }
    inflateEnd(&z);
    bool result = ok ? (binary ? xb_check(g, out, done, float_bytes)
                               : x_scan(g, &(x_reader){.p = out, .end = out + done}))
                     : refuse(g, "corrupt compressed .x: the deflate data are invalid");
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
    if (binary)
        return xb_check(g, data + 16, size - 16, float_bytes);
    return x_scan(g, &(x_reader){.p = data + 16, .end = data + size});
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

static bool glb_check(const guard *g, const unsigned char *d, size_t size)
{
    if (size < 20 || memcmp(d, "glTF", 4) != 0)
        return refuse(g, "not a binary glTF (.glb) file");
    uint32_t total = rd32(d + 8), json = rd32(d + 12);
    if (total > size || json > size - 20 || memcmp(d + 16, "JSON", 4) != 0)
        return refuse(g, "truncated or corrupt .glb: its header declares %lu bytes (JSON %lu), the file has "
                      "%zu", (unsigned long)total, (unsigned long)json, size);
    return gltf_json(g, d + 20, json, size);
}

/* ---- PLY --------------------------------------------------------------- */

static size_t ply_type_bytes(const char *t)
{
    static const struct { const char *name; size_t bytes; } types[] = {
        {"char", 1}, {"uchar", 1}, {"int8", 1}, {"uint8", 1}, {"short", 2}, {"ushort", 2}, {"int16", 2},
        {"uint16", 2}, {"int", 4}, {"uint", 4}, {"int32", 4}, {"uint32", 4}, {"float", 4}, {"float32", 4},
        {"double", 8}, {"float64", 8},
    };
    for (size_t i = 0; i < sizeof types / sizeof types[0]; ++i)
        if (!strcmp(t, types[i].name))
            return types[i].bytes;
    return 1;
}

/* Just past the "end_header" that ends the header as assimp reads it: a
   line of its own (after spaces), the word followed by a space, a line end
   or the end of the file; NULL when there is none. assimp 5.2 reads header
   lines until it meets that line and, at the end of the file without it,
   reads the last line again forever (fuzz_model found an 87-byte .ply whose
   "~end_header" hung the loader). */
static const unsigned char *ply_end_header(const unsigned char *d, size_t size)
{
    for (size_t i = 0; i < size;) {
        while (i < size && (d[i] == ' ' || d[i] == '\t'))
            ++i;
        if (size - i >= 10 && !memcmp(d + i, "end_header", 10) &&
            (size - i == 10 || d[i + 10] == ' ' || d[i + 10] == '\t' || d[i + 10] == '\r' ||
             d[i + 10] == '\n' || d[i + 10] == '\0'))
            return d + i + 10;
        while (i < size && d[i] != '\n' && d[i] != '\r')
            ++i;
        ++i;
    }
    return NULL;
}

/* The header's element counts against the bytes after the header: an
   ASCII element takes two bytes a property at least ("0 "), a binary one
   its properties' sizes (a list: its count). */
static bool ply_check(const guard *g, const unsigned char *d, size_t size)
{
    const unsigned char *end_header = ply_end_header(d, size);
    if (size < 4 || memcmp(d, "ply", 3) != 0 || !end_header)
        return refuse(g, "not a PLY file, or its header has no end_header line");
    size_t body = size - (size_t)(end_header - d);
    bool ascii = false;
    unsigned long long least = 0;       /* bytes all elements take at least */
    unsigned long long count = 0, per = 0;
    char name[64] = "";
    const unsigned char *p = d;
    while (p < end_header) {
        const unsigned char *nl = memchr(p, '\n', (size_t)(end_header - p));
        nl = nl ? nl : end_header;
        char line[256];
        size_t len = (size_t)(nl - p) < sizeof line - 1 ? (size_t)(nl - p) : sizeof line - 1;
        memcpy(line, p, len);
        line[len] = '\0';
        p = nl + 1;
        char a[64], b[64], c[64];
        unsigned long long n = 0;
        if (sscanf(line, "format %63s", a) == 1) {
            ascii = !strcmp(a, "ascii");
        } else if (sscanf(line, "element %63s %llu", a, &n) == 2) {
            least += count * (per ? per : 1);
            count = n;
            per = 0;
            snprintf(name, sizeof name, "%s", a);
            if (!count_fits(g, "the PLY header", n, body, ascii ? 2 : 1))
                return false;
        } else if (sscanf(line, "property list %63s %63s %63s", a, b, c) == 3) {
            per += ascii ? 2 : ply_type_bytes(a);
        } else if (sscanf(line, "property %63s %63s", a, b) == 2) {
            per += ascii ? 2 : ply_type_bytes(a);
        }
    }
    least += count * (per ? per : 1);
    if (least > body)
        return refuse(g, "the PLY header's elements need at least %llu bytes, the file has %zu after its "
                      "header: it lies or is cut short", least, body);
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
        return gltf_json(&g, data, size, size + extra_bytes);
    if (ext_is(g.path, "ply"))
        return ply_check(&g, data, size);
    if (ext_is(g.path, "stl"))
        return true;        /* assimp checks a binary STL's count against its size itself */
    return refuse(&g, "this format is not read: the loader reads .obj, .x, .gltf, .glb, .ply and .stl, "
                  "whose declared sizes it checks before assimp allocates for them");
}

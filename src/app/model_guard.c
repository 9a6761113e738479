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

/* ---- DirectX .x: text and binary tokens as one stream of events ------ */

typedef enum x_event { X_END, X_OPEN, X_CLOSE, X_WORD, X_INT, X_FLOAT, X_OTHER, X_BAD } x_event;

typedef struct x_reader {
    const unsigned char *p, *end;
    bool binary;
    unsigned float_bytes;           /* binary floats: 4 or 8 */
    /* binary lists hand out their numbers one by one */
    unsigned long long list_left;
    bool list_floats;
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

static x_event x_next_binary(x_reader *x)
{
    if (x->list_left > 0) {
        size_t step = x->list_floats ? x->float_bytes : 4;
        if (x_left(x) < step)
            return X_BAD;
        x->value = x->list_floats ? 0 : rd32(x->p);
        x->p += step;
        --x->list_left;
        return x->list_floats ? X_FLOAT : X_INT;
    }
    if (x_left(x) < 2)
        return X_END;
    unsigned token = (unsigned)x->p[0] | ((unsigned)x->p[1] << 8);
    x->p += 2;
    switch (token) {
    case 1: case 2: {       /* name, string: a length and the bytes (a string, a terminator too) */
        if (x_left(x) < 4)
            return X_BAD;
        uint32_t len = rd32(x->p);
        x->p += 4;
        size_t need = (size_t)len + (token == 2 ? 2 : 0);
        if (len > x_left(x) || need > x_left(x))
            return X_BAD;
        size_t n = len < sizeof x->word - 1 ? len : sizeof x->word - 1;
        memcpy(x->word, x->p, n);
        x->word[n] = '\0';
        x->p += need;
        return token == 1 ? X_WORD : X_OTHER;
    }
    case 3:
        if (x_left(x) < 4)
            return X_BAD;
        x->value = rd32(x->p);
        x->p += 4;
        return X_INT;
    case 5:
        if (x_left(x) < 16)
            return X_BAD;
        x->p += 16;
        return X_OTHER;
    case 6: case 7: {       /* integer or float list: a count, then the numbers */
        if (x_left(x) < 4)
            return X_BAD;
        uint32_t count = rd32(x->p);
        x->p += 4;
        x->list_floats = token == 7;
        if (!count_fits(&(guard){0}, "", count, x_left(x), token == 7 ? x->float_bytes : 4))
            return X_BAD;
        x->list_left = count;
        return X_OTHER;
    }
    case 0x0a:
        return X_OPEN;
    case 0x0b:
        return X_CLOSE;
    default:
        return X_OTHER;     /* the grammar's keywords and punctuation */
    }
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

static x_event x_next(x_reader *x)
{
    return x->binary ? x_next_binary(x) : x_next_text(x);
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
            e = x_next(x);
        while (e == X_OTHER);      /* a SkinWeights' bone name comes first */
        if (e != X_INT)
            return e != X_BAD || refuse(g, "a %s's data are cut short or corrupt", what->name);
        if (!count_fits(g, what->name, x->value, x_left(x), 2))
            return false;
    }
    if (!what->then_faces)
        return true;
    unsigned long long skip = 3 * x->value;
    x_event e = X_OTHER;
    for (unsigned long long i = 0; i < skip; ++i) {
        do
            e = x_next(x);
        while (e == X_OTHER);
        if (e != X_INT && e != X_FLOAT)
            return e != X_BAD || refuse(g, "a %s's data are cut short or corrupt", what->name);
    }
    do
        e = x_next(x);
    while (e == X_OTHER);
    if (e == X_BAD)
        return refuse(g, "a %s's data are cut short or corrupt", what->name);
    return e != X_INT || count_fits(g, what->name, x->value, x_left(x), 2);
}

static bool x_scan(const guard *g, x_reader *x)
{
    int depth = 0;
    const x_counted *pending = NULL;    /* a counted object's name was read, its '{' comes */
    for (;;) {
        x_event e = x_next(x);
        switch (e) {
        case X_END:
            return true;
        case X_BAD:
            return refuse(g, "corrupt or cut short: a binary .x token runs past the end of the file");
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
    bool result = ok ? (x_scan(g, &(x_reader){.p = out, .end = out + done, .binary = binary,
                                               .float_bytes = float_bytes}))
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
    return x_scan(g, &(x_reader){.p = data + 16, .end = data + size, .binary = binary, .float_bytes = float_bytes});
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
            while (v < n && isdigit(j[v]))
                value = value < 1000000000000ULL ? value * 10 + (unsigned)(j[v++] - '0') : value;
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

/* The header's element counts against the bytes after the header: an
   ASCII element takes two bytes a property at least ("0 "), a binary one
   its properties' sizes (a list: its count). */
static bool ply_check(const guard *g, const unsigned char *d, size_t size)
{
    const unsigned char *end_header = NULL;
    for (size_t i = 0; i + 10 <= size && !end_header; ++i)
        if (!memcmp(d + i, "end_header", 10))
            end_header = d + i + 10;
    if (size < 4 || memcmp(d, "ply", 3) != 0 || !end_header)
        return refuse(g, "not a PLY file, or its header has no end_header");
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

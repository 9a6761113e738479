/* obj_read.c: a small Wavefront OBJ reader (see obj_read.h).

   Two passes over the text: the first counts the statements (so every
   array is allocated once, its size known and checked against the limits
   before any allocation), the second reads and checks them. A face corner
   becomes an output vertex through a hash table keyed by its (position,
   texture coordinate) pair; the vertices get their values at the end, from
   the table, so a face may name a vertex defined further down. */
#include "obj_read.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NO_TEXCOORD UINT32_MAX

typedef struct obj_counts {
    size_t v, vt, vn;           /* statements of each kind */
    size_t corners, triangles;  /* over all faces */
} obj_counts;

/* One (position, texture coordinate) pair a face uses; slot empty when
   vertex_plus_one is 0. */
typedef struct obj_slot {
    uint32_t v, vt;
    uint32_t vertex_plus_one;
} obj_slot;

typedef struct obj_reader {
    const char *name;
    size_t      line;           /* 1-based; 0 while no line is read */
    char       *err;
    size_t      err_size;
    obj_counts  total;          /* from the first pass */
    obj_counts  seen;           /* read so far in the second */
    float      *positions;      /* 3 per v */
    float      *texcoords;      /* 2 per vt */
    obj_slot   *slots;
    size_t      slot_mask;      /* slot count - 1 (a power of two) */
    mesh_data   mesh;           /* vertex room: total.corners */
    unsigned long long budget;  /* bytes the text and the arrays may take; 0: no limit */
    size_t      text_size;
} obj_reader;

/* ---- messages ---------------------------------------------------------- */

/* err = "NAME:LINE: ..." (or "NAME: ..." before the first line); false. */
static bool fail(obj_reader *r, const char *fmt, ...)
{
    if (!r->err || r->err_size == 0)
        return false;
    int n = r->line ? snprintf(r->err, r->err_size, "%s:%zu: ", r->name, r->line)
                    : snprintf(r->err, r->err_size, "%s: ", r->name);
    if (n >= 0 && (size_t)n < r->err_size) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(r->err + n, r->err_size - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return false;
}

/* A token shown in a message: at most 24 bytes, anything unprintable
   (the file may be binary) as '?'. */
static const char *shown(const char *tok, size_t len, char buf[32])
{
    size_t n = len < 24 ? len : 24;
    for (size_t i = 0; i < n; ++i)
        buf[i] = tok[i] >= 0x20 && tok[i] < 0x7f ? tok[i] : '?';
    strcpy(buf + n, len > n ? "..." : "");
    return buf;
}

/* ---- lines and tokens -------------------------------------------------- */

static bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

/* The next line in [*cur, end) as [*s, *e): without its '\n' and without a
   comment ('#' to the end). false when no text is left. */
static bool next_line(const char **cur, const char *end, const char **s, const char **e)
{
    if (*cur == end)
        return false;
    const char *nl = memchr(*cur, '\n', (size_t)(end - *cur));
    *s = *cur;
    *e = nl ? nl : end;
    *cur = nl ? nl + 1 : end;
    const char *hash = memchr(*s, '#', (size_t)(*e - *s));
    if (hash)
        *e = hash;
    return true;
}

/* The next blank-separated token in [*s, e) as (tok, len); false when none. */
static bool next_token(const char **s, const char *e, const char **tok, size_t *len)
{
    const char *p = *s;
    while (p < e && is_blank(*p))
        ++p;
    const char *q = p;
    while (q < e && !is_blank(*q))
        ++q;
    *s = q;
    *tok = p;
    *len = (size_t)(q - p);
    return q > p;
}

static bool token_is(const char *tok, size_t len, const char *word)
{
    return len == strlen(word) && memcmp(tok, word, len) == 0;
}

static size_t count_tokens(const char *s, const char *e)
{
    const char *tok;
    size_t len, n = 0;
    while (next_token(&s, e, &tok, &len))
        ++n;
    return n;
}

/* ---- values ------------------------------------------------------------ */

/* A decimal (or hexadecimal) float that is finite as a float. */
static bool read_float(obj_reader *r, const char *tok, size_t len, float *out)
{
    char buf[64], show[32];
    if (len >= sizeof buf)
        return fail(r, "'%s' is too long for a number", shown(tok, len, show));
    memcpy(buf, tok, len);
    buf[len] = '\0';
    char *end = NULL;
    double d = strtod(buf, &end);
    if (end != buf + len)
        return fail(r, "'%s' is not a number", shown(tok, len, show));
    if (!(fabs(d) <= FLT_MAX))
        return fail(r, "'%s' is not a finite float", shown(tok, len, show));
    *out = (float)d;
    return true;
}

/* An OBJ index: 1-based, or negative counting back from the last one read
   (-1 is the last). `so_far` of `what` are read, `total` in the file. */
static bool read_index(obj_reader *r, const char *tok, size_t len, size_t so_far, size_t total,
                       const char *what, uint32_t *out)
{
    char show[32];
    bool negative = len > 0 && tok[0] == '-';
    size_t i = negative ? 1 : 0;
    if (i == len)
        return fail(r, "'%s' is not a %s index", shown(tok, len, show), what);
    uint64_t n = 0;
    for (; i < len; ++i) {
        if (tok[i] < '0' || tok[i] > '9')
            return fail(r, "'%s' is not a %s index", shown(tok, len, show), what);
        n = n * 10 + (uint64_t)(tok[i] - '0');
        if (n > UINT32_MAX)         /* beyond any count: stop growing */
            n = (uint64_t)UINT32_MAX + 1;
    }
    if (n == 0)
        return fail(r, "%s index 0 (OBJ counts from 1)", what);
    if (negative) {
        if (n > so_far)
            return fail(r, "%s index -%s reaches before the first %s (%zu read so far)", what,
                        shown(tok + 1, len - 1, show), what, so_far);
        *out = (uint32_t)(so_far - n);
    } else {
        if (n > total)
            return fail(r, "%s %s does not exist (the file has %zu)", what, shown(tok, len, show), total);
        *out = (uint32_t)(n - 1);
    }
    return true;
}

/* The rest of a statement: `min` to `max` numbers into out[]. */
static bool read_floats(obj_reader *r, const char *s, const char *e, const char *what, size_t min,
                        size_t max, float *out)
{
    size_t n = count_tokens(s, e);
    if (n < min || n > max)
        return fail(r, "'%s' takes %zu to %zu numbers, this one has %zu", what, min, max, n);
    const char *tok;
    size_t len;
    for (size_t i = 0; next_token(&s, e, &tok, &len); ++i)
        if (!read_float(r, tok, len, &out[i]))
            return false;
    return true;
}

/* ---- corners and faces ------------------------------------------------- */

static size_t slot_of(const obj_reader *r, uint32_t v, uint32_t vt)
{
    uint64_t key = (((uint64_t)v << 32) | vt) * UINT64_C(0x9E3779B97F4A7C15);
    return (size_t)(key >> 32) & r->slot_mask;
}

/* The output vertex of the pair (v, vt), made on first use. The table has
   at least twice as many slots as the file has corners: never full. */
static uint32_t vertex_of(obj_reader *r, uint32_t v, uint32_t vt)
{
    for (size_t i = slot_of(r, v, vt);; i = (i + 1) & r->slot_mask) {
        obj_slot *s = &r->slots[i];
        if (s->vertex_plus_one == 0) {
            s->v = v;
            s->vt = vt;
            s->vertex_plus_one = (uint32_t)++r->mesh.vertex_count;
        }
        if (s->v == v && s->vt == vt)
            return s->vertex_plus_one - 1;
    }
}

/* One face corner, "v", "v/vt", "v//vn" or "v/vt/vn", -> its output vertex. */
static bool read_corner(obj_reader *r, const char *tok, size_t len, uint32_t *vertex)
{
    const char *part[3] = {tok, NULL, NULL};
    size_t part_len[3] = {len, 0, 0};
    int parts = 1;
    for (size_t i = 0; i < len; ++i) {
        if (tok[i] != '/')
            continue;
        if (parts == 3) {
            char show[32];
            return fail(r, "'%s' is not a face corner (v, v/vt, v//vn or v/vt/vn)", shown(tok, len, show));
        }
        part_len[parts - 1] = (size_t)(&tok[i] - part[parts - 1]);
        part[parts] = &tok[i + 1];
        part_len[parts] = len - i - 1;
        ++parts;
    }
    uint32_t v = 0, vt = NO_TEXCOORD, vn = 0;
    if (!read_index(r, part[0], part_len[0], r->seen.v, r->total.v, "vertex", &v))
        return false;
    if (part_len[1] && !read_index(r, part[1], part_len[1], r->seen.vt, r->total.vt, "texture coordinate", &vt))
        return false;
    if (part_len[2] && !read_index(r, part[2], part_len[2], r->seen.vn, r->total.vn, "normal", &vn))
        return false;
    *vertex = vertex_of(r, v, vt);
    return true;
}

/* A face of n >= 3 corners -> n - 2 triangles, a fan around the first. */
static bool read_face(obj_reader *r, const char *s, const char *e)
{
    const char *tok;
    size_t len, n = 0;
    uint32_t first = 0, previous = 0, vertex = 0;
    while (next_token(&s, e, &tok, &len)) {
        if (!read_corner(r, tok, len, &vertex))
            return false;
        if (n == 0)
            first = vertex;
        if (n >= 2) {
            uint32_t *idx = &r->mesh.indices[3 * r->mesh.triangle_count++];
            idx[0] = first;
            idx[1] = previous;
            idx[2] = vertex;
        }
        previous = vertex;
        ++n;
    }
    if (n < 3)
        return fail(r, "a face needs at least 3 corners, this one has %zu", n);
    return true;
}

/* ---- the two passes ---------------------------------------------------- */

static void count_statements(const char *text, const char *end, obj_counts *c)
{
    const char *s, *e, *tok;
    size_t len;
    memset(c, 0, sizeof *c);
    while (next_line(&text, end, &s, &e)) {
        if (!next_token(&s, e, &tok, &len))
            continue;
        if (token_is(tok, len, "v")) {
            ++c->v;
        } else if (token_is(tok, len, "vt")) {
            ++c->vt;
        } else if (token_is(tok, len, "vn")) {
            ++c->vn;
        } else if (token_is(tok, len, "f")) {
            size_t n = count_tokens(s, e);
            c->corners += n;
            c->triangles += n >= 3 ? n - 2 : 0;
        }
    }
}

/* Hash slots for this many corners: a power of two, at least twice as many. */
static size_t slot_count(size_t corners)
{
    size_t slots = 1;
    while (slots < 2 * corners)
        slots <<= 1;
    return slots;
}

/* What allocate() takes for these counts, and the text beside it. */
static unsigned long long bytes_needed(const obj_counts *c, size_t text_size)
{
    return (unsigned long long)text_size + (unsigned long long)(c->v ? c->v : 1) * 3 * sizeof(float) +
           (unsigned long long)(c->vt ? c->vt : 1) * 2 * sizeof(float) +
           (unsigned long long)slot_count(c->corners) * sizeof(obj_slot) +
           (unsigned long long)(c->corners ? c->corners : 1) * sizeof(mesh_vertex) +
           (unsigned long long)(c->triangles ? c->triangles : 1) * 3 * sizeof(uint32_t);
}

static bool check_counts(obj_reader *r)
{
    const obj_counts *c = &r->total;
    if (c->v > OBJ_READ_MAX_POSITIONS)
        return fail(r, "too many vertices (%zu; at most %zu)", c->v, OBJ_READ_MAX_POSITIONS);
    if (c->vt > OBJ_READ_MAX_POSITIONS)
        return fail(r, "too many texture coordinates (%zu; at most %zu)", c->vt, OBJ_READ_MAX_POSITIONS);
    if (c->vn > UINT32_MAX - 1)
        return fail(r, "too many normals (%zu)", c->vn);
    if (c->triangles > OBJ_READ_MAX_TRIANGLES)
        return fail(r, "too many triangles (%zu; at most %zu)", c->triangles, OBJ_READ_MAX_TRIANGLES);
    /* good faces have at most 3 corners a triangle; faces of one or two
       (an error on their line) count too, and must not grow the arrays */
    if (c->corners > 3 * OBJ_READ_MAX_TRIANGLES)
        return fail(r, "too many face corners (%zu; at most %zu)", c->corners, 3 * OBJ_READ_MAX_TRIANGLES);
    unsigned long long need = bytes_needed(c, r->text_size);
    if (r->budget > 0 && need > r->budget)
        return fail(r, "reading it takes %llu MiB (%zu triangles), more than the %llu MiB a model may take "
                    "to load (--load-limit)", (need + (1u << 20) - 1) >> 20, c->triangles, r->budget >> 20);
    return true;
}

static bool allocate(obj_reader *r)
{
    const obj_counts *c = &r->total;
    /* every corner the second pass meets is counted: the table never fills */
    size_t slots = slot_count(c->corners);
    r->slot_mask = slots - 1;
    r->positions = malloc((c->v ? c->v : 1) * 3 * sizeof *r->positions);
    r->texcoords = malloc((c->vt ? c->vt : 1) * 2 * sizeof *r->texcoords);
    r->slots = calloc(slots, sizeof *r->slots);
    r->mesh.vertices = calloc(c->corners ? c->corners : 1, sizeof *r->mesh.vertices);
    r->mesh.indices = malloc((c->triangles ? c->triangles : 1) * 3 * sizeof *r->mesh.indices);
    if (!r->positions || !r->texcoords || !r->slots || !r->mesh.vertices || !r->mesh.indices)
        return fail(r, "out of memory for %zu triangles", c->triangles);
    return true;
}

static bool read_statements(obj_reader *r, const char *text, const char *end)
{
    const char *s, *e, *tok;
    size_t len;
    r->line = 0;
    while (next_line(&text, end, &s, &e)) {
        ++r->line;
        if (!next_token(&s, e, &tok, &len))
            continue;
        if (token_is(tok, len, "v")) {
            float p[7];     /* x y z, then w or a colour r g b: read, not kept */
            if (!read_floats(r, s, e, "v", 3, 7, p))
                return false;
            memcpy(&r->positions[3 * r->seen.v++], p, 3 * sizeof *p);
        } else if (token_is(tok, len, "vt")) {
            float t[3] = {0.0f, 0.0f, 0.0f};
            if (!read_floats(r, s, e, "vt", 1, 3, t))
                return false;
            memcpy(&r->texcoords[2 * r->seen.vt++], t, 2 * sizeof *t);
        } else if (token_is(tok, len, "vn")) {
            ++r->seen.vn;   /* only counted: normals are recomputed */
        } else if (token_is(tok, len, "f")) {
            if (!read_face(r, s, e))
                return false;
        }
    }
    r->line = 0;
    /* after the lines: a line's own problem is the better message */
    if (r->mesh.triangle_count == 0)
        return fail(r, "no triangles (no face of 3 or more corners)");
    return true;
}

/* Every used pair's values into its output vertex. */
static void fill_vertices(obj_reader *r)
{
    for (size_t i = 0; i <= r->slot_mask; ++i) {
        const obj_slot *s = &r->slots[i];
        if (s->vertex_plus_one == 0)
            continue;
        mesh_vertex *dst = &r->mesh.vertices[s->vertex_plus_one - 1];
        memcpy(dst->p, &r->positions[3 * (size_t)s->v], sizeof dst->p);
        if (s->vt != NO_TEXCOORD) {
            dst->tu = r->texcoords[2 * (size_t)s->vt];
            dst->tv = r->texcoords[2 * (size_t)s->vt + 1];
        }
    }
}

bool obj_read(const void *bytes, size_t size, const char *name, mesh_data *out, char *err, size_t err_size)
{
    return obj_read_within(bytes, size, name, 0, out, err, err_size);
}

bool obj_read_within(const void *bytes, size_t size, const char *name, long long budget, mesh_data *out,
                     char *err, size_t err_size)
{
    obj_reader r;
    memset(&r, 0, sizeof r);
    r.name = name ? name : "(OBJ data)";
    r.err = err;
    r.err_size = err_size;
    r.budget = budget > 0 ? (unsigned long long)budget : 0;
    r.text_size = size;
    if (!out || (!bytes && size > 0))
        return fail(&r, "no OBJ data given");
    const char *text = size ? bytes : "", *end = text + size;
    /* a UTF-8 byte-order mark is no part of the first statement (it would
       hide the first `v` and shift every index after it); UTF-16 is not
       text this reader can read */
    if (size >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
        text += 3;
    else if (size >= 2 && (memcmp(text, "\xFF\xFE", 2) == 0 || memcmp(text, "\xFE\xFF", 2) == 0))
        return fail(&r, "UTF-16 text (it starts with a byte-order mark %s): save it as UTF-8 or ASCII",
                    text[0] == '\xFF' ? "FF FE" : "FE FF");
    count_statements(text, end, &r.total);
    bool ok = check_counts(&r) && allocate(&r) && read_statements(&r, text, end);
    if (ok) {
        fill_vertices(&r);
        /* the vertex room was one per corner; shared corners leave some over */
        mesh_vertex *fit = realloc(r.mesh.vertices, r.mesh.vertex_count * sizeof *fit);
        if (fit)
            r.mesh.vertices = fit;
        *out = r.mesh;
    } else {
        mesh_data_free(&r.mesh);
    }
    free(r.positions);
    free(r.texcoords);
    free(r.slots);
    return ok;
}

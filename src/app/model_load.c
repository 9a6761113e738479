/* model_load.c: a model file -> one flat mesh_data. Wavefront .obj files
   go through our own reader (obj_read.c) in every build, the browser's
   included; everything else through assimp's C API when raypick is built
   with it (RAYPICK_HAVE_ASSIMP), else a message saying so.

   Why .obj is ours even with assimp: the face numbers in the reports are
   the file's triangles in order in every build (assimp regroups faces by
   material and object), so the browser and the desktop name the same
   triangle; and one reader, fuzzed, is the one every build runs. */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L     /* stat */
#endif
#include "model_load.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#ifndef _WIN32
#include <fcntl.h>     /* S_IFMT, S_IFREG */
#endif

#include "file_open.h"
#include "model_guard.h"
#include "obj_read.h"

/* Largest .obj file read into memory (1 GiB: beyond obj_read's limits). */
#define MODEL_LOAD_MAX_OBJ_BYTES ((size_t)1 << 30)

/* true when the path ends in ".obj", in any case. */
static bool is_obj_path(const char *path)
{
    size_t n = strlen(path);
    if (n < 4)
        return false;
    const char *ext = path + n - 4;
    return ext[0] == '.' && (ext[1] | 0x20) == 'o' && (ext[2] | 0x20) == 'b' && (ext[3] | 0x20) == 'j';
}

/* The whole of a regular file in a malloc'd buffer (one byte more, a 0),
   at most `limit` bytes. */
static bool read_whole_file(const char *path, size_t limit, char **data, size_t *size, bool *over_limit,
                            char *err, size_t err_size)
{
    long long bytes = 0;
    FILE *f = file_open_regular(path, "the model", &bytes, err, err_size);
    if (!f)
        return false;
    if ((unsigned long long)bytes > limit) {
        if (over_limit)
            *over_limit = true;
        snprintf(err, err_size, "%s: the model is %lld MiB, more than the %zu MiB a model may take to load "
                 "(--load-limit)", path, bytes >> 20, limit >> 20);
        fclose(f);
        return false;
    }
    size_t want = (size_t)bytes;
    char *buf = malloc(want + 2);
    size_t got = buf ? fread(buf, 1, want + 1, f) : 0;
    bool ok = buf && !ferror(f) && got == want;
    if (!buf)
        snprintf(err, err_size, "%s: out of memory reading the model (%zu bytes)", path, want);
    else if (!ok)
        snprintf(err, err_size, "%s: cannot read the model: %s", path,
                 ferror(f) ? strerror(errno) : "it changed while it was read");
    fclose(f);
    if (!ok) {
        free(buf);
        return false;
    }
    buf[got] = '\0';
    *data = buf;
    *size = got;
    return true;
}

/* The model's last steps in every path: fitted to the view, normals from
   its triangles. false (mesh freed) with a message. */
static bool fit_model(const char *path, float fit_radius, mesh_data *m, char *err, size_t err_size)
{
    if (!mesh_data_fit(m, fit_radius)) {
        snprintf(err, err_size, "%s: the model has no size (all points equal) or a position "
                 "that is not a finite number", path);
        mesh_data_free(m);
        return false;
    }
    if (!mesh_data_compute_normals(m)) {
        snprintf(err, err_size, "%s: the model has a triangle with a corner that does not exist", path);
        mesh_data_free(m);
        return false;
    }
    return true;
}

static size_t obj_limit(long long budget)
{
    return (unsigned long long)budget < MODEL_LOAD_MAX_OBJ_BYTES ? (size_t)budget : MODEL_LOAD_MAX_OBJ_BYTES;
}

static bool load_obj_bytes(const char *path, const char *text, size_t size, float fit_radius, long long budget,
                           mesh_data *out, char *err, size_t err_size)
{
    mesh_data m;
    bool ok = obj_read_within(text, size, path, budget, &m, err, err_size) &&
              fit_model(path, fit_radius, &m, err, err_size);
    if (ok)
        *out = m;
    return ok;
}

static bool load_obj(const char *path, float fit_radius, long long budget, mesh_data *out, char *err,
                     size_t err_size)
{
    char *text = NULL;
    size_t size = 0;
    if (!read_whole_file(path, obj_limit(budget), &text, &size, NULL, err, err_size))
        return false;
    bool ok = load_obj_bytes(path, text, size, fit_radius, budget, out, err, err_size);
    free(text);
    return ok;
}

#ifdef RAYPICK_HAVE_ASSIMP

#include <assimp/cfileio.h>
#include <assimp/cimport.h>
#include <assimp/config.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

bool model_load_available(void)
{
    return true;
}

/* ---- files assimp opens: only regular ones, within the budget --------- */

typedef struct guarded_io {
    const char *main_path;          /* served from main_data */
    const char *main_data;
    size_t main_size;
    size_t budget_left;             /* bytes other files may still bring */
    bool over_budget;               /* a file was refused for the budget */
    long long budget;               /* the whole load's, for the message */
} guarded_io;

typedef struct guarded_file {
    char *owned;                    /* NULL for the main file's bytes */
    const char *data;
    size_t size, pos;
} guarded_file;

static size_t gf_read(struct aiFile *f, char *buf, size_t size, size_t count)
{
    guarded_file *g = (guarded_file *)f->UserData;
    if (size == 0)
        return 0;
    size_t items = (g->size - g->pos) / size;
    items = items < count ? items : count;
    memcpy(buf, g->data + g->pos, items * size);
    g->pos += items * size;
    return items;
}

static size_t gf_write(struct aiFile *f, const char *buf, size_t size, size_t count)
{
    (void)f, (void)buf, (void)size, (void)count;
    return 0;
}

static size_t gf_tell(struct aiFile *f)
{
    return ((guarded_file *)f->UserData)->pos;
}

static size_t gf_size(struct aiFile *f)
{
    return ((guarded_file *)f->UserData)->size;
}

static enum aiReturn gf_seek(struct aiFile *f, size_t offset, enum aiOrigin origin)
{
    guarded_file *g = (guarded_file *)f->UserData;
    size_t base = origin == aiOrigin_SET ? 0 : origin == aiOrigin_CUR ? g->pos : g->size;
    if (offset > g->size - base)
        return aiReturn_FAILURE;
    g->pos = base + offset;
    return aiReturn_SUCCESS;
}

static void gf_flush(struct aiFile *f)
{
    (void)f;
}

static struct aiFile *gio_open(struct aiFileIO *io, const char *path, const char *mode)
{
    guarded_io *g = (guarded_io *)io->UserData;
    if (!path || !mode || strchr(mode, 'w') || strchr(mode, 'a'))
        return NULL;
    guarded_file *file = calloc(1, sizeof *file);
    struct aiFile *f = calloc(1, sizeof *f);
    if (!file || !f) {
        free(file);
        free(f);
        return NULL;
    }
    if (!strcmp(path, g->main_path)) {
        file->data = g->main_data;
        file->size = g->main_size;
    } else {
        char err[16];   /* assimp says which file it missed */
        size_t size = 0;
        if (!read_whole_file(path, g->budget_left, &file->owned, &size, &g->over_budget, err, sizeof err)) {
            free(file);
            free(f);
            return NULL;
        }
        g->budget_left -= size;
        file->data = file->owned;
        file->size = size;
    }
    *f = (struct aiFile){gf_read, gf_write, gf_tell, gf_size, gf_seek, gf_flush, (aiUserData)file};
    return f;
}

static void gio_close(struct aiFileIO *io, struct aiFile *f)
{
    (void)io;
    if (!f)
        return;
    guarded_file *file = (guarded_file *)f->UserData;
    free(file->owned);
    free(file);
    free(f);
}

/* The bytes a .gltf's external buffers ("uri": "x.bin", not data: URIs)
   bring: the byte lengths it declares are checked against them too. */
static size_t gltf_buffer_bytes(const char *path, const char *json, size_t size)
{
    size_t total = 0;
    const char *slash = strrchr(path, '/');
    size_t dir_len = slash ? (size_t)(slash - path) + 1 : 0;
    for (const char *p = json; (p = strstr(p, "\"uri\"")) != NULL && (size_t)(p - json) < size;) {
        p += 5;
        while (*p == ' ' || *p == ':' || *p == '\t' || *p == '\n' || *p == '\r')
            ++p;
        if (*p != '"')
            continue;
        const char *q = strchr(++p, '"');
        if (!q || (size_t)(q - p) > 512 || !strncmp(p, "data:", 5))
            continue;
        char file[1024];
        snprintf(file, sizeof file, "%.*s%.*s", (int)dir_len, path, (int)(q - p), p);
        struct stat st;
        if (stat(file, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG)
            total += (size_t)st.st_size;
        p = q + 1;
    }
    return total;
}

/* ---- the scene: checked, then flattened -------------------------------- */

/* What the flattened model needs, from a walk over the nodes without
   recursion: every node's meshes, each as often as nodes refer to it
   (instances repeat), stopped as soon as a limit is passed. */
typedef struct flat_count {
    size_t vertices, triangles;
    bool bad_index;             /* a node names a mesh that does not exist */
    bool too_deep;              /* nesting past MODEL_GUARD_MAX_DEPTH (or a cycle) */
    bool too_many_nodes;        /* more node visits than MODEL_LOAD_MAX_NODE_VISITS */
    bool too_big;               /* past the triangle limit or the budget */
} flat_count;

#define MODEL_LOAD_MAX_NODE_VISITS ((size_t)1 << 20)

static void count_nodes(const struct aiScene *s, size_t budget, flat_count *c)
{
    const struct aiNode *stack[MODEL_GUARD_MAX_DEPTH + 1];
    unsigned next[MODEL_GUARD_MAX_DEPTH + 1];
    int top = 0;
    size_t visits = 1;
    stack[0] = s->mRootNode;
    next[0] = 0;
    for (;;) {
        const struct aiNode *node = stack[top];
        if (next[top] == 0) {       /* first time here: its meshes */
            for (unsigned i = 0; i < node->mNumMeshes; ++i) {
                if (node->mMeshes[i] >= s->mNumMeshes) {
                    c->bad_index = true;
                    continue;
                }
                const struct aiMesh *m = s->mMeshes[node->mMeshes[i]];
                c->vertices += m->mNumVertices;
                for (unsigned f = 0; f < m->mNumFaces; ++f)     /* fans: n corners, n - 2 triangles */
                    c->triangles += m->mFaces[f].mNumIndices >= 3 ? m->mFaces[f].mNumIndices - 2 : 0;
            }
            if (c->triangles > MODEL_LOAD_MAX_TRIANGLES || c->vertices >= UINT32_MAX ||
                c->vertices * sizeof(mesh_vertex) + c->triangles * 3 * sizeof(uint32_t) > budget) {
                c->too_big = true;
                return;
            }
        }
        if (next[top] < node->mNumChildren) {
            const struct aiNode *child = node->mChildren[next[top]++];
            if (++visits > MODEL_LOAD_MAX_NODE_VISITS) {
                c->too_many_nodes = true;
                return;
            }
            if (top == MODEL_GUARD_MAX_DEPTH) {
                c->too_deep = true;
                return;
            }
            stack[++top] = child;
            next[top] = 0;
        } else if (top-- == 0) {
            return;
        }
    }
}

/* assimp's matrices are row-major with column vectors (translation in
   a4, b4, c4): p' = M p. */
static void transform_point(const struct aiMatrix4x4 *m, const struct aiVector3D *p, float out[3])
{
    out[0] = m->a1 * p->x + m->a2 * p->y + m->a3 * p->z + m->a4;
    out[1] = m->b1 * p->x + m->b2 * p->y + m->b3 * p->z + m->b4;
    out[2] = m->c1 * p->x + m->c2 * p->y + m->c3 * p->z + m->c4;
}

static float det3(const struct aiMatrix4x4 *m)
{
    return m->a1 * (m->b2 * m->c3 - m->b3 * m->c2) - m->a2 * (m->b1 * m->c3 - m->b3 * m->c1) +
           m->a3 * (m->b1 * m->c2 - m->b2 * m->c1);
}

static void append_mesh(const struct aiMesh *am, const struct aiMatrix4x4 *world, mesh_data *out)
{
    uint32_t base = (uint32_t)out->vertex_count;
    for (unsigned v = 0; v < am->mNumVertices; ++v) {
        mesh_vertex *dst = &out->vertices[out->vertex_count++];
        memset(dst, 0, sizeof *dst);
        transform_point(world, &am->mVertices[v], dst->p);
        if (am->mTextureCoords[0]) {
            dst->tu = am->mTextureCoords[0][v].x;
            dst->tv = am->mTextureCoords[0][v].y;
        }
    }
    /* a mirroring transform turns the winding inside out: undo that */
    bool mirrored = det3(world) < 0.0f;
    for (unsigned f = 0; f < am->mNumFaces; ++f) {
        const struct aiFace *face = &am->mFaces[f];
        /* polygons as fans from their first corner, as the .obj reader
           does; points and lines: nothing to pick */
        for (unsigned t = 0; t + 2 < face->mNumIndices; ++t) {
            unsigned corner[3] = {face->mIndices[0], face->mIndices[t + 1], face->mIndices[t + 2]};
            uint32_t *idx = &out->indices[3 * out->triangle_count++];
            for (int k = 0; k < 3; ++k) {
                unsigned i = corner[mirrored ? 2 - k : k];
                /* an index out of range points at vertex 0 of this mesh
                   rather than outside the array (raw_scene_problem refuses
                   them first) */
                idx[k] = base + (i < am->mNumVertices ? i : 0);
            }
        }
    }
}

/* Recursion bounded by count_nodes: at most MODEL_GUARD_MAX_DEPTH deep. */
static void flatten_node(const struct aiScene *s, const struct aiNode *node,
                         const struct aiMatrix4x4 *parent, mesh_data *out)
{
    struct aiMatrix4x4 world = *parent;
    aiMultiplyMatrix4(&world, &node->mTransformation);      /* world = parent * local */
    for (unsigned i = 0; i < node->mNumMeshes; ++i)
        if (node->mMeshes[i] < s->mNumMeshes)
            append_mesh(s->mMeshes[node->mMeshes[i]], &world, out);
    for (unsigned i = 0; i < node->mNumChildren; ++i)
        flatten_node(s, node->mChildren[i], &world, out);
}

/* What the flattening would trip over in assimp's scene (its validation
   has looked at it already): NULL when every mesh is whole, else what is
   wrong. */
static const char *scene_problem(const struct aiScene *s)
{
    if (s->mNumMeshes && !s->mMeshes)
        return "its meshes are missing";
    for (unsigned m = 0; m < s->mNumMeshes; ++m) {
        const struct aiMesh *mesh = s->mMeshes[m];
        if (!mesh || (mesh->mNumFaces && !mesh->mFaces) || (mesh->mNumVertices && !mesh->mVertices))
            return "a mesh is missing its faces or vertices";
        for (unsigned f = 0; f < mesh->mNumFaces; ++f) {
            const struct aiFace *face = &mesh->mFaces[f];
            if (face->mNumIndices > 0 && !face->mIndices)
                return "a face is missing its corners";
            for (unsigned k = 0; k < face->mNumIndices; ++k)
                if (face->mIndices[k] >= mesh->mNumVertices)
                    return "a face names a vertex that does not exist";
        }
    }
    return NULL;
}

/* assimp's reading, told to keep no more than picking needs and to weld
   equal vertices; nothing else of its post-processing: Debian's assimp
   keeps its assertions on, and its triangulation aborts the program on a
   face with no corners (a PLY face list of length 0; fuzz_model found it
   in a 181-byte .ply), so polygons are made fans here (append_mesh). One
   call, not a read and then aiApplyPostProcessing: that function frees the
   scene twice when a step fails (fuzz_model again). NULL with the reason
   in err. */
static const struct aiScene *import_guarded(const char *path, guarded_io *g, char *err, size_t err_size)
{
    struct aiFileIO io = {gio_open, gio_close, (aiUserData)g};
    struct aiPropertyStore *props = aiCreatePropertyStore();
    if (props)      /* normals, colours, bones, animations, textures, lights and cameras not kept */
        aiSetImportPropertyInteger(props, AI_CONFIG_PP_RVC_FLAGS,
                                   aiComponent_NORMALS | aiComponent_TANGENTS_AND_BITANGENTS | aiComponent_COLORS |
                                   aiComponent_BONEWEIGHTS | aiComponent_ANIMATIONS | aiComponent_TEXTURES |
                                   aiComponent_LIGHTS | aiComponent_CAMERAS);
    const struct aiScene *s = aiImportFileExWithProperties(
        path, aiProcess_ValidateDataStructure | aiProcess_RemoveComponent | aiProcess_JoinIdenticalVertices, &io,
        props);
    if (props)
        aiReleasePropertyStore(props);
    if (!s) {
        if (g->over_budget)
            snprintf(err, err_size, "%s: the files it names take more than the %lld MiB a model may take to load "
                     "(--load-limit)", path, g->budget >> 20);
        else
            snprintf(err, err_size, "%s: cannot read the model: %s", path, aiGetErrorString());
        return NULL;
    }
    const char *problem = scene_problem(s);
    if (problem) {
        snprintf(err, err_size, "%s: cannot read the model: %s", path, problem);
        aiReleaseImport(s);
        return NULL;
    }
    return s;
}

/* data: size bytes and a 0 after them (the .gltf scan reads strings). */
static bool load_other_bytes(const char *path, const char *data, size_t size, float fit_radius, long long budget,
                             mesh_data *out, char *err, size_t err_size)
{
    size_t extra = gltf_buffer_bytes(path, data, size);
    if (!model_guard_check(path, (const unsigned char *)data, size, extra, budget, err, err_size))
        return false;
    guarded_io g = {path, data, size, (size_t)budget - size, false, budget};
    const struct aiScene *s = import_guarded(path, &g, err, err_size);
    if (!s)
        return false;
    bool ok = false;
    flat_count c = {0, 0, false, false, false, false};
    if (s->mRootNode)
        count_nodes(s, (size_t)budget, &c);
    mesh_data m;
    memset(&m, 0, sizeof m);
    if ((s->mFlags & AI_SCENE_FLAGS_INCOMPLETE) || !s->mRootNode) {
        snprintf(err, err_size, "%s: the model is incomplete (no scene graph)", path);
    } else if (c.too_deep) {
        snprintf(err, err_size, "%s: the model's nodes nest more than %d deep (or form a cycle)", path,
                 MODEL_GUARD_MAX_DEPTH);
    } else if (c.too_many_nodes) {
        snprintf(err, err_size, "%s: the model's nodes are visited more than %zu times (shared subtrees "
                 "multiplying)", path, MODEL_LOAD_MAX_NODE_VISITS);
    } else if (c.too_big) {
        snprintf(err, err_size, "%s: too large: its instances flatten to more than %zu triangles or %lld MiB "
                 "(--load-limit)", path, MODEL_LOAD_MAX_TRIANGLES, budget >> 20);
    } else if (c.bad_index) {
        snprintf(err, err_size, "%s: a node refers to a mesh that does not exist", path);
    } else if (c.triangles == 0) {
        snprintf(err, err_size, "%s: the model has no triangles", path);
    } else if (!(m.vertices = malloc(c.vertices * sizeof *m.vertices)) ||
               !(m.indices = malloc(3 * c.triangles * sizeof *m.indices))) {
        snprintf(err, err_size, "%s: out of memory for %zu triangles", path, c.triangles);
    } else {
        struct aiMatrix4x4 identity;
        aiIdentityMatrix4(&identity);
        flatten_node(s, s->mRootNode, &identity, &m);
        ok = fit_model(path, fit_radius, &m, err, err_size);
    }
    aiReleaseImport(s);
    if (!ok) {
        mesh_data_free(&m);
        return false;
    }
    *out = m;
    return true;
}

static bool load_other(const char *path, float fit_radius, long long budget, mesh_data *out, char *err,
                       size_t err_size)
{
    if (!model_guard_known_format(path)) {
        model_guard_check(path, NULL, 0, 0, budget, err, err_size);     /* says which formats */
        return false;
    }
    char *data = NULL;
    size_t size = 0;
    if (!read_whole_file(path, (size_t)budget, &data, &size, NULL, err, err_size))
        return false;
    bool ok = load_other_bytes(path, data, size, fit_radius, budget, out, err, err_size);
    free(data);
    return ok;
}

#else /* no assimp */

bool model_load_available(void)
{
    return false;
}

static bool load_other_bytes(const char *path, const char *data, size_t size, float fit_radius, long long budget,
                             mesh_data *out, char *err, size_t err_size)
{
    (void)data, (void)size, (void)fit_radius, (void)budget, (void)out;
    snprintf(err, err_size, "%s: this model format is not built in (this raypick reads .obj files "
             "only: it was built without assimp; install libassimp-dev and reconfigure with "
             "-Dassimp=enabled for .x, .gltf, .ply, ...)", path);
    return false;
}

static bool load_other(const char *path, float fit_radius, long long budget, mesh_data *out, char *err,
                       size_t err_size)
{
    return load_other_bytes(path, NULL, 0, fit_radius, budget, out, err, err_size);
}

#endif

bool model_load_within(const char *path, float fit_radius, long long budget, mesh_data *out, char *err,
                       size_t err_size)
{
    if (!path || !out) {
        snprintf(err, err_size, "no model file given");
        return false;
    }
    budget = budget > 0 ? budget : MODEL_LOAD_DEFAULT_BUDGET;
    return is_obj_path(path) ? load_obj(path, fit_radius, budget, out, err, err_size)
                             : load_other(path, fit_radius, budget, out, err, err_size);
}

bool model_load_bytes(const char *path, const void *data, size_t size, float fit_radius, long long budget,
                      mesh_data *out, char *err, size_t err_size)
{
    if (!path || !out || (!data && size > 0)) {
        snprintf(err, err_size, "no model given");
        return false;
    }
    budget = budget > 0 ? budget : MODEL_LOAD_DEFAULT_BUDGET;
    bool obj = is_obj_path(path);
    size_t limit = obj ? obj_limit(budget) : (size_t)budget;
    if (size > limit) {
        snprintf(err, err_size, "%s: the model is %zu MiB, more than the %zu MiB a model may take to load "
                 "(--load-limit)", path, size >> 20, limit >> 20);
        return false;
    }
    if (!obj && !model_guard_known_format(path)) {
        model_guard_check(path, NULL, 0, 0, budget, err, err_size);     /* says which formats */
        return false;
    }
    /* a copy with a 0 after it, as read_whole_file gives */
    char *copy = malloc(size + 1);
    if (!copy) {
        snprintf(err, err_size, "%s: out of memory reading the model (%zu bytes)", path, size);
        return false;
    }
    if (size > 0)
        memcpy(copy, data, size);
    copy[size] = '\0';
    bool ok = obj ? load_obj_bytes(path, copy, size, fit_radius, budget, out, err, err_size)
                  : load_other_bytes(path, copy, size, fit_radius, budget, out, err, err_size);
    free(copy);
    return ok;
}

bool model_load(const char *path, float fit_radius, mesh_data *out, char *err, size_t err_size)
{
    return model_load_within(path, fit_radius, MODEL_LOAD_DEFAULT_BUDGET, out, err, err_size);
}

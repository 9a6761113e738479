/* model_load.c: a model file -> one flat mesh_data. Wavefront .obj files
   go through our own reader (obj_read.c) in every build, the browser's
   included; everything else through assimp's C API when raypick is built
   with it (RAYPICK_HAVE_ASSIMP), else a message saying so.

   Why .obj is ours even with assimp: the face numbers in the reports are
   the file's triangles in order in every build (assimp regroups faces by
   material and object), so the browser and the desktop name the same
   triangle; and one reader, fuzzed, is the one every build runs. */
#include "model_load.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* The whole file in a malloc'd buffer, at most `limit` bytes. */
static bool read_whole_file(const char *path, size_t limit, char **data, size_t *size, char *err,
                            size_t err_size)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, err_size, "%s: cannot open the model: %s", path, strerror(errno));
        return false;
    }
    size_t used = 0, room = 0;
    char *buf = NULL;
    bool ok = false;
    for (;;) {
        if (used == room) {
            if (room > limit) {
                snprintf(err, err_size, "%s: the model is larger than %zu bytes", path, limit);
                break;
            }
            /* at most one byte past the limit: enough to see a file is larger */
            size_t grown = room ? 2 * room : (size_t)1 << 16;
            grown = grown > limit ? limit + 1 : grown;
            char *more = realloc(buf, grown);
            if (!more) {
                snprintf(err, err_size, "%s: out of memory reading the model (%zu bytes)", path, grown);
                break;
            }
            buf = more;
            room = grown;
        }
        size_t got = fread(buf + used, 1, room - used, f);
        used += got;
        if (got == 0) {
            ok = !ferror(f);
            if (!ok)
                snprintf(err, err_size, "%s: cannot read the model: %s", path, strerror(errno));
            break;
        }
    }
    fclose(f);
    if (!ok) {
        free(buf);
        return false;
    }
    *data = buf;
    *size = used;
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

static bool load_obj(const char *path, float fit_radius, mesh_data *out, char *err, size_t err_size)
{
    char *text = NULL;
    size_t size = 0;
    if (!read_whole_file(path, MODEL_LOAD_MAX_OBJ_BYTES, &text, &size, err, err_size))
        return false;
    mesh_data m;
    bool ok = obj_read(text, size, path, &m, err, err_size) && fit_model(path, fit_radius, &m, err, err_size);
    free(text);
    if (ok)
        *out = m;
    return ok;
}

#ifdef RAYPICK_HAVE_ASSIMP

#include <assimp/cimport.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

bool model_load_available(void)
{
    return true;
}

/* How much room the flattened model needs: every node's meshes, each as
   often as nodes refer to it. */
typedef struct flat_count {
    size_t vertices, triangles;
    bool   bad_index;      /* a node names a mesh that does not exist */
} flat_count;

static void count_node(const struct aiScene *s, const struct aiNode *node, flat_count *c)
{
    for (unsigned i = 0; i < node->mNumMeshes; ++i) {
        if (node->mMeshes[i] >= s->mNumMeshes) {
            c->bad_index = true;
            continue;
        }
        const struct aiMesh *m = s->mMeshes[node->mMeshes[i]];
        c->vertices += m->mNumVertices;
        for (unsigned f = 0; f < m->mNumFaces; ++f)
            c->triangles += m->mFaces[f].mNumIndices == 3;
    }
    for (unsigned i = 0; i < node->mNumChildren; ++i)
        count_node(s, node->mChildren[i], c);
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
        if (face->mNumIndices != 3)
            continue;       /* points and lines: nothing to pick */
        uint32_t *idx = &out->indices[3 * out->triangle_count++];
        for (int k = 0; k < 3; ++k) {
            unsigned i = face->mIndices[mirrored ? 2 - k : k];
            /* an index out of range points at vertex 0 of this mesh (or of
               the model) rather than outside the array */
            idx[k] = base + (i < am->mNumVertices ? i : 0);
        }
    }
}

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

static bool load_other(const char *path, float fit_radius, mesh_data *out, char *err, size_t err_size)
{
    const struct aiScene *s = aiImportFile(path, aiProcess_Triangulate | aiProcess_JoinIdenticalVertices |
                                                     aiProcess_SortByPType | aiProcess_ValidateDataStructure);
    if (!s) {
        snprintf(err, err_size, "%s: cannot read the model: %s", path, aiGetErrorString());
        return false;
    }
    bool ok = false;
    flat_count c = {0, 0, false};
    if (s->mRootNode)
        count_node(s, s->mRootNode, &c);
    mesh_data m;
    memset(&m, 0, sizeof m);
    if ((s->mFlags & AI_SCENE_FLAGS_INCOMPLETE) || !s->mRootNode) {
        snprintf(err, err_size, "%s: the model is incomplete (no scene graph)", path);
    } else if (c.bad_index) {
        snprintf(err, err_size, "%s: a node refers to a mesh that does not exist", path);
    } else if (c.triangles == 0) {
        snprintf(err, err_size, "%s: the model has no triangles", path);
    } else if (c.triangles > MODEL_LOAD_MAX_TRIANGLES || c.vertices >= UINT32_MAX) {
        snprintf(err, err_size, "%s: too many triangles (%zu; at most %zu)", path, c.triangles,
                 MODEL_LOAD_MAX_TRIANGLES);
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

#else /* no assimp */

bool model_load_available(void)
{
    return false;
}

static bool load_other(const char *path, float fit_radius, mesh_data *out, char *err, size_t err_size)
{
    (void)fit_radius;
    (void)out;
    snprintf(err, err_size, "%s: this model format is not built in (this raypick reads .obj files "
             "only: it was built without assimp; install libassimp-dev and reconfigure with "
             "-Dassimp=enabled for .x, .gltf, .ply, ...)", path);
    return false;
}

#endif

bool model_load(const char *path, float fit_radius, mesh_data *out, char *err, size_t err_size)
{
    if (!path || !out) {
        snprintf(err, err_size, "no model file given");
        return false;
    }
    return is_obj_path(path) ? load_obj(path, fit_radius, out, err, err_size)
                             : load_other(path, fit_radius, out, err, err_size);
}

/* render_model_internal.h: the model's GL objects, shared by model.c and
   pick.c. */
#ifndef RAYPICK_RENDER_MODEL_INTERNAL_H
#define RAYPICK_RENDER_MODEL_INTERNAL_H

#include "render_internal.h"
#include "render_model.h"

struct render_model {
    GLuint vao, vbo, ibo;
    GLuint lit_program, solid_program;
    size_t triangle_count;
    /* for the ID pass without gl_PrimitiveID: the triangles' corners in
       order (positions, 3 per triangle), kept until the flat copy is made */
    float *corners;
    GLuint flat_vao, flat_vbo, flat_ids;
};

/* The non-indexed copy with per-vertex triangle ids (made on first use);
   false when it cannot be made. */
bool render_model_flat_ids(render_model *m);

#endif

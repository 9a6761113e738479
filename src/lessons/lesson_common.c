/* lesson_common.c: small helpers every lesson uses. */
#include "lesson.h"

#include <string.h>

const char *lesson_method_name(lesson_method m)
{
    return m == LESSON_PICK_D3D9 ? "d3d9" : "unproject";
}

void lesson_pick_miss(lesson_pick *out, const rp_ray *ray, const char *method)
{
    memset(out, 0, sizeof *out);
    out->hit = false;
    out->id = -1;
    snprintf(out->what, sizeof out->what, "miss");
    out->ray = *ray;
    snprintf(out->method, sizeof out->method, "%s", method);
}

void lesson_json_vec3(FILE *out, const vec3 v)
{
    fprintf(out, "[%.6g,%.6g,%.6g]", (double)v[0], (double)v[1], (double)v[2]);
}

void lesson_model(const vec3 position, const versor rotation, const vec3 scale, mat4 out)
{
    glm_translate_make(out, (float *)position);
    bool has_rotation = rotation && (rotation[0] != 0.0f || rotation[1] != 0.0f ||
                                     rotation[2] != 0.0f || rotation[3] != 0.0f);
    if (has_rotation)
        glm_quat_rotate(out, (float *)rotation, out);
    if (scale)
        glm_scale(out, (float *)scale);
}

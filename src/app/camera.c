/* camera.c: an orbit camera around a target point. */
#include "camera.h"
#include "steady_math.h"

void app_camera_reset(app_camera *c, const lesson_camera *home)
{
    c->home = *home;
    glm_vec3_copy(c->home.target, c->target);
    c->yaw = home->yaw;
    c->pitch = home->pitch;
    c->distance = home->distance;
    c->fov = home->fov;
}

void app_camera_orbit(app_camera *c, float dx, float dy)
{
    c->yaw -= dx * 0.008f;
    c->pitch = glm_clamp(c->pitch + dy * 0.008f, -1.45f, 1.45f);
}

void app_camera_zoom(app_camera *c, float steps)
{
    c->distance = glm_clamp(c->distance * powf(0.9f, steps), 2.0f, 120.0f);
}

void app_camera_eye(const app_camera *c, vec3 eye)
{
    /* yaw 0 puts the eye on +z looking down -z, like glm_lookat's default */
    float sin_yaw, cos_yaw, sin_pitch, cos_pitch;
    steady_sincosf(c->yaw, &sin_yaw, &cos_yaw);
    steady_sincosf(c->pitch, &sin_pitch, &cos_pitch);
    eye[0] = c->target[0] + c->distance * cos_pitch * sin_yaw;
    eye[1] = c->target[1] + c->distance * sin_pitch;
    eye[2] = c->target[2] + c->distance * cos_pitch * cos_yaw;
}

void app_camera_matrices(const app_camera *c, float aspect, mat4 view, mat4 proj)
{
    vec3 eye;
    app_camera_eye(c, eye);
    glm_lookat(eye, (float *)c->target, (vec3){0.0f, 1.0f, 0.0f}, view);
    steady_perspective(c->fov, aspect, APP_CAMERA_NEAR, APP_CAMERA_FAR, proj);
}

void app_camera_framed(const app_camera *user, const lesson_camera *frame, app_camera *out)
{
    app_camera_reset(out, frame);
    out->yaw += user->yaw - user->home.yaw;
    out->pitch = glm_clamp(out->pitch + user->pitch - user->home.pitch, -1.45f, 1.45f);
    if (user->home.distance > 0.0f)
        out->distance *= user->distance / user->home.distance;
}

void app_camera_shift(app_camera *c, float aspect, float ndc_x, float ndc_y)
{
    float sin_yaw, cos_yaw, sin_pitch, cos_pitch;
    steady_sincosf(c->yaw, &sin_yaw, &cos_yaw);
    steady_sincosf(c->pitch, &sin_pitch, &cos_pitch);
    vec3 right = {cos_yaw, 0.0f, -sin_yaw};
    vec3 up = {-sin_pitch * sin_yaw, cos_pitch, -sin_pitch * cos_yaw};  /* right x forward */
    float half = c->distance * steady_tanf(0.5f * c->fov);
    glm_vec3_muladds(right, -ndc_x * half * aspect, c->target);
    glm_vec3_muladds(up, -ndc_y * half, c->target);
}

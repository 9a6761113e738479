/* camera.h: the orbit camera (right drag orbits, wheel zooms, R resets). */
#ifndef RAYPICK_APP_CAMERA_H
#define RAYPICK_APP_CAMERA_H

#include <cglm/cglm.h>
#include "lesson.h"

typedef struct app_camera {
    lesson_camera home;     /* where R returns to */
    vec3  target;
    float yaw, pitch, distance, fov;
} app_camera;

void app_camera_reset(app_camera *c, const lesson_camera *home);
void app_camera_orbit(app_camera *c, float dx_pixels, float dy_pixels);
void app_camera_zoom(app_camera *c, float wheel_steps);
void app_camera_eye(const app_camera *c, vec3 eye);
/* A lesson's framing camera (lesson->frame) with the user's orbit and zoom
   since the last reset applied on top, so [ ] and the wheel still work. */
void app_camera_framed(const app_camera *user, const lesson_camera *frame, app_camera *out);
/* Moves the camera sideways and up (target and eye together) so that what
   it looked at appears at (ndc_x, ndc_y) of a view of this aspect instead
   of the centre: a framed step shown in the part of the window the panels
   leave free. */
void app_camera_shift(app_camera *c, float aspect, float ndc_x, float ndc_y);
/* view and projection (RP_GL convention: glm_lookat, glm_perspective) */
void app_camera_matrices(const app_camera *c, float aspect, mat4 view, mat4 proj);

#define APP_CAMERA_NEAR 0.1f
#define APP_CAMERA_FAR  250.0f

#endif

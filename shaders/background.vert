#version 330 core
// The background: a grid of quads covering the screen at the far plane.
// Everything is computed per vertex and interpolated, so the fragment
// shader has nothing to do (on a software rasteriser the background covers
// most of the screen): the vertical gradient, a soft vignette, and, when
// asked, a ground plane (y = u_ground_y) glowing faintly around the origin
// for the shadows and the grid to sit on.
layout(location = 0) in vec2 a_ndc;
uniform vec3 u_top;
uniform vec3 u_bottom;
uniform bool u_ground;
uniform float u_ground_y;
uniform mat4 u_inv_view_proj;
uniform vec3 u_eye;
out vec3 v_color;

void main()
{
    vec2 uv = a_ndc * 0.5 + 0.5;
    vec3 c = mix(u_bottom, u_top, smoothstep(0.0, 1.0, uv.y));
    if (u_ground) {
        vec4 far = u_inv_view_proj * vec4(a_ndc, 1.0, 1.0);
        vec3 dir = far.xyz / far.w - u_eye;
        if (dir.y < 0.0 && u_eye.y > u_ground_y) {
            vec3 hit = u_eye + dir * ((u_ground_y - u_eye.y) / dir.y);
            float glow = 1.0 - smoothstep(4.0, 38.0, length(hit.xz));
            c = mix(c, vec3(0.13, 0.15, 0.21), glow * 0.9);
        }
    }
    vec2 d = uv - 0.5;
    v_color = c * (1.0 - 0.35 * dot(d, d));
    gl_Position = vec4(a_ndc, 1.0, 1.0);
}

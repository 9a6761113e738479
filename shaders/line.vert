#version 330 core
// Round points and camera-facing quads (beams) with per-vertex colour.
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec4 a_color;
layout(location = 2) in float a_extra;  // beams: -1..1 across; points: size in pixels
uniform mat4 u_view_proj;
out vec4 v_color;
out float v_edge;

void main()
{
    v_color = a_color;
    v_edge = a_extra;
    gl_PointSize = max(a_extra, 1.0);
    gl_Position = u_view_proj * vec4(a_position, 1.0);
}

#version 330 core
// The cached figure layer (figure.c): a textured quad in drawable pixels,
// top-left origin.
layout(location = 0) in vec2 a_position;
layout(location = 1) in vec2 a_uv;
uniform vec2 u_screen;
out vec2 v_uv;

void main()
{
    v_uv = a_uv;
    vec2 ndc = a_position / u_screen * 2.0 - 1.0;
    gl_Position = vec4(ndc.x, -ndc.y, 0.0, 1.0);
}

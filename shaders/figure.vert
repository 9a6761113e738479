#version 330 core
// 2D figures (insets) in drawable pixels, top-left origin (figure.c).
layout(location = 0) in vec2 a_position;
layout(location = 1) in vec4 a_color;
uniform vec2 u_screen;
out vec4 v_color;

void main()
{
    v_color = a_color;
    vec2 ndc = a_position / u_screen * 2.0 - 1.0;
    gl_Position = vec4(ndc.x, -ndc.y, 0.0, 1.0);
}

#version 330 core
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
uniform mat4 u_view_proj;
uniform vec2 u_height_range;   // lowest, highest world y
out vec3 v_world;
out vec3 v_normal;
out float v_height;            // 0 at the lowest sample, 1 at the highest

void main()
{
    v_world = a_position;
    v_normal = a_normal;
    v_height = clamp((a_position.y - u_height_range.x) /
                     max(u_height_range.y - u_height_range.x, 1e-4), 0.0, 1.0);
    gl_Position = u_view_proj * vec4(a_position, 1.0);
}

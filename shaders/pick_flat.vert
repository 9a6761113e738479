#version 330 core
// The ID pass without gl_PrimitiveID (the OpenGL ES 3 / WebGL 2 path): a
// non-indexed copy of the mesh whose three vertices of triangle i carry i.
layout(location = 0) in vec3 a_position;
layout(location = 3) in uint a_triangle;
uniform mat4 u_model;
uniform mat4 u_view_proj;
flat out uint v_triangle;

void main()
{
    v_triangle = a_triangle;
    gl_Position = u_view_proj * (u_model * vec4(a_position, 1.0));
}

#version 330 core
// The fresnel term is computed per vertex: the meshes are fine enough for it
// to look smooth, and a software rasteriser shades large translucent
// shields much faster without a normalize and a pow per pixel.
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
uniform mat4 u_model;
uniform mat3 u_normal_matrix;
uniform mat4 u_view_proj;
uniform vec3 u_eye;
#ifndef GLASS
out vec3 v_world;
#endif
out float v_fresnel;

void main()
{
    vec4 world = u_model * vec4(a_position, 1.0);
#ifndef GLASS
    v_world = world.xyz;
#endif
    vec3 n = normalize(u_normal_matrix * a_normal);
    float facing = 1.0 - abs(dot(n, normalize(u_eye - world.xyz)));
    v_fresnel = facing * facing * facing;
    gl_Position = u_view_proj * world;
}

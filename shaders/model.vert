#version 330 core
// Lesson 5's model: position, normal and the texture coordinates tu/tv.
// Lit per vertex (a tessellated mesh is fine-grained enough, and a software
// rasteriser pays per pixel): the normal turned towards the eye, so a back
// face of an open model is lit like its front.
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec2 a_uv;
uniform mat4 u_model;
uniform mat3 u_normal_matrix;
uniform mat4 u_view_proj;
uniform vec3 u_eye;
uniform vec3 u_light_dir;   // towards the light, unit
out vec3 v_light;           // multiplies the albedo
out vec3 v_specular;        // added
out vec2 v_uv;

void main()
{
    vec4 world = u_model * vec4(a_position, 1.0);
    vec3 n = normalize(u_normal_matrix * a_normal);
    vec3 v = normalize(u_eye - world.xyz);
    if (dot(n, v) < 0.0)
        n = -n;
    float hemi = 0.5 + 0.5 * n.y;
    vec3 ambient = mix(vec3(0.10, 0.09, 0.12), vec3(0.28, 0.32, 0.40), hemi);
    float diffuse = max(dot(n, u_light_dir) * 0.8 + 0.2, 0.0);
    vec3 h = normalize(u_light_dir + v);
    v_light = ambient + diffuse * vec3(1.0, 0.96, 0.9);
    v_specular = vec3(pow(max(dot(n, h), 0.0), 40.0) * 0.35);
    v_uv = a_uv;
    gl_Position = u_view_proj * world;
}

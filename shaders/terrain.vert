#version 330 core
// Height colour, light and fog per vertex: the grid is fine enough, and a
// software rasteriser fills the whole screen with terrain.
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
uniform mat4 u_view_proj;
uniform vec2 u_height_range;   // lowest, highest world y
uniform vec3 u_eye;
uniform vec3 u_light_dir;
uniform vec3 u_fog_color;
out vec3 v_color;

vec3 ramp(float h)
{
    vec3 low = vec3(0.20, 0.42, 0.55);
    vec3 grass = vec3(0.36, 0.62, 0.30);
    vec3 rock = vec3(0.62, 0.52, 0.40);
    vec3 snow = vec3(0.92, 0.93, 0.96);
    if (h < 0.25) return mix(low, grass, h / 0.25);
    if (h < 0.65) return mix(grass, rock, (h - 0.25) / 0.40);
    return mix(rock, snow, smoothstep(0.65, 0.9, h));
}

void main()
{
    float h = clamp((a_position.y - u_height_range.x) /
                    max(u_height_range.y - u_height_range.x, 1e-4), 0.0, 1.0);
    vec3 n = normalize(a_normal);
    float diffuse = max(dot(n, u_light_dir), 0.0);
    float hemi = 0.5 + 0.5 * n.y;
    vec3 c = ramp(h) * (0.30 + 0.25 * hemi + 0.85 * diffuse);
    vec3 d = a_position - u_eye;
    float fog = 1.0 - exp(-0.0009 * dot(d, d));
    v_color = mix(c, u_fog_color, clamp(fog, 0.0, 0.7));
    gl_Position = u_view_proj * vec4(a_position, 1.0);
}

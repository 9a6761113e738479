#version 330 core
// Height-coloured terrain: water-blue lowlands, grass, rock, snow; soft
// directional light and distance fog towards the background colour.
in vec3 v_world;
in vec3 v_normal;
in float v_height;
uniform vec3 u_eye;
uniform vec3 u_light_dir;
uniform vec3 u_fog_color;
out vec4 frag_color;

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
    vec3 n = normalize(v_normal);
    float diffuse = max(dot(n, u_light_dir), 0.0);
    float hemi = 0.5 + 0.5 * n.y;
    vec3 c = ramp(v_height) * (0.30 + 0.25 * hemi + 0.85 * diffuse);
    // faint contour lines every unit of height
    float contour = abs(fract(v_world.y) - 0.5);
    c *= 0.93 + 0.07 * smoothstep(0.0, 0.04, 0.5 - contour);
    float fog = 1.0 - exp(-0.0009 * dot(v_world - u_eye, v_world - u_eye));
    frag_color = vec4(mix(c, u_fog_color, clamp(fog, 0.0, 0.7)), 1.0);
}

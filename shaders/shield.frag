#version 330 core
// Translucent energy shield: a fresnel rim, and for every recent impact a
// bright spot at the impact point plus a ring that expands over the surface
// and fades out.
#define MAX_IMPACTS 8
in vec3 v_world;
in vec3 v_normal;
uniform vec4 u_color;
uniform vec3 u_eye;
uniform float u_time;
uniform vec4 u_impacts[MAX_IMPACTS];   // xyz = world point, w = start time (< 0: unused)
uniform int u_impact_count;
uniform float u_lifetime;
uniform float u_ripple_speed;
out vec4 frag_color;

void main()
{
    vec3 n = normalize(v_normal);
    if (!gl_FrontFacing)
        n = -n;
    vec3 v = normalize(u_eye - v_world);
    float fresnel = pow(1.0 - abs(dot(n, v)), 3.0);
    float glow = 0.0;
    for (int i = 0; i < u_impact_count; ++i) {
        float age = u_time - u_impacts[i].w;
        if (u_impacts[i].w < 0.0 || age < 0.0 || age > u_lifetime)
            continue;
        float fade = 1.0 - age / u_lifetime;
        float d = distance(v_world, u_impacts[i].xyz);
        float ring = (d - age * u_ripple_speed) / 0.18;
        glow += exp(-ring * ring) * fade * fade * 0.9;
        glow += exp(-d * d * 6.0) * fade * 1.4;
    }
    vec3 c = u_color.rgb * (0.35 + 1.4 * fresnel) + vec3(0.9, 0.95, 1.0) * glow;
    float a = clamp(u_color.a + 0.55 * fresnel + glow, 0.0, 1.0);
    frag_color = vec4(c, a);
}

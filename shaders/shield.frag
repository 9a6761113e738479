#version 330 core
// Translucent energy shield: a fresnel rim, and for every recent impact a
// bright spot at the impact point plus a ring that expands over the surface
// and fades out. Built with GLASS: the rim alone (a surface without live
// impacts, the same colours), a cheaper pixel for a software rasteriser.
#define MAX_IMPACTS 8
in float v_fresnel;
uniform vec4 u_color;
out vec4 frag_color;
#ifndef GLASS
in vec3 v_world;
uniform float u_time;
uniform vec4 u_impacts[MAX_IMPACTS];   // xyz = world point, w = start time
uniform int u_impact_count;            // the live ones, first in the array
uniform float u_lifetime;
uniform float u_ripple_speed;
#endif

void main()
{
    float glow = 0.0;
#ifndef GLASS
    for (int i = 0; i < u_impact_count; ++i) {
        float age = u_time - u_impacts[i].w;
        float fade = 1.0 - age / u_lifetime;
        float d = distance(v_world, u_impacts[i].xyz);
        float ring = (d - age * u_ripple_speed) / 0.18;
        glow += exp(-ring * ring) * fade * fade * 0.9;
        glow += exp(-d * d * 6.0) * fade * 1.4;
    }
#endif
    vec3 c = u_color.rgb * (0.35 + 1.4 * v_fresnel) + vec3(0.9, 0.95, 1.0) * glow;
    float a = clamp(u_color.a + 0.55 * v_fresnel + glow, 0.0, 1.0);
    frag_color = vec4(c, a);
}

#version 330 core
in vec4 v_color;
in float v_edge;
uniform bool u_round_points;
uniform bool u_beam;
out vec4 frag_color;

void main()
{
    float a = v_color.a;
    vec3 c = v_color.rgb;
    if (u_round_points) {
        vec2 d = gl_PointCoord * 2.0 - 1.0;
        float r2 = dot(d, d);
        if (r2 > 1.0)
            discard;
        a *= smoothstep(1.0, 0.55, r2);
        c = mix(c, vec3(1.0), 0.5 * smoothstep(0.35, 0.0, r2));
    }
    if (u_beam) {
        // a white-hot core fading to the beam colour at the soft edges
        float core = 1.0 - v_edge * v_edge;
        c = mix(c, vec3(1.0, 0.97, 0.9), 0.75 * pow(core, 10.0));
        a *= core * core;
    }
    frag_color = vec4(c, a);
}

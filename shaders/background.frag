#version 330 core
// Dark vertical gradient with a soft vignette.
in vec2 v_uv;
uniform vec3 u_top;
uniform vec3 u_bottom;
out vec4 frag_color;

void main()
{
    vec3 c = mix(u_bottom, u_top, smoothstep(0.0, 1.0, v_uv.y));
    vec2 d = v_uv - 0.5;
    c *= 1.0 - 0.35 * dot(d, d);
    frag_color = vec4(c, 1.0);
}

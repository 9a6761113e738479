#version 330 core
// Dark vertical gradient with a soft vignette; optionally a ground plane
// (y = u_ground_y) that glows faintly around the origin, so that shadows
// and the grid have something to sit on. Drawn behind everything else.
in vec2 v_ndc;
uniform vec3 u_top;
uniform vec3 u_bottom;
uniform bool u_ground;
uniform float u_ground_y;
uniform mat4 u_inv_view_proj;
uniform vec3 u_eye;
out vec4 frag_color;

void main()
{
    vec2 uv = v_ndc * 0.5 + 0.5;
    vec3 c = mix(u_bottom, u_top, smoothstep(0.0, 1.0, uv.y));
    if (u_ground) {
        vec4 far = u_inv_view_proj * vec4(v_ndc, 1.0, 1.0);
        vec3 dir = far.xyz / far.w - u_eye;
        if (dir.y < 0.0 && u_eye.y > u_ground_y) {
            vec3 hit = u_eye + dir * ((u_ground_y - u_eye.y) / dir.y);
            float glow = 1.0 - smoothstep(4.0, 38.0, length(hit.xz));
            c = mix(c, vec3(0.13, 0.15, 0.21), glow * 0.9);
        }
    }
    vec2 d = uv - 0.5;
    c *= 1.0 - 0.35 * dot(d, d);
    frag_color = vec4(c, 1.0);
}

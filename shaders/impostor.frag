#version 330 core
// The pixel's ray against the unit sphere (an ellipsoid once scaled) or the
// unit cube [-1, 1]^3 (a box), in the shape's own space: the first surface
// point gives the normal and, with EXACT_DEPTH (quads: large or near
// copies), the depth; points (at most a few dozen pixels wide) keep the
// depth of their bound's front, so the depth test runs before this shader
// and hidden pixels are not shaded. A miss leaves the pixel alone. Lit as
// instanced.frag. With the eye inside the shape the ray hits its far side,
// as the library's ray from inside does (t_exit), lit as seen from inside;
// what lies nearer than the near plane is clipped, as a mesh's would be.
// With PICK_ID (the GPU pick pass, render_pick_instances) the pixel gets
// the copy's id instead of a colour: u_id + its index, stored + 1 as
// pick.frag does, beside the exact depth's float bits; the exact depth
// also goes to the depth test, so of overlapping copies the nearest
// surface wins, as it does for a ray.
#ifdef PICK_ID
#define EXACT_DEPTH
#endif
flat in vec3 v_base;
flat in vec3 v_dx;
flat in vec3 v_dy;
flat in vec3 v_origin;
flat in vec4 v_rotation;
flat in vec3 v_scale;
flat in vec4 v_color;
uniform mat4 u_view_proj;
uniform vec3 u_eye;
uniform vec3 u_light_dir;   // towards the light, unit
uniform int u_box;          // 1: boxes, 0: ellipsoids
uniform vec3 u_ray_base;
uniform vec3 u_ray_dx;
uniform vec3 u_ray_dy;
#ifdef PICK_ID
flat in uint v_index;
uniform uint u_id;
out uvec4 frag_id;
#else
out vec4 frag_color;
#endif

vec3 rotate(vec4 q, vec3 v)
{
    return v + 2.0 * cross(q.xyz, cross(q.xyz, v) + q.w * v);
}

void main()
{
    vec3 o = v_origin;
    vec3 d = v_base + gl_FragCoord.x * v_dx + gl_FragCoord.y * v_dy;
    float t;
    vec3 n;
    if (u_box == 1) {
        // slabs; a zero component of d becomes a tiny one of its sign (GLSL
        // leaves 1 / 0 undefined)
        vec3 sign_d = vec3(greaterThanEqual(d, vec3(0.0))) * 2.0 - 1.0;
        vec3 inv = sign_d / max(abs(d), vec3(1e-30));
        vec3 t0 = (-1.0 - o) * inv;
        vec3 t1 = (1.0 - o) * inv;
        vec3 near3 = min(t0, t1);
        vec3 far3 = max(t0, t1);
        t = max(max(near3.x, near3.y), near3.z);
        float t_far = min(min(far3.x, far3.y), far3.z);
        if (t > t_far || t_far < 0.0)
            discard;
        if (t >= 0.0) {
            // the face entered last; its outward normal faces the ray
            n = vec3(equal(near3, vec3(t))) * -sign_d;
        } else {
            // the eye inside: the face it leaves by, as the library's ray
            // from inside hits it (t_exit)
            t = t_far;
            n = vec3(equal(far3, vec3(t))) * sign_d;
        }
    } else {
        float a = dot(d, d);
        float b = dot(o, d);
        float c = dot(o, o) - 1.0;
        float disc = b * b - a * c;
        if (disc < 0.0)
            discard;
        t = (-b - sqrt(disc)) / a;
        if (t < 0.0)
            t = (-b + sqrt(disc)) / a;  // the eye inside: the far side (t_exit)
        if (t < 0.0)
            discard;
        n = (o + t * d) / v_scale;   // the ellipsoid's gradient
    }
    vec3 world_dir = u_ray_base + gl_FragCoord.x * u_ray_dx + gl_FragCoord.y * u_ray_dy;
#ifdef EXACT_DEPTH
    vec4 clip = u_view_proj * vec4(u_eye + t * world_dir, 1.0);
    if (clip.z < -clip.w)
        discard;    // nearer than the near plane: clipped, as a mesh would be
    float depth = 0.5 + 0.5 * clip.z / clip.w;
    gl_FragDepth = depth;
#endif
#ifdef PICK_ID
    frag_id = uvec4(u_id + 1u + v_index, floatBitsToUint(depth), 0u, 0u);
#else
    n = normalize(rotate(v_rotation, n));
    vec3 v = normalize(-world_dir);
    n = dot(n, v) < 0.0 ? -n : n;   // seen from inside: lit as the side facing the eye
    float hemi = 0.5 + 0.5 * n.y;
    vec3 ambient = mix(vec3(0.10, 0.09, 0.12), vec3(0.28, 0.32, 0.40), hemi);
    float diffuse = max(dot(n, u_light_dir) * 0.8 + 0.2, 0.0);
    vec3 h = normalize(u_light_dir + v);
    // x^40 by squaring: llvmpipe evaluates pow as a log and an exp
    float x = max(dot(n, h), 0.0);
    float x5 = x * x;
    x5 = x5 * x5 * x;
    float x10 = x5 * x5;
    float x20 = x10 * x10;
    float spec = x20 * x20 * 0.35;
    frag_color = vec4(v_color.rgb * (ambient + diffuse * vec3(1.0, 0.96, 0.9)) + spec, 1.0);
#endif
}

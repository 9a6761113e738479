#version 330 core
// lit.frag's light (hemisphere ambient, wrapped diffuse, a little
// specular) with the colour each instance brings.
in vec3 v_world;
in vec3 v_normal;
in vec4 v_color;
uniform vec3 u_eye;
uniform vec3 u_light_dir;   // towards the light, unit
#ifdef PICK_ID
// the ID pass (render_pick_instances): u_id + the copy's index, stored + 1,
// and the depth's float bits, as pick.frag writes them
flat in uint v_index;
uniform uint u_id;
out uvec4 frag_id;
#else
out vec4 frag_color;
#endif

void main()
{
#ifdef PICK_ID
    frag_id = uvec4(u_id + 1u + v_index, floatBitsToUint(gl_FragCoord.z), 0u, 0u);
#else
    vec3 n = normalize(v_normal);
    vec3 v = normalize(u_eye - v_world);
    float hemi = 0.5 + 0.5 * n.y;
    vec3 ambient = mix(vec3(0.10, 0.09, 0.12), vec3(0.28, 0.32, 0.40), hemi);
    float diffuse = max(dot(n, u_light_dir) * 0.8 + 0.2, 0.0);
    vec3 h = normalize(u_light_dir + v);
    float spec = pow(max(dot(n, h), 0.0), 40.0) * 0.35;
    frag_color = vec4(v_color.rgb * (ambient + diffuse * vec3(1.0, 0.96, 0.9)) + spec, 1.0);
#endif
}

#version 330 core
// Lit like lit.frag, the colour modulated by a checker of the texture
// coordinates: a click's interpolated tu/tv can be read off the squares.
in vec3 v_world;
in vec3 v_normal;
in vec2 v_uv;
uniform vec4 u_color;
uniform vec3 u_eye;
uniform vec3 u_light_dir;   // towards the light, unit
uniform float u_checks;     // squares per unit of tu/tv; 0 = plain
out vec4 frag_color;

void main()
{
    vec3 n = normalize(v_normal);
    if (!gl_FrontFacing)
        n = -n;
    vec3 v = normalize(u_eye - v_world);
    float hemi = 0.5 + 0.5 * n.y;
    vec3 ambient = mix(vec3(0.10, 0.09, 0.12), vec3(0.28, 0.32, 0.40), hemi);
    float diffuse = max(dot(n, u_light_dir) * 0.8 + 0.2, 0.0);
    vec3 h = normalize(u_light_dir + v);
    float spec = pow(max(dot(n, h), 0.0), 40.0) * 0.35;
    vec2 cell = floor(v_uv * u_checks);
    float check = u_checks > 0.0 ? mod(cell.x + cell.y, 2.0) : 0.0;
    vec3 albedo = u_color.rgb * (1.0 - 0.35 * check);
    frag_color = vec4(albedo * (ambient + diffuse * vec3(1.0, 0.96, 0.9)) + spec, u_color.a);
}

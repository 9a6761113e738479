#version 330 core
// The colour modulated by a checker of the texture coordinates: a click's
// interpolated tu/tv can be read off the squares.
in vec3 v_light;
in vec3 v_specular;
in vec2 v_uv;
uniform vec4 u_color;
uniform float u_checks;     // squares per unit of tu/tv; 0 = plain
out vec4 frag_color;

void main()
{
    vec2 cell = floor(v_uv * u_checks);
    float check = u_checks > 0.0 ? mod(cell.x + cell.y, 2.0) : 0.0;
    vec3 albedo = u_color.rgb * (1.0 - 0.35 * check);
    frag_color = vec4(albedo * v_light + v_specular, u_color.a);
}

#version 330 core
// Height-coloured, lit terrain: everything is computed per vertex (see
// terrain.vert), so a software rasteriser only interpolates.
in vec3 v_color;
out vec4 frag_color;

void main()
{
    frag_color = vec4(v_color, 1.0);
}

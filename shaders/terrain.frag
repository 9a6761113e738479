#version 330 core
// Height-coloured, lit terrain (see terrain.vert) with faint contour lines
// every unit of height.
in vec3 v_color;
in float v_y;
out vec4 frag_color;

void main()
{
    float contour = 0.5 - abs(fract(v_y) - 0.5);
    frag_color = vec4(v_color * (0.93 + 0.07 * smoothstep(0.0, 0.04, contour)), 1.0);
}

#version 330 core
// premultiplied colour: the layer was drawn onto transparent black
uniform sampler2D u_layer;
in vec2 v_uv;
out vec4 frag_color;

void main()
{
    frag_color = texture(u_layer, v_uv);
}

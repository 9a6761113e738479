#version 330 core
// A glyph's coverage from the atlas (text.c), or a solid quad (a panel,
// the built-in font's strokes) where u is negative.
uniform sampler2D u_atlas;
in vec2 v_uv;
in vec4 v_color;
out vec4 frag_color;

void main()
{
    float cover = v_uv.x < 0.0 ? 1.0 : texture(u_atlas, v_uv).r;
    frag_color = vec4(v_color.rgb, v_color.a * cover);
}

#version 330 core
// The ID pass: an object writes its id, or a mesh writes base + the index
// of the triangle (gl_PrimitiveID counts the triangles of the draw call in
// order, which for GL_TRIANGLES is the index buffer's triangle order).
// 0 is kept for "nothing": the stored value is id + 1. The second channel
// carries the fragment's depth as float bits: OpenGL ES 3 / WebGL 2 cannot
// read a depth attachment back, but every GL reads RGBA32UI.
uniform uint u_id;
uniform bool u_per_triangle;
out uvec4 frag_id;

void main()
{
#ifdef GL_ES
    uint triangle = 0u;     // GLSL ES has no gl_PrimitiveID: meshes use pick_flat there
#else
    uint triangle = u_per_triangle ? uint(gl_PrimitiveID) : 0u;
#endif
    frag_id = uvec4(u_id + 1u + triangle, floatBitsToUint(gl_FragCoord.z), 0u, 0u);
}

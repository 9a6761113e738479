#version 330 core
// The ID pass: an object writes its id, or a mesh writes base + the index
// of the triangle (gl_PrimitiveID counts the triangles of the draw call in
// order, which for GL_TRIANGLES is the index buffer's triangle order).
// 0 is kept for "nothing": the stored value is id + 1.
uniform uint u_id;
uniform bool u_per_triangle;
out uint frag_id;

void main()
{
    frag_id = u_id + 1u + (u_per_triangle ? uint(gl_PrimitiveID) : 0u);
}

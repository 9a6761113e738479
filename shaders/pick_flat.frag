#version 330 core
// The ID pass for a mesh drawn from its non-indexed copy (pick_flat.vert):
// the triangle's index arrives as a flat attribute. Same layout as
// pick.frag: id + 1, then the depth as float bits.
uniform uint u_id;
flat in uint v_triangle;
out uvec4 frag_id;

void main()
{
    frag_id = uvec4(u_id + 1u + v_triangle, floatBitsToUint(gl_FragCoord.z), 0u, 0u);
}

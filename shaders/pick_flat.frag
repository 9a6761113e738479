#version 330 core
uniform uint u_id;
flat in uint v_triangle;
out uint frag_id;

void main()
{
    frag_id = u_id + 1u + v_triangle;
}

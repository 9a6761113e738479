#version 330 core
// Many copies of one shape (render_list_instances): each instance brings
// its position, per-axis scale, rotation (unit quaternion x y z w) and
// colour; the shape's vertices are shared.
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec3 i_position;
layout(location = 3) in vec3 i_scale;
layout(location = 4) in vec4 i_rotation;
layout(location = 5) in vec4 i_color;
uniform mat4 u_view_proj;
#ifdef PICK_ID
// the ID pass (render_pick_instances): the copy's index in the listed
// instances, uploaded beside the few copies the pass draws
layout(location = 6) in uint i_index;
flat out uint v_index;
#endif
out vec3 v_world;
out vec3 v_normal;
out vec4 v_color;

// q v q* without building a matrix
vec3 rotate(vec4 q, vec3 v)
{
    return v + 2.0 * cross(q.xyz, cross(q.xyz, v) + q.w * v);
}

void main()
{
    vec3 world = i_position + rotate(i_rotation, a_position * i_scale);
    v_world = world;
    // a non-uniform scale bends normals the inverse way
    v_normal = rotate(i_rotation, a_normal / i_scale);
    v_color = i_color;
#ifdef PICK_ID
    v_index = i_index;
#endif
    gl_Position = u_view_proj * vec4(world, 1.0);
}

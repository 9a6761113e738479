#version 330 core
// Sphere, ellipsoid and box copies as impostors (impostor.c, render_draw_impostors):
// one point sprite per copy covering its bounding sphere on screen (u_quads
// 0: a plain draw, one vertex per copy), or a camera-facing quad from
// gl_VertexID when too large for a point (u_quads 1: instanced).
// impostor.frag casts the pixel's ray at the exact shape. llvmpipe pays
// about a microsecond per instance of an instanced draw, and per vertex and
// triangle of a mesh; a point is one vertex in one plain draw.
layout(location = 2) in vec3 i_position;
layout(location = 3) in vec3 i_scale;
layout(location = 4) in vec4 i_rotation;
layout(location = 5) in vec4 i_color;
uniform mat4 u_view_proj;
uniform vec3 u_eye;
uniform vec2 u_screen;      // viewport pixels
uniform int u_box;          // 1: boxes, 0: ellipsoids (spheres included)
uniform int u_quads;
// the world ray through window pixel (x, y): u_ray_base + x u_ray_dx + y u_ray_dy
uniform vec3 u_ray_base;
uniform vec3 u_ray_dx;
uniform vec3 u_ray_dy;
#ifdef PICK_ID
// the ID pass (render_pick_instances): the copy's index in the listed
// instances, which the pass uploads beside the few copies it draws
layout(location = 6) in uint i_index;
flat out uint v_index;
#endif
// the same three vectors and the eye in the unit shape's space
flat out vec3 v_base;
flat out vec3 v_dx;
flat out vec3 v_dy;
flat out vec3 v_origin;
flat out vec4 v_rotation;
flat out vec3 v_scale;
flat out vec4 v_color;

// q v q* without building a matrix
vec3 rotate(vec4 q, vec3 v)
{
    return v + 2.0 * cross(q.xyz, cross(q.xyz, v) + q.w * v);
}

vec2 to_pixels(vec4 clip)
{
    return (clip.xy / clip.w * 0.5 + 0.5) * u_screen;
}

void main()
{
    float radius = u_box == 1 ? length(i_scale) : max(i_scale.x, max(i_scale.y, i_scale.z));
    vec3 to_center = i_position - u_eye;
    float d = length(to_center);
    vec4 inverse_rotation = vec4(-i_rotation.xyz, i_rotation.w);
    v_base = rotate(inverse_rotation, u_ray_base) / i_scale;
    v_dx = rotate(inverse_rotation, u_ray_dx) / i_scale;
    v_dy = rotate(inverse_rotation, u_ray_dy) / i_scale;
    v_origin = rotate(inverse_rotation, -to_center) / i_scale;
    v_rotation = i_rotation;
    v_scale = i_scale;
    v_color = i_color;
#ifdef PICK_ID
    v_index = i_index;
#endif
    gl_PointSize = 1.0;
    if (d <= radius * 1.001) {
        // the eye inside the bound (or nearly): no square faces it, so a
        // quad covers the whole view and impostor.frag finds the shape in
        // it; the renderer sends such copies as quads, never as points
        vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1)) * 2.0 - 1.0;
        gl_Position = u_quads == 1 ? vec4(corner, 0.0, 1.0) : vec4(2.0, 2.0, 2.0, 1.0);
        return;
    }
    // a square facing the eye that holds the silhouette cone's circle in
    // the plane through the centre
    vec3 f = to_center / d;
    vec3 side = normalize(cross(f, abs(f.y) < 0.99 ? vec3(0.0, 1.0, 0.0) : vec3(1.0, 0.0, 0.0)));
    vec3 up = cross(side, f);
    float half_size = radius * d / sqrt(d * d - radius * radius);
    side *= half_size;
    up *= half_size;
    if (u_quads == 1) {
        vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1)) * 2.0 - 1.0;
        gl_Position = u_view_proj * vec4(i_position + corner.x * side + corner.y * up, 1.0);
        return;
    }
    // a point on the centre, as wide as that square's projected corners reach
    vec4 center = u_view_proj * vec4(i_position, 1.0);
    vec4 c0 = u_view_proj * vec4(i_position - side - up, 1.0);
    vec4 c1 = u_view_proj * vec4(i_position + side - up, 1.0);
    vec4 c2 = u_view_proj * vec4(i_position - side + up, 1.0);
    vec4 c3 = u_view_proj * vec4(i_position + side + up, 1.0);
    if (min(min(c0.w, c1.w), min(c2.w, c3.w)) <= 0.0) {
        gl_Position = vec4(2.0, 2.0, 2.0, 1.0);   // the renderer sends these as quads
        return;
    }
    vec2 p = to_pixels(center);
    vec2 reach = max(max(abs(to_pixels(c0) - p), abs(to_pixels(c1) - p)),
                     max(abs(to_pixels(c2) - p), abs(to_pixels(c3) - p)));
    gl_PointSize = 2.0 * max(reach.x, reach.y) + 1.0;
    // the point's depth: the bound's front (impostor.frag keeps it)
    vec4 front = u_view_proj * vec4(i_position - f * radius, 1.0);
    gl_Position = vec4(center.xy / center.w, front.z / front.w, 1.0);
}

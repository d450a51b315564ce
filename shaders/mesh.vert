#version 330 core
// Instanced spheres and tapered bones from one mesh shader.
// u_kind 0: sphere; the mesh is a unit sphere, the instance gives centre (a.xyz) and radius (a.w).
// u_kind 1: bone; the mesh is a unit cylinder with y in [0, 1]; the instance gives the start
//           (a.xyz), start radius (a.w), end (b.xyz) and end radius (b.w).
// u_kind 2: ground shadow; a disc on y = 0 of centre a.xz and radius a.w (a unit quad).
layout(location = 0) in vec3 in_position;
layout(location = 1) in vec3 in_normal;
layout(location = 2) in vec4 in_a;
layout(location = 3) in vec4 in_b;
layout(location = 4) in vec4 in_color;

uniform mat4 u_view_projection;
uniform int u_kind;

out vec3 v_world;
out vec3 v_normal;
out vec4 v_color;
out vec2 v_local;

void main() {
  vec3 world;
  vec3 normal;
  v_local = in_position.xz;
  if (u_kind == 1) {
    vec3 axis = in_b.xyz - in_a.xyz;
    float len = max(length(axis), 1e-6);
    vec3 dir = axis / len;
    // A stable perpendicular basis around the bone's axis.
    vec3 helper = abs(dir.y) < 0.9 ? vec3(0.0, 1.0, 0.0) : vec3(1.0, 0.0, 0.0);
    vec3 u = normalize(cross(dir, helper));
    vec3 w = cross(dir, u);
    float radius = mix(in_a.w, in_b.w, in_position.y);
    vec3 radial = u * in_position.x + w * in_position.z;
    world = in_a.xyz + axis * in_position.y + radial * radius;
    // Tapered cylinder: tilt the radial normal by the slope of the radius.
    normal = normalize(radial - dir * (in_b.w - in_a.w) / len);
  } else if (u_kind == 2) {
    float r = in_a.w;  // the footprint, already spread by the height on the CPU
    world = vec3(in_a.x + in_position.x * r, 0.002, in_a.z + in_position.z * r);
    normal = vec3(0.0, 1.0, 0.0);
  } else {
    world = in_a.xyz + in_position * in_a.w;
    normal = in_normal;
  }
  v_world = world;
  v_normal = normal;
  v_color = in_color;
  gl_Position = u_view_projection * vec4(world, 1.0);
}

#version 330 core
// Lit surfaces (terrain, the walker's body): one indexed mesh, placed by u_model.
layout(location = 0) in vec3 in_position;
layout(location = 1) in vec3 in_normal;

uniform mat4 u_model;
uniform mat4 u_view_projection;

out vec3 v_world;
out vec3 v_normal;

void main() {
  vec4 world = u_model * vec4(in_position, 1.0);
  v_world = world.xyz;
  // Models are rotations times non-uniform scales: the inverse transpose keeps normals true.
  v_normal = mat3(transpose(inverse(u_model))) * in_normal;
  gl_Position = u_view_projection * world;
}

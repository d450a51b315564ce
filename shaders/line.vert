#version 330 core
// Coloured lines: grid, axes, curves, helper lines.
layout(location = 0) in vec3 in_position;
layout(location = 1) in vec4 in_color;
uniform mat4 u_view_projection;
out vec4 v_color;
out vec3 v_world;
void main() {
  v_color = in_color;
  v_world = in_position;
  gl_Position = u_view_projection * vec4(in_position, 1.0);
}

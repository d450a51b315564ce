#version 330 core
in vec2 v_uv;
uniform vec3 u_top;
uniform vec3 u_bottom;
out vec4 out_color;
void main() {
  out_color = vec4(mix(u_bottom, u_top, clamp(v_uv.y, 0.0, 1.0)), 1.0);
}

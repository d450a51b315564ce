#version 330 core
// Lines fade out with distance from u_fade_centre (0 disables), so the grid has no hard edge.
in vec4 v_color;
in vec3 v_world;
uniform vec3 u_fade_centre;
uniform float u_fade_radius;
out vec4 out_color;
void main() {
  float a = v_color.a;
  if (u_fade_radius > 0.0) {
    float d = length(v_world.xz - u_fade_centre.xz) / u_fade_radius;
    a *= clamp(1.0 - d * d, 0.0, 1.0);
  }
  out_color = vec4(v_color.rgb, a);
}

#version 330 core
// Same lights as mesh.frag (hemisphere ambient, key, fill, Blinn-Phong), plus a height and
// slope colour ramp and an anti-aliased world grid for the terrain.
in vec3 v_world;
in vec3 v_normal;

uniform vec3 u_eye;
uniform vec4 u_color;
uniform vec4 u_high_color;
uniform float u_ramp_height;  // 0: plain u_color
uniform float u_grid_step;    // 0: no grid
uniform vec4 u_grid_color;

out vec4 out_color;

// Coverage of grid lines `width` pixels wide every `step` units along x and z.
float GridLines(vec2 p, float step, float width) {
  vec2 c = p / step;
  vec2 w = fwidth(c);
  vec2 g = abs(fract(c - 0.5) - 0.5) / max(w, vec2(1e-6));
  float line = 1.0 - min(min(g.x, g.y) / width, 1.0);
  // Fade where the cells shrink to a few pixels, so distant grid does not shimmer.
  float fade = 1.0 - smoothstep(0.15, 0.45, max(w.x, w.y));
  return line * fade;
}

void main() {
  vec3 n = normalize(v_normal);
  if (!gl_FrontFacing) n = -n;
  vec3 v = normalize(u_eye - v_world);
  vec3 base = u_color.rgb;
  if (u_ramp_height > 0.0) {
    float h = clamp(v_world.y / u_ramp_height, 0.0, 1.0);
    float steep = smoothstep(0.92, 0.7, n.y);
    base = mix(u_color.rgb, u_high_color.rgb, clamp(h * 0.8 + steep * 0.6, 0.0, 1.0));
  }
  vec3 key_dir = normalize(vec3(0.45, 0.85, 0.35));
  vec3 fill_dir = normalize(vec3(-0.6, 0.25, -0.5));
  vec3 sky = vec3(0.62, 0.68, 0.78);
  vec3 ground = vec3(0.24, 0.22, 0.20);
  vec3 ambient = mix(ground, sky, 0.5 + 0.5 * n.y) * 0.45;
  float key = max(dot(n, key_dir), 0.0);
  float fill = max(dot(n, fill_dir), 0.0) * 0.3;
  vec3 h = normalize(key_dir + v);
  float spec = pow(max(dot(n, h), 0.0), 48.0) * (u_ramp_height > 0.0 ? 0.06 : 0.35);
  vec3 color = base * (ambient + key * 0.85 + fill) + vec3(spec);
  if (u_grid_step > 0.0) {
    float minor = GridLines(v_world.xz, u_grid_step, 1.0);
    float major = GridLines(v_world.xz, u_grid_step * 5.0, 1.5);
    float a = u_grid_color.a * max(minor * 0.6, major);
    color = mix(color, u_grid_color.rgb, a);
  }
  out_color = vec4(color, u_color.a);
}

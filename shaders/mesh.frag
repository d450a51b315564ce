#version 330 core
// Lit shading: a hemisphere ambient (sky above, ground below), one key light, a soft fill
// and a rim term, with Blinn-Phong highlights. Shell and shadow modes for the reach sphere
// and the ground blobs.
in vec3 v_world;
in vec3 v_normal;
in vec4 v_color;
in vec2 v_local;

uniform vec3 u_eye;
uniform int u_kind;   // 0 sphere, 1 bone, 2 shadow
uniform int u_shell;  // 1: draw as a translucent shell whose edges glow

out vec4 out_color;

void main() {
  if (u_kind == 2) {
    float r = length(v_local);
    float a = v_color.a * smoothstep(1.0, 0.2, r);
    out_color = vec4(v_color.rgb, a);
    return;
  }
  vec3 n = normalize(v_normal);
  vec3 v = normalize(u_eye - v_world);
  if (!gl_FrontFacing) n = -n;
  if (u_shell == 1) {
    float facing = abs(dot(n, v));
    float rim = pow(1.0 - facing, 3.0);
    out_color = vec4(v_color.rgb, v_color.a * (0.15 + 0.85 * rim));
    return;
  }
  vec3 key_dir = normalize(vec3(0.45, 0.85, 0.35));
  vec3 fill_dir = normalize(vec3(-0.6, 0.25, -0.5));
  vec3 sky = vec3(0.62, 0.68, 0.78);
  vec3 ground = vec3(0.24, 0.22, 0.20);
  vec3 ambient = mix(ground, sky, 0.5 + 0.5 * n.y) * 0.45;
  float key = max(dot(n, key_dir), 0.0);
  float fill = max(dot(n, fill_dir), 0.0) * 0.3;
  vec3 h = normalize(key_dir + v);
  float spec = pow(max(dot(n, h), 0.0), 48.0) * 0.35;
  float rim = pow(1.0 - max(dot(n, v), 0.0), 4.0) * 0.25;
  vec3 base = v_color.rgb;
  vec3 color = base * (ambient + key * 0.85 + fill) + vec3(spec) + vec3(rim);
  out_color = vec4(color, v_color.a);
}

#version 330 core
// Dual quaternion skinning (Kavan, Collins, Zara & O'Sullivan, "Geometric Skinning with
// Approximate Dual Quaternion Blending", ACM TOG 27(4), 2008) of the tube mesh: each vertex
// blends two bones. The bones come from a texture buffer, two RGBA32F texels per bone (the real
// part x, y, z, w, then the dual part x, y, z, w), so any number of bones fits in one draw call
// (no uniform-array limit). src/skin/skinning.cpp is the CPU reference of this shader.
// The outputs match mesh.frag, which lights the tube like every other mesh.
layout(location = 0) in vec3 in_position;
layout(location = 1) in vec3 in_normal;
layout(location = 2) in ivec2 in_bones;
layout(location = 3) in vec2 in_weights;

uniform mat4 u_view_projection;
uniform samplerBuffer u_bones;
uniform vec4 u_color;

out vec3 v_world;
out vec3 v_normal;
out vec4 v_color;
out vec2 v_local;

void main() {
  vec4 r0 = texelFetch(u_bones, 2 * in_bones.x);
  vec4 d0 = texelFetch(u_bones, 2 * in_bones.x + 1);
  vec4 r1 = texelFetch(u_bones, 2 * in_bones.y);
  vec4 d1 = texelFetch(u_bones, 2 * in_bones.y + 1);
  // q and -q are the same rotation; blend in one hemisphere so the sum does not cancel.
  float w1 = dot(r0, r1) < 0.0 ? -in_weights.y : in_weights.y;
  vec4 r = in_weights.x * r0 + w1 * r1;
  vec4 d = in_weights.x * d0 + w1 * d1;
  float len = max(length(r), 1e-8);
  r /= len;
  d /= len;
  vec3 p = in_position;
  p += 2.0 * cross(r.xyz, cross(r.xyz, p) + r.w * p) +
       2.0 * (r.w * d.xyz - d.w * r.xyz + cross(r.xyz, d.xyz));
  vec3 n = in_normal + 2.0 * cross(r.xyz, cross(r.xyz, in_normal) + r.w * in_normal);
  v_world = p;
  v_normal = n;
  // A paler belly along the bone-local +Z side, like a tentacle's underside: it makes the
  // twist visible (a smooth stripe when rotations are right, a jump when they are not).
  float radial = length(in_position.xz);
  float side = radial > 1e-6 ? in_position.z / radial : 0.0;
  float belly = smoothstep(0.35, 0.95, side);
  v_color = vec4(mix(u_color.rgb, vec3(0.96, 0.86, 0.80), belly * 0.75), u_color.a);
  v_local = vec2(0.0);
  gl_Position = u_view_projection * vec4(p, 1.0);
}

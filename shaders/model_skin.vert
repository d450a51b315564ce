#version 330 core
// Skinning of a loaded character (docs/characters.md) with up to four bones a vertex, by dual
// quaternions (Kavan, Collins, Zara & O'Sullivan, "Geometric Skinning with Approximate Dual
// Quaternion Blending", ACM TOG 27(4), 2008) or, with u_linear = 1, by linear blending of the
// bones' transforms. The bones come from a texture buffer as the tube's do (skin.vert): two
// RGBA32F texels per bone, the real part, then the dual part. src/character/cpu_skin.cpp is
// the CPU reference of both methods. The outputs match mesh.frag, which lights every mesh.
layout(location = 0) in vec3 in_position;
layout(location = 1) in vec3 in_normal;
layout(location = 2) in ivec4 in_bones;
layout(location = 3) in vec4 in_weights;

uniform mat4 u_view_projection;
uniform samplerBuffer u_bones;
uniform vec4 u_color;
uniform int u_linear;

out vec3 v_world;
out vec3 v_normal;
out vec4 v_color;
out vec2 v_local;

// A unit dual quaternion (r, d) applied to a point and to a direction.
vec3 MovePoint(vec4 r, vec4 d, vec3 p) {
  return p + 2.0 * cross(r.xyz, cross(r.xyz, p) + r.w * p) +
         2.0 * (r.w * d.xyz - d.w * r.xyz + cross(r.xyz, d.xyz));
}
vec3 TurnVector(vec4 r, vec3 v) { return v + 2.0 * cross(r.xyz, cross(r.xyz, v) + r.w * v); }

void main() {
  vec4 r0 = texelFetch(u_bones, 2 * in_bones.x);
  vec3 p = vec3(0.0);
  vec3 n = vec3(0.0);
  if (u_linear == 1) {
    for (int i = 0; i < 4; ++i) {
      if (in_weights[i] <= 0.0) continue;
      vec4 r = texelFetch(u_bones, 2 * in_bones[i]);
      vec4 d = texelFetch(u_bones, 2 * in_bones[i] + 1);
      p += in_weights[i] * MovePoint(r, d, in_position);
      n += in_weights[i] * TurnVector(r, in_normal);
    }
  } else {
    vec4 r = vec4(0.0);
    vec4 d = vec4(0.0);
    for (int i = 0; i < 4; ++i) {
      if (in_weights[i] <= 0.0) continue;
      vec4 ri = texelFetch(u_bones, 2 * in_bones[i]);
      vec4 di = texelFetch(u_bones, 2 * in_bones[i] + 1);
      // q and -q are the same rotation: blend in the first bone's hemisphere.
      float w = dot(r0, ri) < 0.0 ? -in_weights[i] : in_weights[i];
      r += w * ri;
      d += w * di;
    }
    float len = max(length(r), 1e-8);
    r /= len;
    d /= len;
    p = MovePoint(r, d, in_position);
    n = TurnVector(r, in_normal);
  }
  v_world = p;
  v_normal = n;
  v_color = u_color;
  v_local = vec2(0.0);
  gl_Position = u_view_projection * vec4(p, 1.0);
}

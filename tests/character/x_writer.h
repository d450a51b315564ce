// x_writer.h - small DirectX .x model files written by the character tests (text format, as
// Assimp's X importer reads it): frames with translations, one mesh with skin weights, and an
// animation. Every number is written with a decimal point (the importer refuses "1" for 1.0).
#pragma once

#include <cstdio>
#include <fstream>
#include <glm/vec3.hpp>
#include <string>
#include <vector>

namespace fabrik::character::testing {

// A float as the X format writes it ("nan" and "inf" as C's printf spells them).
inline std::string XNum(float v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6f", static_cast<double>(v));
  return buf;
}

// A FrameTransformMatrix / offset matrix body: identity rotation, translation t, row-major with
// the translation in the last row (as Direct3D writes it).
inline std::string XMatrix(const glm::vec3& t, float scale = 1.0f) {
  const std::string s = XNum(scale), z = "0.000000", o = "1.000000";
  return s + "," + z + "," + z + "," + z + "," + z + "," + s + "," + z + "," + z + "," + z + "," +
         z + "," + s + "," + z + "," + XNum(t.x) + "," + XNum(t.y) + "," + XNum(t.z) + "," + o +
         ";;";
}

struct XFrame {
  std::string name;
  glm::vec3 translation{0.0f};
  std::vector<XFrame> children;
  float scale = 1.0f;
};

inline std::string XFrameText(const XFrame& f) {
  std::string s = "Frame " + f.name + " {\n FrameTransformMatrix {\n  " +
                  XMatrix(f.translation, f.scale) + "\n }\n";
  for (const XFrame& c : f.children) s += XFrameText(c);
  return s + "}\n";
}

struct XWeights {
  std::string bone;
  std::vector<int> vertices;
  std::vector<float> weights;
  glm::vec3 bind_position{0.0f};  // the bone's model-space position in the bind pose
};

struct XMesh {
  std::string name = "Skin";
  std::vector<glm::vec3> vertices;
  std::vector<std::vector<int>> faces;
  std::vector<XWeights> skin;
};

inline std::string XMeshText(const XMesh& m) {
  std::string s = "Frame " + m.name + "Node {\n Mesh " + m.name + " {\n  " +
                  std::to_string(m.vertices.size()) + ";\n";
  for (std::size_t i = 0; i < m.vertices.size(); ++i) {
    const glm::vec3& v = m.vertices[i];
    s += "  " + XNum(v.x) + ";" + XNum(v.y) + ";" + XNum(v.z) + ";" +
         (i + 1 < m.vertices.size() ? ",\n" : ";\n");
  }
  s += "  " + std::to_string(m.faces.size()) + ";\n";
  for (std::size_t i = 0; i < m.faces.size(); ++i) {
    s += "  " + std::to_string(m.faces[i].size()) + ";";
    for (std::size_t k = 0; k < m.faces[i].size(); ++k) {
      s += std::to_string(m.faces[i][k]) + (k + 1 < m.faces[i].size() ? "," : ";");
    }
    s += i + 1 < m.faces.size() ? ",\n" : ";\n";
  }
  for (const XWeights& w : m.skin) {
    s += "  SkinWeights {\n   \"" + w.bone + "\";\n   " + std::to_string(w.vertices.size()) +
         ";\n   ";
    for (std::size_t k = 0; k < w.vertices.size(); ++k) {
      s += std::to_string(w.vertices[k]) + (k + 1 < w.vertices.size() ? "," : ";\n   ");
    }
    if (w.vertices.empty()) s += ";\n   ";
    for (std::size_t k = 0; k < w.weights.size(); ++k) {
      s += XNum(w.weights[k]) + (k + 1 < w.weights.size() ? "," : ";\n   ");
    }
    if (w.weights.empty()) s += ";\n   ";
    s += XMatrix(-w.bind_position) + "\n  }\n";
  }
  return s + " }\n}\n";
}

// A rotation key track for one bone: (tick, quaternion w x y z) pairs.
struct XRotationTrack {
  std::string bone;
  std::vector<std::pair<int, glm::vec4>> keys;  // tick, (w, x, y, z)
};

inline std::string XAnimationText(const std::string& name, int ticks_per_second,
                                  const std::vector<XRotationTrack>& tracks) {
  std::string s = "AnimTicksPerSecond {\n " + std::to_string(ticks_per_second) + ";\n}\n" +
                  "AnimationSet " + name + " {\n";
  for (const XRotationTrack& t : tracks) {
    s += " Animation {\n  { " + t.bone + " }\n  AnimationKey {\n   0;\n   " +
         std::to_string(t.keys.size()) + ";\n";
    for (std::size_t k = 0; k < t.keys.size(); ++k) {
      const glm::vec4& q = t.keys[k].second;
      s += "   " + std::to_string(t.keys[k].first) + ";4;" + XNum(q.x) + "," + XNum(q.y) + "," +
           XNum(q.z) + "," + XNum(q.w) + ";;" + (k + 1 < t.keys.size() ? ",\n" : ";\n");
    }
    s += "  }\n }\n";
  }
  return s + "}\n";
}

inline std::string XFile(const std::vector<XFrame>& frames, const std::vector<XMesh>& meshes,
                         const std::string& animation = "") {
  std::string s = "xof 0303txt 0032\n";
  for (const XFrame& f : frames) s += XFrameText(f);
  for (const XMesh& m : meshes) s += XMeshText(m);
  return s + animation;
}

// The two-bone strip the tests start from: Root at the origin, Upper at (0, 1, 0); six
// vertices in three rows (y = 0, 1, 2), the bottom row on Root, the middle shared half and
// half, the top on Upper; four triangles.
inline XFrame StripSkeleton() {
  XFrame root{"Root", glm::vec3(0.0f), {}};
  root.children.push_back(XFrame{"Upper", glm::vec3(0.0f, 1.0f, 0.0f), {}});
  return root;
}

inline XMesh StripMesh() {
  XMesh m;
  m.vertices = {{0.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}, {0.0f, 1.0f, 0.0f},
                {1.0f, 1.0f, 0.0f}, {0.0f, 2.0f, 0.0f}, {1.0f, 2.0f, 0.0f}};
  m.faces = {{0, 1, 2}, {1, 3, 2}, {2, 3, 4}, {3, 5, 4}};
  m.skin = {XWeights{"Root", {0, 1, 2, 3}, {1.0f, 1.0f, 0.5f, 0.5f}, glm::vec3(0.0f)},
            XWeights{"Upper", {2, 3, 4, 5}, {0.5f, 0.5f, 1.0f, 1.0f}, glm::vec3(0.0f, 1.0f, 0.0f)}};
  return m;
}

// Writes `text` to `path`; false when it cannot.
inline bool WriteText(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.close();
  return static_cast<bool>(out);
}

}  // namespace fabrik::character::testing

// gltf_writer.h - a one-triangle skinned glTF 2.0 file (JSON with its buffer inline as base64)
// written by the character tests, for what Assimp's X reader hides: the X reader leaves out a
// bone whose weights are all 0, the glTF reader keeps it.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace fabrik::character::testing {

inline std::string Base64(const std::vector<std::uint8_t>& bytes) {
  static const char* kDigits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    const std::uint32_t n = (std::uint32_t{bytes[i]} << 16) |
                            (i + 1 < bytes.size() ? std::uint32_t{bytes[i + 1]} << 8 : 0u) |
                            (i + 2 < bytes.size() ? std::uint32_t{bytes[i + 2]} : 0u);
    out += kDigits[(n >> 18) & 63];
    out += kDigits[(n >> 12) & 63];
    out += i + 1 < bytes.size() ? kDigits[(n >> 6) & 63] : '=';
    out += i + 2 < bytes.size() ? kDigits[n & 63] : '=';
  }
  return out;
}

inline void PutFloats(std::vector<std::uint8_t>& bytes, const std::vector<float>& values) {
  for (float v : values) {
    std::uint8_t b[4];
    std::memcpy(b, &v, 4);
    bytes.insert(bytes.end(), b, b + 4);
  }
}

// One triangle weighted fully to joint "Root"; joint "Spare" (a child of Root one unit along
// +X) is in the skin but weighted to no vertex.
inline std::string GltfWithSpareJoint() {
  std::vector<std::uint8_t> b;
  PutFloats(b, {0, 0, 0, 1, 0, 0, 0, 1, 0});                      // positions: 36 bytes
  for (int v = 0; v < 3; ++v) b.insert(b.end(), {0, 0, 0, 0});    // joints: 12 bytes
  for (int v = 0; v < 3; ++v) PutFloats(b, {1, 0, 0, 0});         // weights: 48 bytes
  PutFloats(b, {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0,  0, 0, 1,  // inverse binds: 128 bytes
                1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -1, 0, 0, 1});
  return R"({"asset":{"version":"2.0"},"scene":0,"scenes":[{"nodes":[0,1]}],)"
         R"("nodes":[{"name":"Body","mesh":0,"skin":0},{"name":"Root","children":[2]},)"
         R"({"name":"Spare","translation":[1,0,0]}],)"
         R"("skins":[{"joints":[1,2],"inverseBindMatrices":3}],)"
         R"("meshes":[{"primitives":[{"attributes":{"POSITION":0,"JOINTS_0":1,"WEIGHTS_0":2}}]}],)"
         R"("buffers":[{"byteLength":224,"uri":"data:application/octet-stream;base64,)" +
         Base64(b) +
         R"("}],"bufferViews":[{"buffer":0,"byteOffset":0,"byteLength":36},)"
         R"({"buffer":0,"byteOffset":36,"byteLength":12},)"
         R"({"buffer":0,"byteOffset":48,"byteLength":48},)"
         R"({"buffer":0,"byteOffset":96,"byteLength":128}],)"
         R"("accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3",)"
         R"("min":[0,0,0],"max":[1,1,0]},)"
         R"({"bufferView":1,"componentType":5121,"count":3,"type":"VEC4"},)"
         R"({"bufferView":2,"componentType":5126,"count":3,"type":"VEC4"},)"
         R"({"bufferView":3,"componentType":5126,"count":2,"type":"MAT4"}]})";
}

}  // namespace fabrik::character::testing

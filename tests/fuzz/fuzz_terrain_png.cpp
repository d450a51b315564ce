// libFuzzer target: arbitrary bytes through the terrain heightmap's PNG reader
// (terrain/heightmap_png.h). Checks: no crash, leak or hang; a refusal is one message naming
// the file; an accepted heightmap has sides 1 to Heightmap::kMaxStoredSide, samples finite in
// [0, 1], and finite heights and upward normals everywhere, far outside the square included.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string>

#include "terrain/heightmap_png.h"

namespace {

void Check(bool condition, const char* what) {
  if (!condition) {
    std::fprintf(stderr, "fuzz_terrain_png: broken promise: %s\n", what);
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > (std::size_t{1} << 20)) return 0;
  // Images the header says are over 1024 x 1024 pixels are left to the unit tests (the
  // 8192 x 8192 cases): decoding one takes long enough under the sanitizers to stall a
  // campaign, and the decoder's paths do not depend on the size.
  if (size >= 24) {
    auto be32 = [&](std::size_t at) {
      return (uint32_t(data[at]) << 24) | (uint32_t(data[at + 1]) << 16) |
             (uint32_t(data[at + 2]) << 8) | uint32_t(data[at + 3]);
    };
    if (uint64_t(be32(16)) * uint64_t(be32(20)) > (uint64_t{1} << 20)) return 0;
    // Likewise a chunk whose stated length runs past the input: stb_image reserves the stated
    // length first (up to 1 GiB, virtual memory the demo never touches), which takes seconds
    // under AddressSanitizer; the read then fails as for any truncated file.
    for (std::size_t at = 8; at + 8 <= size;) {
      const uint64_t length = be32(at);
      if (at + 12 + length > size) return 0;
      at += 12 + length;
    }
  }
  // The last byte (after a PNG's end, where the decoder does not look) picks, one input in 8,
  // a world size and height scale from a list with bad ones; the others decode at 40 x 3.
  const uint8_t pick = size > 0 ? data[size - 1] : 0;
  const float sizes[] = {40.0f, 1e-3f, 1e5f, 0.0f, -3.0f, NAN};
  const float heights[] = {3.0f, 0.0f, 1e4f, 2e4f};
  const bool odd_scale = pick % 8 == 0;
  const float world = odd_scale ? sizes[(pick / 8) % 6] : 40.0f;
  const float scale = odd_scale ? heights[(pick / 48) % 4] : 3.0f;
  const std::span<const unsigned char> bytes(data, size);
  fabrik::Result<fabrik::Heightmap> map = fabrik::DecodeHeightmapPng(bytes, "fuzz.png", world, scale);
  if (!map.ok()) {
    Check(map.error().rfind("terrain 'fuzz.png'", 0) == 0, "error without the file's name");
    if (map.error().find('\n') != std::string::npos) {
      std::fprintf(stderr, "fuzz_terrain_png: the message: %s\n", map.error().c_str());
      Check(false, "error of more than one line");
    }
    return 0;
  }
  const fabrik::Heightmap& m = map.value();
  Check(m.width() >= 1 && m.width() <= fabrik::Heightmap::kMaxStoredSide, "width");
  Check(m.height() >= 1 && m.height() <= fabrik::Heightmap::kMaxStoredSide, "height");
  Check(m.samples().size() == std::size_t(m.width()) * std::size_t(m.height()), "sample count");
  for (float s : m.samples()) Check(std::isfinite(s) && s >= 0.0f && s <= 1.0f, "sample range");
  const float half = m.size() * 0.5f;
  for (int k = -3; k <= 3; ++k) {
    const float x = half * 0.4f * float(k), z = -half * 0.7f * float(k);
    const float h = m.HeightAt(x, z);
    Check(std::isfinite(h) && h >= 0.0f && h <= m.height_scale() * 1.0001f, "height");
    const glm::vec3 n = m.NormalAt(x, z);
    Check(std::isfinite(n.x) && std::isfinite(n.y) && std::isfinite(n.z) && n.y > 0.0f, "normal");
  }
  return 0;
}

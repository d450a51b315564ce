// take.h - a marker take: named optical markers, their positions frame by frame (docs/markers.md).
//
// Space and units. A Take holds positions in the project's world: metres, right-handed, +Y up
// (docs/markers.md, "Spaces and units"). The file's own unit and up axis are kept as metadata,
// so writers give back the file's convention: a Z-up file point (x, y, z) is the world point
// (x, z, -y) times the unit's metres.
//
// A marker not seen in a frame (a TRC empty field, a CSM DROPOUT, a marker hidden by the
// caller) has seen = 0 and a position of (0, 0, 0) that means nothing.
//
// Bad input. ValidateTake refuses, with one message naming the problem: no markers, no frames,
// more than kMaxMarkers markers, frames above kMaxFrames or samples above kMaxSamples, an empty,
// over-long or duplicate marker name, or one with white space or control bytes, a rate not in
// [kMinRate, kMaxRate], a non-finite coordinate or one beyond kMaxMetres, and a frame in which
// no marker is seen. The readers (csm.h, trc.h) call it, so every Take they return passes it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <glm/vec3.hpp>
#include <string>
#include <vector>

#include "ik/result.h"

namespace fabrik::markers {

inline constexpr std::size_t kMaxFileBytes = 256u << 20;  // 256 MiB of text
inline constexpr int kMaxMarkers = 1000;
inline constexpr int kMaxFrames = 1000000;
inline constexpr std::size_t kMaxSamples = 10000000;  // frames x markers (about 130 MB held)
inline constexpr std::size_t kMaxNameBytes = 64;
inline constexpr float kMinRate = 1.0f;  // frames a second
inline constexpr float kMaxRate = 10000.0f;
inline constexpr float kMaxMetres = 1000.0f;  // largest |coordinate| once in metres

// The file's up axis (the world's is +Y).
enum class UpAxis : std::uint8_t { kY, kZ };

struct Take {
  std::vector<std::string> names;  // one per marker, unique
  int frame_count = 0;
  float rate = 120.0f;      // frames a second
  int first_frame = 1;      // the file's number of frame 0 (files count from 1)
  std::string unit = "mm";  // the file's unit: "mm", "cm" or "m"
  UpAxis up = UpAxis::kY;   // the file's up axis
  std::string source;       // path or name, for messages
  // [frame * marker_count() + marker]: world metres, +Y up; seen 1 where recorded.
  std::vector<glm::vec3> positions;
  std::vector<std::uint8_t> seen;

  int marker_count() const { return static_cast<int>(names.size()); }
  std::size_t index(int frame, int marker) const {
    return static_cast<std::size_t>(frame) * names.size() + static_cast<std::size_t>(marker);
  }
  const glm::vec3& position(int frame, int marker) const { return positions[index(frame, marker)]; }
  bool is_seen(int frame, int marker) const { return seen[index(frame, marker)] != 0; }
  // The marker's index, or -1.
  int find(const std::string& name) const;
};

// Metres per file unit: 0.001, 0.01 or 1; 0 for an unknown unit.
float UnitMetres(const std::string& unit);
// File coordinates (in `unit`, `up`) to world metres, and back.
glm::vec3 FileToWorld(const glm::vec3& p, float metres, UpAxis up);
glm::vec3 WorldToFile(const glm::vec3& p, float metres, UpAxis up);

// See the header comment. The message starts with take.source.
Status ValidateTake(const Take& take);

// Checks a marker name (empty, too long, white space or control bytes); nullptr when usable.
const char* CheckMarkerName(const std::string& name);

}  // namespace fabrik::markers

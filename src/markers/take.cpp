// take.cpp - the marker take's conversions and checks (take.h).
#include "markers/take.h"

#include <cmath>
#include <unordered_set>

namespace fabrik::markers {

int Take::find(const std::string& name) const {
  for (int i = 0; i < marker_count(); ++i) {
    if (names[i] == name) return i;
  }
  return -1;
}

float UnitMetres(const std::string& unit) {
  if (unit == "mm") return 0.001f;
  if (unit == "cm") return 0.01f;
  if (unit == "m") return 1.0f;
  return 0.0f;
}

glm::vec3 FileToWorld(const glm::vec3& p, float metres, UpAxis up) {
  const glm::vec3 m = p * metres;
  return up == UpAxis::kZ ? glm::vec3(m.x, m.z, -m.y) : m;
}

glm::vec3 WorldToFile(const glm::vec3& p, float metres, UpAxis up) {
  const glm::vec3 f = up == UpAxis::kZ ? glm::vec3(p.x, -p.z, p.y) : p;
  return f / metres;
}

const char* CheckMarkerName(const std::string& name) {
  if (name.empty()) return "an empty marker name";
  if (name.size() > kMaxNameBytes) return "a marker name longer than 64 bytes";
  for (unsigned char c : name) {
    if (c <= ' ' || c == 0x7f) return "a marker name with white space or a control byte";
  }
  return nullptr;
}

namespace {

Status CheckNames(const Take& take) {
  const std::string& src = take.source;
  if (take.names.empty()) return MakeError(src + ": no markers");
  if (take.marker_count() > kMaxMarkers) {
    return MakeError(src + ": more than " + std::to_string(kMaxMarkers) + " markers");
  }
  std::unordered_set<std::string> known;
  for (const std::string& name : take.names) {
    if (const char* problem = CheckMarkerName(name)) {
      std::string shown = name.substr(0, 40);
      for (char& c : shown) c = (c > ' ' && c < 0x7f) ? c : '?';
      return MakeError(src + ": " + problem + " (\"" + shown + "\")");
    }
    if (!known.insert(name).second) {
      return MakeError(src + ": marker " + name + " is named twice");
    }
  }
  return Ok{};
}

}  // namespace

Status ValidateTake(const Take& take) {
  const std::string& src = take.source;
  if (Status names = CheckNames(take); !names.ok()) return names;
  if (take.frame_count < 1) return MakeError(src + ": no frames");
  if (take.frame_count > kMaxFrames) {
    return MakeError(src + ": " + std::to_string(take.frame_count) +
                     " frames, above the limit of " + std::to_string(kMaxFrames));
  }
  const std::size_t samples = static_cast<std::size_t>(take.frame_count) * take.names.size();
  if (samples > kMaxSamples) return MakeError(src + ": frames x markers above the limit");
  if (take.positions.size() != samples || take.seen.size() != samples) {
    return MakeError(src + ": positions do not match frames x markers");
  }
  if (!(take.rate >= kMinRate && take.rate <= kMaxRate)) {
    return MakeError(src + ": rate " + std::to_string(take.rate) + " is outside [1, 10000]");
  }
  if (UnitMetres(take.unit) == 0.0f) return MakeError(src + ": unknown unit " + take.unit);
  for (int f = 0; f < take.frame_count; ++f) {
    int seen = 0;
    for (int m = 0; m < take.marker_count(); ++m) {
      if (!take.is_seen(f, m)) continue;
      ++seen;
      const glm::vec3& p = take.position(f, m);
      const std::string where =
          src + ": frame " + std::to_string(take.first_frame + f) + ", marker " + take.names[m];
      if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) {
        return MakeError(where + ": a coordinate is not finite");
      }
      if (std::fabs(p.x) > kMaxMetres || std::fabs(p.y) > kMaxMetres ||
          std::fabs(p.z) > kMaxMetres) {
        return MakeError(where + ": a coordinate is beyond 1000 m");
      }
    }
    if (seen == 0) {
      return MakeError(src + ": frame " + std::to_string(take.first_frame + f) +
                       ": every marker is missing");
    }
  }
  return Ok{};
}

}  // namespace fabrik::markers

// libFuzzer target: arbitrary text through the spline-file parser, and arbitrary float bits
// through Spline::Create. Checks: no crash; an accepted spline has enough distinct finite
// points, a finite positive length, and finite points everywhere (by distance, by parameter,
// tessellated, and followed with ping-pong at assorted speeds).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <vector>

#include <glm/geometric.hpp>

#include "lang/spline_file.h"
#include "targets/spline_follower.h"

namespace {

void Check(bool condition, const char* what) {
  if (!condition) {
    std::fprintf(stderr, "fuzz_spline: broken promise: %s\n", what);
    std::abort();
  }
}

bool Finite(const glm::vec3& v) {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

void CheckSpline(const fabrik::Spline& s, uint8_t seed) {
  using fabrik::Spline;
  const auto& p = s.points();
  Check(p.size() >= (s.closed() ? 3u : 2u), "too few points");
  for (std::size_t i = 0; i < p.size(); ++i) {
    Check(Finite(p[i]), "point NaN");
    Check(std::fabs(p[i].x) <= Spline::kMaxCoordinate &&
              std::fabs(p[i].y) <= Spline::kMaxCoordinate &&
              std::fabs(p[i].z) <= Spline::kMaxCoordinate,
          "point out of range");
    if (i > 0) Check(glm::distance(p[i], p[i - 1]) > Spline::kMinPointSpacing, "duplicate kept");
  }
  const double length = s.length();
  Check(std::isfinite(length) && length > 0.0, "length");
  const int probes = 16;
  for (int k = -2; k <= probes + 2; ++k) {
    const double d = length * k / probes;
    Check(Finite(s.PointAtDistance(d)), "PointAtDistance NaN");
    const double u = s.ParameterAtDistance(d);
    Check(std::isfinite(u) && u >= 0.0 && u <= s.segment_count(), "parameter range");
    Check(Finite(s.EvaluateGlobal(u * 1.37 - 0.5)), "EvaluateGlobal NaN");
  }
  for (const glm::vec3& q : s.Tessellate(1 + seed % 8)) Check(Finite(q), "tessellation NaN");

  fabrik::SplineFollower f;
  f.SetSpline(s);
  f.SetEndBehavior(seed & 1 ? fabrik::EndBehavior::kPingPong : fabrik::EndBehavior::kLoop);
  Check(f.SetSpeed(0.5f + (seed % 200) * 5.0f).ok(), "speed rejected");
  for (int i = 0; i < 32; ++i) {
    const glm::vec3 q = f.Advance(0.013 * (i % 5) + (seed >> 4));
    Check(Finite(q), "follower NaN");
    Check(f.distance() >= 0.0 && f.distance() <= length * (1.0 + 1e-9), "follower distance");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0 || size > 1 << 16) return 0;
  const uint8_t seed = data[0];
  // As text.
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  fabrik::Result<fabrik::Spline> parsed = fabrik::ParseSplineText(text, "fuzz.txt");
  if (parsed.ok()) {
    CheckSpline(parsed.value(), seed);
  } else {
    Check(parsed.error().rfind("fuzz.txt:", 0) == 0, "error without file:line");
  }
  // As raw floats: every bit pattern, NaN and inf included.
  std::vector<glm::vec3> points;
  for (std::size_t at = 1; at + 12 <= size && points.size() < 512; at += 12) {
    float xyz[3];
    std::memcpy(xyz, data + at, sizeof(xyz));
    points.push_back({xyz[0], xyz[1], xyz[2]});
  }
  fabrik::Result<fabrik::Spline> created = fabrik::Spline::Create(points, seed & 2);
  if (created.ok()) CheckSpline(created.value(), seed);
  return 0;
}

#include "skin/tube_mesh.h"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <numbers>
#include <string>

namespace fabrik {
namespace {

constexpr int kTipCapRings = 4;

// Radius along the tube, u in [0, 1] from root to tip: thins quickly near the root and slowly
// towards the tip, like a tentacle. Its slope dr/du is finite everywhere (smooth normals).
float Radius(const TubeSpec& s, float u) {
  return s.tip_radius + (s.base_radius - s.tip_radius) * (1.0f - u) * (1.0f - 0.4f * u);
}
float RadiusSlope(const TubeSpec& s, float u) {
  return (s.base_radius - s.tip_radius) * (-1.4f + 0.8f * u);
}

// The two bones and weights of a point at height `h` of the rest chain (see the header).
void Bind(std::span<const float> starts, std::span<const float> lengths, float h, SkinVertex& v) {
  const int bones = static_cast<int>(lengths.size());
  const auto it = std::upper_bound(starts.begin(), starts.end(), h);
  int b = std::clamp(static_cast<int>(it - starts.begin()) - 1, 0, bones - 1);
  const float f = std::clamp((h - starts[b]) / lengths[b], 0.0f, 1.0f);
  const auto smooth = [](float x) {  // smoothstep from -0.5 to 0.5
    const float t = std::clamp(x + 0.5f, 0.0f, 1.0f);
    return t * t * (3.0f - 2.0f * t);
  };
  if (f < 0.5f && b > 0) {
    const float w = smooth(f);
    v.bones[0] = b - 1, v.bones[1] = b;
    v.weights = {1.0f - w, w};
  } else if (f >= 0.5f && b + 1 < bones) {
    const float w = smooth(f - 1.0f);
    v.bones[0] = b, v.bones[1] = b + 1;
    v.weights = {1.0f - w, w};
  } else {
    v.bones[0] = v.bones[1] = b;
    v.weights = {1.0f, 0.0f};
  }
}

// The bones' lengths and the spec, as BuildTube (tube_mesh.h) takes them.
Status CheckTube(std::span<const float> lengths, const TubeSpec& spec) {
  if (lengths.empty()) return MakeError("tube needs at least one bone");
  for (std::size_t i = 0; i < lengths.size(); ++i) {
    if (!std::isfinite(lengths[i]) || !(lengths[i] > 0.0f)) {
      return MakeError("tube bone " + std::to_string(i) + " has a length that is not > 0");
    }
  }
  if (!std::isfinite(spec.base_radius) || !(spec.base_radius > 0.0f)) {
    return MakeError("tube base_radius must be finite and > 0");
  }
  if (!std::isfinite(spec.tip_radius) || !(spec.tip_radius > 0.0f) ||
      spec.tip_radius > spec.base_radius) {
    return MakeError("tube tip_radius must be > 0 and <= base_radius");
  }
  if (spec.sectors < 3 || spec.sectors > 64) return MakeError("tube sectors must be 3..64");
  if (spec.rings_per_bone < 1 || spec.rings_per_bone > 64) {
    return MakeError("tube rings_per_bone must be 1..64");
  }
  if (spec.min_rings < 2 || spec.min_rings > 4096)
    return MakeError("tube min_rings must be 2..4096");
  return Ok{};
}

}  // namespace

Result<SkinMesh> BuildTube(std::span<const float> lengths, const TubeSpec& spec) {
  if (Status ok = CheckTube(lengths, spec); !ok) return MakeError(ok.error());
  SkinMesh mesh;
  mesh.lengths.assign(lengths.begin(), lengths.end());
  std::vector<float> starts;
  double total = 0.0;
  for (float l : lengths) {
    starts.push_back(static_cast<float>(total));
    mesh.rest_origins.emplace_back(0.0f, static_cast<float>(total), 0.0f);
    total += l;
  }
  const float length = static_cast<float>(total);
  if (!std::isfinite(length)) return MakeError("tube is too long for single precision");
  const int bones = static_cast<int>(lengths.size());
  // Rings per bone, so that every joint has a ring of its own (where the blend is 50/50).
  const int per_bone = std::max(spec.rings_per_bone, (spec.min_rings + bones - 1) / bones);
  const int rings = bones * per_bone + 1;
  const int sectors = spec.sectors;
  auto& vs = mesh.vertices;
  auto& is = mesh.indices;
  vs.reserve(static_cast<std::size_t>((rings + kTipCapRings + 1) * sectors + 2));

  const auto add_ring = [&](float h, float radius, float slope, float ny) {
    for (int k = 0; k < sectors; ++k) {
      const float a =
          2.0f * std::numbers::pi_v<float> * static_cast<float>(k) / static_cast<float>(sectors);
      const glm::vec3 radial(std::cos(a), 0.0f, std::sin(a));
      SkinVertex v{};
      v.position = radial * radius + glm::vec3(0.0f, h, 0.0f);
      // Surface (r(h) cos a, h, r(h) sin a): normal along (cos a, -dr/dh, sin a).
      v.normal =
          ny == 0.0f
              ? glm::normalize(radial - glm::vec3(0.0f, slope, 0.0f))
              : glm::normalize(radial * std::sqrt(1.0f - ny * ny) + glm::vec3(0.0f, ny, 0.0f));
      Bind(starts, lengths, std::min(h, length), v);
      vs.push_back(v);
    }
  };
  const auto add_point = [&](float h, float ny) {
    SkinVertex v{};
    v.position = glm::vec3(0.0f, h, 0.0f);
    v.normal = glm::vec3(0.0f, ny, 0.0f);
    Bind(starts, lengths, std::clamp(h, 0.0f, length), v);
    vs.push_back(v);
    return static_cast<std::uint32_t>(vs.size() - 1);
  };
  const auto S = static_cast<std::uint32_t>(sectors);
  const auto join = [&](std::uint32_t lower, std::uint32_t upper) {  // two rings' first vertices
    for (std::uint32_t k = 0; k < S; ++k) {
      const std::uint32_t k1 = (k + 1) % S;
      is.insert(is.end(), {lower + k, upper + k, lower + k1, lower + k1, upper + k, upper + k1});
    }
  };
  const auto fan = [&](std::uint32_t centre, std::uint32_t ring, bool up) {
    for (std::uint32_t k = 0; k < S; ++k) {
      const std::uint32_t k1 = (k + 1) % S;
      if (up) {
        is.insert(is.end(), {centre, ring + k1, ring + k});
      } else {
        is.insert(is.end(), {centre, ring + k, ring + k1});
      }
    }
  };

  // Flat cap under the root.
  const std::uint32_t base_centre = add_point(0.0f, -1.0f);
  const auto base_ring = static_cast<std::uint32_t>(vs.size());
  add_ring(0.0f, Radius(spec, 0.0f), 0.0f, -1.0f);
  fan(base_centre, base_ring, false);
  // The tube.
  std::uint32_t previous = 0;
  for (int r = 0; r < rings; ++r) {
    const int b = std::min(r / per_bone, bones - 1);
    const float h = r + 1 == rings ? length
                                   : starts[static_cast<std::size_t>(b)] +
                                         lengths[static_cast<std::size_t>(b)] *
                                             static_cast<float>(r - b * per_bone) /
                                             static_cast<float>(per_bone);
    const float u = h / length;
    const auto first = static_cast<std::uint32_t>(vs.size());
    add_ring(h, Radius(spec, u), RadiusSlope(spec, u) / length, 0.0f);
    if (r > 0) join(previous, first);
    previous = first;
  }
  // Rounded cap over the tip: a quarter circle of the tip radius.
  for (int c = 1; c < kTipCapRings; ++c) {
    const float phi = 0.5f * std::numbers::pi_v<float> * static_cast<float>(c) / kTipCapRings;
    const auto first = static_cast<std::uint32_t>(vs.size());
    add_ring(length + spec.tip_radius * std::sin(phi), spec.tip_radius * std::cos(phi), 0.0f,
             std::sin(phi));
    join(previous, first);
    previous = first;
  }
  fan(add_point(length + spec.tip_radius, 1.0f), previous, true);
  return mesh;
}

bool BuiltFor(const SkinMesh& mesh, std::span<const float> lengths) {
  return mesh.lengths.size() == lengths.size() &&
         std::equal(lengths.begin(), lengths.end(), mesh.lengths.begin());
}

}  // namespace fabrik

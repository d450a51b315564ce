// solve_frame.h - fabrik-solve works relative to the root, in units of the chain's (or tree's)
// size, so the single-precision solvers see coordinates of order 1 whatever the request's
// scale or offset (docs/fabrik-solve.md: The headless solver, "Precision").
//
// world = origin + scale * local, with origin = the root exactly (double) and scale = the
// smallest power of two >= the total segment length (so scaling adds no rounding). A chain of
// unit segments whose root is at 1e6, or one scaled by 1e-25 or 1e25, is solved exactly as the
// same chain at the origin with total length about 1 would be.
#pragma once

#include <glm/vec3.hpp>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <vector>

#include "ik/result.h"

namespace fabrik::tools {

// Every segment must be at least this share of the total length: single precision then keeps
// each segment's length to about 0.1 % or better (docs/fabrik-solve.md: Limits). Shorter ones are
// refused.
inline constexpr double kMinSegmentShare = 1e-4;

class LocalFrame {
 public:
  LocalFrame() = default;
  // `extent` > 0 and finite: the total segment length.
  LocalFrame(const glm::dvec3& origin, double extent);

  // Local float coordinates of a world point. Points farther than 2^20 local units (a million
  // times the structure's size: unreachable) are pulled in along their direction from the
  // origin, so nothing overflows; only targets and poles can be that far.
  glm::vec3 ToLocal(const glm::dvec3& world) const;
  glm::dvec3 ToWorld(const glm::vec3& local) const;
  // World lengths <-> local lengths.
  double scale() const { return scale_; }
  const glm::dvec3& origin() const { return origin_; }

  // A world point as JSON [x, y, z]: each coordinate the shortest decimal within half a
  // single-precision step of its local value (scaled to world units), so 0.1 is written 0.1,
  // integers stay integers and the root (local 0) is written exactly as given.
  nlohmann::ordered_json PointJson(const glm::vec3& local) const;
  // A world distance as JSON: the shortest decimal within 2^-25 of itself.
  double Number(double world_value) const;

 private:
  glm::dvec3 origin_{0.0};
  double scale_ = 1.0;
};

// The shortest decimal within `tolerance` of `value` (`value` itself when none is shorter).
double ShortestWithin(double value, double tolerance);

// Checks world joint positions for a chain (in double: zero-length segments, a chain too large
// for single precision, a segment below kMinSegmentShare of the total, a root so far from the
// origin that a double step there exceeds single precision's step at the chain's size, about
// 2^29 times the total length) and returns the frame and the local joints. `label` names entries in errors ("joints" -> "joints[2] ...").
struct LocalPoints {
  LocalFrame frame;
  std::vector<glm::vec3> local;
  double total_length = 0.0;
};
Result<LocalPoints> ChainToLocal(std::span<const glm::dvec3> joints);

// The same for a tree: node i's segment joins it to parents[i] (parents[0] = -1, each parent
// earlier; checked by the caller's tree builder afterwards, so only lengths are checked here
// and an out-of-range parent is skipped). A tree's size is its longest root-to-leaf path, and
// each segment is measured against the longest such path through it, not the sum of every
// branch. `total_length` is still the sum.
Result<LocalPoints> TreeToLocal(std::span<const glm::dvec3> positions,
                                std::span<const int> parents);

}  // namespace fabrik::tools

#include "solve_cli/solve_frame.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <glm/geometric.hpp>
#include <limits>
#include <string>
#include <system_error>

namespace fabrik::tools {
namespace {

constexpr double kFloatMax = std::numeric_limits<float>::max();
constexpr double kFloatEpsilon = std::numeric_limits<float>::epsilon();
constexpr double kInfinity = std::numeric_limits<double>::infinity();
// Beyond this many local units from the origin a point is pulled in (see ToLocal).
constexpr double kFar = 1048576.0;  // 2^20

std::string Num(double v) {
  char buffer[32];
  const auto r = std::to_chars(buffer, buffer + sizeof buffer, v);
  return std::string(buffer, r.ec == std::errc() ? r.ptr : buffer);
}

// The checks shared by chains and trees, on one segment of world length `length`.
Result<Ok> CheckSegment(double length, const std::string& from, const std::string& to,
                        const char* what) {
  if (!(length > 0.0)) {
    return MakeError(from + " coincides with " + to + ": zero-length segment");
  }
  if (!(length <= kFloatMax)) {
    return MakeError(std::string(what) +
                     " too large for single precision: a segment is longer than 3.4e38");
  }
  return Ok{};
}

// Every segment at least kMinSegmentShare of the length of the longest root-to-leaf path
// through it, `paths[i]` (why: see kMinSegmentShare). For a chain that is the total length;
// a tree's branches are measured apart, so many short sibling branches never shrink one
// another's share.
Result<Ok> CheckShares(std::span<const double> lengths, std::span<const double> paths,
                       const char* label, bool tree) {
  for (std::size_t i = 0; i < lengths.size(); ++i) {
    if (lengths[i] == 0.0 || lengths[i] >= kMinSegmentShare * paths[i]) continue;
    const std::string where =
        std::string(label) + "[" + std::to_string(tree ? i : i + 1) + "]";
    return MakeError(where + ": segment of length " + Num(lengths[i]) + " is too short beside " +
                     (tree ? "the length of its longest root-to-leaf path " : "the total length ") +
                     Num(paths[i]) +
                     ": single precision keeps a segment only when it is at least 1e-4 of "
                     "that length (docs/fabrik-solve.md: Limits)");
  }
  return Ok{};
}

// `reach`: the farthest any joint can get from the root (a chain's total length, a tree's
// longest root-to-leaf path).
Result<LocalPoints> Finish(std::span<const glm::dvec3> points, double reach, double total,
                           const char* what) {
  // |root| + 2 x total must fit a float: the library's own rule for a chain (ik/chain.h),
  // kept so world answers stay within single precision's range too.
  const glm::dvec3& root = points[0];
  const double extent =
      std::max({std::fabs(root.x), std::fabs(root.y), std::fabs(root.z)}) + 2.0 * reach;
  if (!(extent <= kFloatMax)) {
    return MakeError(std::string(what) +
                     " too large for single precision: |root| + 2 x total length must stay "
                     "below 3.4e38");
  }
  // The answer is written in double world coordinates: origin + scale x local. Far from the
  // origin a double step can exceed single precision's step at the structure's size (at a
  // root of 1e13 a double step is 0.002), and the written joints would no longer keep the
  // segment lengths the solver kept. Refuse that rather than answer with broken lengths.
  const double double_step = std::nextafter(extent, kInfinity) - extent;
  const double float_step = kFloatEpsilon * LocalFrame(root, reach > 0.0 ? reach : 1.0).scale();
  if (!(double_step <= float_step)) {
    return MakeError(std::string(what) + " too far from the origin for its size: at |root| " +
                     Num(extent - 2.0 * reach) + " double precision steps by " +
                     Num(double_step) + ", more than single precision's step " +
                     Num(float_step) + " at the " + what + "'s size " + Num(reach) +
                     "; keep the root within about 5e8 times that size of the origin " +
                     "(docs/limits.md)");
  }
  LocalPoints out;
  // No segment at all (a tree whose parents are all invalid): any scale; the tree builder
  // reports the parents.
  out.frame = LocalFrame(root, reach > 0.0 ? reach : 1.0);
  out.total_length = total;
  out.local.reserve(points.size());
  for (const glm::dvec3& p : points) out.local.push_back(out.frame.ToLocal(p));
  return out;
}

}  // namespace

LocalFrame::LocalFrame(const glm::dvec3& origin, double extent) : origin_(origin) {
  int exponent = 0;
  std::frexp(extent, &exponent);  // extent = m x 2^exponent, 0.5 <= m < 1
  scale_ = std::ldexp(1.0, exponent);
}

glm::vec3 LocalFrame::ToLocal(const glm::dvec3& world) const {
  glm::dvec3 d = (world - origin_) / scale_;
  const double r = std::max({std::fabs(d.x), std::fabs(d.y), std::fabs(d.z)});
  if (r > kFar) d *= kFar / r;
  return glm::vec3(d);
}

glm::dvec3 LocalFrame::ToWorld(const glm::vec3& local) const {
  return origin_ + glm::dvec3(local) * scale_;
}

nlohmann::ordered_json LocalFrame::PointJson(const glm::vec3& local) const {
  const glm::dvec3 w = ToWorld(local);
  // Each coordinate is good to half a float step of its local value (scaled back to world
  // units); any decimal within that says no more and no less than the solver computed.
  auto coordinate = [&](int k) {
    const float c = std::fabs(local[k]);
    const double step = double(std::nextafter(c, std::numeric_limits<float>::infinity())) - c;
    return ShortestWithin(w[k], 0.5 * step * scale_);
  };
  return nlohmann::ordered_json::array({coordinate(0), coordinate(1), coordinate(2)});
}

double LocalFrame::Number(double world_value) const {
  // Relative precision only: a distance rounded to 0 could contradict "reached".
  return ShortestWithin(world_value, std::ldexp(std::fabs(world_value), -25));
}

double ShortestWithin(double value, double tolerance) {
  if (value == 0.0 || !std::isfinite(value) || !(tolerance > 0.0)) return value;
  char buffer[40];
  for (int digits = 1; digits <= 17; ++digits) {
    const auto r =
        std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::general, digits);
    if (r.ec != std::errc()) break;
    double back = value;
    std::from_chars(buffer, r.ptr, back);
    if (std::fabs(back - value) <= tolerance) return back;
  }
  return value;
}

Result<LocalPoints> ChainToLocal(std::span<const glm::dvec3> joints) {
  if (joints.size() < 2) {
    return MakeError("a chain needs at least 2 joints, got " + std::to_string(joints.size()));
  }
  std::vector<double> lengths;
  lengths.reserve(joints.size() - 1);
  double total = 0.0;
  for (std::size_t i = 1; i < joints.size(); ++i) {
    const double length = glm::length(joints[i] - joints[i - 1]);
    auto ok = CheckSegment(length, "joints[" + std::to_string(i) + "]",
                           "joints[" + std::to_string(i - 1) + "]", "chain");
    if (!ok) return MakeError(ok.error());
    lengths.push_back(length);
    total += length;
  }
  const std::vector<double> paths(lengths.size(), total);
  auto shares = CheckShares(lengths, paths, "joints", false);
  if (!shares) return MakeError(shares.error());
  return Finish(joints, total, total, "chain");
}

Result<LocalPoints> TreeToLocal(std::span<const glm::dvec3> positions,
                                std::span<const int> parents) {
  std::vector<double> lengths(positions.size(), 0.0);
  double total = 0.0;
  for (std::size_t i = 1; i < positions.size() && i < parents.size(); ++i) {
    const int p = parents[i];
    if (p < 0 || static_cast<std::size_t>(p) >= i) continue;  // the tree builder reports it
    const double length = glm::length(positions[i] - positions[static_cast<std::size_t>(p)]);
    auto ok = CheckSegment(length, "nodes[" + std::to_string(i) + "]",
                           "its parent nodes[" + std::to_string(p) + "]", "tree");
    if (!ok) return MakeError(ok.error());
    lengths[i] = length;
    total += length;
  }
  if (positions.empty()) return LocalPoints{};  // the tree builder reports it
  // Length from the root to each node, then the longest root-to-leaf path through each node
  // (parents come first, so one pass down and one pass up).
  std::vector<double> depth(positions.size(), 0.0);
  for (std::size_t i = 1; i < positions.size() && i < parents.size(); ++i) {
    const int p = parents[i];
    if (p < 0 || static_cast<std::size_t>(p) >= i) continue;
    depth[i] = depth[static_cast<std::size_t>(p)] + lengths[i];
  }
  std::vector<double> longest = depth;
  for (std::size_t i = std::min(positions.size(), parents.size()); i-- > 1;) {
    const int p = parents[i];
    if (p < 0 || static_cast<std::size_t>(p) >= i) continue;
    longest[static_cast<std::size_t>(p)] = std::max(longest[static_cast<std::size_t>(p)], longest[i]);
  }
  auto shares = CheckShares(lengths, longest, "nodes", true);
  if (!shares) return MakeError(shares.error());
  return Finish(positions, longest[0], total, "tree");
}

}  // namespace fabrik::tools

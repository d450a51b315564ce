#include "ik/chain.h"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <glm/vec3.hpp>
#include <limits>
#include <string>

#include "ik/chain_measure.h"
#include "ik/reach_arithmetic.h"
#include "ik/vec_util.h"

namespace fabrik {
namespace {

// |a - b| in double (reach_arithmetic.h): exact enough and never overflows for float inputs,
// where glm::length in float squares the components and overflows (to inf) once they pass
// ~1.8e19. The batched solver's fill measures with the same function (chain_measure.h).
using reach::DistanceD;

// Solvers place joints up to 2 x total_length from the root (the backward pass hangs the
// chain from a target that is itself up to total_length away), so the chain must fit in float
// with that margin or a solve could overflow to inf.
bool FitsInFloat(const glm::vec3& root, float total_length) {
  const double extent =
      std::max({std::fabs(double(root.x)), std::fabs(double(root.y)), std::fabs(double(root.z))}) +
      2.0 * double(total_length);
  return extent <= double(std::numeric_limits<float>::max());
}

constexpr const char* kTooLarge =
    "chain too large for single precision: |root| + 2 x total length must stay below 3.4e38";

// Below FLT_MIN a length is subnormal: it has too few significant bits to be kept.
constexpr const char* kTooShort = "segment shorter than 1.2e-38, too short for single precision";

}  // namespace

void Chain::ComputeTotals() {
  total_length_ = 0.0f;
  max_length_ = 0.0f;
  min_length_ = lengths_.empty() ? 0.0f : lengths_.front();
  for (float l : lengths_) {
    total_length_ += l;
    max_length_ = std::max(max_length_, l);
    min_length_ = std::min(min_length_, l);
  }
}

namespace detail {

Result<JointMeasure> MeasureJoints(std::span<const glm::vec3> joints, float* lengths,
                                   std::size_t stride) {
  if (joints.size() < 2) {
    return MakeError("a chain needs at least 2 joints, got " + std::to_string(joints.size()));
  }
  JointMeasure m;
  for (std::size_t i = 0; i < joints.size(); ++i) {
    if (!IsFinite(joints[i])) {
      return MakeError("joints[" + std::to_string(i) + "] is not finite");
    }
    if (i == 0) continue;
    // In double, so a very long segment is not mistaken for an overflowed (or zero) one.
    const double length = DistanceD(joints[i], joints[i - 1]);
    if (!(length > 0.0)) {
      return MakeError("joints[" + std::to_string(i) + "] coincides with joints[" +
                       std::to_string(i - 1) + "]: zero-length segment");
    }
    if (!(length <= double(std::numeric_limits<float>::max()))) return MakeError(kTooLarge);
    if (length < double(std::numeric_limits<float>::min())) {
      return MakeError("joints[" + std::to_string(i) + "] is too close to joints[" +
                       std::to_string(i - 1) + "]: " + kTooShort);
    }
    const auto l = static_cast<float>(length);
    lengths[(i - 1) * stride] = l;
    // The same sums, in the same order, as Chain::ComputeTotals.
    AddSegment(m, i - 1, l);
  }
  if (!std::isfinite(m.total) || !FitsInFloat(joints[0], m.total)) return MakeError(kTooLarge);
  return m;
}

}  // namespace detail

Result<Chain> Chain::FromJoints(std::vector<glm::vec3> joints) {
  Chain chain;
  chain.lengths_.resize(joints.size() < 2 ? 0 : joints.size() - 1);
  Result<detail::JointMeasure> m = detail::MeasureJoints(joints, chain.lengths_.data(), 1);
  if (!m) return MakeError(m.error());
  chain.joints_ = std::move(joints);
  chain.ComputeTotals();
  return chain;
}

Result<Chain> Chain::Straight(glm::vec3 root, glm::vec3 direction, std::span<const float> lengths) {
  if (lengths.empty()) return MakeError("a chain needs at least 1 segment");
  if (!IsFinite(root)) return MakeError("root is not finite");
  // Normalised in double: glm::length in float overflows for components beyond ~1.8e19 and
  // loses precision for tiny (subnormal) ones.
  const double dir_length = glm::length(glm::dvec3(direction));
  if (!IsFinite(direction) || !(dir_length > 0.0)) {
    return MakeError("direction must be finite and non-zero");
  }
  direction = glm::vec3(glm::dvec3(direction) / dir_length);
  Chain chain;
  chain.joints_.reserve(lengths.size() + 1);
  chain.joints_.push_back(root);
  for (std::size_t i = 0; i < lengths.size(); ++i) {
    const float l = lengths[i];
    if (!std::isfinite(l) || !(l > 0.0f)) {
      return MakeError("segment length " + std::to_string(i) + " must be finite and > 0");
    }
    if (l < std::numeric_limits<float>::min()) {
      return MakeError("segment length " + std::to_string(i) + ": " + kTooShort);
    }
    chain.lengths_.push_back(l);
    chain.joints_.push_back(chain.joints_.back() + direction * l);
  }
  chain.ComputeTotals();
  if (!std::isfinite(chain.total_length_) || !FitsInFloat(root, chain.total_length_)) {
    return MakeError(kTooLarge);
  }
  return chain;
}

Status Chain::SetPose(std::span<const glm::vec3> pose) {
  if (pose.size() != joints_.size()) {
    return MakeError("pose has " + std::to_string(pose.size()) + " joints, chain has " +
                     std::to_string(joints_.size()));
  }
  // Finiteness first, so a NaN root is reported as such rather than as a moved root.
  for (std::size_t i = 0; i < pose.size(); ++i) {
    if (!IsFinite(pose[i])) return MakeError("pose[" + std::to_string(i) + "] is not finite");
  }
  if (pose[0] != joints_[0]) return MakeError("pose moves the root");
  for (std::size_t i = 1; i < pose.size(); ++i) {
    const double l = DistanceD(pose[i], pose[i - 1]);
    const double expected = lengths_[i - 1];
    if (!(std::fabs(l - expected) <= 1e-4 * expected)) {
      return MakeError("pose changes the length of segment " + std::to_string(i - 1));
    }
  }
  std::copy(pose.begin(), pose.end(), joints_.begin());
  return Ok{};
}

}  // namespace fabrik

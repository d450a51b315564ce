#include "ik/chain.h"

#include <algorithm>
#include <cmath>
#include <string>

#include <glm/geometric.hpp>

namespace fabrik {
namespace {

bool IsFinite(const glm::vec3& p) {
  return std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z);
}

}  // namespace

void Chain::ComputeTotals() {
  total_length_ = 0.0f;
  max_length_ = 0.0f;
  for (float l : lengths_) {
    total_length_ += l;
    max_length_ = std::max(max_length_, l);
  }
}

Result<Chain> Chain::FromJoints(std::vector<glm::vec3> joints) {
  if (joints.size() < 2) {
    return MakeError("a chain needs at least 2 joints, got " + std::to_string(joints.size()));
  }
  Chain chain;
  chain.lengths_.reserve(joints.size() - 1);
  for (std::size_t i = 0; i < joints.size(); ++i) {
    if (!IsFinite(joints[i])) {
      return MakeError("joints[" + std::to_string(i) + "] is not finite");
    }
    if (i == 0) continue;
    const float length = glm::length(joints[i] - joints[i - 1]);
    if (!(length > 0.0f) || !std::isfinite(length)) {
      return MakeError("joints[" + std::to_string(i) + "] coincides with joints[" +
                       std::to_string(i - 1) + "]: zero-length segment");
    }
    chain.lengths_.push_back(length);
  }
  chain.joints_ = std::move(joints);
  chain.ComputeTotals();
  if (!std::isfinite(chain.total_length_)) return MakeError("total chain length overflows");
  return chain;
}

Result<Chain> Chain::Straight(glm::vec3 root, glm::vec3 direction,
                              std::span<const float> lengths) {
  if (lengths.empty()) return MakeError("a chain needs at least 1 segment");
  if (!IsFinite(root)) return MakeError("root is not finite");
  const float dir_length = glm::length(direction);
  if (!IsFinite(direction) || !(dir_length > 0.0f) || !std::isfinite(dir_length)) {
    return MakeError("direction must be finite and non-zero");
  }
  direction /= dir_length;
  Chain chain;
  chain.joints_.reserve(lengths.size() + 1);
  chain.joints_.push_back(root);
  for (std::size_t i = 0; i < lengths.size(); ++i) {
    const float l = lengths[i];
    if (!std::isfinite(l) || !(l > 0.0f)) {
      return MakeError("segment length " + std::to_string(i) + " must be finite and > 0");
    }
    chain.lengths_.push_back(l);
    chain.joints_.push_back(chain.joints_.back() + direction * l);
  }
  chain.ComputeTotals();
  if (!std::isfinite(chain.total_length_)) return MakeError("total chain length overflows");
  return chain;
}

Status Chain::SetPose(std::span<const glm::vec3> pose) {
  if (pose.size() != joints_.size()) {
    return MakeError("pose has " + std::to_string(pose.size()) + " joints, chain has " +
                     std::to_string(joints_.size()));
  }
  if (pose[0] != joints_[0]) return MakeError("pose moves the root");
  for (std::size_t i = 0; i < pose.size(); ++i) {
    if (!IsFinite(pose[i])) return MakeError("pose[" + std::to_string(i) + "] is not finite");
    if (i == 0) continue;
    const float l = glm::length(pose[i] - pose[i - 1]);
    if (std::fabs(l - lengths_[i - 1]) > 1e-4f * lengths_[i - 1]) {
      return MakeError("pose changes the length of segment " + std::to_string(i - 1));
    }
  }
  std::copy(pose.begin(), pose.end(), joints_.begin());
  return Ok{};
}

}  // namespace fabrik

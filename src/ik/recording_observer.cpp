#include "ik/recording_observer.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <glm/geometric.hpp>

namespace fabrik {
namespace {

// Same measure the solver reports: in double, saturated to FLT_MAX.
float DistanceTo(std::span<const glm::vec3> joints, const glm::vec3& target) {
  const double d = glm::length(glm::dvec3(joints.back()) - glm::dvec3(target));
  return static_cast<float>(std::min(d, static_cast<double>(std::numeric_limits<float>::max())));
}

}  // namespace

RecordingObserver::RecordingObserver(std::size_t max_joints, int max_iterations) {
  Reserve(max_joints, max_iterations);
}

void RecordingObserver::Reserve(std::size_t max_joints, int max_iterations) {
  const std::size_t passes =
      std::max<std::size_t>(1, 2 * static_cast<std::size_t>(std::max(max_iterations, 0)));
  max_joints_ = std::max(max_joints_, max_joints);
  max_half_passes_ = std::max(max_half_passes_, passes);
  poses_.resize((max_half_passes_ + 1) * max_joints_);
  meta_.resize(max_half_passes_);
  Clear();
}

void RecordingObserver::Clear() {
  recorded_ = false;
  truncated_ = false;
  joint_count_ = 0;
  half_pass_count_ = 0;
  target_ = glm::vec3(0.0f);
  start_distance_ = 0.0f;
}

void RecordingObserver::OnBegin(std::span<const glm::vec3> joints, const glm::vec3& target) {
  Clear();
  target_ = target;
  if (joints.empty() || joints.size() > max_joints_) {
    truncated_ = true;
    return;
  }
  recorded_ = true;
  joint_count_ = joints.size();
  // Snapshots are packed with a stride of joint_count_ (not max_joints_), so snapshot s of
  // this chain starts at s * joint_count_.
  std::copy(joints.begin(), joints.end(), poses_.begin());
  start_distance_ = DistanceTo(joints, target);
}

void RecordingObserver::OnHalfPass(PassKind kind, int iteration,
                                   std::span<const glm::vec3> joints) {
  if (!recorded_) return;
  const std::size_t capacity =
      std::min(meta_.size(), poses_.size() / joint_count_ - 1);  // snapshots beyond the start
  if (joints.size() != joint_count_ || half_pass_count_ >= capacity) {
    truncated_ = true;
    return;
  }
  const std::size_t s = half_pass_count_ + 1;
  std::copy(joints.begin(), joints.end(), poses_.begin() + s * joint_count_);
  meta_[half_pass_count_] = Meta{kind, iteration, DistanceTo(joints, target_)};
  ++half_pass_count_;
}

std::span<const glm::vec3> RecordingObserver::snapshot(std::size_t s) const {
  return std::span<const glm::vec3>(poses_).subspan(s * joint_count_, joint_count_);
}

std::span<const glm::vec3> RecordingObserver::start_pose() const {
  if (!recorded_) return {};
  return snapshot(0);
}

RecordingObserver::HalfPass RecordingObserver::half_pass(std::size_t index) const {
  if (index >= half_pass_count_) return HalfPass{PassKind::kForward, 0, 0.0f, {}};
  const Meta& m = meta_[index];
  return HalfPass{m.kind, m.iteration, m.distance, snapshot(index + 1)};
}

RecordingObserver::Reach RecordingObserver::reach(std::size_t k) const {
  if (k >= reach_count()) return Reach{0, 0, 0, PassKind::kForward, 0};
  const std::size_t h = k / joint_count_;
  const std::size_t j = k % joint_count_;
  const Meta& m = meta_[h];
  const std::size_t joint = m.kind == PassKind::kBackward ? joint_count_ - 1 - j : j;
  return Reach{h, j, joint, m.kind, m.iteration};
}

bool RecordingObserver::PoseAfterReach(std::size_t k, std::span<glm::vec3> out) const {
  if (k >= reach_count() || out.size() != joint_count_) return false;
  const Reach r = reach(k);
  const std::span<const glm::vec3> before = snapshot(r.half_pass);
  const std::span<const glm::vec3> after = snapshot(r.half_pass + 1);
  std::copy(before.begin(), before.end(), out.begin());
  // Reaches 0..j of this half-pass have run: take their joints from the half-pass's result.
  const std::size_t moved = r.index + 1;
  if (r.kind == PassKind::kBackward) {
    std::copy(after.end() - static_cast<std::ptrdiff_t>(moved), after.end(),
              out.end() - static_cast<std::ptrdiff_t>(moved));
  } else {
    std::copy(after.begin(), after.begin() + static_cast<std::ptrdiff_t>(moved), out.begin());
  }
  return true;
}

std::vector<glm::vec3> RecordingObserver::PoseAfterReach(std::size_t k) const {
  if (k >= reach_count()) return {};
  std::vector<glm::vec3> out(joint_count_);
  PoseAfterReach(k, out);
  return out;
}

std::span<const glm::vec3> OffsetObserver::Shift(std::span<const glm::vec3> joints) {
  const std::size_t n = std::min(joints.size(), buffer_.size());
  for (std::size_t i = 0; i < n; ++i) buffer_[i] = joints[i] + offset;
  return std::span<const glm::vec3>(buffer_.data(), n);
}

void OffsetObserver::OnBegin(std::span<const glm::vec3> joints, const glm::vec3& target) {
  if (inner && !skip_begin) inner->OnBegin(Shift(joints), target + offset);
}

void OffsetObserver::OnHalfPass(PassKind kind, int iteration, std::span<const glm::vec3> joints) {
  if (inner) inner->OnHalfPass(kind, iteration, Shift(joints));
}

}  // namespace fabrik

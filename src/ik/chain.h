// chain.h - a serial chain of joints joined by rigid segments, the thing every solver moves.
//
// Space and units: joint positions are world-space points (right-handed, +Y up), lengths are
// world units. Joint 0 is the root, the last joint is the end effector.
//
// Guarantees, kept by every function here and by every solver in src/ik:
//   * 2 <= joint_count(); tested up to well beyond 10,000 joints.
//   * every segment length is finite and > 0 and is fixed when the chain is created;
//     solvers move joints, never lengths (a pose is accepted only if it keeps them).
//   * the root never moves after creation, except through PullChain and LayChainFlat
//     (ik/free_root.h: a free root, pulled like a rope; the 2D view).
//   * every joint position is finite.
// Creation validates its input and returns an Error naming the first bad value instead of a
// chain; nothing throws.
#pragma once

#include <cstddef>
#include <glm/vec3.hpp>
#include <span>
#include <vector>

#include "result.h"

namespace fabrik {

class Chain {
 public:
  // A chain whose segment lengths are taken from consecutive joint positions.
  // Fails on fewer than 2 joints, a non-finite coordinate, or a zero-length segment
  // (message e.g. "joints[2] coincides with joints[1]: zero-length segment"), or a chain too
  // large for single precision (max |root coordinate| + 2 x total length above FLT_MAX, the
  // room a solver needs: a backward pass hangs the chain from a target up to total_length
  // away), or a segment shorter than FLT_MIN (1.2e-38; subnormal lengths cannot be kept).
  // Lengths are measured in double, so segments of any finite size are measured right.
  static Result<Chain> FromJoints(std::vector<glm::vec3> joints);

  // A straight chain from `root` along `direction` (normalised here; must be non-zero and
  // finite) with the given segment lengths (at least 1; each finite and > 0).
  static Result<Chain> Straight(glm::vec3 root, glm::vec3 direction,
                                std::span<const float> lengths);

  std::size_t joint_count() const { return joints_.size(); }
  std::size_t segment_count() const { return lengths_.size(); }

  // Joint positions, root first, end effector last.
  std::span<const glm::vec3> joints() const { return joints_; }
  // Segment lengths: lengths()[i] joins joints()[i] and joints()[i + 1].
  std::span<const float> lengths() const { return lengths_; }
  // Sum of the segment lengths: the distance from the root beyond which nothing is reachable.
  float total_length() const { return total_length_; }
  // The largest and the smallest single segment length.
  float max_length() const { return max_length_; }
  float min_length() const { return min_length_; }

  const glm::vec3& root() const { return joints_.front(); }
  const glm::vec3& effector() const { return joints_.back(); }

  // Replaces the pose. Accepted only when `pose` has joint_count() finite points, its first
  // point is the root (compared with ==), and every segment length matches within a relative
  // 1e-4; otherwise returns an error naming the first problem (non-finite points are reported
  // before a moved root) and leaves the chain unchanged. Used to restore snapshots.
  Status SetPose(std::span<const glm::vec3> pose);

  // Mutable access to the joint positions, for solvers in src/ik only. A solver writing
  // through this span takes on the guarantees above (root fixed, lengths kept, finite).
  std::span<glm::vec3> pose_for_solver() { return joints_; }

 private:
  Chain() = default;
  void ComputeTotals();

  std::vector<glm::vec3> joints_;
  std::vector<float> lengths_;
  float total_length_ = 0.0f;
  float max_length_ = 0.0f;
  float min_length_ = 0.0f;
};

}  // namespace fabrik

// recording_observer.h - records a solve pass by pass, so it can be replayed reach by reach.
//
// RecordingObserver is a SolveObserver that copies the starting pose and the pose after every
// half-pass into storage reserved beforehand (Reserve), so recording does no heap allocation
// inside the solve. The demo's step-through view plays a recorded solve back one reach at a
// time; tests use it to check each step.
//
// Reaches. A FABRIK half-pass is a sequence of reaches, each of which moves exactly one joint
// and writes it exactly once (fabrik.h). With n joints every half-pass has n reaches:
//   * backward pass, reach j (0 <= j < n) moves joint n-1-j: reach 0 puts the effector on the
//     target, reach n-1 moves the root (it comes back in the forward pass);
//   * forward pass, reach j moves joint j: reach 0 puts the root back in place;
//   * straightening pass (target out of reach), reach j moves joint j, like a forward pass
//     (reach 0 leaves the root where it is).
// So the pose after reach j of half-pass h is the pose before h (the start pose, or the
// snapshot of half-pass h-1) with the joints moved by reaches 0..j taken from h's snapshot.
// Reaches are numbered through the whole recording: reach k belongs to half-pass
// k / joint_count() and is reach k % joint_count() within it. A step-through view with a
// step counter s in [0, reach_count()] shows start_pose() for s = 0, PoseAfterReach(s - 1)
// otherwise; PoseAfterReach(reach_count() - 1) is exactly the pose the solve returned.
// Mid-pass poses are not chains: the segment between the joint just moved and the next one
// still to move has whatever length it happens to have (that is what FABRIK does).
//
// The reach numbering describes FABRIK. Other solvers may report half-passes that move many
// joints at once; their snapshots are still exact, but reaches then do not mean anything.
//
// Capacity. A solve with more joints than reserved is not recorded (recorded() is false,
// truncated() true); a solve with more half-passes than reserved keeps the first ones and sets
// truncated(). Reserve(joints, max_iterations) covers every solve of that size and cap.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include <glm/vec3.hpp>

#include "solve_types.h"

namespace fabrik {

class RecordingObserver final : public SolveObserver {
 public:
  // One recorded half-pass.
  struct HalfPass {
    PassKind kind;
    int iteration;                      // as the solver numbered it, from 1
    float distance;                     // |effector - target| after this half-pass
    std::span<const glm::vec3> joints;  // the pose after it; valid until the next solve
  };

  // Which joint a reach moved, and where that reach sits in the recording.
  struct Reach {
    std::size_t half_pass;  // index for half_pass()
    std::size_t index;      // j: 0 <= j < joint_count(), the position within the half-pass
    std::size_t joint;      // the joint it moved (n-1-j backward, j otherwise)
    PassKind kind;
    int iteration;
  };

  // Empty: records nothing until Reserve() is called.
  RecordingObserver() = default;
  // Same as default construction followed by Reserve(max_joints, max_iterations).
  RecordingObserver(std::size_t max_joints, int max_iterations);

  // Allocates room for solves of up to `max_joints` joints and `max_iterations` iterations
  // (2 x max_iterations half-passes, at least 1). Never shrinks. Call it outside a solve;
  // it may allocate, and it discards any recording.
  void Reserve(std::size_t max_joints, int max_iterations);
  // Forgets the recording (keeps the storage).
  void Clear();

  // SolveObserver. OnBegin starts a new recording (the previous one is discarded).
  void OnBegin(std::span<const glm::vec3> joints, const glm::vec3& target) override;
  void OnHalfPass(PassKind kind, int iteration, std::span<const glm::vec3> joints) override;

  // True once a solve has begun and its chain fitted in the reserved storage.
  bool recorded() const { return recorded_; }
  // True when the last solve did not fit: too many joints (nothing recorded) or too many
  // half-passes (the later ones were dropped, so the replay stops short of the final pose).
  bool truncated() const { return truncated_; }

  // Joint count of the recorded chain (0 when nothing is recorded).
  std::size_t joint_count() const { return recorded_ ? joint_count_ : 0; }
  // The target of the recorded solve.
  const glm::vec3& target() const { return target_; }
  // The pose before the solve moved anything, and its effector's distance to the target.
  std::span<const glm::vec3> start_pose() const;
  float start_distance() const { return start_distance_; }

  std::size_t half_pass_count() const { return half_pass_count_; }
  // Half-pass `index` (< half_pass_count()), in the order the solver ran them.
  HalfPass half_pass(std::size_t index) const;

  // Reaches recorded: half_pass_count() x joint_count().
  std::size_t reach_count() const { return half_pass_count_ * joint_count(); }
  // Reach `k` (< reach_count()).
  Reach reach(std::size_t k) const;

  // Writes the pose right after reach `k` (0 <= k < reach_count()) into `out`, which must
  // hold joint_count() points. Returns false, writing nothing, when k is out of range or
  // `out` has the wrong size. No allocation.
  bool PoseAfterReach(std::size_t k, std::span<glm::vec3> out) const;
  // The same, returned as a new vector (empty when k is out of range).
  std::vector<glm::vec3> PoseAfterReach(std::size_t k) const;

 private:
  struct Meta {
    PassKind kind;
    int iteration;
    float distance;
  };

  // Snapshot 0 is the start pose; snapshot h + 1 is the pose after half-pass h.
  std::span<const glm::vec3> snapshot(std::size_t s) const;

  std::vector<glm::vec3> poses_;  // (max_half_passes_ + 1) x max_joints_
  std::vector<Meta> meta_;        // max_half_passes_
  std::size_t max_joints_ = 0;
  std::size_t max_half_passes_ = 0;

  bool recorded_ = false;
  bool truncated_ = false;
  std::size_t joint_count_ = 0;
  std::size_t half_pass_count_ = 0;
  glm::vec3 target_{0.0f};
  float start_distance_ = 0.0f;
};

// Forwards the solve of a chain whose root sits at the origin to another observer, every
// pose and the target moved by `offset` (a leg solved relative to its hip, recorded in world
// coordinates). Sized once (Resize) for the chain's joints: forwarding allocates nothing.
class OffsetObserver final : public SolveObserver {
 public:
  void Resize(std::size_t joints) { buffer_.resize(joints); }
  void OnBegin(std::span<const glm::vec3> joints, const glm::vec3& target) override;
  void OnHalfPass(PassKind kind, int iteration, std::span<const glm::vec3> joints) override;

  SolveObserver* inner = nullptr;  // null: forwards nothing
  glm::vec3 offset{0.0f};
  bool skip_begin = false;  // continuing a solve: do not start a new recording

 private:
  std::span<const glm::vec3> Shift(std::span<const glm::vec3> joints);
  std::vector<glm::vec3> buffer_;
};

}  // namespace fabrik

// leg.h - one leg of the walker: a FABRIK chain from the hip to the foot, with a knee pole.
//
// docs/walker.md: The walker. The chain is the solver's Chain (ik/chain.h), kept in hip-relative
// coordinates (its root stays at the origin, as a Chain's root must) so the hip can travel
// with the body: a solve aims the chain at foot_target - hip with the pole at pole - hip, and
// the world pose is that plus the hip. Each solve is SolveFabrikConstrained
// (ik/constrained_fabrik.h) with one joint limit and a pole: the first segment (a spider's
// coxa) stays in an elliptical cone around the leg's outward direction, and the knees bend
// towards the pole - up and outwards - the natural way, by the solver, not by lifting joints
// afterwards. The pose
// before the solve (the previous pose carried along with the hip, the warm start) and after it
// are both kept for the debug view. With more than one inner joint, pole steps and reaches can
// settle short of the target; the solve then finishes without the pole (same limit),
// warm-started from the bent pose, which closes the gap and keeps the knee where it is.
//
// Solving never allocates: the poses are sized when the leg is made.
#pragma once

#include <glm/gtc/quaternion.hpp>
#include <glm/vec3.hpp>
#include <span>
#include <vector>

#include "ik/chain.h"
#include "ik/constrained_fabrik.h"
#include "ik/recording_observer.h"
#include "ik/result.h"
#include "ik/solve_types.h"

namespace fabrik {

class Leg {
 public:
  // A leg rooted at `hip` (world) with the given segment lengths (validated as
  // Chain::Straight does), first laid straight from the hip towards `towards`, which must
  // differ from the hip. `hip_cone` limits the first segment (constraints.h; radians).
  // Fails with the chain's or the constraint's message.
  static Result<Leg> Create(const glm::vec3& hip, const glm::vec3& towards,
                            std::span<const float> lengths, const ConeLimits& hip_cone);

  // Moves the hip to `hip` (the pose travels with it), records that pose as pre_solve(), then
  // solves for the foot to reach `foot_target` with the knee pole `pole` (all world space).
  // `hip_frame` places the hip cone: forward = the leg's outward direction, up = the body's
  // up (world space). `observer` (may be null) sees the solve in world coordinates. Invalid
  // input (non-finite points, bad settings) changes nothing and returns the solver's error.
  ConstrainedSolveResult Solve(const glm::vec3& hip, const glm::vec3& foot_target,
                               const glm::vec3& pole, const BaseFrame& hip_frame,
                               const SolveSettings& settings, SolveObserver* observer = nullptr);

  // World joints after the last solve: hip first, foot last.
  std::span<const glm::vec3> joints() const { return world_; }
  // World joints before the last solve started.
  std::span<const glm::vec3> pre_solve() const { return pre_; }
  const glm::vec3& hip() const { return hip_; }
  const glm::vec3& foot() const { return world_.back(); }
  // Segment lengths, hip outwards (fixed for the leg's life).
  std::span<const float> lengths() const { return chain_.lengths(); }
  float reach() const { return chain_.total_length(); }

 private:
  Leg(Chain chain, ChainConstraints limits, const glm::vec3& hip);
  void UpdateWorld();

  Chain chain_;              // hip-relative: root at the origin
  ChainConstraints limits_;  // one cone, at the hip; its base frame is set by every solve
  glm::vec3 hip_{0.0f};
  std::vector<glm::vec3> world_;
  // Forwards a hip-relative solve to an observer in world coordinates (adds the hip).
  OffsetObserver observer_;
  std::vector<glm::vec3> pre_;
};

// One unit quaternion per segment of `joints` (world space), turning the bone's rest axis +Y
// onto the segment, with its twist fixed so the bone's +X lies along `side` made
// perpendicular to the segment (for a leg: the knee's bending axis, so the frames do not spin
// as the leg moves). When `side` is (nearly) along a segment, any perpendicular is used.
// Writes min(out.size(), joints.size() - 1) entries.
void BoneRotations(std::span<const glm::vec3> joints, const glm::vec3& side,
                   std::span<glm::quat> out);

}  // namespace fabrik

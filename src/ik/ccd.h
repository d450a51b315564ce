// ccd.h - Cyclic Coordinate Descent on a single chain, for comparison with FABRIK.
//
// Wang & Chen, "A combined optimization method for solving the inverse kinematics problems
// of mechanical manipulators", IEEE Trans. Robotics and Automation 7(4), 1991; the form used
// here is the usual one for unconstrained 3-DOF (ball) joints: visit the joints from the end
// effector's parent down to the root and, at each, turn everything beyond it (rigidly) by the
// smallest rotation that points the joint->effector direction at the joint->target direction.
//
// SolveCcd keeps the contract of SolveFabrik (fabrik.h):
//   * invalid input (ValidateSolveInput fails): ok = false, the chain is not touched.
//   * target farther than total_length() from the root: StraightenTowards, iterations = 1,
//     reachable = false (observer: one PassKind::kStraighten call).
//   * effector already within tolerance: iterations = 0, nothing moves.
//   * otherwise iterate from the current pose (warm start) until |effector - target| <=
//     tolerance or settings.max_iterations.
// One iteration = one sweep over all joints, effector's parent first, root last. The observer's
// OnHalfPass(PassKind::kForward, iteration, joints) is called once after each sweep: for CCD a
// "pass" is the whole sweep (there is no backward half).
// Always: the root does not move (bitwise), every segment keeps its length (positions are
// rebuilt from rotated unit directions, so lengths are exact to float rounding), no joint
// becomes NaN or inf. Degenerate geometry:
//   * the effector on a joint, or the target on a joint: that joint is skipped in the sweep.
//   * joint->effector opposite to joint->target: a half turn about an axis perpendicular to it.
//   * a sweep that moves nothing although the target is not reached happens only when the
//     whole chain lies on the line through the target (e.g. a straight chain aimed along its
//     own axis at a nearer target); the chain is then bent slightly off that line
//     (BendOffLine, line_pose.h), at most once per solve, so the next sweep has a side to
//     turn towards. If it stalls again the solve stops early (not reached).
// Convergence: fast when the target is well inside the reach, slow near full reach, where the
// chain must end up almost straight and each sweep uncurls it only a little (on random targets
// for a 10-joint chain at 0.1% of its length: about 8x FABRIK's mean iterations, hundreds to
// thousands near full reach; see build/bin/bench_tables).
// Cost: O(joints) per sweep (the rotations are accumulated and the pose rebuilt once per
// sweep), plus one per-thread scratch array of one quaternion per joint that grows to the
// largest chain solved on that thread; after that no heap allocation.
#pragma once

#include "chain.h"
#include "solve_types.h"

namespace fabrik {

// Options particular to CCD. Defaults give the textbook algorithm.
struct CcdOptions {
  // The largest rotation any one joint makes in one sweep, radians, in (0, pi]. Smaller values
  // damp CCD's habit of curling the outer joints first, at the price of more iterations.
  // Values outside (0, pi] (or NaN) are treated as pi.
  float max_joint_angle = 3.14159265f;
};

[[nodiscard]] SolveResult SolveCcd(Chain& chain, const glm::vec3& target,
                                   const SolveSettings& settings, SolveObserver* observer = nullptr,
                                   const CcdOptions& options = {});

}  // namespace fabrik

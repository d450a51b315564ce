// jacobian.h - Jacobian transpose and damped least squares solvers, for comparison with FABRIK.
//
// Model: every joint but the end effector is a 3-DOF ball joint whose three rotation axes are
// the world x, y and z axes at the current pose. For joint j at p_j and the effector at e, the
// three Jacobian columns are axis_k x (e - p_j), so J is 3 x 3(joints - 1) and
//     J J^T = sum_j ( |r_j|^2 I - r_j r_j^T ),   r_j = e - p_j,
//     (J^T v) for joint j = r_j x v  (a world-space rotation vector),
// which is how both solvers use it: no J is ever stored, each step is O(joints).
// See S. R. Buss, "Introduction to Inverse Kinematics with Jacobian Transpose, Pseudoinverse
// and Damped Least Squares methods" (2004/2009), and Buss & Kim, "Selectively damped least
// squares for inverse kinematics", J. Graphics Tools 10(3), 2005.
//
// * Jacobian transpose (SolveJacobianTranspose): dtheta = alpha J^T e, with e the (clamped)
//   error target - effector and Buss's step alpha = <e, J J^T e> / <J J^T e, J J^T e>, the
//   step that best removes e if the chain moved linearly.
// * Damped least squares (SolveDls): dtheta = J^T (J J^T + lambda^2 I)^-1 e, the 3x3 system
//   solved with glm::inverse (it is symmetric positive definite for lambda > 0).
// Both clamp the error to at most max_step x total_length() per iteration (Buss & Kim), then
// scale the whole step down if any joint would turn by more than max_joint_angle.
// The rotations are applied as a product from the root outwards, and the pose is rebuilt from
// the root along rotated unit segment directions.
//
// Both keep the contract of SolveFabrik (fabrik.h):
//   * invalid input (ValidateSolveInput fails): ok = false, the chain is not touched.
//   * target farther than total_length() from the root: StraightenTowards, iterations = 1,
//     reachable = false (observer: one PassKind::kStraighten call).
//   * effector already within tolerance: iterations = 0, nothing moves.
//   * otherwise iterate from the current pose (warm start) until |effector - target| <=
//     tolerance or settings.max_iterations. The transpose needs many iterations: on random
//     targets for a 10-joint chain at 0.1% of its length, about 16x FABRIK's mean, and
//     thousands for targets near full reach, where J J^T is badly conditioned. DLS with the
//     default options needs about as many as FABRIK (its step is clamped, so a far target
//     takes at least distance / (max_step x length) iterations), each costing more.
//     (build/bin/bench_tables prints the figures.)
// One iteration = one Jacobian step. The observer's OnHalfPass(PassKind::kForward, iteration,
// joints) is called once after each step: for these solvers a "pass" is the whole step.
// Always: the root does not move (bitwise), every segment keeps its length (exact to float
// rounding), no joint becomes NaN or inf. The one singular case, J^T e = 0 with the target not
// reached, happens only when the whole chain lies on the line through the target (e.g. a
// straight chain aimed along its own axis at a nearer target): the chain is then bent slightly
// off that line (BendOffLine, line_pose.h), at most once per solve; if it stalls again the
// solve stops early (not reached).
// No heap allocation and no scratch memory: each step makes three O(joints) passes.
#pragma once

#include "chain.h"
#include "solve_types.h"

namespace fabrik {

// Options particular to the Jacobian solvers. Zero, negative or non-finite values are replaced
// by the defaults.
struct JacobianOptions {
  // DLS only: the damping lambda as a fraction of the chain's total length, so the behaviour
  // does not depend on the chain's scale (lambda = damping x total_length()). Larger is
  // steadier near singularities and slower to converge; 0.1 suits chains of a few to a few
  // dozen segments.
  float damping = 0.1f;
  // The most of the error one iteration tries to remove, as a fraction of the chain's total
  // length (Buss & Kim's clamp on the target distance).
  float max_step = 0.2f;
  // The largest rotation of any joint in one iteration, radians; larger steps are scaled
  // down as a whole so their direction is kept.
  float max_joint_angle = 0.5f;
};

[[nodiscard]] SolveResult SolveJacobianTranspose(Chain& chain, const glm::vec3& target,
                                                 const SolveSettings& settings,
                                                 SolveObserver* observer = nullptr,
                                                 const JacobianOptions& options = {});

[[nodiscard]] SolveResult SolveDls(Chain& chain, const glm::vec3& target,
                                   const SolveSettings& settings, SolveObserver* observer = nullptr,
                                   const JacobianOptions& options = {});

}  // namespace fabrik

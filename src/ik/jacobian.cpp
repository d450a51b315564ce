#include "ik/jacobian.h"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/mat3x3.hpp>
#include <glm/matrix.hpp>

#include "ik/fabrik.h"
#include "ik/line_pose.h"
#include "ik/solver.h"
#include "ik/vec_util.h"

namespace fabrik {
namespace {

enum class Method { kTranspose, kDampedLeastSquares };

float PositiveOr(float value, float fallback) {
  return (std::isfinite(value) && value > 0.0f) ? value : fallback;
}

// The outer product r r^T, built by hand to stay clear of GLM's row/column conventions.
glm::mat3 OuterSelf(const glm::vec3& r) {
  return glm::mat3(r * r.x, r * r.y, r * r.z);  // column c is r * r[c]
}

// Pass 1, joint by joint (see jacobian.h): J J^T (for DLS), J J^T e and |J^T e|^2 for the
// pose p with effector `effector` and the error e (in units of the chain's length). The last
// two are summed from cross products c_j = r_j x e rather than from the matrix: |r|^2 |e|^2 -
// (r.e)^2 cancels catastrophically when r is nearly parallel to e, which is exactly where they
// must be accurate.
struct JacobianSums {
  glm::mat3 jjt{0.0f};
  glm::vec3 jjt_error{0.0f};
  float gradient_sq = 0.0f;
  float lever_sq = 0.0f;
};

JacobianSums SumJacobian(Method method, std::span<const glm::vec3> p, const glm::vec3& effector,
                         const glm::vec3& error, float inv_scale) {
  JacobianSums s;
  for (std::size_t j = 0; j + 1 < p.size(); ++j) {
    const glm::vec3 r = (effector - p[j]) * inv_scale;
    const glm::vec3 c = glm::cross(r, error);
    if (method == Method::kDampedLeastSquares) s.jjt += glm::mat3(glm::dot(r, r)) - OuterSelf(r);
    s.jjt_error += glm::cross(c, r);  // r x (e x r) = |r|^2 e - (r.e) r
    s.gradient_sq += glm::dot(c, c);
    s.lever_sq += glm::dot(r, r);
  }
  return s;
}

// The step is J^T v: joint j turns by the world rotation vector gain * (r_j x v). Sets v and
// gain (both zero when the transpose has no step).
void StepOf(Method method, const JacobianSums& s, const glm::vec3& error, float lambda,
            glm::vec3& v, float& gain) {
  v = glm::vec3(0.0f);
  gain = 0.0f;
  if (method == Method::kTranspose) {
    // Buss's alpha: the multiple of J^T e whose linear effect best matches e.
    const float denominator = glm::dot(s.jjt_error, s.jjt_error);
    if (s.gradient_sq > 0.0f && denominator > 0.0f) {
      v = error;
      gain = s.gradient_sq / denominator;
    }
  } else {
    // J J^T + lambda^2 I is symmetric positive definite for lambda > 0.
    const glm::mat3 damped = s.jjt + glm::mat3(lambda * lambda);
    v = glm::inverse(damped) * error;
    gain = 1.0f;
  }
}

// Passes 2 and 3: the step J^T v x gain, scaled so no joint turns more than max_angle, applied
// to the pose. Returns false (the pose unchanged) when it has no direction at all.
bool TurnJoints(std::span<glm::vec3> p, std::span<const float> len, const glm::vec3& effector,
                const glm::vec3& v, float gain, float inv_scale, float max_angle) {
  const std::size_t n = p.size();
  // Pass 2: the largest joint rotation, to scale the whole step within max_angle.
  float largest = 0.0f;
  for (std::size_t j = 0; j + 1 < n; ++j) {
    const glm::vec3 r = (effector - p[j]) * inv_scale;
    largest = std::max(largest, gain * glm::length(glm::cross(r, v)));
  }
  if (!std::isfinite(largest) || !(largest > 0.0f)) return false;
  if (largest > max_angle) gain *= max_angle / largest;
  // Pass 3: rotations composed from the root outwards (segment k turns by R_0 R_1 ... R_k),
  // the pose rebuilt along the turned unit directions.
  glm::quat total(1.0f, 0.0f, 0.0f, 0.0f);
  glm::vec3 old_parent = p[0];
  for (std::size_t k = 0; k + 1 < n; ++k) {
    const glm::vec3 omega = gain * glm::cross((effector - old_parent) * inv_scale, v);
    const float angle = glm::length(omega);
    if (angle > 0.0f) total = glm::normalize(total * glm::angleAxis(angle, omega / angle));
    const glm::vec3 old_child = p[k + 1];
    const glm::vec3 dir = SafeNormalize(old_child - old_parent, glm::vec3(0.0f, 1.0f, 0.0f));
    p[k + 1] = p[k] + SafeNormalize(total * dir, dir) * len[k];
    old_parent = old_child;
  }
  return true;
}

SolveResult SolveJacobian(Method method, Chain& chain, const glm::vec3& target,
                          const SolveSettings& settings, SolveObserver* observer,
                          const JacobianOptions& options) {
  SolveResult result;
  const bool iterate = BeginSolve(chain, target, settings, observer, result);
  if (!result.ok) return result;
  std::span<glm::vec3> p = chain.pose_for_solver();
  std::span<const float> len = chain.lengths();
  const std::size_t n = p.size();
  const glm::vec3 root = p[0];
  if (iterate) {
    const JacobianOptions defaults;
    // Everything below is computed in units of the chain's total length, so J J^T neither
    // overflows for huge chains nor underflows for tiny ones. The rotations are unit-free and
    // come out the same (J^T e scales with length^2; alpha and (J J^T + lambda^2 I)^-1 with
    // 1/length^2).
    const float scale = chain.total_length();
    const float inv_scale = 1.0f / scale;
    const float lambda = PositiveOr(options.damping, defaults.damping);
    const float max_error = PositiveOr(options.max_step, defaults.max_step);
    const float max_angle = PositiveOr(options.max_joint_angle, defaults.max_joint_angle);
    const float stall = 1e-2f * settings.tolerance;
    const float tolerance_sq = settings.tolerance * settings.tolerance;
    bool bent = false;

    for (int iteration = 1; iteration <= settings.max_iterations; ++iteration) {
      const glm::vec3 effector = p[n - 1];
      // Buss & Kim: aim at most max_error towards the target per step; a linear model is only
      // trusted that far.
      glm::vec3 error = (target - effector) * inv_scale;
      const float error_length = glm::length(error);
      if (error_length > max_error) error *= max_error / error_length;

      const JacobianSums sums = SumJacobian(method, p, effector, error, inv_scale);
      // |J^T e|^2 vanishes only when every joint lies on the line through the effector along
      // e, i.e. through the target. gradient_sq / (lever_sq |e|^2) is the weighted mean sin^2
      // of the angles between e and the lever arms, so 1e-10 means within about 1e-5 rad of
      // that line: far above float noise, far below any pose worth stepping from.
      const bool flat_gradient =
          !(sums.gradient_sq > 1e-10f * sums.lever_sq * glm::dot(error, error));
      const glm::vec3 line =
          SafeNormalize(target - root, SafeNormalize(error, glm::vec3(0.0f, 1.0f, 0.0f)));
      const float line_eps = 1e-4f * scale;

      // The zero-gradient singularity: no rotation helps to first order. Bend off the line
      // once; if the chain is back on it, this is the best it can do.
      const LineEscape escape =
          flat_gradient ? EscapeLineOnce(chain, line, line_eps, bent) : LineEscape::kOffLine;
      bool stop = escape == LineEscape::kStuck;
      bool moved = escape == LineEscape::kBent;
      if (escape == LineEscape::kOffLine) {
        glm::vec3 v;
        float gain;
        StepOf(method, sums, error, lambda, v, gain);
        if (TurnJoints(p, len, effector, v, gain, inv_scale, max_angle)) {
          moved = glm::length(p[n - 1] - effector) >= stall;
        } else {
          stop = true;  // no direction at all; cannot happen off the line, but never loop idle
        }
      }

      result.iterations = iteration;
      const glm::vec3 miss = p[n - 1] - target;
      if (glm::dot(miss, miss) <= tolerance_sq) {
        stop = true;
      } else if (!moved && !stop &&
                 EscapeLineOnce(chain, line, line_eps, bent) == LineEscape::kStuck) {
        // A step too small to matter, on the line: the same singularity, reached by stepping.
        stop = true;
      }
      if (observer) observer->OnHalfPass(PassKind::kForward, iteration, p);
      if (stop) break;
    }
  }
  EndSolve(chain, target, settings, result);
  return result;
}

}  // namespace

SolveResult SolveJacobianTranspose(Chain& chain, const glm::vec3& target,
                                   const SolveSettings& settings, SolveObserver* observer,
                                   const JacobianOptions& options) {
  return SolveJacobian(Method::kTranspose, chain, target, settings, observer, options);
}

SolveResult SolveDls(Chain& chain, const glm::vec3& target, const SolveSettings& settings,
                     SolveObserver* observer, const JacobianOptions& options) {
  return SolveJacobian(Method::kDampedLeastSquares, chain, target, settings, observer, options);
}

}  // namespace fabrik

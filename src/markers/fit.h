// fit.h - the small fits the marker solver is built from (docs/markers.md, "The method").
//
// RigidFit: the rotation and translation that best carry `local` points onto `world` points in
// the weighted least-squares sense (Horn's closed form, ik/best_rotation.h, on the points taken
// about their weighted centres). Needs 3 points not on one line; otherwise ok = false.
//
// SphereFit: the centre of rotation of points that each keep their distance to it (several
// tracks, each with its own radius), by the algebraic least-squares fit |x|^2 = 2 c.x + k_i,
// with a ridge pulling c towards `prior` in the directions the data leave undetermined (a
// hinge's axis, a joint that hardly moves). Samples farther than 3 median deviations (and at
// least 5 mm) from the fit's sphere are dropped and the fit repeated, three times.
// All in metres. No heap allocation in RigidFit; SphereFit allocates per call.
#pragma once

#include <glm/gtc/quaternion.hpp>
#include <glm/vec3.hpp>
#include <span>
#include <vector>

namespace fabrik::markers {

// A rigid motion: world = rotation * local + translation.
struct Pose {
  glm::quat rotation{1.0f, 0.0f, 0.0f, 0.0f};
  glm::vec3 translation{0.0f};
  glm::vec3 Apply(const glm::vec3& local) const { return rotation * local + translation; }
  glm::vec3 Local(const glm::vec3& world) const {
    return glm::inverse(rotation) * (world - translation);
  }
};

// The smallest rotation turning direction a onto direction b (neither need be unit), exact
// for small angles too (computed in double); identity when either is shorter than 1e-9, and
// half a turn about an axis perpendicular to a when they are opposite.
glm::quat SmallestRotation(const glm::vec3& a, const glm::vec3& b);

struct FitPoint {
  glm::vec3 local{0.0f};
  glm::vec3 world{0.0f};
  float weight = 1.0f;
};

struct RigidFitResult {
  bool ok = false;
  Pose pose;
};

// See the header comment. Points with weight <= 0 are ignored.
RigidFitResult RigidFit(std::span<const FitPoint> points);

// Solves the n x n system m x = b (row-major m), leaving x in b; false when singular.
// Gaussian elimination with partial pivoting; m and b are overwritten.
bool SolveLinear(std::vector<double>& m, std::vector<double>& b, int n);

// One sample of a track for SphereFit: `track` in [0, kMaxSphereTracks).
inline constexpr int kMaxSphereTracks = 6;
struct SphereSample {
  glm::vec3 position{0.0f};
  int track = 0;
};

// See the header comment. `ridge` weighs the prior per sample (metres^2 of spread below
// which the prior wins, about). Returns the prior when there are fewer than 4 samples.
glm::vec3 SphereFit(std::span<const SphereSample> samples, const glm::vec3& prior,
                    float ridge = 1e-5f);

}  // namespace fabrik::markers

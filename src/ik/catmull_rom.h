// catmull_rom.h - a centripetal Catmull-Rom spline with an arc-length table: the curve the
// target follows in spline mode (src/targets) and the curve spline IK lays a chain along
// (spline_ik.h). Pure math on GLM, so it lives in the solver library.
//
// Space and units: control points and every returned point are world-space positions
// (right-handed, +Y up) in world units; distances along the curve are world units measured
// along the arc, from the first control point.
//
// The curve:
//   * passes through every control point, in order;
//   * is a centripetal Catmull-Rom spline (alpha = 0.5): segment i runs from point i to point
//     i + 1 and is shaped by points i - 1 and i + 2, with knot intervals |P(k+1) - P(k)|^0.5.
//     Unlike the uniform variant it never forms a cusp or a loop inside a segment, however
//     uneven the point spacing (Yuksel, Schaefer, Keyser: "Parameterization and applications
//     of Catmull-Rom curves", 2011);
//   * open (default): segment_count() = point count - 1. The two missing outer neighbours are
//     "phantom" points reflected through the end points: P(-1) = 2 P(0) - P(1) and
//     P(n) = 2 P(n-1) - P(n-2). With this rule the end segments leave / arrive along the
//     chord to their neighbour, as a straight-ish, cusp-free continuation;
//   * closed: the last point joins back to the first, segment_count() = point count, and the
//     curve is C1 all the way round, including the join.
//
// Creation validates and cleans the points; a created Spline is always valid, so nothing
// else here can fail. Every function is const, pure and deterministic; nothing throws.
#pragma once

#include <cstddef>
#include <glm/vec3.hpp>
#include <vector>

#include "result.h"

namespace fabrik {

class Spline {
 public:
  static constexpr double kAlpha = 0.5;  // centripetal
  // Coordinates must satisfy |c| <= kMaxCoordinate (keeps lengths finite in float).
  static constexpr float kMaxCoordinate = 1.0e6f;
  // A point closer than this to the previously kept point is a duplicate and is dropped.
  static constexpr float kMinPointSpacing = 1.0e-5f;
  // Most control points a spline may have (after duplicates are dropped).
  static constexpr std::size_t kMaxPoints = 10000;  // bounds memory (docs/language.md: Spline files)

  // Builds the curve through `points`.
  // Cleaning: a point within kMinPointSpacing of the previous kept point is dropped (so
  // repeated points never make zero-length knot intervals); for a closed curve, a last point
  // equal to the first is dropped too (writing the start again to "close" a loop is fine).
  // Fails, naming the first problem, when a coordinate is NaN/inf or beyond kMaxCoordinate
  // ("spline point 4 has a non-finite coordinate"), when fewer than 2 distinct points remain
  // for an open curve or 3 for a closed one ("a closed spline needs at least 3 distinct
  // points, got 2"), or when more than kMaxPoints remain.
  static Result<Spline> Create(std::vector<glm::vec3> points, bool closed);

  // The control points after cleaning (see Create), in order.
  const std::vector<glm::vec3>& points() const { return points_; }
  bool closed() const { return closed_; }
  // Number of curve segments: points - 1 for an open curve, points for a closed one. >= 1.
  int segment_count() const { return static_cast<int>(segments_.size()); }
  // Total arc length in world units (> 0, finite). Accurate to ~1e-6 relative.
  float length() const { return static_cast<float>(total_length_); }

  // The point of segment `segment` at local parameter `t`: t = 0 is points()[segment],
  // t = 1 the next control point (points()[0] for a closed curve's last segment). `segment`
  // is clamped to [0, segment_count() - 1] and `t` to [0, 1] (NaN counts as 0). Note that
  // t is the curve's own parameter, not a fraction of the segment's length.
  glm::vec3 Evaluate(int segment, float t) const;

  // The point at global parameter `u`: segment floor(u) at local parameter u - floor(u), so
  // u = k is control point k. Open curves clamp u to [0, segment_count()]; closed curves wrap
  // it modulo segment_count(). NaN counts as 0.
  glm::vec3 EvaluateGlobal(double u) const;

  // The global parameter (as in EvaluateGlobal) of the point at arc distance `s` from the
  // start. Open curves clamp s to [0, length()]; closed curves wrap it modulo length().
  // NaN counts as 0.
  double ParameterAtDistance(double s) const;

  // The point at arc distance `s` from the first control point (clamping/wrapping as in
  // ParameterAtDistance). Moving s at a constant rate moves the point at constant speed
  // along the curve (checked in tests to within 2% between consecutive equal steps).
  glm::vec3 PointAtDistance(double s) const;

  // Points for drawing the curve as a line strip: `samples_per_segment` evenly spaced
  // parameter steps per segment (clamped to [1, 1024]), from the first control point to the
  // last; for a closed curve the first point is repeated at the end so the strip closes.
  // Size: segment_count() * samples_per_segment + 1.
  std::vector<glm::vec3> Tessellate(int samples_per_segment) const;

 private:
  // One segment's four shaping points and its knots, in double for accuracy with very uneven
  // spacing; t0 = 0 always.
  struct Segment {
    double p[4][3];
    double t1, t2, t3;
  };

  // A segment's velocity d/du as a quadratic in u: c[0] + c[1] u + c[2] u^2 per axis. The
  // segment is a cubic in u, so this is exact; it is read from the pyramid's point and
  // velocity at both ends (the cubic Hermite form), and is about ten times cheaper to
  // evaluate than the pyramid, which matters for the arc-length table's many samples.
  struct Velocity {
    double c[3][3];
    double Speed(double u) const;
  };

  Spline() = default;
  void Evaluate(int segment, double t, double out_point[3], double out_velocity[3]) const;
  Velocity VelocityOf(int segment) const;
  // Arc length of one segment between parameters u_from and u_to (5-point Gauss-Legendre).
  static double ArcLength(const Velocity& velocity, double u_from, double u_to);
  void BuildArcTable();

  std::vector<glm::vec3> points_;
  bool closed_ = false;
  std::vector<Segment> segments_;
  // Arc-length table: samples_per_segment_ + 1 entries per segment would repeat the joins,
  // so it holds segment_count() * samples_per_segment_ + 1 cumulative distances, entry k at
  // global parameter k / samples_per_segment_.
  int samples_per_segment_ = 1;
  std::vector<double> cumulative_;
  double total_length_ = 0.0;
};

}  // namespace fabrik

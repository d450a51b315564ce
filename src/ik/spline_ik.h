// spline_ik.h - spline IK: a chain laid along a curve from its start, every joint on the curve
// (as Blender's Spline IK constraint and Godot's SplineIK3D do).
//
// LayAlongCurve(curve, lengths, fit, out) places joint 0 at the curve's start (its first
// control point) and each next joint at a point further along the curve whose straight
// distance from the previous joint is that segment's length (the first such point, unless the
// curve comes back within that length after leaving it): segments are chords of the curve,
// so every length is kept exactly (to float rounding) and every joint lies on the curve (within
// 1e-6 of its segment's length plus float rounding of the curve's evaluation; tested within
// 1e-5 of the chain's length). The joints are in order along the curve.
//   * A chain longer than the curve: the joints that do not fit continue straight on from the
//     last one placed, along the direction from it to the curve's end point (or, when that is
//     the same point, the last placed segment's direction); `on_curve` counts the joints on
//     the curve.
//   * fit = kStretch: every length is scaled by one factor (`scale`, > 0; < 1 shrinks) chosen
//     so the last joint lands on the curve's end point (within 1e-6 of the curve's length): the
//     chain covers the whole curve. Found by safeguarded secant steps on the factor. Where the
//     curve bends back to within a segment's length of a joint, a joint's place can jump as the
//     factor grows; the chain may then stop short of the end (`covered` < the curve's length),
//     all joints still on the curve.
//   * closed curves are followed for one lap from control point 0.
// Units: world units; the curve's control points and `out` are world points.
// Failure (ok = false, static message, `out` untouched): no lengths, a length not finite and
// > 0, or out.size() != lengths.size() + 1. Never throws; no heap allocation (the Spline is
// built by the caller, which does allocate: ik/catmull_rom.h).
// Cost: O(joints) curve evaluations, a few per joint (each an arc-length look-up, a bounded
// Newton refinement); with fit = kStretch about 10 times that.
#pragma once

#include <glm/vec3.hpp>
#include <span>

#include "catmull_rom.h"

namespace fabrik {

enum class CurveFit { kKeepLengths, kStretch };

struct SplineIkResult {
  bool ok = true;
  const char* error = nullptr;  // static text when !ok
  float scale = 1.0f;           // the factor applied to every length (1 unless kStretch)
  int on_curve = 0;             // joints placed on the curve (the others continue straight)
  float covered = 0.0f;         // arc length from the curve's start to the last joint on it
};

[[nodiscard]] SplineIkResult LayAlongCurve(const Spline& curve, std::span<const float> lengths,
                                           CurveFit fit, std::span<glm::vec3> out);

}  // namespace fabrik

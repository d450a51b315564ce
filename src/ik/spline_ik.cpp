#include "ik/spline_ik.h"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <limits>

namespace fabrik {
namespace {

using glm::dvec3;

struct Placement {
  int on_curve = 0;
  double covered = 0.0;  // arc distance of the last joint on the curve
  bool beyond = false;   // some joint did not fit
};

// The arc distance `next` > `s` of a curve point at straight distance `length` from `from` (the
// joint at arc distance s), with that point and its exact chord; false when even the end point
// is nearer than `length`. First steps forward by the chord's shortfall: a chord never exceeds
// its arc, so the chord at arc s + (L - chord) is still at most L and these steps approach the
// first such point from below without passing it. Where they crawl (the curve bending back),
// the steps are lengthened by the chord's measured slope; once a step passes L the crossing is
// bracketed and found by bisection.
bool NextOnCurve(const Spline& curve, const dvec3& from, double s, double length, double& next,
                 dvec3& point, double& chord) {
  const double total = curve.length();
  // Relative to the length, plus the float rounding of the joint `from` itself.
  const double tolerance =
      1e-7 * length +
      std::ldexp(std::max({std::fabs(from.x), std::fabs(from.y), std::fabs(from.z)}), -22);
  double under = s, chord_under = 0.0;
  double over = -1.0;
  next = s + length;
  for (int step = 0; step < 100; ++step) {
    if (next >= total) {
      next = total;
      point = dvec3(curve.PointAtDistance(total));
      chord = glm::length(point - from);
      if (chord < length - tolerance) return false;
      if (chord <= length + tolerance) return true;
      over = total;
      break;
    }
    point = dvec3(curve.PointAtDistance(next));
    chord = glm::length(point - from);
    if (std::fabs(chord - length) <= tolerance) return true;
    if (chord > length) {
      over = next;
      break;
    }
    const double slope = (chord - chord_under) / (next - under);
    under = next;
    chord_under = chord;
    const double shortfall = length - chord;
    next += step < 8 || !(slope > 0.0) ? shortfall : shortfall / std::max(slope, 0.01);
  }
  if (over < 0.0) return true;  // out of steps below the crossing: the best found
  for (int step = 0; step < 80 && over - under > 1e-15 * total; ++step) {
    next = 0.5 * (under + over);
    point = dvec3(curve.PointAtDistance(next));
    chord = glm::length(point - from);
    if (std::fabs(chord - length) <= tolerance) return true;
    (chord < length ? under : over) = next;
  }
  return true;
}

// Lays the chain with every length times `scale`; see the header.
Placement Place(const Spline& curve, std::span<const float> lengths, double scale,
                std::span<glm::vec3> out) {
  const double total = curve.length();
  Placement placement;
  out[0] = curve.PointAtDistance(0.0);
  placement.on_curve = 1;
  double s = 0.0;
  dvec3 last_dir(0.0, 1.0, 0.0);
  for (std::size_t i = 0; i < lengths.size(); ++i) {
    const double length = static_cast<double>(lengths[i]) * scale;
    const dvec3 from(out[i]);
    if (!placement.beyond) {
      double next = 0.0;
      dvec3 point(0.0);
      double chord = 0.0;
      if (!NextOnCurve(curve, from, s, length, next, point, chord)) {
        // The end point itself is nearer than `length`: the chain does not fit.
        placement.beyond = true;
      }
      if (!placement.beyond) {
        last_dir = chord > 0.0 ? (point - from) / chord : last_dir;
        out[i + 1] = glm::vec3(from + last_dir * length);
        s = next;
        placement.covered = next;
        ++placement.on_curve;
        continue;
      }
      // Off the end: straight on towards the end point.
      const dvec3 to_end = dvec3(curve.PointAtDistance(total)) - from;
      const double to_end_length = glm::length(to_end);
      if (to_end_length > 0.0) last_dir = to_end / to_end_length;
    }
    out[i + 1] = glm::vec3(from + last_dir * length);
  }
  return placement;
}

// How far short of the curve's end the chain stops with lengths times `scale`, in arc length;
// negative when the chain does not fit (by the straight distance from the end point to the
// last joint).
double Shortfall(const Spline& curve, std::span<const float> lengths, double scale,
                 std::span<glm::vec3> out) {
  const Placement p = Place(curve, lengths, scale, out);
  if (!p.beyond) return curve.length() - p.covered;
  // Strictly negative, even when the straight continuation happens to end on the end point.
  return -glm::length(dvec3(out.back()) - dvec3(curve.PointAtDistance(curve.length()))) -
         std::numeric_limits<double>::min();
}

}  // namespace

SplineIkResult LayAlongCurve(const Spline& curve, std::span<const float> lengths, CurveFit fit,
                             std::span<glm::vec3> out) {
  SplineIkResult result;
  const char* error = nullptr;
  if (lengths.empty()) error = "spline IK needs at least one segment";
  if (error == nullptr && out.size() != lengths.size() + 1) {
    error = "the output pose must have one point per joint";
  }
  double sum = 0.0;
  for (std::size_t i = 0; error == nullptr && i < lengths.size(); ++i) {
    if (!std::isfinite(lengths[i]) || !(lengths[i] > 0.0f)) error = "a segment length is not > 0";
    sum += lengths[i];
  }
  if (error != nullptr) {
    result.ok = false;
    result.error = error;
    return result;
  }
  double scale = 1.0;
  if (fit == CurveFit::kStretch) {
    // Chords are never longer than their arcs, so at total / sum the chain reaches the end or
    // beyond; at a scale near 0 it covers almost nothing. Secant steps between the two, kept
    // inside the bracket (bisection when a step would leave it).
    const double total = curve.length();
    double hi = total / sum;
    double f_hi = Shortfall(curve, lengths, hi, out);
    double lo = 1e-3 * hi;
    double f_lo = Shortfall(curve, lengths, lo, out);
    scale = hi;
    if (f_hi < 0.0 && f_lo >= 0.0) {
      for (int step = 0; step < 60; ++step) {
        double guess = hi - f_hi * (hi - lo) / (f_hi - f_lo);
        if (!(guess > lo && guess < hi)) guess = 0.5 * (lo + hi);
        // Once the bracket is tight the secant stalls on the kink where the last joint leaves
        // the curve; bisect every third step to keep it shrinking.
        if (step % 3 == 2) guess = 0.5 * (lo + hi);
        const double f = Shortfall(curve, lengths, guess, out);
        // Stop just short of the end (never past it, where the last joint is off the curve).
        if (f >= 0.0 && f <= 1e-6 * total) {
          lo = guess;
          break;
        }
        if (f > 0.0) {
          lo = guess;
          f_lo = f;
        } else {
          hi = guess;
          f_hi = f;
        }
      }
      // The largest factor known to keep the last joint on the curve: the end, or where the
      // placement jumps (see the header).
      scale = lo;
    }
  }
  const Placement p = Place(curve, lengths, scale, out);
  result.scale = static_cast<float>(scale);
  result.on_curve = p.on_curve;
  result.covered = static_cast<float>(p.covered);
  return result;
}

}  // namespace fabrik

// Tests for the centripetal Catmull-Rom spline (src/ik/catmull_rom.h).
//
// The reference curve below is computed independently of the library: the library uses the
// Barry-Goldman pyramid, the reference uses the equivalent non-uniform cubic Hermite form
// with knot-based tangents, so a mistake in either shows up as a mismatch.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include <glm/geometric.hpp>
#include <glm/vec3.hpp>

#include "ik/catmull_rom.h"
#include "lang/spline_file.h"

namespace fabrik {
namespace {

using glm::dvec3;
using glm::vec3;

// ---- independent reference -----------------------------------------------------------

// Control point k with the documented end rule: wrap for closed curves, reflect the
// neighbour through the end point for open ones.
dvec3 RefPoint(const std::vector<vec3>& p, bool closed, long k) {
  const long n = static_cast<long>(p.size());
  if (closed) return dvec3(p[static_cast<size_t>(((k % n) + n) % n)]);
  if (k < 0) return 2.0 * dvec3(p[0]) - dvec3(p[1]);
  if (k >= n) return 2.0 * dvec3(p[n - 1]) - dvec3(p[n - 2]);
  return dvec3(p[static_cast<size_t>(k)]);
}

// Segment i at local parameter u in [0, 1], as a cubic Hermite curve between P1 and P2 with
// the non-uniform Catmull-Rom tangents (derivative of the interpolating pyramid at the knots):
//   m1 = (P1-P0)/(t1-t0) - (P2-P0)/(t2-t0) + (P2-P1)/(t2-t1)
//   m2 = (P2-P1)/(t2-t1) - (P3-P1)/(t3-t1) + (P3-P2)/(t3-t2)
// scaled by (t2 - t1) to the unit parameter. alpha = 0.5 is centripetal, 0 is uniform.
dvec3 RefEvaluate(const std::vector<vec3>& p, bool closed, long i, double u, double alpha) {
  const dvec3 p0 = RefPoint(p, closed, i - 1), p1 = RefPoint(p, closed, i),
              p2 = RefPoint(p, closed, i + 1), p3 = RefPoint(p, closed, i + 2);
  const double t0 = 0.0;
  const double t1 = t0 + std::pow(glm::distance(p0, p1), alpha);
  const double t2 = t1 + std::pow(glm::distance(p1, p2), alpha);
  const double t3 = t2 + std::pow(glm::distance(p2, p3), alpha);
  const dvec3 m1 = (p1 - p0) / (t1 - t0) - (p2 - p0) / (t2 - t0) + (p2 - p1) / (t2 - t1);
  const dvec3 m2 = (p2 - p1) / (t2 - t1) - (p3 - p1) / (t3 - t1) + (p3 - p2) / (t3 - t2);
  const double h = t2 - t1;
  const double u2 = u * u, u3 = u2 * u;
  const double h00 = 2 * u3 - 3 * u2 + 1, h10 = u3 - 2 * u2 + u;
  const double h01 = -2 * u3 + 3 * u2, h11 = u3 - u2;
  return h00 * p1 + h10 * h * m1 + h01 * p2 + h11 * h * m2;
}

std::vector<vec3> SomePoints() {
  return {{0, 0, 0}, {1, 2, 0}, {1.2, 2.1, 0.5}, {4, 0, -1}, {4.5, -1, 2}, {0, -3, 0}};
}

Spline Make(std::vector<vec3> points, bool closed) {
  Result<Spline> s = Spline::Create(std::move(points), closed);
  EXPECT_TRUE(s.ok()) << s.error();
  return std::move(s).value();
}

bool Finite(vec3 v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

std::string AssetPath(const std::string& name) {
  return std::string(FABRIK_SOURCE_DIR) + "/assets/splines/" + name;
}

// ---- tests ------------------------------------------------------------------------------

TEST(CatmullRom, PassesThroughControlPoints) {
  for (bool closed : {false, true}) {
    const std::vector<vec3> p = SomePoints();
    const Spline s = Make(p, closed);
    const int n = static_cast<int>(p.size());
    ASSERT_EQ(s.segment_count(), closed ? n : n - 1);
    for (int i = 0; i < s.segment_count(); ++i) {
      EXPECT_LT(glm::distance(s.Evaluate(i, 0.0f), p[i]), 1e-5f) << "segment " << i;
      EXPECT_LT(glm::distance(s.Evaluate(i, 1.0f), p[(i + 1) % n]), 1e-5f) << "segment " << i;
      EXPECT_LT(glm::distance(s.EvaluateGlobal(i), p[i]), 1e-5f);
    }
    EXPECT_LT(glm::distance(s.PointAtDistance(0.0), p[0]), 1e-5f);
    const vec3 end = closed ? p[0] : p.back();
    EXPECT_LT(glm::distance(s.PointAtDistance(s.length()), end), 1e-4f);
  }
}

TEST(CatmullRom, MatchesNonUniformHermiteReference) {
  const std::vector<std::vector<vec3>> sets = {
      SomePoints(),
      {{-3.2f, 1.0f, 0}, {-3.05f, 1.25f, 0}, {-2.95f, 1.0f, 0}, {2.8f, 3.2f, 0}, {2.9f, 3.0f, 0}},
      {{0, 0, 0}, {10, 0, 0}},  // two points: the phantom rule makes a straight line
      {{0, 0, 0}, {0.01f, 0, 0}, {5, 5, 5}, {5, 5.02f, 5}, {-1, 3, 0}},
  };
  for (bool closed : {false, true}) {
    for (const auto& p : sets) {
      if (closed && p.size() < 3) continue;
      const Spline s = Make(p, closed);
      for (int i = 0; i < s.segment_count(); ++i) {
        for (int k = 0; k <= 16; ++k) {
          const double u = k / 16.0;
          const dvec3 want = RefEvaluate(p, closed, i, u, 0.5);
          const vec3 got = s.Evaluate(i, static_cast<float>(u));
          const double scale = std::max(1.0, glm::length(want));
          EXPECT_LT(glm::distance(dvec3(got), want), 2e-6 * scale)
              << "closed=" << closed << " segment " << i << " u=" << u;
        }
      }
    }
  }
}

// Guards the reference test: with these points the uniform curve differs from the
// centripetal one by far more than the tolerance, so a wrong alpha would be caught.
TEST(CatmullRom, CentripetalDiffersFromUniformOnUnevenPoints) {
  const std::vector<vec3> p = {{0, 0, 0}, {0.1f, 0.2f, 0}, {4, 1, 0}, {4.2f, 1.1f, 0}};
  const Spline s = Make(p, false);
  double max_diff = 0.0;
  for (int k = 1; k < 16; ++k) {
    const double u = k / 16.0;
    max_diff = std::max(max_diff, glm::distance(dvec3(s.Evaluate(1, static_cast<float>(u))),
                                                RefEvaluate(p, false, 1, u, 0.0)));
  }
  EXPECT_GT(max_diff, 0.05);
}

TEST(CatmullRom, TwoPointOpenCurveIsTheStraightSegment) {
  const Spline s = Make({{1, 1, 1}, {3, 1, 1}}, false);
  EXPECT_NEAR(s.length(), 2.0f, 1e-5f);
  for (int k = 0; k <= 10; ++k) {
    const vec3 q = s.PointAtDistance(0.2 * k);
    EXPECT_NEAR(q.x, 1.0f + 0.2f * k, 1e-4f);
    EXPECT_NEAR(q.y, 1.0f, 1e-5f);
    EXPECT_NEAR(q.z, 1.0f, 1e-5f);
  }
}

TEST(CatmullRom, DuplicatePointsAreDroppedAndNeverMakeNaN) {
  const std::vector<vec3> p = {{0, 0, 0}, {0, 0, 0}, {1, 0, 0}, {1, 0, 0},
                               {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 0}};
  for (bool closed : {false, true}) {
    const Spline s = Make(p, closed);
    EXPECT_EQ(s.points().size(), closed ? 4u : 5u);
    EXPECT_TRUE(std::isfinite(s.length()));
    EXPECT_GT(s.length(), 0.0f);
    for (const vec3& q : s.Tessellate(64)) EXPECT_TRUE(Finite(q));
    for (int k = 0; k <= 200; ++k) EXPECT_TRUE(Finite(s.PointAtDistance(s.length() * k / 200.0)));
  }
}

TEST(CatmullRom, RejectsBadInput) {
  struct Case {
    std::vector<vec3> points;
    bool closed;
    std::string error;
  };
  const float nan = std::nanf("");
  const float inf = INFINITY;
  const std::vector<Case> cases = {
      {{}, false, "an open spline needs at least 2 distinct points, got 0"},
      {{{1, 2, 3}}, false, "an open spline needs at least 2 distinct points, got 1"},
      {{{1, 2, 3}, {1, 2, 3}}, false, "an open spline needs at least 2 distinct points, got 1"},
      {{{0, 0, 0}, {1, 0, 0}}, true, "a closed spline needs at least 3 distinct points, got 2"},
      {{{0, 0, 0}, {1, 0, 0}, {0, 0, 0}},
       true,
       "a closed spline needs at least 3 distinct points, got 2"},
      {{{0, 0, 0}, {1, nan, 0}},
       false,
       "spline point 2 has a coordinate that is not finite or beyond +-1e6"},
      {{{0, 0, 0}, {1, 0, inf}},
       false,
       "spline point 2 has a coordinate that is not finite or beyond +-1e6"},
      {{{2e6f, 0, 0}, {1, 0, 0}},
       false,
       "spline point 1 has a coordinate that is not finite or beyond +-1e6"},
  };
  for (const Case& c : cases) {
    Result<Spline> s = Spline::Create(c.points, c.closed);
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error(), c.error);
  }
}

TEST(CatmullRom, ArcLengthOfACircleLikeLoop) {
  // 12 points on a circle of radius 2: the closed centripetal curve hugs the circle.
  std::vector<vec3> p;
  for (int k = 0; k < 12; ++k) {
    const float a = 2.0f * 3.14159265f * k / 12.0f;
    p.push_back({2.0f * std::cos(a), 2.0f * std::sin(a), 0.0f});
  }
  const Spline s = Make(p, true);
  // Independent measure: a fine polyline through the reference curve.
  double polyline = 0.0;
  for (long i = 0; i < 12; ++i) {
    dvec3 prev = RefEvaluate(p, true, i, 0.0, 0.5);
    for (int k = 1; k <= 2000; ++k) {
      const dvec3 q = RefEvaluate(p, true, i, k / 2000.0, 0.5);
      polyline += glm::distance(prev, q);
      prev = q;
    }
  }
  EXPECT_NEAR(s.length(), polyline, 1e-5 * polyline);
  EXPECT_NEAR(s.length(), 2.0 * 3.14159265 * 2.0, 0.05);
}

TEST(CatmullRom, DistanceWrapsWhenClosedAndClampsWhenOpen) {
  const Spline closed = Make(SomePoints(), true);
  const double l = closed.length();
  for (double s : {0.3, 1.7, 5.0}) {
    EXPECT_LT(glm::distance(closed.PointAtDistance(s), closed.PointAtDistance(s + l)), 1e-3f);
    EXPECT_LT(glm::distance(closed.PointAtDistance(s), closed.PointAtDistance(s - 2 * l)), 1e-3f);
  }
  const Spline open = Make(SomePoints(), false);
  EXPECT_EQ(open.PointAtDistance(-5.0), open.points().front());
  EXPECT_LT(glm::distance(open.PointAtDistance(open.length() + 9.0), open.points().back()), 1e-5f);
  EXPECT_EQ(open.ParameterAtDistance(1e30), open.segment_count());
  EXPECT_EQ(open.ParameterAtDistance(std::nan("")), 0.0);
  EXPECT_TRUE(Finite(closed.PointAtDistance(INFINITY)));
  EXPECT_TRUE(Finite(closed.EvaluateGlobal(-1e300)));
}

// Equal steps of distance give equal steps along the curve. Two measures:
//  * the arc between consecutive samples, measured independently as a fine polyline through
//    EvaluateGlobal between their parameters, equals the step within 2% everywhere;
//  * the straight-line distance (what a viewer sees) between consecutive samples agrees with
//    the previous one within 2%, wherever the curve does not turn sharply within a step (at
//    a hairpin the chord is necessarily much shorter than the arc, whatever the speed).
//    On the smooth curves (loop, helix, trefoil) that is every step.
TEST(CatmullRom, EqualDistanceStepsAreEquallySpaced) {
  for (const char* name : {"uneven.txt", "word.txt", "loop.txt", "helix.txt", "trefoil.txt"}) {
    Result<Spline> loaded = LoadSplineFile(AssetPath(name));
    ASSERT_TRUE(loaded.ok()) << loaded.error();
    const Spline& s = loaded.value();
    const double step = 1.0 / 60.0;  // 1 unit/s at 60 Hz
    double u_prev = s.ParameterAtDistance(0.0);
    dvec3 prev(s.PointAtDistance(0.0));
    double prev_chord = -1.0;
    bool prev_straight = false;
    double worst_arc = 0.0, worst_chord = 0.0;
    int chords_checked = 0;
    for (double d = step; d <= s.length(); d += step) {
      const double u = s.ParameterAtDistance(d);
      double arc = 0.0;
      dvec3 a(s.EvaluateGlobal(u_prev));
      for (int k = 1; k <= 64; ++k) {
        const dvec3 b(s.EvaluateGlobal(u_prev + (u - u_prev) * k / 64.0));
        arc += glm::distance(a, b);
        a = b;
      }
      worst_arc = std::max(worst_arc, std::fabs(arc - step) / step);

      const dvec3 q(s.PointAtDistance(d));
      const double chord = glm::distance(prev, q);
      // A step whose arc is more than 0.5% longer than its chord bends sharply (a corner).
      const bool straight = arc < 1.005 * chord;
      if (straight && prev_straight) {
        worst_chord =
            std::max(worst_chord, std::fabs(chord - prev_chord) / std::max(chord, prev_chord));
        ++chords_checked;
      }
      prev_chord = chord;
      prev_straight = straight;
      prev = q;
      u_prev = u;
    }
    EXPECT_LT(worst_arc, 0.02) << name;
    EXPECT_LT(worst_chord, 0.02) << name;
    EXPECT_GT(chords_checked, 0.9 * s.length() / step) << name;  // corners are a small part
  }
}

// The same check on equal *parameter* steps fails badly, so the test above has teeth.
TEST(CatmullRom, EqualParameterStepsAreNotEquallySpacedOnUnevenCurve) {
  Result<Spline> loaded = LoadSplineFile(AssetPath("uneven.txt"));
  ASSERT_TRUE(loaded.ok()) << loaded.error();
  const Spline& s = loaded.value();
  const int steps = 2000;
  double min_chord = 1e9, max_chord = 0.0;
  vec3 prev = s.EvaluateGlobal(0.0);
  for (int k = 1; k <= steps; ++k) {
    const vec3 q = s.EvaluateGlobal(s.segment_count() * static_cast<double>(k) / steps);
    const double c = glm::distance(prev, q);
    min_chord = std::min(min_chord, c);
    max_chord = std::max(max_chord, c);
    prev = q;
  }
  EXPECT_GT(max_chord / min_chord, 5.0);
}

// Does segment a-b cross segment c-d (XY plane, proper crossing)?
bool Crosses(dvec3 a, dvec3 b, dvec3 c, dvec3 d) {
  auto orient = [](dvec3 p, dvec3 q, dvec3 r) {
    return (q.x - p.x) * (r.y - p.y) - (q.y - p.y) * (r.x - p.x);
  };
  return orient(a, b, c) * orient(a, b, d) < 0 && orient(c, d, a) * orient(c, d, b) < 0;
}

bool SelfIntersects(const std::vector<dvec3>& poly) {
  for (size_t i = 0; i + 1 < poly.size(); ++i) {
    for (size_t j = i + 2; j + 1 < poly.size(); ++j) {
      if (Crosses(poly[i], poly[i + 1], poly[j], poly[j + 1])) return true;
    }
  }
  return false;
}

TEST(CatmullRom, NoCuspOrLoopOnUnevenSpacing) {
  Result<Spline> loaded = LoadSplineFile(AssetPath("uneven.txt"));
  ASSERT_TRUE(loaded.ok()) << loaded.error();
  const Spline& s = loaded.value();
  const std::vector<vec3>& p = s.points();
  constexpr int kSamples = 400;
  int uniform_loops = 0;
  for (int i = 0; i < s.segment_count(); ++i) {
    std::vector<dvec3> curve, uniform;
    for (int k = 0; k <= kSamples; ++k) {
      curve.push_back(dvec3(s.Evaluate(i, static_cast<float>(k) / kSamples)));
      uniform.push_back(RefEvaluate(p, false, i, static_cast<double>(k) / kSamples, 0.0));
    }
    // Speed (finite differences) never collapses and the direction never flips.
    double mean = 0.0, min_speed = 1e9;
    std::vector<dvec3> steps;
    for (int k = 0; k < kSamples; ++k) {
      steps.push_back(curve[k + 1] - curve[k]);
      const double v = glm::length(steps.back());
      mean += v / kSamples;
      min_speed = std::min(min_speed, v);
    }
    EXPECT_GT(min_speed, 0.02 * mean) << "segment " << i << " nearly stops (cusp)";
    for (size_t k = 1; k < steps.size(); ++k) {
      EXPECT_GT(glm::dot(glm::normalize(steps[k]), glm::normalize(steps[k - 1])), 0.0)
          << "segment " << i << " reverses at sample " << k;
    }
    EXPECT_FALSE(SelfIntersects(curve)) << "segment " << i << " loops";
    if (SelfIntersects(uniform)) ++uniform_loops;
  }
  // The file is a real test: uniform Catmull-Rom through the same points does loop.
  EXPECT_GE(uniform_loops, 1);
}

TEST(CatmullRom, TessellateSizesAndEnds) {
  const Spline open = Make(SomePoints(), false);
  std::vector<vec3> t = open.Tessellate(8);
  ASSERT_EQ(t.size(), 5u * 8u + 1u);
  EXPECT_EQ(t.front(), open.points().front());
  EXPECT_EQ(t.back(), open.points().back());
  EXPECT_EQ(open.Tessellate(0).size(), 5u + 1u);               // clamped to 1
  EXPECT_EQ(open.Tessellate(100000).size(), 5u * 1024u + 1u);  // clamped to 1024
  const Spline closed = Make(SomePoints(), true);
  t = closed.Tessellate(4);
  ASSERT_EQ(t.size(), 6u * 4u + 1u);
  EXPECT_EQ(t.back(), closed.points().front());
}

TEST(CatmullRom, ClosedCurveIsSmoothAcrossTheJoin) {
  const Spline s = Make(SomePoints(), true);
  const int last = s.segment_count() - 1;
  const float h = 1e-3f;
  const vec3 before = s.Evaluate(last, 1.0f) - s.Evaluate(last, 1.0f - h);
  const vec3 after = s.Evaluate(0, h) - s.Evaluate(0, 0.0f);
  EXPECT_GT(glm::dot(glm::normalize(before), glm::normalize(after)), 0.999f);
}

TEST(CatmullRom, OutOfRangeArgumentsAreClamped) {
  const Spline s = Make(SomePoints(), false);
  EXPECT_EQ(s.Evaluate(-3, 0.5f), s.Evaluate(0, 0.5f));
  EXPECT_EQ(s.Evaluate(99, 0.5f), s.Evaluate(s.segment_count() - 1, 0.5f));
  EXPECT_EQ(s.Evaluate(1, 7.0f), s.Evaluate(1, 1.0f));
  EXPECT_EQ(s.Evaluate(1, std::nanf("")), s.Evaluate(1, 0.0f));
}

}  // namespace
}  // namespace fabrik

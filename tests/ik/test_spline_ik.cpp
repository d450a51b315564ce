// Spline IK (src/ik/spline_ik.h): every joint on the curve from its start, lengths kept, in
// order along the curve; a chain longer than the curve goes straight on; fit = stretch covers
// the whole curve with one factor; refusals; no allocation.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "fabrik_test_util.h"
#include "ik/spline_ik.h"
#include "support/alloc_counter.h"

namespace fabrik {
namespace {

using testing::DistanceD;
using testing::RandomUnit;
using testing::Uniform;

Spline RandomCurve(std::mt19937& rng, int points) {
  std::vector<glm::vec3> p{glm::vec3(0.0f)};
  for (int i = 1; i < points; ++i)
    p.push_back(p.back() + RandomUnit(rng) * Uniform(rng, 0.5f, 2.0f));
  return std::move(Spline::Create(p, false)).value();
}

// Distance from `p` to the curve and the arc distance of the nearest point: dense samples,
// then a golden-section refinement between the neighbours of the best one.
std::pair<double, double> NearestOnCurve(const Spline& curve, const glm::vec3& p) {
  const int n = 4000;
  const double step = curve.length() / n;
  int best = 0;
  double best_d = 1e300;
  for (int k = 0; k <= n; ++k) {
    const double d = DistanceD(curve.PointAtDistance(k * step), p);
    if (d < best_d) best_d = d, best = k;
  }
  double a = std::max(0.0, (best - 1) * step),
         b = std::min(double(curve.length()), (best + 1) * step);
  const double g = 0.5 * (std::sqrt(5.0) - 1.0);
  for (int it = 0; it < 80; ++it) {
    const double c = b - g * (b - a), d = a + g * (b - a);
    if (DistanceD(curve.PointAtDistance(c), p) < DistanceD(curve.PointAtDistance(d), p)) {
      b = d;
    } else {
      a = c;
    }
  }
  const double s = 0.5 * (a + b);
  return {std::min(best_d, DistanceD(curve.PointAtDistance(s), p)), s};
}

TEST(SplineIk, EveryJointOnTheCurveInOrderWithLengthsKept) {
  std::mt19937 rng(17);
  for (int trial = 0; trial < 30; ++trial) {
    const Spline curve = RandomCurve(rng, 3 + trial % 6);
    std::vector<float> lengths(2 + trial % 12);
    for (float& l : lengths) l = Uniform(rng, 0.5f, 1.0f);
    float sum = 0.0f;
    for (float l : lengths) sum += l;
    // Chords are shorter than arcs, so a chain as long as the curve would not fit; half
    // does on these curves.
    const float shrink = 0.5f * curve.length() / sum;
    for (float& l : lengths) l *= std::min(1.0f, shrink);
    std::vector<glm::vec3> out(lengths.size() + 1);
    const SplineIkResult r = LayAlongCurve(curve, lengths, CurveFit::kKeepLengths, out);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.scale, 1.0f);
    EXPECT_EQ(r.on_curve, int(out.size())) << trial;
    EXPECT_EQ(out[0], curve.points().front());
    double chain = 0.0, previous_s = -1.0;
    for (float l : lengths) chain += l;
    for (std::size_t i = 0; i < out.size(); ++i) {
      const auto [d, s] = NearestOnCurve(curve, out[i]);
      EXPECT_LE(d, 1e-5 * chain) << trial << " joint " << i;
      EXPECT_GT(s, previous_s - 1e-4) << trial << " joint " << i;
      previous_s = s;
      if (i + 1 < out.size()) {
        EXPECT_NEAR(DistanceD(out[i], out[i + 1]), lengths[i], 2e-6 * lengths[i] + 1e-6);
      }
    }
  }
}

TEST(SplineIk, AChainLongerThanTheCurveGoesStraightOnPastItsEnd) {
  const Spline curve = std::move(Spline::Create({{0, 0, 0}, {1, 1, 0}, {2, 0, 0}}, false)).value();
  const std::vector<float> lengths(10, 0.5f);
  std::vector<glm::vec3> out(11);
  const SplineIkResult r = LayAlongCurve(curve, lengths, CurveFit::kKeepLengths, out);
  ASSERT_TRUE(r.ok);
  EXPECT_GT(r.on_curve, 3);
  EXPECT_LT(r.on_curve, 11);
  for (std::size_t i = 0; i + 1 < out.size(); ++i) {
    EXPECT_NEAR(DistanceD(out[i], out[i + 1]), 0.5, 1e-6);
  }
  // Past the end the joints are collinear.
  const std::size_t k = static_cast<std::size_t>(r.on_curve);
  const glm::dvec3 dir = glm::normalize(glm::dvec3(out[k]) - glm::dvec3(out[k - 1]));
  for (std::size_t i = k; i + 1 < out.size(); ++i) {
    EXPECT_NEAR(glm::dot(glm::normalize(glm::dvec3(out[i + 1]) - glm::dvec3(out[i])), dir), 1.0,
                1e-6);
  }
}

// A curve that turns by at most about 50 degrees at each control point: it never comes back
// within a segment's length of itself.
Spline GentleCurve(std::mt19937& rng, int points) {
  std::vector<glm::vec3> p{glm::vec3(0.0f)};
  glm::vec3 dir = RandomUnit(rng);
  for (int i = 1; i < points; ++i) {
    dir = glm::normalize(dir + 0.8f * RandomUnit(rng));
    p.push_back(p.back() + dir * Uniform(rng, 0.5f, 2.0f));
  }
  return std::move(Spline::Create(p, false)).value();
}

TEST(SplineIk, FitStretchCoversTheWholeCurveWithOneFactor) {
  std::mt19937 rng(4);
  for (int trial = 0; trial < 30; ++trial) {
    const Spline curve = GentleCurve(rng, 3 + trial % 5);
    std::vector<float> lengths(3 + trial % 9);
    for (float& l : lengths) l = Uniform(rng, 0.2f, 2.0f) * (trial % 2 ? 3.0f : 0.3f);
    std::vector<glm::vec3> out(lengths.size() + 1);
    const SplineIkResult r = LayAlongCurve(curve, lengths, CurveFit::kStretch, out);
    ASSERT_TRUE(r.ok);
    EXPECT_EQ(r.on_curve, int(out.size())) << trial;
    EXPECT_LE(DistanceD(out.back(), curve.points().back()), 1e-5 * curve.length()) << trial;
    for (std::size_t i = 0; i + 1 < out.size(); ++i) {
      EXPECT_NEAR(DistanceD(out[i], out[i + 1]), lengths[i] * r.scale,
                  2e-6 * lengths[i] * r.scale + 1e-6);
    }
    for (const glm::vec3& p : out) EXPECT_LE(NearestOnCurve(curve, p).first, 1e-5 * curve.length());
  }
}

TEST(SplineIk, BadInputIsRefusedAndNothingWritten) {
  const Spline curve = std::move(Spline::Create({{0, 0, 0}, {1, 0, 0}}, false)).value();
  std::vector<glm::vec3> out(3, glm::vec3(9.0f));
  EXPECT_FALSE(
      LayAlongCurve(curve, std::vector<float>{1.0f, 0.0f}, CurveFit::kKeepLengths, out).ok);
  EXPECT_FALSE(
      LayAlongCurve(curve, std::vector<float>{1.0f, std::nanf("")}, CurveFit::kStretch, out).ok);
  EXPECT_FALSE(LayAlongCurve(curve, std::vector<float>{1.0f}, CurveFit::kKeepLengths, out).ok);
  EXPECT_FALSE(LayAlongCurve(curve, {}, CurveFit::kKeepLengths, out).ok);
  EXPECT_EQ(out[0], glm::vec3(9.0f));
}

TEST(SplineIk, LayingNeverAllocates) {
  std::mt19937 rng(6);
  const Spline curve = RandomCurve(rng, 8);
  const std::vector<float> lengths(20, 0.4f);
  std::vector<glm::vec3> out(21);
  int ok = 0;
  testing::AllocationWindow window;
  for (int i = 0; i < 20; ++i) {
    ok +=
        LayAlongCurve(curve, lengths, i % 2 ? CurveFit::kStretch : CurveFit::kKeepLengths, out).ok;
  }
  EXPECT_EQ(window.Close(), 0);
  EXPECT_EQ(ok, 20);
}

}  // namespace
}  // namespace fabrik

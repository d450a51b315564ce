// Tests of the joint limits (constraints.h), the constrained chain solve and the pole
// (constrained_fabrik.h), and the plain descriptions (constraints_desc.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <numbers>
#include <optional>
#include <random>
#include <vector>

#include <glm/geometric.hpp>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include "fabrik_test_util.h"
#include "ik/chain.h"
#include "ik/constrained_fabrik.h"
#include "ik/constraints.h"
#include "ik/constraints_desc.h"
#include "ik/fabrik.h"
#include "ik/vec_util.h"

namespace fabrik {
namespace {

// Slack for "no joint violates its limit" after a solve, radians.
constexpr float kLimitSlack = 1e-3f;

float Angle(const glm::vec3& a, const glm::vec3& b) {
  return std::atan2(glm::length(glm::cross(a, b)), glm::dot(a, b));
}

using testing::Finite;
using testing::RandomUnit;
using testing::Uniform;

// The direction at `theta` from frame.forward, azimuth `phi` measured from frame.right
// towards frame.up.
glm::vec3 Spherical(const Frame& f, float theta, float phi) {
  return f.forward * std::cos(theta) +
         (f.right * std::cos(phi) + f.up * std::sin(phi)) * std::sin(theta);
}

// Frames in general position (not aligned with world axes).
Frame RandomFrame(std::mt19937& rng) { return MakeFrame({RandomUnit(rng), RandomUnit(rng)}); }

void ExpectOrthonormal(const Frame& f) {
  EXPECT_NEAR(glm::length(f.right), 1.0f, 1e-5f);
  EXPECT_NEAR(glm::length(f.up), 1.0f, 1e-5f);
  EXPECT_NEAR(glm::length(f.forward), 1.0f, 1e-5f);
  EXPECT_NEAR(glm::dot(f.right, f.up), 0.0f, 1e-5f);
  EXPECT_NEAR(glm::dot(f.up, f.forward), 0.0f, 1e-5f);
  EXPECT_NEAR(glm::dot(f.right, f.forward), 0.0f, 1e-5f);
  // right-handed: right = up x forward
  EXPECT_LT(glm::length(glm::cross(f.up, f.forward) - f.right), 1e-5f);
}

// A cone angle that is often one of the special values.
float RandomConeAngle(std::mt19937& rng) {
  switch (std::uniform_int_distribution<int>(0, 5)(rng)) {
    case 0:
      return 0.0f;
    case 1:
      return std::numbers::pi_v<float>;
    case 2:
      return std::numbers::pi_v<float> / 2.0f;
    default:
      return Uniform(rng, 0.0f, std::numbers::pi_v<float>);
  }
}

ConeLimits RandomCone(std::mt19937& rng) {
  return {RandomConeAngle(rng), RandomConeAngle(rng), RandomConeAngle(rng), RandomConeAngle(rng)};
}

// ---- Cone projection ------------------------------------------------------------------------

TEST(ConeConstraint, InsideDirectionIsUnchanged) {
  std::mt19937 rng(11);
  for (int i = 0; i < 500; ++i) {
    const Frame f = RandomFrame(rng);
    const ConeLimits cone{Uniform(rng, 0.2f, 3.0f), Uniform(rng, 0.2f, 3.0f),
                          Uniform(rng, 0.2f, 3.0f), Uniform(rng, 0.2f, 3.0f)};
    // Inside every quadrant ellipse: less than the smallest angle from the axis.
    const float smallest = std::min({cone.up, cone.down, cone.left, cone.right});
    const glm::vec3 d =
        Spherical(f, Uniform(rng, 0.0f, 0.9f * smallest),
                  Uniform(rng, -std::numbers::pi_v<float>, std::numbers::pi_v<float>));
    const glm::vec3 r = ConstrainToCone(d, f, cone);
    EXPECT_LT(Angle(d, r), 1e-6f);
    EXPECT_EQ(ViolationAngle(JointConstraint{ConstraintType::kBall, cone, {}}, f, d), 0.0f);
  }
}

TEST(ConeConstraint, CircularConeKeepsAzimuthAndStopsAtTheRim) {
  std::mt19937 rng(12);
  for (int i = 0; i < 500; ++i) {
    const Frame f = RandomFrame(rng);
    const float half = Uniform(rng, 0.05f, 2.9f);
    const float phi = Uniform(rng, -std::numbers::pi_v<float>, std::numbers::pi_v<float>);
    const float theta = Uniform(rng, half + 0.01f, std::numbers::pi_v<float> - 0.01f);
    const glm::vec3 r =
        ConstrainToCone(Spherical(f, theta, phi), f, JointConstraint::Cone(half).cone);
    EXPECT_NEAR(Angle(r, f.forward), half, 2e-4f) << "half " << half << " theta " << theta;
    EXPECT_LT(Angle(r, Spherical(f, half, phi)), 2e-4f);
  }
}

TEST(ConeConstraint, MoreThan90DegreesFromANarrowAxis) {
  const Frame f;  // forward +Y, up -Z, right +X
  const ConeLimits cone = JointConstraint::Cone(0.4f).cone;
  for (float theta : {1.6f, 2.0f, 2.5f, 3.0f, 3.14f}) {
    for (float phi : {0.0f, 1.0f, 2.0f, -2.5f}) {
      const glm::vec3 r = ConstrainToCone(Spherical(f, theta, phi), f, cone);
      EXPECT_NEAR(Angle(r, f.forward), 0.4f, 1e-4f) << theta << " " << phi;
      EXPECT_LT(Angle(r, Spherical(f, 0.4f, phi)), 1e-4f) << theta << " " << phi;
    }
  }
  // Elliptical: behind the tangent plane the result still lies on the boundary of its quadrant.
  const ConeLimits ell{0.6f, 0.2f, 0.3f, 0.9f};
  const JointConstraint ball{ConstraintType::kBall, ell, {}};
  std::mt19937 rng(13);
  for (int i = 0; i < 200; ++i) {
    const glm::vec3 d =
        Spherical(f, Uniform(rng, 1.6f, 3.1f),
                  Uniform(rng, -std::numbers::pi_v<float>, std::numbers::pi_v<float>));
    const glm::vec3 r = ConstrainToCone(d, f, ell);
    EXPECT_LT(ViolationAngle(ball, f, r), 1e-5f);
    EXPECT_TRUE(IsAtLimit(ball, f, r));
    EXPECT_LT(Angle(r, f.forward), 0.9f + 1e-4f);
  }
}

TEST(ConeConstraint, DirectlyOppositeGoesToTheWidestAxis) {
  const Frame f;
  const glm::vec3 back = -f.forward;
  // Widest is "down" (0.5): the result is 0.5 rad from the axis towards -up.
  glm::vec3 r = ConstrainToCone(back, f, {0.3f, 0.5f, 0.2f, 0.4f});
  EXPECT_LT(Angle(r, Spherical(f, 0.5f, -std::numbers::pi_v<float> / 2.0f)), 1e-5f);
  // Wide angular-regime cone: widest is "left" (2.5).
  r = ConstrainToCone(back, f, {1.0f, 2.0f, 2.5f, 0.1f});
  EXPECT_LT(Angle(r, Spherical(f, 2.5f, std::numbers::pi_v<float>)), 1e-5f);
  // One angle of pi allows the opposite direction.
  r = ConstrainToCone(back, f, {std::numbers::pi_v<float>, 0.5f, 0.5f, 0.5f});
  EXPECT_LT(Angle(r, back), 1e-6f);
  // A hair's breadth from the antipode the azimuth is rounding noise: landing in the narrow
  // "down" quadrant must not throw the direction 1.5 rad away when the antipode itself is
  // allowed through "up" (found by the fuzzer).
  const ConeLimits fan{std::numbers::pi_v<float>, 1.6f, 0.0f, 0.0f};
  const JointConstraint fan_ball{ConstraintType::kBall, fan, {}};
  for (const glm::vec3& noise :
       {glm::vec3(0, -1e-6f, 0), glm::vec3(1e-7f, -3e-7f, 0), glm::vec3(-2e-5f, 1e-6f, 0)}) {
    const glm::vec3 d = glm::normalize(back + noise.x * f.right + noise.y * f.up);
    EXPECT_LT(Angle(ConstrainToCone(d, f, fan), back), 1e-4f);
    EXPECT_LT(ViolationAngle(fan_ball, f, d), 1e-4f);
  }
}

TEST(ConeConstraint, ZeroAnglesSnapToTheAxis) {
  std::mt19937 rng(14);
  const ConeLimits zero{0.0f, 0.0f, 0.0f, 0.0f};
  const JointConstraint ball{ConstraintType::kBall, zero, {}};
  for (int i = 0; i < 300; ++i) {
    const Frame f = RandomFrame(rng);
    const glm::vec3 d = i == 0 ? -f.forward : RandomUnit(rng);
    EXPECT_LT(Angle(ConstrainToCone(d, f, zero), f.forward), 1e-6f);
    EXPECT_TRUE(IsAtLimit(ball, f, f.forward));  // a locked joint is always at its limit
  }
  // Zero in one direction only: a flat fan. Left = right = 0 keeps the segment in the
  // forward/up plane.
  const Frame f;
  const ConeLimits flat{1.0f, 1.0f, 0.0f, 0.0f};
  for (int i = 0; i < 200; ++i) {
    const glm::vec3 r = ConstrainToCone(RandomUnit(rng), f, flat);
    EXPECT_NEAR(glm::dot(r, f.right), 0.0f, 1e-5f);
    EXPECT_LE(Angle(r, f.forward), 1.0f + 1e-4f);
  }
}

TEST(ConeConstraint, HalfTurnAnglesAreNoLimit) {
  std::mt19937 rng(15);
  const ConeLimits free{std::numbers::pi_v<float>, std::numbers::pi_v<float>,
                        std::numbers::pi_v<float>, std::numbers::pi_v<float>};
  const JointConstraint ball{ConstraintType::kBall, free, {}};
  for (int i = 0; i < 300; ++i) {
    const Frame f = RandomFrame(rng);
    const glm::vec3 d = i == 0 ? -f.forward : RandomUnit(rng);
    EXPECT_LT(Angle(ConstrainToCone(d, f, free), d), 1e-6f);
    EXPECT_FALSE(IsAtLimit(ball, f, d));
  }
}

TEST(ConeConstraint, EachQuadrantUsesItsOwnSemiAxes) {
  const Frame f;
  const ConeLimits cone{0.6f, 0.2f, 0.3f, 0.9f};  // up, down, left, right
  const struct {
    float phi;
    float limit;
  } axes[] = {{std::numbers::pi_v<float> / 2.0f, 0.6f},
              {-std::numbers::pi_v<float> / 2.0f, 0.2f},
              {std::numbers::pi_v<float>, 0.3f},
              {0.0f, 0.9f}};
  for (const auto& a : axes) {
    for (float theta : {1.2f, 2.0f, 3.0f}) {
      const glm::vec3 r = ConstrainToCone(Spherical(f, theta, a.phi), f, cone);
      EXPECT_LT(Angle(r, Spherical(f, a.limit, a.phi)), 1e-4f) << a.phi << " " << theta;
    }
    // Just inside along that axis: untouched.
    const glm::vec3 in = Spherical(f, a.limit - 0.01f, a.phi);
    EXPECT_LT(Angle(ConstrainToCone(in, f, cone), in), 1e-6f);
  }
}

// In the tangent-plane regime the result must be the nearest point of the quadrant's ellipse
// (in the plane at unit distance along the axis): compare against a dense sampling.
TEST(ConeConstraint, TangentRegimeGivesTheNearestEllipsePoint) {
  std::mt19937 rng(16);
  const Frame f = RandomFrame(rng);
  for (int i = 0; i < 300; ++i) {
    const ConeLimits cone{Uniform(rng, 0.05f, 1.4f), Uniform(rng, 0.05f, 1.4f),
                          Uniform(rng, 0.05f, 1.4f), Uniform(rng, 0.05f, 1.4f)};
    const float theta = Uniform(rng, 0.1f, 1.5f);
    const float phi = Uniform(rng, -std::numbers::pi_v<float>, std::numbers::pi_v<float>);
    const glm::vec3 d = Spherical(f, theta, phi);
    auto plane = [&](const glm::vec3& v) {
      const double z = glm::dot(v, f.forward);
      return glm::dvec2(glm::dot(v, f.right) / z, glm::dot(v, f.up) / z);
    };
    const glm::dvec2 p = plane(d);
    const double a = std::tan(p.x >= 0 ? cone.right : cone.left);
    const double b = std::tan(p.y >= 0 ? cone.up : cone.down);
    const bool inside = (p.x / a) * (p.x / a) + (p.y / b) * (p.y / b) <= 1.0;
    const glm::dvec2 q = plane(ConstrainToCone(d, f, cone));
    if (inside) {
      EXPECT_LT(glm::length(q - p), 1e-5);
      continue;
    }
    EXPECT_NEAR((q.x / a) * (q.x / a) + (q.y / b) * (q.y / b), 1.0, 1e-4);  // on the ellipse
    double best = 1e30;
    for (int k = 0; k <= 4000; ++k) {
      const double t = (std::numbers::pi / 2.0) * k / 4000.0;
      const glm::dvec2 s(std::copysign(a * std::cos(t), p.x), std::copysign(b * std::sin(t), p.y));
      best = std::min(best, glm::length(s - p));
    }
    EXPECT_LE(glm::length(q - p), best + 1e-4 * (1.0 + best)) << "case " << i;
  }
}

TEST(ConeConstraint, WideAnglesUseAngularTerms) {
  const Frame f;
  const ConeLimits cone{2.0f, 0.3f, 1.8f, 1.8f};
  // 150 degrees towards up: clamped to 2.0 rad towards up.
  EXPECT_LT(Angle(ConstrainToCone(Spherical(f, 2.6f, std::numbers::pi_v<float> / 2.0f), f, cone),
                  Spherical(f, 2.0f, std::numbers::pi_v<float> / 2.0f)),
            1e-4f);
  // 100 degrees towards down: clamped to 0.3 towards down.
  EXPECT_LT(Angle(ConstrainToCone(Spherical(f, 1.75f, -std::numbers::pi_v<float> / 2.0f), f, cone),
                  Spherical(f, 0.3f, -std::numbers::pi_v<float> / 2.0f)),
            1e-4f);
  // 1.7 rad towards right is inside the 1.8 rad limit: untouched.
  const glm::vec3 in = Spherical(f, 1.7f, 0.0f);
  EXPECT_LT(Angle(ConstrainToCone(in, f, cone), in), 1e-6f);
  // Angular ellipse: inside iff (theta cos / h)^2 + (theta sin / v)^2 <= 1 in the quadrant.
  std::mt19937 rng(17);
  for (int i = 0; i < 500; ++i) {
    const float theta = Uniform(rng, 0.0f, 3.1f);
    const float phi =
        Uniform(rng, 0.0f, std::numbers::pi_v<float> / 2.0f);  // first quadrant: right and up
    const double u = theta * std::cos(phi) / 1.8;
    const double v = theta * std::sin(phi) / 2.0;
    const glm::vec3 d = Spherical(f, theta, phi);
    const bool moved = Angle(ConstrainToCone(d, f, cone), d) > 1e-5f;
    const double e = u * u + v * v;
    if (std::fabs(e - 1.0) > 1e-3) {
      EXPECT_EQ(moved, e > 1.0) << theta << " " << phi;
    }
  }
}

TEST(ConeConstraint, ResultIsUnitOnTheBoundaryAndIdempotent) {
  std::mt19937 rng(18);
  for (int i = 0; i < 2000; ++i) {
    const Frame f = RandomFrame(rng);
    const ConeLimits cone = RandomCone(rng);
    const JointConstraint ball{ConstraintType::kBall, cone, {}};
    const glm::vec3 d = RandomUnit(rng) * Uniform(rng, 0.1f, 10.0f);  // need not be unit
    const glm::vec3 r = ConstrainToCone(d, f, cone);
    ASSERT_TRUE(Finite(r));
    EXPECT_NEAR(glm::length(r), 1.0f, 1e-5f);
    EXPECT_LT(ViolationAngle(ball, f, r), 1e-5f);
    EXPECT_LT(Angle(ConstrainToCone(r, f, cone), r), 1e-5f);
    if (Angle(r, glm::normalize(d)) > 1e-4f) {
      EXPECT_TRUE(IsAtLimit(ball, f, r))
          << cone.up << " " << cone.down << " " << cone.left << " " << cone.right << " | "
          << glm::dot(r, f.right) << " " << glm::dot(r, f.up) << " " << glm::dot(r, f.forward)
          << " | " << glm::dot(d, f.right) << " " << glm::dot(d, f.up) << " "
          << glm::dot(d, f.forward);
    }
  }
  // Garbage in, unit vector out.
  const Frame f;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  for (const glm::vec3& d : {glm::vec3(0.0f), glm::vec3(nan, 0, 0), glm::vec3(inf, inf, 0),
                             glm::vec3(1e-30f, 0, -1e-30f), glm::vec3(3e38f, -3e38f, 3e38f)}) {
    const glm::vec3 r = ConstrainToCone(d, f, {0.3f, 0.1f, 0.0f, 2.0f});
    EXPECT_TRUE(Finite(r));
    EXPECT_NEAR(glm::length(r), 1.0f, 1e-5f);
  }
}

TEST(ConeConstraint, ProjectionIsContinuousAwayFromTheAntipode) {
  std::mt19937 rng(19);
  for (int i = 0; i < 2000; ++i) {
    const Frame f = RandomFrame(rng);
    const ConeLimits cone = RandomCone(rng);
    const glm::vec3 d =
        Spherical(f, Uniform(rng, 0.0f, 2.5f),
                  Uniform(rng, -std::numbers::pi_v<float>, std::numbers::pi_v<float>));
    const glm::vec3 e = glm::normalize(d + RandomUnit(rng) * 1e-4f);
    EXPECT_LT(Angle(ConstrainToCone(d, f, cone), ConstrainToCone(e, f, cone)), 2e-2f)
        << "case " << i;
  }
}

// The frame must not depend on a world "up": a chain pointing straight along world +Y (or a
// base frame whose up is parallel to its axis) still gets a continuous, orthonormal frame.
TEST(ConeConstraint, FramesStayContinuousThroughWorldUp) {
  const Frame degenerate = MakeFrame({{0.0f, 1.0f, 0.0f}, {0.0f, 1.0f, 0.0f}});
  ExpectOrthonormal(degenerate);
  ExpectOrthonormal(MakeFrame({{0.0f, 5.0f, 0.0f}, {0.0f, 0.0f, 0.0f}}));

  const Frame start = MakeFrame({{1.0f, 0.0f, 0.0f}, {0.0f, 1.0f, 0.0f}});
  Frame prev = TransportFrame(start, {1.0f, 0.0f, 0.0f});
  const int steps = 2000;
  for (int k = 1; k <= steps; ++k) {
    const float t = std::numbers::pi_v<float> * static_cast<float>(k) /
                    steps;  // sweeps through +Y at t = pi / 2
    const glm::vec3 d(std::cos(t), std::sin(t), 0.0f);
    const Frame fr = TransportFrame(start, d);
    ExpectOrthonormal(fr);
    EXPECT_LT(Angle(fr.forward, d), 1e-5f);
    // A step of pi / steps in direction moves the frame by about as much, never a flip.
    EXPECT_LT(glm::length(fr.up - prev.up), 4.0f * std::numbers::pi_v<float> / steps) << "t " << t;
    EXPECT_LT(glm::length(fr.right - prev.right), 4.0f * std::numbers::pi_v<float> / steps)
        << "t " << t;
    prev = fr;
  }
  // A cone around a segment pointing along world +Y behaves like any other.
  const Frame along_y = TransportFrame(start, {0.0f, 1.0f, 0.0f});
  const glm::vec3 r =
      ConstrainToCone({1.0f, 0.2f, 0.3f}, along_y, JointConstraint::Cone(0.5f).cone);
  EXPECT_NEAR(Angle(r, {0.0f, 1.0f, 0.0f}), 0.5f, 1e-4f);
}

// ---- Hinge ----------------------------------------------------------------------------------

glm::vec3 HingeDir(float angle) {  // world hinge about +Z, reference +X
  return {std::cos(angle), std::sin(angle), 0.0f};
}

TEST(HingeConstraint, ClampsToTheNearerLimitAroundTheCircle) {
  const Frame f;
  const HingeLimits h{{0.0f, 0.0f, 1.0f}, {1.0f, 0.0f, 0.0f}, -0.5f, 1.0f, HingeSpace::kWorld};
  const struct {
    float in;
    float out;
  } cases[] = {{0.3f, 0.3f},   {-0.4f, -0.4f},
               {2.0f, 1.0f},   {-1.0f, -0.5f},
               {3.0f, 1.0f},  // 2.0 past max, 2.78 before min (around the back)
               {-2.5f, -0.5f}, {std::numbers::pi_v<float>, 1.0f}};
  for (const auto& c : cases) {
    EXPECT_LT(Angle(ConstrainToHinge(HingeDir(c.in), f, h), HingeDir(c.out)), 1e-5f) << c.in;
  }
}

TEST(HingeConstraint, ProjectsOntoThePlaneFirst) {
  const Frame f;
  const HingeLimits h{{0.0f, 0.0f, 1.0f},
                      {1.0f, 0.0f, 0.0f},
                      -std::numbers::pi_v<float>,
                      std::numbers::pi_v<float>,
                      HingeSpace::kWorld};
  std::mt19937 rng(21);
  for (int i = 0; i < 300; ++i) {
    const float a = Uniform(rng, -std::numbers::pi_v<float>, std::numbers::pi_v<float>);
    const glm::vec3 d(std::cos(a), std::sin(a), Uniform(rng, -5.0f, 5.0f));
    const glm::vec3 r = ConstrainToHinge(d, f, h);
    EXPECT_LT(Angle(r, HingeDir(a)), 1e-5f);
  }
}

TEST(HingeConstraint, DirectionAlongTheAxisTakesTheClampedZeroAngle) {
  const Frame f;
  const HingeLimits h{{0.0f, 0.0f, 1.0f}, {1.0f, 0.0f, 0.0f}, 0.3f, 1.0f, HingeSpace::kWorld};
  for (const glm::vec3& d : {glm::vec3(0, 0, 1), glm::vec3(0, 0, -1), glm::vec3(1e-9f, 0, 1)}) {
    const glm::vec3 r = ConstrainToHinge(d, f, h);
    EXPECT_LT(Angle(r, HingeDir(0.3f)), 1e-5f);
  }
  const JointConstraint c{ConstraintType::kHinge, {}, h};
  EXPECT_TRUE(IsAtLimit(c, f, {0.0f, 0.0f, 1.0f}));
  EXPECT_GT(ViolationAngle(c, f, {0.0f, 0.0f, 1.0f}), 1.5f);
}

TEST(HingeConstraint, ParentSpaceAxisFollowsTheParentFrame) {
  std::mt19937 rng(22);
  const JointConstraint c = JointConstraint::Hinge({1.0f, 0.0f, 0.0f}, -0.2f, 1.2f);
  for (int i = 0; i < 300; ++i) {
    const Frame parent = RandomFrame(rng);
    const glm::vec3 r = ConstrainDirection(c, parent, RandomUnit(rng));
    EXPECT_NEAR(glm::dot(r, parent.right), 0.0f, 1e-5f);  // bends in the forward/up plane
    // Angle from forward about right, within the limits.
    const float a = std::atan2(glm::dot(glm::cross(parent.forward, r), parent.right),
                               glm::dot(parent.forward, r));
    EXPECT_GE(a, -0.2f - 1e-4f);
    EXPECT_LE(a, 1.2f + 1e-4f);
  }
}

TEST(HingeConstraint, PoorReferencesAreRepaired) {
  const Frame f;
  // Not perpendicular: only the perpendicular part counts.
  const HingeLimits slanted{{0, 0, 1}, {1, 0, 5}, 0.0f, 0.0f, HingeSpace::kWorld};
  EXPECT_LT(Angle(ConstrainToHinge({0, 1, 0}, f, slanted), HingeDir(0.0f)), 1e-5f);
  // Parallel or zero: AnyPerpendicular(axis); the result is still in the plane.
  for (const glm::vec3& ref : {glm::vec3(0, 0, 2), glm::vec3(0), glm::vec3(1e-9f, 0, 1)}) {
    const HingeLimits h{{0, 0, 1}, ref, -0.1f, 0.1f, HingeSpace::kWorld};
    const glm::vec3 r = ConstrainToHinge({0.3f, 0.4f, 0.5f}, f, h);
    EXPECT_TRUE(Finite(r));
    EXPECT_NEAR(r.z, 0.0f, 1e-5f);
    EXPECT_LT(Angle(r, AnyPerpendicular({0, 0, 1})), 0.1f + 1e-4f);
  }
}

TEST(HingeConstraint, AtLimitNearEitherEnd) {
  const Frame f;
  const JointConstraint c =
      JointConstraint::Hinge({0, 0, 1}, -0.5f, 1.0f, HingeSpace::kWorld, {1, 0, 0});
  EXPECT_TRUE(IsAtLimit(c, f, HingeDir(1.0f - 0.0005f)));
  EXPECT_TRUE(IsAtLimit(c, f, HingeDir(-0.5f)));
  EXPECT_FALSE(IsAtLimit(c, f, HingeDir(0.2f)));
  EXPECT_TRUE(IsAtLimit(c, f, {std::cos(0.2f), std::sin(0.2f), 0.1f}));  // off the plane
  const JointConstraint full = JointConstraint::Hinge(
      {0, 0, 1}, -std::numbers::pi_v<float>, std::numbers::pi_v<float>, HingeSpace::kWorld);
  EXPECT_FALSE(IsAtLimit(full, f, HingeDir(3.1f)));
}

// ---- Mirroring: the backward passes rely on it ------------------------------------------------

TEST(ConstraintMirror, ParentInsideMirroredLimitIffChildInsideLimit) {
  std::mt19937 rng(23);
  for (int i = 0; i < 1000; ++i) {
    const Frame parent = RandomFrame(rng);
    JointConstraint c;
    if (i % 2 == 0) {
      c.type = ConstraintType::kBall;
      c.cone = {Uniform(rng, 0.1f, 2.5f), Uniform(rng, 0.1f, 2.5f), Uniform(rng, 0.1f, 2.5f),
                Uniform(rng, 0.1f, 2.5f)};
    } else {
      const float lo = Uniform(rng, -2.5f, 2.0f);
      c = JointConstraint::Hinge(RandomUnit(rng), lo, Uniform(rng, lo, 2.5f), HingeSpace::kParent,
                                 RandomUnit(rng));
    }
    // An allowed child direction, then the frame carried onto it.
    const glm::vec3 child = ConstrainDirection(c, parent, RandomUnit(rng));
    if (glm::dot(child, parent.forward) < -0.99f) continue;  // transport is ill-posed there
    const Frame child_frame = TransportFrame(parent, child);
    EXPECT_LT(ViolationAngle(MirroredConstraint(c), child_frame, parent.forward), 2e-4f)
        << "case " << i;
  }
}

// ---- Validation -------------------------------------------------------------------------------

TEST(ConstraintValidation, RejectsBadParameters) {
  EXPECT_EQ(ValidateJointConstraint(JointConstraint::Cone(0.0f)), nullptr);
  EXPECT_EQ(ValidateJointConstraint(JointConstraint::Cone(std::numbers::pi_v<float>)), nullptr);
  EXPECT_EQ(ValidateJointConstraint(JointConstraint::Cone(3.1416f)), nullptr);  // slack
  EXPECT_NE(ValidateJointConstraint(JointConstraint::Cone(-0.1f)), nullptr);
  EXPECT_NE(ValidateJointConstraint(JointConstraint::Cone(3.3f)), nullptr);
  EXPECT_NE(ValidateJointConstraint(JointConstraint::Ball(0.1f, NAN, 0.1f, 0.1f)), nullptr);
  EXPECT_NE(ValidateJointConstraint(JointConstraint::Hinge({0, 0, 0}, -1, 1)), nullptr);
  EXPECT_NE(ValidateJointConstraint(JointConstraint::Hinge({0, 0, 1}, 1, -1)), nullptr);
  EXPECT_NE(ValidateJointConstraint(JointConstraint::Hinge({0, 0, 1}, -4, 1)), nullptr);
  EXPECT_NE(ValidateJointConstraint(JointConstraint::Hinge({INFINITY, 0, 1}, -1, 1)), nullptr);
  EXPECT_NE(ValidateBaseFrame({{0, 0, 0}, {0, 1, 0}}), nullptr);
  ChainConstraints cs;
  cs.joints.resize(3);
  EXPECT_TRUE(ValidateChainConstraints(cs, 4).ok());
  EXPECT_FALSE(ValidateChainConstraints(cs, 3).ok());
  cs.joints[1] = JointConstraint::Cone(-1.0f);
  const Status s = ValidateChainConstraints(cs, 4);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().find("joints[1]"), std::string::npos) << s.error();
}

TEST(ConstraintDesc, ConvertsTheJsonShapes) {
  std::vector<ConstraintDesc> descs(2);
  descs[0].joint = 1;
  descs[0].type = "ball";
  descs[0].up = 0.5f;
  descs[0].angle = 0.7f;
  descs[1].joint = 2;
  descs[1].type = "hinge";
  descs[1].axis = glm::vec3(0, 0, 1);
  descs[1].space = "world";
  descs[1].min = -1.5f;
  descs[1].max = 1.5f;
  Result<ChainConstraints> cs = ToChainConstraints(descs, 5);
  ASSERT_TRUE(cs.ok()) << cs.error();
  ASSERT_EQ(cs.value().joints.size(), 3u);
  EXPECT_EQ(cs.value().joints[0].type, ConstraintType::kNone);
  EXPECT_EQ(cs.value().joints[1].type, ConstraintType::kBall);
  EXPECT_FLOAT_EQ(cs.value().joints[1].cone.up, 0.5f);
  EXPECT_FLOAT_EQ(cs.value().joints[1].cone.down, 0.7f);
  EXPECT_EQ(cs.value().joints[2].hinge.space, HingeSpace::kWorld);

  auto error_of = [](std::vector<ConstraintDesc> d, std::size_t joints) {
    Result<ChainConstraints> r = ToChainConstraints(d, joints);
    return r.ok() ? std::string() : r.error();
  };
  EXPECT_NE(error_of(descs, 3).find("constraints[1]: joint 2 is out of range"), std::string::npos)
      << error_of(descs, 3);
  std::vector<ConstraintDesc> twice{descs[0], descs[0]};
  EXPECT_NE(error_of(twice, 5).find("twice"), std::string::npos);
  std::vector<ConstraintDesc> bad{descs[1]};
  bad[0].axis.reset();
  EXPECT_NE(error_of(bad, 5).find("hinge needs an axis"), std::string::npos);
  bad[0].axis = glm::vec3(1, 0, 0);
  bad[0].space = "sideways";
  EXPECT_NE(error_of(bad, 5).find("unknown hinge space"), std::string::npos);
  bad[0] = descs[0];
  bad[0].type = "slider";
  EXPECT_NE(error_of(bad, 5).find("unknown constraint type"), std::string::npos);
  bad[0] = descs[0];
  bad[0].min = 0.1f;
  EXPECT_NE(error_of(bad, 5).find("hinge fields"), std::string::npos);
  bad[0] = descs[0];
  bad[0].right = 4.0f;
  EXPECT_NE(error_of(bad, 5).find("[0, pi]"), std::string::npos);
}

// ---- Constrained solve ----------------------------------------------------------------------

// Checks every promise of the constrained solve about the pose.
void ExpectChainInvariants(const Chain& chain, const glm::vec3& root, const ChainConstraints& cs,
                           const char* what, int index) {
  std::span<const glm::vec3> p = chain.joints();
  ASSERT_EQ(std::memcmp(&p[0], &root, sizeof(root)), 0) << what << " " << index << ": root moved";
  for (std::size_t i = 0; i < p.size(); ++i) {
    ASSERT_TRUE(Finite(p[i])) << what << " " << index << ": joint " << i;
  }
  for (std::size_t i = 0; i < chain.segment_count(); ++i) {
    const double l = glm::length(glm::dvec3(p[i + 1]) - glm::dvec3(p[i]));
    EXPECT_NEAR(l, chain.lengths()[i], 1e-4 * chain.lengths()[i])
        << what << " " << index << ": segment " << i;
  }
  int worst = -1;
  EXPECT_LT(MaxConstraintViolation(p, cs, &worst), kLimitSlack)
      << what << " " << index << ": joint " << worst << " outside its limit";
}

JointConstraint RandomConstraint(std::mt19937& rng) {
  switch (std::uniform_int_distribution<int>(0, 4)(rng)) {
    case 0:
      return {};
    case 1:
    case 2: {
      JointConstraint c;
      c.type = ConstraintType::kBall;
      c.cone = RandomCone(rng);
      return c;
    }
    default: {
      float lo = Uniform(rng, -std::numbers::pi_v<float>, std::numbers::pi_v<float>);
      float hi = Uniform(rng, -std::numbers::pi_v<float>, std::numbers::pi_v<float>);
      if (lo > hi) std::swap(lo, hi);
      const HingeSpace space = rng() % 2 ? HingeSpace::kParent : HingeSpace::kWorld;
      return JointConstraint::Hinge(RandomUnit(rng), lo, hi, space, RandomUnit(rng));
    }
  }
}

Chain RandomChain(std::mt19937& rng, int joints, const glm::vec3& root) {
  std::vector<glm::vec3> p{root};
  for (int i = 1; i < joints; ++i)
    p.push_back(p.back() + RandomUnit(rng) * Uniform(rng, 0.2f, 2.0f));
  return Chain::FromJoints(p).value();
}

// A pose inside the limits: random wishes moved into each limit, outwards from the root. Most
// wishes end on a limit, so the effector lies on the edge of what the chain can reach; with
// `interior`, each direction is then pulled part of the way back towards its cone axis (cones
// are star-shaped about the axis, so it stays inside).
std::vector<glm::vec3> RandomValidPose(std::mt19937& rng, const Chain& chain,
                                       const ChainConstraints& cs, bool interior = false) {
  std::vector<glm::vec3> p{chain.root()};
  Frame f = MakeFrame(cs.base);
  for (std::size_t k = 0; k < chain.segment_count(); ++k) {
    glm::vec3 d = RandomUnit(rng);
    if (k < cs.joints.size()) d = ConstrainDirection(cs.joints[k], f, d);
    if (interior) {
      const float u = Uniform(rng, 0.0f, 0.85f);
      d = glm::normalize(f.forward * (1.0f - u) + d * u);
    }
    p.push_back(p.back() + d * chain.lengths()[k]);
    f = TransportFrame(f, d);
  }
  return p;
}

TEST(ConstrainedSolve, RandomChainsKeepLimitsLengthsAndRoot) {
  std::mt19937 rng(31);
  int limited = 0;
  int reached = 0;
  for (int c = 0; c < 400; ++c) {
    const glm::vec3 root = RandomUnit(rng) * Uniform(rng, 0.0f, 5.0f);
    Chain chain = RandomChain(rng, std::uniform_int_distribution<int>(2, 9)(rng), root);
    ChainConstraints cs;
    cs.base = {RandomUnit(rng), RandomUnit(rng)};
    cs.joints.resize(std::uniform_int_distribution<std::size_t>(0, chain.segment_count())(rng));
    for (JointConstraint& j : cs.joints) j = RandomConstraint(rng);
    const float reach = Uniform(rng, 0.0f, 1.4f) * chain.total_length();
    const glm::vec3 target = root + RandomUnit(rng) * reach;
    std::optional<glm::vec3> pole;
    if (c % 3 == 0) pole = root + RandomUnit(rng) * 3.0f;
    SolveSettings settings;
    settings.tolerance = 1e-3f;
    settings.max_iterations = 1 + c % 40;
    std::vector<std::uint8_t> at_limit(chain.joint_count(), 7);
    const ConstrainedSolveResult r =
        SolveFabrikConstrained(chain, cs, target, settings, pole, nullptr, at_limit);
    ASSERT_TRUE(r.base.ok) << r.base.error;
    ExpectChainInvariants(chain, root, cs, "case", c);
    EXPECT_LT(r.max_violation, kLimitSlack);
    EXPECT_EQ(r.base.reached, r.base.distance <= settings.tolerance);
    if (reach < 0.999f * chain.total_length()) {
      EXPECT_TRUE(r.base.reachable) << "case " << c;
    }
    if (reach > 1.001f * chain.total_length()) {
      EXPECT_FALSE(r.base.reachable) << "case " << c;
    }
    int count = 0;
    for (std::uint8_t a : at_limit) {
      EXPECT_LE(a, 1);
      count += a;
    }
    EXPECT_EQ(count, r.joints_at_limit);
    EXPECT_EQ(at_limit.back(), 0);
    limited += r.limited;
    reached += r.base.reached;
  }
  // Both outcomes occur, so the checks above saw solved and limited poses.
  EXPECT_GT(limited, 20);
  EXPECT_GT(reached, 20);
}

// Reachable targets: the effector of a random pose inside the limits (ball joints, cones of
// 0.5 .. 1.5 rad per quadrant), solved from another such pose. Returns how many were reached.
int ReachRandomValidTargets(std::uint32_t seed, bool interior, int cases) {
  std::mt19937 rng(seed);
  int reached = 0;
  for (int c = 0; c < cases; ++c) {
    Chain chain = RandomChain(rng, std::uniform_int_distribution<int>(3, 7)(rng), glm::vec3(0));
    ChainConstraints cs;
    cs.joints.resize(chain.segment_count());
    for (JointConstraint& j : cs.joints) {
      j = JointConstraint::Ball(Uniform(rng, 0.5f, 1.5f), Uniform(rng, 0.5f, 1.5f),
                                Uniform(rng, 0.5f, 1.5f), Uniform(rng, 0.5f, 1.5f));
    }
    const std::vector<glm::vec3> goal = RandomValidPose(rng, chain, cs, interior);
    EXPECT_TRUE(chain.SetPose(RandomValidPose(rng, chain, cs)).ok());
    SolveSettings settings;
    settings.tolerance = 1e-2f;
    settings.max_iterations = 200;
    const ConstrainedSolveResult r = SolveFabrikConstrained(chain, cs, goal.back(), settings);
    EXPECT_TRUE(r.base.ok);
    EXPECT_TRUE(r.base.reachable);
    ExpectChainInvariants(chain, glm::vec3(0), cs, "case", c);
    reached += r.base.reached;
  }
  return reached;
}

TEST(ConstrainedSolve, TargetsInsideTheReachableSetAreReached) {
  const int cases = 300;
  const int reached = ReachRandomValidTargets(32, /*interior=*/true, cases);
  EXPECT_GE(reached, cases * 97 / 100) << reached << " of " << cases;
}

// Targets on the edge of the reachable set (every joint at a limit) are hard for FABRIK: the
// passes can settle on a limit short of the target. Most are still reached; the rest must at
// least keep every invariant (checked inside).
TEST(ConstrainedSolve, TargetsOnTheEdgeOfTheReachableSetAreMostlyReached) {
  const int cases = 300;
  const int reached = ReachRandomValidTargets(33, /*interior=*/false, cases);
  EXPECT_GE(reached, cases * 75 / 100) << reached << " of " << cases;
}

TEST(ConstrainedSolve, WithoutLimitsOrPoleItIsPlainFabrik) {
  std::mt19937 rng(33);
  for (int c = 0; c < 50; ++c) {
    Chain a = RandomChain(rng, 6, glm::vec3(1, 2, 3));
    Chain b = a;
    ChainConstraints cs;
    cs.joints.resize(3);  // all kNone
    const glm::vec3 target = glm::vec3(1, 2, 3) + RandomUnit(rng) * Uniform(rng, 0.0f, 8.0f);
    const ConstrainedSolveResult r = SolveFabrikConstrained(a, cs, target, {});
    const SolveResult s = SolveFabrik(b, target, {});
    EXPECT_EQ(r.base.iterations, s.iterations);
    EXPECT_EQ(r.base.distance, s.distance);
    EXPECT_FALSE(r.limited);
    EXPECT_EQ(r.joints_at_limit, 0);
    EXPECT_EQ(std::memcmp(a.joints().data(), b.joints().data(), a.joints().size_bytes()), 0);
  }
}

TEST(ConstrainedSolve, LockedChainFlagsReachableButLimited) {
  Chain chain = Chain::Straight(glm::vec3(0), {0, 1, 0}, std::vector<float>{1, 1, 1}).value();
  ChainConstraints cs;  // base forward +Y
  cs.joints.assign(3, JointConstraint::Cone(0.0f));
  std::vector<std::uint8_t> at_limit(4);
  const ConstrainedSolveResult r =
      SolveFabrikConstrained(chain, cs, {1.0f, 1.0f, 0.0f}, {}, std::nullopt, nullptr, at_limit);
  ASSERT_TRUE(r.base.ok);
  EXPECT_TRUE(r.base.reachable);
  EXPECT_FALSE(r.base.reached);
  EXPECT_TRUE(r.limited);
  EXPECT_EQ(r.joints_at_limit, 3);
  EXPECT_EQ(at_limit, (std::vector<std::uint8_t>{1, 1, 1, 0}));
  EXPECT_LT(glm::length(chain.effector() - glm::vec3(0, 3, 0)), 1e-4f);
}

TEST(ConstrainedSolve, WorldHingeChainCannotLeaveItsPlane) {
  Chain chain = Chain::Straight(glm::vec3(0), {1, 0, 0}, std::vector<float>{1, 1, 1}).value();
  ChainConstraints cs;
  cs.joints.assign(
      3, JointConstraint::Hinge({0, 0, 1}, -std::numbers::pi_v<float>, std::numbers::pi_v<float>,
                                HingeSpace::kWorld, {1, 0, 0}));
  SolveSettings settings;
  settings.max_iterations = 50;
  const ConstrainedSolveResult r = SolveFabrikConstrained(chain, cs, {1.0f, 1.0f, 1.0f}, settings);
  ASSERT_TRUE(r.base.ok);
  EXPECT_TRUE(r.limited);
  for (const glm::vec3& p : chain.joints()) EXPECT_NEAR(p.z, 0.0f, 1e-5f);
  // The closest in-plane point of the target is (1, 1, 0): found.
  EXPECT_NEAR(r.base.distance, 1.0f, 2e-2f);
  // In-plane targets are reached and not flagged.
  const ConstrainedSolveResult ok = SolveFabrikConstrained(chain, cs, {1.0f, 1.5f, 0.0f}, settings);
  EXPECT_TRUE(ok.base.reached);
  EXPECT_FALSE(ok.limited);
}

TEST(ConstrainedSolve, TightJointIsReportedAtItsLimit) {
  Chain chain = Chain::Straight(glm::vec3(0), {0, 1, 0}, std::vector<float>{1, 1, 1}).value();
  ChainConstraints cs;
  cs.joints.resize(3);
  cs.joints[1] = JointConstraint::Cone(0.2f);
  std::vector<std::uint8_t> at_limit(4);
  SolveSettings settings;
  settings.max_iterations = 100;
  // Folding back towards the root needs far more than 0.2 rad at joint 1.
  const ConstrainedSolveResult r = SolveFabrikConstrained(chain, cs, {0.5f, 0.5f, 0.0f}, settings,
                                                          std::nullopt, nullptr, at_limit);
  ASSERT_TRUE(r.base.ok);
  EXPECT_EQ(at_limit[1], 1);
  EXPECT_EQ(at_limit[0], 0);
  EXPECT_EQ(at_limit[2], 0);
  EXPECT_EQ(at_limit[3], 0);
  EXPECT_LT(MaxConstraintViolation(chain.joints(), cs), kLimitSlack);
}

TEST(ConstrainedSolve, RootJointLimitsTheFirstSegmentAgainstTheBase) {
  Chain chain = Chain::Straight(glm::vec3(0), {0, 1, 0}, std::vector<float>{1, 1}).value();
  ChainConstraints cs;
  cs.base.forward = {0, 1, 0};
  cs.joints = {JointConstraint::Cone(0.3f)};
  SolveSettings settings;
  settings.max_iterations = 100;
  const ConstrainedSolveResult r = SolveFabrikConstrained(chain, cs, {1.8f, 0.2f, 0.0f}, settings);
  ASSERT_TRUE(r.base.ok);
  EXPECT_LE(Angle(chain.joints()[1] - chain.joints()[0], {0, 1, 0}), 0.3f + kLimitSlack);
}

TEST(ConstrainedSolve, RejectsBadInputAndLeavesTheChainAlone) {
  Chain chain = Chain::Straight(glm::vec3(0), {1, 0, 0}, std::vector<float>{1, 1, 1}).value();
  const std::vector<glm::vec3> before(chain.joints().begin(), chain.joints().end());
  ChainConstraints bad_cone;
  bad_cone.joints = {JointConstraint::Cone(4.0f)};
  ChainConstraints too_many;
  too_many.joints.assign(4, JointConstraint::Cone(1.0f));
  ChainConstraints bad_base;
  bad_base.base.forward = glm::vec3(0);
  ChainConstraints bad_hinge;
  bad_hinge.joints = {JointConstraint::Hinge({0, 0, 1}, 1.0f, -1.0f)};
  ChainConstraints fine;
  fine.joints = {JointConstraint::Cone(1.0f)};
  SolveSettings bad_settings;
  bad_settings.tolerance = 0.0f;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const struct {
    const ChainConstraints* cs;
    glm::vec3 target;
    std::optional<glm::vec3> pole;
    SolveSettings settings;
  } cases[] = {
      {&bad_cone, {1, 1, 0}, std::nullopt, {}},      {&too_many, {1, 1, 0}, std::nullopt, {}},
      {&bad_base, {1, 1, 0}, std::nullopt, {}},      {&bad_hinge, {1, 1, 0}, std::nullopt, {}},
      {&fine, {nan, 1, 0}, std::nullopt, {}},        {&fine, {1, 1, 0}, glm::vec3(0, nan, 0), {}},
      {&fine, {1, 1, 0}, std::nullopt, bad_settings}};
  for (const auto& c : cases) {
    const ConstrainedSolveResult r =
        SolveFabrikConstrained(chain, *c.cs, c.target, c.settings, c.pole);
    EXPECT_FALSE(r.base.ok);
    EXPECT_NE(r.base.error, nullptr);
    EXPECT_EQ(std::memcmp(chain.joints().data(), before.data(), chain.joints().size_bytes()), 0);
  }
}

TEST(ConstrainedSolve, AlreadySolvedPoseRunsNoIteration) {
  Chain chain = Chain::Straight(glm::vec3(0), {0, 1, 0}, std::vector<float>{1, 1, 1}).value();
  ChainConstraints cs;
  cs.joints.assign(3, JointConstraint::Cone(0.5f));
  const ConstrainedSolveResult r = SolveFabrikConstrained(chain, cs, {0.0f, 3.0f, 0.0f}, {});
  EXPECT_EQ(r.base.iterations, 0);
  EXPECT_TRUE(r.base.reached);
}

TEST(ConstrainedSolve, StartPoseOutsideItsLimitsIsRepaired) {
  // The effector is already on the target, but joint 1 bends 90 degrees against a 0.3 limit.
  Chain chain = Chain::FromJoints({{0, 0, 0}, {0, 1, 0}, {1, 1, 0}}).value();
  ChainConstraints cs;
  cs.joints = {JointConstraint::Cone(std::numbers::pi_v<float>), JointConstraint::Cone(0.3f)};
  SolveSettings settings;
  settings.max_iterations = 50;
  const ConstrainedSolveResult r = SolveFabrikConstrained(chain, cs, {1.0f, 1.0f, 0.0f}, settings);
  EXPECT_GE(r.base.iterations, 1);
  ExpectChainInvariants(chain, glm::vec3(0), cs, "repaired", 0);
}

TEST(ConstrainedSolve, StraightChainAimedAtANearerTargetFolds) {
  Chain chain = Chain::Straight(glm::vec3(0), {0, 1, 0}, std::vector<float>{1, 1, 1, 1}).value();
  ChainConstraints cs;
  cs.joints.assign(4, JointConstraint::Cone(1.2f));
  SolveSettings settings;
  settings.max_iterations = 100;
  const ConstrainedSolveResult r = SolveFabrikConstrained(chain, cs, {0.0f, 2.0f, 0.0f}, settings);
  EXPECT_TRUE(r.base.reached) << r.base.distance;
  ExpectChainInvariants(chain, glm::vec3(0), cs, "fold", 0);
}

TEST(ConstrainedSolve, UnreachableTargetGetsTheStretchedClosestPose) {
  Chain chain = Chain::Straight(glm::vec3(0), {1, 0, 0}, std::vector<float>{1, 1, 1}).value();
  ChainConstraints cs;
  cs.joints.assign(3, JointConstraint::Cone(0.5f));
  SolveSettings settings;
  settings.max_iterations = 100;
  const ConstrainedSolveResult r = SolveFabrikConstrained(chain, cs, {0.0f, 10.0f, 0.0f}, settings);
  EXPECT_FALSE(r.base.reachable);
  EXPECT_FALSE(r.limited);
  EXPECT_NEAR(r.base.distance, 7.0f, 1e-3f);  // straight up, all three segments
  ExpectChainInvariants(chain, glm::vec3(0), cs, "stretch", 0);
}

class PassRecorder : public SolveObserver {
 public:
  void OnHalfPass(PassKind kind, int iteration, std::span<const glm::vec3>) override {
    kinds.push_back(kind);
    iterations.push_back(iteration);
  }
  std::vector<PassKind> kinds;
  std::vector<int> iterations;
};

TEST(ConstrainedSolve, ObserverSeesBackwardThenForwardEachIteration) {
  Chain chain = Chain::Straight(glm::vec3(0), {0, 1, 0}, std::vector<float>{1, 1, 1}).value();
  ChainConstraints cs;
  cs.joints.assign(3, JointConstraint::Cone(0.8f));
  PassRecorder rec;
  SolveSettings settings;
  settings.max_iterations = 7;
  settings.tolerance = 1e-6f;
  const ConstrainedSolveResult r =
      SolveFabrikConstrained(chain, cs, {1.5f, 1.5f, 0.0f}, settings, std::nullopt, &rec);
  ASSERT_EQ(rec.kinds.size(), 2u * static_cast<std::size_t>(r.base.iterations));
  for (std::size_t i = 0; i < rec.kinds.size(); ++i) {
    EXPECT_EQ(rec.kinds[i], i % 2 == 0 ? PassKind::kBackward : PassKind::kForward);
    EXPECT_EQ(rec.iterations[i], static_cast<int>(i / 2) + 1);
  }
}

// ---- Pole -------------------------------------------------------------------------------------

TEST(PoleTarget, ThreeJointElbowLiesInThePolePlaneOnThePoleSide) {
  std::mt19937 rng(41);
  int checked = 0;
  for (int c = 0; c < 300; ++c) {
    const float l0 = Uniform(rng, 0.5f, 2.0f);
    const float l1 = Uniform(rng, 0.5f, 2.0f);
    const glm::vec3 root = RandomUnit(rng) * Uniform(rng, 0.0f, 3.0f);
    const glm::vec3 elbow0 = root + RandomUnit(rng) * l0;
    Chain chain = Chain::FromJoints({root, elbow0, elbow0 + RandomUnit(rng) * l1}).value();
    // A target the elbow must bend for: between |l0 - l1| and l0 + l1, away from both ends.
    const float lo = std::fabs(l0 - l1);
    const float dist = lo + Uniform(rng, 0.1f, 0.9f) * (l0 + l1 - lo);
    const glm::vec3 axis = RandomUnit(rng);
    const glm::vec3 target = root + axis * dist;
    // A pole well off the root-target line.
    const glm::vec3 side = glm::normalize(glm::cross(axis, RandomUnit(rng)));
    const glm::vec3 pole =
        root + axis * Uniform(rng, -2.0f, 4.0f) + side * Uniform(rng, 0.5f, 3.0f);
    SolveSettings settings;
    settings.tolerance = 1e-5f;
    settings.max_iterations = 200;
    const ConstrainedSolveResult r =
        SolveFabrikConstrained(chain, ChainConstraints{}, target, settings, pole);
    ASSERT_TRUE(r.base.ok);
    ExpectChainInvariants(chain, root, ChainConstraints{}, "pole", c);
    if (!r.base.reached) continue;
    ++checked;
    const glm::vec3 elbow = chain.joints()[1];
    const glm::vec3 n = glm::normalize(glm::cross(target - root, pole - root));
    EXPECT_LT(std::fabs(glm::dot(elbow - root, n)), 1e-3f) << "case " << c;
    // On the pole's side of the root-target line.
    const glm::vec3 e_off = (elbow - root) - axis * glm::dot(elbow - root, axis);
    EXPECT_GT(glm::dot(e_off, side), 0.0f) << "case " << c;
  }
  EXPECT_GE(checked, 290);
}

TEST(PoleTarget, OppositePolesBendOppositeWays) {
  for (float s : {1.0f, -1.0f}) {
    Chain chain = Chain::FromJoints({{0, 0, 0}, {0.1f, 1, 0.05f}, {0, 2, 0}}).value();
    SolveSettings settings;
    settings.tolerance = 1e-5f;
    settings.max_iterations = 100;
    const ConstrainedSolveResult r =
        SolveFabrikConstrained(chain, {}, {1.2f, 0.8f, 0.0f}, settings, glm::vec3(0, 0, 5 * s));
    ASSERT_TRUE(r.base.reached);
    EXPECT_GT(chain.joints()[1].z * s, 0.5f);
  }
}

TEST(PoleTarget, BendTowardsPoleKeepsLengthsAndEnds) {
  std::mt19937 rng(42);
  for (int c = 0; c < 100; ++c) {
    Chain chain = RandomChain(rng, 6, glm::vec3(0));
    const glm::vec3 first = chain.root();
    const glm::vec3 last = chain.effector();
    BendTowardsPole(chain, RandomUnit(rng) * 4.0f);
    ExpectChainInvariants(chain, first, ChainConstraints{}, "bend", c);
    EXPECT_EQ(chain.effector(), last);
  }
  Chain chain = RandomChain(rng, 4, glm::vec3(0));
  const std::vector<glm::vec3> before(chain.joints().begin(), chain.joints().end());
  BendTowardsPole(chain, glm::vec3(NAN, 0, 0));
  EXPECT_EQ(std::memcmp(chain.joints().data(), before.data(), chain.joints().size_bytes()), 0);
}

TEST(PoleTarget, PoleNeverWinsAgainstALimit) {
  std::mt19937 rng(43);
  for (int c = 0; c < 100; ++c) {
    Chain chain = RandomChain(rng, 5, glm::vec3(0));
    ChainConstraints cs;
    cs.joints.assign(4, JointConstraint::Ball(0.4f, 0.1f, 0.3f, 0.6f));
    const ConstrainedSolveResult r =
        SolveFabrikConstrained(chain, cs, RandomUnit(rng) * 2.0f, {}, RandomUnit(rng) * 5.0f);
    ASSERT_TRUE(r.base.ok);
    ExpectChainInvariants(chain, glm::vec3(0), cs, "pole+limits", c);
  }
}

}  // namespace
}  // namespace fabrik

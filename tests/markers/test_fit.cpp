// The small fits the solver is built from (src/markers/fit.h).
#include <gtest/gtest.h>

#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>
#include <random>
#include <vector>

#include "markers/fit.h"

namespace fabrik::markers {
namespace {

TEST(RigidFit, RecoversAKnownMotion) {
  const glm::quat q = glm::angleAxis(2.2f, glm::normalize(glm::vec3(0.3f, -1.0f, 0.4f)));
  const glm::vec3 t(0.4f, 1.2f, -3.0f);
  std::vector<FitPoint> points;
  for (const glm::vec3& l : {glm::vec3(0.1f, 0, 0), glm::vec3(0, 0.2f, 0), glm::vec3(0, 0, 0.15f),
                             glm::vec3(-0.1f, 0.05f, 0.02f)}) {
    points.push_back({l, q * l + t, 1.0f});
  }
  const RigidFitResult r = RigidFit(points);
  ASSERT_TRUE(r.ok);
  for (const FitPoint& p : points) EXPECT_LT(glm::distance(r.pose.Apply(p.local), p.world), 1e-5f);
  EXPECT_NEAR(std::fabs(glm::dot(r.pose.rotation, q)), 1.0f, 1e-5f);
}

TEST(RigidFit, RefusesPointsOnALineAndTooFewPoints) {
  std::vector<FitPoint> line = {
      {{0, 0, 0}, {0, 0, 0}, 1}, {{1, 0, 0}, {1, 0, 0}, 1}, {{2, 0, 0}, {2, 0, 0}, 1}};
  EXPECT_FALSE(RigidFit(line).ok);
  line[2].weight = 0.0f;
  line[2].local = {0, 1, 0};
  EXPECT_FALSE(RigidFit(line).ok);
  line[2].weight = 1.0f;
  line[2].world = {0, 1, 0};
  EXPECT_TRUE(RigidFit(line).ok);
}

TEST(SphereFit, FindsTheCentreOfTwoTracksAndIgnoresOutliers) {
  const glm::vec3 centre(0.1f, -0.4f, 0.05f);
  std::mt19937 random(3);
  std::uniform_real_distribution<float> angle(-1.0f, 1.0f);
  std::vector<SphereSample> samples;
  for (int i = 0; i < 400; ++i) {
    const glm::quat q = glm::angleAxis(angle(random), glm::vec3(1, 0, 0)) *
                        glm::angleAxis(angle(random), glm::vec3(0, 0, 1));
    samples.push_back({centre + q * glm::vec3(0, -0.4f, 0.05f), 0});
    samples.push_back({centre + q * glm::vec3(0.06f, -0.2f, 0), 1});
  }
  EXPECT_LT(glm::distance(SphereFit(samples, glm::vec3(0.0f)), centre), 0.002f);
  for (int i = 0; i < 40; ++i) samples[i * 10].position += glm::vec3(0.2f, 0, 0);  // wrong markers
  const glm::vec3 found = SphereFit(samples, glm::vec3(0.0f));
  EXPECT_LT(glm::distance(found, centre), 0.002f);
}

TEST(SphereFit, AHingeTakesItsAxialPositionFromThePrior) {
  const glm::vec3 centre(0.0f, 0.5f, 0.0f), prior(0.03f, 0.5f, 0.0f);
  std::vector<SphereSample> samples;
  for (int i = 0; i < 200; ++i) {  // about the X axis only
    const glm::quat q = glm::angleAxis(-1.5f + 0.01f * i, glm::vec3(1, 0, 0));
    samples.push_back({centre + q * glm::vec3(0.02f, -0.3f, 0.04f), 0});
  }
  const glm::vec3 found = SphereFit(samples, prior);
  EXPECT_NEAR(found.y, centre.y, 0.002f);
  EXPECT_NEAR(found.z, centre.z, 0.002f);
  EXPECT_NEAR(found.x, prior.x, 0.005f);
}

TEST(SolveLinear, SolvesAndRefusesSingularSystems) {
  std::vector<double> m = {2, 1, 1, 3}, b = {5, 10};
  ASSERT_TRUE(SolveLinear(m, b, 2));
  EXPECT_NEAR(b[0], 1.0, 1e-12);
  EXPECT_NEAR(b[1], 3.0, 1e-12);
  std::vector<double> s = {1, 2, 2, 4}, c = {1, 2};
  EXPECT_FALSE(SolveLinear(s, c, 2));
}

}  // namespace
}  // namespace fabrik::markers

// libFuzzer target: chains, targets and settings built from the fuzz bytes, including
// extreme magnitudes, subnormals, coincident and collinear joints, NaN and inf. Every solve
// must keep fabrik.h's promises; a broken one aborts with a message.
//
// Length check: a float coordinate of magnitude M is only good to M x 2^-24, so a segment
// between joints of magnitude up to M can only keep its length to a few of those roundings.
// The check therefore allows 1e-5 of the length plus 4 x FLT_EPSILON x M (plus a few
// subnormal steps); for sane magnitudes (coordinates within ~100 segment lengths of the
// origin) that is the 1e-5 relative promise.
#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <vector>

#include <glm/geometric.hpp>
#include <glm/vec3.hpp>

#include "ik/chain.h"
#include "ik/fabrik.h"
#include "ik/recording_observer.h"

namespace {

using fabrik::Chain;
using fabrik::SolveResult;
using fabrik::SolveSettings;

constexpr float kMax = std::numeric_limits<float>::max();
constexpr float kEps = std::numeric_limits<float>::epsilon();
constexpr float kTiny = std::numeric_limits<float>::denorm_min();

// The solve being checked, printed (as exact hex floats) when an invariant breaks.
struct Case {
  std::vector<glm::vec3> before;
  std::vector<glm::vec3> after;
  glm::vec3 target{0.0f};
  float tolerance = 0.0f;
  int max_iterations = 0;
  bool accelerate = false;
};
Case g_case;

void PrintCase() {
  const auto print = [](const char* name, const std::vector<glm::vec3>& joints) {
    std::fprintf(stderr, "%s:\n", name);
    for (const glm::vec3& p : joints) std::fprintf(stderr, "  %a %a %a\n", p.x, p.y, p.z);
  };
  print("joints before", g_case.before);
  print("joints after", g_case.after);
  std::fprintf(stderr, "target %a %a %a, tolerance %a, max_iterations %d, accelerate %d\n",
               g_case.target.x, g_case.target.y, g_case.target.z, g_case.tolerance,
               g_case.max_iterations, g_case.accelerate);
}

#define FUZZ_CHECK(cond, ...)                                \
  do {                                                       \
    if (!(cond)) {                                           \
      std::fprintf(stderr, "invariant broken: %s: ", #cond); \
      std::fprintf(stderr, __VA_ARGS__);                     \
      std::fprintf(stderr, "\n");                            \
      PrintCase();                                           \
      std::abort();                                          \
    }                                                        \
  } while (0)

bool Finite(const glm::vec3& p) {
  return std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z);
}

float MaxAbs(const glm::vec3& p) {
  return std::max({std::fabs(p.x), std::fabs(p.y), std::fabs(p.z)});
}

double DistanceD(const glm::vec3& a, const glm::vec3& b) {
  return glm::length(glm::dvec3(a) - glm::dvec3(b));
}

// One float of any kind the solver might meet.
float Value(FuzzedDataProvider& in) {
  // clang-format off
  static constexpr float kSpecial[] = {0.0f,    -0.0f,  1.0f,   -1.0f,  0.5f,    1e-30f,
                                       -1e-30f, 1e-40f, kTiny,  1e30f,  -1e30f,  1e19f,
                                       kMax,    -kMax,  3e38f,  1e-7f,  1e7f,    -1e7f,
                                       std::numeric_limits<float>::quiet_NaN(),
                                       std::numeric_limits<float>::infinity(),
                                       -std::numeric_limits<float>::infinity()};
  // clang-format on
  switch (in.ConsumeIntegralInRange<int>(0, 4)) {
    case 0:
      return static_cast<float>(in.ConsumeIntegralInRange<int>(-4, 4));
    case 1:
      return in.ConsumeFloatingPointInRange<float>(-10.0f, 10.0f);
    case 2:
      return in.PickValueInArray(kSpecial);
    case 3: {
      const auto bits = in.ConsumeIntegral<std::uint32_t>();
      float f;
      std::memcpy(&f, &bits, sizeof f);
      return f;
    }
    default:
      return in.ConsumeFloatingPointInRange<float>(-1000.0f, 1000.0f);
  }
}

glm::vec3 Point(FuzzedDataProvider& in) { return {Value(in), Value(in), Value(in)}; }

// The next joint: anywhere, on top of the previous one, on the line through the previous
// two, a small step, or straight on.
glm::vec3 NextJoint(FuzzedDataProvider& in, const std::vector<glm::vec3>& joints) {
  const glm::vec3 last = joints.back();
  switch (in.ConsumeIntegralInRange<int>(0, 4)) {
    case 0:
      return Point(in);
    case 1:
      return last;  // coincident: must be rejected
    case 2: {
      const glm::vec3 before = joints.size() >= 2 ? joints[joints.size() - 2] : glm::vec3(0.0f);
      return last + (last - before) * Value(in);  // collinear
    }
    case 3:
      return last + Point(in) * 1e-3f;
    default:
      return last + glm::vec3(1.0f, 0.0f, 0.0f) * std::fabs(Value(in));
  }
}

glm::vec3 Target(FuzzedDataProvider& in, const Chain& chain) {
  const auto joints = chain.joints();
  switch (in.ConsumeIntegralInRange<int>(0, 4)) {
    case 0:
      return Point(in);
    case 1:
      return joints[in.ConsumeIntegralInRange<std::size_t>(0, joints.size() - 1)];
    case 2:  // on the line through the root and the effector (the trap), at any distance
      return chain.root() + (chain.effector() - chain.root()) * Value(in);
    case 3:
      return chain.root() + Point(in) * 1e-3f;
    default:
      return chain.root() + (Point(in) - chain.root()) * 0.25f;
  }
}

void CheckSolved(const Chain& chain, const glm::vec3& root, const glm::vec3& target,
                 const SolveSettings& settings, const SolveResult& r) {
  const auto p = chain.joints();
  FUZZ_CHECK(r.ok, "valid input rejected: %s", r.error ? r.error : "?");
  FUZZ_CHECK(std::memcmp(&p[0], &root, sizeof root) == 0, "root moved");
  float magnitude = 0.0f;
  for (std::size_t i = 0; i < p.size(); ++i) {
    FUZZ_CHECK(Finite(p[i]), "joint %zu is %g %g %g", i, p[i].x, p[i].y, p[i].z);
    magnitude = std::max(magnitude, MaxAbs(p[i]));
  }
  FUZZ_CHECK(!std::isnan(r.distance) && std::isfinite(r.distance), "distance %g", r.distance);
  FUZZ_CHECK(r.iterations >= 0 && r.iterations <= settings.max_iterations, "iterations %d",
             r.iterations);
  for (std::size_t i = 1; i < p.size(); ++i) {
    const double l = DistanceD(p[i], p[i - 1]);
    const double expected = chain.lengths()[i - 1];
    const double local = std::max(MaxAbs(p[i]), MaxAbs(p[i - 1]));
    const double allowed = 1e-5 * expected + 4.0 * kEps * local + 8.0 * kTiny;
    FUZZ_CHECK(std::fabs(l - expected) <= allowed,
               "segment %zu has length %.9g, expected %.9g (allowed error %.3g)", i - 1, l,
               expected, allowed);
  }
  const double actual = DistanceD(chain.effector(), target);
  const double reported = r.distance;
  FUZZ_CHECK(
      std::fabs(actual - reported) <= 1e-6 * actual + 1e-30 || (reported == kMax && actual >= kMax),
      "reported distance %.9g, actual %.9g", reported, actual);
  // A saturated distance (FLT_MAX) says nothing about the tolerance; the exact one does.
  FUZZ_CHECK(r.reached ==
                 (reported < kMax ? reported <= settings.tolerance : actual <= settings.tolerance),
             "reached flag %d, distance %.9g, tolerance %.9g", r.reached, actual,
             double(settings.tolerance));
  if (r.reached) {
    FUZZ_CHECK(actual <= settings.tolerance * (1.0 + 1e-6) + 1e-30, "reached but %.9g > %.9g",
               actual, double(settings.tolerance));
  }
  if (!r.reachable) {
    // Laid straight at the target: every joint on the ray from the root towards it.
    const glm::dvec3 dir = glm::normalize(glm::dvec3(target) - glm::dvec3(root));
    for (std::size_t i = 1; i < p.size(); ++i) {
      const glm::dvec3 v = glm::dvec3(p[i]) - glm::dvec3(root);
      const double off = glm::length(v - dir * glm::dot(v, dir));
      const double allowed = 1e-5 * chain.total_length() + 8.0 * kEps * magnitude + 8.0 * kTiny;
      FUZZ_CHECK(off <= allowed, "out of reach, joint %zu is %.3g off the line", i, off);
      FUZZ_CHECK(glm::dot(v, dir) >= -allowed, "out of reach, joint %zu behind the root", i);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);

  std::vector<glm::vec3> joints{Point(in)};
  const std::size_t count = in.ConsumeIntegralInRange<std::size_t>(1, 48);
  for (std::size_t i = 1; i < count; ++i) joints.push_back(NextJoint(in, joints));

  fabrik::Result<Chain> made = Chain::FromJoints(joints);
  if (!made.ok()) {
    FUZZ_CHECK(!made.error().empty(), "rejection without a message");
    return 0;
  }
  Chain& chain = made.value();
  FUZZ_CHECK(chain.joint_count() == joints.size(), "joint count");
  for (float l : chain.lengths()) FUZZ_CHECK(std::isfinite(l) && l > 0.0f, "length %g", l);
  FUZZ_CHECK(std::isfinite(chain.total_length()), "total length");

  fabrik::RecordingObserver recorder(48, 64);
  const int solves = in.ConsumeIntegralInRange<int>(1, 4);
  for (int s = 0; s < solves; ++s) {
    const glm::vec3 target = Target(in, chain);
    SolveSettings settings;
    settings.tolerance = in.ConsumeBool() ? std::fabs(Value(in)) : Value(in);
    settings.max_iterations = in.ConsumeIntegralInRange<int>(-1, 64);
    const bool record = in.ConsumeBool();
    settings.accelerate = in.ConsumeBool();  // textbook or accelerated FABRIK

    const std::vector<glm::vec3> before(chain.joints().begin(), chain.joints().end());
    const SolveResult r =
        fabrik::SolveFabrik(chain, target, settings, record ? &recorder : nullptr);
    g_case = Case{before,
                  {chain.joints().begin(), chain.joints().end()},
                  target,
                  settings.tolerance,
                  settings.max_iterations,
                  settings.accelerate};
    if (fabrik::ValidateSolveInput(target, settings) != nullptr) {
      FUZZ_CHECK(!r.ok && r.error != nullptr, "invalid input accepted");
      FUZZ_CHECK(
          std::memcmp(before.data(), chain.joints().data(), before.size() * sizeof(glm::vec3)) == 0,
          "rejected solve changed the chain");
      continue;
    }
    CheckSolved(chain, before[0], target, settings, r);

    if (record && recorder.recorded() && !recorder.truncated() && recorder.reach_count() > 0) {
      std::vector<glm::vec3> replay(chain.joint_count());
      FUZZ_CHECK(recorder.PoseAfterReach(recorder.reach_count() - 1, replay), "replay");
      FUZZ_CHECK(
          std::memcmp(replay.data(), chain.joints().data(), replay.size() * sizeof(glm::vec3)) == 0,
          "replay does not end at the solved pose");
    }
  }

  // SetPose with the original joints: must restore them exactly (it keeps the lengths).
  const fabrik::Status restored = chain.SetPose(joints);
  FUZZ_CHECK(restored.ok(), "original pose rejected: %s", restored.error().c_str());
  FUZZ_CHECK(
      std::memcmp(joints.data(), chain.joints().data(), joints.size() * sizeof(glm::vec3)) == 0,
      "SetPose did not restore the pose");
  return 0;
}

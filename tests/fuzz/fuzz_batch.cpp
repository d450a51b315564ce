// libFuzzer target for the batched solver: a batch of chains (same joint count, each built
// from the fuzz bytes: extreme magnitudes, subnormals, near-coincident and collinear joints),
// targets of every kind (NaN and inf included), settings (textbook or accelerated), threads
// and regrouping, over two frames. Each frame the batch must either reject the input with nothing
// moved, or give for every chain exactly what SolveFabrik (with the same `accelerate`) gives
// for it: same iterations, reached and reachable flags, and joints and distance equal to the
// bit. The batch and the single solves each go on from their own poses, so a difference left
// by one frame shows in the next. The invariants are checked too (finite joints, the root
// fixed, at most the cap of iterations, `reached` exactly when the distance is within
// tolerance). A broken promise aborts with a message.
#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <glm/geometric.hpp>
#include <glm/vec3.hpp>
#include <limits>
#include <vector>

#include "ik/batch_fabrik.h"
#include "ik/chain.h"
#include "ik/fabrik.h"

namespace {

using fabrik::ChainBatch;

constexpr float kMax = std::numeric_limits<float>::max();

#define BATCH_CHECK(cond, ...)                               \
  do {                                                       \
    if (!(cond)) {                                           \
      std::fprintf(stderr, "invariant broken: %s: ", #cond); \
      std::fprintf(stderr, __VA_ARGS__);                     \
      std::fprintf(stderr, "\n");                            \
      std::abort();                                          \
    }                                                        \
  } while (0)

float Value(FuzzedDataProvider& in) {
  static constexpr float kSpecial[] = {0.0f,
                                       -0.0f,
                                       1.0f,
                                       -1.0f,
                                       1e-30f,
                                       1e-40f,
                                       1e30f,
                                       -1e30f,
                                       1e19f,
                                       kMax,
                                       -kMax,
                                       1e-7f,
                                       1e7f,
                                       std::numeric_limits<float>::quiet_NaN(),
                                       std::numeric_limits<float>::infinity()};
  switch (in.ConsumeIntegralInRange<int>(0, 3)) {
    case 0:
      return in.ConsumeFloatingPointInRange<float>(-10.0f, 10.0f);
    case 1:
      return in.PickValueInArray(kSpecial);
    case 2: {
      const auto bits = in.ConsumeIntegral<std::uint32_t>();
      float f;
      std::memcpy(&f, &bits, sizeof f);
      return f;
    }
    default:
      return static_cast<float>(in.ConsumeIntegralInRange<int>(-4, 4));
  }
}

glm::vec3 Point(FuzzedDataProvider& in) { return {Value(in), Value(in), Value(in)}; }

// A chain of `joints` joints; nullopt-like failure is reported by ok() of the Result.
fabrik::Result<fabrik::Chain> MakeChain(FuzzedDataProvider& in, std::size_t joints) {
  std::vector<glm::vec3> p{Point(in)};
  while (p.size() < joints) {
    const glm::vec3 last = p.back();
    switch (in.ConsumeIntegralInRange<int>(0, 3)) {
      case 0:
        p.push_back(Point(in));
        break;
      case 1: {  // on the line through the previous two
        const glm::vec3 before = p.size() >= 2 ? p[p.size() - 2] : glm::vec3(0.0f);
        p.push_back(last + (last - before) * Value(in));
        break;
      }
      case 2:
        p.push_back(last + Point(in) * 1e-3f);
        break;
      default:
        p.push_back(last + glm::vec3(0.0f, 1.0f, 0.0f) * std::fabs(Value(in)));
    }
  }
  return fabrik::Chain::FromJoints(std::move(p));
}

glm::vec3 Target(FuzzedDataProvider& in, const fabrik::Chain& chain) {
  switch (in.ConsumeIntegralInRange<int>(0, 3)) {
    case 0:
      return Point(in);
    case 1:
      return chain.joints()[in.ConsumeIntegralInRange<std::size_t>(0, chain.joint_count() - 1)];
    case 2:  // on the root-effector line: the straight-chain trap
      return chain.root() + (chain.effector() - chain.root()) * Value(in);
    default:
      return chain.root() + (Point(in) - chain.root()) * 0.25f;
  }
}

bool Finite(const glm::vec3& p) {
  return std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  const std::size_t joints = in.ConsumeIntegralInRange<std::size_t>(2, 7);
  const std::size_t wanted = in.ConsumeIntegralInRange<std::size_t>(1, 140);
  std::vector<fabrik::Chain> chains;
  for (std::size_t c = 0; c < wanted && in.remaining_bytes() > 0; ++c) {
    fabrik::Result<fabrik::Chain> chain = MakeChain(in, joints);
    if (chain.ok()) chains.push_back(std::move(chain).value());
  }
  if (chains.empty()) return 0;
  ChainBatch batch = std::move(ChainBatch::FromChains(chains)).value();
  std::vector<glm::vec3> pose(joints), before(chains.size() * joints), after(before.size());

  for (int frame = 0; frame < 2; ++frame) {
    std::vector<glm::vec3> targets;
    bool all_finite = true;
    for (const fabrik::Chain& chain : chains) {
      targets.push_back(Target(in, chain));
      all_finite = all_finite && Finite(targets.back());
    }
    fabrik::SolveSettings settings;
    settings.tolerance = in.ConsumeBool() ? Value(in) : 1e-3f;
    settings.max_iterations = in.ConsumeIntegralInRange<int>(-1, 40);
    const auto threads = in.ConsumeBool() ? fabrik::BatchThreads::kAll : fabrik::BatchThreads::kOne;
    const auto regroup =
        in.ConsumeBool() ? fabrik::BatchRegroup::kWhenRagged : fabrik::BatchRegroup::kNever;
    settings.accelerate = in.ConsumeBool();
    const bool valid = all_finite && std::isfinite(settings.tolerance) &&
                       settings.tolerance > 0.0f && settings.max_iterations >= 1;

    batch.CopyAllPoses(before);
    const fabrik::BatchSolveResult r =
        fabrik::SolveFabrikBatch(batch, targets, settings, threads, regroup);
    BATCH_CHECK(r.ok == valid, "ok %d for input that is %s (%s)", r.ok, valid ? "valid" : "invalid",
                r.error ? r.error : "-");
    if (!r.ok) {
      batch.CopyAllPoses(after);
      BATCH_CHECK(std::memcmp(before.data(), after.data(), before.size() * sizeof(glm::vec3)) == 0,
                  "rejected input moved a chain");
      continue;
    }
    for (std::size_t c = 0; c < chains.size(); ++c) {
      const fabrik::SolveResult expected = fabrik::SolveFabrik(chains[c], targets[c], settings);
      const fabrik::ChainOutcome got = batch.outcome(c);
      BATCH_CHECK(got.iterations == expected.iterations, "chain %zu: %d iterations, scalar %d", c,
                  got.iterations, expected.iterations);
      BATCH_CHECK(got.reached == expected.reached && got.reachable == expected.reachable,
                  "chain %zu: flags %d %d, scalar %d %d", c, got.reached, got.reachable,
                  expected.reached, expected.reachable);
      BATCH_CHECK(got.iterations >= 0 && got.iterations <= settings.max_iterations,
                  "chain %zu: %d iterations, cap %d", c, got.iterations, settings.max_iterations);
      // A distance past the float range is reported saturated at FLT_MAX; under a tolerance
      // of FLT_MAX such a chain may count either way (as SolveFabrik's does).
      const bool saturated = got.distance == std::numeric_limits<float>::max();
      BATCH_CHECK(got.reached ? got.distance <= settings.tolerance
                              : (got.distance > settings.tolerance || saturated),
                  "chain %zu: reached %d at distance %a", c, got.reached, got.distance);
      BATCH_CHECK(std::memcmp(&got.distance, &expected.distance, sizeof(float)) == 0,
                  "chain %zu: distance %a, scalar %a", c, got.distance, expected.distance);
      batch.CopyPose(c, pose);
      for (std::size_t j = 0; j < joints; ++j) {
        const glm::vec3 a = pose[j], b = chains[c].joints()[j];
        BATCH_CHECK(Finite(a), "chain %zu joint %zu not finite", c, j);
        BATCH_CHECK(std::memcmp(&a, &b, sizeof(glm::vec3)) == 0,
                    "chain %zu joint %zu: (%a %a %a), scalar (%a %a %a)", c, j, a.x, a.y, a.z, b.x,
                    b.y, b.z);
      }
      BATCH_CHECK(std::memcmp(&pose[0], &chains[c].joints()[0], sizeof(glm::vec3)) == 0,
                  "chain %zu: root moved", c);
    }
  }
  return 0;
}

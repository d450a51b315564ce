#include "ik/fabrik_accelerated.h"

#include <hwy/highway.h>

#include <cstdint>
#include <glm/vec3.hpp>
#include <span>

#include "ik/bend_step-inl.h"
#include "ik/bend_step.h"
#include "ik/fabrik.h"
#include "ik/solver.h"
#include "ik/vec_util.h"

namespace fabrik {
namespace {

// Passes a textbook solve's callbacks on with its iteration numbers shifted, and OnBegin
// only once, so a series of one-iteration SolveFabrik calls looks like one solve.
class Relay final : public SolveObserver {
 public:
  explicit Relay(SolveObserver* inner) : inner_(inner) {}
  void OnBegin(std::span<const glm::vec3> joints, const glm::vec3& target) override {
    if (begun_) return;
    begun_ = true;
    inner_->OnBegin(joints, target);
  }
  void OnHalfPass(PassKind kind, int iteration, std::span<const glm::vec3> joints) override {
    inner_->OnHalfPass(kind, offset + iteration, joints);
  }
  int offset = 0;

 private:
  SolveObserver* inner_;
  bool begun_ = false;
};

}  // namespace

bool BendScaleStep(Chain& chain, const glm::vec3& target, float goal, std::size_t pivot,
                   float max_move) {
  if (pivot + 1 >= chain.joint_count()) return false;
  // The sub-chain from the pivot is a chain of its own: its root stays, everything after it
  // is scaled and turned. One lane of the step the batched solver runs on its vectors
  // (bend_step-inl.h): the same floats.
  std::span<glm::vec3> p = chain.pose_for_solver().subspan(pivot);
  std::span<const float> len = chain.lengths().subspan(pivot);
  float total = 0.0f;
  for (float l : len) total += l;  // as Chain sums its total_length()
  const bend::BendChains chains{&p[0].x,   3, 1,      len.data(), 1,
                                &target.x, 1, &total, &max_move,  len.size()};
  namespace hn = hwy::HWY_NAMESPACE;
  static_assert(sizeof(glm::vec3) == 3 * sizeof(float), "packed joints");
  bend::BendWork<1, 256> work;
  const std::uint8_t want = 1;
  std::uint8_t applied = 0;
  bend::HWY_NAMESPACE::Step(hn::CappedTag<float, 1>(), chains, &want, goal, work, &applied);
  return applied != 0;
}

SolveResult SolveFabrikAccelerated(Chain& chain, const glm::vec3& target,
                                   const SolveSettings& settings, SolveObserver* observer) {
  SolveResult result;
  if (const char* error = ValidateSolveInput(target, settings)) {
    result.ok = false;
    result.error = error;
    return result;
  }
  SolveSettings one = settings;
  one.accelerate = false;
  one.max_iterations = 1;
  Relay relay(observer);
  SolveObserver* relayed = observer != nullptr ? &relay : nullptr;
  const float start_distance = SafeDistance(chain.effector(), target);
  // The first textbook iteration also validates, handles the out-of-reach and
  // already-there cases and calls OnBegin, exactly as SolveFabrik documents.
  result = SolveFabrik(chain, target, one, relayed);
  if (!result.ok || !result.reachable || result.reached) return result;

  std::span<glm::vec3> p = chain.pose_for_solver();
  const float goal = 0.25f * settings.tolerance;
  const float max_move = bend::kMaxMoveFactor * start_distance;
  int iterations = result.iterations;
  // Back-off: after a bend-scale step that could not be applied, the next one waits for
  // `gap` textbook iterations, doubling on each further failure, so poses where it does not
  // help (a target in the hole of a chain that cannot fold, say) cost little more than the
  // textbook passes.
  int gap = 0, wait = 0;
  while (iterations < settings.max_iterations) {
    if (wait > 0) {
      --wait;
    } else {
      ++iterations;
      if (BendScaleStep(chain, target, goal, 0, max_move)) {
        result.distance = SafeDistance(p.back(), target);
        result.reached = result.distance <= settings.tolerance;
        gap = 0;
      } else {
        gap = gap == 0 ? 1 : 2 * gap;
        wait = gap;
      }
      if (observer) observer->OnHalfPass(PassKind::kBendScale, iterations, p);
      if (result.reached || iterations >= settings.max_iterations) break;
    }

    relay.offset = iterations;
    const SolveResult r = SolveFabrik(chain, target, one, relayed);
    iterations += r.iterations;
    result.distance = r.distance;
    result.reached = r.reached;
    if (result.reached) break;
  }
  result.iterations = iterations;
  return result;
}

}  // namespace fabrik

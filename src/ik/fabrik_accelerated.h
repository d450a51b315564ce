// fabrik_accelerated.h - FABRIK with a bend-scale step: reaches near full reach in a few
// iterations where the textbook passes crawl.
//
// Why: near full reach the textbook FABRIK map (fabrik.h) is a contraction with a factor
// close to 1: every iteration straightens the chain a little and the effector creeps towards
// the target, so 10-joint chains need ~20 iterations on average and long chains often hit
// any cap. What is missing there is one global move, "unbend everything a bit", which no
// single reach can make.
//
// SolveFabrikAccelerated(chain, target, settings, observer) alternates
//   * one textbook FABRIK iteration (SolveFabrik with max_iterations = 1: bitwise the same
//     backward and forward pass, same degenerate-case handling), and
//   * one bend-scale step: the bend at every inner joint (the rotation taking segment i-1's
//     direction to segment i's) is scaled by one factor s >= 0 (s = 1: the current pose,
//     s = 0: the chain straight along its first segment, s > 1: curled further), and the
//     chain is then turned rigidly about the root so the effector points at the target.
//     The factor is found by a bracketed 1-D root search (Brent-style: inverse quadratic
//     interpolation, secant, bisection) on
//     |effector(s) - root| = |target - root|, so after the turn the effector lies on the
//     target up to the search tolerance (1/4 of settings.tolerance) and float rounding.
//     Computed in double from the float pose and written once (joint after joint, each
//     rounded to float once), so segment lengths come out exact to the float rounding of
//     their two joints' coordinates (the step re-projects every length; a segment may thus
//     differ by up to one float ulp of the chain's largest coordinate) and a long chain's
//     effector carries no accumulated float noise.
// Safeguard: a bend-scale step is applied only when the effector it writes is provably
// nearer the target than the current one (its predicted distance plus bounds on the double
// and float rounding, against the current distance in double); otherwise the pose is left
// bitwise untouched. So no bend-scale step ever raises the error. Jump guard: a step is also left
// out when it would move any joint more than 3 times the effector's distance from the target at the
// start of the solve - the bracket may hold a root far from the current pose (a chain curled much
// further, say) that lands on the target but jumps, where a few textbook iterations get there
// smoothly; warm tracking thus never jumps, and a cold solve (where that distance is large) is not
// held back. A step whose search finds no bracket (the effector is farther from the root than the
// target and curling by s up to 17 does not bring it inside) is also left out. After a step that
// was left out, the next waits 1, 2, 4, ... textbook iterations.
//
// Iterations (SolveResult::iterations, capped by settings.max_iterations) count both kinds:
// each textbook iteration counts 1 and each bend-scale step counts 1, applied or not. A
// bend-scale step costs 2-4 chain sweeps in double as a rule (one per search evaluation, one
// to write, one more for the jump guard when it can bite; up to ~25 in pathological poses);
// the benchmark (docs/accelerated-fabrik.md) reports the time per solve against the textbook.
//
// Observer: OnBegin once; per textbook iteration OnHalfPass(kBackward) and (kForward); per
// bend-scale step one OnHalfPass(PassKind::kBendScale, iteration, pose) with the pose after
// it (unchanged when the safeguard rejected it). Like a forward pass it writes joints in
// order from the root (joint j is final once joint j has been written), so
// RecordingObserver's reach numbering (joint j at reach j) replays it. The root is never
// moved by it.
//
// Everything else is SolveFabrik's contract (fabrik.h): invalid input rejected untouched,
// out-of-reach targets straightened (iterations = 1), 0 iterations when already within
// tolerance, warm start from the current pose, root bitwise fixed, lengths kept, no NaN or
// inf for any finite input, no heap allocation. Deterministic.
// Joint limits: the bend-scale step knows none; constrained_fabrik.h uses it only where it
// checks the result (see there).
#pragma once

#include <cstddef>
#include <glm/gtc/quaternion.hpp>
#include <glm/vec3.hpp>
#include <limits>

#include "chain.h"
#include "solve_types.h"

namespace fabrik {

// See the header comment. settings.accelerate is ignored (this is the accelerated solver).
[[nodiscard]] SolveResult SolveFabrikAccelerated(Chain& chain, const glm::vec3& target,
                                                 const SolveSettings& settings,
                                                 SolveObserver* observer = nullptr);

// One bend-scale step on its own (see above), for the constrained solver and tests: returns
// true when it was applied (the effector's distance to `target` strictly decreased), false
// when the pose is unchanged (also when the target is beyond the reach of the part of the
// chain after the pivot). `target` must be finite; `goal` (> 0) is how close the 1-D search
// tries to bring the effector. `pivot`: the step acts on joints pivot..n-1 only, turning
// them about joint `pivot` (0: the whole chain about the root); joints up to the pivot stay.
// `max_move` (world units): the step is left out (false) when it would move any joint farther
// than that; infinity disables the check.
bool BendScaleStep(Chain& chain, const glm::vec3& target, float goal, std::size_t pivot = 0,
                   float max_move = std::numeric_limits<float>::infinity());

// ---- Internal: the pieces of BendScaleStep that the batched solver (batch_fabrik.h) shares,
// so that its lanes take exactly the decisions this file takes. Not part of the public API.
namespace detail {

// The jump guard of a solve: a bend-scale step may move no joint farther than this many times
// the effector's distance from the target when the solve began (docs/accelerated-fabrik.md).
inline constexpr float kBendMaxMoveFactor = 3.0f;
// Search budget of one bend-scale step: the bracketed search converges superlinearly on the
// smooth |effector(s) - root| - |target - root|; the cap only bounds the cost of a
// pathological pose.
inline constexpr int kMaxEvaluations = 16;
// Curl factors tried, in order, when the effector is farther from the root than the target.
// Fine steps first: a nearly folded joint passes its fold (where the distance dips) within a
// small increase of s; long, gently bent chains need large factors.
inline constexpr double kCurlFactors[] = {1.25, 1.5, 2.0, 3.0, 5.0, 9.0, 17.0};

// The 1-D search of one bend-scale step for the factor s, as a resumable state machine: the
// caller evaluates the chain at s() (the effector's offset from the root with every bend
// scaled by s) and feeds the offset back, until pending() is false. All in double.
class BendSearch {
 public:
  // total: the (sub-)chain's length, its float lengths summed in double from the root;
  // radius: |target - root|; reach: |effector - root| now; goal: how close |offset| must come
  // to radius. Afterwards pending() (wants f at s()), or failed (no bracket).
  void Start(double total, double radius, double reach, float goal);
  bool pending() const { return state_ == State::kCurl || state_ == State::kBracketed; }
  double s() const { return s_; }
  void Feed(const glm::dvec3& offset);
  // After the search: whether it found a factor, the best factor and its offset.
  bool found() const { return state_ == State::kFound; }
  double best_s() const { return best_s_; }
  const glm::dvec3& best_offset() const { return best_offset_; }

 private:
  enum class State : unsigned char { kCurl, kBracketed, kFound, kFailed };
  void BeginBracketed();
  void Propose();

  State state_ = State::kFailed;
  double radius_ = 0.0, goal_ = 0.0, s_ = 0.0, x_ = 0.0;
  double best_s_ = -1.0, best_f_ = 0.0;
  glm::dvec3 best_offset_{0.0};
  double a_ = 0.0, fa_ = 0.0, b_ = 0.0, fb_ = 0.0;
  double lo_ = 0.0, flo_ = 0.0, hi_ = 0.0, fhi_ = 0.0;
  double x0_ = 0.0, f0_ = 0.0, x1_ = 0.0, f1_ = 0.0, x2_ = 0.0, f2_ = 0.0;
  double width_[2] = {0.0, 0.0};
  bool squared_ = false, three_ = false;
  std::size_t curl_ = 0;
  int k_ = 0;
};

// After a search that found `offset`: `turn` (the rotation about the root pointing the scaled
// chain's effector at the target) and the safeguard: true when the effector the step would
// write is provably nearer the target than `current` (|effector - target| now, in double).
bool BendAim(const glm::dvec3& root, const glm::vec3& target, double radius, double total,
             std::size_t segments, double current, const glm::dvec3& offset, glm::dquat& turn);

// Whether the jump guard needs the measuring sweep: no joint can move more than twice the
// (sub-)chain's length.
inline bool BendMoveCheckNeeded(float max_move, double total) { return max_move < 2.0 * total; }

}  // namespace detail
}  // namespace fabrik

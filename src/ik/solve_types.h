// solve_types.h - settings, results and the pass observer shared by every solver in src/ik.
#pragma once

#include <cstdint>
#include <glm/vec3.hpp>
#include <span>

namespace fabrik {

// Whether a solve runs the accelerated FABRIK when the caller does not say: the one default
// of the C++ library (SolveSettings) and of fabrik-solve's "accelerate" field. The textbook
// FABRIK, which every solve of the 1.x versions has run unless asked otherwise.
inline constexpr bool kAccelerateByDefault = false;

// What a solve may do. Validated by every solver before it touches the chain.
struct SolveSettings {
  // Margin of error: the solve stops once |effector - target| <= tolerance. World units,
  // finite and > 0.
  float tolerance = 0.01f;
  // Iteration cap: at most this many iterations per solve (>= 1). For FABRIK one iteration
  // is one backward pass followed by one forward pass.
  int max_iterations = 10;
  // FABRIK only (SolveFabrik and, through it, Solve(kFabrik)): run the accelerated FABRIK of
  // fabrik_accelerated.h instead of the textbook loop. The other solvers ignore it.
  bool accelerate = kAccelerateByDefault;
};

// The outcome of one solve.
struct SolveResult {
  // False when the input was rejected (see `error`); the chain is then unchanged and the
  // numbers below are zero.
  bool ok = true;
  // Static text naming what was rejected, or nullptr when ok. Never allocated.
  const char* error = nullptr;
  // Iterations run: 0 when the effector already was within tolerance; 1 when the target was
  // out of reach and the chain was laid straight (the straightening pass).
  int iterations = 0;
  // |effector - target| after the solve, world units.
  float distance = 0.0f;
  // distance <= tolerance.
  bool reached = false;
  // |target - root| <= total chain length.
  bool reachable = false;
};

// Which half of an iteration just finished.
enum class PassKind : std::uint8_t {
  kBackward,    // effector placed on the target, then each joint reached towards the root
  kForward,     // root put back in place, then each joint reached towards the effector
  kStraighten,  // target out of reach: the chain was laid straight towards it
  kBendScale,   // accelerated FABRIK only: every bend scaled by one factor, then the chain
                // turned rigidly about the root (fabrik_accelerated.h); one whole-chain move
};

// Optional observer of a solve, for teaching views and tests. Off (nullptr) by default, and a
// solve without one does no extra work. Callbacks run synchronously inside the solve; the
// span is valid only during the call.
class SolveObserver {
 public:
  virtual ~SolveObserver() = default;
  // Called once before anything moves, with the starting pose.
  virtual void OnBegin(std::span<const glm::vec3> joints, const glm::vec3& target) {
    (void)joints;
    (void)target;
  }
  // Called after every half-pass. `iteration` counts from 1.
  virtual void OnHalfPass(PassKind kind, int iteration, std::span<const glm::vec3> joints) = 0;
};

}  // namespace fabrik

// scenes.h - the demo's scenes: a free chain, a hinged robot arm with a pole, and a
// branching creature with five end effectors.
//
// chain     the plain chain every other feature works on (any solver, step view, race).
// arm       a robot arm on a turntable: a rigid pedestal, then shoulder, elbow and wrist
//           hinges that pitch in the vertical plane through the target (the turntable turns
//           that plane to face the target every frame, as a real arm's base yaw does). A pole
//           point decides whether the elbow bends up or down. Constrained FABRIK.
// creature  a tree: hips (root), spine to the chest (a sub-base for the arms and the neck)
//           and two legs; five effectors (hands, head, feet), each with its own target, solved
//           with the centroid rule. The mode's target drives the primary effector (the right
//           hand); in drag mode every effector's target can be dragged.
#pragma once

#include <cstdint>
#include <glm/vec3.hpp>
#include <optional>
#include <string_view>
#include <vector>

#include "ik/constrained_fabrik.h"
#include "ik/constraints.h"
#include "ik/tree.h"

namespace fabrik {

struct AppState;

enum class SceneKind { kChain, kArm, kCreature };
const char* SceneName(SceneKind kind);
std::optional<SceneKind> ParseScene(std::string_view name);

struct ArmScene {
  ChainConstraints constraints;  // base frame re-aimed every frame when `turntable`
  bool turntable = true;
  bool use_pole = true;
  glm::vec3 pole{0.0f};
  ConstrainedSolveResult last;
  std::vector<std::uint8_t> at_limit;
};

struct CreatureScene {
  std::optional<Tree> tree;
  std::vector<EffectorTarget> targets;  // one per effector
  std::vector<float> distances;
  std::vector<std::uint8_t> at_limit;
  TreeSolveResult last;
  int primary = 0;  // index into targets: the effector the target modes drive
};

// What a left-drag in drag mode holds.
struct Grab {
  enum class Kind { kNone, kTarget, kEffectorTarget, kPole };
  Kind kind = Kind::kNone;
  int index = -1;  // effector target index for kEffectorTarget
};

struct SceneState {
  SceneKind kind = SceneKind::kChain;
  std::vector<float> chain_lengths;  // the chain scene's lengths while another scene is on
  ArmScene arm;
  CreatureScene creature;
  Grab grab;
};

// Switches scene: builds its chain or tree, places its targets and camera. The chain scene
// gets back a fresh chain with the lengths the panel holds.
void SetScene(AppState& state, SceneKind kind);
// The solve step for the arm and creature scenes (the chain scene uses the normal solver).
void SolveScene(AppState& state);
// Re-aims the arm's turntable at the target: the base frame's right axis becomes horizontal
// and perpendicular to the root->target direction, so every parent-space hinge pitches in the
// vertical plane through the target.
void AimTurntable(ArmScene& arm, const glm::vec3& root, const glm::vec3& target);
// The frame of every segment of a chain under `constraints` (parallel transport from the base
// frame), as the constrained solver carries them: frames[i] is segment i's parent frame.
void SegmentParentFrames(std::span<const glm::vec3> joints, const ChainConstraints& constraints,
                         std::vector<Frame>& frames);

}  // namespace fabrik

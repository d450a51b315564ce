// quadruped.h - a four-legged skinned character walking on a heightmap: its own walk and run
// cycles play, their speed matched to the ground speed, the legged walker (walker/walker.h)
// decides where the body goes and when each foot steps, and FABRIK plants each of the model's
// own four leg chains on the terrain (docs/characters.md: The quadruped on the hills).
//
// Spaces and units. The model must stand +Y up, facing +Z (as both packaged models do,
// docs/characters.md: What each file gives); its lengths are metres and the world's units are
// taken as metres. Poses given out are world space: a bone's model transform carried by the
// body's placement, ready for SkinningTransforms (cpu_skin.h), which then skins straight into
// the world.
//
// The rig (FindQuadrupedRig) is found from the skeleton's shape, names playing no part: a leg is
// the run of bones from a branching bone's child down to a leaf, at least three bones long,
// whose leaf lies in the lowest quarter of the bind pose's bone heights. Exactly four such legs
// are needed, two on each side of x = 0, one of each side ahead of the other; the one ahead is
// the front leg. The cycles are the animations with a duration: one whose name holds "walk"
// (any case) is the walk, "run" the run; without such names the longest is the walk and the
// shortest other one the run. A cycle's ground speed is how fast its planted feet move
// backwards under the body: the mean speed of its feet while they move backwards (metres a
// second at normal speed).
//
// Each frame (QuadrupedWalker::Update):
//   1. the walker steps (its proxy legs, sized to reach every foothold the model's legs can,
//      are not drawn): body position, heading and tilt, each foot's target on the terrain;
//   2. the cycle advances by dt x (ground speed / the cycle's ground speed), the run taken from
//      1.5 x the walk's speed and left below 1.3 x, and is sampled; its root's horizontal
//      motion is dropped (the walker moves the body);
//   3. the sampled pose is placed on the body (the hips' centroid on the walker's body origin,
//      the model's axes on the body's) and each leg, from its first bone to its leaf, is
//      solved by FABRIK (ik/fabrik.h), warm-started from the cycle's own leg pose (so knees
//      and elbows bend as the cycle bends them) for its leaf to stand `foot_height` above the
//      foot's target; each leg bone is turned by the smallest rotation onto its solved
//      direction, its twist kept from the cycle; the leaf keeps its turn from its parent.
// Guarantees (tests/character/test_quadruped.cpp): bone lengths kept to float rounding;
// the feet of planted legs within the solver's tolerance of their targets where the leg
// reaches; Update allocates nothing.
//
// Bad input: Create fails, naming the problem, on a null model or terrain, or a model without
// four legs or a walk cycle; Update refuses what the walker refuses (walker.h), changing
// nothing.
#pragma once

#include <array>
#include <glm/gtc/quaternion.hpp>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>
#include <memory>
#include <span>
#include <vector>

#include "character/model.h"
#include "ik/chain.h"
#include "ik/recording_observer.h"
#include "ik/result.h"
#include "ik/solve_types.h"
#include "terrain/heightmap.h"
#include "walker/walker.h"

namespace fabrik::character {

struct QuadrupedLeg {
  std::vector<int> bones;    // first bone (hip or shoulder) to the leaf (the foot), parents first
  bool front = false;        // ahead of the other leg of its side
  bool left = false;         // at +X (the model's left)
  float foot_height = 0.0f;  // the leaf's height above the mesh's lowest point, bind pose
};

struct QuadrupedCycle {
  int animation = -1;         // index into Model::animations, -1 for none
  float duration = 0.0f;      // seconds
  float ground_speed = 0.0f;  // metres a second at normal speed, > 0
};

struct QuadrupedRig {
  // Left front, right front, left hind, right hind.
  std::array<QuadrupedLeg, 4> legs;
  QuadrupedCycle walk, run;     // run.animation is -1 when the model has one cycle
  glm::vec3 body_origin{0.0f};  // model space: the centroid of the legs' first bones, bind pose
  float ground_y = 0.0f;        // model space: the lowest vertex, bind pose
};

// The rig of `model` (see the header comment), or an error naming what is missing.
Result<QuadrupedRig> FindQuadrupedRig(const Model& model);

// The legged walker's settings for `rig`: its legs' hips and rest feet where the model's are,
// the body riding so that each leg stands at 0.9 of its bind height, steps, drift, speed and
// swing scaled by the legs' length. Its own leg chains are proxies long enough to reach every
// foothold (the model's legs are solved separately).
WalkerSettings QuadrupedWalkerSettings(const Model& model, const QuadrupedRig& rig);

class QuadrupedWalker {
 public:
  // A walker standing at world (start.x, start.y) = (x, z) facing `yaw` (walker.h), playing
  // the walk cycle's first frame with its feet on the ground.
  static Result<QuadrupedWalker> Create(std::shared_ptr<const Model> model,
                                        std::shared_ptr<const Heightmap> terrain,
                                        glm::vec2 start = {0.0f, 0.0f}, float yaw = 0.0f);

  // Advances by dt towards `goal` (walker.h: Update), then poses the model (header comment).
  Result<int> Update(float dt, const glm::vec3& goal);
  // Moves onto another terrain (walker.h: SetTerrain) and poses the model there.
  Status SetTerrain(std::shared_ptr<const Heightmap> terrain);

  const Model& model() const { return *model_; }
  const std::shared_ptr<const Model>& model_ptr() const { return model_; }
  const QuadrupedRig& rig() const { return rig_; }
  const Walker& walker() const { return walker_; }
  // The step view (walker.h: SetRecordedLeg, for the spider's legs): each pose records the
  // FABRIK solve of the model's leg `index` (0..3, hip to paw, world coordinates) into
  // recording(); any other index records nothing.
  void SetRecordedLeg(int index);
  int recorded_leg() const { return recorded_leg_; }
  const RecordingObserver& recording() const { return recording_; }

  // The pose of every bone, world space (model.h: BoneTransform).
  std::span<const BoneTransform> pose() const { return pose_; }
  // Leg `i`'s joints (rig().legs[i].bones) after its solve, and as the cycle put them before
  // it, world space; empty for a bad index.
  std::span<const glm::vec3> leg_joints(std::size_t i) const;
  std::span<const glm::vec3> leg_pre_solve(std::size_t i) const;
  // Where leg i's foot should stand: its target plus foot_height up (world).
  glm::vec3 foot_goal(std::size_t i) const;
  bool planted(std::size_t i) const { return i < 4 && walker_.legs()[i].planted; }

  // The cycle playing (false: the walk), its time in seconds and its playback rate.
  bool running() const { return running_; }
  float cycle_time() const { return cycle_time_; }
  float playback_rate() const { return rate_; }
  // FABRIK iterations of the four legs in the last pose.
  int iterations() const { return iterations_; }

 private:
  QuadrupedWalker(std::shared_ptr<const Model> model, QuadrupedRig rig, Walker walker);
  void PoseModel(float dt);
  void SolveLeg(std::size_t i);

  std::shared_ptr<const Model> model_;
  QuadrupedRig rig_;
  Walker walker_;
  std::vector<Chain> chains_;  // one per leg, hip-relative, bind lengths
  std::array<std::vector<float>, 4> lengths_;
  std::array<std::vector<glm::vec3>, 4> solved_, pre_, scratch_;
  std::vector<BoneTransform> local_, pose_;
  glm::vec3 last_body_{0.0f};
  float cycle_time_ = 0.0f;
  float rate_ = 0.0f;
  int iterations_ = 0;
  bool running_ = false;
  RecordingObserver recording_;  // reserved for the longest leg and the solve's cap
  OffsetObserver to_world_;      // the hip-relative solve, recorded in world coordinates
  int recorded_leg_ = -1;
};

}  // namespace fabrik::character

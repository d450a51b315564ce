// character.h - one character playing a clip with full-body FABRIK on top, every frame.
//
// A Rig is what characters playing the same clip share (the clip, its limbs, its contacts),
// made once. A Character is one instance: where it stands, its targets, and the pose it ends
// each frame with. After Create, Update allocates nothing.
//
// World space: metres, +Y up. The clip is placed by a Placement: turned by `heading` about +Y
// and moved so that the root's frame-0 position (x, z) lands on (x, z), with the clip's floor
// (contacts.h) on the ground under the root: the terrain's height at the root's (x, z) that
// frame (0 without terrain). That is the `animated` pose, the clip as it plays, before IK.
//
// Update(time, dt) then, in order:
//   1. Feet. A foot in contact (ContactTrack at `time`) is pinned where it lands: at its (x, z)
//      in the animated pose of the contact's first frame, at the terrain's height there plus
//      the ankle's height above the floor in the clip. The pin holds until the contact ends
//      (or until time jumps: backwards, or forwards by more than 0.25 s, e.g. a loop), then
//      the foot eases back to the clip's path over release_time. A foot not pinned is aimed at
//      its animated (x, z), its clip height above the terrain under it.
//   2. Pelvis. The whole body moves vertically by the lower of the two feet's changes of
//      height (smoothed with time constant pelvis_smoothing), lowered further if a leg could
//      not reach its target, and bounded by pelvis_limit x leg length.
//   3. Legs: each leg's chain (limbs.h) is solved with SolveFabrik from the clip's pose
//      towards its target, the knee turned about the hip-ankle line to the side the clip's
//      knee is on (the pole), and the foot given back the clip's orientation; then pitched
//      about the ankle if the toe would be below the terrain plus its clip height.
//   4. Hands: a reach target set for a hand blends in over reach_blend_time (smoothstep) and
//      out the same way when cleared; the arm chain is solved towards it (a target out of
//      reach: the arm points at it).
//   5. Gaze: the neck (share neck_share) and head turn their +Z towards the look point, by at
//      most max_gaze_angle from the clip's direction, blended in and out like the hands.
// The IK weight W in [0, 1] scales it all: the pelvis offset by W, each target moved from the
// animated position by W of the way; W = 0 gives the animated pose exactly.
// Every edit turns subtrees rigidly, so every bone keeps the clip's length; nothing is NaN.
#pragma once

#include <array>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "ik/chain.h"
#include "ik/result.h"
#include "ik/solve_types.h"
#include "mocap/clip.h"
#include "mocap/clip_sample.h"
#include "mocap/contacts.h"
#include "mocap/limbs.h"
#include "terrain/heightmap.h"

namespace fabrik::mocap {

struct Rig {
  Clip clip;
  Limbs limbs;
  ContactTrack contacts;
};

// Finds the limbs and the contacts of `clip`; fails when FindLimbs does.
Result<std::shared_ptr<const Rig>> MakeRig(Clip clip, const ContactSettings& contacts = {});

struct Placement {
  float x = 0.0f, z = 0.0f;  // world metres
  float heading = 0.0f;      // radians about +Y
};

struct CharacterSettings {
  float tolerance = 0.001f;           // metres: legs and hands reach within this
  int max_iterations = 30;            // FABRIK iterations per limb
  float pelvis_smoothing = 0.06f;     // seconds
  float pelvis_limit = 0.4f;          // x leg length: largest |pelvis offset|
  float release_time = 0.15f;         // seconds
  float reach_blend_time = 0.3f;      // seconds
  float max_gaze_angle = 1.2217305f;  // radians (70 degrees)
  float neck_share = 0.4f;
};

struct FootState {
  int joint = -1;  // the ankle: the joint grounding puts on the ground
  bool contact = false;
  bool pinned = false;
  glm::vec3 pin{0.0f};     // valid when pinned
  glm::vec3 target{0.0f};  // where the ankle was aimed this frame (world)
};

class Character {
 public:
  // Fails on a rig whose legs cannot form chains, or invalid settings.
  static Result<Character> Create(std::shared_ptr<const Rig> rig,
                                  const CharacterSettings& settings = {});

  // The ground; null is flat ground at y = 0. Not owned: it must outlive its use here.
  void SetTerrain(const Heightmap* terrain) { terrain_ = terrain; }
  void SetPlacement(const Placement& placement);
  const Placement& placement() const { return placement_; }

  // W in [0, 1]; anything else (NaN included) is refused and nothing changes.
  Status SetIkWeight(float weight);
  float ik_weight() const { return weight_; }
  // World metres, finite (|coordinate| <= 1e4), else refused. Hands need the rig's arms,
  // gaze its head.
  Status SetReachTarget(Side hand, const glm::vec3& target);
  void ClearReachTarget(Side hand);
  std::optional<glm::vec3> reach_target(Side hand) const;
  Status SetLookTarget(const glm::vec3& target);
  void ClearLookTarget();
  std::optional<glm::vec3> look_target() const;

  // One frame at clip time `time` (seconds, clamped into the clip), `dt` seconds after the
  // last (for blends and smoothing; negative or non-finite counts as 0). No allocation.
  void Update(float time, float dt);

  // The frame's poses, world space (see the header comment).
  const Pose& animated() const { return animated_; }
  const Pose& pose() const { return final_; }
  const FootState& foot(Side side) const { return feet_[side]; }
  float pelvis_offset() const { return pelvis_applied_; }
  // The current blend of each hand's reach and of the gaze, 0..1 (before W).
  float reach_blend(Side hand) const { return reach_blend_[hand]; }
  float gaze_blend() const { return gaze_blend_; }
  // Wall time of the last Update's IK (everything after sampling the clip), seconds.
  double last_ik_seconds() const { return last_ik_seconds_; }
  const Rig& rig() const { return *rig_; }
  const std::shared_ptr<const Rig>& shared_rig() const { return rig_; }

  // --- The stages of Update, for solving many characters' legs together (crowd.h). ---
  // Samples, places, finds pins and pelvis, and sets up both legs' problems: SamplePose then
  // PrepareLegs.
  void BeginFrame(float time, float dt);
  // The clip at `time` placed in the world (the animated pose).
  void SamplePose(float time);
  // Blends, pins, pelvis and the legs' problems, `dt` seconds after the last frame.
  void PrepareLegs(float dt);
  // Leg `side`'s chain in hip-relative coordinates (joint 0 at the origin) and its target,
  // valid between BeginFrame and EndFrame; leg_active false when the leg is not solved.
  std::span<const glm::vec3> leg_local(Side side) const { return leg_local_[side]; }
  glm::vec3 leg_target_local(Side side) const { return leg_target_local_[side]; }
  bool leg_active(Side side) const { return leg_active_[side]; }
  // The leg chains of the rest pose, hip-relative: what a solver's chains are built from.
  const Chain& leg_chain(Side side) const { return leg_chain_[side]; }
  // Writes the solved legs (hip-relative, as leg_local) into the pose, then hands and gaze.
  void EndFrame(std::span<const glm::vec3> left_leg, std::span<const glm::vec3> right_leg);

 private:
  Character(std::shared_ptr<const Rig> rig, const CharacterSettings& settings,
            std::array<Chain, 2> legs, std::array<Chain, 2> arms);
  float Ground(float x, float z) const;
  glm::vec3 Place(const glm::vec3& clip_point) const;
  void UpdateFeet(float time, float dt, bool jumped);
  void SolvePelvis(float dt, bool jumped);
  void ApplyLimb(const Limb& limb, std::span<glm::vec3> solved, const glm::vec3& pole);
  void KeepToeAboveGround(Side side);
  void SolveArm(Side side);
  void TurnHead();

  std::shared_ptr<const Rig> rig_;
  CharacterSettings settings_;
  SolveSettings solve_;
  const Heightmap* terrain_ = nullptr;
  Placement placement_;
  glm::quat heading_{1, 0, 0, 0};
  glm::vec3 origin_{0.0f};  // the clip point placed at (x, ground, z)
  float weight_ = 1.0f;

  Pose animated_, final_;
  float time_ = 0.0f;    // this frame's clip time
  float ground_ = 0.0f;  // this frame's ground height under the root
  bool jumped_ = true;   // this frame's time jumped (see UpdateFeet)
  std::array<FootState, 2> feet_;
  std::array<float, 2> ankle_height_{};  // this frame's clip height above the floor
  std::array<glm::vec3, 2> release_offset_{};
  std::array<float, 2> release_left_{};
  std::array<float, 2> leg_length_{};
  float pelvis_smoothed_ = 0.0f, pelvis_applied_ = 0.0f;
  float last_time_ = 0.0f;
  bool first_frame_ = true;

  std::array<Chain, 2> leg_chain_;
  std::array<Chain, 2> arm_chain_;
  std::array<std::vector<glm::vec3>, 2> leg_local_;
  std::array<std::vector<glm::vec3>, 2> leg_solved_;
  std::array<glm::vec3, 2> leg_target_local_{};
  std::array<glm::vec3, 2> leg_pole_{};
  std::array<bool, 2> leg_active_{};
  std::vector<glm::vec3> arm_local_;

  std::array<std::optional<glm::vec3>, 2> reach_;
  std::array<glm::vec3, 2> reach_last_{};  // the target a fading reach still heads for
  std::array<float, 2> reach_blend_{};
  std::optional<glm::vec3> look_;
  glm::vec3 look_last_{0.0f};
  float gaze_blend_ = 0.0f;
  double last_ik_seconds_ = 0.0;
};

}  // namespace fabrik::mocap

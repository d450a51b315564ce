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
//   1. Feet (docs/mocap.md: One character). Each foot has a pin weight that fades in over
//      pin_fade_in when its contact (contacts.h) starts and out over release_time when it
//      ends. Each contact point (heel, ball) is pinned where it is, in the full-weight pose
//      of the last frame, when its own contact starts. With the heel down the ankle holds on
//      the heel pin; with both down the foot is also turned to lie from the heel pin to the
//      ball pin; with the ball alone down (a foot on its toes) the ankle is placed so that the
//      foot, turned as it will be written, keeps its ball on the ball pin and turns about it
//      as the clip turns it. The ankle's target is the clip's ankle carried onto the terrain
//      under it (its clip height above the ground), moved towards the pinned position by the
//      smoothstep of the pin weight: exactly while the pin holds in full, and while it fades
//      no faster than max_correction_speed. A pin the hip has left behind (farther than 95%
//      of the leg's length horizontally) fades out; a restart (restarted(): a time jump, or a
//      clip that jumps by itself) starts the feet afresh.
//   2. Pelvis. The whole body moves vertically by the lower of the two feet's changes of
//      height, but not so low that a leg in contact has its hip nearer its target than 95%
//      of the clip's own hip-ankle distance (folded tighter than the clip's), lowered
//      further if a leg could not reach its target with 95% of its length
//      (or as straight as the clip's own leg, up to 98%), bounded by pelvis_limit x leg
//      length; the result smoothed with time constant pelvis_smoothing, changing no faster
//      than max_correction_speed, and held below where a leg would need 98% of its length. A
//      fading pin (its contact ended) lowers the body no further than its target or the
//      clip's own foot needs, whichever needs less, and its target is then brought within
//      95% of the leg's length of the hip, for good: a foot pushing off follows the clip's.
//   3. Legs: each leg's chain (limbs.h) is solved with SolveFabrik from the clip's pose
//      towards its target. The knee keeps the clip's bend plane: turned about the hip-ankle
//      line to the clip's side; when the clip's leg is straight or nearly so (or the target
//      lies on the line), the plane of the last frame where it was bent (at first the rest
//      pose's, else the knee forward) is used, and the chain handed to FABRIK is bent slightly
//      into that plane; within that, the knee goes where on its circle it is nearest to the
//      clip's knee moved by its last correction (fading over 0.2 s). Pop limit: no joint of
//      the leg and foot may move more than max_pop_speed x dt farther than the clip moves it
//      (|its move| less |the clip's move|: one held still never pops, whatever the clip does);
//      where the solve would, the chain is moved less far (the ankle falls short of its target
//      and a pinned foot slides, or is lifted on its pin where that keeps within the budget;
//      foot(side).held_back says by how much). The foot gets back
//      the clip's orientation, tilted towards the ground's normal under it by at most
//      max_foot_tilt as the pin weight fades in, that turn changing by no more than the pop
//      budget at the toe tip (from last frame's turn, or from the one keeping the foot as it
//      was, whichever comes nearer), and held back under the pop limit towards the turn that
//      keeps its joints' last corrections; then pitched about the ankle if the toe would be
//      below the terrain plus its clip height, within the budget, a pitch let go no faster
//      than the budget.
//   4. Hands: a reach target set for a hand blends in over reach_blend_time (smoothstep), or
//      longer for a far target (no faster than max_blend_speed), and out the same way when
//      cleared; the arm chain is solved towards it (a target out of reach: the arm points at
//      it), the elbow keeping its bend plane as the knee does (that turn scaled by the blend),
//      the arm's chain and the hand below the wrist under the same pop limit (the hand's turn
//      held back towards the one best keeping its joints' corrections, a least-squares fit,
//      last frame's turn or the one keeping the hand as it was, whichever pops least;
//      where no move keeps the joints below the wrist or ankle within the budget, they get
//      what the least move leaves them, and the chain is still held to it); a faded reach's
//      arm is walked back to the clip's within that limit (docs/mocap.md: One character).
//   5. Gaze: the neck (share neck_share) and head turn their +Z towards the look point, by at
//      most max_gaze_angle from the clip's direction, blended in and out like the hands; the
//      turn changes by at most 3 radians a second, and no faster than 80% of the pop budget
//      moves the head's tip; where the clip turns the head fast, the turn is held back towards
//      the one keeping the tip's last correction, within that share. A new reach or look point is moved to
//      from the last one at max_blend_speed.
// The IK weight W in [0, 1] scales it all: the pelvis offset by W, each target moved from the
// animated position by W of the way; a leg the pop limit still holds off the clip's when W
// reaches 0 is walked back to it within the budget. A new weight is reached over weight_blend_time (at once
// on the first frame and after a time jump); W = 0 gives the animated pose exactly.
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
  float pin_fade_in = 0.0f;           // seconds: a pin's weight from 0 to 1 (a new pin starts
                                      // where the foot is, so at once is smooth)
  float release_time = 0.25f;         // seconds: a pin's weight from 1 to 0
  float max_foot_tilt = 0.5f;         // radians: the foot's turn towards the ground's normal
  float reach_blend_time = 0.3f;      // seconds
  float max_blend_speed = 0.8f;       // metres per second: reach and gaze blends no faster
  float max_correction_speed = 1.0f;  // metres per second: feet and pelvis corrections
  float weight_blend_time = 0.3f;     // seconds: from one IK weight to another
  float max_gaze_angle = 1.2217305f;  // radians (70 degrees)
  float neck_share = 0.4f;
  float max_pop_speed = 1.8f;  // metres per second, > 0: a limb joint moves no more than this
                               // x dt farther than the clip moves it (1.8 cm at 100 Hz)
};

struct FootState {
  int joint = -1;  // the ankle: the joint grounding puts on the ground
  bool contact = false;
  bool pinned = false;                       // the pin weight is above 0
  float pin_weight = 0.0f;                   // 0..1, before the smoothstep
  bool heel = false, ball = false;           // this frame's heel and ball contacts
  glm::vec3 pin{0.0f};                       // the pinned ankle position, valid when pinned
  glm::vec3 heel_pin{0.0f}, ball_pin{0.0f};  // the points' pins (world)
  glm::vec3 target{0.0f};                    // where the ankle was aimed this frame (world)
  float held_back = 0.0f;  // metres: how far the pop limit kept the ankle from its solve
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
  // The weight this frame used (moving towards ik_weight over weight_blend_time).
  float applied_ik_weight() const { return applied_weight_; }
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
  // True when this frame started afresh: the first frame, a time jump (backwards, or forwards
  // by more than 0.25 s), or a clip that jumps by itself (a joint moving more than a quarter
  // of the rest height in the frame, or more than 10 rest heights a second).
  bool restarted() const { return jumped_; }
  // This frame's rigid move of the clip into the world: animated = turn x (clip's pose) +
  // shift, positions and rotations alike (the heading, the placement and the ground under
  // the root). What the bake (bake.h) undoes to write a pose in the clip's own frame.
  const glm::quat& placed_turn() const { return heading_; }
  const glm::vec3& placed_shift() const { return shift_; }
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
  void UpdateFoot(Side side, float time, float dt, bool jumped);
  // The foot's turn from the clip's orientation this frame (last_foot_turn_), before the
  // solve: `o` is the clip's heel-to-ball vector turned by `tilt`, the ground's turn.
  void TurnFoot(Side side, const glm::vec3& o, const glm::quat& tilt, bool jumped, float dt);
  // The pinned ankle position from the pins of the points down (`foot_vector`: the clip's
  // heel-to-ball vector).
  glm::vec3 PinnedAnkle(Side side, const glm::vec3& foot_vector,
                        const glm::vec3& free_target) const;
  glm::vec3 AimFoot(Side side, const glm::vec3& free_target, bool jumped, float dt);
  // `target` raised to keep the clip's ankle, ball and toe tip above the ground (AimFoot).
  glm::vec3 RaiseAim(Side side, glm::vec3 target) const;
  void SolvePelvis(float dt, bool jumped);
  // A fading pin's target (its contact has ended) brought within the leg's reach of the hip,
  // the pelvis found (SolvePelvis).
  void ReleaseFadingPins();
  void UpdateBlends(float dt, bool jumped);
  // The bend direction of limb `id` (0, 1: legs; 2, 3: arms) with its root-relative joints
  // `local` in the final pose: unit, perpendicular to the root-end line. `straight` is set
  // when the clip's limb is (nearly) straight and the remembered plane was used.
  glm::vec3 BendDirection(int id, const Limb& limb, std::span<const glm::vec3> local,
                          bool& straight);
  // Turns the solved limb `id` (root-relative) about its root-end line into its bend, by
  // `weight` (0..1) of the turn.
  void TurnToBend(int id, const Limb& limb, std::span<glm::vec3> solved, const glm::vec3& bend,
                  float weight) const;
  // Bisection rounds of LimitPop (and of the toe's pitch under the budget): a reach found to
  // 1/2^rounds of the budget.
  static constexpr int kPopRounds = 6;
  struct PopParts {
    float chain = 0.0f, end = 0.0f;  // the chain's joints' pop, and the joints' below the end
  };
  // The largest distance of a joint of the solved limb from where last frame's correction
  // puts it this frame: the pop writing it would give the limb's chain; with `end_turn`, also
  // the joints below the end, turned by it from the clip's orientation (a foot); `parts`
  // gets the two separately.
  float LimbPop(const Limb& limb, std::span<const glm::vec3> solved,
                const glm::quat* end_turn, PopParts* parts = nullptr) const;
  // Holds the limb's pop within max_pop_speed x dt by moving its end less far (see .cpp).
  // With `last_turn` (the end's turn last frame), the end's turn `end_turn` is held back too,
  // towards the one that would keep its joints' last corrections (ExpectedHandTurn, found
  // only when the limit acts), and set to the turn used.
  // `still_end`: the turn that keeps the end as it was last frame, one more to hold back
  // towards.
  void LimitPop(const Limb& limb, std::span<glm::vec3> solved, glm::quat* end_turn,
                const glm::quat* last_turn = nullptr, const glm::quat* still_end = nullptr);
  // One trial of LimitPop: the chain moved at most `reach` from where last frame's
  // corrections put it, into limit_trial_; returns its pop (LimbPop).
  float PopPass(const Limb& limb, std::span<const glm::vec3> solved, float reach,
                const glm::quat* end_turn);
  // For a two-bone leg whose foot is pinned (pop_keep_pin_): the ankle on the vertical line
  // through its solved place, at or above it (the pin kept in x and z: the foot lifted rather
  // than slid), the knee moved from where its last correction puts it towards its solved
  // place by nearly the pop budget, and the foot lifted as little as that allows (or both
  // moves balanced where the ankle's would exceed the budget). Into limit_lift_; false where
  // no such ankle is (the leg would have to lengthen).
  bool LiftedPass(const Limb& limb, std::span<const glm::vec3> solved);
  // Writes the solved limb into the final pose as rigid turns of each bone's subtree.
  void WriteLimb(const Limb& limb, std::span<const glm::vec3> solved);
  // Pitches the foot (already turned by `carried`, CarriedPitch) further if its toe tip is
  // below the ground; keeps the whole pitch for the next frame.
  void KeepToeAboveGround(Side side, float carried);
  // The share of last frame's toe pitch still applied this frame, radians.
  float CarriedPitch(Side side) const;
  void SolveArm(Side side);
  // The hand's (or foot's) turn from the clip's orientation that best keeps the last frame's
  // corrections of the joints below the wrist or ankle (relative to it), from last frame's
  // `last_turn`.
  glm::quat ExpectedHandTurn(const Limb& arm, const glm::quat& last_turn) const;
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
  std::vector<glm::vec3> previous_animated_;  // last frame's animated positions
  float time_ = 0.0f;                         // this frame's clip time
  float ground_ = 0.0f;                       // this frame's ground height under the root
  glm::vec3 shift_{0.0f};                     // this frame's placement shift (placed_shift)
  bool jumped_ = true;                        // this frame's time jumped (see UpdateFeet)
  bool clip_moved_ = true;  // this frame's clip time differs from the last frame's
  std::array<FootState, 2> feet_;
  std::array<bool, 2> contact_was_{}, heel_was_{}, ball_was_{};
  std::array<bool, 2> ball_last_{};  // the ball alone was down last (PinnedAnkle)
  std::array<glm::quat, 2> foot_tilt_{};   // the foot's whole turn from the clip's
  std::array<glm::quat, 2> foot_turn_{};   // the part that lays it from heel pin to ball pin
  std::array<glm::vec3, 2> free_aim_{};    // each ankle's target without its pin (AimFoot)
  std::array<glm::vec3, 2> correction_{};  // each ankle's target less its clip position  // this
                                           // frame's turn of each foot towards the ground
  std::array<float, 2> leg_length_{};
  std::array<glm::quat, 2> last_foot_turn_{};  // each foot's unweighted turn, last frame
  // Each foot's ankle and ball at full IK weight, last frame (EndFrame): where pins start.
  std::array<glm::vec3, 2> shown_ankle_{}, shown_ball_{};
  std::array<glm::quat, 2> shown_turn_{};  // each foot's final turn from the clip's, last frame
  std::array<float, 2> toe_pitch_{};
  float last_weight_ = 0.0f;  // the IK weight toe_pitch_ was applied with           // each foot's
                              // pitch about its side axis, last frame
  std::array<glm::vec3, 4> bend_memory_{};  // each limb's bend, in its root's parent frame
  // Each limb's middle joint's final less animated position, last frame (ApplyLimb).
  std::array<glm::vec3, 4> middle_correction_{};
  float clip_dt_ = 0.0f;          // this frame's dt, or 0 when the clip time did not move
  float correction_keep_ = 0.0f;  // this frame's share of middle_correction_ kept
  float applied_weight_ = 1.0f;
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
  std::array<bool, 2> leg_held_{};  // the leg was off the clip's last frame (EndFrame)
  std::vector<glm::vec3> arm_local_, arm_clip_;  // SolveArm's chains: solved, the clip's
  std::array<glm::quat, 2> hand_turn_{};         // each hand's turn from the clip's, last frame
  std::array<bool, 2> arm_held_{};               // the arm was off the clip's last frame (SolveArm)
  std::vector<glm::vec3> limit_trial_, limit_best_, limit_alt_;  // LimitPop's chains
  std::vector<glm::vec3> limit_lift_;                             // LiftedPass's chain
  bool pop_keep_pin_ = false;  // LimitPop is holding a leg whose foot is pinned
  bool lift_ready_ = false;    // limit_lift_ holds this LimitPop's lifted chain
  PopParts pass_parts_;  // the parts of PopPass's last chain
  std::vector<glm::vec3> last_final_, last_animated_;            // last frame's poses' positions
  std::array<glm::quat, 4> last_end_rotation_{};  // last frame's clip rotations of the legs'
                                                  // and arms' ends (ankles, then wrists)

  std::array<std::optional<glm::vec3>, 2> reach_;
  std::array<glm::vec3, 2> reach_last_{};  // the target a fading reach still heads for
  std::array<float, 2> reach_blend_{};
  std::optional<glm::vec3> look_;
  glm::vec3 look_last_{0.0f};
  float gaze_blend_ = 0.0f;
  glm::quat gaze_turn_{1, 0, 0, 0};  // the turn the gaze gave neck and head, last frame
  float frame_dt_ = 0.0f;
  double last_ik_seconds_ = 0.0;
};

}  // namespace fabrik::mocap

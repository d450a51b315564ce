// retarget.h - a motion-capture clip (mocap/clip.h) played on a loaded character's own
// skeleton (model.h): the clip's limbs mapped onto the character's, the root motion scaled by
// leg length, and every bone's model-space transform per frame in the character's own bone
// axes (docs/characters.md: Retargeting).
//
// Mapping (Create). The limbs of both skeletons are found from their shape by the mocap limb
// finder (mocap/limbs.h; names are not used), the character's on its bind pose, which must
// stand +Y up facing +Z with its left at +X, as a BVH clip does (both packaged models do).
// Matched joints: the pelvis; per leg the hip, knee and ankle; per arm (when both skeletons
// have arms) the shoulder, elbow and wrist; the neck and head; and every joint on the
// character's path from the pelvis to the neck, each matched with the clip's spine joint at
// the nearest share of its own path's length. Each matched joint has an aim where one exists:
// the next matched joint down its limb (the knee for a hip, the ankle for a knee, the ball of
// the foot or the hand for an ankle or a wrist, the next spine joint, the head's tip), used
// only when the clip's aim joint is a child of the clip's joint (a joint between them, such
// as a finger base, would turn the aim with rotations of its own).
//
// Each frame (Apply), for every matched joint, in the character's model space:
//   * its rotation is the clip joint's rotation from its rest (twist included), after a fixed
//     rest alignment (the smallest rotation taking the character's rest aim direction onto the
//     clip's), then the smallest further turn that points its aim exactly along the clip's
//     aim direction that frame: directions match, and twist comes from the clip, never from a
//     shortest-arc guess, so no bone flips when a limb passes through a straight line;
//   * a bone that is not matched (a clavicle, a toe, a finger, the face) keeps its bind pose
//     relative to the nearest matched joint above it (bones above the pelvis: to the pelvis).
// The aim turn is applied in full up to 90 degrees and fades to none at 120 (a clip whose aim
// joint swings about a joint of its own, a finger base say, could otherwise ask for a half
// turn about an arbitrary axis). Positions come from the bind pose's bone offsets, so every
// bone keeps the character's length. The pelvis is placed at its bind position plus the clip
// pelvis's motion from its rest position times scale() (the character's leg length over the
// clip's).
//
// Then each limb (legs, and arms when matched) is fitted by FABRIK (ik/fabrik.h) as the chain
// root joint - middle joint - end joint, so that its end lands where the clip puts it in
// proportion: an ankle at the pelvis plus the clip's ankle offset from its pelvis times
// scale() (raised by SetFootLift's height, 0 by default); a wrist at the shoulder plus the clip's
// wrist offset from its shoulder times the arms' length ratio. The root and middle joints are
// turned by the smallest rotations onto the solved directions (their twist stays the clip's), the
// end joint keeps its rotation.
//
// Rotations are model-space rotations applied on top of each bone's own bind rotation, so
// whatever axes the character's bones use (X along the bone, Y, -Z, ...), they are kept.
#pragma once

#include <glm/gtc/quaternion.hpp>
#include <span>
#include <utility>
#include <vector>

#include "character/model.h"
#include "ik/chain.h"
#include "ik/result.h"
#include "mocap/clip.h"
#include "mocap/clip_sample.h"
#include "mocap/limbs.h"

namespace fabrik::character {

// One character bone driven by a clip joint.
struct RetargetJoint {
  int bone = -1;      // character bone
  int clip = -1;      // clip joint whose rotation (and twist) it takes
  int bone_aim = -1;  // character bone whose direction from `bone` is matched, or -1
  int clip_aim = -1;  // its clip counterpart
  glm::quat rest_align{1.0f, 0.0f, 0.0f, 0.0f};  // character rest aim onto the clip's
};

class Retargeter {
 public:
  // Fails, naming the problem, when either skeleton has no legs (mocap/limbs.h), or the
  // character's skeleton is too large for the limb finder (mocap::kMaxJoints joints, leaf
  // ends included).
  static Result<Retargeter> Create(const Skeleton& character, const mocap::Clip& clip);

  // The character's model-space pose for `clip_pose` (mocap::SampleClip of the clip given to
  // Create). `out` has one entry per character bone; false (nothing written) otherwise.
  // Allocates nothing.
  bool Apply(const mocap::Pose& clip_pose, std::span<BoneTransform> out);

  // How far each hand (mocap::kLeft, kRight) follows the clip's wrist where it is rather than
  // in proportion: at 0 (the default) the wrist's goal is the shoulder plus the clip's wrist
  // offset from its shoulder times the arms' length ratio (the header comment); at 1 it is the
  // pelvis plus the clip's wrist offset from its pelvis times scale(), so with the pelvis on
  // the clip's (and scale() 1) the character's wrist lands on the clip's: a hand the clip's IK
  // put on a target reaches that target, within the arm's reach. In between the two goals are
  // blended. Clamped into [0, 1]; NaN is 0. Ignored without arms.
  void SetHandFollow(int side, float weight);
  float hand_follow(int side) const { return hand_follow_[side == mocap::kRight ? 1 : 0]; }

  // How much higher (negative: lower) than in proportion each ankle's goal is (mocap::kLeft,
  // kRight), metres, world +Y: for a character whose ankles sit at another height above its
  // soles than the clip's above the clip's, so that its soles, not its ankles, land where the
  // clip's feet are. 0 by default; a value that is not finite is 0.
  void SetFootLift(int side, float metres);
  float foot_lift(int side) const { return foot_lift_[side == mocap::kRight ? 1 : 0]; }
  // Fits leg `side` (mocap::kLeft, kRight) of `pose`, a pose Apply wrote (then moved rigidly
  // by the caller; model or world space), again so that its ankle lands on `goal`: the same
  // fit as Apply's (FABRIK from the pose, hip and knee turned by the smallest rotations onto
  // the solved directions, their twist kept), the knee kept in the pose's bend plane (the
  // knee's side of the hip-ankle line; for a straight leg, the knee bone's forward, the
  // model's +Z turned with it: never an arbitrary axis). The bones between hip and knee move
  // with the hip, those between knee and ankle with the knee; the ankle and the bones below it
  // move with it, keeping their rotations. The mocap scene holds the character's own heel with
  // it (mocap_skin.h: Held feet). Returns the ankle's distance from `goal` (0 when reached
  // within 0.1 mm); -1 (nothing changed) for a pose of another size, a goal not finite or a
  // leg that is not fitted. Allocates nothing.
  float FitLeg(int side, const glm::vec3& goal, std::span<BoneTransform> pose);

  // The character's leg length over the clip's (hip to ankle along the leg, mean of both).
  float scale() const { return scale_; }
  std::span<const RetargetJoint> joints() const { return joints_; }
  // Limbs in the character's bone indices (tips may be -1 where a leaf has no bone of its
  // own), and in the clip's joint indices.
  const mocap::Limbs& character_limbs() const { return character_limbs_; }
  const mocap::Limbs& clip_limbs() const { return clip_limbs_; }

 private:
  // A limb fitted by FABRIK after the direction match.
  struct LimbFit {
    int root = -1, middle = -1, end = -1;  // indices into joints_
    int clip_anchor = -1;                  // clip joint the end's goal is measured from
    int anchor = -1;                       // its character bone
    float scale = 1.0f;                    // character over clip length for the goal
    Chain chain;                           // root at the origin
    int arm = -1;                          // mocap::kLeft or kRight for an arm, -1 for a leg
    int leg = -1;                          // mocap::kLeft or kRight for a leg, -1 for an arm
    // The bones from the root down, each with the joint it moves with in FitLeg: 0 the root,
    // 1 the middle, 2 the end (parents first).
    std::vector<std::pair<int, int>> below;
  };
  void Match(int bone, int clip, int bone_aim, int clip_aim);
  int JointOf(int bone) const;
  // `arm`: mocap::kLeft or kRight for an arm, -1 for a leg.
  void AddLimbFit(const mocap::Limb& ours, const mocap::Limb& theirs, int arm);
  void Pose(std::span<BoneTransform> out) const;
  void FitLimb(LimbFit& fit, const mocap::Pose& clip_pose, std::span<const BoneTransform> pose);
  void MatchSpine(int base, const std::vector<int>& bones, int clip_base,
                  const std::vector<int>& clip_joints);

  std::vector<RetargetJoint> joints_;
  std::vector<LimbFit> fits_;
  float hand_follow_[2] = {0.0f, 0.0f};
  float foot_lift_[2] = {0.0f, 0.0f};
  std::vector<int> parents_;
  std::vector<int> driver_;          // per bone: its matched joint, or the nearest one above it
  std::vector<BoneTransform> bind_;  // bind pose, model space
  std::vector<glm::vec3> clip_rest_;
  std::vector<int> clip_parents_;
  std::vector<glm::vec3> aim_rest_;  // per joint: the character's rest aim direction
  std::vector<glm::quat> delta_;     // per joint, this frame (scratch)
  mocap::Limbs character_limbs_, clip_limbs_;
  float scale_ = 1.0f;
};

}  // namespace fabrik::character

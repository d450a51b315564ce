// limbs.h - legs, arms and head found from the shape of a clip's skeleton.
//
// Names are not used: a skeleton named j00, j01, ... in any unit is read like the CMU one.
// Everything is decided on the rest pose (clip.rest_positions()), where a BVH character
// stands facing +Z with its left towards +X. Joints that coincide with the joint before them
// on a path (zero offsets, e.g. CMU's LHipJoint) are skipped. Let cx be the root's x and H the
// rest height.
//   * Legs: the lowest leaf (a joint without children), and the lowest leaf on the other
//     side of x = cx. Their last common ancestor is the pelvis; both must hang at least H/4
//     below it. On each path the hip is the first joint after the pelvis, the ankle the first
//     joint from the third on whose height above the leaf is at most 15% of the hip's, the
//     knee the joint between them farthest from the hip-ankle line (on a straight rest leg:
//     the one nearest half way along it). The leg with its leaf at larger x is the left one.
//   * Head: of the leaves outside the legs' subtrees, the one with the largest y - |x - cx|,
//     if it is at least H/5 above the pelvis. Head joint: the leaf's nearest ancestor not at
//     the leaf; neck: the head's nearest ancestor not at the head (the head itself if none).
//   * Arms: per side, the leaf farthest from x = cx (at least H/10) among the remaining
//     leaves that branch off the head's path below the head joint. Along the path from that
//     branch joint to the leaf, by fraction of the path's length: the wrist is the joint
//     nearest 0.82, the elbow the one before it nearest 0.55, the shoulder the one before that
//     nearest 0.2 (human proportions: clavicle, upper arm, forearm, hand).
// Legs are required; head and arms are optional (a skeleton without them gets no gaze or
// reach).
#pragma once

#include <array>
#include <vector>

#include "ik/result.h"
#include "mocap/clip.h"

namespace fabrik::mocap {

enum Side : int { kLeft = 0, kRight = 1 };

// A limb's IK chain: joints from the hip (shoulder) down to the ankle (wrist), each a
// descendant of the one before, none coinciding with the one before in the rest pose.
struct Limb {
  std::vector<int> chain;                   // at least 3 joints
  int middle = 1;                           // index into chain of the knee (elbow)
  int tip = -1;                             // the leaf the limb was found from (toe or finger end)
  int end() const { return chain.back(); }  // ankle (wrist) joint
};

struct Limbs {
  int pelvis = 0;
  std::array<Limb, 2> legs;  // kLeft, kRight
  bool has_arms = false;
  std::array<Limb, 2> arms;
  bool has_head = false;
  int neck = -1, head = -1, head_tip = -1;
};

// Fails, naming the problem, when no two legs are found.
Result<Limbs> FindLimbs(const Clip& clip);

}  // namespace fabrik::mocap

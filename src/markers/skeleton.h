// skeleton.h - the solved skeleton's joints (docs/markers.md, "The skeleton").
//
// Twenty nodes, parents first: the root (half way between the hip centres), the joint
// centres between segments (each the centre of rotation of a segment in its parent's frame)
// and one end point on each of the head, hands and feet (the centroid of that segment's own
// markers). Node n's bone (parent -> n) lies in segment kNodeBoneSegment[n].
#pragma once

#include <array>

#include "markers/marker_set.h"

namespace fabrik::markers {

inline constexpr int kNodeCount = 20;
enum Node : int {
  kRoot,
  kSpine,
  kNeck,
  kHeadEnd,
  kShoulderL,
  kElbowL,
  kWristL,
  kHandEndL,
  kShoulderR,
  kElbowR,
  kWristR,
  kHandEndR,
  kHipL,
  kKneeL,
  kAnkleL,
  kFootEndL,
  kHipR,
  kKneeR,
  kAnkleR,
  kFootEndR
};
inline constexpr std::array<const char*, kNodeCount> kNodeNames = {
    "root",       "spine",      "neck",    "head_end", "shoulder_l", "elbow_l",   "wrist_l",
    "hand_end_l", "shoulder_r", "elbow_r", "wrist_r",  "hand_end_r", "hip_l",     "knee_l",
    "ankle_l",    "foot_end_l", "hip_r",   "knee_r",   "ankle_r",    "foot_end_r"};
inline constexpr std::array<int, kNodeCount> kNodeParents = {
    -1,      kRoot,   kSpine, kNeck, kNeck,  kShoulderL, kElbowL, kWristL, kNeck,  kShoulderR,
    kElbowR, kWristR, kRoot,  kHipL, kKneeL, kAnkleL,    kRoot,   kHipR,   kKneeR, kAnkleR};
// The segment whose proximal joint the node is (-1 for the root and the end points).
inline constexpr std::array<int, kNodeCount> kNodeJointOf = {
    -1,     kThorax,    kHead,     -1,      kUpperArmL, kForearmL, kHandL,
    -1,     kUpperArmR, kForearmR, kHandR,  -1,         kThighL,   kShankL,
    kFootL, -1,         kThighR,   kShankR, kFootR,     -1};
// The segment holding the bone parent -> node (the root: the pelvis).
inline constexpr std::array<int, kNodeCount> kNodeBoneSegment = {
    kPelvis, kPelvis, kThorax,    kHead,     kThorax, kUpperArmL, kForearmL,
    kHandL,  kThorax, kUpperArmR, kForearmR, kHandR,  kPelvis,    kThighL,
    kShankL, kFootL,  kPelvis,    kThighR,   kShankR, kFootR};
// Each segment's proximal node (the pelvis: the root) and the distal node its bone axis points
// at (the twist of the segment is measured about this axis).
inline constexpr std::array<int, kSegmentCount> kSegmentProximal = {
    kRoot,   kSpine, kNeck,  kShoulderL, kElbowL, kWristL, kShoulderR, kElbowR,
    kWristR, kHipL,  kKneeL, kAnkleL,    kHipR,   kKneeR,  kAnkleR};
inline constexpr std::array<int, kSegmentCount> kSegmentDistal = {
    kSpine,    kNeck,  kHeadEnd, kElbowL,   kWristL, kHandEndL, kElbowR,  kWristR,
    kHandEndR, kKneeL, kAnkleL,  kFootEndL, kKneeR,  kAnkleR,   kFootEndR};

}  // namespace fabrik::markers

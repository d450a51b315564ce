// skeleton_bvh.h - the solved skeleton as BVH (docs/markers.md, "BVH out").
//
// BvhMotion is a plain description of a BVH file: joints (parents first; end sites are joints
// without channels), the rest offsets, and per frame the root's position and every joint's
// rotation relative to its parent. BvhText writes it in centimetres, the root with
// Xposition Yposition Zposition Zrotation Xrotation Yrotation and every other joint with
// Zrotation Xrotation Yrotation (R = Rz Rx Ry, degrees), the hierarchy depth first.
//
// SkeletonBvh turns a solved take into one: the rest pose is the first frame's solved pose, so
// every offset is a calibrated bone. A node with one child carries its bone's rotation; a node
// where the tree branches (root, neck) carries its segment's rotation and each of its bones
// gets a joint of its own at zero offset ("root_to_spine"), because FABRIK moves those bones
// independently. Each bone's rotation is its segment's rotation since the first frame (the
// markers' twist) turned by the smallest rotation onto the solved bone, so the BVH's joint
// positions are the solved ones (to the file's 6 decimals).
#pragma once

#include <glm/gtc/quaternion.hpp>
#include <glm/vec3.hpp>
#include <string>
#include <vector>

#include "ik/result.h"
#include "markers/take_solve.h"

namespace fabrik::markers {

struct BvhJoint {
  std::string name;
  int parent = -1;         // index of an earlier joint; -1 for joints[0] only
  glm::vec3 offset{0.0f};  // from the parent in the rest pose, metres
  bool end_site = false;   // an End Site: no channels, no children
};

struct BvhMotion {
  std::vector<BvhJoint> joints;
  float frame_time = 1.0f / 120.0f;       // seconds
  std::vector<glm::vec3> root_positions;  // per frame, metres
  std::vector<glm::quat> rotations;       // [frame * joints.size() + j], local to the parent
};

// The BVH text (see the header comment).
std::string BvhText(const BvhMotion& motion);
// Writes BvhText atomically (io/file_write.h).
Status WriteBvhFile(const BvhMotion& motion, const std::string& path);

// See the header comment. The solution must have at least one frame.
BvhMotion SkeletonBvh(const TakeSolution& solution);

}  // namespace fabrik::markers

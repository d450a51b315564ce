// skeleton_bvh.cpp - the solved skeleton as BVH (skeleton_bvh.h).
#include "markers/skeleton_bvh.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <glm/geometric.hpp>
#include <glm/gtx/quaternion.hpp>
#include <glm/mat3x3.hpp>

#include "io/file_write.h"

namespace fabrik::markers {

namespace {

constexpr double kUnitsPerMetre = 100.0;  // centimetres

void Append(std::string& out, const char* format, double a, double b, double c) {
  char buffer[128];
  const int n = std::snprintf(buffer, sizeof buffer, format, a, b, c);
  out.append(buffer, static_cast<std::size_t>(n));
}

// Degrees (z, x, y) with R = Rz Rx Ry.
glm::dvec3 EulerZXY(const glm::quat& q) {
  const glm::dmat3 m = glm::mat3_cast(glm::dquat(q));  // m[column][row]
  const double x = std::asin(std::clamp(m[1][2], -1.0, 1.0));
  const double y = std::atan2(-m[0][2], m[2][2]);
  const double z = std::atan2(-m[1][0], m[1][1]);
  glm::dvec3 degrees = glm::degrees(glm::dvec3(z, x, y));
  for (int k = 0; k < 3; ++k) {
    if (std::fabs(degrees[k]) < 5e-7) degrees[k] = 0.0;  // no "-0.000000"
  }
  return degrees;
}

void WriteJoint(const BvhMotion& motion, const std::vector<std::vector<int>>& children, int j,
                int depth, std::string& out, std::vector<int>& order) {
  const std::string indent(2 * depth, ' ');
  const BvhJoint& joint = motion.joints[j];
  const glm::dvec3 offset = glm::dvec3(joint.offset) * kUnitsPerMetre;
  if (joint.end_site) {
    out += indent + "End Site\n" + indent + "{\n";
    Append(out, (indent + "  OFFSET %.6f %.6f %.6f\n").c_str(), offset.x, offset.y, offset.z);
    out += indent + "}\n";
    return;
  }
  order.push_back(j);
  out += indent + (j == 0 ? "ROOT " : "JOINT ") + joint.name + "\n" + indent + "{\n";
  Append(out, (indent + "  OFFSET %.6f %.6f %.6f\n").c_str(), offset.x, offset.y, offset.z);
  out += indent +
         (j == 0 ? "  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n"
                 : "  CHANNELS 3 Zrotation Xrotation Yrotation\n");
  for (int c : children[j]) WriteJoint(motion, children, c, depth + 1, out, order);
  out += indent + "}\n";
}

}  // namespace

std::string BvhText(const BvhMotion& motion) {
  const std::size_t n = motion.joints.size();
  std::vector<std::vector<int>> children(n);
  for (std::size_t j = 1; j < n; ++j)
    children[motion.joints[j].parent].push_back(static_cast<int>(j));
  std::string out = "HIERARCHY\n";
  std::vector<int> order;
  WriteJoint(motion, children, 0, 0, out, order);
  const std::size_t frames = motion.root_positions.size();
  out += "MOTION\nFrames: " + std::to_string(frames) + "\n";
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "Frame Time: %.8f\n", motion.frame_time);
  out += buffer;
  for (std::size_t f = 0; f < frames; ++f) {
    const glm::dvec3 p = glm::dvec3(motion.root_positions[f]) * kUnitsPerMetre;
    Append(out, "%.6f %.6f %.6f", p.x, p.y, p.z);
    for (int j : order) {
      const glm::dvec3 e = EulerZXY(motion.rotations[f * n + j]);
      Append(out, " %.6f %.6f %.6f", e.x, e.y, e.z);
    }
    out += '\n';
  }
  return out;
}

Status WriteBvhFile(const BvhMotion& motion, const std::string& path) {
  return io::WriteFileAtomic(path, BvhText(motion));
}

namespace {

// BVH joints for the tree: per node, the BVH joint at it that turns its outgoing bones, and
// per node but the root, the BVH joint that turns the bone arriving at it.
struct BvhLayout {
  std::array<int, kNodeCount> at_node{};
  std::array<int, kNodeCount> bone_joint{};
};

BvhLayout Layout(const std::array<glm::vec3, kNodeCount>& rest, BvhMotion& motion) {
  BvhLayout layout;
  std::array<int, kNodeCount> child_count{};
  for (int n = 1; n < kNodeCount; ++n) ++child_count[kNodeParents[n]];
  for (int n = 0; n < kNodeCount; ++n) {
    const int p = kNodeParents[n];
    int parent_joint = -1;
    glm::vec3 offset = rest[n];
    if (p >= 0) {
      parent_joint = layout.at_node[p];
      offset = rest[n] - rest[p];
      if (child_count[p] > 1) {  // a joint of its own for this bone, at the branching node
        motion.joints.push_back({std::string(kNodeNames[p]) + "_to_" + kNodeNames[n], parent_joint,
                                 glm::vec3(0.0f), false});
        parent_joint = static_cast<int>(motion.joints.size()) - 1;
      }
      layout.bone_joint[n] = parent_joint;
    }
    motion.joints.push_back({kNodeNames[n], parent_joint, offset, child_count[n] == 0});
    layout.at_node[n] = static_cast<int>(motion.joints.size()) - 1;
  }
  return layout;
}

}  // namespace

BvhMotion SkeletonBvh(const TakeSolution& solution) {
  BvhMotion motion;
  const auto& rest = solution.joints.front();
  motion.frame_time = 1.0f / solution.filled.rate;
  const BvhLayout layout = Layout(rest, motion);
  const std::size_t count = motion.joints.size();
  const std::size_t frames = solution.joints.size();
  motion.root_positions.resize(frames);
  motion.rotations.assign(frames * count, glm::quat(1, 0, 0, 0));
  std::vector<glm::quat> world(count);
  for (std::size_t f = 0; f < frames; ++f) {
    const auto& joints = solution.joints[f];
    motion.root_positions[f] = joints[kRoot];
    std::fill(world.begin(), world.end(), glm::quat(1, 0, 0, 0));
    for (int n = 0; n < kNodeCount; ++n) {
      // The rotation of the segment holding the bones that leave n (the root: the pelvis).
      const int s = n == kRoot ? kPelvis : kNodeBoneSegment[n];
      const glm::quat twist =
          solution.segments[f][s].rotation * glm::inverse(solution.segments[0][s].rotation);
      world[layout.at_node[n]] = twist;
    }
    for (int n = 1; n < kNodeCount; ++n) {
      const int p = kNodeParents[n];
      const int s = kNodeBoneSegment[n];
      const glm::quat twist =
          solution.segments[f][s].rotation * glm::inverse(solution.segments[0][s].rotation);
      const glm::vec3 from = twist * (rest[n] - rest[p]);
      const glm::vec3 to = joints[n] - joints[p];
      world[layout.bone_joint[n]] = glm::normalize(SmallestRotation(from, to) * twist);
    }
    for (std::size_t j = 0; j < count; ++j) {
      const int parent = motion.joints[j].parent;
      const glm::quat parent_world = parent < 0 ? glm::quat(1, 0, 0, 0) : world[parent];
      motion.rotations[f * count + j] = glm::normalize(glm::inverse(parent_world) * world[j]);
    }
  }
  return motion;
}

}  // namespace fabrik::markers

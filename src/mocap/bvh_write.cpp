// bvh_write.cpp - see bvh_write.h.
#define GLM_ENABLE_EXPERIMENTAL
#include "mocap/bvh_write.h"

#include <array>
#include <charconv>
#include <cmath>
#include <glm/gtx/euler_angles.hpp>

#include "io/file_write.h"

namespace fabrik::mocap {
namespace {

constexpr std::array<const char*, 6> kChannelNames = {"Xposition", "Yposition", "Zposition",
                                                      "Xrotation", "Yrotation", "Zrotation"};
// A rotation the joint's channels cannot hold: beyond this angle (radians) off their axes.
constexpr double kHeldAngle = 1e-4;
// Values smaller than this are written as 0 (keeps every run of digits short).
constexpr float kZero = 1e-7f;

bool IsRotation(BvhChannel c) { return static_cast<int>(c) >= 3; }
int Axis(BvhChannel c) { return static_cast<int>(c) % 3; }

void AppendNumber(std::string& out, float v) {
  if (std::fabs(v) < kZero) v = 0.0f;
  char buffer[64];
  const auto r = std::to_chars(buffer, buffer + sizeof buffer, v, std::chars_format::fixed);
  out.append(buffer, r.ptr);
}

// Euler angles (radians) of `q` about axes a, b, c in that order: q = R_a R_b R_c.
glm::dvec3 Euler(const glm::dquat& q, int a, int b, int c) {
  const glm::dmat4 m = glm::mat4_cast(q);
  double t1 = 0.0, t2 = 0.0, t3 = 0.0;
  switch (a * 9 + b * 3 + c) {
    case 0 * 9 + 1 * 3 + 2:
      glm::extractEulerAngleXYZ(m, t1, t2, t3);
      break;
    case 0 * 9 + 2 * 3 + 1:
      glm::extractEulerAngleXZY(m, t1, t2, t3);
      break;
    case 1 * 9 + 0 * 3 + 2:
      glm::extractEulerAngleYXZ(m, t1, t2, t3);
      break;
    case 1 * 9 + 2 * 3 + 0:
      glm::extractEulerAngleYZX(m, t1, t2, t3);
      break;
    case 2 * 9 + 0 * 3 + 1:
      glm::extractEulerAngleZXY(m, t1, t2, t3);
      break;
    default:
      glm::extractEulerAngleZYX(m, t1, t2, t3);
      break;
  }
  return {t1, t2, t3};
}

// One joint's rotation as angles (degrees) of its rotation channels, in their order; false
// when they cannot hold it.
bool RotationAngles(const glm::quat& q, const std::vector<BvhChannel>& channels,
                    std::array<double, 3>& degrees) {
  std::array<int, 3> order{};
  int n = 0;
  for (BvhChannel c : channels) {
    if (IsRotation(c)) order[n++] = Axis(c);
  }
  const int held = n;
  for (int axis = 0; axis < 3 && n < 3; ++axis) {  // the missing axes, last
    bool used = false;
    for (int k = 0; k < n; ++k) used = used || order[k] == axis;
    if (!used) order[n++] = axis;
  }
  const glm::dvec3 t = Euler(glm::dquat(q), order[0], order[1], order[2]);
  for (int k = held; k < 3; ++k) {
    if (std::fabs(t[k]) > kHeldAngle) return false;
  }
  for (int k = 0; k < held; ++k) degrees[k] = glm::degrees(t[k]);
  return true;
}

Status CheckSkeleton(const BvhSkeleton& s) {
  const auto& joints = s.joints;
  if (joints.empty()) return MakeError("the skeleton has no joints");
  if (joints[0].parent != -1 || joints[0].end_site) {
    return MakeError("joint 0 must be the root (no parent, not an End Site)");
  }
  std::vector<int> children(joints.size(), 0);
  for (std::size_t j = 0; j < joints.size(); ++j) {
    const BvhJoint& joint = joints[j];
    const std::string which = "joint " + std::to_string(j);
    if (j > 0 && (joint.parent < 0 || joint.parent >= static_cast<int>(j))) {
      return MakeError(which + ": its parent must be an earlier joint");
    }
    if (j > 0) {
      // Depth-first: the parent is the previous joint or one of its ancestors.
      int a = static_cast<int>(j) - 1;
      while (a >= 0 && a != joint.parent) a = joints[a].parent;
      if (a < 0) return MakeError(which + ": not in depth-first order");
      ++children[joint.parent];
      if (joints[joint.parent].end_site) return MakeError(which + ": its parent is an End Site");
    }
    const glm::vec3& o = joint.offset;
    if (!std::isfinite(o.x) || !std::isfinite(o.y) || !std::isfinite(o.z)) {
      return MakeError(which + ": the offset is not finite");
    }
    if (joint.end_site) {
      if (!joint.channels.empty()) return MakeError(which + ": an End Site has no channels");
      continue;
    }
    if (joint.name.empty() || joint.name.find_first_of(" \t\r\n\v\f{}") != std::string::npos) {
      return MakeError(which + ": the name \"" + joint.name +
                       "\" is not one word (empty, white space or braces)");
    }
    if (joint.channels.size() > 6) return MakeError(which + ": more than 6 channels");
    std::array<int, 6> seen{};
    for (BvhChannel c : joint.channels) {
      if (static_cast<int>(c) > 5 || ++seen[static_cast<int>(c)] > 1) {
        return MakeError(which + " (" + joint.name + "): a channel is repeated or unknown");
      }
    }
  }
  return Ok{};
}

void AppendHierarchy(std::string& out, const BvhSkeleton& s) {
  const auto& joints = s.joints;
  std::vector<int> depth(joints.size(), 0);
  // Closing braces: before each joint, close the joints deeper than or as deep as it.
  std::vector<int> open;
  const auto indent = [&](int d) { out.append(static_cast<std::size_t>(d), '\t'); };
  const auto close_to = [&](int d) {
    while (static_cast<int>(open.size()) > d) {
      open.pop_back();
      indent(static_cast<int>(open.size()));
      out += "}\n";
    }
  };
  out += "HIERARCHY\n";
  for (std::size_t j = 0; j < joints.size(); ++j) {
    const BvhJoint& joint = joints[j];
    const int d = joint.parent < 0 ? 0 : depth[joint.parent] + 1;
    depth[j] = d;
    close_to(d);
    indent(d);
    if (joint.end_site) {
      out += "End Site\n";
    } else {
      out += (j == 0 ? "ROOT " : "JOINT ") + joint.name + "\n";
    }
    indent(d);
    out += "{\n";
    indent(d + 1);
    out += "OFFSET";
    for (int k = 0; k < 3; ++k) {
      out += ' ';
      AppendNumber(out, joint.offset[k]);
    }
    out += '\n';
    if (!joint.end_site) {
      indent(d + 1);
      out += "CHANNELS " + std::to_string(joint.channels.size());
      for (BvhChannel c : joint.channels)
        out += std::string(" ") + kChannelNames[static_cast<int>(c)];
      out += '\n';
    }
    open.push_back(static_cast<int>(j));
  }
  close_to(0);
}

}  // namespace

Result<std::vector<BvhChannel>> ParseBvhChannels(const std::string& words) {
  std::vector<BvhChannel> out;
  std::size_t at = 0;
  while (at < words.size()) {
    const std::size_t start = words.find_first_not_of(" \t", at);
    if (start == std::string::npos) break;
    const std::size_t end = std::min(words.find_first_of(" \t", start), words.size());
    const std::string word = words.substr(start, end - start);
    at = end;
    int found = -1;
    for (int c = 0; c < 6; ++c) {
      if (word == kChannelNames[c]) found = c;
    }
    if (found < 0) return MakeError("unknown channel \"" + word + "\"");
    for (BvhChannel c : out) {
      if (static_cast<int>(c) == found) return MakeError("channel " + word + " is repeated");
    }
    if (out.size() == 6) return MakeError("more than 6 channels");
    out.push_back(static_cast<BvhChannel>(found));
  }
  return out;
}

Result<std::string> FormatBvh(const BvhSkeleton& skeleton, const BvhFrames& frames) {
  if (Status s = CheckSkeleton(skeleton); !s) return MakeError("BVH skeleton: " + s.error());
  const std::size_t joints = skeleton.joints.size();
  if (frames.frame_count < 1) return MakeError("no frames to write");
  if (!std::isfinite(frames.frame_time) || !(frames.frame_time > 0.0f)) {
    return MakeError("the frame time must be finite and positive");
  }
  const std::size_t samples = static_cast<std::size_t>(frames.frame_count) * joints;
  if (frames.rotations.size() != samples || frames.translations.size() != samples) {
    return MakeError("frame data: expected " + std::to_string(samples) +
                     " rotations and translations (frames x joints)");
  }
  std::string out;
  AppendHierarchy(out, skeleton);
  out += "MOTION\nFrames: " + std::to_string(frames.frame_count) + "\nFrame Time: ";
  AppendNumber(out, frames.frame_time);
  out += '\n';
  std::array<double, 3> degrees{};
  for (int f = 0; f < frames.frame_count; ++f) {
    bool first = true;
    for (std::size_t j = 0; j < joints; ++j) {
      const BvhJoint& joint = skeleton.joints[j];
      if (joint.end_site || joint.channels.empty()) continue;
      const std::size_t at = static_cast<std::size_t>(f) * joints + j;
      const glm::quat& q = frames.rotations[at];
      const glm::vec3& t = frames.translations[at];
      const std::string where = "frame " + std::to_string(f) + ", joint " + joint.name;
      if (!std::isfinite(q.w) || !std::isfinite(q.x) || !std::isfinite(q.y) ||
          !std::isfinite(q.z) || !(std::fabs(glm::length(q) - 1.0f) < 1e-3f)) {
        return MakeError(where + ": the rotation is not a finite unit quaternion");
      }
      if (!std::isfinite(t.x) || !std::isfinite(t.y) || !std::isfinite(t.z)) {
        return MakeError(where + ": the translation is not finite");
      }
      if (!RotationAngles(q, joint.channels, degrees)) {
        return MakeError(where + ": its rotation channels cannot hold the rotation");
      }
      int r = 0;
      for (BvhChannel c : joint.channels) {
        if (!first) out += ' ';
        first = false;
        AppendNumber(out, IsRotation(c) ? static_cast<float>(degrees[r++]) : t[Axis(c)]);
      }
    }
    out += '\n';
  }
  return out;
}

Status WriteBvhFile(const std::string& path, const BvhSkeleton& skeleton, const BvhFrames& frames) {
  Result<std::string> text = FormatBvh(skeleton, frames);
  if (!text) return MakeError("cannot write " + path + ": " + text.error());
  return io::WriteFileAtomic(path, text.value());
}

}  // namespace fabrik::mocap

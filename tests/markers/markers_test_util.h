// markers_test_util.h - a synthetic subject for the marker tests: markers generated from a
// BVH clip (CMU 01_01) with known offsets on known bones and Gaussian noise, so the joint
// centres are known.
#pragma once

#include <gtest/gtest.h>

#include <array>
#include <random>
#include <string>
#include <vector>

#include "markers/marker_set.h"
#include "markers/skeleton.h"
#include "markers/take.h"
#include "mocap/clip.h"
#include "mocap/clip_sample.h"

namespace fabrik::markers::testing {

inline const char* kThomas = "/usr/share/assimp/models/CSM/ThomasFechten.csm";
inline const char* kClip0101 = "/usr/share/assimp/models/BVH/01_01.bvh";

// The BVH joint each segment rides on, and the joint its axis points at ("" = none).
struct Rider {
  const char* joint;
  const char* towards;
};
inline constexpr std::array<Rider, kSegmentCount> kRiders = {{{"Hips", ""},
                                                              {"Spine1", ""},
                                                              {"Head", ""},
                                                              {"LeftArm", "LeftForeArm"},
                                                              {"LeftForeArm", "LeftHand"},
                                                              {"LeftHand", "LeftFingerBase"},
                                                              {"RightArm", "RightForeArm"},
                                                              {"RightForeArm", "RightHand"},
                                                              {"RightHand", "RightFingerBase"},
                                                              {"LeftUpLeg", "LeftLeg"},
                                                              {"LeftLeg", "LeftFoot"},
                                                              {"LeftFoot", "LeftToeBase"},
                                                              {"RightUpLeg", "RightLeg"},
                                                              {"RightLeg", "RightFoot"},
                                                              {"RightFoot", "RightToeBase"}}};

// The BVH joint at each skeleton node whose true centre is known (limbs), or "".
inline const char* TrueJoint(int node) {
  switch (node) {
    case kShoulderL:
      return "LeftArm";
    case kElbowL:
      return "LeftForeArm";
    case kWristL:
      return "LeftHand";
    case kShoulderR:
      return "RightArm";
    case kElbowR:
      return "RightForeArm";
    case kWristR:
      return "RightHand";
    case kHipL:
      return "LeftUpLeg";
    case kKneeL:
      return "LeftLeg";
    case kAnkleL:
      return "LeftFoot";
    case kHipR:
      return "RightUpLeg";
    case kKneeR:
      return "RightLeg";
    case kAnkleR:
      return "RightFoot";
    default:
      return "";
  }
}

inline int JointIndex(const mocap::Clip& clip, const std::string& name) {
  for (int j = 0; j < clip.joint_count(); ++j) {
    if (clip.name(j) == name) return j;
  }
  ADD_FAILURE() << "no joint " << name;
  return 0;
}

struct Subject {
  mocap::Clip clip;
  Take take;
  MarkerSet set;
  std::vector<int> rider_joint;  // per segment
  // True world position of BVH joint `name` in frame f of the take (the clip's frame f + 1:
  // its frame 0 is a T-pose a frame away from the motion).
  glm::vec3 JointAt(const std::string& name, int f) const {
    mocap::Pose pose;
    pose.Resize(clip.joint_count());
    mocap::SampleFrame(clip, f + 1, pose);
    return pose.positions[JointIndex(clip, name)];
  }
};

// Three markers per segment, in the rider joint's rest frame: along the bone and off it
// (the trunk and head: around the joint), named SEGMENT_0.._2.
inline std::array<glm::vec3, 3> MarkerOffsets(const mocap::Clip& clip, int segment) {
  const Rider r = kRiders[segment];
  if (r.towards[0] == '\0') {
    const float w = segment == kHead ? 0.08f : 0.12f;
    return {glm::vec3(w, 0.05f, 0.06f), glm::vec3(-w, 0.03f, 0.07f),
            glm::vec3(0.01f, 0.09f, -0.09f)};
  }
  const int j = JointIndex(clip, r.joint);
  glm::vec3 a = clip.rest_positions()[JointIndex(clip, r.towards)] - clip.rest_positions()[j];
  if (glm::length(a) < 0.02f) {  // a short hand: 8 cm on along the forearm
    a = 0.08f * glm::normalize(clip.rest_positions()[j] - clip.rest_positions()[clip.parents()[j]]);
  }
  const glm::vec3 axis = glm::normalize(a);
  glm::vec3 u = glm::normalize(
      glm::cross(axis, std::fabs(axis.y) < 0.9f ? glm::vec3(0, 1, 0) : glm::vec3(1, 0, 0)));
  const glm::vec3 v = glm::cross(axis, u);
  return {0.3f * a + 0.06f * u, 0.7f * a + 0.05f * v, 0.5f * a - 0.055f * u + 0.02f * v};
}

// The subject over `frames` frames of 01_01, with noise of sigma metres.
inline Subject MakeSubject(int frames, float sigma, unsigned seed = 7) {
  mocap::ClipLoadOptions options;
  Result<mocap::Clip> clip = mocap::LoadClipFile(kClip0101, options);
  EXPECT_TRUE(clip.ok()) << clip.error();
  Subject subject{std::move(clip).value(), Take{}, MarkerSet{}, {}};
  Take& take = subject.take;
  take.source = "synthetic";
  take.rate = 1.0f / subject.clip.frame_time();
  take.frame_count = std::min(frames, subject.clip.frame_count() - 1);
  std::string set_text;
  std::vector<std::array<glm::vec3, 3>> offsets;
  for (int s = 0; s < kSegmentCount; ++s) {
    subject.rider_joint.push_back(JointIndex(subject.clip, kRiders[s].joint));
    offsets.push_back(MarkerOffsets(subject.clip, s));
    set_text += std::string(kSegmentNames[s]) + ":";
    for (int k = 0; k < 3; ++k) {
      take.names.push_back(std::string(kSegmentNames[s]) + "_" + std::to_string(k));
      set_text += " " + take.names.back();
    }
    set_text += "\n";
  }
  Result<MarkerSet> set = ParseMarkerSet(set_text, "synthetic set");
  EXPECT_TRUE(set.ok()) << set.error();
  subject.set = set.value();
  std::mt19937 random(seed);
  std::normal_distribution<float> noise(0.0f, sigma);
  mocap::Pose pose;
  pose.Resize(subject.clip.joint_count());
  for (int f = 0; f < take.frame_count; ++f) {
    mocap::SampleFrame(subject.clip, f + 1, pose);
    for (int s = 0; s < kSegmentCount; ++s) {
      const int j = subject.rider_joint[s];
      for (int k = 0; k < 3; ++k) {
        const glm::vec3 jitter(noise(random), noise(random), noise(random));
        take.positions.push_back(pose.positions[j] + pose.rotations[j] * offsets[s][k] + jitter);
        take.seen.push_back(1);
      }
    }
  }
  EXPECT_TRUE(ValidateTake(take).ok()) << ValidateTake(take).error();
  return subject;
}

}  // namespace fabrik::markers::testing

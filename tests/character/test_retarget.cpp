// Retargeting (retarget.h): the CMU clips played on the packaged human. Every bone keeps the
// character's length, no bone's twist jumps more than 20 degrees in a frame (no flips), and
// hands and feet land where the clip puts them, in proportion (feet: the clip's offsets from
// its pelvis times the leg-length scale, from the character's pelvis; hands: from the
// shoulder, times the arms' length ratio).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <glm/geometric.hpp>
#include <optional>
#include <string>
#include <vector>

#include "character/pose.h"
#include "character/retarget.h"
#include "character_test_util.h"
#include "mocap/clip_sample.h"

namespace fabrik::character {
namespace {

using namespace testing;

// The packaged clips the mocap scene plays (docs/mocap.md).
const char* kWalkClips[] = {"/usr/share/assimp/models/BVH/01_01.bvh",
                            "/usr/share/assimp/models/BVH/01_03.bvh",
                            "/usr/share/assimp/models/BVH/Boxing_Toes.bvh"};

// The angle of the part of rotation `q` about unit `axis` (swing-twist), radians in [0, pi].
float TwistAbout(const glm::quat& q, const glm::vec3& axis) {
  const glm::vec3 along = glm::dot(glm::vec3(q.x, q.y, q.z), axis) * axis;
  const glm::quat twist(q.w, along.x, along.y, along.z);
  const float len = std::sqrt(glm::dot(twist, twist));
  if (len < 1e-9f) return 3.14159265f;  // a half turn square to the axis
  return 2.0f * std::acos(std::min(1.0f, std::abs(twist.w) / len));
}

struct Figures {
  float worst_length = 0.0f;  // metres, any bone against its bind length
  float worst_twist = 0.0f;   // radians, a matched bone's twist about its aim, frame to frame
  std::string twist_at;
  float clip_twist = 0.0f;    // the clip joint's own twist about its aim, that frame
  float worst_excess = 0.0f;  // radians: the bone's twist beyond its clip joint's own
  std::string excess_at;
  float worst_calm = 0.0f;  // the worst twist where the clip's own is under 15 degrees
  float worst_end = 0.0f, mean_end = 0.0f;  // metres, hands and feet from their goals
  double apply_us = 0.0;                    // mean per frame
};

Figures Play(const Model& model, const mocap::Clip& clip) {
  Figures fig;
  Result<Retargeter> made = Retargeter::Create(model.skeleton, clip);
  EXPECT_TRUE(made.ok()) << made.error();
  if (!made) return fig;
  Retargeter& r = made.value();
  const int n = model.skeleton.bone_count();
  std::vector<BoneTransform> bind = Bind(model), pose(n), previous(n);
  mocap::Pose clip_pose, clip_previous;
  clip_pose.Resize(clip.joint_count());
  const mocap::Limbs& ours = r.character_limbs();
  const mocap::Limbs& theirs = r.clip_limbs();
  // Feet from the pelvis at the leg-length scale; hands from the shoulder at the arms' own
  // length ratio (retarget.h), each computed here from the two rest poses.
  const auto arm_scale = [&](int side) {
    const mocap::Limb& a = ours.arms[side];
    const mocap::Limb& k = theirs.arms[side];
    const auto& rest = clip.rest_positions();
    const float mine =
        glm::length(bind[a.chain[a.middle]].translation - bind[a.chain[0]].translation) +
        glm::length(bind[a.end()].translation - bind[a.chain[a.middle]].translation);
    const float clips = glm::length(rest[k.chain[k.middle]] - rest[k.chain[0]]) +
                        glm::length(rest[k.end()] - rest[k.chain[k.middle]]);
    return mine / clips;
  };
  struct End {
    int bone, joint, anchor, clip_anchor;
    float scale;
  };
  const End ends[] = {
      {ours.legs[0].end(), theirs.legs[0].end(), ours.pelvis, theirs.pelvis, r.scale()},
      {ours.legs[1].end(), theirs.legs[1].end(), ours.pelvis, theirs.pelvis, r.scale()},
      {ours.arms[0].end(), theirs.arms[0].end(), ours.arms[0].chain[0], theirs.arms[0].chain[0],
       arm_scale(0)},
      {ours.arms[1].end(), theirs.arms[1].end(), ours.arms[1].chain[0], theirs.arms[1].chain[0],
       arm_scale(1)}};
  double end_sum = 0.0;
  int end_count = 0;
  for (int f = 0; f < clip.frame_count(); ++f) {
    mocap::SampleFrame(clip, f, clip_pose);
    const auto start = std::chrono::steady_clock::now();
    EXPECT_TRUE(r.Apply(clip_pose, pose));
    fig.apply_us +=
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
    for (int b = 1; b < n; ++b) {
      const int p = model.skeleton.parents[b];
      const float now = glm::length(pose[b].translation - pose[p].translation);
      const float rest = glm::length(bind[b].translation - bind[p].translation);
      fig.worst_length = std::max(fig.worst_length, std::abs(now - rest));
    }
    // Frame 0 is CMU's reference pose, which the clip itself jumps out of.
    for (const RetargetJoint& j : r.joints()) {
      if (f < 2 || j.bone_aim < 0) continue;
      const glm::vec3 axis =
          glm::normalize(pose[j.bone_aim].translation - pose[j.bone].translation);
      const float twist =
          TwistAbout(pose[j.bone].rotation * glm::conjugate(previous[j.bone].rotation), axis);
      const glm::vec3 clip_axis =
          glm::normalize(clip_pose.positions[j.clip_aim] - clip_pose.positions[j.clip]);
      const float own = TwistAbout(
          clip_pose.rotations[j.clip] * glm::conjugate(clip_previous.rotations[j.clip]), clip_axis);
      if (twist - own > fig.worst_excess) {
        fig.worst_excess = twist - own;
        fig.excess_at = model.skeleton.names[j.bone] + " frame " + std::to_string(f);
      }
      if (own < glm::radians(15.0f)) fig.worst_calm = std::max(fig.worst_calm, twist);
      if (twist > fig.worst_twist) {
        fig.worst_twist = twist;
        fig.clip_twist = own;
        fig.twist_at = model.skeleton.names[j.bone] + " frame " + std::to_string(f);
      }
    }
    for (const End& e : ends) {
      const glm::vec3 goal =
          pose[e.anchor].translation +
          e.scale * (clip_pose.positions[e.joint] - clip_pose.positions[e.clip_anchor]);
      const float off = glm::length(pose[e.bone].translation - goal);
      fig.worst_end = std::max(fig.worst_end, off);
      end_sum += off;
      ++end_count;
    }
    previous = pose;
    clip_previous = clip_pose;
  }
  fig.mean_end = static_cast<float>(end_sum / std::max(1, end_count));
  fig.apply_us /= std::max(1, clip.frame_count());
  return fig;
}

// The human with CMU's 01_01 and a retargeter between them: where the tests below start.
class RetargetHuman : public ::testing::Test {
 protected:
  void SetUp() override {
    m = LoadOrFail(kHuman);
    Result<mocap::Clip> loaded = mocap::LoadClipFile(kWalkClips[0]);
    ASSERT_TRUE(loaded.ok()) << loaded.error();
    clip.emplace(std::move(loaded).value());
    Result<Retargeter> made = Retargeter::Create(m.skeleton, *clip);
    ASSERT_TRUE(made.ok()) << made.error();
    retargeter.emplace(std::move(made).value());
    clip_pose.Resize(clip->joint_count());
  }
  Model m;
  std::optional<mocap::Clip> clip;
  std::optional<Retargeter> retargeter;
  mocap::Pose clip_pose;
};

TEST_F(RetargetHuman, FindsTheHumansLimbsFromItsShape) {
  const Retargeter& r = *retargeter;
  const mocap::Limbs& l = r.character_limbs();
  const Skeleton& sk = m.skeleton;
  EXPECT_EQ(sk.names[l.legs[mocap::kLeft].end()], "B_Ankle_Left");
  EXPECT_EQ(sk.names[l.legs[mocap::kRight].end()], "B_Ankle_Right");
  EXPECT_EQ(sk.names[l.legs[mocap::kLeft].chain[l.legs[mocap::kLeft].middle]], "B_Knee_Left");
  ASSERT_TRUE(l.has_arms);
  EXPECT_EQ(sk.names[l.arms[mocap::kLeft].end()], "B_Hand_Left");
  EXPECT_EQ(sk.names[l.arms[mocap::kRight].end()], "B_Hand_Right");
  // Every spine bone from the pelvis to the neck follows a clip joint; the root above the
  // pelvis does not (it goes with the pelvis).
  for (const char* spine : {"B_Spine1", "B_Spine2", "B_Spine3", "B_Spine4", "B_Neck"}) {
    EXPECT_TRUE(std::any_of(r.joints().begin(), r.joints().end(),
                            [&](const RetargetJoint& j) { return sk.names[j.bone] == spine; }))
        << spine;
  }
  EXPECT_FALSE(std::any_of(r.joints().begin(), r.joints().end(),
                           [&](const RetargetJoint& j) { return j.bone == 0; }));
  // The human's legs (0.83 m hip to ankle) are longer than CMU's scaled 1.7 m subject's.
  EXPECT_GT(r.scale(), 0.5f);
  EXPECT_LT(r.scale(), 2.0f);
}

TEST(Retarget, CmuClipsOnTheHumanKeepLengthsTwistAndProportions) {
  const Model m = LoadOrFail(kHuman);
  for (const char* path : kWalkClips) {
    const Result<mocap::Clip> clip = mocap::LoadClipFile(path);
    ASSERT_TRUE(clip.ok()) << clip.error();
    const Figures fig = Play(m, clip.value());
    std::printf(
        "%s: length error %.2g m; worst twist jump %.1f deg (%s; the clip's own %.1f), "
        "worst beyond the clip's own %.2f deg (%s), worst where the clip's own is under 15 "
        "deg %.1f deg; hands and feet from their goals: mean %.4f m, worst %.3f m; "
        "%.2f us a frame\n",
        path, fig.worst_length, glm::degrees(fig.worst_twist), fig.twist_at.c_str(),
        glm::degrees(fig.clip_twist), glm::degrees(fig.worst_excess), fig.excess_at.c_str(),
        glm::degrees(fig.worst_calm), fig.mean_end, fig.worst_end, fig.apply_us);
    EXPECT_LT(fig.worst_length, 1e-4f) << path;
    // No flips: no bone twists more than 20 degrees in a frame unless its clip joint does, and
    // never by much more than its clip joint does (a flip is a half turn). The excess comes
    // from the limb fit's turns near a straight arm (Boxing_Toes' punches: 10 degrees at an
    // elbow).
    EXPECT_LT(glm::degrees(fig.worst_calm), 20.0f) << path;
    EXPECT_LT(glm::degrees(fig.worst_excess), 15.0f) << path;
    EXPECT_LT(fig.worst_end, 0.05f) << path;
  }
}

// SetFootLift raises (or lowers) each ankle's goal: where the leg bends, the ankle lands that
// much higher, the pelvis and the other leg where they were; a lift that is not finite is 0.
TEST_F(RetargetHuman, AFootLiftRaisesThatAnkle) {
  Retargeter& r = *retargeter;
  const int ankle = r.character_limbs().legs[mocap::kLeft].end();
  const int other = r.character_limbs().legs[mocap::kRight].end();
  const int pelvis = r.joints().front().bone;
  const std::size_t n = m.skeleton.names.size();
  std::vector<BoneTransform> flat(n), lifted(n);
  int compared = 0;
  for (int f = 2; f < clip->frame_count(); f += 97) {
    mocap::SampleFrame(*clip, f, clip_pose);
    r.SetFootLift(mocap::kLeft, 0.0f);
    ASSERT_TRUE(r.Apply(clip_pose, flat));
    r.SetFootLift(mocap::kLeft, 0.03f);
    ASSERT_TRUE(r.Apply(clip_pose, lifted));
    const glm::vec3 moved = lifted[ankle].translation - flat[ankle].translation;
    EXPECT_NEAR(moved.y, 0.03f, 0.001f) << f;
    EXPECT_NEAR(moved.x, 0.0f, 0.001f) << f;
    EXPECT_NEAR(moved.z, 0.0f, 0.001f) << f;
    EXPECT_LT(glm::distance(lifted[other].translation, flat[other].translation), 1e-5f) << f;
    EXPECT_LT(glm::distance(lifted[pelvis].translation, flat[pelvis].translation), 1e-5f) << f;
    ++compared;
  }
  EXPECT_GT(compared, 20);
  EXPECT_FLOAT_EQ(r.foot_lift(mocap::kLeft), 0.03f);
  r.SetFootLift(mocap::kLeft, NAN);
  EXPECT_EQ(r.foot_lift(mocap::kLeft), 0.0f);
}

// Fitting a leg again (FitLeg, the mocap scene's held heel): the ankle lands on a goal the
// leg reaches, every bone keeps its length, the ankle and the bones below it keep their
// rotations, the knee stays on its side of the hip-ankle line; a straight leg bends forward
// (the knee's own forward), never sideways.
TEST_F(RetargetHuman, FitLegPutsTheAnkleOnTheGoalKeepingLengthsAndTheKneesSide) {
  Retargeter& r = *retargeter;
  const mocap::Limb& leg = r.character_limbs().legs[mocap::kLeft];
  const int hip = leg.chain[0], knee = leg.chain[leg.middle], ankle = leg.end();
  const std::size_t n = m.skeleton.names.size();
  std::vector<BoneTransform> before(n), pose(n);
  const auto side_of_line = [&](const std::vector<BoneTransform>& p) {
    const glm::vec3 h = p[hip].translation, a = p[ankle].translation;
    const glm::vec3 line = glm::normalize(a - h), k = p[knee].translation - h;
    return k - line * glm::dot(k, line);
  };
  int fitted = 0;
  for (int f = 2; f < clip->frame_count(); f += 131) {
    mocap::SampleFrame(*clip, f, clip_pose);
    ASSERT_TRUE(r.Apply(clip_pose, before));
    pose = before;
    const glm::vec3 goal = before[ankle].translation + glm::vec3(0.04f, 0.05f, -0.03f);
    EXPECT_EQ(r.FitLeg(mocap::kLeft, goal, pose), 0.0f) << f;
    EXPECT_LT(glm::distance(pose[ankle].translation, goal), 2e-4f) << f;
    for (std::size_t b = 1; b < n; ++b) {
      const int p = m.skeleton.parents[b];
      EXPECT_NEAR(glm::distance(pose[b].translation, pose[p].translation),
                  glm::distance(before[b].translation, before[p].translation), 1e-5f)
          << f << " " << m.skeleton.names[b];
    }
    EXPECT_GT(std::abs(glm::dot(pose[ankle].rotation, before[ankle].rotation)), 1.0f - 1e-6f) << f;
    const glm::vec3 was = side_of_line(before), now = side_of_line(pose);
    if (glm::length(was) > 0.01f) EXPECT_GT(glm::dot(was, now), 0.0f) << f;
    ++fitted;
  }
  EXPECT_GT(fitted, 15);
  // A straight leg: out of reach first (it straightens), then a goal nearer the hip bends it
  // towards the model's front (+Z), the human's knees' side.
  ASSERT_TRUE(r.Apply(clip_pose, pose));
  const glm::vec3 h = pose[hip].translation;
  const glm::vec3 down = glm::normalize(pose[ankle].translation - h);
  EXPECT_GT(r.FitLeg(mocap::kLeft, h + 2.0f * down, pose), 0.0f);
  EXPECT_LT(glm::length(side_of_line(pose)), 1e-3f);
  const float reach = glm::distance(h, pose[ankle].translation);
  EXPECT_EQ(r.FitLeg(mocap::kLeft, h + 0.8f * reach * down, pose), 0.0f);
  const glm::vec3 bent = side_of_line(pose);
  EXPECT_GT(glm::length(bent), 0.05f);
  EXPECT_GT(bent.z, 0.8f * glm::length(bent));
  // Refused: a goal not finite, a pose of another size.
  const std::vector<BoneTransform> kept = pose;
  EXPECT_LT(r.FitLeg(mocap::kLeft, glm::vec3(NAN), pose), 0.0f);
  std::vector<BoneTransform> few(3);
  EXPECT_LT(r.FitLeg(mocap::kLeft, h, few), 0.0f);
  for (std::size_t b = 0; b < n; ++b) EXPECT_EQ(pose[b].translation, kept[b].translation);
}

TEST_F(RetargetHuman, WrongSizesAreRefused) {
  Retargeter& r = *retargeter;
  std::vector<BoneTransform> few(3);
  EXPECT_FALSE(r.Apply(clip_pose, few));
  mocap::Pose other;
  other.Resize(5);
  std::vector<BoneTransform> pose(m.skeleton.names.size());
  EXPECT_FALSE(r.Apply(other, pose));
}

}  // namespace
}  // namespace fabrik::character

// Grounding without pops (docs/mocap.md: One character, Figures): over every frame of each
// packaged clip, flat and on hills, as given and with its joints renamed and its unit
// changed, no joint moves more than kMaxPop (the goal, 2 cm) in a frame beyond what the clip
// moves it, also with the look target and the IK weight switched on and off; with hand reaches
// switched on and off, within a bound per clip (ReachesSwitchedOnAndOff). Also skate,
// penetration and bone lengths. The skate bounds are what the grounding achieves today with a
// margin (docs/mocap.md gives the figures and the goals they fall short of: skate under
// 5 mm); the pops and slides this grounding removed were 7 to 35 cm.
#include <gtest/gtest.h>

#include <cmath>
#include <glm/geometric.hpp>

#include "mocap/grounding_meter.h"
#include "mocap_test_util.h"
#include "terrain/heightmap_png.h"

namespace fabrik::mocap {
namespace {

constexpr double kMaxPop = 0.02;  // metres in one frame, at the clip's 100-120 Hz (the goal)
// Measured: 1.5 cm (the budget at 120 Hz) on 01_01, 1.55 cm on 01_03 flat, 1.8 cm (the budget at
// 100 Hz) on Boxing_Toes, 1.97 cm on 01_03 on the hills (frame 4464: the clip's right leg,
// straight until then, bends while the IK's, its foot pinned above the clip's, is bent to 93%
// of its length; docs/mocap.md: Figures). That frame popped 2.23 cm (1.63 cm flat) before the
// pop limit lifted a pinned foot on its pin rather than sliding it. The same with the look
// target and the IK weight switched every second; 1.5 to 2.7 cm before the gaze's turn and a
// leg faded to weight 0 were held to the pop budget (the head's tip while the clip turns the
// head fast, a knee or a toe in the last frames of a weight fading to 0).
constexpr double kMeanSkate = 0.003;  // metres, mean over the contacts of a clip (0.5-2.5 mm)

// Metres, the worst skate over the contacts of a clip, flat or on the hills: the measured
// worst (docs/mocap.md: Figures) with a margin. 01_01: 1.2 mm (the goal, 5 mm, is met);
// 01_03: 8.8 and 10.4 mm, where the clip itself moves a planted heel 2.4 cm out and back
// within two frames (more than the pop budget lets a held foot ignore) and where its straight
// leg straightens further under a pinned foot; 13.9 and 20.1 mm before the pop limit lifted a
// pinned foot on its pin rather than sliding it where the clip bends a straight leg, 17.4 and
// 22.3 mm before a leg could be as straight as the clip's; Boxing_Toes: 3.1 and 6.5 mm (8.6 mm
// on the hills before the foot's turn under the pop limit was a least-squares fit).
// Before each point was pinned where the foot was shown and a ball alone held the foot: 10.6,
// 18.7 and 67.7 mm.
double MaxSkate(const std::string& what) {
  if (what.find("01_01") != std::string::npos) return 0.002;
  if (what.find("01_03") != std::string::npos) return 0.0115;
  return 0.0075;
}

Heightmap Hills() {
  auto map =
      LoadHeightmapPng(std::string(FABRIK_SOURCE_DIR) + "/assets/terrain/hills.png", 40.0f, 3.0f);
  EXPECT_TRUE(map.ok()) << map.error();
  return std::move(map.value());
}

// Events at clip frames: what a user does while the clip plays.
using Script = std::function<void(int frame, Character&)>;

GroundingFigures Play(const std::shared_ptr<const Rig>& rig, const Heightmap* ground,
                      const Script& script = {}, const CharacterSettings& settings = {}) {
  auto made = Character::Create(rig, settings);
  EXPECT_TRUE(made.ok()) << made.error();
  Character& c = made.value();
  c.SetTerrain(ground);
  c.SetPlacement(ground ? Placement{12.0f, -12.0f, 0.7f} : Placement{});
  const Clip& clip = rig->clip;
  GroundingMeter meter(*rig, ground);
  const float dt = clip.frame_time();
  float worst_bone = 0.0f;
  for (int f = 0; f < clip.frame_count(); ++f) {
    if (script) script(f, c);
    c.Update(static_cast<float>(f) * dt, dt);
    meter.Frame(f, c.animated(), c.pose(), c.restarted());
    for (int j = 1; j < clip.joint_count(); ++j) {
      if (clip.has_translation(j)) continue;
      const float bone =
          glm::distance(c.pose().positions[j], c.pose().positions[clip.parents()[j]]);
      worst_bone = std::max(worst_bone, std::fabs(bone - glm::length(clip.offsets()[j])));
    }
  }
  EXPECT_LE(worst_bone, 1e-4f * std::max(1.0f, clip.rest_height()));
  return meter.Figures();
}

void ExpectGrounded(const std::shared_ptr<const Rig>& rig, const std::string& what) {
  static const Heightmap hills = Hills();
  for (const Heightmap* ground : {static_cast<const Heightmap*>(nullptr), &hills}) {
    const GroundingFigures g = Play(rig, ground);
    SCOPED_TRACE(what + (ground ? " on hills" : " flat"));
    EXPECT_LT(g.pop_worst, kMaxPop)
        << "frame " << g.pop_frame << ", joint " << rig->clip.name(g.pop_joint);
    EXPECT_LT(g.penetration_worst, 0.01);
    EXPECT_LT(g.skate_worst, MaxSkate(what));
    EXPECT_LT(g.skate_mean, kMeanSkate);
    EXPECT_GT(g.contacts, 4);
  }
}

TEST(NoPops, EveryPackagedClipFlatAndOnHills) {
  for (const char* path : testing::kPackagedClips) {
    auto rig = testing::LoadRig(path);
    ASSERT_TRUE(rig);
    ExpectGrounded(rig, path);
  }
}

TEST(NoPops, EveryPackagedClipRenamedInAnotherUnit) {
  for (const char* path : testing::kPackagedClips) {
    auto clip = LoadClipFile(path);
    ASSERT_TRUE(clip) << clip.error();
    // Boxing_Toes is in centimetres: inches for it, millimetres for the CMU clips.
    const float unit =
        clip.value().scale_source() == ScaleSource::kUnitCentimetres ? 0.0254f : 0.001f;
    auto disguised = testing::Disguised(clip.value(), unit);
    ASSERT_TRUE(disguised) << disguised.error();
    EXPECT_NE(disguised.value().scale(), clip.value().scale());
    EXPECT_EQ(disguised.value().name(0), "b00");
    auto rig = MakeRig(std::move(disguised.value()));
    ASSERT_TRUE(rig) << rig.error();
    ExpectGrounded(rig.value(), std::string(path) + " disguised");
  }
}

// Every second, one change of the kind `kind` (0: IK weight, 1: gaze), switched on and off in
// turn. Reaches: see Reaches below.
Script Changes(int kind, int hz) {
  return [kind, hz](int f, Character& c) {
    if (f % hz != 0) return;
    const glm::vec3 root = c.animated().positions[0];
    const bool on = (f / hz) % 2 == 1;
    switch (kind) {
      case 0:
        ASSERT_TRUE(c.SetIkWeight(on ? 0.0f : ((f / hz) % 4 == 2 ? 0.3f : 1.0f)));
        break;
      case 1:
        if (on) {
          ASSERT_TRUE(c.SetLookTarget(root + glm::vec3(0.0f, 0.5f, -3.0f)));  // behind
        } else {
          c.ClearLookTarget();
        }
        break;
    }
  };
}

TEST(NoPops, LookAndWeightSwitchedOnAndOff) {
  static const Heightmap hills = Hills();
  for (const char* path : testing::kPackagedClips) {
    auto rig = testing::LoadRig(path);
    ASSERT_TRUE(rig);
    const int hz = static_cast<int>(std::lround(1.0f / rig->clip.frame_time()));
    for (int kind = 0; kind < 2; ++kind) {
      for (const Heightmap* ground : {static_cast<const Heightmap*>(nullptr), &hills}) {
        const GroundingFigures g = Play(rig, ground, Changes(kind, hz));
        SCOPED_TRACE(std::string(path) + (ground ? " on hills" : " flat") + ", changes " +
                     std::to_string(kind));
        EXPECT_LT(g.pop_worst, kMaxPop)
            << "frame " << g.pop_frame << ", joint " << rig->clip.name(g.pop_joint);
      }
    }
  }
}

// Every second a hand's reach switched on (each hand in turn, at each target of kReaches) or
// off; the targets are offsets from the root in the character's frame (turned by its
// placement), metres: in front, behind, overhead, and far out of reach.
constexpr glm::vec3 kReaches[] = {
    {0.25f, 0.35f, 0.45f}, {0.25f, 0.3f, -0.5f}, {0.2f, 0.95f, 0.05f}, {1.5f, 0.8f, 1.0f}};

Script Reaches(int hz, int only = -1) {
  return [hz, only](int f, Character& c) {
    if (f % hz != 0) return;
    const int k = f / hz;
    const int which = only >= 0 ? only : (k / 2) % 4;
    const Side hand = (k / 2) % 2 == 0 ? kRight : kLeft;
    if (k % 2 == 1) {
      glm::vec3 to = kReaches[which];
      if (hand == kRight) to.x = -to.x;  // a BVH character's left is +X (clip.h)
      ASSERT_TRUE(c.SetReachTarget(hand, c.animated().positions[0] + c.placed_turn() * to));
    } else {
      c.ClearReachTarget(kLeft);
      c.ClearReachTarget(kRight);
    }
  };
}

// Reaches switched on and off (docs/mocap.md: One character, Figures): each target of
// kReaches on its own, flat and on the hills. Two figures (grounding_meter.h): the pop, each
// joint's move against the clip's move, and the outrun, how much farther a joint moves than
// the clip moves it. The goal is kMaxPop. Measured worst pop, outrun (bound):
//   01_01: 2.15 cm (2.25), 1.79 cm (2.0) - the pop over 2 cm is the target out of reach;
//   01_03: 15.5 cm (17), 6.6 cm (7) - at the fingers, which the capture spins 126-177 degrees
//     in one frame (frames 1223-1226, 1635, 1642), and where it moves the elbow 13 cm in one
//     frame (3120); a hand turned by its reach cannot follow that within 2 cm;
//   Boxing_Toes: 5.5 cm (6), 2.7 cm (3) - the punches move a fist 6-8 cm a frame, a hand held
//     on its target does not.
// Before the end's turn was a least-squares fit and the chain was held to the budget even
// where the hand's joints could not be: 2.2, 15.3 and 5.1 cm pop, 1.9, 11.1 and 2.0 outrun.
TEST(NoPops, ReachesSwitchedOnAndOff) {
  static const Heightmap hills = Hills();
  struct Bound {
    const char* path;
    double pop, outrun;
  };
  const Bound clips[] = {{testing::kClip0101, 0.0225, 0.02},
                         {testing::kClip0103, 0.17, 0.07},
                         {testing::kClipBoxing, 0.06, 0.03}};
  for (const Bound& b : clips) {
    auto rig = testing::LoadRig(b.path);
    ASSERT_TRUE(rig);
    const int hz = static_cast<int>(std::lround(1.0f / rig->clip.frame_time()));
    for (int only = 0; only < 4; ++only) {
      for (const Heightmap* ground : {static_cast<const Heightmap*>(nullptr), &hills}) {
        const GroundingFigures g = Play(rig, ground, Reaches(hz, only));
        SCOPED_TRACE(std::string(b.path) + (ground ? " on hills" : " flat") + ", target " +
                     std::to_string(only));
        EXPECT_LT(g.pop_worst, b.pop)
            << "frame " << g.pop_frame << ", joint " << rig->clip.name(g.pop_joint);
        EXPECT_LT(g.outrun_worst, b.outrun)
            << "frame " << g.outrun_frame << ", joint " << rig->clip.name(g.outrun_joint);
      }
    }
  }
}

// A reaching arm whose hand the capture garbles never snaps to its solve: 01_03 flips the
// right thumb half round in frame 1635 while the reach behind holds the arm 26 cm off the
// clip's, short of its solve. No move kept the hand's joints within the budget there, and the
// arm's elbow and wrist jumped 7.6 and 8.5 cm (the clip's: 0.6 and 0.8 cm). Now the arm's
// chain outruns the clip's by no more than the budget in any frame, the thumb aside.
TEST(NoPops, AReachingArmNeverSnapsWhereTheCaptureGarblesItsHand) {
  auto rig = testing::LoadRig(testing::kClip0103);
  ASSERT_TRUE(rig);
  const Clip& clip = rig->clip;
  auto made = Character::Create(rig);
  ASSERT_TRUE(made.ok()) << made.error();
  Character& c = made.value();
  const int hz = static_cast<int>(std::lround(1.0f / clip.frame_time()));
  const Script script = Reaches(hz, 0);
  const float dt = clip.frame_time();
  std::vector<glm::vec3> last_pose, last_clip;
  double worst = 0.0;
  int worst_frame = -1;
  for (int f = 0; f < 2000; ++f) {
    script(f, c);
    c.Update(static_cast<float>(f) * dt, dt);
    if (!last_pose.empty() && !c.restarted()) {
      for (const Limb& arm : rig->limbs.arms) {
        for (int j : arm.chain) {
          const double outrun = glm::distance(c.pose().positions[j], last_pose[j]) -
                                glm::distance(c.animated().positions[j], last_clip[j]);
          if (outrun > worst) worst = outrun, worst_frame = f;
        }
      }
    }
    last_pose = c.pose().positions;
    last_clip = c.animated().positions;
  }
  // The budget: max_pop_speed x dt, 1.5 cm at 01_03's 120 Hz; measured 1.48 cm.
  EXPECT_LT(worst, CharacterSettings{}.max_pop_speed * dt + 1e-4) << "frame " << worst_frame;
}

// The pop limit's trade-off: a smaller budget gives smaller pops and holds feet back more
// (larger slides); a budget of 0 or NaN is refused.
TEST(NoPops, BudgetTradesPopsForSkate) {
  auto rig = testing::LoadRig(testing::kClipBoxing);
  ASSERT_TRUE(rig);
  CharacterSettings tight;
  tight.max_pop_speed = 1.0f;  // 1 cm a frame at Boxing_Toes' 100 Hz
  const GroundingFigures loose = Play(rig, nullptr);
  const GroundingFigures held = Play(rig, nullptr, {}, tight);
  // Measured: 1.69 cm at the default, 1.15 cm held (where the limit's least move exceeds
  // the budget of 1 cm).
  EXPECT_LT(held.pop_worst, 0.012);
  EXPECT_LT(held.pop_worst, loose.pop_worst);
  EXPECT_GT(held.skate_mean, loose.skate_mean);
  for (float bad : {0.0f, -1.0f, std::nanf("")}) {
    CharacterSettings s;
    s.max_pop_speed = bad;
    EXPECT_FALSE(Character::Create(rig, s).ok()) << bad;
  }
}

}  // namespace
}  // namespace fabrik::mocap

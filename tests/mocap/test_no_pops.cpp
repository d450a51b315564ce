// Grounding without pops (docs/mocap.md: One character, Figures): over every frame of each
// packaged clip, flat and on hills, as given and with its joints renamed and its unit
// changed, no joint moves more than kMaxPop (the goal, 2 cm) in a frame farther than the clip
// moves it (GroundingMeter's outrun), also with the look target and the IK weight switched on
// and off; with hand reaches switched on and off, within a bound per clip
// (ReachesSwitchedOnAndOff). The change of a joint's correction (GroundingMeter's pop, which
// also counts a joint held still while the clip jumps) is bounded by what is measured, and
// so are skate, penetration and bone lengths (docs/mocap.md gives the figures and the goals);
// the pops and slides this grounding removed were 7 to 35 cm.
#include <gtest/gtest.h>

#include <cmath>
#include <glm/geometric.hpp>

#include "mocap/grounding_meter.h"
#include "mocap_test_util.h"
#include "terrain/heightmap_png.h"

namespace fabrik::mocap {
namespace {

constexpr double kMaxPop = 0.02;  // metres in one frame, at the clip's 100-120 Hz (the goal)
// Measured outrun: 1.5 cm (the budget at 120 Hz) on the CMU clips, 1.8 cm (the budget at
// 100 Hz) on Boxing_Toes; the same with the look target and the IK weight switched every
// second.
// Metres, the worst change of a joint's correction in a frame: measured 2.2 cm on 01_01, 3.5
// cm on 01_03 (its knee jittering 1.5 to 2.7 cm a frame either way in the capture while the
// IK's, its foot held, cannot share all of it) and 3.4 cm on Boxing_Toes. Before the pop
// limit allowed a joint to move less than the clip moves it (held still under a glitch) it
// was held under 2 cm, and 01_03's feet slid up to 10.4 mm for it.
constexpr double kMaxCorrectionChange = 0.04;
constexpr double kMeanSkate = 0.003;  // metres, mean over the contacts of a clip (0.5-2.5 mm)

// Metres, the worst skate over the contacts of a clip, flat or on the hills: the measured
// worst (docs/mocap.md: Figures) with a margin. 01_01: 1.2 mm, 01_03: 1.1 mm, Boxing_Toes: 3.3
// and 3.7 mm (the goal, under 5 mm, is met everywhere). Before the pop limit let a held foot
// keep still while the clip jerks it (a glitch moving a planted heel 2.4 cm out and back,
// turning a flat foot 0.1 rad and back, a straight leg straightening under a pinned foot):
// 8.8 and 10.4 mm on 01_03; before the body was kept from folding a leg in contact tighter
// than the clip's: 6.5 mm on Boxing_Toes on the hills (5.0 with the first); before each point
// was pinned where the foot was shown and a ball alone held the foot: 10.6, 18.7 and 67.7 mm.
double MaxSkate(const std::string& what) {
  if (what.find("Boxing") != std::string::npos) return 0.0045;
  return 0.002;
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

// The outrun within `outrun`, the correction's change within `pop`.
void ExpectNoPops(const GroundingFigures& g, const Rig& rig, double outrun, double pop) {
  EXPECT_LT(g.outrun_worst, outrun)
      << "frame " << g.outrun_frame << ", joint " << rig.clip.name(g.outrun_joint);
  EXPECT_LT(g.pop_worst, pop) << "frame " << g.pop_frame << ", joint "
                              << rig.clip.name(g.pop_joint);
}

void ExpectGrounded(const std::shared_ptr<const Rig>& rig, const std::string& what) {
  static const Heightmap hills = Hills();
  for (const Heightmap* ground : {static_cast<const Heightmap*>(nullptr), &hills}) {
    const GroundingFigures g = Play(rig, ground);
    SCOPED_TRACE(what + (ground ? " on hills" : " flat"));
    ExpectNoPops(g, *rig, kMaxPop, kMaxCorrectionChange);
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
        ExpectNoPops(g, *rig, kMaxPop, kMaxCorrectionChange);
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
// kReaches on its own, flat and on the hills. The goal is kMaxPop for the outrun. Measured
// worst outrun, correction change (bounds):
//   01_01: 1.50 cm (2.0), 5.2 cm (5.5) - the goal met;
//   01_03: 1.50 cm (2.0), 22.7 cm (24) - the correction changes where the capture moves the
//     elbow 13 cm and the hand 18 cm in one frame (3120) and the held arm does not;
//   Boxing_Toes: 1.82 cm (2.0), 9.9 cm (11) - the punches move a fist 6-8 cm a frame, a hand
//     held on its target does not.
// Before the end's turn was a least-squares fit or last frame's turn and the chain was held
// to the budget even where the hand's joints could not be, the outruns were 1.9, 11.1 and
// 2.0 cm (01_03's arm snapping to its solve where the capture spins its fingers and thumb
// 126-177 degrees in one frame); with the fit alone, 01_03's fingers outran the clip's by
// 4.9 cm there, and without the turn keeping the hand as it was, Boxing_Toes' wrist end
// 2.04 cm where the clip flicks the wrist 20 degrees (frame 2415); before the pop limit judged
// the outrun, the correction changes were 2.2, 15.5 and 5.5 cm.
TEST(NoPops, ReachesSwitchedOnAndOff) {
  static const Heightmap hills = Hills();
  struct Bound {
    const char* path;
    double pop, outrun;
  };
  const Bound clips[] = {{testing::kClip0101, 0.055, kMaxPop},
                         {testing::kClip0103, 0.24, kMaxPop},
                         {testing::kClipBoxing, 0.11, kMaxPop}};
  for (const Bound& b : clips) {
    auto rig = testing::LoadRig(b.path);
    ASSERT_TRUE(rig);
    const int hz = static_cast<int>(std::lround(1.0f / rig->clip.frame_time()));
    for (int only = 0; only < 4; ++only) {
      for (const Heightmap* ground : {static_cast<const Heightmap*>(nullptr), &hills}) {
        const GroundingFigures g = Play(rig, ground, Reaches(hz, only));
        SCOPED_TRACE(std::string(b.path) + (ground ? " on hills" : " flat") + ", target " +
                     std::to_string(only));
        ExpectNoPops(g, *rig, b.outrun, b.pop);
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
  // The outrun is held to the budget (measured 1.80 cm at the default, 1.00 cm held), and the
  // feet slide more (0.61 and 0.69 mm mean).
  EXPECT_LT(held.outrun_worst, 0.0101);
  EXPECT_LT(held.outrun_worst, loose.outrun_worst);
  EXPECT_GT(held.skate_mean, loose.skate_mean);
  for (float bad : {0.0f, -1.0f, std::nanf("")}) {
    CharacterSettings s;
    s.max_pop_speed = bad;
    EXPECT_FALSE(Character::Create(rig, s).ok()) << bad;
  }
}

}  // namespace
}  // namespace fabrik::mocap

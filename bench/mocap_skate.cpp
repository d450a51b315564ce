// mocap_skate: how well the grounding holds on the packaged clips (docs/mocap.md: Figures):
// contact share, foot skate, penetration and pops, the raw clip against full-body IK, plus the
// IK time per frame of one character.
//
// For each clip (default: the packaged CMU 01_01 and 01_03 and Boxing_Toes) as it is and
// disguised (every joint renamed b00, b01, ... and the file rewritten in another unit: inches
// for a clip in centimetres, millimetres otherwise, read back with the scale rule), on flat
// ground and on the hills heightmap (assets/terrain/hills.png, 40 m square, 3 m high), one
// character plays the whole clip once at its own frame rate (dt = frame time): on flat ground
// placed at the origin facing +Z; on the hills at (12, -12) turned 0.7 rad, on the slopes of
// the south-east hill. The figures are GroundingMeter's (mocap/grounding_meter.h), for the
// animated pose (the clip placed on the ground under its root) and for the final pose.
// With --contacts MM, each contact of the IK pose whose point slides more than MM millimetres is
// listed after its row: the foot, its frames, the point (heel or ball) and its slide, the frame
// of the worst slide, and the most and the sum that the pop limit held the ankle back from its
// solve (Character::foot(side).held_back) while it was down.
// With --reaches, each clip (not disguised) is played again, flat and on the hills, once per
// reach target, a hand's reach switched on and off every second (each hand in turn; the
// targets and the schedule are test_no_pops.cpp's ReachesSwitchedOnAndOff): the worst pop and
// outrun over the whole body and over the arms' chains (shoulder, elbow, wrist) alone.
// Usage: mocap_skate [--contacts MM] [--reaches] [clip.bvh ...]
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "mocap/bake.h"
#include "mocap/grounding_meter.h"
#include "terrain/heightmap_png.h"

namespace {

using fabrik::Heightmap;
using fabrik::Result;
using namespace fabrik::mocap;

// The clip rewritten with names and numbers that tell nothing (see the header comment).
Result<Clip> Disguised(const Clip& clip) {
  const float unit = clip.scale_source() == ScaleSource::kUnitCentimetres ? 0.0254f : 0.001f;
  BvhSkeleton skeleton = ClipSkeleton(clip);
  BvhFrames frames = ClipFrames(clip);
  const float factor = clip.scale() / unit;
  for (std::size_t j = 0; j < skeleton.joints.size(); ++j) {
    skeleton.joints[j].name = (j < 10 ? "b0" : "b") + std::to_string(j);
    skeleton.joints[j].offset *= factor;
  }
  for (glm::vec3& t : frames.translations) t *= factor;
  Result<std::string> text = FormatBvh(skeleton, frames);
  if (!text) return fabrik::MakeError(text.error());
  return LoadClipFromMemory(text.value(), clip.source() + " (disguised)");
}

void Print(const std::string& clip, const char* ground, const char* pose, const GroundingFigures& g,
           const Clip& skeleton) {
  const std::string at = g.pop_joint >= 0
                             ? skeleton.name(g.pop_joint) + " @" + std::to_string(g.pop_frame)
                             : std::string("-");
  std::printf("%-14s %-5s %-4s %5.0f%% %5.0f%% %4d %7.2f %7.2f %7.2f %7.2f %7.2f %4d  %s\n",
              clip.c_str(), ground, pose, 100.0 * g.contact_share[kLeft],
              100.0 * g.contact_share[kRight], g.contacts, 1000.0 * g.skate_mean,
              1000.0 * g.skate_worst, 100.0 * g.penetration_worst, 100.0 * g.pop_worst,
              100.0 * g.outrun_worst, g.restarts, at.c_str());
}

// Per contact of one foot: where each point went down, its slide so far, and the pop limit's
// hold (for --contacts).
struct ContactProbe {
  int first = -1;
  std::array<bool, 2> down{};
  std::array<glm::vec3, 2> start{};
  std::array<float, 2> slide{};
  std::array<int, 2> worst_at{};
  float held_most = 0.0f, held_sum = 0.0f;
};

float g_list_mm = -1.0f;  // --contacts: list contacts sliding more than this; < 0: none

void ProbeFrame(const Rig& rig, const Character& c, int f, std::array<ContactProbe, 2>& probes,
                const std::string& name, const char* ground) {
  static const char* const kPoint[2] = {"heel", "ball"};
  for (int side : {kLeft, kRight}) {
    ContactProbe& p = probes[side];
    const bool contact = rig.contacts.contact[side][f] != 0;
    if (!contact || f + 1 == rig.clip.frame_count()) {
      if (p.first >= 0 && std::max(p.slide[0], p.slide[1]) * 1000.0f > g_list_mm) {
        std::printf("  %s %s %s foot frames %d-%d:", name.c_str(), ground,
                    side == kLeft ? "left" : "right", p.first, f - 1);
        for (int k = 0; k < 2; ++k) {
          std::printf(" %s %.1f mm @%d", kPoint[k], 1000.0f * p.slide[k], p.worst_at[k]);
        }
        std::printf("; held back most %.1f mm, sum %.1f mm\n", 1000.0f * p.held_most,
                    1000.0f * p.held_sum);
      }
      p = ContactProbe{};
      if (!contact) continue;
    }
    if (p.first < 0) p.first = f;
    const std::array<bool, 2> down{rig.contacts.heel[side][f] != 0,
                                   rig.contacts.ball[side][f] != 0};
    const std::array<int, 2> joint{rig.limbs.legs[side].end(), rig.contacts.ball_joint[side]};
    for (int k = 0; k < 2; ++k) {
      const glm::vec3 q = c.pose().positions[joint[k]];
      if (down[k] && !p.down[k]) p.start[k] = q;
      if (down[k]) {
        const float d = std::hypot(q.x - p.start[k].x, q.z - p.start[k].z);
        if (d > p.slide[k]) p.slide[k] = d, p.worst_at[k] = f;
      }
      p.down[k] = down[k];
    }
    const float held = c.foot(static_cast<Side>(side)).held_back;
    p.held_most = std::max(p.held_most, held);
    p.held_sum += held;
  }
}

// A character playing `rig` on `ground`, placed as the header comment says (an error printed
// when it cannot be made).
Result<Character> Placed(const std::shared_ptr<const Rig>& rig, const Heightmap* ground) {
  auto character = Character::Create(rig);
  if (!character) {
    std::fprintf(stderr, "mocap_skate: %s\n", character.error().c_str());
    return character;
  }
  character.value().SetTerrain(ground);
  if (ground) character.value().SetPlacement(Placement{12.0f, -12.0f, 0.7f});
  return character;
}

// Plays `rig` once on `ground`; prints the clip's and the IK's figures; appends IK times.
bool Play(const std::shared_ptr<const Rig>& rig, const std::string& name, const Heightmap* ground,
          std::vector<double>& ik_us) {
  auto character = Placed(rig, ground);
  if (!character) return false;
  Character& c = character.value();
  GroundingMeter raw(*rig, ground), ik(*rig, ground);
  const float dt = rig->clip.frame_time();
  std::array<ContactProbe, 2> probes{};
  const char* g = ground ? "hills" : "flat";
  for (int f = 0; f < rig->clip.frame_count(); ++f) {
    c.Update(static_cast<float>(f) * dt, dt);
    raw.Frame(f, c.animated(), c.animated(), c.restarted());
    ik.Frame(f, c.animated(), c.pose(), c.restarted());
    ik_us.push_back(c.last_ik_seconds() * 1e6);
    if (g_list_mm >= 0.0f) ProbeFrame(*rig, c, f, probes, name, g);
  }
  Print(name, g, "clip", raw.Figures(), rig->clip);
  Print(name, g, "IK", ik.Figures(), rig->clip);
  return true;
}

// The reach targets of --reaches: offsets from the root in the character's frame (turned by
// its placement), metres: in front, behind, overhead, and far out of reach.
constexpr glm::vec3 kReaches[] = {
    {0.25f, 0.35f, 0.45f}, {0.25f, 0.3f, -0.5f}, {0.2f, 0.95f, 0.05f}, {1.5f, 0.8f, 1.0f}};

// Plays `rig` on `ground` with reach target `which` switched on and off every second; prints
// the worst pop and outrun over the body and over the arms' chains.
bool PlayReaches(const std::shared_ptr<const Rig>& rig, const std::string& name,
                 const Heightmap* ground, int which) {
  auto character = Placed(rig, ground);
  if (!character) return false;
  Character& c = character.value();
  GroundingMeter body(*rig, ground);
  const Clip& clip = rig->clip;
  const float dt = clip.frame_time();
  const int hz = static_cast<int>(std::lround(1.0f / dt));
  std::vector<glm::vec3> last_pose, last_clip;
  double arm_pop = 0.0, arm_outrun = 0.0;
  int arm_pop_at = -1, arm_outrun_at = -1;
  for (int f = 0; f < clip.frame_count(); ++f) {
    if (f % hz == 0) {
      const int k = f / hz;
      const Side hand = (k / 2) % 2 == 0 ? kRight : kLeft;
      if (k % 2 == 1) {
        glm::vec3 to = kReaches[which];
        if (hand == kRight) to.x = -to.x;  // a BVH character's left is +X (clip.h)
        if (!c.SetReachTarget(hand, c.animated().positions[0] + c.placed_turn() * to)) return false;
      } else {
        c.ClearReachTarget(kLeft);
        c.ClearReachTarget(kRight);
      }
    }
    c.Update(static_cast<float>(f) * dt, dt);
    body.Frame(f, c.animated(), c.pose(), c.restarted());
    if (!last_pose.empty() && !c.restarted()) {
      for (const Limb& arm : rig->limbs.arms) {
        for (int j : arm.chain) {
          const glm::vec3 moved = c.pose().positions[j] - last_pose[j];
          const glm::vec3 clip_moved = c.animated().positions[j] - last_clip[j];
          const double pop = glm::distance(moved, clip_moved);
          const double outrun = double(glm::length(moved)) - double(glm::length(clip_moved));
          if (pop > arm_pop) arm_pop = pop, arm_pop_at = f;
          if (outrun > arm_outrun) arm_outrun = outrun, arm_outrun_at = f;
        }
      }
    }
    last_pose = c.pose().positions;
    last_clip = c.animated().positions;
  }
  const GroundingFigures g = body.Figures();
  const auto at = [&](int joint, int frame) {
    return joint >= 0 ? clip.name(joint) + " @" + std::to_string(frame) : std::string("-");
  };
  std::printf("%-14s %-5s %6d %7.2f %-22s %7.2f %-22s %7.2f @%-5d %7.2f @%d\n", name.c_str(),
              ground ? "hills" : "flat", which, 100.0 * g.pop_worst,
              at(g.pop_joint, g.pop_frame).c_str(), 100.0 * g.outrun_worst,
              at(g.outrun_joint, g.outrun_frame).c_str(), 100.0 * arm_pop, arm_pop_at,
              100.0 * arm_outrun, arm_outrun_at);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> clips;
  bool reaches = false;
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--contacts") {
      if (i + 1 >= argc || !(std::atof(argv[i + 1]) >= 0.0)) {
        std::fprintf(stderr, "mocap_skate: --contacts needs a slide in millimetres, >= 0\n");
        return 2;
      }
      g_list_mm = static_cast<float>(std::atof(argv[++i]));
      continue;
    }
    if (std::string(argv[i]) == "--reaches") {
      reaches = true;
      continue;
    }
    clips.push_back(argv[i]);
  }
  if (clips.empty()) {
    const std::string dir = "/usr/share/assimp/models/BVH/";
    clips = {dir + "01_01.bvh", dir + "01_03.bvh", dir + "Boxing_Toes.bvh"};
  }
  auto hills = fabrik::LoadHeightmapPng(
      std::string(FABRIK_SOURCE_DIR) + "/assets/terrain/hills.png", 40.0f, 3.0f);
  if (!hills) {
    std::fprintf(stderr, "mocap_skate: %s\n", hills.error().c_str());
    return 1;
  }
  std::printf("%-14s %-5s %-4s %6s %6s %4s %7s %7s %7s %7s %7s %4s\n", "clip", "ground", "pose",
              "left", "right", "n", "skate", "worst", "below", "pop", "outrun", "rst");
  std::printf("%-14s %-5s %-4s %6s %6s %4s %7s %7s %7s %7s %7s %4s\n", "", "", "", "contact", "",
              "", "mm", "mm", "cm", "cm", "cm", "");
  // The last column: the joint and frame of the worst pop.
  std::vector<double> ik_us;
  for (const std::string& path : clips) {
    auto clip = LoadClipFile(path);
    if (!clip) {
      std::fprintf(stderr, "mocap_skate: %s\n", clip.error().c_str());
      return 1;
    }
    auto disguised = Disguised(clip.value());
    if (!disguised) {
      std::fprintf(stderr, "mocap_skate: %s\n", disguised.error().c_str());
      return 1;
    }
    std::string name = path.substr(path.find_last_of('/') + 1);
    name = name.substr(0, name.find('.'));
    for (int variant = 0; variant < 2; ++variant) {
      auto rig = MakeRig(variant == 0 ? std::move(clip.value()) : std::move(disguised.value()));
      if (!rig) {
        std::fprintf(stderr, "mocap_skate: %s\n", rig.error().c_str());
        return 1;
      }
      const std::string shown = variant == 0 ? name : name + "*";
      for (const Heightmap* ground : {static_cast<const Heightmap*>(nullptr),
                                      static_cast<const Heightmap*>(&hills.value())}) {
        if (!Play(rig.value(), shown, ground, ik_us)) return 1;
      }
    }
  }
  std::sort(ik_us.begin(), ik_us.end());
  double sum = 0.0;
  for (double v : ik_us) sum += v;
  std::printf(
      "\n*: joints renamed, unit changed. IK time per frame, one character (%zu frames): mean "
      "%.2f us, median %.2f us, 99th percentile %.2f us\n",
      ik_us.size(), sum / ik_us.size(), ik_us[ik_us.size() / 2], ik_us[ik_us.size() * 99 / 100]);
  if (!reaches) return 0;
  std::printf("\nReaches switched on and off, IK (cm; joint or frame of the worst):\n");
  std::printf("%-14s %-5s %6s %7s %-22s %7s %-22s %7s %-6s %7s\n", "clip", "ground", "target",
              "pop", "", "outrun", "", "arm pop", "", "arm outrun");
  for (const std::string& path : clips) {
    auto clip = LoadClipFile(path);
    auto rig = clip ? MakeRig(std::move(clip.value()))
                    : Result<std::shared_ptr<const Rig>>(fabrik::MakeError(clip.error()));
    if (!rig) {
      std::fprintf(stderr, "mocap_skate: %s\n", rig.error().c_str());
      return 1;
    }
    std::string name = path.substr(path.find_last_of('/') + 1);
    name = name.substr(0, name.find('.'));
    for (const Heightmap* ground : {static_cast<const Heightmap*>(nullptr),
                                    static_cast<const Heightmap*>(&hills.value())}) {
      for (int which = 0; which < 4; ++which) {
        if (!PlayReaches(rig.value(), name, ground, which)) return 1;
      }
    }
  }
  return 0;
}

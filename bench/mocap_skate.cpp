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
// Usage: mocap_skate [clip.bvh ...]
#include <algorithm>
#include <cstdio>
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
  std::printf("%-14s %-5s %-4s %5.0f%% %5.0f%% %4d %7.2f %7.2f %7.2f %7.2f %4d  %s\n", clip.c_str(),
              ground, pose, 100.0 * g.contact_share[kLeft], 100.0 * g.contact_share[kRight],
              g.contacts, 1000.0 * g.skate_mean, 1000.0 * g.skate_worst,
              100.0 * g.penetration_worst, 100.0 * g.pop_worst, g.restarts, at.c_str());
}

// Plays `rig` once on `ground`; prints the clip's and the IK's figures; appends IK times.
bool Play(const std::shared_ptr<const Rig>& rig, const std::string& name, const Heightmap* ground,
          std::vector<double>& ik_us) {
  auto character = Character::Create(rig);
  if (!character) {
    std::fprintf(stderr, "mocap_skate: %s\n", character.error().c_str());
    return false;
  }
  Character& c = character.value();
  c.SetTerrain(ground);
  if (ground) c.SetPlacement(Placement{12.0f, -12.0f, 0.7f});
  GroundingMeter raw(*rig, ground), ik(*rig, ground);
  const float dt = rig->clip.frame_time();
  for (int f = 0; f < rig->clip.frame_count(); ++f) {
    c.Update(static_cast<float>(f) * dt, dt);
    raw.Frame(f, c.animated(), c.animated(), c.restarted());
    ik.Frame(f, c.animated(), c.pose(), c.restarted());
    ik_us.push_back(c.last_ik_seconds() * 1e6);
  }
  const char* g = ground ? "hills" : "flat";
  Print(name, g, "clip", raw.Figures(), rig->clip);
  Print(name, g, "IK", ik.Figures(), rig->clip);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> clips;
  for (int i = 1; i < argc; ++i) clips.push_back(argv[i]);
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
  std::printf("%-14s %-5s %-4s %6s %6s %4s %7s %7s %7s %7s %4s\n", "clip", "ground", "pose", "left",
              "right", "n", "skate", "worst", "below", "pop", "rst");
  std::printf("%-14s %-5s %-4s %6s %6s %4s %7s %7s %7s %7s %4s\n", "", "", "", "contact", "", "",
              "mm", "mm", "cm", "cm", "");
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
  return 0;
}

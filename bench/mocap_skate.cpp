// mocap_skate: foot skate and ground penetration of motion-capture clips, the raw clip
// against full-body IK (docs/mocap.md: Figures), plus the IK time per frame of one character.
//
// For each clip (default: the packaged CMU 01_01 and 01_03) on flat ground and on the hills
// heightmap (assets/terrain/hills.png, 40 m square, 3 m high), one character plays the whole
// clip once at its own frame rate (dt = frame time): on flat ground placed at the origin
// facing +Z; on the hills placed at (12, -12) turned 0.7 rad, on the slopes of the south-east
// hill (the heightmap's centre is nearly flat).
//   * skate: for each contact (contacts.h) of each foot, how far the ankle slides
//     horizontally from where it was at the contact's first frame (the largest distance over
//     the contact); mean and worst over all contacts, cm;
//   * penetration: how far the ankle or the toe tip is below the ground, worst over the clip
//     (cm), and the share of frames with more than 1 cm;
// for the animated pose (the clip placed on the ground under its root) and for the final
// pose after IK. Usage: mocap_skate [clip.bvh ...]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "mocap/character.h"
#include "terrain/heightmap_png.h"

namespace {

using fabrik::Heightmap;
using namespace fabrik::mocap;

struct Figures {
  double slide_sum = 0.0, slide_worst = 0.0;
  int contacts = 0;
  double penetration_worst = 0.0;
  int frames_penetrating = 0;
};

struct Tracker {
  std::array<bool, 2> in_contact{};
  std::array<glm::vec3, 2> start{};
  std::array<double, 2> slide{};
  Figures fig;

  void Frame(const Pose& pose, const Rig& rig, const std::array<bool, 2>& contact,
             const Heightmap* ground) {
    double worst = 0.0;
    for (int side : {kLeft, kRight}) {
      const Limb& leg = rig.limbs.legs[side];
      const glm::vec3 ankle = pose.positions[leg.end()];
      if (contact[side]) {
        if (!in_contact[side]) {
          start[side] = ankle;
          slide[side] = 0.0;
        }
        slide[side] = std::max<double>(
            slide[side], std::hypot(ankle.x - start[side].x, ankle.z - start[side].z));
      } else if (in_contact[side]) {
        Close(side);
      }
      in_contact[side] = contact[side];
      for (int j : {leg.end(), leg.tip}) {
        const glm::vec3 p = pose.positions[j];
        const float g = ground ? ground->HeightAt(p.x, p.z) : 0.0f;
        worst = std::max<double>(worst, g - p.y);
      }
    }
    fig.penetration_worst = std::max(fig.penetration_worst, worst);
    if (worst > 0.01) ++fig.frames_penetrating;
  }
  void Close(int side) {
    fig.slide_sum += slide[side];
    fig.slide_worst = std::max(fig.slide_worst, slide[side]);
    ++fig.contacts;
  }
  void Finish() {
    for (int side : {kLeft, kRight}) {
      if (in_contact[side]) Close(side);
    }
  }
};

void Print(const char* clip, const char* ground, const char* pose, const Figures& f, int frames) {
  std::printf("%-8s %-6s %-5s %8d %10.2f %10.2f %12.2f %9.1f%%\n", clip, ground, pose, f.contacts,
              f.contacts ? 100.0 * f.slide_sum / f.contacts : 0.0, 100.0 * f.slide_worst,
              100.0 * f.penetration_worst, 100.0 * f.frames_penetrating / frames);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> clips;
  for (int i = 1; i < argc; ++i) clips.push_back(argv[i]);
  if (clips.empty()) {
    clips = {"/usr/share/assimp/models/BVH/01_01.bvh", "/usr/share/assimp/models/BVH/01_03.bvh"};
  }
  auto hills = fabrik::LoadHeightmapPng(
      std::string(FABRIK_SOURCE_DIR) + "/assets/terrain/hills.png", 40.0f, 3.0f);
  if (!hills) {
    std::fprintf(stderr, "mocap_skate: %s\n", hills.error().c_str());
    return 1;
  }
  std::printf("%-8s %-6s %-5s %8s %10s %10s %12s %10s\n", "clip", "ground", "pose", "contacts",
              "skate cm", "worst cm", "below cm", ">1cm");
  std::vector<double> ik_us;
  for (const std::string& path : clips) {
    auto clip = LoadClipFile(path);
    if (!clip) {
      std::fprintf(stderr, "mocap_skate: %s\n", clip.error().c_str());
      return 1;
    }
    auto rig = MakeRig(std::move(clip.value()));
    if (!rig) {
      std::fprintf(stderr, "mocap_skate: %s\n", rig.error().c_str());
      return 1;
    }
    const Rig& r = *rig.value();
    std::string name = path.substr(path.find_last_of('/') + 1);
    name = name.substr(0, name.find('.'));
    for (const Heightmap* ground :
         {static_cast<const Heightmap*>(nullptr), static_cast<const Heightmap*>(&hills.value())}) {
      auto character = Character::Create(rig.value());
      if (!character) {
        std::fprintf(stderr, "mocap_skate: %s\n", character.error().c_str());
        return 1;
      }
      Character& c = character.value();
      c.SetTerrain(ground);
      if (ground) c.SetPlacement(Placement{12.0f, -12.0f, 0.7f});
      Tracker raw, ik;
      const float dt = r.clip.frame_time();
      for (int f = 0; f < r.clip.frame_count(); ++f) {
        c.Update(static_cast<float>(f) * dt, dt);
        const std::array<bool, 2> contact{r.contacts.contact[kLeft][f] != 0,
                                          r.contacts.contact[kRight][f] != 0};
        raw.Frame(c.animated(), r, contact, ground);
        ik.Frame(c.pose(), r, contact, ground);
        ik_us.push_back(c.last_ik_seconds() * 1e6);
      }
      raw.Finish();
      ik.Finish();
      const char* g = ground ? "hills" : "flat";
      Print(name.c_str(), g, "clip", raw.fig, r.clip.frame_count());
      Print(name.c_str(), g, "IK", ik.fig, r.clip.frame_count());
    }
  }
  std::sort(ik_us.begin(), ik_us.end());
  double sum = 0.0;
  for (double v : ik_us) sum += v;
  std::printf(
      "\nIK time per frame, one character (%zu frames): mean %.2f us, median %.2f us, "
      "99th percentile %.2f us\n",
      ik_us.size(), sum / ik_us.size(), ik_us[ik_us.size() / 2], ik_us[ik_us.size() * 99 / 100]);
  return 0;
}

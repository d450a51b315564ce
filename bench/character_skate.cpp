// character_skate: how well the skinned human's feet stay on the ground when it plays the
// packaged clips with the mocap scene's IK (docs/characters.md: The human's feet), measured on
// the character's own bones and mesh rather than on the clip's joints.
//
// Each clip (default: the packaged CMU 01_01 and 01_03 and Boxing_Toes) is loaded as the mocap
// scene loads it under a skinned character (scenes/mocap/mocap_skin.h): scaled so that its
// legs are the character's. One mocap::Character plays it once at its own frame rate with the
// scene's IK, on flat ground at the origin and on the hills heightmap
// (assets/terrain/hills.png, 40 m square, 3 m high) at (12, -12) turned 0.7 rad, as
// mocap_skate places it; every frame the scene's MocapSkin retargets the final pose onto the
// character and makes its skinning transforms, and the character's foot vertices are skinned
// by dual quaternions to measure the mesh. Per clip and ground:
//   * contact shares and contacts: the clip's (mocap/contacts.h), as the scene uses them;
//   * skate: GroundingMeter's definition (mocap/grounding_meter.h) on the character's bones:
//     per contact, the largest horizontal distance its heel (the ankle bone) and ball (the
//     ankle's child towards the toe) move from where each went down, while down; mean, worst;
//     `clip skate`: the same on the clip's joints (GroundingMeter), for comparison;
//   * below (bones): how far the ankle, ball or toe-tip bone goes below the ground, worst
//     from frame 1 on (CMU's frame 0 is a reference pose the clip jumps out of, which
//     mocap_skate leaves out of its pops too);
//   * below (mesh): how far the lowest vertex of either foot (the vertices whose largest
//     weight is on the ankle or a bone below it) goes below the ground under it, worst from
//     frame 1 on, and where (that vertex's bone and the frame); and
//     `sole` the lowest foot vertex's mean height above the ground under it while its heel
//     is down;
//   * hold: while a point of the character's foot is held in full (MocapSkin::foot_holds,
//     weight 1), how far its bone (the ankle for the heel, the toe bone for the ball) is from
//     where it is held, mean and worst; `clip pin`: while a foot is fully pinned (pin weight 1),
//     how far the clip's ankle is from its pin (the IK's own miss), worst;
//   * free: in frames with neither foot pinned, how far the character's ankle bones are from
//     the clip's ankles (the clip scaled to the character's legs), worst;
//   * twist: the worst turn of a bone about its direction to its first child between two
//     frames, from frame 2 on, the character's bones and the clip's joints (the IK's pose);
//   * CPU time per frame of the IK (Character::Update after sampling), the retargeting and
//     the skinning transforms (MocapSkin::Frame's retarget_us and skin_us), one character.
// Usage: character_skate [model.x] [clip.bvh ...]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>
#include <span>
#include <string>
#include <tuple>
#include <vector>

#include "character/cpu_skin.h"
#include "character/pose.h"
#include "mocap/grounding_meter.h"
#include "scenes/mocap/mocap_rig.h"
#include "scenes/mocap/mocap_skin.h"
#include "terrain/heightmap_png.h"

namespace {

using fabrik::Heightmap;
using fabrik::MocapSkin;
using namespace fabrik::mocap;

// The character's foot: its ankle bone, ball bone, toe-tip bone, and its foot vertices.
struct FootBones {
  int ankle = -1, ball = -1, tip = -1;
};

struct Figures {
  int frames = 0, contacts = 0;
  double skate_sum = 0.0, skate_worst = 0.0;
  double below_bones = 0.0, below_mesh = 0.0;
  double sole_sum = 0.0;
  int sole_frames = 0;
  double pin_sum = 0.0, pin_worst = 0.0;
  int pin_frames = 0;
  double free_worst = 0.0;
  double clip_pin_worst = 0.0;  // the clip's ankle to the pin
  int deepest_bone = -1, deepest_frame = -1;
};

// Per bone of a skeleton (parents first): its first child off its joint, or -1.
template <typename Position>
std::vector<int> AimChildren(std::span<const int> parents, Position position) {
  std::vector<int> aim(parents.size(), -1);
  for (std::size_t b = 1; b < parents.size(); ++b) {
    const int p = parents[b];
    if (p >= 0 && aim[p] < 0 && glm::distance(position(b), position(p)) > 1e-4f) {
      aim[p] = static_cast<int>(b);
    }
  }
  return aim;
}

// The worst twist of a bone between two frames: the turn of its world rotation from the frame
// before, its part about the bone's direction to its aim (a child off its joint), degrees.
class TwistMeter {
 public:
  explicit TwistMeter(std::vector<int> aim) : aim_(std::move(aim)), last_(aim_.size()) {}
  // `compare`: false for a frame that restarts the clip (nothing compared).
  void Frame(std::span<const glm::vec3> positions, std::span<const glm::quat> rotations, int f,
             bool compare) {
    for (std::size_t b = 0; b < aim_.size(); ++b) {
      if (compare && have_ && aim_[b] >= 0) {
        const glm::vec3 d = positions[static_cast<std::size_t>(aim_[b])] - positions[b];
        if (glm::length(d) > 1e-6f) {
          const glm::vec3 axis = glm::normalize(d);
          const glm::quat q = rotations[b] * glm::inverse(last_[b]);
          const glm::vec3 along = glm::dot(glm::vec3(q.x, q.y, q.z), axis) * axis;
          const float len = std::sqrt(q.w * q.w + glm::dot(along, along));
          const float twist =
              len < 1e-9f ? 180.0f
                          : glm::degrees(2.0f * std::acos(std::min(1.0f, std::abs(q.w) / len)));
          if (twist > worst) worst = twist, bone = static_cast<int>(b), frame = f;
        }
      }
      last_[b] = rotations[b];
    }
    have_ = true;
  }
  float worst = 0.0f;
  int bone = -1, frame = -1;

 private:
  std::vector<int> aim_;
  std::vector<glm::quat> last_;
  bool have_ = false;
};

// GroundingMeter's skate on the character's bones (the header comment).
class BoneSkate {
 public:
  void Frame(const ContactTrack& track, int f, int side, const glm::vec3& heel,
             const glm::vec3& ball, Figures& out) {
    const bool contact = track.contact[side][f] != 0;
    const bool down[2] = {track.heel[side][f] != 0, track.ball[side][f] != 0};
    const glm::vec3 p[2] = {heel, ball};
    if (!contact) {
      Close(side, out);
      down_[side][0] = down_[side][1] = false;
      return;
    }
    if (!in_[side]) drift_[side] = 0.0;
    in_[side] = true;
    for (int k = 0; k < 2; ++k) {
      if (down[k] && !down_[side][k]) start_[side][k] = p[k];
      if (down[k]) {
        drift_[side] = std::max<double>(
            drift_[side], std::hypot(p[k].x - start_[side][k].x, p[k].z - start_[side][k].z));
      }
      down_[side][k] = down[k];
    }
  }
  void Close(int side, Figures& out) {
    if (!in_[side]) return;
    out.skate_sum += drift_[side];
    out.skate_worst = std::max(out.skate_worst, drift_[side]);
    ++out.contacts;
    in_[side] = false;
  }

 private:
  bool in_[2] = {false, false};
  bool down_[2][2] = {{false, false}, {false, false}};
  glm::vec3 start_[2][2] = {};
  double drift_[2] = {0.0, 0.0};
};

// The first bone below `from` on the path to its descendant `tip` that does not coincide with
// it in the bind pose; -1 if none.
int NextBone(const fabrik::character::Skeleton& sk,
             const std::vector<fabrik::character::BoneTransform>& bind, int from, int tip) {
  std::vector<int> path;
  for (int b = tip; b >= 0 && b != from; b = sk.parents[b]) path.push_back(b);
  for (auto it = path.rbegin(); it != path.rend(); ++it) {
    if (glm::distance(bind[*it].translation, bind[from].translation) > 1e-4f) return *it;
  }
  return -1;
}

bool Below(const fabrik::character::Skeleton& sk, int bone, int ankle) {
  for (int b = bone; b >= 0; b = sk.parents[b]) {
    if (b == ankle) return true;
  }
  return false;
}

double Percentile(std::vector<double> v, double q) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<std::size_t>(q * static_cast<double>(v.size())))];
}

struct Times {
  std::vector<double> total, ik, retarget, skin;
};

bool Play(const std::string& model_path, const std::string& clip_path, const std::string& name,
          const Heightmap* ground, bool hills, Times& times) {
  auto loaded = MocapSkin::Load(model_path, model_path);
  if (!loaded) return std::fprintf(stderr, "character_skate: %s\n", loaded.error().c_str()), false;
  MocapSkin skin = std::move(loaded).value();
  // As the scene loads a clip under a character (MocapScene::LoadWith).
  auto rig = fabrik::LoadRig(clip_path, 0.0f);
  if (!rig) return std::fprintf(stderr, "character_skate: %s\n", rig.error().c_str()), false;
  auto ratio = skin.ScaleFor(rig.value()->clip);
  if (!ratio) return std::fprintf(stderr, "character_skate: %s\n", ratio.error().c_str()), false;
  rig = fabrik::LoadRig(clip_path, rig.value()->clip.scale() * ratio.value());
  if (!rig || !skin.Bind(*rig.value())) return false;
  auto made = Character::Create(rig.value());
  if (!made) return std::fprintf(stderr, "character_skate: %s\n", made.error().c_str()), false;
  Character& c = made.value();
  c.SetTerrain(ground);
  if (hills) c.SetPlacement(Placement{12.0f, -12.0f, 0.7f});

  const fabrik::character::Model& model = skin.model();
  const fabrik::character::Skeleton& sk = model.skeleton;
  std::vector<fabrik::character::BoneTransform> bind(sk.names.size());
  (void)fabrik::character::BindPose(sk, bind);
  const Limbs& limbs = *skin.limbs();
  FootBones feet[2];
  std::vector<fabrik::character::Vertex> foot_vertices;
  for (int side : {kLeft, kRight}) {
    const Limb& leg = limbs.legs[side];
    feet[side].ankle = leg.end();
    feet[side].tip = leg.tip;
    feet[side].ball = NextBone(sk, bind, leg.end(), leg.tip);
    if (feet[side].ball < 0) feet[side].ball = leg.end();
    if (feet[side].tip < 0) feet[side].tip = feet[side].ball;
  }
  for (const auto& v : model.vertices) {
    const int b = v.bones[0];
    if (Below(sk, b, feet[0].ankle) || Below(sk, b, feet[1].ankle)) foot_vertices.push_back(v);
  }
  std::vector<glm::vec3> points(foot_vertices.size()), normals(foot_vertices.size());

  const auto height = [ground](const glm::vec3& p) { return ground->HeightAt(p.x, p.z); };

  GroundingMeter clip_meter(*rig.value(), ground);
  BoneSkate skate;
  Figures fig;
  const ContactTrack& track = rig.value()->contacts;
  const float dt = rig.value()->clip.frame_time();
  const Clip& clip = rig.value()->clip;
  TwistMeter twist(AimChildren(std::span<const int>(sk.parents),
                               [&](std::size_t b) { return bind[b].translation; }));
  TwistMeter clip_twist(
      AimChildren(clip.parents(), [&](std::size_t j) { return clip.rest_positions()[j]; }));
  std::vector<glm::vec3> bone_positions(sk.names.size());
  std::vector<glm::quat> bone_rotations(sk.names.size());
  for (int f = 0; f < rig.value()->clip.frame_count(); ++f) {
    c.Update(static_cast<float>(f) * dt, dt);
    std::array<MocapSkin::FootDown, 2> down{};
    for (const fabrik::mocap::Side side : {fabrik::mocap::kLeft, fabrik::mocap::kRight}) {
      down[side] = MocapSkin::DownOf(c.foot(side));
    }
    skin.SetFootContacts(down, c.rig().clip.frame_time(), c.applied_ik_weight());
    (void)skin.Frame(c.pose(), true, {0.0f, 0.0f}, ground);
    // CMU's frame 0 is a reference pose the clip jumps out of: twists from frame 1 on.
    for (std::size_t b = 0; b < bone_positions.size(); ++b) {
      bone_positions[b] = skin.pose()[b].translation;
      bone_rotations[b] = skin.pose()[b].rotation;
    }
    twist.Frame(bone_positions, bone_rotations, f, f > 1 && !c.restarted());
    clip_twist.Frame(c.pose().positions, c.pose().rotations, f, f > 1 && !c.restarted());
    clip_meter.Frame(f, c.animated(), c.pose(), c.restarted());
    const double ik = c.last_ik_seconds() * 1e6;
    times.ik.push_back(ik);
    times.retarget.push_back(skin.retarget_us());
    times.skin.push_back(skin.skin_us());
    times.total.push_back(ik + skin.retarget_us() + skin.skin_us());
    ++fig.frames;
    const auto& pose = skin.pose();
    (void)fabrik::character::SkinVertices(
        foot_vertices, skin.bones(), fabrik::character::SkinMethod::kDualQuat, points, normals);
    bool any_pin = false;
    for (int side : {kLeft, kRight}) {
      const FootBones& fb = feet[side];
      const glm::vec3 ankle = pose[fb.ankle].translation;
      skate.Frame(track, f, side, ankle, pose[fb.ball].translation, fig);
      for (int b : {fb.ankle, fb.ball, fb.tip}) {
        const glm::vec3 p = pose[b].translation;
        if (f > 0) fig.below_bones = std::max<double>(fig.below_bones, height(p) - p.y);
      }
      const FootState& foot = c.foot(static_cast<Side>(side));
      any_pin = any_pin || foot.pinned;
      const MocapSkin::FootHold& hold = skin.foot_holds()[side];
      for (const auto& [weight, held, bone] :
           {std::tuple{hold.heel_weight, hold.heel, fb.ankle},
            std::tuple{hold.ball_weight, hold.ball, fb.ball}}) {
        if (weight < 1.0f) continue;
        const double d = glm::distance(pose[bone].translation, held);
        fig.pin_sum += d;
        fig.pin_worst = std::max(fig.pin_worst, d);
        ++fig.pin_frames;
      }
      if (foot.pinned && foot.pin_weight >= 1.0f) {
        const int clip_ankle = rig.value()->limbs.legs[side].end();
        fig.clip_pin_worst = std::max<double>(
            fig.clip_pin_worst, glm::distance(c.pose().positions[clip_ankle], foot.pin));
      }
    }
    float lowest[2] = {1e9f, 1e9f};
    for (std::size_t i = 0; i < points.size(); ++i) {
      const int side = Below(sk, foot_vertices[i].bones[0], feet[0].ankle) ? 0 : 1;
      const float h = points[i].y - height(points[i]);
      lowest[side] = std::min(lowest[side], h);
      if (-h > fig.below_mesh && f > 0) {  // frame 0: see the header comment
        fig.below_mesh = -h;
        fig.deepest_bone = foot_vertices[i].bones[0];
        fig.deepest_frame = f;
      }
    }
    for (int side : {kLeft, kRight}) {
      if (f > 0) fig.below_mesh = std::max<double>(fig.below_mesh, -lowest[side]);
      if (track.heel[side][f] != 0) {
        fig.sole_sum += lowest[side];
        ++fig.sole_frames;
      }
    }
    if (!any_pin) {
      for (int side : {kLeft, kRight}) {
        const int clip_ankle = rig.value()->limbs.legs[side].end();
        fig.free_worst = std::max<double>(
            fig.free_worst,
            glm::distance(pose[feet[side].ankle].translation, c.pose().positions[clip_ankle]));
      }
    }
  }
  skate.Close(kLeft, fig);
  skate.Close(kRight, fig);
  const GroundingFigures g = clip_meter.Figures();
  std::printf(
      "%-12s %-5s %3.0f%% %3.0f%% %3d %6.2f %6.2f %6.2f %6.2f %6.2f %6.2f %-18s %6.2f %6.2f %6.2f "
      "%6.2f %6.2f %5.1f/%.1f %5.1f %-22s %5.1f %s\n",
      name.c_str(), hills ? "hills" : "flat", 100.0 * g.contact_share[kLeft],
      100.0 * g.contact_share[kRight], fig.contacts,
      fig.contacts ? 1000.0 * fig.skate_sum / fig.contacts : 0.0, 1000.0 * fig.skate_worst,
      1000.0 * g.skate_mean, 1000.0 * g.skate_worst, 100.0 * fig.below_bones,
      100.0 * fig.below_mesh,
      (fig.deepest_bone >= 0 ? sk.names[fig.deepest_bone] + "@" + std::to_string(fig.deepest_frame)
                             : std::string("-"))
          .c_str(),
      fig.sole_frames ? 100.0 * fig.sole_sum / fig.sole_frames : 0.0,
      fig.pin_frames ? 1000.0 * fig.pin_sum / fig.pin_frames : 0.0, 1000.0 * fig.pin_worst,
      1000.0 * fig.clip_pin_worst, 100.0 * fig.free_worst, 100.0 * skin.foot_lift()[kLeft],
      100.0 * skin.foot_lift()[kRight], twist.worst,
      (twist.bone >= 0 ? sk.names[twist.bone] + "@" + std::to_string(twist.frame) : "-").c_str(),
      clip_twist.worst,
      (clip_twist.bone >= 0 ? clip.name(clip_twist.bone) + "@" + std::to_string(clip_twist.frame)
                            : "-")
          .c_str());
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  std::string model = "/usr/share/assimp/models/X/BCN_Epileptic.X";
  std::vector<std::string> clips;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a.size() > 2 && (a.substr(a.size() - 2) == ".x" || a.substr(a.size() - 2) == ".X")) {
      model = a;
    } else {
      clips.push_back(a);
    }
  }
  if (clips.empty()) {
    const std::string dir = "/usr/share/assimp/models/BVH/";
    clips = {dir + "01_01.bvh", dir + "01_03.bvh", dir + "Boxing_Toes.bvh"};
  }
  auto hills = fabrik::LoadHeightmapPng(
      std::string(FABRIK_SOURCE_DIR) + "/assets/terrain/hills.png", 40.0f, 3.0f);
  auto flat = Heightmap::Flat(40.0f);  // as the scene's flat ground
  if (!flat) return std::fprintf(stderr, "character_skate: %s\n", flat.error().c_str()), 1;
  if (!hills) {
    std::fprintf(stderr, "character_skate: %s\n", hills.error().c_str());
    return 1;
  }
  std::printf("%-12s %-5s %4s %4s %3s %6s %6s %6s %6s %6s %6s %-18s %6s %6s %6s %6s %6s %s\n",
              "clip", "ground", "left", "right", "n", "skate", "worst", "clip", "clip", "below",
              "below", "deepest", "sole", "hold", "hold", "clip", "free", "lift   twist, clip's");
  std::printf("%-12s %-5s %4s %4s %3s %6s %6s %6s %6s %6s %6s %-18s %6s %6s %6s %6s %6s %s\n", "",
              "", "cont", "", "", "mm", "mm", "mm", "worst", "bones", "mesh", "(bone@frame)", "cm",
              "mm", "worst", "pin", "cm", "cm L/R deg (bone@frame)");
  Times times;
  for (const std::string& path : clips) {
    std::string name = path.substr(path.find_last_of('/') + 1);
    name = name.substr(0, name.find('.'));
    for (const bool on_hills : {false, true}) {
      const Heightmap* ground = on_hills ? &hills.value() : &flat.value();
      if (!Play(model, path, name, ground, on_hills, times)) return 1;
    }
  }
  std::printf(
      "\nCPU time per frame, one character (%zu frames), median / 99th percentile, us: "
      "IK %.2f / %.2f, retargeting %.2f / %.2f, skinning transforms %.2f / %.2f, "
      "together %.2f / %.2f\n",
      times.total.size(), Percentile(times.ik, 0.5), Percentile(times.ik, 0.99),
      Percentile(times.retarget, 0.5), Percentile(times.retarget, 0.99),
      Percentile(times.skin, 0.5), Percentile(times.skin, 0.99), Percentile(times.total, 0.5),
      Percentile(times.total, 0.99));
  return 0;
}

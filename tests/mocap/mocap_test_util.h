// mocap_test_util.h - BVH files written by the tests, and loading helpers.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <random>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "mocap/bake.h"
#include "mocap/character.h"
#include "mocap/clip.h"

namespace fabrik::mocap::testing {

inline const char* kClip0101 = "/usr/share/assimp/models/BVH/01_01.bvh";
inline const char* kClip0103 = "/usr/share/assimp/models/BVH/01_03.bvh";
inline const char* kClipBoxing = "/usr/share/assimp/models/BVH/Boxing_Toes.bvh";
// Every packaged clip.
inline const char* kPackagedClips[] = {kClip0101, kClip0103, kClipBoxing};

// A fresh folder under the system temp folder, removed with the object.
class TempDir {
 public:
  TempDir() {
    std::random_device rd;
    path_ = std::filesystem::temp_directory_path() /
            ("fabrik_mocap_" + std::to_string(rd()) + std::to_string(rd()));
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  std::string Write(const std::string& name, const std::string& text) const {
    const auto p = path_ / name;
    std::ofstream(p, std::ios::binary) << text;
    return p.string();
  }
  std::string path(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

inline std::string ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

inline void WriteText(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

// The BVH `text` with every ROOT and JOINT renamed b00, b01, ... (in file order): a skeleton
// whose names tell nothing.
inline std::string RenameJoints(const std::string& text) {
  const std::size_t motion = text.find("MOTION");
  std::string hierarchy = text.substr(0, motion);
  const std::regex joint(R"((ROOT|JOINT)[ \t]+[^\s{]+)");
  std::string out;
  int n = 0;
  auto begin = std::sregex_iterator(hierarchy.begin(), hierarchy.end(), joint);
  std::size_t last = 0;
  for (auto it = begin; it != std::sregex_iterator(); ++it, ++n) {
    out += hierarchy.substr(last, static_cast<std::size_t>(it->position()) - last);
    out += (*it)[1].str() + " b" + (n < 10 ? "0" : "") + std::to_string(n);
    last = static_cast<std::size_t>(it->position() + it->length());
  }
  out += hierarchy.substr(last);
  return motion == std::string::npos ? out : out + text.substr(motion);
}

// `clip` written again in another unit (`metres_per_unit`) with every joint renamed b00,
// b01, ... (End Sites stay End Sites), read back with the scale rule: the same motion under
// names and numbers that tell nothing.
inline Result<Clip> Disguised(const Clip& clip, float metres_per_unit) {
  BvhSkeleton skeleton = ClipSkeleton(clip);
  BvhFrames frames = ClipFrames(clip);
  const float factor = clip.scale() / metres_per_unit;
  for (std::size_t j = 0; j < skeleton.joints.size(); ++j) {
    skeleton.joints[j].name = (j < 10 ? "b0" : "b") + std::to_string(j);
    skeleton.joints[j].offset *= factor;
  }
  for (glm::vec3& t : frames.translations) t *= factor;
  Result<std::string> text = FormatBvh(skeleton, frames);
  if (!text) return MakeError(text.error());
  return LoadClipFromMemory(text.value(), clip.source() + " (disguised)");
}

// A joint of a test skeleton, in depth-first order (parent index smaller).
struct TestJoint {
  std::string name;
  int parent;
  glm::vec3 offset;       // metres
  bool end_site = false;  // an End Site (no channels, no children)
};

// A standing humanoid in metres, facing +Z, left towards +X, 1.78 m tall (toe tips at
// y = 0.02 relative to the lowest point... heights from 0.02 to 1.8 with the root at 1.0).
// Names follow CMU-like spelling, or j00, j01, ... when `numbered`.
inline std::vector<TestJoint> Humanoid(bool numbered = false) {
  std::vector<TestJoint> j;
  auto add = [&](const char* name, int parent, glm::vec3 offset, bool end = false) {
    j.push_back({name, parent, offset, end});
    return static_cast<int>(j.size()) - 1;
  };
  const int hips = add("Hips", -1, {0, 1.0f, 0});
  for (float s : {1.0f, -1.0f}) {
    const bool left = s > 0;
    int up = add(left ? "LeftUpLeg" : "RightUpLeg", hips, {0.1f * s, -0.05f, 0});
    int leg = add(left ? "LeftLeg" : "RightLeg", up, {0, -0.45f, 0.0f});
    int foot = add(left ? "LeftFoot" : "RightFoot", leg, {0, -0.43f, 0});
    int toe = add(left ? "LeftToe" : "RightToe", foot, {0, -0.05f, 0.12f});
    add("", toe, {0, 0, 0.05f}, true);
  }
  const int spine = add("Spine", hips, {0, 0.1f, 0});
  const int chest = add("Chest", spine, {0, 0.25f, 0});
  const int neck = add("Neck", chest, {0, 0.2f, 0});
  const int head = add("Head", neck, {0, 0.1f, 0});
  add("", head, {0, 0.15f, 0}, true);
  for (float s : {1.0f, -1.0f}) {
    const bool left = s > 0;
    int sh = add(left ? "LeftShoulder" : "RightShoulder", chest, {0.05f * s, 0.15f, 0});
    int arm = add(left ? "LeftArm" : "RightArm", sh, {0.12f * s, 0, 0});
    int fore = add(left ? "LeftForeArm" : "RightForeArm", arm, {0.28f * s, 0, 0});
    int hand = add(left ? "LeftHand" : "RightHand", fore, {0.25f * s, 0, 0});
    add("", hand, {0.18f * s, 0, 0}, true);
  }
  if (numbered) {
    for (std::size_t i = 0; i < j.size(); ++i) {
      if (!j[i].end_site) j[i].name = (i < 10 ? "j0" : "j") + std::to_string(i);
    }
  }
  return j;
}

// Index of the joint named `name` among the non-End-Site joints of `joints`... as a Clip
// stores it (the same depth-first order).
inline int IndexOf(const Clip& clip, const std::string& name) {
  for (int i = 0; i < clip.joint_count(); ++i) {
    if (clip.name(i) == name) return i;
  }
  return -1;
}

// Writes a BVH: offsets in file units (metres / unit), the root with 6 channels
// (positions then `order`), every other joint with 3 rotation channels in `order`.
// frame(f, values) fills one frame's values: root position (metres) then per joint
// (depth-first, End Sites skipped) three angles in degrees in `order`.
inline std::string MakeBvh(const std::vector<TestJoint>& joints, float unit, int frames,
                           const std::function<void(int, std::vector<float>&)>& frame,
                           const std::string& order = "Zrotation Xrotation Yrotation",
                           float frame_time = 1.0f / 120.0f) {
  std::ostringstream out;
  out.precision(7);
  out << "HIERARCHY\n";
  std::function<void(int, int)> write = [&](int i, int depth) {
    const std::string pad(depth, '\t');
    const TestJoint& j = joints[i];
    const glm::vec3 o = j.offset / unit;
    if (j.end_site) {
      out << pad << "End Site\n"
          << pad << "{\n"
          << pad << "\tOFFSET " << o.x << ' ' << o.y << ' ' << o.z << '\n'
          << pad << "}\n";
      return;
    }
    out << pad << (j.parent < 0 ? "ROOT " : "JOINT ") << j.name << '\n' << pad << "{\n";
    out << pad << "\tOFFSET " << o.x << ' ' << o.y << ' ' << o.z << '\n';
    out << pad << "\tCHANNELS " << (j.parent < 0 ? "6 Xposition Yposition Zposition " : "3 ")
        << order << '\n';
    for (std::size_t c = 0; c < joints.size(); ++c) {
      if (joints[c].parent == i) write(static_cast<int>(c), depth + 1);
    }
    out << pad << "}\n";
  };
  write(0, 0);
  int channel_joints = 0;
  for (const TestJoint& j : joints) channel_joints += j.end_site ? 0 : 1;
  out << "MOTION\nFrames: " << frames << "\nFrame Time: " << frame_time << '\n';
  std::vector<float> values(3 + 3 * channel_joints);
  for (int f = 0; f < frames; ++f) {
    std::fill(values.begin(), values.end(), 0.0f);
    values[0] = joints[0].offset.x;
    values[1] = joints[0].offset.y;
    values[2] = joints[0].offset.z;
    frame(f, values);
    for (int k = 0; k < 3; ++k) values[k] /= unit;
    for (std::size_t k = 0; k < values.size(); ++k) out << (k ? " " : "") << values[k];
    out << '\n';
  }
  return out.str();
}

// Channel slot (index into a frame's values) of the first rotation channel of the joint
// named `name` (End Sites skipped).
inline int AngleSlot(const std::vector<TestJoint>& joints, const std::string& name) {
  int k = 0;
  for (const TestJoint& j : joints) {
    if (j.end_site) continue;
    if (j.name == name) return 3 + 3 * k;
    ++k;
  }
  return -1;
}

// The rig of a BVH text (the clip loaded from memory, named `name` in messages).
inline Result<std::shared_ptr<const Rig>> RigFromText(const std::string& text,
                                                      const std::string& name) {
  Result<Clip> clip = LoadClipFromMemory(text, name);
  if (!clip) return MakeError(clip.error());
  return MakeRig(std::move(clip.value()));
}

inline std::shared_ptr<const Rig> LoadRig(const std::string& path, float scale = 0.0f) {
  Result<Clip> clip = LoadClipFile(path, ClipLoadOptions{scale});
  EXPECT_TRUE(clip.ok()) << clip.error();
  if (!clip) return nullptr;
  auto rig = MakeRig(std::move(clip.value()));
  EXPECT_TRUE(rig.ok()) << rig.error();
  return rig ? rig.value() : nullptr;
}

}  // namespace fabrik::mocap::testing

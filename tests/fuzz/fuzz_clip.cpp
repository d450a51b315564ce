// libFuzzer target: arbitrary bytes through the BVH clip loader (mocap/clip.h: the header
// guard, then Assimp), with the default scale rule and with a given scale. Checks: no crash;
// an accepted clip keeps the documented limits, its parents come before their children, its
// subtree ranges nest, its scale and frame time are in range, and sampling it at assorted
// times gives finite positions and unit rotations.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <glm/geometric.hpp>
#include <string>
#include <string_view>

#include "mocap/clip.h"
#include "mocap/clip_sample.h"

namespace {

void Check(bool condition, const char* what) {
  if (!condition) {
    std::fprintf(stderr, "fuzz_clip: broken promise: %s\n", what);
    std::abort();
  }
}

void CheckClip(const fabrik::mocap::Clip& clip) {
  using namespace fabrik::mocap;
  const int joints = clip.joint_count();
  Check(joints >= 1 && joints <= kMaxJoints, "joint count out of limits");
  Check(clip.frame_count() >= 1 && clip.frame_count() <= kMaxFrames, "frame count out of limits");
  Check(static_cast<std::size_t>(clip.frame_count()) * joints <= kMaxSamples, "samples");
  Check(clip.frame_time() >= kMinFrameTime && clip.frame_time() <= kMaxFrameTime, "frame time");
  Check(clip.scale() >= kMinScale * 0.999f && std::isfinite(clip.scale()), "scale");
  Check(clip.parents()[0] == -1, "root parent");
  Check(clip.subtree_end(0) == joints, "root subtree");
  for (int j = 1; j < joints; ++j) {
    const int p = clip.parents()[j];
    Check(p >= 0 && p < j, "parent order");
    Check(clip.subtree_end(j) <= clip.subtree_end(p), "subtree nesting");
  }
  Pose pose;
  pose.Resize(joints);
  const float times[] = {0.0f,
                         0.5f * clip.frame_time(),
                         0.37f * clip.duration(),
                         clip.duration(),
                         2.0f * clip.duration() + 1.0f,
                         -1.0f};
  for (float t : times) {
    SampleClip(clip, WrapClipTime(clip, t), pose);
    for (int j = 0; j < joints; ++j) {
      const glm::vec3& p = pose.positions[j];
      Check(std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z), "position NaN");
      Check(std::fabs(glm::length(pose.rotations[j]) - 1.0f) < 1e-3f, "rotation not unit");
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  for (float scale : {0.0f, 0.01f}) {
    auto clip = fabrik::mocap::LoadClipFromMemory(bytes, "fuzz", {scale});
    if (clip) {
      CheckClip(clip.value());
    } else {
      Check(!clip.error().empty(), "empty error message");
    }
  }
  return 0;
}

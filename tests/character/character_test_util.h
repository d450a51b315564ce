// character_test_util.h - the packaged models and small helpers shared by the character tests.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "character/model.h"
#include "character/pose.h"

namespace fabrik::character::testing {

// Debian's assimp-testmodels (docs/characters.md: What each file gives).
inline const char* kHuman = "/usr/share/assimp/models/X/BCN_Epileptic.X";
inline const char* kQuadruped = "/usr/share/assimp/models/X/Testwuson.X";

inline Model LoadOrFail(const std::string& path, const LoadOptions& options = {}) {
  Result<Model> m = LoadModelFile(path, options);
  EXPECT_TRUE(m.ok()) << m.error();
  return m.ok() ? std::move(m).value() : Model{};
}

inline Model LoadTextOrFail(const std::string& text, const LoadOptions& options = {}) {
  Result<Model> m = LoadModelFromMemory(text, "x", "test.x", options);
  EXPECT_TRUE(m.ok()) << m.error();
  return m.ok() ? std::move(m).value() : Model{};
}

inline std::vector<BoneTransform> Bind(const Model& m) {
  std::vector<BoneTransform> pose(m.skeleton.names.size());
  EXPECT_TRUE(BindPose(m.skeleton, pose));
  return pose;
}

inline std::vector<BoneTransform> Animated(const Model& m, const Animation& a, float t) {
  std::vector<BoneTransform> pose(m.skeleton.names.size());
  EXPECT_TRUE(SampleAnimation(m.skeleton, a, t, pose));
  EXPECT_TRUE(LocalToModel(m.skeleton, pose, pose));
  return pose;
}

}  // namespace fabrik::character::testing

// Bad model files (docs/characters.md: Errors): each gets one error naming the file and the
// problem, or, for what leaves a usable model, one warning line. The files are small .x texts
// written here.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "character/model.h"
#include "character_test_util.h"
#include "gltf_writer.h"
#include "x_writer.h"

// LeakSanitizer (the sanitizer build): Debian's Assimp, which is not instrumented, keeps a few
// small allocations after some malformed files (a truncated .x among them), as the fuzzers'
// suppressions say (tests/fuzz/lsan.supp). Leaks allocated inside it are not this code's.
extern "C" const char* __lsan_default_suppressions() { return "leak:libassimp.so\n"; }

namespace fabrik::character {
namespace {

using namespace testing;

std::string TempPath(const std::string& name) { return ::testing::TempDir() + "/" + name; }

// Loads `text` from a file written into the test's folder; expects an error containing
// `expected` and naming the file.
void ExpectRefused(const std::string& text, const std::string& expected) {
  const std::string path = TempPath("hostile.x");
  ASSERT_TRUE(WriteText(path, text));
  const Result<Model> m = LoadModelFile(path);
  ASSERT_FALSE(m.ok()) << "loaded, expected: " << expected;
  EXPECT_NE(m.error().find(expected), std::string::npos) << m.error();
  EXPECT_EQ(m.error().rfind(path, 0), 0u) << m.error();
}

TEST(HostileModels, MissingDirectoryEmptyAndGarbageFiles) {
  Result<Model> m = LoadModelFile(TempPath("nothing-here.x"));
  EXPECT_NE(m.error().find("no such file"), std::string::npos) << m.error();
  m = LoadModelFile(::testing::TempDir());
  EXPECT_NE(m.error().find("is a directory"), std::string::npos) << m.error();
  ExpectRefused("", "the file is empty");
  ExpectRefused("this is not a model at all\n", "Assimp cannot read it");
  ExpectRefused(std::string(5000, '\x07'), "Assimp cannot read it");
  // The packaged human cut off in the middle of its first mesh.
  std::ifstream in(kHuman, std::ios::binary);
  std::string head(20000, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  ExpectRefused(head, "Assimp cannot read it");
}

TEST(HostileModels, APackagedFileWhoseBonesAreNotInItsHierarchy) {
  // Assimp's own test file: its mesh is weighted to four bones, its hierarchy holds two.
  const Result<Model> m = LoadModelFile("/usr/share/assimp/models/X/anim_test.x");
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.error().find("bone joint3 of mesh"), std::string::npos) << m.error();
  EXPECT_NE(m.error().find("has no node in the hierarchy"), std::string::npos) << m.error();
}

TEST(HostileModels, AFaceWithoutCorners) {
  // Debian's Assimp would abort the process in its triangulation: refused before it.
  XMesh mesh = StripMesh();
  mesh.faces.insert(mesh.faces.begin() + 1, std::vector<int>{});
  ExpectRefused(XFile({StripSkeleton()}, {mesh}), "face 1 has no corners");
}

TEST(HostileModels, ACountLargerThanTheFileCouldHold) {
  // Assimp's X reader would allocate what the count claims before reading a vertex.
  std::string text = XFile({StripSkeleton()}, {StripMesh()});
  const std::size_t at = text.find("  6;\n");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 5, "  2000000000;\n");
  ExpectRefused(text, "claims a count of 2000000000, more than the file could hold");
  ExpectRefused("xof 0303bin 0032" + std::string(64, '\x01'), "only text .x files are read");
  // Larger plain integers that are not counts pass: reals, negative numbers, names.
  XFrame root = StripSkeleton();
  root.children.push_back(XFrame{"Bone12345678", glm::vec3(-70000.0f, 90000.0f, 0), {}});
  LoadOptions cm;
  cm.metres_per_unit = 0.01f;
  const Result<Model> m = LoadModelFromMemory(XFile({root}, {StripMesh()}), "x", "names.x", cm);
  EXPECT_TRUE(m.ok()) << m.error();
}

TEST(HostileModels, NoSkinnedMesh) {
  XMesh bare = StripMesh();
  bare.skin.clear();
  ExpectRefused(XFile({StripSkeleton()}, {bare}), "no skinned mesh");
}

TEST(HostileModels, ABoneNoVertexUsesIsAWarningAndStaysAJoint) {
  const Result<Model> m = LoadModelFromMemory(GltfWithSpareJoint(), "gltf", "spare.gltf");
  ASSERT_TRUE(m.ok()) << m.error();
  ASSERT_EQ(m.value().warnings.size(), 1u);
  EXPECT_NE(m.value().warnings[0].find("bone Spare"), std::string::npos);
  EXPECT_NE(m.value().warnings[0].find("weighted to no vertex"), std::string::npos);
  const int spare = m.value().skeleton.Find("Spare");
  ASSERT_GE(spare, 0);
  EXPECT_EQ(m.value().skeleton.skinned[spare], 0);
  EXPECT_EQ(m.value().skeleton.skinned[m.value().skeleton.Find("Root")], 1);
}

TEST(HostileModels, AnXBoneWithOnlyZeroWeightsIsAPlainJoint) {
  // Assimp's X reader leaves such a bone out of the skin before the loader sees it.
  XFrame root = StripSkeleton();
  root.children.push_back(XFrame{"Spare", glm::vec3(1, 0, 0), {}});
  XMesh mesh = StripMesh();
  mesh.skin.push_back(XWeights{"Spare", {0}, {0.0f}, glm::vec3(1, 0, 0)});
  const Result<Model> m = LoadModelFromMemory(XFile({root}, {mesh}), "x", "spare.x");
  ASSERT_TRUE(m.ok()) << m.error();
  const int spare = m.value().skeleton.Find("Spare");
  ASSERT_GE(spare, 0);
  EXPECT_EQ(m.value().skeleton.skinned[spare], 0);
}

TEST(HostileModels, AVertexWhoseWeightsSumToZero) {
  XMesh mesh = StripMesh();
  mesh.skin[0].weights[0] = 0.0f;  // vertex 0: Root 0, and on no other bone
  ExpectRefused(XFile({StripSkeleton()}, {mesh}), "has no skin weight (its weights sum to 0)");
}

TEST(HostileModels, MoreBonesThanTheSkinningHolds) {
  XFrame root = StripSkeleton();
  for (int i = 0; i < kMaxBones; ++i) {
    root.children.push_back(XFrame{"Extra" + std::to_string(i), glm::vec3(0, 0.5f, 0), {}});
  }
  ExpectRefused(XFile({root}, {StripMesh()}), "more than 1024 bones");
  // One fewer fits.
  root.children.resize(kMaxBones - 1);  // Upper and the extras under Root
  const Result<Model> m = LoadModelFromMemory(XFile({root}, {StripMesh()}), "x", "many.x");
  ASSERT_TRUE(m.ok()) << m.error();
  EXPECT_EQ(m.value().skeleton.bone_count(), kMaxBones);
}

TEST(HostileModels, NaNAndInfinityAnywhere) {
  XMesh mesh = StripMesh();
  mesh.vertices[3].x = NAN;
  ExpectRefused(XFile({StripSkeleton()}, {mesh}), "not finite");
  mesh = StripMesh();
  mesh.vertices[5].y = INFINITY;
  ExpectRefused(XFile({StripSkeleton()}, {mesh}), "not finite");
  XFrame root = StripSkeleton();
  root.children[0].translation.y = NAN;
  ExpectRefused(XFile({root}, {StripMesh()}), "not finite");
  mesh = StripMesh();
  mesh.skin[1].bind_position.x = INFINITY;
  ExpectRefused(XFile({StripSkeleton()}, {mesh}), "not finite");
  // Assimp's X reader drops a weight that is not above 0 (NaN too): vertex 4's only weight.
  mesh = StripMesh();
  mesh.skin[1].weights[2] = NAN;
  ExpectRefused(XFile({StripSkeleton()}, {mesh}), "has no skin weight");
  const std::string anim = XAnimationText(
      "Bad", 10, {{"Upper", {{0, glm::vec4(1, 0, 0, 0)}, {5, glm::vec4(NAN, 0, 0, 1)}}}});
  ExpectRefused(XFile({StripSkeleton()}, {StripMesh()}, anim), "not finite");
}

TEST(HostileModels, BonesThatAreNotRigidOrNotInTheHierarchy) {
  XFrame root = StripSkeleton();
  root.children[0].scale = 2.0f;
  ExpectRefused(XFile({root}, {StripMesh()}), "is not rigid");
  XMesh mesh = StripMesh();
  mesh.skin[1].bone = "Ghost";
  ExpectRefused(XFile({StripSkeleton()}, {mesh}), "no node in the hierarchy");
}

TEST(HostileModels, ABadScaleIsRefusedBeforeReading) {
  LoadOptions bad;
  for (float s : {0.0f, -1.0f, NAN, INFINITY, 1e9f}) {
    bad.metres_per_unit = s;
    const Result<Model> m =
        LoadModelFromMemory(XFile({StripSkeleton()}, {StripMesh()}), "x", "scale.x", bad);
    EXPECT_NE(m.error().find("metres per unit"), std::string::npos) << m.error();
  }
}

}  // namespace
}  // namespace fabrik::character

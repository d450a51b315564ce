// A scene's own command-line options (core/scene_options.h, docs/architecture.md: Scenes): the
// rows the registered scenes declare, the values they read, and the file checks the start-up
// runs for them.
#include <set>
#include <string>

#include "core/scene_registry.h"
#include "core_test_util.h"

namespace fabrik {
namespace {

TEST(SceneOptionValues, AnOptionNotGivenLeavesTheScenesDefault) {
  SceneOptionValues values;
  EXPECT_FALSE(values.Given("--chains"));
  EXPECT_EQ(values.Number("--chains", 42.0), 42.0);
  EXPECT_EQ(values.Text("--bvh"), "");
  values.SetNumber("--chains", 7);
  values.SetText("--bvh", "clip.bvh");
  values.SetNumber("--chains", 9);  // given twice: the last one holds
  EXPECT_TRUE(values.Given("--chains"));
  EXPECT_EQ(values.Number("--chains", 42.0), 9.0);
  EXPECT_EQ(values.Text("--bvh"), "clip.bvh");
  EXPECT_EQ(values.all().size(), 2u);
}

TEST(SceneOptionRows, EachRegisteredOptionIsDeclaredOnceWithItsKind) {
  std::set<std::string> names, implying;
  for (const SceneEntry& entry : RegisteredScenes()) {
    for (const SceneOption& row : entry.options) {
      EXPECT_EQ(row.name.substr(0, 2), "--") << row.name;
      EXPECT_FALSE(row.help.empty()) << row.name;
      EXPECT_TRUE(names.insert(std::string(row.name)).second) << row.name << " twice";
      if (row.implies_scene) implying.insert(std::string(row.name));
      if (row.kind == SceneOptionKind::kInput) {
        EXPECT_NE(row.check, nullptr) << row.name << ": a file no one checks at start";
      } else {
        EXPECT_LT(row.lowest, row.highest) << row.name;
      }
    }
  }
  EXPECT_EQ(names, (std::set<std::string>{"--chains", "--walker-model", "--bvh", "--bvh-scale",
                                          "--character", "--characters", "--markers"}));
  EXPECT_EQ(implying,
            (std::set<std::string>{"--walker-model", "--bvh", "--character", "--markers"}));
}

TEST(SceneOptionRows, AFileThatCannotBeUsedFailsTheStartNamingItsOption) {
  // Whatever the scene: the take is checked though the markers scene is not the one starting.
  StartOptions options = testing::FixedStep();
  options.scene_options.SetText("--markers", "/nonexistent/take.csm");
  auto started = StartApp(options, FABRIK_SOURCE_DIR);
  ASSERT_FALSE(started);
  EXPECT_EQ(started.error().rfind("--markers: ", 0), 0u) << started.error();

  StartOptions walker = testing::FixedStep();
  walker.scene_options.SetText("--walker-model", "/nonexistent/quadruped.x");
  auto refused = StartApp(walker, FABRIK_SOURCE_DIR);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().rfind("--walker-model: ", 0), 0u) << refused.error();
}

}  // namespace
}  // namespace fabrik

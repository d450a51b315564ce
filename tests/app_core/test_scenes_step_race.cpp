// Scene switches, the step view and the race, driven headless.
#include "core/step_view.h"
#include "core_test_util.h"
#include "ik/solver.h"
#include "scenes/arm/arm_scene.h"
#include "scenes/creature/creature_scene.h"

namespace fabrik {
namespace {

using testing::Core;

TEST(AppScenes, ArmSceneBuildsTheArmAndSolvesWithLimits) {
  Core core;
  core.Run("scene arm");
  EXPECT_EQ(core.state().scene.name(), "arm");
  EXPECT_EQ(core.state().chain.joint_count(), 5u);
  EXPECT_GE(core.state().settings.max_iterations, 30);
  core.Frames(30);
  const auto j = core.Json();
  EXPECT_EQ(j["scene"], "arm");
  EXPECT_TRUE(j.contains("pole"));
  ASSERT_NE(core.state().scene.As<ArmScene>(), nullptr);
  EXPECT_TRUE(core.state().scene.As<ArmScene>()->last.base.ok);
}

TEST(AppScenes, CreatureSceneHasFiveEffectorsAndTheTargetDrivesThePrimary) {
  Core core;
  core.Run("scene creature");
  const CreatureScene* creature = core.state().scene.As<CreatureScene>();
  ASSERT_NE(creature, nullptr);
  EXPECT_EQ(creature->targets.size(), 5u);
  core.Frames(5);
  const auto& c = *creature;
  EXPECT_EQ(c.targets[static_cast<std::size_t>(c.primary)].position, core.state().target());
  EXPECT_EQ(core.Json()["effectors"].size(), 5u);
}

TEST(AppScenes, BackToTheChainRestoresItsLengths) {
  Core core;
  core.Run("lengths 0.5 1 1.5");
  core.Run("scene arm");
  core.Run("scene creature");
  core.Run("scene chain");
  EXPECT_EQ(core.state().scene.name(), "chain");
  EXPECT_EQ(core.state().lengths, (std::vector<float>{0.5f, 1.0f, 1.5f}));
  EXPECT_EQ(core.state().chain.joint_count(), 4u);
}

TEST(AppScenes, SwitchingStopsTheStepViewAndTheRaceAndKeepsTheMode) {
  Core core;
  core.Run("mode console");
  core.Run("step on");
  core.Run("race on");
  core.Run("scene arm");
  EXPECT_FALSE(core.state().step.active);
  EXPECT_FALSE(core.state().race.active);
  EXPECT_EQ(core.state().mode, TargetMode::kConsole);
}

TEST(AppScenes, StepViewAndRaceWorkOnlyOnTheChain) {
  Core core;
  core.Run("scene arm");
  core.Run("step on");
  EXPECT_FALSE(core.state().step.active);
  core.Run("race on");
  EXPECT_FALSE(core.state().race.active);
  EXPECT_TRUE(core.state().message_is_error);
}

TEST(AppStepView, RecordsASolveAndStepsThroughIt) {
  Core core;
  core.Run("target 2 2 2");
  core.Frames(60);
  core.Run("target -2 3 0");
  core.Run("step on");
  const StepState& s = core.state().step;
  ASSERT_TRUE(s.active);
  EXPECT_GT(s.recording.reach_count(), 0u);
  EXPECT_EQ(s.step, 0u);
  const std::vector<glm::vec3> held(core.state().chain.joints().begin(),
                                    core.state().chain.joints().end());
  core.Run("step next 3");
  EXPECT_EQ(s.step, 3u);
  core.Run("step prev");
  EXPECT_EQ(s.step, 2u);
  core.Run("step pass");
  EXPECT_EQ(s.step, s.recording.joint_count());
  core.Run("step end");
  EXPECT_EQ(s.step, s.recording.reach_count());
  core.Run("step start");
  EXPECT_EQ(s.step, 0u);
  // The real chain keeps its pose while stepping.
  EXPECT_TRUE(std::equal(held.begin(), held.end(), core.state().chain.joints().begin()));
  EXPECT_NE(core.LastLine().find("start pose"), std::string::npos);
}

TEST(AppStepView, PlayAdvancesOverFramesAndOffResumesSolving) {
  Core core;
  core.Run("target -2 3 0");
  core.Run("step on");
  core.Run("step play");
  core.Frames(60);  // 4 reaches a second
  EXPECT_GE(core.state().step.step, 3u);
  core.Run("step off");
  EXPECT_FALSE(core.state().step.active);
  core.Frames(30);
  EXPECT_TRUE(core.state().last.reached);
}

TEST(AppStepView, KeysStepBackAnIterationAndSetTheRate) {
  Core core;
  core.Run("target -2 3 0");
  core.Run("step on");
  core.Send(Command(cmd::Step{cmd::StepAction::kIteration, 1}));
  core.Send(Command(cmd::Step{cmd::StepAction::kIteration, 1}));
  core.Send(app::StepIterationBack{});
  core.Send(app::StepRate{100.0f});
  core.Frames(1);
  const StepState& s = core.state().step;
  EXPECT_EQ(s.step, 2 * s.recording.joint_count());
  EXPECT_FLOAT_EQ(s.reaches_per_second, 60.0f);
}

TEST(AppStepView, ANewTargetRecordsAgain) {
  Core core;
  core.Run("step on");
  core.Run("step next 2");
  core.Run("target 1 1 1");
  EXPECT_EQ(core.state().step.step, 0u);
  EXPECT_EQ(core.state().step.recorded_target, glm::vec3(1, 1, 1));
}

TEST(AppRace, EverySolverChasesTheTarget) {
  Core core;
  core.Run("race on");
  ASSERT_TRUE(core.state().race.active);
  // Every solver, and FABRIK twice: textbook and accelerated.
  EXPECT_EQ(core.state().race.entries.size(), AllSolvers().size() + 1);
  core.Run("target 1 3 1");
  core.Frames(120);
  for (const RaceEntry& e : core.state().race.entries) {
    ASSERT_TRUE(e.chain);
    EXPECT_LT(glm::length(e.chain->effector() - glm::vec3(1, 3, 1)), 0.2f) << SolverName(e.kind);
  }
  EXPECT_EQ(core.Json()["race"].size(), AllSolvers().size() + 1);
  core.Run("race off");
  EXPECT_FALSE(core.state().race.active);
}

TEST(AppRace, TheRacersShareOneSolvesBudget) {
  // A 10,000-joint chain, a target out of reach of a tight tolerance and a high cap: every
  // racer's solve is capped, and together they do at most one solve's joint updates.
  Core core;
  core.Run("joints 10000");
  core.Run("moe 0.000001");
  core.Run("iterations 100000");
  core.Run("race on");
  core.Run("target 3 40 2");
  core.Frames(2);
  const auto& entries = core.state().race.entries;
  ASSERT_GT(entries.size(), 1u);
  long updates = 0;
  for (const RaceEntry& e : entries) {
    ASSERT_TRUE(e.last.ok) << SolverName(e.kind);
    EXPECT_GE(e.last.iterations, 1) << SolverName(e.kind);
    updates += static_cast<long>(e.last.iterations) * 10000;
  }
  EXPECT_LE(updates, kMaxJointUpdatesPerSolve);
  // Each racer still gets its share, not less.
  for (const RaceEntry& e : entries) {
    EXPECT_EQ(BoundedSettings(core.state(), 10000, entries.size()).max_iterations,
              static_cast<int>(kMaxJointUpdatesPerSolve / 10000 / entries.size()));
    EXPECT_LE(e.last.iterations,
              kMaxJointUpdatesPerSolve / 10000 / static_cast<long>(entries.size()));
  }
}

TEST(AppRace, ARebuiltChainRestartsTheRacers) {
  Core core;
  core.Run("race on");
  core.Run("joints 4");
  for (const RaceEntry& e : core.state().race.entries) {
    ASSERT_TRUE(e.chain);
    EXPECT_EQ(e.chain->joint_count(), 4u);
  }
}

}  // namespace
}  // namespace fabrik

// tools_test_util.h - what the tests of the everyday IK tools in the demo share: the pose from
// the state line, a settled 5-joint chain, and the check that a refused line changes nothing.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core_test_util.h"

namespace fabrik::testing {

// The state line's "joints" (the pose on screen).
inline std::vector<glm::vec3> Joints(const Core& core) {
  const nlohmann::json j = core.Json();  // held: a loop over a temporary's member dangles
  std::vector<glm::vec3> out;
  for (const auto& p : j["joints"]) out.emplace_back(p[0], p[1], p[2]);
  return out;
}

// A 5-joint chain of unit segments (reach 4) in console mode, settled on `target`.
inline Core ChainTowards(const char* target) {
  Core core;
  core.Run("joints 5");
  core.Run("length 1");
  core.Run("mode console");
  core.Run(std::string("target ") + target);
  core.Frames(60);
  return core;
}

// Each line, typed and applied, prints its echo and one error line and changes nothing.
inline void ExpectRefused(Core& core, std::initializer_list<const char*> lines) {
  for (const char* line : lines) {
    SCOPED_TRACE(line);
    const std::string before = core.Fingerprint();
    const std::size_t count = core.state().console.log.size();
    core.Type(line);
    ApplyCommands(core.state(), core.queue());
    ASSERT_EQ(core.state().console.log.size(), count + 2);  // the echo and one error
    EXPECT_EQ(core.LastKind(), ConsoleLine::Kind::kError);
    EXPECT_EQ(core.Fingerprint(), before);
  }
}

}  // namespace fabrik::testing

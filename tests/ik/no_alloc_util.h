// no_alloc_util.h - the "a solve makes no heap allocation" check the tool tests share.
#pragma once

#include <glm/vec3.hpp>
#include <random>
#include <span>
#include <utility>
#include <vector>

#include "fabrik_test_util.h"
#include "support/alloc_counter.h"

namespace fabrik::testing {

// `count` targets at random directions and distances up to `radius` from the origin, made
// before any allocation window opens.
inline std::vector<glm::vec3> RandomTargets(std::mt19937& rng, int count, float radius) {
  std::vector<glm::vec3> targets;
  for (int i = 0; i < count; ++i) targets.push_back(RandomUnit(rng) * Uniform(rng, 0.0f, radius));
  return targets;
}

// Calls solve(target), which returns whether the solve was accepted, for every target inside
// one AllocationWindow. Returns {operator new calls, accepted solves}.
template <typename Solve>
std::pair<long, int> CountAllocations(std::span<const glm::vec3> targets, Solve&& solve) {
  int accepted = 0;
  AllocationWindow window;
  for (const glm::vec3& t : targets) accepted += solve(t) ? 1 : 0;
  return {window.Close(), accepted};
}

}  // namespace fabrik::testing

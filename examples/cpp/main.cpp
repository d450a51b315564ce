// An example user of the installed fabrik library: one chain with the accelerated FABRIK,
// the same chain with CCD through Solve, and a batch of chains with SolveFabrikBatch.
// Built by CMake (CMakeLists.txt, find_package(fabrik)) or by hand with pkg-config:
//   c++ -std=c++20 main.cpp $(pkg-config --cflags --libs fabrik-ik) -o fabrik_example
// Prints what it solved; exits 1 if a reachable target was not reached.
#include <fabrik/ik/batch_fabrik.h>
#include <fabrik/ik/chain.h>
#include <fabrik/ik/fabrik.h>
#include <fabrik/ik/solver.h>
#include <fabrik/ik/version.h>

#include <cstdio>
#include <vector>

int main() {
  std::printf("fabrik %s\n", fabrik::kVersionString);

  // A chain from joint positions: three unit segments straight up.
  auto made = fabrik::Chain::FromJoints({{0, 0, 0}, {0, 1, 0}, {0, 2, 0}, {0, 3, 0}});
  if (!made) {
    std::printf("chain: %s\n", made.error().c_str());
    return 1;
  }
  fabrik::Chain chain = made.value();
  fabrik::Chain for_ccd = chain;
  const glm::vec3 target(1.5f, 1.5f, 0.5f);

  fabrik::SolveSettings settings;
  settings.tolerance = 1e-3f;
  settings.max_iterations = 20;
  settings.accelerate = true;
  const fabrik::SolveResult r = fabrik::SolveFabrik(chain, target, settings);
  std::printf("fabrik: %d iterations, distance %.6f, reached %d\n", r.iterations, r.distance,
              r.reached);
  for (const glm::vec3& p : chain.joints()) std::printf("  (%.4f, %.4f, %.4f)\n", p.x, p.y, p.z);

  settings.max_iterations = 200;
  const fabrik::SolveResult c = fabrik::Solve(fabrik::SolverKind::kCcd, for_ccd, target, settings);
  std::printf("ccd: %d iterations, distance %.6f, reached %d\n", c.iterations, c.distance,
              c.reached);

  // 1000 chains of 10 joints rooted on a line, each with its own target, solved at once.
  std::vector<glm::vec3> roots, targets;
  for (int i = 0; i < 1000; ++i) {
    roots.emplace_back(3.0f * static_cast<float>(i), 0.0f, 0.0f);
    targets.push_back(roots.back() + glm::vec3(2.0f, 5.0f, static_cast<float>(i % 7) - 3.0f));
  }
  const std::vector<float> lengths(9, 1.0f);
  auto batch = fabrik::ChainBatch::FromRoots(roots, glm::vec3(0, 1, 0), lengths);
  if (!batch) {
    std::printf("batch: %s\n", batch.error().c_str());
    return 1;
  }
  settings.max_iterations = 100;
  const fabrik::BatchSolveResult b = fabrik::SolveFabrikBatch(batch.value(), targets, settings);
  std::printf("batch: %zu of %zu chains reached (%s), at most %d iterations\n", b.reached_count,
              batch.value().chain_count(), fabrik::BatchSimdTarget(), b.max_iterations_run);
  const bool all = r.reached && c.reached && b.ok && b.reached_count == b.reachable_count &&
                   b.reachable_count == batch.value().chain_count();
  return all ? 0 : 1;
}

// free_root_state.h - the free root (docs/scenes.md: Free root): its state in AppState and
// the function the apply step calls. Its console command is in commands/record.cpp.
#pragma once

#include <array>
#include <cstddef>
#include <glm/vec3.hpp>

namespace fabrik {

struct AppState;

// `root free|fixed`: the chain scene pulls the chain by its head (ik/free_root.h) and keeps
// the root's recent positions for drawing.
struct FreeRootState {
  static constexpr std::size_t kTrailPoints = 240;  // 4 s at 60 fps
  bool free = false;
  std::array<glm::vec3, kTrailPoints> trail{};  // a ring: oldest at trail_start
  std::size_t trail_start = 0;
  std::size_t trail_count = 0;
  // Adds a root position (skipped when it has not moved since the last one).
  void Push(const glm::vec3& root);
  void Clear() { trail_start = trail_count = 0; }
  // The i-th oldest point, i < trail_count.
  const glm::vec3& TrailAt(std::size_t i) const { return trail[(trail_start + i) % kTrailPoints]; }
};

// `root free|fixed`. Freeing the root turns the step view and the race off (they solve with
// a fixed root); fixing it pins the root where it is now.
void SetRootFree(AppState& state, bool free);

}  // namespace fabrik

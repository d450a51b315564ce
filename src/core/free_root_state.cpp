#include "core/free_root_state.h"

#include "core/app_state.h"
#include "core/step_view.h"

namespace fabrik {

void FreeRootState::Push(const glm::vec3& root) {
  if (trail_count > 0 && TrailAt(trail_count - 1) == root) return;
  if (trail_count < kTrailPoints) {
    trail[(trail_start + trail_count) % kTrailPoints] = root;
    ++trail_count;
  } else {
    trail[trail_start] = root;
    trail_start = (trail_start + 1) % kTrailPoints;
  }
}

void SetRootFree(AppState& state, bool free) {
  if (free && !state.root.free) {
    if (state.step.active) SetStepView(state, false);
    if (state.race.active) SetRace(state, false);
  }
  state.root.free = free;
  state.root.Clear();
  if (free) state.root.Push(state.chain.root());
}

}  // namespace fabrik

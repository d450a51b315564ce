#include "core/view_2d.h"

#include "core/app_state.h"
#include "core/frame.h"
#include "core/step_view.h"
#include "ik/free_root.h"

namespace fabrik {

bool View2d(const AppState& state) { return state.view.camera.planar(); }

glm::vec3 ConfineTarget(const AppState& state, const glm::vec3& p) {
  return View2d(state) ? glm::vec3(p.x, p.y, 0.0f) : p;
}

void SetView2d(AppState& state, bool planar) {
  state.view.camera.SetPlanar(planar);
  if (planar) {
    // The step view and the race hold copies of the chain's pose: they start again from the
    // flattened chain, towards the flattened target.
    const bool step = state.step.active, race = state.race.active;
    if (step) SetStepView(state, false);
    if (race) SetRace(state, false);
    const glm::vec3 t = state.target();
    if (t.z != 0.0f) state.targeting.Jump(ConfineTarget(state, t));
    if (state.drag.hit) state.drag.hit = ConfineTarget(state, *state.drag.hit);
    if (state.scene.free_chain()) LayChainFlat(state.chain);
    if (race) SetRace(state, true);
    if (step) SetStepView(state, true);
  }
  UpdateViewMatrices(state);
}

}  // namespace fabrik

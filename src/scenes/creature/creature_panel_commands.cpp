// The creature panel's commands, applied at the frame's apply step (core/apply.cpp).
#include "scenes/creature/creature_panel_commands.h"

#include <algorithm>
#include <cmath>

#include "core/app_state.h"
#include "core/frame.h"
#include "scenes/creature/creature_scene.h"

namespace fabrik::app {
namespace {

// The creature's target `index`, or null when the scene is another or has no such target.
CreatureScene* CreatureWith(AppState& state, int index) {
  CreatureScene* creature = state.scene.As<CreatureScene>();
  if (creature == nullptr || index < 0 || index >= static_cast<int>(creature->targets.size())) {
    return nullptr;
  }
  return creature;
}

}  // namespace

void ApplyPanelCommand(AppState& state, const CreaturePrimary& c) {
  CreatureScene* creature = CreatureWith(state, c.index);
  if (creature == nullptr) return;
  creature->primary = c.index;
  PlaceTarget(state, creature->targets[static_cast<std::size_t>(c.index)].position);
}

void ApplyPanelCommand(AppState& state, const EffectorWeight& c) {
  CreatureScene* creature = CreatureWith(state, c.index);
  if (creature == nullptr || !std::isfinite(c.weight)) return;
  creature->targets[static_cast<std::size_t>(c.index)].weight = std::clamp(c.weight, 0.0f, 5.0f);
}

}  // namespace fabrik::app

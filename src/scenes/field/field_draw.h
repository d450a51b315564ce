// field_draw.h - step 5 for the field scene (docs/field.md "The field scene"): every chain
// far from the action as lines in one draw, the chains near the target and the two sampled
// ones as lit bones and joints, the ground grid sized to the field and the shared target.
#pragma once

#include "app/systems.h"

namespace fabrik {

class FieldScene;

// Draws `field` (built: chain_count() > 0) through the drawer's scratch buffers.
void DrawField(SceneDrawer& drawer, const AppState& state, const FieldScene& field,
               Renderer& renderer);

}  // namespace fabrik

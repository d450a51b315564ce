// mocap_panel.h - the body picker the mocap and crowd scenes' panel sections share
// (docs/mocap.md): capsules, or the packaged skinned human (or the model loaded with
// `character PATH`), sent as the `character` command.
#pragma once

#include "core/app_state.h"
#include "scenes/mocap/mocap_skin.h"

namespace fabrik {

// A combo named "body"; `skin` is the scene's current model, null for capsules.
void BodyCombo(const MocapSkin* skin, CommandQueue& queue);

}  // namespace fabrik

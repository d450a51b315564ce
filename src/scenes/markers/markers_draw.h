// markers_draw.h - how the markers scene is drawn (docs/markers.md, "The markers scene"): the
// floor grid, the fitted skeleton as bones and joints, every marker as a dot coloured by its
// state (seen, predicted, rejected) and a residual line from each marker to where the
// skeleton puts it. Shell code (GL through the renderer); uses the SceneDrawer's scratch
// buffers, so drawing allocates nothing once warmed up.
#pragma once

#include <glm/vec4.hpp>

#include "app/systems.h"
#include "core/app_state.h"
#include "render/renderer.h"

namespace fabrik {

// The markers' colours, also the panel's legend.
inline const glm::vec4 kMarkerSeenColor(0.30f, 0.85f, 0.95f, 1.0f);
inline const glm::vec4 kMarkerPredictedColor(1.00f, 0.70f, 0.15f, 1.0f);
inline const glm::vec4 kMarkerRejectedColor(0.98f, 0.30f, 0.30f, 1.0f);

void DrawMarkersScene(SceneDrawer& drawer, const AppState& state, Renderer& renderer);

}  // namespace fabrik

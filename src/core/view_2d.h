// view_2d.h - the 2D view (docs/scenes.md: The 2D view): the functions the apply, frame and
// input steps call. Its state is the camera's planar mode; its console command is in
// commands/record.cpp.
#pragma once

#include <glm/vec3.hpp>

namespace fabrik {

struct AppState;

// `view 2d|3d`. 2D: the camera looks down -Z at the XY plane orthographically
// (OrbitCamera's planar mode), the target is put at z = 0 and the chain scene's chain is laid
// flat there (LayChainFlat), and from then on targets and drags stay at z = 0 (ConfineTarget).
void SetView2d(AppState& state, bool planar);
bool View2d(const AppState& state);
// The point the 2D view allows for `p`: p with z = 0 in 2D, p itself in 3D.
glm::vec3 ConfineTarget(const AppState& state, const glm::vec3& p);

}  // namespace fabrik

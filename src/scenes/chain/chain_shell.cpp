// The free chain in the shell: no section of its own. It is listed by its name and drawn as a
// chain through its pose, with the CHAIN, solver, step view and race sections its controls name
// (ChainScene::controls), plus the look-at's marks while `aim` is on.
#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>
#include <vector>

#include "app/scene_shell.h"
#include "core/step_view.h"
#include "ik/rotations.h"

namespace fabrik {
namespace {

// Kept between frames by the drawer: the drawn pose's bone rotations.
struct AimMarks {
  std::vector<glm::quat> rotations;
};

// The aim point (a small violet ball with a cross) and the aimed axis: a line from the effector
// along the axis as the effector's frame carries it, as long as the way to the point, so it
// ends on the ball once the aim is reached. Drawn from the pose on screen (the step view's too).
void AddAimMarks(SceneDrawer& drawer, const AppState& state, Renderer&, float base) {
  const ToolState& t = state.tools;
  if (!t.aim_at) return;
  const std::span<const glm::vec3> p = DisplayedPose(state);
  if (p.size() < 2) return;
  AimMarks& marks = drawer.Own<AimMarks>();
  marks.rotations.resize(p.size() - 1);
  const glm::vec4 color(0.80f, 0.50f, 1.00f, 0.95f);
  const glm::vec3 at = *t.aim_at;
  drawer.spheres().push_back({at, base * 0.45f, color});
  for (const glm::vec3& d : {glm::vec3(1, 0, 0), glm::vec3(0, 1, 0), glm::vec3(0, 0, 1)}) {
    drawer.lines().push_back({at - d * base * 1.2f, color});
    drawer.lines().push_back({at + d * base * 1.2f, color});
  }
  if (!ChainRotations(p, {}, marks.rotations)) return;
  const glm::vec3 axis = marks.rotations.back() * glm::normalize(t.aim_axis);
  const float length = glm::length(at - p.back());
  drawer.lines().push_back({p.back(), color});
  drawer.lines().push_back({p.back() + axis * length, color});
  // While the aim is off by more than half a degree, a faint line shows where it should point.
  if (t.aim_error_deg && *t.aim_error_deg > 0.5f) {
    drawer.lines().push_back({p.back(), glm::vec4(glm::vec3(color), 0.3f)});
    drawer.lines().push_back({at, glm::vec4(glm::vec3(color), 0.3f)});
  }
}

void ChainDraw(SceneDrawer& drawer, const AppState& state, Renderer& renderer) {
  ChainLook look;
  look.markers = AddAimMarks;
  drawer.DrawChainScene(state, renderer, look);
}

}  // namespace

// Its registry line (scenes/registry.h).
SceneShell ChainShell() { return {.draw = ChainDraw}; }

}  // namespace fabrik

// The panel's "Rotations and skin" section (docs/rotations.md: Rotations, orientation target and
// skinning): the skinned tentacle, joint axes and the orientation target with its three
// angles. Every change is enqueued as the console command it mirrors (skin, axes, orient).
#include <cstdio>
#include <string>

#include "app/panel_widgets.h"

namespace fabrik::panel {
namespace {}  // namespace

void OrientSection(const AppState& state, CommandQueue& queue) {
  if (!ImGui::CollapsingHeader("Rotations and skin")) return;
  const OrientState& o = state.orient;
  bool skin = o.skin;
  if (ImGui::Checkbox("skinned tentacle (chain scene)", &skin)) {
    SendCommand(queue, "skin", {skin ? "on" : "off"});
  }
  bool axes = o.axes;
  if (ImGui::Checkbox("joint axes (X red, Y green, Z blue)", &axes)) {
    SendCommand(queue, "axes", {axes ? "on" : "off"});
  }
  bool oriented = o.euler_deg.has_value();
  if (ImGui::Checkbox("orientation target", &oriented)) {
    if (oriented) {
      SendCommand(queue, "orient", {"0", "0", "0"});
    } else {
      SendCommand(queue, "orient", {"off"});
    }
  }
  if (!o.euler_deg) return;
  glm::vec3 angles = *o.euler_deg;
  bool changed = ImGui::SliderFloat("yaw", &angles.x, -180.0f, 180.0f, "%.1f deg");
  changed |= ImGui::SliderFloat("pitch", &angles.y, -90.0f, 90.0f, "%.1f deg");
  changed |= ImGui::SliderFloat("roll", &angles.z, -180.0f, 180.0f, "%.1f deg");
  if (changed)
    SendCommand(queue, "orient",
                {CommandNumber(angles.x), CommandNumber(angles.y), CommandNumber(angles.z)});
  ImGui::TextColored(kDim, "drag mode: Shift/Ctrl/Alt + wheel turn yaw/pitch/roll");
  if (o.error_deg) {
    ImGui::TextColored(*o.error_deg <= 2.0f ? kGood : kWarn, "effector off by %.2f deg",
                       static_cast<double>(*o.error_deg));
  }
}

}  // namespace fabrik::panel

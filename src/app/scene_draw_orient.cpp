// The skinned tentacle, the joint axes and the orientation target's gizmo (docs/rotations.md:
// Rotations, orientation target and skinning). They draw the rotations the core computed this frame
// (AppState::orient), the same ones the state line writes.
#include <algorithm>
#include <glm/gtc/quaternion.hpp>

#include "app/systems.h"
#include "render/joint_axes.h"

namespace fabrik {

bool SceneDrawer::DrawSkin(const AppState& state, Renderer& renderer, std::span<const glm::vec3> p,
                           float base) {
  const OrientState& o = state.orient;
  if (!o.skin || !state.scene.free_chain() || !o.has_rotations) return false;
  const std::span<const glm::quat> q = o.tracker.rotations();
  const std::span<const float> len = state.chain.lengths();
  if (q.size() + 1 != p.size() || len.size() + 1 != p.size()) return false;
  if (!BuiltFor(skin_, len)) {
    // Thickness follows the whole chain, not its links, so 5 and 200 joints of the same reach
    // give the same tentacle; it tapers to a blunt tip an eighth of the base.
    TubeSpec spec;
    spec.base_radius = std::max(state.chain.total_length() * 0.045f, base * 0.5f);
    spec.tip_radius = spec.base_radius * 0.12f;
    Result<SkinMesh> mesh = BuildTube(len, spec);
    if (!mesh.ok()) return false;
    skin_ = std::move(mesh).value();
    plinth_base_ = spec.base_radius * 0.5f;
    renderer.SetSkinMesh(skin_);
  }
  spheres_.clear();
  bones_.clear();
  // The plinth is sized by the bones; a thick tentacle of many short links would hide it.
  AddPlinth(p[0], std::max(base, plinth_base_));
  renderer.DrawBones(bones_);
  return renderer.DrawSkin(q, p, glm::vec4(0.80f, 0.42f, 0.48f, 1.0f));
}

void SceneDrawer::DrawOrientOverlay(const AppState& state, Renderer& renderer, float base) {
  const OrientState& o = state.orient;
  lines_.clear();
  if (o.axes && o.has_rotations) {
    // Short enough that a frame never reaches past its bone's end.
    AppendJointAxes(lines_, o.bone_starts, o.tracker.rotations(),
                    std::min(base * 3.0f, o.shortest_bone * 0.6f));
  }
  if (o.euler_deg) {
    // The gizmo: the wanted frame at the target (X red, Y green, Z blue, Y longest: where the
    // last bone should point) and a pale line where the last bone should lie.
    const glm::vec3 t = state.target();
    const float size = base * 7.0f;
    const glm::vec3 axis[3] = {o.rotation * glm::vec3(1, 0, 0), o.rotation * glm::vec3(0, 1, 0),
                               o.rotation * glm::vec3(0, 0, 1)};
    const glm::vec4 color[3] = {glm::vec4(1.0f, 0.25f, 0.2f, 1.0f),
                                glm::vec4(0.3f, 1.0f, 0.3f, 1.0f),
                                glm::vec4(0.3f, 0.5f, 1.0f, 1.0f)};
    for (int i = 0; i < 3; ++i) {
      lines_.push_back({t, color[i]});
      lines_.push_back({t + axis[i] * size * (i == 1 ? 1.6f : 1.0f), color[i]});
    }
    if (!state.chain.lengths().empty()) {
      const float last = state.chain.lengths().back();
      lines_.push_back({t - axis[1] * last, glm::vec4(1.0f, 0.92f, 0.45f, 0.6f)});
      lines_.push_back({t, glm::vec4(1.0f, 0.92f, 0.45f, 0.6f)});
    }
  }
  if (!lines_.empty()) renderer.DrawLines(lines_, 2.5f, true);
}

}  // namespace fabrik

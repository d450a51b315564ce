// mocap_look.h - how the mocap and crowd scenes are drawn (docs/mocap.md: The mocap scene):
// the lit terrain, the skinned character when one is loaded (skinned on the GPU by dual
// quaternions, render/skin_pass.h: ModelSkinPass), else characters as capsules on their bones
// (thicker on the torso and thighs, a head on the neck), the clip's own pose as a faint ghost,
// contact rings and pins under the feet, and the reach and look targets. Shell code (GL through the
// renderer); one MocapLook is kept by the SceneDrawer between frames, so drawing allocates nothing
// once warmed up.
#pragma once

#include <memory>
#include <span>
#include <vector>

#include "core/app_state.h"
#include "mocap/character.h"
#include "render/renderer.h"
#include "render/skin_pass.h"
#include "render/surface_renderer.h"
#include "scenes/crowd/crowd_scene.h"
#include "scenes/mocap/mocap_scene.h"

namespace fabrik {

class MocapLook {
 public:
  void DrawMocap(const AppState& state, const MocapScene& scene, Renderer& renderer);
  // At most kMaxDrawnCharacters characters, those nearest the camera's pivot.
  void DrawCrowd(const AppState& state, const CrowdScene& scene, Renderer& renderer);

 private:
  // The terrain mesh (rebuilt when the ground changes); false when the surface shaders could
  // not load (then the message went to stderr once and only instanced shapes are drawn).
  bool DrawGround(const AppState& state, const std::shared_ptr<const Heightmap>& ground);
  // Appends one body: a capsule per bone of `pose`, radii from the rig's limbs (cached per rig).
  void AddBody(const mocap::Rig& rig, const mocap::Pose& pose, float alpha, bool ghost);
  void CacheRadii(const mocap::Rig& rig);
  // Makes the skinning pass and uploads `model` to it when it holds another; false when the
  // skinning shader could not load (then the message went to stderr once and capsules are
  // drawn).
  bool PrepareSkin(const AppState& state, const std::shared_ptr<const character::Model>& model);
  // One skinned character of the prepared model, one draw per mesh part, by linear blending
  // or dual quaternions.
  void DrawSkin(const AppState& state, const character::Model& model,
                std::span<const DualQuat> bones, bool linear);

  std::unique_ptr<SurfaceRenderer> surfaces_;
  bool surfaces_failed_ = false;
  std::shared_ptr<const Heightmap> meshed_;
  std::unique_ptr<ModelSkinPass> skin_pass_;
  bool skin_pass_failed_ = false;
  std::shared_ptr<const character::Model> uploaded_;  // the model skin_pass_ holds
  const mocap::Rig* radii_rig_ = nullptr;             // the rig bone_radius_ was computed for
  std::vector<float> bone_radius_;                    // per joint: its bone from the parent, metres
  std::vector<int> part_;                             // per joint: which colour (BodyPart)
  std::vector<BoneInstance> bones_;
  std::vector<SphereInstance> spheres_;
  std::vector<LineVertex> lines_;
  std::vector<std::pair<float, std::size_t>> nearest_;
  std::vector<char> skinned_member_;  // per crowd member: 1 when drawn skinned this frame
};

}  // namespace fabrik

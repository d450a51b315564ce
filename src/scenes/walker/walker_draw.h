// walker_draw.h - step 5 for the walker scene (docs/walker.md: The walker scene): the lit terrain
// with its grid, the body, the legs, foot targets coloured by planted, the goal marker, and the
// debug views (pre-solve ghosts with poles and swing paths; the chosen leg's recorded solve).
#pragma once

#include <memory>
#include <vector>

#include "core/app_state.h"
#include "render/renderer.h"
#include "render/skin_pass.h"
#include "render/surface_renderer.h"
#include "scenes/walker/walker_scene.h"

namespace fabrik {

class WalkerDrawer {
 public:
  // Rebuilds the terrain mesh when the walker's terrain changed. The first call loads the
  // surface shaders; if they fail, the message goes to stderr once and the terrain and
  // body are skipped (legs, feet and markers are still drawn).
  void Draw(const AppState& state, const WalkerScene& scene, Renderer& renderer);

 private:
  bool EnsureSurfaces(const AppState& state);
  void DrawDebug(const Walker& walker, const WalkerScene& scene, Renderer& renderer);
  // The quadruped skinned on the GPU (ModelSkinPass); false when its shaders failed.
  bool DrawModel(const AppState& state, const WalkerScene& scene);
  void DrawModelDebug(const WalkerScene& scene, Renderer& renderer);
  // The step view: the recorded solve of leg `step_leg` (none when -1), half-pass by
  // half-pass, appended to the lines and spheres.
  void AddStepView(const RecordingObserver& recording, int step_leg);
  std::unique_ptr<ModelSkinPass> skin_pass_;
  bool skin_pass_failed_ = false;
  std::shared_ptr<const character::Model> uploaded_;
  std::unique_ptr<SurfaceRenderer> surfaces_;
  bool surfaces_failed_ = false;
  std::shared_ptr<const Heightmap> meshed_;  // the terrain the uploaded mesh shows
  std::vector<SphereInstance> spheres_;
  std::vector<BoneInstance> bones_;
  std::vector<LineVertex> lines_;
  std::vector<glm::vec3> pose_;
};

}  // namespace fabrik

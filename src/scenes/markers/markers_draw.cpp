#include "scenes/markers/markers_draw.h"

#include "app/scene_palette.h"
#include "markers/skeleton.h"
#include "scenes/markers/markers_scene.h"

namespace fabrik {
namespace {

constexpr float kMarkerRadius = 0.022f;  // metres: a dot a little larger than a real marker
constexpr float kJointRadius = 0.026f;
constexpr float kBoneRadius = 0.016f;
const glm::vec4 kResidualColor(1.0f, 1.0f, 1.0f, 0.85f);
const glm::vec4 kMarkersBoneColor(0.86f, 0.83f, 0.76f, 0.9f);

void AddSkeleton(SceneDrawer& drawer, const markers::FrameSolution& s) {
  for (int n = 0; n < markers::kNodeCount; ++n) {
    const int parent = markers::kNodeParents[static_cast<std::size_t>(n)];
    const glm::vec3& p = s.joints[static_cast<std::size_t>(n)];
    drawer.spheres().push_back(
        {p, kJointRadius, n == markers::kRoot ? draw::kRootColor : draw::kJointColor});
    if (parent < 0) continue;
    drawer.bones().push_back({s.joints[static_cast<std::size_t>(parent)], kBoneRadius, p,
                              kBoneRadius * 0.8f, kMarkersBoneColor});
  }
}

// A dot per marker with a position; a line from it to the skeleton's prediction.
void AddMarkers(SceneDrawer& drawer, const MarkersScene& scene) {
  const markers::FrameSolution& s = scene.solution();
  const markers::Take& take = scene.take();
  const int frame = scene.frame();
  for (int m = 0; m < take.marker_count(); ++m) {
    const auto i = static_cast<std::size_t>(m);
    switch (s.state[i]) {
      case markers::MarkerState::kSeen:
        drawer.spheres().push_back({s.estimate[i], kMarkerRadius, kMarkerSeenColor});
        drawer.lines().push_back({s.estimate[i], kResidualColor});
        drawer.lines().push_back({s.predicted[i], kResidualColor});
        break;
      case markers::MarkerState::kPredicted:
        drawer.spheres().push_back({s.predicted[i], kMarkerRadius * 1.2f, kMarkerPredictedColor});
        break;
      case markers::MarkerState::kRejected:
        // The recorded, rejected position, and the prediction the solve uses instead.
        drawer.spheres().push_back({take.position(frame, m), kMarkerRadius, kMarkerRejectedColor});
        drawer.spheres().push_back({s.predicted[i], kMarkerRadius * 0.7f, kMarkerPredictedColor});
        drawer.lines().push_back({take.position(frame, m), kMarkerRejectedColor});
        drawer.lines().push_back({s.predicted[i], kMarkerRejectedColor});
        break;
      case markers::MarkerState::kMissing:
        break;
    }
  }
}

}  // namespace

void DrawMarkersScene(SceneDrawer& drawer, const AppState& state, Renderer& renderer) {
  const MarkersScene* scene = state.scene.As<MarkersScene>();
  if (scene == nullptr || !scene->loaded()) return;
  renderer.SetCamera(state.view.view, state.view.projection, state.view.camera.eye());
  const glm::vec3 root = scene->solution().joints[markers::kRoot];
  drawer.DrawGrid(state, renderer, 4.0f, glm::vec3(root.x, 0.0f, root.z));
  drawer.spheres().clear();
  drawer.bones().clear();
  drawer.lines().clear();
  AddSkeleton(drawer, scene->solution());
  AddMarkers(drawer, *scene);
  renderer.DrawShadows(drawer.spheres());
  renderer.DrawBones(drawer.bones());
  renderer.DrawSpheres(drawer.spheres());
  renderer.DrawLines(drawer.lines(), 2.0f);
}

}  // namespace fabrik

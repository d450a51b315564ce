// Step 5 for the field scene (docs/field.md "The field scene"): levels of detail keep 10,000 chains
// interactive under a software renderer. Every chain far from the action is one line strip
// folded into a single line draw (no joints: at that distance a joint is under a pixel); the
// chains around the target's foot and the two sampled chains get lit bones and joints. Three
// instanced draws plus one line draw, whatever the chain count.
#include "scenes/field/field_draw.h"

#include <algorithm>
#include <cmath>

#include "app/scene_palette.h"
#include "app/systems.h"
#include "scenes/field/field_scene.h"

namespace fabrik {
namespace {

// Chains within this many grid cells of the lead chain (the one under the target) are drawn
// in full: a 7 x 7 patch, ~900 instances.
constexpr int kNearCells = 3;
// Chains within this many cells (the ones bending most) are drawn as lines through every
// joint; farther ones through the middle joint only.
constexpr int kFineCells = 8;
// What one frame may draw of the near chains (bones plus joints), and of the fine lines
// (vertices). Beyond it every k-th joint is drawn (k the smallest that fits): 200 chains of
// 10,000 joints would otherwise ask for about 490,000 spheres and 5.8 million line vertices.
constexpr std::size_t kMaxNearItems = 60000;
constexpr std::size_t kMaxFineVertices = 200000;

// The far chains' line list, kept between frames so that drawing allocates nothing once
// warmed up (SceneDrawer::Own).
struct FieldLines {
  std::vector<LineVertex> lines;
};

}  // namespace

void DrawField(SceneDrawer& drawer, const AppState& state, const FieldScene& field,
               Renderer& renderer) {
  std::vector<LineVertex>& field_lines = drawer.Own<FieldLines>().lines;
  std::vector<SphereInstance>& spheres = drawer.spheres();
  std::vector<BoneInstance>& bones = drawer.bones();
  std::vector<LineVertex>& lines = drawer.lines();
  const std::size_t n = field.chain_count();
  const std::size_t jc = field.joint_count();
  const std::span<const glm::vec3> poses = field.poses();
  const float width = std::max(field.columns(), field.rows()) * kFieldSpacing;
  const float seg = kFieldReach / static_cast<float>(jc - 1);
  const float base = std::clamp(std::max(seg * 0.15f, kFieldReach * 0.012f), 0.01f, 1.0f);

  // The ground grid, sized to the field.
  const float grid_reach = std::max(width * 0.45f, kFieldReach);
  const bool planar = state.view.camera.planar();
  drawer.DrawGrid(state, renderer, grid_reach, glm::vec3(0.0f));

  const int columns = field.columns();
  const int lead_col = static_cast<int>(field.lead() % static_cast<std::size_t>(columns));
  const int lead_row = static_cast<int>(field.lead() / static_cast<std::size_t>(columns));
  auto near = [&](std::size_t c, int cells) {
    const int col = static_cast<int>(c % static_cast<std::size_t>(columns));
    const int row = static_cast<int>(c / static_cast<std::size_t>(columns));
    return std::abs(col - lead_col) <= cells && std::abs(row - lead_row) <= cells;
  };
  const float tol = state.settings.tolerance;

  // Far chains: one colour ramp from a dark stem to a tip that is green when the chain reached
  // its own target, amber while it chases.
  field_lines.clear();
  // Away from the target the chains stand nearly straight: two segments (root, middle joint,
  // tip) show their lean. Line primitives are what a software rasteriser pays for.
  const std::size_t coarse = std::max<std::size_t>(1, jc / 2);
  const std::size_t fine_chains = (2 * kFineCells + 1) * (2 * kFineCells + 1);
  const std::size_t fine = std::max<std::size_t>(
      1, (fine_chains * 2 * (jc - 1) + kMaxFineVertices - 1) / kMaxFineVertices);
  for (std::size_t c = 0; c < n; ++c) {
    if (near(c, kNearCells) || c == field.sample(0) || c == field.sample(1)) continue;
    const glm::vec3* p = &poses[c * jc];
    const glm::vec4 tip =
        field.batch().outcome(c).distance <= tol ? draw::kFieldTipReached : draw::kFieldTipChasing;
    const std::size_t step = near(c, kFineCells) ? std::min(fine, coarse) : coarse;
    const float last = static_cast<float>(jc - 1);
    for (std::size_t i = 0; i + 1 < jc; i += step) {
      const std::size_t k = std::min(i + step, jc - 1);
      field_lines.push_back(
          {p[i], draw::kFieldStem + (tip - draw::kFieldStem) * (static_cast<float>(i) / last)});
      field_lines.push_back(
          {p[k], draw::kFieldStem + (tip - draw::kFieldStem) * (static_cast<float>(k) / last)});
    }
  }
  renderer.DrawLines(field_lines, 1.0f, false);

  // Near and sampled chains in full (every `stride`-th joint when that is too much).
  bones.clear();
  spheres.clear();
  const std::size_t full_chains = (2 * kNearCells + 1) * (2 * kNearCells + 1) + 2;
  const std::size_t stride =
      std::max<std::size_t>(1, (full_chains * 2 * jc + kMaxNearItems - 1) / kMaxNearItems);
  auto full = [&](std::size_t c, bool sampled) {
    const glm::vec3* p = &poses[c * jc];
    const bool reached = field.batch().outcome(c).distance <= tol;
    // The sampled chains are drawn thicker: they are the ones to look at and check.
    const float r = sampled ? base * 2.0f : base * 0.7f;
    for (std::size_t i = 0; i + 1 < jc; i += stride) {
      const std::size_t k = std::min(i + stride, jc - 1);
      bones.push_back(
          {p[i], r, p[k], r * 0.7f, sampled ? draw::kFieldSample : draw::kFieldBone});
    }
    for (std::size_t i = stride; i + 1 < jc; i += stride)
      spheres.push_back({p[i], base * 0.8f, draw::kFieldJoint});
    spheres.push_back(
        {p[jc - 1], base * 1.1f, reached ? draw::kFieldTipReached : draw::kFieldTipChasing});
  };
  for (int row = std::max(0, lead_row - kNearCells); row <= lead_row + kNearCells; ++row) {
    for (int col = std::max(0, lead_col - kNearCells);
         col <= std::min(columns - 1, lead_col + kNearCells); ++col) {
      const std::size_t c = static_cast<std::size_t>(row) * columns + col;
      if (c < n && c != field.sample(0) && c != field.sample(1)) full(c, false);
    }
  }
  full(field.sample(0), true);
  if (field.sample(1) != field.sample(0)) full(field.sample(1), true);
  renderer.DrawBones(bones);
  renderer.DrawSpheres(spheres);

  // The shared target.
  lines.clear();
  spheres.clear();
  const glm::vec4 color(0.98f, 0.92f, 0.55f, 0.85f);
  drawer.AddTargetMarker(state.target(), color, base * 1.5f, planar);
  renderer.DrawLines(lines, 1.5f, true);
  renderer.DrawSpheres(spheres);
  drawer.DrawSpline(state, renderer, base);
}

}  // namespace fabrik
